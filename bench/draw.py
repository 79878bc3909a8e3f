"""Benchmark of the Swiss and individual draws; run as ``.venv/bin/python bench/draw.py``.

Each event is simulated with the draws themselves and random results, then the next tour is
timed (median of several runs, time.perf_counter) and its peak Python memory measured in a
separate run (tracemalloc; rustworkx's own Rust allocations are not traced).

Swiss "optimum" is the least total score gap (sum over tables of |wins difference|) among
seatings with the fewest repeat meetings, over the complete graph, ignoring byes, bye height
and the rank tie-breaks: pairing neighbours sorted by wins ignoring repeats gives a lower
bound, so when the draw reaches it with no repeat it is the optimum; otherwise (or always with
``--full-graph``) a min-cost matching on the complete graph is solved, which takes a minute and
several hundred MB at 2,000 pairs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import TypeVar

import rustworkx as rx

from tournaments.draw import IndividualDraw, SwissEntrant, individual_tour, swiss_tour

T = TypeVar("T")
RUNS = 5


def measure(draw: Callable[[], T]) -> tuple[T, float, float]:
    """The draw's result, median seconds over RUNS runs, and peak traced MiB of one more run."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        result = draw()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    draw()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, statistics.median(times), peak / 2**20


def swiss_event(
    pairs: int, tours: int, rng: random.Random
) -> tuple[list[SwissEntrant], set[frozenset[int]], set[int]]:
    """Standings, meetings and byes after ``tours`` Swiss tours with random winners."""
    wins = dict.fromkeys(range(1, pairs + 1), 0)
    points = dict.fromkeys(wins, 0)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()

    def standings() -> list[SwissEntrant]:
        order = sorted(wins, key=lambda p: (-wins[p], -points[p], p))
        return [SwissEntrant(p, wins[p], rank) for rank, p in enumerate(order, start=1)]

    for _ in range(tours):
        draw = swiss_tour(standings(), met, had_bye)
        for a, b in draw.tables:
            met.add(frozenset((a, b)))
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            wins[winner] += 1
            margin = rng.randint(1, 100)
            points[winner] += margin
            points[loser] -= margin
        if draw.bye is not None:
            had_bye.add(draw.bye)
            wins[draw.bye] += 1
    return standings(), met, had_bye


def full_graph_optimum(standings: list[SwissEntrant], met: set[frozenset[int]]) -> tuple[int, int]:
    """(repeats, score gap) of the best seating over the complete graph, repeats first."""
    wins = [e.wins for e in standings]
    repeat = len(standings) * (max(wins) - min(wins)) + 1  # above any total gap
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(standings)))
    ceiling = repeat * 2
    graph.add_edges_from(
        (
            a,
            b,
            ceiling
            - (frozenset((standings[a].pair_id, standings[b].pair_id)) in met) * repeat
            - abs(wins[a] - wins[b]),
        )
        for a, b in combinations(range(len(standings)), 2)
    )
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    repeats = sum(
        frozenset((standings[a].pair_id, standings[b].pair_id)) in met for a, b in matching
    )
    return repeats, sum(abs(wins[a] - wins[b]) for a, b in matching)


def bench_swiss(pairs: int, played: int, full_graph: bool) -> list[str]:
    standings, met, had_bye = swiss_event(pairs, played, random.Random(pairs))
    draw, seconds, mib = measure(lambda: swiss_tour(standings, met, had_bye))
    wins = {e.pair_id: e.wins for e in standings}
    repeats = sum(frozenset(t) in met for t in draw.tables)
    gap = sum(abs(wins[a] - wins[b]) for a, b in draw.tables)
    sorted_wins = sorted((e.wins for e in standings), reverse=True)
    bound = sum(sorted_wins[k] - sorted_wins[k + 1] for k in range(0, len(sorted_wins) - 1, 2))
    if full_graph or repeats or gap != bound:
        best_repeats, best_gap = full_graph_optimum(standings, met)
        how = "complete graph"
    else:
        best_repeats, best_gap, how = 0, bound, "lower bound reached"
    return [
        f"{pairs} pairs",
        str(played),
        f"{seconds:.3f}",
        f"{mib:.1f}",
        f"{repeats} (opt {best_repeats})",
        f"{gap} (opt {best_gap}, {how})",
    ]


Meetings = Counter[frozenset[int]]


def individual_event(
    players: int, tours: int, rng: random.Random
) -> tuple[list[int], Meetings, Meetings, Counter[int], dict[int, int]]:
    """Histories and wins after ``tours`` individual tours; seats 1-3 win at random."""
    ids = list(range(1, players + 1))
    partners: Meetings = Counter()
    opponents: Meetings = Counter()
    sit_outs: Counter[int] = Counter()
    wins = dict.fromkeys(ids, 0)
    for tour in range(1, tours + 1):
        draw = individual_tour(
            ids, partners, opponents, sit_outs=sit_outs, scores=wins, seed=tour
        )
        record(draw, partners, opponents, sit_outs)
        for a, b, c, d in draw.tables:
            for player in (a, c) if rng.random() < 0.5 else (b, d):
                wins[player] += 1
    return ids, partners, opponents, sit_outs, wins


def record(
    draw: IndividualDraw, partners: Meetings, opponents: Meetings, sit_outs: Counter[int]
) -> None:
    for a, b, c, d in draw.tables:
        partners.update((frozenset((a, c)), frozenset((b, d))))
        opponents.update(frozenset((x, y)) for x in (a, c) for y in (b, d))
    sit_outs.update(draw.sitting_out)


def bench_individual(players: int, played: int) -> list[str]:
    ids, partners, opponents, sit_outs, wins = individual_event(
        players, played, random.Random(players)
    )
    draw, seconds, mib = measure(
        lambda: individual_tour(
            ids, partners, opponents, sit_outs=sit_outs, scores=wins, seed=played + 1
        )
    )
    repeat_partners = sum(
        partners[frozenset(p)] > 0 for a, b, c, d in draw.tables for p in ((a, c), (b, d))
    )
    repeat_opponents = sum(
        opponents[frozenset((x, y))] > 0
        for a, b, c, d in draw.tables
        for x in (a, c)
        for y in (b, d)
    )
    return [
        f"{players} players",
        str(played),
        f"{seconds:.3f}",
        f"{mib:.1f}",
        str(repeat_partners),
        str(repeat_opponents),
    ]


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    lines = [header, ["-" * w for w in widths], *rows]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)) for line in lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--full-graph",
        action="store_true",
        help="always solve the complete graph for the Swiss optimum (slow at 2,000 pairs)",
    )
    args = parser.parse_args()

    print(f"Swiss: tour 7 after 6 random tours; time is the median of {RUNS} runs")
    print("opt = fewest repeats, then least sum of |wins difference|, over the complete graph")
    print(
        table(
            ["event", "played", "seconds", "peak MiB", "repeats", "score gap"],
            [bench_swiss(n, 6, args.full_graph) for n in (100, 500, 2000)],
        )
    )
    print()
    print(f"Individual (scores = wins): tour 10 after 9 tours; median of {RUNS} runs")
    print(
        table(
            ["event", "played", "seconds", "peak MiB", "repeat partners", "repeat opponents"],
            [bench_individual(n, 9) for n in (400, 2000)],
        )
    )


if __name__ == "__main__":
    main()
