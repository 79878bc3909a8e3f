"""Invisible right-to-left controls in what people type never reorder a protocol's dates."""

import pytest
from django.db import connection

from scoring import protocols
from tournaments import services
from tournaments.models import Player

from protocols_world import BASE_URL, confirm_all, pdf_of, pdf_text, play_short

pytestmark = pytest.mark.django_db

RLM, RLO = "\u200f", "\u202e"


def test_names_are_kept_without_bidirectional_controls(world):
    t = world["tournament"]
    services.update_tournament(world["org"], t, venue=f"Казань{RLM}", name=f"Кубок{RLO} Татарстана")
    player = world["table"].seat1
    services.update_player(world["org"], player, {"last_name": f"Хабибуллин{RLM}", "club": f"«Рыба»{RLO}"})
    t.refresh_from_db()
    player.refresh_from_db()
    assert (t.venue, t.name, player.last_name, player.club) == ("Казань", "Кубок Татарстана", "Хабибуллин", "«Рыба»")
    # However it is saved.
    player.first_name = f"Ильдар{RLO}"
    player.save(update_fields=["first_name"])
    assert Player.objects.get(pk=player.pk).first_name == "Ильдар"


@pytest.mark.pdfsig  # pdftotext
def test_a_stored_right_to_left_mark_does_not_flip_the_pdf(world, tmp_path):
    # Text stored before the fields cleaned it (raw SQL: every ORM path cleans it now): the PDF
    # isolates every name, so the mark cannot reorder what follows it.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_tournament SET venue = %s", [f"Москва{RLM}"])
        cursor.execute("UPDATE tournaments_player SET last_name = %s WHERE id = %s",
                       [f"Иванов{RLM}", world["table"].seat1_id])
    p = play_short(world["ref"], world["p1"].pk)
    confirm_all(world, p.pk, base_url=BASE_URL)
    text = pdf_text(pdf_of(protocols.documents_of(partition=p).get()), tmp_path)
    assert "Москва · 21.11.2026 – 22.11.2026" in text, text
    assert "1. Иванов · 3. Игрок1б" in text, text
