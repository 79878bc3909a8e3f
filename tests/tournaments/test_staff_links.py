"""A new one-time password link for a staff login whose link was used or expired (or who forgot
his password): the organiser gives one to his tournament's chief referees and referees, a
superuser to organisers; the old link and password stop working. An organiser may take over no
login that is more than his tournament's referee: refusals write nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError

from builders import tournament, user
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db

NEW = {"username": "ilina", "first_name": "Анна", "last_name": "Ильина"}


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db):
    """``boss`` organises the cup (not a superuser); ``ilina`` is its new referee, her link used."""
    root = user("root", superuser=True)
    boss = user("boss")
    services.appoint_organiser(root, "boss")
    boss = get_user_model().objects.get(pk=boss.pk)
    cup = tournament(boss)
    made = services.add_new_staff(boss, cup, **NEW, kind="referee")
    made.user.set_password("Domino-2026!")
    made.user.save()
    return {"root": root, "boss": boss, "cup": cup, "ilina": made.user, "old": made.token}


def fresh(login):
    return get_user_model().objects.get(pk=login.pk)


def test_the_organiser_gives_his_referee_a_new_link_and_the_old_one_stops(world):
    ilina = fresh(world["ilina"])
    before = default_token_generator.make_token(ilina)  # a link made before, still unused
    made = services.new_staff_link(world["boss"], world["cup"], ilina)
    ilina = fresh(ilina)
    assert made.user == ilina and not ilina.has_usable_password()  # the password stops too
    assert default_token_generator.check_token(ilina, made.token)
    assert not default_token_generator.check_token(ilina, before)
    assert not default_token_generator.check_token(ilina, world["old"])
    # A chief referee too; a second new link ends the first.
    services.add_role(world["boss"], world["cup"], "ilina", "chief_referee")
    again = services.new_staff_link(world["boss"], world["cup"], ilina)
    assert not default_token_generator.check_token(fresh(ilina), made.token)
    assert default_token_generator.check_token(fresh(ilina), again.token)


def refused(world, target, by=None, cup=None, match=""):
    password = fresh(target).password
    with pytest.raises(ValidationError, match=match):
        services.new_staff_link(by or world["boss"], cup or world["cup"], target)
    assert fresh(target).password == password  # nothing written


def test_an_organiser_takes_over_no_login_that_is_more_than_his_referee(world):
    boss, cup = world["boss"], world["cup"]
    alone = "Only a superuser may give"
    # Nobody outside his staff.
    refused(world, user("stranger"), match="is not on the staff of this tournament")
    # A referee here who is also staff of another tournament (of another organiser).
    both = user("both")
    services.add_role(boss, cup, "both", "referee")
    other = tournament(world["root"], slug="other")
    services.add_role(world["root"], other, "both", "referee")
    refused(world, both, match=alone)
    # A superuser, an admin-site user, an organiser (here, or one who may create tournaments).
    for name, flags in (("su", {"superuser": True}), ("admin", {"staff": True})):
        target = user(name, **flags)
        services.add_role(boss, cup, name, "referee")
        refused(world, target, match=alone)
    co = user("co")
    services.add_role(boss, cup, "co", "organiser")
    refused(world, co, match=alone)
    creator = user("creator")
    services.appoint_organiser(world["root"], "creator")
    services.add_role(boss, cup, "creator", "referee")
    refused(world, fresh(creator), match=alone)
    refused(world, boss, match=alone)  # himself: an organiser
    # A player's account.
    player = user("player")
    Player.objects.create(last_name="Игроков", user=player)
    services.add_role(boss, cup, "player", "referee")
    refused(world, player, match=alone)
    # Only an organiser of the cup asks: a referee, or an organiser of another tournament, may not.
    for asker in (fresh(world["ilina"]), user("rival")):
        with pytest.raises(PermissionDenied):
            services.new_staff_link(asker, cup, world["ilina"])
    assert fresh(world["ilina"]).check_password("Domino-2026!")
    # A superuser may do what the organiser may not, on the organisers' page or the admin site;
    # on the staff page the same rules hold for him.
    refused(world, both, by=world["root"], match=alone)


def test_a_superuser_gives_an_organiser_a_new_link(world):
    root, boss = world["root"], world["boss"]
    made = services.new_organiser_link(root, boss)
    assert not fresh(boss).has_usable_password()
    assert default_token_generator.check_token(fresh(boss), made.token)
    with pytest.raises(PermissionDenied):
        services.new_organiser_link(boss, fresh(world["ilina"]))
    with pytest.raises(ValidationError, match="is not an organiser"):
        services.new_organiser_link(root, world["ilina"])
    other_root = user("root2", superuser=True)
    services.appoint_organiser(root, "root2")
    with pytest.raises(ValidationError, match="is a superuser"):
        services.new_organiser_link(root, other_root)
    assert fresh(world["ilina"]).check_password("Domino-2026!")
    assert fresh(other_root).has_usable_password() == other_root.has_usable_password()
