"""The REST API of a digital table as a player's phone uses it: not signed in, the seat taken
with the PIN, every move sent with the seat's token (README, "Live tables")."""

from __future__ import annotations

from django.db import OperationalError, connection
from psycopg_pool import PoolTimeout
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from livetools import PIN, live_tour
from scoring.live import play
from scoring.models import LiveTable


def url(world, action: str = "") -> str:
    return f"/api/partitions/{world['p1'].pk}/live/" + (f"{action}/" if action else "")


def test_a_phone_not_signed_in_takes_its_seat_and_plays_its_move(db, frozen):
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


def test_a_move_is_one_short_transaction_and_its_answer_reads_nothing_again(db, frozen):
    """Issue 11, faster writes: the rows locked in one query, the table and its players in two
    short ones, the deal in play rewritten alone (not the finished deals' state), and the answer
    built from what the service holds: the partition is not read a second time."""
    world = live_tour("digital")
    world["t"].status = "running"
    world["t"].save(update_fields=["status"])
    play.start_tour(world["chief"], world["tour"])
    phone = APIClient()
    tokens = {seat: phone.post(url(world, "seat"), {"seat": seat, "pin": PIN}, format="json").json()["token"]
              for seat in (1, 2, 3, 4)}
    table = LiveTable.objects.get(pk=world["p1"].pk)
    view = phone.get(url(world), HTTP_X_SEAT_TOKEN=tokens[table.seat]).json()
    legal = view["current"]["legal"][0]
    move = {"turn": table.turn, "tile": legal["tile"], **({"end": legal["end"]} if "end" in legal else {})}
    with CaptureQueriesContext(connection) as queries:
        answer = phone.post(url(world, "move"), move, format="json", HTTP_X_SEAT_TOKEN=tokens[table.seat])
    assert answer.status_code == 200, answer.content
    assert answer.json()["live"]["turn"] == table.turn + 1
    assert answer.json()["current"]["line"] == [[int(n) for n in legal["tile"].split("-")]]
    statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(statements) <= 11, statements
    assert not [s for s in statements if s.startswith("SELECT") and 'FROM "scoring_partition"' in s]
    written = [s for s in statements if s.startswith('UPDATE "scoring_partition"')]
    assert len(written) == 1 and '"current"' in written[0] and '"state"' not in written[0]


def test_no_database_connection_in_time_is_a_503_to_retry_not_a_500(db, frozen, monkeypatch):
    """An overloaded server (the connection pool's wait ran out) tells the phone to retry."""
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])

    def busy(*args, **kwargs):
        try:
            raise PoolTimeout("couldn't get a connection after 10.00 sec")
        except PoolTimeout as error:
            raise OperationalError(str(error)) from error

    monkeypatch.setattr(play, "claim_seat", busy)
    answer = APIClient().post(url(world, "seat"), {"seat": 1, "pin": PIN}, format="json",
                              HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "1"
    assert answer.json()["detail"] == "The server is busy: try again in a moment."
