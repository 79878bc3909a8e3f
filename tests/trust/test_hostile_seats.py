"""Hostile tries at a player's seat and PIN (tournaments.pins, one limiter for the seat claim of a
digital table and the protocol's confirmation): a stranger's wrong PINs lock only his own device
and address; the referee's release and a new PIN lift a lock; a guesser with many addresses is
slowed and the referee alerted."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from livetools import PIN, live_tour
from scoring import protocols
from scoring.live import play
from scoring.models import SeatHolder

from trustworld import PINS

pytestmark = pytest.mark.django_db

WRONG = "0000"
STRANGER = {"device": "stranger-phone-0123456789", "address": "198.51.100.7"}
OWNER = {"device": "owner-phone-0123456789ab", "address": "203.0.113.9"}


@pytest.fixture
def table(frozen):
    """A digital table whose tour has started, nobody seated yet."""
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    return world


def _wrong(world, seat, times, **where):
    for _n in range(times):
        with pytest.raises(ValidationError, match="Wrong PIN"):
            play.claim_seat(world["p1"].pk, seat, WRONG, **where)


def _url(name, world):
    with translation.override("en"):
        return reverse(name, args=[world["t"].slug, world["tour"].number, world["table"].number])


def test_a_strangers_wrong_pins_lock_only_his_own_device_and_address(table, settings):
    _wrong(table, 1, settings.PIN_FAILURE_LIMIT, **STRANGER)
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        play.claim_seat(table["p1"].pk, 1, PIN, **STRANGER)  # locked: even the right PIN
    # The same stranger with a new device id is still known by his address.
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        play.claim_seat(table["p1"].pk, 1, PIN, device="another-id-0123456789", address=STRANGER["address"])
    token = play.claim_seat(table["p1"].pk, 1, PIN, **OWNER)  # the player, on his own phone
    assert play.seats_held(table["p1"].pk, token) == [1]


def test_on_the_phone_page_a_strangers_wrong_pins_do_not_lock_the_players_phone(table, settings):
    url = _url("live-play", table)
    stranger, owner = Client(REMOTE_ADDR=STRANGER["address"]), Client(REMOTE_ADDR=OWNER["address"])
    assert owner.get(url).cookies["device"].value  # the phone page names the phone
    for _n in range(settings.PIN_FAILURE_LIMIT + 1):
        stranger.post(url, {"action": "claim", "seat": 2, "pin": WRONG})
    answer = stranger.post(url, {"action": "claim", "seat": 2, "pin": PIN}, follow=True)
    assert "Too many wrong PINs" in answer.content.decode()
    assert not SeatHolder.objects.filter(partition=table["p1"], seat=2).exclude(token_hash="").exists()
    owner.post(url, {"action": "claim", "seat": 2, "pin": PIN})
    assert SeatHolder.objects.filter(partition=table["p1"], seat=2).exclude(token_hash="").exists()


def test_the_referees_release_and_a_new_pin_lift_a_lock(table, settings):
    _wrong(table, 3, settings.PIN_FAILURE_LIMIT, **OWNER)  # the player mistyped on his own phone
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        play.claim_seat(table["p1"].pk, 3, PIN, **OWNER)
    referee = Client()
    referee.force_login(table["ref"])
    page = referee.get(_url("live-referee", table)).content.decode()
    assert 'name="seat" value="3"' in page and "Release the phone" in page  # no phone holds it: the lock shows
    play.release_seat(table["ref"], table["p1"].pk, 3)
    assert play.claim_seat(table["p1"].pk, 3, PIN, **OWNER)

    _wrong(table, 4, settings.PIN_FAILURE_LIMIT, **OWNER)
    protocols.set_pin(table["org"], table["table"].seat4_id, "975310")
    assert play.claim_seat(table["p1"].pk, 4, "975310", **OWNER)
    with pytest.raises(ValidationError, match="No device holds seat 1"):
        play.release_seat(table["ref"], table["p1"].pk, 1)  # nothing held, nothing locked: refused as before


def test_past_the_hourly_limit_the_players_tries_are_slowed_and_the_referee_alerted(table, settings, frozen):
    limit = settings.PIN_PLAYER_ALERT_LIMIT
    for n in range(limit):  # a guesser with many addresses: none of them locks
        with pytest.raises(ValidationError, match="Wrong PIN"):
            play.claim_seat(table["p1"].pk, 1, WRONG, device=f"guess-{n:020d}", address=f"192.0.2.{n + 1}")
    with pytest.raises(ValidationError, match=f"one try every {settings.PIN_SLOW_SECONDS} seconds"):
        play.claim_seat(table["p1"].pk, 1, PIN, **OWNER)  # from anywhere, even the right PIN, for now
    referee = Client()
    referee.force_login(table["ref"])
    tablet = referee.get(_url("live-referee", table)).content.decode()
    player = table["table"].seat1
    assert f"{limit} wrong PINs for {player} in the last hour" in tablet
    with translation.override("en"):
        my_tables = referee.get(reverse("my-tables")).content.decode()
    assert "wrong PINs" in my_tables
    frozen.advance(settings.PIN_SLOW_SECONDS - 1)
    with pytest.raises(ValidationError, match="one try every"):
        play.claim_seat(table["p1"].pk, 1, PIN, **OWNER)
    frozen.advance(1)
    with pytest.raises(ValidationError, match="Wrong PIN"):  # one more guess is taken, and slows again
        play.claim_seat(table["p1"].pk, 1, WRONG, device="guess-last-0123456789", address="192.0.2.200")
    with pytest.raises(ValidationError, match="one try every"):
        play.claim_seat(table["p1"].pk, 1, PIN, **OWNER)
    frozen.advance(settings.PIN_SLOW_SECONDS)
    token = play.claim_seat(table["p1"].pk, 1, PIN, **OWNER)  # the player's own try, once its turn comes
    assert play.seats_held(table["p1"].pk, token) == [1]
    frozen.advance(3600)
    assert "wrong PINs for" not in referee.get(_url("live-referee", table)).content.decode()  # the hour is over


def test_the_protocol_confirmation_counts_through_the_same_limiter(world, settings):
    north = world.north
    partition = north.table1.partition.pk
    settings.PIN_PLAYER_ALERT_LIMIT = 8
    for _n in range(settings.PIN_FAILURE_LIMIT):
        with pytest.raises(ValidationError, match="Wrong PIN"):
            protocols.confirm(north.ref, partition, 2, pin=WRONG, address="198.51.100.7")
    with pytest.raises(ValidationError, match="Too many wrong PINs"):  # the referee's login ...
        protocols.confirm(north.ref, partition, 2, pin=PINS[2], address="203.0.113.9")
    with pytest.raises(ValidationError, match="Too many wrong PINs"):  # ... and that address
        protocols.confirm(north.chief, partition, 2, pin=PINS[2], address="198.51.100.7")
    for _n in range(settings.PIN_PLAYER_ALERT_LIMIT - settings.PIN_FAILURE_LIMIT):
        with pytest.raises(ValidationError, match="Wrong PIN"):
            protocols.confirm(north.chief, partition, 2, pin=WRONG, address="203.0.113.9")
    # The player's hour is counted across logins and addresses, as at a seat: slowed everywhere.
    with pytest.raises(ValidationError, match="one try every"):
        protocols.confirm(north.org, partition, 2, pin=PINS[2], address="192.0.2.1")
    protocols.set_pin(north.org, north.table1.seat2_id, "975310")  # a new PIN lifts it all
    assert protocols.confirm(north.ref, partition, 2, pin="975310", address="198.51.100.7").method == "pin"
