"""Swiss draw: pairs with equal wins meet, no repeat meeting while avoidable, a fair bye.

The whole tour, bye included, is one minimum-cost perfect matching. With an odd number of pairs
a dummy vertex stands for the bye, so the bye is chosen together with the tables instead of
being fixed first and leaving the rest unpairable. Costs are lexicographic, highest first:

1. a repeat meeting (per table);
2. a second bye for a pair that already had one (only while someone else can take it);
3. the bye's height: one unit per pair placed below the pair that gets it, so it goes to the
   lowest pair without a bye;
4. the score gap ``|wins difference|`` (per table): pairs meet in their score group and float
   only as far as needed;
5. the squared score gap: of equal gaps, two floats of one win beat one float of two;
6. the squared rank distance: within a score group neighbours in the standings meet
   (1 v 2, 3 v 4, ..., the Monrad system), and a blocked pair goes to its nearest free place.

A repeat therefore costs more than any amount of score difference and a draw is always optimal
in the number of repeats it leaves. Putting the bye above the score gap keeps the leader from
"paying" the score difference with the bye. A repeat meeting ranks above a second bye because
the rules forbid repeats outright and the bye only "at most once"; the two collide only in
tiny events.

Pairs are laid along a line by wins (standings order among equal wins) and linked to the next
``4t + 2`` pairs, t being the most opponents any pair has had. ``_matching`` proves that this
band loses nothing against the complete graph when the standings are sorted by wins first
(the default precedence); for other precedences it is still exact in tiers 1 to 5.

The standings order itself is input: this module never ranks pairs.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ._matching import band_for, min_cost_perfect_matching, tier_weights
from ._validate import require_known, require_known_pairs, require_unique
from .errors import DrawError


@dataclass(frozen=True)
class SwissEntrant:
    """A pair as the standings see it before the tour."""

    pair_id: int
    wins: int
    rank: int
    """Place in the standings from 1; pairs tied after every metric share a rank."""


@dataclass(frozen=True)
class SwissDraw:
    """One Swiss tour."""

    tables: tuple[tuple[int, int], ...]
    """Board order, top table first; the higher-placed pair is first (seats 1 and 3)."""
    bye: int | None


def swiss_tour(
    standings: Sequence[SwissEntrant],
    met: Collection[frozenset[int]] = frozenset(),
    had_bye: Collection[int] = frozenset(),
) -> SwissDraw:
    """Draw a Swiss tour.

    ``standings`` lists every pair taking part, best first; ``met`` holds the pairs of pair ids
    that have already met; ``had_bye`` the pair ids that already had a bye. Withdrawn pairs must
    be left out of all three.
    """
    _check(standings, met, had_bye)
    count = len(standings)
    index = {entrant.pair_id: place for place, entrant in enumerate(standings)}
    opponents: list[set[int]] = [set() for _ in standings]
    for meeting in met:
        a, b = (index[pair_id] for pair_id in meeting)
        opponents[a].add(b)
        opponents[b].add(a)

    wins = [entrant.wins for entrant in standings]
    ranks = [entrant.rank for entrant in standings]
    line = sorted(range(count), key=lambda place: (-wins[place], place))
    band = band_for(max(len(o) for o in opponents))

    tables = count // 2
    win_span = max(wins) - min(wins)
    rank_span = ranks[-1] - ranks[0]
    rank_weight, float_weight, gap_weight, height_weight, second_bye_weight, repeat_weight = (
        tier_weights(
            [
                tables * rank_span**2,
                tables * win_span**2,
                tables * win_span,
                count - 1,
                1,
                tables,
            ]
        )
    )

    # Vertices are positions on the line; the bye, if any, is vertex `count`.
    edges: list[tuple[int, int, int]] = []
    for a in range(count):
        i = line[a]
        for b in range(a + 1, min(count, a + band + 1)):
            j = line[b]
            gap = wins[i] - wins[j]
            distance = ranks[i] - ranks[j]
            cost = (
                (j in opponents[i]) * repeat_weight
                + abs(gap) * gap_weight
                + gap * gap * float_weight
                + distance * distance * rank_weight
            )
            edges.append((a, b, cost))
    if count % 2:
        bye_ids = set(had_bye)
        for a, place in enumerate(line):
            cost = (standings[place].pair_id in bye_ids) * second_bye_weight + (
                count - 1 - place
            ) * height_weight
            edges.append((a, count, cost))

    bye: int | None = None
    boards: list[tuple[int, int]] = []
    for a, b in min_cost_perfect_matching(count + count % 2, edges):
        if b == count:
            bye = standings[line[a]].pair_id
        else:
            boards.append((min(line[a], line[b]), max(line[a], line[b])))
    boards.sort()
    return SwissDraw(
        tables=tuple((standings[i].pair_id, standings[j].pair_id) for i, j in boards),
        bye=bye,
    )


def swiss_first_tour(order: Sequence[int]) -> SwissDraw:
    """The first Swiss tour, before any result: the top half of the seeding ``order`` (pair ids,
    best first) meets the bottom half, 1 v n/2+1, 2 v n/2+2, ...; with an odd count the last
    seed has the bye, as the lowest pair of the standings would."""
    if len(order) < 2:
        raise DrawError("A Swiss tour needs at least two pairs.")
    require_unique(order, "Pair")
    playing = order[: len(order) - len(order) % 2]
    half = len(playing) // 2
    return SwissDraw(
        tables=tuple(zip(playing[:half], playing[half:])),
        bye=order[-1] if len(order) % 2 else None,
    )


def _check(
    standings: Sequence[SwissEntrant],
    met: Collection[frozenset[int]],
    had_bye: Collection[int],
) -> None:
    if len(standings) < 2:
        raise DrawError("A Swiss tour needs at least two pairs.")
    ids = [entrant.pair_id for entrant in standings]
    require_unique(ids, "Pair")
    problems = [
        f"Pair {entrant.pair_id} has {entrant.wins} wins; wins cannot be negative."
        for entrant in standings
        if entrant.wins < 0
    ]
    problems.extend(
        f"The standings must be in rank order: pair {after.pair_id} (rank {after.rank}) "
        f"comes after pair {before.pair_id} (rank {before.rank})."
        for before, after in zip(standings, standings[1:])
        if after.rank < before.rank
    )
    if problems:
        raise DrawError(*problems)
    known = set(ids)
    require_known_pairs(met, known, "The meeting history", "pair")
    require_known(had_bye, known, "The bye history", "pair")
