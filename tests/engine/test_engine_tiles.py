"""Tiles of the double-six set (RULES 2) and the engine's bit-mask helpers."""

import copy
import pickle
from collections import Counter

import pytest

from scoring.engine import TILES, Tile, tiles as tiles_module
from scoring.engine.tiles import (ALL_TILES, SUIT, TOTAL_PIPS, indices_of, mask_of, other_half, parse_tile, pips_of,
                                  tile_index, tiles_of)

EVERY_PAIR = [(a, b) for a in range(7) for b in range(a, 7)]


def test_the_set_has_28_distinct_tiles_0_0_to_6_6():
    assert len(TILES) == 28
    assert len({id(t) for t in TILES}) == 28
    assert sorted((t.low, t.high) for t in TILES) == EVERY_PAIR
    assert all(0 <= t.low <= t.high <= 6 for t in TILES)


def test_all_pips_make_168():
    assert sum(t.pips for t in TILES) == 168
    assert TOTAL_PIPS == 168
    assert pips_of(ALL_TILES) == 168


def test_every_number_appears_on_seven_tiles_with_eight_halves():
    for v in range(7):
        carrying = [t for t in TILES if t.has(v)]
        assert len(carrying) == 7, v
        halves = sum((t.low == v) + (t.high == v) for t in TILES)
        assert halves == 8, v
    counts = Counter()
    for t in TILES:
        counts[t.low] += 1
        counts[t.high] += 1
    assert set(counts.values()) == {8}


def test_seven_doubles():
    doubles = [t for t in TILES if t.is_double]
    assert [(t.low, t.high) for t in doubles] == [(v, v) for v in range(7)]
    assert not Tile(2, 5).is_double


def test_pips_of_a_tile():
    assert Tile(0, 0).pips == 0
    assert Tile(6, 6).pips == 12
    assert Tile(5, 1).pips == 6


@pytest.mark.parametrize("a,b", EVERY_PAIR)
def test_tiles_are_interned_in_either_order(a, b):
    t = Tile(a, b)
    assert t is Tile(b, a)
    assert t is TILES[tile_index(a, b)] is TILES[tile_index(b, a)]
    assert t.index == tile_index(a, b)
    assert (t.low, t.high) == (a, b)


def test_interning_example_of_the_docs():
    assert Tile(5, 1) is Tile(1, 5)
    assert Tile(5, 1) == Tile(1, 5)
    assert hash(Tile(5, 1)) == hash(Tile(1, 5))
    assert len({Tile(5, 1), Tile(1, 5)}) == 1


def test_tiles_survive_copy_and_pickle_as_the_same_object():
    t = Tile(3, 4)
    assert copy.copy(t) is t
    assert copy.deepcopy(t) is t
    assert pickle.loads(pickle.dumps(t)) is t
    assert copy.deepcopy([Tile(0, 0), Tile(6, 6)])[1] is Tile(6, 6)


@pytest.mark.parametrize("name,value", [("low", 4), ("high", 0), ("index", 3), ("bit", 1), ("colour", "red")])
def test_tiles_are_immutable(name, value):
    t = Tile(1, 2)
    with pytest.raises(AttributeError):
        setattr(t, name, value)
    assert (t.low, t.high, t.index) == (1, 2, tile_index(1, 2))


def test_tile_attributes_cannot_be_deleted():
    """A deleted half would corrupt the one shared interned object for the whole process."""
    t = Tile(1, 5)
    saved = t.low
    try:
        with pytest.raises(AttributeError):
            del t.low
    finally:
        if not hasattr(t, "low"):  # repair the shared object for the other tests
            object.__setattr__(t, "low", saved)
    assert t.low == 1


@pytest.mark.parametrize("a,b", [(7, 1), (-1, 0), (0, 7), (3, 10)])
def test_no_tile_outside_0_to_6(a, b):
    with pytest.raises(ValueError, match="no tile"):
        Tile(a, b)


@pytest.mark.parametrize("text,pair", [("5-1", (1, 5)), ("1-5", (1, 5)), ("0-0", (0, 0)),
                                       ("6-6", (6, 6)), ("6-0", (0, 6)), ("0-6", (0, 6))])
def test_parse_accepts_both_orders(text, pair):
    t = Tile.parse(text)
    assert (t.low, t.high) == pair
    assert t is Tile(*pair)
    assert TILES[parse_tile(text)] is t


def test_str_writes_high_half_first_and_parses_back():
    assert str(Tile(1, 5)) == "5-1"
    assert repr(Tile(5, 1)) == "Tile(1, 5)"
    for t in TILES:
        assert Tile.parse(str(t)) is t
        assert Tile.parse(f"{t.low}-{t.high}") is t


@pytest.mark.parametrize("text", ["7-1", "1-7", "15", "1-5-2", "a-b", "", "-1-5", "1-", "-",
                                  "1–5", "1_5", "1 5", "10-1"])
def test_parse_errors_name_the_text(text):
    with pytest.raises(ValueError) as info:
        Tile.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [None, 15, 1.5, ("1", "5")])
def test_parse_refuses_non_strings(value):
    with pytest.raises(ValueError):
        parse_tile(value)


def test_parse_error_for_unicode_digits_names_the_text():
    """'²' is a digit to str.isdigit() but not to int(): the message must still name the text."""
    with pytest.raises(ValueError) as info:
        parse_tile("²-1")
    assert "'²-1'" in str(info.value)


def test_has_and_other():
    t = Tile(2, 5)
    assert t.has(2) and t.has(5) and not t.has(3)
    assert t.other(2) == 5 and t.other(5) == 2
    assert Tile(4, 4).other(4) == 4
    assert other_half(t.index, 3) == -1
    for u in TILES:
        for v in range(7):
            expected = (u.high if u.low == v else u.low) if v in (u.low, u.high) else -1
            assert other_half(u.index, v) == expected


def test_order_is_index_order():
    assert sorted([Tile(6, 6), Tile(0, 1), Tile(0, 0)]) == [Tile(0, 0), Tile(0, 1), Tile(6, 6)]
    assert [t.index for t in TILES] == list(range(28))


def test_bits_are_distinct_single_bits():
    assert all(t.bit == 1 << t.index for t in TILES)
    assert sum(t.bit for t in TILES) == ALL_TILES == (1 << 28) - 1


def test_suit_masks_hold_the_seven_tiles_of_a_number():
    for v in range(7):
        assert {t for t in tiles_of(SUIT[v])} == {t for t in TILES if t.has(v)}
        assert SUIT[v].bit_count() == 7
    # every pair of suits shares exactly one tile, v-w
    for v in range(7):
        for w in range(7):
            if v == w:
                continue
            shared = tiles_of(SUIT[v] & SUIT[w])
            assert shared == [Tile(v, w)]


def test_mask_helpers_round_trip():
    hand = [Tile(6, 6), Tile(0, 1), Tile(3, 5)]
    mask = mask_of(hand)
    assert mask.bit_count() == 3
    assert tiles_of(mask) == sorted(hand)
    assert list(indices_of(mask)) == sorted(t.index for t in hand)
    assert pips_of(mask) == 12 + 1 + 8
    assert mask_of([t.index for t in hand]) == mask
    assert mask_of([Tile(6, 6), Tile(6, 6).index]) == Tile(6, 6).bit  # the same tile twice: one bit
    assert mask_of([]) == 0 and tiles_of(0) == [] and pips_of(0) == 0


def test_pips_of_every_suit():
    # the tiles of v: v-0..v-6 hold 7*v + (0+1+...+6) = 7v + 21 pips
    for v in range(7):
        assert pips_of(SUIT[v]) == 7 * v + 21


def test_public_names_are_exported():
    for name in tiles_module.__all__:
        assert hasattr(tiles_module, name)
