from celery import shared_task
from django.utils import timezone


@shared_task
def ping(token: str) -> dict:
    """Echo the token with the time the worker ran the task.

    This is the health check of the task path (web -> broker -> worker -> result backend);
    tests/test_celery_integration.py runs it through a real worker. Keep it.
    """
    return {"token": token, "at": timezone.now().isoformat()}


def _options(queue: str | None) -> dict:
    return {"queue": queue} if queue else {}


@shared_task(bind=True, max_retries=3, ignore_result=True)
def protocol_for_table(self, batch_id: int, partition_id: int, queue: str | None = None) -> None:
    """One table of a tour's protocols (scoring.documents.start_tour_batch): its signed PDF,
    counted once however often the task runs; the last table starts the ZIP."""
    from . import documents

    try:
        last = documents.make_batch_item(batch_id, partition_id)
    except Exception as error:  # noqa: BLE001 - retried, then recorded as this table's failure
        if self.request.retries < self.max_retries:
            raise self.retry(exc=error, countdown=2 ** self.request.retries, **_options(queue)) from None
        last = documents.make_batch_item(batch_id, partition_id, error=f"{type(error).__name__}: {error}")
    if last:
        assemble_protocols.apply_async(args=[batch_id, queue], **_options(queue))


@shared_task(bind=True, max_retries=3, ignore_result=True)
def assemble_protocols(self, batch_id: int, queue: str | None = None) -> None:
    """Pack a batch's documents into its ZIP."""
    from . import documents

    try:
        documents.assemble_batch(batch_id)
    except Exception as error:  # noqa: BLE001
        if self.request.retries < self.max_retries:
            raise self.retry(exc=error, countdown=2 ** self.request.retries, **_options(queue)) from None
        documents.fail_batch(batch_id, f"{type(error).__name__}: {error}")
