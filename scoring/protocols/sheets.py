"""What the protocols show, read from the record: the partition protocol of one version of a
partition (:func:`partition_sheet`), the tour protocol (:func:`tour_sheet`: every table's result
and the standings after the tour) and the final protocol (:func:`final_sheet`), with what each
certifies (its summary) and the state it was made from (its snapshot: a document is issued
again only when that changed)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import engine, labels
from scoring.models import Confirmation, Partition, PartitionChange, SeatResult
from scoring.recording import queries, storage
from scoring.recording.sanctions import Line, delta_text, event_times, running_lines, sanctions
from tournaments.models import Bye, Role, SitOut, Tour, Tournament
from tournaments.names import person_name
from tournaments.standings import standings_table, withdrawals


def local(moment):
    return timezone.localtime(moment) if moment else None


def partition_query():
    return Partition.objects.select_related(
        "table__tour__tournament", "table__referee", "table__pair_a__first", "table__pair_a__second",
        "table__pair_b__first", "table__pair_b__second", "table__seat1", "table__seat2", "table__seat3",
        "table__seat4")


def required_seats(partition: Partition, game: engine.Partition | None = None) -> list[int]:
    """Who confirms a finished partition: the four players and the referee (seat 0); at a
    no-show, the players of the absent pair cannot and do not. At a table of Goat, Sea Goat or
    points: every player seated (2 to 4) and the referee; at a Goat no-show, not those of the
    absent units."""
    if partition.table.tour.tournament.kind.sittings:
        seats = range(1, len(partition.table.players) + 1)
        if partition.reason != engine.GameReason.NO_SHOW:
            return [*seats, Confirmation.REFEREE]
        sitting = storage.engine_sitting(partition)  # a no-show is recorded at Goat tables only
        away = _absent_seats(sitting)
        return [seat for seat in seats if seat not in away] + [Confirmation.REFEREE]
    if game is None:
        if partition.reason != "no_show":
            return [*engine.SEATS, Confirmation.REFEREE]
        game = _game(partition.state, partition)
    away = {seat for pair in engine.Pair if game.no_show in (pair, "both") for seat in engine.seats_of(pair)}
    return [seat for seat in engine.SEATS if seat not in away] + [Confirmation.REFEREE]


def _absent_seats(sitting: engine.GoatSitting) -> set[int]:
    """The seats of the units a no-show found absent (none if the sitting was played)."""
    decision, regs = sitting.games[0].decision, sitting.regulations
    absent = decision.absent if decision is not None else ()
    return {seat for seat in range(1, regs.players + 1)
            if engine.units_of(regs)[engine.unit_index(seat, regs)] in absent}


def _game(state: dict | None, partition: Partition) -> engine.Partition:
    if state:
        return engine.Partition.from_dict(state)
    return engine.Partition(partition.table.tour.tournament.rules)


def _history(partition: Partition, version: int | None) -> tuple[int, list[PartitionChange], dict[str, Any]]:
    """The version shown (default: the current one), the changes up to it, and what every
    partition protocol shows of them: when it started and ended, the corrections."""
    if version is None:
        version = partition.version
    if not 0 <= version <= partition.version:
        raise ValidationError(_("There is no version %(version)s.") % {"version": version})
    changes = list(partition.changes.filter(version__lte=version).select_related("user").order_by("version"))
    first_change = changes[0].at if changes else None
    finished_at = None
    for change in changes:
        if change.after.get("status") == Partition.Status.FINISHED and change.before.get("status") != "finished":
            finished_at = change.at
        elif change.after.get("status") != Partition.Status.FINISHED:
            finished_at = None
    corrections = [{"version": c.version, "at": local(c.at), "reason": c.reason, "by": person_name(c.user),
                    "action": labels.ACTIONS.get(c.action, c.action)}
                   for c in changes if c.action == "correction" or c.reason]
    table = partition.table
    return version, changes, {
        "kind": "partition", "tournament": table.tour.tournament, "tour": table.tour, "table": table,
        "partition": partition, "version": version, "is_current": version == partition.version,
        "referee_name": person_name(table.referee),
        "started_at": local(partition.started_at or first_change), "finished_at": local(finished_at),
        "date": local(partition.started_at or first_change) or table.tour.planned_start,
        "corrections": corrections,
    }


def _signatures(partition: Partition, version: int, players: list[tuple[int, Any, str]], needed: list[int]
                ) -> tuple[list[dict[str, Any]], dict[int, Confirmation]]:
    """The signature lines: each player's (``players``: seat, player, pair) and the referee's,
    with the confirmations of ``version``; a seat not ``needed`` was absent."""
    table = partition.table
    confirmations = {c.seat: c for c in partition.confirmations.filter(version=version).select_related("user")}
    signatures = [{"seat": seat, "pair": pair, "name": str(player), "player": player,
                   "confirmation": confirmations.get(seat), "absent": seat not in needed}
                  for seat, player, pair in players]
    referee_confirmation = confirmations.get(Confirmation.REFEREE)
    referee_name = (person_name(referee_confirmation.user) if referee_confirmation and referee_confirmation.user
                    else person_name(table.referee))
    signatures.append({"seat": Confirmation.REFEREE, "pair": "", "name": referee_name, "player": None,
                       "confirmation": referee_confirmation, "absent": False})
    return signatures, confirmations


def partition_sheet(partition: Partition, version: int | None = None) -> dict[str, Any]:
    """Everything a partition protocol shows, for ``version`` (default: the current one); a Goat
    or Sea Goat table's is :func:`goat_partition_sheet`, a points game's
    :func:`points_partition_sheet`."""
    return SHEETS.of(partition.table.tour.tournament.kind)(partition, version)


def sports_partition_sheet(partition: Partition, version: int | None = None) -> dict[str, Any]:
    """A sports partition's protocol (:func:`partition_sheet`)."""
    table = partition.table
    version, changes, head = _history(partition, version)
    # The current state is the row's own (a partition written without changes has no history); an
    # earlier one is its change's (queries.state_at).
    state = partition.state if version == partition.version else (
        queries.state_at(partition, version, {"state": changes[-1].state, "data": changes[-1].data})
        if changes else None)
    game = _game(state, partition)
    regs = game.regulations
    seats = table.seats

    def seat_name(seat: int | None) -> str:
        return str(seats[seat - 1]) if seat in (1, 2, 3, 4) else ""

    lines = [_line(line, seat_name) for line in running_lines(game)]

    # Warnings and penalties, in the order the referee wrote them, with the time each happened.
    notes = {"false_pass": _("the deal ended by the referee"), "restart": _("the deal was dealt again")}
    entries = [{
        "at": local(s.at), "seat": s.seat, "player": seat_name(s.seat), "pair": s.pair, "code": s.code,
        "code_label": labels.VIOLATIONS_SHORT.get(s.code, s.code), "consequence": s.consequence,
        "note": notes.get(s.note, ""), "during_deal": s.during_deal, "move": s.move, "after_deal": s.after_deal,
        "annulled": {"reason": s.annulled, "at": local(s.annulled_at)} if s.annulled is not None else None,
        "counted": s.penalty is not None, "pending": s.pending, "delta": delta_text(s.delta) if s.penalty else "",
    } for s in sanctions(game, event_times(changes))]

    decision = game.decision
    finished = decision is not None
    needed = required_seats(partition, game) if finished else [1, 2, 3, 4, Confirmation.REFEREE]
    signatures, confirmations = _signatures(
        partition, version, [(seat, seats[seat - 1], engine.pair_of(seat)) for seat in (1, 2, 3, 4)], needed)
    confirmed = finished and all(s in confirmations for s in needed)

    winner_pair = table.pair_a if decision and decision.winner == "A" else (
        table.pair_b if decision and decision.winner == "B" else None)
    return {
        **head, "regulations": regs, "pair_a": table.pair_a, "pair_b": table.pair_b, "seats": seats,
        "first_leader": game.first_leader, "first_leader_name": seat_name(game.first_leader),
        "lines": lines, "deals": [line for line in lines if line["kind"] == "deal"], "entries": entries,
        "penalty_count": sum(1 for e in entries if e["counted"]),
        "totals": game.totals, "decision": decision, "winner_pair": winner_pair,
        "reason_label": labels.REASONS.get(decision.reason, decision.reason) if decision else "",
        "time_expired": game.time_expired, "no_show": game.no_show, "carry": game.carry,
        "in_progress": game.current is not None, "finished": finished,
        "signatures": signatures, "confirmed": confirmed, "confirmations": confirmations,
    }


def _line(line: Line, seat_name: Callable[[int | None], str]) -> dict[str, Any]:
    """A line of the running total (:func:`scoring.recording.sanctions.running_lines`) as the protocol prints it."""
    printed = {"kind": "deal" if line.deal else "penalty", "delta": delta_text(line.delta),
               "total_a": line.totals[0], "total_b": line.totals[1]}
    if line.deal is not None:
        d = line.deal
        return {**printed, "n": d.n, "leader": d.leader, "leader_name": seat_name(d.leader), "end": d.end,
                "end_label": labels.ENDS.get(d.end, d.end), "seat": d.seat, "seat_name": seat_name(d.seat),
                "pips_a": d.pips[0], "pips_b": d.pips[1], "winner": d.winner, "points": d.points}
    assert line.penalty is not None
    p = line.penalty
    return {**printed, "after_deal": p.after_deal, "seat": p.seat, "seat_name": seat_name(p.seat), "code": p.code,
            "code_label": labels.VIOLATIONS_SHORT.get(p.code, p.code)}


def goat_partition_sheet(partition: Partition, version: int | None = None) -> dict[str, Any]:
    """Everything the protocol of a Goat or Sea Goat table shows, for ``version``: each game of
    the sitting with its deals (who led, how it ended, each hand's value, what it charged or
    credited, the scores and memorised points after it) and its result (goats or winner, game
    points), the sitting's totals per player, the signatures of every player seated and the
    referee. All of it read from the engine's sitting (:func:`scoring.recording.storage.sitting_at`)."""
    sitting, sheet = _sitting_sheet(partition, version)
    regs, units = sitting.regulations, sheet["units"]
    players = partition.table.players

    def seat_name(seat: int | None) -> str:
        return str(players[seat - 1]) if seat is not None and 0 < seat <= len(players) else ""

    games: list[dict[str, Any]] = []
    for number, game in enumerate(sitting.games, 1):
        if not game.deals and game.first_leader is None and number > 1 and not game.is_over:
            continue  # the next game, not begun
        decision = game.decision
        points = game.game_points()
        goats = set(decision.goats) if decision else set()
        winners = game.winners()
        absent = decision.absent if decision else ()
        games.append({
            "number": number, "first_leader": game.first_leader, "first_leader_name": seat_name(game.first_leader),
            "deals": [{"n": d.n, "leader": d.leader, "leader_name": seat_name(d.leader), "end": str(d.end),
                       "end_label": labels.GOAT_ENDS.get(d.end, d.end), "seat": d.seat, "seat_name": seat_name(d.seat),
                       "values": list(d.values), "charges": list(d.charges), "scores": list(d.scores),
                       "memo": list(d.memo), "carry": d.carry, "zero_zero": d.zero_zero}
                      for d in game.deals],
            "over": decision is not None,
            "reason_label": labels.GAME_REASONS.get(decision.reason, decision.reason) if decision else "",
            "no_show": [u for u in units if u["unit"] in absent],
            "results": [{"unit": u, "score": score, "memo": memo, "game_points": None if points is None else points[k],
                         "goat": u["unit"] in goats, "winner": u["unit"] in winners, "absent": u["unit"] in absent}
                        for k, (u, score, memo) in enumerate(zip(units, game.scores, game.memo))],
            "penalties": [{"after_deal": p.after_deal, "seat": p.seat, "name": seat_name(p.seat), "code": str(p.code),
                           "unit": p.unit, "points": p.points} for p in game.penalties],
        })
    return {**sheet, "goat": True, "template": "protocols/goat_partition_sheet.html",
            "sea_goat": not engine.kind_of(regs).marks_goats, "games": games,
            "deals": [d for g in games for d in g["deals"]]}


def points_partition_sheet(partition: Partition, version: int | None = None) -> dict[str, Any]:
    """Everything the protocol of a table of a points game (RULES 9.3) shows, for ``version``:
    each game of the sitting with the points each unit scored in each deal and the scores after
    it, its winner; the sitting's totals per player (games won, points) and the signatures. All
    of it read from the engine's sitting (:func:`scoring.recording.storage.sitting_at`)."""
    sitting, sheet = _sitting_sheet(partition, version)
    units = sheet["units"]
    games: list[dict[str, Any]] = []
    for number, game in enumerate(sitting.games, 1):
        if not game.events and number > 1:
            continue  # the next game, not begun
        decision = game.decision
        deals = [{"n": d.n, "cells": list(zip(d.points, d.scores))} for d in game.deals]
        games.append({
            "number": number, "deals": deals, "over": decision is not None,
            "reason_label": labels.GAME_REASONS.get(decision.reason, decision.reason) if decision else "",
            "results": [{"unit": u, "score": score, "winner": decision is not None and decision.winner == u["unit"]}
                        for u, score in zip(units, game.scores)],
        })
    return {**sheet, "points": True, "template": "protocols/points_partition_sheet.html", "games": games,
            "deals": [d for g in games for d in g["deals"]]}


#: The protocol of a table of each family.
SHEETS: engine.Parts[Callable[[Partition, int | None], dict[str, Any]]] = engine.Parts({
    engine.Family.PARTITION: sports_partition_sheet, engine.Family.TILES: goat_partition_sheet,
    engine.Family.POINTS: points_partition_sheet})


def _sitting_sheet(partition: Partition, version: int | None) -> tuple[engine.Sitting[Any], dict[str, Any]]:
    """The engine's sitting of a table of Goat, Sea Goat or points at ``version``, and what its
    protocol shows besides the games: the head, the units (a seat and its player, or a pair),
    each player's totals over the sitting, the signatures of every player seated and the
    referee."""
    version, _changes, head = _history(partition, version)
    sitting = storage.sitting_at(partition, version)
    regs = sitting.regulations
    players = partition.table.players
    units = [{"unit": unit, "names": names, "label": unit if regs.teams else f"{unit}. {names[0]}"}
             for unit, names in queries.unit_names(partition.table, regs).items()]
    totals = sitting.totals()
    standing = [{"seat": seat, "player": player, "unit": totals.units[engine.unit_index(seat, regs)],
                 "game_points": totals.game_points[engine.unit_index(seat, regs)],
                 "goats": totals.goats[engine.unit_index(seat, regs)],
                 "score": totals.scores[engine.unit_index(seat, regs)],
                 "games_won": totals.games_won[engine.unit_index(seat, regs)]}
                for seat, player in enumerate(players, 1)]
    finished = sitting.is_over
    needed = required_seats(partition)
    signatures, confirmations = _signatures(
        partition, version, [(seat, player, engine.units_of(regs)[engine.unit_index(seat, regs)] if regs.teams else "")
                             for seat, player in enumerate(players, 1)], needed)
    return sitting, {
        **head, "sitting": True, "regulations": regs, "seats": list(enumerate(players, 1)), "units": units,
        "standing": standing, "in_progress": not finished and sitting.deals > 0, "finished": finished,
        "signatures": signatures, "confirmed": finished and all(s in confirmations for s in needed),
        "confirmations": confirmations,
    }


def snapshot_of(*parts: Any) -> str:
    """The hash of a document's state: the parts it prints, as JSON."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def partition_snapshot(partition: Partition, version: int, seats: list[int]) -> str:
    return snapshot_of("partition", partition.pk, version, sorted(seats))


def partition_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    if sheet.get("sitting"):
        return _sitting_summary(sheet)
    table, decision = sheet["table"], sheet["decision"]
    return {
        "tournament": sheet["tournament"].name, "tour": sheet["tour"].number, "table": table.number,
        "version": sheet["version"], "finished": sheet["finished"], "confirmed": sheet["confirmed"],
        "pairs": {"A": [str(p) for p in table.pair_a.players], "B": [str(p) for p in table.pair_b.players]},
        "numbers": {"A": table.pair_a.number, "B": table.pair_b.number},
        "points": list(sheet["totals"]), "deals": len(sheet["deals"]),
        "winner": decision.winner if decision else None, "reason": decision.reason if decision else None,
        "referee": sheet["referee_name"],
        "confirmations": [{"seat": s["seat"], "name": s["name"], "method": s["confirmation"].method,
                           "at": s["confirmation"].at.isoformat()}
                          for s in sheet["signatures"] if s["confirmation"] is not None],
    }


def _sitting_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    """What the protocol of a table of Goat, Sea Goat or points certifies: each player's game
    points, goats, score and games won."""
    return {
        "tournament": sheet["tournament"].name, "tour": sheet["tour"].number, "table": sheet["table"].number,
        "version": sheet["version"], "finished": sheet["finished"], "confirmed": sheet["confirmed"],
        "game": str(sheet["regulations"].game), "games": len(sheet["games"]), "deals": len(sheet["deals"]),
        "players": [{"seat": r["seat"], "name": str(r["player"]), "game_points": r["game_points"],
                     "goats": r["goats"], "score": r["score"], "games_won": r["games_won"]} for r in sheet["standing"]],
        "referee": sheet["referee_name"],
        "confirmations": [{"seat": s["seat"], "name": s["name"], "method": s["confirmation"].method,
                           "at": s["confirmation"].at.isoformat()}
                          for s in sheet["signatures"] if s["confirmation"] is not None],
    }


def _standings(tournament: Tournament, after_tour: int | None) -> dict[str, Any]:
    """The standings table (:func:`tournaments.standings.standings_table`) as the protocols print
    it: every column, the precedence numbered."""
    table = standings_table(tournament, after_tour=after_tour)
    return {"columns": table.columns, "individual": table.kind == "players",
            "rows": [{"rank": line.rank, "shared": line.shared, "name": line.name, "withdrawn": line.withdrawal,
                      "number": line.pair.number if line.pair else "", "values": table.values(line, table.columns)}
                     for line in table.lines]}


def _chiefs(tournament: Tournament) -> list[str]:
    return [person_name(r.user) for r in Role.objects.filter(tournament=tournament, kind=Role.Kind.CHIEF_REFEREE)
            .select_related("user").order_by("pk")]


def _tour_partitions(tour: Tour):
    return (partition_query().filter(table__tour=tour).order_by("table__number"))


def tour_sheet(tour: Tour) -> dict[str, Any]:
    """Every table's result in ``tour``, and the standings after it."""
    tournament = tour.tournament
    rows = []
    partitions = list(_tour_partitions(tour))
    confirmed = _confirmed_versions([p.pk for p in partitions])
    results: dict[int, dict[int, SeatResult]] = {}
    for result in SeatResult.objects.filter(partition__in=partitions):
        results.setdefault(result.partition_id, {})[result.seat] = result
    for p in partitions:
        table = p.table
        rows.append({"table": table, "partition": p, "pair_a": table.pair_a, "pair_b": table.pair_b,
                     # A table of sittings: its players, and what each took once the sitting is over.
                     "players": [{"seat": seat, "player": player, "result": results.get(p.pk, {}).get(seat)}
                                 for seat, player in enumerate(table.players, 1)],
                     "winner": p.winner, "reason": labels.REASONS_SHORT.get(p.reason, p.reason) if p.reason else "",
                     "points": (p.points_a, p.points_b), "deals": p.deals,
                     "penalties": (p.penalties_a, p.penalties_b), "referee": person_name(table.referee),
                     "confirmed": (p.pk, p.version) in confirmed, "version": p.version})
    return {
        "kind": "tour", "tournament": tournament, "tour": tour, "rows": rows, "sittings": tournament.kind.sittings,
        "points": tournament.kind.by_hand,
        "finished": sum(1 for r in rows if r["partition"].is_finished), "total": len(rows),
        "byes": list(Bye.objects.filter(tour=tour).select_related("pair__first", "pair__second")),
        "sit_outs": list(SitOut.objects.filter(tour=tour).select_related("player")),
        "standings": _standings(tournament, tour.number), "chiefs": _chiefs(tournament),
    }


def tour_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    return {"tournament": sheet["tournament"].name, "tour": sheet["tour"].number, "tables": sheet["total"],
            "finished": sheet["finished"],
            "leader": sheet["standings"]["rows"][0]["name"] if sheet["standings"]["rows"] else ""}


def _confirmed_versions(partition_ids: list[int]) -> set[tuple[int, int]]:
    """(partition, version) of the finished partitions whose current version every required
    signer confirmed."""
    partitions = {p.pk: p for p in Partition.objects.filter(pk__in=partition_ids, status=Partition.Status.FINISHED)
                  .select_related("table__tour__tournament")}
    seats: dict[tuple[int, int], set[int]] = {}
    for pid, version, seat in Confirmation.objects.filter(partition_id__in=list(partitions)).values_list(
            "partition_id", "version", "seat"):
        seats.setdefault((pid, version), set()).add(seat)
    return {(pid, p.version) for pid, p in partitions.items()
            if set(required_seats(p)) <= seats.get((pid, p.version), set())}


def _withdrawn(tournament: Tournament, after_tour: int | None) -> list[list[tuple[int, int]]]:
    """The withdrawals the standings mark, as a part of a snapshot: none, if nobody withdrew, so
    that the documents of such an event stay current."""
    kind = "players" if tournament.is_individual else "pairs"
    marked = sorted(withdrawals(tournament, kind, after_tour).items())
    return [marked] if marked else []


def tour_snapshot(tour: Tour) -> str:
    partitions = list(Partition.objects.filter(table__tour=tour).order_by("pk").values_list("pk", "version", "status"))
    confirmed = sorted(_confirmed_versions([p[0] for p in partitions]))
    return snapshot_of("tour", tour.pk, tour.status, partitions, confirmed,
                       sorted(Bye.objects.filter(tour=tour).values_list("pair_id", flat=True)),
                       *_withdrawn(tour.tournament, tour.number))


def final_sheet(tournament: Tournament) -> dict[str, Any]:
    """The final standings with every tiebreak column."""
    tours = list(tournament.tours.exclude(status=Tour.Status.DRAFT).order_by("number"))
    played = Partition.objects.filter(table__tour__tournament=tournament)
    return {
        "kind": "final", "tournament": tournament, "tours": tours,
        "standings": _standings(tournament, None), "chiefs": _chiefs(tournament),
        "unfinished": played.exclude(status=Partition.Status.FINISHED).filter(
            table__tour__status__in=[Tour.Status.PUBLISHED, Tour.Status.RUNNING, Tour.Status.FINISHED]).count(),
        "partitions": played.filter(status=Partition.Status.FINISHED).count(),
    }


def final_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    rows = sheet["standings"]["rows"]
    return {"tournament": sheet["tournament"].name, "tours": len(sheet["tours"]), "entrants": len(rows),
            "leader": rows[0]["name"] if rows else "", "unfinished": sheet["unfinished"]}


def final_snapshot(tournament: Tournament) -> str:
    partitions = list(Partition.objects.filter(table__tour__tournament=tournament).order_by("pk")
                      .values_list("pk", "version", "status"))
    tours = list(tournament.tours.order_by("number").values_list("number", "status"))
    byes = sorted(Bye.objects.filter(tour__tournament=tournament).values_list("tour_id", "pair_id"))
    # The regulations text is printed on it: a change makes a signed protocol stale.
    text = (tournament.regulations_text,) if tournament.regulations_text else ()
    return snapshot_of("final", tournament.pk, tournament.status, partitions, tours, byes,
                       *_withdrawn(tournament, None), *text)
