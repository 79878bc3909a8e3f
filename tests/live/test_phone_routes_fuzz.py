"""The lean path of a phone's requests fuzzed against Django's: requests of every shape a phone (or
anyone) could send to a live table's read, move, draw and seat (bodies of any JSON or none or
bytes, any content type, seat tokens right and wrong, languages, Accept headers, tables that do not
exist) each go both ways on the same state, and the answers must be equal, status, headers and
body (tests/live/test_phone_routes.py's ``same``). Derandomized: the same cases every run."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import LiveTable
from test_phone_routes import both, same, url  # noqa: F401  (both: the fixture)

pytestmark = pytest.mark.fuzz

KEYS = ["turn", "tile", "end", "pass", "second", "seat", "pin", "hands", "x"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 400), st.sampled_from(["3-5", "6-6", "0-0", "left",
                    "right", "2580", "", "9-9", "абв", "\u0000"]), st.text(max_size=12))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3), max_leaves=8)
TILES = st.sampled_from(["0-0", "1-2", "3-5", "5-3", "6-6", "4-4", "9-9", "x"])
# Bodies the serializers may take: moves for the turn awaited or another, seats with the PIN or not.
WELL_FORMED = st.one_of(
    st.fixed_dictionaries({"turn": st.integers(0, 6)}, optional={
        "tile": TILES, "end": st.sampled_from(["left", "right", None]), "pass": st.booleans(), "second": TILES}),
    st.fixed_dictionaries({"seat": st.integers(0, 5), "pin": st.sampled_from(["2580", "0000", "25801"])}),
).map(lambda d: json.dumps(d).encode())
BODIES = st.one_of(
    st.none(),
    WELL_FORMED, WELL_FORMED,
    st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=4).map(lambda d: json.dumps(d).encode()),
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40),
)
CONTENT_TYPES = st.sampled_from([b"application/json", b"application/json; charset=utf-8", b"text/plain", None,
                                 b"multipart/form-data; boundary=x", b"application/x-www-form-urlencoded",
                                 b"application/json; indent=2"])


@settings(max_examples=150, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(action=st.sampled_from(["", "move", "draw", "seat"]), body=BODIES, content_type=CONTENT_TYPES,
       token=st.sampled_from(["mover", "other", "forged", None]),
       language=st.sampled_from([None, b"en", b"ru", b"de", b"en-GB,en;q=0.5"]),
       accept=st.sampled_from([None, b"application/json", b"text/html", b"*/*", b"application/json; indent=4"]),
       missing=st.booleans())
def test_any_request_of_a_phone_is_answered_as_django_answers_it(both, action, body, content_type, token, language,
                                                                  accept, missing):
    table = LiveTable.objects.get(pk=both["p1"].pk)
    headers = []
    if token is not None:
        seat = table.seat if token == "mover" else next(s for s in (1, 2, 3, 4) if s != table.seat)
        headers.append((b"x-seat-token", both["tokens"][seat].encode() if token != "forged" else b"forged"))
    if content_type is not None:
        headers.append((b"content-type", content_type))
    if language is not None:
        headers.append((b"accept-language", language))
    if accept is not None:
        headers.append((b"accept", accept))
    method = "GET" if action == "" else "POST"
    path = url(both, action, pk=999999 if missing else None)
    status, _answer = same(both, method, path, headers, (body or b"") if method == "POST" else b"")
    assert status < 500
