"""A game of Goat (Козёл) or Sea Goat (Морской козёл) to ``lose_at`` or to the ``target``
(docs/RULES.md 9.1, 9.2): :class:`GoatGame` scores its deals (:class:`~scoring.engine.goat_deal.GoatDeal`,
played move by move or recorded in summary form) one after another (:mod:`.goat_rules`),
event-sourced like :class:`~scoring.engine.partition.Partition`.

Seats are numbered 1 to ``players`` in the direction of play; with ``teams`` (4 players) seats 1
and 3 are pair A, 2 and 4 pair B, and a pair is the unit that is scored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from . import goat_rules as gr
from . import rules
from .deal import check_seconds
from .annulment import Annulments
from .errors import PartitionError, RulesError, gettext_noop
from .goat_deal import GoatDeal, GoatMove, GoatOutcome, check_game
from .outcome import GameDecision, GameResult, Outcome, game_outcome
from .partition import ViolationRecord
from .regulations import Game, MoveTimeout, Regulations
from .tiles import TILES, Tile, TileIndex, TileMask, indices_of
from .vocabulary import Consequence, Expiry, GameReason, GoatEnd, Seat, Side, Unit, ViolationCode

# GoatDeal, GoatMove and GoatOutcome are defined in .goat_deal, GameDecision and GameResult in
# .outcome; all are still importable from here.
__all__ = ["GoatDeal", "GoatMove", "GoatOutcome", "GoatGame", "GoatDealRecord", "GamePenalty", "GameDecision",
           "GameResult"]


@dataclass(frozen=True)
class GoatDealRecord:
    """A recorded deal: ``charges`` per unit (Goat: charged, before the opening; Sea Goat:
    credited), and each unit's ``scores``, ``memo`` (memorised points) and ``opened`` after it;
    ``carry`` is the sum waiting after it; ``deal`` is the move-form state when it was played
    move by move. A void deal (``end`` ``"redeal"``) has no values and charges nothing."""

    n: int
    leader: Seat | None
    end: GoatEnd
    seat: Seat | None
    values: tuple[int, ...]
    charges: tuple[int, ...]
    scores: tuple[int, ...]
    memo: tuple[int, ...]
    opened: tuple[bool, ...]
    carry: int
    deal: GoatDeal | None = None
    zero_zero: bool = False  # domino with 0-0 (Sea Goat's finish)


@dataclass(frozen=True)
class GamePenalty:
    """A penalty on the unit of ``seat`` after deal ``after_deal`` (RULES 9: Goat charges it to
    the offender, Sea Goat and a highest-wins points game credit it to every other unit);
    ``scores`` after it."""

    after_deal: int
    seat: Seat
    code: ViolationCode
    unit: Unit
    points: int
    scores: tuple[int, ...]
    violation: int | None = None  # the violation it follows from, if any


@dataclass
class _State:
    first_leader: Seat | None = None
    next_leader: Seat | None = None  # None: the first deal of the game, led by its hands
    deals: list[GoatDealRecord] = field(default_factory=list)
    penalties: list[GamePenalty] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    memo: list[int] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    carry: int = 0
    time_expired: tuple[Expiry, int] | None = None  # as in a partition: (when, deal number)
    decision: GameDecision | None = None
    timeout: tuple[int, Seat] | None = None  # (deal, seat) of a lapse with move_timeout forfeit
    lead_at: int | None = None  # how many deals were recorded when the first leader was
    violations: list[ViolationRecord] = field(default_factory=list)
    repeats: dict[tuple[str, ViolationCode], int] = field(default_factory=dict)  # counted, by rules.repeat_key
    pending: list[GamePenalty] = field(default_factory=list)  # written during the deal being played
    timed_out_deal: GoatDeal | None = None  # the deal in which the clock ran out (move_timeout forfeit)


class GoatGame(Annulments[_State]):
    """One game of Goat or Sea Goat at one table (RULES 9.1, 9.2).

    Deals are played move by move (:meth:`start_deal`, then :meth:`draw`, :meth:`play`,
    :meth:`pass_turn` on :attr:`current`; recorded by themselves at domino or fish) or recorded in
    summary form (:meth:`record_deal`, :meth:`record_redeal`). Every call appends an event, and
    :meth:`to_dict` / :meth:`from_dict` store and replay a game.

    >>> game = GoatGame(Regulations(game="goat", players=3), first_leader=2)
    >>> game.record_deal("domino", 2, {1: 14, 3: 25}).scores
    (14, 0, 25)
    """

    def __init__(self, regulations: Regulations, first_leader: Seat | None = None,
                 earlier_violations: Mapping[tuple[str, ViolationCode], int] | None = None) -> None:
        """``earlier_violations``: the violations counted before this game by
        :func:`~scoring.engine.rules.repeat_key` and code (the earlier games of a sitting)."""
        check_game(regulations)
        self.regulations = regulations
        self.units = gr.units_of(regulations)
        self.earlier_violations = dict(earlier_violations or {})
        for (key, code), count in self.earlier_violations.items():
            if not (isinstance(key, str) and code in rules.PENALTY_CODES and type(count) is int and count >= 0):
                raise PartitionError(gettext_noop("earlier violations are counted by seat or unit and code, got "
                                                  "%(item)s"), item=repr((key, code, count)))
        self.current: GoatDeal | None = None
        super().__init__()
        if first_leader is not None:
            self.draw_lead(first_leader)

    def _fresh(self) -> _State:
        n = len(self.units)
        return _State(scores=[0] * n, memo=[0] * n, opened=[self.regulations.opening == 0] * n,
                      repeats=dict(self.earlier_violations))

    # -- reading the state ---------------------------------------------------------------------

    @property
    def is_sea_goat(self) -> bool:
        return self.regulations.game == Game.SEA_GOAT

    @property
    def deals(self) -> list[GoatDealRecord]:
        return list(self._state.deals)

    @property
    def penalties(self) -> list[GamePenalty]:
        return list(self._state.penalties)

    @property
    def violations(self) -> list[ViolationRecord]:
        """Every violation recorded, annulled ones included (:attr:`ViolationRecord.annulled`)."""
        return list(self._state.violations)

    @property
    def repeats(self) -> dict[tuple[str, ViolationCode], int]:
        """The violations counted so far (the earlier ones included), by
        :func:`~scoring.engine.rules.repeat_key` and code: a sitting's next game starts from them."""
        return dict(self._state.repeats)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._state.scores)

    @property
    def memo(self) -> tuple[int, ...]:
        return tuple(self._state.memo)

    @property
    def opened(self) -> tuple[bool, ...]:
        return tuple(self._state.opened)

    @property
    def carry(self) -> int:
        return self._state.carry

    @property
    def first_leader(self) -> Seat | None:
        return self._state.first_leader

    @property
    def next_leader(self) -> Seat | None:
        """Who leads the next deal; ``None`` while it is the first of the game (led by its hands)."""
        return self._state.next_leader

    @property
    def needs_lead(self) -> bool:
        """Whether the leader of the coming deal, a first deal of the game, is still to be recorded
        (:meth:`draw_lead`): nobody has led yet, or only void deals were recorded since (a redeal
        is led by its own hands, RULES 9.1)."""
        s = self._state
        return s.next_leader is None and s.lead_at != len(s.deals)

    @property
    def decision(self) -> GameDecision | None:
        return self._state.decision

    @property
    def time_expired(self) -> tuple[Expiry, int] | None:
        return self._state.time_expired

    @property
    def timeout(self) -> tuple[int, Seat] | None:
        """``(deal, seat)``: during that deal the player at that seat ran out of time."""
        return self._state.timeout

    @property
    def timed_out_deal(self) -> GoatDeal | None:
        """The deal, played move by move, during which the clock ran out (:meth:`time_out`)."""
        return self._state.timed_out_deal

    @property
    def is_over(self) -> bool:
        return self._state.decision is not None

    def game_points(self) -> tuple[int, ...] | None:
        """Each unit's game points once the game is over (RULES 9.1 online rating; Sea Goat 1 to
        the winner); ``None`` while it goes on."""
        d, s = self._state.decision, self._state
        if d is None:
            return None
        if d.reason == GameReason.TIMEOUT and d.timed_out is not None:
            return tuple(gr.timeout_game_points(s.scores, self.units.index(d.timed_out), self.regulations.game))
        if self.is_sea_goat:
            winners = self.winners()
            return tuple(1 if u in winners else 0 for u in self.units)
        return tuple(gr.goat_game_points(s.scores, [self.units.index(g) for g in d.goats]))

    def winners(self) -> tuple[Unit, ...]:
        """Sea Goat: the units that won the game: its winner, or after a no-show every unit
        present (RULES 5); none in Goat, whose game points rate every unit."""
        d = self._state.decision
        if d is None or not self.is_sea_goat:
            return ()
        if d.reason == GameReason.NO_SHOW:
            return tuple(u for u in self.units if u not in d.absent)
        return () if d.winner is None else (d.winner,)

    def result(self) -> GameResult:
        """The inputs of the standings (RULES 9.1: game points, goats taken, total score; 9.2:
        games won, points)."""
        d = self._state.decision
        return GameResult(self.units, self.scores, self.game_points() or (0,) * len(self.units),
                          d.goats if d else (), self.winners(), d.reason if d else None)

    def outcome(self) -> Outcome | None:
        """The game's :class:`~scoring.engine.outcome.Outcome` (its units ranked as the standings
        of RULES 9.1, 9.2 rank them); ``None`` while it goes on."""
        d = self._state.decision
        return None if d is None else game_outcome(self.regulations, self.result(), d)

    # -- events --------------------------------------------------------------------------------

    def _check_open(self) -> None:
        d = self._state.decision
        if d is not None:
            raise PartitionError(gettext_noop("the game was already decided after deal %(n)s (%(reason)s): nothing more"
                                              " can be recorded"), n=len(self._state.deals), reason=d.reason)

    def _check_seat(self, seat: object) -> Seat:
        if type(seat) is not int or not 1 <= seat <= self.regulations.players:
            raise PartitionError(gettext_noop("seat must be 1 to %(players)s, got %(seat)s"),
                                 players=self.regulations.players, seat=repr(seat))
        return seat

    def draw_lead(self, seat: Seat) -> None:
        """Record who leads the first deal of the game, when it is recorded in summary form (a
        deal played move by move finds its leader in the hands, RULES 9.1); after a void first
        deal, who leads the one dealt again."""
        self._event({"type": "lead", "seat": seat})

    def _on_lead(self, event: Mapping[str, Any]) -> None:
        s = self._state
        if not self.needs_lead:
            raise PartitionError(gettext_noop("the leader of the first deal is already known"))
        s.first_leader = self._check_seat(event.get("seat"))
        s.lead_at = len(s.deals)

    def start_deal(self, seed: int | str | None = None,
                   hands: Sequence[Sequence[Tile | TileIndex | str] | TileMask] | None = None) -> GoatDeal:
        """Deal the next deal to play it move by move, from ``seed`` (kept secret until it ends)
        or the given ``hands``. A void deal is recorded at once (:attr:`GoatDeal.is_void`): start
        the next one."""
        self._check_open()
        if self.current is not None:
            raise PartitionError(gettext_noop("a deal is already being played"))
        leader = self._state.next_leader
        if seed is not None and hands is None:
            deal = GoatDeal.from_seed(seed, self.regulations, leader)
        elif hands is not None and seed is None:
            deal = GoatDeal(list(hands), self.regulations, leader)
        else:
            raise PartitionError(gettext_noop("give either a seed or the hands"))
        return self.begin_deal(deal)

    def begin_deal(self, deal: GoatDeal) -> GoatDeal:
        """Play ``deal`` (dealt elsewhere, e.g. replayed from a protocol) as the next deal; it must
        be led as the game says (:attr:`next_leader`). A void deal is recorded at once."""
        self._check_open()
        if self.current is not None:
            raise PartitionError(gettext_noop("a deal is already being played"))
        self._check_leader(deal)
        if deal.regulations != self.regulations:
            raise PartitionError(gettext_noop("the deal is played under other regulations than the game"))
        if deal.is_void:
            self._event({"type": "deal", "deal": deal})
        else:
            self.current = deal
        return deal

    def _check_leader(self, deal: GoatDeal) -> None:
        """A deal is led by the winner of the last one; the first deal of a game by its hands,
        which must agree with the leader recorded for it."""
        s = self._state
        if deal.is_void:
            return
        if s.next_leader is not None and deal.leader != s.next_leader:
            raise PartitionError(gettext_noop("seat %(seat)s leads, but this deal is led by seat %(leader)s"),
                                 seat=s.next_leader, leader=deal.leader)
        if s.next_leader is None and s.first_leader not in (None, deal.leader):
            raise PartitionError(gettext_noop("seat %(seat)s leads the first deal by the hands, not seat %(leader)s"),
                                 seat=deal.leader, leader=s.first_leader)

    def _current(self) -> GoatDeal:
        if self.current is None:
            raise PartitionError(gettext_noop("no deal is being played: start one first"))
        return self.current

    def draw(self, tile: Tile | TileIndex | str | None = None, seat: Seat | None = None) -> Tile:
        """The player to move takes a tile from the bazaar (:meth:`GoatDeal.draw`)."""
        return self._current().draw(tile, seat)

    def play(self, tile: Tile | TileIndex | str, end: Side | str | None = None, seat: Seat | None = None,
             second: Tile | TileIndex | str | None = None, seconds: float | None = None) -> GoatDealRecord | None:
        """Play a tile (Sea Goat: and a ``second`` double), charged ``seconds`` (:meth:`_timed`);
        returns the deal's record if it ended."""
        deal = self._current()
        self._timed(deal, seconds, lambda charged: deal.play(tile, end, seat, second, charged))
        return self.close_if_over()

    def pass_turn(self, seat: Seat | None = None, seconds: float | None = None) -> GoatDealRecord | None:
        deal = self._current()
        self._timed(deal, seconds, lambda charged: deal.pass_turn(seat, charged))
        return self.close_if_over()

    def apply_move(self, move: Mapping[str, Any]) -> GoatDealRecord | None:
        """Apply one protocol move (:meth:`GoatDeal.apply`) to the current deal, its ``"seconds"``
        counted as :meth:`play` counts them; draws alone (a turn still being played) are no move."""
        deal = self._current()
        if isinstance(move, Mapping) and ("tile" in move or "pass" in move):
            self._timed(deal, move.get("seconds"), lambda charged: deal.apply(move))
        else:
            deal.apply(move)
        return self.close_if_over()

    def _timed(self, deal: GoatDeal, seconds: object, move: Callable[[float | None], None]) -> None:
        """Make ``move`` of the player to move, charged ``seconds``, as
        :meth:`Partition._timed <scoring.engine.partition.Partition._timed>` does: the move lapsed
        ``floor(seconds / a)`` times (``a``: the allowance fixed when his turn began); those beyond
        the lapses :meth:`record_lapse` already recorded for it are recorded once it is made (the
        deal still being played, so that their penalties count after its score)."""
        charged = check_seconds(seconds)
        seat, index, allowance = deal.to_move, len(deal.moves), deal.allowance()
        lapses = rules.new_lapses(charged, allowance, self.recorded_lapses(index))
        move(charged)
        for lapse in lapses:
            self._event({"type": "violation", "seat": seat, "code": ViolationCode.MOVE_TIME.value, "move": index,
                         "during_deal": True, "lapse": lapse})

    def recorded_lapses(self, move: int) -> int:
        """Lapses of the clock already recorded for move ``move`` (from 0) of the deal being played."""
        s = self._state
        return sum(1 for v in s.violations if v.deal == len(s.deals) + 1 and v.move == move and v.lapse is not None)

    def record_lapse(self, seat: Seat) -> ViolationRecord:
        """The live clock ran out on the move awaited (RULES 6): a ``move_time`` violation of
        ``seat``, recorded at the deadline as lapse ``k`` of that move (``k``: the lapses recorded
        for it, plus one); when the move arrives, only the lapses its seconds imply beyond these
        are added (:meth:`_timed`). Without a deal played move by move (the referee's clock), a
        violation during the deal being played on paper."""
        if self.current is None:
            return self.record_violation(seat, ViolationCode.MOVE_TIME)
        deal = self.current
        if seat != deal.to_move:
            raise PartitionError(gettext_noop("the clock runs for seat %(turn)s, not for seat %(seat)s"),
                                 turn=deal.to_move, seat=repr(seat))
        index = len(deal.moves)
        record: ViolationRecord = self._event({"type": "violation", "seat": seat,
                                               "code": ViolationCode.MOVE_TIME.value, "move": index,
                                               "during_deal": True, "lapse": self.recorded_lapses(index) + 1})
        return record

    def close_if_over(self) -> GoatDealRecord | None:
        """Record the current deal if it has ended (after :meth:`GoatDeal.apply` on :attr:`current`)."""
        deal = self.current
        if deal is None or not deal.is_over:
            return None
        self.current = None
        try:
            record: GoatDealRecord = self._event({"type": "deal", "deal": deal})
        except RulesError:
            self.current = deal
            raise
        return record

    def record_deal(self, end: GoatEnd | str, seat: Seat, values: Mapping[Seat, int],
                    zero_zero: bool = False) -> GoatDealRecord:
        """Record a deal in summary form: ``end`` ``"domino"`` or ``"fish"``, the ``seat`` that
        made domino or placed the fishing tile, and the hand value left to each seat (the domino
        maker's may be left out: it is 0); ``zero_zero``: the domino was made with 0-0."""
        event: dict[str, Any] = {"type": "deal", "end": end, "seat": seat,
                                 "values": {str(k): v for k, v in values.items()}}
        if zero_zero:
            event["zero_zero"] = True
        record: GoatDealRecord = self._event(event)
        return record

    def record_redeal(self, hands: Sequence[Sequence[Tile | TileIndex | str] | TileMask] | None = None) -> GoatDealRecord:
        """Record a void deal (a paper protocol may leave out its hands)."""
        event: dict[str, Any] = {"type": "redeal"}
        if hands is not None:
            event["hands"] = {str(s): [str(TILES[i]) for i in indices_of(h)] if isinstance(h, int) else [str(t) for t in h]
                              for s, h in enumerate(hands, 1)}
        record: GoatDealRecord = self._event(event)
        return record

    def _on_redeal(self, event: Mapping[str, Any]) -> GoatDealRecord:
        self._check_open()
        self._no_current()
        hands = event.get("hands")
        if hands is None:
            s = self._state
            return self._record(GoatDealRecord(len(s.deals) + 1, s.next_leader or s.first_leader, GoatEnd.REDEAL, None,
                                               (), (0,) * len(self.units), self.scores, self.memo, self.opened,
                                               s.carry))
        deal = GoatDeal.from_dict({"hands": hands}, self.regulations, self._state.next_leader)
        if not deal.is_void:
            raise PartitionError(gettext_noop("a redeal needs a hand of 5 doubles or 6 tiles of one number"))
        return self._on_deal({"deal": deal})

    def _no_current(self) -> None:
        if self.current is not None:
            raise PartitionError(gettext_noop("a deal is being played move by move: finish it first"))

    def _on_deal(self, event: Mapping[str, Any]) -> GoatDealRecord:
        self._check_open()
        s = self._state
        if "deal" in event:
            stored = event["deal"]
            deal = stored if isinstance(stored, GoatDeal) else GoatDeal.from_dict(stored, self.regulations,
                                                                                  s.next_leader)
            self._check_leader(deal)
            if deal.outcome is None:
                raise PartitionError(gettext_noop("the deal is not over: only a finished deal is recorded"))
            if deal.is_void:
                return self._record(GoatDealRecord(len(s.deals) + 1, deal.leader, GoatEnd.REDEAL, None, (),
                                                   (0,) * len(self.units), self.scores, self.memo, self.opened,
                                                   s.carry, deal))
            return self._score(deal.outcome, deal.leader, deal)
        self._no_current()
        end, seat, values = event.get("end"), event.get("seat"), event.get("values")
        if end not in (GoatEnd.DOMINO, GoatEnd.FISH):
            raise PartitionError(gettext_noop("a deal ends with \"domino\" or \"fish\", got %(end)s"), end=repr(end))
        seat = self._check_seat(seat)
        leader = s.next_leader if s.next_leader is not None else s.first_leader
        if leader is None:
            raise PartitionError(gettext_noop("the first deal in summary form needs the seat that led it (first_leader)"))
        zero_zero = event.get("zero_zero", False)
        if type(zero_zero) is not bool or zero_zero and end != GoatEnd.DOMINO:
            raise PartitionError(gettext_noop("zero_zero is true or false, and true only for domino"))
        outcome = GoatOutcome(GoatEnd(end), seat, self._read_values(GoatEnd(end), seat, values), zero_zero)
        return self._score(outcome, leader, None)

    def _read_values(self, end: GoatEnd, seat: Seat, values: object) -> tuple[int, ...]:
        players = self.regulations.players
        seats = [str(k) for k in range(1, players + 1)]
        if not isinstance(values, Mapping) or not set(values) <= set(seats):
            raise PartitionError(gettext_noop("values are given by seat \"1\" to \"%(players)s\""), players=players)
        result = []
        for key in seats:
            value = values.get(key, 0 if end == GoatEnd.DOMINO and key == str(seat) else None)
            if value is None:
                raise PartitionError(gettext_noop("the hand value of seat %(seat)s is missing"), seat=key)
            if type(value) is not int or value < 0:
                raise PartitionError(gettext_noop("the hand value of seat %(seat)s must be a whole number 0 or more, got"
                                                  " %(value)s"), seat=key, value=repr(value))
            result.append(value)
        if end == GoatEnd.DOMINO and result[seat - 1]:
            raise PartitionError(gettext_noop("seat %(seat)s made domino: his hand is empty, worth 0"), seat=seat)
        most = 168 + self.regulations.zero_alone + self.regulations.six_alone
        if sum(result) > most:
            raise PartitionError(gettext_noop("hand values %(total)s in all: the hands cannot be worth more than"
                                              " %(most)s"), total=sum(result), most=most)
        return tuple(result)

    def _record(self, record: GoatDealRecord) -> GoatDealRecord:
        s = self._state
        s.deals.append(record)
        self._decide(record)
        return record

    def _score(self, outcome: GoatOutcome, leader: Seat | None, deal: GoatDeal | None) -> GoatDealRecord:
        """Count a deal that ended with ``outcome`` (RULES 9.1 charges and opening; 9.2 credits),
        then the penalties written during it, which were counted at once (PROTOCOL_FORMAT.md: a
        penalty written during deal N counts after deal N's own score)."""
        s, r = self._state, self.regulations
        assert outcome.seat is not None  # domino and fish always name their seat
        pending = self._take_pending()
        if self.is_sea_goat:
            charges, s.carry, winner = gr.sea_goat_credits(outcome.end, outcome.seat, outcome.values, s.carry, r)
            if winner is not None:
                gr.sea_goat_open(charges[winner], winner, s.scores, s.opened, r)
        else:
            charges, s.carry, alone = gr.goat_charges(outcome.end, outcome.seat, outcome.values, s.carry, r)
            for k, charge in enumerate(charges):
                s.scores[k], s.memo[k], s.opened[k] = gr.goat_open(charge, s.scores[k], s.memo[k], s.opened[k],
                                                                   r.opening)
            if outcome.end == GoatEnd.DOMINO:
                s.memo[gr.unit_index(outcome.seat, r)] = 0
            if alone is not None:
                s.memo = [m if k == alone else 0 for k, m in enumerate(s.memo)]
        s.next_leader = outcome.seat
        record = GoatDealRecord(len(s.deals) + 1, leader, outcome.end, outcome.seat, outcome.values, tuple(charges),
                                self.scores, self.memo, self.opened, s.carry, deal, outcome.zero_zero)
        self._count_again(pending)
        return self._record(record)

    def _take_pending(self) -> list[GamePenalty]:
        """Take back the penalties written during the deal being played (counted at once, they are
        the last ones), in the order they count again (the protocol format's): those that follow
        from violations in their order of occurrence, then the penalties written, as written."""
        s = self._state
        found = {v.id: v for v in s.violations}

        def order(p: GamePenalty) -> tuple[int, tuple[int, ...]]:
            return (0, found[p.violation].occurrence) if p.violation is not None else (1, ())
        pending = sorted(s.pending, key=order)
        for penalty in pending:
            self._charge(gr.unit_index(penalty.seat, self.regulations), -penalty.points)
        del s.penalties[len(s.penalties) - len(pending):]
        s.pending = []
        return pending

    def _count_again(self, pending: list[GamePenalty]) -> None:
        for penalty in pending:
            self._charge(gr.unit_index(penalty.seat, self.regulations), penalty.points)
            self._state.penalties.append(replace(penalty, scores=self.scores))

    def _decide(self, record: GoatDealRecord | None = None) -> None:
        """End the game if it is over after a deal (and the penalties written after it); a
        penalty right after the deal that decided it decides it again (more goats, or another
        side at the target)."""
        s = self._state
        if s.decision is not None and not self._decided_by_deal():
            return
        if s.decision is not None and s.decision.reason == GameReason.ZERO_ZERO:
            return  # 0-0 wins whatever the scores
        if self.current is not None:
            return  # a penalty during a deal: the deal's end decides
        s.decision = self._decision(record)

    def _decided_by_deal(self) -> bool:
        """Whether the game was decided by its last deal (the scores it reached, 0-0, or the time
        that ran out during it), so that a penalty written right after it still counts."""
        s = self._state
        if s.decision is None:
            return False
        if s.decision.reason == GameReason.TIME:
            return s.time_expired == (Expiry.DURING_DEAL, len(s.deals))
        return s.decision.reason in (GameReason.LOSE_AT, GameReason.TARGET, GameReason.ZERO_ZERO)

    def _decision(self, record: GoatDealRecord | None) -> GameDecision | None:
        s, r = self._state, self.regulations
        if self.is_sea_goat:
            if record is not None and record.zero_zero:
                assert record.seat is not None  # domino names its seat
                return GameDecision(GameReason.ZERO_ZERO, winner=gr.unit_of(record.seat, r))
            best = max(s.scores)
            if best >= r.target and s.scores.count(best) == 1:
                return GameDecision(GameReason.TARGET, winner=self.units[s.scores.index(best)])
        else:
            goats = tuple(u for u, score in zip(self.units, s.scores) if score >= r.lose_at)
            if goats:
                return GameDecision(GameReason.LOSE_AT, goats=goats)
        if s.time_expired is not None and len(s.deals) >= s.time_expired[1]:
            return GameDecision(GameReason.TIME, winner=self._leader_at_time())
        return None

    def _leader_at_time(self) -> Unit | None:
        """Sea Goat stopped by the clock: the unit with the most points, if only one has them."""
        if not self.is_sea_goat:
            return None
        scores = self._state.scores
        best = max(scores)
        return self.units[scores.index(best)] if scores.count(best) == 1 else None

    def write_penalty(self, seat: Seat, code: ViolationCode | str) -> GamePenalty:
        """A penalty on the unit of ``seat`` (RULES 9): Goat charges ``penalty_points`` straight
        to its score (no opening, no memorised points); Sea Goat credits them to every other unit."""
        event: dict[str, Any] = {"type": "penalty", "seat": seat, "code": code}
        if self.current is not None:  # kept, so that a replay (without the deal) counts it the same way
            event["during_deal"] = True
        penalty: GamePenalty = self._event(event)
        return penalty

    def _on_penalty(self, event: Mapping[str, Any]) -> GamePenalty:
        seat = self._check_seat(event.get("seat"))
        code = event.get("code")
        if code not in rules.PENALTY_CODES:
            raise PartitionError(gettext_noop("unknown penalty code %(code)s; known: %(known)s"), code=repr(code),
                                 known=", ".join(rules.PENALTY_CODES))
        self._check_penalty_time()
        return self._penalize(seat, ViolationCode(code), None, bool(event.get("during_deal")))

    def _check_penalty_time(self) -> None:
        """A penalty (or a violation) may be written while the game goes on, or right after the
        deal that decided it."""
        if not self._decided_by_deal() or self.current is not None:
            self._check_open()

    def _penalize(self, seat: Seat, code: ViolationCode, violation: int | None,
                  during_deal: bool = False) -> GamePenalty:
        """Count a penalty at once; the game may end by it, unless it falls during a deal (deal N,
        its ``after_deal``): that deal's end decides, counting it after the deal's own score
        (:meth:`_score`), in a replay too, where the deal is not being played."""
        s, r = self._state, self.regulations
        unit = gr.unit_index(seat, r)
        penalty = GamePenalty(len(s.deals) + during_deal, seat, code, self.units[unit], r.penalty_points, (), violation)
        # In the protocol format's order: a violation's penalty before the penalties written since
        # the last deal (or during the deal being played), which are counted again after it.
        at = len(s.penalties)
        while (violation is not None and at and s.penalties[at - 1].violation is None
               and s.penalties[at - 1].after_deal == penalty.after_deal):
            at -= 1
        later = s.penalties[at:]
        del s.penalties[at:]
        for p in later:
            self._charge(gr.unit_index(p.seat, r), -p.points)
        self._count_again([penalty, *later])
        counted = s.penalties[at]
        if during_deal:
            s.pending = s.penalties[len(s.penalties) - len(s.pending) - 1:]
        else:
            self._decide(None)
        return counted

    def _charge(self, unit: int, points: int) -> None:
        """A penalty's ``points`` (negative: taken back) on ``unit``: Goat charges its score, Sea
        Goat credits every other unit's (RULES 9)."""
        for k in range(len(self.units)):
            if (k == unit) != self.is_sea_goat:
                self._state.scores[k] += points

    def record_violation(self, seat: Seat, code: ViolationCode | str, move: int | None = None) -> ViolationRecord:
        """A violation by ``seat`` (RULES 6, 7, 9): a warning first and a penalty when repeated for
        ``move_time`` and ``conduct`` (counted by ``repeat_scope``: the player, or his unit, over
        this game and the ``earlier_violations``), a penalty at once for the others, written as
        :meth:`write_penalty` writes one (its id: :attr:`GamePenalty.violation`).

        ``move``: during a deal played move by move, the index of a move of it (default: the one
        awaited now); between deals, a move of the last deal recorded, the violation is then of
        that deal (a protocol's, listed after the deal's score, where its penalty counts)."""
        event: dict[str, Any] = {"type": "violation", "seat": seat, "code": code}
        if self.current is not None:  # kept, so that a replay (without the deal) places it the same way
            event.update(move=len(self.current.moves) if move is None else move, during_deal=True)
        elif move is not None:
            event["move"] = move
        record: ViolationRecord = self._event(event)
        return record

    def _on_violation(self, event: Mapping[str, Any]) -> ViolationRecord:
        s, r = self._state, self.regulations
        seat = self._check_seat(event.get("seat"))
        code = event.get("code")
        if code not in rules.PENALTY_CODES:  # a no-show is recorded by record_no_show
            raise PartitionError(gettext_noop("unknown violation code %(code)s; known: %(known)s"), code=repr(code),
                                 known=", ".join(rules.PENALTY_CODES))
        code = ViolationCode(code)
        self._check_penalty_time()
        move, lapse, during = event.get("move"), event.get("lapse"), bool(event.get("during_deal"))
        deal = len(s.deals) + during
        if self.current is not None:
            awaited: int | None = len(self.current.moves)
        elif during:  # replayed: checked against the deal when it was recorded
            awaited = None
        else:  # a move of the last deal recorded, when it was played move by move
            last = s.deals[-1].deal if s.deals else None
            awaited = None if last is None else len(last.moves) - 1
        if move is not None and not (type(move) is int and 0 <= move and deal > 0
                                     and (awaited is None or move <= awaited)):
            raise PartitionError(gettext_noop("the move of a violation is the index (0 or more) of a move of the deal, "
                                              "got %(move)s"), move=repr(move))
        if lapse is not None and not (type(lapse) is int and lapse >= 1 and move is not None and during
                                      and code == ViolationCode.MOVE_TIME):
            raise PartitionError(gettext_noop("a lapse is a move_time violation of a move, counted from 1, got %(lapse)s"),
                                 lapse=repr(lapse))
        key = (rules.repeat_key(seat, self.units[gr.unit_index(seat, r)], r.repeat_scope), code)
        counted = s.repeats.get(key, 0)
        consequence = rules.violation_consequence(code, counted)
        annulled = self._annulled.get(self._index)
        if annulled is None:
            s.repeats[key] = counted + 1
        record = ViolationRecord(self._index, len(s.deals), seat, code, consequence, annulled, deal, move, lapse)
        s.violations.append(record)
        if consequence == Consequence.PENALTY and annulled is None:
            self._penalize(seat, code, record.id, during)
        return record

    def annul_violation(self, violation_id: int, reason: str) -> None:
        """The referee annuls a violation as justified (RULES 6): it counts for nothing, a penalty
        that followed from it is withdrawn, and the game is replayed so that the next violation
        of the kind is again a first one; nothing else changes."""
        self._event({"type": "annul", "violation": violation_id, "reason": reason})

    def time_out(self, seat: Seat) -> GameDecision:
        """With ``move_timeout = forfeit`` the player at ``seat`` let his move clock run out: the
        deal being played is not scored and the game ends (RULES 9.1). That deal is kept
        (:attr:`timed_out_deal`): the protocol writes it, with what was recorded during it."""
        event: dict[str, Any] = {"type": "timeout", "seat": seat}
        if self.current is not None:
            event["deal"] = self.current
        decision: GameDecision = self._event(event)
        return decision

    def _on_timeout(self, event: Mapping[str, Any]) -> GameDecision:
        self._check_open()
        if self.regulations.move_timeout != MoveTimeout.FORFEIT:
            raise PartitionError(gettext_noop("a lapse of the move clock ends the game only with move_timeout forfeit"))
        seat = self._check_seat(event.get("seat"))
        s = self._state
        s.timeout = (len(s.deals) + 1, seat)
        stored = event.get("deal")
        if stored is not None:
            s.timed_out_deal = stored if isinstance(stored, GoatDeal) else GoatDeal.from_dict(stored, self.regulations,
                                                                                             s.next_leader)
        self._count_again(self._take_pending())  # after_deal: the deal not scored
        self.current = None
        unit = gr.unit_of(seat, self.regulations)
        points = gr.timeout_game_points(self._state.scores, self.units.index(unit), self.regulations.game)
        winner = None
        if self.is_sea_goat and 1 in points:
            winner = self.units[points.index(1)]
        self._state.decision = GameDecision(GameReason.TIMEOUT, winner=winner, timed_out=unit)
        return self._state.decision

    def record_no_show(self, absent: Sequence[Unit]) -> GameDecision:
        """The units ``absent`` (seats, or pairs with ``teams``; a pair with a player missing is
        absent) had not appeared by the no-show deadline (RULES 5, 9), before the first deal: the
        game is decided. Goat: each absent unit is a goat at ``lose_at``, each present one scores
        0 (its full game points); Sea Goat: each present unit wins, credited ``no_show_points``
        (default: the target), each absent one has 0. All absent: all lose."""
        decision: GameDecision = self._event({"type": "no_show",
                                              "absent": list(absent) if isinstance(absent, (list, tuple)) else absent})
        return decision

    def _on_no_show(self, event: Mapping[str, Any]) -> GameDecision:
        self._check_open()
        s, r, absent = self._state, self.regulations, event.get("absent")
        if not (isinstance(absent, list) and absent and all(isinstance(u, str) for u in absent)
                and len(set(absent)) == len(absent) and set(absent) <= set(self.units)):
            raise PartitionError(gettext_noop("the absent are a list of %(units)s, each once, got %(absent)s"),
                                 units=", ".join(self.units), absent=repr(absent))
        if s.deals or self.current is not None:
            raise PartitionError(gettext_noop("a no-show is recorded before the first deal"))
        away = tuple(u for u in self.units if u in absent)
        if self.is_sea_goat:
            s.scores = [0 if u in away else r.no_show_award for u in self.units]
            present = [u for u in self.units if u not in away]
            s.decision = GameDecision(GameReason.NO_SHOW, winner=present[0] if len(present) == 1 else None,
                                      absent=away)
        else:
            s.scores = [r.lose_at if u in away else 0 for u in self.units]
            s.decision = GameDecision(GameReason.NO_SHOW, goats=away, absent=away)
        return s.decision

    # -- storing -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the regulations, every event, and the deal being played (with its seed:
        this is the stored state, not a public view)."""
        data: dict[str, Any] = {
            "regulations": self.regulations.to_dict(),
            "events": self._stored_events(),
            "current": None if self.current is None else self.current.to_dict(),
        }
        if self.earlier_violations:
            data["earlier_violations"] = [[key, str(code), n] for (key, code), n in self.earlier_violations.items()]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any],
                  earlier_violations: Mapping[tuple[str, ViolationCode], int] | None = None) -> GoatGame:
        """Replay a game stored by :meth:`to_dict`; ``earlier_violations``, when given, in place
        of the stored ones (a sitting counts them again from its earlier games)."""
        if earlier_violations is None:
            stored = data.get("earlier_violations") or []
            if not (isinstance(stored, list) and all(isinstance(e, list) and len(e) == 3 for e in stored)):
                raise PartitionError(gettext_noop("earlier violations are a list of [seat or unit, code, count]"))
            earlier_violations = {(key, code): n for key, code, n in stored}
        game = cls(Regulations.from_dict(data.get("regulations")), earlier_violations=earlier_violations)
        game._record_stored(data.get("events", []))
        if data.get("current") is not None:
            game.current = GoatDeal.from_dict(data["current"], game.regulations)
        return game
