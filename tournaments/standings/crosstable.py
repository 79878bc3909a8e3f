"""The crosstable of a tournament: every line of the standings, in their order, with what it did
in each tour (its table, partner, opponents, result and score), then the standings' own columns.
The totals and tie-breaks are the standings' values (:class:`.table.StandingsTable`), never
computed a second way; the cells come from the tables, byes and sit-outs of the counted tours.

Entrants are named by number: a pair by its start number; a player (who has none) by his line
in the crosstable, 1 for the first ranked. A round robin of pairs also gets the classic square
table (:attr:`Crosstable.square`): rows and columns by rank, each cell the partition between the
two, the diagonal blank.

Goat, Sea Goat and points (RULES 9) seat 2 to 4 at a table: a cell there is the table, the place
at it (ranked by the game's own metrics, as the standings rank the tournament) and the sitting's
first metric (Goat: game points; Sea Goat and points: games won).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.models import Partition, SeatResult
from tournaments.models import Bye, SitOut, Table, Tour, Tournament

from .metrics import Row, metrics_of, rank
from .table import Column, Line, StandingsTable, standings_table


class Result(StrEnum):
    """What an entrant's tour was."""

    WIN = "win"
    LOSS = "loss"
    #: Won because the opponents did not appear (RULES 5, no-show).
    WIN_BY_NO_SHOW = "win_by_no_show"
    #: Lost for not appearing.
    NO_SHOW = "no_show"
    BYE = "bye"
    #: An individual tour without a seat for him (players not a multiple of four).
    SIT_OUT = "sit_out"
    #: A tour after he withdrew (RULES 8: no bye or forfeit is invented).
    WITHDRAWN = "withdrawn"
    #: Goat, Sea Goat, points: a finished sitting (its place says how it went).
    PLAYED = "played"
    #: Drawn, the partition not finished yet.
    PLAYING = "playing"
    #: Not drawn in this tour (a manual draw left him out).
    NONE = "none"


#: Each result's mark in a cell and its name in the legend.
MARKS: dict[Result, tuple[str | Promise, str | Promise]] = {
    Result.WIN: (pgettext_lazy("crosstable", "W"), _("won")),
    Result.LOSS: (pgettext_lazy("crosstable", "L"), _("lost")),
    Result.WIN_BY_NO_SHOW: (pgettext_lazy("crosstable", "W n/s"), _("won: the opponents did not appear")),
    Result.NO_SHOW: (pgettext_lazy("crosstable", "n/s"), _("lost: did not appear")),
    Result.BYE: (pgettext_lazy("crosstable", "bye"), _("bye: a win without a partition")),
    Result.SIT_OUT: (pgettext_lazy("crosstable", "out"), _("sat out the tour")),
    Result.WITHDRAWN: (pgettext_lazy("crosstable", "wd"), _("withdrawn from the tournament")),
    Result.PLAYED: ("", _("played")),
    Result.PLAYING: ("…", _("being played")),
    Result.NONE: ("—", _("not drawn")),
}


@dataclass(frozen=True)
class Cell:
    """An entrant's tour. Partners and opponents are numbers (see the module)."""

    tour: int
    result: Result
    table: int | None = None
    partners: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    #: Sports: the domino points of the partition, his and the opponents'.
    points_for: int | None = None
    points_against: int | None = None
    #: Goat, Sea Goat, points: his place at the table (shared when equal), of ``sides`` sides,
    #: and the sitting's value of the game's first metric.
    place: int | None = None
    sides: int | None = None
    score: int | None = None

    @property
    def mark(self) -> str:
        return str(MARKS[self.result][0])

    @property
    def won(self) -> bool:
        return self.result in (Result.WIN, Result.WIN_BY_NO_SHOW, Result.BYE) or self.place == 1

    @property
    def lost(self) -> bool:
        return self.result in (Result.LOSS, Result.NO_SHOW) or (self.place is not None and self.place > 1)

    @property
    def points(self) -> str:
        """The partition's score, ``"200:150"``; empty without one."""
        return "" if self.points_for is None else f"{self.points_for}:{self.points_against}"

    @property
    def who(self) -> str:
        """The opponents' numbers, the partners' in brackets: ``"5, 7 (3)"``."""
        partners = f"({', '.join(map(str, self.partners))})" if self.partners else ""
        return " ".join(part for part in (", ".join(map(str, self.opponents)), partners) if part)

    @property
    def text(self) -> str:
        """The cell in a few characters: the score, marked unless plainly won or lost."""
        plain = self.result in (Result.WIN, Result.LOSS, Result.PLAYED)
        return " ".join(part for part in (self.points, "" if plain else self.mark) if part)


@dataclass(frozen=True)
class CrossLine:
    """A line of the crosstable: the standings' line, its number, a cell per tour and the values
    of the crosstable's columns."""

    line: Line
    number: int
    cells: list[Cell]
    values: list[int]

    @property
    def rank(self) -> int:
        return self.line.rank


#: The most columns of cells an A4 landscape page holds legibly (5.5 pt): a wider crosstable, a
#: round robin of more pairs, is printed in bands of columns, a page each, every line in each.
PRINT_COLUMNS = 24


@dataclass(frozen=True)
class Band:
    """Some of the crosstable's columns of cells, with every line."""

    heads: list[int | Tour]  # each column's heading: a tour, or in the square an entrant's number
    rows: list[tuple[CrossLine, list[Cell] | list[list[Cell] | None]]]
    number: int  # its place among the bands, from 1
    count: int  # how many bands there are

    @property
    def last(self) -> bool:
        """The last band: the standings' own columns close it."""
        return self.number == self.count


@dataclass(frozen=True)
class Crosstable:
    standings: StandingsTable
    tours: list[Tour]  # the counted tours, a cell each
    columns: list[Column]  # the standings' columns, in their order
    lines: list[CrossLine]
    #: Round robin of pairs: row i, column j: the cells of line i against line j (``None`` on
    #: the diagonal). Otherwise ``None``.
    square: list[list[list[Cell] | None]] | None = field(default=None)

    @property
    def tournament(self) -> Tournament:
        return self.standings.tournament

    @property
    def kind(self) -> str:
        return self.standings.kind

    @property
    def after_tour(self) -> int | None:
        return self.standings.after_tour

    @property
    def sittings(self) -> bool:
        return self.tournament.kind.sittings

    @cached_property
    def score_name(self) -> str:
        """Goat, Sea Goat, points: the name of the value a cell shows (the first metric's)."""
        rules = self.tournament.rules
        return str(metrics_of(rules)[rules.standings[0]].name)

    @property
    def rows(self) -> list[tuple[CrossLine, list[Cell] | list[list[Cell] | None]]]:
        """Each line with what its row shows: its tours' cells, or its row of the square."""
        if self.square is not None:
            return list(zip(self.lines, self.square))
        return [(line, line.cells) for line in self.lines]

    def bands(self, most: int | None = None) -> list[Band]:
        """The columns of cells (a tour each, or in the square an entrant each) in bands of at
        most ``most``, as even as can be, each with every line; None: one band of them all."""
        heads: list[int | Tour] = ([line.number for line in self.lines] if self.square is not None
                                   else list(self.tours))
        count = math.ceil(len(heads) / most) if most and heads else 1
        width = math.ceil(len(heads) / count) or 1
        rows = self.rows
        starts = range(0, max(len(heads), 1), width)
        return [Band(heads[start:start + width], [(line, cells[start:start + width]) for line, cells in rows],
                     number, len(starts)) for number, start in enumerate(starts, 1)]

    @property
    def whole(self) -> Band:
        """Every column of cells: the page's table, which scrolls."""
        return self.bands()[0]

    @cached_property
    def printed(self) -> list[Band]:
        """The bands of an A4 landscape page each (the PDF)."""
        return self.bands(PRINT_COLUMNS)

    @property
    def legend(self) -> list[tuple[str, str]]:
        """The marks the cells use, with their names."""
        used = {c.result for line in self.lines for c in line.cells}
        return [(str(mark), str(name)) for result, (mark, name) in MARKS.items() if result in used and mark]

    def file_name(self, extension: str) -> str:
        after = f"after-tour-{self.after_tour}" if self.after_tour else "live"
        return f"crosstable-{self.tournament.slug}-{self.kind}-{after}.{extension}"


def crosstable(tournament: Tournament, kind: str | None = None, after_tour: int | None = None) -> Crosstable:
    """The crosstable of ``tournament``: of the standings :func:`.table.standings_table` gives
    for ``kind`` and ``after_tour`` (and its errors), a cell per counted tour."""
    standings = standings_table(tournament, kind=kind, after_tour=after_tour)
    tours = [t for t in standings.tours if after_tour is None or t.number <= after_tour]
    if standings.kind == "pairs":
        numbers = {line.row.key: line.entrant.number for line in standings.lines}
    else:
        numbers = {line.row.key: n for n, line in enumerate(standings.lines, 1)}
    cells = _cells(tournament, standings.kind, tours, numbers)
    lines = []
    columns = standings.summary_columns
    for line in standings.lines:
        by_tour: dict[int, Cell] = cells.get(line.row.key, {})
        row = [by_tour.get(t.number) or _absent(t.number, line) for t in tours]
        lines.append(CrossLine(line, numbers[line.row.key], row, standings.values(line, columns)))
    square = None
    if tournament.format == Tournament.Format.ROUND_ROBIN and standings.kind == "pairs":
        square = [[None if me is other else [c for c in me.cells if c.opponents == (other.number,)]
                   for other in lines] for me in lines]
    return Crosstable(standings, tours, columns, lines, square)


def _absent(tour: int, line: Line) -> Cell:
    withdrawn = line.withdrawn_after is not None and tour > line.withdrawn_after
    return Cell(tour, Result.WITHDRAWN if withdrawn else Result.NONE)


def _cells(tournament: Tournament, kind: str, tours: list[Tour],
           numbers: dict[int, int]) -> dict[int, dict[int, Cell]]:
    """Entrant key -> tour number -> his cell, for the tables, byes and sit-outs of ``tours``."""
    out: dict[int, dict[int, Cell]] = defaultdict(dict)
    tables = list(Table.objects.filter(tour__in=tours).values(
        "pk", "number", "tour__number", "pair_a", "pair_b", *Table.SEAT_FIELDS, "partition__pk", "partition__status",
        "partition__winner", "partition__reason", "partition__points_a", "partition__points_b"))
    sittings = _sittings(tournament, kind, [t["partition__pk"] for t in tables
                                            if t["partition__status"] == Partition.Status.FINISHED]) \
        if tournament.kind.sittings else {}
    for t in tables:
        if kind == "pairs":
            sides: list[tuple[int, ...]] = [(t["pair_a"],), (t["pair_b"],)]
        elif t["pair_a"]:
            sides = [(t["seat1"], t["seat3"]), (t["seat2"], t["seat4"])]
        else:
            sides = [(t[f],) for f in Table.SEAT_FIELDS if t[f]]
        finished = t["partition__status"] == Partition.Status.FINISHED
        for i, side in enumerate(sides):
            opponents = tuple(numbers[k] for j, other in enumerate(sides) if j != i for k in other if k in numbers)
            for key in side:
                partners = tuple(numbers[k] for k in side if k != key and k in numbers)
                common = {"table": t["number"], "partners": partners, "opponents": opponents}
                if not finished:
                    cell = Cell(t["tour__number"], Result.PLAYING, **common)
                elif tournament.kind.sittings:
                    # A sitting finished without seat results (nobody appeared) has no place.
                    place, count, score = sittings.get(t["partition__pk"], {}).get(key, (None, None, None))
                    cell = Cell(t["tour__number"], Result.PLAYED, place=place, sides=count, score=score, **common)
                else:
                    cell = _sports(t, "AB"[i], common)
                out[key][t["tour__number"]] = cell
    byes = Bye.objects.filter(tour__in=tours).values_list("tour__number", "pair", "pair__first", "pair__second")
    for number, pair, first, second in byes:
        for key in ((pair,) if kind == "pairs" else (first, second)):
            out[key][number] = Cell(number, Result.BYE)
    if kind == "players":
        for number, player in SitOut.objects.filter(tour__in=tours).values_list("tour__number", "player"):
            out[player][number] = Cell(number, Result.SIT_OUT)
    return out


def _sports(t: dict, side: str, common: dict) -> Cell:
    """The cell of ``side`` (``"A"``/``"B"``) of a finished sports partition ``t``."""
    other = "B" if side == "A" else "A"
    won = t["partition__winner"] == side
    if t["partition__reason"] == "no_show":
        # RULES 5: the absent pair loses; both absent, both lose (no winner).
        result = Result.WIN_BY_NO_SHOW if won else Result.NO_SHOW
    else:
        result = Result.WIN if won else Result.LOSS
    return Cell(t["tour__number"], result, points_for=t[f"partition__points_{side.lower()}"],
                points_against=t[f"partition__points_{other.lower()}"], **common)


def _sittings(tournament: Tournament, kind: str, partitions: list[int]) -> dict[int, dict[int, tuple[int, int, int]]]:
    """Partition -> entrant key -> (place, sides at the table, the sitting's value of the first
    metric) of the finished sittings. A side is a seat, or with ``teams`` a pair, whose result is
    its seat 1's or 2's as in the standings; places rank the sides by the game's metrics in the
    regulations' order."""
    rules = tournament.rules
    metrics = metrics_of(rules)
    first = metrics[rules.standings[0]]
    seats: dict[int, dict[int, Row]] = defaultdict(dict)
    pairs: dict[int, tuple[int | None, int | None]] = {}
    for partition, seat, player, game_points, goats, score, games_won, pair_a, pair_b in (
            SeatResult.objects.filter(partition__in=partitions).values_list(
                "partition", "seat", "player", "game_points", "goats", "score", "games_won",
                "partition__table__pair_a", "partition__table__pair_b")):
        seats[partition][seat] = Row(player, played=1, game_points=game_points, goats=goats, score=score,
                                     games_won=games_won)
        pairs[partition] = (pair_a, pair_b)
    out: dict[int, dict[int, tuple[int, int, int]]] = {}
    for partition, by_seat in seats.items():
        teams = pairs[partition][0] is not None
        side_of = {seat: (seat - 1) % 2 if teams else seat for seat in by_seat}
        sides = {side_of[seat]: Row(side_of[seat], **{f: getattr(row, f) for f in SITTING_FIELDS})
                 for seat, row in sorted(by_seat.items(), reverse=True)}  # with teams: seats 1 and 2
        rank(sides, rules.standings, metrics=metrics)
        if kind == "pairs":
            out[partition] = {pair: (sides[i].rank, len(sides), first.value(sides[i], sides))
                              for i, pair in enumerate(pairs[partition]) if pair is not None}
        else:
            out[partition] = {row.key: (sides[side_of[seat]].rank, len(sides), first.value(row, sides))
                              for seat, row in by_seat.items()}
    return out


#: The numbers of a seat's result that the metrics of Goat, Sea Goat and points read.
SITTING_FIELDS = ("played", "game_points", "goats", "score", "games_won")
