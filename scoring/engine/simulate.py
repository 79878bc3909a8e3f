"""Random legal play: whole deals and partitions played by players who pick uniformly among
their legal moves. Used by property tests, the benchmark and the demo data; the rules come
from :class:`Deal` and :class:`Partition` (Goat: :class:`GoatDeal` and :class:`GoatGame`),
nothing is re-implemented here."""

from __future__ import annotations

import random

from .deal import Deal, new_seed
from .goat import GoatGame
from .goat_deal import GoatDeal
from .partition import Partition
from .regulations import Regulations

__all__ = ["play_random_move", "play_random_deal", "play_timed_deal", "play_random_partition", "play_random_goat_deal",
           "play_random_goat_game"]


def play_random_move(deal: Deal, rng: random.Random) -> int:
    """Make one random legal move (or pass) for the player to move; returns its allowance."""
    ml, mr, allowance = deal.options()
    n_left = ml.bit_count()
    n = n_left + mr.bit_count()
    if not n:
        deal.pass_turn()
        return allowance
    k = int(rng.random() * n)
    mask, side = (ml, 0) if k < n_left else (mr, 1)
    if side:
        k -= n_left
    for _ in range(k):
        mask &= mask - 1
    deal.place((mask & -mask).bit_length() - 1, side)
    return allowance


def play_random_deal(deal: Deal, rng: random.Random) -> list[int]:
    """Play ``deal`` to its end at random; returns the allowance of every move."""
    allowances = []
    while deal.outcome is None:
        allowances.append(play_random_move(deal, rng))
    return allowances


def play_timed_deal(partition: Partition, rng: random.Random, overrun: float = 1.3) -> None:
    """Play the partition's current deal to its end at random, move by move through the
    partition as a live table does, each move charged seconds drawn up to ``overrun`` times its
    allowance (so that some lapse: ``move_time`` violations)."""
    deal = partition.current
    while deal is not None and partition.current is deal:
        awaited = partition.awaited()
        assert awaited is not None  # a deal being played awaits a move
        seconds = round(rng.uniform(0, overrun * awaited.allowance), 1)
        moves = deal.legal_moves()
        if moves:
            tile, end = rng.choice([(m.tile, m.end) for m in moves if m.tile is not None])
            partition.play(tile, end, seconds=seconds)
        else:
            partition.pass_turn(seconds=seconds)


def play_random_partition(regulations: Regulations | None = None, seed: int = 0, timed: bool = False) -> Partition:
    """A whole partition played at random from ``seed``: the lead draw, then deals dealt from
    seeds drawn from the same generator, until the partition is decided; ``timed``: every move
    charged seconds (:func:`play_timed_deal`)."""
    rng = random.Random(seed)
    partition = Partition(regulations, first_leader=rng.randint(1, 4))
    while not partition.is_over:
        deal = partition.start_deal(seed=new_seed(rng))
        if timed:
            play_timed_deal(partition, rng)
        else:
            play_random_deal(deal, rng)
            partition._close_if_over()
    return partition


def play_random_goat_deal(deal: GoatDeal, rng: random.Random) -> None:
    """Play a Goat or Sea Goat deal to its end at random: a random legal move, else a draw from
    the bazaar while it may be drawn, else a pass."""
    while deal.outcome is None:
        moves = deal.legal_moves()
        if moves:
            move = rng.choice(moves)
            deal.play(move.tile, move.end, second=move.second)
        elif deal.can_draw():
            deal.draw()
        else:
            deal.pass_turn()


def play_random_goat_game(regulations: Regulations, seed: int = 0) -> GoatGame:
    """A whole game of Goat or Sea Goat played at random from ``seed``, deal by deal, each dealt
    from a seed drawn from the same generator (a void deal is recorded at once)."""
    rng = random.Random(seed)
    game = GoatGame(regulations)
    while not game.is_over:
        deal = game.start_deal(seed=new_seed(rng))
        if not deal.is_void:
            play_random_goat_deal(deal, rng)
            game.close_if_over()
    return game
