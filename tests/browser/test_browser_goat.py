"""The organiser records a game of Goat at a table of three (a bazaar of 7 tiles, RULES 9.1) on
the Goat score sheet on his phone, deal by deal (a void first deal among them), and the public standings then show each
player's game points, goats and total score, on a desktop screen.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import re

import pytest

from builders import tournament, user
from scoring.models import Partition
from tournaments import services, tours
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1920, "height": 1080}}
NAMES = (("Преображенский-Воскресенский", "Константин"), ("Богословская-Троекуровская", "Александра"),
         ("Старокрестовоздвиженский", "Вячеслав"))


@pytest.fixture
def table():
    """An individual Goat event of three players (a goat at 40), tour 1 drawn and published."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="kozel",
                   regulations={"game": "goat", "lose_at": 40})
    for last, first in NAMES:
        services.register_player(org, t, {"last_name": last, "first_name": first})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    return tour.tables.get()


def watch(page, problems: list) -> None:
    """Collect a page's console errors and uncaught script errors."""
    page.on("console", lambda message: message.type == "error" and problems.append((page.url, message.text)))
    page.on("pageerror", lambda error: problems.append((page.url, str(error))))


def record_deal(page, expect, n: int, end: str, *, lead: int | None = None, seat: int | None = None,
                values: dict[int, int] | None = None) -> None:
    """Fill and send the sheet's form for deal ``n``, as the organiser would by tapping and typing."""
    form = page.locator("form.deal-form")
    expect(page.get_by_role("heading", name=re.compile(rf"^Кон {n}$"))).to_be_visible()
    if lead is not None:
        form.get_by_label("Кто заходил в первом коне партии").select_option(str(lead))
    form.get_by_label(end, exact=True).tap()
    if seat is not None:
        form.get_by_label("Место (кто сделал домино или поставил рыбу)").select_option(str(seat))
    for number, value in (values or {}).items():
        form.locator(f"input[name=value_{number}]").fill(str(value))
    form.get_by_role("button", name="Записать кон").tap()
    expect(page.locator(".messages")).to_contain_text("Кон записан.")


def deal_row(page, n: int) -> list[str]:
    return [cell.strip() for cell in page.locator("table.deals tbody tr").nth(n - 1).locator("td").all_inner_texts()]


def test_the_organiser_records_a_goat_game_with_a_bazaar_and_reads_the_standings(live_server, browser, table):
    from playwright.sync_api import expect

    problems: list = []
    players = table.players
    assert len(players) == 3
    context = browser.new_context(**PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch(page, problems)

    # The organiser signs in on his phone and opens table 1's score sheet from his tables.
    page.goto(live_server.url + "/")
    page.get_by_role("main").get_by_role("link", name="Войти").tap()
    page.get_by_label("Имя пользователя").fill("org")
    page.get_by_label("Пароль").fill("pw-org")
    page.get_by_role("button", name="Войти").tap()
    page.get_by_role("navigation", name="Главное меню").get_by_role("link", name="Мои столы").tap()
    expect(page.get_by_role("heading", name="Мои столы")).to_be_visible()
    page.get_by_role("link", name=re.compile("Стол 1")).tap()
    expect(page.get_by_role("heading", name="Партия 1 из 1")).to_be_visible()
    for number, player in enumerate(players, 1):
        expect(page.locator("form.deal-form")).to_contain_text(f"{number}. {player}")

    # Opening 13, fish for all (the defaults); scores as (seat 1, seat 2, seat 3).
    # Deal 1: seat 2 is dealt five doubles, a redeal before anybody led: nothing scored, and the
    # deal dealt again is led by its own hands, so the sheet still asks who led.
    record_deal(page, expect, 1, "Пересдача (кон недействителен)")
    assert deal_row(page, 1) == ["1", "—", "Пересдача", "—", "—", "—", "0", "0", "0"]
    expect(page.locator("form.deal-form").get_by_label("Кто заходил в первом коне партии")).to_be_visible()

    # Deal 2, led by seat 1 (he holds 1-1): seat 1 makes domino. Seat 2 holds 12: under 13,
    # memorised, his score stays closed; seat 3 holds 20: opens. Scores 0, 0, 20.
    record_deal(page, expect, 2, "Домино", lead=1, seat=1, values={2: 12, 3: 20})
    assert deal_row(page, 2) == ["2", "1", "Домино · 1", "0", "12", "20", "0", "0", "20"]
    expect(page.locator(".leader")).to_contain_text("Заходит: место 1")
    expect(page.locator("form.deal-form").get_by_label("Кто заходил в первом коне партии")).to_have_count(0)

    # Deal 3: six tiles of one number in a hand, a redeal: nothing scored, seat 1 leads again.
    record_deal(page, expect, 3, "Пересдача (кон недействителен)")
    assert deal_row(page, 3) == ["3", "1", "Пересдача", "—", "—", "—", "0", "0", "20"]
    expect(page.locator(".leader")).to_contain_text("Заходит: место 1")

    # Deal 4: seat 2 places the tile that makes fish (nothing fits, the bazaar is empty); fish
    # for all charges every hand. Seat 1's 5 is memorised; seat 2's 15 opens him with his 12
    # memorised: 27; seat 3, open, 20 + 8 = 28. Scores 0, 27, 28; seat 2 leads next.
    record_deal(page, expect, 4, "Рыба", seat=2, values={1: 5, 2: 15, 3: 8})
    assert deal_row(page, 4) == ["4", "1", "Рыба · 2", "5", "15", "8", "0", "27", "28"]
    expect(page.locator(".leader")).to_contain_text("Заходит: место 2")

    # Deal 5, led by seat 2: he makes domino. Seat 1's 10 is memorised again (5 + 10 = 15, never
    # counted); seat 3: 28 + 14 = 42, at 40 or more: the goat, and the game is over.
    record_deal(page, expect, 5, "Домино", seat=2, values={1: 10, 3: 14})
    assert deal_row(page, 5) == ["5", "2", "Домино · 2", "10", "0", "14", "0", "27", "42"]
    # Game points (100 - score) / 10 rounded half up, the goat 0: 10, 7 (7.3), 0.
    expect(page.get_by_role("heading", name="Партия 1 из 1 · окончена")).to_be_visible()
    expect(page.locator(".verdict")).to_have_text("Игровые очки: 10 · 7 · 0 · козёл: 3")
    expect(page.get_by_role("heading", name="Серия партий окончена")).to_be_visible()
    expect(page.locator("form.deal-form")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/goat-sheet-phone.png", full_page=True)
    partition = Partition.objects.get(table=table)
    assert (partition.status, partition.deals) == ("finished", 5)
    results = {r.seat: (r.game_points, r.goats, r.score) for r in partition.seat_results.all()}
    assert results == {1: (10, 0, 0), 2: (7, 0, 27), 3: (0, 1, 42)}
    context.close()

    # The public standings, on a desktop: game points, then goats, then total score.
    desktop = browser.new_context(**DESKTOP)
    desktop.set_default_timeout(20_000)
    page = desktop.new_page()
    watch(page, problems)
    page.goto(live_server.url + "/tournaments/kozel/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(3)
    header = [h.strip() for h in page.locator("table.standings thead th").all_inner_texts()]
    assert header[2:5] == ["Игровые очки", "Козлы", "Сумма очков"]
    expected = [("1", players[0], "10", "0", "0"), ("2", players[1], "7", "0", "27"),
                ("3", players[2], "0", "1", "42")]
    for row, (rank, player, game_points, goats, total) in zip(rows.all(), expected):
        expect(row.locator("th")).to_have_text(str(player))
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        values = dict(zip(header[2:], cells[1:]))
        assert (cells[0], values["Игровые очки"], values["Козлы"], values["Сумма очков"], values["Сыграно"]) == \
            (rank, game_points, goats, total, "1")
    page.screenshot(path="/tmp/goat-standings-desktop.png", full_page=True)
    desktop.close()
    assert problems == []
