"""Recording a Goat table through record_goat_deal: retries, stale versions, the audit trail."""

import pytest
from django.core.exceptions import ValidationError

from builders import tournament, user
from scoring.models import PartitionChange, SeatResult
from scoring.recording import commands, storage
from tournaments import services as tournament_services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def goat_table():
    org = user("org", superuser=True)
    ref = user("ref")
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                   regulations={"game": "goat", "lose_at": 30, "opening": 0})
    tournament_services.add_role(org, t, "ref", "referee")
    for name in ("Первый", "Второй"):
        tournament_services.register_player(org, t, {"last_name": name})
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    tournament_services.assign_referee(org, table, ref)
    tours.publish_tour(org, tour)
    return {"org": org, "ref": ref, "partition": table.partition}


def test_a_retried_deal_is_recorded_once_and_a_stale_version_is_a_conflict(goat_table):
    ref, pk = goat_table["ref"], goat_table["partition"].pk
    deal = {"lead": 2, "end": "fish", "seat": 2, "values": {"1": 12, "2": 7}}  # for_all: 12 and 7
    first = commands.record_goat_deal(ref, pk, deal, version=0, idempotency_key="k1")
    again = commands.record_goat_deal(ref, pk, deal, version=0, idempotency_key="k1")
    assert first.version == again.version == 1
    assert PartitionChange.objects.filter(partition_id=pk).count() == 1
    with pytest.raises(storage.Conflict):
        commands.record_goat_deal(ref, pk, {"end": "domino", "seat": 1, "values": {"2": 30}}, version=0)
    with pytest.raises(ValidationError, match="another change"):
        commands.record_goat_deal(ref, pk, {"end": "redeal"}, idempotency_key="k1")
    # Domino by seat 1: seat 2 at 7 + 23 = 30, the goat. Seat 1: (100 - 12) / 10 = 8.8 -> 9.
    done = commands.record_goat_deal(ref, pk, {"end": "domino", "seat": 1, "values": {"2": 23}}, version=1)
    assert (done.status, done.version, done.deals) == ("finished", 2, 2)
    change = PartitionChange.objects.get(partition_id=pk, version=2)
    assert change.action == "goat_deal" and change.user == ref and change.after["status"] == "finished"
    assert change.state["games"][0]["events"][-1]["type"] == "deal"
    assert list(SeatResult.objects.filter(partition_id=pk).values_list("seat", "game_points", "goats", "score")) == [
        (1, 9, 0, 12), (2, 0, 1, 30)]


def test_the_sports_recording_refuses_a_goat_table(goat_table):
    with pytest.raises(ValidationError, match="plays Goat or Sea Goat"):
        commands.record(goat_table["org"], goat_table["partition"].pk, "lead", {"seat": 1})
    commands.record_goat_deal(goat_table["org"], goat_table["partition"].pk, {"lead": 1, "end": "redeal"})
    with pytest.raises(ValidationError, match="plays Goat or Sea Goat"):
        commands.record(goat_table["org"], goat_table["partition"].pk, "deal",
                        {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}})
