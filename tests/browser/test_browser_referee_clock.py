"""The referee's clock on a phone (issue 19, items 6-8): "deal over" stops the move clock, the
result typed while a countdown runs out stays as typed (the page is updated in place, never
reloaded) and no move time is charged meanwhile; the finished partition leads on to the
confirmation. Taps made while the one before is on its way all arrive. Long double-barrelled
names break at their hyphen, not mid-word, and the management tabs all show on a wide screen.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import datetime
import re

import pytest
from django.utils import timezone

from livetools import live_tour, watch
from scoring.live import play
from scoring.models import LiveTable, Partition
from scoring.recording.storage import engine_partition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1920, "height": 1080}}
TABLE1 = "/tournaments/cup/tours/1/tables/1/"
TABLE2 = "/tournaments/cup/tours/1/tables/2/"
LONG_NAME = "Щербаков-Оболенский"


@pytest.fixture
def tour():
    """Table 1 on the referee's clock (a move has 3 s), table 2 digital; a long name at seat 1."""
    world = live_tour("clock", regulations={"time_several": 3, "time_single": 3})
    table2 = world["table2"]
    table2.play_mode = "digital"
    table2.save(update_fields=["play_mode"])
    player = world["table"].seat1
    player.last_name = LONG_NAME
    player.save(update_fields=["last_name"])
    play.start_tour(world["chief"], world["tour"])
    return world


def sign_in(page, url, name):
    page.goto(url + "/accounts/login/")
    page.get_by_label("Имя пользователя").fill(name)
    page.get_by_label("Пароль").fill("pw-" + name)
    page.get_by_role("main").get_by_role("button", name="Войти").click()


def violations(world) -> int:
    return len(engine_partition(Partition.objects.get(pk=world["p1"].pk)).violations)


def test_the_result_typed_survives_a_countdown_running_out_and_no_move_time_is_charged(
        live_server, browser, tour):
    from playwright.sync_api import expect

    problems: list = []
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch(page, problems)
    sign_in(page, live_server.url, "ref")
    page.goto(live_server.url + TABLE1 + "referee/")
    page.evaluate("window.stillTheSamePage = true")

    # The seat buttons of the lead draw: the long name breaks at its hyphen, inside the page.
    seat1 = page.locator("form.seat-buttons button[value='1'] .seat-button__name")
    expect(seat1).to_contain_text(LONG_NAME)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    lines = seat1.evaluate("""el => {  // the text of each rendered line of the name
        const range = document.createRange(), text = el.firstChild.textContent, tops = {};
        for (let i = 0; i < text.length; i++) {
            range.setStart(el.firstChild, i); range.setEnd(el.firstChild, i + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            tops[top] = (tops[top] || "") + text[i];
        }
        return Object.keys(tops).sort((a, b) => a - b).map(k => tops[k]);
    }""")
    assert LONG_NAME.split("-")[1] in "".join(lines) and all(
        line.endswith("-") or line.endswith(" ") or line == lines[-1] for line in lines), lines
    page.screenshot(path="/tmp/referee-clock-seats-390.png", full_page=True)

    # Seat 1 won the lead draw: his move clock runs; the move is tapped; seat 2's move ends the deal.
    page.locator("form.seat-buttons button[value='1']").click()
    expect(page.get_by_role("button", name="Ход сделан")).to_be_visible()
    page.get_by_role("button", name="Ход сделан").click()
    expect(page.locator(".live-seat--turn")).to_contain_text("2")
    # The partition's time runs out a few seconds from now, while the referee will be typing.
    live = LiveTable.objects.get(pk=tour["p1"].pk)
    shift = live.time_deadline - (timezone.now() + datetime.timedelta(seconds=9))
    LiveTable.objects.filter(pk=live.pk).update(clock_started_at=live.clock_started_at - shift,
                                                time_deadline=live.time_deadline - shift)
    page.get_by_role("button", name="Кон окончен: остановить часы, ввести итог").click()
    expect(page.get_by_role("heading", name="Кон 1 окончен: его итог")).to_be_visible()
    expect(page.locator(".live-clock")).to_have_count(0)  # no move clock
    counted = violations(tour)
    assert LiveTable.objects.get(pk=tour["p1"].pk).seat is None

    # He types: seat 2 placed his last tile; pair A's pips, slowly, the field keeping the focus.
    page.locator("label.choice:has(input[name=end][value='domino-2'])").click()
    pips_a = page.locator("input[name=pips_a]")
    pips_a.click()
    pips_a.press_sequentially("2")
    expect(page.locator(".live-status__time [data-deadline]")).to_have_count(1)
    # The partition's countdown runs out: the page asks the table again; the server records the
    # time; the new fragment replaces the page's around the form, which keeps what was typed.
    expect(page.locator(".live-status__time")).to_have_count(0, timeout=20_000)
    assert Partition.objects.get(pk=tour["p1"].pk).changes.filter(action="time").exists()
    expect(pips_a).to_have_value("2")
    expect(page.locator("input[name=end][value='domino-2']")).to_be_checked()
    assert page.evaluate("document.activeElement && document.activeElement.name") == "pips_a"
    pips_a.press_sequentially("7")  # the caret where it was: 27
    page.locator("input[name=pips_b]").fill("0")
    page.screenshot(path="/tmp/referee-clock-typing-390.png", full_page=True)
    assert page.evaluate("window.stillTheSamePage") is True  # never reloaded

    # Well over two allowances of 3 s went by: nothing was charged.
    assert violations(tour) == counted
    page.get_by_role("button", name="Записать кон 1").click()
    # The time ran out during deal 1: it was the last; the tablet leads on to the confirmation.
    confirm = page.get_by_role("link", name="Партия окончена: подтвердить протокол")
    expect(confirm).to_be_visible()
    partition = Partition.objects.get(pk=tour["p1"].pk)
    assert partition.is_finished and partition.changes.get(action="deal").data["pips"] == {"A": 27, "B": 0}
    assert violations(tour) == counted
    page.screenshot(path="/tmp/referee-clock-over-390.png", full_page=True)
    confirm.click()
    expect(page).to_have_url(re.compile(r"/protocol/confirm/$"))
    context.close()
    assert problems == []


def test_taps_made_while_one_is_on_its_way_all_arrive(live_server, browser, tour):
    from playwright.sync_api import expect

    problems: list = []
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch(page, problems)
    sign_in(page, live_server.url, "other")
    page.goto(live_server.url + TABLE2 + "referee/")
    expect(page.get_by_role("button", name="На месте")).to_have_count(4)
    # Four "present" in one go: the second to fourth are tapped while the first is being sent.
    page.evaluate("""() => document.querySelectorAll("form:has(input[name=action][value=check_in]) button")
                                   .forEach(button => button.click())""")
    expect(page.locator(".live-seat__present")).to_have_count(4)
    assert sorted(LiveTable.objects.get(pk=tour["p2"].pk).present) == [1, 2, 3, 4]
    context.close()
    assert problems == []


def test_the_management_tabs_all_show_on_a_wide_screen(live_server, browser, tour):
    context = browser.new_context(**WIDE)
    page = context.new_page()
    sign_in(page, live_server.url, "org")
    page.goto(live_server.url + "/tournaments/cup/manage/")
    tabs = page.locator("nav.tabs")
    box = tabs.bounding_box()
    for tab in tabs.locator("a").all():
        each = tab.bounding_box()
        assert box["x"] <= each["x"] and each["x"] + each["width"] <= box["x"] + box["width"] + 0.5, tab.inner_text()
    assert tabs.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.screenshot(path="/tmp/manage-tabs-1920.png")
    context.close()
