"""The paper before a tour: every table's blank protocol in one PDF, read back with pdftotext,
a Goat table's own form, the seating list for the wall, and who may print them."""

import re
import shutil

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.protocols import paper
from tournaments import services, tours
from tournaments.models import Tournament

from builders import refereed_tour, tournament, user
from livetools import login
from protocols_world import BASE_URL, pdf_text

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")]


@pytest.fixture
def world():
    world = refereed_tour(target=200)
    world["ref"].first_name, world["ref"].last_name = "Анна", "Ильина"
    world["ref"].save()
    return world


def pages(text: str) -> list[str]:
    return text.split("\f")


def test_each_tables_form_names_its_players_seats_tour_table_referee_and_has_20_empty_deal_rows(world, tmp_path):
    text = pdf_text(paper.tour_forms(world["org"], world["tour"], base_url=BASE_URL), tmp_path)
    for table in (world["table"], world["table2"]):
        form = next(page for page in pages(text) if re.search(rf"Стол {table.number}\b", page))
        assert "Тур 1" in form and "Кубок клуба" in form
        for seat, player in enumerate(table.seats, 1):
            assert re.search(rf"\b{seat}\. {re.escape(str(player))}", form), (seat, player)
        assert f"№{table.pair_a.number}" in form and f"№{table.pair_b.number}" in form
        # The deal rows are numbered and empty: a number alone on its line.
        empty = {int(n) for n in re.findall(r"^\s*(\d+)\s*$", form, re.M)}
        assert set(range(1, 21)) <= empty
        assert "До 200 очков" in form and "40 мин" in form
    first = next(page for page in pages(text) if "Стол 1" in page)
    assert "Ильина Анна" in first


def test_the_seating_list_is_by_table_then_alphabetical(world, tmp_path):
    text = pdf_text(paper.seating_list(world["org"], world["tour"]), tmp_path)
    by_table, alphabetical = text.split("ИГРОКИ ПО АЛФАВИТУ")  # a title, in capitals
    assert by_table.index(str(world["table"].seat1)) < by_table.index(str(world["table2"].seat1))
    rows = re.findall(r"^\s*(Игрок\S+)\s+(\d+)\s+(\d)\s*$", alphabetical, re.M)
    names = [name for name, _table, _seat in rows]
    assert len(names) == 8 and names == sorted(names)
    seat_of = {str(p): (t.number, s) for t in (world["table"], world["table2"]) for s, p in enumerate(t.seats, 1)}
    assert all(seat_of[name] == (int(table), int(seat)) for name, table, seat in rows)


@pytest.mark.parametrize("individual", [False, True])
def test_the_seating_list_names_whoever_has_no_table_this_tour(tmp_path, individual):
    """Five pairs: one has a bye; five players of an individual tour: one sits out. On the wall
    he still finds his name, in both lists."""
    org = user("org", superuser=True)
    if individual:
        t = tournament(org, format=Tournament.Format.INDIVIDUAL)
        for n in range(1, 6):
            services.register_player(org, t, {"last_name": f"Игрок{n}"})
    else:
        t = tournament(org, pairs=5)
    tour = tours.generate_tour(org, t)
    resting = [p for bye in tour.byes.all() for p in bye.pair.players] + [s.player for s in tour.sit_outs.all()]
    assert len(resting) == (1 if individual else 2)
    text = pdf_text(paper.seating_list(org, tour), tmp_path)
    by_table, alphabetical = text.split("ИГРОКИ ПО АЛФАВИТУ")
    label = "не играет в этом туре" if individual else "свободный тур"
    assert ("Не играют в этом туре:" if individual else "Свободный тур:") in by_table
    for player in resting:
        assert str(player) in by_table
        assert re.search(rf"^\s*{player}\s+{label}\s*$", alphabetical, re.M), alphabetical
    listed = re.findall(r"^\s*(Игрок\S+)\s", alphabetical, re.M)
    assert len(listed) == (5 if individual else 10) and listed == sorted(listed)


def test_a_goat_table_gets_its_games_with_each_seats_hand_and_total(tmp_path):
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                   regulations={"game": "goat", "lose_at": 60, "games_per_tour": 2})
    names = ("Преображенский", "Воскресенская", "Богословский")
    for name in names:
        services.register_player(org, t, {"last_name": name})
    tour = tours.generate_tour(org, t)
    text = pdf_text(paper.tour_forms(org, tour, base_url=BASE_URL), tmp_path)
    assert "ПАРТИЯ 1" in text and "ПАРТИЯ 2" in text and "ПАРТИЯ 3" not in text  # titles, in capitals
    table = tour.tables.get()
    for seat, player in enumerate(table.players, 1):
        assert re.search(rf"\b{seat}\. {player}", text)
        assert f"Место {seat}: рука" in text
    assert "Место 4: рука" not in text  # three players, three seats
    assert "Пара A" not in text


def test_only_the_tours_staff_print_the_paper(world, client):
    outsider = user("outsider")
    with pytest.raises(PermissionDenied):
        paper.tour_forms(outsider, world["tour"], base_url=BASE_URL)
    with pytest.raises(PermissionDenied):
        paper.seating_list(outsider, world["tour"])
    args = [world["t"].slug, world["tour"].number]
    assert login(outsider).get(reverse("tour-paper", args=args)).status_code == 403
    assert login(outsider).get(reverse("tour-seating-list", args=args)).status_code == 403
    for name in ("ref", "chief", "org"):
        response = login(world[name]).get(reverse("tour-paper", args=args))
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert login(world["other"]).get(reverse("tour-seating-list", args=args)).content.startswith(b"%PDF")
