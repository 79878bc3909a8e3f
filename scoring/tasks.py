from celery import shared_task
from django.utils import timezone


@shared_task
def ping(token: str) -> dict:
    """Echo the token with the time the worker ran the task.

    This is the health check of the task path (web -> broker -> worker -> result backend);
    tests/test_celery_integration.py runs it through a real worker. Keep it.
    """
    return {"token": token, "at": timezone.now().isoformat()}
