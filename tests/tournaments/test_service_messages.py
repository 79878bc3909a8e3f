"""What the pages need from the services: refusals a person can read, on the field they concern,
in the user's language, and all-or-nothing writes."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from tournaments import services

from tournaments import tours
from tournaments.models import Pair, Tournament

from builders import tournament, user

pytestmark = pytest.mark.django_db


def test_dates_out_of_order_are_an_error_on_ends_on_and_nothing_is_written():
    org = user("org", superuser=True)
    with pytest.raises(ValidationError) as info:
        services.create_tournament(org, name="Кубок", slug="k", starts_on=datetime.date(2026, 5, 2),
                                   ends_on=datetime.date(2026, 5, 1))
    assert info.value.message_dict == {"ends_on": ["The tournament cannot end before it starts."]}
    assert not Tournament.objects.exists()
    t = tournament(org)
    with pytest.raises(ValidationError) as info:
        services.update_tournament(org, t, ends_on=datetime.date(2020, 1, 1), slug="not a slug")
    assert set(info.value.message_dict) == {"slug", "ends_on"}  # every problem at once
    t.refresh_from_db()
    assert t.ends_on == datetime.date(2026, 11, 22)


def test_a_regulations_error_names_its_setting_and_problem():
    org = user("org", superuser=True)
    with pytest.raises(ValidationError) as info:
        tournament(org, regulations={"format": "fixed_deals", "deals": 10})
    error = info.value.error_dict["regulations"][0]
    assert error.params["setting"] == "deals"
    assert error.params["problem"] == "must be a multiple of 4 so that every seat leads equally, got 10"
    assert info.value.messages == ["regulations.deals: must be a multiple of 4 so that every seat leads equally, got 10"]
    with translation.override("ru"), pytest.raises(ValidationError) as info:
        tournament(org, regulations={"target": "a%s"})
    assert info.value.error_dict["regulations"][0].params["problem"] == "должно быть целым числом, а указано 'a%s'"


def test_manual_seating_speaks_of_start_numbers_in_the_users_language():
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.MANUAL, pairs=4)
    tour = tours.generate_tour(org, t)
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t)}
    with pytest.raises(ValidationError) as info:
        tours.set_tables(org, tour, [(ids[3], ids[3]), (ids[1], None)])
    assert info.value.messages == [
        "Table 1: pair 3 is seated against itself.",
        "Table 2: seats 2 and 4 are empty.",
        "Pair 2 is neither seated nor given the bye.",
        "Pair 4 is neither seated nor given the bye.",
    ]
    with translation.override("ru"), pytest.raises(ValidationError) as info:
        tours.set_tables(org, tour, [(ids[1], ids[2]), (ids[3], ids[1])], bye=ids[4])
    assert info.value.messages == ["Пара 1 посажена больше одного раза: стол 1, стол 2."]
    with pytest.raises(ValidationError, match="No such pair in this tournament: 999999"):
        tours.set_tables(org, tour, [(ids[1], ids[2]), (ids[3], 999999)])
    assert not tour.tables.exists()


def test_referees_are_assigned_all_or_none():
    org = user("org", superuser=True)
    ref, stranger = user("ref"), user("stranger")
    t = tournament(org, pairs=4)
    services.add_role(org, t, "ref", "referee")
    tour = tours.generate_tour(org, t)
    with pytest.raises(ValidationError) as info:
        services.assign_referees(org, tour, {1: ref, 2: stranger})
    assert info.value.messages == ["Table 2: stranger is not a referee of this tournament: give him the role first."]
    assert not tour.tables.filter(referee__isnull=False).exists()
    with pytest.raises(ValidationError, match="has no table 7"):
        services.assign_referees(org, tour, {7: ref})
    services.assign_referees(org, tour, {1: ref, 2: ref})
    assert tour.tables.filter(referee=ref).count() == 2
    with pytest.raises(PermissionDenied):
        services.assign_referees(ref, tour, {1: None})
