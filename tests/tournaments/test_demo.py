"""The demo data of `make run`."""

import pytest
from django.core.management import call_command

from scoring.models import LiveTable, Partition
from tournaments.models import Pair, Table, Tour, Tournament

pytestmark = pytest.mark.django_db


def snapshot():
    return (Tournament.objects.count(), Pair.objects.count(), Tour.objects.count(), Table.objects.count(),
            Partition.objects.count())


def test_demo_tournament_is_played_through_the_services():
    call_command("load_demo")
    demo = Tournament.objects.get(slug="demo")
    assert demo.format == Tournament.Format.SWISS
    assert demo.pairs.filter(tour__isnull=True).count() == 16
    assert list(demo.tours.values_list("number", "status")) == [
        (1, "finished"), (2, "finished"), (3, "finished"), (4, "running")]
    finished = Partition.objects.filter(table__tour__tournament=demo, status="finished")
    assert finished.count() == 24
    for p in finished:
        assert max(p.points_a, p.points_b) >= 200 and p.winner
        assert p.changes.count() == p.deals + 1  # the lead draw, then one change per deal
    # Tour 4 is under way: two tables on the score sheet, two played live on the players' phones
    # (their seats taken, the first deal dealt, by manage.py demo_players).
    playing = Partition.objects.filter(table__tour__tournament=demo, table__tour__number=4, status="playing")
    assert sorted(playing.values_list("table__number", flat=True)) == [1, 2, 3, 4]
    assert sorted(LiveTable.objects.filter(partition__in=playing).values_list("partition__table__number",
                                                                                flat=True)) == [3, 4]
    assert Tour.objects.get(tournament=demo, number=4).started_at is not None
    assert not Table.objects.filter(tour__tournament=demo, referee__isnull=True).exists()


def test_loading_the_demo_twice_changes_nothing():
    call_command("load_demo")
    before = snapshot()
    call_command("load_demo")
    assert snapshot() == before
