"""The live table's lock, compiled once (tournaments.prepared): the rows it gives are those the
queryset gives, every field converted (JSON, times) and every related row attached, in one
statement; it locks; it refuses a query it cannot replay."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import Value
from django.test.utils import CaptureQueriesContext

from scoring.models import LiveTable
from scoring.live import play
from scoring.recording import pipeline
from tournaments.models import Player
from tournaments.prepared import Prepared
from scoring.recording.state import with_players

RELATED = ("partition__table__tour__tournament", *(f"partition__table__seat{n}" for n in (1, 2, 3, 4)))


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_the_prepared_lock_gives_what_the_queryset_gives_in_one_statement(digital):
    pk = digital["p1"].pk
    with transaction.atomic():
        expected = LiveTable.objects.select_for_update(of=("self", "partition")).select_related(*RELATED).get(pk=pk)
        for _call in range(2):  # compiled on the first, replayed on the second
            with CaptureQueriesContext(connection) as queries:
                live = pipeline._LOCK.first(pk)
            assert len(queries) == 1
            assert ("FOR UPDATE" in queries[0]["sql"]) == connection.features.has_select_for_update
            assert live is not None and live.pk == pk
            assert _fields(live) == _fields(expected)
            assert _fields(live.partition) == _fields(expected.partition)
            assert isinstance(live.partition.state, dict) and live.partition.state  # JSON decoded
            table = live.partition.table
            assert _fields(table) == _fields(expected.partition.table)
            assert table.tour.tournament.kind == expected.partition.table.tour.tournament.kind
            with CaptureQueriesContext(connection) as queries:
                table.tour.tournament.slug  # attached: no query
                players = [str(getattr(table, f"seat{n}")) for n in (1, 2, 3, 4)]
            assert len(queries) == 0
            assert players == [str(getattr(expected.partition.table, f"seat{n}")) for n in (1, 2, 3, 4)]
        assert pipeline._LOCK.first(10**9) is None


def test_a_number_no_key_can_hold_finds_nothing(digital, client):
    """As the queryset: an id past the 64-bit range matches no row (SQLite cannot even take it: the
    API fuzzing found a 500 for such an id in a URL)."""
    with transaction.atomic():
        assert pipeline._LOCK.first(2**70) is None and pipeline._LOCK.first(-2**70) is None
    assert client.get(f"/api/partitions/{2**70}/live/").status_code == 404
    assert client.post(f"/api/partitions/{2**70}/live/seat/", {"seat": 1, "pin": "1234"},
                       content_type="application/json").status_code == 404


@pytest.mark.django_db
def test_a_prepared_query_takes_its_one_parameter_and_rows_only():
    with pytest.raises(ValueError, match="its parameters"):
        Prepared(lambda pk: Player.objects.filter(pk=pk, last_name="x")).first(1)
    with pytest.raises(ValueError, match="rows only"):
        Prepared(lambda pk: Player.objects.filter(pk=pk).annotate(n=Value(1))).first(1)


def test_the_players_of_a_table_by_their_seats(digital):
    table = digital["p1"].table
    seated = [getattr(table, f"seat{n}_id") for n in (1, 2, 3, 4)]
    with CaptureQueriesContext(connection) as queries:
        with_players(table)
    assert len(queries) == 1
    assert [getattr(table, f"seat{n}").pk for n in (1, 2, 3, 4)] == seated
    assert str(table.seat1) == str(Player.objects.get(pk=seated[0]))
    # Two parameters, in the order they are given, however often the statement uses them.
    between = Prepared(lambda low, high: Player.objects.filter(pk__gte=low, pk__lte=high).order_by("pk"), arity=2)
    low, high = min(seated), max(seated)
    expected = list(Player.objects.filter(pk__gte=low, pk__lte=high).order_by("pk").values_list("pk", flat=True))
    assert [p.pk for p in between.all(low, high)] == expected and len(expected) >= 4
    assert between.all(high, low) == []


def test_the_seats_a_token_holds_a_text_parameter(digital):
    pk = digital["p1"].pk
    for seat, token in digital["tokens"].items():
        with CaptureQueriesContext(connection) as queries:
            assert play.seats_held(pk, token) == [seat]
        assert len(queries) == 1
    assert play.seats_held(pk, "forged") == [] and play.seats_held(pk, "") == []
    assert play.seats_held(pk + 1, digital["tokens"][1]) == []  # its table only
    # A text column compared with a number's text is the parameter too; another text is refused.
    by_name = Prepared(lambda pk, name: Player.objects.filter(pk=pk, last_name=name), arity=2)
    player = Player.objects.get(pk=digital["p1"].table.seat1_id)
    assert by_name.first(player.pk, player.last_name) == player
    assert by_name.first(player.pk, player.last_name + "x") is None
