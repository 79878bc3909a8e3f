"""Staff logins: an organiser gives roles in his tournament to an existing login or to a new one
with its full name and a one-time link to set its password; a superuser appoints organisers."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from builders import tournament, user
from tournaments import permissions, services
from tournaments.models import Role

pytestmark = pytest.mark.django_db

NEW = {"username": "ilina", "first_name": "Анна", "last_name": "Ильина"}


@pytest.fixture
def org(db):
    return user("org", superuser=True)


@pytest.fixture
def cup(org):
    return tournament(org)


def test_a_new_login_gets_its_full_name_no_password_and_the_role(cup, org):
    made = services.add_new_staff(org, cup, **NEW, kind="referee")
    login = get_user_model().objects.get(username="ilina")
    assert made.user == login and login.get_full_name() == "Анна Ильина"
    assert not login.has_usable_password()
    assert cup.roles.get(user=login).kind == Role.Kind.REFEREE
    assert permissions.can_be_referee(login, cup) and not permissions.can_manage(login, cup)


def test_the_link_sets_the_password_once(client, cup, org):
    made = services.add_new_staff(org, cup, **NEW, kind="chief_referee")
    with translation.override("en"):
        url = reverse("password_reset_confirm", kwargs={"uidb64": made.uidb64, "token": made.token})
    form_url = client.get(url)["Location"]  # Django moves the token into the session first
    response = client.post(form_url, {"new_password1": "Domino-2026!", "new_password2": "Domino-2026!"})
    assert response.status_code == 302
    login = get_user_model().objects.get(username="ilina")
    assert login.check_password("Domino-2026!")
    assert not default_token_generator.check_token(login, made.token)
    # The same link again, in another browser: refused, and the password stays.
    client.logout()
    again = client.get(url, follow=True)
    assert not again.context["validlink"]
    assert "This link no longer works" in again.content.decode()
    assert client.login(username="ilina", password="Domino-2026!")


def test_refusals_write_nothing(cup, org):
    referee = user("ref")
    services.add_role(org, cup, "ref", "referee")
    with pytest.raises(PermissionDenied):
        services.add_new_staff(referee, cup, **NEW, kind="referee")
    with pytest.raises(PermissionDenied):
        services.add_new_staff(user("stranger"), cup, **NEW, kind="referee")
    with pytest.raises(ValidationError) as error:
        services.add_new_staff(org, cup, **NEW, kind="captain")
    assert "Unknown role" in error.value.messages[0]
    for bad, field in (({"username": "REF"}, "username"), ({"first_name": " "}, "first_name"),
                       ({"last_name": "Иль\x1bина"}, "last_name"), ({"username": "a b"}, "username")):
        with pytest.raises(ValidationError) as error:
            services.add_new_staff(org, cup, **{**NEW, **bad}, kind="referee")
        assert field in error.value.message_dict
    assert not get_user_model().objects.filter(username__in=["ilina", "a b", "REF"]).exists()
    assert cup.roles.count() == 2  # the organiser and ref


def test_a_new_staff_member_is_removed_like_any_other(cup, org):
    made = services.add_new_staff(org, cup, **NEW, kind="referee")
    services.remove_role(org, cup.roles.get(user=made.user))
    assert not permissions.is_staff(made.user, cup)


def test_a_superuser_appoints_and_dismisses_organisers(org):
    plain = user("plain")
    with pytest.raises(PermissionDenied):
        services.add_new_organiser(plain, **NEW)
    with pytest.raises(PermissionDenied):
        services.appoint_organiser(plain, "plain")
    assert not get_user_model().objects.filter(username="ilina").exists()

    made = services.add_new_organiser(org, **NEW)
    fresh = get_user_model().objects.get(pk=made.user.pk)  # no stale permission cache
    assert permissions.can_create_tournament(fresh) and fresh.get_full_name() == "Анна Ильина"
    assert services.appoint_organiser(org, "plain") == plain
    assert list(services.organisers()) == [made.user, plain]

    mine = tournament(fresh, slug="hers")
    with pytest.raises(PermissionDenied):
        services.dismiss_organiser(fresh, plain)
    services.dismiss_organiser(org, fresh)
    fresh = get_user_model().objects.get(pk=made.user.pk)
    assert not permissions.can_create_tournament(fresh)
    assert permissions.can_manage(fresh, mine)  # the tournament he created stays his
    with pytest.raises(ValidationError):
        services.appoint_organiser(org, "nobody")
