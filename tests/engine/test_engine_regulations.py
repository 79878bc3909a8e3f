"""Regulations (регламент): RULES.md's defaults, validation, storage."""

import json

import pytest

from scoring.engine import Regulations, RegulationsError

#: Every setting RULES.md names, with the default it gives (sections 3 to 8).
RULES_DEFAULTS = {
    "direction": "counter_clockwise",  # 3
    "next_lead": "rotation",  # 3
    "deal_points": "all_hands",  # 4.2
    "fish_tie": "nobody",  # 4.3
    "target": 200,  # 5
    "partition_minutes": 40,  # 5
    "format": "target",  # 5
    "deals": 8,  # 5
    "no_show_minutes": 5,  # 5
    "time_single": 5,  # 6
    "time_several": 20,  # 6
    "time_fish": 60,  # 6
    "time_pass": 5,  # 6
    "repeat_scope": "player_partition",  # 6
    "penalty_points": 25,  # 7
    "penalty_mode": "award_opponents",  # 7
    "false_pass_award": "none",  # 7
    "penalties_to_forfeit": None,  # 7: "default none"
    "win_points": 1,  # 8
}


def test_defaults_are_those_of_the_rules():
    r = Regulations()
    for key, value in RULES_DEFAULTS.items():
        assert getattr(r, key) == value, key
    assert r.no_show_award == 200  # no_show_points defaults to the target
    assert r.allowances() == (5, 20, 60, 5)
    assert list(r.standings) == ["tournament_points", "points_difference", "points_for", "buchholz", "head_to_head"]
    assert r.bye_award == 1  # bye_points defaults to win_points


def test_from_dict_of_nothing_is_the_defaults():
    assert Regulations.from_dict(None) == Regulations()
    assert Regulations.from_dict({}) == Regulations()


def test_missing_keys_take_their_defaults():
    r = Regulations.from_dict({"target": 150, "fish_tie": "carry"})
    assert r.target == 150 and r.fish_tie == "carry"
    assert r.penalty_points == 25 and r.deal_points == "all_hands"


def test_no_show_award_defaults_to_the_target():
    assert Regulations.from_dict({"target": 150}).no_show_award == 150
    assert Regulations.from_dict({"target": 150, "no_show_points": 90}).no_show_award == 90
    assert Regulations.from_dict({"no_show_points": 0}).no_show_award == 0


def test_a_bye_is_worth_a_win_unless_the_regulations_say_otherwise():
    assert Regulations.from_dict({"win_points": 3}).bye_award == 3
    assert Regulations.from_dict({"win_points": 3, "bye_points": 1}).bye_award == 1
    assert Regulations.from_dict({"win_points": 3, "bye_points": 0}).bye_award == 0


def test_round_trip_through_dict_and_json():
    custom = {
        "format": "fixed_deals", "deals": 12, "target": 300, "partition_minutes": 30,
        "no_show_minutes": 10, "no_show_points": 150, "direction": "clockwise", "next_lead": "winner",
        "deal_points": "opponents_only", "fish_tie": "carry", "time_single": 7, "time_several": 25,
        "time_fish": 90, "time_pass": 3, "repeat_scope": "player_tournament", "penalty_points": 30,
        "penalty_mode": "deduct_offenders", "false_pass_award": "opponents_score",
        "penalties_to_forfeit": 3, "win_points": 2, "bye_points": 100,
        "standings": ["points_for", "wins"],
    }
    r = Regulations.from_dict(custom)
    data = r.to_dict()
    for key, value in custom.items():
        assert data[key] == value, key
    assert Regulations.from_dict(data) == r
    assert Regulations.from_dict(json.loads(json.dumps(data))) == r
    assert Regulations.from_dict(Regulations().to_dict()) == Regulations()
    assert r.allowances() == (7, 25, 90, 3)


def test_regulations_are_immutable():
    r = Regulations()
    with pytest.raises(Exception):
        r.target = 100  # type: ignore[misc]
    assert r.target == 200


def refused(data, key):
    with pytest.raises(RegulationsError) as info:
        Regulations.from_dict(data)
    assert f"regulations.{key}" in str(info.value), str(info.value)
    assert info.value.where == f"regulations.{key}"
    return info.value


@pytest.mark.parametrize("key,value", [
    ("target", -200), ("target", 0), ("target", "200"), ("target", 200.0), ("target", None),
    ("partition_minutes", 0), ("partition_minutes", 29), ("partition_minutes", 51),
    ("partition_minutes", -40), ("partition_minutes", 40.5),
    ("deals", 0), ("deals", 6), ("deals", 10), ("deals", -8), ("deals", "8"),
    ("penalty_points", -25), ("penalty_points", 0),
    ("time_single", 0), ("time_several", -1), ("time_fish", "60"), ("time_pass", None),
    ("no_show_points", -1), ("no_show_minutes", 0), ("penalties_to_forfeit", 0),
    ("win_points", 0), ("bye_points", -1),
])
def test_impossible_numbers_are_refused(key, value):
    refused({key: value}, key)


@pytest.mark.parametrize("key", ["target", "deals", "partition_minutes", "penalty_points", "time_single",
                                 "time_several", "time_fish", "time_pass", "no_show_points",
                                 "penalties_to_forfeit", "win_points"])
def test_bools_are_not_numbers(key):
    refused({key: True}, key)


@pytest.mark.parametrize("key", ["format", "direction", "next_lead", "deal_points", "fish_tie",
                                 "repeat_scope", "penalty_mode", "false_pass_award"])
@pytest.mark.parametrize("value", ["", "nonsense", "TARGET", None, True, 1])
def test_unknown_mode_strings_are_refused(key, value):
    refused({key: value}, key)


@pytest.mark.parametrize("value", [4, 8, 12, 400])
def test_deals_multiples_of_four_are_accepted(value):
    assert Regulations.from_dict({"format": "fixed_deals", "deals": value}).deals == value


@pytest.mark.parametrize("value", [30, 40, 50])
def test_partition_minutes_bounds_are_inclusive(value):
    assert Regulations.from_dict({"partition_minutes": value}).partition_minutes == value


def test_deals_must_be_a_multiple_of_four_and_the_message_says_so():
    error = refused({"format": "fixed_deals", "deals": 10}, "deals")
    assert "multiple of 4" in str(error)


def test_unknown_key_is_refused_naming_the_key():
    with pytest.raises(RegulationsError) as info:
        Regulations.from_dict({"target": 200, "targte": 150})
    assert "regulations" in str(info.value)
    assert "targte" in str(info.value)


def test_regulations_must_be_an_object():
    with pytest.raises(RegulationsError) as info:
        Regulations.from_dict(["target", 200])  # type: ignore[arg-type]
    assert "regulations" in str(info.value)


@pytest.mark.parametrize("standings", [["wins", "luck"], ["elo"]])
def test_unknown_standings_metric_is_refused(standings):
    error = refused({"standings": standings}, "standings")
    assert repr(standings[-1]) in str(error)


@pytest.mark.parametrize("standings", [["wins", "wins"], ["points_for", "wins", "points_for"], [],
                                       "wins", [1, 2]])
def test_standings_duplicates_empty_and_wrong_types_are_refused(standings):
    refused({"standings": standings}, "standings")


def test_standings_order_is_kept():
    r = Regulations.from_dict({"standings": ["points_for", "wins"]})
    assert r.standings == ("points_for", "wins")
    assert r.to_dict()["standings"] == ["points_for", "wins"]


def test_optional_settings_accept_none():
    r = Regulations.from_dict({"no_show_points": None, "penalties_to_forfeit": None})
    assert r.no_show_points is None and r.penalties_to_forfeit is None


def test_the_error_is_a_value_error_with_the_place_first():
    error = refused({"target": -1}, "target")
    assert isinstance(error, ValueError)
    assert str(error).startswith("regulations.target: ")
