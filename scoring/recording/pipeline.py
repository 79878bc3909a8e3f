"""The one pipeline through which every change of a table passes: a line of the score sheet, a
correction, an import, an annulment, a no-show, a move, a draw from the bazaar, a timeout, a pause.

:func:`change` runs one operation in one transaction, in this order:

1. **lock** the partition's row (and its :class:`~scoring.models.LiveTable` when it is played live);
2. **check** who acts (the operation's own check), a retried idempotency key (the stored change is
   the answer), the version the client saw (a stale one is a :class:`~scoring.recording.storage.Conflict`);
3. **catch the clocks up** (a live table): a deadline that has passed is recorded first, so nobody
   acts on a stale clock; then the turn the client named (a stale one is a :class:`StaleTurn`);
4. **act** on the engine's state (:class:`Step`: read once, when first needed); an engine error
   is refused with its message and nothing is stored;
5. **store and append**: each thing done is a new version and an audit entry (:meth:`Step.record`);
6. **align the live state with the engine's**, whatever the operation was (:func:`align`): the
   awaited seat and its deadline are the engine's, a digital table whose deal was taken back deals
   again, a refereed one awaits the new hands, the referee's clock times the deal the engine is at,
   a finished partition has no clock;
7. **announce** the change to the live screens, last (:func:`scoring.push.events.announce`).

What differs by game (a sports partition, a sitting of Goat, Sea Goat or points games) is one entry
of :data:`GAMES`, chosen once per step from the regulations' ``game``.

The clocks' own path, the beat's sweep, calls :func:`expire`: the same steps with nothing but the
catch-up as the operation. A table whose clocks cannot be recorded (a fault:
a bug, a state nobody foresaw) is logged, marked for the chief referee (``LiveTable.fault``) and
skipped; it never blocks the other tables, and the next change of the table clears the mark.

**No task a deadline.** A deadline is a column of the table's live row, indexed; nothing is sent
when it is set. The beat's sweep, a task a second, looks for the deadlines that have passed
several times in its second (:func:`sweep`), so a timeout is recorded within a fraction of a second
after its deadline. A timer task a deadline cost the clocks' worker some 5 ms of CPU a move at
250 live tables (each move's allowance differs, so most moves set a deadline earlier than the one
a timer waited for): more than a fifth of a move's whole cost (README, Performance).

The functions are synchronous and take plain values (ids, an :class:`Actor`), so that an async
view calls them through ``sync_to_async`` unchanged.
"""

from __future__ import annotations

import datetime
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import Http404
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine.deal import new_seed
from scoring.models import ClockHeartbeat, ClockLapse, LiveTable, Partition, result_summary
from scoring.push import events
from scoring.recording import clock
from scoring.recording.state import table_state
from tournaments.models import Table, Tour
from tournaments.permissions import AnyUser
from tournaments.prepared import Prepared, PreparedUpdate
from tournaments.web import jsonreader

from scoring.recording.hands import sees_deal
from scoring.recording.storage import (NOT_A_PARTITION, NOT_TILES, Conflict, append, engine_error, engine_partition,
                                       refuse, sitting_at, store_sitting, store_state)

logger = logging.getLogger(__name__)

#: Seconds of work a sweep round does at most (see :func:`sweep`).
SWEEP_SECONDS = 2.0


class StaleTurn(ValidationError):
    """The move was made for a turn that is over (someone else moved, or the deal ended)."""

    def __init__(self, turn: int) -> None:
        self.turn = turn
        super().__init__(_("This move is no longer awaited (the table is at turn %(turn)s): look at the table "
                           "again.") % {"turn": turn})


@dataclass(frozen=True)
class Actor:
    """Who acts: a login (a referee, the chief referee, an organiser), and/or the token of the
    device holding a seat of a digital table; the address the request came from."""

    user: AnyUser  # AnonymousUser: a phone, the timer task, the sweep (nobody signed in)
    token: str = ""
    address: str | None = None
    #: The seats ``token`` holds, by partition, read once (:func:`scoring.live.play.held`): a
    #: request's check of its move and its answer ask the same, under the move's lock.
    held: dict[int, list[int]] = field(default_factory=dict, compare=False, repr=False)


# -- what differs by game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockLead:
    """At the referee's clock, the deal's lead the clock times: who, the deal's number, his
    allowance."""

    seat: int
    deal: int
    allowance: int


def not_a_no_show() -> ValidationError:
    """An annulment of a no-show at a table it did not decide."""
    return ValidationError(_("This partition was not decided by a no-show."))


class TableEntry:
    """How a table of one family of games (:data:`GAMES`) is read, stored and played live: the
    pipeline's part of what differs by game (the engine's own is
    :class:`~scoring.engine.game.TableGame`). A table of sittings (points) by default;
    :class:`SportsTable` and :class:`GoatTable` add what they play."""

    #: The partition starts with the lead draw (RULES 3); otherwise the hands lead (RULES 9.1).
    lead_draw = False
    #: Tiles are drawn from a bazaar (RULES 9.1).
    bazaar = False

    def load(self, partition: Partition) -> Any:
        return sitting_at(partition)

    def events(self, played: Any) -> int:
        """How many events the engine's state holds (a sports partition stores its finished
        deals again only when this changes)."""
        return 0

    def store(self, step: Step, full: bool, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Write the engine's state into the row and save it; return the audit entry's data."""
        store_sitting(step.partition, step.played())
        step.partition.save()
        return data

    def seats(self, played: Any) -> int:
        return int(played.regulations.players)

    def time_ran_out(self, played: Any) -> bool:
        """Whether the engine recorded that the table's time ran out."""
        return played.game.time_expired is not None

    def can_deal(self, played: Any) -> bool:
        """Whether a digital table deals now when no deal is being played."""
        return False

    def clock_lead(self, played: Any) -> ClockLead | None:
        """The lead the referee's clock times, when no move of a deal has been tapped."""
        return None

    def refuse_live(self) -> ValidationError:
        return ValidationError(_("A points game is recorded on the score sheet only: its tables cannot be played "
                                 "live."))

    def begin(self, step: Step) -> None:
        """Every player is at a digital table: what happens before its first deal."""
        raise self.refuse_live()

    def deal(self, step: Step) -> None:
        """A digital table deals the next deal from a fresh secret seed."""
        raise self.refuse_live()

    def absent(self, step: Step, missing: list[int]) -> Any:
        """The no-show deadline passed with ``missing`` seats empty: record it, return who is
        absent (raises the engine's error once the partition has begun)."""
        raise self.refuse_live()

    def keep(self, step: Step) -> None:
        """Keep the engine's state the step read on the partition row, for the readers after it in
        the same request (:func:`~scoring.recording.storage.engine_partition`): a sports
        partition's only, which its readers would otherwise rebuild."""

    def annul_no_show(self, step: Step) -> None:
        """Put the table back as it was before the no-show that decided it (the chief referee's
        annulment)."""
        raise not_a_no_show()

    def lapse(self, step: Step, seat: int) -> dict[str, Any]:
        """The awaited move's allowance ran out once more: the violation, as the timeout entry
        says it."""
        raise self.refuse_live()


class SportsTable(TableEntry):
    """A sports partition (RULES 1-8): four seats in two pairs."""

    lead_draw = True

    def load(self, partition: Partition) -> engine.Partition:
        return engine_partition(partition)

    def events(self, played: engine.Partition) -> int:
        return len(played.events)

    def store(self, step: Step, full: bool, data: Mapping[str, Any]) -> Mapping[str, Any]:
        partition, game = step.partition, step.game
        if full or len(game.events) != step.events_before or game.current is None:
            store_state(partition, game)
            step.events_before = len(game.events)
            partition.save()
        else:  # a move within the deal: the rest of the state, which grows with the deals, stays
            partition.current = game.current.to_dict()
            _SAVE_MOVE.save(partition)
        # A live entry counts the engine's events, from which its version is read back
        # (services.state_at); a full one (the score sheet's) keeps the state itself.
        return data if full else {**data, "events": len(game.events)}

    def seats(self, played: engine.Partition) -> int:
        return len(engine.SEATS)

    def time_ran_out(self, played: engine.Partition) -> bool:
        return played.time_expired is not None

    def can_deal(self, played: engine.Partition) -> bool:
        return played.first_leader is not None and not played.is_over

    def clock_lead(self, played: engine.Partition) -> ClockLead | None:
        status = played.status()
        if status.leader is None or played.is_over:
            return None
        return ClockLead(status.leader, status.deal or 0, played.regulations.time_several)

    def begin(self, step: Step) -> None:
        game = step.game
        if not game.deals and game.current is None and game.first_leader is None:
            game.draw_lead(secrets.choice(engine.SEATS))  # RULES 3: the server draws the lead
            step.record("lead", {"seat": game.first_leader, "by": "draw"})

    def deal(self, step: Step) -> None:
        deal = step.game.start_deal(seed=str(new_seed()))
        step.record("deal_start", {"deal": len(step.game.deals) + 1, "leader": deal.leader})

    def absent(self, step: Step, missing: list[int]) -> Any:
        pairs = {engine.pair_of(seat) for seat in missing}
        absent = engine.Absent.BOTH if len(pairs) == 2 else engine.Absent(pairs.pop())
        step.game.record_no_show(absent)
        return absent

    def keep(self, step: Step) -> None:
        step.partition.engine_cache = (step.partition.version, step.game)

    def annul_no_show(self, step: Step) -> None:
        if step.game.no_show is None:
            raise not_a_no_show()
        stored = step.game.to_dict()
        stored["events"] = [event for event in stored["events"] if event["type"] != "no_show"]
        step.replace(engine.Partition.from_dict(stored))

    def lapse(self, step: Step, seat: int) -> dict[str, Any]:
        live = step.live
        if live.mode == LiveTable.Mode.CLOCK:
            violation = step.game.record_violation(seat, engine.ViolationCode.MOVE_TIME, move=live.move)
        else:
            violation = step.game.record_lapse(seat)
        return {"violation": violation.id, "consequence": violation.consequence}


class GoatTable(TableEntry):
    """A sitting of Goat or Sea Goat games (RULES 9.1, 9.2): 2 to 4 seats, a bazaar."""

    bazaar = True

    def can_deal(self, played: engine.GoatSitting) -> bool:
        return not played.is_over

    def clock_lead(self, played: engine.GoatSitting) -> ClockLead | None:
        game = played.game
        if played.is_over or game.needs_lead:
            return None  # a game's first deal waits for the referee to name its leader
        first = game.next_leader is None
        leader = game.first_leader if first else game.next_leader
        assert leader is not None
        rules = played.regulations  # RULES 9.1: the forced lead of a game's first deal is a single move
        return ClockLead(leader, played.deals + 1, rules.time_single if first else rules.time_several)

    def begin(self, step: Step) -> None:
        pass  # RULES 9.1: the first deal is led by its hands, no draw

    def deal(self, step: Step) -> None:
        while True:  # RULES 9.1: a void deal is recorded and dealt again
            goat_deal = step.sitting.start_deal(seed=str(new_seed()))
            step.record("redeal" if goat_deal.is_void else "deal_start",
                        {"deal": step.sitting.deals + (0 if goat_deal.is_void else 1), "leader": goat_deal.leader})
            if not goat_deal.is_void:
                return

    def absent(self, step: Step, missing: list[int]) -> Any:
        rules = step.sitting.regulations
        units = engine.units_of(rules)
        away = {units[engine.unit_index(seat, rules)] for seat in missing}
        absent = [unit for unit in units if unit in away]
        step.sitting.record_no_show(absent)
        return absent

    def annul_no_show(self, step: Step) -> None:
        played = step.sitting
        decision = played.games[0].decision
        if decision is None or decision.reason != engine.GameReason.NO_SHOW:
            raise not_a_no_show()
        # The no-show decided every game of the sitting: the first one without it is the sitting before.
        first = played.games[0].to_dict()
        first["events"] = [event for event in first["events"] if event["type"] != "no_show"]
        step.replace(engine.GoatSitting.from_dict({"regulations": played.regulations.to_dict(), "games": [first]}))
        step.partition.seat_results.all().delete()
        step.partition.reason, step.partition.finished_at = "", None

    def lapse(self, step: Step, seat: int) -> dict[str, Any]:
        """RULES 6, 9.1: a ``move_time`` violation of the game being played (a warning, then
        penalties, counted over the sitting); with ``move_timeout`` forfeit the game ends, and
        :func:`align` deals the next one (at the referee's clock, times its lead)."""
        games = len(step.sitting.games)
        violation = step.sitting.record_lapse(seat)
        if violation is None:
            # The game was forfeited and its turn ends: align starts a new one even when the next
            # game's first move has the same seat, deal and move, so a move sent late is stale.
            step.live.seat = None
        found = {} if violation is None else {"game": games, "violation": violation.id}
        return {**found, "consequence": "forfeit" if violation is None else violation.consequence}


SPORTS, GOAT, POINTS = SportsTable(), GoatTable(), TableEntry()
#: The entry of each family of games (:mod:`scoring.engine.kinds`).
GAMES: engine.Parts[TableEntry] = engine.Parts({engine.Family.PARTITION: SPORTS, engine.Family.TILES: GOAT,
                                               engine.Family.POINTS: POINTS})


# -- one operation in progress ------------------------------------------------------------------------


class Step:
    """One operation in progress: the locked rows, the engine's state (read once, when first
    needed), and what it records, appended at the end as audit entries of one transaction."""

    def __init__(self, partition: Partition, live: LiveTable | None, actor: Actor, now: datetime.datetime) -> None:
        self.partition, self._live, self.actor, self.now = partition, live, actor, now
        partition.stepped_at = now  # the "now" of every state built from this row from here on
        self.kind = GAMES.of(partition.table.tour.tournament.kind)
        self._played: Any = None
        self.events_before = 0
        self.before = result_summary(partition)
        self.done: list[str] = []  # the actions recorded, in order

    @property
    def is_live(self) -> bool:
        return self._live is not None

    @property
    def live(self) -> LiveTable:
        """The table's live row (an operation of live play: the table is played live)."""
        if self._live is None:
            raise ValidationError(_("This table is not played live."))
        return self._live

    def played(self) -> Any:
        """The engine's state of the table (as this step left it), whatever its game."""
        if self._played is None:
            self._played = self.kind.load(self.partition)
            self.events_before = self.kind.events(self._played)
        return self._played

    @property
    def read(self) -> bool:
        """Whether the engine's state was read by this step."""
        return self._played is not None

    @property
    def game(self) -> engine.Partition:
        """The engine's partition of a sports table."""
        refuse(NOT_A_PARTITION, self.partition)
        return cast(engine.Partition, self.played())

    @property
    def sitting(self) -> engine.GoatSitting:
        """The engine's sitting of a Goat or Sea Goat table."""
        refuse(NOT_TILES, self.partition)
        return cast(engine.GoatSitting, self.played())

    @property
    def seats(self) -> int:
        """How many players the table seats."""
        return self.kind.seats(self.played())

    def replace(self, played: Any) -> None:
        """The engine's state is replaced whole (an import, a correction). A digital table deals
        its own hands, secretly: a replacement may not leave a deal open that it did not deal."""
        current = getattr(played, "current", None)
        if self.is_live and self.live.mode == LiveTable.Mode.DIGITAL and current is not None:
            before = getattr(self.played(), "current", None)
            if before is None or before.to_dict() != current.to_dict():
                raise ValidationError(_("A digital table deals its own hands: this would leave a deal open that the "
                                        "table did not deal. Record finished deals only; the table deals the next "
                                        "one."))
        self._played = played
        self.events_before = -1

    def record(self, action: str, data: Mapping[str, Any], *, full: bool = False, reason: str = "",
               key: str = "") -> None:
        """One audit entry (a new version) for what was just done to the engine's state. ``full``
        (the score sheet's lines, corrections, imports): the entry keeps the whole state; a live
        step's entry keeps it only when the partition ends."""
        partition = self.partition
        partition.version += 1
        entry = self.kind.store(self, full, data)
        append(partition, action, entry, user=self.actor.user, address=self.actor.address, before=self.before,
               reason=reason, key=key, keep_state=full or partition.is_finished)
        self.before = result_summary(partition)
        self.done.append(action)

    def announce(self) -> None:
        """The one event of this transaction, for the live screens: a live table as the public
        sees it, a score sheet's result; every action recorded. Last, after every other lock
        (scoring.push.events)."""
        if not self.done:
            return
        if self.is_live:
            state = table_state(self.partition, game=self.played())
        else:
            state = result_summary(self.partition)
        events.announce(self.partition, self.done[-1], state, actions=self.done)


Check = Callable[[Step], None]


# -- the pipeline ------------------------------------------------------------------------------------


def _lock(skip_locked: bool) -> Prepared[LiveTable]:
    seats = [f"partition__table__{field}" for field in Table.SEAT_FIELDS]
    return Prepared(lambda pk: LiveTable.objects.select_for_update(of=("self", "partition"), skip_locked=skip_locked)
                    .select_related("partition__table__tour__tournament", *seats).filter(pk=pk))


#: A live table's rows, locked, with its table, tour, tournament and players: compiled once (the
#: compilation of the joins cost more than PostgreSQL's work), and prepared by PostgreSQL
#: (DATABASE_PREPARED), which planned this nine-table join in 0.9 ms each time otherwise.
_LOCK, _LOCK_OR_SKIP = _lock(False), _lock(True)
#: The writes of a change of a live table, written once: its live row, and a move within a deal.
_SAVE_LIVE, _SAVE_MOVE = PreparedUpdate(LiveTable), PreparedUpdate(Partition, ["current", "version"])


def _locked(partition_id: int, *, skip_locked: bool = False) -> tuple[Partition, LiveTable | None] | None:
    """The partition's row locked, with its live row (locked too) if the table is played live:
    a live table in one query (the table, its tour, tournament and players joined, read unlocked).
    None: ``skip_locked`` and the live row is held by another transaction."""
    live = (_LOCK_OR_SKIP if skip_locked else _LOCK).first(partition_id)
    if live is not None:
        live.partition.live = live
        return live.partition, live
    if skip_locked:
        return None
    partition = (Partition.objects.select_for_update(of=("self",))
                 .select_related("table__tour__tournament").filter(pk=partition_id).first())
    if partition is None:
        raise Http404(_("There is no partition %(id)s.") % {"id": partition_id})
    return partition, None


def _checked_key(key: str, data: Mapping[str, Any], reason: str) -> str:
    key = (key or "").strip()
    if len(key) > 100:
        raise ValidationError(_("An idempotency key has at most 100 characters."))
    try:
        # What is stored: the database may not take it (PostgreSQL stores no NUL character).
        jsonreader.check({"data": data, "reason": reason, "key": key})
    except jsonreader.JsonError as error:
        raise ValidationError(str(error)) from None
    return key


def change(partition_id: int, actor: Actor, check: Check, act: Callable[[Step], Any], *, turn: int | None = None,
           version: int | None = None, key: str = "", action: str = "", data: Mapping[str, Any] | None = None,
           reason: str = "") -> Partition:
    """Run one operation on a table (the module's docstring gives the steps). ``check`` decides
    whether ``actor`` may; ``act`` does it and records it (:meth:`Step.record`). ``turn``: the
    live turn the client made it for; ``version``: the version he saw; ``key`` (with ``action``
    and ``data``, what it asked): an idempotency key, a retry of which answers the partition as
    it is."""
    key = _checked_key(key, data or {}, reason)
    with transaction.atomic():
        found = _locked(partition_id)
        assert found is not None
        partition, live = found
        step = Step(partition, live, actor, clock.now())
        if live is not None and turn is not None:
            # Before the check of who acts: a move sent twice is told the turn is over, even by
            # a device that no longer holds the turn.
            step, _recorded = _caught_up(step, by="request")
            if turn != step.live.turn:
                raise StaleTurn(step.live.turn)
        check(step)
        if key:
            done = step.partition.changes.filter(idempotency_key=key).first()
            if done is not None:
                if done.action != action or done.data != dict(data or {}):
                    raise ValidationError(_("This idempotency key was already used for another change."))
                return step.partition  # applied once already: the retry gets the current partition
        if version is not None and version != step.partition.version:
            raise Conflict(step.partition.version)
        if step.partition.table.tour.status == Tour.Status.DRAFT:
            raise ValidationError(_("The tour is not published yet."))
        if live is not None and turn is None:
            step, _recorded = _caught_up(step, by="request")
        try:
            act(step)
        except engine.RulesError as error:
            # What a hand holds is told only to whoever may see it (scoring.recording.hands), never a phone.
            raise engine_error(error if sees_deal(step.actor.user, step.partition) else error.concealed()) from None
        if step.is_live:
            try:
                align(step)
            except engine.RulesError as error:
                raise engine_error(error) from None
            _SAVE_LIVE.save(step.live)
        step.announce()
    if step.read:
        step.kind.keep(step)
    return step.partition


# -- the live state, in line with the engine's -------------------------------------------------------------


def new_turn(live: LiveTable, seat: int | None, allowance: int | None, now: datetime.datetime) -> None:
    live.turn += 1
    live.seat, live.allowance, live.lapses, live.turn_paused = seat, allowance, 0, 0.0
    # A turn that begins during a pause (a result entered while paused) starts with the pause:
    # resume extends it by the whole pause, so its clock runs from the resume.
    live.turn_started_at = (live.paused_at or now) if seat is not None else None


def align(step: Step) -> None:
    """Bring the live state in line with the engine's, whatever the operation was: nothing runs
    once the partition is over; a digital table whose players are all there deals when no deal is
    being played (after a restart, an import, a correction: from a fresh seed); at a refereed or
    digital table the awaited seat is the engine's (none: the referee enters the next hands); at
    the referee's clock the clock times the deal the engine is at (none while the deal he ended
    waits for its result, ``deal_over``). Then the clocks: the
    partition's starts with its first deal, and the awaited move's deadline is set (the sweep
    finds it when it passes)."""
    live, partition = step.live, step.partition
    if partition.is_finished:
        live.deadline = live.time_deadline = live.no_show_deadline = None
        live.deal_over = False
        if live.seat is not None:
            new_turn(live, None, None, step.now)
        return
    if step.read:
        played = step.played()
        if live.mode == LiveTable.Mode.CLOCK:
            lead = step.kind.clock_lead(played)
            if live.deal_over and (lead is None or live.deal != lead.deal):
                live.deal_over = False  # the ended deal's result is recorded (or taken back)
            if lead is None:
                if live.seat is not None:
                    new_turn(live, None, None, step.now)
            elif live.deal_over:
                pass  # the referee enters the result of the deal he ended: no clock runs
            elif live.seat is None or live.deal != lead.deal:
                new_turn(live, lead.seat, lead.allowance, step.now)
                live.deal, live.move = lead.deal, 0
        else:
            if (live.mode == LiveTable.Mode.DIGITAL and played.current is None and len(live.present) == step.seats
                    and step.kind.can_deal(played)):
                step.kind.deal(step)
            awaited = played.awaited()
            if awaited is None:
                if live.seat is not None:
                    new_turn(live, None, None, step.now)
            elif (live.seat, live.deal, live.move) != (awaited.seat, awaited.deal, awaited.move):
                new_turn(live, awaited.seat, awaited.allowance, step.now)
                live.deal, live.move = awaited.deal, awaited.move
        if step.kind.time_ran_out(played):
            live.time_deadline = None  # the engine knows the time ran out: its last-deal rules apply
    if live.clock_started_at is None and (partition.current is not None or live.seat is not None):
        live.clock_started_at = step.now  # the partition's time starts with its first deal
        live.time_deadline = clock.time_deadline(live, partition.table.tour.tournament.rules.partition_minutes)
    live.deadline = None if live.seat is None or live.paused_at is not None else clock.move_deadline(live)


# -- the clocks ---------------------------------------------------------------------------------------------


def _outage(now: datetime.datetime) -> bool:
    """Whether the sweep has been silent longer than CLOCK_OUTAGE_SECONDS (the clock service was
    down): then no clock is charged until the sweep, back, has extended them by the gap."""
    beat = ClockHeartbeat.objects.filter(pk=1).values_list("swept_at", flat=True).first()
    return beat is not None and (now - beat).total_seconds() > settings.CLOCK_OUTAGE_SECONDS


def _due(step: Step) -> bool:
    """Whether a clock of the table may have run out: a deadline has passed, the table is not
    paused and its partition not over."""
    live, now = step.live, step.now
    return (any(d is not None and d <= now for d in (live.no_show_deadline, live.time_deadline, live.deadline))
            and live.paused_at is None and not step.partition.is_finished)


def _catch_up(step: Step, by: str) -> bool:
    """Record every clock of the table whose deadline has passed: the no-show, the partition's
    time, then each lapse of the awaited move (:func:`_caught_up` calls it when one is
    :func:`_due`). Returns whether anything was recorded."""
    if _outage(step.now):
        return False
    live, now = step.live, step.now
    if live.no_show_deadline is not None and live.no_show_deadline <= now:
        _no_show(step)
    if live.time_deadline is not None and live.time_deadline <= now and not step.partition.is_finished:
        _time_runs_out(step)
    while (live.deadline is not None and live.deadline <= now and not step.partition.is_finished
           and live.seat is not None):
        _lapse(step, by)
        align(step)  # a lapse that ends a game (Goat's forfeit) moves the table on
    align(step)
    return True


def _caught_up(step: Step, by: str) -> tuple[Step, bool]:
    """The step with its table's clocks caught up, in a savepoint, and whether any was due. If
    that fails, the table has a fault: it is logged, the rows are read again as they were, marked
    for the chief referee (``LiveTable.fault``) and the step goes on without the catch-up. A
    catch-up that works clears the mark."""
    live, due = step.live, False
    # Nothing run out (a move in time, most of them): no savepoint, two round trips fewer.
    if _due(step):
        try:
            with transaction.atomic():
                due = _catch_up(step, by)
        except Exception as error:  # any fault of this table: it must not block its page or the sweep
            logger.exception("The clocks of partition %s could not be recorded", step.partition.pk)
            found = _locked(step.partition.pk)
            assert found is not None and found[1] is not None
            fresh = Step(found[0], found[1], step.actor, step.now)
            fresh.live.fault = f"{type(error).__name__}: {error}"[:500]
            fresh.live.fault_at = step.now
            return fresh, False
    if live.fault:
        live.fault, live.fault_at = "", None
    return step, due


def _no_show(step: Step) -> None:
    """The no-show deadline passed (RULES 5, 9): every pair (at a Goat table every unit: a seat,
    or a pair with ``teams``) with a player missing is absent, and the partition (the sitting,
    every game of it) is decided."""
    live = step.live
    live.no_show_deadline = None
    missing = [seat for seat in range(1, step.seats + 1) if seat not in live.present]
    if not missing:
        return
    try:
        absent = step.kind.absent(step, missing)
    except engine.RulesError:
        return  # the partition has begun: the no-show rule no longer applies
    step.record("no_show", {"absent": absent, "by": "clock"})


def _time_runs_out(step: Step) -> None:
    live = step.live
    live.time_deadline = None
    game = step.played()
    during = game.current is not None or (live.mode == LiveTable.Mode.CLOCK
                                          and (live.seat is not None or live.deal_over))
    try:
        game.expire_time(during)
    except engine.RulesError:
        return
    step.record("time", {"during_deal": during, "by": "clock"})


def _lapse(step: Step, by: str) -> None:
    """The awaited move's allowance ran out once more: a move_time violation (RULES 6)."""
    live, partition = step.live, step.partition
    assert live.deadline is not None and live.seat is not None
    deadline, seat, number = live.deadline, live.seat, live.lapses + 1
    try:
        with transaction.atomic():
            ClockLapse.objects.create(partition=partition, turn=live.turn, lapse=number, seat=seat, deadline=deadline,
                                      at=step.now, by=by)
    except IntegrityError:  # recorded already (unreachable under the row lock; the constraint is the proof)
        live.lapses, live.deadline = number, None  # set again by align(), for the next lapse
        return
    found = step.kind.lapse(step, seat)
    live.lapses, live.deadline = number, None  # set again by align(), for the next lapse
    step.record("timeout", {"seat": seat, "turn": live.turn, "lapse": number, "deadline": deadline.isoformat(),
                            **found, "by": by})


def extend(live: LiveTable, gap: float) -> None:
    """Move the table's running clocks ``gap`` seconds later (a pause, an outage)."""
    delta = datetime.timedelta(seconds=gap)
    if live.seat is not None:
        live.turn_paused += gap
        live.deadline = None  # set again from the new pause total
    if live.clock_started_at is not None and live.time_deadline is not None:
        live.clock_paused += gap
        live.time_deadline += delta
    if live.no_show_deadline is not None:
        live.no_show_deadline += delta


def expire(partition_id: int, *, by: str = "sweep", skip_locked: bool = False) -> bool:
    """Record whatever clock of the table has run out: idempotent, whoever calls it and however
    often. The sweep and the pages skip a table another transaction holds (that one catches the
    clocks up itself). A table marked with a fault is left alone (a change of the table tries
    again); a new fault is marked, never raised. Returns whether anything was recorded."""
    with transaction.atomic():
        found = _locked(partition_id, skip_locked=skip_locked)
        live = found[1] if found is not None else None
        if live is None or live.fault:
            return False
        step, due = _caught_up(Step(live.partition, live, Actor(AnonymousUser()), clock.now()), by)
        if step.live.fault:
            step.live.save(update_fields=["fault", "fault_at", "updated_at"])
            return False
        if due:
            step.live.save()
            step.announce()
        return due


def overdue(partition: Partition, now: datetime.datetime | None = None) -> bool:
    """A clock of the partition's live table ran out and is not recorded yet (the clock is read
    only for a table whose clocks run; a table marked with a fault waits for a change)."""
    live = getattr(partition, "live", None)
    if live is None or live.paused_at is not None or live.fault or partition.is_finished:
        return False
    now = now or clock.now()
    return any(d is not None and d <= now for d in (live.deadline, live.time_deadline, live.no_show_deadline))


def caught_up(partition: Partition) -> Partition:
    """The partition read for a page or an answer, after its clocks that ran out are recorded
    (every request on a table, reads included; idempotent; a table another request holds is left
    to it)."""
    if overdue(partition) and expire(partition.pk, by="request", skip_locked=True):
        partition.refresh_from_db()  # its live row too (a cached reverse relation is dropped)
    return partition


def sweep(passes: int = 1, every: float = 0.0, *, limit: int = 500, budget: float = SWEEP_SECONDS,
          wait: Callable[[float], None] = time.sleep) -> int:
    """The beat's round, every second: note that the clock service is alive (after a silence
    longer than CLOCK_OUTAGE_SECONDS, extend every running clock by it first), then, ``passes``
    times ``every`` seconds apart, record the clocks that have run out, the move clocks longest
    overdue first, each table in a transaction of its own: a table that fails is logged and marked
    (:func:`expire`), and the next is taken. It stops ``budget`` seconds after its first pass began,
    its waits between passes included (the next round goes on), so that on a saturated server the
    rounds, and their heartbeat, stay frequent: a busy clock service must not be taken for a dead
    one. Returns how many tables it recorded something at."""
    now = clock.now()
    with transaction.atomic():
        beat = ClockHeartbeat.objects.select_for_update().filter(pk=1).first()
        if beat is None:
            ClockHeartbeat.objects.create(pk=1, swept_at=now)
        else:
            gap = (now - beat.swept_at).total_seconds()
            if gap > settings.CLOCK_OUTAGE_SECONDS:
                _extend_all(gap)
            beat.swept_at = now
            beat.save(update_fields=["swept_at"])
    start = time.monotonic()
    stop, recorded = start + budget, 0
    for number in range(passes):
        if number:
            wait(max(0.0, start + number * every - time.monotonic()))
            now = clock.now()
        due = list(LiveTable.objects.filter(paused_at__isnull=True, fault="")
                   .filter(Q(deadline__lte=now) | Q(time_deadline__lte=now) | Q(no_show_deadline__lte=now))
                   .order_by(F("deadline").asc(nulls_last=True), "partition_id")
                   .values_list("partition_id", flat=True)[:limit])
        for taken, pk in enumerate(due):
            if taken and time.monotonic() > stop:
                return recorded
            try:
                recorded += expire(pk, by="sweep", skip_locked=True)
            except Exception:  # the lock or the write of the mark failed: the next pass tries again
                logger.exception("The sweep could not record the clocks of partition %s", pk)
        if time.monotonic() > stop:
            break
    return recorded


def _extend_all(gap: float) -> None:
    """After an outage, every running clock gets the time it lost back."""
    for live in LiveTable.objects.select_for_update().filter(paused_at__isnull=True).filter(
            Q(deadline__isnull=False) | Q(time_deadline__isnull=False) | Q(no_show_deadline__isnull=False)):
        extend(live, gap)
        if live.seat is not None:
            live.deadline = clock.move_deadline(live)
        live.save()
