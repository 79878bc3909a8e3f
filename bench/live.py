"""Live tables under load: simulated players play through the HTTP API while spectators hold live
streams open, with PostgreSQL, Redis, the ASGI server, a Celery worker and the beat on this machine.

Run by hand: ``.venv/bin/python bench/live.py [--tables 250] [--minutes 5] [--kill-worker] [--ramp]
[--goat N] [--floor FILE]``.

It uses its own PostgreSQL database (``domino_bench_live``, dropped, created and migrated) and
Redis database (``redis://127.0.0.1:6379/7``, emptied first). It builds a tournament in-process
(bulk: four players a table, their PIN hashed by MD5, ``bench/livesettings.py``), one tour drawn,
published and started with every table digital, then starts what ``config/run.sh`` starts:
``gunicorn config.asgi`` with 2 of the project's uvicorn workers (``config.server.Worker``), the clocks' ``celery worker`` (2 processes, the
timers' and the sweep's queues) and ``celery beat``, on queues of the bench's own.

Each table is one coroutine holding its four players' phones: each player takes his seat
(``POST .../live/seat/`` with his PIN: the X-Seat-Token), then every move goes through
``POST .../live/move/`` for its turn, after thinking as ``demo_players.think_time`` decides: 2 to 8 s
(never past 80 % of the allowance), one move in twenty too slow on purpose (0.5 to 3 s past the
deadline and its grace). A phone keeps its hand from the answers it gets and reads its view
(``GET .../live/``) when its deal's hand is unknown or it leads. In another process, the
spectators (4 a table by default) hold ``/api/tournaments/<slug>/live/events/?tour=1&table=N``
open and time each event from its ``at`` (the database's clock when the change took its number,
the transaction's last statement before the commit) to its arrival.

Afterwards it reads from the database every clock lapse (``ClockLapse.at - deadline``: how late
each timeout was recorded, and by which path), and checks that none was missed or doubled: for
each move, the seconds charged say how many deadlines had passed (``floor(seconds / allowance)``,
the allowance as the players saw it) and exactly that many lapses must be recorded for its turn;
each lapse has its timeout entry and its engine violation, none recorded before its deadline; at
the end no running clock has a deadline more than a second past.

Its CPU per move is the CPU of the web processes, the Celery worker, the beat, PostgreSQL and the
Redis server during the play, divided by the moves served; ``--floor FILE`` (``bench/floor.py``'s
``--json``, run alone just before) prints its ratio to the floor's (the issue's target: at most 4).

``--kill-worker``: halfway, the Celery worker is killed (SIGKILL, its pool too) and started again
5 s later; 15 s after it, one of the two web workers is killed (SIGKILL) and gunicorn starts another.
The phones and the spectators then do what the real ones do: a move or a read whose connection
broke reads the table again and goes on from what it shows (the move was stored, or is made
again for the turn it is at); a stream that broke reconnects with the number of the last event it
got (``after``). Afterwards every move a phone was answered for must be stored once, and every
spectator must have got each event of its table from its first one on, once, or a ``reset`` that
redraws its table past it (a stream asked to replay more than ``LIVE_REPLAY_MAX_EVENTS`` numbers of
the tournament: a quiet table's screen after a break). ``--goat N``: besides the ``--tables``, N Goat tables with a bazaar (an individual Goat event of
three players a table, one game to ``--target``, in a tournament of its own) are played in the
same run, their phones drawing from the bazaar when nothing fits (``POST .../live/draw/``), their
screens among the spectators, and every check covers both tournaments: a hall of mixed games.
``--ramp``: the players think ever faster in steps (x1, x1.5, x2, x3, x4, x6, x8), each
``--step`` seconds: the move rate and the latency of each step, and the highest rate with p99
under 500 ms. ``--profile-web FILE``: each web worker runs under the standard profiler in every
thread (``bench/webprofile.py``) and writes ``FILE.<pid>`` when it stops (read with ``pstats``;
the profiler slows the workers several times, so read its shares, not its times). Otherwise the
garbage collector's passes in the web workers are timed (``bench/webgc.py``) and summed up by
generation: a pass holds a whole worker. Traffic goes to
127.0.0.1 only; every process started here is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import math
import multiprocessing
import os
import platform
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

import webgc
from benchdb import setup_django
from recording import (cpu_seconds, free_port, percentile, pg_version, server_cpu, stop_server, wait_until_up,
                       worker_pids)

ROOT = Path(__file__).resolve().parent.parent
PIN = "2468"
SLUG = "bench-live"
#: One move in this many is deliberately too slow (the issue's one in twenty).
SLOW_ONE_IN = 20
#: Seconds a normal move takes to think, before the ramp's factor.
PACE = (2.0, 8.0)
RAMP = (1, 1.5, 2, 3, 4, 6, 8)
TARGETS = {"move_p99": 0.150, "push_p99": 1.0, "lapse_p99": 1.0, "ramp_p99": 0.500, "floor_ratio": 4.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--minutes", type=float, default=5, help="how long the players play (not with --ramp)")
    parser.add_argument("--spectators", type=int, help="live streams held open (default: 4 a table)")
    parser.add_argument("--target", type=int, default=75, help="points a partition is played to")
    parser.add_argument("--kill-worker", action="store_true", help="SIGKILL the Celery worker halfway, restart it")
    parser.add_argument("--ramp", action="store_true", help="play ever faster, in steps")
    parser.add_argument("--step", type=float, default=50, help="seconds of each ramp step")
    parser.add_argument("--database-url", default=os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/domino_bench_live"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"))
    parser.add_argument("--floor", type=Path, help="bench/floor.py's --json file: CPU per move against the floor's")
    parser.add_argument("--profile-web", type=Path, metavar="FILE",
                        help="profile the web workers (bench/webprofile.py): FILE.<pid> each, read with pstats")
    parser.add_argument("--goat", type=int, default=0,
                        help="besides the --tables, this many Goat tables with a bazaar (three players each), in a "
                             "tournament of their own, played in the same run: a hall of mixed games")
    args = parser.parse_args()
    floor = json.loads(args.floor.read_text()) if args.floor else None  # a wrong file fails before the build
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stopped: still stop the services
    spectators = (args.tables + args.goat) * 4 if args.spectators is None else args.spectators
    os.environ["DJANGO_SETTINGS_MODULE"] = "livesettings"
    os.environ["REDIS_URL"] = args.redis_url
    drop_database(args.database_url)  # an earlier run's clocks would keep the sweep busy
    setup_django(args.database_url)
    import redis
    from django.db import connection

    redis.Redis.from_url(args.redis_url).flushdb()
    started = time.perf_counter()
    slug, tables = build(args.tables, args.target)
    slugs = [slug]
    if args.goat:
        goat, goat_tables = build(args.goat, args.target, game="goat")
        slugs.append(goat)
        tables += goat_tables
    print(f"built {', '.join(slugs)}: {args.tables} + {args.goat} tables, {4 * args.tables + 3 * args.goat} players, "
          f"in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    connection.close()

    services = Services(args.database_url, args.redis_url, args.profile_web)
    load = os.getloadavg()[0]
    try:
        services.start()
        from scoring.live import play
        from tournaments.models import Tour

        # The tours start now that the clock service runs: no-show deadlines, then the seats.
        for tour in Tour.objects.filter(tournament__slug__in=slugs, number=1).select_related("tournament"):
            play.start_tour(tour.tournament.created_by, tour)
        connection.close()
        duration = len(RAMP) * args.step if args.ramp else args.minutes * 60
        # Seats are taken over the first seconds, as players arrive; the streams open before.
        arrival = min(30.0, len(tables) * 0.08)
        watchers, results = start_spectators(services.port, [(t["slug"], t["table"]) for t in tables], spectators,
                                             duration + arrival + 5)
        time.sleep(min(10.0, 1 + spectators / 200))  # the streams are open before the first move
        cpu_before = services.cpu()
        own_before = resource.getrusage(resource.RUSAGE_SELF)
        run = asyncio.run(play_all(services, tables, duration, arrival, args.ramp, args.step, args.kill_worker))
        own_after = resource.getrusage(resource.RUSAGE_SELF)
        cpu_after = services.cpu()
        time.sleep(3)  # the last timers and sweeps of the clocks still running
        # Received before the join: a large result fills the pipe, and the sender waits for it.
        pushed = results.recv() if results.poll(duration + 120) else None
        watchers.join(timeout=30)
    finally:
        stopped = time.time()
        services.stop()
    connection.close()
    client_cpu = own_after.ru_utime + own_after.ru_stime - own_before.ru_utime - own_before.ru_stime
    run.stopped = stopped
    report(args, slugs, run, pushed, load, {k: cpu_after[k] - cpu_before.get(k, 0) for k in cpu_after}, client_cpu,
           floor, services.collector)


def drop_database(url: str) -> None:
    """Drop the bench's own database (setup_django creates and migrates it again)."""
    import psycopg

    parsed = urlparse(url)
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parsed.path.lstrip("/")}" WITH (FORCE)')


# -- the tournament ------------------------------------------------------------------------------


def build(tables: int, target: int, game: str = "sports") -> tuple[str, list[dict]]:
    """A tournament of ``tables`` x 4 players in pairs, one tour drawn, every table digital,
    published: not started yet. ``game="goat"``: an individual Goat event of ``tables`` x 3
    players (each table with a bazaar of seven), one game to ``target`` a table."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from scoring.live import play
    from tournaments import services, tours
    from tournaments.models import Entry, Pair, Player, Tournament

    User = get_user_model()
    organiser = User.objects.filter(username="bench-live-org").first() or \
        User.objects.create_superuser("bench-live-org", password=None)
    goat = game == "goat"
    slug = f"{SLUG}-{'goat-' if goat else ''}{int(time.time())}"
    today = datetime.date.today()
    tournament = services.create_tournament(
        organiser, name=slug, slug=slug, starts_on=today, ends_on=today,
        format=Tournament.Format.INDIVIDUAL if goat else Tournament.Format.SWISS,
        regulations={"game": "goat", "players": 3, "lose_at": target} if goat else {"target": target})
    pin = make_password(PIN)  # one salt for all: the bench's players, never a real site's
    seats = 3 if goat else 4
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(last_name=f"Игрок {slug} {n}", pin=pin)
                                             for n in range(seats * tables))
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
        if not goat:
            Pair.objects.bulk_create(Pair(tournament=tournament, number=n + 1, first=players[2 * n],
                                          second=players[2 * n + 1]) for n in range(2 * tables))
    tour = tours.generate_tour(organiser, tournament)
    play.set_tour_play_mode(organiser, tour, "digital")
    tours.publish_tour(organiser, tour)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    plan = [{"table": t.number, "partition": t.partition.pk, "slug": slug, "seats": seats}
            for t in tour.tables.select_related("partition").order_by("number")]
    assert all(sum(getattr(t, f"seat{n}_id") is not None for n in range(1, 5)) == seats for t in tour.tables.all())
    return slug, plan


# -- the services --------------------------------------------------------------------------------


class Services:
    """What config/run.sh starts, each in a session of its own: gunicorn (ASGI, 2 uvicorn
    workers), the clocks' Celery worker (2 processes) and the beat, on queues of the bench's own."""

    def __init__(self, database_url: str, redis_url: str, profile: Path | None = None) -> None:
        self.port = free_port()
        self.profile = profile
        self.dir = Path(tempfile.mkdtemp(prefix="bench-live-"))
        self.env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                    "DJANGO_SETTINGS_MODULE": "livesettings", "PYTHONPATH": f"{ROOT / 'bench'}:{ROOT}",
                    "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1", "VAR_DIR": str(self.dir),
                    "SECRET_KEY": "bench-live-" + "x" * 50, "CELERY_TASK_DEFAULT_QUEUE": "bench-live",
                    # Every spectator connects from this host: one address.
                    "LIVE_STREAMS_PER_ADDRESS": "100000", "WEB_PROFILE": str(profile or "")}
        self.env.pop("HTTPS", None)
        self.web: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.worker_logs = 0
        self.collector: str | None = None  # the web workers' collector passes (bench/webgc.py)
        self.gone: dict[str, float] = {}  # CPU of processes that ended (the killed worker)

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        with (self.dir / f"{name}.log").open("ab") as out:
            return subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)

    def start(self) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.start_worker()
        self.beat = self._start("beat", [*celery, "beat", "--loglevel=warning"])
        self.web = self._start("web", [sys.executable, "-m", "gunicorn", "config.asgi:application",
                                       "--worker-class", "config.server.Worker", "--workers", "2",
                                       "--graceful-timeout", "5", "--bind", f"127.0.0.1:{self.port}",
                                       "--backlog", "4096", "--log-level", "warning",
                                       "-c", str(ROOT / "bench" / ("webprofile.py" if self.profile else "webgc.py"))])
        wait_until_up(self.port, self.web, self.dir / "web.log")
        self.wait_worker()

    def start_worker(self) -> None:
        self.worker_logs += 1
        self.worker = self._start(f"worker-{self.worker_logs}", [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=2", "--loglevel=info",
            "-Q", "bench-live.sweep"])  # run.sh's clocks' worker

    def wait_worker(self, limit: float = 60) -> None:
        log = self.dir / f"worker-{self.worker_logs}.log"
        deadline = time.monotonic() + limit
        while b" ready." not in log.read_bytes():
            if self.worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the Celery worker did not start; see {log}")
            time.sleep(0.2)

    def kill_worker(self) -> None:
        """SIGKILL the worker and its pool processes at once, as a crash of the machine's worker."""
        assert self.worker is not None
        pids = [self.worker.pid, *worker_pids(self.worker)]
        self.gone["worker"] = self.gone.get("worker", 0) + cpu_seconds(pids)
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        self.worker.wait()

    def kill_web(self) -> None:
        """SIGKILL one web worker, as a crash: gunicorn starts another."""
        assert self.web is not None
        pid = worker_pids(self.web)[0]
        self.gone["web"] = self.gone.get("web", 0) + cpu_seconds([pid])
        os.kill(pid, signal.SIGKILL)

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far by the web workers, the Celery worker and pool, the beat,
        PostgreSQL's processes and the Redis server."""
        used = {"web": (cpu_seconds(worker_pids(self.web)) if self.web else 0.0) + self.gone.get("web", 0)}
        worker = cpu_seconds([self.worker.pid, *worker_pids(self.worker)]) if self.worker.poll() is None else 0.0
        used["worker"] = worker + self.gone.get("worker", 0)
        used["beat"] = cpu_seconds([self.beat.pid]) if self.beat else 0.0
        used["postgres"] = server_cpu("postgres")
        used["redis"] = server_cpu("redis-server")
        return used

    def stop(self) -> None:
        for process in (self.web, self.worker, self.beat):
            if process is not None:
                stop_server(process)
        self.collector = webgc.summary(str(self.dir))
        # What failed on the server: the last line of each traceback, counted.
        web = (self.dir / "web.log").read_text(errors="replace").splitlines() if self.web else []
        errors = Counter(line for line, after in zip(web, web[1:] + [""])
                         if line and not line.startswith((" ", "Traceback")) and not after.startswith(" ")
                         and ("Error" in line or "Exception" in line or "Timeout" in line))
        for line, count in errors.most_common(5):
            print(f"server error x{count}: {line[:200]}", file=sys.stderr)
        shutil.rmtree(self.dir, ignore_errors=True)


# -- the players ---------------------------------------------------------------------------------


class Run:
    """What the players measured."""

    def __init__(self) -> None:
        self.moves: list[tuple[float, float]] = []  # (when answered, seconds) of each move request
        self.reads: list[float] = []
        self.draws: list[float] = []  # Goat: each draw from the bazaar (not a move)
        self.seats: list[float] = []
        self.allowance: dict[tuple[int, int], int] = {}  # (partition, turn) -> allowance seen
        self.statuses: Counter[str] = Counter()
        self.finished = 0
        self.kill: tuple[float, float] | None = None
        self.web_killed: float | None = None
        self.answered: list[tuple[int, int]] = []  # (partition, turn) of each move answered 200
        self.steps: list[tuple[float, float, float]] = []  # ramp: (factor, from, to)
        self.began = self.ended = self.stopped = 0.0
        self.last_seat = 0.0  # when the last seat claim was answered


async def play_all(services: Services, tables: list[dict], duration: float, arrival: float, ramp: bool,
                   step: float, kill: bool) -> Run:
    import aiohttp

    run = Run()
    base = f"http://127.0.0.1:{services.port}"
    pace = {"factor": 1.0}
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(base, connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as session:
        run.began = time.time()
        stop_at = run.began + arrival + duration
        players = [asyncio.create_task(table_players(session, t, run, pace, stop_at, k * arrival / len(tables)))
                   for k, t in enumerate(tables)]
        if ramp:
            moment = run.began + arrival
            await asyncio.sleep(arrival)
            for factor in RAMP:
                pace["factor"] = factor
                await asyncio.sleep(step)
                run.steps.append((factor, moment, time.time()))
                moment = time.time()
        elif kill:
            await asyncio.sleep(arrival + duration / 2)
            killed = time.time()
            await asyncio.to_thread(services.kill_worker)
            await asyncio.sleep(5)
            await asyncio.to_thread(services.start_worker)
            await asyncio.to_thread(services.wait_worker)
            run.kill = (killed, time.time())
            await asyncio.sleep(max(0.0, killed + 15 - time.time()))
            run.web_killed = time.time()
            await asyncio.to_thread(services.kill_web)
        for failed in await asyncio.gather(*players, return_exceptions=True):
            if isinstance(failed, Exception):  # one table's phones gave up; the others go on
                run.statuses[f"table failed: {type(failed).__name__}"] += 1
        run.ended = time.time()
    return run


def fits(tile: str, ends: list[int]) -> list[str]:
    a, b = (int(x) for x in tile.split("-"))
    return [side for side, pips in zip(("left", "right"), ends) if pips in (a, b)]


async def table_players(session, table: dict, run: Run, pace: dict, stop_at: float, delay: float) -> None:
    """The phones of one table (four; three at a Goat table): seats, then every move until the
    partition ends or time is up. A Goat player with nothing that fits draws from the bazaar first."""
    import aiohttp

    from scoring.management.commands.demo_players import think_time

    pid = table["partition"]
    url = f"/api/partitions/{pid}/live/"
    await asyncio.sleep(delay)
    tokens: dict[int, str] = {}
    for seat in range(1, table["seats"] + 1):
        began = time.perf_counter()
        async with session.post(url + "seat/", json={"seat": seat, "pin": PIN}) as response:
            body = await response.json()
            run.seats.append(time.perf_counter() - began)
            run.last_seat = time.time()
            run.statuses[f"seat {response.status}"] += 1
            if response.status != 200:
                print(f"table {table['table']}: seat {seat}: {response.status} {body}", file=sys.stderr)
                return
        tokens[seat] = body["token"]
    hands: dict[int, tuple[int, list[str]]] = {}  # seat -> (deal, hand) as his phone last saw it

    async def read(seat: int) -> dict:
        while True:
            began = time.perf_counter()
            try:
                async with session.get(url, headers={"X-Seat-Token": tokens[seat]}) as response:
                    state = await response.json(content_type=None)
            except (aiohttp.ClientError, asyncio.TimeoutError) as error:  # the phone tries again
                run.statuses[f"read broken: {type(error).__name__}"] += 1
                await asyncio.sleep(0.5)
                continue
            run.reads.append(time.perf_counter() - began)
            run.statuses[f"read {response.status}"] += 1
            if response.status == 200:
                return state
            print(f"table {table['table']}: read: {response.status} {state}", file=sys.stderr)
            await asyncio.sleep(1)  # a refused read (an overloaded server): the phone tries again

    def keep_hands(state: dict) -> None:
        current = state.get("current")
        for seat, hand in (current or {}).get("hands", {}).items():
            hands[int(seat)] = (state["live"]["deal"], hand)

    state = await read(1)
    keep_hands(state)
    while time.time() < stop_at:
        live = state["live"]
        if state["result"]["status"] == "finished":
            run.finished += 1
            return
        seat, turn, current = live["seat"], live["turn"], state.get("current")
        if seat is None or current is None:
            await asyncio.sleep(0.5)
            state = await read(1)
            continue
        leads_blind = current["ends"] is None and current.get("legal") is None
        if leads_blind or hands.get(seat, (None,))[0] != live["deal"]:
            state = await read(seat)  # his new hand, or his legal leads (the engine's opening rule)
            keep_hands(state)
            continue
        allowance = live["allowance"]
        run.allowance[(pid, turn)] = allowance
        think = think_time(pid, turn, allowance, slow_one_in=SLOW_ONE_IN, pace=PACE)
        if think < allowance * 0.8 + 0.01:  # a normal move gets faster with the ramp, a slow one stays slow
            think /= pace["factor"]
        await asyncio.sleep(max(0.0, think - max(0.0, time.time() - _seen(state))))
        if time.time() >= stop_at:
            break
        if current.get("legal") is not None and current["to_move"] == seat:
            options = [(m["tile"], m.get("end")) for m in current["legal"] if "tile" in m]
        else:
            options = [(tile, side) for tile in hands[seat][1] for side in fits(tile, current["ends"])]
        body: dict = {"turn": turn}
        action = "move"
        if options:
            tile, side = random.Random(pid * 7919 + turn).choice(options)
            body.update(tile=tile, end=side)
        elif current.get("bazaar"):  # Goat: nothing fits and the bazaar has tiles
            action = "draw"
        else:
            body["pass"] = True
        began = time.perf_counter()
        try:
            async with session.post(url + f"{action}/", json=body,
                                    headers={"X-Seat-Token": tokens[seat]}) as response:
                answer = await response.json(content_type=None)
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            # Stored or not, nobody knows: the phone reads the table and goes on from there.
            run.statuses[f"{action} broken: {type(error).__name__}"] += 1
            state = await read(seat)
            keep_hands(state)
            continue
        took = time.perf_counter() - began
        run.statuses[f"{action} {response.status}"] += 1
        if response.status == 200 and action == "draw":  # the same turn goes on with the tile drawn
            run.draws.append(took)
            state = answer
            keep_hands(state)
        elif response.status == 200:
            run.moves.append((time.time(), took))
            run.answered.append((pid, turn))
            state = answer
            keep_hands(state)
        else:  # 409: a timeout ended the deal or the partition meanwhile; 400: read the legal moves
            if response.status != 409:
                print(f"table {table['table']}: move {body}: {response.status} {answer}", file=sys.stderr)
            state = await read(seat)
            keep_hands(state)


def _seen(state: dict) -> float:
    """When the turn of ``state`` began, by the server's clock (the same machine's)."""
    started = state["live"]["turn_started_at"]
    return datetime.datetime.fromisoformat(started).timestamp() if started else time.time()


# -- the spectators ------------------------------------------------------------------------------


def start_spectators(port: int, tables: list[tuple[str, int]], count: int, seconds: float):
    """The spectators of ``tables`` (each its tournament's slug and its number), in a process of
    their own (their parsing must not delay the players')."""
    receiver, sender = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.get_context("fork").Process(target=spectate, args=(port, tables, count, seconds,
                                                                               sender), daemon=True)
    process.start()
    return process, receiver


def spectate(port: int, tables: list[tuple[str, int]], count: int, seconds: float, sender) -> None:
    sender.send(asyncio.run(_spectate(port, tables, count, seconds)))


async def _spectate(port: int, tables: list[tuple[str, int]], count: int, seconds: float) -> dict:
    import aiohttp

    got: list[tuple[str, float]] = []
    watched: list[tuple[tuple[str, int], list[int]]] = []  # each screen's table and the numbers it got
    failures: Counter[str] = Counter()
    resets = 0
    stop_at = time.time() + seconds

    async def watch(slug: str, table: int) -> None:
        """One screen: from the first hello on, every event of its table, reconnecting with the
        number of the last one it got when the stream breaks, as a browser's EventSource does."""
        nonlocal resets
        url = f"http://127.0.0.1:{port}/api/tournaments/{slug}/live/events/?tour=1&table={table}"
        seen: list[int] = []
        watched.append(((slug, table), seen))
        last: int | None = None
        while time.time() < stop_at:
            try:
                async with session.get(url, headers={} if last is None else {"Last-Event-ID": str(last)}) as response:
                    if response.status != 200:
                        failures[f"status {response.status}"] += 1
                        await asyncio.sleep(1)
                        continue
                    kind, number = "", 0
                    async for line in response.content:
                        if line.startswith(b"id: "):
                            number = int(line[4:])
                        elif line.startswith(b"event: "):
                            kind = line[7:].strip().decode()
                        elif line.startswith(b"data: "):
                            if kind == "reset":  # the screen redraws its table as it is at this number
                                resets += 1
                                seen.append(-number)
                                last = number
                            elif kind == "hello":
                                if last is None:
                                    last = number
                                    seen.append(-number)  # where it began
                            else:
                                arrived = time.time()
                                at = json.loads(line[6:])["at"]
                                got.append((kind, arrived - datetime.datetime.fromisoformat(at).timestamp()))
                                seen.append(number)
                                last = number
            except (aiohttp.ClientError, asyncio.TimeoutError) as error:
                failures[type(error).__name__] += 1
                await asyncio.sleep(0.5)  # the browser's retry

    async def until_time() -> None:
        await asyncio.sleep(max(0.0, stop_at - time.time()))

    timeout = aiohttp.ClientTimeout(total=None, sock_read=60)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=timeout) as session:
        streams = [asyncio.create_task(watch(*tables[k % len(tables)])) for k in range(count)]
        await until_time()
        for stream in streams:
            stream.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return {"events": got, "failures": dict(failures), "resets": resets, "streams": count, "watched": watched,
            "until": stop_at}


# -- the check and the report ---------------------------------------------------------------------


def lapses(slugs: list[str], run: Run) -> dict:
    """Every clock lapse of the tournaments, and whether any was missed or doubled."""
    from scoring.models import ClockLapse, LiveTable, Partition, PartitionChange
    from scoring.recording.pipeline import GAMES
    from scoring.engine import Sitting

    partitions = Partition.objects.filter(table__tour__tournament__slug__in=slugs).select_related(
        "table__tour__tournament")
    # The clocks stopped with the services: a deadline more than 1 s before that is overdue.
    cutoff = datetime.datetime.fromtimestamp(run.stopped - 1, datetime.timezone.utc)
    recorded = list(ClockLapse.objects.filter(partition__in=partitions).values_list(
        "partition_id", "turn", "lapse", "deadline", "at", "by"))
    per_turn: Counter[tuple[int, int]] = Counter((p, t) for p, t, *_ in recorded)
    problems: list[str] = []
    early = [r for r in recorded if r[4] < r[3]]
    problems += [f"partition {p} turn {t} lapse {n} recorded before its deadline" for p, t, n, *_ in early]
    missed = doubled = unknown = 0
    for pid, data in PartitionChange.objects.filter(partition__in=partitions, action="move").values_list(
            "partition_id", "data"):
        allowance = run.allowance.get((pid, data["turn"]))
        if allowance is None:
            unknown += 1
            continue
        due = math.floor(data["seconds"] / allowance + 1e-9)
        got = per_turn[(pid, data["turn"])]
        if got < due:
            missed += due - got
            problems.append(f"partition {pid} turn {data['turn']}: {data['seconds']} s charged of {allowance} s, "
                            f"{got} lapse(s) recorded")
        elif got > due:
            doubled += got - due
            problems.append(f"partition {pid} turn {data['turn']}: {data['seconds']} s charged of {allowance} s, "
                            f"{got} lapse(s) recorded")
    timeouts = Counter(PartitionChange.objects.filter(partition__in=partitions, action="timeout")
                       .values_list("partition_id", flat=True))
    lapsed = Counter(p for p, *_ in recorded)
    for partition in partitions.filter(pk__in=lapsed):
        played = GAMES.of(partition.table.tour.tournament.kind).load(partition)
        games = played.games if isinstance(played, Sitting) else [played]  # a sitting of Goat games, or a partition
        violations = sum(1 for game in games for v in game.violations if v.code == "move_time")
        if not violations == timeouts[partition.pk] == lapsed[partition.pk]:
            doubled += 1
            problems.append(f"partition {partition.pk}: {lapsed[partition.pk]} lapses, {timeouts[partition.pk]} "
                            f"timeout entries, {violations} move_time violations")
    overdue = LiveTable.objects.filter(partition__in=partitions, paused_at__isnull=True,
                                       deadline__lt=cutoff).count()
    if overdue:
        missed += overdue
        problems.append(f"{overdue} running clock(s) more than 1 s past their deadline, unrecorded")
    # No pause in the bench: an extended clock means the sweep was silent past CLOCK_OUTAGE_SECONDS
    # (the outage rule), after which charged seconds and recorded lapses no longer match by design.
    extended = LiveTable.objects.filter(partition__in=partitions, clock_paused__gt=0).count()
    if extended:
        problems.insert(0, f"OUTAGE: the clocks of {extended} tables were extended (the sweep was silent past "
                           f"CLOCK_OUTAGE_SECONDS): the missed/doubled counts below are not a verdict")
    return {"recorded": recorded, "missed": missed, "doubled": doubled, "unknown": unknown, "problems": problems}


def kept(slugs: list[str], run: Run, pushed: dict | None) -> dict:
    """Nothing lost or doubled across broken connections: every move a phone was answered for is
    stored, and no turn has two moves; every screen got each event of its table once, from the
    hello it began with to a few seconds before the end (what came later may be cut by the stop)."""
    from scoring.models import LiveEvent, PartitionChange

    stored = Counter((pid, data["turn"]) for pid, data in PartitionChange.objects.filter(
        partition__table__tour__tournament__slug__in=slugs, action="move").values_list("partition_id", "data"))
    found = {"moves lost": sum(1 for move in run.answered if not stored[move]),
             "turns with two moves": sum(1 for count in stored.values() if count > 1),
             "events missed": 0, "events doubled": 0, "screens": 0}
    if pushed is None:
        return found
    cutoff = min(run.ended, pushed["until"]) - 3
    events: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for slug, table, number, at in LiveEvent.objects.filter(tournament__slug__in=slugs, table__isnull=False).values_list(
            "tournament__slug", "table__number", "number", "at"):
        events.setdefault((slug, table), []).append((number, at.timestamp()))
    for table, seen in pushed["watched"]:
        if not seen or seen[0] >= 0:
            continue  # never connected (counted among the stream failures)
        found["screens"] += 1
        got = [n for n in seen if n > 0]
        found["events doubled"] += len(got) - len(set(got))
        # A hello or a reset (negative: its number) brings the screen to that number: the events up
        # to it are drawn; those after it must come one by one.
        covered: list[tuple[int, int]] = []
        upto = 0
        for number in seen:
            if number < 0:
                covered.append((upto, -number))
            upto = abs(number)
        expected = {n for n, at in events.get(table, []) if at < cutoff
                    and not any(low < n <= high for low, high in covered)}
        found["events missed"] += len(expected - set(got))
    return found


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {ms(statistics.median(values))}, p99 {ms(percentile(values, 0.99))}, max {ms(max(values))}"


def verdict(value: float | None, target: float) -> str:
    return "n/a" if value is None else ("met" if value < target else "NOT met")


def report(args, slugs: list[str], run: Run, pushed: dict | None, load: float, cpu: dict[str, float],
           client_cpu: float, floor: dict | None, collector: str | None) -> None:
    clocks = lapses(slugs, run)
    wall = run.ended - run.began
    moves = [t for _, t in run.moves]
    print(f"\nmachine: {os.cpu_count()} cores ({platform.processor() or platform.machine()}), Python "
          f"{platform.python_version()}, PostgreSQL {pg_version()}; load average before {load:.2f}")
    goat = f" and {args.goat} Goat tables ({3 * args.goat} players)" if args.goat else ""
    print(f"run: {args.tables} tables ({4 * args.tables} players){goat}, {pushed['streams'] if pushed else 0} live streams, "
          f"{wall:.0f} s; {len(moves)} moves ({len(moves) / wall:.1f}/s), {run.finished} partitions finished "
          f"(to {args.target}); {dict(run.statuses)}")
    print(f"seat claims: {spread(run.seats)}; reads of a phone's view: {spread(run.reads)}"
          + (f"; draws from the bazaar: {len(run.draws)}, {spread(run.draws)}" if run.draws else ""))
    print("CPU during the play: " + ", ".join(f"{k} {v:.0f} s" for k, v in cpu.items())
          + f", players' client {client_cpu:.0f} s, of {(os.cpu_count() or 1) * wall:.0f} s")
    if collector:
        print(f"the collector in the web workers (bench/webgc.py): {collector}")
    rows = []
    if moves:
        # The server's CPU (web, worker, beat, PostgreSQL, Redis; not the players' client) over the moves served.
        per_move = sum(cpu.values()) / len(moves) * 1000
        print(f"CPU per move: {per_move:.1f} ms (" + ", ".join(f"{k} {v / len(moves) * 1000:.1f}"
                                                               for k, v in cpu.items()) + " ms)")
        if floor is not None:
            ratio = per_move / floor["cpu_per_move_ms"]
            rows.append(("CPU per move, against the floor",
                         f"{per_move:.1f} ms, {ratio:.1f} x the floor's {floor['cpu_per_move_ms']:.2f} ms "
                         f"(bench/floor.py, {floor['moves_per_second']:.0f} moves/s, {floor['date']})",
                         f"at most {TARGETS['floor_ratio']:.0f} x",
                         "met" if ratio <= TARGETS["floor_ratio"] else "NOT met"))
    rows.append(("move request latency", spread(moves), "p99 < 150 ms",
                 verdict(percentile(moves, 0.99) if moves else None, TARGETS["move_p99"])))
    # The tour's start is a burst of 1,000 seat claims (a PIN check each) besides the first moves.
    after = [t for at, t in run.moves if at - t > run.last_seat]
    rows.append((f"  moves sent after the last seat claim (+{run.last_seat - run.began:.0f} s)",
                 f"{len(after)} moves: {spread(after)}", "", ""))
    if pushed:
        events = [t for _, t in pushed["events"]]
        move_events = [t for k, t in pushed["events"] if k == "move"]
        rows.append(("push, commit to spectator (all events)", f"{len(events)} events: {spread(events)}",
                     "p99 < 1 s", verdict(percentile(events, 0.99) if events else None, TARGETS["push_p99"])))
        rows.append(("push, move events only", spread(move_events), "", ""))
        if pushed["failures"]:
            print(f"stream failures: {pushed['failures']}")
    # The clocks run on after the phones stop, until the services do: those lapses are checked
    # (missed, doubled) but not timed with the play's.
    played = [r for r in clocks["recorded"] if r[3].timestamp() <= run.ended]
    delays = [(r[4] - r[3]).total_seconds() for r in played]
    if run.kill:
        killed, back = run.kill
        outside = [d for d, r in zip(delays, played)
                   if not killed - 1 <= r[3].timestamp() <= back + 1]
        print(f"worker killed at +{killed - run.began:.0f} s, ready again at +{back - run.began:.0f} s; "
              f"a web worker killed at +{(run.web_killed or run.began) - run.began:.0f} s")
        rows.append(("timeout delay, deadlines outside the outage", spread(outside), "p99 < 1 s",
                     verdict(percentile(outside, 0.99) if outside else None, TARGETS["lapse_p99"])))
    rows.append(("timeout delay (ClockLapse.at - deadline)",
                 f"{len(delays)} lapses during the play ({dict(Counter(r[5] for r in played))}; "
                 f"{len(clocks['recorded']) - len(played)} more after it): {spread(delays)}", "p99 < 1 s",
                 verdict(percentile(delays, 0.99) if delays else None, TARGETS["lapse_p99"])))
    rows.append(("deadlines missed / doubled", f"{clocks['missed']} / {clocks['doubled']}", "0 / 0",
                 "met" if clocks["missed"] == clocks["doubled"] == 0 else "NOT met"))
    held = kept(slugs, run, pushed)
    rows.append(("moves answered and lost / turns moved twice", f"{held['moves lost']} of {len(run.answered)} / "
                 f"{held['turns with two moves']}", "0 / 0",
                 "met" if held["moves lost"] == held["turns with two moves"] == 0 else "NOT met"))
    rows.append(("events a screen missed / got twice", f"{held['events missed']} / {held['events doubled']} "
                 f"({held['screens']} screens, {pushed['resets'] if pushed else 0} redrawn by a reset)", "0 / 0",
                 "met" if held["events missed"] == held["events doubled"] == 0 else "NOT met"))
    if run.steps:
        best = None
        for factor, since, until in run.steps:
            step = [t for at, t in run.moves if since <= at < until]
            rate = len(step) / (until - since)
            p99 = percentile(step, 0.99) if step else math.inf
            print(f"ramp x{factor}: {rate:.1f} moves/s, {spread(step)}")
            if p99 < TARGETS["ramp_p99"]:
                best = max(best or 0, rate)
        rows.append(("highest move rate with p99 < 500 ms", f"{best:.1f} moves/s" if best else "none", "", ""))
    width = max(len(r[0]) for r in rows)
    print()
    for name, figure, target, met in rows:
        print(f"{name:<{width}}  {figure}  [{target}{': ' + met if met else ''}]")
    if clocks["unknown"]:
        print(f"({clocks['unknown']} moves of turns the players' record lacks: not checked)")
    for problem in clocks["problems"][:20]:
        print("  " + problem)


if __name__ == "__main__":
    main()
