"""Who sees the hands of a deal in play, and the trail of those who did (README, Security, "Who
may see a hand").

During a deal a hand is seen by its holder (the phone holding that seat of a digital table,
:func:`scoring.live.play.seats_held`); by the table's referee while he enters the hands (a
refereed table, the score sheet) or moves for a player whose seat no phone holds (a lost phone);
and by the chief referee when he acts at that table (:func:`tournaments.permissions.may_see_hands`
decides which logins). Each look of a referee or chief referee is a :class:`HandLook`. Anyone
else reads the table as it was at the end of its last finished deal (the exports and old
versions, :func:`scoring.recording.queries.export_protocol`), and a refused move names no tile of the hand
but the one sent (:meth:`scoring.engine.RulesError.concealed`).
"""

from __future__ import annotations

from typing import Any, Collection, Mapping

from django.core.exceptions import ObjectDoesNotExist

from tournaments import permissions

from scoring.models import HandLook, LiveTable, Partition, SeatHolder
from tournaments.permissions import AnyUser


def _live(partition: Partition) -> LiveTable | None:
    try:
        return partition.live
    except ObjectDoesNotExist:
        return None


def hands_entered(partition: Partition) -> bool:
    """The referee enters this table's hands: a refereed table or the score sheet (a digital
    table's hands are dealt to the phones; the referee's clock has none)."""
    live = _live(partition)
    return live is None or live.mode == LiveTable.Mode.REFEREED


def deal_in_play(partition: Partition) -> bool:
    """A deal is being played move by move at ``partition`` (at a Goat table, in its game)."""
    games = (partition.state or {}).get("games") or []
    return partition.current is not None or any(game.get("current") for game in games)


def without_deal_in_play(document: Mapping[str, Any]) -> Mapping[str, Any]:
    """A protocol file kept in a change (an import, a correction) without the deal in move form
    at its end (of its last game), which may be the deal in play: what the history shows while a
    deal is in play to whoever may not see its hands."""
    games = document.get("games")
    if isinstance(games, list) and games and isinstance(games[-1], Mapping):
        return {**document, "games": [*games[:-1], without_deal_in_play(games[-1])]}
    deals = document.get("deals")
    if isinstance(deals, list) and deals and isinstance(deals[-1], Mapping) and "hands" in deals[-1]:
        return {**document, "deals": deals[:-1]}
    return document


def sees_deal(user: AnyUser, partition: Partition) -> bool:
    """``user`` may see every hand of the deal in play at ``partition``: in the exports, its
    versions and the refusals of the moves he enters."""
    return hands_entered(partition) and permissions.may_see_hands(user, partition.table)


def moves_for(user: AnyUser, partition: Partition) -> int | None:
    """At a digital table, the seat awaited when no phone holds it, if ``user`` may move for its
    player (a lost phone): its hand is shown to him on the tablet."""
    live = _live(partition)
    if (live is None or live.mode != LiveTable.Mode.DIGITAL or live.seat is None
            or not permissions.may_see_hands(user, partition.table)):
        return None
    held = SeatHolder.objects.filter(partition=partition, seat=live.seat).exclude(token_hash="").exists()
    return None if held else live.seat


def look(user: AnyUser, partition: Partition, *, deal: int, version: int, seats: Collection[int], route: str,
         address: str | None) -> None:
    """Record that ``user`` saw the hands of ``seats`` of deal ``deal`` (the finished deals + 1)
    by ``route``; the first look per login, deal and route is kept."""
    HandLook.objects.bulk_create([HandLook(partition=partition, deal=deal, version=version, seats=sorted(seats),
                                           route=route, user=permissions.login_of(user), address=address)], ignore_conflicts=True)


def look_at_state(user: AnyUser, partition: Partition, state: dict[str, Any], *, route: str, address: str | None,
                  own: Collection[int] = ()) -> None:
    """Record the look of a live table's state (:func:`scoring.recording.state.table_state`) shown to
    ``user`` if it holds a hand of the deal in play other than the ``own`` seats his device holds."""
    shown = {int(seat) for seat in (state.get("current") or {}).get("hands") or {}} - set(own)
    if shown and user.is_authenticated:
        look(user, partition, deal=partition.deals + 1, version=partition.version, seats=shown,
             route=route, address=address)
