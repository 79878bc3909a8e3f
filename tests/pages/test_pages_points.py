"""The pages of a points event (RULES 9.3), in Russian, with long Cyrillic names: the referee's
score sheet entering each deal's points (a total that does not add up and a negative number
refused, nothing stored), the draw with each player's games won, the standings, the organiser's
tour page offering no live tables, and no page failing."""

import re

import pytest

from builders import tournament, user
from scoring.engine import Regulations
from scoring.models import Partition, PartitionChange
from scoring.recording import commands
from tournaments import services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAMES = (("Преображенский-Ольденбургский", "Константин"), ("Воскресенская-Благовещенская", "Александра"),
         ("Богословский-Рождественский", "Владимир"))
SHEET = "/tournaments/points/tours/1/tables/1/sheet/"


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def event(client):
    """Three players at one table, to 100, the highest wins; nothing recorded yet."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="points",
                   regulations={"game": "points", "players": 3, "target": 100})
    for last, first in NAMES:
        services.register_player(org, t, {"last_name": last, "first_name": first})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    client.force_login(org)
    table = tour.tables.get()
    return {"org": org, "t": t, "tour": tour, "table": table, "names": [str(p) for p in table.players]}


def deal(client, version: int, points: tuple[int, int, int], total: int):
    return client.post(SHEET, {"version": version, "key": f"k{version}-{total}", "total": total,
                               **{f"points_{seat}": value for seat, value in enumerate(points, 1)}})


def test_the_sheet_enters_each_deals_points_and_checks_their_total(client, event):
    names = event["names"]
    page = text(client.get(SHEET))
    assert "Игра на очки · до 100 очков · побеждает наибольшая сумма" in page
    assert f"Очки за кон 1. {names[0]} 2. {names[1]} 3. {names[2]} Сумма кона" in page
    # The total typed is not the points' sum: refused, with the sum, and nothing stored.
    refused = deal(client, 0, (30, 45, 20), 96)
    assert "Ничего не сохранено: Очки в сумме дают 95, а не 96: проверьте их." in text(refused)
    assert 'value="30"' in refused.content.decode()  # what was typed stays in the form
    refused = deal(client, 0, (30, -5, 20), 45)
    assert "Ничего не сохранено: Убедитесь, что это значение больше либо равно 0." in text(refused)
    partition = Partition.objects.get(pk=event["table"].partition.pk)
    assert partition.version == 0 and not PartitionChange.objects.filter(partition=partition).exists()
    # 30 45 20, then 80 85 30, then 105 90 30: seat 1 reaches the target with the highest score.
    assert deal(client, 0, (30, 45, 20), 95).status_code == 302
    assert deal(client, 1, (50, 40, 10), 100).status_code == 302
    page = text(client.get(SHEET))
    assert "Кон 3" in page and "1 +30 · 30 +45 · 45 +20 · 20 2 +50 · 80 +40 · 85 +10 · 30" in page
    response = client.post(SHEET, {"version": 2, "key": "k3", "total": 30, "points_1": 25, "points_2": 5,
                                   "points_3": 0}, follow=True)
    page = text(response)
    assert "Кон записан." in page and f"победитель: 1. {names[0]}" in page
    assert (f"место 1 · {names[0]} : выиграно партий 1 , счёт 105 место 2 · {names[1]} : выиграно партий 0 , "
            f"счёт 90 место 3 · {names[2]} : выиграно партий 0 , счёт 30") in page
    # A stale form (another device recorded meanwhile) stores nothing.
    stale = deal(client, 2, (1, 1, 1), 3)
    assert stale.status_code == 302 and Partition.objects.get(pk=partition.pk).version == 3


def test_the_draw_and_the_standings_show_games_won_and_points(client, event):
    partition = event["table"].partition
    commands.record_points_deal(event["org"], partition.pk, {"points": {"1": 100, "2": 40, "3": 60}})
    table = event["table"]
    last = {p.pk: p.last_name for p in table.players}
    draw = text(client.get("/tournaments/points/tours/1/"))
    assert "Пара A" not in draw and "Экран зала" not in draw and "Трансляция" not in draw
    assert all(name in draw for name in event["names"])
    assert "Выиграно партий: место 1 — 1 (100) · место 2 — 0 (40) · место 3 — 0 (60)" in draw
    page = text(client.get("/tournaments/points/standings/"))
    assert re.search(r"Выиграно партий Набрано очков Сыграно", page)
    rows = re.findall(r"(\d) (\S+) \S+ (\d+) (\d+) 1", page[page.index("Сыграно"):])
    # Seat 1 won; then the points, the higher first: seat 3's 60 before seat 2's 40.
    assert rows == [("1", last[table.seat1_id], "1", "100"), ("2", last[table.seat3_id], "0", "60"),
                    ("3", last[table.seat2_id], "0", "40")]
    csv = client.get("/tournaments/points/standings/csv/").content.decode("utf-8-sig").splitlines()
    assert csv[0].endswith("Выиграно партий;Набрано очков;Сыграно;Снятие с турнира") and csv[1].endswith(";1;100;1;")


def test_the_tournament_page_and_the_new_tournament_form_know_the_points_game(client, event):
    page = text(client.get("/tournaments/points/"))
    assert "Выиграно партий, Набрано очков" in page and "Направление игры" not in page
    data = {"name": "Очки", "slug": "ochki", "venue": "", "starts_on": "2026-04-10", "ends_on": "2026-04-10",
            "format": "individual"}
    for name, value in {**Regulations().to_dict(), "game": "points", "players": 3, "points_win": "lowest"}.items():
        if name == "standings":  # the sports criteria the form showed, untouched
            data.update({f"reg-standings_{i}": value[i] if i < len(value) else "" for i in range(7)})
        elif isinstance(value, bool):
            if value:
                data[f"reg-{name}"] = "on"
        else:
            data[f"reg-{name}"] = "" if value is None else value
    response = client.post("/manage/new/", data)
    assert response.status_code == 302
    rules = Tournament.objects.get(slug="ochki").rules
    assert (rules.game, rules.players, rules.teams, rules.points_win) == ("points", 3, False, "lowest")
    assert rules.standings == ("games_won", "points_scored")


def test_the_organiser_is_offered_no_live_tables(client, event):
    response = client.get("/tournaments/points/manage/tours/1/")
    page = response.content.decode()
    assert "/manage/tours/1/play-mode/" not in page and "/tours/1/start/" not in page
    assert "/manage/tours/1/chief/" not in page and "/tours/1/hall/" not in page
    sheet_only = "Игра на очки записывается только в протокол стола: её столы не играются в реальном времени."
    assert sheet_only in text(response)
    response = client.post("/tournaments/points/manage/tours/1/play-mode/", {"mode": "digital"}, follow=True)
    assert sheet_only in text(response)
    assert event["tour"].tables.get().mode == "sheet"


def test_no_page_of_a_points_table_fails(client, event):
    """Every page of a points table answers, never with a server error; the live pages and the
    sheet's pages not built for it refuse it (404)."""
    partition = event["table"].partition
    commands.record_points_deal(event["org"], partition.pk, {"points": {"1": 10, "2": 0, "3": 5}})
    base = "/tournaments/points/tours/1/tables/1/"
    refused = [base + page for page in ("sheet/import/", "sheet/history/", "sheet/history/1/", "sheet/deals/1/correct/",
                                        "sheet/games/1/deals/1/correct/",
                                        "live/", "live/fragment/", "play/", "play/fragment/", "referee/",
                                        "referee/fragment/")]
    refused += ["/tournaments/points/tours/1/hall/", "/tournaments/points/tours/1/hall/fragment/",
                "/tournaments/points/manage/tours/1/chief/", "/tournaments/points/manage/tours/1/chief/fragment/"]
    answered = [base + "sheet/", base + "sheet/protocol.json", base + "protocol/", base + "protocol/confirm/",
                "/tournaments/points/manage/tours/1/", "/tournaments/points/manage/tours/1/print/",
                "/tournaments/points/protocol/", "/tournaments/points/tours/1/protocol/",
                "/tournaments/points/tours/1/protocols/", "/tournaments/points/standings/",
                "/tournaments/points/standings/csv/", "/tournaments/points/tours/1/", "/tournaments/points/",
                f"/players/{event['table'].seat1_id}/", "/referee/", "/api/tournaments/points/tours/1/",
                "/api/tournaments/points/standings/", f"/api/partitions/{partition.pk}/export/"]
    client.raise_request_exception = False
    assert {path: client.get(path).status_code for path in refused} == dict.fromkeys(refused, 404)
    assert {path: client.get(path).status_code for path in answered} == dict.fromkeys(answered, 200)
    other = [f"/api/partitions/{partition.pk}/", f"/api/partitions/{partition.pk}/changes/",
             f"/api/partitions/{partition.pk}/live/", "/api/tournaments/points/tours/1/tables/1/"]
    failed = {path: status for path in other if (status := client.get(path).status_code) >= 500}
    assert not failed, failed
