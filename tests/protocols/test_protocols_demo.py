"""The demo tournament as its organiser and referee use it: every kind of signed PDF is issued
from the pages and accepted by pdfsig. The demo's names are real ones (a 36-letter Cyrillic
tournament name is 68 bytes of UTF-8: more than a certificate's name may hold)."""

import io
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse

from config import celery_app
from scoring.models import Partition, ProtocolBatch
from tournaments.models import Player, Tour, Tournament

from protocols_world import pdfsig

pytestmark = [pytest.mark.django_db, pytest.mark.pdfsig]


@pytest.fixture
def demo(client):
    call_command("load_demo", verbosity=0)
    tournament = Tournament.objects.get(slug="demo")
    assert len(tournament.name.encode()) > 64  # the point of this test
    assert client.login(username="organiser", password="demo-organiser")
    return tournament


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def pdf(response) -> bytes:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf", response
    return response.content


def test_every_protocol_of_the_demo_signs(demo, client, tmp_path, eager, django_capture_on_commit_callbacks):
    slug = demo.slug
    finished = Tour.objects.filter(tournament=demo, status=Tour.Status.FINISHED).order_by("number").first()
    table = finished.tables.order_by("number").first()

    # The signing key page: "create the key" works for a long Cyrillic name.
    response = client.post(reverse("signing-key", args=[slug]), {"action": "create"}, follow=True)
    assert response.status_code == 200 and demo.signing_keys.filter(retired_at__isnull=True).exists()

    # The four players confirm with their PINs on the referee's device, then the referee: the fifth
    # confirmation issues the signed PDF.
    for seat, player in enumerate(table.seats, 1):
        response = client.post(reverse("player-pin", args=[player.pk]), {"pin": f"{seat}" * 4, "pin_again": f"{seat}" * 4})
        assert response.status_code == 302
    referee = client.__class__()
    assert referee.login(username="referee", password="demo-referee")
    confirm = reverse("partition-confirm", args=[slug, finished.number, table.number])
    version = Partition.objects.get(table=table).version
    for seat in (1, 2, 3, 4):
        referee.post(confirm, {"seat": seat, "pin": f"{seat}" * 4, "version": version})
    response = referee.post(confirm, {"seat": 0, "version": version}, follow=True)
    assert "the protocol is frozen" in response.content.decode()
    documents = Partition.objects.get(table=table).documents.all()
    assert [d.confirmed for d in documents] == [True]
    pdfsig(pdf(client.get(reverse("partition-protocol-pdf", args=[slug, finished.number, table.number]))),
           tmp_path, "partition.pdf")

    # A table of the tour under way (not finished: its protocol says so), the tour and the final protocols.
    running = Tour.objects.get(tournament=demo, status=Tour.Status.RUNNING)
    pdfsig(pdf(client.get(reverse("partition-protocol-pdf", args=[slug, running.number, 1]))), tmp_path, "running.pdf")
    pdfsig(pdf(client.get(reverse("tour-protocol-pdf", args=[slug, finished.number]))), tmp_path, "tour.pdf")
    pdfsig(pdf(client.get(reverse("final-protocol-pdf", args=[slug]))), tmp_path, "final.pdf")

    # The whole tour through Celery (inline here), every file of its ZIP.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("tour-protocols", args=[slug, finished.number]))
    assert response.status_code == 302
    batch = ProtocolBatch.objects.get(tour=finished)
    assert (batch.status, batch.done, batch.failed) == ("ready", batch.total, 0), batch.error
    archive = zipfile.ZipFile(io.BytesIO(client.get(reverse("protocol-batch-zip", args=[slug, finished.number, batch.pk])).content))
    names = [n for n in archive.namelist() if n.endswith(".pdf")]
    assert len(names) == batch.total + 1
    for name in names:
        pdfsig(archive.read(name), tmp_path, name)


def test_a_long_organiser_name_and_tournament_name_sign(demo, client, tmp_path):
    organiser = demo.created_by
    organiser.first_name, organiser.last_name = "Александр-Вениамин", "Преображенский-Ольденбургский Д'Артаньян"
    organiser.save()
    demo.name = "Открытый чемпионат Санкт-Петербурга и Ленинградской области по спортивному домино памяти ветеранов"
    demo.save()
    response = client.post(reverse("signing-key", args=[demo.slug]), {"action": "create"})
    assert response.status_code == 302
    key = demo.signing_keys.get()
    assert key.subject.startswith("CN=Открытый чемпионат") and "…" in key.subject
    pdfsig(pdf(client.get(reverse("final-protocol-pdf", args=[demo.slug]))), tmp_path)
    assert Player.objects.exists()
