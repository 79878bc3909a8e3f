"""``manage.py score_protocol``: the engine's protocol format from the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Hand-checked against RULES.md: deal 1 domino by seat 3 (pair A) scores all hands 4 + 31 = 35;
# deal 2 fish, A holds fewer pips (18 < 25) and scores 43; seat 4's signs penalty gives A 25.
PROTOCOL = {
    "format": "domino-protocol/1",
    "first_leader": 4,
    "deals": [
        {"end": "domino", "seat": 3, "pips": {"A": 4, "B": 31}},
        {"end": "fish", "pips": {"A": 18, "B": 25}},
    ],
    "penalties": [{"after_deal": 2, "seat": 4, "code": "signs"}],
}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "score_protocol", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_scores_a_file(tmp_path):
    path = tmp_path / "protocol.json"
    path.write_text(json.dumps(PROTOCOL), encoding="utf-8")
    done = run(str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [d["leader"] for d in out["deals"]] == [4, 1]
    assert [d["points"] for d in out["deals"]] == [35, 43]
    assert out["penalties"][0]["totals"] == {"A": 103, "B": 0}
    assert out["totals"] == {"A": 103, "B": 0}
    assert out["winner"] is None and out["reason"] is None


def test_scores_a_goat_game():
    # 2 players: domino by seat 2, seat 1 left with 30 (opens); then fish 9 : 4 (for_all): seat 1
    # 39, seat 2 memorises 4. Goes on.
    doc = {"format": "domino-protocol/1", "regulations": {"game": "goat", "players": 2}, "first_leader": 1,
           "deals": [{"end": "domino", "seat": 2, "values": {"1": 30}},
                     {"end": "fish", "seat": 1, "values": {"1": 9, "2": 4}}]}
    done = run("-", stdin=json.dumps(doc))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["scores"] == {"1": 39, "2": 0} and out["memo"] == {"1": 0, "2": 4}
    assert out["goats"] == [] and out["reason"] is None


def test_reads_standard_input():
    done = run("-", stdin=json.dumps({**PROTOCOL, "time_expired": {"after_deal": 2},
                                     "deals": PROTOCOL["deals"] + [{"end": "domino", "seat": 2,
                                                                    "pips": {"A": 30, "B": 3}}]}))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    # One more deal after the clock ran out between deals 2 and 3; B scores 33 and A wins 103:33.
    assert out["totals"] == {"A": 103, "B": 33}
    assert (out["winner"], out["reason"]) == ("A", "time")


@pytest.mark.parametrize("doc, message", [
    ({**PROTOCOL, "penalties": [{"after_deal": 1, "seat": 2, "code": "rudeness"}]},
     "penalty 1: unknown penalty code 'rudeness'"),
    ({**PROTOCOL, "regulations": {"target": -5}}, "regulations.target"),
    ({**PROTOCOL, "deals": [{"end": "fish", "pips": {"A": 100, "B": 90}}], "penalties": []},
     "deal 1: pips 100 + 90 = 190"),
])
def test_refuses_bad_input_naming_the_place(doc, message):
    done = run("-", stdin=json.dumps(doc))
    assert done.returncode != 0
    assert message in done.stderr
    assert done.stdout == ""


def test_refuses_text_that_is_not_json():
    done = run("-", stdin="{\"format\": ")
    assert done.returncode != 0
    assert "not JSON: line 1" in done.stderr


def test_missing_file():
    done = run("/nonexistent/protocol.json")
    assert done.returncode != 0
    assert "cannot read /nonexistent/protocol.json" in done.stderr


def test_scores_each_game_of_a_goat_tables_file(tmp_path):
    """A Goat table's protocol file (domino-sitting/1) is scored game by game. Goat of two, the
    goat at 30, no opening: game 1, seat 1's domino charges seat 2 his 30; game 2, a fish charges
    each his hand (12 and 7), then seat 2's domino charges seat 1 20 more: 32."""
    regulations = {"game": "goat", "players": 2, "lose_at": 30, "opening": 0, "games_per_tour": 2}
    games = [{"format": "domino-protocol/1", "regulations": regulations, "first_leader": 1,
              "deals": [{"end": "domino", "seat": 1, "values": {"2": 30}}]},
             {"format": "domino-protocol/1", "regulations": regulations, "first_leader": 2,
              "deals": [{"end": "fish", "seat": 2, "values": {"1": 12, "2": 7}},
                        {"end": "domino", "seat": 2, "values": {"1": 20}}]}]
    done = run("-", stdin=json.dumps({"format": "domino-sitting/1", "games": games}))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["format"] == "domino-sitting/1"
    assert [(g["scores"], g["goats"], g["reason"]) for g in out["games"]] == [
        ({"1": 0, "2": 30}, ["2"], "lose_at"), ({"1": 32, "2": 7}, ["1"], "lose_at")]
    games[1]["deals"][1]["seat"] = 5
    done = run("-", stdin=json.dumps({"format": "domino-sitting/1", "games": games}))
    assert done.returncode == 1 and done.stderr.startswith("CommandError: game 2: "), done.stderr
    done = run("-", stdin=json.dumps({"format": "domino-sitting/1", "games": games[0]}))
    assert done.returncode == 1 and "format and games (a list) only" in done.stderr
