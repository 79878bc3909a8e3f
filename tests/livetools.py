"""Helpers of the live tests: a tour played live, the clock in the test's hand."""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from django.test import Client
from django.utils import timezone

import builders
from scoring.live import play
from scoring.protocols.confirmations import set_pin
from tournaments import services, tours
from tournaments.models import Table, Tournament

PIN = "2580"


class Clock:
    """The time live tables read (scoring.recording.clock), moved by hand."""

    def __init__(self) -> None:
        self.now = timezone.now().replace(microsecond=0)

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> datetime.datetime:
        self.now += datetime.timedelta(seconds=seconds)
        return self.now

    def to(self, instant: datetime.datetime) -> datetime.datetime:
        self.now = instant
        return self.now


def live_tour(mode: str, regulations: dict | None = None) -> dict:
    """The two-table tour of builders.refereed_tour, its tables played in ``mode``, every player
    with the PIN ``PIN``."""
    world = builders.refereed_tour()
    if regulations:
        world["t"].regulations = {**world["t"].regulations, **regulations}
        world["t"].save(update_fields=["regulations"])
    tour = world["tour"]
    tour.play_mode = mode
    tour.save(update_fields=["play_mode"])
    for table in Table.objects.filter(tour=tour):
        for player in table.seats:
            set_pin(world["org"], player.pk, PIN)
    return world


def seated(world: dict) -> dict[int, str]:
    """Start the tour and seat the four players of table 1 on their phones: seat -> token."""
    play.start_tour(world["chief"], world["tour"])
    return {seat: play.claim_seat(world["p1"].pk, seat, PIN) for seat in (1, 2, 3, 4)}




GOAT_NAMES = ("Преображенский", "Воскресенская", "Богословский", "Рождественская")


def goat_table(mode: str, players: int, regulations: dict | None = None, names=GOAT_NAMES) -> dict:
    """A Goat event of ``players`` players (``names``) seated at one table played in ``mode``
    (chosen with the organiser's service), ``ref`` its referee, ``other`` a referee of the event
    but not of this table; the tour started."""
    org = builders.user("org", superuser=True)
    ref, other = builders.user("ref"), builders.user("other")
    t = builders.tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                   regulations={"game": "goat", "lose_at": 60, **(regulations or {})})
    for name in names[:players]:
        services.register_player(org, t, {"last_name": name})
    for name in ("ref", "other"):
        services.add_role(org, t, name, "referee")
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    services.assign_referee(org, table, ref)
    tours.publish_tour(org, tour)
    play.set_play_mode(org, table, mode)
    play.start_tour(org, tour)
    return {"org": org, "ref": ref, "other": other, "tour": tour, "pid": table.partition.pk}


def login(user) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def watch(page, problems: list) -> None:
    """Collect a browser page's script errors and Content-Security-Policy violations."""
    page.on("console", lambda message: "Content Security Policy" in message.text
            and problems.append((page.url, message.text)))
    page.on("pageerror", lambda error: problems.append((page.url, str(error))))


BASE_DIR = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def asgi_server(database_url: str, folder: Path, wait: float = 60) -> Iterator[int]:
    """The project's ASGI server as config/run.sh starts it (gunicorn, one of config.server's
    workers, config.asgi's application) on a free port, on the test's committed database: its port.
    Its log is ``folder / "server.log"``; it is stopped at the end."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": database_url, "VAR_DIR": str(folder / "var")}
    log = folder / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "config.asgi:application", "--worker-class",
             "config.server.Worker", "--workers", "1", "--bind", f"127.0.0.1:{port}"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + wait
        while True:
            assert server.poll() is None, log.read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
