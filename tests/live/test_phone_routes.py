"""The lean path of a phone's requests (scoring.web.phones) answers exactly as Django's handler and
the DRF viewset do: each request of a corpus (reads, seats, moves, draws; every kind of refusal;
the languages; the content negotiation) is sent through both ASGI applications, each on the same
database state (a savepoint rolled back after it), and the status, the headers and the body must be
equal. What the lean path does not answer (a session, a login, a bad Host, a refused body) must
reach Django's handler with its body whole. A real server then plays a table over HTTP with
several requests at once."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading

import pytest
from asgiref.sync import async_to_sync
from django.core.signals import request_finished, request_started
from django.core.asgi import get_asgi_application
from django.db import close_old_connections, transaction

from config.asgi import django_application
from livetools import asgi_server, live_tour, seated
from scoring.models import LiveTable, SeatHolder
from scoring.web.phones import PhoneRoutes
from tournaments.web.uploads import BoundedBodies


class Spy:
    """Django's handler, counting the requests it is given."""

    def __init__(self, app) -> None:
        self.app, self.calls = app, 0

    def __getattr__(self, name):
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send):
        self.calls += 1
        return await self.app(scope, receive, send)


def call(app, method: str, path: str, headers: list[tuple[bytes, bytes]] | None = None, body: bytes = b""):
    """One request through ``app``, from this thread (its synchronous parts run here, in the test's
    transaction): (status, headers, body)."""
    sent: list[dict] = []
    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "", "query_string": query.encode(),
             "server": ("testserver", 80), "client": ("203.0.113.9", 40000),
             "headers": [(b"host", b"testserver"), *(headers or [])]}
    if body:
        scope["headers"].append((b"content-length", str(len(body)).encode()))
    delivered = False

    async def receive():
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        sent.append(message)

    async_to_sync(app)(scope, receive, send)
    start = sent[0]
    # django-csp joins the policy's directives in the order of a set: the same policy, in any order.
    headers = sorted((name, b"; ".join(sorted(value.split(b"; "))) if name == b"Content-Security-Policy" else value)
                     for name, value in start["headers"])
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


@pytest.fixture
def both(digital):
    """The lean path (in the test's thread) and Django's alone, each behind BoundedBodies as in
    config/asgi.py; request_started and request_finished leave the test's connection open."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    spy = Spy(django_application)
    yield {"lean": BoundedBodies(PhoneRoutes(spy, thread_sensitive=True)), "django": BoundedBodies(django_application),
           "spy": spy, **digital}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def same(both, method, path, headers=None, body=b"", *, lean: bool = True):
    """Send the request both ways on the same state; assert equal answers, and that the lean path
    answered it itself (``lean``) or gave it to Django. The answer's status and JSON body."""
    before = both["spy"].calls
    with transaction.atomic():
        answer = call(both["lean"], method, path, headers, body)
        transaction.set_rollback(True)
    assert both["spy"].calls - before == (0 if lean else 1), (method, path, headers)
    with transaction.atomic():
        expected = call(both["django"], method, path, headers, body)
        transaction.set_rollback(True)
    if b'"token"' in answer[2]:  # a new seat's token is random: compare its shape
        answer, expected = (_token_masked(a) for a in (answer, expected))
    assert answer[0] == expected[0], (method, path, headers, body)
    assert dict(answer[1]) == dict(expected[1]), (method, path, headers, body)
    assert answer[2] == expected[2], (method, path, headers, body)
    status, _, content = answer
    return status, json.loads(content) if content else None


def _token_masked(answer):
    status, headers, content = answer
    data = json.loads(content)
    assert len(data["token"]) >= 40
    data["token"] = "…"
    return status, [h for h in headers if h[0] != b"content-length"], json.dumps(data).encode()


JSON = [(b"content-type", b"application/json")]


def url(world, action: str = "", pk: int | None = None) -> str:
    return f"/api/partitions/{pk or world['p1'].pk}/live/" + (f"{action}/" if action else "")


def to_move(world) -> tuple[int, int, dict]:
    table = LiveTable.objects.get(pk=world["p1"].pk)
    return table.seat, table.turn, table


def token(world, seat: int) -> list[tuple[bytes, bytes]]:
    return [(b"x-seat-token", world["tokens"][seat].encode())]


def test_a_phones_reads_are_answered_as_django_answers_them(both):
    seat, turn, _ = to_move(both)
    status, state = same(both, "GET", url(both), token(both, seat))
    assert status == 200 and state["live"]["turn"] == turn and state["current"]["legal"]  # his hand and moves
    assert same(both, "GET", url(both))[0] == 200  # a spectator
    assert same(both, "GET", url(both), [(b"x-seat-token", b"forged")])[0] == 200
    assert same(both, "GET", url(both), [(b"accept-language", b"en")])[0] == 200
    assert same(both, "GET", url(both), [(b"cookie", b"django_language=en")])[0] == 200
    status, error = same(both, "GET", url(both, pk=999999), [(b"accept-language", b"en")])
    assert (status, error) == (404, {"detail": "There is no live table 999999."})
    assert same(both, "GET", url(both), [(b"accept", b"text/html")])[0] == 406
    assert same(both, "GET", url(both), [(b"accept", b"application/json; indent=4")])[0] == 200
    # DRF's format override in the query: a renderer the API has not is a 404; others are ignored.
    assert same(both, "GET", url(both) + "?format=api")[0] == 404
    assert same(both, "GET", url(both) + "?format=json&after=3")[0] == 200


def test_a_phones_move_and_its_refusals_are_answered_as_django_answers_them(both):
    seat, turn, _ = to_move(both)
    mine = token(both, seat)
    legal = same(both, "GET", url(both), mine)[1]["current"]["legal"][0]
    move = {"turn": turn, "tile": legal["tile"], **({"end": legal["end"]} if "end" in legal else {})}
    body = json.dumps(move).encode()

    status, state = same(both, "POST", url(both, "move"), JSON + mine, body)
    assert status == 200 and state["live"]["turn"] == turn + 1
    other = token(both, next(s for s in (1, 2, 3, 4) if s != seat))
    assert same(both, "POST", url(both, "move"), JSON + other, body)[0] == 401  # not his turn
    assert same(both, "POST", url(both, "move"), JSON, body)[0] == 401  # no token
    stale = json.dumps({**move, "turn": turn + 5}).encode()
    status, error = same(both, "POST", url(both, "move"), JSON + mine + [(b"accept-language", b"en")], stale)
    assert status == 409 and error["turn"] == turn
    for bad in (b"{bad", b'{"turn": 1, "tile": "1-1", "pass": true}', b'{"turn": -1}', b'{"turn": 1, "x": 1}',
                b'[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
                b'{"turn": "\\u0000"}'):
        assert same(both, "POST", url(both, "move"), JSON + mine, bad)[0] == 400, bad
    assert same(both, "POST", url(both, "move"), mine)[0] == 400  # no body: turn is required
    assert same(both, "POST", url(both, "move"), [(b"content-type", b"text/plain")] + mine, body)[0] == 415
    assert same(both, "POST", url(both, "move", pk=999999), JSON + mine, body)[0] == 404
    # A sports table has no bazaar.
    assert same(both, "POST", url(both, "draw"), JSON + mine, json.dumps({"turn": turn}).encode())[0] == 400


def test_a_seat_claim_and_its_refusals_are_answered_as_django_answers_them(both):
    SeatHolder.objects.filter(partition_id=both["p1"].pk, seat=2).delete()  # seat 2 free again
    assert same(both, "POST", url(both, "seat"), JSON, b'{"seat": 2, "pin": "2580"}')[0] == 200
    assert same(both, "POST", url(both, "seat"), JSON + [(b"x-device-id", b"d" * 80)],
                b'{"seat": 2, "pin": "0000"}')[0] == 400
    assert same(both, "POST", url(both, "seat"), JSON, b'{"seat": 5, "pin": "2580"}')[0] == 400
    assert same(both, "POST", url(both, "seat", pk=999999), JSON, b'{"seat": 2, "pin": "2580"}')[0] == 404


def test_a_bad_host_and_a_plain_http_request_are_refused_by_the_same_middleware(both, settings):
    assert same(both, "GET", url(both), [(b"host", b"evil.example")])[0] == 400
    settings.SECURE_SSL_REDIRECT = True  # read when the middleware is made: both applications made again
    django = get_asgi_application()
    spy = Spy(django)
    again = {**both, "lean": BoundedBodies(PhoneRoutes(spy, thread_sensitive=True)), "django": BoundedBodies(django),
             "spy": spy}
    status, _ = same(again, "GET", url(both))
    assert status == 301


def test_what_the_lean_path_does_not_answer_reaches_django_whole(both, settings):
    seat, turn, _ = to_move(both)
    body = json.dumps({"turn": turn, "pass": True}).encode()
    # Signed in: a session or a login (Django's session, its authentication, CSRF).
    assert same(both, "POST", url(both, "move"), JSON + [(b"cookie", b"sessionid=abc; django_language=en")], body,
                lean=False)[0] in (401, 403)
    assert same(both, "POST", url(both, "move"), JSON + [(b"authorization", b"Token nonsense")], body,
                lean=False)[0] == 401
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100  # BoundedBodies refuses the body: Django answers 413
    status, error = same(both, "POST", url(both, "move"), JSON, b'{"turn": 1, "pad": "' + b"x" * 200 + b'"}',
                         lean=False)
    assert status == 413
    # Another action, another method: Django's, as before.
    assert same(both, "POST", url(both, "pause"), JSON, b'{"reason": "dispute"}', lean=False)[0] == 401
    assert same(both, "PUT", url(both, "move"), JSON, body, lean=False)[0] == 405
    assert same(both, "GET", url(both, "move"), lean=False)[0] == 405


def test_a_middleware_nobody_placed_stops_the_lean_path_at_start(settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.some.NewMiddleware"]
    with pytest.raises(Exception, match="NewMiddleware"):
        PhoneRoutes(django_application)


@pytest.mark.django_db(transaction=True)
def test_a_real_server_answers_a_tables_phones_at_once(database_url_for_processes, tmp_path):
    """Through gunicorn and the project's worker, the lean path's pool of threads: the four phones
    read at once, then the table is played move by move with the others reading meanwhile; every
    move is stored once and each answer is the table after it."""
    world = live_tour("digital")
    world["tokens"] = seated(world)

    def request(method, path, seat=None, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", number, timeout=30)
        headers = {"Content-Type": "application/json"}
        if seat is not None:
            headers["X-Seat-Token"] = world["tokens"][seat]
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        answer = connection.getresponse()
        data = json.loads(answer.read())
        connection.close()
        return answer.status, data

    with asgi_server(database_url_for_processes, tmp_path) as number:
        path = url(world)
        moves = 0
        while moves < 12:
            views: dict[int, tuple] = {}
            readers = [threading.Thread(target=lambda s=s: views.__setitem__(s, request("GET", path, s)))
                       for s in (1, 2, 3, 4)]
            for reader in readers:
                reader.start()
            for reader in readers:
                reader.join()
            assert all(status == 200 for status, _ in views.values()), views
            live = views[1][1]["live"]
            if live["seat"] is None:
                break
            mover = live["seat"]
            legal = (views[mover][1]["current"]["legal"] or [{}])[0]  # none: he passes
            status, state = request("POST", path + "move/", mover, {
                "turn": live["turn"], **({"tile": legal["tile"]} if "tile" in legal else {"pass": True}),
                **({"end": legal["end"]} if legal.get("end") else {})})
            assert status == 200, state
            assert state["live"]["turn"] == live["turn"] + 1
            moves += 1
        assert moves >= 4
        table = LiveTable.objects.get(pk=world["p1"].pk)
        assert table.turn == live["turn"] + 1
        assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_a_server_error_is_answered_and_logged_as_django_does(both, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug nobody foresaw")

    monkeypatch.setattr("scoring.live.play.move", broken)
    seat, turn, _ = to_move(both)
    body = json.dumps({"turn": turn, "pass": True}).encode()
    status, error = same(both, "POST", url(both, "move"), JSON + token(both, seat) + [(b"accept-language", b"en")],
                         body)
    assert (status, error) == (500, {"detail": "A server error occurred."})
    # Each way: the traceback, then the answer (ApiMiddleware's JSON in place of the 500 page) as
    # Django's handler logs every error answer.
    errors = [r for r in caplog.records if r.name == "django.request" and r.levelname == "ERROR"]
    tracebacks = [r for r in errors if r.exc_info]
    assert len(errors) == 4 and len(tracebacks) == 2
    assert all("a bug nobody foresaw" in str(r.exc_info[1]) for r in tracebacks)


def test_a_phone_gone_before_its_body_arrived_gets_nothing_and_nothing_is_done(both):
    seat, turn, _ = to_move(both)
    sent: list[dict] = []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": url(both, "move"), "raw_path": url(both, "move").encode(), "root_path": "",
             "query_string": b"", "server": ("testserver", 80), "client": ("203.0.113.9", 40000),
             "headers": [(b"host", b"testserver"), *JSON, *token(both, seat), (b"content-length", b"40")]}

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    async_to_sync(both["lean"])(scope, receive, send)
    assert sent == [] and both["spy"].calls == 0
    assert to_move(both)[1] == turn
