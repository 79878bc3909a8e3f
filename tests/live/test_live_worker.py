"""The clocks on a real worker and beat (Redis: the filesystem broker cannot give a message back
when a worker dies). How late a timeout is recorded is the benchmark's to measure; these tests
prove the wiring: a move left to run out is recorded, once per lapse, within the sweep's passes;
the sweep delivered several times records one violation; a worker killed and started again loses
no deadline and doubles none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from livetools import PIN, live_tour
from scoring.live import play, tasks
from scoring.models import ClockLapse, LiveTable, Partition
from scoring.recording import clock
from scoring.recording.storage import engine_partition

pytestmark = [pytest.mark.worker, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(__file__).resolve().parents[2]
FAST = {"time_single": 1, "time_several": 1, "time_fish": 1, "time_pass": 1}


class Processes:
    """The clock service of `make run`, started by the test: a worker and a beat on a queue of
    the test's own."""

    def __init__(self, tmp: Path, database_url: str) -> None:
        self.queue = f"test-{uuid.uuid4().hex}"
        self.tmp = tmp
        self.env = {**os.environ, "DATABASE_URL": database_url, "CELERY_TASK_DEFAULT_QUEUE": self.queue,
                    # A worker restart takes seconds on a loaded machine: not an outage of the service.
                    "CLOCK_OUTAGE_SECONDS": "60"}
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.logs: list[Path] = []

    def _start(self, name: str, *args: str) -> subprocess.Popen:
        log = self.tmp / f"{name}-{len(self.logs)}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            return subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=BASE_DIR,
                                    env=self.env, stdout=out, stderr=subprocess.STDOUT)

    def start_worker(self) -> None:
        queues = f"{self.queue}.sweep"  # the clocks' worker of config/run.sh
        self.worker = self._start("worker", "worker", "--pool=solo", "-Q", queues, "--loglevel=info",
                                  "--without-heartbeat", "--without-gossip", "--without-mingle")
        deadline = time.monotonic() + 60
        while b" ready." not in self.logs[-1].read_bytes():
            assert self.worker.poll() is None, self.logs[-1].read_text(errors="replace")
            assert time.monotonic() < deadline, "the worker did not start in 60 s"
            time.sleep(0.2)

    def start_beat(self) -> None:
        self.beat = self._start("beat", "beat", "--loglevel=info", "--schedule", str(self.tmp / "beat-schedule"))

    def kill_worker(self) -> None:
        assert self.worker is not None
        self.worker.send_signal(signal.SIGKILL)
        self.worker.wait()

    def stop(self) -> None:
        for process in (self.worker, self.beat):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


@pytest.fixture
def service(tmp_path, database_url_for_processes, settings):
    settings.CLOCK_OUTAGE_SECONDS = 60
    processes = Processes(tmp_path, database_url_for_processes)
    settings.CELERY_TASK_DEFAULT_QUEUE = processes.queue
    settings.SWEEP_QUEUE = f"{processes.queue}.sweep"
    yield processes
    processes.stop()


def seat_all(world: dict, partition: Partition) -> None:
    for seat in (1, 2, 3, 4):
        play.claim_seat(partition.pk, seat, PIN)


def due_lapses(partition_id: int) -> int:
    """Lapses whose deadline passed before the table was paused: what must have been recorded."""
    table = LiveTable.objects.get(pk=partition_id)
    assert table.paused_at is not None
    charged = (table.paused_at - table.turn_started_at).total_seconds() - clock.grace()
    return max(0, int(charged // table.allowance))


def wait_until(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.2)


def test_a_move_left_to_run_out_is_recorded_once_per_lapse_by_the_worker_and_the_beat(db, service):
    world = live_tour("digital", FAST)
    service.start_worker()
    service.start_beat()
    play.start_tour(world["chief"], world["tour"])
    seat_all(world, world["p1"])
    wait_until(lambda: ClockLapse.objects.filter(partition=world["p1"]).count() >= 3, 30, "three lapses")
    play.pause(world["ref"], world["p1"].pk, "dispute")
    time.sleep(1.5)  # a timer or a sweep in flight finds the table paused
    recorded = ClockLapse.objects.filter(partition=world["p1"])
    assert recorded.count() == due_lapses(world["p1"].pk)
    assert sorted(recorded.values_list("lapse", flat=True)) == list(range(1, recorded.count() + 1))
    violations = engine_partition(Partition.objects.get(pk=world["p1"].pk)).violations
    assert len(violations) == recorded.count()
    assert [v.consequence for v in violations[:2]] == ["warning", "penalty"]


def test_the_sweep_delivered_three_times_at_once_records_one_violation(db, service):
    world = live_tour("digital", FAST)
    play.start_tour(world["chief"], world["tour"])
    seat_all(world, world["p1"])
    table = LiveTable.objects.get(pk=world["p1"].pk)
    time.sleep(max(0.0, (table.deadline - clock.now()).total_seconds()) + 0.2)
    for _ in range(3):  # no beat: three rounds queued, taken as soon as the worker is up
        tasks.sweep.apply_async(queue=f"{service.queue}.sweep")
    service.start_worker()
    wait_until(lambda: ClockLapse.objects.filter(partition=world["p1"]).exists(), 30, "the lapse")
    play.pause(world["ref"], world["p1"].pk, "dispute")
    time.sleep(1.5)  # the rounds still running find the table paused
    assert ClockLapse.objects.filter(partition=world["p1"], turn=table.turn, lapse=1).count() == 1
    assert ClockLapse.objects.get(partition=world["p1"], lapse=1).by == "sweep"
    assert len(engine_partition(Partition.objects.get(pk=world["p1"].pk)).violations) == \
        ClockLapse.objects.filter(partition=world["p1"]).count()


def test_a_worker_killed_mid_round_loses_and_doubles_no_deadline(db, service):
    world = live_tour("digital", {**FAST, "time_several": 3, "time_single": 3, "time_fish": 3, "time_pass": 3})
    service.start_worker()
    service.start_beat()
    play.start_tour(world["chief"], world["tour"])
    for partition in (world["p1"], world["p2"]):
        seat_all(world, partition)
    time.sleep(0.5)
    service.kill_worker()  # mid-round: the sweep holds a round unacknowledged
    time.sleep(5)  # both deadlines pass with no worker
    service.start_worker()
    wait_until(lambda: ClockLapse.objects.filter(partition=world["p2"]).count() >= 2, 40, "the lapses after restart")
    for partition in (world["p1"], world["p2"]):
        play.pause(world["ref"] if partition == world["p1"] else world["other"], partition.pk, "dispute")
    time.sleep(1.5)
    for partition in (world["p1"], world["p2"]):
        recorded = ClockLapse.objects.filter(partition=partition)
        assert recorded.count() == due_lapses(partition.pk)
        assert sorted(recorded.values_list("lapse", flat=True)) == list(range(1, recorded.count() + 1))
