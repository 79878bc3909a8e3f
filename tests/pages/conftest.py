"""Fixtures of the page tests: an organiser (a plain user with the right to create
tournaments), a referee and a player with logins, and a Swiss tournament of five pairs."""

import pytest
from django.contrib.auth.models import Permission

from builders import tournament, user
from tournaments import services


@pytest.fixture
def organiser(db):
    person = user("org")
    person.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return type(person).objects.get(pk=person.pk)  # a fresh object: no stale permission cache


@pytest.fixture
def cup(organiser):
    return tournament(organiser, pairs=5)


@pytest.fixture
def referee(cup, organiser):
    person = user("ref")
    services.add_role(organiser, cup, "ref", "referee")
    return person


@pytest.fixture
def player_user(cup):
    """A user who plays in the cup (his account is linked to pair 1's first player)."""
    person = user("igrok")
    player = cup.pairs.get(number=1).first
    player.user = person
    player.save()
    return person
