"""Sea Goat (RULES 9.2): two doubles in one move, the opening at 25, the reset of the other side,
eggs, finishing with 0-0, the target 125. Every expected number was worked out by hand."""

import pytest

from engine_goat_handbuilt import FOUR_HANDS, SEA_GOAT_ALLOWANCES, SEA_GOAT_MOVES, VALUES
from scoring.engine import GoatDeal, GoatGame, Regulations, RulesError


def regs(**settings):
    return Regulations.from_dict({"game": "sea_goat", **settings})


def test_the_defaults_of_sea_goat():
    r = regs()
    assert (r.players, r.teams, r.opening, r.target, r.reset_others) == (4, True, 25, 125, True)
    assert Regulations.from_dict({"game": "sea_goat", "target": 200}).target == 200
    assert Regulations.from_dict(r.to_dict()) == r


def test_two_doubles_in_one_move():
    game = GoatGame(regs())
    deal = game.start_deal(hands=FOUR_HANDS)
    allowances = []
    for k, move in enumerate(SEA_GOAT_MOVES):
        if k == 12:
            moves = {(str(m.tile), m.end, m.second and str(m.second)) for m in deal.legal_moves()}
            assert moves == {("5-1", "left", None), ("5-5", "left", None), ("3-3", "right", None),
                             ("5-5", "left", "3-3")}
        allowances.append(deal.allowance())
        deal.apply(move)
        game.close_if_over()
    assert allowances == SEA_GOAT_ALLOWANCES
    record = game.deals[0]
    assert (record.end, record.seat, record.values) == ("domino", 1, VALUES)
    # Pair A made domino: credited B's 2 + 8 = 10 < 25: lost, the score stays closed.
    assert record.charges == (10, 0) and game.scores == (0, 0) and game.opened == (False, False)
    assert len(deal.line()) == 24


@pytest.mark.parametrize("second,message", [
    ("2-6", "two tiles in one move must be two doubles"),
    ("4-4", "4-4 is not in the hand of seat 1"),
    ("5-5", "two tiles in one move must be two doubles"),
])
def test_a_bad_second_double_is_refused(second, message):
    deal = GoatDeal(FOUR_HANDS, regs())
    for move in SEA_GOAT_MOVES[:12]:
        deal.apply(move)
    with pytest.raises(RulesError, match=message):
        deal.play("5-5", "left", second=second)
    assert deal.to_move == 1 and len(deal.line()) == 12


def test_the_second_double_must_fit_the_other_end():
    deal = GoatDeal(FOUR_HANDS, regs())
    for move in SEA_GOAT_MOVES[:8]:
        deal.apply(move)
    # Move 9: ends 5|0, seat 1 holds 5-5 and 3-3: 3-3 does not fit 0.
    with pytest.raises(RulesError, match="the second double 3-3 does not fit the other end 0"):
        deal.play("5-5", "left", second="3-3")


def play(game, deals):
    for deal in deals:
        if deal[0] == "penalty":
            game.write_penalty(deal[1], "conduct")
        elif deal[0] == "timeout":
            game.time_out(deal[1])
        elif deal[0] == "time":
            game.expire_time(deal[1])
        else:
            game.record_deal(*deal)
    return game


def test_pairs_opening_reset_eggs_and_the_target():
    # d1 domino 1: A credited B's 10 + 10 = 20 < 25: lost.
    # d2 domino 2: B credited A's 15 + 15 = 30: opens 30.
    # d3 fish 3: A 5 + 6 = 11, B 20 + 10 = 30: A lowest, credited 30: opens; B back to 0, closed.
    # d4 fish 4: A 20, B 20: eggs, 40 waits.
    # d5 domino 2: B credited 3 + 4 + 40 = 47: opens; A back to 0.
    # d6 domino 4: B credited 40 + 45 = 85: 132 >= 125: B wins.
    game = play(GoatGame(regs(), first_leader=1), [
        ("domino", 1, {2: 10, 3: 5, 4: 10}), ("domino", 2, {1: 15, 3: 15, 4: 3}),
        ("fish", 3, {1: 5, 2: 20, 3: 6, 4: 10}), ("fish", 4, {1: 10, 2: 10, 3: 10, 4: 10}),
        ("domino", 2, {1: 3, 3: 4, 4: 9}), ("domino", 4, {1: 40, 2: 20, 3: 45}),
    ])
    assert [d.charges for d in game.deals] == [(20, 0), (0, 30), (30, 0), (0, 0), (0, 47), (0, 85)]
    assert [d.scores for d in game.deals] == [(0, 0), (0, 30), (30, 0), (30, 0), (0, 47), (0, 132)]
    assert [d.carry for d in game.deals] == [0, 0, 0, 40, 0, 0]
    assert [d.opened for d in game.deals][:3] == [(False, False), (False, True), (True, False)]
    assert game.decision.reason == "target" and game.decision.winner == "B"
    assert game.game_points() == (0, 1)
    assert [d.leader for d in game.deals] == [1, 1, 2, 3, 4, 2]


def test_finishing_with_0_0_wins_at_once():
    # Domino by seat 3 with 0-0: A credited 10 + 6 = 16 < 25 (lost), but A wins the game.
    game = play(GoatGame(regs(), first_leader=3), [("domino", 3, {1: 10, 2: 5, 4: 6}, True)])
    assert game.scores == (0, 0) and game.decision.reason == "zero_zero" and game.decision.winner == "A"
    assert game.game_points() == (1, 0)
    with pytest.raises(RulesError, match="true only for domino"):
        play(GoatGame(regs(), first_leader=3), [("fish", 3, {1: 10, 2: 5, 3: 1, 4: 6}, True)])


@pytest.mark.parametrize("reset,scores", [
    # d1 domino 1: 30, opens. d2 domino 2: 26, opens (reset: seat 1 back to 0). d3 fish 3: seat 3
    # lowest (5), credited 70, opens (reset: seat 2 back to 0). d4 domino 3: 130: wins.
    (False, (30, 26, 130)),
    (True, (0, 0, 130)),
])
def test_three_players_each_for_himself_with_and_without_the_reset(reset, scores):
    game = play(GoatGame(regs(players=3, teams=False, reset_others=reset), first_leader=1), [
        ("domino", 1, {2: 20, 3: 10}), ("domino", 2, {1: 12, 3: 14}), ("fish", 3, {1: 30, 2: 40, 3: 5}),
        ("domino", 3, {1: 20, 2: 40}),
    ])
    assert game.scores == scores and game.decision.winner == "3" and game.game_points() == (0, 0, 1)


def test_penalties_credit_the_other_side():
    # Before d1 seat 1: seat 2 credited 25 (closed: penalties do not open). d1 domino 1: seat 1
    # credited 30, opens: seat 2 back to 0. After d1 a penalty on seat 2: seat 1 55.
    game = play(GoatGame(regs(players=2, teams=False), first_leader=1), [
        ("penalty", 1), ("domino", 1, {2: 30}), ("penalty", 2),
    ])
    assert [p.scores for p in game.penalties] == [(0, 25), (55, 0)]
    assert game.scores == (55, 0) and game.opened == (True, False)


def test_the_opening_at_25_counts_eggs():
    # d1 fish 1: 12 and 12: eggs, 24 waits. d2 domino 1: seat 1 credited 1 + 24 = 25: opens.
    game = play(GoatGame(regs(players=2, teams=False), first_leader=1), [
        ("fish", 1, {1: 12, 2: 12}), ("domino", 1, {2: 1}),
    ])
    assert game.scores == (25, 0) and game.carry == 0


def test_a_timeout_loses_the_game_and_the_time_limit_counts_it_as_it_stands():
    # d1 domino 1: A credited 20 + 15 = 35, opens. Seat 1 runs out in deal 2: B wins.
    game = play(GoatGame(regs(move_timeout="forfeit"), first_leader=1), [
        ("domino", 1, {2: 20, 3: 3, 4: 15}), ("timeout", 1),
    ])
    assert game.decision.reason == "timeout" and game.decision.winner == "B" and game.game_points() == (0, 1)
    game = play(GoatGame(regs(), first_leader=1), [("domino", 1, {2: 20, 3: 3, 4: 15}), ("time", False)])
    assert game.decision.reason == "time" and game.decision.winner == "A" and game.game_points() == (1, 0)


def test_target_125_exactly_wins():
    # d1 domino 2: B 60. d2 domino 2: B 60 + 65 = 125: the target.
    game = play(GoatGame(regs(), first_leader=2), [
        ("domino", 2, {1: 30, 3: 30, 4: 1}), ("domino", 2, {1: 60, 3: 5, 4: 2}),
    ])
    assert game.scores == (0, 125) and game.decision.reason == "target"


def test_a_penalty_after_the_deciding_deal_decides_again():
    # d1 domino 2: B credited 60 + 70 = 130, the target. A penalty on seat 2 right after credits A
    # 25 (straight to the score, closed or not): 25 : 130, B still wins.
    game = play(GoatGame(regs(), first_leader=2), [("domino", 2, {1: 60, 3: 70, 4: 1})])
    assert game.decision.winner == "B" and game.scores == (0, 130)
    play(game, [("penalty", 2)])
    assert game.scores == (25, 130) and game.decision.winner == "B"


def test_two_sides_level_at_the_target_play_on():
    # 3 players, no reset. d1 domino 1: seat 1 credited 110. d2 domino 2: seat 2 110. A penalty on
    # seat 3 credits both others: 135 : 135 at the target, level: no winner, play on (RULES 5).
    # d3 domino 1: 135 + 7 = 142: seat 1 wins.
    game = play(GoatGame(regs(players=3, teams=False, reset_others=False), first_leader=1), [
        ("domino", 1, {2: 50, 3: 60}), ("domino", 2, {1: 50, 3: 60}), ("penalty", 3),
    ])
    assert game.scores == (135, 135, 0) and game.decision is None
    play(game, [("domino", 1, {2: 3, 3: 4})])
    assert game.scores == (142, 135, 0) and game.decision.winner == "1"
