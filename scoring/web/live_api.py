"""The REST API of live tables: ``/api/partitions/{id}/live/...``, thin views over
:mod:`scoring.live.play`. Every answer is the table as the caller may see it
(:func:`scoring.recording.state.table_state`). A device holding a seat of a digital table sends its
token in the ``X-Seat-Token`` header; the referee and the chief referee use their login."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework import permissions as permissions_drf
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.engine import DEAL_ENDS, GoatEnd
from scoring.models import LiveTable, Partition
from scoring.recording import hands, pipeline
from scoring.web.api import client_address
from scoring.web.live_serializers import LIVE_TABLE, GoatTableStateSerializer, SeatTakenSerializer, \
    SportsTableStateSerializer, TourStartedSerializer
from scoring.web.serializers import ClosedSerializer, PipsSerializer, StrictBooleanField, StrictCharField, \
    StrictChoiceField, StrictIntegerField, seat_field
from tournaments import permissions
from tournaments.models import Tour
from tournaments.web.api import ApiSchema, ApiViewSet, ErrorSerializer, valid
from tournaments.web.parsers import JSONParser

from scoring.live import play
from scoring.recording.state import table_state, with_table
from tournaments.prepared import Prepared

DEVICE_ID = OpenApiParameter(
    "X-Device-Id", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="A random id the device keeps (its first 64 characters count): wrong PINs typed elsewhere do not "
                "lock it. Without it the device is known by its address only.")
SEAT_TOKEN = OpenApiParameter(
    "X-Seat-Token", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The token a device got when it took a seat of a digital table (POST .../live/seat/).")
STALE = OpenApiResponse(ErrorSerializer, description="The move was made for a turn that is over: nothing was "
                                                     "stored; `turn` in the body is the table's turn now.")


#: The ends of the line a tile goes on.
ENDS = ("left", "right")


def turn_field() -> StrictIntegerField:
    return StrictIntegerField(min_value=0, help_text="The turn the move is made for (live.turn of the table read).")


class MoveSerializer(ClosedSerializer):
    turn = turn_field()
    tile = StrictCharField(max_length=5, required=False, help_text='The tile, e.g. "3-5".')
    end = StrictChoiceField(choices=ENDS, required=False, allow_null=True,
                            help_text="The end it goes on, when it fits both.")
    second = StrictCharField(max_length=5, required=False, allow_null=True,
                             help_text='Sea Goat: a second double, e.g. "5-5", put on the other end in the same move '
                                       "(RULES 9.2); `tile` is then a double and `end` its end. Refused at any other "
                                       "table.")
    # "pass" is a Python keyword: the field is declared under its JSON name below.

    def validate(self, data):
        if bool(data.get("tile")) == bool(data.get("pass")):
            raise serializers.ValidationError(_("Play a tile or pass."))
        if data.get("second") and not data.get("tile"):
            raise serializers.ValidationError(_("A second double goes with a first one."))
        return data


MoveSerializer._declared_fields["pass"] = StrictBooleanField(required=False, help_text="true: he passes.")


class DrawSerializer(ClosedSerializer):
    turn = turn_field()
    tile = StrictCharField(max_length=5, required=False, allow_null=True,
                           help_text='Refereed table: the tile drawn, e.g. "3-4" (the physical bazaar has no known '
                                     "order). Refused at a digital table, whose bazaar is face down.")


class SeatSerializer(ClosedSerializer):
    seat = seat_field()
    pin = StrictCharField(max_length=8, help_text="The player's PIN (the one he confirms protocols with).")


class SeatOnlySerializer(ClosedSerializer):
    seat = seat_field()


class PostponeSerializer(ClosedSerializer):
    minutes = StrictIntegerField(min_value=1, max_value=120)


class StartSerializer(ClosedSerializer):
    leader = seat_field()  # the seat that won the lead draw (RULES 3)


class HandsSerializer(ClosedSerializer):
    turn = turn_field()
    hands = serializers.DictField(child=serializers.ListField(child=StrictCharField(max_length=5), max_length=7),
                                  help_text='The hands of every seat: {"1": ["0-0", ...7 tiles], "2": [...], ...}; '
                                            "four at a sports table, 2 to 4 at a Goat table.")


class TapSerializer(ClosedSerializer):
    turn = turn_field()
    allowance = StrictChoiceField(choices=play.ALLOWANCES, required=False,
                                  help_text="The next move's allowance (several: 20 s by default).")


class AllowanceSerializer(ClosedSerializer):
    turn = turn_field()
    kind = StrictChoiceField(choices=play.ALLOWANCES)


class TurnSerializer(ClosedSerializer):
    turn = turn_field()


class LiveDealResultSerializer(ClosedSerializer):
    end = StrictChoiceField(choices=DEAL_ENDS)
    seat = seat_field(required=False, allow_null=True)
    pips = PipsSerializer()


class LeadSerializer(ClosedSerializer):
    seat = seat_field()  # the seat that leads a Goat game's first deal (RULES 9.1)


class GoatResultSerializer(ClosedSerializer):
    end = StrictChoiceField(choices=[end.value for end in GoatEnd])
    seat = seat_field(required=False, allow_null=True)
    values = serializers.DictField(child=StrictIntegerField(min_value=0), required=False,
                                   help_text='Each seat\'s hand value: {"1": 14, "3": 25} (the domino maker\'s may be '
                                             "left out).")
    zero_zero = StrictBooleanField(required=False, help_text="Sea Goat: domino made with 0-0.")


class PauseSerializer(ClosedSerializer):
    reason = StrictChoiceField(choices=LiveTable.Pause.values)


def _writes(summary: str, description: str, request: Any, answer: Any = LIVE_TABLE) -> Any:
    """A write's schema: it answers the table as the caller then sees it, in its game's shape
    (``answer``: the one game's shape of an action only one game has)."""
    return extend_schema(summary=summary, description=description, request=request, parameters=[SEAT_TOKEN],
                         responses={200: answer, 409: STALE})


#: A live table's partition with its live row, compiled once: a phone's reads and seat claims ask
#: for it, and compiling it cost five times PostgreSQL's work.
_LIVE_PARTITION = Prepared(lambda pk: Partition.objects.select_related("live").filter(pk=pk, live__isnull=False))


def live_partition(user: Any, pk: int) -> Partition:
    """The partition ``pk`` played live, if ``user`` may see it; a 404 otherwise."""
    partition = _LIVE_PARTITION.first(pk)
    tour = with_table(partition).table.tour if partition is not None else None
    if partition is None or tour is None or not (permissions.can_see_tournament(user, tour.tournament)
                                                 and permissions.can_see_tour(user, tour)):
        raise exceptions.NotFound(_("There is no live table %(id)s.") % {"id": pk})
    return partition


def table_answer(actor: play.Actor, pk: int, partition: Partition | None = None) -> dict[str, Any]:
    """The table as the caller sees it. After a write, from the partition the service returns:
    its rows and engine state as the write left them, not read and rebuilt a second time."""
    if partition is None:  # a read: the table's clocks are caught up first
        partition = pipeline.caught_up(live_partition(actor.user, pk))
    user = actor.user
    own = play.held(actor, partition.pk)
    lost = hands.moves_for(user, partition)  # a seat no phone holds, its player moved for
    seats = {*own, lost} if lost is not None else own
    state = table_state(partition, seats=seats, referee=permissions.may_see_hands(user, partition.table))
    hands.look_at_state(user, partition, state, route="live_api", address=actor.address, own=own)
    return state


# -- a phone's requests: each a function of who acts, the partition and the body, called by the
# viewset below and by the lean path of a phone's requests (scoring.web.phones) alike.

def read_table(actor: play.Actor, pk: int, body: Any, device: str | None) -> dict[str, Any]:
    return table_answer(actor, pk)


def move_tile(actor: play.Actor, pk: int, body: Any, device: str | None) -> dict[str, Any]:
    data = valid(MoveSerializer, body)
    partition = play.move(actor, pk, data["turn"], tile=data.get("tile"), end=data.get("end"),
                          pass_turn=bool(data.get("pass")), second=data.get("second") or None)
    return table_answer(actor, pk, partition)


def draw_tile(actor: play.Actor, pk: int, body: Any, device: str | None) -> dict[str, Any]:
    data = valid(DrawSerializer, body)
    partition = play.draw(actor, pk, data["turn"], tile=data.get("tile") or None)
    return table_answer(actor, pk, partition)


def take_seat(actor: play.Actor, pk: int, body: Any, device: str | None) -> dict[str, Any]:
    live_partition(actor.user, pk)
    data = valid(SeatSerializer, body)
    token = play.claim_seat(pk, data["seat"], data["pin"], address=actor.address, device=device)
    return {"token": token, "seat": data["seat"]}


def device_id(headers: Mapping[str, str]) -> str | None:
    """The X-Device-Id a phone sends (its first 64 characters), or None."""
    return headers.get("X-Device-Id", "")[:64] or None


def stale_turn(exc: Exception) -> tuple[int, dict[str, Any]] | None:
    """A move made for a turn that is over: 409, with the table's turn (None: another error)."""
    if isinstance(exc, pipeline.StaleTurn):
        return status.HTTP_409_CONFLICT, {"detail": exc.messages[0], "turn": exc.turn}
    return None


@extend_schema(tags=["live tables"])
class LiveTableViewSet(ApiViewSet):
    """``/api/partitions/{id}/live/``: a partition played live."""

    lookup_value_converter = "int"
    # A player's phone is not signed in: it takes a seat with his PIN and then holds it by
    # X-Seat-Token. Each action's service decides who may act (scoring.live.play), get_object
    # who may see the table; the API's default (sign in to write) would refuse every phone.
    permission_classes = [permissions_drf.AllowAny]
    queryset = Partition.objects.all()
    # Each action checks its own body (valid(...)); the answer is table_state's document.
    serializer_class = serializers.Serializer

    def get_object(self) -> Partition:
        return live_partition(self.request.user, self.kwargs["pk"])

    def _token(self) -> str:
        return self.request.headers.get("X-Seat-Token", "")

    @functools.cached_property
    def actor(self) -> play.Actor:
        """Who acts, one for the request: the seats his token holds are read once."""
        return play.Actor(self.request.user, self._token(), client_address(self.request))

    def _answer(self, pk: int, partition: Partition | None = None) -> Response:
        return Response(table_answer(self.actor, pk, partition))

    def _phone(self, action: Callable[..., dict[str, Any]], pk: int) -> Response:
        return Response(action(self.actor, pk, self.request.data, device_id(self.request.headers)))

    def handle_exception(self, exc):
        stale = stale_turn(exc)
        if stale is not None:
            return Response(stale[1], status=stale[0])
        return super().handle_exception(exc)

    @extend_schema(summary="A live table", parameters=[SEAT_TOKEN], responses={200: LIVE_TABLE},
                   description="The line of play, whose turn, the move clock (deadline, allowance, lapses), the "
                               "partition clock, the totals, the finished deals with their hands and seeds. The "
                               "caller's own hand (by his seat token) and his legal moves on his turn; no other "
                               "hand until its deal is over.")
    def retrieve(self, request, pk):
        return self._phone(read_table, pk)

    @_writes("Play a move", "The awaited player plays a tile or passes, for `turn`; in Sea Goat he may put two "
             "doubles down at once, one on each end (`second`, as his legal moves list it). At a digital table the "
             "device holding his seat or the referee; at a refereed table the referee (a pass holding a playable tile "
             "is then recorded as a false pass, which ends the deal).", MoveSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def move(self, request, pk):
        return self._phone(move_tile, pk)

    @_writes("Draw from the bazaar", "Goat: the player to move, with no tile that fits, takes the next tile of the "
             "bazaar, for `turn` (refused while a tile fits or when the bazaar is exhausted); his turn goes on. The "
             "device holding his seat or the referee; at a refereed table the referee names the `tile` drawn.",
             DrawSerializer, GoatTableStateSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def draw(self, request, pk):
        return self._phone(draw_tile, pk)

    @extend_schema(summary="Take a seat of a digital table", request=SeatSerializer,
                   description="The player scanned the table's code and types his PIN: the answer's `token` "
                               "holds the seat (send it as X-Seat-Token). One device per seat. Wrong PINs are "
                               "counted per device (X-Device-Id) and per address.",
                   parameters=[DEVICE_ID], responses={200: SeatTakenSerializer})
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def seat(self, request, pk):
        return self._phone(take_seat, pk)

    @_writes("Release a seat", "The referee frees a seat held by a device.", SeatOnlySerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def release(self, request, pk):
        data = valid(SeatOnlySerializer, request.data)
        partition = play.release_seat(request.user, pk, data["seat"], address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Tick a player present", "The referee checks a player in (RULES 5: no-show).", SeatOnlySerializer)
    @action(detail=True, methods=["post"], url_path="check-in", parser_classes=[JSONParser])
    def check_in(self, request, pk):
        data = valid(SeatOnlySerializer, request.data)
        partition = play.check_in(request.user, pk, data["seat"], address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Postpone the no-show", "The referee or chief referee gives the absent players more minutes.",
             PostponeSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def postpone(self, request, pk):
        data = valid(PostponeSerializer, request.data)
        partition = play.postpone_no_show(request.user, pk, data["minutes"],
                                          address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Start the partition", "Refereed table or referee's clock: the lead draw's result (a Goat table has "
             "none: 400).", StartSerializer, SportsTableStateSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def start(self, request, pk):
        data = valid(StartSerializer, request.data)
        partition = play.start_partition(request.user, pk, data["leader"],
                                         address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Enter the hands", "Refereed table: the hands drawn, 7 tiles each (a Goat table: every seat's, the "
             "bazaar being the rest; a void hand is recorded as a redeal).", HandsSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def hands(self, request, pk):
        data = valid(HandsSerializer, request.data)
        partition = play.enter_hands(request.user, pk, data["hands"], turn=data["turn"],
                                     address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Tap a move", "Referee's clock: the move awaited was made; the next seat's clock starts.",
             TapSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def tap(self, request, pk):
        data = valid(TapSerializer, request.data)
        partition = play.tap(request.user, pk, data["turn"], allowance=data.get("allowance", "several"),
                             address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Switch the allowance", "Referee's clock: the awaited move gets 5 s (single, pass) or 60 s (fish).",
             AllowanceSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def allowance(self, request, pk):
        data = valid(AllowanceSerializer, request.data)
        partition = play.set_allowance(request.user, pk, data["turn"], data["kind"],
                                       address=client_address(request))
        return self._answer(pk, partition)

    @_writes("End the deal", "Referee's clock: the awaited move ended the deal; no move clock runs until its "
             "result is recorded (result/, goat-result/; while paused too).", TurnSerializer)
    @action(detail=True, methods=["post"], url_path="deal-over", parser_classes=[JSONParser])
    def deal_over(self, request, pk):
        data = valid(TurnSerializer, request.data)
        partition = play.deal_over(request.user, pk, data["turn"], address=client_address(request))
        return self._answer(pk, partition)

    @_writes("The deal's result", "Referee's clock: how the deal ended and the pips left (a Goat table: "
             "goat-result/).", LiveDealResultSerializer, SportsTableStateSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def result(self, request, pk):
        data = valid(LiveDealResultSerializer, request.data)
        partition = play.clock_deal_result(request.user, pk, data["end"], data.get("seat"),
                                           dict(data["pips"]), address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Lead a Goat game", "Goat table on the referee's clock: the seat that leads the first deal of a game "
             "(the holder of 1-1, or as RULES 9.1 goes on); his clock starts.", LeadSerializer,
             GoatTableStateSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def lead(self, request, pk):
        data = valid(LeadSerializer, request.data)
        partition = play.goat_lead(request.user, pk, data["seat"], address=client_address(request))
        return self._answer(pk, partition)

    @_writes("A Goat deal's result", "Goat table on the referee's clock: the deal as on the Goat score sheet, domino "
             "or fish with the `seat` and each hand's `values`, or a redeal; the next deal's leader's clock starts.",
             GoatResultSerializer, GoatTableStateSerializer)
    @action(detail=True, methods=["post"], url_path="goat-result", parser_classes=[JSONParser])
    def goat_result(self, request, pk):
        data = valid(GoatResultSerializer, request.data)
        partition = play.clock_goat_result(request.user, pk, dict(data), address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Pause", "Every clock of the table stops: a dispute, or a call to the chief referee.", PauseSerializer)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def pause(self, request, pk):
        data = valid(PauseSerializer, request.data)
        partition = play.pause(request.user, pk, data["reason"], address=client_address(request))
        return self._answer(pk, partition)

    @_writes("Resume", "The clocks restart with the time each had left.", None)
    @action(detail=True, methods=["post"], parser_classes=[JSONParser])
    def resume(self, request, pk):
        partition = play.resume(request.user, pk, address=client_address(request))
        return self._answer(pk, partition)


class StartTourView(APIView):
    """``POST /api/tournaments/{slug}/tours/{number}/start/``."""

    schema = ApiSchema()
    parser_classes = [JSONParser]

    @extend_schema(tags=["live tables"], summary="Start a tour", request=None,
                   responses={200: TourStartedSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
                   description="The chief referee starts a published tour: its live tables open and their "
                               "no-show deadlines run from now.")
    def post(self, request, slug, number):
        tour = Tour.objects.select_related("tournament").filter(tournament__slug=slug, number=number).first()
        if tour is None or not permissions.can_see_tour(request.user, tour):
            raise exceptions.NotFound(_("There is no tour %(number)s.") % {"number": number})
        tour = play.start_tour(request.user, tour)
        return Response({"tour": tour.number, "started_at": tour.started_at})
