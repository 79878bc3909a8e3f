"""Swiss draw: checked against exhaustive search and a complete-graph oracle.

The oracle scores a draw by the tiers the module promises, highest first: repeat meetings,
second byes, bye height (pairs placed below the bye), score gap, squared score gap, squared
rank distance. A draw is optimal when no seating has a smaller key.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, SwissDraw, SwissEntrant, swiss_tour

Key = tuple[int, int, int, int, int, int]


def standings(wins: Sequence[int], ranks: Sequence[int] | None = None) -> list[SwissEntrant]:
    """Entrants with ids 1..n in the given order; ranks default to 1..n."""
    ranks = ranks or range(1, len(wins) + 1)
    return [SwissEntrant(k, w, r) for k, w, r in zip(range(1, len(wins) + 1), wins, ranks)]


def key(
    entrants: Sequence[SwissEntrant],
    tables: Sequence[tuple[int, int]],
    bye: int | None,
    met: set[frozenset[int]],
    had_bye: set[int],
) -> Key:
    by_id = {e.pair_id: (place, e) for place, e in enumerate(entrants)}
    gaps = [by_id[a][1].wins - by_id[b][1].wins for a, b in tables]
    return (
        sum(frozenset(t) in met for t in tables),
        int(bye in had_bye),
        0 if bye is None else len(entrants) - 1 - by_id[bye][0],
        sum(abs(g) for g in gaps),
        sum(g * g for g in gaps),
        sum((by_id[a][1].rank - by_id[b][1].rank) ** 2 for a, b in tables),
    )


def perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for matching in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *matching]


def best_key(entrants, met, had_bye) -> Key:
    ids = [e.pair_id for e in entrants]
    candidates = ids if len(ids) % 2 else [None]
    return min(
        key(entrants, tables, bye, met, had_bye)
        for bye in candidates
        for tables in perfect_matchings([i for i in ids if i != bye])
    )


def oracle_key(entrants, met, had_bye) -> Key:
    """Least key by a min-cost matching on the complete graph (base-B digits per tier)."""
    base = 10**5  # above any tier total for up to 40 pairs; base**6 fits in 128 bits
    graph = rx.PyGraph()
    ids = [e.pair_id for e in entrants]
    graph.add_nodes_from(ids + ([None] if len(ids) % 2 else []))
    ceiling = base**6
    for u, v in combinations(range(len(graph)), 2):
        a, b = graph[u], graph[v]
        if a is None or b is None:
            parts = key(entrants, [], a if b is None else b, met, had_bye)
        else:
            parts = key(entrants, [(a, b)], None, met, had_bye)
        cost = sum(part * base ** (5 - k) for k, part in enumerate(parts))
        graph.add_edge(u, v, ceiling - cost)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    tables = [(graph[u], graph[v]) for u, v in matching if None not in (graph[u], graph[v])]
    bye = next((graph[u] or graph[v] for u, v in matching if None in (graph[u], graph[v])), None)
    return key(entrants, tables, bye, met, had_bye)


def check_complete(draw: SwissDraw, entrants: Sequence[SwissEntrant]) -> None:
    seated = [p for table in draw.tables for p in table]
    assert sorted(seated + ([draw.bye] if draw.bye is not None else [])) == sorted(
        e.pair_id for e in entrants
    )
    assert (draw.bye is not None) == (len(entrants) % 2 == 1)
    place = {e.pair_id: k for k, e in enumerate(entrants)}
    assert all(place[a] < place[b] for a, b in draw.tables), "higher pair sits first"
    tops = [place[a] for a, _ in draw.tables]
    assert tops == sorted(tops), "board order"


@st.composite
def histories(draw, sorted_by_wins: bool = True, one_meeting_each: bool = False):
    n = draw(st.integers(2, 10))
    wins = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    if sorted_by_wins:
        wins.sort(reverse=True)
    # Ranks may tie, but never go down the list.
    steps = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    ranks = [1 + sum(steps[1 : k + 1]) for k in range(n)]
    entrants = standings(wins, ranks)
    if one_meeting_each:
        # t = 1 gives a band of 6 places, narrower than the field from 8 pairs on.
        order = draw(st.permutations(range(1, n + 1)))
        pairs = list(zip(order[::2], order[1::2]))
    else:
        pairs = list(combinations(range(1, n + 1), 2))
    hits = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    met = {frozenset(p) for p, hit in zip(pairs, hits) if hit}
    had_bye = set(draw(st.sets(st.integers(1, n))))
    return entrants, met, had_bye


@settings(max_examples=300, deadline=None)
@given(histories())
def test_optimal_against_exhaustive_search(history) -> None:
    entrants, met, had_bye = history
    draw = swiss_tour(entrants, met, had_bye)
    check_complete(draw, entrants)
    found = key(entrants, draw.tables, draw.bye, met, had_bye)
    assert found == best_key(entrants, met, had_bye)


@settings(max_examples=200, deadline=None)
@given(histories(one_meeting_each=True))
def test_optimal_against_exhaustive_search_with_a_narrow_band(history) -> None:
    entrants, met, had_bye = history
    draw = swiss_tour(entrants, met, had_bye)
    found = key(entrants, draw.tables, draw.bye, met, had_bye)
    assert found == best_key(entrants, met, had_bye)


@settings(max_examples=150, deadline=None)
@given(histories(sorted_by_wins=False))
def test_standings_not_led_by_wins_stay_optimal_down_to_score_tiers(history) -> None:
    entrants, met, had_bye = history
    draw = swiss_tour(entrants, met, had_bye)
    check_complete(draw, entrants)
    found = key(entrants, draw.tables, draw.bye, met, had_bye)
    assert found[:5] == best_key(entrants, met, had_bye)[:5]


def simulate(
    n: int, tours: int, rng: random.Random
) -> Iterator[tuple[list[SwissEntrant], set[frozenset[int]], set[int], SwissDraw]]:
    """Play ``tours`` Swiss tours with random winners; yield each tour's input and draw."""
    wins = dict.fromkeys(range(1, n + 1), 0)
    points = {p: rng.random() for p in wins}  # a random second metric, as points difference
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for _ in range(tours):
        order = sorted(wins, key=lambda p: (-wins[p], -points[p]))
        entrants = [SwissEntrant(p, wins[p], rank) for rank, p in enumerate(order, start=1)]
        draw = swiss_tour(entrants, met, had_bye)
        yield entrants, set(met), set(had_bye), draw
        for a, b in draw.tables:
            met.add(frozenset((a, b)))
            winner = rng.choice((a, b))
            wins[winner] += 1
            points[winner] += rng.random()
        if draw.bye is not None:
            had_bye.add(draw.bye)
            wins[draw.bye] += 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32))
def test_simulated_events_are_optimal_every_tour(n: int, seed: int) -> None:
    for entrants, met, had_bye, draw in simulate(n, n + 1, random.Random(seed)):
        check_complete(draw, entrants)
        found = key(entrants, draw.tables, draw.bye, met, had_bye)
        assert found == best_key(entrants, met, had_bye)


@settings(max_examples=40, deadline=None)
@given(st.integers(16, 40), st.integers(1, 5), st.integers(0, 2**32))
def test_band_graph_matches_the_complete_graph_in_larger_events(
    n: int, tours: int, seed: int
) -> None:
    # After at most 4 tours the band of 4t + 2 places is narrower than the field, so this
    # checks the uncrossing argument of tournaments.draw._matching.
    for entrants, met, had_bye, draw in simulate(n, tours, random.Random(seed)):
        check_complete(draw, entrants)
        found = key(entrants, draw.tables, draw.bye, met, had_bye)
        assert found == oracle_key(entrants, met, had_bye)


@pytest.mark.parametrize("n", [7, 9, 15])
def test_byes_rotate_through_every_pair_of_a_simulated_event(n: int) -> None:
    # A second bye is only given to avoid a repeat meeting, which these events never need.
    byes = [draw.bye for _, _, _, draw in simulate(n, n, random.Random(n)) if draw.bye]
    assert sorted(byes) == list(range(1, n + 1))


def test_pairs_with_equal_wins_meet_neighbours_first() -> None:
    draw = swiss_tour(standings([2, 2, 1, 1, 1, 1, 0, 0]))
    assert draw == SwissDraw(tables=((1, 2), (3, 4), (5, 6), (7, 8)), bye=None)


def test_odd_group_floats_one_pair_down_one_win() -> None:
    # Pair 3 floats to the one-win group; 2 v 4 would cost a float of two wins.
    draw = swiss_tour(standings([2, 2, 2, 1, 1, 0]))
    assert draw.tables == ((1, 2), (3, 4), (5, 6))


def test_repeat_is_avoided_with_the_nearest_other_pair() -> None:
    draw = swiss_tour(standings([1, 1, 1, 1]), met={frozenset({1, 2})})
    assert draw.tables == ((1, 3), (2, 4))


def test_repeat_is_avoided_even_across_score_groups() -> None:
    draw = swiss_tour(standings([1, 1, 0, 0]), met={frozenset({1, 2}), frozenset({3, 4})})
    assert draw.tables == ((1, 3), (2, 4))


def test_unavoidable_repeat_is_drawn_once() -> None:
    met = {frozenset(p) for p in combinations(range(1, 5), 2) if p != (1, 4)}
    draw = swiss_tour(standings([1, 1, 1, 1]), met=met)
    assert draw.tables == ((1, 4), (2, 3))


def test_bye_goes_to_the_lowest_pair_without_one() -> None:
    draw = swiss_tour(standings([2, 1, 1, 1, 0]), had_bye={5, 4})
    assert draw.bye == 3
    assert draw.tables == ((1, 2), (4, 5))


def test_when_everyone_had_a_bye_the_lowest_pair_gets_the_next() -> None:
    draw = swiss_tour(standings([2, 1, 0]), had_bye={1, 2, 3})
    assert draw.bye == 3


def test_a_second_bye_is_given_only_to_avoid_a_repeat() -> None:
    # Pair 3 is the only one without a bye but has met both others, who have met each other:
    # any seating repeats one meeting, so the bye stays with pair 3.
    met = {frozenset({1, 2}), frozenset({1, 3}), frozenset({2, 3})}
    assert swiss_tour(standings([1, 1, 1]), met, had_bye={1, 2}).bye == 3
    # If only 1 and 2 have met, a second bye for 2 lets 1 play 3 without a repeat.
    draw = swiss_tour(standings([1, 1, 1]), {frozenset({1, 2})}, had_bye={1, 2})
    assert draw == SwissDraw(tables=((1, 3),), bye=2)


def test_bye_is_not_traded_for_a_smaller_score_gap() -> None:
    # Giving the leader the bye would leave gaps 0 + 1 instead of 1 + 1; the bye still goes
    # to the lowest pair.
    assert swiss_tour(standings([3, 2, 2, 1, 0])).bye == 5


@pytest.mark.parametrize(
    ("entrants", "met", "had_bye", "message"),
    [
        (standings([0]), set(), set(), "at least two pairs"),
        ([SwissEntrant(1, 0, 1), SwissEntrant(1, 0, 2)], set(), set(), "Pair 1 is listed more"),
        (standings([0, -1]), set(), set(), "Pair 2 has -1 wins"),
        (standings([0, 0], [2, 1]), set(), set(), r"pair 2 \(rank 1\) comes after pair 1"),
        (standings([0, 0]), {frozenset({1, 7})}, set(), "meeting history names pair 7"),
        (standings([0, 0]), {frozenset({1})}, set(), "exactly two different pairs"),
        (standings([0, 0]), set(), {9}, "bye history names pair 9"),
    ],
)
def test_bad_input_is_refused(entrants, met, had_bye, message) -> None:
    with pytest.raises(DrawError, match=message):
        swiss_tour(entrants, met, had_bye)
