"""Every API error is JSON: {"detail": "...", "errors": {field: [messages]}} (config/api.py)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.test import Client
from django.utils import translation
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from apiworld import client
from builders import user
from tournaments import api

pytestmark = pytest.mark.django_db


class Raising(APIView):
    """Raises what the test gives it."""

    permission_classes = [AllowAny]
    error: Exception | None = None

    def get(self, request):
        raise self.error


def raised(error: Exception, *, who=None):
    request = APIRequestFactory().get("/api/raising/")
    if who is not None:
        force_authenticate(request, who)
    response = Raising.as_view(error=error)(request)
    response.render()
    return response


@pytest.mark.parametrize(("error", "status", "body"), [
    (ValidationError("The tournament is finished."), 400, {"detail": "The tournament is finished."}),
    (ValidationError(["A draw needs pairs.", "Table 1: empty."]), 400,
     {"detail": "A draw needs pairs. Table 1: empty."}),
    (ValidationError({"slug": ["Taken."], "starts_on": ["Not a date."]}), 400,
     {"detail": "slug: Taken. starts_on: Not a date.", "errors": {"slug": ["Taken."], "starts_on": ["Not a date."]}}),
    (ValidationError({"__all__": ["Dates out of order."], "name": ["Empty."]}), 400,
     {"detail": "Dates out of order. name: Empty.", "errors": {"name": ["Empty."]}}),
    (ValidationError({"regulations": "regulations.target: must be from 1"}), 400,
     {"detail": "regulations.target: must be from 1",
      "errors": {"regulations": ["regulations.target: must be from 1"]}}),
    (exceptions.ValidationError({"first": {"last_name": ["Required."]}, "tables": [{}, {"pair_a": ["Bad."]}],
                                 "non_field_errors": ["Whole."]}), 400,
     {"detail": "Whole. first.last_name: Required. tables.1.pair_a: Bad.",
      "errors": {"first.last_name": ["Required."], "tables.1.pair_a": ["Bad."]}}),
    (exceptions.ValidationError("Plain."), 400, {"detail": "Plain."}),
    (Http404("No such tour."), 404, {"detail": "No such tour."}),
    # DRF's messages are translated when the exception is made: made in the test, in English.
    (exceptions.NotFound, 404, {"detail": "Not found."}),
    (lambda: exceptions.MethodNotAllowed("DELETE"), 405, {"detail": 'Method "DELETE" not allowed.'}),
    (exceptions.ParseError, 400, {"detail": "Malformed request."}),
])
def test_errors_become_one_json_form(error, status, body):
    with translation.override("en"):
        response = raised(error if isinstance(error, Exception) else error(), who=user("someone"))
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert response.data == body


def test_permission_denied_is_403_for_a_user_and_401_for_nobody():
    with translation.override("en"):
        response = raised(PermissionDenied("Only an organiser may do this."), who=user("someone"))
        assert (response.status_code, response.data) == (403, {"detail": "Only an organiser may do this."})
        response = raised(PermissionDenied("Only an organiser may do this."))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.data == {"detail": "Authentication credentials were not provided."}


def test_throttled_and_failed_authentication_keep_their_headers():
    with translation.override("en"):
        response = raised(exceptions.Throttled(wait=7), who=user("someone"))
        assert response.status_code == 429 and response["Retry-After"] == "7"
        assert set(response.data) == {"detail"} and "throttled" in response.data["detail"]
        response = raised(exceptions.AuthenticationFailed())
    assert response.status_code == 401
    assert response.data == {"detail": "Incorrect authentication credentials."}


def test_unknown_api_address_is_a_json_404_and_pages_stay_html():
    response = client().get("/api/no/such/thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}
    assert "html" in Client().get("/no/such/page/")["Content-Type"]


def test_bad_json_unsupported_method_and_media_type_are_json(world):
    api = client(world.org)
    response = api.post("/api/tournaments/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json() == {"detail": "The JSON is not valid (line 1, column 2)."}
    response = api.delete("/api/tournaments/cup/")
    assert response.status_code == 405 and response.json() == {"detail": 'Method "DELETE" not allowed.'}
    response = api.post("/api/tournaments/", "x", content_type="text/plain")
    assert response.status_code == 415 and set(response.json()) == {"detail"}


def test_a_server_error_is_json_too(world, monkeypatch):
    def crash(self, request):
        raise RuntimeError("bug")

    monkeypatch.setattr(api.TournamentViewSet, "list", crash)
    response = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en").get("/api/tournaments/")
    assert response.status_code == 500
    assert response.json() == {"detail": "A server error occurred."}


def test_messages_follow_accept_language_russian_by_default(world):
    anonymous = client()
    response = anonymous.post("/api/tournaments/", {}, format="json", HTTP_ACCEPT_LANGUAGE="")
    assert response.status_code == 401
    assert response.json() == {"detail": "Учетные данные не были предоставлены."}
    assert response["Content-Language"] == "ru"
    assert "Accept-Language" in response["Vary"]
    response = anonymous.post("/api/tournaments/", {}, format="json")
    assert response.json() == {"detail": "Authentication credentials were not provided."}
    # A service's message goes through gettext in the request's language.
    with translation.override("ru"):
        russian = translation.gettext("Only an organiser of this tournament may do this.")
    player = client(world.player)
    response = player.post("/api/tournaments/cup/tours/generate/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 403 and response.json() == {"detail": russian}
    response = player.post("/api/tournaments/cup/tours/generate/", {}, format="json")
    assert response.json() == {"detail": "Only an organiser of this tournament may do this."}


def test_a_browser_gets_json_too(world):
    response = client().get("/api/tournaments/nothing/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert client().get("/api/tournaments/", HTTP_ACCEPT="text/html,*/*;q=0.8")["Content-Type"] == "application/json"
    assert "html" in client().get("/api/docs/")["Content-Type"]
