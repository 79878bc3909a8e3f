"""The protocol of a Goat table of the demo (long Cyrillic names): every player seated confirms
with his PIN on the referee's device, then the referee; the signed PDF shows each game's deals
and the players' game points, goats and scores, and pdfsig accepts it; so do the tour and final
protocols, with the Goat columns."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Partition, SeatResult
from tournaments.models import Tour, Tournament

from protocols_world import pdf_text, pdfsig

pytestmark = [pytest.mark.django_db, pytest.mark.pdfsig]


@pytest.fixture
def goat(client):
    call_command("load_demo", verbosity=0)
    tournament = Tournament.objects.get(slug="goat")
    assert client.login(username="organiser", password="demo-organiser")
    return tournament


def test_a_goat_table_protocol_is_confirmed_signed_and_shows_its_games(goat, client, tmp_path):
    tour = Tour.objects.filter(tournament=goat, status=Tour.Status.FINISHED).order_by("number").first()
    table = tour.tables.order_by("number").first()
    players = table.players
    assert 2 <= len(players) <= 4 and table.pair_a is None
    for seat, player in enumerate(players, 1):
        response = client.post(reverse("player-pin", args=[player.pk]), {"pin": f"{seat}" * 4, "pin_again": f"{seat}" * 4})
        assert response.status_code == 302

    page = client.get(reverse("partition-protocol", args=[goat.slug, tour.number, table.number]))
    assert page.status_code == 200
    html = page.content.decode()
    assert all(str(p) in html for p in players) and "Пара A" not in html

    referee = client.__class__()
    assert referee.login(username="referee", password="demo-referee")
    confirm = reverse("partition-confirm", args=[goat.slug, tour.number, table.number])
    version = Partition.objects.get(table=table).version
    for seat in range(1, len(players) + 1):
        referee.post(confirm, {"seat": seat, "pin": f"{seat}" * 4, "version": version})
    assert not Partition.objects.get(table=table).documents.exists()  # the referee has not confirmed yet
    response = referee.post(confirm, {"seat": 0, "version": version}, follow=True)
    assert "the protocol is frozen" in response.content.decode()
    assert [d.confirmed for d in Partition.objects.get(table=table).documents.all()] == [True]

    response = client.get(reverse("partition-protocol-pdf", args=[goat.slug, tour.number, table.number]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdfsig(response.content, tmp_path, "goat.pdf")
    text = re.sub(r"\s+", " ", pdf_text(response.content, tmp_path))
    assert "ПРОТОКОЛ ПАРТИИ" in text.upper() and "ПАРТИЯ 1 ИЗ" in text.upper() and "ИТОГ ВСТРЕЧИ" in text.upper()
    document = Partition.objects.get(table=table).documents.get()
    verified = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(
        reverse("protocol-short", args=[document.code])).content.decode()))
    for row in SeatResult.objects.filter(partition__table=table).select_related("player"):
        # The sitting's line of each player: seat, name, game points, goats, total score.
        assert re.search(rf"{row.seat} {re.escape(str(row.player))} {row.game_points} {row.goats} {row.score}\b", text), (
            row, text)
        # The verification page says what the document certifies for him.
        assert (f"seat {row.seat} {row.player}: {row.game_points} game points, {row.goats} goats, score {row.score}"
                in verified), verified


def test_the_tour_and_final_protocols_of_a_goat_event_show_the_goat_columns_and_sign(goat, client, tmp_path):
    tour = Tour.objects.filter(tournament=goat, status=Tour.Status.FINISHED).order_by("number").first()
    page = client.get(reverse("tour-protocols", args=[goat.slug, tour.number]))
    assert page.status_code == 200
    assert all(str(p) in page.content.decode() for p in tour.tables.get(number=1).players)
    response = client.get(reverse("tour-protocol-pdf", args=[goat.slug, tour.number]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf", response
    pdfsig(response.content, tmp_path, "tour.pdf")
    text = re.sub(r"\s+", " ", pdf_text(response.content, tmp_path))
    # Each player's line of his table (seat, name, game points, goats, score), and the Goat standings.
    for row in SeatResult.objects.filter(partition__table__tour=tour).select_related("player"):
        assert re.search(rf"{row.seat} {re.escape(str(row.player))} {row.game_points} {row.goats} {row.score}\b", text)
    assert "Игровые очки" in text and "Козлы" in text and "Пара A" not in text
    response = client.get(reverse("final-protocol-pdf", args=[goat.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf", response
    pdfsig(response.content, tmp_path, "final.pdf")
    assert "Игровые очки" in re.sub(r"\s+", " ", pdf_text(response.content, tmp_path))
