"""What the protocols show, their PDFs (A4, Russian, fonts shipped with the project, 30 deals on
their pages), and new versions after a correction."""

import re
import shutil
import subprocess

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation
from django.utils.translation import gettext

from scoring import protocols
from scoring.models import ProtocolDocument
from tournaments.models import Tour

from protocols_world import (BASE_URL, confirm_all, page_count, pdf_of, pdf_text, play_30_deals, play_short)
from scoring.recording import commands

pytestmark = pytest.mark.django_db


def test_the_partition_sheet_has_every_deal_warning_penalty_and_signature(world):
    p = play_short(world["ref"], world["p1"].pk)
    sheet = protocols.partition_sheet(p)
    assert (sheet["tour"].number, sheet["table"].number, sheet["referee_name"]) == (1, 1, "ref")
    assert sheet["first_leader"] == 1 and sheet["first_leader_name"] == str(world["table"].seat1)
    assert [(d["n"], d["leader"], d["end"], d["pips_a"], d["pips_b"], d["winner"], d["points"],
             d["total_a"], d["total_b"]) for d in sheet["deals"]] == [
        (1, 1, "domino", 20, 40, "A", 60, 60, 0), (2, 2, "fish", 10, 105, "A", 115, 200, 0)]
    warning, penalty = sheet["entries"]
    assert (warning["seat"], warning["code"], warning["consequence"], warning["counted"]) == (2, "move_time", "warning",
                                                                                           False)
    assert (penalty["seat"], penalty["code"], penalty["consequence"], penalty["delta"]) == (4, "signs", "penalty",
                                                                                            "A +25")
    # One running total: the penalty written after deal 1 between deal 1 and deal 2.
    assert [(line["kind"], line["delta"], line["total_a"], line["total_b"]) for line in sheet["lines"]] == [
        ("deal", "A +60", 60, 0), ("penalty", "A +25", 85, 0), ("deal", "A +115", 200, 0)]
    assert warning["at"] is not None and penalty["at"] >= warning["at"]
    assert sheet["totals"] == (200, 0) and sheet["decision"].winner == "A" and sheet["decision"].reason == "target"
    assert sheet["started_at"] and sheet["finished_at"] and sheet["finished"] and not sheet["confirmed"]
    assert [s["seat"] for s in sheet["signatures"]] == [1, 2, 3, 4, 0]
    assert all(s["confirmation"] is None for s in sheet["signatures"])


@pytest.mark.pdfsig  # poppler-utils: pdftotext, pdffonts
def test_a_30_deal_partition_fits_a4_in_russian_with_the_shipped_fonts(world, tmp_path):
    p = play_30_deals(world["ref"], world["p1"].pk)
    assert (p.deals, p.winner, p.points_a, p.points_b) == (30, "A", 213, 198)
    confirm_all(world, p.pk)
    document = protocols.documents_of(partition=p).get()
    data = pdf_of(document)
    assert 1 <= page_count(data) <= 2
    text = pdf_text(data, tmp_path)
    # Cyrillic as text (not boxes): the tournament, the venue, every player; the page is Russian.
    for word in ("Кубок клуба", "Москва, клуб «Рыба»", "Игрок1а", "Игрок1б", "Игрок2а", "Игрок2б"):
        assert word in text
    with translation.override("ru"):
        assert gettext("Referee") in text and gettext("Referee") != "Referee"
    # Every deal's line with its running totals, in order.
    for deal in protocols.partition_sheet(p)["deals"]:
        assert re.search(rf"^\s*{deal['n']}\s+{deal['leader']}\. Игрок.*\s{deal['total_a']}\s+{deal['total_b']}\s*$",
                         text, re.M), deal
    assert document.code in text and "213 : 198" in text
    # A4 (595 x 842 points), and no font but the shipped DejaVu.
    path = tmp_path / "p.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    assert re.search(r"Page size:\s+595\.\d* x 841\.\d*|Page size:\s+595\.\d* x 842", info), info
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True).stdout.splitlines()[2:]
    assert fonts and all("Protocol-Sans" in line and " yes yes yes " in line for line in fonts), fonts


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)")
def test_a_protocol_issued_before_everyone_confirmed_says_so(world, tmp_path):
    p = play_short(world["ref"], world["p1"].pk)
    document = protocols.issue_partition_protocol(world["org"], p.pk, base_url=BASE_URL)
    assert not document.confirmed
    with translation.override("ru"):
        warning = gettext("Not confirmed: the players and the referee have not all confirmed this version of the "
                          "protocol.")
    assert warning.split(":")[0] in pdf_text(pdf_of(document), tmp_path)
    assert protocols.issue_partition_protocol(world["org"], p.pk, base_url=BASE_URL).pk == document.pk  # same state
    with pytest.raises(PermissionDenied):
        protocols.issue_partition_protocol(world["other"], p.pk, base_url=BASE_URL)  # another table's referee


def test_a_correction_makes_a_new_version_to_confirm_and_the_old_pdf_stays(world, client):
    p = play_short(world["ref"], world["p1"].pk)
    confirm_all(world, p.pk)
    first = protocols.documents_of(partition=p).get()
    assert first.confirmed and first.version == p.version
    assert protocols.verify_pdf(pdf_of(first)).status == "genuine"

    corrected = commands.correct_deal(world["chief"], p.pk, 1, {"end": "domino", "seat": 1, "pips": {"A": 20, "B": 50}},
                                       reason="pips of pair B miscounted")
    assert corrected.version == first.version + 1
    result = protocols.verify_pdf(pdf_of(first))
    assert result.status == "genuine_outdated" and "version" in " ".join(result.details)
    # The new version is not confirmed: nothing frozen yet, no new document.
    assert protocols.confirmation_state(corrected)["done"] == {}
    assert protocols.documents_of(partition=p).count() == 1
    confirm_all(world, p.pk)
    second = protocols.documents_of(partition=p).first()
    assert second.pk != first.pk and second.version == corrected.version and second.confirmed
    assert protocols.verify_pdf(pdf_of(second)).status == "genuine"
    old = protocols.verify_pdf(pdf_of(first))
    assert old.status == "genuine_outdated" and old.state.newest.pk == second.pk
    sheet = protocols.partition_sheet(corrected)
    assert sheet["corrections"][0]["reason"] == "pips of pair B miscounted"
    assert protocols.partition_sheet(corrected, first.version)["totals"] == (200, 0)
    # The old PDF is still there, byte for byte.
    response = client.get(f"/en/verify/{first.code}/pdf/")
    assert response.status_code == 200 and response.content == pdf_of(first)


def test_tour_and_final_protocols(world, tmp_path):
    play_short(world["ref"], world["p1"].pk)
    commands.record(world["other"], world["p2"].pk, "no_show", {"absent": "B"})
    assert Tour.objects.get(pk=world["tour"].pk).status == Tour.Status.FINISHED
    sheet = protocols.tour_sheet(world["tour"])
    assert [(r["table"].number, r["points"], r["winner"]) for r in sheet["rows"]] == [(1, (200, 0), "A"),
                                                                                      (2, (200, 0), "A")]
    assert len(sheet["standings"]["rows"]) == 4 and sheet["standings"]["rows"][0]["values"][0] == 1
    keys = [c.key for c in sheet["standings"]["columns"]]
    assert keys[:5] == ["tournament_points", "points_difference", "points_for", "buchholz", "head_to_head"]
    assert {"points_against", "penalties"} <= set(keys)
    with pytest.raises(PermissionDenied):
        protocols.issue_tour_protocol(world["ref"], world["tour"].pk, base_url=BASE_URL)
    tour_doc = protocols.issue_tour_protocol(world["chief"], world["tour"].pk, base_url=BASE_URL)
    final_doc = protocols.issue_final_protocol(world["org"], world["tournament"].pk, base_url=BASE_URL)
    assert (tour_doc.kind, tour_doc.tour_id, final_doc.kind) == ("tour", world["tour"].pk, "final")
    assert tour_doc.summary["tables"] == 2 and final_doc.summary["entrants"] == 4
    for doc in (tour_doc, final_doc):
        assert protocols.verify_pdf(pdf_of(doc)).status == "genuine"
    # New results make the tour protocol outdated.
    commands.correct_deal(world["chief"], world["p1"].pk, 1, {"end": "domino", "seat": 1, "pips": {"A": 21, "B": 40}},
                           reason="typo")
    assert protocols.verify_pdf(pdf_of(tour_doc)).status == "genuine_outdated"
    assert protocols.verify_pdf(pdf_of(final_doc)).status == "genuine_outdated"
    if shutil.which("pdftotext"):
        text = pdf_text(pdf_of(tour_doc), tmp_path)
        for name in ("Игрок1а", "Игрок4б"):
            assert name in text


def test_documents_are_kept_with_their_hash_and_code(world):
    import hashlib

    p = play_short(world["ref"], world["p1"].pk)
    document = ProtocolDocument.objects.get(pk=protocols.issue_partition_protocol(world["org"], p.pk,
                                                                                  base_url=BASE_URL).pk)
    data = bytes(document.pdf)
    assert document.sha256 == hashlib.sha256(data).hexdigest() and document.size == len(data)
    assert protocols.issuing.CODE_RE.match(document.code)
    assert document.summary["pairs"]["A"] == [str(x) for x in world["table"].pair_a.players]
    assert protocols.signing.claimed_code(data) == document.code


def test_a_pdf_that_fails_to_issue_on_the_last_confirmation_is_offered_again(world, client, monkeypatch):
    p = play_short(world["ref"], world["p1"].pk)

    def broken(html):
        raise RuntimeError("the renderer broke")

    monkeypatch.setattr(protocols.rendering, "render_pdf", broken)
    confirm_all(world, p.pk)  # the confirmations stand
    assert not protocols.documents_of(partition=p).exists()
    client.force_login(world["ref"])
    url = f"/en/tournaments/{world['tournament'].slug}/tours/1/tables/1/protocol/"
    page = client.get(url + "confirm/").content.decode()
    assert "The signed PDF could not be issued yet." in page and url + "pdf/" in page
    monkeypatch.undo()
    response = client.get(url + "pdf/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert protocols.documents_of(partition=p).get().confirmed
