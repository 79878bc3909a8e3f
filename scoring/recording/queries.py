"""The history of a table: the engine's state and the result at any version, and the protocol file
of a table at a version (the viewer's look at a deal in play recorded). Nothing here changes a
table."""

from __future__ import annotations

from typing import Any, Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring import engine
from scoring.models import Partition, result_summary
from scoring.recording import hands as hands_
from scoring.recording.formats import SITTING_FORMAT
from scoring.recording.storage import engine_partition, sitting_at
from tournaments.permissions import AnyUser


def partition_at(partition: Partition, version: int | None = None, *,
                 hands: bool = True) -> tuple[engine.Partition, dict[str, Any]]:
    """The engine's partition and the result summary (:func:`result_summary`) at ``version``
    (0: before anything was recorded; None: the current one). Earlier versions are read from the
    partition's changes. Without ``hands`` a deal in play is left out (:mod:`scoring.hands`):
    the partition as its last finished deal left it."""
    if version is None or version == partition.version:
        game = engine_partition(partition)
        if not hands and game.current is not None:
            game = engine.Partition.from_dict({**(partition.state or {}), "current": None}, trusted=True)
    elif version == 0:
        game = engine_partition(Partition(table=partition.table))
    else:
        state = state_at(partition, version, _change_at(partition, version, "state", "data"))
        game = engine.Partition.from_dict(state if hands else {**state, "current": None})
    return game, summary_at(partition, version)


def _change_at(partition: Partition, version: int, *fields: str) -> dict[str, Any]:
    """``fields`` of the change that made version ``version`` (an earlier one, from 1)."""
    change = (partition.changes.filter(version=version).values(*fields).first()
              if 0 < version < partition.version else None)
    if change is None:
        raise ValidationError(_("There is no version %(version)s.") % {"version": version})
    return change


def summary_at(partition: Partition, version: int | None = None) -> dict[str, Any]:
    """The result summary (:func:`result_summary`: status, reason, deals ...) of any table at
    ``version`` (0: before anything was recorded; None: the current one)."""
    if version is None or version == partition.version:
        return result_summary(partition)
    if version == 0:
        return result_summary(Partition(table=partition.table))
    return _change_at(partition, version, "after")["after"]


def state_at(partition: Partition, version: int, change: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's state after ``change`` (version ``version``). A change of a live table keeps
    no copy of it (the partition would hold one per move): it counts the engine's events then
    (``data["events"]``), and the state is the next one kept (or the current one) cut to that many
    events; a deal in play then reads as not yet begun."""
    if change["state"] is not None:
        return dict(change["state"])
    later = (partition.changes.filter(version__gt=version, state__isnull=False).order_by("version")
             .values_list("state", flat=True).first()) or {**(partition.state or {}), "current": None}
    count = change["data"].get("events", len(later.get("events", [])))
    return {**{k: v for k, v in later.items() if k != "snapshot"}, "events": later.get("events", [])[:count],
            "current": None}


def export_file_name(partition: Partition, version: int | None = None) -> str:
    """The name of the protocol file of ``partition`` at ``version`` (the current one if None)."""
    table = partition.table
    shown = partition.version if version is None else version
    return f"protocol-{table.tour.tournament.slug}-tour-{table.tour.number}-table-{table.number}-v{shown}.json"


def export_protocol(partition: Partition, version: int | None = None, *, viewer: AnyUser | None = None,
                    address: str | None = None) -> dict[str, Any]:
    """The partition (or one of its earlier versions) in the protocol format, with pair names. A
    table of Goat, Sea Goat or points: its sitting (:func:`export_sitting`). ``viewer``: the
    login asking; a deal in play is in the file only for whoever may see its hands
    (:func:`scoring.hands.sees_deal`), and his look is recorded; for anyone else the file ends at
    the last finished deal. None: the system itself (a backup, the tests)."""
    table = partition.table
    if table.tour.tournament.kind.sittings:
        return export_sitting(partition, version, viewer=viewer, address=address)
    shown = viewer is None or hands_.sees_deal(viewer, partition)
    game, summary = partition_at(partition, version, hands=shown)
    if viewer is not None and game.current is not None:
        _looked(viewer, partition, version, summary, len(engine.SEATS), address)
    names = {side: [str(p) for p in pair.players] for side, pair in zip("AB", table.pairs)}
    return engine.write_protocol(game, names)


def _looked(viewer: AnyUser, partition: Partition, version: int | None, summary: Mapping[str, Any], players: int,
            address: str | None) -> None:
    """``viewer`` was given every hand of the deal in play at ``version`` in an export."""
    hands_.look(viewer, partition, deal=summary.get("deals", 0) + 1,
                version=partition.version if version is None else version, seats=range(1, players + 1),
                route="export", address=address)


def unit_names(table, regulations: engine.Regulations) -> dict[str, list[str]]:
    """The players of each unit of a Goat table: the seat's player, or a pair's two partners."""
    players = table.players
    return {unit: [str(players[seat - 1]) for seat in engine.seats_of_unit(k, regulations)]
            for k, unit in enumerate(engine.units_of(regulations))}


def export_sitting(partition: Partition, version: int | None = None, *, viewer: AnyUser | None = None,
                   address: str | None = None) -> dict[str, Any]:
    """A table of Goat, Sea Goat or points (or one of its earlier versions) as a protocol file:
    ``format`` :data:`SITTING_FORMAT` and ``games``, each game begun (something recorded in it;
    a Goat game decided by a no-show has its ``no_show`` key naming the absent units) written by
    the engine in the format of PROTOCOL_FORMAT.md "Goat and Sea Goat" (with the players' names),
    which :func:`scoring.engine.score_protocol` reads back. ``viewer`` as for
    :func:`export_protocol`: the deal in play, its hands and bazaar, for whoever may see them."""
    shown = viewer is None or hands_.sees_deal(viewer, partition)
    sitting = sitting_at(partition, version, hands=shown)
    if viewer is not None and getattr(sitting.game, "current", None) is not None:
        _looked(viewer, partition, version, summary_at(partition, version), sitting.regulations.players, address)
    names = unit_names(partition.table, sitting.regulations)
    return {"format": SITTING_FORMAT,
            "games": [engine.write_protocol(game, names) for game in sitting.games if game.events]}
