"""The draw of a tour: one service function per operation, with its transaction and its
permission check inside. A tour is drawn as a draft by the tournament's format (the Swiss draw
ranks the pairs by the standings), seated by hand, drawn again while a draft, and published; its
tables are written with their partitions, which the referees then record.

The draw algorithms themselves are :mod:`tournaments.draw` (pure functions); this module reads
what they need from the database and writes what they decide.
"""

from __future__ import annotations

import secrets
from collections import Counter
from datetime import datetime
from itertools import combinations
from typing import Any, Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import engine
from scoring.models import Partition, SeatResult

from . import draw, rating
from .models import Bye, Entry, Pair, SitOut, Table, Tour, Tournament
from .permissions import referees, require_manage
from .services import locked
from .standings import pair_standings
from tournaments.permissions import AnyUser


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
def generate_tour(user: AnyUser, tournament: Tournament, planned_start: datetime | None = None) -> Tour:
    """Draw the next tour by the tournament's format, as a draft to review, edit and publish.

    A draft tour is drawn again from scratch; a published one cannot be. The Swiss and individual
    draws need every earlier tour finished."""
    require_manage(user, tournament)
    tournament = locked(tournament)
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
    if not pairs_at_tables(tournament.rules):
        if tournament.format != Tournament.Format.INDIVIDUAL:
            raise ValidationError(_("Each for himself, players change tables every tour: choose the individual "
                                    "format, or play in pairs (teams)."))
        _draw_goat(tournament, tour)
    elif tournament.format == Tournament.Format.SWISS:
        _draw_swiss(tournament, tour)
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        _draw_round_robin(tournament, tour)
    elif tournament.format == Tournament.Format.INDIVIDUAL:
        _draw_individual(tournament, tour)
    # manual: the organiser seats the tables with set_tables
    return tour


def _clear(tour: Tour) -> None:
    # A redrawn or hand-seated draft is no longer the random draw of its seed.
    if tour.draw_seed is not None:
        tour.draw_seed = None
        tour.save(update_fields=["draw_seed"])
    Partition.objects.filter(table__tour=tour).delete()
    tour.tables.all().delete()
    tour.byes.all().delete()
    tour.sit_outs.all().delete()
    tour.pairs.all().delete()


def _seated(players: dict[engine.Pair, tuple[Any, Any]]) -> dict[str, Any]:
    """The seat fields of a table (``seat1_id`` ...) for the two players of each pair, first and
    second, at the pair's seats (:func:`scoring.engine.seats_of`)."""
    return {f"{Table.SEAT_FIELDS[seat - 1]}_id": player
            for pair, two in players.items() for seat, player in zip(engine.seats_of(pair), two)}


def pairs_at_tables(rules: engine.Regulations) -> bool:
    """Whether a tournament's tables seat two pairs: sports domino, and its other games in pairs
    (``teams``); Goat, Sea Goat and points each for himself seat 2 to ``players`` players (RULES 9)."""
    return not engine.kind_of(rules).sittings or rules.teams


def check_table(table: Table, rules: engine.Regulations) -> None:
    """The shape of a table as its game wants it (the row itself does not know the game): two
    pairs at four seats, or, each for himself, no pairs and 2 to ``players`` seats in order."""
    seats = [getattr(table, f"{field}_id") for field in Table.SEAT_FIELDS]
    filled = len([s for s in seats if s is not None])
    if pairs_at_tables(rules):
        if table.pair_a_id is None or table.pair_b_id is None or filled != 4:
            raise ValidationError(_("Table %(number)s: a table of pairs seats two pairs in four seats.")
                                  % {"number": table.number})
    elif table.pair_a_id is not None or table.pair_b_id is not None or not 2 <= filled <= rules.players \
            or None in seats[:filled]:
        raise ValidationError(_("Table %(number)s: each for himself, a table seats 2 to %(players)s players, in "
                                "order, without pairs.") % {"number": table.number, "players": rules.players})


def _write_tables(tour: Tour, tables: list[Table]) -> None:
    """Check and write the tables of a tour, and their partitions."""
    rules = tour.tournament.rules
    for table in tables:
        check_table(table, rules)
    _keep_referees(tour, tables)
    created = Table.objects.bulk_create(tables)
    Partition.objects.bulk_create([Partition(table=t) for t in created])


def _keep_referees(tour: Tour, tables: list[Table]) -> None:
    """Table k of a new tour keeps the referee of table k of the tour before, while he still
    holds a referee role."""
    staff = referees(tour.tournament)
    kept = dict(Table.objects.filter(tour__tournament=tour.tournament, tour__number=tour.number - 1,
                                     referee__in=staff).values_list("number", "referee"))
    for table in tables:
        table.referee_id = kept.get(table.number)


def _seeding_order(tournament: Tournament, first_tour: Tour, pairs: list[Pair]) -> list[int]:
    """The ids of ``pairs`` in the tournament's seeding order. A random seeding draws a seed for
    tour 1 once, kept on it (and printed), so that its redraws and the round robin's later
    tours reproduce the same order."""
    method = tournament.seeding
    if method == Tournament.Seeding.RANDOM and first_tour.draw_seed is None:
        if first_tour.status == Tour.Status.DRAFT:
            first_tour.draw_seed = secrets.randbits(48)
            first_tour.save(update_fields=["draw_seed"])
        else:  # tour 1 was seated by hand: no random order was drawn
            method = Tournament.Seeding.NUMBERS
    ratings = _pair_ratings(tournament, pairs) if method == Tournament.Seeding.RATING else {}
    try:
        return draw.seeding_order([draw.Seeded(p.pk, p.number, p.seed, ratings.get(p.pk)) for p in pairs], method,
                                  first_tour.draw_seed)
    except draw.DrawError as error:
        raise _draw_error(error) from None


def _pair_ratings(tournament: Tournament, pairs: list[Pair]) -> dict[int, float]:
    """Each pair's rating in the family its tournament plays, as it stood before the tournament:
    the mean of its two players' (a player never rated has the library's default, README "Ratings")."""
    family = rating.family_of(tournament)
    if family is None:
        raise ValidationError(_("This game has no rating: choose another seeding."))
    players = rating.player_ratings(family, [p for pair in pairs for p in (pair.first_id, pair.second_id)], tournament)
    return {pair.pk: (players[pair.first_id] + players[pair.second_id]) / 2 for pair in pairs}


def _seat(tour: Tour, tables: Iterable[tuple[Pair, Pair]], bye: Pair | None = None) -> None:
    """Write the tables of a tour, pair A and pair B at their seats, and their partitions."""
    _write_tables(tour, [
        Table(tour=tour, number=n, pair_a=a, pair_b=b, **_seated({engine.Pair.A: (a.first_id, a.second_id),
                                                                   engine.Pair.B: (b.first_id, b.second_id)}))
        for n, (a, b) in enumerate(tables, 1)
    ])
    if bye is not None:
        Bye.objects.create(tour=tour, pair=bye)


def _draw_swiss(tournament: Tournament, tour: Tour) -> None:
    pairs = {p.pk: p for p in _active_pairs(tournament)}
    if len(pairs) < 2:
        raise ValidationError(_("A draw needs at least two active pairs."))
    if tour.number == 1:
        first = draw.swiss_first_tour(_seeding_order(tournament, tour, list(pairs.values())))
        _seat(tour, [(pairs[a], pairs[b]) for a, b in first.tables], pairs[first.bye] if first.bye else None)
        return
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
        pairs = list(Pair.objects.filter(pk__in=_pairs_in(first)).select_related("first", "second"))
    if len(pairs) < 2:
        raise ValidationError(_("A draw needs at least two active pairs."))
    # Berger numbers in seeding order; later tours reproduce tour 1's order (its random seed kept).
    by_id = {p.pk: p for p in pairs}
    pairs = [by_id[pk] for pk in _seeding_order(tournament, first or tour, pairs)]
    if tour.number > draw.tour_count(len(pairs)):
        raise ValidationError(_("The round robin is complete: %(count)s tours.") % {"count": draw.tour_count(len(pairs))})
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


def _pairs_in(tour: Tour) -> set[int]:
    """The ids of the pairs a tour of pairs draws: at its tables or given its byes."""
    tables = tour.tables.all()
    return {*tables.values_list("pair_a", flat=True), *tables.values_list("pair_b", flat=True),
            *tour.byes.values_list("pair", flat=True)}


def _draw_individual(tournament: Tournament, tour: Tour) -> None:
    players = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                   .values_list("player_id", flat=True))
    if len(players) < 4:
        raise ValidationError(_("An individual draw needs at least four active players."))
    active = set(players)
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for seated in Table.objects.filter(tour__tournament=tournament).exclude(tour=tour).values_list(*Table.SEAT_FIELDS):
        side = {pair: [seated[s - 1] for s in engine.seats_of(pair)] for pair in engine.Pair}
        for x, y in side.values():
            if x in active and y in active:
                partners[frozenset((x, y))] += 1
        for x in side[engine.Pair.A]:
            for y in side[engine.Pair.B]:
                if x in active and y in active:
                    opponents[frozenset((x, y))] += 1
    sit_outs = Counter(p for p in SitOut.objects.filter(tour__tournament=tournament).values_list("player", flat=True)
                       if p in active)
    try:
        result = draw.individual_tour(players, partners, opponents, sit_outs=sit_outs,
                                      scores=_player_wins(tournament, active), seed=tour.number)
    except draw.DrawError as error:
        raise _draw_error(error) from None
    # The pairs of this tour, formed by the draw's seats: pair A of each table numbered 1..count,
    # pair B count+1...
    count = len(result.tables)
    pairs = Pair.objects.bulk_create([
        Pair(tournament=tournament, tour=tour, number=count * k + n, first_id=seats[first - 1],
             second_id=seats[second - 1])
        for k, (first, second) in enumerate(engine.seats_of(pair) for pair in engine.Pair)
        for n, seats in enumerate(result.tables, 1)])
    _seat(tour, zip(pairs[:count], pairs[count:]))
    SitOut.objects.bulk_create([SitOut(tour=tour, player_id=p) for p in result.sitting_out])


def _draw_goat(tournament: Tournament, tour: Tour) -> None:
    """Goat, Sea Goat or points each for himself (RULES 9.1): the fewest tables of at most ``players``,
    sizes as equal as possible, repeat meetings avoided, players of similar standing together."""
    rules = tournament.rules
    players = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
                   .values_list("player_id", flat=True))
    if len(players) < 2:
        raise ValidationError(_("A draw of players each for himself needs at least two active players."))
    active = set(players)
    meetings: Counter[frozenset[int]] = Counter()
    for seated in Table.objects.filter(tour__tournament=tournament).exclude(tour=tour).values_list(*Table.SEAT_FIELDS):
        for two in combinations([p for p in seated if p in active], 2):
            meetings[frozenset(two)] += 1
    sit_outs = Counter(p for p in SitOut.objects.filter(tour__tournament=tournament).values_list("player", flat=True)
                       if p in active)
    # The first criterion of the game's standings: game points (Goat), games won (Sea Goat, points).
    score = engine.kind_of(rules).ranked_by
    scores = dict.fromkeys(players, 0)
    scores.update(SeatResult.objects.filter(partition__table__tour__tournament=tournament, player__in=active)
                  .values("player").annotate(total=Sum(score)).values_list("player", "total"))
    try:
        result = draw.goat_tour(players, rules.players, meetings, sit_outs=sit_outs, scores=scores, seed=tour.number)
    except draw.DrawError as error:
        raise _draw_error(error) from None
    _write_tables(tour, [
        Table(tour=tour, number=n, **{f"{field}_id": player for field, player in zip(Table.SEAT_FIELDS, seats)})
        for n, seats in enumerate(result.tables, 1)])
    SitOut.objects.bulk_create([SitOut(tour=tour, player_id=p) for p in result.sitting_out])


def _player_wins(tournament: Tournament, players: set[int]) -> dict[int, int]:
    """Wins of each player of an individual event: his pair's partition results."""
    wins: Counter[int] = Counter()
    for winner, *seated in Partition.objects.filter(
            table__tour__tournament=tournament, status=Partition.Status.FINISHED).exclude(winner="").values_list(
            "winner", *(f"table__{field}" for field in Table.SEAT_FIELDS)):
        for seat in engine.seats_of(winner):
            wins[seated[seat - 1]] += 1
    return {p: wins[p] for p in players}


@transaction.atomic
def set_tables(user: AnyUser, tour: Tour, tables: Sequence[tuple[int | None, int | None]], bye: int | None = None) -> Tour:
    """Seat a draft tour by hand: ``tables`` are (pair A, pair B) ids in table order. The whole
    seating is checked (a pair twice, an empty seat, a withdrawn or unknown pair) and replaces
    the draft's tables."""
    tournament = tour.tournament
    require_manage(user, tournament)
    locked(tournament)
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
def publish_tour(user: AnyUser, tour: Tour) -> Tour:
    """Publish a drafted tour: players and the public see its draw; it cannot be redrawn."""
    require_manage(user, tour.tournament)
    tournament = locked(tour.tournament)
    tour = Tour.objects.select_for_update().get(pk=tour.pk)
    if tour.status != Tour.Status.DRAFT:
        raise ValidationError(_("Tour %(number)s is already published.") % {"number": tour.number})
    if not tour.tables.exists():
        raise ValidationError(_("Tour %(number)s has no tables: draw or seat it first.") % {"number": tour.number})
    if tournament.format == Tournament.Format.ROUND_ROBIN and tour.number == 1:
        # Its pairs are the schedule's for good (_draw_round_robin).
        drawn = _pairs_in(tour)
        left_out = [pair.number for pair in _active_pairs(tournament) if pair.pk not in drawn]
        if left_out:
            raise ValidationError(_("Pairs %(numbers)s are not in tour 1, and the round robin's schedule is fixed "
                                    "when it is published: draw tour 1 again.")
                                  % {"numbers": ", ".join(f"№{number}" for number in sorted(left_out))})
    tour.status = Tour.Status.PUBLISHED
    tour.published_at = timezone.now()
    tour.save(update_fields=["status", "published_at"])
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return tour
