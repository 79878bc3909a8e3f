"""What a finished table gives: :class:`Outcome`, the one result every kind of game gives
(:meth:`Partition.outcome <scoring.engine.partition.Partition.outcome>` for sports; a game or a
sitting of Goat, Sea Goat or points: ``outcome()`` of :class:`~scoring.engine.goat.GoatGame`,
:class:`~scoring.engine.points.PointsGame` and :class:`~scoring.engine.sitting.Sitting`).

The specific records it is derived from stay where their fields are needed:
:class:`~scoring.engine.partition.Decision` (sports), :class:`GameDecision` and
:class:`GameResult` (one game of RULES 9), :class:`SittingTotals` (a sitting).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Iterable, Sequence

from .regulations import PointsWin, Regulations
from .vocabulary import GameReason, Reason, Unit

__all__ = ["Outcome", "GameDecision", "GameResult", "SittingTotals", "game_outcome", "totals_of", "ranks_of"]


@dataclass(frozen=True)
class Outcome:
    """A finished table, whatever its game: its ``units`` in order (pairs ``"A"``, ``"B"`` in
    sports; the units of RULES 9 otherwise, :func:`~scoring.engine.goat_rules.units_of`), each
    unit's rank (1 best, equal results share a rank, a unit absent at a no-show ranks last;
    ``None``: nobody appeared, the table is not rated), why it ended, each unit's score (a pair's
    total in sports, a score in RULES 9, summed over a sitting) and the units that had not
    appeared by the no-show deadline."""

    units: tuple[Unit, ...]
    ranks: tuple[int, ...] | None
    reason: Reason | GameReason | None
    scores: tuple[int, ...]
    absent: tuple[Unit, ...] = ()


@dataclass(frozen=True)
class GameDecision:
    """The game is over: ``reason``; ``goats`` (Goat: the units at ``lose_at``), ``winner`` (Sea
    Goat, points: the one unit that won, if one did), ``timed_out`` (the unit that ran out of
    time), ``absent`` (a no-show: the units that had not appeared)."""

    reason: GameReason
    goats: tuple[Unit, ...] = ()
    winner: Unit | None = None
    timed_out: Unit | None = None
    absent: tuple[Unit, ...] = ()


@dataclass(frozen=True)
class GameResult:
    """What the standings of a tournament take from one game (RULES 9.1, 9.2): per unit (in the
    order of ``units``) the score, the game points, whether it is a goat and whether it won
    (``winners``: Sea Goat's or a points game's winner; after a Sea Goat no-show, every unit
    present)."""

    units: tuple[Unit, ...]
    scores: tuple[int, ...]
    game_points: tuple[int, ...]
    goats: tuple[Unit, ...]
    winners: tuple[Unit, ...]
    reason: GameReason | None


@dataclass(frozen=True)
class SittingTotals:
    """Per unit (in the order of ``units``), summed over the finished games of a sitting: game
    points, games in which it was a goat, score, games won (Sea Goat, points)."""

    units: tuple[Unit, ...]
    game_points: tuple[int, ...]
    goats: tuple[int, ...]
    scores: tuple[int, ...]
    games_won: tuple[int, ...]


def totals_of(units: tuple[Unit, ...], results: Iterable[GameResult]) -> SittingTotals:
    """The ``results`` of finished games summed per unit (RULES 9.1, 9.2, 9.3)."""
    n = len(units)
    points, goats, scores, won = [0] * n, [0] * n, [0] * n, [0] * n
    for result in results:
        for k, unit in enumerate(units):
            points[k] += result.game_points[k]
            goats[k] += unit in result.goats
            scores[k] += result.scores[k]
            won[k] += unit in result.winners
    return SittingTotals(units, tuple(points), tuple(goats), tuple(scores), tuple(won))


#: The standings metrics of RULES 9 (:data:`~scoring.engine.regulations.STANDINGS_BY_GAME`) as
#: read from :class:`SittingTotals`: the field and whether a higher value is better (``None``:
#: as ``points_win`` says).
_METRICS: Final[dict[str, tuple[str, bool | None]]] = {
    "game_points": ("game_points", True), "goats": ("goats", False), "total_score": ("scores", False),
    "games_won": ("games_won", True), "points_won": ("scores", True), "points_scored": ("scores", None),
}


def ranks_of(regulations: Regulations, totals: SittingTotals, absent: Sequence[Unit] = ()) -> tuple[int, ...] | None:
    """Each unit's rank by the regulations' ``standings`` in turn, as the tournament's standings
    rank (equal values on all of them share a rank); the ``absent`` units last, sharing the
    rank; ``None`` when every unit is absent."""
    units = totals.units
    if all(u in absent for u in units):
        return None
    keys: list[tuple[bool, tuple[int, ...]]] = []
    for k, unit in enumerate(units):
        key: list[int] = []
        for metric in regulations.standings:
            name, higher = _METRICS[metric]
            if higher is None:
                higher = regulations.points_win != PointsWin.LOWEST
            value: int = getattr(totals, name)[k]
            key.append(-value if higher else value)
        keys.append((True, ()) if unit in absent else (False, tuple(key)))
    return tuple(1 + sum(other < mine for other in keys) for mine in keys)


def game_outcome(regulations: Regulations, result: GameResult, decision: GameDecision) -> Outcome:
    """The outcome of one finished game of RULES 9: its units ranked as a sitting of that one game."""
    totals = totals_of(result.units, [result])
    return Outcome(result.units, ranks_of(regulations, totals, decision.absent), decision.reason, result.scores,
                   decision.absent)
