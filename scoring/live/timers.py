"""The Celery side of the live clocks: a timer task per deadline, and the beat's sweep.

The services send a timer by its name (:func:`scoring.recording.pipeline.send_timer`), so this module
imports them and not the other way round. Both tasks call :func:`scoring.recording.pipeline.expire`, which
is idempotent: a task delivered twice, a task of a turn already played, a sweep that meets a task
on the same table — each records a lapse at most once (and the unique constraint on (partition,
turn, lapse) proves it). Tasks are never revoked: a move made in time turns its timer into a no-op.
"""

from __future__ import annotations

from celery import shared_task

from scoring.recording import pipeline


@shared_task(name=pipeline.EXPIRE_TASK, acks_late=True, ignore_result=True)
def expire_turn(partition_id: int, turn: int) -> bool:
    return pipeline.expire(partition_id, turn, by="task")


@shared_task(name="scoring.live.sweep", ignore_result=True)
def sweep() -> int:
    return pipeline.sweep()
