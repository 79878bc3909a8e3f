"""API shapes: what the API reads and writes, field by field.

Input serializers check shapes and types only; every rule (who may, what is allowed when) is the
services' (:mod:`tournaments.services`). Output serializers read model instances.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring.models import Partition

from . import standings
from .models import Bye, Entry, Pair, Player, Role, SitOut, Table, Tour, Tournament

# -- a refused CSV import (every other error body: tournaments.web.api.ErrorSerializer) ---------------------


class ImportLineErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="Line of the file, the header being line 1.")
    message = serializers.CharField()


class ImportLineErrorsSerializer(serializers.Serializer):
    lines = ImportLineErrorSerializer(many=True, required=False, help_text=(
        "The refused lines, when the file was read; otherwise the fields, as in every error."))


class ImportRefusedSerializer(serializers.Serializer):
    detail = serializers.CharField()
    # DRF's metaclass takes declared fields out of the class: this field leaves Serializer.errors be.
    errors = ImportLineErrorsSerializer(  # type: ignore[assignment]
        required=False, help_text="The refused lines, when the file was read.")


# -- players -------------------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "last_name", "first_name", "club", "city", "federation_id"]
        read_only_fields = fields


class PlayerDataSerializer(serializers.Serializer):
    """A player's own data, as registration and editing take it."""

    last_name = serializers.CharField(max_length=100)
    first_name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True)
    federation_id = serializers.CharField(max_length=50, required=False, allow_blank=True,
                                          help_text="A player with this id is reused, not created again.")


# -- tournaments and roles -----------------------------------------------------------------------

REGULATIONS_HELP = "Every setting of the regulations (RULES.md); a setting left out takes its default."


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["slug", "name", "venue", "starts_on", "ends_on", "status", "format", "seeding", "regulations",
                  "regulations_text", "team_best", "created_at"]
        read_only_fields = fields


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=80)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    seeding = serializers.ChoiceField(choices=Tournament.Seeding.choices, required=False,
                                      help_text="How tour 1 is seeded.")
    regulations = serializers.DictField(required=False, help_text=REGULATIONS_HELP)
    regulations_text = serializers.CharField(required=False, allow_blank=True, help_text=(
        "The regulations in words: shown on the tournament's page and printed on the final protocol."))
    team_best = serializers.IntegerField(required=False, min_value=0, max_value=32767, help_text=(
        "Team standings: clubs ranked by the tournament points of their best N entries (sports domino only); "
        "0: none."))


class TournamentUpdateSerializer(TournamentCreateSerializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class RoleSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Role
        fields = ["id", "username", "kind"]
        read_only_fields = fields


class RoleCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    kind = serializers.ChoiceField(choices=Role.Kind.choices)


# -- pairs and entries ---------------------------------------------------------------------------


class PairSerializer(serializers.ModelSerializer):
    first = PlayerSerializer(read_only=True)
    second = PlayerSerializer(read_only=True)

    class Meta:
        model = Pair
        fields = ["id", "number", "first", "second", "withdrawn_at"]
        read_only_fields = fields


class PairCreateSerializer(serializers.Serializer):
    first = PlayerDataSerializer()
    second = PlayerDataSerializer()
    number = serializers.IntegerField(min_value=1, required=False,
                                      help_text="Start number; the next free one when left out.")


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "player", "withdrawn_at"]
        read_only_fields = fields


class CsvUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=(
        "CSV with a header: last_name_1 and last_name_2 required; first_name_N, club_N, city_N, "
        "federation_id_N and number optional. Commas or semicolons; UTF-8 or Windows-1251."))


class ImportedSerializer(serializers.Serializer):
    created = serializers.IntegerField(help_text="Pairs registered.")


# -- tours and tables ----------------------------------------------------------------------------


class PartitionSerializer(serializers.ModelSerializer):
    winner = serializers.ChoiceField(choices=Partition.Winner.choices, allow_blank=True, read_only=True,
                                     help_text="A, B, or empty (not decided, or both pairs absent).")

    class Meta:
        model = Partition
        fields = ["id", "status", "winner", "reason", "points_a", "points_b", "version", "started_at",
                  "finished_at"]
        read_only_fields = fields
        extra_kwargs = {"id": {"help_text": "Record it at /api/partitions/{id}/."}}


class TableSerializer(serializers.ModelSerializer):
    referee: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True)
    pair_a = PairSerializer(read_only=True, allow_null=True, help_text="Seats 1 and 3; null at a Goat table "
                                                                        "each for himself.")
    pair_b = PairSerializer(read_only=True, allow_null=True, help_text="Seats 2 and 4; null at a Goat table "
                                                                        "each for himself.")
    seat1 = PlayerSerializer(read_only=True)
    seat2 = PlayerSerializer(read_only=True)
    seat3 = PlayerSerializer(read_only=True, allow_null=True, help_text="Null at a Goat table of 2.")
    seat4 = PlayerSerializer(read_only=True, allow_null=True, help_text="Null at a Goat table of 2 or 3.")
    partition = PartitionSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Table
        fields = ["number", "referee", "pair_a", "pair_b", "seat1", "seat2", "seat3", "seat4", "partition"]
        read_only_fields = fields


class ByeSerializer(serializers.ModelSerializer):
    pair = PairSerializer(read_only=True)

    class Meta:
        model = Bye
        fields = ["pair"]
        read_only_fields = fields


class SitOutSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = SitOut
        fields = ["player"]
        read_only_fields = fields


class TourSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)
    byes = ByeSerializer(many=True, read_only=True)
    sit_outs = SitOutSerializer(many=True, read_only=True)

    class Meta:
        model = Tour
        fields = ["number", "status", "planned_start", "published_at", "tables", "byes", "sit_outs"]
        read_only_fields = fields


class GenerateTourSerializer(serializers.Serializer):
    planned_start = serializers.DateTimeField(required=False, allow_null=True)


class SeatingTableSerializer(serializers.Serializer):
    pair_a = serializers.IntegerField(allow_null=True, help_text="Pair id for seats 1 and 3.")
    pair_b = serializers.IntegerField(allow_null=True, help_text="Pair id for seats 2 and 4.")


class SeatingSerializer(serializers.Serializer):
    tables = SeatingTableSerializer(many=True, help_text="Table 1 first.")
    bye = serializers.IntegerField(required=False, allow_null=True, help_text="Pair id resting with a bye.")


class RefereeSerializer(serializers.Serializer):
    # A plain string: the service looks the login up after its permission check, so the answer
    # tells nobody but an organiser whether a login exists.
    referee = serializers.CharField(max_length=150, allow_null=True,
                                    help_text="Username of a referee of the tournament; null to clear.")


# -- standings -----------------------------------------------------------------------------------

class StandingsQuerySerializer(serializers.Serializer):
    after_tour = serializers.IntegerField(min_value=1, required=False)
    kind = serializers.ChoiceField(choices=standings.KINDS, required=False)


class MetricSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()


class StandingsRowSerializer(serializers.Serializer):
    """A :class:`tournaments.standings.Line`."""

    rank = serializers.IntegerField(help_text="Shared by rows tied on every metric.")
    pair = PairSerializer(allow_null=True, help_text="The pair (pair standings), else null.")
    player = PlayerSerializer(allow_null=True, help_text="The player (player standings), else null.")
    withdrawn_after_tour = serializers.IntegerField(source="withdrawn_after", allow_null=True, help_text=(
        "Withdrawn after this tour (the last published one it was drawn in; 0: before the first); null: not "
        "withdrawn, or not yet after the tour asked for."))
    played = serializers.IntegerField(source="row.played", help_text="Partitions played (byes not counted).")
    tournament_points = serializers.IntegerField(source="row.tournament_points", help_text=(
        "win_points per partition won, bye_points per bye (RULES 8); 0 in Goat, Sea Goat and points."))
    wins = serializers.IntegerField(source="row.wins", help_text="Partitions won, byes included.")
    losses = serializers.IntegerField(source="row.losses")
    byes = serializers.IntegerField(source="row.byes")
    points_for = serializers.IntegerField(source="row.points_for", help_text="A bye adds nothing (it is 0:0).")
    points_against = serializers.IntegerField(source="row.points_against")
    points_difference = serializers.IntegerField(source="row.points_difference")
    penalties = serializers.IntegerField(source="row.penalties")
    buchholz = serializers.IntegerField(source="row.metrics.buchholz", default=0, help_text="0 in Goat and Sea Goat.")
    head_to_head = serializers.IntegerField(source="row.metrics.head_to_head", default=0, help_text=(
        "Wins against the entrants tied with this one when head-to-head was applied; 0 otherwise."))
    game_points = serializers.IntegerField(source="row.game_points", help_text="Goat: game points summed; else 0.")
    goats = serializers.IntegerField(source="row.goats", help_text="Goat: games in which he was a goat; else 0.")
    score = serializers.IntegerField(source="row.score", help_text=(
        "Goat: points charged in all the games (total score); Sea Goat: points credited; points: points scored; "
        "else 0."))
    games_won = serializers.IntegerField(source="row.games_won", help_text="Sea Goat and points: games won; else 0.")


class StandingsSerializer(serializers.Serializer):
    """A :class:`tournaments.standings.StandingsTable`."""

    tournament = serializers.CharField(source="tournament.slug")
    kind = serializers.CharField(help_text="pairs or players.")
    after_tour = serializers.IntegerField(allow_null=True, help_text="Null: every finished partition (live).")
    precedence = MetricSerializer(many=True, help_text="The metrics that order the rows, first first.")
    rows = StandingsRowSerializer(source="lines", many=True)


# -- the crosstable -------------------------------------------------------------------------------

class CrossCellSerializer(serializers.Serializer):
    """A :class:`tournaments.standings.Cell`: what an entrant did in a tour. Partners and
    opponents are named by their ``number`` in the crosstable."""

    tour = serializers.IntegerField()
    result = serializers.ChoiceField(choices=[result.value for result in standings.Result], help_text=(
        "win, loss, win_by_no_show (the opponents did not appear), no_show, bye, sit_out (an individual tour "
        "without a seat for him), withdrawn (a tour after he withdrew), played (Goat, Sea Goat, points: a "
        "finished sitting, `place` says how), playing (not finished yet), none (not drawn)."))
    mark = serializers.CharField(help_text="The result's mark in a printed cell, in the language asked for.")
    table = serializers.IntegerField(allow_null=True)
    partners = serializers.ListField(child=serializers.IntegerField())
    opponents = serializers.ListField(child=serializers.IntegerField())
    points_for = serializers.IntegerField(allow_null=True, help_text="Sports: the partition's points, his.")
    points_against = serializers.IntegerField(allow_null=True, help_text="Sports: the opponents' points.")
    place = serializers.IntegerField(allow_null=True, help_text=(
        "Goat, Sea Goat, points: his place at the table (shared when equal), of `sides`."))
    sides = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True, help_text="Goat, Sea Goat, points: the value of `score_name` "
                                                                "at the sitting.")


class CrossLineSerializer(serializers.Serializer):
    """A :class:`tournaments.standings.CrossLine`: an entrant's line, in standings order."""

    number = serializers.IntegerField(help_text=(
        "A pair: its start number; a player (who has none): his line, 1 for the first ranked. Partners and "
        "opponents are named by it."))
    rank = serializers.IntegerField(help_text="Shared by lines tied on every metric.")
    pair = PairSerializer(source="line.pair", allow_null=True, help_text="The pair (pair standings), else null.")
    player = PlayerSerializer(source="line.player", allow_null=True, help_text="The player, else null.")
    withdrawn_after_tour = serializers.IntegerField(source="line.withdrawn_after", allow_null=True)
    cells = CrossCellSerializer(many=True, help_text="A cell per tour of `tours`, in their order.")
    values = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="The values of `columns`, in their order (the standings' own).")


class ColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    order = serializers.IntegerField(allow_null=True, help_text="Its place in the precedence (1 orders first); "
                                                                "null: it does not order the lines.")


class CrosstableSerializer(serializers.Serializer):
    """A :class:`tournaments.standings.Crosstable`."""

    tournament = serializers.CharField(source="tournament.slug")
    kind = serializers.CharField(help_text="pairs or players.")
    after_tour = serializers.IntegerField(allow_null=True, help_text="Null: every finished partition (live).")
    tours = serializers.SerializerMethodField(help_text="The numbers of the tours counted, a cell each.")
    columns = ColumnSerializer(many=True, help_text="The standings' columns the lines' `values` give.")
    score_name = serializers.SerializerMethodField(help_text="Goat, Sea Goat, points: what a cell's `score` is; "
                                                             "else null.")
    lines = CrossLineSerializer(many=True)
    square = serializers.ListField(
        child=serializers.ListField(child=CrossCellSerializer(many=True, allow_null=True)), allow_null=True,
        help_text="A round robin of pairs: the classic square table, rows and columns in the order of `lines`, each "
                  "cell the partitions between the two (the row's points first), null on the diagonal. Otherwise "
                  "null.")

    def get_tours(self, crosstable: standings.Crosstable) -> list[int]:
        return [tour.number for tour in crosstable.tours]

    def get_score_name(self, crosstable: standings.Crosstable) -> str | None:
        return crosstable.score_name if crosstable.sittings else None
