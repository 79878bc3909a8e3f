"""A no-show as the pages show it (RULES 5): the pending deadline counting down on "My tables" and
the referee's tablet (recorded by the clock at a live table, a warning only at a score-sheet
table); the result "no-show" and who won on the tour page, the hall and "My tables"; the chief
referee's annulment from the tablet."""

from __future__ import annotations

import re

import pytest

from builders import refereed_tour
from livetools import PIN, live_tour, login
from scoring.live import play
from scoring.models import LiveTable, Partition
from scoring.recording import commands, pipeline

pytestmark = pytest.mark.django_db

TABLE = "/en/tournaments/cup/tours/1/tables/1/"


def plain(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def started(db, frozen):
    """A digital tour started: seats 1 and 3 of table 1 (pair A) checked in, pair B not yet."""
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    for seat in (1, 3):
        play.claim_seat(world["p1"].pk, seat, PIN)
    return world


def test_my_tables_and_the_tablet_count_the_pending_no_show_down(started, frozen):
    frozen.advance(60)
    deadline = LiveTable.objects.get(pk=started["p1"].pk).no_show_deadline
    at = deadline.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Moscow")).strftime("%H:%M")
    page = plain(login(started["ref"]).get("/en/referee/"))
    assert f"No-show at {at} ( 4:00 ): recorded by the clock unless everyone is present or you postpone it" in page
    tablet = plain(login(started["ref"]).get(TABLE + "referee/"))
    pair_b = started["table"].pair_b
    assert f"No-show at {at} ( 4:00 ): a pair with a player not marked present loses the partition" in tablet
    assert f"Missing: 2 {started['table'].seat2}, 4 {started['table'].seat4}" in tablet
    assert str(pair_b.first) in tablet
    # Past the deadline, with no worker: "My tables" records it on reading, and says so.
    frozen.to(deadline)
    page = plain(login(started["ref"]).get("/en/referee/"))
    assert "No-show: pair B did not appear, pair A wins · 100 : 0" in page and "No-show at" not in page
    assert Partition.objects.get(pk=started["p1"].pk).reason == "no_show"


def test_a_score_sheet_tables_countdown_only_warns(db, frozen):
    world = refereed_tour(target=100)
    page = plain(login(world["ref"]).get("/en/referee/"))
    assert "No-show at" not in page  # the tour has not started
    play.start_tour(world["chief"], world["tour"])
    page = plain(login(world["ref"]).get("/en/referee/"))
    assert "No-show at" in page and "( 5:00 ): record it on the sheet if a player has not come" in page
    frozen.advance(3600)
    page = plain(login(world["ref"]).get("/en/referee/"))
    assert "( 0:00 ): record it on the sheet" in page
    assert Partition.objects.get(pk=world["p1"].pk).version == 0  # nothing is recorded by the clock
    commands.record(world["ref"], world["p1"].pk, "lead", {"seat": 1})
    assert "No-show at" not in plain(login(world["ref"]).get("/en/referee/"))  # the partition began


def test_the_tour_page_and_the_hall_say_no_show_and_who_won(started, frozen):
    frozen.to(LiveTable.objects.get(pk=started["p1"].pk).no_show_deadline)
    pipeline.sweep()
    tour = plain(login(started["org"]).get("/en/tournaments/cup/tours/1/"))
    assert "Result: No-show: pair B did not appear, pair A wins (100 : 0)" in tour
    assert "Result: No-show: neither pair appeared, both lose (0 : 0)" in tour  # table 2: nobody came
    hall = plain(login(started["org"]).get("/en/tournaments/cup/tours/1/hall/"))
    assert "No-show: pair B did not appear, pair A wins" in hall
    ru = plain(login(started["org"]).get("/tournaments/cup/tours/1/"))
    assert "Неявка: пара B не явилась, победила пара A" in ru


def test_the_chief_referee_annuls_the_no_show_from_the_tablet(started, frozen):
    pk = started["p1"].pk
    frozen.to(LiveTable.objects.get(pk=pk).no_show_deadline)
    pipeline.sweep()
    assert "Annul the no-show" not in plain(login(started["ref"]).get(TABLE + "referee/"))
    chief = login(started["chief"])
    assert "Annul the no-show" in plain(chief.get(TABLE + "referee/"))
    response = chief.post(TABLE + "referee/", {"action": "annul_no_show", "reason": ""}, follow=True)
    assert "An annulment needs a reason." in plain(response) and Partition.objects.get(pk=pk).reason == "no_show"
    response = chief.post(TABLE + "referee/", {"action": "annul_no_show", "reason": "pair B was in the hall"},
                          follow=True)
    page = plain(response)
    assert Partition.objects.get(pk=pk).status == "playing" and "Annul the no-show" not in page
    assert "Waiting for the players" in page and "No-show at" in page  # a fresh deadline for pair B
