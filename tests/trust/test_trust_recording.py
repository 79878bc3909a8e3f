"""Recording: annulments are the chief referee's; a referee taken off the staff stops recording;
the referee assignment tells nobody but an organiser which logins exist."""

import pytest
from django.core.exceptions import PermissionDenied

from tournaments import permissions, services
from tournaments.models import Role, Table

from trustworld import api
from scoring.recording import commands, storage

pytestmark = pytest.mark.django_db


def _violation(side) -> int:
    """A warning at table 2 of tour 1; its id in the partition."""
    partition = side.table2.partition.pk
    commands.record(side.ref, partition, "lead", {"seat": 1})
    commands.record(side.ref, partition, "violation", {"seat": 2, "code": "move_time"})
    game = storage.engine_partition(type(side.table2.partition).objects.get(pk=partition))
    return game.violations[0].id


ANNUL_FORM = '<input type="hidden" name="action" value="annul">'


def test_only_the_chief_referee_or_an_organiser_annuls(world, client):
    north = world.north
    violation = _violation(north)
    partition = north.table2.partition.pk
    data = {"violation": violation, "reason": "Судья ошибся: ход сделан вовремя, д'Артаньян свидетель"}
    with pytest.raises(PermissionDenied):
        commands.record(north.ref, partition, "annul", data)
    response = api(north.ref).post(f"/api/partitions/{partition}/record/", {"action": "annul", "data": data},
                                   format="json")
    assert response.status_code == 403
    game = storage.engine_partition(type(north.table2.partition).objects.get(pk=partition))
    assert game.violations[0].annulled is None
    sheet = f"/en/tournaments/{north.slug}/tours/1/tables/2/sheet/"
    client.force_login(north.ref)
    page = client.get(sheet).content.decode()
    assert "Warnings and penalties" in page and ANNUL_FORM not in page
    client.force_login(north.chief)
    assert ANNUL_FORM in client.get(sheet).content.decode()
    commands.record(north.chief, partition, "annul", data)
    game = storage.engine_partition(type(north.table2.partition).objects.get(pk=partition))
    assert game.violations[0].annulled


def test_an_organiser_annuls_too(world):
    north = world.north
    violation = _violation(north)
    commands.record(north.org, north.table2.partition.pk, "annul", {"violation": violation, "reason": "ошибка"})


def test_a_referee_taken_off_the_staff_records_no_more(world):
    north = world.north
    assert permissions.can_referee(north.ref, north.table2)
    Role.objects.filter(tournament=north.tournament, user=north.ref).delete()  # e.g. in the admin
    assert not permissions.can_referee(north.ref, north.table2)
    with pytest.raises(PermissionDenied):
        commands.record(north.ref, north.table2.partition.pk, "lead", {"seat": 1})
    assert not permissions.refereed_tables(north.ref).exists()
    assert api(north.ref).post(f"/api/partitions/{north.table2.partition.pk}/record/",
                               {"action": "lead", "data": {"seat": 1}}, format="json").status_code == 403


def test_removing_the_role_unassigns_the_tables_not_finished(world):
    north = world.north
    role = Role.objects.get(tournament=north.tournament, user=north.ref)
    services.remove_role(north.org, role)
    assert Table.objects.get(pk=north.table2.pk).referee is None  # tour 1 runs: his open table is free
    assert Table.objects.get(pk=north.table1.pk).referee == north.ref  # the finished one keeps who played it
    with pytest.raises(PermissionDenied):
        commands.record(north.ref, north.table2.partition.pk, "lead", {"seat": 1})


def test_a_referee_who_is_also_chief_referee_keeps_his_tables(world):
    north = world.north
    services.add_role(north.org, north.tournament, north.ref.username, "chief_referee")
    services.remove_role(north.org, Role.objects.get(tournament=north.tournament, user=north.ref, kind="referee"))
    assert Table.objects.get(pk=north.table2.pk).referee == north.ref
    commands.record(north.ref, north.table2.partition.pk, "lead", {"seat": 1})


@pytest.mark.parametrize("who", ["outsider", "south-org", "north-ref", "north-chief", "visitor"])
def test_the_referee_assignment_is_no_username_oracle(world, who):
    user = {"outsider": world.outsider, "south-org": world.south.org, "north-ref": world.north.ref,
            "north-chief": world.north.chief, "visitor": world.visitor}[who]
    answers = []
    for username in ("north-chief", "nobody-at-all-Ёлкин"):  # one login exists, the other does not
        answers.append(api(user).put("/api/tournaments/north/tours/1/tables/2/referee/", {"referee": username},
                                     format="json"))
        answers.append(api(user).put("/api/tournaments/north/tours/2/tables/1/referee/", {"referee": username},
                                     format="json"))
        answers.append(api(user).post("/api/tournaments/north/roles/", {"username": username, "kind": "referee"},
                                      format="json"))
    statuses = [a.status_code for a in answers]
    bodies = [a.json() for a in answers]
    assert statuses[:3] == statuses[3:] and bodies[:3] == bodies[3:], (statuses, bodies)
    assert all(code in (401, 403, 404) for code in statuses)
    assert Table.objects.get(pk=world.north.table2.pk).referee == world.north.ref


def test_the_organiser_is_told_which_login_is_no_referee(world):
    response = api(world.north.org).put("/api/tournaments/north/tours/1/tables/2/referee/",
                                        {"referee": "nobody-at-all-Ёлкин"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == ("nobody-at-all-Ёлкин is not a referee of this tournament: give him the "
                                         "role first.")
    response = api(world.north.org).put("/api/tournaments/north/tours/1/tables/2/referee/",
                                        {"referee": "north-chief"}, format="json")
    assert response.status_code == 200 and response.json()["referee"] == "north-chief"
