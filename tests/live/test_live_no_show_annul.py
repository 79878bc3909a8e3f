"""The chief referee annuls a no-show (scoring.recording.commands.annul_no_show): the table is as it was
before it, open again; at a live table the players still missing get a fresh deadline, and those
who check in in time play. Only the chief referee, only with a reason, only a no-show."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from builders import refereed_tour
from livetools import PIN, goat_table, live_tour
from scoring.live import play
from scoring.models import LiveTable, Partition, PartitionChange, SeatResult
from scoring.recording import commands, pipeline, storage

pytestmark = pytest.mark.django_db


def stored(pk: int) -> Partition:
    return Partition.objects.get(pk=pk)


@pytest.fixture
def no_show(db, frozen):
    """Table 1 of a digital tour: seats 1 and 3 (pair A) came, pair B did not; the deadline passed."""
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    world["tokens"] = {seat: play.claim_seat(world["p1"].pk, seat, PIN) for seat in (1, 3)}
    frozen.to(LiveTable.objects.get(pk=world["p1"].pk).no_show_deadline)
    pipeline.sweep()
    p1 = stored(world["p1"].pk)
    assert (p1.status, p1.winner, p1.reason, p1.points_a, p1.points_b) == ("finished", "A", "no_show", 100, 0)
    return world


def test_the_chief_referee_annuls_a_no_show_and_the_missing_players_get_a_fresh_deadline(no_show, frozen):
    pk = no_show["p1"].pk
    frozen.advance(60)
    commands.annul_no_show(no_show["chief"], pk, reason="Pair B was at the wrong table")
    p1 = stored(pk)
    assert (p1.status, p1.winner, p1.reason, p1.points_a, p1.points_b) == ("playing", "", "", 0, 0)
    assert storage.engine_partition(p1).no_show is None
    change = p1.changes.order_by("-version").first()
    assert (change.action, change.reason, change.user) == ("annul_no_show", "Pair B was at the wrong table",
                                                            no_show["chief"])
    assert change.before["reason"] == "no_show" and change.after["status"] == "playing"
    live = LiveTable.objects.get(pk=pk)
    assert live.present == [1, 3]  # who had checked in stays checked in
    assert live.no_show_deadline == frozen.now + datetime.timedelta(minutes=5)
    # Pair B checks in: the table deals its first deal, the leader's clock runs.
    for seat in (2, 4):
        play.claim_seat(pk, seat, PIN)
    live = LiveTable.objects.get(pk=pk)
    game = storage.engine_partition(stored(pk))
    assert live.no_show_deadline is None and game.current is not None and live.seat == game.current.to_move


def test_after_an_annulment_the_fresh_deadline_records_the_no_show_again(no_show, frozen):
    pk = no_show["p1"].pk
    commands.annul_no_show(no_show["chief"], pk, reason="clock set wrong")
    play.postpone_no_show(no_show["ref"], pk, 2)  # the referee may postpone it, as any deadline
    deadline = LiveTable.objects.get(pk=pk).no_show_deadline
    while frozen.now < deadline:  # the beat sweeps every second; a silence of minutes would be an outage
        frozen.advance(10)
        pipeline.sweep()
    p1 = stored(pk)
    assert (p1.status, p1.winner, p1.reason) == ("finished", "A", "no_show")
    assert [c.action for c in p1.changes.order_by("version")][-3:] == ["annul_no_show", "postpone", "no_show"]


def test_only_the_chief_referee_with_a_reason_annuls_and_only_a_no_show(no_show):
    pk = no_show["p1"].pk
    versions = PartitionChange.objects.filter(partition_id=pk).count()
    with pytest.raises(PermissionDenied):
        commands.annul_no_show(no_show["ref"], pk, reason="he asked")
    with pytest.raises(ValidationError, match="needs a reason"):
        commands.annul_no_show(no_show["chief"], pk, reason="  ")
    assert PartitionChange.objects.filter(partition_id=pk).count() == versions
    assert stored(pk).reason == "no_show"
    commands.annul_no_show(no_show["chief"], pk, reason="pair B was in the hall")
    with pytest.raises(ValidationError, match="not decided by a no-show"):
        commands.annul_no_show(no_show["chief"], pk, reason="twice")
    assert PartitionChange.objects.filter(partition_id=pk).count() == versions + 1


def test_a_no_show_recorded_on_the_score_sheet_is_annulled_to_the_state_before_it(db):
    world = refereed_tour(target=100)
    pk = world["p1"].pk
    commands.record(world["ref"], pk, "lead", {"seat": 2})
    commands.record(world["ref"], pk, "no_show", {"absent": "both"})
    assert (stored(pk).status, stored(pk).reason) == ("finished", "no_show")
    commands.annul_no_show(world["chief"], pk, reason="both pairs were in the hall")
    partition = stored(pk)
    game = storage.engine_partition(partition)
    assert (partition.status, partition.reason, partition.finished_at) == ("playing", "", None)
    assert game.first_leader == 2 and game.no_show is None and game.decision is None
    commands.record(world["ref"], pk, "deal", {"end": "domino", "seat": 2, "pips": {"A": 10, "B": 0}})
    assert stored(pk).points_b == 10


def test_a_goat_sittings_no_show_is_annulled_every_game_of_it(db, frozen):
    world = goat_table("digital", 3)
    pid = world["pid"]
    play.check_in(world["ref"], pid, 1)
    frozen.to(LiveTable.objects.get(pk=pid).no_show_deadline)
    pipeline.sweep()
    assert stored(pid).reason == "no_show" and SeatResult.objects.filter(partition_id=pid).count() == 3
    commands.annul_no_show(world["org"], pid, reason="the players were late for the bus")
    partition = stored(pid)
    sitting = storage.engine_sitting(partition)
    assert (partition.status, partition.reason) == ("playing", "")
    assert len(sitting.games) == 1 and sitting.game.decision is None and not sitting.is_over
    assert not SeatResult.objects.filter(partition_id=pid).exists()
    assert LiveTable.objects.get(pk=pid).no_show_deadline == frozen.now + datetime.timedelta(minutes=5)
    for seat in (2, 3):
        play.check_in(world["ref"], pid, seat)
    assert storage.engine_sitting(stored(pid)).current is not None  # everyone came: the table deals

