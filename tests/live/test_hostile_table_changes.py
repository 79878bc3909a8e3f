"""Every change of a live table, whatever path it takes (the score sheet's lines, a correction, an
import, an annulment, the clocks, a move), leaves the live state in line with the engine's: the
awaited seat and its clock are the engine's, a digital table whose deal was taken back deals again,
a refereed one awaits the new hands. Then the clocks run out and the sweep runs: no error, no
table stuck, every page of the table answers.

The clock is in the test's hand (no sleeping)."""

from __future__ import annotations


import pytest

from scoring.engine import GoatEnd
from django.core.exceptions import ValidationError
from django.test import Client
from django.contrib.auth.models import AnonymousUser

from livetools import PIN, goat_table, live_tour, login, seated
from scoring import engine
from scoring.live import play
from scoring.models import LiveTable, Partition
from scoring.recording import commands, pipeline, storage
from scoring.recording.state import with_table

pytestmark = pytest.mark.django_db


def rows(pid: int) -> tuple[Partition, LiveTable]:
    partition = with_table(Partition.objects.get(pk=pid))
    return partition, LiveTable.objects.get(pk=pid)


def played(partition: Partition):
    """The engine's state of the table, whatever its game."""
    if partition.table.tour.tournament.kind.sittings:
        return storage.sitting_at(partition)
    return storage.engine_partition(partition)


def assert_in_line(pid: int) -> None:
    """The live row says what the engine says: nobody awaited once it is over; otherwise the
    engine's awaited move, with a deadline, at a digital or refereed table; a digital table that
    has begun is never left with no deal to play."""
    partition, live = rows(pid)
    game = played(partition)
    if partition.is_finished:
        assert game.is_over
        assert (live.seat, live.deadline, live.time_deadline, live.no_show_deadline) == (None, None, None, None)
        return
    assert not game.is_over, "the engine's game is over, the stored partition is not"
    if live.mode == LiveTable.Mode.CLOCK:
        return  # the engine holds no deal: the taps are the server's own count
    awaited = game.awaited()
    if awaited is None:
        assert live.seat is None and live.deadline is None
    else:
        assert (live.seat, live.deal, live.move) == (awaited.seat, awaited.deal, awaited.move)
        assert live.deadline is not None or live.paused_at is not None
    if live.mode == LiveTable.Mode.DIGITAL and len(live.present) == sum(p is not None for p in partition.table.players):
        assert game.current is not None, "a digital table that has begun has a deal to play"


def run_out_and_sweep(pid: int, frozen, world_pages: list[tuple[Client, str]]) -> None:
    """An hour passes with nobody at the table: the sweep records whatever ran out, over and over,
    without an error; every page of the table answers; the table stays in line."""
    for _ in range(8):
        frozen.advance(600)
        pipeline.sweep()
        assert_in_line(pid)
    for client, url in world_pages:
        assert client.get(url).status_code == 200, url


def pages(world: dict, pid: int) -> list[tuple[Client, str]]:
    partition, _live = rows(pid)
    table, tour = partition.table, partition.table.tour
    base = f"/en/tournaments/{tour.tournament.slug}/tours/{tour.number}/"
    chief = login(world.get("chief") or world["org"])
    return [(Client(), f"{base}tables/{table.number}/live/"), (Client(), f"{base}hall/"),
            (chief, f"/en/tournaments/{tour.tournament.slug}/manage/tours/{tour.number}/chief/"),
            (login(world["ref"]), f"{base}tables/{table.number}/referee/"),
            (Client(), f"/api/partitions/{pid}/live/")]


# -- sports, digital ----------------------------------------------------------------------------------


@pytest.fixture
def digital(db, frozen):
    world = live_tour("digital")
    world["tokens"] = seated(world)
    world["pid"] = world["p1"].pk
    return world


def one_move(world: dict) -> None:
    partition, live = rows(world["pid"])
    deal = played(partition).current
    moves = deal.legal_moves()
    actor = play.Actor(AnonymousUser(), world["tokens"][live.seat])
    if moves:
        m = moves[0]
        play.move(actor, world["pid"], live.turn, tile=str(m.tile), end=str(m.end) if m.end else None)
    else:
        play.move(actor, world["pid"], live.turn, pass_turn=True)


def test_a_restart_on_a_digital_table_deals_again_from_a_new_seed(digital, frozen):
    pid = digital["pid"]
    one_move(digital)
    partition, _live = rows(pid)
    seed = played(partition).current.seed
    commands.record(digital["ref"], pid, "restart", {"seat": 2, "code": "wrong_lead"})
    partition, live = rows(pid)
    game = played(partition)
    assert game.current is not None and game.current.seed != seed and not game.current.moves
    assert game.penalties[-1].code == "wrong_lead"
    assert_in_line(pid)
    # The phone of the new leader plays on.
    one_move(digital)
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(digital, pid))


@pytest.mark.parametrize("action, data", [
    ("penalty", {"seat": 3, "code": "talk"}),
    ("violation", {"seat": 1, "code": "move_time"}),
    ("time", {"during_deal": True}),
    ("forfeit", {"pair": "B"}),
    ("no_show", {"absent": "A"}),
    ("deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 20}}),
])
def test_every_score_sheet_line_on_a_digital_table_leaves_it_in_line(digital, frozen, action, data):
    pid = digital["pid"]
    one_move(digital)
    try:
        commands.record(digital["chief"], pid, action, data)
    except ValidationError:
        pass  # the engine refused it: nothing stored
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(digital, pid))


def test_a_chief_referees_import_of_a_shorter_protocol_deals_the_digital_table_again(digital, frozen):
    pid = digital["pid"]
    leader = played(rows(pid)[0]).first_leader
    # The partition as it stood: one deal finished, then the import takes it back to the lead alone.
    document = {"format": "domino-protocol/1", "first_leader": leader, "deals": []}
    commands.import_protocol(digital["chief"], pid, document, reason="the paper protocol is right")
    partition, live = rows(pid)
    game = played(partition)
    assert game.current is not None and not game.deals
    assert_in_line(pid)
    one_move(digital)
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(digital, pid))


def test_an_import_that_leaves_a_digital_deal_open_without_hands_is_refused(digital):
    pid = digital["pid"]
    before = rows(pid)[0].version
    leader = played(rows(pid)[0]).first_leader
    tiles = [str(t) for t in engine.TILES]
    hands = {str(seat): tiles[7 * ((seat - leader) % 4):7 * ((seat - leader) % 4) + 7] for seat in engine.SEATS}
    opened = {"format": "domino-protocol/1", "first_leader": leader,
              "deals": [{"hands": hands, "moves": [{"seat": leader, "tile": "0-0"}]}]}
    with pytest.raises(ValidationError) as refused:
        commands.import_protocol(digital["chief"], pid, opened, reason="typed in")
    assert "hands" in str(refused.value)
    assert rows(pid)[0].version == before


def test_a_correction_of_a_finished_deal_on_a_digital_table_keeps_the_deal_in_play(digital, frozen):
    pid = digital["pid"]
    # Play the first deal to its end.
    while not played(rows(pid)[0]).deals:
        one_move(digital)
    deal = played(rows(pid)[0]).deals[0]
    commands.correct_deal(digital["chief"], pid, 1, {"end": deal.end, "seat": deal.seat,
                                                     "pips": {"A": deal.pips[0], "B": deal.pips[1]}},
                          reason="written in summary form")
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(digital, pid))


def test_a_move_sent_twice_is_a_conflict_with_the_turn_not_a_refusal_of_its_token(digital, frozen):
    pid = digital["pid"]
    partition, live = rows(pid)
    deal = played(partition).current
    moves = deal.legal_moves()
    body = ({"turn": live.turn, "tile": str(moves[0].tile), "end": str(moves[0].end) if moves[0].end else None}
            if moves else {"turn": live.turn, "pass": True})
    if body.get("end") is None:
        body.pop("end", None)
    phone = Client(HTTP_X_SEAT_TOKEN=digital["tokens"][live.seat])
    url = f"/api/partitions/{pid}/live/move/"
    first = phone.post(url, body, content_type="application/json")
    assert first.status_code == 200
    again = phone.post(url, body, content_type="application/json")
    assert again.status_code == 409
    assert again.json()["turn"] == rows(pid)[1].turn


# -- sports, refereed and the referee's clock -----------------------------------------------------------


TILES = [str(t) for t in engine.TILES]
HANDS = {"1": TILES[0:7], "2": TILES[7:14], "3": TILES[14:21], "4": TILES[21:28]}


@pytest.fixture
def refereed(db, frozen):
    world = live_tour("refereed")
    play.start_tour(world["chief"], world["tour"])
    world["pid"] = world["p1"].pk
    play.start_partition(world["ref"], world["pid"], 1)
    play.enter_hands(world["ref"], world["pid"], HANDS, turn=rows(world["pid"])[1].turn)
    play.move(play.Actor(world["ref"]), world["pid"], rows(world["pid"])[1].turn, tile="0-0")
    return world


def test_a_restart_on_a_refereed_table_awaits_the_new_hands(refereed, frozen):
    pid = refereed["pid"]
    commands.record(refereed["ref"], pid, "restart", {"seat": 1, "code": "wrong_lead"})
    partition, live = rows(pid)
    assert played(partition).current is None
    assert live.seat is None and live.deadline is None
    assert_in_line(pid)
    play.enter_hands(refereed["ref"], pid, HANDS, turn=live.turn)
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(refereed, pid))


@pytest.mark.parametrize("action, data", [
    ("penalty", {"seat": 3, "code": "talk"}),
    ("time", {"during_deal": True}),
    ("no_show", {"absent": "both"}),
])
def test_score_sheet_lines_on_a_refereed_table_leave_it_in_line(refereed, frozen, action, data):
    pid = refereed["pid"]
    try:
        commands.record(refereed["chief"], pid, action, data)
    except ValidationError:
        pass
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(refereed, pid))


@pytest.fixture
def clock_table(db, frozen):
    world = live_tour("clock")
    play.start_tour(world["chief"], world["tour"])
    world["pid"] = world["p1"].pk
    play.start_partition(world["ref"], world["pid"], 2)
    play.tap(world["ref"], world["pid"], rows(world["pid"])[1].turn)
    return world


def test_a_deal_recorded_on_the_sheet_at_the_referees_clock_starts_the_next_deals_clock(clock_table, frozen):
    pid = clock_table["pid"]
    commands.record(clock_table["ref"], pid, "deal", {"end": "domino", "seat": 3, "pips": {"A": 0, "B": 31}})
    partition, live = rows(pid)
    assert played(partition).totals == (31, 0)
    assert (live.seat, live.deal, live.move) == (3, 2, 0)  # the next deal's leader: the domino maker
    run_out_and_sweep(pid, frozen, pages(clock_table, pid))


def test_a_penalty_that_ends_the_partition_at_the_referees_clock_stops_its_clocks(clock_table, frozen):
    pid = clock_table["pid"]
    for _ in range(5):
        try:
            commands.record(clock_table["ref"], pid, "penalty", {"seat": 1, "code": "talk"})
        except ValidationError:
            break
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(clock_table, pid))


# -- Goat -------------------------------------------------------------------------------------------------


@pytest.fixture
def goat_digital(db, frozen):
    world = goat_table("digital", 3)
    pid = world["pid"]
    from livetools import PIN as pin
    from scoring.protocols.confirmations import set_pin
    partition = with_table(Partition.objects.get(pk=pid))
    for player in partition.table.players:
        if player is not None:
            set_pin(world["org"], player.pk, pin)
    world["tokens"] = {seat: play.claim_seat(pid, seat, pin) for seat in (1, 2, 3)}
    return world


def test_goat_time_during_a_deal_then_penalties_end_the_sitting_and_its_clocks(goat_digital, frozen):
    pid = goat_digital["pid"]
    commands.record_goat(goat_digital["ref"], pid, "goat_time", {"during_deal": True})
    for _ in range(5):
        try:
            commands.record_goat(goat_digital["ref"], pid, "goat_penalty", {"seat": 1, "code": "talk"})
        except ValidationError:
            break
        assert_in_line(pid)
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(goat_digital, pid))


def test_a_goat_deal_recorded_on_the_sheet_while_one_is_played_live_leaves_the_table_in_line(goat_digital, frozen):
    pid = goat_digital["pid"]
    try:
        commands.record_goat_deal(goat_digital["ref"], pid, {"end": "fish", "seat": 1, "values": {"1": 5, "2": 9,
                                                                                                  "3": 12}})
    except ValidationError:
        pass
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(goat_digital, pid))


def test_a_goat_import_into_a_digital_table_deals_it_again(goat_digital, frozen):
    pid = goat_digital["pid"]
    document = {"format": "domino-sitting/1", "games": [
        {"format": "domino-protocol/1", "first_leader": 1,
         "deals": [{"end": "fish", "seat": 1, "values": {"1": 5, "2": 9, "3": 12}}]}]}
    commands.import_sitting(goat_digital["org"], pid, document, reason="the paper protocol")
    partition, _live = rows(pid)
    sitting = played(partition)
    # The imported deal, then a fresh one dealt (RULES 9.1: a void one on the way is recorded and
    # dealt again, so the records may hold redeals after it).
    played_deals = [deal for deal in sitting.game.deals if deal.end != GoatEnd.REDEAL]
    assert len(played_deals) == 1 and played_deals[0].end == GoatEnd.FISH and sitting.current is not None
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(goat_digital, pid))


def test_a_sweep_skips_a_table_that_fails_marks_it_and_records_the_others(digital, frozen, monkeypatch, caplog):
    """A table whose clocks cannot be recorded (here: its catch-up raises) is logged, marked for
    the chief referee and skipped; the tables behind it in the sweep's order are recorded."""
    broken, other = digital["pid"], digital["p2"].pk
    real = pipeline._catch_up

    def failing(step, by):
        if step.partition.pk == broken:
            raise RuntimeError("boom")
        return real(step, by)

    monkeypatch.setattr(pipeline, "_catch_up", failing)
    frozen.advance(3600)  # table 1's move clock ran out; table 2's players never came
    pipeline.sweep()
    assert Partition.objects.get(pk=other).reason == "no_show"
    live = LiveTable.objects.get(pk=broken)
    assert live.fault and "boom" in live.fault
    assert "boom" in caplog.text
    # The chief referee sees it; the next sweep leaves it alone until a change of the table clears it.
    chief = login(digital["chief"])
    tour = digital["tour"]
    page = chief.get(f"/en/tournaments/{tour.tournament.slug}/manage/tours/{tour.number}/chief/")
    assert page.status_code == 200 and "the table needs the chief referee" in page.content.decode()


# -- every Goat and Sea Goat sheet line, correction and import, in every mode ------------------------------


def goat_world(mode: str, game: str) -> dict:
    world = goat_table(mode, 3, {"game": game, **({"teams": False} if game == "sea_goat" else {})})
    pid = world["pid"]
    if mode == "digital":
        from scoring.protocols.confirmations import set_pin
        for player in with_table(Partition.objects.get(pk=pid)).table.players:
            set_pin(world["org"], player.pk, PIN)
        world["tokens"] = {seat: play.claim_seat(pid, seat, PIN) for seat in (1, 2, 3)}
    elif mode == "refereed":
        tiles = [str(t) for t in engine.TILES]
        play.enter_hands(world["ref"], pid, {"1": tiles[0:7], "2": tiles[7:14], "3": tiles[14:21]},
                         turn=rows(pid)[1].turn)
    else:
        play.goat_lead(world["ref"], pid, 1)
    return world


GOAT_LINES = [
    ("goat_violation", {"seat": 2, "code": "conduct"}),
    ("goat_penalty", {"seat": 3, "code": "talk"}),
    ("goat_time", {"during_deal": True}),
    ("goat_time", {"during_deal": False}),
]


@pytest.mark.parametrize("game", ["goat", "sea_goat"])
@pytest.mark.parametrize("mode", ["digital", "refereed", "clock"])
def test_every_goat_sheet_line_correction_and_import_on_a_live_table_leaves_it_in_line(db, frozen,
                                                                                       mode, game):
    world = goat_world(mode, game)
    pid = world["pid"]
    assert_in_line(pid)
    for action, data in GOAT_LINES:
        try:
            commands.record_goat(world["ref"], pid, action, data)
        except ValidationError:
            pass  # refused by the engine (the time already ran out, say): nothing stored
        assert_in_line(pid)
    sitting = played(rows(pid)[0])
    if sitting.games[0].violations:
        try:
            commands.annul_goat_violation(world["org"], pid, 1, 1, reason="misheard")
        except ValidationError:
            pass
        assert_in_line(pid)
    document = {"format": "domino-sitting/1", "games": [
        {"format": "domino-protocol/1", "first_leader": 1,
         "deals": [{"end": "fish", "seat": 1, "values": {"1": 5, "2": 9, "3": 12}}]}]}
    commands.import_sitting(world["org"], pid, document, reason="the paper protocol")
    assert_in_line(pid)
    run_out_and_sweep(pid, frozen, pages(world, pid))
