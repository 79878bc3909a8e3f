"""Issue 18, item 5: the hands of the deal in play, tried as a hostile member of the staff would.

During a deal a hand is seen by its holder, by the table's referee while he enters the hands or
moves for a player without a phone, and by the chief referee; each of their looks is in the
audit trail (HandLook). A referee of another table, an organiser and a visitor get the exports
and old versions ending at the last finished deal (a valid protocol file), and a refused move
names no tile of the hand but the one sent.
"""

from __future__ import annotations

import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

import builders
from builders import user
from livetools import goat_table, live_tour, login, seated
from scoring import engine
from scoring.live import play
from scoring.models import HandLook, LiveTable, Partition
from tournaments import services as tournament_services
from trustworld import api
from scoring.recording import commands, formats, queries, storage

pytestmark = pytest.mark.django_db

TILES = [str(t) for t in engine.TILES]
HANDS = {"1": TILES[0:7], "2": TILES[7:14], "3": TILES[14:21], "4": TILES[21:28]}
TILE = re.compile(r"\b[0-6]-[0-6]\b")


def turn(pk: int) -> int:
    return LiveTable.objects.get(pk=pk).turn


def organiser(world: dict):
    """An organiser of the tournament who is no superuser and no referee."""
    someone = user("plain-org")
    tournament_services.add_role(world["org"], world["t"], someone.username, "organiser")
    return someone


@pytest.fixture
def refereed(db, frozen):
    """Table 1 refereed: deal 1 ended by a false pass at the lead, deal 2's hands entered and its
    first tile played (a deal in play)."""
    world = live_tour("refereed")
    play.start_tour(world["chief"], world["tour"])
    pk, ref = world["p1"].pk, world["ref"]
    play.start_partition(ref, pk, 1)
    play.enter_hands(ref, pk, HANDS, turn=turn(pk))
    play.move(play.Actor(ref), pk, turn(pk), pass_turn=True)  # at the lead every tile fits: a false pass
    play.enter_hands(ref, pk, HANDS, turn=turn(pk))
    deal = storage.engine_partition(Partition.objects.get(pk=pk)).current
    move = deal.legal_moves()[0].to_dict()
    play.move(play.Actor(ref), pk, turn(pk), tile=move["tile"], end=move.get("end"))
    world["pk"], world["organiser"] = pk, organiser(world)
    return world


def export(who, pk: int, version: int | None = None):
    query = f"?version={version}" if version is not None else ""
    return api(who).get(f"/api/partitions/{pk}/export/{query}")


def assert_ends_at_the_last_finished_deal(document: dict, finished: int) -> None:
    assert len(document["deals"]) == finished, document["deals"]
    read, _names = engine.read_protocol(document)  # still a valid domino-protocol/1 file
    assert read.current is None and len(read.deals) == finished  # every deal in it finished: no hand in play


def test_a_referee_of_another_table_an_organiser_and_a_visitor_see_no_hand_of_the_deal_in_play(refereed):
    pk = refereed["pk"]
    for who in (refereed["other"], refereed["organiser"]):
        answer = export(who, pk)
        assert answer.status_code == 200, answer.content
        assert_ends_at_the_last_finished_deal(answer.json(), 1)
        page = api(who).get(f"/api/partitions/{pk}/live/").json()
        assert page["current"]["hands"] == {} and "legal" not in page["current"]
    assert export(None, pk).status_code in (401, 403)  # a visitor: no export of a table being played
    # The organiser may open the tablet (he records any table) but sees no hand on it.
    tablet = login(refereed["organiser"]).get(f"/en/tournaments/{refereed['t'].slug}/tours/1/tables/1/referee/")
    assert tablet.status_code == 200 and not set(HANDS["3"]) <= set(TILE.findall(tablet.content.decode()))
    assert not HandLook.objects.exists()  # nobody saw a hand


def test_the_tables_own_referee_and_the_chief_referee_see_the_hands_and_their_look_is_recorded(refereed):
    pk = refereed["pk"]
    for who in (refereed["ref"], refereed["chief"]):
        document = export(who, pk).json()
        assert len(document["deals"]) == 2 and "end" not in document["deals"][-1]
        assert document["deals"][-1]["hands"] == HANDS
        page = api(who).get(f"/api/partitions/{pk}/live/").json()
        shown = page["current"]["hands"]
        assert sorted(shown) == ["1", "2", "3", "4"] and all(set(shown[s]) <= set(HANDS[s]) for s in shown)
        assert sum(map(len, shown.values())) == 27  # every hand, one tile played
    looks = HandLook.objects.filter(partition_id=pk).order_by("user__username", "route")
    assert [(look.user.username, look.route, look.deal, look.seats) for look in looks] == [
        ("chief", "export", 2, [1, 2, 3, 4]), ("chief", "live_api", 2, [1, 2, 3, 4]),
        ("ref", "export", 2, [1, 2, 3, 4]), ("ref", "live_api", 2, [1, 2, 3, 4])]
    export(refereed["ref"], pk)
    assert HandLook.objects.filter(partition_id=pk).count() == 4  # the first look per deal and route
    tablet = login(refereed["ref"]).get(f"/en/tournaments/{refereed['t'].slug}/tours/1/tables/1/referee/")
    assert set(HANDS["3"]) <= set(TILE.findall(tablet.content.decode()))
    assert HandLook.objects.filter(partition_id=pk, user=refereed["ref"], route="tablet", deal=2).exists()


def test_an_old_version_recorded_mid_deal_ends_at_the_last_finished_deal(db, frozen):
    """A score-sheet table whose protocol stops in the middle of a deal (its referee typed the
    hands in): every version made during that deal hides it from the others."""
    world = builders.refereed_tour()
    pk, ref = world["p2"].pk, world["other"]
    document = {"format": "domino-protocol/1", "first_leader": 1,
                "deals": [{"end": "domino", "seat": 1, "pips": {"A": 10, "B": 20}}, {"hands": HANDS, "moves": []}]}
    commands.import_protocol(ref, pk, document)
    commands.record(ref, pk, "violation", {"seat": 2, "code": "conduct"})
    hidden = organiser(world)
    for version in (1, None):
        assert_ends_at_the_last_finished_deal(export(hidden, pk, version).json(), 1)
        assert_ends_at_the_last_finished_deal(export(world["ref"], pk, version).json(), 1)  # another table's
        assert len(export(ref, pk, version).json()["deals"]) == 2
    sheet = api(hidden).get(f"/api/partitions/{pk}/")
    assert sheet.status_code == 200 and "hands" not in sheet.content.decode()
    page = login(hidden).get(f"/en/tournaments/{world['t'].slug}/tours/1/tables/2/sheet/protocol.json?version=1")
    assert page.status_code == 200 and len(json.loads(page.content)["deals"]) == 1
    page = login(ref).get(f"/en/tournaments/{world['t'].slug}/tours/1/tables/2/sheet/protocol.json?version=1")
    assert json.loads(page.content)["deals"][1]["hands"] == HANDS
    assert HandLook.objects.filter(user=ref, route="export").count() == 1  # the first look of deal 2 only


def phone_error(world: dict, token: str, **move) -> str:
    answer = APIClient(HTTP_ACCEPT_LANGUAGE="en").post(
        f"/api/partitions/{world['p1'].pk}/live/move/", {"turn": turn(world["p1"].pk), **move}, format="json",
        HTTP_X_SEAT_TOKEN=token)
    assert answer.status_code == 400, answer.content
    return answer.json()["detail"] if "detail" in answer.json() else json.dumps(answer.json())


def test_a_refused_move_names_no_tile_of_the_hand_but_the_one_sent(db, frozen):
    world = live_tour("digital")
    tokens = seated(world)
    pk = world["p1"].pk
    game = storage.engine_partition(Partition.objects.get(pk=pk))
    seat = game.current.to_move
    hand = {str(t) for t in game.current.hand(seat)}
    # A false pass at the lead (every tile fits): refused without a tile named.
    message = phone_error(world, tokens[seat], **{"pass": True})
    assert not TILE.search(message), message
    # Probing tile by tile cannot tell a tile held from one not held.
    outside = sorted(set(TILES) - hand)[0]
    lead = sorted(hand)[0]
    play.move(play.Actor(AnonymousUser(), tokens[seat]), pk, turn(pk), tile=lead)
    game = storage.engine_partition(Partition.objects.get(pk=pk))
    seat = game.current.to_move
    hand = {str(t) for t in game.current.hand(seat)}
    held_misfit = [t for t in sorted(hand) if t not in {str(m.tile) for m in game.current.legal_moves()}]
    outside = next(t for t in TILES if t not in hand and t != lead)
    refusals = {}
    for tile in [outside, *held_misfit[:1]]:
        message = phone_error(world, tokens[seat], tile=tile, end="left")
        assert set(TILE.findall(message)) == {tile}, message
        refusals[tile] = message.replace(tile, "T")
        # The table's referee moving for the player at a digital table gets the same answer.
        with pytest.raises(ValidationError) as refused:
            play.move(play.Actor(world["ref"]), pk, turn(pk), tile=tile, end="left")
        assert set(TILE.findall(refused.value.messages[0])) == {tile}
    assert len(set(refusals.values())) == 1, refusals


def test_a_goat_export_hides_the_deal_in_play_and_its_bazaar(db, frozen):
    world = goat_table("refereed", 2)
    pid, ref = world["pid"], world["ref"]
    first = {"1": ["1-1", "2-1", "3-2", "4-3", "5-4", "6-5", "6-0"], "2": ["1-0", "0-0", "4-0", "5-5", "6-6", "3-1", "2-0"]}
    moves = [("1-1", None), ("1-0", "left"), ("2-1", "right"), ("0-0", None), ("3-2", None), ("4-0", "left"),
             ("4-3", "right")]
    play.enter_hands(ref, pid, first, turn=turn(pid))
    for tile, end in moves:
        play.move(play.Actor(ref), pid, turn(pid), tile=tile, end=end)
    play.draw(play.Actor(ref), pid, turn(pid), tile="3-0")
    play.draw(play.Actor(ref), pid, turn(pid), tile="4-2")
    for tile, end in [("4-2", "left"), ("5-4", "right"), ("2-0", None), ("6-5", None), ("3-0", "left"), ("6-0", None)]:
        play.move(play.Actor(ref), pid, turn(pid), tile=tile, end=end)
    second = {"1": ["2-1", "3-2", "4-3", "5-4", "6-5", "6-0", "4-4"], "2": ["1-1", "0-0", "4-0", "5-5", "6-6", "3-1", "2-0"]}
    play.enter_hands(ref, pid, second, turn=turn(pid))
    partition = Partition.objects.get(pk=pid)
    hidden = queries.export_sitting(partition, viewer=world["other"])
    [game] = hidden["games"]
    def sort(hands: dict) -> dict:
        return {seat: sorted(hand) for seat, hand in hands.items()}

    assert len(game["deals"]) == 1 and sort(game["deals"][0]["hands"]) == sort(first)  # the finished deal only
    assert "4-4" not in json.dumps(game["deals"])  # nothing of deal 2's hands or bazaar
    rules = storage.engine_sitting(Partition(table=partition.table)).regulations
    assert formats.read_sitting(hidden, rules).deals == 1  # still a valid protocol file
    shown = queries.export_sitting(partition, viewer=ref)
    assert len(shown["games"][0]["deals"]) == 2 and sort(shown["games"][0]["deals"][1]["hands"]) == sort(second)
    assert HandLook.objects.filter(partition_id=pid, user=ref, route="export", deal=2).exists()
    assert not HandLook.objects.filter(user=world["other"]).exists()
