"""Template helpers of the protocol pages."""

from django import template
from django.utils.translation import gettext as _

from scoring.protocols import verification

register = template.Library()


@register.filter
def certifies(document):
    """What an issued document certifies: (label, value) lines."""
    return verification.describe(document)


@register.simple_tag
def verdict_title(status: str) -> str:
    return {
        verification.Status.GENUINE: _("Genuine"),
        verification.Status.GENUINE_OUTDATED: _("Genuine, but outdated"),
        verification.Status.TAMPERED: _("Tampered"),
        verification.Status.UNKNOWN: _("Unknown document"),
        verification.Status.OTHER_KEY: _("Signed by another key"),
    }.get(status, status)
