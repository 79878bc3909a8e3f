"""The public standings pages: order and shared ranks on a small hand-checked event, the
after-tour selector and the live standings, player standings, and the CSV export."""

import csv
import io
import re

import pytest

from builders import tournament, user
from scoring.recording import commands
from tournaments import services, tours
from tournaments.models import Pair, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def won(winner: str, points: int) -> dict:
    """A protocol won in one deal by domino: ``points`` pips left, all to the winner."""
    seat = 1 if winner == "A" else 2
    return {"format": "domino-protocol/1", "first_leader": seat,
            "deals": [{"end": "domino", "seat": seat, "pips": {"A": points // 2, "B": points - points // 2}}]}


def seat_tour(org, t, tables):
    """A tour seated by hand (pair numbers A, B), published."""
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t, tour__isnull=True)}
    tour = tours.generate_tour(org, t)
    tours.set_tables(org, tour, [(ids[a], ids[b]) for a, b in tables])
    tours.publish_tour(org, tour)
    return tour


def partition(tour, number):
    return tour.tables.get(number=number).partition


@pytest.fixture
def event():
    """Four pairs, target 100, seated by hand; every result goes through the recording services.

    Tour 1: 1 beats 2 100:0, 4 beats 3 120:0 (table 2: 3 is pair A).
    Tour 2: 3 beats 1 105:0 (table 1: 1 is pair A); 2 against 4 is still being played.
    """
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.MANUAL, regulations={"target": 100})
    tour1 = seat_tour(org, t, [(1, 2), (3, 4)])
    commands.import_protocol(org, partition(tour1, 1).pk, won("A", 100))
    commands.import_protocol(org, partition(tour1, 2).pk, won("B", 120))
    tour2 = seat_tour(org, t, [(1, 3), (2, 4)])
    commands.import_protocol(org, partition(tour2, 1).pk, won("B", 105))
    commands.record(org, partition(tour2, 2).pk, "lead", {"seat": 1})
    commands.record(org, partition(tour2, 2).pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30}})
    return {"org": org, "t": t, "tour2": tour2}


def rows(html: str) -> list[list[str]]:
    """The standings table: each row's cells as text."""
    body = re.search(r'<table class="data standings">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    result = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        result.append([re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in cells])
    return result


def header(html: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_live_standings_count_finished_partitions_only(client, event):
    page = text(client.get("/en/tournaments/cup/standings/"))
    assert "Live" in page and "partitions still being played are not counted" in page
    assert header(page) == ["Rank", "Pair", "Tournament points", "Points difference", "Points for", "Buchholz",
                            "Head-to-head", "Played", "Wins", "Losses", "Points against"]
    # 4: 1 win, +120; 1: 1 win, +100-105 = -5; 3: 1 win, -120+105 = -15; 2: no win, -100.
    # Buchholz: 4's opponent 3 has 1 win; 1's opponents 2 (0) and 3 (1); 3's: 4 (1) and 1 (1); 2's: 1 (1).
    assert [r[:3] for r in rows(page)] == [["1", "№4 Игрок4а — Игрок4б", "1"], ["2", "№1 Игрок1а — Игрок1б", "1"],
                                           ["3", "№3 Игрок3а — Игрок3б", "1"], ["4", "№2 Игрок2а — Игрок2б", "0"]]
    assert rows(page)[0][2:] == ["1", "120", "120", "1", "0", "1", "1", "0", "0"]
    assert rows(page)[1][2:] == ["1", "-5", "100", "1", "0", "2", "1", "1", "105"]
    assert rows(page)[3][2:] == ["0", "-100", "0", "1", "0", "1", "0", "1", "100"]


def test_after_tour_selector_and_the_standings_as_they_stood(client, event):
    page = text(client.get("/en/tournaments/cup/standings/?after_tour=1"))
    assert "After tour 1" in page and "the finished partitions of tour 1" in page
    assert 'href="/en/tournaments/cup/standings/?after_tour=1" aria-current="page"' in page
    assert 'href="/en/tournaments/cup/standings/?after_tour=2"' in page
    assert [r[1][:2] for r in rows(page)] == ["№4", "№1", "№2", "№3"]  # +120, +100, -100, -120
    # Finishing the partition of tour 2 changes the live standings and those after tour 2, not after tour 1.
    commands.record(event["org"], partition(event["tour2"], 2).pk, "deal",
                   {"end": "domino", "seat": 1, "pips": {"A": 30, "B": 50}})  # 2 beats 4, 120:0
    # 2: 1 win, -100+120 = +20; 1: -5; 3: -15; 4: 1 win, +120-120 = 0.
    live = [r[1][:2] for r in rows(text(client.get("/en/tournaments/cup/standings/")))]
    assert live == ["№2", "№4", "№1", "№3"]
    assert [r[1][:2] for r in rows(text(client.get("/en/tournaments/cup/standings/?after_tour=2")))] == live
    assert [r[1][:2] for r in rows(text(client.get("/en/tournaments/cup/standings/?after_tour=1")))] == \
        ["№4", "№1", "№2", "№3"]
    for bad in ("9", "abc", "0"):
        assert client.get(f"/en/tournaments/cup/standings/?after_tour={bad}").status_code == 404


def test_a_draft_tour_is_not_offered_and_the_pages_link_the_standings(client, event):
    tours.generate_tour(event["org"], event["t"])  # tour 3, a draft
    page = text(client.get("/en/tournaments/cup/standings/"))
    assert "?after_tour=3" not in page and "?after_tour=2" in page
    assert client.get("/en/tournaments/cup/standings/?after_tour=3").status_code == 404
    assert "/en/tournaments/cup/standings/" in text(client.get("/en/tournaments/cup/"))
    assert "/en/tournaments/cup/standings/?after_tour=2" in text(client.get("/en/tournaments/cup/tours/2/"))


def test_ties_after_every_metric_share_a_rank(client, event):
    t = Tournament.objects.get(pk=event["t"].pk)
    Tournament.objects.filter(pk=t.pk).update(regulations={**t.regulations, "standings": ["wins"]})
    page = text(client.get("/en/tournaments/cup/standings/"))
    assert header(page)[2:] == ["Wins", "Played", "Losses", "Points for", "Points against"]
    assert [(r[0], r[1][:2]) for r in rows(page)] == [("1", "№1"), ("1", "№3"), ("1", "№4"), ("4", "№2")]


def test_player_standings_give_each_player_his_pairs_results(client, event):
    page = text(client.get("/en/tournaments/cup/standings/players/?after_tour=1"))
    assert header(page)[:2] == ["Rank", "Player"]
    lines = [(r[0], r[1]) for r in rows(page)]
    assert lines[:4] == [("1", "Игрок4а"), ("1", "Игрок4б"), ("3", "Игрок1а"), ("3", "Игрок1б")]
    assert 'href="/en/tournaments/cup/standings/players/?after_tour=1" aria-current="page"' in page


def test_an_individual_event_has_player_standings_only(client):
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="solo")
    for n in range(1, 5):
        services.register_player(org, t, {"last_name": f"Соло{n}"})
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.REGISTRATION)
    page = text(client.get("/en/tournaments/solo/standings/"))
    assert header(page)[:2] == ["Rank", "Player"] and len(rows(page)) == 4 and "Pairs</a>" not in page
    assert client.get("/en/tournaments/solo/standings/players/")["Location"] == "/en/tournaments/solo/standings/"
    csv_file = client.get("/en/tournaments/solo/standings/csv/").content.decode("utf-8-sig")
    assert csv_file.splitlines()[0].startswith("Rank;Player;Club;")


def test_the_csv_export(client, event):
    response = client.get("/en/tournaments/cup/standings/csv/?after_tour=1")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="standings-cup-pairs-after-tour-1.csv"'
    assert response.content.startswith("\ufeff".encode())
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    # The same columns as the API's CSV (tournaments.standings.standings_csv), every metric.
    assert lines[0] == ["Rank", "Start number", "Players", "Played", "Wins", "Losses", "Byes", "Points for",
                        "Points against", "Points difference", "Penalties", "Buchholz", "Head-to-head",
                        "Tournament points", "Withdrawn"]
    assert lines[1] == ["1", "4", "Игрок4а, Игрок4б", "1", "1", "0", "0", "120", "0", "120", "0", "0", "0", "1", ""]
    assert lines[4] == ["4", "3", "Игрок3а, Игрок3б", "1", "0", "1", "0", "0", "120", "-120", "0", "1", "0", "0", ""]
    assert response.content.decode("utf-8-sig").endswith("\r\n")
    # The header in the page's language; the players' file; the live one.
    russian = client.get("/tournaments/cup/standings/csv/").content.decode("utf-8-sig").splitlines()[0]
    assert russian.startswith("Место;Стартовый номер;Игроки;Сыграно;Победы;Поражения;")
    assert russian.endswith(";Турнирные очки;Снятие с турнира")
    players = client.get("/en/tournaments/cup/standings/players/csv/")
    assert players["Content-Disposition"] == 'attachment; filename="standings-cup-players-live.csv"'
    assert len(players.content.decode("utf-8-sig").splitlines()) == 9
    assert "/en/tournaments/cup/standings/csv/?after_tour=1" in text(
        client.get("/en/tournaments/cup/standings/?after_tour=1"))


def test_a_draft_tournament_has_no_public_standings(client, organiser):
    tournament(organiser, slug="secret", pairs=2)
    assert client.get("/en/tournaments/secret/standings/").status_code == 404
    client.force_login(organiser)
    assert client.get("/en/tournaments/secret/standings/").status_code == 200
