"""Confirming a partition's protocol at the table: each player with his PIN on the referee's
device (or from his own account), then the referee; the last confirmation issues the signed PDF.
PINs are set here too."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.contrib.auth.hashers import make_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Confirmation, Partition
from scoring.recording import clock
from tournaments import permissions, pins
from tournaments.models import PinChange, Player, Tour

from scoring.protocols.issuing import issue_current, site_url
from scoring.protocols.sheets import partition_query, required_seats
from tournaments.permissions import AnyUser

log = logging.getLogger(__name__)


PIN_RE = re.compile(r"^[0-9]{4,8}$")


def confirm(user: AnyUser, partition_id: int, seat: int, *, pin: str | None = None, version: int | None = None,
            base_url: str | None = None, address: str | None = None) -> Confirmation:
    """Confirm the current version of a finished partition's protocol for ``seat`` (1-4, or 0 for
    the referee). A player confirms with his ``pin`` on the device of the table's referee, or
    from his own account (no PIN); the referee (or a chief referee or an organiser in his place)
    from his login. ``version`` is the version the signer read: a protocol changed since is
    refused. Confirming twice is harmless. When the last signer confirms, the signed PDF is
    issued (with ``base_url``, the site's address for its link). A PIN is checked by
    :mod:`tournaments.pins`, counted per (player, the referee's login) and per (player,
    ``address``)."""
    try:
        seat = int(seat)
    except (TypeError, ValueError):
        raise ValidationError(_("A seat is 1 to 4, or 0 for the referee.")) from None
    if seat not in (0, 1, 2, 3, 4):
        raise ValidationError(_("A seat is 1 to 4, or 0 for the referee."))
    pin = (pin or "").strip() or None
    refusal = None
    with transaction.atomic():
        partition = partition_query().select_for_update(of=("self",)).get(pk=partition_id)
        table = partition.table
        if seat > len(table.players):
            raise ValidationError(_("A seat is 1 to %(seats)s, or 0 for the referee.") % {"seats": len(table.players)})
        player = None if seat == Confirmation.REFEREE else table.players[seat - 1]
        if not permissions.can_confirm(user, table, seat, with_pin=pin is not None):
            if seat == Confirmation.REFEREE:
                raise PermissionDenied(_("Only the referee of this table (or a chief referee) confirms as its "
                                         "referee."))
            if pin is not None:
                raise PermissionDenied(_("A player types his PIN on the device of the table's referee."))
            raise PermissionDenied(_("Only %(player)s confirms seat %(seat)s: from his own account, or with "
                                     "his PIN on the referee's device.") % {"player": player, "seat": seat})
        method = Confirmation.Method.PIN if player is not None and pin is not None else Confirmation.Method.ACCOUNT
        if not partition.is_finished:
            raise ValidationError(_("The partition is not finished: only a finished partition's protocol is "
                                    "confirmed."))
        if table.tour.status == Tour.Status.DRAFT:
            raise ValidationError(_("The tour is not published yet."))
        if version is not None and int(version) != partition.version:
            raise ValidationError(_("The protocol changed since you read it (it is now version %(version)s): read it "
                                    "again, then confirm.") % {"version": partition.version})
        needed = required_seats(partition)
        if seat not in needed:
            raise ValidationError(_("Seat %(seat)s was absent (no-show): it does not confirm.") % {"seat": seat})
        existing = partition.confirmations.filter(version=partition.version, seat=seat).first()
        if existing is not None:
            return existing
        if method == Confirmation.Method.PIN:
            refusal = pins.check(player, pin, device=f"login:{user.pk}", address=address,  # type: ignore[arg-type]
                                 now=timezone.now())
        if refusal is None:
            confirmation = Confirmation.objects.create(
                partition=partition, version=partition.version, seat=seat, player=player, method=method,
                user=user if user.is_authenticated else None)
            done = set(partition.confirmations.filter(version=partition.version).values_list("seat", flat=True))
            complete = set(needed) <= done
    if refusal is not None:  # raised after the commit: the wrong PIN stays counted
        raise ValidationError(refusal)
    if complete:
        try:
            issue_current(partition, user, base_url or site_url())
        except Exception:  # noqa: BLE001 - the confirmations stand; the PDF can be issued again on demand
            log.exception("issuing the protocol of partition %s failed", partition.pk)
    return confirmation


def confirmation_state(partition: Partition) -> dict[str, Any]:
    """For the confirmation page: the current version, who must confirm, who did."""
    finished = partition.is_finished
    needed = (required_seats(partition) if finished or partition.table.tour.tournament.kind.sittings
              else [1, 2, 3, 4, Confirmation.REFEREE])
    done = {c.seat: c for c in partition.confirmations.filter(version=partition.version).select_related("user")}
    return {"version": partition.version, "needed": needed, "done": done, "finished": finished,
            "complete": finished and all(s in done for s in needed)}


def set_pin(user: AnyUser, player_id: int, pin: str, *, address: str | None = None) -> Player:
    """Set the PIN (4 to 8 digits) with which a player confirms protocols on the referee's
    device, as :func:`tournaments.permissions.can_set_pin` allows (a lost PIN is reset so at the
    table), recorded in the PIN audit trail with who and from ``address``. A new PIN ends every
    lock of the old one."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        permissions.require_set_pin(user, player)
        pin = (pin or "").strip()
        if not PIN_RE.match(pin):
            raise ValidationError(_("A PIN is 4 to 8 digits."))
        pins.store(player, make_password(pin), how=PinChange.How.SET, by=user, address=address, now=clock.now())
    return player
