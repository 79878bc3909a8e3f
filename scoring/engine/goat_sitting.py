"""A sitting of Goat or Sea Goat (:class:`~scoring.engine.sitting.Sitting`): the
``games_per_tour`` games one table plays in one tour, recorded in summary form or played move by
move on a live table.

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

from typing import Any, Mapping, Sequence

from .errors import PartitionError, RulesError, gettext_noop
from .goat import GameDecision, GoatDealRecord, GoatGame
from .goat_deal import GoatDeal
from .partition import Awaited, ViolationRecord
from .regulations import MoveTimeout, Regulations
from .sitting import Sitting
from .tiles import Tile, TileIndex, TileMask
from .vocabulary import GoatEnd, Seat, Side, Unit, ViolationCode

__all__ = ["GoatSitting"]


class GoatSitting(Sitting[GoatGame]):
    """The games of Goat or Sea Goat at one table in one tour, under ``regulations`` at that table
    (:meth:`Regulations.at_table`: ``players`` is the table's size)."""

    def __init__(self, regulations: Regulations) -> None:
        if not regulations.is_goat:
            raise RulesError(gettext_noop("the regulations' game is %(game)s: a sitting is of Goat or Sea Goat"),
                             game=regulations.game)
        super().__init__(regulations)

    # Violations repeat across the games: the sitting is the table's partition (RULES 6, 7), so
    # each game starts from the counts of the one before.
    def _new_game(self, previous: GoatGame | None) -> GoatGame:
        return GoatGame(self.regulations, earlier_violations=previous.repeats if previous else None)

    def _read_game(self, data: Mapping[str, Any], previous: GoatGame | None) -> GoatGame:
        return GoatGame.from_dict(data, previous.repeats if previous else {})

    # -- recording (summary form) --------------------------------------------------------------

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
        :meth:`Partition.awaited <scoring.engine.partition.Partition.awaited>`."""
        deal = self.game.current
        if deal is None or deal.is_over:
            return None
        index = len(deal.moves)
        return Awaited(self.deals + 1, index, deal.to_move, deal.allowance(), self.game.recorded_lapses(index))

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
             second: Tile | TileIndex | str | None = None, seconds: float | None = None) -> GoatDealRecord | None:
        """Play a tile, charged ``seconds`` by the clock (:meth:`GoatGame.play`: the lapses they
        imply are recorded); returns the deal's record if it ended (and starts the next game if
        that ended one)."""
        record = self._open_game().play(tile, end, seat, second, seconds)
        return None if record is None else self._after(record)

    def pass_turn(self, seat: Seat, seconds: float | None = None) -> GoatDealRecord | None:
        """Pass, when the engine allows it (nothing fits and the bazaar may not be drawn);
        ``seconds`` as for :meth:`play`."""
        record = self._open_game().pass_turn(seat, seconds)
        return None if record is None else self._after(record)

    def record_lapse(self, seat: Seat) -> ViolationRecord | None:
        """The move clock of ``seat`` (the player to move) ran out (RULES 6, 9.1): with
        ``move_timeout`` forfeit the game ends (returns ``None``); otherwise a ``move_time``
        violation, a lapse of the move awaited (:meth:`GoatGame.record_lapse`: a warning, then
        penalties), which the move's seconds imply once it arrives. At the referee's clock no deal
        is played here: the table's clock says whose move it is, and a penalty that makes a goat
        ends the game at once."""
        game = self._open_game()
        if game.current is not None and game.current.to_move != seat:
            raise PartitionError(gettext_noop("the clock runs for nobody at seat %(seat)s"), seat=seat)
        if self.regulations.move_timeout == MoveTimeout.FORFEIT:
            game.time_out(seat)
            self._next_game()
            return None
        record = game.record_lapse(seat)
        self._next_game()
        return record

    def record_no_show(self, absent: Sequence[Unit]) -> GameDecision:
        """The units ``absent`` had not appeared by the no-show deadline (RULES 5, 9), before the
        sitting's first deal: **Decision**: the no-show decides the whole sitting, every one of
        its ``games_per_tour`` games as :meth:`GoatGame.record_no_show` says. Returns the first
        game's decision. Goat's only: a live table's deadline decides a no-show, and a points
        game's tables are never live."""
        game = self._open_game()
        if len(self.games) > 1:
            raise PartitionError(gettext_noop("a no-show is recorded before the first deal"))
        decision = game.record_no_show(absent)
        while self._more():
            self.games.append(self._new_game(self.game))
            self.game.record_no_show(absent)
        return decision
