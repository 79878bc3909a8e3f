"""The site's one JSON reader (config/jsonreader.py): what the API and the score sheet's protocol
import read. Refused: nesting past JSON_MAX_DEPTH, a NUL character, numbers JSON or Python
cannot hold, text that is not UTF-8."""

import pytest

from tournaments.web.jsonreader import JsonError, read_json


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_a_document_is_read():
    text = '{"format": "domino-protocol/1", "pairs": {"A": ["Ёлкин-Д\'Артаньян", "Пётр"]}, "deals": [1.5, -2, null]}'
    assert read_json(text) == {"format": "domino-protocol/1", "pairs": {"A": ["Ёлкин-Д'Артаньян", "Пётр"]},
                               "deals": [1.5, -2, None]}
    assert read_json('\ufeff{"a": "ё"}'.encode()) == {"a": "ё"}  # bytes: UTF-8, a byte order mark allowed


def test_nesting_up_to_the_limit_and_not_one_level_more(settings):
    assert settings.JSON_MAX_DEPTH == 32
    value = read_json(nested(32))
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    assert depth == 31  # 32 lists, one inside the other
    with pytest.raises(JsonError, match="nested too deeply: at most 32 levels"):
        read_json(nested(33))
    with pytest.raises(JsonError, match="nested too deeply"):
        read_json('{"a": ' * 33 + "1" + "}" * 33)


def test_the_depth_is_a_setting(settings):
    settings.JSON_MAX_DEPTH = 2
    assert read_json('{"data": {"seat": 1}}') == {"data": {"seat": 1}}
    with pytest.raises(JsonError, match="at most 2 levels"):
        read_json('{"data": {"pips": {"A": 1}}}')


def test_nesting_deeper_than_python_recurses_is_refused_not_a_crash():
    with pytest.raises(JsonError, match="nested too deeply"):
        read_json("[" * 100_000)
    with pytest.raises(JsonError, match="nested too deeply"):
        read_json(nested(100_000))


@pytest.mark.parametrize("text", ['{"name": "Пётр\\u0000"}', '{"x\\u0000": 1}', '[["\\u0000"]]'])
def test_a_nul_character_anywhere_is_refused(text):
    with pytest.raises(JsonError, match=r"NUL character \(\\u0000\)"):
        read_json(text)


def test_an_escaped_backslash_before_u0000_is_no_nul():
    assert read_json('["\\\\u0000"]') == ["\\u0000"]


@pytest.mark.parametrize(("text", "message"), [
    ("[NaN]", "NaN is not a JSON number"),
    ('{"a": -Infinity}', "-Infinity is not a JSON number"),
    ("[1e400]", "The number 1e400 is out of range"),
    ("[" + "9" * 5000 + "]", "A number in the JSON is out of range"),
    ("{not json", r"not valid \(line 1, column 2\)"),
    ('{"a": 1}\n{"b": 2}', r"not valid \(line 2, column 1\)"),
    ("", r"not valid \(line 1, column 1\)"),
])
def test_what_is_not_json_says_why(text, message):
    with pytest.raises(JsonError, match=message):
        read_json(text)


def test_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(JsonError, match="not UTF-8"):
        read_json('{"a": "ё"}'.encode("cp1251"))
