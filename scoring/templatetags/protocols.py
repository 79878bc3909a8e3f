"""Template helpers of the protocol pages."""

from django import template
from django.utils.translation import gettext as _

from scoring import documents

register = template.Library()


@register.filter
def certifies(document):
    """What an issued document certifies: (label, value) lines."""
    return documents.describe(document)


@register.simple_tag
def verdict_title(status: str) -> str:
    return {
        documents.Status.GENUINE: _("Genuine"),
        documents.Status.GENUINE_OUTDATED: _("Genuine, but outdated"),
        documents.Status.TAMPERED: _("Tampered"),
        documents.Status.UNKNOWN: _("Unknown document"),
        documents.Status.OTHER_KEY: _("Signed by another key"),
    }.get(status, status)
