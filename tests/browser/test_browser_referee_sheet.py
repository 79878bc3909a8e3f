"""A referee records a whole partition on his phone, by tapping and typing, and the public
standings then show the result.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import re

import pytest

from builders import tournament, user
from scoring.models import Partition
from tournaments import services
from tournaments import tours

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 375, "height": 812}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SHEET_SCREENSHOT = "/tmp/sheet-phone.png"
STANDINGS_SCREENSHOT = "/tmp/standings-phone.png"


@pytest.fixture
def cup():
    """Four pairs with Russian names, tour 1 published; ``sudya`` referees table 1."""
    org = user("org", superuser=True)
    referee = user("sudya")
    t = tournament(org, pairs=0)
    # Swiss tour 1 by start numbers seats pair 1 against pair 3 (1 v n/2+1): Иванов v Кузнецов.
    for first, second in (("Иванов", "Смирнов"), ("Васильев", "Петров"), ("Кузнецов", "Попов"),
                          ("Соколов", "Михайлов")):
        services.register_pair(org, t, {"last_name": first, "first_name": "Иван"},
                               {"last_name": second, "first_name": "Пётр"})
    services.add_role(org, t, "sudya", "referee")
    tour = tours.generate_tour(org, t)
    table = tour.tables.get(number=1)
    services.assign_referee(org, table, referee)
    tours.publish_tour(org, tour)
    return table


def tap_seat_choice(page, form, seat: int) -> None:
    form.locator(f"label.choice:has(input[name=end][value=domino-{seat}])").tap()


def record_deal(page, expect, n: int, seat: int, pips_a: int, pips_b: int) -> None:
    form = page.locator("form.deal-form")
    expect(page.get_by_role("heading", name=re.compile(rf"^Кон {n}\b"))).to_be_visible()
    tap_seat_choice(page, form, seat)
    form.get_by_label("Пара A").tap()
    form.get_by_label("Пара A").fill(str(pips_a))
    form.get_by_label("Пара B").fill(str(pips_b))
    form.get_by_role("button", name=f"Записать кон {n}").tap()


def test_a_referee_records_a_partition_on_his_phone(live_server, browser, cup):
    from playwright.sync_api import expect

    table = cup
    pair_a, pair_b = table.pair_a, table.pair_b
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()

    # Before: nobody has won anything.
    page.goto(live_server.url + "/tournaments/cup/standings/")
    expect(page.get_by_text("Сейчас", exact=True).first).to_be_visible()

    # The referee signs in on his phone and opens his table.
    page.goto(live_server.url + "/")
    page.get_by_role("main").get_by_role("link", name="Войти").tap()
    page.get_by_label("Имя пользователя").fill("sudya")
    page.get_by_label("Пароль").fill("pw-sudya")
    page.get_by_role("button", name="Войти").tap()
    page.get_by_role("navigation", name="Главное меню").get_by_role("link", name="Мои столы").tap()
    expect(page.get_by_role("heading", name="Мои столы")).to_be_visible()
    page.screenshot(path="/tmp/sheet-phone-tables.png")
    page.get_by_role("link", name=re.compile("Стол 1")).tap()

    # The lead draw: seat 2 won it.
    expect(page.get_by_role("heading", name="Розыгрыш первого хода")).to_be_visible()
    page.screenshot(path="/tmp/sheet-phone-lead.png")
    page.locator("[aria-labelledby=step-title]").get_by_role("button", name=re.compile(r"^2\s+Кузнецов")).tap()
    expect(page.locator(".leader")).to_contain_text("2")

    # Deals: the engine says who leads each one.
    record_deal(page, expect, 1, seat=2, pips_a=30, pips_b=12)   # B 42
    expect(page.locator(".messages")).to_contain_text("Кон 1 записан: пара B получает 42.")
    expect(page.locator(".leader")).to_contain_text(str(table.seat3))
    record_deal(page, expect, 2, seat=3, pips_a=8, pips_b=47)    # A 55
    expect(page.locator('.score__points[data-pair="A"]')).to_have_text("55")

    # A warning for the move time, seen on the sheet.
    page.locator("summary", has_text="Нарушение, предупреждение или штраф").tap()
    violation = page.locator("form:has(input[name=action][value=violation])")
    violation.locator("label.choice:has(input[name=seat][value='4'])").tap()
    violation.locator("label.choice:has(input[name=code][value=move_time])").tap()
    page.screenshot(path="/tmp/sheet-phone-violation.png", full_page=True)
    violation.get_by_role("button", name="Записать нарушение").tap()
    expect(page.locator(".messages")).to_contain_text("предупреждение")
    expect(page.locator(".sanctions")).to_contain_text("время хода")

    # Mid-partition, as the referee sees it.
    expect(page.get_by_role("heading", name=re.compile(r"^Кон 3\b"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=SHEET_SCREENSHOT, full_page=True)

    record_deal(page, expect, 3, seat=1, pips_a=10, pips_b=60)   # A 125
    record_deal(page, expect, 4, seat=4, pips_a=70, pips_b=5)    # B 117
    record_deal(page, expect, 5, seat=1, pips_a=3, pips_b=80)    # A 208: over
    expect(page.get_by_role("heading", name="Партия окончена")).to_be_visible()
    expect(page.locator(".verdict")).to_contain_text("Пара A выиграла")
    expect(page.locator('.score__points[data-pair="A"]')).to_have_text("208")
    page.screenshot(path="/tmp/sheet-phone-over.png")
    partition = Partition.objects.get(table=table)
    assert (partition.status, partition.winner, partition.reason, partition.points_a, partition.points_b) == \
        ("finished", "A", "target", 208, 117)

    # The public standings now count the partition.
    visitor = browser.new_context(**PHONE)
    page = visitor.new_page()
    page.goto(live_server.url + "/tournaments/cup/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(4)
    first = rows.first
    expect(first.locator("th")).to_contain_text(pair_a.first.last_name)
    cells = [c.strip() for c in first.locator("td").all_inner_texts()]
    header = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()][2:]
    values = dict(zip(header, cells[1:]))
    assert cells[0] == "1" and values["Победы"] == "1" and values["Набрано очков"] == "208"
    loser = rows.filter(has_text=pair_b.first.last_name)
    loser_values = dict(zip(header, [c.strip() for c in loser.locator("td").all_inner_texts()][1:]))
    assert loser_values["Победы"] == "0" and loser_values["Поражения"] == "1" and loser_values["Набрано очков"] == "117"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=STANDINGS_SCREENSHOT, full_page=True)
    visitor.close()
    context.close()
