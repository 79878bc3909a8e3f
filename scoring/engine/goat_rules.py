"""The scoring rules of Goat and Sea Goat (RULES.md 9.1, 9.2), one function per rule.

Pure functions of their arguments, as :mod:`.rules` is for sports domino;
:class:`~scoring.engine.goat.GoatGame` calls them in order. A **unit** is who is scored: a seat
when each plays for himself, a pair with ``teams`` (:func:`units_of`); lists of per-unit numbers
are in the order of :func:`units_of`.
"""

from __future__ import annotations

from typing import Final, Sequence

from .regulations import FishCharge, Game, Regulations
from .tiles import HIGH, LOW, PIPS, TileIndex, TileMask, pips_of, tile_index
from .vocabulary import GoatEnd, Seat, Unit

__all__ = [
    "LEAD_ORDER", "units_of", "unit_index", "unit_of", "seats_of_unit", "hand_value", "void_hand", "first_lead",
    "unit_values", "goat_charges", "goat_open", "sea_goat_credits", "sea_goat_open", "goat_game_points",
    "timeout_game_points", "round_half_up",
]

_ZERO: Final = tile_index(0, 0)
_SIX: Final = tile_index(6, 6)

#: Who leads the first deal of a game (RULES 9.1): the holder of the first of these tiles that
#: is in a hand, and he leads with it: 1-1, 2-2, ..., 6-6, 0-0, then the highest tile: 5-6, and
#: down by pip total, equal totals by the higher half (4-6, 3-6, 4-5, 2-6, 3-5, ...).
LEAD_ORDER: Final[tuple[TileIndex, ...]] = (
    tuple(tile_index(v, v) for v in (1, 2, 3, 4, 5, 6, 0))
    + tuple(sorted((i for i in range(28) if LOW[i] != HIGH[i]), key=lambda i: (-PIPS[i], -HIGH[i])))
)


def units_of(regulations: Regulations) -> tuple[Unit, ...]:
    """The units of a game: ``("A", "B")`` with ``teams``, else the seats ``"1"`` to ``"players"``."""
    if regulations.teams:
        return ("A", "B")
    return tuple(str(seat) for seat in range(1, regulations.players + 1))


def unit_index(seat: Seat, regulations: Regulations) -> int:
    """Index in :func:`units_of` of the unit of ``seat``: partners sit opposite (1, 3 and 2, 4)."""
    return (seat - 1) % 2 if regulations.teams else seat - 1


def unit_of(seat: Seat, regulations: Regulations) -> Unit:
    return units_of(regulations)[unit_index(seat, regulations)]


def seats_of_unit(unit: int, regulations: Regulations) -> tuple[Seat, ...]:
    """The seats of the unit at index ``unit``."""
    return (unit + 1, unit + 3) if regulations.teams else (unit + 1,)


def hand_value(hand: TileMask, regulations: Regulations) -> int:
    """What a hand left at the end of a deal is worth (RULES 9.1): its pips, except 0-0 alone
    (``zero_alone``), 6-6 alone (``six_alone``), and exactly 0-0 and 6-6 (their sum)."""
    zero, six = 1 << _ZERO, 1 << _SIX
    if hand == zero:
        return regulations.zero_alone
    if hand == six:
        return regulations.six_alone
    if hand == zero | six:
        return regulations.zero_alone + regulations.six_alone
    return pips_of(hand)


def void_hand(hand: TileMask) -> bool:
    """Whether a hand as dealt makes the deal void (RULES 9.1): 5 or more doubles, or 6 or more
    tiles sharing a number."""
    doubles = sum(1 for v in range(7) if hand >> tile_index(v, v) & 1)
    if doubles >= 5:
        return True
    return any(sum(1 for w in range(7) if hand >> tile_index(v, w) & 1) >= 6 for v in range(7))


def first_lead(hands: Sequence[TileMask]) -> tuple[Seat, TileIndex]:
    """The seat that leads the first deal of a game and the tile he must lead (:data:`LEAD_ORDER`)."""
    for index in LEAD_ORDER:
        for seat, hand in enumerate(hands, 1):
            if hand >> index & 1:
                return seat, index
    raise ValueError("no hand holds a tile")  # a deal always deals 7 tiles to each hand


def unit_values(values: Sequence[int], regulations: Regulations) -> list[int]:
    """The hand values of the seats added up by unit (a pair: both hands)."""
    totals = [0] * len(units_of(regulations))
    for seat, value in enumerate(values, 1):
        totals[unit_index(seat, regulations)] += value
    return totals


def _join_carry(charges: list[int], carry: int) -> int:
    """Add a waiting sum to the charge of the one most-charged unit; returns what still waits
    (all of it while the highest charge is tied)."""
    top = max(charges)
    if carry and charges.count(top) == 1:
        charges[charges.index(top)] += carry
        return 0
    return carry


def goat_charges(end: GoatEnd, seat: Seat, values: Sequence[int], carry: int,
                 regulations: Regulations) -> tuple[list[int], int, int | None]:
    """What a deal of Goat charges each unit (RULES 9.1), before the opening.

    After domino every other unit is charged its hand value, the domino maker's nothing; after
    fish (``fish = for_all``) every unit its own, the fisherman's too; with ``for_one`` the unit
    with the highest value is charged the sum of all hands, and a tie for the highest charges
    nobody: the sum waits. A waiting sum (``carry``) joins the charge of the deal's most-charged
    unit, however the deal ends, and waits on while the highest charge is tied.

    Returns the charges, the sum that waits after the deal, and the unit a ``for_one`` fish
    charged alone (it clears the others' memorised points), if any.
    """
    by_unit = unit_values(values, regulations)
    if end == GoatEnd.DOMINO:
        charges = list(by_unit)
        charges[unit_index(seat, regulations)] = 0
        return charges, _join_carry(charges, carry), None
    if regulations.fish == FishCharge.FOR_ALL:
        charges = list(by_unit)
        return charges, _join_carry(charges, carry), None
    top = max(by_unit)
    if by_unit.count(top) > 1:
        return [0] * len(by_unit), carry + sum(by_unit), None
    alone = by_unit.index(top)
    charges = [0] * len(by_unit)
    charges[alone] = sum(by_unit) + carry
    return charges, 0, alone


def goat_open(charge: int, score: int, memo: int, is_open: bool, opening: int) -> tuple[int, int, bool]:
    """A charge to one unit under the opening (RULES 9.1): ``(score, memo, open)`` after it.

    A closed score opens with a charge of ``opening`` or more at once, the memorised points
    added; a smaller charge is memorised; once open every charge counts at once. ``opening`` 0:
    every score is open."""
    if is_open or opening == 0:
        return score + charge, memo, True
    if charge >= opening:
        return score + charge + memo, 0, True
    return score, memo + charge, False


def sea_goat_credits(end: GoatEnd, seat: Seat, values: Sequence[int], carry: int,
                     regulations: Regulations) -> tuple[list[int], int, int | None]:
    """What a deal of Sea Goat credits each unit (RULES 9.2), before the opening.

    The winner is the domino maker's unit, or after fish the unit with the lowest hand value; he
    is credited the other units' hand values and the eggs waiting (``carry``). A tie for the
    lowest at fish is eggs: nobody is credited and the sum of all hands waits for the next
    deal's winner. Returns the credits, the sum that waits, and the winning unit (``None`` for
    eggs).
    """
    by_unit = unit_values(values, regulations)
    if end == GoatEnd.DOMINO:
        winner = unit_index(seat, regulations)
    else:
        low = min(by_unit)
        if by_unit.count(low) > 1:
            return [0] * len(by_unit), carry + sum(by_unit), None
        winner = by_unit.index(low)
    credits = [0] * len(by_unit)
    credits[winner] = sum(by_unit) - by_unit[winner] + carry
    return credits, 0, winner


def sea_goat_open(credit: int, winner: int, scores: list[int], opened: list[bool],
                  regulations: Regulations) -> None:
    """Credit ``winner`` under Sea Goat's opening (RULES 9.2), changing ``scores`` and ``opened``.

    A closed side's credit counts only if it is ``opening`` or more at once (a smaller one is
    lost); when a side opens, with ``reset_others`` every other side goes back to 0, closed."""
    if opened[winner] or regulations.opening == 0:
        scores[winner] += credit
        opened[winner] = True
        return
    if credit < regulations.opening:
        return
    scores[winner] += credit
    opened[winner] = True
    if regulations.reset_others:
        for other in range(len(scores)):
            if other != winner:
                scores[other] = 0
                opened[other] = False


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half up (toward plus infinity), in whole numbers."""
    return (2 * numerator + denominator) // (2 * denominator)


def goat_game_points(scores: Sequence[int], goats: Sequence[int]) -> list[int]:
    """The online rating of a finished Goat game (RULES 9.1): ``(100 - score) / 10`` rounded half
    up, never below 0; a goat (index in ``goats``) gets 0."""
    return [0 if k in goats else max(0, round_half_up(100 - s, 10)) for k, s in enumerate(scores)]


def timeout_game_points(scores: Sequence[int], out: int, game: Game) -> list[int]:
    """Game points when unit ``out`` ran out of time with ``move_timeout = forfeit`` (RULES 9.1):
    it gets 0, every other unit ``max(1, (its score - own) / 10)`` rounded half up in Goat; in
    Sea Goat (**Decision**) 1 to the other unit with the highest score, if only one has it."""
    if game == Game.SEA_GOAT:
        others = [s for k, s in enumerate(scores) if k != out]
        best = max(others)
        return [1 if k != out and s == best and others.count(best) == 1 else 0 for k, s in enumerate(scores)]
    return [0 if k == out else max(1, round_half_up(scores[out] - s, 10)) for k, s in enumerate(scores)]
