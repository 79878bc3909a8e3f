"""Token and session authentication both reach the services as the logged-in user."""

import pytest
from rest_framework.test import APIClient

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NEW = {"name": "Осенний кубок", "slug": "autumn", "starts_on": "2026-10-01", "ends_on": "2026-10-01"}


def test_token_from_the_token_endpoint_authenticates(world):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    response = api.post("/api/auth/token/", {"username": "org", "password": "pw-org"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = api.post("/api/tournaments/", NEW, format="json")
    assert response.status_code == 201
    assert Tournament.objects.get(slug="autumn").created_by == world.org
    assert api.get("/api/tournaments/cup/roles/").status_code == 200  # staff only: he is seen as org


def test_wrong_password_and_bad_token_are_json_errors(world):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    response = api.post("/api/auth/token/", {"username": "org", "password": "wrong"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "Unable to log in with provided credentials."}
    response = api.post("/api/auth/token/", {}, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"username", "password"}
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = api.get("/api/tournaments/")
    assert response.status_code == 401 and response.json() == {"detail": "Invalid token."}


def test_a_login_longer_than_a_login_can_be_is_refused_before_the_sign_in(world):
    from axes.models import AccessAttempt

    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    response = api.post("/api/auth/token/", {"username": "о" * 300, "password": "9"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["username"] == ["Ensure this field has no more than 150 characters."]
    assert not AccessAttempt.objects.exists()  # no failed sign-in recorded: none was tried
    response = api.post("/api/auth/token/", {"username": "о" * 150, "password": "9"}, format="json")
    assert response.status_code == 400 and AccessAttempt.objects.get().username == "о" * 150


def test_no_credentials_is_401_with_the_token_scheme(world):
    response = APIClient(HTTP_ACCEPT_LANGUAGE="en").post("/api/tournaments/", NEW, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == {"detail": "Authentication credentials were not provided."}
    assert not Tournament.objects.filter(slug="autumn").exists()


def test_session_login_authenticates_and_writes_need_the_csrf_token(world):
    api = APIClient(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    assert api.login(username="org", password="pw-org")
    assert api.get("/api/tournaments/cup/roles/").status_code == 200
    response = api.post("/api/tournaments/", NEW, format="json")
    assert response.status_code == 403
    assert response.json()["detail"].startswith("CSRF Failed")
    assert not Tournament.objects.filter(slug="autumn").exists()
    secret = "a" * 32
    api.cookies["csrftoken"] = secret
    response = api.post("/api/tournaments/", NEW, format="json", HTTP_X_CSRFTOKEN=secret)
    assert response.status_code == 201
    assert Tournament.objects.get(slug="autumn").created_by == world.org
