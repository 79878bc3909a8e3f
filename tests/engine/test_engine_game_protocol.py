"""The protocol format of Goat, Sea Goat and points games (PROTOCOL_FORMAT.md, "Goat and Sea
Goat"): worked examples, round trips and refusals.

Each ``protocols/games/*.json`` holds an ``input`` protocol and the ``expected`` output worked out
by hand from RULES.md 9 (the arithmetic is in its ``_why``); extra keys in the output are allowed.
"""

import copy
import json
import random
from pathlib import Path

import pytest

from engine_goat_handbuilt import FOUR_HANDS, SEA_GOAT_MOVES
from test_engine_protocol import match
from scoring.engine import GoatGame, Regulations, RulesError, read_protocol, result_of, score_protocol, write_protocol

CASES = sorted((Path(__file__).with_name("protocols") / "games").glob("*.json"))
F = "domino-protocol/1"


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_worked_examples_of_each_game():
    assert {p.stem.split("_")[0] for p in CASES} == {"goat", "sea", "points"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_worked_example(path):
    case = load(path)
    assert case["_why"]
    out = score_protocol(copy.deepcopy(case["input"]))
    json.dumps(out)
    match(case["expected"], out)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_round_trip_of_the_examples(path):
    case = load(path)
    game, names = read_protocol(copy.deepcopy(case["input"]))
    written = write_protocol(game, names)
    again, again_names = read_protocol(json.loads(json.dumps(written)))
    assert result_of(again) == result_of(game) and again_names == names
    assert write_protocol(again, again_names) == written


def random_game(regulations, seed):
    rng = random.Random(seed)
    game = GoatGame(regulations)
    k = 0
    while not game.is_over:
        k += 1
        deal = game.start_deal(seed=f"{seed}/{k}")
        while not deal.is_void and not deal.is_over:
            moves = deal.legal_moves()
            if moves:
                move = rng.choice(moves)
                game.play(move.tile, move.end, second=move.second)
            elif deal.can_draw():
                deal.draw()
            else:
                game.pass_turn()
    return game


@pytest.mark.parametrize("settings", [
    {"game": "goat", "players": 2, "bazaar_keep": 1}, {"game": "goat", "players": 3, "fish": "for_one"},
    {"game": "goat", "teams": True}, {"game": "sea_goat"}, {"game": "sea_goat", "players": 3, "teams": False},
])
def test_a_game_played_move_by_move_round_trips_through_the_protocol(settings):
    for seed in range(3):
        game = random_game(Regulations.from_dict(settings), seed)
        doc = json.loads(json.dumps(write_protocol(game)))
        assert "first_leader" not in doc  # the first deal played move by move is led by its hands
        assert score_protocol(doc) == result_of(game)
        stored = GoatGame.from_dict(json.loads(json.dumps(game.to_dict())))
        assert result_of(stored) == result_of(game)


def test_an_unfinished_last_deal_keeps_the_bazaar_secret():
    game = GoatGame(Regulations.from_dict({"game": "goat", "players": 2}))
    deal = game.start_deal(seed="s3cret")
    deal.play(deal.legal_moves()[0].tile)
    doc = write_protocol(game)
    assert "seed" not in doc["deals"][0] and "bazaar" not in doc["deals"][0]
    out = score_protocol(doc)
    assert out["current"]["n"] == 1 and out["current"]["to_move"] == deal.to_move and out["deals"] == []
    assert game.to_dict()["current"]["seed"] == "s3cret"  # the stored state keeps it


def doc(**changes):
    base = {"format": F, "regulations": {"game": "sea_goat"},
            "deals": [{"hands": {str(s + 1): h for s, h in enumerate(FOUR_HANDS)}, "moves": SEA_GOAT_MOVES}]}
    return {**base, **changes}


@pytest.mark.parametrize("changes,message", [
    ({"first_leader": 2}, "deal 1: seat 1 leads the first deal by the hands, not seat 2"),
    ({"deals": [{"end": "domino", "seat": 1, "values": {"2": 3}}]}, "deal 1: the first deal in summary form needs"),
    ({"deals": [{"hands": {"1": FOUR_HANDS[0]}, "moves": []}]}, "deal 1, hands: must give the hands of seats"),
    ({"deals": [{"redeal": True, "hands": {str(s + 1): h for s, h in enumerate(FOUR_HANDS)}}]},
     "deal 1, hands: no hand holds 5 doubles or 6 tiles of one number"),
    ({"deals": [{"hands": {str(s + 1): h for s, h in enumerate(FOUR_HANDS)},
                 "moves": [{"seat": 1, "tile": "1-3"}]}]}, "deal 1, move 1: the first deal of a game is led with 1-1"),
    ({"deals": [{"hands": {str(s + 1): h for s, h in enumerate(FOUR_HANDS)},
                 "moves": SEA_GOAT_MOVES + [{"seat": 2, "pass": True}]}]},
     "deal 1, move 26: the deal is already over"),
    ({"deals": [{"hands": {str(s + 1): h for s, h in enumerate(FOUR_HANDS)},
                 "moves": [{"seat": 1, "tile": "1-1"}, {"seat": 2, "draw": ["0-0"], "tile": "0-1"}]}]},
     "deal 1, move 2, draw 1: seat 2 draws holding a playable tile"),
    ({"timeout": {"deal": 2, "seat": 1}}, "timeout: a lapse of the move clock ends the game only with move_timeout"),
    ({"violations": [{"deal": 1, "seat": 5, "code": "conduct"}]}, "violation 1: seat must be 1 to 4, got 5"),
    ({"pairs": {"A": ["Иванов", "Петров"]}}, "pairs: must give the names of each of A, B"),
    ({"penalties": [{"after_deal": 1, "seat": 5, "code": "signs"}]}, "penalty 1: seat must be 1 to 4, got 5"),
    ({"regulations": {"game": "sea_goat", "players": 3}}, "regulations.teams: two pairs need 4 players"),
    ({"no_show": ["B"]}, "deals: a game with a no-show has no deals"),
    ({"deals": [], "no_show": "B"}, "no_show: the absent are a list of A, B, each once, got 'B'"),
    ({"deals": [], "no_show": ["B"], "penalties": [{"after_deal": 0, "seat": 1, "code": "signs"}]},
     "penalty 1: the game was already decided"),
])
def test_bad_protocols_are_refused_naming_the_place(changes, message):
    with pytest.raises(RulesError) as error:
        score_protocol(doc(**changes))
    assert message in str(error.value)


def test_a_void_deal_in_move_form_must_be_written_as_a_redeal():
    hands = {"1": ["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"],
             "2": ["0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4"]}
    base = {"format": F, "regulations": {"game": "goat", "players": 2}}
    with pytest.raises(RulesError, match="deal 1, hands: a hand holds 5 doubles"):
        score_protocol({**base, "deals": [{"hands": hands, "moves": []}]})
    out = score_protocol({**base, "deals": [{"redeal": True, "hands": hands}]})
    assert out["deals"][0]["end"] == "redeal" and out["scores"] == {"1": 0, "2": 0}
