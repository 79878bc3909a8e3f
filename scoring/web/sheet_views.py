"""The referee's score sheet: his tables, and per partition one step at a time (the lead draw,
then each deal's end), with penalties and warnings, the clock, no-shows, restarted deals,
forfeits and annulments; protocol import and export; the chief referee's corrections and the
history of versions. A Goat or Sea Goat table has its own sheet (its sitting's games deal by
deal, penalties, the table's time) and correction page; import, export and history serve both.
A points game's table has its sheet (each deal's points) and its export only.

Thin: every write is one call of :mod:`scoring.recording.commands` (which holds the transaction, the lock
and the permission check); what the sheet shows — totals, deals, penalties, who leads, what
comes next — is read from the engine's partition, never computed here. A refusal shows the
service's message and nothing is stored; a stale version (another tab, another device) shows
that someone else recorded meanwhile and reloads the sheet.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import permissions, pins
from tournaments.models import Player, Table, Tour

from scoring import engine, labels

from scoring.engine.deal import pair_of
from scoring.live import play
from scoring.models import Partition
from scoring.recording import clock, commands, pipeline, queries, storage
from scoring.recording.sanctions import delta_text, partition_times, running_lines, sanctions
from scoring.web.sheet_forms import (ActionForm, AnnulNoShowForm, CorrectionForm, GOAT_SHEET_FORMS, GoatAnnulForm,
                                     GoatCorrectionForm, GoatDealForm, GoatViolationAnnulForm, ImportForm, NoShowForm,
                                     PointsDealForm, SHEET_FORMS, StampedForm)

#: A form of a sheet.
F = TypeVar("F", bound=StampedForm)

CONFLICT = gettext_lazy("Someone else recorded at this table meanwhile: nothing of yours was saved. This is the sheet as it "
             "is now: check it and record again.")


# -- reading ---------------------------------------------------------------------------------------


def _submit(request, form, write: Callable[[], Partition], *, done: Callable[[Partition], str],
            back: str) -> HttpResponse | None:
    """Call ``write`` (one service) for a valid ``form``. Written: the success message ``done``
    says, and the sheet. Someone else recorded meanwhile (a stale version): nothing is stored, and
    ``back`` shows the page as it now is. Refused: ``None``, the service's messages on the form."""
    try:
        partition = write()
    except storage.Conflict:
        messages.error(request, CONFLICT)
        return redirect(back)
    except ValidationError as error:
        for message in error.messages:
            form.add_error(None, message)
        return None
    messages.success(request, done(partition))
    return redirect(_sheet_url(partition))


def _partition(request, slug: str, number: int, table: int, serves: str = "recorded") -> Partition:
    """The partition at a table, for whoever may record it (a 403 for anyone else), on a page
    that ``serves`` its family of games (a 404 for another): ``recorded``, a family whose
    :data:`PAGES` have a record's pages (a points game's table has only its sheet and its
    export: no import, history or corrections yet); or one of :data:`SERVES`: ``every``,
    ``partition`` or ``tiles`` only."""
    partition = get_object_or_404(
        Partition.objects.select_related(
            "table__tour__tournament", "table__referee", "table__pair_a__first", "table__pair_a__second",
            "table__pair_b__first", "table__pair_b__second", "table__seat1", "table__seat2", "table__seat3",
            "table__seat4"),
        table__tour__tournament__slug=slug, table__tour__number=number, table__number=table)
    if not permissions.can_referee(request.user, partition.table):
        raise PermissionDenied(_("Only the referee of this table, a chief referee or an organiser may open its "
                                 "score sheet."))
    tournament = partition.table.tour.tournament
    kind = tournament.kind
    if not (PAGES.of(kind).history is not None if serves == "recorded" else SERVES[serves].of(kind)):
        raise Http404(_("This page is not made for this table's game."))
    return partition


def _address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _sheet_url(partition: Partition) -> str:
    table = partition.table
    return reverse("sheet", args=[table.tour.tournament.slug, table.tour.number, table.number])


@dataclass(frozen=True)
class Seat:
    number: int
    player: Player
    pair: str  # "A" | "B"; "" for a Goat player each for himself (scoring.web.hall)


def seats_of(table: Table) -> list[Seat]:
    return [Seat(n, player, pair_of(n)) for n, player in enumerate(table.seats, 1)]


def sitting_seats(table: Table, teams: bool) -> list[Seat]:
    """The seats of a table of Goat, Sea Goat or points: in pairs A and B (``teams``), or each
    player for himself."""
    return [Seat(n, player, pair_of(n) if teams else "") for n, player in enumerate(table.players, 1)]


def end_options(seats: list[Seat]) -> dict[str, list[tuple[str, Seat]]]:
    """The values of the deal-end choice (see :data:`sheet_forms.END_CHOICES`) with their seats."""
    return {end: [(f"{end}-{seat.number}", seat) for seat in seats] for end in ("domino", "fish", "false_pass")}


def _seat(seats: list[Seat], number: int | None) -> Seat | None:
    return seats[number - 1] if number else None


def deal_lines(game: engine.Partition, seats: list[Seat]) -> list[dict[str, Any]]:
    """The engine's deals, with the players' names and labels."""
    return [{"n": d.n, "leader": _seat(seats, d.leader), "end": d.end, "end_label": labels.ENDS.get(d.end, d.end),
             "seat": _seat(seats, d.seat), "pips": d.pips, "winner": d.winner, "points": d.points, "totals": d.totals}
            for d in game.deals]


def running_total(game: engine.Partition, deals: list[dict[str, Any]], seats: list[Seat]) -> list[dict[str, Any]]:
    """The one running total (:func:`scoring.recording.sanctions.running_lines`): each line ``deal``
    (its line of ``deals``) or ``penalty`` (seat, code), with what it added and the totals after."""
    by_number = {d["n"]: d for d in deals}
    return [{"deal": by_number[line.deal.n] if line.deal else None, "delta": delta_text(line.delta),
             "totals": line.totals, "after_deal": line.after_deal,
             "seat": _seat(seats, line.penalty.seat) if line.penalty else None,
             "code_label": labels.VIOLATIONS_SHORT.get(line.penalty.code, line.penalty.code) if line.penalty else ""}
            for line in running_lines(game)]


def sanction_lines(game: engine.Partition, seats: list[Seat], times: Sequence[datetime.datetime] = ()
                   ) -> list[dict[str, Any]]:
    """Warnings and penalties as the engine recorded them (:func:`scoring.recording.sanctions.sanctions`),
    with the players' names and labels and when each happened (``times``)."""
    return [{"sanction": s, "after_deal": s.after_deal, "seat": _seat(seats, s.seat), "code": s.code,
             "code_label": labels.VIOLATIONS_SHORT.get(s.code, s.code), "consequence": s.consequence,
             "consequence_label": labels.CONSEQUENCES.get(s.consequence, s.consequence), "points": s.points,
             "pending": s.pending, "annulled": s.annulled, "violation": s.violation, "at": s.at}
            for s in sanctions(game, times)]


def protocol_context(partition: Partition, game: engine.Partition, version: int | None = None) -> dict[str, Any]:
    """What the sheet (or an old version of it, ``version``) shows, all of it read from ``game``
    and, for the time of each warning and penalty, from the partition's history."""
    table = partition.table
    seats = seats_of(table)
    deals = deal_lines(game, seats)
    status = game.status()
    decision = status.decision
    pairs = {"A": table.pair_a, "B": table.pair_b}
    return {
        "partition": partition, "table": table, "tour": table.tour, "tournament": table.tour.tournament,
        "rules": game.regulations, "seats": seats, "pairs": pairs, "game": game, "status": status,
        "leader": _seat(seats, status.leader),
        "winner": pairs.get(decision.winner) if decision and decision.winner else None,
        "reason_label": labels.REASONS.get(decision.reason, decision.reason) if decision else "",
        "totals": game.totals, "deals": deals, "lines": running_total(game, deals, seats),
        # The history is read only when there is a warning or a penalty to give the time of.
        "sanctions": sanction_lines(game, seats, partition_times(partition, version)
                                    if game.violations or game.penalties or game.pending_penalties else ()),
        "first_leader": _seat(seats, game.first_leader),
        "time_expired": game.time_expired, "end_options": end_options(seats),
    }


# -- my tables -------------------------------------------------------------------------------------


@login_required
def my_tables(request):
    """The tables the user records: his own in the tours under way; a chief referee or an
    organiser also every table of his tournaments, the finished tours too."""
    user = request.user
    refereed = (permissions.refereed_tables(user).exclude(tour__status=Tour.Status.DRAFT)
              .select_related("tour__tournament", "partition__live", "referee", "pair_a__first", "pair_a__second",
                              "pair_b__first", "pair_b__second", "seat1", "seat2", "seat3", "seat4")
              .order_by("-tour__tournament__starts_on", "tour__tournament__name", "-tour__number", "number"))
    chief = set(permissions.refereeing_all(user).values_list("pk", flat=True))
    tables = [t for t in refereed if t.tour.status != Tour.Status.FINISHED or t.tour.tournament_id in chief]
    # Players with many wrong PINs in the last hour: their tables are flagged (tournaments.pins).
    now = clock.now()
    alerted = pins.alerts({player.pk for table in tables for player in table.players}, now)
    tours: dict[int, dict[str, Any]] = {}
    for table in tables:
        tour = table.tour
        group = tours.setdefault(tour.pk, {"tour": tour, "tournament": tour.tournament, "tables": [],
                                           "finished": tour.status == Tour.Status.FINISHED})
        partition = pipeline.caught_up(table.partition)  # a no-show whose deadline passed is on the list
        group["tables"].append({"table": table, "partition": partition, "mine": table.referee_id == user.pk,
                                "status_label": labels.STATUSES.get(partition.status, ""),
                                "no_show": _no_show_clock(table, partition, now),
                                "pin_alert": any(player.pk in alerted for player in table.players)})
    groups = list(tours.values())
    return render(request, "scoring/my_tables.html", {
        "active": [g for g in groups if not g["finished"]],
        "finished": [g for g in groups if g["finished"]],
        # The page counts a pending no-show down by reloading itself (it has no form to lose).
        "no_show_pending": any(item["no_show"] for group in groups for item in group["tables"]),
    })


def _no_show_clock(table: Table, partition: Partition, now: datetime.datetime) -> dict[str, Any] | None:
    """The no-show deadline still pending at a table, for "My tables" (RULES 5): a live table's
    (its clock records the no-show; stopped while the table is paused), or at a table on the score
    sheet, where nothing is recorded yet, the tour's start plus ``no_show_minutes``, which only
    warns: the referee records a no-show himself. ``recorded``: whether the clock records it."""
    if partition.is_finished:
        return None
    live = getattr(partition, "live", None)
    if live is not None:
        if live.no_show_deadline is None:
            return None
        countdown = (clock.stopped(live.no_show_deadline, live.paused_at) if live.paused_at is not None
                     else clock.countdown(live.no_show_deadline, now))
        return {"at": live.no_show_deadline, "countdown": countdown, "recorded": True}
    deadline = sheet_no_show_deadline(partition)
    if deadline is None or not sheet_missing(partition, len(table.players)):
        return None
    return {"at": deadline, "countdown": clock.countdown(deadline, now), "recorded": False}


def sheet_no_show_deadline(partition: Partition) -> datetime.datetime | None:
    """At a score-sheet table of a started tour where nothing but check-ins is recorded yet, the
    tour's start plus ``no_show_minutes`` (RULES 5); it only warns."""
    tour = partition.table.tour
    if tour.started_at is None or not partition.before_first_deal:
        return None
    return tour.started_at + datetime.timedelta(minutes=tour.tournament.rules.no_show_minutes)


def sheet_missing(partition: Partition, seats: int) -> list[int]:
    """The seats (of ``seats``) of a score-sheet table not checked in yet."""
    return [seat for seat in range(1, seats + 1) if seat not in partition.present]


def _check_in(partition: Partition, seats: list[Seat]) -> dict[str, Any] | None:
    """The check-in row of a score sheet, until its first deal (a live table checks in on its
    tablet): each seat, ticked or not (:func:`sheet_check_in`)."""
    if getattr(partition, "live", None) is not None or not partition.before_first_deal:
        return None
    return {"seats": seats, "present": set(partition.present)}


# -- the sheet -------------------------------------------------------------------------------------


def _forms(bound: Any = None) -> dict[str, Any]:
    """A form of each action of the sheet: fresh ones, and the one just refused with its data."""
    forms = {action: form() for action, form in SHEET_FORMS.items()}
    if bound is not None:
        forms[bound.action] = bound
    return forms


def _bound(request, forms: Mapping[str, type[F]]) -> F | None:
    """The form a sheet's POST names by its ``action``, bound to the posted data (None on a GET)."""
    if request.method != "POST":
        return None
    form_class = forms.get(request.POST.get("action", ""))
    if form_class is None:
        raise Http404(_("There is no such action."))
    return form_class(request.POST)


@login_required
@require_http_methods(["GET", "POST"])
def sheet(request, slug: str, number: int, table: int):
    """One step of the partition per screen: what the engine says comes next, the form for it,
    the totals and the deals so far; the rarer actions below, folded. A Goat or Sea Goat table
    has its own sheet (:func:`goat_sheet`), and so has a points game's (:func:`points_sheet`)."""
    partition = _partition(request, slug, number, table, "every")
    return PAGES.of(partition.table.tour.tournament.kind).sheet(request, partition)


def sports_sheet(request, partition: Partition):
    """A sports partition's score sheet (:func:`sheet`)."""
    bound = _bound(request, SHEET_FORMS)
    confirm_no_show = None
    if bound is not None:
        if bound.is_valid() and isinstance(bound, NoShowForm) and not bound.cleaned_data["confirm"]:
            # A no-show ends the partition: nothing is recorded before the referee confirms it.
            confirm_no_show = _no_show_verdict(partition, bound.cleaned_data)
        elif bound.is_valid():
            written = _submit(request, bound, _sheet_write(request, partition, bound),
                              done=lambda p: _recorded(p, _action(bound)), back=_sheet_url(partition))
            if written is not None:
                return written
            partition.refresh_from_db()
    game = storage.engine_partition(partition)
    tournament = partition.table.tour.tournament
    can_referee_all = permissions.can_referee_all(request.user, tournament)
    return render(request, "scoring/sheet.html", {
        **protocol_context(partition, game),
        "forms": _forms(bound),
        "refused": bound is not None and bool(bound.errors),
        # Annulling a warning or a penalty is the chief referee's (scoring.recording.commands.CHIEF_ONLY).
        "can_annul": can_referee_all and not partition.is_finished,
        "can_referee_all": can_referee_all,
        "can_annul_no_show": can_referee_all and partition.reason == engine.Reason.NO_SHOW,
        "confirm_no_show": confirm_no_show,
        "version": partition.version,
        "check_in": _check_in(partition, seats_of(partition.table)),
    })


@login_required
@require_POST
def sheet_check_in(request, slug: str, number: int, table: int):
    """The referee ticks a player present at a score-sheet table (``seat``), or unticks one ticked
    by mistake (``untick``) (:func:`scoring.live.play.check_in`)."""
    partition = _partition(request, slug, number, table, "every")
    present = "untick" not in request.POST
    seat = request.POST.get("seat" if present else "untick", "")
    try:
        play.check_in(request.user, partition.pk, int(seat) if seat.isdigit() else 0, present=present,
                      address=_address(request))
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    return redirect(_sheet_url(partition))


def _action(form: StampedForm) -> str:
    """The action a valid form of the sheet records."""
    return form.recording[0] if isinstance(form, ActionForm) else form.action


def _sheet_write(request, partition: Partition, form: StampedForm) -> Callable[[], Partition]:
    """The service call of a valid form of the sheet."""
    stamp = {"version": form.cleaned_data["version"], "idempotency_key": form.cleaned_data["key"],
             "address": _address(request)}
    if isinstance(form, AnnulNoShowForm):
        return lambda: commands.annul_no_show(request.user, partition.pk, reason=form.cleaned_data["reason"], **stamp)
    assert isinstance(form, ActionForm)
    action, data = form.recording
    return lambda: commands.record(request.user, partition.pk, action, data, **stamp)


def _no_show_verdict(partition: Partition, data: Mapping[str, Any]) -> dict[str, Any]:
    """What a no-show would record, for the referee to confirm: who did not appear, the score
    the partition ends with (RULES 5: ``no_show_points`` to the present pair), who wins; the
    version and the key the first post carried, so that the confirmation is recorded once."""
    table, absent = partition.table, data["absent"]
    award = table.tour.tournament.rules.no_show_award
    pairs = {"A": table.pair_a, "B": table.pair_b}
    return {"absent": absent, "pair": pairs.get(absent), "winner": pairs.get(engine.other_pair(engine.Pair(absent)))
            if absent in pairs else None, "points": {"A": (0, award), "B": (award, 0)}.get(absent, (0, 0)),
            "version": data["version"], "key": data["key"]}


def goat_sheet(request, partition: Partition):
    """The sheet of a Goat or Sea Goat table: the games of the sitting with their deals (charges
    or credits and the scores after each) and penalties, read from the engine; the form of the
    next deal (:func:`scoring.recording.commands.record_goat_deal`); folded below, a penalty and the table's
    time running out (:func:`scoring.recording.commands.record_goat`); the chief referee's links to correct
    a deal and his annulment of a penalty (:func:`scoring.recording.commands.annul_goat_penalty`)."""
    bound = _bound(request, GOAT_SHEET_FORMS)
    if bound is not None:
        if bound.is_valid():
            written = _submit(request, bound, _goat_write(request, partition, bound),
                              done=lambda p: _goat_recorded(p, bound), back=_sheet_url(partition))
            if written is not None:
                return written
            partition.refresh_from_db()
    sitting = storage.engine_sitting(partition)
    tournament = partition.table.tour.tournament
    can_referee_all = permissions.can_referee_all(request.user, tournament)
    forms = {action: form() for action, form in GOAT_SHEET_FORMS.items()}
    if bound is not None:
        forms[bound.action] = bound
    return render(request, "scoring/goat_sheet.html", {
        **goat_context(partition, sitting), "title_suffix": _("Score sheet"), "version": partition.version,
        "forms": forms, "form": forms["goat_deal"], "refused": bound is not None and bool(bound.errors),
        "can_referee_all": can_referee_all, "can_annul": can_referee_all,
        "results": partition.seat_results.select_related("player") if partition.is_finished else (),
        "check_in": _check_in(partition, sitting_seats(partition.table, sitting.regulations.teams)),
    })


def _goat_write(request, partition: Partition, form) -> Callable[[], Partition]:
    """The service call of a valid form of a Goat table's sheet."""
    user, data = request.user, form.cleaned_data
    stamp = {"version": data["version"], "idempotency_key": data["key"], "address": _address(request)}
    if isinstance(form, GoatDealForm):
        return lambda: commands.record_goat_deal(user, partition.pk, form.deal, **stamp)
    if isinstance(form, GoatAnnulForm):
        return lambda: commands.annul_goat_penalty(user, partition.pk, data["game"], data["penalty"],
                                                   reason=data["reason"], **stamp)
    if isinstance(form, GoatViolationAnnulForm):
        return lambda: commands.annul_goat_violation(user, partition.pk, data["game"], data["violation"],
                                                     reason=data["reason"], **stamp)
    return lambda: commands.record_goat(user, partition.pk, *form.recording, **stamp)


def _goat_recorded(partition: Partition, form) -> str:
    """A short confirmation of what was just recorded at a Goat table, read back from the engine."""
    if form.action == "goat_deal":
        return _("Deal recorded.")
    if form.action == "goat_annul":
        return _("The penalty is annulled: version %(version)s.") % {"version": partition.version}
    if form.action == "goat_annul_violation":
        return _("The violation is annulled: version %(version)s.") % {"version": partition.version}
    if form.action in ("goat_penalty", "goat_violation"):
        seat = form.cleaned_data["seat"]
        what = "penalty"
        if form.action == "goat_violation":
            what = [v for g in storage.engine_sitting(partition).games for v in g.violations][-1].consequence
        return _("Seat %(seat)s, %(name)s: %(what)s.") % {
            "seat": seat, "name": partition.table.players[seat - 1], "what": labels.CONSEQUENCES[what]}
    return _("Recorded: %(action)s.") % {"action": labels.ACTIONS.get(form.action, form.action)}


def goat_context(partition: Partition, sitting: engine.GoatSitting) -> dict[str, Any]:
    """What the sheet of a Goat table (or an old version of it) shows, all of it read from
    ``sitting``: each game begun, its deals, penalties, the clock and the result."""
    table = partition.table
    players = table.players
    games = []
    for k, game in enumerate(sitting.games, 1):
        decision = game.decision
        games.append({
            "number": k, "game": game, "first": not game.deals and game.first_leader is None,
            "begun": bool(game.events),
            "reason_label": labels.GAME_REASONS.get(decision.reason, decision.reason) if decision else "",
            "penalties": _goat_penalties(game, players),
            "violations": [{"number": n, "violation": v, "player": players[v.seat - 1],
                            "code_label": labels.VIOLATIONS_SHORT.get(v.code, v.code),
                            "consequence_label": labels.CONSEQUENCES.get(v.consequence, v.consequence)}
                           for n, v in enumerate(game.violations, 1)],
        })
    return {
        "partition": partition, "table": table, "tour": table.tour, "tournament": table.tour.tournament,
        "seats": list(enumerate(players, 1)), "units": [_unit_name(u, players) for u in sitting.game.units],
        "games": games, "sitting": sitting, "sea_goat": not engine.kind_of(sitting.regulations).marks_goats,
    }


def _goat_penalties(game: engine.GoatGame, players: tuple[Player, ...]) -> list[dict[str, Any]]:
    """A game's penalties as the sheet lists them, those written numbered as
    :func:`scoring.recording.commands.annul_goat_penalty` counts them (one of a violation is annulled with
    its violation: no number)."""
    lines, written = [], 0
    for p in game.penalties:
        written += p.violation is None
        lines.append({"number": written if p.violation is None else None, "penalty": p,
                      "player": players[p.seat - 1], "code_label": labels.VIOLATIONS_SHORT.get(p.code, p.code)})
    return lines


def points_sheet(request, partition: Partition):
    """The sheet of a table of a points game (RULES 9.3): the sitting's games with each deal's
    points and the scores after it (read from the engine), and one form for the next deal, the
    points of each unit and their total (:func:`scoring.recording.commands.record_points_deal`)."""
    sitting = storage.sitting_at(partition)
    table = partition.table
    players = table.players
    units = {unit: _unit_name(unit, players) for unit in sitting.game.units}
    form = PointsDealForm(units, request.POST) if request.method == "POST" else PointsDealForm(units)
    if request.method == "POST" and form.is_valid():
        written = _submit(request, form, lambda: commands.record_points_deal(
            request.user, partition.pk, form.deal, version=form.cleaned_data["version"],
            idempotency_key=form.cleaned_data["key"], address=_address(request)),
            done=lambda p: _("Deal recorded."), back=_sheet_url(partition))
        if written is not None:
            return written
    return render(request, "scoring/points_sheet.html", {
        "partition": partition, "table": table, "tour": table.tour, "tournament": table.tour.tournament,
        "title_suffix": _("Score sheet"), "version": partition.version, "form": form,
        "refused": bool(form.errors), "units": list(units.values()), "sitting": sitting,
        # The games begun (the first one always), each deal the points and the score of each unit.
        "games": [{"number": k, "over": g.is_over, "deals": [(d.n, list(zip(d.points, d.scores))) for d in g.deals],
                   "winner": units[g.decision.winner] if g.decision and g.decision.winner else None}
                  for k, g in enumerate(sitting.games, 1) if k == 1 or g.events],
        "results": partition.seat_results.select_related("player") if partition.is_finished else (),
        "check_in": _check_in(partition, sitting_seats(table, sitting.regulations.teams)),
    })


def _unit_name(unit: str, players: tuple[Player, ...]) -> str:
    """A scored unit as the sheet heads its column: the seat and its player, or a pair's seats."""
    if unit in ("A", "B"):
        return _("Pair %(pair)s") % {"pair": unit}
    return f"{unit}. {players[int(unit) - 1]}"


def _recorded(partition: Partition, action: str) -> str:
    """A short confirmation of what was just recorded, read back from the engine."""
    game = storage.engine_partition(partition)
    seats = seats_of(partition.table)
    if action == "deal" and game.deals:
        deal = game.deals[-1]
        if deal.winner:
            text = _("Deal %(n)s recorded: pair %(pair)s scores %(points)s.") % {
                "n": deal.n, "pair": deal.winner, "points": deal.points}
        else:
            text = _("Deal %(n)s recorded: nobody scores.") % {"n": deal.n}
    elif action in ("violation", "penalty", "restart") and (game.violations or game.penalties):
        if action == "violation":
            v = game.violations[-1]
            what, seat = labels.CONSEQUENCES.get(v.consequence, v.consequence), v.seat
        else:
            p = (game.penalties + game.pending_penalties)[-1]
            what, seat = labels.CONSEQUENCES["penalty"], p.seat
        text = _("Seat %(seat)s, %(name)s: %(what)s.") % {"seat": seat, "name": seats[seat - 1].player, "what": what}
    else:
        text = _("Recorded: %(action)s.") % {"action": labels.ACTIONS.get(action, action)}
    return text


# -- protocol import and export --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def sheet_import(request, slug: str, number: int, table: int):
    """A partition from a protocol document (file or pasted): into an empty sheet by its referee;
    over a recorded one by a chief referee, with a reason. A Goat table takes its own protocol
    file or one game (:func:`scoring.recording.commands.import_sitting`)."""
    partition = _partition(request, slug, number, table)
    history = _history(partition)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        service = history.import_protocol
        written = _submit(request, form, lambda: service(
            request.user, partition.pk, form.cleaned_data["document"], reason=form.cleaned_data["reason"],
            version=form.cleaned_data["version"], idempotency_key=form.cleaned_data["key"], address=_address(request)),
            done=lambda p: _("The protocol is imported."), back=reverse("sheet-import", args=[slug, number, table]))
        if written is not None:
            return written
        partition.refresh_from_db()
    return render(request, "scoring/import.html", {
        "partition": partition, "table": partition.table, "tour": partition.table.tour,
        "tournament": partition.table.tour.tournament, "form": form, "version": partition.version, "goat": history.tiles,
        "can_referee_all": permissions.can_referee_all(request.user, partition.table.tour.tournament),
    })


@login_required
def sheet_export(request, slug: str, number: int, table: int):
    """The partition (``?version=N``: an earlier version) as a domino-protocol/1 JSON file (a Goat
    or points table: its games, :func:`scoring.recording.queries.export_sitting`)."""
    partition = _partition(request, slug, number, table, "every")
    version = _version(request.GET.get("version"))
    try:
        document = queries.export_protocol(partition, version, viewer=request.user, address=_address(request))
    except ValidationError:
        raise Http404(_("There is no such version.")) from None
    response = HttpResponse(json.dumps(document, ensure_ascii=False, indent=2) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{queries.export_file_name(partition, version)}"'
    return response


def _version(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise Http404(_("There is no such version.")) from None


# -- history and corrections -----------------------------------------------------------------------


@login_required
def sheet_history(request, slug: str, number: int, table: int):
    """Every version of the partition: who, when, from where, what, the result before and after.
    At a Goat table the deals and the status (no pair totals); a version a live table kept no
    state for is listed without its protocol."""
    partition = _partition(request, slug, number, table)
    tiles = _history(partition).tiles
    changes = list(partition.changes.select_related("user").order_by("-version"))
    rows = [{"change": c, "action_label": labels.ACTIONS.get(c.action, c.action),
             "before": _summary(c.before, tiles), "after": _summary(c.after, tiles),
             # An old state of a Goat table is read from its change only (storage.sitting_at).
             "readable": not tiles or c.state is not None or c.version == partition.version} for c in changes]
    return render(request, "scoring/history.html", {
        "partition": partition, "table": partition.table, "tour": partition.table.tour,
        "tournament": partition.table.tour.tournament, "rows": rows,
    })


def _summary(summary: dict[str, Any], goat: bool = False) -> dict[str, Any]:
    """A stored result summary (models.result_summary) with its labels; at a Goat table, why
    its last game ended."""
    points = summary.get("points") or [0, 0]
    reason = summary.get("reason") or ""
    return {"points": points, "deals": summary.get("deals", 0), "winner": summary.get("winner") or "", "goat": goat,
            "status": labels.STATUSES.get(summary.get("status", ""), summary.get("status", "")),
            "reason": (labels.GAME_REASONS if goat else labels.REASONS).get(reason, reason)}


@login_required
def sheet_version(request, slug: str, number: int, table: int, version: int):
    """The protocol of one version of the partition, read only (a Goat table: its sitting)."""
    partition = _partition(request, slug, number, table)
    history = _history(partition)
    try:
        context = history.version(partition, version)
    except ValidationError:
        raise Http404(_("There is no such version.")) from None
    change = partition.changes.select_related("user").filter(version=version).first()
    return render(request, history.version_template, {
        **context, "shown_version": version, "change": change,
        "change_action": labels.ACTIONS.get(change.action, change.action) if change else "",
    })


@login_required
@require_http_methods(["GET", "POST"])
def sheet_correct(request, slug: str, number: int, table: int, deal: int):
    """The chief referee corrects one deal (its end, the seat, the pips), giving a reason; the
    engine replays every later deal. A Goat table: :func:`sheet_goat_correct`."""
    partition = _partition(request, slug, number, table, "partition")
    if not permissions.can_referee_all(request.user, partition.table.tour.tournament):
        raise PermissionDenied(_("Only a chief referee or an organiser corrects a recorded deal."))
    game = storage.engine_partition(partition)
    context = protocol_context(partition, game)
    line = next((d for d in context["deals"] if d["n"] == deal), None)
    if line is None:
        raise Http404(_("There is no deal %(number)s.") % {"number": deal})
    initial = {"end": line["end"] + (f"-{line['seat'].number}" if line["seat"] else ""),
               "pips_a": line["pips"][0], "pips_b": line["pips"][1]}
    form = CorrectionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        written = _submit(request, form, lambda: commands.correct_deal(
            request.user, partition.pk, deal, form.recording[1], reason=form.cleaned_data["reason"],
            version=form.cleaned_data["version"], idempotency_key=form.cleaned_data["key"], address=_address(request)),
            done=lambda p: _("Deal %(n)s is corrected: version %(version)s.") % {"n": deal, "version": p.version},
            back=reverse("sheet-correct", args=[slug, number, table, deal]))
        if written is not None:
            return written
    return render(request, "scoring/correct.html", {
        **context, "deal": line, "form": form, "version": partition.version,
    })


@login_required
@require_http_methods(["GET", "POST"])
def sheet_goat_correct(request, slug: str, number: int, table: int, game: int, deal: int):
    """The chief referee corrects deal ``deal`` of game ``game`` of a Goat or Sea Goat table (its
    end, the seat, the hand values), giving a reason; the sitting is replayed from its events
    (:func:`scoring.recording.commands.correct_goat_deal`)."""
    partition = _partition(request, slug, number, table, "tiles")
    if not permissions.can_referee_all(request.user, partition.table.tour.tournament):
        raise PermissionDenied(_("Only a chief referee or an organiser corrects a recorded deal."))
    sitting = storage.engine_sitting(partition)
    context = goat_context(partition, sitting)
    entry = next((g for g in context["games"] if g["number"] == game and g["begun"]), None)
    line = entry["game"].deals[deal - 1] if entry is not None and 0 < deal <= len(entry["game"].deals) else None
    if entry is None or line is None:
        raise Http404(_("There is no deal %(number)s.") % {"number": deal})
    initial = {"end": str(line.end), "seat": line.seat, "zero_zero": line.zero_zero,
               **{f"value_{n}": value for n, value in enumerate(line.values, 1)}}
    form = GoatCorrectionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        written = _submit(request, form, lambda: commands.correct_goat_deal(
            request.user, partition.pk, game, deal, form.deal, reason=form.cleaned_data["reason"],
            version=form.cleaned_data["version"], idempotency_key=form.cleaned_data["key"], address=_address(request)),
            done=lambda p: _("Deal %(n)s of game %(game)s is corrected: version %(version)s.") % {
                "n": deal, "game": game, "version": p.version},
            back=reverse("sheet-goat-correct", args=[slug, number, table, game, deal]))
        if written is not None:
            return written
    return render(request, "scoring/goat_correct.html", {
        **context, "entry": entry, "deal": line, "form": form, "version": partition.version,
        "end_label": labels.GOAT_ENDS.get(line.end, line.end),
    })


@dataclass(frozen=True)
class SheetHistory:
    """The pages of a table's record beyond its sheet: the import's service, an earlier version's
    context and template, and whether the table is a sitting of tile games (the history's labels
    and the import page's words)."""

    import_protocol: Callable[..., Partition]
    version: Callable[[Partition, int], dict[str, Any]]
    version_template: str
    tiles: bool


@dataclass(frozen=True)
class SheetPages:
    """The score sheet's pages of a family of games: its sheet, and its record's other pages (a
    points game's table has none yet: only its sheet and its export)."""

    sheet: Callable[[HttpRequest, Partition], HttpResponse]
    history: SheetHistory | None


#: The pages of each family.
PAGES: engine.Parts[SheetPages] = engine.Parts({
    engine.Family.PARTITION: SheetPages(sports_sheet, SheetHistory(
        commands.import_protocol,
        lambda partition, version: protocol_context(partition, queries.partition_at(partition, version)[0], version),
        "scoring/version.html", False)),
    engine.Family.TILES: SheetPages(goat_sheet, SheetHistory(
        commands.import_sitting,
        lambda partition, version: goat_context(partition, storage.engine_sitting(partition, version)),
        "scoring/goat_version.html", True)),
    engine.Family.POINTS: SheetPages(points_sheet, None),
})

_ALL = {family: True for family in engine.Family}
#: The families a page of a table serves beyond those with a record's pages (:func:`_partition`).
SERVES: dict[str, engine.Parts[bool]] = {
    "every": engine.Parts(_ALL),
    "partition": engine.Parts({**_ALL, engine.Family.TILES: False, engine.Family.POINTS: False}),
    "tiles": engine.Parts({**_ALL, engine.Family.PARTITION: False, engine.Family.POINTS: False}),
}


def _history(partition: Partition) -> SheetHistory:
    """The record's pages of a table whose family has them (:func:`_partition` checked it)."""
    history = PAGES.of(partition.table.tour.tournament.kind).history
    assert history is not None
    return history
