"""Fixtures of the API tests; the world itself is built in apiworld.py."""

import pytest

from apiworld import World, build_world


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Test logins need no slow password hashing (six users a world)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db) -> World:
    return build_world()


# The API fuzzing (test_api_fuzz.py, marked `fuzz`) is the suite's longest part: its total time
# is printed after every run that includes it.
_fuzz_seconds: list[float] = []


def pytest_runtest_logreport(report):
    if "fuzz" in report.keywords:
        _fuzz_seconds.append(report.duration)


def pytest_terminal_summary(terminalreporter):
    if _fuzz_seconds:
        terminalreporter.write_line(f"API fuzzing (marked fuzz): {sum(_fuzz_seconds):.0f} s")
