"""Sea Goat's move of two doubles at once, one on each end (RULES 9.2), at a live table: offered
to the player who may make it, played through the API and by a plain form post; refused at a
Goat or a sports table."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from builders import tournament, user
from livetools import PIN
from scoring.live import play
from scoring.models import LiveTable, Partition, PartitionChange
from scoring.protocols.confirmations import set_pin
from scoring.recording import pipeline
from scoring.recording.state import table_state, with_table
from tournaments import services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _table(monkeypatch, regulations: dict, first_seed: int) -> dict:
    """A table of three players each for himself, digital, its seats taken; the deals' seeds
    fixed (``first_seed``, the next...) so that the game is always the same."""
    seeds = itertools.count(first_seed)
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(seeds))
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="sea", regulations=regulations)
    for name in ("Преображенский", "Воскресенская", "Богословский"):
        entry = services.register_player(org, t, {"last_name": name})
        set_pin(org, entry.player_id, PIN)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    tour.play_mode = "digital"
    tour.save(update_fields=["play_mode"])
    play.start_tour(org, tour)
    pid = tour.tables.get().partition.pk
    return {"pid": pid, "tokens": {seat: play.claim_seat(pid, seat, PIN) for seat in (1, 2, 3)}}


@pytest.fixture
def sea(db, frozen, monkeypatch):
    """Sea Goat of three; from seed 3 the fifth move (seat 3's) may put 0-0 and 4-4 down at once."""
    return _table(monkeypatch, {"game": "sea_goat", "teams": False}, 3)


def state(pid: int, seats=()) -> dict:
    partition = Partition.objects.select_related("live").get(pk=pid)
    return table_state(with_table(partition), seats=seats)


def play_until_two_doubles(pid: int, tokens: dict[int, str]) -> tuple[int, int, dict]:
    """Play the first legal single tile (draw, pass) until the player to move may put two doubles
    down: (his seat, the turn, his view)."""
    for _step in range(60):
        table = state(pid)
        seat, turn = table["live"]["seat"], table["live"]["turn"]
        mine = state(pid, seats=[seat])["current"]
        if any("second" in m for m in mine["legal"]):
            return seat, turn, mine
        actor = play.Actor(AnonymousUser(), tokens[seat])
        single = [m for m in mine["legal"] if "second" not in m]
        if single:
            play.move(actor, pid, turn, tile=single[0]["tile"], end=single[0].get("end"))
        elif mine["must_draw"]:
            play.draw(actor, pid, turn)
        else:
            play.move(actor, pid, turn, pass_turn=True)
    pytest.fail("no two doubles")


def test_two_doubles_through_the_api(sea):
    pid, tokens = sea["pid"], sea["tokens"]
    seat, turn, mine = play_until_two_doubles(pid, tokens)
    # Hand-checked: seat 3 holds 0-0 and 4-4, the ends show 0 and 4.
    assert seat == 3 and sorted(mine["ends"]) == [0, 4]
    assert {"seat": 3, "tile": "0-0", "end": "left", "second": "4-4"} in mine["legal"]
    assert mine["ends"][0] == 0  # 0-0 fits the left end, 4-4 the right one
    phone, url = APIClient(), f"/api/partitions/{pid}/live/move/"
    token = {"HTTP_X_SEAT_TOKEN": tokens[seat]}
    refused = phone.post(url, {"turn": turn, "second": "4-4", "pass": True}, format="json", **token)
    assert refused.status_code == 400 and "Второй дубль кладётся вместе с первым" in str(refused.json())
    refused = phone.post(url, {"turn": turn, "tile": "0-0", "end": "left", "second": "0-0"}, format="json", **token)
    assert refused.status_code == 400 and "только два дубля" in refused.json()["detail"]
    refused = phone.post(url, {"turn": turn, "tile": "4-4", "end": "left", "second": "0-0"}, format="json", **token)
    assert refused.status_code == 400  # 4-4 does not fit the left end (0)
    assert state(pid)["live"]["turn"] == turn  # nothing was stored

    answer = phone.post(url, {"turn": turn, "tile": "0-0", "end": "left", "second": "4-4"}, format="json", **token)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["live"]["turn"] == turn + 1 and body["current"]["to_move"] == 1
    line = body["current"]["line"]
    assert line[0] == [0, 0] and line[-1] == [4, 4] and len(line) == len(mine["line"]) + 2
    assert body["current"]["tiles_left"]["3"] == mine["tiles_left"]["3"] - 2
    assert not {"0-0", "4-4"} & set(body["current"]["hands"]["3"])
    change = PartitionChange.objects.filter(partition_id=pid, action="move").latest("version")
    assert (change.data["tile"], change.data["end"], change.data["second"]) == ("0-0", "left", "4-4")


def test_the_phone_offers_two_doubles_and_plays_them_without_javascript(sea):
    pid, tokens = sea["pid"], sea["tokens"]
    seat, turn, mine = play_until_two_doubles(pid, tokens)
    base = "/tournaments/sea/tours/1/tables/1/"
    phone = Client()
    phone.cookies["seat-ru"] = tokens[seat]
    page = phone.get(base + "play/").content.decode()
    assert 'value="0-0|left|4-4"' in page and "Два дубля: 0-0 слева, 4-4 справа" in page
    other = Client()
    other.cookies["seat-ru"] = tokens[1]
    assert "Два дубля" not in other.get(base + "play/").content.decode()  # not his move
    response = phone.post(base + "play/", {"action": "move", "turn": turn, "move": "0-0|left|4-4"})
    assert response.status_code == 302
    after = state(pid, seats=[seat])["current"]
    assert after["line"][0] == [0, 0] and after["line"][-1] == [4, 4]
    assert len(after["hands"]["3"]) == mine["tiles_left"]["3"] - 2


def test_a_goat_table_refuses_a_second_tile(db, frozen, monkeypatch):
    table = _table(monkeypatch, {"game": "goat"}, 1)
    pid = table["pid"]
    live = LiveTable.objects.get(pk=pid)
    mine = state(pid, seats=[live.seat])["current"]
    answer = APIClient().post(f"/api/partitions/{pid}/live/move/",
                              {"turn": live.turn, "tile": mine["legal"][0]["tile"], "second": "6-6"}, format="json",
                              HTTP_X_SEAT_TOKEN=table["tokens"][live.seat])
    assert answer.status_code == 400 and "только в «Морском козле»" in answer.json()["detail"]


def test_a_sports_table_refuses_a_second_tile(digital):
    pid = digital["p1"].pk
    live = LiveTable.objects.get(pk=pid)
    answer = APIClient().post(f"/api/partitions/{pid}/live/move/",
                              {"turn": live.turn, "tile": "6-6", "second": "5-5"}, format="json",
                              HTTP_X_SEAT_TOKEN=digital["tokens"][live.seat])
    assert answer.status_code == 400
    assert answer.json()["detail"] == "Два дубля за один ход кладут только в «Морском козле»."
