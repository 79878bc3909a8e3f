"""The browser of the browser tests: Debian's Chromium (/usr/bin/chromium) driven by Playwright,
never a browser Playwright downloads. Without it the tests are skipped, and with
REQUIRE_SERVICES=1 they fail (tests/conftest.py, marker ``browser``)."""

import pytest
from django.db import connections

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session", autouse=True)
def no_connection_left_behind(django_db_setup, django_db_blocker):
    """ORM calls made while Playwright's sync API is running happen in a context (greenlet) of
    their own, whose connection Django never closes; on PostgreSQL it would keep the test
    database busy when pytest drops it. End such sessions once the browser tests are done."""
    yield
    with django_db_blocker.unblock():
        connection = connections["default"]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture
def browser(monkeypatch):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls of a test (creating
    # users, writing results between tours) are plain synchronous code all the same.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()

