"""Outcome: the one result every kind of table gives (a sports partition, a game of Goat, Sea Goat
or points, a sitting), with each unit's rank as the standings rank them. Every expected number
was worked out by hand."""

import pytest

from scoring.engine import (GoatGame, GoatSitting, Outcome, Partition, PointsGame, PointsSitting, Regulations,
                            TableGame, new_table_game)


def test_nothing_while_the_table_plays():
    assert Partition(first_leader=1).outcome() is None
    assert GoatGame(Regulations(game="goat", players=3)).outcome() is None
    assert PointsSitting(Regulations(game="points", players=2)).outcome() is None


def test_a_partition_won_on_target():
    # The pair that makes domino scores the pips left to the other: B 90, A 117, B 100 (190,
    # not yet 200), B 15: 205, B wins on target.
    p = Partition(Regulations(target=200), first_leader=1)
    p.record_deal("domino", 2, (90, 0))
    p.record_deal("domino", 3, (0, 117))
    p.record_deal("domino", 4, (100, 0))
    assert p.outcome() is None
    p.record_deal("domino", 2, (15, 0))
    assert p.totals == (117, 205)
    assert p.outcome() == Outcome(("A", "B"), (2, 1), "target", (117, 205), ())


def test_a_no_show_of_one_pair_ranks_it_last():
    p = Partition(Regulations(no_show_points=100), first_leader=1)
    p.record_no_show("A")
    assert p.outcome() == Outcome(("A", "B"), (2, 1), "no_show", (0, 100), ("A",))


def test_a_no_show_of_both_pairs_is_not_ranked():
    p = Partition(first_leader=1)
    p.record_no_show("both")
    outcome = p.outcome()
    assert outcome == Outcome(("A", "B"), None, "no_show", (0, 0), ("A", "B"))


def test_a_goat_game_with_goats():
    # Three players, lose_at 101, no opening. Deal 1: domino by 1, seat 2 charged 60, seat 3 30.
    # Deal 2: domino by 1 again, seat 2 charged 50 (110: the goat), seat 3 20 (50).
    # Game points (100 - score) / 10: seat 1 10, seat 2 a goat 0, seat 3 5: ranks 1, 3, 2.
    game = GoatGame(Regulations(game="goat", players=3, lose_at=101, opening=0), first_leader=1)
    game.record_deal("domino", 1, {2: 60, 3: 30})
    game.record_deal("domino", 1, {2: 50, 3: 20})
    assert game.decision.goats == ("2",)
    assert game.game_points() == (10, 0, 5)
    assert game.outcome() == Outcome(("1", "2", "3"), (1, 3, 2), "lose_at", (0, 110, 50), ())


def test_a_sea_goat_win():
    # Pairs, domino by seat 3 with 0-0: pair A wins at once (RULES 9.2), whatever the scores.
    game = GoatGame(Regulations(game="sea_goat"), first_leader=3)
    game.record_deal("domino", 3, {1: 10, 2: 5, 4: 6}, True)
    outcome = game.outcome()
    assert (outcome.units, outcome.ranks, outcome.reason) == (("A", "B"), (1, 2), "zero_zero")


def test_a_sea_goat_no_show_ranks_the_absent_last():
    game = GoatGame(Regulations(game="sea_goat", players=3, teams=False))
    game.record_no_show(["2"])
    assert game.outcome() == Outcome(("1", "2", "3"), (1, 3, 1), "no_show", (125, 0, 125), ("2",))


def test_a_goat_no_show_of_everyone_is_not_ranked():
    game = GoatGame(Regulations(game="goat", players=2))
    game.record_no_show(["1", "2"])
    assert game.outcome().ranks is None


@pytest.mark.parametrize("points_win, ranks", [("highest", (1, 3, 2)), ("lowest", (3, 1, 2))])
def test_a_points_game(points_win, ranks):
    # Seat 1 reaches 50 with the highest score; with points_win lowest seat 2's 10 wins.
    game = PointsGame(Regulations(game="points", players=3, target=50, points_win=points_win))
    game.record_deal({"1": 50, "2": 10, "3": 20})
    outcome = game.outcome()
    assert outcome == Outcome(("1", "2", "3"), ranks, "target", (50, 10, 20), ())


def test_a_goat_sittings_ranks_follow_its_totals():
    # Two players, lose_at 30, no opening, two games. Game 1: seat 1's domino charges seat 2 his
    # 30: the goat (game points 10 and 0). Game 2: seat 2's domino charges seat 1 30: the goat
    # (0 and 10). Game points 10 each, goats 1 each: the total score decides, 30 each: a tie.
    sitting = GoatSitting(Regulations(game="goat", players=2, lose_at=30, opening=0, games_per_tour=2))
    sitting.draw_lead(1)
    sitting.record_deal("domino", 1, {2: 30})
    sitting.draw_lead(2)
    sitting.record_deal("domino", 2, {1: 30})
    assert sitting.totals().game_points == (10, 10)
    assert sitting.outcome() == Outcome(("1", "2"), (1, 1), "lose_at", (30, 30), ())


def test_a_goat_sitting_ranked_by_the_regulations_standings():
    # Three players, lose_at 30, no opening, two games. Game 1: seat 1's domino charges seat 2 30
    # (the goat) and seat 3 10. Game 2: seat 3's domino charges seat 1 30 (the goat), seat 2 5.
    # Game points: seat 1 10 + 0, seat 2 0 + 10 (9.5 rounded half up), seat 3 9 + 10: seat 3
    # first, seats 1 and 2 tied at 10 game points and one goat each; total score 30 and 35:
    # seat 1 second. By the total score alone the same: 10, 30, 35. By the goats alone seat 3
    # (none) first, seats 1 and 2 (one each) share the second place.
    settings = dict(game="goat", players=3, lose_at=30, opening=0, games_per_tour=2)
    for standings, ranks in [(("game_points", "goats", "total_score"), (2, 3, 1)),
                             (("total_score",), (2, 3, 1)), (("goats",), (2, 2, 1))]:
        sitting = GoatSitting(Regulations(**settings, standings=standings))
        sitting.draw_lead(1)
        sitting.record_deal("domino", 1, {2: 30, 3: 10})
        sitting.draw_lead(3)
        sitting.record_deal("domino", 3, {1: 30, 2: 5})
        totals = sitting.totals()
        assert (totals.game_points, totals.goats, totals.scores) == ((10, 10, 19), (1, 1, 0), (30, 35, 10))
        assert sitting.outcome().ranks == ranks, standings


def test_a_points_sitting():
    # Game 1: seat 1 reaches 50. Game 2: seat 2 reaches 60. Games won 1 each: the points scored
    # decide, 50 + 20 = 70 against 20 + 60 = 80: seat 2 first.
    sitting = PointsSitting(Regulations(game="points", players=2, target=50, games_per_tour=2))
    sitting.record_deal({"1": 50, "2": 20})
    assert sitting.outcome() is None
    sitting.record_deal({"1": 20, "2": 60})
    assert sitting.totals().games_won == (1, 1)
    assert sitting.outcome() == Outcome(("1", "2"), (2, 1), "target", (70, 80), ())


def test_a_goat_sittings_no_show_decides_it_whole():
    # Each of the two games: seat 3 a goat at lose_at (101), the others 0.
    sitting = GoatSitting(Regulations(game="goat", players=3, games_per_tour=2))
    sitting.record_no_show(["3"])
    assert sitting.outcome() == Outcome(("1", "2", "3"), (1, 1, 3), "no_show", (0, 0, 202), ("3",))


@pytest.mark.parametrize("settings, kind", [({}, Partition), ({"game": "goat", "players": 3}, GoatSitting),
                                            ({"game": "points", "players": 2}, PointsSitting)])
def test_every_tables_game_is_a_table_game(settings, kind):
    game = new_table_game(Regulations(**settings))
    assert type(game) is kind
    assert (game.event_count, game.is_over, game.outcome()) == (0, False, None)
    game.expire_time(False)
    assert game.event_count == 1
