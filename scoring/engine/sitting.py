"""A sitting: the ``games_per_tour`` games one table plays in one tour (docs/RULES.md 9.1
"Tournament"), one after another, and what the standings take from them. The games of RULES 9
play sittings: Goat and Sea Goat (:class:`~scoring.engine.goat_sitting.GoatSitting`) and
``points`` (:class:`~scoring.engine.points.PointsSitting`); each game is the game's own class,
and nothing of its rules is repeated here.

The next game starts when one ends, while the sitting has fewer than ``games_per_tour`` and the
table's time has not run out.
"""

from __future__ import annotations

from typing import Any, Generic, Mapping, Protocol, Self, Sequence, TypeVar

from .errors import PartitionError, RulesError, gettext_noop
from .goat import GamePenalty
from .outcome import GameDecision, GameResult, Outcome, SittingTotals, ranks_of, totals_of
from .regulations import Regulations
from .vocabulary import Expiry, Seat, Unit, ViolationCode

__all__ = ["Sitting", "SittingGame", "SittingTotals"]


class SittingGame(Protocol):
    """What a sitting needs of its games (:class:`~scoring.engine.goat.GoatGame`,
    :class:`~scoring.engine.points.PointsGame`)."""

    regulations: Regulations
    units: tuple[Unit, ...]

    @property
    def deals(self) -> Sequence[object]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def event_count(self) -> int: ...

    @property
    def decision(self) -> GameDecision | None: ...

    @property
    def time_expired(self) -> tuple[Expiry, int] | None: ...

    def result(self) -> GameResult: ...

    def write_penalty(self, seat: Seat, code: ViolationCode | str) -> GamePenalty: ...

    def expire_time(self, during_deal: bool) -> None: ...

    def to_dict(self) -> dict[str, Any]: ...


#: The game a sitting plays.
G = TypeVar("G", bound=SittingGame)
#: What recording a deal returns.
R = TypeVar("R")


class Sitting(Generic[G]):
    """The games at one table in one tour, under ``regulations`` at that table
    (:meth:`Regulations.at_table`: ``players`` is the table's size). A subclass names its game
    (:meth:`_new_game`, :meth:`_read_game`) and how its deals are recorded."""

    def __init__(self, regulations: Regulations) -> None:
        self.regulations = regulations
        self.games: list[G] = [self._new_game(None)]

    def _new_game(self, previous: G | None) -> G:
        """A new game under the sitting's regulations, after ``previous`` (None: the first)."""
        raise NotImplementedError

    def _read_game(self, data: Mapping[str, Any], previous: G | None) -> G:
        """A game stored by its ``to_dict()``, replayed after ``previous`` (None: the first)."""
        raise NotImplementedError

    # -- reading the state ---------------------------------------------------------------------

    @property
    def game(self) -> G:
        """The game being played (once the sitting is over, its last game)."""
        return self.games[-1]

    @property
    def is_over(self) -> bool:
        return self.game.is_over and not self._more()

    def _more(self) -> bool:
        """Whether another game follows the one being played: the sitting has fewer than
        ``games_per_tour`` and the table's time has not run out (RULES 5, 9)."""
        return len(self.games) < self.regulations.games_per_tour and self.game.time_expired is None

    @property
    def deals(self) -> int:
        """Deals recorded in all the games, void ones included."""
        return sum(len(g.deals) for g in self.games)

    def totals(self) -> SittingTotals:
        """What the standings take from the finished games (RULES 9.1, 9.2, 9.3)."""
        return totals_of(self.game.units, (game.result() for game in self.games if game.is_over))

    def outcome(self) -> Outcome | None:
        """The sitting's :class:`Outcome` once it is over: its units ranked by its :meth:`totals`
        as the standings rank them (the regulations' ``standings``), the units absent at a
        no-show (which decides every game) last; the reason is its last game's."""
        if not self.is_over:
            return None
        totals, first = self.totals(), self.games[0].decision
        absent = first.absent if first is not None else ()
        return Outcome(totals.units, ranks_of(self.regulations, totals, absent), self.game.result().reason,
                       totals.scores, absent)

    @property
    def event_count(self) -> int:
        """Events recorded in all the games."""
        return sum(game.event_count for game in self.games)

    # -- recording -----------------------------------------------------------------------------

    def _open_game(self) -> G:
        if self.is_over and self.game.time_expired is not None:
            raise PartitionError(gettext_noop("the table's time ran out: the sitting is over, nothing more can be "
                                              "recorded"))
        if self.is_over:
            raise PartitionError(gettext_noop("all %(games)s games of the sitting are played: nothing more can be "
                                              "recorded"), games=self.regulations.games_per_tour)
        return self.game

    def _after(self, record: R) -> R:
        """Start the next game when this deal ended one and the sitting has more to play."""
        self._next_game()
        return record

    def _next_game(self) -> None:
        if self.game.is_over and self._more():
            self.games.append(self._new_game(self.game))

    def write_penalty(self, seat: Seat, code: ViolationCode | str) -> GamePenalty:
        """A penalty in the game being played (RULES 7, 9: Goat charges the offender, Sea Goat
        credits the others, a points game either as ``points_win`` says); the next game starts if
        it ended this one (a goat, or a target reached, by penalty points)."""
        penalty = self._open_game().write_penalty(seat, code)
        self._next_game()
        return penalty

    def expire_time(self, during_deal: bool) -> None:
        """The table's time ran out (RULES 5, 9): the game being played ends (after the deal
        being played), and it is the sitting's last."""
        self._open_game().expire_time(during_deal)

    # -- storing -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"regulations": self.regulations.to_dict(), "games": [g.to_dict() for g in self.games]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Replay a sitting stored by :meth:`to_dict`: every game but the last is over, and there
        are no more than ``games_per_tour``."""
        sitting = cls(Regulations.from_dict(data.get("regulations")))
        stored = data.get("games")
        if not isinstance(stored, list) or not stored:
            raise PartitionError(gettext_noop("a sitting has a list of games"))
        if len(stored) > sitting.regulations.games_per_tour:
            raise PartitionError(gettext_noop("a sitting has at most %(games)s games, got %(count)s"),
                                 games=sitting.regulations.games_per_tour, count=len(stored))
        games: list[G] = []
        for k, game in enumerate(stored, 1):
            try:
                played = sitting._read_game(game, games[-1] if games else None)
            except RulesError as error:
                raise error.at(gettext_noop("game %(n)s"), n=k) from None
            if played.regulations != sitting.regulations:
                raise PartitionError(gettext_noop("game %(n)s is played under other regulations than the sitting"),
                                     n=k)
            if k < len(stored) and not played.is_over:
                raise PartitionError(gettext_noop("game %(n)s is not over, yet another game follows it"), n=k)
            games.append(played)
        sitting.games = games
        sitting._next_game()
        return sitting
