"""What a deal leaves waiting for the next one is shown where the scores are: a tied `for_one`
fish in Goat (RULES 9.1) and Sea Goat's eggs (9.2), on the table's page, its score sheet and its protocol."""

import re

import pytest

from builders import tournament, user
from scoring.models import Partition
from scoring.recording import commands, storage
from tournaments import services as tournament_services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def _table(regulations):
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="club", regulations=regulations)
    for name in ("Преображенский", "Воскресенская", "Голенищева-Кутузова"):
        tournament_services.register_player(org, t, {"last_name": name, "first_name": "Анастасия"})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    return org, tour.tables.get().partition


def _pages(client, org):
    client.force_login(org)
    base = "/tournaments/club/tours/1/tables/1/"
    return [text(client.get(base + page)) for page in ("live/fragment/", "protocol/", "sheet/")]


def test_a_tied_for_one_fish_shows_the_sum_waiting_for_the_next_deal(client):
    org, partition = _table({"game": "goat", "fish": "for_one"})
    # Fish: seats 2 and 3 hold the highest hands, 20 each: nobody is charged, 10 + 20 + 20 waits.
    commands.record_goat_deal(org, partition.pk, {"lead": 1, "end": "fish", "seat": 1,
                                                  "values": {"1": 10, "2": 20, "3": 20}})
    for page in _pages(client, org):
        assert "Ничья в рыбе: 50 очков добавятся к записи следующего кона" in page
    # The next deal charges it: domino by seat 1, seat 2 the most charged (15 + 50), seat 3 5.
    commands.record_goat_deal(org, partition.pk, {"end": "domino", "seat": 1, "values": {"2": 15, "3": 5}})
    live, protocol, sheet = _pages(client, org)
    assert "Ничья в рыбе" not in live + sheet and protocol.count("Ничья в рыбе") == 1  # deal 1's row only


def test_sea_goat_eggs_show_the_points_going_to_the_next_winner(client):
    org, partition = _table({"game": "sea_goat", "teams": False, "players": 3})
    # Fish by seat 3: seats 1 and 2 tie for the lowest hand, 4 each: eggs, nobody is credited.
    commands.record_goat_deal(org, partition.pk, {"lead": 1, "end": "fish", "seat": 3,
                                                  "values": {"1": 4, "2": 4, "3": 30}})
    carry = storage.engine_sitting(Partition.objects.get(pk=partition.pk)).game.carry
    assert carry > 0
    for page in _pages(client, org):
        assert f"«Яйца»: {carry} очков достанутся победителю следующего кона" in page
