"""The live events' streams against a hostile client (issue 18, item 2): one that reconnects from
far back, one that replays again and again, one that opens streams by the hundred. Each stream's
work is bounded: a replay past LIVE_REPLAY_MAX_EVENTS is a reset carrying the tables' state, the
replays of a process read LIVE_REPLAY_CONCURRENCY at a time, and one address holds at most
LIVE_STREAMS_PER_ADDRESS streams. Small numbers of events and streams: seconds, not minutes."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.test import AsyncClient, Client

from scoring.models import Partition, result_summary
from scoring.push import quota, stream as live
from scoring.recording.state import scope_state, table_state

from builders import refereed_tour
from scoring.recording import commands

pytestmark = pytest.mark.django_db(transaction=True)  # the streams read in threads of their own

LEVEL_FISH = {"end": "fish", "seat": 2, "pips": {"A": 10, "B": 10}}  # a drawn deal: the partition goes on
WAIT = 60  # seconds: only a broken stream waits this long


@pytest.fixture
def s(settings):
    settings.REDIS_URL = None  # streams fed by reading the table, streams counted per process
    settings.LIVE_REPLAY_MAX_EVENTS = 3
    return refereed_tour(target=100)


def changes(s, count: int) -> None:
    """``count`` events at table 1 (the lead, then drawn deals)."""
    for _ in range(count):
        first = Partition.objects.get(pk=s["p1"].pk).version == 0
        commands.record(s["ref"], s["p1"].pk, "lead" if first else "deal", {"seat": 1} if first else LEVEL_FISH)


def url(s) -> str:
    return f"/api/tournaments/{s['t'].slug}/live/events/"


def parse(text: str) -> list[tuple[int, str, dict]]:
    """The events of a text/event-stream body: (id, kind, data)."""
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if "event" in fields:
            found.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
    return found


def poll(s, query: str = "", **headers) -> str:
    """The WSGI answer: what a stream sends first."""
    response = Client().get(url(s) + query, headers=headers)
    assert response.status_code == 200, response.content
    return response.content.decode()


async def first(messages) -> live.Message:
    async with asyncio.timeout(WAIT):
        while (message := await anext(messages)) is None:
            pass
    return message


# -- a reconnection from far back ------------------------------------------------------------------


def test_a_client_further_back_than_the_limit_gets_a_reset_with_the_tables_state(s):
    changes(s, 5)
    commands.record(s["other"], s["p2"].pk, "lead", {"seat": 2})  # 6, at table 2
    at_limit = parse(poll(s, "?after=3"))  # 3 back: replayed
    assert [(number, kind) for number, kind, _data in at_limit] == [(4, "deal"), (5, "deal"), (6, "lead")]

    [(number, kind, data)] = parse(poll(s, "?after=2"))  # 4 back: a reset
    p1, p2 = Partition.objects.get(pk=s["p1"].pk), Partition.objects.get(pk=s["p2"].pk)
    assert (number, kind, data["last"]) == (6, "reset", 6)
    assert data["tables"] == [
        {"tour": 1, "table": 1, "partition": p1.pk, "version": 5, "result": result_summary(p1),
         "state": result_summary(p1)},
        {"tour": 1, "table": 2, "partition": p2.pk, "version": 1, "result": result_summary(p2),
         "state": result_summary(p2)}]
    # Last-Event-ID (a browser reconnecting) the same; a table's stream gets its table only.
    assert parse(poll(s, **{"Last-Event-ID": "0"}))[0][1] == "reset"
    [(_number, kind, data)] = parse(poll(s, "?after=1&table=2"))
    assert kind == "reset" and [table["table"] for table in data["tables"]] == [2]


def test_an_asgi_stream_from_far_back_resets_then_goes_on_live(s):
    changes(s, 5)

    async def main():
        messages = live.stream(s["t"].pk, 0, tour=1, snapshot=scope_state)
        try:
            reset = await first(messages)
            await sync_to_async(changes, thread_sensitive=False)(s, 1)
            return reset, await first(messages)
        finally:
            await messages.aclose()
            await sync_to_async(close_old_connections)()

    reset, after = asyncio.run(main())
    assert (reset.kind, reset.number, [t["version"] for t in reset.data["tables"]]) == ("reset", 5, [5, 0])
    assert (after.kind, after.number) == ("deal", 6)  # nothing skipped, nothing twice


def test_a_stream_that_falls_too_far_behind_resets(s, monkeypatch):
    """A client that does not read: its queue overflows; past the limit it is not replayed to."""
    monkeypatch.setattr(live, "QUEUE_SIZE", 1)

    async def main():
        messages = live.stream(s["t"].pk, None, snapshot=scope_state)
        try:
            hello = await first(messages)
            await sync_to_async(changes, thread_sensitive=False)(s, 5)
            async with asyncio.timeout(WAIT):
                while not any(listener.overflowed for listeners in live.hub().listeners.values()
                              for listener in listeners):
                    await asyncio.sleep(0.05)
            return hello, await first(messages)
        finally:
            await messages.aclose()
            await sync_to_async(close_old_connections)()

    hello, reset = asyncio.run(main())
    assert (hello.kind, reset.kind, reset.number, reset.data["tables"][0]["version"]) == ("hello", "reset", 5, 5)


def test_the_reset_of_a_live_table_shows_no_hand_of_the_deal_in_play(digital, settings):
    """The reset's state is the public one, as the events give it."""
    settings.REDIS_URL = None
    settings.LIVE_REPLAY_MAX_EVENTS = 1
    partition = Partition.objects.select_related("live").get(pk=digital["p1"].pk)
    [(_number, kind, data)] = parse(poll(digital, "?after=0&table=1"))
    [table] = data["tables"]
    assert kind == "reset" and table["state"]["current"]["hands"] == {}
    assert table["state"] == json.loads(json.dumps({**table_state(partition), "now": table["state"]["now"]}))


def test_a_replay_is_bounded_in_bytes_however_long_the_history(s):
    """From the beginning of a long day, the answer is the reset (the size of the tables' state),
    not the history: it weighs the same after 11 events as after 61 (numbers of as many digits)."""
    changes(s, 11)
    at_limit = poll(s, "?after=8")
    short = poll(s, "?after=0")
    changes(s, 50)
    long = poll(s, "?after=0")
    assert len(parse(at_limit)) == 3
    assert parse(short)[0][1] == parse(long)[0][1] == "reset"
    assert len(long.encode()) == len(short.encode()) < 2 * len(at_limit.encode())
    replayed = poll(s, "?after=58")  # the most a poll replays: 3 events
    assert len(parse(replayed)) == 3 and len(replayed.encode()) < 3 * 1024


# -- replays at once -------------------------------------------------------------------------------


@pytest.mark.parametrize("slots", [1, 2])
def test_a_process_reads_at_most_its_limit_of_replays_at_once(s, settings, monkeypatch, slots):
    settings.LIVE_REPLAY_CONCURRENCY = slots
    changes(s, 2)
    read = live._events_between
    gate, entered = threading.Event(), threading.Event()
    inside = {"now": 0, "most": 0, "calls": 0}
    lock = threading.Lock()

    def held(*args):
        with lock:
            inside["calls"] += 1
            inside["now"] += 1
            inside["most"] = max(inside["most"], inside["now"])
            calls = inside["calls"]
        try:
            if calls == 1:
                entered.set()
            assert gate.wait(WAIT)
            return read(*args)
        finally:
            with lock:
                inside["now"] -= 1

    monkeypatch.setattr(live, "_events_between", held)

    async def main():
        one, two = live.stream(s["t"].pk, 0), live.stream(s["t"].pk, 0)
        try:
            first_task = asyncio.create_task(first(one))
            assert await asyncio.to_thread(entered.wait, WAIT)
            second_task = asyncio.create_task(first(two))
            async with asyncio.timeout(WAIT):  # the second replay asks: it waits, or it reads
                while live.REPLAYS.waiting == 0 and inside["calls"] < 2:
                    await asyncio.sleep(0.01)
            reading_together = inside["calls"]
            gate.set()
            got = [await first_task, await second_task]
            return reading_together, got
        finally:
            gate.set()
            await one.aclose()
            await two.aclose()
            await sync_to_async(close_old_connections)()

    reading_together, got = asyncio.run(main())
    assert [m.number for m in got] == [1, 1]
    assert (reading_together, inside["most"]) == ((1, 1) if slots == 1 else (2, 2))
    assert live.REPLAYS.waiting == 0


def test_a_replay_cancelled_while_it_waits_gives_its_turn_on(s, settings):
    settings.LIVE_REPLAY_CONCURRENCY = 1
    changes(s, 1)

    async def main():
        async with live.REPLAYS.hold():
            waiting = asyncio.create_task(live.opening(s["t"].pk, 0))
            async with asyncio.timeout(WAIT):
                while live.REPLAYS.waiting == 0:
                    await asyncio.sleep(0.01)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
        return await live.opening(s["t"].pk, 0)  # the slot is free again

    assert [m.kind for m in asyncio.run(main())] == ["lead"]


# -- streams per address ---------------------------------------------------------------------------


class AsyncClientAt(AsyncClient):
    """An ASGI test client connecting from ``address``."""

    def __init__(self, address: str):
        super().__init__()
        self.address = address

    def _base_scope(self, **request):
        return {**super()._base_scope(**request), "client": [self.address, 0]}


async def open_stream(s, address: str = "127.0.0.1"):
    """A stream of the view under ASGI, read up to its first event; (response, text)."""
    response = await AsyncClientAt(address).get(url(s))
    if not response.streaming:
        return response, ""
    text = ""
    chunks = aiter(response.streaming_content)
    async with asyncio.timeout(WAIT):
        while "event:" not in text:
            text += (await anext(chunks)).decode()
    await chunks.aclose()
    return response, text


async def close(response) -> None:
    """Close a stream as the server does when its client goes away (the test client's wrapper of
    the content closes the stream, then the response)."""
    if response.streaming:
        await response._iterator.aclose()


def streams_per_address(s) -> None:
    async def main():
        opened = [await open_stream(s), await open_stream(s)]
        try:
            refused, _text = await open_stream(s)
            elsewhere, text = await open_stream(s, "192.0.2.9")
            await close(elsewhere)
            assert "event: hello" in text
            wsgi = await sync_to_async(Client(REMOTE_ADDR="127.0.0.1").get)(url(s))
            await close(opened[0][0])  # closed: no longer counted
            again, text = await open_stream(s)
            opened[0] = (again, text)
            return refused, wsgi, text
        finally:
            for response, _text in opened:
                await close(response)
            await sync_to_async(close_old_connections)()

    refused, wsgi, text = asyncio.run(main())
    assert refused.status_code == 429 and refused["Retry-After"] == "30"
    assert refused.json()["detail"]
    assert wsgi.status_code == 429  # a short poll counts as the stream it stands for
    assert "event: hello" in text
    assert Client().get(url(s)).status_code == 200  # all closed: a poll is counted while answered only
    assert Client().get(url(s)).status_code == 200


def test_an_address_holds_at_most_its_limit_of_open_streams(s, settings):
    settings.LIVE_STREAMS_PER_ADDRESS = 2
    streams_per_address(s)
    assert not quota._open


@pytest.mark.redis
def test_with_redis_the_count_is_shared_and_a_dead_process_streams_go_stale(s, settings, monkeypatch):
    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.LIVE_STREAMS_PER_ADDRESS = 2
    prefix = f"test:{uuid.uuid4().hex}:"
    monkeypatch.setattr(quota, "KEY", prefix + "{address}")
    client = quota._redis(settings.REDIS_URL)
    try:
        streams_per_address(s)
        assert not quota._open  # counted in Redis, not here
        assert client.zcard(prefix + "127.0.0.1") == 0
        # Two streams of a process that died (not refreshed for STALE_SECONDS) do not count.
        old = time.time() - quota.STALE_SECONDS - 1
        client.zadd(prefix + "127.0.0.1", {"dead-1": old, "dead-2": old})
        ticket = quota.take("127.0.0.1")
        assert ticket is not None and quota.take("127.0.0.1") is not None
        assert quota.take("127.0.0.1") is None
        client.zadd(prefix + "127.0.0.1", {ticket.member: old})  # not heard of for long: stale
        ticket.refresh()  # a stream still open says so: counted again
        assert client.zscore(prefix + "127.0.0.1", ticket.member) > old + quota.STALE_SECONDS
        ticket.release()
        assert client.zscore(prefix + "127.0.0.1", ticket.member) is None
    finally:
        for key in client.scan_iter(prefix + "*"):
            client.delete(key)
