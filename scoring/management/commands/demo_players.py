"""``manage.py demo_players``: simulated players at the demo tournaments' digital tables (sports
and Goat).

Started by ``make run`` beside the web server, the worker and the beat. Each simulated player
takes his seat the way a person does (the table's seat, his PIN), then plays a random legal move
(at a Goat table, with nothing that fits, he draws from the bazaar) after thinking 1 to 6 seconds; about one move in twelve he thinks too long, so that a visitor
sees the clock run out, the warning and then the penalty recorded by the server. Everything goes
through the same services as a phone's requests.
"""

from __future__ import annotations

import random
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.contrib.auth.models import AnonymousUser

from scoring import engine
from scoring.live import play
from scoring.management.commands.load_demo import DEMO_PIN, DEMO_SLUG, GOAT_SLUG
from scoring.models import LiveTable, Partition
from scoring.recording import clock, pipeline
from scoring.recording.storage import engine_partition, engine_sitting

#: One move in this many is deliberately too slow.
SLOW_ONE_IN = 12


def think_time(partition_id: int, turn: int, allowance: int, *, slow_one_in: int = SLOW_ONE_IN,
               pace: tuple[float, float] = (1.0, 6.0)) -> float:
    """How long the player to move thinks at ``turn``: the same answer every time it is asked.
    One move in ``slow_one_in`` overruns the allowance (and its grace); the others take ``pace``
    seconds, within the allowance (bench/live.py plays at another pace)."""
    rng = random.Random(partition_id * 1_000_003 + turn)
    if rng.randrange(slow_one_in) == 0:
        return allowance + 0.5 + rng.uniform(0.5, 3.0)
    return min(rng.uniform(*pace), allowance * 0.8)


class Command(BaseCommand):
    help = "Simulated players at the demo tournament's digital tables (make run starts them)."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Make the moves that are due, then stop.")

    def handle(self, *args, once: bool = False, **options):
        tokens: dict[tuple[int, int], str] = {}
        while True:
            close_old_connections()
            tables = list(LiveTable.objects.filter(
                partition__table__tour__tournament__slug__in=(DEMO_SLUG, GOAT_SLUG), mode=LiveTable.Mode.DIGITAL,
                partition__status__in=[Partition.Status.SCHEDULED, Partition.Status.PLAYING]))
            for table in tables:
                self.seat(table, tokens)
                self.move(table, tokens)
            if once:
                return
            time.sleep(0.3)

    def seat(self, table: LiveTable, tokens: dict[tuple[int, int], str]) -> None:
        """Take the seats this process holds no token for (after a restart, the referee releases
        them first, as he would for a lost phone)."""
        partition = Partition.objects.select_related("table__referee").get(pk=table.pk)
        referee = partition.table.referee
        for seat in range(1, len(partition.table.players) + 1):
            if (table.pk, seat) in tokens:
                continue
            if partition.seat_holders.filter(seat=seat).exclude(token_hash="").exists() and referee is not None:
                play.release_seat(referee, table.pk, seat)
            tokens[(table.pk, seat)] = play.claim_seat(table.pk, seat, DEMO_PIN)

    def move(self, table: LiveTable, tokens: dict[tuple[int, int], str]) -> None:
        table.refresh_from_db()
        if table.seat is None or table.paused_at is not None or table.turn_started_at is None:
            return
        waited = (clock.now() - table.turn_started_at).total_seconds() - table.turn_paused
        if waited < think_time(table.pk, table.turn, table.allowance or 20):
            return
        options = self.options(Partition.objects.select_related("table__tour__tournament").get(pk=table.pk))
        if options is None:
            return
        moves, must_draw = options
        rng = random.Random(table.pk * 7919 + table.turn)
        actor = play.Actor(AnonymousUser(), tokens[(table.pk, table.seat)])
        try:
            if must_draw:
                play.draw(actor, table.pk, table.turn)  # his turn goes on: the next round plays or draws again
            elif not moves:
                play.move(actor, table.pk, table.turn, pass_turn=True)
            else:
                tile, end = rng.choice(moves)
                play.move(actor, table.pk, table.turn, tile=tile, end=end)
        except pipeline.StaleTurn:
            pass  # a timeout or the other process moved first: the next round sees the new turn

    @staticmethod
    def options(partition: Partition) -> tuple[list[tuple[str, str | None]], bool] | None:
        """The legal moves (tile, end) of the player to move, and whether he must draw from the
        bazaar instead (a Goat table); None with no deal in play."""
        return OPTIONS.of(partition.table.tour.tournament.kind)(partition)


def _goat_options(partition: Partition) -> tuple[list[tuple[str, str | None]], bool] | None:
    goat_deal = engine_sitting(partition).current
    if goat_deal is None:
        return None
    legal = [(str(m.tile), str(m.end) if m.end else None) for m in goat_deal.legal_moves()]
    return legal, not legal and goat_deal.can_draw()


def _partition_options(partition: Partition) -> tuple[list[tuple[str, str | None]], bool] | None:
    deal = engine_partition(partition).current
    if deal is None:
        return None
    return [(str(m.tile), str(m.end) if m.end else None) for m in deal.legal_moves()], False


#: The options of a player to move at a live table of each family (a points game is never live).
OPTIONS = engine.Parts({engine.Family.PARTITION: _partition_options, engine.Family.TILES: _goat_options,
                        engine.Family.POINTS: None})
