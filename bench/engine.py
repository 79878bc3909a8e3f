"""Rules-engine throughput on one core: random complete partitions and legal-move generations.

Run by hand: ``.venv/bin/python bench/engine.py [--seconds 5]``. Every move of every simulated
partition goes through the engine's own rules (legal masks, the move-time allowance of RULES 6,
placement with domino and fish detection), exactly as :mod:`scoring.engine.simulate` plays them.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import Deal, Partition, Regulations  # noqa: E402
from scoring.engine.simulate import play_random_move, play_random_partition  # noqa: E402


def partitions_per_second(seconds: float) -> tuple[float, float, float]:
    """Partitions to 200 per second, deals per partition, moves (passes included) per deal."""
    regulations = Regulations()
    count = deals = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        partition = play_random_partition(regulations, seed=count)
        count += 1
        deals += len(partition.deals)
        moves += sum(len(d.deal.moves) for d in partition.deals if d.deal is not None)
    elapsed = time.perf_counter() - start
    return count / elapsed, deals / count, moves / deals


def generations_per_second(seconds: float) -> float:
    """Legal-move generations (with the allowance) per second over positions of random play."""
    rng = random.Random(1)
    positions: list[Deal] = []
    while len(positions) < 2000:
        deal = Deal.from_seed(rng.getrandbits(32), leader=1)
        for _ in range(rng.randint(0, 20)):
            if deal.is_over:
                break
            play_random_move(deal, rng)
        if not deal.is_over:
            positions.append(deal)
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for deal in positions:
            deal.legal_moves()
            deal.allowance()
        count += len(positions)
    return count / (time.perf_counter() - start)


def restore_milliseconds(seconds: float) -> tuple[float, float]:
    """Milliseconds of ``Partition.from_dict`` for a 12-deal partition played move by move with
    every move timed (as a live table stores it): replayed, and trusted (from the snapshot)."""
    partition = play_random_partition(Regulations.from_dict({"format": "fixed_deals", "deals": 12}), timed=True)
    data = json.loads(json.dumps(partition.to_dict()))
    result = []
    for trusted in (False, True):
        count = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            Partition.from_dict(data, trusted=trusted)
            count += 1
        result.append((time.perf_counter() - start) / count * 1000)
    return result[0], result[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    rate, deals, moves = partitions_per_second(args.seconds)
    print(f"complete partitions to 200: {rate:,.0f}/s ({deals:.1f} deals per partition,"
          f" {moves:.1f} moves per deal, allowance computed for every move)")
    print(f"legal-move generations with allowance: {generations_per_second(args.seconds):,.0f}/s")
    replayed, trusted = restore_milliseconds(args.seconds)
    print(f"restoring a timed 12-deal partition: {replayed:.1f} ms replayed, {trusted:.1f} ms trusted")


if __name__ == "__main__":
    main()
