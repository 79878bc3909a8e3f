"""Helpers of the live tests: a tour played live, the clock in the test's hand."""

from __future__ import annotations

import datetime

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
