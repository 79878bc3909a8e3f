"""The metrics of the standings (RULES 8): each a small class, after Tabbycat's
``standings/metrics.py``; the regulations' ``standings`` setting lists their keys in order of
precedence, and :func:`rank` orders the rows by them."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from typing import ClassVar, Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine import PointsWin, Regulations
from scoring.engine.regulations import STANDINGS_BY_GAME


@dataclass
class Row:
    """One line of the standings: a pair (``key`` is its id) or a player (his id)."""

    key: int
    played: int = 0
    wins: int = 0
    byes: int = 0
    #: ``win_points`` a won partition, ``bye_points`` a bye (RULES 8).
    tournament_points: int = 0
    points_for: int = 0
    points_against: int = 0
    penalties: int = 0
    #: Goat and Sea Goat (RULES 9.1, 9.2), summed over the sittings: game points, games in which
    #: he was a goat, score (Goat: charged; Sea Goat: credited), games won.
    game_points: int = 0
    goats: int = 0
    score: int = 0
    games_won: int = 0
    #: One entry per partition: the opponents' keys and whether this entrant won.
    meetings: list[tuple[tuple[int, ...], bool]] = field(default_factory=list)
    metrics: dict[str, int] = field(default_factory=dict)
    rank: int = 0

    @property
    def losses(self) -> int:
        return self.played - (self.wins - self.byes)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def opponents(self) -> list[int]:
        return [o for keys, _won in self.meetings for o in keys]


class Metric:
    """A column of the standings and a criterion of their order."""

    key: ClassVar[str]
    name: ClassVar[str | Promise]  # a lazy translation
    higher_is_better: ClassVar[bool] = True
    #: The field of :class:`Row` the metric is, for the metrics that are one.
    attribute: ClassVar[str]

    def values(self, group: list[Row], rows: dict[int, Row]) -> dict[int, int]:
        """The metric of each row of ``group`` (a set of rows tied so far)."""
        return {r.key: self.value(r, rows) for r in group}

    def value(self, row: Row, rows: dict[int, Row]) -> int:
        return getattr(row, self.attribute)


class TournamentPoints(Metric):
    """The first metric of RULES 8: with the default regulations, the wins."""

    key, name = "tournament_points", _("Tournament points")
    attribute = "tournament_points"


class Wins(Metric):
    key, name = "wins", _("Wins")
    attribute = "wins"


class PointsDifference(Metric):
    key, name = "points_difference", _("Points difference")
    attribute = "points_difference"


class PointsFor(Metric):
    key, name = "points_for", _("Points for")
    attribute = "points_for"


class PointsAgainst(Metric):
    key, name, higher_is_better = "points_against", _("Points against"), False
    attribute = "points_against"


class Penalties(Metric):
    key, name, higher_is_better = "penalties", _("Penalties"), False
    attribute = "penalties"


class Buchholz(Metric):
    """The sum of the opponents' wins: who had the harder draw."""

    key, name = "buchholz", _("Buchholz")

    def value(self, row, rows):
        return sum(rows[o].wins for o in row.opponents if o in rows)


class HeadToHead(Metric):
    """Among entrants still tied, the partitions won against each other."""

    key, name = "head_to_head", _("Head-to-head")

    def values(self, group, rows):
        members = {r.key for r in group}
        return {r.key: sum(1 for keys, won in r.meetings if won and members.intersection(keys)) for r in group}


class GamePoints(Metric):
    """Goat: the game points of the online rating, summed (RULES 9.1)."""

    key, name = "game_points", _("Game points")
    attribute = "game_points"


class Goats(Metric):
    """Goat: the games in which he was a goat."""

    key, name, higher_is_better = "goats", _("Goats"), False
    attribute = "goats"


class TotalScore(Metric):
    """Goat: the points charged to him in all his games (points are bad there)."""

    key, name, higher_is_better = "total_score", _("Total score"), False
    attribute = "score"


class GamesWon(Metric):
    """Sea Goat and points: the games won (RULES 9.2, 9.3)."""

    key, name = "games_won", _("Games won")
    attribute = "games_won"


class PointsWon(Metric):
    """Sea Goat: the points credited in all the games."""

    key, name = "points_won", _("Points")
    attribute = "score"


class PointsScored(Metric):
    """Points game: the points scored in all the games, the higher first (``points_win``
    highest, RULES 9.3)."""

    key, name = "points_scored", _("Points scored")
    attribute = "score"


class PointsScoredLowFirst(PointsScored):
    """Points game won by the lowest score (``points_win`` lowest): the lower first."""

    higher_is_better = False


METRICS: dict[str, Metric] = {m.key: m for m in (TournamentPoints(), Wins(), PointsDifference(), PointsFor(),
                                                   PointsAgainst(), Penalties(), Buchholz(), HeadToHead())}
#: The metrics of Goat, Sea Goat and points, in their default order (the regulations' ``standings``).
GOAT_METRICS: dict[str, Metric] = {m.key: m for m in (GamePoints(), Goats(), TotalScore())}
SEA_GOAT_METRICS: dict[str, Metric] = {m.key: m for m in (GamesWon(), PointsWon())}
POINTS_METRICS: dict[str, Metric] = {m.key: m for m in (GamesWon(), PointsScored())}
POINTS_LOWEST_METRICS: dict[str, Metric] = {m.key: m for m in (GamesWon(), PointsScoredLowFirst())}
#: Every metric by its key, each game's taken by the keys its standings may use (the engine's
#: STANDINGS_BY_GAME).
_EVERY: dict[str, Metric] = {**METRICS, **GOAT_METRICS, **SEA_GOAT_METRICS, **POINTS_METRICS}


def metrics_of(rules: Regulations) -> dict[str, Metric]:
    """The metrics of the standings of a game (the regulations' ``game``; points: the order of
    ``points_win``)."""
    every = {**_EVERY, **POINTS_LOWEST_METRICS} if rules.points_win == PointsWin.LOWEST else _EVERY
    return {key: every[key] for key in STANDINGS_BY_GAME[rules.game]}


def rank(rows: dict[int, Row], precedence: Iterable[str], order: dict[int, int] | None = None,
         metrics: dict[str, Metric] = METRICS) -> list[Row]:
    """Rows in standings order: by each metric of ``precedence`` in turn, among the rows still
    tied; rows tied on all of them share a rank. ``order`` (key -> position, e.g. start numbers)
    lists tied rows in a stable order. Every row's ``metrics`` holds every metric's value (of
    ``metrics``: the game's, :func:`metrics_of`)."""
    precedence = list(precedence)
    for metric in metrics.values():
        if metric.key != HeadToHead.key:
            for key, value in metric.values(list(rows.values()), rows).items():
                rows[key].metrics[metric.key] = value

    def split(group: list[Row], level: int) -> list[list[Row]]:
        if level == len(precedence) or len(group) < 2:
            return [group]
        metric = metrics[precedence[level]]
        values = metric.values(group, rows)
        for row in group:
            row.metrics[metric.key] = values[row.key]
        sign = -1 if metric.higher_is_better else 1
        group = sorted(group, key=lambda r: sign * values[r.key])
        return [tied for _v, sub in groupby(group, key=lambda r: values[r.key]) for tied in split(list(sub), level + 1)]

    start = sorted(rows.values(), key=lambda r: (order or {}).get(r.key, r.key))
    ranked: list[Row] = []
    for group in split(start, 0):
        for row in group:
            row.rank = len(ranked) + 1
        ranked.extend(group)
    if HeadToHead.key in metrics:
        for row in rows.values():
            row.metrics.setdefault(HeadToHead.key, 0)
    return ranked
