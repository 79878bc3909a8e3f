"""Tiles of the double-six set and the bit masks the engine computes with.

The 28 tiles are numbered 0..27 (0-0, 0-1, ..., 0-6, 1-1, ..., 6-6), a :data:`TileIndex`. A set of
tiles (a hand, the tiles on the table) is a :data:`TileMask`, an ``int`` with bit ``i`` for tile
``i``: membership, playable tiles and pip sums are a few integer operations, which is what makes
simulation fast. Both are plain ``int`` under a name, as python-chess's ``Square`` and
``Bitboard``: the hot paths compute with nothing else.

:class:`Tile` objects are interned: ``Tile(5, 1) is Tile(1, 5) is TILES[11]``.
"""

from __future__ import annotations

from typing import Final, Iterable, Iterator, TypeAlias

from .errors import IllegalMove, gettext_noop

__all__ = [
    "TileIndex",
    "TileMask",
    "Number",
    "Tile",
    "TILES",
    "ALL_TILES",
    "SUIT",
    "TOTAL_PIPS",
    "tile_index",
    "other_half",
    "mask_of",
    "tiles_of",
    "pips_of",
    "parse_tile",
]

TileIndex: TypeAlias = int
"""A tile's number, 0 to 27: 0-0, 0-1, ..., 0-6, 1-1, ..., 6-6 (:data:`TILES` in that order)."""

TileMask: TypeAlias = int
"""A set of tiles (a hand, the tiles on the table): bit ``i`` for tile ``i``."""

Number: TypeAlias = int
"""The number on one half of a tile, 0 to 6; -1 in the engine's tables means "none"."""

#: The numbers on a half, 0 to 6.
NUMBERS: Final = range(7)

_LOW: list[Number] = []
_HIGH: list[Number] = []
for _a in NUMBERS:
    for _b in range(_a, 7):
        _LOW.append(_a)
        _HIGH.append(_b)

_INDEX: dict[tuple[Number, Number], TileIndex] = {}
for _i, (_a, _b) in enumerate(zip(_LOW, _HIGH)):
    _INDEX[(_a, _b)] = _INDEX[(_b, _a)] = _i

#: Mask of every tile.
ALL_TILES: Final[TileMask] = (1 << 28) - 1
#: ``SUIT[v]``: mask of the 7 tiles that carry the number ``v``.
SUIT: Final[tuple[TileMask, ...]] = tuple(
    sum(1 << i for i in range(28) if v in (_LOW[i], _HIGH[i])) for v in NUMBERS
)
#: ``LOW[i]``, ``HIGH[i]``: the halves of tile ``i``.
LOW: Final[tuple[Number, ...]] = tuple(_LOW)
HIGH: Final[tuple[Number, ...]] = tuple(_HIGH)
#: ``PIPS[i]``: pips of tile ``i``.
PIPS: Final[tuple[int, ...]] = tuple(a + b for a, b in zip(_LOW, _HIGH))
#: ``OTHER[i * 7 + v]``: the half of tile ``i`` that stays open when it is put on a ``v`` end
#: (-1 when the tile carries no ``v``).
OTHER: Final[tuple[Number, ...]] = tuple(
    (_HIGH[i] if _LOW[i] == v else _LOW[i]) if v in (_LOW[i], _HIGH[i]) else -1
    for i in range(28)
    for v in NUMBERS
)
TOTAL_PIPS: Final[int] = sum(PIPS)  # 168


class Tile:
    """One domino tile, immutable and interned; ``low <= high``.

    >>> Tile(5, 1)
    Tile(1, 5)
    >>> str(Tile.parse("1-5")), Tile(6, 6).pips, Tile(6, 6).is_double
    ('5-1', 12, True)
    """

    __slots__ = ("index", "low", "high", "bit")
    index: TileIndex
    low: Number
    high: Number
    bit: TileMask

    def __new__(cls, a: Number, b: Number) -> Tile:
        try:
            return TILES[_INDEX[(a, b)]]
        except (KeyError, TypeError):
            raise ValueError(f"no tile {a}-{b}: halves are numbers 0 to 6") from None

    @classmethod
    def _make(cls, index: TileIndex) -> Tile:
        tile = object.__new__(cls)
        for name, value in (("index", index), ("low", _LOW[index]), ("high", _HIGH[index]),
                            ("bit", 1 << index)):
            object.__setattr__(tile, name, value)
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``"a-b"`` (either order)."""
        return TILES[parse_tile(text)]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("tiles are immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[Number, Number]]:
        return Tile, (self.low, self.high)

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def has(self, number: Number) -> bool:
        """Whether one half shows ``number``."""
        return number == self.low or number == self.high

    def other(self, number: Number) -> Number:
        """The half left open when this tile is matched on ``number``."""
        return other_half(self.index, number)

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index


TILES: Final[tuple[Tile, ...]] = tuple(Tile._make(i) for i in range(28))


def tile_index(a: Number, b: Number) -> TileIndex:
    """Index of the tile ``a-b`` (either order)."""
    return _INDEX[(a, b)]


def other_half(index: TileIndex, number: Number) -> Number:
    """The half of tile ``index`` left open when it is matched on ``number``; -1 if it has none."""
    return OTHER[index * 7 + number]


#: Each tile as it is stored, ``"a-b"`` either way round: the replay of a stored deal parses some
#: thirty a move.
_WRITTEN: Final[dict[str, TileIndex]] = {f"{a}-{b}": index for (a, b), index in _INDEX.items()}


def parse_tile(text: str) -> TileIndex:
    """Index of a tile written ``"a-b"``; :class:`IllegalMove` naming the text otherwise."""
    index = _WRITTEN.get(text) if type(text) is str else None
    if index is not None:
        return index
    parts = text.split("-") if isinstance(text, str) else ()
    if len(parts) == 2 and all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        key = (int(parts[0]), int(parts[1]))
        if key in _INDEX:
            return _INDEX[key]
    raise IllegalMove(gettext_noop("%(text)s is not a tile: write it \"a-b\" with halves 0 to 6"), text=repr(text))


def mask_of(tiles: Iterable[Tile | TileIndex]) -> TileMask:
    """Bit mask of tiles given as :class:`Tile` objects or indices."""
    mask = 0
    for t in tiles:
        mask |= t.bit if isinstance(t, Tile) else 1 << t
    return mask


def indices_of(mask: TileMask) -> Iterator[TileIndex]:
    """Indices of the tiles in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def tiles_of(mask: TileMask) -> list[Tile]:
    """The tiles of a mask, in index order."""
    return [TILES[i] for i in indices_of(mask)]


#: Pips of every set of the tiles 0-6, 7-13, 14-20 and 21-27: a mask's pips in four look-ups.
_PIPS_BY_7 = tuple(
    tuple(sum(PIPS[base + i] for i in range(7) if m >> i & 1) for m in range(128))
    for base in (0, 7, 14, 21)
)


def pips_of(mask: TileMask) -> int:
    """Pips of all tiles in ``mask``."""
    t = _PIPS_BY_7
    return t[0][mask & 127] + t[1][mask >> 7 & 127] + t[2][mask >> 14 & 127] + t[3][mask >> 21 & 127]
