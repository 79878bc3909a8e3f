"""The REST API: thin viewsets over :mod:`tournaments.services`.

Each write validates the request's shape with a serializer, calls one service (which checks the
permission and the rules inside its transaction) and returns the serialized result. Reads show
only what :mod:`tournaments.permissions` lets the user see. Errors are turned into JSON by
:func:`tournaments.web.api.exception_handler`.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Prefetch
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.web.api import ApiSchema, ApiViewSet, ErrorSerializer, one, valid
from tournaments.web.uploads import upload_limit

from . import imports, permissions, serializers, services, standings, tours
from .models import Bye, Entry, Pair, Player, SitOut, Table, Tour, Tournament


class TournamentScoped(ApiViewSet):
    """A viewset of /tournaments/{slug}/ and under it: the tournament must be visible to the user."""

    @cached_property
    def tournament(self) -> Tournament:
        slug = self.kwargs["slug"]
        return one(permissions.visible_tournaments(self.request.user),
                    _("There is no tournament %(slug)s.") % {"slug": slug}, slug=slug)


# -- tournaments and roles -----------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="Tournaments", description="Every tournament but drafts; the drafts "
                       "you are staff of too."),
    retrieve=extend_schema(summary="A tournament"),
    create=extend_schema(summary="Create a tournament", description="In draft; you become its organiser. "
                         "Needs the right to create tournaments.",
                         request=serializers.TournamentCreateSerializer,
                         responses={201: serializers.TournamentSerializer}),
    partial_update=extend_schema(summary="Change a tournament", description="Name, dates, venue, status, "
                                 "format, regulations. The format and the regulations are fixed once a tour "
                                 "is published. Organisers only.",
                                 request=serializers.TournamentUpdateSerializer,
                                 responses=serializers.TournamentSerializer),
)
@extend_schema(tags=["tournaments"])
class TournamentViewSet(TournamentScoped):
    serializer_class = serializers.TournamentSerializer
    lookup_field = "slug"
    lookup_value_converter = "slug"

    def get_queryset(self):
        return permissions.visible_tournaments(self.request.user).order_by("-starts_on", "name", "slug")

    def get_object(self) -> Tournament:
        return self.tournament

    def list(self, request):
        return self.page(self.get_queryset())

    def retrieve(self, request, slug):
        return Response(self.get_serializer(self.get_object()).data)

    def create(self, request):
        data = valid(serializers.TournamentCreateSerializer, request.data)
        tournament = services.create_tournament(request.user, **data)
        return Response(self.get_serializer(tournament).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, slug):
        tournament = self.get_object()
        data = valid(serializers.TournamentUpdateSerializer, request.data, partial=True)
        tournament = services.update_tournament(request.user, tournament, **data)
        return Response(self.get_serializer(tournament).data)


@extend_schema_view(
    list=extend_schema(summary="Roles in a tournament", description="Staff of the tournament only.",
                       responses={200: serializers.RoleSerializer(many=True),
                                  401: OpenApiResponse(ErrorSerializer, description="Not authenticated."),
                                  403: OpenApiResponse(ErrorSerializer, description="Not of the tournament's staff.")}),
    create=extend_schema(summary="Give a user a role", description="Organisers only.",
                         request=serializers.RoleCreateSerializer, responses={201: serializers.RoleSerializer}),
    destroy=extend_schema(summary="Take a role away", description="Organisers only; a tournament keeps "
                          "at least one organiser. A referee leaves the tables of tours not yet played."),
)
@extend_schema(tags=["roles"])
class RoleViewSet(TournamentScoped):
    serializer_class = serializers.RoleSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return self.tournament.roles.select_related("user").order_by("kind", "user__username")

    def list(self, request, slug):
        permissions.require_staff(request.user, self.tournament)
        return self.page(self.get_queryset())

    def create(self, request, slug):
        data = valid(serializers.RoleCreateSerializer, request.data)
        role = services.add_role(request.user, self.tournament, data["username"], data["kind"])
        return Response(self.get_serializer(role).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, slug, pk):
        role = one(self.get_queryset(), _("There is no such role in this tournament."), pk=pk)
        services.remove_role(request.user, role)
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- players -------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="Players", description="The players registered in the tournaments you may "
                       "see (a draft's players to its staff only), and your own."),
    retrieve=extend_schema(summary="A player"),
    partial_update=extend_schema(summary="Change a player's data", description="The player himself (his "
                                 "linked account) or an organiser of a tournament he is registered in.",
                                 request=serializers.PlayerDataSerializer, responses=serializers.PlayerSerializer),
)
@extend_schema(tags=["players"])
class PlayerViewSet(ApiViewSet):
    serializer_class = serializers.PlayerSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return permissions.visible_players(self.request.user).order_by("last_name", "first_name", "pk")

    def get_object(self) -> Player:
        return one(self.get_queryset(), _("There is no such player."), pk=self.kwargs["pk"])

    def list(self, request):
        return self.page(self.get_queryset())

    def retrieve(self, request, pk):
        return Response(self.get_serializer(self.get_object()).data)

    def partial_update(self, request, pk):
        player = self.get_object()
        data = valid(serializers.PlayerDataSerializer, request.data, partial=True)
        player = services.update_player(request.user, player, data)
        return Response(self.get_serializer(player).data)


# -- pairs and entries ---------------------------------------------------------------------------


class CsvParser(BaseParser):
    """A text/csv body, as bytes: the service decodes it, and refuses it past its size."""

    media_type = "text/csv"

    # request.data is the body's bytes, not the parsed data DRF's parsers give.
    def parse(self, stream, media_type=None, parser_context=None) -> bytes:  # type: ignore[override]
        return stream.read(settings.CSV_IMPORT_MAX_SIZE + 1)


@extend_schema_view(
    list=extend_schema(summary="Pairs of a pair tournament", description="With withdrawn pairs "
                       "(withdrawn_at set)."),
    retrieve=extend_schema(summary="A pair"),
    create=extend_schema(summary="Register a pair", description="Players are found by federation id or "
                         "created. Organisers only.", request=serializers.PairCreateSerializer,
                         responses={201: serializers.PairSerializer}),
    withdraw=extend_schema(summary="Withdraw a pair", description="It is not drawn again; its played "
                           "partitions stay. Organisers only.", request=None,
                           responses=serializers.PairSerializer),
    import_csv=extend_schema(
        summary="Register pairs from a CSV file",
        description="All or none: a file with a bad line registers nothing and the answer lists every bad "
                    "line. Send the file as multipart (field `file`) or as a text/csv body. Organisers only.",
        request={"multipart/form-data": serializers.CsvUploadSerializer, "text/csv": OpenApiTypes.BINARY},
        responses={201: serializers.ImportedSerializer,
                   400: OpenApiResponse(serializers.ImportRefusedSerializer,
                                        description="Nothing imported; errors.lines names the bad lines.")}),
)
@extend_schema(tags=["pairs"])
class PairViewSet(TournamentScoped):
    serializer_class = serializers.PairSerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return Pair.objects.filter(tournament=self.tournament, tour__isnull=True).select_related("first", "second")

    def get_object(self) -> Pair:
        return one(self.get_queryset(), _("There is no such pair in this tournament."), pk=self.kwargs["pk"])

    def list(self, request, slug):
        return self.page(self.get_queryset())

    def retrieve(self, request, slug, pk):
        return Response(self.get_serializer(self.get_object()).data)

    def create(self, request, slug):
        data = valid(serializers.PairCreateSerializer, request.data)
        pair = services.register_pair(request.user, self.tournament, data["first"], data["second"],
                                      number=data.get("number"))
        return Response(self.get_serializer(pair).data, status=status.HTTP_201_CREATED)

    @action(detail=True, methods=["post"])
    def withdraw(self, request, slug, pk):
        pair = services.withdraw_pair(request.user, self.get_object())
        return Response(self.get_serializer(pair).data)

    @action(detail=False, methods=["post"], url_path="import",
            parser_classes=[CsvParser, MultiPartParser, FormParser])
    @upload_limit("CSV_IMPORT_MAX_SIZE")
    def import_csv(self, request, slug):
        if request.content_type.startswith(CsvParser.media_type):
            content = request.data or b""  # an empty body is an empty file
        else:
            content = valid(serializers.CsvUploadSerializer, request.data)["file"].read()
        report = imports.import_pairs_csv(request.user, self.tournament, content)
        if report.errors:
            return Response({
                "detail": _("Nothing was imported: correct the lines listed and send the file again."),
                "errors": {"lines": [{"line": line, "message": message} for line, message in report.errors]},
            }, status=status.HTTP_400_BAD_REQUEST)
        return Response({"created": report.created}, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(summary="Players registered in a tournament", description="In pair tournaments "
                       "each player of each pair; with withdrawn players (withdrawn_at set)."),
    create=extend_schema(summary="Register a player in an individual tournament",
                         description="Found by federation id or created. Organisers only.",
                         request=serializers.PlayerDataSerializer, responses={201: serializers.EntrySerializer}),
    withdraw=extend_schema(summary="Withdraw a player of an individual tournament",
                           description="He is not drawn again. Organisers only.", request=None,
                           responses=serializers.EntrySerializer),
)
@extend_schema(tags=["entries"])
class EntryViewSet(TournamentScoped):
    serializer_class = serializers.EntrySerializer
    lookup_value_converter = "int"

    def get_queryset(self):
        return (Entry.objects.filter(tournament=self.tournament).select_related("player")
                .order_by("player__last_name", "player__first_name", "pk"))

    def list(self, request, slug):
        return self.page(self.get_queryset())

    def create(self, request, slug):
        data = valid(serializers.PlayerDataSerializer, request.data)
        entry = services.register_player(request.user, self.tournament, data)
        return Response(self.get_serializer(entry).data, status=status.HTTP_201_CREATED)

    @action(detail=True, methods=["post"])
    def withdraw(self, request, slug, pk):
        entry = one(self.get_queryset(), _("There is no such entry in this tournament."), pk=pk)
        entry = services.withdraw_entry(request.user, entry)
        return Response(self.get_serializer(entry).data)


# -- tours and tables ----------------------------------------------------------------------------

_PAIR = ("first", "second")
# A table with everything its answer shows, in one query.
TABLES = Table.objects.select_related("referee", "partition", "seat1", "seat2", "seat3", "seat4",
                                      *(f"pair_{side}__{p}" for side in "ab" for p in _PAIR))
TOUR_PREFETCH = (
    Prefetch("tables", queryset=TABLES),
    Prefetch("byes", queryset=Bye.objects.select_related(*(f"pair__{p}" for p in _PAIR)).order_by("pair__number")),
    Prefetch("sit_outs", queryset=SitOut.objects.select_related("player").order_by(
        "player__last_name", "player__first_name")),
)


@extend_schema_view(
    list=extend_schema(summary="Tours of a tournament", description="With their tables, byes and sit-outs. "
                       "A draft tour is shown to the tournament's staff only."),
    retrieve=extend_schema(summary="A tour"),
    generate=extend_schema(summary="Draw the next tour", description="By the tournament's format, as a "
                           "draft; a draft tour is drawn again from scratch. Manual format: an empty draft to "
                           "seat with PUT tables. Organisers only.",
                           request=serializers.GenerateTourSerializer, responses={201: serializers.TourSerializer}),
    tables=extend_schema(summary="Seat a draft tour by hand", description="The whole seating, checked as a "
                         "whole, replaces the draft's tables. Pair events only. Organisers only.",
                         request=serializers.SeatingSerializer, responses=serializers.TourSerializer),
    publish=extend_schema(summary="Publish a draft tour", description="Players and the public see it; it "
                          "cannot be redrawn. Organisers only.", request=None, responses=serializers.TourSerializer),
)
@extend_schema(tags=["tours"])
class TourViewSet(TournamentScoped):
    serializer_class = serializers.TourSerializer
    lookup_field = "number"
    lookup_value_converter = "int"

    def get_queryset(self):
        return permissions.visible_tours(self.request.user, self.tournament).prefetch_related(*TOUR_PREFETCH)

    def get_object(self) -> Tour:
        number = self.kwargs["number"]
        return one(self.get_queryset(), _("There is no tour %(number)s in this tournament.") % {"number": number},
                    number=number)

    def _answer(self, tour: Tour, code: int = status.HTTP_200_OK) -> Response:
        """The tour as it is now, after a write."""
        return Response(self.get_serializer(self.get_queryset().get(pk=tour.pk)).data, status=code)

    def list(self, request, slug):
        return self.page(self.get_queryset())

    def retrieve(self, request, slug, number):
        return Response(self.get_serializer(self.get_object()).data)

    @action(detail=False, methods=["post"])
    def generate(self, request, slug):
        data = valid(serializers.GenerateTourSerializer, request.data)
        tour = tours.generate_tour(request.user, self.tournament, planned_start=data.get("planned_start"))
        return self._answer(tour, status.HTTP_201_CREATED)

    @action(detail=True, methods=["put"])
    def tables(self, request, slug, number):
        tour = self.get_object()
        data = valid(serializers.SeatingSerializer, request.data)
        tour = tours.set_tables(request.user, tour, [(t["pair_a"], t["pair_b"]) for t in data["tables"]],
                                   bye=data.get("bye"))
        return self._answer(tour)

    @action(detail=True, methods=["post"])
    def publish(self, request, slug, number):
        return self._answer(tours.publish_tour(request.user, self.get_object()))


@extend_schema_view(
    retrieve=extend_schema(summary="A table of a tour"),
    referee=extend_schema(summary="Assign the referee of a table", description="A user with a referee or "
                          "chief referee role in the tournament, or null. Organisers only.",
                          request=serializers.RefereeSerializer, responses=serializers.TableSerializer),
)
@extend_schema(tags=["tables"])
class TableViewSet(TournamentScoped):
    serializer_class = serializers.TableSerializer
    lookup_field = "number"
    lookup_value_converter = "int"

    @cached_property
    def tour(self) -> Tour:
        number = self.kwargs["tour_number"]
        return one(permissions.visible_tours(self.request.user, self.tournament),
                    _("There is no tour %(number)s in this tournament.") % {"number": number}, number=number)

    def get_queryset(self):
        return TABLES.filter(tour=self.tour)

    def get_object(self) -> Table:
        number = self.kwargs["number"]
        return one(self.get_queryset(), _("There is no table %(number)s in this tour.") % {"number": number},
                    number=number)

    def retrieve(self, request, slug, tour_number, number):
        return Response(self.get_serializer(self.get_object()).data)

    @action(detail=True, methods=["put"])
    def referee(self, request, slug, tour_number, number):
        table = self.get_object()
        data = valid(serializers.RefereeSerializer, request.data)
        table = services.assign_referee(request.user, table, data["referee"])
        return Response(self.get_serializer(self.get_queryset().get(pk=table.pk)).data)



# -- standings -----------------------------------------------------------------------------------


#: Which standings: the query both the standings and the crosstable take.
COUNTED = [
    OpenApiParameter("after_tour", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                     description="Count tours 1 to N only (a published tour)."),
    OpenApiParameter("kind", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, enum=standings.KINDS,
                     description="pairs (the default in pair events) or players."),
]


def _counted(request, slug: str, build):
    """``build`` (the standings or the crosstable) of the tournament ``slug`` the caller may see,
    for the query's kind and tours."""
    tournament = one(permissions.visible_tournaments(request.user),
                     _("There is no tournament %(slug)s.") % {"slug": slug}, slug=slug)
    query = valid(serializers.StandingsQuerySerializer, request.query_params)
    return build(tournament, kind=query.get("kind"), after_tour=query.get("after_tour"))


class StandingsCsvRenderer(BaseRenderer):
    """The standings as the spreadsheet the pages give too (:meth:`StandingsTable.csv`)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return data.csv()


@extend_schema(
    summary="Standings", tags=["standings"],
    description="Pairs (pair events) or players, in standings order by the tournament's precedence of metrics, "
                "with every metric; rows tied on all of them share a rank. After published tour N: as they "
                "stood then; without it, every finished partition counts (live). Individual events have "
                "player standings only. `format=csv` answers a spreadsheet (UTF-8 with BOM, `;`-separated), "
                "the same file as the standings page's.",
    parameters=[
        *COUNTED,
        OpenApiParameter("format", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, enum=("json", "csv"),
                         description="csv: the standings as a CSV file."),
    ],
    responses={(200, "application/json"): serializers.StandingsSerializer,
               (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The standings as CSV.")})
class StandingsView(APIView):
    """``/api/tournaments/{slug}/standings/``: public for a tournament that is not a draft."""

    schema = ApiSchema()
    renderer_classes = [JSONRenderer, StandingsCsvRenderer]

    def get(self, request, slug):
        table = _counted(request, slug, standings.standings_table)
        if request.accepted_renderer.format == "csv":
            return Response(table, headers={"Content-Disposition": f'attachment; filename="{table.file_name}"'})
        return Response(serializers.StandingsSerializer(table).data)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response) and (response.status_code >= 400 or request.method not in ("GET", "HEAD")):
            # Errors (and what OPTIONS describes) are JSON, whatever format was asked for.
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response


@extend_schema(
    summary="Crosstable", tags=["standings"], parameters=COUNTED,
    description="Every line of the standings, in their order, with what it did in each tour counted (table, "
                "partners, opponents, result, score), then the standings' own columns: the crosstable page's "
                "figures. A round robin of pairs also has the classic square table (`square`). Public for a "
                "tournament that is not a draft.",
    responses={200: serializers.CrosstableSerializer})
class CrosstableView(APIView):
    """``/api/tournaments/{slug}/crosstable/``."""

    schema = ApiSchema()

    def get(self, request, slug):
        return Response(serializers.CrosstableSerializer(_counted(request, slug, standings.crosstable)).data)
