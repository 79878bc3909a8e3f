"""How many live streams one client address holds open: at most ``LIVE_STREAMS_PER_ADDRESS``.

With REDIS_URL the count is shared by every web process: a sorted set per address whose members
are the open streams, scored by when each last said it was alive (every :data:`REFRESH_SECONDS`);
a member not refreshed for :data:`STALE_SECONDS` (its process died) no longer counts, and the set
itself expires. Without Redis, or when Redis fails, each process counts its own streams: a cap
per process, which the number of processes multiplies (README, Security).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from collections import Counter

import redis
from asgiref.sync import sync_to_async
from django.conf import settings

logger = logging.getLogger(__name__)

#: How often an open stream tells Redis it is alive.
REFRESH_SECONDS = 30.0
#: A stream silent this long (its process died) is no longer counted.
STALE_SECONDS = 90.0
KEY = "domino:live:open:{address}"

# Forget the stale, count, add if under the cap: one atomic step, so parallel openings never
# exceed the cap.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

_lock = threading.Lock()
_open: Counter[str] = Counter()


@functools.cache
def _redis(url: str) -> redis.Redis:
    # Short timeouts: a Redis that does not answer makes the count per process, not a wait.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


class Ticket:
    """One open stream of ``address``, counted until :meth:`release`."""

    def __init__(self, address: str, member: str | None):
        self.address = address
        #: Its member in Redis; None: counted in this process.
        self.member = member
        self.refreshed = time.monotonic()
        self.released = False

    def due(self) -> bool:
        """Whether Redis should hear that the stream is alive."""
        return self.member is not None and time.monotonic() - self.refreshed >= REFRESH_SECONDS

    def refresh(self) -> None:
        assert settings.REDIS_URL and self.member is not None
        self.refreshed = time.monotonic()
        key = KEY.format(address=self.address)
        try:
            with _redis(settings.REDIS_URL).pipeline() as pipe:
                pipe.zadd(key, {self.member: time.time()})
                pipe.expire(key, int(STALE_SECONDS))
                pipe.execute()
        except redis.RedisError as error:
            logger.warning("live streams: cannot refresh an open stream in Redis (%s)", error)

    def release(self) -> None:
        """No longer counted (once, however often called)."""
        if self.released:
            return
        self.released = True
        if self.member is None:
            with _lock:
                _open[self.address] -= 1
                if _open[self.address] <= 0:
                    del _open[self.address]
            return
        assert settings.REDIS_URL
        try:
            _redis(settings.REDIS_URL).zrem(KEY.format(address=self.address), self.member)
        except redis.RedisError as error:  # the member goes stale instead
            logger.warning("live streams: cannot release an open stream in Redis (%s)", error)


def _take_here(address: str, cap: int) -> Ticket | None:
    with _lock:
        if _open[address] >= cap:
            return None
        _open[address] += 1
    return Ticket(address, None)


def take(address: str | None) -> Ticket | None:
    """A ticket for one more open stream of ``address``, or None: it holds the most it may."""
    address = address or "unknown"
    cap = settings.LIVE_STREAMS_PER_ADDRESS
    if not settings.REDIS_URL:
        return _take_here(address, cap)
    member = uuid.uuid4().hex
    now = time.time()
    try:
        taken = _redis(settings.REDIS_URL).eval(_TAKE, 1, KEY.format(address=address), now, now - STALE_SECONDS,
                                                member, cap, int(STALE_SECONDS))
    except redis.RedisError as error:
        logger.warning("live streams: Redis cannot count open streams (%s); counting in this process", error)
        return _take_here(address, cap)
    return Ticket(address, member) if taken else None


async def take_async(address: str | None) -> Ticket | None:
    """:func:`take` from a coroutine. Without Redis, with no await: a request cancelled in
    between would leave its stream counted for good."""
    if not settings.REDIS_URL:
        return take(address)
    return await sync_to_async(take, thread_sensitive=False)(address)
