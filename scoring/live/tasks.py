"""The Celery side of the live clocks: the beat's sweep, a round a second.

A deadline sends no task of its own: the sweep looks for the deadlines that have passed several
times in its round (``CLOCK_SWEEP_PASSES``) and records them through
:func:`scoring.recording.pipeline.expire`, which is idempotent: a round delivered twice, two rounds
at once, a round that meets a request on the same table — each records a lapse at most once (the
unique constraint on (partition, turn, lapse) proves it).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from scoring.recording import pipeline


@shared_task(name="scoring.live.sweep", ignore_result=True)
def sweep() -> int:
    passes = settings.CLOCK_SWEEP_PASSES
    return pipeline.sweep(passes, settings.CLOCK_SWEEP_SECONDS / passes)
