"""Tournaments, roles and players through the API."""

import pytest

from apiworld import client, listed
from tournaments import services
from tournaments.models import Player, Role, Table, Tournament

pytestmark = pytest.mark.django_db

NEW = {"name": "Осенний кубок", "slug": "autumn", "venue": "Тула", "starts_on": "2026-10-01",
       "ends_on": "2026-10-02", "format": "round_robin", "regulations": {"target": 150}}


def slugs(response):
    return {t["slug"] for t in listed(response)}


# -- tournaments ---------------------------------------------------------------------------------


def test_the_public_sees_tournaments_but_drafts_only_their_staff(world):
    assert slugs(client().get("/api/tournaments/")) == {"cup", "solo"}
    assert slugs(client(world.player).get("/api/tournaments/")) == {"cup", "solo"}
    assert slugs(client(world.org).get("/api/tournaments/")) == {"cup", "solo"}
    assert slugs(client(world.other_org).get("/api/tournaments/")) == {"cup", "solo", "other"}
    body = client().get("/api/tournaments/cup/").json()
    assert body["name"] == "Кубок клуба" and body["status"] == "running" and body["format"] == "swiss"
    assert body["regulations"]["target"] == 200
    response = client(world.org).get("/api/tournaments/other/")
    assert response.status_code == 404
    assert response.json() == {"detail": "There is no tournament other."}
    assert client(world.other_org).get("/api/tournaments/other/").status_code == 200


def test_create_a_tournament(world):
    response = client(world.other_org).post("/api/tournaments/", NEW, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["slug"] == "autumn" and body["status"] == "draft" and body["format"] == "round_robin"
    assert body["regulations"]["target"] == 150 and body["regulations"]["penalty_points"] == 25
    assert body["seeding"] == "numbers" and body["regulations_text"] == "" and body["team_best"] == 0
    tournament = Tournament.objects.get(slug="autumn")
    assert tournament.roles.get().user == world.other_org


def test_the_seeding_the_regulations_text_and_the_team_standings_are_read_and_written(world):
    new = {**NEW, "seeding": "random", "regulations_text": "Положение о турнире «Дубль-шесть»", "team_best": 3}
    response = client(world.other_org).post("/api/tournaments/", new, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["seeding"], body["regulations_text"], body["team_best"]) == (
        "random", "Положение о турнире «Дубль-шесть»", 3)
    response = client(world.other_org).patch("/api/tournaments/autumn/", {"team_best": 0}, format="json")
    assert response.status_code == 200 and response.json()["team_best"] == 0
    assert Tournament.objects.get(slug="autumn").team_best == 0
    for bad, message in (({"team_best": -1}, "greater than or equal to 0"), ({"seeding": "lottery"}, "valid choice")):
        response = client(world.other_org).patch("/api/tournaments/autumn/", bad, format="json")
        assert response.status_code == 400 and message in " ".join(response.json()["errors"][next(iter(bad))])


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"slug": "cup"}, "slug", "Another tournament has the short name cup"),
    ({"format": "chess"}, "format", "not a valid choice"),
    ({"starts_on": "tomorrow"}, "starts_on", "Date has wrong format"),
    ({"regulations": {"target": -5}}, "regulations", "regulations.target"),
    ({"regulations": "fast"}, "regulations", "dictionary"),
])
def test_create_refuses_bad_fields_with_the_field_named(world, change, field, message):
    response = client(world.org).post("/api/tournaments/", {**NEW, **change}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert message in body["detail"]
    assert message in " ".join(body["errors"][field])
    assert not Tournament.objects.filter(name=NEW["name"]).exists()


def test_create_refuses_dates_out_of_order(world):
    response = client(world.org).post("/api/tournaments/", {**NEW, "ends_on": "2026-09-01"}, format="json")
    assert response.status_code == 400 and response.json()["detail"]
    assert not Tournament.objects.filter(slug="autumn").exists()


def test_create_needs_the_right_to_create(world):
    response = client(world.chief).post("/api/tournaments/", NEW, format="json")
    assert response.status_code == 403
    assert "may not create tournaments" in response.json()["detail"]


def test_edit_a_tournament_and_its_regulations(world):
    api = client(world.org)
    response = api.patch("/api/tournaments/solo/", {"name": "Личный кубок", "venue": "Тверь",
                                                   "regulations": {"target": 300, "penalty_points": 50}},
                         format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "Личный кубок" and body["venue"] == "Тверь"
    assert body["regulations"]["target"] == 300 and body["regulations"]["penalty_points"] == 50
    solo = Tournament.objects.get(slug="solo")
    assert solo.rules.target == 300 and solo.format == "individual"  # untouched fields stay
    response = api.patch("/api/tournaments/solo/", {"status": "draft"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "draft"
    assert client().get("/api/tournaments/solo/").status_code == 404


def test_regulations_are_frozen_once_a_tour_is_published(world):
    response = client(world.org).patch("/api/tournaments/cup/", {"regulations": {"target": 100}}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "The draw format, the seeding and the regulations cannot change after a "
                                         "tour has been published."}
    assert Tournament.objects.get(slug="cup").rules.target == 200


def test_edit_refuses_bad_values_and_unknown_tournaments(world):
    api = client(world.org)
    response = api.patch("/api/tournaments/solo/", {"status": "paused"}, format="json")
    assert response.status_code == 400 and "status" in response.json()["errors"]
    response = api.patch("/api/tournaments/solo/", {"regulations": {"colour": "red"}}, format="json")
    assert response.status_code == 400 and "unknown setting" in response.json()["detail"]
    assert api.patch("/api/tournaments/nothing/", {"name": "x"}, format="json").status_code == 404
    response = client(world.chief).patch("/api/tournaments/cup/", {"name": "x"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only an organiser of this tournament may do this."}
    assert Tournament.objects.get(slug="cup").name == "Кубок клуба"


# -- roles ---------------------------------------------------------------------------------------


def test_roles_are_listed_to_the_staff_only(world):
    expected = [{"username": "chief", "kind": "chief_referee"}, {"username": "org", "kind": "organiser"},
                {"username": "ref", "kind": "referee"}]
    for who in (world.org, world.chief, world.referee):
        response = client(who).get("/api/tournaments/cup/roles/")
        assert [{k: r[k] for k in ("username", "kind")} for r in listed(response)] == expected
    response = client(world.player).get("/api/tournaments/cup/roles/")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the staff of this tournament may see this."}
    assert client().get("/api/tournaments/cup/roles/").status_code == 401


def test_add_and_remove_a_role(world):
    api = client(world.org)
    response = api.post("/api/tournaments/cup/roles/", {"username": "newcomer", "kind": "referee"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "newcomer" and body["kind"] == "referee"
    assert Role.objects.filter(tournament=world.cup, user=world.newcomer, kind="referee").exists()
    assert api.delete(f"/api/tournaments/cup/roles/{body['id']}/").status_code == 204
    assert not Role.objects.filter(tournament=world.cup, user=world.newcomer).exists()


def test_removing_a_referee_frees_his_tables_of_unplayed_tours(world):
    table = world.tour2.tables.get(number=1)
    client(world.org).put("/api/tournaments/cup/tours/2/tables/1/referee/", {"referee": "ref"}, format="json")
    role = Role.objects.get(tournament=world.cup, user=world.referee)
    assert client(world.org).delete(f"/api/tournaments/cup/roles/{role.pk}/").status_code == 204
    assert Table.objects.get(pk=table.pk).referee is None
    assert world.tour1.tables.get(number=1).referee == world.referee  # a played tour keeps its record


def test_role_errors(world):
    api = client(world.org)
    response = api.post("/api/tournaments/cup/roles/", {"username": "nobody", "kind": "referee"}, format="json")
    assert response.status_code == 400 and response.json() == {"detail": "There is no user nobody."}
    response = api.post("/api/tournaments/cup/roles/", {"username": "newcomer", "kind": "king"}, format="json")
    assert response.status_code == 400 and "kind" in response.json()["errors"]
    only = Role.objects.get(tournament=world.cup, kind="organiser")
    response = api.delete(f"/api/tournaments/cup/roles/{only.pk}/")
    assert response.status_code == 400 and response.json() == {"detail": "A tournament keeps at least one organiser."}
    foreign = Role.objects.get(tournament=world.other)
    assert api.delete(f"/api/tournaments/cup/roles/{foreign.pk}/").status_code == 404
    assert Role.objects.filter(pk__in=[only.pk, foreign.pk]).count() == 2


# -- players -------------------------------------------------------------------------------------


SECRET_NAME = "Засекреченный-Неопубликованный О'Брайен-Семёнов"  # 60+ characters with his first name
SECRET_FIRST = "Фёдор-Пётр Ильич"


def test_players_are_seen_through_the_tournaments_one_may_see(world):
    public = {p.pk for p in Player.objects.filter(entries__tournament__slug__in=["cup", "solo"])}
    draft = services.register_pair(world.other_org, world.other, {"last_name": SECRET_NAME, "first_name": SECRET_FIRST},
                                   {"last_name": "Черновиков-Д'Артаньян"})
    hidden = {draft.first.pk, draft.second.pk, *Player.objects.filter(last_name__startswith="Чужой")
              .values_list("pk", flat=True)}
    assert len(SECRET_NAME + " " + SECRET_FIRST) >= 60
    # The public, a player and the staff of other tournaments: the players of cup and solo only.
    for who in (None, world.player, world.org, world.chief, world.newcomer):
        assert {p["id"] for p in listed(client(who).get("/api/players/", {"page_size": 1000}))} == public, who
        response = client(who).get(f"/api/players/{draft.first.pk}/")
        assert response.status_code == 404 and response.json() == {"detail": "There is no such player."}
        response = client(who).patch(f"/api/players/{draft.first.pk}/", {"club": "x"}, format="json")
        assert response.status_code in (401, 404)
    # The staff of the draft sees its players too.
    seen = {p["id"] for p in listed(client(world.other_org).get("/api/players/", {"page_size": 1000}))}
    assert seen == public | hidden
    body = client(world.other_org).get(f"/api/players/{draft.first.pk}/").json()
    assert (body["last_name"], body["first_name"]) == (SECRET_NAME, SECRET_FIRST)
    # A player of no visible tournament still sees himself (his own data to change).
    Player.objects.filter(pk=draft.first.pk).update(user=world.newcomer)
    assert client(world.newcomer).get(f"/api/players/{draft.first.pk}/").status_code == 200
    assert client(world.newcomer).get(f"/api/players/{draft.second.pk}/").status_code == 404
    assert client().get("/api/players/999999/").status_code == 404


def test_every_list_comes_in_pages(world, settings):
    settings.API_PAGE_SIZE, settings.API_MAX_PAGE_SIZE = 5, 7
    api = client(world.org)
    first = api.get("/api/players/").json()
    everyone = list(Player.objects.filter(entries__tournament__slug__in=["cup", "solo"])
                    .order_by("last_name", "first_name", "pk").values_list("pk", flat=True))
    assert first["count"] == len(everyone) == 12 and first["previous"] is None
    assert [p["id"] for p in first["results"]] == everyone[:5]
    second = api.get(first["next"]).json()
    assert [p["id"] for p in second["results"]] == everyone[5:10] and second["previous"]
    last = api.get("/api/players/", {"page": 3}).json()
    assert [p["id"] for p in last["results"]] == everyone[10:] and last["next"] is None
    # The client picks the size, up to the maximum.
    assert len(api.get("/api/players/", {"page_size": 2}).json()["results"]) == 2
    assert len(api.get("/api/players/", {"page_size": 100}).json()["results"]) == 7
    # A page that is not there is a 404 in the error form.
    for page in ("4", "0", "-1", "последняя"):
        response = api.get("/api/players/", {"page": page})
        assert response.status_code == 404 and set(response.json()) == {"detail"}, page
    # Every list endpoint answers the same form.
    for url in ("/api/tournaments/", "/api/tournaments/cup/roles/", "/api/tournaments/cup/pairs/",
                "/api/tournaments/solo/entries/", "/api/tournaments/cup/tours/",
                f"/api/partitions/{world.tour1.tables.first().partition.pk}/changes/"):
        body = api.get(url, {"page_size": 1}).json()
        assert set(body) == {"count", "next", "previous", "results"} and len(body["results"]) <= 1, url


def test_a_player_changes_his_own_data(world):
    me = Player.objects.get(user=world.player)
    response = client(world.player).patch(f"/api/players/{me.pk}/", {"club": "Дуплет", "city": " Тула "},
                                          format="json")
    assert response.status_code == 200
    assert response.json()["club"] == "Дуплет"
    me.refresh_from_db()
    assert (me.last_name, me.club, me.city) == ("Игрок1а", "Дуплет", "Тула")


def test_an_organiser_changes_data_of_his_players_only(world):
    someone = world.player_named("Игрок2а")
    assert client(world.org).patch(f"/api/players/{someone.pk}/", {"federation_id": "RU-7"},
                                   format="json").status_code == 200
    assert Player.objects.get(pk=someone.pk).federation_id == "RU-7"
    response = client(world.other_org).patch(f"/api/players/{someone.pk}/", {"club": "x"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the player himself, or the organiser of every tournament he has "
                                         "been entered in, may change his data."}


def test_player_data_errors(world):
    me = Player.objects.get(user=world.player)
    other = world.player_named("Игрок2а")
    client(world.org).patch(f"/api/players/{other.pk}/", {"federation_id": "RU-7"}, format="json")
    api = client(world.player)
    response = api.patch(f"/api/players/{me.pk}/", {"federation_id": "RU-7"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "federation_id: Another player has this federation id.",
                               "errors": {"federation_id": ["Another player has this federation id."]}}
    response = api.patch(f"/api/players/{me.pk}/", {"last_name": ""}, format="json")
    assert response.status_code == 400 and "last_name" in response.json()["errors"]
    response = api.patch(f"/api/players/{me.pk}/", {"last_name": "x" * 101}, format="json")
    assert response.status_code == 400 and "last_name" in response.json()["errors"]
    me.refresh_from_db()
    assert (me.last_name, me.federation_id) == ("Игрок1а", "")
