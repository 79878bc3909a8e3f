"""Sign-ins: wrong passwords are limited (django-axes) by login and address together, on the login
page, the admin's and the API's token endpoint; API tokens end with a password change and can be
revoked."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from builders import user

pytestmark = pytest.mark.django_db

LIMIT = 5  # settings.AXES_FAILURE_LIMIT's default
HERE, ELSEWHERE = "203.0.113.7", "198.51.100.23"


@pytest.fixture
def referee(db):
    return user("Судья-Ёлкин")  # the password is "pw-Судья-Ёлкин"


def _page_login(client, path, password, address=HERE, username="Судья-Ёлкин"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("path", ["/accounts/login/", "/en/accounts/login/", "/admin/login/"])
def test_after_the_limit_the_right_password_is_refused_from_that_address(referee, path):
    client = Client()
    for _n in range(LIMIT - 1):
        assert _page_login(client, path, "wrong").status_code == 200
    response = _page_login(client, path, "pw-Судья-Ёлкин")
    if path == "/admin/login/":
        assert response.status_code == 200  # the right password, but the admin is for staff logins only
    else:
        assert response.status_code == 302  # the right one still works before the limit: and resets it
    client = Client()
    for _n in range(LIMIT):
        _page_login(client, path, "wrong")
    response = _page_login(client, path, "pw-Судья-Ёлкин")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    page = response.content.decode()
    if path.startswith("/en/"):
        assert "Too many failed sign-ins with this login from your address: try again in 15 minutes." in page
    else:
        assert ("Слишком много неудачных попыток входа под этим логином с вашего адреса: попробуйте снова "
                "через 15 мин.") in page
    # Nobody locks him out from elsewhere: from another address he signs in.
    assert _page_login(Client(), "/accounts/login/", "pw-Судья-Ёлкин", address=ELSEWHERE).status_code == 302


def test_the_lock_ends_after_the_cool_off(referee):
    from axes.models import AccessAttempt

    client = Client()
    for _n in range(LIMIT):
        _page_login(client, "/en/accounts/login/", "wrong")
    assert _page_login(client, "/en/accounts/login/", "pw-Судья-Ёлкин").status_code == 429
    AccessAttempt.objects.update(attempt_time="2000-01-01T00:00:00Z")
    assert _page_login(client, "/en/accounts/login/", "pw-Судья-Ёлкин").status_code == 302


def test_the_token_endpoint_is_limited_too_with_a_json_error(referee):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=HERE)
    for _n in range(LIMIT):
        response = api.post("/api/auth/token/", {"username": "Судья-Ёлкин", "password": "wrong"}, format="json")
        assert response.status_code in (400, 429)
    response = api.post("/api/auth/token/", {"username": "Судья-Ёлкин", "password": "pw-Судья-Ёлкин"}, format="json")
    assert response.status_code == 429
    assert response.json() == {
        "detail": "Too many failed sign-ins with this login from your address: try again in 15 minutes."}
    assert response["Retry-After"] == "900"
    assert not Token.objects.filter(user=referee).exists()
    russian = APIClient(REMOTE_ADDR=HERE).post("/api/auth/token/", {"username": "Судья-Ёлкин", "password": "x"},
                                               format="json")
    assert russian.status_code == 429 and russian.json()["detail"].startswith("Слишком много неудачных попыток")
    elsewhere = APIClient(REMOTE_ADDR=ELSEWHERE).post(
        "/api/auth/token/", {"username": "Судья-Ёлкин", "password": "pw-Судья-Ёлкин"}, format="json")
    assert elsewhere.status_code == 200 and elsewhere.json()["token"]


def _token(password="pw-Судья-Ёлкин") -> str:
    response = APIClient().post("/api/auth/token/", {"username": "Судья-Ёлкин", "password": password}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


def _authorised(token: str) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def test_a_password_change_revokes_the_tokens(referee):
    token = _token()
    assert _authorised(token).delete("/api/players/0/").status_code in (403, 404, 405)  # authenticated
    referee.set_password("новый-пароль-Ёлкина")
    referee.save()
    response = _authorised(token).post("/api/tournaments/", {}, format="json")
    assert response.status_code == 401 and response.json() == {"detail": "Invalid token."}
    assert _token("новый-пароль-Ёлкина") != token


def test_signing_in_again_keeps_the_token(referee):
    """A hash upgraded at sign-in is no password change: the token stays."""
    token = _token()
    referee.refresh_from_db()
    assert referee.check_password("pw-Судья-Ёлкин")
    assert _token() == token


def test_delete_revokes_the_token_used(referee):
    token = _token()
    api = _authorised(token)
    response = api.delete("/api/auth/token/")
    assert response.status_code == 204
    assert not Token.objects.filter(key=token).exists()
    response = api.delete("/api/auth/token/")
    assert response.status_code == 401 and response.json() == {"detail": "Invalid token."}
    response = APIClient(HTTP_ACCEPT_LANGUAGE="en").delete("/api/auth/token/")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    assert response.json() == {"detail": "Authentication credentials were not provided."}


def test_the_schema_documents_the_token_endpoint(client):
    import json

    schema = json.loads(client.get("/api/schema/", {"format": "json"}).content)
    operations = schema["paths"]["/api/auth/token/"]
    assert {"post", "delete"} <= set(operations)
    assert "204" in operations["delete"]["responses"]
    assert "429" in operations["post"]["responses"]
