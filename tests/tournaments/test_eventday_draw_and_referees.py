"""Tour 1 by a seeding order, the referees kept from tour to tour and placed evenly, the short
name made from the name, and the regulations text on the tournament's page and final protocol."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from scoring.protocols import sheets
from tournaments import draw, services, tours
from tournaments.models import Bye, Pair, Role, Tournament

from builders import finish_tour, tournament, user

pytestmark = pytest.mark.django_db


def numbers_at(tour):
    return [(t.pair_a.number, t.pair_b.number) for t in tour.tables.select_related("pair_a", "pair_b")]


def page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def seed(org, t, order):
    """Seed the pairs of start numbers ``order`` 1st, 2nd, ..."""
    pairs = {p.number: p.pk for p in Pair.objects.filter(tournament=t)}
    services.set_seeds(org, t, {pairs[n]: k for k, n in enumerate(order, 1)})


# -- seeding ---------------------------------------------------------------------------------------


def test_swiss_tour_one_by_start_numbers_pairs_the_top_half_with_the_bottom_half():
    org = user("org", superuser=True)
    t = tournament(org, pairs=9)
    tour = tours.generate_tour(org, t)
    assert numbers_at(tour) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert Bye.objects.get(tour=tour).pair.number == 9
    assert tour.draw_seed is None


def test_swiss_tour_one_by_the_organisers_seeds():
    org = user("org", superuser=True)
    t = tournament(org, pairs=6)
    services.update_tournament(org, t, seeding=Tournament.Seeding.SEEDS)
    seed(org, t, [6, 5, 4, 3, 2, 1])
    assert numbers_at(tours.generate_tour(org, t)) == [(6, 3), (5, 2), (4, 1)]


def test_a_random_seeding_keeps_its_seed_and_the_round_robin_follows_it_in_later_tours(client):
    org = user("org", superuser=True)
    t = tournament(org, pairs=6, format=Tournament.Format.ROUND_ROBIN)
    services.update_tournament(org, t, seeding=Tournament.Seeding.RANDOM)
    first = tours.generate_tour(org, t)
    assert first.draw_seed is not None
    pairs = list(Pair.objects.filter(tournament=t))
    order = draw.seeding_order([draw.Seeded(p.pk, p.number, p.seed) for p in pairs], "random", first.draw_seed)
    number = {p.pk: p.number for p in pairs}
    schedule = [[(number[a], number[b]) for a, b in tour] for tour in draw.berger_schedule(order)]
    assert numbers_at(first) == schedule[0]
    tours.publish_tour(org, first)
    finish_tour(first)
    second = tours.generate_tour(org, t)
    assert numbers_at(second) == schedule[1] and second.draw_seed is None
    # The seed is on the tour's page and its printout.
    client.force_login(org)
    for name in ("tour-manage", "tour-print"):
        text = page(client, reverse(name, args=[t.slug, 1]))
        assert f"seed {first.draw_seed}" in text


def test_seeds_given_twice_are_refused_and_nothing_is_written():
    org = user("org", superuser=True)
    t = tournament(org, pairs=3)
    pairs = list(Pair.objects.filter(tournament=t))
    with pytest.raises(ValidationError, match="Seed 1 is given to more than one pair"):
        services.set_seeds(org, t, {pairs[0].pk: 1, pairs[1].pk: 1})
    assert not Pair.objects.filter(seed__isnull=False).exists()
    seed(org, t, [2, 1, 3])
    seed(org, t, [1, 2, 3])  # two seeds swapped pass the unique constraint
    assert dict(Pair.objects.values_list("number", "seed")) == {1: 1, 2: 2, 3: 3}


def test_the_seeding_is_fixed_once_a_tour_is_published():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4)
    tours.publish_tour(org, tours.generate_tour(org, t))
    with pytest.raises(ValidationError, match="seeding cannot change"):
        seed(org, t, [4, 3, 2, 1])
    with pytest.raises(ValidationError, match="the seeding and the regulations cannot change"):
        services.update_tournament(org, t, seeding=Tournament.Seeding.RANDOM)


# -- referees --------------------------------------------------------------------------------------


def referee(t, org, username, last_name):
    person = user(username)
    person.last_name = last_name
    person.save()
    services.add_role(org, t, username, Role.Kind.REFEREE)
    return person


def test_each_table_keeps_its_referee_while_he_holds_the_role():
    org = user("org", superuser=True)
    t = tournament(org, pairs=6)
    ivanov, petrov = referee(t, org, "iv", "Иванов"), referee(t, org, "pe", "Петров")
    first = tours.generate_tour(org, t)
    services.assign_referees(org, first, {1: ivanov, 2: petrov, 3: None})
    tours.publish_tour(org, first)
    finish_tour(first)
    services.remove_role(org, Role.objects.get(user=petrov))
    second = tours.generate_tour(org, t)
    assert [(x.number, x.referee) for x in second.tables.order_by("number")] == [(1, ivanov), (2, None), (3, None)]
    # Drawn again, the draft keeps them too.
    again = tours.generate_tour(org, t)
    assert again.tables.get(number=1).referee == ivanov


def test_assign_evenly_places_the_referees_by_name_round_the_tables(client):
    org = user("org", superuser=True)
    t = tournament(org, pairs=10)
    with pytest.raises(ValidationError, match="no referees"):
        services.assign_referees_evenly(org, tours.generate_tour(org, t))
    petrov, ivanov = referee(t, org, "pe", "Петров"), referee(t, org, "iv", "Иванов")
    tour = t.tours.get()
    other = user("other")
    with pytest.raises(PermissionDenied):
        services.assign_referees_evenly(other, tour)
    client.force_login(org)
    response = client.post(reverse("tour-referees-evenly", args=[t.slug, 1]))
    assert response.status_code == 302
    assert [x.referee for x in tour.tables.order_by("number")] == [ivanov, petrov, ivanov, petrov, ivanov]


# -- short name and regulations text -------------------------------------------------------------


def new(org, name, slug=""):
    return services.create_tournament(org, name=name, slug=slug, starts_on=datetime.date(2026, 5, 1),
                                      ends_on=datetime.date(2026, 5, 1))


def test_the_short_name_is_made_from_the_name_transliterated_and_numbered_past_those_taken():
    org = user("org", superuser=True)
    assert new(org, "Кубок «Щёлково» — 2026, Юлия и Хабаров").slug == "kubok-shchelkovo-2026-iuliia-i-khabarov"
    assert new(org, "Кубок «Щёлково» — 2026, Юлия и Хабаров").slug == "kubok-shchelkovo-2026-iuliia-i-khabarov-2"
    long = new(org, "Открытый чемпионат Московской области по спортивному домино среди мужских и смешанных пар")
    assert long.slug == "otkrytyi-chempionat-moskovskoi-oblasti-po-sportivnomu-domino-sredi-muzhskikh-i"
    assert new(org, "«2026»").slug == "2026" and new(org, "«»").slug == "tournament"


def test_the_short_name_is_edited_and_one_taken_is_refused_clearly():
    org = user("org", superuser=True)
    cup, league = new(org, "Кубок"), new(org, "Лига")
    with pytest.raises(ValidationError, match="Another tournament has the short name kubok"):
        new(org, "Другой", slug="kubok")
    with pytest.raises(ValidationError, match="Another tournament has the short name kubok"):
        services.update_tournament(org, league, slug="kubok")
    league.refresh_from_db()
    assert league.slug == "liga" and Tournament.objects.count() == 2
    assert services.update_tournament(org, league, slug="league-2026").slug == "league-2026"
    assert services.update_tournament(org, league, name="Лига чемпионов", slug="").slug == "liga-chempionov"
    assert services.update_tournament(org, cup, name="Кубок мира").slug == "kubok"  # kept unless edited


def test_the_regulations_text_is_on_the_tournaments_page_and_the_final_protocol(client):
    org = user("org", superuser=True)
    t = tournament(org, pairs=4)
    before = sheets.final_snapshot(t)
    t = services.update_tournament(org, t, regulations_text="Игра до 101 очка.\nОпоздание — 15 минут.")
    assert sheets.final_snapshot(t) != before  # a signed final protocol is stale
    services.update_tournament(org, t, status=Tournament.Status.REGISTRATION)
    client.force_login(org)
    for url in (t.get_absolute_url(), reverse("final-protocol", args=[t.slug])):
        text = page(client, url)
        assert "<p>Игра до 101 очка.<br>Опоздание — 15 минут.</p>" in text, url
