"""REST API of the scoring app, under /api/ (config/urls.py): recording partitions, their history
and protocols, and the standings."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter(use_regex_path=False)
router.register("partitions", api.PartitionViewSet, basename="api-partition")

urlpatterns = [
    path("tournaments/<slug:slug>/standings/", api.StandingsView.as_view(), name="api-standings"),
    *router.urls,
]
