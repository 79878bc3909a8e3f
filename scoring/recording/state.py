"""What a live table shows, to whom: one JSON document for the pages, the API and the pushed
events. The public (and the other players) never see a hand until its deal is over; a player sees
his own hand and, on his move, the tiles he may play; the referee of a refereed table sees the
hands he entered (and, at a Goat table, the tiles left in the bazaar, which he may name as drawn)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Collection
from typing import Any

from scoring import engine
from scoring.models import LiveTable, Partition, result_summary
from scoring.recording.storage import engine_partition, engine_sitting
from tournaments.models import Player, Table, Tour
from tournaments.prepared import Prepared

from scoring.recording import clock


#: A table with its tour and tournament, and the players of its seats (0: an empty seat), compiled
#: once: a live change and a phone's read ask for them each time.
_TABLE = Prepared(lambda pk: Table.objects.select_related("tour__tournament").filter(pk=pk))
_PLAYERS = Prepared(lambda *pks: Player.objects.filter(pk__in=pks), arity=len(engine.SEATS))


def with_table(partition: Partition) -> Partition:
    """Load the partition's table with its tour, tournament and players, in two short queries
    (a page's or a phone's read; a change of a live table reads them with its lock)."""
    table = _TABLE.first(partition.table_id)
    assert table is not None  # the partition's foreign key
    partition.table = with_players(table)
    return partition


def with_players(table: Table) -> Table:
    """The table with its seats' players, read in one query."""
    held = {f"seat{n}": getattr(table, f"seat{n}_id") for n in engine.SEATS}
    players = {player.pk: player for player in _PLAYERS.all(*(pk or 0 for pk in held.values()))}
    for seat, pk in held.items():
        if pk is not None:
            setattr(table, seat, players[pk])
    return table


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _line(deal: engine.Deal | engine.GoatDeal) -> list[list[int]]:
    return [[a, b] for a, b in deal.line()]


def _finished_deal(record: engine.DealRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"n": record.n, "leader": record.leader, "end": record.end, "seat": record.seat,
                            "pips": list(record.pips), "winner": record.winner, "points": record.points,
                            "totals": list(record.totals)}
    if record.deal is not None:  # played move by move: its hands, line and seed are public now
        stored = record.deal.to_dict()
        data.update(hands=stored["hands"], line=_line(record.deal), seed=stored.get("seed"))
    return data


def table_state(partition: Partition, *, seats: Collection[int] = (), referee: bool = False,
                game: engine.Partition | engine.GoatSitting | None = None) -> dict[str, Any]:
    """The table as ``seats`` (those the viewer's device holds) or the referee sees it; with
    neither, as the public does. ``partition`` comes with its ``live`` row and table loaded.
    Its ``now``: the instant of the change that left the row as it is (``Partition.stepped_at``),
    else the clock's."""
    live: LiveTable | None = getattr(partition, "live", None)
    entered = referee and live is not None and live.mode == LiveTable.Mode.REFEREED  # he sees what he entered
    instant = partition.stepped_at or clock.now()
    return STATES.of(partition.table.tour.tournament.kind)(partition, live, game, seats, entered, instant)


def _tiles_state(partition: Partition, live: LiveTable | None, game: Any, seats: Collection[int],
                 entered: bool, now: datetime.datetime) -> dict[str, Any]:
    sitting = game if game is not None else engine_sitting(partition)
    return _goat_state(partition, live, sitting, range(1, sitting.regulations.players + 1) if entered else seats,
                       now, bazaar=entered)


def _partition_state(partition: Partition, live: LiveTable | None, game: Any, seats: Collection[int],
                     entered: bool, now: datetime.datetime) -> dict[str, Any]:
    game = game if game is not None else engine_partition(partition)
    table = partition.table
    status = game.status()
    state: dict[str, Any] = {
        "partition": partition.pk, "version": partition.version, "tour": table.tour.number, "table": table.number,
        "result": result_summary(partition),
        "totals": list(game.totals),
        "next": status.next, "deal_number": status.deal, "leader": status.leader,
        "players": {str(seat): str(player) for seat, player in enumerate(table.seats, 1)},
        "deals": [_finished_deal(record) for record in game.deals],
        "violations": [{"id": v.id, "seat": v.seat, "code": v.code, "consequence": v.consequence,
                        "annulled": v.annulled, "after_deal": v.after_deal} for v in game.violations],
        "penalties": [{"seat": p.seat, "code": p.code, "pair": p.pair, "after_deal": p.after_deal}
                      for p in game.penalties],
        "now": now.isoformat(),
    }
    if live is not None:
        state["live"] = _live(live)
    deal = game.current
    if deal is not None:
        counts = {str(seat): len(deal.hand(seat)) for seat in engine.SEATS}
        current: dict[str, Any] = {"leader": deal.leader, "to_move": deal.to_move, "line": _line(deal),
                                   "ends": list(deal.ends) if deal.ends else None, "tiles_left": counts,
                                   "moves": len(deal.history())}
        shown = set(engine.SEATS) if entered else set(seats)
        current["hands"] = {str(seat): [str(tile) for tile in deal.hand(seat)] for seat in sorted(shown)}
        if deal.to_move in shown:
            current["legal"] = [move.to_dict() for move in deal.legal_moves()]
        state["current"] = current
    return state


def _live(live: LiveTable) -> dict[str, Any]:
    """The live table's clocks and who is present."""
    return {
        "mode": live.mode, "turn": live.turn, "seat": live.seat, "allowance": live.allowance,
        "deal": live.deal, "move": live.move, "lapses": live.lapses, "deal_over": live.deal_over,
        "turn_started_at": _when(live.turn_started_at), "deadline": _when(live.deadline),
        "time_deadline": _when(live.time_deadline), "clock_started_at": _when(live.clock_started_at),
        "paused_at": _when(live.paused_at), "pause_reason": live.pause_reason,
        "present": list(live.present), "no_show_deadline": _when(live.no_show_deadline),
    }


def _goat_move(move: engine.GoatMove) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": move.seat, "tile": str(move.tile)}
    if move.end is not None:
        data["end"] = str(move.end)
    if move.second is not None:
        data["second"] = str(move.second)
    return data


def _goat_state(partition: Partition, live: LiveTable | None, sitting: engine.GoatSitting,
                seats: Collection[int], now: datetime.datetime, *, bazaar: bool = False) -> dict[str, Any]:
    """A Goat or Sea Goat table (RULES 9.1, 9.2): each player for himself (or his pair's unit);
    the bazaar is a count, its tiles only with ``bazaar`` (the referee who entered the hands); a
    player sees his own hand and, on his move, what he may play or that he must draw."""
    table = partition.table
    game, totals = sitting.game, sitting.totals()
    state: dict[str, Any] = {
        "partition": partition.pk, "version": partition.version, "tour": table.tour.number, "table": table.number,
        "result": result_summary(partition), "goat": sitting.regulations.game,
        "players": {str(seat): str(player) for seat, player in enumerate(table.players, 1)},
        "game_number": len(sitting.games), "games": sitting.regulations.games_per_tour,
        "units": [str(unit) for unit in game.units],
        "scores": list(game.scores), "memo": list(game.memo), "opened": list(game.opened),
        "carry": game.carry,  # a tied for_one fish (Goat) or Sea Goat's eggs, waiting for the next deal
        "deals": [{"n": record.n, "leader": record.leader, "end": record.end, "seat": record.seat,
                   "values": list(record.values), "charges": list(record.charges), "scores": list(record.scores)}
                  for record in game.deals],
        "totals": {"game_points": list(totals.game_points), "goats": list(totals.goats)},
        "now": now.isoformat(),
    }
    if live is not None:
        state["live"] = _live(live)
    deal = game.current
    if deal is not None:
        players = range(1, sitting.regulations.players + 1)
        current: dict[str, Any] = {"leader": deal.leader, "to_move": deal.to_move, "line": _line(deal),
                                   "ends": list(deal.ends) if deal.ends else None,
                                   "tiles_left": {str(seat): len(deal.hand(seat)) for seat in players},
                                   "bazaar": len(deal.bazaar), "moves": len(deal.moves)}
        current["hands"] = {str(seat): [str(tile) for tile in deal.hand(seat)] for seat in sorted(seats)
                            if seat in players}
        if deal.to_move in seats:
            current["legal"] = [_goat_move(move) for move in deal.legal_moves()]
            current["must_draw"] = not current["legal"] and deal.can_draw()
        if bazaar:
            current["bazaar_tiles"] = [str(engine.TILES[i]) for i in sorted(deal.bazaar)]
        state["current"] = current
    return state


#: The state of a table of each family (a points game's table is never live: reading it as a
#: partition refuses it with its family's message).
STATES: engine.Parts[Callable[[Partition, LiveTable | None, Any, Collection[int], bool, datetime.datetime],
                              dict[str, Any]]] = (
    engine.Parts({engine.Family.PARTITION: _partition_state, engine.Family.TILES: _tiles_state,
                  engine.Family.POINTS: _partition_state}))


def scope_state(tournament_id: int, tour: int | None, table: int | None) -> list[dict[str, Any]]:
    """What a live events' stream of this scope redraws from after a ``reset``: each table of
    tour ``tour`` (by default the tournament's latest published one), or table ``table`` only,
    as the events give it: its numbers, version, result and public ``state`` (a live table's
    :func:`table_state`, a score sheet's result)."""
    tours = Tour.objects.filter(tournament_id=tournament_id).exclude(status=Tour.Status.DRAFT)
    tours = tours.filter(number=tour) if tour is not None else tours.order_by("-number")[:1]
    partitions = Partition.objects.filter(table__tour__in=list(tours)).select_related(
        "live", "table__tour__tournament", "table__seat1", "table__seat2", "table__seat3", "table__seat4")
    if table is not None:
        partitions = partitions.filter(table__number=table)
    summaries = []
    for partition in partitions.order_by("table__number"):
        result = result_summary(partition)
        summaries.append({
            "tour": partition.table.tour.number, "table": partition.table.number, "partition": partition.pk,
            "version": partition.version, "result": result,
            "state": table_state(partition) if getattr(partition, "live", None) is not None else result})
    return summaries
