"""The game kinds: what each game of the regulations' ``game`` is, said once (RULES 9).

Everything above the engine asks a table's :class:`Kind` (:func:`kind_of`) and never tests which
game it is: what is data differs in the kind's fields, and what is code is chosen from a
:class:`Parts` table keyed by the kind's :class:`Family` (the shape of its tables: a partition of
two pairs, a sitting of tile games with a bazaar, a sitting of games scored by hand). A floor
that does something per game keeps its own :class:`Parts` (a floor never imports a higher one),
and a :class:`Parts` refuses to be built without an entry for every family, so a new family fails
at import until each floor has said what it does with it. ``tests/test_game_kinds.py`` fails
when a test of which game a table plays appears outside the engine.

A new game of an existing family is one :class:`Kind` in :data:`KINDS`; a new family is a
:class:`Family` member, its engine classes, and an entry in each :class:`Parts` (README,
"Layout").
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .goat_sitting import GoatSitting
from .points import PointsSitting
from .regulations import Game, Regulations

__all__ = ["Family", "Kind", "KINDS", "Parts", "kind_of"]


class Family(enum.Enum):
    """The shape of a table's record, which chooses the code that records, stores and shows it."""

    PARTITION = "partition"  # sports (RULES 2-8): two pairs, deals to the target, one partition
    TILES = "tiles"  # Goat, Sea Goat (9.1, 9.2): 2 to 4 seats, a bazaar, a sitting of games
    POINTS = "points"  # any game scored by hand (9.3): a sitting of games, each deal's points entered


@dataclass(frozen=True)
class Kind:
    """One game of the regulations' ``game``.

    - ``family``: the shape of its tables (:class:`Family`);
    - ``sitting``: the engine class of a table's sitting of games (None: a sports partition,
      :class:`~scoring.engine.partition.Partition`);
    - ``ranked_by``: the sitting total its units are ranked and drawn by (``game_points`` or
      ``games_won``; None for a partition, decided by its winner);
    - ``marks_goats``: a game's losers are its goats (Goat), rather than its one winner counted
      (Sea Goat, points);
    - ``by_hand``: each deal's points are entered by hand, no tile is dealt, so its tables are
      never played live (RULES 9.3);
    - ``rating``: the family of ratings it counts in (None: not rated).
    """

    game: Game
    family: Family
    sitting: type[GoatSitting] | type[PointsSitting] | None
    ranked_by: str | None
    marks_goats: bool
    by_hand: bool
    rating: str | None

    @property
    def sittings(self) -> bool:
        """Its tables play sittings of ``games_per_tour`` games, and each player's results are
        summed over them (every game of RULES 9)."""
        return self.sitting is not None

    @property
    def live(self) -> bool:
        """Its tables may be played move by move with the server's clocks."""
        return not self.by_hand


#: Every game of the regulations, by its ``game``.
KINDS: Mapping[Game, Kind] = {
    Game.SPORTS: Kind(Game.SPORTS, Family.PARTITION, None, None, False, False, "sports"),
    Game.GOAT: Kind(Game.GOAT, Family.TILES, GoatSitting, "game_points", True, False, "goat"),
    Game.SEA_GOAT: Kind(Game.SEA_GOAT, Family.TILES, GoatSitting, "games_won", False, False, "sea_goat"),
    Game.POINTS: Kind(Game.POINTS, Family.POINTS, PointsSitting, "games_won", False, True, None),
}


def kind_of(regulations: Regulations | Mapping[str, Any]) -> Kind:
    """The kind of game the ``regulations`` play: a :class:`Regulations`, or their stored dict
    (validated when stored: only its ``game`` is read, which is quicker than reading it whole)."""
    if isinstance(regulations, Regulations):
        return KINDS[regulations.game]
    return KINDS[Game(regulations.get("game", Regulations.game))]


T = TypeVar("T")


class Parts(Generic[T]):
    """What one floor does for each :class:`Family`: built with an entry for every family (None
    where the floor serves none of it, said aloud), read with :meth:`of`.

    >>> names = Parts({Family.PARTITION: "pairs", Family.TILES: "seats", Family.POINTS: None})
    >>> names.of(KINDS[Game.GOAT])
    'seats'
    """

    def __init__(self, parts: Mapping[Family, T | None]) -> None:
        missing = [family.value for family in Family if family not in parts]
        if missing:
            raise TypeError(f"no part for the famil{'y' if len(missing) == 1 else 'ies'} {', '.join(missing)}")
        self._parts = dict(parts)

    def get(self, kind: Kind) -> T | None:
        """The part of ``kind``'s family, or None where this floor serves none."""
        return self._parts[kind.family]

    def of(self, kind: Kind) -> T:
        """The part of ``kind``'s family (a :class:`LookupError` where this floor serves none)."""
        part = self._parts[kind.family]
        if part is None:
            raise LookupError(f"no part for {kind.game.value}")
        return part

    def values(self) -> list[T]:
        """Every part (each once, in the order of :class:`Family`), for what lists them all (an
        API schema)."""
        parts: list[T] = []
        for part in self._parts.values():
            if part is not None and not any(part is seen for seen in parts):
                parts.append(part)
        return parts
