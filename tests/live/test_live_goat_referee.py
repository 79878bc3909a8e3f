"""A Goat table on the referee's tablet (RULES 9.1, 5-7): refereed (the referee enters the hands
of 2 to 4 players, each move and each tile drawn from the physical bazaar) and on the referee's
clock (he taps the moves and enters each deal's result as on the Goat score sheet), with the
clock in the test's hand."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from builders import user
from livetools import goat_table
from scoring.live import play
from scoring.models import ClockLapse, LiveTable, Partition
from scoring.recording import pipeline
from scoring.recording.state import table_state, with_table

pytestmark = pytest.mark.django_db


def state(pid: int, referee: bool = True) -> dict:
    return table_state(with_table(Partition.objects.select_related("live").get(pk=pid)), referee=referee)


def live(pid: int) -> LiveTable:
    return LiveTable.objects.get(pk=pid)


def written(pid: int) -> tuple:
    """What a refused operation must leave as it was: the version, the stored sitting, the audit
    trail's length, the live row's turn and presence."""
    partition = Partition.objects.get(pk=pid)
    row = live(pid)
    return partition.version, partition.state, partition.changes.count(), row.turn, row.present, row.seat


# Deal 1 of a table of two (hand-checked): seat 1 holds 1-1 and leads with it; seat 2, with nothing
# that fits the ends 4|4, draws 3-0 (fits neither end) then 4-2, and plays it; seat 1 makes domino
# with 6-0, seat 2 is left with 3-1, 5-5, 6-6: 26, charged to him (over the opening of 13).
HANDS = {"1": ["1-1", "2-1", "3-2", "4-3", "5-4", "6-5", "6-0"],
         "2": ["1-0", "0-0", "4-0", "5-5", "6-6", "3-1", "2-0"]}
BEFORE_DRAW = [("1-1", None), ("1-0", "left"), ("2-1", "right"), ("0-0", None), ("3-2", None), ("4-0", "left"),
               ("4-3", "right")]
AFTER_DRAW = [("4-2", "left"), ("5-4", "right"), ("2-0", None), ("6-5", None), ("3-0", "left"), ("6-0", None)]


@pytest.fixture
def refereed(db, frozen):
    return goat_table("refereed", 2)


def play_moves(world: dict, moves: list) -> None:
    for tile, end in moves:
        play.move(play.Actor(world["ref"]), world["pid"], live(world["pid"]).turn, tile=tile, end=end)


def test_a_refereed_goat_deal_with_a_named_draw_to_domino_then_a_redeal(refereed, frozen):
    pid, ref = refereed["pid"], refereed["ref"]
    assert live(pid).mode == "refereed" and live(pid).no_show_deadline is not None
    play.enter_hands(ref, pid, HANDS, turn=live(pid).turn)
    table = state(pid)
    # The first deal of the game is led by the hands: 1-1's holder, with it, and one move to make (5 s).
    assert table["current"]["leader"] == 1 and table["current"]["legal"] == [{"seat": 1, "tile": "1-1"}]
    assert table["current"]["bazaar"] == 14 and table["live"]["present"] == [1, 2]
    assert table["live"]["seat"] == 1 and table["live"]["allowance"] == 5 and table["live"]["no_show_deadline"] is None
    assert {seat: sorted(hand) for seat, hand in table["current"]["hands"].items()} == {
        seat: sorted(hand) for seat, hand in HANDS.items()}  # the referee sees the hands he entered
    assert "bazaar_tiles" in table["current"] and "bazaar_tiles" not in state(pid, referee=False)["current"]
    assert state(pid, referee=False)["current"]["hands"] == {}  # the public sees no hand
    play_moves(refereed, BEFORE_DRAW)
    turn = live(pid).turn
    table = state(pid)
    assert table["current"]["ends"] == [4, 4] and table["current"]["to_move"] == 2
    assert table["current"]["legal"] == [] and table["current"]["must_draw"]
    bazaar = table["current"]["bazaar_tiles"]
    assert len(bazaar) == 14 and "3-0" in bazaar and "4-2" in bazaar and "6-0" not in bazaar
    # A refereed table's bazaar has no known order: the referee names the tile drawn.
    with pytest.raises(ValidationError, match="name the tile drawn"):
        play.draw(play.Actor(ref), pid, turn)
    play.draw(play.Actor(ref), pid, turn, tile="3-0")
    play.draw(play.Actor(ref), pid, turn, tile="4-2")
    table = state(pid)
    assert live(pid).turn == turn and table["live"]["seat"] == 2  # drawing is part of his move
    assert table["current"]["bazaar"] == 12 and "3-0" not in table["current"]["bazaar_tiles"]
    assert table["current"]["hands"]["2"] == ["2-0", "3-0", "3-1", "4-2", "5-5", "6-6"]
    assert table["current"]["legal"] == [{"seat": 2, "tile": "4-2", "end": "left"}]
    play_moves(refereed, AFTER_DRAW)
    table = state(pid)
    assert "current" not in table and table["live"]["seat"] is None  # the referee enters the next hands
    assert table["deals"] == [{"n": 1, "leader": 1, "end": "domino", "seat": 1, "values": [0, 26],
                               "charges": [0, 26], "scores": [0, 26]}]
    assert table["scores"] == [0, 26] and table["memo"] == [0, 0]
    stored = Partition.objects.get(pk=pid).state["games"][0]["events"][0]["deal"]["moves"]
    # The protocol's move form, with the seconds the clock charged to the move (the clock is frozen).
    assert stored[7] == {"seat": 2, "draw": ["3-0", "4-2"], "tile": "4-2", "end": "left", "seconds": 0.0}
    # Deal 2: seat 2's five doubles make it void (RULES 9.1): recorded at once, dealt again.
    void = {"1": ["1-1", "2-1", "3-2", "4-3", "5-4", "6-5", "6-0"],
            "2": ["0-0", "2-2", "3-3", "5-5", "6-6", "1-0", "2-0"]}
    play.enter_hands(ref, pid, void, turn=live(pid).turn)
    table = state(pid)
    assert "current" not in table and table["deals"][1]["end"] == "redeal" and table["scores"] == [0, 26]
    assert Partition.objects.get(pk=pid).changes.order_by("-version").first().action == "redeal"
    # Deal 3 is led as deal 2 would have been: by seat 1, the domino maker, though seat 2 holds 1-1.
    play.enter_hands(ref, pid, {"1": ["2-1", "3-2", "4-3", "5-4", "6-5", "6-0", "4-4"],
                                "2": ["1-1", "0-0", "4-0", "5-5", "6-6", "3-1", "2-0"]}, turn=live(pid).turn)
    table = state(pid)
    assert table["current"]["leader"] == 1 and table["live"]["seat"] == 1 and table["live"]["allowance"] == 20
    assert len(table["current"]["legal"]) == 7  # any tile
    assert [c.action for c in Partition.objects.get(pk=pid).changes.order_by("version")][-3:] == [
        "move", "redeal", "hands"]


def test_no_false_pass_at_a_goat_table_and_what_the_bazaar_refuses(refereed):
    """A pass is refused while a tile fits or while the bazaar may be drawn (RULES 9.1): nothing
    is written, so a Goat deal never ends with a false pass."""
    pid, ref = refereed["pid"], refereed["ref"]
    play.enter_hands(ref, pid, HANDS, turn=live(pid).turn)
    play_moves(refereed, BEFORE_DRAW[:1])
    before = written(pid)
    with pytest.raises(ValidationError, match="holding a playable tile"):
        play.move(play.Actor(ref), pid, live(pid).turn, pass_turn=True)  # seat 2 holds 1-0
    play_moves(refereed, BEFORE_DRAW[1:])
    before = written(pid)
    with pytest.raises(ValidationError, match="the bazaar may be drawn"):
        play.move(play.Actor(ref), pid, live(pid).turn, pass_turn=True)  # nothing fits: he draws first
    with pytest.raises(ValidationError, match="6-0"):
        play.draw(play.Actor(ref), pid, live(pid).turn, tile="6-0")  # in seat 1's hand, not in the bazaar
    with pytest.raises(ValidationError, match="1-0"):
        play.draw(play.Actor(ref), pid, live(pid).turn, tile="1-0")  # on the table
    assert written(pid) == before
    play.draw(play.Actor(ref), pid, live(pid).turn, tile="4-2")
    with pytest.raises(ValidationError, match="holding a playable tile"):
        play.draw(play.Actor(ref), pid, live(pid).turn, tile="3-0")  # 4-2 fits now


@pytest.mark.parametrize("hands, message", [
    ({"1": HANDS["1"][:6], "2": HANDS["2"]}, "must hold 7 tiles, holds 6"),  # a hand of 6 tiles
    ({"1": HANDS["1"], "2": [*HANDS["2"][:6], "6-0"]}, "6-0 is dealt twice"),  # a tile in both hands
    ({"1": [*HANDS["1"][:6], "1-1"], "2": HANDS["2"]}, "1-1 is written twice"),  # a tile twice in one hand
    ({"1": HANDS["1"], "2": HANDS["2"], "3": ["3-3"]}, "Nobody sits at seat 3"),  # a seat the table has not
    ({"1": HANDS["1"]}, "seats 1 to 2"),  # a hand missing
    ({"1": HANDS["1"], "2": [*HANDS["2"][:6], "7-1"]}, "7-1.* is not a tile"),  # no such tile
])
def test_bad_hands_leave_nothing_written(refereed, hands, message):
    pid = refereed["pid"]
    before = written(pid)
    with pytest.raises(ValidationError, match=message):
        play.enter_hands(refereed["ref"], pid, hands, turn=live(pid).turn)
    assert written(pid) == before and live(pid).present == []


def test_who_may_enter_and_what_a_goat_table_refuses(refereed):
    pid, ref = refereed["pid"], refereed["ref"]
    for person in (refereed["other"], user("nobody")):
        with pytest.raises(PermissionDenied):
            play.enter_hands(person, pid, HANDS, turn=live(pid).turn)
    before = written(pid)
    with pytest.raises(ValidationError, match="has no lead draw"):
        play.start_partition(ref, pid, 1)  # the lead draw is sports only
    with pytest.raises(ValidationError, match="not played that way"):
        play.goat_lead(ref, pid, 1)  # the referee's clock only
    assert written(pid) == before
    play.enter_hands(ref, pid, HANDS, turn=live(pid).turn)
    play_moves(refereed, BEFORE_DRAW)
    turn = live(pid).turn
    for person in (refereed["other"], user("nobody2")):
        with pytest.raises(PermissionDenied):
            play.draw(play.Actor(person), pid, turn, tile="3-0")
        with pytest.raises(PermissionDenied):
            play.move(play.Actor(person), pid, turn, pass_turn=True)
    with pytest.raises(pipeline.StaleTurn):
        play.draw(play.Actor(ref), pid, turn - 1, tile="3-0")
    with pytest.raises(ValidationError):
        play.tap(ref, pid, turn)  # a refereed table is not on the referee's clock


def test_a_named_draw_is_refused_at_a_digital_table(db, frozen, monkeypatch):
    """The digital bazaar is face down: naming a tile would tell whether it is the next one."""
    seeds = iter(range(1, 100))
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(seeds))
    world = goat_table("digital", 2)
    pid = world["pid"]
    for seat in (1, 2):
        play.check_in(world["ref"], pid, seat)
    table = state(pid)
    assert table["current"]["bazaar"] == 14 and "bazaar_tiles" not in table["current"]
    with pytest.raises(ValidationError, match="face down"):
        play.draw(play.Actor(world["ref"]), pid, live(pid).turn, tile="3-0")


# -- the referee's clock ---------------------------------------------------------------------------


@pytest.fixture
def clocked(db, frozen):
    return goat_table("clock", 3)


def test_a_goat_deal_on_the_referees_clock(clocked, frozen):
    pid, ref = clocked["pid"], clocked["ref"]
    assert live(pid).seat is None
    # A void hand shows before anyone leads: a redeal, and the first deal still waits for its leader.
    play.clock_goat_result(ref, pid, {"end": "redeal"})
    assert live(pid).seat is None and state(pid)["deals"][0]["end"] == "redeal"
    with pytest.raises(ValidationError, match="name the seat that leads"):
        play.clock_goat_result(ref, pid, {"end": "domino", "seat": 2, "values": {"1": 10, "3": 20}})
    play.goat_lead(ref, pid, 2)  # he holds 1-1
    row = live(pid)
    assert (row.seat, row.allowance, row.deal, row.present) == (2, 5, 2, [1, 2, 3])  # the forced lead: 5 s
    frozen.advance(3)
    play.tap(ref, pid, row.turn)
    row = live(pid)
    assert (row.seat, row.allowance, row.move) == (3, 20, 1)
    play.tap(ref, pid, row.turn, allowance="fish")
    assert (live(pid).seat, live(pid).allowance) == (1, 60)
    play.tap(ref, pid, live(pid).turn)
    assert live(pid).seat == 2
    # Seat 2 makes domino; seat 1 is left with 10 (memorised, under the opening of 13), seat 3 with 20.
    play.clock_goat_result(ref, pid, {"end": "domino", "seat": 2, "values": {"1": 10, "3": 20}})
    table = state(pid)
    assert table["deals"][1] == {"n": 2, "leader": 2, "end": "domino", "seat": 2, "values": [10, 0, 20],
                                 "charges": [10, 0, 20], "scores": [0, 0, 20]}
    assert table["memo"] == [10, 0, 0]
    row = live(pid)
    assert (row.seat, row.allowance, row.deal, row.move) == (2, 20, 3, 0)  # the domino maker leads, any tile
    change = Partition.objects.get(pk=pid).changes.order_by("-version").first()
    assert change.action == "goat_deal" and change.data == {"end": "domino", "seat": 2, "values": {"1": 10, "3": 20}}


@pytest.mark.parametrize("deal, message", [
    ({"end": "domino", "seat": 1, "values": {"2": 5, "4": 9}}, 'to "3"'),  # no seat 4 at a table of three
    ({"end": "domino", "seat": 1, "pips": {"A": 5}}, "pips"),  # the sports result's field
    ({"end": "domino", "seat": 1, "values": {"1": 4, "2": 5, "3": 6}}, "made domino"),  # the domino maker holds nothing
    ({"end": "redeal", "seat": 1}, "redeal is void"),
    ({"lead": 3, "end": "domino", "seat": 1, "values": {"2": 5, "3": 6}}, "Unknown field: lead"),  # named already
    ("domino", "must be an object"),
])
def test_a_bad_result_on_the_clock_leaves_nothing_written(clocked, deal, message):
    pid, ref = clocked["pid"], clocked["ref"]
    play.goat_lead(ref, pid, 1)
    before = written(pid)
    with pytest.raises(ValidationError, match=message):
        play.clock_goat_result(ref, pid, deal)
    assert written(pid) == before


def test_the_clock_refusals(clocked):
    pid, ref = clocked["pid"], clocked["ref"]
    for person in (clocked["other"], user("nobody")):
        with pytest.raises(PermissionDenied):
            play.goat_lead(person, pid, 1)
        with pytest.raises(PermissionDenied):
            play.clock_goat_result(person, pid, {"end": "redeal"})
    with pytest.raises(ValidationError, match="1 to 3"):
        play.goat_lead(ref, pid, 4)
    play.goat_lead(ref, pid, 1)
    before = written(pid)
    with pytest.raises(ValidationError, match="A deal is being played"):
        play.goat_lead(ref, pid, 2)
    with pytest.raises(ValidationError, match="each hand.s value"):
        play.clock_deal_result(ref, pid, "domino", 1, {"A": 0, "B": 10})  # the sports result
    with pytest.raises(ValidationError):
        play.enter_hands(ref, pid, HANDS)  # not a refereed table
    assert written(pid) == before


def test_a_lapse_on_the_clock_is_a_warning_then_a_penalty_charged_to_him(clocked, frozen):
    pid, ref = clocked["pid"], clocked["ref"]
    play.goat_lead(ref, pid, 3)
    frozen.advance(5 + 1)
    assert pipeline.expire(pid)
    assert state(pid)["scores"] == [0, 0, 0]  # the first lapse: a warning
    frozen.advance(5)
    assert pipeline.expire(pid)
    assert state(pid)["scores"] == [0, 0, 25]  # the repeated one: penalty_points, charged to seat 3
    assert list(ClockLapse.objects.filter(partition_id=pid).values_list("seat", "lapse")) == [(3, 1), (3, 2)]
    assert live(pid).seat == 3  # his move is still awaited


def test_a_forfeit_on_the_clock_ends_the_game_and_the_next_waits_for_its_leader(db, frozen):
    world = goat_table("clock", 2, {"move_timeout": "forfeit", "games_per_tour": 2})
    pid, ref = world["pid"], world["ref"]
    play.goat_lead(ref, pid, 1)
    frozen.advance(5 + 60)  # far overdue: one forfeit, not one per allowance
    assert pipeline.expire(pid)
    partition = Partition.objects.get(pk=pid)
    games = partition.state["games"]
    assert len(games) == 2 and games[0]["events"][-1] == {"type": "timeout", "seat": 1}
    assert live(pid).seat is None and ClockLapse.objects.filter(partition_id=pid).count() == 1
    play.goat_lead(ref, pid, 2)  # the second game's first deal
    assert live(pid).seat == 2


def test_a_penalty_that_makes_a_goat_on_the_clock_ends_the_game(db, frozen):
    """The engine holds no deal at the referee's clock: the goat is decided at once, and the next
    game's first deal waits for its leader."""
    world = goat_table("clock", 2, {"penalty_points": 60, "games_per_tour": 2})
    pid, ref = world["pid"], world["ref"]
    play.goat_lead(ref, pid, 1)
    frozen.advance(5 + 1)
    assert pipeline.expire(pid)  # a warning
    frozen.advance(5)
    assert pipeline.expire(pid)  # a penalty of 60: seat 1 is at lose_at (60), the goat
    games = Partition.objects.get(pk=pid).state["games"]
    assert len(games) == 2 and games[0]["events"][-1] == {"type": "violation", "seat": 1, "code": "move_time"}
    assert live(pid).seat is None and state(pid)["scores"] == [0, 0] and state(pid)["game_number"] == 2
    frozen.advance(60)
    assert not pipeline.expire(pid)  # no clock runs
    assert live(pid).deadline is None
    play.goat_lead(ref, pid, 2)
    assert live(pid).seat == 2
