"""A partition (RULES 3, 4, 5, 6, 7): deal scoring, leads, the end of a partition, penalties,
violations, forfeit, move-by-move deals and storage. Every expected number is worked out by
hand in the comments from RULES.md."""

import json

import pytest

from engine_handbuilt import (
    DOMINO_HANDS,
    DOMINO_MOVES,
    FISH_HANDS,
    FISH_MOVES,
    PASS,
)
from scoring.engine import Partition, PartitionError, Regulations, RulesError, Tile


def make(first_leader=1, **regulations):
    return Partition(Regulations.from_dict(regulations), first_leader=first_leader)


def domino(p, seat, a, b):
    return p.record_deal("domino", seat, (a, b))


def fish(p, a, b, seat=None):
    return p.record_deal("fish", seat, (a, b))


def play_through(p, hands, moves):
    """Play a hand-built deal move by move through the partition."""
    deal = p.start_deal(hands=hands)
    for move in moves:
        if move == PASS:
            p.pass_turn()
        else:
            p.play(*move)
    return deal


def deal_data(record):
    """The move-form data of a deal played move by move (stored as a dict or as a Deal)."""
    deal = record.deal
    return deal.to_dict() if hasattr(deal, "to_dict") else deal


def deal_rows(p):
    return [(r.n, r.leader, r.end, r.seat, r.pips, r.winner, r.points, r.totals, deal_data(r))
            for r in p.deals]


def state(p):
    return (p.totals, deal_rows(p), p.penalties, p.violations, p.decision, p.status(), p.carry,
            p.time_expired, p.no_show, len(p.events))


# -- deal scoring (RULES 4.2, 4.3) ------------------------------------------------------------

def test_domino_scores_all_pips_in_all_hands_for_the_pair():
    p = make()
    record = domino(p, 3, 4, 31)  # seat 3 is pair A: 4 + 31 = 35
    assert (record.n, record.leader, record.end, record.seat) == (1, 1, "domino", 3)
    assert (record.winner, record.points, record.pips, record.totals) == ("A", 35, (4, 31), (35, 0))
    record = domino(p, 4, 20, 6)  # seat 4 is pair B: 26
    assert (record.winner, record.points, record.totals) == ("B", 26, (35, 26))
    assert p.totals == (35, 26)


def test_domino_with_opponents_only_scores_the_losers_pips():
    p = make(deal_points="opponents_only")
    assert domino(p, 1, 4, 31).points == 31  # A wins: B's 31
    assert domino(p, 2, 20, 6).points == 20  # B wins: A's 20
    assert p.totals == (31, 20)


def test_fish_the_smaller_total_wins_all_pips():
    p = make()
    record = fish(p, 18, 25)  # A holds less: 18 + 25 = 43
    assert (record.end, record.winner, record.points) == ("fish", "A", 43)
    record = fish(p, 30, 20)  # B holds less: 50
    assert (record.winner, record.points) == ("B", 50)
    assert p.totals == (43, 50)


def test_fish_with_opponents_only():
    p = make(deal_points="opponents_only")
    assert fish(p, 18, 25).points == 25
    assert fish(p, 30, 20).points == 30
    assert p.totals == (25, 30)


def test_fish_tie_nobody_scores():
    p = make()
    record = fish(p, 20, 20)
    assert (record.winner, record.points, record.totals) == (None, 0, (0, 0))
    assert p.carry == 0
    assert domino(p, 2, 10, 5).points == 15  # nothing carried


def test_fish_tie_carry_goes_to_the_next_deal_with_a_winner_and_accumulates():
    p = make(fish_tie="carry")
    assert fish(p, 20, 20).points == 0
    assert p.carry == 40  # 20 + 20
    fish(p, 15, 15)
    assert p.carry == 70  # 40 + 30
    p.record_deal("false_pass", 1, (30, 40))  # no winner: the carry waits
    assert p.carry == 70
    record = domino(p, 2, 10, 5)  # B: 15 + 70 carried
    assert (record.winner, record.points) == ("B", 85)
    assert p.carry == 0
    assert domino(p, 1, 1, 2).points == 3  # nothing left to carry
    # totals: the false pass (seat 1, pair A) gave B 25; B 25 + 85 = 110, A 3
    assert p.totals == (3, 110)


def test_fish_tie_carry_with_opponents_only():
    p = make(fish_tie="carry", deal_points="opponents_only")
    fish(p, 20, 20)
    assert p.carry == 20  # what a winner would have scored: the other pair's 20
    assert domino(p, 1, 7, 9).points == 9 + 20


# -- false pass (RULES 7) ---------------------------------------------------------------------

def test_false_pass_scores_nothing_and_penalises_the_pair_by_itself():
    p = make()
    record = p.record_deal("false_pass", 2, (40, 50))
    assert (record.end, record.seat, record.winner, record.points) == ("false_pass", 2, None, 0)
    assert record.totals == (0, 0)  # the deal's own score, before its penalty
    [penalty] = p.penalties
    assert (penalty.after_deal, penalty.seat, penalty.code, penalty.pair, penalty.points) == (1, 2, "false_pass", "B", 25)
    assert penalty.totals == (25, 0)  # award_opponents: A gets 25
    assert p.totals == (25, 0)


def test_false_pass_with_opponents_score():
    p = make(false_pass_award="opponents_score")
    record = p.record_deal("false_pass", 2, (40, 50))  # A scores as if domino: 90
    assert (record.winner, record.points, record.totals) == ("A", 90, (90, 0))
    assert p.totals == (115, 0)  # and the penalty: 90 + 25


def test_false_pass_with_opponents_score_and_opponents_only():
    p = make(false_pass_award="opponents_score", deal_points="opponents_only")
    record = p.record_deal("false_pass", 3, (40, 50))  # seat 3 is A: B scores A's 40
    assert (record.winner, record.points) == ("B", 40)
    assert p.totals == (0, 65)


def test_false_pass_with_deduct_offenders():
    p = make(penalty_mode="deduct_offenders")
    p.record_deal("false_pass", 4, (40, 50))
    assert p.totals == (0, -25)
    assert p.penalties[0].totals == (0, -25)


# -- leads (RULES 3) --------------------------------------------------------------------------

def test_the_lead_rotates_in_the_direction_of_play():
    p = make(first_leader=3)
    leaders = []
    for seat in (1, 2, 3, 4, 1, 2):
        assert p.status().leader == (leaders[-1] % 4 + 1 if leaders else 3)
        leaders.append(domino(p, seat, 5, 5).leader)
    assert leaders == [3, 4, 1, 2, 3, 4]


def test_next_lead_winner_the_last_tile_leads_and_a_false_pass_rotates():
    p = make(next_lead="winner")
    assert domino(p, 3, 4, 4).leader == 1
    assert p.status().leader == 3  # seat 3 made domino
    assert fish(p, 30, 20, seat=2).leader == 3
    assert p.status().leader == 2  # seat 2 placed the fishing tile
    assert p.record_deal("false_pass", 4, (10, 10)).leader == 2
    assert p.status().leader == 3  # rotation from deal 3's leader (2)
    assert fish(p, 20, 20, seat=1).leader == 3
    assert p.status().leader == 1  # a drawn fish: the one who placed the fishing tile


def test_next_lead_winner_needs_the_fishing_seat_for_the_next_deal():
    # A penalty after the fish may still decide the partition (PROTOCOL_FORMAT, Output): only the
    # next deal needs its leader.
    p = make(next_lead="winner")
    fish(p, 30, 20)
    assert p.totals == (0, 50) and p.status().leader is None
    with pytest.raises(PartitionError, match="fishing tile"):
        domino(p, 1, 10, 10)
    with pytest.raises(PartitionError, match="fishing tile"):
        p.start_deal(seed=1)
    assert len(p.deals) == 1


def test_next_lead_winner_a_fish_that_decides_the_partition_needs_no_seat():
    # No deal follows it, so nobody needs to know who leads next (PROTOCOL_FORMAT, Output).
    p = make(next_lead="winner", target=100)
    domino(p, 2, 30, 30)  # B 60
    record = fish(p, 40, 10)  # B holds fewer pips: B 60 + 50 = 110
    assert record.seat is None and p.decision is not None and p.decision.winner == "B"


def test_next_lead_winner_a_seatless_fish_reopened_by_a_penalty_blocks_the_next_deal():
    # A penalty after the deciding fish takes B back under the target: a deal follows after all,
    # and nobody knows who leads it; it is refused, never led by a guessed seat.
    p = make(next_lead="winner", target=100, penalty_mode="deduct_offenders", penalty_points=100)
    domino(p, 2, 45, 45)  # B 90
    fish(p, 20, 10)  # B holds fewer pips: B 90 + 30 = 120, decided
    assert p.decision is not None
    p.write_penalty(2, "signs")  # B 120 - 100 = 20: no longer decided
    assert p.decision is None and p.status().leader is None
    with pytest.raises(PartitionError, match="fishing tile"):
        domino(p, 1, 10, 10)
    with pytest.raises(PartitionError, match="fishing tile"):
        p.start_deal(seed=1)


def test_rotation_fish_seat_is_optional():
    p = make()
    record = fish(p, 30, 20)
    assert record.seat is None and record.winner == "B"
    assert p.status().leader == 2


# -- the target (RULES 5) ---------------------------------------------------------------------

def test_reaching_the_target_ends_the_partition():
    p = make()
    domino(p, 1, 60, 90)  # A 150
    assert not p.is_over and p.status().next == "deal"
    domino(p, 2, 20, 40)  # B 60
    record = domino(p, 3, 20, 30)  # A 200: exactly the target
    assert record.totals == (200, 60)
    assert p.is_over
    assert (p.decision.winner, p.decision.reason) == ("A", "target")
    assert p.status().next == "over" and p.status().decision == p.decision


def test_just_under_the_target_plays_on():
    p = make(target=100)
    domino(p, 1, 50, 49)  # A 99
    assert not p.is_over
    domino(p, 2, 1, 0)  # B 1
    assert not p.is_over
    domino(p, 1, 0, 1)  # A 100
    assert p.decision.winner == "A" and p.decision.reason == "target"


def test_level_totals_at_the_target_play_on_until_one_pair_leads():
    """A 74, B 175; during deal 5 a penalty on A brings B to 200; the deal (the hand-built fish)
    gives A 126: 200:200, level, so an extra deal decides."""
    p = make()
    domino(p, 1, 20, 54)  # A 74
    domino(p, 2, 60, 40)  # B 100
    domino(p, 4, 45, 30)  # B 175
    fish(p, 30, 30)  # drawn, deal 4 led by seat 4
    assert p.status().leader == 1
    deal = p.start_deal(hands=FISH_HANDS)
    p.write_penalty(3, "signs")  # pair A penalised during deal 5: B 200 when the deal ends
    assert p.totals == (74, 175) and [x.pair for x in p.pending_penalties] == ["A"]
    assert p.status().next == "last_deal"
    assert not p.is_over
    for move in FISH_MOVES:
        p.play(*move)
    assert deal.is_over and p.current is None
    assert p.deals[-1].points == 126 and p.totals == (200, 200)
    assert not p.is_over
    status = p.status()
    assert (status.next, status.deal, status.leader) == ("extra_deal", 6, 2)
    fish(p, 10, 10)  # still level
    assert p.status().next == "extra_deal"
    domino(p, 2, 3, 0)  # B 203
    assert (p.decision.winner, p.decision.reason) == ("B", "target")


# -- penalties (RULES 7) ----------------------------------------------------------------------

def test_penalty_award_opponents():
    p = make()
    record = p.write_penalty(2, "signs")
    assert (record.after_deal, record.seat, record.code, record.pair, record.points) == (0, 2, "signs", "B", 25)
    assert record.totals == (25, 0)
    domino(p, 1, 5, 5)
    record = p.write_penalty(3, "moved_tiles")
    assert (record.after_deal, record.pair, record.totals) == (1, "A", (35, 25))


def test_penalty_deduct_offenders_and_custom_points():
    p = make(penalty_mode="deduct_offenders", penalty_points=30)
    p.write_penalty(1, "conduct")
    assert p.totals == (-30, 0)
    assert p.penalties[0].points == 30
    domino(p, 2, 10, 0)
    p.write_penalty(4, "touched_tile")
    assert p.totals == (-30, -20)


def test_unknown_penalty_code_is_refused():
    p = make()
    for code in ("smoking", "no_show", None):
        with pytest.raises(PartitionError, match="unknown penalty code"):
            p.write_penalty(2, code)
    with pytest.raises(PartitionError, match="seat"):
        p.write_penalty(5, "signs")
    assert p.penalties == [] and p.totals == (0, 0)


def test_a_penalty_reaching_the_target_between_deals_ends_the_partition():
    p = make()
    domino(p, 1, 80, 80)  # A 160
    domino(p, 2, 10, 10)  # B 20
    domino(p, 3, 10, 10)  # A 180
    p.write_penalty(2, "signs")  # A 205
    assert (p.decision.winner, p.decision.reason) == ("A", "target")
    with pytest.raises(PartitionError):
        domino(p, 4, 1, 1)


def test_a_penalty_reaching_the_target_during_a_deal_ends_the_partition_after_it():
    p = make()
    domino(p, 1, 80, 80)  # A 160
    domino(p, 2, 10, 10)  # B 20
    domino(p, 3, 10, 10)  # A 180
    domino(p, 4, 10, 10)  # B 40; deal 5 is led by seat 1
    p.start_deal(hands=FISH_HANDS)
    p.write_penalty(4, "signs")  # A 205 during deal 5
    assert not p.is_over  # the deal is finished first
    for move in FISH_MOVES:
        p.play(*move)
    assert p.totals == (205 + 126, 40)
    assert (p.decision.winner, p.decision.reason) == ("A", "target")


def test_status_while_a_penalty_has_made_the_current_deal_the_last():
    """Status docs: "extra_deal" is for level totals; "last_deal" for a deal that ends the
    partition. A at 205 against 40 is not level; RULES 7 makes the current deal the last."""
    p = make()
    domino(p, 1, 80, 80)  # A 160
    domino(p, 2, 10, 10)  # B 20
    domino(p, 3, 10, 10)  # A 180
    p.start_deal(seed=5)
    p.write_penalty(2, "signs")  # A 205 when deal 4 ends: it is the last (RULES 7)
    assert p.totals == (180, 20)
    assert p.status().next == "last_deal"


def test_both_pairs_past_the_target_the_higher_wins():
    p = make()
    domino(p, 1, 80, 80)  # A 160
    domino(p, 2, 90, 0)  # B 90
    domino(p, 4, 50, 50)  # B 190
    domino(p, 1, 20, 25)  # A 205: decided for A ...
    assert p.decision.winner == "A"
    p.write_penalty(3, "signs")  # ... then a penalty written after that deal: B 215
    assert p.totals == (205, 215)
    assert (p.decision.winner, p.decision.reason) == ("B", "target")


def test_both_pairs_past_the_target_and_level_play_on():
    p = make()
    domino(p, 1, 80, 80)  # A 160
    domino(p, 2, 90, 0)  # B 90
    domino(p, 4, 45, 45)  # B 180
    domino(p, 1, 20, 25)  # A 205
    p.write_penalty(1, "signs")  # B 205: level past the target
    assert p.totals == (205, 205)
    assert not p.is_over and p.status().next == "extra_deal"
    domino(p, 4, 1, 0)  # B 206
    assert (p.decision.winner, p.decision.reason) == ("B", "target")


# -- time (RULES 5) ---------------------------------------------------------------------------

def test_time_runs_out_during_a_deal_that_deal_is_the_last():
    p = make()
    domino(p, 1, 5, 30)  # A 35
    domino(p, 2, 40, 8)  # B 48
    p.expire_time(during_deal=True)  # deal 3 was being played
    assert p.time_expired == ("during_deal", 3)
    status = p.status()
    assert (status.next, status.deal, status.leader) == ("last_deal", 3, 3)
    domino(p, 4, 30, 2)  # B 80
    assert (p.decision.winner, p.decision.reason) == ("B", "time")
    assert p.totals == (35, 80)


def test_time_runs_out_during_a_deal_played_move_by_move():
    p = make(first_leader=2)
    p.start_deal(hands=DOMINO_HANDS)
    for move in DOMINO_MOVES[:10]:
        p.pass_turn() if move == PASS else p.play(*move)
    p.expire_time(during_deal=True)
    assert p.status().next == "last_deal" and p.status().deal == 1
    for move in DOMINO_MOVES[10:]:
        p.pass_turn() if move == PASS else p.play(*move)
    assert p.totals == (0, 11)
    assert (p.decision.winner, p.decision.reason) == ("B", "time")


def test_time_runs_out_between_deals_one_more_deal_is_played():
    p = make()
    domino(p, 1, 10, 20)  # A 30
    p.expire_time(during_deal=False)
    assert p.time_expired == ("after_deal", 1)
    assert not p.is_over
    assert (p.status().next, p.status().deal) == ("last_deal", 2)
    domino(p, 2, 5, 5)  # B 10
    assert (p.decision.winner, p.decision.reason) == ("A", "time")


def test_time_with_level_totals_plays_extra_deals():
    p = make()
    domino(p, 1, 10, 20)  # A 30
    domino(p, 2, 20, 10)  # B 30
    p.expire_time(during_deal=False)  # after deal 2: deal 3 is the last
    fish(p, 15, 15)  # drawn: 30:30
    assert not p.is_over
    assert (p.status().next, p.status().deal, p.status().leader) == ("extra_deal", 4, 4)
    domino(p, 4, 7, 3)  # B 40
    assert (p.decision.winner, p.decision.reason) == ("B", "time")


def test_target_in_the_last_deal_by_time_is_reason_target():
    p = make()
    domino(p, 1, 80, 80)  # A 160
    p.expire_time(during_deal=True)
    domino(p, 2, 10, 10)  # B 20: the last deal by time
    assert (p.decision.winner, p.decision.reason) == ("A", "time")
    p = make()
    domino(p, 1, 80, 80)
    p.expire_time(during_deal=True)
    assert p.status().next == "last_deal"
    domino(p, 3, 20, 30)  # A 210 in the last deal: the target is reached
    assert p.decision.reason == "target"


def test_the_clock_runs_out_once():
    p = make()
    p.expire_time(during_deal=False)
    with pytest.raises(PartitionError, match="clock"):
        p.expire_time(during_deal=True)


# -- fixed deals (RULES 5) --------------------------------------------------------------------

def test_fixed_deals_ends_after_eight_deals_with_more_points():
    p = make(format="fixed_deals")
    expected_leaders = [1, 2, 3, 4, 1, 2, 3, 4]
    for n in range(1, 9):
        status = p.status()
        assert status.deal == n and status.leader == expected_leaders[n - 1]
        assert status.next == ("last_deal" if n == 8 else "deal")
        domino(p, 1 if n % 2 else 2, 60, 100)  # odd deals A +160, even deals B +160
        if n < 8:
            assert not p.is_over
    # A won deals 1, 3, 5, 7 and B deals 2, 4, 6, 8: 4 x 160 each
    assert p.totals == (640, 640)
    assert not p.is_over and p.status().next == "extra_deal"
    domino(p, 3, 1, 1)  # A 642
    assert (p.decision.winner, p.decision.reason) == ("A", "deals")
    assert len(p.deals) == 9


def test_fixed_deals_ignores_the_target():
    p = make(format="fixed_deals", deals=4)
    domino(p, 1, 60, 100)  # A 160
    domino(p, 3, 60, 100)  # A 320: past 200, no end
    assert not p.is_over
    domino(p, 2, 10, 10)  # B 20
    domino(p, 4, 10, 10)  # B 40, deal 4 of 4
    assert (p.decision.winner, p.decision.reason) == ("A", "deals")


# -- no-show (RULES 5) ------------------------------------------------------------------------

@pytest.mark.parametrize("absent,totals,winner", [("A", (0, 200), "B"), ("B", (200, 0), "A"),
                                                  ("both", (0, 0), None)])
def test_no_show(absent, totals, winner):
    p = Partition()
    decision = p.record_no_show(absent)
    assert (decision.winner, decision.reason) == (winner, "no_show")
    assert p.totals == totals and p.no_show == absent
    assert p.is_over and p.deals == []


def test_no_show_points_default_to_the_target_or_their_own_setting():
    p = Partition(Regulations.from_dict({"target": 300}))
    p.record_no_show("A")
    assert p.totals == (0, 300)
    p = Partition(Regulations.from_dict({"target": 300, "no_show_points": 120}))
    p.record_no_show("B")
    assert p.totals == (120, 0)


def test_no_show_after_a_deal_or_an_unknown_pair_is_refused():
    p = make()
    with pytest.raises(PartitionError):
        p.record_no_show("C")
    domino(p, 1, 10, 10)
    with pytest.raises(PartitionError, match="before the first deal"):
        p.record_no_show("A")
    assert not p.is_over and p.totals == (20, 0)


# -- nothing after the decision ---------------------------------------------------------------

def decided():
    p = make(target=100)
    domino(p, 1, 50, 60)  # A 110
    assert p.is_over
    return p


@pytest.mark.parametrize("action", [
    lambda p: domino(p, 2, 5, 5),
    lambda p: fish(p, 5, 6),
    lambda p: p.record_deal("false_pass", 2, (5, 5)),
    lambda p: p.start_deal(seed=1),
    lambda p: p.start_deal(hands=FISH_HANDS),
    lambda p: p.expire_time(during_deal=True),
    lambda p: p.record_no_show("A"),
    lambda p: p.play("0-0"),
])
def test_events_after_the_decision_are_refused_and_change_nothing(action):
    p = decided()
    before = state(p)
    dumped = json.dumps(p.to_dict(), sort_keys=True)
    with pytest.raises(RulesError):
        action(p)
    assert state(p) == before
    assert json.dumps(p.to_dict(), sort_keys=True) == dumped
    assert p.current is None


def test_the_refusal_names_the_decision():
    p = decided()
    with pytest.raises(PartitionError) as info:
        domino(p, 2, 5, 5)
    assert "already decided after deal 1" in str(info.value)


def test_after_a_no_show_no_deal():
    p = Partition(first_leader=1)
    p.record_no_show("both")
    with pytest.raises(PartitionError):
        domino(p, 1, 10, 10)


# -- summary deals that cannot be -------------------------------------------------------------

@pytest.mark.parametrize("end,seat,pips,match", [
    ("domino", 1, (100, 80), "168"),
    ("fish", None, (80, 80), "147"),
    ("domino", 1, (0, 0), "0-0"),
    ("domino", 1, (-1, 10), "pips"),
    ("domino", None, (10, 10), "seat"),
    ("domino", 5, (10, 10), "seat"),
    ("false_pass", None, (10, 10), "seat"),
    ("draw", 1, (10, 10), "domino"),
    ("domino", 1, (10,), "pips"),
])
def test_impossible_summary_deals_are_refused(end, seat, pips, match):
    p = make()
    with pytest.raises(PartitionError, match=match):
        p.record_deal(end, seat, pips)
    assert p.deals == [] and p.totals == (0, 0) and p.status().deal == 1 and len(p.events) == 1


def test_no_deal_before_the_lead_draw():
    p = Partition()
    assert p.status().next == "lead_draw"
    with pytest.raises(PartitionError, match="lead draw"):
        domino(p, 1, 10, 10)
    with pytest.raises(PartitionError, match="lead draw"):
        p.start_deal(seed=1)
    p.draw_lead(4)
    assert p.status().leader == 4
    with pytest.raises(PartitionError, match="already"):
        p.draw_lead(1)


# -- violations (RULES 6, 7) ------------------------------------------------------------------

def test_move_time_first_a_warning_then_penalties():
    p = make()
    first = p.record_violation(2, "move_time")
    assert (first.seat, first.code, first.consequence, first.annulled) == (2, "move_time", "warning", None)
    assert p.penalties == [] and p.totals == (0, 0)
    second = p.record_violation(2, "move_time")
    assert second.consequence == "penalty"
    assert p.totals == (25, 0)
    assert p.penalties[0].code == "move_time" and p.penalties[0].violation == second.id
    third = p.record_violation(2, "move_time")
    assert third.consequence == "penalty" and p.totals == (50, 0)


def test_conduct_escalates_separately_from_move_time():
    p = make()
    assert p.record_violation(1, "move_time").consequence == "warning"
    assert p.record_violation(1, "conduct").consequence == "warning"
    assert p.record_violation(1, "conduct").consequence == "penalty"
    assert p.totals == (0, 25)


@pytest.mark.parametrize("code", ["signs", "touched_tile", "moved_tiles", "wrong_lead", "out_of_turn", "false_pass"])
def test_other_violations_bring_a_penalty_at_once(code):
    p = make()
    record = p.record_violation(3, code)
    assert record.consequence == "penalty"
    assert p.totals == (0, 25)


def test_repeat_scope_player_partition_counts_per_player():
    p = make()
    assert p.record_violation(2, "move_time").consequence == "warning"
    assert p.record_violation(4, "move_time").consequence == "warning"  # his partner: his own first
    assert p.record_violation(1, "move_time").consequence == "warning"
    assert p.record_violation(4, "move_time").consequence == "penalty"
    assert p.totals == (25, 0)


def test_repeat_scope_pair_partition_counts_per_pair():
    p = make(repeat_scope="pair_partition")
    assert p.record_violation(2, "move_time").consequence == "warning"
    assert p.record_violation(1, "move_time").consequence == "warning"  # the other pair
    assert p.record_violation(4, "move_time").consequence == "penalty"  # partner of seat 2
    assert p.totals == (25, 0)


def test_repeat_scope_player_tournament_counts_earlier_partitions():
    regs = Regulations.from_dict({"repeat_scope": "player_tournament"})
    p = Partition(regs, first_leader=1, earlier_violations={(2, "move_time"): 1})
    assert p.record_violation(2, "move_time").consequence == "penalty"  # warned in an earlier partition
    assert p.record_violation(4, "move_time").consequence == "warning"
    assert p.record_violation(2, "conduct").consequence == "warning"
    again = Partition.from_dict(json.loads(json.dumps(p.to_dict())))
    assert again.violations == p.violations and again.totals == p.totals == (25, 0)


def test_earlier_violations_count_only_with_player_tournament():
    p = Partition(Regulations(), first_leader=1, earlier_violations={(2, "move_time"): 3})
    assert p.record_violation(2, "move_time").consequence == "warning"


def test_unknown_violations_are_refused():
    p = make()
    for seat, code in ((2, "smoking"), (2, "no_show"), (0, "signs")):
        with pytest.raises(PartitionError):
            p.record_violation(seat, code)
    assert p.violations == []


def test_annulling_a_violation_withdraws_its_penalty_and_keeps_the_record():
    p = make()
    p.record_violation(2, "move_time")  # warning
    second = p.record_violation(2, "move_time")  # penalty: A 25
    domino(p, 1, 10, 10)  # A 45
    assert p.totals == (45, 0)
    p.annul_violation(second.id, "the clock was not started")
    assert p.totals == (20, 0)
    assert p.penalties == []
    kept = [v for v in p.violations if v.id == second.id]
    assert kept and kept[0].annulled == "the clock was not started"
    assert len(p.violations) == 2
    assert p.deals[0].totals == (20, 0)
    # the annulled one does not count: the next is a penalty again only after the warning
    assert p.record_violation(2, "move_time").consequence == "penalty"
    assert p.totals == (45, 0)


def test_annulling_the_warning_makes_the_next_violation_a_first_one():
    p = make()
    first = p.record_violation(2, "move_time")
    p.record_violation(2, "move_time")  # penalty
    p.annul_violation(first.id, "justified: the referee stopped the clock")
    assert p.totals == (0, 0)
    assert [v.consequence for v in p.violations] == ["warning", "warning"]
    assert [v.annulled is not None for v in p.violations] == [True, False]


def test_annulling_needs_a_reason_and_an_existing_violation():
    p = make()
    v = p.record_violation(2, "signs")
    with pytest.raises(PartitionError, match="reason"):
        p.annul_violation(v.id, "  ")
    with pytest.raises(PartitionError):
        p.annul_violation(0, "the lead draw is no violation")
    with pytest.raises(PartitionError):
        p.annul_violation(99, "no such")
    p.annul_violation(v.id, "it was a sneeze")
    with pytest.raises(PartitionError, match="already"):
        p.annul_violation(v.id, "again")
    assert p.totals == (0, 0)


def test_annulment_can_undo_a_decision():
    p = make(target=50)
    domino(p, 1, 20, 20)  # A 40
    v = p.record_violation(2, "signs")  # A 65: target by penalty, between deals
    assert p.decision.winner == "A"
    p.annul_violation(v.id, "a misunderstanding")
    assert p.totals == (40, 0) and not p.is_over


# -- forfeit (RULES 7) ------------------------------------------------------------------------

def test_forfeit_needs_the_setting():
    p = make()
    p.write_penalty(1, "signs")
    with pytest.raises(PartitionError, match="penalties_to_forfeit"):
        p.forfeit("A")
    assert not p.is_over


def test_forfeit_only_after_that_many_penalties():
    p = make(penalties_to_forfeit=2)
    p.write_penalty(1, "signs")
    p.write_penalty(2, "signs")  # pair B's: does not count for A
    with pytest.raises(PartitionError, match="1 penalties"):
        p.forfeit("A")
    p.record_deal("false_pass", 3, (10, 10))  # a false-pass penalty counts too
    decision = p.forfeit("A")
    assert (decision.winner, decision.reason) == ("B", "forfeit")
    assert p.is_over
    with pytest.raises(PartitionError):
        domino(p, 1, 1, 1)


# -- restart a deal (RULES 7 wrong_lead / out_of_turn) ----------------------------------------

def test_restart_deal_drops_the_deal_and_penalises():
    p = make()
    p.start_deal(hands=FISH_HANDS)
    p.play("0-0")
    p.play("0-1")
    record = p.restart_deal(4, "out_of_turn")
    assert p.current is None
    assert (record.code, record.pair, record.after_deal) == ("out_of_turn", "B", 0)
    assert p.totals == (25, 0) and p.deals == []
    status = p.status()
    assert (status.deal, status.leader) == (1, 1)  # redealt; the rightful leader leads
    p.start_deal(seed=3)
    assert p.current.to_move == 1


def test_restart_deal_only_for_a_wrong_lead_or_out_of_turn():
    p = make()
    deal = p.start_deal(hands=FISH_HANDS)
    with pytest.raises(PartitionError):
        p.restart_deal(2, "signs")
    assert p.current is deal and p.penalties == []


# -- move by move -----------------------------------------------------------------------------

def test_a_deal_played_move_by_move_is_recorded_by_itself():
    p = make()
    deal = play_through(p, FISH_HANDS, FISH_MOVES)
    assert deal.is_over and p.current is None
    [record] = p.deals
    assert (record.n, record.leader, record.end, record.seat, record.winner, record.points) == (1, 1, "fish", 2, "A", 126)
    assert record.pips == (54, 72)
    data = deal_data(record)
    assert data is not None
    assert [sorted(data["hands"][s]) for s in "1234"] == [sorted(str(Tile.parse(t)) for t in h) for h in FISH_HANDS]
    assert len(data["moves"]) == len(FISH_MOVES)
    assert p.totals == (126, 0)


def test_a_domino_deal_move_by_move_with_opponents_only():
    p = make(first_leader=2, deal_points="opponents_only")
    play_through(p, DOMINO_HANDS, DOMINO_MOVES)
    record = p.deals[0]
    assert (record.end, record.seat, record.winner, record.points) == ("domino", 4, "B", 5)


def test_a_false_pass_move_by_move():
    p = make()
    p.start_deal(hands=FISH_HANDS)
    for move in FISH_MOVES[:4]:
        p.play(*move)
    record = p.end_false_pass(2)
    assert (record.end, record.seat, record.winner) == ("false_pass", 2, None)
    assert p.totals == (25, 0)
    assert p.status().leader == 2


def test_move_by_move_errors():
    p = make()
    with pytest.raises(PartitionError, match="no deal"):
        p.play("0-0")
    with pytest.raises(PartitionError):
        p.start_deal()
    with pytest.raises(PartitionError):
        p.start_deal(seed=1, hands=FISH_HANDS)
    p.start_deal(hands=FISH_HANDS)
    with pytest.raises(PartitionError, match="already"):
        p.start_deal(seed=1)
    with pytest.raises(PartitionError):
        domino(p, 1, 10, 10)  # a summary deal while one is played move by move
    with pytest.raises(RulesError, match="not in the hand"):
        p.play("6-6")


def test_the_deal_is_dealt_to_the_right_leader():
    p = make(first_leader=4)
    domino(p, 4, 10, 10)
    deal = p.start_deal(seed=11)
    assert deal.leader == 1 and deal.to_move == 1
    assert deal.seed == 11


# -- storing and replaying --------------------------------------------------------------------

def test_to_dict_from_dict_replays_the_same_partition():
    p = make(target=300, fish_tie="carry", penalties_to_forfeit=5)
    domino(p, 3, 4, 31)
    fish(p, 20, 20, seat=1)
    v1 = p.record_violation(2, "move_time")
    p.record_violation(2, "move_time")
    p.record_violation(1, "signs")
    p.annul_violation(v1.id, "the referee was late")
    p.record_deal("false_pass", 4, (30, 12))
    domino(p, 1, 10, 10)  # deal 4, led by seat 4; gets the carry
    play_through(p, FISH_HANDS, FISH_MOVES)  # deal 5, led by seat 1
    p.expire_time(during_deal=False)
    deal = p.start_deal(seed=77)
    deal.play(deal.legal_moves()[0].tile)
    data = json.loads(json.dumps(p.to_dict()))
    again = Partition.from_dict(data)
    assert state(again) == state(p)
    assert again.current is not None
    assert again.current.to_dict() == p.current.to_dict()
    assert again.to_dict() == p.to_dict()
    # hand check of the totals: A 35; carry 40; move_time warning (annulled), then move_time
    # (now a warning again: the first was annulled), signs by seat 1: B 25; false pass by seat
    # 4: A 25 -> 60; deal 4 domino seat 1: 20 + 40 carried = 60 -> A 120; deal 5 fish: +126
    assert p.totals == (35 + 25 + 60 + 126, 25) == (246, 25)
    assert not p.is_over and p.status().next == "last_deal" and p.status().deal == 6


def test_from_dict_refuses_a_bad_event_naming_it():
    p = make()
    domino(p, 1, 10, 10)
    data = p.to_dict()
    data["events"].append({"type": "deal", "end": "domino", "seat": 1, "pips": [100, 100]})
    with pytest.raises(RulesError) as info:
        Partition.from_dict(data)
    assert str(info.value).startswith("event 3")
