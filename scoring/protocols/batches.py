"""Papers made by Celery, with progress: a whole tour's signed protocols (one task per table, then
the ZIP), for a large tour its blank paper protocols (one task laying them out by chunks into one
PDF), and the whole tournament's archive (a batch without a tour: every published tour's tables,
then the archive ZIP, :mod:`.archive`). Starting a batch, resuming a stalled one, its progress.
The work itself is :mod:`.batch_jobs`'; this module sends it to the workers (:mod:`.tasks`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Partition, ProtocolBatch, ProtocolBatchItem
from tournaments import permissions
from tournaments.models import Tour, Tournament

from scoring.protocols import archive, paper, signing, tasks
from scoring.protocols.batch_jobs import BATCH_STALL_SECONDS
from scoring.protocols.sheets import tour_snapshot
from tournaments.permissions import AnyUser


def _start(user: AnyUser, tournament: Tournament, tour: Tour | None, kind: str, *, snapshot: str, total: int, base_url: str,
           created: Callable[[ProtocolBatch], None]) -> ProtocolBatch:
    """Within the caller's transaction (the tour's or the tournament's row locked): the batch of
    ``kind`` for this state, the one at work or ready for it, else a new one (``created`` then
    sends its work), superseding one at work for an earlier state."""
    batches = ProtocolBatch.objects.filter(tournament=tournament, tour=tour, kind=kind).defer("archive")
    same = batches.filter(snapshot=snapshot, status__in=[*ProtocolBatch.ACTIVE, ProtocolBatch.Status.READY]).first()
    if same is not None:
        return same
    now = timezone.now()
    batches.filter(status__in=ProtocolBatch.ACTIVE).update(status=ProtocolBatch.Status.SUPERSEDED, finished_at=now)
    batch = ProtocolBatch.objects.create(tournament=tournament, tour=tour, kind=kind, total=total, base_url=base_url,
                                         snapshot=snapshot, progressed_at=now, created_by=permissions.login_of(user))
    created(batch)
    return batch


def _start_tables(user: AnyUser, tournament: Tournament, tour: Tour | None, kind: str, partitions: QuerySet[Partition], *,
                  snapshot: str, base_url: str, queue: str | None) -> ProtocolBatch:
    """The batch of the signed protocols of ``partitions`` (a tour's, or the archive's): one task
    per table, then its ZIP."""
    ids = list(partitions.order_by("table__tour__number", "table__number").values_list("pk", flat=True))

    def created(batch: ProtocolBatch) -> None:
        signing.current_key(tournament)  # made once here, not raced for by the workers
        ProtocolBatchItem.objects.bulk_create([ProtocolBatchItem(batch=batch, partition_id=p) for p in ids])
        transaction.on_commit(lambda: tasks.send_batch_tasks(batch.pk, ids, assemble=False, queue=queue))

    return _start(user, tournament, tour, kind, snapshot=snapshot, total=len(ids), base_url=base_url[:300],
                  created=created)


def _locked_tour(tour_id: int) -> Tour:
    return Tour.objects.select_for_update().select_related("tournament").get(pk=tour_id)


def start_tour_batch(user: AnyUser, tour_id: int, *, base_url: str, queue: str | None = None) -> ProtocolBatch:
    """An organiser starts the protocols of every table of a tour: one Celery task per table,
    then a ZIP of them all with the tour protocol. Asked again while the tour is as it was, he
    gets the same batch back (at work or ready); a batch still at work for an earlier state of
    the tour is superseded. ``queue``: the Celery queue (default: the configured one)."""
    with transaction.atomic():
        tour = _locked_tour(tour_id)
        permissions.require_manage(user, tour.tournament)
        if tour.status == Tour.Status.DRAFT:
            raise ValidationError(_("The tour is not published yet."))
        partitions = Partition.objects.filter(table__tour=tour)
        if not partitions.exists():
            raise ValidationError(_("The tour has no tables."))
        return _start_tables(user, tour.tournament, tour, ProtocolBatch.Kind.PROTOCOLS, partitions,
                             snapshot=tour_snapshot(tour), base_url=base_url, queue=queue)


def start_archive(user: AnyUser, tournament_id: int, *, base_url: str, queue: str | None = None) -> ProtocolBatch:
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
        return _start_tables(user, tournament, None, ProtocolBatch.Kind.ARCHIVE, partitions,
                             snapshot=archive.archive_snapshot(tournament), base_url=base_url, queue=queue)


def start_paper_batch(user: AnyUser, tour_id: int, *, base_url: str, queue: str | None = None) -> ProtocolBatch:
    """The tour's staff start the blank paper protocols of a (large) tour: one Celery task lays
    them out, a chunk of tables after the other, into one PDF. Asked again while the forms are
    as they were, the same batch comes back; a batch at work for earlier forms is superseded."""
    with transaction.atomic():
        tour = _locked_tour(tour_id)
        permissions.require_staff(user, tour.tournament)
        tables = tour.tables.count()
        if not tables:
            raise ValidationError(_("The tour has no tables."))
        base_url = base_url[:300]

        def created(batch: ProtocolBatch) -> None:
            transaction.on_commit(lambda: tasks.send_paper_task(batch.pk, queue=queue))

        return _start(user, tour.tournament, tour, ProtocolBatch.Kind.PAPER,
                      snapshot=paper.forms_snapshot(tour, base_url=base_url), total=tables, base_url=base_url,
                      created=created)


def resume_batch(user: AnyUser, batch_id: int, *, queue: str | None = None) -> ProtocolBatch:
    """Send again the work of a batch still at work: its tables not yet done, or its ZIP; the
    paper's layout. Harmless when they are only slow: a table is counted once, a document made
    once for one state, the paper laid out by one run while it moves."""
    with transaction.atomic():
        batch = ProtocolBatch.objects.select_for_update().defer("archive").select_related("tournament").get(
            pk=batch_id)
        require_batch_access(user, batch)
        if batch.status not in ProtocolBatch.ACTIVE:
            raise ValidationError(_("This batch is not at work: there is nothing to resume."))
        if batch.kind == ProtocolBatch.Kind.PAPER:
            # Its progress is left as it is: a batch with tables laid out is laid out again only once
            # it stopped moving.
            transaction.on_commit(lambda: tasks.send_paper_task(batch.pk, queue=queue))
        else:
            batch.progressed_at = timezone.now()
            batch.save(update_fields=["progressed_at"])
            pending = list(batch.items.filter(done_at__isnull=True).values_list("partition_id", flat=True))
            assemble = batch.status == ProtocolBatch.Status.ASSEMBLING
            transaction.on_commit(lambda: tasks.send_batch_tasks(batch.pk, pending, assemble=assemble, queue=queue))
    return batch


def batch_progress(batch: ProtocolBatch) -> dict[str, Any]:
    since = timezone.now() - (batch.progressed_at or batch.created_at)
    return {"id": batch.pk, "kind": batch.kind, "status": batch.status, "total": batch.total, "done": batch.done,
            "failed": batch.failed, "percent": round(100 * batch.done / batch.total) if batch.total else 100,
            "ready": batch.status == ProtocolBatch.Status.READY, "error": batch.error,
            "stalled": batch.status in ProtocolBatch.ACTIVE and since.total_seconds() > BATCH_STALL_SECONDS}


def require_batch_access(user: AnyUser, batch: ProtocolBatch) -> None:
    """The protocols and the archive are an organiser's; the paper, as printed in the request,
    the tour's staff's."""
    if batch.kind == ProtocolBatch.Kind.PAPER:
        permissions.require_staff(user, batch.tournament)
    else:
        permissions.require_manage(user, batch.tournament)
