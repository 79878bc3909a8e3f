"""The one PIN limiter: a PIN typed for a player, on a phone taking his seat or on the referee's
device confirming a protocol, is checked here and counted when wrong.

Wrong PINs are counted per (player, device) and per (player, address), so that a stranger locks
only his own device and address: ``PIN_FAILURE_LIMIT`` of either lock it for ``PIN_LOCK_MINUTES``.
A device's id costs nothing to change (a phone's cookie), an address does, so the address bounds
a guesser who throws his ids away. From ``PIN_PLAYER_ALERT_LIMIT`` wrong PINs for one player in an
hour, from anywhere (a guesser with many addresses), every further try for him waits
``PIN_SLOW_SECONDS`` after the previous one and his tables' referees see the alert. The referee's
release of the player's seat and a new PIN lift all of it. Counted in
:class:`~tournaments.models.PinFailures` under row locks, taken in one order (the player's row
first), so parallel tries wait for one another and never pass a limit.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
from collections.abc import Collection

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.db.models import Q
from django.utils.translation import gettext as _

from .models import PinChange, PinFailures, PinLink, Player

log = logging.getLogger(__name__)

HOUR = datetime.timedelta(hours=1)
PLAYER = ""  # the key of the player's row: his wrong PINs from anywhere


def _keys(device: str | None, address: str | None) -> list[str]:
    keys = [PLAYER]
    if device:  # hashed: the id is the phone's cookie, not to be read back from the database
        keys.append("device:" + hashlib.sha256(device.encode()).hexdigest()[:64])
    if address:
        keys.append(f"address:{address}")
    return keys


def check(player: Player, pin: str, *, device: str | None, address: str | None,
          now: datetime.datetime) -> str | None:
    """Check ``pin`` typed for ``player`` on ``device`` (any text naming it: a login, a phone's
    id; None: unknown) from ``address``: None when right, else the refusal. The caller holds the
    transaction and commits the count even when it refuses."""
    keys = _keys(device, address)
    PinFailures.objects.bulk_create([PinFailures(player=player, key=key) for key in keys], ignore_conflicts=True)
    rows = list(PinFailures.objects.select_for_update().filter(player=player, key__in=keys).order_by("key"))
    whole = rows.pop(0)  # "" sorts first
    lock = datetime.timedelta(minutes=settings.PIN_LOCK_MINUTES)
    for row in rows:
        if row.locked_until is not None and row.locked_until > now:
            return _("Too many wrong PINs for %(player)s from here: wait %(minutes)s minutes, or ask the "
                     "referee.") % {
                "player": player, "minutes": settings.PIN_LOCK_MINUTES}
        if row.locked_until is not None or (row.last_failure_at is not None and row.last_failure_at <= now - lock):
            row.failures, row.locked_until = 0, None  # the lock is over, or the mistakes are old
    if whole.since is not None and whole.since <= now - HOUR:
        whole.failures, whole.since, whole.locked_until = 0, None, None  # a new hour
    if whole.locked_until is not None and whole.locked_until > now:
        return _("Too many wrong PINs for %(player)s in the last hour: one try every %(seconds)s seconds, try again "
                 "in %(wait)s seconds. The referee has been told.") % {
            "player": player, "seconds": settings.PIN_SLOW_SECONDS,
            "wait": max(1, int((whole.locked_until - now).total_seconds() + 0.999))}
    if not player.pin:
        return _("%(player)s has no PIN yet: he sets one in his account, or an organiser sets it for him.") % {
            "player": player}
    fields = ["failures", "since", "last_failure_at", "locked_until"]
    if check_password(pin, player.pin):
        for row in rows:  # the player's hour stays counted: a right PIN does not stop a guesser elsewhere
            if row.failures:
                row.failures, row.last_failure_at = 0, None
                row.save(update_fields=fields)
        return None
    for row in rows:
        row.failures += 1
        row.last_failure_at = now
        if row.failures >= settings.PIN_FAILURE_LIMIT:
            row.locked_until = now + lock
        row.save(update_fields=fields)
    whole.failures += 1
    whole.since = whole.since or now
    whole.last_failure_at = now
    if whole.failures >= settings.PIN_PLAYER_ALERT_LIMIT:
        whole.locked_until = now + datetime.timedelta(seconds=settings.PIN_SLOW_SECONDS)
        if whole.failures == settings.PIN_PLAYER_ALERT_LIMIT:
            log.warning("%s wrong PINs for player %s within an hour: his tries are slowed", whole.failures,
                        player.pk)
    whole.save(update_fields=fields)
    left = settings.PIN_FAILURE_LIMIT - max((row.failures for row in rows), default=0)
    return _("Wrong PIN for %(player)s (%(left)s attempts left).") % {"player": player, "left": max(left, 0)}


def lift(player: Player | int) -> int:
    """Lift every lock and count of a player's PIN (the referee released his seat, or a new PIN
    was set): how many rows there were."""
    deleted, _by_model = PinFailures.objects.filter(player=player).delete()
    return deleted


def store(player: Player, hashed: str, *, how: str, by, address: str | None, now: datetime.datetime) -> None:
    """Give ``player`` (his row locked by the caller's transaction) the PIN hashed as ``hashed``,
    recorded in the audit trail (:class:`~tournaments.models.PinChange`) as ``how``, by the login
    ``by`` (None: the player through his slip's link). The old PIN's locks are lifted and his
    slips' links voided: their printed PIN is no longer his."""
    player.pin = hashed
    player.save(update_fields=["pin"])
    lift(player)
    PinLink.objects.filter(player=player).delete()
    PinChange.objects.create(player=player, how=how, by=by if by is not None and by.is_authenticated else None,
                             address=address, at=now)


def alerts(players: Collection[int], now: datetime.datetime) -> dict[int, int]:
    """Of ``players`` (ids), those with ``PIN_PLAYER_ALERT_LIMIT`` or more wrong PINs in the last
    hour, each with how many: what their tables' referees are shown."""
    return dict(PinFailures.objects.filter(
        player__in=players, key=PLAYER, since__gt=now - HOUR, failures__gte=settings.PIN_PLAYER_ALERT_LIMIT,
    ).values_list("player", "failures"))


def locked(players: Collection[int], now: datetime.datetime) -> set[int]:
    """Of ``players`` (ids), those refused somewhere now (a device, an address, or slowed), or
    past the alert: the referee's release lifts it."""
    rows = PinFailures.objects.filter(player__in=players).filter(Q(locked_until__gt=now) | Q(
        key=PLAYER, since__gt=now - HOUR, failures__gte=settings.PIN_PLAYER_ALERT_LIMIT))
    return set(rows.values_list("player", flat=True))
