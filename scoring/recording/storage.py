"""How a table is stored: the engine's state of a partition (sports) or of a sitting of games
(Goat, Sea Goat, points) read from its row and written back, and the audit entry every change
appends (:class:`~scoring.models.PartitionChange`). The one pipeline that changes a table
(:mod:`scoring.recording.pipeline`) and the readers of a table call these; nothing here checks who acts."""

from __future__ import annotations

from typing import Any, Mapping, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from celery import current_app
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from scoring import engine
from tournaments.models import Tour

from scoring.models import Partition, PartitionChange, SeatResult, result_summary
from tournaments.permissions import AnyUser
from tournaments.prepared import PreparedInsert

#: The refresh of the ratings (tournaments.rating.tasks), sent by name: it sits above this module.
RATE_TASK = "tournaments.rating.refresh"


class Conflict(Exception):
    """The partition changed since the client read it: reload and record again."""

    def __init__(self, current_version: int):
        self.current_version = current_version
        super().__init__(_("The partition was changed by someone else (it is now at version %(version)s): "
                           "reload it and record again.") % {"version": current_version})


#: Why a table of each family has no engine partition (None: it has one).
NOT_A_PARTITION: engine.Parts[Any] = engine.Parts({
    engine.Family.PARTITION: None,
    engine.Family.TILES: gettext_lazy("This table plays Goat or Sea Goat: record its deals as such."),
    engine.Family.POINTS: gettext_lazy("This table plays a points game: enter the points of each deal."),
})
_NO_TILES = gettext_lazy("This table does not play Goat or Sea Goat.")
#: Why a table of each family has no sitting of Goat or Sea Goat games (None: it has one).
NOT_TILES: engine.Parts[Any] = engine.Parts({engine.Family.PARTITION: _NO_TILES, engine.Family.TILES: None,
                                            engine.Family.POINTS: _NO_TILES})


def refuse(refusals: engine.Parts[Any], partition: Partition) -> None:
    """Refuse, with its family's message, an operation not made for the table's game."""
    refusal = refusals.get(partition.table.tour.tournament.kind)
    if refusal is not None:
        raise ValidationError(str(refusal))


def engine_partition(partition: Partition) -> engine.Partition:
    """The engine's partition for a stored one (a new one under the tournament's regulations).
    A table of Goat, Sea Goat or points has none: its sitting is :func:`sitting_at`."""
    if partition.engine_cache is not None and partition.engine_cache[0] == partition.version:
        return partition.engine_cache[1]
    refuse(NOT_A_PARTITION, partition)
    if partition.state:
        # Our own stored state: its snapshots are trusted, no replay of the moves.
        return engine.Partition.from_dict({**partition.state, "current": partition.current}, trusted=True)
    return engine.Partition(partition.table.tour.tournament.rules)


def store_state(partition: Partition, game: engine.Partition) -> None:
    """Copy the engine's state and result into the row (not saved)."""
    decision = game.decision
    partition.state = game.to_dict()
    # The deal in play is kept apart (a live move rewrites it alone) and read back by replaying its
    # few moves: the snapshot of it in the state would go stale at the next move.
    partition.current = partition.state.pop("current")
    partition.state.get("snapshot", {})["current"] = None
    partition.points_a, partition.points_b = game.totals
    partition.penalties_a = sum(1 for p in game.penalties if p.pair == "A")
    partition.penalties_b = sum(1 for p in game.penalties if p.pair == "B")
    partition.deals = len(game.deals)
    partition.winner = (decision.winner or "") if decision else ""
    partition.reason = decision.reason if decision else ""
    now = timezone.now()
    if decision is not None:
        partition.status = Partition.Status.FINISHED
        partition.finished_at = partition.finished_at or now
    else:
        partition.status = Partition.Status.PLAYING
        partition.finished_at = None
    partition.started_at = partition.started_at or now


#: An audit entry's INSERT (one a change), written once.
_NEW_CHANGE = PreparedInsert(PartitionChange)


def append(partition: Partition, action: str, data: Mapping[str, Any], *, user: AnyUser, address: str | None,
           before: Mapping[str, Any], reason: str = "", key: str = "", keep_state: bool = True) -> PartitionChange:
    """The last step of every change, inside its transaction, the partition row locked and its
    new version saved: the audit entry (who, when, from where, what, the result before and after;
    the engine's state after it unless ``keep_state`` is off, as for a live move, whose deal is in
    ``data``), and the tour's status when the partition's changed."""
    try:
        change = _NEW_CHANGE.insert(PartitionChange(
            partition=partition, version=partition.version, action=action, data=dict(data), reason=reason,
            user=user if user is not None and user.is_authenticated else None, address=address,
            idempotency_key=key, before=dict(before), after=result_summary(partition),
            # Without the snapshot, derived and as large as the rest: an old version is replayed.
            state=({**{k: v for k, v in partition.state.items() if k != "snapshot"}, "current": partition.current}
                   if keep_state and partition.state else None)))
    except IntegrityError:
        # Two retries with one key at the same instant: the row lock makes this unreachable on
        # PostgreSQL, but a unique constraint is the guarantee. The whole change rolls back.
        raise Conflict(partition.version - 1) from None
    if before.get("status") != partition.status:
        # Locks the tour's row: only when a partition starts or ends, never on every move.
        update_tour(partition.table.tour)
    elif partition.is_finished and partition.table.tour.status == Tour.Status.FINISHED:
        rate_after_commit(partition.table.tour)  # a correction of a result already rated
    return change


def rate_after_commit(tour: Tour) -> None:
    """Refresh the ratings of the tour's game once this transaction commits: the rated results
    changed (README, "Ratings")."""
    tournament_id = tour.tournament_id
    transaction.on_commit(lambda: current_app.send_task(RATE_TASK, (tournament_id,), ignore_result=True), robust=True)


def update_tour(tour: Tour) -> None:
    """A tour runs from its first recorded change and is finished when all its partitions are."""
    # NO KEY UPDATE: the live events other changes are inserting meanwhile reference this row
    # (a KEY SHARE lock), and must not wait for it while they hold the event counter.
    tour = Tour.objects.select_for_update(no_key=True).get(pk=tour.pk)
    partitions = Partition.objects.filter(table__tour=tour)
    status = tour.status
    if not partitions.exclude(status=Partition.Status.FINISHED).exists():
        status = Tour.Status.FINISHED
    elif partitions.exclude(status=Partition.Status.SCHEDULED).exists():
        status = Tour.Status.RUNNING
    if status != tour.status:
        if Tour.Status.FINISHED in (status, tour.status):
            rate_after_commit(tour)  # its results become rated, or a reopened table leaves them
        tour.status = status
        tour.save(update_fields=["status"])


def check_deal_count(deals: int) -> None:
    """Refuse a partition of more deals than PARTITION_MAX_DEALS: no real one comes near it, and
    every change replays the partition from its first event."""
    if deals > settings.PARTITION_MAX_DEALS:
        raise ValidationError(_("A partition has at most %(count)s deals.") % {"count": settings.PARTITION_MAX_DEALS})


def engine_error(error: engine.RulesError) -> ValidationError:
    """The engine's refusal, in the user's language."""
    return ValidationError(error.translate(_))


def engine_sitting(partition: Partition, version: int | None = None) -> engine.GoatSitting:
    """The engine's sitting of a Goat or Sea Goat table at ``version`` (:func:`sitting_at`; None:
    the current one)."""
    refuse(NOT_TILES, partition)
    return cast(engine.GoatSitting, sitting_at(partition, version))


def sitting_at(partition: Partition, version: int | None = None, *, hands: bool = True) -> engine.Sitting[Any]:
    """The engine's sitting of a table of Goat, Sea Goat or points at ``version`` (0: before
    anything was recorded; None: the current one), an earlier one read from the partition's
    changes; a new one under the tournament's regulations at the table's size. Without
    ``hands`` a deal in play (its hands and bazaar) is left out (:mod:`scoring.recording.hands`)."""
    state = partition.state
    if version is not None and version != partition.version:
        state = (partition.changes.filter(version=version).values_list("state", flat=True).first()
                 if 0 < version < partition.version else None)
        if version and not state:
            raise ValidationError(_("There is no version %(version)s.") % {"version": version})
    table = partition.table
    rules = table.tour.tournament.rules
    kind = engine.kind_of(rules).sitting
    if kind is None:
        raise ValidationError(_("This table plays sports domino: it has no sitting of games."))
    if state and not hands:
        state = {**state, "games": [{**game, "current": None} if game.get("current") else game
                                    for game in state.get("games", [])]}
    if state:
        return kind.from_dict(state)
    seated = sum(getattr(table, f"{field}_id") is not None for field in table.SEAT_FIELDS)
    return kind(rules.at_table(seated))


def store_sitting(partition: Partition, sitting: engine.Sitting[Any]) -> None:
    """Copy the sitting into the row (not saved); once it is over, write each player's
    :class:`~scoring.models.SeatResult`."""
    partition.state = sitting.to_dict()
    partition.current = None
    partition.deals = sitting.deals
    now = timezone.now()
    partition.started_at = partition.started_at or now
    decision = sitting.game.decision
    if not sitting.is_over or decision is None:
        partition.status = Partition.Status.PLAYING
        return
    partition.status = Partition.Status.FINISHED
    partition.finished_at = now
    partition.reason = decision.reason
    totals = sitting.totals()
    rules = sitting.regulations
    table = partition.table
    SeatResult.objects.bulk_create([
        SeatResult(partition=partition, player_id=player, seat=seat, score=totals.scores[k], goats=totals.goats[k],
                   game_points=totals.game_points[k], games_won=totals.games_won[k])
        for seat, player, k in ((seat, getattr(table, f"{field}_id"), engine.unit_index(seat, rules))
                                for seat, field in enumerate(table.SEAT_FIELDS[:rules.players], 1))
    ])
