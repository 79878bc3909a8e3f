"""The Celery tasks of a tour's batches: the protocols, one per table, then the ZIP; the paper,
one laying out the whole PDF. Each is idempotent (a table is counted once, a document made once
for one state, a batch stored once), acknowledged after it ran, and retried a few times before
its failure is recorded."""

from __future__ import annotations

from collections.abc import Callable

from celery import shared_task

from scoring.protocols import batch_jobs


def _options(queue: str | None) -> dict:
    return {"queue": queue} if queue else {}


def _retried(task, batch_id: int, queue: str | None, work: Callable[[int], object]) -> None:
    """Run a batch's ``work``; on an error, retry later, and after the last retry fail the batch."""
    try:
        work(batch_id)
    except Exception as error:  # noqa: BLE001 - retried, then recorded as the batch's failure
        if task.request.retries < task.max_retries:
            raise task.retry(exc=error, countdown=2 ** task.request.retries, **_options(queue)) from None
        batch_jobs.fail_batch(batch_id, f"{type(error).__name__}: {error}")


def send_batch_tasks(batch_id: int, partitions: list[int], *, assemble: bool, queue: str | None) -> None:
    """Send the tasks of a batch: its ZIP (``assemble``) and the tables ``partitions``."""
    if assemble:
        assemble_protocols.apply_async(args=[batch_id, queue], **_options(queue))
    for partition_id in partitions:
        protocol_for_table.apply_async(args=[batch_id, partition_id, queue], **_options(queue))


def send_paper_task(batch_id: int, *, queue: str | None) -> None:
    paper_for_tour.apply_async(args=[batch_id, queue], **_options(queue))


@shared_task(bind=True, max_retries=3, ignore_result=True)
def protocol_for_table(self, batch_id: int, partition_id: int, queue: str | None = None) -> None:
    """One table of a tour's protocols: its signed PDF; the ZIP when the batch waits for it."""
    try:
        ready = batch_jobs.make_batch_item(batch_id, partition_id)
    except Exception as error:  # noqa: BLE001 - retried, then recorded as this table's failure
        if self.request.retries < self.max_retries:
            raise self.retry(exc=error, countdown=2 ** self.request.retries, **_options(queue)) from None
        ready = batch_jobs.make_batch_item(batch_id, partition_id, error=f"{type(error).__name__}: {error}")
    if ready:
        assemble_protocols.apply_async(args=[batch_id, queue], **_options(queue))


@shared_task(bind=True, max_retries=3, ignore_result=True)
def assemble_protocols(self, batch_id: int, queue: str | None = None) -> None:
    """Pack a batch's documents into its ZIP."""
    _retried(self, batch_id, queue, batch_jobs.assemble_batch)


@shared_task(bind=True, max_retries=3, ignore_result=True)
def paper_for_tour(self, batch_id: int, queue: str | None = None) -> None:
    """The blank paper protocols of a tour's batch: laid out into its PDF."""
    _retried(self, batch_id, queue, batch_jobs.make_paper)
