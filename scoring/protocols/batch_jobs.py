"""What the workers do for a batch (:mod:`.tasks` calls these): one table's document, counted
once however often its task runs, and the ZIP at the end (a tour's, or the tournament's
archive); the paper's one PDF."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from scoring import engine
from scoring.models import ProtocolBatch, ProtocolBatchItem, ProtocolDocument

from scoring.protocols import archive, paper
from scoring.protocols.issuing import issue_partition_protocol

#: A batch at work that counted no table for this long has stalled (a worker died with its task,
#: or the broker lost it): its page offers to resume it.
BATCH_STALL_SECONDS = 30


def make_batch_item(batch_id: int, partition_id: int, *, error: str | None = None) -> bool:
    """Make one table's document of a batch (reusing the one issued for the same state) and count
    it done, once, whatever the retries. ``error``: record this table as failed instead. Returns
    whether the batch waits for its ZIP (the caller then packs it): its last table was counted,
    by this run or by an earlier one whose worker may have died before it could ask for the ZIP."""
    batch = ProtocolBatch.objects.select_related("created_by").defer("archive").get(pk=batch_id)
    item = ProtocolBatchItem.objects.get(batch=batch, partition_id=partition_id)
    if item.done_at is None:
        document = None
        if error is None:
            try:
                document = issue_partition_protocol(batch.acting, partition_id, base_url=batch.base_url)
            except (ValidationError, PermissionDenied, engine.RulesError) as failure:
                error = archive.failure_text(failure)
        with transaction.atomic():
            # The conditional update is the lock: exactly one run counts this table.
            counted = ProtocolBatchItem.objects.filter(pk=item.pk, done_at__isnull=True).update(
                done_at=timezone.now(), document=document, error=error or "")
            if counted:
                ProtocolBatch.objects.filter(pk=batch.pk).update(
                    done=F("done") + 1, failed=F("failed") + (1 if error else 0), progressed_at=timezone.now())
                ProtocolBatch.objects.filter(pk=batch.pk, done__gte=F("total"), status=ProtocolBatch.Status.RUNNING
                                             ).update(status=ProtocolBatch.Status.ASSEMBLING)
    return ProtocolBatch.objects.filter(pk=batch_id, status=ProtocolBatch.Status.ASSEMBLING).exists()


def assemble_batch(batch_id: int) -> ProtocolBatch:
    """Pack a finished batch's documents into its ZIP (again harmlessly if it is done already): a
    tour's with its tour protocol, the tournament's archive with everything else it holds
    (:mod:`.archive`); a list of SHA-256 sums in both."""
    batch = ProtocolBatch.objects.select_related("tournament", "tour__tournament", "created_by").get(pk=batch_id)
    if batch.status == ProtocolBatch.Status.READY:
        return batch
    items = list(batch.items.select_related("partition__table__tour").order_by(
        "partition__table__tour__number", "partition__table__number"))
    documents: dict[int | None, ProtocolDocument] = {d.pk: d for d in ProtocolDocument.objects.filter(
        pk__in=[i.document_id for i in items if i.document_id])}
    if batch.is_archive:
        members, errors = archive.archive_members(batch, items, documents)
    else:
        members, errors = archive.tour_members(batch, batch.tour_of_batch, items, documents)
    data = archive.pack(members)
    with transaction.atomic():
        batch = ProtocolBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.status == ProtocolBatch.Status.READY:
            return batch
        batch.archive = data
        batch.error = "\n".join(str(e) for e in errors)
        batch.status = ProtocolBatch.Status.READY
        batch.finished_at = timezone.now()
        batch.save(update_fields=["archive", "error", "status", "finished_at"])
    return batch


def make_paper(batch_id: int) -> ProtocolBatch:
    """Lay out a paper batch's forms into its PDF, its progress moving after each chunk of tables
    (never back, nor counted twice, when a second run overlaps the first), and store it once. A
    run while the batch is moving leaves it to the run moving it. Forms changed since the batch
    was asked for supersede it; a starter no longer of the staff fails it."""
    batch = ProtocolBatch.objects.select_related("tour__tournament", "created_by").defer("archive").get(pk=batch_id)
    if batch.status not in ProtocolBatch.ACTIVE:
        return batch
    moved = batch.progressed_at or batch.created_at
    if batch.done and (timezone.now() - moved).total_seconds() < BATCH_STALL_SECONDS:
        # Another run is laying it out (on Redis a message not acknowledged within the visibility
        # timeout is delivered again, and a large tour on a busy server may take longer).
        return batch
    active = ProtocolBatch.objects.filter(pk=batch_id, status__in=ProtocolBatch.ACTIVE)

    def laid_out(tables: int) -> None:
        active.update(done=Greatest(F("done"), Value(tables)), progressed_at=timezone.now())
        if tables >= batch.total:
            active.update(status=ProtocolBatch.Status.ASSEMBLING)

    try:
        pdf = paper.tour_forms(batch.created_by or AnonymousUser(), batch.tour_of_batch, base_url=batch.base_url,
                               snapshot=batch.snapshot, laid_out=laid_out)
    except PermissionDenied as refusal:
        fail_batch(batch_id, str(refusal))
        return batch
    except ValidationError as change:
        active.update(status=ProtocolBatch.Status.SUPERSEDED, error="; ".join(change.messages),
                      finished_at=timezone.now())
        return batch
    with transaction.atomic():
        batch = ProtocolBatch.objects.select_for_update().defer("archive").get(pk=batch_id)
        if batch.status in ProtocolBatch.ACTIVE:
            batch.archive, batch.status, batch.finished_at = pdf, ProtocolBatch.Status.READY, timezone.now()
            batch.done = batch.total
            batch.save(update_fields=["archive", "status", "finished_at", "done"])
    return batch


def fail_batch(batch_id: int, error: str) -> None:
    ProtocolBatch.objects.filter(pk=batch_id).exclude(status=ProtocolBatch.Status.READY).update(
        status=ProtocolBatch.Status.FAILED, error=error[:2000], finished_at=timezone.now())
