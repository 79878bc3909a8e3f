"""Protocol documents: what they show, the signed PDFs, confirmations at the table, and their
verification. One service function per operation, with its transaction and its permission check
inside; views, tasks and the ``verify_protocol`` command call these.

- **Partition protocol** (:func:`partition_sheet`): the tournament, tour, table, date, start and
  end, the referee, the two pairs at their seats, who led, every deal (leader, end, pips, points,
  running totals), warnings and penalties with time, seat and code, the final score, the winner
  and the reason, corrections, and a signature line for the four players and the referee with who
  confirmed and when.
- **Tour protocol** (:func:`tour_sheet`): every table's result, and the standings after the tour.
- **Final protocol** (:func:`final_sheet`): the final standings with every tiebreak column.

The print views (HTML) and the PDFs render the same templates (``templates/protocols/``); the
PDFs are always in Russian, on A4, with the DejaVu fonts shipped in ``static/fonts/`` (never the
system's), signed by :mod:`scoring.signing`, stored in the database with their SHA-256, and carry a
QR code and a short link to their verification page.

A document is never changed: a later state (a correction, a further confirmation, new results)
makes a new document, and the older one is then *outdated* — computed by :func:`document_state`,
not stored.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import logging
import re
import secrets
import zipfile
from dataclasses import dataclass, field
from typing import Any

import segno
from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import engine
from scoring.engine import rules as engine_rules
from tournaments import permissions
from tournaments.models import Bye, Pair, PinFailures, Player, Role, SitOut, Tour, Tournament
from tournaments.permissions import can_referee, can_referee_all, require_manage
from tournaments.standings import METRICS, pair_standings, player_standings

from . import labels, signing
from .models import (Confirmation, Partition, PartitionChange, ProtocolBatch, ProtocolBatchItem, ProtocolDocument,
                     SigningKey)

log = logging.getLogger(__name__)

#: Public codes: 10 characters of an alphabet without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
CODE_RE = re.compile(rf"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
PDF_LANGUAGE = "ru"
FONT_DIR = settings.BASE_DIR / "static" / "fonts"
# The protocol sheets' stylesheet, shared by the print pages (as a static file) and the PDFs.
SHEET_CSS = settings.BASE_DIR / "static" / "css" / "protocol-sheet.css"
PIN_RE = re.compile(r"^[0-9]{4,8}$")



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
    with translation.override(PDF_LANGUAGE):
        return base_url.rstrip("/") + reverse("protocol-short", args=[code])


def _person(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _local(moment):
    return timezone.localtime(moment) if moment else None


# -- what a partition protocol shows ----------------------------------------------------------


def _partition_query():
    return Partition.objects.select_related(
        "table__tour__tournament", "table__referee", "table__pair_a__first", "table__pair_a__second",
        "table__pair_b__first", "table__pair_b__second", "table__seat1", "table__seat2", "table__seat3",
        "table__seat4")


def required_seats(partition: Partition, game: engine.Partition | None = None) -> list[int]:
    """Who confirms a finished partition: the four players and the referee (seat 0); at a
    no-show, the players of the absent pair cannot and do not."""
    if game is None:
        if partition.reason != "no_show":
            return [1, 2, 3, 4, Confirmation.REFEREE]
        game = _game(partition.state, partition)
    seats = [1, 2, 3, 4]
    if game.no_show in ("A", "both"):
        seats = [s for s in seats if s % 2 == 0]
    if game.no_show in ("B", "both"):
        seats = [s for s in seats if s % 2 == 1]
    return seats + [Confirmation.REFEREE]


def _game(state: dict | None, partition: Partition) -> engine.Partition:
    if state:
        return engine.Partition.from_dict(state)
    return engine.Partition(partition.table.tour.tournament.rules)


def _event_times(changes: list[PartitionChange]) -> list:
    """When each event of the last change's state was written: an event keeps the time of the
    change that first stored it, as long as later changes (corrections) leave it as it was."""
    events: list = []
    times: list = []
    for change in changes:
        new = (change.state or {}).get("events", [])
        times = [times[i] if i < len(events) and events[i] == e else change.at for i, e in enumerate(new)]
        events = new
    return times


def partition_sheet(partition: Partition, version: int | None = None) -> dict[str, Any]:
    """Everything a partition protocol shows, for ``version`` (default: the current one)."""
    table = partition.table
    tour = table.tour
    tournament = tour.tournament
    if version is None:
        version = partition.version
    if not 0 <= version <= partition.version:
        raise ValidationError(_("There is no version %(version)s.") % {"version": version})
    changes = list(partition.changes.filter(version__lte=version).select_related("user").order_by("version"))
    # The current state is the row's own (a partition written without changes has no history).
    state = partition.state if version == partition.version else (changes[-1].state if changes else None)
    game = _game(state, partition)
    regs = game.regulations
    times = _event_times(changes)
    seats = table.seats

    def seat_name(seat: int | None) -> str:
        return str(seats[seat - 1]) if seat in (1, 2, 3, 4) else ""

    deals = []
    for d in game.deals:
        deals.append({
            "n": d.n, "leader": d.leader, "leader_name": seat_name(d.leader), "end": d.end,
            "end_label": labels.ENDS.get(d.end, d.end), "seat": d.seat, "seat_name": seat_name(d.seat),
            "pips_a": d.pips[0], "pips_b": d.pips[1], "winner": d.winner, "points": d.points,
            "total_a": d.totals[0], "total_b": d.totals[1]})

    # Warnings and penalties, in the order the referee wrote them, with their time.
    entries: list[dict[str, Any]] = []
    by_violation = {v.id: v for v in game.violations}
    deal_number = 0
    annulments = {}
    for i, event in enumerate(game.events):
        if event.get("type") == "annul":
            annulments[event.get("violation")] = (event.get("reason"), times[i] if i < len(times) else None)
    for i, event in enumerate(game.events):
        kind = event.get("type")
        at = _local(times[i]) if i < len(times) else None
        entry: dict[str, Any] | None = None
        if kind == "deal":
            deal_number += 1
            record = game.deals[deal_number - 1] if deal_number <= len(game.deals) else None
            if record is not None and record.end == "false_pass":
                entry = {"seat": record.seat, "code": "false_pass", "consequence": "penalty", "violation": None,
                         "note": _("the deal ended by the referee")}
        elif kind == "violation":
            violation = by_violation.get(i)
            if violation is not None:
                entry = {"seat": violation.seat, "code": violation.code, "consequence": violation.consequence,
                         "violation": i, "note": ""}
                if violation.annulled is not None:
                    reason, when = annulments.get(i, (violation.annulled, None))
                    entry["annulled"] = {"reason": reason, "at": _local(when)}
        elif kind == "penalty":
            entry = {"seat": event.get("seat"), "code": event.get("code"), "consequence": "penalty",
                     "violation": None, "note": ""}
        elif kind == "restart":
            entry = {"seat": event.get("seat"), "code": event.get("code"), "consequence": "penalty",
                     "violation": None, "note": _("the deal was dealt again")}
        if entry is not None:
            entry.update({"at": at, "index": i, "player": seat_name(entry["seat"]),
                          "pair": engine.pair_of(entry["seat"]) if entry["seat"] in (1, 2, 3, 4) else "",
                          "code_label": labels.VIOLATIONS_SHORT.get(entry["code"], entry["code"]),
                          "during_deal": deal_number + 1 if event.get("during_deal") else None,
                          "after_deal": deal_number, "counted": False, "delta": "", "totals": None})
            entries.append(entry)
    for penalty in game.penalties + game.pending_penalties:
        if penalty.violation is not None:
            match = next((e for e in entries if e["index"] == penalty.violation and not e["counted"]), None)
        else:
            match = next((e for e in entries if e["violation"] is None and not e["counted"]
                          and e["consequence"] == "penalty" and e["seat"] == penalty.seat
                          and e["code"] == penalty.code), None)
        if match is None:
            continue
        da, db = engine_rules.penalty_delta(penalty.pair, regs)
        match.update({"counted": True, "after_deal": penalty.after_deal, "totals": penalty.totals,
                      "delta": ", ".join(f"{side} {value:+d}" for side, value in (("A", da), ("B", db)) if value)})

    decision = game.decision
    first_change = changes[0].at if changes else None
    finished_at = None
    for change in changes:
        if change.after.get("status") == Partition.Status.FINISHED and change.before.get("status") != "finished":
            finished_at = change.at
        elif change.after.get("status") != Partition.Status.FINISHED:
            finished_at = None
    corrections = [{"version": c.version, "at": _local(c.at), "reason": c.reason, "by": _person(c.user),
                    "action": labels.ACTIONS.get(c.action, c.action)}
                   for c in changes if c.action == "correction" or c.reason]

    confirmations = {c.seat: c for c in partition.confirmations.filter(version=version).select_related("user")}
    finished = decision is not None
    needed = required_seats(partition, game) if finished else [1, 2, 3, 4, Confirmation.REFEREE]
    absent = {s for s in (1, 2, 3, 4) if s not in needed}
    signatures = []
    for seat in (1, 2, 3, 4):
        signatures.append({"seat": seat, "pair": engine.pair_of(seat), "name": str(seats[seat - 1]),
                           "player": seats[seat - 1], "confirmation": confirmations.get(seat),
                           "absent": seat in absent})
    referee_confirmation = confirmations.get(Confirmation.REFEREE)
    referee_name = (_person(referee_confirmation.user) if referee_confirmation and referee_confirmation.user
                    else _person(table.referee))
    signatures.append({"seat": Confirmation.REFEREE, "pair": "", "name": referee_name, "player": None,
                       "confirmation": referee_confirmation, "absent": False})
    confirmed = finished and all(s in confirmations for s in needed)

    winner_pair = table.pair_a if decision and decision.winner == "A" else (
        table.pair_b if decision and decision.winner == "B" else None)
    return {
        "kind": "partition", "tournament": tournament, "tour": tour, "table": table, "partition": partition,
        "version": version, "is_current": version == partition.version, "regulations": regs,
        "pair_a": table.pair_a, "pair_b": table.pair_b, "seats": seats, "referee_name": _person(table.referee),
        "started_at": _local(partition.started_at or first_change), "finished_at": _local(finished_at),
        "date": _local(partition.started_at or first_change) or tour.planned_start,
        "first_leader": game.first_leader, "first_leader_name": seat_name(game.first_leader),
        "deals": deals, "entries": entries, "penalty_count": sum(1 for e in entries if e["counted"]),
        "totals": game.totals, "decision": decision, "winner_pair": winner_pair,
        "reason_label": labels.REASONS.get(decision.reason, decision.reason) if decision else "",
        "time_expired": game.time_expired, "no_show": game.no_show, "carry": game.carry,
        "in_progress": game.current is not None, "finished": finished, "corrections": corrections,
        "signatures": signatures, "confirmed": confirmed, "confirmations": confirmations,
    }


def _snapshot(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def partition_snapshot(partition: Partition, version: int, seats: list[int]) -> str:
    return _snapshot("partition", partition.pk, version, sorted(seats))


def _partition_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    table, decision = sheet["table"], sheet["decision"]
    return {
        "tournament": sheet["tournament"].name, "tour": sheet["tour"].number, "table": table.number,
        "version": sheet["version"], "finished": sheet["finished"], "confirmed": sheet["confirmed"],
        "pairs": {"A": [str(p) for p in table.pair_a.players], "B": [str(p) for p in table.pair_b.players]},
        "numbers": {"A": table.pair_a.number, "B": table.pair_b.number},
        "points": list(sheet["totals"]), "deals": len(sheet["deals"]),
        "winner": decision.winner if decision else None, "reason": decision.reason if decision else None,
        "referee": sheet["referee_name"],
        "confirmations": [{"seat": s["seat"], "name": s["name"], "method": s["confirmation"].method,
                           "at": s["confirmation"].at.isoformat()}
                          for s in sheet["signatures"] if s["confirmation"] is not None],
    }


# -- tour and final protocols -----------------------------------------------------------------


def _standings(tournament: Tournament, after_tour: int | None) -> dict[str, Any]:
    """Standings with every metric as a column, the regulations' precedence first (numbered)."""
    precedence = list(tournament.rules.standings)
    keys = precedence + [k for k in METRICS if k not in precedence]
    columns: list[dict[str, Any]] = [
        {"key": k, "name": METRICS[k].name, "order": precedence.index(k) + 1 if k in precedence else None}
        for k in keys]
    if tournament.is_individual:
        rows = player_standings(tournament, after_tour)
        names = {p.pk: str(p) for p in Player.objects.filter(pk__in=[r.key for r in rows])}
        numbers: dict[int, Any] = {}
    else:
        rows = pair_standings(tournament, after_tour)
        pairs = Pair.objects.filter(pk__in=[r.key for r in rows]).select_related("first", "second")
        names = {p.pk: f"{p.first} — {p.second}" for p in pairs}
        numbers = {p.pk: p.number for p in pairs}
    lines = [{"rank": r.rank, "number": numbers.get(r.key, ""), "name": names.get(r.key, r.key),
              "played": r.played, "losses": r.losses, "byes": r.byes,
              "values": [r.metrics.get(c["key"], 0) for c in columns]} for r in rows]
    shared = {r.rank for r in rows if sum(1 for o in rows if o.rank == r.rank) > 1}
    for line in lines:
        line["shared"] = line["rank"] in shared
    return {"columns": columns, "rows": lines, "individual": tournament.is_individual}


def _chiefs(tournament: Tournament) -> list[str]:
    return [_person(r.user) for r in Role.objects.filter(tournament=tournament, kind=Role.Kind.CHIEF_REFEREE)
            .select_related("user").order_by("pk")]


def _tour_partitions(tour: Tour):
    return (_partition_query().filter(table__tour=tour).order_by("table__number"))


def tour_sheet(tour: Tour) -> dict[str, Any]:
    """Every table's result in ``tour``, and the standings after it."""
    tournament = tour.tournament
    rows = []
    partitions = list(_tour_partitions(tour))
    confirmed = _confirmed_versions([p.pk for p in partitions])
    for p in partitions:
        table = p.table
        rows.append({"table": table, "partition": p, "pair_a": table.pair_a, "pair_b": table.pair_b,
                     "winner": p.winner, "reason": labels.REASONS_SHORT.get(p.reason, p.reason) if p.reason else "",
                     "points": (p.points_a, p.points_b), "deals": p.deals,
                     "penalties": (p.penalties_a, p.penalties_b), "referee": _person(table.referee),
                     "confirmed": (p.pk, p.version) in confirmed, "version": p.version})
    return {
        "kind": "tour", "tournament": tournament, "tour": tour, "rows": rows,
        "finished": sum(1 for r in rows if r["partition"].is_finished), "total": len(rows),
        "byes": list(Bye.objects.filter(tour=tour).select_related("pair__first", "pair__second")),
        "sit_outs": list(SitOut.objects.filter(tour=tour).select_related("player")),
        "standings": _standings(tournament, tour.number), "chiefs": _chiefs(tournament),
    }


def _confirmed_versions(partition_ids: list[int]) -> set[tuple[int, int]]:
    """(partition, version) of the finished partitions whose current version every required
    signer confirmed."""
    partitions = {p.pk: p for p in Partition.objects.filter(pk__in=partition_ids, status=Partition.Status.FINISHED)
                  .select_related("table__tour__tournament")}
    seats: dict[tuple[int, int], set[int]] = {}
    for pid, version, seat in Confirmation.objects.filter(partition_id__in=list(partitions)).values_list(
            "partition_id", "version", "seat"):
        seats.setdefault((pid, version), set()).add(seat)
    return {(pid, p.version) for pid, p in partitions.items()
            if set(required_seats(p)) <= seats.get((pid, p.version), set())}


def tour_snapshot(tour: Tour) -> str:
    partitions = list(Partition.objects.filter(table__tour=tour).order_by("pk").values_list("pk", "version", "status"))
    confirmed = sorted(_confirmed_versions([p[0] for p in partitions]))
    return _snapshot("tour", tour.pk, tour.status, partitions, confirmed,
                     sorted(Bye.objects.filter(tour=tour).values_list("pair_id", flat=True)))


def final_sheet(tournament: Tournament) -> dict[str, Any]:
    """The final standings with every tiebreak column."""
    tours = list(tournament.tours.exclude(status=Tour.Status.DRAFT).order_by("number"))
    played = Partition.objects.filter(table__tour__tournament=tournament)
    return {
        "kind": "final", "tournament": tournament, "tours": tours,
        "standings": _standings(tournament, None), "chiefs": _chiefs(tournament),
        "unfinished": played.exclude(status=Partition.Status.FINISHED).filter(
            table__tour__status__in=[Tour.Status.PUBLISHED, Tour.Status.RUNNING, Tour.Status.FINISHED]).count(),
        "partitions": played.filter(status=Partition.Status.FINISHED).count(),
    }


def final_snapshot(tournament: Tournament) -> str:
    partitions = list(Partition.objects.filter(table__tour__tournament=tournament).order_by("pk")
                      .values_list("pk", "version", "status"))
    tours = list(tournament.tours.order_by("number").values_list("number", "status"))
    byes = sorted(Bye.objects.filter(tour__tournament=tournament).values_list("tour_id", "pair_id"))
    return _snapshot("final", tournament.pk, tournament.status, partitions, tours, byes)


# -- rendering and issuing --------------------------------------------------------------------


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an inline SVG element."""
    return segno.make(url, error="m").svg_inline(scale=3, border=2, omitsize=False)


def render_html(sheet: dict[str, Any], *, document: dict[str, Any] | None = None, pdf: bool = False,
                request=None) -> str:
    """The sheet as the print page (``pdf=False``) or as the PDF's HTML (``pdf=True``)."""
    template = "protocols/pdf.html" if pdf else "protocols/print.html"
    context = {**sheet, "document": document, "pdf": pdf, "font_dir": FONT_DIR.as_uri(),
               "sheet_css": SHEET_CSS.as_uri(),
               "sheet_template": f"protocols/{sheet['kind']}_sheet.html"}
    return render_to_string(template, context, request=request)


def render_pdf(html: str) -> bytes:
    """HTML to PDF with WeasyPrint; fonts come from ``static/fonts`` through @font-face."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return HTML(string=html, base_url=FONT_DIR.as_uri() + "/").write_pdf(font_config=fonts)


def _issue(kind: str, tournament: Tournament, *, sheet_for, snapshot: str, lock, user, base_url: str,
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
    with translation.override(PDF_LANGUAGE):
        sheet = sheet_for()
        now = timezone.now()
        document = {"code": code, "url": verification_url(base_url, code), "issued_at": _local(now),
                    "issued_by": _person(user), "key": key, "version": version}
        document["qr"] = qr_svg(document["url"])
        pdf = render_pdf(render_html(sheet, document=document, pdf=True))
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
                    created_by=user if user is not None and user.is_authenticated else None)
        except IntegrityError:
            raise ValidationError(_("Two documents got the same code: issue it again.")) from None


def _issue_partition(partition: Partition, user, base_url: str) -> ProtocolDocument:
    partition = _partition_query().get(pk=partition.pk)
    version = partition.version
    seats = list(partition.confirmations.filter(version=version).values_list("seat", flat=True))
    confirmed = partition.is_finished and set(required_seats(partition)) <= set(seats)
    return _issue(
        ProtocolDocument.Kind.PARTITION, partition.table.tour.tournament,
        sheet_for=lambda: partition_sheet(partition, version), snapshot=partition_snapshot(partition, version, seats),
        lock=lambda: Partition.objects.select_for_update().filter(pk=partition.pk).first(), user=user,
        base_url=base_url, partition=partition, tour=partition.table.tour, version=version, confirmed=confirmed,
        summary_of=_partition_summary)


def issue_partition_protocol(user, partition_id: int, *, base_url: str) -> ProtocolDocument:
    """The signed PDF of a partition's current version: the one already issued for this state,
    or a new one. The table's referee, a chief referee or an organiser may issue it; a protocol
    not yet confirmed by all says so on its face."""
    partition = _partition_query().get(pk=partition_id)
    if not can_referee(user, partition.table):
        raise PermissionDenied(_("Only the referee of this table, a chief referee or an organiser may issue its "
                                 "protocol."))
    if partition.table.tour.status == Tour.Status.DRAFT:
        raise ValidationError(_("The tour is not published yet."))
    return _issue_partition(partition, user, base_url)


def _tour_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    return {"tournament": sheet["tournament"].name, "tour": sheet["tour"].number, "tables": sheet["total"],
            "finished": sheet["finished"],
            "leader": sheet["standings"]["rows"][0]["name"] if sheet["standings"]["rows"] else ""}


def issue_tour_protocol(user, tour_id: int, *, base_url: str) -> ProtocolDocument:
    """The signed tour protocol (every table's result, the standings after the tour): a chief
    referee or an organiser issues it."""
    tour = Tour.objects.select_related("tournament").get(pk=tour_id)
    if not can_referee_all(user, tour.tournament):
        raise PermissionDenied(_("Only a chief referee or an organiser may issue the tour protocol."))
    if tour.status == Tour.Status.DRAFT:
        raise ValidationError(_("The tour is not published yet."))
    return _issue(ProtocolDocument.Kind.TOUR, tour.tournament, sheet_for=lambda: tour_sheet(tour),
                  snapshot=tour_snapshot(tour), lock=lambda: Tour.objects.select_for_update().filter(pk=tour.pk).first(),
                  user=user, base_url=base_url, tour=tour, summary_of=_tour_summary)


def _final_summary(sheet: dict[str, Any]) -> dict[str, Any]:
    rows = sheet["standings"]["rows"]
    return {"tournament": sheet["tournament"].name, "tours": len(sheet["tours"]), "entrants": len(rows),
            "leader": rows[0]["name"] if rows else "", "unfinished": sheet["unfinished"]}


def issue_final_protocol(user, tournament_id: int, *, base_url: str) -> ProtocolDocument:
    """The signed final protocol (the final standings with every tiebreak column): a chief
    referee or an organiser issues it."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if not can_referee_all(user, tournament):
        raise PermissionDenied(_("Only a chief referee or an organiser may issue the final protocol."))
    if not tournament.tours.exclude(status=Tour.Status.DRAFT).exists():
        raise ValidationError(_("No tour is published yet."))
    return _issue(ProtocolDocument.Kind.FINAL, tournament, sheet_for=lambda: final_sheet(tournament),
                  snapshot=final_snapshot(tournament),
                  lock=lambda: Tournament.objects.select_for_update().filter(pk=tournament.pk).first(),
                  user=user, base_url=base_url, summary_of=_final_summary)


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
            "date": _local(newest.created_at).strftime("%d.%m.%Y %H:%M")})
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


# -- confirmations at the table ---------------------------------------------------------------


def _check_pin(player: Player, pin: str, device) -> str | None:
    """Check ``pin`` typed for ``player`` on the device of ``device`` (the login recording the
    table): None when right, else the refusal. Counted per player and login in
    :class:`~tournaments.models.PinFailures` under its row lock, so parallel attempts wait for
    one another and at most ``PIN_FAILURE_LIMIT`` wrong PINs are ever checked before the lock.
    The caller commits the count even when it refuses."""
    limit, lock = settings.PIN_FAILURE_LIMIT, datetime.timedelta(minutes=settings.PIN_LOCK_MINUTES)
    PinFailures.objects.bulk_create([PinFailures(player=player, device=device)], ignore_conflicts=True)
    row = PinFailures.objects.select_for_update().get(player=player, device=device)
    now = timezone.now()
    if row.locked_until is not None and row.locked_until > now:
        return _("Too many wrong PINs for %(player)s on this login: wait %(minutes)s minutes, or confirm from the "
                 "player's own account or on another referee's device.") % {
            "player": player, "minutes": settings.PIN_LOCK_MINUTES}
    if row.locked_until is not None or (row.last_failure_at is not None and row.last_failure_at <= now - lock):
        row.failures, row.locked_until = 0, None  # the lock is over, or the mistakes are old
    if not player.pin:
        return _("%(player)s has no PIN yet: he sets one in his account, or an organiser sets it for him.") % {
            "player": player}
    if check_password(pin, player.pin):
        if row.failures:
            row.failures, row.last_failure_at = 0, None
            row.save(update_fields=["failures", "last_failure_at", "locked_until"])
        return None
    row.failures += 1
    row.last_failure_at = now
    if row.failures >= limit:
        row.locked_until = now + lock
    row.save(update_fields=["failures", "last_failure_at", "locked_until"])
    return _("Wrong PIN for %(player)s (%(left)s attempts left).") % {
        "player": player, "left": max(limit - row.failures, 0)}


def confirm(user, partition_id: int, seat: int, *, pin: str | None = None, version: int | None = None,
            base_url: str | None = None) -> Confirmation:
    """Confirm the current version of a finished partition's protocol for ``seat`` (1-4, or 0 for
    the referee). A player confirms with his ``pin`` on the device of the table's referee, or
    from his own account (no PIN); the referee (or a chief referee or an organiser in his place)
    from his login. ``version`` is the version the signer read: a protocol changed since is
    refused. Confirming twice is harmless. When the last signer confirms, the signed PDF is
    issued (with ``base_url``, the site's address for its link)."""
    try:
        seat = int(seat)
    except (TypeError, ValueError):
        raise ValidationError(_("A seat is 1 to 4, or 0 for the referee.")) from None
    if seat not in (0, 1, 2, 3, 4):
        raise ValidationError(_("A seat is 1 to 4, or 0 for the referee."))
    pin = (pin or "").strip() or None
    refusal = None
    with transaction.atomic():
        partition = _partition_query().select_for_update(of=("self",)).get(pk=partition_id)
        table = partition.table
        player = None if seat == Confirmation.REFEREE else table.seats[seat - 1]
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
            refusal = _check_pin(player, pin, user)  # type: ignore[arg-type]
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
            _issue_partition(partition, user, base_url or site_url())
        except Exception:  # noqa: BLE001 - the confirmations stand; the PDF can be issued again on demand
            log.exception("issuing the protocol of partition %s failed", partition.pk)
    return confirmation


def confirmation_state(partition: Partition) -> dict[str, Any]:
    """For the confirmation page: the current version, who must confirm, who did."""
    finished = partition.is_finished
    needed = required_seats(partition) if finished else [1, 2, 3, 4, Confirmation.REFEREE]
    done = {c.seat: c for c in partition.confirmations.filter(version=partition.version).select_related("user")}
    return {"version": partition.version, "needed": needed, "done": done, "finished": finished,
            "complete": finished and all(s in done for s in needed)}


def set_pin(user, player_id: int, pin: str) -> Player:
    """Set the PIN (4 to 8 digits) with which a player confirms protocols on the referee's
    device, as :func:`tournaments.permissions.can_set_pin` allows. A new PIN ends every lock of
    the old one."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        permissions.require_set_pin(user, player)
        pin = (pin or "").strip()
        if not PIN_RE.match(pin):
            raise ValidationError(_("A PIN is 4 to 8 digits."))
        player.pin = make_password(pin)
        player.save(update_fields=["pin"])
        PinFailures.objects.filter(player=player).delete()
    return player


# -- verification -----------------------------------------------------------------------------


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


def verify_pdf(data: bytes) -> Verification:
    """Whether ``data`` is a protocol PDF this system issued, unchanged, and current.

    Byte-identical to an issued document (its SHA-256 is stored): genuine, or genuine but
    outdated. Otherwise the signatures are read: none of the system's keys signed it — signed by
    another key, or unknown when unsigned; one of them did, but the file differs from what was
    issued (the signed bytes changed, or something was added after signing) — tampered. A file
    too damaged to read is tampered when it names an issued document's code, else unknown."""
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


# -- a whole tour, by Celery ------------------------------------------------------------------


#: A batch at work that counted no table for this long has stalled (a worker died with its task,
#: or the broker lost it): its page offers to resume it.
BATCH_STALL_SECONDS = 30


def start_tour_batch(user, tour_id: int, *, base_url: str, queue: str | None = None) -> ProtocolBatch:
    """An organiser starts the protocols of every table of a tour: one Celery task per table,
    then a ZIP of them all with the tour protocol. Asked again while the tour is as it was, he
    gets the same batch back (at work or ready); a batch still at work for an earlier state of
    the tour is superseded. ``queue``: the Celery queue (default: the configured one)."""
    with transaction.atomic():
        tour = Tour.objects.select_for_update().select_related("tournament").get(pk=tour_id)
        require_manage(user, tour.tournament)
        if tour.status == Tour.Status.DRAFT:
            raise ValidationError(_("The tour is not published yet."))
        partitions = list(Partition.objects.filter(table__tour=tour).order_by("table__number")
                          .values_list("pk", flat=True))
        if not partitions:
            raise ValidationError(_("The tour has no tables."))
        snapshot = tour_snapshot(tour)
        batches = ProtocolBatch.objects.filter(tour=tour).defer("archive")
        same = batches.filter(snapshot=snapshot, status__in=[*ProtocolBatch.ACTIVE, ProtocolBatch.Status.READY]).first()
        if same is not None:
            return same
        now = timezone.now()
        batches.filter(status__in=ProtocolBatch.ACTIVE).update(status=ProtocolBatch.Status.SUPERSEDED, finished_at=now)
        signing.current_key(tour.tournament)  # made once here, not raced for by the workers
        batch = ProtocolBatch.objects.create(tour=tour, total=len(partitions), base_url=base_url[:300],
                                             snapshot=snapshot, progressed_at=now, created_by=user)
        ProtocolBatchItem.objects.bulk_create([ProtocolBatchItem(batch=batch, partition_id=p) for p in partitions])
        transaction.on_commit(lambda: _send_batch_tasks(batch.pk, partitions, assemble=False, queue=queue))
    return batch


def resume_tour_batch(user, batch_id: int, *, queue: str | None = None) -> ProtocolBatch:
    """Send again the tasks of a batch still at work: its tables not yet done, or its ZIP. Harmless
    when they are only slow: a table is counted once, and its document is made once."""
    with transaction.atomic():
        batch = ProtocolBatch.objects.select_for_update().defer("archive").select_related("tour__tournament").get(
            pk=batch_id)
        require_manage(user, batch.tour.tournament)
        if batch.status not in ProtocolBatch.ACTIVE:
            raise ValidationError(_("This batch is not at work: there is nothing to resume."))
        batch.progressed_at = timezone.now()
        batch.save(update_fields=["progressed_at"])
        pending = list(batch.items.filter(done_at__isnull=True).values_list("partition_id", flat=True))
        assemble = batch.status == ProtocolBatch.Status.ASSEMBLING
        transaction.on_commit(lambda: _send_batch_tasks(batch.pk, pending, assemble=assemble, queue=queue))
    return batch


def _send_batch_tasks(batch_id: int, partitions: list[int], *, assemble: bool, queue: str | None) -> None:
    from . import tasks

    options = {"queue": queue} if queue else {}
    if assemble:
        tasks.assemble_protocols.apply_async(args=[batch_id, queue], **options)
    for partition_id in partitions:
        tasks.protocol_for_table.apply_async(args=[batch_id, partition_id, queue], **options)


def make_batch_item(batch_id: int, partition_id: int, *, error: str | None = None) -> bool:
    """Make one table's document of a batch (reusing the one issued for the same state) and count
    it done, once, whatever the retries. ``error``: record this table as failed instead. Returns
    whether the batch waits for its ZIP (the caller then packs it): its last table was counted,
    by this run or by an earlier one whose worker may have died before it could ask for the ZIP."""
    batch = ProtocolBatch.objects.select_related("created_by").defer("archive").get(pk=batch_id)
    item = ProtocolBatchItem.objects.get(batch=batch, partition_id=partition_id)
    if item.done_at is None:
        document = None
        if error is None:
            try:
                document = issue_partition_protocol(batch.created_by, partition_id, base_url=batch.base_url)
            except (ValidationError, PermissionDenied, engine.RulesError) as failure:
                error = "; ".join(getattr(failure, "messages", None) or [str(failure)])
        with transaction.atomic():
            # The conditional update is the lock: exactly one run counts this table.
            counted = ProtocolBatchItem.objects.filter(pk=item.pk, done_at__isnull=True).update(
                done_at=timezone.now(), document=document, error=error or "")
            if counted:
                ProtocolBatch.objects.filter(pk=batch.pk).update(
                    done=F("done") + 1, failed=F("failed") + (1 if error else 0), progressed_at=timezone.now())
                ProtocolBatch.objects.filter(pk=batch.pk, done__gte=F("total"), status=ProtocolBatch.Status.RUNNING
                                             ).update(status=ProtocolBatch.Status.ASSEMBLING)
    return ProtocolBatch.objects.filter(pk=batch_id, status=ProtocolBatch.Status.ASSEMBLING).exists()


def assemble_batch(batch_id: int) -> ProtocolBatch:
    """Pack a finished batch's documents, the tour protocol and a list of SHA-256 sums into its
    ZIP (again harmlessly if it is done already)."""
    batch = ProtocolBatch.objects.select_related("tour__tournament", "created_by").get(pk=batch_id)
    if batch.status == ProtocolBatch.Status.READY:
        return batch
    tour = batch.tour
    prefix = f"{tour.tournament.slug}-tour-{tour.number:02d}"
    items = list(batch.items.select_related("partition__table").order_by("partition__table__number"))
    documents: dict[int | None, ProtocolDocument] = {d.pk: d for d in ProtocolDocument.objects.filter(
        pk__in=[i.document_id for i in items if i.document_id])}
    errors = []
    buffer = io.BytesIO()
    sums = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        def add(name: str, document: ProtocolDocument) -> None:
            archive.writestr(name, bytes(document.pdf))
            sums.append(f"{document.sha256}  {name}  {document.code}")

        try:
            add(f"{prefix}-protocol.pdf", ProtocolDocument.objects.get(
                pk=issue_tour_protocol(batch.created_by, tour.pk, base_url=batch.base_url).pk))
        except (ValidationError, PermissionDenied) as failure:
            errors.append(_("Tour protocol: %(error)s") % {"error": "; ".join(failure.messages)
                                                           if hasattr(failure, "messages") else failure})
        for item in items:
            number = item.partition.table.number
            document = documents.get(item.document_id)
            if document is None:
                errors.append(_("Table %(number)s: %(error)s") % {"number": number, "error": item.error or "?"})
                continue
            add(f"{prefix}-table-{number:03d}-v{document.version}.pdf", document)
        archive.writestr("SHA256SUMS", "\n".join(sums) + "\n")
    with transaction.atomic():
        batch = ProtocolBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.status == ProtocolBatch.Status.READY:
            return batch
        batch.archive = buffer.getvalue()
        batch.error = "\n".join(str(e) for e in errors)
        batch.status = ProtocolBatch.Status.READY
        batch.finished_at = timezone.now()
        batch.save(update_fields=["archive", "error", "status", "finished_at"])
    return batch


def fail_batch(batch_id: int, error: str) -> None:
    ProtocolBatch.objects.filter(pk=batch_id).exclude(status=ProtocolBatch.Status.READY).update(
        status=ProtocolBatch.Status.FAILED, error=error[:2000], finished_at=timezone.now())


def batch_progress(batch: ProtocolBatch) -> dict[str, Any]:
    since = timezone.now() - (batch.progressed_at or batch.created_at)
    return {"id": batch.pk, "status": batch.status, "total": batch.total, "done": batch.done,
            "failed": batch.failed, "percent": round(100 * batch.done / batch.total) if batch.total else 100,
            "ready": batch.status == ProtocolBatch.Status.READY, "error": batch.error,
            "stalled": batch.status in ProtocolBatch.ACTIVE and since.total_seconds() > BATCH_STALL_SECONDS}


def require_batch_access(user, batch: ProtocolBatch) -> None:
    require_manage(user, batch.tour.tournament)


def signing_key_of(tournament: Tournament) -> SigningKey | None:
    return signing.current_key(tournament, create=False)



def describe(document: ProtocolDocument) -> list[tuple[str, str]]:
    """What a document certifies, as labelled lines for the verification page (from its summary,
    as issued)."""
    s = document.summary or {}
    lines = [(_("Document"), f"{document.get_kind_display()} · {document.code}"),
             (_("Tournament"), s.get("tournament", document.tournament.name))]
    if document.kind == ProtocolDocument.Kind.PARTITION:
        pairs, numbers, points = s.get("pairs", {}), s.get("numbers", {}), s.get("points", [0, 0])
        winner = s.get("winner")
        lines += [
            (_("Tour and table"), _("tour %(tour)s, table %(table)s") % {"tour": s.get("tour"), "table": s.get("table")}),
            (_("Pair A"), f"№{numbers.get('A', '')} " + ", ".join(pairs.get("A", []))),
            (_("Pair B"), f"№{numbers.get('B', '')} " + ", ".join(pairs.get("B", []))),
            (_("Final score"), f"A {points[0]} : {points[1]} B"),
            (_("Winner"), (_("pair A") if winner == "A" else _("pair B") if winner == "B" else "—")
             + (f" · {labels.REASONS.get(s['reason'], s['reason'])}" if s.get("reason") else "")),
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
    lines += [(_("Issued"), _local(document.created_at).strftime("%d.%m.%Y %H:%M")),
              (_("SHA-256 of the issued file"), document.sha256)]
    return lines
