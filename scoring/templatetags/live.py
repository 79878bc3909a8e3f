"""Template helpers of the live tables' pages: tiles drawn in SVG."""

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.live import drawing
from scoring.protocols.rendering import qr_svg

register = template.Library()


@register.simple_tag
def line_svg(line) -> SafeString:
    """The line of play (``[[a, b], ...]``) drawn as tiles."""
    tiles = ", ".join(f"{a}-{b}" for a, b in line)
    label = _("Line of play: %(tiles)s") % {"tiles": tiles} if line else _("The line of play is empty")
    return drawing.line_svg(line, label)


@register.filter
def tile_svg(tile: str) -> SafeString:
    """One tile (``"5-3"``) standing up, as in a hand."""
    return drawing.tile_svg(tile)


@register.filter
def minutes(seconds: int) -> str:
    """Seconds as a clock shows them: 75 -> "1:15"."""
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.simple_tag(takes_context=True)
def play_qr(context, table) -> SafeString:
    """The QR code of a digital table's page for the players' phones (its absolute address)."""
    path = reverse("live-play", args=[table.tour.tournament.slug, table.tour.number, table.number])
    return SafeString(qr_svg(context["request"].build_absolute_uri(path), scale=3))
