"""Tiles drawn in SVG, on the server: the line of play of a live table and the tiles of a hand.

The SVG goes inline into the page (the Content-Security-Policy allows no inline style, so
everything is drawn with presentation attributes). A tile is two halves, each a square of
:data:`UNIT`, its pips as dots; on the line a double lies across, as on a real table.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

UNIT = 24  # the side of a half, in the SVG's units
GAP = 3
ROW = 2 * UNIT + 2 * GAP  # a row of the line is as high as a double across
ROW_WIDTH = 14 * UNIT  # the line wraps, like text, past this width

# Where the pips of each number sit in a half, as fractions of its side.
_TL, _TR, _ML, _C, _MR, _BL, _BR = (0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.5, 0.5), (0.75, 0.5), (0.25, 0.75), (
    0.75, 0.75)
PIPS: tuple[tuple[tuple[float, float], ...], ...] = (
    (), (_C,), (_TL, _BR), (_TL, _C, _BR), (_TL, _TR, _BL, _BR), (_TL, _TR, _C, _BL, _BR),
    (_TL, _TR, _ML, _MR, _BL, _BR))


def _half(x: float, y: float, number: int) -> SafeString:
    return format_html_join("", '<circle cx="{}" cy="{}" r="{}"/>',
                            ((round(x + fx * UNIT, 1), round(y + fy * UNIT, 1), round(UNIT * 0.1, 1))
                             for fx, fy in PIPS[number]))


def _tile(x: float, y: float, first: int, second: int, across: bool) -> SafeString:
    """One tile with its top-left corner at (x, y): ``first`` on the left (or on top, across)."""
    width, height = (UNIT, 2 * UNIT) if across else (2 * UNIT, UNIT)
    if across:
        divider = (x + 3, y + UNIT, x + UNIT - 3, y + UNIT)
        halves = _half(x, y, first) + _half(x, y + UNIT, second)
    else:
        divider = (x + UNIT, y + 3, x + UNIT, y + UNIT - 3)
        halves = _half(x, y, first) + _half(x + UNIT, y, second)
    return format_html(
        '<g class="tile"><rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="#fffdf6" stroke="#1d232b" '
        'stroke-width="1.5"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#1d232b" stroke-width="1"/>'
        '<g fill="#1d232b">{}</g></g>', x, y, width, height, *divider, halves)


def line_svg(line: Sequence[Sequence[int]], label: str) -> SafeString:
    """The line of play, from its left end to its right end (``[[a, b], ...]`` as
    :func:`scoring.recording.state.table_state` gives it), wrapped into rows."""
    parts: list[SafeString] = []
    x = y = 0.0
    widest = 0.0
    for a, b in line:
        across = a == b
        length = UNIT if across else 2 * UNIT
        if x and x + length > ROW_WIDTH:
            x, y = 0.0, y + ROW
        parts.append(_tile(x + GAP, y + GAP if across else y + GAP + UNIT / 2, a, b, across))
        x += length + GAP
        widest = max(widest, x)
    width, height = max(widest, UNIT) + 2 * GAP, y + ROW
    return format_html('<svg class="line-svg" viewBox="0 0 {} {}" width="{}" height="{}" role="img" '
                       'aria-label="{}">{}</svg>', width, height, width, height, label,
                       SafeString("".join(parts)))


def tile_svg(tile: str) -> SafeString:
    """One tile standing up, as in the hand (``"5-3"``: 5 on top)."""
    first, second = (int(n) for n in tile.split("-"))
    return format_html('<svg class="tile-svg" viewBox="0 0 {} {}" aria-hidden="true">{}</svg>',
                       UNIT + 2, 2 * UNIT + 2, _tile(1, 1, first, second, True))
