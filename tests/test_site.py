import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

BASE_DIR = Path(__file__).resolve().parent.parent
TITLE_RU = "Турниры по спортивному домино"
TITLE_EN = "Sports domino tournaments"


def test_home_is_russian_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ru">' in html
    assert TITLE_RU in html
    assert TITLE_EN not in html


def test_home_in_english_under_en(client):
    response = client.get("/en/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert TITLE_EN in html
    assert TITLE_RU not in html


@pytest.mark.parametrize(("page", "language", "target"), [("/", "en", "/en/"), ("/en/", "ru", "/")])
def test_language_switch_leads_to_the_same_page_in_the_other_language(
    client, page, language, target
):
    html = client.get(page).content.decode()
    assert 'action="/i18n/setlang/"' in html
    next_url = re.search(r'name="next" value="([^"]*)"', html).group(1)
    response = client.post("/i18n/setlang/", {"language": language, "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == target


def test_admin_login_page(client):
    assert client.get("/admin/login/").status_code == 200
    assert "Log in" in client.get("/en/admin/login/").content.decode()


def test_api_schema_is_openapi_3(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Sports domino tournaments API"
    assert "/api/auth/token/" in schema["paths"]


def test_api_docs_use_local_swagger_ui(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn." not in html


@pytest.mark.django_db
def test_load_demo_is_idempotent_and_keeps_changed_passwords():
    User = get_user_model()
    call_command("load_demo")
    assert User.objects.count() == 3
    organiser = authenticate(username="organiser", password="demo-organiser")
    referee = authenticate(username="referee", password="demo-referee")
    assert organiser.is_superuser and organiser.is_staff
    assert not referee.is_staff and not referee.is_superuser  # only the superuser is staff of the admin

    referee.set_password("changed-by-the-referee")
    referee.save()
    call_command("load_demo")
    assert User.objects.count() == 3
    assert authenticate(username="referee", password="changed-by-the-referee")


@pytest.mark.django_db
def test_demo_login_gets_an_api_token(client):
    call_command("load_demo")
    response = client.post(
        "/api/auth/token/", {"username": "organiser", "password": "demo-organiser"}
    )
    assert response.status_code == 200
    assert response.json()["token"]


def _secret_key_in_fresh_process(env: dict) -> str:
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env,
        capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


def test_secret_key_is_generated_once_into_var_dir(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")

    first = _secret_key_in_fresh_process(env)
    key_file = tmp_path / "secret_key"
    assert len(first) >= 50
    assert key_file.read_text() == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert _secret_key_in_fresh_process(env) == first

    env["SECRET_KEY"] = "from-the-environment"
    assert _secret_key_in_fresh_process(env) == "from-the-environment"


def test_the_site_has_an_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("/img/favicon.svg")
    assert 'rel="icon"' in client.get("/").content.decode()
