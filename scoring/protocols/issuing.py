"""Issuing the signed PDFs: a document is rendered, signed with the tournament's key and stored
with its SHA-256, once per state of what it certifies (asked again for the same state, the one
already issued is given back). A document is never changed: a later state makes a new one, and
the older one is then *outdated*, computed by :func:`document_state`, not stored."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from scoring.models import Partition, ProtocolDocument
from tournaments import permissions
from tournaments.models import Tour, Tournament
from tournaments.names import person_name
from tournaments.permissions import AnyUser

from scoring.protocols import rendering, signing
from scoring.protocols.sheets import (final_sheet, final_snapshot, final_summary, local, partition_query,
                                      partition_sheet, partition_snapshot, partition_summary,
                                      required_seats, tour_sheet, tour_snapshot, tour_summary)


#: Public codes: 10 characters of an alphabet without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


CODE_LENGTH = 10


CODE_RE = re.compile(rf"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "").upper()


def site_url(request=None) -> str:
    """The site's address for links printed in documents: ``PUBLIC_URL``, else the request's."""
    configured = getattr(settings, "PUBLIC_URL", "")
    if configured:
        return configured.rstrip("/")
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return "http://127.0.0.1:8000"


def verification_url(base_url: str, code: str) -> str:
    with translation.override(rendering.PDF_LANGUAGE):
        return base_url.rstrip("/") + reverse("protocol-short", args=[code])


def _issue(kind: str, tournament: Tournament, *, sheet_for, snapshot: str, lock, user: AnyUser, base_url: str,
           partition: Partition | None = None, tour: Tour | None = None, version: int | None = None,
           confirmed: bool = False, summary_of) -> ProtocolDocument:
    """Render, sign and store a document, or give back the one already issued for the same state
    (``snapshot``) with the current key. ``lock`` locks the target's row."""
    key = signing.current_key(tournament)
    assert key is not None  # current_key makes one when there is none
    same = ProtocolDocument.objects.filter(kind=kind, tournament=tournament, partition=partition, tour=tour,
                                           snapshot=snapshot, signing_key=key).defer("pdf")
    existing = same.first()
    if existing is not None:
        return existing
    code = new_code()
    with translation.override(rendering.PDF_LANGUAGE):
        sheet = sheet_for()
        now = timezone.now()
        document = {"code": code, "url": verification_url(base_url, code), "issued_at": local(now),
                    "issued_by": person_name(user if isinstance(user, User) else None), "key": key, "version": version}
        document["qr"] = rendering.qr_svg(document["url"])
        pdf = rendering.render_pdf(rendering.render_html(sheet, document=document, pdf=True))
        summary = summary_of(sheet)
    signed = signing.sign_pdf(pdf, key, code=code, location=tournament.venue,
                              name=key.subject.split(",")[0].removeprefix("CN="))
    with transaction.atomic():
        lock()
        existing = same.first()
        if existing is not None:  # issued by another process meanwhile
            return existing
        if version is None:
            version = ProtocolDocument.objects.filter(kind=kind, tournament=tournament, tour=tour).count() + 1
        try:
            with transaction.atomic():
                return ProtocolDocument.objects.create(
                    kind=kind, tournament=tournament, tour=tour, partition=partition, version=version,
                    snapshot=snapshot, confirmed=confirmed, code=code, sha256=hashlib.sha256(signed).hexdigest(),
                    pdf=signed, size=len(signed), signing_key=key, summary=summary,
                    created_by=user if isinstance(user, User) else None)
        except IntegrityError:
            raise ValidationError(_("Two documents got the same code: issue it again.")) from None


def issue_current(partition: Partition, user: AnyUser, base_url: str) -> ProtocolDocument:
    partition = partition_query().get(pk=partition.pk)
    version = partition.version
    seats = list(partition.confirmations.filter(version=version).values_list("seat", flat=True))
    confirmed = partition.is_finished and set(required_seats(partition)) <= set(seats)
    return _issue(
        ProtocolDocument.Kind.PARTITION, partition.table.tour.tournament,
        sheet_for=lambda: partition_sheet(partition, version), snapshot=partition_snapshot(partition, version, seats),
        lock=lambda: Partition.objects.select_for_update().filter(pk=partition.pk).first(), user=user,
        base_url=base_url, partition=partition, tour=partition.table.tour, version=version, confirmed=confirmed,
        summary_of=partition_summary)


def issue_partition_protocol(user: AnyUser, partition_id: int, *, base_url: str) -> ProtocolDocument:
    """The signed PDF of a partition's current version: the one already issued for this state,
    or a new one. The table's referee, a chief referee or an organiser may issue it; a protocol
    not yet confirmed by all says so on its face."""
    partition = partition_query().get(pk=partition_id)
    if not permissions.can_referee(user, partition.table):
        raise PermissionDenied(_("Only the referee of this table, a chief referee or an organiser may issue its "
                                 "protocol."))
    if partition.table.tour.status == Tour.Status.DRAFT:
        raise ValidationError(_("The tour is not published yet."))
    return issue_current(partition, user, base_url)


def issue_tour_protocol(user: AnyUser, tour_id: int, *, base_url: str) -> ProtocolDocument:
    """The signed tour protocol (every table's result, the standings after the tour): a chief
    referee or an organiser issues it."""
    tour = Tour.objects.select_related("tournament").get(pk=tour_id)
    if not permissions.can_referee_all(user, tour.tournament):
        raise PermissionDenied(_("Only a chief referee or an organiser may issue the tour protocol."))
    if tour.status == Tour.Status.DRAFT:
        raise ValidationError(_("The tour is not published yet."))
    return _issue(ProtocolDocument.Kind.TOUR, tour.tournament, sheet_for=lambda: tour_sheet(tour),
                  snapshot=tour_snapshot(tour), lock=lambda: Tour.objects.select_for_update().filter(pk=tour.pk).first(),
                  user=user, base_url=base_url, tour=tour, summary_of=tour_summary)


def issue_final_protocol(user: AnyUser, tournament_id: int, *, base_url: str) -> ProtocolDocument:
    """The signed final protocol (the final standings with every tiebreak column): a chief
    referee or an organiser issues it."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if not permissions.can_referee_all(user, tournament):
        raise PermissionDenied(_("Only a chief referee or an organiser may issue the final protocol."))
    if not tournament.tours.exclude(status=Tour.Status.DRAFT).exists():
        raise ValidationError(_("No tour is published yet."))
    return _issue(ProtocolDocument.Kind.FINAL, tournament, sheet_for=lambda: final_sheet(tournament),
                  snapshot=final_snapshot(tournament),
                  lock=lambda: Tournament.objects.select_for_update().filter(pk=tournament.pk).first(),
                  user=user, base_url=base_url, summary_of=final_summary)


def documents_of(*, partition: Partition | None = None, tour: Tour | None = None,
                 tournament: Tournament | None = None):
    """Issued documents of a partition, of a tour (its tour protocols) or the final protocols of
    a tournament, newest first, without their bytes."""
    documents = ProtocolDocument.objects.defer("pdf").select_related("signing_key", "created_by")
    if partition is not None:
        return documents.filter(kind=ProtocolDocument.Kind.PARTITION, partition=partition)
    if tour is not None:
        return documents.filter(kind=ProtocolDocument.Kind.TOUR, tour=tour)
    return documents.filter(kind=ProtocolDocument.Kind.FINAL, tournament=tournament)


@dataclass
class DocumentState:
    outdated: bool
    newest: ProtocolDocument | None  # the newest document of the same protocol, when not this one
    reason: str = ""


def document_state(document: ProtocolDocument) -> DocumentState:
    """Whether ``document`` is still the protocol's current document: it is outdated when a
    newer document of the same protocol was issued, or the protocol's record changed since."""
    if document.kind == ProtocolDocument.Kind.PARTITION:
        siblings = documents_of(partition=document.partition)
    elif document.kind == ProtocolDocument.Kind.TOUR:
        siblings = documents_of(tour=document.tour)
    else:
        siblings = documents_of(tournament=document.tournament)
    newest = siblings.first()
    if newest is not None and newest.pk != document.pk:
        return DocumentState(True, newest, _("A newer document of this protocol was issued on %(date)s.") % {
            "date": local(newest.created_at).strftime("%d.%m.%Y %H:%M")})
    if document.kind == ProtocolDocument.Kind.PARTITION:
        partition = document.partition
        assert partition is not None  # the kind says which of partition and tour is set
        if partition.version != document.version:
            return DocumentState(True, None, _("The partition was corrected after this document was issued: it is "
                                               "now at version %(version)s.") % {"version": partition.version})
    elif document.kind == ProtocolDocument.Kind.TOUR:
        assert document.tour is not None
        if tour_snapshot(document.tour) != document.snapshot:
            return DocumentState(True, None, _("The results of the tour changed after this document was issued."))
    elif final_snapshot(document.tournament) != document.snapshot:
        return DocumentState(True, None, _("The results of the tournament changed after this document was issued."))
    return DocumentState(False, None)
