"""``/api/tournaments/{slug}/live/events/``: a tournament's live events as Server-Sent Events.

Visible to whoever may see the tournament (a draft is a 404 but for its staff). ``?tour=N`` and
``?table=N`` keep the events of one tour and one table (their numbers); ``?after=N`` or the
``Last-Event-ID`` header (which wins: the browser sends it when it reconnects) replays what came
after event N first. Each event is ``id:`` (its number), ``event:`` (its kind) and ``data:``
(JSON); see :func:`scoring.push.stream.stream` for ``hello`` and ``reset``.

Under WSGI (``manage.py runserver``, the tests' live server) a request cannot be held open
without holding a thread for good: the answer is what the stream would send first and ends there,
and the browser's EventSource asks again after ``retry`` with the last number it got.

One client address holds at most ``LIVE_STREAMS_PER_ADDRESS`` streams (:mod:`scoring.push.quota`;
under WSGI, while each poll is answered); past it the answer is 429.
"""

from __future__ import annotations

from typing import AsyncIterator

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.web.api import client_address
from tournaments import permissions
from tournaments.web.api import error_body

from scoring.push import quota
from scoring.push.stream import Message, opening, stream
from scoring.recording.state import scope_state
from tournaments.permissions import AnyUser

#: How long a browser waits before it reconnects, in milliseconds.
RETRY_MILLISECONDS = 1000
#: What a client holding too many streams is told to wait, in seconds.
RETRY_AFTER_SECONDS = 30


def _visible_tournament(user: AnyUser, slug: str) -> int:
    """The id of the tournament ``user`` may see, or a 404; then the request thread's database
    connections are given back, since the stream holds the request for hours."""
    try:
        return get_object_or_404(permissions.visible_tournaments(user), slug=slug).pk
    finally:
        close_old_connections()


def _number(value: str | None, name: str, errors: dict[str, list[str]], least: int) -> int | None:
    if value is None or value == "":
        return None
    value = value.strip()
    if value.isascii() and value.isdigit() and int(value) >= least:
        return int(value)
    errors[name] = [_("A whole number from %(least)s.") % {"least": least}]
    return None


def encode(message: Message | None) -> str:
    """One event in the text/event-stream format; a comment line for None (the heartbeat)."""
    if message is None:
        return ": heartbeat\n\n"
    return f"id: {message.number}\nevent: {message.kind}\ndata: {message.encoded}\n\n"


def _retry() -> str:
    return f"retry: {RETRY_MILLISECONDS}\n\n"


async def _body(messages: AsyncIterator[Message | None], ticket: quota.Ticket) -> AsyncIterator[str]:
    yield _retry()
    async for message in messages:
        yield encode(message)
        if ticket.due():
            await sync_to_async(ticket.refresh, thread_sensitive=False)()


class _EventStream(StreamingHttpResponse):
    """A stream that counts as one of its client's until the server closes it (also when the
    client went away before the first event)."""

    def __init__(self, messages: AsyncIterator[Message | None], ticket: quota.Ticket, content_type: str):
        super().__init__(_body(messages, ticket), content_type=content_type)
        self.ticket = ticket

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.ticket.release()


@require_GET
async def live_events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The tournament's live events (module docstring)."""
    tournament_id = await sync_to_async(_visible_tournament)(request.user, slug)
    errors: dict[str, list[str]] = {}
    tour = _number(request.GET.get("tour"), "tour", errors, 1)
    table = _number(request.GET.get("table"), "table", errors, 1)
    last_event = request.headers.get("Last-Event-ID")
    after = _number(last_event if last_event is not None else request.GET.get("after"),
                    "Last-Event-ID" if last_event is not None else "after", errors, 0)
    if errors:
        detail = " ".join(f"{name}: {message}" for name, messages in errors.items() for message in messages)
        return JsonResponse(error_body(detail, errors), status=400, json_dumps_params={"ensure_ascii": False})
    ticket = await quota.take_async(client_address(request))
    response: HttpResponseBase
    if ticket is None:
        detail = _("Too many live streams are open from your address; close some or try again later.")
        response = JsonResponse(error_body(detail), status=429, json_dumps_params={"ensure_ascii": False})
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    content_type = "text/event-stream; charset=utf-8"
    if isinstance(request, ASGIRequest):
        response = _EventStream(stream(tournament_id, after, tour, table, snapshot=scope_state), ticket, content_type)
    else:
        try:
            messages = await opening(tournament_id, after, tour, table, snapshot=scope_state)
        finally:
            ticket.release()
        response = HttpResponse(_retry() + "".join(encode(message) for message in messages), content_type=content_type)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
