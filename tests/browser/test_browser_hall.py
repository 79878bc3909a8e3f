"""The hall screen of a tour on a projector and a table's live page on a phone, both held open
while the referee plays moves (the services, called from the test) and a move is left to run
out: each move and the timeout arrive on both pages without a reload.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import re

import pytest

from livetools import live_tour, watch
from scoring.live import play
from scoring.models import LiveTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
HALL = "/tournaments/cup/tours/1/hall/"
TABLE1 = "/tournaments/cup/tours/1/tables/1/live/"
HANDS = {"1": "6-6 5-5 4-4 3-3 2-2 1-1 0-0".split(), "2": "6-5 6-4 6-3 6-2 6-1 6-0 5-4".split(),
         "3": "4-3 4-2 4-1 4-0 3-2 3-1 3-0".split(), "4": "5-3 5-2 5-1 5-0 2-1 2-0 1-0".split()}


@pytest.fixture
def tour():
    """Tour 1 started, its tables refereed; a pass has 2 s, every other move a minute. At table 1
    the players are present and seat 1 won the lead draw."""
    world = live_tour("refereed", regulations={"time_pass": 2, "time_single": 60, "time_several": 60})
    play.start_tour(world["chief"], world["tour"])
    play.start_partition(world["ref"], world["p1"].pk, 1)
    return world


def move(world, tile: str) -> None:
    turn = LiveTable.objects.get(pk=world["p1"].pk).turn
    play.move(play.Actor(world["ref"]), world["p1"].pk, turn, tile=tile)


def test_the_hall_and_a_table_follow_the_moves_and_a_timeout_without_reloading(live_server, browser, tour):
    from playwright.sync_api import expect

    problems: list = []
    projector = browser.new_context(**PROJECTOR)
    projector.set_default_timeout(20_000)
    screen = projector.new_page()
    watch(screen, problems)
    screen.goto(live_server.url + HALL)
    phone_context = browser.new_context(**PHONE)
    phone_context.set_default_timeout(20_000)
    phone = phone_context.new_page()
    watch(phone, problems)
    phone.goto(live_server.url + TABLE1)
    for page in (screen, phone):
        page.evaluate("window.stillTheSamePage = true")
    first = screen.locator("[data-table='1']")
    table = tour["table"]
    expect(first).to_contain_text("Стол 1")
    expect(first.locator(".hall-score__unit--a")).to_contain_text(str(table.seat1))
    expect(screen.locator(".hall-standings")).to_contain_text("Игрок1а")

    # The hands are entered: seat 1 is to move, on both pages.
    play.enter_hands(tour["ref"], tour["p1"].pk, HANDS)
    expect(first.locator(".hall-tile__turn")).to_contain_text(str(table.seat1))
    expect(first.locator("[data-deadline]")).to_have_count(1)  # the partition's clock runs
    # Seat 1 leads the double six, seat 2 answers with the six-five.
    move(tour, "6-6")
    expect(first.locator(".hall-tile__turn")).to_contain_text(str(table.seat2))
    expect(phone.locator(".line-svg")).to_have_attribute("aria-label", re.compile("6-6"))
    move(tour, "6-5")
    expect(first.locator(".hall-tile__turn")).to_contain_text(str(table.seat3))
    expect(phone.locator(".line-svg")).to_have_attribute("aria-label", re.compile("5-6, 6-6"))
    # Seat 3 has neither a six nor a five: his pass has 2 s, and he lets it run out.
    expect(first.locator(".hall-tile__turn .flag")).to_contain_text("1 просрочка", timeout=15_000)
    expect(phone.locator(".sanctions")).to_contain_text("предупреждение", timeout=15_000)
    expect(phone.locator(".sanctions")).to_contain_text(str(table.seat3))
    for page in (screen, phone):
        assert page.evaluate("window.stillTheSamePage") is True  # no reload: the script fetched the fragments
    screen.screenshot(path="/tmp/hall-projector.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The same hall on a phone fits its width.
    narrow = phone_context.new_page()
    watch(narrow, problems)
    narrow.goto(live_server.url + HALL)
    expect(narrow.locator("[data-table='2']")).to_be_visible()
    assert narrow.evaluate("document.documentElement.scrollWidth") <= 390
    narrow.screenshot(path="/tmp/hall-phone.png", full_page=True)
    projector.close()
    phone_context.close()

    assert problems == []
