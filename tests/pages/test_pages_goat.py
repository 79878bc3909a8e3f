"""The public pages of a Goat event each for himself: the draw seats players without pairs and
shows each one's game points; the standings show the Goat columns (RULES 9.1)."""

import re

import pytest

from builders import tournament, user
from scoring.engine import Regulations
from scoring.recording import commands
from tournaments import services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def goat(client):
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat", regulations={"game": "goat", "lose_at": 40})
    for name in ("Преображенский", "Воскресенская", "Богословский"):
        services.register_player(org, t, {"last_name": name})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table = tour.tables.get()
    # Seat 1 leads and makes domino: seat 2 charged 12 (memorised, under 13), seat 3 44: the goat.
    commands.record_goat_deal(org, table.partition.pk, {"lead": 1, "end": "domino", "seat": 1,
                                                       "values": {"2": 12, "3": 44}})
    return {"org": org, "t": t, "tour": tour, "table": table}


def test_the_draw_seats_players_without_pairs_and_shows_their_game_points(client, goat):
    page = text(client.get("/tournaments/goat/tours/1/"))
    assert "Пара A" not in page
    assert "Экран зала" in page  # the hall screen shows Goat tables too
    seats = [str(p) for p in goat["table"].players]
    assert all(name in page for name in seats)
    # 10 game points for seats 1 and 2 (nothing counted: seat 2's 12 is memorised), the goat 0.
    assert "Игровые очки: место 1 — 10 · место 2 — 10 · место 3 — 0 (козёл)" in page


def test_the_standings_show_game_points_goats_and_total_score(client, goat):
    response = client.get("/tournaments/goat/standings/")
    page = text(response)
    assert re.search(r"Игровые очки Козлы Сумма очков Сыграно", page)
    table = goat["table"]
    rows = re.findall(r"(\d) (\S+) (\d+) (\d+) (\d+) 1", page[page.index("Сыграно"):])
    names = {str(p.pk): p.last_name for p in table.players}
    # Seats 1 and 2 share first place (10 game points, no goat, nothing counted); the goat last.
    assert sorted(rows[:2]) == sorted([("1", names[str(table.seat1_id)], "10", "0", "0"),
                                       ("1", names[str(table.seat2_id)], "10", "0", "0")])
    assert rows[2] == ("3", names[str(table.seat3_id)], "0", "1", "44")


def test_a_goat_table_links_its_own_score_sheet(client, goat):
    client.force_login(goat["org"])
    assert "/tournaments/goat/tours/1/tables/1/sheet/" in client.get("/tournaments/goat/tours/1/").content.decode()
    page = text(client.get("/en/tournaments/goat/tours/1/tables/1/sheet/"))
    assert "Game 1 of 1" in page and "Pair A" not in page


def test_the_api_gives_the_goat_standings_and_tables_without_pairs(client, goat):
    standings = client.get("/api/tournaments/goat/standings/").json()
    assert [m["key"] for m in standings["precedence"]] == ["game_points", "goats", "total_score"]
    last = standings["rows"][-1]
    assert (last["rank"], last["game_points"], last["goats"], last["score"], last["buchholz"]) == (3, 0, 1, 44, 0)
    table = client.get("/api/tournaments/goat/tours/1/tables/1/").json()
    assert table["pair_a"] is None and table["seat4"] is None and table["seat3"] is not None


def test_a_players_page_shows_his_goat_table_without_a_partner(client, goat):
    table = goat["table"]
    page = text(client.get(f"/players/{table.seat2_id}/"))
    others = [p.last_name for p in table.players if p.pk != table.seat2_id]
    # Tour 1, table 1, seat 2, no partner, the two others as opponents.
    assert re.search(r"1 1 2 — " + re.escape(others[0]) + r" , " + re.escape(others[1]), page)


def test_a_goat_event_made_on_the_sports_form_takes_goats_defaults(client):
    org = user("org2", superuser=True)
    client.force_login(org)
    data = {"name": "Козёл", "slug": "kozel", "venue": "", "starts_on": "2026-04-10", "ends_on": "2026-04-10",
            "format": "individual"}
    for name, value in {**Regulations().to_dict(), "game": "goat", "players": 3}.items():
        if name == "standings":  # the sports criteria the form showed, untouched
            data.update({f"reg-standings_{i}": value[i] if i < len(value) else "" for i in range(7)})
        elif isinstance(value, bool):
            if value:
                data[f"reg-{name}"] = "on"
        else:
            data[f"reg-{name}"] = "" if value is None else value
    response = client.post("/manage/new/", data)
    assert response.status_code == 302, text(response)[:500]
    rules = Tournament.objects.get(slug="kozel").rules
    assert (rules.game, rules.players, rules.teams) == ("goat", 3, False)
    assert rules.standings == ("game_points", "goats", "total_score")


def test_the_tournament_page_describes_goats_own_settings(client, goat):
    page = text(client.get("/tournaments/goat/"))
    assert "Козёл с, очков 40" in page  # lose_at
    assert "Направление игры" not in page and "Число конов" not in page  # sports settings
    assert "Игровые очки, Козлы, Сумма очков" in page


@pytest.fixture
def fresh(client):
    """A Goat table of 3 nobody has recorded yet."""
    org = user("org3", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="fresh", regulations={"game": "goat", "lose_at": 40})
    for name in ("Преображенский", "Воскресенская", "Богословский"):
        services.register_player(org, t, {"last_name": name})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    client.force_login(org)
    return tour.tables.get().partition


SHEET = "/en/tournaments/fresh/tours/1/tables/1/sheet/"


def test_the_goat_sheet_records_a_deal_and_shows_the_sitting(client, fresh):
    page = text(client.get(SHEET))
    assert "Game 1 of 1" in page and "Who led the first deal of the game" in page
    # Nothing typed for the lead: the engine's refusal is shown, nothing is stored.
    refused = client.post(SHEET, {"action": "goat_deal", "version": 0, "key": "k0", "end": "domino", "seat": 1,
                                  "value_2": 12, "value_3": 44})
    assert refused.status_code == 200 and "needs the seat that led it" in text(refused)
    fresh.refresh_from_db()
    assert fresh.version == 0
    response = client.post(SHEET, {"action": "goat_deal", "version": 0, "key": "k1", "lead": 1, "end": "domino",
                                   "seat": 1, "value_2": 12, "value_3": 44})
    assert response.status_code == 302
    fresh.refresh_from_db()
    assert (fresh.status, fresh.version) == ("finished", 1)
    page = text(client.get(SHEET))
    # Seat 2's 12 is memorised (under the opening of 13): scores 0, 0, 44; game points 10, 10, 0.
    assert "Domino · 1 0 12 44 0 0 44" in page  # hand values 0, 12, 44; scores 0, 0, 44
    assert "Game points: 10 · 10 · 0 · goat: 3" in page and "Sitting over" in page


def test_the_goat_sheet_exports_its_protocol_and_its_empty_history(client, fresh):
    assert "Nothing recorded yet." in text(client.get(SHEET + "history/"))
    response = client.get(SHEET + "protocol.json")
    assert response.status_code == 200 and response.json() == {"format": "domino-sitting/1", "games": []}


def test_my_tables_shows_a_goat_tables_players(client, goat):
    client.force_login(goat["org"])
    page = text(client.get("/en/referee/"))
    names = [p.last_name for p in goat["table"].players]
    assert f"1 · {names[0]} 2 · {names[1]} 3 · {names[2]}" in page and "1 deal" in page


def test_no_page_of_a_table_of_three_fails(client, goat):
    """Every page of a table of three players answers, never with a server error: the live
    table, the phone's page, the referee's tablet (tests/live/test_live_goat.py,
    test_live_goat_tablet.py), the hall and the chief referee's view (tests/live/test_live_hall.py)
    show it."""
    partition = goat["table"].partition
    base = "/tournaments/goat/tours/1/tables/1/"
    paths = [base + page for page in ("sheet/", "sheet/import/", "sheet/protocol.json", "sheet/history/",
                                      "sheet/history/1/", "sheet/deals/1/correct/", "live/", "live/fragment/",
                                      "play/", "play/fragment/", "referee/", "referee/fragment/", "protocol/")]
    paths += ["/tournaments/goat/tours/1/hall/", "/tournaments/goat/tours/1/hall/fragment/",
              "/tournaments/goat/manage/tours/1/chief/", "/tournaments/goat/manage/tours/1/chief/fragment/",
              "/tournaments/goat/manage/tours/1/", "/tournaments/goat/manage/tours/1/print/",
              "/tournaments/goat/protocol/", "/tournaments/goat/protocol/pdf/", "/tournaments/goat/tours/1/protocol/",
              "/tournaments/goat/tours/1/protocol/pdf/", "/tournaments/goat/tours/1/protocols/",
              "/tournaments/goat/tours/1/tables/1/protocol/pdf/", "/tournaments/goat/tours/1/tables/1/protocol/confirm/",
              "/tournaments/goat/standings/", "/tournaments/goat/standings/csv/", "/tournaments/goat/tours/1/",
              "/api/tournaments/goat/tours/1/", "/api/tournaments/goat/tours/1/tables/1/",
              *(f"/api/partitions/{partition.pk}/{page}" for page in ("", "changes/", "export/", "live/"))]
    client.raise_request_exception = False
    for signed_in in (False, True):
        if signed_in:
            client.force_login(goat["org"])
        failed = {path: status for path in paths if (status := client.get(path).status_code) >= 500}
        assert not failed, failed
        assert all(client.get(base + page).status_code == 200 for page in ("live/", "play/"))
    assert all(client.get(base + page).status_code == 200 for page in ("referee/", "referee/fragment/"))
