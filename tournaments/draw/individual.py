"""Individual draw: four players per table, partners and opponents change every tour.

Seats 1 and 3 are one pair, seats 2 and 4 the other (RULES.md section 2). The tour is built by
two minimum-cost perfect matchings along a line, with lexicographic costs:

1. partners: players are matched into pairs; a repeat partner costs more than anything else,
   then the score gap between partners, then the squared distance between them on the line;
2. tables: those pairs are matched two by two; repeat opponent meetings (summed over the four
   opponent couples, counting earlier meetings) cost more than anything else, then the gap
   between the pairs' combined scores, then the squared distance on the line of pairs.

The line orders players by score, best first, ties (and everything, without scores) in a
random order drawn from ``seed``, so a draw is reproducible but tours differ when the seed
does. Each matching is exact in its repeat and score tiers: a band of ``QUICK_BAND`` places is
tried first and kept when it reaches the lower bound of both tiers (no repeat, and the score
gap of pairing neighbours on the line); otherwise the band ``_matching`` proves exact is used.
So a repeat partner appears only when no pairing of the players avoids it (with fewer than
m/2 earlier partners each, m playing, Dirac's theorem guarantees one does). Opponents are
minimised for the partners chosen in step 1, not over all seatings together, and the nearest
place tie-break is optimal within the band used.

When the count is not a multiple of four the remainder sits out: fewest sit-outs so far first,
then the lowest score, then the random order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ._matching import band_for, min_cost_perfect_matching, tier_weights
from ._validate import require_known, require_known_pairs, require_scores, require_unique
from .errors import DrawError

QUICK_BAND = 16
"""Band tried first; wide enough to settle nearly every tour of a large event."""

Seats = tuple[int, int, int, int]
"""Player ids in seats 1 to 4: seats 1 and 3 are partners, so are seats 2 and 4."""


@dataclass(frozen=True)
class IndividualDraw:
    """One individual tour."""

    tables: tuple[Seats, ...]
    """Highest scores first."""
    sitting_out: tuple[int, ...]


def individual_tour(
    players: Sequence[int],
    partners: Mapping[frozenset[int], int] | None = None,
    opponents: Mapping[frozenset[int], int] | None = None,
    *,
    sit_outs: Mapping[int, int] | None = None,
    scores: Mapping[int, int] | None = None,
    seed: int = 0,
) -> IndividualDraw:
    """Draw an individual tour.

    ``partners`` and ``opponents`` count earlier tours in which two players were partners,
    respectively opponents; ``sit_outs`` counts each player's earlier sit-outs. ``scores``
    (integers, e.g. wins) put players of similar score together; every player needs one.
    Vary ``seed`` from tour to tour (e.g. derive it from the tour number).
    """
    partners = partners or Counter()
    opponents = opponents or Counter()
    sit_outs = sit_outs or Counter()
    _check(players, partners, opponents, sit_outs, scores)
    score = {player: 0 for player in players} if scores is None else dict(scores)
    shuffle = random.Random(seed)
    lot = {player: shuffle.random() for player in players}

    resting = len(players) % 4
    by_rest_claim = sorted(players, key=lambda p: (sit_outs.get(p, 0), score[p], lot[p]))
    sitting_out = by_rest_claim[:resting]
    line = sorted(by_rest_claim[resting:], key=lambda p: (-score[p], lot[p]))

    pairs = [
        (line[a], line[b])
        for a, b in _match_along([(p,) for p in line], [score[p] for p in line], partners)
    ]
    place = {player: k for k, player in enumerate(line)}
    pairs.sort(key=lambda pair: (-score[pair[0]] - score[pair[1]], place[pair[0]]))
    pair_scores = [score[a] + score[b] for a, b in pairs]
    tables = tuple(
        (pairs[a][0], pairs[b][0], pairs[a][1], pairs[b][1])
        for a, b in _match_along(pairs, pair_scores, opponents)
    )
    return IndividualDraw(tables=tables, sitting_out=tuple(sitting_out))


def _match_along(
    groups: Sequence[tuple[int, ...]],
    scores: list[int],
    meetings: Mapping[frozenset[int], int],
) -> list[tuple[int, int]]:
    """Match ``groups`` of players (single players or pairs) two by two.

    ``groups`` lie on the line in order with non-increasing ``scores``; two groups have as many
    repeats as ``meetings`` counts between their members. Returns index pairs ``(a, b)`` with
    ``a < b``, sorted.
    """
    count = len(groups)
    group_of = {player: k for k, group in enumerate(groups) for player in group}
    # Per group, the other groups its members met before and how often; members of one group
    # are never charged for meeting each other (former opponents may well become partners).
    conflicts: list[dict[int, int]] = [{} for _ in groups]
    for meeting, times in meetings.items():
        a, b = (group_of.get(player) for player in meeting)
        if a is not None and b is not None and a != b:
            conflicts[a][b] = conflicts[a].get(b, 0) + times
            conflicts[b][a] = conflicts[b].get(a, 0) + times
    proven_band = band_for(max(len(c) for c in conflicts))
    spread = scores[0] - scores[-1]
    most_repeats = max((times for c in conflicts for times in c.values()), default=0)
    # Pairing neighbours on the line reaches the least score gap any matching can have.
    least_gap = sum(scores[k] - scores[k + 1] for k in range(0, count, 2))

    def solve(band: int) -> list[tuple[int, int]]:
        place_weight, gap_weight, repeat_weight = tier_weights(
            [count // 2 * band**2, count // 2 * spread, count // 2 * most_repeats]
        )
        edges = []
        for a in range(count):
            met, score = conflicts[a], scores[a]
            for b in range(a + 1, min(count, a + band + 1)):
                cost = (
                    met.get(b, 0) * repeat_weight
                    + (score - scores[b]) * gap_weight
                    + (b - a) ** 2 * place_weight
                )
                edges.append((a, b, cost))
        return min_cost_perfect_matching(count, edges)

    if proven_band <= QUICK_BAND:
        return solve(proven_band)
    matching = solve(QUICK_BAND)
    settled = not any(b in conflicts[a] for a, b in matching) and least_gap == sum(
        scores[a] - scores[b] for a, b in matching
    )
    return matching if settled else solve(proven_band)


def _check(
    players: Sequence[int],
    partners: Mapping[frozenset[int], int],
    opponents: Mapping[frozenset[int], int],
    sit_outs: Mapping[int, int],
    scores: Mapping[int, int] | None,
) -> None:
    if len(players) < 4:
        raise DrawError("An individual tour needs at least four players.")
    require_unique(players, "Player")
    known = set(players)
    require_known_pairs(partners, known, "The partner history", "player")
    require_known_pairs(opponents, known, "The opponent history", "player")
    require_known(sit_outs, known, "The sit-out history", "player")
    if scores is not None:
        require_scores(scores, known)
