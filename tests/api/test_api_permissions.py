"""The permission matrix: each role tries each action it may not take, through the service and
through the API, and nothing changes in the database; the tournament's organiser may take them all.

Roles: anonymous, a player (an account linked to a Player), a referee (at one table), the chief
referee, the organiser of another tournament and the organiser of this one (see apiworld.py).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from apiworld import World, client
from scoring.models import Partition
from tournaments import permissions, services
from tournaments import tours
from tournaments.models import Bye, Entry, Pair, Player, Role, SitOut, Table, Tour, Tournament
from tournaments import imports

pytestmark = pytest.mark.django_db

CSV = "last_name_1,last_name_2\nНовый1,Новый2\n"
NEW = {"name": "Новый турнир", "slug": "new", "starts_on": "2026-12-01", "ends_on": "2026-12-02"}


def _seating(w: World) -> list[tuple[int, int]]:
    p = {n: w.pair(n).pk for n in range(1, 5)}
    return [(p[1], p[4]), (p[2], p[3])]


def _referee_role(w: World) -> Role:
    return Role.objects.get(tournament=w.cup, user=w.referee)


@dataclass(frozen=True)
class Action:
    service: Callable  # (user, world) -> anything; raises PermissionDenied when forbidden
    api: Callable  # (client, world) -> response
    in_draft_tour: bool = False  # the API address is inside the draft tour: 404 to whoever cannot see it


ACTIONS: dict[str, Action] = {
    "create tournament": Action(
        lambda u, w: services.create_tournament(u, **{**NEW, "starts_on": datetime.date(2026, 12, 1),
                                                      "ends_on": datetime.date(2026, 12, 2)}),
        lambda c, w: c.post("/api/tournaments/", NEW, format="json")),
    "edit tournament": Action(
        lambda u, w: services.update_tournament(u, w.cup, name="Переименован"),
        lambda c, w: c.patch("/api/tournaments/cup/", {"name": "Переименован"}, format="json")),
    "edit regulations": Action(
        lambda u, w: services.update_tournament(u, w.solo, regulations={"target": 150}),
        lambda c, w: c.patch("/api/tournaments/solo/", {"regulations": {"target": 150}}, format="json")),
    "add role": Action(
        lambda u, w: services.add_role(u, w.cup, "newcomer", "referee"),
        lambda c, w: c.post("/api/tournaments/cup/roles/", {"username": "newcomer", "kind": "referee"},
                            format="json")),
    "remove role": Action(
        lambda u, w: services.remove_role(u, _referee_role(w)),
        lambda c, w: c.delete(f"/api/tournaments/cup/roles/{_referee_role(w).pk}/")),
    "register pair": Action(
        lambda u, w: services.register_pair(u, w.cup, {"last_name": "Новый1"}, {"last_name": "Новый2"}),
        lambda c, w: c.post("/api/tournaments/cup/pairs/", {"first": {"last_name": "Новый1"},
                                                            "second": {"last_name": "Новый2"}}, format="json")),
    "withdraw pair": Action(
        lambda u, w: services.withdraw_pair(u, w.pair(4)),
        lambda c, w: c.post(f"/api/tournaments/cup/pairs/{w.pair(4).pk}/withdraw/")),
    "import pairs": Action(
        lambda u, w: imports.import_pairs_csv(u, w.cup, CSV),
        lambda c, w: c.post("/api/tournaments/cup/pairs/import/", CSV, content_type="text/csv")),
    "register player": Action(
        lambda u, w: services.register_player(u, w.solo, {"last_name": "Новый"}),
        lambda c, w: c.post("/api/tournaments/solo/entries/", {"last_name": "Новый"}, format="json")),
    "withdraw player": Action(
        lambda u, w: services.withdraw_entry(u, w.solo_entry()),
        lambda c, w: c.post(f"/api/tournaments/solo/entries/{w.solo_entry().pk}/withdraw/")),
    "generate tour": Action(
        lambda u, w: tours.generate_tour(u, w.cup),
        lambda c, w: c.post("/api/tournaments/cup/tours/generate/", {}, format="json")),
    "set tables": Action(
        lambda u, w: tours.set_tables(u, w.tour2, _seating(w)),
        lambda c, w: c.put("/api/tournaments/cup/tours/2/tables/",
                           {"tables": [{"pair_a": a, "pair_b": b} for a, b in _seating(w)]}, format="json"),
        in_draft_tour=True),
    "publish tour": Action(
        lambda u, w: tours.publish_tour(u, w.tour2),
        lambda c, w: c.post("/api/tournaments/cup/tours/2/publish/"),
        in_draft_tour=True),
    "assign referee": Action(
        lambda u, w: services.assign_referee(u, w.tour2.tables.get(number=1), w.chief),
        lambda c, w: c.put("/api/tournaments/cup/tours/2/tables/1/referee/", {"referee": "chief"}, format="json"),
        in_draft_tour=True),
    "update another player's data": Action(
        lambda u, w: services.update_player(u, w.player_named("Игрок2а"), {"club": "Чужой клуб"}),
        lambda c, w: c.patch(f"/api/players/{w.player_named('Игрок2а').pk}/", {"club": "Чужой клуб"},
                             format="json")),
}
SEE_DRAFT = "see a draft tour"
EVERYTHING = [*ACTIONS, SEE_DRAFT]

ROLES: dict[str, Callable[[World], object]] = {
    "anonymous": lambda w: AnonymousUser(),
    "player": lambda w: w.player,
    "referee": lambda w: w.referee,
    "chief referee": lambda w: w.chief,
    "organiser of another tournament": lambda w: w.other_org,
    "organiser": lambda w: w.org,
}
FORBIDDEN: dict[str, list[str]] = {
    "anonymous": EVERYTHING,
    "player": EVERYTHING,
    # Staff see draft tours, and take no organiser action.
    "referee": [*ACTIONS],
    "chief referee": [*ACTIONS],
    # He has the federation's right to create tournaments, and nothing in this one.
    "organiser of another tournament": [a for a in EVERYTHING if a != "create tournament"],
    "organiser": [],
}
STAFF = {"referee", "chief referee", "organiser"}


def snapshot() -> dict[str, list[dict]]:
    """Every row the actions could touch."""
    models = [get_user_model(), Tournament, Role, Player, Entry, Pair, Tour, Table, Bye, SitOut, Partition]
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def api_client(role: str, w: World):
    return client(None if role == "anonymous" else ROLES[role](w))


def expected_status(role: str, action: str) -> int:
    if action == SEE_DRAFT:
        return 404
    if role == "anonymous":
        return 401  # no credentials: the API says so before any lookup
    if ACTIONS[action].in_draft_tour and role not in STAFF:
        return 404  # the draft tour is invisible to him
    return 403


@pytest.mark.parametrize(("role", "action"), [(r, a) for r, actions in FORBIDDEN.items() for a in actions])
def test_a_forbidden_action_is_refused_by_the_service_and_the_api_and_changes_nothing(world, role, action):
    before = snapshot()
    who = ROLES[role](world)
    if action == SEE_DRAFT:
        assert not permissions.can_see_tour(who, world.tour2)
        assert world.tour2 not in permissions.visible_tours(who, world.cup)
        response = api_client(role, world).get("/api/tournaments/cup/tours/2/")
    else:
        with pytest.raises(PermissionDenied):
            ACTIONS[action].service(who, world)
        assert snapshot() == before
        response = ACTIONS[action].api(api_client(role, world), world)
    assert response.status_code == expected_status(role, action), response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"detail"} and body["detail"]
    assert snapshot() == before


def test_the_matrix_covers_every_role_and_action():
    assert set(FORBIDDEN) == set(ROLES)
    assert FORBIDDEN["organiser"] == []
    assert all(set(actions) <= set(EVERYTHING) for actions in FORBIDDEN.values())


@pytest.mark.parametrize("action", list(ACTIONS))
def test_the_organiser_may_take_every_action_through_the_service(world, action):
    before = snapshot()
    ACTIONS[action].service(world.org, world)
    assert snapshot() != before


@pytest.mark.parametrize("action", EVERYTHING)
def test_the_organiser_may_take_every_action_through_the_api(world, action):
    before = snapshot()
    api = client(world.org)
    if action == SEE_DRAFT:
        assert permissions.can_see_tour(world.org, world.tour2)
        response = api.get("/api/tournaments/cup/tours/2/")
        assert response.status_code == 200 and response.json()["status"] == "draft"
        return
    response = ACTIONS[action].api(api, world)
    assert response.status_code in (200, 201, 204), response.content
    assert snapshot() != before
