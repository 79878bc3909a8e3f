"""A sitting: the games_per_tour games of one table in one tour (RULES 9.1 "Tournament"),
computed by hand."""

from __future__ import annotations

import pytest

from scoring.engine import GoatSitting, PartitionError, Regulations, RulesError


def regs(**settings):
    return Regulations(**{"game": "goat", "players": 2, "games_per_tour": 2, "lose_at": 20, "opening": 0, **settings})


def test_two_games_one_after_the_other_and_their_totals():
    sitting = GoatSitting(regs())
    sitting.draw_lead(1)
    sitting.record_deal("domino", 1, {2: 25})  # game 1: (0, 25), seat 2 the goat
    assert len(sitting.games) == 2 and not sitting.is_over
    with pytest.raises(RulesError, match="needs the seat that led it"):
        sitting.record_deal("fish", 2, {1: 12, 2: 9})  # game 2's first deal is led by the hands
    sitting.draw_lead(2)
    sitting.record_deal("fish", 2, {1: 12, 2: 9})  # for_all: (12, 9)
    sitting.record_deal("domino", 1, {2: 15})  # (12, 24): seat 2 the goat again
    assert sitting.is_over and len(sitting.games) == 2 and sitting.deals == 3
    totals = sitting.totals()
    assert totals.units == ("1", "2")
    assert totals.game_points == (10 + 9, 0)  # (100 - 0) / 10, then (100 - 12) / 10 = 8.8 -> 9
    assert totals.goats == (0, 2)
    assert totals.scores == (12, 49)
    assert totals.games_won == (0, 0)
    with pytest.raises(PartitionError, match="all 2 games of the sitting are played"):
        sitting.record_redeal()


def test_a_sitting_round_trips_and_a_stored_one_is_checked():
    sitting = GoatSitting(regs(games_per_tour=3))
    sitting.draw_lead(2)
    sitting.record_redeal()
    sitting.record_deal("domino", 2, {1: 30})
    again = GoatSitting.from_dict(sitting.to_dict())
    assert again.to_dict() == sitting.to_dict()
    assert len(again.games) == 2 and again.deals == 2
    assert again.totals().game_points == (0, 10)
    stored = sitting.to_dict()
    with pytest.raises(RulesError, match="at most 3 games"):
        GoatSitting.from_dict({**stored, "games": stored["games"] * 2})
    with pytest.raises(RulesError, match="game 1 is not over"):
        GoatSitting.from_dict({**stored, "games": [stored["games"][1], stored["games"][1]]})


def test_sea_goat_counts_games_won():
    sitting = GoatSitting(Regulations(game="sea_goat", games_per_tour=1, target=30, opening=0))
    sitting.draw_lead(1)
    sitting.record_deal("domino", 1, {2: 12, 3: 0, 4: 20})  # pair A credited 32: target reached
    assert sitting.is_over
    totals = sitting.totals()
    assert totals.units == ("A", "B")
    assert totals.games_won == (1, 0) and totals.scores == (32, 0) and totals.game_points == (1, 0)


def test_only_goat_and_sea_goat_have_sittings():
    with pytest.raises(RulesError, match="a sitting is of Goat or Sea Goat"):
        GoatSitting(Regulations())


def test_each_game_uses_its_own_settings():
    sports, goat, sea = Regulations(), Regulations(game="goat"), Regulations(game="sea_goat")
    assert sports.used("direction") and not goat.used("direction") and not sea.used("direction")
    assert goat.used("lose_at") and goat.used("fish") and not goat.used("target")
    assert sea.used("target") and sea.used("reset_others") and not sea.used("lose_at")
    assert all(r.used("standings") and r.used("penalty_points") for r in (sports, goat, sea))
    assert not sports.used("games_per_tour")


# -- played move by move (a live table) ------------------------------------------------------------


def test_a_lapse_is_a_warning_then_a_penalty_and_with_forfeit_ends_the_game():
    sitting = GoatSitting(regs(penalty_points=5))
    deal = sitting.start_deal(seed=3)
    awaited = sitting.awaited()
    assert awaited is not None and (awaited.seat, awaited.move, awaited.allowance) == (deal.to_move, 0,
                                                                                       deal.allowance())
    warning = sitting.record_lapse(deal.to_move)
    assert warning is not None and (warning.consequence, warning.deal, warning.move) == ("warning", 1, 0)
    assert sitting.game.scores == (0, 0)
    penalty = sitting.record_lapse(deal.to_move)
    assert penalty is not None and penalty.consequence == "penalty" and sitting.game.scores[deal.to_move - 1] == 5
    assert sitting.game.penalties[0].violation == penalty.id
    with pytest.raises(RulesError, match="clock runs for nobody"):
        sitting.record_lapse(3 - deal.to_move)
    forfeit = GoatSitting(regs(move_timeout="forfeit"))
    seat = forfeit.start_deal(seed=3).to_move
    assert forfeit.record_lapse(seat) is None
    assert forfeit.games[0].is_over and len(forfeit.games) == 2 and forfeit.current is None


def test_the_tables_time_running_out_ends_the_sitting_after_the_deal():
    sitting = GoatSitting(regs(lose_at=500))
    sitting.start_deal(seed=5)
    sitting.expire_time(during_deal=True)
    while sitting.current is not None:
        deal = sitting.current
        moves = deal.legal_moves()
        if moves:
            sitting.play(moves[0].tile, moves[0].end, deal.to_move)
        elif deal.can_draw():
            sitting.draw(deal.to_move)
        else:
            sitting.pass_turn(deal.to_move)
    assert sitting.is_over and len(sitting.games) == 1 and sitting.deals == 1
    with pytest.raises(RulesError, match="time ran out"):
        sitting.start_deal(seed=6)


# -- the no-show (RULES 5, 9): it decides every game of the sitting ---------------------------------


def test_a_no_show_of_one_of_four_decides_every_game():
    sitting = GoatSitting(regs(players=4, lose_at=101))
    decision = sitting.record_no_show(["3"])
    assert (decision.reason, decision.goats, decision.absent) == ("no_show", ("3",), ("3",))
    assert sitting.is_over and len(sitting.games) == 2 and sitting.deals == 0
    assert [g.scores for g in sitting.games] == [(0, 0, 101, 0)] * 2  # the absent one at lose_at
    assert [g.game_points() for g in sitting.games] == [(10, 10, 0, 10)] * 2  # (100 - 0) / 10
    totals = sitting.totals()
    assert totals.game_points == (20, 20, 0, 20) and totals.goats == (0, 0, 2, 0)
    assert totals.scores == (0, 0, 202, 0) and totals.games_won == (0, 0, 0, 0)
    with pytest.raises(PartitionError, match="all 2 games of the sitting are played"):
        sitting.draw_lead(1)
    again = GoatSitting.from_dict(sitting.to_dict())
    assert again.to_dict() == sitting.to_dict() and again.totals() == totals


def test_two_of_three_absent_and_all_absent():
    sitting = GoatSitting(regs(players=3, games_per_tour=1))
    sitting.record_no_show(["3", "1"])
    totals = sitting.totals()
    assert totals.game_points == (0, 10, 0) and totals.goats == (1, 0, 1) and totals.scores == (20, 0, 20)
    everyone = GoatSitting(regs())
    decision = everyone.record_no_show(["1", "2"])
    assert decision.goats == ("1", "2")
    totals = everyone.totals()
    assert totals.game_points == (0, 0) and totals.goats == (2, 2) and totals.scores == (40, 40)


def test_a_no_show_in_pairs_is_the_absent_pairs():
    sitting = GoatSitting(regs(players=4, teams=True, games_per_tour=1, lose_at=101))
    sitting.record_no_show(["B"])
    totals = sitting.totals()
    assert totals.units == ("A", "B")
    assert totals.game_points == (10, 0) and totals.goats == (0, 1) and totals.scores == (0, 101)


def test_sea_goat_present_units_each_win_with_the_no_show_points():
    pairs = GoatSitting(Regulations(game="sea_goat", games_per_tour=2))
    decision = pairs.record_no_show(["B"])
    assert decision.winner == "A" and pairs.games[1].decision == decision
    totals = pairs.totals()
    assert totals.games_won == (2, 0) and totals.game_points == (2, 0)
    assert totals.scores == (250, 0) and totals.goats == (0, 0)  # the target, 125, a game
    alone = GoatSitting(Regulations(game="sea_goat", players=3, teams=False, games_per_tour=2, no_show_points=60))
    decision = alone.record_no_show(["2"])
    assert decision.winner is None and alone.games[0].winners() == ("1", "3")  # two present: both win
    totals = alone.totals()
    assert totals.games_won == (2, 0, 2) and totals.game_points == (2, 0, 2) and totals.scores == (120, 0, 120)
    nobody = GoatSitting(Regulations(game="sea_goat", games_per_tour=1))
    nobody.record_no_show(["A", "B"])
    assert nobody.totals().games_won == (0, 0) and nobody.totals().scores == (0, 0)


@pytest.mark.parametrize("absent,message", [
    ([], "the absent are a list of 1, 2, each once"),
    (["3"], "the absent are a list of 1, 2, each once, got ['3']"),
    (["1", "1"], "each once"),
    ("1", "got '1'"),
    ([1], "got [1]"),
])
def test_a_no_show_names_units_of_the_table(absent, message):
    sitting = GoatSitting(regs())
    with pytest.raises(PartitionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        sitting.record_no_show(absent)
    assert not sitting.game.is_over and sitting.game.events == []


def test_a_no_show_is_refused_once_the_sitting_has_begun():
    recorded = GoatSitting(regs())
    recorded.draw_lead(1)
    recorded.record_deal("fish", 1, {1: 3, 2: 4})
    playing = GoatSitting(regs())
    playing.start_deal(seed=3)
    second = GoatSitting(regs())
    second.draw_lead(1)
    second.record_deal("domino", 1, {2: 25})  # game 1 over, game 2 not begun
    for sitting in (recorded, playing, second):
        with pytest.raises(PartitionError, match="a no-show is recorded before the first deal"):
            sitting.record_no_show(["2"])
        assert not sitting.is_over
def test_a_penalty_counts_in_the_game_being_played_and_may_end_it():
    sitting = GoatSitting(regs(penalty_points=10))
    sitting.draw_lead(1)
    sitting.record_deal("fish", 1, {1: 3, 2: 12})  # for_all: (3, 12)
    penalty = sitting.write_penalty(2, "signs")  # Goat: charged to the offender, 12 + 10 = 22 >= 20
    assert (penalty.after_deal, penalty.unit, penalty.scores) == (1, "2", (3, 22))
    assert sitting.games[0].is_over and sitting.games[0].decision.goats == ("2",)
    assert len(sitting.games) == 2 and not sitting.is_over  # game 2 begins
    sitting.write_penalty(1, "conduct")  # before game 2's first deal: counts in game 2
    assert sitting.game.scores == (10, 0) and sitting.games[0].scores == (3, 22)
    with pytest.raises(RulesError, match="unknown penalty code"):
        sitting.write_penalty(1, "no_show")
    sea = GoatSitting(Regulations(game="sea_goat", players=3, teams=False, games_per_tour=1, target=30,
                                  penalty_points=30))
    sea.write_penalty(2, "signs")  # Sea Goat: credited to the others, seats 1 and 3 at 30: nobody alone
    assert sea.game.scores == (30, 0, 30) and not sea.is_over
