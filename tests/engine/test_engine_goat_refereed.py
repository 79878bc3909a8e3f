"""A sitting played at a referee's table (RULES 9.1): hands entered rather than dealt from a seed,
the tiles drawn named (the physical bazaar has no known order), and the move clock of the
referee's clock, where no deal is played in the engine. Computed by hand."""

from __future__ import annotations

import pytest

from scoring.engine import GoatSitting, Regulations, RulesError

HANDS = [["1-1", "2-1", "3-2", "4-3", "5-4", "6-5", "6-0"], ["1-0", "0-0", "4-0", "5-5", "6-6", "3-1", "2-0"]]


def regs(**settings):
    return Regulations(**{"game": "goat", "players": 2, "lose_at": 60, **settings})


def test_entered_hands_lead_by_their_tiles_and_a_named_tile_is_drawn():
    sitting = GoatSitting(regs())
    deal = sitting.start_deal(hands=HANDS)
    assert deal.leader == 1 and len(deal.bazaar) == 14 and not deal.ordered
    for tile, end in (("1-1", None), ("1-0", "left"), ("2-1", "right"), ("0-0", None), ("3-2", None),
                      ("4-0", "left"), ("4-3", "right")):
        sitting.play(tile, end, deal.to_move)
    with pytest.raises(RulesError, match="name the tile drawn"):
        sitting.draw(2)
    with pytest.raises(RulesError, match="6-0 is not in the bazaar"):
        sitting.draw(2, "6-0")
    assert str(sitting.draw(2, "3-0")) == "3-0" and str(sitting.draw(2, "4-2")) == "4-2"
    sitting.play("4-2", "left", 2)
    assert deal.moves[-1] == {"seat": 2, "draw": ["3-0", "4-2"], "tile": "4-2", "end": "left"}
    assert len(deal.bazaar) == 12
    replayed = GoatSitting.from_dict(sitting.to_dict())  # the protocol's move form replays it
    assert replayed.current is not None and replayed.current.hands == deal.hands


def test_a_void_hand_entered_is_a_redeal_at_once():
    sitting = GoatSitting(regs())
    deal = sitting.start_deal(hands=[HANDS[0], ["0-0", "2-2", "3-3", "5-5", "6-6", "1-0", "2-0"]])
    assert deal.is_void and sitting.current is None and sitting.game.deals[0].end == "redeal"
    assert sitting.game.needs_lead  # the next deal is led by its own hands again


def test_a_lapse_at_the_referees_clock_needs_no_deal_in_the_engine():
    sitting = GoatSitting(regs(penalty_points=7))
    sitting.draw_lead(2)
    warning = sitting.record_lapse(2)
    assert warning is not None and warning.consequence == "warning" and sitting.game.scores == (0, 0)
    penalty = sitting.record_lapse(2)
    assert penalty is not None and penalty.consequence == "penalty" and sitting.game.scores == (0, 7)
    with pytest.raises(RulesError, match="seat must be 1 to 2"):
        sitting.record_lapse(3)
