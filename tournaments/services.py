"""Business operations on tournaments: one function each, with its transaction and its
permission check inside. Views, forms, the API and tasks call these and nothing else writes.

Bad input raises :class:`django.core.exceptions.ValidationError` with a message a person can act
on, and leaves nothing half-written; a forbidden action raises
:class:`django.core.exceptions.PermissionDenied`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Mapping

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission, User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from scoring.engine import Regulations, RegulationsError

from .fields import no_control_characters, plain_text
from .models import Entry, EntryChange, Pair, Player, Role, Table, Tour, Tournament
from . import permissions
from .permissions import AnyUser, login_of, require_create, require_manage
from .slugs import slug_from_name

# -- tournaments ---------------------------------------------------------------------------------


def _regulations(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated regulations, as stored: every setting, defaults filled in.

    A refusal is the ``regulations`` error "regulations.<setting>: <problem>", and keeps the
    ``setting`` and the ``problem`` apart in its params, for a form to show on the field."""
    try:
        return Regulations.from_dict(data or {}).to_dict()
    except RegulationsError as error:
        where = error.where or "regulations"
        raise ValidationError({"regulations": ValidationError(
            "%(where)s: %(problem)s", code="invalid",
            params={"where": where, "setting": where.removeprefix("regulations").lstrip("."),
                    "problem": _(error.template) % error.params},
        )}) from None


def _save(instance) -> None:
    instance.full_clean()
    instance.save()


def _save_tournament(tournament: Tournament) -> None:
    """Check and save; dates out of order get a message a person can read (the database
    constraint only names itself)."""
    try:
        tournament.full_clean(validate_constraints=False)
        errors: dict[str, list] = {}
    except ValidationError as error:
        errors = error.update_error_dict({})
    if not {"starts_on", "ends_on"} & errors.keys() and tournament.ends_on < tournament.starts_on:
        errors["ends_on"] = [ValidationError(_("The tournament cannot end before it starts."), code="dates")]
    if "team_best" not in errors and tournament.team_best and "regulations" not in errors and tournament.kind.sittings:
        # They add tournament points and points difference, which Goat, Sea Goat and points have not.
        errors["team_best"] = [ValidationError(_("Team standings are of sports domino events only."),
                                               code="team_best")]
    if errors:
        raise ValidationError(errors)
    tournament.validate_constraints()
    tournament.save()


def _slug(tournament: Tournament, slug: str) -> str:
    """The short name typed, refused if another tournament has it; none typed: made from the
    name, numbered (-2, -3, ...) past those taken."""
    others = Tournament.objects.exclude(pk=tournament.pk)
    if slug:
        if others.filter(slug=slug).exists():
            raise ValidationError({"slug": _("Another tournament has the short name %(slug)s: choose another.")
                                   % {"slug": slug}})
        return slug
    length = Tournament._meta.get_field("slug").max_length or 80
    base = slug_from_name(tournament.name, length) or "tournament"
    taken = set(others.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base[:length - len(str(n)) - 1].rstrip('-')}-{n}"
    return slug


@transaction.atomic
def create_tournament(user: AnyUser, *, name: str, starts_on: date, ends_on: date, slug: str = "", venue: str = "",
                      format: str = Tournament.Format.SWISS, seeding: str = Tournament.Seeding.NUMBERS,
                      regulations: Mapping[str, Any] | None = None, regulations_text: str = "",
                      team_best: int = 0) -> Tournament:
    """A new tournament in draft; its creator becomes its organiser. Without a short name, one is
    made from the name."""
    require_create(user)
    tournament = Tournament(name=name, venue=venue, starts_on=starts_on, ends_on=ends_on, format=format,
                            seeding=seeding, regulations=_regulations(regulations),
                            regulations_text=regulations_text, team_best=team_best, created_by=login_of(user))
    tournament.slug = _slug(tournament, slug)
    _save_tournament(tournament)
    Role.objects.create(tournament=tournament, user=login_of(user), kind=Role.Kind.ORGANISER)
    return tournament


def locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the transaction ends: draws and registrations of one
    tournament happen one at a time, whatever process runs them."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def has_public_tour(tournament: Tournament) -> bool:
    return tournament.tours.exclude(status=Tour.Status.DRAFT).exists()


@transaction.atomic
def update_tournament(user: AnyUser, tournament: Tournament, **fields: Any) -> Tournament:
    """Change the name, short name (empty: made from the name), dates, venue, status, format,
    seeding, regulations or team standings.

    The format, the seeding and the regulations are fixed once a tour has been published: the
    partitions played under them would no longer match."""
    require_manage(user, tournament)
    tournament = locked(tournament)
    allowed = {"name", "slug", "venue", "starts_on", "ends_on", "status", "format", "seeding", "regulations",
               "regulations_text", "team_best"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(sorted(unknown))})
    if "regulations" in fields:
        fields["regulations"] = _regulations(fields["regulations"])
    fixed = [f for f in ("format", "seeding", "regulations") if f in fields and fields[f] != getattr(tournament, f)]
    if fixed and has_public_tour(tournament):
        raise ValidationError(_("The draw format, the seeding and the regulations cannot change after a tour has "
                                "been published."))
    for name, value in fields.items():
        setattr(tournament, name, value)
    if "slug" in fields or not tournament.slug:
        tournament.slug = _slug(tournament, tournament.slug)
    _save_tournament(tournament)
    return tournament


@transaction.atomic
def add_role(user: AnyUser, tournament: Tournament, username: str, kind: str) -> Role:
    """Give a user a role (organiser, chief referee, referee) in the tournament."""
    require_manage(user, tournament)
    _check_kind(kind)
    target = get_user_model().objects.filter(username=username).first()
    if target is None:
        raise ValidationError(_("There is no user %(username)s.") % {"username": username})
    role, _created = Role.objects.get_or_create(tournament=tournament, user=target, kind=kind)
    return role


@transaction.atomic
def remove_role(user: AnyUser, role: Role) -> None:
    """Take a role away. A user left with no referee role in the tournament leaves every table
    whose partition is not finished yet (he may no longer record it, see
    :func:`permissions.can_referee`); the finished ones keep him as the referee who played them."""
    require_manage(user, role.tournament)
    if role.kind == Role.Kind.ORGANISER and role.tournament.roles.filter(kind=Role.Kind.ORGANISER).count() == 1:
        raise ValidationError(_("A tournament keeps at least one organiser."))
    role.delete()
    if not permissions.can_be_referee(role.user, role.tournament):
        # Through the table's partition, by the status recording writes (this floor imports no recording).
        Table.objects.filter(tour__tournament=role.tournament, referee=role.user).exclude(
            partition__status="finished").update(referee=None)


@dataclass(frozen=True)
class NewLogin:
    """A login just made, and the parts of its one-time link to set a password (Django's
    password-reset token: it stops working once the password is set, or after
    ``PASSWORD_RESET_TIMEOUT``). The token is not stored: the link is shown once."""

    user: User
    uidb64: str
    token: str


def _new_login(username: str, first_name: str, last_name: str) -> NewLogin:
    """A login with a full name (printed on the protocols) and no password yet."""
    names = {"first_name": plain_text(first_name.strip()), "last_name": plain_text(last_name.strip())}
    errors = {field: _("Type the first and the last name: the protocols print them.")
              for field, value in names.items() if not value}
    for field, value in names.items():
        try:
            no_control_characters(value)
        except ValidationError as error:
            errors[field] = error.messages[0]
    if errors:
        raise ValidationError(errors)
    User = get_user_model()
    username = username.strip()
    # A login differing only in case would be told apart by nobody at the sign-in page.
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": _("The login %(username)s is taken.") % {"username": username}})
    login = User(username=username, **names)
    login.set_unusable_password()
    login.full_clean()
    try:
        with transaction.atomic():
            login.save()
    except IntegrityError:  # made at the same moment by someone else
        raise ValidationError({"username": _("The login %(username)s is taken.") % {"username": username}}) from None
    return _link(login)


def _link(login) -> NewLogin:
    return NewLogin(login, urlsafe_base64_encode(force_bytes(login.pk)), default_token_generator.make_token(login))


def _new_link(login) -> NewLogin:
    """A new one-time link for ``login`` (the link before it used, expired or lost): his password
    is made unusable, which also ends the old link (the token is made from the password) and his
    sessions; he chooses a new password through the new link."""
    login.set_unusable_password()
    login.save(update_fields=["password"])
    return _link(login)


@transaction.atomic
def new_staff_link(user: AnyUser, tournament: Tournament, target) -> NewLogin:
    """The organiser gives a login of his tournament's staff a new one-time link
    (:func:`_new_link`). Only a chief referee or referee of this tournament whose login is nothing
    else: not an organiser (here or anywhere, nor one who may create tournaments), a superuser,
    an admin-site user, a player's account, nor staff of another tournament. Such a login is not
    this organiser's to take over: a superuser gives it a new link."""
    require_manage(user, tournament)
    login = get_user_model().objects.select_for_update().get(pk=target.pk)
    held = set(Role.objects.filter(user=login).values_list("tournament_id", "kind"))
    if not any(held_in == tournament.pk for held_in, _kind in held):
        raise ValidationError(_("%(user)s is not on the staff of this tournament.") % {"user": login})
    elsewhere = any(held_in != tournament.pk for held_in, _kind in held)
    if (login.is_superuser or login.is_staff or elsewhere or any(kind == Role.Kind.ORGANISER for _t, kind in held)
            or permissions.can_create_tournament(login) or Player.objects.filter(user=login).exists()):
        raise ValidationError(_("Only a superuser may give %(user)s a new link: the login is not this tournament's "
                                "referee alone.") % {"user": login})
    return _new_link(login)


def _check_kind(kind: str) -> None:
    if kind not in Role.Kind.values:
        raise ValidationError(_("Unknown role: %(kind)s.") % {"kind": kind})


@transaction.atomic
def add_new_staff(user: AnyUser, tournament: Tournament, *, username: str, first_name: str, last_name: str,
                  kind: str) -> NewLogin:
    """Make a new login with its full name and give it a role in the tournament; the organiser
    hands its holder the one-time link to choose his password."""
    require_manage(user, tournament)
    _check_kind(kind)
    made = _new_login(username, first_name, last_name)
    Role.objects.create(tournament=tournament, user=made.user, kind=kind)
    return made


def _create_permission() -> Permission:
    return Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")


def organisers():
    """The logins given the right to create tournaments (:func:`appoint_organiser`)."""
    return get_user_model().objects.filter(user_permissions=_create_permission()).order_by("username")


@transaction.atomic
def appoint_organiser(user: AnyUser, username: str):
    """Give an existing login the right to create tournaments (he organises those he creates)."""
    permissions.require_appoint_organisers(user)
    target = get_user_model().objects.filter(username=username.strip()).first()
    if target is None:
        raise ValidationError({"username": _("There is no user %(username)s.") % {"username": username}})
    target.user_permissions.add(_create_permission())
    return target


@transaction.atomic
def add_new_organiser(user: AnyUser, *, username: str, first_name: str, last_name: str) -> NewLogin:
    """A new login with the right to create tournaments, and its one-time link."""
    permissions.require_appoint_organisers(user)
    made = _new_login(username, first_name, last_name)
    made.user.user_permissions.add(_create_permission())
    return made


@transaction.atomic
def new_organiser_link(user: AnyUser, target) -> NewLogin:
    """A superuser gives an organiser (:func:`organisers`) a new one-time link (:func:`_new_link`);
    never to a superuser (he changes his own password)."""
    permissions.require_appoint_organisers(user)
    login = get_user_model().objects.select_for_update().get(pk=target.pk)
    if not organisers().filter(pk=login.pk).exists():
        raise ValidationError(_("%(user)s is not an organiser.") % {"user": login})
    if login.is_superuser:
        raise ValidationError(_("%(user)s is a superuser: he changes his password himself.") % {"user": login})
    return _new_link(login)


@transaction.atomic
def dismiss_organiser(user: AnyUser, target) -> None:
    """Take away the right to create tournaments. The roles he holds in tournaments stay: they
    are their organisers' to change (:func:`remove_role`)."""
    permissions.require_appoint_organisers(user)
    target.user_permissions.remove(_create_permission())


# -- players and pairs ---------------------------------------------------------------------------

PLAYER_FIELDS = ("last_name", "first_name", "club", "city", "federation_id")


def _same_name(a: str, b: str) -> bool:
    """Names as people type them: case and ё/е aside."""
    def norm(name: str) -> str:
        return " ".join(name.split()).casefold().replace("ё", "е")

    return norm(a) == norm(b)


def _player(data: Mapping[str, Any]) -> Player:
    """The player with this federation id, or a new one. A federation id already held by a player
    of another name is refused: the record (another organiser's player, maybe) is not reused."""
    values = {f: str(data.get(f) or "").strip() for f in PLAYER_FIELDS}
    if not values["last_name"]:
        raise ValidationError(_("A player needs a last name."))
    if values["federation_id"]:
        existing = Player.objects.filter(federation_id=values["federation_id"]).first()
        if existing is not None:
            if not (_same_name(existing.last_name, values["last_name"])
                    and (not values["first_name"] or _same_name(existing.first_name, values["first_name"]))):
                raise ValidationError(
                    _("Federation id %(id)s belongs to %(player)s, not to %(name)s: correct the id or the name.")
                    % {"id": values["federation_id"], "player": existing,
                       "name": f"{values['last_name']} {values['first_name']}".strip()})
            return existing
    player = Player(**values)
    _save(player)
    return player


def _check_open_for_registration(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished: registration is closed."))


def _enter(tournament: Tournament, player: Player) -> Entry:
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError(_("%(player)s is already registered in this tournament.") % {"player": player})
    # His club as registered: the team standings count him for it even if he changes clubs later.
    return Entry.objects.create(tournament=tournament, player=player, club=player.club)


def pairs_closed(tournament: Tournament) -> str:
    """Why no pair can join ``tournament`` any more, though it is not finished; empty: it can.
    Tour 1 fixes a round robin's schedule (tours._draw_round_robin): a pair entered later would
    never be drawn."""
    if (tournament.format == Tournament.Format.ROUND_ROBIN
            and tournament.tours.filter(number=1).exclude(status=Tour.Status.DRAFT).exists()):
        return _("The round robin's schedule was fixed when tour 1 was published: a pair registered now would never "
                 "play. Register pairs before tour 1 is published.")
    return ""


@transaction.atomic
def register_pair(user: AnyUser, tournament: Tournament, first: Mapping[str, Any], second: Mapping[str, Any],
                  number: int | None = None) -> Pair:
    """Register a pair of two players (found by federation id, or new) in a pair event."""
    require_manage(user, tournament)
    tournament = locked(tournament)
    _check_open_for_registration(tournament)
    if tournament.is_individual:
        raise ValidationError(_("This is an individual tournament: register players, not pairs."))
    closed = pairs_closed(tournament)
    if closed:
        raise ValidationError(closed)
    players = [_player(first), _player(second)]
    if players[0] == players[1]:
        raise ValidationError(_("A pair is two different players."))
    for player in players:
        _enter(tournament, player)
    pairs = Pair.objects.filter(tournament=tournament, tour__isnull=True)
    if number is None:
        number = (pairs.aggregate(n=Max("number"))["n"] or 0) + 1
    elif pairs.filter(number=number).exists():
        raise ValidationError(_("Start number %(number)s is taken.") % {"number": number})
    pair = Pair(tournament=tournament, number=number, first=players[0], second=players[1])
    _save(pair)
    return pair


@transaction.atomic
def register_player(user: AnyUser, tournament: Tournament, data: Mapping[str, Any]) -> Entry:
    """Register one player in an individual event."""
    require_manage(user, tournament)
    tournament = locked(tournament)
    _check_open_for_registration(tournament)
    if not tournament.is_individual:
        raise ValidationError(_("This is a pair tournament: register pairs."))
    return _enter(tournament, _player(data))


def _log(user: AnyUser, action: str, *, tournament: Tournament | None = None, player: Player | None = None,
         pair: Pair | None = None, before: Mapping[str, Any] | None = None,
         after: Mapping[str, Any] | None = None) -> None:
    """Append to the history of entries (:class:`EntryChange`), in the caller's transaction."""
    EntryChange.objects.create(tournament=tournament, player=player, pair=pair, action=action,
                               user=user if user.is_authenticated else None, at=timezone.now(),
                               before=dict(before or {}), after=dict(after or {}))


def _named(player: Player) -> dict[str, Any]:
    return {"player": player.pk, "name": str(player)}


@transaction.atomic
def withdraw_pair(user: AnyUser, pair: Pair) -> Pair:
    """Withdraw a pair: it is not drawn again; its played partitions stay."""
    require_manage(user, pair.tournament)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is None:
        pair.withdrawn_at = timezone.now()
        pair.save(update_fields=["withdrawn_at"])
        Entry.objects.filter(tournament=pair.tournament, player__in=pair.players).update(withdrawn_at=pair.withdrawn_at)
        _log(user, EntryChange.Action.WITHDRAWN, tournament=pair.tournament, pair=pair)
    return pair


@transaction.atomic
def withdraw_entry(user: AnyUser, entry: Entry) -> Entry:
    """Withdraw a player of an individual event from the next draws."""
    require_manage(user, entry.tournament)
    if not entry.tournament.is_individual:
        raise ValidationError(_("This is a pair tournament: withdraw the pair."))
    if entry.withdrawn_at is None:
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        _log(user, EntryChange.Action.WITHDRAWN, tournament=entry.tournament, player=entry.player)
    return entry


@transaction.atomic
def reinstate_pair(user: AnyUser, pair: Pair) -> Pair:
    """Undo a pair's withdrawal: it is drawn again from the next draw on (a draft tour already
    drawn without it is drawn again to take it)."""
    require_manage(user, pair.tournament)
    tournament = locked(pair.tournament)
    _check_open_for_registration(tournament)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is None:
        raise ValidationError(_("Pair №%(number)s is not withdrawn.") % {"number": pair.number})
    pair.withdrawn_at = None
    pair.save(update_fields=["withdrawn_at"])
    Entry.objects.filter(tournament=tournament, player__in=pair.players).update(withdrawn_at=None)
    _log(user, EntryChange.Action.REINSTATED, tournament=tournament, pair=pair)
    return pair


@transaction.atomic
def reinstate_entry(user: AnyUser, entry: Entry) -> Entry:
    """Undo the withdrawal of a player of an individual event: drawn again from the next draw on."""
    require_manage(user, entry.tournament)
    tournament = locked(entry.tournament)
    _check_open_for_registration(tournament)
    if not tournament.is_individual:
        raise ValidationError(_("This is a pair tournament: undo the pair's withdrawal."))
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.withdrawn_at is None:
        raise ValidationError(_("%(player)s is not withdrawn.") % {"player": entry.player})
    entry.withdrawn_at = None
    entry.save(update_fields=["withdrawn_at"])
    _log(user, EntryChange.Action.REINSTATED, tournament=tournament, player=entry.player)
    return entry


@transaction.atomic
def substitute_player(user: AnyUser, pair: Pair, leaving: Player, data: Mapping[str, Any], from_tour: int) -> Pair:
    """Put another player (found by federation id, or new) in ``pair`` instead of ``leaving``,
    from tour ``from_tour`` on.

    A table names its four players itself (its seats), so the tables of the tours before keep the
    player who played them: the pair takes the newcomer, and so do the seats of the drawn tours
    from ``from_tour`` on, none of which may have anything recorded yet. ``from_tour`` is at most
    the next tour to draw: a tour in between would be drawn with the pair as it is now. The
    leaving player stays entered, as withdrawn."""
    require_manage(user, pair.tournament)
    tournament = locked(pair.tournament)
    _check_open_for_registration(tournament)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.tour_id is not None:
        raise ValidationError(_("This is an individual tournament: its pairs change every tour."))
    if pair.withdrawn_at is not None:
        raise ValidationError(_("Pair №%(number)s is withdrawn: undo the withdrawal first.") % {"number": pair.number})
    if leaving.pk not in (pair.first_id, pair.second_id):
        raise ValidationError(_("%(player)s does not play in pair №%(number)s.")
                              % {"player": leaving, "number": pair.number})
    next_tour = (tournament.tours.aggregate(n=Max("number"))["n"] or 0) + 1
    if not 1 <= from_tour <= next_tour:
        raise ValidationError({"from_tour": _("A player is substituted from tour 1 to tour %(next)s (the next to "
                                              "draw), not from tour %(tour)s.")
                               % {"next": next_tour, "tour": from_tour}})
    tables = list(Table.objects.select_for_update().filter(tour__tournament=tournament, tour__number__gte=from_tour)
                  .filter(Q(pair_a=pair) | Q(pair_b=pair)))
    # Through the table's partition, by its status (this floor imports no recording).
    recorded = sorted(set(Table.objects.filter(pk__in=[t.pk for t in tables])
                          .exclude(partition__status="scheduled", partition__version=0)
                          .values_list("tour__number", flat=True)))
    if recorded:
        raise ValidationError(_("Pair №%(number)s already has a partition recorded in tour %(tours)s: substitute "
                                "the player from a later tour.")
                              % {"number": pair.number, "tours": ", ".join(map(str, recorded))})
    joining = _player(data)
    _enter(tournament, joining)
    Entry.objects.filter(tournament=tournament, player=leaving).update(withdrawn_at=timezone.now())
    side = "first" if pair.first_id == leaving.pk else "second"
    setattr(pair, side, joining)
    _save(pair)
    for table in tables:
        seats = [f for f in Table.SEAT_FIELDS if getattr(table, f"{f}_id") == leaving.pk]
        for field in seats:
            setattr(table, field, joining)
        table.save(update_fields=seats)
    _log(user, EntryChange.Action.SUBSTITUTED, tournament=tournament, pair=pair, player=joining,
         before=_named(leaving), after={**_named(joining), "from_tour": from_tour})
    return pair


@transaction.atomic
def assign_referee(user: AnyUser, table: Table, referee) -> Table:
    """Make ``referee`` (a user with a referee or chief referee role in the tournament, or his
    username, or None) the referee of ``table``. The permission is checked before the username
    is looked up: nobody but an organiser learns whether a login exists."""
    tournament = table.tour.tournament
    require_manage(user, tournament)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.tour.status == Tour.Status.FINISHED:
        raise ValidationError(_("The tour is finished."))
    if isinstance(referee, str):
        username, referee = referee, permissions.referees(tournament).filter(username=referee).first()
        if referee is None:
            raise ValidationError(_("%(user)s is not a referee of this tournament: give him the role first.")
                                  % {"user": username})
    if referee is not None and not permissions.can_be_referee(referee, tournament):
        raise ValidationError(_("%(user)s is not a referee of this tournament: give him the role first.")
                              % {"user": referee})
    table.referee = referee
    table.save(update_fields=["referee"])
    return table


@transaction.atomic
def assign_referees(user: AnyUser, tour: Tour, referees: Mapping[int, Any]) -> list[Table]:
    """Assign the referees of several tables of ``tour`` at once (table number -> a referee, or
    None), each as :func:`assign_referee` does: all of them, or none when any is refused."""
    require_manage(user, tour.tournament)
    tables = {t.number: t for t in tour.tables.all()}
    unknown = sorted(set(referees) - set(tables))
    if unknown:
        raise ValidationError(_("Tour %(tour)s has no table %(tables)s.")
                              % {"tour": tour.number, "tables": ", ".join(map(str, unknown))})
    done, problems = [], []
    for number, referee in sorted(referees.items()):
        try:
            done.append(assign_referee(user, tables[number], referee))
        except ValidationError as error:
            problems += [_("Table %(number)s: %(problem)s") % {"number": number, "problem": m} for m in error.messages]
    if problems:
        raise ValidationError(problems)
    return done


@transaction.atomic
def assign_referees_evenly(user: AnyUser, tour: Tour) -> list[Table]:
    """Place the tournament's referees (and chief referees) over the tables of ``tour`` in one
    action: ordered by name, the first at table 1, the second at table 2, ..., round again."""
    require_manage(user, tour.tournament)
    staff = list(permissions.referees(tour.tournament).order_by("last_name", "first_name", "username"))
    if not staff:
        raise ValidationError(_("The tournament has no referees: give the role to someone on the staff page first."))
    numbers = sorted(tour.tables.values_list("number", flat=True))
    return assign_referees(user, tour, {n: staff[k % len(staff)] for k, n in enumerate(numbers)})


@transaction.atomic
def set_seeds(user: AnyUser, tournament: Tournament, seeds: Mapping[int, int | None]) -> list[Pair]:
    """The organiser's seeding order: pair id -> seed number (1 first) or None. Each seed once;
    fixed once a tour has been published, as the draw it made."""
    require_manage(user, tournament)
    tournament = locked(tournament)
    if has_public_tour(tournament):
        raise ValidationError(_("The seeding cannot change after a tour has been published."))
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament, tour__isnull=True)}
    unknown = sorted(set(seeds) - set(pairs))
    if unknown:
        raise ValidationError(_("No such pair in this tournament: %(ids)s.") % {"ids": ", ".join(map(str, unknown))})
    for pk, seed in seeds.items():
        pairs[pk].seed = seed
    given = [p.seed for p in pairs.values() if p.seed is not None]
    problems = [_("Seed %(seed)s is given to more than one pair.") % {"seed": seed}
                for seed in sorted({s for s in given if given.count(s) > 1})]
    problems += [_("A seed is a whole number from 1, not %(seed)s.") % {"seed": seed}
                 for seed in sorted({s for s in given if s < 1})]
    if problems:
        raise ValidationError(problems)
    # Cleared first: swapping two seeds row by row would meet the unique constraint halfway.
    Pair.objects.filter(pk__in=pairs).update(seed=None)
    Pair.objects.bulk_update(list(pairs.values()), ["seed"])
    return sorted(pairs.values(), key=lambda p: p.number)


@transaction.atomic
def update_player(user: AnyUser, player: Player, data: Mapping[str, Any], tournament: Tournament | None = None) -> Player:
    """Change a player's name, club, city or federation id: the player himself (his linked
    account), a superuser, or the organiser of every tournament he was entered in
    (:func:`permissions.can_edit_player`). The change goes into the history of entries, of
    ``tournament`` when made from its pages; a club changed there is his entry's club in it too."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    permissions.require_edit_player(user, player)
    unknown = set(data) - set(PLAYER_FIELDS)
    if unknown:
        raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(sorted(unknown))})
    before = {name: getattr(player, name) for name in PLAYER_FIELDS}
    for name, value in data.items():
        setattr(player, name, str(value or "").strip())
    # Checked here: the model's unique constraint would only name itself.
    if player.federation_id and Player.objects.filter(federation_id=player.federation_id).exclude(pk=player.pk).exists():
        raise ValidationError({"federation_id": _("Another player has this federation id.")})
    try:
        _save(player)
    except IntegrityError:
        raise ValidationError(_("Another player has this federation id.")) from None
    changed = [name for name in PLAYER_FIELDS if getattr(player, name) != before[name]]
    if "club" in changed and tournament is not None:
        # Corrected from this tournament's pages: he plays for it here (the team standings).
        Entry.objects.filter(tournament=tournament, player=player).update(club=player.club)
    if changed:
        _log(user, EntryChange.Action.PLAYER_EDITED, tournament=tournament, player=player,
             before={name: before[name] for name in changed}, after={name: getattr(player, name) for name in changed})
    return player
