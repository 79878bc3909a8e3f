"""Addresses of the REST API, under /api/ (config/urls.py)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter(use_regex_path=False)
router.register("tournaments", api.TournamentViewSet, basename="api-tournament")
router.register("tournaments/<slug:slug>/roles", api.RoleViewSet, basename="api-role")
router.register("tournaments/<slug:slug>/pairs", api.PairViewSet, basename="api-pair")
router.register("tournaments/<slug:slug>/entries", api.EntryViewSet, basename="api-entry")
router.register("tournaments/<slug:slug>/tours", api.TourViewSet, basename="api-tour")
router.register("tournaments/<slug:slug>/tours/<int:tour_number>/tables", api.TableViewSet, basename="api-table")
router.register("players", api.PlayerViewSet, basename="api-player")

urlpatterns = [
    path("tournaments/<slug:slug>/standings/", api.StandingsView.as_view(), name="api-standings"),
    path("tournaments/<slug:slug>/crosstable/", api.CrosstableView.as_view(), name="api-crosstable"),
    *router.urls,
]
