"""The protocol interchange format (shared/PROTOCOL_FORMAT.md): worked examples and errors.

Each ``protocols/*.json`` holds an ``input`` protocol, the ``expected`` output worked out by
hand from RULES.md (the arithmetic is in its ``_why``), and nothing produced by the engine.
The expected output lists the format's keys; extra keys in the engine's output are allowed.
"""

import copy
import json
from pathlib import Path

import pytest

from engine_handbuilt import (
    DOMINO_HANDS,
    DOMINO_MOVES,
    FISH_HANDS,
    FISH_MOVES,
    PASS,
    protocol_moves,
)
from engine_oracle import RefDeal
from scoring.engine import (Partition, RegulationsError, RulesError, read_protocol, result_of, score_protocol,
                            write_protocol)

CASES = sorted(Path(__file__).with_name("protocols").glob("*.json"))
F = "domino-protocol/1"


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def match(expected, actual, where="output"):
    """Every key of ``expected`` is in ``actual`` with the same value; lists match item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in expected.items():
            assert key in actual, f"{where}: no key {key!r} in {sorted(actual)}"
            match(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), \
            f"{where}: {len(actual) if isinstance(actual, list) else actual!r} items, expected {len(expected)}"
        for k, (e, a) in enumerate(zip(expected, actual)):
            match(e, a, f"{where}[{k}]")
    else:
        assert actual == expected and type(actual) is type(expected), f"{where}: {actual!r} != {expected!r}"


def test_there_are_worked_examples():
    names = {p.stem[0] for p in CASES}
    assert set("abcdefg") <= names


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_worked_example(path):
    case = load(path)
    assert case["_why"], "each example explains its arithmetic"
    out = score_protocol(copy.deepcopy(case["input"]))
    json.dumps(out)  # JSON-ready
    match(case["expected"], out)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_output_has_the_keys_of_the_format(path):
    case = load(path)
    out = score_protocol(case["input"])
    assert {"deals", "penalties", "totals", "winner", "reason"} <= set(out)
    assert set(out["totals"]) == {"A", "B"}
    move_form = ["hands" in d for d in case["input"]["deals"]]
    for deal, is_moves in zip(out["deals"], move_form):
        assert {"n", "leader", "end", "seat", "winner", "points", "totals"} <= set(deal)
        assert deal["winner"] in ("A", "B", None)
        assert deal["end"] in ("domino", "fish", "false_pass")
        if is_moves:
            assert "allowances" in deal
    for penalty in out["penalties"]:
        assert {"after_deal", "seat", "code", "pair", "points", "totals"} <= set(penalty)
    assert out["reason"] in ("target", "time", "deals", "no_show", None)
    assert (out["winner"] is None) or out["reason"] is not None


@pytest.mark.parametrize("path", [p for p in CASES if p.stem.startswith("f_")], ids=lambda p: p.stem)
def test_move_form_examples_agree_with_the_independent_reference(path):
    """The hand-worked allowances and pips of the move-form examples, replayed by the test's own
    reference (engine_oracle.py): a check of the hand arithmetic, not of the engine."""
    case = load(path)
    leader = case["input"]["first_leader"]
    expected = case["expected"]["deals"]
    for n, deal in enumerate(case["input"]["deals"]):
        ref = RefDeal([deal["hands"][s] for s in "1234"], leader)
        allowances = [ref.apply(move) for move in deal["moves"]]
        if n < len(expected):
            assert ref.end == expected[n]["end"]
            assert allowances == expected[n]["allowances"]
            if "pips" in expected[n]:
                assert ref.pair_pips() == (expected[n]["pips"]["A"], expected[n]["pips"]["B"])
        leader = leader % 4 + 1


def test_pair_names_are_read():
    case = load(CASES[0])
    partition, pairs = read_protocol(case["input"])
    assert pairs == {"A": ["Иванов", "Петров"], "B": ["Сидоров", "Кузнецов"]}
    assert isinstance(partition, Partition)


def test_an_unfinished_last_deal_is_not_in_the_deals():
    case = load(Path(__file__).with_name("protocols") / "f_move_form_unfinished_last_deal.json")
    out = score_protocol(case["input"])
    assert len(out["deals"]) == 1
    assert out["winner"] is None and out["reason"] is None
    partition, _ = read_protocol(case["input"])
    assert partition.current is not None and partition.current.to_move == 4
    assert partition.current.ends == (5, 3)


def test_input_is_not_modified():
    for path in CASES:
        case = load(path)
        doc = copy.deepcopy(case["input"])
        score_protocol(doc)
        assert doc == case["input"]


# -- round trips ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_write_protocol_then_read_gives_the_same_result(path):
    case = load(path)
    partition, pairs = read_protocol(case["input"])
    written = write_protocol(partition, pairs)
    assert written["format"] == F
    again, pairs_again = read_protocol(json.loads(json.dumps(written)))
    assert result_of(again) == result_of(partition)
    assert pairs_again == pairs


def test_write_protocol_keeps_a_false_pass_played_move_by_move():
    """A deal played move by move and ended by the referee for a false pass must come back as
    a finished false-pass deal with its penalty (the format's move form cannot end that way,
    so it has to be written some other way, e.g. in summary form)."""
    p = Partition(first_leader=1)
    p.start_deal(hands=FISH_HANDS)
    for move in FISH_MOVES[:4]:
        p.play(*move)
    p.end_false_pass(2)  # pair B passed falsely: A gets 25
    p.record_deal("domino", 2, (10, 10))  # deal 2: B 20
    before = result_of(p)
    assert before["totals"] == {"A": 25, "B": 20}
    written = json.loads(json.dumps(write_protocol(p)))
    again, _ = read_protocol(written)
    assert result_of(again)["totals"] == {"A": 25, "B": 20}
    assert [d["end"] for d in result_of(again)["deals"]] == ["false_pass", "domino"]


def test_write_protocol_keeps_a_penalty_written_during_a_deal():
    """RULES 7: a target reached through penalty points ends the partition after the current
    deal. Written back and read again, the partition must be the same, not decided a deal early."""
    p = Partition(first_leader=1)
    p.record_deal("domino", 1, (80, 80))  # A 160
    p.record_deal("domino", 2, (10, 10))  # B 20
    p.record_deal("domino", 3, (10, 10))  # A 180
    p.record_deal("domino", 4, (10, 10))  # B 40
    p.start_deal(hands=FISH_HANDS)  # deal 5, led by seat 1
    p.write_penalty(4, "signs")  # A 205 during deal 5
    for move in FISH_MOVES:
        p.play(*move)  # A 205 + 126
    before = result_of(p)
    assert before["totals"] == {"A": 331, "B": 40} and before["winner"] == "A"
    again, _ = read_protocol(json.loads(json.dumps(write_protocol(p))))
    assert result_of(again)["totals"] == before["totals"]
    assert len(result_of(again)["deals"]) == 5


# -- errors: refused as a whole, naming the place ---------------------------------------------

def summary(end, seat, a, b):
    d = {"end": end, "pips": {"A": a, "B": b}}
    if seat is not None:
        d["seat"] = seat
    return d


def move_deal(hands, moves, leader):
    return {"hands": {str(s): list(h) for s, h in zip((1, 2, 3, 4), hands)},
            "moves": protocol_moves(moves, leader)}


def doc(**changes):
    base = {"format": F, "first_leader": 1, "deals": [summary("domino", 1, 10, 10)]}
    base.update(changes)
    return base


def refused(document, *parts):
    with pytest.raises(RulesError) as info:
        score_protocol(document)
    message = str(info.value)
    for part in parts:
        assert part in message, message
    return message


def test_error_illegal_move_names_deal_and_move():
    deal = move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)
    deal["moves"][6] = {"seat": 4, "tile": "4-2"}  # move 7: ends 1|6, seat 4 holds 2-4
    message = refused(doc(deals=[summary("domino", 1, 10, 10), deal]), "deal 2, move 7: ")
    assert message.endswith("4-2 does not fit ends 1|6")


def test_error_tile_not_in_hand():
    deal = move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)
    deal["moves"][3] = {"seat": 1, "tile": "6-4", "end": "left"}  # 6-4 is seat 2's
    refused(doc(first_leader=2, deals=[deal]), "deal 1, move 4: ", "6-4 is not in the hand of seat 1")


def test_error_tile_dealt_twice():
    deal = move_deal(FISH_HANDS, FISH_MOVES, 1)
    deal["hands"]["2"] = [t if t != "1-6" else "0-0" for t in deal["hands"]["2"]]
    refused(doc(deals=[deal]), "deal 1", "0-0", "dealt twice")


def test_error_tile_written_twice_in_a_hand():
    deal = move_deal(FISH_HANDS, FISH_MOVES, 1)
    deal["hands"]["3"][6] = "0-3"
    refused(doc(deals=[deal]), "deal 1", "seat 3", "3-0")


def test_error_passing_with_a_playable_tile():
    deal = move_deal(FISH_HANDS, FISH_MOVES, 1)
    deal["moves"][1] = {"seat": 2, "pass": True}
    refused(doc(deals=[deal]), "deal 1, move 2: ", "seat 2 passes holding a playable tile")


def test_error_out_of_turn():
    deal = move_deal(FISH_HANDS, FISH_MOVES, 1)
    deal["moves"][2]["seat"] = 4
    refused(doc(deals=[deal]), "deal 1, move 3: ", "seat 4 moves out of turn")


def test_error_tile_fits_both_ends_without_end():
    deal = move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)
    deal["moves"][18] = {"seat": 4, "tile": "2-4"}  # ends 4|2
    refused(doc(first_leader=2, deals=[deal]), "deal 1, move 19: ", "fits both ends 4|2")


def test_error_moves_after_the_deal_ended():
    deal = move_deal(FISH_HANDS, FISH_MOVES, 1)
    deal["moves"].append({"seat": 3, "tile": "2-3", "end": "left"})
    refused(doc(deals=[deal]), "deal 1, move 11", "over")
    deal = move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)
    deal["moves"].append({"seat": 1, "pass": True})
    refused(doc(first_leader=2, deals=[deal]), "deal 1, move 32", "over")


def test_error_unfinished_deal_that_is_not_the_last():
    deal = move_deal(FISH_HANDS, FISH_MOVES[:5], 1)
    refused(doc(deals=[deal, summary("domino", 2, 10, 10)]), "deal 1")


def test_error_pips_over_168():
    refused(doc(deals=[summary("domino", 1, 10, 10), summary("domino", 2, 100, 80)]), "deal 2", "168")


def test_error_fish_pips_that_cannot_be():
    refused(doc(deals=[summary("fish", 1, 80, 70)]), "deal 1", "147")


def test_error_a_deal_after_the_partition_ended():
    case = load(Path(__file__).with_name("protocols") / "b_time_during_deal.json")
    document = copy.deepcopy(case["input"])
    document["deals"].append(summary("domino", 1, 10, 10))
    refused(document, "deal 4", "decided")
    case = load(Path(__file__).with_name("protocols") / "a_target_fish_drawn_fish_penalty.json")
    document = copy.deepcopy(case["input"])
    document["deals"].append(move_deal(FISH_HANDS, FISH_MOVES, 4))
    refused(document, "deal 8", "decided")


def test_error_unknown_penalty_code():
    refused(doc(penalties=[{"after_deal": 1, "seat": 2, "code": "smoking"}]), "penalty 1", "smoking")
    refused(doc(penalties=[{"after_deal": 0, "seat": 2, "code": "signs"},
                           {"after_deal": 1, "seat": 2, "code": "no_show"}]), "penalty 2", "no_show")


def test_error_penalty_that_cannot_be():
    refused(doc(penalties=[{"after_deal": 2, "seat": 2, "code": "signs"}]), "penalty 1", "after_deal")
    refused(doc(penalties=[{"after_deal": 1, "seat": 7, "code": "signs"}]), "penalty 1", "seat")
    refused(doc(penalties=[{"after_deal": 1, "seat": 2}]), "penalty 1")


def test_error_unknown_regulations_key():
    message = refused(doc(regulations={"target": 200, "fish_ties": "carry"}), "regulations", "fish_ties")
    with pytest.raises(RegulationsError):
        score_protocol(doc(regulations={"fish_ties": "carry"}))
    assert message


def test_error_bad_regulations_value():
    refused(doc(regulations={"target": -5}), "regulations.target")
    refused(doc(regulations={"format": "fixed_deals", "deals": 6}), "regulations.deals")


@pytest.mark.parametrize("fmt", ["domino-protocol/2", "", None, "domino-protocol"])
def test_error_bad_format_string(fmt):
    refused(doc(format=fmt), "format")
    document = doc()
    del document["format"]
    refused(document, "format")


def test_error_other_top_level_problems():
    refused(doc(extra=1), "extra")
    document = doc()
    del document["first_leader"]
    refused(document, "first_leader")
    refused(doc(first_leader=5), "first_leader")
    refused(doc(deals={"1": {}}), "deals")
    refused(doc(pairs={"A": ["x"], "B": ["y", "z"]}), "pairs")
    refused(doc(no_show="A"), "deals")  # a no-show has no deals
    refused(doc(deals=[], no_show="C"), "no_show")
    refused(doc(time_expired={"during_deal": 5}), "time_expired")
    refused(doc(time_expired={"at": 1}), "time_expired")
    refused(doc(deals=[{"end": "domino", "seat": 1, "pips": {"A": 1, "B": 2}, "note": "x"}]), "deal 1", "note")
    refused(doc(deals=[{"end": "domino", "seat": 1, "pips": {"A": 1}}]), "deal 1", "pips")
    refused(doc(deals=[summary("domino", None, 10, 10)]), "deal 1", "seat")
    refused(doc(deals=[{"hands": {"1": []}, "moves": []}]), "deal 1", "hands")


def test_a_penalty_after_an_unfinished_last_deal_is_not_dropped():
    """Deal 2 is still being played; a penalty 'after deal 2' must be refused (naming the
    penalty) or applied, never silently ignored (the format: bad input is refused as a whole)."""
    deal2 = move_deal(DOMINO_HANDS, DOMINO_MOVES[:3], 2)
    document = doc(deals=[summary("domino", 1, 10, 20), deal2],
                   penalties=[{"after_deal": 2, "seat": 2, "code": "signs"}])
    # Written during deal 2, the penalty is after_deal 2 and counts in the totals at once
    # (PROTOCOL_FORMAT); the partition can end only when deal 2 does.
    out = score_protocol(document)
    assert out["penalties"] == [{"after_deal": 2, "seat": 2, "code": "signs", "pair": "B", "points": 25,
                                 "totals": {"A": 55, "B": 0}}]
    assert out["current"]["pending_penalties"] == [{"seat": 2, "code": "signs", "pair": "B", "points": 25}]
    assert out["totals"] == {"A": 55, "B": 0}


def test_time_expired_after_an_unfinished_last_deal_is_not_dropped():
    deal2 = move_deal(DOMINO_HANDS, DOMINO_MOVES[:3], 2)
    document = doc(deals=[summary("domino", 1, 10, 20), deal2], time_expired={"after_deal": 2})
    try:
        partition, _ = read_protocol(document)
    except RulesError as error:
        assert "time_expired" in str(error)
    else:
        assert partition.time_expired is not None


def test_an_error_in_a_later_deal_refuses_the_whole_protocol():
    case = load(Path(__file__).with_name("protocols") / "f_move_form_deals.json")
    document = copy.deepcopy(case["input"])
    document["deals"][1]["moves"][0]["tile"] = "0-0"  # seat 2 does not hold 0-0
    refused(document, "deal 2, move 1: ", "not in the hand of seat 2")


def test_penalties_before_the_first_deal_and_after_the_last():
    document = doc(deals=[summary("domino", 1, 10, 10)],
                   penalties=[{"after_deal": 1, "seat": 1, "code": "moved_tiles"},
                              {"after_deal": 0, "seat": 2, "code": "touched_tile"}])
    out = score_protocol(document)
    # before deal 1: seat 2 (B) penalised, A 25; deal 1: A +20 = 45; after it seat 1 (A): B 25
    assert [(p["after_deal"], p["code"], p["totals"]) for p in out["penalties"]] == [
        (0, "touched_tile", {"A": 25, "B": 0}), (1, "moved_tiles", {"A": 45, "B": 25})]
    assert out["deals"][0]["totals"] == {"A": 45, "B": 0}


def test_a_protocol_must_be_an_object():
    for bad in ([], "protocol", None, 3):
        with pytest.raises(RulesError):
            score_protocol(bad)


def test_move_form_seat_numbers_and_the_pass_flag_are_checked():
    deal = move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)
    deal["moves"][1] = {"seat": 3, "pass": False}
    refused(doc(first_leader=2, deals=[deal]), "deal 1, move 2")
    deal = move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)
    deal["moves"][1] = {"seat": 9, "pass": True}
    refused(doc(first_leader=2, deals=[deal]), "deal 1, move 2")


def test_the_passes_of_the_domino_deal_are_accepted_in_move_form():
    assert PASS in DOMINO_MOVES
    out = score_protocol(doc(first_leader=2, deals=[move_deal(DOMINO_HANDS, DOMINO_MOVES, 2)]))
    assert out["deals"][0]["end"] == "domino" and out["deals"][0]["seat"] == 4


def test_a_target_reached_by_penalties_during_the_last_deal_ends_the_partition_after_it():
    """Fixture m: A is over the target through penalties written during deal 2, which is then its
    last deal (RULES 7)."""
    partition, _ = read_protocol(load(Path(__file__).with_name("protocols") / "m_penalty_during_the_last_deal.json")["input"])
    assert partition.status().next == "last_deal" and partition.decision is None
