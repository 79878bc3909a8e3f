"""The one clock of live tables, and the arithmetic of its deadlines.

Every instant comes from :func:`now`: the database's clock (so that web processes, workers and
the beat on several machines agree), or a function a test installs with :func:`use`. The rules
of the clocks (allowances, lapses, the last deal) are the engine's; this module only measures:
when a turn's next lapse falls, and how many seconds a move is charged.
"""

from __future__ import annotations

import contextlib
import datetime
import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

if TYPE_CHECKING:
    from scoring.models import LiveTable

_source: Callable[[], datetime.datetime] | None = None


def now() -> datetime.datetime:
    """The current instant: the database's clock (``clock_timestamp()``, not the transaction's
    start), or the test's."""
    if _source is not None:
        return _source()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT clock_timestamp()")
            (value,) = cursor.fetchone()
        return value
    return timezone.now()  # SQLite: the processes of one machine share its clock


@contextlib.contextmanager
def use(source: Callable[[], datetime.datetime]) -> Iterator[None]:
    """Read the time from ``source`` inside the block (tests: a clock moved by hand)."""
    global _source
    previous, _source = _source, source
    try:
        yield
    finally:
        _source = previous


def grace() -> float:
    """Seconds of network delay not charged to a move (a setting of the site, not the rules)."""
    return float(settings.LIVE_MOVE_GRACE_SECONDS)


def seconds(delta: datetime.timedelta) -> float:
    return delta.total_seconds()


def move_deadline(live: LiveTable) -> datetime.datetime:
    """When the awaited move lapses next: its allowance after each lapse already recorded,
    counted from the start of the turn, plus the pauses and the grace."""
    assert live.turn_started_at is not None and live.allowance
    return live.turn_started_at + datetime.timedelta(
        seconds=live.turn_paused + grace() + (live.lapses + 1) * live.allowance)


def charged(live: LiveTable, at: datetime.datetime) -> float:
    """The seconds charged to a move received at ``at`` (to 0.1 s, rounded down): from the start
    of the turn, less the pauses and the grace; never fewer than its recorded lapses take (a
    lapse is recorded only once that much was charged)."""
    assert live.turn_started_at is not None and live.allowance
    spent = seconds(at - live.turn_started_at) - live.turn_paused - grace()
    tenths = max(0, math.floor(spent * 10 + 1e-6))
    return max(tenths, live.lapses * live.allowance * 10) / 10


def time_deadline(live: LiveTable, minutes: int) -> datetime.datetime:
    """When the partition's time runs out: ``minutes`` from the first deal, pauses excluded."""
    assert live.clock_started_at is not None
    return live.clock_started_at + datetime.timedelta(seconds=minutes * 60 + live.clock_paused)


def countdown(deadline: datetime.datetime | None, at: datetime.datetime) -> dict[str, Any] | None:
    """A countdown for a page: its deadline for the script, the seconds left at ``at`` for the
    page without it."""
    if deadline is None:
        return None
    return {"deadline": deadline.isoformat(), "left": max(0, int((deadline - at).total_seconds() + 0.999))}


def stopped(deadline: datetime.datetime | None, paused_at: datetime.datetime) -> dict[str, Any] | None:
    """A countdown stopped by a pause: the seconds it had left."""
    if deadline is None:
        return None
    return {"deadline": "", "left": max(0, int((deadline - paused_at).total_seconds() + 0.999))}
