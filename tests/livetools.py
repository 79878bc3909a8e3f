"""Helpers of the live tests: a tour played live, the clock in the test's hand."""

from __future__ import annotations

import datetime

from django.test import Client
from django.utils import timezone

import builders
from scoring.live import play
from scoring.protocols.confirmations import set_pin
from tournaments.models import Table

PIN = "2580"


class Clock:
    """The time live tables read (scoring.live.clock), moved by hand."""

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
