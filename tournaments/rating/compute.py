"""The ratings of a game family recomputed from every rated result, in one reproducible order.

A result is rated when its tour is finished (the ratings move when a tour ends, never in the
middle of one) and its partition or sitting was played: a no-show decided nothing about skill
(RULES 5; not a game played), a bye is no partition, a withdrawn pair plays no more partitions
(the ones it played count), an annulled no-show reopens its table until it is played. The order
is (tour start, tournament, tour, table): the tour's actual start, else its planned start, else
its tournament's first day. A correction changes the stored result, and the next refresh reads it.

The whole family is recomputed each time (Weng-Lin updates are not commutative: a corrected
result in an old tour changes every later update), and written only where it differs: a second
refresh of the same results writes nothing.
"""

from __future__ import annotations

import datetime
from bisect import bisect_left
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from scoring import engine
from scoring.models import Partition
from tournaments.models import Rating, RatingChange, RatingFamily, Tour, Tournament

from .games import GAMES

#: The model, with the library's defaults (mu 25, sigma 25/3, tau 25/300).
MODEL = PlackettLuce()
#: The number shown: 1000 + 40 * (mu - 3 sigma), the library's ordinal scaled so that a newcomer
#: starts at 1000 and a point of the model is 40 on the list.
SCALE, OFFSET = 40.0, 1000.0


def shown(rating: PlackettLuceRating) -> float:
    return rating.ordinal(alpha=SCALE, target=OFFSET)


def newcomer() -> PlackettLuceRating:
    return MODEL.rating()


@dataclass(frozen=True)
class Result:
    """A rated partition or sitting: its place in the order, its teams and their ranks."""

    partition_id: int
    tournament_id: int
    at: datetime.datetime
    order_key: tuple[Any, ...]
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


def results(family: str) -> list[Result]:
    """The rated results of ``family``, in rating order."""
    rules = {pk: engine.Regulations.from_dict(regulations)
             for pk, regulations in Tournament.objects.values_list("pk", "regulations")}
    by_game: dict[str, list[int]] = {}
    for pk, regulations in rules.items():
        entry = GAMES.get(regulations.game)
        if entry is not None and entry.family == family:
            by_game.setdefault(regulations.game, []).append(pk)
    found: list[Result] = []
    for game, tournaments in by_game.items():
        partitions = Partition.objects.filter(
            status=Partition.Status.FINISHED, table__tour__status=Tour.Status.FINISHED,
            table__tour__tournament__in=tournaments).exclude(reason=engine.Reason.NO_SHOW)
        place = {pk: (tournament, (started or planned or _day(day)), tour, table)
                 for pk, tournament, started, planned, day, tour, table in partitions.values_list(
                     "pk", "table__tour__tournament_id", "table__tour__started_at", "table__tour__planned_start",
                     "table__tour__tournament__starts_on", "table__tour__number", "table__number")}
        for pk, teams, ranks in GAMES[game].read(partitions, rules):
            tournament, at, tour, table = place[pk]
            found.append(Result(pk, tournament, at, (at, tournament, tour, table), teams, ranks))
    found.sort(key=lambda r: r.order_key)
    return found


def _day(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))


#: The fields of the rows below, as :func:`compute` gives them and the database returns them.
CHANGE_FIELDS = ("player_id", "order", "partition_id", "tournament_id", "at", "mu_before", "sigma_before",
                 "mu_after", "sigma_after", "before", "after")
RATING_FIELDS = ("player_id", "mu", "sigma", "value", "partitions")


@dataclass
class Computed:
    """A family's ratings as the results make them: the rows to store (values of
    :data:`CHANGE_FIELDS` and :data:`RATING_FIELDS`), plain tuples, compared with the stored rows
    before any model is made."""

    changes: list[tuple[Any, ...]]
    ratings: list[tuple[Any, ...]]


def compute(rated: list[Result]) -> Computed:
    """Rate ``rated`` in order, every player from the library's default rating."""
    current: dict[int, PlackettLuceRating] = {}
    counts: dict[int, int] = {}
    changes: list[tuple[Any, ...]] = []
    for order, result in enumerate(rated, 1):
        before = [[current.get(p) or newcomer() for p in team] for team in result.teams]
        after = MODEL.rate(before, ranks=list(result.ranks))
        for team, old_team, new_team in zip(result.teams, before, after):
            for player, old, new in zip(team, old_team, new_team):
                current[player] = new
                counts[player] = counts.get(player, 0) + 1
                changes.append((player, order, result.partition_id, result.tournament_id, result.at, old.mu,
                                old.sigma, new.mu, new.sigma, shown(old), shown(new)))
    return Computed(changes, [(p, r.mu, r.sigma, shown(r), counts[p]) for p, r in current.items()])


def refresh(family: str) -> bool:
    """Recompute ``family``'s ratings from all its results and store them where they differ from
    the stored ones: the history from the first rated result that differs on (a tour finished
    at the end of the order: its rows only), the ratings if any differs. Whether anything was
    written. Two refreshes at once: the later one's insert meets the unique constraints and rolls
    back whole (its task retries)."""
    if family not in RatingFamily.values:
        raise ValueError(f"Unknown rating family: {family!r}.")
    computed = compute(results(family))
    changes = sorted(computed.changes, key=lambda row: (row[1], row[0]))  # by order, then player
    with transaction.atomic():
        stored = RatingChange.objects.filter(family=family)
        differs_from = None  # the first order from which the stored history differs
        for old, new in zip_longest(stored.order_by("order", "player_id").values_list(*CHANGE_FIELDS)
                                    .iterator(chunk_size=10_000), changes):
            if old != new:
                differs_from = min(row[1] for row in (old, new) if row is not None)
                break
        stored_ratings = Rating.objects.filter(family=family)
        same_ratings = sorted(stored_ratings.values_list(*RATING_FIELDS)) == sorted(computed.ratings)
        if differs_from is None and same_ratings:
            return False
        if differs_from is not None:
            stored.filter(order__gte=differs_from).delete()
            _insert_changes(family, changes[bisect_left(changes, differs_from, key=lambda row: row[1]):])
        if not same_ratings:
            stored_ratings.delete()
            Rating.objects.bulk_create((Rating(family=family, **dict(zip(RATING_FIELDS, row)))
                                        for row in computed.ratings), batch_size=2000)
    return True


def _insert_changes(family: str, rows: list[tuple[Any, ...]]) -> None:
    """Insert history rows in one ``executemany``: a refresh from nothing writes hundreds of
    thousands, which ``bulk_create`` builds into model instances and statements four times slower
    (bench/rating.py)."""
    meta = RatingChange._meta
    column = {field.attname: field.column for field in meta.concrete_fields}
    columns = ["family", *(column[name] for name in CHANGE_FIELDS)]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    at = CHANGE_FIELDS.index("at")
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 10_000):
            cursor.executemany(sql, [(family, *row[:at], adapt(row[at]), *row[at + 1:])
                                     for row in rows[start:start + 10_000]])


def refresh_all() -> dict[str, bool]:
    """Every family recomputed (``manage.py rate``): which ones changed."""
    return {family: refresh(family) for family in RatingFamily.values}


def family_of(tournament: Tournament) -> str | None:
    """The family a tournament's results are rated in; None for a game not rated."""
    entry = GAMES.get(tournament.rules.game)
    return None if entry is None else str(entry.family)


def player_ratings(family: str, players: list[int], tournament: Tournament) -> dict[int, float]:
    """The shown rating of each of ``players`` in ``family`` as it stood before ``tournament``'s
    first day (its own results and later ones left out, so that every tour of a round robin seeds
    alike); a player not rated by then has the library's default (:func:`newcomer`)."""
    before = RatingChange.objects.filter(family=family, player__in=players, at__lt=_day(tournament.starts_on)) \
        .exclude(tournament=tournament).order_by("order")
    stood = dict(before.values_list("player_id", "after"))  # each player's last row before it
    return {p: stood.get(p, shown(newcomer())) for p in players}
