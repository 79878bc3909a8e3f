"""A gunicorn configuration that profiles each web worker's CPU by thread, for ``bench/live.py
--profile-web FILE``: the standard profiler in every thread (the event loop's and each worker
thread's, timed by the thread's CPU clock), merged and written to ``FILE.<pid>`` when the worker
exits (``python -m pstats`` reads it). The profiler slows the worker down several times: read its
shares, not its times."""

from __future__ import annotations

import cProfile
import os
import pstats
import signal
import threading
import time

_profiles: list[cProfile.Profile] = []


def _profiled() -> cProfile.Profile:
    profile = cProfile.Profile(time.thread_time)
    _profiles.append(profile)
    profile.enable()
    return profile


def _in_new_thread(frame, event, arg) -> None:  # threading.setprofile: once, in each new thread
    _profiled()


def post_worker_init(worker) -> None:
    threading.setprofile(_in_new_thread)
    _profiled()
    # uvicorn stops on SIGTERM, puts back the handler it found (this one) and raises the signal
    # again: the worker then dies by it, with no exit hook run.
    signal.signal(signal.SIGTERM, _write)


def _write(signum: int, frame: object) -> None:
    stats = None
    for profile in _profiles:
        profile.disable()
        stats = pstats.Stats(profile) if stats is None else stats.add(profile)
    if stats is not None:
        stats.dump_stats(f"{os.environ['WEB_PROFILE']}.{os.getpid()}")
    os._exit(0)
