"""The partition protocol interchange format, ``domino-protocol/1`` (shared/PROTOCOL_FORMAT.md).

Each entry point dispatches on ``regulations.game``: Goat, Sea Goat and points games are read and
written by :mod:`.goat_protocol`.

:func:`read_protocol` turns a protocol document into a :class:`Partition` (refusing bad input as a
whole, with the place named: ``deal 3, move 7: 4-2 does not fit ends 5|1``); :func:`result_of`
writes the output document of a partition; :func:`score_protocol` does both;
:func:`write_protocol` exports a partition back to the input format.

The clock (section "Timed moves and violations"): a move's ``seconds`` and the top-level
``violations``. Reading, each lapse a move's seconds imply is recorded with
:meth:`Partition.record_lapse` before the move, as a live table that caught every deadline
would have, then the violations listed at that move, then the move; so a partition read from a
file and one played live count their violations in the same order. Writing, a lapse whose move
is in the file with its seconds is derived from them and listed only when annulled (with its
``lapse``); the other violations are listed. A deal that was dropped (restarted) is not in the
file, and the partition itself counts what was recorded during it as recorded between the deals
(``deal``: the deals played before it, no ``move``), where their penalties counted.
"""

from __future__ import annotations

from typing import Any, Final, Mapping, TypeAlias

from . import rules
from .deal import Deal
from .errors import RulesError, gettext_noop
from .goat import GoatGame
from .goat_protocol import game_result, read_game_protocol, write_game_protocol
from .partition import DealRecord, Partition, PenaltyRecord
from .points import PointsGame
from .protocol_fields import (Listed, fail, move_number, place, play_moves, read_penalties, read_time,
                              read_violations, violation_output, written_violations)
from .regulations import Game, Regulations
from .vocabulary import DealEnd, Expiry, ViolationCode

__all__ = ["FORMAT", "ProtocolGame", "read_protocol", "result_of", "score_protocol", "write_protocol", "allowances_of"]

FORMAT: Final = "domino-protocol/1"
_KEYS: Final = {"format", "regulations", "pairs", "first_leader", "deals", "penalties", "time_expired", "no_show",
                "violations"}
_DEAL_KEYS: Final = {"end", "seat", "pips"}
_MOVE_DEAL_KEYS: Final = {"hands", "moves"}


#: What one protocol document describes: a sports partition, or one game of RULES 9 (Goat, Sea
#: Goat or points), never a sitting (a sitting's file, ``domino-sitting/1``, read outside the
#: engine, holds one such document per game).
#: Each game answers :class:`~scoring.engine.game.TableGame`'s reading of a finished table
#: (``outcome()``), but the format's fields are each kind's own, so this stays a union.
ProtocolGame: TypeAlias = Partition | GoatGame | PointsGame


def read_protocol(doc: Any) -> tuple[ProtocolGame, dict[str, list[str]] | None]:
    """The partition (or game) a protocol document describes, and its pair names (the units'
    names in a game), if given."""
    if not isinstance(doc, Mapping):
        raise fail(gettext_noop("a protocol must be a JSON object"))
    if doc.get("format") != FORMAT:
        raise fail(gettext_noop("must be %(format)s, got %(value)s"), "format", format=repr(FORMAT), value=repr(doc.get("format")))
    regulations = Regulations.from_dict(doc.get("regulations"))
    if regulations.game != Game.SPORTS:
        return read_game_protocol(doc, regulations)
    unknown = sorted(set(doc) - _KEYS)
    if unknown:
        raise fail(gettext_noop("unknown key %(key)s"), key=repr(unknown[0]))
    pairs = _read_pairs(doc.get("pairs"))
    partition = Partition(regulations)
    deals = doc.get("deals")
    if not isinstance(deals, list):
        raise fail(gettext_noop("must be a list of deals"), "deals")
    penalties = read_penalties(doc.get("penalties"), len(deals))
    time_expired = read_time(doc.get("time_expired"), len(deals))
    listed = read_violations(doc.get("violations"), len(deals))
    no_show = doc.get("no_show")
    if no_show is not None:
        if deals:
            raise fail(gettext_noop("a partition with a no-show has no deals"), "deals")
        place(partition.record_no_show, "no_show", no_show)
        if "first_leader" in doc and doc["first_leader"] is not None:
            place(partition.draw_lead, "first_leader", doc["first_leader"])
        for item in listed:
            item.record(partition)
        for k, (_, seat, code) in enumerate(penalties, 1):
            place(partition.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
        return partition, pairs
    if "first_leader" not in doc:
        raise fail(gettext_noop("the seat that won the lead draw is missing"), "first_leader")
    place(partition.draw_lead, "first_leader", doc["first_leader"])

    def between(done: int) -> None:
        """Events written after deal ``done`` and before the next one, in the format's order."""
        for item in listed:
            if item.deal == done and item.move is None:
                item.record(partition)
        for k, (after, seat, code) in enumerate(penalties, 1):
            if after == done:
                place(partition.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
        if time_expired == (Expiry.AFTER_DEAL, done):
            place(partition.expire_time, "time_expired", False)
        if time_expired == (Expiry.DURING_DEAL, done + 1):
            place(partition.expire_time, "time_expired", True)

    between(0)
    for n, deal in enumerate(deals, 1):
        try:
            _read_deal(partition, deal, last=n == len(deals),
                       listed=[item for item in listed if item.deal == n and item.move is not None])
        except RulesError as error:
            raise error.at(gettext_noop("deal %(n)s"), n=n) from None
        if partition.current is None:
            between(n)
    n = len(deals)
    if partition.current is not None:
        # The last deal is still being played: what is written after it was written during it.
        if time_expired == (Expiry.AFTER_DEAL, n):
            raise fail(gettext_noop("deal %(n)s is still being played: the clock cannot have run out after it"),
                       "time_expired", n=n)
        for item in listed:
            if item.deal == n and item.move is None:
                item.record(partition)
        for k, (after, seat, code) in enumerate(penalties, 1):
            if after == n:
                place(partition.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
    coming = [item for item in listed if item.deal == n + 1]
    if coming and partition.current is not None:
        raise fail(gettext_noop("deal %(n)s is still being played: no violation can be during the next"),
                   n=n).at(gettext_noop("violation %(n)s"), n=coming[0].n)
    for item in coming:  # during a deal being played on paper, not written yet
        item.record(partition)
    return partition, pairs


def _read_pairs(pairs: Any) -> dict[str, list[str]] | None:
    if pairs is None:
        return None
    if not (isinstance(pairs, Mapping) and set(pairs) == {"A", "B"}
            and all(isinstance(pairs[p], list) and len(pairs[p]) == 2
                    and all(isinstance(n, str) for n in pairs[p]) for p in "AB")):
        raise fail(gettext_noop("must give pair A and pair B, two names each"), "pairs")
    return {p: list(pairs[p]) for p in "AB"}


def _read_deal(partition: Partition, deal: Any, last: bool, listed: list[Listed]) -> None:
    """Read one deal and the violations ``listed`` at its moves."""
    if not isinstance(deal, Mapping):
        raise fail(gettext_noop("a deal must be an object"))
    if "hands" in deal:
        unknown = sorted(set(deal) - _MOVE_DEAL_KEYS)
        if unknown:
            raise fail(gettext_noop("unknown key %(key)s in a move-form deal"), key=repr(unknown[0]))
        moves = deal.get("moves")
        if not isinstance(moves, list):
            raise fail(gettext_noop("must be a list"), "moves")
        hands = deal["hands"]
        if not isinstance(hands, Mapping) or sorted(hands) != ["1", "2", "3", "4"] or not all(
                isinstance(hands[s], list) for s in "1234"):
            raise fail(gettext_noop("must give the hands of seats \"1\" to \"4\" as lists of tiles"), "hands")
        current = partition.start_deal(hands=[hands[s] for s in "1234"])
        try:
            play_moves(partition, current, moves, listed)
        except RulesError:
            partition.current = None
            raise
        if listed:
            raise fail(gettext_noop("the deal has no move %(move)s being awaited"), move=move_number(listed[0].move)).at(
                gettext_noop("violation %(n)s"), n=listed[0].n)
        if partition.current is not None and not last:
            raise fail(gettext_noop("the deal stops before its end: only the last deal of a protocol may"))
        return
    for item in sorted(listed, key=lambda item: item.move or 0):  # during the deal played on paper
        item.record(partition)
    unknown = sorted(set(deal) - _DEAL_KEYS)
    if unknown:
        raise fail(gettext_noop("unknown key %(key)s in a deal"), key=repr(unknown[0]))
    pips = deal.get("pips")
    if not (isinstance(pips, Mapping) and set(pips) == {"A", "B"}):
        raise fail(gettext_noop("must give the pips of pair A and pair B"), "pips")
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
    form = _move_form(record)
    if form is not None:
        out["allowances"] = allowances_of({**form, "leader": record.leader}, times)
    return out


def _penalty_output(penalty: PenaltyRecord, totals: tuple[int, int]) -> dict[str, Any]:
    return {"after_deal": penalty.after_deal, "seat": penalty.seat, "code": _text(penalty.code), "pair": _text(penalty.pair),
            "points": penalty.points, "totals": _totals(totals)}


def _penalties_output(partition: Partition) -> tuple[list[dict[str, Any]], tuple[int, int]]:
    """The penalties counted, then those written during the last deal, still being played: the
    format counts these in the totals at once (``after_deal``: that deal); the partition still
    ends only when that deal does. Returns them and the totals."""
    out = []
    for p in partition.penalties:
        assert p.totals is not None  # a counted penalty has its totals
        out.append(_penalty_output(p, p.totals))
    totals = partition.totals
    for p in partition.pending_penalties:
        da, db = rules.penalty_delta(p.pair, partition.regulations)
        totals = (totals[0] + da, totals[1] + db)
        out.append(_penalty_output(p, totals))
    return out, totals


def result_of(partition: ProtocolGame) -> dict[str, Any]:
    """The output document of a partition (deals, penalties, totals, winner, reason, and the
    violations the format lists, ``move_time`` and ``conduct``, in order of occurrence), or of a game."""
    if not isinstance(partition, Partition):
        return game_result(partition)
    times = partition.regulations.allowances()
    decision = partition.decision
    penalties, totals = _penalties_output(partition)
    out: dict[str, Any] = {
        "deals": [_deal_output(d, times) for d in partition.deals],
        "penalties": penalties,
        "totals": _totals(totals),
        "winner": _text(decision.winner) if decision else None,
        "reason": _text(decision.reason) if decision else None,
        "violations": [violation_output(v) for v in sorted(partition.violations, key=lambda v: v.occurrence)
                       if v.code in rules.ESCALATING_CODES],
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


def _move_form(record: DealRecord) -> dict[str, Any] | None:
    """A deal played move by move in the move form (``hands``, ``moves``), or ``None`` for one
    recorded in summary form. A false pass ends it with ``"false": true`` when it is the pass of
    the seat to move; one the referee found later (another seat) only the summary form says."""
    deal = record.deal
    if deal is None or (record.end == DealEnd.FALSE_PASS and record.seat != deal.to_move):
        return None
    played = deal.to_dict()
    moves = played["moves"]
    if record.end == DealEnd.FALSE_PASS:
        move: dict[str, Any] = {"seat": record.seat, "pass": True, "false": True}
        if deal.false_pass_seconds is not None:
            move["seconds"] = deal.false_pass_seconds
        moves.append(move)
    return {"hands": played["hands"], "moves": moves}


def _written_violations(partition: Partition) -> list[dict[str, Any]]:
    """The ``violations`` of the file (module docstring)."""
    moves: dict[int, int] = {d.n: sum(1 for m in form["moves"] if "tile" in m or "pass" in m)  # marks are no moves
                             for d in partition.deals if (form := _move_form(d)) is not None}
    if partition.current is not None:
        moves[len(partition.deals) + 1] = len(partition.current.moves)  # the move awaited never came
    return written_violations(partition.violations, moves)


def write_protocol(partition: ProtocolGame, pairs: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Export a partition (or a game) to the input format: the deals, the penalties, the clock's
    seconds and the violations (module docstring). Violations of the codes that are penalties at
    once are written as their penalties."""
    if not isinstance(partition, Partition):
        return write_game_protocol(partition, pairs)
    regulations = {k: v for k, v in partition.regulations.to_dict().items() if v is not None}
    penalties: list[dict[str, Any]] = []
    false_pass_deals = {d.n for d in partition.deals if d.end == DealEnd.FALSE_PASS}
    for p in partition.penalties + partition.pending_penalties:
        if p.code == ViolationCode.FALSE_PASS and p.violation is None and p.after_deal in false_pass_deals:
            false_pass_deals.discard(p.after_deal)  # written by the false-pass deal itself
            continue
        if p.violation is not None and p.code in rules.ESCALATING_CODES:
            continue  # follows from a violation written under violations
        penalties.append({"after_deal": p.after_deal, "seat": p.seat, "code": _text(p.code)})
    violations = _written_violations(partition)
    deals: list[dict[str, Any]] = []
    for d in partition.deals:
        form = _move_form(d)
        if form is not None:
            deals.append(form)
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
    if violations:
        doc["violations"] = violations
    if partition.time_expired is not None:
        kind, n = partition.time_expired
        doc["time_expired"] = {str(kind): n}
    doc["no_show"] = _text(partition.no_show)
    return doc
