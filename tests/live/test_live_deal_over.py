"""The referee's clock while the referee enters a deal's result (issue 19, item 6): "deal over"
stops the move clock, nothing is charged during the entry, the result is taken while paused, and
the next lead's clock starts when play resumes. The clock is in the test's hand (no sleeping)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from livetools import live_tour
from scoring.live import play
from scoring.models import ClockLapse, LiveTable, Partition
from scoring.recording import pipeline
from scoring.recording.storage import engine_partition

pytestmark = pytest.mark.django_db


def live(world) -> LiveTable:
    return LiveTable.objects.get(pk=world["p1"].pk)


@pytest.fixture
def clocked(db, frozen):
    """Table 1 on the referee's clock, its partition started: seat 2 leads deal 1."""
    world = live_tour("clock")
    play.start_tour(world["chief"], world["tour"])
    play.start_partition(world["ref"], world["p1"].pk, 2)
    return world


def test_deal_over_stops_the_move_clock_and_nothing_is_charged_while_the_result_is_typed(clocked, frozen):
    pk, ref = clocked["p1"].pk, clocked["ref"]
    frozen.advance(4)
    play.tap(ref, pk, live(clocked).turn)
    frozen.advance(7)
    play.deal_over(ref, pk, live(clocked).turn)  # seat 3's move ended the deal, 7 s after his turn began
    table = live(clocked)
    assert (table.seat, table.deadline, table.deal_over, table.deal) == (None, None, True, 1)
    entry = Partition.objects.get(pk=pk).changes.get(action="deal_over")
    assert {k: entry.data[k] for k in ("seat", "move", "seconds")} == {"seat": 3, "move": 1, "seconds": 6.5}
    frozen.advance(300)  # the referee takes five minutes over the count: no move clock runs
    pipeline.sweep()
    assert not ClockLapse.objects.exists() and not engine_partition(Partition.objects.get(pk=pk)).violations
    with pytest.raises(ValidationError):
        play.tap(ref, pk, live(clocked).turn)  # no move is awaited
    play.clock_deal_result(ref, pk, "domino", 3, {"A": 0, "B": 31})
    table = live(clocked)
    assert (table.seat, table.deal, table.move, table.deal_over) == (3, 2, 0, False)  # deal 2's lead clock
    assert table.deadline == frozen.now + datetime.timedelta(seconds=20.5)


def test_the_result_is_entered_while_paused_and_the_next_lead_clock_starts_at_the_resume(clocked, frozen):
    pk, ref = clocked["p1"].pk, clocked["ref"]
    frozen.advance(5)
    play.pause(ref, pk, "dispute")  # a dispute about the count, the lead's clock running
    frozen.advance(2)
    play.deal_over(ref, pk, live(clocked).turn)
    entry = Partition.objects.get(pk=pk).changes.get(action="deal_over")
    assert entry.data["seconds"] == 4.5  # charged up to the pause, less the grace
    frozen.advance(60)
    play.clock_deal_result(ref, pk, "domino", 2, {"A": 0, "B": 20})
    table = live(clocked)
    assert table.seat is not None and table.deal == 2 and table.deadline is None  # paused: no deadline yet
    frozen.advance(100)
    play.resume(ref, pk)
    assert live(clocked).deadline == frozen.now + datetime.timedelta(seconds=20.5)  # a whole allowance


def test_a_result_entered_while_paused_without_deal_over(clocked, frozen):
    pk, ref = clocked["p1"].pk, clocked["ref"]
    play.pause(ref, pk, "call")
    play.clock_deal_result(ref, pk, "fish", None, {"A": 10, "B": 20})
    assert len(engine_partition(Partition.objects.get(pk=pk)).deals) == 1 and live(clocked).deal == 2
    with pytest.raises(ValidationError):
        play.tap(ref, pk, live(clocked).turn)  # a move is not tapped while paused


def test_the_time_running_out_while_the_result_is_typed_makes_that_deal_the_last(clocked, frozen):
    pk, ref = clocked["p1"].pk, clocked["ref"]
    play.deal_over(ref, pk, live(clocked).turn)
    frozen.to(live(clocked).time_deadline)
    pipeline.sweep()
    assert engine_partition(Partition.objects.get(pk=pk)).time_expired == ("during_deal", 1)
    play.clock_deal_result(ref, pk, "domino", 2, {"A": 0, "B": 20})
    partition = Partition.objects.get(pk=pk)
    assert partition.is_finished and not live(clocked).deal_over


def test_the_tablet_shows_the_result_form_only_once_the_clock_is_stopped(clocked, frozen):
    ref = clocked["ref"]
    client = Client()
    client.force_login(ref)
    url = "/tournaments/cup/tours/1/tables/1/referee/"
    page = client.get(url).content.decode()
    assert "Кон окончен: остановить часы" in page and 'value="result"' not in page
    response = client.post(url, {"action": "deal_over", "turn": live(clocked).turn}, HTTP_X_REQUESTED_WITH="fetch")
    page = response.content.decode()
    assert response.status_code == 200 and live(clocked).deal_over
    assert "Часы остановлены" in page and 'value="result"' in page and "Ход сделан" not in page
    assert "Кон 1 окончен: судья вводит итог." in Client().get("/tournaments/cup/tours/1/tables/1/live/").content.decode()
    client.post(url, {"action": "pause", "reason": "dispute"})
    page = client.get(url).content.decode()
    assert 'value="result"' in page and "итог можно ввести сейчас" in page  # pause no longer hides it


def test_the_api_ends_the_deal(clocked, frozen):
    client = Client()
    client.force_login(clocked["ref"])
    pk = clocked["p1"].pk
    response = client.post(f"/api/partitions/{pk}/live/deal-over/", {"turn": live(clocked).turn},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["live"]["deal_over"] is True and live(clocked).seat is None
