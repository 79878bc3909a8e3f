"""The hall screen of a tour and the chief referee's view: who sees them, the late tables marked
(the clock in the test's hand), the recent timeouts, a few queries whatever the number of tables,
Russian and English; Goat and Sea Goat tables (players without pairs, the game of the sitting,
the bazaar, their standings)."""

from __future__ import annotations

import datetime
import itertools
import re

import pytest
from django.test import Client

import builders
from livetools import PIN, live_tour, login
from scoring.live import play
from scoring.models import LiveTable
from scoring.protocols.confirmations import set_pin
from scoring.recording import commands, pipeline
from scoring.web import hall
from tournaments import services, tours
from tournaments.models import Tour, Tournament

pytestmark = pytest.mark.django_db

HALL = "/tournaments/cup/tours/1/hall/"
CHIEF = "/tournaments/cup/manage/tours/1/chief/"
FETCH = {"HTTP_X_REQUESTED_WITH": "fetch"}


def text(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def rows(world) -> dict[int, hall.HallTable]:
    return {row.number: row for row in hall.hall_tables(world["tour"])[0]}


def live(world, key: str = "p1") -> LiveTable:
    return LiveTable.objects.get(pk=world[key].pk)


# -- who sees what -------------------------------------------------------------------------------------


def test_the_hall_is_public_and_the_chief_view_is_for_the_chief_referee_and_organisers(digital):
    anonymous = Client()
    assert anonymous.get(HALL).status_code == 200
    assert anonymous.get(HALL + "fragment/").status_code == 200
    assert anonymous.get(CHIEF).status_code == 302  # to the login
    assert anonymous.get(CHIEF + "fragment/").status_code == 302
    stranger = builders.user("stranger")
    for user in (stranger, digital["ref"]):  # a table's referee is not the chief referee
        assert login(user).get(CHIEF).status_code == 403
        assert login(user).get(CHIEF + "fragment/").status_code == 403
    organiser = builders.user("organiser")
    services.add_role(digital["org"], digital["t"], "organiser", "organiser")
    for user in (digital["chief"], digital["org"], organiser):
        assert login(user).get(CHIEF).status_code == 200
        assert login(user).get(CHIEF + "fragment/").status_code == 200
    assert anonymous.get("/tournaments/cup/tours/9/hall/").status_code == 404


def test_a_draft_tournament_or_tour_has_no_public_hall(db, frozen):
    world = live_tour("digital")
    Tour.objects.filter(pk=world["tour"].pk).update(status=Tour.Status.DRAFT)
    assert Client().get(HALL).status_code == 404
    assert login(world["ref"]).get(HALL).status_code == 200
    Tour.objects.filter(pk=world["tour"].pk).update(status=Tour.Status.PUBLISHED)
    Tournament.objects.filter(pk=world["t"].pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(HALL).status_code == 404
    assert Client().get(HALL + "fragment/").status_code == 404
    assert login(world["chief"]).get(HALL).status_code == 200


def test_the_pages_link_to_the_hall_and_the_chief_view(digital):
    assert HALL in text(Client().get("/tournaments/cup/tours/1/"))
    assert CHIEF not in text(Client().get("/tournaments/cup/tours/1/"))
    assert CHIEF in text(login(digital["chief"]).get("/tournaments/cup/tours/1/"))
    assert CHIEF in text(login(digital["org"]).get("/tournaments/cup/manage/tours/1/"))
    assert HALL in text(Client().get("/tournaments/cup/tours/1/tables/1/live/"))
    assert "/tournaments/cup/tours/1/tables/2/referee/" in text(login(digital["chief"]).get(CHIEF))  # its no-show


def test_russian_by_default_and_english_under_en(digital):
    page = text(Client().get(HALL))
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in page  # without the script
    assert "Тур 1: зал" in page and "Стол 1" in page and "Время партии" in page and "Турнирная таблица" in page
    page = text(Client().get("/en" + HALL))
    assert "Tour 1: the hall" in page and "Table 1" in page and "Time of the partition" in page
    assert "Standings" in page
    chief = text(login(digital["chief"]).get(CHIEF))
    assert "Тур 1: главный судья" in chief and "Вызовы судьи" in chief and "Неявки" in chief
    chief = text(login(digital["chief"]).get("/en" + CHIEF))
    assert "Tour 1: the chief referee" in chief and "Calls waiting" in chief and "No-shows pending" in chief


# -- the tiles and their marks ------------------------------------------------------------------------


def test_a_tile_shows_the_pairs_the_totals_the_clock_and_whose_turn(digital, frozen):
    table = live(digital)
    row = rows(digital)[1]
    assert row.awaited.number == table.seat
    assert row.time == {"deadline": table.time_deadline.isoformat(), "left": 40 * 60}
    assert not row.late
    page = text(Client().get(HALL + "fragment/", **FETCH))
    seat1, seat2 = digital["table"].seat1, digital["table"].seat2
    assert str(seat1) in page and str(seat2) in page
    assert f'data-deadline="{table.time_deadline.isoformat()}"' in page
    assert "Ходит" in page and "hall-tile--late" in page  # table 2 waits for its players


def test_a_pause_is_late_after_two_minutes_not_before(digital, frozen):
    play.pause(digital["ref"], digital["p1"].pk, "dispute")
    frozen.advance(119)
    row = rows(digital)[1]
    assert row.paused and row.paused_for == 119 and not row.long_pause and not row.late
    assert "Пауза 1:59" not in text(Client().get(HALL))
    frozen.advance(2)
    row = rows(digital)[1]
    assert row.paused_for == 121 and row.long_pause and row.late
    # The stopped partition clock shows the time it had left.
    assert row.time == {"deadline": "", "left": 40 * 60}
    page = text(Client().get(HALL))
    assert "Пауза 2:01" in page
    chief = text(login(digital["chief"]).get(CHIEF))
    assert "спор" in chief and "2:01" in chief


def test_the_partition_time_run_out_is_marked(digital, frozen):
    table = live(digital)
    LiveTable.objects.filter(pk=table.pk).update(time_deadline=frozen.now + datetime.timedelta(seconds=5))
    assert not rows(digital)[1].time_out
    frozen.advance(6)
    # Reading the hall records the clock that ran out (as every live page does), and marks it.
    row = rows(digital)[1]
    assert row.time_out and row.late and row.time is None
    assert live(digital).time_deadline is None
    assert "Время вышло: последний кон" in text(Client().get(HALL))


def test_a_pending_no_show_names_who_is_missing(db, frozen):
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    play.check_in(world["other"], world["p2"].pk, 1)
    play.check_in(world["other"], world["p2"].pk, 3)
    row = rows(world)[2]
    assert row.no_show and [seat.number for seat in row.missing] == [2, 4]
    page = text(Client().get(HALL))
    assert "Ожидается неявка" in page and str(world["table2"].seat2) in page
    chief = text(login(world["chief"]).get(CHIEF))
    assert str(world["table2"].seat4) in chief and "/tournaments/cup/tours/1/tables/2/referee/" in chief
    # Everyone came: nothing pending.
    play.check_in(world["other"], world["p2"].pk, 2)
    play.check_in(world["other"], world["p2"].pk, 4)
    assert not rows(world)[2].no_show


def test_a_table_on_the_score_sheet_shows_its_totals_and_status_only(db, frozen):
    world = live_tour("digital")
    table2 = world["table2"]
    table2.play_mode = "sheet"
    table2.save(update_fields=["play_mode"])
    play.start_tour(world["chief"], world["tour"])
    row = rows(world)[2]
    assert row.live is None and row.time is None and not row.late and row.status_label == "not started"
    page = text(Client().get(HALL))
    second = page[page.index('data-table="2"'):]
    assert "не начата" in second and "data-deadline" not in second


# -- the chief referee's lists ------------------------------------------------------------------------


def test_calls_pauses_and_recent_timeouts_with_their_consequence(digital, frozen):
    table = live(digital)
    player = digital["table"].seats[table.seat - 1]
    frozen.to(table.deadline + datetime.timedelta(seconds=1))
    chief = login(digital["chief"])
    page = text(chief.get(CHIEF + "fragment/", **FETCH))  # the view catches the clock up: a warning
    timeouts = page[page.index('id="timeouts-title"'):page.index('id="no-shows-title"')]
    assert str(player) in timeouts and "предупреждение" in timeouts and "Стол 1" in timeouts
    play.pause(digital["ref"], digital["p1"].pk, "call")
    page = text(chief.get(CHIEF))
    calls = page[page.index('id="calls-title"'):page.index('id="paused-title"')]
    assert "Стол 1" in calls and "/tournaments/cup/tours/1/tables/1/referee/" in calls
    # Ten minutes on, the timeout is no longer recent.
    frozen.advance(10 * 60 + 1)
    page = text(chief.get(CHIEF))
    timeouts = page[page.index('id="timeouts-title"'):page.index('id="no-shows-title"')]
    assert str(player) not in timeouts and "Недавних просрочек хода нет." in timeouts


def test_a_second_timeout_of_a_turn_is_a_penalty(digital, frozen):
    table = live(digital)
    frozen.to(table.deadline + datetime.timedelta(seconds=table.allowance + 1))
    timeouts = hall.recent_timeouts(*hall.hall_tables(digital["tour"]))
    assert [(t.lapse, t.consequence, t.seat.number) for t in timeouts] == [
        (2, "penalty", table.seat), (1, "warning", table.seat)]
    # Each at its deadline, as the protocols print it, not at the moment both were recorded.
    second = table.deadline + datetime.timedelta(seconds=table.allowance)
    assert [t.at for t in timeouts] == [second, table.deadline]


# -- a few queries whatever the number of tables ----------------------------------------------------------


HANDS = {"1": "6-6 5-5 4-4 3-3 2-2 1-1 0-0".split(), "2": "6-5 6-4 6-3 6-2 6-1 6-0 5-4".split(),
         "3": "4-3 4-2 4-1 4-0 3-2 3-1 3-0".split(), "4": "5-3 5-2 5-1 5-0 2-1 2-0 1-0".split()}


@pytest.fixture
def eight_tables(db, frozen):
    """Eight refereed tables: one paused by a call, one with one player present, three whose
    first move ran out (a warning each), three where nobody came yet."""
    org = builders.user("org", superuser=True)
    t = builders.tournament(org, pairs=16)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    tour.play_mode = "refereed"
    tour.save(update_fields=["play_mode"])
    play.start_tour(org, tour)
    tables = list(tour.tables.order_by("number"))
    play.pause(org, tables[0].partition.pk, "call")
    play.check_in(org, tables[1].partition.pk, 1)
    for table in tables[2:5]:
        play.start_partition(org, table.partition.pk, 1)
        play.enter_hands(org, table.partition.pk, HANDS)
    frozen.advance(21)  # a lead has 20 s
    hall.hall_tables(tour)  # records the three timeouts
    return {"org": org, "tour": tour, "tables": tables}


def test_the_hall_and_the_chief_view_read_in_a_few_queries(eight_tables, django_assert_max_num_queries):
    assert len(eight_tables["tables"]) == 8
    client = login(eight_tables["org"])
    client.get(HALL)  # the session, once
    with django_assert_max_num_queries(13):
        page = text(client.get(HALL + "fragment/", **FETCH))
    assert page.count('data-table="') == 8 and page.count("1 просрочка") == 3
    with django_assert_max_num_queries(13):
        page = text(client.get(CHIEF + "fragment/", **FETCH))
    # One call, three timeouts, five tables waiting for players (the paused one too).
    assert page.count("предупреждение") == 3 and page.count("Планшет стола") == 1 + 3 + 5


# -- Goat and Sea Goat tables --------------------------------------------------------------------------


GOAT_HALL = "/tournaments/goat/tours/1/hall/"
GOAT_CHIEF = "/tournaments/goat/manage/tours/1/chief/"
#: Seven players: a table of four and a table of three.
GOAT_PLAYERS = (("Константинопольский-Задунайский", "Александр"), ("Преображенская", "Анастасия"),
                ("Воскресенский", "Илья"), ("Богословская", "Мария"), ("Рождественский", "Пётр"),
                ("Благовещенская", "Ольга"), ("Вознесенский", "Фёдор"))


def goat_tour(monkeypatch, seated=(1, 2, 3), **regulations) -> dict:
    """Tour 1 of a Goat event of seven players (three games to 40 a sitting) started: table 1
    (four players) on the score sheet, table 2 (three players) digital, the ``seated`` players
    on their phones; the deals' seeds fixed (1, 2, 3...)."""
    seeds = itertools.count(1)
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(seeds))
    org, chief = builders.user("org", superuser=True), builders.user("chief")
    t = builders.tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat",
                            regulations={"game": "goat", "lose_at": 40, "games_per_tour": 3, **regulations})
    services.add_role(org, t, "chief", "chief_referee")
    for last, first in GOAT_PLAYERS:
        set_pin(org, services.register_player(org, t, {"last_name": last, "first_name": first}).player_id, PIN)
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    tour.play_mode = "digital"
    tour.save(update_fields=["play_mode"])
    table1, table2 = tour.tables.order_by("number")
    table1.play_mode = "sheet"
    table1.save(update_fields=["play_mode"])
    play.start_tour(chief, tour)
    tokens = {seat: play.claim_seat(table2.partition.pk, seat, PIN) for seat in seated}
    return {"org": org, "chief": chief, "t": t, "tour": tour, "table": table1, "table2": table2,
            "p1": table1.partition, "p2": table2.partition, "tokens": tokens}


def tile(page: str, number: int) -> str:
    """The tile of table ``number`` in the hall's page."""
    start = page.index(f'data-table="{number}"')
    end = page.find('data-table="', start + 1)
    return page[start:end if end > 0 else page.index('class="hall__standings"')]


def test_a_goat_tour_has_its_hall_and_chief_view_linked(db, frozen, monkeypatch):
    world = goat_tour(monkeypatch)
    anonymous, chief = Client(), login(world["chief"])
    for path in (GOAT_HALL, GOAT_HALL + "fragment/"):
        assert anonymous.get(path).status_code == 200  # no more a 404
    # Every action of a Goat table refreshes the screen: a draw from the bazaar, a redeal, a deal on the sheet.
    kinds = re.search(r'data-event-kinds="([^"]*)"', text(anonymous.get(GOAT_HALL))).group(1).split()
    assert {"draw", "redeal", "goat_deal", "timeout", "move"} <= set(kinds)
    for path in (GOAT_CHIEF, GOAT_CHIEF + "fragment/"):
        assert chief.get(path).status_code == 200
        assert login(builders.user("stranger" + path[-2])).get(path).status_code == 403
    assert GOAT_HALL in text(anonymous.get("/tournaments/goat/tours/1/"))
    assert GOAT_CHIEF in text(chief.get("/tournaments/goat/tours/1/"))
    assert GOAT_CHIEF in text(login(world["org"]).get("/tournaments/goat/manage/tours/1/"))
    assert GOAT_HALL in text(anonymous.get("/tournaments/goat/tours/1/tables/2/live/"))


def test_a_goat_tile_shows_the_players_their_scores_the_game_whose_turn_and_the_bazaar(
        db, frozen, monkeypatch, django_assert_max_num_queries):
    world = goat_tour(monkeypatch)
    table1, table2 = world["table"], world["table2"]
    # Table 1, on the score sheet: seat 3 reaches 44 (the goat at 40) and ends game 1 (seat 2's
    # 12 is memorised, under the opening of 13; seat 4 opens with 20). In game 2 seat 1 is
    # charged 30, seat 3's 5 is memorised, seat 4 opens with 14.
    commands.record_goat_deal(world["org"], world["p1"].pk, {"lead": 1, "end": "domino", "seat": 1,
                                                            "values": {"2": 12, "3": 44, "4": 20}})
    commands.record_goat_deal(world["org"], world["p1"].pk, {"lead": 2, "end": "domino", "seat": 2,
                                                            "values": {"1": 30, "3": 5, "4": 14}})
    row1, row2 = rows(world)[1], rows(world)[2]
    assert (row1.game, row1.game_number, row1.games, row1.bazaar, row1.live) == ("goat", 2, 3, None, None)
    assert [[seat.player for seat in unit.seats] for unit in row1.units] == [[p] for p in table1.players]
    assert [(u.score, u.memo, u.goats, u.pair) for u in row1.units] == [
        (30, 0, 0, ""), (0, 0, 0, ""), (0, 5, 1, ""), (14, 0, 0, "")]
    # Table 2, digital: three players, each with 7 tiles, 7 left in the bazaar; the clock runs.
    live2 = live(world, "p2")
    assert [u.score for u in row2.units] == [0, 0, 0] and len(row2.seats) == 3
    assert (row2.game_number, row2.bazaar) == (1, 7)
    assert row2.awaited.number == live2.seat and row2.awaited.player == table2.players[live2.seat - 1]
    assert row2.time == {"deadline": live2.time_deadline.isoformat(), "left": 40 * 60} and not row2.late
    with django_assert_max_num_queries(13):  # as many as for sports tables: the sittings are in their rows
        page = text(Client().get(GOAT_HALL + "fragment/", **FETCH))
    first, second = tile(page, 1), tile(page, 2)
    assert "Партия 2 из 3" in first and "Базар" not in first and "data-deadline" not in first
    assert all(str(player) in first for player in table1.players)
    names = re.findall(r'class="hall-score__name">.*?</span> <span>(.*?)</span>', first)
    points = re.findall(r'class="hall-score__points">(\d+)<', first)
    assert names == [str(p) for p in table1.players] and points == ["30", "0", "0", "14"]
    assert "в памяти 5" in first and first.count("козёл") == 1
    assert "Партия 1 из 3 · Базар: 7 фишек" in second
    assert re.findall(r'class="hall-score__points">(\d+)<', second) == ["0", "0", "0"]
    assert f'Ходит: <span class="seat-dot">{live2.seat}</span> {table2.players[live2.seat - 1]}' in second
    assert f'data-deadline="{live2.time_deadline.isoformat()}"' in second
    assert "seat-dot--" not in page and "Пара" not in first + second  # players each for himself
    # The standings are the Goat ones: game points, goats, total score (nothing finished yet).
    standings = page[page.index('class="hall__standings"'):]
    assert re.search(r"Игровые очки</th>\s*<th[^>]*>Козлы</th>\s*<th[^>]*>Сумма очков</th>", standings)


def test_a_goat_timeout_is_on_the_chief_view_a_warning_then_a_penalty(db, frozen, monkeypatch):
    world = goat_tour(monkeypatch)
    table = live(world, "p2")
    player = world["table2"].players[table.seat - 1]
    frozen.to(table.deadline + datetime.timedelta(seconds=1))
    chief = login(world["chief"])
    page = text(chief.get(GOAT_CHIEF + "fragment/", **FETCH))  # the view catches the clock up
    timeouts = page[page.index('id="timeouts-title"'):page.index('id="no-shows-title"')]
    assert f"Стол 2</strong>\n      · <span class=\"seat-dot\">{table.seat}</span> {player}" in timeouts
    assert "предупреждение" in timeouts and "штраф" not in timeouts
    assert "/tournaments/goat/tours/1/tables/2/referee/" in timeouts
    frozen.advance(table.allowance)
    page = text(chief.get(GOAT_CHIEF))
    timeouts = page[page.index('id="timeouts-title"'):page.index('id="no-shows-title"')]
    assert timeouts.count(str(player)) == 2 and "штраф" in timeouts
    # The penalty charges penalty_points (25) to him in the game being played.
    assert [u.score for u in rows(world)[2].units] == [25 if seat == table.seat else 0 for seat in (1, 2, 3)]


def test_a_goat_game_lost_on_time_is_on_the_chief_view_and_the_next_game_on_the_tile(
        db, frozen, monkeypatch):
    world = goat_tour(monkeypatch, move_timeout="forfeit")
    table = live(world, "p2")
    player = world["table2"].players[table.seat - 1]
    frozen.to(table.deadline + datetime.timedelta(seconds=1))
    page = text(login(world["chief"]).get(GOAT_CHIEF))
    timeouts = page[page.index('id="timeouts-title"'):page.index('id="no-shows-title"')]
    assert str(player) in timeouts and "игра проиграна по времени" in timeouts
    row = rows(world)[2]
    assert (row.game_number, row.bazaar) == (2, 7) and [u.score for u in row.units] == [0, 0, 0]
    assert "Партия 2 из 3" in tile(text(Client().get(GOAT_HALL)), 2)


def test_a_paused_goat_table_is_a_call_on_the_chief_view(db, frozen, monkeypatch):
    world = goat_tour(monkeypatch)
    play.pause(world["chief"], world["p2"].pk, "call")
    frozen.advance(121)
    row = rows(world)[2]
    assert row.paused and row.long_pause and row.late
    assert "Пауза 2:01" in tile(text(Client().get(GOAT_HALL)), 2)
    page = text(login(world["chief"]).get(GOAT_CHIEF))
    calls = page[page.index('id="calls-title"'):page.index('id="paused-title"')]
    assert "Стол 2" in calls and "/tournaments/goat/tours/1/tables/2/referee/" in calls


def test_a_goat_table_waiting_for_a_player_is_a_pending_no_show(db, frozen, monkeypatch):
    world = goat_tour(monkeypatch, seated=(1, 3))
    missing = world["table2"].players[1]
    row = rows(world)[2]
    assert row.no_show and row.late and [seat.number for seat in row.missing] == [2]
    assert row.awaited is None and row.bazaar is None  # nothing is dealt before everyone is there
    second = tile(text(Client().get(GOAT_HALL)), 2)
    assert f'Ожидается неявка</span> <span class="seat-dot">2</span> {missing}' in second
    page = text(login(world["chief"]).get(GOAT_CHIEF))
    no_shows = page[page.index('id="no-shows-title"'):]
    assert f'<span class="seat-dot">2</span> {missing}' in no_shows and "Стол 2" in no_shows


def test_a_finished_goat_sitting_shows_its_game_points_and_the_goat_standings(db, frozen, monkeypatch):
    world = goat_tour(monkeypatch, games_per_tour=1)
    table1 = world["table"]
    # The one game of table 1: seat 3 is the goat at 44; game points (100 - score) / 10, the goat
    # none: seats 1 and 2 (nothing counted) 10, seat 4 (20) 8.
    commands.record_goat_deal(world["org"], world["p1"].pk, {"lead": 1, "end": "domino", "seat": 1,
                                                            "values": {"2": 12, "3": 44, "4": 20}})
    row = rows(world)[1]
    assert row.finished and row.time is None and row.bazaar is None
    assert [(u.score, u.memo, u.goats) for u in row.units] == [(10, 0, 0), (10, 0, 0), (0, 0, 1), (8, 0, 0)]
    page = text(Client().get(GOAT_HALL))
    first = tile(page, 1)
    assert 'hall-tile--over" data-table="1"' in page and "Игровые очки" in first and "окончена" in first and "Партия" not in first
    assert re.findall(r'class="hall-score__points">(\d+)<', first) == ["10", "10", "0", "8"]
    assert first.count("козёл") == 1
    # The standings: game points, then goats (fewer first), then total score (lower first): the
    # three players of table 2 (nothing finished: 0, 0, 0) before the goat.
    standings = page[page.index('class="hall__standings"'):]
    lines = re.findall(r"<tr><td>(\d+)</td><th[^>]*>(.*?)</th>\s*((?:<td class=\"num\">\d+</td>)+)", standings)
    table = [(int(rank), name, [int(v) for v in re.findall(r">(\d+)<", values)]) for rank, name, values in lines]
    players = table1.players
    assert sorted(table[:2]) == sorted([(1, str(players[0]), [10, 0, 0]), (1, str(players[1]), [10, 0, 0])])
    assert table[2] == (3, str(players[3]), [8, 0, 20])
    assert {name for _rank, name, _values in table[3:6]} == {str(p) for p in world["table2"].players}
    assert [(rank, values) for rank, _name, values in table[3:6]] == [(4, [0, 0, 0])] * 3
    assert table[6] == (7, str(players[2]), [0, 1, 44])


def test_a_sea_goat_table_of_two_pairs_shows_its_pairs_and_games_won(db, frozen, client):
    org = builders.user("org", superuser=True)
    t = builders.tournament(org, pairs=4, slug="sea", regulations={"game": "sea_goat"})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    table1, table2 = tour.tables.order_by("number")
    # Seat 1 makes domino: pair A is credited pair B's 70 + 60 = 130, past the target of 125.
    commands.record_goat_deal(org, table1.partition.pk, {"lead": 1, "end": "domino", "seat": 1,
                                                        "values": {"2": 70, "3": 10, "4": 60}})
    row1, row2 = (row for row in hall.hall_tables(tour)[0])
    assert row1.game == "sea_goat" and row1.finished
    assert [([s.number for s in u.seats], u.pair, u.score) for u in row1.units] == [([1, 3], "A", 1), ([2, 4], "B", 0)]
    assert [(u.pair, u.score) for u in row2.units] == [("A", 0), ("B", 0)] and row2.game_number == 1
    page = text(client.get("/tournaments/sea/tours/1/hall/"))
    first = tile(page, 1)
    assert "Выиграно партий" in first and first.count("hall-score__unit--a") == 1
    assert str(table1.seat1) in first and str(table1.seat3) in first
    assert "Партия 1 из 1" in tile(page, 2)
    # The Sea Goat standings of the pairs: games won, then points.
    standings = page[page.index('class="hall__standings"'):]
    assert re.search(r"Выиграно партий</th>\s*<th[^>]*>Очки</th>", standings)
    winner = table1.pair_a
    first_line = re.search(r"<tr><td>1</td><th[^>]*>(.*?)</th>\s*<td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td>",
                           standings)
    assert f"№{winner.number}" in first_line.group(1) and first_line.groups()[1:] == ("1", "130")
