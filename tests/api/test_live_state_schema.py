"""The live API's answers are what its OpenAPI schema says they are (issue 22): real tables played
through the API (a sports table digital, refereed and on the referee's clock; Goat digital,
refereed and on the clock; Sea Goat digital), every answer checked against the schema of its
operation made strict: a key the schema does not describe, a required key missing or a value of
another type fails. And the schema describes nothing the tables never answer."""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from django.db import transaction
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from livetools import PIN, goat_table, live_tour, seated
from scoring.live import play
from scoring.models import Partition
from scoring.protocols.confirmations import set_pin
from scoring.recording import pipeline

pytestmark = pytest.mark.django_db

LIVE = "/api/partitions/{id}/live/"


def strict(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema (``nullable`` as a null alternative) in which every
    object refuses the keys its serializer has no field for."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: strict(value) for key, value in node.items()}
    if node.get("type") == "object" and "properties" in node:
        node.setdefault("additionalProperties", False)
    if node.get("nullable") is True:
        del node["nullable"]
        node = {"anyOf": [node, {"type": "null"}]}
    return node


@pytest.fixture(scope="module")
def schema() -> dict:
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return strict(json.loads(OpenApiJsonRenderer().render(generated)))


class Api:
    """A caller of the live API of one partition: every answer must be a 200 that fits the
    schema of its operation; each is kept in ``answers`` with its action ("" for a read)."""

    def __init__(self, schema: dict, pid: int, answers: list[tuple[str, dict]]) -> None:
        self.schema, self.pid, self.answers = schema, pid, answers

    def check(self, route: str, method: str, answer: Any) -> dict:
        assert answer.status_code == 200, (route, answer.content)
        body = answer.json()
        assert not (errors := faults(validator(self.schema, route, method), body)), (route, errors)
        return body

    def get(self, user=None, token: str | None = None) -> dict:
        state = self.check(LIVE, "get", client(user).get(f"/api/partitions/{self.pid}/live/", **header(token)))
        self.answers.append(("", state))
        return state

    def post(self, action: str, body: dict | None = None, user=None, token: str | None = None) -> dict:
        answer = client(user).post(f"/api/partitions/{self.pid}/live/{action}/", body or {}, format="json",
                                   **header(token))
        body = self.check(f"{LIVE}{action}/", "post", answer)
        self.answers.append((action, body))
        return body


def validator(schema: dict, route: str, method: str) -> Draft202012Validator:
    content = schema["paths"][route][method]["responses"]["200"]["content"]["application/json"]
    return Draft202012Validator({**content["schema"], "components": schema["components"]},
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def faults(fits: Draft202012Validator, document: Any) -> list[str]:
    """What does not fit, with where: of "either shape", in the shape that fits best."""
    errors = list(fits.iter_errors(document))
    while len(errors) == 1 and errors[0].validator == "oneOf":
        branches: dict[Any, list] = {}
        for error in errors[0].context:
            branches.setdefault(error.relative_schema_path[0], []).append(error)
        errors = min(branches.values(), key=len)
    return [f"{'.'.join(map(str, error.absolute_path))}: {error.message}" for error in errors]


def client(user=None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def header(token: str | None) -> dict:
    return {"HTTP_X_SEAT_TOKEN": token} if token else {}


def next_move(state: dict) -> tuple[str, dict]:
    """The first move the player to move may make, as the API takes it: a tile, a draw (naming
    the first tile of the bazaar to the referee who sees them), or a pass."""
    current, turn = state["current"], state["live"]["turn"]
    if current["legal"]:
        return "move", {"turn": turn, **{key: value for key, value in current["legal"][0].items() if key != "seat"}}
    if current.get("must_draw"):
        return "draw", {"turn": turn, **({"tile": current["bazaar_tiles"][0]} if "bazaar_tiles" in current else {})}
    return "move", {"turn": turn, "pass": True}


def play_digital(api: Api, tokens: dict[int, str], frozen, done) -> None:
    """Play through the API, each move from its player's phone, until ``done(public state)``."""
    for _step in range(600):
        public = api.get()
        if done(public) or public["result"]["status"] == "finished":
            return
        seat = public["live"]["seat"]
        action, body = next_move(api.get(token=tokens[seat]))
        frozen.advance(1)
        api.post(action, body, token=tokens[seat])
    pytest.fail("the table did not get there")


@contextlib.contextmanager
def undone():
    """A table built and played inside is undone after: the next one's builders take the same
    names (its answers were kept as JSON)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def sports_answers(schema: dict, frozen) -> list[tuple[str, dict]]:
    answers: list[tuple[str, dict]] = []
    with undone():
        sports_digital(schema, frozen, answers)
    with undone():
        sports_refereed(schema, answers)
    with undone():
        sports_clock(schema, answers)
    return answers


def sports_digital(schema: dict, frozen, answers: list[tuple[str, dict]]) -> None:
    """The tour started and the seats taken through the API, a clock run out twice, a pause, a
    seat released and taken again, then moves from the phones into the second deal."""
    world = live_tour("digital")
    world["t"].status = "running"
    world["t"].save(update_fields=["status"])
    api, ref = Api(schema, world["p1"].pk, answers), world["ref"]
    started = client(world["chief"]).post(f"/api/tournaments/{world['t'].slug}/tours/{world['tour'].number}/start/",
                                          {}, format="json")
    api.check("/api/tournaments/{slug}/tours/{number}/start/", "post", started)
    tokens = {seat: api.post("seat", {"seat": seat, "pin": PIN})["token"] for seat in (1, 2, 3, 4)}
    frozen.advance(25)
    frozen.advance(25)
    # Two lapses: a warning, then a penalty (listed in penalties once the deal is over).
    assert [violation["consequence"] for violation in api.get()["violations"]] == ["warning", "penalty"]
    api.post("pause", {"reason": "dispute"}, user=ref)
    api.post("resume", user=ref)
    api.post("release", {"seat": 1}, user=ref)
    tokens[1] = api.post("seat", {"seat": 1, "pin": PIN})["token"]
    play_digital(api, tokens, frozen, lambda public: public["deals"] and public.get("current", {}).get("moves"))
    assert api.get()["penalties"]


def sports_refereed(schema: dict, answers: list[tuple[str, dict]]) -> None:
    """The referee starts it, enters the hands and a move."""
    world = live_tour("refereed")
    play.start_tour(world["chief"], world["tour"])
    api, ref = Api(schema, world["p1"].pk, answers), world["ref"]
    api.post("start", {"leader": 1}, user=ref)
    tiles = [f"{high}-{low}" for high in range(7) for low in range(high + 1)]
    entered = api.post("hands", {"turn": api.get(user=ref)["live"]["turn"],
                                 "hands": {str(seat): tiles[7 * seat - 7:7 * seat] for seat in (1, 2, 3, 4)}},
                       user=ref)
    api.post(*next_move(entered), user=ref)


def sports_clock(schema: dict, answers: list[tuple[str, dict]]) -> None:
    """The referee's clock: a player ticked present, the no-show postponed, the partition started,
    moves tapped, the allowance switched, the deal over and its result."""
    world = live_tour("clock")
    play.start_tour(world["chief"], world["tour"])
    api, ref = Api(schema, world["p1"].pk, answers), world["ref"]
    api.post("check-in", {"seat": 1}, user=ref)
    api.post("postpone", {"minutes": 5}, user=ref)
    turn = api.post("start", {"leader": 2}, user=ref)["live"]["turn"]
    turn = api.post("tap", {"turn": turn}, user=ref)["live"]["turn"]
    api.post("allowance", {"turn": turn, "kind": "fish"}, user=ref)
    api.post("deal-over", {"turn": turn}, user=ref)
    api.post("result", {"end": "domino", "seat": 3, "pips": {"A": 0, "B": 31}}, user=ref)


def goat_digital(monkeypatch, regulations: dict, first_seed: int) -> dict:
    """A table of three players each for himself, digital, with the deals' seeds fixed."""
    seeds = itertools.count(first_seed)
    monkeypatch.setattr(pipeline, "new_seed", lambda: next(seeds))
    world = goat_table("digital", 3, regulations)
    for player in Partition.objects.get(pk=world["pid"]).table.players:
        set_pin(world["org"], player.pk, PIN)
    return world


# Two hands of a refereed Goat table of two (tests/live/test_live_goat_referee.py): seat 1 leads
# with 1-1, and seat 2 must draw twice at his fourth move.
HANDS = {"1": ["1-1", "2-1", "3-2", "4-3", "5-4", "6-5", "6-0"],
         "2": ["1-0", "0-0", "4-0", "5-5", "6-6", "3-1", "2-0"]}


def goat_answers(schema: dict, frozen, monkeypatch) -> list[tuple[str, dict]]:
    answers: list[tuple[str, dict]] = []
    # Goat on the phones, a whole game of it; Sea Goat to its offer of two doubles at once.
    for regulations, seed, done in (
            ({"lose_at": 30}, 1, lambda public: False),
            ({"game": "sea_goat", "teams": False}, 3, lambda public: any(
                "second" in move for _, state in answers for move in (state.get("current") or {}).get("legal", [])))):
        with undone():
            world = goat_digital(monkeypatch, regulations, seed)
            api = Api(schema, world["pid"], answers)
            tokens = {seat: api.post("seat", {"seat": seat, "pin": PIN})["token"] for seat in (1, 2, 3)}
            play_digital(api, tokens, frozen, done)
    with undone():
        goat_refereed(schema, answers)
    with undone():
        goat_clock(schema, answers)
    return answers


def goat_refereed(schema: dict, answers: list[tuple[str, dict]]) -> None:
    """The hands entered, played to the end of the deal, the tiles drawn named."""
    world = goat_table("refereed", 2)
    api, ref = Api(schema, world["pid"], answers), world["ref"]
    api.post("hands", {"turn": api.get(user=ref)["live"]["turn"], "hands": HANDS}, user=ref)
    for _step in range(40):
        state = api.get(user=ref)
        if "current" not in state:
            break
        api.post(*next_move(state), user=ref)
    assert api.get()["deals"]


def goat_clock(schema: dict, answers: list[tuple[str, dict]]) -> None:
    """The referee's clock: a redeal, the leader named, a move tapped, the deal over and its result."""
    world = goat_table("clock", 3)
    api, ref = Api(schema, world["pid"], answers), world["ref"]
    api.post("goat-result", {"end": "redeal"}, user=ref)
    turn = api.post("lead", {"seat": 2}, user=ref)["live"]["turn"]
    turn = api.post("tap", {"turn": turn}, user=ref)["live"]["turn"]
    api.post("pause", {"reason": "call"}, user=ref)
    api.post("deal-over", {"turn": turn}, user=ref)
    api.post("goat-result", {"end": "domino", "seat": 3, "values": {"1": 10, "2": 20}}, user=ref)
    api.post("resume", user=ref)


def keys(document: Any, path: str = "") -> set[str]:
    """The paths of the keys of ``document``: "live.turn", "deals[].hands.*" (a seat's key)."""
    if isinstance(document, list):
        return set().union(*(keys(item, f"{path}[]") for item in document))
    if not isinstance(document, dict):
        return set()
    paths = set()
    for key, value in document.items():
        inner = f"{path}.{'*' if key.isdigit() else key}".lstrip(".")
        paths |= {inner} | keys(value, inner)
    return paths


def described(schema: dict, node: dict, path: str = "") -> set[str]:
    """The paths of the keys the schema ``node`` describes, as :func:`keys` writes them."""
    if "$ref" in node:
        return described(schema, schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]], path)
    paths: set[str] = set()
    for alternative in (*node.get("allOf", ()), *node.get("anyOf", ()), *node.get("oneOf", ())):
        paths |= described(schema, alternative, path)
    if node.get("type") == "array":
        paths |= described(schema, node["items"], f"{path}[]")
    for key, value in node.get("properties", {}).items():
        inner = f"{path}.{key}".lstrip(".")
        paths |= {inner} | described(schema, value, inner)
    if isinstance(node.get("additionalProperties"), dict):
        inner = f"{path}.*".lstrip(".")
        paths |= {inner} | described(schema, node["additionalProperties"], inner)
    return paths


def tables(answers: list[tuple[str, dict]]) -> list[dict]:
    return [state for action, state in answers if action != "seat"]


def test_every_answer_of_a_live_sports_table_fits_its_schema(schema, frozen):
    answers = sports_answers(schema, frozen)
    assert {action for action, _ in answers} == {
        "", "seat", "release", "pause", "resume", "move", "start", "hands", "check-in", "postpone", "tap",
        "allowance", "deal-over", "result"}  # every action a sports table has
    states = tables(answers)
    assert not any("goat" in state for state in states)
    shape = {"$ref": "#/components/schemas/SportsTableState"}
    assert set().union(*map(keys, states)) == described(schema, shape)  # and it describes no key never sent


def test_every_answer_of_a_live_goat_table_fits_its_schema(schema, frozen, monkeypatch):
    answers = goat_answers(schema, frozen, monkeypatch)
    assert {action for action, _ in answers} == {
        "", "seat", "move", "draw", "hands", "lead", "tap", "pause", "deal-over", "goat-result", "resume"}
    states = tables(answers)
    assert {state["goat"] for state in states} == {"goat", "sea_goat"}
    assert any(state["result"]["status"] == "finished" for state in states)
    shape = {"$ref": "#/components/schemas/GoatTableState"}
    assert set().union(*map(keys, states)) == described(schema, shape)


def test_a_key_the_schema_lacks_fails_the_check(schema, frozen, monkeypatch):
    """What the checks above would say if state.py answered a key (or a type) the serializers do
    not describe, or left a required one out."""
    with undone():
        world = live_tour("digital")
        tokens = seated(world)
        api = Api(schema, world["p1"].pk, [])
        sports = api.get(token=tokens[api.get()["live"]["seat"]])
    with undone():
        goat = goat_digital(monkeypatch, {}, 1)
        tokens = {seat: play.claim_seat(goat["pid"], seat, PIN) for seat in (1, 2, 3)}
        api = Api(schema, goat["pid"], [])
        goat_state = api.get(token=tokens[api.get()["live"]["seat"]])  # his legal moves too
    fits = validator(schema, LIVE, "get")
    assert fits.is_valid(sports) and fits.is_valid(goat_state)

    def faults_if(state: dict, change) -> str:
        copy = json.loads(json.dumps(state))
        change(copy)
        return " | ".join(faults(fits, copy))

    for state in (sports, goat_state):
        assert "'clocks' was unexpected" in faults_if(state, lambda s: s.update(clocks={}))  # a key state.py added
        assert "live: Additional properties are not allowed ('grace'" in faults_if(
            state, lambda s: s["live"].update(grace=0.5))
        assert "'by' was unexpected" in faults_if(state, lambda s: s["result"].update(by="chief"))
        assert "'passes' was unexpected" in faults_if(state, lambda s: s["current"].update(passes=0))
        assert "current.legal.0: Additional properties are not allowed ('seconds'" in faults_if(
            state, lambda s: s["current"]["legal"][0].update(seconds=1.5))
        assert "'now' is a required property" in faults_if(state, lambda s: s.pop("now"))  # a key left out
        assert "live: 'deadline' is a required property" in faults_if(state, lambda s: s["live"].pop("deadline"))
        assert "'3' is not of type 'integer'" in faults_if(state, lambda s: s["live"].update(turn="3"))  # a type
        assert "'tablet' is not one of" in faults_if(state, lambda s: s["live"].update(mode="tablet"))
        assert "current.ends: [1, 2, 3] is not valid" in faults_if(state, lambda s: s["current"].update(ends=[1, 2, 3]))
        assert "current.hands.1.0: 1 is not of type 'string'" in faults_if(
            state, lambda s: s["current"]["hands"].update({"1": [1, 2]}))
    assert faults_if(sports, lambda s: s.update(goat="goat"))  # a mix of both shapes
    assert "deals.0: 'leader' is a required property" in faults_if(sports, lambda s: s["deals"].append({"n": 1}))
    assert "'scores' was unexpected" in faults_if(goat_state, lambda s: s["totals"].update(scores=[]))


def test_each_action_documents_its_games_answer(schema):
    def answer(route: str, method: str = "post") -> dict:
        return schema["paths"][route][method]["responses"]["200"]["content"]["application/json"]["schema"]

    either = answer(LIVE, "get")
    assert either == {"$ref": "#/components/schemas/LiveTableState"}
    assert schema["components"]["schemas"]["LiveTableState"]["oneOf"] == [
        {"$ref": "#/components/schemas/SportsTableState"}, {"$ref": "#/components/schemas/GoatTableState"}]
    for action in ("move", "release", "check-in", "postpone", "hands", "tap", "allowance", "deal-over", "pause",
                   "resume"):
        assert answer(f"{LIVE}{action}/") == either, action
    for action, shape in (("start", "SportsTableState"), ("result", "SportsTableState"), ("draw", "GoatTableState"),
                          ("lead", "GoatTableState"), ("goat-result", "GoatTableState"), ("seat", "SeatTaken")):
        assert answer(f"{LIVE}{action}/") == {"$ref": f"#/components/schemas/{shape}"}, action
    assert answer("/api/tournaments/{slug}/tours/{number}/start/") == {"$ref": "#/components/schemas/TourStarted"}
