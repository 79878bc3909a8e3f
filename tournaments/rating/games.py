"""What differs by game for the ratings, one entry per game of the regulations (like
:data:`scoring.web.api.SHEETS`): the family it is rated in, and how a finished table reads as teams
and ranks. A game without an entry (``points``, RULES 9.3: any game, its points entered by hand)
is not rated.

Sports: a partition is two teams of two (pair A at seats 1 and 3, pair B at 2 and 4), ranked by
its winner, as the standings read it. Goat and Sea Goat: a sitting is 2 to 4 teams of one player
(two of two with ``teams``), ranked by the players' :class:`~scoring.models.SeatResult` rows
under the tournament's own order of standings metrics (:func:`tournaments.standings.rank`):
equal results share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from django.db.models import QuerySet

from scoring import engine
from scoring.models import Partition, SeatResult
from tournaments.models import RatingFamily, Table
from tournaments.standings import Row, metrics_of, rank

#: A rated table: its partition's id, its teams (players' ids), each team's rank (1 best).
Outcome = tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]]
#: Reads the finished ``partitions`` (rated ones only) of tournaments played under ``rules``
#: (tournament id -> regulations).
Reader = Callable[[QuerySet[Partition], Mapping[int, engine.Regulations]], Iterable[Outcome]]


@dataclass(frozen=True)
class RatedGame:
    family: RatingFamily
    read: Reader


def _partitions(partitions: QuerySet[Partition], rules: Mapping[int, engine.Regulations]) -> Iterable[Outcome]:
    """A sports partition: the pair that won first. (A finished partition without a winner is a
    no-show of both pairs, never rated.)"""
    seats = [f"table__{field}" for field in Table.SEAT_FIELDS]
    for pk, winner, *seated in partitions.exclude(winner="").values_list("pk", "winner", *seats):
        teams = tuple(tuple(seated[seat - 1] for seat in engine.seats_of(pair)) for pair in engine.Pair)
        yield pk, teams, (1, 2) if winner == engine.Pair.A else (2, 1)


def _sittings(partitions: QuerySet[Partition], rules: Mapping[int, engine.Regulations]) -> Iterable[Outcome]:
    """A Goat or Sea Goat sitting: its units (a player, or a pair with ``teams``) ranked by their
    seat results as the tournament's standings rank them."""
    seat_rows: dict[int, list[tuple[int, int, int, int, int, int, int]]] = defaultdict(list)
    for row in (SeatResult.objects.filter(partition__in=partitions)
                .values_list("partition_id", "partition__table__tour__tournament_id", "seat", "player_id",
                             "score", "goats", "game_points", "games_won")):
        seat_rows[row[0]].append(row[1:])
    for pk, seated in seat_rows.items():
        regulations = rules[seated[0][0]]
        units: dict[int, list[int]] = defaultdict(list)
        rows: dict[int, Row] = {}
        for _tournament, seat, player, score, goats, game_points, games_won in sorted(seated, key=lambda r: r[1]):
            unit = engine.unit_index(seat, regulations)
            units[unit].append(player)
            # Partners carry the same result: the unit's row is its first seat's.
            rows.setdefault(unit, Row(unit, played=1, score=score, goats=goats, game_points=game_points,
                                      games_won=games_won))
        if len(rows) < 2:
            continue
        ranked = {row.key: row.rank for row in rank(rows, regulations.standings, metrics=metrics_of(regulations))}
        order = sorted(units)
        yield pk, tuple(tuple(units[u]) for u in order), tuple(ranked[u] for u in order)


#: How a finished table of each family reads as teams and ranks (a points game is not rated: its
#: kind has no rating family).
READERS: engine.Parts[Reader] = engine.Parts({engine.Family.PARTITION: _partitions, engine.Family.TILES: _sittings,
                                              engine.Family.POINTS: None})


def rated(kind: engine.Kind) -> RatedGame | None:
    """The rating of a game kind: its family and the reader of its tables (None: not rated)."""
    reader = READERS.get(kind)
    return None if kind.rating is None or reader is None else RatedGame(RatingFamily(kind.rating), reader)


#: The rated games, by the regulations' ``game``.
GAMES: dict[str, RatedGame] = {game: entry for game, kind in engine.KINDS.items()
                               if (entry := rated(kind)) is not None}
