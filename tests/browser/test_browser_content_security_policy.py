"""The pages and the API's Swagger UI work under the Content-Security-Policy: Chromium reports no
violation (it logs each one on the console), and Swagger UI sends a request from "Try it out".

Debian's Chromium (/usr/bin/chromium) driven by Playwright; without it the test is skipped,
with REQUIRE_SERVICES=1 it fails (tests/conftest.py, marker ``browser``).
"""

import pytest

from builders import refereed_tour
from scoring.recording import commands

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = [
    "/", "/tournaments/", "/en/tournaments/cup/", "/tournaments/cup/tours/1/", "/tournaments/cup/standings/",
    "/referee/", "/tournaments/cup/tours/1/tables/1/sheet/", "/tournaments/cup/tours/1/tables/1/sheet/history/",
    "/tournaments/cup/tours/1/tables/1/protocol/", "/tournaments/cup/tours/1/tables/1/protocol/confirm/",
    "/tournaments/cup/tours/1/protocol/", "/tournaments/cup/protocol/", "/tournaments/cup/tours/1/protocols/",
    "/tournaments/cup/tours/1/tables/1/live/", "/tournaments/cup/tours/1/tables/1/play/",
    "/tournaments/cup/tours/1/tables/1/referee/",
    "/verify/", "/manage/", "/manage/new/", "/tournaments/cup/manage/", "/tournaments/cup/manage/edit/",
    "/tournaments/cup/manage/entries/", "/tournaments/cup/manage/tours/1/", "/tournaments/cup/manage/tours/1/print/",
    "/tournaments/cup/manage/signing/", "/admin/", "/admin/auth/user/", "/no-such-page/",
]


def test_pages_and_swagger_ui_keep_to_the_policy(live_server, browser):
    from playwright.sync_api import expect

    world = refereed_tour()
    commands.record(world["ref"], world["p1"].pk, "lead", {"seat": 2})
    commands.record(world["ref"], world["p1"].pk, "deal", {"end": "domino", "seat": 2, "pips": {"A": 30, "B": 12}})
    context = browser.new_context()
    context.set_default_timeout(20_000)
    page = context.new_page()
    violations = []
    page.on("console", lambda message: "Content Security Policy" in message.text
            and violations.append((page.url, message.text)))
    page.on("pageerror", lambda error: violations.append((page.url, str(error))))

    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Имя пользователя").fill("org")
    page.get_by_label("Пароль").fill("pw-org")
    page.get_by_role("main").get_by_role("button", name="Войти").click()
    expect(page.get_by_role("button", name="Выйти (org)")).to_be_visible()
    for path in PAGES:
        response = page.goto(live_server.url + path)
        assert response.status == (404 if path == "/no-such-page/" else 200), path
        assert "default-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("load")
    # The print view has its stylesheet: the sheet's tables have their borders.
    page.goto(live_server.url + "/tournaments/cup/tours/1/tables/1/protocol/")
    border = page.locator(".protocol table.deals td").first.evaluate("e => getComputedStyle(e).borderTopStyle")
    assert border == "solid"

    # Swagger UI: the operations are drawn, and "Try it out" sends a request and shows the answer.
    page.goto(live_server.url + "/api/docs/")
    operation = page.locator(".opblock-get", has=page.locator(".opblock-summary-path[data-path='/api/tournaments/']"))
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    expect(operation.locator(".live-responses-table .response .response-col_status")).to_have_text("200")
    expect(operation.locator(".live-responses-table .response .response-col_description")).to_contain_text('"count": 1')

    assert violations == []
