"""REST API of the scoring app, under /api/ (config/urls.py): recording partitions, their history
and protocols."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api
from .live import sse

router = SimpleRouter(use_regex_path=False)
router.register("partitions", api.PartitionViewSet, basename="api-partition")

urlpatterns = router.urls + [
    # Not a DRF view: a stream of Server-Sent Events (README, "Push (live events)").
    path("tournaments/<slug:slug>/live/events/", sse.live_events, name="live-events"),
]
