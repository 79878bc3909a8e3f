"""The tournament's archive for the federation: a protocol batch over every published tour, packed
with the final protocol, the standings, the crosstable, a manifest and SHA256SUMS; run inline (eager)."""

import hashlib
import io
import json
import subprocess
import zipfile

import openpyxl
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from config import celery_app
from scoring import engine, protocols
from scoring.models import Partition, ProtocolBatch, ProtocolDocument
from tournaments import services
from tournaments.models import Entry

from builders import tournament, user
from protocols_world import BASE_URL, confirm_all, pdfsig, play_short
from scoring.recording import commands


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def zip_of(batch) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(bytes(ProtocolBatch.objects.values_list("archive", flat=True).get(pk=batch.pk))))


def make_archive(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the tasks are sent once the batch is stored
        batch = protocols.start_archive(world["org"], world["tournament"].pk, base_url=BASE_URL)
    batch.refresh_from_db()
    return batch


@pytest.mark.pdfsig
@pytest.mark.django_db
def test_the_archive_holds_every_protocol_checked_by_its_manifest(world, eager, client, tmp_path,
                                                                  django_capture_on_commit_callbacks):
    slug = world["tournament"].slug
    p1 = play_short(world["ref"], world["p1"].pk)
    confirm_all(world, p1.pk)
    confirmed = ProtocolDocument.objects.get(partition=p1)
    commands.record(world["other"], world["p2"].pk, "lead", {"seat": 2})
    commands.record(world["other"], world["p2"].pk, "deal", {"end": "domino", "seat": 2, "pips": {"A": 30, "B": 7}})
    p2 = Partition.objects.get(pk=world["p2"].pk)  # one deal finished, still playing: no winner yet
    batch = make_archive(world, django_capture_on_commit_callbacks)
    assert (batch.status, batch.tour, batch.total, batch.done, batch.failed, batch.error) == (
        "ready", None, 2, 2, 0, "")
    archive = zip_of(batch)
    names = archive.namelist()
    prefix = f"tour-01/{slug}-tour-01"
    assert set(names) == {
        f"{prefix}-protocol.pdf", f"{prefix}-table-001-v{p1.version}.pdf", f"{prefix}-table-001-v{p1.version}.json",
        f"{prefix}-table-002-v{p2.version}.pdf", f"{prefix}-table-002-v{p2.version}.json",
        f"{slug}-final-protocol.pdf", f"standings-{slug}-pairs-live.csv", f"standings-{slug}-players-live.csv",
        f"standings-{slug}-pairs-live.xlsx", f"standings-{slug}-players-live.xlsx",
        f"crosstable-{slug}-pairs-live.pdf", f"crosstable-{slug}-players-live.pdf",
        f"crosstable-{slug}-pairs-live.xlsx", f"crosstable-{slug}-players-live.xlsx",
        "manifest.json", "SHA256SUMS"}
    assert batch.kind == "archive" and batch.is_archive

    # The manifest names every other file with its size and SHA-256.
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["format"] == "domino-archive/1" and manifest["tournament"]["slug"] == slug
    assert manifest["generated_at"] and manifest["errors"] == []
    listed = {f["name"]: f for f in manifest["files"]}
    assert set(listed) == set(names) - {"manifest.json", "SHA256SUMS"}
    for name, entry in listed.items():
        data = archive.read(name)
        assert entry["size"] == len(data) and entry["sha256"] == hashlib.sha256(data).hexdigest(), name
    # sha256sum itself checks the unpacked folder, the manifest included.
    archive.extractall(tmp_path / "unpacked")
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=tmp_path / "unpacked", capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count(": OK") == len(names) - 1

    # The confirmed protocol is the document issued at the table, not a new one; its signature holds.
    table1 = archive.read(f"{prefix}-table-001-v{p1.version}.pdf")
    assert hashlib.sha256(table1).hexdigest() == confirmed.sha256
    pdfsig(table1, tmp_path)
    final = protocols.verify_pdf(archive.read(f"{slug}-final-protocol.pdf"))
    assert final.status == "genuine" and final.document.kind == "final"

    # The protocol files read back with the engine: table 1 as played, table 2 at its one finished deal.
    first = engine.score_protocol(json.loads(archive.read(f"{prefix}-table-001-v{p1.version}.json")))
    p1.refresh_from_db()
    assert (first["totals"]["A"], first["totals"]["B"], first["winner"]) == (p1.points_a, p1.points_b, "A")
    second = engine.score_protocol(json.loads(archive.read(f"{prefix}-table-002-v{p2.version}.json")))
    assert len(second["deals"]) == 1 and second["winner"] is None

    # The standings file is the standings page's file (in Russian, as the protocols).
    with translation.override("ru"):
        russian = reverse("standings-csv", args=[slug])
    assert archive.read(f"standings-{slug}-pairs-live.csv") == client.get(russian).content
    # The crosstable and the standings workbooks name the players; the crosstable's PDF too, in Russian.
    last_name = world["tournament"].entries.select_related("player").first().player.last_name
    for name in (f"crosstable-{slug}-pairs-live.xlsx", f"standings-{slug}-players-live.xlsx"):
        cells = {str(c.value) for row in openpyxl.load_workbook(io.BytesIO(archive.read(name))).active.iter_rows()
                 for c in row if c.value is not None}
        assert any(last_name in cell for cell in cells), name
    (tmp_path / "crosstable.pdf").write_bytes(archive.read(f"crosstable-{slug}-pairs-live.pdf"))
    text = subprocess.run(["pdftotext", "crosstable.pdf", "-"], cwd=tmp_path, capture_output=True, text=True,
                          check=True).stdout
    assert "кросс-таблица" in text.lower() and last_name in text

    # Asked again for the same state: the same archive; the organiser's pages give it.
    assert protocols.start_archive(world["org"], world["tournament"].pk, base_url=BASE_URL).pk == batch.pk
    client.force_login(world["org"])
    page = client.get(reverse("tournament-archives", args=[slug]))
    assert page.status_code == 200 and reverse("tournament-archive", args=[slug, batch.pk]) in page.content.decode()
    status = client.get(reverse("tournament-archive-status", args=[slug, batch.pk])).json()
    assert status["ready"] and status["file"] == reverse("tournament-archive-zip", args=[slug, batch.pk])
    response = client.get(status["file"])
    assert response.status_code == 200 and response["Content-Disposition"] == f'attachment; filename="{slug}-archive.zip"'
    assert zipfile.ZipFile(io.BytesIO(response.content)).namelist() == names
    # The archive is no tour's batch, nor a tour's batch the archive.
    assert client.get(reverse("protocol-batch", args=[slug, 1, batch.pk])).status_code == 404


@pytest.mark.django_db
def test_a_changed_tournament_makes_a_new_archive_with_its_team_standings(world, eager,
                                                                           django_capture_on_commit_callbacks):
    play_short(world["ref"], world["p1"].pk)
    first = make_archive(world, django_capture_on_commit_callbacks)
    t = world["tournament"]
    Entry.objects.filter(tournament=t).update(club="Рыба")
    services.update_tournament(world["org"], t, team_best=2)
    second = make_archive(world, django_capture_on_commit_callbacks)
    assert second.pk != first.pk and second.status == "ready"
    archive = zip_of(second)
    teams = archive.read(f"standings-{t.slug}-teams-live.csv").decode("utf-8-sig").splitlines()
    # One club of four pairs: its best two are pair 1 (its win) and a pair without a result (0, 0).
    won = Partition.objects.get(pk=world["p1"].pk)
    assert teams[1].split(";")[:4] == ["1", "Рыба", "1", str(won.points_a - won.points_b)]
    assert any(f["name"].endswith("-teams-live.csv") for f in json.loads(archive.read("manifest.json"))["files"])


@pytest.mark.django_db
def test_only_the_organiser_makes_and_takes_the_archive(world, client):
    slug = world["tournament"].slug
    for who in ("chief", "ref"):
        with pytest.raises(PermissionDenied):
            protocols.start_archive(world[who], world["tournament"].pk, base_url=BASE_URL)
        client.force_login(world[who])
        assert client.get(reverse("tournament-archives", args=[slug])).status_code == 403
        assert client.post(reverse("tournament-archives", args=[slug])).status_code == 403
    assert not ProtocolBatch.objects.exists()
    batch = protocols.start_archive(world["org"], world["tournament"].pk, base_url=BASE_URL)
    client.force_login(world["chief"])
    assert client.get(reverse("tournament-archive", args=[slug, batch.pk])).status_code == 403
    assert client.get(reverse("tournament-archive-zip", args=[slug, batch.pk])).status_code == 403


@pytest.mark.django_db
def test_a_tournament_without_a_published_tour_has_no_archive():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4)
    with pytest.raises(ValidationError, match="No published tour"):
        protocols.start_archive(org, t.pk, base_url=BASE_URL)
    assert not ProtocolBatch.objects.exists() and not Partition.objects.exists()
