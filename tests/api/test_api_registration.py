"""Pairs, entries and the CSV import through the API."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apiworld import client, listed
from tournaments.models import Entry, Pair, Player, Tournament

pytestmark = pytest.mark.django_db

CSV = "last_name_1;first_name_1;last_name_2;first_name_2;number\nСмирнов;Алексей;Попов;Игорь;10\nВолков;;Орлов;;\n"


def fixed_pairs(tournament):
    return Pair.objects.filter(tournament=tournament, tour__isnull=True)


# -- pairs ---------------------------------------------------------------------------------------


def test_pairs_are_listed_with_their_players(world):
    body = listed(client().get("/api/tournaments/cup/pairs/"))
    assert [p["number"] for p in body] == [1, 2, 3, 4]
    assert body[0]["first"]["last_name"] == "Игрок1а" and body[0]["second"]["last_name"] == "Игрок1б"
    assert body[0]["withdrawn_at"] is None
    pair = world.pair(2)
    assert client().get(f"/api/tournaments/cup/pairs/{pair.pk}/").json()["number"] == 2
    assert client().get("/api/tournaments/other/pairs/").status_code == 404  # a draft tournament


def test_register_a_pair(world):
    response = client(world.org).post("/api/tournaments/cup/pairs/", {
        "first": {"last_name": "Смирнов", "first_name": "Алексей", "club": "Пуля", "federation_id": "RU-1"},
        "second": {"last_name": "Попов"}}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 5
    assert body["first"]["federation_id"] == "RU-1" and body["second"]["last_name"] == "Попов"
    assert fixed_pairs(world.cup).count() == 5
    assert Entry.objects.filter(tournament=world.cup).count() == 10


@pytest.mark.parametrize(("body", "status", "detail"), [
    ({"first": {"last_name": "А"}}, 400, "second: This field is required."),
    ({"first": {"last_name": "А"}, "second": {"first_name": "Б"}}, 400, "second.last_name: This field is required."),
    ({"first": {"last_name": "А"}, "second": {"last_name": "Б"}, "number": 0}, 400,
     "number: Ensure this value is greater than or equal to 1."),
    ({"first": {"last_name": "А"}, "second": {"last_name": "Б"}, "number": 1}, 400, "Start number 1 is taken."),
])
def test_register_a_pair_refuses_bad_requests(world, body, status, detail):
    response = client(world.org).post("/api/tournaments/cup/pairs/", body, format="json")
    assert response.status_code == status
    assert response.json()["detail"] == detail
    assert fixed_pairs(world.cup).count() == 4


def test_register_a_pair_refuses_players_already_in_and_individual_tournaments(world):
    api = client(world.org)
    Player.objects.filter(pk=world.player_named("Игрок1а").pk).update(federation_id="RU-9")
    response = api.post("/api/tournaments/cup/pairs/", {
        "first": {"last_name": "Игрок1а", "federation_id": "RU-9"}, "second": {"last_name": "Новый"}}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "Игрок1а is already registered in this tournament."}
    response = api.post("/api/tournaments/solo/pairs/", {"first": {"last_name": "А"}, "second": {"last_name": "Б"}},
                        format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "This is an individual tournament: register players, not pairs."}
    assert fixed_pairs(world.cup).count() == 4 and not fixed_pairs(world.solo).exists()


def test_withdraw_a_pair(world):
    pair = world.pair(3)
    response = client(world.org).post(f"/api/tournaments/cup/pairs/{pair.pk}/withdraw/")
    assert response.status_code == 200
    assert response.json()["withdrawn_at"]
    pair.refresh_from_db()
    assert pair.withdrawn_at is not None
    assert not Entry.objects.filter(tournament=world.cup, player__in=pair.players, withdrawn_at__isnull=True).exists()
    foreign = Pair.objects.get(tournament=world.other)
    assert client(world.org).post(f"/api/tournaments/cup/pairs/{foreign.pk}/withdraw/").status_code == 404


# -- entries (individual tournaments) ------------------------------------------------------------


def test_entries_register_and_withdraw_players(world):
    api = client(world.org)
    response = api.get("/api/tournaments/solo/entries/")
    assert [e["player"]["last_name"] for e in listed(response)] == [f"Одиночка{n}" for n in range(1, 5)]
    response = api.post("/api/tournaments/solo/entries/", {"last_name": "Новиков", "city": "Тверь"}, format="json")
    assert response.status_code == 201
    entry = response.json()
    assert entry["player"]["city"] == "Тверь" and entry["withdrawn_at"] is None
    response = api.post(f"/api/tournaments/solo/entries/{entry['id']}/withdraw/")
    assert response.status_code == 200 and response.json()["withdrawn_at"]
    assert Entry.objects.get(pk=entry["id"]).withdrawn_at is not None


def test_entry_errors(world):
    api = client(world.org)
    response = api.post("/api/tournaments/solo/entries/", {"first_name": "Без фамилии"}, format="json")
    assert response.status_code == 400 and response.json()["errors"] == {"last_name": ["This field is required."]}
    response = api.post("/api/tournaments/cup/entries/", {"last_name": "Новиков"}, format="json")
    assert response.status_code == 400 and response.json() == {"detail": "This is a pair tournament: register pairs."}
    in_pair = Entry.objects.filter(tournament=world.cup).first()
    response = api.post(f"/api/tournaments/cup/entries/{in_pair.pk}/withdraw/")
    assert response.status_code == 400
    assert response.json() == {"detail": "This is a pair tournament: withdraw the pair."}
    assert api.post("/api/tournaments/solo/entries/999999/withdraw/").status_code == 404
    assert Entry.objects.filter(tournament=world.solo).count() == 4
    assert not Entry.objects.exclude(withdrawn_at=None).exists()


# -- CSV import ----------------------------------------------------------------------------------


def test_import_a_csv_body(world):
    response = client(world.org).post("/api/tournaments/cup/pairs/import/", CSV.encode(), content_type="text/csv")
    assert response.status_code == 201
    assert response.json() == {"created": 2}
    assert sorted(fixed_pairs(world.cup).values_list("number", flat=True)) == [1, 2, 3, 4, 10, 11]


def test_import_a_multipart_file_in_windows_1251(world):
    upload = SimpleUploadedFile("pairs.csv", CSV.encode("cp1251"), content_type="text/csv")
    response = client(world.org).post("/api/tournaments/cup/pairs/import/", {"file": upload}, format="multipart")
    assert response.status_code == 201 and response.json() == {"created": 2}
    assert fixed_pairs(world.cup).get(number=10).first.first_name == "Алексей"


def test_a_bad_file_imports_nothing_and_names_every_bad_line(world):
    bad = "last_name_1,last_name_2,number\nСмирнов,Попов,\n,Орлов,\nВолков,Зайцев,1\nМихайлов,Новиков,x\n"
    response = client(world.org).post("/api/tournaments/cup/pairs/import/", bad, content_type="text/csv")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "Nothing was imported: correct the lines listed and send the file again."
    assert body["errors"] == {"lines": [
        {"line": 3, "message": "A player needs a last name."},
        {"line": 4, "message": "Start number 1 is taken."},
        {"line": 5, "message": "The start number must be a whole number from 1, not x."},
    ]}
    assert fixed_pairs(world.cup).count() == 4


def test_import_refuses_a_wrong_header_no_file_and_an_individual_tournament(world):
    api = client(world.org)
    response = api.post("/api/tournaments/cup/pairs/import/", "surname,name\nА,Б\n", content_type="text/csv")
    assert response.status_code == 400
    assert response.json()["errors"]["lines"][0]["line"] == 1
    assert "missing columns: last_name_1, last_name_2" in response.json()["errors"]["lines"][0]["message"]
    response = api.post("/api/tournaments/cup/pairs/import/", {}, format="multipart")
    assert response.status_code == 400 and "file" in response.json()["errors"]
    response = api.post("/api/tournaments/cup/pairs/import/", b"\xff\xfe\x00\x98", content_type="text/csv")
    assert response.status_code == 400 and "neither UTF-8 nor Windows-1251" in response.json()["detail"]
    response = api.post("/api/tournaments/solo/pairs/import/", CSV, content_type="text/csv")
    assert response.status_code == 400
    assert "individual tournament" in response.json()["errors"]["lines"][0]["message"]
    response = api.post("/api/tournaments/cup/pairs/import/", "{}", content_type="application/json")
    assert response.status_code == 415
    assert fixed_pairs(world.cup).count() == 4 and not Tournament.objects.get(slug="solo").pairs.exists()


def test_import_refuses_a_file_over_its_size_limit(world, settings):
    body = CSV.encode()
    settings.CSV_IMPORT_MAX_SIZE = len(body)  # at the limit: imported
    response = client(world.org).post("/api/tournaments/cup/pairs/import/", body, content_type="text/csv")
    assert response.status_code == 201
    settings.CSV_IMPORT_MAX_SIZE = len(body) - 1  # one byte past it: refused, as text/csv or as a file
    response = client(world.org).post("/api/tournaments/cup/pairs/import/", body, content_type="text/csv")
    assert response.status_code == 400
    assert response.json() == {"detail": f"The file is too large: at most {len(body) - 1}\xa0bytes."}
    upload = SimpleUploadedFile("pairs.csv", body, content_type="text/csv")
    response = client(world.org).post("/api/tournaments/cup/pairs/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400 and response.json()["detail"].startswith("The file is too large")
