"""The words of the game, each with one named type (RULES.md sections 2 to 7).

As python-chess does (``Square = int``, ``Termination`` an enum, ``Outcome`` a dataclass), the
numbers the engine computes with stay ``int`` under a name (:data:`Seat` here; the tile index, the
tile mask and the number on a half in :mod:`.tiles`), and the words are :class:`enum.StrEnum`
members, which *are* those words: ``DealEnd.FISH == "fish"``, ``str(DealEnd.FISH) == "fish"``,
``json.dumps`` writes ``"fish"`` and they hash as the plain string. So stored states, the protocol
format, templates and messages see exactly the text they saw before these types existed, and an
engine input may still be the plain string (the engine turns it into the member once it is
checked). The settings' choices are in :mod:`.regulations`.
"""

from __future__ import annotations

import enum
from typing import TypeAlias

__all__ = [
    "Seat", "Pair", "Side", "DealEnd", "Mark", "ViolationCode", "Consequence", "Reason",
    "Next", "Absent", "Expiry", "Unit", "GoatEnd", "GameReason",
]

Seat: TypeAlias = int
"""A seat at the table, 1 to 4 in the direction of play: seats 1 and 3 are pair A, 2 and 4 pair B."""


class Pair(enum.StrEnum):
    """The two pairs at a table."""

    A = "A"  # seats 1 and 3
    B = "B"  # seats 2 and 4


class Side(enum.StrEnum):
    """An open end of the line of play (RULES 4)."""

    LEFT = "left"
    RIGHT = "right"


class DealEnd(enum.StrEnum):
    """How a deal ends (RULES 4, 7)."""

    DOMINO = "domino"  # a player placed his last tile
    FISH = "fish"  # both ends show a number whose 7 tiles are all on the table
    FALSE_PASS = "false_pass"  # the referee ends it: someone passed holding a playable tile


class Mark(enum.StrEnum):
    """A tile a player must play at his first chance (RULES 7)."""

    TOUCHED = "touched"
    EXPOSED = "exposed"  # led out of turn, shown to the table


class ViolationCode(enum.StrEnum):
    """The violations of RULES 7, in the order of the rules."""

    MOVE_TIME = "move_time"
    CONDUCT = "conduct"
    SIGNS = "signs"
    TOUCHED_TILE = "touched_tile"
    WRONG_LEAD = "wrong_lead"
    OUT_OF_TURN = "out_of_turn"
    FALSE_PASS = "false_pass"
    MOVED_TILES = "moved_tiles"
    NO_SHOW = "no_show"


class Consequence(enum.StrEnum):
    """What a violation brings (RULES 6, 7)."""

    WARNING = "warning"
    PENALTY = "penalty"
    LOST = "lost"  # a no-show loses the partition


class Reason(enum.StrEnum):
    """Why a partition ends (RULES 5, 7)."""

    TARGET = "target"
    TIME = "time"
    DEALS = "deals"
    NO_SHOW = "no_show"
    FORFEIT = "forfeit"


class Next(enum.StrEnum):
    """What comes next at the table."""

    LEAD_DRAW = "lead_draw"
    DEAL = "deal"
    LAST_DEAL = "last_deal"  # the clock or the fixed number of deals makes it the last
    EXTRA_DEAL = "extra_deal"  # it would be over, but the totals are level
    OVER = "over"


class Absent(enum.StrEnum):
    """Who had not appeared by the no-show deadline (RULES 5)."""

    A = "A"
    B = "B"
    BOTH = "both"


class Expiry(enum.StrEnum):
    """When the partition's clock ran out (RULES 5)."""

    DURING_DEAL = "during_deal"  # that deal is the last
    AFTER_DEAL = "after_deal"  # between deals: one more is played


# -- Goat, Sea Goat and points games (RULES 9) ---------------------------------------------------

Unit: TypeAlias = str
"""Who is scored in Goat, Sea Goat and points games: a seat ``"1"`` to ``"4"`` when each plays for
himself, or a pair ``"A"`` (seats 1, 3) or ``"B"`` (seats 2, 4) with ``teams``."""


class GoatEnd(enum.StrEnum):
    """How a deal of Goat or Sea Goat ends (RULES 9.1)."""

    DOMINO = "domino"
    FISH = "fish"
    REDEAL = "redeal"  # void: a hand of 5 doubles or 6 tiles of one number; dealt again


class GameReason(enum.StrEnum):
    """Why a game of Goat, Sea Goat or points ends (RULES 9)."""

    LOSE_AT = "lose_at"  # Goat: a unit at lose_at is the goat
    TARGET = "target"  # Sea Goat, points: a unit reached the target
    ZERO_ZERO = "zero_zero"  # Sea Goat: domino with 0-0
    TIMEOUT = "timeout"  # move_timeout forfeit: a player ran out of time
    TIME = "time"  # the game's time limit (RULES 5): counted as it stands
    NO_SHOW = "no_show"  # a player or pair had not appeared by the no-show deadline (RULES 5, 9)
