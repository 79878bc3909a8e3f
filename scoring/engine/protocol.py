"""The partition protocol interchange format, ``domino-protocol/1`` (shared/PROTOCOL_FORMAT.md).

Each entry point dispatches on ``regulations.game``: Goat, Sea Goat and points games are read and
written by :mod:`.goat_protocol`.

:func:`read_protocol` turns a protocol document into a :class:`Partition` (refusing bad input as a
whole, with the place named: ``deal 3, move 7: 4-2 does not fit ends 5|1``); :func:`result_of`
writes the output document of a partition; :func:`score_protocol` does both;
:func:`write_protocol` exports a partition back to the input format.
"""

from __future__ import annotations

from typing import Any, Callable, Final, Mapping

from .deal import Deal
from .errors import ProtocolError, RulesError, gettext_noop
from .goat import GoatGame
from .goat_protocol import game_result, read_game_protocol, write_game_protocol
from .partition import DealRecord, Partition, PenaltyRecord
from .points import PointsGame
from .regulations import Game, Regulations
from .vocabulary import DealEnd, Expiry, Seat, ViolationCode

__all__ = ["FORMAT", "AnyGame", "read_protocol", "result_of", "score_protocol", "write_protocol", "allowances_of"]

FORMAT: Final = "domino-protocol/1"
_KEYS: Final = {"format", "regulations", "pairs", "first_leader", "deals", "penalties", "time_expired", "no_show"}
_DEAL_KEYS: Final = {"end", "seat", "pips"}
_MOVE_DEAL_KEYS: Final = {"hands", "moves"}
_EXPIRIES: Final = tuple(e.value for e in Expiry)


def _fail(template: str, where: str | None = None, **params: Any) -> ProtocolError:
    return ProtocolError(template, where, **params)


#: What a protocol describes: a sports partition, or a game of Goat, Sea Goat or points.
AnyGame = Partition | GoatGame | PointsGame


def read_protocol(doc: Any) -> tuple[AnyGame, dict[str, list[str]] | None]:
    """The partition (or game) a protocol document describes, and its pair names (the units'
    names in a game), if given."""
    if not isinstance(doc, Mapping):
        raise _fail(gettext_noop("a protocol must be a JSON object"))
    if doc.get("format") != FORMAT:
        raise _fail(gettext_noop("must be %(format)s, got %(value)s"), "format", format=repr(FORMAT), value=repr(doc.get("format")))
    regulations = Regulations.from_dict(doc.get("regulations"))
    if regulations.game != Game.SPORTS:
        return read_game_protocol(doc, regulations)
    unknown = sorted(set(doc) - _KEYS)
    if unknown:
        raise _fail(gettext_noop("unknown key %(key)s"), key=repr(unknown[0]))
    pairs = _read_pairs(doc.get("pairs"))
    partition = Partition(regulations)
    deals = doc.get("deals")
    if not isinstance(deals, list):
        raise _fail(gettext_noop("must be a list of deals"), "deals")
    penalties = _read_penalties(doc.get("penalties"), len(deals))
    time_expired = _read_time(doc.get("time_expired"), len(deals))
    no_show = doc.get("no_show")
    if no_show is not None:
        if deals:
            raise _fail(gettext_noop("a partition with a no-show has no deals"), "deals")
        _place(partition.record_no_show, "no_show", no_show)
        if "first_leader" in doc and doc["first_leader"] is not None:
            _place(partition.draw_lead, "first_leader", doc["first_leader"])
        for k, (_, seat, code) in enumerate(penalties, 1):
            _place(partition.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
        return partition, pairs
    if "first_leader" not in doc:
        raise _fail(gettext_noop("the seat that won the lead draw is missing"), "first_leader")
    _place(partition.draw_lead, "first_leader", doc["first_leader"])

    def between(done: int) -> None:
        """Events written after deal ``done`` and before the next one, in the format's order."""
        for k, (after, seat, code) in enumerate(penalties, 1):
            if after == done:
                _place(partition.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
        if time_expired == (Expiry.AFTER_DEAL, done):
            _place(partition.expire_time, "time_expired", False)
        if time_expired == (Expiry.DURING_DEAL, done + 1):
            _place(partition.expire_time, "time_expired", True)

    between(0)
    for n, deal in enumerate(deals, 1):
        try:
            _read_deal(partition, deal, last=n == len(deals))
        except RulesError as error:
            raise error.at(gettext_noop("deal %(n)s"), n=n) from None
        if partition.current is None:
            between(n)
    if partition.current is not None:
        # The last deal is still being played: penalties after it were written during it.
        n = len(deals)
        if time_expired == (Expiry.AFTER_DEAL, n):
            raise _fail(gettext_noop("deal %(n)s is still being played: the clock cannot have run out after it"),
                        "time_expired", n=n)
        for k, (after, seat, code) in enumerate(penalties, 1):
            if after == n:
                _place(partition.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
    return partition, pairs


def _place(method: Callable[..., object], where: str, *args: Any, **params: Any) -> None:
    """Call ``method``; an error it raises is placed under ``where``."""
    try:
        method(*args)
    except RulesError as error:
        raise error.at(where, **params) from None


def _read_pairs(pairs: Any) -> dict[str, list[str]] | None:
    if pairs is None:
        return None
    if not (isinstance(pairs, Mapping) and set(pairs) == {"A", "B"}
            and all(isinstance(pairs[p], list) and len(pairs[p]) == 2
                    and all(isinstance(n, str) for n in pairs[p]) for p in "AB")):
        raise _fail(gettext_noop("must give pair A and pair B, two names each"), "pairs")
    return {p: list(pairs[p]) for p in "AB"}


def _read_penalties(penalties: Any, deals: int) -> list[tuple[int, Seat, Any]]:
    """``(after_deal, seat, code)`` of each penalty; the seat and the code are checked by the
    partition as it writes them."""
    if penalties is None:
        return []
    if not isinstance(penalties, list):
        raise _fail(gettext_noop("must be a list"), "penalties")
    result: list[tuple[int, Seat, Any]] = []
    for k, item in enumerate(penalties, 1):
        if not isinstance(item, Mapping) or set(item) != {"after_deal", "seat", "code"}:
            raise _fail(gettext_noop("a penalty has exactly after_deal, seat and code")).at(gettext_noop("penalty %(n)s"), n=k)
        after = item["after_deal"]
        if type(after) is not int or not 0 <= after <= deals:
            raise _fail(gettext_noop("after_deal must be 0 to %(deals)s (the deals given), got %(value)s"), deals=deals,
                        value=repr(after)).at(gettext_noop("penalty %(n)s"), n=k)
        result.append((after, item["seat"], item["code"]))
    return result


def _read_time(value: Any, deals: int) -> tuple[Expiry, int] | None:
    if value is None:
        return None
    if not (isinstance(value, Mapping) and len(value) == 1
            and next(iter(value)) in _EXPIRIES):
        raise _fail(gettext_noop("must be {\"during_deal\": N} or {\"after_deal\": N}"), "time_expired")
    kind, n = next(iter(value.items()))
    kind = Expiry(kind)
    low, high = (1, deals + 1) if kind == Expiry.DURING_DEAL else (0, deals)
    if type(n) is not int or not low <= n <= high:
        raise _fail(gettext_noop("%(kind)s must be %(low)s to %(high)s for the %(deals)s deals given, got %(value)s"),
                    "time_expired", kind=kind, low=low, high=high, deals=deals, value=repr(n))
    return kind, n


def _read_deal(partition: Partition, deal: Any, last: bool) -> None:
    if not isinstance(deal, Mapping):
        raise _fail(gettext_noop("a deal must be an object"))
    if "hands" in deal:
        unknown = sorted(set(deal) - _MOVE_DEAL_KEYS)
        if unknown:
            raise _fail(gettext_noop("unknown key %(key)s in a move-form deal"), key=repr(unknown[0]))
        moves = deal.get("moves")
        if not isinstance(moves, list):
            raise _fail(gettext_noop("must be a list"), "moves")
        hands = deal["hands"]
        if not isinstance(hands, Mapping) or sorted(hands) != ["1", "2", "3", "4"] or not all(
                isinstance(hands[s], list) for s in "1234"):
            raise _fail(gettext_noop("must give the hands of seats \"1\" to \"4\" as lists of tiles"), "hands")
        current = partition.start_deal(hands=[hands[s] for s in "1234"])
        try:
            for k, move in enumerate(moves, 1):
                if current.outcome is not None:
                    raise _fail(gettext_noop("the deal is already over (%(end)s): no move after it"),
                                end=current.outcome.end).at(gettext_noop("move %(n)s"), n=k)
                try:
                    current.apply(move)
                except RulesError as error:
                    raise error.at(gettext_noop("move %(n)s"), n=k) from None
                partition._close_if_over()
        except RulesError:
            partition.current = None
            raise
        if partition.current is not None and not last:
            raise _fail(gettext_noop("the deal stops before its end: only the last deal of a protocol may"))
        return
    unknown = sorted(set(deal) - _DEAL_KEYS)
    if unknown:
        raise _fail(gettext_noop("unknown key %(key)s in a deal"), key=repr(unknown[0]))
    pips = deal.get("pips")
    if not (isinstance(pips, Mapping) and set(pips) == {"A", "B"}):
        raise _fail(gettext_noop("must give the pips of pair A and pair B"), "pips")
    end: Any = deal.get("end")  # checked by the partition, which names what is wrong
    partition.record_deal(end, deal.get("seat"), (pips["A"], pips["B"]))


def allowances_of(deal: Mapping[str, Any], times: tuple[int, int, int, int]) -> list[int]:
    """The seconds allowed for each move of a move-form deal, in order (RULES 6)."""
    replay = Deal([deal["hands"][s] for s in "1234"], deal["leader"], times)
    result: list[int] = []
    for move in deal["moves"]:
        if "tile" in move or "pass" in move:
            result.append(replay.allowance())
        replay.apply(move)
    return result


def _text(word: str | None) -> str | None:
    """A word of the vocabulary as the plain ``str`` the documents hold (JSON types only)."""
    return None if word is None else str(word)


def _totals(totals: tuple[int, int]) -> dict[str, int]:
    return {"A": totals[0], "B": totals[1]}


def _deal_output(record: DealRecord, times: tuple[int, int, int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "n": record.n, "leader": record.leader, "end": _text(record.end), "seat": record.seat,
        "winner": _text(record.winner), "points": record.points, "pips": _totals(record.pips),
        "totals": _totals(record.totals),
    }
    if record.deal is not None:
        out["allowances"] = allowances_of(record.deal.to_dict(), times)
    return out


def _penalty_output(penalty: PenaltyRecord) -> dict[str, Any]:
    assert penalty.totals is not None  # a counted penalty (not one pending) has its totals
    return {"after_deal": penalty.after_deal, "seat": penalty.seat, "code": _text(penalty.code), "pair": _text(penalty.pair),
            "points": penalty.points, "totals": _totals(penalty.totals)}


def result_of(partition: AnyGame) -> dict[str, Any]:
    """The output document of a partition (deals, penalties, totals, winner, reason), or of a game."""
    if not isinstance(partition, Partition):
        return game_result(partition)
    times = partition.regulations.allowances()
    decision = partition.decision
    out: dict[str, Any] = {
        "deals": [_deal_output(d, times) for d in partition.deals],
        "penalties": [_penalty_output(p) for p in partition.penalties],
        "totals": _totals(partition.totals),
        "winner": _text(decision.winner) if decision else None,
        "reason": _text(decision.reason) if decision else None,
    }
    if partition.current is not None:
        current = partition.current.to_dict()
        status = partition.status()
        out["current"] = {"n": status.deal, "leader": current["leader"], "to_move": partition.current.to_move,
                          "allowances": allowances_of(current, times),
                          "allowance": partition.current.allowance(),
                          "pending_penalties": [{"seat": p.seat, "code": _text(p.code), "pair": _text(p.pair),
                                                 "points": p.points} for p in partition.pending_penalties]}
    return out


def score_protocol(doc: Any) -> dict[str, Any]:
    """Read a protocol document and write its output document."""
    return result_of(read_protocol(doc)[0])


def write_protocol(partition: AnyGame, pairs: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Export a partition (or a game) to the input format. Warnings and annulled violations have
    no place in the format and are left out; the penalties they led to are kept."""
    if not isinstance(partition, Partition):
        return write_game_protocol(partition, pairs)
    regulations = {k: v for k, v in partition.regulations.to_dict().items() if v is not None}
    penalties: list[dict[str, Any]] = []
    false_pass_deals = {d.n for d in partition.deals if d.end == DealEnd.FALSE_PASS}
    for p in partition.penalties + partition.pending_penalties:
        if p.code == ViolationCode.FALSE_PASS and p.violation is None and p.after_deal in false_pass_deals:
            false_pass_deals.discard(p.after_deal)  # written by the false-pass deal itself
            continue
        penalties.append({"after_deal": p.after_deal, "seat": p.seat, "code": _text(p.code)})
    deals: list[dict[str, Any]] = []
    for d in partition.deals:
        if d.deal is not None and d.end != DealEnd.FALSE_PASS:
            played = d.deal.to_dict()
            deals.append({"hands": played["hands"], "moves": played["moves"]})
        else:
            deal: dict[str, Any] = {"end": _text(d.end), "pips": _totals(d.pips)}
            if d.seat is not None:
                deal["seat"] = d.seat
            deals.append(deal)
    if partition.current is not None:
        current = partition.current.to_dict()
        deals.append({"hands": current["hands"], "moves": current["moves"]})
    doc: dict[str, Any] = {"format": FORMAT, "regulations": regulations}
    if pairs is not None:
        doc["pairs"] = {p: list(pairs[p]) for p in "AB"}
    if partition.first_leader is not None:
        doc["first_leader"] = partition.first_leader
    doc["deals"] = deals
    if penalties:
        doc["penalties"] = penalties
    if partition.time_expired is not None:
        kind, n = partition.time_expired
        doc["time_expired"] = {str(kind): n}
    doc["no_show"] = _text(partition.no_show)
    return doc
