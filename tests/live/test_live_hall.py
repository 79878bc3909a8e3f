"""The hall screen of a tour and the chief referee's view: who sees them, the late tables marked
(the clock in the test's hand), the recent timeouts, a few queries whatever the number of tables,
Russian and English."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

import builders
from livetools import live_tour, login
from scoring.live import hall, play
from scoring.models import LiveTable
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


def test_a_pending_no_show_names_who_is_missing(db, frozen, timers_sent):
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


def test_a_table_on_the_score_sheet_shows_its_totals_and_status_only(db, frozen, timers_sent):
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


# -- a few queries whatever the number of tables ----------------------------------------------------------


HANDS = {"1": "6-6 5-5 4-4 3-3 2-2 1-1 0-0".split(), "2": "6-5 6-4 6-3 6-2 6-1 6-0 5-4".split(),
         "3": "4-3 4-2 4-1 4-0 3-2 3-1 3-0".split(), "4": "5-3 5-2 5-1 5-0 2-1 2-0 1-0".split()}


@pytest.fixture
def eight_tables(db, frozen, timers_sent):
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
