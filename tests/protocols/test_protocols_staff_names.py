"""A referee whose login the organiser made with his full name: the protocol prints the name,
not the login."""

import shutil

import pytest

from scoring import protocols
from tournaments import services

from protocols_world import BASE_URL, pdf_of, pdf_text, play_short

pytestmark = pytest.mark.django_db


def test_the_protocol_prints_the_referees_full_name(world, tmp_path):
    made = services.add_new_staff(world["org"], world["tournament"], username="ilina", first_name="Анна",
                                  last_name="Ильина", kind="referee")
    services.assign_referee(world["org"], world["table"], made.user)
    p = play_short(made.user, world["p1"].pk)
    assert protocols.partition_sheet(p)["referee_name"] == "Ильина Анна"  # surname first, as a player's name
    document = protocols.issue_partition_protocol(made.user, p.pk, base_url=BASE_URL)
    if shutil.which("pdftotext"):
        text = pdf_text(pdf_of(document), tmp_path)
        assert "Ильина Анна" in text and "ilina" not in text
