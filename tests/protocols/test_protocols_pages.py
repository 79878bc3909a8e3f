"""The protocol pages: who sees what, the print views, confirming from one's own account, the PIN
page and the signing key page."""

import pytest
from django.urls import reverse

from scoring import protocols
from scoring.models import Confirmation, SigningKey

from builders import user
from protocols_world import BASE_URL, play_short

pytestmark = pytest.mark.django_db


def table_url(world, name, **query):
    url = reverse(name, args=[world["tournament"].slug, 1, world["table"].number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_print_views_are_for_the_staff_and_the_players_of_the_table(world, client):
    play_short(world["ref"], world["p1"].pk)
    url = table_url(world, "partition-protocol")
    assert client.get(url).status_code == 302  # log in first
    client.force_login(user("stranger"))
    assert client.get(url).status_code == 403
    for who in ("ref", "other", "chief", "org"):
        client.force_login(world[who])
        page = client.get(url)
        assert page.status_code == 200
    body = page.content.decode()
    assert "Игрок1а" in body and 'class="deal-row"' in body and "Print this page" in body
    assert client.get(table_url(world, "partition-protocol", version=2)).context["version"] == 2
    assert client.get(table_url(world, "partition-protocol", version=99)).status_code == 404
    player = world["table"].seat4
    player.user = user("p4")
    player.save()
    client.force_login(player.user)
    assert client.get(url).status_code == 200
    slug = world["tournament"].slug
    client.force_login(world["chief"])
    for name, args in (("tour-protocol", [slug, 1]), ("final-protocol", [slug]), ("tour-protocols", [slug, 1])):
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
    assert "Make all the protocols" not in response.content.decode()  # the batch is the organiser's
    client.force_login(world["org"])
    assert "Make all the protocols" in client.get(reverse("tour-protocols", args=[slug, 1])).content.decode()
    response = client.get(reverse("tour-protocol-pdf", args=[slug, 1]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")


def test_a_player_confirms_from_his_own_phone(world, client):
    p = play_short(world["ref"], world["p1"].pk)
    player = world["table"].seat3
    player.user = user("p3")
    player.save()
    client.force_login(player.user)
    url = table_url(world, "partition-confirm")
    page = client.get(url)
    body = page.content.decode()
    assert body.count("Confirm from my account") == 1 and "Confirm with PIN" not in body
    response = client.post(url, {"seat": 3, "version": p.version}, follow=True)
    assert "Confirmed by" in response.content.decode()
    confirmation = Confirmation.objects.get(partition=p, seat=3)
    assert (confirmation.method, confirmation.user) == ("account", player.user)
    response = client.post(url, {"seat": 1, "version": p.version}, follow=True)  # not his seat
    assert "Only" in response.content.decode() and not Confirmation.objects.filter(seat=1).exists()


def test_a_wrong_pin_on_the_page_says_so(world, client):
    p = play_short(world["ref"], world["p1"].pk)
    client.force_login(world["ref"])
    response = client.post(table_url(world, "partition-confirm"), {"seat": 2, "pin": "0000", "version": p.version},
                           follow=True)
    assert "Wrong PIN" in response.content.decode()


def test_the_pin_page(world, client):
    player = world["table"].seat1
    url = reverse("player-pin", args=[player.pk])
    client.force_login(world["ref"])
    assert client.get(url).status_code == 403
    client.force_login(world["org"])
    assert client.get(url).status_code == 200
    response = client.post(url, {"pin": "5678", "pin_again": "5679"}, follow=True)
    assert "differ" in response.content.decode()
    response = client.post(url, {"pin": "5678", "pin_again": "5678", "next": "/en/verify/"})
    assert response.status_code == 302 and response["Location"] == "/en/verify/"
    player.refresh_from_db()
    from django.contrib.auth.hashers import check_password

    assert check_password("5678", player.pin)
    response = client.post(url, {"pin": "56", "pin_again": "56"}, follow=True)
    assert "4 to 8 digits" in response.content.decode()


def test_the_signing_key_page(world, client):
    url = reverse("signing-key", args=[world["tournament"].slug])
    client.force_login(world["chief"])
    assert client.get(url).status_code == 403
    client.force_login(world["org"])
    assert "No key yet" in client.get(url).content.decode()
    client.post(url, {"action": "create"})
    key = SigningKey.objects.get(tournament=world["tournament"])
    assert key.fingerprint in client.get(url).content.decode()
    response = client.post(url, {"action": "upload", "passphrase": "x"}, follow=True)
    assert "Choose a PKCS#12 file" in response.content.decode()


def test_the_verification_page_without_input(client):
    assert client.get("/verify/").status_code == 200
    response = client.post("/en/verify/", {}, follow=True)
    assert "Choose the PDF file" in response.content.decode()


def test_a_referee_can_issue_the_pdf_of_his_table(world, client):
    play_short(world["ref"], world["p1"].pk)
    client.force_login(world["ref"])
    response = client.get(table_url(world, "partition-protocol-pdf"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    document = protocols.documents_of(partition=world["p1"]).get()
    assert document.created_by == world["ref"] and not document.confirmed
    player = world["table"].seat1
    player.user = user("p1")
    player.save()
    client.force_login(player.user)  # a player downloads what was issued, without issuing
    response = client.get(table_url(world, "partition-protocol-pdf"))
    assert response.status_code == 200 and protocols.documents_of(partition=world["p1"]).count() == 1
    assert BASE_URL
