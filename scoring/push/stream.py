"""A tournament's live events as a stream: what was missed (from the database), then what
happens, in the order of their numbers, never with a gap or twice.

:func:`stream` is what one live screen reads. The events come from one :class:`Hub` per event
loop (a web server process has one): with REDIS_URL, one pattern subscription to every
tournament's channel (:data:`scoring.push.events.CHANNEL_PATTERN`), fanned out to the streams
by tournament, tour and table; every :data:`CHECK_SECONDS`, on every (re)subscription and on
every Redis error the hub also reads the events table, so a message Redis lost is late, never
missing. Without Redis the hub reads the table every :data:`POLL_SECONDS`.

Numbers commit in order (:mod:`scoring.push.events`): reading the table after number ``n``
finds every event committed after it, so the hub takes a message whose number is not the next
one as the sign of a lost or early message and reads the table instead.

What one stream may cost is bounded: a replay reads at most ``LIVE_REPLAY_MAX_EVENTS`` numbers
(further back, the stream starts with a ``reset`` carrying the tables' state instead), and the
replays of a process read one ``LIVE_REPLAY_CONCURRENCY`` at a time (:data:`REPLAYS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, TypeVar

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.db.models import Min, Q

from scoring.models import LiveEvent

from scoring.push.events import CHANNEL_PATTERN, last_number

logger = logging.getLogger(__name__)

#: A comment line this often keeps proxies and browsers from closing a quiet stream.
HEARTBEAT_SECONDS = 15.0
#: With Redis: how often the hub reads the table all the same.
CHECK_SECONDS = 5.0
#: Without Redis: how often the hub reads the table.
POLL_SECONDS = 0.5
#: Redis unreachable: the first wait before subscribing again, doubled up to CHECK_SECONDS (each
#: attempt reads the table first, so the screens stay at most that late).
RETRY_SECONDS = 0.5
#: Events read from the table at once.
BATCH = 500
#: Events a stream may have waiting; past it the stream reads the table instead (a slow client).
QUEUE_SIZE = 1000

T = TypeVar("T")
#: Where a stream listens: (tournament id, tour number or None, table number or None).
Scope = tuple[int, int | None, int | None]
#: The state of the tables of a scope, for a ``reset`` (:func:`scoring.recording.state.scope_state`).
Snapshot = Callable[[int, int | None, int | None], list[dict[str, Any]]]


@dataclass(frozen=True)
class Message:
    """An event of a stream: ``number`` is its id (the event's number; for ``hello`` and
    ``reset`` the tournament's last number), ``kind`` its name, ``data`` what it says."""

    tournament: int
    number: int
    kind: str
    data: dict[str, Any]

    @functools.cached_property
    def encoded(self) -> str:
        """``data`` as JSON, made once for all the streams the message goes to."""
        return json.dumps(self.data, ensure_ascii=False, separators=(",", ":"))


def in_thread(function: Callable[..., T]) -> Callable[..., Any]:
    """``function`` reading the database, awaitable: in a worker thread, its connection given
    back at the end (a stream lasts hours; a connection must not)."""

    def call(*args: Any) -> T:
        close_old_connections()
        try:
            return function(*args)
        finally:
            close_old_connections()

    return sync_to_async(call, thread_sensitive=False)


def _events_after(cursors: dict[int, int], tour: int | None = None, table: int | None = None) -> list[Message]:
    """Up to BATCH events of each tournament after its number in ``cursors``, of one tour and one
    table if given, in the order of (tournament, number)."""
    after = Q()
    for tournament, number in cursors.items():
        after |= Q(tournament_id=tournament, number__gt=number)
    events = LiveEvent.objects.filter(after)
    if tour is not None:
        events = events.filter(tour__number=tour)
    if table is not None:
        events = events.filter(table__number=table)
    rows = events.order_by("tournament_id", "number").values_list("tournament_id", "number", "kind", "data")
    return [Message(*row) for row in rows[:BATCH]]


def _events_between(tournament_id: int, after: int, last: int, tour: int | None,
                    table: int | None) -> list[Message]:
    """The events of the scope numbered after ``after`` up to ``last``, in order."""
    events = LiveEvent.objects.filter(tournament_id=tournament_id, number__gt=after, number__lte=last)
    if tour is not None:
        events = events.filter(tour__number=tour)
    if table is not None:
        events = events.filter(table__number=table)
    return [Message(*row) for row in events.order_by("number").values_list("tournament_id", "number", "kind", "data")]


def _bounds(tournament_id: int) -> tuple[int, int | None]:
    """The tournament's last event number, and the first one still kept (None: none kept)."""
    last = last_number(tournament_id)  # first: an event committed in between is kept, not forgotten
    return last, LiveEvent.objects.filter(tournament_id=tournament_id).aggregate(first=Min("number"))["first"]


class Slots:
    """At most ``size()`` holders at once in this process, in the order they asked, whichever
    event loop they run in (an ASGI server has one; under WSGI each request has its own)."""

    def __init__(self, size: Callable[[], int]) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._taken = 0
        self._waiting: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    @property
    def waiting(self) -> int:
        """How many wait for a slot."""
        return len(self._waiting)

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """A slot while in the block."""
        loop = asyncio.get_running_loop()
        with self._lock:
            waiter = None
            if self._taken < self._size() and not self._waiting:
                self._taken += 1
            else:
                waiter = loop.create_future()
                self._waiting.append((loop, waiter))
        if waiter is not None:
            try:
                await waiter
            except asyncio.CancelledError:
                with self._lock:
                    if (loop, waiter) in self._waiting:
                        self._waiting.remove((loop, waiter))
                        raise
                self._release()  # handed a slot as it was cancelled: pass it on
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        with self._lock:
            if self._waiting:  # the slot passes to the first waiting
                loop, waiter = self._waiting.popleft()
                loop.call_soon_threadsafe(_wake, waiter)
            else:
                self._taken -= 1


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


#: The replays (and resets) this process works on at once: each reads up to
#: LIVE_REPLAY_MAX_EVENTS events or every table of a tour, and the others' requests must not wait
#: behind a crowd of them. Held to read, not to send: a client that reads slowly holds no slot.
REPLAYS = Slots(lambda: settings.LIVE_REPLAY_CONCURRENCY)


class _Listener:
    """One stream's place in the hub: the events of its scope, in order."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.queue: asyncio.Queue[Message] = asyncio.Queue(QUEUE_SIZE)
        #: Events were dropped (the queue was full): the stream reads the table.
        self.overflowed = False

    def put(self, message: Message) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True


class Hub:
    """The live events of every tournament a stream of this event loop listens to, read once
    and handed to each stream's :class:`_Listener` by scope. Runs while a stream listens."""

    def __init__(self) -> None:
        self.listeners: dict[Scope, set[_Listener]] = {}
        #: Tournament -> the number of the last event handed out (every one below it was too).
        self.cursors: dict[int, int] = {}
        self.task: asyncio.Task[None] | None = None
        #: Set while the Redis subscription is live.
        self.subscribed = asyncio.Event()

    @contextlib.asynccontextmanager
    async def listen(self, scope: Scope) -> AsyncIterator[_Listener]:
        """Hand the events of ``scope`` after the tournament's current last number to a new
        listener, while in the block."""
        tournament = scope[0]
        if tournament not in self.cursors:
            last = await in_thread(last_number)(tournament)
            self.cursors.setdefault(tournament, last)
        listener = _Listener(scope)
        self.listeners.setdefault(scope, set()).add(listener)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())
        try:
            yield listener
        finally:
            listeners = self.listeners[scope]
            listeners.discard(listener)
            if not listeners:
                del self.listeners[scope]
            if not any(other[0] == tournament for other in self.listeners):
                self.cursors.pop(tournament, None)
            if not self.listeners and self.task is not None:
                task, self.task = self.task, None
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def _hand_out(self, message: Message) -> None:
        cursor = self.cursors.get(message.tournament)
        if cursor is None or message.number <= cursor:
            return
        self.cursors[message.tournament] = message.number
        tour, table = message.data.get("tour"), message.data.get("table")
        for scope in {(message.tournament, None, None), (message.tournament, tour, None),
                      (message.tournament, None, table), (message.tournament, tour, table)}:
            for listener in self.listeners.get(scope, ()):
                listener.put(message)

    async def catch_up(self, tournaments: set[int] | None = None) -> None:
        """Hand out what the table has after the cursors (of ``tournaments``, or all)."""
        while True:
            cursors = {t: n for t, n in self.cursors.items() if tournaments is None or t in tournaments}
            if not cursors:
                return
            try:
                messages = await in_thread(_events_after)(cursors)
            except DatabaseError:
                logger.exception("live events: cannot read the events table")
                return
            for message in messages:
                self._hand_out(message)
            if len(messages) < BATCH:
                return

    async def _receive(self, data: bytes | str) -> None:
        try:
            event = json.loads(data)
            message = Message(int(event["tournament"]), int(event["number"]), str(event["kind"]), dict(event["data"]))
        except (ValueError, KeyError, TypeError):
            logger.warning("live events: not an event on the channel: %.200r", data)
            return
        cursor = self.cursors.get(message.tournament)
        if cursor is None or message.number <= cursor:
            return  # nobody listens, or handed out already
        if message.number == cursor + 1:
            self._hand_out(message)
        else:
            # One before it was lost or comes late: every one up to it is in the table.
            await self.catch_up({message.tournament})

    async def _run(self) -> None:
        if settings.REDIS_URL:
            await self._subscribe(settings.REDIS_URL)
        else:
            while True:
                await self.catch_up()
                await asyncio.sleep(POLL_SECONDS)

    async def _subscribe(self, url: str) -> None:
        loop = asyncio.get_running_loop()
        wait = RETRY_SECONDS
        while True:
            client = redis.asyncio.Redis.from_url(url)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL_PATTERN)
                self.subscribed.set()
                wait = RETRY_SECONDS
                await self.catch_up()  # what was published before the subscription
                check_at = loop.time() + CHECK_SECONDS
                while True:
                    item = await pubsub.get_message(timeout=max(0.0, check_at - loop.time()))
                    if item is not None:
                        await self._receive(item["data"])
                    if loop.time() >= check_at:
                        await self.catch_up()
                        check_at = loop.time() + CHECK_SECONDS
            except (redis.RedisError, OSError) as error:
                self.subscribed.clear()
                logger.warning("live events: Redis failed (%s); reading the table, subscribing again in %s s",
                               error, wait)
                await self.catch_up()
                await asyncio.sleep(wait)
                wait = min(wait * 2, CHECK_SECONDS)
            finally:
                self.subscribed.clear()
                await pubsub.aclose()
                await client.aclose()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]


def _starts_afresh(after: int, last: int, first: int | None) -> bool:
    """Whether a stream asked for the events after ``after`` starts with a reset: a number past
    the last one, one before the events still kept, or more than LIVE_REPLAY_MAX_EVENTS back."""
    forgotten = after < last and (first is None or after < first - 1)
    return after < 0 or after > last or forgotten or last - after > settings.LIVE_REPLAY_MAX_EVENTS


def _hello(tournament_id: int, last: int) -> Message:
    return Message(tournament_id, last, "hello", {"last": last})


async def _catch_up(tournament_id: int, after: int, tour: int | None, table: int | None,
                    snapshot: Snapshot | None) -> tuple[int, list[Message]]:
    """The tournament's last number, and what a stream that got every event of its scope up to
    ``after`` is sent to be up to it: the events in between, or a ``reset`` with the state of the
    scope's tables (read after the number: an event past it is sent after, and a screen skips a
    version it has). Under a slot of :data:`REPLAYS`."""
    async with REPLAYS.hold():
        last, first = await in_thread(_bounds)(tournament_id)
        if not _starts_afresh(after, last, first):
            return last, await in_thread(_events_between)(tournament_id, after, last, tour, table)
        data: dict[str, Any] = {"last": last}
        if snapshot is not None:
            data["tables"] = await in_thread(snapshot)(tournament_id, tour, table)
        return last, [Message(tournament_id, last, "reset", data)]


async def opening(tournament_id: int, after: int | None, tour: int | None = None, table: int | None = None,
                  *, snapshot: Snapshot | None = None) -> list[Message]:
    """What :func:`stream` sends first, for a server that cannot hold a stream open (WSGI): the
    browser reconnects with the last number it got and reads on, so such a server serves the
    same events by short polls, under the same bounds."""
    if after is None:
        return [_hello(tournament_id, await in_thread(last_number)(tournament_id))]
    return (await _catch_up(tournament_id, after, tour, table, snapshot))[1]


async def stream(tournament_id: int, after: int | None, tour: int | None = None, table: int | None = None,
                 *, snapshot: Snapshot | None = None) -> AsyncIterator[Message | None]:
    """The live events of a tournament (of one tour, one table, if given) after number ``after``,
    then as they happen; None when nothing happened for HEARTBEAT_SECONDS.

    ``after`` None: a ``hello`` whose number is the last one, nothing replayed. ``after`` past
    the last number, before the events still kept or more than LIVE_REPLAY_MAX_EVENTS back, and
    a stream that fell that far behind: a ``reset`` (the screen reloads) numbered the last one.
    Both say ``{"last": number}``; a reset also has ``tables``, what ``snapshot`` gives of the
    scope's tables."""
    async with hub().listen((tournament_id, tour, table)) as listener:
        if after is None:
            sent = await in_thread(last_number)(tournament_id)
            yield _hello(tournament_id, sent)
        else:
            sent = after
            listener.overflowed = True  # first, what the table has after ``after``
        while True:
            if listener.overflowed:
                listener.overflowed = False
                while not listener.queue.empty():
                    listener.queue.get_nowait()
                # Every event after ``last`` comes to the queue: it was emptied before the read.
                last, messages = await _catch_up(tournament_id, sent, tour, table, snapshot)
                for message in messages:
                    yield message
                sent = last
                continue
            try:
                message = await asyncio.wait_for(listener.queue.get(), HEARTBEAT_SECONDS)
            except TimeoutError:
                yield None
                continue
            if message.number > sent:
                yield message
                sent = message.number
