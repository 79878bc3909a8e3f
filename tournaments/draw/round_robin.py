"""Round robin by Berger tables: every pair meets every other pair exactly once.

Pairs are numbered 1..n in the order given (the caller's seeding). With an odd count a dummy
takes number n + 1 and whoever meets it has the bye, so each pair rests exactly once.

Berger tables, as FIDE publishes them: number n is fixed, the others turn around a circle, and
the first number of each tour advances by n/2. The pair listed first takes seats 1 and 3; the
listing alternates like chess colours, so every pair sits first in half of its tables (one more
or one fewer when it plays an odd number of them).
"""

from __future__ import annotations

from collections.abc import Sequence

from ._validate import require_unique
from .errors import DrawError

Table = tuple[int, int | None]
"""(pair in seats 1-3, pair in seats 2-4); None in place of the second pair means a bye."""


def berger_schedule(pair_ids: Sequence[int]) -> list[list[Table]]:
    """All tours of a round robin; the bye, if any, is the last entry of its tour."""
    _check(pair_ids)
    return [_tour(pair_ids, number) for number in range(1, tour_count(len(pair_ids)) + 1)]


def round_robin_tour(pair_ids: Sequence[int], tour_number: int) -> list[Table]:
    """Tour ``tour_number`` (from 1) of :func:`berger_schedule`, without building the others."""
    _check(pair_ids)
    tours = tour_count(len(pair_ids))
    if not 1 <= tour_number <= tours:
        raise DrawError(
            f"A round robin of {len(pair_ids)} pairs has tours 1 to {tours}, not {tour_number}."
        )
    return _tour(pair_ids, tour_number)


def tour_count(pair_count: int) -> int:
    """Number of tours a round robin of ``pair_count`` pairs takes."""
    return pair_count - 1 if pair_count % 2 == 0 else pair_count


def _check(pair_ids: Sequence[int]) -> None:
    if len(pair_ids) < 2:
        raise DrawError("A round robin needs at least two pairs.")
    require_unique(pair_ids, "Pair")


def _tour(pair_ids: Sequence[int], tour_number: int) -> list[Table]:
    size = len(pair_ids) + len(pair_ids) % 2  # with the dummy
    circle = size - 1
    # Berger numbers on the circle for this tour, starting with the one that meets `size`.
    start = (tour_number - 1) * (size // 2) % circle
    ring = [(start + k) % circle + 1 for k in range(circle)]

    def pair(number: int) -> int | None:
        return pair_ids[number - 1] if number <= len(pair_ids) else None

    # The fixed number plays second in odd tours and first in even ones.
    fixed = (ring[0], size) if tour_number % 2 else (size, ring[0])
    games = [fixed] + [(ring[k], ring[circle - k]) for k in range(1, size // 2)]

    tables: list[Table] = []
    bye: int | None = None
    for first, second in games:
        a, b = pair(first), pair(second)
        if a is None or b is None:
            bye = b if a is None else a
        else:
            tables.append((a, b))
    if bye is not None:
        tables.append((bye, None))
    return tables
