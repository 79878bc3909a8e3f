"""Pair results read from finished partitions: what the Swiss draw ranks by.

This is the one place the draw gets its order from; the standings module of the results issue
replaces :func:`ranked_pairs` with the full precedence of metrics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from scoring.models import Partition

from .models import Bye, Pair, Tournament


@dataclass
class PairResult:
    pair_id: int
    wins: int = 0
    points_for: int = 0
    points_against: int = 0
    opponents: list[int] = field(default_factory=list)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def pair_results(tournament: Tournament, before_tour: int | None = None) -> dict[int, PairResult]:
    """Wins and points of every fixed pair over the finished partitions (and byes) of the tours
    numbered below ``before_tour`` (all tours when ``None``). Three queries, whatever the size."""
    results = {pid: PairResult(pid) for pid in
               Pair.objects.filter(tournament=tournament, tour__isnull=True).values_list("pk", flat=True)}
    tours = Q(table__tour__tournament=tournament)
    if before_tour is not None:
        tours &= Q(table__tour__number__lt=before_tour)
    finished = Partition.objects.filter(tours, status=Partition.Status.FINISHED)
    for side, other in (("a", "b"), ("b", "a")):
        rows = finished.values(f"table__pair_{side}", f"table__pair_{other}").annotate(
            won=Count("pk", filter=Q(winner=side.upper())),
            scored=Sum(f"points_{side}"), conceded=Sum(f"points_{other}"))
        for row in rows:
            result = results.get(row[f"table__pair_{side}"])
            if result is None:
                continue
            result.wins += row["won"]
            result.points_for += row["scored"]
            result.points_against += row["conceded"]
            result.opponents.append(row[f"table__pair_{other}"])
    byes = Bye.objects.filter(tour__tournament=tournament)
    if before_tour is not None:
        byes = byes.filter(tour__number__lt=before_tour)
    points = tournament.rules.bye_points
    for pair_id in byes.values_list("pair_id", flat=True):
        results[pair_id].wins += 1
        results[pair_id].points_for += points
    return results


def ranked_pairs(tournament: Tournament, before_tour: int | None = None) -> list[PairResult]:
    """Pairs in standings order: wins, then points difference, then points for, then start
    number (a stable order for pairs level on everything)."""
    results = pair_results(tournament, before_tour)
    numbers = dict(Pair.objects.filter(pk__in=results).values_list("pk", "number"))
    return sorted(results.values(),
                  key=lambda r: (-r.wins, -r.points_difference, -r.points_for, numbers[r.pair_id]))
