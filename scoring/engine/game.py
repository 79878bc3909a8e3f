"""What a table plays in one tour, whatever the game: :class:`TableGame`.

A sports table plays one :class:`~scoring.engine.partition.Partition`; a table of Goat, Sea Goat
or points plays a sitting (:class:`~scoring.engine.goat_sitting.GoatSitting`,
:class:`~scoring.engine.points.PointsSitting`), its ``games_per_tour`` games. (The protocol name
``Game`` is the regulations' choice of game, :class:`~scoring.engine.regulations.Game`.)
"""

from __future__ import annotations

from typing import Any, Protocol

from .outcome import Outcome
from .partition import Partition
from .kinds import kind_of
from .regulations import Regulations

__all__ = ["TableGame", "new_table_game"]


class TableGame(Protocol):
    """A table's play in one tour: stored by :meth:`to_dict` (its events), over when
    :attr:`is_over`, then summed up by :meth:`outcome`, the one result every game gives."""

    @property
    def regulations(self) -> Regulations: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def event_count(self) -> int:
        """Events recorded so far."""

    def outcome(self) -> Outcome | None:
        """The result once it is over; ``None`` while it goes on."""

    def expire_time(self, during_deal: bool) -> None:
        """The table's time ran out (RULES 5, 9), during a deal or between deals."""

    def to_dict(self) -> dict[str, Any]: ...


def new_table_game(regulations: Regulations) -> TableGame:
    """What a table plays under ``regulations`` at that table (:meth:`Regulations.at_table`),
    nothing recorded yet: a partition in sports, a sitting otherwise."""
    sitting = kind_of(regulations).sitting
    return Partition(regulations) if sitting is None else sitting(regulations)
