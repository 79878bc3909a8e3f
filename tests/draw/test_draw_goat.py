"""Goat draw (RULES 9.1 "Tournament"): the fewest tables, sizes as equal as possible, every
player seated once, repeat meetings avoided while a seating avoids them."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, GoatDraw, goat_tour, table_sizes


def meetings_of(draw: GoatDraw) -> list[frozenset[int]]:
    return [frozenset(two) for table in draw.tables for two in combinations(table, 2)]


def repeats(draw: GoatDraw, history: Counter[frozenset[int]]) -> int:
    return sum(history[m] for m in meetings_of(draw))


@pytest.mark.parametrize(("count", "largest", "sizes"), [
    (6, 4, (3, 3)), (5, 4, (3, 2)), (9, 4, (3, 3, 3)),  # the examples of RULES 9.1
    (4, 4, (4,)), (2, 4, (2,)), (3, 4, (3,)), (12, 4, (4, 4, 4)), (13, 4, (4, 3, 3, 3)), (10, 4, (4, 3, 3)),
    (7, 3, (3, 2, 2)), (6, 3, (3, 3)), (8, 2, (2, 2, 2, 2)), (2, 2, (2,)),
])
def test_the_fewest_tables_as_equal_as_possible(count, largest, sizes):
    assert table_sizes(count, largest) == sizes


def test_impossible_sizes_are_refused():
    with pytest.raises(DrawError, match="at least two players"):
        table_sizes(1, 4)
    with pytest.raises(DrawError, match="2 to 4 players, not 5"):
        table_sizes(10, 5)
    with pytest.raises(DrawError, match="even number"):
        table_sizes(5, 2)


def test_a_first_tour_cuts_the_line_in_order_of_score():
    # Scores order the line: 6 players at tables of 4 sit 3 and 3, the three best together.
    scores = {1: 0, 2: 5, 3: 9, 4: 1, 5: 7, 6: 3}
    draw = goat_tour(list(scores), 4, scores=scores)
    assert draw.tables == ((3, 5, 2), (6, 4, 1))
    assert draw.sitting_out == ()


def test_a_second_tour_of_16_players_repeats_no_meeting():
    players = list(range(1, 17))
    first = goat_tour(players, 4, seed=1)
    history = Counter(meetings_of(first))
    second = goat_tour(players, 4, history, seed=2)
    assert [len(t) for t in second.tables] == [4, 4, 4, 4]
    assert repeats(second, history) == 0


def test_twelve_players_at_three_tables_repeat_once_a_table_no_more():
    # After tables {1..4}, {5..8}, {9..12}, each new table of 4 takes players from 3 old ones, so
    # two of them met: 3 repeats is the least possible, and the draw reaches it.
    history = Counter(frozenset(two) for table in ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
                      for two in combinations(table, 2))
    draw = goat_tour(list(range(1, 13)), 4, history, seed=5)
    assert repeats(draw, history) == 3


def test_tables_of_two_leave_the_odd_player_out_fewest_sit_outs_first():
    draw = goat_tour([1, 2, 3, 4, 5], 2, sit_outs={1: 1, 2: 1, 3: 1, 5: 1}, seed=3)
    assert draw.sitting_out == (4,)
    assert sorted(p for t in draw.tables for p in t) == [1, 2, 3, 5]


def test_the_same_seed_draws_the_same_tour_and_bad_input_is_refused():
    players = list(range(10, 21))
    assert goat_tour(players, 4, seed=7) == goat_tour(players, 4, seed=7)
    with pytest.raises(DrawError, match="Player 10 is listed more than once"):
        goat_tour([10, 10, 11], 4)
    with pytest.raises(DrawError, match="meeting history names player 99"):
        goat_tour([10, 11, 12], 4, {frozenset((10, 99)): 1})
    with pytest.raises(DrawError, match="Player 11 has no score"):
        goat_tour([10, 11], 4, scores={10: 1})


@st.composite
def histories(draw):
    count = draw(st.integers(2, 40))
    largest = draw(st.integers(2, 4))
    players = draw(st.lists(st.integers(1, 10_000), min_size=count, max_size=count, unique=True))
    met = draw(st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players), st.integers(1, 3)),
                        max_size=60))
    meetings = Counter({frozenset((a, b)): n for a, b, n in met if a != b})
    scores = {p: draw(st.integers(0, 20)) for p in players}
    return players, largest, meetings, scores, draw(st.integers(0, 1000))


@settings(max_examples=150, deadline=None)
@given(histories())
def test_every_player_is_seated_once_and_sizes_differ_by_at_most_one(case):
    players, largest, meetings, scores, seed = case
    draw = goat_tour(players, largest, meetings, scores=scores, seed=seed)
    seated = [p for t in draw.tables for p in t] + list(draw.sitting_out)
    assert sorted(seated) == sorted(players)
    sizes = [len(t) for t in draw.tables]
    assert max(sizes) - min(sizes) <= 1
    assert all(2 <= s <= largest for s in sizes)
    assert len(draw.tables) == -(-(len(players) - len(draw.sitting_out)) // largest)
    assert len(draw.sitting_out) == (len(players) % 2 if largest == 2 else 0)


@settings(max_examples=60, deadline=None)
@given(histories())
def test_no_single_swap_lowers_the_repeats(case):
    players, largest, meetings, scores, seed = case
    draw = goat_tour(players, largest, meetings, scores=scores, seed=seed)
    least = repeats(draw, meetings)
    tables = [list(t) for t in draw.tables]
    for t, u in combinations(range(len(tables)), 2):
        for i in range(len(tables[t])):
            for j in range(len(tables[u])):
                tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                swapped = GoatDraw(tuple(map(tuple, tables)), draw.sitting_out)
                assert repeats(swapped, meetings) >= least
                tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
