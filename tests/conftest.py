"""Service markers and the real Celery worker fixture.

A test marked `postgres`, `redis`, `worker`, `browser` or `pdfsig` is skipped, with the reason,
when its service is missing; with REQUIRE_SERVICES=1 (as .ci/run sets) it fails instead, so CI cannot go
green by skipping what it exists to check.
"""

import functools
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connections
from django.test import override_settings
from django.utils import translation

from config import celery_app

BASE_DIR = Path(__file__).resolve().parent.parent
WORKER_READY_TIMEOUT = 60
WORKER_LOG = pytest.StashKey[Path]()
CHROMIUM = Path("/usr/bin/chromium")


@functools.cache
def redis_problem() -> str | None:
    """Why Redis cannot be used, or None when REDIS_URL answers PING."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return "REDIS_URL is not set"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return f"no answer to PING at {url}: {exc}"
    return None


def postgres_missing() -> str | None:
    if connections["default"].vendor != "postgresql":
        return "needs PostgreSQL: DATABASE_URL is not a postgres URL"
    return None


def redis_missing() -> str | None:
    problem = redis_problem()
    return f"needs Redis: {problem}" if problem else None


def worker_missing() -> str | None:
    # The worker needs the configured broker; the filesystem broker is always there.
    if os.environ.get("REDIS_URL") and (problem := redis_problem()):
        return f"needs the Celery broker: {problem}"
    return None


def browser_missing() -> str | None:
    # Debian's Chromium, driven by Playwright; never a browser build downloaded by Playwright.
    if not CHROMIUM.exists():
        return f"needs Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def pdfsig_missing() -> str | None:
    # poppler-utils: pdfsig checks the signatures of the protocol PDFs as a reader would.
    if not shutil.which("pdfsig"):
        return "needs pdfsig (apt-get install poppler-utils)"
    return None


SERVICE_CHECKS = {"postgres": postgres_missing, "redis": redis_missing, "worker": worker_missing,
                  "browser": browser_missing, "pdfsig": pdfsig_missing}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, tmp_path_factory, django_db_modify_db_settings_parallel_suffix):
    """On SQLite, a session with a test that commits (django_db(transaction=True)) gets its test
    database in a file instead of in memory, so that a process the test starts (a Celery worker,
    a management command) can open it: see database_url_for_processes."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    if any((marker := item.get_closest_marker("django_db")) and marker.kwargs.get("transaction")
           for item in request.session.items):
        path = tmp_path_factory.mktemp("database") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(path)


def worker_database_url() -> str | None:
    """The database this test process uses (the test database during a test), as a URL for a
    worker process; None when another process cannot open it (SQLite in memory)."""
    database = connections["default"].settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        name = str(database["NAME"])
        return None if name == ":memory:" or "mode=memory" in name else f"sqlite:///{name}"
    if database["ENGINE"] == "django.db.backends.postgresql":
        from urllib.parse import quote

        credentials = quote(database.get("USER") or "", safe="")
        if database.get("PASSWORD"):
            credentials += ":" + quote(database["PASSWORD"], safe="")
        host = database.get("HOST") or "localhost"
        port = f":{database['PORT']}" if database.get("PORT") else ""
        return f"postgres://{credentials}@{host}{port}/{quote(database['NAME'], safe='')}"
    return None


@pytest.fixture(autouse=True)
def fast_password_hasher():
    """PINs and passwords hashed with MD5 in tests: the production hasher (PBKDF2, a million
    rounds) is slow by design and took most of the suite's time. A hash is checked the same way
    with any hasher; the production one stays listed, so a hash made elsewhere still checks.
    (Not through pytest-django's ``settings`` fixture: some tests name a parameter so.)"""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher",
                                             *settings.PASSWORD_HASHERS]):
        yield


@pytest.fixture(autouse=True)
def english_outside_requests():
    """Code a test calls directly (services, models) speaks the source language, English; a page
    picks its language per request, as LocaleMiddleware does."""
    with translation.override("en"):
        yield


def pytest_runtest_setup(item):
    for marker, missing in SERVICE_CHECKS.items():
        if item.get_closest_marker(marker) and (reason := missing()):
            if os.environ.get("REQUIRE_SERVICES") == "1":
                pytest.fail(f"{reason} (REQUIRE_SERVICES=1)", pytrace=False)
            pytest.skip(reason)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    # A failed worker test shows what the worker logged.
    if report.failed and (log := item.stash.get(WORKER_LOG, None)) and log.exists():
        report.sections.append(("celery worker log", log.read_text(errors="replace")))
    return report


@pytest.fixture
def database_url_for_processes() -> str:
    """DATABASE_URL of the test database, for a process the test starts; the test must commit
    (django_db(transaction=True)) for that process to see its data."""
    url = worker_database_url()
    if url is None:
        pytest.fail("the test database is in memory: mark the test django_db(transaction=True)", pytrace=False)
    return url


@pytest.fixture
def celery_worker_process(request, tmp_path):
    """Start a real worker on a queue of its own and yield the queue name.

    The unique queue keeps a developer's `make run` worker from taking the test's tasks; the
    test must send with apply_async(queue=...).
    """
    queue = f"test-{uuid.uuid4().hex}"
    log_path = tmp_path / "celery-worker.log"
    request.node.stash[WORKER_LOG] = log_path
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool=solo", "--concurrency=1", "-Q", queue, "--loglevel=info",
        "--without-heartbeat", "--without-gossip", "--without-mingle",
    ]
    env = {**os.environ, "CELERY_TASK_DEFAULT_QUEUE": queue}
    # A test with database access shares its (test) database with the worker.
    if database_url := worker_database_url():
        env["DATABASE_URL"] = database_url
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + WORKER_READY_TIMEOUT
        while b" ready." not in log_path.read_bytes():
            if worker.poll() is not None:
                pytest.fail(f"celery worker exited with {worker.returncode}", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(f"celery worker not ready in {WORKER_READY_TIMEOUT} s", pytrace=False)
            time.sleep(0.2)
        yield queue
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


@pytest.fixture
def broker_driver() -> str:
    """The kombu transport the project is configured for."""
    with celery_app.connection_for_write() as conn:
        return conn.transport.driver_type


# -- the clock of live tables in the test's hand (tests/live, tests/trust) ----------------------------


@pytest.fixture
def frozen():
    """The clock of live tables, stopped: tests move it with .advance() and .to()."""
    from livetools import Clock
    from scoring.recording import clock

    fake = Clock()
    with clock.use(fake):
        yield fake
