"""The API of a Goat or Sea Goat table (/api/partitions/{id}/...): its sitting read, its lines
recorded (goat_deal, goat_penalty, goat_time, goat_annul), the chief referee's corrections and
the import of its protocol file, all through the Goat services of scoring/recording/commands.py. Every
result computed by hand; every refusal leaves nothing written."""

from __future__ import annotations

import pytest

from apiworld import client, listed, organiser
from builders import tournament, user
from scoring.models import Partition, PartitionChange, SeatResult
from tournaments import services as tournament_services, tours
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

# Three players a table, each for himself; fish for all; no opening, so a charge counts at once.
GOAT = {"game": "goat", "players": 3, "lose_at": 40, "opening": 0, "games_per_tour": 2, "penalty_points": 10}


class Event:
    """Tour 1 of a Goat event of ``players`` players (tables of three) published: ``ref`` referees
    table 1 (``p``), ``other`` table 2 (``p2``), ``chief`` is the chief referee, ``player`` the
    account of seat 1 of table 1; and a sports tournament whose table (``sports``) ``stranger``
    referees."""

    def __init__(self, regulations: dict, players: int = 6):
        self.org = organiser("org")
        self.ref, self.other, self.chief, self.player, self.stranger = (
            user(name) for name in ("ref", "other", "chief", "player", "stranger"))
        t = tournament(self.org, format=Tournament.Format.INDIVIDUAL, slug="goat", regulations=regulations)
        for name, kind in (("ref", "referee"), ("other", "referee"), ("chief", "chief_referee")):
            tournament_services.add_role(self.org, t, name, kind)
        for n in range(1, players + 1):
            tournament_services.register_player(self.org, t, {"last_name": f"Козлов{n}"})
        tour = tours.generate_tour(self.org, t)
        tables = list(tour.tables.order_by("number"))
        for table, referee in zip(tables, (self.ref, self.other)):
            tournament_services.assign_referee(self.org, table, referee)
        tours.publish_tour(self.org, tour)
        self.table = tables[0]
        self.p = tables[0].partition.pk
        self.p2 = tables[1].partition.pk if len(tables) > 1 else None
        Player.objects.filter(pk=self.table.seat1_id).update(user=self.player)
        cup = tournament(self.org, pairs=2, slug="cup")
        tournament_services.add_role(self.org, cup, "stranger", "referee")
        sports = tours.generate_tour(self.org, cup)
        tournament_services.assign_referee(self.org, sports.tables.get(), self.stranger)
        tours.publish_tour(self.org, sports)
        self.sports = sports.tables.get().partition.pk

    @staticmethod
    def url(pk: int, what: str = "") -> str:
        return f"/api/partitions/{pk}/{what + '/' if what else ''}"

    def post(self, who, what: str, body, *, pk: int | None = None, key: str | None = None, status: int = 200) -> dict:
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        response = client(who).post(self.url(pk or self.p, what), body, format="json", **headers)
        assert response.status_code == status, response.json()
        return response.json()

    def record(self, who, action: str, data, *, version: int | None = None, **options) -> dict:
        body = {"action": action, "data": data, **({} if version is None else {"version": version})}
        return self.post(who, "record", body, **options)

    def deal(self, **data) -> dict:
        return self.record(self.ref, "goat_deal", data)

    def two_games(self) -> dict:
        """Game 1: (0, 12, 5), (4, 18, 14), then (24, 43, 14): seat 2 the goat. Game 2 begins:
        (7, 0, 3)."""
        self.deal(lead=1, end="domino", seat=1, values={"2": 12, "3": 5})
        self.deal(end="fish", seat=2, values={"1": 4, "2": 6, "3": 9})
        self.deal(end="domino", seat=3, values={"1": 20, "2": 25})
        return self.deal(lead=2, end="domino", seat=2, values={"1": 7, "3": 3})

    def read(self, who=None, pk: int | None = None, **query) -> dict:
        response = client(who).get(self.url(pk or self.p), query)
        assert response.status_code == 200, response.json()
        return response.json()

    def nothing_written(self, version: int, pk: int | None = None) -> None:
        """The table is at ``version``, with no change after it."""
        pk = pk or self.p
        assert Partition.objects.get(pk=pk).version == version
        assert not PartitionChange.objects.filter(partition_id=pk, version__gt=version).exists()


@pytest.fixture
def goat() -> Event:
    return Event(GOAT)


#: A table's protocol file of one game, led by seat 1, nothing recorded yet.
FILE = {"format": "domino-sitting/1", "games": [{"format": "domino-protocol/1", "first_leader": 1, "deals": []}]}


def by_seat(*numbers) -> dict:
    return {str(seat): n for seat, n in enumerate(numbers, 1)}


def scores(game: dict) -> list[list[int]]:
    """The scores after each deal of a game, seat by seat."""
    return [list(deal["scores"].values()) for deal in game["deals"]]


def results(pk: int) -> list[tuple]:
    return list(SeatResult.objects.filter(partition_id=pk).order_by("seat")
                .values_list("seat", "game_points", "goats", "score"))


# -- reading a Goat table ---------------------------------------------------------------------------


def test_a_goat_table_is_read_as_its_sitting_with_no_pair_totals(goat):
    body = goat.read()
    assert (body["id"], body["tournament"], body["tour"], body["table"]) == (goat.p, "goat", 1, 1)
    assert (body["game"], body["status"], body["version"], body["current_version"], body["deals"]) == (
        "goat", "scheduled", 0, 0, 0)
    assert body["units"] == ["1", "2", "3"] and body["referee"] == "ref"
    assert [s["id"] for s in body["seats"]] == [p.pk for p in goat.table.players]
    # The first deal of game 1 is led by the hands: its record names the seat that led it.
    assert body["next"] == {"next": "deal", "game": 1, "deal": 1, "lead": True, "leader": None}
    assert body["games"] == [{
        "number": 1, "first_leader": None, "time_expired": None, "units": ["1", "2", "3"], "deals": [],
        "penalties": [], "scores": by_seat(0, 0, 0), "memo": by_seat(0, 0, 0), "open": by_seat(True, True, True),
        "carry": 0, "game_points": None, "reason": None, "goats": []}]
    assert body["totals"] == {name: by_seat(0, 0, 0) for name in ("game_points", "goats", "scores", "games_won")}
    for sports in ("pairs", "penalties", "winner", "result", "violations", "first_leader"):
        assert sports not in body, sports


def test_a_sitting_recorded_line_by_line(goat):
    ref = goat.ref
    body = goat.record(ref, "goat_deal", {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}},
                       version=0)
    assert (body["status"], body["version"], body["deals"]) == ("playing", 1, 1)
    # Domino by seat 1: each is charged his own hand.
    assert body["games"][0]["deals"] == [{
        "n": 1, "leader": 1, "end": "domino", "seat": 1, "values": by_seat(0, 12, 5), "charges": by_seat(0, 12, 5),
        "scores": by_seat(0, 12, 5), "memo": by_seat(0, 0, 0), "open": by_seat(True, True, True), "carry": 0}]
    assert body["next"] == {"next": "deal", "game": 1, "deal": 2, "lead": False, "leader": 1}
    # Goat charges a penalty's 10 points to the offender.
    body = goat.record(ref, "goat_penalty", {"seat": 3, "code": "signs"}, version=1)
    assert body["games"][0]["penalties"] == [{"after_deal": 1, "seat": 3, "code": "signs", "unit": "3", "points": 10,
                                              "scores": by_seat(0, 12, 15)}]
    assert body["games"][0]["scores"] == by_seat(0, 12, 15)
    # Fish for all: (0 + 4, 12 + 6, 15 + 9); the fisherman leads the next deal.
    body = goat.record(ref, "goat_deal", {"end": "fish", "seat": 2, "values": {"1": 4, "2": 6, "3": 9}}, version=2)
    assert body["games"][0]["scores"] == by_seat(4, 18, 24) and body["next"]["leader"] == 2
    # Seat 2 at 18 + 25 = 43: the goat (40). Game points (100 - score) / 10 rounded half up: 7.6 -> 8
    # and 7.6 -> 8; the goat 0. Game 2 begins, led by the hands again.
    body = goat.record(ref, "goat_deal", {"end": "domino", "seat": 3, "values": {"1": 20, "2": 25}}, version=3)
    first = body["games"][0]
    assert scores(first) == [[0, 12, 5], [4, 18, 24], [24, 43, 24]]
    assert (first["reason"], first["goats"], first["game_points"]) == ("lose_at", ["2"], by_seat(8, 0, 8))
    assert [g["number"] for g in body["games"]] == [1, 2] and body["games"][1]["deals"] == []
    assert body["next"] == {"next": "deal", "game": 2, "deal": 1, "lead": True, "leader": None}
    assert body["totals"] == {"game_points": by_seat(8, 0, 8), "goats": by_seat(0, 1, 0),
                              "scores": by_seat(24, 43, 24), "games_won": by_seat(0, 0, 0)}
    assert body["status"] == "playing" and not results(goat.p)
    # The table's time runs out between deals: game 2 ends at once as it stands (10 game points
    # each at 0), and no other game is begun.
    body = goat.record(ref, "goat_time", {"during_deal": False}, version=4)
    assert (body["status"], body["reason"], body["version"], body["deals"]) == ("finished", "time", 5, 3)
    assert body["next"] == {"next": "over", "game": None, "deal": None, "lead": False, "leader": None}
    second = body["games"][1]
    assert (second["time_expired"], second["reason"], second["game_points"], second["goats"]) == (
        {"after_deal": 0}, "time", by_seat(10, 10, 10), [])
    assert body["totals"]["game_points"] == by_seat(18, 10, 18)
    assert results(goat.p) == [(1, 18, 0, 24), (2, 10, 1, 43), (3, 18, 0, 24)]
    # A finished sitting is closed.
    refused = goat.record(ref, "goat_penalty", {"seat": 1, "code": "signs"}, status=400)
    assert "closed" in refused["detail"]
    goat.nothing_written(5)

    assert goat.read() == body  # a read answers what the last write did
    changes = listed(client(goat.chief).get(goat.url(goat.p, "changes")))
    assert [c["action"] for c in changes] == ["goat_deal", "goat_penalty", "goat_deal", "goat_deal", "goat_time"]
    assert changes[0]["data"] == {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}}
    assert (changes[-1]["user"], changes[-1]["address"], changes[-1]["after"]["status"]) == (
        "ref", "127.0.0.1", "finished")
    document = client().get(goat.url(goat.p, "export")).json()
    assert document["format"] == "domino-sitting/1" and len(document["games"]) == 2
    assert document["games"][0]["penalties"] == [{"after_deal": 1, "seat": 3, "code": "signs"}]


def test_a_redeal_and_the_last_deal_after_the_time_ran_out_during_it(goat):
    body = goat.deal(lead=2, end="redeal")
    # A void deal counts nothing, and the next one is a first deal again: led by the hands.
    assert body["games"][0]["deals"][0] == {
        "n": 1, "leader": 2, "end": "redeal", "seat": None, "values": {}, "charges": by_seat(0, 0, 0),
        "scores": by_seat(0, 0, 0), "memo": by_seat(0, 0, 0), "open": by_seat(True, True, True), "carry": 0}
    assert body["next"] == {"next": "deal", "game": 1, "deal": 2, "lead": True, "leader": None}
    goat.deal(lead=3, end="domino", seat=3, values={"1": 9, "2": 1})  # (9, 1, 0)
    body = goat.record(goat.ref, "goat_time", {"during_deal": True})
    assert body["next"] == {"next": "last_deal", "game": 1, "deal": 3, "lead": False, "leader": 3}
    assert body["games"][0]["time_expired"] == {"during_deal": 3}
    body = goat.deal(end="fish", seat=1, values={"1": 2, "2": 3, "3": 4})  # (11, 4, 4)
    # 8.9 -> 9, 9.6 -> 10, 9.6 -> 10; the sitting ends with its first game.
    assert (body["status"], body["reason"], len(body["games"])) == ("finished", "time", 1)
    assert body["games"][0]["game_points"] == by_seat(9, 10, 10)
    assert results(goat.p) == [(1, 9, 0, 11), (2, 10, 0, 4), (3, 10, 0, 4)]


def test_sea_goat_credits_a_penalty_to_the_others_and_names_its_winner():
    event = Event({"game": "sea_goat", "players": 3, "teams": False, "target": 60}, players=3)
    body = event.record(event.ref, "goat_penalty", {"seat": 2, "code": "moved_tiles"})
    game = body["games"][0]
    assert (body["game"], game["scores"], game["winner"]) == ("sea_goat", by_seat(25, 0, 25), None)
    assert "goats" not in game
    # Domino with 0-0 wins the game at once; the sitting of one game is over.
    body = event.deal(lead=1, end="domino", seat=1, values={"2": 10, "3": 5}, zero_zero=True)
    game = body["games"][0]
    assert (game["reason"], game["winner"], game["game_points"]) == ("zero_zero", "1", by_seat(1, 0, 0))
    assert game["deals"][0]["zero_zero"] is True
    assert body["totals"]["games_won"] == by_seat(1, 0, 0) and body["status"] == "finished"


# -- what a table does not record ---------------------------------------------------------------------


def test_a_sports_action_at_a_goat_table_and_a_goat_action_at_a_sports_table_are_400s(goat):
    goat.deal(lead=1, end="domino", seat=1, values={"2": 12, "3": 5})
    for action, data in (("deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 10}}), ("lead", {"seat": 1}),
                         ("penalty", {"seat": 1, "code": "signs"}), ("shuffle", {})):
        body = goat.record(goat.ref, action, data, status=400)
        assert body["errors"]["action"] == [f"{action} is not an action of this table: it records goat_deal, "
                                            "goat_penalty, goat_time, goat_annul."]
    api = client(goat.ref)
    api.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    response = api.post(goat.url(goat.p, "record"), {"action": "deal", "data": {}}, format="json")
    assert response.json()["errors"]["action"] == [
        "deal — не действие этого стола: здесь записывают goat_deal, goat_penalty, goat_time, goat_annul."]
    goat.nothing_written(1)
    for action, data in (("goat_deal", {"lead": 1, "end": "redeal"}), ("goat_time", {"during_deal": False})):
        body = goat.record(goat.stranger, action, data, pk=goat.sports, status=400)
        assert body["errors"]["action"] == [f"{action} is not an action of this table: it records lead, deal, "
                                            "penalty, violation, annul, time, no_show, restart, forfeit."]
    # A sports correction or protocol at a Goat table, and a Goat one at a sports table.
    sports_correction = {"number": 1, "deal": {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 12}}, "reason": "x"}
    body = goat.post(goat.chief, "correct-deal", sports_correction, status=400)
    assert body["errors"]["game"] == ["This field is required."]
    assert body["errors"]["deal.pips"] == ["Unknown field."]
    body = goat.post(goat.org, "correct-deal", {**sports_correction, "game": 1}, pk=goat.sports, status=400)
    assert body["errors"]["game"] == ["Unknown field."]
    sports_protocol = {"format": "domino-protocol/1", "first_leader": 1,
                       "deals": [{"end": "domino", "seat": 1, "pips": {"A": 0, "B": 12}}]}
    body = goat.post(goat.other, "import", sports_protocol, pk=goat.p2, status=400)
    assert body["detail"] == "game 1, deal 1: unknown key 'pips' in a deal"
    sitting = {"format": "domino-sitting/1", "games": [{"format": "domino-protocol/1", "deals": []}]}
    body = goat.post(goat.stranger, "import", sitting, pk=goat.sports, status=400)
    assert body["detail"] == "format: must be 'domino-protocol/1', got 'domino-sitting/1'"
    goat.nothing_written(1)
    goat.nothing_written(0, goat.p2)
    goat.nothing_written(0, goat.sports)


@pytest.mark.parametrize("action, data, field", [
    ("goat_deal", "domino", "data"),
    ("goat_deal", {"end": "pass", "seat": 1, "values": {"2": 3}}, "data.end"),
    ("goat_deal", {"end": "domino", "seat": "1", "values": {"2": 3}}, "data.seat"),
    ("goat_deal", {"end": "domino", "seat": True, "values": {"2": 3}}, "data.seat"),
    ("goat_deal", {"end": "domino", "seat": 1, "values": {"2": "3"}}, "data.values.2"),
    ("goat_deal", {"end": "domino", "seat": 1, "values": [0, 3, 5]}, "data.values"),
    ("goat_deal", {"end": "domino", "seat": 1, "values": {"2": 3}, "lead": 0}, "data.lead"),
    ("goat_deal", {"end": "domino", "seat": 1, "values": {"2": 3}, "zero_zero": "no"}, "data.zero_zero"),
    ("goat_deal", {"end": "domino", "seat": 1, "pips": {"A": 0, "B": 3}}, "data.pips"),
    ("goat_penalty", {"seat": 2, "code": "rudeness"}, "data.code"),
    ("goat_penalty", {"seat": 2}, "data.code"),
    ("goat_time", {"during_deal": "false"}, "data.during_deal"),
    ("goat_annul", {"game": "1", "penalty": 1, "reason": "typo"}, "data.game"),
    ("goat_annul", {"game": 1, "penalty": 1}, "data.reason"),
    (5, {}, "action"),
])
def test_bad_shapes_are_400s_naming_the_field_and_nothing_is_written(goat, action, data, field):
    goat.deal(lead=1, end="domino", seat=1, values={"2": 12, "3": 5})
    body = goat.record(goat.org, action, data, status=400)
    assert field in body["errors"], body
    body = goat.post(goat.org, "record", {"action": "goat_time", "data": {"during_deal": False}, "version": "1"},
                     status=400)
    assert "version" in body["errors"]
    goat.nothing_written(1)


def test_the_engine_refuses_what_the_rules_do_not_allow_naming_it_and_nothing_is_written(goat):
    for data, message in [
        ({"end": "domino", "seat": 1, "values": {"2": 12, "3": 5}},
         "the first deal in summary form needs the seat that led it (first_leader)"),
        ({"lead": 4, "end": "redeal"}, "seat must be 1 to 3, got 4"),
        ({"lead": 1, "end": "redeal", "seat": 1}, "A redeal is void: it has no seat and no hand values."),
        ({"lead": 1, "end": "domino", "seat": 1, "values": {"1": 3, "2": 5, "3": 5}},
         "seat 1 made domino: his hand is empty, worth 0"),
        ({"lead": 1, "end": "fish", "seat": 2, "values": {"1": 4, "2": 6}}, "the hand value of seat 3 is missing"),
        ({"lead": 1, "end": "fish", "seat": 1, "values": {"1": 4, "2": 6, "3": 9}, "zero_zero": True},
         "zero_zero is true or false, and true only for domino"),
    ]:
        assert message in goat.record(goat.ref, "goat_deal", data, status=400)["detail"], data
    assert "seat must be 1 to 3, got 4" in goat.record(goat.ref, "goat_penalty", {"seat": 4, "code": "signs"},
                                                       status=400)["detail"]
    body = goat.record(goat.chief, "goat_annul", {"game": 1, "penalty": 1, "reason": "no such"}, status=400)
    assert body["detail"] == "There is no game 1."
    goat.nothing_written(0)


# -- retries, stale versions, who may record ------------------------------------------------------------


def test_a_retried_line_applies_once_and_a_stale_version_is_a_409(goat):
    line = {"lead": 2, "end": "fish", "seat": 2, "values": {"1": 12, "2": 7, "3": 1}}  # for all: (12, 7, 1)
    answers = [goat.record(goat.ref, "goat_deal", line, version=0, key="deal-1") for _ in range(3)]
    assert all((a["version"], a["deals"], a["games"][0]["scores"]) == (1, 1, by_seat(12, 7, 1)) for a in answers)
    assert PartitionChange.objects.filter(partition_id=goat.p).count() == 1
    body = goat.record(goat.ref, "goat_deal", {**line, "seat": 1}, key="deal-1", status=400)
    assert body["detail"] == "This idempotency key was already used for another change."
    # Each write on version 0 now: nothing stored, the current version named.
    for what, body, who in [
        ("record", {"action": "goat_deal", "data": {"end": "redeal"}, "version": 0}, goat.ref),
        ("record", {"action": "goat_penalty", "data": {"seat": 1, "code": "signs"}, "version": 0}, goat.ref),
        ("record", {"action": "goat_time", "data": {"during_deal": True}, "version": 0}, goat.ref),
        ("correct-deal", {"game": 1, "number": 1, "deal": {"end": "redeal"}, "reason": "void", "version": 0},
         goat.chief),
        ("import", {**FILE, "reason": "paper", "version": 0}, goat.chief),
    ]:
        conflict = goat.post(who, what, body, status=409)
        assert conflict["current_version"] == 1 and "version 1" in conflict["detail"], what
    goat.record(goat.ref, "goat_penalty", {"seat": 3, "code": "signs"}, version=1)  # (12, 7, 11)
    conflict = goat.record(goat.chief, "goat_annul", {"game": 1, "penalty": 1, "reason": "typo"}, version=1,
                           status=409)
    assert conflict["current_version"] == 2
    goat.nothing_written(2)
    assert goat.read()["games"][0]["scores"] == by_seat(12, 7, 11)


def test_who_may_record_at_a_goat_table(goat):
    deal = {"action": "goat_deal", "data": {"lead": 1, "end": "redeal"}}
    url = goat.url(goat.p, "record")
    assert client().post(url, deal, format="json").status_code == 401
    # A player of the table, the referee of another table, another tournament's referee.
    for someone in (goat.player, goat.other, goat.stranger):
        response = client(someone).post(url, deal, format="json")
        assert response.status_code == 403, someone
        assert response.json() == {"detail": "Only the referee of this table may record it."}
    goat.nothing_written(0)
    # The chief referee and the organiser record at every table; annulling is the chief's.
    goat.record(goat.chief, "goat_deal", {"lead": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 5}})
    goat.record(goat.org, "goat_penalty", {"seat": 2, "code": "conduct"})
    body = goat.record(goat.ref, "goat_annul", {"game": 1, "penalty": 1, "reason": "no"}, status=403)
    assert body["detail"] == "Only the chief referee may do this."
    for who, what, body in [
        (goat.ref, "correct-deal", {"game": 1, "number": 1, "deal": {"end": "redeal"}, "reason": "void"}),
        (goat.other, "import", {**FILE, "reason": "paper"}),
        (goat.stranger, "import", FILE),
        (None, "correct-deal", {"game": 1, "number": 1, "deal": {"end": "redeal"}, "reason": "void"}),
    ]:
        response = client(who).post(goat.url(goat.p, what), body, format="json")
        assert response.status_code == (401 if who is None else 403), (who, what)
    goat.nothing_written(2)
    # Anyone reads a published table; its history and its earlier versions are the staff's.
    assert goat.read()["games"][0]["scores"] == by_seat(0, 22, 5)
    for who, status in ((None, 401), (goat.player, 403), (goat.stranger, 403)):
        assert client(who).get(goat.url(goat.p), {"version": 1}).status_code == status
        assert client(who).get(goat.url(goat.p, "changes")).status_code == status
    assert goat.read(goat.other, version=1)["games"][0]["scores"] == by_seat(0, 12, 5)


# -- the chief referee's annulments, corrections and imports -----------------------------------------------


def test_the_chief_annuls_a_penalty_and_the_game_is_replayed_without_it(goat):
    goat.deal(lead=1, end="domino", seat=1, values={"2": 12, "3": 25})  # (0, 12, 25)
    goat.record(goat.ref, "goat_penalty", {"seat": 3, "code": "signs"})  # (0, 12, 35)
    goat.record(goat.ref, "goat_penalty", {"seat": 2, "code": "conduct"})  # (0, 22, 35)
    goat.deal(end="domino", seat=1, values={"2": 3, "3": 1})  # (0, 25, 36)
    body = goat.record(goat.chief, "goat_annul", {"game": 1, "penalty": 1, "reason": "the signs were not signs"},
                       version=4)
    game = body["games"][0]
    assert [(p["seat"], p["code"], p["scores"]) for p in game["penalties"]] == [(2, "conduct", by_seat(0, 22, 25))]
    assert game["scores"] == by_seat(0, 25, 26) and body["version"] == 5
    change = PartitionChange.objects.get(partition_id=goat.p, version=5)
    assert (change.action, change.data, change.reason, change.user) == (
        "correction", {"game": 1, "penalty": 1}, "the signs were not signs", goat.chief)
    body = goat.record(goat.chief, "goat_annul", {"game": 1, "penalty": 1, "reason": "  "}, status=400)
    assert body["errors"] == {"data.reason": ["This field may not be blank."]}
    assert goat.read(goat.chief, version=4)["games"][0]["scores"] == by_seat(0, 25, 36)


def test_the_chief_corrects_a_deal_and_the_later_deals_are_replayed(goat):
    goat.two_games()
    correction = {"game": 1, "number": 1, "deal": {"end": "domino", "seat": 1, "values": {"2": 12, "3": 15}},
                  "reason": "seat 3 held 15", "version": 4}
    # Seat 3 held 15, not 5: (0, 12, 15), (4, 18, 24), (24, 43, 24); seat 2 still the goat.
    body = goat.post(goat.chief, "correct-deal", correction)
    first, second = body["games"]
    assert (body["version"], body["status"], body["deals"]) == (5, "playing", 4)
    assert scores(first) == [[0, 12, 15], [4, 18, 24], [24, 43, 24]]
    assert (first["goats"], first["game_points"]) == (["2"], by_seat(8, 0, 8))
    assert scores(second) == [[7, 0, 3]]
    change = listed(client(goat.chief).get(goat.url(goat.p, "changes")))[-1]
    assert (change["action"], change["reason"], change["user"]) == ("correction", "seat 3 held 15", "chief")
    assert change["data"] == {"game": 1, "deal": 1, "end": "domino", "seat": 1, "values": {"2": 12, "3": 15}}
    # The version before keeps the deal as it was recorded.
    old = goat.read(goat.chief, version=4)
    assert (old["version"], old["current_version"]) == (4, 5)
    assert scores(old["games"][0])[0] == [0, 12, 5]
    assert goat.read(goat.chief, version=0)["games"][0]["deals"] == []
    assert client(goat.chief).get(goat.url(goat.p), {"version": 9}).json() == {"detail": "There is no version 9."}
    # A correction the later records no longer fit is refused, as is one without a reason.
    for body, message in [
        ({**correction, "number": 2, "deal": {"end": "fish", "seat": 2, "values": {"1": 4, "2": 30, "3": 9}}},
         "With this correction game 1 ends at deal 2, yet later deals are recorded in it: the correction is refused."),
        ({**correction, "deal": {"end": "domino", "seat": 1, "values": {"2": 2, "3": 5}}},
         "The correction is refused: game 1 is not over, yet another game follows it"),
        ({**correction, "game": 2, "number": 2, "deal": {"end": "redeal"}}, "Game 2 has no deal 2."),
        ({**correction, "reason": ""}, "A correction needs a reason."),
    ]:
        assert goat.post(goat.chief, "correct-deal", {**body, "version": 5}, status=400)["detail"].startswith(
            message), body
    body = goat.post(goat.chief, "correct-deal", {**correction, "deal": {**correction["deal"], "lead": 1}},
                     status=400)
    assert body["errors"] == {"deal.lead": ["Unknown field."]}
    goat.nothing_written(5)


def test_a_tables_protocol_file_is_imported_and_replaced_by_the_chief(goat):
    goat.two_games()
    document = client(goat.org).get(goat.url(goat.p, "export")).json()
    assert document["format"] == "domino-sitting/1" and len(document["games"]) == 2
    # Table 2's referee types table 1's file in (the names are not checked).
    body = goat.post(goat.other, "import", document, pk=goat.p2, key="paper-2")
    assert (body["version"], body["status"], body["deals"]) == (1, "playing", 4)
    assert [scores(g) for g in body["games"]] == [scores(g) for g in goat.read()["games"]] == [
        [[0, 12, 5], [4, 18, 14], [24, 43, 14]], [[7, 0, 3]]]
    change = PartitionChange.objects.get(partition_id=goat.p2)
    assert (change.action, change.idempotency_key) == ("import", "paper-2")
    body = goat.post(goat.other, "import", document, pk=goat.p2, status=400)
    assert body["detail"] == ("The partition is already recorded: only the chief referee can replace it, giving a "
                              "reason.")
    # A bad file is refused whole, naming the place.
    bad = {**document, "games": [{**document["games"][0], "deals": document["games"][0]["deals"][:1]},
                                 document["games"][1]]}
    body = goat.post(goat.chief, "import", {**bad, "reason": "typed again"}, pk=goat.p2, status=400)
    assert body["detail"] == "game 1 is not over, yet another game follows it"
    goat.nothing_written(1, goat.p2)
    # The chief replaces it with the first game alone (one domino-protocol/1 game), with a reason.
    body = goat.post(goat.chief, "import", {**document["games"][0], "reason": "game 2 never played", "version": 1},
                     pk=goat.p2)
    assert (body["version"], body["status"], body["deals"]) == (2, "playing", 3)
    assert body["next"] == {"next": "deal", "game": 2, "deal": 1, "lead": True, "leader": None}
    change = PartitionChange.objects.get(partition_id=goat.p2, version=2)
    assert (change.action, change.reason) == ("correction", "game 2 never played")


def test_goat_in_pairs_is_scored_by_pair():
    org, ref = organiser("org"), user("ref")
    t = tournament(org, pairs=2, slug="pairs", regulations={"game": "goat", "teams": True, "opening": 0})
    tournament_services.add_role(org, t, "ref", "referee")
    tour = tours.generate_tour(org, t)
    table = tour.tables.get()
    tournament_services.assign_referee(org, table, ref)
    tours.publish_tour(org, tour)
    api = client(ref)
    response = api.post(Event.url(table.partition.pk, "record"), {"action": "goat_deal", "data": {
        "lead": 2, "end": "domino", "seat": 1, "values": {"2": 10, "3": 4, "4": 6}}}, format="json")
    body = response.json()
    # Domino by seat 1: pair B is charged its hands, 10 + 6; pair A, the domino maker's, nothing.
    assert (body["units"], len(body["seats"])) == (["A", "B"], 4)
    assert body["games"][0]["deals"][0]["charges"] == {"A": 0, "B": 16}
    assert body["totals"]["scores"] == {"A": 0, "B": 0}  # the game is not over yet
    assert body["games"][0]["scores"] == {"A": 0, "B": 16}


def test_a_goat_record_and_a_read_take_a_fixed_number_of_queries(goat, django_assert_max_num_queries):
    goat.deal(lead=1, end="domino", seat=1, values={"2": 1, "3": 1})
    api = client(goat.ref)
    for n in range(1, 4):
        # As many as a sports table's (test_api_recording.py): the sitting is in the partition's row.
        with django_assert_max_num_queries(15):
            response = api.post(goat.url(goat.p, "record"), {"action": "goat_deal", "data": {
                "end": "domino", "seat": 1, "values": {"2": n, "3": 1}}}, format="json")
        assert response.status_code == 200
    with django_assert_max_num_queries(3):
        assert client().get(goat.url(goat.p)).json()["deals"] == 4
