"""The commands of the score sheet: one service function per operation (a line of the sheet, an
import, a correction, an annulment), with its permission check inside. Views, the API and tasks
call these; what reads a table's history is :mod:`.queries`, what reads a protocol file
:mod:`.formats`.

Every change goes through the one pipeline of every change of a table
(:func:`scoring.recording.pipeline.change`, through :func:`_sheet`): it locks the partition row, checks the
version the client saw (a stale version is a :class:`~scoring.recording.storage.Conflict`, never a lost
update), returns the stored change for a retried idempotency key, catches a live table's clocks
up, applies the operation to the rules engine (which computes every total; an engine error is
refused with its message and nothing is stored), appends a
:class:`~scoring.models.PartitionChange` with who, when, from where, before and after (and the
whole state), brings a live table's clocks in line with what the engine now says, and announces
the change to live screens.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Mapping, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _, gettext_lazy

from scoring import engine
from scoring.models import Partition
from scoring.recording.formats import GOAT_DEAL_KEYS, apply_goat_deal, goat_deal_values, read_sitting
from scoring.recording.pipeline import Actor, Check, Step, change
from scoring.recording.storage import (NOT_A_PARTITION, NOT_TILES, check_deal_count, engine_error, engine_partition, engine_sitting,
                                       refuse)
from tournaments.permissions import can_referee, can_referee_all
from tournaments.permissions import AnyUser


# Operations of the score sheet: name -> (what it does to the engine's partition). Their data
# comes checked and typed by the action's serializer (scoring.web.serializers.ACTION_DATA: the API and
# the score sheet's forms); a key missing here is a bug, not bad input.
OPERATIONS: dict[str, Callable[[engine.Partition, Mapping[str, Any]], Any]] = {
    "lead": lambda g, d: g.draw_lead(d["seat"]),
    "deal": lambda g, d: g.record_deal(d["end"], d.get("seat"), (d["pips"]["A"], d["pips"]["B"])),
    "penalty": lambda g, d: g.write_penalty(d["seat"], d["code"]),
    "violation": lambda g, d: g.record_violation(d["seat"], d["code"]),
    "annul": lambda g, d: g.annul_violation(d["violation"], d["reason"]),
    "time": lambda g, d: g.expire_time(d["during_deal"]),
    "no_show": lambda g, d: g.record_no_show(d["absent"]),
    "restart": lambda g, d: g.restart_deal(d["seat"], d["code"]),
    "forfeit": lambda g, d: g.forfeit(d["pair"]),
}
# Operations only a chief referee (or an organiser) may record.
CHIEF_ONLY = {"annul", "forfeit"}


def _may(chief: bool) -> Check:
    """Who may record a line: the table's referee, or (``chief``) the chief referee."""
    def check(step: Step) -> None:
        table = step.partition.table
        user = step.actor.user
        if not (can_referee_all(user, table.tour.tournament) if chief else can_referee(user, table)):
            raise PermissionDenied(_("Only the chief referee may do this.") if chief
                                   else _("Only the referee of this table may record it."))
    return check


def _sheet(user: AnyUser, partition_id: int, action: str, data: Mapping[str, Any], act: Callable[[Step], None], *,
           version: int | None, idempotency_key: str, address: str | None, reason: str = "",
           chief: bool = False) -> Partition:
    """One change of the score sheet through the pipeline: ``act`` changes the engine's state of
    the locked table, recorded as ``action`` with the whole state kept in its audit entry."""
    key = (idempotency_key or "").strip()

    def run(step: Step) -> None:
        act(step)
        step.record(action, data, full=True, reason=reason, key=key)

    return change(partition_id, Actor(user, address=address), _may(chief), run, version=version, key=key,
                  action=action, data=data, reason=reason)


def record(user: AnyUser, partition_id: int, action: str, data: Mapping[str, Any], *, version: int | None = None,
           idempotency_key: str = "", address: str | None = None) -> Partition:
    """Record one line of the score sheet: the lead draw, a deal's end with the pips left, a
    penalty, a violation (a warning first where RULES 6-7 say so), the clock running out, a
    no-show, a restarted deal; the chief referee also annuls violations and declares forfeits.

    A finished partition is closed: it changes only by :func:`correct`."""
    operation = OPERATIONS.get(action)
    if operation is None:
        raise ValidationError(_("Unknown action %(action)s.") % {"action": action})
    if not isinstance(data, Mapping):
        raise ValidationError(_("The data of an action must be an object."))

    def act(step: Step) -> None:
        if step.partition.is_finished:
            raise ValidationError(_("The partition is finished and closed: the chief referee can correct it, "
                                    "giving a reason."))
        if action == "deal":
            check_deal_count(step.partition.deals + 1)
        operation(step.game, data)

    return _sheet(user, partition_id, action, data, act, version=version, idempotency_key=idempotency_key,
                  address=address, chief=action in CHIEF_ONLY)


def import_protocol(user: AnyUser, partition_id: int, document: Mapping[str, Any], *, reason: str = "",
                    version: int | None = None, idempotency_key: str = "", address: str | None = None) -> Partition:
    """Record a partition from a protocol document (domino-protocol/1), e.g. a paper protocol
    typed in. Without ``regulations`` the document is read under the tournament's. A referee
    imports into a partition nobody has recorded yet; with a ``reason``, the chief referee
    replaces a recorded one (a correction)."""
    partition = Partition.objects.select_related("table__tour__tournament").get(pk=partition_id)
    refuse(NOT_A_PARTITION, partition)
    rules = partition.table.tour.tournament.rules
    if not isinstance(document, Mapping):
        raise ValidationError(_("A protocol must be a JSON object."))
    if isinstance(document.get("deals"), list):
        check_deal_count(len(document["deals"]))  # before the engine replays them
    try:
        game, _pairs = engine.read_protocol({"regulations": rules.to_dict(), **document})
    except engine.RulesError as error:
        raise engine_error(error) from None
    if game.regulations != rules:
        raise ValidationError(_("The protocol's regulations differ from the tournament's: leave them out to use "
                                "the tournament's."))
    game = cast(engine.Partition, game)  # the tournament's regulations are a sports partition's (above)
    data = {"protocol": dict(document)}
    if reason:
        return correct(user, partition_id, game, reason=reason, version=version, idempotency_key=idempotency_key,
                       address=address, data=data)

    def act(step: Step) -> None:
        if not step.partition.before_first_deal:  # check-ins are no record of the partition
            raise ValidationError(_("The partition is already recorded: only the chief referee can replace it, "
                                    "giving a reason."))
        step.replace(game)

    return _sheet(user, partition_id, "import", data, act, version=version, idempotency_key=idempotency_key,
                  address=address)


def correct(user: AnyUser, partition_id: int, game: engine.Partition, *, reason: str, version: int | None = None,
            idempotency_key: str = "", address: str | None = None, data: Mapping[str, Any] | None = None) -> Partition:
    """The chief referee replaces a partition's record (a finished one included): a new version,
    with the reason; the old versions stay readable in its changes."""
    if not (reason or "").strip():
        raise ValidationError(_("A correction needs a reason."))
    return _sheet(user, partition_id, "correction", data or {"state": game.to_dict()}, lambda step: step.replace(game),
                  version=version, idempotency_key=idempotency_key, address=address, reason=reason.strip(), chief=True)


def correct_deal(user: AnyUser, partition_id: int, number: int, deal: Mapping[str, Any], *, reason: str,
                 version: int | None = None, idempotency_key: str = "", address: str | None = None) -> Partition:
    """Correct deal ``number`` (summary form: end, seat, pips, as the ``deal`` action's serializer
    checks it) and replay everything after it.

    The correction is computed from the state read here: it is stored only if the partition is
    still at that version (a change in between is a :class:`Conflict`, not a lost update)."""
    partition = Partition.objects.get(pk=partition_id)
    if version is None:
        version = partition.version
    game = engine_partition(partition)
    stored = game.to_dict()
    deal_events = [k for k, e in enumerate(stored["events"]) if e["type"] == "deal"]
    if not 1 <= number <= len(deal_events):
        raise ValidationError(_("There is no deal %(number)s.") % {"number": number})
    pips = deal["pips"]
    stored["events"][deal_events[number - 1]] = {
        "type": "deal", "end": deal["end"], "seat": deal.get("seat"), "pips": [pips["A"], pips["B"]]}
    try:
        corrected = engine.Partition.from_dict(stored)
    except engine.RulesError as error:
        raise engine_error(error) from None
    return correct(user, partition_id, corrected, reason=reason, version=version, idempotency_key=idempotency_key,
                   address=address, data={"deal": number, **dict(deal)})


def annul_no_show(user: AnyUser, partition_id: int, *, reason: str, version: int | None = None, idempotency_key: str = "",
                  address: str | None = None) -> Partition:
    """The chief referee annuls a no-show (a sports partition's, or a Goat sitting's, whose every
    game it decided), giving a reason: the table is as it was before it, open again. At a live
    table the players still missing get a fresh no-show deadline (RULES 5: ``no_show_minutes``
    from now), which the referee may postpone; the players present check in as before."""
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError(_("An annulment needs a reason."))

    def act(step: Step) -> None:
        step.kind.annul_no_show(step)
        if step.is_live and len(step.live.present) < step.seats:
            minutes = step.partition.table.tour.tournament.rules.no_show_minutes
            step.live.no_show_deadline = step.now + datetime.timedelta(minutes=minutes)

    return _sheet(user, partition_id, "annul_no_show", {}, act, version=version, idempotency_key=idempotency_key,
                  address=address, reason=reason.strip(), chief=True)



# -- Sittings: Goat, Sea Goat (RULES 9.1, 9.2) and points (9.3) -------------------------------------

def _check_goat_table(partition: Partition) -> None:
    refuse(NOT_TILES, partition)


def _check_points_table(partition: Partition) -> None:
    refuse(NOT_POINTS, partition)


_NO_POINTS = gettext_lazy("This table does not play a points game.")
#: Why a table of each family is not a points game's (None: it is).
NOT_POINTS: engine.Parts[Any] = engine.Parts({engine.Family.PARTITION: _NO_POINTS, engine.Family.TILES: _NO_POINTS,
                                             engine.Family.POINTS: None})


def _record_sitting(user: AnyUser, partition_id: int, action: str, data: Mapping[str, Any], operate: Callable[[Any], Any], *,
                    version: int | None, idempotency_key: str, address: str | None, deals: int = 0,
                    check: Callable[[Partition], None] = _check_goat_table) -> Partition:
    """One line of the sheet of a Goat table (``check``: of a points game's table), by its
    referee: ``operate`` on the sitting being played (``deals``: how many deals it adds). A
    finished sitting is closed: it changes only by a correction."""

    def act(step: Step) -> None:
        check(step.partition)
        if step.partition.is_finished:
            raise ValidationError(_("The partition is finished and closed: the chief referee can correct it, "
                                    "giving a reason."))
        check_deal_count(step.partition.deals + deals)
        operate(step.played())

    return _sheet(user, partition_id, action, data, act, version=version, idempotency_key=idempotency_key,
                  address=address)


def record_goat_deal(user: AnyUser, partition_id: int, deal: Mapping[str, Any], *, version: int | None = None,
                     idempotency_key: str = "", address: str | None = None) -> Partition:
    """Record one deal of the game being played at a Goat or Sea Goat table, in summary form:
    ``end`` ``"domino"`` or ``"fish"`` with the ``seat`` that made it and each seat's hand
    ``values`` (``{"1": 14, ...}``; the domino maker's may be left out), or ``"redeal"`` (a void
    deal); ``zero_zero`` (Sea Goat: domino with 0-0); and for the first deal of each game,
    ``lead``: the seat that led it (RULES 9.1: by the hands). The next game starts when one ends;
    after the sitting's ``games_per_tour`` games the partition is finished and every player's
    :class:`~scoring.models.SeatResult` written, in the same transaction."""
    values = goat_deal_values(deal)
    return _record_sitting(user, partition_id, "goat_deal", deal, lambda s: apply_goat_deal(s, deal, values),
                           version=version, idempotency_key=idempotency_key, address=address, deals=1)


# The other lines of a Goat table's sheet: name -> (the fields of its data, all required, what it
# does to the sitting). The engine checks their values (seats, codes, types).
GOAT_OPERATIONS: dict[str, tuple[frozenset[str], Callable[[engine.GoatSitting, Mapping[str, Any]], Any]]] = {
    # RULES 7, 9: Goat charges the offender, Sea Goat credits the others.
    "goat_penalty": (frozenset({"seat", "code"}), lambda s, d: s.write_penalty(d["seat"], d["code"])),
    # RULES 6, 7, 9: a warning first, then penalties, counted over the sitting's games.
    "goat_violation": (frozenset({"seat", "code"}), lambda s, d: s.record_violation(d["seat"], d["code"])),
    # RULES 5, 9: the game being played ends after the deal in play (at once between deals),
    # counted as it stands, and it is the sitting's last.
    "goat_time": (frozenset({"during_deal"}), lambda s, d: s.expire_time(d["during_deal"])),
}


def record_goat(user: AnyUser, partition_id: int, action: str, data: Mapping[str, Any], *, version: int | None = None,
                idempotency_key: str = "", address: str | None = None) -> Partition:
    """Record a penalty (``goat_penalty``: ``seat``, ``code``), a violation (``goat_violation``:
    ``seat``, ``code``) or the table's time running out (``goat_time``: ``during_deal``) at a Goat
    or Sea Goat table (:data:`GOAT_OPERATIONS`)."""
    operation = GOAT_OPERATIONS.get(action)
    if operation is None:
        raise ValidationError(_("Unknown action %(action)s.") % {"action": action})
    if not isinstance(data, Mapping):
        raise ValidationError(_("The data of an action must be an object."))
    fields, operate = operation
    if set(data) != fields:
        raise ValidationError(_("The data of %(action)s are: %(fields)s.") % {
            "action": action, "fields": ", ".join(sorted(fields))})
    return _record_sitting(user, partition_id, action, data, lambda s: operate(s, data), version=version,
                           idempotency_key=idempotency_key, address=address)


# -- Goat: corrections and import, the chief referee's ---------------------------------------------


def _replace_sitting(user: AnyUser, partition_id: int, action: str, data: Mapping[str, Any],
                     make: Callable[[Partition], engine.GoatSitting], *, reason: str = "", chief: bool = False,
                     version: int | None, idempotency_key: str, address: str | None) -> Partition:
    """Store the sitting ``make`` builds from the locked row in place of the recorded one (a
    finished one included): a new version, the players' results written again if it is over,
    taken back if it is no longer."""

    def act(step: Step) -> None:
        partition = step.partition
        _check_goat_table(partition)
        step.replace(make(partition))
        partition.seat_results.all().delete()
        partition.reason, partition.finished_at = "", None

    return _sheet(user, partition_id, action, data, act, version=version, idempotency_key=idempotency_key,
                  address=address, reason=reason, chief=chief)


def _correct_sitting(user: AnyUser, partition_id: int, data: Mapping[str, Any], make: Callable[[Partition], engine.GoatSitting],
                     *, reason: str, version: int | None, idempotency_key: str, address: str | None) -> Partition:
    """The chief referee's correction of a Goat table, with its reason (:func:`correct` for
    sports)."""
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError(_("A correction needs a reason."))
    return _replace_sitting(user, partition_id, "correction", data, make, reason=reason.strip(), chief=True,
                            version=version, idempotency_key=idempotency_key, address=address)


def _game_events(partition: Partition, game: Any) -> tuple[Mapping[str, Any], list[dict[str, Any]]]:
    """Game ``game`` (from 1) of the stored sitting, and its events."""
    games = (partition.state or {}).get("games") or []
    if type(game) is not int or not 1 <= game <= len(games) or not (game == 1 or games[game - 1]["events"]):
        raise ValidationError(_("There is no game %(game)s.") % {"game": game})
    stored = games[game - 1]
    if stored.get("current") is not None:
        raise ValidationError(_("A deal of game %(game)s is being played move by move: correct the game once it has "
                                "ended.") % {"game": game})
    return stored, list(stored["events"])


def _with_game(partition: Partition, game: int, events: list[dict[str, Any]]) -> engine.GoatSitting:
    """The stored sitting replayed from its events, game ``game``'s replaced by ``events``: every
    later record is checked again; one that no longer fits refuses the correction."""
    state = partition.state or {}
    games = list(state["games"])
    games[game - 1] = {**games[game - 1], "events": events}
    while len(games) > 1 and not games[-1]["events"] and games[-1].get("current") is None:
        games.pop()  # the next game, not begun: the sitting starts it again if it is still due
    try:
        return engine.GoatSitting.from_dict({**state, "games": games})
    except engine.RulesError as error:
        raise ValidationError(_("The correction is refused: %(error)s") % {"error": error.translate(_)}) from None


def correct_goat_deal(user: AnyUser, partition_id: int, game: int, number: int, deal: Mapping[str, Any], *, reason: str,
                      version: int | None = None, idempotency_key: str = "", address: str | None = None) -> Partition:
    """The chief referee corrects deal ``number`` of game ``game`` of a Goat or Sea Goat table (the
    summary form of :func:`record_goat_deal`, without ``lead``: the first leader stays), giving a
    reason. The game is replayed from its events with the corrected deal, and the sitting after
    it: a correction that makes a later record impossible (the game would end before deals
    recorded in it, or no longer end though the next game has begun) is refused, nothing stored."""
    values = goat_deal_values(deal, GOAT_DEAL_KEYS - {"lead"})

    def corrected(partition: Partition) -> engine.GoatSitting:
        stored, events = _game_events(partition, game)
        deals = [k for k, event in enumerate(events) if event.get("type") in ("deal", "redeal")]
        if type(number) is not int or not 1 <= number <= len(deals):
            raise ValidationError(_("Game %(game)s has no deal %(number)s.") % {"game": game, "number": number})
        at = deals[number - 1]
        replayed = engine.GoatGame.from_dict({**stored, "events": events[:at], "current": None})
        try:
            apply_goat_deal(replayed, deal, values)
        except engine.RulesError as error:
            raise engine_error(error.at("deal %(n)s", n=number)) from None
        if replayed.is_over and len(deals) > number:
            raise ValidationError(_("With this correction game %(game)s ends at deal %(number)s, yet later deals are "
                                    "recorded in it: the correction is refused.") % {"game": game, "number": number})
        return _with_game(partition, game, replayed.to_dict()["events"] + events[at + 1:])

    return _correct_sitting(user, partition_id, {"game": game, "deal": number, **dict(deal)}, corrected,
                            reason=reason, version=version, idempotency_key=idempotency_key, address=address)


def annul_goat_penalty(user: AnyUser, partition_id: int, game: int, number: int, *, reason: str, version: int | None = None,
                       idempotency_key: str = "", address: str | None = None) -> Partition:
    """The chief referee annuls penalty ``number`` (in the order written) of game ``game`` of a
    Goat or Sea Goat table, giving a reason: the game is replayed without it (the version before
    keeps it in the history); refused if the game would then no longer be over though the next
    game has begun."""

    def corrected(partition: Partition) -> engine.GoatSitting:
        _stored, events = _game_events(partition, game)
        penalties = [k for k, event in enumerate(events) if event.get("type") == "penalty"]
        if type(number) is not int or not 1 <= number <= len(penalties):
            raise ValidationError(_("Game %(game)s has no penalty %(number)s.") % {"game": game, "number": number})
        del events[penalties[number - 1]]
        return _with_game(partition, game, events)

    return _correct_sitting(user, partition_id, {"game": game, "penalty": number}, corrected, reason=reason,
                            version=version, idempotency_key=idempotency_key, address=address)


def annul_goat_violation(user: AnyUser, partition_id: int, game: int, number: int, *, reason: str,
                         version: int | None = None, idempotency_key: str = "", address: str | None = None
                         ) -> Partition:
    """The chief referee annuls violation ``number`` (in the order recorded) of game ``game`` of a
    Goat or Sea Goat table, giving a reason (RULES 6): it counts for nothing, a penalty that
    followed from it is withdrawn and the sitting's later violations are counted again; refused
    if a later record would no longer fit (a game no longer over though the next has begun)."""

    def annulled(partition: Partition) -> engine.GoatSitting:
        sitting = engine_sitting(partition)
        if type(game) is not int or not 1 <= game <= len(sitting.games):
            raise ValidationError(_("There is no game %(game)s.") % {"game": game})
        violations = sitting.games[game - 1].violations
        if type(number) is not int or not 1 <= number <= len(violations):
            raise ValidationError(_("Game %(game)s has no violation %(number)s.") % {"game": game, "number": number})
        try:
            sitting.annul_violation(game, violations[number - 1].id, reason.strip())
        except engine.RulesError as error:
            raise ValidationError(_("The correction is refused: %(error)s") % {"error": error.translate(_)}) from None
        return sitting

    return _correct_sitting(user, partition_id, {"game": game, "violation": number}, annulled, reason=reason,
                            version=version, idempotency_key=idempotency_key, address=address)




def import_sitting(user: AnyUser, partition_id: int, document: Mapping[str, Any], *, reason: str = "",
                   version: int | None = None, idempotency_key: str = "", address: str | None = None) -> Partition:
    """Record a Goat or Sea Goat table from a protocol file (:func:`read_sitting`), read and checked
    whole before anything is stored. Its referee imports into a table nobody has recorded yet;
    with a ``reason`` the chief referee replaces a recorded one (a correction), a finished one
    included."""
    partition = Partition.objects.select_related("table__tour__tournament").get(pk=partition_id)
    _check_goat_table(partition)
    sitting = read_sitting(document, engine_sitting(Partition(table=partition.table)).regulations)
    data = {"protocol": dict(document)}
    if reason:
        return _correct_sitting(user, partition_id, data, lambda p: sitting, reason=reason, version=version,
                                idempotency_key=idempotency_key, address=address)

    def into_empty(p: Partition) -> engine.GoatSitting:
        if not p.before_first_deal:  # check-ins are no record of the sitting
            raise ValidationError(_("The partition is already recorded: only the chief referee can replace it, "
                                    "giving a reason."))
        return sitting

    return _replace_sitting(user, partition_id, "import", data, into_empty, version=version,
                            idempotency_key=idempotency_key, address=address)


#: The keys of a deal of a points game (:func:`record_points_deal`).
POINTS_DEAL_KEYS = frozenset({"points", "total"})


def record_points_deal(user: AnyUser, partition_id: int, deal: Mapping[str, Any], *, version: int | None = None,
                       idempotency_key: str = "", address: str | None = None) -> Partition:
    """Record one deal of the game being played at a table of a points game (RULES 9.3):
    ``points``, what each unit scored (``{"1": 12, "2": 0, ...}`` by seat, or ``{"A": .., "B":
    ..}`` in pairs), whole numbers 0 or more; ``total``, if given, their sum as the referee
    added it up, refused when the points do not add up to it. The next game starts when one ends
    at the target; after the sitting's ``games_per_tour`` games the partition is finished and
    every player's :class:`~scoring.models.SeatResult` written, in the same transaction."""
    if not isinstance(deal, Mapping):
        raise ValidationError(_("A deal must be an object."))
    unknown = sorted(set(deal) - POINTS_DEAL_KEYS)
    if unknown:
        raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(map(str, unknown))})
    points, total = deal.get("points"), deal.get("total")
    if not isinstance(points, Mapping):
        raise ValidationError(_("The points of a deal are given by seat, or by pair."))
    if total is not None:
        if type(total) is not int:
            raise ValidationError(_("The total of a deal is a whole number."))
        values = list(points.values())
        if all(type(v) is int for v in values) and sum(values) != total:
            raise ValidationError(_("The points add up to %(sum)s, not to the total %(total)s: check them.")
                                  % {"sum": sum(values), "total": total})

    return _record_sitting(user, partition_id, "points_deal", deal, lambda s: s.record_deal(points), version=version,
                           idempotency_key=idempotency_key, address=address, deals=1, check=_check_points_table)
