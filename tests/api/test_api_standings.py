"""Standings through the API: /api/tournaments/{slug}/standings/, as JSON and as CSV."""

import csv
import io

import pytest

from apiworld import client
from builders import tournament, user
from scoring.models import Partition
from tournaments import services
from tournaments import tours
from tournaments.models import Pair, Tour, Tournament

pytestmark = pytest.mark.django_db


def seat(org, t, tables):
    """A published, finished tour seated by hand: tables are (pair A, pair B, points A, points B,
    penalties A, penalties B) by start number; results as the recording services leave them."""
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t, tour__isnull=True)}
    tour = tours.generate_tour(org, t)
    tours.set_tables(org, tour, [(ids[a], ids[b]) for a, b, *_ in tables])
    tours.publish_tour(org, tour)
    for table, (_a, _b, pa, pb, pen_a, pen_b) in zip(tour.tables.order_by("number"), tables):
        Partition.objects.filter(table=table).update(
            status="finished", points_a=pa, points_b=pb, penalties_a=pen_a, penalties_b=pen_b,
            winner="A" if pa > pb else "B", reason="target")
    Tour.objects.filter(pk=tour.pk).update(status=Tour.Status.FINISHED)


@pytest.fixture
def league():
    """Four pairs, two tours (hand-checked below):

    tour 1: 1-2 200:150, 3-4 210:100;  tour 2: 1-3 200:190, 2-4 205:50 (pair 4 penalised once).
    pair 1: 2 wins, 400:340 (+60);  pair 2: 1 win, 355:250 (+105);  pair 3: 1 win, 400:300 (+100);
    pair 4: 0 wins, 150:415 (-265). Every pair's opponents won 2 partitions in all: Buchholz 2.
    """
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, slug="league", format=Tournament.Format.MANUAL)
    seat(org, t, [(1, 2, 200, 150, 0, 0), (3, 4, 210, 100, 0, 0)])
    seat(org, t, [(1, 3, 200, 190, 0, 0), (2, 4, 205, 50, 0, 1)])
    services.update_tournament(org, t, status=Tournament.Status.RUNNING)
    return t


def standings(**params):
    response = client().get("/api/tournaments/league/standings/", params)
    assert response.status_code == 200, response.json()
    return response.json()


def test_pair_standings_in_order_with_every_metric(league):
    body = standings()
    assert (body["tournament"], body["kind"], body["after_tour"]) == ("league", "pairs", None)
    assert [m["key"] for m in body["precedence"]] == ["tournament_points", "points_difference", "points_for",
                                                      "buchholz", "head_to_head"]
    assert body["precedence"][0]["name"] == "Tournament points"
    rows = [(r["rank"], r["pair"]["number"], r["played"], r["wins"], r["losses"], r["byes"], r["points_for"],
             r["points_against"], r["points_difference"], r["penalties"], r["buchholz"]) for r in body["rows"]]
    assert rows == [
        (1, 1, 2, 2, 0, 0, 400, 340, 60, 0, 2),
        (2, 2, 2, 1, 1, 0, 355, 250, 105, 0, 2),
        (3, 3, 2, 1, 1, 0, 400, 300, 100, 0, 2),
        (4, 4, 2, 0, 2, 0, 150, 415, -265, 1, 2),
    ]
    first = body["rows"][0]
    assert first["player"] is None
    assert (first["pair"]["first"]["last_name"], first["pair"]["second"]["last_name"]) == ("Игрок1а", "Игрок1б")
    # After tour 1: pair 3 (+110) leads pair 1 (+50), each with one win.
    after = standings(after_tour=1)
    assert after["after_tour"] == 1
    assert [(r["rank"], r["pair"]["number"], r["wins"], r["points_difference"]) for r in after["rows"]] == [
        (1, 3, 1, 110), (2, 1, 1, 50), (3, 2, 0, -50), (4, 4, 0, -110)]


def test_player_standings(league):
    body = standings(kind="players")
    assert body["kind"] == "players"
    rows = [(r["rank"], r["player"]["last_name"], r["wins"], r["points_for"]) for r in body["rows"]]
    assert [rank for rank, *_ in rows] == [1, 1, 3, 3, 5, 5, 7, 7]
    assert {name for _, name, *_ in rows[:2]} == {"Игрок1а", "Игрок1б"}
    assert rows[0][2:] == (2, 400) and all(r["pair"] is None for r in body["rows"])


def test_standings_as_csv_for_excel(league):
    response = client().get("/api/tournaments/league/standings/", {"format": "csv", "after_tour": 2})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="standings-league-pairs-after-tour-2.csv"'
    content = response.content
    assert content.startswith(b"\xef\xbb\xbf")
    lines = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
    assert lines[0] == ["Rank", "Start number", "Players", "Played", "Wins", "Losses", "Byes", "Points for",
                        "Points against", "Points difference", "Penalties", "Buchholz", "Head-to-head",
                        "Tournament points", "Withdrawn"]
    assert lines[1] == ["1", "1", "Игрок1а, Игрок1б", "2", "2", "0", "0", "400", "340", "60", "0", "2", "0", "2", ""]
    assert [line[1] for line in lines[1:]] == ["1", "2", "3", "4"]
    assert lines[4][9:11] == ["-265", "1"]
    assert content.count(b"\r\n") == 5

    players = client().get("/api/tournaments/league/standings/", {"format": "csv", "kind": "players"})
    lines = list(csv.reader(io.StringIO(players.content.decode("utf-8-sig")), delimiter=";"))
    assert lines[0][:3] == ["Rank", "Player", "Club"] and len(lines) == 9
    # The header is in the client's language.
    russian = client()
    russian.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    header = russian.get("/api/tournaments/league/standings/", {"format": "csv"}).content.decode("utf-8-sig")
    assert "Победы" in header.splitlines()[0]


def test_standings_errors_are_json(league):
    api = client()
    for params, status, words in [
        ({"after_tour": 3}, 400, "no tour 3"),
        ({"after_tour": 0}, 400, "after_tour"),
        ({"kind": "teams"}, 400, "kind"),
        ({"format": "csv", "after_tour": 7}, 400, "no tour 7"),
    ]:
        response = api.get("/api/tournaments/league/standings/", params)
        assert response.status_code == status, params
        assert response["Content-Type"] == "application/json" and words in response.json()["detail"], params
    response = api.get("/api/tournaments/nothing/standings/", {"format": "csv"})
    assert response.status_code == 404 and response.json() == {"detail": "There is no tournament nothing."}


def test_who_sees_the_standings(world):
    # A draft tournament's standings are its staff's; an individual one has player standings only.
    assert client().get("/api/tournaments/other/standings/").status_code == 404
    assert client(world.other_org).get("/api/tournaments/other/standings/").status_code == 200
    body = client().get("/api/tournaments/cup/standings/").json()  # tour 1 finished: A won 200:100 at each table
    assert [(r["rank"], r["wins"], r["points_for"]) for r in body["rows"]] == [(1, 1, 200), (1, 1, 200),
                                                                               (3, 0, 100), (3, 0, 100)]
    response = client().get("/api/tournaments/solo/standings/", {"kind": "pairs"})
    assert response.status_code == 400 and "players only" in response.json()["detail"]
    body = client().get("/api/tournaments/solo/standings/").json()
    assert body["kind"] == "players" and len(body["rows"]) == 4
    # A draft tour is never in the standings, whoever asks (the page and the API agree).
    assert client().get("/api/tournaments/cup/standings/", {"after_tour": 2}).status_code == 400
    assert client(world.org).get("/api/tournaments/cup/standings/", {"after_tour": 2}).status_code == 400


def test_standings_are_read_in_a_fixed_number_of_queries(league, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        assert len(standings()["rows"]) == 4
    with django_assert_max_num_queries(12):
        assert len(standings(kind="players")["rows"]) == 8


# -- the crosstable ---------------------------------------------------------------------------------

def crosstable(slug="league", **params):
    response = client().get(f"/api/tournaments/{slug}/crosstable/", params)
    assert response.status_code == 200, response.json()
    return response.json()


def test_the_crosstable_gives_each_lines_tours_and_the_standings_values(league):
    body = crosstable()
    assert (body["tournament"], body["kind"], body["after_tour"], body["tours"]) == ("league", "pairs", None, [1, 2])
    assert body["square"] is None and body["score_name"] is None  # a manual draw, sports domino
    # tour 1: 1-2 200:150 (table 1), 3-4 210:100 (table 2); tour 2: 1-3 200:190 (table 1), 2-4 205:50 (table 2).
    lines = [(line["rank"], line["number"], line["pair"]["number"],
              [(c["tour"], c["result"], c["table"], c["opponents"], c["points_for"], c["points_against"])
               for c in line["cells"]]) for line in body["lines"]]
    assert lines == [
        (1, 1, 1, [(1, "win", 1, [2], 200, 150), (2, "win", 1, [3], 200, 190)]),
        (2, 2, 2, [(1, "loss", 1, [1], 150, 200), (2, "win", 2, [4], 205, 50)]),
        (3, 3, 3, [(1, "win", 2, [4], 210, 100), (2, "loss", 1, [1], 190, 200)]),
        (4, 4, 4, [(1, "loss", 2, [3], 100, 210), (2, "loss", 2, [2], 50, 205)]),
    ]
    assert all(c["partners"] == [] and c["place"] is None for line in body["lines"] for c in line["cells"])
    # Its values are the standings', column by column.
    keys = [column["key"] for column in body["columns"]]
    rows = {row["pair"]["number"]: row for row in standings()["rows"]}
    for line in body["lines"]:
        for key, value in zip(keys, line["values"]):
            assert rows[line["number"]][key] == value, (line["number"], key)
    assert body["columns"][0] == {"key": "tournament_points", "name": "Tournament points", "order": 1}
    # After tour 1 it has one tour, in the order the standings then had: 3 (+110), 1, 2, 4.
    after = crosstable(after_tour=1)
    assert after["tours"] == [1] and [line["number"] for line in after["lines"]] == [3, 1, 2, 4]
    assert all(len(line["cells"]) == 1 for line in after["lines"])


def test_the_crosstable_of_players_names_partners_and_opponents_by_line(league):
    body = crosstable(kind="players")
    assert body["kind"] == "players" and len(body["lines"]) == 8
    assert [line["number"] for line in body["lines"]] == list(range(1, 9))
    by_name = {line["player"]["last_name"]: line for line in body["lines"]}
    first = by_name["Игрок1а"]["cells"][0]  # pair 1's first player, tour 1 against pair 2
    partner = by_name["Игрок1б"]["number"]
    assert first["partners"] == [partner]
    assert sorted(first["opponents"]) == sorted(by_name[name]["number"] for name in ("Игрок2а", "Игрок2б"))
    assert by_name["Игрок1а"]["pair"] is None


def test_a_round_robins_crosstable_has_the_square_table():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, slug="rr", format=Tournament.Format.ROUND_ROBIN)
    # tour 1: 1-2 200:100, 3-4 150:200; tour 2: 1-3 120:200, 2-4 200:180; tour 3: 1-4 200:190, 2-3 170:200.
    seat(org, t, [(1, 2, 200, 100, 0, 0), (3, 4, 150, 200, 0, 0)])
    seat(org, t, [(1, 3, 120, 200, 0, 0), (2, 4, 200, 180, 0, 0)])
    seat(org, t, [(1, 4, 200, 190, 0, 0), (2, 3, 170, 200, 0, 0)])
    body = crosstable("rr")
    # Wins, then difference: 3 (2, +60), 1 (2, +30), 4 (1, +20), 2 (1, -110).
    assert [line["number"] for line in body["lines"]] == [3, 1, 4, 2]
    square = [[None if cell is None else [(c["points_for"], c["points_against"]) for c in cell] for cell in row]
              for row in body["square"]]
    assert square == [
        [None, [(200, 120)], [(150, 200)], [(200, 170)]],
        [[(120, 200)], None, [(200, 190)], [(200, 100)]],
        [[(200, 150)], [(190, 200)], None, [(180, 200)]],
        [[(170, 200)], [(100, 200)], [(200, 180)], None],
    ]


def test_crosstable_errors(league):
    api = client()
    for params, words in [({"after_tour": 3}, "no tour 3"), ({"kind": "teams"}, "kind")]:
        response = api.get("/api/tournaments/league/crosstable/", params)
        assert response.status_code == 400 and words in response.json()["detail"], params
    assert api.get("/api/tournaments/nothing/crosstable/").json() == {"detail": "There is no tournament nothing."}
    assert api.post("/api/tournaments/league/crosstable/").status_code == 401  # read only: the API asks for a login


def test_who_sees_the_crosstable(world):
    assert client().get("/api/tournaments/other/crosstable/").status_code == 404  # a draft: its staff's
    assert client(world.other_org).get("/api/tournaments/other/crosstable/").status_code == 200
    body = client().get("/api/tournaments/solo/crosstable/").json()
    assert body["kind"] == "players" and len(body["lines"]) == 4
