"""A player belongs to no tournament's organiser: registering someone else's player does not hand
his name or his PIN over, and a federation id with another name is refused."""

import pytest
from django.contrib.auth.hashers import check_password
from django.core.exceptions import PermissionDenied, ValidationError

from builders import user
from scoring import protocols
from tournaments import permissions, services
from tournaments.models import Entry, Player

from trustworld import PINS, api, takes_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def south_takes_pairs(world):
    takes_pairs(world.south)


def _take_over(world):
    """The south's organiser registers a pair with two of the north's players (their federation ids
    are public in /api/players/), names as the north has them."""
    victim, partner = world.north.without_account, world.north.with_account
    return services.register_pair(
        world.south.org, world.south.tournament,
        {"last_name": victim.last_name, "first_name": victim.first_name, "federation_id": victim.federation_id},
        {"last_name": partner.last_name, "first_name": partner.first_name, "federation_id": partner.federation_id})


def test_a_federation_id_with_another_name_is_refused_naming_the_conflict(world):
    victim = world.north.without_account
    with pytest.raises(ValidationError) as refused:
        services.register_pair(world.south.org, world.south.tournament,
                               {"last_name": "Подменный-Самозванец", "federation_id": victim.federation_id},
                               {"last_name": "Напарник"})
    message = " ".join(refused.value.messages)
    assert victim.federation_id in message and victim.last_name in message and "Подменный-Самозванец" in message
    assert not Entry.objects.filter(tournament=world.south.tournament, player=victim).exists()
    assert not Player.objects.filter(last_name="Напарник").exists()  # nothing half-written
    response = api(world.south.org).post(f"/api/tournaments/{world.south.slug}/pairs/", {
        "first": {"last_name": "Подменный-Самозванец", "federation_id": victim.federation_id},
        "second": {"last_name": "Напарник"}}, format="json")
    assert response.status_code == 400 and victim.federation_id in response.json()["detail"]


def test_the_same_name_written_otherwise_is_the_same_player(world):
    victim = world.north.without_account
    pair = services.register_pair(
        world.south.org, world.south.tournament,
        {"last_name": victim.last_name.upper().replace("Ё", "Е"),
         "first_name": victim.first_name.upper().replace("Ё", "Е"), "federation_id": victim.federation_id},
        {"last_name": "Напарник-Новичок"})
    assert pair.first == victim


def test_an_organiser_who_registered_someone_elses_player_may_not_rename_him_or_set_his_pin(world):
    _take_over(world)
    victim, with_account = world.north.without_account, world.north.with_account
    for organiser in (world.south.org, world.north.org):  # neither organiser owns him any more
        with pytest.raises(PermissionDenied):
            services.update_player(organiser, victim, {"last_name": "Переименованный"})
        with pytest.raises(PermissionDenied):
            protocols.set_pin(organiser, victim.pk, "0000")
        with pytest.raises(PermissionDenied):
            protocols.set_pin(organiser, with_account.pk, "0000")
        assert not permissions.can_edit_player(organiser, victim)
        assert not permissions.can_set_pin(organiser, victim)
    response = api(world.south.org).patch(f"/api/players/{victim.pk}/", {"last_name": "Переименованный"},
                                          format="json")
    assert response.status_code == 403
    victim.refresh_from_db()
    assert victim.last_name != "Переименованный" and check_password(PINS[2], victim.pin)


def test_the_player_himself_and_a_superuser_always_may(world):
    _take_over(world)
    player = world.north.with_account
    services.update_player(world.north.account, player, {"club": "Клуб «Ёлочка»"})
    protocols.set_pin(world.north.account, player.pk, "97531")
    admin = user("admin", superuser=True)
    services.update_player(admin, world.north.without_account, {"first_name": "Пётр-Алексей"})
    protocols.set_pin(admin, world.north.without_account.pk, "86420")
    assert Player.objects.get(pk=player.pk).club == "Клуб «Ёлочка»"


def test_an_organiser_may_correct_a_player_only_he_registered_but_not_the_pin_of_one_with_an_account(world):
    north = world.north
    services.update_player(north.org, north.without_account, {"last_name": "Исправленная-Опечатка-Д'Ёлкин"})
    protocols.set_pin(north.org, north.without_account.pk, "112233")
    services.update_player(north.org, north.with_account, {"club": "Дуплет"})  # his data, a typo: yes
    assert not permissions.can_set_pin(north.org, north.with_account)  # his PIN: only he
    with pytest.raises(PermissionDenied):
        protocols.set_pin(north.org, north.with_account.pk, "0000")
    assert check_password(PINS[1], Player.objects.get(pk=north.with_account.pk).pin)
    # The other side's organiser, his chief referee or referee: never.
    for who in (world.south.org, north.chief, north.ref, world.outsider):
        assert not permissions.can_edit_player(who, north.without_account)
        assert not permissions.can_set_pin(who, north.without_account)


def test_a_withdrawn_entry_still_counts(world):
    """A player once entered elsewhere stays out of reach, even after he was withdrawn there."""
    pair = _take_over(world)
    services.withdraw_pair(world.south.org, pair)
    assert not permissions.can_edit_player(world.north.org, world.north.without_account)


def test_the_pin_page_follows_the_same_rule(world, client):
    _take_over(world)
    client.force_login(world.south.org)
    response = client.get(f"/en/players/{world.north.without_account.pk}/pin/")
    assert response.status_code == 403
    response = client.post(f"/en/players/{world.north.without_account.pk}/pin/", {"pin": "0000", "pin_again": "0000"})
    assert response.status_code == 403
    assert check_password(PINS[2], Player.objects.get(pk=world.north.without_account.pk).pin)
