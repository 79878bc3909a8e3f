"""The web server's worker: uvicorn's under gunicorn, with a deadline for a request's headers and
a keep-alive long enough for a phone's next move.

uvicorn times only the wait between two requests of a connection (``timeout_keep_alive``): a
connection that sends nothing, or sends its request line and headers a byte at a time, is held
open for ever, and enough of them hold every connection the server has. Here a request's headers
must arrive whole within ``REQUEST_READ_TIMEOUT_SECONDS`` from the connection's opening (the first
request) or from the request's first byte (the next ones); otherwise the connection is closed.
The body has as long again, timed by :class:`tournaments.web.uploads.BoundedBodies`.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from django.conf import settings
from django.urls import get_resolver
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]


class TimedHttpToolsProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.headers_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._time_headers()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.headers_timer is None:  # the first request's runs since the connection opened
            self._time_headers()

    def on_headers_complete(self) -> None:
        self._stop_timing()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timing()
        super().connection_lost(exc)

    def _time_headers(self) -> None:
        self.headers_timer = self.loop.call_later(settings.REQUEST_READ_TIMEOUT_SECONDS, self._headers_timed_out)

    def _stop_timing(self) -> None:
        if self.headers_timer is not None:
            self.headers_timer.cancel()
            self.headers_timer = None

    def _headers_timed_out(self) -> None:
        self.headers_timer = None
        if not self.transport.is_closing():
            self.logger.info("%s:%d - request headers not received in time: connection closed",
                             *(self.client or ("?", 0)))
            self.transport.close()


#: How long an idle connection is kept for its next request. A phone at a live table sends a move
#: every few seconds over one connection; with gunicorn's default (2 s) the server closed it
#: between two moves, and a move sent as it closed failed on the phone (a POST is not retried):
#: 12 of 250 tables in bench/live.py. Longer than a player thinks, and than a proxy's keep-alive
#: towards it (nginx: 75 s), so the proxy, not the server, closes an idle connection first.
KEEP_ALIVE_SECONDS = 90


class Worker(UvicornWorker):
    """``gunicorn --worker-class config.server.Worker`` (config/run.sh, README's Production); it
    keeps idle connections :data:`KEEP_ALIVE_SECONDS` whatever gunicorn's ``--keep-alive``, and
    settles its heap once the application is loaded (:func:`settle`)."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "http": TimedHttpToolsProtocol,
                     "timeout_keep_alive": KEEP_ALIVE_SECONDS}

    def load_wsgi(self) -> None:
        super().load_wsgi()
        settle()


def settle() -> None:
    """Load what every request needs (the views, through the URL configuration) and freeze the
    heap so loaded: the collector's full passes no longer walk the application's own objects.

    A web worker serving a hall (``bench/live.py``: 250 tables, 1,000 streams) kept some 300,000
    objects, 190,000 of them the application's. A full pass of the collector over them held the
    process, and every request in it, for 100 to 490 ms, about fifteen times in four minutes: the
    tail of the moves' latency (README, Performance)."""
    get_resolver().url_patterns  # imports every view module
    gc.collect()
    gc.freeze()
