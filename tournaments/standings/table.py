"""The standings table: one builder for every place that shows the standings (the public page,
the API, the CSV file, the tour and final protocols), so that they agree on the tours that count,
the columns, the rows and the file's name.

Only published tours count and may be asked for ("after tour N"): a draft tour never shows in
the standings, whoever asks.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import Pair, Player, Tour, Tournament

from .compute import pair_standings, player_standings, withdrawals
from .metrics import Row, metrics_of

#: The kinds of standings: of the fixed pairs (pair events), or of the players.
KINDS = ("pairs", "players")


@dataclass(frozen=True)
class Column:
    """A number column: a metric or a count. ``order`` is its place in the tournament's
    precedence (1 orders first), ``None`` if it does not order the rows; ``summary`` columns are
    the ones a narrow screen shows beside the ordering ones."""

    key: str
    name: str | Promise
    order: int | None = None
    summary: bool = False

    @property
    def ordering(self) -> bool:
        return self.order is not None


#: The counts a line shows besides the metrics; ``True``: on a narrow screen too.
COUNTS = (("played", _("Played"), True), ("wins", _("Wins"), True), ("losses", _("Losses"), True),
          ("byes", _("Byes"), False), ("points_for", _("Points for"), True),
          ("points_against", _("Points against"), True))

#: The number columns of the CSV file, the same for pairs and players whatever the precedence, so
#: that a spreadsheet built on it keeps working: every metric and every count.
CSV_NUMBERS = ("played", "wins", "losses", "byes", "points_for", "points_against", "points_difference",
               "penalties", "buchholz", "head_to_head", "tournament_points")

#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


#: The counts of the standings of Goat, Sea Goat and points: their games are counted by the metrics.
GOAT_COUNTS = (("played", _("Played"), True),)


def columns(tournament: Tournament) -> list[Column]:
    """The metrics in the tournament's precedence, then the counts, then the other metrics (all
    of the tournament's game, :func:`metrics_of`)."""
    precedence = list(tournament.rules.standings)
    metrics = metrics_of(tournament.rules)
    ordered = [Column(key, metrics[key].name, n) for n, key in enumerate(precedence, 1)]
    counts = [Column(key, name, None, narrow) for key, name, narrow in (GOAT_COUNTS if tournament.kind.sittings
                                                                          else COUNTS) if key not in precedence]
    shown = {c.key for c in ordered + counts}
    return ordered + counts + [Column(key, m.name) for key, m in metrics.items() if key not in shown]


def value(row: Row, key: str) -> int:
    """The value of column ``key`` in ``row``."""
    return row.metrics[key] if key in row.metrics else getattr(row, key)


def player_name(player: Player) -> str:
    return f"{player.last_name} {player.first_name}".strip()


@dataclass(frozen=True)
class Line:
    """A row of the standings with its entrant: a :class:`Pair` or a :class:`Player`."""

    row: Row
    entrant: Any
    shared: bool  # its rank is shared with others tied on every metric
    #: Withdrawn: after this tour (0: before the first, :func:`.compute.withdrawals`); ``None``: not.
    withdrawn_after: int | None = None

    @property
    def rank(self) -> int:
        return self.row.rank

    def value(self, key: str) -> int:
        return value(self.row, key)

    @property
    def pair(self) -> Pair | None:
        return self.entrant if isinstance(self.entrant, Pair) else None

    @property
    def player(self) -> Player | None:
        return self.entrant if isinstance(self.entrant, Player) else None

    @property
    def withdrawal(self) -> str:
        """The mark of a withdrawn entrant, in the current language; empty if he plays on."""
        if self.withdrawn_after is None:
            return ""
        context = "pair" if isinstance(self.entrant, Pair) else "player"
        if not self.withdrawn_after:
            return pgettext(context, "withdrawn before tour 1")
        return pgettext(context, "withdrawn after tour %(number)s") % {"number": self.withdrawn_after}

    @property
    def name(self) -> str:
        """The entrant as the protocols print him: a pair's two players, or the player."""
        if isinstance(self.entrant, Pair):
            return " — ".join(player_name(p) for p in self.entrant.players)
        return player_name(self.entrant)


@dataclass(frozen=True)
class StandingsTable:
    tournament: Tournament
    kind: str
    after_tour: int | None
    tours: list[Tour]  # the published tours: the ones "after tour N" may name
    columns: list[Column]
    lines: list[Line]

    @property
    def precedence(self) -> list[Column]:
        return [c for c in self.columns if c.ordering]

    @cached_property
    def summary_columns(self) -> list[Column]:
        """The columns a narrow screen shows: the ordering metrics and the main counts."""
        return [c for c in self.columns if c.ordering or c.summary]

    def values(self, line: Line, columns: list[Column]) -> list[int]:
        return [line.value(c.key) for c in columns]

    @property
    def file_name(self) -> str:
        after = f"after-tour-{self.after_tour}" if self.after_tour else "live"
        return f"standings-{self.tournament.slug}-{self.kind}-{after}.csv"

    @property
    def xlsx_file_name(self) -> str:
        return self.file_name.removesuffix(".csv") + ".xlsx"

    def csv(self) -> bytes:
        """The standings as a spreadsheet: UTF-8 with a byte order mark, ``;`` between the columns
        (as a Russian Excel opens it), the header in the current language, every metric and count
        (:data:`CSV_NUMBERS`), then the withdrawal mark (new columns go last, so that a spreadsheet
        built on the file keeps working); a text cell that starts like a formula gets a leading
        apostrophe."""
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
        entrant = ([gettext("Start number"), gettext("Players")] if self.kind == "pairs"
                   else [gettext("Player"), gettext("Club")])
        if self.tournament.kind.sittings:
            # Goat, Sea Goat and points: the game's own numbers, in the order of the columns.
            numbers: tuple[str, ...] = tuple(c.key for c in self.columns)
            writer.writerow([gettext("Rank"), *entrant, *(str(c.name) for c in self.columns), gettext("Withdrawn")])
        else:
            numbers = CSV_NUMBERS
            writer.writerow([gettext("Rank"), *entrant, gettext("Played"), gettext("Wins"), gettext("Losses"),
                             gettext("Byes"), gettext("Points for"), gettext("Points against"),
                             gettext("Points difference"), gettext("Penalties"), gettext("Buchholz"),
                             gettext("Head-to-head"), gettext("Tournament points"), gettext("Withdrawn")])
        for line in self.lines:
            who = line.entrant
            cells = ([who.number, ", ".join(player_name(p) for p in who.players)] if self.kind == "pairs"
                     else [player_name(who), who.club])
            writer.writerow([neutralise_formula(c) for c in (line.rank, *cells, *(line.value(k) for k in numbers),
                                                             line.withdrawal)])
        return ("\ufeff" + out.getvalue()).encode("utf-8")


def neutralise_formula(value: Any) -> Any:
    """A text cell a spreadsheet would take for a formula, neutralised by a leading apostrophe
    (shown as text, not run); numbers stay numbers, negative ones included."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def standings_table(tournament: Tournament, *, kind: str | None = None,
                    after_tour: int | None = None) -> StandingsTable:
    """The standings of ``tournament``: of its pairs or its players (``kind``; an individual event
    has players only), after published tour ``after_tour`` or live (every finished partition).
    A kind or a tour that cannot be asked for is a :class:`ValidationError`."""
    kind = kind or ("players" if tournament.is_individual else "pairs")
    if kind not in KINDS:
        raise ValidationError(_("The standings are of pairs or of players."))
    if kind == "pairs" and tournament.is_individual:
        raise ValidationError(_("An individual tournament has standings of players only."))
    tours = list(tournament.tours.exclude(status=Tour.Status.DRAFT).order_by("number"))
    if after_tour is not None and after_tour not in {t.number for t in tours}:
        raise ValidationError(_("There is no tour %(number)s in this tournament.") % {"number": after_tour})
    entrants: dict[int, Pair] | dict[int, Player]
    if kind == "pairs":
        rows = pair_standings(tournament, after_tour)
        entrants = Pair.objects.select_related("first", "second").in_bulk([r.key for r in rows])
    else:
        rows = player_standings(tournament, after_tour)
        entrants = Player.objects.in_bulk([r.key for r in rows])
    ranks: dict[int, int] = {}
    for row in rows:
        ranks[row.rank] = ranks.get(row.rank, 0) + 1
    withdrawn = withdrawals(tournament, kind, after_tour)
    lines = [Line(row, entrants[row.key], ranks[row.rank] > 1, withdrawn.get(row.key)) for row in rows]
    return StandingsTable(tournament, kind, after_tour, tours, columns(tournament), lines)
