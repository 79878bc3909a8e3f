"""A Goat event each for himself (RULES 9.1 "Tournament"): tables of 2 to 4 players without
pairs, drawn by the Goat draw, recorded deal by deal through the services, the standings summed
from the players' seat results. Every expectation is computed by hand in the comments."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from scoring.models import Partition, PartitionChange, SeatResult
from tournaments import services, tours
from tournaments.models import SitOut, Table, Tour, Tournament
from tournaments.standings import player_standings, standings_table

from builders import tournament, user
from scoring.recording import commands

pytestmark = pytest.mark.django_db

GOAT = {"game": "goat", "lose_at": 40}  # opening 13, for_all fish, one game a tour


def goat_event(players: int, regulations: dict | None = None, *, slug: str = "goat"):
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug=slug, regulations=regulations or GOAT)
    for n in range(1, players + 1):
        services.register_player(org, t, {"last_name": f"Игрок{n}"})
    return org, t


def seated(tour: Tour) -> list[tuple[int, ...]]:
    return [tuple(p.pk for p in table.players) for table in tour.tables.order_by("number")]


def test_the_tables_of_a_goat_tour_seat_players_without_pairs():
    org, t = goat_event(9)
    tour = tours.generate_tour(org, t)
    tables = list(tour.tables.order_by("number"))
    assert [len(table.players) for table in tables] == [3, 3, 3]  # RULES 9.1: 9 sit 3, 3 and 3
    assert all(table.pair_a is None and table.pair_b is None and table.seat4 is None for table in tables)
    assert sorted(p for seats in seated(tour) for p in seats) == sorted(t.entries.values_list("player", flat=True))
    assert all(table.partition.status == "scheduled" for table in tables)
    assert not SitOut.objects.filter(tour=tour).exists()


def test_five_players_sit_three_and_two_and_the_next_tour_avoids_repeats():
    org, t = goat_event(5)
    first = tours.generate_tour(org, t)
    assert [len(s) for s in seated(first)] == [3, 2]
    tours.publish_tour(org, first)
    for partition in Partition.objects.filter(table__tour=first):
        Partition.objects.filter(pk=partition.pk).update(status="finished", reason="lose_at")
    Tour.objects.filter(pk=first.pk).update(status=Tour.Status.FINISHED)
    second = tours.generate_tour(org, t)
    met = {frozenset(two) for seats in seated(first) for two in combinations(seats, 2)}
    again = [frozenset(two) for seats in seated(second) for two in combinations(seats, 2) if frozenset(two) in met]
    # 4 meetings of tour 1 among 5 players: the 3 at table 1 cannot all part, one pair meets again.
    assert len(again) == 1


def test_goat_each_for_himself_is_drawn_individually_only():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, regulations=GOAT)  # Swiss, pairs registered
    with pytest.raises(ValidationError, match="individual format"):
        tours.generate_tour(org, t)
    assert not Table.objects.exists() and not Tour.objects.filter(tables__isnull=False).exists()


def test_goat_in_pairs_keeps_the_sports_tables():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, regulations={"game": "goat", "teams": True})
    tour = tours.generate_tour(org, t)
    for table in tour.tables.all():
        assert (table.seat1, table.seat3) == table.pair_a.players
        assert (table.seat2, table.seat4) == table.pair_b.players


def test_the_database_keeps_the_seats_in_order_and_pairs_at_four_seats():
    org = user("org", superuser=True)
    t = tournament(org, pairs=2)
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    with transaction.atomic(), pytest.raises(IntegrityError, match="table_seats_in_order"):
        Table.objects.filter(pk=table.pk).update(seat3=None)
    with transaction.atomic(), pytest.raises(IntegrityError, match="table_pairs_at_four_seats"):
        Table.objects.filter(pk=table.pk).update(seat3=None, seat4=None)
    with transaction.atomic(), pytest.raises(IntegrityError, match="table_pairs_at_four_seats"):
        Table.objects.filter(pk=table.pk).update(pair_b=None)
    Table.objects.filter(pk=table.pk).update(pair_a=None, pair_b=None, seat4=None)  # a Goat table of 3
    with pytest.raises(ValidationError, match="a table of pairs seats two pairs in four seats"):
        tours.check_table(Table.objects.get(pk=table.pk), t.rules)


@pytest.fixture
def played():
    """5 players: a table of 3 and a table of 2, recorded deal by deal to the goat."""
    org, t = goat_event(5)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    three, two = (table.partition for table in tour.tables.order_by("number"))
    # Table 1: seat 2 leads. Domino by 2: seat 1 charged 10 (under the opening of 13: memorised),
    # seat 3 20 (opens: 20). Fish by 3 (for_all): seat 1 5 more, memorised 15, still closed; seat
    # 2 14 (opens: 14); seat 3 25 more: 45, at lose_at 40 or more: the goat.
    commands.record_goat_deal(org, three.pk, {"lead": 2, "end": "domino", "seat": 2, "values": {"1": 10, "3": 20}})
    p = commands.record_goat_deal(org, three.pk, {"end": "fish", "seat": 3, "values": {"1": 5, "2": 14, "3": 25}})
    assert p.status == "finished" and p.reason == "lose_at" and p.deals == 2 and p.version == 2
    # Table 2: a redeal, then domino by seat 1: seat 2 charged 41, the goat.
    commands.record_goat_deal(org, two.pk, {"lead": 1, "end": "redeal"})
    commands.record_goat_deal(org, two.pk, {"end": "domino", "seat": 1, "values": {"2": 41}})
    return {"org": org, "t": t, "tour": tour, "three": three, "two": two}


def test_a_finished_sitting_writes_each_players_result(played):
    three, two = played["three"], played["two"]
    table = three.table
    results = {r.seat: (r.player_id, r.game_points, r.goats, r.score, r.games_won)
               for r in SeatResult.objects.filter(partition=three)}
    # Game points (100 - score) / 10 rounded half up, a goat 0: 10, 8.6 -> 9, 0.
    assert results == {1: (table.seat1_id, 10, 0, 0, 0), 2: (table.seat2_id, 9, 0, 14, 0),
                       3: (table.seat3_id, 0, 1, 45, 0)}
    assert [(r.seat, r.game_points, r.goats, r.score) for r in SeatResult.objects.filter(partition=two)] == [
        (1, 10, 0, 0), (2, 0, 1, 41)]
    assert Tour.objects.get(pk=played["tour"].pk).status == Tour.Status.FINISHED
    assert [c.action for c in PartitionChange.objects.filter(partition=three)] == ["goat_deal", "goat_deal"]


def test_goat_standings_game_points_then_goats_then_total_score(played):
    t, three, two = played["t"], played["three"].table, played["two"].table
    rows = player_standings(t)
    got = [(r.rank, r.key, r.metrics["game_points"], r.metrics["goats"], r.metrics["total_score"]) for r in rows]
    winners = sorted([three.seat1_id, two.seat1_id])
    # Two with 10 game points and nothing charged share the lead; 9; then the goats, 41 before 45.
    assert sorted(got[:2]) == [(1, winners[0], 10, 0, 0), (1, winners[1], 10, 0, 0)]
    assert got[2:] == [(3, three.seat2_id, 9, 0, 14), (4, two.seat2_id, 0, 1, 41), (5, three.seat3_id, 0, 1, 45)]
    table = standings_table(t)
    assert [c.key for c in table.columns] == ["game_points", "goats", "total_score", "played"]
    lines = table.csv().decode("utf-8-sig").splitlines()
    assert len(lines) == 6 and lines[-1].endswith(";0;1;45;1;")  # game points, goats, total score, played; withdrawn


def test_bad_input_is_refused_and_nothing_is_written(played):
    org, t = played["org"], played["t"]
    with pytest.raises(ValidationError, match="closed"):
        commands.record_goat_deal(org, played["three"].pk, {"end": "domino", "seat": 1, "values": {"2": 3}})
    # A fresh event: one table of 2.
    org2 = user("org2", superuser=True)
    t2 = tournament(org2, format=Tournament.Format.INDIVIDUAL, slug="goat2", regulations=GOAT)
    for n in range(2):
        services.register_player(org2, t2, {"last_name": f"Гость{n}"})
    tour = tours.generate_tour(org2, t2)
    tours.publish_tour(org2, tour)
    pk = tour.tables.get().partition.pk
    for deal, message in [
        ({"end": "domino", "seat": 1, "values": {"2": 3}}, "needs the seat that led it"),
        ({"lead": 1, "end": "domino", "seat": 3, "values": {"2": 3}}, "seat must be 1 to 2"),
        ({"lead": 1, "end": "domino", "seat": 1, "values": {"2": -3}}, "0 or more"),
        ({"lead": 1, "end": "fish", "seat": 1, "values": {"1": 3}}, "seat 2 is missing"),
        ({"lead": 1, "end": "domino", "seat": 1, "values": {"2": 3}, "pips": 1}, "Unknown field: pips"),
        ({"lead": 1, "end": "redeal", "seat": 1}, "no seat and no hand values"),
        ([1, 2], "must be an object"),
    ]:
        with pytest.raises(ValidationError, match=message):
            commands.record_goat_deal(org2, pk, deal)
    p = Partition.objects.get(pk=pk)
    assert (p.version, p.state, p.status) == (0, None, "scheduled")
    assert not PartitionChange.objects.filter(partition=p).exists()
    with pytest.raises(PermissionDenied):
        commands.record_goat_deal(user("nobody"), pk, {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 3}})
    sports = tournament(org, pairs=2, slug="sports")
    sports_tour = tours.generate_tour(org, sports)
    tours.publish_tour(org, sports_tour)
    with pytest.raises(ValidationError, match="does not play Goat"):
        commands.record_goat_deal(org, sports_tour.tables.get().partition.pk,
                                 {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 3}})


def test_several_games_a_tour_and_the_next_draw_by_game_points():
    org, t = goat_event(4, {**GOAT, "games_per_tour": 2})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    partition = tour.tables.get().partition
    # Game 1: seat 1 leads, domino; seat 4 charged 40: the goat. 10, 10, 10 and 0 game points.
    p = commands.record_goat_deal(org, partition.pk, {"lead": 1, "end": "domino", "seat": 1,
                                                     "values": {"2": 0, "3": 0, "4": 40}})
    assert p.status == "playing" and len(p.state["games"]) == 2
    # Game 2, led by the hands again: seat 3. Domino; seat 2 charged 45, the goat; seat 4 13: 9.
    p = commands.record_goat_deal(org, partition.pk, {"lead": 3, "end": "domino", "seat": 3,
                                                     "values": {"1": 0, "2": 45, "4": 13}})
    assert p.status == "finished"
    table = partition.table
    assert [(r.player_id, r.game_points, r.goats, r.score) for r in SeatResult.objects.filter(partition=p)] == [
        (table.seat1_id, 20, 0, 0), (table.seat2_id, 10, 1, 45), (table.seat3_id, 20, 0, 0),
        (table.seat4_id, 9, 1, 53)]
    second = tours.generate_tour(org, t)
    assert len(seated(second)) == 1  # four players, one table: the scores order the seats
    assert seated(second)[0][:2] in {(table.seat1_id, table.seat3_id), (table.seat3_id, table.seat1_id)}


def test_sea_goat_in_pairs_ranks_pairs_by_games_won_then_points():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, regulations={"game": "sea_goat", "target": 30, "opening": 0})
    assert t.rules.teams and t.rules.standings == ("games_won", "points_won")
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    one, two = tour.tables.order_by("number")
    # Table 1: domino by seat 1, pair A credited the losers' 12 + 20 = 32: at the target of 30.
    commands.record_goat_deal(org, one.partition.pk, {"lead": 1, "end": "domino", "seat": 1,
                                                     "values": {"2": 12, "3": 0, "4": 20}})
    # Table 2: domino by seat 2, pair B credited 15 + 16 = 31.
    commands.record_goat_deal(org, two.partition.pk, {"lead": 2, "end": "domino", "seat": 2,
                                                     "values": {"1": 15, "3": 16, "4": 0}})
    results = {r.seat: (r.player_id, r.games_won, r.score) for r in SeatResult.objects.filter(partition=one.partition)}
    assert results == {1: (one.seat1_id, 1, 32), 2: (one.seat2_id, 0, 0), 3: (one.seat3_id, 1, 32),
                       4: (one.seat4_id, 0, 0)}
    rows = [(line.rank, line.row.key, line.value("games_won"), line.value("points_won"))
            for line in standings_table(t).lines]
    assert rows[:2] == [(1, one.pair_a_id, 1, 32), (2, two.pair_b_id, 1, 31)]
    assert sorted(rows[2:]) == sorted([(3, one.pair_b_id, 0, 0), (3, two.pair_a_id, 0, 0)])
