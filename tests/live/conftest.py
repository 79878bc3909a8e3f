"""Fixtures of the live tests: the clock stopped, the timers observed, a digital table seated."""

from __future__ import annotations

import datetime

import pytest

from livetools import Clock, live_tour, seated
from scoring import pipeline
from scoring.live import clock, play


@pytest.fixture
def frozen():
    """The clock of live tables, stopped: tests move it with .advance() and .to()."""
    fake = Clock()
    with clock.use(fake):
        yield fake


@pytest.fixture
def timers_sent(monkeypatch):
    """The timer tasks the services send after their commits, as (partition, turn, deadline)."""
    sent: list[tuple[int, int, datetime.datetime]] = []
    monkeypatch.setattr(pipeline, "send_timer", lambda pid, turn, deadline: sent.append((pid, turn, deadline)))
    return sent


@pytest.fixture
def digital(db, frozen, timers_sent):
    world = live_tour("digital")
    world["tokens"] = seated(world)
    return world
