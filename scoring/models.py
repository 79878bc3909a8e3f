"""Partitions (the game at each table of a tour), their result, and their append-only history."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from tournaments.models import Tour


class Partition(models.Model):
    """The partition played at a table. Created by the draw; the referee's recording keeps its
    engine state (:class:`scoring.engine.Partition` as JSON: every event, deals with their
    hands and moves when played move by move, the deal being played) and the result fields the
    standings read. ``version`` counts the changes: a client that recorded on an older version
    gets a conflict instead of overwriting."""

    #: The engine's partition this row holds at a version (services.engine_partition): the live
    #: services keep the one they stepped, so that their answer is built from it, not read again.
    engine_cache: tuple[int, Any] | None = None
    #: The instant (the database's clock) of the change the pipeline makes to this row in memory
    #: (set by its step): the "now" of the table's states built from it, the event's and the
    #: answer's, without reading the clock again.
    stepped_at: datetime.datetime | None = None

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
    # The deal being played move by move (the engine's Deal.to_dict), kept apart from ``state``
    # so that a move rewrites this deal only, never the whole partition.
    current = models.JSONField(_("deal being played"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The seats checked in at a score-sheet table (a live table keeps its own: LiveTable.present).
    present = models.JSONField(_("seats present"), default=list, blank=True)

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

    @property
    def before_first_deal(self) -> bool:
        """Nothing but check-ins is recorded yet (no lead draw, deal, penalty or no-show): the
        no-show deadline of a score-sheet table still runs. A sitting (Goat, Sea Goat, points)
        keeps its events game by game."""
        state = self.state or {}
        return not self.is_finished and self.deals == 0 and not any(
            game.get("events") or game.get("current") for game in state.get("games", [state]))


class SeatResult(models.Model):
    """What one player took from a finished partition of Goat or Sea Goat (the sitting of
    ``games_per_tour`` games at his table, RULES 9.1): written by the service that finishes it,
    so that the standings are sums in the database. With ``teams`` each partner gets his pair's."""

    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="seat_results")
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("player"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    score = models.IntegerField(_("score"))
    goats = models.PositiveSmallIntegerField(_("goats"))
    game_points = models.PositiveIntegerField(_("game points"))
    games_won = models.PositiveSmallIntegerField(_("games won"))

    class Meta:
        ordering = ["partition", "seat"]
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")
        constraints = [
            models.UniqueConstraint(fields=["partition", "seat"], name="seat_result_once"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=4), name="seat_result_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.partition} seat {self.seat}"


def result_summary(partition: Partition) -> dict[str, Any]:
    """A partition's result as its history, its live events and its pages show it."""
    return {"status": partition.status, "winner": partition.winner, "reason": partition.reason,
            "points": [partition.points_a, partition.points_b], "deals": partition.deals}


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
    # Empty for a move of a live table: the move is in ``data`` and the state after it follows
    # from the last change with a state (kept at every deal's end and every other change).
    state = models.JSONField(_("engine state after"), null=True, blank=True)

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


class HandLook(models.Model):
    """Someone other than its holder saw a hand of a deal in play (scoring.recording.hands): the table's
    referee or the chief referee, acting at the table. A look changes nothing, so it is not a
    PartitionChange; one row per (login, deal, route), the first look, since a tablet reads the
    table every second."""

    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="hand_looks")
    # The deal in play when the hands were seen: the finished deals of the partition (of the
    # whole sitting at a Goat table) plus one.
    deal = models.PositiveIntegerField(_("deal"))
    version = models.PositiveIntegerField(_("version"))
    seats = models.JSONField(_("seats"), default=list)
    route = models.CharField(_("route"), max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)

    class Meta:
        ordering = ["partition", "at"]
        verbose_name = _("look at the hands")
        verbose_name_plural = _("looks at the hands")
        constraints = [models.UniqueConstraint(fields=["partition", "deal", "user", "route"],
                                               name="hand_look_once_per_route")]

    def __str__(self) -> str:
        return f"{self.partition} deal {self.deal} {self.route}"


# -- Live tables (scoring.live) ---------------------------------------------------------------------


class LiveTable(models.Model):
    """The clocks and the deal in play of a partition played live (README, "Live tables").

    Every instant is
    the database's clock. ``turn`` counts the moves awaited: a move or a timeout names the turn
    it was made for, so a timeout recorded meanwhile does not turn a move on its way into a
    conflict."""

    class Mode(models.TextChoices):
        DIGITAL = "digital", _("Digital table")
        REFEREED = "refereed", _("Refereed table")
        CLOCK = "clock", _("Referee's clock")

    class Pause(models.TextChoices):
        DISPUTE = "dispute", _("a dispute")
        CALL = "call", _("a call to the chief referee")

    partition = models.OneToOneField(Partition, on_delete=models.CASCADE, primary_key=True, related_name="live")
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices)
    turn = models.PositiveIntegerField(_("turn"), default=0)
    # The move awaited: the deal's number and the move's index in it (the engine's, or at the
    # referee's clock the server's count of taps).
    deal = models.PositiveSmallIntegerField(default=0)
    move = models.PositiveSmallIntegerField(default=0)
    # The move clock: the seat awaited, its allowance and the lapses already recorded.
    seat = models.PositiveSmallIntegerField(_("seat to move"), null=True, blank=True)
    allowance = models.PositiveSmallIntegerField(_("allowance, s"), null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    lapses = models.PositiveSmallIntegerField(default=0)
    turn_paused = models.FloatField(default=0)  # seconds of pauses during this turn
    deadline = models.DateTimeField(_("move deadline"), null=True, blank=True)
    # At the referee's clock: the referee ended deal ``deal`` and enters its result; no move is
    # awaited, no move clock runs until it is recorded (scoring.recording.pipeline.align).
    deal_over = models.BooleanField(default=False)
    # The partition clock: from the first deal, pauses excluded.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_paused = models.FloatField(default=0)
    time_deadline = models.DateTimeField(_("partition deadline"), null=True, blank=True)
    # Pause: every clock of the table stops.
    paused_at = models.DateTimeField(null=True, blank=True)
    pause_reason = models.CharField(max_length=10, choices=Pause.choices, blank=True)
    # No-show: seats checked in, and the deadline (the tour's start plus no_show_minutes).
    present = models.JSONField(default=list)
    no_show_deadline = models.DateTimeField(_("no-show deadline"), null=True, blank=True)
    # A fault: the table's clocks could not be recorded (scoring.recording.pipeline); the sweep leaves it
    # alone and the chief referee sees it until a change of the table clears it.
    fault = models.CharField(_("fault"), max_length=500, blank=True)
    fault_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("live table")
        verbose_name_plural = _("live tables")
        # The sweep reads the deadlines that have passed.
        indexes = [models.Index(fields=["deadline"], name="live_move_deadline", condition=Q(deadline__isnull=False)),
                   models.Index(fields=["time_deadline"], name="live_time_deadline",
                                condition=Q(time_deadline__isnull=False)),
                   models.Index(fields=["no_show_deadline"], name="live_no_show_deadline",
                                condition=Q(no_show_deadline__isnull=False))]

    def __str__(self) -> str:
        return f"{self.partition} ({self.mode})"


class ClockLapse(models.Model):
    """A move clock that ran out: the guarantee that each lapse of a turn is recorded once,
    whichever of the request and the sweep gets there first."""

    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="lapses")
    turn = models.PositiveIntegerField()
    lapse = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    deadline = models.DateTimeField()
    at = models.DateTimeField()
    by = models.CharField(max_length=10)  # request or sweep ("task": a timer task, before the sweep took them over)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["partition", "turn", "lapse"], name="lapse_once")]


class SeatHolder(models.Model):
    """The device holding a seat of a digital table: a random token (kept hashed) given when the
    player scanned the table's code and typed his PIN. One device per seat; the referee releases
    it. Wrong PINs are counted by tournaments.pins."""

    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="seat_holders")
    seat = models.PositiveSmallIntegerField()
    token_hash = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["partition", "seat"], name="seat_holder_once"),
                       models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=4), name="seat_holder_seat")]
        indexes = [models.Index(fields=["token_hash"])]


class ClockHeartbeat(models.Model):
    """When the sweep last ran (one row). A gap longer than CLOCK_OUTAGE_SECONDS is an outage of
    the clock service: the next sweep extends the running clocks by it instead of charging the
    players for it."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    swept_at = models.DateTimeField()


# -- Protocol documents (the "Protocols" issue) ---------------------------------------------------


class Confirmation(models.Model):
    """A player (seats 1-4) or the referee (seat 0) confirms one version of a partition's
    protocol at the table: with his PIN on the referee's device, or from his own account. A
    correction makes a new version, which needs confirming again."""

    REFEREE = 0

    class Method(models.TextChoices):
        PIN = "pin", _("PIN on the referee's device")
        ACCOUNT = "account", _("own account")

    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="confirmations")
    version = models.PositiveIntegerField(_("version"))
    seat = models.PositiveSmallIntegerField(_("seat"), help_text=_("1 to 4 for the players, 0 for the referee."))
    player = models.ForeignKey("tournaments.Player", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="+", verbose_name=_("player"))
    # The login that confirmed: the player's or the referee's own account, or the referee's device
    # on which the player typed his PIN.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", verbose_name=_("login"))
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["partition", "version", "seat"]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        constraints = [
            models.UniqueConstraint(fields=["partition", "version", "seat"], name="confirmation_once"),
            models.CheckConstraint(condition=Q(seat__lte=4), name="confirmation_seat_0_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.partition} v{self.version} seat {self.seat}"

    @property
    def is_referee(self) -> bool:
        return self.seat == self.REFEREE


class SigningKey(models.Model):
    """A tournament's key for signing its protocols: created by the system on first use (a
    self-signed certificate), or loaded by an organiser from his PKCS#12 file. The private key
    is kept encrypted with a key derived from SECRET_KEY. A replaced key is retired, not
    deleted: the documents it signed stay genuine."""

    class Source(models.TextChoices):
        GENERATED = "generated", _("created by the system (self-signed)")
        UPLOADED = "uploaded", _("loaded by the organiser")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="signing_keys")
    source = models.CharField(_("source"), max_length=20, choices=Source.choices)
    certificate = models.TextField(_("certificate (PEM)"))
    chain = models.TextField(_("other certificates of the chain (PEM)"), blank=True)
    private_key = models.BinaryField(_("private key (encrypted PKCS#8)"))
    fingerprint = models.CharField(_("SHA-256 fingerprint"), max_length=64)
    subject = models.CharField(_("subject"), max_length=500)
    not_before = models.DateTimeField(_("valid from"))
    not_after = models.DateTimeField(_("valid until"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("created by"))
    retired_at = models.DateTimeField(_("retired at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at"]
        verbose_name = _("signing key")
        verbose_name_plural = _("signing keys")
        constraints = [
            models.UniqueConstraint(fields=["tournament"], condition=Q(retired_at__isnull=True),
                                    name="one_current_signing_key"),
            models.UniqueConstraint(fields=["tournament", "fingerprint"], name="signing_key_once"),
        ]
        indexes = [models.Index(fields=["fingerprint"])]

    def __str__(self) -> str:
        return f"{self.subject} ({self.fingerprint[:16]})"


class ProtocolDocument(models.Model):
    """An issued, signed PDF: a partition protocol (of one version of the partition), a tour
    protocol or the final protocol. Never changed: a later state makes a new document, and the
    older one is then outdated (computed, see :mod:`scoring.documents`). ``code`` is the short
    public code of its verification link; ``summary`` is what it certifies, as issued."""

    class Kind(models.TextChoices):
        PARTITION = "partition", _("partition protocol")
        TOUR = "tour", _("tour protocol")
        FINAL = "final", _("final protocol")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE,
                                   related_name="protocol_documents")
    tour = models.ForeignKey("tournaments.Tour", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="protocol_documents")
    partition = models.ForeignKey(Partition, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="documents")
    # Partition protocol: the partition's version it certifies. Tour and final protocols: the
    # state of all the partitions they count is ``snapshot``; ``version`` numbers their documents.
    version = models.PositiveIntegerField(_("version"))
    snapshot = models.CharField(_("snapshot"), max_length=64)
    confirmed = models.BooleanField(_("confirmed by all"), default=False)
    code = models.CharField(_("code"), max_length=16, unique=True)
    sha256 = models.CharField(_("SHA-256"), max_length=64, unique=True)
    pdf = models.BinaryField(_("PDF"))
    size = models.PositiveIntegerField(_("size"))
    signing_key = models.ForeignKey(SigningKey, on_delete=models.PROTECT, related_name="documents")
    summary = models.JSONField(_("what it certifies"), default=dict)
    created_at = models.DateTimeField(_("issued at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("issued by"))

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("protocol document")
        verbose_name_plural = _("protocol documents")
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="partition", partition__isnull=False)
                           | Q(kind="tour", tour__isnull=False, partition__isnull=True)
                           | Q(kind="final", tour__isnull=True, partition__isnull=True)),
                name="protocol_document_target"),
        ]
        indexes = [models.Index(fields=["kind", "partition", "snapshot"]),
                   models.Index(fields=["kind", "tour", "snapshot"]),
                   models.Index(fields=["kind", "tournament", "snapshot"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.code}"


class VerificationCount(models.Model):
    """PDFs sent to the verification page from one address in one minute, at most
    ``VERIFY_PER_ADDRESS_PER_MINUTE``: counted in the database, so every process counts the same
    (scoring.protocols.verification)."""

    address = models.CharField(max_length=64)
    minute = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["address", "minute"], name="verification_count_once")]
        indexes = [models.Index(fields=["minute"])]  # the purge of past minutes


class ProtocolBatch(models.Model):
    """Papers made by Celery, with progress: a whole tour's signed protocols (one task per table,
    then a ZIP) or its blank paper protocols (laid out by chunks of tables into one PDF); or the
    whole tournament's archive, a batch without a tour (every published tour's tables, then the
    archive ZIP: :mod:`scoring.protocols.archive`)."""

    class Kind(models.TextChoices):
        PROTOCOLS = "protocols", _("signed protocols")
        PAPER = "paper", _("paper protocols")
        ARCHIVE = "archive", _("tournament archive")

    class Status(models.TextChoices):
        RUNNING = "running", _("making the documents")
        ASSEMBLING = "assembling", _("putting them into one file")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")
        SUPERSEDED = "superseded", _("replaced: the tour changed meanwhile")

    #: A batch at work: at most one of each kind per tour, and one archive per tournament.
    ACTIVE = (Status.RUNNING, Status.ASSEMBLING)

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="protocol_batches")
    # None for the tournament's archive only.
    tour = models.ForeignKey("tournaments.Tour", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="protocol_batches")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.PROTOCOLS)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.RUNNING)
    # The state of the tour it was made for (sheets.tour_snapshot; paper.forms_snapshot for the
    # paper): asked again for the same state, the organiser gets this batch back instead of a new one.
    snapshot = models.CharField(_("snapshot"), max_length=64, blank=True)
    total = models.PositiveIntegerField(_("tables"))
    done = models.PositiveIntegerField(_("done"), default=0)
    failed = models.PositiveIntegerField(_("failed"), default=0)
    base_url = models.CharField(_("address of the site"), max_length=300)
    # The ZIP of the protocols, or the PDF of the paper.
    archive = models.BinaryField(_("file"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)
    # The last time a table was counted (or the batch started, or was resumed): a batch at work
    # that has not moved for a while has stalled, and its page offers to resume it.
    progressed_at = models.DateTimeField(_("last progress"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=_("started by"))

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("protocol batch")
        verbose_name_plural = _("protocol batches")
        constraints = [
            models.UniqueConstraint(fields=["tour", "kind"], condition=Q(status__in=["running", "assembling"]),
                                    name="one_active_batch_per_tour_and_kind"),
            models.UniqueConstraint(fields=["tournament"],
                                    condition=Q(kind="archive", status__in=["running", "assembling"]),
                                    name="one_active_archive_per_tournament"),
            models.CheckConstraint(condition=Q(kind="archive", tour__isnull=True)
                                   | (~Q(kind="archive") & Q(tour__isnull=False)),
                                   name="batch_tour_unless_archive"),
        ]

    def __str__(self) -> str:
        return f"{self.tour or self.tournament} batch {self.pk}"

    @property
    def acting(self) -> User | AnonymousUser:
        """Whom the batch's work acts as: its creator, whose permission every document it issues
        checks again; nobody if that login was deleted meanwhile, whom every issue refuses."""
        return self.created_by or AnonymousUser()

    @property
    def is_archive(self) -> bool:
        return self.kind == self.Kind.ARCHIVE

    @property
    def tour_of_batch(self) -> Tour:
        """The tour of a tour's batch: every kind has one but the archive (batch_tour_unless_archive)."""
        if self.tour is None:
            raise ValueError(f"{self} is the tournament's archive: it has no tour")
        return self.tour


class ProtocolBatchItem(models.Model):
    """One table of a batch: done once its document is made (or failed, with the error)."""

    batch = models.ForeignKey(ProtocolBatch, on_delete=models.CASCADE, related_name="items")
    partition = models.ForeignKey(Partition, on_delete=models.CASCADE, related_name="+")
    document = models.ForeignKey(ProtocolDocument, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    done_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["batch", "pk"]
        constraints = [models.UniqueConstraint(fields=["batch", "partition"], name="batch_item_once")]


# -- Live events (pushed to live screens: scoring/live/) ------------------------------------------


class LiveEvent(models.Model):
    """One change of a tournament, for live screens: numbered per tournament 1, 2, 3... in the
    order the changes committed (:func:`scoring.push.events.announce`), written in the change's
    own transaction, so a committed change always has its event and a refused one none. Kept
    LIVE_EVENTS_KEPT_HOURS; a screen that missed more reloads."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveBigIntegerField(_("number"))
    tour = models.ForeignKey("tournaments.Tour", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("tournaments.Table", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    partition = models.ForeignKey(Partition, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=30)
    data = models.JSONField(_("data"), default=dict)
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("live event")
        verbose_name_plural = _("live events")
        # The unique constraint's index is the (tournament, number) index every reader uses.
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="live_event_number_once")]
        indexes = [models.Index(fields=["at"])]  # the purge

    def __str__(self) -> str:
        return f"{self.tournament_id} #{self.number} {self.kind}"


class EventCounter(models.Model):
    """The last number given to a tournament's live event. Its row lock, held to the end of the
    change's transaction, makes the changes commit in the order of their numbers."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, primary_key=True,
                                      related_name="+")
    last = models.PositiveBigIntegerField(default=0)
