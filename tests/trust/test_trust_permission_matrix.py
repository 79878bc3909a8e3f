"""Nobody reaches what is not his: two tournaments with different staff (trustworld.py), and every
"who may" question of tournaments.permissions asked of the staff of one tournament about the
other, through the services and through the API or the pages.

Each action is tried by the north's organiser, chief referee, referee and player (his own
account), by an outsider (a login with no role) and by a visitor (no login), against the south:
each is refused, and nothing changes. Then the south's own person who may take the action does
(a refusal that could never succeed would prove nothing). Both directions are tried.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from scoring import protocols
from scoring.protocols import pinslips, signing
from scoring import engine
from scoring.models import (Confirmation, HandLook, LiveEvent, Partition, PartitionChange, ProtocolBatch,
                            ProtocolDocument, SigningKey)
from tournaments import permissions, services, tours
from tournaments.models import (Bye, Entry, Pair, PinChange, PinFailures, PinLink, Player, Role, SitOut, Table, Tour,
                                Tournament)

from trustworld import PINS, Side, World, api, takes_pairs
from scoring.recording import commands, queries, storage
from tournaments import imports

pytestmark = pytest.mark.django_db

BASE_URL = "http://testserver"
ACTORS = ["organiser", "chief referee", "referee", "player", "outsider", "visitor"]
DIRECTIONS = [("north", "south"), ("south", "north")]


def actor(world: World, side: Side, role: str):
    return {"organiser": side.org, "chief referee": side.chief, "referee": side.ref, "player": side.account,
            "outsider": world.outsider, "visitor": world.visitor}[role]


def _allowed(ok: bool) -> None:
    """A yes/no question of permissions.py as a refusal, like the services' own."""
    if not ok:
        raise PermissionDenied


def _pair(side: Side, number: int = 1) -> Pair:
    return Pair.objects.get(tournament=side.tournament, tour__isnull=True, number=number)


def _role(side: Side) -> Role:
    return Role.objects.get(tournament=side.tournament, user=side.chief)


def _seating(side: Side) -> list[tuple[int, int]]:
    return [(_pair(side, 1).pk, _pair(side, 4).pk), (_pair(side, 2).pk, _pair(side, 3).pk)]


def _draft_tournament(side: Side) -> Tournament:
    draft = Tournament.objects.filter(slug=f"{side.slug}-draft").first()
    return draft or services.create_tournament(
        side.org, name="Черновик кубка Д'Артаньяна-Ёлкина", slug=f"{side.slug}-draft",
        starts_on=datetime.date(2026, 12, 1), ends_on=datetime.date(2026, 12, 2))


def _draft_player(side: Side) -> Player:
    """A player entered in the side's draft tournament only."""
    draft = _draft_tournament(side)
    entry = Entry.objects.filter(tournament=draft).select_related("player").first()
    if entry is None:
        pair = services.register_pair(side.org, draft, {"last_name": "Черновиков-Д'Артаньян"},
                                      {"last_name": "Ёлкин-Незаявленный"})
        return pair.first
    return entry.player


def _with_a_warning(side: Side) -> int:
    """Tour 1, table 2: the lead drawn and a warning written by the side's referee; its id."""
    partition = side.table2.partition.pk
    commands.record(side.ref, partition, "lead", {"seat": 1})
    commands.record(side.ref, partition, "violation", {"seat": 2, "code": "move_time"})
    return storage.engine_partition(Partition.objects.get(pk=partition)).violations[0].id


def _p1(side: Side) -> int:
    return side.table1.partition.pk


def _p2(side: Side) -> int:
    return side.table2.partition.pk


def _protocol(side: Side) -> dict:
    """A whole partition in the domino-protocol/1 format: table 1's, as exported."""
    return queries.export_protocol(Partition.objects.get(pk=_p1(side)))


CSV = "last_name_1,last_name_2\nНовиков-Прибой-Салтыков-Щедрин,Лёвкин-О'Коннор-Мамин-Сибиряк\n"
DEAL = {"end": "domino", "seat": 1, "pips": {"A": 25, "B": 40}}


@dataclass(frozen=True)
class Action:
    """``service(user, side)`` raises PermissionDenied when ``user`` may not; ``owner`` names who
    of ``side`` may (None: the action's success is not tried here, e.g. it starts Celery tasks);
    ``api(client, side)`` and ``page(client, side)`` are its doors, when it has them."""

    service: Callable
    owner: str | None
    api: Callable | None = None
    page: Callable | None = None
    setup: Callable | None = None  # (side) -> None, before anyone tries
    rules_may_refuse: bool = False  # the owner may meet a ValidationError of the rules, not a refusal


ACTIONS: dict[str, Action] = {
    # -- can_manage: the organiser's services
    "change the tournament": Action(
        lambda u, s: services.update_tournament(u, s.tournament, venue="Клуб «Ёлочка», Д'Артаньяна 1"), "org",
        api=lambda c, s: c.patch(f"/api/tournaments/{s.slug}/", {"venue": "Другой клуб"}, format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/edit/")),
    "open the organiser's overview": Action(
        lambda u, s: permissions.require_manage(u, s.tournament), "org",
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/")),
    "give a role": Action(
        lambda u, s: services.add_role(u, s.tournament, "outsider", "referee"), "org",
        api=lambda c, s: c.post(f"/api/tournaments/{s.slug}/roles/", {"username": "outsider", "kind": "referee"},
                                format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/staff/")),
    "make a staff login": Action(
        lambda u, s: services.add_new_staff(u, s.tournament, username=f"new-{s.slug}", first_name="Анна",
                                            last_name="Ильина", kind="referee"), "org",
        page=lambda c, s: c.post(f"/en/tournaments/{s.slug}/manage/staff/new/", {
            "username": f"page-{s.slug}", "first_name": "Анна", "last_name": "Ильина", "kind": "referee"})),
    "give a staff login a new password link": Action(
        lambda u, s: services.new_staff_link(u, s.tournament, s.ref), "org",
        page=lambda c, s: c.post(f"/en/tournaments/{s.slug}/manage/staff/{s.ref.pk}/link/")),
    "take a role away": Action(
        lambda u, s: services.remove_role(u, _role(s)), "org",
        api=lambda c, s: c.delete(f"/api/tournaments/{s.slug}/roles/{_role(s).pk}/")),
    "register a pair": Action(
        lambda u, s: services.register_pair(u, s.tournament, {"last_name": "Новиков-Прибой-Гоголь-Яновский-Ёлкин"},
                                            {"last_name": "Д'Артаньян-О'Коннор-Римский-Корсаков-Фёдоров"}), "org",
        api=lambda c, s: c.post(f"/api/tournaments/{s.slug}/pairs/", {"first": {"last_name": "Новый-Ёлкин"},
                                                                      "second": {"last_name": "Д'Артаньян"}},
                                format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/entries/"), setup=takes_pairs),
    "withdraw a pair": Action(
        lambda u, s: services.withdraw_pair(u, _pair(s, 4)), "org",
        api=lambda c, s: c.post(f"/api/tournaments/{s.slug}/pairs/{_pair(s, 4).pk}/withdraw/")),
    "import pairs": Action(
        lambda u, s: imports.import_pairs_csv(u, s.tournament, CSV), "org",
        api=lambda c, s: c.post(f"/api/tournaments/{s.slug}/pairs/import/", CSV.encode(), content_type="text/csv"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/import/"), setup=takes_pairs),
    "draw the draft tour again": Action(
        lambda u, s: tours.generate_tour(u, s.tournament), "org",
        api=lambda c, s: c.post(f"/api/tournaments/{s.slug}/tours/generate/", {}, format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/tours/new/")),
    "seat the draft tour by hand": Action(
        lambda u, s: tours.set_tables(u, s.tour2, _seating(s)), "org",
        api=lambda c, s: c.put(f"/api/tournaments/{s.slug}/tours/2/tables/",
                               {"tables": [{"pair_a": a, "pair_b": b} for a, b in _seating(s)]}, format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/tours/2/seating/")),
    "publish the draft tour": Action(
        lambda u, s: tours.publish_tour(u, s.tour2), "org",
        api=lambda c, s: c.post(f"/api/tournaments/{s.slug}/tours/2/publish/")),
    "assign a table's referee": Action(
        lambda u, s: services.assign_referee(u, s.table2, s.chief), "org",
        api=lambda c, s: c.put(f"/api/tournaments/{s.slug}/tours/1/tables/2/referee/",
                               {"referee": s.chief.username}, format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/tours/1/referees/")),
    "load the signing key": Action(
        lambda u, s: signing.load_pkcs12(u, s.tournament, b"", ""), "org", rules_may_refuse=True,
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/signing/")),
    "print the PIN slips": Action(
        lambda u, s: pinslips.print_slips(u, s.tournament.pk, base_url=BASE_URL), "org", rules_may_refuse=True,
        page=lambda c, s: c.post(f"/en/tournaments/{s.slug}/manage/pins/", {"scope": "missing"})),
    "make the protocols of a whole tour": Action(
        lambda u, s: protocols.start_tour_batch(u, s.tour1.pk, base_url=BASE_URL), None,
        page=lambda c, s: c.post(f"/en/tournaments/{s.slug}/tours/1/protocols/")),
    # -- is_staff, can_see_tour, can_see_tournament
    "see the staff": Action(
        lambda u, s: permissions.require_staff(u, s.tournament), "ref",
        api=lambda c, s: c.get(f"/api/tournaments/{s.slug}/roles/")),
    "see a draft tour": Action(
        lambda u, s: _allowed(permissions.can_see_tour(u, s.tour2)
                              and s.tour2 in permissions.visible_tours(u, s.tournament)), "ref",
        api=lambda c, s: c.get(f"/api/tournaments/{s.slug}/tours/2/"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/2/")),
    "see a draft tournament": Action(
        lambda u, s: _allowed(permissions.can_see_tournament(u, _draft_tournament(s))
                              and permissions.visible_tournaments(u).filter(pk=_draft_tournament(s).pk).exists()),
        "org", setup=_draft_tournament,
        api=lambda c, s: c.get(f"/api/tournaments/{s.slug}-draft/"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}-draft/")),
    "see a player of a draft tournament": Action(
        lambda u, s: _allowed(permissions.visible_players(u).filter(pk=_draft_player(s).pk).exists()),
        "org", setup=_draft_player,
        api=lambda c, s: c.get(f"/api/players/{_draft_player(s).pk}/"),
        page=lambda c, s: c.get(f"/en/players/{_draft_player(s).pk}/")),
    "read the history of a partition": Action(
        lambda u, s: permissions.require_staff(u, s.tournament), "chief",
        api=lambda c, s: c.get(f"/api/partitions/{_p1(s)}/changes/"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/tables/1/sheet/history/")),
    "read the tour's protocols": Action(
        lambda u, s: permissions.require_staff(u, s.tournament), "ref",
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/protocols/")),
    # -- can_referee: the table's referee, a chief referee, an organiser
    "record at a table": Action(
        lambda u, s: commands.record(u, _p2(s), "lead", {"seat": 1}), "ref",
        api=lambda c, s: c.post(f"/api/partitions/{_p2(s)}/record/", {"action": "lead", "data": {"seat": 1}},
                                format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/tables/2/sheet/")),
    "import a protocol into an empty sheet": Action(
        lambda u, s: commands.import_protocol(u, _p2(s), _protocol(s)), "ref",
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/tables/2/sheet/import/")),
    "issue a table's signed protocol": Action(
        lambda u, s: protocols.issue_partition_protocol(u, _p1(s), base_url=BASE_URL), "ref"),
    "confirm as the table's referee": Action(
        lambda u, s: protocols.confirm(u, _p1(s), 0, base_url=BASE_URL), "ref"),
    "type a player's PIN": Action(
        lambda u, s: protocols.confirm(u, _p1(s), 2, pin=PINS[2], base_url=BASE_URL), "ref"),
    # -- can_referee_all: the chief referee and organisers
    "annul a warning": Action(
        lambda u, s: commands.record(u, _p2(s), "annul", {"violation": 1, "reason": "Ошибся судья Д'Артаньян"}),
        "chief", setup=_with_a_warning,
        api=lambda c, s: c.post(f"/api/partitions/{_p2(s)}/record/",
                                {"action": "annul", "data": {"violation": 1, "reason": "ошибка"}}, format="json")),
    "declare a forfeit": Action(
        lambda u, s: commands.record(u, _p2(s), "forfeit", {"pair": "B"}), "chief", rules_may_refuse=True,
        setup=_with_a_warning),
    "correct a deal": Action(
        lambda u, s: commands.correct_deal(u, _p1(s), 1, DEAL, reason="Пересчёт очков Ёлкина"), "chief",
        api=lambda c, s: c.post(f"/api/partitions/{_p1(s)}/correct-deal/",
                                {"number": 1, "deal": DEAL, "reason": "пересчёт"}, format="json"),
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/tables/1/sheet/deals/1/correct/")),
    "see the chief referee's view of a tour": Action(
        lambda u, s: permissions.require_referee_all(u, s.tournament), "chief",
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/manage/tours/1/chief/")),
    "issue the tour protocol": Action(
        lambda u, s: protocols.issue_tour_protocol(u, s.tour1.pk, base_url=BASE_URL), "chief"),
    "issue the final protocol": Action(
        lambda u, s: protocols.issue_final_protocol(u, s.tournament.pk, base_url=BASE_URL), "chief"),
    # -- the hands of a deal in play (every route: test_who_may_see_a_hand_over_every_route)
    "see the hands of a deal in play": Action(
        lambda u, s: _allowed(permissions.may_see_hands(u, s.table2)), "ref"),
    # -- a table's protocol: the staff and the table's players
    "read a table's protocol": Action(
        lambda u, s: permissions.require_read_partition_protocol(u, s.table1), "account",
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/tables/1/protocol/")),
    "confirm a player's seat from an account": Action(
        lambda u, s: protocols.confirm(u, _p1(s), 1, base_url=BASE_URL), "account",
        page=lambda c, s: c.get(f"/en/tournaments/{s.slug}/tours/1/tables/1/protocol/confirm/")),
    # -- players: can_edit_player, can_set_pin
    "change a player's data": Action(
        lambda u, s: services.update_player(u, s.without_account, {"club": "Клуб «Д'Артаньян»"}), "org",
        api=lambda c, s: c.patch(f"/api/players/{s.without_account.pk}/", {"club": "Чужой клуб"}, format="json")),
    "change the data of a player with an account": Action(
        lambda u, s: services.update_player(u, s.with_account, {"city": "Ёлкино"}), "account",
        api=lambda c, s: c.patch(f"/api/players/{s.with_account.pk}/", {"city": "Чужой город"}, format="json")),
    "set a player's PIN": Action(
        lambda u, s: protocols.set_pin(u, s.without_account.pk, "97531"), "org",
        page=lambda c, s: c.get(f"/en/players/{s.without_account.pk}/pin/")),
    "set the PIN of a player with an account": Action(
        lambda u, s: protocols.set_pin(u, s.with_account.pk, "97531"), "account",
        page=lambda c, s: c.get(f"/en/players/{s.with_account.pk}/pin/")),
}


def snapshot() -> dict[str, list[dict]]:
    """Every row an action could touch (logins without their last sign-in, documents without
    their bytes)."""
    rows = {m.__name__: list(m.objects.order_by("pk").values()) for m in (
        Tournament, Role, Player, Entry, Pair, Tour, Table, Bye, SitOut, Partition, PartitionChange, Confirmation,
        PinFailures, PinChange, PinLink, SigningKey, ProtocolBatch)}
    rows["User"] = list(get_user_model().objects.order_by("pk").values("pk", "username", "password", "is_staff"))
    rows["ProtocolDocument"] = list(ProtocolDocument.objects.order_by("pk").values("pk", "code", "version"))
    return rows


def _owner(side: Side, who: str):
    return {"org": side.org, "chief": side.chief, "ref": side.ref, "account": side.account}[who]


def _page_client(who) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if who.is_authenticated:
        client.force_login(who)
    return client


@pytest.mark.parametrize(("attacker", "victim"), DIRECTIONS)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_the_staff_of_one_tournament_cannot_act_on_the_other(world, name, attacker, victim):
    action = ACTIONS[name]
    home, target = world.side(attacker), world.side(victim)
    if action.setup is not None:
        action.setup(target)
    before = snapshot()
    for role in ACTORS:
        who = actor(world, home, role)
        with pytest.raises(PermissionDenied):
            action.service(who, target)
        assert snapshot() == before, (role, "service")
        if action.api is not None:
            response = action.api(api(who), target)
            # A visitor is asked to sign in for a write, and sees no draft.
            expected = {401, 404} if not who.is_authenticated else {403, 404}
            assert response.status_code in expected, (role, response.status_code, response.content)
            assert response["Content-Type"] == "application/json"
            assert set(response.json()) == {"detail"}
            assert snapshot() == before, (role, "api")
        if action.page is not None:
            response = action.page(_page_client(who), target)
            if who.is_authenticated:
                assert response.status_code in (403, 404), (role, response.status_code)
            else:
                assert response.status_code in (302, 404), (role, response.status_code)
                if response.status_code == 302:
                    assert response["Location"].startswith("/en/accounts/login/"), role
            assert snapshot() == before, (role, "page")
    if action.owner is not None:
        owner = _owner(target, action.owner)
        try:
            action.service(owner, target)
        except ValidationError:
            assert action.rules_may_refuse, name  # the rules, not the permission, said no
        if action.page is not None:
            assert action.page(_page_client(owner), target).status_code in (200, 302), name


@pytest.mark.parametrize("role", ACTORS)
def test_only_a_superuser_appoints_organisers(world, role):
    """Site-wide, not of a tournament: even an organiser may not give the right to create them."""
    who, outsider = actor(world, world.north, role), world.outsider
    before = snapshot()
    for appoint in (lambda: services.appoint_organiser(who, outsider.username),
                    lambda: services.add_new_organiser(who, username="new-org", first_name="Анна", last_name="Ильина"),
                    lambda: services.dismiss_organiser(who, world.south.org),
                    lambda: services.new_organiser_link(who, world.south.org)):
        with pytest.raises(PermissionDenied):
            appoint()
    client = _page_client(who)
    for response in (client.get("/en/manage/organisers/"),
                     client.post("/en/manage/organisers/", {"username": outsider.username}),
                     client.post("/en/manage/organisers/new/", {"username": "new-org", "first_name": "Анна",
                                                                "last_name": "Ильина"}),
                     client.post(f"/en/manage/organisers/{world.south.org.pk}/dismiss/"),
                     client.post(f"/en/manage/organisers/{world.south.org.pk}/link/")):
        assert response.status_code == (403 if who.is_authenticated else 302), (role, response.status_code)
    assert snapshot() == before
    assert not permissions.can_create_tournament(type(outsider).objects.get(pk=outsider.pk))
    assert permissions.can_create_tournament(type(outsider).objects.get(pk=world.south.org.pk))


def test_the_action_list_asks_every_question_of_permissions_py():
    """A new "who may" function in permissions.py needs its row here."""
    asked = {
        "roles", "can_create_tournament", "can_manage", "can_referee_all", "can_be_referee", "referees",
        "can_referee", "is_staff", "can_see_tour", "can_see_tournament", "visible_tournaments", "staffed_tournaments",
        "visible_tours", "require_manage", "require_staff", "require_create", "refereeing_all", "refereed_tables",
        "is_own_player", "can_edit_player", "can_set_pin", "require_edit_player", "require_set_pin",
        "can_read_partition_protocol", "require_read_partition_protocol", "can_confirm", "visible_players",
        "require_referee_all", "may_see_hands", "can_appoint_organisers", "require_appoint_organisers",
        "login_of"}
    defined = {name for name, value in vars(permissions).items()
               if callable(value) and getattr(value, "__module__", "") == permissions.__name__
               and not name.startswith("_")}
    assert defined == asked


@pytest.mark.parametrize(("attacker", "victim"), DIRECTIONS)
def test_the_lists_of_one_tournament_show_nothing_of_the_other(world, attacker, victim):
    home, target = world.side(attacker), world.side(victim)
    target_tables = Table.objects.filter(tour__tournament=target.tournament)
    for role in ACTORS:
        who = actor(world, home, role)
        assert not permissions.refereed_tables(who).filter(pk__in=target_tables).exists(), role
        assert not permissions.refereeing_all(who).filter(pk=target.tournament.pk).exists(), role
        assert not permissions.staffed_tournaments(who).filter(pk=target.tournament.pk).exists(), role
        assert target.tour2 not in permissions.visible_tours(who, target.tournament), role
        assert not permissions.is_staff(who, target.tournament), role
        assert not permissions.can_be_referee(who, target.tournament), role
        assert not permissions.can_confirm(who, target.table1, 0, with_pin=False), role
        assert not permissions.is_own_player(who, target.with_account), role
        if who.is_authenticated:
            page = _page_client(who).get("/en/referee/").content.decode()
            assert target.tournament.name not in page, role
            page = _page_client(who).get("/en/manage/").content.decode()
            assert target.tournament.name not in page, role
    # An organiser cannot make the other tournament's referee his own, nor see him as one.
    with pytest.raises(ValidationError, match="not a referee of this tournament"):
        services.assign_referee(target.org, target.table2, home.ref)
    assert home.ref not in permissions.referees(target.tournament)
    # The other tournament's players are not his to read.
    assert not permissions.can_read_partition_protocol(home.account, target.table1)
    assert permissions.can_read_partition_protocol(target.account, target.table1)


def test_creating_a_tournament_needs_the_federations_right(world):
    for who in (world.north.chief, world.north.ref, world.north.account, world.outsider, world.visitor):
        assert not permissions.can_create_tournament(who)
        with pytest.raises(PermissionDenied):
            permissions.require_create(who)
    assert permissions.can_create_tournament(world.north.org)


# -- who may see a hand ----------------------------------------------------------------------------

TILES = [str(t) for t in engine.TILES]
IN_PLAY = {"1": TILES[0:7], "2": TILES[7:14], "3": TILES[14:21], "4": TILES[21:28]}
TILE = re.compile(r"\b[0-6]-[0-6]\b")


def _deal_in_play(side: Side) -> int:
    """Table 2 of ``side``, its protocol typed in by its referee up to a deal in play (a finished
    deal in summary form, then the hands of the next): version 1, and version 2 a warning."""
    pk = side.table2.partition.pk
    commands.import_protocol(side.ref, pk, {
        "format": "domino-protocol/1", "first_leader": 1,
        "deals": [{"end": "domino", "seat": 1, "pips": {"A": 10, "B": 20}}, {"hands": IN_PLAY, "moves": []}]})
    commands.record(side.ref, pk, "violation", {"seat": 2, "code": "conduct"})
    return pk


def _routes(side: Side, pk: int) -> dict[str, Callable]:
    """Every door to a table's state, old versions included: (api client, page client) -> answer."""
    sheet = f"/en/tournaments/{side.slug}/tours/1/tables/2/sheet/"
    return {
        "export": lambda c, p: c.get(f"/api/partitions/{pk}/export/"),
        "export of version 1": lambda c, p: c.get(f"/api/partitions/{pk}/export/?version=1"),
        "the table, version 1": lambda c, p: c.get(f"/api/partitions/{pk}/?version=1"),
        "changes": lambda c, p: c.get(f"/api/partitions/{pk}/changes/"),
        "protocol.json of version 1": lambda c, p: p.get(sheet + "protocol.json?version=1"),
        "the sheet": lambda c, p: p.get(sheet),
        "version 1's page": lambda c, p: p.get(sheet + "history/1/"),
        "the protocol's page": lambda c, p: p.get(f"/en/tournaments/{side.slug}/tours/1/tables/2/protocol/"),
    }


def _shows_a_hand(response) -> bool:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return set(TILE.findall(body.decode())) >= set(IN_PLAY["1"])


@pytest.mark.parametrize(("attacker", "victim"), DIRECTIONS)
def test_who_may_see_a_hand_over_every_route(world, attacker, victim):
    """During a deal only the table's referee (who typed the hands in) and the chief referee see
    them, wherever they look; the other tournament's staff, the organiser, the players' accounts,
    an outsider and a visitor get a refusal or the table as its last finished deal left it."""
    home, target = world.side(attacker), world.side(victim)
    pk = _deal_in_play(target)
    routes = _routes(target, pk)
    others = [actor(world, home, role) for role in ACTORS] + [target.org, target.account]
    for who in others:
        for name, route in routes.items():
            response = route(api(who), _page_client(who))
            assert not (response.status_code == 200 and _shows_a_hand(response)), (who, name)
    assert not HandLook.objects.exists()
    # The stream sends every event as stored (the replay reads them back): what the public sees.
    streamed = json.dumps(list(LiveEvent.objects.filter(partition_id=pk).values_list("data", flat=True)))
    assert not TILE.search(streamed)
    for who in (target.ref, target.chief):
        for name in ("export", "export of version 1", "protocol.json of version 1"):
            response = routes[name](api(who), _page_client(who))
            assert response.status_code == 200 and _shows_a_hand(response), (who, name)
        assert HandLook.objects.filter(partition_id=pk, user=who, deal=2).exists()


def test_what_records_who_acts_refuses_nobody_signed_in(db):
    """``login_of``: the login a service records as who acted; nobody signed in is refused."""
    user = get_user_model().objects.create_user("someone")
    assert permissions.login_of(user) is user
    with pytest.raises(PermissionDenied):
        permissions.login_of(AnonymousUser())

