"""One deal (RULES 2, 3, 4, 6): dealing, moves, errors, domino, fish, allowances, marks, storage.

The scenarios are hand-built (engine_handbuilt.py gives each move with its reasoning)."""

import json
import re

import pytest

from engine_handbuilt import (
    BOTH_WAYS_HANDS,
    BOTH_WAYS_MOVES,
    DOMINO_ALLOWANCES,
    DOMINO_HANDS,
    DOMINO_LEADER,
    DOMINO_MOVES,
    DOMINO_PIPS,
    FISH_ALLOWANCES,
    FISH_HANDS,
    FISH_LEADER,
    FISH_LINE,
    FISH_MOVES,
    FISH_PIPS,
    LAST_TILE_FISHES_MOVES,
    PASS,
    SUITS_HANDS,
    play_moves,
)
from engine_oracle import RefDeal, norm
from scoring.engine import IllegalMove, RulesError, TILES, Tile
from scoring.engine.deal import Deal, Move, deal_hands, pair_of
from scoring.engine.tiles import tiles_of

CUSTOM = (7, 25, 90, 3)  # single, several, fish, pass: all different, so a swap shows


def fish_deal(upto=None, times=None):
    deal = Deal(FISH_HANDS, FISH_LEADER, *([times] if times else []))
    play_moves(deal, FISH_MOVES[:upto])
    return deal


def domino_deal(upto=None, times=None):
    deal = Deal(DOMINO_HANDS, DOMINO_LEADER, *([times] if times else []))
    play_moves(deal, DOMINO_MOVES[:upto])
    return deal


def tileset(tiles):
    return {norm(t) for t in tiles}


def snapshot(deal):
    return (deal.to_move, deal.ends, [tileset(deal.hand(s)) for s in (1, 2, 3, 4)], deal.line(),
            deal.history(), deal.is_over, json.dumps(deal.to_dict(), sort_keys=True))


# -- seats and dealing ------------------------------------------------------------------------

def test_pairs_sit_opposite():
    assert [pair_of(s) for s in (1, 2, 3, 4)] == ["A", "B", "A", "B"]


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31 - 1, 2**128 - 1, "tour-3/table-5/deal-2"])
def test_dealing_gives_seven_distinct_tiles_to_each_seat_covering_all_28(seed):
    hands = deal_hands(seed)
    assert len(hands) == 4
    tiles = [tiles_of(h) for h in hands]
    assert [len(t) for t in tiles] == [7, 7, 7, 7]
    everything = [t for hand in tiles for t in hand]
    assert len(set(everything)) == 28
    assert sum(t.pips for t in everything) == 168


@pytest.mark.parametrize("seed", ["", 1.5, True, None, b"x"])
def test_a_seed_is_a_whole_number_or_a_text(seed):
    with pytest.raises(IllegalMove, match="seed is a whole number or a text"):
        deal_hands(seed)


@pytest.mark.parametrize("seed", [0, 41, "Кубок-2026"])
def test_the_seed_is_read_as_documented(seed):
    """The documented recipe, written out independently: SHA-256 of the seed's text, mixed
    radix, Fisher-Yates from position 27 down, 7 tiles a seat in tile order 0-0 .. 6-6."""
    import hashlib
    x = int.from_bytes(hashlib.sha256(str(seed).encode("utf-8")).digest(), "big")
    order = list(range(28))
    for i in range(27, 0, -1):
        j = x % (i + 1)
        x //= i + 1
        order[i], order[j] = order[j], order[i]
    names = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
    expected = [sorted(names[t] for t in order[k * 7:(k + 1) * 7]) for k in range(4)]
    got = [sorted(f"{t.low}-{t.high}" for t in tiles_of(h)) for h in deal_hands(seed)]
    assert got == expected


def test_dealing_from_a_seed_is_deterministic_and_stored():
    assert deal_hands(12345) == deal_hands(12345)
    assert deal_hands("abc") == deal_hands("abc")
    assert deal_hands(12345) != deal_hands(12346)
    a = Deal.from_seed(12345, leader=3)
    b = Deal.from_seed(12345, leader=3)
    assert [a.hand(s) for s in (1, 2, 3, 4)] == [b.hand(s) for s in (1, 2, 3, 4)]
    assert a.seed == 12345
    assert a.to_dict()["seed"] == 12345
    assert a.to_move == 3 and a.leader == 3
    assert [a.hand(s) for s in (1, 2, 3, 4)] == [tiles_of(h) for h in deal_hands(12345)]


def test_different_seeds_deal_differently():
    deals = {deal_hands(seed) for seed in range(50)}
    assert len(deals) == 50


# -- hands validation -------------------------------------------------------------------------

def raises_illegal(match, fn, *args, **kwargs):
    with pytest.raises(IllegalMove) as info:
        fn(*args, **kwargs)
    assert re.search(match, str(info.value)), str(info.value)
    return info.value


def test_a_hand_of_six_tiles_is_refused():
    hands = [FISH_HANDS[0][:6]] + FISH_HANDS[1:]
    raises_illegal(r"hand of seat 1: must hold 7 tiles, holds 6", Deal, hands, 1)


def test_a_hand_of_eight_tiles_is_refused():
    hands = [FISH_HANDS[0], FISH_HANDS[1] + ["6-6"], FISH_HANDS[2], FISH_HANDS[3][:6]]
    raises_illegal(r"hand of seat 2", Deal, hands, 1)


def test_a_tile_written_twice_in_one_hand_is_refused():
    hands = [FISH_HANDS[0][:6] + ["0-0"]] + FISH_HANDS[1:]
    raises_illegal(r"hand of seat 1: 0-0 .*twice", Deal, hands, 1)


def test_a_tile_dealt_to_two_seats_is_refused():
    hands = [FISH_HANDS[0], FISH_HANDS[1], FISH_HANDS[2][:6] + ["6-6"], FISH_HANDS[3]]
    error = raises_illegal(r"6-6 is dealt twice", Deal, hands, 1)
    assert "seat 4" in str(error)  # the second holder of 6-6 is where it is found twice


def test_a_tile_written_in_reverse_is_the_same_tile():
    hands = [list(FISH_HANDS[0]), FISH_HANDS[1], FISH_HANDS[2], FISH_HANDS[3]]
    assert hands[0][1] == "3-4"
    hands[0][1] = "4-3"  # written the other way round
    deal = Deal(hands, 1)
    assert Tile(3, 4) in deal.hand(1)


def test_a_word_that_is_not_a_tile_is_refused_naming_the_hand():
    hands = [FISH_HANDS[0][:6] + ["7-7"]] + FISH_HANDS[1:]
    raises_illegal(r"hand of seat 1.*7-7", Deal, hands, 1)


def test_three_hands_or_a_bad_leader_are_refused():
    raises_illegal(r"four hands", Deal, FISH_HANDS[:3], 1)
    raises_illegal(r"leader", Deal, FISH_HANDS, 0)
    raises_illegal(r"leader", Deal, FISH_HANDS, 5)


def test_hands_can_be_given_as_masks_tiles_or_indices():
    as_tiles = [[Tile.parse(t) for t in hand] for hand in FISH_HANDS]
    as_masks = [sum(t.bit for t in hand) for hand in as_tiles]
    as_indices = [[t.index for t in hand] for hand in as_tiles]
    for hands in (as_tiles, as_masks, as_indices):
        deal = Deal(hands, 1)
        assert [tileset(deal.hand(s)) for s in (1, 2, 3, 4)] == [tileset(h) for h in FISH_HANDS]


# -- the lead ---------------------------------------------------------------------------------

@pytest.mark.parametrize("tile", FISH_HANDS[0])
def test_the_lead_may_be_any_tile_of_the_leaders_hand(tile):
    deal = Deal(FISH_HANDS, 1)
    moves = deal.legal_moves()
    assert tileset(m.tile for m in moves) == tileset(FISH_HANDS[0])
    assert all(m.end is None and m.seat == 1 for m in moves)
    deal.play(tile)
    assert set(deal.ends) == set(norm(tile))
    assert deal.to_move == 2
    assert deal.line() == [deal.ends]


def test_the_lead_written_a_b_lies_with_a_on_the_left():
    deal = Deal(FISH_HANDS, 1)
    deal.play("4-3")
    assert deal.ends == (4, 3) and deal.line() == [(4, 3)]
    deal = Deal(FISH_HANDS, 1)
    deal.play("3-4")
    assert deal.ends == (3, 4)


def test_the_leader_is_the_first_to_move_and_turns_go_in_seat_order():
    deal = Deal(SUITS_HANDS, 3)
    assert deal.to_move == 3
    deal.play("4-3")  # 4|3
    assert deal.to_move == 4
    deal.play("3-0", "right")
    assert deal.to_move == 1
    deal.play("6-4", "left")
    assert deal.to_move == 2


# -- a move must match an open end ------------------------------------------------------------

def test_a_tile_that_fits_no_end_is_refused_with_the_ends():
    deal = fish_deal(upto=2)  # ends 1|0, seat 3 holds 2-4
    assert deal.ends == (1, 0) and deal.to_move == 3
    error = raises_illegal(r"^4-2 does not fit ends 1\|0$", deal.play, "2-4")
    assert isinstance(error, RulesError) and isinstance(error, ValueError)


def test_the_example_message_of_the_format():
    # PROTOCOL_FORMAT.md: "4-2 does not fit ends 5|1"
    deal = Deal(SUITS_HANDS, 2)
    deal.play("5-1")  # seat 2 leads: 5|1; seat 3 (holds 4-2) to move
    assert deal.ends == (5, 1)
    raises_illegal(r"^4-2 does not fit ends 5\|1$", deal.play, "4-2")


def test_a_tile_given_a_wrong_end_is_refused():
    deal = fish_deal(upto=3)  # ends 1|3, seat 4 holds 1-2 (left only) and 3-6 (right only)
    raises_illegal(r"1-2|2-1", deal.play, "1-2", "right")
    raises_illegal(r"6-3", deal.play, "3-6", "left")
    deal.play("3-6", "right")
    assert deal.ends == (1, 6)


def test_a_tile_that_fits_one_end_needs_no_end():
    deal = fish_deal(upto=3)
    deal.play("1-2")
    assert deal.ends == (2, 3)


def test_a_tile_that_fits_both_ends_needs_an_end():
    deal = Deal(BOTH_WAYS_HANDS, 1)
    play_moves(deal, BOTH_WAYS_MOVES)
    assert deal.ends == (2, 5) and deal.to_move == 3
    raises_illegal(r"5-2 fits both ends 2\|5", deal.play, "2-5")
    before = snapshot(deal)
    raises_illegal(r"end must be", deal.play, "2-5", "middle")
    assert snapshot(deal) == before
    deal.play("2-5", "left")
    assert deal.ends == (5, 5)


def test_same_tile_on_either_end_of_different_numbers_gives_different_lines():
    a = Deal(BOTH_WAYS_HANDS, 1)
    play_moves(a, BOTH_WAYS_MOVES + [("2-5", "right")])
    assert a.ends == (2, 2)
    assert a.line() == [(2, 3), (3, 5), (5, 2)]


# -- error messages and an unchanged state ----------------------------------------------------

def test_out_of_turn():
    deal = Deal(FISH_HANDS, 1)
    raises_illegal(r"seat 2 moves out of turn: seat 1 is to move", deal.play, "0-1", None, 2)
    raises_illegal(r"seat 3 moves out of turn", deal.pass_turn, 3)
    deal.play("0-0", seat=1)
    deal.play("0-1", seat=2)
    assert deal.to_move == 3


def test_a_tile_not_in_the_hand():
    deal = Deal(FISH_HANDS, 1)
    raises_illegal(r"^1-0 is not in the hand of seat 1$", deal.play, "0-1")
    deal.play("0-0")
    raises_illegal(r"^4-4 is not in the hand of seat 2$", deal.play, "4-4")


def test_passing_while_holding_a_playable_tile_names_the_tiles():
    deal = fish_deal(upto=1)  # 0|0; seat 2 holds 0-1 0-2 0-6
    error = raises_illegal(r"seat 2 passes holding a playable tile", deal.pass_turn)
    for tile in ("1-0", "2-0", "6-0"):
        assert tile in str(error)
    assert "3-1" not in str(error)


def test_the_lead_cannot_be_passed():
    deal = Deal(FISH_HANDS, 1)
    raises_illegal(r"passes holding a playable tile", deal.pass_turn)


def test_pass_with_no_playable_tile_moves_the_turn_on():
    deal = domino_deal(upto=1)  # 6|6, seat 3 holds no 6
    assert deal.legal_moves() == []
    deal.pass_turn(3)
    assert deal.to_move == 4
    assert deal.history()[-1] == Move(3, None)
    assert deal.history()[-1].is_pass


@pytest.mark.parametrize("attempt", [
    lambda d: d.play("0-5", None, 3),
    lambda d: d.play("6-6"),
    lambda d: d.play("1-3"),
    lambda d: d.play("1-3", "left"),
    lambda d: d.pass_turn(),
    lambda d: d.play("3-3"),
])
def test_a_refused_move_leaves_the_deal_unchanged(attempt):
    deal = fish_deal(upto=3)
    before = snapshot(deal)
    with pytest.raises(IllegalMove):
        attempt(deal)
    assert snapshot(deal) == before


def test_no_move_after_the_deal_is_over():
    deal = fish_deal()
    assert deal.is_over
    raises_illegal(r"the deal is over \(fish\)", deal.play, "1-3")
    raises_illegal(r"the deal is over", deal.pass_turn)
    raises_illegal(r"the deal is over", deal.end_false_pass, 1)
    raises_illegal(r"the deal is over", deal.mark, 1, "1-1", "touched")
    deal = domino_deal()
    raises_illegal(r"the deal is over \(domino\)", deal.play, "0-0")


# -- equal ends: one move ---------------------------------------------------------------------

def test_on_equal_ends_a_tile_is_one_move():
    deal = fish_deal(upto=1)  # 0|0, seat 2 holds 0-1 0-2 0-6
    moves = deal.legal_moves()
    assert sorted((norm(m.tile), m.end) for m in moves) == [((0, 1), "left"), ((0, 2), "left"), ((0, 6), "left")]
    assert deal.allowance() == 20


def test_on_equal_ends_a_single_tile_is_a_single_move():
    deal = fish_deal(upto=7)  # 0|0, seat 4 has only 0-5
    assert deal.ends == (0, 0)
    assert [(norm(m.tile), m.end) for m in deal.legal_moves()] == [((0, 5), "left")]
    ml, mr = deal.legal_masks()
    assert (ml | mr).bit_count() == 1 and mr == 0
    assert deal.allowance() == 5


def test_on_equal_ends_either_end_may_be_named_and_gives_the_same_line():
    left = fish_deal(upto=7)
    left.play("0-5", "left")
    right = fish_deal(upto=7)
    right.play("0-5", "right")
    assert sorted({left.ends, right.ends}) == [(0, 5), (5, 0)]
    assert {frozenset(left.ends), frozenset(right.ends)} == {frozenset({0, 5})}


def test_on_different_ends_one_tile_that_fits_both_is_two_moves():
    deal = Deal(BOTH_WAYS_HANDS, 1)
    play_moves(deal, BOTH_WAYS_MOVES)
    assert sorted(m.end for m in deal.legal_moves()) == ["left", "right"]
    assert deal.allowance() == 20
    assert not deal.can_fish()


# -- the allowance table (RULES 6) ------------------------------------------------------------

def test_allowances_of_the_fish_deal():
    deal = Deal(FISH_HANDS, FISH_LEADER)
    assert play_moves(deal, FISH_MOVES) == FISH_ALLOWANCES


def test_allowances_of_the_domino_deal():
    deal = Deal(DOMINO_HANDS, DOMINO_LEADER)
    assert play_moves(deal, DOMINO_MOVES) == DOMINO_ALLOWANCES


def test_allowances_with_custom_times():
    single, several, fish, pass_ = CUSTOM
    expected = {20: several, 5: single, 60: fish}
    deal = Deal(FISH_HANDS, FISH_LEADER, CUSTOM)
    assert play_moves(deal, FISH_MOVES) == [expected[a] for a in FISH_ALLOWANCES]
    deal = Deal(DOMINO_HANDS, DOMINO_LEADER, CUSTOM)
    got = play_moves(deal, DOMINO_MOVES)
    want = [pass_ if m == PASS else expected[a] for m, a in zip(DOMINO_MOVES, DOMINO_ALLOWANCES)]
    assert got == want
    assert Deal.from_seed(3, 2, CUSTOM).allowance() == several  # the lead


@pytest.mark.parametrize("times", [(5, 20, 60, 5), CUSTOM])
def test_each_row_of_the_table(times):
    single, several, fish, pass_ = times
    assert Deal(FISH_HANDS, 1, times).allowance() == several  # lead
    assert fish_deal(upto=8, times=times).allowance() == single  # 5|0: only 5-6
    assert fish_deal(upto=6, times=times).allowance() == several  # 0|4: three moves
    assert fish_deal(upto=9, times=times).allowance() == fish  # 6|0 with 0-6 and six 0s out
    assert domino_deal(upto=1, times=times).allowance() == pass_  # 6|6, no 6


def test_fish_possible_beats_the_count_of_moves():
    # DOMINO move 19: seat 4's only tile that fits is 2-4 (two moves), and one of them fishes.
    deal = domino_deal(upto=18)
    assert deal.can_fish()
    assert deal.allowance() == 60


def test_can_fish_is_false_when_the_fishing_tile_is_not_in_hand():
    deal = fish_deal(upto=6)  # 0|4: 0-4 in hand but only four 0s and one 4 out
    assert not deal.can_fish()
    deal = Deal(FISH_HANDS, 1)
    assert not deal.can_fish()  # before the lead


def test_a_last_tile_that_would_also_fish_is_domino():
    deal = Deal(DOMINO_HANDS, DOMINO_LEADER)
    play_moves(deal, LAST_TILE_FISHES_MOVES)
    assert deal.to_move == 2 and [str(t) for t in deal.hand(2)] == ["6-0"]
    assert deal.ends == (6, 0)
    deal.play("0-6", "left")
    assert deal.is_over
    assert deal.outcome.end == "domino" and deal.outcome.seat == 2
    # left in hand: seat 1 1-1 (2), seat 3 1-3 (4), seat 4 1-5 3-5 5-5 (24): A 6, B 24
    assert deal.outcome.pips == (6, 24)


def test_a_last_tile_that_would_also_fish_has_no_fish_allowance():
    """RULES 6: 60 s when "some legal move would end the deal with fish". Seat 2's last tile 0-6
    fits both ends 6|0 (two moves); either placement ends the deal with domino (RULES 4.2, and
    the engine scores it as domino), so no move ends it with fish: several moves, 20 s."""
    deal = Deal(DOMINO_HANDS, DOMINO_LEADER)
    play_moves(deal, LAST_TILE_FISHES_MOVES)
    assert len(deal.legal_moves()) == 2
    assert deal.allowance() == 20


# -- fish and domino --------------------------------------------------------------------------

def test_fish_is_detected_exactly_when_the_fishing_tile_is_placed():
    deal = Deal(FISH_HANDS, FISH_LEADER)
    for k, move in enumerate(FISH_MOVES, 1):
        assert not deal.is_over and deal.outcome is None, k
        deal.play(*move)
    assert deal.is_over
    assert deal.outcome.end == "fish"
    assert deal.outcome.seat == 2
    assert deal.outcome.pips == FISH_PIPS == deal.pair_pips()
    assert deal.ends == (0, 0)
    assert deal.last_seat == 2


def test_equal_ends_alone_are_not_fish():
    deal = fish_deal(upto=7)  # 0|0 with five 0s out
    assert deal.ends == (0, 0) and not deal.is_over
    deal = fish_deal(upto=1)  # the lead 0-0
    assert not deal.is_over


def test_the_fishing_tile_on_the_other_end_is_not_fish():
    deal = fish_deal(upto=9)
    deal.play("0-6", "right")  # 6|6 with two 6s out
    assert deal.ends == (6, 6)
    assert not deal.is_over
    assert deal.to_move == 3


def test_at_fish_no_seat_can_move():
    deal = fish_deal()
    left, right = deal.ends
    for seat in (1, 2, 3, 4):
        assert not any(t.has(left) or t.has(right) for t in deal.hand(seat))


def test_domino_ends_the_deal_with_the_pips_left():
    deal = domino_deal()
    assert deal.is_over
    assert deal.outcome.end == "domino" and deal.outcome.seat == 4
    assert deal.outcome.pips == DOMINO_PIPS
    assert deal.hand(4) == []
    assert tileset(deal.hand(1)) == {(0, 0), (1, 1)}
    assert tileset(deal.hand(2)) == {(0, 6)}
    assert tileset(deal.hand(3)) == {(0, 3)}


def test_pips_on_the_table_and_in_hands_make_168():
    deal = Deal(DOMINO_HANDS, DOMINO_LEADER)
    for move in DOMINO_MOVES:
        on_table = sum(a + b for a, b in deal.line())
        assert sum(deal.pair_pips()) + on_table == 168
        deal.pass_turn() if move == PASS else deal.play(*move)


# -- false pass -------------------------------------------------------------------------------

def test_false_pass_ends_the_deal_by_the_referee():
    deal = domino_deal(upto=10)
    pips = deal.pair_pips()
    deal.end_false_pass(3)
    assert deal.is_over
    assert deal.outcome.end == "false_pass" and deal.outcome.seat == 3
    assert deal.outcome.pips == pips
    raises_illegal(r"over", deal.play, "0-4")


@pytest.mark.parametrize("seat", [0, 5, None, "2"])
def test_false_pass_needs_a_seat(seat):
    deal = domino_deal(upto=3)
    raises_illegal(r"seat", deal.end_false_pass, seat)
    assert not deal.is_over


# -- touched and exposed tiles (RULES 4.1, 7) -------------------------------------------------

def test_a_touched_tile_that_fits_must_be_played():
    deal = fish_deal(upto=1)  # 0|0, seat 2 holds 0-1 0-2 0-6
    assert deal.mark(2, "0-6", "touched") is True
    assert [(norm(m.tile), m.end) for m in deal.legal_moves()] == [((0, 6), "left")]
    assert deal.allowance() == 5  # one legal move left
    raises_illegal(r"must play 6-0", deal.play, "0-1")
    deal.play("0-6")
    assert deal.ends == (6, 0)


def test_a_touched_tile_that_does_not_fit_binds_nothing():
    deal = fish_deal(upto=1)
    assert deal.mark(2, "1-3", "touched") is False
    assert len(deal.legal_moves()) == 3
    deal.play("0-1")
    assert deal.ends == (1, 0)


def test_a_tile_touched_outside_ones_turn_binds_nothing():
    deal = fish_deal(upto=1)  # seat 2 to move
    assert deal.mark(3, "0-3", "touched") is True  # fits, but not his turn
    deal.play("0-1")  # seat 2: 1|0
    moves = {(norm(m.tile), m.end) for m in deal.legal_moves()}
    assert moves == {((0, 3), "right"), ((0, 4), "right")}


def test_an_exposed_tile_must_be_played_at_the_first_chance_it_fits():
    deal = Deal(FISH_HANDS, 1)
    assert deal.mark(3, "0-4", "exposed") is True  # before the lead: any tile "fits"
    deal.play("0-0")
    deal.play("0-1")  # 1|0, seat 3 holds 0-3 and 0-4: only the exposed 0-4 may be played
    assert [(norm(m.tile), m.end) for m in deal.legal_moves()] == [((0, 4), "right")]
    assert deal.allowance() == 5
    raises_illegal(r"must play 4-0", deal.play, "0-3")
    deal.play("0-4")
    assert deal.ends == (1, 4)


def test_an_exposed_tile_that_does_not_fit_waits():
    deal = Deal(FISH_HANDS, 1)
    deal.mark(4, "0-5", "exposed")
    play_moves(deal, FISH_MOVES[:3])  # 1|3: seat 4's 0-5 does not fit, he plays freely
    assert {norm(m.tile) for m in deal.legal_moves()} == {(1, 2), (3, 6)}
    play_moves(deal, [("3-6", "right"), ("5-6", "right"), ("1-4", "left"), ("0-4", "left")])
    # 0|5: seat 4 could play 0-5 (either end), 4-5 or 5-5; the exposed 0-5 fits, so only it
    assert deal.ends == (0, 5) and deal.to_move == 4
    assert sorted((norm(m.tile), m.end) for m in deal.legal_moves()) == [((0, 5), "left"), ((0, 5), "right")]
    assert deal.allowance() == 20
    raises_illegal(r"must play 5-0", deal.play, "5-5")


def test_an_exposed_tile_must_be_led():
    deal = Deal(FISH_HANDS, 1)
    deal.mark(1, "3-3", "exposed")
    assert [norm(m.tile) for m in deal.legal_moves()] == [(3, 3)]
    assert deal.allowance() == 20  # the lead is always "several" (RULES 6)
    raises_illegal(r"must lead 3-3", deal.play, "0-0")
    deal.play("3-3")
    assert deal.ends == (3, 3)


def test_marks_are_checked():
    deal = Deal(FISH_HANDS, 1)
    raises_illegal(r"not in the hand of seat 2", deal.mark, 2, "0-0", "touched")
    raises_illegal(r"unknown mark", deal.mark, 1, "0-0", "licked")
    assert deal.marks == []


# -- the line and the history -----------------------------------------------------------------

def test_line_runs_from_the_left_end_to_the_right_end():
    deal = fish_deal()
    line = deal.line()
    assert line == FISH_LINE
    for (a, b), (c, d) in zip(line, line[1:]):
        assert b == c
    assert deal.ends == (line[0][0], line[-1][1])


def test_line_grows_on_the_named_side():
    deal = fish_deal(upto=1)
    assert deal.line() == [(0, 0)]
    deal.play("0-1")
    assert deal.line() == [(1, 0), (0, 0)]
    deal.play("0-3", "right")
    assert deal.line() == [(1, 0), (0, 0), (0, 3)]


def test_history_lists_every_move_with_passes():
    deal = domino_deal(upto=6)
    assert deal.history() == [
        Move(2, Tile(6, 6), None), Move(3, None), Move(4, None),
        Move(1, Tile(5, 6), "left"), Move(2, Tile(2, 5), "left"), Move(3, Tile(1, 2), "left"),
    ]
    assert [m.to_dict() for m in deal.history()[:4]] == [
        {"seat": 2, "tile": "6-6"}, {"seat": 3, "pass": True}, {"seat": 4, "pass": True},
        {"seat": 1, "tile": "6-5", "end": "left"},
    ]


def test_history_of_a_whole_deal_matches_the_moves():
    deal = domino_deal()
    history = deal.history()
    assert len(history) == len(DOMINO_MOVES)
    seat = DOMINO_LEADER
    for move, made in zip(DOMINO_MOVES, history):
        assert made.seat == seat
        if move == PASS:
            assert made.is_pass
        else:
            assert norm(made.tile) == norm(move[0])
        seat = seat % 4 + 1


# -- storing and replaying --------------------------------------------------------------------

def round_trip(deal):
    data = json.loads(json.dumps(deal.to_dict()))
    again = Deal.from_dict(data)
    assert snapshot(again) == snapshot(deal)
    assert again.outcome == deal.outcome
    if not deal.is_over:
        assert again.allowance() == deal.allowance()
        assert again.legal_moves() == deal.legal_moves()
    assert again.seed == deal.seed and again.leader == deal.leader
    assert again.marks == deal.marks
    return again


@pytest.mark.parametrize("upto", [0, 1, 5, 18, 31])
def test_to_dict_from_dict_round_trip_hand_built(upto):
    deal = domino_deal(upto=upto)
    data = deal.to_dict()
    assert data["leader"] == DOMINO_LEADER
    assert {s: tileset(h) for s, h in data["hands"].items()} == {str(s): tileset(h) for s, h in zip((1, 2, 3, 4), DOMINO_HANDS)}
    assert len(data["moves"]) == upto
    round_trip(deal)


def test_round_trip_keeps_marks_and_their_force():
    deal = Deal(FISH_HANDS, 1)
    deal.mark(3, "0-4", "exposed")
    deal.play("0-0")
    deal.mark(2, "0-6", "touched")
    again = round_trip(deal)
    assert [(norm(m.tile), m.end) for m in again.legal_moves()] == [((0, 6), "left")]
    raises_illegal(r"must play", again.play, "0-1")
    again.play("0-6")
    again.mark(3, "2-3", "touched")  # does not fit 6|0: a mark with no force
    again2 = round_trip(again)
    assert [(norm(m.tile), m.end) for m in again2.legal_moves()] == [((0, 4), "right")]
    kinds = [next(k for k in ("touched", "exposed", "tile", "pass") if k in m) for m in again.to_dict()["moves"]]
    assert kinds == ["exposed", "tile", "touched", "tile", "touched"]


def test_round_trip_keeps_the_seed_and_a_string_seed():
    for seed in (99, "deal-seed"):
        deal = Deal.from_seed(seed, 4)
        ref = RefDeal([[str(t) for t in deal.hand(s)] for s in (1, 2, 3, 4)], 4)
        for _ in range(6):
            moves = sorted(ref.legal(), key=lambda m: (m[0], m[1] or ""))
            if moves:
                tile, end = moves[0]
                ref.play(tile, end)
                deal.play(f"{tile[1]}-{tile[0]}" if end is None else f"{tile[0]}-{tile[1]}", end)
            else:
                ref.pass_turn()
                deal.pass_turn()
        again = round_trip(deal)
        assert again.seed == seed


def test_round_trip_of_a_false_pass():
    deal = domino_deal(upto=12)
    deal.end_false_pass(1)
    again = round_trip(deal)
    assert again.outcome.end == "false_pass" and again.outcome.seat == 1


def test_round_trip_keeps_the_lead_orientation():
    deal = Deal(FISH_HANDS, 2)
    deal.play("1-0")  # 1|0
    deal.play("0-3", "right")
    again = round_trip(deal)
    assert again.line() == [(1, 0), (0, 3)]


def test_from_dict_errors_name_the_move():
    data = domino_deal().to_dict()
    data["moves"][3] = {"seat": 1, "tile": "3-3"}  # seat 1 holds 3-3 but it does not fit 6|6
    with pytest.raises(RulesError) as info:
        Deal.from_dict(data)
    assert str(info.value).startswith("move 4: ")
    assert "3-3 does not fit ends 6|6" in str(info.value)


def test_from_dict_needs_a_leader():
    data = domino_deal(upto=2).to_dict()
    del data["leader"]
    with pytest.raises(RulesError, match="leader"):
        Deal.from_dict(data)
    assert Deal.from_dict(data, leader=2).to_move == 4


def test_copy_is_independent():
    deal = fish_deal(upto=3)
    other = deal.copy()
    other.play("1-2")
    assert deal.ends == (1, 3) and other.ends == (2, 3)
    assert snapshot(fish_deal(upto=3)) == snapshot(deal)


def test_a_refusal_concealed_names_no_tile_of_the_hand_but_the_one_sent():
    """Issue 18: refusals shown to someone who may not see the hand (HandError.concealed) do not
    list the playable tiles, and read the same for a tile held that does not fit and a tile not
    held, so that trying tile by tile rebuilds nothing; the detailed message stays for the referee."""
    tiles = [str(t) for t in TILES]
    hands = [tiles[0:7], tiles[7:14], tiles[14:21], tiles[21:28]]
    deal = Deal(hands, 1)
    with pytest.raises(IllegalMove) as false_pass:
        deal.pass_turn()
    assert "0-0" in str(false_pass.value)  # the engine's own message lists them
    assert not re.search(r"\b[0-6]-[0-6]\b", str(false_pass.value.concealed()))
    deal.play("0-0")
    answers = {}
    for tile in ("2-1", "3-3"):  # seat 2 holds 2-1, which does not fit 0|0; 3-3 is seat 3's
        with pytest.raises(IllegalMove) as refused:
            deal.play(tile)
        concealed = str(refused.value.concealed())
        assert re.findall(r"\b[0-6]-[0-6]\b", concealed) == [tile]
        answers[tile] = concealed.replace(tile, "T")
    assert answers["2-1"] == answers["3-3"]
