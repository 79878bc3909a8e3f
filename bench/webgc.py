"""A gunicorn configuration that times the garbage collector's passes in each web worker, for
``bench/live.py`` (every run but a profiled one): each pass's generation and wall time, written
to ``$VAR_DIR/gc.<pid>.json`` after each full pass and when the worker stops (a worker killed at
the end of its graceful timeout, its streams still open, has written all but its last passes). A
pass holds the whole process, every request in it included: its pauses are a floor under the
latency's tail."""

from __future__ import annotations

import gc
import json
import os
import signal
import time

_passes: list[tuple[int, float]] = []  # (generation, milliseconds)
_began = 0.0


def _timed(phase: str, info: dict) -> None:
    global _began
    if phase == "start":
        _began = time.perf_counter()
    else:
        _passes.append((info["generation"], (time.perf_counter() - _began) * 1000))
        if info["generation"] == 2:
            _save()


def post_worker_init(worker) -> None:  # after the worker loaded (and settled) the application
    gc.callbacks.append(_timed)
    # uvicorn stops on SIGTERM, puts back the handler it found (this one) and raises the signal
    # again: the worker then dies by it, with no exit hook run.
    signal.signal(signal.SIGTERM, _write)


def _save(objects: int | None = None) -> None:
    path = os.path.join(os.environ["VAR_DIR"], f"gc.{os.getpid()}.json")
    with open(path, "w") as out:
        json.dump({"passes": _passes, "frozen": gc.get_freeze_count(), "objects": objects}, out)


def _write(signum: int, frame: object) -> None:
    _save(len(gc.get_objects()))
    os._exit(0)


def summary(folder: str) -> str | None:
    """The passes of every worker that wrote its file in ``folder``, by generation."""
    passes: dict[int, list[float]] = {}
    objects = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("gc.") and name.endswith(".json"):
            with open(os.path.join(folder, name)) as found:
                data = json.load(found)
            walked = "?" if data["objects"] is None else f"{data['objects']:,}"
            objects.append(f"{walked} walked, {data['frozen']:,} frozen")
            for generation, ms in data["passes"]:
                passes.setdefault(generation, []).append(ms)
    if not passes:
        return None
    parts = []
    for generation, times in sorted(passes.items()):
        times.sort()
        parts.append(f"generation {generation}: {len(times)} passes, median {times[len(times) // 2]:.1f} ms, "
                     f"max {times[-1]:.0f} ms, {sum(times) / 1000:.1f} s in all")
    return "; ".join(parts) + f" (objects at the end, by worker: {'; '.join(objects)})"
