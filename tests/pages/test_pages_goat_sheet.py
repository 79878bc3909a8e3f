"""The score sheet of a Goat table through the pages, as the sports sheet has it: penalties and the
table's time, the chief referee's corrections and annulments, the import of a protocol file, the
history of versions; refusals that store nothing; who may do what; long Cyrillic names."""

import html as entities
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from builders import tournament, user
from scoring.models import Partition, PartitionChange
from scoring.recording import commands, storage
from tournaments import services as tournament_services, tours
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NAMES = [("Преображенская-Воскресенская", "Анастасия-Александра"), ("Богословский-Рождественский", "Константин"),
         ("Ёлкина", "Агриппина Ильинична")]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def goat():
    """One table of three players with long names (lose at 40, no opening, penalties of 10, two
    games); ``ref`` referees it, ``chief`` is the chief referee."""
    org, ref, chief = user("org", superuser=True), user("ref"), user("chief")
    t = tournament(org, format=Tournament.Format.INDIVIDUAL, slug="goat", regulations={
        "game": "goat", "players": 3, "lose_at": 40, "opening": 0, "games_per_tour": 2, "penalty_points": 10})
    tournament_services.add_role(org, t, "ref", "referee")
    tournament_services.add_role(org, t, "chief", "chief_referee")
    for last, first in NAMES:
        tournament_services.register_player(org, t, {"last_name": last, "first_name": first})
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    tournament_services.assign_referee(org, table, ref)
    tours.publish_tour(org, tour)
    return {"org": org, "ref": ref, "chief": chief, "table": table, "p": table.partition.pk,
            "names": [str(p) for p in table.players]}


SHEET = "/tournaments/goat/tours/1/tables/1/sheet/"


def url(suffix="", lang="/en"):
    return lang + SHEET + suffix


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def plain(page: str) -> str:
    """The page's text, tags dropped, entities read and white space squeezed."""
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def stamp(page: str, action: str | None = None) -> dict:
    """The version and the key of the form posting ``action`` (None: the page's first form)."""
    if action is not None:
        form = re.search(r'<form[^>]*>(?:(?!</form>).)*name="action" value="%s"' % action, page, re.S)
        assert form, f"no form for {action}"
        page = form.group(0)
    return {"version": re.search(r'name="version" value="(\d+)"', page).group(1),
            "key": re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)}


def post(client, action, data, lang="/en"):
    """Open the sheet, then post ``action`` with the version and key the page rendered."""
    page = html(client.get(url(lang=lang)))
    return client.post(url(lang=lang), {"action": action, **stamp(page, action), **data}, follow=True)


def stored(pk):
    return Partition.objects.get(pk=pk)


def scores(pk):
    return storage.engine_sitting(stored(pk)).game.scores


def test_penalties_and_the_tables_time_on_the_sheet(client, goat):
    client.force_login(goat["ref"])
    names, pk = goat["names"], goat["p"]
    page = plain(html(post(client, "goat_deal", {"lead": 1, "end": "domino", "seat": 1, "value_2": 12,
                                                 "value_3": 5})))
    assert "Deal recorded." in page and "Domino · 1 0 12 5 0 12 5" in page
    page = plain(html(post(client, "goat_penalty", {"seat": 3, "code": "signs"})))
    assert f"Seat 3, {names[2]}: penalty." in page
    assert f"penalty · 10 3 {names[2]} — signs after deal 1 · 0 : 12 : 15" in page
    assert scores(pk) == (0, 12, 15)
    # A refused penalty (no seat 4 at a table of three) shows the engine's message, stores nothing.
    response = post(client, "goat_penalty", {"seat": 4, "code": "signs"})
    page = plain(html(response))
    assert "Nothing was saved: seat must be 1 to 3, got 4" in page and stored(pk).version == 2
    assert re.search(r'name="seat" value="4" checked', response.content.decode()) is None  # no seat 4 drawn
    page = plain(html(post(client, "goat_time", {"during_deal": "1"})))
    assert "Recorded: Time ran out." in page and "Deal 2 last deal" in page
    assert "The table's time ran out during deal 2: the game ends after it, counted as it stands." in page
    assert "The table's time ran out" not in page.split("At the table")[1]  # recorded once only
    page = plain(html(post(client, "goat_deal", {"end": "fish", "seat": 2, "value_1": 4, "value_2": 6,
                                                 "value_3": 9})))
    # For all: (4, 18, 24); game points 9.6 -> 10, 8.2 -> 8, 7.6 -> 8; no second game.
    assert "Game points: 10 · 8 · 8" in page and "Why: the table's time ran out." in page
    assert "Sitting over" in page and "Game 2 of 2" not in page and 'value="goat_penalty"' not in page
    p = stored(pk)
    assert (p.status, p.reason, p.deals, p.version) == ("finished", "time", 2, 4)
    history = plain(html(client.get(url("history/"))))
    assert re.search(r"4 [^·]* ref 127\.0\.0\.1 Deal 1 deal · playing 2 deals · finished "
                     r"\(the table's time ran out\) version 4 · JSON 3 .* Time ran out 1 deal · playing 1 deal · "
                     r"playing version 3 .* Penalty 1 deal .* Deal 0 deals · not started 1 deal · playing version 1 · JSON",
                     history)
    assert "0 : 0" not in history  # no pair totals at a Goat table


def test_the_chief_corrects_a_deal_and_the_history_keeps_the_old_version(client, goat):
    pk, ref = goat["p"], goat["ref"]
    commands.record_goat_deal(ref, pk, {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}})
    commands.record_goat_deal(ref, pk, {"end": "fish", "seat": 2, "values": {"1": 4, "2": 6, "3": 9}})
    correct = url("games/1/deals/1/correct/")
    client.force_login(ref)
    assert "games/1/deals/1/correct/" not in html(client.get(url()))
    assert client.get(correct).status_code == 403
    client.force_login(goat["chief"])
    assert "games/1/deals/2/correct/" in html(client.get(url()))
    form = html(client.get(correct))
    assert 'value="domino" checked' in form and '<option value="1" selected>' in form
    assert 'name="value_2" min="0" inputmode="numeric" value="12"' in form
    assert "Recorded: Domino, hand values 0, 12, 5." in plain(form)
    data = {**stamp(form), "end": "domino", "seat": 1, "value_2": 12, "value_3": 15}
    page = plain(html(client.post(correct, {**data, "reason": ""})))
    assert "A correction needs a reason." in page and stored(pk).version == 2
    # Seat 2 at 40 after deal 1 would be the goat, yet deal 2 is recorded after it: refused.
    page = plain(html(client.post(correct, {**data, "value_2": 40, "reason": "misread"})))
    assert "With this correction game 1 ends at deal 1, yet later deals are recorded in it" in page
    assert 'value="40"' in page or stored(pk).version == 2
    response = client.post(correct, {**data, "reason": "seat 3 held 15"}, follow=True)
    page = plain(html(response))
    assert "Deal 1 of game 1 is corrected: version 3." in page
    # Replayed: (0, 12, 15), then fish for all (4, 18, 24).
    assert "Domino · 1 0 12 15 0 12 15" in page and "Fish · 2 4 6 9 4 18 24" in page
    history = plain(html(client.get(url("history/"))))
    assert "Correction" in history and "Reason: seat 3 held 15" in history and "chief" in history
    assert "127.0.0.1" in history
    old = plain(html(client.get(url("history/2/"))))
    assert "Protocol, version 2" in old and "Domino · 1 0 12 5 0 12 5" in old
    exported = json.loads(client.get(url("protocol.json") + "?version=2").content)
    assert exported["games"][0]["deals"][0]["values"] == {"1": 0, "2": 12, "3": 5}
    assert client.get(url("history/9/")).status_code == 404
    assert client.get(url("games/1/deals/3/correct/")).status_code == 404
    assert client.get(url("games/2/deals/1/correct/")).status_code == 404
    assert client.get(url("deals/1/correct/")).status_code == 404  # the sports correction page


def test_the_chief_annuls_a_penalty_the_referee_cannot(client, goat):
    pk, ref = goat["p"], goat["ref"]
    commands.record_goat_deal(ref, pk, {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}})
    commands.record_goat(ref, pk, "goat_penalty", {"seat": 2, "code": "conduct"})  # (0, 22, 5)
    client.force_login(ref)
    page = html(client.get(url()))
    assert 'value="goat_annul"' not in page
    response = client.post(url(), {"action": "goat_annul", **stamp(page, "goat_penalty"), "game": 1, "penalty": 1,
                                   "reason": "not his"})
    assert response.status_code == 403 and stored(pk).version == 2
    client.force_login(goat["chief"])
    page = plain(html(post(client, "goat_annul", {"game": 1, "penalty": 1, "reason": ""})))
    assert "An annulment needs a reason." in page and stored(pk).version == 2
    page = plain(html(post(client, "goat_annul", {"game": 1, "penalty": 1, "reason": "the noise was not his"})))
    assert "The penalty is annulled: version 3." in page and "conduct" not in page
    assert scores(pk) == (0, 12, 5)
    change = PartitionChange.objects.get(partition_id=pk, version=3)
    assert (change.action, change.reason) == ("correction", "the noise was not his")


def test_a_protocol_file_is_imported_from_the_sheet(client, goat):
    pk = goat["p"]
    client.force_login(goat["ref"])
    page = plain(html(client.get(url("import/"))))
    assert "domino-sitting/1" in page
    form = html(client.get(url("import/")))
    game = {"format": "domino-protocol/1", "first_leader": 2,
            "deals": [{"end": "domino", "seat": 2, "values": {"1": 41, "3": 3}}]}  # (41, 0, 3): seat 1 the goat
    bad = {"format": "domino-sitting/1", "games": [{**game, "deals": [{"end": "domino", "seat": 2,
                                                                       "values": {"1": 41, "4": 3}}]}]}
    page = plain(html(client.post(url("import/"), {**stamp(form), "text": json.dumps(bad)})))
    assert "Nothing was saved" in page and "game 1, deal 1, values" in page and stored(pk).version == 0
    page = plain(html(client.post(url("import/"), {**stamp(form), "text": "{not json"})))
    assert "The JSON is not valid" in page and stored(pk).version == 0
    upload = SimpleUploadedFile("protocol.json", json.dumps({"format": "domino-sitting/1", "games": [game]}).encode(),
                                content_type="application/json")
    page = plain(html(client.post(url("import/"), {**stamp(form), "file": upload}, follow=True)))
    assert "The protocol is imported." in page and "Game points: 0 · 10 · 10 · goat: 1" in page
    assert "Game 2 of 2" in page  # the sitting goes on
    assert (stored(pk).version, stored(pk).deals) == (1, 1)
    form = html(client.get(url("import/")))
    page = plain(html(client.post(url("import/"), {**stamp(form), "text": json.dumps(game)})))
    assert "already recorded" in page and stored(pk).version == 1
    # The chief referee replaces it, with a reason, by one game of the paper protocol.
    client.force_login(goat["chief"])
    form = html(client.get(url("import/")))
    assert 'name="reason"' in form
    other = {**game, "deals": [{"end": "domino", "seat": 2, "values": {"1": 14, "3": 3}}]}  # (14, 0, 3)
    page = plain(html(client.post(url("import/"), {**stamp(form), "text": json.dumps(other), "reason": "typo"},
                                  follow=True)))
    assert "The protocol is imported." in page and scores(pk) == (14, 0, 3)
    assert PartitionChange.objects.get(partition_id=pk, version=2).reason == "typo"


def test_a_stale_form_stores_nothing(client, goat):
    client.force_login(goat["ref"])
    first_tab = html(client.get(url()))
    second_tab = html(client.get(url()))
    client.post(url(), {"action": "goat_deal", **stamp(first_tab, "goat_deal"), "lead": 1, "end": "redeal"})
    response = client.post(url(), {"action": "goat_penalty", **stamp(second_tab, "goat_penalty"), "seat": 1,
                                   "code": "signs"}, follow=True)
    assert "Someone else recorded at this table meanwhile" in plain(html(response))
    assert stored(goat["p"]).version == 1 and scores(goat["p"]) == (0, 0, 0)
    assert client.post(url(), {"action": "penalty", **stamp(second_tab, "goat_penalty")}).status_code == 404


def test_long_cyrillic_names_on_the_russian_sheet(client, goat):
    pk, names = goat["p"], goat["names"]
    commands.record_goat_deal(goat["ref"], pk, {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}})
    commands.record_goat(goat["ref"], pk, "goat_penalty", {"seat": 3, "code": "signs"})
    client.force_login(goat["chief"])
    page = html(client.get(url(lang="")))
    text = plain(page)
    assert max(len(name) for name in names) > 45
    for number, name in enumerate(names, 1):
        assert f"<option value=\"{number}\">{number}. {name}</option>" in page  # who made domino
        assert f"{number}. {name}" in text  # the column of his score, his hand value
        assert f'<span class="choice__seat">{number}</span><span class="choice__name">{name}</span>' in page
    assert f"штраф · 10 3 {names[2]} — знаки" in text
    assert "Штраф" in text and "Время стола истекло" in text and "Исправить кон (главный судья)" in text
    correct = plain(html(client.get(url("games/1/deals/1/correct/", lang=""))))
    assert all(name in correct for name in names)
    assert plain(html(client.get(url("history/", lang="")))).count("Кон") >= 1


def test_a_violation_warns_then_charges_and_the_chief_annuls_it(client, goat):
    """RULES 7 at a Goat table through the sheet: seat 2's first conduct violation is a warning,
    the second a penalty of 10 charged to him; the chief referee annuls the second: 12 again."""
    pk, ref = goat["p"], goat["ref"]
    commands.record_goat_deal(ref, pk, {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}})
    client.force_login(ref)
    page = html(post(client, "goat_violation", {"seat": 2, "code": "conduct"}))
    assert scores(pk) == (0, 12, 5) and stored(pk).version == 2
    page = html(post(client, "goat_violation", {"seat": 2, "code": "conduct"}))
    assert scores(pk) == (0, 22, 5) and stored(pk).version == 3
    shown = plain(page)
    name = goat["names"][1]
    assert f"Seat 2, {name}: penalty." in shown  # the second time
    assert f"penalty · 10 2 {name} — conduct after deal 1 · 0 : 22 : 5" in shown  # in the deals' lines
    assert (f"warning 2 {name} — conduct after deal 1 penalty 2 {name} — conduct after deal 1" in shown)
    assert 'value="goat_annul_violation"' not in page  # the referee does not annul
    response = client.post(url(), {"action": "goat_annul_violation", **stamp(page, "goat_violation"), "game": 1,
                                   "violation": 2, "reason": "not his"})
    assert response.status_code == 403 and stored(pk).version == 3
    client.force_login(goat["chief"])
    page = html(client.get(url()))
    assert page.count('value="goat_annul_violation"') == 2  # one form per violation
    shown = plain(html(post(client, "goat_annul_violation", {"game": 1, "violation": 2,
                                                             "reason": "the noise was the next table's"})))
    assert "annulled" in shown and "Reason: the noise was the next table's" in shown
    assert scores(pk) == (0, 12, 5) and stored(pk).version == 4
    change = PartitionChange.objects.get(partition_id=pk, version=4)
    assert (change.action, change.reason) == ("correction", "the noise was the next table's")
