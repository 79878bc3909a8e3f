"""The crosstable and the standings' files (XLSX, PDF), on hand-computed events: a round robin (the
square table), a Swiss with a bye, a no-show and a withdrawal, an individual event (partners and
sit-outs) and a Goat event (places at tables of 3 and 2). Every expectation is worked out in the
comments from the results the test writes."""

from __future__ import annotations

import io
import shutil
import subprocess

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Partition
from scoring.protocols.crosstable import crosstable_pdf
from tournaments import services, tours
from tournaments.models import Pair, Player, SitOut, Table, Tour, Tournament
from tournaments.standings import Result, crosstable, crosstable_xlsx, standings_table

from builders import finish_tour, tournament, user
from test_goat_event import played  # noqa: F401  (a fixture)
from test_standings import seat
from scoring.recording import commands

pytestmark = pytest.mark.django_db

W, L, BYE, NS, WNS, WD, OUT = (Result.WIN, Result.LOSS, Result.BYE, Result.NO_SHOW, Result.WIN_BY_NO_SHOW,
                               Result.WITHDRAWN, Result.SIT_OUT)


def cells(ct):
    """(number, rank, [(result, opponents, points), ...]) of every line."""
    return [(line.number, line.rank, [(c.result, c.opponents, c.points) for c in line.cells]) for line in ct.lines]


def column(ct, key):
    i = [c.key for c in ct.columns].index(key)
    return [line.values[i] for line in ct.lines]


@pytest.fixture
def round_robin():
    """Four pairs, every pair meets every other once:
    tour 1: 1-2 200:100, 3-4 150:200; tour 2: 1-3 120:200, 2-4 200:180; tour 3: 1-4 200:190, 2-3 170:200."""
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, format=Tournament.Format.ROUND_ROBIN, slug="rr")
    seat(org, t, [(1, 2, 200, 100), (3, 4, 150, 200)])
    seat(org, t, [(1, 3, 120, 200), (2, 4, 200, 180)])
    seat(org, t, [(1, 4, 200, 190), (2, 3, 170, 200)])
    return t


def test_round_robin_has_the_square_table_by_rank(round_robin):
    ct = crosstable(round_robin)
    # Wins, then difference: 3 (2, +60: 550:490), 1 (2, +30: 520:490), 4 (1, +20: 570:550), 2 (1, -110: 470:580).
    assert [(line.number, line.rank) for line in ct.lines] == [(3, 1), (1, 2), (4, 3), (2, 4)]
    assert column(ct, "tournament_points") == [2, 2, 1, 1]
    assert column(ct, "points_difference") == [60, 30, 20, -110]
    assert column(ct, "points_against") == [490, 490, 550, 580]
    # Rows and columns in the order 3, 1, 4, 2; each cell the row's points first; the diagonal blank.
    square = [[None if cs is None else [c.text for c in cs] for cs in row] for row in ct.square]
    assert square == [
        [None, ["200:120"], ["150:200"], ["200:170"]],
        [["120:200"], None, ["200:190"], ["200:100"]],
        [["200:150"], ["190:200"], None, ["180:200"]],
        [["170:200"], ["100:200"], ["200:180"], None],
    ]
    # The same numbers as the standings, in the same columns.
    standings = standings_table(round_robin)
    assert ct.columns == standings.summary_columns
    assert [line.values for line in ct.lines] == [standings.values(line, ct.columns) for line in standings.lines]


def test_round_robin_on_the_page_and_in_the_workbook(round_robin, client):
    page = client.get("/tournaments/rr/crosstable/").content.decode()
    assert "Кросс-таблица" in page and "200:120" in page and 'class="x-diagonal"' in page
    assert '/tournaments/rr/crosstable/xlsx/' in page and '/tournaments/rr/crosstable/pdf/' in page
    assert "/tournaments/rr/crosstable/" in client.get("/tournaments/rr/standings/").content.decode()
    assert "/tournaments/rr/crosstable/" in client.get("/tournaments/rr/").content.decode()
    response = client.get("/en/tournaments/rr/crosstable/xlsx/")
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert 'filename="crosstable-rr-pairs-live.xlsx"' in response["Content-Disposition"]
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Crosstable", "Square table"]
    square = book["Square table"]
    rows = list(square.iter_rows(values_only=True))
    assert rows[0][:7] == ("Rank", "Start number", "Pair", 3, 1, 4, 2)
    assert rows[1][:7] == (1, 3, "Игрок3а — Игрок3б", None, "200:120", "150:200", "200:170")
    assert square.freeze_panes == "D2"


@pytest.fixture
def swiss():
    """Five pairs, a won partition worth 2 tournament points, a bye 2 as well.
    Tour 1: 1 beats 2 200:150, 3 beats 4 200:120, 5 has the bye.
    Tour 2: 1 beats 3 200:190, 2 beats 5 200:100, 4 has the bye. Then 5 withdraws.
    Tour 3: 1 does not appear against 4 (0:200, no-show), 3 beats 2 200:180."""
    org = user("org", superuser=True)
    t = tournament(org, pairs=5, regulations={"win_points": 2})
    seat(org, t, [(1, 2, 200, 150), (3, 4, 200, 120)], bye=5)
    seat(org, t, [(1, 3, 200, 190), (2, 5, 200, 100)], bye=4)
    services.withdraw_pair(org, Pair.objects.get(tournament=t, number=5))
    third = seat(org, t, [(1, 4, 0, 200), (2, 3, 180, 200)])
    Partition.objects.filter(table__tour=third, table__number=1).update(reason="no_show")
    return t


def test_swiss_with_a_bye_a_no_show_and_a_withdrawal(swiss):
    ct = crosstable(swiss)
    # Tournament points, then difference: 4 (4: 320:200, +120), 3 (4: 590:500, +90), 1 (4: 400:540, -140),
    # 2 (2: 530:500, +30), 5 (2: 100:200, -100).
    assert cells(ct) == [
        (4, 1, [(L, (3,), "120:200"), (BYE, (), ""), (WNS, (1,), "200:0")]),
        (3, 2, [(W, (4,), "200:120"), (L, (1,), "190:200"), (W, (2,), "200:180")]),
        (1, 3, [(W, (2,), "200:150"), (W, (3,), "200:190"), (NS, (4,), "0:200")]),
        (2, 4, [(L, (1,), "150:200"), (W, (5,), "200:100"), (L, (3,), "180:200")]),
        (5, 5, [(BYE, (), ""), (L, (2,), "100:200"), (WD, (), "")]),
    ]
    assert column(ct, "tournament_points") == [4, 4, 4, 2, 2]
    assert column(ct, "points_difference") == [120, 90, -140, 30, -100]
    assert ct.square is None
    assert [line.line.withdrawal for line in ct.lines][-1] == "withdrawn after tour 2"
    assert [str(mark) for mark, _name in ct.legend] == ["W", "L", "W n/s", "n/s", "bye", "wd"]
    # After tour 1: one tour, the withdrawal not yet made.
    early = crosstable(swiss, after_tour=1)
    assert [(line.number, [(c.result, c.points) for c in line.cells]) for line in early.lines] == [
        (3, [(W, "200:120")]), (1, [(W, "200:150")]), (5, [(BYE, "")]), (2, [(L, "150:200")]), (4, [(L, "120:200")])]
    with pytest.raises(ValidationError):
        crosstable(swiss, after_tour=4)


def test_a_tour_being_played_shows_who_meets_without_a_result(swiss):
    org = swiss.created_by
    tour = tours.generate_tour(org, swiss)
    tours.publish_tour(org, tour)
    ct = crosstable(swiss)
    fourth = [line.cells[3] for line in ct.lines]
    assert {c.result for c in fourth[:4]} == {Result.PLAYING} and all(c.opponents and not c.points for c in fourth[:4])
    assert fourth[4].result == WD
    # A draft tour never shows.
    assert len(crosstable(swiss).tours) == 4
    draft = Tour.objects.create(tournament=swiss, number=5)
    assert draft.number not in [t.number for t in crosstable(swiss).tours]


def test_the_players_crosstable_of_a_pair_event_names_partners(swiss):
    ct = crosstable(swiss, kind="players")
    pair4 = Pair.objects.get(tournament=swiss, number=4)
    numbers = {line.line.entrant.pk: line.number for line in ct.lines}
    first = next(line for line in ct.lines if line.line.entrant.pk == pair4.first_id)
    assert first.cells[0].partners == (numbers[pair4.second_id],)
    three = Pair.objects.get(tournament=swiss, number=3)
    assert sorted(first.cells[0].opponents) == sorted([numbers[three.first_id], numbers[three.second_id]])
    assert [c.result for c in first.cells] == [L, BYE, WNS]


def test_the_workbooks_hold_numbers(swiss, client):
    response = client.get("/en/tournaments/cup/standings/xlsx/")
    assert 'filename="standings-cup-pairs-live.xlsx"' in response["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content))["Standings"]
    rows = list(sheet.iter_rows(values_only=True))
    table = standings_table(swiss)
    assert rows[0] == ("Rank", "Start number", "Pair", *(str(c.name) for c in table.columns), "Withdrawn")
    assert [r[:5] for r in rows[1:]] == [(1, 4, "Игрок4а — Игрок4б", 4, 120), (2, 3, "Игрок3а — Игрок3б", 4, 90),
                                         (3, 1, "Игрок1а — Игрок1б", 4, -140), (4, 2, "Игрок2а — Игрок2б", 2, 30),
                                         (5, 5, "Игрок5а — Игрок5б", 2, -100)]
    assert rows[5][-1] == "withdrawn after tour 2"
    assert all(isinstance(v, int) for r in rows[1:] for v in (r[0], r[1], *r[3:-1]))
    assert sheet.freeze_panes == "D2"
    assert sheet.column_dimensions["C"].width > sheet.column_dimensions["A"].width

    book = openpyxl.load_workbook(io.BytesIO(crosstable_xlsx(crosstable(swiss))))
    assert book.sheetnames == ["Crosstable"]
    sheet = book["Crosstable"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][3] == "Tour 1" and rows[0][7] == "Tour 2"
    assert rows[1][:7] == ("Rank", "Start number", "Pair", "Opponents", "Result", "Points for", "Points against")
    # Pair 4: lost to 3 120:200, a bye, won against 1 by no-show 200:0; then 4 tournament points.
    assert rows[2][:15] == (1, 4, "Игрок4а — Игрок4б", 3, "L", 120, 200, None, "bye", None, None, 1, "W n/s", 200, 0)
    assert rows[2][15] == 4
    assert rows[6][11:13] == (None, "wd")
    assert sheet.freeze_panes == "D3"
    assert "D1:G1" in {str(r) for r in sheet.merged_cells.ranges}


def test_the_russian_page_and_a_cyrillic_name_that_looks_like_a_formula(swiss, client):
    Player.objects.filter(pk=Pair.objects.get(tournament=swiss, number=4).first_id).update(last_name="=Ёлкин")
    book = openpyxl.load_workbook(io.BytesIO(client.get("/tournaments/cup/standings/xlsx/").content))
    sheet = book["Турнирная таблица"]
    assert sheet["A1"].value == "Место"
    assert sheet["C2"].value == "'=Ёлкин — Игрок4б"
    page = client.get("/tournaments/cup/crosstable/").content.decode()
    assert "снялась после 2-го тура" in page and "неявка" in page
    assert client.get("/tournaments/cup/crosstable/?after_tour=9").status_code == 404
    assert client.get("/tournaments/cup/crosstable/players/xlsx/").status_code == 200


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")
def test_the_pdf_is_a4_landscape_with_names_and_scores(swiss, client):
    response = client.get("/en/tournaments/cup/crosstable/pdf/")
    assert response["Content-Type"] == "application/pdf"
    pdf = response.content
    assert pdf.startswith(b"%PDF-") and crosstable_pdf(crosstable(swiss)).startswith(b"%PDF-")
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "КРОСС-ТАБЛИЦА" in text  # in Russian, whatever the page's language (the title in capitals)
    lines = text.splitlines()
    # The first line of pair 4 (ranked first): rank, number, name (it wraps), the opponents of its
    # tours, its totals: tournament points, difference, for, Buchholz, head-to-head, played, wins,
    # losses, against.
    first = next(line for line in lines if "№4" in line).split()
    assert first[:3] == ["1.", "№4", "Игрок4а"] and "Игрок4б" in text
    assert first[-12:] == ["3", "своб.", "1", "4", "120", "320", "4", "0", "2", "2", "1", "200"]
    assert next(line for line in lines if "120:200" in line).split()[-5:] == ["П", "120:200", "В", "н/я", "200:0"]
    raw = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "снялась после 2-го тура" in " ".join(raw.split())
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    width, height = (float(x) for x in info.split("Page size:")[1].split("pts")[0].split(" x "))
    assert (round(width), round(height)) == (842, 595)


def individual_tour(org, t, seats, sitting_out, points):
    """A tour seated by hand: players ``seats`` (by last name) in seats 1 to 4, ``sitting_out``
    without a seat; pair A (seats 1 and 3) scores ``points`` against pair B (seats 2 and 4)."""
    player = {p.last_name: p for p in Player.objects.filter(entries__tournament=t)}
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    one, two, three, four = (player[name] for name in seats)
    Table.objects.filter(pk=table.pk).update(seat1=one, seat2=two, seat3=three, seat4=four)
    Pair.objects.filter(pk=table.pair_a_id).update(first=one, second=three)
    Pair.objects.filter(pk=table.pair_b_id).update(first=two, second=four)
    SitOut.objects.filter(tour=tour).update(player=player[sitting_out])
    tours.publish_tour(org, tour)
    finish_tour(tour, {1: points})


def test_an_individual_event_names_partners_opponents_and_sit_outs():
    org = user("org", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="solo")
    for n in range(1, 6):
        services.register_player(org, t, {"last_name": f"Игрок{n}"})
    # Tour 1: 1 and 3 beat 2 and 4 200:100, 5 sits out. Tour 2: 1 and 3 (seats 2, 4) beat 5 and 2 200:150.
    individual_tour(org, t, ["Игрок1", "Игрок2", "Игрок3", "Игрок4"], "Игрок5", (200, 100))
    individual_tour(org, t, ["Игрок5", "Игрок1", "Игрок2", "Игрок3"], "Игрок4", (150, 200))
    ct = crosstable(t)
    assert ct.kind == "players" and ct.square is None
    # 1 and 3: 2 wins, 400:250, tied on everything (Buchholz 0: their opponents won nothing; never
    # opponents of each other): rank 1 both. Then no wins: 5 (-50), 4 (-100), 2 (-150).
    names = [line.line.entrant.last_name for line in ct.lines]
    assert names == ["Игрок1", "Игрок3", "Игрок5", "Игрок4", "Игрок2"]
    assert [line.rank for line in ct.lines] == [1, 1, 3, 4, 5]
    # Numbers by line: 1 -> 1, 3 -> 2, 5 -> 3, 4 -> 4, 2 -> 5.
    got = [[(c.result, c.partners, c.opponents, c.points) for c in line.cells] for line in ct.lines]
    assert got == [
        [(W, (2,), (5, 4), "200:100"), (W, (2,), (3, 5), "200:150")],
        [(W, (1,), (5, 4), "200:100"), (W, (1,), (3, 5), "200:150")],
        [(OUT, (), (), ""), (L, (5,), (1, 2), "150:200")],
        [(L, (5,), (1, 2), "100:200"), (OUT, (), (), "")],
        [(L, (4,), (1, 2), "100:200"), (L, (3,), (1, 2), "150:200")],
    ]
    assert ct.lines[0].cells[1].who == "3, 5 (2)"
    sheet = openpyxl.load_workbook(io.BytesIO(crosstable_xlsx(ct)))["Crosstable"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[1][3:8] == ("Partner", "Opponents", "Result", "Points for", "Points against")
    assert rows[2][:13] == (1, 1, "Игрок1", 2, "5, 4", "W", 200, 100, 2, "3, 5", "W", 200, 150)
    assert rows[4][3:8] == (None, None, "out", None, None)


def test_a_goat_event_shows_each_players_place_at_his_table(played):  # noqa: F811
    t, three, two = played["t"], played["three"].table, played["two"].table
    ct = crosstable(t)
    assert ct.sittings and ct.score_name == "Game points"
    number = {line.line.entrant.pk: line.number for line in ct.lines}
    # Table 1 of three: seat 1 10 game points (1st), seat 2 9 (2nd), seat 3 the goat, 0 (3rd);
    # table 2 of two: seat 1 10 (1st), seat 2 the goat (2nd).
    expected = {three.seat1_id: (1, 3, 10), three.seat2_id: (2, 3, 9), three.seat3_id: (3, 3, 0),
                two.seat1_id: (1, 2, 10), two.seat2_id: (2, 2, 0)}
    got = {line.line.entrant.pk: (line.cells[0].place, line.cells[0].sides, line.cells[0].score) for line in ct.lines}
    assert got == expected
    first = next(line for line in ct.lines if line.line.entrant.pk == three.seat1_id)
    assert first.cells[0].opponents == (number[three.seat2_id], number[three.seat3_id])
    assert first.cells[0].table == 1 and first.cells[0].result == Result.PLAYED
    # The standings' Goat columns beside: game points, goats, total score, played.
    assert [c.key for c in ct.columns] == ["game_points", "goats", "total_score", "played"]
    assert first.values == [10, 0, 0, 1]
    sheet = openpyxl.load_workbook(io.BytesIO(crosstable_xlsx(ct)))["Crosstable"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[1][3:7] == ("Table", "Opponents", "Place", "Game points")
    row = next(r for r in rows[2:] if r[1] == number[three.seat2_id])
    assert row[3:] == (1, f"{number[three.seat1_id]}, {number[three.seat3_id]}", 2, 9, 9, 0, 14, 1)


def test_the_number_of_queries_does_not_grow_with_the_event():
    org = user("org", superuser=True)
    counts = []
    for slug, pairs in (("small", 4), ("big", 16)):
        t = tournament(org, pairs=pairs, slug=slug, format=Tournament.Format.MANUAL)
        for _tour in range(2):
            seat(org, t, [(n, n + 1, 200, 100) for n in range(1, pairs, 2)])
        with CaptureQueriesContext(connection) as queries:
            crosstable(t)
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_sea_goat_in_pairs_places_the_two_pairs_of_each_table():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, regulations={"game": "sea_goat", "target": 30, "opening": 0})
    tour = tours.generate_tour(org, t)
    tours.publish_tour(org, tour)
    one, two = tour.tables.order_by("number")
    # Table 1: pair A credited 12 + 20 = 32, the target: it wins the game. Table 2: pair B, 31.
    commands.record_goat_deal(org, one.partition.pk, {"lead": 1, "end": "domino", "seat": 1,
                                                     "values": {"2": 12, "3": 0, "4": 20}})
    commands.record_goat_deal(org, two.partition.pk, {"lead": 2, "end": "domino", "seat": 2,
                                                     "values": {"1": 15, "3": 16, "4": 0}})
    ct = crosstable(t)
    assert ct.score_name == "Games won"
    number = {pk: n for pk, n in Pair.objects.filter(tournament=t).values_list("pk", "number")}
    got = {line.number: (line.cells[0].table, line.cells[0].opponents, line.cells[0].place, line.cells[0].sides,
                         line.cells[0].score) for line in ct.lines}
    # The winners first at their tables, 1 game won; the losers second, none.
    assert got == {number[one.pair_a_id]: (1, (number[one.pair_b_id],), 1, 2, 1),
                   number[one.pair_b_id]: (1, (number[one.pair_a_id],), 2, 2, 0),
                   number[two.pair_a_id]: (2, (number[two.pair_b_id],), 2, 2, 0),
                   number[two.pair_b_id]: (2, (number[two.pair_a_id],), 1, 2, 1)}
    # The players: each his side's place, his partner in brackets.
    players = crosstable(t, kind="players")
    seat1 = next(line for line in players.lines if line.line.entrant.pk == one.seat1_id)
    seat3 = next(line for line in players.lines if line.line.entrant.pk == one.seat3_id)
    assert (seat1.cells[0].place, seat1.cells[0].partners, seat1.cells[0].score) == (1, (seat3.number,), 1)
    assert len(seat1.cells[0].opponents) == 2


def test_the_columns_of_cells_come_in_bands_for_print(round_robin):
    ct = crosstable(round_robin)  # the square, in rank order 3, 1, 4, 2 (above)
    assert (ct.whole.heads, ct.whole.last, len(ct.whole.rows[0][1])) == ([3, 1, 4, 2], True, 4)
    first, second = ct.bands(3)  # four columns, at most three a band: two of two
    assert (first.heads, second.heads) == ([3, 1], [4, 2])
    assert (first.number, first.count, first.last, second.last) == (1, 2, False, True)
    line, cells = second.rows[0]  # pair 3's row, against 4 and 2
    assert line.number == 3 and [[c.text for c in meetings] for meetings in cells] == [["150:200"], ["200:170"]]
    assert first.rows[0][1][0] is None  # the diagonal
    assert [band.heads for band in ct.printed] == [[3, 1, 4, 2]]


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")
def test_a_round_robin_of_thirty_pairs_prints_in_two_parts_that_fit_the_page():
    # Its square has 30 columns besides the standings': past what a page holds (PRINT_COLUMNS).
    org = user("org", superuser=True)
    t = tournament(org, pairs=30, format=Tournament.Format.ROUND_ROBIN, slug="rr30")
    for _ in range(29):
        tour = tours.generate_tour(org, t)
        tours.publish_tour(org, tour)
        Partition.objects.filter(table__tour=tour).update(status="finished", points_a=101, points_b=50, winner="A",
                                                          reason="target")
        Tour.objects.filter(pk=tour.pk).update(status=Tour.Status.FINISHED)
    ct = crosstable(t)
    pdf = crosstable_pdf(ct)
    info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert "Pages:           2" in info

    def page(number):
        return subprocess.run(["pdftotext", "-layout", "-f", str(number), "-l", str(number), "-", "-"], input=pdf,
                              capture_output=True, check=True).stdout.decode()

    one, two = page(1), page(2)
    assert "ЧАСТЬ 1 ИЗ 2" in one.upper() and "ЧАСТЬ 2 ИЗ 2" in two.upper()
    # Each part names every pair, and its 15 columns; the standings' columns close the second.
    for text in (one, two):
        assert all(f"№{n} " in text for n in range(1, 31))
    heads = [line for line in one.splitlines() if line.split()[:3] == ["Место", "·", "№"]][0].split()[5:]
    assert len(heads) == 15

    def row(text, number):  # what follows the pair's name in its row
        return next(line for line in text.splitlines() if f"№{number} " in line).split(f"Игрок{number}б")[1].split()

    # Pair 30's row: its cells in both parts (29: none against itself), its standings after the last.
    cells = [cell for cell in row(one, 30) + row(two, 30) if ":" in cell]
    assert len(cells) == 29 and all(":" in cell for cell in row(one, 30))
    line = next(line for line in ct.lines if line.number == 30)
    assert row(two, 30)[-len(line.values):] == [str(value) for value in line.values]
    assert len(row(two, 30)) == len(cells) - len(row(one, 30)) + len(line.values)
