"""PIN slips: PINs generated for the entrants without one and printed, a reprint, the slip's
one-time link where the player chooses his own PIN, a lost PIN reset at the table, the audit
trail, and who may do what."""

import datetime
import re
import shutil

import pytest
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from scoring import protocols
from scoring.protocols import pinslips
from scoring.recording import clock
from tournaments import services
from tournaments.models import PinChange, PinLink, Player

from builders import tournament, user
from protocols_world import BASE_URL

pytestmark = pytest.mark.django_db

needs_pdftotext = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils' pdftotext")


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    # A PIN's hash is checked the same way with any hasher; the default one takes a second each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def event():
    org = user("org")
    org.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = tournament(org, pairs=3)
    return {"org": org, "t": t, "players": [e.player for e in t.entries.select_related("player")]}


def raw_text(data: bytes, tmp_path) -> str:
    """The PDF's text in drawing order (slip after slip), without any white space."""
    import subprocess

    path = tmp_path / "slips.pdf"
    path.write_bytes(data)
    text = subprocess.run(["pdftotext", "-raw", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return re.sub(r"\s+", "", text)


def printed(text: str, player: Player) -> tuple[str, str]:
    """The PIN and the link's secret printed on ``player``'s slip."""
    match = re.search(re.escape(str(player).replace(" ", "")) + r"\D*?(\d{6}).*?/pin/([A-Za-z0-9_-]+)/", text)
    assert match, f"no slip for {player}"
    return match.group(1), match.group(2)


@needs_pdftotext
def test_pins_are_generated_for_the_entrants_without_one_and_printed_one_slip_each(event, tmp_path):
    first, *others = event["players"]
    protocols.set_pin(event["org"], first.pk, "1357")
    slips = pinslips.print_slips(event["org"], event["t"].pk, base_url=BASE_URL, address="10.0.0.1")
    assert {p.pk for p in slips.players} == {p.pk for p in others} and not slips.skipped
    text = raw_text(slips.pdf, tmp_path)
    assert "Кубокклуба" in text
    for player in others:
        pin, secret = printed(text, player)
        assert check_password(pin, Player.objects.get(pk=player.pk).pin)
        # Read off the paper whole: no "-" for a line break to pass for a hyphen.
        assert re.fullmatch(r"[A-Za-z0-9]{32}", secret) and pinslips.slip_player(secret) == player
    assert str(first).replace(" ", "") not in text  # he had a PIN: no slip, and it still works
    assert check_password("1357", Player.objects.get(pk=first.pk).pin)
    assert PinChange.objects.filter(how="slip", by=event["org"], address="10.0.0.1").count() == len(others)
    with pytest.raises(ValidationError, match="every entrant has one"):
        pinslips.print_slips(event["org"], event["t"].pk, base_url=BASE_URL)


@needs_pdftotext
def test_a_reprint_gives_every_entrant_a_new_pin_and_voids_the_old_slips(event, tmp_path):
    old = raw_text(pinslips.print_slips(event["org"], event["t"].pk, base_url=BASE_URL).pdf, tmp_path)
    new = raw_text(pinslips.print_slips(event["org"], event["t"].pk, renew=True, base_url=BASE_URL).pdf, tmp_path)
    for player in event["players"]:
        (old_pin, old_secret), (new_pin, _secret) = printed(old, player), printed(new, player)
        stored = Player.objects.get(pk=player.pk).pin
        assert check_password(new_pin, stored) and (old_pin == new_pin or not check_password(old_pin, stored))
        assert pinslips.slip_player(old_secret) is None
    assert PinLink.objects.count() == len(event["players"])


def test_entrants_whose_pin_the_organiser_may_not_set_are_skipped_and_named(event):
    own, elsewhere, *rest = event["players"]
    own.user = user("own")
    elsewhere.federation_id = "F-1"
    own.save(update_fields=["user"])
    elsewhere.save(update_fields=["federation_id"])
    rival = user("rival", superuser=True)  # enters the same player in his own tournament
    services.register_pair(rival, tournament(rival, slug="other"),
                           {"federation_id": "F-1", "last_name": elsewhere.last_name},
                           {"last_name": "Новиков"})
    slips = pinslips.print_slips(event["org"], event["t"].pk, base_url=BASE_URL)
    assert {p.pk for p in slips.skipped} == {own.pk, elsewhere.pk}
    assert {p.pk for p in slips.players} == {p.pk for p in rest}
    assert not Player.objects.filter(pk__in=[own.pk, elsewhere.pk]).exclude(pin="").exists()


def test_only_an_organiser_of_the_tournament_prints_slips(event):
    services.add_role(event["org"], event["t"], user("ref").username, "chief_referee")
    for who in ("stranger", "ref"):
        login = user(who) if who == "stranger" else event["t"].roles.get(kind="chief_referee").user
        with pytest.raises(PermissionDenied):
            pinslips.print_slips(login, event["t"].pk, base_url=BASE_URL)
    assert not PinChange.objects.exists() and not PinLink.objects.exists()


@pytest.fixture
def slip(event, tmp_path):
    """The first player's printed PIN and link secret, from the PDF."""
    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler-utils' pdftotext")
    text = raw_text(pinslips.print_slips(event["org"], event["t"].pk, base_url=BASE_URL).pdf, tmp_path)
    player = event["players"][0]
    pin, secret = printed(text, player)
    return {"player": player, "pin": pin, "secret": secret}


def test_the_slips_link_sets_the_players_own_pin_once(client, slip):
    url = reverse("pin-choose", args=[slip["secret"]])
    page = client.get(url)
    assert page.status_code == 200 and str(slip["player"]) in page.content.decode()
    answer = client.post(url, {"printed": slip["pin"], "pin": "2580", "pin_again": "2580"}, follow=True)
    assert "2580" not in answer.content.decode()
    player = Player.objects.get(pk=slip["player"].pk)
    assert check_password("2580", player.pin) and not check_password(slip["pin"], player.pin)
    change = PinChange.objects.filter(player=player).first()
    assert change.how == "chosen" and change.by is None and change.address == "127.0.0.1"
    assert client.get(url).status_code == 404  # used
    with pytest.raises(ValidationError, match="used or has expired"):
        pinslips.choose_pin(slip["secret"], "2580", "1111", "1111", address=None)
    assert check_password("2580", Player.objects.get(pk=player.pk).pin)


def test_a_wrong_printed_pin_is_refused_counted_and_locks_the_link(slip, settings):
    for left in range(settings.PIN_FAILURE_LIMIT - 1, 0, -1):
        with pytest.raises(ValidationError, match=rf"Wrong PIN .*{left} attempts left"):
            pinslips.choose_pin(slip["secret"], "000000", "2580", "2580", address="10.0.0.9")
    with pytest.raises(ValidationError, match="Wrong PIN"):
        pinslips.choose_pin(slip["secret"], "000000", "2580", "2580", address="10.0.0.9")
    with pytest.raises(ValidationError, match="Too many wrong PINs"):  # even the right one, for a while
        pinslips.choose_pin(slip["secret"], slip["pin"], "2580", "2580", address="10.0.0.9")
    assert check_password(slip["pin"], Player.objects.get(pk=slip["player"].pk).pin)
    assert pinslips.slip_player(slip["secret"]) is not None  # not used up by the refusals


def test_a_new_pin_must_be_typed_twice_alike_and_be_4_to_8_digits(slip):
    for pin, again, refusal in (("2580", "2581", "differ"), ("12", "12", "4 to 8 digits")):
        with pytest.raises(ValidationError, match=refusal):
            pinslips.choose_pin(slip["secret"], slip["pin"], pin, again, address=None)
    assert pinslips.slip_player(slip["secret"]) is not None


def test_the_link_expires(slip, settings):
    later = clock.now() + datetime.timedelta(days=settings.PIN_LINK_DAYS, seconds=1)
    with clock.use(lambda: later):
        assert pinslips.slip_player(slip["secret"]) is None
        with pytest.raises(ValidationError, match="used or has expired"):
            pinslips.choose_pin(slip["secret"], slip["pin"], "2580", "2580", address=None)
    assert pinslips.slip_player("not-a-secret") is None


def test_a_lost_pin_reset_at_the_table_is_audited_and_voids_the_slip(client, event, slip):
    player = slip["player"]
    client.force_login(event["org"])
    page = client.get(reverse("pin-slips", args=[event["t"].slug]))
    assert reverse("player-pin", args=[player.pk]) in page.content.decode()
    client.post(reverse("player-pin", args=[player.pk]), {"pin": "9753", "pin_again": "9753"})
    assert check_password("9753", Player.objects.get(pk=player.pk).pin)
    change = PinChange.objects.filter(player=player).first()
    assert (change.how, change.by, change.address) == ("set", event["org"], "127.0.0.1")
    assert pinslips.slip_player(slip["secret"]) is None  # the printed PIN is no longer his


def test_the_pin_page_generates_and_a_reprint_needs_the_confirmation(client, event):
    url = reverse("pin-slips", args=[event["t"].slug])
    client.force_login(user("stranger"))
    assert client.get(url).status_code == 403 and client.post(url, {"scope": "missing"}).status_code == 403
    client.force_login(event["org"])
    answer = client.post(url, {"scope": "missing"})
    assert answer["Content-Type"] == "application/pdf" and answer.content.startswith(b"%PDF")
    assert answer["Cache-Control"] == "no-store"
    pins = dict(Player.objects.values_list("pk", "pin"))
    assert all(pins.values())
    refused = client.post(url, {"scope": "all"}, follow=True)
    assert "Tick the box" in refused.content.decode() and dict(Player.objects.values_list("pk", "pin")) == pins
    assert client.post(url, {"scope": "all", "confirm": "1"})["Content-Type"] == "application/pdf"
    assert not set(Player.objects.values_list("pin", flat=True)) & set(pins.values())
    # The PIN trail: on a phone its rows are stacked, each value after its column's name.
    trail = client.get(url).content.decode()
    assert trail.count('<td data-label="When">') == PinChange.objects.count() > 0
    assert trail.count('<td data-label="Player">') == PinChange.objects.count()
