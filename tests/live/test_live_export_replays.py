"""Every live table's export replays to the result stored (issue 19): sports, Goat and Sea Goat,
digital, refereed and on the referee's clock, played with the clock in the test's hand and let run
out now and then (by the timer, and by a move sent late that the request catches up), a conduct
violation and a penalty written during a deal; the file the export writes
(:func:`scoring.recording.queries.export_protocol`, no viewer: the whole file) is read back by
:func:`scoring.engine.score_protocol` alone, and gives the stored result, violations included."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from livetools import goat_table, live_tour, seated
from scoring import engine
from scoring.live import play
from scoring.models import LiveTable, Partition
from scoring.recording import commands, pipeline, queries, storage
from scoring.recording.storage import sitting_at

pytestmark = pytest.mark.django_db

#: (game, mode, regulations): every game and mode; Goat also with move_timeout forfeit, whose
#: lapse ends a game during a deal (that deal stays in the file, with what was written in it).
CASES = [(game, mode, {}) for game in ("sports", "goat", "sea_goat") for mode in ("digital", "refereed", "clock")]
CASES.append(("goat", "digital", {"move_timeout": "forfeit", "games_per_tour": 2}))
#: Moves (taps at the referee's clock) played in each case.
STEPS = 60


@pytest.fixture
def seeds(monkeypatch):
    """The deals' seeds fixed (1, 2, 3...): each case is the same game every time."""
    counter = itertools.count(1)
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(counter))


def table_of(game: str, mode: str, regulations: dict) -> tuple[dict, int]:
    """The world and the partition of a table of ``game`` played in ``mode``, its partition begun
    (the players present, the lead known where the referee names it)."""
    if game == "sports":
        world = live_tour(mode)
        pid = world["p1"].pk
        if mode == "digital":
            seated(world)
        else:
            play.start_tour(world["chief"], world["tour"])
            play.start_partition(world["ref"], pid, 1)
        return world, pid
    rules = {"game": game, **regulations}
    if game == "sea_goat":
        rules["teams"] = False  # a table of three, each for himself
    world = goat_table(mode, 3, rules)
    pid = world["pid"]
    if mode == "digital":
        for seat in (1, 2, 3):
            play.check_in(world["ref"], pid, seat)
    return world, pid


def live(pid: int) -> LiveTable:
    return LiveTable.objects.get(pk=pid)


def played(pid: int, game: str):
    partition = Partition.objects.get(pk=pid)
    return storage.engine_partition(partition) if game == "sports" else sitting_at(partition)


def current_deal(pid: int, game: str):
    state = played(pid, game)
    return state.current if game == "sports" else state.game.current


def lapse_now_and_then(pid: int, step: int, frozen) -> None:
    """Every third move runs out of time: by the timer (once or twice), or sent late, the request
    catching the clock up before the move."""
    row = live(pid)
    if step % 3 or row.deadline is None:
        return
    frozen.to(row.deadline)
    if step % 2:
        assert pipeline.expire(pid)
        again = live(pid)  # the same turn, or after a forfeit the next game's first
        if step % 4 == 3 and again.deadline is not None:
            frozen.to(again.deadline)
            assert pipeline.expire(pid)
    frozen.advance(1.7)


def move(world: dict, pid: int, game: str, mode: str, rng: random.Random) -> None:
    """The seat to move plays a legal tile, draws (naming the tile at a refereed table) or passes."""
    deal = current_deal(pid, game)
    actor, turn = play.Actor(world["ref"]), live(pid).turn
    moves = deal.legal_moves()
    if moves:
        chosen = rng.choice(moves)
        second = getattr(chosen, "second", None)
        play.move(actor, pid, turn, tile=str(chosen.tile), end=str(chosen.end) if chosen.end else None,
                  second=str(second) if second else None)
    elif game != "sports" and deal.can_draw():
        play.draw(actor, pid, turn, tile=str(engine.TILES[deal.bazaar[0]]) if mode == "refereed" else None)
    else:
        play.move(actor, pid, turn, pass_turn=True)


def deal_hands(world: dict, pid: int, game: str, rng: random.Random) -> None:
    """At a refereed table, the referee enters the hands drawn."""
    tiles = [str(t) for t in engine.TILES]
    rng.shuffle(tiles)
    seats = 4 if game == "sports" else 3
    play.enter_hands(world["ref"], pid, {str(s): tiles[7 * (s - 1):7 * s] for s in range(1, seats + 1)},
                     turn=live(pid).turn)


def write_during_a_deal(world: dict, pid: int, game: str) -> None:
    """The referee writes a conduct violation twice (a warning, then a penalty) and a penalty."""
    seat = live(pid).seat or 1
    if game == "sports":
        for _ in range(2):
            commands.record(world["ref"], pid, "violation", {"seat": seat, "code": "conduct"})
        commands.record(world["ref"], pid, "penalty", {"seat": seat, "code": "signs"})
    else:
        for _ in range(2):
            commands.record_goat(world["ref"], pid, "goat_violation", {"seat": seat, "code": "conduct"})
        commands.record_goat(world["ref"], pid, "goat_penalty", {"seat": seat, "code": "signs"})


def play_live(world: dict, pid: int, game: str, mode: str, regulations: dict, frozen) -> None:
    rng = random.Random(f"{game}/{mode}")
    for step in range(STEPS):
        if Partition.objects.get(pk=pid).is_finished:
            return
        row = live(pid)
        if row.seat is None:  # between deals
            if mode == "refereed":
                deal_hands(world, pid, game, rng)
            elif mode == "clock" and game != "sports":
                play.goat_lead(world["ref"], pid, 1)  # a game's first deal: he holds its lead tile
            continue
        if step == 1:
            write_during_a_deal(world, pid, game)
        lapse_now_and_then(pid, step, frozen)
        if Partition.objects.get(pk=pid).is_finished or live(pid).seat is None:
            continue  # a forfeit ended the game
        frozen.advance(1.3)
        if mode == "clock":
            play.tap(world["ref"], pid, live(pid).turn)
            if step % 9 == 8:
                clock_result(world, pid, game)
        else:
            try:
                move(world, pid, game, mode, rng)
            except pipeline.StaleTurn:  # sent late: the request's catch-up forfeited the game, and the turn
                assert regulations.get("move_timeout") == "forfeit"


def clock_result(world: dict, pid: int, game: str) -> None:
    """At the referee's clock, the deal's result: domino by the seat awaited."""
    seat = live(pid).seat
    if game == "sports":
        pips = {"A": 0, "B": 17} if seat in (1, 3) else {"A": 17, "B": 0}
        play.clock_deal_result(world["ref"], pid, "domino", seat, pips)
    else:
        values = {str(s): 4 * s for s in (1, 2, 3) if s != seat}
        play.clock_goat_result(world["ref"], pid, {"end": "domino", "seat": seat, "values": values})


def results(pid: int, game: str) -> tuple[list[dict], list[dict], list[dict]]:
    """The stored result of each game of the table, the result of its exported file read back, and
    the file of each game."""
    partition = Partition.objects.get(pk=pid)
    state = played(pid, game)
    stored = [engine.result_of(state)] if game == "sports" else [engine.result_of(g) for g in state.games if g.events]
    exported = json.loads(json.dumps(queries.export_protocol(partition)))  # what the file holds
    files = [exported] if game == "sports" else exported["games"]
    return stored, [engine.score_protocol(f) for f in files], files


def moves_of(deal: dict) -> list[dict]:
    """The moves of a deal in a file (a turn still drawing is none yet)."""
    return [m for m in deal.get("moves", []) if "tile" in m or "pass" in m]


@pytest.mark.parametrize("game, mode, regulations", CASES,
                         ids=[f"{g}-{m}{'-forfeit' if r else ''}" for g, m, r in CASES])
def test_a_live_tables_export_replays_to_the_stored_result(db, frozen, seeds, game, mode, regulations):
    world, pid = table_of(game, mode, regulations)
    play_live(world, pid, game, mode, regulations, frozen)
    stored, replayed, files = results(pid, game)
    assert replayed == stored
    violations = [v for result in stored for v in result["violations"]]
    outcomes = {(v["code"], v["outcome"]) for v in violations}
    assert {("conduct", "warning"), ("conduct", "penalty")} <= outcomes
    if regulations.get("move_timeout") == "forfeit":
        assert any(result["reason"] == "timeout" for result in stored)
    else:
        assert {("move_time", "warning"), ("move_time", "penalty")} <= outcomes
    if mode != "clock":  # a deal played move by move: each lapse at its move, from 1, derived from its seconds
        assert all(v["move"] >= 1 for v in violations if v["code"] == "move_time")
        assert all("seconds" in m for f in files for d in f["deals"] for m in moves_of(d))
        assert not [v for f in files for v in f.get("violations", []) if v["code"] == "move_time"
                    and v["deal"] <= len(f["deals"]) and v["move"] <= len(moves_of(f["deals"][v["deal"] - 1]))]
    for f in files:  # the deal the clock ran out in stays in the file, with what was written during it
        if "timeout" in f:
            assert f["timeout"]["deal"] == len(f["deals"]) and "moves" in f["deals"][-1]
