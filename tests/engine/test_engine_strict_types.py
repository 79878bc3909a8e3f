"""Every seat, count and pips value the engine takes is a whole number (``type(x) is int``): not
``True`` (which Python takes for 1), ``2.0`` or ``"2"``; a flag is ``True`` or ``False``. A
protocol import reaches the engine directly, so the engine refuses them itself, naming the place."""

import pytest

from engine_handbuilt import DOMINO_HANDS, DOMINO_MOVES, protocol_moves
from scoring.engine import Deal, Partition, RulesError, read_protocol

LOOSE_SEATS = [True, False, 1.0, 2.0, "2", None, [1]]


def game() -> Partition:
    return Partition(first_leader=1)


@pytest.mark.parametrize("seat", LOOSE_SEATS)
def test_the_partition_takes_only_whole_number_seats(seat):
    with pytest.raises(RulesError, match="seat 1 to 4"):
        Partition().draw_lead(seat)
    for record in (lambda g: g.write_penalty(seat, "signs"), lambda g: g.record_violation(seat, "conduct"),
                   lambda g: g.restart_deal(seat, "wrong_lead")):
        g = game()
        with pytest.raises(RulesError, match="seat must be 1 to 4"):
            record(g)
        assert g.totals == (0, 0) and len(g.events) == 1
    if seat is not None:  # no seat is allowed at fish
        with pytest.raises(RulesError, match="seat must be 1 to 4"):
            game().record_deal("fish", seat, (10, 12))


@pytest.mark.parametrize("pips", [(True, 12), (10, 12.0), (10, "12"), (10, None)])
def test_pips_are_whole_numbers(pips):
    with pytest.raises(RulesError, match="must be a whole number 0 or more"):
        game().record_deal("domino", 1, pips)


@pytest.mark.parametrize("flag", ["false", "true", 0, 1, None])
def test_the_clock_takes_true_or_false_only(flag):
    g = game()
    with pytest.raises(RulesError, match="during_deal must be true or false"):
        g.expire_time(flag)
    assert g.time_expired is None
    g.expire_time(False)
    assert g.time_expired == ("after_deal", 0)


def test_an_annulment_names_its_violation_by_a_whole_number():
    g = game()
    g.record_violation(2, "conduct")  # event 1
    with pytest.raises(RulesError, match="no violation True to annul"):
        g.annul_violation(True, "часы шли неверно")
    g.annul_violation(1, "часы шли неверно")
    assert g.violations[0].annulled == "часы шли неверно"


def test_earlier_violations_are_counted_by_seat_and_code_in_whole_numbers():
    with pytest.raises(RulesError, match="earlier violations"):
        Partition(earlier_violations={(1, "conduct"): True})
    with pytest.raises(RulesError, match="earlier violations"):
        Partition(earlier_violations={(True, "conduct"): 1})
    assert Partition(earlier_violations={(1, "conduct"): 1}).earlier_violations == {(1, "conduct"): 1}


@pytest.mark.parametrize("seat", LOOSE_SEATS)
def test_a_deal_takes_only_whole_number_seats(seat):
    with pytest.raises(RulesError, match="seat 1 to 4"):
        Deal(DOMINO_HANDS, leader=seat)
    deal = Deal(DOMINO_HANDS, leader=1)
    with pytest.raises(RulesError, match="seat"):
        deal.apply({"seat": seat, "pass": True})
    with pytest.raises(RulesError, match="seat"):
        deal.end_false_pass(seat)
    with pytest.raises(RulesError, match="seat"):
        deal.mark(seat, deal.hand(1)[0], "touched")
    if seat is not None:  # None: whoever is to move
        with pytest.raises(RulesError, match="seat must be 1 to 4"):
            deal.play(deal.hand(1)[0], seat=seat)
    assert deal.moves == [] and deal.outcome is None


def protocol(**changes) -> dict:
    doc = {"format": "domino-protocol/1", "first_leader": 1,
           "deals": [{"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30}}]}
    return {**doc, **changes}


@pytest.mark.parametrize(("doc", "where"), [
    (protocol(first_leader=True), "first_leader: the leader must be a seat 1 to 4, got True"),
    (protocol(first_leader=1.0), "first_leader: the leader must be a seat 1 to 4, got 1.0"),
    (protocol(deals=[{"end": "domino", "seat": True, "pips": {"A": 10, "B": 30}}]),
     "deal 1: seat must be 1 to 4, got True"),
    (protocol(deals=[{"end": "domino", "seat": 1, "pips": {"A": 10.0, "B": 30}}]),
     "deal 1: pips of pair A must be a whole number 0 or more, got 10.0"),
    (protocol(deals=[{"end": "domino", "seat": 1, "pips": {"A": 10, "B": False}}]),
     "deal 1: pips of pair B must be a whole number 0 or more, got False"),
    (protocol(penalties=[{"after_deal": 1, "seat": True, "code": "signs"}]),
     "penalty 1: seat must be 1 to 4, got True"),
    (protocol(penalties=[{"after_deal": True, "seat": 2, "code": "signs"}]), "penalty 1: after_deal must be"),
    (protocol(time_expired={"after_deal": True}), "time_expired: after_deal must be"),
])
def test_a_protocol_with_a_loose_type_is_refused_naming_the_place(doc, where):
    with pytest.raises(RulesError) as error:
        read_protocol(doc)
    assert str(error.value).startswith(where)


def test_a_move_with_true_as_its_seat_is_refused_naming_the_move():
    moves = protocol_moves(DOMINO_MOVES, 2)  # seat 2 holds 6-6 and leads
    hands = {str(seat): hand for seat, hand in enumerate(DOMINO_HANDS, 1)}
    doc = protocol(first_leader=2, deals=[{"hands": hands, "moves": moves}])
    read_protocol(doc)  # as written: fine
    assert moves[2] == {"seat": 4, "pass": True}
    moves[2]["seat"] = True
    with pytest.raises(RulesError) as error:
        read_protocol(doc)
    assert str(error.value) == "deal 1, move 3: seat must be 1 to 4, got True"
