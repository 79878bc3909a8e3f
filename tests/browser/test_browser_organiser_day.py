"""An organiser's day from zero, on the site's own pages only (no admin page, no API call): a
superuser makes his login, he creates the tournament, adds a new referee, imports a Russian CSV,
prints the PINs, draws and publishes tour 1, places the referees and prints the paper forms; the
referee records a table from the paper on his phone and the players sign it with their PINs; the
other tables are recorded, tour 2 keeps the referees, a name is corrected, a withdrawal undone,
and the final protocol printed.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``). The PDFs are read back
with pdftotext (poppler-utils).
"""

import re
import shutil
import subprocess
from urllib.parse import urljoin

import pytest

from builders import user
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
NAME = ("Открытый кубок Ленинградской области по спортивному домино памяти заслуженного тренера "
        "Иванова")
PAIRS = [("Абрамов", "Антон", "Борисов", "Борис", "Спартак"), ("Васильев", "Виктор", "Григорьев", "Глеб", "Динамо"),
         ("Дмитриев", "Денис", "Егоров", "Евгений", "Зенит"), ("Жуков", "Захар", "Зайцев", "Иван", "Спартак"),
         ("Ильин", "Игорь", "Козлов", "Кирилл", "Динамо"), ("Лебедев", "Лев", "Морозов", "Максим", "Зенит"),
         ("Новиков", "Никита", "Орлов", "Олег", "Спартак"), ("Павлов", "Пётр", "Романов", "Роман", "Динамо"),
         ("Семёнов", "Сергей", "Тарасов", "Тимур", "Зенит")]


def problems_of(page, problems: list) -> None:
    """Every console error and uncaught page error lands in ``problems``."""
    page.on("console", lambda message: message.type == "error" and problems.append((page.url, message.text)))
    page.on("pageerror", lambda error: problems.append((page.url, str(error))))


def fits(page) -> None:
    """Nothing on the page is wider than the screen."""
    page.wait_for_load_state("load")
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url
    # Nor is any table cell's content wider than its cell (it would overlap the next one); a
    # visually hidden header (of a table stacked on a phone) is no cell to read.
    spilled = page.evaluate("""[...document.querySelectorAll('td, th')]
        .filter(cell => cell.parentElement.getBoundingClientRect().width > 1)
        .filter(cell => cell.scrollWidth > cell.clientWidth + 1).map(cell => cell.textContent.trim())""")
    assert spilled == [], (page.url, spilled)


def pdf_text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF-")
    return subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=pdf, check=True,
                          capture_output=True).stdout.decode()


def linked_pdf(page, link) -> str:
    """The text of the PDF a link opens (inline: the browser would show it in its viewer), fetched
    with the page's own session."""
    response = page.context.request.get(urljoin(page.url, link.get_attribute("href")))
    assert response.ok and response.headers["content-type"] == "application/pdf", response.status
    return pdf_text(response.body())


def log_in(page, base: str, login: str, password: str) -> None:
    from playwright.sync_api import expect

    page.goto(base + "/accounts/login/")
    page.get_by_label("Имя пользователя").fill(login)
    page.get_by_label("Пароль").fill(password)
    page.get_by_role("main").get_by_role("button", name="Войти").click()
    expect(page.get_by_role("button", name=f"Выйти ({login})")).to_be_visible()
    fits(page)


def set_password(page, link: str, password: str) -> None:
    from playwright.sync_api import expect

    page.goto(link)
    expect(page.get_by_role("heading", name="Выберите пароль")).to_be_visible()
    fits(page)
    page.locator("input[name=new_password1]").fill(password)
    page.locator("input[name=new_password2]").fill(password)
    page.get_by_role("button", name="Установить пароль").click()
    fits(page)


def one_time_link(page, base: str) -> str:
    link = page.locator("code.link").inner_text().strip()
    return link if link.startswith("http") else base + link


def record_partition(page, expect, deals: list[tuple[int, int, int]]) -> None:
    """The sheet of a table, from the lead draw (seat 1 won it) to the end, deal by deal:
    (seat that played domino, pips of pair A, pips of pair B)."""
    tap = page.viewport_size["width"] < 500  # a phone: touched, not clicked
    step = page.locator("[aria-labelledby=step-title]")
    expect(page.get_by_role("heading", name="Розыгрыш первого хода")).to_be_visible()
    fits(page)
    button = step.get_by_role("button", name=re.compile(r"^1\s"))
    button.tap() if tap else button.click()
    for n, (seat, pips_a, pips_b) in enumerate(deals, 1):
        form = page.locator("form.deal-form")
        expect(page.get_by_role("heading", name=re.compile(rf"^Кон {n}\b"))).to_be_visible()
        fits(page)
        choice = form.locator(f"label.choice:has(input[name=end][value=domino-{seat}])")
        choice.tap() if tap else choice.click()
        form.get_by_label("Пара A").fill(str(pips_a))
        form.get_by_label("Пара B").fill(str(pips_b))
        submit = form.get_by_role("button", name=f"Записать кон {n}")
        submit.tap() if tap else submit.click()
    expect(page.get_by_role("heading", name="Партия окончена")).to_be_visible()
    fits(page)


@pytest.fixture
def russian_csv(tmp_path):
    """The pairs as a Russian spreadsheet saves them: Windows-1251, semicolons, Russian headers."""
    lines = ["Фамилия 1;Имя 1;Фамилия 2;Имя 2;Клуб"] + [";".join(row) for row in PAIRS]
    path = tmp_path / "пары.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1251"))
    return path


def test_an_organisers_day_from_zero(live_server, browser, russian_csv, settings):
    # 26 passwords and PINs are hashed on the way: PBKDF2's deliberate slowness (a second each on
    # a busy machine) is not what this test is about.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from playwright.sync_api import expect

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is missing")
    base = live_server.url
    user("root", superuser=True)
    # A referee who has a login already (from an earlier event), with his full name.
    petrova = user("petrova")
    petrova.last_name, petrova.first_name = "Петрова", "Анна"
    petrova.save()
    problems: list = []

    def context(kind):
        made = browser.new_context(**kind)
        made.set_default_timeout(20_000)
        page = made.new_page()
        problems_of(page, problems)
        return page

    # 1. The superuser makes the organiser's login on the organisers' page.
    root = context(DESKTOP)
    log_in(root, base, "root", "pw-root")
    root.goto(base + "/manage/organisers/")
    fits(root)
    new = root.locator("form[action$='/manage/organisers/new/']")
    new.get_by_label("Логин").fill("orlova")
    new.get_by_label("Фамилия").fill("Орлова")
    new.get_by_label("Имя").fill("Ольга")
    new.get_by_role("button", name="Создать логин").click()
    fits(root)
    organiser_link = one_time_link(root, base)
    root.context.close()

    # 2. The organiser sets her password by the link and signs in.
    page = context(DESKTOP)
    set_password(page, organiser_link, "Orlova-day-2026")
    log_in(page, base, "orlova", "Orlova-day-2026")

    # 3. The tournament: a long Cyrillic name, the short name made from it, tour 1 by a random draw.
    page.goto(base + "/manage/")
    page.get_by_role("link", name="Новый турнир").click()
    fits(page)
    page.get_by_label("Название").fill(NAME)
    page.get_by_label("Место проведения").fill("Гатчина, Дом культуры")
    page.get_by_label("Начало").fill("2026-11-28")
    page.get_by_label("Окончание").fill("2026-11-28")
    page.get_by_label("Система проведения").select_option("swiss")
    page.get_by_label("Посев первого тура").select_option("random")
    page.get_by_label("Игра до, очков").fill("100")
    page.get_by_label("Текст регламента").fill("Партия до 100 очков. Опоздание более чем на 15 минут — неявка.")
    page.get_by_role("button", name="Создать турнир").click()
    cup = Tournament.objects.get()
    assert cup.name == NAME and re.fullmatch(r"[a-z0-9-]+", cup.slug) and cup.slug.startswith("otkrytyi-kubok")
    slug = cup.slug
    expect(page).to_have_url(re.compile(rf"/tournaments/{slug}/manage/$"))
    expect(page.get_by_role("heading", name=NAME)).to_be_visible()
    fits(page)

    # 4. The staff: an existing login, and a new referee with his full name and one-time link.
    page.get_by_role("link", name="Судьи и организаторы").click()
    fits(page)
    existing = page.locator("form:not([action])").filter(has=page.get_by_label("Логин"))
    existing.get_by_label("Логин").fill("petrova")
    existing.get_by_label("Роль").select_option("referee")
    existing.get_by_role("button", name="Назначить").click()
    expect(page.get_by_text("Петрова Анна")).to_be_visible()  # surname first, as a player's name
    new = page.locator(f"form[action$='/tournaments/{slug}/manage/staff/new/']")
    new.get_by_label("Логин").fill("ilin")
    new.get_by_label("Фамилия").fill("Ильин")
    new.get_by_label("Имя").fill("Илья")
    new.get_by_label("Роль").select_option("referee")
    new.get_by_role("button", name="Создать логин и назначить роль").click()
    fits(page)
    referee_link = one_time_link(page, base)
    referee = context(PHONE)
    set_password(referee, referee_link, "Ilin-referee-2026")

    # 5. The entries: a CSV saved from a Russian spreadsheet.
    page.goto(base + f"/tournaments/{slug}/manage/")
    page.get_by_role("link", name="Импорт CSV").click()
    fits(page)
    page.get_by_label("Файл CSV").set_input_files(str(russian_csv))
    page.get_by_role("button", name="Импортировать").click()
    expect(page.get_by_text("Импортировано 9 пар.")).to_be_visible()
    fits(page)

    # 6. The PINs: generated for everyone and printed as slips, read back from the PDF.
    page.get_by_role("link", name=re.compile("PIN-коды")).click()
    fits(page)
    with page.expect_download() as slips:
        page.get_by_role("button", name="Создать им PIN-коды и напечатать карточки (PDF)").click()
    text = pdf_text(open(slips.value.path(), "rb").read())
    # Two slips a row: pdftotext reads a row's two names, then its two PINs (its letter spacing
    # may part a PIN's digits: "5 21088").
    everyone = {f"{p[0]} {p[1]}" for p in PAIRS} | {f"{p[2]} {p[3]}" for p in PAIRS}
    lines = [line.strip() for line in text.splitlines()]
    names = [line for line in lines if line in everyone]
    printed = [line.replace(" ", "") for line in lines if re.fullmatch(r"\d[\d ]{2,10}\d", line)]
    pins = dict(zip(names, printed, strict=True))
    # Each slip's link to choose one's own PIN, in the same order (pdftotext may break it anywhere).
    joined = re.sub(r"\s+", "", text)
    links = dict(zip(names, re.findall(r"https?://[^/]+/pin/[A-Za-z0-9_-]+/", joined), strict=True))
    assert len(pins) == 18 and all(re.fullmatch(r"\d{4,8}", pin) for pin in pins.values())

    # 7. Tour 1: drawn (random seeding, its seed shown), published, the referees placed evenly.
    page.goto(base + f"/tournaments/{slug}/manage/")
    page.get_by_role("link", name="Жеребьёвка следующего тура").click()
    fits(page)
    page.get_by_role("button", name="Провести жеребьёвку").click()
    expect(page).to_have_url(re.compile(r"/manage/tours/1/$"))
    expect(page.locator(".draw-table")).to_have_count(4)
    tour1 = cup.tours.get(number=1)
    expect(page.locator(".draw-seed")).to_contain_text(f"ключ {tour1.draw_seed}")
    fits(page)
    page.get_by_role("button", name="Опубликовать тур").click()
    expect(page.get_by_text("Тур 1 опубликован.")).to_be_visible()
    page.get_by_role("button", name="Расставить судей равномерно").click()
    fits(page)
    referees = {t.number: t.referee.username for t in tour1.tables.select_related("referee")}
    assert sorted(referees.values()) == ["ilin", "ilin", "petrova", "petrova"], referees

    # 8. The paper forms of tour 1, read back.
    text = linked_pdf(page, page.get_by_role("link", name="Бумажные протоколы (PDF)"))
    for table in tour1.tables.select_related("seat1", "seat2", "seat3", "seat4"):
        assert f"Стол {table.number}" in text
        for player in table.seats:
            assert str(player) in text, player
    assert "Тур 1" in text and "Ильин Илья" in text
    wall = linked_pdf(page, page.get_by_role("link", name="Рассадка на стену (PDF)"))
    assert all(name in wall for name in pins)

    # 9. The referee, on his phone, records his first table from the paper, deal by deal.
    log_in(referee, base, "ilin", "Ilin-referee-2026")
    referee.get_by_role("navigation", name="Главное меню").get_by_role("link", name="Мои столы").tap()
    expect(referee.get_by_role("heading", name="Мои столы")).to_be_visible()
    fits(referee)
    mine = sorted(n for n, login in referees.items() if login == "ilin")
    referee.get_by_role("link", name=re.compile(rf"Стол {mine[0]}\b")).first.tap()
    # The four players check in.
    check_in = referee.locator("section[aria-labelledby=check-in-title]")
    for seat in (1, 2, 3, 4):
        check_in.locator(f"button[name=seat][value='{seat}']").tap()
        expect(referee.locator("section[aria-labelledby=check-in-title] .seat-button--present")).to_have_count(seat)
    fits(referee)
    record_partition(referee, expect, [(2, 20, 5), (1, 10, 50), (3, 15, 40)])   # B 25, A 60, A 115
    expect(referee.locator(".verdict")).to_contain_text("Пара A выиграла")

    # The four players sign with their PINs on the confirmation page.
    referee.get_by_role("link", name="Протокол на подпись").tap()
    expect(referee.get_by_role("link", name="Подтвердить за столом")).to_be_visible()
    fits(referee)
    referee.get_by_role("link", name="Подтвердить за столом").tap()
    expect(referee.locator("#seat-4")).to_be_visible()
    fits(referee)
    table = tour1.tables.select_related("seat1", "seat2", "seat3", "seat4").get(number=mine[0])
    # The player at seat 1 has chosen his own PIN by his slip's link, on his own phone.
    own = context(PHONE)
    own.goto(links[str(table.seat1)])
    expect(own.get_by_role("heading", name="Выберите свой PIN-код")).to_be_visible()
    fits(own)
    own.locator("#printed").fill(pins[str(table.seat1)])
    own.locator("#pin").fill("20261128")
    own.locator("#pin_again").fill("20261128")
    own.get_by_role("button", name="Сохранить PIN-код").tap()
    expect(own.get_by_text("Эта ссылка больше не действует")).to_be_visible()
    fits(own)
    own.context.close()
    pins[str(table.seat1)] = "20261128"
    for seat, player in enumerate(table.seats, 1):
        row = referee.locator(f"#seat-{seat}")
        row.locator("input[name=pin]").fill(pins[str(player)])
        row.get_by_role("button", name="Подтвердить PIN-кодом").tap()
        expect(referee.locator(f"#seat-{seat}.done")).to_be_visible()
        fits(referee)
    referee.get_by_role("button", name="Подтвердить как судья").tap()
    expect(referee.locator("#seat-0.done")).to_be_visible()
    fits(referee)
    signed = linked_pdf(referee, referee.get_by_role("link", name="Подписанный PDF"))
    assert all(str(player) in signed for player in table.seats) and "Ильин Илья" in signed

    # 10. The other tables of tour 1 on their sheets: the referee his second, the organiser the rest.
    referee.goto(base + f"/tournaments/{slug}/tours/1/tables/{mine[1]}/sheet/")
    record_partition(referee, expect, [(1, 60, 50)])
    for number in sorted(n for n, login in referees.items() if login == "petrova"):
        page.goto(base + f"/tournaments/{slug}/tours/1/tables/{number}/sheet/")
        record_partition(page, expect, [(2, 60, 50)])
    tour1.refresh_from_db()
    assert tour1.status == "finished"

    # 11. Tour 2: its tables keep their referees.
    page.goto(base + f"/tournaments/{slug}/manage/")
    page.get_by_role("link", name="Жеребьёвка следующего тура").click()
    page.get_by_role("button", name="Провести жеребьёвку").click()
    expect(page).to_have_url(re.compile(r"/manage/tours/2/$"))
    page.get_by_role("button", name="Опубликовать тур").click()
    expect(page.get_by_text("Тур 2 опубликован.")).to_be_visible()
    fits(page)
    tour2 = cup.tours.get(number=2)
    assert {t.number: t.referee.username for t in tour2.tables.select_related("referee")} == referees

    # 12. A name corrected: the history shows it.
    page.get_by_role("link", name="Пары").first.click()
    fits(page)
    page.get_by_role("link", name="Исправить: Жуков Захар…").click()
    fits(page)
    page.get_by_label("Фамилия").fill("Жукович")
    page.get_by_role("button", name="Сохранить").click()
    history = page.locator("section[aria-labelledby=entry-changes]")
    expect(history).to_contain_text("«Жуков» → «Жукович»")
    fits(page)

    # 13. A withdrawal, undone.
    pair = page.locator(".list-item", has_text="№9")
    pair.get_by_role("link", name="Снять…").click()
    fits(page)
    page.get_by_role("button", name="Снять с турнира").click()
    pair = page.locator(".list-item", has_text="№9")
    expect(pair.locator(".badge")).to_be_visible()
    pair.get_by_role("button", name="Отменить снятие").click()
    expect(page.locator(".list-item", has_text="№9").locator(".badge")).to_have_count(0)
    assert cup.pairs.get(number=9).withdrawn_at is None

    # 14. Tour 2 recorded by the organiser; the tournament finished.
    for table in tour2.tables.order_by("number"):
        page.goto(base + f"/tournaments/{slug}/tours/2/tables/{table.number}/sheet/")
        record_partition(page, expect, [(1, 60, 50)])
    page.goto(base + f"/tournaments/{slug}/manage/")
    page.get_by_role("link", name="Турнир и регламент").click()
    page.get_by_label("Статус").select_option("finished")
    page.get_by_role("button", name="Сохранить").click()
    fits(page)
    cup.refresh_from_db()
    assert cup.status == "finished"

    # 15. The final protocol, signed, with the corrected name.
    page.goto(base + f"/tournaments/{slug}/manage/")
    page.get_by_role("link", name="Итоговый протокол").click()
    fits(page)
    text = linked_pdf(page, page.get_by_role("link", name="Подписанный PDF"))
    assert "Жукович Захар" in text and "Жуков Захар" not in text
    assert NAME[:40] in text and "Партия до 100 очков." in text

    # The organiser's pages of the day fit a phone as well.
    phone = context(PHONE)
    log_in(phone, base, "orlova", "Orlova-day-2026")
    manage = f"/tournaments/{slug}/manage/"
    corrected = cup.pairs.get(number=4).first
    for path in [manage, manage + "staff/", manage + "entries/", manage + "pins/", manage + "tours/2/",
                 manage + "tours/2/referees/", manage + f"entries/players/{corrected.pk}/edit/", manage + "edit/",
                 f"/tournaments/{slug}/", f"/tournaments/{slug}/protocol/"]:
        assert phone.goto(base + path).status == 200, path
        fits(phone)

    assert problems == []
