"""Two tournaments with different staff, built through the real services: the trust tests check
that nobody reaches what is not his.

Each side (``north``, ``south``) is a round robin of four pairs with its organiser (the
federation's right to create tournaments, no superuser), chief referee and referee. Tour 1 is
published with the referee at both tables: table 1 is played to the end, table 2 not begun;
tour 2 is drawn as a draft. At table 1, seat 1 is a player with his own account and seat 2 a
player without one; every player of table 1 has a PIN. Names are as people write them: long,
with hyphens, apostrophes and ``ё``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, Permission
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from builders import user
from scoring import protocols
from scoring.models import Partition
from scoring.recording import commands
from tournaments import services, tours
from tournaments.models import Player, Table, Tour, Tournament

PINS = {1: "1357", 2: "2468", 3: "3579", 4: "4680"}
SURNAMES = ["Салтыков-Щедрин", "Д'Артаньян-Ёлкин", "Римский-Корсаков", "Мамин-Сибиряк", "Соколов-Микитов",
            "Новиков-Прибой", "Гоголь-Яновский", "Лёвкин-О'Коннор"]


def long_name(n: int, side: str) -> str:
    """A surname of 60+ characters, unique per side and number."""
    name = (f"{SURNAMES[n % len(SURNAMES)]}-{SURNAMES[(n + 3) % len(SURNAMES)]}-{SURNAMES[(n + 5) % len(SURNAMES)]}"
            f"-Ёжиков-Фёдоров-{side.capitalize()}-{n}")
    assert len(name) >= 60 and len(name) <= 100
    return name


def organiser(username: str):
    someone = user(username)
    someone.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return type(someone).objects.get(pk=someone.pk)  # the permission cache starts empty


def play_to_the_end(referee, partition_id: int) -> Partition:
    """Two deals with a warning and a penalty on the way: pair A reaches 200."""
    commands.record(referee, partition_id, "lead", {"seat": 1})
    commands.record(referee, partition_id, "violation", {"seat": 2, "code": "move_time"})
    commands.record(referee, partition_id, "deal", {"end": "domino", "seat": 1, "pips": {"A": 20, "B": 40}})
    commands.record(referee, partition_id, "penalty", {"seat": 4, "code": "signs"})
    return commands.record(referee, partition_id, "deal", {"end": "fish", "pips": {"A": 10, "B": 105}})


@dataclass
class Side:
    name: str
    org: object
    chief: object
    ref: object
    account: object  # the user of the player at seat 1 of table 1
    tournament: Tournament
    tour1: Tour
    tour2: Tour  # a draft
    table1: Table  # finished
    table2: Table  # not begun

    @property
    def with_account(self) -> Player:
        return self.table1.seat1

    @property
    def without_account(self) -> Player:
        return self.table1.seat2

    @property
    def slug(self) -> str:
        return self.tournament.slug


@dataclass
class World:
    north: Side
    south: Side
    outsider: object  # a login with no role and no player
    visitor: object  # anonymous

    def side(self, name: str) -> Side:
        return getattr(self, name)


def build_side(name: str) -> Side:
    org = organiser(f"{name}-org")
    chief, ref, account = user(f"{name}-chief"), user(f"{name}-ref"), user(f"{name}-player")
    tournament = services.create_tournament(
        org, name=f"Кубок «{name}» Д'Ёлкина", slug=name, format=Tournament.Format.ROUND_ROBIN,
        starts_on=datetime.date(2026, 11, 21), ends_on=datetime.date(2026, 11, 22), regulations={"target": 200})
    services.add_role(org, tournament, chief.username, "chief_referee")
    services.add_role(org, tournament, ref.username, "referee")
    for n in range(1, 5):
        services.register_pair(
            org, tournament,
            {"last_name": long_name(2 * n, name), "first_name": "Фёдор", "federation_id": f"{name}-{2 * n}"},
            {"last_name": long_name(2 * n + 1, name), "first_name": "Пётр", "federation_id": f"{name}-{2 * n + 1}"})
    tour1 = tours.generate_tour(org, tournament)
    table1, table2 = tour1.tables.order_by("number")
    services.assign_referee(org, table1, ref)
    services.assign_referee(org, table2, ref)
    tours.publish_tour(org, tour1)
    assert play_to_the_end(ref, table1.partition.pk).is_finished
    for seat, player in enumerate(table1.seats, 1):
        protocols.set_pin(org, player.pk, PINS[seat])
    Player.objects.filter(pk=table1.seat1_id).update(user=account)
    tour2 = tours.generate_tour(org, tournament)
    tournament.refresh_from_db()
    table1 = Table.objects.select_related("tour__tournament", "seat1", "seat2", "seat3", "seat4").get(pk=table1.pk)
    table2 = Table.objects.select_related("tour__tournament").get(pk=table2.pk)
    return Side(name, org, chief, ref, account, tournament, tour1, tour2, table1, table2)


def takes_pairs(side: Side) -> None:
    """The side's tournament made a Swiss one, which takes pairs while it runs: the world's round
    robin takes none once its tour 1 is published (its schedule is fixed then)."""
    Tournament.objects.filter(pk=side.tournament.pk).update(format=Tournament.Format.SWISS)
    side.tournament.refresh_from_db()


def build_world() -> World:
    return World(build_side("north"), build_side("south"), user("outsider"), AnonymousUser())


def api(who=None) -> APIClient:
    """An API client asking for English, with ``who``'s token (anonymous for None or a visitor)."""
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if who is not None and who.is_authenticated:
        token, _created = Token.objects.get_or_create(user=who)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
