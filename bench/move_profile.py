"""Where the CPU of a live move goes: moves made in this one process through the live API as the
server answers a phone (``scoring.web.phones``: its middleware and the view's functions, in this
thread, without the HTTP server and the event loop), on PostgreSQL and Redis, with the standard
profiler.

Run by hand: ``.venv/bin/python bench/move_profile.py [--tables 20] [--moves 400] [--top 30] [--save FILE]``.

It uses its own databases (``domino_bench_profile``, dropped and migrated; Redis database 8,
emptied), builds the tables as ``bench/live.py`` does (every table digital, four phones a table
holding their seats by PIN), then makes ``--moves`` moves, table after table, each the first legal
move of the player to move, posted with his seat's token. Choosing the move (the engine, read
apart) is outside what is measured. It prints this process's CPU per move, PostgreSQL's (its
backends' CPU from /proc), the statements per move, and the profiler's functions by their own and
cumulative time: the share of each layer of a move.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import subprocess
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "livesettings")
os.environ["ALLOWED_HOSTS"] = "testserver"  # the test client's host
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchdb import setup_django  # noqa: E402
from recording import server_cpu  # noqa: E402

DATABASE = "postgres://postgres@127.0.0.1:5432/domino_bench_profile"
REDIS = "redis://127.0.0.1:6379/8"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--database-url", default=DATABASE, help="its own database: dropped and migrated")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--no-profile", action="store_true", help="time the moves without the profiler")
    parser.add_argument("--sql", action="store_true", help="print the statements of the last move")
    parser.add_argument("--save", help="write the profile to this file too (python -m pstats FILE reads it)")
    parser.add_argument("--server", action="store_true",
                        help="post the moves over HTTP to the ASGI server config/run.sh starts (one worker): the "
                             "server's CPU a move, not this process's")
    args = parser.parse_args()

    import live  # bench/live.py: its database helpers and its tournament
    live.drop_database(args.database_url)
    os.environ["REDIS_URL"] = REDIS
    import redis
    redis.Redis.from_url(REDIS).flushdb()
    setup_django(args.database_url)

    from django.db import connection
    from django.test import Client

    from scoring.live import play
    from scoring.models import LiveTable
    from scoring.recording.storage import engine_partition
    from tournaments.models import Tour, Tournament

    slug, plan = live.build(args.tables, target=2000)
    tour = Tour.objects.get(tournament__slug=slug)
    organiser = Tournament.objects.get(slug=slug).created_by
    play.start_tour(organiser, tour)
    tokens = {}
    client = Client()
    for entry in plan:
        for seat in (1, 2, 3, 4):
            answer = client.post(f"/api/partitions/{entry['partition']}/live/seat/",
                                 {"seat": seat, "pin": live.PIN}, content_type="application/json")
            assert answer.status_code == 200, answer.content
            tokens[entry["partition"], seat] = answer.json()["token"]

    def next_move(pk: int) -> tuple[int, dict]:
        table = LiveTable.objects.get(pk=pk)
        from scoring.models import Partition
        deal = engine_partition(Partition.objects.select_related("table__tour__tournament").get(pk=pk)).current
        moves = deal.legal_moves() if deal is not None else []
        move = moves[0] if moves else None
        body = {"turn": table.turn}
        if move is None or move.tile is None:
            body["pass"] = True
        else:
            body.update({"tile": str(move.tile), **({"end": str(move.end)} if move.end else {})})
        return table.seat, body

    if args.server:
        return through_server(args, plan, tokens, next_move)
    post = phone_post()
    profile = cProfile.Profile(time.process_time)  # CPU, not the waits on PostgreSQL
    cpu = wall = 0.0
    postgres = 0.0
    made = statements = 0
    for pk, seat, body in moves(plan, args.moves, next_move):
        pg_before, cpu_before, wall_before = server_cpu("postgres"), time.process_time(), time.perf_counter()
        queries: list[str] = []
        # Counted by an execute wrapper, not Django's query log: the log's cursor formats every
        # statement with its values (a seventh of a move's CPU that the server never spends).
        with connection.execute_wrapper(lambda execute, sql, *rest: queries.append(sql) or execute(sql, *rest)):
            if not args.no_profile:
                profile.enable()
            answer = post(f"/api/partitions/{pk}/live/move/", body, tokens[pk, seat])
            profile.disable()
        cpu += time.process_time() - cpu_before
        wall += time.perf_counter() - wall_before
        postgres += server_cpu("postgres") - pg_before
        assert answer.status_code == 200, answer.content
        statements += len(queries)
        made += 1
    if args.sql:
        for query in queries:
            print(query[:300])
    print(f"{made} moves over {len(plan)} tables: this process {cpu / made * 1000:.1f} ms CPU a move, "
          f"PostgreSQL {postgres / made * 1000:.1f} ms, wall {wall / made * 1000:.1f} ms, "
          f"{statements / made:.1f} statements a move")
    if args.save and not args.no_profile:
        profile.dump_stats(args.save)
    for order in () if args.no_profile else ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order).print_stats(args.top)
        print(out.getvalue())


def phone_post():
    """A phone's POST as the server's worker thread answers it (PhoneRoutes.respond), from here."""
    import io
    import json

    from django.core.handlers.asgi import ASGIRequest

    from config.asgi import django_application
    from scoring.web.phones import PhoneRoutes

    routes = PhoneRoutes(django_application)

    def post(path: str, body: dict, token: str):
        content = json.dumps(body).encode()
        scope = {"type": "http", "method": "POST", "path": path, "root_path": "", "query_string": b"",
                 "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 40000),
                 "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(content)).encode()), (b"x-seat-token", token.encode())]}
        found = routes.route(scope)
        assert found is not None
        return routes.respond(ASGIRequest(scope, io.BytesIO(content)), *found)

    return post


def moves(plan, count, next_move):
    """``count`` moves, table after table: (partition, the seat to move, the move's body); a table
    that awaits no move is passed over. Fewer when every table is over."""
    made = 0
    while made < count:
        before = made
        for entry in plan:
            seat, body = next_move(entry["partition"])
            if seat is not None:
                made += 1
                yield entry["partition"], seat, body
                if made == count:
                    return
        if made == before:
            return


def through_server(args, plan, tokens, next_move) -> None:
    """The same moves through gunicorn and one uvicorn worker, over one keep-alive connection:
    the worker's CPU a move (its own /proc figures), PostgreSQL's, and the wall time."""
    import http.client
    import json
    import tempfile
    from pathlib import Path

    import live
    from recording import cpu_seconds, free_port, stop_server, wait_until_up, worker_pids

    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="bench-profile-"))
    env = {**os.environ, "DATABASE_URL": args.database_url, "REDIS_URL": REDIS, "DJANGO_SETTINGS_MODULE": "livesettings",
           "PYTHONPATH": f"{live.ROOT / 'bench'}:{live.ROOT}", "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1",
           "VAR_DIR": str(folder), "SECRET_KEY": "bench-profile-" + "x" * 50}
    with (folder / "web.log").open("ab") as out:
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
                                   "config.server.Worker", "--workers", "1", "--bind", f"127.0.0.1:{port}",
                                   "--log-level", "warning"], cwd=live.ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until_up(port, server, folder / "web.log")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        workers = worker_pids(server)
        made, web, postgres, wall = 0, 0.0, 0.0, 0.0
        for pk, seat, body in moves(plan, args.moves, next_move):
            before = (cpu_seconds(workers), server_cpu("postgres"), time.perf_counter())
            connection.request("POST", f"/api/partitions/{pk}/live/move/", json.dumps(body),
                               {"Content-Type": "application/json", "X-Seat-Token": tokens[pk, seat]})
            answer = connection.getresponse()
            content = answer.read()
            wall += time.perf_counter() - before[2]
            web += cpu_seconds(workers) - before[0]
            postgres += server_cpu("postgres") - before[1]
            assert answer.status == 200, content
            made += 1
        print(f"{made} moves through the server: its worker {web / made * 1000:.1f} ms CPU a move, "
              f"PostgreSQL {postgres / made * 1000:.1f} ms, wall {wall / made * 1000:.1f} ms")
    finally:
        stop_server(server)


if __name__ == "__main__":
    main()
