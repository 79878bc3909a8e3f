"""The rules of the live clocks, with the clock in the test's hand (no sleeping): allowances,
warning then penalty, the turn a move is made for, pause and resume, the partition clock, the
no-show, an outage of the clock service, and the sweep that records the deadlines run out."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.contrib.auth.models import AnonymousUser

from livetools import PIN, live_tour, seated
from scoring import engine
from scoring.live import play
from scoring.models import ClockHeartbeat, ClockLapse, LiveTable, Partition
from scoring.protocols import sheets
from scoring.push import events
from scoring.recording import pipeline
from scoring.recording.storage import engine_partition

pytestmark = pytest.mark.django_db


def live(world) -> LiveTable:
    return LiveTable.objects.get(pk=world["p1"].pk)


def game(world) -> engine.Partition:
    return engine_partition(Partition.objects.get(pk=world["p1"].pk))


def any_move(world) -> dict:
    """A legal move for the seat to move: a tile (and end) or a pass."""
    deal = game(world).current
    moves = deal.legal_moves()
    if not moves:
        return {"pass_turn": True}
    m = moves[0]
    return {"tile": str(m.tile), "end": str(m.end) if m.end else None}


def play_one(world, frozen, after: float = 1.0) -> LiveTable:
    table = live(world)
    frozen.advance(after)
    actor = play.Actor(AnonymousUser(), world["tokens"][table.seat])
    play.move(actor, world["p1"].pk, table.turn, **any_move(world))
    return live(world)


def test_seating_four_players_draws_the_lead_deals_and_starts_the_leaders_clock(digital, frozen):
    table = live(digital)
    g = game(digital)
    assert table.present == [1, 2, 3, 4] and table.no_show_deadline is None
    assert g.first_leader in (1, 2, 3, 4) and g.current is not None
    assert table.seat == g.first_leader == g.current.to_move
    # A lead has several choices: time_several, counted from now, plus the grace.
    assert table.allowance == 20
    assert table.deadline == frozen.now + datetime.timedelta(seconds=20.5)
    assert table.time_deadline == frozen.now + datetime.timedelta(minutes=40)


def test_each_move_gets_the_allowance_the_engine_gives_it(digital, frozen):
    for _ in range(12):
        before = game(digital)
        if before.current is None:
            break
        table = play_one(digital, frozen)
        g = game(digital)
        if g.current is None or g.is_over:
            break
        assert table.allowance == g.current.allowance()
        assert table.seat == g.current.to_move


def test_a_clock_that_runs_out_is_a_warning_then_a_penalty_and_the_move_is_charged_all_of_it(digital, frozen):
    table = live(digital)
    seat, turn, first = table.seat, table.turn, table.deadline
    frozen.to(first - datetime.timedelta(milliseconds=100))
    assert pipeline.expire(digital["p1"].pk) is False
    frozen.to(first)
    assert pipeline.expire(digital["p1"].pk) is True
    assert pipeline.expire(digital["p1"].pk) is False  # the same task twice: one violation
    table = live(digital)
    assert table.lapses == 1 and table.deadline == first + datetime.timedelta(seconds=20)
    [warning] = game(digital).violations
    assert (warning.seat, warning.code, warning.consequence) == (seat, "move_time", "warning")
    frozen.to(table.deadline)
    pipeline.expire(digital["p1"].pk)
    second = game(digital).violations[-1]
    assert second.consequence == "penalty"
    assert ClockLapse.objects.filter(partition=digital["p1"], turn=turn).count() == 2
    frozen.advance(3)
    play.move(play.Actor(AnonymousUser(), digital["tokens"][seat]), digital["p1"].pk, turn, **any_move(digital))
    moves = game(digital).current.to_dict()["moves"]
    assert moves[0]["seconds"] == 43.0  # 40 s and two lapses, then 3 s more; the grace is not charged
    assert len(game(digital).violations) == 2  # the lapses recorded live are not derived again
    # The protocol lists them with the deal and the move they came from.
    entries = sheets.partition_sheet(Partition.objects.get(pk=digital["p1"].pk))["entries"]
    assert [(e["code"], e["during_deal"], e["move"], e["consequence"]) for e in entries] == [
        ("move_time", 1, 0, "warning"), ("move_time", 1, 0, "penalty")]
    client = Client()
    client.force_login(digital["org"])
    page = client.get("/tournaments/cup/tours/1/tables/1/protocol/").content.decode()
    assert page.count("во время 1, ход 1") == 2


def test_a_move_made_for_its_turn_stands_after_a_timeout_recorded_meanwhile(digital, frozen):
    table = live(digital)
    frozen.to(table.deadline)
    pipeline.expire(digital["p1"].pk)  # the timer got there first
    play.move(play.Actor(AnonymousUser(), digital["tokens"][table.seat]), digital["p1"].pk, table.turn, **any_move(digital))
    assert live(digital).turn == table.turn + 1


def test_a_request_catches_the_clock_up_before_it_acts(digital, frozen):
    table = live(digital)
    frozen.to(table.deadline + datetime.timedelta(seconds=1))
    play.move(play.Actor(AnonymousUser(), digital["tokens"][table.seat]), digital["p1"].pk, table.turn, **any_move(digital))
    lapse = ClockLapse.objects.get(partition=digital["p1"])
    assert lapse.by == "request" and lapse.turn == table.turn


def test_a_move_for_a_turn_that_is_over_is_refused_and_changes_nothing(digital, frozen):
    table = play_one(digital, frozen)
    version = Partition.objects.get(pk=digital["p1"].pk).version
    with pytest.raises(pipeline.StaleTurn):
        play.move(play.Actor(AnonymousUser(), digital["tokens"][table.seat]), digital["p1"].pk, table.turn - 1,
                  **any_move(digital))
    assert Partition.objects.get(pk=digital["p1"].pk).version == version


def test_only_the_device_holding_the_seat_to_move_plays(digital, frozen):
    table = live(digital)
    other = next(s for s in (1, 2, 3, 4) if s != table.seat)
    for actor in (play.Actor(AnonymousUser(), digital["tokens"][other]), play.Actor(AnonymousUser(), "forged"), play.Actor(AnonymousUser())):
        with pytest.raises(PermissionDenied):
            play.move(actor, digital["p1"].pk, table.turn, **any_move(digital))
    play.move(play.Actor(digital["ref"]), digital["p1"].pk, table.turn, **any_move(digital))  # the referee may


def test_a_seat_is_held_by_one_device_until_the_referee_releases_it(digital):
    with pytest.raises(ValidationError, match="Another device"):
        play.claim_seat(digital["p1"].pk, 2, PIN)
    with pytest.raises(PermissionDenied):
        play.release_seat(digital["other"], digital["p1"].pk, 2)
    play.release_seat(digital["ref"], digital["p1"].pk, 2)
    token = play.claim_seat(digital["p1"].pk, 2, PIN)
    assert play.seats_held(digital["p1"].pk, token) == [2]
    assert play.seats_held(digital["p1"].pk, digital["tokens"][2]) == []


def test_wrong_pins_lock_the_seat_and_the_count_survives_the_refusal(db, frozen):
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    for _ in range(5):
        with pytest.raises(ValidationError, match="Wrong PIN"):
            play.claim_seat(world["p1"].pk, 1, "0000", address="203.0.113.5")
    with pytest.raises(ValidationError, match="Too many"):
        play.claim_seat(world["p1"].pk, 1, PIN, address="203.0.113.5")


@pytest.mark.parametrize("scope, second", [("player_partition", "warning"), ("pair_partition", "penalty")])
def test_repeat_scope_decides_whether_the_partners_lapse_is_a_repeat(db, frozen, scope, second):
    world = live_tour("digital", {"repeat_scope": scope})
    world["tokens"] = seated(world)
    table = live(world)
    frozen.to(table.deadline)
    pipeline.expire(world["p1"].pk)
    # Play until the partner of that seat is to move, then let his clock run out too.
    partner = engine.partner_of(table.seat)
    table = play_one(world, frozen)
    while table.seat != partner:
        table = play_one(world, frozen)
    frozen.to(table.deadline)
    pipeline.expire(world["p1"].pk)
    assert game(world).violations[-1].consequence == second


def test_pause_stops_every_clock_and_resume_gives_back_the_time_left(digital, frozen):
    table = live(digital)
    frozen.advance(5)
    play.pause(digital["ref"], digital["p1"].pk, "call")
    frozen.advance(600)
    assert pipeline.expire(digital["p1"].pk) is False
    pipeline.sweep()
    assert not ClockLapse.objects.filter(partition=digital["p1"]).exists()
    play.resume(digital["ref"], digital["p1"].pk)
    resumed = live(digital)
    assert resumed.deadline == table.deadline + datetime.timedelta(seconds=600)
    assert resumed.time_deadline == table.time_deadline + datetime.timedelta(seconds=600)
    actions = list(Partition.objects.get(pk=digital["p1"].pk).changes.values_list("action", flat=True))
    assert actions[-2:] == ["pause", "resume"]


def test_the_partition_clock_during_a_deal_makes_it_the_last(digital, frozen):
    table = live(digital)
    # Keep the move clock from running out meanwhile: the referee pauses nothing, the clock jumps.
    frozen.to(table.time_deadline)
    pipeline.sweep()
    g = game(digital)
    assert g.time_expired == ("during_deal", 1)
    assert live(digital).time_deadline is None


def test_the_partition_clock_between_deals_leaves_one_more_deal(db, frozen):
    world = live_tour("clock")
    play.start_tour(world["chief"], world["tour"])
    pk = world["p1"].pk
    play.start_partition(world["ref"], pk, 1)
    play.clock_deal_result(world["ref"], pk, "domino", 1, {"A": 0, "B": 10})
    table = live(world)
    play.pause(world["ref"], pk, "dispute")  # between the deals, as it were
    play.resume(world["ref"], pk)
    frozen.to(live(world).time_deadline)
    pipeline.sweep()
    assert game(world).time_expired == ("during_deal", 2)  # the next deal's lead clock was already running
    assert table.deal == 2


def test_no_show_at_the_deadline_unless_postponed(db, frozen):
    world = live_tour("digital")
    play.start_tour(world["chief"], world["tour"])
    for seat in (1, 3):
        play.claim_seat(world["p1"].pk, seat, PIN)
    play.check_in(world["other"], world["p2"].pk, 1)  # table 2: only one player came
    deadline = live(world).no_show_deadline
    play.postpone_no_show(world["other"], world["p2"].pk, 3)
    frozen.to(deadline)
    pipeline.sweep()
    p1 = Partition.objects.get(pk=world["p1"].pk)
    assert (p1.status, p1.winner, p1.reason) == ("finished", "A", "no_show")
    assert Partition.objects.get(pk=world["p2"].pk).status != "finished"
    for _ in range(18):  # the beat sweeps every second; a silence of minutes would be an outage
        frozen.advance(10)
        pipeline.sweep()
    p2 = Partition.objects.get(pk=world["p2"].pk)
    assert (p2.status, p2.winner, p2.reason) == ("finished", "", "no_show")  # both pairs incomplete


def test_after_an_outage_of_the_clock_service_the_clocks_are_extended_not_charged(
        digital, frozen, django_capture_on_commit_callbacks):
    pipeline.sweep()
    table = live(digital)
    frozen.advance(120)  # nothing swept for two minutes: the service was down
    with django_capture_on_commit_callbacks(execute=True):
        assert pipeline.expire(digital["p1"].pk, by="request") is False  # a request alone charges nothing
    with django_capture_on_commit_callbacks(execute=True):
        pipeline.sweep()
    extended = live(digital)
    assert extended.deadline == table.deadline + datetime.timedelta(seconds=120)
    assert not ClockLapse.objects.exists()
    assert ClockHeartbeat.objects.get().swept_at == frozen.now


def test_the_referees_clock_taps_moves_switches_allowances_and_lists_its_lapses(db, frozen):
    world = live_tour("clock")
    play.start_tour(world["chief"], world["tour"])
    pk, ref = world["p1"].pk, world["ref"]
    play.start_partition(ref, pk, 2)
    table = live(world)
    assert (table.seat, table.allowance, table.move) == (2, 20, 0)
    frozen.advance(3)
    play.tap(ref, pk, table.turn)
    table = live(world)
    assert (table.seat, table.allowance, table.move) == (3, 20, 1)
    play.set_allowance(ref, pk, table.turn, "single")
    table = live(world)
    assert table.allowance == 5 and table.deadline == frozen.now + datetime.timedelta(seconds=5.5)
    frozen.to(table.deadline)
    pipeline.sweep()
    [warning] = game(world).violations
    assert (warning.seat, warning.code, warning.consequence) == (3, "move_time", "warning")
    with pytest.raises(pipeline.StaleTurn):
        play.tap(ref, pk, table.turn - 1)
    play.clock_deal_result(ref, pk, "domino", 3, {"A": 0, "B": 31})
    assert game(world).totals == (31, 0)
    table = live(world)
    assert (table.seat, table.deal, table.move) == (3, 2, 0)  # RULES: the next deal's leader


def test_a_refereed_table_takes_the_hands_checks_each_move_and_records_a_false_pass(db, frozen):
    world = live_tour("refereed")
    play.start_tour(world["chief"], world["tour"])
    pk, ref = world["p1"].pk, world["ref"]
    play.start_partition(ref, pk, 1)
    table = live(world)
    tiles = [str(t) for t in engine.TILES]
    twice = {"1": tiles[0:7], "2": tiles[7:14], "3": tiles[14:21], "4": tiles[20:27]}
    with pytest.raises(ValidationError):
        play.enter_hands(ref, pk, twice, turn=table.turn)
    hands = {"1": tiles[0:7], "2": tiles[7:14], "3": tiles[14:21], "4": tiles[21:28]}
    play.enter_hands(ref, pk, hands, turn=table.turn)
    table = live(world)
    assert table.seat == 1 and table.allowance == 20
    with pytest.raises(ValidationError):
        play.move(play.Actor(ref), pk, table.turn, tile=tiles[10])  # not in seat 1's hand
    play.move(play.Actor(ref), pk, table.turn, tile="0-0")
    # Seat 2 holds 1-x, 2-x tiles only (tiles 7..13): find whether he has a 0; pass while holding one
    table = live(world)
    deal = game(world).current
    if deal.legal_moves():
        play.move(play.Actor(ref), pk, table.turn, pass_turn=True)
        g = game(world)
        assert g.deals[-1].end == "false_pass" and g.current is None
        assert g.penalties[-1].code == "false_pass"
    else:
        play.move(play.Actor(ref), pk, table.turn, pass_turn=True)
        assert game(world).current is not None


def test_a_digital_player_cannot_pass_holding_a_playable_tile(digital, frozen):
    for _ in range(40):
        g = game(digital)
        if g.current is None:
            break
        table = live(digital)
        if g.current.legal_moves() and g.current.history:
            with pytest.raises(ValidationError):
                play.move(play.Actor(AnonymousUser(), digital["tokens"][table.seat]), digital["p1"].pk, table.turn,
                          pass_turn=True)
            return
        play_one(digital, frozen)
    pytest.fail("no position with a playable tile came up")


def test_start_tour_is_the_chief_referees_once(db, frozen):
    world = live_tour("digital")
    with pytest.raises(PermissionDenied):
        play.start_tour(world["ref"], world["tour"])
    play.start_tour(world["chief"], world["tour"])
    with pytest.raises(ValidationError):
        play.start_tour(world["chief"], world["tour"])
    assert LiveTable.objects.filter(partition__table__tour=world["tour"]).count() == 2


def test_a_sweep_stops_after_its_budget_and_the_next_round_goes_on(digital, frozen):
    """On a saturated server a round must stay short, or its silence reads as an outage: past its
    budget a sweep takes no more tables (the oldest deadline first); the next round records the
    rest, and nothing is extended."""
    for seat in (1, 2, 3, 4):
        play.claim_seat(digital["p2"].pk, seat, PIN)
    pipeline.sweep()
    first, second = sorted((LiveTable.objects.get(pk=p.pk) for p in (digital["p1"], digital["p2"])),
                           key=lambda t: (t.deadline, t.pk))
    frozen.to(second.deadline)
    assert pipeline.sweep(budget=0) == 1
    assert list(ClockLapse.objects.values_list("partition", flat=True)) == [first.pk]
    frozen.advance(1)
    assert pipeline.sweep(budget=0) == 1
    assert sorted(ClockLapse.objects.values_list("partition", flat=True)) == sorted([first.pk, second.pk])
    assert LiveTable.objects.get(pk=second.pk).deadline > frozen.now  # armed again, not extended back
    assert ClockHeartbeat.objects.get().swept_at == frozen.now


# -- the sweep: several passes a round, no task a deadline (scoring.recording.pipeline) ----------------


EVEN = {"time_single": 60, "time_several": 60, "time_fish": 60, "time_pass": 60}


@pytest.fixture
def even(db, frozen):
    """A digital table seated whose every move has 60 s: each move's deadline is later than the last."""
    world = live_tour("digital", EVEN)
    world["tokens"] = seated(world)
    return world


def test_a_deadline_set_sends_nothing_after_the_commit_but_the_tables_event(
        even, frozen, django_capture_on_commit_callbacks, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # the event is published there (the callbacks are not run)
    with django_capture_on_commit_callbacks() as callbacks:
        play_one(even, frozen)
    assert [callback.func for callback in callbacks] == [events.publish]  # no timer task


def test_a_round_of_the_sweep_records_a_deadline_that_passes_between_its_passes(even, frozen):
    pk, table = even["p1"].pk, live(even)
    frozen.to(table.deadline - datetime.timedelta(seconds=0.6))
    waits: list[float] = []

    def wait(seconds: float) -> None:  # the round's pause between passes, on the test's clock
        waits.append(seconds)
        frozen.advance(0.25)

    assert pipeline.sweep(4, 0.25, wait=wait) == 1
    # Each pass waits for its place in the round (a quarter, a half, three quarters of a second
    # after its start, less the work done meanwhile: here the wall clock hardly moves).
    assert len(waits) == 3 and all(0.2 * n <= w <= 0.25 * n for n, w in enumerate(waits, 1))
    lapse = ClockLapse.objects.get(partition_id=pk)
    # Recorded by the pass after the deadline, a quarter of a second at most after it.
    assert (lapse.by, lapse.turn, lapse.lapse) == ("sweep", table.turn, 1)
    assert table.deadline <= lapse.at <= table.deadline + datetime.timedelta(seconds=0.25)
    assert live(even).deadline == table.deadline + datetime.timedelta(seconds=60)


def test_a_round_stops_its_passes_when_its_budget_is_spent(even, frozen):
    frozen.to(live(even).deadline + datetime.timedelta(seconds=1))
    passes: list[float] = []
    assert pipeline.sweep(4, 0.25, budget=0.0, wait=passes.append) == 1  # the first table, then no more
    assert passes == []


def test_two_rounds_of_the_sweep_at_once_record_one_violation(even, frozen):
    pk, table = even["p1"].pk, live(even)
    frozen.to(table.deadline)
    assert pipeline.sweep() == 1
    assert pipeline.sweep() == 0  # the round delivered twice, or the next one meanwhile
    after = live(even)
    assert ClockLapse.objects.get(partition_id=pk).by == "sweep" and len(game(even).violations) == 1
    assert after.deadline == table.deadline + datetime.timedelta(seconds=60)


def test_a_clock_service_down_for_less_than_an_outage_loses_no_deadline(even, frozen):
    first = live(even)
    frozen.to(first.deadline - datetime.timedelta(seconds=20))
    assert pipeline.sweep() == 0
    # No round for 25 s (a worker killed and started again, under CLOCK_OUTAGE_SECONDS): the next
    # round records the lapse that fell meanwhile, at its deadline.
    frozen.advance(25)
    assert pipeline.sweep() == 1
    table = live(even)
    assert table.lapses == 1 and table.deadline == first.deadline + datetime.timedelta(seconds=60)
    while frozen.now < table.deadline:
        frozen.advance(10)
        pipeline.sweep()
    assert list(ClockLapse.objects.values_list("lapse", "by")) == [(1, "sweep"), (2, "sweep")]
    assert [lapse.deadline for lapse in ClockLapse.objects.order_by("lapse")] == [first.deadline, table.deadline]


def test_a_pause_clears_the_deadline_a_round_meanwhile_records_nothing_and_the_resume_sets_it(digital, frozen):
    pk, first = digital["p1"].pk, live(digital)
    paused_at = frozen.advance(5)
    play.pause(digital["ref"], pk, "call")
    assert live(digital).deadline is None
    frozen.to(first.deadline)
    assert pipeline.sweep() == 0
    resumed_at = frozen.advance(30)
    play.resume(digital["ref"], pk)
    assert live(digital).deadline == first.deadline + (resumed_at - paused_at)
    assert not ClockLapse.objects.exists()
