"""The standings and the crosstable as Excel workbooks (openpyxl): numbers in number cells, so that
a spreadsheet sums and sorts them; the header in the current language, frozen with the entrant's
columns; text cells that start like a formula neutralised as in the CSV file."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from .crosstable import Cell, Crosstable
from .table import StandingsTable, neutralise_formula

#: The widths of the columns, in characters: as wide as the longest value, within these bounds.
MIN_WIDTH, MAX_WIDTH = 5, 45
BOLD = Font(bold=True)
DIAGONAL = PatternFill("solid", fgColor="D9D9D9")


def _entrant_header(kind: str) -> list[str]:
    return [gettext("Rank"), gettext("Start number"), gettext("Pair")] if kind == "pairs" else [
        gettext("Rank"), gettext("Number"), gettext("Player")]


def _write(ws: Worksheet, rows: Sequence[Sequence[Any]], header_rows: int, frozen_columns: int) -> None:
    """Write ``rows`` (the first ``header_rows`` of them the header, in bold), freeze the header
    and the first ``frozen_columns`` columns, and fit the widths."""
    widths: dict[int, int] = {}
    for r, values in enumerate(rows, 1):
        for c, value in enumerate(values, 1):
            if value is None or value == "":
                continue
            cell = ws.cell(row=r, column=c, value=neutralise_formula(value))
            if r <= header_rows:
                cell.font = BOLD
                cell.alignment = Alignment(wrap_text=True, vertical="bottom")
                # A header wraps: it counts by its longest word.
                length = max(len(word) for word in str(value).split())
            else:
                length = len(str(value))
            widths[c] = max(widths.get(c, 0), length)
    for c, width in widths.items():
        ws.column_dimensions[get_column_letter(c)].width = min(max(width + 2, MIN_WIDTH), MAX_WIDTH)
    ws.freeze_panes = ws.cell(row=header_rows + 1, column=frozen_columns + 1)


def _save(wb: Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def standings_xlsx(table: StandingsTable) -> bytes:
    """The standings as a workbook of one sheet: rank, number (a pair's start number, a player's
    line), name, the club of a player, every column of the standings in their order, the
    withdrawal mark."""
    wb = Workbook()
    ws = wb.active
    ws.title = gettext("Standings")
    players = table.kind == "players"
    header = [*_entrant_header(table.kind), *([gettext("Club")] if players else []),
              *(str(c.name) for c in table.columns), gettext("Withdrawn")]
    rows: list[list[Any]] = [header]
    for n, line in enumerate(table.lines, 1):
        rows.append([line.rank, n if players else line.entrant.number, line.name,
                     *([line.entrant.club] if players else []), *table.values(line, table.columns), line.withdrawal])
    _write(ws, rows, 1, 3)
    return _save(wb)


def _numbers(numbers: tuple[int, ...]) -> int | str | None:
    """One entrant as a number; several as text (``"5, 7"``)."""
    return numbers[0] if len(numbers) == 1 else (", ".join(map(str, numbers)) or None)


#: The columns of a tour: (header, the cell's value).
Fields = list[tuple[str, Callable[[Cell], Any]]]


def _tour_fields(ct: Crosstable) -> Fields:
    table: Fields = [(gettext("Table"), lambda c: c.table)]
    if ct.sittings:
        return [*table, (gettext("Opponents"), lambda c: _numbers(c.opponents)),
                (gettext("Place"), lambda c: c.place if c.place is not None else c.mark),
                (ct.score_name, lambda c: c.score)]
    partner: Fields = [] if ct.kind == "pairs" else [(gettext("Partner"), lambda c: _numbers(c.partners))]
    return [*partner, (gettext("Opponents"), lambda c: _numbers(c.opponents)), (gettext("Result"), lambda c: c.mark),
            (gettext("Points for"), lambda c: c.points_for), (gettext("Points against"), lambda c: c.points_against)]


def crosstable_xlsx(ct: Crosstable) -> bytes:
    """The crosstable as a workbook: a sheet of the tours (a block of columns each, under a
    header naming the tour), then the standings' columns; a round robin of pairs adds the square
    table (each cell the partition's score, row's points first)."""
    wb = Workbook()
    ws = wb.active
    ws.title = gettext("Crosstable")
    fields = _tour_fields(ct)
    top: list[Any] = [None, None, None]
    sub: list[Any] = _entrant_header(ct.kind)
    for tour in ct.tours:
        top += [gettext("Tour %(number)s") % {"number": tour.number}] + [None] * (len(fields) - 1)
        sub += [name for name, _get in fields]
    sub += [str(c.name) for c in ct.columns]
    rows: list[list[Any]] = [top, sub]
    for line in ct.lines:
        rows.append([line.rank, line.number, line.line.name,
                     *(get(cell) for cell in line.cells for _name, get in fields), *line.values])
    _write(ws, rows, 2, 3)
    for i in range(len(ct.tours)):
        first = 4 + i * len(fields)
        ws.merge_cells(start_row=1, end_row=1, start_column=first, end_column=first + len(fields) - 1)
    if ct.square is not None:
        _square(wb.create_sheet(gettext("Square table")), ct)
    return _save(wb)


def _square(ws: Worksheet, ct: Crosstable) -> None:
    header = [*_entrant_header(ct.kind), *(line.number for line in ct.lines), *(str(c.name) for c in ct.columns)]
    assert ct.square is not None
    rows: list[list[Any]] = [header]
    for line, meetings in zip(ct.lines, ct.square):
        rows.append([line.rank, line.number, line.line.name,
                     *("" if cells is None else "; ".join(c.text for c in cells) for cells in meetings),
                     *line.values])
    _write(ws, rows, 1, 3)
    for i in range(len(ct.lines)):
        ws.cell(row=i + 2, column=i + 4).fill = DIAGONAL
