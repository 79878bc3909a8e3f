"""Business operations on tournaments: one function each, with its transaction and its
permission check inside. Views, forms, the API and tasks call these and nothing else writes.

Bad input raises :class:`django.core.exceptions.ValidationError` with a message a person can act
on, and leaves nothing half-written; a forbidden action raises
:class:`django.core.exceptions.PermissionDenied`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Iterable, Mapping, Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import Regulations, RegulationsError
from scoring.models import Partition

from . import draw
from .models import Bye, Entry, Pair, Player, Role, SitOut, Table, Tour, Tournament
from . import permissions
from .permissions import require_create, require_manage
from .standings import pair_standings

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
    if errors:
        raise ValidationError(errors)
    tournament.validate_constraints()
    tournament.save()


@transaction.atomic
def create_tournament(user, *, name: str, slug: str, starts_on: date, ends_on: date, venue: str = "",
                      format: str = Tournament.Format.SWISS,
                      regulations: Mapping[str, Any] | None = None) -> Tournament:
    """A new tournament in draft; its creator becomes its organiser."""
    require_create(user)
    tournament = Tournament(name=name, slug=slug, venue=venue, starts_on=starts_on, ends_on=ends_on,
                            format=format, regulations=_regulations(regulations), created_by=user)
    _save_tournament(tournament)
    Role.objects.create(tournament=tournament, user=user, kind=Role.Kind.ORGANISER)
    return tournament


def _locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the transaction ends: draws and registrations of one
    tournament happen one at a time, whatever process runs them."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _has_public_tour(tournament: Tournament) -> bool:
    return tournament.tours.exclude(status=Tour.Status.DRAFT).exists()


@transaction.atomic
def update_tournament(user, tournament: Tournament, **fields: Any) -> Tournament:
    """Change the name, dates, venue, status, format or regulations.

    The format and the regulations are fixed once a tour has been published: the partitions
    played under them would no longer match."""
    require_manage(user, tournament)
    tournament = _locked(tournament)
    allowed = {"name", "slug", "venue", "starts_on", "ends_on", "status", "format", "regulations"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(sorted(unknown))})
    if "regulations" in fields:
        fields["regulations"] = _regulations(fields["regulations"])
    fixed = [f for f in ("format", "regulations") if f in fields and fields[f] != getattr(tournament, f)]
    if fixed and _has_public_tour(tournament):
        raise ValidationError(_("The draw format and the regulations cannot change after a tour has been "
                                "published."))
    for name, value in fields.items():
        setattr(tournament, name, value)
    _save_tournament(tournament)
    return tournament


@transaction.atomic
def add_role(user, tournament: Tournament, username: str, kind: str) -> Role:
    """Give a user a role (organiser, chief referee, referee) in the tournament."""
    require_manage(user, tournament)
    if kind not in Role.Kind.values:
        raise ValidationError(_("Unknown role: %(kind)s.") % {"kind": kind})
    target = get_user_model().objects.filter(username=username).first()
    if target is None:
        raise ValidationError(_("There is no user %(username)s.") % {"username": username})
    role, _created = Role.objects.get_or_create(tournament=tournament, user=target, kind=kind)
    return role


@transaction.atomic
def remove_role(user, role: Role) -> None:
    """Take a role away. A user left with no referee role in the tournament leaves every table
    whose partition is not finished yet (he may no longer record it, see
    :func:`permissions.can_referee`); the finished ones keep him as the referee who played them."""
    require_manage(user, role.tournament)
    if role.kind == Role.Kind.ORGANISER and role.tournament.roles.filter(kind=Role.Kind.ORGANISER).count() == 1:
        raise ValidationError(_("A tournament keeps at least one organiser."))
    role.delete()
    if not permissions.can_be_referee(role.user, role.tournament):
        Table.objects.filter(tour__tournament=role.tournament, referee=role.user).exclude(
            partition__status=Partition.Status.FINISHED).update(referee=None)


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
    return Entry.objects.create(tournament=tournament, player=player)


@transaction.atomic
def register_pair(user, tournament: Tournament, first: Mapping[str, Any], second: Mapping[str, Any],
                  number: int | None = None) -> Pair:
    """Register a pair of two players (found by federation id, or new) in a pair event."""
    require_manage(user, tournament)
    tournament = _locked(tournament)
    _check_open_for_registration(tournament)
    if tournament.is_individual:
        raise ValidationError(_("This is an individual tournament: register players, not pairs."))
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
def register_player(user, tournament: Tournament, data: Mapping[str, Any]) -> Entry:
    """Register one player in an individual event."""
    require_manage(user, tournament)
    tournament = _locked(tournament)
    _check_open_for_registration(tournament)
    if not tournament.is_individual:
        raise ValidationError(_("This is a pair tournament: register pairs."))
    return _enter(tournament, _player(data))


@transaction.atomic
def withdraw_pair(user, pair: Pair) -> Pair:
    """Withdraw a pair: it is not drawn again; its played partitions stay."""
    require_manage(user, pair.tournament)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.withdrawn_at is None:
        pair.withdrawn_at = timezone.now()
        pair.save(update_fields=["withdrawn_at"])
        Entry.objects.filter(tournament=pair.tournament, player__in=pair.players).update(withdrawn_at=pair.withdrawn_at)
    return pair


@transaction.atomic
def withdraw_entry(user, entry: Entry) -> Entry:
    """Withdraw a player of an individual event from the next draws."""
    require_manage(user, entry.tournament)
    if not entry.tournament.is_individual:
        raise ValidationError(_("This is a pair tournament: withdraw the pair."))
    if entry.withdrawn_at is None:
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
    return entry


@dataclass(frozen=True)
class ImportReport:
    """What a CSV import did, or (``errors``, by line) why it did nothing."""

    created: int
    errors: tuple[tuple[int, str], ...] = ()


CSV_COLUMNS = tuple(f"{f}_{n}" for n in (1, 2) for f in PLAYER_FIELDS) + ("number",)


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    for encoding in ("utf-8-sig", "cp1251"):  # spreadsheets in Russia often save cp1251
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValidationError(_("The file is neither UTF-8 nor Windows-1251 text."))


def import_pairs_csv(user, tournament: Tournament, data: bytes | str) -> ImportReport:
    """Register the pairs of a CSV file, all or none.

    The header names the columns: ``last_name_1`` and ``last_name_2`` are required;
    ``first_name_N``, ``club_N``, ``city_N``, ``federation_id_N`` and ``number`` are optional.
    Commas or semicolons; any line endings. Every bad row is reported with its line; then nothing
    is imported. The file has at most ``CSV_IMPORT_MAX_SIZE`` bytes and ``CSV_IMPORT_MAX_LINES``
    lines of pairs: the whole file is read and checked before the first pair is registered.
    """
    require_manage(user, tournament)
    size = len(data.encode() if isinstance(data, str) else data)
    if size > settings.CSV_IMPORT_MAX_SIZE:
        raise ValidationError(_("The file is too large: at most %(size)s.")
                              % {"size": filesizeformat(settings.CSV_IMPORT_MAX_SIZE)})
    text = _decode(data)
    try:
        dialect = csv.Sniffer().sniff(_LINE_END.split(text, 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    # newline="": the csv module itself splits the lines, whichever ending they have.
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=dialect)
    rows: list[tuple[int, dict[str | None, Any]]] = []  # key None: the fields past the header's
    errors: list[tuple[int, str]] = []
    try:
        header = [h.strip() for h in reader.fieldnames or []]
        reader.fieldnames = header
        for row in reader:
            if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                rows.append((reader.line_num, row))
            if len(rows) > settings.CSV_IMPORT_MAX_LINES:
                raise ValidationError(_("The file has more than %(count)s lines of pairs: split it.")
                                      % {"count": settings.CSV_IMPORT_MAX_LINES})
    except csv.Error:
        # The csv module's one refusal of decoded text: a field over its limit. (DictReader's own
        # line_num is the last line it returned; its reader's, the one refused.)
        return ImportReport(0, ((reader.reader.line_num, _("a field is longer than %(count)s characters.")
                                 % {"count": csv.field_size_limit()}),))
    missing = [c for c in ("last_name_1", "last_name_2") if c not in header]
    unknown = [c for c in header if c not in CSV_COLUMNS]
    if missing or unknown:
        problems = []
        if missing:
            problems.append(_("missing columns: %(columns)s") % {"columns": ", ".join(missing)})
        if unknown:
            problems.append(_("unknown columns: %(columns)s") % {"columns": ", ".join(unknown)})
        return ImportReport(0, ((1, "; ".join(problems)),))
    for line, row in rows:
        extra = row.pop(None, None) or []  # fields past the header's columns
        if any(v.strip() for v in extra):
            errors.append((line, _("more fields than the header has columns.")))
        elif any("\x00" in (v or "") for v in row.values()):
            errors.append((line, _("a NUL character, which cannot be stored.")))
    if errors:
        return ImportReport(0, tuple(errors))
    created = 0
    try:
        with transaction.atomic():
            for line, row in rows:
                try:
                    with transaction.atomic():
                        number = (row.get("number") or "").strip()
                        register_pair(user, tournament,
                                      {f: row.get(f"{f}_1") for f in PLAYER_FIELDS},
                                      {f: row.get(f"{f}_2") for f in PLAYER_FIELDS},
                                      number=_whole(number) if number else None)
                    created += 1
                except ValidationError as error:
                    errors.append((line, " ".join(error.messages)))
            if errors:
                raise _Rollback
    except _Rollback:
        return ImportReport(0, tuple(errors))
    return ImportReport(created)


class _Rollback(Exception):
    """Undo a whole import when any row was bad."""


_LINE_END = re.compile(r"\r\n|\r|\n")


def _whole(text: str) -> int:
    # ASCII digits only: str.isdigit() also takes "²" and other digits int() refuses.
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < 1:
        raise ValidationError(_("The start number must be a whole number from 1, not %(value)s.") % {"value": text})
    return int(text)


# -- tours and the draw --------------------------------------------------------------------------


def _say(problem: Any) -> str:
    """A draw problem in the user's language (the draw keeps each one's English template)."""
    if isinstance(problem, tuple):
        return ", ".join(_say(p) for p in problem)
    if isinstance(problem, draw.Problem):
        return _(problem.template) % {k: _say(v) for k, v in problem.params.items()} if problem.params \
            else _(problem.template)
    return str(problem)


def _draw_error(error: draw.DrawError) -> ValidationError:
    return ValidationError([_say(p) for p in error.problems] or [str(error)])


def _active_pairs(tournament: Tournament) -> list[Pair]:
    return list(Pair.objects.filter(tournament=tournament, tour__isnull=True, withdrawn_at__isnull=True)
                .select_related("first", "second"))


@transaction.atomic
def generate_tour(user, tournament: Tournament, planned_start: datetime | None = None) -> Tour:
    """Draw the next tour by the tournament's format, as a draft to review, edit and publish.

    A draft tour is drawn again from scratch; a published one cannot be. The Swiss and individual
    draws need every earlier tour finished."""
    require_manage(user, tournament)
    tournament = _locked(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    tour = tournament.tours.filter(status=Tour.Status.DRAFT).first()
    if tour is not None:
        _clear(tour)
        if planned_start is not None:
            tour.planned_start = planned_start
            tour.save(update_fields=["planned_start"])
    else:
        if tournament.format in (Tournament.Format.SWISS, Tournament.Format.INDIVIDUAL) and tournament.tours.exclude(
                status=Tour.Status.FINISHED).exists():
            raise ValidationError(_("Finish the current tour first: the next draw depends on its results."))
        number = (tournament.tours.aggregate(n=Max("number"))["n"] or 0) + 1
        tour = Tour.objects.create(tournament=tournament, number=number, planned_start=planned_start)
    if tournament.format == Tournament.Format.SWISS:
        _draw_swiss(tournament, tour)
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        _draw_round_robin(tournament, tour)
    elif tournament.format == Tournament.Format.INDIVIDUAL:
        _draw_individual(tournament, tour)
    # manual: the organiser seats the tables with set_tables
    return tour


def _clear(tour: Tour) -> None:
    Partition.objects.filter(table__tour=tour).delete()
    tour.tables.all().delete()
    tour.byes.all().delete()
    tour.sit_outs.all().delete()
    tour.pairs.all().delete()


def _seat(tour: Tour, tables: Iterable[tuple[Pair, Pair]], bye: Pair | None = None) -> None:
    """Write the tables of a tour: pair A at seats 1 and 3, pair B at 2 and 4, and their
    partitions."""
    created = Table.objects.bulk_create([
        Table(tour=tour, number=n, pair_a=a, pair_b=b, seat1=a.first, seat3=a.second, seat2=b.first,
              seat4=b.second)
        for n, (a, b) in enumerate(tables, 1)
    ])
    Partition.objects.bulk_create([Partition(table=t) for t in created])
    if bye is not None:
        Bye.objects.create(tour=tour, pair=bye)


def _draw_swiss(tournament: Tournament, tour: Tour) -> None:
    pairs = {p.pk: p for p in _active_pairs(tournament)}
    if len(pairs) < 2:
        raise ValidationError(_("A draw needs at least two active pairs."))
    order = [r for r in pair_standings(tournament, after_tour=tour.number - 1) if r.key in pairs]
    entrants = [draw.SwissEntrant(r.key, r.wins, rank) for rank, r in enumerate(order, 1)]
    met = {frozenset((r.key, o)) for r in order for o in r.opponents if o in pairs}
    had_bye = set(Bye.objects.filter(tour__tournament=tournament, pair_id__in=pairs).values_list("pair_id", flat=True))
    try:
        result = draw.swiss_tour(entrants, met, had_bye)
    except draw.DrawError as error:
        raise _draw_error(error) from None
    _seat(tour, [(pairs[a], pairs[b]) for a, b in result.tables], pairs.get(result.bye) if result.bye else None)


def _draw_round_robin(tournament: Tournament, tour: Tour) -> None:
    # The schedule is fixed by the pairs of the first tour; a pair that withdrew since leaves
    # its opponent a bye.
    first = tournament.tours.filter(number=1).exclude(pk=tour.pk).first()
    if first is None:
        pairs = _active_pairs(tournament)
    else:
        ids = set(first.tables.values_list("pair_a", flat=True)) | set(first.tables.values_list("pair_b", flat=True))
        ids |= set(first.byes.values_list("pair", flat=True))
        pairs = list(Pair.objects.filter(pk__in=ids).select_related("first", "second"))
    pairs.sort(key=lambda p: p.number)
    if len(pairs) < 2:
        raise ValidationError(_("A draw needs at least two active pairs."))
    if tour.number > draw.tour_count(len(pairs)):
        raise ValidationError(_("The round robin is complete: %(count)s tours.") % {"count": draw.tour_count(len(pairs))})
    by_id = {p.pk: p for p in pairs}
    tables, byes = [], []
    for a, b in draw.round_robin_tour([p.pk for p in pairs], tour.number):
        pa, pb = by_id[a], by_id.get(b) if b is not None else None
        if pb is None or pb.withdrawn_at:
            byes.append(pa)
        elif pa.withdrawn_at:
            byes.append(pb)
        else:
            tables.append((pa, pb))
    _seat(tour, tables)
    Bye.objects.bulk_create([Bye(tour=tour, pair=p) for p in byes if not p.withdrawn_at])


def _draw_individual(tournament: Tournament, tour: Tour) -> None:
    players = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                   .values_list("player_id", flat=True))
    if len(players) < 4:
        raise ValidationError(_("An individual draw needs at least four active players."))
    active = set(players)
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for s1, s2, s3, s4 in Table.objects.filter(tour__tournament=tournament).exclude(tour=tour).values_list(
            "seat1", "seat2", "seat3", "seat4"):
        for x, y in ((s1, s3), (s2, s4)):
            if x in active and y in active:
                partners[frozenset((x, y))] += 1
        for x in (s1, s3):
            for y in (s2, s4):
                if x in active and y in active:
                    opponents[frozenset((x, y))] += 1
    sit_outs = Counter(p for p in SitOut.objects.filter(tour__tournament=tournament).values_list("player", flat=True)
                       if p in active)
    try:
        result = draw.individual_tour(players, partners, opponents, sit_outs=sit_outs,
                                      scores=_player_wins(tournament, active), seed=tour.number)
    except draw.DrawError as error:
        raise _draw_error(error) from None
    count = len(result.tables)
    # The pairs of this tour: seats 1 and 3 are numbered 1..count, seats 2 and 4 count+1...
    pairs = Pair.objects.bulk_create(
        [Pair(tournament=tournament, tour=tour, number=n, first_id=t[0], second_id=t[2])
         for n, t in enumerate(result.tables, 1)]
        + [Pair(tournament=tournament, tour=tour, number=count + n, first_id=t[1], second_id=t[3])
           for n, t in enumerate(result.tables, 1)])
    a_pairs, b_pairs = pairs[:count], pairs[count:]
    created = Table.objects.bulk_create([
        Table(tour=tour, number=n, pair_a=a, pair_b=b, seat1_id=t[0], seat2_id=t[1], seat3_id=t[2], seat4_id=t[3])
        for n, (t, a, b) in enumerate(zip(result.tables, a_pairs, b_pairs), 1)
    ])
    Partition.objects.bulk_create([Partition(table=t) for t in created])
    SitOut.objects.bulk_create([SitOut(tour=tour, player_id=p) for p in result.sitting_out])


def _player_wins(tournament: Tournament, players: set[int]) -> dict[int, int]:
    """Wins of each player of an individual event: his pair's partition results."""
    wins: Counter[int] = Counter()
    for winner, s1, s2, s3, s4 in Partition.objects.filter(
            table__tour__tournament=tournament, status=Partition.Status.FINISHED).exclude(winner="").values_list(
            "winner", "table__seat1", "table__seat2", "table__seat3", "table__seat4"):
        for player in ((s1, s3) if winner == "A" else (s2, s4)):
            wins[player] += 1
    return {p: wins[p] for p in players}


@transaction.atomic
def set_tables(user, tour: Tour, tables: Sequence[tuple[int | None, int | None]], bye: int | None = None) -> Tour:
    """Seat a draft tour by hand: ``tables`` are (pair A, pair B) ids in table order. The whole
    seating is checked (a pair twice, an empty seat, a withdrawn or unknown pair) and replaces
    the draft's tables."""
    tournament = tour.tournament
    require_manage(user, tournament)
    _locked(tournament)
    tour = Tour.objects.select_for_update().get(pk=tour.pk)
    if tour.status != Tour.Status.DRAFT:
        raise ValidationError(_("Tour %(number)s is published: its draw cannot change.") % {"number": tour.number})
    if tournament.is_individual:
        raise ValidationError(_("In an individual tournament the draw forms the pairs: seat players by redrawing."))
    pairs = {p.pk: p for p in Pair.objects.filter(tournament=tournament, tour__isnull=True).select_related("first", "second")}
    named = {pk for seats in tables for pk in seats if pk is not None} | ({bye} if bye is not None else set())
    unknown = named - set(pairs)
    if unknown:
        raise ValidationError(_("No such pair in this tournament: %(ids)s.")
                              % {"ids": ", ".join(sorted(map(str, unknown)))})
    # Checked by start number: the numbers are what the organiser sees in the problems.
    number = {pk: p.number for pk, p in pairs.items()}
    by_number = {p.number: p for p in pairs.values()}
    withdrawn = {p.number for p in pairs.values() if p.withdrawn_at}
    try:
        checked = draw.validate_manual(
            [(None if a is None else number[a], None if b is None else number[b]) for a, b in tables],
            set(by_number) - withdrawn, withdrawn_pair_ids=withdrawn, bye=None if bye is None else number[bye])
    except draw.DrawError as error:
        raise _draw_error(error) from None
    _clear(tour)
    _seat(tour, [(by_number[a], by_number[b]) for a, b in checked], pairs[bye] if bye is not None else None)
    return tour


@transaction.atomic
def publish_tour(user, tour: Tour) -> Tour:
    """Publish a drafted tour: players and the public see its draw; it cannot be redrawn."""
    require_manage(user, tour.tournament)
    tournament = _locked(tour.tournament)
    tour = Tour.objects.select_for_update().get(pk=tour.pk)
    if tour.status != Tour.Status.DRAFT:
        raise ValidationError(_("Tour %(number)s is already published.") % {"number": tour.number})
    if not tour.tables.exists():
        raise ValidationError(_("Tour %(number)s has no tables: draw or seat it first.") % {"number": tour.number})
    tour.status = Tour.Status.PUBLISHED
    tour.published_at = timezone.now()
    tour.save(update_fields=["status", "published_at"])
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return tour


@transaction.atomic
def assign_referee(user, table: Table, referee) -> Table:
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
def assign_referees(user, tour: Tour, referees: Mapping[int, Any]) -> list[Table]:
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
def update_player(user, player: Player, data: Mapping[str, Any]) -> Player:
    """Change a player's name, club, city or federation id: the player himself (his linked
    account), a superuser, or the organiser of every tournament he was entered in
    (:func:`permissions.can_edit_player`)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    permissions.require_edit_player(user, player)
    unknown = set(data) - set(PLAYER_FIELDS)
    if unknown:
        raise ValidationError(_("Unknown field: %(field)s.") % {"field": ", ".join(sorted(unknown))})
    for name, value in data.items():
        setattr(player, name, str(value or "").strip())
    # Checked here: the model's unique constraint would only name itself.
    if player.federation_id and Player.objects.filter(federation_id=player.federation_id).exclude(pk=player.pk).exists():
        raise ValidationError({"federation_id": _("Another player has this federation id.")})
    try:
        _save(player)
    except IntegrityError:
        raise ValidationError(_("Another player has this federation id.")) from None
    return player
