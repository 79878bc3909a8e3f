"""The REST API of the scoring app: thin views over :mod:`scoring.recording.commands` and the standings.

Recording (``/api/partitions/{id}/...``): each write validates the request's shape with a
serializer and calls one service of :mod:`scoring.recording.commands`, which checks the permission, the
version and the rules inside its transaction; the answer is the partition as it is then. A stale
version is a 409 with the current version; ``Idempotency-Key`` makes a retried request apply once.

A table records what its game has (:data:`SHEETS`): a sports partition its lines, a Goat or Sea
Goat table its sitting of games deal by deal; each answers in its own shape.

Reads show what :mod:`tournaments.permissions` lets the user see: a partition of a visible tour;
its history and earlier versions to the tournament's staff only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema,
                                   extend_schema_view)
from rest_framework import exceptions, status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from tournaments import permissions
from tournaments.models import Player
from tournaments.web.api import ApiViewSet, ErrorSerializer, valid
from tournaments.web.parsers import JSONParser

from scoring import engine

from scoring.recording import hands, pipeline, storage

from scoring.models import Partition
from scoring.recording import commands, queries
from scoring.web import serializers

SEATS = ("seat1", "seat2", "seat3", "seat4")


def detailed(pk: int) -> Partition:
    """A partition with everything its answer shows, in two queries. (One query joining the players
    too would join 14 tables, and with a LIMIT PostgreSQL takes some 20 ms planning it: more than
    the rest of a recording request. The lookups here have no LIMIT for the same reason.)"""
    partition, = Partition.objects.select_related(
        "table__tour__tournament", "table__referee", "table__pair_a", "table__pair_b").filter(pk=pk)
    table = partition.table
    pairs = [pair for pair in (table.pair_a, table.pair_b) if pair is not None]  # none at a Goat table
    seated = [seat for seat in SEATS if getattr(table, f"{seat}_id") is not None]
    players = Player.objects.in_bulk({getattr(table, f"{seat}_id") for seat in seated}
                                     | {getattr(pair, f"{p}_id") for pair in pairs for p in ("first", "second")})
    for seat in seated:
        setattr(table, seat, players[getattr(table, f"{seat}_id")])
    for pair in pairs:
        pair.first, pair.second = players[pair.first_id], players[pair.second_id]
    return partition


@dataclass(frozen=True)
class Line:
    """An action of ``record/``: the serializer of its data, and the service ``write`` takes the
    checked data to (``write(user, partition_id, data, version=, idempotency_key=, address=)``)."""

    data: type[serializers.ClosedSerializer]
    write: Callable[..., Partition]


@dataclass(frozen=True)
class Sheet:
    """The API of a table of one game: the actions of ``record/``; ``import/``'s service; the
    request of ``correct-deal/`` and what takes its checked data; the table's state and the
    serializer of every answer."""

    lines: Mapping[str, Line]
    import_protocol: Callable[..., Partition]
    correction: type[serializers.ClosedSerializer]
    correct: Callable[..., Partition]
    state: Callable[[Partition, int | None], Any]
    answer: type[Serializer]


def _sports_line(action: str) -> Line:
    return Line(serializers.ACTION_DATA[action], lambda user, pk, data, **stamp: commands.record(
        user, pk, action, data, **stamp))


def _goat_line(action: str, data: type[serializers.ClosedSerializer]) -> Line:
    return Line(data, lambda user, pk, checked, **stamp: commands.record_goat(user, pk, action, checked, **stamp))


SPORTS = Sheet(
    lines={action: _sports_line(action) for action in serializers.ACTION_DATA},
    import_protocol=commands.import_protocol,
    correction=serializers.CorrectDealSerializer,
    correct=lambda user, pk, data, **stamp: commands.correct_deal(
        user, pk, data["number"], {**data["deal"], "pips": dict(data["deal"]["pips"])}, reason=data["reason"], **stamp),
    state=serializers.PartitionState.of, answer=serializers.PartitionDetailSerializer)

GOAT = Sheet(
    lines={
        "goat_deal": Line(serializers.GoatDealDataSerializer, lambda user, pk, data, **stamp: commands.record_goat_deal(
            user, pk, data, **stamp)),
        "goat_penalty": _goat_line("goat_penalty", serializers.GoatPenaltyDataSerializer),
        "goat_time": _goat_line("goat_time", serializers.GoatTimeDataSerializer),
        "goat_annul": Line(serializers.GoatAnnulDataSerializer, lambda user, pk, data, **stamp: (
            commands.annul_goat_penalty(user, pk, data["game"], data["penalty"], reason=data["reason"], **stamp))),
    },
    import_protocol=commands.import_sitting,
    correction=serializers.GoatCorrectDealSerializer,
    correct=lambda user, pk, data, **stamp: commands.correct_goat_deal(
        user, pk, data["game"], data["number"], dict(data["deal"]), reason=data["reason"], **stamp),
    state=serializers.SittingState.of, answer=serializers.SittingDetailSerializer)

#: The API of a table by the family of the game its tournament plays (a points game's table is
#: recorded on its score sheet only).
SHEETS: engine.Parts[Sheet] = engine.Parts({engine.Family.PARTITION: SPORTS, engine.Family.TILES: GOAT,
                                            engine.Family.POINTS: None})


def sheet_of(partition: Partition) -> Sheet:
    sheet = SHEETS.get(partition.table.tour.tournament.kind)
    if sheet is None:  # a points game (RULES 9.3)
        raise exceptions.ValidationError(_("The API does not serve a table of a points game yet: it is recorded on its score "
                                "sheet."))
    return sheet


def _one_of(name: str, shapes: list[Any]) -> PolymorphicProxySerializer:
    """For the schema: one of ``shapes`` (each once), by the game the table plays."""
    return PolymorphicProxySerializer(component_name=name, resource_type_field_name=None,
                                      serializers=list(dict.fromkeys(shapes)))


#: What each write answers, and a read: the table as it is, in its game's shape.
ANSWER = _one_of("PartitionOrSitting", [sheet.answer for sheet in SHEETS.values()])


def client_address(request) -> str | None:
    """The address the request came from, for the history of changes. Behind a proxy this is the
    proxy's: the deployment's proxy is trusted for the scheme only (README, Production)."""
    return request.META.get("REMOTE_ADDR") or None


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="Any text up to 100 characters, new for each change. A request retried with the same key "
                "(after a lost answer) is applied once: the retry gets the partition back and nothing is "
                "stored again. The same key with other data is a 400.")
VERSION = OpenApiParameter("version", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                           description="An earlier version (0: before anything was recorded). "
                                       "The tournament's staff only.")
CONFLICT = OpenApiResponse(serializers.ConflictSerializer, description=(
    "The partition changed since the version sent: nothing was stored. Reload, then record again."))
STAFF_ONLY = {401: OpenApiResponse(ErrorSerializer, description="Not authenticated."),
              403: OpenApiResponse(ErrorSerializer, description="Not of the tournament's staff.")}


def _writes(summary: str, description: str, request) -> Any:
    return extend_schema(summary=summary, description=description, request=request,
                         parameters=[IDEMPOTENCY_KEY],
                         responses={200: ANSWER, 409: CONFLICT})


@extend_schema_view(
    retrieve=extend_schema(
        summary="A partition: the score sheet",
        description="A sports table (`PartitionDetail`): result, the engine's output document, what comes next (lead "
                    "draw, deal, last deal, extra deal, over; the deal's number and leader), pending penalties, "
                    "violations with their warnings, pairs, seats and referee. A Goat or Sea Goat table "
                    "(`SittingDetail`): its sitting, each game's deals (charges or credits, scores, memorised "
                    "points, carry), penalties, game points and goats or winner, the sitting's totals and what "
                    "comes next. With `version`, as it was then.",
        parameters=[VERSION], responses={200: ANSWER, **STAFF_ONLY}),
    record=_writes(
        "Record a line of the score sheet",
        "A sports table: the lead draw, a deal (how it ended and the pips left), a penalty, a violation (a warning "
        "first where the rules say so), the clock running out, a no-show, a restarted deal; the chief referee "
        "also annuls violations and declares forfeits. A Goat or Sea Goat table: a deal of the game being played "
        "in summary form (`goat_deal`, with `lead` for a game's first deal), a penalty (`goat_penalty`: Goat "
        "charges the offender, Sea Goat credits the others), the table's time running out (`goat_time`); the "
        "chief referee annuls a penalty (`goat_annul`). An action of the other game is a 400. The referee of "
        "the table, the chief referee or an organiser. A finished partition is closed: only a correction "
        "changes it.",
        serializers.record_request({action: line.data for sheet in SHEETS.values()
                                    for action, line in sheet.lines.items()})),
    import_protocol=_writes(
        "Record a partition from a protocol",
        "A sports table: a protocol document (domino-protocol/1), e.g. a paper protocol typed in; without "
        "`regulations` the tournament's apply. A Goat or Sea Goat table: its protocol file (domino-sitting/1), "
        "or one game (domino-protocol/1), under the tournament's regulations at the table's size. Into a "
        "partition nothing is recorded in yet; with `reason`, the chief referee replaces a recorded one (a "
        "correction, a new version). Refused as a whole, naming the place.",
        _one_of("ImportRequest", [serializers.ImportSerializer, serializers.ImportSittingSerializer])),
    correct_deal=_writes(
        "Correct a deal",
        "The chief referee corrects deal `number` (summary form; at a Goat or Sea Goat table deal `number` of "
        "game `game`) giving a reason; everything after it is replayed, and a correction that makes a later "
        "record impossible is refused. A new version: the earlier ones stay readable.",
        _one_of("CorrectDealRequest", [serializers.CorrectDealSerializer, serializers.GoatCorrectDealSerializer])),
    export=extend_schema(
        summary="The partition as a protocol document",
        description="domino-protocol/1, with the pairs' names; a Goat or Sea Goat table's file, domino-sitting/1. "
                    "Anyone who sees the partition once it is finished; the tournament's staff at any time and "
                    "for earlier versions. `download=1` answers it as a file.",
        parameters=[VERSION, OpenApiParameter("download", OpenApiTypes.BOOL, OpenApiParameter.QUERY,
                                              required=False, description="As an attachment (a .json file).")],
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The protocol document."),
                   **STAFF_ONLY}),
    changes=extend_schema(
        summary="The history of a partition",
        description="Every change, oldest first, never altered: version, action and its data, the reason of "
                    "a correction, who, when, from which address, the result before and after. The "
                    "tournament's staff only.",
        responses={200: serializers.ChangeSerializer(many=True), **STAFF_ONLY}),
)
@extend_schema(tags=["partitions"])
class PartitionViewSet(ApiViewSet):
    """``/api/partitions/{id}/``: the id is in each table of a tour (``partition.id``)."""

    serializer_class = serializers.PartitionDetailSerializer  # a sports table's; each game's: SHEETS
    lookup_value_converter = "int"
    queryset = Partition.objects.all()

    def get_object(self) -> Partition:
        pk = self.kwargs["pk"]
        partition = next(iter(Partition.objects.select_related("table__tour__tournament", "live").filter(pk=pk)), None)
        tour = partition.table.tour if partition is not None else None
        user = self.request.user
        if partition is None or tour is None or not (permissions.can_see_tournament(user, tour.tournament)
                                and permissions.can_see_tour(user, tour)):
            raise exceptions.NotFound(_("There is no partition %(id)s.") % {"id": pk})
        return partition

    def _query(self) -> dict:
        return valid(serializers.VersionQuerySerializer, self.request.query_params)

    def _version(self, partition: Partition, version: int | None) -> int | None:
        """An earlier version is for the tournament's staff only."""
        if version is not None and version != partition.version:
            permissions.require_staff(self.request.user, partition.table.tour.tournament)
        return version

    def _answer(self, partition: Partition, version: int | None = None) -> Response:
        """The table as it is now (after a write), or was at ``version``, in its game's shape."""
        sheet = sheet_of(partition)
        return Response(sheet.answer(sheet.state(detailed(partition.pk), version)).data)

    def _write_options(self) -> dict[str, Any]:
        return {"idempotency_key": self.request.headers.get("Idempotency-Key", ""),
                "address": client_address(self.request)}

    def handle_exception(self, exc):
        if isinstance(exc, storage.Conflict):
            return Response({"detail": str(exc), "current_version": exc.current_version},
                            status=status.HTTP_409_CONFLICT)
        return super().handle_exception(exc)

    def retrieve(self, request, pk):
        partition = pipeline.caught_up(self.get_object())
        return self._answer(partition, self._version(partition, self._query().get("version")))

    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def record(self, request, pk):
        partition = self.get_object()
        lines = sheet_of(partition).lines
        data = valid(serializers.RecordSerializer, request.data,
                     context={"actions": {action: line.data for action, line in lines.items()}})
        partition = lines[data["action"]].write(request.user, partition.pk, data["data"], version=data.get("version"),
                                                **self._write_options())
        return self._answer(partition)

    @action(detail=True, methods=["post"], url_path="import", parser_classes=[JSONParser])
    def import_protocol(self, request, pk):
        partition = self.get_object()
        if not isinstance(request.data, Mapping):
            raise exceptions.ValidationError(_("A protocol must be a JSON object."))
        document = dict(request.data)
        options = valid(serializers.ImportOptionsSerializer,
                         {key: document.pop(key) for key in ("reason", "version") if key in document})
        partition = sheet_of(partition).import_protocol(request.user, partition.pk, document, reason=options["reason"],
                                                        version=options.get("version"), **self._write_options())
        return self._answer(partition)

    @action(detail=True, methods=["post"], url_path="correct-deal", parser_classes=[JSONParser])
    def correct_deal(self, request, pk):
        partition = self.get_object()
        sheet = sheet_of(partition)
        data = valid(sheet.correction, request.data)
        partition = sheet.correct(request.user, partition.pk, data, version=data.get("version"), **self._write_options())
        return self._answer(partition)

    @action(detail=True, methods=["get"])
    def export(self, request, pk):
        partition = self.get_object()
        query = self._query()
        version = self._version(partition, query.get("version"))
        if not partition.is_finished:
            permissions.require_staff(request.user, partition.table.tour.tournament)
        document = queries.export_protocol(partition, version, viewer=request.user,
                                            address=client_address(request))
        headers = {}
        if query["download"]:
            name = queries.export_file_name(partition, version)
            headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return Response(document, headers=headers)

    @action(detail=True, methods=["get"])
    def changes(self, request, pk):
        partition = self.get_object()
        permissions.require_staff(request.user, partition.table.tour.tournament)
        changes = partition.changes.select_related("user").order_by("version")
        hide = hands.deal_in_play(partition) and not hands.sees_deal(request.user, partition)
        return self.page(changes, serializers.ChangeSerializer, hide_deal_in_play=hide)
