"""Public pages: the home page, tournaments, the draw of each tour and players.

Anyone sees what is published; a draft tournament or tour is seen by its staff only
(:mod:`tournaments.permissions`), and is a 404 for everyone else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from scoring.protocols.crosstable import crosstable_pdf as crosstable_document

from . import calendar, permissions
from . import rating, standings
from .forms import describe_regulations
from .models import Entry, Pair, Player, Rating, RatingFamily, Tour, Tournament
from .players import history as players

T = TypeVar("T")


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
    if tour.tournament.kind.sittings:
        tables = tables.prefetch_related("partition__seat_results")
    return tables


def draw_context(tour: Tour) -> dict:
    return {
        "tour": tour,
        "tables": draw_tables(tour),
        "byes": tour.byes.select_related("pair__first", "pair__second"),
        "sit_outs": tour.sit_outs.select_related("player"),
        # A points game: each player's games won and points, whatever the table's shape.
        "points_game": tour.tournament.kind.by_hand,
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


#: Players found on a page of /players/.
PLAYERS_PER_PAGE = 25


def player_list(request):
    """Find a player by his name, in Cyrillic or a Latin spelling of it, or his federation id."""
    query = request.GET.get("q", "").strip()
    page = Paginator(players.find(request.user, query), PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "tournaments/players.html", {"query": query, "page": page})


def player_detail(request, pk: int):
    """A player across tournaments: each tour he played, with its result, and his protocols."""
    player = get_object_or_404(permissions.visible_players(request.user), pk=pk)
    return render(request, "tournaments/player.html", {
        "player": player, "histories": players.history(request.user, player),
        "ratings": rating.rating_history(player)})


def tournament_player(request, slug: str, pk: int):
    """A player in one tournament: his next table, and each tour's result so far."""
    tournament = _visible_tournament(request, slug)
    player = get_object_or_404(Player, pk=pk, entries__tournament=tournament)
    history = players.history(request.user, player, tournament)[0]
    return render(request, "tournaments/tournament_player.html", {
        "tournament": tournament, "player": player, "history": history})


# -- standings -------------------------------------------------------------------------------------


def _standings(request, slug: str, kind: str | None) -> standings.StandingsTable:
    return _counted(request, slug, standings.standings_table, kind=kind)


def _crosstable(request, slug: str, kind: str | None) -> standings.Crosstable:
    return _counted(request, slug, standings.crosstable, kind=kind)


def _counted(request, slug: str, build: Callable[..., T], **options: Any) -> T:
    """The standings, the crosstable or the team standings (``build``, with ``options``) of a
    visible tournament after the tour ``?after_tour=`` names; what cannot be asked for (a tour,
    a kind, team standings the tournament has not) is a 404."""
    tournament = _visible_tournament(request, slug)
    after_tour = request.GET.get("after_tour") or None
    try:
        return build(tournament, after_tour=None if after_tour is None else int(after_tour), **options)
    except (ValueError, ValidationError):
        raise Http404(_("There is no such tour.")) from None


def _url(name: str, kind: str | None, slug: str) -> str:
    """The URL ``name`` of the standings or the crosstable, of the players if ``kind`` says so."""
    base, _sep, rest = name.partition("-")
    return reverse(f"{base}-players{'-' + rest if rest else ''}" if kind == "players" else name, args=[slug])


def _file(content: bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


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
        "csv_url": _url("standings-csv", kind, slug), "xlsx_url": _url("standings-xlsx", kind, slug),
        "crosstable_url": _url("crosstable", kind, slug),
    })


def standings_csv(request, slug: str, kind: str | None = None):
    """The same standings as a CSV file (UTF-8 with BOM, ``;``-separated)."""
    table = _standings(request, slug, kind)
    return _file(table.csv(), "text/csv; charset=utf-8", table.file_name)


def standings_xlsx(request, slug: str, kind: str | None = None):
    """The same standings as an Excel workbook."""
    table = _standings(request, slug, kind)
    return _file(standings.standings_xlsx(table), XLSX, table.xlsx_file_name)


def crosstable_page(request, slug: str, kind: str | None = None):
    """The crosstable: every entrant by rank, each tour's opponents, result and score (a round
    robin of pairs: the square table), then the standings' columns."""
    if kind == "players" and _visible_tournament(request, slug).is_individual:
        return redirect("crosstable", slug=slug)
    ct = _crosstable(request, slug, kind)
    return render(request, "tournaments/crosstable.html", {
        "tournament": ct.tournament, "ct": ct, "query": f"?after_tour={ct.after_tour}" if ct.after_tour else "",
        "standings_url": _url("standings", kind, slug), "xlsx_url": _url("crosstable-xlsx", kind, slug),
        "pdf_url": _url("crosstable-pdf", kind, slug),
    })


def crosstable_xlsx(request, slug: str, kind: str | None = None):
    ct = _crosstable(request, slug, kind)
    return _file(standings.crosstable_xlsx(ct), XLSX, ct.file_name("xlsx"))


def crosstable_pdf(request, slug: str, kind: str | None = None):
    """The crosstable on A4 landscape, in Russian like every PDF of the protocols."""
    ct = _crosstable(request, slug, kind)
    return _file(crosstable_document(ct), "application/pdf", ct.file_name("pdf"))


def _team_standings(request, slug: str) -> standings.TeamStandings:
    return _counted(request, slug, standings.team_standings)


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
    return _file(table.csv(), "text/csv; charset=utf-8", table.file_name)


def tours_ics(request, slug: str):
    """The tournament's published tours as an iCalendar feed (:mod:`tournaments.calendar`)."""
    tournament = _visible_tournament(request, slug)
    base_url = settings.PUBLIC_URL or request.build_absolute_uri("/")
    response = HttpResponse(calendar.tours_calendar(tournament, base_url=base_url),
                            content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-tours.ics"'
    return response


# -- ratings ---------------------------------------------------------------------------------------

RATINGS_PER_PAGE = 50


def ratings_page(request, family: str = RatingFamily.SPORTS):
    """The rating list of a game family (README, "Ratings"), best first, a page at a time. Every
    player on it played in a finished tour, so in a published tournament: no one hidden."""
    if family not in RatingFamily.values:
        raise Http404
    ratings = (Rating.objects.filter(family=family).select_related("player")
               .order_by("-value", "player__last_name", "player__first_name", "player_id"))
    page = Paginator(ratings, RATINGS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "tournaments/ratings.html", {
        "family": family, "families": RatingFamily.choices, "page": page,
        "lines": [(page.start_index() + i, r) for i, r in enumerate(page.object_list)],
    })
