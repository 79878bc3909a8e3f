"""Violations in Goat and Sea Goat (RULES 6, 7, 9): the escalation of rules.py, the penalty charged
to the offender (Goat) or credited to the others (Sea Goat), repeats over a sitting's games, and
the annulment. Computed by hand."""

from __future__ import annotations

import pytest

from scoring.engine import GoatGame, GoatSitting, Regulations, RulesError


def regs(game="goat", **settings):
    return Regulations(**{"game": game, "players": 3, "penalty_points": 10, **settings})


def test_goat_a_warning_then_a_penalty_charged_to_the_offender():
    game = GoatGame(regs(), first_leader=1)
    first = game.record_violation(2, "conduct")
    assert (first.consequence, first.deal, first.move) == ("warning", 0, None) and game.scores == (0, 0, 0)
    second = game.record_violation(2, "conduct")
    assert second.consequence == "penalty" and game.scores == (0, 10, 0)
    assert game.penalties[0].violation == second.id and game.penalties[0].unit == "2"
    assert game.record_violation(3, "conduct").consequence == "warning"  # counted per player
    assert game.record_violation(2, "move_time").consequence == "warning"  # and per code
    assert game.record_violation(1, "signs").consequence == "penalty"  # a penalty at once
    assert game.scores == (10, 10, 0)


def test_sea_goat_credits_the_penalty_to_the_others():
    game = GoatGame(regs("sea_goat", teams=False), first_leader=1)
    game.record_violation(1, "move_time")
    assert game.scores == (0, 0, 0)
    game.record_violation(1, "move_time")
    assert game.scores == (0, 10, 10)


def test_pair_scope_counts_the_pair_with_teams():
    game = GoatGame(regs(players=4, teams=True, repeat_scope="pair_partition"), first_leader=1)
    assert game.record_violation(1, "conduct").consequence == "warning"
    assert game.record_violation(3, "conduct").consequence == "penalty"  # seat 3 is pair A too
    assert game.record_violation(2, "conduct").consequence == "warning"
    assert game.scores == (10, 0)


def test_annulment_withdraws_the_penalty_and_re_decides_nothing_else():
    game = GoatGame(regs(lose_at=101), first_leader=1)
    first = game.record_violation(2, "conduct")
    game.record_deal("domino", 1, {2: 14, 3: 25})
    game.record_violation(2, "conduct")
    game.write_penalty(3, "signs")
    deals, before = game.deals, game.scores
    assert before[1] - 10 == deals[-1].scores[1] and before[2] - 10 == deals[-1].scores[2]
    game.annul_violation(first.id, "the clock was paused")
    assert game.deals == deals  # the deal's record stays as it was
    assert [v.consequence for v in game.violations] == ["warning", "warning"]
    assert game.violations[0].annulled == "the clock was paused"
    assert game.scores == (before[0], before[1] - 10, before[2])  # the written penalty stays
    assert [p.code for p in game.penalties] == ["signs"]
    assert game.record_violation(2, "conduct").consequence == "penalty"  # the second counted is a first
    replayed = GoatGame.from_dict(game.to_dict())
    assert replayed.violations == game.violations and replayed.scores == game.scores
    with pytest.raises(RulesError, match="already annulled"):
        game.annul_violation(first.id, "again")
    with pytest.raises(RulesError, match="no violation 2 to annul"):
        game.annul_violation(2, "a deal is no violation")
    with pytest.raises(RulesError, match="needs a reason"):
        game.annul_violation(first.id + 2, " ")


def test_a_violation_is_refused_with_a_clear_error_and_nothing_recorded():
    game = GoatGame(regs(), first_leader=1)
    with pytest.raises(RulesError, match="unknown violation code 'no_show'"):
        game.record_violation(1, "no_show")
    with pytest.raises(RulesError, match="seat must be 1 to 3"):
        game.record_violation(4, "conduct")
    with pytest.raises(RulesError, match="the move of a violation"):
        game.record_violation(1, "conduct", move=0)  # no deal yet
    assert game.violations == [] and len(game.events) == 1


def test_a_violation_during_a_deal_is_at_the_move_awaited():
    game = GoatGame(regs(players=2))
    deal = game.start_deal(seed=3)
    game.play(deal.legal_moves()[0].tile, None, deal.to_move)
    record = game.record_violation(deal.to_move, "move_time")
    assert (record.deal, record.move, record.after_deal) == (1, 1, 0)
    with pytest.raises(RulesError, match="the move of a violation"):
        game.record_violation(1, "conduct", move=2)


def test_a_sitting_counts_repeats_over_its_games_and_annuls_across_them():
    sitting = GoatSitting(regs(players=2, games_per_tour=3, lose_at=20, penalty_points=5))
    sitting.draw_lead(1)
    first = sitting.record_violation(1, "conduct")
    sitting.record_deal("domino", 1, {2: 25})  # seat 2 is the goat: game 2 begins
    assert len(sitting.games) == 2
    assert sitting.record_violation(1, "conduct").consequence == "penalty"  # the sitting is the partition
    assert sitting.game.scores == (5, 0)
    sitting.annul_violation(1, first.id, "justified")
    assert sitting.games[0].violations[0].annulled == "justified"
    assert sitting.game.violations[0].consequence == "warning" and sitting.game.scores == (0, 0)
    replayed = GoatSitting.from_dict(sitting.to_dict())
    assert replayed.game.scores == (0, 0) and replayed.game.violations == sitting.game.violations
    with pytest.raises(RulesError, match="there is no game 3"):
        sitting.annul_violation(3, 0, "no such game")


def test_an_annulment_that_undoes_a_finished_game_is_refused():
    sitting = GoatSitting(regs(players=2, games_per_tour=2, lose_at=20, penalty_points=20))
    sitting.draw_lead(1)
    first = sitting.record_violation(2, "conduct")
    sitting.record_violation(2, "conduct")  # 20 points: seat 2 is the goat, game 2 begins
    assert sitting.games[0].is_over and len(sitting.games) == 2
    sitting.draw_lead(1)  # game 2 has begun
    with pytest.raises(RulesError, match="game 1 is not over, yet another game follows it"):
        sitting.annul_violation(1, first.id, "justified")
    assert sitting.games[0].violations[0].annulled is None and sitting.games[0].is_over


def test_an_annulment_drops_a_next_game_with_nothing_recorded():
    sitting = GoatSitting(regs(players=2, games_per_tour=2, lose_at=20, penalty_points=20))
    sitting.draw_lead(1)
    first = sitting.record_violation(2, "conduct")
    sitting.record_violation(2, "conduct")  # the goat: game 2 begins, nothing recorded in it
    sitting.annul_violation(1, first.id, "justified")
    assert len(sitting.games) == 1 and not sitting.game.is_over and sitting.game.scores == (0, 0)


# -- the protocol's violations (PROTOCOL_FORMAT.md "Goat and Sea Goat") -----------------------------

from scoring.engine import read_protocol, result_of, write_protocol  # noqa: E402

DOC = {"format": "domino-protocol/1", "regulations": {"game": "goat", "players": 3, "penalty_points": 10},
       "first_leader": 1, "deals": [{"end": "domino", "seat": 1, "values": {"2": 14, "3": 25}}]}
VIOLATIONS = [{"deal": 0, "seat": 2, "code": "conduct"},
              {"deal": 1, "seat": 3, "code": "move_time", "annulled": "the clock was paused"},
              {"deal": 1, "seat": 2, "code": "conduct"}]


def test_a_protocols_violations_are_read_escalated_and_written_back():
    plain = result_of(read_protocol(DOC)[0])
    game, _ = read_protocol({**DOC, "violations": VIOLATIONS})
    out = result_of(game)
    scores = plain["scores"]
    assert out["scores"] == {"1": scores["1"], "2": scores["2"] + 10, "3": scores["3"]}
    assert [(v["deal"], v["seat"], v["outcome"]) for v in out["violations"]] == [
        (0, 2, "warning"), (1, 3, "annulled"), (1, 2, "penalty")]
    assert [(p["after_deal"], p["seat"], p["code"], p["unit"], p["points"]) for p in out["penalties"]] == [
        (1, 2, "conduct", "2", 10)]
    written = write_protocol(game)
    assert written["violations"] == VIOLATIONS and "penalties" not in written
    assert result_of(read_protocol(written)[0]) == out


def test_sea_goat_violations_credit_the_others_from_a_protocol():
    doc = {**DOC, "regulations": {"game": "sea_goat", "players": 3, "teams": False, "penalty_points": 10}}
    plain = result_of(read_protocol(doc)[0])["scores"]
    out = result_of(read_protocol({**doc, "violations": VIOLATIONS})[0])
    assert out["scores"] == {"1": plain["1"] + 10, "2": plain["2"], "3": plain["3"] + 10}


def test_violations_at_moves_of_a_deal_played_move_by_move_round_trip():
    game = GoatGame(regs(players=2))
    deal = game.start_deal(seed=3)
    game.record_violation(deal.to_move, "move_time")  # move 0: a warning
    game.play(deal.legal_moves()[0].tile, None, deal.to_move)
    game.record_violation(deal.to_move, "conduct")  # move 1
    while game.current is not None:
        current = game.current
        if current.legal_moves():
            game.play(current.legal_moves()[0].tile, current.legal_moves()[0].end, current.to_move,
                      current.legal_moves()[0].second)
        elif current.can_draw():
            current.draw()
        else:
            game.pass_turn(current.to_move)
    written = write_protocol(game)
    assert [(v["deal"], v["move"]) for v in written["violations"]] == [(1, 1), (1, 2)]  # from 1 in a file
    assert result_of(read_protocol(written)[0]) == result_of(game)


@pytest.mark.parametrize("violation, message", [
    ({"deal": 2, "seat": 1, "code": "conduct", "move": 1}, "violation 1: deal 2 is not given"),
    ({"deal": 1, "seat": 1, "code": "signs"}, "other codes are penalties at once"),
    ({"deal": 1, "seat": 4, "code": "conduct"}, "violation 1: seat must be 1 to 3"),
    ({"deal": 0, "seat": 1, "code": "conduct", "annulled": ""}, "annulled must be the reason"),
])
def test_a_bad_violation_in_a_protocol_is_refused_and_named(violation, message):
    with pytest.raises(RulesError, match=message):
        read_protocol({**DOC, "violations": [violation]})


def test_a_penalty_during_a_deal_that_makes_a_goat_lets_the_deal_end_and_replays():
    game = GoatGame(regs(players=2, lose_at=20, penalty_points=20))
    deal = game.start_deal(seed=3)
    seat = deal.to_move
    game.record_violation(seat, "conduct")
    record = game.record_violation(seat, "conduct")  # 20 points: the deal's end decides
    assert record.deal == 1 and game.scores[seat - 1] == 20 and not game.is_over
    replayed = GoatGame.from_dict(game.to_dict())  # the deal is not recorded yet: the same
    assert not replayed.is_over and replayed.violations == game.violations and replayed.current is not None


def test_the_clocks_lapses_and_the_moves_seconds_count_each_lapse_once():
    # 2 players, the first deal led by its hands: the forced lead has time_single 5 s.
    sitting = GoatSitting(regs(players=2, time_single=5))
    deal = sitting.start_deal(seed=3)
    seat, lead = deal.to_move, deal.legal_moves()[0]
    assert deal.allowance() == 5
    first = sitting.record_lapse(seat)  # the live clock, at 5 s: lapse 1 of move 1
    assert (first.deal, first.move, first.lapse, first.consequence) == (1, 0, 1, "warning")
    assert sitting.awaited().lapses == 1
    with pytest.raises(RulesError, match="already ran out 1 times"):
        sitting.play(lead.tile, lead.end, seat, seconds=4.9)  # fewer than the lapse recorded took
    sitting.play(lead.tile, lead.end, seat, seconds=15.0)  # 3 lapses: the 2 not recorded yet are added
    game = sitting.game
    assert [(v.move, v.lapse, v.consequence) for v in game.violations] == [
        (0, 1, "warning"), (0, 2, "penalty"), (0, 3, "penalty")]
    assert game.scores[seat - 1] == 20 and [p.after_deal for p in game.penalties] == [1, 1]  # during deal 1
    assert game.current.moves[0]["seconds"] == 15.0
    replayed = GoatGame.from_dict(game.to_dict())  # a replay derives nothing again
    assert replayed.violations == game.violations and replayed.scores == game.scores


def test_a_penalty_written_during_a_deal_counts_at_once_and_after_the_deal_when_it_ends():
    game = GoatGame(regs(players=2, lose_at=101, opening=0))
    deal = game.start_deal(seed=3)
    penalty = game.write_penalty(deal.to_move, "signs")
    assert penalty.after_deal == 1 and game.scores[penalty.seat - 1] == 10
    replayed = GoatGame.from_dict(game.to_dict())
    assert replayed.penalties == game.penalties and not replayed.is_over
    while game.current is not None:
        current = game.current
        moves = current.legal_moves()
        if moves:
            game.play(moves[0].tile, moves[0].end, current.to_move)
        elif current.can_draw():
            game.draw(None, current.to_move)
        else:
            game.pass_turn(current.to_move)
    record = game.deals[0]
    counted = game.penalties[0]
    # The deal's own score first, then the penalty written during it: its scores are after both.
    assert record.scores[penalty.seat - 1] == game.scores[penalty.seat - 1] - 10
    assert counted.after_deal == 1 and counted.scores == game.scores


def test_between_deals_a_violations_penalty_counts_before_the_penalties_written_since_the_deal():
    # PROTOCOL_FORMAT.md: the penalties of the violations, then the listed penalties, so that the
    # file (which cannot say which came first) gives the same penalties, scores and all.
    game = GoatGame(regs(lose_at=101), first_leader=1)
    game.record_deal("domino", 1, {2: 14, 3: 25})
    game.record_violation(2, "conduct")
    game.write_penalty(3, "signs")
    game.record_violation(2, "conduct")  # his second: a penalty, written after seat 3's
    def seen(g):
        return [(p.after_deal, p.seat, p.code, p.scores) for p in g.penalties]
    assert seen(game) == [(1, 2, "conduct", (0, 24, 25)), (1, 3, "signs", (0, 24, 35))]
    again = read_protocol(write_protocol(game))[0]
    assert seen(again) == seen(game) and again.scores == game.scores == (0, 24, 35)
