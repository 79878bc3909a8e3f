"""A tournament world for the API tests, built through the real services, and API clients."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import Permission
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from builders import finish_tour, tournament, user
from tournaments import services
from tournaments import tours
from tournaments.models import Entry, Pair, Player, Tour, Tournament


def client(who=None) -> APIClient:
    """An API client asking for English, logged in with ``who``'s token (anonymous for None)."""
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if who is not None:
        token, _ = Token.objects.get_or_create(user=who)
        api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


def listed(response) -> list:
    """The items of a list answer (one page: every list of the API is paginated)."""
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}, body
    return body["results"]


def organiser(username: str):
    """A user with the federation's right to create tournaments (no superuser)."""
    someone = user(username)
    someone.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return type(someone).objects.get(pk=someone.pk)  # the permission cache starts empty


@dataclass
class World:
    org: object  # organiser of cup and solo
    other_org: object  # organiser of another tournament
    chief: object  # chief referee of cup
    referee: object  # referee of cup, at table 1 of tour 1
    player: object  # the account of player Игрок1а
    newcomer: object  # a user with no role anywhere
    cup: Tournament  # Swiss, 4 pairs; tour 1 published and finished, tour 2 drawn as a draft
    solo: Tournament  # individual, open for registration, 4 players, no tour
    other: Tournament  # a draft
    tour1: Tour
    tour2: Tour

    def pair(self, number: int) -> Pair:
        return Pair.objects.get(tournament=self.cup, tour__isnull=True, number=number)

    def player_named(self, last_name: str) -> Player:
        return Player.objects.get(last_name=last_name)

    def solo_entry(self) -> Entry:
        return Entry.objects.filter(tournament=self.solo).order_by("player__last_name").first()


def build_world() -> World:
    org = organiser("org")
    other_org = organiser("other-org")
    chief, referee, account, newcomer = user("chief"), user("ref"), user("player"), user("newcomer")
    cup = tournament(org, pairs=4)
    services.add_role(org, cup, "chief", "chief_referee")
    services.add_role(org, cup, "ref", "referee")
    solo = tournament(org, slug="solo", format=Tournament.Format.INDIVIDUAL)
    for n in range(1, 5):
        services.register_player(org, solo, {"last_name": f"Одиночка{n}"})
    solo = services.update_tournament(org, solo, status=Tournament.Status.REGISTRATION)
    other = tournament(other_org, slug="other")
    services.register_pair(other_org, other, {"last_name": "Чужой1"}, {"last_name": "Чужой2"})
    Player.objects.filter(last_name="Игрок1а").update(user=account)
    tour1 = tours.generate_tour(org, cup)
    services.assign_referee(org, tour1.tables.get(number=1), referee)
    tours.publish_tour(org, tour1)
    finish_tour(tour1)
    tour2 = tours.generate_tour(org, cup)
    cup.refresh_from_db()
    return World(org, other_org, chief, referee, account, newcomer, cup, solo, other, tour1, tour2)
