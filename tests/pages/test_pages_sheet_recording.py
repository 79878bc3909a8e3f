"""The referee's score sheet through the pages: a whole partition recorded with the test client
(lead draw, deals, a penalty, a warning, the clock), what the sheet says comes next, refusals and
conflicts that store nothing, retries applied once, permissions, corrections and history."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from builders import refereed_tour, user
from scoring import labels
from scoring.engine.rules import VIOLATION_CODES
from scoring.models import Partition, PartitionChange
from scoring.recording import commands, storage
from scoring.web import sheet_forms
from tournaments.models import Tour

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def setup():
    """A published tour of two tables (target 100); ``ref`` referees table 1, ``other`` table 2,
    ``chief`` is the chief referee."""
    return refereed_tour(target=100)


def sheet_url(table, suffix="", lang="/en"):
    return f"{lang}/tournaments/cup/tours/{table.tour.number}/tables/{table.number}/sheet/{suffix}"


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def plain(html: str) -> str:
    """The page's text, tags dropped and white space squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def stamp(html: str, action: str) -> dict:
    """The version and the idempotency key of the form posting ``action``."""
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*name="action" value="%s"' % action, html, re.S)
    assert form, f"no form for {action}"
    chunk = form.group(0)
    return {"version": re.search(r'name="version" value="(\d+)"', chunk).group(1),
            "key": re.search(r'name="key" value="([0-9a-f]+)"', chunk).group(1)}


def post(client, table, action, data, lang="/en"):
    """Open the sheet, then post ``action`` with the version and key the page rendered."""
    page = text(client.get(sheet_url(table, lang=lang)))
    return client.post(sheet_url(table, lang=lang), {"action": action, **stamp(page, action), **data}, follow=True)


def deal(end, a, b):
    return {"end": end, "pips_a": a, "pips_b": b}


def stored(partition):
    return Partition.objects.get(pk=partition.pk)


def test_a_whole_partition_through_the_sheet(client, setup):
    table, p = setup["table"], setup["p1"]
    client.force_login(setup["ref"])
    names = [str(pl) for pl in table.seats]

    page = plain(text(client.get(sheet_url(table))))
    assert "Lead draw" in page and all(name in page for name in names)

    page = plain(text(post(client, table, "lead", {"seat": 2})))
    assert "Deal 1" in page and f"Leads: 2 {names[1]}" in page

    page = plain(text(post(client, table, "deal", deal("domino-2", 10, 20))))
    assert "Deal 1 recorded: pair B scores 30." in page
    assert "Deal 2" in page and f"Leads: 3 {names[2]}" in page  # rotation, from the engine
    assert re.search(r"Pair A №\d+ 0 .*Pair B №\d+ 30 ", page)

    # A move-time violation is a warning first, the second one a penalty (25 to pair B).
    page = plain(text(post(client, table, "violation", {"kind": "violation", "seat": 1, "code": "move_time"})))
    assert f"Seat 1, {names[0]}: warning." in page
    page = plain(text(post(client, table, "violation", {"kind": "violation", "seat": 1, "code": "move_time"})))
    assert f"Seat 1, {names[0]}: penalty." in page
    assert stored(p).points_b == 55
    # A penalty written at once.
    page = plain(text(post(client, table, "violation", {"kind": "penalty", "seat": 2, "code": "signs"})))
    assert f"Seat 2, {names[1]}: penalty." in page
    assert (stored(p).points_a, stored(p).points_b) == (25, 55)
    assert "warning" in page and "move time" in page and "signs" in page

    page = plain(text(post(client, table, "deal", deal("fish", 20, 25))))
    assert "Deal 2 recorded: pair A scores 45." in page
    assert "Deal 3" in page and f"Leads: 4 {names[3]}" in page

    # The clock runs out between deals: one more deal, the last.
    page = plain(text(post(client, table, "time", {"during_deal": "0"})))
    assert "Deal 3 last deal" in page and "time ran out after deal 2" in page

    # The last deal leaves the totals level (70 : 70): an extra deal.
    page = plain(text(post(client, table, "deal", deal("domino-4", 0, 15))))
    assert (stored(p).points_a, stored(p).points_b) == (70, 70)
    assert "Deal 4 extra deal" in page and "The totals are level" in page
    assert f"Leads: 1 {names[0]}" in page

    page = plain(text(post(client, table, "deal", deal("domino-3", 5, 12))))
    assert "Partition over" in page and "Pair A wins" in page and "Why: the time ran out." in page
    assert "Final score 87 : 70." in page
    p = stored(p)
    assert (p.status, p.winner, p.reason, p.points_a, p.points_b, p.deals) == ("finished", "A", "time", 87, 70, 4)
    assert [c.action for c in p.changes.all()] == ["lead", "deal", "violation", "violation", "penalty", "deal",
                                                   "time", "deal", "deal"]
    # Over: no form to record with.
    assert 'name="action" value="deal"' not in text(client.get(sheet_url(table)))


def test_the_target_ends_a_partition_and_a_no_show_too(client, setup):
    client.force_login(setup["ref"])
    table = setup["table"]
    post(client, table, "lead", {"seat": 1})
    page = plain(text(post(client, table, "deal", deal("domino-1", 30, 80))))
    assert "Partition over" in page and "Why: the target was reached." in page
    client.force_login(setup["other"])
    other = setup["p2"].table
    page = text(post(client, other, "no_show", {"absent": "B"}))
    assert stored(setup["p2"]).version == 0  # asked, not recorded
    client.post(sheet_url(other), {"action": "no_show", "absent": "B", "confirm": "1", **stamp(page, "no_show")})
    page = plain(text(client.get(sheet_url(other))))
    assert "Partition over" in page and "Pair A wins" in page and "Why: no-show." in page
    assert (stored(setup["p2"]).points_a, stored(setup["p2"]).points_b) == (100, 0)
    assert Tour.objects.get(pk=setup["tour"].pk).status == Tour.Status.FINISHED


def test_a_no_show_tapped_asks_for_confirmation_and_is_recorded_once_confirmed(client, setup):
    client.force_login(setup["ref"])
    table, p = setup["table"], setup["p1"]
    first, second = table.pair_b.first, table.pair_b.second
    html = text(post(client, table, "no_show", {"absent": "B"}))
    page = plain(html)
    assert stored(p).version == 0 and not p.changes.exists()
    assert f"Pair B ({first} — {second}) did not appear: the partition ends 100 : 0." in page
    assert f"{table.pair_a.first} — {table.pair_a.second} win." in page
    assert "Confirm: pair B did not appear" in page and "Cancel" in page
    confirm = re.search(r'<form[^>]*>(?:(?!</form>).)*name="confirm" value="1"(?:(?!</form>).)*</form>', html, re.S)
    assert confirm and 'name="absent" value="B"' in confirm.group(0)
    data = {"action": "no_show", "absent": "B", "confirm": "1", **stamp(confirm.group(0), "no_show")}
    client.post(sheet_url(table), data)
    client.post(sheet_url(table), data)  # a double tap: recorded once (the first post's key)
    partition = stored(p)
    assert (partition.status, partition.winner, partition.reason, partition.version) == ("finished", "A", "no_show", 1)


def test_a_no_show_of_both_pairs_is_confirmed_as_such(client, setup):
    client.force_login(setup["ref"])
    page = plain(text(post(client, setup["table"], "no_show", {"absent": "both"})))
    assert "Neither pair appeared: the partition ends 0 : 0, both pairs lose." in page
    assert "Confirm: neither pair appeared" in page and stored(setup["p1"]).version == 0


def test_the_chief_referee_annuls_a_no_show_on_the_sheet_with_a_reason(client, setup):
    table, p = setup["table"], setup["p1"]
    client.force_login(setup["ref"])
    page = text(post(client, table, "no_show", {"absent": "A"}))
    client.post(sheet_url(table), {"action": "no_show", "absent": "A", "confirm": "1", **stamp(page, "no_show")})
    assert "Annul the no-show" not in text(client.get(sheet_url(table)))  # the referee may not
    client.force_login(setup["chief"])
    page = plain(text(post(client, table, "annul_no_show", {"reason": ""})))
    assert "An annulment needs a reason." in page and stored(p).reason == "no_show"
    page = plain(text(post(client, table, "annul_no_show", {"reason": "pair A was at table 2 by mistake"})))
    assert "Recorded: No-show annulled." in page and "Lead draw" in page
    partition = stored(p)
    assert (partition.status, partition.reason, partition.points_a, partition.points_b) == ("playing", "", 0, 0)
    assert partition.changes.get(version=2).reason == "pair A was at table 2 by mistake"


def test_a_restart_and_an_annulled_warning(client, setup):
    client.force_login(setup["ref"])
    table, p = setup["table"], setup["p1"]
    post(client, table, "lead", {"seat": 1})
    page = plain(text(post(client, table, "restart", {"seat": 2, "code": "wrong_lead"})))
    assert "penalty" in page and stored(p).points_a == 25
    post(client, table, "violation", {"kind": "violation", "seat": 3, "code": "conduct"})
    violation = storage.engine_partition(stored(p)).violations[-1]
    assert violation.consequence == "warning"
    # Annulling is the chief referee's: the table's referee has no form for it, and is refused.
    page = text(client.get(sheet_url(table)))
    assert 'value="annul"' not in page
    response = client.post(sheet_url(table), {"action": "annul", **stamp(page, "violation"),
                                              "violation": violation.id, "reason": "the clock was wrong"})
    assert response.status_code == 403 and stored(p).version == 3
    client.force_login(setup["chief"])
    page = post(client, table, "annul", {"violation": violation.id, "reason": ""})
    assert "An annulment needs a reason." in plain(text(page)) and stored(p).version == 3
    page = plain(text(post(client, table, "annul", {"violation": violation.id, "reason": "the clock was wrong"})))
    assert "annulled" in page and "Reason: the clock was wrong" in page


def test_a_refused_deal_shows_the_engines_message_and_stores_nothing(client, setup):
    client.force_login(setup["ref"])
    table, p = setup["table"], setup["p1"]
    post(client, table, "lead", {"seat": 1})
    before = stored(p)
    response = post(client, table, "deal", deal("fish", 100, 90))
    page = plain(text(response))
    assert "Nothing was saved" in page and "pips 100 + 90 = 190: the whole set has only 168" in page
    assert 'value="100"' in response.content.decode()  # what was typed stays on the form
    # The same in Russian, as the engine's message is translated.
    page = plain(text(post(client, table, "deal", deal("fish", 100, 90), lang="")))
    assert "Ничего не сохранено" in page and "190" in page and "168" in page
    # A form problem (no pips typed) is refused before the service.
    page = plain(text(post(client, table, "deal", {"end": "domino-1", "pips_a": "", "pips_b": "3"})))
    assert "Type the pips left in the hands of pair A" in page
    after = stored(p)
    assert (after.version, after.state, after.deals) == (before.version, before.state, 0)
    assert PartitionChange.objects.filter(partition=p).count() == 1


def test_a_stale_version_is_a_conflict_and_stores_nothing(client, setup):
    client.force_login(setup["ref"])
    table, p = setup["table"], setup["p1"]
    post(client, table, "lead", {"seat": 1})
    first_tab = text(client.get(sheet_url(table)))
    second_tab = text(client.get(sheet_url(table)))
    client.post(sheet_url(table), {"action": "deal", **stamp(first_tab, "deal"), **deal("domino-1", 0, 10)})
    response = client.post(sheet_url(table), {"action": "deal", **stamp(second_tab, "deal"),
                                              **deal("domino-2", 10, 0)}, follow=True)
    page = plain(text(response))
    assert "Someone else recorded at this table meanwhile" in page
    assert response.redirect_chain[-1][0].endswith(sheet_url(table))
    p = stored(p)
    assert (p.deals, p.points_a, p.points_b, p.version) == (1, 10, 0, 2)
    assert "Deal 2" in page  # the sheet as it is now


def test_the_same_idempotency_key_twice_records_once(client, setup):
    client.force_login(setup["ref"])
    table, p = setup["table"], setup["p1"]
    post(client, table, "lead", {"seat": 1})
    page = text(client.get(sheet_url(table)))
    data = {"action": "deal", **stamp(page, "deal"), **deal("domino-1", 0, 10)}
    for _ in range(2):  # a double tap, or a retried POST
        response = client.post(sheet_url(table), data)
        assert response.status_code == 302
    p = stored(p)
    assert (p.deals, p.points_a, p.version) == (1, 10, 2)
    # Every rendered form has a key of its own.
    keys = re.findall(r'name="key" value="([0-9a-f]+)"', text(client.get(sheet_url(table))))
    assert len(keys) > 3 and len(set(keys)) == len(keys)


def test_another_tables_referee_gets_403_and_a_visitor_is_sent_to_log_in(client, setup):
    table = setup["table"]
    for url in (sheet_url(table), sheet_url(table, "history/"), sheet_url(table, "import/"),
                sheet_url(table, "protocol.json")):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/?next=" in response["Location"]
    response = client.post(sheet_url(table), {"action": "lead", "seat": 1, "version": 0, "key": "x"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(setup["other"])
    assert client.get(sheet_url(table)).status_code == 403
    response = client.post(sheet_url(table), {"action": "lead", "seat": 1, "version": 0, "key": "x"})
    assert response.status_code == 403
    assert stored(setup["p1"]).version == 0
    client.force_login(setup["chief"])  # the chief referee: every table
    assert client.get(sheet_url(table)).status_code == 200
    client.force_login(setup["ref"])
    assert client.get(sheet_url(table, "deals/1/correct/")).status_code in (403, 404)


def test_my_tables_lists_a_referees_own_tables_and_the_chiefs_all(client, setup):
    client.force_login(setup["ref"])
    page = text(client.get("/en/referee/"))
    assert sheet_url(setup["table"]) in page and sheet_url(setup["p2"].table) not in page
    client.force_login(setup["chief"])
    page = text(client.get("/en/referee/"))
    assert sheet_url(setup["table"]) in page and sheet_url(setup["p2"].table) in page
    client.force_login(user("nobody"))
    assert "No table to record now" in text(client.get("/en/referee/"))
    assert client.logout() is None and client.get("/en/referee/").status_code == 302


def test_the_tour_page_links_the_sheet_for_its_referee_only(client, setup):
    url = sheet_url(setup["table"])
    assert url not in text(client.get("/en/tournaments/cup/tours/1/"))
    client.force_login(setup["ref"])
    page = text(client.get("/en/tournaments/cup/tours/1/"))
    assert url in page and sheet_url(setup["p2"].table) not in page
    client.force_login(setup["chief"])
    assert sheet_url(setup["p2"].table) in text(client.get("/en/tournaments/cup/tours/1/"))


def test_the_chief_corrects_a_finished_deal_with_a_reason_and_sees_the_history(client, setup):
    table, p = setup["table"], setup["p1"]
    client.force_login(setup["ref"])
    post(client, table, "lead", {"seat": 1})
    post(client, table, "deal", deal("domino-1", 20, 40))  # A 60
    post(client, table, "deal", deal("fish", 10, 40))  # A 110: over
    assert stored(p).status == "finished"
    assert client.get(sheet_url(table, "deals/2/correct/")).status_code == 403

    client.force_login(setup["chief"])
    page = text(client.get(sheet_url(table)))
    assert sheet_url(table, "deals/2/correct/") in page
    form = text(client.get(sheet_url(table, "deals/2/correct/")))
    assert 'value="fish" checked' in form and 'value="10"' in form
    data = {**stamp_of(form), **deal("fish", 40, 10)}
    page = plain(text(client.post(sheet_url(table, "deals/2/correct/"), {**data, "reason": ""})))
    assert "A correction needs a reason." in page and stored(p).version == 3
    response = client.post(sheet_url(table, "deals/2/correct/"), {**data, "reason": "pips of the pairs swapped"},
                           follow=True)
    page = plain(text(response))
    assert "Deal 2 is corrected: version 4." in page
    p = stored(p)
    assert (p.status, p.points_a, p.points_b, p.version) == ("playing", 60, 50, 4)
    assert "Deal 3" in page  # the partition is open again

    history = plain(text(client.get(sheet_url(table, "history/"))))
    assert "Correction" in history and "Reason: pips of the pairs swapped" in history
    assert "chief" in history and "127.0.0.1" in history and "110 : 0" in history and "60 : 50" in history
    old = plain(text(client.get(sheet_url(table, "history/3/"))))
    assert "Protocol, version 3" in old and "Pair A wins" in old and "110" in old
    exported = json.loads(client.get(sheet_url(table, "protocol.json") + "?version=3").content)
    assert exported["deals"][1]["pips"] == {"A": 10, "B": 40}
    assert client.get(sheet_url(table, "history/9/")).status_code == 404


def stamp_of(html: str) -> dict:
    return {"version": re.search(r'name="version" value="(\d+)"', html).group(1),
            "key": re.search(r'name="key" value="([0-9a-f]+)"', html).group(1)}


def test_import_and_export_from_the_sheet(client, setup):
    table, p = setup["table"], setup["p1"]
    client.force_login(setup["ref"])
    doc = {"format": "domino-protocol/1", "first_leader": 3,
           "deals": [{"end": "domino", "seat": 3, "pips": {"A": 4, "B": 31}},
                     {"end": "domino", "seat": 1, "pips": {"A": 10, "B": 60}}]}
    form = text(client.get(sheet_url(table, "import/")))
    bad = client.post(sheet_url(table, "import/"), {**stamp_of(form), "text": "{not json"})
    assert "The JSON is not valid (line 1, column 2)." in text(bad)
    wrong = {**doc, "deals": [{"end": "fish", "pips": {"A": 1}}]}
    page = plain(text(client.post(sheet_url(table, "import/"), {**stamp_of(form), "text": json.dumps(wrong)})))
    assert "deal 1" in page and stored(p).version == 0
    upload = SimpleUploadedFile("protocol.json", json.dumps(doc).encode(), content_type="application/json")
    page = plain(text(client.post(sheet_url(table, "import/"), {**stamp_of(form), "file": upload}, follow=True)))
    assert "The protocol is imported." in page and "Partition over" in page
    assert (stored(p).points_a, stored(p).winner) == (105, "A")
    response = client.get(sheet_url(table, "protocol.json"))
    assert response["Content-Type"].startswith("application/json")
    assert 'attachment; filename="protocol-cup-tour-1-table-1-v1.json"' == response["Content-Disposition"]
    exported = json.loads(response.content)
    assert exported["first_leader"] == 3 and exported["deals"] == doc["deals"]
    # A second import into a recorded partition is refused for the referee.
    form = text(client.get(sheet_url(table, "import/")))
    page = plain(text(client.post(sheet_url(table, "import/"), {**stamp_of(form), "text": json.dumps(doc)})))
    assert "already recorded" in page and stored(p).version == 1


def test_the_sheets_forms_go_through_the_actions_serializers(client, setup, monkeypatch):
    client.force_login(setup["ref"])
    table, p = setup["table"], setup["p1"]
    post(client, table, "lead", {"seat": 1})
    post(client, table, "violation", {"kind": "violation", "seat": 3, "code": "conduct"})
    # The form takes any whole number as the violation; the annulment's serializer does not.
    client.force_login(setup["chief"])  # annulments are the chief referee's
    page = plain(text(post(client, table, "annul", {"violation": -1, "reason": "часы врали"})))
    assert "violation: Ensure this value is greater than or equal to 0." in page and stored(p).version == 2
    # The data the form made is the serializer's, checked and typed, before the service gets it.
    checked = []
    real = sheet_forms.action_data
    monkeypatch.setattr(sheet_forms, "action_data", lambda action, data: checked.append(action) or real(action, data))
    post(client, table, "deal", deal("domino-2", 10, 20))
    assert checked == ["deal"]
    assert PartitionChange.objects.get(partition=p, version=3).data == {
        "end": "domino", "seat": 2, "pips": {"A": 10, "B": 20}}


def test_a_pasted_protocol_too_deep_or_with_a_nul_is_refused_on_the_form(client, setup):
    table, p = setup["table"], setup["p1"]
    client.force_login(setup["ref"])
    form = text(client.get(sheet_url(table, "import/")))
    page = plain(text(client.post(sheet_url(table, "import/"), {**stamp_of(form), "text": "[" * 100_000})))
    assert "The JSON is nested too deeply: at most 32 levels." in page
    document = {"format": "domino-protocol/1", "first_leader": 1, "deals": [],
                "pairs": {"A": ["Ёлкин\u0000", "Д'Артаньян"], "B": ["Пётр", "Семён"]}}
    pasted = json.dumps(document)  # the NUL written as \u0000
    page = plain(text(client.post(sheet_url(table, "import/"), {**stamp_of(form), "text": pasted})))
    assert "The JSON contains a NUL character" in page
    upload = SimpleUploadedFile("protocol.json", ("[" * 100_000).encode(), content_type="application/json")
    page = plain(text(client.post(sheet_url(table, "import/"), {**stamp_of(form), "file": upload})))
    assert "nested too deeply" in page
    assert stored(p).version == 0


def test_every_violation_code_has_a_label():
    assert set(VIOLATION_CODES) <= set(labels.VIOLATIONS) and set(VIOLATION_CODES) <= set(labels.VIOLATIONS_SHORT)
    assert set(commands.OPERATIONS) | {"import", "correction"} <= set(labels.ACTIONS)


def test_only_the_chief_referee_declares_a_forfeit(client, setup):
    from tournaments.models import Tournament
    t = Tournament.objects.get(pk=setup["t"].pk)
    Tournament.objects.filter(pk=t.pk).update(regulations={**t.regulations, "penalties_to_forfeit": 1})
    table, p = setup["table"], setup["p1"]
    client.force_login(setup["ref"])
    post(client, table, "lead", {"seat": 1})
    post(client, table, "violation", {"kind": "penalty", "seat": 2, "code": "signs"})
    assert 'value="forfeit"' not in text(client.get(sheet_url(table)))
    page = text(client.get(sheet_url(table)))
    data = {"action": "forfeit", **stamp(page, "violation"), "pair": "B"}
    assert client.post(sheet_url(table), data).status_code == 403  # the service refuses a referee
    client.force_login(setup["chief"])
    page = plain(text(post(client, table, "forfeit", {"pair": "B"})))
    assert "Partition over" in page and "Pair A wins" in page and "forfeit declared by the chief referee" in page
    assert (stored(p).winner, stored(p).reason) == ("A", "forfeit")
