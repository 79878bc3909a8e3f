"""The paper of a large tour made by Celery: laid out by chunks of tables (the progress moving
after each) into ONE PDF read back with pdftotext, the same batch for the same forms, a new one
when they change, a run twice counted once, a stalled batch resumed, and who may do what. The
tests shrink the module's sizes (DIRECT_TABLES, CHUNK_TABLES) instead of building 17 tables."""

import datetime
import re
import shutil
import time

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from config import celery_app
from scoring import protocols
from scoring.models import ProtocolBatch
from scoring.protocols import batch_jobs, paper, tasks
from tournaments import services

from builders import refereed_tour, user
from livetools import login
from protocols_world import BASE_URL, page_count, pdf_text

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")


@pytest.fixture
def world(db, monkeypatch):
    monkeypatch.setattr(paper, "CHUNK_TABLES", 1)  # two tables: two chunks, the progress moves twice
    monkeypatch.setattr(paper, "DIRECT_TABLES", 1)  # two tables: a "large" tour
    return refereed_tour(target=200)


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def stored_pdf(batch) -> bytes:
    return bytes(ProtocolBatch.objects.values_list("archive", flat=True).get(pk=batch.pk))


def check_players(text: str, world) -> None:
    pages = text.split("\f")
    for table in (world["table"], world["table2"]):
        form = next(page for page in pages if re.search(rf"Стол {table.number}\b", page))
        for seat, player in enumerate(table.seats, 1):
            assert re.search(rf"\b{seat}\. {re.escape(str(player))}", form), (table.number, seat, player)


def start(who, world, **kwargs):
    return protocols.start_paper_batch(who, world["tour"].pk, base_url=BASE_URL, **kwargs)


@pytest.mark.django_db
def test_a_paper_batch_lays_out_every_table_into_one_pdf_with_progress(world, eager, tmp_path, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    # What the batch says after each chunk, read from the database while the worker lays out.
    seen = []
    real = paper.tour_forms

    def watched(*args, laid_out, **kwargs):
        def counted(tables):
            laid_out(tables)
            seen.append(ProtocolBatch.objects.values_list("done", "status").get(kind="paper"))
        return real(*args, laid_out=counted, **kwargs)

    monkeypatch.setattr(paper, "tour_forms", watched)
    with django_capture_on_commit_callbacks(execute=True):  # the task is sent once the batch is stored
        batch = start(world["ref"], world)  # a referee of the tour prints the paper, as in the request
    batch.refresh_from_db()
    assert seen == [(1, "running"), (2, "assembling")]
    assert (batch.kind, batch.status, batch.total, batch.done, batch.error) == ("paper", "ready", 2, 2, "")
    pdf = stored_pdf(batch)
    assert page_count(pdf) == 2  # one form a table, in ONE PDF
    check_players(pdf_text(pdf, tmp_path), world)
    # The task run again (a redelivered message) changes nothing.
    tasks.paper_for_tour.apply(args=[batch.pk])
    batch.refresh_from_db()
    assert (batch.status, batch.done) == ("ready", 2) and stored_pdf(batch) == pdf
    assert len(seen) == 2


@pytest.mark.django_db
def test_a_second_run_over_the_first_counts_each_table_once(world):
    with transaction.atomic():  # its task is lost: run here, as if twice
        batch = start(world["org"], world)
    # A first run laid out table 1 and is still moving: the same task delivered again leaves it be.
    ProtocolBatch.objects.filter(pk=batch.pk).update(done=1, progressed_at=timezone.now())
    batch_jobs.make_paper(batch.pk)
    batch.refresh_from_db()
    assert (batch.status, batch.done, batch.archive) == ("running", 1, None)
    # The first run died: the next lays both tables out again, counting table 1 once.
    ProtocolBatch.objects.filter(pk=batch.pk).update(
        progressed_at=timezone.now() - datetime.timedelta(seconds=protocols.BATCH_STALL_SECONDS + 1))
    batch_jobs.make_paper(batch.pk)
    batch.refresh_from_db()
    assert (batch.status, batch.done, batch.total) == ("ready", 2, 2)
    assert batch_jobs.make_paper(batch.pk).status == "ready"  # and once more: stored once, nothing moves
    batch.refresh_from_db()
    assert batch.done == 2


@pytest.mark.django_db
def test_the_same_forms_give_the_same_batch_and_changed_forms_supersede_it(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as sent:
        first = start(world["org"], world)
    assert len(sent) == 1
    with django_capture_on_commit_callbacks() as sent:
        assert start(world["chief"], world).pk == first.pk  # asked again: the same batch, no new task
    assert sent == []
    # A referee changes: the forms print his name, so they are new.
    services.assign_referee(world["org"], world["table2"], world["ref"])
    second = start(world["org"], world)
    first.refresh_from_db()
    assert second.pk != first.pk and first.status == "superseded" and second.status == "running"
    # The signed protocols' batches are another kind: one of each may be at work.
    protocols.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL)
    assert ProtocolBatch.objects.filter(tour=world["tour"], status="running").count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        ProtocolBatch.objects.create(tournament=world["tournament"], tour=world["tour"], kind="paper", total=2,
                                     base_url=BASE_URL)
    # The seats change before the worker lays the forms out: it lays out nothing and says why.
    table = world["table"]
    table.seat1, table.seat3 = table.seat3, table.seat1
    table.save(update_fields=["seat1", "seat3"])
    batch_jobs.make_paper(second.pk)
    second.refresh_from_db()
    assert (second.status, second.done, second.archive) == ("superseded", 0, None)
    assert "changed" in second.error
    third = start(world["org"], world)
    assert third.pk not in (first.pk, second.pk) and third.status == "running"


@pytest.mark.django_db
def test_a_starter_no_longer_of_the_staff_fails_the_batch(world):
    with transaction.atomic():
        batch = start(world["other"], world)
    world["t"].roles.filter(user=world["other"]).delete()
    batch_jobs.make_paper(batch.pk)
    batch.refresh_from_db()
    assert batch.status == "failed" and "staff" in batch.error and batch.archive is None


@pytest.mark.django_db
def test_the_pages_of_a_paper_batch(world, eager, django_capture_on_commit_callbacks):
    args = [world["t"].slug, world["tour"].number]
    org = login(world["org"])
    # The tour's page offers a button (a POST) for a large tour, a link for a small one.
    manage = org.get(reverse("tour-manage", args=args)).content.decode()
    assert re.search(r'<form method="post" action="%s"' % reverse("tour-paper", args=args), manage)
    # A GET of a large tour's paper is a page with the button, no PDF.
    page = org.get(reverse("tour-paper", args=args))
    assert page["Content-Type"].startswith("text/html") and "Lay out the paper protocols" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=False):  # its task is lost
        response = org.post(reverse("tour-paper", args=args))
    batch = ProtocolBatch.objects.get(kind="paper")
    url = reverse("paper-batch", args=[*args, batch.pk])
    assert response.status_code == 302 and response["Location"] == url
    page = org.get(url).content.decode()
    assert 'data-done="0"' in page and 'data-total="2"' in page and "Resume" not in page
    assert reverse("paper-batch-status", args=[*args, batch.pk]) in page and "js/batch.js" in page
    assert '<noscript><meta http-equiv="refresh"' in page  # without JavaScript the page reloads itself
    status = org.get(reverse("paper-batch-status", args=[*args, batch.pk])).json()
    assert (status["kind"], status["status"], status["done"], status["ready"]) == ("paper", "running", 0, False)
    assert org.get(reverse("paper-batch-pdf", args=[*args, batch.pk])).status_code == 404  # not ready yet
    # Under the protocols' address a paper batch is not found.
    assert org.get(reverse("protocol-batch", args=[*args, batch.pk])).status_code == 404
    # Stalled: a referee of the tour resumes it from its page.
    ProtocolBatch.objects.filter(pk=batch.pk).update(
        progressed_at=timezone.now() - datetime.timedelta(seconds=protocols.BATCH_STALL_SECONDS + 1))
    assert "Resume" in org.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert login(world["ref"]).post(url).status_code == 302
    batch.refresh_from_db()
    assert (batch.status, batch.done) == ("ready", 2)
    status = org.get(reverse("paper-batch-status", args=[*args, batch.pk])).json()
    assert status["ready"] and status["file"] == reverse("paper-batch-pdf", args=[*args, batch.pk])
    response = org.get(status["file"])
    assert response["Content-Type"] == "application/pdf" and response.content == stored_pdf(batch)
    assert "Open the PDF" in org.get(url).content.decode()
    with pytest.raises(ValidationError, match="nothing to resume"):
        protocols.resume_batch(world["org"], batch.pk)


@pytest.mark.django_db
def test_only_the_tours_staff_start_and_see_the_paper_batch(world, django_capture_on_commit_callbacks):
    outsider = user("outsider")
    with pytest.raises(PermissionDenied):
        start(outsider, world)
    assert not ProtocolBatch.objects.exists()
    args = [world["t"].slug, world["tour"].number]
    assert login(outsider).post(reverse("tour-paper", args=args)).status_code == 403
    with django_capture_on_commit_callbacks(execute=False):
        batch = start(world["other"], world)
    for name in ("page", "status", "pdf"):
        url = reverse(f"paper-batch{'' if name == 'page' else '-' + name}", args=[*args, batch.pk])
        assert login(outsider).get(url).status_code == 403, name
        assert login(world["chief"]).get(url).status_code in (200, 404), name  # the staff: seen (the PDF not ready)
    with pytest.raises(PermissionDenied):
        protocols.resume_batch(outsider, batch.pk)
    # The signed protocols' batch stays an organiser's.
    with django_capture_on_commit_callbacks(execute=False):
        signed = protocols.start_tour_batch(world["org"], world["tour"].pk, base_url=BASE_URL)
    assert login(world["ref"]).get(reverse("protocol-batch", args=[*args, signed.pk])).status_code == 403


@pytest.mark.django_db
def test_a_small_tour_gets_its_paper_in_the_request(world, monkeypatch):
    monkeypatch.setattr(paper, "DIRECT_TABLES", 2)
    args = [world["t"].slug, world["tour"].number]
    manage = login(world["org"]).get(reverse("tour-manage", args=args)).content.decode()
    assert f'href="{reverse("tour-paper", args=args)}"' in manage
    response = login(world["ref"]).get(reverse("tour-paper", args=args))
    assert response["Content-Type"] == "application/pdf" and not ProtocolBatch.objects.exists()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_paper_batch_on_a_real_worker(world, celery_worker_process, tmp_path):
    batch = start(world["org"], world, queue=celery_worker_process)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        batch.refresh_from_db()
        if batch.status in ("ready", "failed"):
            break
        time.sleep(0.5)
    assert (batch.status, batch.done, batch.error) == ("ready", 2, "")
    check_players(pdf_text(stored_pdf(batch), tmp_path), world)
