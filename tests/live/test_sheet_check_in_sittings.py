"""Check-in at the score sheet of a Goat, Sea Goat or points table, as at a sports one
(tests/live/test_sheet_check_in.py): the same pipeline action ticks and unticks a seat before the
sitting's first deal, audited; a penalty or a deal ends it; an import into a table only checked
in is still its referee's; the chief referee's view lists who is missing; the sheet's row in
Russian and English."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from builders import tournament, user
from livetools import login
from scoring.live import play
from scoring.models import Partition
from scoring.recording import commands, storage
from tournaments import services as tournament_services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GOAT = {"game": "goat", "players": 3, "lose_at": 40, "opening": 0, "games_per_tour": 2, "penalty_points": 10}
NAMES = ("Преображенская-Воскресенская", "Богословский-Рождественский", "Ёлкина")


def plain(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def event(regulations: dict, slug: str) -> dict:
    """One table of three players, its tour published and started: ``ref`` referees it, ``other``
    referees nothing, ``chief`` is the chief referee."""
    org, ref, other, chief = user("org", superuser=True), user("ref"), user("other"), user("chief")
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug=slug, regulations=regulations)
    for name, kind in (("ref", "referee"), ("other", "referee"), ("chief", "chief_referee")):
        tournament_services.add_role(org, t, name, kind)
    for name in NAMES:
        tournament_services.register_player(org, t, {"last_name": name})
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    tournament_services.assign_referee(org, table, ref)
    tours.publish_tour(org, tour)
    play.start_tour(chief, tour)
    sheet = f"/en/tournaments/{slug}/tours/1/tables/1/sheet/"
    return {"ref": ref, "other": other, "chief": chief, "table": table, "pk": table.partition.pk, "sheet": sheet,
            "chief_page": f"/en/tournaments/{slug}/manage/tours/1/chief/", "names": [str(p) for p in table.players]}


@pytest.fixture
def goat(frozen):
    return event(GOAT, "goat")


@pytest.fixture
def points(frozen):
    return event({"game": "points", "players": 3, "target": 100}, "points")


def test_a_goat_table_ticks_and_unticks_through_the_one_action_audited(goat):
    pk, ref = goat["pk"], goat["ref"]
    play.check_in(ref, pk, 3)
    play.check_in(ref, pk, 1)
    play.check_in(ref, pk, 3, present=False)  # ticked by mistake
    play.check_in(ref, pk, 3, present=False)  # unticked twice: recorded once
    partition = Partition.objects.get(pk=pk)
    assert partition.present == [1] and partition.version == 3 and partition.before_first_deal
    assert list(partition.changes.order_by("version").values_list("action", "data__seat")) == [
        ("check_in", 3), ("check_in", 1), ("check_in_undone", 3)]
    with pytest.raises(ValidationError, match="Nobody sits at seat 4"):
        play.check_in(ref, pk, 4)  # three players at this table
    with pytest.raises(PermissionDenied):
        play.check_in(goat["other"], pk, 2, present=False)
    # A penalty is the sitting's first record: check-in is over, either way.
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 2, "code": "signs"})
    for present in (True, False):
        with pytest.raises(ValidationError, match="check-in is over"):
            play.check_in(ref, pk, 1, present=present)
    partition = Partition.objects.get(pk=pk)
    assert partition.present == [1] and partition.version == 4 and not partition.before_first_deal


def test_a_goat_table_only_checked_in_still_takes_its_referees_import(goat):
    pk, ref = goat["pk"], goat["ref"]
    play.check_in(ref, pk, 2)
    regulations = {k: v for k, v in storage.engine_sitting(Partition.objects.get(pk=pk)).regulations.to_dict().items()
                   if v is not None}
    game = {"format": "domino-protocol/1", "regulations": regulations, "first_leader": 2,
            "deals": [{"end": "domino", "seat": 2, "values": {"1": 12, "3": 3}}]}
    partition = commands.import_sitting(ref, pk, game)
    assert (partition.version, partition.deals) == (2, 1) and not partition.before_first_deal
    with pytest.raises(ValidationError, match="already recorded"):
        commands.import_sitting(ref, pk, game)


def test_the_goat_sheet_ticks_unticks_and_the_chief_sees_who_is_missing(goat, frozen):
    ref, names, sheet = login(goat["ref"]), goat["names"], goat["sheet"]
    page = plain(ref.get(sheet))
    assert "Check-in" in page and "Tick each player who has come" in page
    assert f"1 {names[0]} Present 2 {names[1]} Present 3 {names[2]} Present" in page
    chief = plain(login(goat["chief"]).get(goat["chief_page"]))
    assert "No-shows pending 1" in chief and f"missing: 1 {names[0]}, 2 {names[1]}, 3 {names[2]}" in chief
    for seat in ("1", "2", "3"):
        ref.post(sheet + "check-in/", {"seat": seat})
    page = plain(ref.post(sheet + "check-in/", {"untick": "2"}, follow=True))  # seat 2 is not there after all
    assert f"1 {names[0]} present · untick 2 {names[1]} Present 3 {names[2]} present · untick" in page
    frozen.advance(60)
    chief = plain(login(goat["chief"]).get(goat["chief_page"]))
    assert f"missing: 2 {names[1]} " in chief and names[0] not in chief.split("missing:")[1]
    ref.post(sheet + "check-in/", {"seat": "2"})
    chief = plain(login(goat["chief"]).get(goat["chief_page"]))
    assert "No-shows pending 0" in chief
    assert list(Partition.objects.get(pk=goat["pk"]).changes.values_list("user__username", flat=True)) == ["ref"] * 5
    # The first record of the sitting: the row is gone, and an untick posted late is refused.
    commands.record_goat(goat["ref"], goat["pk"], "goat_penalty", {"seat": 2, "code": "signs"})
    assert "Tick each player who has come" not in plain(ref.get(sheet))
    refused = plain(ref.post(sheet + "check-in/", {"untick": "1"}, follow=True))
    assert "The partition has begun: check-in is over." in refused
    assert Partition.objects.get(pk=goat["pk"]).present == [1, 2, 3]


def test_the_goat_sheets_untick_is_refused_to_others_and_says_why(goat):
    play.check_in(goat["ref"], goat["pk"], 1)
    response = login(goat["other"]).post(goat["sheet"] + "check-in/", {"untick": "1"})
    assert response.status_code == 403
    response = login(goat["ref"]).post(goat["sheet"] + "check-in/", {"untick": "x"}, follow=True)
    assert "A seat is 1 to 4." in plain(response)
    assert Partition.objects.get(pk=goat["pk"]).present == [1]


def test_the_points_sheet_has_the_check_in_row_until_its_first_deal(points):
    ref, sheet, names = login(points["ref"]), points["sheet"], points["names"]
    page = plain(ref.post(sheet + "check-in/", {"seat": "3"}, follow=True))
    assert f"2 {names[1]} Present 3 {names[2]} present · untick" in page
    partition = Partition.objects.get(pk=points["pk"])
    assert partition.present == [3] and partition.before_first_deal
    commands.record_points_deal(points["ref"], points["pk"], {"points": {"1": 10, "2": 0, "3": 5}})
    assert "Tick each player who has come" not in plain(ref.get(sheet))


def test_the_goat_check_in_in_russian(goat):
    play.check_in(goat["ref"], goat["pk"], 1)
    page = plain(login(goat["ref"]).get(goat["sheet"].removeprefix("/en")))
    assert "Явка" in page and "на месте · снять отметку" in page
    history = plain(login(goat["ref"]).get(goat["sheet"].removeprefix("/en") + "history/"))
    assert "Игрок на месте" in history
