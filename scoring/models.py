"""Partitions: the game at each table of a tour, and its result."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Partition(models.Model):
    """The partition played at a table. Created by the draw; the referee's recording fills in its
    engine state (:class:`scoring.engine.Partition` as JSON) and the result fields the standings
    read."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Winner(models.TextChoices):
        A = "A", _("Pair A")
        B = "B", _("Pair B")

    table = models.OneToOneField("tournaments.Table", on_delete=models.CASCADE, related_name="partition")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    winner = models.CharField(_("winner"), max_length=1, choices=Winner.choices, blank=True)
    reason = models.CharField(_("reason"), max_length=20, blank=True)
    points_a = models.IntegerField(_("points of pair A"), default=0)
    points_b = models.IntegerField(_("points of pair B"), default=0)
    state = models.JSONField(_("engine state"), null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("partition")
        verbose_name_plural = _("partitions")
        constraints = [
            # A finished partition has a result: a winner, or none only when both pairs were absent.
            models.CheckConstraint(
                condition=~Q(status="finished") | ~Q(reason=""), name="finished_partition_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.table.tour} · {self.table}"
