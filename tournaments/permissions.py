"""Who may do what: every "who may" question of the project is answered here.

- organiser: everything in his tournament;
- chief referee: every table of the tournament, corrections, annulments, forfeits;
- referee: only the tables he is assigned to, and only while he holds a referee (or chief
  referee) role in the tournament;
- player: his own data, through his linked account; the public: published pages only.

A player belongs to no tournament: his name, federation data and PIN are his (see
:func:`can_edit_player` and :func:`can_set_pin`).

Services call these checks inside their transaction; views and the API only call services (and
these functions, to decide what a page shows).
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from .models import Entry, Player, Role, Table, Tour, Tournament

#: Whoever acts or looks: a login, or nobody signed in (``request.user``).
AnyUser: TypeAlias = User | AnonymousUser

def login_of(user: AnyUser) -> User:
    """The login acting, for what records who did it: nobody signed in is refused (a service
    has already refused him by its permission check; this says so to the type checker too)."""
    if not isinstance(user, User):
        raise PermissionDenied(_("Sign in first."))
    return user


#: The roles that may be a table's referee.
REFEREE_KINDS = (Role.Kind.REFEREE, Role.Kind.CHIEF_REFEREE)
#: The roles that act on every table of the tournament.
ALL_TABLES_KINDS = (Role.Kind.ORGANISER, Role.Kind.CHIEF_REFEREE)


def roles(user: AnyUser, tournament: Tournament) -> set[str]:
    """The kinds of role ``user`` holds in ``tournament``."""
    if not user.is_authenticated:
        return set()
    return set(Role.objects.filter(tournament=tournament, user=user).values_list("kind", flat=True))


def can_create_tournament(user: AnyUser) -> bool:
    return user.is_authenticated and user.has_perm("tournaments.add_tournament")


def can_appoint_organisers(user: AnyUser) -> bool:
    """Give logins the right to create tournaments (and make new ones for it): superusers only."""
    return user.is_authenticated and user.is_superuser


def can_manage(user: AnyUser, tournament: Tournament) -> bool:
    return user.is_authenticated and (user.is_superuser or Role.Kind.ORGANISER in roles(user, tournament))


def can_referee_all(user: AnyUser, tournament: Tournament) -> bool:
    """Organisers and chief referees act on every table: they annul, declare forfeits, correct."""
    return can_manage(user, tournament) or Role.Kind.CHIEF_REFEREE in roles(user, tournament)


def can_be_referee(user: AnyUser, tournament: Tournament) -> bool:
    """Holds a role that may referee a table of ``tournament`` (referee or chief referee)."""
    return bool(roles(user, tournament) & set(REFEREE_KINDS))


def referees(tournament: Tournament):
    """The users who may be given a table of ``tournament``, as :func:`can_be_referee` decides."""
    return get_user_model().objects.filter(
        tournament_roles__tournament=tournament, tournament_roles__kind__in=REFEREE_KINDS).distinct()


def can_referee(user: AnyUser, table: Table) -> bool:
    """Record at ``table``: its own referee while he holds a referee or chief referee role in the
    tournament (a referee taken off the staff stops at once), a chief referee or an organiser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    held = roles(user, table.tour.tournament)
    if held & set(ALL_TABLES_KINDS):
        return True
    return table.referee_id == user.pk and bool(held & set(REFEREE_KINDS))


def is_staff(user: AnyUser, tournament: Tournament) -> bool:
    """Holds a role in the tournament (organiser, chief referee, referee), or is a superuser."""
    return bool(roles(user, tournament)) or can_manage(user, tournament)


def can_see_tour(user: AnyUser, tour: Tour) -> bool:
    """A draft tour is seen by the tournament's staff only."""
    return tour.is_public or is_staff(user, tour.tournament)


def can_see_tournament(user: AnyUser, tournament: Tournament) -> bool:
    """A draft tournament is seen by its staff only."""
    return tournament.status != Tournament.Status.DRAFT or is_staff(user, tournament)


def visible_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments ``user`` may see, as :func:`can_see_tournament` decides, in one query."""
    tournaments = Tournament.objects.all()
    if user.is_authenticated and user.is_superuser:
        return tournaments
    visible = ~Q(status=Tournament.Status.DRAFT)
    if user.is_authenticated:
        visible |= Q(pk__in=Role.objects.filter(user=user).values("tournament"))
    return tournaments.filter(visible)


def visible_players(user: AnyUser) -> QuerySet[Player]:
    """The players ``user`` may see: those registered in a tournament he may see (a player of a
    draft tournament is seen by its staff only), and his own record, in one query."""
    entered = Entry.objects.filter(player=OuterRef("pk"), tournament__in=visible_tournaments(user))
    visible: Exists | Q = Exists(entered)
    if user.is_authenticated:
        visible |= Q(user=user)
    return Player.objects.filter(visible)
def staffed_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments ``user`` holds a role in (every one, for a superuser): his /manage/ list."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(pk__in=Role.objects.filter(user=user).values("tournament"))


def visible_tours(user: AnyUser, tournament: Tournament) -> QuerySet[Tour]:
    """The tours of ``tournament`` that ``user`` may see, as :func:`can_see_tour` decides."""
    tours = tournament.tours.all()
    return tours if is_staff(user, tournament) else tours.exclude(status=Tour.Status.DRAFT)


def require_manage(user: AnyUser, tournament: Tournament) -> None:
    if not can_manage(user, tournament):
        raise PermissionDenied(_("Only an organiser of this tournament may do this."))


def require_staff(user: AnyUser, tournament: Tournament) -> None:
    if not is_staff(user, tournament):
        raise PermissionDenied(_("Only the staff of this tournament may see this."))


def require_referee_all(user: AnyUser, tournament: Tournament) -> None:
    """The chief referee's pages of a tournament: its chief referees and organisers."""
    if not can_referee_all(user, tournament):
        raise PermissionDenied(_("Only the chief referee or an organiser of this tournament may see this."))


def require_create(user: AnyUser) -> None:
    if not can_create_tournament(user):
        raise PermissionDenied(_("You may not create tournaments: ask the federation for organiser rights."))


def require_appoint_organisers(user: AnyUser) -> None:
    if not can_appoint_organisers(user):
        raise PermissionDenied(_("Only a site superuser may appoint organisers."))


def refereeing_all(user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments whose every table ``user`` records (all, for a superuser), as
    :func:`can_referee_all` decides."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        pk__in=Role.objects.filter(user=user, kind__in=ALL_TABLES_KINDS).values("tournament"))


def refereed_tables(user: AnyUser) -> QuerySet[Table]:
    """The tables ``user`` may record, as :func:`can_referee` decides, in one query: his own in
    the tournaments where he holds a referee role, and every table of the tournaments he
    organises or is chief referee of (all, for a superuser)."""
    tables = Table.objects.all()
    if not user.is_authenticated:
        return tables.none()
    if user.is_superuser:
        return tables
    refereeing = Role.objects.filter(user=user, kind__in=REFEREE_KINDS).values("tournament")
    return tables.filter(Q(referee=user, tour__tournament__in=refereeing)
                         | Q(tour__tournament__in=refereeing_all(user).values("pk")))


# -- players ------------------------------------------------------------------------------------


def is_own_player(user: AnyUser, player: Player) -> bool:
    """``player`` is ``user`` himself: his linked account."""
    return user.is_authenticated and player.user_id is not None and player.user_id == user.pk


def _organises_every_tournament_of(user: AnyUser, player: Player) -> bool:
    """``player`` was entered in at least one tournament, and every tournament he was ever entered
    in (withdrawn or not) is one ``user`` organises: a player the organiser registered himself."""
    entries = Entry.objects.filter(player=player)
    if not isinstance(user, User):
        return False
    organised = Role.objects.filter(user=user, kind=Role.Kind.ORGANISER).values("tournament")
    return entries.exists() and not entries.exclude(tournament__in=organised).exists()


def can_edit_player(user: AnyUser, player: Player) -> bool:
    """Change a player's name, club, city or federation id: the player himself and a superuser
    always; an organiser only while every tournament the player was ever entered in is his (a
    newcomer he registered, to correct a typo). Once the player is entered in another
    organiser's tournament, neither organiser may change him."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or is_own_player(user, player) or _organises_every_tournament_of(user, player)


def can_set_pin(user: AnyUser, player: Player) -> bool:
    """Set the PIN with which a player confirms protocols: the player himself and a superuser;
    an organiser as for :func:`can_edit_player`, and never for a player who has his own account
    (he sets it himself)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or is_own_player(user, player):
        return True
    return player.user_id is None and _organises_every_tournament_of(user, player)


def require_edit_player(user: AnyUser, player: Player) -> None:
    if not can_edit_player(user, player):
        raise PermissionDenied(_("Only the player himself, or the organiser of every tournament he has been "
                                 "entered in, may change his data."))


def require_set_pin(user: AnyUser, player: Player) -> None:
    if not can_set_pin(user, player):
        raise PermissionDenied(_("Only the player himself sets his PIN (or, for a player without an account, "
                                 "the organiser of every tournament he has been entered in)."))


# -- protocols ----------------------------------------------------------------------------------


def can_read_partition_protocol(user: AnyUser, table: Table) -> bool:
    """The tournament's staff and the four players of the table (their accounts)."""
    if not user.is_authenticated:
        return False
    if is_staff(user, table.tour.tournament):
        return True
    return Player.objects.filter(user=user, pk__in=[table.seat1_id, table.seat2_id, table.seat3_id,
                                                     table.seat4_id]).exists()


def require_read_partition_protocol(user: AnyUser, table: Table) -> None:
    if not can_read_partition_protocol(user, table):
        raise PermissionDenied(_("Only the tournament's staff and the players of this table may see its protocol."))


def may_see_hands(user: AnyUser, table: Table) -> bool:
    """See the hands of the deal in play at ``table`` when acting at it. Beside each hand's holder
    (the phone holding its seat, known by its token, not by a login): the table's own referee
    while he holds a referee role, and the chief referee (a superuser too). Never an organiser
    as such, a referee of another table, a player's account or the public: they see the hands
    once the deal is over. Which hands the referee sees depends on how the table is played
    (``scoring.recording.hands``): every hand where he enters them, at a digital table only the hand of a
    seat no phone holds (he moves for a player who lost his phone)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    held = roles(user, table.tour.tournament)
    return Role.Kind.CHIEF_REFEREE in held or (table.referee_id == user.pk and bool(held & set(REFEREE_KINDS)))


def can_confirm(user: AnyUser, table: Table, seat: int, *, with_pin: bool) -> bool:
    """Confirm a seat of ``table``'s protocol: the referee's seat (0) and a player's PIN typed on
    the device of someone who records the table (:func:`can_referee`); a player's seat without a
    PIN from his own account only."""
    if seat == 0 or with_pin:
        return can_referee(user, table)
    return is_own_player(user, table.players[seat - 1])
