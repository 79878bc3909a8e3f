"""Pages of the protocols: print views, signed PDFs, confirmation at the table, the protocols of
a whole tour (Celery, with progress and a ZIP), the tournament's signing key, a player's PIN,
and the public verification of a document. Thin: each calls one service of
the :mod:`scoring.protocols` modules, which checks permissions itself.
"""

from __future__ import annotations


from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.models import Confirmation, Partition, ProtocolBatch, ProtocolDocument, SigningKey
from tournaments import permissions
from tournaments.models import Entry, PinChange, Player, Table, Tour, Tournament
from tournaments.pages import organiser_page, staff_page
from tournaments.web.uploads import upload_limit

from scoring.protocols import (archive, batches, confirmations, issuing, paper, pinslips, rendering, sheets, signing,
                               verification)


def _refused(request, error: ValidationError | PermissionDenied) -> None:
    for message in getattr(error, "messages", None) or [str(error)]:
        messages.error(request, message)


def _pdf_response(document: ProtocolDocument, *, download: bool = False) -> HttpResponse:
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    name = _file_name(document)
    response["Content-Disposition"] = f'{"attachment" if download else "inline"}; filename="{name}"'
    response["Content-Length"] = str(document.size)
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _file_name(document: ProtocolDocument) -> str:
    slug = document.tournament.slug
    if document.kind == ProtocolDocument.Kind.PARTITION:
        assert document.partition is not None  # the kind says which of the two is set
        table = document.partition.table
        return f"{slug}-tour-{table.tour.number}-table-{table.number}-v{document.version}-{document.code}.pdf"
    if document.kind == ProtocolDocument.Kind.TOUR:
        assert document.tour is not None
        return f"{slug}-tour-{document.tour.number}-protocol-{document.version}-{document.code}.pdf"
    return f"{slug}-final-protocol-{document.version}-{document.code}.pdf"


def _documents_with_state(queryset) -> list[dict]:
    items = list(queryset)
    newest = items[0].pk if items else None
    rows = []
    for document in items:
        state = issuing.document_state(document) if document.pk == newest else issuing.DocumentState(True, None)
        rows.append({"document": document, "outdated": state.outdated, "reason": state.reason})
    return rows


def _table(slug: str, number: int, table: int) -> Table:
    found = get_object_or_404(
        Table.objects.select_related("tour__tournament", "partition", "referee", "pair_a", "pair_b", "seat1",
                                     "seat2", "seat3", "seat4"),
        tour__tournament__slug=slug, tour__number=number, number=table)
    return found


# -- a partition's protocol -------------------------------------------------------------------


@login_required
def partition_protocol(request, slug: str, number: int, table: int):
    """The print view of a partition's protocol (``?version=N`` for an earlier version), with its
    issued documents and what can be done next."""
    table = _table(slug, number, table)
    permissions.require_read_partition_protocol(request.user, table)
    partition = table.partition
    version = request.GET.get("version")
    try:
        version = int(version) if version not in (None, "") else None
        sheet = sheets.partition_sheet(partition, version)
    except (ValueError, ValidationError):
        raise Http404(_("There is no such version.")) from None
    return render(request, "protocols/print.html", {
        **sheet, "sheet_template": rendering.sheet_template(sheet), "document": None,
        "documents": _documents_with_state(issuing.documents_of(partition=partition)),
        "versions": list(range(partition.version, 0, -1)),
        "can_issue": permissions.can_referee(request.user, table),
        "can_confirm": permissions.can_read_partition_protocol(request.user, table),
        "back_url": reverse("tour-protocols", args=[slug, number])
        if permissions.is_staff(request.user, table.tour.tournament) else None,
    })


@login_required
def partition_protocol_pdf(request, slug: str, number: int, table: int):
    """The signed PDF of the current version: the one issued for this state, else issued now
    (the table's referee, a chief referee, an organiser)."""
    table = _table(slug, number, table)
    permissions.require_read_partition_protocol(request.user, table)
    try:
        document = issuing.issue_partition_protocol(request.user, table.partition.pk,
                                                      base_url=issuing.site_url(request))
    except PermissionDenied:
        document = issuing.documents_of(partition=table.partition).first()
        if document is None:
            raise Http404(_("No signed PDF of this protocol was issued yet.")) from None
        document = ProtocolDocument.objects.get(pk=document.pk)
    except ValidationError as error:
        _refused(request, error)
        return redirect("partition-protocol", slug, number, table.number)
    return _pdf_response(ProtocolDocument.objects.select_related("tournament", "partition__table__tour")
                         .get(pk=document.pk))


@login_required
@require_http_methods(["GET", "POST"])
def partition_confirm(request, slug: str, number: int, table: int):
    """Confirmation at the table: on the referee's device each player types his PIN, the referee
    confirms from his login; a player may instead confirm from his own account."""
    table = _table(slug, number, table)
    permissions.require_read_partition_protocol(request.user, table)
    partition = table.partition
    if request.method == "POST":
        try:
            confirmation = confirmations.confirm(
                request.user, partition.pk, request.POST.get("seat"), pin=request.POST.get("pin") or None,
                version=request.POST.get("version") or None, base_url=issuing.site_url(request),
                address=request.META.get("REMOTE_ADDR") or None)
        except (ValidationError, PermissionDenied) as error:
            _refused(request, error)
        else:
            who = _("the referee") if confirmation.is_referee else str(confirmation.player)
            messages.success(request, _("Confirmed by %(who)s.") % {"who": who})
        return redirect("partition-confirm", slug, number, table.number)
    partition = Partition.objects.get(pk=partition.pk)
    sheet = sheets.partition_sheet(partition)
    state = confirmations.confirmation_state(partition)
    is_referee = permissions.can_referee(request.user, table)
    rows = []
    for signature in sheet["signatures"]:
        seat = signature["seat"]
        player = signature["player"]
        rows.append({
            **signature,
            "needed": seat in state["needed"],
            "done": state["done"].get(seat),
            "pin_form": is_referee and seat != Confirmation.REFEREE and player is not None,
            "has_pin": bool(player and player.pin),
            "account_form": is_referee if seat == Confirmation.REFEREE
            else permissions.is_own_player(request.user, player),
            "can_set_pin": player is not None and permissions.can_set_pin(request.user, player),
        })
    current = issuing.documents_of(partition=partition).filter(version=partition.version).first()
    return render(request, "protocols/confirm.html", {
        **sheet, "state": state, "rows": rows, "is_referee": is_referee, "current_document": current,
    })


# -- tour and final protocols -----------------------------------------------------------------


@staff_page
def tour_protocol(request, tournament: Tournament, number: int):
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    return render(request, "protocols/print.html", {
        **sheets.tour_sheet(tour), "sheet_template": "protocols/tour_sheet.html", "document": None,
        "documents": _documents_with_state(issuing.documents_of(tour=tour)),
        "can_issue": permissions.can_referee_all(request.user, tournament),
        "back_url": reverse("tour-protocols", args=[tournament.slug, number]),
    })


@staff_page
def tour_protocol_pdf(request, tournament: Tournament, number: int):
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    try:
        document = issuing.issue_tour_protocol(request.user, tour.pk, base_url=issuing.site_url(request))
    except (ValidationError, PermissionDenied) as error:
        _refused(request, error)
        return redirect("tour-protocol", tournament.slug, number)
    return _pdf_response(ProtocolDocument.objects.select_related("tournament", "tour").get(pk=document.pk))


@staff_page
def final_protocol(request, tournament: Tournament):
    return render(request, "protocols/print.html", {
        **sheets.final_sheet(tournament), "sheet_template": "protocols/final_sheet.html", "document": None,
        "documents": _documents_with_state(issuing.documents_of(tournament=tournament)),
        "can_issue": permissions.can_referee_all(request.user, tournament),
        "back_url": None,
    })


@staff_page
def final_protocol_pdf(request, tournament: Tournament):
    try:
        document = issuing.issue_final_protocol(request.user, tournament.pk, base_url=issuing.site_url(request))
    except (ValidationError, PermissionDenied) as error:
        _refused(request, error)
        return redirect("final-protocol", tournament.slug)
    return _pdf_response(ProtocolDocument.objects.select_related("tournament").get(pk=document.pk))


# -- the protocols of a whole tour ------------------------------------------------------------


@staff_page
@require_http_methods(["GET", "POST"])
def tour_protocols(request, tournament: Tournament, number: int):
    """Every table's protocol of a tour; an organiser makes them all at once (Celery) into a ZIP."""
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    if request.method == "POST":
        try:
            batch = batches.start_tour_batch(request.user, tour.pk, base_url=issuing.site_url(request))
        except (ValidationError, PermissionDenied) as error:
            _refused(request, error)
            return redirect("tour-protocols", tournament.slug, number)
        return redirect(_batch_url(batch, 0))
    sheet = sheets.tour_sheet(tour)
    latest = {}
    for document in ProtocolDocument.objects.defer("pdf").filter(
            kind=ProtocolDocument.Kind.PARTITION, tour=tour).order_by("created_at", "pk"):
        latest[document.partition_id] = document
    for row in sheet["rows"]:
        current = latest.get(row["partition"].pk)
        row["document"] = current
        row["document_current"] = current is not None and current.version == row["partition"].version
    return render(request, "protocols/tour_protocols.html", {
        **sheet, "can_manage": permissions.can_manage(request.user, tournament),
        "batches": _batch_list(tour.protocol_batches.filter(kind=ProtocolBatch.Kind.PROTOCOLS)),
    })


def _paper_response(pdf: bytes, name: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def _paper_name(tournament: Tournament, number: int) -> str:
    return f"{tournament.slug}-tour{number}-paper.pdf"


@staff_page
@require_http_methods(["GET", "POST"])
def tour_paper(request, tournament: Tournament, number: int):
    """The blank paper protocols of every table of a tour, to fill in by hand (:mod:`.paper`): a
    small tour's PDF at once; a large one's laid out by a worker (POST starts it, or gives back
    the batch of the same forms), its page showing the progress."""
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    tables = tour.tables.count()
    try:
        if request.method == "POST":
            batch = batches.start_paper_batch(request.user, tour.pk, base_url=issuing.site_url(request))
            return redirect("paper-batch", tournament.slug, number, batch.pk)
        if tables <= paper.DIRECT_TABLES:
            pdf = paper.tour_forms(request.user, tour, base_url=issuing.site_url(request))
            return _paper_response(pdf, _paper_name(tournament, number))
    except ValidationError as error:
        _refused(request, error)
        return redirect(_tour_back_url(request, tour))
    return render(request, "protocols/paper_start.html", {"tournament": tournament, "tour": tour, "tables": tables,
                                                          "back_url": _tour_back_url(request, tour)})


def _tour_back_url(request, tour: Tour) -> str:
    """The tour's management page for an organiser, else its public page."""
    if permissions.can_manage(request.user, tour.tournament):
        return reverse("tour-manage", args=[tour.tournament.slug, tour.number])
    return tour.get_absolute_url()


@staff_page
def tour_seating_list(request, tournament: Tournament, number: int):
    """The seating list of a tour for the wall: by table and by player (:mod:`.paper`)."""
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    return _paper_response(paper.seating_list(request.user, tour), f"{tournament.slug}-tour{number}-seating.pdf")


#: A batch's pages by its kind: the page, its status JSON, its file.
BATCH_URLS = {ProtocolBatch.Kind.PROTOCOLS: ("protocol-batch", "protocol-batch-status", "protocol-batch-zip"),
              ProtocolBatch.Kind.PAPER: ("paper-batch", "paper-batch-status", "paper-batch-pdf"),
              ProtocolBatch.Kind.ARCHIVE: ("tournament-archive", "tournament-archive-status", "tournament-archive-zip")}


def _batch(request, tournament: Tournament, number: int | None, batch: int, kind: str) -> ProtocolBatch:
    """A tour's batch of ``kind`` (``number``), or the tournament's archive (no number)."""
    found = ProtocolBatch.objects.defer("archive").select_related("tournament", "tour").filter(
        pk=batch, kind=kind, tournament=tournament)
    if number is not None:
        found = found.filter(tour__number=number)
    batch = get_object_or_404(found)
    batches.require_batch_access(request.user, batch)
    return batch


def _batch_url(batch: ProtocolBatch, which: int) -> str:
    """The batch's page (0), status JSON (1) or file (2): a tour's or the archive's."""
    name = BATCH_URLS[ProtocolBatch.Kind(batch.kind)][which]
    tour = [] if batch.is_archive else [batch.tour_of_batch.number]
    return reverse(name, args=[batch.tournament.slug, *tour, batch.pk])


def _batch_back_url(request, batch: ProtocolBatch) -> str:
    if batch.is_archive:
        return reverse("tournament-archives", args=[batch.tournament.slug])
    if batch.kind == ProtocolBatch.Kind.PAPER:
        return _tour_back_url(request, batch.tour_of_batch)
    return reverse("tour-protocols", args=[batch.tournament.slug, batch.tour_of_batch.number])


@staff_page
@require_http_methods(["GET", "POST"])
def batch_detail(request, tournament: Tournament, batch: int, kind: str, number: int | None = None):
    """A batch's progress (the page asks its status JSON again every two seconds, or reloads
    itself without JavaScript), its file once ready, resuming it once stalled."""
    batch = _batch(request, tournament, number, batch, kind)
    if request.method == "POST":
        try:
            batches.resume_batch(request.user, batch.pk)
        except (ValidationError, PermissionDenied) as error:
            _refused(request, error)
        else:
            messages.success(request, _("The work not done yet is sent to the workers again."))
        return redirect(_batch_url(batch, 0))
    return render(request, "protocols/batch.html", {
        "tournament": tournament, "tour": batch.tour, "batch": batch, "progress": batches.batch_progress(batch),
        "status_url": _batch_url(batch, 1), "file_url": _batch_url(batch, 2),
        "back_url": _batch_back_url(request, batch),
        "again_url": reverse("tour-paper", args=[tournament.slug, number])
        if batch.kind == ProtocolBatch.Kind.PAPER else None,
    })


@staff_page
def batch_status(request, tournament: Tournament, batch: int, kind: str, number: int | None = None):
    batch = _batch(request, tournament, number, batch, kind)
    progress = batches.batch_progress(batch)
    if progress["ready"]:
        progress["file"] = _batch_url(batch, 2)
    return JsonResponse(progress)


@staff_page
def batch_file(request, tournament: Tournament, batch: int, kind: str, number: int | None = None):
    """A ready batch's file: the ZIP of the protocols or of the archive, the PDF of the paper."""
    batch = _batch(request, tournament, number, batch, kind)
    if batch.status != ProtocolBatch.Status.READY:
        raise Http404(_("The file is not ready yet."))
    data = ProtocolBatch.objects.values_list("archive", flat=True).get(pk=batch.pk)
    assert data is not None  # a ready batch has its file
    if batch.kind == ProtocolBatch.Kind.PAPER:
        return _paper_response(bytes(data), _paper_name(tournament, batch.tour_of_batch.number))
    response = HttpResponse(bytes(data), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{archive.file_name(batch)}"'
    return response


@organiser_page
@require_http_methods(["GET", "POST"])
def tournament_archives(request, tournament: Tournament):
    """The tournament's archive for the federation: its organiser makes it (Celery) and downloads it."""
    if request.method == "POST":
        try:
            batch = batches.start_archive(request.user, tournament.pk, base_url=issuing.site_url(request))
        except (ValidationError, PermissionDenied) as error:
            _refused(request, error)
            return redirect("tournament-archives", tournament.slug)
        return redirect(_batch_url(batch, 0))
    return render(request, "protocols/archives.html", {
        "tournament": tournament,
        "batches": _batch_list(tournament.protocol_batches.filter(kind=ProtocolBatch.Kind.ARCHIVE)),
    })


def _batch_list(found) -> list[dict]:
    """The five latest of the batches ``found``, for a list with their pages and ZIPs."""
    return [batches.batch_progress(b) | {"created_at": b.created_at, "url": _batch_url(b, 0),
                                         "zip_url": _batch_url(b, 2)}
            for b in found.defer("archive").select_related("tournament", "tour")[:5]]


# -- the signing key and PINs -----------------------------------------------------------------


@login_required
@upload_limit(signing.MAX_PKCS12_SIZE)
@require_http_methods(["GET", "POST"])
def signing_key_page(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    permissions.require_manage(request.user, tournament)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "create":
                signing.current_key(tournament)
                messages.success(request, _("The tournament's signing key is ready."))
            else:
                upload = request.FILES.get("file")
                signing.load_pkcs12(request.user, tournament, upload.read(signing.MAX_PKCS12_SIZE + 1) if upload else b"",
                                    request.POST.get("passphrase", ""))
                messages.success(request, _("Your certificate is now the tournament's signing key. Documents signed "
                                            "before stay genuine."))
        except (ValidationError, PermissionDenied) as error:
            _refused(request, error)
        return redirect("signing-key", slug)
    keys = list(SigningKey.objects.filter(tournament=tournament).defer("private_key"))
    return render(request, "protocols/signing.html", {
        "tournament": tournament, "current": next((k for k in keys if k.retired_at is None), None),
        "retired": [k for k in keys if k.retired_at is not None],
    })


def tournament_certificate(request, slug: str):
    """The tournament's current certificate (PEM): the trust root for checking its PDFs."""
    tournament = get_object_or_404(permissions.visible_tournaments(request.user), slug=slug)
    key = signing.current_key(tournament, create=False)
    if key is None:
        raise Http404(_("The tournament has no signing key yet."))
    return _pem(key, f"{slug}-protocols.pem")


def _pem(key: SigningKey, name: str) -> HttpResponse:
    response = HttpResponse(key.certificate, content_type="application/x-pem-file")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def player_pin(request, pk: int):
    """A player sets the PIN with which he confirms protocols (or an organiser sets it for him)."""
    player = get_object_or_404(Player, pk=pk)
    permissions.require_set_pin(request.user, player)
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = ""
    if request.method == "POST":
        pin, again = request.POST.get("pin", ""), request.POST.get("pin_again", "")
        if pin != again:
            messages.error(request, _("The two PINs differ."))
        else:
            try:
                confirmations.set_pin(request.user, player.pk, pin, address=_address(request))
            except (ValidationError, PermissionDenied) as error:
                _refused(request, error)
            else:
                messages.success(request, _("The PIN of %(player)s is set.") % {"player": player})
                return redirect(back or "player-pin", *([] if back else [player.pk]))
        return redirect(reverse("player-pin", args=[player.pk]) + (f"?next={back}" if back else ""))
    return render(request, "protocols/pin.html", {"player": player, "next": back, "has_pin": bool(player.pin)})


@organiser_page
@require_http_methods(["GET", "POST"])
def pin_slips(request, tournament):
    """The entrants' PINs: generate those missing (or all again) and print their slips; the PIN
    page of each; the PIN audit trail."""
    if request.method == "POST":
        renew = request.POST.get("scope") == "all"
        if renew and not request.POST.get("confirm"):
            messages.error(request, _("Tick the box first: a reprint gives every entrant a new PIN."))
            return redirect("pin-slips", tournament.slug)
        try:
            slips = pinslips.print_slips(request.user, tournament.pk, renew=renew,
                                         base_url=issuing.site_url(request), address=_address(request))
        except (ValidationError, PermissionDenied) as error:
            _refused(request, error)
            return redirect("pin-slips", tournament.slug)
        response = HttpResponse(slips.pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-pins.pdf"'
        response["Cache-Control"] = "no-store"  # the only copy of the new PINs
        return response
    entries = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).select_related("player")
    rows = [(e.player, permissions.can_set_pin(request.user, e.player)) for e in entries]
    return render(request, "protocols/pin_slips_page.html", {
        "tournament": tournament, "rows": rows,
        "missing": sum(1 for player, allowed in rows if allowed and not player.pin),
        "renewable": sum(1 for _player, allowed in rows if allowed),
        "changes": PinChange.objects.filter(player__entries__tournament=tournament)
        .select_related("player", "by")[:50],
    })


@require_http_methods(["GET", "POST"])
def pin_choose(request, secret: str):
    """The link of a PIN slip: the player types the printed PIN and chooses his own, once."""
    if request.method == "POST":
        try:
            player = pinslips.choose_pin(secret, request.POST.get("printed", ""), request.POST.get("pin", ""),
                                         request.POST.get("pin_again", ""), address=_address(request))
        except ValidationError as error:
            _refused(request, error)
            return redirect("pin-choose", secret)
        return render(request, "protocols/pin_choose.html", {"player": player, "done": True})
    holder = pinslips.slip_player(secret)
    return render(request, "protocols/pin_choose.html", {"player": holder}, status=200 if holder else 404)


def _address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


# -- public verification ----------------------------------------------------------------------


@upload_limit("UPLOAD_MAX_SIZE")
@require_http_methods(["GET", "POST"])
def verify(request):
    """Check a protocol: upload its PDF, or type its code."""
    result = None
    status = 200
    if request.method == "POST":
        code = issuing.normalise_code(request.POST.get("code", ""))
        upload = request.FILES.get("file")
        if upload is not None:
            limit = settings.UPLOAD_MAX_SIZE
            data = upload.read(limit + 1)
            if len(data) > limit:
                messages.error(request, _("The file is too large: at most %(size)s.") % {"size": filesizeformat(limit)})
            else:
                try:
                    result = verification.verify_pdf(data, address=request.META.get("REMOTE_ADDR") or "")
                except ValidationError as error:
                    _refused(request, error)
                    status = {"limits": 422, "rate": 429, "busy": 503}.get(error.code or "", 200)
        elif code and not issuing.CODE_RE.match(code):
            messages.error(request, _("A document's code is %(length)s letters and digits, as printed under its QR "
                                      "code.") % {"length": issuing.CODE_LENGTH})
        elif code:
            return redirect("protocol-short", code)
        else:
            messages.error(request, _("Choose the PDF file, or type the document's code."))
    response = render(request, "protocols/verify.html", {"result": result, "uploaded": result is not None},
                      status=status)
    if status in (429, 503):
        response["Retry-After"] = "60"  # a new minute of the address's count; a free child
    return response


def verify_code(request, code: str):
    """The page the QR code of a document leads to: what it certifies, and whether it is current."""
    result = verification.verify_code(code)
    return render(request, "protocols/verify.html", {"result": result, "code": code},
                  status=404 if result.document is None else 200)


def document_pdf(request, code: str):
    """An issued document's PDF, by its code (whoever holds the document has the code)."""
    document = get_object_or_404(ProtocolDocument.objects.select_related("tournament", "partition__table__tour",
                                                                          "tour"),
                                 code=issuing.normalise_code(code))
    return _pdf_response(document, download=request.GET.get("download") == "1")


def document_certificate(request, code: str):
    """The certificate that signed a document (PEM): the trust root for ``pyhanko sign validate``."""
    document = get_object_or_404(ProtocolDocument.objects.defer("pdf").select_related("signing_key", "tournament"),
                                 code=issuing.normalise_code(code))
    return _pem(document.signing_key, f"{document.tournament.slug}-{document.signing_key.fingerprint[:12]}.pem")
