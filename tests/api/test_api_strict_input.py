"""Bad input to the API is a 400 (or a 413) that says what is wrong, never a 500, and leaves
nothing stored: JSON too deep or holding a NUL character, loose types in a recording, a body
over its limit, a form where JSON is expected."""

import json

import pytest
from django.test import Client

from apiworld import client
from scoring.models import Partition, PartitionChange
from test_api_recording import Sheet
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000
NUL_MESSAGE = "The JSON contains a NUL character (\\u0000), which cannot be stored."


@pytest.fixture
def sheet(world) -> Sheet:
    return Sheet(world)


def post_json(who, url: str, text: str, **headers):
    return client(who).generic("POST", url, text, content_type="application/json", **headers)


def nothing_recorded(sheet) -> bool:
    return Partition.objects.get(pk=sheet.p1).version == 0 and not PartitionChange.objects.exists()


# -- the one JSON reader -----------------------------------------------------------------------------


def test_deep_json_is_a_400_on_the_token_endpoint(world):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post("/api/auth/token/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": "The JSON is nested too deeply: at most 32 levels."}


def test_deep_json_is_a_400_when_recording(sheet):
    for what in ("record", "import", "correct-deal"):
        response = post_json(sheet.world.referee, sheet.url(sheet.p1, what), DEEP)
        assert response.status_code == 400, what
        assert response.json() == {"detail": "The JSON is nested too deeply: at most 32 levels."}
    assert nothing_recorded(sheet)


def test_deep_json_is_a_400_when_changing_a_tournament_or_a_player(world):
    for url in ("/api/tournaments/cup/", f"/api/players/{world.player_named('Игрок1а').pk}/"):
        response = client(world.org).generic("PATCH", url, '{"name": ' + DEEP, content_type="application/json")
        assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]


@pytest.mark.parametrize(("what", "body"), [
    ("record", {"action": "lead", "data": {"seat": 1, "note\u0000": "x"}}),
    ("record", {"action": "penalty", "data": {"seat": 2, "code": "signs"}, "comment": "\u0000"}),
    ("import", {"format": "domino-protocol/1", "first_leader": 1, "deals": [],
                "pairs": {"A": ["Константинопольский-Д'Артаньян\u0000", "Пётр"], "B": ["Ёлкин", "Ёжиков"]}}),
    ("correct-deal", {"number": 1, "deal": {"end": "fish", "pips": {"A": 1, "B": 2}}, "reason": "ok",
                      "note": "\u0000"}),
])
def test_a_nul_character_anywhere_in_a_recording_is_a_400(sheet, what, body):
    response = post_json(sheet.world.referee, sheet.url(sheet.p1, what), json.dumps(body))
    assert response.status_code == 400
    assert response.json() == {"detail": NUL_MESSAGE}
    assert nothing_recorded(sheet)


def test_a_nul_character_in_the_idempotency_key_is_a_400(sheet):
    body = json.dumps({"action": "lead", "data": {"seat": 1}})
    response = post_json(sheet.world.referee, sheet.url(sheet.p1, "record"), body, HTTP_IDEMPOTENCY_KEY="k\x00")
    assert response.status_code == 400 and response.json() == {"detail": NUL_MESSAGE}
    assert nothing_recorded(sheet)


def test_a_nul_character_anywhere_when_changing_a_tournament_is_a_400(world):
    response = client(world.org).generic("PATCH", "/api/tournaments/solo/",
                                         json.dumps({"venue": "Тверь", "note\u0000": 1}),
                                         content_type="application/json")
    assert response.status_code == 400 and response.json() == {"detail": NUL_MESSAGE}
    assert Tournament.objects.get(slug="solo").venue == ""


# -- changing a tournament or a player -----------------------------------------------------------


def test_a_form_body_is_refused_where_json_is_expected(world):
    api = client(world.org)
    response = api.generic("PATCH", "/api/tournaments/solo/", "regulations=x&name=Личный",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    player = world.player_named("Игрок1а")
    response = api.patch(f"/api/players/{player.pk}/", {"club": "Дуплет"}, format="multipart")
    assert response.status_code == 415
    assert Tournament.objects.get(slug="solo").name == "Кубок клуба" and Player.objects.get(pk=player.pk).club == ""


@pytest.mark.parametrize(("body", "field"), [
    ({"slug": "other"}, "slug"),  # taken
    ({"slug": "кубок"}, "slug"),
    ({"name": "Кубок " + "ё" * 200}, "name"),
    ({"venue": 5 * "Москва, клуб «Дуплет» — зал д'Артаньяна, "}, "venue"),
    ({"starts_on": "2026-13-01"}, "starts_on"),
    ({"starts_on": 20261121}, "starts_on"),
    ({"status": ["draft"]}, "status"),
    ({"regulations": ["target", 150]}, "regulations"),
    ({"regulations": {"target": True}}, "regulations"),
    ({"regulations": {"target": 150.0}}, "regulations"),
    ({"regulations": {"standings": [["wins"]]}}, "regulations"),
])
def test_a_tournament_change_with_a_bad_value_is_a_400(world, body, field):
    response = client(world.org).patch("/api/tournaments/solo/", body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"]
    assert Tournament.objects.get(slug="solo").name == "Кубок клуба"


@pytest.mark.parametrize(("body", "field"), [
    ({"last_name": "Константинопольский-" * 6}, "last_name"),
    ({"club": None}, "club"),
    ({"city": ["Тула"]}, "city"),
    ({"last_name": " "}, "last_name"),
    ({"federation_id": "RU-" + "1" * 50}, "federation_id"),
])
def test_a_player_change_with_a_bad_value_is_a_400(world, body, field):
    player = world.player_named("Игрок1а")
    response = client(world.org).patch(f"/api/players/{player.pk}/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert Player.objects.get(pk=player.pk).last_name == "Игрок1а"


def test_a_federation_id_another_player_has_is_a_400(world):
    first, second = world.player_named("Игрок1а"), world.player_named("Игрок2а")
    assert client(world.org).patch(f"/api/players/{first.pk}/", {"federation_id": "RU-7"}, format="json").status_code == 200
    response = client(world.org).patch(f"/api/players/{second.pk}/", {"federation_id": "RU-7"}, format="json")
    assert response.status_code == 400 and "federation_id" in response.json()["errors"]


# -- the size of a body ------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_a_413_before_it_is_read(world, settings):
    body = json.dumps({"name": "Личный кубок"})
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body.encode())  # at the limit: read
    response = client(world.org).generic("PATCH", "/api/tournaments/solo/", body, content_type="application/json")
    assert response.status_code == 200
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE -= 1  # one byte past it: not read
    response = client(world.org).generic("PATCH", "/api/tournaments/solo/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"detail": f"The request is too large: at most {len(body.encode()) - 1}\xa0bytes."}


def test_a_body_announced_too_large_is_refused_without_reading_it(world):
    # The test client's payload refuses to be read past what it holds: a 413 means nothing read it.
    response = client(world.org).generic("POST", "/api/auth/token/", b"{}", content_type="application/json",
                                         CONTENT_LENGTH=str(10 ** 9))
    assert response.status_code == 413 and response.json()["detail"].startswith("The request is too large")


# -- the types of a recording ----------------------------------------------------------------------


@pytest.mark.parametrize(("action", "data", "field"), [
    ("lead", {"seat": True}, "data.seat"),  # Python takes true for 1: it was stored, and exported
    ("lead", {"seat": 2.0}, "data.seat"),
    ("lead", {"seat": "2"}, "data.seat"),
    ("lead", {"seat": 5}, "data.seat"),
    ("lead", {"seat": 1, "note": "Ёлкин"}, "data.note"),
    ("lead", {}, "data.seat"),
    ("deal", {"end": "domino", "seat": 1, "pips": {"A": 4, "B": 31, "C": 0}}, "data.pips.C"),
    ("deal", {"end": "domino", "seat": 1, "pips": {"A": True, "B": 31}}, "data.pips.A"),
    ("deal", {"end": "domino", "seat": 1, "pips": {"A": 4.0, "B": 31}}, "data.pips.A"),
    ("deal", {"end": "domino", "seat": 1}, "data.pips"),
    ("deal", {"end": "domino", "seat": False, "pips": {"A": 4, "B": 31}}, "data.seat"),
    ("deal", {"end": ["fish"], "pips": {"A": 4, "B": 31}}, "data.end"),
    ("penalty", {"seat": 2, "code": "rudeness"}, "data.code"),
    ("violation", {"seat": True, "code": "move_time"}, "data.seat"),
    ("annul", {"violation": True, "reason": "знак руками"}, "data.violation"),
    ("annul", {"violation": 3, "reason": 5}, "data.reason"),
    ("time", {"during_deal": "false"}, "data.during_deal"),  # was read as true
    ("time", {"during_deal": 0}, "data.during_deal"),
    ("no_show", {"absent": ["A"]}, "data.absent"),
    ("restart", {"seat": 1, "code": "signs"}, "data.code"),
    ("forfeit", {"pair": 1}, "data.pair"),
])
def test_loose_types_in_a_recording_are_refused_and_nothing_is_stored(sheet, action, data, field):
    response = client(sheet.world.referee).post(sheet.url(sheet.p1, "record"), {"action": action, "data": data},
                                                format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert nothing_recorded(sheet)


def test_what_is_stored_is_the_checked_data_and_exports_as_a_valid_protocol(sheet):
    ref = sheet.world.referee
    sheet.record(ref, "lead", {"seat": 4})
    sheet.record(ref, "deal", {"end": "fish", "pips": {"A": 20, "B": 15}})
    sheet.record(ref, "time", {"during_deal": False})
    changes = PartitionChange.objects.filter(partition_id=sheet.p1).order_by("version")
    assert [c.data for c in changes] == [{"seat": 4}, {"end": "fish", "pips": {"A": 20, "B": 15}},
                                         {"during_deal": False}]
    document = client(ref).get(sheet.url(sheet.p1, "export")).json()
    assert type(document["first_leader"]) is int and document["first_leader"] == 4
    assert document["time_expired"] == {"after_deal": 1}


def test_a_corrected_deal_is_typed_strictly_too(sheet):
    ref, chief = sheet.world.referee, sheet.world.chief
    sheet.record(ref, "lead", {"seat": 1})
    sheet.record(ref, "deal", {"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30}})
    for deal, field in [({"end": "domino", "seat": True, "pips": {"A": 10, "B": 30}}, "deal.seat"),
                        ({"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30.0}}, "deal.pips.B"),
                        ({"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30}, "points": 40}, "deal.points")]:
        response = client(chief).post(sheet.url(sheet.p1, "correct-deal"),
                                      {"number": 1, "deal": deal, "reason": "ошибка в бланке"}, format="json")
        assert response.status_code == 400 and field in response.json()["errors"], response.json()
    response = client(chief).post(sheet.url(sheet.p1, "correct-deal"),
                                  {"number": True, "deal": {"end": "fish", "pips": {"A": 1, "B": 2}}, "reason": "x"},
                                  format="json")
    assert response.status_code == 400 and "number" in response.json()["errors"]
    assert Partition.objects.get(pk=sheet.p1).version == 2
