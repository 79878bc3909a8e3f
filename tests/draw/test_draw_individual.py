"""Individual draw: partners never repeat while avoidable, opponents repeat as little as the
partners allow, sit-outs rotate."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import DrawError, IndividualDraw, individual, individual_tour


def partner_pairs(draw: IndividualDraw) -> list[frozenset[int]]:
    return [frozenset(pair) for a, b, c, d in draw.tables for pair in ((a, c), (b, d))]


def opponent_pairs(draw: IndividualDraw) -> list[frozenset[int]]:
    return [frozenset((x, y)) for a, b, c, d in draw.tables for x in (a, c) for y in (b, d)]


def play(
    players: Sequence[int], tours: int, scores: bool = False
) -> Iterator[tuple[Counter, Counter, Counter, IndividualDraw]]:
    """Draw ``tours`` tours, the pair in seats 1-3 winning odd tables; yield history and draw."""
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    sit_outs: Counter[int] = Counter()
    wins = Counter(dict.fromkeys(players, 0))
    for tour in range(1, tours + 1):
        draw = individual_tour(
            players,
            partners,
            opponents,
            sit_outs=sit_outs,
            scores=dict(wins) if scores else None,
            seed=tour,
        )
        yield partners.copy(), opponents.copy(), sit_outs.copy(), draw
        partners.update(partner_pairs(draw))
        opponents.update(opponent_pairs(draw))
        sit_outs.update(draw.sitting_out)
        for k, (a, b, c, d) in enumerate(draw.tables):
            wins.update((a, c) if k % 2 else (b, d))


def check_complete(draw: IndividualDraw, players: Sequence[int]) -> None:
    seated = [p for table in draw.tables for p in table]
    assert sorted(seated + list(draw.sitting_out)) == sorted(players)
    assert len(draw.sitting_out) == len(players) % 4


@pytest.mark.parametrize("n", [4, 5, 7, 8, 9, 10, 12, 13, 16, 19, 22, 30, 41, 64])
@pytest.mark.parametrize("scores", [False, True])
def test_no_repeat_partner_while_dirac_guarantees_one(n: int, scores: bool) -> None:
    # With m players seated, fewer than m/2 earlier partners each leave a pairing without
    # repeats (Dirac), so the first m/2 tours must have none.
    seated = n - n % 4
    players = [1000 + k for k in range(n)]
    for partners, _, _, draw in play(players, seated // 2, scores):
        check_complete(draw, players)
        assert not any(partners[p] for p in partner_pairs(draw))


def test_four_players_play_all_three_partnerships() -> None:
    draws = [draw for *_, draw in play([1, 2, 3, 4], 3)]
    assert len({p for draw in draws for p in partner_pairs(draw)}) == 6


def test_many_tours_of_a_large_event_never_repeat_partners_or_opponents() -> None:
    players = list(range(1, 401))
    for partners, opponents, _, draw in play(players, 10, scores=True):
        assert not any(partners[p] for p in partner_pairs(draw))
        assert not any(opponents[p] for p in opponent_pairs(draw))


def least_cost(items: list, cost) -> tuple[int, int]:
    """Least summed ``cost(x, y)`` (a tuple, compared in order) over all ways to split
    ``items`` into couples."""
    if not items:
        return (0, 0)
    first, rest = items[0], items[1:]
    options = []
    for k, other in enumerate(rest):
        head, tail = cost(first, other), least_cost(rest[:k] + rest[k + 1 :], cost)
        options.append((head[0] + tail[0], head[1] + tail[1]))
    return min(options)


@st.composite
def histories(draw):
    n = draw(st.integers(4, 11))
    players = list(range(1, n + 1))
    couples = [frozenset(c) for c in combinations(players, 2)]
    counts = st.lists(st.integers(0, 2), min_size=len(couples), max_size=len(couples))
    partners = Counter(dict(zip(couples, draw(counts))))
    opponents = Counter(dict(zip(couples, draw(counts))))
    per_player = st.lists(st.integers(0, 2), min_size=n, max_size=n)
    sit_outs = Counter(dict(zip(players, draw(per_player))))
    scores = dict(zip(players, draw(per_player))) if draw(st.booleans()) else None
    return players, +partners, +opponents, +sit_outs, scores, draw(st.integers(0, 1000))


def check_optimal(history) -> None:
    players, partners, opponents, sit_outs, scores, seed = history
    draw = individual_tour(
        players, partners, opponents, sit_outs=sit_outs, scores=scores, seed=seed
    )
    check_complete(draw, players)
    score = scores or Counter()
    seated = [p for table in draw.tables for p in table]
    pairs = [(a, c) for a, b, c, d in draw.tables] + [(b, d) for a, b, c, d in draw.tables]

    def partner_cost(x: int, y: int) -> tuple[int, int]:
        return partners[frozenset((x, y))], abs(score[x] - score[y])

    assert least_cost(seated, partner_cost) == (
        sum(partners[frozenset(p)] for p in pairs),
        sum(abs(score[x] - score[y]) for x, y in pairs),
    )

    # Given those partners, no other way of putting the pairs at tables does better.
    def table_cost(k: int, j: int) -> tuple[int, int]:
        return (
            sum(opponents[frozenset((x, y))] for x in pairs[k] for y in pairs[j]),
            abs(sum(score[x] for x in pairs[k]) - sum(score[y] for y in pairs[j])),
        )

    tables = len(draw.tables)
    assert least_cost(list(range(len(pairs))), table_cost) == (
        sum(table_cost(k, k + tables)[0] for k in range(tables)),
        sum(table_cost(k, k + tables)[1] for k in range(tables)),
    )
    # Sit-outs go to those who sat out least.
    if draw.sitting_out:
        assert max(sit_outs[p] for p in draw.sitting_out) <= min(sit_outs[p] for p in seated)


@settings(max_examples=200, deadline=None)
@given(histories())
def test_partners_and_then_tables_are_optimal(history) -> None:
    check_optimal(history)


@settings(max_examples=200, deadline=None)
@given(histories())
def test_a_narrow_first_band_that_falls_short_is_widened(history) -> None:
    # With a first band of one place the lower bounds are rarely met, so this exercises the
    # fall-back to the proven band, and that a narrow result is kept only when optimal.
    with patch.object(individual, "QUICK_BAND", 1):
        check_optimal(history)


@pytest.mark.parametrize(("n", "tours"), [(9, 9), (10, 10), (11, 8), (23, 12)])
def test_sit_outs_rotate(n: int, tours: int) -> None:
    players = list(range(1, n + 1))
    for _, _, sit_outs, draw in play(players, tours):
        counts = sit_outs + Counter(draw.sitting_out)
        assert max(counts[p] for p in players) - min(counts[p] for p in players) <= 1


def test_lowest_score_sits_out_among_those_who_sat_out_least() -> None:
    scores = {1: 3, 2: 0, 3: 2, 4: 1, 5: 0}
    draw = individual_tour([1, 2, 3, 4, 5], sit_outs={2: 1}, scores=scores)
    assert draw.sitting_out == (5,)


def test_players_of_similar_score_share_tables() -> None:
    scores = {p: 5 if p <= 4 else 0 for p in range(1, 9)}
    draw = individual_tour(list(range(1, 9)), scores=scores, seed=3)
    assert set(draw.tables[0]) == {1, 2, 3, 4}
    assert set(draw.tables[1]) == {5, 6, 7, 8}


def test_same_seed_same_draw_and_seed_changes_it() -> None:
    players = list(range(1, 41))
    assert individual_tour(players, seed=1) == individual_tour(players, seed=1)
    assert individual_tour(players, seed=1) != individual_tour(players, seed=2)


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        ([1, 2, 3], {}, "at least four players"),
        ([1, 2, 3, 3], {}, "Player 3 is listed more than once"),
        ([1, 2, 3, 4], {"partners": {frozenset({1, 9}): 1}}, "partner history names player 9"),
        ([1, 2, 3, 4], {"opponents": {frozenset({1, 2, 3}): 1}}, "exactly two different players"),
        ([1, 2, 3, 4], {"sit_outs": {8: 1}}, "sit-out history names player 8"),
        ([1, 2, 3, 4], {"scores": {1: 0, 2: 0, 3: 0}}, "Player 4 has no score"),
        ([1, 2, 3, 4], {"scores": {1: 0, 2: 0, 3: 0, 4: 0.5}}, "whole numbers"),
    ],
)
def test_bad_input_is_refused(players, kwargs, message) -> None:
    with pytest.raises(DrawError, match=message):
        individual_tour(players, **kwargs)
