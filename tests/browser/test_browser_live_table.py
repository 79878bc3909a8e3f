"""A referee plays a deal live on his phone at a refereed table: the hands with the tile picker, the
moves tapped; a move left to run out shows its warning on the tablet without a reload. A player at
a digital table takes his seat with his PIN, and his page never holds another player's tile.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import re

import pytest

from livetools import PIN, live_tour, watch
from scoring import engine
from scoring.live import play
from scoring.models import Partition
from scoring.recording.storage import engine_partition

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TABLE1 = "/tournaments/cup/tours/1/tables/1/"
TABLE2 = "/tournaments/cup/tours/1/tables/2/"
HANDS = {1: "6-6 5-5 4-4 3-3 2-2 1-1 0-0", 2: "6-5 6-4 6-3 6-2 6-1 6-0 5-4",
         3: "4-3 4-2 4-1 4-0 3-2 3-1 3-0", 4: "5-3 5-2 5-1 5-0 2-1 2-0 1-0"}


@pytest.fixture
def tour():
    """Table 1 refereed, table 2 digital; a pass has 2 s, every other move a minute."""
    world = live_tour("refereed", regulations={"time_pass": 2, "time_single": 60, "time_several": 60})
    table2 = world["table2"]
    table2.play_mode = "digital"
    table2.save(update_fields=["play_mode"])
    play.start_tour(world["chief"], world["tour"])
    return world


def test_a_referee_plays_a_deal_live_and_a_player_sees_only_his_tiles(live_server, browser, tour):
    from playwright.sync_api import expect

    problems: list = []
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch(page, problems)

    # The referee signs in and opens his table's tablet from "my tables".
    page.goto(live_server.url + "/accounts/login/?next=/referee/")
    page.get_by_label("Имя пользователя").fill("ref")
    page.get_by_label("Пароль").fill("pw-ref")
    page.get_by_role("main").get_by_role("button", name="Войти").tap()
    page.get_by_role("link", name=re.compile("Стол 1")).tap()
    expect(page.get_by_role("heading", name="Розыгрыш первого хода")).to_be_visible()
    page.evaluate("window.stillTheSamePage = true")

    # Seat 1 won the lead draw.
    page.locator("form.seat-buttons button[value='1']").tap()
    expect(page.get_by_role("heading", name="Кон 1: фишки игроков")).to_be_visible()

    # The hands, picked tile by tile: the picker moves on to the next hand when one has seven.
    picker = page.locator("[data-picker]")
    for seat, hand in HANDS.items():
        expect(page.locator(f"[data-hand-row='{seat}']")).to_have_class(re.compile("hand-row--active"))
        for tile in hand.split():
            picker.locator(f"[data-pick='{tile}']").tap()
        expect(page.locator(f"[data-hand-row='{seat}'] [data-hand-count]")).to_have_text("7/7")
    # A tile already given cannot be picked for another hand; typed twice, the form refuses it.
    expect(picker.locator("[data-pick='6-6']")).to_be_disabled()
    typed = page.locator("input[name=hand_4]")
    typed.fill("5-3 5-2 5-1 5-0 2-1 2-0 6-6")
    page.get_by_role("button", name="Начать кон 1").tap()
    expect(page.locator("[data-picker-error]")).to_contain_text("Камень указан дважды: 6-6")
    typed.fill(HANDS[4])
    page.get_by_role("button", name="Начать кон 1").tap()
    expect(page.get_by_role("heading", name="Запишите ход")).to_be_visible()
    page.screenshot(path="/tmp/live-tablet-hands.png", full_page=True)

    # The moves: seat 1 leads the double six, seat 2 answers with the six-five.
    page.locator("[data-tile='6-6'] button").tap()
    expect(page.locator(".line-svg")).to_have_attribute("aria-label", re.compile("6-6"))
    page.locator("[data-tile='6-5'] button").tap()
    expect(page.locator(".line-svg")).to_have_attribute("aria-label", re.compile("5-6, 6-6"))
    # Seat 3 has neither a six nor a five: his pass has 2 s, and he lets it run out.
    expect(page.locator(".live-seat--turn")).to_contain_text("3")
    expect(page.locator(".sanctions")).to_contain_text("предупреждение", timeout=15_000)
    expect(page.locator(".sanctions")).to_contain_text(str(tour["table"].seat3))
    assert page.evaluate("window.stillTheSamePage") is True  # no reload: the script fetched the table
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/live-tablet-warning.png", full_page=True)
    # The referee records the pass.
    page.get_by_role("button", name="Пас").tap()
    expect(page.locator(".live-seat--turn")).to_contain_text("4")
    history = engine_partition(Partition.objects.get(pk=tour["p1"].pk)).current.history()
    assert [str(m.tile) if m.tile else "pass" for m in history] == ["6-6", "6-5", "pass"]

    # The public page of the table: the line, no hand.
    public = browser.new_context(**PHONE)
    watcher = public.new_page()
    watch(watcher, problems)
    watcher.goto(live_server.url + TABLE1 + "live/")
    expect(watcher.locator(".line-svg")).to_have_attribute("aria-label", re.compile("5-6, 6-6"))
    assert watcher.locator("[data-tile]").count() == 0
    public.close()

    # A player of the digital table scans its code and takes his seat; the others are seated too.
    players = browser.new_context(**PHONE)
    players.set_default_timeout(20_000)
    phone = players.new_page()
    watch(phone, problems)
    phone.goto(live_server.url + TABLE2 + "play/")
    expect(phone.get_by_role("heading", name="Займите своё место", exact=True)).to_be_visible()
    phone.locator("label.choice:has(input[name=seat][value='2'])").tap()
    phone.get_by_label("PIN-код").fill("0000")
    phone.get_by_role("button", name="Занять место").tap()
    expect(phone.locator(".messages")).to_contain_text("осталось попыток: 4")
    phone.locator("label.choice:has(input[name=seat][value='2'])").tap()
    phone.get_by_label("PIN-код").fill(PIN)
    phone.get_by_role("button", name="Занять место").tap()
    for seat in (1, 3, 4):
        play.claim_seat(tour["p2"].pk, seat, PIN)
    # All four seated: the deal is dealt, and his page shows it by itself.
    expect(phone.locator("[data-tile]")).to_have_count(7, timeout=10_000)
    deal = engine_partition(Partition.objects.get(pk=tour["p2"].pk)).current
    html = phone.content()
    assert sorted(re.findall(r'data-tile="([^"]+)"', html)) == sorted(str(t) for t in deal.hand(2))
    others = [str(t) for seat in engine.SEATS if seat != 2 for t in deal.hand(seat)]
    hand_area = phone.locator(".hands-play").inner_html()
    for tile in others:
        a, b = tile.split("-")
        assert f"{a}-{b}" not in hand_area and f"{b}-{a}" not in hand_area, tile
        assert f'data-tile="{tile}"' not in html
    phone.screenshot(path="/tmp/live-phone.png", full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    players.close()
    context.close()

    assert problems == []
