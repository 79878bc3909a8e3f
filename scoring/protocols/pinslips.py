"""PIN slips: the organiser gives every entrant without a PIN (or, on a reprint, every entrant) a
new random PIN and prints it, one slip a player, with a one-time link where the player, typing
the printed PIN, chooses his own. PINs are stored hashed, so the slips are the only copy: a
reprint makes new PINs. Each PIN given is in the audit trail (:class:`~tournaments.models.PinChange`)."""

from __future__ import annotations

import datetime
import hashlib
import os
import secrets
import string
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.recording import clock
from tournaments import permissions, pins
from tournaments.models import Entry, PinChange, PinLink, Player, Tournament

from scoring.protocols import rendering
from scoring.protocols.confirmations import PIN_RE
from tournaments.permissions import AnyUser

#: The digits of a printed PIN: more than the 4 a player may choose, since it is given on paper.
PRINTED_DIGITS = 6
#: A slip link's secret: letters and digits only (190 bits), since the link is also read off the
#: paper, where a line broken after a "-" reads as a hyphenated word and the "-" gets dropped.
SECRET_ALPHABET = string.ascii_letters + string.digits
SECRET_LENGTH = 32


@dataclass
class Slips:
    pdf: bytes
    players: list[Player]  # each given a new PIN, on one slip, in the order printed
    skipped: list[Player]  # entrants whose PIN this login may not set (they set their own)


def _new_secret() -> str:
    return "".join(secrets.choice(SECRET_ALPHABET) for _char in range(SECRET_LENGTH))


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _link_url(base_url: str, secret: str) -> str:
    with translation.override(rendering.PDF_LANGUAGE):
        return base_url.rstrip("/") + reverse("pin-choose", args=[secret])


def print_slips(user: AnyUser, tournament_id: int, *, renew: bool = False, base_url: str,
                address: str | None = None) -> Slips:
    """New PINs for the tournament's entrants (not withdrawn) without one, or for all of them
    with ``renew`` (their old PINs stop working), and the PDF of their slips. Only an organiser
    of the tournament; an entrant whose PIN he may not set
    (:func:`tournaments.permissions.can_set_pin`) is skipped and named."""
    tournament = Tournament.objects.get(pk=tournament_id)
    permissions.require_manage(user, tournament)
    entrants = [e.player for e in Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                .select_related("player")]
    wanted = [p for p in entrants if renew or not p.pin]
    skipped = [p for p in wanted if not permissions.can_set_pin(user, p)]
    chosen = {p.pk for p in wanted} - {p.pk for p in skipped}
    if not chosen:
        raise ValidationError(_("No PIN to generate: every entrant has one, or sets his own.") if not skipped else
                              _("No PIN to generate: these entrants set their own PINs: %(players)s.")
                              % {"players": ", ".join(map(str, skipped))})
    # Hashed before the transaction (a hasher is slow by design), so the rows are locked briefly;
    # in threads, one a core: PBKDF2 (hashlib) releases the GIL, and a few hundred entrants would
    # otherwise keep the organiser waiting a minute or more.
    printed = {pk: "".join(secrets.choice("0123456789") for _digit in range(PRINTED_DIGITS)) for pk in chosen}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        hashes = dict(zip(printed, pool.map(make_password, printed.values())))
    fresh = {pk: (pin, hashes[pk], _new_secret()) for pk, pin in printed.items()}
    expires = datetime.timedelta(days=settings.PIN_LINK_DAYS)
    with transaction.atomic():
        permissions.require_manage(user, tournament)
        now = clock.now()
        slips: list[dict[str, Any]] = []
        for player in Player.objects.select_for_update().filter(pk__in=chosen).order_by("pk"):
            if not permissions.can_set_pin(user, player) or (player.pin and not renew):
                continue  # changed since it was read: his own PIN now, or another organiser's entrant
            pin, hashed, secret = fresh[player.pk]
            pins.store(player, hashed, how=PinChange.How.SLIP, by=user, address=address, now=now)
            PinLink.objects.create(player=player, secret_hash=_digest(secret), expires_at=now + expires)
            url = _link_url(base_url, secret)
            slips.append({"player": player, "pin": pin, "url": url, "qr": rendering.qr_svg(url, scale=2)})
        order = {p.pk: i for i, p in enumerate(entrants)}
        slips.sort(key=lambda slip: order[slip["player"].pk])
        with translation.override(rendering.PDF_LANGUAGE):
            html = render_to_string("protocols/pin_slips.html", {
                "tournament": tournament, "slips": slips, "font_dir": rendering.FONT_DIR.as_uri(),
                "expires": now + expires})
        # Rendered inside the transaction: the slips are the only copy of the PINs, so without
        # them no PIN is changed.
        pdf = rendering.render_pdf(html)
    return Slips(pdf=pdf, players=[slip["player"] for slip in slips], skipped=skipped)


def _link(secret: str, now: datetime.datetime):
    return PinLink.objects.filter(secret_hash=_digest(secret or ""), expires_at__gt=now).first()


def slip_player(secret: str) -> Player | None:
    """The player of a slip's link still valid (unused, not expired), else None."""
    link = _link(secret, clock.now())
    return None if link is None else Player.objects.get(pk=link.player_id)


def choose_pin(secret: str, printed: str, pin: str, again: str, *, address: str | None) -> Player:
    """The player of a slip's link chooses his own PIN, typing the printed one: the link then
    stops working. A wrong printed PIN is counted by :mod:`tournaments.pins` (per link and per
    ``address``) and refused."""
    pin = (pin or "").strip()
    if not PIN_RE.match(pin):
        raise ValidationError(_("A PIN is 4 to 8 digits."))
    if pin != (again or "").strip():
        raise ValidationError(_("The two PINs differ."))
    gone = ValidationError(_("This link has been used or has expired: ask the organiser for a new PIN slip."))
    now = clock.now()
    link = _link(secret, now)
    if link is None:
        raise gone
    hashed = make_password(pin)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=link.player_id)  # the player's row first, as pins does
        if not PinLink.objects.filter(pk=link.pk, expires_at__gt=now).exists():
            raise gone  # used meanwhile
        refusal = pins.check(player, (printed or "").strip(), device="slip:" + link.secret_hash, address=address,
                             now=now)
        if refusal is None:
            pins.store(player, hashed, how=PinChange.How.CHOSEN, by=None, address=address, now=now)
    if refusal is not None:  # raised after the commit: the wrong PIN stays counted
        raise ValidationError(refusal)
    return player
