"""Partitions (the game at each table of a tour), their result, and their append-only history."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Partition(models.Model):
    """The partition played at a table. Created by the draw; the referee's recording keeps its
    engine state (:class:`scoring.engine.Partition` as JSON: every event, deals with their
    hands and moves when played move by move, the deal being played) and the result fields the
    standings read. ``version`` counts the changes: a client that recorded on an older version
    gets a conflict instead of overwriting."""

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
    penalties_a = models.PositiveIntegerField(_("penalties of pair A"), default=0)
    penalties_b = models.PositiveIntegerField(_("penalties of pair B"), default=0)
    deals = models.PositiveIntegerField(_("deals"), default=0)
    state = models.JSONField(_("engine state"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
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
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"{self.table.tour} · {self.table}"

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class PartitionChange(models.Model):
    """One change of a partition, never updated or deleted: who, when, from where, what was
    recorded, the result before and after, and the whole engine state after it (so every
    version stays readable). A correction of a finished partition carries its reason."""

    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField(_("version"))
    action = models.CharField(_("action"), max_length=30)
    data = models.JSONField(_("data"), default=dict)
    reason = models.TextField(_("reason"), blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    # A retried request with the same key gets this change back instead of a second one.
    idempotency_key = models.CharField(max_length=100, blank=True)
    before = models.JSONField(_("result before"), default=dict)
    after = models.JSONField(_("result after"), default=dict)
    state = models.JSONField(_("engine state after"))

    class Meta:
        ordering = ["partition", "version"]
        verbose_name = _("partition change")
        verbose_name_plural = _("partition changes")
        constraints = [
            models.UniqueConstraint(fields=["partition", "version"], name="change_version_once"),
            models.UniqueConstraint(fields=["partition", "idempotency_key"], condition=~Q(idempotency_key=""),
                                    name="change_idempotency_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.partition} v{self.version} {self.action}"
