"""The organiser's pages: who may open them, and that each form goes through its service,
shows the service's refusal on the form and then writes nothing."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from builders import finish_tour, tournament, user
from scoring.engine import Regulations
from tournaments import tours
from tournaments.models import Entry, Pair, Role, Table, Tour, Tournament

pytestmark = pytest.mark.django_db


def login(client, person):
    client.force_login(person)
    return client


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def regulations_post(**changes) -> dict:
    """The regulations form's fields, as the browser posts them, with ``changes``."""
    data = {}
    for name, value in {**Regulations().to_dict(), **changes}.items():
        if name == "standings":
            data.update({f"reg-standings_{i}": value[i] if i < len(value) else "" for i in range(7)})
        else:
            data[f"reg-{name}"] = "" if value is None else value
    return data


def tournament_post(**changes) -> dict:
    fields = {"name": "Весенний кубок", "slug": "spring", "venue": "Клуб «Дубль»", "starts_on": "2026-04-10",
              "ends_on": "2026-04-11", "format": "swiss"}
    return {**fields, **{k: v for k, v in changes.items() if not k.startswith("reg_")},
            **regulations_post(**{k[4:]: v for k, v in changes.items() if k.startswith("reg_")})}


@pytest.fixture
def drafted(cup, organiser):
    """The cup with tour 1 drawn (a draft)."""
    tours.generate_tour(organiser, cup)
    return cup


PAGES = [
    ("tournament-manage", {}), ("tournament-edit", {}), ("tournament-staff", {}), ("tournament-entries", {}),
    ("pairs-import", {}), ("tour-generate", {}), ("tour-manage", {"number": 1}), ("tour-seating", {"number": 1}),
    ("tour-referees", {"number": 1}), ("tour-print", {"number": 1}), ("tournament-seeds", {}),
    ("pair-withdraw", {"pk": "pair"}), ("entry-withdraw", {"pk": "entry"}),
]


def url_of(name, kwargs, tournament):
    kwargs = dict(kwargs)
    if kwargs.get("pk") == "pair":
        kwargs["pk"] = Pair.objects.filter(tournament=tournament).first().pk
    elif kwargs.get("pk") == "entry":
        kwargs["pk"] = Entry.objects.filter(tournament=tournament).first().pk
    return reverse(name, kwargs={"slug": tournament.slug, **kwargs})


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_organiser_pages_need_a_login_and_the_organiser_role(client, drafted, organiser, referee, player_user,
                                                             name, kwargs):
    url = url_of(name, kwargs, drafted)
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/?next=" in response["Location"]
    assert login(client, referee).get(url).status_code == 403
    assert login(client, player_user).get(url).status_code == 403
    assert login(client, organiser).get(url).status_code == 200


@pytest.mark.parametrize("name", ["tour-publish", "role-remove"])
def test_buttons_need_the_organiser_role_too(client, drafted, referee, name):
    kwargs = {"number": 1} if name == "tour-publish" else {"pk": drafted.roles.get(kind="organiser").pk}
    url = reverse(name, kwargs={"slug": "cup", **kwargs})
    assert client.post(url).status_code == 302  # to the login page
    assert login(client, referee).post(url).status_code == 403
    assert drafted.tours.get().status == Tour.Status.DRAFT and drafted.roles.filter(kind="organiser").exists()


def test_manage_link_shows_to_the_organiser_only(client, cup, organiser, referee):
    assert "/tournaments/cup/manage/" not in page(login(client, referee).get("/tournaments/cup/"))
    assert "/tournaments/cup/manage/" in page(login(client, organiser).get("/tournaments/cup/"))


def test_my_tournaments_lists_roles(client, cup, referee):
    text = page(login(client, referee).get("/en/manage/"))
    assert "Кубок клуба" in text and "Referee" in text and "New tournament" not in text
    assert client.get("/en/manage/new/").status_code == 403


# -- tournaments ------------------------------------------------------------------------------------


def test_create_a_tournament_with_its_regulations(client, organiser):
    text = page(login(client, organiser).get("/en/manage/new/"))
    assert "Target, points" in text and "Criterion 1" in text and 'name="reg-standings_0"' in text
    response = client.post("/en/manage/new/", tournament_post(reg_target=150, reg_no_show_points=""))
    assert response.status_code == 302 and response["Location"] == "/en/tournaments/spring/manage/"
    spring = Tournament.objects.get(slug="spring")
    assert spring.rules.target == 150 and spring.rules.no_show_points is None
    assert spring.roles.get().user == organiser and spring.status == Tournament.Status.DRAFT


def test_create_shows_the_service_errors_and_writes_nothing(client, organiser, cup):
    login(client, organiser)
    text = page(client.post("/en/manage/new/", tournament_post(ends_on="2026-04-01")))
    assert "The tournament cannot end before it starts." in text
    text = page(client.post("/en/manage/new/", tournament_post(slug="cup")))
    assert "Another tournament has the short name cup: choose another." in text
    # the engine's own rule, shown on its field
    text = page(client.post("/en/manage/new/", tournament_post(reg_format="fixed_deals", reg_deals=10)))
    assert 'id="id_reg-deals_error"><li>must be a multiple of 4 so that every seat leads equally, got 10' in text
    text = page(client.post("/en/manage/new/", tournament_post(reg_standings=["wins", "wins"])))
    assert "at most once" in text
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["cup"]


def criteria(text: str) -> list[tuple[str, str]]:
    """The (value, label) choices of the first place of the standings order."""
    select = re.search(r'<select name="reg-standings_0"[^>]*>(.*?)</select>', text, re.S).group(1)
    return [(v, label) for v, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select) if v]


def test_the_standings_order_offers_the_criteria_of_the_events_game_each_named_once(client, organiser):
    login(client, organiser)
    for prefix in ("/en", ""):
        offered = criteria(page(client.get(f"{prefix}/manage/new/")))
        assert [v for v, _label in offered] == ["tournament_points", "points_difference", "points_for", "buchholz",
                                                "head_to_head", "wins", "points_against", "penalties"]
        assert len({label for _v, label in offered}) == len(offered)
    assert dict(criteria(page(client.get("/manage/new/"))))["tournament_points"] == "Турнирные очки"
    tournament(organiser, slug="goat", regulations={"game": "goat"})
    assert [v for v, _label in criteria(page(client.get("/en/tournaments/goat/manage/edit/")))] == [
        "game_points", "goats", "total_score"]
    # A sports event turned Goat on the form that offered sports' criteria gets Goat's order.
    sports = tournament(organiser, slug="turned")
    data = tournament_post(slug="turned", name="Козёл", status="draft", reg_game="goat",
                           reg_standings=["points_for", "wins"])
    assert client.post("/en/tournaments/turned/manage/edit/", data).status_code == 302
    sports.refresh_from_db()
    assert sports.regulations["game"] == "goat"
    assert sports.regulations["standings"] == ["game_points", "goats", "total_score"]


def test_form_bounds_come_from_the_engine(client, organiser):
    text = page(login(client, organiser).post("/en/manage/new/", tournament_post(reg_partition_minutes=60)))
    assert "less than or equal to 50" in text and not Tournament.objects.exists()


def test_edit_refuses_new_regulations_after_a_published_tour(client, drafted, organiser):
    tours.publish_tour(organiser, drafted.tours.get())
    login(client, organiser)
    data = tournament_post(slug="cup", name="Кубок клуба", status="running", reg_target=300)
    text = page(client.post("/en/tournaments/cup/manage/edit/", data))
    assert "cannot change after a tour has been published" in text
    drafted.refresh_from_db()
    assert drafted.rules.target == 200 and drafted.venue == ""
    data = tournament_post(slug="cup", name="Кубок клуба", status="running", format="swiss")
    response = client.post("/en/tournaments/cup/manage/edit/", data)
    assert response.status_code == 302
    drafted.refresh_from_db()
    assert drafted.venue == "Клуб «Дубль»"


# -- staff ------------------------------------------------------------------------------------------


def test_staff_roles_are_given_and_removed(client, cup, organiser):
    login(client, organiser)
    text = page(client.post("/en/tournaments/cup/manage/staff/", {"username": "nobody", "kind": "referee"}))
    assert "There is no user nobody." in text and cup.roles.count() == 1
    user("sudya")
    response = client.post("/en/tournaments/cup/manage/staff/", {"username": "sudya", "kind": "chief_referee"})
    assert response.status_code == 302
    role = cup.roles.get(user__username="sudya")
    assert role.kind == Role.Kind.CHIEF_REFEREE
    client.post(reverse("role-remove", kwargs={"slug": "cup", "pk": role.pk}))
    assert not cup.roles.filter(user__username="sudya").exists()
    # the last organiser stays, and the page says why
    last = cup.roles.get(kind="organiser")
    response = client.post(reverse("role-remove", kwargs={"slug": "cup", "pk": last.pk}), follow=True)
    assert "keeps at least one organiser" in page(response)
    assert cup.roles.filter(pk=last.pk).exists()


# -- pairs and players ------------------------------------------------------------------------------


def pair_post(number="", **first_second) -> dict:
    data = {"number": number}
    for prefix in ("first", "second"):
        for field in ("last_name", "first_name", "club", "city", "federation_id"):
            data[f"{prefix}_{field}"] = ""
    data.update({"first_last_name": "Новиков", "second_last_name": "Орлов"}, **first_second)
    return data


def test_register_a_pair_and_refuse_a_player_twice(client, cup, organiser):
    login(client, organiser)
    response = client.post("/en/tournaments/cup/manage/entries/", pair_post(first_federation_id="RU-1"))
    assert response.status_code == 302
    pair = Pair.objects.get(tournament=cup, number=6)
    assert (pair.first.last_name, pair.first.federation_id, pair.second.last_name) == ("Новиков", "RU-1", "Орлов")
    before = Pair.objects.count(), Entry.objects.count()
    text = page(client.post("/en/tournaments/cup/manage/entries/",
                            pair_post(first_federation_id="RU-1", second_last_name="Быков")))
    assert "is already registered in this tournament" in text
    text = page(client.post("/en/tournaments/cup/manage/entries/", pair_post(number="2")))
    assert "Start number 2 is taken." in text
    assert (Pair.objects.count(), Entry.objects.count()) == before


def test_register_a_player_of_an_individual_event(client, organiser):
    t = tournament(organiser, format=Tournament.Format.INDIVIDUAL, slug="solo")
    login(client, organiser)
    data = {"last_name": "Шахов", "first_name": "", "club": "", "city": "Тверь", "federation_id": ""}
    assert client.post("/en/tournaments/solo/manage/entries/", data).status_code == 302
    assert t.entries.get().player.city == "Тверь"
    assert "CSV import" not in page(client.get("/en/tournaments/solo/manage/entries/"))


def test_withdraw_asks_first_then_withdraws(client, cup, organiser):
    pair = Pair.objects.get(tournament=cup, number=3)
    url = reverse("pair-withdraw", kwargs={"slug": "cup", "pk": pair.pk})
    text = page(login(client, organiser).get(url))
    assert "Withdraw pair №3 Игрок3а — Игрок3б?" in text
    pair.refresh_from_db()
    assert pair.withdrawn_at is None
    client.post(url)
    pair.refresh_from_db()
    assert pair.withdrawn_at is not None


# -- CSV import -------------------------------------------------------------------------------------

GOOD_CSV = """last_name_1;first_name_1;club_1;federation_id_1;last_name_2;first_name_2;club_2
Иванов;Иван;Спартак;RU-10;Петров;Пётр;Спартак
Сидоров;Семён;Динамо;;Смирнов;Сергей;Динамо
Козлов;;;;Волков;;
"""


def upload(client, text: str, encoding="utf-8"):
    file = SimpleUploadedFile("pairs.csv", text.encode(encoding), content_type="text/csv")
    return client.post("/en/tournaments/cup/manage/import/", {"file": file}, follow=True)


def test_csv_import_registers_every_pair(client, cup, organiser):
    text = page(login(client, organiser).get("/en/tournaments/cup/manage/import/"))
    assert "last_name_1" in text and "federation_id_2" in text  # the columns are explained
    text = page(upload(client, GOOD_CSV, "cp1251"))
    assert "3 pairs imported." in text
    assert Pair.objects.filter(tournament=cup).count() == 8
    assert Pair.objects.get(tournament=cup, number=6).first.first_name == "Иван"


def test_csv_import_refuses_the_whole_file_and_lists_the_bad_lines(client, cup, organiser):
    bad = GOOD_CSV + "Лебедев;;;;;;\nИванов;;;RU-10;Зайцев;;\n"
    text = page(upload(login(client, organiser), bad))
    assert "Nothing was imported" in text
    assert "Line 5:" in text and "A player needs a last name." in text
    assert "Line 6:" in text and "already registered" in text
    assert "Line 2:" not in text
    assert Pair.objects.filter(tournament=cup).count() == 5
    text = page(upload(client, "фамилия;имя\nИванов;Иван\n"))
    assert "Line 1:" in text and "missing columns: last_name_1, last_name_2" in text


RATED_CSV = """Фамилия 1;Фамилия 2;Рейтинг
Аксенов;Белов;1480
Волков;Гусев;1 520,5
Дронов;Ершов;
Жуков;Зуев;1600
"""


def test_csv_import_with_ratings_seeds_tour_1_and_the_draw_follows(client, cup, organiser):
    login(client, organiser)
    assert "Рейтинг" in page(client.get("/tournaments/cup/manage/import/"))  # the column is explained
    assert client.get("/en/tournaments/cup/manage/import/template.csv").content.decode("utf-8-sig").rstrip().endswith(
        ";Рейтинг")
    response = upload(client, RATED_CSV, "cp1251")
    assert response.redirect_chain[-1][0] == "/en/tournaments/cup/manage/seeding/"
    text = page(response)
    assert "4 pairs imported." in text and "3 pairs seeded by their rating." in text
    assert "This tournament seeds tour 1: By start numbers. The seeds count when" in text
    seeded = dict(Pair.objects.filter(tournament=cup).values_list("first__last_name", "seed"))
    assert [seeded[name] for name in ("Жуков", "Волков", "Аксенов", "Дронов")] == [1, 2, 3, None]
    zhukov = Pair.objects.get(tournament=cup, first__last_name="Жуков")
    assert f'name="seed_{zhukov.pk}" value="1"' in text  # the seeding page shows them
    # Under the seeding by seed numbers, Swiss tour 1 seats seed 1 against seed n/2+1 (of 9 pairs:
    # the 5 before, by start number, follow the 3 seeded).
    cup.seeding = Tournament.Seeding.SEEDS
    cup.save(update_fields=["seeding"])
    tour = tours.generate_tour(organiser, cup)
    first = tour.tables.get(number=1)
    assert first.pair_a == zhukov and first.pair_b.number == 2


def test_csv_import_with_a_bad_rating_lists_the_line_in_russian_and_imports_nothing(client, cup, organiser):
    login(client, organiser)
    file = SimpleUploadedFile("pairs.csv", (RATED_CSV + "Исаев;Котов;высокий\n").encode("cp1251"))
    text = page(client.post("/tournaments/cup/manage/import/", {"file": file}, follow=True))
    assert "Строка 6: рейтинг должен быть числом от 0, например 1520 или 1520,5, а не высокий." in text
    assert Pair.objects.filter(tournament=cup).count() == 5 and not Pair.objects.filter(seed__isnull=False).exists()
    file = SimpleUploadedFile("pairs.csv", RATED_CSV.encode("utf-8"))
    cup.seeding = Tournament.Seeding.SEEDS
    cup.save(update_fields=["seeding"])
    text = page(client.post("/tournaments/cup/manage/import/", {"file": file}, follow=True))
    assert "По рейтингу посеяны 3 пары." in text and "Номера посева действуют, когда турнир" not in text


def test_csv_import_refuses_a_file_that_is_not_a_file(client, cup, organiser):
    response = login(client, organiser).post("/en/tournaments/cup/manage/import/", {})
    assert "This field is required." in page(response)


# -- tours ------------------------------------------------------------------------------------------


def test_draw_review_publish_and_refuse_the_next_draw(client, cup, organiser):
    login(client, organiser)
    assert "Draw tour 1" in page(client.get("/en/tournaments/cup/manage/tours/new/"))
    response = client.post("/en/tournaments/cup/manage/tours/new/", {"planned_start": "2026-11-21T10:00"})
    assert response.status_code == 302 and response["Location"] == "/en/tournaments/cup/manage/tours/1/"
    tour = cup.tours.get()
    assert tour.status == Tour.Status.DRAFT and tour.tables.count() == 2 and tour.planned_start.hour == 7  # UTC
    text = page(client.get("/en/tournaments/cup/manage/tours/1/"))
    assert text.count('class="draw-table"') == 2 and "Publish the tour" in text
    client.post("/en/tournaments/cup/manage/tours/1/publish/")
    tour.refresh_from_db()
    assert tour.status == Tour.Status.PUBLISHED
    text = page(client.post("/en/tournaments/cup/manage/tours/new/", {"planned_start": ""}))
    assert "Finish the current tour first" in text and cup.tours.count() == 1
    finish_tour(tour)
    assert client.post("/en/tournaments/cup/manage/tours/new/", {}).status_code == 302
    assert cup.tours.count() == 2


def test_publishing_an_empty_tour_is_refused_with_a_message(client, organiser):
    t = tournament(organiser, format=Tournament.Format.MANUAL, slug="hand", pairs=4)
    tours.generate_tour(organiser, t)
    response = login(client, organiser).post("/en/tournaments/hand/manage/tours/1/publish/", follow=True)
    assert "has no tables: draw or seat it first" in page(response)
    assert t.tours.get().status == Tour.Status.DRAFT


def test_manual_seating_shows_every_problem_by_start_number_and_writes_nothing(client, organiser):
    t = tournament(organiser, format=Tournament.Format.MANUAL, slug="hand", pairs=5)
    tour = tours.generate_tour(organiser, t)
    ids = {p.number: p.pk for p in Pair.objects.filter(tournament=t)}
    login(client, organiser)
    text = page(client.get("/en/tournaments/hand/manage/tours/1/seating/"))
    assert 'name="table_2_b"' in text and 'name="table_3_a"' not in text and 'name="bye"' in text
    data = {"table_1_a": ids[1], "table_1_b": ids[2], "table_2_a": ids[1], "table_2_b": "", "bye": ids[5]}
    text = page(client.post("/en/tournaments/hand/manage/tours/1/seating/", data))
    assert "Table 2: seats 2 and 4 are empty." in text
    assert "Pair 1 is seated more than once: table 1, table 2." in text
    assert "Pair 3 is neither seated nor given the bye." in text
    assert not tour.tables.exists()
    data.update(table_2_a=ids[4], table_2_b=ids[3])
    assert client.post("/en/tournaments/hand/manage/tours/1/seating/", data).status_code == 302
    assert [(x.pair_a.number, x.pair_b.number) for x in tour.tables.all()] == [(1, 2), (4, 3)]
    assert tour.byes.get().pair.number == 5


def test_referees_are_assigned_all_or_none(client, drafted, organiser, referee):
    login(client, organiser)
    text = page(client.get("/en/tournaments/cup/manage/tours/1/referees/"))
    assert "Table 1" in text and "ref" in text
    response = client.post("/en/tournaments/cup/manage/tours/1/referees/", {"table_1": referee.pk, "table_2": ""})
    assert response.status_code == 302
    assert Table.objects.get(tour__tournament=drafted, number=1).referee == referee
    tour = drafted.tours.get()
    tours.publish_tour(organiser, tour)
    finish_tour(tour)
    text = page(client.post("/en/tournaments/cup/manage/tours/1/referees/", {"table_1": "", "table_2": referee.pk}))
    assert "Table 1: The tour is finished." in text
    assert Table.objects.get(tour=tour, number=1).referee == referee
    assert Table.objects.get(tour=tour, number=2).referee is None


def test_print_sheet_is_the_sheet_alone(client, drafted, organiser):
    text = page(login(client, organiser).get("/en/tournaments/cup/manage/tours/1/print/"))
    assert 'class="sheet"' in text and text.count('class="sheet-table"') == 2
    assert "site-header" not in text and "site-footer" not in text
    assert "Pair A: seats 1 and 3" in text


def test_superuser_manages_every_tournament(client, cup):
    boss = user("boss", superuser=True)
    assert login(client, boss).get("/tournaments/cup/manage/").status_code == 200


def test_a_user_without_the_right_cannot_create(client, db):
    person = user("plain")
    assert login(client, person).get("/manage/new/").status_code == 403
    person.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert client.get("/manage/new/").status_code == 200


def test_team_standings_are_set_on_the_tournament_form_for_sports_events_only(client, cup, organiser):
    login(client, organiser)
    assert 'name="team_best"' in page(client.get("/en/tournaments/cup/manage/edit/"))
    data = tournament_post(slug="cup", name="Кубок клуба", status="draft", team_best="3")
    assert client.post("/en/tournaments/cup/manage/edit/", data).status_code == 302
    cup.refresh_from_db()
    assert cup.team_best == 3
    # Left empty: none.
    assert client.post("/en/tournaments/cup/manage/edit/", {**data, "team_best": ""}).status_code == 302
    cup.refresh_from_db()
    assert cup.team_best == 0
    # Goat has no tournament points to add: refused on its field, nothing written.
    text = page(client.post("/en/manage/new/", tournament_post(format="individual", reg_game="goat", team_best="2")))
    assert 'id="id_team_best_error"' in text and "Team standings are of sports domino events only." in text
    assert not Tournament.objects.filter(slug="spring").exists()
