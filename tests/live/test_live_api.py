"""The REST API of a digital table as a player's phone uses it: not signed in, the seat taken
with the PIN, every move sent with the seat's token (README, "Live tables")."""

from __future__ import annotations

from rest_framework.test import APIClient

from livetools import PIN, live_tour
from scoring.live import play
from scoring.models import LiveTable


def url(world, action: str = "") -> str:
    return f"/api/partitions/{world['p1'].pk}/live/" + (f"{action}/" if action else "")


def test_a_phone_not_signed_in_takes_its_seat_and_plays_its_move(db, frozen, timers_sent):
    world = live_tour("digital")
    world["t"].status = "running"
    world["t"].save(update_fields=["status"])
    play.start_tour(world["chief"], world["tour"])
    phone = APIClient()
    tokens = {}
    for seat in (1, 2, 3, 4):
        answer = phone.post(url(world, "seat"), {"seat": seat, "pin": PIN}, format="json")
        assert answer.status_code == 200, answer.content
        tokens[seat] = answer.json()["token"]
    table = LiveTable.objects.get(pk=world["p1"].pk)
    seat, turn = table.seat, table.turn
    view = phone.get(url(world), HTTP_X_SEAT_TOKEN=tokens[seat]).json()
    legal = view["current"]["legal"][0]
    move = {"turn": turn, "tile": legal["tile"], **({"end": legal["end"]} if "end" in legal else {})}

    # Refused by the services, not signed in: 401 (DRF's answer to an anonymous caller).
    assert phone.post(url(world, "move"), move, format="json").status_code == 401  # no token
    other = next(s for s in (1, 2, 3, 4) if s != seat)
    assert phone.post(url(world, "move"), move, format="json", HTTP_X_SEAT_TOKEN=tokens[other]).status_code == 401
    assert phone.post(url(world, "seat"), {"seat": seat, "pin": "0000"}, format="json").status_code == 400
    assert phone.post(url(world, "pause"), {"reason": "dispute"}, format="json").status_code == 401

    answer = phone.post(url(world, "move"), move, format="json", HTTP_X_SEAT_TOKEN=tokens[seat])
    assert answer.status_code == 200, answer.content
    assert answer.json()["live"]["turn"] == turn + 1
    assert LiveTable.objects.get(pk=world["p1"].pk).turn == turn + 1
