"""Template helpers for people: a login's name written as a person's is (surname first)."""

from django import template

from tournaments.names import person_name as _person_name

register = template.Library()


@register.filter
def person_name(user) -> str:
    """``{{ user|person_name }}``: :func:`tournaments.names.person_name`."""
    return _person_name(user)
