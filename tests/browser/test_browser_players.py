"""A spectator on his phone finds a player by the passport spelling of his Cyrillic name through
the site's navigation, opens his page and reads his tours' scores and his rating chart, at 390 px
without sideways scrolling.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import pytest

from builders import finish_tour, tournament, user
from tournaments import rating, services, tours

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def cup():
    """Tour 1 of two pairs played: Щукин and Ёлкина (pair A) win 200:150."""
    org = user("org", superuser=True)
    t = tournament(org)
    services.register_pair(org, t, {"last_name": "Щукин", "first_name": "Илья"},
                           {"last_name": "Ёлкина", "first_name": "Юлия"})
    services.register_pair(org, t, {"last_name": "Ширинкина-Заболоцкая", "first_name": "Антонина"},
                           {"last_name": "Голенищева-Кутузова", "first_name": "Анастасия"})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    finish_tour(tour, {1: (200, 150)})
    rating.refresh("sports")
    return t


def test_a_player_is_found_by_the_latin_spelling_of_his_name_on_a_phone(live_server, browser, cup):
    from playwright.sync_api import expect

    context = browser.new_context(**PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_role("navigation", name="Главное меню").get_by_role("link", name="Игроки").tap()
    page.get_by_label("Имя или номер в федерации").fill("Iuliia Elkina")  # as in her passport
    page.get_by_role("button", name="Найти").tap()
    expect(page.get_by_role("heading", name="Найден 1 игрок")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("link", name="Ёлкина Юлия").tap()
    expect(page.get_by_role("heading", name="Ёлкина Юлия", level=1)).to_be_visible()
    row = page.locator("table.played tbody tr").first
    expect(row).to_contain_text("Щукин Илья")  # her partner
    expect(row).to_contain_text("200 : 150")
    expect(row).to_contain_text("победа")
    chart = page.locator("figure.rating-chart")
    expect(chart.locator("figcaption")).to_contain_text("Рейтинг в игре «Спортивное домино»")
    box = chart.locator("svg").bounding_box()
    assert box is not None and box["width"] <= 390 and box["height"] > 100
    chart.get_by_text("График таблицей").tap()  # the same numbers, for whoever cannot read the chart
    expect(chart.locator("tbody tr")).to_have_count(1)
    expect(chart.locator("tbody tr")).to_contain_text(cup.name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
