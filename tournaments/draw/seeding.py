"""The seeding order of tour 1: who is first, second, ... before any result exists.

By start numbers, by the organiser's seed numbers (pairs without one follow the seeded ones in
start-number order, so a late entry need not be seeded), by rating (the higher first, equal
ratings in start-number order), or by a random draw that a kept seed reproduces. The formats take the order as they expect it: the Swiss tour 1 pairs the top half
with the bottom half (:func:`tournaments.draw.swiss_first_tour`), the round robin gives Berger
numbers in this order (:func:`tournaments.draw.berger_schedule`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ._validate import require_unique
from .errors import DrawError, Problem, gettext_noop

#: The ways to seed, as the tournament stores them.
NUMBERS, SEEDS, RANDOM, RATING = "numbers", "seeds", "random", "rating"


@dataclass(frozen=True)
class Seeded:
    """A pair as the seeding sees it."""

    pair_id: int
    number: int
    """Start number."""
    seed: int | None = None
    """The organiser's seed number (1 first), or None."""
    rating: float | None = None
    """The pair's rating (tournaments.rating: the mean of its players'), for a seeding by rating."""


def seeding_order(pairs: Sequence[Seeded], method: str, random_seed: int | None = None) -> list[int]:
    """The pair ids in seeding order, best first. ``random_seed`` is required by, and only used
    by, the random draw: the same seed over the same pairs gives the same order."""
    require_unique([p.pair_id for p in pairs], "Pair")
    by_number = sorted(pairs, key=lambda p: p.number)
    if method == NUMBERS:
        return [p.pair_id for p in by_number]
    if method == SEEDS:
        taken = Counter(p.seed for p in pairs if p.seed is not None)
        twice = sorted(seed for seed, count in taken.items() if count > 1)
        if twice:
            raise DrawError(*(Problem(gettext_noop("Seed %(seed)s is given to more than one pair."), seed=seed)
                               for seed in twice))
        return [p.pair_id for p in sorted(by_number, key=lambda p: (p.seed is None, p.seed or 0))]
    if method == RATING:
        unrated = [p.number for p in by_number if p.rating is None]
        if unrated:
            raise DrawError(*(Problem(gettext_noop("Pair %(number)s has no rating to seed by."), number=number)
                              for number in unrated))
        return [p.pair_id for p in sorted(by_number, key=lambda p: -(p.rating or 0.0))]
    if method == RANDOM:
        if random_seed is None:
            raise DrawError("A random seeding needs its seed.")
        ids = [p.pair_id for p in by_number]
        random.Random(random_seed).shuffle(ids)
        return ids
    raise DrawError(f"Unknown seeding: {method}.")
