"""Team standings (the team event of federation championships): clubs ranked by the sum of the
tournament points of their best N entries (the tournament's ``team_best``), then by the points
difference of those same N entries. Built on the pairs' (or, in an individual event, the
players') standings rows, never recounting a partition, and ranked by :func:`.metrics.rank`.

An entry counts for the club it was registered with (``Entry.club``). In a pair event a pair
counts for a club when both its players are of that club; a pair of two clubs counts for none.
A club's best entries are those with the most tournament points, then the best points difference;
a club with fewer than N entries counts the ones it has. Withdrawn entries keep their results.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Tournament

from .metrics import Metric, PointsDifference, Row, TournamentPoints, rank
from .table import Line, neutralise_formula, standings_table

#: The order of the team standings.
TEAM_METRICS: dict[str, Metric] = {m.key: m for m in (TournamentPoints(), PointsDifference())}


def club_key(club: str) -> str:
    """Clubs typed with other spaces or another case are one club."""
    return " ".join(club.split()).casefold()


@dataclass(frozen=True)
class TeamLine:
    """A club's line: its rank (shared when tied on both sums) and the entries it counts."""

    row: Row
    club: str
    counted: list[Line]
    shared: bool

    @property
    def rank(self) -> int:
        return self.row.rank

    @property
    def tournament_points(self) -> int:
        return self.row.tournament_points

    @property
    def points_difference(self) -> int:
        return self.row.points_difference


@dataclass(frozen=True)
class TeamStandings:
    tournament: Tournament
    after_tour: int | None
    best: int
    lines: list[TeamLine]

    @property
    def file_name(self) -> str:
        after = f"after-tour-{self.after_tour}" if self.after_tour else "live"
        return f"standings-{self.tournament.slug}-teams-{after}.csv"

    def csv(self) -> bytes:
        """As the standings' CSV file: UTF-8 with a byte order mark, ``;``, the header in the
        current language; then the counted entries, each with its tournament points."""
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
        writer.writerow([gettext("Rank"), gettext("Club"), gettext("Tournament points"),
                         gettext("Points difference"), gettext("Entries counted")])
        for line in self.lines:
            counted = ", ".join(f"{entry.name} ({entry.row.tournament_points})" for entry in line.counted)
            writer.writerow([neutralise_formula(c) for c in (line.rank, line.club, line.tournament_points,
                                                             line.points_difference, counted)])
        return ("\ufeff" + out.getvalue()).encode("utf-8")


def _club(line: Line, clubs: dict[int, str]) -> str:
    """The club ``line``'s entrant counts for: a player's, or the one both players of a pair share."""
    if line.pair is not None:
        first, second = (clubs.get(p.pk, "") for p in line.pair.players)
        return first if club_key(first) == club_key(second) else ""
    assert line.player is not None
    return clubs.get(line.player.pk, "")


def team_standings(tournament: Tournament, *, after_tour: int | None = None) -> TeamStandings:
    """The team standings of ``tournament`` after published tour ``after_tour`` (or live); a
    tournament without them, or a tour that cannot be asked for, is a :class:`ValidationError`."""
    if not tournament.team_best:
        raise ValidationError(_("This tournament has no team standings."))
    table = standings_table(tournament, after_tour=after_tour)
    clubs = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "club"))
    members: dict[str, list[Line]] = {}
    for line in table.lines:
        club = _club(line, clubs)
        if club.strip():
            members.setdefault(club_key(club), []).append(line)
    # A club is shown as most of its entries spell it (then the first of those spellings).
    spellings = Counter(" ".join(c.split()) for c in clubs.values() if c.strip())
    names: dict[str, str] = {}
    for spelling, _count in sorted(spellings.items(), key=lambda s: (-s[1], s[0])):
        names.setdefault(club_key(spelling), spelling)
    keys = sorted(members, key=lambda k: names[k].casefold())
    rows: dict[int, Row] = {}
    counted: dict[int, list[Line]] = {}
    for index, key in enumerate(keys):
        best = sorted(members[key], key=lambda e: (-e.row.tournament_points, -e.row.points_difference,
                                                   e.rank))[:tournament.team_best]
        rows[index] = Row(index, tournament_points=sum(e.row.tournament_points for e in best),
                          points_for=sum(e.row.points_for for e in best),
                          points_against=sum(e.row.points_against for e in best))
        counted[index] = best
    ranked = rank(rows, TEAM_METRICS, metrics=TEAM_METRICS)
    ties: dict[int, int] = {}
    for row in ranked:
        ties[row.rank] = ties.get(row.rank, 0) + 1
    lines = [TeamLine(row, names[keys[row.key]], counted[row.key], ties[row.rank] > 1) for row in ranked]
    return TeamStandings(tournament, table.after_tour, tournament.team_best, lines)
