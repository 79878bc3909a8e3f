"""What a live table shows, to whom: one JSON document for the pages, the API and the pushed
events. The public (and the other players) never see a hand until its deal is over; a player sees
his own hand and, on his move, the tiles he may play; the referee of a refereed table sees the
hands he entered."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from scoring import engine
from scoring.models import LiveTable, Partition
from scoring.services import engine_partition, result_summary
from tournaments.models import Player, Table

from . import clock


def with_table(partition: Partition) -> Partition:
    """Load the partition's table with its tour, tournament and players, in two short queries:
    PostgreSQL took longer to plan one join of them all with the partition (12 ms) than to run
    three queries."""
    table = Table.objects.select_related("tour__tournament").get(pk=partition.table_id)
    held = {f"seat{n}": getattr(table, f"seat{n}_id") for n in engine.SEATS}
    players = Player.objects.in_bulk([pk for pk in held.values() if pk is not None])
    for seat, pk in held.items():
        if pk is not None:
            setattr(table, seat, players[pk])
    partition.table = table
    return partition


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _line(deal: engine.Deal) -> list[list[int]]:
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
                game: engine.Partition | None = None) -> dict[str, Any]:
    """The table as ``seats`` (those the viewer's device holds) or the referee sees it; with
    neither, as the public does. ``partition`` comes with its ``live`` row and table loaded."""
    live: LiveTable | None = getattr(partition, "live", None)
    game = game or engine_partition(partition)
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
        "now": clock.now().isoformat(),
    }
    if live is not None:
        state["live"] = {
            "mode": live.mode, "turn": live.turn, "seat": live.seat, "allowance": live.allowance,
            "deal": live.deal, "move": live.move, "lapses": live.lapses,
            "turn_started_at": _when(live.turn_started_at), "deadline": _when(live.deadline),
            "time_deadline": _when(live.time_deadline), "clock_started_at": _when(live.clock_started_at),
            "paused_at": _when(live.paused_at), "pause_reason": live.pause_reason,
            "present": list(live.present), "no_show_deadline": _when(live.no_show_deadline),
        }
    deal = game.current
    if deal is not None:
        counts = {str(seat): len(deal.hand(seat)) for seat in engine.SEATS}
        current: dict[str, Any] = {"leader": deal.leader, "to_move": deal.to_move, "line": _line(deal),
                                   "ends": list(deal.ends) if deal.ends else None, "tiles_left": counts,
                                   "moves": len(deal.history())}
        shown = set(engine.SEATS) if referee and live is not None and live.mode == LiveTable.Mode.REFEREED else set(seats)
        current["hands"] = {str(seat): [str(tile) for tile in deal.hand(seat)] for seat in sorted(shown)}
        if deal.to_move in shown:
            current["legal"] = [move.to_dict() for move in deal.legal_moves()]
        state["current"] = current
    return state
