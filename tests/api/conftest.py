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
