"""The scoring rules of RULES.md sections 4 to 7, one function per rule.

Everything here is a pure function of its arguments; :class:`~scoring.engine.partition.Partition`
calls them in order. Pairs are ``"A"`` (seats 1, 3) and ``"B"`` (seats 2, 4), :class:`~.vocabulary.Pair`;
a function takes the plain string as well as the member (a ``StrEnum`` member is equal to it).
"""

from __future__ import annotations

from typing import Final

from .deal import DealOutcome, pair_of
from .errors import PartitionError, gettext_noop
from .regulations import DealPoints, FalsePassAward, NextLead, PenaltyMode, Regulations, RepeatScope
from .vocabulary import Consequence, DealEnd, Pair, Seat, ViolationCode

__all__ = [
    "DEAL_ENDS", "VIOLATION_CODES", "ESCALATING_CODES", "PENALTY_CODES", "RESTART_CODES", "other_pair", "deal_base_points",
    "deal_winner", "check_pips", "next_leader", "move_lapses", "repeat_key", "violation_consequence", "penalty_delta",
]

# The lists of codes are the enums' plain values: the Django layer makes form and serializer
# choices of them, and the API schema's YAML writer takes an exact ``str`` only.

#: How a deal ends (RULES 4, 7).
DEAL_ENDS: Final = tuple(e.value for e in DealEnd)
#: Codes of RULES 7.
VIOLATION_CODES: Final = tuple(c.value for c in ViolationCode)
#: Violations that bring a warning first and a pair penalty when repeated.
ESCALATING_CODES: Final = frozenset({ViolationCode.MOVE_TIME, ViolationCode.CONDUCT})
#: Codes a penalty can be written for (a no-show loses the partition instead).
PENALTY_CODES: Final = tuple(c for c in VIOLATION_CODES if c != ViolationCode.NO_SHOW)
#: Violations for which the opponents may have the deal dealt again (RULES 7).
RESTART_CODES: Final = (ViolationCode.WRONG_LEAD.value, ViolationCode.OUT_OF_TURN.value)

#: Most pips the hands can hold at fish: the 7 tiles of the fish number lie on the table, and
#: those of 0 (the fewest pips, 21) leave 147.
MAX_FISH_PIPS: Final = 168 - 21


def other_pair(pair: Pair) -> Pair:
    return Pair.B if pair == Pair.A else Pair.A


def deal_base_points(pips: tuple[int, int], loser: Pair, regulations: Regulations) -> int:
    """What the winners of a deal score (RULES 4.2): all pips in all hands, or only the losers'."""
    if regulations.deal_points == DealPoints.ALL_HANDS:
        return pips[0] + pips[1]
    return pips[0] if loser == Pair.A else pips[1]


def deal_winner(outcome: DealOutcome, regulations: Regulations) -> Pair | None:
    """The pair that wins a deal (RULES 4.2, 4.3, 7): domino's pair; at fish the smaller pip
    total, nobody when level; after a false pass nobody, or the opponents with
    ``false_pass_award = opponents_score``."""
    # Domino and a false pass always name their seat: the partition refuses them without one.
    if outcome.end == DealEnd.DOMINO:
        assert outcome.seat is not None
        return pair_of(outcome.seat)
    if outcome.end == DealEnd.FISH:
        a, b = outcome.pips
        return None if a == b else (Pair.A if a < b else Pair.B)
    if regulations.false_pass_award == FalsePassAward.OPPONENTS_SCORE:
        assert outcome.seat is not None
        return other_pair(pair_of(outcome.seat))
    return None


def check_pips(end: DealEnd, pips: tuple[int, int]) -> None:
    """Refuse pips a deal cannot end with (summary form)."""
    for pair, value in zip(Pair, pips):
        if type(value) is not int or value < 0:
            raise PartitionError(gettext_noop("pips of pair %(pair)s must be a whole number 0 or more, got %(value)s"),
                                 pair=pair, value=repr(value))
    total = pips[0] + pips[1]
    if total > 168:
        raise PartitionError(gettext_noop("pips %(a)s + %(b)s = %(total)s: the whole set has only 168"),
                             a=pips[0], b=pips[1], total=total)
    if end == DealEnd.FISH and total > MAX_FISH_PIPS:
        raise PartitionError(gettext_noop("pips %(a)s + %(b)s = %(total)s: at fish the 7 tiles of one number are on the"
                                " table, so the hands hold at most %(most)s"),
                             a=pips[0], b=pips[1], total=total, most=MAX_FISH_PIPS)
    if end == DealEnd.DOMINO and total == 0:
        raise PartitionError(gettext_noop("pips 0 + 0: after domino three players still hold tiles, and only 0-0 has no"
                                " pips"))


def next_leader(previous_leader: Seat, outcome: DealOutcome, regulations: Regulations) -> Seat | None:
    """Who leads the deal after one that ended with ``outcome`` (RULES 3); ``None`` when the
    winner leads and the seat that placed the fishing tile was not given."""
    if regulations.next_lead == NextLead.WINNER and outcome.end != DealEnd.FALSE_PASS:
        return outcome.seat
    return previous_leader % 4 + 1


def move_lapses(seconds: float, allowance: int) -> int:
    """How many times a move charged ``seconds`` (to 0.1 s) overran its ``allowance`` (RULES 6):
    a lapse falls each time the charged time reaches a multiple of the allowance, that instant
    included, so ``floor(seconds / allowance)``. Counted in tenths, free of binary fractions."""
    return round(seconds * 10) // (allowance * 10)


def new_lapses(charged: float | None, allowance: int, recorded: int) -> range:
    """The lapses (numbered from 1) of a move charged ``charged`` seconds (None: not timed) that
    are still to be recorded once it is made, beyond the ``recorded`` ones a live clock already
    recorded for it (RULES 6). Fewer seconds than the recorded lapses take are refused: the clock
    cannot have run out more often than it was charged."""
    lapses = 0 if charged is None else move_lapses(charged, allowance)
    if lapses < recorded:
        raise PartitionError(gettext_noop("the clock of this move already ran out %(count)s times: at least %(least)s s"
                                          " were charged to it, got %(seconds)s"),
                             count=recorded, least=recorded * allowance, seconds=repr(charged))
    return range(recorded + 1, lapses + 1)


def repeat_key(seat: Seat, unit: str, scope: RepeatScope) -> str:
    """Whose count a violation by ``seat`` repeats (RULES 6): the player's (his seat), or with
    ``repeat_scope = pair_partition`` his ``unit``'s (his pair; in Goat without teams, his seat)."""
    return unit if scope == RepeatScope.PAIR_PARTITION else str(seat)


def violation_consequence(code: ViolationCode, earlier: int) -> Consequence:
    """``"warning"`` or ``"penalty"`` for a violation with ``earlier`` counted violations of the
    same code in its scope (RULES 6, 7); a no-show is ``"lost"``."""
    if code not in VIOLATION_CODES:
        raise PartitionError(gettext_noop("unknown violation code %(code)s; known: %(known)s"), code=repr(code),
                             known=", ".join(VIOLATION_CODES))
    if code == ViolationCode.NO_SHOW:
        return Consequence.LOST
    if code in ESCALATING_CODES and earlier == 0:
        return Consequence.WARNING
    return Consequence.PENALTY


def penalty_delta(pair: Pair, regulations: Regulations) -> tuple[int, int]:
    """Change of the totals (A, B) for a penalty on ``pair`` (RULES 7)."""
    points = regulations.penalty_points
    if regulations.penalty_mode == PenaltyMode.AWARD_OPPONENTS:
        return (0, points) if pair == Pair.A else (points, 0)
    return (-points, 0) if pair == Pair.A else (0, -points)
