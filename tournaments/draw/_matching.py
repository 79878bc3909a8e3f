"""Minimum-cost perfect matching on a band graph, shared by the Swiss and individual draws.

Both draws lay their vertices on a line (by wins or score) and link each vertex only to the
next ``band`` vertices. Their costs are lexicographic ("tiers"): a repeat tier, then terms
f(|x_u - x_v|) with f convex and non-decreasing and x a coordinate that is monotone along the
line (wins, score, rank, position); the Swiss bye edges lie off the line. For such costs an
uncrossing argument bounds how far an optimal matching needs to reach:

    Let t be the largest number of vertices any one vertex must not meet again ("conflicts").
    Suppose an optimal matching M holds an edge (i, j) with 4t + 2 or more vertices strictly
    between i and j. At least 2t + 1 other edges of M touch that interior (one interior vertex
    may be matched off the line, to the bye). Replacing (i, j) and such an edge (a, b) by
    (i, a), (b, j) or (i, b), (a, j) when (a, b) is nested inside, or by the two edges that join
    the nearer ends when it crosses, never raises such a cost and strictly lowers the sum of
    squared spans. A swap is barred only when a new edge would repeat a conflict, and each of
    the at most 2t conflicts of i and j bars at most one edge of M. So some swap is allowed,
    and the optimal matching with the least sum of squared spans reaches at most 4t + 2 places.

Hence ``band_for(t) = 4t + 2`` loses nothing against the complete graph, while the graph keeps
O(n * t) edges instead of O(n^2), which is what makes 2,000 entrants fit in a fraction of a
second.
"""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx as rx


def band_for(conflicts: int) -> int:
    """How many following vertices each vertex must be linked to for an exact solution."""
    return 4 * conflicts + 2


def tier_weights(maxima: Sequence[int]) -> tuple[int, ...]:
    """Multipliers that make costs lexicographic.

    ``maxima[k]`` is the largest total tier ``k`` can add up to over a whole matching, lowest
    tier first. One unit of any tier then outweighs all lower tiers together. Python integers
    are unbounded and rustworkx takes 128-bit weights, so the products need no scaling.
    """
    weights: list[int] = []
    reach = 0
    for maximum in maxima:
        weight = reach + 1
        weights.append(weight)
        reach += weight * maximum
    return tuple(weights)


def min_cost_perfect_matching(
    vertex_count: int, edges: list[tuple[int, int, int]]
) -> list[tuple[int, int]]:
    """The perfect matching of least total cost over ``edges`` given as ``(u, v, cost)``.

    Returns the matched ``(u, v)`` pairs with ``u < v``. Raises ``ValueError`` when the edges
    admit no perfect matching: the callers always supply one, so this is a programming error.
    """
    if vertex_count == 0:
        return []
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(vertex_count))
    graph.add_edges_from(edges)
    # rustworkx maximises, so a cost becomes a positive weight below a common ceiling;
    # max_cardinality makes every perfect matching beat every smaller one.
    ceiling = max(cost for _, _, cost in edges) + 1
    matching = rx.max_weight_matching(
        graph, max_cardinality=True, weight_fn=lambda cost: ceiling - cost
    )
    if 2 * len(matching) != vertex_count:
        raise ValueError("the graph has no perfect matching")
    return sorted((min(u, v), max(u, v)) for u, v in matching)
