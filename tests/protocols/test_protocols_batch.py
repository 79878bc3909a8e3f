"""The protocols of a whole tour: one Celery task per table, counted once, a ZIP at the end; run
inline (eager) for the logic and through a real worker process."""

import io
import time
import zipfile

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from config import celery_app
from scoring import documents
from scoring import services as recording
from scoring.models import ProtocolBatch, ProtocolDocument

from protocols_world import BASE_URL, confirm_all, play_short


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
        result = documents.verify_pdf(archive.read(name))
        assert result.status == "genuine", (name, result.details)
        assert result.document.kind == "partition"
        found.append(result.document)
    sums = archive.read("SHA256SUMS").decode().split("\n")
    assert all(d.sha256 in "\n".join(sums) for d in found)
    return found


@pytest.mark.django_db
def test_a_tour_batch_inline(world, eager, client):
    p = play_short(world["ref"], world["p1"].pk)
    confirm_all(world, p.pk)
    confirmed = ProtocolDocument.objects.get(partition=p)
    recording.record(world["other"], world["p2"].pk, "lead", {"seat": 2})  # still playing: its protocol says so
    with pytest.raises(PermissionDenied):
        documents.start_tour_batch(world["chief"], world["tour"].pk, base_url=BASE_URL)
    batch = documents.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL)
    batch.refresh_from_db()
    assert (batch.status, batch.total, batch.done, batch.failed) == ("ready", 2, 2, 0)
    found = check_zip(zip_of(batch), tables=2)
    assert confirmed.pk in {d.pk for d in found}  # the confirmed document was reused, not made again
    # Running a table's task again changes nothing.
    assert documents.make_batch_item(batch.pk, p.pk) is False
    batch.refresh_from_db()
    assert batch.done == 2
    # The organiser's pages: progress, its JSON, the ZIP.
    client.force_login(world["org"])
    args = [world["tournament"].slug, 1, batch.pk]
    page = client.get(reverse("protocol-batch", args=args))
    assert page.status_code == 200 and 'data-done="2"' in page.content.decode()
    status = client.get(reverse("protocol-batch-status", args=args)).json()
    assert status["ready"] and status["done"] == status["total"] == 2 and status["zip"].endswith("/zip/")
    response = client.get(status["zip"])
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert len(zipfile.ZipFile(io.BytesIO(response.content)).namelist()) == 4
    client.force_login(world["ref"])
    assert client.get(reverse("protocol-batch-status", args=args)).status_code == 403


@pytest.mark.django_db
def test_a_draft_tour_has_no_batch(world):
    from tournaments import services as tournament_services

    recording.record(world["ref"], world["p1"].pk, "no_show", {"absent": "A"})
    recording.record(world["other"], world["p2"].pk, "no_show", {"absent": "B"})
    draft = tournament_services.generate_tour(world["org"], world["tournament"])
    with pytest.raises(ValidationError, match="not published"):
        documents.start_tour_batch(world["org"], draft.pk, base_url=BASE_URL)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_tour_batch_on_a_real_worker(world, celery_worker_process):
    play_short(world["ref"], world["p1"].pk)
    play_short(world["other"], world["p2"].pk)
    batch = documents.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL,
                                       queue=celery_worker_process)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        batch.refresh_from_db()
        if batch.status in ("ready", "failed"):
            break
        time.sleep(0.5)
    assert (batch.status, batch.done, batch.failed, batch.error) == ("ready", 2, 0, "")
    check_zip(zip_of(batch), tables=2)
