"""The draw service writes tours from the pure draw algorithms, with the scheduling rules."""

import pytest
from django.core.exceptions import ValidationError

from tournaments import imports, services

from tournaments import tours
from tournaments.models import Bye, Pair, Player, SitOut, Table, Tour, Tournament

from builders import finish_tour, tournament, user

pytestmark = pytest.mark.django_db


def pairs_at(tour):
    return [(t.pair_a.number, t.pair_b.number) for t in tour.tables.select_related("pair_a", "pair_b")]


def test_swiss_first_tour_seats_every_pair_and_gives_a_bye_to_the_lowest():
    org = user("org", superuser=True)
    t = tournament(org, pairs=7)
    tour = tours.generate_tour(org, t)
    assert tour.status == Tour.Status.DRAFT and tour.number == 1
    seated = [n for a_b in pairs_at(tour) for n in a_b]
    bye = Bye.objects.get(tour=tour).pair.number
    assert sorted(seated + [bye]) == list(range(1, 8))
    assert bye == 7  # all level: the lowest in start order
    for table in tour.tables.all():
        assert (table.seat1, table.seat3) == table.pair_a.players
        assert (table.seat2, table.seat4) == table.pair_b.players
        assert table.partition.status == "scheduled"


def test_swiss_second_tour_meets_winners_and_avoids_repeats():
    org = user("org", superuser=True)
    t = tournament(org, pairs=8)
    first = tours.generate_tour(org, t)
    tours.publish_tour(org, first)
    met = {frozenset(p) for p in pairs_at(first)}
    finish_tour(first)  # pair A wins everywhere
    winners = {t.pair_a.number for t in first.tables.all()}
    second = tours.generate_tour(org, t)
    for a, b in pairs_at(second):
        assert frozenset((a, b)) not in met
        assert (a in winners) == (b in winners)  # equal wins meet


def test_a_draft_is_redrawn_and_a_published_tour_is_not():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4)
    tour = tours.generate_tour(org, t)
    again = tours.generate_tour(org, t)
    assert again.pk == tour.pk and Table.objects.filter(tour=tour).count() == 2
    tours.publish_tour(org, tour)
    with pytest.raises(ValidationError, match="Finish the current tour"):
        tours.generate_tour(org, t)
    with pytest.raises(ValidationError, match="already published"):
        tours.publish_tour(org, tour)
    with pytest.raises(ValidationError, match="published"):
        tours.set_tables(org, tour, [(1, 2)])
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_a_withdrawn_pair_is_not_drawn_again_and_its_partitions_stay():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4)
    first = tours.generate_tour(org, t)
    tours.publish_tour(org, first)
    finish_tour(first)
    gone = Pair.objects.get(tournament=t, number=1)
    services.withdraw_pair(org, gone)
    second = tours.generate_tour(org, t)
    assert all(1 not in p for p in pairs_at(second))
    assert Bye.objects.filter(tour=second).exclude(pair=gone).count() == 1
    assert first.tables.filter(pair_a=gone).exists() or first.tables.filter(pair_b=gone).exists()


def test_round_robin_plays_every_pair_once_then_stops():
    org = user("org", superuser=True)
    t = tournament(org, pairs=5, format=Tournament.Format.ROUND_ROBIN)
    meetings = []
    for _ in range(5):
        tour = tours.generate_tour(org, t)
        tours.publish_tour(org, tour)
        meetings += [frozenset(p) for p in pairs_at(tour)]
        assert tour.byes.count() == 1
    assert len(meetings) == len(set(meetings)) == 10
    with pytest.raises(ValidationError, match="complete"):
        tours.generate_tour(org, t)


def test_a_round_robins_schedule_takes_no_pair_after_tour_1_is_published():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.ROUND_ROBIN)
    first = {"last_name": "Кузнецова-Оболенская", "first_name": "Анна-Мария"}
    second = {"last_name": "Константинопольский-Зальцман", "first_name": "Христофор"}
    draft = tours.generate_tour(org, t)
    # Registered after the draft was drawn: publishing it would leave the pair out for good.
    late = services.register_pair(org, t, first, second)
    with pytest.raises(ValidationError, match=f"Pairs №{late.number} are not in tour 1"):
        tours.publish_tour(org, draft)
    assert Tour.objects.get(pk=draft.pk).status == Tour.Status.DRAFT
    draft = tours.generate_tour(org, t)  # drawn again, with the fifth pair
    tours.publish_tour(org, draft)
    assert late.number in [n for a_b in pairs_at(draft) for n in a_b] + [b.pair.number for b in draft.byes.all()]
    with pytest.raises(ValidationError, match="schedule was fixed when tour 1 was published"):
        services.register_pair(org, t, {"last_name": "Ёлкин"}, {"last_name": "Щербатова-Голенищева"})
    assert Pair.objects.filter(tournament=t).count() == 5 and not Player.objects.filter(last_name="Ёлкин").exists()


def test_the_pairs_page_says_why_a_round_robin_takes_no_more_pairs(client):
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.ROUND_ROBIN)
    client.force_login(org)
    page = f"/en/tournaments/{t.slug}/manage/entries/"
    assert 'name="first_last_name"' in client.get(page).content.decode()
    tours.publish_tour(org, tours.generate_tour(org, t))
    shown = client.get(page).content.decode()
    assert "schedule was fixed when tour 1 was published" in shown and 'name="first_last_name"' not in shown
    russian = client.get(f"/tournaments/{t.slug}/manage/entries/").content.decode()
    assert "Расписание кругового турнира зафиксировано" in russian
    # The CSV import too: refused once for the whole file, and its page says why in the form's place.
    with pytest.raises(ValidationError) as refused:
        imports.import_pairs_csv(org, t, "Фамилия 1;Фамилия 2\nЁлкин;Щербатова-Голенищева\nПоздняков;Опоздалова\n")
    assert refused.value.messages == [services.pairs_closed(t)] and Pair.objects.filter(tournament=t).count() == 4
    shown = client.get(f"/en/tournaments/{t.slug}/manage/import/").content.decode()
    assert "schedule was fixed when tour 1 was published" in shown and 'type="file"' not in shown


def test_manual_seating_is_checked_as_a_whole():
    org = user("org", superuser=True)
    t = tournament(org, pairs=5, format=Tournament.Format.MANUAL)
    tour = tours.generate_tour(org, t)
    assert tour.tables.count() == 0
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t)}
    with pytest.raises(ValidationError) as info:
        tours.set_tables(org, tour, [(ids[1], ids[2]), (ids[2], None)])
    text = " ".join(info.value.messages)
    assert "twice" in text or "more than once" in text
    assert tour.tables.count() == 0  # nothing half-written
    tours.set_tables(org, tour, [(ids[1], ids[2]), (ids[3], ids[4])], bye=ids[5])
    assert pairs_at(tour) == [(1, 2), (3, 4)]
    assert Bye.objects.get(tour=tour).pair_id == ids[5]


def test_individual_tours_rotate_partners():
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL)
    for n in range(1, 10):
        services.register_player(org, t, {"last_name": f"Игрок{n}"})
    partners = []
    for _ in range(3):
        tour = tours.generate_tour(org, t)
        tours.publish_tour(org, tour)
        assert tour.tables.count() == 2 and SitOut.objects.filter(tour=tour).count() == 1
        for table in tour.tables.all():
            partners += [frozenset((table.seat1_id, table.seat3_id)), frozenset((table.seat2_id, table.seat4_id))]
            assert {table.pair_a.first_id, table.pair_a.second_id} == {table.seat1_id, table.seat3_id}
        finish_tour(tour)
    assert len(partners) == len(set(partners))
    sat_out = list(SitOut.objects.filter(tour__tournament=t).values_list("player", flat=True))
    assert len(sat_out) == len(set(sat_out)) == 3  # a different player each tour


def test_assigning_a_referee_needs_the_role():
    org = user("org", superuser=True)
    ref = user("ref")
    t = tournament(org, pairs=2)
    table = tours.generate_tour(org, t).tables.get()
    with pytest.raises(ValidationError, match="not a referee"):
        services.assign_referee(org, table, ref)
    services.add_role(org, t, "ref", "referee")
    services.assign_referee(org, table, ref)
    table.refresh_from_db()
    assert table.referee == ref


def test_regulations_are_validated_by_the_engine_and_frozen_after_publishing():
    org = user("org", superuser=True)
    with pytest.raises(ValidationError, match="regulations.target"):
        tournament(org, regulations={"target": -5})
    assert not Tournament.objects.exists()
    t = tournament(org, pairs=2, regulations={"target": 150})
    assert t.rules.target == 150 and t.regulations["penalty_points"] == 25
    services.update_tournament(org, t, regulations={"target": 300})
    tours.publish_tour(org, tours.generate_tour(org, t))
    with pytest.raises(ValidationError, match="cannot change"):
        services.update_tournament(org, t, regulations={"target": 100})
    t.refresh_from_db()
    assert t.rules.target == 300
