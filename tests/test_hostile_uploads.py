"""Hostile request bodies and slow requests: a body is read up to its page's limit and no further,
chunked or not, and a request that trickles in is cut off (README, Configuration, "Limits"); what
people type holds no control character, and a CSV's bad header is named briefly.

The ASGI application is called directly, with a client (``receive``) that counts what is taken
from it; the headers' deadline, which belongs to the web server, is tried on the real server.
Every test is bounded: the slowest waits a few seconds for a 1-second deadline.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from builders import tournament, user
from config.asgi import application
from tournaments import services
from tournaments.models import Player, Tournament
from tournaments.web.uploads import MULTIPART_ALLOWANCE, REFUSED, TOO_LARGE, BoundedBodies
from tournaments import imports

BASE_DIR = Path(__file__).resolve().parent.parent
CHUNK = 1000
WAIT = 10  # seconds: the most any call below may take


class Client:
    """An ASGI client sending a body in chunks (``chunks`` of them, or without end), counting the
    ones the application took, and keeping what it answered."""

    def __init__(self, chunks: int | None = None, stall_after: int | None = None):
        self.chunks, self.stall_after = chunks, stall_after
        self.taken = 0
        self.sent: list[dict] = []

    async def receive(self) -> dict:
        await asyncio.sleep(0)  # a real client's chunks take turns with the rest of the loop
        if self.taken == self.stall_after:
            await asyncio.sleep(WAIT * 2)  # a client that stopped sending
        if self.chunks is not None and self.taken >= self.chunks:
            await asyncio.sleep(WAIT * 2)  # the body is all sent: no disconnect before the answer
        self.taken += 1
        return {"type": "http.request", "body": b"x" * CHUNK,
                "more_body": self.chunks is None or self.taken < self.chunks}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])

    @property
    def body(self) -> str:
        return b"".join(m.get("body", b"") for m in self.sent[1:]).decode()


def call(app, client: Client, path: str, *, method: str = "POST", headers: list | None = None) -> Client:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "server": ("testserver", 80), "client": ("127.0.0.1", 40000),
             "headers": [(b"host", b"testserver"), (b"accept-language", b"en"), *(headers or [])]}
    asyncio.run(asyncio.wait_for(app(scope, client.receive, client.send), WAIT))
    return client


def test_a_chunked_body_past_its_limit_is_refused_as_it_arrives(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * CHUNK
    client = call(application, Client(), "/api/auth/token/",  # no Content-Length: chunked, endless
                  headers=[(b"content-type", b"application/json"), (b"transfer-encoding", b"chunked")])
    assert client.status == 413 and client.headers[b"connection"] == b"close"
    assert json.loads(client.body) == {"detail": "The request is too large: at most 9.8\xa0KB."}
    assert client.taken == 11  # the limit's ten chunks, and the one that passed it


def test_a_pages_chunked_upload_is_bounded_by_the_pages_limit(settings):
    settings.UPLOAD_MAX_SIZE = 10 * CHUNK
    client = call(application, Client(), "/en/verify/",
                  headers=[(b"content-type", b"multipart/form-data; boundary=B")])
    assert client.status == 413 and client.headers[b"connection"] == b"close"
    assert "The file is too large: at most 9.8\xa0KB." in client.body
    assert client.taken == 11 + MULTIPART_ALLOWANCE // CHUNK  # the file's limit and the form's allowance


def test_a_content_length_past_the_limit_is_refused_before_a_byte_is_read():
    client = call(application, Client(), "/api/auth/token/",
                  headers=[(b"content-type", b"application/json"), (b"content-length", b"%d" % 100_000_000)])
    assert client.status == 413 and client.headers[b"connection"] == b"close"
    assert json.loads(client.body)["detail"] == "The request is too large: at most 2.5\xa0MB."
    assert client.taken == 0


def test_a_body_that_stops_arriving_is_answered_408_at_the_deadline(settings):
    settings.REQUEST_READ_TIMEOUT_SECONDS = 0.5
    started = time.monotonic()
    client = call(application, Client(stall_after=3), "/api/auth/token/",
                  headers=[(b"content-type", b"application/json"), (b"content-length", b"%d" % (10 * CHUNK))])
    assert client.status == 408 and client.headers[b"connection"] == b"close"
    assert json.loads(client.body) == {"detail": "The request did not arrive in time (0.5 s): send it again."}
    assert client.taken == 3 and time.monotonic() - started < WAIT


def test_a_body_within_its_limit_reaches_the_application_whole(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * CHUNK
    seen: dict = {}

    async def app(scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message["body"]
            if not message["more_body"]:
                break
        seen.update(body=body, refused=scope.get(REFUSED))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    client = call(BoundedBodies(app), Client(chunks=10), "/api/auth/token/")
    assert seen == {"body": b"x" * 10 * CHUNK, "refused": None}
    assert client.status == 200 and b"connection" not in client.headers  # the connection is kept
    seen.clear()
    client = call(BoundedBodies(app), Client(chunks=11), "/api/auth/token/")
    assert seen == {"body": b"x" * 10 * CHUNK, "refused": TOO_LARGE}  # the chunk past it is not passed on


# -- the real server: a request that trickles in -----------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The web server as config/run.sh starts it (one worker), with a deadline of 1 second."""
    var_dir = tmp_path_factory.mktemp("hostile") / "var"
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(VAR_DIR=str(var_dir), DATABASE_URL=f"sqlite:///{var_dir / 'db.sqlite3'}",
               REQUEST_READ_TIMEOUT_SECONDS="1")
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "config.asgi:application", "--worker-class",
         "config.server.Worker", "--workers", "1", "--bind", f"127.0.0.1:{port}"],
        cwd=BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "gunicorn exited"
            try:
                # A request answered: the worker is up (a bare connection is answered by the master).
                with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
                    s.sendall(b"GET /api/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    if s.recv(100):
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the web server is not answering in 60 s"
            time.sleep(0.2)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def trickle(port: int, head: bytes, byte_by_byte: bytes) -> tuple[bytes, float]:
    """Send ``head`` at once, then ``byte_by_byte`` a byte every 0.1 s until the server closes the
    connection; what it answered and when it closed (seconds after ``head``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
        s.sendall(head)
        started = time.monotonic()
        s.setblocking(False)
        answer = b""
        for byte in byte_by_byte:
            try:
                s.send(bytes([byte]))
            except OSError:
                break  # closed
            time.sleep(0.1)
            try:
                data = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                break
            if not data:
                break
            answer += data
        return answer, time.monotonic() - started


def test_a_connection_that_sends_nothing_is_closed_at_the_deadline(server):
    with socket.create_connection(("127.0.0.1", server), timeout=WAIT) as s:
        started = time.monotonic()
        assert s.recv(100) == b"" and time.monotonic() - started < 5


@pytest.mark.parametrize("head", [b"", b"GET /api/ HTTP/1.1\r\n"], ids=["request line", "headers"])
def test_a_request_that_trickles_in_is_cut_off_at_the_deadline(server, head):
    headers = b"GET /api/ HTTP/1.1\r\nX-Slow: " if not head else b"X-Slow: "
    answer, closed_after = trickle(server, head, headers + b"a" * 100)  # 10 s and more of headers
    assert answer == b"" and closed_after < 5


def test_a_body_that_trickles_in_is_answered_408_and_cut_off(server):
    head = (b"POST /api/auth/token/ HTTP/1.1\r\nHost: localhost\r\nAccept-Language: en\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
    answer, closed_after = trickle(server, head, b"a" * 100)
    assert answer.startswith(b"HTTP/1.1 408 ") and b"connection: close" in answer.lower()
    assert b"did not arrive in time (1 s)" in answer and closed_after < 5


def test_a_content_length_past_the_limit_is_answered_before_the_body_is_sent(server):
    with socket.create_connection(("127.0.0.1", server), timeout=WAIT) as s:
        s.sendall(b"POST /api/auth/token/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100000000\r\n\r\n" + b"{" * 1000)
        answer = s.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 ")


# -- what people type: control characters, and a CSV header of thousands of columns ----------------

CONTROL_MESSAGE = "The text contains a control character ({}), which cannot be stored: type it again without it."


@pytest.fixture
def organiser(db):
    return user("org", superuser=True)


def api(who) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(who)
    return client


@pytest.mark.parametrize("char", ["\x07", "\x1b", "\t", "\n", "\x7f", "\x85", "\x9b"])
def test_a_name_with_a_control_character_is_refused_and_nothing_is_stored(organiser, char):
    cup = tournament(organiser)
    code = f"U+{ord(char):04X}"
    with pytest.raises(ValidationError) as refused:
        services.update_tournament(organiser, cup, venue=f"Казань{char}[31m")
    assert refused.value.message_dict == {"venue": [CONTROL_MESSAGE.format(code)]}
    response = api(organiser).post(f"/api/tournaments/{cup.slug}/pairs/",
                                   {"first": {"last_name": "Иванов", "club": f"Ры{char}ба"},
                                    "second": {"last_name": "Петров"}}, format="json")
    assert response.status_code == 400 and CONTROL_MESSAGE.format(code) in json.dumps(response.json(), ensure_ascii=False)
    response = api(organiser).patch(f"/api/tournaments/{cup.slug}/", {"name": f"Куб{char}ок"}, format="json")
    assert response.status_code == 400 and response.json()["errors"]["name"] == [CONTROL_MESSAGE.format(code)]
    assert not Player.objects.exists() and Tournament.objects.get().name == "Кубок клуба"


def test_a_csv_line_with_a_control_character_is_refused_naming_its_line(organiser):
    cup = tournament(organiser)
    data = "last_name_1;last_name_2;federation_id_2\nИванов;Петров;RU-1\nСидоров;Козлов;RU\x1b[2J\n".encode()
    report = imports.import_pairs_csv(organiser, cup, data)
    assert report.created == 0 and report.errors == ((3, CONTROL_MESSAGE.format("U+001B")),)
    assert not Player.objects.exists()


def test_a_csv_header_of_fifty_thousand_unknown_columns_gets_a_short_answer(organiser):
    cup = tournament(organiser)
    header = ";".join(["last_name_1", "last_name_2", "x" * 1000] + [f"c{n}" for n in range(50_000)])
    response = api(organiser).generic("POST", f"/api/tournaments/{cup.slug}/pairs/import/",
                                      (header + "\nИванов;Петров\n").encode(), content_type="text/csv")
    assert response.status_code == 400
    assert response.json()["errors"]["lines"] == [
        {"line": 1, "message": f"unknown columns: {'x' * 39}…, c0, c1, c2, c3 and 49996 more"}]
    assert len(response.content) < 1000


def test_an_idle_connection_is_kept_for_a_phones_next_move(server):
    """A phone thinks a few seconds between two moves on one connection: the server keeps it
    (config.server.KEEP_ALIVE_SECONDS), where gunicorn's default closed it after 2 s and a move
    sent as it closed failed. Idle past a request's read deadline (1 s here) is not slow: it
    sends nothing."""
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=WAIT)
    statuses, sockets = [], []
    for pause in (0, 3.5):
        time.sleep(pause)
        connection.request("GET", "/api/")
        answer = connection.getresponse()  # RemoteDisconnected if the server closed it meanwhile
        answer.read()
        statuses.append(answer.status)
        sockets.append(connection.sock)
    connection.close()
    assert sockets[1] is sockets[0] and statuses[1] == statuses[0]
