"""The protocols of a whole tour: one Celery task per table, counted once, a ZIP at the end; run
inline (eager) for the logic and through a real worker process."""

import datetime
import hashlib
import io
import time
import zipfile

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from config import celery_app
from scoring import protocols
from scoring.models import ProtocolBatch, ProtocolDocument

from protocols_world import BASE_URL, confirm_all, play_short
from scoring.recording import commands


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def zip_of(batch) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(bytes(ProtocolBatch.objects.values_list("archive", flat=True).get(pk=batch.pk))))


def check_zip(archive: zipfile.ZipFile, tables: int) -> list[ProtocolDocument]:
    names = archive.namelist()
    table_files = sorted(n for n in names if "-table-" in n)
    assert len(table_files) == tables and any(n.endswith("-protocol.pdf") for n in names) and "SHA256SUMS" in names
    found = []
    for name in table_files:
        result = protocols.verify_pdf(archive.read(name))
        assert result.status == "genuine", (name, result.details)
        assert result.document.kind == "partition"
        found.append(result.document)
    sums = archive.read("SHA256SUMS").decode().splitlines()
    assert all(d.sha256 in "\n".join(sums) for d in found)
    # The format of sha256sum (`sha256sum -c SHA256SUMS` in the unpacked ZIP): the hash, two spaces, the name.
    assert sorted(line.split("  ", 1)[1] for line in sums) == sorted(n for n in names if n.endswith(".pdf"))
    assert all(hashlib.sha256(archive.read(line.split("  ", 1)[1])).hexdigest() == line.split("  ")[0] for line in sums)
    return found


@pytest.mark.django_db
def test_a_tour_batch_inline(world, eager, client, django_capture_on_commit_callbacks):
    p = play_short(world["ref"], world["p1"].pk)
    confirm_all(world, p.pk)
    confirmed = ProtocolDocument.objects.get(partition=p)
    commands.record(world["other"], world["p2"].pk, "lead", {"seat": 2})  # still playing: its protocol says so
    with pytest.raises(PermissionDenied):
        protocols.start_tour_batch(world["chief"], world["tour"].pk, base_url=BASE_URL)
    with django_capture_on_commit_callbacks(execute=True):  # the tasks are sent once the batch is stored
        batch = protocols.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL)
    batch.refresh_from_db()
    assert (batch.status, batch.total, batch.done, batch.failed) == ("ready", 2, 2, 0)
    found = check_zip(zip_of(batch), tables=2)
    assert confirmed.pk in {d.pk for d in found}  # the confirmed document was reused, not made again
    # Running a table's task again changes nothing.
    assert protocols.batch_jobs.make_batch_item(batch.pk, p.pk) is False
    batch.refresh_from_db()
    assert batch.done == 2
    # The organiser's pages: progress, its JSON, the ZIP.
    client.force_login(world["org"])
    args = [world["tournament"].slug, 1, batch.pk]
    page = client.get(reverse("protocol-batch", args=args))
    assert page.status_code == 200 and 'data-done="2"' in page.content.decode()
    status = client.get(reverse("protocol-batch-status", args=args)).json()
    assert status["ready"] and status["done"] == status["total"] == 2 and status["file"].endswith("/zip/")
    response = client.get(status["file"])
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert len(zipfile.ZipFile(io.BytesIO(response.content)).namelist()) == 4
    client.force_login(world["ref"])
    assert client.get(reverse("protocol-batch-status", args=args)).status_code == 403


@pytest.mark.django_db
def test_a_draft_tour_has_no_batch(world):
    from tournaments import tours
    from tournaments import tours

    commands.record(world["ref"], world["p1"].pk, "no_show", {"absent": "A"})
    commands.record(world["other"], world["p2"].pk, "no_show", {"absent": "B"})
    draft = tours.generate_tour(world["org"], world["tournament"])
    with pytest.raises(ValidationError, match="not published"):
        protocols.start_tour_batch(world["org"], draft.pk, base_url=BASE_URL)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_tour_batch_on_a_real_worker(world, celery_worker_process):
    play_short(world["ref"], world["p1"].pk)
    play_short(world["other"], world["p2"].pk)
    batch = protocols.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL,
                                       queue=celery_worker_process)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        batch.refresh_from_db()
        if batch.status in ("ready", "failed"):
            break
        time.sleep(0.5)
    assert (batch.status, batch.done, batch.failed, batch.error) == ("ready", 2, 0, "")
    check_zip(zip_of(batch), tables=2)


@pytest.mark.django_db
def test_one_batch_per_state_of_the_tour(world, django_capture_on_commit_callbacks):
    play_short(world["ref"], world["p1"].pk)
    start = lambda: protocols.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL)  # noqa: E731
    with django_capture_on_commit_callbacks() as sent:
        first = start()
    assert len(sent) == 1  # the tasks of the tables
    with django_capture_on_commit_callbacks() as sent:
        assert start().pk == first.pk  # asked again: the same batch, no new tasks
    assert sent == []
    # The tour changes (a table is recorded): a new batch, and the one at work is superseded.
    commands.record(world["other"], world["p2"].pk, "lead", {"seat": 2})
    second = start()
    first.refresh_from_db()
    assert second.pk != first.pk and first.status == "superseded" and second.status == "running"
    assert ProtocolBatch.objects.filter(tour=world["tour"], status__in=["running", "assembling"]).count() == 1
    # The database holds the rule too.
    from django.db import IntegrityError, transaction
    with pytest.raises(IntegrityError), transaction.atomic():
        ProtocolBatch.objects.create(tournament=world["tournament"], tour=world["tour"], total=2, base_url=BASE_URL)


@pytest.mark.django_db
def test_a_stalled_batch_is_resumed_from_its_page(world, eager, client, django_capture_on_commit_callbacks):
    play_short(world["ref"], world["p1"].pk)
    with django_capture_on_commit_callbacks(execute=False):  # its tasks are lost
        batch = protocols.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL)
    client.force_login(world["org"])
    url = reverse("protocol-batch", args=[world["tournament"].slug, 1, batch.pk])
    assert "Resume" not in client.get(url).content.decode()  # at work, not stalled yet
    ProtocolBatch.objects.filter(pk=batch.pk).update(
        progressed_at=timezone.now() - datetime.timedelta(seconds=protocols.BATCH_STALL_SECONDS + 1))
    assert protocols.batch_progress(ProtocolBatch.objects.get(pk=batch.pk))["stalled"]
    page = client.get(url).content.decode()
    assert "Resume" in page
    client.force_login(world["ref"])
    assert client.post(url).status_code == 403  # the organiser's
    client.force_login(world["org"])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    batch.refresh_from_db()
    assert (batch.status, batch.done, batch.failed) == ("ready", 2, 0)
    with pytest.raises(ValidationError, match="nothing to resume"):
        protocols.resume_batch(world["org"], batch.pk)


@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_a_batch(database_url_for_processes, tmp_path):
    """On Redis a task held by a worker that dies goes back to the queue after the visibility
    timeout (3 s here): the worker started again finishes the 8-table batch, each table once.
    (The filesystem broker cannot give a message back.)"""
    import os
    import signal
    import subprocess
    import sys
    import uuid

    from django.conf import settings

    from builders import tournament, user
    from tournaments import tours

    org = user("org", superuser=True)
    t = tournament(org, pairs=16)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    for table in tour.tables.all():
        play_short(org, table.partition.pk)
    queue = f"test-{uuid.uuid4().hex}"
    env = {**os.environ, "DATABASE_URL": database_url_for_processes, "CELERY_VISIBILITY_TIMEOUT": "3",
           "CELERY_TASK_DEFAULT_QUEUE": queue}

    def worker(name):
        with (tmp_path / name).open("wb") as log:
            return subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                                     "--concurrency=1", "-Q", queue, "--without-heartbeat", "--without-gossip",
                                     "--without-mingle", "--loglevel=info"], cwd=settings.BASE_DIR, env=env,
                                    stdout=log, stderr=subprocess.STDOUT)

    def wait_for(condition, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            batch.refresh_from_db()
            if condition():
                return
            time.sleep(0.05)

    first = worker("first.log")
    try:
        batch = protocols.start_tour_batch(org, tour.pk, base_url=BASE_URL, queue=queue)
        assert batch.total == 8
        wait_for(lambda: batch.done >= 2, 120)  # killed in the middle: it holds the next table's task
        first.send_signal(signal.SIGKILL)
        first.wait()
        batch.refresh_from_db()
        assert 2 <= batch.done < batch.total, batch.done
    finally:
        first.kill()
        first.wait()
    second = worker("second.log")
    try:
        wait_for(lambda: batch.status in ("ready", "failed"), 120)
        assert (batch.status, batch.done, batch.failed, batch.error) == ("ready", 8, 0, ""), (
            (tmp_path / "second.log").read_text(errors="replace")[-3000:])
        check_zip(zip_of(batch), tables=8)
    finally:
        second.terminate()
        second.wait(timeout=15)
