"""Recording partitions through the services: totals from the engine, closed partitions,
corrections as new versions, conflicts and retries."""

import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from scoring.models import Partition, PartitionChange
from scoring.recording import storage
from scoring.web.serializers import ACTION_DATA, action_data
from tournaments.models import Tour

from builders import refereed_tour, user
from scoring.recording import commands, queries, storage

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_setup():
    """A published tour of two tables; ``ref`` referees table 1, ``chief`` is chief referee."""
    return refereed_tour(target=100)


def play_to_the_end(who, partition_id):
    commands.record(who, partition_id, "lead", {"seat": 1})
    commands.record(who, partition_id, "deal", {"end": "domino", "seat": 1, "pips": {"A": 20, "B": 40}})  # A 60
    return commands.record(who, partition_id, "deal", {"end": "fish", "pips": {"A": 10, "B": 40}})  # A 110


def test_the_engine_computes_totals_and_the_partition_closes(table_setup):
    s = table_setup
    p = play_to_the_end(s["ref"], s["p1"].pk)
    assert (p.status, p.winner, p.reason, p.points_a, p.points_b, p.deals) == ("finished", "A", "target", 110, 0, 2)
    assert p.version == 3
    assert [c.action for c in p.changes.all()] == ["lead", "deal", "deal"]
    last = p.changes.last()
    assert last.user == s["ref"] and last.before["points"] == [60, 0] and last.after["points"] == [110, 0]
    with pytest.raises(ValidationError, match="closed"):
        commands.record(s["ref"], p.pk, "penalty", {"seat": 2, "code": "signs"})
    assert Partition.objects.get(pk=p.pk).version == 3


def test_a_tour_runs_then_finishes_with_its_last_partition(table_setup):
    s = table_setup
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 2})
    assert Tour.objects.get(pk=s["tour"].pk).status == Tour.Status.RUNNING
    play_to_the_end(s["other"], s["p2"].pk)
    commands.record(s["ref"], s["p1"].pk, "no_show", {"absent": "B"})
    assert Tour.objects.get(pk=s["tour"].pk).status == Tour.Status.FINISHED


def test_what_the_engine_refuses_is_not_stored(table_setup):
    s = table_setup
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    before = Partition.objects.get(pk=s["p1"].pk)
    for action, data, message in [
        ("deal", {"end": "fish", "pips": {"A": 100, "B": 90}}, "168"),
        ("penalty", {"seat": 2, "code": "rudeness"}, "unknown penalty code"),
        ("deal", {"end": "domino", "pips": {"A": 1, "B": 2}}, "needs the seat"),
        ("shuffle", {}, "Unknown action"),
    ]:
        with pytest.raises(ValidationError, match=message):
            commands.record(s["ref"], s["p1"].pk, action, data)
    after = Partition.objects.get(pk=s["p1"].pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert PartitionChange.objects.filter(partition=after).count() == 1


def test_only_the_tables_referee_records_and_only_the_chief_forfeits(table_setup):
    s = table_setup
    with pytest.raises(PermissionDenied):
        commands.record(s["other"], s["p1"].pk, "lead", {"seat": 1})
    with pytest.raises(PermissionDenied):
        commands.record(user("stranger"), s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["chief"], s["p1"].pk, "lead", {"seat": 1})  # the chief referee: every table
    with pytest.raises(PermissionDenied):
        commands.record(s["ref"], s["p1"].pk, "forfeit", {"pair": "A"})
    assert Partition.objects.get(pk=s["p1"].pk).version == 1


def test_a_stale_version_is_a_conflict_not_a_lost_update(table_setup):
    s = table_setup
    p = commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1}, version=0)
    commands.record(s["ref"], p.pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}}, version=1)
    with pytest.raises(storage.Conflict) as info:  # a second tab still at version 1
        commands.record(s["ref"], p.pk, "deal", {"end": "domino", "seat": 2, "pips": {"A": 10, "B": 0}}, version=1)
    assert info.value.current_version == 2
    assert Partition.objects.get(pk=p.pk).deals == 1


def test_a_retried_request_is_applied_once(table_setup):
    s = table_setup
    deal = {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}}
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1}, idempotency_key="k-lead")
    for _ in range(3):
        p = commands.record(s["ref"], s["p1"].pk, "deal", deal, version=1, idempotency_key="k-deal-1")
    assert (p.deals, p.points_a, p.version) == (1, 10, 2)
    with pytest.raises(ValidationError, match="already used"):
        commands.record(s["ref"], s["p1"].pk, "deal", {**deal, "seat": 3}, idempotency_key="k-deal-1")


def test_a_correction_is_a_new_version_and_the_old_one_stays_readable(table_setup):
    s = table_setup
    p = play_to_the_end(s["ref"], s["p1"].pk)
    with pytest.raises(PermissionDenied):
        commands.correct_deal(s["ref"], p.pk, 2, {"end": "fish", "pips": {"A": 40, "B": 10}}, reason="typo")
    with pytest.raises(ValidationError, match="reason"):
        commands.correct_deal(s["chief"], p.pk, 2, {"end": "fish", "pips": {"A": 40, "B": 10}}, reason=" ")
    # Deal 2 was fish with B holding fewer pips, not A: B scores 50, A stays at 60.
    p = commands.correct_deal(s["chief"], p.pk, 2, {"end": "fish", "pips": {"A": 40, "B": 10}},
                              reason="pips of the pairs swapped on paper")
    assert (p.status, p.points_a, p.points_b, p.version) == ("playing", 60, 50, 4)
    change = p.changes.last()
    assert (change.action, change.reason, change.before["points"]) == ("correction", "pips of the pairs swapped on paper",
                                                                        [110, 0])
    old = queries.export_protocol(p, version=3)
    assert old["deals"][1]["pips"] == {"A": 10, "B": 40}
    assert queries.export_protocol(p)["deals"][1]["pips"] == {"A": 40, "B": 10}
    assert Tour.objects.get(pk=s["tour"].pk).status != Tour.Status.FINISHED


def test_import_and_export_the_protocol_format(table_setup):
    s = table_setup
    doc = {"format": "domino-protocol/1", "first_leader": 3,
           "deals": [{"end": "domino", "seat": 3, "pips": {"A": 4, "B": 31}},
                     {"end": "domino", "seat": 1, "pips": {"A": 10, "B": 60}}]}
    p = commands.import_protocol(s["ref"], s["p1"].pk, doc)
    assert (p.status, p.winner, p.points_a) == ("finished", "A", 105)
    exported = queries.export_protocol(p)
    assert exported["first_leader"] == 3 and exported["regulations"]["target"] == 100
    assert exported["pairs"]["A"] == [str(pl) for pl in p.table.pair_a.players]
    with pytest.raises(ValidationError, match="already recorded"):
        commands.import_protocol(s["ref"], s["p1"].pk, doc)
    with pytest.raises(ValidationError, match="deal 1"):
        commands.import_protocol(s["other"], s["p2"].pk, {**doc, "deals": [{"end": "fish", "pips": {"A": 1}}]})
    with pytest.raises(ValidationError, match="regulations"):
        commands.import_protocol(s["other"], s["p2"].pk, {**doc, "regulations": {"target": 200}})
    assert Partition.objects.get(pk=s["p2"].pk).version == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_referees_recording_at_once_never_double_a_deal(table_setup):
    s = table_setup
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    outcomes = []
    barrier = threading.Barrier(2)

    def tab():
        try:
            barrier.wait()
            commands.record(s["ref"], s["p1"].pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 5, "B": 5}},
                            version=1)
            outcomes.append("ok")
        except storage.Conflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=tab) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    assert Partition.objects.get(pk=s["p1"].pk).deals == 1


def test_a_deal_correction_is_not_stored_over_a_change_made_meanwhile(table_setup, monkeypatch):
    """correct_deal computes the correction from the state it read: if the partition changes
    before the correction is stored, it is a conflict, even when the client sent no version."""
    s = table_setup
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["ref"], s["p1"].pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}})
    read = storage.engine_partition

    def read_then_someone_records(partition):
        game = read(partition)
        monkeypatch.setattr(commands, "engine_partition", read)
        commands.record(s["ref"], s["p1"].pk, "penalty", {"seat": 2, "code": "signs"})  # the referee, meanwhile
        return game

    monkeypatch.setattr(commands, "engine_partition", read_then_someone_records)
    with pytest.raises(storage.Conflict) as info:
        commands.correct_deal(s["chief"], s["p1"].pk, 1, {"end": "domino", "seat": 3, "pips": {"A": 0, "B": 20}},
                              reason="pips misread")
    assert info.value.current_version == 3
    p = Partition.objects.get(pk=s["p1"].pk)
    assert (p.version, p.points_a, p.penalties_b) == (3, 35, 1)  # the penalty kept, no correction


def test_every_version_is_readable_from_the_empty_sheet_on(table_setup):
    s = table_setup
    p = play_to_the_end(s["ref"], s["p1"].pk)
    game, summary = queries.partition_at(p, 0)
    assert (game.first_leader, game.deals, summary["status"], summary["points"]) == (None, [], "scheduled", [0, 0])
    game, summary = queries.partition_at(p, 2)
    assert (game.totals, summary["points"], summary["deals"]) == ((60, 0), [60, 0], 1)
    game, summary = queries.partition_at(p)
    assert (game.decision.winner, summary["status"]) == ("A", "finished")
    assert queries.export_protocol(p, version=0)["deals"] == []
    with pytest.raises(ValidationError, match="no version 4"):
        queries.partition_at(p, 4)


def test_every_operation_has_the_serializer_of_its_data():
    assert set(ACTION_DATA) == set(commands.OPERATIONS)


@pytest.mark.parametrize(("action", "data"), [
    ("lead", {"seat": 1}), ("deal", {"end": "domino", "seat": 3, "pips": {"A": 4, "B": 31}}),
    ("deal", {"end": "fish", "pips": {"A": 10, "B": 12}}), ("penalty", {"seat": 2, "code": "signs"}),
    ("violation", {"seat": 2, "code": "move_time"}), ("time", {"during_deal": False}), ("no_show", {"absent": "both"}),
    ("restart", {"seat": 1, "code": "wrong_lead"}), ("annul", {"violation": 3, "reason": "часы шли неверно"}),
    ("forfeit", {"pair": "B"}),
])
def test_each_actions_data_as_the_readme_writes_it_is_accepted_as_it_is(action, data):
    assert action_data(action, data) == data


def test_a_bug_in_an_operation_is_not_taken_for_bad_input(table_setup, monkeypatch):
    s = table_setup
    monkeypatch.setitem(commands.OPERATIONS, "lead", lambda game, data: data["seats"])
    with pytest.raises(KeyError):  # a 500, logged: not "the data lacks seats"
        commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    assert Partition.objects.get(pk=s["p1"].pk).version == 0


def test_a_partition_has_at_most_partition_max_deals_deals(table_setup, settings):
    s = table_setup
    settings.PARTITION_MAX_DEALS = 2
    fish = {"end": "fish", "pips": {"A": 10, "B": 10}}  # drawn: nobody scores, the partition goes on
    commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
    commands.record(s["ref"], s["p1"].pk, "deal", fish)
    commands.record(s["ref"], s["p1"].pk, "deal", fish)  # at the limit
    with pytest.raises(ValidationError, match="A partition has at most 2 deals."):
        commands.record(s["ref"], s["p1"].pk, "deal", fish)
    assert Partition.objects.get(pk=s["p1"].pk).deals == 2
    document = {"format": "domino-protocol/1", "first_leader": 1, "deals": [fish] * 2}
    assert commands.import_protocol(s["other"], s["p2"].pk, document).deals == 2  # at the limit
    with pytest.raises(ValidationError, match="A partition has at most 2 deals."):
        commands.import_protocol(s["chief"], s["p2"].pk, {**document, "deals": [fish] * 3}, reason="бланк")
    assert Partition.objects.get(pk=s["p2"].pk).version == 1


def test_a_protocol_of_45000_drawn_deals_is_refused_before_the_engine_reads_it(table_setup, monkeypatch):
    s = table_setup
    read = []
    monkeypatch.setattr(commands.engine, "read_protocol", lambda doc: read.append(doc))
    document = {"format": "domino-protocol/1", "first_leader": 1,
                "deals": [{"end": "fish", "pips": {"A": 10, "B": 10}}] * 45_000}
    with pytest.raises(ValidationError, match="A partition has at most 500 deals."):
        commands.import_protocol(s["ref"], s["p1"].pk, document)
    assert read == [] and Partition.objects.get(pk=s["p1"].pk).version == 0
