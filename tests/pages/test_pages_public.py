"""Public pages: tournaments, tours and players; drafts stay with the staff."""

import pytest
from django.urls import reverse

from builders import finish_tour, tournament, user
from tournaments import services
from tournaments import tours
from tournaments.models import Pair, Tournament

pytestmark = pytest.mark.django_db


def login(client, person):
    client.force_login(person)
    return client


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def published(cup, organiser):
    """The cup with tour 1 published (two tables and a bye) and tour 2 drawn as a draft."""
    first = tours.generate_tour(organiser, cup)
    tours.publish_tour(organiser, first)
    finish_tour(first)
    tours.generate_tour(organiser, cup)
    return cup


def test_tournament_list_groups_by_status_and_hides_drafts(client, organiser, published):
    tournament(organiser, slug="later")  # a draft: its organiser's business only
    finished = tournament(organiser, slug="old")
    services.update_tournament(organiser, finished, name="Прошлый кубок", status=Tournament.Status.FINISHED)
    page = html(client.get("/en/tournaments/"))
    running, finished_part = page.split('id="group-running"')[1].split('id="group-finished"')
    assert "Кубок клуба" in running and "Прошлый кубок" in finished_part
    assert "/tournaments/later/" not in page
    assert "/tournaments/later/" in html(login(client, organiser).get("/en/tournaments/"))


def test_tournament_page_shows_info_regulations_pairs_and_public_tours(client, published):
    page = html(client.get("/en/tournaments/cup/"))
    assert "Кубок клуба" in page and "Swiss" in page
    assert "Target, points" in page and "200" in page  # the regulations, in words
    assert page.count("Игрок") >= 10  # five pairs of two
    assert reverse("tour", kwargs={"slug": "cup", "number": 1}) in page
    assert "/tournaments/cup/tours/2/" not in page  # the draft
    assert "Manage the tournament" not in page


def test_draft_tournament_is_hidden_from_the_public(client, organiser):
    tournament(organiser, slug="secret")
    assert client.get("/tournaments/secret/").status_code == 404
    assert login(client, organiser).get("/tournaments/secret/").status_code == 200


def test_tour_draw_shows_tables_seats_and_the_bye(client, published):
    tour = published.tours.get(number=1)
    page = html(client.get("/en/tournaments/cup/tours/1/"))
    assert page.count('class="draw-table"') == 2
    for table in tour.tables.all():
        for player in table.seats:
            assert str(player) in page
    bye = tour.byes.get().pair
    assert "Bye" in page and f"№{bye.number}" in page
    assert "200 : 100" in page  # tour 1 is finished: its results show


def test_draft_tour_is_seen_by_the_staff_only(client, published, organiser, referee, player_user):
    url = "/tournaments/cup/tours/2/"
    assert client.get(url).status_code == 404
    assert login(client, player_user).get(url).status_code == 404
    assert login(client, referee).get(url).status_code == 200
    page = html(login(client, organiser).get("/en" + url))
    assert "Draft: seen by the staff only" in page and "Manage the tour" in page


def test_player_page_lists_tournaments_and_tables(client, published):
    pair = Pair.objects.get(tournament=published, number=1)
    table = published.tours.get(number=1).tables.filter(pair_a=pair).first() or \
        published.tours.get(number=1).tables.get(pair_b=pair)
    page = html(client.get(f"/en/players/{pair.first.pk}/"))
    assert "Кубок клуба" in page
    assert f"#table-{table.number}" in page
    assert str(pair.second) in page  # the partner
    opponents = table.pair_b if table.pair_a == pair else table.pair_a
    assert str(opponents.first) in page and str(opponents.second) in page
    # the draft tour 2 does not show to the public
    assert "/tournaments/cup/tours/2/" not in page


def test_a_player_of_drafts_only_is_seen_by_their_staff_only(client, organiser, published, referee):
    secret = tournament(organiser, slug="secret")  # a draft
    pair = services.register_pair(organiser, secret,
                                  {"last_name": "Засекреченный-Неопубликованный О'Брайен-Семёнов",
                                   "first_name": "Фёдор-Пётр Ильич"}, {"last_name": "Черновиков-Д'Артаньян"})
    url = f"/en/players/{pair.first.pk}/"
    assert client.get(url).status_code == 404
    assert login(client, user("stranger")).get(url).status_code == 404
    assert "О&#x27;Брайен-Семёнов" in html(login(client, organiser).get(url))
    # A player of a published tournament who also plays in the draft: seen, without the draft.
    both = Pair.objects.get(tournament=published, number=1).first
    services.update_player(organiser, both, {"federation_id": "RU-77-0001"})
    services.register_pair(organiser, secret, {"last_name": both.last_name, "federation_id": "RU-77-0001"},
                           {"last_name": "Тайный партнёр"})
    assert secret.entries.filter(player=both).exists()
    page = html(login(client, referee).get(f"/en/players/{both.pk}/"))
    assert "/tournaments/cup/" in page and "/tournaments/secret/" not in page


def test_individual_tour_shows_who_sits_out(client):
    org = user("boss", superuser=True)
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="solo")
    for n in range(1, 6):
        services.register_player(org, t, {"last_name": f"Одиночка{n}"})
    tours.publish_tour(org, tours.generate_tour(org, t))
    page = html(client.get("/en/tournaments/solo/tours/1/"))
    assert page.count('class="draw-table"') == 1 and "Sitting out" in page
    assert html(client.get("/en/tournaments/solo/")).count("Одиночка") == 5


def test_unknown_things_are_404(client, published):
    assert client.get("/tournaments/nope/").status_code == 404
    assert client.get("/tournaments/cup/tours/9/").status_code == 404
    assert client.get("/players/999999/").status_code == 404
