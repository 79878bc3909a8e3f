"""The protocol format of Goat, Sea Goat and ``points`` games (shared/PROTOCOL_FORMAT.md, "Goat
and Sea Goat"): the same ``domino-protocol/1`` document with ``regulations.game`` set.

:func:`~scoring.engine.protocol.read_protocol`, :func:`~scoring.engine.protocol.result_of` and
:func:`~scoring.engine.protocol.write_protocol` come here when the game is not ``sports``.
Units are the seats ``"1"`` .. ``"players"``, or the pairs ``"A"``, ``"B"`` with ``teams``.
Beyond the format, a Sea Goat deal in summary form may say ``"zero_zero": true`` (the domino
was made with 0-0), which the move form shows by itself; and a game decided by a no-show (RULES
5, 9) has no deals and ``"no_show": ["2"]``, the units that had not appeared (in the output too).
"""

from __future__ import annotations

from typing import Any, Final, Mapping

from .errors import RulesError, gettext_noop
from .goat import GamePenalty, GoatDealRecord, GoatGame
from .goat_deal import GoatDeal
from .points import PointsGame
from . import rules
from .protocol_fields import (Listed, fail, move_number, place, play_moves, read_penalties, read_time,
                              read_violations, violation_output, written_violations)
from .regulations import Game, Regulations
from .vocabulary import Expiry, GameReason, GoatEnd, Seat

__all__ = ["read_game_protocol", "game_result", "write_game_protocol"]

_KEYS: Final = {"format", "regulations", "pairs", "first_leader", "deals", "penalties", "time_expired", "timeout",
                "no_show", "violations"}
_POINTS_KEYS: Final = {"format", "regulations", "pairs", "deals", "penalties", "time_expired"}
_SUMMARY_KEYS: Final = {"end", "seat", "values", "zero_zero"}
_MOVE_KEYS: Final = {"hands", "moves", "seed"}
_REDEAL_KEYS: Final = {"redeal", "hands", "seed"}


def read_game_protocol(doc: Mapping[str, Any], regulations: Regulations
                       ) -> tuple[GoatGame | PointsGame, dict[str, list[str]] | None]:
    """The game a protocol of Goat, Sea Goat or points describes, and the names of its units."""
    points = regulations.game == Game.POINTS
    unknown = sorted(set(doc) - (_POINTS_KEYS if points else _KEYS))
    if unknown:
        raise fail(gettext_noop("unknown key %(key)s for the game %(game)s"), key=repr(unknown[0]), game=regulations.game)
    game: GoatGame | PointsGame = PointsGame(regulations) if points else GoatGame(regulations)
    names = _read_names(doc.get("pairs"), game.units)
    deals = doc.get("deals")
    if not isinstance(deals, list):
        raise fail(gettext_noop("must be a list of deals"), "deals")
    penalties = read_penalties(doc.get("penalties"), len(deals))
    time_expired = read_time(doc.get("time_expired"), len(deals))
    timeout = None if points else _read_timeout(doc.get("timeout"), len(deals))
    listed = read_violations(doc.get("violations"), len(deals))
    late = next((item for item in listed if item.deal > len(deals)), None)
    if late is not None:
        raise fail(gettext_noop("deal %(deal)s is not given"), deal=late.deal).at(gettext_noop("violation %(n)s"),
                                                                                  n=late.n)
    if isinstance(game, GoatGame) and doc.get("first_leader") is not None:
        place(game.draw_lead, "first_leader", doc["first_leader"])
    if isinstance(game, GoatGame) and doc.get("no_show") is not None:
        if deals:
            raise fail(gettext_noop("a game with a no-show has no deals"), "deals")
        place(game.record_no_show, "no_show", doc["no_show"])

    placed: set[int] = set()  # the violations recorded at their moves, as the deal was played

    def violations_of(deal: int) -> None:
        """The other violations listed during deal ``deal`` (0: before the first) in order of
        occurrence: by move (a deal in summary form), then those without one, recorded after the
        deal, where their penalties count."""
        assert isinstance(game, GoatGame)
        for item in sorted((item for item in listed if item.deal == deal and item.n not in placed), key=_occurrence):
            item.record(game)

    def between(done: int) -> None:
        if isinstance(game, GoatGame):
            violations_of(done)
        for k, (after, seat, code) in enumerate(penalties, 1):
            if after == done:
                place(game.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
        if time_expired == (Expiry.AFTER_DEAL, done):
            place(game.expire_time, "time_expired", False)
        if time_expired == (Expiry.DURING_DEAL, done + 1):
            place(game.expire_time, "time_expired", True)

    between(0)
    for n, deal in enumerate(deals, 1):
        try:
            if isinstance(game, PointsGame):
                _read_points_deal(game, deal)
            else:
                at_moves = [item for item in listed if item.deal == n and item.move is not None]
                if _read_goat_deal(game, deal, n == len(deals), list(at_moves)):
                    placed.update(item.n for item in at_moves)
        except RulesError as error:
            raise error.at(gettext_noop("deal %(n)s"), n=n) from None
        if isinstance(game, PointsGame) or game.current is None:
            between(n)
    if isinstance(game, GoatGame) and game.current is not None:
        n = len(deals)
        if time_expired == (Expiry.AFTER_DEAL, n):
            raise fail(gettext_noop("deal %(n)s is still being played: the clock cannot have run out after it"),
                       "time_expired", n=n)
        violations_of(n)
        for k, (after, seat, code) in enumerate(penalties, 1):
            if after == n:
                place(game.write_penalty, gettext_noop("penalty %(n)s"), seat, code, n=k)
    if isinstance(game, GoatGame) and timeout is not None:
        deal_number, seat = timeout
        expected = len(game.deals) + 1
        if deal_number != expected:
            raise fail(gettext_noop("deal %(n)s cannot be the one the clock ran out in: that deal is not scored, so it"
                                     " is the unfinished last deal or the one after the deals given (%(expected)s)"),
                        "timeout", n=deal_number, expected=expected)
        place(game.time_out, "timeout", seat)
    return game, names


def _occurrence(item: Listed) -> tuple[bool, int]:
    return item.move is None, item.move or 0


def _read_names(pairs: Any, units: tuple[str, ...]) -> dict[str, list[str]] | None:
    if pairs is None:
        return None
    if not (isinstance(pairs, Mapping) and set(pairs) == set(units)
            and all(isinstance(pairs[u], list) and pairs[u] and all(isinstance(n, str) for n in pairs[u])
                    for u in units)):
        raise fail(gettext_noop("must give the names of each of %(units)s as a list"), "pairs", units=", ".join(units))
    return {u: list(pairs[u]) for u in units}


def _read_timeout(value: Any, deals: int) -> tuple[int, Seat] | None:
    if value is None:
        return None
    if not (isinstance(value, Mapping) and set(value) == {"deal", "seat"} and type(value["deal"]) is int):
        raise fail(gettext_noop("must be {\"deal\": N, \"seat\": S}"), "timeout")
    return value["deal"], value["seat"]


def _read_goat_deal(game: GoatGame, deal: Any, last: bool, at_moves: list[Listed]) -> bool:
    """Read one deal; in move form with the violations listed ``at_moves`` of it, recorded as it
    is played (PROTOCOL_FORMAT.md's order of occurrence; returns ``True``), else they are the
    caller's, recorded after the deal."""
    if not isinstance(deal, Mapping):
        raise fail(gettext_noop("a deal must be an object"))
    if "redeal" in deal:
        unknown = sorted(set(deal) - _REDEAL_KEYS)
        if unknown:
            raise fail(gettext_noop("unknown key %(key)s in a redeal"), key=repr(unknown[0]))
        if deal["redeal"] is not True:
            raise fail(gettext_noop("\"redeal\" must be true"), "redeal")
        if "hands" not in deal:
            if "seed" in deal:
                raise fail(gettext_noop("a redeal with a seed gives its hands"), "seed")
            game.record_redeal()
            return False
        void = GoatDeal.from_dict({k: v for k, v in deal.items() if k != "redeal"}, game.regulations, game.next_leader)
        if not void.is_void:
            raise fail(gettext_noop("no hand holds 5 doubles or 6 tiles of one number: the deal is not void"), "hands")
        game.begin_deal(void)
        return False
    if "hands" in deal:
        unknown = sorted(set(deal) - _MOVE_KEYS)
        if unknown:
            raise fail(gettext_noop("unknown key %(key)s in a move-form deal"), key=repr(unknown[0]))
        moves = deal.get("moves")
        if not isinstance(moves, list):
            raise fail(gettext_noop("must be a list"), "moves")
        current = GoatDeal.from_dict({k: v for k, v in deal.items() if k != "moves"}, game.regulations,
                                     game.next_leader)
        if current.is_void:
            raise fail(gettext_noop("a hand holds 5 doubles or 6 tiles of one number: the deal is void, write it with"
                                     " \"redeal\": true"), "hands")
        game.begin_deal(current)
        try:
            play_moves(game, current, moves, at_moves)
        except RulesError:
            game.current = None
            raise
        if at_moves:
            raise fail(gettext_noop("the deal has no move %(move)s being awaited"), move=move_number(at_moves[0].move)).at(
                gettext_noop("violation %(n)s"), n=at_moves[0].n)
        if game.current is not None and not last:
            raise fail(gettext_noop("the deal stops before its end: only the last deal of a protocol may"))
        return True
    unknown = sorted(set(deal) - _SUMMARY_KEYS)
    if unknown:
        raise fail(gettext_noop("unknown key %(key)s in a deal"), key=repr(unknown[0]))
    values = deal.get("values")
    if not isinstance(values, Mapping):
        raise fail(gettext_noop("must give the hand value left to each seat"), "values")
    seats = {str(s): s for s in range(1, game.regulations.players + 1)}
    unknown = sorted(set(values) - set(seats))
    if unknown:
        raise fail(gettext_noop("values are given by seat \"1\" to \"%(players)s\", got %(key)s"), "values",
                   players=game.regulations.players, key=repr(unknown[0]))
    end: Any = deal.get("end")  # the end, the seat and the values are checked by the game, which names them
    seat: Any = deal.get("seat")
    game.record_deal(end, seat, {seats[k]: v for k, v in values.items()}, deal.get("zero_zero", False))
    return False


def _read_points_deal(game: PointsGame, deal: Any) -> None:
    if not (isinstance(deal, Mapping) and set(deal) == {"points"}):
        raise fail(gettext_noop("a deal of a points game is {\"points\": {unit: points, ...}}"))
    if not isinstance(deal["points"], Mapping):
        raise fail(gettext_noop("points are given for each of %(units)s"), "points", units=", ".join(game.units))
    game.record_deal(deal["points"])


# -- output ------------------------------------------------------------------------------------


def _by(keys: tuple[str, ...], numbers: tuple[Any, ...]) -> dict[str, Any]:
    return dict(zip(keys, numbers))


def allowances_of(deal: GoatDeal) -> list[int]:
    """The seconds allowed for each move of a deal played move by move, in order (RULES 6)."""
    data = deal.to_dict()
    replay = GoatDeal.from_dict({k: v for k, v in data.items() if k != "moves"}, deal.regulations, deal.leader)
    result = []
    for move in data.get("moves", []):
        result.append(replay.allowance())
        replay.apply(move)
    return result


def _deal_output(game: GoatGame, record: GoatDealRecord) -> dict[str, Any]:
    seats = tuple(str(s) for s in range(1, game.regulations.players + 1))
    out: dict[str, Any] = {
        "n": record.n, "leader": record.leader, "end": str(record.end), "seat": record.seat,
        "values": _by(seats, record.values), "charges": _by(game.units, record.charges),
        "scores": _by(game.units, record.scores), "memo": _by(game.units, record.memo),
        "open": _by(game.units, record.opened), "carry": record.carry,
    }
    if game.is_sea_goat:
        out["zero_zero"] = record.zero_zero
    if record.deal is not None and record.end != GoatEnd.REDEAL:
        out["allowances"] = allowances_of(record.deal)
    return out


def _penalty_output(units: tuple[str, ...], penalty: GamePenalty) -> dict[str, Any]:
    return {"after_deal": penalty.after_deal, "seat": penalty.seat, "code": str(penalty.code), "unit": penalty.unit,
            "points": penalty.points, "scores": _by(units, penalty.scores)}


def game_result(game: GoatGame | PointsGame) -> dict[str, Any]:
    """The output document of a game (PROTOCOL_FORMAT.md, "Goat and Sea Goat")."""
    decision = game.decision
    points = game.game_points()
    out: dict[str, Any] = {
        "units": list(game.units),
        **({} if isinstance(game, PointsGame) else {
            "violations": [violation_output(v) for v in sorted(game.violations, key=lambda v: v.occurrence)
                           if v.code in rules.ESCALATING_CODES]}),
        "penalties": [_penalty_output(game.units, p) for p in game.penalties],
        "scores": _by(game.units, game.scores),
        "game_points": None if points is None else _by(game.units, points),
        "reason": None if decision is None else str(decision.reason),
    }
    if isinstance(game, PointsGame):
        out["deals"] = [{"n": d.n, "points": _by(game.units, d.points), "scores": _by(game.units, d.scores)}
                        for d in game.deals]
        out["winner"] = None if decision is None else decision.winner
        return out
    out["deals"] = [_deal_output(game, d) for d in game.deals]
    out["memo"] = _by(game.units, game.memo)
    out["open"] = _by(game.units, game.opened)
    out["carry"] = game.carry
    if game.is_sea_goat:
        out["winner"] = None if decision is None else decision.winner
    else:
        out["goats"] = [] if decision is None else list(decision.goats)
    if decision is not None and decision.timed_out is not None:
        out["timed_out"] = decision.timed_out
    if decision is not None and decision.reason == GameReason.NO_SHOW:
        out["no_show"] = list(decision.absent)
    current = game.current
    if current is not None:
        out["current"] = {"n": len(game.deals) + 1, "leader": current.leader, "to_move": current.to_move,
                          "allowances": allowances_of(current), "allowance": current.allowance(),
                          "can_draw": current.can_draw(), "bazaar": len(current.bazaar)}
    return out


def write_game_protocol(game: GoatGame | PointsGame, names: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Export a game to the input format (move-form deals as played, the others in summary form)."""
    regulations = {k: v for k, v in game.regulations.to_dict().items() if v is not None}
    doc: dict[str, Any] = {"format": "domino-protocol/1", "regulations": regulations}
    if names is not None:
        doc["pairs"] = {u: list(names[u]) for u in game.units}
    if isinstance(game, PointsGame):
        doc["deals"] = [{"points": _by(game.units, d.points)} for d in game.deals]
    else:
        if game.first_leader is not None:
            doc["first_leader"] = game.first_leader
        doc["deals"] = [_write_deal(d) for d in game.deals]
        unfinished = game.current or game.timed_out_deal  # still being played, or the clock ran out in it
        if unfinished is not None:
            current = unfinished.to_dict(public=True)
            doc["deals"].append({k: current[k] for k in ("hands", "moves")})
    # A penalty that follows from a violation listed under violations is written by it.
    penalties = [{"after_deal": p.after_deal, "seat": p.seat, "code": str(p.code)} for p in game.penalties
                 if p.violation is None or p.code not in rules.ESCALATING_CODES]
    if penalties:
        doc["penalties"] = penalties
    if isinstance(game, GoatGame):
        violations = _written_violations(game)
        if violations:
            doc["violations"] = violations
    if game.time_expired is not None:
        kind, n = game.time_expired
        doc["time_expired"] = {str(kind): n}
    if isinstance(game, GoatGame) and game.timeout is not None:
        doc["timeout"] = {"deal": game.timeout[0], "seat": game.timeout[1]}
    if isinstance(game, GoatGame) and game.decision is not None and game.decision.reason == GameReason.NO_SHOW:
        doc["no_show"] = list(game.decision.absent)
    return doc


def _written_violations(game: GoatGame) -> list[dict[str, Any]]:
    """The ``violations`` of the file: a lapse at a move the file holds is derived from the
    move's seconds (:func:`~.protocol_fields.written_violations`)."""
    moves = {d.n: len(d.deal.moves) for d in game.deals if d.deal is not None}
    unfinished = game.current or game.timed_out_deal
    if unfinished is not None:
        moves[len(game.deals) + 1] = len(unfinished.moves)  # the move awaited never came
    return written_violations(game.violations, moves)


def _write_deal(record: GoatDealRecord) -> dict[str, Any]:
    if record.deal is not None:
        played = record.deal.to_dict()
        keys = ("hands", "seed") if record.end == GoatEnd.REDEAL else ("hands", "moves", "seed")
        deal = {k: played[k] for k in keys if k in played}
        return {"redeal": True, **deal} if record.end == GoatEnd.REDEAL else deal
    if record.end == GoatEnd.REDEAL:
        return {"redeal": True}
    out: dict[str, Any] = {"end": str(record.end), "seat": record.seat,
                           "values": {str(s): v for s, v in enumerate(record.values, 1)}}
    if record.zero_zero:
        out["zero_zero"] = True
    return out
