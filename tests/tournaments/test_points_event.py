"""A tournament of another game (RULES 9.3, ``game: points``): tables of 2 to ``players`` seats
drawn as Goat's, or two pairs with ``teams``; the referee enters each deal's points through the
services; the sitting's games end at the target; each player's SeatResult feeds the standings
(games won, then points, the higher or the lower first); live tables are refused. Every
expectation is computed by hand in the comments."""

from __future__ import annotations

import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import PermissionDenied, ValidationError

from scoring import engine
from scoring.engine import Regulations
from scoring.live import play
from scoring.models import Partition, PartitionChange, SeatResult
from tournaments import services, tours
from tournaments.models import PlayMode, Table, Tour, Tournament
from tournaments.standings import standings_table

from builders import tournament, user
from scoring.recording import commands, formats, queries

pytestmark = pytest.mark.django_db


def points_event(players: int, regulations: dict, *, slug: str = "points"):
    """An individual points event of ``players`` players, tour 1 drawn and published."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug=slug, regulations={"game": "points", **regulations})
    for n in range(1, players + 1):
        services.register_player(org, t, {"last_name": f"Игрок{n}"})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    return org, t, tour


def record(user, partition: Partition, *deals: dict) -> Partition:
    for points in deals:
        partition = commands.record_points_deal(user, partition.pk, {"points": points, "total": sum(points.values())})
    return partition


def results(partition: Partition) -> dict[int, tuple[int, int, int, int]]:
    """Seat: (player, games won, score, game points)."""
    return {r.seat: (r.player_id, r.games_won, r.score, r.game_points)
            for r in SeatResult.objects.filter(partition=partition)}


def test_three_players_to_100_highest_wins():
    org, t, tour = points_event(3, {"players": 3, "target": 100})
    table = tour.tables.get()
    assert (len(table.players), table.pair_a, table.pair_b, table.seat4) == (3, None, None, None)
    # 30 45 20; then 80 85 30 (nobody at 100); then 105 90 30: seat 1 reaches the target, the highest.
    p = record(org, table.partition, {"1": 30, "2": 45, "3": 20}, {"1": 50, "2": 40, "3": 10})
    assert (p.status, p.deals) == ("playing", 2) and not SeatResult.objects.exists()
    p = record(org, p, {"1": 25, "2": 5, "3": 0})
    assert (p.status, p.reason, p.deals, p.version) == ("finished", "target", 3, 3)
    assert results(p) == {1: (table.seat1_id, 1, 105, 1), 2: (table.seat2_id, 0, 90, 0),
                          3: (table.seat3_id, 0, 30, 0)}
    assert Tour.objects.get(pk=tour.pk).status == Tour.Status.FINISHED
    assert [c.action for c in PartitionChange.objects.filter(partition=p)] == ["points_deal"] * 3
    with pytest.raises(ValidationError, match="closed"):
        record(org, p, {"1": 1, "2": 1, "3": 1})
    rows = [(line.rank, line.row.key, line.value("games_won"), line.value("points_scored"))
            for line in standings_table(t).lines]
    assert rows == [(1, table.seat1_id, 1, 105), (2, table.seat2_id, 0, 90), (3, table.seat3_id, 0, 30)]
    assert [c.key for c in standings_table(t).columns] == ["games_won", "points_scored", "played"]


def test_a_sitting_of_two_games_sums_them():
    org, t, tour = points_event(2, {"players": 2, "target": 50, "games_per_tour": 2})
    table = tour.tables.get()
    # Game 1: 50:20, seat 1 wins. Game 2: 10:30, then 40:60: seat 2 wins.
    p = record(org, table.partition, {"1": 50, "2": 20})
    assert p.status == "playing" and len(p.state["games"]) == 2
    p = record(org, p, {"1": 10, "2": 30}, {"1": 30, "2": 30})
    assert p.status == "finished"
    # Each won one game; points 50 + 40 = 90 and 20 + 60 = 80.
    assert results(p) == {1: (table.seat1_id, 1, 90, 1), 2: (table.seat2_id, 1, 80, 1)}
    rows = [(line.rank, line.row.key) for line in standings_table(t).lines]
    assert rows == [(1, table.seat1_id), (2, table.seat2_id)]  # games won tied: the points, the higher first


def test_pairs_play_points_on_the_sports_draw_and_rank_as_pairs():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, regulations={"game": "points", "teams": True, "target": 150})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    one, two = tour.tables.order_by("number")
    assert one.pair_a is not None and one.seat4 is not None
    # Table 1: A 100 B 60, then 130:130 (under 150), then 155:140: pair A.
    p1 = record(org, one.partition, {"A": 100, "B": 60}, {"A": 30, "B": 70}, {"A": 25, "B": 10})
    # Table 2: B makes 150 at once.
    p2 = record(org, two.partition, {"A": 0, "B": 150})
    assert (p1.status, p2.status) == ("finished", "finished")
    # Partners take the same result.
    assert results(p1) == {1: (one.seat1_id, 1, 155, 1), 2: (one.seat2_id, 0, 140, 0),
                           3: (one.seat3_id, 1, 155, 1), 4: (one.seat4_id, 0, 140, 0)}
    rows = [(line.rank, line.row.key, line.value("games_won"), line.value("points_scored"))
            for line in standings_table(t).lines]
    # The winners by points: 155, 150; then the others: 140, 0.
    assert rows == [(1, one.pair_a_id, 1, 155), (2, two.pair_b_id, 1, 150), (3, one.pair_b_id, 0, 140),
                    (4, two.pair_a_id, 0, 0)]


def test_lowest_wins_and_the_standings_put_the_lower_points_first():
    org, t, tour = points_event(4, {"players": 2, "target": 50, "points_win": "lowest"})
    one, two = tour.tables.order_by("number")
    assert [len(table.players) for table in (one, two)] == [2, 2]
    # Table 1: 20:35, then 30:55: at the target, seat 1 has the lower score and wins.
    p1 = record(org, one.partition, {"1": 20, "2": 35}, {"1": 10, "2": 20})
    # Table 2: 50:10 at once: seat 2 wins.
    p2 = record(org, two.partition, {"1": 50, "2": 10})
    assert results(p1) == {1: (one.seat1_id, 1, 30, 1), 2: (one.seat2_id, 0, 55, 0)}
    assert results(p2) == {1: (two.seat1_id, 0, 50, 0), 2: (two.seat2_id, 1, 10, 1)}
    rows = [(line.rank, line.row.key, line.value("games_won"), line.value("points_scored"))
            for line in standings_table(t).lines]
    # Winners 10 before 30, then 50 before 55 (the highest first would give 30, 10, 55, 50).
    assert rows == [(1, two.seat2_id, 1, 10), (2, one.seat1_id, 1, 30), (3, two.seat1_id, 0, 50),
                    (4, one.seat2_id, 0, 55)]
    # The next draw seats the winners together (games won, the first criterion).
    Tour.objects.filter(pk=tour.pk).update(status=Tour.Status.FINISHED)
    second = tours.generate_tour(org, t)
    firsts = {frozenset(p.pk for p in table.players) for table in second.tables.all()}
    assert frozenset((two.seat2_id, one.seat1_id)) in firsts


def test_bad_points_are_refused_with_a_clear_error_and_nothing_is_written():
    org, t, tour = points_event(3, {"players": 3, "target": 100})
    pk = tour.tables.get().partition.pk
    for deal, message in [
        ({"points": {"1": 10, "2": 5, "3": 1}, "total": 15}, "The points add up to 16, not to the total 15"),
        ({"points": {"1": -1, "2": 5, "3": 1}}, "the points of 1 must be a whole number 0 or more, got -1"),
        ({"points": {"1": 1.5, "2": 5, "3": 1}}, "the points of 1 must be a whole number 0 or more, got 1.5"),
        ({"points": {"1": "7", "2": 5, "3": 1}}, "the points of 1 must be a whole number 0 or more, got '7'"),
        ({"points": {"1": 10, "2": 5}}, "points are given for each of 1, 2, 3"),
        ({"points": {"1": 10, "2": 5, "3": 1, "4": 0}}, "points are given for each of 1, 2, 3"),
        ({"points": {"A": 10, "B": 5}}, "points are given for each of 1, 2, 3"),
        ({"points": {"1": 10, "2": 5, "3": 1}, "total": "16"}, "The total of a deal is a whole number"),
        ({"points": [10, 5, 1]}, "given by seat, or by pair"),
        ({"points": {"1": 10, "2": 5, "3": 1}, "lead": 1}, "Unknown field: lead"),
        ([10, 5, 1], "must be an object"),
    ]:
        with pytest.raises(ValidationError, match=message):
            commands.record_points_deal(org, pk, deal)
    p = Partition.objects.get(pk=pk)
    assert (p.version, p.state, p.status) == (0, None, "scheduled")
    assert not PartitionChange.objects.filter(partition=p).exists()
    with pytest.raises(PermissionDenied):
        commands.record_points_deal(user("nobody"), pk, {"points": {"1": 1, "2": 1, "3": 1}})
    # The sports sheet's operations and Goat's are not a points table's.
    with pytest.raises(ValidationError, match="This table plays a points game"):
        commands.record(org, pk, "lead", {"seat": 1})
    with pytest.raises(ValidationError, match="does not play Goat"):
        commands.record_goat_deal(org, pk, {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 3}})
    sports = tournament(org, pairs=2, slug="sports")
    sports_tour = tours.generate_tour(org, sports)
    tours.publish_tour(org, sports_tour)
    with pytest.raises(ValidationError, match="does not play a points game"):
        commands.record_points_deal(org, sports_tour.tables.get().partition.pk, {"points": {"A": 1, "B": 1}})
    assert Partition.objects.get(pk=pk).version == 0


def test_the_protocol_file_round_trips_through_score_protocol():
    org, t, tour = points_event(3, {"players": 3, "target": 100, "games_per_tour": 2})
    table = tour.tables.get()
    # Game 1: 60 40 0, then 100 70 5: seat 1. Game 2: 20 110 30: seat 2.
    p = record(org, table.partition, {"1": 60, "2": 40, "3": 0}, {"1": 40, "2": 30, "3": 5},
               {"1": 20, "2": 110, "3": 30})
    assert p.is_finished
    document = queries.export_protocol(p)
    assert document["format"] == formats.SITTING_FORMAT and len(document["games"]) == 2
    first = document["games"][0]
    assert first["deals"] == [{"points": {"1": 60, "2": 40, "3": 0}}, {"points": {"1": 40, "2": 30, "3": 5}}]
    assert first["pairs"] == {str(seat): [str(player)] for seat, player in enumerate(table.players, 1)}
    won, scores = {s: 0 for s in (1, 2, 3)}, {s: 0 for s in (1, 2, 3)}
    for game in document["games"]:
        out = engine.score_protocol(json.loads(json.dumps(game)))  # as a file carries it
        assert out["reason"] == "target"
        for seat in won:
            won[seat] += out["winner"] == str(seat)
            scores[seat] += out["scores"][str(seat)]
    assert (won, scores) == ({1: 1, 2: 1, 3: 0}, {1: 120, 2: 180, 3: 35})
    assert won == {s: r[1] for s, r in results(p).items()} and scores == {s: r[2] for s, r in results(p).items()}
    # An earlier version: after the first deal, game 1 still going on.
    (game,) = queries.export_protocol(p, 1)["games"]
    out = engine.score_protocol(game)
    assert (out["reason"], out["scores"]) == (None, {"1": 60, "2": 40, "3": 0})


def test_a_points_table_is_never_played_live():
    org, t, tour = points_event(3, {"players": 3})
    table = tour.tables.get()
    message = "A points game is recorded on the score sheet only"
    for mode in (PlayMode.DIGITAL, PlayMode.REFEREED, PlayMode.CLOCK):
        with pytest.raises(ValidationError, match=message):
            play.set_play_mode(org, table, mode)
        with pytest.raises(ValidationError, match=message):
            play.set_tour_play_mode(org, tour, mode)
        with pytest.raises(ValidationError, match=message):
            play.set_tour_play_mode(org, tour, PlayMode.SHEET, {table.number: mode})
    play.set_play_mode(org, table, "")
    play.set_tour_play_mode(org, tour, PlayMode.SHEET, {table.number: PlayMode.SHEET})
    assert Table.objects.get(pk=table.pk).mode == PlayMode.SHEET
    assert Tour.objects.get(pk=tour.pk).play_mode == PlayMode.SHEET


def test_a_points_tournament_stored_with_sports_standings_gets_the_points_ones():
    migration = importlib.import_module("tournaments.migrations.0007_points_standings")
    org = user("org", superuser=True)
    stored = {**Regulations(game="points").to_dict(), "standings": ["wins", "points_difference"]}
    old = Tournament.objects.create(name="Старый", slug="old", starts_on="2026-01-01", ends_on="2026-01-01",
                                    regulations=stored, created_by=org)
    chosen = tournament(org, slug="chosen", regulations={"game": "points", "standings": ["points_scored"]})
    sports = tournament(org, slug="sports")
    before = {t.pk: t.regulations for t in (chosen, sports)}
    migration.points_standings(django_apps, None)
    assert Tournament.objects.get(pk=old.pk).rules.standings == ("games_won", "points_scored")
    assert {t.pk: t.regulations for t in Tournament.objects.filter(pk__in=before)} == before


def test_the_api_says_plainly_that_it_does_not_serve_a_points_table(client):
    org, t, tour = points_event(3, {"players": 3, "target": 100})
    partition = tour.tables.get().partition
    client.force_login(org)
    for response in (client.get(f"/api/partitions/{partition.pk}/", HTTP_ACCEPT_LANGUAGE="en"),
                     client.post(f"/api/partitions/{partition.pk}/record/", {"action": "points_deal", "data": {}},
                                 content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")):
        assert response.status_code == 400
        assert response.json()["detail"] == ("The API does not serve a table of a points game yet: it is recorded "
                                             "on its score sheet.")
    assert Partition.objects.get(pk=partition.pk).version == 0
