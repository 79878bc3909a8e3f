"""Recording deals through the API of a real server, 100 tables at once, on PostgreSQL.

Run by hand: ``.venv/bin/python bench/recording.py [--database-url URL] [--workers N]``.

It creates (or reuses) the database ``domino_bench_rec``, migrates it, and builds once a tournament
of 200 pairs: one published tour of 100 tables, 100 referees each assigned one table, an API token
for each (later runs reset the tour's partitions to empty). It starts ``gunicorn config.wsgi``
with several workers on a free port of 127.0.0.1, then 100 client threads (stdlib ``http.client``),
one per table, each recording with its referee's token the lead draw and then every deal of a
randomly played partition (``scoring.engine.simulate``), in summary form, each request with the
``version`` it saw and an ``Idempotency-Key``, until its partition ends. It measures each request
from send to the last byte of the answer, prints the median, the 99th percentile and the requests
per second, the time spent inside the server (gunicorn's access log), and, for comparison, the
requests of one table recorded alone before the 100 (its sheet emptied again after). It checks
in the database that every partition holds exactly the deals sent, its version equals the
requests sent and its totals are the simulation's (no lost or doubled update). The server is
stopped at the end. Traffic goes to 127.0.0.1 only; the run is bounded by
``--timeout``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from benchdb import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SLUG = "bench-recording"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/domino_bench_rec")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1,
                        help="gunicorn worker processes (default: 2 x cores + 1)")
    parser.add_argument("--seed", type=int, default=1, help="first seed of the random partitions")
    parser.add_argument("--timeout", type=float, default=300, help="seconds the clients may take in all")
    args = parser.parse_args()
    setup_django(args.database_url)
    from django.db import connection

    from scoring.models import Partition

    tour, tokens = prepare(args.tables)
    plans = plan(tour, tokens, args.seed)
    connection.close()

    log = ROOT / "var" / "bench-recording-gunicorn.log"
    access = ROOT / "var" / "bench-recording-access.log"
    port = free_port()
    load = os.getloadavg()[0]
    server = start_server(port, args.workers, args.database_url, log, access)
    try:
        wait_until_up(port, server, log)
        warm_up(port, plans)
        # One table alone first: the time of a request when nobody waits for a worker.
        alone, failures, _wall = run_clients(port, plans[:1], args.timeout)
        reset(Partition.objects.filter(pk=plans[0]["partition"]))
        connection.close()
        skip = len(access.read_text().splitlines())
        workers = worker_pids(server)
        cpu = (resource.getrusage(resource.RUSAGE_SELF), cpu_seconds(workers))
        latencies, more, wall = run_clients(port, plans, args.timeout)
        used = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = used.ru_utime + used.ru_stime - cpu[0].ru_utime - cpu[0].ru_stime
        server_cpu = cpu_seconds(workers) - cpu[1]
        failures += more
    finally:
        stop_server(server)

    requests = len(latencies)
    deals = sum(len(p["steps"]) - 1 for p in plans)
    print(f"machine: {os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
          f"Python {platform.python_version()}, PostgreSQL {pg_version()}; "
          f"server and the {len(plans)} client threads share these cores")
    print(f"server: gunicorn config.wsgi, {args.workers} sync workers, 127.0.0.1:{port}; "
          f"load average before the run {load:.2f}")
    print(f"{len(plans)} tables at once: {requests} requests ({len(plans)} lead draws, {deals} deals) "
          f"in {wall:.2f} s")
    if alone:
        print(f"one table alone first ({len(alone)} requests, one after the other): median "
              f"{statistics.median(alone) * 1000:.1f} ms, max {max(alone) * 1000:.1f} ms")
    if latencies:
        ordered = sorted(latencies)
        p99 = percentile(ordered, 0.99)
        print(f"latency per request: median {statistics.median(ordered) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms; {requests / wall:.0f} requests/s")
        served = server_times(access, skip)
        if served:
            print(f"time in the server (gunicorn's access log, without the wait for a free worker): "
                  f"median {statistics.median(served):.1f} ms, p99 {percentile(served, 0.99):.1f} ms")
    print(f"CPU during the 100 tables: {server_cpu:.1f} s in the gunicorn workers, {client_cpu:.1f} s in the "
          f"clients, of {(os.cpu_count() or 1) * wall:.1f} s of {os.cpu_count()} cores ({server_cpu / requests * 1000:.1f} ms of "
          f"worker CPU a request; the rest is PostgreSQL and the system)")
    problems = failures + verify(plans)
    if problems:
        print(f"FAILED: {len(problems)} problem(s)")
        for problem in problems[:20]:
            print("  " + problem)
        sys.exit(1)
    print(f"verified in the database: {len(plans)} partitions finished, every one with exactly the deals sent, "
          f"version = requests sent, the simulation's totals; {requests} changes stored, none lost or doubled")


# -- the event -----------------------------------------------------------------------------------


def prepare(tables: int):
    """The tour (built once through the services, its partitions emptied on later runs) and the
    referees' tokens by table number."""
    from rest_framework.authtoken.models import Token

    from scoring.models import Partition
    from tournaments.models import Tournament

    slug = f"{SLUG}-{tables}"
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        tournament = build(slug, tables)
    tour = tournament.tours.get(number=1)
    reset(Partition.objects.filter(table__tour=tour))
    tokens = {}
    for table in tour.tables.select_related("referee"):
        tokens[table.number] = Token.objects.get_or_create(user=table.referee)[0].key
    return tour, tokens


def reset(partitions) -> None:
    """Empty score sheets (a benchmark's reset, not an operation of the system)."""
    from django.db import transaction

    from scoring.models import Partition, PartitionChange
    from tournaments.models import Tour

    with transaction.atomic():
        PartitionChange.objects.filter(partition__in=partitions).delete()
        partitions.update(state=None, version=0, status=Partition.Status.SCHEDULED, winner="", reason="",
                          points_a=0, points_b=0, penalties_a=0, penalties_b=0, deals=0, started_at=None,
                          finished_at=None)
        Tour.objects.filter(tables__partition__in=partitions).update(status=Tour.Status.PUBLISHED)


def build(slug: str, tables: int):
    """200 pairs, tour 1 drawn, 100 referees assigned one table each, published."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments import services

    from tournaments import tours
    from tournaments.models import Entry, Pair, Player

    started = time.perf_counter()
    User = get_user_model()
    organiser = User.objects.filter(username="bench-rec-org").first() or \
        User.objects.create_superuser("bench-rec-org", password=None)
    tournament = services.create_tournament(organiser, name=slug, slug=slug, starts_on=datetime.date.today(),
                                            ends_on=datetime.date.today())
    pairs = 2 * tables
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(last_name=f"Игрок {slug} {n}") for n in range(2 * pairs))
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
        Pair.objects.bulk_create(Pair(tournament=tournament, number=n + 1, first=players[2 * n],
                                      second=players[2 * n + 1]) for n in range(pairs))
    referees = {}
    for n in range(1, tables + 1):
        name = f"bench-rec-ref-{n}"
        referee = User.objects.filter(username=name).first() or User.objects.create_user(name, password=None)
        services.add_role(organiser, tournament, name, "referee")
        referees[n] = referee
    tour = tours.generate_tour(organiser, tournament)
    services.assign_referees(organiser, tour, referees)
    tours.publish_tour(organiser, tour)
    print(f"built {slug}: {pairs} pairs, {tables} tables, in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return tournament


def plan(tour, tokens: dict[int, str], seed: int) -> list[dict]:
    """For each table: its partition, token, and the requests of a randomly played partition."""
    from scoring.engine.simulate import play_random_partition

    rules = tour.tournament.rules
    plans = []
    for table in tour.tables.select_related("partition").order_by("number"):
        game = play_random_partition(rules, seed=seed + table.number)
        steps = [("lead", {"seat": game.first_leader})]
        steps += [("deal", {"end": d.end, "seat": d.seat, "pips": {"A": d.pips[0], "B": d.pips[1]}})
                  for d in game.deals]
        plans.append({"table": table.number, "partition": table.partition.pk, "token": tokens[table.number],
                      "steps": steps, "totals": game.totals, "winner": game.decision.winner})
    return plans


# -- the server ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered)) - 1))]


def server_times(access: Path, skip: int) -> list[float]:
    """Milliseconds each recording request spent in a worker, from the access log (its first
    ``skip`` lines left out)."""
    times = []
    for line in access.read_text().splitlines()[skip:]:
        method, path, took = line.split()
        if method == "POST" and path.endswith("/record/"):
            times.append(int(took) / 1000)
    return times


def start_server(port: int, workers: int, database_url: str, log: Path, access: Path) -> subprocess.Popen:
    log.parent.mkdir(parents=True, exist_ok=True)
    access.unlink(missing_ok=True)
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings",
           "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1"}
    env.pop("HTTPS", None)
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers), "--timeout", "60", "--log-level", "warning", "--backlog", "2048",
               "--access-logfile", str(access), "--access-logformat", "%(m)s %(U)s %(D)s"]
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def wait_until_up(port: int, server: subprocess.Popen, log: Path, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode}; see {log}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/tournaments/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer in {limit:.0f} s; see {log}")


def worker_pids(server: subprocess.Popen) -> list[int]:
    """The gunicorn workers: the master's children."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return [int(pid) for pid in children]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far (Linux /proc)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def server_cpu(name: str) -> float:
    """CPU seconds of a server on this machine, every process named ``name`` (``postgres``: every
    database's backends and its background processes; ``redis-server``): those running, and those
    that ended, counted by the oldest (the server that waited for them) (Linux /proc)."""
    total = 0
    oldest = subprocess.run(["pgrep", "-o", "-x", name], capture_output=True, text=True).stdout.split()
    for pid in subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout.split():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue  # a process that just ended: its server's children's time has it
        total += int(fields[11]) + int(fields[12])
        if [pid] == oldest:
            total += int(fields[13]) + int(fields[14])  # cutime, cstime: the children that ended
    return total / os.sysconf("SC_CLK_TCK")


def stop_server(server: subprocess.Popen) -> None:
    """Stop the gunicorn started here: its master by its id (it stops its workers), then, if it
    does not, the process group it leads (started with a session of its own)."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()


# -- the clients ---------------------------------------------------------------------------------


def warm_up(port: int, plans: list[dict]) -> None:
    """Every worker imports the project and opens its database connection before the clock runs."""
    def read(chunk):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for p in chunk:
            conn.request("GET", f"/api/partitions/{p['partition']}/", headers={"Authorization": f"Token {p['token']}"})
            conn.getresponse().read()
        conn.close()

    threads = [threading.Thread(target=read, args=(plans[k::10],)) for k in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def run_clients(port: int, plans: list[dict], timeout: float) -> tuple[list[float], list[str], float]:
    start = threading.Barrier(len(plans) + 1)
    deadline = time.monotonic() + timeout
    latencies: list[list[float]] = [[] for _ in plans]
    failures: list[str] = []
    run = f"{time.time_ns():x}"

    def client(k: int, p: dict) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Authorization": f"Token {p['token']}", "Content-Type": "application/json",
                   "Accept-Language": "en"}
        start.wait()
        for version, (action, data) in enumerate(p["steps"]):
            if time.monotonic() > deadline:
                failures.append(f"table {p['table']}: out of time at request {version + 1}")
                return
            body = json.dumps({"action": action, "data": data, "version": version})
            key = f"{run}-{p['table']}-{version}"
            began = time.perf_counter()
            try:
                conn.request("POST", f"/api/partitions/{p['partition']}/record/", body,
                             headers={**headers, "Idempotency-Key": key})
                response = conn.getresponse()
                answer = response.read()
            except OSError as error:
                failures.append(f"table {p['table']}: request {version + 1}: {error}")
                return
            latencies[k].append(time.perf_counter() - began)
            if response.status != 200:
                failures.append(f"table {p['table']}: request {version + 1}: {response.status} {answer[:200]!r}")
                return
            if json.loads(answer)["version"] != version + 1:
                failures.append(f"table {p['table']}: request {version + 1} answered another version")
                return
        conn.close()

    threads = [threading.Thread(target=client, args=(k, p), daemon=True) for k, p in enumerate(plans)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()) + 65)
    wall = time.perf_counter() - began
    if any(thread.is_alive() for thread in threads):
        failures.append("some clients did not finish in time")
    return [t for per_client in latencies for t in per_client], failures, wall


# -- the check -----------------------------------------------------------------------------------


def verify(plans: list[dict]) -> list[str]:
    from scoring.models import Partition, PartitionChange

    problems = []
    stored = Partition.objects.in_bulk([p["partition"] for p in plans])
    changes = PartitionChange.objects.filter(partition__in=stored).count()
    for p in plans:
        partition = stored[p["partition"]]
        sent = len(p["steps"])
        got = (partition.deals, partition.version, (partition.points_a, partition.points_b), partition.status,
               partition.winner)
        expected = (sent - 1, sent, tuple(p["totals"]), "finished", p["winner"])
        if got != expected:
            problems.append(f"table {p['table']}: stored (deals, version, totals, status, winner) {got}, "
                            f"sent {expected}")
    if changes != sum(len(p["steps"]) for p in plans):
        problems.append(f"{changes} changes stored for {sum(len(p['steps']) for p in plans)} requests")
    return problems


def pg_version() -> str:
    from django.db import connection

    return str(connection.pg_version // 10000)


if __name__ == "__main__":
    main()
