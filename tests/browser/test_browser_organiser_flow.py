"""An organiser runs three Swiss tours in a real browser, then a visitor reads the draws,
on a desktop and on a phone.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import re

import pytest
from django.contrib.auth.models import Permission

from builders import finish_tour, user
from tournaments.models import Tour, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SURNAMES = [
    "Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков", "Фёдоров",
    "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов", "Николаев",
    "Орлов", "Андреев", "Макаров", "Никитин", "Захаров", "Зайцев", "Соловьёв", "Борисов", "Яковлев", "Григорьев",
    "Романов", "Воробьёв", "Сергеев", "Кузьмин", "Фролов", "Александров", "Дмитриев", "Королёв", "Гусев", "Киселёв",
    "Ильин", "Максимов", "Поляков", "Сорокин", "Виноградов", "Ковалёв", "Белов", "Медведев", "Антонов", "Тарасов",
    "Жуков", "Баранов", "Филиппов", "Комаров", "Давыдов", "Беляев", "Герасимов", "Богданов", "Осипов", "Сидоров",
]
PAIRS = 30
SCREENSHOT = "/tmp/draw-phone.png"


@pytest.fixture
def pairs_csv(tmp_path):
    lines = ["last_name_1;first_name_1;club_1;last_name_2;first_name_2;club_2"]
    for n in range(PAIRS):
        lines.append(f"{SURNAMES[2 * n]};Иван;Клуб {n % 5 + 1};{SURNAMES[2 * n + 1]};Пётр;Клуб {n % 5 + 1}")
    path = tmp_path / "pairs.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def names_at_tables(tour: Tour) -> list[str]:
    return [str(p) for t in tour.tables.select_related("seat1", "seat2", "seat3", "seat4") for p in t.seats]


def draw_and_publish(page, number: int) -> None:
    from playwright.sync_api import expect

    page.get_by_role("link", name="Обзор и туры").click()
    page.get_by_role("link", name="Жеребьёвка следующего тура").click()
    expect(page.get_by_role("heading", name=f"Жеребьёвка тура {number}")).to_be_visible()
    page.get_by_role("button", name="Провести жеребьёвку").click()
    expect(page).to_have_url(re.compile(rf"/manage/tours/{number}/$"))
    expect(page.locator(".draw-table")).to_have_count(15)
    page.get_by_role("button", name="Опубликовать тур").click()
    expect(page.get_by_text(f"Тур {number} опубликован.")).to_be_visible()


def test_organiser_runs_three_tours_and_a_visitor_reads_the_draws(live_server, browser, pairs_csv):
    from playwright.sync_api import expect

    organiser = user("org")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()

    # Sign in, as a new user would: from the home page.
    page.goto(live_server.url + "/")
    page.get_by_role("main").get_by_role("link", name="Войти").click()
    page.get_by_label("Имя пользователя").fill("org")
    page.get_by_label("Пароль").fill("pw-org")
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_role("heading", name="Мои турниры")).to_be_visible()

    # A Swiss tournament with the default regulations.
    page.get_by_role("link", name="Новый турнир").click()
    page.get_by_label("Название").fill("Кубок города")
    page.get_by_label("Краткое имя").fill("city-cup")
    page.get_by_label("Место проведения").fill("Дом культуры")
    page.get_by_label("Начало").fill("2026-11-21")
    page.get_by_label("Окончание").fill("2026-11-22")
    page.get_by_label("Система проведения").select_option("swiss")
    page.get_by_role("button", name="Создать турнир").click()
    expect(page).to_have_url(re.compile(r"/tournaments/city-cup/manage/$"))

    # Thirty pairs from a CSV file.
    page.get_by_role("link", name="Импорт CSV").click()
    page.get_by_label("Файл CSV").set_input_files(str(pairs_csv))
    page.get_by_role("button", name="Импортировать").click()
    expect(page.get_by_text("Импортировано 30 пар.")).to_be_visible()
    expect(page.locator(".list-item")).to_have_count(PAIRS)

    # Three tours: drawn, checked, published; the results are written between tours.
    cup = Tournament.objects.get(slug="city-cup")
    for number in (1, 2, 3):
        draw_and_publish(page, number)
        if number < 3:
            finish_tour(cup.tours.get(number=number))
    tours = {t.number: t for t in cup.tours.all()}
    assert [t.tables.count() for t in tours.values()] == [15, 15, 15]

    # The organiser leaves; a visitor reads every draw.
    page.get_by_role("button", name=re.compile("Выйти")).click()
    expect(page.get_by_role("navigation", name="Главное меню").get_by_role("link", name="Войти")).to_be_visible()
    page.get_by_role("navigation", name="Главное меню").get_by_role("link", name="Турниры").click()
    page.get_by_role("link", name="Кубок города").click()
    expect(page.get_by_role("heading", name="Кубок города")).to_be_visible()
    expect(page.get_by_role("link", name="Управление турниром")).to_have_count(0)
    for number in (1, 2, 3):
        page.get_by_role("link", name=f"Тур {number}", exact=True).click()
        expect(page.get_by_role("heading", name=f"Тур {number}")).to_be_visible()
        expect(page.locator(".draw-table")).to_have_count(15)
        draw = page.locator("ol.draw").inner_text()
        for name in names_at_tables(tours[number]):
            assert name in draw
    context.close()

    # The same draw on a phone: readable, nothing wider than the screen.
    phone = browser.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.goto(live_server.url + "/tournaments/city-cup/tours/3/")
    expect(page.locator(".draw-table")).to_have_count(15)
    first = page.locator(".draw-table").first
    expect(first).to_be_visible()
    expect(first.get_by_role("heading", name="Стол 1")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    box = first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    for name in names_at_tables(tours[3])[:4]:
        assert name in first.inner_text()
    page.screenshot(path=SCREENSHOT)
    phone.close()
