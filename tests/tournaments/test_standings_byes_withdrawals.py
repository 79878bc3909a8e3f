"""Byes and withdrawals in the standings (RULES 8), on a hand-computed Swiss of five pairs: a bye is
a win worth ``bye_points`` tournament points (default ``win_points``) and 0:0 in domino points; a
withdrawn pair keeps its results and is marked wherever it is ranked."""

import csv
import importlib
import io

import pytest
from django.apps import apps
from django.utils import translation

from tournaments import services, tours
from tournaments.models import Pair, Tournament
from tournaments.standings import pair_standings, standings_table

from builders import tournament, user
from test_standings import seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss():
    """Five pairs, a won partition worth 2 tournament points; tours seated by hand.

    Tour 1: 1 beats 2 200:150, 3 beats 4 200:120, 5 has the bye.
    Tour 2: 1 beats 3 200:190, 2 beats 5 200:100, 4 has the bye.
    """
    org = user("org", superuser=True)
    t = tournament(org, pairs=5, regulations={"win_points": 2})
    seat(org, t, [(1, 2, 200, 150), (3, 4, 200, 120)], bye=5)
    seat(org, t, [(1, 3, 200, 190), (2, 5, 200, 100)], bye=4)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    t.refresh_from_db()
    return {"org": org, "t": t}


def lines(t, **kwargs):
    """(number, rank, tournament points, wins, byes, played, for, against, difference, withdrawn)."""
    return [(line.pair.number, line.rank, line.value("tournament_points"), line.row.wins, line.row.byes,
             line.row.played, line.row.points_for, line.row.points_against, line.value("points_difference"),
             line.withdrawal) for line in standings_table(t, **kwargs).lines]


def test_a_bye_is_worth_a_win_in_tournament_points_and_nothing_in_domino_points(swiss):
    t = swiss["t"]
    assert t.rules.bye_award == 2  # bye_points left out: win_points
    # Tournament points, then points difference: 1 (4), then 3 (+70), 2 (+50), 4 (-80), 5 (-100), all 2.
    assert lines(t) == [
        (1, 1, 4, 2, 0, 2, 400, 340, 60, ""),
        (3, 2, 2, 1, 0, 2, 390, 320, 70, ""),
        (2, 3, 2, 1, 0, 2, 350, 300, 50, ""),
        (4, 4, 2, 1, 1, 1, 120, 200, -80, ""),
        (5, 5, 2, 1, 1, 1, 100, 200, -100, ""),
    ]
    # After tour 1 the bye pair has its 2 points and 0:0; it ranks with the winners, by difference.
    assert lines(t, after_tour=1) == [
        (3, 1, 2, 1, 0, 1, 200, 120, 80, ""),
        (1, 2, 2, 1, 0, 1, 200, 150, 50, ""),
        (5, 3, 2, 1, 1, 0, 0, 0, 0, ""),
        (2, 4, 0, 0, 0, 1, 150, 200, -50, ""),
        (4, 5, 0, 0, 0, 1, 120, 200, -80, ""),
    ]
    assert [c.key for c in standings_table(t).precedence] == [
        "tournament_points", "points_difference", "points_for", "buchholz", "head_to_head"]


def test_bye_points_of_their_own_count_for_the_bye_only():
    org = user("org", superuser=True)
    t = tournament(org, pairs=3, regulations={"win_points": 3, "bye_points": 1})
    seat(org, t, [(1, 2, 200, 100)], bye=3)
    rows = {r.key: r for r in pair_standings(t)}
    by_number = {p.number: p.pk for p in Pair.objects.filter(tournament=t)}
    assert [(rows[by_number[n]].tournament_points, rows[by_number[n]].wins, rows[by_number[n]].points_for)
            for n in (1, 2, 3)] == [(3, 1, 200), (0, 0, 100), (1, 1, 0)]
    assert [r.key for r in pair_standings(t)] == [by_number[1], by_number[3], by_number[2]]


def test_a_withdrawn_pair_keeps_its_results_and_is_marked_wherever_it_is_ranked(swiss, client):
    org, t = swiss["org"], swiss["t"]
    five = Pair.objects.get(tournament=t, number=5)
    services.withdraw_pair(org, five)
    marked = [(n, w) for n, *_rest, w in lines(t)]
    assert marked == [(1, ""), (3, ""), (2, ""), (4, ""), (5, "withdrawn after tour 2")]
    assert lines(t)[-1][:9] == (5, 5, 2, 1, 1, 1, 100, 200, -100)  # its results stay
    # After tour 1 it had not withdrawn yet.
    assert all(not line.withdrawal for line in standings_table(t, after_tour=1).lines)
    # Its players are marked in the player standings.
    players = {line.player.pk: line.withdrawal for line in standings_table(t, kind="players").lines}
    assert {players[five.first_id], players[five.second_id]} == {"withdrawn after tour 2"}
    assert sum(1 for w in players.values() if w) == 2
    # The next tour draws the others: four pairs at two tables, no bye for anyone.
    tour3 = tours.generate_tour(org, t)
    assert tour3.tables.count() == 2 and not tour3.byes.exists()
    assert five.pk not in {pk for table in tour3.tables.all() for pk in (table.pair_a_id, table.pair_b_id)}

    # The public page, in Russian.
    page = client.get("/tournaments/cup/standings/").content.decode()
    assert "снялась после 2-го тура" in page
    assert "снялся после 2-го тура" in client.get("/tournaments/cup/standings/players/").content.decode()
    # The CSV file.
    data = client.get("/en/tournaments/cup/standings/csv/").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(data), delimiter=";"))
    assert rows[0][-2:] == ["Tournament points", "Withdrawn"]
    assert [(r[1], r[-2], r[-1]) for r in rows[1:]] == [
        ("1", "4", ""), ("3", "2", ""), ("2", "2", ""), ("4", "2", ""), ("5", "2", "withdrawn after tour 2")]
    # The API.
    body = client.get("/api/tournaments/cup/standings/").json()
    assert [(r["pair"]["number"], r["tournament_points"], r["withdrawn_after_tour"]) for r in body["rows"]] == [
        (1, 4, None), (3, 2, None), (2, 2, None), (4, 2, None), (5, 2, 2)]
    assert client.get("/api/tournaments/cup/standings/?after_tour=1").json()["rows"][2]["withdrawn_after_tour"] is None


def test_a_pair_withdrawn_before_the_first_tour_is_marked_so():
    org = user("org", superuser=True)
    t = tournament(org, pairs=5)
    services.withdraw_pair(org, Pair.objects.get(tournament=t, number=5))
    seat(org, t, [(1, 2, 200, 150), (3, 4, 200, 120)])
    fifth = [line for line in standings_table(t).lines if line.pair.number == 5]
    assert [(line.withdrawn_after, line.withdrawal) for line in fifth] == [(0, "withdrawn before tour 1")]
    assert [line.pair.number for line in standings_table(t, after_tour=1).lines if line.withdrawal] == [5]
    with translation.override("ru"):
        assert fifth[0].withdrawal == "снялась до 1-го тура"


def test_the_migration_makes_a_bye_worth_a_win_and_ranks_by_tournament_points():
    org = user("org", superuser=True)
    old = tournament(org, pairs=3, regulations={"win_points": 2})
    goat = tournament(org, slug="goat", regulations={"game": "goat"})
    # As the regulations were stored before: a bye worth 0, the standings by wins.
    Tournament.objects.filter(pk=old.pk).update(regulations={
        **old.regulations, "bye_points": 0, "standings": ["wins", "points_difference", "buchholz"]})
    Tournament.objects.filter(pk=goat.pk).update(regulations={**goat.regulations, "bye_points": 0})
    migration = importlib.import_module("tournaments.migrations.0010_bye_points_as_win_points")
    migration.bye_points_as_win_points(apps, None)
    old.refresh_from_db()
    goat.refresh_from_db()
    assert old.regulations["bye_points"] == 2 and old.rules.bye_award == 2
    assert old.regulations["standings"] == ["tournament_points", "points_difference", "buchholz"]
    assert goat.regulations["bye_points"] == 1
    assert goat.regulations["standings"] == ["game_points", "goats", "total_score"]
