"""Tournaments, their staff, players, pairs, tours and tables.

Business rules live in :mod:`tournaments.services`; the models hold data and the constraints the
database itself can guarantee.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.engine import Kind, Regulations, kind_of

from .fields import PlainTextField
from .names import search_key


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        INDIVIDUAL = "individual", _("Individual")
        MANUAL = "manual", _("Manual")

    class Seeding(models.TextChoices):
        """The order of tour 1 (tournaments.draw.seeding)."""

        NUMBERS = "numbers", _("By start numbers")
        SEEDS = "seeds", _("By the organiser's seed numbers")
        RANDOM = "random", _("By a random draw")
        RATING = "rating", _("By the players' rating")

    name = PlainTextField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True,
                            help_text=_("Used in addresses: letters, digits, hyphens."))
    venue = PlainTextField(_("venue"), max_length=200, blank=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    format = models.CharField(_("draw format"), max_length=20, choices=Format.choices, default=Format.SWISS)
    # Every setting of RULES.md, as Regulations.to_dict() writes it; validated by the engine.
    regulations = models.JSONField(_("regulations"), default=dict, blank=True)
    regulations_text = models.TextField(_("regulations text"), blank=True,
                                        help_text=_("Shown on the tournament's page and printed on the final "
                                                    "protocol."))
    seeding = models.CharField(_("seeding of tour 1"), max_length=10, choices=Seeding.choices,
                               default=Seeding.NUMBERS)
    # The team standings (tournaments.standings.teams): each club's best N entries; 0: none.
    team_best = models.PositiveSmallIntegerField(
        _("team standings: best N entries"), default=0,
        help_text=_("Clubs ranked by the sum of the tournament points of their best N entries, then by their "
                    "points difference; 0: no team standings."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="tournament_dates_in_order"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", kwargs={"slug": self.slug})

    @property
    def rules(self) -> Regulations:
        """The regulations as the engine's validated value object."""
        return Regulations.from_dict(self.regulations)

    @property
    def is_individual(self) -> bool:
        return self.format == self.Format.INDIVIDUAL

    @property
    def kind(self) -> Kind:
        """The kind of game it plays (:mod:`scoring.engine.kinds`): what differs by game is
        chosen from it."""
        return kind_of(self.regulations)


class Role(models.Model):
    """A user's part in running one tournament."""

    class Kind(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        CHIEF_REFEREE = "chief_referee", _("Chief referee")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    kind = models.CharField(_("role"), max_length=20, choices=Kind.choices)

    class Meta:
        verbose_name = _("role")
        verbose_name_plural = _("roles")
        constraints = [models.UniqueConstraint(fields=["tournament", "user", "kind"], name="role_once")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_kind_display()}"


class Player(models.Model):
    """A person who plays; the same player can take part in many tournaments."""

    last_name = PlainTextField(_("last name"), max_length=100)
    first_name = PlainTextField(_("first name"), max_length=100, blank=True)
    club = PlainTextField(_("club"), max_length=200, blank=True)
    city = PlainTextField(_("city"), max_length=100, blank=True)
    federation_id = PlainTextField(_("federation id"), max_length=50, blank=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="player", verbose_name=_("account"))
    # Hashed (django.contrib.auth.hashers) PIN with which the player confirms a protocol on the
    # referee's device; empty: none set. Set through scoring.protocols.set_pin.
    pin = models.CharField(_("PIN"), max_length=128, blank=True, editable=False)
    # What /players/ matches with one icontains per typed word (tournaments.names): the
    # name in Cyrillic and its Latin spellings, and the federation id. Kept by save().
    search_key = models.TextField(_("search key"), blank=True, editable=False)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["federation_id"], condition=~Q(federation_id=""),
                                    name="player_federation_id_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_key = search_key(self.last_name, self.first_name, self.federation_id)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("player", kwargs={"pk": self.pk})


class PinFailures(models.Model):
    """Wrong PINs typed for a player, counted by where they come from (tournaments.pins): one row
    per device (a login typing PINs for players, or a phone's device id), one per address, and
    one for the player from anywhere (``key`` empty), so that a stranger locks only his own device
    and address. Kept in the database, so every process counts the same, under row locks."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # "" (the player from anywhere), "device:<hash of the device's id>" or "address:<ip>".
    key = models.CharField(max_length=80, blank=True)
    failures = models.PositiveIntegerField(default=0)
    since = models.DateTimeField(null=True, blank=True)  # the player's row: the hour being counted
    last_failure_at = models.DateTimeField(null=True, blank=True)
    # A device or address: locked until then. The player's row: his next try is taken then.
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "key"], name="pin_failures_once")]


class PinChange(models.Model):
    """The audit trail of players' PINs: every PIN set on the PIN page (a lost one reset at the
    table among them), generated for a printed slip, or chosen through a slip's link. The PIN
    itself is never kept here."""

    class How(models.TextChoices):
        SET = "set", _("set on the PIN page")
        SLIP = "slip", _("generated for a PIN slip")
        CHOSEN = "chosen", _("chosen by the player with his slip's link")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pin_changes")
    how = models.CharField(max_length=10, choices=How.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")  # none: the player himself through his slip's link
    address = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-pk"]


class PinLink(models.Model):
    """The one-time link printed on a PIN slip, where the player types the printed PIN and
    chooses his own. Only the SHA-256 of its secret is kept; a new PIN voids the player's links."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    secret_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()


class Entry(models.Model):
    """A player registered for a tournament (in pair events, through his pair)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # The club (or region) he plays for in this tournament: the player's club when he was
    # registered, kept here since a player changes clubs between tournaments.
    club = PlainTextField(_("club"), max_length=200, blank=True)

    class Meta:
        ordering = ["player__last_name", "player__first_name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entry_once")]

    def __str__(self) -> str:
        return str(self.player)


class Pair(models.Model):
    """Two partners. In pair events a pair is fixed for the tournament (``tour`` is empty); in
    individual events the draw forms new pairs every tour."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairs")
    tour = models.ForeignKey("Tour", null=True, blank=True, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveIntegerField(_("start number"))
    first = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first player"))
    second = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("second player"))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # The organiser's seeding order (1 first), used when the tournament seeds by seed numbers.
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        constraints = [
            models.CheckConstraint(condition=~Q(first=F("second")), name="pair_two_players"),
            models.UniqueConstraint(fields=["tournament", "number"], condition=Q(tour__isnull=True),
                                    name="pair_number_unique"),
            models.UniqueConstraint(fields=["tournament", "seed"], condition=Q(tour__isnull=True, seed__isnull=False),
                                    name="pair_seed_unique"),
            models.UniqueConstraint(fields=["tour", "number"], condition=Q(tour__isnull=False),
                                    name="tour_pair_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.first.last_name} — {self.second.last_name}"

    @property
    def players(self) -> tuple[Player, Player]:
        return self.first, self.second


class PlayMode(models.TextChoices):
    """How the partitions of a tour are recorded: after the fact on the score sheet, or live
    (README, "Live tables"). A table may differ from its tour."""

    SHEET = "sheet", _("Score sheet (recorded after the fact)")
    DIGITAL = "digital", _("Digital table (each player on his phone)")
    REFEREED = "refereed", _("Refereed table (the referee enters hands and moves)")
    CLOCK = "clock", _("Referee's clock (physical tiles, the referee taps each move)")


class Tour(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tours")
    number = models.PositiveIntegerField(_("number"))
    planned_start = models.DateTimeField(_("planned start"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    play_mode = models.CharField(_("how the tables are played"), max_length=10, choices=PlayMode.choices,
                                 default=PlayMode.SHEET)
    # Set when the chief referee starts the tour: the no-show deadlines count from it (the
    # planned start only informs).
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    # The seed of a random seeding (tour 1): the draw is reproduced from it and it is printed.
    draw_seed = models.BigIntegerField(_("random draw seed"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("tour")
        verbose_name_plural = _("tours")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tour_number_unique")]

    def __str__(self) -> str:
        return _("Tour %(number)s") % {"number": self.number}

    def get_absolute_url(self) -> str:
        return reverse("tour", kwargs={"slug": self.tournament.slug, "number": self.number})

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT


class Table(models.Model):
    """Two pairs at one table in one tour: pair A at seats 1 and 3, pair B at seats 2 and 4.

    A table of Goat or Sea Goat each for himself (RULES 9.1) seats 2 to 4 players without pairs,
    seats filled in order. The row does not know its game: that sports tables (and Goat ones with
    ``teams``) have both pairs and four seats is the draw's guarantee
    (:func:`tournaments.tours.check_table`); the database keeps the seats in order and the pairs
    together, with four seats."""

    tour = models.ForeignKey(Tour, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table"))
    referee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="refereed_tables", verbose_name=_("referee"))
    pair_a = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="tables_as_a",
                               verbose_name=_("pair A"))
    pair_b = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="tables_as_b",
                               verbose_name=_("pair B"))
    seat1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("seat 1"))
    seat2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("seat 2"))
    seat3 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("seat 3"))
    seat4 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                              verbose_name=_("seat 4"))
    # Empty: as the tour says.
    play_mode = models.CharField(_("how this table is played"), max_length=10, choices=PlayMode.choices, blank=True)

    class Meta:
        ordering = ["tour", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["tour", "number"], name="table_number_unique"),
            models.UniqueConstraint(fields=["tour", "pair_a"], name="table_pair_a_once"),
            models.UniqueConstraint(fields=["tour", "pair_b"], name="table_pair_b_once"),
            models.CheckConstraint(condition=~Q(pair_a=F("pair_b")), name="table_two_pairs"),
            models.CheckConstraint(condition=Q(seat3__isnull=False) | Q(seat4__isnull=True),
                                   name="table_seats_in_order"),
            # Pairs come two, and two pairs fill four seats.
            models.CheckConstraint(condition=(Q(pair_a__isnull=True, pair_b__isnull=True)
                                              | Q(pair_a__isnull=False, pair_b__isnull=False, seat4__isnull=False)),
                                   name="table_pairs_at_four_seats"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}

    #: The fields of seats 1 to 4, in the order of play.
    SEAT_FIELDS = ("seat1", "seat2", "seat3", "seat4")

    @property
    def seats(self) -> tuple[Player, Player, Player, Player]:
        """The four players of a table of pairs (sports; Goat with ``teams``)."""
        assert self.seat3 is not None and self.seat4 is not None, "a table of pairs has four seats"
        return self.seat1, self.seat2, self.seat3, self.seat4

    @property
    def pairs(self) -> tuple[Pair, Pair]:
        """Pair A and pair B of a table of pairs."""
        assert self.pair_a is not None and self.pair_b is not None, "a table of pairs has two pairs"
        return self.pair_a, self.pair_b

    @property
    def players(self) -> tuple[Player, ...]:
        """The players in seats 1.. of any table: 2 to 4 of them."""
        return tuple(p for p in (self.seat1, self.seat2, self.seat3, self.seat4) if p is not None)

    @property
    def mode(self) -> str:
        """How this table is played: its own setting, else its tour's."""
        return self.play_mode or self.tour.play_mode


class Bye(models.Model):
    """A pair without a table in a tour (odd number of pairs): a win, RULES 8."""

    tour = models.ForeignKey(Tour, on_delete=models.CASCADE, related_name="byes")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [models.UniqueConstraint(fields=["tour", "pair"], name="bye_once")]


class SitOut(models.Model):
    """A player left without a seat in an individual tour (players not a multiple of four)."""

    tour = models.ForeignKey(Tour, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tour", "player"], name="sit_out_once")]


class EntryChange(models.Model):
    """The history of a tournament's entries and of the players' data, appended to by the
    services and never changed: who did what, when, and the values before and after."""

    class Action(models.TextChoices):
        PLAYER_EDITED = "player_edited", _("player's data corrected")
        SUBSTITUTED = "substituted", _("player substituted")
        WITHDRAWN = "withdrawn", _("withdrawal")
        REINSTATED = "reinstated", _("withdrawal undone")

    # Empty: a player's data changed outside any tournament (by himself, through the API).
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="entry_changes")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="changes")
    pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", verbose_name=_("by"))
    at = models.DateTimeField(_("when"))
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("change of an entry")
        verbose_name_plural = _("changes of entries")

    @property
    def fields(self) -> list[tuple[str, Any, Any]]:
        """A correction of a player's data: (the field's name, before, after) of each field changed."""
        if self.action != self.Action.PLAYER_EDITED:
            return []
        # In the player's field order: PostgreSQL's jsonb keeps no order of keys.
        return [(str(field.verbose_name), self.before[field.name], self.after.get(field.name))
                for field in Player._meta.fields if field.name in self.before]


class RatingFamily(models.TextChoices):
    """The games rated apart (tournaments.rating): a player's sports rating says nothing of his Goat."""

    SPORTS = "sports", _("Sports domino")
    GOAT = "goat", _("Goat")
    SEA_GOAT = "sea_goat", _("Sea Goat")


class Rating(models.Model):
    """A player's rating in one game family: the OpenSkill estimate (``mu``, ``sigma``) after every
    result rated so far, and the number shown (``value``, README "Ratings"). Written only by
    :func:`tournaments.rating.refresh`, from the results alone."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player"))
    family = models.CharField(_("game"), max_length=10, choices=RatingFamily.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    value = models.FloatField(_("rating"))
    partitions = models.PositiveIntegerField(_("partitions rated"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["family", "player"], name="rating_once")]
        indexes = [models.Index(fields=["family", "-value"], name="rating_list")]

    def __str__(self) -> str:
        return f"{self.player} {self.family} {self.value:.0f}"


class RatingChange(models.Model):
    """What one rated partition (sports) or sitting (Goat, Sea Goat) did to one player's rating:
    before and after. ``order`` is its place in the family's order of results (tour start,
    tournament, table), from 1."""

    # No index of their own: the history's and the unique constraint's indexes lead with them.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False)
    family = models.CharField(max_length=10, choices=RatingFamily.choices)
    order = models.PositiveIntegerField()
    partition = models.ForeignKey("scoring.Partition", on_delete=models.CASCADE, related_name="rating_changes",
                                  db_index=False)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        ordering = ["family", "order", "player"]
        constraints = [models.UniqueConstraint(fields=["partition", "player"], name="rating_change_once")]
        indexes = [models.Index(fields=["player", "family", "order"], name="rating_history")]
