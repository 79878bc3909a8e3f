"""A ``points`` game (RULES 9.3): the referee enters each deal's points; to the target, the
highest or the lowest score wins. Worked out by hand."""

import pytest

from scoring.engine import PointsGame, PointsSitting, Regulations, RulesError, score_protocol


def regs(**settings):
    return Regulations.from_dict({"game": "points", **settings})


def play(game, deals):
    for deal in deals:
        if isinstance(deal, dict):
            game.record_deal(deal)
        elif deal[0] == "penalty":
            game.write_penalty(deal[1], "conduct")
        elif deal[0] == "time":
            game.expire_time(deal[1])
    return game


@pytest.mark.parametrize("settings,deals,scores,winner", [
    # 2 players to 50, highest wins: 30:12, then 45:40, then 60:41.
    ({"players": 2, "target": 50}, [{"1": 30, "2": 12}, {"1": 15, "2": 28}, {"1": 15, "2": 1}], (60, 41), "1"),
    # 3 players to 100: 40 30 20, 80 70 20, 100 110 25: seat 2.
    ({"players": 3, "target": 100}, [{"1": 40, "2": 30, "3": 20}, {"1": 40, "2": 40, "3": 0},
                                     {"1": 20, "2": 40, "3": 5}], (100, 110, 25), "2"),
    # 4 players, lowest wins at 101 (a Goat-like game): 50 20 110 60: seat 2.
    ({"target": 101, "points_win": "lowest"}, [{"1": 50, "2": 20, "3": 110, "4": 60}], (50, 20, 110, 60), "2"),
    # Pairs to 200: A 120 B 90, then A 200 B 180.
    ({"teams": True}, [{"A": 120, "B": 90}, {"A": 80, "B": 90}], (200, 180), "A"),
    # Level at the target: play on (no draws): 60:60, then 70:65.
    ({"players": 2, "target": 50}, [{"1": 60, "2": 60}, {"1": 10, "2": 5}], (70, 65), "1"),
    # Lowest wins, two at the target and the lowest shared: play on; then seat 3 alone lowest.
    ({"players": 3, "target": 50, "points_win": "lowest"}, [{"1": 10, "2": 60, "3": 10}, {"1": 5, "2": 0, "3": 1}],
     (15, 60, 11), "3"),
])
def test_games_to_the_target(settings, deals, scores, winner):
    game = play(PointsGame(regs(**settings)), deals)
    assert game.scores == scores and game.decision.reason == "target" and game.decision.winner == winner
    assert game.game_points() == tuple(1 if u == winner else 0 for u in game.units)
    assert [d.scores for d in game.deals][-1] == scores


def test_a_game_still_going_on():
    game = play(PointsGame(regs(players=2, target=50)), [{"1": 10, "2": 20}])
    assert not game.is_over and game.game_points() is None and game.result().winners == ()


def test_penalties_charge_or_credit_as_the_order_says():
    # Highest wins: a penalty on seat 1 credits 25 to seats 2 and 3.
    game = play(PointsGame(regs(players=3)), [{"1": 10, "2": 0, "3": 5}, ("penalty", 1)])
    assert game.scores == (10, 25, 30)
    # Lowest wins: it is charged to seat 1.
    game = play(PointsGame(regs(players=3, points_win="lowest")), [{"1": 10, "2": 0, "3": 5}, ("penalty", 1)])
    assert game.scores == (35, 0, 5) and game.penalties[0].unit == "1"


def test_the_time_limit():
    # 2 players: 30:20, the clock runs out during deal 2: 35:40 after it, seat 2 wins.
    game = play(PointsGame(regs(players=2)), [{"1": 30, "2": 20}, ("time", True), {"1": 5, "2": 20}])
    assert game.decision.reason == "time" and game.decision.winner == "2"
    # Level when the clock runs out between deals: no winner.
    game = play(PointsGame(regs(players=2)), [{"1": 30, "2": 30}, ("time", False)])
    assert game.decision.reason == "time" and game.decision.winner is None and game.game_points() == (0, 0)


@pytest.mark.parametrize("points,message", [
    ({"1": 10}, "points are given for each of 1, 2"),
    ({"1": 10, "2": 5, "3": 1}, "points are given for each of 1, 2"),
    ({"1": -1, "2": 5}, "the points of 1 must be a whole number 0 or more"),
    ({"1": 1.5, "2": 5}, "the points of 1 must be a whole number 0 or more"),
])
def test_bad_points_are_refused_and_change_nothing(points, message):
    game = PointsGame(regs(players=2))
    with pytest.raises(RulesError, match=message):
        game.record_deal(points)
    assert game.scores == (0, 0) and game.events == []


def test_a_points_protocol():
    # 30:12; a penalty on seat 2 after deal 1 credits seat 1: 55:12, at the target: seat 1 wins.
    out = score_protocol({"format": "domino-protocol/1", "regulations": {"game": "points", "players": 2, "target": 50},
                          "deals": [{"points": {"1": 30, "2": 12}}],
                          "penalties": [{"after_deal": 1, "seat": 2, "code": "signs"}]})
    assert out == {
        "units": ["1", "2"],
        "deals": [{"n": 1, "points": {"1": 30, "2": 12}, "scores": {"1": 30, "2": 12}}],
        "penalties": [{"after_deal": 1, "seat": 2, "code": "signs", "unit": "2", "points": 25,
                       "scores": {"1": 55, "2": 12}}],
        "scores": {"1": 55, "2": 12}, "winner": "1", "reason": "target", "game_points": {"1": 1, "2": 0},
    }


def test_a_deal_after_the_end_is_refused():
    with pytest.raises(RulesError, match="deal 2: the game was already decided after deal 1"):
        score_protocol({"format": "domino-protocol/1",
                        "regulations": {"game": "points", "players": 2, "target": 50},
                        "deals": [{"points": {"1": 30, "2": 12}}, {"points": {"1": 25, "2": 0}}],
                        "penalties": [{"after_deal": 1, "seat": 2, "code": "signs"}]})
    with pytest.raises(RulesError, match="unknown key 'first_leader' for the game points"):
        score_protocol({"format": "domino-protocol/1", "regulations": {"game": "points"}, "first_leader": 1,
                        "deals": []})


def test_a_sitting_of_points_games_and_its_totals():
    # Two games of 3 players to 50, lowest wins: game 1 ends at 60 (10, 60, 20): seat 1 wins;
    # game 2 at 55 (55, 5, 30) then: seat 2 wins.
    sitting = PointsSitting(regs(players=3, target=50, points_win="lowest", games_per_tour=2))
    sitting.record_deal({"1": 10, "2": 60, "3": 20})
    assert len(sitting.games) == 2 and not sitting.is_over
    sitting.record_deal({"1": 40, "2": 5, "3": 30})
    sitting.record_deal({"1": 15, "2": 0, "3": 0})
    assert sitting.is_over and sitting.deals == 3
    totals = sitting.totals()
    assert totals.units == ("1", "2", "3")
    assert (totals.games_won, totals.game_points, totals.scores, totals.goats) == (
        (1, 1, 0), (1, 1, 0), (10 + 55, 60 + 5, 20 + 30), (0, 0, 0))
    with pytest.raises(RulesError, match="all 2 games of the sitting are played"):
        sitting.record_deal({"1": 0, "2": 0, "3": 0})
    again = PointsSitting.from_dict(sitting.to_dict())
    assert again.to_dict() == sitting.to_dict() and again.totals() == totals


def test_a_sitting_plays_points_only():
    with pytest.raises(RulesError, match="the regulations' game is goat, not points"):
        PointsSitting(Regulations(game="goat"))


def test_a_penalty_in_a_points_sitting_may_end_its_game():
    # Two games of 2 players to 50, highest wins, penalty 10: 40:45, then seat 2's penalty is
    # credited to seat 1: 50:45, seat 1 alone at the target wins game 1, and game 2 begins.
    sitting = PointsSitting(regs(players=2, target=50, games_per_tour=2, penalty_points=10))
    sitting.record_deal({"1": 40, "2": 45})
    penalty = sitting.write_penalty(2, "conduct")
    assert (penalty.unit, penalty.points, penalty.scores) == ("2", 10, (50, 45))
    assert len(sitting.games) == 2 and sitting.games[0].decision.winner == "1"
    # In game 2 (lowest would charge, highest credits): seat 1's penalty gives seat 2 10.
    sitting.write_penalty(1, "signs")
    assert sitting.game.scores == (0, 10) and not sitting.is_over
    assert sitting.totals().games_won == (1, 0)
