"""The entries page keeps the entries right: a player's data corrected, a player substituted, a
withdrawal undone, the CSV template downloaded; each through its service, refusals on the page."""

import pytest
from django.urls import reverse

from builders import tournament, user

from tournaments import services
from tournaments.models import EntryChange, Pair

pytestmark = pytest.mark.django_db


def url(name, cup, **kwargs):
    return reverse(name, kwargs={"slug": cup.slug, **kwargs})


def test_only_the_organiser_opens_the_new_pages(client, cup, organiser, referee):
    pair = Pair.objects.get(tournament=cup, number=1)
    pages = [url("player-edit", cup, player=pair.first_id), url("pair-substitute", cup, pk=pair.pk),
             url("pairs-import-template", cup)]
    client.force_login(referee)
    assert [client.get(u).status_code for u in pages] == [403] * 3
    assert client.post(url("pair-reinstate", cup, pk=pair.pk)).status_code == 403
    client.force_login(organiser)
    assert [client.get(u).status_code for u in pages] == [200] * 3


def test_correct_a_players_name_and_see_it_in_the_history(client, cup, organiser):
    player = Pair.objects.get(tournament=cup, number=1).first
    client.force_login(organiser)
    entries = client.get(url("tournament-entries", cup)).content.decode()
    assert url("player-edit", cup, player=player.pk) in entries
    response = client.post(url("player-edit", cup, player=player.pk),
                           {"last_name": "Ильина", "first_name": "Анна", "club": "", "city": "", "federation_id": ""})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.last_name, player.first_name) == ("Ильина", "Анна")
    text = client.get(url("tournament-entries", cup)).content.decode()
    assert "History of the entries" in text and "«Игрок1а» → «Ильина»" in text
    # Russian first
    assert "История заявок" in client.get(url("tournament-entries", cup).removeprefix("/en")).content.decode()


def test_a_player_entered_in_another_organisers_tournament_is_not_offered_for_correction(client, cup, organiser):
    player = Pair.objects.get(tournament=cup, number=1).first
    services.update_player(organiser, player, {"federation_id": "RU-1"})
    other = tournament(user("other", superuser=True), slug="other")
    services.register_pair(other.created_by, other, {"last_name": player.last_name, "federation_id": "RU-1"},
                           {"last_name": "Второй"})
    client.force_login(organiser)
    entries = client.get(url("tournament-entries", cup)).content.decode()
    assert url("player-edit", cup, player=player.pk) not in entries
    assert client.get(url("player-edit", cup, player=player.pk)).status_code == 403


def test_substitute_a_player_and_undo_a_withdrawal(client, cup, organiser):
    pair = Pair.objects.get(tournament=cup, number=2)
    client.force_login(organiser)
    form = {"leaving": pair.second_id, "from_tour": 1, "last_name": "Запасной", "first_name": "", "club": "",
            "city": "", "federation_id": ""}
    text = client.post(url("pair-substitute", cup, pk=pair.pk), {**form, "from_tour": 2}).content.decode()
    assert "Ensure this value is less than or equal to 1." in text
    assert client.post(url("pair-substitute", cup, pk=pair.pk), form).status_code == 302
    pair.refresh_from_db()
    assert str(pair) == "Игрок2а — Запасной"
    services.withdraw_pair(organiser, pair)
    assert client.post(url("pair-reinstate", cup, pk=pair.pk)).status_code == 302
    pair.refresh_from_db()
    assert pair.withdrawn_at is None
    # Once more: refused, shown as a message
    response = client.post(url("pair-reinstate", cup, pk=pair.pk), follow=True)
    assert "Pair №2 is not withdrawn." in response.content.decode()
    assert list(EntryChange.objects.order_by("pk").values_list("action", flat=True)) == [
        "substituted", "withdrawn", "reinstated"]


def test_the_template_downloads_as_a_russian_semicolon_csv(client, cup, organiser):
    client.force_login(organiser)
    response = client.get(url("pairs-import-template", cup))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.decode("utf-8-sig").startswith("Номер;Фамилия 1;Имя 1;Клуб 1;Город 1;")
    assert url("pairs-import-template", cup) in client.get(url("pairs-import", cup)).content.decode()
