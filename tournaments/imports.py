"""The CSV import of pairs (a federation's or a club's spreadsheet, saved as CSV in any of the
encodings and separators people's tools write): every line checked first, and nothing imported
if one is wrong; then each pair registered through :func:`tournaments.services.register_pair`,
and the seeds a rating column gives set through :func:`tournaments.services.set_seeds`."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from .models import Pair, Tournament
from .permissions import AnyUser, require_manage
from .services import PLAYER_FIELDS, has_public_tour, pairs_closed, register_pair, set_seeds


@dataclass(frozen=True)
class ImportReport:
    """What a CSV import did, or (``errors``, by line) why it did nothing."""

    created: int
    errors: tuple[tuple[int, str], ...] = ()
    seeded: int = 0  # the pairs given a seed by their rating


#: The names a header may give each column besides its own (``last_name_1``): English or
#: Russian, in any case, with spaces or underscores; a player's column ends in 1 or 2.
CSV_PLAYER_HEADERS: dict[str, tuple[str, ...]] = {
    "last_name": ("last name", "surname", "фамилия"),
    "first_name": ("first name", "name", "имя"),
    "club": ("club", "клуб"),
    "city": ("city", "town", "город"),
    "federation_id": ("federation id", "id федерации", "номер в федерации"),
}
CSV_NUMBER_HEADERS = ("number", "start number", "№", "номер", "стартовый номер")
#: The pair's rating: the pairs rated are seeded by it, highest first (:func:`import_pairs_csv`).
CSV_RATING_HEADERS = ("rating", "рейтинг")
#: Columns without 1 or 2: the same for both players of the pair (a player's own column wins).
CSV_PAIR_FIELDS = ("club", "city")
#: The header of the template to download: the first Russian name of each column.
CSV_TEMPLATE_HEADER = (("Номер",) + tuple(f"{CSV_PLAYER_HEADERS[f][-1].capitalize()} {n}"
                                           for n in (1, 2) for f in PLAYER_FIELDS) + ("Рейтинг",))


def _header_key(name: str) -> str:
    """A header cell as compared: case, ё/е, underscores and spaces aside ("Фамилия_1" is "фамилия 1")."""
    key = " ".join(name.replace("_", " ").split()).casefold().replace("ё", "е")
    return re.sub(r"\s*([12])$", r" \1", key)


def _header_names() -> dict[str, str]:
    names = {_header_key(alias): "number" for alias in CSV_NUMBER_HEADERS}
    names.update({_header_key(alias): "rating" for alias in CSV_RATING_HEADERS})
    for field, aliases in CSV_PLAYER_HEADERS.items():
        for alias in (field, *aliases):
            for n in (1, 2):
                names[_header_key(f"{alias} {n}")] = f"{field}_{n}"
            if field in CSV_PAIR_FIELDS:
                names[_header_key(alias)] = field
    return names


_HEADER_NAMES = _header_names()


def csv_template() -> bytes:
    """The file to fill in for :func:`import_pairs_csv`: the Russian header, ``;``-separated,
    UTF-8 with a byte order mark, which spreadsheets open as it is."""
    return ("\ufeff" + ";".join(CSV_TEMPLATE_HEADER) + "\r\n").encode()


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    for encoding in ("utf-8-sig", "cp1251"):  # spreadsheets in Russia often save cp1251
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValidationError(_("The file is neither UTF-8 nor Windows-1251 text."))


def import_pairs_csv(user: AnyUser, tournament: Tournament, data: bytes | str) -> ImportReport:
    """Register the pairs of a CSV file, all or none.

    The header names the columns, in English or Russian (:data:`CSV_PLAYER_HEADERS`):
    ``last_name_1`` and ``last_name_2`` ("Фамилия 1", "Фамилия 2") are required;
    ``first_name_N``, ``club_N``, ``city_N``, ``federation_id_N``, ``number``, and ``club`` and
    ``city`` of both players, are optional. With a ``rating`` column ("Рейтинг") the pairs rated
    are seeded for tour 1 (:func:`set_seeds`), highest rating first, a tie in file order, after
    any seeds given before; a pair with an empty rating is not seeded. UTF-8 (with or without a byte order mark) or
    Windows-1251; commas or semicolons; any line endings. Every bad row is reported with its line; then nothing
    is imported. The file has at most ``CSV_IMPORT_MAX_SIZE`` bytes and ``CSV_IMPORT_MAX_LINES``
    lines of pairs: the whole file is read and checked before the first pair is registered.
    """
    require_manage(user, tournament)
    closed = pairs_closed(tournament)
    if closed:  # the whole file, once: not the same refusal on every line
        raise ValidationError(closed)
    size = len(data.encode() if isinstance(data, str) else data)
    if size > settings.CSV_IMPORT_MAX_SIZE:
        raise ValidationError(_("The file is too large: at most %(size)s.")
                              % {"size": filesizeformat(settings.CSV_IMPORT_MAX_SIZE)})
    text = _decode(data)
    try:
        dialect = csv.Sniffer().sniff(_LINE_END.split(text, 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    # newline="": the csv module itself splits the lines, whichever ending they have.
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=dialect)
    rows: list[tuple[int, dict[str | None, Any]]] = []  # key None: the fields past the header's
    errors: list[tuple[int, str]] = []
    try:
        header = [h.strip() for h in reader.fieldnames or []]
        columns = [_HEADER_NAMES.get(_header_key(h)) for h in header]
        reader.fieldnames = [c or h for c, h in zip(columns, header)]
        for row in reader:
            if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                rows.append((reader.line_num, row))
            if len(rows) > settings.CSV_IMPORT_MAX_LINES:
                raise ValidationError(_("The file has more than %(count)s lines of pairs: split it.")
                                      % {"count": settings.CSV_IMPORT_MAX_LINES})
    except csv.Error:
        # The csv module's one refusal of decoded text: a field over its limit. (DictReader's own
        # line_num is the last line it returned; its reader's, the one refused.)
        return ImportReport(0, ((reader.reader.line_num, _("a field is longer than %(count)s characters.")
                                 % {"count": csv.field_size_limit()}),))
    missing = [c for c in ("last_name_1", "last_name_2") if c not in columns]
    unknown = [h for c, h in zip(columns, header) if c is None]
    twice = sorted({c for c in columns if c is not None and columns.count(c) > 1})
    if missing or unknown or twice:
        problems = []
        if missing:
            problems.append(_("missing columns: %(columns)s") % {"columns": ", ".join(missing)})
        if unknown:
            problems.append(_("unknown columns: %(columns)s") % {"columns": _some_columns(unknown)})
        if twice:
            problems.append(_("columns named twice: %(columns)s") % {"columns": ", ".join(twice)})
        return ImportReport(0, ((1, "; ".join(problems)),))
    for line, row in rows:
        extra = row.pop(None, None) or []  # fields past the header's columns
        if any(v.strip() for v in extra):
            errors.append((line, _("more fields than the header has columns.")))
        elif any("\x00" in (v or "") for v in row.values()):
            errors.append((line, _("a NUL character, which cannot be stored.")))
        else:
            try:
                row["rating"] = _rating(row.get("rating") or "")
            except ValidationError as error:
                errors.append((line, error.messages[0]))
    if errors:
        return ImportReport(0, tuple(errors))
    rated = "rating" in columns and any(row["rating"] is not None for _line, row in rows)
    if rated and has_public_tour(tournament):
        return ImportReport(0, ((1, _("the seeding cannot change after a tour has been published: import the file "
                                      "without its rating column.")),))
    created: list[tuple[Decimal | None, Pair]] = []
    try:
        with transaction.atomic():
            for line, row in rows:
                try:
                    with transaction.atomic():
                        number = (row.get("number") or "").strip()
                        pair = register_pair(user, tournament,
                                             {f: row.get(f"{f}_1") or row.get(f) for f in PLAYER_FIELDS},
                                             {f: row.get(f"{f}_2") or row.get(f) for f in PLAYER_FIELDS},
                                             number=_whole(number) if number else None)
                    created.append((row.get("rating"), pair))
                except ValidationError as error:
                    errors.append((line, " ".join(error.messages)))
            if errors:
                raise _Rollback
            seeds = _seeds_by_rating(tournament, created)
            if seeds:
                set_seeds(user, tournament, seeds)
    except _Rollback:
        return ImportReport(0, tuple(errors))
    return ImportReport(len(created), seeded=len(seeds))


def _seeds_by_rating(tournament: Tournament, pairs: list[tuple[Decimal | None, Pair]]) -> dict[int, int]:
    """The seeds of the pairs just imported with a rating: highest first (a stable sort keeps a
    tie in file order), after the seeds the tournament's pairs already have."""
    rated = sorted(((rating, pair) for rating, pair in pairs if rating is not None), key=lambda rated: -rated[0])
    after = Pair.objects.filter(tournament=tournament, tour__isnull=True).aggregate(top=Max("seed"))["top"] or 0
    return {pair.pk: after + k for k, (_value, pair) in enumerate(rated, 1)}


#: A rating as a spreadsheet writes it: a decimal comma or point, the thousands maybe grouped by a
#: space (a no-break one in a Russian spreadsheet).
_RATING = re.compile(r"(?:[0-9]{1,12}|[0-9]{1,3}(?:[ \u00a0\u202f][0-9]{3}){1,3})(?:[.,][0-9]{1,6})?")


def _rating(text: str) -> Decimal | None:
    """A rating cell: empty (the pair is not seeded by it) or a number 0 or more."""
    value = text.strip()
    if not value:
        return None
    if not _RATING.fullmatch(value):
        raise ValidationError(_("the rating must be a number 0 or more, such as 1520 or 1520,5, not %(value)s.")
                              % {"value": value[:COLUMN_NAME_SHOWN]})
    return Decimal(re.sub(r"[ \u00a0\u202f]", "", value).replace(",", "."))


class _Rollback(Exception):
    """Undo a whole import when any row was bad."""


COLUMNS_NAMED, COLUMN_NAME_SHOWN = 5, 40


def _some_columns(names: list[str]) -> str:
    """The first few column names, each cut short, and how many more: a header of thousands of
    columns (or of one huge one) is not echoed back whole."""
    shown = ", ".join(name if len(name) <= COLUMN_NAME_SHOWN else name[:COLUMN_NAME_SHOWN - 1] + "…"
                      for name in names[:COLUMNS_NAMED])
    if len(names) <= COLUMNS_NAMED:
        return shown
    return _("%(columns)s and %(count)s more") % {"columns": shown, "count": len(names) - COLUMNS_NAMED}


_LINE_END = re.compile(r"\r\n|\r|\n")


def _whole(text: str) -> int:
    # ASCII digits only: str.isdigit() also takes "²" and other digits int() refuses.
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < 1:
        raise ValidationError(_("The start number must be a whole number from 1, not %(value)s.") % {"value": text})
    return int(text)
