"""Pages of the scoring app: the referee's score sheet, protocols and their verification."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
