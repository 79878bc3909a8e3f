"""The embedded default as `make run` serves it: a SQLite file, many writers at once, live
screens.

Whatever database the suite runs on, this module starts `make run`'s processes (config/run.sh: the
ASGI web server, a Celery worker and the beat) on a fresh SQLite file of its own (its own VAR_DIR
and DATABASE_URL, migrated, the demo loaded) and talks to them over HTTP only.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
SERVER_READY_TIMEOUT = 60
PARALLEL = 60
# Level fish deals: nobody scores (the points are carried), so however many are recorded in
# whatever order, the partition stays open and every one of them is accepted.
LEVEL_FISH = {"action": "deal", "data": {"end": "fish", "seat": 2, "pips": {"A": 10, "B": 10}}}


@dataclass
class Site:
    url: str
    var_dir: Path

    def request(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, object]:
        headers = {"Accept-Language": "en"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Token {token}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            content = error.read()
            try:
                return error.code, json.loads(content)
            except ValueError:
                return error.code, content.decode(errors="replace")

    def get(self, path: str, token: str | None = None):
        status, body = self.request("GET", path, token=token)
        assert status == 200, (path, status, body)
        return body

    def token(self, username: str, password: str) -> str:
        status, body = self.request("POST", "/api/auth/token/", {"username": username, "password": password})
        assert status == 200, body
        return body["token"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """`make run`'s web server and worker (config/run.sh) on a new SQLite file under a new VAR_DIR."""
    var_dir = tmp_path_factory.mktemp("embedded") / "var"  # not there yet: the settings create it
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "HTTPS"}}
    port = _free_port()
    env.update(VAR_DIR=str(var_dir), DATABASE_URL=f"sqlite:///{var_dir / 'db.sqlite3'}",
               BIN=str(Path(sys.executable).parent), ADDRESS=f"127.0.0.1:{port}",
               # A queue of its own: a developer's `make run` worker must not take this one's tasks.
               CELERY_TASK_DEFAULT_QUEUE=f"test-{uuid.uuid4().hex}")
    # A usual umask: the private modes of var/ must not depend on the one the user happens to have.
    options = {"cwd": BASE_DIR, "env": env, "umask": 0o022}
    for command in (["migrate", "--noinput", "-v0"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], check=True, capture_output=True, **options)
    log = var_dir.parent / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(["bash", "config/run.sh"], stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True, **options)
    site = Site(f"http://127.0.0.1:{port}", var_dir)
    try:
        deadline = time.monotonic() + SERVER_READY_TIMEOUT
        while True:
            if server.poll() is not None:
                pytest.fail(f"config/run.sh exited with {server.returncode}:\n{log.read_text()}", pytrace=False)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the web server is not listening in {SERVER_READY_TIMEOUT} s", pytrace=False)
                time.sleep(0.2)
        yield site
    finally:
        server.terminate()  # run.sh stops the web server and the worker, then exits
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _parallel(calls) -> list:
    """Run every call at once: each thread waits at a barrier, then sends its request."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def test_sixty_parallel_writers_all_succeed(site):
    organiser = site.token("organiser", "demo-organiser")
    referee = site.token("referee", "demo-referee")
    pairs = site.get("/api/tournaments/demo/pairs/")["results"]
    players = [pair[p]["id"] for pair in pairs for p in ("first", "second")][:PARALLEL // 3]
    tour = site.get("/api/tournaments/demo/tours/4/")
    under_way = [t["partition"]["id"] for t in tour["tables"] if t["number"] in (1, 2)]
    before = {pk: site.get(f"/api/partitions/{pk}/")["current_version"] for pk in under_way}

    venues = [f"Санкт-Петербург, клуб «Дуплет-{n}», зал им. Н. Д'Артаньяна-Соловьёва" for n in range(PARALLEL // 3)]
    clubs = {pk: f"Клуб «Пусто-пусто» №{n} — О'Нил-Фёдоров" for n, pk in enumerate(players)}
    recordings = [under_way[n % len(under_way)] for n in range(PARALLEL - len(venues) - len(clubs))]
    calls = (
        [lambda v=v: site.request("PATCH", "/api/tournaments/demo/", {"venue": v}, organiser) for v in venues]
        + [lambda pk=pk, c=c: site.request("PATCH", f"/api/players/{pk}/", {"club": c}, organiser)
           for pk, c in clubs.items()]
        + [lambda pk=pk: site.request("POST", f"/api/partitions/{pk}/record/", LEVEL_FISH, referee)
           for pk in recordings]
    )
    assert len(calls) == PARALLEL
    answers = _parallel(calls)

    failed = [(status, body) for status, body in answers if status != 200]
    assert not failed, f"{len(failed)} of {PARALLEL} writes failed: {failed[:3]}"
    # Every write was applied: each answer shows its own change, and the stored state has them all.
    assert [body["venue"] for _, body in answers[:len(venues)]] == venues
    assert site.get("/api/tournaments/demo/")["venue"] in venues
    for pk, club in clubs.items():
        assert site.get(f"/api/players/{pk}/")["club"] == club
    for pk in under_way:
        sent = recordings.count(pk)
        sheet = site.get(f"/api/partitions/{pk}/")
        assert sheet["current_version"] == before[pk] + sent
        assert site.get(f"/api/partitions/{pk}/changes/", referee)["count"] == before[pk] + sent


def test_var_dir_and_database_are_private(site):
    """var/ holds the secret key, the broker's files and the database (with the API tokens)."""
    def mode(path: Path) -> int:
        return stat.S_IMODE(path.stat().st_mode)

    assert mode(site.var_dir) == 0o700
    database = site.var_dir / "db.sqlite3"
    assert mode(database) == 0o600
    assert mode(site.var_dir / "secret_key") == 0o600


def test_database_is_in_write_ahead_log_mode(site):
    """Readers do not block the writer: the file's header says WAL (bytes 18 and 19 are 2)."""
    header = (site.var_dir / "db.sqlite3").read_bytes()[:100]
    assert header[18:20] == bytes([2, 2])


def test_a_live_screen_gets_each_change_as_it_is_recorded(site):
    """The stream of the demo (no Redis: the server reads its events table) while the referee
    records through the API; the beat started beside the worker and keeps its schedule in var/."""
    referee = site.token("referee", "demo-referee")
    tour = site.get("/api/tournaments/demo/tours/4/")
    table = next(t for t in tour["tables"] if t["number"] == 1)  # under way
    connection = http.client.HTTPConnection(site.url.removeprefix("http://"), timeout=60)
    try:
        connection.request("GET", "/api/tournaments/demo/live/events/?tour=4&table=1")
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")

        def next_event() -> dict[str, str]:
            fields: dict[str, str] = {}
            deadline = time.monotonic() + 60
            while True:
                assert time.monotonic() < deadline, "no event"
                line = response.readline().decode().rstrip("\n")
                if not line:
                    if "event" in fields:
                        return fields
                    fields = {}  # the retry line
                elif not line.startswith(":"):  # a heartbeat
                    name, _, value = line.partition(": ")
                    fields[name] = value

        hello = next_event()
        assert hello["event"] == "hello"
        status, sheet = site.request("POST", f"/api/partitions/{table['partition']['id']}/record/", LEVEL_FISH,
                                     referee)
        assert status == 200, sheet
        event = next_event()
        data = json.loads(event["data"])
        assert (int(event["id"]), event["event"]) == (int(hello["id"]) + 1, "deal")
        assert (data["tour"], data["table"], data["version"]) == (4, 1, sheet["current_version"])
    finally:
        connection.close()
    assert (site.var_dir / "celerybeat-schedule.dat").exists() or (site.var_dir / "celerybeat-schedule").exists()


def test_the_clocks_worker_takes_the_beats_sweep(site):
    """The sweep is routed to a queue of its own (settings.SWEEP_QUEUE), which only run.sh's
    clocks' worker takes: its heartbeat keeps moving."""
    def swept_at() -> str | None:
        with sqlite3.connect(site.var_dir / "db.sqlite3", timeout=30) as db:
            row = db.execute("SELECT swept_at FROM scoring_clockheartbeat WHERE id = 1").fetchone()
        return row[0] if row else None

    deadline = time.monotonic() + 60
    first = swept_at()
    while (later := swept_at()) is None or later == first:
        assert time.monotonic() < deadline, "the sweep did not run in 60 s"
        time.sleep(0.5)
    while swept_at() == later:
        assert time.monotonic() < deadline, "the sweep ran once and stopped"
        time.sleep(0.5)


def test_the_client_address_comes_from_a_trusted_proxy_only(site):
    """Behind a reverse proxy the sign-in limit (and the history of changes) must see the
    client's address, not the proxy's: the web server takes it from X-Forwarded-For when the
    connection comes from a trusted proxy (gunicorn's FORWARDED_ALLOW_IPS, this host by default),
    and only then, so a client elsewhere cannot choose the address it is counted under."""
    host, port = site.url.removeprefix("http://").split(":")

    def wrong_password(source: str, forwarded: str) -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
        body = json.dumps({"username": "через-прокси", "password": "wrong"})
        connection.request("POST", "/api/auth/token/", body=body.encode(), headers={
            "Content-Type": "application/json", "X-Forwarded-For": forwarded})
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 400

    wrong_password("127.0.0.1", "203.0.113.7")   # the proxy on this host forwards a client's request
    wrong_password("127.0.0.2", "198.51.100.23")  # another machine (not trusted) claims an address
    with sqlite3.connect(site.var_dir / "db.sqlite3") as db:
        addresses = {row[0] for row in db.execute(
            "SELECT ip_address FROM axes_accessattempt WHERE username = ?", ("через-прокси",))}
    assert addresses == {"203.0.113.7", "127.0.0.2"}
