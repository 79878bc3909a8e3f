"""The writes of a live change, written once (tournaments.prepared): each stores what Django's save
or create stores, column by column, in one statement; the update writes only its columns and a
missing row is an error; they refuse what they cannot write as Django would (an expression, a
model listened to on save), and a failed write marks the transaction for rollback as save does."""

from __future__ import annotations

import datetime

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F
from django.db.models.signals import post_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import LiveEvent, LiveTable, Partition, PartitionChange
from scoring.recording import pipeline
from tournaments.prepared import PreparedInsert, PreparedUpdate


def _stored(model, pk, *skip: str) -> dict:
    """The row as the database holds it, read back through the ORM."""
    row = model.objects.filter(pk=pk).values().get()
    return {name: value for name, value in row.items() if name not in skip}


def _changed(live: LiveTable, now: datetime.datetime) -> None:
    live.turn += 3
    live.seat, live.allowance, live.lapses = 4, 5, 2
    live.turn_started_at, live.deadline = now, now + datetime.timedelta(seconds=5)
    live.turn_paused = 1.5
    live.deal_over = True


def test_a_prepared_live_row_update_stores_what_save_stores(digital):
    pk = digital["p1"].pk
    now = timezone.now().replace(microsecond=123456)
    with transaction.atomic():
        live = LiveTable.objects.get(pk=pk)
        _changed(live, now)
        live.save()
        expected = _stored(LiveTable, pk, "updated_at")
        transaction.set_rollback(True)
    live = LiveTable.objects.get(pk=pk)
    before = live.updated_at
    _changed(live, now)
    with CaptureQueriesContext(connection) as queries:
        pipeline._SAVE_LIVE.save(live)
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
    assert _stored(LiveTable, pk, "updated_at") == expected
    assert LiveTable.objects.get(pk=pk).updated_at == live.updated_at >= before  # auto_now, as save sets it


def test_a_prepared_update_of_some_columns_writes_those_only(digital):
    partition = Partition.objects.get(pk=digital["p1"].pk)
    points = partition.points_a
    partition.current = {"a": "deal", "moves": [1, 2, 3]}
    partition.version += 1
    partition.points_a = points + 25  # not among the columns: stays as stored
    pipeline._SAVE_MOVE.save(partition)
    stored = Partition.objects.get(pk=partition.pk)
    assert (stored.current, stored.version, stored.points_a) == (partition.current, partition.version, points)


def test_a_prepared_insert_stores_what_create_stores(digital):
    partition = Partition.objects.get(pk=digital["p1"].pk)
    fields = dict(partition=partition, version=900, action="move", data={"tile": "3-5", "ж": [1, None]},
                  reason="", user=digital["ref"], address="203.0.113.7", idempotency_key="",
                  before={"points": [0, 0]}, after={"points": [0, 25]}, state=None)
    with transaction.atomic():
        made = PartitionChange.objects.create(**fields)
        expected = _stored(PartitionChange, made.pk, "id", "at")
        transaction.set_rollback(True)
    with CaptureQueriesContext(connection) as queries:
        change = PreparedInsert(PartitionChange).insert(PartitionChange(**fields))
    assert len(queries) == 1
    assert change.pk is not None and not change._state.adding
    assert _stored(PartitionChange, change.pk, "id", "at") == expected
    assert change.at is not None and abs((change.at - timezone.now()).total_seconds()) < 60  # auto_now_add

    event = PreparedInsert(LiveEvent).insert(LiveEvent(
        tournament_id=digital["t"].pk, number=77, tour=digital["tour"], table=partition.table, partition=partition,
        kind="move", at=timezone.now(), data={"state": {"live": {"turn": 3}}}))
    assert LiveEvent.objects.get(pk=event.pk).data == {"state": {"live": {"turn": 3}}}


def test_prepared_writes_refuse_what_they_cannot_write_as_django_would(digital):
    with pytest.raises(ValueError, match="Not columns"):
        PreparedUpdate(Partition, ["current", "no_such_column"])
    live = LiveTable.objects.get(pk=digital["p1"].pk)
    live.turn = F("turn") + 1
    with pytest.raises(ValueError, match="expressions"):
        PreparedUpdate(LiveTable).save(live)
    gone = LiveTable.objects.get(pk=digital["p1"].pk)
    LiveTable.objects.filter(pk=gone.pk).delete()
    with pytest.raises(DatabaseError, match="to update"):
        PreparedUpdate(LiveTable).save(gone)

    def listener(**kwargs):
        pass

    post_save.connect(listener, sender=PartitionChange)
    try:
        with pytest.raises(ValueError, match="listened to"):
            PreparedInsert(PartitionChange).insert(PartitionChange(partition_id=digital["p1"].pk, version=901))
    finally:
        post_save.disconnect(listener, sender=PartitionChange)


def test_a_failed_prepared_insert_marks_the_transaction_for_rollback(digital):
    partition = Partition.objects.get(pk=digital["p1"].pk)
    PartitionChange.objects.create(partition=partition, version=950, action="x")
    with transaction.atomic():
        with pytest.raises(IntegrityError):
            PreparedInsert(PartitionChange).insert(PartitionChange(partition=partition, version=950, action="y"))
        assert transaction.get_rollback()
