"""Bounds on request bodies, checked before anything reads them.

Django counts a form's fields against ``DATA_UPLOAD_MAX_MEMORY_SIZE`` but not its files (they
are spooled to disk, however large), and DRF's parsers read a JSON or CSV body whole without
looking at that setting. :class:`BodyLimitMiddleware` compares a request's Content-Length with
the limit of the view it goes to before the CSRF check or the view reads a byte, and answers
413 (JSON under /api/, a page elsewhere). Under WSGI a body is read only up to its
Content-Length (one sent without it reads as empty), so that header bounds what is read.

Under ASGI Django reads the whole body, whatever its length, before any middleware runs.
:class:`BoundedBodies` wraps the ASGI application (config/asgi.py) and counts the body's bytes as
they arrive against the limit of the view the path goes to: a Content-Length over it, or a
(chunked) body that passes it, ends the body there, unread, and so does a body not arrived
within ``REQUEST_READ_TIMEOUT_SECONDS``. It marks the request (:data:`REFUSED`), for
:class:`BodyLimitMiddleware` to answer 413 or 408, and closes the connection after the answer.

A view that takes a file declares the largest one with :func:`upload_limit` (at most
``settings.UPLOAD_MAX_SIZE``); its body may be that much plus :data:`MULTIPART_ALLOWANCE` for the
form's other fields and the multipart framing, and the view checks the file's own size. Every
other view takes a body of ``DATA_UPLOAD_MAX_MEMORY_SIZE`` at most.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _

from .api import API_PREFIX, error_body

MULTIPART_ALLOWANCE = 64 * 1024


def upload_limit(size: int | str) -> Callable:
    """Declare the largest file a view (a function, or a method of a DRF view) takes: a number of
    bytes, or the name of a setting holding it (read at each request)."""

    def declare(view: Callable) -> Callable:
        view.upload_limit = size  # type: ignore[attr-defined]
        return view

    return declare


def file_limit(view_func: Callable, method: str) -> int | None:
    """The largest file the view takes, or None when it takes no file."""
    declared = getattr(view_func, "upload_limit", None)
    view_class = getattr(view_func, "cls", None)  # a DRF view: the handler of the method
    if declared is None and view_class is not None:
        handler = (getattr(view_func, "actions", None) or {}).get(method.lower(), method.lower())
        declared = getattr(getattr(view_class, handler, None), "upload_limit", None)
    if declared is None:
        return None
    size = getattr(settings, declared) if isinstance(declared, str) else declared
    return min(size, settings.UPLOAD_MAX_SIZE)


def body_limit(view_func: Callable, method: str) -> int | None:
    """The largest body the view is sent (None: no limit, when DATA_UPLOAD_MAX_MEMORY_SIZE is None)."""
    size = file_limit(view_func, method)
    if size is not None:
        return size + MULTIPART_ALLOWANCE
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def path_body_limit(path_info: str, method: str) -> int | None:
    """:func:`body_limit` of the view a path goes to, before Django has resolved it (a page's
    path resolves in the language its prefix names)."""
    language = translation.get_language_from_path(path_info) or settings.LANGUAGE_CODE
    with translation.override(language):
        try:
            match = resolve(path_info)
        except Resolver404:
            return settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return body_limit(match.func, method)


#: The ASGI scope's key where :class:`BoundedBodies` says why it ended a body early.
REFUSED = "domino.body_refused"
TOO_LARGE, TOO_SLOW = "too large", "too slow"


class BodyLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs) -> HttpResponse | None:
        refused = getattr(request, "scope", {}).get(REFUSED)  # ASGI only
        if refused == TOO_SLOW:
            return refuse(request, 408, _("The request did not arrive in time (%(seconds)s s): send it again.")
                          % {"seconds": f"{settings.REQUEST_READ_TIMEOUT_SECONDS:g}"})
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads such a body as empty
        limit = body_limit(view_func, request.method)
        if limit is None or (length <= limit and refused != TOO_LARGE):
            return None
        size = file_limit(view_func, request.method)
        message = (_("The file is too large: at most %(size)s.") % {"size": filesizeformat(size)} if size is not None
                   else _("The request is too large: at most %(size)s.") % {"size": filesizeformat(limit)})
        return refuse(request, 413, message)


def refuse(request, status: int, message: str) -> HttpResponse:
    if request.path_info.startswith(API_PREFIX):
        return JsonResponse(error_body(message), status=status, json_dumps_params={"ensure_ascii": False})
    heading = _("Too large") if status == 413 else _("Too slow")
    return render(request, "413.html", {"heading": heading, "message": message}, status=status)


Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BoundedBodies:
    """ASGI middleware: a request's body is read up to its view's limit and within
    ``REQUEST_READ_TIMEOUT_SECONDS``, and no further (see the module's text)."""

    def __init__(self, app: Callable[..., Awaitable[None]]):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        scope = dict(scope)  # ours to mark: Django makes its request from it once the body is read
        body = _Body(scope, receive)

        async def send_closing(message: Message) -> None:
            if message["type"] == "http.response.start" and REFUSED in scope:
                # The rest of the body is still on the way: the connection cannot carry another request.
                message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        await self.app(scope, body.receive, send_closing)


class _Body:
    def __init__(self, scope: Scope, receive: Receive):
        self.scope, self.upstream = scope, receive
        path_info = scope["path"].removeprefix(scope.get("root_path", ""))
        self.limit = path_body_limit(path_info, scope["method"])
        self.deadline = asyncio.get_running_loop().time() + settings.REQUEST_READ_TIMEOUT_SECONDS
        self.received = 0
        self.ended = False
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if self.limit is not None and declared.isdigit() and int(declared) > self.limit:
            scope[REFUSED] = TOO_LARGE

    async def receive(self) -> Message:
        if self.ended:
            if REFUSED in self.scope:
                await asyncio.Event().wait()  # the rest stays unread; Django cancels this wait
            return await self.upstream()  # the body is read: what follows is a disconnect
        if REFUSED not in self.scope:
            remaining = self.deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(self.upstream(), max(remaining, 0))
            except TimeoutError:
                self.scope[REFUSED] = TOO_SLOW
            else:
                if message["type"] != "http.request":
                    return message
                self.received += len(message.get("body", b""))
                if self.limit is None or self.received <= self.limit:
                    self.ended = not message.get("more_body", False)
                    return message
                self.scope[REFUSED] = TOO_LARGE
        self.ended = True
        return {"type": "http.request", "body": b"", "more_body": False}
