"""API shapes of the scoring app: partitions as the referee's score sheet shows them, what a
recording request sends, the history of changes, and the standings.

Input serializers check shapes and types only; every rule (who may record, what the rules allow)
is the services' (:mod:`scoring.recording.commands`) and the engine's. Output serializers read
:class:`PartitionState` (a partition at one version, with its engine partition), history rows and
standings rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from scoring import engine
from scoring.engine.rules import DEAL_ENDS, PENALTY_CODES, RESTART_CODES
from tournaments.serializers import PairSerializer, PlayerSerializer

from scoring.models import Partition, PartitionChange
from scoring.recording import hands, queries, storage
from scoring.recording.sanctions import running_lines


@dataclass
class PartitionState:
    """A partition as it is (``version`` None) or was at an earlier version."""

    partition: Partition
    version: int
    game: engine.Partition
    summary: dict[str, Any]

    @classmethod
    def of(cls, partition: Partition, version: int | None = None) -> PartitionState:
        game, summary = queries.partition_at(partition, version)
        return cls(partition, partition.version if version is None else version, game, summary)

    @property
    def table(self):
        return self.partition.table

    @property
    def is_current(self) -> bool:
        return self.version == self.partition.version

    @cached_property
    def status(self) -> engine.Status:
        return self.game.status()

    @cached_property
    def result(self) -> dict[str, Any]:
        return engine.result_of(self.game)

    @property
    def penalties(self) -> dict[str, int]:
        penalties = self.game.penalties
        return {side: sum(1 for p in penalties if p.pair == side) for side in "AB"}

    @cached_property
    def lines(self) -> list[dict[str, Any]]:
        """The one running total (:func:`scoring.recording.sanctions.running_lines`)."""
        return [{"kind": line.kind, "deal": line.after_deal,
                 "seat": line.deal.seat if line.deal else line.penalty.seat if line.penalty else None,
                 "code": line.penalty.code if line.penalty else None,
                 "points": dict(zip("AB", line.delta)), "totals": dict(zip("AB", line.totals))}
                for line in running_lines(self.game)]

    @property
    def time_expired(self) -> dict[str, int] | None:
        expired = self.game.time_expired
        return None if expired is None else {expired[0]: expired[1]}


@dataclass
class SittingState:
    """A Goat or Sea Goat table as it is (``version`` None) or was at an earlier version: its
    sitting of games (:func:`scoring.recording.storage.sitting_at`)."""

    partition: Partition
    version: int
    sitting: engine.GoatSitting
    summary: dict[str, Any]

    @classmethod
    def of(cls, partition: Partition, version: int | None = None) -> SittingState:
        return cls(partition, partition.version if version is None else version,
                   storage.engine_sitting(partition, version), queries.summary_at(partition, version))

    @property
    def table(self):
        return self.partition.table

    @property
    def game(self) -> str:
        return str(self.sitting.regulations.game)

    @property
    def units(self) -> list[str]:
        return list(self.sitting.game.units)

    @cached_property
    def games(self) -> list[dict[str, Any]]:
        """Each game of the sitting, the last the one being played: the engine's output document."""
        games = []
        for number, game in enumerate(self.sitting.games, 1):
            expired = game.time_expired
            games.append({"number": number, "first_leader": game.first_leader,
                          "time_expired": None if expired is None else {str(expired[0]): expired[1]},
                          **engine.result_of(game)})
        return games

    @cached_property
    def totals(self) -> dict[str, dict[str, int]]:
        totals = self.sitting.totals()
        return {name: dict(zip(totals.units, getattr(totals, name)))
                for name in ("game_points", "goats", "scores", "games_won")}

    @cached_property
    def next(self) -> dict[str, Any]:
        """What the referee records next: a deal of the game being played (the last one once the
        table's time ran out during it), or nothing once the sitting is over."""
        if self.sitting.is_over:
            return {"next": "over", "game": None, "deal": None, "lead": False, "leader": None}
        game = self.sitting.game
        return {"next": "deal" if game.time_expired is None else "last_deal", "game": len(self.sitting.games),
                "deal": len(game.deals) + 1, "lead": game.needs_lead, "leader": game.next_leader}


# -- the engine's output document (shared/PROTOCOL_FORMAT.md, "Output") ------------------------------


class TotalsSerializer(serializers.Serializer):
    A = serializers.IntegerField()
    B = serializers.IntegerField()


class DealResultSerializer(serializers.Serializer):
    n = serializers.IntegerField(help_text="Number of the deal, from 1.")
    leader = serializers.IntegerField(help_text="Seat that led it.")
    end = serializers.CharField(help_text="domino, fish or false_pass.")
    seat = serializers.IntegerField(allow_null=True, help_text="Who placed the last tile or passed falsely.")
    winner = serializers.CharField(allow_null=True, help_text="A, B or null (drawn fish, false pass).")
    points = serializers.IntegerField(help_text="Points the winner scored.")
    pips = TotalsSerializer(help_text="Pips left in each pair's hands.")
    totals = TotalsSerializer(help_text="Totals after the deal.")
    allowances = serializers.ListField(child=serializers.IntegerField(), required=False,
                                       help_text="Seconds allowed for each move (deals played move by move).")


class PenaltyResultSerializer(serializers.Serializer):
    after_deal = serializers.IntegerField()
    seat = serializers.IntegerField()
    code = serializers.CharField()
    pair = serializers.CharField()
    points = serializers.IntegerField()
    totals = TotalsSerializer(help_text="Totals after the penalty.")


class LineSerializer(serializers.Serializer):
    """A line of the running total: a deal, or a penalty counted after one."""

    kind = serializers.CharField(help_text="deal or penalty.")
    deal = serializers.IntegerField(help_text="The deal's number, or the deal after which the penalty counted (0: "
                                    "before the first).")
    seat = serializers.IntegerField(allow_null=True, help_text="The deal's seat (as in result.deals) or the "
                                    "penalised seat.")
    code = serializers.CharField(allow_null=True, help_text="The penalty's code; null for a deal.")
    points = TotalsSerializer(help_text="What the line added to each pair's total.")
    totals = TotalsSerializer(help_text="Totals after the line.")


class PendingPenaltySerializer(serializers.Serializer):
    """A penalty written during the deal being played: it counts when that deal ends."""

    after_deal = serializers.IntegerField(required=False, help_text="The deal during which it was written.")
    seat = serializers.IntegerField()
    code = serializers.CharField()
    pair = serializers.CharField()
    points = serializers.IntegerField()


class CurrentDealSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    leader = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True)
    allowances = serializers.ListField(child=serializers.IntegerField())
    allowance = serializers.IntegerField(allow_null=True)
    pending_penalties = PendingPenaltySerializer(many=True)


class ResultSerializer(serializers.Serializer):
    deals = DealResultSerializer(many=True)
    penalties = PenaltyResultSerializer(many=True)
    totals = TotalsSerializer()
    winner = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True, help_text="target, time, deals, no_show or forfeit; null "
                                   "while the partition is being played.")
    current = CurrentDealSerializer(required=False, help_text="The deal being played move by move, if any.")


# -- a partition ---------------------------------------------------------------------------------


class DecisionSerializer(serializers.Serializer):
    winner = serializers.CharField(allow_null=True)
    reason = serializers.CharField()


class NextSerializer(serializers.Serializer):
    """What comes next at the table (the engine's Status)."""

    next = serializers.CharField(help_text="lead_draw, deal, last_deal (the clock or the number of deals makes it "
                                 "the last), extra_deal (it would be over but the totals are level) or over.")
    deal = serializers.IntegerField(allow_null=True, help_text="Number of the coming deal.")
    leader = serializers.IntegerField(allow_null=True, help_text="Seat that leads it.")
    decision = DecisionSerializer(allow_null=True)


class ViolationSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="What an annulment names (action annul, data.violation).")
    after_deal = serializers.IntegerField()
    seat = serializers.IntegerField()
    code = serializers.CharField()
    consequence = serializers.CharField(help_text="warning or penalty.")
    annulled = serializers.CharField(allow_null=True, help_text="The reason it was annulled, if it was.")


class PairsSerializer(serializers.Serializer):
    A = PairSerializer(source="pair_a", help_text="Seats 1 and 3.")
    B = PairSerializer(source="pair_b", help_text="Seats 2 and 4.")


class PartitionDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="partition.id")
    tournament = serializers.CharField(source="table.tour.tournament.slug")
    tour = serializers.IntegerField(source="table.tour.number")
    table = serializers.IntegerField(source="table.number")
    version = serializers.IntegerField(help_text="The version shown.")
    current_version = serializers.IntegerField(source="partition.version", help_text=(
        "The partition's latest version: send it as `version` when recording."))
    status = serializers.CharField(source="summary.status", help_text="scheduled, playing or finished.")
    winner = serializers.CharField(source="summary.winner", help_text="A, B, or empty.")
    reason = serializers.CharField(source="summary.reason", help_text="Why it ended; empty while it is played.")
    totals = TotalsSerializer(source="result.totals")
    penalties = TotalsSerializer(help_text="Penalties counted against each pair.")
    lines = LineSerializer(many=True, help_text=(
        "The running total: the deals and the counted penalties in the order they counted (a penalty after deal "
        "N comes after deal N's line), each with the totals after it, as the sheet and the protocol print it."))
    deals = serializers.IntegerField(source="summary.deals", help_text="Deals recorded.")
    first_leader = serializers.IntegerField(source="game.first_leader", allow_null=True)
    time_expired = serializers.DictField(child=serializers.IntegerField(), allow_null=True, help_text=(
        "{\"during_deal\": N} or {\"after_deal\": N} once the clock has run out."))
    no_show = serializers.CharField(source="game.no_show", allow_null=True)
    started_at = serializers.DateTimeField(source="partition.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="partition.finished_at", allow_null=True)
    next = NextSerializer(source="status")
    pending_penalties = PendingPenaltySerializer(source="game.pending_penalties", many=True)
    violations = ViolationSerializer(source="game.violations", many=True, help_text=(
        "Every violation with its consequence: a warning, or a penalty (listed in result.penalties)."))
    result = ResultSerializer(help_text="The rules engine's output document (PROTOCOL_FORMAT.md).")
    referee = serializers.CharField(source="table.referee.username", allow_null=True)
    pairs = PairsSerializer(source="table")
    seats = PlayerSerializer(source="table.seats", many=True, help_text="Players at seats 1 to 4.")


# -- a Goat or Sea Goat table: its sitting (PROTOCOL_FORMAT.md, "Goat and Sea Goat") ----------------

UNITS = ("By unit: seat \"1\" to \"4\" each for himself, or pair \"A\" (seats 1 and 3) and \"B\" (seats 2 "
         "and 4) with teams.")


def by_unit(help_text: str, child: serializers.Field | None = None, **kwargs) -> serializers.DictField:
    return serializers.DictField(child=child or serializers.IntegerField(), help_text=f"{help_text} {UNITS}", **kwargs)


class GoatDealResultSerializer(serializers.Serializer):
    n = serializers.IntegerField(help_text="Number of the deal in its game, from 1.")
    leader = serializers.IntegerField(allow_null=True, help_text="Seat that led it.")
    end = serializers.CharField(help_text="domino, fish or redeal (a void deal: nothing counted).")
    seat = serializers.IntegerField(allow_null=True, help_text="Who made domino or placed the fishing tile.")
    values = serializers.DictField(child=serializers.IntegerField(), help_text=(
        "Hand value left to each seat, by seat \"1\" to \"4\" (empty for a redeal)."))
    charges = by_unit("What the deal charged (Goat) or credited (Sea Goat).")
    scores = by_unit("Scores after the deal.")
    memo = by_unit("Memorised points after the deal (Goat: charged before the opening).")
    open = by_unit("Whether each has opened, after the deal.", serializers.BooleanField())
    carry = serializers.IntegerField(help_text="Points waiting for the next deal after it.")
    zero_zero = serializers.BooleanField(required=False, help_text="Sea Goat: domino made with 0-0.")
    allowances = serializers.ListField(child=serializers.IntegerField(), required=False,
                                       help_text="Seconds allowed for each move (deals played move by move).")


class GoatPenaltyResultSerializer(serializers.Serializer):
    after_deal = serializers.IntegerField()
    seat = serializers.IntegerField()
    code = serializers.CharField()
    unit = serializers.CharField(help_text="The offender's unit (Goat charges it, Sea Goat credits the others).")
    points = serializers.IntegerField()
    scores = by_unit("Scores after the penalty.")


class GoatCurrentDealSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    leader = serializers.IntegerField()
    to_move = serializers.IntegerField()
    allowances = serializers.ListField(child=serializers.IntegerField())
    allowance = serializers.IntegerField()
    can_draw = serializers.BooleanField(help_text="Whether the player to move may draw from the bazaar.")
    bazaar = serializers.IntegerField(help_text="Tiles left in the bazaar.")


class GoatGameSerializer(serializers.Serializer):
    """One game of the sitting: the rules engine's output document of a Goat or Sea Goat game."""

    number = serializers.IntegerField(help_text="Number of the game in the sitting, from 1.")
    first_leader = serializers.IntegerField(allow_null=True, help_text="Seat that led its first deal.")
    time_expired = serializers.DictField(child=serializers.IntegerField(), allow_null=True, help_text=(
        "{\"during_deal\": N} or {\"after_deal\": N} once the table's time has run out in this game."))
    units = serializers.ListField(child=serializers.CharField())
    deals = GoatDealResultSerializer(many=True)
    penalties = GoatPenaltyResultSerializer(many=True)
    scores = by_unit("Scores now.")
    memo = by_unit("Memorised points now.")
    open = by_unit("Whether each has opened.", serializers.BooleanField())
    carry = serializers.IntegerField(help_text="Points waiting for the next deal.")
    game_points = by_unit("Game points, once the game is over (Sea Goat: 1 to the winner).", allow_null=True)
    reason = serializers.CharField(allow_null=True, help_text=(
        "lose_at, target, zero_zero, timeout, time or no_show; null while the game is being played."))
    goats = serializers.ListField(child=serializers.CharField(), required=False, help_text="Goat: the goats.")
    winner = serializers.CharField(allow_null=True, required=False, help_text="Sea Goat: the winner, if one.")
    timed_out = serializers.CharField(required=False, help_text="The unit whose move time ran out (forfeit).")
    no_show = serializers.ListField(child=serializers.CharField(), required=False,
                                    help_text="The units that had not appeared.")
    current = GoatCurrentDealSerializer(required=False, help_text="The deal being played move by move, if any.")

    def to_representation(self, instance):
        # The keys of the game's own document only: a Goat game has no winner, a Sea Goat one no goats.
        return {key: value for key, value in super().to_representation(instance).items() if key in instance}


class SittingTotalsSerializer(serializers.Serializer):
    """Summed over the sitting's finished games: what the standings take."""

    game_points = by_unit("Game points.")
    goats = by_unit("Games in which each was a goat (Goat).")
    scores = by_unit("Scores.")
    games_won = by_unit("Games won (Sea Goat).")


class SittingNextSerializer(serializers.Serializer):
    """What the referee records next at a Goat table."""

    next = serializers.CharField(help_text="deal, last_deal (the table's time ran out during it) or over.")
    game = serializers.IntegerField(allow_null=True, help_text="Number of the game being played.")
    deal = serializers.IntegerField(allow_null=True, help_text="Number of the coming deal in that game.")
    lead = serializers.BooleanField(help_text=(
        "The coming deal is the first of its game: its record names the seat that led it (`lead`)."))
    leader = serializers.IntegerField(allow_null=True, help_text=(
        "Seat that leads it (the domino maker or the fisherman of the deal before); null when led by the hands."))


class SittingDetailSerializer(serializers.Serializer):
    """A Goat or Sea Goat table: its sitting of games."""

    id = serializers.IntegerField(source="partition.id")
    tournament = serializers.CharField(source="table.tour.tournament.slug")
    tour = serializers.IntegerField(source="table.tour.number")
    table = serializers.IntegerField(source="table.number")
    game = serializers.CharField(help_text="goat or sea_goat.")
    version = serializers.IntegerField(help_text="The version shown.")
    current_version = serializers.IntegerField(source="partition.version", help_text=(
        "The partition's latest version: send it as `version` when recording."))
    status = serializers.CharField(source="summary.status", help_text="scheduled, playing or finished.")
    reason = serializers.CharField(source="summary.reason", help_text=(
        "Why the sitting's last game ended, once it is over; empty while it is played."))
    deals = serializers.IntegerField(source="summary.deals", help_text="Deals recorded in all the games.")
    started_at = serializers.DateTimeField(source="partition.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="partition.finished_at", allow_null=True)
    units = serializers.ListField(child=serializers.CharField(), help_text=(
        "Who is scored: the seats \"1\".. each for himself, or the pairs \"A\" and \"B\" with teams."))
    next = SittingNextSerializer()
    games = GoatGameSerializer(many=True, help_text="The games of the sitting; the last is the one being played.")
    totals = SittingTotalsSerializer(help_text="The sitting's totals over its finished games.")
    referee = serializers.CharField(source="table.referee.username", allow_null=True)
    seats = PlayerSerializer(source="table.players", many=True, help_text="Players at seats 1.. of the table.")


# -- strict types --------------------------------------------------------------------------------
# What a recording sends is typed strictly: a seat is a JSON integer (never true, which Python
# takes for 1, nor 2.0 or "2"), a flag is true or false (never "false"), a text is a string, and
# a key the shape does not know is refused rather than stored in the history.


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: not a bool, a float or a text of digits."""

    def to_internal_value(self, data):
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false: not "false", 0 or 1."""

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    """A JSON string: not a number."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, as a JSON string."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class ClosedSerializer(serializers.Serializer):
    """Refuses the keys it does not know."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError({key: [_("Unknown field.")] for key in unknown})
        return super().to_internal_value(data)


def seat_field(**kwargs) -> StrictIntegerField:
    return StrictIntegerField(min_value=1, max_value=4, help_text="Seat 1 to 4 (pair A: 1 and 3, pair B: 2 and 4).",
                              **kwargs)


# -- recording actions ---------------------------------------------------------------------------
# The data of each action of commands.OPERATIONS, one serializer each: the API's RecordSerializer
# and the score sheet's forms (sheet_forms) check it here, so the service gets clean, typed data.
# Shapes and types only: what the rules allow is the engine's.


class PipsSerializer(ClosedSerializer):
    A = StrictIntegerField(help_text="Pips left in the hands of pair A.")
    B = StrictIntegerField(help_text="Pips left in the hands of pair B.")


class LeadDataSerializer(ClosedSerializer):
    seat = seat_field()


class DealDataSerializer(ClosedSerializer):
    end = StrictChoiceField(choices=DEAL_ENDS, help_text="How the deal ended.")
    seat = seat_field(required=False, allow_null=True)
    pips = PipsSerializer()


class PenaltyDataSerializer(ClosedSerializer):
    seat = seat_field()
    code = StrictChoiceField(choices=PENALTY_CODES)


class ViolationDataSerializer(PenaltyDataSerializer):
    pass


class AnnulDataSerializer(ClosedSerializer):
    violation = StrictIntegerField(min_value=0, help_text="The violation's id (violations[].id).")
    reason = StrictCharField(max_length=500)


class TimeDataSerializer(ClosedSerializer):
    during_deal = StrictBooleanField(help_text="true: during a deal (it is the last); false: between deals.")


class NoShowDataSerializer(ClosedSerializer):
    absent = StrictChoiceField(choices=("A", "B", "both"))


class RestartDataSerializer(ClosedSerializer):
    seat = seat_field()
    code = StrictChoiceField(choices=RESTART_CODES)


class ForfeitDataSerializer(ClosedSerializer):
    pair = StrictChoiceField(choices=("A", "B"))


#: The data serializer of each action of commands.OPERATIONS.
ACTION_DATA: dict[str, type[ClosedSerializer]] = {
    "lead": LeadDataSerializer, "deal": DealDataSerializer, "penalty": PenaltyDataSerializer,
    "violation": ViolationDataSerializer, "annul": AnnulDataSerializer, "time": TimeDataSerializer,
    "no_show": NoShowDataSerializer, "restart": RestartDataSerializer, "forfeit": ForfeitDataSerializer,
}


# A Goat or Sea Goat table's lines (commands.record_goat_deal, record_goat, annul_goat_penalty).


#: How a deal of Goat or Sea Goat ends (engine.GoatEnd).
GOAT_ENDS = tuple(str(end) for end in engine.GoatEnd)


def goat_seat_field(**kwargs) -> StrictIntegerField:
    kwargs.setdefault("help_text", "Seat 1 to 4 (as many as the table has).")
    return StrictIntegerField(min_value=1, max_value=4, **kwargs)


class GoatDealEndDataSerializer(ClosedSerializer):
    """How a deal of Goat or Sea Goat ended, in summary form."""

    end = StrictChoiceField(choices=GOAT_ENDS, help_text=(
        "domino, fish, or redeal (a void deal: no seat, no values)."))
    seat = goat_seat_field(required=False, allow_null=True, help_text=(
        "Who made domino or placed the fishing tile (none for a redeal)."))
    values = serializers.DictField(child=StrictIntegerField(), required=False, help_text=(
        "The hand value left to each seat, by seat: {\"1\": 14, \"3\": 0}; the domino maker's may be left out."))
    zero_zero = StrictBooleanField(required=False, help_text="Sea Goat: the domino was made with 0-0.")


class GoatDealDataSerializer(GoatDealEndDataSerializer):
    lead = goat_seat_field(required=False, help_text=(
        "The first deal of a game (next.lead): the seat that led it (RULES 9.1: by the hands)."))


class GoatPenaltyDataSerializer(PenaltyDataSerializer):
    seat = goat_seat_field()


class GoatTimeDataSerializer(TimeDataSerializer):
    during_deal = StrictBooleanField(help_text=(
        "true: during a deal (the game ends after it); false: between deals (it ends now). No other game is begun."))


class GoatAnnulDataSerializer(ClosedSerializer):
    game = StrictIntegerField(min_value=1, help_text="The game, from 1 (games[].number).")
    penalty = StrictIntegerField(min_value=1, help_text="The penalty's number in that game, from 1 (games[].penalties).")
    reason = StrictCharField(max_length=500)


def action_data(action: str, data: Any) -> dict[str, Any]:
    """``data`` of ``action`` checked by its serializer, typed; a DRF ValidationError naming the bad
    fields if not."""
    serializer = ACTION_DATA[action](data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# -- writes --------------------------------------------------------------------------------------


class VersionField(StrictIntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", "The version the client saw (current_version): a stale one is a 409 and "
                                       "nothing is stored. Leave it out to record on whatever is current.")
        super().__init__(min_value=0, required=False, allow_null=True, **kwargs)


class RecordSerializer(serializers.Serializer):
    """One line of the score sheet: the action, one of the table's (``context["actions"]``: each
    with the serializer of its data), and its data checked by the action's serializer."""

    action = StrictCharField(max_length=30)
    # DRF's metaclass takes declared fields out of the class: this field leaves Serializer.data be.
    data = serializers.DictField(help_text="The action's data.")  # type: ignore[assignment]
    version = VersionField()

    def validate(self, attrs):
        actions: Mapping[str, type[ClosedSerializer]] = self.context["actions"]
        if attrs["action"] not in actions:
            raise serializers.ValidationError({"action": [
                _("%(action)s is not an action of this table: it records %(actions)s.") % {
                    "action": attrs["action"], "actions": ", ".join(actions)}]})
        data = actions[attrs["action"]](data=attrs["data"])
        if not data.is_valid():
            raise serializers.ValidationError({"data": data.errors})
        attrs["data"] = data.validated_data
        return attrs


def _record_shape(action: str, data: type[ClosedSerializer]) -> type[serializers.Serializer]:
    """The request of one action, for the schema (RecordSerializer reads them all)."""
    return type(f"Record{data.__name__.removesuffix('DataSerializer')}Serializer", (serializers.Serializer,), {
        "action": serializers.ChoiceField(choices=[action]), "data": data(), "version": VersionField(),
        "__module__": __name__})


def record_request(actions: Mapping[str, type[ClosedSerializer]]) -> PolymorphicProxySerializer:
    """The request of POST .../record/ for the schema: one shape per action."""
    return PolymorphicProxySerializer(
        component_name="Record", resource_type_field_name="action",
        serializers={action: _record_shape(action, data) for action, data in actions.items()})


class ImportSerializer(serializers.Serializer):
    """A protocol document (domino-protocol/1) and, beside its keys, the correction's reason."""

    format = serializers.CharField(help_text="domino-protocol/1")
    regulations = serializers.DictField(required=False, help_text="Leave out: the tournament's apply.")
    pairs = serializers.DictField(required=False)
    first_leader = serializers.IntegerField(required=False, allow_null=True)
    deals = serializers.ListField(child=serializers.DictField(), help_text="Summary or move form.")
    penalties = serializers.ListField(child=serializers.DictField(), required=False)
    time_expired = serializers.DictField(required=False, allow_null=True)
    no_show = serializers.CharField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, help_text=(
        "A chief referee's correction replacing a recorded partition: why. Not part of the protocol."))
    version = VersionField()


class ImportSittingSerializer(serializers.Serializer):
    """A Goat or Sea Goat table's protocol file (domino-sitting/1) and, beside its keys, the
    correction's reason. One game (a domino-protocol/1 document) is taken too, as the first."""

    format = serializers.CharField(help_text="domino-sitting/1")
    games = serializers.ListField(child=serializers.DictField(), help_text=(
        "Each game a domino-protocol/1 document (PROTOCOL_FORMAT.md, \"Goat and Sea Goat\"); leave out its "
        "regulations: the table's apply."))
    reason = serializers.CharField(required=False, allow_blank=True, help_text=(
        "A chief referee's correction replacing a recorded table: why. Not part of the file."))
    version = VersionField()


class ImportOptionsSerializer(serializers.Serializer):
    """What an import request carries beside the protocol document."""

    reason = StrictCharField(required=False, allow_blank=True, default="", trim_whitespace=False, max_length=500)
    version = VersionField()


class CorrectDealSerializer(ClosedSerializer):
    number = StrictIntegerField(min_value=1, help_text="The deal to correct, from 1.")
    deal = DealDataSerializer(help_text="The deal as it ended, in summary form.")
    reason = StrictCharField(required=False, allow_blank=True, default="", trim_whitespace=False, max_length=500)
    version = VersionField()


class GoatCorrectDealSerializer(ClosedSerializer):
    game = StrictIntegerField(min_value=1, help_text="The game of the deal, from 1 (games[].number).")
    number = StrictIntegerField(min_value=1, help_text="The deal to correct in that game, from 1.")
    deal = GoatDealEndDataSerializer(help_text="The deal as it ended, in summary form (its game's first leader stays).")
    reason = StrictCharField(required=False, allow_blank=True, default="", trim_whitespace=False, max_length=500)
    version = VersionField()


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current_version = serializers.IntegerField(help_text="Reload, then record again on this version.")


class VersionQuerySerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, required=False)
    download = serializers.BooleanField(required=False, default=False)


# -- history -------------------------------------------------------------------------------------


class ChangeSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username", allow_null=True, read_only=True)

    class Meta:
        model = PartitionChange
        fields = ["version", "action", "data", "reason", "user", "at", "address", "before", "after"]
        read_only_fields = fields

    def to_representation(self, instance):
        shown = super().to_representation(instance)
        protocol = shown["data"].get("protocol") if isinstance(shown["data"], Mapping) else None
        if self.context.get("hide_deal_in_play") and isinstance(protocol, Mapping):
            shown["data"] = {**shown["data"], "protocol": hands.without_deal_in_play(protocol)}
        return shown
