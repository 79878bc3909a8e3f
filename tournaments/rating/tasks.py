"""The refresh of a family's ratings when a tour ends (sent by name from
:func:`scoring.recording.storage.update_tour`, which this package sits above)."""

from __future__ import annotations

from celery import shared_task
from django.db import IntegrityError

from scoring.recording.storage import RATE_TASK

from tournaments.models import Tournament

from .compute import family_of, refresh


@shared_task(name=RATE_TASK, acks_late=True, ignore_result=True, autoretry_for=(IntegrityError,), max_retries=3,
             retry_backoff=True)
def refresh_ratings(tournament_id: int) -> bool:
    """The ratings of the family the tournament plays, recomputed from all its results.
    Idempotent: nothing is written when they are what is stored
    (:func:`tournaments.rating.compute.refresh`). Whether anything changed."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    family = None if tournament is None else family_of(tournament)
    return family is not None and refresh(family)
