"""A player's confirmed protocols on his page: linked for those who may read them (his own account,
the tournament's staff), never for the public or other players."""

import pytest

from scoring.models import ProtocolDocument

from builders import user
from protocols_world import confirm_all, play_short

pytestmark = pytest.mark.django_db


def test_the_confirmed_protocol_is_linked_on_the_players_page_for_him_and_the_staff(client, world):
    partition = world["p1"]
    play_short(world["ref"], partition.pk)
    confirm_all(world, partition.pk)
    document = ProtocolDocument.objects.get(partition=partition, confirmed=True)
    player = world["table"].seat1
    url, link = f"/en/players/{player.pk}/", f"/en/verify/{document.code}/"

    partition.refresh_from_db()
    page = client.get(url).content.decode()
    assert f"<strong>{partition.points_a} : {partition.points_b}</strong>" in page and ">won<" in page
    assert "Confirmed protocols" not in page and document.code not in page

    player.user = user("shchukin")
    player.save()
    client.force_login(player.user)
    page = client.get(url).content.decode()
    assert "Confirmed protocols" in page and link in page and "Tour 1, table 1" in page
    client.force_login(world["chief"])
    assert link in client.get(url).content.decode()
    other = world["table2"].seat1  # a player of another table
    other.user = user("elsewhere")
    other.save()
    client.force_login(other.user)
    assert document.code not in client.get(url).content.decode()
