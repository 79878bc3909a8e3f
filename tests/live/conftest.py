"""Fixtures of the live tests: a digital table seated (the clock stopped: ``frozen``,
tests/conftest.py)."""

from __future__ import annotations

import pytest

from livetools import live_tour, seated


@pytest.fixture
def digital(db, frozen):
    world = live_tour("digital")
    world["tokens"] = seated(world)
    return world
