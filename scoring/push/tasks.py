"""Celery tasks of live play."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db.models.functions import Now

from scoring.push import events


@shared_task
def purge_events() -> int:
    """Forget the live events older than LIVE_EVENTS_KEPT_HOURS (the beat runs it hourly; running
    it again deletes nothing more), by the database's clock; how many were forgotten."""
    return events.purge(Now() - timedelta(hours=settings.LIVE_EVENTS_KEPT_HOURS))
