"""The no-show at a live Goat or Sea Goat table (RULES 5, 9): when the deadline passes with a
player missing, the sitting is decided, every game of it; the players' results and the standings
follow; a check-in of everyone before the deadline cancels it."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import translation

from builders import tournament, user
from livetools import PIN
from scoring import engine
from scoring.live import play
from scoring.models import LiveTable, Partition, PartitionChange, SeatResult
from scoring.protocols.confirmations import set_pin
from scoring.recording import pipeline, queries
from tournaments import services, tours
from tournaments.models import Tournament
from tournaments.standings import standings_table

pytestmark = pytest.mark.django_db

NAMES = ("Преображенский", "Воскресенская", "Богословский", "Ольденбургская")


def _live_tour(org, t):
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    tour.play_mode = "digital"
    tour.save(update_fields=["play_mode"])
    table = tour.tables.get()
    for player in table.players:
        set_pin(org, player.pk, PIN)
    play.start_tour(org, tour)
    return tour, table


@pytest.fixture
def goat(db, frozen):
    """A Goat event of four players each for himself, two games a tour, its one table digital and
    started: the no-show deadline runs."""
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                   regulations={"game": "goat", "games_per_tour": 2})
    for name in NAMES:
        services.register_player(org, t, {"last_name": name})
    tour, table = _live_tour(org, t)
    return {"org": org, "t": t, "tour": tour, "table": table, "pid": table.partition.pk}


def live(pid: int) -> LiveTable:
    return LiveTable.objects.get(pk=pid)


def test_the_deadline_decides_the_sitting_with_a_player_missing(goat, frozen, client):
    pid, table = goat["pid"], goat["table"]
    for seat in (1, 2, 4):
        play.claim_seat(pid, seat, PIN)
    deadline = live(pid).no_show_deadline
    assert deadline is not None and Partition.objects.get(pk=pid).status != "finished"
    frozen.to(deadline - datetime.timedelta(seconds=1))
    pipeline.sweep()
    assert Partition.objects.get(pk=pid).status != "finished"  # not yet
    frozen.to(deadline)
    pipeline.sweep()
    partition = Partition.objects.get(pk=pid)
    assert (partition.status, partition.reason, partition.deals) == ("finished", "no_show", 0)
    assert live(pid).no_show_deadline is None and live(pid).deadline is None
    change = PartitionChange.objects.filter(partition=partition, action="no_show").get()
    assert change.data == {"absent": ["3"], "by": "clock"}
    # Two games, each lost by seat 3 (a goat at lose_at 101, 0 game points), each worth
    # (100 - 0) / 10 = 10 game points to every player present.
    rows = {r.seat: (r.player_id, r.game_points, r.goats, r.score, r.games_won)
            for r in SeatResult.objects.filter(partition=partition)}
    assert rows == {1: (table.seat1_id, 20, 0, 0, 0), 2: (table.seat2_id, 20, 0, 0, 0),
                    3: (table.seat3_id, 0, 2, 202, 0), 4: (table.seat4_id, 20, 0, 0, 0)}
    standings = standings_table(goat["t"])
    got = [(line.rank, line.row.key, line.value("game_points"), line.value("goats"), line.value("total_score"))
           for line in standings.lines]
    assert sorted(got[:3]) == sorted((1, getattr(table, f"seat{n}_id"), 20, 0, 0) for n in (1, 2, 4))
    assert got[3] == (4, table.seat3_id, 0, 2, 202)
    # The protocol file records the no-show in each game; the engine reads it back to the same rows.
    document = queries.export_sitting(partition)
    assert [game["no_show"] for game in document["games"]] == [["3"], ["3"]]
    for game in document["games"]:
        assert game["deals"] == []
        result = engine.score_protocol(json.loads(json.dumps(game)))
        assert (result["reason"], result["goats"], result["no_show"]) == ("no_show", ["3"], ["3"])
        assert result["game_points"] == {"1": 10, "2": 10, "3": 0, "4": 10}
    # The protocol page: both games decided by the no-show, who did not appear; seat 3 does not confirm.
    client.force_login(goat["org"])
    tour = goat["tour"]
    with translation.override("ru"):
        page = reverse("partition-protocol", args=["goat", tour.number, table.number])
        confirm = reverse("partition-confirm", args=["goat", tour.number, table.number])
    html = client.get(page).content.decode()
    assert html.count("Конов нет: неявка.") == 2 and html.count(f"Не явились: <b><bdi>3. {table.players[2]}</bdi></b></p>") == 2
    assert "Партия окончена: неявка" in html
    response = client.post(confirm, {"seat": 3, "version": partition.version}, follow=True)
    assert "не подтверждает" in response.content.decode()


def test_a_check_in_of_everyone_before_the_deadline_cancels_it(goat, frozen):
    pid = goat["pid"]
    for seat in (1, 2, 4):
        play.claim_seat(pid, seat, PIN)
    deadline = live(pid).no_show_deadline
    play.postpone_no_show(goat["org"], pid, 5)
    assert live(pid).no_show_deadline == deadline + datetime.timedelta(minutes=5)
    frozen.to(deadline)
    pipeline.sweep()
    assert Partition.objects.get(pk=pid).status != "finished"  # postponed
    frozen.advance(60)
    play.check_in(goat["org"], pid, 3)  # the referee ticks the late player present
    table = live(pid)
    assert table.present == [1, 2, 3, 4] and table.no_show_deadline is None
    assert table.seat is not None  # all present: the first deal was dealt, its leader's clock runs
    frozen.advance(10 * 60)
    pipeline.sweep()
    partition = Partition.objects.get(pk=pid)
    assert partition.reason != "no_show" and not SeatResult.objects.filter(partition=partition).exists()
    assert not PartitionChange.objects.filter(partition=partition, action="no_show").exists()


def test_sea_goat_in_pairs_the_present_pair_wins_every_game(db, frozen):
    org = user("org", superuser=True)
    t = tournament(org, pairs=2, slug="sea", regulations={"game": "sea_goat", "no_show_points": 60})
    tour, table = _live_tour(org, t)
    pid = table.partition.pk
    for seat in (1, 2, 3):  # seat 4 missing: pair B is absent
        play.claim_seat(pid, seat, PIN)
    frozen.to(live(pid).no_show_deadline)
    pipeline.sweep()
    partition = Partition.objects.get(pk=pid)
    assert (partition.status, partition.reason) == ("finished", "no_show")
    assert PartitionChange.objects.get(partition=partition, action="no_show").data["absent"] == ["B"]
    rows = {r.seat: (r.games_won, r.game_points, r.score) for r in SeatResult.objects.filter(partition=partition)}
    assert rows == {1: (1, 1, 60), 2: (0, 0, 0), 3: (1, 1, 60), 4: (0, 0, 0)}  # one game, no_show_points 60
    lines = [(line.rank, line.row.key, line.value("games_won"), line.value("points_won"))
             for line in standings_table(t).lines]
    assert lines == [(1, table.pair_a_id, 1, 60), (2, table.pair_b_id, 0, 0)]
