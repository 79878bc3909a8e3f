"""The CSV import of pairs (tournaments.services.import_pairs_csv): whatever the file holds, a
refusal lists the bad lines by number and nothing is imported; its size and its lines are
bounded (CSV_IMPORT_MAX_SIZE, CSV_IMPORT_MAX_LINES)."""

import pytest
from django.core.exceptions import ValidationError

from builders import tournament, user
from tournaments import services
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db

HEADER = "last_name_1;first_name_1;last_name_2;first_name_2;number"
LONG = "Константинопольский-Д'Артаньян-Ёлкин-Длинноимённый-Запасной-Игрок"  # 60+ characters


@pytest.fixture
def cup():
    return tournament(user("org", superuser=True))


def imported(cup, text: str | bytes):
    return services.import_pairs_csv(cup.created_by, cup, text)


def nothing_imported(cup) -> bool:
    return not Pair.objects.filter(tournament=cup).exists() and not Player.objects.exists()


def test_a_field_longer_than_the_csv_modules_limit_is_a_numbered_line(cup):
    text = f"{HEADER}\n{LONG};Ёжик;Пётров;;1\nИванов;{'ё' * 131_073};Петров;;2\n"
    report = imported(cup, text)
    assert report == services.ImportReport(0, ((3, "a field is longer than 131072 characters."),))
    assert nothing_imported(cup)
    report = imported(cup, f"last_name_1;{'x' * 131_073}\n")
    assert report.errors == ((1, "a field is longer than 131072 characters."),)


@pytest.mark.parametrize("number", ["²", "٣", "①", "1.5", "-1", "0", "1" * 10])
def test_a_start_number_is_ascii_digits(cup, number):
    report = imported(cup, f"{HEADER}\n{LONG};Ёжик;Пётров;;{number}\n")
    assert report.errors == ((2, f"The start number must be a whole number from 1, not {number}."),)
    assert nothing_imported(cup)


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
def test_any_line_ending(cup, newline):
    text = newline.join([HEADER, f"{LONG};Ёжик;Пётров;;7", "Д'Артаньян;;Иванов-Петров;;"]) + newline
    assert imported(cup, text.encode("cp1251")) == services.ImportReport(2)
    assert sorted(Pair.objects.filter(tournament=cup).values_list("number", flat=True)) == [7, 8]
    assert Pair.objects.get(tournament=cup, number=7).first.last_name == LONG


def test_a_nul_character_is_a_numbered_line(cup):
    report = imported(cup, f"{HEADER}\n{LONG};Ёжик;Пётров;;\nИва\x00нов;;Петров;;\n")
    assert report.errors == ((3, "a NUL character, which cannot be stored."),)
    assert nothing_imported(cup)


def test_more_fields_than_columns_is_a_numbered_line_and_trailing_empty_ones_are_no_field(cup):
    report = imported(cup, f"{HEADER}\nИванов;;Петров;;;Сидоров\n")
    assert report.errors == ((2, "more fields than the header has columns."),)
    assert imported(cup, f"{HEADER}\nИванов;;Петров;;;;\n") == services.ImportReport(1)


def test_lines_up_to_the_limit_and_not_one_more(cup, settings):
    settings.CSV_IMPORT_MAX_LINES = 2
    rows = [f"{LONG}{n};Ёжик;Пётров{n};;" for n in range(3)]
    with pytest.raises(ValidationError, match="The file has more than 2 lines of pairs: split it."):
        imported(cup, "\n".join([HEADER, *rows]) + "\n")
    assert nothing_imported(cup)
    assert imported(cup, "\n".join([HEADER, *rows[:2], "", ";;;;"]) + "\n") == services.ImportReport(2)


def test_bytes_up_to_the_limit_and_not_one_more(cup, settings):
    data = f"{HEADER}\n{LONG};Ёжик;Пётров;;\n".encode()
    settings.CSV_IMPORT_MAX_SIZE = len(data) - 1
    with pytest.raises(ValidationError, match="The file is too large"):
        imported(cup, data)
    with pytest.raises(ValidationError, match="The file is too large"):
        imported(cup, data.decode())  # text: its UTF-8 bytes count
    assert nothing_imported(cup)
    settings.CSV_IMPORT_MAX_SIZE = len(data)
    assert imported(cup, data) == services.ImportReport(1)
