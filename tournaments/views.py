"""Public pages: the home page, tournaments, the draw of each tour and players.

Anyone sees what is published; a draft tournament or tour is seen by its staff only
(:mod:`tournaments.permissions`), and is a 404 for everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from scoring import engine

from . import calendar, permissions
from . import standings
from .forms import describe_regulations
from .models import Entry, Pair, Player, Table, Tour, Tournament


def home(request):
    return render(request, "home.html")


def tournament_list(request):
    visible = permissions.visible_tournaments(request.user)
    groups = [
        ("running", pgettext_lazy("tournaments", "Running"), visible.filter(status=Tournament.Status.RUNNING)),
        ("upcoming", pgettext_lazy("tournaments", "Upcoming"),
         visible.filter(status__in=[Tournament.Status.REGISTRATION, Tournament.Status.DRAFT]).order_by("starts_on")),
        ("finished", pgettext_lazy("tournaments", "Finished"), visible.filter(status=Tournament.Status.FINISHED)),
    ]
    return render(request, "tournaments/list.html", {
        "groups": [(key, title, list(tournaments)) for key, title, tournaments in groups],
        "can_create": permissions.can_create_tournament(request.user),
    })


def _visible_tournament(request, slug: str) -> Tournament:
    return get_object_or_404(permissions.visible_tournaments(request.user), slug=slug)


def tournament_detail(request, slug: str):
    tournament = _visible_tournament(request, slug)
    pairs = entries = None
    if tournament.is_individual:
        entries = Entry.objects.filter(tournament=tournament).select_related("player")
    else:
        pairs = Pair.objects.filter(tournament=tournament, tour__isnull=True).select_related("first", "second")
    return render(request, "tournaments/detail.html", {
        "tournament": tournament,
        "regulations": describe_regulations(tournament.rules),
        "pairs": pairs,
        "entries": entries,
        "tours": permissions.visible_tours(request.user, tournament),
        "can_manage": permissions.can_manage(request.user, tournament),
    })


def draw_tables(tour: Tour):
    """The tables of a tour with everything the draw shows, in two queries (Goat, Sea Goat and
    points: three, with each player's result)."""
    tables = tour.tables.select_related("pair_a", "pair_b", "seat1", "seat2", "seat3", "seat4", "referee",
                                        "partition")
    if tour.tournament.plays_sittings:
        tables = tables.prefetch_related("partition__seat_results")
    return tables


def draw_context(tour: Tour) -> dict:
    return {
        "tour": tour,
        "tables": draw_tables(tour),
        "byes": tour.byes.select_related("pair__first", "pair__second"),
        "sit_outs": tour.sit_outs.select_related("player"),
        # A points game: each player's games won and points, whatever the table's shape.
        "points_game": tour.tournament.rules.scored_by_hand,
    }


def tour_detail(request, slug: str, number: int):
    tournament = _visible_tournament(request, slug)
    tour = get_object_or_404(Tour, tournament=tournament, number=number)
    if not permissions.can_see_tour(request.user, tour):
        raise Http404
    tours = list(permissions.visible_tours(request.user, tournament))
    return render(request, "tournaments/tour.html", {
        **draw_context(tour),
        "tournament": tournament,
        "tours": tours,
        "can_manage": permissions.can_manage(request.user, tournament),
        "can_referee_all": permissions.can_referee_all(request.user, tournament),
    })


@dataclass
class Seating:
    """One table a player sat at: his seat, his partner and the opponents (at a Goat table each
    for himself: no partner, every other player)."""

    table: Table
    seat: int
    partner: Player | None
    opponents: tuple[Player, ...]


def _seating(table: Table, player: Player) -> Seating:
    if table.pair_a_id is None:
        players = table.players
        seat = next(n for n, p in enumerate(players, 1) if p.pk == player.pk)
        return Seating(table, seat, None, tuple(p for p in players if p.pk != player.pk))
    seats = table.seats
    seat = next(n for n, p in enumerate(seats, 1) if p.pk == player.pk)
    opponents = engine.seats_of(engine.rules.other_pair(engine.pair_of(seat)))
    return Seating(table, seat, seats[engine.partner_of(seat) - 1], (seats[opponents[0] - 1], seats[opponents[1] - 1]))


def player_detail(request, pk: int):
    player = get_object_or_404(permissions.visible_players(request.user), pk=pk)
    tournaments = permissions.visible_tournaments(request.user)
    entries = Entry.objects.filter(player=player, tournament__in=tournaments).select_related("tournament")
    tables = (Table.objects.filter(Q(seat1=player) | Q(seat2=player) | Q(seat3=player) | Q(seat4=player),
                                   tour__tournament__in=tournaments)
              .select_related("tour__tournament", "seat1", "seat2", "seat3", "seat4")
              .order_by("-tour__tournament__starts_on", "tour__tournament__name", "tour__number"))
    seen: dict[int, bool] = {}
    seatings = []
    for table in tables:
        if table.tour_id not in seen:
            seen[table.tour_id] = permissions.can_see_tour(request.user, table.tour)
        if seen[table.tour_id]:
            seatings.append(_seating(table, player))
    return render(request, "tournaments/player.html", {"player": player, "entries": entries, "seatings": seatings})


# -- standings -------------------------------------------------------------------------------------


def _standings(request, slug: str, kind: str | None) -> standings.StandingsTable:
    tournament = _visible_tournament(request, slug)
    after_tour = request.GET.get("after_tour") or None
    try:
        return standings.standings_table(tournament, kind=kind, after_tour=None if after_tour is None else int(after_tour))
    except (ValueError, ValidationError):
        raise Http404(_("There is no such tour.")) from None


def standings_page(request, slug: str, kind: str | None = None):
    """Public standings after any published tour (``?after_tour=N``) or live (every finished
    partition)."""
    if kind == "players" and _visible_tournament(request, slug).is_individual:
        return redirect("standings", slug=slug)
    table = _standings(request, slug, kind)
    columns = table.summary_columns
    return render(request, "tournaments/standings.html", {
        "tournament": table.tournament, "kind": table.kind, "tours": table.tours, "after_tour": table.after_tour,
        "columns": columns, "lines": [(line, table.values(line, columns)) for line in table.lines],
        "query": f"?after_tour={table.after_tour}" if table.after_tour else "",
        "csv_url": reverse("standings-players-csv" if kind == "players" else "standings-csv", args=[slug]),
    })


def standings_csv(request, slug: str, kind: str | None = None):
    """The same standings as a CSV file (UTF-8 with BOM, ``;``-separated)."""
    table = _standings(request, slug, kind)
    return _csv_response(table.csv(), table.file_name)


def _csv_response(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _team_standings(request, slug: str) -> standings.TeamStandings:
    """A tournament without team standings, or a tour not to be asked for, is a 404."""
    tournament = _visible_tournament(request, slug)
    after_tour = request.GET.get("after_tour") or None
    try:
        return standings.team_standings(tournament, after_tour=None if after_tour is None else int(after_tour))
    except (ValueError, ValidationError):
        raise Http404(_("There are no such team standings.")) from None


def team_standings_page(request, slug: str):
    """The clubs ranked by their best entries (:mod:`tournaments.standings.teams`), after a
    published tour or live."""
    table = _team_standings(request, slug)
    return render(request, "tournaments/team_standings.html", {
        "tournament": table.tournament, "table": table, "after_tour": table.after_tour,
        "tours": table.tournament.tours.exclude(status=Tour.Status.DRAFT).order_by("number"),
        "query": f"?after_tour={table.after_tour}" if table.after_tour else "",
    })


def team_standings_csv(request, slug: str):
    table = _team_standings(request, slug)
    return _csv_response(table.csv(), table.file_name)


def tours_ics(request, slug: str):
    """The tournament's published tours as an iCalendar feed (:mod:`tournaments.calendar`)."""
    tournament = _visible_tournament(request, slug)
    base_url = settings.PUBLIC_URL or request.build_absolute_uri("/")
    response = HttpResponse(calendar.tours_calendar(tournament, base_url=base_url),
                            content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-tours.ics"'
    return response
