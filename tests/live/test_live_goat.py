"""A Goat table played live on the players' phones (RULES 9.1, 6): dealt by the engine with its
bazaar, played tile by tile, drawing when nothing fits, to the end of the sitting."""

from __future__ import annotations

import itertools
import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.contrib.auth.models import AnonymousUser

from builders import tournament, user
from livetools import PIN
from scoring.live import play
from scoring.models import ClockLapse, Partition, SeatResult
from scoring.protocols.confirmations import set_pin
from scoring.recording import pipeline
from scoring.recording.state import table_state, with_table
from tournaments import services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def goat(db, frozen, monkeypatch):
    """A Goat event of three players (one game to 30), its table digital, the seats taken;
    the deals' seeds fixed (1, 2, 3...) so that the game is always the same."""
    seeds = itertools.count(1)
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(seeds))
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                   regulations={"game": "goat", "lose_at": 30})
    for name in ("Преображенский", "Воскресенская", "Богословский"):
        entry = services.register_player(org, t, {"last_name": name})  # an Entry: its player's id differs
        set_pin(org, entry.player_id, PIN)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    tour.play_mode = "digital"
    tour.save(update_fields=["play_mode"])
    play.start_tour(org, tour)
    pid = tour.tables.get().partition.pk
    tokens = {seat: play.claim_seat(pid, seat, PIN) for seat in (1, 2, 3)}
    return {"org": org, "tour": tour, "pid": pid, "tokens": tokens}


def state(pid: int, seats=()) -> dict:
    partition = Partition.objects.select_related("live").get(pk=pid)
    return table_state(with_table(partition), seats=seats)


def test_a_table_of_three_is_dealt_with_a_bazaar_of_seven(goat):
    public = state(goat["pid"])
    current = public["current"]
    assert current["bazaar"] == 7 and current["tiles_left"] == {"1": 7, "2": 7, "3": 7}
    assert "hands" not in public["current"] or public["current"]["hands"] == {}
    assert "seed" not in str(public["current"]) and "bazaar" not in public["deals"]
    mine = state(goat["pid"], seats=[current["to_move"]])["current"]
    assert len(mine["hands"][str(current["to_move"])]) == 7 and mine["legal"]  # the forced lead
    assert public["live"]["seat"] == current["to_move"]


def test_a_seat_the_table_has_not_cannot_be_taken(goat):
    with pytest.raises(ValidationError, match="seat 4"):
        play.claim_seat(goat["pid"], 4, PIN)


def test_the_game_is_played_to_its_end_with_draws_from_the_bazaar(goat, frozen):
    pid, tokens = goat["pid"], goat["tokens"]
    draws = refused = 0
    for _step in range(500):
        table = state(pid)
        if table["result"]["status"] == "finished":
            break
        seat, turn = table["live"]["seat"], table["live"]["turn"]
        actor = play.Actor(AnonymousUser(), tokens[seat])
        mine = state(pid, seats=[seat])["current"]
        frozen.advance(1)
        if mine["legal"]:
            if not refused and table["current"]["bazaar"]:
                with pytest.raises(ValidationError, match="a tile of his hand fits") as no_draw:
                    play.draw(actor, pid, turn)  # a tile fits: no draw
                assert not re.search(r"\b[0-6]-[0-6]\b", str(no_draw.value))  # and none is named (issue 18)
                refused += 1
            move = mine["legal"][0]
            play.move(actor, pid, turn, tile=move["tile"], end=move.get("end"))
        elif mine["must_draw"]:
            before = table["current"]["bazaar"]
            play.draw(actor, pid, turn)
            after = state(pid, seats=[seat])
            assert after["current"]["bazaar"] == before - 1
            assert len(after["current"]["hands"][str(seat)]) == mine["tiles_left"][str(seat)] + 1
            assert after["live"]["turn"] == turn  # drawing is part of his move
            draws += 1
        else:
            play.move(actor, pid, turn, pass_turn=True)
    assert draws and refused
    final = state(pid)
    assert final["result"]["status"] == "finished" and "current" not in final
    assert max(final["scores"]) >= 30
    results = {r.seat: r for r in SeatResult.objects.filter(partition_id=pid)}
    assert sorted(results) == [1, 2, 3]
    assert [results[s].score for s in (1, 2, 3)] == final["scores"]
    assert sum(r.goats for r in results.values()) >= 1
    assert all(r.game_points == (0 if r.score >= 30 else max(0, round((100 - r.score) / 10 + 0.01)))
               for r in results.values())


def test_a_lapse_is_recorded_once_then_a_penalty(goat, frozen):
    pid = goat["pid"]
    table = state(pid)
    seat, allowance = table["live"]["seat"], table["live"]["allowance"]
    frozen.advance(allowance + 2)
    assert pipeline.expire(pid)
    assert not pipeline.expire(pid)  # the same lapse: nothing more
    assert not pipeline.expire(pid)
    assert ClockLapse.objects.filter(partition_id=pid).count() == 1
    assert state(pid)["scores"] == [0, 0, 0]  # the first lapse is a warning
    frozen.advance(allowance)
    assert pipeline.expire(pid)
    lapses = list(ClockLapse.objects.filter(partition_id=pid).values_list("seat", "lapse"))
    assert lapses == [(seat, 1), (seat, 2)]
    scores = state(pid)["scores"]
    assert scores[seat - 1] > 0 and sum(scores) == scores[seat - 1]  # the repeated one: a penalty


def test_the_draw_endpoint(goat, client):
    pid, tokens = goat["pid"], goat["tokens"]
    table = state(pid)
    seat, turn = table["live"]["seat"], table["live"]["turn"]
    url = f"/api/partitions/{pid}/live/draw/"
    # The leader holds his lead: he may not draw; another seat's phone is refused.
    answer = client.post(url, {"turn": turn}, content_type="application/json", HTTP_X_SEAT_TOKEN=tokens[seat])
    assert answer.status_code == 400 and "у него есть подходящая фишка" in answer.json()["detail"]
    other = seat % 3 + 1
    answer = client.post(url, {"turn": turn}, content_type="application/json", HTTP_X_SEAT_TOKEN=tokens[other])
    assert answer.status_code in (401, 403)  # not signed in, not his seat
    assert client.post(url, {"turn": turn + 5}, content_type="application/json",
                       HTTP_X_SEAT_TOKEN=tokens[seat]).status_code == 409
    # Play until somebody must draw, then draw through the API.
    seat, turn, mine = play_until_a_draw(pid, tokens)
    bazaar = mine["bazaar"]
    answer = client.post(url, {"turn": turn}, content_type="application/json", HTTP_X_SEAT_TOKEN=tokens[seat])
    assert answer.status_code == 200
    body = answer.json()
    assert body["current"]["bazaar"] == bazaar - 1
    assert len(body["current"]["hands"][str(seat)]) == mine["tiles_left"][str(seat)] + 1
    assert "legal" in body["current"] and "must_draw" in body["current"]
    public = client.get(f"/api/partitions/{pid}/live/").json()
    assert public["current"]["hands"] == {} and public["current"]["bazaar"] == body["current"]["bazaar"]


def play_until_a_draw(pid: int, tokens: dict[int, str]) -> tuple[int, int, dict]:
    """Play the first legal tile of each player until one must draw: (his seat, the turn, his view)."""
    for _step in range(60):
        table = state(pid)
        seat, turn = table["live"]["seat"], table["live"]["turn"]
        mine = state(pid, seats=[seat])["current"]
        if mine["must_draw"]:
            return seat, turn, mine
        play.move(play.Actor(AnonymousUser(), tokens[seat]), pid, turn, tile=mine["legal"][0]["tile"],
                  end=mine["legal"][0].get("end"))
    pytest.fail("nobody had to draw")


def test_the_pages_show_the_table_and_the_phone_draws_without_javascript(goat, client):
    pid, tokens = goat["pid"], goat["tokens"]
    base = "/tournaments/goat/tours/1/tables/1/"
    public = client.get(base + "live/")
    assert public.status_code == 200 and "Базар: 7 фишек" in public.content.decode()
    assert client.get(base + "live/fragment/").status_code == 200
    seat, turn, mine = play_until_a_draw(pid, tokens)
    phone = Client()
    phone.cookies["seat-ru"] = tokens[seat]
    page = phone.get(base + "play/").content.decode()
    assert 'name="draw"' in page and "Ваш ход" in page
    others = Client()
    others.cookies["seat-ru"] = tokens[seat % 3 + 1]
    assert 'name="draw"' not in others.get(base + "play/").content.decode()
    response = phone.post(base + "play/", {"action": "move", "turn": turn, "draw": "1"})
    assert response.status_code == 302
    after = state(pid, seats=[seat])["current"]
    assert after["bazaar"] == mine["bazaar"] - 1 and len(after["hands"][str(seat)]) == mine["tiles_left"][str(seat)] + 1
