"""The protocols of a whole tour, or of the whole tournament for its archive, made by Celery (one
task per table, then the ZIP): starting a batch, resuming a stalled one, its progress. The work itself is :mod:`.batch_jobs`'; this module
sends it to the workers (:mod:`.tasks`)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Partition, ProtocolBatch, ProtocolBatchItem
from tournaments import permissions
from tournaments.models import Tour, Tournament

from . import archive, signing, tasks
from .sheets import tour_snapshot


#: A batch at work that counted no table for this long has stalled (a worker died with its task,
#: or the broker lost it): its page offers to resume it.
BATCH_STALL_SECONDS = 30


def start_tour_batch(user, tour_id: int, *, base_url: str, queue: str | None = None) -> ProtocolBatch:
    """An organiser starts the protocols of every table of a tour: one Celery task per table,
    then a ZIP of them all with the tour protocol. Asked again while the tour is as it was, he
    gets the same batch back (at work or ready); a batch still at work for an earlier state of
    the tour is superseded. ``queue``: the Celery queue (default: the configured one)."""
    with transaction.atomic():
        tour = Tour.objects.select_for_update().select_related("tournament").get(pk=tour_id)
        permissions.require_manage(user, tour.tournament)
        if tour.status == Tour.Status.DRAFT:
            raise ValidationError(_("The tour is not published yet."))
        partitions = Partition.objects.filter(table__tour=tour)
        if not partitions.exists():
            raise ValidationError(_("The tour has no tables."))
        return _start(user, tour.tournament, tour, partitions, tour_snapshot(tour), base_url=base_url, queue=queue)


def start_archive(user, tournament_id: int, *, base_url: str, queue: str | None = None) -> ProtocolBatch:
    """An organiser starts the tournament's archive for the federation: the signed protocol of
    every table of every published tour (one Celery task per table, as a tour's batch), then the
    archive ZIP (:mod:`.archive`). The same state of the tournament gives the same archive back."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        permissions.require_manage(user, tournament)
        partitions = Partition.objects.filter(table__tour__tournament=tournament).exclude(
            table__tour__status=Tour.Status.DRAFT)
        if not partitions.exists():
            raise ValidationError(_("No published tour has tables yet."))
        return _start(user, tournament, None, partitions, archive.archive_snapshot(tournament), base_url=base_url,
                      queue=queue)


def _start(user, tournament: Tournament, tour: Tour | None, partitions: QuerySet[Partition], snapshot: str, *,
           base_url: str, queue: str | None) -> ProtocolBatch:
    """Within the caller's transaction (the tour's or the tournament's row locked): the batch of
    ``partitions`` for this ``snapshot``, the one at work or ready for it, else a new one, which
    supersedes one still at work for an earlier state."""
    ids = list(partitions.order_by("table__tour__number", "table__number").values_list("pk", flat=True))
    batches = ProtocolBatch.objects.filter(tournament=tournament, tour=tour).defer("archive")
    same = batches.filter(snapshot=snapshot, status__in=[*ProtocolBatch.ACTIVE, ProtocolBatch.Status.READY]).first()
    if same is not None:
        return same
    now = timezone.now()
    batches.filter(status__in=ProtocolBatch.ACTIVE).update(status=ProtocolBatch.Status.SUPERSEDED, finished_at=now)
    signing.current_key(tournament)  # made once here, not raced for by the workers
    batch = ProtocolBatch.objects.create(tournament=tournament, tour=tour, total=len(ids), base_url=base_url[:300],
                                         snapshot=snapshot, progressed_at=now, created_by=user)
    ProtocolBatchItem.objects.bulk_create([ProtocolBatchItem(batch=batch, partition_id=p) for p in ids])
    transaction.on_commit(lambda: tasks.send_batch_tasks(batch.pk, ids, assemble=False, queue=queue))
    return batch


def resume_batch(user, batch_id: int, *, queue: str | None = None) -> ProtocolBatch:
    """Send again the tasks of a batch still at work: its tables not yet done, or its ZIP. Harmless
    when they are only slow: a table is counted once, and its document is made once."""
    with transaction.atomic():
        batch = ProtocolBatch.objects.select_for_update().defer("archive").select_related("tournament").get(
            pk=batch_id)
        permissions.require_manage(user, batch.tournament)
        if batch.status not in ProtocolBatch.ACTIVE:
            raise ValidationError(_("This batch is not at work: there is nothing to resume."))
        batch.progressed_at = timezone.now()
        batch.save(update_fields=["progressed_at"])
        pending = list(batch.items.filter(done_at__isnull=True).values_list("partition_id", flat=True))
        assemble = batch.status == ProtocolBatch.Status.ASSEMBLING
        transaction.on_commit(lambda: tasks.send_batch_tasks(batch.pk, pending, assemble=assemble, queue=queue))
    return batch


def batch_progress(batch: ProtocolBatch) -> dict[str, Any]:
    since = timezone.now() - (batch.progressed_at or batch.created_at)
    return {"id": batch.pk, "status": batch.status, "total": batch.total, "done": batch.done,
            "failed": batch.failed, "percent": round(100 * batch.done / batch.total) if batch.total else 100,
            "ready": batch.status == ProtocolBatch.Status.READY, "error": batch.error,
            "stalled": batch.status in ProtocolBatch.ACTIVE and since.total_seconds() > BATCH_STALL_SECONDS}


def require_batch_access(user, batch: ProtocolBatch) -> None:
    """A batch's progress and ZIP (a tour's, or the tournament's archive) are its organiser's."""
    permissions.require_manage(user, batch.tournament)
