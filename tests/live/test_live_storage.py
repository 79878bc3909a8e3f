"""Storage of a partition played live: a move appends its own entry and rewrites the deal in play
only, so a whole 12-deal partition stays small, its audit trail included."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.contrib.auth.models import AnonymousUser

from livetools import live_tour, seated
from scoring.live import play
from scoring.models import ClockLapse, LiveTable, Partition, PartitionChange
from scoring.recording import pipeline
from scoring.recording.storage import engine_partition

pytestmark = pytest.mark.django_db

LIMIT = 300 * 1024


def stored_bytes(partition_id: int) -> int:
    """The bytes the partition's rows hold: on PostgreSQL as stored (pg_column_size, TOAST
    compression included), elsewhere the length of their text."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM scoring_partitionchange c "
                           "WHERE partition_id = %s", [partition_id])
            (changes,) = cursor.fetchone()
            cursor.execute("SELECT pg_column_size(p.*) FROM scoring_partition p WHERE id = %s", [partition_id])
            (row,) = cursor.fetchone()
        return changes + row
    total = 0
    for change in PartitionChange.objects.filter(partition_id=partition_id).values():
        total += len(json.dumps(change, default=str).encode())
    partition = Partition.objects.filter(pk=partition_id).values().get()
    return total + len(json.dumps(partition, default=str).encode())


def test_a_twelve_deal_partition_played_live_takes_at_most_300_kb(frozen):
    world = live_tour("digital", {"format": "fixed_deals", "deals": 12})
    tokens = seated(world)
    pk = world["p1"].pk
    rng = random.Random(12)
    moves = 0
    while Partition.objects.get(pk=pk).status != "finished":
        table = LiveTable.objects.get(pk=pk)
        slow = rng.randrange(20) == 0
        frozen.advance(table.allowance + 2 if slow else rng.uniform(1, 4))
        pipeline.sweep()
        table = LiveTable.objects.get(pk=pk)
        if table.seat is None:
            continue
        deal = engine_partition(Partition.objects.get(pk=pk)).current
        legal = deal.legal_moves()
        choice = rng.choice(legal) if legal else None
        play.move(play.Actor(AnonymousUser(), tokens[table.seat]), pk, table.turn,
                  tile=str(choice.tile) if choice else None, end=str(choice.end) if choice and choice.end else None,
                  pass_turn=choice is None)
        moves += 1
    game = engine_partition(Partition.objects.get(pk=pk))
    assert len(game.deals) >= 12 and moves > 200
    assert ClockLapse.objects.filter(partition_id=pk).exists()
    assert LiveTable.objects.get(pk=pk).deadline is None  # no clock runs once it is over
    size = stored_bytes(pk)
    print(f"\n{len(game.deals)} deals, {moves} moves, {PartitionChange.objects.filter(partition_id=pk).count()} "
          f"changes: {size / 1024:.0f} KiB")
    assert size <= LIMIT
