"""API shapes of the scoring app: partitions as the referee's score sheet shows them, what a
recording request sends, the history of changes, and the standings.

Input serializers check shapes and types only; every rule (who may record, what the rules allow)
is the services' (:mod:`scoring.services`) and the engine's. Output serializers read
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

from . import services
from .models import Partition, PartitionChange


@dataclass
class PartitionState:
    """A partition as it is (``version`` None) or was at an earlier version."""

    partition: Partition
    version: int
    game: engine.Partition
    summary: dict[str, Any]

    @classmethod
    def of(cls, partition: Partition, version: int | None = None) -> PartitionState:
        game, summary = services.partition_at(partition, version)
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

    @property
    def time_expired(self) -> dict[str, int] | None:
        expired = self.game.time_expired
        return None if expired is None else {expired[0]: expired[1]}


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
# The data of each action of services.OPERATIONS, one serializer each: the API's RecordSerializer
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


#: The data serializer of each action of services.OPERATIONS.
ACTION_DATA: dict[str, type[ClosedSerializer]] = {
    "lead": LeadDataSerializer, "deal": DealDataSerializer, "penalty": PenaltyDataSerializer,
    "violation": ViolationDataSerializer, "annul": AnnulDataSerializer, "time": TimeDataSerializer,
    "no_show": NoShowDataSerializer, "restart": RestartDataSerializer, "forfeit": ForfeitDataSerializer,
}


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
    """One line of the score sheet: the action, and its data checked by the action's serializer."""

    action = serializers.ChoiceField(choices=list(ACTION_DATA))
    # DRF's metaclass takes declared fields out of the class: this field leaves Serializer.data be.
    data = serializers.DictField(help_text="The action's data.")  # type: ignore[assignment]
    version = VersionField()

    def validate(self, attrs):
        try:
            attrs["data"] = action_data(attrs["action"], attrs["data"])
        except serializers.ValidationError as error:
            raise serializers.ValidationError({"data": error.detail}) from None
        return attrs


def _record_shape(action: str, data: type[ClosedSerializer]) -> type[serializers.Serializer]:
    """The request of one action, for the schema (RecordSerializer reads them all)."""
    return type(f"Record{data.__name__.removesuffix('DataSerializer')}Serializer", (serializers.Serializer,), {
        "action": serializers.ChoiceField(choices=[action]), "data": data(), "version": VersionField(),
        "__module__": __name__})


#: The request of POST .../record/ for the schema: one shape per action.
RECORD_REQUEST = PolymorphicProxySerializer(
    component_name="Record", resource_type_field_name="action",
    serializers={action: _record_shape(action, data) for action, data in ACTION_DATA.items()})


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


class ImportOptionsSerializer(serializers.Serializer):
    """What an import request carries beside the protocol document."""

    reason = StrictCharField(required=False, allow_blank=True, default="", trim_whitespace=False, max_length=500)
    version = VersionField()


class CorrectDealSerializer(ClosedSerializer):
    number = StrictIntegerField(min_value=1, help_text="The deal to correct, from 1.")
    deal = DealDataSerializer(help_text="The deal as it ended, in summary form.")
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
