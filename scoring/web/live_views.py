"""The pages of live tables: the public page of a table, the player's phone (a digital table) and
the referee's tablet; starting a tour and choosing how its tables are played.

Thin, like the score sheet: every write is one service of :mod:`scoring.live.play` (or
:func:`scoring.recording.commands.record` for an annulment), what a page shows is
:func:`scoring.recording.state.table_state` for that viewer (a player's page is built from his own
state, which holds no other hand) with the names and labels of the score sheet. Each page is a
frame around one fragment: the script (static/js/live.js) fetches the fragment again when the
table changes and posts the forms in it; without the script the forms post and redirect, and
the pages that only watch reload themselves.

Every request of a page catches the table's clocks up first (:func:`scoring.recording.pipeline.expire`):
a clock that ran out is on the page even when no worker recorded it yet.
"""

from __future__ import annotations

import datetime
import re
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import engine, labels

from scoring.models import LiveTable, Partition, SeatHolder
from scoring.protocols.rendering import qr_svg
from scoring.recording import hands, pipeline, storage
from scoring.web.sheet_forms import AnnulForm, DealForm, GoatDealEndForm
from scoring.web.sheet_views import protocol_context
from tournaments import permissions, pins
from tournaments.models import Tour
from tournaments.pages import chief_page, organiser_page
from tournaments.standings import standings_table

from scoring.recording import clock

from scoring.web import hall

from scoring.live import play
from scoring.recording import commands, storage
from scoring.recording.state import table_state

#: The cookie holding a seat of a digital table, scoped to the table's pages (seat-ru, seat-en: the
#: pages of each language have their own path).
SEAT_COOKIE = "seat"
#: The cookie naming a phone for the PIN limiter (tournaments.pins): a random id of its own, kept a
#: year, so that wrong PINs typed elsewhere do not lock this phone.
DEVICE_COOKIE = "device"
DEVICE_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: The header the script sends: the answer is the fragment, not a redirect.
FETCH = "fetch"


# -- finding the table ----------------------------------------------------------------------------


def _played_live(tournament) -> None:
    """A points game's tables are never played live (:func:`scoring.live.play.set_play_mode`):
    nothing here shows them."""
    if LIVE.get(tournament.kind) is None:
        raise Http404(_("A points game is recorded on the score sheet only: its tables cannot be played live."))


def _partition(request: HttpRequest, slug: str, number: int, table: int) -> Partition:
    """The partition at a table, for whoever sees its tour (a 404 for anyone else)."""
    partition = get_object_or_404(
        Partition.objects.select_related(
            "live", "table__tour__tournament", "table__referee", "table__pair_a__first", "table__pair_a__second",
            "table__pair_b__first", "table__pair_b__second", "table__seat1", "table__seat2", "table__seat3",
            "table__seat4"),
        table__tour__tournament__slug=slug, table__tour__number=number, table__number=table)
    tour = partition.table.tour
    if not (permissions.can_see_tournament(request.user, tour.tournament)
            and permissions.can_see_tour(request.user, tour)):
        raise Http404(_("There is no such table."))
    _played_live(tour.tournament)
    return pipeline.caught_up(partition)


def _live(partition: Partition) -> LiveTable | None:
    return getattr(partition, "live", None)


def _address(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _url(name: str, partition: Partition) -> str:
    table = partition.table
    return reverse(name, args=[table.tour.tournament.slug, table.tour.number, table.number])


# -- what a page shows ------------------------------------------------------------------------------


def _moves(legal: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The ends each playable tile may go on alone ("" for a lead, which has no end)."""
    ends: dict[str, list[str]] = {}
    for move in legal:
        if "tile" in move and "second" not in move:
            ends.setdefault(move["tile"], []).append(move.get("end") or "")
    return ends


def table_context(partition: Partition, *, seats: Collection[int] = (),
                  referee: bool = False) -> dict[str, Any]:
    """Everything a fragment shows, from the table's state as this viewer may see it."""
    game = storage.engine_partition(partition)
    state = table_state(partition, seats=seats, referee=referee, game=game)
    context = protocol_context(partition, game)
    seat_list = context["seats"]
    live = _live(partition)
    current = state.get("current")
    revealed = {record["n"]: record for record in state["deals"] if "hands" in record}
    for line in context["deals"]:
        record = revealed.get(line["n"])
        if record is not None:
            line.update(line_of_play=record["line"], seed=record.get("seed"),
                        hands=[(seat_list[int(s) - 1], tiles) for s, tiles in sorted(record["hands"].items())])
    return {
        **context, **_board(partition, state, seat_list),
        # A player passes only without a playable tile (the referee of a refereed table may record
        # a false pass: see _referee_context).
        "can_pass": current is not None and "legal" in current and not current["legal"],
    }


def _board(partition: Partition, state: dict[str, Any], seat_list: Sequence[Any]) -> dict[str, Any]:
    """What every live fragment shows of the table, sports or Goat: the clocks, whose turn, the
    line, the hands the viewer may see with their playable tiles, the tiles left."""
    live = _live(partition)
    now = datetime.datetime.fromisoformat(state["now"])
    current = state.get("current")
    clocks: dict[str, Any] = {}
    awaited = None
    if live is not None:
        awaited = seat_list[live.seat - 1] if live.seat else None
        if live.paused_at is not None:
            # A paused move clock has no deadline: what it had left is its allowances less the time spent.
            clocks["time"] = clock.stopped(live.time_deadline, live.paused_at)
            clocks["no_show"] = clock.stopped(live.no_show_deadline, live.paused_at)
            if live.seat is not None and live.turn_started_at is not None and live.allowance:
                clocks["move"] = clock.stopped(clock.move_deadline(live), live.paused_at)
        else:
            clocks = {"move": clock.countdown(live.deadline, now), "time": clock.countdown(live.time_deadline, now),
                      "no_show": clock.countdown(live.no_show_deadline, now)}
    elif current is not None:
        awaited = seat_list[current["to_move"] - 1]
    legal = _moves(current.get("legal", [])) if current else {}
    hands = []
    if current is not None:
        for seat, tiles in current["hands"].items():
            mover = int(seat) == current["to_move"]
            hands.append({"seat": seat_list[int(seat) - 1], "to_move": mover,
                          "tiles": [{"tile": tile, "ends": legal.get(tile, []) if mover else []} for tile in tiles]})
    return {
        "state": state, "live": live, "version": partition.version, "now": state["now"],
        "mode": live.mode if live is not None else partition.table.mode,
        "mode_label": LiveTable.Mode(live.mode).label if live is not None else "",
        "awaited": awaited, "clocks": clocks, "current": current, "hands": hands,
        "line": current["line"] if current else [],
        "tiles_left": [(seat_list[int(s) - 1], n) for s, n in current["tiles_left"].items()] if current else [],
        "present": set(live.present) if live is not None else set(),
        "pause_label": LiveTable.Pause(live.pause_reason).label if live is not None and live.pause_reason else "",
        "tour_started": partition.table.tour.started_at is not None,
    }


def goat_context(partition: Partition, *, seats: Collection[int] = (), referee: bool = False) -> dict[str, Any]:
    """Everything the fragment of a Goat table shows (RULES 9.1): the players each for himself
    (with ``teams`` in pairs), the game's scores and memorised points, the bazaar's count; the
    viewer's hand, and on his move his playable tiles, or the bazaar to draw from (the
    ``referee`` of a refereed table: every hand, table_state)."""
    sitting = storage.engine_sitting(partition)
    state = table_state(partition, seats=seats, referee=referee, game=sitting)
    table = partition.table
    rules = sitting.regulations
    seat_list = [{"number": n, "player": player, "pair": engine.units_of(rules)[engine.unit_index(n, rules)]
                  if rules.teams else ""} for n, player in enumerate(table.players, 1)]
    current = state.get("current")
    each = len(state["units"]) == len(seat_list)  # each for himself, else in pairs ("teams")
    scores = [{"label": seat_list[k]["player"] if each else _("Pair %(pair)s") % {"pair": unit}, "score": score,
               "memo": state["memo"][k], "opened": state["opened"][k]}
              for k, (unit, score) in enumerate(zip(state["units"], state["scores"]))]
    return {
        "partition": partition, "table": table, "tour": table.tour, "tournament": table.tour.tournament,
        "seats": seat_list, "goat": True, "sitting": sitting, **_board(partition, state, seat_list),
        "status": {"deal": len(sitting.game.deals) + 1, "next": "over" if partition.is_finished else ""},
        "scores": scores, "carry": state["carry"], "sea_goat": not engine.kind_of(sitting.regulations).marks_goats,
        "results": partition.seat_results.order_by("seat") if partition.is_finished else [],
        "must_draw": bool(current and current.get("must_draw")),
        # Sea Goat (RULES 9.2): two doubles at once, the first on the left end, the second on the right.
        "doubles": [move for move in (current or {}).get("legal", []) if "second" in move],
        "can_pass": bool(current and "legal" in current and not current["legal"] and not current["must_draw"]),
    }


def _context(partition: Partition, *, seats: Collection[int] = ()) -> dict[str, Any]:
    """The fragment's context of the table, whatever its game."""
    return _live_of(partition).context(partition, seats=seats)


def _fragment(request: HttpRequest, template: str, context: dict[str, Any], *, error: str = "",
              status: int = 200) -> HttpResponse:
    response = render(request, template, {**context, "error": error}, status=status)
    response["X-Live-Fragment"] = "1"
    response["Cache-Control"] = "no-store"
    return response


def _unchanged(request: HttpRequest, partition: Partition) -> bool:
    """The script asks with the version it shows: nothing to send if the table has not changed."""
    return request.GET.get("version") == str(partition.version)


def _act(request: HttpRequest, write: Callable[[], Any], back: str,
         fragment: Callable[[str, int], HttpResponse]) -> HttpResponse:
    """Run one service for a posted form. The script gets the fragment back (with the refusal in
    it); a plain form post a redirect to the page (the refusal as a message)."""
    error = ""
    try:
        write()
    except (ValidationError, PermissionDenied) as refusal:
        error = " ".join(refusal.messages) if isinstance(refusal, ValidationError) else str(refusal)
    except storage.Conflict as conflict:
        error = str(conflict)
    if request.headers.get("X-Requested-With") == FETCH:
        return fragment(error, 400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect(back)


def _int(value: str | None, what: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise ValidationError(_("%(what)s: a number is needed.") % {"what": what}) from None


def _seat(value: str | None) -> int:
    return _int(value, _("Seat"))


def _move(request: HttpRequest, actor: play.Actor, partition: Partition) -> Partition:
    """A move posted from a page: ``move`` is "tile|end" (end empty for a lead or a single end),
    in Sea Goat "tile|end|second" (two doubles at once), or ``pass``."""
    turn = _int(request.POST.get("turn"), _("Turn"))
    if "draw" in request.POST:  # at a refereed table the referee names the tile drawn
        return play.draw(actor, partition.pk, turn, tile=request.POST.get("drawn") or None)
    if "pass" in request.POST:
        return play.move(actor, partition.pk, turn, pass_turn=True)
    tile, end, second = (request.POST.get("move", "").split("|", 2) + ["", ""])[:3]
    if not tile:
        raise ValidationError(_("Tap a tile, or pass."))
    return play.move(actor, partition.pk, turn, tile=tile, end=end or None, second=second or None)


# -- the public page ----------------------------------------------------------------------------------


def _frame(partition: Partition, fragment: str) -> dict[str, Any]:
    """What the frame of every live page passes its script."""
    table = partition.table
    return {
        "fragment_url": _url(fragment, partition),
        # The tournament's live events of this table (scoring.web.sse), one kind per action
        # recorded: the script listens to each.
        "events_url": f"/api/tournaments/{table.tour.tournament.slug}/live/events/?tour={table.tour.number}"
                      f"&table={table.number}",
        "event_kinds": " ".join(labels.ACTIONS),
    }


def live_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The public page of a table: the line of play, whose turn, the clocks, the totals, the
    finished deals with their hands; never a hand of the deal in play."""
    partition = _partition(request, slug, number, table)
    return render(request, "live/table.html", {
        **_context(partition), **_frame(partition, "live-table-fragment"),
        "fragment_template": _live_of(partition).table_template, "reload": True})


def live_table_fragment(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    partition = _partition(request, slug, number, table)
    if _unchanged(request, partition):
        return HttpResponse(status=204)
    return _fragment(request, _live_of(partition).table_template, _context(partition))


# -- the player's phone ---------------------------------------------------------------------------------


def _token(request: HttpRequest) -> str:
    """The seat token of the page's language (its cookie is the only one the table's path gets)."""
    return request.COOKIES.get(f"{SEAT_COOKIE}-{translation.get_language()}", "")


def _play_context(request: HttpRequest, partition: Partition) -> dict[str, Any]:
    held = play.seats_held(partition.pk, _token(request))
    context = _context(partition, seats=held)
    taken = set(SeatHolder.objects.filter(partition=partition).exclude(token_hash="").values_list("seat", flat=True))
    return {**context, "my_seat": context["seats"][held[0] - 1] if held else None, "taken": taken, "phone": True}


def _play_fragment(request: HttpRequest, partition: Partition, error: str = "", status: int = 200) -> HttpResponse:
    partition.refresh_from_db()
    return _fragment(request, _live_of(partition).play_template, _play_context(request, partition), error=error,
                     status=status)


def _table_paths(partition: Partition) -> dict[str, str]:
    """The path of the table's pages in each language of the site, by language."""
    table = partition.table
    paths = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            paths[code] = reverse("live-play", args=[table.tour.tournament.slug, table.tour.number, table.number])
    return {code: path.removesuffix("play/") for code, path in paths.items()}


def _device(request: HttpRequest, response: HttpResponse) -> str:
    """The phone's id (:data:`DEVICE_COOKIE`), given to it on its first visit."""
    device = request.COOKIES.get(DEVICE_COOKIE, "")
    if not DEVICE_ID.match(device):
        device = secrets.token_urlsafe(24)
        response.set_cookie(DEVICE_COOKIE, device, max_age=365 * 24 * 3600, secure=request.is_secure(),
                            httponly=True, samesite="Lax")
    return device


def _claim(request: HttpRequest, partition: Partition) -> HttpResponse:
    """The player takes his seat with his PIN: the token goes into a cookie only the table's pages get."""
    response = redirect(_url("live-play", partition))
    try:
        token = play.claim_seat(partition.pk, _seat(request.POST.get("seat")), request.POST.get("pin", ""),
                                address=_address(request), device=_device(request, response))
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
        return response
    for code, path in _table_paths(partition).items():  # a cookie per language: one name, one path
        response.set_cookie(f"{SEAT_COOKIE}-{code}", token, max_age=24 * 3600, path=path,
                            secure=request.is_secure(), httponly=True, samesite="Strict")
    return response


@require_http_methods(["GET", "POST"])
def live_play(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The player's phone at a digital table (reached by the table's QR code): his seat taken
    with his PIN, then his hand as big tiles, whose turn, his clock, the line, the totals."""
    partition = _partition(request, slug, number, table)
    if request.method == "POST":
        if request.POST.get("action") == "claim":
            return _claim(request, partition)
        actor = play.Actor(request.user, _token(request), _address(request))
        return _act(request, lambda: _move(request, actor, partition), _url("live-play", partition),
                    lambda error, status: _play_fragment(request, partition, error, status))
    context = _play_context(request, partition)
    response = render(request, "live/play.html", {
        **context, **_frame(partition, "live-play-fragment"),
        # Without the script a seated player's page reloads itself; the PIN form must not.
        "fragment_template": _live_of(partition).play_template,
        "reload": context["my_seat"] is not None})
    _device(request, response)
    return response


def live_play_fragment(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    partition = _partition(request, slug, number, table)
    if _unchanged(request, partition):
        return HttpResponse(status=204)
    return _fragment(request, _live_of(partition).play_template, _play_context(request, partition))


# -- the referee's tablet -------------------------------------------------------------------------------


def _referee_partition(request: HttpRequest, slug: str, number: int, table: int) -> Partition:
    partition = _partition(request, slug, number, table)
    if not permissions.can_referee(request.user, partition.table):
        raise PermissionDenied(_("Only the referee of this table, a chief referee or an organiser may open its "
                                 "tablet."))
    return partition


def _referee_context(request: HttpRequest, partition: Partition) -> dict[str, Any]:
    context = _live_of(partition).referee_context(request, partition)
    hands.look_at_state(request.user, partition, context["state"], route="tablet", address=_address(request))
    holders = set(SeatHolder.objects.filter(partition=partition).exclude(token_hash="").values_list("seat", flat=True))
    live = context["live"]
    play_url = request.build_absolute_uri(_url("live-play", partition))
    seat_of = {player.pk: number for number, player in enumerate(partition.table.players, 1)}
    now = clock.now()
    alerts = pins.alerts(seat_of, now)
    chief = permissions.can_referee_all(request.user, partition.table.tour.tournament)
    return {
        **context, "holders": holders, "play_url": play_url,
        "can_annul_no_show": chief and partition.reason == engine.Reason.NO_SHOW,
        # The referee releases a seat held by a phone, or whose player's PIN is locked somewhere.
        "releasable": holders | {seat_of[pk] for pk in pins.locked(seat_of, now)},
        "pin_alerts": [(player, alerts[player.pk]) for player in partition.table.players if player.pk in alerts],
        "all_tiles": [f"{a}-{b}" for a in range(7) for b in range(a + 1)][::-1],
        "qr": qr_svg(play_url, scale=5)
        if live is not None and live.mode == LiveTable.Mode.DIGITAL else "",
        # The referee's clock's result form: the deal he ended, or the deal in play while paused.
        "clock_result": live is not None and live.mode == LiveTable.Mode.CLOCK and not partition.is_finished
        and (live.deal_over or (live.seat is not None and live.paused_at is not None)),
    }


def _shown(request: HttpRequest, partition: Partition) -> dict[str, Any]:
    """What of the hands the tablet shows its user (scoring.recording.hands): every hand he entered, or the
    hand of a seat no phone holds when its player is awaited."""
    lost = hands.moves_for(request.user, partition)
    return {"seats": [lost] if lost is not None else [],
            "referee": permissions.may_see_hands(request.user, partition.table)}


def _sports_referee_context(request: HttpRequest, partition: Partition) -> dict[str, Any]:
    context = table_context(partition, **_shown(request, partition))
    chief = permissions.can_referee_all(request.user, partition.table.tour.tournament)
    return {
        **context,
        "can_pass": context["current"] is not None and context["mode"] == LiveTable.Mode.REFEREED, "can_annul": chief and not partition.is_finished,
        "forms": {"deal": DealForm()},
    }


def _goat_referee_context(request: HttpRequest, partition: Partition) -> dict[str, Any]:
    """A Goat table as its referee sees it: at a refereed table every hand he entered and the
    tiles left in the bazaar (he names the one drawn); at a digital table the hand of the player
    to move when no phone holds his seat, to move for him (a lost phone); at the referee's clock
    no hand, and the seat to name when a game's first deal waits for its leader. The move clocks
    that ran out, with what each cost (a warning, a penalty, the game), from the audit trail."""
    live = _live(partition)
    context = goat_context(partition, **_shown(request, partition))
    sitting, seat_list = context["sitting"], context["seats"]
    timeouts = [{"seat": seat_list[data["seat"] - 1], "at": datetime.datetime.fromisoformat(data["deadline"]),
                 "label": labels.TIMEOUT_CONSEQUENCES.get(data["consequence"], "")}
                for data in partition.changes.filter(action="timeout").order_by("version").values_list("data", flat=True)]
    return {
        **context, "timeouts": timeouts, "rules": sitting.regulations,
        "seat_choices": [(seat["number"], seat["player"]) for seat in seat_list],
        "needs_lead": (live is not None and live.mode == LiveTable.Mode.CLOCK and live.seat is None
                       and not partition.is_finished and sitting.game.needs_lead),
        "form": GoatDealEndForm(),  # the referee's clock's result: the fields of the Goat score sheet
    }


def _referee_fragment(request: HttpRequest, partition: Partition, error: str = "", status: int = 200) -> HttpResponse:
    partition.refresh_from_db()
    return _fragment(request, _live_of(partition).referee_template, _referee_context(request, partition), error=error,
                     status=status)


def _hands(request: HttpRequest, seats: int) -> dict[str, list[str]]:
    """The hands typed (or picked) as tiles separated by spaces or commas, of every seat at the
    table."""
    return {str(seat): request.POST.get(f"hand_{seat}", "").replace(",", " ").split() for seat in range(1, seats + 1)}


def _goat_deal_result(request: HttpRequest, partition: Partition) -> Partition:
    """A Goat deal's result at the referee's clock: its hand values (the Goat score sheet's form)."""
    goat = GoatDealEndForm(request.POST)
    if not goat.is_valid():
        raise ValidationError([message for errors in goat.errors.values() for message in errors])
    return play.clock_goat_result(request.user, partition.pk, goat.deal, address=_address(request))


def _deal_result(request: HttpRequest, partition: Partition) -> Partition:
    """A sports deal's result at the referee's clock: the pips of the pairs."""
    form = DealForm(request.POST)
    if not form.is_valid():
        raise ValidationError([message for errors in form.errors.values() for message in errors])
    _action, data = form.recording
    return play.clock_deal_result(request.user, partition.pk, data["end"], data.get("seat"), data["pips"],
                                  address=_address(request))


@dataclass(frozen=True)
class LiveKind:
    """The live pages of a family of games: the context of a table's fragment, its templates for
    the public, the players and the referee, the referee's context, and what takes a deal's
    result at the referee's clock."""

    context: Callable[..., dict[str, Any]]
    table_template: str
    play_template: str
    referee_context: Callable[[HttpRequest, Partition], dict[str, Any]]
    referee_template: str
    deal_result: Callable[[HttpRequest, Partition], Partition]


#: The live pages of each family; a points game is never played live (RULES 9.3).
LIVE: engine.Parts[LiveKind] = engine.Parts({
    engine.Family.PARTITION: LiveKind(table_context, "live/table_fragment.html", "live/play_fragment.html",
                                      _sports_referee_context, "live/referee_fragment.html", _deal_result),
    engine.Family.TILES: LiveKind(goat_context, "live/goat_fragment.html", "live/goat_fragment.html",
                                  _goat_referee_context, "live/goat_referee_fragment.html", _goat_deal_result),
    engine.Family.POINTS: None,
})


def _live_of(partition: Partition) -> LiveKind:
    return LIVE.of(partition.table.tour.tournament.kind)


def _annul(request: HttpRequest, partition: Partition) -> Partition:
    form = AnnulForm({**request.POST.dict(), "version": partition.version})
    if not form.is_valid():
        raise ValidationError([message for errors in form.errors.values() for message in errors])
    _action, data = form.recording
    return commands.record(request.user, partition.pk, "annul", data, idempotency_key=form.cleaned_data["key"],
                           address=_address(request))


def _referee_action(request: HttpRequest, partition: Partition) -> Partition:
    """The service of one posted form of the tablet."""
    user, pk, address, post = request.user, partition.pk, _address(request), request.POST
    action = post.get("action", "")
    if action == "check_in":
        return play.check_in(user, pk, _seat(post.get("seat")), address=address)
    if action == "release":
        return play.release_seat(user, pk, _seat(post.get("seat")), address=address)
    if action == "postpone":
        return play.postpone_no_show(user, pk, _int(post.get("minutes"), _("Minutes")), address=address)
    if action == "start":
        return play.start_partition(user, pk, _seat(post.get("seat")), address=address)
    if action == "hands":
        return play.enter_hands(user, pk, _hands(request, len(partition.table.players)),
                                turn=_int(post.get("turn"), _("Turn")), address=address)
    if action == "lead":
        return play.goat_lead(user, pk, _seat(post.get("seat")), address=address)
    if action == "move":
        return _move(request, play.Actor(user, "", address), partition)
    if action == "tap":
        return play.tap(user, pk, _int(post.get("turn"), _("Turn")), address=address)
    if action == "deal_over":
        return play.deal_over(user, pk, _int(post.get("turn"), _("Turn")), address=address)
    if action == "allowance":
        return play.set_allowance(user, pk, _int(post.get("turn"), _("Turn")), post.get("kind", ""), address=address)
    if action == "result":
        return _live_of(partition).deal_result(request, partition)
    if action == "pause":
        return play.pause(user, pk, post.get("reason", ""), address=address)
    if action == "resume":
        return play.resume(user, pk, address=address)
    if action == "annul":
        return _annul(request, partition)
    if action == "annul_no_show":
        return commands.annul_no_show(user, pk, reason=post.get("reason", ""), address=address)
    raise Http404(_("There is no such action."))


@login_required
@require_http_methods(["GET", "POST"])
def live_referee(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The referee's tablet: the seats (present, held), the awaited seat's clock, entering the
    hands and the moves (refereed table) or tapping them (referee's clock), pause, the no-show,
    the warnings and penalties (the chief referee annuls them); at a Goat table its 2 to 4 seats,
    the tiles drawn from the bazaar, the scores and memorised points (:func:`_goat_referee_context`)."""
    partition = _referee_partition(request, slug, number, table)
    if request.method == "POST":
        return _act(request, lambda: _referee_action(request, partition), _url("live-referee", partition),
                    lambda error, status: _referee_fragment(request, partition, error, status))
    # No reload without the script: it would wipe the hands or the result being typed.
    return render(request, "live/referee.html", {
        **_referee_context(request, partition), **_frame(partition, "live-referee-fragment"),
        "fragment_template": _live_of(partition).referee_template})


@login_required
def live_referee_fragment(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    partition = _referee_partition(request, slug, number, table)
    if _unchanged(request, partition):
        return HttpResponse(status=204)
    return _fragment(request, _live_of(partition).referee_template, _referee_context(request, partition))


# -- the hall screen and the chief referee's view of a tour -------------------------------------------


def _tour_frame(tour: Tour, fragment: str, template: str) -> dict[str, Any]:
    """What the frame of a tour's screen passes its script: every event of the tour counts."""
    return {
        "fragment_url": reverse(fragment, args=[tour.tournament.slug, tour.number]), "fragment_template": template,
        "events_url": f"/api/tournaments/{tour.tournament.slug}/live/events/?tour={tour.number}",
        "event_kinds": " ".join(labels.ACTIONS),
    }


def _hall_context(tour: Tour) -> dict[str, Any]:
    rows, now = hall.hall_tables(tour)
    standings = standings_table(tour.tournament)
    columns = standings.precedence
    return {
        "tournament": tour.tournament, "tour": tour, "rows": rows, "now": now.isoformat(),
        "version": hall.version(rows), "standings": standings, "columns": columns,
        "lines": [(line, standings.values(line, columns)) for line in standings.lines],
    }


def _visible_tour(request: HttpRequest, slug: str, number: int) -> Tour:
    tour = _tour(slug, number)
    if not (permissions.can_see_tournament(request.user, tour.tournament)
            and permissions.can_see_tour(request.user, tour)):
        raise Http404(_("There is no tour %(number)s.") % {"number": number})
    _played_live(tour.tournament)
    return tour


def tour_hall(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The hall screen of a tour, for a projector: every table as a tile (the pairs and their
    totals, or a Goat table's players and their scores in the game being played; the partition's
    clock, whose turn, the late ones marked) and the live standings."""
    tour = _visible_tour(request, slug, number)
    frame = _tour_frame(tour, "tour-hall-fragment", "live/hall_fragment.html")
    return render(request, "live/hall.html", {**_hall_context(tour), **frame})


def tour_hall_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _fragment(request, "live/hall_fragment.html", _hall_context(_visible_tour(request, slug, number)))


def _chief_context(tour: Tour) -> dict[str, Any]:
    rows, now = hall.hall_tables(tour)
    paused = sorted((row for row in rows if row.paused), key=lambda row: -row.paused_for)  # the longest first
    return {
        "tournament": tour.tournament, "tour": tour, "now": now.isoformat(), "version": hall.version(rows),
        "calls": [row for row in paused if row.pause_reason == LiveTable.Pause.CALL],
        "disputes": [row for row in paused if row.pause_reason != LiveTable.Pause.CALL],
        "timeouts": hall.recent_timeouts(rows, now), "no_shows": [row for row in rows if row.no_show],
        "faults": [row for row in rows if row.live is not None and row.live.fault],
        "recent_minutes": int(hall.RECENT_TIMEOUTS.total_seconds() // 60),
    }


def _chief_tour(tournament, number: int) -> Tour:
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    tour.tournament = tournament  # read once already
    _played_live(tournament)
    return tour


@chief_page
def tour_chief(request: HttpRequest, tournament, number: int) -> HttpResponse:
    """The chief referee's view of a tour: the calls waiting, the tables paused, the recent
    timeouts and the pending no-shows, each a tap away from that table's tablet."""
    tour = _chief_tour(tournament, number)
    frame = _tour_frame(tour, "tour-chief-fragment", "live/chief_fragment.html")
    return render(request, "live/chief.html", {**_chief_context(tour), **frame})


@chief_page
def tour_chief_fragment(request: HttpRequest, tournament, number: int) -> HttpResponse:
    return _fragment(request, "live/chief_fragment.html", _chief_context(_chief_tour(tournament, number)))


# -- starting a tour, choosing the modes ------------------------------------------------------------------


def _tour(slug: str, number: int) -> Tour:
    return get_object_or_404(Tour.objects.select_related("tournament"), tournament__slug=slug, number=number)


@require_POST
@login_required
def tour_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The chief referee starts the tour: its live tables open."""
    tour = _tour(slug, number)
    if not permissions.can_see_tour(request.user, tour):
        raise Http404(_("There is no tour %(number)s.") % {"number": number})
    try:
        play.start_tour(request.user, tour)
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    else:
        messages.success(request, _("Tour %(number)s is started.") % {"number": tour.number})
    return redirect(_back(request, tour))


def _back(request: HttpRequest, tour: Tour) -> str:
    """Back to the page the form was on (the tour's public or organiser's page)."""
    manage = reverse("tour-manage", args=[tour.tournament.slug, tour.number])
    return manage if request.POST.get("back") == "manage" else tour.get_absolute_url()


@require_POST
@organiser_page
def tour_play_mode(request: HttpRequest, tournament, number: int) -> HttpResponse:
    """The organiser chooses how the tour's tables are played, and a table's own way."""
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    tables = {table: request.POST[f"table_{table}"] for table in tour.tables.values_list("number", flat=True)
              if f"table_{table}" in request.POST}
    try:
        play.set_tour_play_mode(request.user, tour, request.POST.get("mode", ""), tables)
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    else:
        messages.success(request, _("How the tables of tour %(number)s are played is saved.") % {"number": number})
    return redirect("tour-manage", slug=tournament.slug, number=number)
