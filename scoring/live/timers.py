"""The Celery side of the live clocks: a table's timer task, and the beat's sweep.

The services send a timer by its name (:func:`scoring.recording.pipeline.send_timer`), so this module
imports them and not the other way round. Both tasks call :func:`scoring.recording.pipeline.expire`, which
is idempotent: a task delivered twice, a task that finds the table moved on, a sweep that meets a
task on the same table — each records a lapse at most once (and the unique constraint on
(partition, turn, lapse) proves it). A table has one outstanding timer, not one per move: the
timer, after its catch-up, sends the next one for the move clock then running, unless a later
timer is outstanding (:mod:`scoring.recording.pipeline`, "the timers"). Tasks are never revoked.
"""

from __future__ import annotations

from celery import shared_task

from scoring.recording import pipeline


@shared_task(name=pipeline.EXPIRE_TASK, acks_late=True, ignore_result=True)
def expire_turn(partition_id: int, turn: int) -> bool:
    """The table's timer. ``turn``, the turn it was sent at, is kept in the arguments for the tasks
    already queued by an earlier version; the timer re-arms whatever turn the table is at."""
    return pipeline.expire(partition_id, by="task")


@shared_task(name="scoring.live.sweep", ignore_result=True)
def sweep() -> int:
    return pipeline.sweep()
