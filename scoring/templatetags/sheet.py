"""Template helpers of the referee's score sheet."""

import uuid

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def stamp(context):
    """The hidden fields every form of the sheet posts: the partition version the page shows, and
    a fresh idempotency key for this rendering of the form."""
    return format_html('<input type="hidden" name="version" value="{}"><input type="hidden" name="key" value="{}">',
                       context["version"], uuid.uuid4().hex)


@register.filter
def seat_of(seats, number):
    """The seat ``number`` (1-4) of a list of seats."""
    try:
        return seats[int(number) - 1]
    except (TypeError, ValueError, IndexError):
        return None


@register.filter
def hand_value(form, seat):
    """The hand value of ``seat`` on a Goat deal form (its field ``value_1`` ...), as typed or
    as initially given."""
    return form[f"value_{seat}"].value()


@register.filter
def posted(form, field):
    """What a bound ``form`` posted for ``field`` ("" for a form not posted): an open annulment
    form is the one whose posting was refused."""
    return form.data.get(field, "") if form is not None and form.is_bound else ""
