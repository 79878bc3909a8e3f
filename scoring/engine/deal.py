"""One deal (кон): four hands, the line of play with its two open ends, moves, domino and fish.

A :class:`Deal` is played by calling :meth:`Deal.play` and :meth:`Deal.pass_turn` for the seat
to move; both check the rules (RULES 4) and raise :class:`~scoring.engine.errors.IllegalMove`
with the reason. The deal ends by itself at domino (a player places his last tile) or fish
(both ends show a number whose 7 tiles are all on the table, detected as the fishing tile is
placed), or when the referee ends it for a false pass (:meth:`Deal.end_false_pass`).

Seats (:data:`~.vocabulary.Seat`) are numbered 1 to 4 in the direction of play; seats 1 and 3
are pair A, 2 and 4 pair B. The state is kept in the numbers of :mod:`.tiles` (tile indices, tile
masks, ends as the numbers they show, a move as ``tile << 2 | side``), so the legal-move generator
and :meth:`Deal.place` never touch a string or an enum; the words (:class:`~.vocabulary.Side`,
:class:`~.vocabulary.DealEnd`, :class:`~.vocabulary.Mark`) appear only at the edges.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from typing import Any, Final, Iterable, Mapping, NamedTuple, Sequence, TypeGuard

from .errors import CONCEALED_PASS, HandError, IllegalMove, RulesError, gettext_noop
from .tiles import (ALL_TILES, HIGH, LOW, OTHER, SUIT, TILES, Number, Tile, TileIndex, TileMask, indices_of,
                    parse_tile, pips_of, tile_index)
from .vocabulary import DealEnd, Mark, Pair, Seat, Side

__all__ = ["Deal", "DealOutcome", "Move", "SEATS", "deal_hands", "shuffled", "fit", "fishes", "line_of", "check_hands",
           "new_seed", "next_seat", "is_seat", "pair_of", "partner_of", "seats_of", "check_seconds", "LEFT", "RIGHT"]

LEFT: Final = Side.LEFT
RIGHT: Final = Side.RIGHT
#: The side a move is placed on: 0 left, 1 right, -1 wherever it fits.
_SIDES: Final[dict[Side | None, int]] = {Side.LEFT: 0, Side.RIGHT: 1, None: -1}
_SIDE_NAMES: Final = (Side.LEFT, Side.RIGHT)
_SIDE_TEXTS: Final = (Side.LEFT.value, Side.RIGHT.value)  # in to_dict(), which holds JSON types only
_MARKS: Final = tuple(m.value for m in Mark)
#: The keys of a protocol move, one of which it has besides its seat (and a tile's end).
_MOVE_KINDS: Final = ("tile", "pass", *_MARKS)
_PASS: Final = -1
#: ``_TILE_AT[a * 7 + b]``: index of the tile a-b.
_TILE_AT: Final = tuple(tile_index(a, b) for a in range(7) for b in range(7))

#: The keys a protocol move may have besides its kind and seat.
_MOVE_EXTRAS: Final = ("end", "seconds", "false")

#: Default move allowances (time_single, time_several, time_fish, time_pass), RULES 6.
DEFAULT_TIMES: Final = (5, 20, 60, 5)


def is_seat(value: object) -> TypeGuard[Seat]:
    """Whether ``value`` is a seat, 1 to 4, as a whole number: not ``True`` (which Python takes
    for 1), ``2.0`` or ``"2"``."""
    return type(value) is int and 1 <= value <= 4


#: The seats of a table, in the direction of play.
SEATS: Final[tuple[Seat, ...]] = (1, 2, 3, 4)


def pair_of(seat: Seat) -> Pair:
    """``"A"`` for seats 1 and 3, ``"B"`` for seats 2 and 4."""
    return Pair.A if seat % 2 else Pair.B


def seats_of(pair: Pair | str) -> tuple[Seat, Seat]:
    """The seats of ``pair``: 1 and 3 for A, 2 and 4 for B (partners sit opposite, RULES 2)."""
    return (1, 3) if pair == Pair.A else (2, 4)


def partner_of(seat: Seat) -> Seat:
    """The seat opposite ``seat``: his partner's."""
    return (seat + 1) % 4 + 1


def next_seat(seat: Seat, players: int = 4) -> Seat:
    """The seat that plays after ``seat`` (at a table of ``players``: a Goat table seats 2 to 4)."""
    return seat % players + 1


def deal_hands(seed: int | str) -> tuple[TileMask, TileMask, TileMask, TileMask]:
    """Deal all 28 tiles, 7 to each seat, from ``seed``: the same seed always deals the same hands.

    Seat 1 gets the first 7 tiles of :func:`shuffled` ``(seed)``, seat 2 the next 7, and so on.
    """
    order = shuffled(seed)
    hands = [0, 0, 0, 0]
    for k in range(28):
        hands[k // 7] |= 1 << order[k]
    return hands[0], hands[1], hands[2], hands[3]


def shuffled(seed: int | str) -> list[TileIndex]:
    """The 28 tiles in the order ``seed`` shuffles them: the same seed, the same order.

    The SHA-256 of the seed's text (``str(seed)`` in UTF-8), read as a big-endian number in
    mixed radix, gives the 27 choices of a Fisher-Yates shuffle (position ``i`` from 27 down to
    1 swaps with ``j = x mod (i + 1)``, then ``x //= i + 1``) of the set in tile order (0-0,
    0-1, ..., 6-6). Plain, documented arithmetic: any program can replay a deal from its stored
    seed, and neighbouring seeds deal unrelated hands.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or seed == "":
        raise IllegalMove(gettext_noop("a deal's seed is a whole number or a text, got %(seed)s"), seed=repr(seed))
    x = int.from_bytes(hashlib.sha256(str(seed).encode()).digest(), "big")
    order = list(range(28))
    for i in range(27, 0, -1):
        x, j = divmod(x, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh random seed for :func:`deal_hands` (from ``rng`` when given, for repeatable runs)."""
    return (rng or _SYSTEM_RANDOM).getrandbits(128)


_SYSTEM_RANDOM = random.SystemRandom()


def check_seconds(seconds: object) -> float | None:
    """The seconds charged to a move (RULES 6), rounded to 0.1 s; ``None`` when not timed.

    A bool, a text, a negative or not finite number is refused: a clock measures none of them.
    """
    if seconds is None:
        return None
    if (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds)
            or seconds < 0):
        raise IllegalMove(gettext_noop("the seconds of a move are a number 0 or more, got %(seconds)s"),
                          seconds=repr(seconds))
    return round(float(seconds), 1)


class Move(NamedTuple):
    """A move: ``tile`` on ``end`` (``"left"``/``"right"``; ``None`` for the lead), or a pass;
    ``seconds`` charged to it by a live table's clock (``None`` when not timed)."""

    seat: Seat
    tile: Tile | None
    end: Side | None = None
    seconds: float | None = None

    @property
    def is_pass(self) -> bool:
        return self.tile is None

    def to_dict(self) -> dict[str, Any]:
        """The move as the protocol writes it."""
        data: dict[str, Any] = ({"seat": self.seat, "pass": True} if self.tile is None
                                else {"seat": self.seat, "tile": str(self.tile)})
        if self.end is not None:
            data["end"] = str(self.end)
        if self.seconds is not None:
            data["seconds"] = self.seconds
        return data


@dataclass(frozen=True)
class DealOutcome:
    """How a deal ended: ``end`` is ``"domino"``, ``"fish"`` or ``"false_pass"``; ``seat`` placed
    the last tile (or passed falsely); ``pips`` are left in the hands of pairs A and B."""

    end: DealEnd
    seat: Seat | None  # None only for fish recorded without the seat that placed the fishing tile
    pips: tuple[int, int]


def _tile_and_first(tile: Tile | TileIndex | str) -> tuple[TileIndex, Number]:
    """Tile index and the half written first (which the lead lays on the left)."""
    if type(tile) is int and 0 <= tile < 28:
        return tile, HIGH[tile]
    if isinstance(tile, Tile):
        return tile.index, tile.high
    if isinstance(tile, str):
        index = parse_tile(tile)
        return index, int(tile.split("-")[0])
    raise IllegalMove(gettext_noop("%(tile)s is not a tile"), tile=repr(tile))


def fit(index: TileIndex, left: Number, right: Number, side: int = -1) -> tuple[int, Number]:
    """Where tile ``index`` goes on a line with open ends ``left|right``: ``side`` (0 left, 1
    right, -1 wherever it fits) and the number it leaves open there. A tile that fits both ends
    must name one, unless both show the same number (then it goes on the left). Raises
    :class:`HandError` naming the ends when it does not fit."""
    new_left = OTHER[index * 7 + left]
    new_right = OTHER[index * 7 + right]
    if side < 0:
        if new_left >= 0 and new_right >= 0 and left != right:
            raise HandError(gettext_noop("%(tile)s fits both ends %(left)s|%(right)s: say which end"),
                            tile=TILES[index], left=left, right=right)
        side = 0 if new_left >= 0 else 1
    if (new_right if side else new_left) < 0:
        if new_left < 0 and new_right < 0:
            raise HandError(gettext_noop("%(tile)s does not fit ends %(left)s|%(right)s"), tile=TILES[index],
                            left=left, right=right)
        raise HandError(gettext_noop("%(tile)s does not fit the right end %(end)s of %(left)s|%(right)s") if side
                        else gettext_noop("%(tile)s does not fit the left end %(end)s of %(left)s|%(right)s"),
                        tile=TILES[index], end=(left, right)[side], left=left, right=right)
    return side, new_right if side else new_left


def fishes(legal: TileMask, hand: TileMask, left: Number, right: Number, count: Sequence[int]) -> bool:
    """Whether one of the ``legal`` tiles of ``hand`` makes fish on ends ``left|right`` with
    ``count[v]`` tiles of each number ``v`` on the table: the fishing tile is the last of its
    number, so it is the tile ``left-right`` itself, with 6 tiles of one of those numbers already
    on the table. A player's last tile makes domino, whatever the ends show."""
    return (bool(legal >> _TILE_AT[left * 7 + right] & 1) and (count[left] == 6 or count[right] == 6)
            and bool(hand & (hand - 1)))


def line_of(codes: Iterable[int]) -> list[tuple[Number, Number]]:
    """The tiles on the table from the left end to the right end, each as its halves in order,
    from the placements in the order made (``tile << 2 | side``: 0 left, 1 right, 2 a lead laid
    with its higher half on the left, 3 with its lower; passes, -1, are skipped)."""
    line: list[tuple[Number, Number]] = []
    left = right = -1
    for code in codes:
        if code < 0:
            continue
        tile, side = TILES[code >> 2], code & 3
        if side >= 2:
            first = tile.high if side == 2 else tile.low
            left, right = first, tile.other(first)
            line.append((left, right))
        elif side == 0:
            new = tile.other(left)
            line.insert(0, (new, left))
            left = new
        else:
            new = tile.other(right)
            line.append((right, new))
            right = new
    return line


def check_hands(masks: Sequence[TileMask]) -> None:
    """Refuse hands as dealt that do not hold 7 tiles each, or that share a tile."""
    seen = 0
    for seat, mask in enumerate(masks, 1):
        if not 0 <= mask <= ALL_TILES or mask.bit_count() != 7:
            raise IllegalMove(gettext_noop("must hold 7 tiles, holds %(count)s"), count=mask.bit_count()).at(
                gettext_noop("hand of seat %(seat)s"), seat=seat)
        twice = seen & mask
        if twice:
            raise IllegalMove(gettext_noop("%(tile)s is dealt twice"), tile=TILES[(twice & -twice).bit_length() - 1]).at(
                gettext_noop("hand of seat %(seat)s"), seat=seat)
        seen |= mask


class Deal:
    """The state of one deal, from the deal of the hands to domino or fish.

    >>> deal = Deal.from_seed(7, leader=1)
    >>> deal.to_move, deal.allowance()
    (1, 20)
    """

    __slots__ = ("hands", "leader", "seed", "turn", "left", "right", "count", "moves", "seconds", "marks",
                 "forced", "times", "last_seat", "outcome", "false_pass_seconds")

    def __init__(self, hands: Sequence[TileMask | Iterable[Tile | TileIndex | str]], leader: Seat,
                 times: Sequence[int] = DEFAULT_TIMES, seed: int | str | None = None) -> None:
        """``hands``: four hands for seats 1..4, as masks or tiles; all 28 tiles, 7 each."""
        if not is_seat(leader):
            raise IllegalMove(gettext_noop("the leader must be a seat 1 to 4, got %(leader)s"), leader=repr(leader))
        masks = [h if type(h) is int else self._hand_mask(seat, h)
                 for seat, h in enumerate(hands, 1)]
        self._check_hands(masks)
        self.hands: list[TileMask] = masks
        self.leader: Seat = leader
        self.seed = seed
        self.times = tuple(times)
        self.turn = leader - 1  # seat index 0..3 of the player to move
        self.left: Number = -1  # open ends; -1 before the lead
        self.right: Number = -1
        self.count = [0] * 7  # tiles on the table carrying each number
        self.moves: list[int] = []  # tile << 2 | side (0 left, 1 right, 2 lead high-left, 3 lead low-left), or -1
        self.seconds: list[float | None] = []  # charged to each move by a live table's clock (RULES 6)
        self.marks: list[tuple[int, Seat, TileIndex, Mark]] = []  # (len(moves), seat, tile, kind)
        self.forced: list[TileMask] = [0, 0, 0, 0]  # per seat: tiles that must be played at the first chance
        self.last_seat: Seat | None = None
        self.outcome: DealOutcome | None = None
        self.false_pass_seconds: float | None = None  # charged to the move awaited when a false pass ended it

    @classmethod
    def from_seed(cls, seed: int | str, leader: Seat, times: Sequence[int] = DEFAULT_TIMES) -> Deal:
        """A deal whose hands are dealt from ``seed`` (stored, so it can be replayed)."""
        return cls(deal_hands(seed), leader, times, seed=seed)

    @staticmethod
    def _hand_mask(seat: Seat, tiles: object) -> TileMask:
        """The mask of a hand given as a list of tiles (anything else is refused)."""
        if not isinstance(tiles, (list, tuple, set, frozenset)):
            raise IllegalMove(gettext_noop("a hand is a list of tiles, got %(hand)s"), hand=repr(tiles)).at(
                gettext_noop("hand of seat %(seat)s"), seat=seat)
        mask = 0
        for tile in tiles:
            try:
                index = _tile_and_first(tile)[0]
            except RulesError as error:
                raise error.at(gettext_noop("hand of seat %(seat)s"), seat=seat) from None
            if mask >> index & 1:
                raise IllegalMove(gettext_noop("%(tile)s is written twice"), tile=TILES[index]).at(
                    gettext_noop("hand of seat %(seat)s"), seat=seat)
            mask |= 1 << index
        return mask

    @staticmethod
    def _check_hands(masks: list[TileMask]) -> None:
        if len(masks) != 4:
            raise IllegalMove(gettext_noop("a deal has four hands, got %(count)s"), count=len(masks))
        check_hands(masks)

    # -- reading the state ---------------------------------------------------------------------

    @property
    def to_move(self) -> Seat:
        """The seat (1-4) whose turn it is."""
        return self.turn + 1

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def ends(self) -> tuple[Number, Number] | None:
        """The numbers on the left and right open ends; ``None`` before the lead."""
        return None if self.left < 0 else (self.left, self.right)

    def hand(self, seat: Seat) -> list[Tile]:
        return [TILES[i] for i in indices_of(self.hands[seat - 1])]

    def pair_pips(self) -> tuple[int, int]:
        """Pips left in the hands of pair A (seats 1, 3) and pair B (seats 2, 4)."""
        h = self.hands
        return pips_of(h[0] | h[2]), pips_of(h[1] | h[3])

    def line(self) -> list[tuple[Number, Number]]:
        """The tiles on the table from the left end to the right end, each as its halves in order."""
        return line_of(self.moves)

    def history(self) -> list[Move]:
        """Every move so far, passes included, with the seconds charged to it."""
        result: list[Move] = []
        for k, (code, seconds) in enumerate(zip(self.moves, self.seconds)):
            seat = (self.leader - 1 + k) % 4 + 1
            if code < 0:
                result.append(Move(seat, None, None, seconds))
            else:
                side = code & 3
                result.append(Move(seat, TILES[code >> 2], _SIDE_NAMES[side] if side < 2 else None, seconds))
        return result

    # -- the rules of a move -------------------------------------------------------------------

    def options(self) -> tuple[TileMask, TileMask, int]:
        """The legal moves and the move-time allowance of the player to move, in one pass.

        Returns ``(left, right, seconds)``: masks of the tiles he may put on the left end and on
        the right end, and his allowance (RULES 6). When both ends show the same number a tile
        there is one move, listed on the left only. Before the lead every tile may be led (left
        mask). A tile that must be played at the first chance (touched, or exposed after a wrong
        lead) is the only choice when it fits. The allowance is ``time_fish`` when some legal move
        makes fish, else ``time_single`` for
        exactly one move, ``time_several`` for more (always for a lead), ``time_pass`` for none.
        """
        turn = self.turn
        hand = self.hands[turn]
        forced = self.forced[turn]
        left = self.left
        if left < 0:
            return (forced & hand) or hand, 0, self.times[1]
        right = self.right
        ml = hand & SUIT[left]
        mr = 0 if left == right else hand & SUIT[right]
        if forced & (ml | mr):
            ml &= forced
            mr &= forced
        legal = ml | mr
        if not legal:
            return 0, 0, self.times[3]
        if self._fishes(legal):
            return ml, mr, self.times[2]
        return ml, mr, self.times[0] if ml.bit_count() + mr.bit_count() == 1 else self.times[1]

    def legal_masks(self) -> tuple[TileMask, TileMask]:
        """Tiles the player to move may put on the left end and on the right end (:meth:`options`)."""
        ml, mr, _ = self.options()
        return ml, mr

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: (tile, end) pairs, empty when he must pass."""
        ml, mr = self.legal_masks()
        seat = self.turn + 1
        if self.left < 0:
            return [Move(seat, TILES[i]) for i in indices_of(ml)]
        return ([Move(seat, TILES[i], LEFT) for i in indices_of(ml)]
                + [Move(seat, TILES[i], RIGHT) for i in indices_of(mr)])

    def can_fish(self) -> bool:
        """Whether some legal move of the player to move ends the deal with fish."""
        if self.left < 0:
            return False
        ml, mr, _ = self.options()
        return self._fishes(ml | mr)

    def _fishes(self, legal: TileMask) -> bool:
        """Whether one of the ``legal`` tiles makes fish (:func:`fishes`)."""
        return fishes(legal, self.hands[self.turn], self.left, self.right, self.count)

    def allowance(self) -> int:
        """Seconds the player to move has (RULES 6); see :meth:`options`."""
        return self.options()[2]

    # -- playing -------------------------------------------------------------------------------

    def _check_turn(self, seat: Seat | None) -> None:
        if self.outcome is not None:
            raise IllegalMove(gettext_noop("the deal is over (%(end)s)"), end=self.outcome.end)
        if seat is not None and not is_seat(seat):
            raise IllegalMove(gettext_noop("seat must be 1 to 4, got %(seat)s"), seat=repr(seat))
        if seat is not None and seat != self.turn + 1:
            raise IllegalMove(gettext_noop("seat %(seat)s moves out of turn: seat %(turn)s is to move"), seat=seat,
                              turn=self.turn + 1)

    def play(self, tile: Tile | TileIndex | str, end: Side | None = None, seat: Seat | None = None,
             seconds: float | None = None) -> None:
        """Place ``tile`` of the player to move on ``end``.

        ``end`` may be left out when the tile fits one end only or both ends show the same
        number. A lead written ``"a-b"`` lies with ``a`` on the left. ``seat``, when given, must be
        the seat to move. ``seconds``: the time a live table's clock charged to the move
        (:func:`check_seconds`); the partition derives its move-time violations from it.
        """
        if seat is not None:
            self._check_turn(seat)
        index, first = _tile_and_first(tile)
        side = _SIDES.get(end, -2)
        if side == -2:
            raise IllegalMove(gettext_noop("end must be \"left\" or \"right\", got %(end)s"), end=repr(end))
        self.place(index, side, first, seconds)

    def place(self, index: TileIndex, side: int = -1, first: Number = -1, seconds: float | None = None) -> None:
        """:meth:`play` by numbers: tile ``index`` on ``side`` (0 left, 1 right, -1 wherever it
        fits); ``first`` is the half a lead lays on the left (-1: the higher)."""
        if self.outcome is not None:
            raise IllegalMove(gettext_noop("the deal is over (%(end)s)"), end=self.outcome.end)
        if seconds is not None:
            seconds = check_seconds(seconds)
        turn = self.turn
        hand = self.hands[turn]
        if not hand >> index & 1:
            raise HandError(gettext_noop("%(tile)s is not in the hand of seat %(seat)s"), tile=TILES[index], seat=turn + 1)
        forced = self.forced[turn] & hand
        left = self.left
        if left < 0:
            if forced and not forced >> index & 1:
                raise HandError(gettext_noop("seat %(seat)s must lead %(tile)s: it was exposed"), seat=turn + 1,
                                tile=TILES[(forced & -forced).bit_length() - 1], sent=TILES[index])
            high = HIGH[index]
            if first < 0:
                first = high
            self.left = first
            self.right = OTHER[index * 7 + first]
            self.moves.append(index << 2 | (2 if first == high else 3))
        else:
            right = self.right
            side, opened = fit(index, left, right, side)
            if forced:
                forced &= SUIT[left] | SUIT[right]
                if forced and not forced >> index & 1:
                    raise HandError(gettext_noop("seat %(seat)s must play %(tile)s first: it was touched or exposed and"
                                                 " it fits"), seat=turn + 1,
                                    tile=TILES[(forced & -forced).bit_length() - 1], sent=TILES[index])
            if side:
                self.right = opened
            else:
                self.left = opened
            self.moves.append(index << 2 | side)
        self.seconds.append(seconds)
        count = self.count
        low, high = LOW[index], HIGH[index]
        count[low] += 1
        if low != high:
            count[high] += 1
        hand ^= 1 << index
        self.hands[turn] = hand
        self.forced[turn] &= hand
        self.last_seat = turn + 1
        if not hand:
            self.outcome = DealOutcome(DealEnd.DOMINO, turn + 1, self.pair_pips())
        elif self.left == self.right and count[self.left] == 7:
            self.outcome = DealOutcome(DealEnd.FISH, turn + 1, self.pair_pips())
        else:
            self.turn = (turn + 1) & 3

    def pass_turn(self, seat: Seat | None = None, seconds: float | None = None) -> None:
        """The player to move says "pass"; refused while he holds a playable tile. ``seconds``
        as for :meth:`play`."""
        self._check_turn(seat)
        seconds = check_seconds(seconds)
        ml, mr = self.legal_masks()
        playable = ml | mr
        if playable:
            shown = ", ".join(str(TILES[i]) for i in indices_of(playable))
            raise HandError(gettext_noop("seat %(seat)s passes holding a playable tile: %(tiles)s"), seat=self.turn + 1,
                            tiles=shown, concealed=CONCEALED_PASS)
        self.moves.append(_PASS)
        self.seconds.append(seconds)
        self.turn = (self.turn + 1) & 3

    def end_false_pass(self, seat: Seat, seconds: float | None = None) -> None:
        """The referee ends the deal: ``seat`` said pass earlier while holding a playable tile.

        The engine cannot see which earlier pass was false (a tile said to be in hand may have
        been hidden), so it takes the referee's word, as RULES 7 does. ``seconds``: the time the
        clock had charged to the move awaited when the referee stopped the deal.
        """
        self._check_turn(None)
        if not is_seat(seat):
            raise IllegalMove(gettext_noop("a false pass needs a seat 1 to 4, got %(seat)s"), seat=repr(seat))
        self.false_pass_seconds = check_seconds(seconds)
        self.outcome = DealOutcome(DealEnd.FALSE_PASS, seat, self.pair_pips())

    def mark(self, seat: Seat, tile: Tile | TileIndex | str, kind: Mark) -> bool:
        """Record that ``seat`` touched a tile (``"touched"``) or led out of turn and must show it
        (``"exposed"``): the tile must be played at the seat's first chance when it fits.

        Returns whether the tile fits now (a touched tile that does not fit is a
        ``touched_tile`` violation, which the partition records).
        """
        self._check_turn(None)
        if not is_seat(seat):
            raise IllegalMove(gettext_noop("seat must be 1 to 4, got %(seat)s"), seat=repr(seat))
        if kind not in _MARKS:
            raise IllegalMove(gettext_noop("unknown mark %(kind)s"), kind=repr(kind))
        kind = Mark(kind)
        index = _tile_and_first(tile)[0]
        if not self.hands[seat - 1] >> index & 1:
            raise IllegalMove(gettext_noop("%(tile)s is not in the hand of seat %(seat)s"), tile=TILES[index], seat=seat)
        self.marks.append((len(self.moves), seat, index, kind))
        left = self.left
        fits = left < 0 or bool((SUIT[left] | SUIT[self.right]) >> index & 1)
        if kind is Mark.EXPOSED or (fits and seat == self.turn + 1):
            self.forced[seat - 1] |= 1 << index
        return fits

    # -- storing and replaying -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state: hands as dealt, leader, seed and every move (protocol move form)."""
        hands = [h for h in self.hands]
        for code, seat in zip(self.moves, self._seats()):
            if code >= 0:
                hands[seat - 1] |= 1 << (code >> 2)
        moves: list[dict[str, Any]] = []
        marks = list(self.marks)
        for k, (code, seat, seconds) in enumerate(zip(self.moves, self._seats(), self.seconds)):
            while marks and marks[0][0] == k:
                _, mseat, index, kind = marks.pop(0)
                moves.append({"seat": mseat, kind.value: str(TILES[index])})
            move: dict[str, Any]
            if code < 0:
                move = {"seat": seat, "pass": True}
            else:
                tile, side = TILES[code >> 2], code & 3
                move = {"seat": seat, "tile": str(tile) if side != 3 else f"{tile.low}-{tile.high}"}
                if side < 2:
                    move["end"] = _SIDE_TEXTS[side]
            if seconds is not None:
                move["seconds"] = seconds
            moves.append(move)
        moves.extend({"seat": mseat, kind.value: str(TILES[index])} for _, mseat, index, kind in marks)
        data: dict[str, Any] = {
            "hands": {str(s): [str(t) for t in TILES if h >> t.index & 1] for s, h in enumerate(hands, 1)},
            "leader": self.leader,
            "moves": moves,
        }
        if self.seed is not None:
            data["seed"] = self.seed
        if self.outcome is not None and self.outcome.end == DealEnd.FALSE_PASS:
            data["false_pass"] = self.outcome.seat
            if self.false_pass_seconds is not None:
                data["false_pass_seconds"] = self.false_pass_seconds
        return data

    def _seats(self) -> Iterable[Seat]:
        return ((self.leader - 1 + k) % 4 + 1 for k in range(len(self.moves)))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], leader: Seat | None = None,
                  times: Sequence[int] = DEFAULT_TIMES) -> Deal:
        """Replay a deal from :meth:`to_dict` or a protocol move-form deal.

        ``leader`` is required when the data has none (the protocol's leader comes from the
        partition). Errors name the move: ``move 7: 4-2 does not fit ends 5|1``.
        """
        if not isinstance(data, Mapping):
            raise RulesError(gettext_noop("a deal must be an object"))
        hands = data.get("hands")
        if not isinstance(hands, Mapping) or sorted(hands) != ["1", "2", "3", "4"]:
            raise RulesError(gettext_noop("must give the hands of seats \"1\" to \"4\""), "hands")
        leader = data.get("leader", leader)
        if leader is None:
            raise RulesError(gettext_noop("the leader is missing"), "leader")
        if not all(isinstance(hands[s], list) for s in "1234"):
            raise RulesError(gettext_noop("each hand must be a list of tiles"), "hands")
        deal = cls([hands[s] for s in "1234"], leader, times, seed=data.get("seed"))
        moves = data.get("moves", [])
        if not isinstance(moves, list):
            raise RulesError(gettext_noop("must be a list"), "moves")
        for k, move in enumerate(moves, 1):
            try:
                deal.apply(move)
            except RulesError as error:
                raise error.at(gettext_noop("move %(n)s"), n=k) from None
        false_pass = data.get("false_pass")
        if false_pass is not None:
            deal.end_false_pass(false_pass, data.get("false_pass_seconds"))
        return deal

    def apply(self, move: Mapping[str, Any]) -> None:
        """Apply one protocol move: ``{"seat", "tile", "end"?, "seconds"?}``, ``{"seat", "pass": true,
        "false"?: true, "seconds"?}`` (a false pass ends the deal) or a mark ``{"seat",
        "touched"|"exposed": tile}``."""
        if not isinstance(move, Mapping) or "seat" not in move:
            raise IllegalMove(gettext_noop("a move must be an object with a seat 1 to 4"))
        seat = move["seat"]
        if not is_seat(seat):
            raise IllegalMove(gettext_noop("seat must be 1 to 4, got %(seat)s"), seat=repr(seat))
        kinds = [k for k in _MOVE_KINDS if k in move]
        unknown = set(move) - {"seat", *_MOVE_EXTRAS, *_MOVE_KINDS}
        if len(kinds) != 1 or unknown:
            raise IllegalMove(gettext_noop("a move has a seat and one of \"tile\" (with \"end\"), \"pass\""))
        kind = kinds[0]
        seconds = move.get("seconds")
        if kind in _MARKS and seconds is not None:
            raise IllegalMove(gettext_noop("a mark is no move: it has no seconds"))
        if "false" in move and (kind != "pass" or move["false"] is not True):
            raise IllegalMove(gettext_noop("\"false\": true goes with a pass: a false pass"))
        if self.outcome is not None:
            raise IllegalMove(gettext_noop("the deal is already over (%(end)s): no move after it"), end=self.outcome.end)
        if kind == "pass":
            if move["pass"] is not True:
                raise IllegalMove(gettext_noop("\"pass\" must be true"))
            if "false" in move:  # found at the table: the referee ends the deal (RULES 7)
                self._check_turn(seat)
                self.end_false_pass(seat, seconds)
            else:
                self.pass_turn(seat, seconds)
        elif kind == "tile":
            self.play(move["tile"], move.get("end"), seat, seconds)
        else:
            self.mark(seat, move[kind], Mark(kind))

    def snapshot(self) -> dict[str, Any]:
        """The whole state, JSON-ready, for :meth:`restore`: a stored deal restored without
        replaying its moves (:meth:`to_dict` keeps what a replay checks)."""
        outcome = self.outcome
        return {
            "hands": list(self.hands), "leader": self.leader, "seed": self.seed, "times": list(self.times),
            "turn": self.turn, "left": self.left, "right": self.right, "count": list(self.count),
            "moves": list(self.moves), "seconds": list(self.seconds),
            "marks": [[k, seat, index, str(kind)] for k, seat, index, kind in self.marks],
            "forced": list(self.forced), "last_seat": self.last_seat,
            "outcome": None if outcome is None else [str(outcome.end), outcome.seat, list(outcome.pips)],
            "false_pass_seconds": self.false_pass_seconds,
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Deal:
        """A deal from :meth:`snapshot`, trusted to be one: only its shape is checked (types and
        lengths), not the rules; replay :meth:`from_dict` for input from elsewhere."""
        def ints(value: object, length: int | None = None) -> list[int]:
            if not (isinstance(value, list) and all(type(x) is int for x in value)
                    and (length is None or len(value) == length)):
                raise RulesError(gettext_noop("a deal's snapshot is damaged"))
            return list(value)

        if not isinstance(data, Mapping):
            raise RulesError(gettext_noop("a deal's snapshot is damaged"))
        deal = object.__new__(cls)
        try:
            deal.hands = ints(data["hands"], 4)
            deal.times = tuple(ints(data["times"], 4))
            deal.count = ints(data["count"], 7)
            deal.moves = ints(data["moves"])
            deal.forced = ints(data["forced"], 4)
            deal.turn, deal.left, deal.right = ints([data["turn"], data["left"], data["right"]])
            deal.leader, deal.seed, deal.last_seat = data["leader"], data["seed"], data["last_seat"]
            deal.seconds = list(data["seconds"])
            deal.false_pass_seconds = data["false_pass_seconds"]
            deal.marks = [(k, seat, index, Mark(kind)) for k, seat, index, kind in data["marks"]]
            outcome = data["outcome"]
            deal.outcome = None if outcome is None else DealOutcome(DealEnd(outcome[0]), outcome[1],
                                                                    (outcome[2][0], outcome[2][1]))
        except (KeyError, TypeError, ValueError, IndexError):
            raise RulesError(gettext_noop("a deal's snapshot is damaged")) from None
        timed = deal.seconds + [deal.false_pass_seconds]
        if not (is_seat(deal.leader) and len(deal.seconds) == len(deal.moves) and 0 <= deal.turn < 4
                and all(x is None or type(x) is float for x in timed)):
            raise RulesError(gettext_noop("a deal's snapshot is damaged"))
        return deal

    def copy(self) -> Deal:
        other = object.__new__(Deal)
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other
