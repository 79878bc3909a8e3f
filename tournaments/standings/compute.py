"""The standings' numbers, summed in the database (grouped queries, a handful whatever the size
of the event); the metrics that compare entrants with each other (Buchholz, head-to-head) come
from the list of meetings.

"After tour N" counts the finished partitions of tours 1..N: the standings as they stood then.
Without a tour, every finished partition counts: the live standings during a tour.

Goat, Sea Goat and points (RULES 9) sum the players' :class:`~scoring.models.SeatResult` rows of
the finished partitions instead (a pair's: its player in seat 1 or 2; partners get the same).
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Max, Q, QuerySet, Sum

from scoring import engine
from scoring.models import Partition, SeatResult
from tournaments.models import Bye, Entry, Pair, SitOut, Table, Tour, Tournament

from .metrics import Row, metrics_of, rank


def _finished(tournament: Tournament, after_tour: int | None) -> QuerySet[Partition]:
    partitions = Partition.objects.filter(table__tour__tournament=tournament, status=Partition.Status.FINISHED)
    if after_tour is not None:
        partitions = partitions.filter(table__tour__number__lte=after_tour)
    return partitions


def _add_byes(tournament: Tournament, rows: dict[int, Row], after_tour: int | None, members: dict[int, tuple[int, ...]]) -> None:
    """A bye is a win worth ``bye_points`` tournament points and 0:0 in domino points (RULES 8),
    for the pair, or for both its players."""
    byes = Bye.objects.filter(tour__tournament=tournament)
    if after_tour is not None:
        byes = byes.filter(tour__number__lte=after_tour)
    points = tournament.rules.bye_award
    for pair_id in byes.values_list("pair_id", flat=True):
        for key in members.get(pair_id, ()):
            if key in rows:
                rows[key].wins += 1
                rows[key].byes += 1
                rows[key].tournament_points += points


def _sums(partitions: QuerySet[Partition], rows: dict[int, Row], sides: dict[str, str], win_points: int) -> None:
    """Add the grouped sums of ``partitions`` to ``rows``: ``sides`` maps a column that names the
    entrant (``table__pair_a``, ``table__seat1``, ...) to the side (``"a"``/``"b"``) he played; a
    won partition is worth ``win_points`` tournament points."""
    for column, side in sides.items():
        other = "b" if side == "a" else "a"
        grouped = partitions.values(column).annotate(
            played=Count("pk"), won=Count("pk", filter=Q(winner=side.upper())),
            scored=Sum(f"points_{side}"), conceded=Sum(f"points_{other}"), penalised=Sum(f"penalties_{side}"))
        for g in grouped:
            row = rows.get(g[column])
            if row is not None:
                row.played += g["played"]
                row.wins += g["won"]
                row.tournament_points += g["won"] * win_points
                row.points_for += g["scored"]
                row.points_against += g["conceded"]
                row.penalties += g["penalised"]


def _seat_sums(results: QuerySet[SeatResult], rows: dict[int, Row], column: str) -> None:
    """Add the grouped sums of the seat ``results`` to ``rows`` by ``column`` (who they are of)."""
    for g in results.values(column).annotate(played=Count("pk"), points=Sum("game_points"), goats=Sum("goats"),
                                             score=Sum("score"), won=Sum("games_won")):
        row = rows.get(g[column])
        if row is not None:
            row.played += g["played"]
            row.game_points += g["points"]
            row.goats += g["goats"]
            row.score += g["score"]
            row.games_won += g["won"]


def _seat_results(tournament: Tournament, after_tour: int | None) -> QuerySet[SeatResult]:
    return SeatResult.objects.filter(partition__in=_finished(tournament, after_tour))


def pair_standings(tournament: Tournament, after_tour: int | None = None) -> list[Row]:
    """Standings of the fixed pairs of a pair event (withdrawn pairs keep their line)."""
    pairs = dict(Pair.objects.filter(tournament=tournament, tour__isnull=True).values_list("pk", "number"))
    rows = {pk: Row(pk) for pk in pairs}
    if tournament.kind.sittings:
        results = _seat_results(tournament, after_tour)
        _seat_sums(results.filter(seat=1), rows, "partition__table__pair_a")
        _seat_sums(results.filter(seat=2), rows, "partition__table__pair_b")
        return rank(rows, tournament.rules.standings, pairs, metrics_of(tournament.rules))
    partitions = _finished(tournament, after_tour)
    _sums(partitions, rows, {"table__pair_a": "a", "table__pair_b": "b"}, tournament.rules.win_points)
    for a, b, winner in partitions.values_list("table__pair_a", "table__pair_b", "winner"):
        if a in rows:
            rows[a].meetings.append(((b,), winner == "A"))
        if b in rows:
            rows[b].meetings.append(((a,), winner == "B"))
    _add_byes(tournament, rows, after_tour, {pk: (pk,) for pk in pairs})
    return rank(rows, tournament.rules.standings, pairs)


def player_standings(tournament: Tournament, after_tour: int | None = None) -> list[Row]:
    """Standings of players: each gets his pair's partition results (RULES 8)."""
    players = list(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    rows = {pk: Row(pk) for pk in players}
    if tournament.kind.sittings:
        _seat_sums(_seat_results(tournament, after_tour), rows, "player")
        return rank(rows, tournament.rules.standings, metrics=metrics_of(tournament.rules))
    partitions = _finished(tournament, after_tour)
    seat_of = {seat: f"table__{field}" for seat, field in zip(engine.SEATS, Table.SEAT_FIELDS)}
    _sums(partitions, rows, {seat_of[seat]: pair.lower() for pair in engine.Pair for seat in engine.seats_of(pair)},
          tournament.rules.win_points)
    for winner, *seated in partitions.values_list("winner", *seat_of.values()):
        side = {pair: tuple(seated[seat - 1] for seat in engine.seats_of(pair)) for pair in engine.Pair}
        for pair, opponents in ((engine.Pair.A, side[engine.Pair.B]), (engine.Pair.B, side[engine.Pair.A])):
            for me in side[pair]:
                if me in rows:
                    rows[me].meetings.append((opponents, winner == pair))
    members: dict[int, tuple[int, ...]] = defaultdict(tuple)
    for pair_id, first, second in Pair.objects.filter(tournament=tournament).values_list("pk", "first", "second"):
        members[pair_id] = (first, second)
    _add_byes(tournament, rows, after_tour, members)
    return rank(rows, tournament.rules.standings)


def withdrawals(tournament: Tournament, kind: str, after_tour: int | None = None) -> dict[int, int]:
    """The withdrawn entrants of the standings of ``kind`` (``"pairs"``: fixed pairs; ``"players"``)
    and the last published tour each was drawn in (at a table, a bye or sitting out; 0: none), the
    tour he withdrew after (RULES 8: marked wherever he is ranked). After tour N, a withdrawal after
    a later tour is not yet one."""
    if kind == "pairs":
        ids = list(Pair.objects.filter(tournament=tournament, tour__isnull=True, withdrawn_at__isnull=False)
                   .values_list("pk", flat=True))
        sources: tuple[tuple[type[Table | Bye | SitOut], str], ...] = (
            (Table, "pair_a"), (Table, "pair_b"), (Bye, "pair"))
    else:
        ids = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=False)
                   .values_list("player_id", flat=True))
        sources = (*((Table, field) for field in Table.SEAT_FIELDS), (SitOut, "player"), (Bye, "pair__first"),
                   (Bye, "pair__second"))
    last = dict.fromkeys(ids, 0)
    if not ids:
        return last
    for model, column in sources:
        drawn = (model.objects.filter(tour__tournament=tournament, **{f"{column}__in": ids})
                 .exclude(tour__status=Tour.Status.DRAFT).values(column).annotate(last=Max("tour__number")))
        for key, number in drawn.values_list(column, "last"):
            last[key] = max(last[key], number)
    return {key: n for key, n in last.items() if after_tour is None or n <= after_tour}
