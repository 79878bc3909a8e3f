"""Live events: one numbered event per change, written in the change's transaction, and the
streams of live screens (replay, then live; by the database and by Redis; filters; hello and
reset; visibility), up to a real ASGI server read over HTTP."""

from __future__ import annotations

import asyncio
import http.client
import os
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import close_old_connections
from django.db.models.functions import Now
from django.test import AsyncClient, Client

from scoring.models import LiveEvent, Partition, result_summary
from scoring.push import events, stream as live
from scoring.push.tasks import purge_events
from scoring.recording import storage
from tournaments import tours
from tournaments.models import Tournament

from builders import finish_tour, refereed_tour, tournament, user
from livetools import asgi_server
from scoring.recording import commands

pytestmark = pytest.mark.django_db(transaction=True)  # the streams read in threads of their own

LEVEL_FISH = {"end": "fish", "seat": 2, "pips": {"A": 10, "B": 10}}
WAIT = 60  # seconds: only a broken stream waits this long


@pytest.fixture
def s():
    return refereed_tour(target=100)


@pytest.fixture
def polling(settings):
    """Streams fed by reading the table (no Redis)."""
    settings.REDIS_URL = None


def in_thread(function, *args, **kwargs):
    """Call a service from a coroutine, as another request would: in a thread, its connection
    closed after."""
    def call():
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(call, thread_sensitive=False)()


async def take(messages, count: int) -> list[live.Message]:
    """The next ``count`` events of a stream (heartbeats skipped)."""
    taken: list[live.Message] = []
    async with asyncio.timeout(WAIT):
        while len(taken) < count:
            message = await anext(messages)
            if message is not None:
                taken.append(message)
    return taken


def numbers(messages) -> list[int]:
    return [m.number for m in messages]


# -- the outbox ------------------------------------------------------------------------------------


def test_each_change_is_one_event_with_its_action(s):
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["other"], s["p2"].pk, "lead", {"seat": 2}, idempotency_key="k")
    commands.record(s["other"], s["p2"].pk, "lead", {"seat": 2}, idempotency_key="k")  # a retry: no change
    p2 = commands.record(s["other"], s["p2"].pk, "deal", LEVEL_FISH)
    stored = list(LiveEvent.objects.filter(tournament=s["t"]))
    assert [(e.number, e.kind, e.table_id, e.partition_id) for e in stored] == [
        (1, "lead", s["table"].pk, s["p1"].pk), (2, "lead", s["table2"].pk, s["p2"].pk),
        (3, "deal", s["table2"].pk, s["p2"].pk)]
    assert events.last_number(s["t"].pk) == 3
    last = stored[-1]
    assert last.data == {"tour": 1, "table": 2, "partition": p2.pk, "version": 2, "at": last.at.isoformat(),
                         "kind": "deal", "actions": ["deal"], "result": result_summary(p2),
                         "state": result_summary(p2)}


def test_a_refused_change_leaves_no_event_and_no_number(s):
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    with pytest.raises(ValidationError):
        commands.record(s["ref"], s["p1"].pk, "deal", {"end": "fish", "pips": {"A": 100, "B": 90}})
    with pytest.raises(PermissionDenied):
        commands.record(s["other"], s["p1"].pk, "deal", LEVEL_FISH)
    with pytest.raises(storage.Conflict):
        commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH, version=0)
    assert list(LiveEvent.objects.values_list("number", flat=True)) == [1]
    assert events.last_number(s["t"].pk) == 1
    commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
    assert list(LiveEvent.objects.values_list("number", flat=True)) == [1, 2]


@pytest.mark.postgres
def test_numbers_are_gapless_and_commit_in_order_under_eight_writers():
    org = user("org", superuser=True)
    t = tournament(org, pairs=16)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    partitions = list(Partition.objects.filter(table__tour=tour).values_list("pk", flat=True))
    assert len(partitions) == 8
    changes = 6
    barrier = threading.Barrier(len(partitions))
    failures = []

    def play(pk):
        try:
            barrier.wait()
            commands.record(org, pk, "lead", {"seat": 1})
            for _ in range(changes - 1):
                commands.record(org, pk, "deal", LEVEL_FISH)
        except Exception as error:  # shown below: a thread's exception is otherwise lost
            failures.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=play, args=(pk,)) for pk in partitions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    stored = list(LiveEvent.objects.filter(tournament=t).order_by("number"))
    assert [e.number for e in stored] == list(range(1, 8 * changes + 1))
    # In the order of their numbers each partition's versions follow each other: the number
    # order is the commit order.
    for pk in partitions:
        assert [e.data["version"] for e in stored if e.partition_id == pk] == list(range(1, changes + 1))
    assert events.last_number(t.pk) == 8 * changes


def test_the_purge_forgets_old_events_and_numbers_go_on(s):
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    assert purge_events() == 0  # kept LIVE_EVENTS_KEPT_HOURS
    assert events.purge(Now()) == 1
    commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
    assert list(LiveEvent.objects.values_list("number", flat=True)) == [2]


# -- the streams -----------------------------------------------------------------------------------


def replay_then_live(s):
    for _ in range(3):
        commands.record(s["ref"], s["p1"].pk, "deal" if _ else "lead", LEVEL_FISH if _ else {"seat": 1})

    async def main():
        messages = live.stream(s["t"].pk, after=1)
        try:
            replayed = await take(messages, 2)
            await in_thread(commands.record, s["other"], s["p2"].pk, "lead", {"seat": 3})
            await in_thread(commands.record, s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
            return replayed, await take(messages, 2)
        finally:
            await messages.aclose()

    replayed, lived = asyncio.run(main())
    assert numbers(replayed) == [2, 3] and [m.kind for m in replayed] == ["deal", "deal"]
    assert numbers(lived) == [4, 5] and [m.data["table"] for m in lived] == [2, 1]
    assert lived[0].data == LiveEvent.objects.get(number=4).data


def test_a_stream_replays_after_n_then_goes_live_reading_the_table(s, polling):
    replay_then_live(s)


@pytest.mark.redis
def test_a_stream_replays_after_n_then_goes_live_by_redis(s, settings):
    settings.REDIS_URL = os.environ["REDIS_URL"]
    replay_then_live(s)


@pytest.mark.redis
def test_redis_wakes_the_stream_and_a_lost_message_is_no_gap(s, settings, monkeypatch):
    settings.REDIS_URL = os.environ["REDIS_URL"]
    monkeypatch.setattr(live, "CHECK_SECONDS", 3600.0)  # only Redis, or a gap it shows, wakes the hub

    def unpublished(*args, **kwargs):
        settings.REDIS_URL = None  # announce() publishes nothing: the message is lost
        try:
            return commands.record(*args, **kwargs)
        finally:
            settings.REDIS_URL = os.environ["REDIS_URL"]

    async def main():
        messages = live.stream(s["t"].pk, after=None)
        try:
            hello = await take(messages, 1)
            await asyncio.wait_for(live.hub().subscribed.wait(), WAIT)
            await in_thread(commands.record, s["ref"], s["p1"].pk, "lead", {"seat": 1})
            first = await take(messages, 1)
            await in_thread(unpublished, s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
            await in_thread(commands.record, s["other"], s["p2"].pk, "lead", {"seat": 2})
            return hello + first + await take(messages, 2)
        finally:
            await messages.aclose()

    got = asyncio.run(main())
    assert [(m.number, m.kind) for m in got] == [(0, "hello"), (1, "lead"), (2, "deal"), (3, "lead")]


def test_streams_keep_their_tour_and_table(s, polling):
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})  # 1: table 1
    commands.record(s["other"], s["p2"].pk, "lead", {"seat": 1})  # 2: table 2
    finish_tour(s["tour"])
    tour2 = tours.generate_tour(s["org"], s["t"])
    tours.publish_tour(s["org"], tour2)
    partition = Partition.objects.get(table__tour=tour2, table__number=1)
    commands.record(s["org"], partition.pk, "lead", {"seat": 1})  # 3: tour 2, table 1

    async def first(after, tour=None, table=None):
        messages = live.stream(s["t"].pk, after, tour, table)
        try:
            return (await take(messages, 1))[0]
        finally:
            await messages.aclose()

    # The partition of tour 2's table 2, read before the loop runs.
    table2 = Partition.objects.get(table__tour=tour2, table__number=2).pk

    async def live_filter():
        messages = live.stream(s["t"].pk, None, None, 1)
        try:
            await take(messages, 1)
            await in_thread(commands.record, s["org"], table2, "lead", {"seat": 1})  # 4: table 2
            await in_thread(commands.record, s["org"], partition.pk, "deal", LEVEL_FISH)  # 5: table 1
            return (await take(messages, 1))[0]
        finally:
            await messages.aclose()

    async def replayed():
        return [await first(0, tour=2), await first(0, table=2), await first(0, tour=1, table=2),
                await first(1, table=1)]

    assert numbers(asyncio.run(replayed())) == [3, 2, 2, 3]
    assert asyncio.run(live_filter()).number == 5


def test_hello_says_the_last_number_and_nothing_is_replayed(s, polling):
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)

    async def main():
        messages = live.stream(s["t"].pk, after=None)
        try:
            hello = await take(messages, 1)
            await in_thread(commands.record, s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
            return hello + await take(messages, 1)
        finally:
            await messages.aclose()

    got = asyncio.run(main())
    assert [(m.number, m.kind, m.data) for m in got[:1]] == [(2, "hello", {"last": 2})]
    assert (got[1].number, got[1].kind) == (3, "deal")


def test_a_stream_after_forgotten_or_future_numbers_resets(s, polling):
    for _ in range(2):
        commands.record(s["ref"], s["p1"].pk, "deal" if _ else "lead", LEVEL_FISH if _ else {"seat": 1})

    async def first(after):
        messages = live.stream(s["t"].pk, after)
        try:
            return (await take(messages, 1))[0]
        finally:
            await messages.aclose()

    future = asyncio.run(first(7))
    assert (future.kind, future.number, future.data) == ("reset", 2, {"last": 2})
    events.purge(Now())
    assert (asyncio.run(first(0)).kind, asyncio.run(first(1)).kind) == ("reset", "reset")
    commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)  # 3, kept
    assert (asyncio.run(first(2)).number, asyncio.run(first(1)).kind) == (3, "reset")


def test_a_stream_shows_nothing_hidden(s, polling):
    """The engine's state (every event, the violations, a move-by-move deal's hands) stays on
    the score sheet: a stream shows the result only."""
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["ref"], s["p1"].pk, "violation", {"seat": 2, "code": "move_time"})

    async def main():
        messages = live.stream(s["t"].pk, 0)
        try:
            return await take(messages, 2)
        finally:
            await messages.aclose()

    partition = Partition.objects.get(pk=s["p1"].pk)
    for message in asyncio.run(main()):
        assert set(message.data) == {"tour", "table", "partition", "version", "at", "kind", "actions", "result",
                                     "state"}
        assert set(message.data["state"]) == set(result_summary(partition))
    assert message.data["state"] == message.data["result"] == result_summary(partition)


# -- the view --------------------------------------------------------------------------------------


def test_the_view_streams_a_visible_tournament_only(s, polling):
    url = f"/api/tournaments/{s['t'].slug}/live/events/"
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})

    async def opening(client, query="", **headers):
        response = await client.get(url + query, headers=headers)
        if not response.streaming:
            return response, ""
        chunks = aiter(response.streaming_content)
        text = ""
        try:
            async with asyncio.timeout(WAIT):
                while "event:" not in text:
                    text += (await anext(chunks)).decode()
        finally:
            await response.streaming_content.aclose()
        return response, text

    response, text = asyncio.run(opening(AsyncClient(), "?after=0", **{"Last-Event-ID": "5"}))
    assert response.status_code == 200
    assert (response["Content-Type"], response["Cache-Control"], response["X-Accel-Buffering"]) == (
        "text/event-stream; charset=utf-8", "no-cache", "no")
    # Last-Event-ID wins; the reset carries the tables' state
    assert text.startswith('retry: 1000\n\nid: 1\nevent: reset\ndata: {"last":1,"tables":[{"tour":1,"table":1,')
    _response, text = asyncio.run(opening(AsyncClient(), "?after=0&table=1"))
    assert text.startswith("retry: 1000\n\nid: 1\nevent: lead\ndata: {")
    response, _text = asyncio.run(opening(AsyncClient(), "?table=0&after=x"))
    assert response.status_code == 400 and set(response.json()["errors"]) == {"table", "after"}

    Tournament.objects.filter(pk=s["t"].pk).update(status=Tournament.Status.DRAFT)
    response, _text = asyncio.run(opening(AsyncClient()))
    assert response.status_code == 404 and response.json()["detail"]
    staff = AsyncClient()
    staff.force_login(s["ref"])
    response, text = asyncio.run(opening(staff))
    assert response.status_code == 200 and "event: hello" in text


def test_under_wsgi_the_view_answers_what_the_stream_sends_first_and_ends(s):
    """A WSGI server cannot hold a stream open: the browser polls by reconnecting."""
    url = f"/api/tournaments/{s['t'].slug}/live/events/"
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
    response = Client().get(url + "?after=0")
    assert response.status_code == 200 and not response.streaming
    assert response["Content-Type"] == "text/event-stream; charset=utf-8"
    text = response.content.decode()
    assert text.startswith("retry: 1000\n\nid: 1\nevent: lead\ndata: {")
    assert text.count("event:") == 2 and "\nid: 2\nevent: deal\ndata: {" in text
    assert Client().get(url, headers={"Last-Event-ID": "2"}).content == b"retry: 1000\n\n"
    assert Client().get(url).content == b'retry: 1000\n\nid: 2\nevent: hello\ndata: {"last":2}\n\n'


# -- a real ASGI server ----------------------------------------------------------------------------


class EventReader:
    """An SSE client over http.client: reads events one by one."""

    def __init__(self, port: int, path: str, last_event_id: int | None = None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()

    def next(self) -> dict[str, str]:
        """The next event's fields (comments, the retry line and heartbeats skipped)."""
        fields: dict[str, str] = {}
        deadline = time.monotonic() + WAIT
        while True:
            assert time.monotonic() < deadline, "no event"
            line = self.response.readline().decode()
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if not line:
                if "event" in fields:
                    return fields
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value

    def close(self) -> None:
        self.connection.close()


def test_a_real_asgi_server_streams_and_a_reconnection_gets_exactly_what_it_missed(s, database_url_for_processes,
                                                                                  tmp_path):
    with asgi_server(database_url_for_processes, tmp_path) as port:
        path = f"/api/tournaments/{s['t'].slug}/live/events/"
        reader = EventReader(port, path)
        assert reader.response.getheader("Content-Type") == "text/event-stream; charset=utf-8"
        assert reader.next()["event"] == "hello"
        commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
        first = reader.next()
        assert (first["id"], first["event"]) == ("1", "lead")
        reader.close()
        commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
        commands.record(s["other"], s["p2"].pk, "lead", {"seat": 4})
        reader = EventReader(port, path, last_event_id=1)
        missed = [reader.next(), reader.next()]
        commands.record(s["ref"], s["p1"].pk, "deal", LEVEL_FISH)
        after = reader.next()
        reader.close()
        assert [(e["id"], e["event"]) for e in missed + [after]] == [("2", "deal"), ("3", "lead"), ("4", "deal")]

