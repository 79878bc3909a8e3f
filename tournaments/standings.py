"""Standings of pairs and players (RULES 8), ordered by the tournament's precedence of metrics.

Each metric is a small class (after Tabbycat's ``standings/metrics.py``); the regulations'
``standings`` setting lists metric keys in order of precedence. The sums are computed in the
database (grouped queries, a handful whatever the size of the event); the metrics that compare
entrants with each other (Buchholz, head-to-head) are computed from the list of meetings.

"After tour N" counts the finished partitions of tours 1..N: the standings as they stood then.
Without a tour, every finished partition counts: the live standings during a tour.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, ClassVar, Iterable

from django.db.models import Count, Q, QuerySet, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models import Partition

from .models import Bye, Entry, Pair, Tournament


@dataclass
class Row:
    """One line of the standings: a pair (``key`` is its id) or a player (his id)."""

    key: int
    played: int = 0
    wins: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    penalties: int = 0
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

    def values(self, group: list[Row], rows: dict[int, Row]) -> dict[int, int]:
        """The metric of each row of ``group`` (a set of rows tied so far)."""
        return {r.key: self.value(r, rows) for r in group}

    def value(self, row: Row, rows: dict[int, Row]) -> int:
        raise NotImplementedError


class Wins(Metric):
    key, name = "wins", _("Wins")

    def value(self, row, rows):
        return row.wins


class PointsDifference(Metric):
    key, name = "points_difference", _("Points difference")

    def value(self, row, rows):
        return row.points_difference


class PointsFor(Metric):
    key, name = "points_for", _("Points for")

    def value(self, row, rows):
        return row.points_for


class PointsAgainst(Metric):
    key, name, higher_is_better = "points_against", _("Points against"), False

    def value(self, row, rows):
        return row.points_against


class Penalties(Metric):
    key, name, higher_is_better = "penalties", _("Penalties"), False

    def value(self, row, rows):
        return row.penalties


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


METRICS: dict[str, Metric] = {m.key: m for m in (Wins(), PointsDifference(), PointsFor(), PointsAgainst(),
                                                   Penalties(), Buchholz(), HeadToHead())}


def rank(rows: dict[int, Row], precedence: Iterable[str], order: dict[int, int] | None = None) -> list[Row]:
    """Rows in standings order: by each metric of ``precedence`` in turn, among the rows still
    tied; rows tied on all of them share a rank. ``order`` (key -> position, e.g. start numbers)
    lists tied rows in a stable order. Every row's ``metrics`` holds every metric's value."""
    precedence = list(precedence)
    for metric in METRICS.values():
        if metric.key != HeadToHead.key:
            for key, value in metric.values(list(rows.values()), rows).items():
                rows[key].metrics[metric.key] = value

    def split(group: list[Row], level: int) -> list[list[Row]]:
        if level == len(precedence) or len(group) < 2:
            return [group]
        metric = METRICS[precedence[level]]
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
    for row in rows.values():
        row.metrics.setdefault(HeadToHead.key, 0)
    return ranked


def _finished(tournament: Tournament, after_tour: int | None) -> QuerySet[Partition]:
    partitions = Partition.objects.filter(table__tour__tournament=tournament, status=Partition.Status.FINISHED)
    if after_tour is not None:
        partitions = partitions.filter(table__tour__number__lte=after_tour)
    return partitions


def _add_byes(tournament: Tournament, rows: dict[int, Row], after_tour: int | None, members: dict[int, tuple[int, ...]]) -> None:
    """A bye is a win with ``bye_points``:0 (RULES 8) for the pair, or for both its players."""
    byes = Bye.objects.filter(tour__tournament=tournament)
    if after_tour is not None:
        byes = byes.filter(tour__number__lte=after_tour)
    points = tournament.rules.bye_points
    for pair_id in byes.values_list("pair_id", flat=True):
        for key in members.get(pair_id, ()):
            if key in rows:
                rows[key].wins += 1
                rows[key].byes += 1
                rows[key].points_for += points


def _sums(partitions: QuerySet[Partition], rows: dict[int, Row], sides: dict[str, str]) -> None:
    """Add the grouped sums of ``partitions`` to ``rows``: ``sides`` maps a column that names the
    entrant (``table__pair_a``, ``table__seat1``, ...) to the side (``"a"``/``"b"``) he played."""
    for column, side in sides.items():
        other = "b" if side == "a" else "a"
        grouped = partitions.values(column).annotate(
            played=Count("pk"), won=Count("pk", filter=Q(winner=side.upper())),
            scored=Sum(f"points_{side}"), conceded=Sum(f"points_{other}"), penalised=Sum(f"penalties_{side}"))
        for g in grouped:
            row = rows.get(g[column])
            if row is not None:
                row.played += g["played"]
                row.wins += g["won"]
                row.points_for += g["scored"]
                row.points_against += g["conceded"]
                row.penalties += g["penalised"]


def pair_standings(tournament: Tournament, after_tour: int | None = None) -> list[Row]:
    """Standings of the fixed pairs of a pair event (withdrawn pairs keep their line)."""
    pairs = dict(Pair.objects.filter(tournament=tournament, tour__isnull=True).values_list("pk", "number"))
    rows = {pk: Row(pk) for pk in pairs}
    partitions = _finished(tournament, after_tour)
    _sums(partitions, rows, {"table__pair_a": "a", "table__pair_b": "b"})
    for a, b, winner in partitions.values_list("table__pair_a", "table__pair_b", "winner"):
        if a in rows:
            rows[a].meetings.append(((b,), winner == "A"))
        if b in rows:
            rows[b].meetings.append(((a,), winner == "B"))
    _add_byes(tournament, rows, after_tour, {pk: (pk,) for pk in pairs})
    return rank(rows, tournament.rules.standings, pairs)


def player_standings(tournament: Tournament, after_tour: int | None = None) -> list[Row]:
    """Standings of players: each gets his pair's partition results (RULES 8)."""
    players = list(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    rows = {pk: Row(pk) for pk in players}
    partitions = _finished(tournament, after_tour)
    _sums(partitions, rows, {"table__seat1": "a", "table__seat3": "a", "table__seat2": "b", "table__seat4": "b"})
    for s1, s2, s3, s4, winner in partitions.values_list(
            "table__seat1", "table__seat2", "table__seat3", "table__seat4", "winner"):
        for me, opponents, won in ((s1, (s2, s4), winner == "A"), (s3, (s2, s4), winner == "A"),
                                   (s2, (s1, s3), winner == "B"), (s4, (s1, s3), winner == "B")):
            if me in rows:
                rows[me].meetings.append((opponents, won))
    members: dict[int, tuple[int, ...]] = defaultdict(tuple)
    for pair_id, first, second in Pair.objects.filter(tournament=tournament).values_list("pk", "first", "second"):
        members[pair_id] = (first, second)
    _add_byes(tournament, rows, after_tour, members)
    return rank(rows, tournament.rules.standings)


# -- the columns of the standings pages and their CSV export ----------------------------------------


@dataclass(frozen=True)
class Column:
    """A number column of the standings: ``ordering`` if it is one of the metrics the standings
    are ordered by (they come first, in the tournament's precedence)."""

    key: str
    name: str | Promise
    ordering: bool


#: What a line shows besides the ordering metrics.
COUNTS = (("played", _("Played")), ("wins", _("Wins")), ("losses", _("Losses")),
          ("points_for", _("Points for")), ("points_against", _("Points against")))


def columns(tournament: Tournament) -> list[Column]:
    """The metrics in the tournament's precedence, then played, wins, losses and points."""
    precedence = tournament.rules.standings
    ordered = [Column(key, METRICS[key].name, True) for key in precedence]
    return ordered + [Column(key, name, False) for key, name in COUNTS if key not in precedence]


def value(row: Row, key: str) -> int:
    """The value of column ``key`` in ``row``."""
    return row.metrics[key] if key in row.metrics else getattr(row, key)


#: The number columns of the CSV export, the same for pairs and players, whatever the precedence.
CSV_NUMBERS = ("played", "wins", "losses", "byes", "points_for", "points_against", "points_difference",
               "penalties", "buchholz", "head_to_head")


def csv_header(kind: str) -> list[str]:
    """The header of the CSV export in the current language; ``kind`` is ``"pairs"`` or ``"players"``."""
    entrant = [gettext("Start number"), gettext("Players")] if kind == "pairs" else [gettext("Player"), gettext("Club")]
    return [gettext("Rank"), *entrant, gettext("Played"), gettext("Wins"), gettext("Losses"), gettext("Byes"),
            gettext("Points for"), gettext("Points against"), gettext("Points difference"), gettext("Penalties"),
            gettext("Buchholz"), gettext("Head-to-head")]


def player_name(last_name: str, first_name: str) -> str:
    return f"{last_name} {first_name}".strip()


#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A text cell a spreadsheet would take for a formula, neutralised by a leading apostrophe
    (shown as text, not run); numbers stay numbers, negative ones included."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def standings_csv(kind: str, lines: Iterable[tuple[int, list[Any], Any]]) -> bytes:
    """The standings as a spreadsheet, for the pages and the API alike: UTF-8 with a byte order
    mark, ``;`` between the columns (as a Russian Excel opens it), the header in the current
    language; a text cell that starts like a formula gets a leading apostrophe. Each line is
    (rank, the entrant's cells — start number and the players' names
    joined by ", " for a pair, name and club for a player — and the values by key: a mapping or
    a :class:`Row`)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(csv_header(kind))
    for rank_, entrant, values in lines:
        get = values.get if isinstance(values, Mapping) else (lambda key: value(values, key))
        writer.writerow([_cell(c) for c in (rank_, *entrant, *(get(key) for key in CSV_NUMBERS))])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def csv_lines(kind: str, ranked: list[Row], entrants: dict) -> list[tuple[int, list[Any], Row]]:
    """The lines of :func:`standings_csv` for ranked rows and their pairs or players (models)."""
    lines = []
    for row in ranked:
        who = entrants[row.key]
        if kind == "pairs":
            cells = [who.number, ", ".join(player_name(p.last_name, p.first_name) for p in who.players)]
        else:
            cells = [player_name(who.last_name, who.first_name), who.club]
        lines.append((row.rank, cells, row))
    return lines
