"""The referee's tablet of a Goat table (RULES 9.1), in each way of playing it: the seats of 2 to 4
players with long names, the hands and the tiles drawn from the bazaar entered with its forms, the
referee's clock tapped and each deal's result recorded as on the Goat score sheet."""

from __future__ import annotations

import pytest
from django.test import Client

from livetools import goat_table, login
from scoring.models import LiveTable, Partition
from scoring.recording import pipeline

pytestmark = pytest.mark.django_db

TABLET = "/tournaments/goat/tours/1/tables/1/referee/"
FETCH = {"HTTP_X_REQUESTED_WITH": "fetch"}
LONG = ("Преображенский-Воскресенский", "Константинопольская-Рождественская", "Богословский-Благовещенский",
        "Новодевичья-Крестовоздвиженская")


def text(response) -> str:
    return response.content.decode()


def live(world) -> LiveTable:
    return LiveTable.objects.get(pk=world["pid"])


def post(world, data, user="ref", **extra):
    return login(world[user]).post(TABLET, data, **extra)


@pytest.mark.parametrize("mode", ["digital", "refereed", "clock"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tablet_shows_a_goat_table_of_two_to_four(db, frozen, mode, players):
    world = goat_table(mode, players, names=LONG)
    referee = login(world["ref"])
    for path in ("", "fragment/"):
        response = referee.get(TABLET + path)
        assert response.status_code == 200, path  # no more 404
        page = text(response)
        assert "Планшет судьи" in page or path
        assert all(name in page for name in LONG[:players]) and all(name not in page for name in LONG[players:])
        assert page.count('name="action" value="check_in"') == players  # one "Present" per seat
        assert "Ждём игроков" in page and "Отложить неявку на" in page
    if mode == "refereed":
        assert page.count('name="hand_') == players and "Кон 1: фишки игроков" in page
    if mode == "clock":
        assert "Кон 1: кто заходит?" in page and page.count('name="action" value="lead"') == 1
    if mode == "digital":
        assert "Код для игроков" in page


def test_who_opens_the_tablet(db, frozen):
    world = goat_table("refereed", 3)
    assert Client().get(TABLET).status_code == 302  # to the login
    assert login(world["other"]).get(TABLET).status_code == 403  # a referee, not of this table
    assert login(world["other"]).get(TABLET + "fragment/").status_code == 403
    assert post(world, {"action": "hands", "turn": 0}, user="other").status_code == 403
    assert login(world["org"]).get(TABLET).status_code == 200


def test_the_refereed_tablet_enters_hands_moves_and_a_tile_drawn(db, frozen):
    world = goat_table("refereed", 2)
    hands = {"hand_1": "1-1 2-1 3-2 4-3 5-4 6-5 6-0", "hand_2": "1-0 0-0 4-0 5-5 6-6 3-1 2-0"}
    # A hand of six tiles: refused, the fragment says why, nothing is written.
    response = post(world, {"action": "hands", "turn": live(world).turn, "hand_1": "1-1 2-1 3-2 4-3 5-4 6-5",
                            "hand_2": hands["hand_2"]}, **FETCH)
    assert response.status_code == 400 and "должно быть 7 фишек, а их 6" in text(response)
    assert Partition.objects.get(pk=world["pid"]).version == 1 and live(world).present == []
    response = post(world, {"action": "hands", "turn": live(world).turn, **hands}, follow=True)
    page = text(response)
    assert all(f'data-tile="{tile}"' in page for hand in hands.values() for tile in hand.split())
    assert 'value="1-1|"' in page  # the forced lead, the only move
    assert "data-tile" not in text(Client().get("/tournaments/goat/tours/1/tables/1/live/"))
    for move in ("1-1|", "1-0|left", "2-1|right", "0-0|", "3-2|", "4-0|left", "4-3|right"):
        post(world, {"action": "move", "turn": live(world).turn, "move": move})
    page = text(login(world["ref"]).get(TABLET))
    assert 'name="drawn" value="3-0"' in page and 'name="drawn" value="6-0"' not in page  # the bazaar's tiles
    assert "Базар: 14 фишек" in page
    post(world, {"action": "move", "turn": live(world).turn, "draw": "1", "drawn": "3-0"})
    response = post(world, {"action": "move", "turn": live(world).turn, "draw": "1", "drawn": "6-0"}, **FETCH)
    assert response.status_code == 400 and "фишки 6-0 нет на базаре" in text(response)
    page = text(login(world["ref"]).get(TABLET))
    assert "Базар: 13 фишек" in page and 'data-tile="3-0"' in page


def test_the_clock_tablet_names_the_leader_taps_and_records_the_result(db, frozen):
    world = goat_table("clock", 3)
    post(world, {"action": "lead", "seat": 2})
    assert live(world).seat == 2 and live(world).present == [1, 2, 3]
    page = text(login(world["ref"]).get(TABLET))
    assert "Ход сделан" in page and "Кон окончен: остановить часы" in page
    post(world, {"action": "tap", "turn": live(world).turn})
    assert live(world).seat == 3
    post(world, {"action": "deal_over", "turn": live(world).turn})  # the clock stops: the result form
    assert live(world).seat is None and live(world).deadline is None and live(world).deal_over
    assert "Кон 1 окончен: его итог" in text(login(world["ref"]).get(TABLET))
    partition = Partition.objects.get(pk=world["pid"])
    response = post(world, {"action": "result", "version": partition.version, "end": "domino", "seat": 2,
                            "value_1": 10, "value_3": 20}, follow=True)
    assert response.status_code == 200
    state = Partition.objects.get(pk=world["pid"]).state
    assert state["games"][0]["events"][-1] == {"type": "deal", "end": "domino", "seat": 2,
                                               "values": {"1": 10, "3": 20}}
    assert live(world).seat == 2 and live(world).deal == 2 and not live(world).deal_over  # the domino maker leads deal 2
    page = text(response)
    assert "(в памяти 10)" in page  # seat 1's 10 is memorised (under the opening of 13)
    response = post(world, {"action": "result", "version": 0, "end": "fish"}, **FETCH)  # no seat, no values
    assert response.status_code == 400 and Partition.objects.get(pk=world["pid"]).state == state
    response = post(world, {"action": "start", "seat": 1}, **FETCH)
    assert response.status_code == 400 and "нет жеребьёвки первого хода" in text(response)


def test_the_digital_tablet_moves_for_a_player(db, frozen, monkeypatch):
    seeds = iter(range(1, 100))
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(seeds))
    world = goat_table("digital", 3)
    for seat in (1, 2, 3):
        post(world, {"action": "check_in", "seat": seat})
    row = live(world)
    assert row.seat is not None
    page = text(login(world["ref"]).get(TABLET))
    assert "потерянный телефон" in page and page.count("hand-tile--legal") == 1  # the forced lead
    tile = page.split('hand-tile--legal" data-tile="')[1].split('"')[0]
    post(world, {"action": "move", "turn": row.turn, "move": f"{tile}|"})
    assert live(world).seat != row.seat and live(world).move == 1


def test_the_live_api_of_a_goat_table(db, frozen):
    clocked = goat_table("clock", 3)
    api = login(clocked["ref"])
    url = f"/api/partitions/{clocked['pid']}/live/"

    def send(action, body, client=api):
        return client.post(url + action, body, content_type="application/json")

    answer = send("start/", {"leader": 1})
    assert answer.status_code == 400 and "нет жеребьёвки первого хода" in answer.json()["detail"]
    assert send("lead/", {"seat": 3}, client=login(clocked["other"])).status_code == 403
    body = send("lead/", {"seat": 3}).json()
    assert body["live"]["seat"] == 3 and body["live"]["allowance"] == 5
    body = send("tap/", {"turn": body["live"]["turn"]}).json()
    assert body["live"]["seat"] == 1
    assert send("result/", {"end": "domino", "seat": 3, "pips": {"A": 0, "B": 10}}).status_code == 400
    assert send("goat-result/", {"end": "domino", "seat": 3, "values": {"1": "ten"}}).status_code == 400
    body = send("goat-result/", {"end": "domino", "seat": 3, "values": {"1": 14, "2": 25}}).json()
    assert body["scores"] == [14, 25, 0] and body["live"]["seat"] == 3  # the domino maker leads the next deal


def test_the_live_api_enters_hands_and_names_a_drawn_tile(db, frozen):
    world = goat_table("refereed", 2)
    api = login(world["ref"])
    url = f"/api/partitions/{world['pid']}/live/"

    def send(action, body):
        return api.post(url + action, body, content_type="application/json")

    hands = {"1": "1-1 2-1 3-2 4-3 5-4 6-5 6-0".split(), "2": "1-0 0-0 4-0 5-5 6-6 3-1 2-0".split()}
    assert send("hands/", {"turn": 0, "hands": {**hands, "3": ["3-3"]}}).status_code == 400
    body = send("hands/", {"turn": 0, "hands": hands}).json()
    assert body["current"]["leader"] == 1 and len(body["current"]["bazaar_tiles"]) == 14
    for tile, end in (("1-1", None), ("1-0", "left"), ("2-1", "right"), ("0-0", None), ("3-2", None),
                      ("4-0", "left"), ("4-3", "right")):
        body = send("move/", {"turn": body["live"]["turn"], "tile": tile, "end": end}).json()
    assert body["current"]["must_draw"]
    body = send("draw/", {"turn": body["live"]["turn"], "tile": "4-2"}).json()
    assert body["current"]["legal"] == [{"seat": 2, "tile": "4-2", "end": "left"}] and body["current"]["bazaar"] == 13


def test_a_goat_table_in_pairs_shows_its_pairs(db, frozen):
    world = goat_table("clock", 4, {"teams": True}, names=LONG)
    page = text(login(world["ref"]).get(TABLET))
    # Each pair's two seats, in the seat list and again in the pending no-show's list of the missing.
    assert page.count('class="seat-dot seat-dot--a"') == 4 and page.count('class="seat-dot seat-dot--b"') == 4
    assert "Пара A: 0" in page and "Пара B: 0" in page  # the game's units are the pairs
