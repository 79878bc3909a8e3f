"""The whole API fuzzed from its own OpenAPI schema (schemathesis), with the demo loaded.

Every operation as a visitor and with the demo organiser's token, the partition operations with
the demo referee's too, on values the schema allows and on values it does not: no answer is a
5xx (``not_a_server_error``), and every answer conforms to the schema (its status code, content
type, body and headers). The path parameters are the demo's own (its slug, tours, tables,
partitions, players, pairs, roles) most of the time, so the cases reach the services and the
rules engine rather than a 404; the partitions are sports tables and Goat ones (sittings).

Deterministic, so CI never flakes: derandomized with a fixed seed and no example database; each
case runs in a savepoint rolled back after it, so every case sees the same demo and none sees
another's writes. It runs on whichever database the suite runs on: NUL characters fail on
PostgreSQL only. Marked ``fuzz`` (``-m "not fuzz"`` leaves it out of a quick local run; CI runs
it) and among the slowest tests that pytest's ``--durations`` lists after every run.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig

from config.wsgi import application
from scoring.models import Partition
from tournaments.models import Entry, Pair, Player, Role, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

#: Cases generated per operation and per identity, beside the boundary cases from the schema.
MAX_EXAMPLES = 40
#: Checks of every answer; the others judge business rules (a well-formed request may well be
#: refused) or need state across requests.
CHECKS = ("not_a_server_error", "status_code_conformance", "content_type_conformance",
          "response_schema_conformance", "response_headers_conformance")
CONFIG = SchemathesisConfig.from_dict({
    "seed": 20261121,
    "suppress-health-check": ["all"],
    "generation": {"mode": "all", "max-examples": MAX_EXAMPLES, "deterministic": True, "database": "none",
                   "with-security-parameters": False},
    "phases": {"stateful": {"enabled": False}},
    "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
})
# The schema as the API serves it; no database needed.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=CONFIG)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo of `make run`, loaded once for the module in a transaction rolled back after it,
    with its identifiers and the tokens of its organiser and its referee."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo")
        tournament = Tournament.objects.get(slug="demo")
        partitions = Partition.objects.filter(table__tour__tournament=tournament)
        goat = Partition.objects.filter(table__tour__tournament__slug="goat")  # the demo's Goat event, same staff
        yield {
            "organiser": Token.objects.create(user=tournament.roles.get(kind=Role.Kind.ORGANISER).user).key,
            "referee": Token.objects.create(user=tournament.roles.get(kind=Role.Kind.REFEREE).user).key,
            "slug": [tournament.slug],
            "tour": [1, 2, 3, 4, 5],
            "table": [1, 2, 3, 8, 9],
            # Being played, not begun, finished; Goat tables (sittings) being played and finished.
            "partition": (_ids(partitions.filter(status=Partition.Status.PLAYING))
                          + _ids(partitions.filter(status=Partition.Status.SCHEDULED), 3)
                          + _ids(partitions.filter(status=Partition.Status.FINISHED), 3)
                          + _ids(goat.filter(status=Partition.Status.PLAYING), 3)
                          + _ids(goat.filter(status=Partition.Status.FINISHED), 2)),
            "player": _ids(Player.objects.all()),
            "pair": _ids(Pair.objects.filter(tournament=tournament, tour__isnull=True)),
            "entry": _ids(Entry.objects.filter(tournament=tournament)),
            "role": _ids(Role.objects.filter(tournament=tournament)),
        }
        transaction.set_rollback(True)


def _ids(queryset, limit: int = 6) -> list[int]:
    return list(queryset.order_by("pk").values_list("pk", flat=True)[:limit])


@pytest.fixture(scope="module", autouse=True)
def in_process_requests():
    """Requests run in the test's own database transaction, as under Django's test client: the
    connection is not closed when a request ends."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


#: What the path parameter ``id`` names, by the start of the path it is in.
ID_OF = {"/api/partitions/": "partition", "/api/players/": "player", "/api/tournaments/{slug}/pairs/": "pair",
         "/api/tournaments/{slug}/entries/": "entry", "/api/tournaments/{slug}/roles/": "role"}


def _path_parameters(case, demo) -> dict:
    """The generated path parameters with, nine times in ten, one of the demo's values in place
    of each (chosen from the generated value: deterministic); values of the wrong type stay."""
    kinds = {"slug": "slug", "number": "table" if "/tables/{number}/" in case.path else "tour",
             "tour_number": "tour", "id": next((k for p, k in ID_OF.items() if case.path.startswith(p)), None)}
    chosen = {}
    for name, value in (case.path_parameters or {}).items():
        values = demo.get(kinds.get(name) or "")
        key = len(value) if isinstance(value, str) else value
        if values and type(key) is int and key % 10:
            value = values[key % len(values)]
        chosen[name] = value
    return chosen


def check(case, demo, token: str | None = None) -> None:
    """Send the case (in a savepoint rolled back after it), then check the answer."""
    case.path_parameters = _path_parameters(case, demo)
    headers = {"Authorization": f"Token {demo[token]}"} if token else None
    with transaction.atomic():
        response = case.call(headers=headers)
        transaction.set_rollback(True)
    case.validate_response(response, headers=headers)


@schema.include(method="GET").parametrize()
def test_every_read_as_a_visitor(case, demo):
    check(case, demo)


@schema.include(path="/api/auth/token/").parametrize()
def test_the_token_endpoint(case, demo):
    check(case, demo)


@schema.exclude(path="/api/auth/token/").parametrize()
def test_every_operation_as_the_organiser(case, demo):
    check(case, demo, "organiser")


@schema.include(path_regex="^/api/partitions/").parametrize()
def test_recording_as_the_referee(case, demo):
    check(case, demo, "referee")
