"""Ratings (tournaments.rating): OpenSkill's Plackett-Luce over every partition and sitting of a
finished tour, per game family, recomputed reproducibly; the refresh when a tour ends; the
seeding by rating; the rating list and the history chart."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from scoring.models import Partition, SeatResult
from scoring.recording import storage
from tournaments import rating, services, tours, views
from tournaments.models import Pair, Rating, RatingChange, Tour, Tournament
from tournaments.rating.tasks import refresh_ratings

from builders import finish_tour, refereed_tour, tournament, user
from scoring.recording import commands

pytestmark = pytest.mark.django_db


def stored(family: str) -> dict[int, tuple[float, float]]:
    return {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(family=family)}


def table_teams(table) -> list[list[int]]:
    return [[table.seat1_id, table.seat3_id], [table.seat2_id, table.seat4_id]]


def sports_tour(org, t, results=None, started_at=None) -> Tour:
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    if started_at is not None:
        Tour.objects.filter(pk=tour.pk).update(started_at=started_at)
    finish_tour(tour, results)
    return tour


def people(n: int) -> list[tuple[dict, dict]]:
    """Pairs of players known by their federation ids, so that other tournaments find them again."""
    return [({"last_name": f"Игрок{k}а", "federation_id": f"F{k}a"}, {"last_name": f"Игрок{k}б", "federation_id": f"F{k}b"})
            for k in range(1, n + 1)]


def pair_event(org, slug: str, pairs: list[tuple[dict, dict]], **options) -> Tournament:
    t = tournament(org, slug=slug, **options)
    for first, second in pairs:
        services.register_pair(org, t, first, second)
    return t


def snapshot() -> tuple[list, list]:
    return (list(RatingChange.objects.order_by("pk").values_list()),
            list(Rating.objects.order_by("pk").values_list()))


# -- the library's own numbers ----------------------------------------------------------------------


def test_a_partition_of_newcomers_moves_them_as_the_librarys_documented_example():
    """openskill's README: two teams of two fresh ratings, the first team wins: a, b at mu
    26.964294621803063, x, y at 23.035705378196937, all at sigma 8.177962604389991."""
    org = user("org", superuser=True)
    t = tournament(org, pairs=2)
    tour = sports_tour(org, t)  # pair A wins 200:100
    assert rating.refresh("sports") is True
    table = tour.tables.get()
    model = PlackettLuce()
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    ratings = stored("sports")
    (winner1, winner2), (loser1, loser2) = table_teams(table)
    assert ratings[winner1] == ratings[winner2] == (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert ratings[loser1] == ratings[loser2] == (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    change = RatingChange.objects.get(player_id=winner1)
    assert (change.mu_before, change.sigma_before, change.before) == (25.0, 25 / 3, 1000.0)
    assert change.after == pytest.approx(1000 + 40 * (a.mu - 3 * a.sigma))
    assert Rating.objects.get(player_id=winner1).partitions == 1


def test_later_partitions_start_from_the_ratings_the_earlier_ones_left():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.ROUND_ROBIN)
    day = timezone.make_aware(datetime.datetime(2026, 11, 21, 10))
    first = sports_tour(org, t, started_at=day)
    second = sports_tour(org, t, {1: (50, 200)}, started_at=day + datetime.timedelta(hours=1))
    rating.refresh("sports")
    model = PlackettLuce()
    current = {}
    for tour, results in ((first, {}), (second, {1: (50, 200)})):
        for table in tour.tables.order_by("number"):
            teams = table_teams(table)
            a, b = results.get(table.number, (200, 100))
            before = [[current.get(p) or model.rating() for p in team] for team in teams]
            after = model.rate(before, ranks=[1, 2] if a > b else [2, 1])
            for team, rated in zip(teams, after):
                current.update(zip(team, rated))
    assert stored("sports") == {p: (r.mu, r.sigma) for p, r in current.items()}
    assert set(Rating.objects.values_list("partitions", flat=True)) == {2}


def test_a_goat_sitting_ranks_its_players_by_the_standings_order_ties_shared():
    """Four players each for himself: seat 2 makes domino, seats 1 and 3 charged alike (a tie
    in game points, goats and score: one rank), seat 4 the goat."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat", regulations={"game": "goat", "lose_at": 40})
    for n in range(1, 5):
        services.register_player(org, t, {"last_name": f"Козёл{n}"})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table = tour.tables.get()
    commands.record_goat_deal(org, table.partition.pk, {"lead": 1, "end": "domino", "seat": 2,
                                                      "values": {"1": 20, "3": 20, "4": 45}})
    assert Tour.objects.get(pk=tour.pk).status == Tour.Status.FINISHED
    rating.refresh("goat")
    model = PlackettLuce()
    seats = [table.seat1_id, table.seat2_id, table.seat3_id, table.seat4_id]
    after = model.rate([[model.rating()] for _ in seats], ranks=[2, 1, 2, 4])
    assert stored("goat") == {p: (r[0].mu, r[0].sigma) for p, r in zip(seats, after)}
    assert not Rating.objects.filter(family="sports").exists()


def test_sea_goat_in_pairs_rates_two_teams_of_two_in_its_own_family():
    org = user("org", superuser=True)
    t = tournament(org, pairs=2, slug="sea", regulations={"game": "sea_goat", "target": 30, "opening": 0})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table = tour.tables.get()
    commands.record_goat_deal(org, table.partition.pk, {"lead": 2, "end": "domino", "seat": 2,
                                                      "values": {"1": 15, "3": 16, "4": 0}})
    rating.refresh_all()
    model = PlackettLuce()
    [[a1, a3], [b2, b4]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                                      ranks=[2, 1])
    assert stored("sea_goat") == {table.seat1_id: (a1.mu, a1.sigma), table.seat3_id: (a3.mu, a3.sigma),
                                  table.seat2_id: (b2.mu, b2.sigma), table.seat4_id: (b4.mu, b4.sigma)}
    assert not Rating.objects.exclude(family="sea_goat").exists()


def test_families_are_rated_apart():
    """The same four players in a sports and a Goat event: each family's rating counts its own
    results only, and refreshing one family leaves the other as it was."""
    org = user("org", superuser=True)
    four = people(2)
    sports_tour(org, pair_event(org, "sports", four))
    goat = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat", regulations={"game": "goat", "lose_at": 40})
    for player in (p for pair in four for p in pair):
        services.register_player(org, goat, player)
    tour = tours.generate_tour(org, goat)
    tours.publish_tour(org, tour)
    commands.record_goat_deal(org, tour.tables.get().partition.pk, {"lead": 1, "end": "domino", "seat": 1,
                                                                  "values": {"2": 10, "3": 20, "4": 45}})
    assert rating.refresh("sports") is True
    sports_only = stored("sports")
    assert len(sports_only) == 4 and not stored("goat")
    assert rating.refresh("goat") is True
    assert stored("sports") == sports_only and set(stored("goat")) == set(sports_only)
    assert stored("goat") != sports_only
    assert RatingChange.objects.filter(family="goat").count() == RatingChange.objects.filter(family="sports").count() == 4


# -- what is not rated ------------------------------------------------------------------------------


def test_no_shows_byes_and_unfinished_tours_are_not_rated():
    s = refereed_tour(target=100)
    commands.record(s["ref"], s["p1"].pk, "no_show", {"absent": "B"})
    rating.refresh("sports")
    assert not Rating.objects.exists()  # table 2 still to play: the tour is not finished
    commands.record(s["other"], s["p2"].pk, "lead", {"seat": 1})
    commands.record(s["other"], s["p2"].pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 100}})
    assert Tour.objects.get(pk=s["tour"].pk).status == Tour.Status.FINISHED
    rating.refresh("sports")
    # Only table 2 counts: table 1 was a no-show, a win for the standings but no game played.
    assert set(RatingChange.objects.values_list("partition_id", flat=True)) == {s["p2"].pk}
    assert set(Rating.objects.values_list("player_id", flat=True)) == {p.pk for p in s["table2"].players}
    # A bye is no partition: three pairs, tour 1 seats one table and gives one bye.
    org = user("org2", superuser=True)
    t = tournament(org, pairs=3, slug="three")
    tour = sports_tour(org, t)
    assert tour.byes.count() == 1
    rating.refresh("sports")
    bye = tour.byes.get().pair
    assert not Rating.objects.filter(player__in=bye.players).exists()


def test_a_points_game_is_not_rated():
    org = user("org", superuser=True)
    t = tournament(org, pairs=2, slug="points", regulations={"game": "points", "teams": True, "players": 4})
    assert rating.family_of(t) is None
    assert all(rating.results(family) == [] for family in ("sports", "goat", "sea_goat"))


# -- reproducible, corrections, the task -------------------------------------------------------------


def test_a_recomputation_is_identical_and_writes_nothing():
    org = user("org", superuser=True)
    t = tournament(org, pairs=6, format=Tournament.Format.ROUND_ROBIN)
    played = [sports_tour(org, t, results) for results in ({}, {2: (10, 200)}, {1: (0, 200), 3: (10, 200)})]
    assert rating.refresh("sports") is True
    first = snapshot()
    assert rating.refresh("sports") is False
    assert snapshot() == first
    call_command("rate", stdout=open("/dev/null", "w"))
    assert snapshot() == first
    # From nothing, the same numbers again.
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    call_command("rate", stdout=open("/dev/null", "w"))
    again = snapshot()
    assert [row[1:] for row in again[0]] == [row[1:] for row in first[0]]
    assert [row[1:] for row in again[1]] == [row[1:] for row in first[1]]
    # A result of tour 2 corrected: the refresh rewrites the history from that partition on and
    # leaves what came before; the outcome is a recomputation from nothing.
    corrected = played[1].tables.get(number=2).partition
    Partition.objects.filter(pk=corrected.pk).update(winner="A", points_a=200, points_b=10)
    assert rating.refresh("sports") is True
    kept = RatingChange.objects.filter(partition__table__tour=played[0])
    assert sorted(kept.values_list("pk", flat=True)) == sorted(
        row[0] for row in again[0] if row[4] in set(kept.values_list("partition_id", flat=True)))
    assert RatingChange.objects.get(partition=corrected, player=corrected.table.seat1).after > 1000
    incremental = snapshot()
    call_command("rate", stdout=open("/dev/null", "w"))
    assert snapshot() == incremental
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    call_command("rate", stdout=open("/dev/null", "w"))
    assert [row[1:] for row in snapshot()[0]] == [row[1:] for row in incremental[0]]
    assert [row[1:] for row in snapshot()[1]] == [row[1:] for row in incremental[1]]


class Sent:
    """Celery as :mod:`scoring.recording.storage` sees it: the tasks it was given, by name and arguments."""

    def __init__(self):
        self.tasks = []

    def send_task(self, name, args, **options):
        assert options == {"ignore_result": True}  # nobody waits for a refresh's result
        self.tasks.append((name, tuple(args)))

    def take(self):
        tasks, self.tasks = self.tasks, []
        return tasks


def test_a_correction_is_taken_in_and_a_finished_tour_schedules_the_refresh(django_capture_on_commit_callbacks,
                                                                            monkeypatch):
    sent = Sent()
    monkeypatch.setattr(storage, "current_app", sent)
    s = refereed_tour(target=100)
    refresh = (storage.RATE_TASK, (s["t"].pk,))
    with django_capture_on_commit_callbacks(execute=True):
        commands.record(s["other"], s["p2"].pk, "lead", {"seat": 1})
        commands.record(s["other"], s["p2"].pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 100}})
        commands.record(s["ref"], s["p1"].pk, "lead", {"seat": 1})
        commands.record(s["ref"], s["p1"].pk, "deal", {"end": "domino", "seat": 1, "pips": {"A": 20, "B": 40}})
        commands.record(s["ref"], s["p1"].pk, "deal", {"end": "fish", "pips": {"A": 10, "B": 40}})  # A: 110
    # The tour's end (the last partition finished) sends the refresh once it commits, once.
    assert sent.take() == [refresh]
    assert refresh_ratings(s["t"].pk) is True
    assert refresh_ratings(s["t"].pk) is False  # idempotent: a second run changes nothing
    table = s["table"]
    won = Rating.objects.get(player=table.seat1).value
    # The chief referee corrects deal 2 (B had fewer pips): the partition reopens, then B wins it.
    with django_capture_on_commit_callbacks(execute=True):
        commands.correct_deal(s["chief"], s["p1"].pk, 2, {"end": "fish", "pips": {"A": 40, "B": 10}}, reason="typo")
    assert sent.take() == [refresh]  # the tour is no longer finished: its results leave the ratings
    refresh_ratings(s["t"].pk)
    assert not RatingChange.objects.filter(partition=s["p1"]).exists()
    commands.record(s["ref"], s["p1"].pk, "deal", {"end": "domino", "seat": 2, "pips": {"A": 60, "B": 0}})
    assert Partition.objects.get(pk=s["p1"].pk).winner == "B"
    assert refresh_ratings(s["t"].pk) is True
    assert Rating.objects.get(player=table.seat1).value < won
    model = PlackettLuce()
    fresh = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    [[a1, a3], [b2, b4]] = model.rate(fresh, ranks=[2, 1])
    assert (stored("sports")[table.seat1_id], stored("sports")[table.seat2_id]) == ((a1.mu, a1.sigma), (b2.mu, b2.sigma))
    # A corrected result of a finished tour that stays finished also refreshes.
    with django_capture_on_commit_callbacks(execute=True):
        commands.correct_deal(s["chief"], s["p1"].pk, 3, {"end": "domino", "seat": 2, "pips": {"A": 70, "B": 0}},
                             reason="pips")
    assert sent.take() == [refresh] and Tour.objects.get(pk=s["tour"].pk).status == Tour.Status.FINISHED
    assert refresh_ratings(s["t"].pk) is False  # the winner is the same: the ratings are too


def test_an_unknown_family_is_refused():
    with pytest.raises(ValueError, match="Unknown rating family"):
        rating.refresh("chess")


# -- seeding --------------------------------------------------------------------------------------


def test_tour_one_seeded_by_the_pairs_mean_rating():
    org = user("org", superuser=True)
    four = people(4)
    earlier = pair_event(org, "earlier", four, format=Tournament.Format.MANUAL)
    services.update_tournament(org, earlier, starts_on=datetime.date(2026, 11, 14), ends_on=datetime.date(2026, 11, 14))
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=earlier)}
    tour = tours.generate_tour(org, earlier)
    tours.set_tables(org, tour, [(ids[4], ids[1]), (ids[3], ids[2])])
    tours.publish_tour(org, tour)
    finish_tour(tour, {1: (200, 100), 2: (200, 150)})  # pairs 4 and 3 win
    rating.refresh("sports")
    # The same pairs in start-number order 1..4, and a pair of newcomers as number 5.
    t = pair_event(org, "cup2", [*four, ({"last_name": "Новичок"}, {"last_name": "Новичков"})],
                   format=Tournament.Format.SWISS)
    services.update_tournament(org, t, seeding=Tournament.Seeding.RATING)
    first = tours.generate_tour(org, t)
    # Seeding 4, 3 (equal ratings: start-number order, 3 first), 5 (newcomers at 1000), 1, 2 (below
    # 1000); the Swiss tour 1 meets the top half with the bottom half, the last one has the bye.
    number = dict(Pair.objects.filter(tournament=t).values_list("pk", "number"))
    assert sorted((number[a], number[b]) for a, b in first.tables.values_list("pair_a", "pair_b")) == [(3, 5), (4, 1)]
    assert number[first.byes.get().pair_id] == 2
    # The ratings as they stood before the tournament: its own results leave its seeding alone
    # (a round robin's later tours reproduce tour 1's order from them).
    pairs = list(Pair.objects.filter(tournament=t))
    seeded = tours._pair_ratings(t, pairs)
    tours.publish_tour(org, first)
    finish_tour(first, {1: (0, 200), 2: (0, 200)})
    assert rating.refresh("sports") is True
    assert tours._pair_ratings(t, pairs) == seeded
    assert RatingChange.objects.filter(tournament=t).exists()


def test_a_seeding_by_rating_needs_a_rated_game():
    org = user("org", superuser=True)
    t = pair_event(org, "points", people(2), regulations={"game": "points", "teams": True, "players": 4})
    services.update_tournament(org, t, seeding=Tournament.Seeding.RATING)
    with pytest.raises(ValidationError, match="no rating"):
        tours.generate_tour(org, t)
    assert not Tour.objects.filter(tournament=t).exists()


# -- pages -------------------------------------------------------------------------------------------


def test_the_rating_list_by_family_with_its_tabs_and_pages(client, monkeypatch):
    org = user("org", superuser=True)
    t = tournament(org, pairs=2)
    tour = sports_tour(org, t)
    rating.refresh("sports")
    page = client.get("/ratings/").content.decode()  # Russian at the root
    assert "<h1>Рейтинги</h1>" in page and 'aria-current="page">Спортивное домино' in page
    winner = tour.tables.get().seat1
    assert winner.get_absolute_url() in page
    lines = page.split('<tbody>')[1]
    assert lines.index(winner.last_name) < lines.index(tour.tables.get().seat2.last_name)
    # 50 a page; with 2 a page, page 2 holds ranks 3 and 4, and links back.
    monkeypatch.setattr(views, "RATINGS_PER_PAGE", 2)
    second = client.get("/ratings/", {"page": 2}).content.decode()
    assert second.count('<td class="num">3</td>') == 1 and '<td class="num">4</td>' in second
    assert 'rel="prev"' in second and 'rel="next"' not in second and "Страница 2 из 2" in second
    assert client.get(reverse("ratings-family", args=["goat"])).status_code == 200
    assert client.get(reverse("ratings-family", args=["chess"])).status_code == 404
    assert reverse("ratings") in client.get(reverse("home")).content.decode()


def test_the_history_chart_is_drawn_with_its_text_and_table():
    org = user("org", superuser=True)
    four = people(2)
    t = pair_event(org, "first", four)
    tour = sports_tour(org, t)
    player = tour.tables.get().seat1
    second = pair_event(org, "second", four)
    services.update_tournament(org, second, name="<script>Second</script>")
    sports_tour(org, second)
    rating.refresh("sports")
    [history] = rating.rating_history(player)
    assert history.family == "sports" and [p.tournament for p in history.points] == [t, second]
    assert [p.partitions for p in history.points] == [1, 1]
    assert history.rating.value == history.points[-1].rating
    html = render_to_string("tournaments/includes/rating_chart.html", {"history": history})
    assert "<svg" in html and "<title" in html and "<desc" in html and "<polyline" in html
    assert html.count("<circle") == 2 and html.count("<tr>") == 3  # the head and a row per tournament
    assert "<script>" not in html and "&lt;script&gt;Second" in html
    assert f"{history.points[-1].rating:.0f}" in html


def test_the_players_page_shows_his_rating_and_its_chart(client):
    org = user("org", superuser=True)
    t = pair_event(org, "first", people(2))
    tour = sports_tour(org, t)
    player = tour.tables.get().seat1
    unrated = pair_event(org, "later", [({"last_name": "Новичков"}, {"last_name": "Новичкова"})])
    page = client.get(player.get_absolute_url()).content.decode()
    assert 'id="player-ratings"' not in page  # rated only once a refresh ran
    rating.refresh("sports")
    page = client.get(player.get_absolute_url()).content.decode()
    value = Rating.objects.get(player=player, family="sports").value
    assert 'id="player-ratings"' in page and "<svg" in page and f"<strong>{value:.0f}</strong>" in page
    assert reverse("ratings") in page
    newcomer = unrated.entries.first().player
    assert 'id="player-ratings"' not in client.get(newcomer.get_absolute_url()).content.decode()
