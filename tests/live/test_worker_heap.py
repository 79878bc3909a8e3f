"""What a web worker keeps for the collector to walk: its application frozen once loaded, and
as little as can be per live stream (README, Performance: the tail of the moves' latency was the
collector's full passes)."""

import gc

import pytest
from django.urls import get_resolver, resolve

from config.server import settle


@pytest.fixture
def thawed():
    yield
    gc.unfreeze()


def test_a_settled_workers_application_is_out_of_the_collectors_passes(thawed):
    resolver = get_resolver()
    settle()
    walked = gc.get_objects()  # what a full pass walks
    assert gc.get_freeze_count() > 10_000
    assert not any(obj is resolver.url_patterns for obj in walked)
    assert not any(obj is resolver for obj in walked)


def test_a_live_stream_keeps_no_list_of_the_patterns_tried_before_it():
    # A stream is held for hours, a thousand at once: its request keeps its ResolverMatch.
    match = resolve("/api/tournaments/open-2026/live/events/")
    assert match.url_name == "live-events"
    assert len(match.tried) <= 1
