"""The crosstable as a PDF for the notice board and the federation: A4 landscape, in Russian, with
the protocols' fonts and style (:mod:`.rendering`)."""

from __future__ import annotations

from tournaments.standings import Crosstable

from scoring.protocols import rendering


def crosstable_pdf(ct: Crosstable) -> bytes:
    """The crosstable ``ct`` (:func:`tournaments.standings.crosstable`) as a PDF: the tours' cells,
    or the square table of a round robin, then the standings' columns and the marks' legend."""
    return rendering.render_document("protocols/crosstable.html", {"ct": ct, "tournament": ct.tournament})
