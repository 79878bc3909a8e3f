"""The answers of the live API, typed for its OpenAPI schema: a live table's state as
:func:`scoring.recording.state.table_state` builds it (a sports table, or a Goat or Sea Goat
table), a taken seat, a started tour. They describe documents built elsewhere and never turn
anything into JSON themselves.

drf-spectacular lists every read-only field as required, so a key the document may leave out is
declared ``required=False`` and not read-only."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from scoring import engine
from scoring.models import LiveTable, Partition
from scoring.web.serializers import GOAT_ENDS

#: A seat's key in the documents' objects by seat: "1" to "4".
BY_SEAT = 'By seat "1" to "4".'


def _integer(help_text: str, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(read_only=True, help_text=help_text, **kwargs)


def _text(help_text: str, **kwargs: Any) -> serializers.CharField:
    return serializers.CharField(read_only=True, help_text=help_text, **kwargs)


def _when(help_text: str) -> serializers.DateTimeField:
    return serializers.DateTimeField(read_only=True, allow_null=True, help_text=help_text)


def _integers(help_text: str, length: int | None = None, **kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), read_only=True, help_text=help_text,
                                 min_length=length, max_length=length, **kwargs)


def _by_seat(child: serializers.Field, help_text: str, **kwargs: Any) -> serializers.DictField:
    return serializers.DictField(child=child, help_text=f"{help_text} {BY_SEAT}", **kwargs)


def _line() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2), read_only=True,
        help_text="The line of play from its left end to its right end, each tile as [left number, right number].")


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string"}]})
class SeedField(serializers.Field):
    """A deal's seed: the integer the system dealt with, or the text of an imported protocol."""


# -- both shapes ---------------------------------------------------------------------------------


class LiveResultSerializer(serializers.Serializer):
    """The partition's result as its history, its live events and its pages show it."""

    status = serializers.ChoiceField(choices=Partition.Status.choices, read_only=True, help_text="Its status.")
    winner = serializers.ChoiceField(choices=Partition.Winner.choices, allow_blank=True, read_only=True,
                                     help_text="The winning pair; empty while played, at a Goat table, or with none.")
    reason = _text("Why it ended (target, time, deals, no_show, forfeit; a Goat game's reason); empty while played.")
    points = _integers("Points of pair A and of pair B (0 at a Goat table).", 2)
    deals = _integer("Deals recorded.")


class LiveClockSerializer(serializers.Serializer):
    """The live table's clocks and who is present (RULES 5, 6)."""

    mode = serializers.ChoiceField(choices=LiveTable.Mode.choices, read_only=True, help_text=(
        "digital (the players' phones), refereed (the referee enters every move) or clock (the referee's clock)."))
    turn = _integer("The table's turn: send it with a move (it grows with every change of the table).")
    seat = _integer("The seat whose move is awaited; null when none is.", allow_null=True)
    allowance = _integer("Seconds the awaited move is allowed; null when no move is awaited.", allow_null=True)
    deal = _integer("Number of the deal of the awaited move.")
    move = _integer("Index (from 0, plays and passes) of the awaited move in its deal.")
    lapses = _integer("Times the awaited move's clock has already run out.")
    deal_over = serializers.BooleanField(read_only=True, help_text=(
        "Referee's clock: the deal is over and waits for its result."))
    turn_started_at = _when("When the awaited move's clock started.")
    deadline = _when("When the awaited move's clock runs out.")
    time_deadline = _when("When the partition's time runs out.")
    clock_started_at = _when("When the partition's clock started.")
    paused_at = _when("When the table was paused; null while it is not.")
    pause_reason = _text("dispute, call (a call to the chief referee), or empty while not paused.", allow_blank=True)
    present = _integers("The seats whose players are present.")
    no_show_deadline = _when("When the absent players lose by no-show (RULES 5); null once everyone is present.")


class LiveTableBaseSerializer(serializers.Serializer):
    """What a live table of either game shows first: which table, its version and its result."""

    partition = _integer("The partition's id.")
    version = _integer("The partition's version.")
    tour = _integer("Number of the tour.")
    table = _integer("Number of the table in the tour.")
    result = LiveResultSerializer(read_only=True)
    players = _by_seat(serializers.CharField(), "The players' names.", read_only=True)
    now = serializers.DateTimeField(read_only=True, help_text="The server's time of the answer (the clocks' now).")
    live = LiveClockSerializer(required=False, help_text="The clocks; absent when the table is not played live.")


class CurrentBaseSerializer(serializers.Serializer):
    """The deal being played, as every viewer sees it."""

    leader = _integer("The seat that led it.")
    to_move = _integer("The seat whose move it is.")
    line = _line()
    ends = _integers("The numbers open at the left and right ends; null before the lead.", 2, allow_null=True)
    tiles_left = _by_seat(serializers.IntegerField(), "Tiles left in each hand.", read_only=True)
    moves = _integer("Moves made in the deal.")
    hands = _by_seat(serializers.ListField(child=serializers.CharField()), (
        'The hands the viewer may see (his own; the referee of a refereed table every one), e.g. ["3-5", ...].'),
        read_only=True)


# -- a sports table ------------------------------------------------------------------------------


class FinishedDealSerializer(serializers.Serializer):
    """A finished deal; one played move by move also shows its hands, line and seed, public once it is over."""

    n = _integer("Number of the deal, from 1.")
    leader = _integer("The seat that led it.")
    end = serializers.ChoiceField(choices=engine.DEAL_ENDS, read_only=True, help_text="How it ended.")
    seat = _integer("Who placed the last tile or passed falsely.", allow_null=True)
    pips = _integers("Pips left in the hands of pair A and of pair B.", 2)
    winner = _text("A, B or null (a drawn fish, or a false pass).", allow_null=True)
    points = _integer("Points the winner scored.")
    totals = _integers("The totals of pair A and of pair B after it.", 2)
    hands = _by_seat(serializers.ListField(child=serializers.CharField()), "The hands as dealt.", required=False)
    line = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField(), min_length=2,
                                                             max_length=2), required=False,
                                 help_text="The line of play as it ended, as `current.line`.")
    seed = SeedField(required=False, allow_null=True, help_text=(
        "The seed it was dealt from (for audit); null when its hands were entered."))


class LiveViolationSerializer(serializers.Serializer):
    id = _integer("The violation's number.")
    seat = _integer("The seat that committed it.")
    code = _text("The violation's code.")
    consequence = serializers.ChoiceField(choices=[c.value for c in engine.Consequence], read_only=True,
                                          help_text="warning, penalty or lost (a no-show).")
    annulled = _text("The reason it was annulled, if it was.", allow_null=True)
    after_deal = _integer("Deals played when it was recorded.")


class LivePenaltySerializer(serializers.Serializer):
    seat = _integer("The penalised seat.")
    code = _text("The penalty's code.")
    pair = serializers.ChoiceField(choices=("A", "B"), read_only=True, help_text="The penalised pair.")
    after_deal = _integer("The deal after which it counts.")


class LegalMoveSerializer(serializers.Serializer):
    """A tile the player to move may play, as a move sends it (none listed: he passes)."""

    seat = _integer("The seat to move.")
    tile = _text('The tile, e.g. "3-5".')
    end = serializers.ChoiceField(choices=[side.value for side in engine.Side], required=False,
                                  help_text="The end it goes on; absent for the lead.")


class SportsCurrentSerializer(CurrentBaseSerializer):
    legal = LegalMoveSerializer(many=True, required=False, help_text=(
        "The moves the viewer may make: only to the holder of the seat to move."))


class SportsTableStateSerializer(LiveTableBaseSerializer):
    """A sports table played live: two pairs, deal by deal to the target (RULES 4-7)."""

    totals = _integers("The totals of pair A and of pair B.", 2)
    next = serializers.ChoiceField(choices=[n.value for n in engine.Next], read_only=True, help_text=(
        "What comes next: the lead draw, a deal, the last deal, an extra deal (the totals are level), or over."))
    deal_number = _integer("Number of the coming (or current) deal.", allow_null=True)
    leader = _integer("The seat that leads it.", allow_null=True)
    deals = FinishedDealSerializer(many=True, read_only=True)
    violations = LiveViolationSerializer(many=True, read_only=True)
    penalties = LivePenaltySerializer(many=True, read_only=True)
    current = SportsCurrentSerializer(required=False, help_text="The deal being played, if any.")


# -- a Goat or Sea Goat table --------------------------------------------------------------------


class GoatFinishedDealSerializer(serializers.Serializer):
    """A finished deal of the game being played; the per-unit lists are in the order of `units`."""

    n = _integer("Number of the deal in its game, from 1.")
    leader = _integer("The seat that led it.", allow_null=True)
    end = serializers.ChoiceField(choices=GOAT_ENDS, read_only=True, help_text="How it ended.")
    seat = _integer("Who made domino or placed the fishing tile.", allow_null=True)
    values = _integers("Hand value left to seats 1.. (empty for a redeal).")
    charges = _integers("What the deal charged (Goat) or credited (Sea Goat) each unit.")
    scores = _integers("Each unit's score after it.")


class GoatTotalsSerializer(serializers.Serializer):
    """Summed over the sitting's finished games, per unit (in the order of `units`)."""

    game_points = _integers("Game points.")
    goats = _integers("Games in which each was a goat (Goat).")


class GoatLegalMoveSerializer(serializers.Serializer):
    """A move the player to move may make: a tile on an end, in Sea Goat with a second double."""

    seat = _integer("The seat to move.")
    tile = _text('The tile, e.g. "3-5".')
    end = serializers.ChoiceField(choices=[side.value for side in engine.Side], required=False,
                                  help_text="The end it goes on; absent for a lead, or when both ends show one number.")
    second = serializers.CharField(required=False, help_text="Sea Goat: a second double put on the other end.")


class GoatCurrentSerializer(CurrentBaseSerializer):
    bazaar = _integer("Tiles left in the bazaar.")
    legal = GoatLegalMoveSerializer(many=True, required=False, help_text=(
        "The moves the viewer may make: only to the holder of the seat to move."))
    must_draw = serializers.BooleanField(required=False, help_text=(
        "With `legal`: nothing fits and he must draw from the bazaar (when false too, he passes)."))
    bazaar_tiles = serializers.ListField(child=serializers.CharField(), required=False, help_text=(
        "The tiles left in the bazaar: only to the referee who entered the hands."))


class GoatTableStateSerializer(LiveTableBaseSerializer):
    """A Goat or Sea Goat table played live (RULES 9.1, 9.2): each player for himself, or pairs with teams."""

    goat = serializers.ChoiceField(choices=("goat", "sea_goat"), read_only=True, help_text="The game.")
    game_number = _integer("Number of the game being played, from 1.")
    games = _integer("The games the table plays in the tour.")
    units = serializers.ListField(child=serializers.CharField(), read_only=True, help_text=(
        'Who is scored: seats "1".. each for himself, or pairs "A" and "B" with teams.'))
    scores = _integers("Each unit's score in the game.")
    memo = _integers("Each unit's memorised points (Goat: charged before the opening).")
    opened = serializers.ListField(child=serializers.BooleanField(), read_only=True,
                                   help_text="Whether each unit has opened.")
    carry = _integer("A tied fish's (Goat) or Sea Goat's eggs' points, waiting for the next deal.")
    deals = GoatFinishedDealSerializer(many=True, read_only=True)
    totals = GoatTotalsSerializer(read_only=True)
    current = GoatCurrentSerializer(required=False, help_text="The deal being played, if any.")


#: A live table's state: its game decides the shape.
LIVE_TABLE = PolymorphicProxySerializer(component_name="LiveTableState", resource_type_field_name=None,
                                        serializers=[SportsTableStateSerializer, GoatTableStateSerializer])


# -- other answers -------------------------------------------------------------------------------


class SeatTakenSerializer(serializers.Serializer):
    token = _text("Holds the seat: send it as X-Seat-Token.")
    seat = _integer("The seat taken.")


class TourStartedSerializer(serializers.Serializer):
    tour = _integer("Number of the tour.")
    started_at = serializers.DateTimeField(read_only=True, help_text="When it started.")
