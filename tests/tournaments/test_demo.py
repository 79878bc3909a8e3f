"""The demo data of `make run`."""

import pytest
from django.core.management import call_command

from scoring.models import Partition
from tournaments.models import Pair, Table, Tour, Tournament

pytestmark = pytest.mark.django_db


def snapshot():
    return (Tournament.objects.count(), Pair.objects.count(), Tour.objects.count(), Table.objects.count(),
            Partition.objects.count())


def test_demo_tournament_is_swiss_with_16_pairs_and_a_published_tour():
    call_command("load_demo")
    demo = Tournament.objects.get(slug="demo")
    assert demo.format == Tournament.Format.SWISS
    assert demo.pairs.filter(tour__isnull=True).count() == 16
    tour = demo.tours.get(number=1)
    assert tour.status == Tour.Status.PUBLISHED
    assert tour.tables.count() == 8
    assert not tour.tables.filter(referee__isnull=True).exists()


def test_loading_the_demo_twice_changes_nothing():
    call_command("load_demo")
    before = snapshot()
    call_command("load_demo")
    assert snapshot() == before
