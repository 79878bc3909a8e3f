"""The outbox of live screens: every change of a partition becomes a numbered
:class:`~scoring.models.LiveEvent`, written in the change's own transaction.

:func:`announce` is the last step of a change (:func:`scoring.recording.pipeline.change`). It takes the
tournament's next number by updating its :class:`~scoring.models.EventCounter` row, whose lock
is held to the commit: a second change of the tournament waits for it, takes the next number and
commits after it. So numbers are gapless and commit in order, and a reader that sees number ``n``
has seen every number below it (:mod:`scoring.push.stream` relies on it). A change that is rolled
back takes its number and its event with it. After the commit the event is published on Redis
(when REDIS_URL is set) to wake the live screens at once; a lost message costs only a delay,
since the streams read the table too.
"""

from __future__ import annotations

import functools
import json
import logging
from datetime import datetime
from typing import Any, Mapping, Sequence

import redis
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import F
from django.db.models.expressions import Combinable
from django.db.models.functions import Now

from scoring.models import EventCounter, LiveEvent, Partition, result_summary
from tournaments.prepared import PreparedInsert

logger = logging.getLogger(__name__)

#: The Redis channel of a tournament's events; the streams subscribe to the pattern.
CHANNEL = "domino:live:{tournament_id}"
CHANNEL_PATTERN = "domino:live:*"


def _next_number(tournament_id: int) -> tuple[int, datetime]:
    """The tournament's next event number, locking its counter row to the end of the
    transaction, and the database's time."""
    if connection.vendor == "postgresql":  # one round trip: the number and the time it was taken
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {EventCounter._meta.db_table} SET last = last + 1 WHERE tournament_id = %s "
                           "RETURNING last, statement_timestamp()", [tournament_id])
            row = cursor.fetchone()
        if row is not None:
            return row[0], row[1]
    counter = EventCounter.objects.filter(pk=tournament_id)
    if not counter.update(last=F("last") + 1):
        # The tournament's first event: create the row (a concurrent first one may have won).
        EventCounter.objects.bulk_create([EventCounter(tournament_id=tournament_id)], ignore_conflicts=True)
        counter.update(last=F("last") + 1)
    return counter.annotate(now=Now()).values_list("last", "now").get()


#: An event's INSERT (one a change), written once.
_NEW_EVENT = PreparedInsert(LiveEvent)


def message(event: LiveEvent) -> dict[str, Any]:
    """What a live screen gets of ``event``: its number, its kind and its data."""
    return {"tournament": event.tournament_id, "number": event.number, "kind": event.kind, "data": event.data}


def announce(partition: Partition, kind: str, data: Mapping[str, Any], *,
             actions: Sequence[str] | None = None) -> LiveEvent:
    """Number and store the event of a change of ``partition``: called as the last step inside
    the change's transaction (after every other row lock it takes). ``kind`` names the change
    (the action); ``actions`` every action it applied (``[kind]`` by default); ``data`` is the
    state a live screen shows (public: for the score sheet the result summary only). Published
    on Redis after the commit."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("announce() belongs inside the change's transaction")
    table = partition.table
    tour = table.tour
    number, at = _next_number(tour.tournament_id)
    event = _NEW_EVENT.insert(LiveEvent(
        tournament_id=tour.tournament_id, number=number, tour=tour, table=table, partition=partition, kind=kind,
        at=at, data={
            "tour": tour.number, "table": table.number, "partition": partition.pk, "version": partition.version,
            "at": at.isoformat(), "kind": kind, "actions": list(actions or [kind]),
            "result": result_summary(partition), "state": dict(data)}))
    if settings.REDIS_URL:
        text = json.dumps(message(event), cls=DjangoJSONEncoder)
        transaction.on_commit(functools.partial(publish, tour.tournament_id, text), robust=True)
    return event


@functools.cache
def _redis(url: str) -> redis.Redis:
    # Short timeouts: the commit has happened, and a screen catches up from the table anyway.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def publish(tournament_id: int, text: str) -> None:
    """Publish an event's message on the tournament's Redis channel."""
    assert settings.REDIS_URL
    _redis(settings.REDIS_URL).publish(CHANNEL.format(tournament_id=tournament_id), text)


def last_number(tournament_id: int) -> int:
    """The number of the tournament's last event (0 before the first)."""
    return EventCounter.objects.filter(pk=tournament_id).values_list("last", flat=True).first() or 0


def purge(older_than: datetime | Combinable) -> int:
    """Forget the events from before ``older_than`` (a time, or an expression of the database's
    clock); their counters stay, so numbers never repeat. The number forgotten."""
    deleted, _by_model = LiveEvent.objects.filter(at__lt=older_than).delete()
    return deleted
