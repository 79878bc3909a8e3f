"""Playing a table live: one service per operation (start the tour, take a seat, check in, play a
move, enter the hands, tap the referee's clock, pause, resume), each run by the one pipeline of
every change of a table (:func:`scoring.recording.pipeline.change`), which also keeps the clocks.

Every operation runs in one short transaction: the partition's row locked (with its
:class:`~scoring.models.LiveTable`), the clocks caught up first (a deadline that has passed is
recorded before anything else, so nobody ever acts on a stale clock), the engine's step, the audit
entries, and the live state brought in line with the engine's. A move rewrites the deal being
played only (``Partition.current``); the finished deals' state is written when a deal ends or the
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
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.contrib.auth.models import AnonymousUser

from scoring import engine
from scoring.engine.deal import next_seat
from scoring.models import LiveTable, Partition, SeatHolder
from scoring.recording.formats import GOAT_DEAL_KEYS, apply_goat_deal, goat_deal_values
from scoring.recording.pipeline import Actor, Check, Step, change, extend, new_turn
from tournaments import pins
from tournaments.models import PlayMode, Table, Tour
from tournaments.permissions import can_referee, can_referee_all

from scoring.recording import clock
from tournaments.permissions import AnyUser
from tournaments.prepared import Prepared

def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# -- public operations --------------------------------------------------------------------------


def _all(*checks: Check) -> Check:
    """One check made of several, in order."""
    def check(step: Step) -> None:
        for each in checks:
            each(step)
    return check


def _modes(*modes: str) -> Check:
    return lambda step: _mode(step, *modes)


def _referee(step: Step) -> None:
    if not can_referee(step.actor.user, step.partition.table):
        raise PermissionDenied(_("Only the referee of this table may do this."))


def _chief(step: Step) -> None:
    if not can_referee_all(step.actor.user, step.partition.table.tour.tournament):
        raise PermissionDenied(_("Only the chief referee may do this."))


def _mode(step: Step, *modes: str) -> None:
    if step.live.mode not in modes:
        raise ValidationError(_("This table is not played that way (it is a %(mode)s).") % {
            "mode": step.live.get_mode_display()})


def _playing(step: Step) -> None:
    if step.partition.is_finished:
        raise ValidationError(_("The partition is finished."))
    if step.live.paused_at is not None:
        raise ValidationError(_("The table is paused: the referee resumes it first."))


#: The seats a device holds at a table (compiled once: a phone's every move and read asks it).
_HELD = Prepared(lambda pk, token: SeatHolder.objects.filter(partition_id=pk, token_hash=token).order_by("seat"),
                 arity=2)


def seats_held(partition_id: int, token: str) -> list[int]:
    """The seats (of a digital table) the device with ``token`` holds."""
    if not token:
        return []
    return [holder.seat for holder in _HELD.all(partition_id, token_hash(token))]


def held(actor: Actor, partition_id: int) -> list[int]:
    """The seats the actor's device holds at the partition: :func:`seats_held`, read once an actor
    (a request), by the move's check inside its transaction, then by its answer."""
    if partition_id not in actor.held:
        actor.held[partition_id] = seats_held(partition_id, actor.token)
    return actor.held[partition_id]


def start_tour(user: AnyUser, tour: Tour) -> Tour:
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
            step = Step(partition, live, Actor(user), now)
            step.played()  # a new partition (a sitting) under the tournament's regulations
            step.record("live", {"mode": live.mode, "no_show_deadline": deadline.isoformat()})
            step.announce()
    return tour


def _check_live(rules: engine.Regulations, *modes: str) -> None:
    """A points game (RULES 9.3) has no tiles to play live: its tables are on the score sheet."""
    if not engine.kind_of(rules).live and any(mode and mode != PlayMode.SHEET for mode in modes):
        raise ValidationError(_("A points game is recorded on the score sheet only: its tables cannot be played "
                                "live."))


def set_play_mode(user: AnyUser, table: Table, mode: str) -> Table:
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


def set_tour_play_mode(user: AnyUser, tour: Tour, mode: str, tables: Mapping[int, str] | None = None) -> Tour:
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


def claim_seat(partition_id: int, seat: int, pin: str, *, address: str | None = None,
               device: str | None = None) -> str:
    """A player takes his seat at a digital table (he scanned its code and typed his PIN): his
    device gets a token that holds the seat; he is checked in. One device holds a seat at a
    time (the referee releases it); wrong PINs are counted by :mod:`tournaments.pins`, per
    (player, ``device``: the phone's id) and per (player, ``address``)."""
    if seat not in engine.SEATS:
        raise ValidationError(_("A seat is 1 to 4."))
    token = secrets.token_urlsafe(32)
    failure: ValidationError | None = None

    def check(step: Step) -> None:
        _mode(step, LiveTable.Mode.DIGITAL)
        if step.partition.is_finished:
            raise ValidationError(_("The partition is finished."))

    def act(step: Step) -> None:
        nonlocal failure
        holder, _created = SeatHolder.objects.select_for_update().get_or_create(partition=step.partition, seat=seat)
        player = getattr(step.partition.table, f"seat{seat}")
        if player is None:
            raise ValidationError(_("Nobody sits at seat %(seat)s of this table.") % {"seat": seat})
        refusal = pins.check(player, pin, device=device, address=step.actor.address, now=step.now)
        if refusal is not None:
            failure = ValidationError(refusal)
            return  # the count is kept: the refusal is raised after the commit
        if holder.token_hash:
            raise ValidationError(_("Another device holds seat %(seat)s: the referee can release it.") % {
                "seat": seat})
        holder.token_hash, holder.claimed_at, holder.address = token_hash(token), step.now, step.actor.address
        holder.save()
        step.record("seat", {"seat": seat, "player": player.pk})
        _present(step, seat)

    change(partition_id, Actor(AnonymousUser(), address=address), check, act)
    if failure is not None:
        raise failure
    return token


def release_seat(user: AnyUser, partition_id: int, seat: int, *, address: str | None = None) -> Partition:
    """The referee frees a seat of a digital table (a lost or broken phone): it can be taken
    again, on any device; the PIN locks of its player are lifted (he is at the table)."""
    def act(step: Step) -> None:
        updated = SeatHolder.objects.filter(partition=step.partition, seat=seat).exclude(token_hash="").update(
            token_hash="", claimed_at=None)
        player = getattr(step.partition.table, f"seat{seat}", None)
        lifted = pins.lift(player) if player is not None else 0
        if not updated and not lifted:
            raise ValidationError(_("No device holds seat %(seat)s.") % {"seat": seat})
        step.record("release", {"seat": seat})

    return change(partition_id, Actor(user, address=address), _all(_referee, _modes("digital")), act)


def _present(step: Step, seat: int) -> None:
    """Seat ``seat`` is at the table; with every seat taken, a digital partition begins (the
    pipeline then deals its first deal)."""
    live = step.live
    if seat not in live.present:
        live.present = sorted([*live.present, seat])
        step.record("check_in", {"seat": seat})
    if len(live.present) == step.seats and live.no_show_deadline is not None:
        live.no_show_deadline = None
        if live.mode == LiveTable.Mode.DIGITAL:
            step.kind.begin(step)


def check_in(user: AnyUser, partition_id: int, seat: int, *, present: bool = True, address: str | None = None) -> Partition:
    """The referee ticks a player present: at a live table, or at a score-sheet table before its
    first deal, where it only tells the chief referee who is still missing (nothing is recorded
    by the clock there: the referee records a no-show on the sheet). ``present=False`` unticks a
    player ticked by mistake, at a score-sheet table only (a live table's clock has acted on it)."""
    if seat not in engine.SEATS:
        raise ValidationError(_("A seat is 1 to 4."))
    def act(step: Step) -> None:
        if seat > step.seats:
            raise ValidationError(_("Nobody sits at seat %(seat)s of this table.") % {"seat": seat})
        if step.is_live:
            if not present:
                raise ValidationError(_("A live table keeps its check-in: the referee postpones the no-show or "
                                        "records it."))
            _present(step, seat)
            return
        partition = step.partition
        if not partition.before_first_deal:
            raise ValidationError(_("The partition has begun: check-in is over."))
        if present and seat not in partition.present:
            partition.present = sorted([*partition.present, seat])
            step.record("check_in", {"seat": seat})
        elif not present and seat in partition.present:
            partition.present = [ticked for ticked in partition.present if ticked != seat]
            step.record("check_in_undone", {"seat": seat})

    return change(partition_id, Actor(user, address=address), _referee, act)


def postpone_no_show(user: AnyUser, partition_id: int, minutes: int, *, address: str | None = None) -> Partition:
    """The referee (or the chief referee) gives the absent players ``minutes`` more (RULES 5)."""
    if not 1 <= minutes <= 120:
        raise ValidationError(_("Postpone by 1 to 120 minutes."))

    def act(step: Step) -> None:
        deadline = step.live.no_show_deadline
        if deadline is None:
            raise ValidationError(_("No no-show deadline is running at this table."))
        step.live.no_show_deadline = max(deadline, step.now) + datetime.timedelta(minutes=minutes)
        step.record("postpone", {"minutes": minutes, "no_show_deadline": step.live.no_show_deadline.isoformat()})

    return change(partition_id, Actor(user, address=address), _referee, act)


def start_partition(user: AnyUser, partition_id: int, leader: int, *, address: str | None = None) -> Partition:
    """The referee of a refereed table or of the referee's clock starts the partition once the
    players are seated: the lead draw's result (RULES 3); everyone is then present."""
    if leader not in engine.SEATS:
        raise ValidationError(_("A seat is 1 to 4."))

    def act(step: Step) -> None:
        if not step.kind.lead_draw:
            raise ValidationError(_("A Goat table has no lead draw: the first deal of each game is led by the hands "
                                    "(RULES 9.1)."))
        if step.game.first_leader is not None:
            raise ValidationError(_("The partition has already started."))
        _everyone_present(step)
        step.game.draw_lead(leader)
        step.record("lead", {"seat": leader})

    return change(partition_id, Actor(user, address=address),
                  _all(_referee, _modes("refereed", "clock"), _playing), act)


def _everyone_present(step: Step) -> None:
    """The partition starts at the referee's word: every player is at the table."""
    live = step.live
    live.present = sorted({*live.present, *range(1, step.seats + 1)})
    live.no_show_deadline = None


def enter_hands(user: AnyUser, partition_id: int, hands: Mapping[str, Sequence[str]], *, turn: int | None = None,
                address: str | None = None) -> Partition:
    """At a refereed table, the referee enters the hands drawn, 7 tiles each, none twice: the four
    of a sports table (28 tiles); the 2 to 4 of a Goat table, the bazaar being every tile in no
    hand (RULES 9.1). The deal starts and the leader's clock runs; a Goat deal with a void hand is
    recorded as a redeal at once, and the referee enters the next hands."""
    def act(step: Step) -> None:
        if step.kind.bazaar:
            _goat_hands(step, hands)
            return
        try:
            deal = step.game.start_deal(hands=[hands[str(seat)] for seat in engine.SEATS])
        except KeyError:
            raise ValidationError(_("Give the hands of seats 1, 2, 3 and 4.")) from None
        step.record("hands", {"deal": len(step.game.deals) + 1, "leader": deal.leader})

    return change(partition_id, Actor(user, address=address),
                  _all(_referee, _modes("refereed"), _playing), act, turn=turn)


def _goat_hands(step: Step, hands: Mapping[str, Sequence[str]]) -> None:
    """The hands of a Goat deal: the first deal of a game is led by them (RULES 9.1), a later one
    by the domino maker or fisherman."""
    seats = [str(seat) for seat in range(1, step.seats + 1)]
    others = sorted(set(hands) - set(seats))
    if others:
        raise ValidationError(_("Nobody sits at seat %(seat)s of this table.") % {"seat": others[0]})
    if sorted(hands) != seats:
        raise ValidationError(_("Give the hands of seats 1 to %(seats)s.") % {"seats": step.seats})
    sitting = step.sitting
    deal = sitting.start_deal(hands=[list(hands[seat]) for seat in seats])
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
    a pass is recorded as the false pass it is (RULES 7), which ends the deal. The pipeline deals
    the next deal of a digital table when this one ended it."""
    if pass_turn == (tile is not None):
        raise ValidationError(_("Play a tile or pass."))
    if end not in (None, *engine.Side):
        raise ValidationError(_("A tile goes on the left or the right end."))
    if second is not None and tile is None:
        raise ValidationError(_("A second double goes with a first one."))

    def act(step: Step) -> None:
        if step.kind.bazaar:
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
        if tile is not None:
            game.play(tile, engine.Side(end) if end else None, seat=seat, seconds=seconds)
            data.update(tile=tile, end=end)
        elif live.mode == LiveTable.Mode.REFEREED and game.current.legal_moves():
            game.end_false_pass(seat, seconds=seconds)
            data["false_pass"] = True
        else:
            game.pass_turn(seat, seconds=seconds)
            data["pass"] = True
        step.record("move", data)

    return change(partition_id, actor, _to_move(actor), act, turn=turn)


def _to_move(actor: Actor) -> Check:
    """The check of a move: the table plays, and the actor is the referee or the device holding
    the seat to move at a digital table."""
    def check(step: Step) -> None:
        _mode(step, LiveTable.Mode.DIGITAL, LiveTable.Mode.REFEREED)
        _playing(step)
        if can_referee(actor.user, step.partition.table):
            return
        if step.live.mode == LiveTable.Mode.DIGITAL and step.live.seat in held(actor, step.partition.pk):
            return
        raise PermissionDenied(_("It is not your move: only the player to move, from the device holding his seat, "
                                 "or the referee may play it."))
    return check


def _goat_move(step: Step, turn: int, tile: str | None, end: str | None, second: str | None) -> None:
    """A move at a Goat table: a tile (in Sea Goat with a ``second`` double on the other end), or
    a pass when nothing fits and the bazaar may not be drawn (the engine refuses any other)."""
    live, sitting = step.live, step.sitting
    seat = live.seat
    if seat is None or sitting.current is None:
        raise ValidationError(_("No move is awaited now."))
    seconds = clock.charged(live, step.now)
    data: dict[str, Any] = {"seat": seat, "turn": turn, "seconds": seconds}
    if tile is not None:
        sitting.play(tile, engine.Side(end) if end else None, seat, second, seconds)
        data.update(tile=tile, end=end)
        if second is not None:
            data["second"] = second
    else:
        sitting.pass_turn(seat, seconds)
        data["pass"] = True
    step.record("move", data)


def draw(actor: Actor, partition_id: int, turn: int, tile: str | None = None) -> Partition:
    """At a Goat table the player to move, with no tile that fits, takes a tile from the bazaar
    (RULES 9.1): at a digital table the next one of the dealt bazaar (face down: none is named);
    at a refereed table the referee names ``tile``, the one he drew (the physical bazaar's order is
    not known). The engine refuses a draw while a tile fits, when the bazaar is exhausted, or of a
    tile not in it. His turn and its clock go on: drawing is part of the move (RULES 6). The tile
    is not written in the audit entry: the state holds it, and only its holder (and the referee
    of a refereed table) sees it."""
    def act(step: Step) -> None:
        live = step.live
        if not step.kind.bazaar:
            raise ValidationError(_("Only a Goat table has a bazaar to draw from."))
        if live.seat is None or step.sitting.current is None:
            raise ValidationError(_("No move is awaited now."))
        if tile is not None and live.mode == LiveTable.Mode.DIGITAL:
            raise ValidationError(_("The bazaar of a digital table is face down: draw without naming a tile."))
        step.sitting.draw(live.seat, tile)
        step.record("draw", {"seat": live.seat, "turn": turn})

    return change(partition_id, actor, _to_move(actor), act, turn=turn)


# -- the referee's clock (mode 3): the pipeline times each deal's lead (RULES 6: ``time_several``;
# -- the forced lead of a Goat game's first deal ``time_single``, RULES 9.1) -----------------------


def goat_lead(user: AnyUser, partition_id: int, seat: int, *, address: str | None = None) -> Partition:
    """At a Goat table on the referee's clock, the seat that leads the first deal of a game: the
    holder of 1-1, or of the tile RULES 9.1 names when nobody holds it (the tiles are on the table,
    not in the server). Every player is then present; the leader's clock starts."""
    def act(step: Step) -> None:
        if step.kind.lead_draw:
            raise ValidationError(_("A sports table starts with the lead draw."))
        if step.live.seat is not None:
            raise ValidationError(_("A deal is being played: enter its result first."))
        step.sitting.draw_lead(seat)
        _everyone_present(step)
        step.record("lead", {"seat": seat, "game": len(step.sitting.games)})

    return change(partition_id, Actor(user, address=address), _all(_referee, _modes("clock"), _playing), act)


ALLOWANCES = ("single", "several", "fish", "pass")


def tap(user: AnyUser, partition_id: int, turn: int, *, allowance: str = "several", address: str | None = None) -> Partition:
    """At the referee's clock the referee taps the move just made: the next seat's clock starts,
    with ``allowance`` (20 s unless he switches it, :func:`set_allowance`)."""
    def act(step: Step) -> None:
        live = step.live
        if live.seat is None:
            raise ValidationError(_("No move is awaited now: enter the deal's result, or start the partition."))
        seconds = clock.charged(live, step.now)
        seat, number = live.seat, live.move
        new_turn(live, next_seat(seat, step.seats), _allowance(step, allowance), step.now)
        live.move = number + 1
        step.record("tap", {"seat": seat, "move": number, "seconds": seconds, "turn": turn})

    return change(partition_id, Actor(user, address=address),
                  _all(_referee, _modes("clock"), _playing), act, turn=turn)


def deal_over(user: AnyUser, partition_id: int, turn: int, *, address: str | None = None) -> Partition:
    """At the referee's clock the referee ends the deal (the awaited move was its last: a domino,
    a fish): that move is charged its time, no move is awaited and no move clock runs until he has
    entered the result (:func:`clock_deal_result`, :func:`clock_goat_result`). Also while paused,
    the move charged up to the pause."""
    def act(step: Step) -> None:
        live = step.live
        if live.seat is None:
            raise ValidationError(_("No move is awaited now: enter the deal's result, or start the partition."))
        seconds = clock.charged(live, live.paused_at or step.now)
        seat, number = live.seat, live.move
        new_turn(live, None, None, step.now)
        live.deal_over = True
        step.record("deal_over", {"seat": seat, "move": number, "seconds": seconds, "turn": turn})

    return change(partition_id, Actor(user, address=address),
                  _all(_referee, _modes("clock"), _unfinished), act, turn=turn)


def _unfinished(step: Step) -> None:
    """The referee's clock's result and its end of a deal are taken while paused too (a dispute
    about the count)."""
    if step.partition.is_finished:
        raise ValidationError(_("The partition is finished."))


def _allowance(step: Step, kind: str) -> int:
    if kind not in ALLOWANCES:
        raise ValidationError(_("The allowance is single, several, fish or pass."))
    return step.played().regulations.allowances()[ALLOWANCES.index(kind)]


def set_allowance(user: AnyUser, partition_id: int, turn: int, kind: str, *, address: str | None = None) -> Partition:
    """At the referee's clock, one tap switches the awaited move's allowance: 5 s for a single
    possible move or a pass, 60 s when it could make fish (RULES 6)."""
    def act(step: Step) -> None:
        live = step.live
        if live.seat is None:
            raise ValidationError(_("No move is awaited now."))
        live.allowance = _allowance(step, kind)
        live.deadline = None  # re-armed with the new allowance
        step.record("allowance", {"seat": live.seat, "turn": turn, "allowance": live.allowance})

    return change(partition_id, Actor(user, address=address),
                  _all(_referee, _modes("clock"), _playing), act, turn=turn)


def clock_deal_result(user: AnyUser, partition_id: int, end: str, seat: int | None, pips: Mapping[str, int], *,
                      address: str | None = None) -> Partition:
    """At the referee's clock, the deal's result as on the score sheet (how it ended, who, the
    pips left), while paused too; the next deal's lead clock starts (at the resume)."""
    def act(step: Step) -> None:
        if not step.kind.lead_draw:
            raise ValidationError(_("A Goat deal ends with each hand's value: enter it as such."))
        if step.live.seat is None and not step.live.deal_over:
            raise ValidationError(_("No deal is being played."))
        step.game.record_deal(engine.DealEnd(end), seat, (pips["A"], pips["B"]))
        step.record("deal", {"end": end, "seat": seat, "pips": dict(pips)})

    return change(partition_id, Actor(user, address=address),
                  _all(_referee, _modes("clock"), _unfinished), act)


def clock_goat_result(user: AnyUser, partition_id: int, deal: Mapping[str, Any], *, address: str | None = None) -> Partition:
    """At a Goat table on the referee's clock, the deal's result as on the Goat score sheet
    (:func:`scoring.recording.commands.record_goat_deal`: domino or fish with the seat and each hand's
    value, or a redeal, which a void hand shows before anyone leads); the next deal's leader's
    clock starts (a game's first deal waits for :func:`goat_lead`). While paused too."""
    values = goat_deal_values(deal, GOAT_DEAL_KEYS - {"lead"})  # the leader was named (goat_lead)

    def act(step: Step) -> None:
        if step.kind.lead_draw:
            raise ValidationError(_("This table does not play Goat or Sea Goat."))
        if step.live.seat is None and not step.live.deal_over and deal.get("end") != engine.GoatEnd.REDEAL:
            raise ValidationError(_("No deal is being played: name the seat that leads it first."))
        apply_goat_deal(step.sitting, deal, values)
        step.record("goat_deal", dict(deal))

    return change(partition_id, Actor(user, address=address), _all(_referee, _modes("clock"), _unfinished), act)


# -- pause -------------------------------------------------------------------------------------


def pause(user: AnyUser, partition_id: int, reason: str, *, address: str | None = None) -> Partition:
    """Stop every clock of the table (a dispute, a call to the chief referee)."""
    if reason not in LiveTable.Pause.values:
        raise ValidationError(_("A pause is for a dispute or a call to the chief referee."))

    def act(step: Step) -> None:
        live = step.live
        if live.paused_at is not None:
            raise ValidationError(_("The table is already paused."))
        if step.partition.is_finished:
            raise ValidationError(_("The partition is finished."))
        live.paused_at, live.pause_reason = step.now, reason
        step.record("pause", {"reason": reason})

    return change(partition_id, Actor(user, address=address), _referee, act)


def resume(user: AnyUser, partition_id: int, *, address: str | None = None) -> Partition:
    """Restart the table's clocks with the time each had left."""
    def act(step: Step) -> None:
        live = step.live
        if live.paused_at is None:
            raise ValidationError(_("The table is not paused."))
        gap = (step.now - live.paused_at).total_seconds()
        extend(live, gap)
        step.record("resume", {"reason": live.pause_reason, "seconds": round(gap, 1)})
        live.paused_at, live.pause_reason = None, ""

    return change(partition_id, Actor(user, address=address), _referee, act)
