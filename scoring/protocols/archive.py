"""What the batches' ZIPs hold (:mod:`.batch_jobs` packs them): a tour's protocols, and the whole
tournament's archive for the federation: every published tour's table protocols (signed PDF and
``domino-protocol/1`` JSON) and tour protocol, the final protocol, the standings and the
crosstable, a ``manifest.json`` (each file's name, size and SHA-256) and ``SHA256SUMS``.

The tournament's own files (standings, crosstable, team standings...) come from :data:`TOURNAMENT_FILES`:
one line per kind of file."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring import engine
from scoring.models import ProtocolBatch, ProtocolBatchItem, ProtocolDocument
from tournaments import standings
from tournaments.models import Entry, Tour, Tournament

from scoring.protocols import rendering
from scoring.protocols.crosstable import crosstable_pdf
from scoring.protocols.issuing import issue_final_protocol, issue_tour_protocol
from scoring.protocols.sheets import final_snapshot, tour_snapshot
from scoring.recording import queries

#: The version of the archive's manifest.
MANIFEST_FORMAT = "domino-archive/1"


@dataclass(frozen=True)
class Member:
    """A file of a ZIP: its name in the ZIP, its bytes and their SHA-256."""

    name: str
    data: bytes
    sha256: str

    @classmethod
    def of(cls, name: str, data: bytes) -> Member:
        return cls(name, data, hashlib.sha256(data).hexdigest())

    @classmethod
    def document(cls, name: str, document: ProtocolDocument) -> Member:
        return cls(name, bytes(document.pdf), document.sha256)


def failure_text(failure: Exception) -> str:
    """A refusal's messages (a ValidationError's, or the error itself) as one line."""
    return "; ".join(getattr(failure, "messages", None) or [str(failure)])


def _kinds(tournament: Tournament) -> tuple[str, ...]:
    """Of the pairs (a pair event) and of the players, as the standings' pages."""
    return ("players",) if tournament.is_individual else standings.KINDS


def standings_files(tournament: Tournament) -> Iterable[tuple[str, bytes]]:
    """The final standings as CSV and XLSX (the page's files)."""
    for kind in _kinds(tournament):
        table = standings.standings_table(tournament, kind=kind)
        yield table.file_name, table.csv()
        yield table.xlsx_file_name, standings.standings_xlsx(table)


def crosstable_files(tournament: Tournament) -> Iterable[tuple[str, bytes]]:
    """The crosstable as PDF and XLSX (the page's files)."""
    for kind in _kinds(tournament):
        ct = standings.crosstable(tournament, kind=kind)
        yield ct.file_name("pdf"), crosstable_pdf(ct)
        yield ct.file_name("xlsx"), standings.crosstable_xlsx(ct)


def team_standings_files(tournament: Tournament) -> Iterable[tuple[str, bytes]]:
    """The team standings as CSV, when the tournament has them."""
    if tournament.team_best:
        table = standings.team_standings(tournament)
        yield table.file_name, table.csv()


#: The tournament's files in its archive, beside the protocols: each a function of the tournament
#: giving (name, bytes) pairs.
TOURNAMENT_FILES: list[Callable[[Tournament], Iterable[tuple[str, bytes]]]] = [
    standings_files,
    crosstable_files,
    team_standings_files,
]


def archive_snapshot(tournament: Tournament) -> str:
    """The state of everything the archive holds: the final protocol's and each published tour's."""
    tours = tournament.tours.exclude(status=Tour.Status.DRAFT).order_by("number")
    parts = ["archive", final_snapshot(tournament), *(tour_snapshot(t) for t in tours), str(tournament.team_best)]
    if tournament.team_best:  # the clubs the entries count for
        parts += [f"{p}:{c}" for p, c in Entry.objects.filter(tournament=tournament).order_by("player_id")
                  .values_list("player_id", "club")]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def tour_prefix(tour: Tour) -> str:
    return f"{tour.tournament.slug}-tour-{tour.number:02d}"


def tour_members(batch: ProtocolBatch, tour: Tour, items: list[ProtocolBatchItem],
                 documents: dict[int | None, ProtocolDocument], *, folder: str = "",
                 json_files: bool = False) -> tuple[list[Member], list[str]]:
    """A tour's files: its tour protocol, then each table's signed PDF made by the batch (and its
    protocol file, ``json_files``); and the errors, one per file that could not be made."""
    prefix = folder + tour_prefix(tour)
    members, errors = [], []
    try:
        members.append(Member.document(f"{prefix}-protocol.pdf", ProtocolDocument.objects.get(
            pk=issue_tour_protocol(batch.acting, tour.pk, base_url=batch.base_url).pk)))
    except (ValidationError, PermissionDenied) as failure:
        errors.append(_("Tour %(tour)s protocol: %(error)s") % {"tour": tour.number, "error": failure_text(failure)})
    for item in items:
        partition = item.partition
        number = partition.table.number
        document = documents.get(item.document_id)
        if document is None:
            errors.append(_("Table %(number)s: %(error)s") % {"number": number, "error": item.error or "?"})
        else:
            members.append(Member.document(f"{prefix}-table-{number:03d}-v{document.version}.pdf", document))
        if json_files:
            try:
                # Seen as the public sees it: a deal still in play is left out, with its hands.
                data = queries.export_protocol(partition, viewer=AnonymousUser())
            except (ValidationError, engine.RulesError) as failure:
                errors.append(_("Table %(number)s: %(error)s") % {"number": number, "error": failure_text(failure)})
                continue
            text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
            members.append(Member.of(f"{prefix}-table-{number:03d}-v{partition.version}.json", text.encode()))
    return members, errors


def archive_members(batch: ProtocolBatch, items: list[ProtocolBatchItem],
                    documents: dict[int | None, ProtocolDocument]) -> tuple[list[Member], list[str]]:
    """The tournament's archive: a folder per published tour, the final protocol, the
    tournament's files (:data:`TOURNAMENT_FILES`) and the manifest."""
    tournament = batch.tournament
    members, errors = [], []
    by_tour: dict[int, list[ProtocolBatchItem]] = {}
    for item in items:
        by_tour.setdefault(item.partition.table.tour_id, []).append(item)
    for tour in tournament.tours.exclude(status=Tour.Status.DRAFT).order_by("number"):
        found, failed = tour_members(batch, tour, by_tour.get(tour.pk, []), documents,
                                     folder=f"tour-{tour.number:02d}/", json_files=True)
        members += found
        errors += failed
    try:
        members.append(Member.document(f"{tournament.slug}-final-protocol.pdf", ProtocolDocument.objects.get(
            pk=issue_final_protocol(batch.acting, tournament.pk, base_url=batch.base_url).pk)))
    except (ValidationError, PermissionDenied) as failure:
        errors.append(_("Final protocol: %(error)s") % {"error": failure_text(failure)})
    with translation.override(rendering.PDF_LANGUAGE):  # the files' headers: as the protocols, in Russian
        for files in TOURNAMENT_FILES:
            members += [Member.of(name, data) for name, data in files(tournament)]
    manifest = {
        "format": MANIFEST_FORMAT,
        "tournament": {"slug": tournament.slug, "name": tournament.name, "venue": tournament.venue,
                       "starts_on": tournament.starts_on.isoformat(), "ends_on": tournament.ends_on.isoformat()},
        "generated_at": timezone.now().isoformat(timespec="seconds"),
        "files": [{"name": m.name, "size": len(m.data), "sha256": m.sha256} for m in members],
        "errors": errors,
    }
    members.append(Member.of("manifest.json", (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode()))
    return members, errors


def pack(members: list[Member]) -> bytes:
    """A ZIP of ``members`` and their ``SHA256SUMS``, as ``sha256sum`` writes it: ``sha256sum -c
    SHA256SUMS`` checks the unpacked folder."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for member in members:
            archive.writestr(member.name, member.data)
        archive.writestr("SHA256SUMS", "".join(f"{m.sha256}  {m.name}\n" for m in members))
    return buffer.getvalue()


def file_name(batch: ProtocolBatch) -> str:
    """The download's name."""
    if batch.is_archive:
        return f"{batch.tournament.slug}-archive.zip"
    return f"{batch.tournament.slug}-tour-{batch.tour_of_batch.number}-protocols.zip"
