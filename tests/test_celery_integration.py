"""The task path end to end: this process -> broker -> a real worker -> result backend."""

import os
import uuid
from datetime import datetime, timedelta

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from scoring.tasks import ping

COUNTDOWN = 2


@pytest.mark.worker
def test_ping_runs_on_a_real_worker_after_its_countdown(celery_worker_process, broker_driver):
    # Redis when configured, the filesystem broker otherwise: the test runs on whichever it is.
    assert broker_driver == ("redis" if os.environ.get("REDIS_URL") else "filesystem")
    token = uuid.uuid4().hex
    sent_at = timezone.now()

    result = ping.apply_async(args=[token], countdown=COUNTDOWN, queue=celery_worker_process)
    reply = result.get(timeout=60)
    result.forget()

    assert reply["token"] == token
    # Only a worker that honoured the countdown can have run it this late.
    assert datetime.fromisoformat(reply["at"]) - sent_at >= timedelta(seconds=COUNTDOWN)


@pytest.mark.redis
def test_redis_carries_the_broker_and_the_cache(broker_driver):
    assert settings.CELERY_BROKER_URL == os.environ["REDIS_URL"]
    assert broker_driver == "redis"

    key, value = f"test-{uuid.uuid4().hex}", {"tour": 3, "table": 7}
    cache.set(key, value, timeout=30)
    try:
        assert cache.get(key) == value
        # The value really is in Redis, not in a process-local cache.
        assert redis.Redis.from_url(settings.REDIS_URL).exists(cache.make_key(key))
    finally:
        cache.delete(key)
