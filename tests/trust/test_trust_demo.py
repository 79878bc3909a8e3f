"""The demo logins: only the organiser (a superuser) is staff of the admin site."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_load_demo_takes_the_admin_away_from_the_referees_and_keeps_their_passwords():
    User = get_user_model()
    for username in ("chief", "referee"):  # made by an earlier load_demo, when all three were staff
        User.objects.create_user(username, password=f"свой-пароль-{username}", is_staff=True)
    call_command("load_demo")
    for username in ("chief", "referee"):
        login = User.objects.get(username=username)
        assert not login.is_staff and not login.is_superuser
        assert login.check_password(f"свой-пароль-{username}")
    organiser = User.objects.get(username="organiser")
    assert organiser.is_staff and organiser.is_superuser
