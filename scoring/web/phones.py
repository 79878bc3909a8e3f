"""The lean path of a phone's requests at a live table, beside Django's ASGI handler.

A phone at a digital table is not signed in: it reads its table (``GET /api/partitions/{id}/live/``),
takes its seat with the player's PIN (``POST .../live/seat/``) and sends each move and draw of its
player with the seat's token (``POST .../live/move/``, ``.../live/draw/``). These are nearly all the
requests of a live tour, and Django's handler spends more on them than the move itself: a thread hop
for each signal and middleware, the session and login middleware, DRF's dispatch.
:class:`PhoneRoutes` answers them itself, in one hop to a worker thread of a pool (several requests
of a process wait on PostgreSQL at once, not in turn in Django's one thread for synchronous views):

- the same functions as the DRF viewset (:mod:`scoring.web.live_api`: the visibility check, the
  body's serializer, the service of :mod:`scoring.live.play` and so the one pipeline, the table as
  the phone sees it), through DRF's own ``Request`` (parsing, the JSON reader's limits, the content
  negotiation) and the API's exception handler: the same answers, errors included;
- through the middleware of ``settings.MIDDLEWARE`` that shapes such an answer (the redirect to
  HTTPS, the Host check, the language, the security headers, the error body), in their order; the
  ones it leaves out are named in
  :data:`NOT_FOR_PHONES` with the reason, and a middleware in neither list stops the process at
  start-up, so none is left out unseen;
- a request signed in (a session cookie, an ``Authorization`` header), of another method or path,
  or that this path would not answer as Django does (a body refused by
  :class:`~tournaments.web.uploads.BoundedBodies`, whose 413 the body limit's middleware answers
  from the view's limit; a body Django cannot read) goes to Django's handler, its body replayed.

``tests/live/test_phone_routes.py`` sends each request of a corpus both ways and compares the
status, the headers and the body.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core import signals
from django.core.exceptions import ImproperlyConfigured, RequestAborted
from django.core.handlers.asgi import ASGIHandler, ASGIRequest, get_script_prefix
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpResponse
from django.urls import set_script_prefix
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.log import log_response
from django.utils.module_loading import import_string
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.live import play
from scoring.web.api import client_address
from scoring.web.live_api import LiveTableViewSet, device_id, draw_tile, move_tile, read_table, stale_turn, take_seat
from tournaments.web.api import exception_handler
from tournaments.web.uploads import REFUSED

#: The middleware of ``settings.MIDDLEWARE`` a phone's answer goes through, in that setting's order.
FOR_PHONES = frozenset({
    "django.middleware.security.SecurityMiddleware",  # the redirect to HTTPS; the headers
    "csp.middleware.CSPMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # Content-Language
    "tournaments.web.api.ApiMiddleware",  # the language asked for; every error as JSON
    "django.middleware.common.CommonMiddleware",  # the Host check; Content-Length
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
})
#: The middleware a phone's request does without, and why.
NOT_FOR_PHONES = {
    "whitenoise.middleware.WhiteNoiseMiddleware": "static files only",
    "django.contrib.sessions.middleware.SessionMiddleware": "a request with a session goes to Django (VaryCookie)",
    "tournaments.web.uploads.BodyLimitMiddleware": "a body BoundedBodies refused goes to Django",
    "django.middleware.csrf.CsrfViewMiddleware": "DRF's views are exempt; no session, no CSRF",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "nobody is signed in: AnonymousUser",
    "django.contrib.messages.middleware.MessageMiddleware": "no page, no message",
    "axes.middleware.AxesMiddleware": "no sign-in",
}


@dataclass(frozen=True)
class Route:
    """A phone's request: the function of :mod:`scoring.web.live_api` that answers it, and the
    Allow header DRF sends with it."""

    action: Callable[..., dict[str, Any]]
    allow: str


ROUTES = {
    ("GET", ""): Route(read_table, "GET, HEAD, OPTIONS"),
    ("POST", "move"): Route(move_tile, "POST, OPTIONS"),
    ("POST", "draw"): Route(draw_tile, "POST, OPTIONS"),
    ("POST", "seat"): Route(take_seat, "POST, OPTIONS"),
}
#: Their paths (api_urls: ``partitions/<int:pk>/live/`` and its actions; Django's int is [0-9]+).
PATH = re.compile(r"/api/partitions/([0-9]+)/live/(?:(move|draw|seat)/)?")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


class VaryCookie:
    """In SessionMiddleware's place, with AuthenticationMiddleware's user: the request's user is
    anonymous, and once DRF's authentication has looked at him (and so, under Django, at the
    session), the answer says "Vary: Cookie", as SessionMiddleware does: the same address answers
    a signed-in referee otherwise (he sees the hands)."""

    def __init__(self, get_response: Callable[[Any], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> HttpResponse:
        looked = False

        def anonymous() -> AnonymousUser:
            nonlocal looked
            looked = True
            return AnonymousUser()

        request.user = SimpleLazyObject(anonymous)
        response = self.get_response(request)
        if looked:
            patch_vary_headers(response, ("Cookie",))
        return response


#: What stands in a left-out middleware's place in the chain.
STAND_INS = {"django.contrib.sessions.middleware.SessionMiddleware": VaryCookie}


class PhoneRoutes:
    """ASGI application: a phone's requests answered here (see the module's text), the rest by
    ``app``, Django's handler.

    ``thread_sensitive``: where the answer is worked out. False (the server's): a thread of the
    event loop's pool, each with its own database connection from the process's pool. True: in
    the thread that runs the loop's synchronous code, as Django's own views are (the tests call
    the application from their thread, whose transaction it then sees)."""

    def __init__(self, app: ASGIHandler, *, thread_sensitive: bool = False) -> None:
        self.app = app
        self.thread_sensitive = thread_sensitive
        unknown = [path for path in settings.MIDDLEWARE if path not in FOR_PHONES and path not in NOT_FOR_PHONES]
        if unknown:
            raise ImproperlyConfigured(f"scoring.web.phones: say whether a phone's request goes through {unknown} "
                                       "(FOR_PHONES) or not (NOT_FOR_PHONES, with the reason).")
        handler: Callable[[Any], Any] = convert_exception_to_response(self.answer)
        for path in reversed(settings.MIDDLEWARE):
            if path in FOR_PHONES or path in STAND_INS:
                middleware = import_string(path) if path in FOR_PHONES else STAND_INS[path]
                handler = convert_exception_to_response(middleware(handler))
        self.chain = handler
        self.view = LiveTableViewSet()
        self.authenticators = self.view.get_authenticators()
        self.parsers = [parser() for parser in LiveTableViewSet.parser_classes]
        self.renderers = self.view.get_renderers()
        self.negotiator = DefaultContentNegotiation()

    def route(self, scope: Scope) -> tuple[Route, int] | None:
        """The phone's request ``scope`` is, with its partition's id; None: Django's."""
        if scope["type"] != "http":
            return None
        path = scope["path"]
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root):]
        match = PATH.fullmatch(path)
        if match is None:
            return None
        route = ROUTES.get((scope["method"], match[2] or ""))
        if route is None:
            return None
        for name, value in scope["headers"]:
            if name == b"authorization" or (name == b"cookie" and _has_session(value)):
                return None
        return route, int(match[1])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.route(scope)
        if found is None:
            return await self.app(scope, receive, send)
        try:
            body_file = await self.app.read_body(receive)
        except RequestAborted:  # the client is gone
            return
        request, _error = self.app.create_request(scope, body_file)
        if request is None or REFUSED in scope:
            body = body_file.read()
            body_file.close()
            return await self.app(scope, _replay(body, receive), send)
        try:
            response = await sync_to_async(self.respond, thread_sensitive=self.thread_sensitive)(request, *found)
            await self.app.send_response(response, send)
        finally:
            body_file.close()

    def respond(self, request: ASGIRequest, route: Route, pk: int) -> HttpResponse:
        """The answer, in the worker thread: the signals of a request around it (the database
        connection is taken and given back), the middleware, the action."""
        set_script_prefix(get_script_prefix(request.scope))
        try:
            signals.request_started.send(sender=self.__class__, scope=request.scope)
            request.phone = (route, pk)  # type: ignore[attr-defined]
            response = self.chain(request)  # every exception is an answer (convert_exception_to_response)
        except BaseException:
            signals.request_finished.send(sender=self.__class__)  # the connection goes back all the same
            raise
        if response.status_code >= 400:  # as Django's handler logs them
            log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request)
        response.close()  # request_finished: the database connection goes back to the pool
        return response

    def answer(self, request: Any) -> HttpResponse:
        """The view's part: what DRF's dispatch does for this viewset's action, in one function."""
        route, pk = request.phone  # type: ignore[attr-defined]
        drf = Request(request, parsers=self.parsers, authenticators=self.authenticators, negotiator=self.negotiator)
        try:
            renderer, media_type = self.negotiator.select_renderer(drf, self.renderers)
            drf.accepted_renderer, drf.accepted_media_type = renderer, media_type
            actor = play.Actor(drf.user, request.headers.get("X-Seat-Token", ""), client_address(request))
            body = drf.data if request.method == "POST" else None
            response: Response | None = Response(route.action(actor, pk, body, device_id(request.headers)))
        except Exception as exc:
            stale = stale_turn(exc)
            response = (Response(stale[1], status=stale[0]) if stale is not None
                        else exception_handler(exc, {"request": drf, "view": self.view}))
            if response is None:
                raise
            if not hasattr(drf, "accepted_renderer"):  # refused by the negotiation itself: DRF's first renderer
                drf.accepted_renderer, drf.accepted_media_type = self.renderers[0], self.renderers[0].media_type
        assert response is not None
        response.accepted_renderer = drf.accepted_renderer
        response.accepted_media_type = drf.accepted_media_type
        context = {"view": self.view, "request": drf, "args": (), "kwargs": {"pk": pk}}
        response.renderer_context = context  # type: ignore[attr-defined]
        response["Allow"] = route.allow
        return response.render()


def _has_session(cookies: bytes) -> bool:
    name = settings.SESSION_COOKIE_NAME.encode()
    return any(part.strip().startswith(name + b"=") for part in cookies.split(b";"))


def _replay(body: bytes, receive: Receive) -> Receive:
    """The request's body again, for Django's handler; then the connection's own messages."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again
