"""The standings CSV neutralises what a spreadsheet would run as a formula (OWASP CSV injection);
numbers stay numbers."""

import csv
import io

import pytest

from builders import finish_tour, tournament, user
from tournaments import services
from tournaments import tours
from tournaments.standings import standings_table
from tournaments.standings.table import neutralise_formula

pytestmark = pytest.mark.django_db

EVIL = ["=HYPERLINK(\"http://evil.example\";\"Ёлкин\")", "+7-495-Д'Артаньян", "-2+3", "@SUM(A1:A2)",
        "\tТабуляция-Ёжиков", "\rВозврат-Каретки"]


def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))


def test_text_cells_starting_like_a_formula_get_an_apostrophe():
    assert [neutralise_formula(name) for name in EVIL] == ["'" + name for name in EVIL]
    assert [neutralise_formula(n) for n in (-2, 0, 3)] == [-2, 0, 3]
    organiser = user("org", superuser=True)
    cup = tournament(organiser)
    for name in EVIL[:4]:  # a name is stored without leading white space
        services.register_pair(organiser, cup, {"last_name": name}, {"last_name": "Ёлкин-Палкин"})
    tour = tours.generate_tour(organiser, cup)
    tours.publish_tour(organiser, tour)
    finish_tour(tour, {1: (100, 240)})
    rows = _rows(standings_table(cup).csv())[1:]
    assert {row[2] for row in rows} == {"'" + name + ", Ёлкин-Палкин" for name in EVIL[:4]}
    assert sorted(int(row[9]) for row in rows) == [-140, -100, 100, 140]  # numbers stay numbers


def test_the_page_and_the_api_export_neutralised_names(client):
    organiser = user("org", superuser=True)
    cup = tournament(organiser)
    services.register_pair(organiser, cup, {"last_name": "=1+1", "first_name": "Фёдор"},
                           {"last_name": "-Д'Артаньян-Ёлкин"})
    services.register_pair(organiser, cup, {"last_name": "@Мамин-Сибиряк"}, {"last_name": "+Соколов-Микитов"})
    tour = tours.generate_tour(organiser, cup)
    tours.publish_tour(organiser, tour)
    finish_tour(tour, {1: (100, 240)})
    for url in ("/en/tournaments/cup/standings/csv/", "/api/tournaments/cup/standings/?format=csv"):
        response = client.get(url)
        assert response.status_code == 200, url
        rows = _rows(response.content)[1:]
        names = {row[2] for row in rows}
        assert names == {"'=1+1 Фёдор, -Д'Артаньян-Ёлкин", "'@Мамин-Сибиряк, +Соколов-Микитов"}, url
        differences = sorted(int(row[9]) for row in rows)
        assert differences == [-140, 140], url
