"""The headers every page carries (Content-Security-Policy and the others), the templates keeping
to the policy, and the page of a server error."""

import re
from pathlib import Path

import pytest
from django.template import loader
from django.test import Client
from django.utils import translation

from tournaments import views

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# Rendered by WeasyPrint into a PDF, never served to a browser: their inline style is no page's
# (the protocols, the PIN slips, the paper forms of a tour and its seating list).
NOT_PAGES = {"protocols/pdf.html", "protocols/pin_slips.html", "protocols/paper/forms.html",
             "protocols/paper/seating.html", "protocols/crosstable.html"}
CSP = "Content-Security-Policy"


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/en/tournaments/", "/accounts/login/", "/verify/", "/api/docs/",
                                  "/admin/login/", "/api/tournaments/", "/no-such-page/"])
def test_every_answer_carries_a_strict_policy_and_the_security_headers(client, path):
    response = client.get(path)
    assert response.status_code in (200, 404), path
    policy = directives(response[CSP])
    assert policy["default-src"] == ["'self'"]
    # Nothing inline anywhere, nothing from another site, nothing evaluated.
    assert not {"script-src", "style-src", "connect-src", "font-src"} & set(policy)
    assert "'unsafe-inline'" not in response[CSP] and "'unsafe-eval'" not in response[CSP]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


INLINE = [
    ("an inline script", re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)),
    ("an inline style element", re.compile(r"<style\b", re.I)),
    ("a style attribute", re.compile(r"\sstyle\s*=", re.I)),
    ("an event handler attribute", re.compile(r"\son[a-z]+\s*=", re.I)),
    ("a javascript: URL", re.compile(r"javascript:", re.I)),
]


def test_no_template_has_inline_script_style_or_event_handlers():
    """What the policy would block: styles and scripts belong in static files."""
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = path.relative_to(TEMPLATES).as_posix()
        if name in NOT_PAGES:
            continue
        text = path.read_text()
        found += [f"{name}: {what}" for what, pattern in INLINE if pattern.search(text)]
    assert found == []


def test_the_swagger_ui_page_starts_from_a_script_file(client):
    html = client.get("/api/docs/").content.decode()
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all("src=" in tag for tag in scripts)
    start = re.search(r'<script src="([^"]*script[^"]*)"', html).group(1).replace("&amp;", "&")
    response = client.get(start)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in response.content.decode()


SERVER_ERROR_RU = "Ошибка на сервере"
SERVER_ERROR_EN = "Server error"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/en/"])
def test_a_server_error_shows_the_500_page_russian_first(path, monkeypatch, settings):
    settings.DEBUG = False

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a view")

    monkeypatch.setattr(views, "render", broken)  # the home page breaks
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="ru">' in html
    assert SERVER_ERROR_RU in html and SERVER_ERROR_EN in html
    assert html.index(SERVER_ERROR_RU) < html.index(SERVER_ERROR_EN)
    assert "a bug in a view" not in html and "Traceback" not in html
    assert directives(response[CSP])["default-src"] == ["'self'"]


def test_the_500_page_renders_with_no_context_at_all():
    """Django's server_error renders it with an empty context: no request, user or language switch."""
    with translation.override("en"):
        html = loader.get_template("500.html").render()
    assert html.index(SERVER_ERROR_RU) < html.index(SERVER_ERROR_EN)
    assert "На сервере что-то пошло не так" in html and "Something went wrong on the server" in html
