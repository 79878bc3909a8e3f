"""The iCalendar feed of a tournament's tours, read back with the icalendar library."""

import datetime
import zoneinfo

import icalendar
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments import tours
from tournaments.models import Tour, Tournament

from builders import finish_tour, tournament, user

pytestmark = pytest.mark.django_db

MOSCOW = zoneinfo.ZoneInfo("Europe/Moscow")


def feed(client, t) -> icalendar.Calendar:
    with translation.override("ru"):
        url = reverse("tours-ics", args=[t.slug])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def test_one_event_per_published_tour_with_its_start_and_time_limit():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4, regulations={"partition_minutes": 45})
    t.venue = "Москва, клуб «Рыба»"
    t.save(update_fields=["venue"])
    first = tours.generate_tour(org, t)
    tours.publish_tour(org, first)
    # 10:00 in Moscow, stored in UTC (07:00).
    Tour.objects.filter(pk=first.pk).update(planned_start=datetime.datetime(2026, 11, 21, 7, 0, tzinfo=datetime.UTC))
    finish_tour(first)
    second = tours.generate_tour(org, t)
    tours.publish_tour(org, second)
    Tour.objects.filter(pk=second.pk).update(planned_start=datetime.datetime(2026, 11, 21, 11, 30, tzinfo=MOSCOW))
    finish_tour(second)
    third = tours.generate_tour(org, t)  # a draft: not in the feed, even with a start
    Tour.objects.filter(pk=third.pk).update(planned_start=datetime.datetime(2026, 11, 22, 10, 0, tzinfo=MOSCOW))

    client = Client()
    calendar = feed(client, t)
    assert calendar["X-WR-CALNAME"] == t.name
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["Europe/Moscow"]
    events = calendar.walk("VEVENT")
    assert [e["SUMMARY"] for e in events] == [f"{t.name}: тур 1", f"{t.name}: тур 2"]
    starts = [e.decoded("DTSTART") for e in events]
    assert starts == [datetime.datetime(2026, 11, 21, 10, 0, tzinfo=MOSCOW),
                      datetime.datetime(2026, 11, 21, 11, 30, tzinfo=MOSCOW)]
    assert all(str(e["DTSTART"].params["TZID"]) == "Europe/Moscow" for e in events)
    assert [e.decoded("DTEND") - e.decoded("DTSTART") for e in events] == [datetime.timedelta(minutes=45)] * 2
    assert all(e["LOCATION"] == t.venue for e in events)
    assert all(str(e["URL"]) == f"http://testserver/tournaments/{t.slug}/" for e in events)
    assert all(isinstance(e.decoded("DTSTAMP"), datetime.datetime) for e in events)
    uids = [str(e["UID"]) for e in events]
    assert uids == [f"tour-{first.pk}@testserver", f"tour-{second.pk}@testserver"]
    # The same UIDs after a change of time: a subscribed calendar moves the event.
    Tour.objects.filter(pk=first.pk).update(planned_start=datetime.datetime(2026, 11, 21, 9, 0, tzinfo=MOSCOW))
    again = feed(client, t).walk("VEVENT")
    assert [str(e["UID"]) for e in again] == uids and again[0].decoded("DTSTART").hour == 9


def test_a_tour_drawn_without_a_planned_start_is_in_the_feed_once_started():
    org = user("org", superuser=True)
    t = tournament(org, pairs=4)
    first = tours.generate_tour(org, t)
    tours.publish_tour(org, first)
    client = Client()
    assert feed(client, t).walk("VEVENT") == []  # no time to give yet
    Tour.objects.filter(pk=first.pk).update(started_at=datetime.datetime(2026, 11, 21, 12, 5, tzinfo=MOSCOW))
    [event] = feed(client, t).walk("VEVENT")
    assert event.decoded("DTSTART") == datetime.datetime(2026, 11, 21, 12, 5, tzinfo=MOSCOW)


def test_the_tournament_page_links_the_feed_and_a_draft_tournament_has_none():
    org = user("org", superuser=True)
    t = tournament(org, pairs=2)
    client = Client()
    with translation.override("ru"):
        url = reverse("tours-ics", args=[t.slug])
        detail = reverse("tournament", args=[t.slug])
    assert client.get(url).status_code == 404  # a draft tournament is its staff's
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.REGISTRATION)
    assert url in client.get(detail).content.decode()
    assert feed(client, t).walk("VEVENT") == []  # no tour yet: an empty calendar, still valid
