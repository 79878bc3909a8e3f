"""Team standings: clubs by the tournament points of their best N entries, then those entries'
points difference; a pair counts for a club when both its players were registered with it."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments import services, tours
from tournaments.models import Entry, Pair, Tournament
from tournaments.standings import team_standings

from builders import finish_tour, tournament, user
from test_standings import seat

pytestmark = pytest.mark.django_db

# The clubs of each pair's two players: pair 4 is of two clubs and counts for none; "b" and
# " B " are club "B" typed otherwise.
CLUBS = {1: ("A", "A"), 2: ("A", "A"), 3: ("B", "B"), 4: ("B", "C"), 5: ("b", " B "), 6: ("C", "C")}


def club_event(best: int) -> tuple:
    """Six pairs, two tours seated by hand (win_points 1):

    ======  =============  =============  ====  ===========
    pair    tour 1         tour 2         pts   difference
    ======  =============  =============  ====  ===========
    1 (A)   W 200:100 v 2  L 120:200 v 3  1     +100 -80 = +20
    2 (A)   L 100:200 v 1  W 200:190 v 5  1     -100 +10 = -90
    3 (B)   L 150:200 v 4  W 200:120 v 1  1     -50 +80 = +30
    4 (-)   W 200:150 v 3  W 200:0 v 6    2     +50 +200 = +250
    5 (B)   W 200:180 v 6  L 190:200 v 2  1     +20 -10 = +10
    6 (C)   L 180:200 v 5  L 0:200 v 4    0     -20 -200 = -220
    ======  =============  =============  ====  ===========
    """
    org = user("org", superuser=True)
    t = tournament(org, pairs=6, format=Tournament.Format.MANUAL)
    for pair in Pair.objects.filter(tournament=t).select_related("first", "second"):
        for player, club in zip(pair.players, CLUBS[pair.number]):
            Entry.objects.filter(tournament=t, player=player).update(club=club)
    t = services.update_tournament(org, t, team_best=best)
    seat(org, t, [(1, 2, 200, 100), (3, 4, 150, 200), (5, 6, 200, 180)])
    seat(org, t, [(1, 3, 120, 200), (2, 5, 200, 190), (4, 6, 200, 0)])
    return org, t


def lines(table) -> list[tuple]:
    return [(line.rank, line.club, line.tournament_points, line.points_difference,
             [e.pair.number for e in line.counted]) for line in table.lines]


def test_clubs_by_their_best_entries_then_points_difference():
    _org, t = club_event(best=2)
    # A: 1 + 1 points, +20 - 90 = -70; B: pairs 3 and 5, 1 + 1, +30 + 10 = +40 (pair 4 is of two
    # clubs); C: pair 6 alone. A and B are equal on points: B's difference ranks it first.
    assert lines(team_standings(t)) == [(1, "B", 2, 40, [3, 5]), (2, "A", 2, -70, [1, 2]), (3, "C", 0, -220, [6])]
    # After tour 1: A 1 + 0, +100 - 100 = 0; B: pair 5 1, +20, pair 3 0, -50: -30; C 0, -20.
    assert lines(team_standings(t, after_tour=1)) == [
        (1, "A", 1, 0, [1, 2]), (2, "B", 1, -30, [5, 3]), (3, "C", 0, -20, [6])]


def test_the_best_one_entry_of_each_club():
    _org, t = club_event(best=1)
    # A: pair 1 (1, +20) before pair 2 (1, -90); B: pair 3 (1, +30) before pair 5 (1, +10).
    assert lines(team_standings(t)) == [(1, "B", 1, 30, [3]), (2, "A", 1, 20, [1]), (3, "C", 0, -220, [6])]
    # Pair 3 registered for club A: A's best is pair 3, B keeps pair 5 only.
    three = Pair.objects.get(tournament=t, number=3)
    Entry.objects.filter(tournament=t, player__in=three.players).update(club="A")
    assert lines(team_standings(t)) == [(1, "A", 1, 30, [3]), (2, "B", 1, 10, [5]), (3, "C", 0, -220, [6])]


def test_clubs_equal_on_both_share_the_rank_in_name_order():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.MANUAL)
    t = services.update_tournament(org, t, team_best=1)
    for number, club in ((1, "Y"), (2, "W"), (3, "X")):  # pair 4: no club, not counted
        Entry.objects.filter(tournament=t, player__in=Pair.objects.get(tournament=t, number=number).players
                             ).update(club=club)
    seat(org, t, [(1, 2, 200, 100), (3, 4, 200, 100)])
    table = team_standings(t)
    assert lines(table) == [(1, "X", 1, 100, [3]), (1, "Y", 1, 100, [1]), (3, "W", 0, -100, [2])]
    assert [line.shared for line in table.lines] == [True, True, False]


def test_the_page_and_the_file():
    _org, t = club_event(best=2)
    client = Client()
    with translation.override("ru"):
        page_url = reverse("standings-teams", args=[t.slug])
        csv_url = reverse("standings-teams-csv", args=[t.slug])
        standings_url = reverse("standings", args=[t.slug])
    page = client.get(page_url).content.decode()
    assert page.index(">B<") < page.index(">A<") < page.index(">C<")
    assert page_url in client.get(standings_url).content.decode()  # linked from the standings
    response = client.get(csv_url + "?after_tour=1")
    assert response["Content-Disposition"] == f'attachment; filename="standings-{t.slug}-teams-after-tour-1.csv"'
    rows = [line.split(";") for line in response.content.decode("utf-8-sig").splitlines()]
    assert rows[0][:4] == ["Место", "Клуб", "Турнирные очки", "Разница очков"]
    assert [r[:4] for r in rows[1:]] == [["1", "A", "1", "0"], ["2", "B", "1", "-30"], ["3", "C", "0", "-20"]]
    # Without team standings: no page, no link.
    t = services.update_tournament(t.created_by, t, team_best=0)
    assert client.get(page_url).status_code == 404 and client.get(csv_url).status_code == 404
    assert page_url not in client.get(standings_url).content.decode()
    with pytest.raises(ValidationError):
        team_standings(t)


def test_an_entry_keeps_the_club_it_was_registered_with():
    org = user("org", superuser=True)
    t = tournament(org)
    pair = services.register_pair(org, t, {"last_name": "Иванов", "club": "Рыба", "federation_id": "77-1"}, {"last_name": "Петров"})
    assert list(Entry.objects.filter(tournament=t).order_by("player__last_name").values_list("club", flat=True)) == [
        "Рыба", ""]
    later = tournament(org, slug="later")
    services.update_player(org, pair.first, {"club": "Дупль"})  # he changed clubs: the entry keeps his old one
    assert Entry.objects.get(tournament=t, player=pair.first).club == "Рыба"
    services.register_pair(org, later, {"last_name": "Иванов", "federation_id": "77-1"}, {"last_name": "Сидоров"})
    assert Entry.objects.get(tournament=later, player=pair.first).club == "Дупль"
    # Corrected from a tournament's entries page: his entry there follows, not the other.
    services.update_player(org, pair.first, {"club": "Рыба и Ко"}, tournament=later)
    assert Entry.objects.get(tournament=later, player=pair.first).club == "Рыба и Ко"
    assert Entry.objects.get(tournament=t, player=pair.first).club == "Рыба"


def test_in_an_individual_event_each_player_counts_for_his_club():
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL)
    for n in range(1, 5):
        services.register_player(org, t, {"last_name": f"Игрок{n}"})
    t = services.update_tournament(org, t, team_best=2)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table = tour.tables.get()
    # Seats 1 and 3 (pair A) win 200:100; X: seats 1, 2 and 3, Y: seat 4.
    for seat, club in ((table.seat1, "X"), (table.seat2, "X"), (table.seat3, "X"), (table.seat4, "Y")):
        Entry.objects.filter(tournament=t, player=seat).update(club=club)
    finish_tour(tour)
    table_ = team_standings(t)
    assert [(line.rank, line.club, line.tournament_points, line.points_difference) for line in table_.lines] == [
        (1, "X", 2, 200), (2, "Y", 0, -100)]
    assert {e.player.pk for e in table_.lines[0].counted} == {table.seat1_id, table.seat3_id}
