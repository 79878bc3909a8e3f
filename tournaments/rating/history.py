"""A player's rating history, per game family, and its chart: drawn on the server as SVG (the
template ``tournaments/includes/rating_chart.html``), so the player page needs no script."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from itertools import groupby

from tournaments.models import Player, Rating, RatingChange, RatingFamily, Tournament


@dataclass(frozen=True)
class Point:
    """A player's rating after one tournament of a family."""

    when: datetime.datetime  # the start of the tour of his last rated partition there
    tournament: Tournament
    rating: float  # after his last rated partition (sitting) of the tournament
    partitions: int  # rated in that tournament


# The chart's drawing box (SVG user units): about a phone's width, so its text stays readable
# there at 1:1; wider screens scale it up to the page's measure.
WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    point: Point


@dataclass(frozen=True)
class Gridline:
    y: float
    label: int


@dataclass
class FamilyHistory:
    """One family's history: the points (oldest first), the rating now, and the chart's shapes."""

    family: RatingFamily
    points: list[Point]
    rating: Rating | None
    start: float  # the rating before the first point (a newcomer's)
    dots: list[Dot] = field(default_factory=list)
    grid: list[Gridline] = field(default_factory=list)
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    baseline: int = HEIGHT - BOTTOM

    @property
    def label(self) -> str:
        return str(self.family.label)

    @property
    def polyline(self) -> str:
        """The SVG ``points`` of the line through the dots."""
        return " ".join(f"{d.x:.1f},{d.y:.1f}" for d in self.dots)

    @property
    def first(self) -> Point:
        return self.points[0]

    @property
    def last(self) -> Point:
        return self.points[-1]


def _draw(history: FamilyHistory) -> None:
    """Place the dots, evenly by tournament, and three gridlines spanning the ratings."""
    values = [history.start, *(p.rating for p in history.points)]
    low, high = min(values), max(values)
    # A round step that spans the ratings in at most three intervals.
    step = next((s for s in STEPS if (high - low) / s <= 3), STEPS[-1] * (1 + int((high - low) // (3 * STEPS[-1]))))
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    count = len(history.points)
    history.dots = [Dot(LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2), y(p.rating), p)
                    for i, p in enumerate(history.points)]
    history.grid = [Gridline(y(v), v) for v in range(int(low), int(high) + 1, int(step))]


def rating_history(player: Player) -> list[FamilyHistory]:
    """The families the player is rated in (sports, Goat, Sea Goat order), each with one point
    per tournament: when, the tournament, the rating after it and the partitions rated in it."""
    ratings = {r.family: r for r in Rating.objects.filter(player=player)}
    changes = (RatingChange.objects.filter(player=player).select_related("tournament")
               .order_by("family", "order"))
    by_family: dict[str, list[RatingChange]] = {}
    for change in changes:
        by_family.setdefault(change.family, []).append(change)
    histories = []
    for family in RatingFamily:
        rows = by_family.get(family)
        if not rows:
            continue
        points = []
        for _tournament, group in groupby(rows, key=lambda c: c.tournament_id):
            played = list(group)
            points.append(Point(played[-1].at, played[-1].tournament, played[-1].after, len(played)))
        history = FamilyHistory(family, points, ratings.get(family), rows[0].before)
        _draw(history)
        histories.append(history)
    return histories
