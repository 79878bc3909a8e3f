"""What the pages of one tournament share."""

from __future__ import annotations

from functools import wraps
from typing import Callable

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404

from tournaments import permissions
from tournaments.models import Tournament


def tournament_page(require: Callable[..., None]):
    """A page of the tournament ``slug``: log in first, then ``require(user, tournament)`` (a
    ``require_*`` of :mod:`tournaments.permissions`: a 403 for whoever it refuses); the view gets
    the tournament instead of its slug."""

    def decorator(view):
        @login_required
        @wraps(view)
        def page(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            require(request.user, tournament)
            return view(request, tournament, *args, **kwargs)

        return page

    return decorator


#: The organiser's pages of a tournament.
organiser_page = tournament_page(permissions.require_manage)
#: The pages of a tournament's staff (organisers, referees).
staff_page = tournament_page(permissions.require_staff)
#: The chief referee's pages of a tournament (chief referees, organisers).
chief_page = tournament_page(permissions.require_referee_all)
