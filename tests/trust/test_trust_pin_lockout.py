"""The PIN lock: counted atomically where every process sees it, per player and per login typing
the PIN, so parallel attempts cannot get past it and one referee cannot lock a player out
everywhere."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import translation

from builders import finish_tour
from scoring import protocols
from tournaments import pins, tours
from tournaments.models import Table

from trustworld import PINS

pytestmark = pytest.mark.django_db

WRONG = "0000"
LIMIT = 5  # settings.PIN_FAILURE_LIMIT's default


def _wrong_pins(side, seat, device, times):
    for _n in range(times):
        with pytest.raises(ValidationError, match="Wrong PIN"):
            protocols.confirm(device, side.table1.partition.pk, seat, pin=WRONG)


def test_five_wrong_pins_lock_the_player_on_that_login_only(world, settings):
    north = world.north
    partition = north.table1.partition.pk
    _wrong_pins(north, 1, north.ref, settings.PIN_FAILURE_LIMIT - 1)
    with pytest.raises(ValidationError, match=r"Wrong PIN .*\(0 attempts left\)"):
        protocols.confirm(north.ref, partition, 1, pin=WRONG)
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        protocols.confirm(north.ref, partition, 1, pin=PINS[1])  # even the right one
    protocols.confirm(north.ref, partition, 2, pin=PINS[2])  # another player is not locked
    # The chief referee's device is another login: the player confirms there.
    assert protocols.confirm(north.chief, partition, 1, pin=PINS[1]).method == "pin"


def test_the_player_confirms_from_his_own_account_while_locked_on_the_referees_login(world, settings):
    north = world.north
    _wrong_pins(north, 1, north.ref, settings.PIN_FAILURE_LIMIT)
    assert protocols.confirm(north.account, north.table1.partition.pk, 1).method == "account"


def test_the_lock_ends_after_its_time_and_a_right_pin_clears_the_count(world, settings):
    from tournaments.models import PinFailures

    north = world.north
    partition = north.table1.partition.pk
    _wrong_pins(north, 3, north.ref, 2)
    protocols.confirm(north.ref, partition, 3, pin=PINS[3])
    assert PinFailures.objects.get(player=north.table1.seat3, key__startswith="device:").failures == 0
    _wrong_pins(north, 4, north.ref, settings.PIN_FAILURE_LIMIT)
    row = PinFailures.objects.get(player=north.table1.seat4, key__startswith="device:")
    assert row.locked_until is not None
    PinFailures.objects.filter(pk=row.pk).update(locked_until=row.locked_until.replace(year=2000),
                                                 last_failure_at=row.last_failure_at.replace(year=2000))
    assert protocols.confirm(north.ref, partition, 4, pin=PINS[4]).method == "pin"


def test_a_new_pin_ends_the_lock(world, settings):
    north = world.north
    _wrong_pins(north, 2, north.ref, settings.PIN_FAILURE_LIMIT)
    protocols.set_pin(north.org, north.table1.seat2_id, "975310")
    assert protocols.confirm(north.ref, north.table1.partition.pk, 2, pin="975310").method == "pin"


def _every_partition_of(side, seat):
    """Every tour of the round robin played: the player at ``seat`` of table 1 has a finished
    partition in each of three tours, all refereed by the side's referee."""
    player = side.table1.seats[seat - 1]
    org = side.org
    finish_tour(side.tour1)
    tours.publish_tour(org, side.tour2)
    finish_tour(side.tour2)
    tour3 = tours.generate_tour(org, side.tournament)
    tours.publish_tour(org, tour3)
    finish_tour(tour3)
    tables = [t for t in Table.objects.filter(tour__tournament=side.tournament).select_related("partition")
              if player.pk in (t.seat1_id, t.seat2_id, t.seat3_id, t.seat4_id)]
    assert len(tables) == 3
    return player, [(t.partition.pk, 1 + [t.seat1_id, t.seat2_id, t.seat3_id, t.seat4_id].index(player.pk))
                    for t in tables]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_forty_parallel_wrong_pins_check_at_most_the_limit_and_the_right_pin_is_then_refused(monkeypatch):
    from trustworld import build_world

    world = build_world()
    north = world.north
    player, partitions = _every_partition_of(north, 2)
    checked = []
    lock = threading.Lock()
    real_check = pins.check_password

    def counting_check(raw, encoded, *args, **kwargs):
        with lock:
            checked.append(raw)
        return real_check(raw, encoded, *args, **kwargs)

    monkeypatch.setattr(pins, "check_password", counting_check)
    attempts = 40
    start = threading.Barrier(attempts)
    answers = []

    def attempt(n):
        partition, seat = partitions[n % len(partitions)]
        try:
            start.wait()
            with translation.override("en"):
                protocols.confirm(north.chief, partition, seat, pin=WRONG)
        except ValidationError as refusal:
            with lock:
                answers.append(refusal.messages[0])
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == attempts
    assert len(checked) == LIMIT
    assert sum(a.startswith("Wrong PIN") for a in answers) == LIMIT
    assert sum(a.startswith("Too many wrong PINs") for a in answers) == attempts - LIMIT
    partition, seat = partitions[0]
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        protocols.confirm(north.chief, partition, seat, pin=PINS[2])
    assert len(checked) == LIMIT  # refused without looking at the PIN
    # The table's own referee types it on his device: not locked there.
    assert protocols.confirm(north.ref, north.table1.partition.pk, 2, pin=PINS[2]).method == "pin"
