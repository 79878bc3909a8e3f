"""The paper before a tour: the blank protocols of every table of a tour in one PDF, and the
seating list, for tours of 8 and 128 tables.

Run by hand: ``.venv/bin/python bench/paper.py [--database-url URL] [--tables 8 128] [--runs 3]``.
It creates (or reuses) the database (SQLite ``/tmp/domino_bench_paper.sqlite3`` by default),
builds per size a Swiss event of 2 x tables pairs with tour 1 drawn, and prints the median time
of :func:`scoring.protocols.paper.tour_forms` and :func:`~scoring.protocols.paper.seating_list`
(target: 8 tables under 5 s) with the PDFs' sizes. For a tour larger than
:data:`~scoring.protocols.paper.DIRECT_TABLES` it also times the batch path: the request that
starts it (:func:`~scoring.protocols.batches.start_paper_batch`) and the Celery task laying the
forms out (run in this process, eagerly: the task function a worker runs), with the PDF's pages.
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


def build(slug: str, tables: int):
    from django.contrib.auth import get_user_model

    from tournaments import services, tours

    organiser = get_user_model().objects.filter(is_superuser=True, username="bench-paper").first() or \
        get_user_model().objects.create_superuser("bench-paper", password=None)
    tournament = services.create_tournament(organiser, name="Кубок клуба по спортивному домино", slug=slug,
                                            format="swiss", starts_on=datetime.date(2026, 11, 21),
                                            ends_on=datetime.date(2026, 11, 22), regulations=None)
    for n in range(1, 2 * tables + 1):
        services.register_pair(organiser, tournament, {"last_name": f"Иванов{n}", "first_name": "Пётр"},
                               {"last_name": f"Петрова{n}", "first_name": "Анна"})
    tours.generate_tour(organiser, tournament)
    return tournament


def timed(function, runs: int) -> tuple[float, int]:
    times, size = [], 0
    for _run in range(runs):
        started = time.perf_counter()
        size = len(function())
        times.append(time.perf_counter() - started)
    return statistics.median(times), size


def timed_batch(organiser, tour) -> tuple[float, float, float, int]:
    """The paper batch of ``tour`` from scratch: the seconds of its start (the request), of its
    task (the worker) and the CPU seconds of that task (what a busy machine does not stretch),
    and the pages of its PDF."""
    import io

    from django.db import transaction
    from pyhanko.pdf_utils.reader import PdfFileReader

    from config import celery_app
    from scoring.models import ProtocolBatch
    from scoring.protocols import batches

    ProtocolBatch.objects.filter(tour=tour, kind=ProtocolBatch.Kind.PAPER).delete()  # else the same batch comes back
    celery_app.conf.task_always_eager = True
    started = time.perf_counter()
    with transaction.atomic():
        batch = batches.start_paper_batch(organiser, tour.pk, base_url="https://example.org")
        sent, cpu = time.perf_counter(), time.process_time()
    finished, cpu = time.perf_counter(), time.process_time() - cpu  # the task ran (eagerly) on the commit
    batch.refresh_from_db()
    assert batch.status == ProtocolBatch.Status.READY and batch.done == batch.total, (batch.status, batch.error)
    pages = int(PdfFileReader(io.BytesIO(bytes(batch.archive))).root["/Pages"]["/Count"])
    return sent - started, finished - sent, cpu, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="sqlite:////tmp/domino_bench_paper.sqlite3")
    parser.add_argument("--tables", type=int, nargs="+", default=[8, 128])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch-only", action="store_true", help="time only the batch path of the large tours")
    args = parser.parse_args()
    setup_django(args.database_url)
    from scoring.protocols import paper
    from tournaments.models import Tournament

    for tables in args.tables:
        slug = f"bench-paper-{tables}"
        tournament = Tournament.objects.filter(slug=slug).first() or build(slug, tables)
        tour = tournament.tours.get(number=1)
        organiser = tournament.roles.get(kind="organiser").user
        if not args.batch_only:
            forms, forms_size = timed(lambda: paper.tour_forms(organiser, tour, base_url="https://example.org"),
                                      args.runs)
            seating, seating_size = timed(lambda: paper.seating_list(organiser, tour), args.runs)
            print(f"{tables} tables: forms {forms:.2f} s ({forms_size // 1024} KiB), "
                  f"seating list {seating:.2f} s ({seating_size // 1024} KiB), median of {args.runs}")
        if tables > paper.DIRECT_TABLES:
            start, work, cpu, pages = timed_batch(organiser, tour)
            print(f"{tables} tables by a batch: its start (the request) {start:.2f} s, "
                  f"the worker's task {work:.2f} s ({cpu:.2f} s CPU), {pages} pages in one PDF")


if __name__ == "__main__":
    main()
