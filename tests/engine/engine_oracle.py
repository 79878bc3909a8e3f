"""A slow, independent reference for the rules of one deal (RULES.md sections 2, 4 and 6).

It shares no code with ``scoring.engine``: tiles are plain ``(low, high)`` tuples, hands are
sets, the line is a list of ``(left_half, right_half)`` pairs. The tests use it as the oracle
for legal moves, domino, fish and the move-time allowance, and to check hand-built deals.
"""

from __future__ import annotations

ALL_TILES = [(a, b) for a in range(7) for b in range(a, 7)]
DEFAULT_TIMES = (5, 20, 60, 5)  # single, several, fish, pass (RULES 6)


def norm(tile):
    """``(low, high)`` of a tile written ``"a-b"``, ``(a, b)`` or an engine ``Tile``."""
    if isinstance(tile, str):
        a, b = (int(x) for x in tile.split("-"))
    elif isinstance(tile, tuple):
        a, b = tile
    else:  # an engine Tile: only its two public halves are read
        a, b = tile.low, tile.high
    return (min(a, b), max(a, b))


def pips(tiles):
    return sum(a + b for a, b in tiles)


def pair_of(seat):
    return "A" if seat in (1, 3) else "B"


class RefDeal:
    """One deal played by the book. ``hands``: four lists of tiles for seats 1..4."""

    def __init__(self, hands, leader):
        self.hands = [set(norm(t) for t in hand) for hand in hands]
        assert all(len(h) == 7 for h in self.hands), "7 tiles each"
        assert set().union(*self.hands) == set(ALL_TILES), "all 28 tiles, each once"
        self.leader = leader
        self.seat = leader  # seat to move, 1..4
        self.line = []  # (left_half, right_half) from the left end to the right end
        self.table = set()
        self.end = None  # "domino" | "fish"
        self.last_seat = None

    @property
    def ends(self):
        if not self.line:
            return None
        return self.line[0][0], self.line[-1][1]

    def hand(self, seat=None):
        return self.hands[(seat or self.seat) - 1]

    def legal(self):
        """Legal moves of the seat to move as a set of (tile, end); the lead has end None.
        On equal ends a tile is one move, written on the left."""
        hand = self.hand()
        if self.end is not None:
            return set()
        if not self.line:
            return {(t, None) for t in hand}
        left, right = self.ends
        moves = set()
        for t in hand:
            if left in t:
                moves.add((t, "left"))
            if right in t and left != right:
                moves.add((t, "right"))
        return moves

    def _after(self, tile, end):
        """(new ends, table after) of placing ``tile`` on ``end`` (no check)."""
        a, b = tile
        table = self.table | {tile}
        if not self.line:
            return (a, b), table
        left, right = self.ends
        if end == "left":
            return ((b if a == left else a), right), table
        return (left, (b if a == right else a)), table

    def result_of(self, tile, end):
        """How placing ``tile`` on ``end`` ends the deal: "domino", "fish" or None."""
        (left, right), table = self._after(tile, end)
        if len(self.hand()) == 1:
            return "domino"
        if left == right and sum(1 for t in table if left in t) == 7:
            return "fish"
        return None

    def allowance(self, times=DEFAULT_TIMES):
        single, several, fish, pass_ = times
        if not self.line:
            return several
        moves = self.legal()
        if not moves:
            return pass_
        if any(self.result_of(t, e) == "fish" for t, e in moves):
            return fish
        return single if len(moves) == 1 else several

    def play(self, tile, end=None):
        """Place a tile. ``end`` may be None for the lead (``"a-b"`` lays a on the left), when
        the tile fits one end only, or when both ends are equal."""
        assert self.end is None, "the deal is over"
        raw = tile
        tile = norm(tile)
        assert tile in self.hand(), f"{tile} not in the hand of seat {self.seat}"
        if not self.line:
            if isinstance(raw, str):
                a, b = (int(x) for x in raw.split("-"))
            else:
                a, b = tile[1], tile[0]
            self.line = [(a, b)]
        else:
            left, right = self.ends
            if end is None:
                fits = [e for e, v in (("left", left), ("right", right)) if v in tile]
                assert fits, f"{tile} does not fit {left}|{right}"
                assert len(fits) == 1 or left == right, "say which end"
                end = fits[0]
            value = left if end == "left" else right
            assert value in tile, f"{tile} does not fit the {end} end {value}"
            other = tile[1] if tile[0] == value else tile[0]
            if end == "left":
                self.line.insert(0, (other, value))
            else:
                self.line.append((value, other))
        self.hand().discard(tile)
        self.table.add(tile)
        self.last_seat = self.seat
        left, right = self.ends
        if not self.hand():
            self.end = "domino"
        elif left == right and sum(1 for t in self.table if left in t) == 7:
            self.end = "fish"
        else:
            self.seat = self.seat % 4 + 1

    def pass_turn(self):
        assert self.end is None
        assert not self.legal(), f"seat {self.seat} holds a playable tile"
        self.seat = self.seat % 4 + 1

    def any_seat_can_move(self):
        """Whether any of the four seats holds a tile that fits an open end."""
        left, right = self.ends
        return any(left in t or right in t for h in self.hands for t in h)

    def pair_pips(self):
        return pips(self.hands[0] | self.hands[2]), pips(self.hands[1] | self.hands[3])

    def apply(self, move):
        """A protocol move ``{"seat", "tile", "end"?}`` or ``{"seat", "pass": true}``; returns the
        allowance the player had for it."""
        assert move["seat"] == self.seat, f"seat {move['seat']} out of turn"
        allowance = self.allowance()
        if move.get("pass"):
            self.pass_turn()
        else:
            self.play(move["tile"], move.get("end"))
        return allowance
