"""The demo data of `make run`."""

import pytest
from django.core.management import call_command

from scoring.management.commands.demo_players import Command as DemoPlayers
from scoring.models import LiveTable, Partition, SeatResult
from tournaments.models import Entry, Pair, Player, Rating, RatingChange, Table, Tour, Tournament

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
    # Rated: the 24 finished partitions of the three finished tours, four players each.
    assert RatingChange.objects.filter(tournament=demo).count() == 24 * 4
    # Every player of the demo and of its earlier tournament (20 of them in both) is rated once.
    players = Player.objects.filter(entries__tournament__slug__in=["demo", "demo-autumn"]).distinct()
    assert Rating.objects.filter(family="sports").count() == players.count() == 32 + 4


def test_an_earlier_finished_tournament_shares_twenty_players_with_the_demo(client):
    call_command("load_demo")
    demo, earlier = Tournament.objects.get(slug="demo"), Tournament.objects.get(slug="demo-autumn")
    assert earlier.status == Tournament.Status.FINISHED and earlier.ends_on < demo.starts_on
    assert earlier.format == Tournament.Format.SWISS and earlier.pairs.filter(tour__isnull=True).count() == 12
    assert list(earlier.tours.values_list("status", flat=True)) == ["finished"] * 3
    partitions = Partition.objects.filter(table__tour__tournament=earlier)
    assert partitions.count() == 18 and not partitions.exclude(status="finished").exists()
    assert all(p.changes.count() == p.deals + 1 for p in partitions)  # recorded deal by deal
    shared = set(Entry.objects.filter(tournament=demo).values_list("player", flat=True)) & set(
        Entry.objects.filter(tournament=earlier).values_list("player", flat=True))
    assert len(shared) == 20
    # A shared player's page shows both tournaments, each with its scores.
    page = client.get(f"/en/players/{min(shared)}/").content.decode()
    assert demo.name in page and earlier.name in page and page.count(" : ") >= 6


def test_loading_the_demo_twice_changes_nothing():
    call_command("load_demo")
    before = snapshot()
    call_command("load_demo")
    assert snapshot() == before


def test_the_goat_demo_is_an_individual_event_of_twelve_played_through_the_services():
    call_command("load_demo")
    goat = Tournament.objects.get(slug="goat")
    assert goat.format == Tournament.Format.INDIVIDUAL and goat.rules.game == "goat"
    assert goat.entries.count() == 12 and not goat.pairs.exists()
    assert list(goat.tours.values_list("number", "status")) == [
        (1, "finished"), (2, "finished"), (3, "finished"), (4, "running")]
    tables = Table.objects.filter(tour__tournament=goat)
    assert tables.count() == 12 and not tables.filter(seat4__isnull=True).exists()
    for p in Partition.objects.filter(table__tour__tournament=goat, table__tour__number__lte=3):
        results = list(SeatResult.objects.filter(partition=p))
        assert p.status == "finished" and len(results) == 4
        assert sum(r.goats for r in results) >= 1 and max(r.score for r in results) >= 101  # lose_at 101
        assert p.changes.count() == p.deals  # one change per deal, the lead with the first
    # Nobody sat with the same three players twice in a row: the draw avoids repeats.
    seats = {n: [set(t) for t in tables.filter(tour__number=n).values_list("seat1", "seat2", "seat3", "seat4")]
             for n in (1, 2, 3)}
    assert not any(a == b for n in (1, 2) for a in seats[n] for b in seats[n + 1])
    # Tour 4 is under way: table 1 on the score sheet (two deals), tables 2 and 3 live on the
    # players' phones, waiting for them (manage.py demo_players takes their seats).
    tour = goat.tours.get(number=4)
    assert tour.started_at is not None
    sheet = Partition.objects.get(table__tour=tour, table__number=1)
    assert sheet.status == "playing" and sheet.changes.count() == 2 and not hasattr(sheet, "live")
    live = LiveTable.objects.filter(partition__table__tour=tour)
    assert sorted(live.values_list("partition__table__number", "mode")) == [(2, "digital"), (3, "digital")]
    assert all(t.no_show_deadline is not None for t in live)
    # The simulated players take their seats (demo_players' own round, without its loop, which
    # recycles the database connection): once all four are there the table deals its first deal.
    players, tokens = DemoPlayers(), {}
    for live in LiveTable.objects.filter(partition__table__tour=tour):
        players.seat(live, tokens)
    for live in LiveTable.objects.filter(partition__table__tour=tour):
        assert live.present == [1, 2, 3, 4] and live.seat is not None
        assert live.partition.status == "playing"

