"""The engine's vocabulary: every word is a ``StrEnum`` member equal to, hashed as and written as
the plain string it stands for, so stored states, documents, templates and messages see the text
they always saw. The engine's records carry the members; the documents it writes, and the lists
the Django layer makes form and serializer choices of, hold plain strings."""

import json

import pytest

from engine_handbuilt import DOMINO_HANDS
from scoring import engine
from scoring.engine import (Absent, Consequence, Deal, DealEnd, DealOutcome, DealPoints, Direction, Expiry,
                            FalsePassAward, FishTie, Format, Mark, Next, NextLead, Pair, Partition, PenaltyMode, Reason,
                            Regulations, RepeatScope, Side, ViolationCode, read_protocol, result_of, rules,
                            write_protocol)

WORDS = {
    Pair: ["A", "B"],
    Side: ["left", "right"],
    DealEnd: ["domino", "fish", "false_pass"],
    Mark: ["touched", "exposed"],
    ViolationCode: ["move_time", "conduct", "signs", "touched_tile", "wrong_lead", "out_of_turn", "false_pass",
                    "moved_tiles", "no_show"],
    Consequence: ["warning", "penalty", "lost"],
    Reason: ["target", "time", "deals", "no_show", "forfeit"],
    Next: ["lead_draw", "deal", "last_deal", "extra_deal", "over"],
    Absent: ["A", "B", "both"],
    Expiry: ["during_deal", "after_deal"],
    Format: ["target", "fixed_deals"],
    Direction: ["counter_clockwise", "clockwise"],
    NextLead: ["rotation", "winner"],
    DealPoints: ["all_hands", "opponents_only"],
    FishTie: ["nobody", "carry"],
    RepeatScope: ["player_partition", "pair_partition", "player_tournament"],
    PenaltyMode: ["award_opponents", "deduct_offenders"],
    FalsePassAward: ["none", "opponents_score"],
}


def plain(value):
    """Whether ``value`` holds JSON's own types only (a str subclass is not one)."""
    if isinstance(value, dict):
        return all(type(k) is str and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or type(value) in (str, int, bool)


@pytest.mark.parametrize("vocabulary", WORDS, ids=lambda e: e.__name__)
def test_each_word_is_the_string_it_stands_for(vocabulary):
    assert [member.value for member in vocabulary] == WORDS[vocabulary]
    for member, word in zip(vocabulary, WORDS[vocabulary]):
        assert member == word and hash(member) == hash(word) and {word: 1}[member] == 1
        assert str(member) == f"{member}" == "%s" % member == word
        assert json.dumps({member: [member]}) == json.dumps({word: [word]})
        assert vocabulary(word) is member


def test_the_lists_of_codes_are_plain_strings_in_the_order_of_the_rules():
    assert rules.VIOLATION_CODES == tuple(WORDS[ViolationCode])
    assert rules.PENALTY_CODES == tuple(WORDS[ViolationCode][:-1])
    assert rules.RESTART_CODES == ("wrong_lead", "out_of_turn")
    assert rules.DEAL_ENDS == ("domino", "fish", "false_pass")
    assert engine.RESTART_CODES is rules.RESTART_CODES
    for codes in (rules.VIOLATION_CODES, rules.PENALTY_CODES, rules.RESTART_CODES, rules.DEAL_ENDS,
                  *Regulations.CHOICES.values()):
        assert all(type(code) is str for code in codes)


def test_the_choices_of_the_settings_are_those_of_their_enums():
    assert Regulations.CHOICES == {
        "game": ("sports", "goat", "sea_goat", "points"),
        "format": ("target", "fixed_deals"),
        "direction": ("counter_clockwise", "clockwise"),
        "next_lead": ("rotation", "winner"),
        "deal_points": ("all_hands", "opponents_only"),
        "fish_tie": ("nobody", "carry"),
        "repeat_scope": ("player_partition", "pair_partition", "player_tournament"),
        "penalty_mode": ("award_opponents", "deduct_offenders"),
        "false_pass_award": ("none", "opponents_score"),
        "fish": ("for_all", "for_one"),
        "move_timeout": ("warning", "forfeit"),
        "points_win": ("highest", "lowest"),
    }


def test_regulations_hold_the_members_and_write_plain_strings():
    regulations = Regulations.from_dict({"format": "fixed_deals", "next_lead": "winner", "fish_tie": "carry"})
    assert regulations.format is Format.FIXED_DEALS and regulations.next_lead is NextLead.WINNER
    assert regulations.penalty_mode is PenaltyMode.AWARD_OPPONENTS  # a default
    assert regulations == Regulations(format=Format.FIXED_DEALS, next_lead=NextLead.WINNER, fish_tie=FishTie.CARRY)
    data = regulations.to_dict()
    assert data["format"] == "fixed_deals" and plain(data)
    assert Regulations.from_dict(json.loads(json.dumps(data))) == regulations


def test_the_records_carry_the_members():
    p = Partition(first_leader=1)
    warning = p.record_violation(2, "conduct")
    assert warning.code is ViolationCode.CONDUCT and warning.consequence is Consequence.WARNING
    penalty = p.write_penalty(3, "signs")
    assert penalty.code is ViolationCode.SIGNS and penalty.pair is Pair.A
    deal = p.record_deal("domino", 3, (4, 31))
    assert deal.end is DealEnd.DOMINO and deal.winner is Pair.A
    assert p.status().next is Next.DEAL
    p.expire_time(False)
    assert p.time_expired == (Expiry.AFTER_DEAL, 1) and p.time_expired[0] is Expiry.AFTER_DEAL
    assert p.status().next is Next.LAST_DEAL
    limited = Partition(Regulations(penalties_to_forfeit=1), first_leader=1)
    limited.write_penalty(2, "signs")
    assert limited.forfeit("B") == engine.Decision(Pair.A, Reason.FORFEIT) and limited.decision.winner is Pair.A
    absent = Partition(first_leader=1)
    assert absent.record_no_show("both") == engine.Decision(None, Reason.NO_SHOW)
    assert absent.no_show is Absent.BOTH and absent.decision.reason is Reason.NO_SHOW


def test_the_documents_hold_plain_strings():
    p = Partition(first_leader=1)
    p.record_violation(2, "conduct")
    p.write_penalty(3, "signs")
    p.record_deal("false_pass", 2, (20, 14))
    p.expire_time(True)
    played = p.start_deal(hands=DOMINO_HANDS)
    played.mark(1, played.hand(1)[0], "touched")
    for document in (result_of(p), write_protocol(p, {"A": ["Ёлкина-Д'Артаньян", "Петров"], "B": ["Сидоров", "Ли"]}),
                     p.to_dict(), played.to_dict()):
        assert plain(document), document
    assert result_of(p)["deals"][0]["end"] == "false_pass"
    game, _pairs = read_protocol(write_protocol(p))
    assert game.deals[0].end is DealEnd.FALSE_PASS and game.penalties[-1].code is ViolationCode.FALSE_PASS


def test_a_deal_speaks_in_sides_and_writes_plain_strings():
    deal = Deal(DOMINO_HANDS, leader=1)
    deal.play(deal.legal_moves()[0].tile)
    move = deal.legal_moves()[0]
    deal.play(move.tile, move.end)
    assert move.end in (Side.LEFT, Side.RIGHT) and type(move.end) is Side
    assert deal.history()[1].end is move.end and type(move.to_dict()["end"]) is str
    assert engine.LEFT is Side.LEFT and engine.RIGHT is Side.RIGHT


def test_the_rules_take_the_plain_strings_as_well():
    assert rules.deal_winner(DealOutcome("domino", 3, (4, 31)), Regulations()) is Pair.A
    assert rules.penalty_delta("B", Regulations()) == (25, 0)
    assert rules.violation_consequence("move_time", 1) is Consequence.PENALTY
    assert rules.other_pair("A") is Pair.B and engine.pair_of(2) is Pair.B


def test_every_exported_name_exists():
    for name in engine.__all__:
        assert hasattr(engine, name), name
