"""Standings of a large Swiss event on PostgreSQL: 1,024 pairs after 9 tours (4,608 partitions,
each with its deals in the engine state).

Run by hand: ``.venv/bin/python bench/standings.py [--database-url URL]``. It creates (or
reuses) the database ``domino_bench``, draws the 9 tours with the real Swiss draw service, fills
every partition with a randomly played one, then times ``pair_standings`` and counts its queries.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

from benchdb import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/domino_bench")
    parser.add_argument("--pairs", type=int, default=1024)
    parser.add_argument("--tours", type=int, default=9)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    setup_django(args.database_url)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Tournament
    from tournaments.standings import pair_standings

    slug = f"bench-{args.pairs}-{args.tours}"
    tournament = Tournament.objects.filter(slug=slug).first() or build(slug, args.pairs, args.tours)
    from scoring.models import Partition
    partitions = Partition.objects.filter(table__tour__tournament=tournament, status="finished").count()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        rows = pair_standings(tournament)
        times.append(time.perf_counter() - start)
    with CaptureQueriesContext(connection) as queries:
        pair_standings(tournament)
    print(f"PostgreSQL {connection.pg_version // 10000}: {len(rows)} pairs, {partitions} finished partitions")
    print(f"pair_standings: median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms over {args.runs} runs, {len(queries)} queries")


def build(slug: str, pairs: int, tour_count: int):
    """The event, through the real draw service; results written as the recording services do."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring.engine.simulate import play_random_partition
    from scoring.models import Partition
    from scoring.recording.storage import store_state
    from tournaments import services
    from tournaments import tours
    from tournaments.models import Entry, Pair, Player, Tour

    started = time.perf_counter()
    user = get_user_model().objects.filter(username="bench").first() or \
        get_user_model().objects.create_superuser("bench", password="bench")
    tournament = services.create_tournament(user, name=slug, slug=slug, starts_on=datetime.date.today(),
                                            ends_on=datetime.date.today())
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(last_name=f"Player {slug} {n}") for n in range(pairs * 2))
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
        Pair.objects.bulk_create(Pair(tournament=tournament, number=n + 1, first=players[2 * n],
                                      second=players[2 * n + 1]) for n in range(pairs))
    rules = tournament.rules
    seed = 0
    for number in range(1, tour_count + 1):
        tour = tours.generate_tour(user, tournament)
        tours.publish_tour(user, tour)
        batch = []
        for partition in Partition.objects.filter(table__tour=tour):
            seed += 1
            store_state(partition, play_random_partition(rules, seed=seed))
            partition.version = 1
            batch.append(partition)
        Partition.objects.bulk_update(batch, ["state", "points_a", "points_b", "penalties_a", "penalties_b",
                                              "deals", "winner", "reason", "status", "started_at", "finished_at",
                                              "version", "current"], batch_size=500)
        Tour.objects.filter(pk=tour.pk).update(status=Tour.Status.FINISHED)
        print(f"tour {number} drawn and played", file=sys.stderr)
    print(f"built in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return tournament


if __name__ == "__main__":
    main()
