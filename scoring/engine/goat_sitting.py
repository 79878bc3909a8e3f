"""A sitting of Goat or Sea Goat: the ``games_per_tour`` games one table plays in one tour
(shared/RULES.md 9.1 "Tournament"), one after another, and what the standings take from them.

The next game starts when one ends; the first deal of each game is led as RULES 9.1 says (by the
hands: in summary form its leader is recorded with :meth:`GoatSitting.draw_lead`), later deals by
the domino maker or fisherman. Every game is a :class:`~scoring.engine.goat.GoatGame`; nothing of
its rules is repeated here.

>>> sitting = GoatSitting(Regulations(game="goat", players=2, games_per_tour=2, lose_at=20))
>>> sitting.draw_lead(1)
>>> _ = sitting.record_deal("domino", 1, {2: 25})
>>> len(sitting.games), sitting.is_over
(2, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .errors import PartitionError, RulesError, gettext_noop
from .goat import GoatDealRecord, GoatGame
from .regulations import Regulations
from .tiles import Tile, TileIndex, TileMask
from .vocabulary import GoatEnd, Seat, Unit

__all__ = ["GoatSitting", "SittingTotals"]


@dataclass(frozen=True)
class SittingTotals:
    """Per unit (in the order of ``units``), summed over the finished games of a sitting: game
    points, games in which it was a goat, score, games won (Sea Goat)."""

    units: tuple[Unit, ...]
    game_points: tuple[int, ...]
    goats: tuple[int, ...]
    scores: tuple[int, ...]
    games_won: tuple[int, ...]


class GoatSitting:
    """The games of Goat or Sea Goat at one table in one tour, under ``regulations`` at that table
    (:meth:`Regulations.at_table`: ``players`` is the table's size)."""

    def __init__(self, regulations: Regulations) -> None:
        if not regulations.is_goat:
            raise RulesError(gettext_noop("the regulations' game is %(game)s: a sitting is of Goat or Sea Goat"),
                             game=regulations.game)
        self.regulations = regulations
        self.games: list[GoatGame] = [GoatGame(regulations)]

    # -- reading the state ---------------------------------------------------------------------

    @property
    def game(self) -> GoatGame:
        """The game being played (once the sitting is over, its last game)."""
        return self.games[-1]

    @property
    def is_over(self) -> bool:
        return len(self.games) == self.regulations.games_per_tour and self.game.is_over

    @property
    def deals(self) -> int:
        """Deals recorded in all the games, void ones included."""
        return sum(len(g.deals) for g in self.games)

    def totals(self) -> SittingTotals:
        """What the standings take from the finished games (RULES 9.1, 9.2)."""
        units = self.game.units
        n = len(units)
        points, goats, scores, won = [0] * n, [0] * n, [0] * n, [0] * n
        for game in self.games:
            if not game.is_over:
                continue
            result = game.result()
            for k, unit in enumerate(units):
                points[k] += result.game_points[k]
                goats[k] += unit in result.goats
                scores[k] += result.scores[k]
                won[k] += unit == result.winner
        return SittingTotals(units, tuple(points), tuple(goats), tuple(scores), tuple(won))

    # -- recording (summary form) --------------------------------------------------------------

    def _open_game(self) -> GoatGame:
        if self.is_over:
            raise PartitionError(gettext_noop("all %(games)s games of the sitting are played: nothing more can be "
                                              "recorded"), games=self.regulations.games_per_tour)
        return self.game

    def _after(self, record: GoatDealRecord) -> GoatDealRecord:
        """Start the next game when this deal ended one and the sitting has more to play."""
        if self.game.is_over and len(self.games) < self.regulations.games_per_tour:
            self.games.append(GoatGame(self.regulations))
        return record

    def draw_lead(self, seat: Seat) -> None:
        """The seat that leads the first deal of the game being played (RULES 9.1: by the hands)."""
        self._open_game().draw_lead(seat)

    def record_deal(self, end: GoatEnd | str, seat: Seat, values: Mapping[Seat, int],
                    zero_zero: bool = False) -> GoatDealRecord:
        """A deal of the game being played in summary form (:meth:`GoatGame.record_deal`)."""
        return self._after(self._open_game().record_deal(end, seat, values, zero_zero))

    def record_redeal(self, hands: list[list[Tile | TileIndex | str] | TileMask] | None = None) -> GoatDealRecord:
        """A void deal of the game being played (:meth:`GoatGame.record_redeal`)."""
        return self._after(self._open_game().record_redeal(hands))

    # -- storing -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"regulations": self.regulations.to_dict(), "games": [g.to_dict() for g in self.games]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GoatSitting:
        """Replay a sitting stored by :meth:`to_dict`: every game but the last is over, and there
        are no more than ``games_per_tour``."""
        sitting = cls(Regulations.from_dict(data.get("regulations")))
        stored = data.get("games")
        if not isinstance(stored, list) or not stored:
            raise PartitionError(gettext_noop("a sitting has a list of games"))
        if len(stored) > sitting.regulations.games_per_tour:
            raise PartitionError(gettext_noop("a sitting has at most %(games)s games, got %(count)s"),
                                 games=sitting.regulations.games_per_tour, count=len(stored))
        games = []
        for k, game in enumerate(stored, 1):
            try:
                played = GoatGame.from_dict(game)
            except RulesError as error:
                raise error.at(gettext_noop("game %(n)s"), n=k) from None
            if played.regulations != sitting.regulations:
                raise PartitionError(gettext_noop("game %(n)s is played under other regulations than the sitting"),
                                     n=k)
            if k < len(stored) and not played.is_over:
                raise PartitionError(gettext_noop("game %(n)s is not over, yet another game follows it"), n=k)
            games.append(played)
        sitting.games = games
        if sitting.game.is_over and len(games) < sitting.regulations.games_per_tour:
            games.append(GoatGame(sitting.regulations))
        return sitting
