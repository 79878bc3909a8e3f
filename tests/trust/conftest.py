"""Fixtures of the trust tests (who reaches what); the world itself is built in trustworld.py."""

import pytest

from trustworld import build_world


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Test logins and PINs need no slow hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db):
    return build_world()
