"""What a player played, across tournaments or in one: each tour's table, seat, partner,
opponents and result, as the standings read them (the partition's stored points and winner; a
Goat, Sea Goat or points table: his :class:`~scoring.models.SeatResult`), his byes and the tours
he sat out, and his confirmed protocols. Only what the viewer may see: published tours, and the
draft ones of his own staff; the protocols for those who may read them (the player's own account
and the tournament's staff, :func:`tournaments.permissions.can_read_partition_protocol`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from django.db.models import Q, QuerySet

from scoring import engine
from scoring.models import Partition, ProtocolDocument, SeatResult
from tournaments import permissions
from tournaments.models import Bye, Entry, Player, SitOut, Table, Tour, Tournament

from tournaments.names import query_words
from tournaments.permissions import AnyUser


def find(user: AnyUser, query: str) -> QuerySet[Player]:
    """The players ``user`` may see whose name (in Cyrillic or any Latin spelling of
    :mod:`.names`) or federation id holds every word of ``query``; none for an empty query."""
    words = query_words(query)
    if not words:
        return Player.objects.none()
    players = permissions.visible_players(user)
    for word in words:
        players = players.filter(search_key__icontains=word)
    return players.order_by("last_name", "first_name", "pk")


@dataclass
class Played:
    """One tour of a player: his table (none for a bye or a tour sat out), seat, partner and
    opponents (at a Goat table each for himself: no partner, every other player), and what the
    stored results say of it."""

    tour: Tour
    table: Table | None = None
    seat: int | None = None
    partner: Player | None = None
    opponents: tuple[Player, ...] = ()
    bye: bool = False
    seat_result: SeatResult | None = None  # Goat, Sea Goat and points tables
    protocol: ProtocolDocument | None = None  # the newest confirmed one, for those who may read it

    @property
    def partition(self) -> Partition | None:
        return None if self.table is None else self.table.partition

    @property
    def finished(self) -> bool:
        return self.partition is not None and self.partition.is_finished

    @property
    def side(self) -> str:
        """``"A"`` or ``"B"`` at a table of pairs, else empty."""
        return str(engine.pair_of(self.seat)) if self.table is not None and self.table.pair_a_id and self.seat else ""

    @property
    def points(self) -> tuple[int, int] | None:
        """His pair's points and the opponents', once a partition of pairs is finished."""
        partition = self.partition
        if not self.finished or not self.side or self.seat_result is not None:
            return None
        assert partition is not None
        own, other = (partition.points_a, partition.points_b)
        return (own, other) if self.side == "A" else (other, own)

    @property
    def won(self) -> bool | None:
        """Won (a bye is a win, RULES 8) or lost a partition of pairs; None: not finished, or a
        sitting (whose result is its numbers)."""
        if self.bye:
            return True
        if self.points is None:
            return None
        assert self.partition is not None
        return self.partition.winner == self.side


@dataclass
class TournamentHistory:
    tournament: Tournament
    entry: Entry
    tours: list[Played] = field(default_factory=list)

    @property
    def next(self) -> Played | None:
        """His next table: the first of a tour not finished whose partition is not finished."""
        return next((p for p in self.tours if p.table is not None and not p.finished
                     and p.tour.status != Tour.Status.FINISHED), None)

    @property
    def protocols(self) -> list[Played]:
        return [p for p in self.tours if p.protocol is not None]


def _seating(played: Played, player: Player) -> None:
    table = played.table
    assert table is not None
    if table.pair_a_id is None:
        players = table.players
        played.seat = next(n for n, p in enumerate(players, 1) if p.pk == player.pk)
        played.opponents = tuple(p for p in players if p.pk != player.pk)
        return
    seats = table.seats
    played.seat = seat = next(n for n, p in enumerate(seats, 1) if p.pk == player.pk)
    played.partner = seats[engine.partner_of(seat) - 1]
    played.opponents = tuple(seats[s - 1] for s in engine.seats_of(engine.rules.other_pair(engine.pair_of(seat))))


def history(user: AnyUser, player: Player, tournament: Tournament | None = None) -> list[TournamentHistory]:
    """Every tournament ``player`` entered that ``user`` may see (or only ``tournament``), newest
    first, each with its tours in order."""
    tournaments = permissions.visible_tournaments(user)
    if tournament is not None:
        tournaments = tournaments.filter(pk=tournament.pk)
    entries = Entry.objects.filter(player=player, tournament__in=tournaments).select_related("tournament")
    found = {e.tournament_id: TournamentHistory(e.tournament, e) for e in entries}
    if not found:
        return []
    where = {"tour__tournament__in": list(found)}

    @cache
    def visible(tour: Tour) -> bool:
        return permissions.can_see_tour(user, tour)

    @cache
    def reads_protocols(tournament_id: int) -> bool:
        return (user.is_authenticated and player.user_id == user.pk) or permissions.is_staff(
            user, found[tournament_id].tournament)

    played: list[Played] = []
    tables = (Table.objects.filter(Q(seat1=player) | Q(seat2=player) | Q(seat3=player) | Q(seat4=player), **where)
              .select_related("tour", "partition", "seat1", "seat2", "seat3", "seat4"))
    for table in tables:
        one = Played(table.tour, table)
        _seating(one, player)
        played.append(one)
    byes = Bye.objects.filter(Q(pair__first=player) | Q(pair__second=player), **where).select_related(
        "tour", "pair__first", "pair__second")
    for bye in byes:
        partner = bye.pair.second if bye.pair.first_id == player.pk else bye.pair.first
        played.append(Played(bye.tour, partner=partner, bye=True))
    played += [Played(s.tour) for s in SitOut.objects.filter(player=player, **where).select_related("tour")]
    for one in played:
        one.tour.tournament = found[one.tour.tournament_id].tournament
    played = [p for p in played if visible(p.tour)]

    partitions = {p.partition.pk: p for p in played if p.partition is not None}
    for result in SeatResult.objects.filter(player=player, partition__in=list(partitions)):
        partitions[result.partition_id].seat_result = result
    readable = [pk for pk, p in partitions.items() if reads_protocols(p.tour.tournament_id)]
    documents = (ProtocolDocument.objects.filter(kind=ProtocolDocument.Kind.PARTITION, confirmed=True,
                                                 partition__in=readable)
                 .defer("pdf").order_by("partition", "-created_at", "-pk"))
    for document in documents:
        one = partitions[document.partition_id]  # type: ignore[index]
        if one.protocol is None:
            one.protocol = document

    for one in played:
        found[one.tour.tournament_id].tours.append(one)
    for item in found.values():
        item.tours.sort(key=lambda p: p.tour.number)
    return sorted(found.values(), key=lambda h: (-h.tournament.starts_on.toordinal(), h.tournament.name, h.tournament.pk))
