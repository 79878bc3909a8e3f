"""The iCalendar feed of a tournament's tours (RFC 5545), for the players' phones: one event per
published tour with a planned start (or, without one, once it started: when it did), ending when the regulations' time limit of a partition
(``partition_minutes``) has run. Its UIDs stay the same for a tour whatever changes, so a
subscribed calendar moves an event rather than adding another."""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Tour, Tournament


def tours_calendar(tournament: Tournament, *, base_url: str) -> bytes:
    """The ``text/calendar`` file of ``tournament``'s published tours; ``base_url``: the site's
    address, for the tournament's link and the events' UIDs. In the active language (the page's
address: Russian, or English under ``/en/``)."""
    zone = timezone.get_default_timezone()
    host = urlsplit(base_url).hostname or "localhost"
    link = base_url.rstrip("/") + tournament.get_absolute_url()
    duration = datetime.timedelta(minutes=tournament.rules.partition_minutes)
    stamp = timezone.now()
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Sports domino//tours//RU")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", tournament.name)
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    tours = (tournament.tours.exclude(status=Tour.Status.DRAFT)
             .filter(Q(planned_start__isnull=False) | Q(started_at__isnull=False)).order_by("number"))
    for tour in tours:
        when = tour.planned_start or tour.started_at
        assert when is not None  # filtered above
        start = when.astimezone(zone)
        event = icalendar.Event()
        event.add("uid", f"tour-{tour.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", start)
        event.add("dtend", start + duration)
        event.add("summary", _("%(tournament)s: tour %(number)s") % {"tournament": tournament.name,
                                                                     "number": tour.number})
        if tournament.venue:
            event.add("location", tournament.venue)
        event.add("url", link)
        event.add("description", link)
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()
