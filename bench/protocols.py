"""Protocol documents: render and sign one partition protocol, and the protocols of a whole tour of
128 tables through real Celery workers.

Run by hand: ``.venv/bin/python bench/protocols.py [--database-url URL] [--tables 128] [--workers 2]``.
It creates (or reuses) the database (PostgreSQL ``domino_bench_protocols`` by default), builds a
tournament of 2 x tables pairs with tour 1 drawn by the Swiss draw service and every partition
played at random, then:

1. times what issuing a partition protocol does — the sheet from the record, the HTML, WeasyPrint,
   the PAdES signature — for a random partition and for one of 30 deals (median of ``--runs``);
2. starts ``--workers`` Celery worker processes (one process each) on a queue of their own, with
   the configured broker (Redis when REDIS_URL is set, else the filesystem broker), and times
   ``start_tour_batch`` of the tour until its ZIP is ready.

``--sizes`` instead issues the tour protocol and the final protocol of that event, the largest
documents the system issues, and prints their sizes: the verification page's upload limit
(``UPLOAD_MAX_SIZE``) is set from them.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from benchdb import setup_django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/domino_bench_protocols")
    parser.add_argument("--tables", type=int, default=128)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sizes", action="store_true", help="print the sizes of the largest documents only")
    args = parser.parse_args()
    setup_django(args.database_url)
    from django.db import connection
    slug = f"bench-protocols-{args.tables}"
    from tournaments.models import Tournament
    tournament = Tournament.objects.filter(slug=slug).first() or build(slug, args.tables)
    if args.sizes:
        largest_documents(tournament)
        return
    print(f"{connection.vendor}, {args.tables} tables, broker {broker()}")
    one_partition(tournament, args.runs)
    whole_tour(tournament, args.workers)


def broker() -> str:
    from config import celery_app

    with celery_app.connection_for_write() as conn:
        return conn.transport.driver_type


def build(slug: str, tables: int):
    """Tour 1 of a Swiss event of 2 x tables pairs, drawn and published; table 1 plays 30 deals
    (summary form, two penalties, 213:198), every other partition is played at random; written as the recording services
    write them (the row and its change)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring import engine
    from scoring.engine.simulate import play_random_partition
    from scoring.models import Partition, PartitionChange
    from scoring.models import result_summary
    from scoring.recording.storage import store_state
    from tournaments import services
    from tournaments import tours
    from tournaments.models import Entry, Pair, Player

    started = time.perf_counter()
    user = get_user_model().objects.filter(username="bench").first() or \
        get_user_model().objects.create_superuser("bench", password="bench")
    tournament = services.create_tournament(user, name=f"Кубок {tables} столов", slug=slug,
                                            starts_on=datetime.date.today(), ends_on=datetime.date.today(),
                                            venue="Москва")
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(last_name=f"Игрок{n}", first_name="Иван")
                                             for n in range(tables * 4))
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
        Pair.objects.bulk_create(Pair(tournament=tournament, number=n + 1, first=players[2 * n],
                                      second=players[2 * n + 1]) for n in range(tables * 2))
    tour = tours.generate_tour(user, tournament)
    tours.publish_tour(user, tour)
    rules = tournament.rules
    for seed, partition in enumerate(Partition.objects.filter(table__tour=tour).order_by("table__number"), 1):
        if seed == 1:
            game = engine.Partition(rules, first_leader=1)
            for n in range(1, 29):
                game.record_deal("domino", 1 if n % 2 else 2, (5, 7))
                if n in (9, 12):
                    game.write_penalty(3 if n == 9 else 2, "conduct" if n == 9 else "touched_tile")
            game.record_deal("domino", 2, (2, 3))
            game.record_deal("domino", 1, (0, 20))
        else:
            game = play_random_partition(rules, seed=seed)
        before = result_summary(partition)
        store_state(partition, game)
        partition.version = 1
        partition.save()
        PartitionChange.objects.create(partition=partition, version=1, action="import", data={}, user=user,
                                       before=before, after=result_summary(partition), state=partition.state)
    print(f"built in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return tournament


def one_partition(tournament, runs: int) -> None:
    from scoring import protocols
    from scoring.protocols import signing
    from scoring.models import Partition

    key = signing.current_key(tournament)
    for label, partition in (
            ("30 deals", Partition.objects.get(table__tour__tournament=tournament, table__number=1)),
            ("random", Partition.objects.filter(table__tour__tournament=tournament, table__number__gt=1)
             .order_by("table__number").first())):
        phases = []
        for _ in range(runs + 1):
            t0 = time.perf_counter()
            sheet = protocols.partition_sheet(partition)
            code = protocols.issuing.new_code()
            url = protocols.issuing.verification_url("https://domino.example.org", code)
            html = protocols.rendering.render_html(sheet, document={"code": code, "url": url, "qr": protocols.rendering.qr_svg(url),
                                                          "issued_at": None, "issued_by": "", "key": key}, pdf=True)
            t1 = time.perf_counter()
            pdf = protocols.rendering.render_pdf(html)
            t2 = time.perf_counter()
            signed = signing.sign_pdf(pdf, key, code=code)
            t3 = time.perf_counter()
            phases.append((t3 - t0, t1 - t0, t2 - t1, t3 - t2))
        phases = phases[1:]  # the first run loads fonts and caches
        total, sheet_t, pdf_t, sign_t = (statistics.median(p[i] for p in phases) for i in range(4))
        print(f"partition protocol ({label}, {partition.deals} deals, {len(signed) // 1024} KiB): render and sign "
              f"median {total * 1000:.0f} ms (sheet and HTML {sheet_t * 1000:.0f}, WeasyPrint {pdf_t * 1000:.0f}, "
              f"signature {sign_t * 1000:.0f}), max {max(p[0] for p in phases) * 1000:.0f} ms over {runs} runs")


def largest_documents(tournament) -> None:
    from django.contrib.auth import get_user_model

    from scoring import protocols

    user = get_user_model().objects.get(username="bench")
    tour = tournament.tours.get(number=1)
    for label, document in (
            ("tour protocol", protocols.issue_tour_protocol(user, tour.pk, base_url="https://domino.example.org")),
            ("final protocol", protocols.issue_final_protocol(user, tournament.pk,
                                                             base_url="https://domino.example.org"))):
        print(f"{label} of {tournament.pairs.count()} pairs: {document.size} bytes ({document.size / 1024:.0f} KiB), "
              f"{bytes(document.pdf).count(b' obj')} objects")


def whole_tour(tournament, workers: int) -> None:
    from django.contrib.auth import get_user_model

    from scoring import protocols
    from scoring.models import ProtocolBatch, ProtocolDocument

    tour = tournament.tours.get(number=1)
    # Every run makes every document anew: a new key makes the earlier documents not reusable.
    from scoring.models import SigningKey
    SigningKey.objects.filter(tournament=tournament, retired_at__isnull=True).update(
        retired_at=datetime.datetime.now(datetime.timezone.utc))
    queue = f"bench-{uuid.uuid4().hex}"
    logs = Path(tempfile.mkdtemp(prefix="bench-protocols-"))
    env = {**os.environ, "CELERY_TASK_DEFAULT_QUEUE": queue}
    processes = []
    for n in range(workers):
        log = (logs / f"worker-{n}.log").open("wb")
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
             "-n", f"bench{n}@%h", "--loglevel=warning", "--without-heartbeat", "--without-gossip",
             "--without-mingle"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    try:
        time.sleep(8)  # let the workers start
        user = get_user_model().objects.get(username="bench")
        started = time.perf_counter()
        batch = protocols.start_tour_batch(user, tour.pk, base_url="https://domino.example.org", queue=queue)
        while True:
            batch.refresh_from_db()
            if batch.status in (ProtocolBatch.Status.READY, ProtocolBatch.Status.FAILED):
                break
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        size = len(ProtocolBatch.objects.values_list("archive", flat=True).get(pk=batch.pk) or b"")
        documents_made = ProtocolDocument.objects.filter(tour=tour, kind="partition", signing_key__retired_at__isnull=True).count()
        print(f"tour of {batch.total} tables, {workers} workers: {batch.status} in {elapsed:.1f} s "
              f"({batch.total / elapsed:.1f} tables/s), {documents_made} signed PDFs, ZIP {size / 2**20:.1f} MiB, "
              f"{batch.failed} failed")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    main()
