"""A ``points`` game (RULES 9.3): any game the engine does not model move by move. The referee
enters the points each unit scored in each deal; the game ends when a unit reaches the
``target``, won by the highest or the lowest score (``points_win``).

Units are as in Goat (:func:`~scoring.engine.goat_rules.units_of`). **Decisions**: a penalty is
charged to the offender when the lowest score wins and credited to every other unit when the
highest wins (as Goat and Sea Goat do); while the best score is shared at the target the game
plays on (RULES 5, no draws); the winner gets 1 game point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import goat_rules as gr
from . import rules
from .errors import PartitionError, RulesError, gettext_noop
from .events import EventSourced
from .goat import GamePenalty
from .outcome import GameDecision, GameResult, Outcome, game_outcome
from .regulations import Game, PointsWin, Regulations
from .sitting import Sitting
from .vocabulary import Expiry, GameReason, Seat, Unit, ViolationCode

__all__ = ["PointsGame", "PointsDealRecord", "PointsSitting"]


@dataclass(frozen=True)
class PointsDealRecord:
    """A deal: the ``points`` each unit scored and the ``scores`` after it, in unit order."""

    n: int
    points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass
class _State:
    deals: list[PointsDealRecord] = field(default_factory=list)
    penalties: list[GamePenalty] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    time_expired: tuple[Expiry, int] | None = None
    decision: GameDecision | None = None


class PointsGame(EventSourced[_State]):
    """One ``points`` game at one table, event-sourced like :class:`~scoring.engine.goat.GoatGame`.

    >>> game = PointsGame(Regulations(game="points", players=2, target=50))
    >>> game.record_deal({"1": 30, "2": 12}).scores
    (30, 12)
    """

    def __init__(self, regulations: Regulations) -> None:
        if regulations.game != Game.POINTS:
            raise RulesError(gettext_noop("the regulations' game is %(game)s, not points"), game=regulations.game)
        self.regulations = regulations
        self.units = gr.units_of(regulations)
        super().__init__()

    def _fresh(self) -> _State:
        return _State(scores=[0] * len(self.units))

    @property
    def deals(self) -> list[PointsDealRecord]:
        return list(self._state.deals)

    @property
    def penalties(self) -> list[GamePenalty]:
        return list(self._state.penalties)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._state.scores)

    @property
    def decision(self) -> GameDecision | None:
        return self._state.decision

    @property
    def time_expired(self) -> tuple[Expiry, int] | None:
        return self._state.time_expired

    @property
    def is_over(self) -> bool:
        return self._state.decision is not None

    def game_points(self) -> tuple[int, ...] | None:
        d = self._state.decision
        return None if d is None else tuple(1 if u == d.winner else 0 for u in self.units)

    def result(self) -> GameResult:
        d = self._state.decision
        return GameResult(self.units, self.scores, self.game_points() or (0,) * len(self.units), (),
                          (d.winner,) if d and d.winner else (), d.reason if d else None)

    def outcome(self) -> Outcome | None:
        """The game's :class:`~scoring.engine.outcome.Outcome` (its units ranked as the standings
        of RULES 9.3 rank them); ``None`` while it goes on."""
        d = self._state.decision
        return None if d is None else game_outcome(self.regulations, self.result(), d)

    def _check_open(self) -> None:
        d = self._state.decision
        if d is not None:
            raise PartitionError(gettext_noop("the game was already decided after deal %(n)s (%(reason)s): nothing more"
                                              " can be recorded"), n=len(self._state.deals), reason=d.reason)

    def record_deal(self, points: Mapping[Unit, int]) -> PointsDealRecord:
        """Record the points each unit scored in a deal (every unit, whole numbers 0 or more)."""
        record: PointsDealRecord = self._event({"type": "deal", "points": dict(points)})
        return record

    def _on_deal(self, event: Mapping[str, Any]) -> PointsDealRecord:
        self._check_open()
        s, points = self._state, event.get("points")
        if not isinstance(points, Mapping) or set(points) != set(self.units):
            raise PartitionError(gettext_noop("points are given for each of %(units)s"), units=", ".join(self.units))
        for unit in self.units:
            if type(points[unit]) is not int or points[unit] < 0:
                raise PartitionError(gettext_noop("the points of %(unit)s must be a whole number 0 or more, got"
                                                  " %(value)s"), unit=unit, value=repr(points[unit]))
        s.scores = [score + points[u] for u, score in zip(self.units, s.scores)]
        record = PointsDealRecord(len(s.deals) + 1, tuple(points[u] for u in self.units), self.scores)
        s.deals.append(record)
        self._decide()
        return record

    def _best(self) -> Unit | None:
        """The unit with the best score, if only one has it."""
        scores = self._state.scores
        best = min(scores) if self.regulations.points_win == PointsWin.LOWEST else max(scores)
        return self.units[scores.index(best)] if scores.count(best) == 1 else None

    def _decide(self) -> None:
        s = self._state
        if s.decision is not None and s.decision.reason != GameReason.TARGET:
            return
        best = self._best()
        if max(s.scores) >= self.regulations.target and best is not None:
            s.decision = GameDecision(GameReason.TARGET, winner=best)
        elif s.time_expired is not None and len(s.deals) >= s.time_expired[1]:
            s.decision = GameDecision(GameReason.TIME, winner=best)
        else:
            s.decision = None

    def write_penalty(self, seat: Seat, code: ViolationCode | str) -> GamePenalty:
        """A penalty on the unit of ``seat``: charged to it when the lowest score wins, credited to
        every other unit when the highest wins."""
        penalty: GamePenalty = self._event({"type": "penalty", "seat": seat, "code": code})
        return penalty

    def _on_penalty(self, event: Mapping[str, Any]) -> GamePenalty:
        s, r = self._state, self.regulations
        seat, code = event.get("seat"), event.get("code")
        if type(seat) is not int or not 1 <= seat <= r.players:
            raise PartitionError(gettext_noop("seat must be 1 to %(players)s, got %(seat)s"), players=r.players,
                                 seat=repr(seat))
        if code not in rules.PENALTY_CODES:
            raise PartitionError(gettext_noop("unknown penalty code %(code)s; known: %(known)s"), code=repr(code),
                                 known=", ".join(rules.PENALTY_CODES))
        if s.decision is not None and s.decision.reason != GameReason.TARGET:
            self._check_open()
        unit = gr.unit_index(seat, r)
        charged = r.points_win == PointsWin.LOWEST
        for k in range(len(self.units)):
            if (k == unit) == charged:
                s.scores[k] += r.penalty_points
        penalty = GamePenalty(len(s.deals), seat, ViolationCode(code), self.units[unit], r.penalty_points, self.scores)
        s.penalties.append(penalty)
        self._decide()
        return penalty

    def to_dict(self) -> dict[str, Any]:
        return {"regulations": self.regulations.to_dict(), "events": self._stored_events()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PointsGame:
        game = cls(Regulations.from_dict(data.get("regulations")))
        game._record_stored(data.get("events", []))
        return game


class PointsSitting(Sitting[PointsGame]):
    """The ``games_per_tour`` points games at one table in one tour, under ``regulations`` at that
    table (:meth:`Regulations.at_table`).

    >>> sitting = PointsSitting(Regulations(game="points", players=2, target=50, games_per_tour=2))
    >>> _ = sitting.record_deal({"1": 50, "2": 20})
    >>> len(sitting.games), sitting.is_over, sitting.totals().games_won
    (2, False, (1, 0))
    """

    def _new_game(self, previous: PointsGame | None) -> PointsGame:
        return PointsGame(self.regulations)

    def _read_game(self, data: Mapping[str, Any], previous: PointsGame | None) -> PointsGame:
        return PointsGame.from_dict(data)

    def record_deal(self, points: Mapping[Unit, int]) -> PointsDealRecord:
        """The points each unit scored in a deal of the game being played
        (:meth:`PointsGame.record_deal`)."""
        return self._after(self._open_game().record_deal(points))
