"""Recording partitions through the API: /api/partitions/{id}/ and its actions call the recording
services (scoring/recording/commands.py); every total comes from the rules engine."""

import threading

import pytest
from django.db import connection

from apiworld import World, client, listed
from builders import user
from scoring.models import Partition, PartitionChange
from tournaments import services as tournament_services, tours

pytestmark = pytest.mark.django_db


class Sheet:
    """Tour 2 of the world's cup published: ``world.referee`` at table 1, ``ref2`` at table 2."""

    def __init__(self, world: World):
        self.world = world
        self.ref2 = user("ref2")
        tournament_services.add_role(world.org, world.cup, "ref2", "referee")
        tables = list(world.tour2.tables.order_by("number"))
        tournament_services.assign_referee(world.org, tables[0], world.referee)
        tournament_services.assign_referee(world.org, tables[1], self.ref2)
        tours.publish_tour(world.org, world.tour2)
        self.p1, self.p2 = (t.partition.pk for t in tables)

    @staticmethod
    def url(pk: int, what: str = "") -> str:
        return f"/api/partitions/{pk}/{what + '/' if what else ''}"

    def record(self, who, action, data, *, pk=None, version=None, key=None, status=200):
        body = {"action": action, "data": data}
        if version is not None:
            body["version"] = version
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        response = client(who).post(self.url(pk or self.p1, "record"), body, format="json", **headers)
        assert response.status_code == status, response.json()
        return response.json()

    def stored(self, pk=None) -> Partition:
        return Partition.objects.get(pk=pk or self.p1)


@pytest.fixture
def sheet(world) -> Sheet:
    return Sheet(world)


def test_a_whole_partition_recorded_line_by_line(sheet):
    ref = sheet.world.referee
    body = client().get(sheet.url(sheet.p1)).json()
    assert (body["status"], body["version"], body["next"]) == (
        "scheduled", 0, {"next": "lead_draw", "deal": None, "leader": None, "decision": None})
    assert body["referee"] == "ref" and body["tournament"] == "cup" and (body["tour"], body["table"]) == (2, 1)
    table = sheet.world.tour2.tables.get(number=1)
    assert [s["id"] for s in body["seats"]] == [p.pk for p in table.seats]
    assert (body["pairs"]["A"]["number"], body["pairs"]["B"]["number"]) == (table.pair_a.number, table.pair_b.number)

    body = sheet.record(ref, "lead", {"seat": 1}, version=0)
    assert body["next"] == {"next": "deal", "deal": 1, "leader": 1, "decision": None}
    body = sheet.record(ref, "deal", {"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30}}, version=1)
    assert body["totals"] == {"A": 40, "B": 0} and body["next"]["leader"] == 2
    body = sheet.record(ref, "penalty", {"seat": 2, "code": "signs"}, version=2)  # pair B penalised: A +25
    assert body["totals"] == {"A": 65, "B": 0} and body["penalties"] == {"A": 0, "B": 1}
    body = sheet.record(ref, "violation", {"seat": 3, "code": "move_time"}, version=3)  # first: a warning
    assert body["totals"] == {"A": 65, "B": 0}
    assert body["violations"] == [{"id": 3, "after_deal": 1, "seat": 3, "code": "move_time",
                                   "consequence": "warning", "annulled": None}]
    body = sheet.record(ref, "violation", {"seat": 3, "code": "move_time"}, version=4)  # again: a penalty on A
    assert body["totals"] == {"A": 65, "B": 25}
    assert [v["consequence"] for v in body["violations"]] == ["warning", "penalty"]
    assert body["result"]["penalties"][-1] == {"after_deal": 1, "seat": 3, "code": "move_time", "pair": "A",
                                               "points": 25, "totals": {"A": 65, "B": 25}}
    # Fish: B holds fewer pips and scores everything left in the hands.
    body = sheet.record(ref, "deal", {"end": "fish", "pips": {"A": 20, "B": 15}}, version=5)
    assert body["totals"] == {"A": 65, "B": 60} and body["next"]["next"] == "deal"
    body = sheet.record(ref, "time", {"during_deal": False}, version=6)  # between deals: one more, the last
    assert body["next"] == {"next": "last_deal", "deal": 3, "leader": 3, "decision": None}
    assert body["time_expired"] == {"after_deal": 2}
    body = sheet.record(ref, "deal", {"end": "domino", "seat": 2, "pips": {"A": 30, "B": 0}}, version=7)

    assert (body["status"], body["winner"], body["reason"], body["version"], body["deals"]) == (
        "finished", "B", "time", 8, 3)
    assert body["next"] == {"next": "over", "deal": None, "leader": None, "decision": {"winner": "B", "reason": "time"}}
    result = body["result"]
    assert (result["totals"], result["winner"], result["reason"]) == ({"A": 65, "B": 90}, "B", "time")
    assert [(d["n"], d["leader"], d["winner"], d["points"]) for d in result["deals"]] == [
        (1, 1, "A", 40), (2, 2, "B", 35), (3, 3, "B", 30)]
    stored = sheet.stored()
    assert (stored.points_a, stored.points_b, stored.penalties_a, stored.penalties_b, stored.winner) == (
        65, 90, 1, 1, "B")

    # The tour's table shows the partition, its id and version.
    tour = client().get("/api/tournaments/cup/tours/2/").json()
    shown = tour["tables"][0]["partition"]
    assert (shown["id"], shown["version"], shown["points_a"], shown["points_b"]) == (sheet.p1, 8, 65, 90)

    # A finished partition is closed.
    response = client(ref).post(sheet.url(sheet.p1, "record"), {"action": "penalty", "data": {"seat": 1,
                                                                                           "code": "signs"}},
                                format="json")
    assert response.status_code == 400 and "closed" in response.json()["detail"]
    assert sheet.stored().version == 8

    changes = listed(client(sheet.world.org).get(sheet.url(sheet.p1, "changes")))
    assert [c["action"] for c in changes] == ["lead", "deal", "penalty", "violation", "violation", "deal", "time",
                                              "deal"]
    assert [c["version"] for c in changes] == list(range(1, 9))
    last = changes[-1]
    assert (last["user"], last["address"], last["before"]["points"], last["after"]["points"]) == (
        "ref", "127.0.0.1", [65, 60], [65, 90])
    assert last["data"] == {"end": "domino", "seat": 2, "pips": {"A": 30, "B": 0}}


def test_a_stale_version_is_a_409_and_nothing_is_stored(sheet):
    ref = sheet.world.referee
    sheet.record(ref, "lead", {"seat": 1}, version=0)
    response = client(ref).post(sheet.url(sheet.p1, "record"), {
        "action": "deal", "data": {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}}, "version": 0},
        format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["current_version"] == 1 and "version 1" in body["detail"]
    stored = sheet.stored()
    assert (stored.version, stored.deals) == (1, 0)
    assert PartitionChange.objects.filter(partition=stored).count() == 1


def test_a_request_retried_with_its_idempotency_key_applies_once(sheet):
    ref = sheet.world.referee
    sheet.record(ref, "lead", {"seat": 1}, key="lead-1")
    deal = {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}}
    answers = [sheet.record(ref, "deal", deal, version=1, key="deal-1") for _ in range(3)]
    assert all((a["version"], a["deals"], a["totals"]) == (2, 1, {"A": 10, "B": 0}) for a in answers)
    stored = sheet.stored()
    assert (stored.version, stored.deals, stored.points_a) == (2, 1, 10)
    assert PartitionChange.objects.filter(partition=stored).count() == 2
    body = sheet.record(ref, "deal", {**deal, "seat": 3}, key="deal-1", status=400)
    assert "already used" in body["detail"]


def test_engine_refusals_are_400s_naming_the_place_and_nothing_is_stored(sheet):
    ref = sheet.world.referee
    sheet.record(ref, "lead", {"seat": 1})
    for action, data, words in [
        ("deal", {"end": "fish", "pips": {"A": 100, "B": 90}}, "168"),
        ("penalty", {"seat": 2, "code": "rudeness"}, "rudeness"),
        ("deal", {"end": "domino", "pips": {"A": 1, "B": 2}}, "seat"),
        ("deal", {"end": "domino", "seat": 1}, "pips"),
        ("lead", {"seat": 2}, "lead draw"),
    ]:
        assert words in sheet.record(ref, action, data, status=400)["detail"], (action, data)
    body = sheet.record(ref, "shuffle", {}, status=400)
    assert "action" in body["errors"]
    body = sheet.record(ref, "deal", "domino", status=400)
    assert "data" in body["errors"]
    doc = {"format": "domino-protocol/1", "first_leader": 1,
           "deals": [{"end": "domino", "seat": 1, "pips": {"A": 10, "B": 20}},
                     {"end": "domino", "seat": 2, "pips": {"A": 10, "B": 7, "C": 1}}]}
    response = client(sheet.ref2).post(sheet.url(sheet.p2, "import"), doc, format="json")
    assert response.status_code == 400 and response.json()["detail"].startswith("deal 2")
    for pk, version in ((sheet.p1, 1), (sheet.p2, 0)):
        stored = sheet.stored(pk)
        assert stored.version == version and PartitionChange.objects.filter(partition=stored).count() == version


def test_who_may_record(sheet):
    w = sheet.world
    lead = {"action": "lead", "data": {"seat": 1}}
    url = sheet.url(sheet.p1, "record")
    assert client().post(url, lead, format="json").status_code == 401
    for someone in (sheet.ref2, w.player, w.newcomer, w.other_org):  # another table's referee, a player, ...
        response = client(someone).post(url, lead, format="json")
        assert response.status_code == 403, someone
        assert response.json()["detail"]
    assert sheet.stored().version == 0
    # The chief referee records at every table, the organiser too; forfeits are the chief's.
    sheet.record(w.chief, "lead", {"seat": 1})
    sheet.record(w.org, "deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}})
    assert "chief referee" in sheet.record(w.referee, "forfeit", {"pair": "A"}, status=403)["detail"]
    # The history is the staff's.
    assert client().get(sheet.url(sheet.p1, "changes")).status_code == 401
    assert client(w.player).get(sheet.url(sheet.p1, "changes")).status_code == 403
    assert len(listed(client(w.referee).get(sheet.url(sheet.p1, "changes")))) == 2
    # A partition of a draft tour is not there for the public.
    draft = tours.generate_tour(w.org, w.solo)
    hidden = draft.tables.first().partition.pk
    assert client().get(sheet.url(hidden)).status_code == 404
    assert client(w.referee).get(sheet.url(hidden)).status_code == 404  # staff of another tournament
    assert client(w.org).get(sheet.url(hidden)).status_code == 200
    response = client(w.org).post(sheet.url(hidden, "record"), lead, format="json")
    assert response.status_code == 400 and "not published" in response.json()["detail"]
    assert client().get("/api/partitions/999999/").status_code == 404


def test_a_chief_referees_correction_needs_a_reason_and_the_old_version_stays_readable(sheet):
    w, ref = sheet.world, sheet.world.referee
    sheet.record(ref, "lead", {"seat": 1})
    sheet.record(ref, "deal", {"end": "domino", "seat": 1, "pips": {"A": 20, "B": 40}})  # A 60
    sheet.record(ref, "deal", {"end": "domino", "seat": 2, "pips": {"A": 30, "B": 10}})  # B 40
    url = sheet.url(sheet.p1, "correct-deal")
    correction = {"number": 2, "deal": {"end": "domino", "seat": 1, "pips": {"A": 10, "B": 30}}, "version": 3}
    assert client(ref).post(url, {**correction, "reason": "typo"}, format="json").status_code == 403
    response = client(w.chief).post(url, {**correction, "reason": "  "}, format="json")
    assert response.status_code == 400 and "reason" in response.json()["detail"]
    response = client(w.chief).post(url, {**correction, "reason": "the winner was seat 1", "version": 2},
                                    format="json")
    assert response.status_code == 409 and response.json()["current_version"] == 3
    response = client(w.chief).post(url, {**correction, "reason": "the winner was seat 1"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["version"], body["totals"]) == (4, {"A": 100, "B": 0})

    old = client(w.chief).get(sheet.url(sheet.p1), {"version": 3}).json()
    assert (old["version"], old["current_version"], old["totals"], old["deals"]) == (3, 4, {"A": 60, "B": 40}, 2)
    assert old["result"]["deals"][1]["winner"] == "B"
    assert client(w.chief).get(sheet.url(sheet.p1), {"version": 0}).json()["next"]["next"] == "lead_draw"
    assert client(w.chief).get(sheet.url(sheet.p1), {"version": 9}).status_code == 400
    assert client().get(sheet.url(sheet.p1), {"version": 3}).status_code == 401
    assert client(w.player).get(sheet.url(sheet.p1), {"version": 3}).status_code == 403
    exported = client(w.chief).get(sheet.url(sheet.p1, "export"), {"version": 3}).json()
    assert exported["deals"][1] == {"end": "domino", "seat": 2, "pips": {"A": 30, "B": 10}}
    change = listed(client(w.chief).get(sheet.url(sheet.p1, "changes")))[-1]
    assert (change["action"], change["reason"], change["user"]) == ("correction", "the winner was seat 1", "chief")
    assert change["before"]["points"] == [60, 40] and change["after"]["points"] == [100, 0]

    # A whole protocol replaces the record: the chief referee, with a reason.
    doc = {"format": "domino-protocol/1", "first_leader": 1, "deals": [], "no_show": "B"}
    response = client(ref).post(sheet.url(sheet.p1, "import"), doc, format="json")
    assert response.status_code == 400 and "already recorded" in response.json()["detail"]
    response = client(w.chief).post(sheet.url(sheet.p1, "import"), {**doc, "reason": "pair B never came",
                                                                     "version": 4}, format="json")
    assert response.status_code == 200
    assert (response.json()["reason"], response.json()["winner"], response.json()["version"]) == ("no_show", "A", 5)


def test_import_export_round_trip(sheet):
    w, ref = sheet.world, sheet.world.referee
    for action, data in [("lead", {"seat": 4}), ("deal", {"end": "fish", "seat": 2, "pips": {"A": 40, "B": 12}}),
                         ("penalty", {"seat": 1, "code": "conduct"}),
                         ("deal", {"end": "false_pass", "seat": 1, "pips": {"A": 30, "B": 30}}),
                         ("time", {"during_deal": True}),
                         ("deal", {"end": "domino", "seat": 4, "pips": {"A": 90, "B": 0}})]:
        sheet.record(ref, action, data)
    p1 = client().get(sheet.url(sheet.p1)).json()
    assert (p1["status"], p1["winner"], p1["reason"]) == ("finished", "B", "time")
    response = client().get(sheet.url(sheet.p1, "export"), {"download": 1})
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and 'filename="protocol-cup-tour-2-table-1-v6.json"' in disposition
    doc = response.json()
    table = w.tour2.tables.get(number=1)
    assert doc["format"] == "domino-protocol/1" and doc["pairs"]["A"] == [str(p) for p in table.pair_a.players]
    assert doc["time_expired"] == {"during_deal": 3}

    response = client(sheet.ref2).post(sheet.url(sheet.p2, "import"), doc, format="json",
                                       HTTP_IDEMPOTENCY_KEY="paper-2")
    assert response.status_code == 200
    p2 = response.json()
    for key in ("status", "winner", "reason", "totals", "penalties", "deals", "result", "violations"):
        assert p2[key] == p1[key], key
    again = client(w.org).get(sheet.url(sheet.p2, "export")).json()
    assert {**again, "pairs": None} == {**doc, "pairs": None}
    assert again["pairs"] != doc["pairs"]  # the names are the table's own
    change = PartitionChange.objects.get(partition_id=sheet.p2)
    assert (change.action, change.version, change.idempotency_key) == ("import", 1, "paper-2")


def test_an_unfinished_partition_is_exported_to_the_staff_only(sheet):
    sheet.record(sheet.world.referee, "lead", {"seat": 1})
    assert client().get(sheet.url(sheet.p1, "export")).status_code == 401
    assert client(sheet.world.player).get(sheet.url(sheet.p1, "export")).status_code == 403
    doc = client(sheet.ref2).get(sheet.url(sheet.p1, "export")).json()
    assert (doc["first_leader"], doc["deals"]) == (1, [])


def test_the_answers_are_in_the_clients_language(sheet):
    api = client(sheet.ref2)
    api.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    response = api.post(sheet.url(sheet.p1, "record"), {"action": "lead", "data": {"seat": 1}}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Записывать партию за этим столом может только его судья."}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_clients_recording_the_same_version_at_once(sheet):
    ref = sheet.world.referee
    sheet.record(ref, "lead", {"seat": 1})
    barrier = threading.Barrier(2)
    codes = []
    apis = [client(ref), client(ref)]

    def tab(api, seat):
        try:
            barrier.wait()
            response = api.post(sheet.url(sheet.p1, "record"), {
                "action": "deal", "data": {"end": "domino", "seat": seat, "pips": {"A": 5, "B": 5}}, "version": 1},
                format="json")
            codes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=tab, args=(api, seat)) for api, seat in zip(apis, (1, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200, 409]
    stored = sheet.stored()
    assert (stored.deals, stored.version) == (1, 2)
    assert PartitionChange.objects.filter(partition=stored).count() == 2


def test_a_record_and_the_sheet_take_a_fixed_number_of_queries(sheet, django_assert_max_num_queries):
    ref = sheet.world.referee
    sheet.record(ref, "lead", {"seat": 1})
    api = client(ref)
    for n in range(1, 4):
        # 15: the permission reads the referee's roles (a referee off the staff records no more).
        with django_assert_max_num_queries(15):
            response = api.post(sheet.url(sheet.p1, "record"), {
                "action": "deal", "data": {"end": "domino", "seat": 1, "pips": {"A": 0, "B": n}}}, format="json")
        assert response.status_code == 200
    with django_assert_max_num_queries(3):
        assert client().get(sheet.url(sheet.p1)).json()["deals"] == 3
