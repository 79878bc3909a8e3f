"""The floor of a live move: what a move must do, written plainly in Python with psycopg 3 and
redis-py, on the same PostgreSQL and Redis, run alone just before ``bench/live.py``.

Run by hand: ``.venv/bin/python bench/floor.py [--tables 250] [--seconds 20] [--workers N]
[--json FILE]``.

It uses its own PostgreSQL database (``domino_bench_floor``, dropped, created and migrated by
Django, so the tables are the project's own). It builds the tournament as ``bench/live.py`` does
(its ``build``: ``--tables`` tables of four players, one tour drawn, digital, published) and
gives each partition a deal in play and a live row, all through the ORM. Then Django is done
with: ``--workers`` processes (spawned: psycopg and redis-py only, one connection to each) play
the tables round robin (worker k the tables k, k + workers, ...) as fast as the answers come, for
``--seconds``. A move, in one transaction:

- ``SELECT ... FOR UPDATE`` the live row and its partition's row in one statement (as
  ``scoring.recording.pipeline._locked`` locks them), reading the turn and the deal in play;
- ``UPDATE`` the partition: the deal in play with the move appended (its JSON, as the engine's
  ``Deal.to_dict`` writes it) and the version (as a move within a deal writes them);
- ``UPDATE`` the live row: the next turn, move, seat, turn start and deadline;
- the tournament's next event number, ``UPDATE`` of its event counter row (``last = last + 1``:
  the row lock that orders the commits, ``scoring.push.events._next_number``) with ``RETURNING
  last, now()``, which reads in the same statement what the project reads in a second one;
- ``INSERT`` the live event (its data as ``scoring.push.events.announce`` shapes it, the table's
  public state of the deal in play);
- ``COMMIT``, then ``PUBLISH`` the event's message on the tournament's Redis channel
  (``scoring.push.events.CHANNEL``).

It prints the moves a second, the latency of a move (from its first statement to the PUBLISH
answered: p50, p99, max) and the CPU a move costs: the CPU of the floor's processes, of
PostgreSQL (every process of the server) and of the Redis server during the run, read from
/proc, divided by the moves. ``--json FILE`` writes the same figures for ``bench/live.py --floor
FILE``, which prints its own CPU per move against this one. Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

from benchdb import setup_django
from live import build, drop_database
from recording import cpu_seconds, percentile, pg_version, server_cpu

ROOT = Path(__file__).resolve().parent.parent
#: Moves of a deal before the next is dealt (a deal of the bench: seven tiles a seat).
DEAL_MOVES = 24
#: The move allowance, seconds (only written into the deadline).
ALLOWANCE = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=20, help="how long the workers play")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes playing, one connection each (default: one a core)")
    parser.add_argument("--json", type=Path, help="write the figures to this file (for bench/live.py --floor)")
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_FLOOR_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/domino_bench_floor"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"),
                        help="the Redis the events are published on (PUBLISH writes no key in any database)")
    args = parser.parse_args()
    if args.workers > args.tables:
        parser.error("--workers: at most one a table")
    started = time.perf_counter()
    tables, names, postgres = prepare(args.database_url, args.tables)
    print(f"built: {args.tables} tables, in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    spawn = multiprocessing.get_context("spawn")  # the workers import no Django
    ready = spawn.Barrier(args.workers + 1)
    go, done = spawn.Event(), spawn.Event()
    results = spawn.Queue()
    workers = [spawn.Process(target=play, args=(args.database_url, args.redis_url, names, tables[k::args.workers],
                                                args.seconds, ready, go, done, results))
               for k in range(args.workers)]
    load = os.getloadavg()[0]
    for worker in workers:
        worker.start()
    try:
        ready.wait(timeout=120)  # connected, statements warmed up
        pids = [os.getpid(), *(w.pid for w in workers)]
        before = {"floor": cpu_seconds(pids), "postgres": server_cpu("postgres"), "redis": server_cpu("redis-server")}
        go.set()
        played = [results.get(timeout=args.seconds + 120) for _ in workers]
        # Read while the workers still live (they wait for ``done``): their CPU is in /proc.
        after = {"floor": cpu_seconds(pids), "postgres": server_cpu("postgres"), "redis": server_cpu("redis-server")}
    finally:
        done.set()
        for worker in workers:
            worker.join(timeout=30)
    cpu = {k: after[k] - before[k] for k in after}
    latencies = sorted(t for _began, _ended, times in played for t in times)
    wall = max(ended for _began, ended, _times in played) - min(began for began, _ended, _times in played)
    moves = len(latencies)
    if not moves:
        raise SystemExit("no move was played")
    result = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "processor": platform.processor() or platform.machine(),
                    "python": platform.python_version(), "postgres": postgres, "load_before": round(load, 2)},
        "tables": args.tables, "workers": args.workers, "seconds": round(wall, 2), "moves": moves,
        "moves_per_second": round(moves / wall, 1),
        "latency_ms": {"p50": round(statistics.median(latencies) * 1000, 2),
                       "p99": round(percentile(latencies, 0.99) * 1000, 2), "max": round(latencies[-1] * 1000, 2)},
        "cpu_seconds": {k: round(v, 2) for k, v in cpu.items()},
        "cpu_per_move_ms": round(sum(cpu.values()) / moves * 1000, 3),
    }
    report(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def report(result: dict) -> None:
    machine, latency, cpu = result["machine"], result["latency_ms"], result["cpu_seconds"]
    print(f"machine: {machine['cores']} cores ({machine['processor']}), Python {machine['python']}, PostgreSQL "
          f"{machine['postgres']}; load average before {machine['load_before']:.2f}")
    print(f"floor: {result['tables']} tables, {result['workers']} workers, {result['seconds']:.1f} s: "
          f"{result['moves']} moves, {result['moves_per_second']:.0f} moves/s")
    print(f"latency of a move: p50 {latency['p50']:.2f} ms, p99 {latency['p99']:.2f} ms, max {latency['max']:.1f} ms")
    print("CPU during the run: " + ", ".join(f"{k} {v:.1f} s" for k, v in cpu.items())
          + f", of {(machine['cores'] or 1) * result['seconds']:.0f} s")
    print(f"CPU per move: {result['cpu_per_move_ms']:.2f} ms (" + ", ".join(
        f"{k} {v / result['moves'] * 1000:.2f}" for k, v in cpu.items()) + " ms)")


# -- the tournament ------------------------------------------------------------------------------


def prepare(database_url: str, count: int) -> tuple[list[dict], dict[str, str], str]:
    """The bench's database made again, its tournament built, each table's partition given a deal
    in play and a live row. The tables (their ids and numbers), the tables' names in the database
    and PostgreSQL's version."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "livesettings"  # build's PINs by MD5, as bench/live.py
    os.environ.pop("REDIS_URL", None)  # building sends nothing: no broker, no events published
    drop_database(database_url)
    setup_django(database_url)
    from django.db import connection, transaction
    from django.db.models.functions import Now

    from scoring.models import EventCounter, LiveEvent, LiveTable, Partition
    from scoring.push.events import CHANNEL
    from tournaments.models import Table, Tour

    slug, _plan = build(count, 75)
    tour = Tour.objects.select_related("tournament").get(tournament__slug=slug, number=1)
    tables = []
    with transaction.atomic():
        lives = []
        for table in tour.tables.select_related("partition", *Table.SEAT_FIELDS).order_by("number"):
            partition = table.partition
            tables.append({"partition": partition.pk, "table": table.pk, "number": table.number, "tour": tour.pk,
                           "tour_number": tour.number, "tournament": tour.tournament_id,
                           "channel": CHANNEL.format(tournament_id=tour.tournament_id),
                           "players": {str(seat): str(player) for seat, player in enumerate(table.seats, 1)}})
            Partition.objects.filter(pk=partition.pk).update(
                status=Partition.Status.PLAYING, started_at=Now(), current=new_deal(partition.pk))
            lives.append(LiveTable(partition=partition, mode=LiveTable.Mode.DIGITAL, deal=1, seat=1,
                                   allowance=ALLOWANCE, present=[1, 2, 3, 4]))
        LiveTable.objects.bulk_create(lives)
        EventCounter.objects.bulk_create([EventCounter(tournament_id=tour.tournament_id)], ignore_conflicts=True)
    names = {"partition": Partition._meta.db_table, "live": LiveTable._meta.db_table,
             "counter": EventCounter._meta.db_table, "event": LiveEvent._meta.db_table}
    postgres = pg_version()
    connection.close()
    return tables, names, postgres


def new_deal(seed: int) -> dict:
    """A deal in play as the engine's ``Deal.to_dict`` writes it: the hands as dealt, the leader,
    the seed, the moves so far (none)."""
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    random.Random(seed).shuffle(tiles)
    return {"hands": {str(seat): tiles[7 * (seat - 1):7 * seat] for seat in (1, 2, 3, 4)}, "leader": 1,
            "moves": [], "seed": seed}


# -- the workers ---------------------------------------------------------------------------------


def play(database_url: str, redis_url: str, names: dict[str, str], tables: list[dict], seconds: float,
         ready, go, done, results) -> None:
    """One worker: its tables round robin, a move each, until ``seconds`` have passed since ``go``;
    puts (began, ended, the seconds of each move) and waits for ``done`` (its CPU is read meanwhile)."""
    import psycopg
    import redis
    from psycopg import sql

    statements = {key: sql.SQL(text).format(**{k: sql.Identifier(v) for k, v in names.items()}) for key, text in {
        "lock": "SELECT l.turn, l.deal, l.present, l.clock_started_at, p.version, p.current, p.status, p.winner, "
                "p.reason, p.points_a, p.points_b, p.deals FROM {live} l JOIN {partition} p ON p.id = l.partition_id "
                "WHERE l.partition_id = %s FOR UPDATE OF l, p",
        "partition": "UPDATE {partition} SET current = %s, version = %s WHERE id = %s",
        "live": "UPDATE {live} SET turn = %s, deal = %s, move = %s, seat = %s, turn_started_at = now(), "
                "deadline = now() + make_interval(secs => allowance), updated_at = now() "
                "WHERE partition_id = %s RETURNING turn_started_at, deadline",
        "number": "UPDATE {counter} SET last = last + 1 WHERE tournament_id = %s RETURNING last, now()",
        "event": "INSERT INTO {event} (tournament_id, number, tour_id, table_id, partition_id, kind, data, at) "
                 "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
    }.items()}
    url = urlparse(database_url)
    conn = psycopg.connect(host=url.hostname, port=url.port or 5432, user=url.username, password=url.password,
                           dbname=url.path.lstrip("/"))
    publisher = redis.Redis.from_url(redis_url)
    for table in tables:  # every statement prepared (psycopg prepares after 5 runs) before the clock runs
        for _ in range(2):
            move(conn, publisher, statements, table)
    ready.wait()
    go.wait()
    times = []
    began = time.time()
    stop_at = time.perf_counter() + seconds
    k = 0
    while (start := time.perf_counter()) < stop_at:
        move(conn, publisher, statements, tables[k % len(tables)])
        times.append(time.perf_counter() - start)
        k += 1
    results.put((began, time.time(), times))
    done.wait()
    conn.close()


def move(conn, publisher, statements: dict, table: dict) -> None:
    """One move at ``table``: the next seat plays the next tile of his hand; after DEAL_MOVES
    moves a new deal is dealt."""
    from psycopg.types.json import Jsonb

    with conn.transaction():
        (turn, deal_number, present, clock_started_at, version, current, status, winner, reason, points_a, points_b,
         deals) = conn.execute(statements["lock"], [table["partition"]]).fetchone()
        moves = current["moves"]
        if len(moves) == DEAL_MOVES:
            current, deal_number = new_deal(table["partition"] * 1000 + deal_number), deal_number + 1
            moves = current["moves"]
        seat = (current["leader"] - 1 + len(moves)) % 4 + 1
        tile = current["hands"][str(seat)][len(moves) // 4]
        moves.append({"seat": seat, "tile": tile, "end": "left" if len(moves) % 2 else "right", "seconds": 3})
        version += 1
        turn += 1
        following = seat % 4 + 1
        conn.execute(statements["partition"], [Jsonb(current), version, table["partition"]])
        started, deadline = conn.execute(statements["live"], [turn, deal_number, len(moves), following,
                                                              table["partition"]]).fetchone()
        number, at = conn.execute(statements["number"], [table["tournament"]]).fetchone()
        data = event_data(table, current, at, version, turn, following, deal_number, present, started, deadline,
                          clock_started_at, {"status": status, "winner": winner, "reason": reason,
                                             "points": [points_a, points_b], "deals": deals})
        conn.execute(statements["event"], [table["tournament"], number, table["tour"], table["table"],
                                           table["partition"], "move", Jsonb(data), at])
    publisher.publish(table["channel"], json.dumps(
        {"tournament": table["tournament"], "number": number, "kind": "move", "data": data}))


def event_data(table: dict, current: dict, at, version: int, turn: int, seat: int, deal: int, present: list[int],
               started, deadline, clock_started_at, result: dict) -> dict:
    """A move's event, with the keys of ``scoring.push.events.announce``'s and, as its state, of
    the table's public state (``scoring.recording.state``) in the first deal."""
    moves = current["moves"]
    line = [[int(half) for half in move["tile"].split("-")] for move in moves]

    def when(instant) -> str | None:
        return instant.isoformat() if instant else None

    state = {
        "partition": table["partition"], "version": version, "tour": table["tour_number"], "table": table["number"],
        "result": result, "totals": result["points"], "next": "deal", "deal_number": deal,
        "leader": current["leader"], "players": table["players"], "deals": [], "violations": [], "penalties": [],
        "now": at.isoformat(),
        "live": {"mode": "digital", "turn": turn, "seat": seat, "allowance": ALLOWANCE, "deal": deal,
                 "move": len(moves), "lapses": 0, "deal_over": False, "turn_started_at": when(started),
                 "deadline": when(deadline), "time_deadline": None, "clock_started_at": when(clock_started_at),
                 "paused_at": None, "pause_reason": "", "present": present, "no_show_deadline": None},
        "current": {"leader": current["leader"], "to_move": seat, "line": line,
                    "ends": [line[0][0], line[-1][1]], "moves": len(moves), "hands": {},
                    "tiles_left": {str(s): 7 - sum(m["seat"] == s for m in moves) for s in (1, 2, 3, 4)}},
    }
    return {"tour": table["tour_number"], "table": table["number"], "partition": table["partition"],
            "version": version, "at": at.isoformat(), "kind": "move", "actions": ["move"], "result": result,
            "state": state}


if __name__ == "__main__":
    main()
