"""REST API of the scoring app: recording partitions, standings, protocols."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
