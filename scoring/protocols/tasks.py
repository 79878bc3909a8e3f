"""The Celery tasks of a tour's protocols: one per table, then the ZIP. Each is idempotent (a
table is counted once, a document made once for one state), acknowledged after it ran, and
retried a few times before its failure is recorded."""

from __future__ import annotations

from celery import shared_task

from . import batch_jobs


def _options(queue: str | None) -> dict:
    return {"queue": queue} if queue else {}


def send_batch_tasks(batch_id: int, partitions: list[int], *, assemble: bool, queue: str | None) -> None:
    """Send the tasks of a batch: its ZIP (``assemble``) and the tables ``partitions``."""
    if assemble:
        assemble_protocols.apply_async(args=[batch_id, queue], **_options(queue))
    for partition_id in partitions:
        protocol_for_table.apply_async(args=[batch_id, partition_id, queue], **_options(queue))


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
    try:
        batch_jobs.assemble_batch(batch_id)
    except Exception as error:  # noqa: BLE001
        if self.request.retries < self.max_retries:
            raise self.retry(exc=error, countdown=2 ** self.request.retries, **_options(queue)) from None
        batch_jobs.fail_batch(batch_id, f"{type(error).__name__}: {error}")
