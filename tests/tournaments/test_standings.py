"""Standings: metrics chosen and ordered by the regulations' precedence (RULES 8)."""

import pytest

from scoring.models import Partition
from tournaments import tours
from tournaments.models import Pair, Tour, Tournament
from tournaments.standings import pair_standings, player_standings, rank, Row

from builders import tournament, user

pytestmark = pytest.mark.django_db


def seat(org, t, tables, bye=None):
    """A published tour seated by hand: tables are (number A, number B, points A, points B,
    penalties A, penalties B); results are written as the recording services leave them."""
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t, tour__isnull=True)}
    tour = tours.generate_tour(org, t)
    tours.set_tables(org, tour, [(ids[a], ids[b]) for a, b, *_ in tables], bye=ids.get(bye))
    tours.publish_tour(org, tour)
    for table, (_a, _b, pa, pb, *pen) in zip(tour.tables.order_by("number"), tables):
        pen = pen or [0, 0]
        Partition.objects.filter(table=table).update(
            status="finished", points_a=pa, points_b=pb, penalties_a=pen[0], penalties_b=pen[1],
            winner="A" if pa > pb else "B", reason="target")
    Tour.objects.filter(pk=tour.pk).update(status=Tour.Status.FINISHED)
    return tour


def numbers(rows, t):
    by_id = dict(Pair.objects.filter(tournament=t).values_list("pk", "number"))
    return [(by_id[r.key], r.rank) for r in rows]


def test_wins_then_points_difference_then_points_for():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.MANUAL)
    seat(org, t, [(1, 2, 200, 150), (3, 4, 210, 100)])
    seat(org, t, [(1, 3, 200, 190), (2, 4, 205, 50)])
    rows = pair_standings(t)
    # 1: 2 wins, +50+10=+60; 3: 1 win, +110-10=+100; 2: 1 win, -50+155=+105; 4: 0 wins.
    assert numbers(rows, t) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    first = rows[0]
    assert (first.wins, first.played, first.losses, first.points_for, first.points_against) == (2, 2, 0, 400, 340)
    # Buchholz of pair 1: its opponents 2 and 3 won once each.
    assert first.metrics["buchholz"] == 2
    # After tour 1 only: 3 (+110) is above 1 (+50).
    assert numbers(pair_standings(t, after_tour=1), t)[:2] == [(3, 1), (1, 2)]


def test_head_to_head_breaks_a_tie_and_full_ties_share_a_rank():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.MANUAL,
                   regulations={"standings": ["wins", "head_to_head"]})
    seat(org, t, [(1, 2, 100, 200), (3, 4, 200, 100)])  # 2 beats 1
    seat(org, t, [(1, 4, 200, 100), (2, 3, 100, 200)])
    rows = pair_standings(t)
    # 1, 2, 3 have one win each... 3 has two: 3 first; 1 and 2 tied on wins, 2 beat 1.
    assert numbers(rows, t) == [(3, 1), (2, 2), (1, 3), (4, 4)]
    assert rows[1].metrics["head_to_head"] == 1 and rows[2].metrics["head_to_head"] == 0
    t2 = tournament(org, pairs=2, slug="tie", format=Tournament.Format.MANUAL, regulations={"standings": ["wins"]})
    assert [r.rank for r in pair_standings(t2)] == [1, 1]  # nothing played: a shared rank


def test_penalties_as_a_criterion_count_fewer_as_better():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.MANUAL, regulations={"standings": ["wins", "penalties"]})
    seat(org, t, [(1, 2, 200, 100, 3, 0), (3, 4, 200, 100, 1, 2)])
    assert numbers(pair_standings(t), t) == [(3, 1), (1, 2), (2, 3), (4, 4)]


def test_a_bye_is_a_win_with_bye_points():
    org = user("org", superuser=True)
    t = tournament(org, pairs=3, format=Tournament.Format.MANUAL, regulations={"bye_points": 0})
    seat(org, t, [(1, 2, 200, 100)], bye=3)
    rows = {r.key: r for r in pair_standings(t)}
    third = rows[Pair.objects.get(tournament=t, number=3).pk]
    assert (third.wins, third.byes, third.played, third.points_for, third.losses) == (1, 1, 0, 0, 0)


def test_players_get_their_pairs_results():
    org = user("org", superuser=True)
    t = tournament(org, pairs=2, format=Tournament.Format.MANUAL)
    seat(org, t, [(1, 2, 200, 120)])
    rows = player_standings(t)
    pair1 = Pair.objects.get(tournament=t, number=1)
    winners = {r.key for r in rows if r.wins == 1}
    assert winners == {pair1.first_id, pair1.second_id}
    assert [r.rank for r in rows] == [1, 1, 3, 3]
    assert all(r.points_for == 200 for r in rows if r.key in winners)


def test_the_number_of_queries_does_not_grow_with_the_event(django_assert_max_num_queries):
    org = user("org", superuser=True)
    small = tournament(org, pairs=4, slug="small", format=Tournament.Format.MANUAL)
    seat(org, small, [(1, 2, 200, 100), (3, 4, 200, 100)])
    big = tournament(org, pairs=16, slug="big", format=Tournament.Format.MANUAL)
    seat(org, big, [(n, n + 1, 200, 100) for n in range(1, 16, 2)])
    for t in (small, big):
        with django_assert_max_num_queries(7):
            pair_standings(t)


def test_rank_is_pure_and_stable_for_ties():
    rows = {k: Row(k, wins=w) for k, w in ((1, 1), (2, 2), (3, 1))}
    ranked = rank(rows, ["wins"], order={1: 2, 3: 1, 2: 3})
    assert [(r.key, r.rank) for r in ranked] == [(2, 1), (3, 2), (1, 2)]
