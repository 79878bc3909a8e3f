"""Who may do what in a tournament (the roles of the scheduling issue).

- organiser: everything in his tournament;
- chief referee: every table of the tournament, corrections;
- referee: only the tables he is assigned to;
- player: his own data; the public: published pages only.

Services call these checks inside their transaction; views and the API only call services.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from .models import Entry, Player, Role, Table, Tour, Tournament


def roles(user, tournament: Tournament) -> set[str]:
    """The kinds of role ``user`` holds in ``tournament``."""
    if not user.is_authenticated:
        return set()
    return set(Role.objects.filter(tournament=tournament, user=user).values_list("kind", flat=True))


def can_create_tournament(user) -> bool:
    return user.is_authenticated and user.has_perm("tournaments.add_tournament")


def can_manage(user, tournament: Tournament) -> bool:
    return user.is_authenticated and (user.is_superuser or Role.Kind.ORGANISER in roles(user, tournament))


def can_referee_all(user, tournament: Tournament) -> bool:
    """Organisers and chief referees act on every table."""
    return can_manage(user, tournament) or Role.Kind.CHIEF_REFEREE in roles(user, tournament)


def can_referee(user, table: Table) -> bool:
    """Record at ``table``: its own referee, a chief referee or an organiser."""
    if not user.is_authenticated:
        return False
    return table.referee_id == user.pk or can_referee_all(user, table.tour.tournament)


def is_staff(user, tournament: Tournament) -> bool:
    """Holds a role in the tournament (organiser, chief referee, referee), or is a superuser."""
    return bool(roles(user, tournament)) or can_manage(user, tournament)


def can_see_tour(user, tour: Tour) -> bool:
    """A draft tour is seen by the tournament's staff only."""
    return tour.is_public or is_staff(user, tour.tournament)


def can_see_tournament(user, tournament: Tournament) -> bool:
    """A draft tournament is seen by its staff only."""
    return tournament.status != Tournament.Status.DRAFT or is_staff(user, tournament)


def visible_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments ``user`` may see, as :func:`can_see_tournament` decides, in one query."""
    tournaments = Tournament.objects.all()
    if user.is_authenticated and user.is_superuser:
        return tournaments
    visible = ~Q(status=Tournament.Status.DRAFT)
    if user.is_authenticated:
        visible |= Q(pk__in=Role.objects.filter(user=user).values("tournament"))
    return tournaments.filter(visible)


def visible_players(user) -> QuerySet[Player]:
    """The players ``user`` may see: those registered in a tournament he may see (a player of a
    draft tournament is seen by its staff only), and his own record, in one query."""
    entered = Entry.objects.filter(player=OuterRef("pk"), tournament__in=visible_tournaments(user))
    visible = Exists(entered)
    if user.is_authenticated:
        visible |= Q(user=user)
    return Player.objects.filter(visible)


def visible_tours(user, tournament: Tournament) -> QuerySet[Tour]:
    """The tours of ``tournament`` that ``user`` may see, as :func:`can_see_tour` decides."""
    tours = tournament.tours.all()
    return tours if is_staff(user, tournament) else tours.exclude(status=Tour.Status.DRAFT)


def require_manage(user, tournament: Tournament) -> None:
    if not can_manage(user, tournament):
        raise PermissionDenied(_("Only an organiser of this tournament may do this."))


def require_staff(user, tournament: Tournament) -> None:
    if not is_staff(user, tournament):
        raise PermissionDenied(_("Only the staff of this tournament may see this."))


def require_create(user) -> None:
    if not can_create_tournament(user):
        raise PermissionDenied(_("You may not create tournaments: ask the federation for organiser rights."))


def refereed_tables(user) -> QuerySet[Table]:
    """The tables ``user`` may record, as :func:`can_referee` decides, in one query: his own, and
    every table of the tournaments he organises or is chief referee of (all, for a superuser)."""
    tables = Table.objects.all()
    if not user.is_authenticated:
        return tables.none()
    if user.is_superuser:
        return tables
    chief = Role.objects.filter(user=user, kind__in=[Role.Kind.ORGANISER, Role.Kind.CHIEF_REFEREE])
    return tables.filter(Q(referee=user) | Q(tour__tournament__in=chief.values("tournament")))
