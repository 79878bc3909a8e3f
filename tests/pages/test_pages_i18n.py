"""Russian first, English under /en/: pages, form labels and the services' refusals."""

import dataclasses
import re
from pathlib import Path

import pytest
from django.utils import translation

from builders import tournament
from scoring.engine import Regulations
from tournaments import tours
from tournaments.forms import REGULATION_CHOICES, REGULATION_LABELS
from tournaments.models import Pair, Tournament

pytestmark = pytest.mark.django_db
CATALOG = Path(__file__).resolve().parents[2] / "locale" / "ru" / "LC_MESSAGES" / "django.po"


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def published(cup, organiser):
    tours.publish_tour(organiser, tours.generate_tour(organiser, cup))
    return cup


def test_public_pages_speak_russian_by_default_and_english_under_en(client, published):
    ru = text(client.get("/tournaments/cup/tours/1/"))
    assert '<html lang="ru">' in ru
    for word in ("Тур 1", "Стол 1", "Пара A", "Судья", "Свободный тур", "Место"):
        assert word in ru
    assert "Table 1" not in ru and "Bye" not in ru
    en = text(client.get("/en/tournaments/cup/tours/1/"))
    assert '<html lang="en">' in en and "Table 1" in en and "Стол 1" not in en
    ru = text(client.get("/tournaments/cup/"))
    assert "Швейцарская система" in ru and "Регламент" in ru and "Игра до, очков" in ru
    assert "Swiss" in text(client.get("/en/tournaments/cup/"))
    assert "Идут" in text(client.get("/tournaments/"))


def test_organiser_pages_and_service_errors_in_russian(client, cup, organiser):
    client.force_login(organiser)
    form = text(client.get("/manage/new/"))
    assert "Новый турнир" in form and "Время партии, минут" in form and "против часовой стрелки" in form
    assert "Показатель 1" in form and "Коэффициент Бухгольца" in form
    data = {"name": "Кубок", "slug": "k", "venue": "", "starts_on": "2026-05-02", "ends_on": "2026-05-01",
            "format": "swiss"}
    data.update({f"reg-{k}": "" if v is None else v for k, v in Regulations().to_dict().items() if k != "standings"})
    data.update({"reg-standings_0": "wins"})
    assert "Турнир не может закончиться раньше, чем начнётся." in text(client.post("/manage/new/", data))
    data.update({"ends_on": "2026-05-03", "reg-format": "fixed_deals", "reg-deals": "6"})
    assert "должно быть кратно 4" in text(client.post("/manage/new/", data))
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["cup"]
    staff = text(client.post("/tournaments/cup/manage/staff/", {"username": "nobody", "kind": "referee"}))
    assert "Пользователя nobody нет." in staff


def test_seating_problems_in_russian_by_start_number(client, organiser):
    t = tournament(organiser, format=Tournament.Format.MANUAL, slug="hand", pairs=4)
    tours.generate_tour(organiser, t)
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t)}
    client.force_login(organiser)
    page = text(client.post("/tournaments/hand/manage/tours/1/seating/",
                            {"table_1_a": ids[2], "table_1_b": ids[3], "table_2_a": ids[2], "table_2_b": ids[1]}))
    assert "Пара 2 посажена больше одного раза: стол 1, стол 2." in page
    assert "Пара 4 не посажена за стол и не получила свободный тур." in page


def test_csv_report_in_russian(client, cup, organiser):
    from django.core.files.uploadedfile import SimpleUploadedFile
    client.force_login(organiser)
    csv = "last_name_1;last_name_2\nИванов;\n".encode()
    page = text(client.post("/tournaments/cup/manage/import/",
                            {"file": SimpleUploadedFile("p.csv", csv, content_type="text/csv")}))
    assert "Ничего не импортировано" in page and "Строка 2: У игрока должна быть фамилия." in page


def test_plural_forms(client, organiser):
    t = tournament(organiser, slug="big", pairs=10)
    tours.publish_tour(organiser, tours.generate_tour(organiser, t))
    assert "5 столов" in text(client.get("/tournaments/big/tours/1/"))
    assert "5 tables" in text(client.get("/en/tournaments/big/tours/1/"))


def test_every_regulation_setting_has_a_human_label_and_choice_labels():
    for field in dataclasses.fields(Regulations):
        assert field.name in REGULATION_LABELS, field.name
    for name, values in Regulations.CHOICES.items():
        assert set(values) <= set(REGULATION_CHOICES[name]), name
    with translation.override("ru"):
        assert str(REGULATION_LABELS["target"]) == "Игра до, очков"


def test_the_russian_catalog_is_complete():
    """Every msgid has a Russian translation and none is fuzzy."""
    catalog = CATALOG.read_text(encoding="utf-8")
    assert "#, fuzzy" not in catalog and "#| msgid" not in catalog
    entries = re.split(r"\n\n+", catalog.strip())[1:]  # the header first
    for entry in entries:
        strings = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', entry + "\n", flags=re.M)
        assert strings, entry
        for value in strings:
            assert "".join(re.findall(r'"(.*)"', value)), f"untranslated:\n{entry}"
