"""The Celery side of the live clocks: a timer task per deadline, and the beat's sweep.

Both call :func:`scoring.live.play.expire`, which is idempotent: a task delivered twice, a task
of a turn already played, a sweep that meets a task on the same table — each records a lapse at
most once (and the unique constraint on (partition, turn, lapse) proves it). Tasks are never
revoked: a move made in time turns its timer into a no-op.
"""

from __future__ import annotations

import datetime

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import play

#: A timer fires this much after its deadline, so that a worker whose clock runs a little ahead
#: of the database's does not arrive early and find nothing to do.
SLACK_SECONDS = 0.05


def expire_at(partition_id: int, turn: int, deadline: datetime.datetime) -> None:
    """Send the timer of ``turn``'s deadline (called after the commit that set it)."""
    countdown = max(0.0, (deadline - timezone.now()).total_seconds() + SLACK_SECONDS)
    expire_turn.apply_async((partition_id, turn), countdown=countdown, queue=settings.CELERY_TASK_DEFAULT_QUEUE)


@shared_task(name="scoring.live.expire_turn", acks_late=True, ignore_result=True)
def expire_turn(partition_id: int, turn: int) -> bool:
    return play.expire(partition_id, turn, by="task")


@shared_task(name="scoring.live.sweep", ignore_result=True)
def sweep() -> int:
    return play.sweep()
