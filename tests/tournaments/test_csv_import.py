"""The CSV import of pairs (tournaments.imports.import_pairs_csv): whatever the file holds, a
refusal lists the bad lines by number and nothing is imported; its size and its lines are
bounded (CSV_IMPORT_MAX_SIZE, CSV_IMPORT_MAX_LINES)."""

import pytest
from django.core.exceptions import ValidationError

from builders import tournament, user
from tournaments import imports
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db

HEADER = "last_name_1;first_name_1;last_name_2;first_name_2;number"
LONG = "Константинопольский-Д'Артаньян-Ёлкин-Длинноимённый-Запасной-Игрок"  # 60+ characters


@pytest.fixture
def cup():
    return tournament(user("org", superuser=True))


def imported(cup, text: str | bytes):
    return imports.import_pairs_csv(cup.created_by, cup, text)


def nothing_imported(cup) -> bool:
    return not Pair.objects.filter(tournament=cup).exists() and not Player.objects.exists()


def test_a_field_longer_than_the_csv_modules_limit_is_a_numbered_line(cup):
    text = f"{HEADER}\n{LONG};Ёжик;Пётров;;1\nИванов;{'ё' * 131_073};Петров;;2\n"
    report = imported(cup, text)
    assert report == imports.ImportReport(0, ((3, "a field is longer than 131072 characters."),))
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
    assert imported(cup, text.encode("cp1251")) == imports.ImportReport(2)
    assert sorted(Pair.objects.filter(tournament=cup).values_list("number", flat=True)) == [7, 8]
    assert Pair.objects.get(tournament=cup, number=7).first.last_name == LONG


def test_a_nul_character_is_a_numbered_line(cup):
    report = imported(cup, f"{HEADER}\n{LONG};Ёжик;Пётров;;\nИва\x00нов;;Петров;;\n")
    assert report.errors == ((3, "a NUL character, which cannot be stored."),)
    assert nothing_imported(cup)


def test_more_fields_than_columns_is_a_numbered_line_and_trailing_empty_ones_are_no_field(cup):
    report = imported(cup, f"{HEADER}\nИванов;;Петров;;;Сидоров\n")
    assert report.errors == ((2, "more fields than the header has columns."),)
    assert imported(cup, f"{HEADER}\nИванов;;Петров;;;;\n") == imports.ImportReport(1)


def test_lines_up_to_the_limit_and_not_one_more(cup, settings):
    settings.CSV_IMPORT_MAX_LINES = 2
    rows = [f"{LONG}{n};Ёжик;Пётров{n};;" for n in range(3)]
    with pytest.raises(ValidationError, match="The file has more than 2 lines of pairs: split it."):
        imported(cup, "\n".join([HEADER, *rows]) + "\n")
    assert nothing_imported(cup)
    assert imported(cup, "\n".join([HEADER, *rows[:2], "", ";;;;"]) + "\n") == imports.ImportReport(2)


def test_bytes_up_to_the_limit_and_not_one_more(cup, settings):
    data = f"{HEADER}\n{LONG};Ёжик;Пётров;;\n".encode()
    settings.CSV_IMPORT_MAX_SIZE = len(data) - 1
    with pytest.raises(ValidationError, match="The file is too large"):
        imported(cup, data)
    with pytest.raises(ValidationError, match="The file is too large"):
        imported(cup, data.decode())  # text: its UTF-8 bytes count
    assert nothing_imported(cup)
    settings.CSV_IMPORT_MAX_SIZE = len(data)
    assert imported(cup, data) == imports.ImportReport(1)


# -- Russian or English headers, either encoding and separator, and the template ------------------


def test_a_windows_1251_file_with_russian_headers_and_semicolons(cup):
    text = ("Номер;Фамилия 1;Имя 1;Фамилия 2;Имя_2;Клуб;ГОРОД 1\r\n"
            "3;Иванов;Иван;Петров;Пётр;Спартак;Тверь\r\n"
            ";Сидоров;Семён;Смирнов;Сергей;Динамо;\r\n")
    report = imported(cup, text.encode("cp1251"))
    assert (report.created, report.errors) == (2, ())
    first = Pair.objects.get(tournament=cup, number=3)
    assert (first.first.first_name, first.second.first_name) == ("Иван", "Пётр")
    assert (first.first.club, first.second.club, first.first.city, first.second.city) == (
        "Спартак", "Спартак", "Тверь", "")
    assert str(Pair.objects.get(tournament=cup, number=4)) == "Сидоров — Смирнов"


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_utf8_file_with_english_headers_and_commas(cup, bom):
    text = ("Last name 1,First Name 1,federation_id_1,Surname 2,Name 2,Club 1,Club 2,Start number\n"
            "Ёлкин,Ёж,RU-1,Орлов,Олег,Дубль,Кости,7\n")
    assert imported(cup, bom + text.encode()).created == 1
    pair = Pair.objects.get(tournament=cup, number=7)
    assert (pair.first.last_name, pair.first.first_name, pair.first.federation_id) == ("Ёлкин", "Ёж", "RU-1")
    assert (pair.second.first_name, pair.first.club, pair.second.club) == ("Олег", "Дубль", "Кости")


def test_a_player_column_wins_over_the_pairs_and_a_column_named_twice_is_refused(cup):
    assert imported(cup, "фамилия 1;фамилия 2;клуб;клуб 2\nА;Б;Общий;Свой\n").created == 1
    pair = Pair.objects.get(tournament=cup)
    assert (pair.first.club, pair.second.club) == ("Общий", "Свой")
    report = imported(cup, "Фамилия 1;last_name_1;Фамилия 2;Разряд\nВ;В;Г;5\n")
    assert report.errors == ((1, "unknown columns: Разряд; columns named twice: last_name_1"),)
    assert Pair.objects.filter(tournament=cup).count() == 1


def test_the_template_round_trips_through_the_import(cup):
    template = imports.csv_template()
    assert template.startswith(b"\xef\xbb\xbf") and template.decode("utf-8-sig").startswith("Номер;Фамилия 1;Имя 1;")
    header = template.decode("utf-8-sig").rstrip("\r\n").split(";")
    assert len(header) == 12 and header[-1] == "Рейтинг"
    rows = {"Номер": "2", "Фамилия 1": "Иванов", "Имя 1": "Иван", "Клуб 1": "Спартак", "Город 1": "Тверь",
            "Номер в федерации 1": "RU-5", "Фамилия 2": "Петров", "Имя 2": "Пётр", "Клуб 2": "Кости",
            "Город 2": "Тула", "Номер в федерации 2": "RU-6", "Рейтинг": "1520,5"}
    filled = template + (";".join(rows[h] for h in header) + "\r\n").encode()
    assert imported(cup, filled) == imports.ImportReport(1, seeded=1)
    pair = Pair.objects.get(tournament=cup, number=2)
    assert pair.seed == 1
    assert [(p.last_name, p.first_name, p.club, p.city, p.federation_id) for p in pair.players] == [
        ("Иванов", "Иван", "Спартак", "Тверь", "RU-5"), ("Петров", "Пётр", "Кости", "Тула", "RU-6")]


# -- the rating column: the seeds of tour 1 -----------------------------------------------------------


def seeds(cup) -> dict[str, int | None]:
    return dict(Pair.objects.filter(tournament=cup).values_list("first__last_name", "seed"))


def test_a_rating_column_seeds_the_pairs_highest_first_ties_in_file_order(cup):
    text = ("Фамилия 1;Фамилия 2;Рейтинг\r\n"
            "Аксенов;Б;1480\r\nВолков;Г;1 520,5\r\nДронов;Е;\r\nЖуков;З;1520.50\r\nИльин;К;1\u00a0600\r\n"
            "Лосев;М;0\r\n")
    assert imported(cup, text) == imports.ImportReport(6, seeded=5)
    # 1600 first; 1520.5 twice, in file order; the pair without a rating is not seeded.
    assert seeds(cup) == {"Ильин": 1, "Волков": 2, "Жуков": 3, "Аксенов": 4, "Лосев": 5, "Дронов": None}


def test_a_later_import_seeds_after_the_seeds_given_and_an_english_header_too(cup):
    imported(cup, "last_name_1,last_name_2,rating\nА,Б,10\nВ,Г,20\n")
    assert imported(cup, 'last_name_1,last_name_2,Rating\nД,Е,"30,5"\nЖ,З,5\n') == imports.ImportReport(2, seeded=2)
    assert seeds(cup) == {"В": 1, "А": 2, "Д": 3, "Ж": 4}


@pytest.mark.parametrize("value", ["abc", "-5", "1e3", "15 20", "1,2,3", "١٢", "½", "12,"])
def test_a_bad_rating_is_a_numbered_line_and_nothing_is_imported(cup, value):
    report = imported(cup, f"Фамилия 1;Фамилия 2;Рейтинг\nА;Б;1500\nВ;Г;{value}\nД;Е;x\n")
    assert report == imports.ImportReport(0, (
        (3, f"the rating must be a number 0 or more, such as 1520 or 1520,5, not {value}."),
        (4, "the rating must be a number 0 or more, such as 1520 or 1520,5, not x.")))
    assert nothing_imported(cup)


def test_ratings_are_refused_once_a_tour_is_published_late_entries_without_them_are_not(cup):
    from tournaments import tours

    imported(cup, "Фамилия 1;Фамилия 2\nА;Б\nВ;Г\n")
    tours.publish_tour(cup.created_by, tours.generate_tour(cup.created_by, cup))
    report = imported(cup, "Фамилия 1;Фамилия 2;Рейтинг\nД;Е;1500\n")
    assert report.errors == ((1, "the seeding cannot change after a tour has been published: import the file "
                                 "without its rating column."),)
    assert Pair.objects.filter(tournament=cup).count() == 2
    assert imported(cup, "Фамилия 1;Фамилия 2;Рейтинг\nД;Е;\n") == imports.ImportReport(1)
    assert seeds(cup)["Д"] is None
