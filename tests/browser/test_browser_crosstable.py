"""The crosstable on a phone: the tours and the numbers scroll sideways under the entrant's
column, which stays in view (sticky)."""

import pytest

from builders import finish_tour, tournament, user
from tournaments import tours
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_the_first_column_stays_in_view_while_the_tours_scroll(live_server, browser):
    org = user("org", superuser=True)
    t = tournament(org, pairs=8)
    for _n in range(4):
        tour = tours.generate_tour(org, t)
        tours.publish_tour(org, tour)
        finish_tour(tour)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    page = browser.new_context(**PHONE).new_page()
    page.goto(live_server.url + "/tournaments/cup/crosstable/")
    region = page.locator(".standings-scroll")
    first = page.locator("tbody tr").first.locator(".crosstable__who")
    last_tour = page.locator("thead th", has_text="Тур 4")
    assert first.bounding_box()["x"] - region.bounding_box()["x"] < 2
    assert last_tour.bounding_box()["x"] > 390  # off the screen: the table scrolls
    region.evaluate("r => r.scrollBy(400, 0)")
    page.wait_for_function("document.querySelector('.standings-scroll').scrollLeft > 300")
    # Scrolled: the fourth tour in view, the entrant's column where it was.
    assert first.bounding_box()["x"] - region.bounding_box()["x"] < 2
    assert last_tour.bounding_box()["x"] < 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page itself does not scroll
