"""The players' pages: /players/ finds a player by his name in Cyrillic or in its passport, BGN/PCGN
or GOST 7.79 B spelling, or by his federation id; his page lists every tournament he played with
each tour's partner, opponents, score and result; his page within a tournament shows his next table."""

import datetime

import pytest
from django.utils import timezone

from builders import finish_tour, tournament, user
from tournaments import services
from tournaments import tours
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def found(client, query: str) -> list[str]:
    """The addresses of the players /players/ finds for ``query``."""
    page = html(client.get("/en/players/", {"q": query}))
    return [line.split('href="')[1].split('"')[0] for line in page.splitlines() if "list-item__title" in line]


@pytest.fixture
def cup(organiser):
    """A pair event open for registration: Щукин Юлий (federation id RUS-0042) with Соловьёв Пётр,
    and Иванов with Петров."""
    t = tournament(organiser)
    services.register_pair(organiser, t, {"last_name": "Щукин", "first_name": "Юлий", "federation_id": "RUS-0042"},
                           {"last_name": "Соловьёв", "first_name": "Пётр"})
    services.register_pair(organiser, t, {"last_name": "Иванов"}, {"last_name": "Петров"})
    return services.update_tournament(organiser, t, status=Tournament.Status.REGISTRATION)


def test_a_player_is_found_by_every_spelling_of_his_name_and_by_his_federation_id(client, cup, organiser):
    shchukin = f"/players/{Player.objects.get(last_name='Щукин').pk}/"
    solovyov = f"/players/{Player.objects.get(last_name='Соловьёв').pk}/"
    for query in ("Щукин", "щукин юлий", "Юлий Щукин", "Shchukin", "SHCHUKIN Iulii", "Shchukin Yuliy",
                  "Shhukin Yulij", "rus-0042", "RUS-0042"):
        assert found(client, query) == ["/en" + shchukin], query
    for query in ("Соловьёв", "Соловьев", "Solovev Petr", "Solov'yev Pëtr", "Solovyov Pyotr", "Solov`yov"):
        assert found(client, query) == ["/en" + solovyov], query
    for query in ("Ivanow", "Shukin", "Щукин Пётр", "RUS-0043", "Tsyganov"):
        assert found(client, query) == [], query
    assert len(found(client, "ов")) == 3  # Иванов, Петров, Соловьёв
    # A corrected name and federation id are found at once, the old ones no more.
    services.update_player(organiser, Player.objects.get(last_name="Щукин"),
                           {"last_name": "Цыганов", "federation_id": "RUS-0043"})
    for query in ("Tsyganov", "Cyganov", "Cy`ganov Yulij", "RUS-0043"):
        assert found(client, query) == ["/en" + shchukin], query
    assert found(client, "Shchukin") == [] and found(client, "RUS-0042") == []
    page = html(client.get("/en/players/", {"q": "Ivanow"}))
    assert "0 players found" in page and "Nobody found" in page
    assert "players found" not in html(client.get("/en/players/"))  # no query: no list


def test_the_search_pages_its_answers_and_keeps_the_query(client, organiser):
    t = tournament(organiser, slug="big")
    for n in range(15):
        services.register_pair(organiser, t, {"last_name": f"Кузнецов{n:02d}"}, {"last_name": f"Кузнецова{n:02d}"})
    services.update_tournament(organiser, t, status=Tournament.Status.REGISTRATION)
    first = html(client.get("/en/players/", {"q": "Kuznetsov"}))
    assert "30 players found" in first and first.count("list-item__title") == 25 and "Page 1 of 2" in first
    assert "?q=Kuznetsov&amp;page=2" in first
    second = html(client.get("/en/players/", {"q": "Kuznetsov", "page": 2}))
    assert second.count("list-item__title") == 5 and "Кузнецова14" in second
    assert html(client.get("/en/players/", {"q": "Kuznetsov", "page": "x"})).count("list-item__title") == 25


def test_players_of_a_draft_tournament_are_found_by_its_staff_only(client, organiser):
    secret = tournament(organiser, slug="secret")
    services.register_pair(organiser, secret, {"last_name": "Тайнов"}, {"last_name": "Скрытов"})
    assert found(client, "Taynov") == [] and found(client, "Тайнов") == []
    client.force_login(organiser)
    assert len(found(client, "Taynov")) == 1


def test_the_navigation_leads_to_the_search(client):
    assert 'href="/en/players/"' in html(client.get("/en/"))
    assert 'href="/players/"' in html(client.get("/players/"))


@pytest.fixture
def season(organiser):
    """Two pair events of the same four players (found again by their federation ids): an older
    finished one, and the cup with tour 1 played (table 1: 200:150 for pair A; table 2: pair A
    loses 90:210) and tour 2 published and planned, not played."""
    players = [{"last_name": name, "federation_id": f"F{n}"}
               for n, name in enumerate(("Щукин", "Соловьёв", "Иванов", "Петров", "Сидоров", "Кузнецов",
                                         "Смирнов", "Попов"))]
    old = tournament(organiser, slug="old")
    services.update_tournament(organiser, old, starts_on=datetime.date(2026, 5, 1), ends_on=datetime.date(2026, 5, 1),
                               name="Весенний кубок")
    for n in range(0, 8, 2):
        services.register_pair(organiser, old, players[n], players[(n + 3) % 8])
    first = tours.generate_tour(organiser, old)
    tours.publish_tour(organiser, first)
    finish_tour(first, {1: (200, 0), 2: (200, 0)})
    services.update_tournament(organiser, old, status=Tournament.Status.FINISHED)
    cup = tournament(organiser)
    for n in range(0, 8, 2):
        services.register_pair(organiser, cup, players[n], players[n + 1])
    first = tours.generate_tour(organiser, cup)
    tours.publish_tour(organiser, first)
    finish_tour(first, {1: (200, 150), 2: (90, 210)})
    second = tours.generate_tour(organiser, cup, planned_start=timezone.make_aware(datetime.datetime(2026, 11, 21, 15, 30)))
    tours.publish_tour(organiser, second)
    return cup


def test_a_players_page_shows_each_tournament_and_each_tours_score_and_result(client, season):
    table = season.tours.get(number=1).tables.get(number=1)
    a, b = table.pair_a.first, table.pair_b.first
    page = html(client.get(f"/en/players/{a.pk}/"))
    # Newest first: the cup, then the spring cup, each with its tours.
    assert page.index("Кубок клуба") < page.index("Весенний кубок")
    cup_part, old_part = page.split("Весенний кубок")
    assert "<strong>200 : 150</strong>" in cup_part and "won" in cup_part
    assert str(table.pair_a.second) in cup_part  # the partner
    assert str(table.pair_b.first) in cup_part and str(table.pair_b.second) in cup_part  # the opponents
    assert "not played yet" in cup_part  # tour 2 is drawn, not played
    assert "Federation id: F" in page
    assert f"/tournaments/cup/players/{a.pk}/" in page
    assert "/tournaments/old/tours/1/" in old_part
    # The other side of the same partition: the same stored result, seen from pair B.
    other = html(client.get(f"/en/players/{b.pk}/")).split("Весенний кубок")[0]
    assert "<strong>150 : 200</strong>" in other and "lost" in other
    # Table 2: pair A lost 90:210.
    loser = season.tours.get(number=1).tables.get(number=2).pair_a.second
    assert "<strong>90 : 210</strong>" in html(client.get(f"/en/players/{loser.pk}/")).split("Весенний кубок")[0]


def test_an_individual_events_tours_show_each_tours_partner_and_score(client, organiser):
    t = tournament(organiser, format=Tournament.Format.INDIVIDUAL, slug="solo")
    for name in ("Первов", "Второв", "Третьяков", "Четвертаков", "Пятаков"):
        services.register_player(organiser, t, {"last_name": name})
    tour = tours.generate_tour(organiser, t)
    tours.publish_tour(organiser, tour)
    finish_tour(tour, {1: (130, 200)})
    table = tour.tables.get()
    seat1, seat2, seat3, _ = table.seats
    page = html(client.get(f"/en/players/{seat1.pk}/"))
    assert "<strong>130 : 200</strong>" in page and "lost" in page
    assert f'<a href="/en/players/{seat3.pk}/">{seat3}</a>' in page  # this tour's partner, opposite
    assert "<strong>200 : 130</strong>" in html(client.get(f"/en/players/{seat2.pk}/"))
    sitting_out = tour.sit_outs.get().player
    assert "sat out" in html(client.get(f"/en/players/{sitting_out.pk}/"))


def test_a_bye_shows_as_a_win(client, organiser):
    t = tournament(organiser, pairs=3, slug="three")
    tour = tours.generate_tour(organiser, t)
    tours.publish_tour(organiser, tour)
    pair = tour.byes.get().pair
    page = html(client.get(f"/en/players/{pair.first.pk}/"))
    assert "bye: a win" in page and str(pair.second) in page


def test_the_tournament_page_of_a_player_shows_his_next_table_and_each_tours_score(client, season):
    table = season.tours.get(number=2).tables.get(number=1)
    player = table.seat2
    page = html(client.get(f"/en/tournaments/cup/players/{player.pk}/"))
    next_table = page.split('id="next-table"')[1].split('id="his-tours"')[0]
    assert "Tour 2 · Table 1 · seat 2" in next_table
    assert str(table.seat4) in next_table  # the partner
    assert str(table.seat1) in next_table and str(table.seat3) in next_table  # the opponents
    assert "21 November, 15:30" in next_table  # the planned start
    # Tour 1, played: his pair's points first, as stored (table 1 ended 200:150, table 2 90:210).
    before = next(t for t in season.tours.get(number=1).tables.all() if player in t.seats)
    a, b = {1: (200, 150), 2: (90, 210)}[before.number]
    own, other = (a, b) if player in (before.seat1, before.seat3) else (b, a)
    assert f"<strong>{own} : {other}</strong>" in page.split('id="his-tours"')[1]
    # The standings lead there.
    assert f"/tournaments/cup/players/{player.pk}/" in html(client.get("/en/tournaments/cup/standings/"))
    # Once tour 2 is played there is no next table.
    finish_tour(season.tours.get(number=2))
    assert "No table to play" in html(client.get(f"/en/tournaments/cup/players/{player.pk}/"))


def test_the_tournament_page_of_a_player_is_a_404_elsewhere(client, season, organiser):
    player = Player.objects.get(last_name="Щукин")
    stranger = tournament(organiser, slug="other")
    services.update_tournament(organiser, stranger, status=Tournament.Status.REGISTRATION)
    assert client.get(f"/en/tournaments/other/players/{player.pk}/").status_code == 404
    assert client.get(f"/en/tournaments/nope/players/{player.pk}/").status_code == 404
    secret = tournament(organiser, slug="secret")
    services.register_pair(organiser, secret, {"last_name": "Щукин", "federation_id": "F0"}, {"last_name": "Тайнов"})
    assert client.get(f"/en/tournaments/secret/players/{player.pk}/").status_code == 404
    assert "/tournaments/secret/" not in html(client.get(f"/en/players/{player.pk}/"))
    client.force_login(user("boss", superuser=True))
    assert client.get(f"/en/tournaments/secret/players/{player.pk}/").status_code == 200
