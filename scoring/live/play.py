"""Playing a table live: one service per operation (start the tour, take a seat, check in, play a
move, enter the hands, tap the referee's clock, pause, resume) and :func:`expire`, the one function
that records what a clock did.

Every operation runs in one short transaction: the partition's row locked (with its
:class:`~scoring.models.LiveTable`), the clocks caught up first (a deadline that has passed is
recorded before anything else, so nobody ever acts on a stale clock), the engine's step, and the
audit entry appended by :func:`scoring.services.append`. A move rewrites the deal being played
only (``Partition.current``); the finished deals' state is written when a deal ends or the
partition changes otherwise.

Three modes (README, "Live tables"): a *digital* table deals from stored seeds and each player
plays on his phone; at a *refereed* table the referee enters the hands (four; 2 to 4 at a Goat
table) and each move (and each tile drawn from a Goat table's bazaar); at the *referee's clock* he
taps each move and enters each deal's result. The engine refuses what the rules forbid in all
three.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine.deal import new_seed, next_seat
from scoring.hands import sees_deal
from scoring.models import ClockHeartbeat, ClockLapse, LiveTable, Partition, SeatHolder
from scoring.services import (GOAT_DEAL_KEYS, append, apply_goat_deal, engine_error, engine_partition, engine_sitting,
                              goat_deal_values, result_summary, store_sitting, store_state)
from tournaments.models import PlayMode, Table, Tour
from tournaments.permissions import can_referee, can_referee_all

from . import clock, events
from .state import table_state, with_table

#: The timer task of a move's deadline (:func:`scoring.live.timers.expire_turn`).
EXPIRE_TASK = "scoring.live.expire_turn"
#: Seconds of work a sweep round does at most (see :func:`sweep`).
SWEEP_SECONDS = 2.0
#: A timer fires this much after its deadline, so that a worker whose clock runs a little ahead
#: of the database's does not arrive early and find nothing to do.
TIMER_SLACK_SECONDS = 0.05


class StaleTurn(ValidationError):
    """The move was made for a turn that is over (someone else moved, or the deal ended)."""

    def __init__(self, turn: int) -> None:
        self.turn = turn
        super().__init__(_("This move is no longer awaited (the table is at turn %(turn)s): look at the table "
                           "again.") % {"turn": turn})


@dataclass(frozen=True)
class Actor:
    """Who acts: a login (a referee, the chief referee, an organiser), and/or the token of the
    device holding a seat of a digital table."""

    user: Any
    token: str = ""
    address: str | None = None

    def __post_init__(self) -> None:
        if self.user is None:  # a phone, the timer task, the sweep: nobody signed in
            object.__setattr__(self, "user", AnonymousUser())


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# -- the steps every operation shares -----------------------------------------------------------


def _locked(partition_id: int, *, skip_locked: bool = False) -> LiveTable | None:
    """The live table with its partition, both rows locked, in one query (an inner join: the
    partition's side may be locked); then, unlocked, the table with its tour and its players."""
    live = (LiveTable.objects.select_for_update(of=("self", "partition"), skip_locked=skip_locked)
            .select_related("partition").filter(pk=partition_id).first())
    if live is None:
        return None
    live.partition.live = live
    with_table(live.partition)
    return live


def _lock(partition_id: int) -> tuple[Partition, LiveTable]:
    live = _locked(partition_id)
    if live is None:
        raise ValidationError(_("This table is not played live."))
    return live.partition, live


def _rules(partition: Partition) -> engine.Regulations:
    return partition.table.tour.tournament.rules


class _Step:
    """One operation in progress: the locked rows, the engine's partition (read once, when first
    needed), and what it records, appended at the end as audit entries of one transaction."""

    def __init__(self, partition: Partition, live: LiveTable, actor: Actor, now: datetime.datetime) -> None:
        self.partition, self.live, self.actor, self.now = partition, live, actor, now
        self._game: engine.Partition | None = None
        self._sitting: engine.GoatSitting | None = None
        self.goat = _rules(partition).is_goat  # a Goat or Sea Goat table: its engine is a sitting
        self.events_before = 0
        self.before = result_summary(partition)
        self.done: list[str] = []  # the actions recorded, in order

    @property
    def stepped(self) -> engine.Partition | None:
        """The engine's partition if it was read (as this step left it)."""
        return self._game

    @property
    def game(self) -> engine.Partition:
        if self._game is None:
            self._game = engine_partition(self.partition)
            self.events_before = len(self._game.events)
        return self._game

    @property
    def sitting(self) -> engine.GoatSitting:
        """The engine's sitting of a Goat table (as this step left it)."""
        if self._sitting is None:
            self._sitting = engine_sitting(self.partition)
        return self._sitting

    @property
    def read(self) -> bool:
        """Whether the engine's state was read by this step."""
        return (self._sitting if self.goat else self._game) is not None

    def played(self) -> engine.Partition | engine.GoatSitting:
        """The engine's state of the table, whatever its game."""
        return self.sitting if self.goat else self.game

    def awaited(self) -> engine.Awaited | None:
        return self.played().awaited()

    @property
    def seats(self) -> int:
        """How many players the table seats."""
        return self.sitting.regulations.players if self.goat else len(engine.SEATS)

    def refused(self, error: engine.RulesError) -> ValidationError:
        # What a hand holds is told only to whoever may see it (scoring.hands), never a phone.
        return engine_error(error if sees_deal(self.actor.user, self.partition) else error.concealed())

    def record(self, action: str, data: Mapping[str, Any]) -> None:
        """Append one audit entry (a new version) for what was just done to the engine's
        partition. The finished deals' state is rewritten only when the engine's events changed;
        the moves are in the entries' data."""
        partition = self.partition
        partition.version += 1
        if self.goat:
            store_sitting(partition, self.sitting)  # small: the whole sitting, each time
            partition.save()
            append(partition, action, data, user=self.actor.user, address=self.actor.address, before=self.before,
                   keep_state=partition.is_finished)
            self.before = result_summary(partition)
            self.done.append(action)
            return
        game = self.game
        if len(game.events) != self.events_before or game.current is None:
            store_state(partition, game)
            self.events_before = len(game.events)
            partition.save()
        else:  # a move within the deal: the rest of the state, which grows with the deals, stays
            partition.current = game.current.to_dict()
            partition.save(update_fields=["current", "version"])
        # The entry counts the engine's events, from which its version is read back
        # (services.state_at); a copy of the state is kept only when the partition ends.
        append(partition, action, {**data, "events": len(game.events)}, user=self.actor.user,
               address=self.actor.address, before=self.before, keep_state=partition.is_finished)
        self.before = result_summary(partition)
        self.done.append(action)

    def announce(self) -> None:
        """The one event of this transaction, for the live screens: the table as the public sees
        it, and every action recorded. Last, after every other lock (scoring.live.events)."""
        if self.done:
            events.announce(self.partition, self.done[-1], table_state(self.partition, game=self.played()),
                            actions=self.done)


def _change(partition_id: int, actor: Actor, check: Callable[[_Step], None], act: Callable[[_Step], Any], *,
            turn: int | None = None) -> Partition:
    """Run one operation of live play: lock, check who acts, catch the clocks up, check the turn,
    act, re-arm the clocks, save."""
    with transaction.atomic():
        partition, live = _lock(partition_id)
        step = _Step(partition, live, actor, clock.now())
        check(step)
        _catch_up(step, by="request")
        if turn is not None and turn != live.turn:
            raise StaleTurn(live.turn)
        act(step)
        _arm(step)
        live.save()
        step.announce()
    if step.stepped is not None:
        partition.engine_cache = (partition.version, step.stepped)
    return partition


# -- the clocks ---------------------------------------------------------------------------------


def _outage(now: datetime.datetime) -> bool:
    """Whether the sweep has been silent longer than CLOCK_OUTAGE_SECONDS (the clock service was
    down): then no clock is charged until the sweep, back, has extended them by the gap."""
    beat = ClockHeartbeat.objects.filter(pk=1).values_list("swept_at", flat=True).first()
    return beat is not None and (now - beat).total_seconds() > settings.CLOCK_OUTAGE_SECONDS


def _catch_up(step: _Step, by: str) -> bool:
    """Record every clock of the table whose deadline has passed: the no-show, the partition's
    time, then each lapse of the awaited move. Returns whether anything was recorded."""
    live, now = step.live, step.now
    due = [d for d in (live.no_show_deadline, live.time_deadline, live.deadline) if d is not None and d <= now]
    if not due or live.paused_at is not None or step.partition.is_finished or _outage(now):
        return False
    if live.no_show_deadline is not None and live.no_show_deadline <= now:
        _no_show(step)
    if live.time_deadline is not None and live.time_deadline <= now and not step.partition.is_finished:
        _time_runs_out(step)
    while (live.deadline is not None and live.deadline <= now and not step.partition.is_finished
           and live.seat is not None):
        _lapse(step, by)
    _arm(step)
    return True


def _no_show(step: _Step) -> None:
    """The no-show deadline passed (RULES 5, 9): every pair (at a Goat table every unit: a seat,
    or a pair with ``teams``) with a player missing is absent, and the partition (the sitting,
    every game of it) is decided."""
    live = step.live
    live.no_show_deadline = None
    missing = [seat for seat in range(1, step.seats + 1) if seat not in live.present]
    if not missing:
        return
    absent: Any
    try:
        if step.goat:
            units = engine.units_of(step.sitting.regulations)
            away = {units[engine.unit_index(seat, step.sitting.regulations)] for seat in missing}
            absent = [unit for unit in units if unit in away]
            step.sitting.record_no_show(absent)
        else:
            pairs = {engine.pair_of(seat) for seat in missing}
            absent = engine.Absent.BOTH if len(pairs) == 2 else engine.Absent(pairs.pop())
            step.game.record_no_show(absent)
    except engine.RulesError:
        return  # the partition has begun: the no-show rule no longer applies
    step.record("no_show", {"absent": absent, "by": "clock"})


def _time_runs_out(step: _Step) -> None:
    live = step.live
    live.time_deadline = None
    game = step.played()
    during = game.current is not None or (live.mode == LiveTable.Mode.CLOCK and live.seat is not None)
    try:
        game.expire_time(during)
    except engine.RulesError:
        return
    step.record("time", {"during_deal": during, "by": "clock"})


def _lapse(step: _Step, by: str) -> None:
    """The awaited move's allowance ran out once more: a move_time violation (RULES 6)."""
    live, partition = step.live, step.partition
    assert live.deadline is not None and live.seat is not None
    deadline, seat, number = live.deadline, live.seat, live.lapses + 1
    try:
        with transaction.atomic():
            ClockLapse.objects.create(partition=partition, turn=live.turn, lapse=number, seat=seat, deadline=deadline,
                                      at=step.now, by=by)
    except IntegrityError:  # recorded already (unreachable under the row lock; the constraint is the proof)
        live.lapses = number
        live.deadline = clock.move_deadline(live)
        return
    if step.goat:
        _goat_lapse(step, by, deadline, seat, number)
        return
    game = step.game
    if live.mode == LiveTable.Mode.CLOCK:
        violation = game.record_violation(seat, engine.ViolationCode.MOVE_TIME, move=live.move)
    else:
        violation = game.record_lapse(seat)
    live.lapses = number
    live.deadline = clock.move_deadline(live)
    step.record("timeout", {"seat": seat, "turn": live.turn, "lapse": number, "deadline": deadline.isoformat(),
                            "violation": violation.id, "consequence": violation.consequence, "by": by})


def _goat_lapse(step: _Step, by: str, deadline: datetime.datetime, seat: int, number: int) -> None:
    """A Goat player's move clock ran out (RULES 6, 9.1): a ``move_time`` violation of the game
    being played (the engine escalates it: a warning, then penalties, counted over the sitting);
    with ``move_timeout`` forfeit the game ends (at the referee's clock a penalty that makes a
    goat too: the engine holds no deal to finish), and the sitting's next one is dealt, or at the
    referee's clock waits for its leader."""
    live, sitting = step.live, step.sitting
    games = len(sitting.games)
    try:
        violation = sitting.record_lapse(seat)
    except engine.RulesError as error:
        raise step.refused(error) from None
    live.lapses = number
    live.deadline = clock.move_deadline(live)
    found = {} if violation is None else {"game": games, "violation": violation.id}
    step.record("timeout", {"seat": seat, "turn": live.turn, "lapse": number, "deadline": deadline.isoformat(),
                            **found, "consequence": "forfeit" if violation is None else violation.consequence,
                            "by": by})
    if len(sitting.games) == games and not sitting.is_over:
        return
    _new_turn(live, None, None, step.now)  # the game is over: nobody's clock runs until the next deal
    if sitting.is_over:
        return
    if live.mode == LiveTable.Mode.DIGITAL:
        _deal(step)
    elif live.mode == LiveTable.Mode.CLOCK:
        _clock_deal(step)


def _new_turn(live: LiveTable, seat: int | None, allowance: int | None, now: datetime.datetime) -> None:
    live.turn += 1
    live.seat, live.allowance, live.lapses, live.turn_paused = seat, allowance, 0, 0.0
    live.turn_started_at = now if seat is not None else None


def _arm(step: _Step) -> None:
    """Set the clocks for what the table awaits now, and send the timer task of a new deadline."""
    live, partition = step.live, step.partition
    if partition.is_finished:
        live.deadline = live.time_deadline = live.no_show_deadline = None
        if live.seat is not None:
            _new_turn(live, None, None, step.now)
        return
    if live.mode != LiveTable.Mode.CLOCK and step.read:
        awaited = step.awaited()
        if awaited is None:
            if live.seat is not None:
                _new_turn(live, None, None, step.now)
        elif (live.seat, live.deal, live.move) != (awaited.seat, awaited.deal, awaited.move):
            _new_turn(live, awaited.seat, awaited.allowance, step.now)
            live.deal, live.move = awaited.deal, awaited.move
    if live.clock_started_at is None and (partition.current is not None or live.seat is not None):
        live.clock_started_at = step.now  # the partition's time starts with its first deal
        live.time_deadline = clock.time_deadline(live, _rules(partition).partition_minutes)
    if live.seat is None or live.paused_at is not None:
        live.deadline = None
        return
    deadline = clock.move_deadline(live)
    if deadline != live.deadline:
        live.deadline = deadline
        pid, turn = partition.pk, live.turn
        transaction.on_commit(lambda: send_timer(pid, turn, deadline), robust=True)


def send_timer(partition_id: int, turn: int, deadline: datetime.datetime) -> None:
    """Send the timer task of ``turn``'s deadline (after the commit that set it), by name: the
    tasks (:mod:`.timers`) call this module, not the other way round."""
    countdown = max(0.0, (deadline - timezone.now()).total_seconds() + TIMER_SLACK_SECONDS)
    current_app.send_task(EXPIRE_TASK, (partition_id, turn), countdown=countdown, queue=settings.CLOCK_QUEUE)


# -- public operations --------------------------------------------------------------------------


Check = Callable[[_Step], None]


def _all(*checks: Check) -> Check:
    """One check made of several, in order."""
    def check(step: _Step) -> None:
        for each in checks:
            each(step)
    return check


def _modes(*modes: str) -> Check:
    return lambda step: _mode(step, *modes)


def _referee(step: _Step) -> None:
    if not can_referee(step.actor.user, step.partition.table):
        raise PermissionDenied(_("Only the referee of this table may do this."))


def _chief(step: _Step) -> None:
    if not can_referee_all(step.actor.user, step.partition.table.tour.tournament):
        raise PermissionDenied(_("Only the chief referee may do this."))


def _mode(step: _Step, *modes: str) -> None:
    if step.live.mode not in modes:
        raise ValidationError(_("This table is not played that way (it is a %(mode)s).") % {
            "mode": step.live.get_mode_display()})


def _playing(step: _Step) -> None:
    if step.partition.is_finished:
        raise ValidationError(_("The partition is finished."))
    if step.live.paused_at is not None:
        raise ValidationError(_("The table is paused: the referee resumes it first."))


def seats_held(partition_id: int, token: str) -> list[int]:
    """The seats (of a digital table) the device with ``token`` holds."""
    if not token:
        return []
    return list(SeatHolder.objects.filter(partition_id=partition_id, token_hash=token_hash(token))
                .values_list("seat", flat=True))


def start_tour(user, tour: Tour) -> Tour:
    """The chief referee starts a published tour: its live tables open, and the no-show deadline
    of each (RULES 5: ``no_show_minutes`` from now) begins to run. The planned start only
    informs. A table recorded on the score sheet already stays on it."""
    with transaction.atomic():
        tour = Tour.objects.select_for_update(no_key=True).select_related("tournament").get(pk=tour.pk)
        if not can_referee_all(user, tour.tournament):
            raise PermissionDenied(_("Only the chief referee may start a tour."))
        if tour.status == Tour.Status.DRAFT:
            raise ValidationError(_("Publish the tour before starting it."))
        if tour.started_at is not None:
            raise ValidationError(_("Tour %(number)s was started at %(at)s.") % {
                "number": tour.number, "at": tour.started_at})
        now = clock.now()
        tour.started_at = now
        tour.save(update_fields=["started_at"])
        deadline = now + datetime.timedelta(minutes=tour.tournament.rules.no_show_minutes)
        tables = Table.objects.filter(tour=tour).select_related("partition", "tour").order_by("number")
        for table in tables:
            partition = table.partition
            if table.mode == PlayMode.SHEET or partition.version:
                continue
            live = LiveTable.objects.create(partition=partition, mode=table.mode, no_show_deadline=deadline)
            partition.table = table
            table.tour = tour
            step = _Step(partition, live, Actor(user), now)
            step.played()  # a new partition (a sitting) under the tournament's regulations
            step.record("live", {"mode": live.mode, "no_show_deadline": deadline.isoformat()})
            step.announce()
    return tour


def _check_live(rules: engine.Regulations, *modes: str) -> None:
    """A points game (RULES 9.3) has no tiles to play live: its tables are on the score sheet."""
    if rules.scored_by_hand and any(mode and mode != PlayMode.SHEET for mode in modes):
        raise ValidationError(_("A points game is recorded on the score sheet only: its tables cannot be played "
                                "live."))


def set_play_mode(user, table: Table, mode: str) -> Table:
    """The organiser or the chief referee changes how one table is played, before its tour
    starts ("" : as the tour says)."""
    if not can_referee_all(user, table.tour.tournament):
        raise PermissionDenied(_("Only the chief referee may change how a table is played."))
    if mode and mode not in PlayMode.values:
        raise ValidationError(_("Unknown way of playing %(mode)s.") % {"mode": mode})
    _check_live(table.tour.tournament.rules, mode)
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("tour").get(pk=table.pk)
        if table.tour.started_at is not None:
            raise ValidationError(_("The tour has started: its tables are played as they were opened."))
        table.play_mode = mode
        table.save(update_fields=["play_mode"])
    return table


def set_tour_play_mode(user, tour: Tour, mode: str, tables: Mapping[int, str] | None = None) -> Tour:
    """The organiser or the chief referee chooses how a tour's tables are played, and (``tables``:
    table number -> mode, "" as the tour says) a table's own way, all at once, before the tour
    starts."""
    if not can_referee_all(user, tour.tournament):
        raise PermissionDenied(_("Only the chief referee may change how a table is played."))
    tables = tables or {}
    for value in (mode, *(v for v in tables.values() if v)):  # a table's "" is the tour's way
        if value not in PlayMode.values:
            raise ValidationError(_("Unknown way of playing %(mode)s.") % {"mode": value})
    _check_live(tour.tournament.rules, mode, *tables.values())
    with transaction.atomic():
        tour = Tour.objects.select_for_update().select_related("tournament").get(pk=tour.pk)
        if tour.started_at is not None:
            raise ValidationError(_("The tour has started: its tables are played as they were opened."))
        tour.play_mode = mode
        tour.save(update_fields=["play_mode"])
        for number, table_mode in tables.items():
            Table.objects.filter(tour=tour, number=number).update(play_mode=table_mode)
    return tour


def claim_seat(partition_id: int, seat: int, pin: str, *, address: str | None = None) -> str:
    """A player takes his seat at a digital table (he scanned its code and typed his PIN): his
    device gets a token that holds the seat; he is checked in. One device holds a seat at a
    time (the referee releases it); wrong PINs are counted per seat and lock it for a while."""
    if seat not in engine.SEATS:
        raise ValidationError(_("A seat is 1 to 4."))
    token = secrets.token_urlsafe(32)
    failure: ValidationError | None = None

    def check(step: _Step) -> None:
        _mode(step, LiveTable.Mode.DIGITAL)
        if step.partition.is_finished:
            raise ValidationError(_("The partition is finished."))

    def act(step: _Step) -> None:
        nonlocal failure
        holder, _created = SeatHolder.objects.select_for_update().get_or_create(partition=step.partition, seat=seat)
        if holder.locked_until is not None and holder.locked_until > step.now:
            raise ValidationError(_("Too many wrong PINs for this seat: wait %(minutes)s minutes or ask the "
                                    "referee.") % {"minutes": settings.PIN_LOCK_MINUTES})
        player = getattr(step.partition.table, f"seat{seat}")
        if player is None:
            raise ValidationError(_("Nobody sits at seat %(seat)s of this table.") % {"seat": seat})
        if not player.pin or not check_password(pin, player.pin):
            holder.failures += 1
            if holder.failures >= settings.PIN_FAILURE_LIMIT:
                holder.failures, holder.locked_until = 0, step.now + datetime.timedelta(
                    minutes=settings.PIN_LOCK_MINUTES)
            holder.save(update_fields=["failures", "locked_until"])
            failure = ValidationError(_("Wrong PIN for seat %(seat)s.") % {"seat": seat} if player.pin
                                      else _("%(player)s has no PIN yet: the organiser sets one.") % {
                                          "player": player})
            return  # the count is kept: the refusal is raised after the commit
        if holder.token_hash:
            raise ValidationError(_("Another device holds seat %(seat)s: the referee can release it.") % {
                "seat": seat})
        holder.token_hash, holder.claimed_at, holder.address = token_hash(token), step.now, step.actor.address
        holder.failures, holder.locked_until = 0, None
        holder.save()
        step.record("seat", {"seat": seat, "player": player.pk})
        _present(step, seat)

    _change(partition_id, Actor(None, address=address), check, act)
    if failure is not None:
        raise failure
    return token


def release_seat(user, partition_id: int, seat: int, *, address: str | None = None) -> Partition:
    """The referee frees a seat of a digital table (a lost or broken phone): it can be taken
    again, on any device."""
    def act(step: _Step) -> None:
        updated = SeatHolder.objects.filter(partition=step.partition, seat=seat).exclude(token_hash="").update(
            token_hash="", claimed_at=None)
        if not updated:
            raise ValidationError(_("No device holds seat %(seat)s.") % {"seat": seat})
        step.record("release", {"seat": seat})

    return _change(partition_id, Actor(user, address=address), _all(_referee, _modes("digital")), act)


def _present(step: _Step, seat: int) -> None:
    """Seat ``seat`` is at the table; with all four there, a digital partition begins."""
    live = step.live
    if seat not in live.present:
        live.present = sorted([*live.present, seat])
        step.record("check_in", {"seat": seat})
    if len(live.present) == step.seats and live.no_show_deadline is not None:
        live.no_show_deadline = None
        if live.mode == LiveTable.Mode.DIGITAL and step.goat and not step.sitting.deals and step.sitting.current is None:
            _deal(step)  # RULES 9.1: the first deal is led by its hands
        elif live.mode == LiveTable.Mode.DIGITAL and not step.game.deals and step.game.current is None:
            step.game.draw_lead(secrets.choice(engine.SEATS))  # RULES 3: the server draws the lead
            step.record("lead", {"seat": step.game.first_leader, "by": "draw"})
            _deal(step)


def check_in(user, partition_id: int, seat: int, *, address: str | None = None) -> Partition:
    """The referee ticks a player present."""
    if seat not in engine.SEATS:
        raise ValidationError(_("A seat is 1 to 4."))
    def act(step: _Step) -> None:
        if seat > step.seats:
            raise ValidationError(_("Nobody sits at seat %(seat)s of this table.") % {"seat": seat})
        _present(step, seat)

    return _change(partition_id, Actor(user, address=address), _referee, act)


def postpone_no_show(user, partition_id: int, minutes: int, *, address: str | None = None) -> Partition:
    """The referee (or the chief referee) gives the absent players ``minutes`` more (RULES 5)."""
    if not 1 <= minutes <= 120:
        raise ValidationError(_("Postpone by 1 to 120 minutes."))

    def act(step: _Step) -> None:
        deadline = step.live.no_show_deadline
        if deadline is None:
            raise ValidationError(_("No no-show deadline is running at this table."))
        step.live.no_show_deadline = max(deadline, step.now) + datetime.timedelta(minutes=minutes)
        step.record("postpone", {"minutes": minutes, "no_show_deadline": step.live.no_show_deadline.isoformat()})

    return _change(partition_id, Actor(user, address=address), _referee, act)


def _deal(step: _Step) -> None:
    """A digital table deals the next deal from a fresh secret seed (shown once it is over); at a
    Goat table a void deal is recorded and dealt again (RULES 9.1)."""
    if step.goat:
        while True:
            try:
                goat_deal = step.sitting.start_deal(seed=str(new_seed()))
            except engine.RulesError as error:
                raise step.refused(error) from None
            step.record("redeal" if goat_deal.is_void else "deal_start",
                        {"deal": step.sitting.deals + (0 if goat_deal.is_void else 1), "leader": goat_deal.leader})
            if not goat_deal.is_void:
                return
    try:
        deal = step.game.start_deal(seed=str(new_seed()))
    except engine.RulesError as error:
        raise step.refused(error) from None
    step.record("deal_start", {"deal": len(step.game.deals) + 1, "leader": deal.leader})


def start_partition(user, partition_id: int, leader: int, *, address: str | None = None) -> Partition:
    """The referee of a refereed table or of the referee's clock starts the partition once the
    players are seated: the lead draw's result (RULES 3); everyone is then present."""
    if leader not in engine.SEATS:
        raise ValidationError(_("A seat is 1 to 4."))

    def act(step: _Step) -> None:
        live = step.live
        if step.goat:
            raise ValidationError(_("A Goat table has no lead draw: the first deal of each game is led by the hands "
                                    "(RULES 9.1)."))
        if step.game.first_leader is not None:
            raise ValidationError(_("The partition has already started."))
        _everyone_present(step)
        try:
            step.game.draw_lead(leader)
        except engine.RulesError as error:
            raise step.refused(error) from None
        step.record("lead", {"seat": leader})
        if live.mode == LiveTable.Mode.CLOCK:
            _clock_deal(step)

    return _change(partition_id, Actor(user, address=address),
                   _all(_referee, _modes("refereed", "clock"), _playing), act)


def _everyone_present(step: _Step) -> None:
    """The partition starts at the referee's word: every player is at the table."""
    live = step.live
    live.present = sorted({*live.present, *range(1, step.seats + 1)})
    live.no_show_deadline = None


def enter_hands(user, partition_id: int, hands: Mapping[str, Sequence[str]], *, turn: int | None = None,
                address: str | None = None) -> Partition:
    """At a refereed table, the referee enters the hands drawn, 7 tiles each, none twice: the four
    of a sports table (28 tiles); the 2 to 4 of a Goat table, the bazaar being every tile in no
    hand (RULES 9.1). The deal starts and the leader's clock runs; a Goat deal with a void hand is
    recorded as a redeal at once, and the referee enters the next hands."""
    def act(step: _Step) -> None:
        if step.goat:
            _goat_hands(step, hands)
            return
        try:
            deal = step.game.start_deal(hands=[hands[str(seat)] for seat in engine.SEATS])
        except KeyError:
            raise ValidationError(_("Give the hands of seats 1, 2, 3 and 4.")) from None
        except engine.RulesError as error:
            raise step.refused(error) from None
        step.record("hands", {"deal": len(step.game.deals) + 1, "leader": deal.leader})

    return _change(partition_id, Actor(user, address=address),
                   _all(_referee, _modes("refereed"), _playing), act, turn=turn)


def _goat_hands(step: _Step, hands: Mapping[str, Sequence[str]]) -> None:
    """The hands of a Goat deal: the first deal of a game is led by them (RULES 9.1), a later one
    by the domino maker or fisherman."""
    seats = [str(seat) for seat in range(1, step.seats + 1)]
    others = sorted(set(hands) - set(seats))
    if others:
        raise ValidationError(_("Nobody sits at seat %(seat)s of this table.") % {"seat": others[0]})
    if sorted(hands) != seats:
        raise ValidationError(_("Give the hands of seats 1 to %(seats)s.") % {"seats": step.seats})
    sitting = step.sitting
    try:
        deal = sitting.start_deal(hands=[list(hands[seat]) for seat in seats])
    except engine.RulesError as error:
        raise step.refused(error) from None
    _everyone_present(step)
    if deal.is_void:  # RULES 9.1: shown and dealt again, nothing scored
        step.record("redeal", {"deal": sitting.deals, "by": "hands"})
    else:
        step.record("hands", {"deal": sitting.deals + 1, "leader": deal.leader})


def move(actor: Actor, partition_id: int, turn: int, *, tile: str | None = None, end: str | None = None,
         pass_turn: bool = False, second: str | None = None) -> Partition:
    """The awaited player plays ``tile`` (on ``end`` when it fits both) or passes, made for
    ``turn``; in Sea Goat ``second``, a double, goes on the other end in the same move (RULES
    9.2). At a digital table the device holding his seat (or the referee) sends it, and a pass
    while holding a playable tile is refused; at a refereed table the referee enters it, and such
    a pass is recorded as the false pass it is (RULES 7), which ends the deal."""
    if pass_turn == (tile is not None):
        raise ValidationError(_("Play a tile or pass."))
    if end not in (None, *engine.Side):
        raise ValidationError(_("A tile goes on the left or the right end."))
    if second is not None and tile is None:
        raise ValidationError(_("A second double goes with a first one."))

    def act(step: _Step) -> None:
        if step.goat:
            _goat_move(step, turn, tile, end, second)
            return
        if second is not None:
            raise ValidationError(_("Two doubles in one move are played in Sea Goat only."))
        live, game = step.live, step.game
        seat = live.seat
        if seat is None or game.current is None:
            raise ValidationError(_("No move is awaited now."))
        seconds = clock.charged(live, step.now)
        data: dict[str, Any] = {"seat": seat, "turn": turn, "seconds": seconds}
        try:
            if tile is not None:
                game.play(tile, engine.Side(end) if end else None, seat=seat, seconds=seconds)
                data.update(tile=tile, end=end)
            elif live.mode == LiveTable.Mode.REFEREED and game.current.legal_moves():
                game.end_false_pass(seat, seconds=seconds)
                data["false_pass"] = True
            else:
                game.pass_turn(seat, seconds=seconds)
                data["pass"] = True
        except engine.RulesError as error:
            raise step.refused(error) from None
        ended = game.current is None
        step.record("move", data)
        if ended and live.mode == LiveTable.Mode.DIGITAL and not game.is_over:
            _deal(step)

    return _change(partition_id, actor, _to_move(actor), act, turn=turn)


def _to_move(actor: Actor) -> Check:
    """The check of a move: the table plays, and the actor is the referee or the device holding
    the seat to move at a digital table."""
    def check(step: _Step) -> None:
        _mode(step, LiveTable.Mode.DIGITAL, LiveTable.Mode.REFEREED)
        _playing(step)
        if can_referee(actor.user, step.partition.table):
            return
        if step.live.mode == LiveTable.Mode.DIGITAL and step.live.seat in seats_held(step.partition.pk, actor.token):
            return
        raise PermissionDenied(_("It is not your move: only the player to move, from the device holding his seat, "
                                 "or the referee may play it."))
    return check


def _goat_move(step: _Step, turn: int, tile: str | None, end: str | None, second: str | None) -> None:
    """A move at a Goat table: a tile (in Sea Goat with a ``second`` double on the other end), or
    a pass when nothing fits and the bazaar may not be drawn (the engine refuses any other); when
    it ends the deal the next one is dealt (the next game's, when it ended a game), unless the
    sitting is over."""
    live, sitting = step.live, step.sitting
    seat = live.seat
    if seat is None or sitting.current is None:
        raise ValidationError(_("No move is awaited now."))
    data: dict[str, Any] = {"seat": seat, "turn": turn, "seconds": clock.charged(live, step.now)}
    try:
        if tile is not None:
            sitting.play(tile, engine.Side(end) if end else None, seat, second)
            data.update(tile=tile, end=end)
            if second is not None:
                data["second"] = second
        else:
            sitting.pass_turn(seat)
            data["pass"] = True
    except engine.RulesError as error:
        raise step.refused(error) from None
    ended = sitting.current is None
    step.record("move", data)
    if ended and live.mode == LiveTable.Mode.DIGITAL and not sitting.is_over:
        _deal(step)


def draw(actor: Actor, partition_id: int, turn: int, tile: str | None = None) -> Partition:
    """At a Goat table the player to move, with no tile that fits, takes a tile from the bazaar
    (RULES 9.1): at a digital table the next one of the dealt bazaar (face down: none is named);
    at a refereed table the referee names ``tile``, the one he drew (the physical bazaar's order is
    not known). The engine refuses a draw while a tile fits, when the bazaar is exhausted, or of a
    tile not in it. His turn and its clock go on: drawing is part of the move (RULES 6). The tile
    is not written in the audit entry: the state holds it, and only its holder (and the referee
    of a refereed table) sees it."""
    def act(step: _Step) -> None:
        live = step.live
        if not step.goat:
            raise ValidationError(_("Only a Goat table has a bazaar to draw from."))
        if live.seat is None or step.sitting.current is None:
            raise ValidationError(_("No move is awaited now."))
        if tile is not None and live.mode == LiveTable.Mode.DIGITAL:
            raise ValidationError(_("The bazaar of a digital table is face down: draw without naming a tile."))
        try:
            step.sitting.draw(live.seat, tile)
        except engine.RulesError as error:
            raise step.refused(error) from None
        step.record("draw", {"seat": live.seat, "turn": turn})

    return _change(partition_id, actor, _to_move(actor), act, turn=turn)


# -- the referee's clock (mode 3) -----------------------------------------------------------------


def _clock_deal(step: _Step) -> None:
    """At the referee's clock a deal begins with its leader's lead (RULES 6: a lead is allowed
    ``time_several``; the forced lead of a Goat game's first deal ``time_single``, RULES 9.1). A
    Goat game's first deal waits for the referee to name its leader (:func:`goat_lead`)."""
    live = step.live
    if step.goat:
        sitting = step.sitting
        game = sitting.game
        if sitting.is_over or game.needs_lead:
            return
        first = game.next_leader is None
        leader = game.first_leader if first else game.next_leader
        rules, number = sitting.regulations, sitting.deals + 1
        allowance = rules.time_single if first else rules.time_several
    else:
        status = step.game.status()
        if status.leader is None or step.game.is_over:
            return
        leader, number, allowance = status.leader, status.deal or 0, step.game.regulations.time_several
    _new_turn(live, leader, allowance, step.now)
    live.deal, live.move = number, 0


def goat_lead(user, partition_id: int, seat: int, *, address: str | None = None) -> Partition:
    """At a Goat table on the referee's clock, the seat that leads the first deal of a game: the
    holder of 1-1, or of the tile RULES 9.1 names when nobody holds it (the tiles are on the table,
    not in the server). Every player is then present; the leader's clock starts."""
    def act(step: _Step) -> None:
        if not step.goat:
            raise ValidationError(_("A sports table starts with the lead draw."))
        if step.live.seat is not None:
            raise ValidationError(_("A deal is being played: enter its result first."))
        try:
            step.sitting.draw_lead(seat)
        except engine.RulesError as error:
            raise step.refused(error) from None
        _everyone_present(step)
        step.record("lead", {"seat": seat, "game": len(step.sitting.games)})
        _clock_deal(step)

    return _change(partition_id, Actor(user, address=address), _all(_referee, _modes("clock"), _playing), act)


ALLOWANCES = ("single", "several", "fish", "pass")


def tap(user, partition_id: int, turn: int, *, allowance: str = "several", address: str | None = None) -> Partition:
    """At the referee's clock the referee taps the move just made: the next seat's clock starts,
    with ``allowance`` (20 s unless he switches it, :func:`set_allowance`)."""
    def act(step: _Step) -> None:
        live = step.live
        if live.seat is None:
            raise ValidationError(_("No move is awaited now: enter the deal's result, or start the partition."))
        seconds = clock.charged(live, step.now)
        seat, number = live.seat, live.move
        _new_turn(live, next_seat(seat, step.seats), _allowance(step, allowance), step.now)
        live.move = number + 1
        step.record("tap", {"seat": seat, "move": number, "seconds": seconds, "turn": turn})

    return _change(partition_id, Actor(user, address=address),
                   _all(_referee, _modes("clock"), _playing), act, turn=turn)


def _allowance(step: _Step, kind: str) -> int:
    if kind not in ALLOWANCES:
        raise ValidationError(_("The allowance is single, several, fish or pass."))
    return step.played().regulations.allowances()[ALLOWANCES.index(kind)]


def set_allowance(user, partition_id: int, turn: int, kind: str, *, address: str | None = None) -> Partition:
    """At the referee's clock, one tap switches the awaited move's allowance: 5 s for a single
    possible move or a pass, 60 s when it could make fish (RULES 6)."""
    def act(step: _Step) -> None:
        live = step.live
        if live.seat is None:
            raise ValidationError(_("No move is awaited now."))
        live.allowance = _allowance(step, kind)
        live.deadline = None  # re-armed with the new allowance
        step.record("allowance", {"seat": live.seat, "turn": turn, "allowance": live.allowance})

    return _change(partition_id, Actor(user, address=address),
                   _all(_referee, _modes("clock"), _playing), act, turn=turn)


def clock_deal_result(user, partition_id: int, end: str, seat: int | None, pips: Mapping[str, int], *,
                      address: str | None = None) -> Partition:
    """At the referee's clock, the deal's result as on the score sheet (how it ended, who, the
    pips left); the next deal's lead clock starts."""
    def act(step: _Step) -> None:
        if step.goat:
            raise ValidationError(_("A Goat deal ends with each hand's value: enter it as such."))
        live, game = step.live, step.game
        if live.seat is None:
            raise ValidationError(_("No deal is being played."))
        try:
            game.record_deal(engine.DealEnd(end), seat, (pips["A"], pips["B"]))
        except engine.RulesError as error:
            raise step.refused(error) from None
        _new_turn(live, None, None, step.now)
        step.record("deal", {"end": end, "seat": seat, "pips": dict(pips)})
        _clock_deal(step)

    return _change(partition_id, Actor(user, address=address),
                   _all(_referee, _modes("clock"), _playing), act)


def clock_goat_result(user, partition_id: int, deal: Mapping[str, Any], *, address: str | None = None) -> Partition:
    """At a Goat table on the referee's clock, the deal's result as on the Goat score sheet
    (:func:`scoring.services.record_goat_deal`: domino or fish with the seat and each hand's
    value, or a redeal, which a void hand shows before anyone leads); the next deal's leader's
    clock starts (a game's first deal waits for :func:`goat_lead`)."""
    values = goat_deal_values(deal, GOAT_DEAL_KEYS - {"lead"})  # the leader was named (goat_lead)

    def act(step: _Step) -> None:
        live = step.live
        if not step.goat:
            raise ValidationError(_("This table does not play Goat or Sea Goat."))
        if live.seat is None and deal.get("end") != engine.GoatEnd.REDEAL:
            raise ValidationError(_("No deal is being played: name the seat that leads it first."))
        try:
            apply_goat_deal(step.sitting, deal, values)
        except engine.RulesError as error:
            raise step.refused(error) from None
        _new_turn(live, None, None, step.now)
        step.record("goat_deal", dict(deal))
        _clock_deal(step)

    return _change(partition_id, Actor(user, address=address), _all(_referee, _modes("clock"), _playing), act)


# -- pause -------------------------------------------------------------------------------------


def pause(user, partition_id: int, reason: str, *, address: str | None = None) -> Partition:
    """Stop every clock of the table (a dispute, a call to the chief referee)."""
    if reason not in LiveTable.Pause.values:
        raise ValidationError(_("A pause is for a dispute or a call to the chief referee."))

    def act(step: _Step) -> None:
        live = step.live
        if live.paused_at is not None:
            raise ValidationError(_("The table is already paused."))
        if step.partition.is_finished:
            raise ValidationError(_("The partition is finished."))
        live.paused_at, live.pause_reason = step.now, reason
        step.record("pause", {"reason": reason})

    return _change(partition_id, Actor(user, address=address), _referee, act)


def resume(user, partition_id: int, *, address: str | None = None) -> Partition:
    """Restart the table's clocks with the time each had left."""
    def act(step: _Step) -> None:
        live = step.live
        if live.paused_at is None:
            raise ValidationError(_("The table is not paused."))
        gap = (step.now - live.paused_at).total_seconds()
        _extend(live, gap)
        step.record("resume", {"reason": live.pause_reason, "seconds": round(gap, 1)})
        live.paused_at, live.pause_reason = None, ""

    return _change(partition_id, Actor(user, address=address), _referee, act)


def _extend(live: LiveTable, gap: float) -> None:
    """Move the table's running clocks ``gap`` seconds later (a pause, an outage)."""
    delta = datetime.timedelta(seconds=gap)
    if live.seat is not None:
        live.turn_paused += gap
        live.deadline = None  # re-armed from the new pause total
    if live.clock_started_at is not None and live.time_deadline is not None:
        live.clock_paused += gap
        live.time_deadline += delta
    if live.no_show_deadline is not None:
        live.no_show_deadline += delta


# -- the clocks' own paths: the timer task and the sweep ---------------------------------------------


def expire(partition_id: int, turn: int | None = None, *, by: str = "task", skip_locked: bool = False) -> bool:
    """Record whatever clock of the table has run out: idempotent, whoever calls it and however
    often. The timer task passes the ``turn`` it was sent for (a later turn makes it a no-op);
    the sweep passes none and skips a table another transaction holds (that one catches the
    clocks up itself). Returns whether anything was recorded."""
    with transaction.atomic():
        live = _locked(partition_id, skip_locked=skip_locked)
        if live is None:
            return False
        partition = live.partition
        if turn is not None and turn != live.turn:
            return False
        step = _Step(partition, live, Actor(None), clock.now())
        if not _catch_up(step, by=by):
            return False
        live.save()
        step.announce()
        return True


def sweep(limit: int = 500, budget: float = SWEEP_SECONDS) -> int:
    """The beat's round, every second: note that the clock service is alive (after a silence
    longer than CLOCK_OUTAGE_SECONDS, extend every running clock by it first), then record the
    clocks that ran out and no task recorded (a dead worker, a lost message), the move clocks
    longest overdue first. It stops taking tables after ``budget`` seconds of work (the next round goes on), so
    that on a saturated server the rounds, and their heartbeat, stay frequent: a busy clock
    service must not be taken for a dead one. Returns how many tables it recorded something at."""
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
    due = list(LiveTable.objects.filter(paused_at__isnull=True)
               .filter(Q(deadline__lte=now) | Q(time_deadline__lte=now) | Q(no_show_deadline__lte=now))
               .order_by(F("deadline").asc(nulls_last=True), "partition_id")
               .values_list("partition_id", flat=True)[:limit])
    stop = time.monotonic() + budget
    recorded = 0
    for number, pk in enumerate(due):
        if number and time.monotonic() > stop:
            break
        recorded += expire(pk, by="sweep", skip_locked=True)
    return recorded


def _extend_all(gap: float) -> None:
    """After an outage, every running clock gets the time it lost back."""
    for live in LiveTable.objects.select_for_update().filter(paused_at__isnull=True).filter(
            Q(deadline__isnull=False) | Q(time_deadline__isnull=False) | Q(no_show_deadline__isnull=False)):
        _extend(live, gap)
        if live.seat is not None:
            live.deadline = clock.move_deadline(live)
        live.save()
