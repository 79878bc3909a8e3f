"""Readers of the fields every ``domino-protocol/1`` document shares, whatever its game
(:mod:`.protocol` for sports domino, :mod:`.goat_protocol` for the others): each checks its
field's form and names the field in the error it raises."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final, Mapping, Protocol, Sized

from . import rules
from .deal import check_seconds
from .errors import ProtocolError, RulesError, gettext_noop
from .partition import ViolationRecord
from .vocabulary import Expiry, Seat, ViolationCode

EXPIRIES: Final = tuple(e.value for e in Expiry)
VIOLATION_KEYS: Final = {"deal", "move", "seat", "code", "annulled", "lapse"}
#: The codes listed under ``violations``: a warning first (the others are penalties at once).
LISTED_CODES: Final = tuple(c.value for c in ViolationCode if c in rules.ESCALATING_CODES)


def fail(template: str, where: str | None = None, **params: Any) -> ProtocolError:
    return ProtocolError(template, where, **params)


def place(method: Callable[..., object], where: str, *args: Any, **params: Any) -> None:
    """Call ``method``; an error it raises is placed under ``where``."""
    try:
        method(*args)
    except RulesError as error:
        raise error.at(where, **params) from None


def read_penalties(penalties: Any, deals: int) -> list[tuple[int, Any, Any]]:
    """``(after_deal, seat, code)`` of each penalty; the seat and the code are checked by the
    game as it writes them."""
    if penalties is None:
        return []
    if not isinstance(penalties, list):
        raise fail(gettext_noop("must be a list"), "penalties")
    result: list[tuple[int, Any, Any]] = []
    for k, item in enumerate(penalties, 1):
        if not isinstance(item, Mapping) or set(item) != {"after_deal", "seat", "code"}:
            raise fail(gettext_noop("a penalty has exactly after_deal, seat and code")).at(gettext_noop("penalty %(n)s"), n=k)
        after = item["after_deal"]
        if type(after) is not int or not 0 <= after <= deals:
            raise fail(gettext_noop("after_deal must be 0 to %(deals)s (the deals given), got %(value)s"), deals=deals,
                       value=repr(after)).at(gettext_noop("penalty %(n)s"), n=k)
        result.append((after, item["seat"], item["code"]))
    return result


def read_time(value: Any, deals: int) -> tuple[Expiry, int] | None:
    """``time_expired``: ``{"during_deal": N}`` or ``{"after_deal": N}``, or None."""
    if value is None:
        return None
    if not (isinstance(value, Mapping) and len(value) == 1 and next(iter(value)) in EXPIRIES):
        raise fail(gettext_noop("must be {\"during_deal\": N} or {\"after_deal\": N}"), "time_expired")
    kind, n = next(iter(value.items()))
    kind = Expiry(kind)
    low, high = (1, deals + 1) if kind == Expiry.DURING_DEAL else (0, deals)
    if type(n) is not int or not low <= n <= high:
        raise fail(gettext_noop("%(kind)s must be %(low)s to %(high)s for the %(deals)s deals given, got %(value)s"),
                   "time_expired", kind=kind, low=low, high=high, deals=deals, value=repr(n))
    return kind, n


class Violating(Protocol):
    """A game that records violations: a partition, a Goat or Sea Goat game."""

    def record_violation(self, seat: Seat, code: ViolationCode, move: int | None = None) -> ViolationRecord: ...

    def annul_violation(self, violation_id: int, reason: str) -> None: ...


class Timed(Violating, Protocol):
    """A game whose deals are played move by move under the clock (RULES 6)."""

    def record_lapse(self, seat: Seat) -> ViolationRecord: ...

    def apply_move(self, move: Mapping[str, Any]) -> object: ...


class Ended(Protocol):
    @property
    def end(self) -> str: ...


class Played(Protocol):
    """A deal being played move by move: its moves so far, who is to move and his allowance."""

    @property
    def moves(self) -> Sized: ...

    @property
    def to_move(self) -> Seat: ...

    @property
    def outcome(self) -> Ended | None: ...

    def allowance(self) -> int: ...


def play_moves(game: Timed, deal: Played, moves: list[Any], listed: list[Listed]) -> None:
    """Play a move-form deal's ``moves`` in ``game`` (``deal`` being its current deal) with the
    violations ``listed`` at its moves, in the format's order of occurrence: before each move the
    lapses its seconds imply (each recorded as a live table's clock records it, an annulled one
    listed with its ``lapse`` in its place), then the violations listed at it; after the last
    move of a deal still being played, those listed at the move awaited. ``listed`` keeps those
    at no move of the deal."""
    for k, move in enumerate(moves, 1):
        if deal.outcome is not None:
            raise fail(gettext_noop("the deal is already over (%(end)s): no move after it"),
                       end=deal.outcome.end).at(gettext_noop("move %(n)s"), n=k)
        try:
            if isinstance(move, Mapping) and ("tile" in move or "pass" in move):
                _before_move(game, deal, move, listed)
            game.apply_move(move)
        except RulesError as error:
            raise error.at(gettext_noop("move %(n)s"), n=k) from None
    if deal.outcome is None:  # still being played: what was recorded while a move is awaited
        awaited = len(deal.moves)
        for item in [item for item in listed if item.move == awaited]:
            listed.remove(item)
            as_lapse = item.code == ViolationCode.MOVE_TIME and item.seat == deal.to_move
            item.record(game, game.record_lapse if as_lapse else None)


def _before_move(game: Timed, deal: Played, move: Mapping[str, Any], listed: list[Listed]) -> None:
    index, seat = len(deal.moves), deal.to_move
    here = [item for item in listed if item.move == index]
    for item in here:
        listed.remove(item)
    charged = check_seconds(move.get("seconds"))
    lapses = 0 if charged is None else rules.move_lapses(charged, deal.allowance())
    for lapse in range(1, lapses + 1):
        match = next((item for item in here if item.code == ViolationCode.MOVE_TIME and item.annulled is not None
                      and item.seat == seat and (item.lapse or 1) == lapse), None)
        if match is None:
            game.record_lapse(seat)
        else:
            here.remove(match)
            match.record(game, game.record_lapse)
    for item in here:
        item.record(game)


def written_violations(violations: list[ViolationRecord], moves: Mapping[int, int]) -> list[dict[str, Any]]:
    """The ``violations`` a file lists, in order of occurrence, ``moves`` giving the number of
    moves each deal has in the file (move form): a lapse at one of these moves is derived from
    its seconds, and listed only when annulled (with its ``lapse``); an annulled ``move_time``
    at such a move that is no lapse stays a listed one (its ``lapse`` matching no derived one)."""
    escalating = [v for v in violations if v.code in rules.ESCALATING_CODES]
    derived: dict[tuple[int, int], int] = {}  # (deal, move) -> lapses its seconds imply
    for v in escalating:
        if v.lapse is not None and v.move is not None and v.move < moves.get(v.deal, 0):
            derived[v.deal, v.move] = derived.get((v.deal, v.move), 0) + 1
    written: list[dict[str, Any]] = []
    for v in sorted(escalating, key=lambda v: v.occurrence):
        deal, move = v.deal, v.move
        item: dict[str, Any] = {"deal": deal, "seat": v.seat, "code": str(v.code)}
        if move is not None:
            item["move"] = move_number(move)
        if v.annulled is not None:
            item["annulled"] = v.annulled
        if move is not None and (deal, move) in derived:
            if v.lapse is not None:
                if v.annulled is None:
                    continue  # derived from the move's seconds
                item["lapse"] = v.lapse
            elif v.annulled is not None and v.code == ViolationCode.MOVE_TIME:
                item["lapse"] = derived[deal, move] + 1  # matches no derived lapse: stays a listed one
        written.append(item)
    return written


def move_number(index: int | None) -> int | None:
    """The number a protocol gives the move of a violation (from 1 within its deal, the lead is
    move 1) for the engine's index of it (from 0)."""
    return None if index is None else index + 1


@dataclass(frozen=True)
class Listed:
    """A violation of the protocol's ``violations`` list, the ``n``-th (from 1); ``move`` is the
    engine's index of its move (from 0), one less than the number the protocol writes."""

    n: int
    deal: int
    move: int | None
    seat: Any  # checked by the game as it records it
    code: str
    annulled: str | None
    lapse: int | None

    def record(self, game: Violating, lapse: Callable[[Any], ViolationRecord] | None = None) -> None:
        """Record it (as a ``lapse`` of the clock, or listed), then annul it when it was annulled."""
        try:
            if lapse is not None:
                record = lapse(self.seat)
            else:
                record = game.record_violation(self.seat, ViolationCode(self.code), self.move)
            if self.annulled is not None:
                game.annul_violation(record.id, self.annulled)
        except RulesError as error:
            raise error.at(gettext_noop("violation %(n)s"), n=self.n) from None


def read_violations(value: Any, deals: int) -> list[Listed]:
    """The protocol's ``violations`` (PROTOCOL_FORMAT.md "Timed moves and violations"), each
    checked for its form; the seat and whether it fits the deal are checked by the game."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise fail(gettext_noop("must be a list"), "violations")
    result: list[Listed] = []
    for n, item in enumerate(value, 1):
        where = (gettext_noop("violation %(n)s"), {"n": n})
        if not isinstance(item, Mapping) or not {"deal", "seat", "code"} <= set(item) <= VIOLATION_KEYS:
            raise fail(gettext_noop("a violation has deal, seat and code, and may have move, annulled and lapse")).at(
                where[0], **where[1])
        deal, move, code = item["deal"], item.get("move"), item["code"]
        annulled, lapse = item.get("annulled"), item.get("lapse")
        error: ProtocolError | None = None
        if type(deal) is not int or not 0 <= deal <= deals + 1:
            error = fail(gettext_noop("deal must be 0 to %(high)s, got %(value)s"), high=deals + 1, value=repr(deal))
        elif move is not None and (type(move) is not int or move < 1 or deal == 0):
            error = fail(gettext_noop("move must be the number (1 or more) of a move of the deal, got %(value)s"),
                         value=repr(move))
        elif move is None and deal == deals + 1:
            error = fail(gettext_noop("deal %(deal)s is not given: only a violation at a move can be during it"),
                         deal=deal)
        elif code not in LISTED_CODES:
            error = fail(gettext_noop("a violation is %(codes)s, got %(value)s; other codes are penalties at once"),
                         codes=", ".join(LISTED_CODES), value=repr(code))
        elif annulled is not None and (not isinstance(annulled, str) or not annulled.strip()):
            error = fail(gettext_noop("annulled must be the reason, a text"))
        elif lapse is not None and not (type(lapse) is int and lapse >= 1 and annulled is not None and move is not None
                                        and code == ViolationCode.MOVE_TIME):
            error = fail(gettext_noop("lapse (1 or more) names an annulled move_time lapse of a move, got %(value)s"),
                         value=repr(lapse))
        if error is not None:
            raise error.at(where[0], **where[1])
        result.append(Listed(n, deal, None if move is None else move - 1, item["seat"], code, annulled, lapse))
    return result


def violation_output(violation: ViolationRecord) -> dict[str, Any]:
    """A violation in the output document: its place, seat, code and outcome."""
    return {"deal": violation.deal, "move": move_number(violation.move), "seat": violation.seat, "code": str(violation.code),
            "outcome": "annulled" if violation.annulled is not None else str(violation.consequence)}
