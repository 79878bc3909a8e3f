"""What a protocol prints is what happened: one running total of the deals and the penalties in
the order they counted, the same on the score sheet, the PDF and the API; each warning and
penalty at the time it happened (a clock's lapse at its deadline), read back from the signed PDF
as a reader sees it (issue 19, items 1 and 2)."""

from __future__ import annotations

import datetime
import re
import shutil

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from livetools import Clock, live_tour
from protocols_world import BASE_URL, pdf_of, pdf_text
from scoring import engine, protocols
from scoring.recording import pipeline
from scoring.live import play
from scoring.models import ClockLapse, Partition
from scoring.recording import clock, commands
from scoring.recording.sanctions import running_lines


def lines_of(game: engine.Partition) -> list[tuple[str, int, tuple[int, int], tuple[int, int]]]:
    return [(line.kind, line.after_deal, line.delta, line.totals) for line in running_lines(game)]


def test_a_penalty_counts_between_the_deal_it_follows_and_the_next():
    """The issue's table: deal 1 A +36, two penalties on pair A after it (B +50), deal 2 B +60;
    a repeated violation during deal 3 counts after deal 3's own score."""
    game = engine.Partition(engine.Regulations(target=200))
    game.draw_lead(1)
    game.record_deal("domino", 1, (0, 36))
    game.write_penalty(1, "signs")
    game.write_penalty(3, "touched_tile")
    game.record_deal("domino", 2, (60, 0))
    game.record_violation(4, "conduct")  # a warning: no line
    game.record_violation(4, "conduct", move=3)  # during deal 3: pending, no line yet
    assert lines_of(game) == [("deal", 1, (36, 0), (36, 0)), ("penalty", 1, (0, 25), (36, 25)),
                              ("penalty", 1, (0, 25), (36, 50)), ("deal", 2, (0, 60), (36, 110))]
    game.record_deal("fish", None, (10, 20))  # 30 to pair A, then the pending penalty: A +25
    assert lines_of(game)[4:] == [("deal", 3, (30, 0), (66, 110)), ("penalty", 3, (25, 0), (91, 110))]
    assert game.totals == (91, 110)


def test_a_penalty_before_the_first_deal_and_the_deduct_mode_are_lines_too():
    game = engine.Partition(engine.Regulations(target=100, penalty_mode="deduct_offenders"))
    game.draw_lead(2)
    game.write_penalty(2, "moved_tiles")  # pair B loses 25 before anything is scored
    game.record_deal("domino", 1, (0, 40))
    game.record_deal("fish", None, (12, 12))  # a drawn fish: nobody scores
    assert lines_of(game) == [("penalty", 0, (0, -25), (0, -25)), ("deal", 1, (40, 0), (40, -25)),
                              ("deal", 2, (0, 0), (40, -25))]


@pytest.fixture
def clock_table(db):
    """Table 1 at the referee's clock (target 100): two lapses of seat 2's lead at deadlines the
    sweep records seconds late, deal 1 (A +30), a warning and a penalty the referee writes after
    it, deal 2 (B +50), deal 3 (A +50): 105 : 75."""
    world = live_tour("clock")
    ref, pk = world["ref"], world["p1"].pk
    fake = Clock()
    with clock.use(fake):
        play.start_tour(world["chief"], world["tour"])
        play.start_partition(ref, pk, 2)
        deadlines = []
        for late in (7, 3):  # the sweep comes late: the lapse happened at its deadline all the same
            deadline = Partition.objects.get(pk=pk).live.deadline
            deadlines.append(deadline)
            fake.to(deadline + datetime.timedelta(seconds=late))
            assert pipeline.sweep() == 1
        play.clock_deal_result(ref, pk, "domino", 3, {"A": 0, "B": 30})
        commands.record(ref, pk, "violation", {"seat": 3, "code": "conduct"})
        commands.record(ref, pk, "penalty", {"seat": 1, "code": "signs"})
        play.clock_deal_result(ref, pk, "domino", 2, {"A": 50, "B": 0})
        partition = play.clock_deal_result(ref, pk, "domino", 1, {"A": 0, "B": 50})
    assert partition.is_finished and (partition.points_a, partition.points_b) == (105, 75)
    assert [lapse.deadline for lapse in ClockLapse.objects.filter(partition=partition).order_by("pk")] == deadlines
    written = [c.at for c in partition.changes.filter(action__in=["violation", "penalty"]).order_by("version")]
    return {**world, "partition": partition, "times": [*deadlines, *written]}


EXPECTED_LINES = [("deal", "A +30", 30, 0), ("penalty", "A +25", 55, 0), ("penalty", "B +25", 55, 25),
                  ("deal", "B +50", 55, 75), ("deal", "A +50", 105, 75)]


def hms(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M:%S")


def test_every_reader_shows_the_one_running_total_and_each_violation_when_it_happened(clock_table):
    partition = clock_table["partition"]
    sheet = protocols.partition_sheet(partition)
    assert [(line["kind"], line["delta"], line["total_a"], line["total_b"]) for line in sheet["lines"]] == EXPECTED_LINES
    assert [(e["code"], e["consequence"]) for e in sheet["entries"]] == [
        ("move_time", "warning"), ("move_time", "penalty"), ("conduct", "warning"), ("signs", "penalty")]
    assert [e["at"] for e in sheet["entries"]] == [timezone.localtime(t) for t in clock_table["times"]]

    client = Client()
    client.force_login(clock_table["chief"])
    base = f"/en/tournaments/{clock_table['tournament'].slug}/tours/1/tables/1"
    page = client.get(f"{base}/sheet/").content.decode()
    totals = re.findall(r"<strong>(\d+) : (\d+)</strong>", page)
    assert [(int(a), int(b)) for a, b in totals] == [(a, b) for _k, _d, a, b in EXPECTED_LINES]
    assert re.findall(r"<time datetime=[^>]*>([\d:]+)</time>", page) == [hms(t) for t in clock_table["times"]]

    answer = client.get(f"/api/partitions/{partition.pk}/").json()
    assert [(line["kind"], line["deal"], line["points"], line["totals"]) for line in answer["lines"]] == [
        (kind, deal, dict(zip("AB", delta)), dict(zip("AB", total))) for kind, deal, delta, total in
        [("deal", 1, (30, 0), (30, 0)), ("penalty", 1, (25, 0), (55, 0)), ("penalty", 1, (0, 25), (55, 25)),
         ("deal", 2, (0, 50), (55, 75)), ("deal", 3, (50, 0), (105, 75))]]


def printed_rows(text: str, start: str, end: str) -> list[str]:
    """The lines of the PDF's text between the headings ``start`` and ``end``."""
    section = text.split(start, 1)[1].split(end, 1)[0]
    return [row for row in section.splitlines() if row.strip()]


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)")
def test_the_signed_pdf_adds_up_and_prints_each_violation_at_its_time(clock_table, tmp_path):
    document = protocols.issue_partition_protocol(clock_table["chief"], clock_table["partition"].pk,
                                                  base_url=BASE_URL)
    text = pdf_text(pdf_of(document), tmp_path)
    with translation.override("ru"):  # the headings, in capitals as the stylesheet prints them
        lines, entries, score = (gettext("Deals and penalties").upper(), gettext("Warnings and penalties").upper(),
                                 gettext("Final score"))
    # The running total: each row's totals are the previous row's plus what the row scored.
    totals, rows = (0, 0), 0
    for row in printed_rows(text, lines, entries):
        found = re.search(r"\b([AB]) ([+-]\d+)\s.*?(-?\d+)\s+(-?\d+)\s*$", row)
        if found is None:
            continue  # the header, a wrapped name
        pair, points, a, b = found.group(1), int(found.group(2)), int(found.group(3)), int(found.group(4))
        totals = (totals[0] + points, totals[1]) if pair == "A" else (totals[0], totals[1] + points)
        assert (a, b) == totals, row
        rows += 1
    assert rows == len(EXPECTED_LINES) and totals == (105, 75)
    assert "A 105 : 75 B" in text
    # Each warning and penalty at the time it happened, in the order written.
    printed = [re.match(r"\s*(\d\d:\d\d:\d\d)\s", row)
               for row in printed_rows(text, entries, score)]
    assert [m.group(1) for m in printed if m] == [hms(t) for t in clock_table["times"]]
