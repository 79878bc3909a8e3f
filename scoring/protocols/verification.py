"""Verifying a protocol: by its public code (the QR code's link), or a PDF file byte for byte and
by its signatures: genuine, genuine but outdated, tampered, signed by another key, or unknown."""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import engine, labels
from scoring.models import ProtocolDocument, VerificationCount

from scoring.protocols import signing
from scoring.protocols.issuing import CODE_RE, DocumentState, document_state, normalise_code
from scoring.protocols.sheets import local


class Status:
    GENUINE = "genuine"
    GENUINE_OUTDATED = "genuine_outdated"
    TAMPERED = "tampered"
    UNKNOWN = "unknown_document"
    OTHER_KEY = "other_key"


STATUS_MESSAGES = {
    Status.GENUINE: gettext_lazy("Genuine: this is the document the system issued, unchanged, and it is the current "
                                 "version of this protocol."),
    Status.GENUINE_OUTDATED: gettext_lazy("Genuine but outdated: the system issued this document and it is "
                                          "unchanged, but it is no longer the current version of this protocol."),
    Status.TAMPERED: gettext_lazy("Not genuine: this file was changed after the system signed it."),
    Status.UNKNOWN: gettext_lazy("Unknown: the system did not issue this document."),
    Status.OTHER_KEY: gettext_lazy("Not genuine: this file is signed, but not with a key of this system."),
}


@dataclass
class Verification:
    status: str
    document: ProtocolDocument | None = None
    state: DocumentState | None = None
    sha256: str = ""
    signature: signing.SignatureCheck | None = None
    details: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        return str(STATUS_MESSAGES[self.status])

    @property
    def genuine(self) -> bool:
        return self.status in (Status.GENUINE, Status.GENUINE_OUTDATED)

    def as_dict(self) -> dict[str, Any]:
        doc = self.document
        return {
            "status": self.status, "message": self.message, "details": list(self.details), "sha256": self.sha256,
            "document": None if doc is None else {
                "code": doc.code, "kind": doc.kind, "version": doc.version, "issued_at": doc.created_at.isoformat(),
                "sha256": doc.sha256, "summary": doc.summary, "tournament": doc.tournament.slug},
            "newest": self.state.newest.code if self.state and self.state.newest else None,
            "signature": None if self.signature is None else {
                "subject": self.signature.subject, "fingerprint": self.signature.fingerprint,
                "signed_at": self.signature.signed_at.isoformat() if self.signature.signed_at else None,
                "valid": self.signature.ok},
        }


def _genuine(document: ProtocolDocument, sha: str = "", signature=None, details=None) -> Verification:
    state = document_state(document)
    details = list(details or [])
    if state.reason:
        details.append(state.reason)
    return Verification(Status.GENUINE_OUTDATED if state.outdated else Status.GENUINE, document, state, sha,
                        signature, details)


def verify_code(code: str) -> Verification:
    """What the document with public ``code`` certifies, and whether it is still current."""
    code = normalise_code(code)
    document = (ProtocolDocument.objects.defer("pdf").select_related("tournament", "partition", "tour")
                .filter(code=code).first()) if CODE_RE.match(code) else None
    if document is None:
        return Verification(Status.UNKNOWN, details=[_("No document has the code %(code)s.") % {"code": code[:20]}])
    return _genuine(document)


class TooMany(ValidationError):
    """More PDFs from one address this minute than ``VERIFY_PER_ADDRESS_PER_MINUTE``."""


def _count(address: str) -> None:
    """Count a PDF sent from ``address``; :class:`TooMany` past the limit of the minute. One
    conditional UPDATE counts, so parallel requests never go past the limit."""
    minute = timezone.now().replace(second=0, microsecond=0)
    limit = settings.VERIFY_PER_ADDRESS_PER_MINUTE
    with transaction.atomic():
        VerificationCount.objects.filter(minute__lt=minute).delete()
        VerificationCount.objects.bulk_create([VerificationCount(address=address, minute=minute)],
                                              ignore_conflicts=True)
        counted = VerificationCount.objects.filter(address=address, minute=minute, count__lt=limit).update(
            count=F("count") + 1)
    if not counted:
        raise TooMany(_("Too many files verified from your address: at most %(limit)s a minute. Try again in a "
                        "minute.") % {"limit": limit}, code="rate")


def verify_pdf(data: bytes, *, address: str | None = None) -> Verification:
    """Whether ``data`` is a protocol PDF this system issued, unchanged, and current.

    Byte-identical to an issued document (its SHA-256 is stored): genuine, or genuine but
    outdated. Otherwise the signatures are read: none of the system's keys signed it — signed by
    another key, or unknown when unsigned; one of them did, but the file differs from what was
    issued (the signed bytes changed, or something was added after signing) — tampered. A file
    too damaged to read is tampered when it names an issued document's code, else unknown.

    Sent from ``address`` (the page), it counts toward that address's limit (:class:`TooMany`).
    A file that declares more than it can hold, or whose reading goes past the limits, is not
    judged: :class:`~.signing.Unverifiable`."""
    if address is not None:
        _count(address)
    sha = hashlib.sha256(data).hexdigest()
    document = (ProtocolDocument.objects.defer("pdf").select_related("tournament", "partition", "tour",
                                                                      "signing_key")
                .filter(sha256=sha).first())
    report = signing.inspect_signatures(data, tournament_id=document.tournament_id if document else None)
    ours = [s for s in report.signatures if s.key is not None]
    if document is not None:
        signature = next((s for s in ours if s.key is not None and s.key.pk == document.signing_key_id),
                         ours[0] if ours else None)
        return _genuine(document, sha, signature, [_("The file is byte for byte the one the system issued.")])
    claimed = signing.claimed_code(data)
    claimed_document = (ProtocolDocument.objects.defer("pdf").select_related("tournament")
                        .filter(code=claimed).first() if claimed else None)
    details = []
    if claimed_document is not None:
        details.append(_("It claims to be document %(code)s, but its bytes differ from that document's.")
                       % {"code": claimed_document.code})
    if not report.readable:
        details.append(_("The file cannot be read as a signed PDF."))
        return Verification(Status.TAMPERED if claimed_document else Status.UNKNOWN, claimed_document, None, sha,
                            None, details)
    if ours:
        signature = ours[0]
        if not signature.intact or not signature.valid:
            details.append(_("The signed content does not match its signature."))
        elif not signature.covers_whole_file:
            details.append(_("Something was added to the file after it was signed."))
        elif not signature.trusted:
            details.append(_("The signing certificate does not check out."))
        else:
            details.append(_("It is signed with a key of this system, but the system has no record of issuing it."))
        return Verification(Status.TAMPERED if (claimed_document or not signature.ok) else Status.UNKNOWN,
                            claimed_document or None, None, sha, signature, details)
    if report.signatures:
        signature = report.signatures[0]
        details.append(_("Signed by: %(subject)s.") % {"subject": signature.subject})
        return Verification(Status.OTHER_KEY, claimed_document, None, sha, signature, details)
    details.append(_("The file has no signature."))
    return Verification(Status.TAMPERED if claimed_document else Status.UNKNOWN, claimed_document, None, sha, None,
                        details)


def describe(document: ProtocolDocument) -> list[tuple[str, str]]:
    """What a document certifies, as labelled lines for the verification page (from its summary,
    as issued)."""
    s = document.summary or {}
    lines = [(_("Document"), f"{document.get_kind_display()} · {document.code}"),
             (_("Tournament"), s.get("tournament", document.tournament.name))]
    if document.kind == ProtocolDocument.Kind.PARTITION:
        lines.append((_("Tour and table"), _("tour %(tour)s, table %(table)s") % {"tour": s.get("tour"),
                                                                                  "table": s.get("table")}))
        if "players" in s and engine.kind_of(s).by_hand:  # a points game (sheets._sitting_summary)
            lines += [(_("seat %(seat)s") % {"seat": p["seat"]},
                       _("%(name)s: %(won)s games won, %(score)s points") % {
                           "name": p["name"], "won": p["games_won"], "score": p["score"]})
                      for p in s["players"]]
        elif "players" in s:  # a Goat table (sheets._sitting_summary): what each player took
            lines += [(_("seat %(seat)s") % {"seat": p["seat"]},
                       _("%(name)s: %(points)s game points, %(goats)s goats, score %(score)s") % {
                           "name": p["name"], "points": p["game_points"], "goats": p["goats"], "score": p["score"]})
                      for p in s["players"]]
        else:
            pairs, numbers, points = s.get("pairs", {}), s.get("numbers", {}), s.get("points", [0, 0])
            winner = s.get("winner")
            lines += [
                (_("Pair A"), f"№{numbers.get('A', '')} " + ", ".join(pairs.get("A", []))),
                (_("Pair B"), f"№{numbers.get('B', '')} " + ", ".join(pairs.get("B", []))),
                (_("Final score"), f"A {points[0]} : {points[1]} B"),
                (_("Winner"), (_("pair A") if winner == "A" else _("pair B") if winner == "B" else "—")
                 + (f" · {labels.REASONS.get(s['reason'], s['reason'])}" if s.get("reason") else "")),
            ]
        lines += [
            (_("Deals"), str(s.get("deals", ""))),
            (_("Version of the record"), str(document.version)),
            (_("Referee"), s.get("referee") or "—"),
            (_("Confirmed by all"), _("yes") if s.get("confirmed") else _("no")),
        ]
        for c in s.get("confirmations", []):
            who = _("referee") if c["seat"] == 0 else _("seat %(seat)s") % {"seat": c["seat"]}
            at = timezone.localtime(datetime.datetime.fromisoformat(c["at"])).strftime("%d.%m.%Y %H:%M:%S")
            method = _("PIN on the referee's device") if c["method"] == "pin" else _("own account")
            lines.append((_("Confirmed"), f"{who}: {c['name']}, {at}, {method}"))
    elif document.kind == ProtocolDocument.Kind.TOUR:
        lines += [(_("Tour"), str(s.get("tour", ""))),
                  (_("Tables finished"), f"{s.get('finished', '')} / {s.get('tables', '')}"),
                  (_("First after the tour"), s.get("leader") or "—")]
    else:
        lines += [(_("Tours"), str(s.get("tours", ""))), (_("Entrants"), str(s.get("entrants", ""))),
                  (_("First place"), s.get("leader") or "—")]
    lines += [(_("Issued"), local(document.created_at).strftime("%d.%m.%Y %H:%M")),
              (_("SHA-256 of the issued file"), document.sha256)]
    return lines
