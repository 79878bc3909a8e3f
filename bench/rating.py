"""Rating 10,000 players over 100,000 sports partitions (tournaments.rating).

Run by hand: ``.venv/bin/python bench/rating.py [--database-url URL]`` (default: an SQLite file
under var/, created and migrated). It builds, once, 100 tournaments of 10 finished tours of 100
tables (players drawn at random from the 10,000, winners at random), written with bulk inserts,
then times ``refresh("sports")`` from an empty rating (every rating and history row written),
and again on the same results (compared, nothing written).
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
import time
from pathlib import Path

from benchdb import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", default=f"sqlite:///{ROOT / 'var' / 'bench-rating.sqlite3'}")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--tours", type=int, default=10)
    parser.add_argument("--tables", type=int, default=100)
    args = parser.parse_args()
    setup_django(args.database_url)
    from django.db import connection

    from scoring.models import Partition
    from tournaments import rating
    from tournaments.models import Rating, RatingChange

    if not Partition.objects.filter(table__tour__tournament__slug__startswith="bench-rating-").exists():
        build(args.players, args.tournaments, args.tours, args.tables)
    partitions = Partition.objects.filter(status="finished").count()
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    clock = Clock()
    results = rating.results("sports")
    read = clock.lap()
    computed = rating.compute.compute(results)
    rated = clock.lap()
    assert rating.refresh("sports") is True
    first = clock.lap()
    assert rating.refresh("sports") is False
    second = clock.lap()
    print(f"{connection.vendor}: {Rating.objects.count()} players rated over {partitions} partitions "
          f"({RatingChange.objects.count()} history rows)")
    print(f"reading the results {read}, rating them {rated} ({len(computed.changes)} updates)")
    print(f"refresh from empty (read, rate, write): {first}; again, unchanged (read, rate, compare): {second}")


class Clock:
    """Wall and CPU time of each step: on a shared machine the wall time says little alone."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self) -> str:
        wall, cpu = time.perf_counter(), time.process_time()
        lap = f"{wall - self.wall:.1f} s ({cpu - self.cpu:.1f} s CPU)"
        self.wall, self.cpu = wall, cpu
        return lap


def build(players: int, tournaments: int, tours: int, tables: int) -> None:
    """The results, written straight into the tables the ratings read (no draw, no deals)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from scoring.models import Partition
    from tournaments.models import Player, Table, Tour, Tournament

    started = time.perf_counter()
    rng = random.Random(2026)
    user = get_user_model().objects.filter(username="bench").first() or \
        get_user_model().objects.create_superuser("bench", password="bench")
    with transaction.atomic():
        people = [p.pk for p in Player.objects.bulk_create(
            Player(last_name=f"Player {n}") for n in range(players))]
        day = datetime.date(2024, 1, 6)
        for t in range(tournaments):
            starts = day + datetime.timedelta(days=7 * t)
            tournament = Tournament.objects.create(name=f"Bench {t}", slug=f"bench-rating-{t}", starts_on=starts,
                                                   ends_on=starts, status=Tournament.Status.FINISHED,
                                                   created_by=user)
            field = rng.sample(people, tables * 4)
            start = timezone.make_aware(datetime.datetime.combine(starts, datetime.time(10)))
            made = Tour.objects.bulk_create(
                Tour(tournament=tournament, number=n, status=Tour.Status.FINISHED,
                     started_at=start + datetime.timedelta(hours=n)) for n in range(1, tours + 1))
            rows = []
            for tour in made:
                rng.shuffle(field)
                rows += [Table(tour=tour, number=k + 1, seat1_id=field[4 * k], seat2_id=field[4 * k + 1],
                               seat3_id=field[4 * k + 2], seat4_id=field[4 * k + 3]) for k in range(tables)]
            Partition.objects.bulk_create(
                Partition(table=table, status=Partition.Status.FINISHED, reason="target",
                          winner=rng.choice("AB"), points_a=0, points_b=0) for table in Table.objects.bulk_create(rows))
    print(f"built in {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
