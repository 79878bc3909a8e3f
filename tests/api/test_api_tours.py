"""Tours, the draw, manual seating, publishing and referees through the API."""

import pytest

from apiworld import client, listed
from builders import tournament
from tournaments import tours
from tournaments.models import Bye, Table, Tour, Tournament

pytestmark = pytest.mark.django_db


def numbers(response):
    return [t["number"] for t in listed(response)]


def test_a_draft_tour_is_shown_to_the_staff_only(world):
    assert numbers(client().get("/api/tournaments/cup/tours/")) == [1]
    assert numbers(client(world.player).get("/api/tournaments/cup/tours/")) == [1]
    assert numbers(client(world.other_org).get("/api/tournaments/cup/tours/")) == [1]
    for staff in (world.org, world.chief, world.referee):
        assert numbers(client(staff).get("/api/tournaments/cup/tours/")) == [1, 2]
        assert client(staff).get("/api/tournaments/cup/tours/2/").json()["status"] == "draft"
    response = client(world.player).get("/api/tournaments/cup/tours/2/")
    assert response.status_code == 404
    assert response.json() == {"detail": "There is no tour 2 in this tournament."}
    assert client().get("/api/tournaments/cup/tours/2/tables/1/").status_code == 404


def test_a_tour_shows_its_tables_seats_referees_and_results(world):
    body = client().get("/api/tournaments/cup/tours/1/").json()
    assert body["status"] == "finished" and body["published_at"] and body["byes"] == [] and body["sit_outs"] == []
    assert [t["number"] for t in body["tables"]] == [1, 2]
    first = body["tables"][0]
    table = world.tour1.tables.get(number=1)
    assert first["referee"] == "ref"
    assert first["pair_a"]["number"] == table.pair_a.number and first["pair_b"]["number"] == table.pair_b.number
    assert [first[f"seat{n}"]["id"] for n in range(1, 5)] == [p.pk for p in table.seats]
    assert (first["seat1"], first["seat3"]) == (first["pair_a"]["first"], first["pair_a"]["second"])
    assert (first["seat2"], first["seat4"]) == (first["pair_b"]["first"], first["pair_b"]["second"])
    assert first["partition"] == {"id": table.partition.pk, "status": "finished", "winner": "A", "reason": "target",
                                  "points_a": 200, "points_b": 100, "version": 0, "started_at": None,
                                  "finished_at": None}
    assert client().get("/api/tournaments/cup/tours/1/tables/2/").json()["number"] == 2


def test_byes_and_sit_outs_are_shown(world):
    api = client(world.org)
    api.post("/api/tournaments/cup/pairs/", {"first": {"last_name": "Пятый1"}, "second": {"last_name": "Пятый2"}},
             format="json")
    body = api.post("/api/tournaments/cup/tours/generate/", {}, format="json").json()
    assert len(body["tables"]) == 2 and len(body["byes"]) == 1
    assert body["byes"][0]["pair"]["number"] == Bye.objects.get(tour=world.tour2).pair.number
    api.post("/api/tournaments/solo/entries/", {"last_name": "Одиночка5"}, format="json")
    body = api.post("/api/tournaments/solo/tours/generate/", {}, format="json").json()
    assert len(body["tables"]) == 1 and len(body["sit_outs"]) == 1
    assert body["sit_outs"][0]["player"]["last_name"].startswith("Одиночка")


def test_tours_are_read_in_a_fixed_number_of_queries(world, django_assert_max_num_queries):
    big = tournament(world.org, slug="big", pairs=16)
    for _ in range(2):
        tour = tours.generate_tour(world.org, big)
        tours.publish_tour(world.org, tour)
        Tour.objects.filter(pk=tour.pk).update(status=Tour.Status.FINISHED)
    with django_assert_max_num_queries(12):
        response = client(world.org).get("/api/tournaments/big/tours/")
    assert [len(t["tables"]) for t in listed(response)] == [8, 8]


# -- the draw ------------------------------------------------------------------------------------


def test_generate_draws_the_draft_again(world):
    before = set(world.tour2.tables.values_list("pk", flat=True))
    response = client(world.org).post("/api/tournaments/cup/tours/generate/",
                                      {"planned_start": "2026-11-21T12:00:00+03:00"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 2 and body["status"] == "draft" and len(body["tables"]) == 2
    assert body["planned_start"].startswith("2026-11-21T12:00:00")
    after = set(Table.objects.filter(tour__number=2, tour__tournament=world.cup).values_list("pk", flat=True))
    assert after and not before & after


def test_generate_errors(world):
    api = client(world.org)
    response = api.post("/api/tournaments/cup/tours/generate/", {"planned_start": "noon"}, format="json")
    assert response.status_code == 400 and "planned_start" in response.json()["errors"]
    api.post("/api/tournaments/cup/tours/2/publish/")
    response = api.post("/api/tournaments/cup/tours/generate/", {}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "Finish the current tour first: the next draw depends on its results."}
    response = api.post("/api/tournaments/solo/tours/generate/", {}, format="json")
    assert response.status_code == 201
    Tournament.objects.filter(slug="solo").update(status=Tournament.Status.FINISHED)
    response = api.post("/api/tournaments/solo/tours/generate/", {}, format="json")
    assert response.status_code == 400 and response.json() == {"detail": "The tournament is finished."}
    assert world.cup.tours.count() == 2


# -- manual seating ------------------------------------------------------------------------------


def test_set_tables_seats_a_draft_by_hand(world):
    p = {n: world.pair(n).pk for n in range(1, 5)}
    seating = {"tables": [{"pair_a": p[4], "pair_b": p[1]}, {"pair_a": p[3], "pair_b": p[2]}]}
    response = client(world.org).put("/api/tournaments/cup/tours/2/tables/", seating, format="json")
    assert response.status_code == 200
    body = response.json()
    assert [(t["pair_a"]["number"], t["pair_b"]["number"]) for t in body["tables"]] == [(4, 1), (3, 2)]
    assert [(t.pair_a.number, t.pair_b.number) for t in world.tour2.tables.all()] == [(4, 1), (3, 2)]


def test_set_tables_refuses_a_bad_seating_as_a_whole(world):
    before = list(world.tour2.tables.values_list("pair_a", "pair_b"))
    p = {n: world.pair(n).pk for n in range(1, 5)}
    api = client(world.org)
    response = api.put("/api/tournaments/cup/tours/2/tables/",
                       {"tables": [{"pair_a": p[1], "pair_b": p[2]}, {"pair_a": p[2], "pair_b": None}]}, format="json")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "empty" in detail and ("twice" in detail or "more than once" in detail)
    response = api.put("/api/tournaments/cup/tours/2/tables/", {"tables": [{"pair_a": p[1], "pair_b": 999999}]},
                       format="json")
    assert response.status_code == 400 and response.json() == {"detail": "No such pair in this tournament: 999999."}
    response = api.put("/api/tournaments/cup/tours/2/tables/", {"tables": [{"pair_a": "one", "pair_b": p[2]}]},
                       format="json")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["tables.0.pair_a"]
    response = api.put("/api/tournaments/cup/tours/2/tables/", {}, format="json")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["tables"]
    response = api.put("/api/tournaments/cup/tours/1/tables/", {"tables": [{"pair_a": p[1], "pair_b": p[2]}]},
                       format="json")
    assert response.status_code == 400 and response.json() == {"detail": "Tour 1 is published: its draw cannot change."}
    assert list(world.tour2.tables.values_list("pair_a", "pair_b")) == before


def test_set_tables_is_not_for_individual_tournaments(world):
    api = client(world.org)
    api.post("/api/tournaments/solo/tours/generate/", {}, format="json")
    response = api.put("/api/tournaments/solo/tours/1/tables/", {"tables": []}, format="json")
    assert response.status_code == 400 and "individual tournament" in response.json()["detail"]


# -- publishing ----------------------------------------------------------------------------------


def test_publish_a_draft_tour(world):
    response = client(world.org).post("/api/tournaments/cup/tours/2/publish/")
    assert response.status_code == 200
    assert response.json()["status"] == "published" and response.json()["published_at"]
    assert numbers(client().get("/api/tournaments/cup/tours/")) == [1, 2]  # now public
    response = client(world.org).post("/api/tournaments/cup/tours/2/publish/")
    assert response.status_code == 400 and response.json() == {"detail": "Tour 2 is already published."}


def test_publishing_starts_the_tournament_and_needs_tables(world):
    manual = tournament(world.org, slug="manual", pairs=2, format=Tournament.Format.MANUAL)
    api = client(world.org)
    assert api.post("/api/tournaments/manual/tours/generate/", {}, format="json").json()["tables"] == []
    response = api.post("/api/tournaments/manual/tours/1/publish/")
    assert response.status_code == 400
    assert response.json() == {"detail": "Tour 1 has no tables: draw or seat it first."}
    pairs = list(manual.pairs.order_by("number").values_list("pk", flat=True))
    api.put("/api/tournaments/manual/tours/1/tables/", {"tables": [{"pair_a": pairs[0], "pair_b": pairs[1]}]},
            format="json")
    assert api.post("/api/tournaments/manual/tours/1/publish/").status_code == 200
    assert api.get("/api/tournaments/manual/").json()["status"] == "running"


# -- referees ------------------------------------------------------------------------------------


def test_assign_and_clear_the_referee_of_a_table(world):
    api = client(world.org)
    response = api.put("/api/tournaments/cup/tours/2/tables/1/referee/", {"referee": "chief"}, format="json")
    assert response.status_code == 200 and response.json()["referee"] == "chief"
    assert world.tour2.tables.get(number=1).referee == world.chief
    response = api.put("/api/tournaments/cup/tours/2/tables/1/referee/", {"referee": None}, format="json")
    assert response.status_code == 200 and response.json()["referee"] is None
    assert world.tour2.tables.get(number=1).referee is None


def test_assign_referee_errors(world):
    api = client(world.org)
    url = "/api/tournaments/cup/tours/2/tables/1/referee/"
    kept = list(world.tour2.tables.values_list("number", "referee"))  # from tour 1, nothing refused changes them
    response = api.put(url, {"referee": "newcomer"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "newcomer is not a referee of this tournament: give him the role first."}
    response = api.put(url, {"referee": "ghost"}, format="json")  # no such login: the same answer
    assert response.status_code == 400
    assert response.json() == {"detail": "ghost is not a referee of this tournament: give him the role first."}
    response = api.put(url, {}, format="json")
    assert response.status_code == 400 and list(response.json()["errors"]) == ["referee"]
    response = api.put("/api/tournaments/cup/tours/1/tables/1/referee/", {"referee": "chief"}, format="json")
    assert response.status_code == 400 and response.json() == {"detail": "The tour is finished."}
    response = api.put("/api/tournaments/cup/tours/2/tables/9/referee/", {"referee": "chief"}, format="json")
    assert response.status_code == 404 and response.json() == {"detail": "There is no table 9 in this tour."}
    assert list(world.tour2.tables.values_list("number", "referee")) == kept
    assert world.tour1.tables.get(number=1).referee == world.referee
