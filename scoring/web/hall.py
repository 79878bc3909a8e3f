"""What the hall screen and the chief referee's view of a tour show: every table of the tour with
its clocks and what is late, read in a few queries whatever the number of tables (README, "Hall
screen and chief referee"). A sports table scores by its two pairs; a Goat or Sea Goat table by
its 2 to 4 players each for himself (or its two pairs with ``teams``), in the game of its sitting
being played (README, "Goat and Sea Goat events"): one tile, its units listed.

Read only, but for the clocks: a table whose deadline has passed is caught up first, as every
page of a live table does (:func:`scoring.recording.pipeline.expire`), so the screen never shows a clock
at zero that nobody recorded yet.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from scoring import engine, labels

from scoring.models import ClockLapse, LiveTable, Partition, PartitionChange
from scoring.recording import pipeline
from scoring.web.sheet_views import Seat, seats_of, sheet_missing, sheet_no_show_deadline, sitting_seats
from tournaments.models import Table, Tour

from scoring.recording import clock, storage

#: A pause longer than this is late: the chief referee should look at the table.
LONG_PAUSE = datetime.timedelta(minutes=2)
#: The timeouts the chief referee's view lists: those recorded this long ago at most.
RECENT_TIMEOUTS = datetime.timedelta(minutes=10)


@dataclass(frozen=True)
class HallUnit:
    """Who scores together at a table, as its tile shows them: a pair (sports; Goat with
    ``teams``), or a Goat player each for himself."""

    seats: list[Seat]
    #: Sports: the pair's total. Goat: the score in the game being played; once the sitting is
    #: over, its game points (Sea Goat: its games won), what the standings rank first.
    score: int
    pair: str = ""  # "A" or "B" (their colours); "" for a player each for himself
    winner: bool = False  # sports: the partition's winner
    memo: int = 0  # Goat: the points memorised in the game being played
    goats: int = 0  # Goat: the finished games of the sitting in which it was a goat


@dataclass
class HallTable:
    """One table of the tour as the hall sees it."""

    table: Table
    partition: Partition
    live: LiveTable | None
    seats: list[Seat]
    now: datetime.datetime
    units: list[HallUnit]
    #: Goat and Sea Goat: the game ("goat", "sea_goat"; "" at a sports table), the number of the
    #: game being played of the sitting's ``games``, and the tiles left in the bazaar.
    game: str = ""
    game_number: int = 0
    games: int = 0
    bazaar: int | None = None
    #: The partition's clock (a countdown, stopped while the table is paused).
    time: dict[str, Any] | None = None
    #: The seat whose move is awaited.
    awaited: Seat | None = None
    #: The marks of a late table.
    time_out: bool = False
    long_pause: bool = False
    missing: list[Seat] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def finished(self) -> bool:
        return self.partition.is_finished

    @property
    def status_label(self) -> str:
        return str(labels.STATUSES[self.partition.status])

    @property
    def paused_at(self) -> datetime.datetime | None:
        return self.live.paused_at if self.live is not None and not self.finished else None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def pause_reason(self) -> str:
        return self.live.pause_reason if self.paused and self.live is not None else ""

    @property
    def paused_for(self) -> int:
        """Seconds the table has been paused (0 when it is not)."""
        paused_at = self.paused_at
        return 0 if paused_at is None else max(0, int((self.now - paused_at).total_seconds()))

    #: A score-sheet table's no-show deadline, which only warns (:func:`sheet_no_show_deadline`).
    sheet_deadline: datetime.datetime | None = None

    @property
    def no_show_deadline(self) -> datetime.datetime | None:
        return self.live.no_show_deadline if self.live is not None else self.sheet_deadline

    @property
    def no_show_clock(self) -> dict[str, Any] | None:
        """The no-show deadline as a countdown (stopped while a live table is paused)."""
        if self.live is None:
            return clock.countdown(self.sheet_deadline, self.now)
        if self.live.paused_at is not None:
            return clock.stopped(self.live.no_show_deadline, self.live.paused_at)
        return clock.countdown(self.live.no_show_deadline, self.now)

    @property
    def no_show(self) -> bool:
        """A no-show is pending: its deadline runs and a seat is still missing."""
        return bool(self.missing)

    @property
    def late(self) -> bool:
        return self.time_out or self.long_pause or self.no_show


def _read(tour: Tour) -> list[Table]:
    tables = list(Table.objects.filter(tour=tour).select_related("partition__live", *Table.SEAT_FIELDS)
                  .order_by("number"))
    for table in tables:
        table.tour = tour  # its mode falls back on the tour's
    return tables


def _pairs(partition: Partition, seats: list[Seat]) -> list[HallUnit]:
    """The two pairs of a sports table with their totals."""
    return [HallUnit([seats[seat - 1] for seat in engine.seats_of(pair)], points, pair, partition.winner == pair)
            for pair, points in ((engine.Pair.A, partition.points_a), (engine.Pair.B, partition.points_b))]


def _goat_row(table: Table, now: datetime.datetime) -> HallTable:
    """A Goat or Sea Goat table: its units with their scores in the game being played (the
    sitting's game points or games won once it is over), read from the stored sitting."""
    partition = table.partition
    sitting = storage.engine_sitting(partition)
    rules, game, totals = sitting.regulations, sitting.game, sitting.totals()
    seats = sitting_seats(table, rules.teams)
    over = partition.is_finished
    ranked = getattr(totals, engine.kind_of(rules).ranked_by or "game_points")
    units = [HallUnit([seats[seat - 1] for seat in engine.seats_of_unit(k, rules)], ranked[k] if over else score,
                      unit if rules.teams else "", memo=0 if over else game.memo[k], goats=totals.goats[k])
             for k, (unit, score) in enumerate(zip(game.units, game.scores))]
    current = None if over else sitting.current
    return HallTable(table, partition, getattr(partition, "live", None), seats, now, units, game=rules.game,
                     game_number=len(sitting.games), games=rules.games_per_tour,
                     bazaar=None if current is None else len(current.bazaar))


def _pairs_row(table: Table, now: datetime.datetime) -> HallTable:
    """A table of two pairs (and a points game's, which shows its pairs' totals)."""
    seats = seats_of(table)
    return HallTable(table, table.partition, getattr(table.partition, "live", None), seats, now,
                     _pairs(table.partition, seats))


#: The row of a table of each family.
ROWS: engine.Parts[Callable[[Table, datetime.datetime], HallTable]] = engine.Parts({
    engine.Family.PARTITION: _pairs_row, engine.Family.TILES: _goat_row, engine.Family.POINTS: _pairs_row})


def _hall_table(table: Table, now: datetime.datetime) -> HallTable:
    partition = table.partition
    row = ROWS.of(table.tour.tournament.kind)(table, now)
    live, seats = row.live, row.seats
    if live is None:  # a score-sheet table: who is not checked in while its deadline runs
        row.sheet_deadline = sheet_no_show_deadline(partition)
        if row.sheet_deadline is not None:
            missing = sheet_missing(partition, len(seats))
            row.missing = [seat for seat in seats if seat.number in missing]
        return row
    if partition.is_finished:
        return row
    paused = live.paused_at
    row.time = (clock.stopped(live.time_deadline, paused) if paused is not None
                else clock.countdown(live.time_deadline, now))
    row.awaited = seats[live.seat - 1] if live.seat else None
    # The partition's time ran out: recorded (its clock started and no deadline is left: the
    # engine plays the last deal), or past and not recorded yet (a table another request holds).
    row.time_out = live.clock_started_at is not None and (
        live.time_deadline is None or (paused is None and live.time_deadline <= now))
    row.long_pause = paused is not None and now - paused > LONG_PAUSE
    if live.no_show_deadline is not None:
        row.missing = [seat for seat in seats if seat.number not in live.present]
    return row


def hall_tables(tour: Tour) -> tuple[list[HallTable], datetime.datetime]:
    """Every table of ``tour`` in number order, with the instant they were read at."""
    now = clock.now()
    tables = _read(tour)
    due = [table.partition.pk for table in tables if pipeline.overdue(table.partition, now)]
    if due and sum(pipeline.expire(pk, by="request", skip_locked=True) for pk in due):
        tables = _read(tour)
    return [_hall_table(table, now) for table in tables], now


def version(rows: list[HallTable]) -> int:
    """What the screen shows grows with every change of any of its partitions: their versions
    added (each only grows)."""
    return sum(row.partition.version for row in rows)


@dataclass(frozen=True)
class Timeout:
    """A move clock that ran out (``at``: its deadline), for the chief referee."""

    at: datetime.datetime
    row: HallTable
    seat: Seat
    lapse: int
    #: "warning", "penalty", "forfeit" (a Goat game lost on time), or "" when the audit entry says nothing.
    consequence: str

    @property
    def consequence_label(self) -> str:
        return str(labels.TIMEOUT_CONSEQUENCES.get(self.consequence, self.consequence))


def recent_timeouts(rows: list[HallTable], now: datetime.datetime) -> list[Timeout]:
    """The timeouts recorded at the tour's tables in the last :data:`RECENT_TIMEOUTS`, newest
    first, each with the warning, penalty or forfeit it brought (from its audit entry)."""
    by_partition = {row.partition.pk: row for row in rows}
    lapses = list(ClockLapse.objects.filter(partition__in=by_partition, at__gte=now - RECENT_TIMEOUTS)
                  .order_by("-at", "-pk"))
    if not lapses:
        return []
    consequences = {}
    for partition_id, data in PartitionChange.objects.filter(
            partition__in={lapse.partition_id for lapse in lapses}, action="timeout").values_list("partition", "data"):
        consequences[(partition_id, data.get("turn"), data.get("lapse"))] = data.get("consequence", "")
    # A lapse happened at its deadline (RULES 6), as the protocols print it, not when it was recorded.
    return [Timeout(lapse.deadline, row := by_partition[lapse.partition_id], row.seats[lapse.seat - 1], lapse.lapse,
                    consequences.get((lapse.partition_id, lapse.turn, lapse.lapse), ""))
            for lapse in lapses]
