"""Confirming a partition's protocol at the table: PINs on the referee's device, own accounts, the
referee, versions, no-shows, and the PIN itself."""

import pytest
from django.contrib.auth.hashers import check_password
from django.core.exceptions import PermissionDenied, ValidationError

from scoring import protocols
from scoring.models import Confirmation, ProtocolDocument
from tournaments.models import PinFailures, Player

from builders import user
from protocols_world import BASE_URL, PINS, confirm_all, play_short
from scoring.recording import commands

pytestmark = pytest.mark.django_db


def test_only_a_finished_partition_is_confirmed(world):
    commands.record(world["ref"], world["p1"].pk, "lead", {"seat": 1})
    with pytest.raises(ValidationError, match="not finished"):
        protocols.confirm(world["ref"], world["p1"].pk, 1, pin=PINS[1])


def test_a_wrong_pin_is_refused_and_repeated_wrong_pins_lock_the_player(world, settings):
    p = play_short(world["ref"], world["p1"].pk)
    with pytest.raises(ValidationError, match=r"Wrong PIN .*4 attempts left"):
        protocols.confirm(world["ref"], p.pk, 1, pin="9999")
    for _ in range(settings.PIN_FAILURE_LIMIT - 1):
        with pytest.raises(ValidationError, match="Wrong PIN"):
            protocols.confirm(world["ref"], p.pk, 1, pin="9999")
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        protocols.confirm(world["ref"], p.pk, 1, pin=PINS[1])  # even the right one, for a while
    assert not Confirmation.objects.filter(partition=p).exists()
    protocols.confirm(world["ref"], p.pk, 2, pin=PINS[2])  # the others are not locked
    PinFailures.objects.update(locked_until="2000-01-01T00:00:00Z")  # the lock expires
    assert protocols.confirm(world["ref"], p.pk, 1, pin=PINS[1]).method == "pin"


def test_pins_are_typed_on_the_referees_device_and_accounts_confirm_their_own_seat(world):
    p = play_short(world["ref"], world["p1"].pk)
    with pytest.raises(PermissionDenied, match="device of the table's referee"):
        protocols.confirm(world["other"], p.pk, 1, pin=PINS[1])  # another table's referee
    player = world["table"].seat2
    account = user("player2")
    player.user = account
    player.save()
    with pytest.raises(PermissionDenied, match="Only"):
        protocols.confirm(world["ref"], p.pk, 2)  # the referee cannot confirm for him without his PIN
    with pytest.raises(PermissionDenied):
        protocols.confirm(account, p.pk, 1)  # nor he for his neighbour
    confirmation = protocols.confirm(account, p.pk, 2)
    assert (confirmation.method, confirmation.player, confirmation.user, confirmation.version) == (
        "account", player, account, p.version)
    assert protocols.confirm(account, p.pk, 2).pk == confirmation.pk  # twice is harmless
    with pytest.raises(PermissionDenied):
        protocols.confirm(world["other"], p.pk, 0)  # only this table's referee (or a chief) signs as referee
    assert protocols.confirm(world["chief"], p.pk, 0).user == world["chief"]


def test_a_player_without_a_pin_is_told_how_to_get_one(world):
    p = play_short(world["ref"], world["p1"].pk)
    Player.objects.filter(pk=world["table"].seat3_id).update(pin="")
    with pytest.raises(ValidationError, match="has no PIN"):
        protocols.confirm(world["ref"], p.pk, 3, pin="1234")


def test_a_stale_version_is_refused_and_the_fifth_confirmation_issues_the_pdf(world):
    p = play_short(world["ref"], world["p1"].pk)
    with pytest.raises(ValidationError, match="changed since you read it"):
        protocols.confirm(world["ref"], p.pk, 1, pin=PINS[1], version=p.version - 1)
    for seat in (1, 2, 3, 4):
        protocols.confirm(world["ref"], p.pk, seat, pin=PINS[seat], version=p.version, base_url=BASE_URL)
    assert not ProtocolDocument.objects.exists()
    protocols.confirm(world["ref"], p.pk, 0, version=p.version, base_url=BASE_URL)
    document = ProtocolDocument.objects.get()
    assert document.confirmed and document.created_by == world["ref"]
    assert {c["seat"] for c in document.summary["confirmations"]} == {0, 1, 2, 3, 4}
    assert protocols.confirmation_state(p)["complete"]


def test_a_correction_needs_new_confirmations(world):
    p = play_short(world["ref"], world["p1"].pk)
    confirm_all(world, p.pk)
    old_version = p.version
    p = commands.correct_deal(world["chief"], p.pk, 2, {"end": "fish", "pips": {"A": 10, "B": 110}}, reason="typo")
    state = protocols.confirmation_state(p)
    assert state["version"] == old_version + 1 and state["done"] == {} and not state["complete"]
    assert Confirmation.objects.filter(partition=p, version=old_version).count() == 5  # the old ones stay
    confirm_all(world, p.pk)
    assert protocols.confirmation_state(p)["complete"]
    assert ProtocolDocument.objects.filter(partition=p, confirmed=True).count() == 2


def test_at_a_no_show_the_absent_pair_does_not_confirm(world):
    p = commands.record(world["ref"], world["p1"].pk, "no_show", {"absent": "B"})
    with pytest.raises(ValidationError, match="absent"):
        protocols.confirm(world["ref"], p.pk, 2, pin=PINS[2])
    protocols.confirm(world["ref"], p.pk, 1, pin=PINS[1])
    protocols.confirm(world["ref"], p.pk, 3, pin=PINS[3])
    protocols.confirm(world["ref"], p.pk, 0, base_url=BASE_URL)
    assert protocols.confirmation_state(p)["complete"]
    assert ProtocolDocument.objects.get(partition=p).confirmed


def test_setting_a_pin(world):
    player = world["table"].seat1
    account = user("player1")
    player.user = account
    player.save()
    protocols.set_pin(account, player.pk, "024680")  # the player himself
    assert check_password("024680", Player.objects.get(pk=player.pk).pin)
    protocols.set_pin(world["org"], player.pk, "1357")  # an organiser of his tournament
    with pytest.raises(PermissionDenied):
        protocols.set_pin(world["ref"], player.pk, "1234")
    with pytest.raises(PermissionDenied):
        protocols.set_pin(user("stranger"), player.pk, "1234")
    for bad in ("12", "123456789", "12a4", ""):
        with pytest.raises(ValidationError, match="4 to 8 digits"):
            protocols.set_pin(world["org"], player.pk, bad)
    assert check_password("1357", Player.objects.get(pk=player.pk).pin)
