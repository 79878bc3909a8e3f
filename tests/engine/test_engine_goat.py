"""Goat (RULES 9.1): deals with a bazaar played by hand, and whole games worked out by hand.

Every expected number below was computed on paper from RULES.md 9.1; the comments show the
arithmetic. Summary-form games give each seat's hand value as a referee writes it.
"""

import pytest

from engine_goat_handbuilt import FOUR_HANDS, GOAT_ALLOWANCES, GOAT_MOVES, VALUES
from scoring.engine import Deal, GoatDeal, GoatGame, Regulations, RulesError
from scoring.engine.goat_rules import LEAD_ORDER, first_lead, hand_value, void_hand
from scoring.engine.tiles import TILES, mask_of, parse_tile


def regs(**settings):
    return Regulations.from_dict({"game": "goat", **settings})


def mask(*tiles):
    return mask_of(parse_tile(t) for t in tiles)


# --------------------------------------------------------------------------------------------
# TWO: 2 players, a later deal led by seat 1, the bazaar in no known order (draws name tiles).
#
#  #  seat  ends   playable                           allowance  move
#  1  1     -      lead: any                          20         6-6 -> 6|6
#  2  2     6|6    6-3                                 5         6-3 -> 3|6
#  3  1     3|6    6-5 R                               5         6-5 -> 3|5
#  4  2     3|5    3-3 3-2 L                          20         3-3 left -> 3|5
#  5  1     3|5    5-5 5-4 R                          20         5-4 right -> 3|4
#  6  2     3|4    3-2 L                               5         3-2 -> 2|4
#  7  1     2|4    0-2 L, 4-4 R                       20         4-4 right -> 2|4
#  8  2     2|4    2-2 2-1 L                          20         2-1 left -> 1|4
#  9  1     1|4    0-1 L                               5         0-1 -> 0|4
# 10  2     0|4    0-0 L                               5         0-0 -> 0|4
# 11  1     0|4    0-2 L                               5         0-2 -> 2|4
# 12  2     2|4    2-2 L                               5         2-2 -> 2|4
# 13  1     2|4    none (5-5): draws 1-3, 2-5         20 (must draw)  2-5 left -> 5|4
# 14  2     5|4    none (1-1): draws 0-3, 4-6         20         4-6 right -> 5|6
# 15  1     5|6    5-5 L                               5         5-5 -> 5|6
# 16  2     5|6    none (1-1 0-3): draws 1-6          20         1-6 right -> 5|1
# 17  1     5|1    1-3 R, his last tile                5         DOMINO seat 1
#
# Left: seat 2 1-1 0-3 = 5. Bazaar 14 - 5 drawn = 9; 9 + 2 in hand + 17 on the table = 28.
# --------------------------------------------------------------------------------------------
TWO_HANDS = [["6-6", "6-5", "5-5", "5-4", "4-4", "0-1", "0-2"],
             ["6-3", "3-3", "3-2", "2-2", "2-1", "1-1", "0-0"]]
TWO_MOVES = [
    {"seat": 1, "tile": "6-6"}, {"seat": 2, "tile": "6-3"}, {"seat": 1, "tile": "6-5"},
    {"seat": 2, "tile": "3-3", "end": "left"}, {"seat": 1, "tile": "5-4", "end": "right"},
    {"seat": 2, "tile": "3-2"}, {"seat": 1, "tile": "4-4", "end": "right"},
    {"seat": 2, "tile": "2-1", "end": "left"}, {"seat": 1, "tile": "0-1"}, {"seat": 2, "tile": "0-0"},
    {"seat": 1, "tile": "0-2"}, {"seat": 2, "tile": "2-2"},
    {"seat": 1, "draw": ["1-3", "2-5"], "tile": "2-5"}, {"seat": 2, "draw": ["0-3", "4-6"], "tile": "4-6"},
    {"seat": 1, "tile": "5-5"}, {"seat": 2, "draw": ["1-6"], "tile": "1-6", "end": "right"},
    {"seat": 1, "tile": "1-3"},
]
TWO_ALLOWANCES = [20, 5, 5, 20, 20, 5, 20, 20, 5, 5, 5, 5, 20, 20, 5, 20, 5]


def two_player_deal(**settings):
    return GoatDeal(TWO_HANDS, regs(players=2, **settings), leader=1)


def test_two_players_draw_from_the_bazaar_until_a_tile_fits():
    deal = two_player_deal()
    assert len(deal.bazaar) == 14 and deal.to_move == 1
    allowances = []
    for move in TWO_MOVES:
        allowances.append(deal.allowance())
        deal.apply(move)
    assert allowances == TWO_ALLOWANCES
    assert deal.outcome.end == "domino" and deal.outcome.seat == 1
    assert deal.outcome.values == (0, 5)
    assert deal.hand(2) == [TILES[parse_tile("0-3")], TILES[parse_tile("1-1")]]
    assert len(deal.bazaar) == 9
    assert deal.line() == [(5, 5), (5, 2), (2, 2), (2, 0), (0, 0), (0, 1), (1, 2), (2, 3), (3, 3), (3, 6),
                           (6, 6), (6, 5), (5, 4), (4, 4), (4, 6), (6, 1), (1, 3)]


def test_the_bazaar_rules_refuse_a_draw_holding_a_playable_tile_and_a_pass_before_drawing():
    deal = two_player_deal()
    deal.apply(TWO_MOVES[0])
    with pytest.raises(RulesError, match="seat 2 draws holding a playable tile: 6-3"):
        deal.draw("1-3")
    for move in TWO_MOVES[1:12]:
        deal.apply(move)
    assert deal.legal_moves() == [] and deal.can_draw()
    with pytest.raises(RulesError, match="passes while the bazaar may be drawn"):
        deal.pass_turn()
    with pytest.raises(RulesError, match="name the tile drawn"):
        deal.draw()
    with pytest.raises(RulesError, match="5-5 is not in the bazaar"):
        deal.draw("5-5")
    deal.draw("2-5")
    with pytest.raises(RulesError, match="seat 1 draws holding a playable tile: 5-2"):
        deal.draw("1-3")
    assert [(str(m.tile), m.end) for m in deal.legal_moves()] == [("5-2", "left")]


def test_a_draw_list_whose_earlier_tile_fits_is_refused():
    deal = two_player_deal()
    for move in TWO_MOVES[:12]:
        deal.apply(move)
    with pytest.raises(RulesError, match="draw 2: seat 1 draws holding a playable tile: 5-2"):
        deal.apply({"seat": 1, "draw": ["2-5", "1-3"], "tile": "1-3"})


# The same deal with bazaar_keep 13: one tile of 14 may be drawn. Move 13: seat 1 draws 1-3 (no
# fit), the bazaar is down to the 13 that stay: he passes; seat 2 (1-1) passes too. Both passed
# since seat 2 placed 2-2: fish, fisherman seat 2. Values: seat 1 5-5 1-3 = 14, seat 2 1-1 = 2.
def test_a_bazaar_that_keeps_tiles_ends_in_fish_when_everybody_passes():
    deal = two_player_deal(bazaar_keep=13)
    for move in TWO_MOVES[:12]:
        deal.apply(move)
    deal.apply({"seat": 1, "draw": ["1-3"], "pass": True})
    assert not deal.can_draw() and deal.allowance() == 5
    with pytest.raises(RulesError, match="the bazaar is exhausted: 13 tiles left, 13 stay"):
        deal.draw("0-3")
    deal.pass_turn(2)
    assert deal.outcome.end == "fish" and deal.outcome.seat == 2 and deal.outcome.values == (14, 2)


@pytest.mark.parametrize("fish,scores,memo", [
    ("for_all", (14, 0), (0, 5)),  # seat 1 opens with 14 >= 13; seat 2's 2 joins his memorised 3
    ("for_one", (16, 0), (0, 0)),  # seat 1 holds the most: charged 14 + 2 = 16; seat 2's 3 is cleared
])
def test_the_bazaar_fish_charges(fish, scores, memo):
    # Deal 1 (summary): domino by seat 1, seat 2 left with 3: memorised. Deal 2 is led by seat 1.
    game = GoatGame(regs(players=2, bazaar_keep=13, fish=fish), first_leader=1)
    game.record_deal("domino", 1, {2: 3})
    deal = game.begin_deal(GoatDeal(TWO_HANDS, game.regulations, leader=1))
    for move in TWO_MOVES[:12] + [{"seat": 1, "draw": ["1-3"], "pass": True}, {"seat": 2, "pass": True}]:
        deal.apply(move)
        game.close_if_over()
    assert game.scores == scores and game.memo == memo and game.next_leader == 2


def test_the_first_deal_is_led_by_the_holder_of_1_1_with_it_and_that_is_one_move():
    deal = GoatDeal(TWO_HANDS, regs(players=2))
    assert deal.leader == 2 and str(TILES[deal.lead_tile]) == "1-1"
    assert [str(m.tile) for m in deal.legal_moves()] == ["1-1"]
    assert deal.allowance() == 5
    with pytest.raises(RulesError, match="the first deal of a game is led with 1-1"):
        deal.play("0-0", seat=2)
    deal.play("1-1", seat=2)
    assert deal.to_move == 1 and deal.allowance() == 5  # 0-1 only


@pytest.mark.parametrize("in_hands,leader,tile", [
    (["1-1"], 1, "1-1"),  # 1-1 first
    (["2-2", "3-3", "0-0"], 1, "2-2"),  # 1-1 in the bazaar: 2-2
    (["0-0", "6-5"], 1, "0-0"),  # no double but 0-0: 0-0 comes after 6-6
    (["6-5"], 1, "6-5"),  # no double in any hand: the highest tile
])
def test_the_order_of_the_first_lead(in_hands, leader, tile):
    order = [str(TILES[i]) for i in LEAD_ORDER]
    assert order[:7] == ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0"]
    assert order[7:12] == ["6-5", "6-4", "6-3", "5-4", "6-2"]  # 4-6, 3-6, 4-5 (equal totals: higher half)
    hands = [mask(*in_hands), mask("0-1")]
    seat, index = first_lead(hands)
    assert (seat, str(TILES[index])) == (leader, tile)


def test_hand_values_of_the_lone_0_0_and_6_6():
    r = regs()
    assert hand_value(mask("0-0"), r) == 25
    assert hand_value(mask("6-6"), r) == 50
    assert hand_value(mask("0-0", "6-6"), r) == 75
    assert hand_value(mask("0-0", "0-1"), r) == 1  # 0-0 with another tile counts its pips
    assert hand_value(mask("6-6", "0-1"), r) == 13
    assert hand_value(mask("0-0"), regs(zero_alone=10)) == 10  # the online rules
    assert hand_value(mask("0-0", "6-6"), regs(zero_alone=10, six_alone=40)) == 50


def test_void_hands():
    assert void_hand(mask("0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"))  # 5 doubles
    assert void_hand(mask("3-0", "3-1", "3-2", "3-3", "3-4", "3-5", "0-1"))  # six 3s
    assert not void_hand(mask("0-0", "1-1", "2-2", "3-3", "0-1", "0-2", "0-3"))  # 4 doubles, five 0s


def test_a_void_deal_is_recorded_at_once_and_the_next_one_is_led_as_it_would_have_been():
    game = GoatGame(regs(players=3))
    void = [["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"],
            ["0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4"],
            ["1-5", "1-6", "2-3", "2-4", "2-5", "2-6", "3-4"]]
    deal = game.start_deal(hands=void)
    assert deal.is_void and game.current is None
    assert game.deals[0].end == "redeal" and game.scores == (0, 0, 0) and game.next_leader is None
    # The first deal again: led by its own hands.
    # 1-1 to 6-6 lie in the bazaar: the holder of 0-0 leads with it.
    deal = game.start_deal(hands=[void[1], void[2], ["0-0", "0-1", "0-2", "3-5", "3-6", "4-5", "4-6"]])
    assert deal.leader == 3 and str(TILES[deal.lead_tile]) == "0-0" and game.current is deal


def test_four_players_each_for_himself_the_first_deal():
    game = GoatGame(regs())
    deal = game.start_deal(hands=FOUR_HANDS)
    assert deal.leader == 1 and deal.bazaar == []
    allowances = []
    for move in GOAT_MOVES:
        allowances.append(deal.allowance())
        deal.apply(move)
        game.close_if_over()
    assert allowances == GOAT_ALLOWANCES
    record = game.deals[0]
    assert (record.leader, record.end, record.seat, record.values) == (1, "domino", 1, VALUES)
    # Charged 0, 2, 4, 8: all under 13, memorised. Seat 1 leads the next deal, any tile.
    assert record.charges == (0, 2, 4, 8) and game.scores == (0, 0, 0, 0) and game.memo == (0, 2, 4, 8)
    assert game.next_leader == 1
    with pytest.raises(RulesError, match="two tiles in one move are for Sea Goat only"):
        replay = GoatDeal(FOUR_HANDS, regs())
        for move in GOAT_MOVES[:12]:
            replay.apply(move)
        replay.play("5-5", "left", second="3-3")


def test_pairs_the_first_deal():
    # The same deal in pairs: seat 1 made domino, pair A is charged nothing (seat 3's 4 does not
    # count); pair B 2 + 8 = 10, memorised.
    game = GoatGame(regs(teams=True))
    deal = game.start_deal(hands=FOUR_HANDS)
    for move in GOAT_MOVES:
        deal.apply(move)
        game.close_if_over()
    assert game.deals[0].charges == (0, 10) and game.memo == (0, 10) and game.scores == (0, 0)


def test_four_players_move_by_move_agree_with_the_sports_deal():
    """With four players and no bazaar the line, the legal tiles, fish and the allowances are
    those of the sports deal (RULES 9.1: "with four players this is exactly section 4.3")."""
    sports = Deal(FOUR_HANDS, 1)
    goat = GoatDeal(FOUR_HANDS, regs(), leader=1)
    for move in GOAT_MOVES:
        assert goat.legal_masks() == sports.legal_masks()
        assert goat.allowance() == sports.allowance()
        goat.apply(move)
        sports.apply(move)
    assert goat.line() == sports.line() and sports.outcome.end == goat.outcome.end == "domino"


# -- whole games in summary form ---------------------------------------------------------------


def play(game, deals):
    for deal in deals:
        if deal == "redeal":
            game.record_redeal()
        elif deal[0] == "penalty":
            game.write_penalty(deal[1], "signs")
        elif deal[0] == "time":
            game.expire_time(deal[1])
        elif deal[0] == "timeout":
            game.time_out(deal[1])
        else:
            game.record_deal(*deal)
    return game


def test_three_players_for_all_to_the_goat():
    # d1 domino 2: charged 14, 0, 25: seats 1 and 3 open -> 14 0 25.
    # d2 fish 3, values 5 9 30: 19; seat 2 9 < 13 memo 9; 55.
    # d3 domino 1, values 6 20: seat 2 memo 15; seat 3 75.
    # d4 domino 2, values 12 27: seat 2's memo cleared; 31, 0, 102: seat 3 is the goat.
    # Game points: (100-31)/10 = 6.9 -> 7; (100-0)/10 = 10; the goat 0.
    game = play(GoatGame(regs(players=3), first_leader=1), [
        ("domino", 2, {1: 14, 3: 25}), ("fish", 3, {1: 5, 2: 9, 3: 30}), ("domino", 1, {2: 6, 3: 20}),
        ("domino", 2, {1: 12, 3: 27}),
    ])
    assert [d.leader for d in game.deals] == [1, 2, 3, 1]
    assert [d.scores for d in game.deals] == [(14, 0, 25), (19, 0, 55), (19, 0, 75), (31, 0, 102)]
    assert [d.memo for d in game.deals] == [(0, 0, 0), (0, 9, 0), (0, 15, 0), (0, 0, 0)]
    assert game.decision.reason == "lose_at" and game.decision.goats == ("3",)
    assert game.game_points() == (7, 10, 0)
    with pytest.raises(RulesError, match="already decided after deal 4"):
        game.record_deal("domino", 1, {2: 1, 3: 1})


def test_two_players_for_one_with_a_tie_that_carries():
    # d1 fish 20:20, tied: nobody charged, 40 waits. d2 domino 2: seat 1 charged 8 + 40 = 48, opens.
    # d3 fish 10:15: seat 2 charged 25, opens. d4 fish 30:30: 60 waits. d5 fish 12:12: 84 waits.
    # d6 domino 1: seat 2 charged 19 + 84 = 103 -> 128: the goat. Points: (100-48)/10 = 5.2 -> 5.
    game = play(GoatGame(regs(players=2, fish="for_one"), first_leader=2), [
        ("fish", 1, {1: 20, 2: 20}), ("domino", 2, {1: 8}), ("fish", 2, {1: 10, 2: 15}),
        ("fish", 1, {1: 30, 2: 30}), ("fish", 2, {1: 12, 2: 12}), ("domino", 1, {2: 19}),
    ])
    assert [d.carry for d in game.deals] == [40, 0, 0, 60, 84, 0]
    assert [d.charges for d in game.deals] == [(0, 0), (48, 0), (0, 25), (0, 0), (0, 0), (0, 103)]
    assert game.scores == (48, 128) and game.decision.goats == ("2",) and game.game_points() == (5, 0)


def test_four_players_opening_with_memorised_points_and_for_one_clearing_them():
    # d1 domino 3: 5 7 - 12, all memorised. d2 fish 4, values 3 4 10 2: seat 3 alone charged 19,
    # opens; the others' memorised points are cleared. d3 domino 1: seat 2 opens 20, seat 3 20,
    # seat 4 memo 8. d4 domino 2: seat 1 opens 13, seat 3 60, seat 4 memo 14. d5 domino 4: seat 4's
    # memo cleared; 63 23 105: seat 3 the goat. Points: 37/10 -> 4, 77/10 -> 8, 0, 10.
    game = play(GoatGame(regs(fish="for_one"), first_leader=3), [
        ("domino", 3, {1: 5, 2: 7, 4: 12}), ("fish", 4, {1: 3, 2: 4, 3: 10, 4: 2}),
        ("domino", 1, {2: 20, 3: 1, 4: 8}), ("domino", 2, {1: 13, 3: 40, 4: 6}),
        ("domino", 4, {1: 50, 2: 3, 3: 45}),
    ])
    assert [d.memo for d in game.deals] == [(5, 7, 0, 12), (0, 0, 0, 0), (0, 0, 0, 8), (0, 0, 0, 14), (0, 0, 0, 0)]
    assert [d.scores for d in game.deals] == [(0, 0, 0, 0), (0, 0, 19, 0), (0, 20, 20, 0), (13, 20, 60, 0),
                                              (63, 23, 105, 0)]
    assert game.decision.goats == ("3",) and game.game_points() == (4, 8, 0, 10)


def test_pairs_with_the_lone_0_0_and_6_6_for_all():
    # d1 domino 1: B (seats 2, 4) charged 25 + 50 = 75, opens; seat 3's 8 is not charged.
    # d2 fish 2, values 6 4 3 2: A 9 memorised, B 6 -> 81. d3 domino 4: A charged 21, opens 21 + 9.
    # d4 fish 3, values 10 12 1 9: A 11 -> 41, B 21 -> 102: B the goat. Points A 59/10 -> 6.
    game = play(GoatGame(regs(teams=True), first_leader=1), [
        ("domino", 1, {2: 25, 3: 8, 4: 50}), ("fish", 2, {1: 6, 2: 4, 3: 3, 4: 2}),
        ("domino", 4, {1: 10, 2: 7, 3: 11}), ("fish", 3, {1: 10, 2: 12, 3: 1, 4: 9}),
    ])
    assert game.units == ("A", "B")
    assert [d.charges for d in game.deals] == [(0, 75), (9, 6), (21, 0), (11, 21)]
    assert [d.scores for d in game.deals] == [(0, 75), (0, 81), (30, 81), (41, 102)]
    assert game.decision.goats == ("B",) and game.game_points() == (6, 0)


def test_penalties_are_charged_straight_and_count_toward_lose_at():
    # Before d1 seat 2: 25 (closed, no opening). d1 domino 1: seat 2 memo 5. After d1 a penalty:
    # 50. d2 domino 1, 14: opens 50 + 14 + 5 = 69. Two penalties after d2: 94, 119: the goat.
    game = play(GoatGame(regs(players=2), first_leader=1), [
        ("penalty", 2), ("domino", 1, {2: 5}), ("penalty", 2), ("domino", 1, {2: 14}), ("penalty", 2),
    ])
    assert game.scores == (0, 94) and not game.is_over
    play(game, [("penalty", 2)])
    assert game.scores == (0, 119) and game.decision.goats == ("2",)
    assert [p.scores for p in game.penalties] == [(0, 25), (0, 50), (0, 94), (0, 119)]
    assert game.game_points() == (10, 0)


def test_a_lapse_of_the_move_clock_ends_the_game_with_forfeit():
    # d1 domino 1: 0, 20, 32. Seat 3 runs out in deal 2: he gets 0; seat 1 max(1, 32/10 -> 3) = 3;
    # seat 2 max(1, 12/10 -> 1) = 1.
    game = play(GoatGame(regs(players=3, move_timeout="forfeit"), first_leader=1), [
        ("domino", 1, {2: 20, 3: 32}), ("timeout", 3),
    ])
    assert game.decision.reason == "timeout" and game.decision.timed_out == "3"
    assert game.game_points() == (3, 1, 0) and game.timeout == (2, 3)
    with pytest.raises(RulesError, match="only with move_timeout forfeit"):
        play(GoatGame(regs(players=3), first_leader=1), [("timeout", 3)])


def test_the_time_limit_ends_the_game_as_it_stands():
    # d1 domino 2: seat 1 30. Clock out after d1: 70/10 = 7, 10; no goat.
    game = play(GoatGame(regs(players=2), first_leader=1), [("domino", 2, {1: 30}), ("time", False)])
    assert game.decision.reason == "time" and game.decision.goats == () and game.game_points() == (7, 10)
    # During deal 2: it is the last.
    game = play(GoatGame(regs(players=2), first_leader=1), [("domino", 2, {1: 30}), ("time", True)])
    assert not game.is_over
    play(game, [("domino", 2, {1: 4})])
    assert game.decision.reason == "time" and game.scores == (34, 0) and game.game_points() == (7, 10)


def test_a_paper_redeal_scores_nothing_and_keeps_the_lead():
    game = play(GoatGame(regs(players=2), first_leader=2), [
        "redeal", ("domino", 2, {1: 30}), "redeal", ("fish", 1, {1: 3, 2: 4}),
    ])
    assert [d.end for d in game.deals] == ["redeal", "domino", "redeal", "fish"]
    assert [d.leader for d in game.deals] == [2, 2, 2, 2]
    assert game.scores == (33, 0) and game.memo == (0, 4)  # seat 1 is open: his 3 counts at once


def test_a_void_first_deal_leaves_the_lead_to_the_deal_dealt_again():
    # Recorded before anybody led: the deal dealt again is led by its own hands (RULES 9.1).
    game = GoatGame(regs(players=3))
    game.record_redeal()
    assert game.needs_lead and game.deals[0].leader is None
    game.draw_lead(3)
    assert not game.needs_lead
    with pytest.raises(RulesError, match="already known"):
        game.draw_lead(1)
    game.record_deal("domino", 3, {1: 20, 2: 14})
    assert game.deals[1].leader == 3 and game.scores == (20, 14, 0) and not game.needs_lead
    with pytest.raises(RulesError, match="already known"):
        game.draw_lead(1)  # a later deal is led by the last one's domino maker
    # Led, then void: the new hands may give the lead to another seat.
    game = GoatGame(regs(players=3), first_leader=1)
    game.record_redeal()
    game.draw_lead(2)
    game.record_deal("fish", 2, {1: 13, 2: 13, 3: 13})
    assert [d.leader for d in game.deals] == [1, 2] and game.scores == (13, 13, 13)


@pytest.mark.parametrize("deal,message", [
    (("domino", 1, {2: 5, 3: 1}), "values are given by seat \"1\" to \"2\""),
    (("domino", 1, {1: 3, 2: 5}), "seat 1 made domino: his hand is empty"),
    (("fish", 1, {1: 3}), "the hand value of seat 2 is missing"),
    (("fish", 1, {1: 3, 2: -1}), "must be a whole number 0 or more"),
    (("fish", 1, {1: 3, 2: True}), "must be a whole number 0 or more"),
    (("fish", 3, {1: 3, 2: 1}), "seat must be 1 to 2, got 3"),
    (("fish", 1, {1: 200, 2: 100}), "cannot be worth more than 243"),
    (("false_pass", 1, {1: 3, 2: 1}), "a deal ends with \"domino\" or \"fish\""),
])
def test_bad_summary_deals_are_refused_and_change_nothing(deal, message):
    game = GoatGame(regs(players=2), first_leader=1)
    with pytest.raises(RulesError, match=message):
        game.record_deal(*deal)
    assert game.deals == [] and game.scores == (0, 0) and game.events == [{"type": "lead", "seat": 1}]


def test_a_summary_first_deal_needs_its_leader_and_a_played_one_must_agree():
    with pytest.raises(RulesError, match="needs the seat that led it"):
        GoatGame(regs(players=2)).record_deal("domino", 1, {2: 3})
    with pytest.raises(RulesError, match="seat 2 leads the first deal by the hands, not seat 1"):
        GoatGame(regs(players=2), first_leader=1).start_deal(hands=TWO_HANDS)


def test_regulations_of_the_goat():
    r = regs()
    assert (r.players, r.teams, r.fish, r.opening, r.lose_at, r.zero_alone, r.six_alone, r.bazaar_keep,
            r.move_timeout, r.games_per_tour) == (4, False, "for_all", 13, 101, 25, 50, 0, "warning", 1)
    assert Regulations.from_dict(r.to_dict()) == r
    with pytest.raises(RulesError, match="regulations.teams: two pairs need 4 players"):
        regs(players=3, teams=True)
    with pytest.raises(RulesError, match="regulations.players: must be from 2 to 4"):
        regs(players=5)
    with pytest.raises(RulesError, match="regulations.teams: must be true or false"):
        regs(teams="yes")
    with pytest.raises(RulesError, match="regulations.fish: must be one of for_all, for_one"):
        regs(fish="for_two")
    with pytest.raises(RulesError, match="regulations.game: must be one of"):
        Regulations.from_dict({"game": "chess"})
    assert r.at_table(3).players == 3
