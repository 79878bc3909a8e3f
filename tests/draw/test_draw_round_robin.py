"""Berger tables: every pair meets every other exactly once, byes and seats are balanced."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.draw import DrawError, berger_schedule, round_robin_tour, tour_count

SIZES = range(2, 22)


def ids(n: int) -> list[int]:
    # Ids unrelated to positions, so that a mix-up of number and id would show.
    return [100 + 7 * k for k in range(n)]


@pytest.mark.parametrize("n", SIZES)
def test_every_pair_meets_every_other_exactly_once(n: int) -> None:
    schedule = berger_schedule(ids(n))
    assert len(schedule) == tour_count(n) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(t) for tour in schedule for t in tour if t[1] is not None)
    assert set(meetings) == {frozenset(c) for c in combinations(ids(n), 2)}
    assert set(meetings.values()) == {1}


@pytest.mark.parametrize("n", SIZES)
def test_each_pair_sits_once_per_tour_and_odd_counts_rest_once(n: int) -> None:
    schedule = berger_schedule(ids(n))
    byes: Counter[int] = Counter()
    for tour in schedule:
        seated = [p for table in tour for p in table if p is not None]
        assert sorted(seated) == sorted(ids(n))
        tour_byes = [a for a, b in tour if b is None]
        assert len(tour_byes) == n % 2
        assert all(b is not None for _, b in tour[: len(tour) - n % 2]), "bye comes last"
        byes.update(tour_byes)
    assert byes == (Counter(ids(n)) if n % 2 else Counter())


@pytest.mark.parametrize("n", SIZES)
def test_first_seats_alternate_like_colours(n: int) -> None:
    schedule = berger_schedule(ids(n))
    for pair in ids(n):
        games = [(a, b) for tour in schedule for a, b in tour if b is not None]
        sides = [a == pair for a, b in games if pair in (a, b)]
        assert abs(2 * sum(sides) - len(sides)) <= 1
        runs = [sides[k : k + 3] for k in range(len(sides) - 2)]
        assert not any(len(set(run)) == 1 for run in runs), "never three times in a row"


def test_matches_the_published_berger_table_for_six() -> None:
    assert berger_schedule([1, 2, 3, 4, 5, 6]) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_odd_count_gives_the_dummy_opponent_a_bye() -> None:
    assert berger_schedule([1, 2, 3, 4, 5])[0] == [(2, 5), (3, 4), (1, None)]


@pytest.mark.parametrize("n", SIZES)
def test_single_tour_equals_the_schedule(n: int) -> None:
    schedule = berger_schedule(ids(n))
    assert [round_robin_tour(ids(n), k) for k in range(1, len(schedule) + 1)] == schedule


@pytest.mark.parametrize(
    ("pair_ids", "tour", "message"),
    [
        ([1], 1, "at least two pairs"),
        ([1, 2, 2, 3], 1, "Pair 2 is listed more than once"),
        ([1, 2, 3, 4], 0, "tours 1 to 3, not 0"),
        ([1, 2, 3, 4], 4, "tours 1 to 3, not 4"),
    ],
)
def test_bad_input_is_refused(pair_ids: list[int], tour: int, message: str) -> None:
    with pytest.raises(DrawError, match=message):
        round_robin_tour(pair_ids, tour)
