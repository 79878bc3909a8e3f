"""A partition (партия): the deals between two pairs at one table, to the target or until time.

:class:`Partition` is event-sourced: every call (the lead draw, a deal, a penalty, a violation,
the clock running out, a no-show, ...) appends one event and updates the state; the state
(totals, penalties, the decision) is a function of the events, so :meth:`Partition.to_dict`
and :meth:`Partition.from_dict` store and replay a partition exactly, and annulling a violation
simply replays without it.

Deals are recorded in summary form (:meth:`record_deal`: how it ended and the pips left, as on a
paper protocol) or played move by move (:meth:`start_deal`, then :meth:`play` and
:meth:`pass_turn`; the deal is recorded by itself at domino or fish).

The clock of a live table (RULES 6): the server measures time, the rules of the clock are here.
:meth:`awaited` names the move being timed and its allowance; :meth:`record_lapse` records a
lapse the moment the clock runs out; a move arrives with the ``seconds`` charged to it, and each
lapse those seconds imply that was not recorded yet is recorded then. Every lapse is a
``move_time`` violation and an event of its own, recorded when it becomes known, so its id (the
index of its event, like any violation's) stays the same through every replay and an annulment
of it sticks; a replay never derives lapses again from the stored seconds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Final, Mapping, Sequence

from . import rules
from .deal import Deal, DealOutcome, check_seconds, is_seat, pair_of
from .annulment import Annulments
from .errors import PartitionError, RulesError, gettext_noop
from .outcome import Outcome
from .regulations import FishTie, Format, Regulations, RepeatScope
from .tiles import Tile, TileIndex, TileMask
from .vocabulary import Absent, Consequence, DealEnd, Expiry, Next, Pair, Reason, Seat, Side, ViolationCode

__all__ = ["Partition", "DealRecord", "PenaltyRecord", "ViolationRecord", "Decision", "Status", "Awaited"]

_PAIRS: Final = tuple(p.value for p in Pair)
_ABSENT: Final = tuple(a.value for a in Absent)
#: Decisions a later penalty can undo: a penalty after the last deal can change the winner or
#: make the totals level.
_UNDONE_BY_PENALTY: Final = frozenset({Reason.TARGET, Reason.TIME, Reason.DEALS})


@dataclass(frozen=True)
class DealRecord:
    """A recorded deal: ``points`` go to ``winner`` (carried fish points included); ``totals``
    are the pairs' totals (A, B) after it; ``deal`` is the move-form state when it was played
    move by move."""

    n: int
    leader: Seat
    end: DealEnd
    seat: Seat | None
    pips: tuple[int, int]
    winner: Pair | None
    points: int
    totals: tuple[int, int]
    deal: Deal | None = None


@dataclass(frozen=True)
class PenaltyRecord:
    """A penalty on the pair of ``seat``, counted after deal ``after_deal``; ``totals`` after it.

    A penalty written while a deal is being played is pending until that deal ends (RULES 7: a
    target reached through penalty points ends the partition after the current deal): it counts
    right after the deal's own score, and its ``totals`` are ``None`` until then.
    """

    after_deal: int
    seat: Seat
    code: ViolationCode
    pair: Pair
    points: int
    totals: tuple[int, int] | None
    violation: int | None = None  # the violation it follows from, if any


@dataclass(frozen=True)
class ViolationRecord:
    """A violation by ``seat``: its consequence, or the reason it was annulled.

    ``deal`` is the deal during which it was recorded, or between deals the number of deals
    played (0 before the first); ``move`` the index (from 0, plays and passes) of the move that
    was awaited, when known; ``lapse`` which lapse of that move's clock it is (from 1), for a
    ``move_time`` violation the clock recorded. ``after_deal`` is the number of deals played
    when it was recorded.
    """

    id: int
    after_deal: int
    seat: Seat
    code: ViolationCode
    consequence: Consequence  # a warning or a penalty
    annulled: str | None = None
    deal: int = 0
    move: int | None = None
    lapse: int | None = None

    @property
    def occurrence(self) -> tuple[int, bool, int, bool, int, int]:
        """Sort key of the order of occurrence the protocol format defines: by deal; within it
        by move, a move's lapses first, then what was recorded while it was awaited; those
        without a move after all the deal's moves; then in the order recorded."""
        return (self.deal, self.move is None, self.move or 0, self.lapse is None, self.lapse or 0, self.id)


@dataclass(frozen=True)
class Awaited:
    """The move a live table's clock is timing (RULES 6): move ``move`` (from 0, plays and
    passes) of deal ``deal``, by ``seat``, who has ``allowance`` seconds, fixed when his turn
    began; ``lapses`` of it were already recorded (:meth:`Partition.record_lapse`), so the next
    deadline falls when the charged time reaches ``(lapses + 1) * allowance``."""

    deal: int
    move: int
    seat: Seat
    allowance: int
    lapses: int


@dataclass(frozen=True)
class Decision:
    """The partition is over: ``winner`` is ``"A"``, ``"B"`` or ``None`` (both pairs absent);
    ``reason`` is ``"target"``, ``"time"``, ``"deals"``, ``"no_show"`` or ``"forfeit"``."""

    winner: Pair | None
    reason: Reason


@dataclass(frozen=True)
class Status:
    """What comes next at the table: ``"lead_draw"``, ``"deal"``, ``"last_deal"`` (the clock or
    the fixed number of deals makes it the last), ``"extra_deal"`` (it would be over but the
    totals are level), or ``"over"``; ``deal`` and ``leader`` of the coming (or current) deal."""

    next: Next
    deal: int | None
    leader: Seat | None
    decision: Decision | None = None


@dataclass
class _State:
    first_leader: Seat | None = None
    deals: list[DealRecord] = field(default_factory=list)
    penalties: list[PenaltyRecord] = field(default_factory=list)
    pending: list[PenaltyRecord] = field(default_factory=list)  # written during the current deal
    violations: list[ViolationRecord] = field(default_factory=list)
    repeats: dict[tuple[str, ViolationCode], int] = field(default_factory=dict)  # counted violations by scope, code
    totals: tuple[int, int] = (0, 0)
    carry: int = 0  # points of drawn fish waiting for the next deal's winner (fish_tie = carry)
    next_leader: Seat | None = None
    time_expired: tuple[Expiry, int] | None = None  # (when, deal number)
    no_show: Absent | None = None
    decision: Decision | None = None


def _fish_seat_needed() -> PartitionError:
    return PartitionError(gettext_noop(
        "fish needs the seat that placed the fishing tile when the next deal is led by the winner"))


class Partition(Annulments[_State]):
    """One partition between pair A (seats 1, 3) and pair B (seats 2, 4).

    >>> p = Partition(first_leader=1)
    >>> p.record_deal("domino", seat=3, pips=(4, 31)).totals
    (35, 0)
    >>> p.status().leader
    2
    """

    def __init__(self, regulations: Regulations | None = None, first_leader: Seat | None = None,
                 earlier_violations: Mapping[tuple[Seat, ViolationCode], int] | None = None) -> None:
        """``earlier_violations``: for ``repeat_scope = player_tournament``, how many violations
        of each (seat, code) the players at those seats had in earlier partitions."""
        self.regulations = regulations or Regulations()
        self.earlier_violations = dict(earlier_violations or {})
        for (seat, code), count in self.earlier_violations.items():
            if not (is_seat(seat) and code in rules.VIOLATION_CODES and type(count) is int and count >= 0):
                raise PartitionError(gettext_noop("earlier violations are counted by seat 1 to 4 and code, got %(item)s"),
                                     item=repr((seat, code, count)))
        self.current: Deal | None = None
        super().__init__()
        if first_leader is not None:
            self.draw_lead(first_leader)

    # -- reading the state ---------------------------------------------------------------------

    @property
    def first_leader(self) -> Seat | None:
        return self._state.first_leader

    @property
    def deals(self) -> list[DealRecord]:
        return list(self._state.deals)

    @property
    def penalties(self) -> list[PenaltyRecord]:
        return list(self._state.penalties)

    @property
    def pending_penalties(self) -> list[PenaltyRecord]:
        """Penalties written during the deal being played; they count when it ends, in this order."""
        return self._pending_in_order()

    @property
    def violations(self) -> list[ViolationRecord]:
        return list(self._state.violations)

    @property
    def totals(self) -> tuple[int, int]:
        return self._state.totals

    @property
    def carry(self) -> int:
        return self._state.carry

    @property
    def time_expired(self) -> tuple[Expiry, int] | None:
        return self._state.time_expired

    @property
    def no_show(self) -> Absent | None:
        return self._state.no_show

    @property
    def decision(self) -> Decision | None:
        return self._state.decision

    @property
    def is_over(self) -> bool:
        return self._state.decision is not None

    def outcome(self) -> Outcome | None:
        """The partition's :class:`~scoring.engine.outcome.Outcome`: pairs A and B ranked by the
        winner (none when both were absent), their totals; ``None`` while it goes on."""
        s, d = self._state, self._state.decision
        if d is None:
            return None
        ranks = None if d.winner is None else (1, 2) if d.winner == Pair.A else (2, 1)
        absent = () if s.no_show is None else tuple(Pair) if s.no_show == Absent.BOTH else (Pair(s.no_show),)
        return Outcome(tuple(Pair), ranks, d.reason, s.totals, absent)

    def status(self) -> Status:
        s = self._state
        if s.decision is not None:
            return Status(Next.OVER, None, None, s.decision)
        if s.first_leader is None:
            return Status(Next.LEAD_DRAW, None, None)
        number = len(s.deals) + 1
        if self._end_reason(len(s.deals), s.totals) is not None:
            kind = Next.EXTRA_DEAL
        elif self._is_last(number):
            kind = Next.LAST_DEAL
        else:
            kind = Next.DEAL
        return Status(kind, number, s.next_leader)

    def _is_last(self, number: int) -> bool:
        """Whether deal ``number`` ends the partition unless the totals are then level."""
        r, s = self.regulations, self._state
        if r.format == Format.FIXED_DEALS and number >= r.deals:
            return True
        if r.format == Format.TARGET and s.pending:
            a, b = s.totals
            for p in s.pending:
                da, db = rules.penalty_delta(p.pair, r)
                a, b = a + da, b + db
            if max(a, b) >= r.target:
                return True
        return s.time_expired is not None and number >= self._last_by_time(s.time_expired)

    @staticmethod
    def _last_by_time(time_expired: tuple[Expiry, int]) -> int:
        """The number of the last deal once the clock has run out."""
        kind, n = time_expired
        return n if kind == Expiry.DURING_DEAL else n + 1

    def _end_reason(self, played: int, totals: tuple[int, int]) -> Reason | None:
        """Why the partition ends after ``played`` deals with ``totals``, level totals aside
        (RULES 5)."""
        r, s = self.regulations, self._state
        if r.format == Format.TARGET and max(totals) >= r.target:
            return Reason.TARGET
        if r.format == Format.FIXED_DEALS and played >= r.deals:
            return Reason.DEALS
        if s.time_expired is not None and played >= self._last_by_time(s.time_expired):
            return Reason.TIME
        return None

    def _decide(self) -> None:
        """Settle the partition if it is over: an end reason and one pair ahead (no draws)."""
        s = self._state
        if s.decision is not None or self.current is not None:
            return
        reason = self._end_reason(len(s.deals), s.totals)
        a, b = s.totals
        if reason is not None and a != b:
            s.decision = Decision(Pair.A if a > b else Pair.B, reason)

    def _check_open(self) -> None:
        s = self._state
        if s.decision is not None:
            if s.deals:
                raise PartitionError(gettext_noop("the partition was already decided after deal %(n)s (%(reason)s): nothing"
                                        " more can be recorded"), n=len(s.deals), reason=s.decision.reason)
            raise PartitionError(gettext_noop("the partition was already decided (%(reason)s): nothing more can be recorded"),
                                 reason=s.decision.reason)

    # -- events --------------------------------------------------------------------------------

    def _fresh(self) -> _State:
        return _State()

    def _event(self, event: dict[str, Any]) -> Any:
        if self.current is not None and event["type"] in ("penalty", "violation"):
            event["during_deal"] = True  # kept, so that a replay defers it the same way
        return super()._event(event)

    def draw_lead(self, seat: Seat) -> None:
        """Record the seat that won the lead draw (RULES 3)."""
        self._event({"type": "lead", "seat": seat})

    def _on_lead(self, event: dict[str, Any]) -> None:
        s, seat = self._state, event["seat"]
        if s.first_leader is not None:
            raise PartitionError(gettext_noop("the lead draw is already recorded (seat %(seat)s)"), seat=s.first_leader)
        if not is_seat(seat):
            raise PartitionError(gettext_noop("the leader must be a seat 1 to 4, got %(seat)s"), seat=repr(seat))
        s.first_leader = s.next_leader = seat

    def record_deal(self, end: DealEnd, seat: Seat | None, pips: Sequence[int]) -> DealRecord:
        """Record a deal in summary form: ``end`` is ``"domino"`` (``seat`` made it), ``"fish"``
        (``seat`` optional: who placed the fishing tile) or ``"false_pass"`` (``seat`` passed
        falsely: its pair is penalised by itself); ``pips`` left in the hands of A and B."""
        record: DealRecord = self._event({"type": "deal", "end": end, "seat": seat, "pips": list(pips)})
        return record

    def _on_deal(self, event: dict[str, Any]) -> DealRecord:
        self._check_open()
        s, r = self._state, self.regulations
        if s.first_leader is None:
            raise PartitionError(gettext_noop("record the lead draw before the first deal"))
        leader = s.next_leader
        if leader is None:  # a seatless fish, and the winner leads this deal
            raise _fish_seat_needed()
        if self.current is not None:
            raise PartitionError(gettext_noop("a deal is being played move by move: finish it first"))
        if "deal" in event:
            stored = event["deal"]  # a Deal, or its JSON when replayed from storage
            deal = event["deal"] = stored if isinstance(stored, Deal) else Deal.from_dict(stored, leader, r.allowances())
            if deal.leader != leader:
                raise PartitionError(gettext_noop("seat %(seat)s leads, but this deal is led by seat %(leader)s"),
                                     seat=deal.leader, leader=leader)
            if deal.outcome is None:
                raise PartitionError(gettext_noop("the deal is not over: only a finished deal is recorded"))
            return self._score(deal.outcome, deal, leader)
        end, seat, pips = event.get("end"), event.get("seat"), event.get("pips")
        if end not in rules.DEAL_ENDS:
            raise PartitionError(gettext_noop("a deal ends with \"domino\", \"fish\" or \"false_pass\", got %(end)s"),
                                 end=repr(end))
        end = DealEnd(end)
        if seat is None and end != DealEnd.FISH:
            raise PartitionError(gettext_noop("domino needs the seat that made it") if end == DealEnd.DOMINO
                                 else gettext_noop("false_pass needs the seat that passed falsely"))
        if seat is not None and not is_seat(seat):
            raise PartitionError(gettext_noop("seat must be 1 to 4, got %(seat)s"), seat=repr(seat))
        if not isinstance(pips, (list, tuple)) or len(pips) != 2:
            raise PartitionError(gettext_noop("pips must give pair A and pair B"))
        outcome = DealOutcome(end, seat, (pips[0], pips[1]))
        rules.check_pips(end, outcome.pips)
        # A fish without its seat when the winner leads the next deal leaves the next leader
        # unknown: fine as long as no deal follows (a penalty after it may decide the partition);
        # the next deal is refused (start_deal, record_deal).
        return self._score(outcome, None, leader)

    def _score(self, outcome: DealOutcome, deal: Deal | None, leader: Seat) -> DealRecord:
        """Count a deal led by ``leader`` that ended with ``outcome``."""
        s, r = self._state, self.regulations
        winner = rules.deal_winner(outcome, r)
        points = 0
        if winner is not None:
            points = rules.deal_base_points(outcome.pips, rules.other_pair(winner), r) + s.carry
            s.carry = 0
            a, b = s.totals
            s.totals = (a + points, b) if winner == Pair.A else (a, b + points)
        elif outcome.end == DealEnd.FISH and r.fish_tie == FishTie.CARRY:
            s.carry += rules.deal_base_points(outcome.pips, Pair.A, r)
        record = DealRecord(len(s.deals) + 1, leader, outcome.end, outcome.seat, outcome.pips, winner, points,
                            s.totals, deal)
        s.deals.append(record)
        s.next_leader = rules.next_leader(leader, outcome, r)
        if outcome.end == DealEnd.FALSE_PASS:
            assert outcome.seat is not None  # a false pass always names its seat
            self._penalize(outcome.seat, ViolationCode.FALSE_PASS, None)
        self._count_pending()
        self._decide()
        return record

    def _pending_in_order(self) -> list[PenaltyRecord]:
        """The penalties written during the deal being played, in the order they will count (the
        protocol format's): those that follow from violations in their order of occurrence
        (:attr:`ViolationRecord.occurrence`), then the penalties written, as written."""
        pending = list(self._state.pending)
        if len(pending) > 1:
            found = {v.id: v for v in self._state.violations}

            def order(p: PenaltyRecord) -> tuple[int, tuple[int, bool, int, bool, int, int] | None]:
                return (0, found[p.violation].occurrence) if p.violation is not None else (1, None)
            pending.sort(key=order)
        return pending

    def _count_pending(self) -> None:
        """Count the penalties written during the deal that ended (or was dropped)."""
        pending, self._state.pending = self._pending_in_order(), []
        for p in pending:
            self._penalize(p.seat, p.code, p.violation)

    def start_deal(self, seed: int | str | None = None,
                   hands: Sequence[Sequence[Tile | TileIndex | str] | TileMask] | None = None) -> Deal:
        """Deal the next deal to play it move by move: from ``seed`` or the given ``hands``."""
        self._check_open()
        s = self._state
        if s.first_leader is None:
            raise PartitionError(gettext_noop("record the lead draw before the first deal"))
        if self.current is not None:
            raise PartitionError(gettext_noop("a deal is already being played"))
        leader = s.next_leader
        if leader is None:
            raise _fish_seat_needed()
        times = self.regulations.allowances()
        if seed is not None and hands is None:
            self.current = Deal.from_seed(seed, leader, times)
        elif hands is not None and seed is None:
            self.current = Deal(hands, leader, times)
        else:
            raise PartitionError(gettext_noop("give either a seed or the hands"))
        return self.current

    def play(self, tile: Tile | TileIndex | str, end: Side | None = None, seat: Seat | None = None,
             seconds: float | None = None) -> None:
        """Play a tile in the current deal; the deal is recorded by itself when it ends.
        ``seconds``: the time the clock charged to the move (see :meth:`_timed`)."""
        deal = self._current()
        self._timed(deal, seconds, lambda charged: deal.play(tile, end, seat, charged))
        self._close_if_over()

    def pass_turn(self, seat: Seat | None = None, seconds: float | None = None) -> None:
        """The player to move passes in the current deal; ``seconds`` as for :meth:`play`."""
        deal = self._current()
        self._timed(deal, seconds, lambda charged: deal.pass_turn(seat, charged))

    def end_false_pass(self, seat: Seat, seconds: float | None = None) -> DealRecord:
        """The referee ends the current deal for a false pass by ``seat`` (RULES 7); ``seconds``:
        the time the clock had charged to the move awaited then (see :meth:`_timed`)."""
        deal = self._current()
        self._timed(deal, seconds, lambda charged: deal.end_false_pass(seat, charged))
        return self._close(deal)

    def apply_move(self, move: Mapping[str, Any]) -> None:
        """Apply one protocol move (:meth:`Deal.apply`) to the current deal, its ``"seconds"``
        counted as :meth:`play` counts them; a mark is no move and is not timed."""
        deal = self._current()
        if isinstance(move, Mapping) and ("tile" in move or "pass" in move):
            self._timed(deal, move.get("seconds"), lambda charged: deal.apply(move))
        else:
            deal.apply(move)
        self._close_if_over()

    def _timed(self, deal: Deal, seconds: object, move: Callable[[float | None], None]) -> None:
        """Make ``move`` of the player to move, charged ``seconds`` (rounded to 0.1 s).

        With the allowance ``a`` fixed when his turn began, the move lapsed
        ``floor(seconds / a)`` times (:func:`.rules.move_lapses`); the lapses beyond those
        :meth:`record_lapse` already recorded for it are recorded once the move is made, each a
        ``move_time`` violation of his. Seconds fewer than the recorded lapses require (or none,
        after a lapse) are refused: the clock cannot have run out more often than it was charged.
        """
        charged = check_seconds(seconds)
        seat, index, allowance = deal.to_move, len(deal.moves), deal.allowance()
        lapses = rules.new_lapses(charged, allowance, self._recorded_lapses(index))
        move(charged)
        for lapse in lapses:
            self._event({"type": "violation", "seat": seat, "code": ViolationCode.MOVE_TIME.value, "move": index,
                         "lapse": lapse})

    def _recorded_lapses(self, move: int) -> int:
        """Lapses already recorded for move ``move`` of the deal being played: its events come
        after the last deal or restart."""
        count = 0
        for event in reversed(self.events):
            if event.get("type") in ("deal", "restart"):
                break
            if event.get("lapse") is not None and event.get("move") == move:
                count += 1
        return count

    def awaited(self) -> Awaited | None:
        """The move the clock is timing in the deal played move by move; ``None`` between deals
        and for a deal recorded in summary form."""
        deal = self.current
        if deal is None or deal.outcome is not None:
            return None
        index = len(deal.moves)
        return Awaited(len(self._state.deals) + 1, index, deal.to_move, deal.allowance(), self._recorded_lapses(index))

    def record_lapse(self, seat: Seat) -> ViolationRecord:
        """The live clock ran out on the move awaited in the current deal (RULES 6): a
        ``move_time`` violation of ``seat``, who must be the one to move, recorded at the
        deadline as lapse ``k`` of that move (``k``: the lapses recorded for it, plus one); the
        same allowance then starts again. When the move arrives, only the lapses its seconds
        imply beyond these are added (:meth:`_timed`)."""
        deal = self._current()
        if seat != deal.to_move or not is_seat(seat):
            raise PartitionError(gettext_noop("the clock runs for seat %(turn)s, not for seat %(seat)s"),
                                 turn=deal.to_move, seat=repr(seat))
        index = len(deal.moves)
        record: ViolationRecord = self._event({"type": "violation", "seat": seat, "code": ViolationCode.MOVE_TIME.value,
                                               "move": index, "lapse": self._recorded_lapses(index) + 1})
        return record

    def _current(self) -> Deal:
        if self.current is None:
            raise PartitionError(gettext_noop("no deal is being played: start one first"))
        return self.current

    def _close_if_over(self) -> DealRecord | None:
        deal = self.current
        if deal is None or not deal.is_over:
            return None
        return self._close(deal)

    def _close(self, deal: Deal) -> DealRecord:
        """Record the current deal, which is over."""
        self.current = None
        try:
            record: DealRecord = self._event({"type": "deal", "deal": deal})
        except RulesError:
            self.current = deal
            raise
        return record

    def restart_deal(self, seat: Seat, code: ViolationCode) -> PenaltyRecord:
        """A wrong lead or a tile out of turn, and the opponents chose to redeal (RULES 7): the
        current deal (if any) is dropped and the offending pair penalised."""
        dropped, self.current = self.current, None
        try:
            record: PenaltyRecord = self._event({"type": "restart", "seat": seat, "code": code})
        except RulesError:
            self.current = dropped
            raise
        return record

    def _on_restart(self, event: dict[str, Any]) -> PenaltyRecord:
        if event.get("code") not in rules.RESTART_CODES:
            raise PartitionError(gettext_noop("a deal is restarted for wrong_lead or out_of_turn, not %(code)s"),
                                 code=repr(event.get("code")))
        self._check_open()
        self._drop_deal()
        return self._on_penalty(event)

    def _drop_deal(self) -> None:
        """The deal being played will not end (restarted, or the partition forfeited): it is no
        deal of the partition, so what was recorded during it counts as recorded between the
        deals (``deal``: the deals played, no move), as the protocol format writes it, and now."""
        s = self._state
        played = len(s.deals)
        s.violations = [dataclasses.replace(v, deal=played, move=None, lapse=None) if v.deal > played else v
                        for v in s.violations]
        self._count_pending()

    def write_penalty(self, seat: Seat, code: ViolationCode) -> PenaltyRecord:
        """Write a pair penalty on the pair of ``seat`` now (RULES 7)."""
        record: PenaltyRecord = self._event({"type": "penalty", "seat": seat, "code": code})
        return record

    def _on_penalty(self, event: dict[str, Any]) -> PenaltyRecord:
        seat, code = event.get("seat"), event.get("code")
        if not is_seat(seat):
            raise PartitionError(gettext_noop("seat must be 1 to 4, got %(seat)s"), seat=repr(seat))
        if code not in rules.PENALTY_CODES:
            raise PartitionError(gettext_noop("unknown penalty code %(code)s; known: %(known)s"), code=repr(code),
                                 known=", ".join(rules.PENALTY_CODES))
        return self._penalty(seat, ViolationCode(code), None, bool(event.get("during_deal")))

    def _penalty(self, seat: Seat, code: ViolationCode, violation: int | None, during_deal: bool) -> PenaltyRecord:
        """Count a penalty now, or when the current deal ends if it was written during it."""
        s = self._state
        if during_deal:
            record = PenaltyRecord(len(s.deals) + 1, seat, code, pair_of(seat),
                                   self.regulations.penalty_points, None, violation)
            s.pending.append(record)
            return record
        record = self._penalize(seat, code, violation)
        self._decide()
        return record

    def _penalize(self, seat: Seat, code: ViolationCode, violation: int | None) -> PenaltyRecord:
        s = self._state
        pair = pair_of(seat)
        da, db = rules.penalty_delta(pair, self.regulations)
        s.totals = (s.totals[0] + da, s.totals[1] + db)
        record = PenaltyRecord(len(s.deals), seat, code, pair, self.regulations.penalty_points,
                               s.totals, violation)
        s.penalties.append(record)
        if s.decision is not None and s.decision.reason in _UNDONE_BY_PENALTY:
            s.decision = None
        return record

    def record_violation(self, seat: Seat, code: ViolationCode, move: int | None = None) -> ViolationRecord:
        """A violation by ``seat``: a warning first and a penalty when repeated for ``move_time``
        and ``conduct`` (counted by ``repeat_scope``), a penalty at once for the others.

        ``move``: the index (from 0, plays and passes) of the move that was awaited. During a
        deal played move by move it is the move awaited now, filled in when left out. Without
        such a deal it places the violation during the deal being played on paper (the next to
        be recorded, e.g. a lapse of the referee's clock): its penalty counts after that deal,
        and the moves come in order (none before one already recorded in that deal).
        """
        event: dict[str, Any] = {"type": "violation", "seat": seat, "code": code}
        if self.current is not None:
            awaited = len(self.current.moves)
            if move is not None and (type(move) is not int or move != awaited):
                raise PartitionError(gettext_noop("move %(move)s is not the move awaited, %(awaited)s"), move=repr(move),
                                     awaited=awaited)
            event["move"] = awaited
        elif move is not None:
            self._check_open()
            if self._state.first_leader is None:
                raise PartitionError(gettext_noop("record the lead draw before the first deal"))
            coming = len(self._state.deals) + 1
            last = max((v.move for v in self._state.violations if v.deal == coming and v.move is not None), default=0)
            if type(move) is int and 0 <= move < last:  # the clock counts moves in order; bad ones: _on_violation
                raise PartitionError(gettext_noop("move %(move)s is before move %(last)s, already recorded in this deal"),
                                     move=move, last=last)
            event["move"] = move
            event["during_deal"] = True
        record: ViolationRecord = self._event(event)
        return record

    def _on_violation(self, event: dict[str, Any]) -> ViolationRecord:
        s, seat, code = self._state, event.get("seat"), event.get("code")
        if not is_seat(seat):
            raise PartitionError(gettext_noop("seat must be 1 to 4, got %(seat)s"), seat=repr(seat))
        if code not in rules.PENALTY_CODES:  # a no-show is recorded by record_no_show
            raise PartitionError(gettext_noop("unknown violation code %(code)s; known: %(known)s"), code=repr(code),
                                 known=", ".join(rules.PENALTY_CODES))
        code = ViolationCode(code)
        move, lapse, during = event.get("move"), event.get("lapse"), bool(event.get("during_deal"))
        if move is not None and not (type(move) is int and move >= 0 and during):
            raise PartitionError(gettext_noop("the move of a violation is the index (0 or more) of a move awaited during a"
                                              " deal, got %(move)s"), move=repr(move))
        if lapse is not None and not (type(lapse) is int and lapse >= 1 and move is not None
                                      and code == ViolationCode.MOVE_TIME):
            raise PartitionError(gettext_noop("a lapse is a move_time violation of a move, counted from 1, got %(lapse)s"),
                                 lapse=repr(lapse))
        scope = self.regulations.repeat_scope
        key = (rules.repeat_key(seat, pair_of(seat), scope), code)
        same = s.repeats.get(key, 0)
        earlier = same + (self.earlier_violations.get((seat, code), 0) if scope == RepeatScope.PLAYER_TOURNAMENT else 0)
        consequence = rules.violation_consequence(code, earlier)
        annulled = self._annulled.get(self._index)
        if annulled is None:
            s.repeats[key] = same + 1
        record = ViolationRecord(self._index, len(s.deals), seat, code, consequence, annulled,
                                 len(s.deals) + during, move, lapse)
        s.violations.append(record)
        if consequence == Consequence.PENALTY and annulled is None:
            self._penalty(seat, code, record.id, during)
        return record

    def annul_violation(self, violation_id: int, reason: str) -> None:
        """The referee annuls a violation as justified; a penalty that followed from it is
        withdrawn and the next violation of the same kind is again a first one (RULES 6)."""
        self._event({"type": "annul", "violation": violation_id, "reason": reason})

    def record_no_show(self, absent: Absent) -> Decision:
        """Pair ``"A"``, ``"B"`` or ``"both"`` had not appeared by the no-show deadline (RULES 5)."""
        decision: Decision = self._event({"type": "no_show", "absent": absent})
        return decision

    def _on_no_show(self, event: dict[str, Any]) -> Decision:
        self._check_open()
        s, absent = self._state, event.get("absent")
        if absent not in _ABSENT:
            raise PartitionError(gettext_noop("the absent pair is \"A\", \"B\" or \"both\", got %(absent)s"), absent=repr(absent))
        if s.deals or self.current is not None:
            raise PartitionError(gettext_noop("a no-show is recorded before the first deal"))
        award = self.regulations.no_show_award
        s.no_show = absent = Absent(absent)
        s.totals = {Absent.A: (0, award), Absent.B: (award, 0), Absent.BOTH: (0, 0)}[absent]
        s.decision = Decision(None if absent == Absent.BOTH else rules.other_pair(Pair(absent)), Reason.NO_SHOW)
        return s.decision

    def forfeit(self, pair: Pair) -> Decision:
        """The chief referee declares the partition lost by ``pair`` after the regulations'
        number of penalties (``penalties_to_forfeit``, RULES 7)."""
        decision: Decision = self._event({"type": "forfeit", "pair": pair})
        return decision

    def _on_forfeit(self, event: dict[str, Any]) -> Decision:
        self._check_open()
        s, pair, limit = self._state, event.get("pair"), self.regulations.penalties_to_forfeit
        if pair not in _PAIRS:
            raise PartitionError(gettext_noop("the pair is \"A\" or \"B\", got %(pair)s"), pair=repr(pair))
        count = sum(1 for p in s.penalties if p.pair == pair)
        if limit is None:
            raise PartitionError(gettext_noop("the regulations allow no forfeit (penalties_to_forfeit is not set)"))
        if count < limit:
            raise PartitionError(gettext_noop("pair %(pair)s has %(count)s penalties; a forfeit needs %(limit)s"), pair=pair,
                                 count=count, limit=limit)
        self.current = None
        self._drop_deal()
        s.decision = Decision(rules.other_pair(Pair(pair)), Reason.FORFEIT)
        return s.decision

    # -- storing -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the regulations, every event, and the deal being played; ``snapshot``
        holds the state of each deal played move by move (:meth:`Deal.snapshot`), derived, for
        ``from_dict(data, trusted=True)``."""
        deals = [[k, e["deal"].snapshot()] for k, e in enumerate(self.events) if isinstance(e.get("deal"), Deal)]
        return {
            "regulations": self.regulations.to_dict(),
            "earlier_violations": [[seat, code, n] for (seat, code), n in self.earlier_violations.items()],
            "events": self._stored_events(),
            "current": None if self.current is None else self.current.to_dict(),
            "snapshot": {"deals": deals, "current": None if self.current is None else self.current.snapshot()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], trusted: bool = False) -> Partition:
        """Replay a partition stored by :meth:`to_dict`, checking every event and every move.

        ``trusted``: the data is the project's own storage, so the deals played move by move
        are restored from the ``snapshot`` (shape checked) instead of replayed move by move;
        the events still replay through the rules. Input from elsewhere is replayed.
        """
        partition = cls(Regulations.from_dict(data.get("regulations")),
                        earlier_violations={(s, c): n for s, c, n in data.get("earlier_violations", [])})
        snapshot = data.get("snapshot") if trusted else None
        restored: dict[int, Deal] = {}
        if snapshot is not None:
            try:
                restored = {k: Deal.restore(state) for k, state in snapshot["deals"]}
            except (KeyError, TypeError, ValueError) as error:
                raise PartitionError(gettext_noop("the snapshot is damaged")) from error

        def restore(index: int, event: dict[str, Any]) -> dict[str, Any]:
            if index in restored:
                if event.get("type") != "deal" or "deal" not in event:
                    raise PartitionError(gettext_noop("the snapshot is damaged"))
                event["deal"] = restored.pop(index)
            return event
        partition._record_stored(data.get("events", []), restore)
        if restored:
            raise PartitionError(gettext_noop("the snapshot is damaged"))
        if data.get("current") is not None:
            if snapshot is not None and snapshot.get("current") is not None:
                partition.current = Deal.restore(snapshot["current"])
            else:
                partition.current = Deal.from_dict(data["current"], times=partition.regulations.allowances())
        return partition
