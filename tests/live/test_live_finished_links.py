"""Once a live partition is over, the player's phone and the referee's tablet lead on to the
protocol's confirmation (issue 19, item 8); the public page does not (it needs a login)."""

from __future__ import annotations

import pytest
from django.test import Client

from livetools import PIN, live_tour
from scoring.live import play
from scoring.models import LiveTable, Partition
from scoring.recording import pipeline
from scoring.web.live_views import SEAT_COOKIE

pytestmark = pytest.mark.django_db

TABLE = "/tournaments/cup/tours/1/tables/1/"
CONFIRM = TABLE + "protocol/confirm/"


def test_the_phone_and_the_tablet_of_a_finished_partition_link_to_the_confirmation(db, frozen):
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    pk = world["p1"].pk
    token = play.claim_seat(pk, 1, PIN)
    play.claim_seat(pk, 3, PIN)
    phone = Client()
    phone.cookies[f"{SEAT_COOKIE}-ru"] = token
    referee = Client()
    referee.force_login(world["ref"])
    assert CONFIRM not in phone.get(TABLE + "play/").content.decode()  # still playing: nothing to confirm
    assert CONFIRM not in referee.get(TABLE + "referee/").content.decode()
    frozen.to(LiveTable.objects.get(pk=pk).no_show_deadline)
    pipeline.sweep()  # pair B never came: the partition is over
    assert Partition.objects.get(pk=pk).is_finished
    for page in (phone.get(TABLE + "play/"), phone.get(TABLE + "play/fragment/"),
                 referee.get(TABLE + "referee/"), referee.get(TABLE + "referee/fragment/")):
        text = page.content.decode()
        assert f'href="{CONFIRM}"' in text and "Партия окончена: подтвердить протокол" in text
    assert referee.get(CONFIRM).status_code == 200  # the link leads somewhere the referee may go
    assert CONFIRM not in Client().get(TABLE + "live/").content.decode()
