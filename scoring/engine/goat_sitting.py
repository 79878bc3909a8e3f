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
from typing import Any, Mapping, Sequence

from .errors import PartitionError, RulesError, gettext_noop
from .goat import GameDecision, GamePenalty, GoatDeal, GoatDealRecord, GoatGame
from .partition import Awaited, ViolationRecord
from .regulations import MoveTimeout, Regulations
from .tiles import Tile, TileIndex, TileMask
from .vocabulary import GoatEnd, Seat, Side, Unit, ViolationCode

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
                won[k] += unit in result.winners
        return SittingTotals(units, tuple(points), tuple(goats), tuple(scores), tuple(won))

    # -- recording (summary form) --------------------------------------------------------------

    def _open_game(self) -> GoatGame:
        if self.is_over and self.game.time_expired is not None:
            raise PartitionError(gettext_noop("the table's time ran out: the sitting is over, nothing more can be "
                                              "recorded"))
        if self.is_over:
            raise PartitionError(gettext_noop("all %(games)s games of the sitting are played: nothing more can be "
                                              "recorded"), games=self.regulations.games_per_tour)
        return self.game

    def _after(self, record: GoatDealRecord) -> GoatDealRecord:
        """Start the next game when this deal ended one and the sitting has more to play."""
        self._next_game()
        return record

    def _next_game(self) -> None:
        """Violations repeat across the games: the sitting is the table's partition (RULES 6)."""
        if self.game.is_over and self._more():
            self.games.append(GoatGame(self.regulations, earlier_violations=self.game.repeats))

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

    def write_penalty(self, seat: Seat, code: ViolationCode | str) -> GamePenalty:
        """A penalty in the game being played (:meth:`GoatGame.write_penalty`: RULES 9, Goat
        charges the offender, Sea Goat credits the others); the next game starts if it ended
        this one (a goat by penalty points)."""
        penalty = self._open_game().write_penalty(seat, code)
        self._next_game()
        return penalty

    def record_violation(self, seat: Seat, code: ViolationCode | str) -> ViolationRecord:
        """A violation in the game being played (:meth:`GoatGame.record_violation`), its repeats
        counted over the sitting's games; the next game starts if its penalty ended this one."""
        record = self._open_game().record_violation(seat, code)
        self._next_game()
        return record

    def annul_violation(self, game: int, violation_id: int, reason: str) -> None:
        """Annul violation ``violation_id`` of game ``game`` (from 1; :meth:`GoatGame.annul_violation`)
        and count the later games' repeats again: refused, nothing changed, when a later record
        no longer fits (the game would no longer be over, yet the next one has begun: a game
        with nothing recorded yet is dropped)."""
        if type(game) is not int or not 1 <= game <= len(self.games):
            raise PartitionError(gettext_noop("there is no game %(game)s"), game=repr(game))
        annulled = GoatGame.from_dict(self.games[game - 1].to_dict())
        annulled.annul_violation(violation_id, reason)
        data = self.to_dict()
        data["games"][game - 1] = annulled.to_dict()
        while len(data["games"]) > game and not data["games"][-1]["events"] and data["games"][-1]["current"] is None:
            data["games"].pop()  # a game not begun: started again if still due
        self.games = GoatSitting.from_dict(data).games

    # -- playing move by move (a live table) ----------------------------------------------------

    @property
    def current(self) -> GoatDeal | None:
        """The deal being played move by move, if any."""
        return self.game.current

    def awaited(self) -> Awaited | None:
        """The move a live table's clock is timing (RULES 6; drawing is part of the move), as
        :meth:`Partition.awaited <scoring.engine.partition.Partition.awaited>`; the lapses are
        counted by the table."""
        deal = self.game.current
        if deal is None or deal.is_over:
            return None
        return Awaited(self.deals + 1, len(deal.moves), deal.to_move, deal.allowance(), 0)

    def start_deal(self, seed: int | str | None = None,
                   hands: list[list[Tile | TileIndex | str] | TileMask] | None = None) -> GoatDeal:
        """Deal the next deal of the game being played from ``seed``, or play the ``hands`` a
        referee entered (:meth:`GoatGame.start_deal`); a void deal is recorded at once: deal
        again."""
        deal = self._open_game().start_deal(seed=seed, hands=hands)
        if deal.is_void:
            self._after(self.game.deals[-1])
        return deal

    def draw(self, seat: Seat, tile: Tile | TileIndex | str | None = None) -> Tile:
        """The player to move takes the next tile of the bazaar, or ``tile`` when the bazaar's
        order is not known (hands entered by a referee; :meth:`GoatDeal.draw`)."""
        return self._open_game().draw(tile, seat)

    def play(self, tile: Tile | TileIndex | str, end: Side | str | None, seat: Seat,
             second: Tile | TileIndex | str | None = None) -> GoatDealRecord | None:
        """Play a tile; returns the deal's record if it ended (and starts the next game if that
        ended one)."""
        record = self._open_game().play(tile, end, seat, second)
        return None if record is None else self._after(record)

    def pass_turn(self, seat: Seat) -> GoatDealRecord | None:
        """Pass, when the engine allows it (nothing fits and the bazaar may not be drawn)."""
        record = self._open_game().pass_turn(seat)
        return None if record is None else self._after(record)

    def record_lapse(self, seat: Seat) -> ViolationRecord | None:
        """The move clock of ``seat`` (the player to move) ran out (RULES 6, 9.1): with
        ``move_timeout`` forfeit the game ends (returns ``None``); otherwise a ``move_time``
        violation (:meth:`record_violation`: a warning, then penalties). At the referee's clock
        no deal is played here: the table's clock says whose move it is, and a penalty that makes
        a goat ends the game at once."""
        game = self._open_game()
        if game.current is not None and game.current.to_move != seat:
            raise PartitionError(gettext_noop("the clock runs for nobody at seat %(seat)s"), seat=seat)
        if self.regulations.move_timeout == MoveTimeout.FORFEIT:
            game.time_out(seat)
            self._next_game()
            return None
        return self.record_violation(seat, ViolationCode.MOVE_TIME)

    def record_no_show(self, absent: Sequence[Unit]) -> GameDecision:
        """The units ``absent`` had not appeared by the no-show deadline (RULES 5, 9), before the
        sitting's first deal: **Decision**: the no-show decides the whole sitting, every one of
        its ``games_per_tour`` games as :meth:`GoatGame.record_no_show` says. Returns the first
        game's decision."""
        game = self._open_game()
        if len(self.games) > 1:
            raise PartitionError(gettext_noop("a no-show is recorded before the first deal"))
        decision = game.record_no_show(absent)
        while self._more():
            self.games.append(GoatGame(self.regulations))
            self.game.record_no_show(absent)
        return decision

    def expire_time(self, during_deal: bool) -> None:
        """The table's time ran out (RULES 5, 9): the game being played ends (after the deal
        being played), and it is the sitting's last."""
        self._open_game().expire_time(during_deal)

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
        games: list[GoatGame] = []
        for k, game in enumerate(stored, 1):
            try:
                played = GoatGame.from_dict(game, games[-1].repeats if games else {})
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
