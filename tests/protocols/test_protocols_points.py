"""The protocols of a points event (RULES 9.3) with long Cyrillic names: a table's protocol shows
each game's points deal by deal and the players' games won and points; every player seated
confirms with his PIN, then the referee; the signed PDF reads back through pdfsig and the
verification page; the tour and final protocols show the points columns and standings."""

import re

import pytest
from django.urls import reverse

from builders import tournament, user
from scoring import protocols
from scoring.models import Partition, SeatResult
from tournaments import services, tours
from tournaments.models import Tournament

from protocols_world import BASE_URL, PINS, pdf_text, pdfsig
from scoring.recording import commands

pytestmark = [pytest.mark.django_db, pytest.mark.pdfsig]

NAMES = (("Преображенский-Ольденбургский", "Константин"), ("Воскресенская-Благовещенская", "Александра"),
         ("Богословский-Рождественский", "Владимир"))


def plain(data: str) -> str:
    return re.sub(r"\s+", " ", data)


def line(seat_or_rank: int, player, *numbers: int) -> str:
    """A row of a PDF table: the seat (or rank), the player and his numbers; a long name in a
    narrow cell wraps (the first name, or after the hyphen) and pdftotext reads the rest of it after
    the numbers."""
    first, _hyphen, second = player.last_name.partition("-")
    return rf"{seat_or_rank} {first}-\s?(?:{second} )?(?:{player.first_name} )?{' '.join(map(str, numbers))}\b"


@pytest.fixture
def event(client):
    """Three players at one table, two games to 100; played and finished: game 1 100 70 5 (seat
    1), game 2 20 110 30 (seat 2)."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="points",
                   regulations={"game": "points", "players": 3, "target": 100, "games_per_tour": 2})
    for last, first in NAMES:
        services.register_player(org, t, {"last_name": last, "first_name": first})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table = tour.tables.get()
    for points in ({"1": 60, "2": 40, "3": 0}, {"1": 40, "2": 30, "3": 5}, {"1": 20, "2": 110, "3": 30}):
        partition = commands.record_points_deal(org, table.partition.pk, {"points": points})
    assert partition.is_finished
    for seat, player in enumerate(table.players, 1):
        protocols.set_pin(org, player.pk, PINS[seat])
    client.force_login(org)
    return {"org": org, "t": t, "tour": tour, "table": table, "partition": partition}


def test_a_points_table_protocol_is_confirmed_signed_and_shows_its_games(client, event, tmp_path):
    table, partition = event["table"], event["partition"]
    players = [str(p) for p in table.players]
    page = plain(re.sub(r"<[^>]+>", " ", client.get("/tournaments/points/tours/1/tables/1/protocol/").content.decode()))
    assert "Игра на очки" in page and "Пара A" not in page and all(name in page for name in players)
    assert "Регламент: партий: 2, до 100 очков, побеждает наибольшая сумма" in page
    # Game 1 deal by deal: the points and the score of each seat; its winner; then game 2.
    assert "1 60 60 40 40 0 0 2 40 100 30 70 5 5" in page
    assert f"1. {players[0]} 100 победитель 2. {players[1]} 70 3. {players[2]} 5" in page
    assert "Партия 2 из 2" in page and "1 20 20 110 110 30 30" in page
    confirm = plain(re.sub(r"<[^>]+>", " ", client.get("/tournaments/points/tours/1/tables/1/protocol/confirm/")
                           .content.decode()))
    assert f"1 {players[0]} 1 120 2 {players[1]} 1 180 3 {players[2]} 0 35" in confirm

    for seat in (1, 2, 3):
        protocols.confirm(event["org"], partition.pk, seat, pin=PINS[seat], base_url=BASE_URL)
    assert not Partition.objects.get(pk=partition.pk).documents.exists()  # the referee has not confirmed yet
    protocols.confirm(event["org"], partition.pk, 0, base_url=BASE_URL)
    document = Partition.objects.get(pk=partition.pk).documents.get()
    assert document.confirmed and document.summary["game"] == "points"

    response = client.get(reverse("partition-protocol-pdf", args=["points", 1, 1]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdfsig(response.content, tmp_path, "points.pdf")
    text = plain(pdf_text(response.content, tmp_path))
    assert "ИГРА НА ОЧКИ" in text.upper() and "ПАРТИЯ 2 ИЗ 2" in text.upper()
    verified = plain(re.sub(r"<[^>]+>", " ", client.get(reverse("protocol-short", args=[document.code]))
                            .content.decode()))
    for row in SeatResult.objects.filter(partition=partition).select_related("player"):
        # The sitting's line of each player (seat, name, games won, points), in the PDF and as verified.
        assert re.search(line(row.seat, row.player, row.games_won, row.score), text), text
        assert f"место {row.seat} {row.player}: выиграно партий {row.games_won}, очков {row.score}" in verified


def test_the_tour_and_final_protocols_show_games_won_and_points(client, event, tmp_path):
    response = client.get(reverse("tour-protocol-pdf", args=["points", 1]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdfsig(response.content, tmp_path, "tour.pdf")
    text = plain(pdf_text(response.content, tmp_path))
    assert "Выиграно партий" in text and "Набрано очков" in text and "Козлы" not in text
    for row in SeatResult.objects.filter(partition=event["partition"]).select_related("player"):
        assert re.search(line(row.seat, row.player, row.games_won, row.score), text), text
    response = client.get(reverse("final-protocol-pdf", args=["points"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdfsig(response.content, tmp_path, "final.pdf")
    text = plain(pdf_text(response.content, tmp_path))
    # Seat 2 and seat 1 won a game each; seat 2's 180 points first, then 120; seat 3 last.
    players = event["table"].players
    assert re.search(f"{line(1, players[1], 1, 180)}.*{line(2, players[0], 1, 120)}.*{line(3, players[2], 0, 35)}",
                     text), text
