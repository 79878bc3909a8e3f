"""Check-in at a score-sheet table (no live row): the referee ticks the players present on the
sheet before the first deal, through the pipeline (audited, announced); the chief referee's view
lists who is still missing with the countdown to the tour's start plus ``no_show_minutes``, which
records nothing; "My tables" stops warning once everyone is there."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from builders import refereed_tour
from livetools import login
from scoring.live import play
from scoring.models import LiveEvent, LiveTable, Partition
from scoring.recording import commands, queries

pytestmark = pytest.mark.django_db

SHEET = "/en/tournaments/cup/tours/1/tables/1/sheet/"
CHIEF = "/en/tournaments/cup/manage/tours/1/chief/"


def plain(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def started(db, frozen):
    world = refereed_tour(target=100)
    play.start_tour(world["chief"], world["tour"])
    return world


def test_the_referee_ticks_players_present_audited_once(started):
    pk = started["p1"].pk
    play.check_in(started["ref"], pk, 3)
    play.check_in(started["ref"], pk, 1)
    play.check_in(started["ref"], pk, 1)  # ticked twice: recorded once
    partition = Partition.objects.get(pk=pk)
    assert partition.present == [1, 3] and partition.version == 2
    assert list(partition.changes.order_by("version").values_list("action", "data__seat", "user__username")) == [
        ("check_in", 3, "ref"), ("check_in", 1, "ref")]
    assert list(LiveEvent.objects.filter(partition=pk).values_list("kind", flat=True)) == ["check_in", "check_in"]
    assert partition.before_first_deal


def test_only_the_tables_referee_checks_in_and_only_before_the_first_deal(started):
    pk = started["p1"].pk
    with pytest.raises(PermissionDenied):
        play.check_in(started["other"], pk, 2)  # the referee of table 2
    with pytest.raises(ValidationError, match="A seat is 1 to 4"):
        play.check_in(started["ref"], pk, 5)
    play.check_in(started["chief"], pk, 2)  # the chief referee may record at every table
    commands.record(started["ref"], pk, "lead", {"seat": 1})
    with pytest.raises(ValidationError, match="check-in is over"):
        play.check_in(started["ref"], pk, 4)
    assert Partition.objects.get(pk=pk).present == [2]


def test_a_checked_in_table_still_takes_a_paper_protocol(started):
    pk = started["p1"].pk
    play.check_in(started["ref"], pk, 1)
    commands.record(started["other"], started["p2"].pk, "lead", {"seat": 2})
    document = queries.export_protocol(Partition.objects.get(pk=started["p2"].pk))  # the lead drawn
    document = {key: value for key, value in document.items() if key != "regulations"}
    commands.import_protocol(started["ref"], pk, document)
    partition = Partition.objects.get(pk=pk)
    assert partition.changes.filter(action="import").exists() and not partition.before_first_deal


def test_the_sheet_ticks_and_the_chief_sees_who_is_missing(started, frozen):
    ref, table = login(started["ref"]), started["table"]
    sheet = plain(ref.get(SHEET))
    assert "Check-in" in sheet and "Tick each player who has come" in sheet
    chief = plain(login(started["chief"]).get(CHIEF))
    assert "No-shows pending 2" in chief  # both score-sheet tables, nobody ticked yet
    assert "Table 1 · deadline" in chief and "( 5:00 )" in chief
    assert "score sheet: nothing is recorded by the clock, the referee records a no-show" in chief
    assert 'href="/en/tournaments/cup/tours/1/tables/1/sheet/"' in login(started["chief"]).get(CHIEF).content.decode()
    for seat in (1, 2, 3):
        ref.post(SHEET + "check-in/", {"seat": str(seat)})
    frozen.advance(120)
    chief = plain(login(started["chief"]).get(CHIEF))
    assert f"missing: 4 {table.seat4}" in chief and "( 3:00 )" in chief
    assert str(table.seat1) not in chief.split("missing:")[1].split("Table 2")[0]
    response = ref.post(SHEET + "check-in/", {"seat": "4"}, follow=True)
    assert "No-show at" not in plain(ref.get("/en/referee/")).split("Table 2")[0]
    chief = plain(login(started["chief"]).get(CHIEF))
    assert "No-shows pending 1" in chief and "Table 1 · deadline" not in chief
    # Everyone is there: the sheet shows every seat present, then nothing once the lead is drawn.
    assert plain(response).count("present") >= 4
    commands.record(started["ref"], started["p1"].pk, "lead", {"seat": 1})
    assert "Tick each player who has come" not in plain(ref.get(SHEET))


def test_the_sheets_check_in_is_refused_to_others_and_says_why(started):
    response = login(started["other"]).post(SHEET + "check-in/", {"seat": "1"})
    assert response.status_code == 403 and Partition.objects.get(pk=started["p1"].pk).present == []
    response = login(started["ref"]).post(SHEET + "check-in/", {"seat": "x"}, follow=True)
    assert "A seat is 1 to 4." in plain(response)


def test_the_check_in_in_russian(started):
    sheet = plain(login(started["ref"]).get("/tournaments/cup/tours/1/tables/1/sheet/"))
    assert "Явка" in sheet and "Отметьте каждого пришедшего игрока" in sheet
    chief = plain(login(started["chief"]).get("/tournaments/cup/manage/tours/1/chief/"))
    assert "протокол: по часам ничего не записывается, неявку записывает судья" in chief


def test_a_tick_made_by_mistake_is_unticked_audited_and_the_chief_sees_him_missing(started):
    pk, ref, table = started["p1"].pk, login(started["ref"]), started["table"]
    for seat in ("1", "2", "3", "4"):
        ref.post(SHEET + "check-in/", {"seat": seat})
    assert "Table 1 · deadline" not in plain(login(started["chief"]).get(CHIEF))
    page = plain(ref.post(SHEET + "check-in/", {"untick": "4"}, follow=True))
    assert f"3 {table.seat3} present · untick 4 {table.seat4} Present" in page
    chief = plain(login(started["chief"]).get(CHIEF))
    assert "Table 1 · deadline" in chief and f"missing: 4 {table.seat4}" in chief
    partition = Partition.objects.get(pk=pk)
    assert partition.present == [1, 2, 3] and partition.version == 5
    change = partition.changes.get(version=5)
    assert (change.action, change.data["seat"], change.user.username) == ("check_in_undone", 4, "ref")
    assert "Player&#x27;s check-in undone" in ref.get(SHEET + "history/").content.decode()
    assert list(LiveEvent.objects.filter(partition=pk).values_list("kind", flat=True))[-1] == "check_in_undone"
    play.check_in(started["ref"], pk, 4, present=False)  # not ticked: nothing recorded
    assert Partition.objects.get(pk=pk).version == 5


def test_an_untick_is_the_tables_referees_before_the_first_deal_only(started):
    pk = started["p1"].pk
    play.check_in(started["ref"], pk, 1)
    with pytest.raises(PermissionDenied):
        play.check_in(started["other"], pk, 1, present=False)
    commands.record(started["ref"], pk, "lead", {"seat": 1})
    response = login(started["ref"]).post(SHEET + "check-in/", {"untick": "1"}, follow=True)
    assert "The partition has begun: check-in is over." in plain(response)
    assert Partition.objects.get(pk=pk).present == [1]


def test_a_live_table_keeps_its_check_in(db, frozen):
    world = refereed_tour(target=100)
    world["tour"].play_mode = "refereed"
    world["tour"].save(update_fields=["play_mode"])
    play.start_tour(world["chief"], world["tour"])
    pk = world["p1"].pk
    play.check_in(world["ref"], pk, 2)
    with pytest.raises(ValidationError, match="A live table keeps its check-in"):
        play.check_in(world["ref"], pk, 2, present=False)
    assert LiveTable.objects.get(pk=pk).present == [2]
