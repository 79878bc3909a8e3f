"""The tour and final protocols mark a withdrawn pair (RULES 8), and a withdrawal makes the
protocols issued before it outdated."""

import shutil

import pytest
from django.utils import translation

from builders import finish_tour, tournament, user
from scoring import protocols
from scoring.protocols import rendering
from tournaments import services, tours
from tournaments.models import Pair

from protocols_world import BASE_URL, pdf_of, pdf_text

pytestmark = pytest.mark.django_db


def test_the_protocols_mark_a_withdrawn_pair(tmp_path):
    org = user("org", superuser=True)
    t = tournament(org, pairs=5)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    finish_tour(tour)
    final = protocols.issue_final_protocol(org, t.pk, base_url=BASE_URL)
    tour_doc = protocols.issue_tour_protocol(org, tour.pk, base_url=BASE_URL)
    services.withdraw_pair(org, Pair.objects.get(tournament=t, number=5))
    for document in (final, tour_doc):
        assert protocols.verify_pdf(pdf_of(document)).status == "genuine_outdated"
    with translation.override("ru"):
        for sheet in (protocols.final_sheet(t), protocols.tour_sheet(tour)):
            assert [r["withdrawn"] for r in sheet["standings"]["rows"] if r["number"] == 5] == [
                "снялась после 1-го тура"]
            assert rendering.render_html(sheet).count("снялась после 1-го тура") == 1
    reissued = protocols.issue_final_protocol(org, t.pk, base_url=BASE_URL)
    assert reissued.pk != final.pk
    assert protocols.verify_pdf(pdf_of(reissued)).status == "genuine"
    if shutil.which("pdftotext"):
        assert "снялась после 1-го тура" in " ".join(pdf_text(pdf_of(reissued), tmp_path).split())
