"""Forms of the organiser's pages. They only read and shape input: every rule is checked by the
service the view calls, and a refusal comes back onto the form with :func:`show_error`.

The regulations form is generated from :class:`scoring.engine.Regulations`: its choices and
bounds come from the engine, its labels from :data:`REGULATION_LABELS` below.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine import Regulations
from scoring.engine.regulations import GAME_DEFAULTS, STANDINGS_BY_GAME, Game

from .models import Player, Role, Tournament
from .names import person_name
from .services import PLAYER_FIELDS

# -- regulations -----------------------------------------------------------------------------------

#: Human labels of the settings, by section of RULES.md. A setting missing here still gets a field
#: (labelled with its code name), and a test fails until it is named.
REGULATION_SECTIONS: tuple[tuple[Any, tuple[tuple[str, Any], ...]], ...] = (
    (_("Partition"), (
        ("format", _("A partition ends")),
        ("target", _("Target, points")),
        ("deals", _("Number of deals (fixed-deals format)")),
        ("partition_minutes", _("Partition time, minutes")),
        ("no_show_minutes", _("No-show after, minutes")),
        ("no_show_points", _("Points for a no-show win")),
    )),
    (_("Play and deal scoring"), (
        ("direction", _("Direction of play")),
        ("next_lead", _("Lead of the next deal")),
        ("deal_points", _("A deal scores")),
        ("fish_tie", _("Fish with equal pips")),
    )),
    (_("Move time, seconds"), (
        ("time_single", _("One legal move")),
        ("time_several", _("Several legal moves")),
        ("time_fish", _("A move that can make fish")),
        ("time_pass", _("Pass")),
        ("repeat_scope", _("A violation is repeated")),
    )),
    (_("Penalties"), (
        ("penalty_points", _("Penalty, points")),
        ("penalty_mode", _("Penalty points are")),
        ("false_pass_award", _("After a false pass")),
        ("penalties_to_forfeit", _("Penalties before a partition may be declared lost")),
    )),
    (_("Tournament scoring"), (
        ("win_points", _("Tournament points for a won partition")),
        ("bye_points", _("Tournament points for a bye")),
        ("standings", _("Standings order")),
    )),
    (_("Goat, Sea Goat and other games"), (
        ("game", _("Game")),
        ("players", _("Players at a table")),
        ("teams", _("Four players in two pairs")),
        ("bazaar_keep", _("Bazaar tiles never drawn")),
        ("fish", _("After a fish in Goat")),
        ("opening", _("Opening, points (0: none)")),
        ("lose_at", _("Goat at, points")),
        ("zero_alone", _("0-0 alone is worth")),
        ("six_alone", _("6-6 alone is worth")),
        ("move_timeout", _("A move clock that runs out")),
        ("games_per_tour", _("Games per tour")),
        ("reset_others", _("Sea Goat: an opening resets the other side")),
        ("points_win", _("Points game: the winner has")),
    )),
)
REGULATION_LABELS: dict[str, Any] = {name: label for _title, fields in REGULATION_SECTIONS for name, label in fields}

#: Labels of the values of the choice settings, and of the standings criteria.
REGULATION_CHOICES: dict[str, dict[str, Any]] = {
    "format": {"target": _("at the target score"), "fixed_deals": _("after a fixed number of deals")},
    "direction": {"counter_clockwise": _("counter-clockwise"), "clockwise": _("clockwise")},
    "next_lead": {"rotation": _("in rotation"), "winner": _("the player who ended the deal")},
    "deal_points": {"all_hands": _("the pips in all hands"), "opponents_only": _("the pips in the opponents' hands")},
    "fish_tie": {"nobody": _("nobody scores"), "carry": _("the points go to the winner of the next deal")},
    "repeat_scope": {"player_partition": _("per player, in a partition"),
                     "pair_partition": _("per pair, in a partition"),
                     "player_tournament": _("per player, in the tournament")},
    "penalty_mode": {"award_opponents": _("credited to the opponents"),
                     "deduct_offenders": _("deducted from the offenders")},
    "false_pass_award": {"none": _("the deal scores nothing"),
                         "opponents_score": _("the opponents score as for domino")},
    "game": {"sports": _("sports domino"), "goat": _("Goat"), "sea_goat": _("Sea Goat"),
             "points": _("another game, points entered by hand")},
    "fish": {"for_all": _("every player is charged his hand"),
             "for_one": _("the highest hand is charged all hands")},
    "move_timeout": {"warning": _("a warning, then a penalty"), "forfeit": _("the game ends")},
    "points_win": {"highest": _("the highest score"), "lowest": _("the lowest score")},
}
STANDINGS_LABELS: dict[str, Any] = {
    "tournament_points": _("Tournament points"), "wins": _("Wins"), "points_difference": _("Points difference"),
    "points_for": _("Points for"),
    "buchholz": _("Buchholz"), "head_to_head": _("Head-to-head"), "points_against": _("Points against"),
    "penalties": _("Penalties"),
    # Goat and Sea Goat (RULES 9.1, 9.2)
    "game_points": _("Game points"), "goats": _("Goats"), "total_score": _("Total score"),
    "games_won": _("Games won"), "points_won": _("Points"),
    # points (RULES 9.3)
    "points_scored": _("Points scored"),
}
#: What an empty optional setting means.
REGULATION_EMPTY: dict[str, Any] = {"no_show_points": _("Empty: the target."),
                                    "penalties_to_forfeit": _("Empty: no limit."),
                                    "bye_points": _("Empty: as a won partition.")}


def describe_regulations(rules: Regulations) -> list[tuple[Any, list[tuple[Any, Any]]]]:
    """The regulations in words, by section: [(section, [(label, value), ...]), ...]; only the
    settings the tournament's game uses (:meth:`Regulations.used`), sections left empty dropped."""
    data = rules.to_dict()
    empty = {"no_show_points": _("the target"), "penalties_to_forfeit": _("no limit"),
             "bye_points": _("as a won partition")}

    def say(name: str, value: Any) -> Any:
        if name == "standings":
            return ", ".join(str(STANDINGS_LABELS.get(m, m)) for m in value)
        if value is None:
            return empty.get(name, "—")
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return REGULATION_CHOICES.get(name, {}).get(value, value)

    described = [(title, [(label, say(name, data[name])) for name, label in fields
                          if name in data and rules.used(name)])
                 for title, fields in REGULATION_SECTIONS]
    return [(title, lines) for title, lines in described if lines]


class StandingsWidget(forms.MultiWidget):
    """One select per place in the order of criteria, each with its own label."""

    template_name = "tournaments/widgets/standings.html"

    def __init__(self, choices, attrs=None):
        super().__init__([forms.Select(choices=choices) for _c in choices[1:]], attrs)

    def decompress(self, value):
        value = list(value or [])
        return value + [""] * (len(self.widgets) - len(value))


class StandingsField(forms.MultiValueField):
    """The standings precedence: the criteria of the game (``game``) in order, a place for each,
    empty places dropped; the engine checks it."""

    def __init__(self, game: Game, **kwargs):
        choices = [("", "—")] + [(m, STANDINGS_LABELS.get(m, m)) for m in STANDINGS_BY_GAME[game]]
        fields = [forms.ChoiceField(choices=choices, required=False) for _c in choices[1:]]
        super().__init__(fields, widget=StandingsWidget(choices), require_all_fields=False, **kwargs)

    def compress(self, data_list):
        return [m for m in data_list or [] if m]


def _regulation_field(field: dataclasses.Field, game: Game) -> forms.Field:
    name = field.name
    label = REGULATION_LABELS.get(name, name)
    if name == "standings":
        return StandingsField(game, label=label)
    if name in Regulations.FLAGS:
        return forms.BooleanField(label=label, required=False)
    if name in Regulations.CHOICES:
        labels = REGULATION_CHOICES.get(name, {})
        return forms.ChoiceField(label=label, choices=[(v, labels.get(v, v)) for v in Regulations.CHOICES[name]])
    if name in Regulations.BOUNDS:
        low, high = Regulations.BOUNDS[name]
        return forms.IntegerField(label=label, min_value=low, max_value=high,
                                  required=name not in Regulations.OPTIONAL, help_text=REGULATION_EMPTY.get(name, ""))
    return forms.CharField(label=label)


class RegulationsForm(forms.Form):
    """Every setting of :class:`Regulations`, initially its stored (or default) value."""

    def __init__(self, *args, regulations: dict[str, Any] | None = None, **kwargs):
        kwargs.setdefault("prefix", "reg")
        kwargs.setdefault("initial", Regulations.from_dict(regulations or {}).to_dict())
        super().__init__(*args, **kwargs)
        game = Game(self.initial.get("game", Regulations.game))
        for field in dataclasses.fields(Regulations):
            self.fields[field.name] = _regulation_field(field, game)

    @property
    def sections(self) -> list[tuple[Any, list[forms.BoundField]]]:
        named = set(REGULATION_LABELS)
        sections = [(title, [self[name] for name, _label in fields if name in self.fields])
                    for title, fields in REGULATION_SECTIONS]
        others = [self[name] for name in self.fields if name not in named]
        return sections + ([(_("Other settings"), others)] if others else [])

    @property
    def regulations(self) -> dict[str, Any]:
        """The settings; those that depend on the game (:data:`GAME_DEFAULTS`) left at the default
        of the game the form showed take the default of the game chosen instead (a Goat event made
        from a sports form gets Goat's standings, not sports'), and so do standings the form could
        only offer of the game it showed."""
        data = dict(self.cleaned_data)
        shown = Game(self.initial.get("game", Regulations.game))
        if data.get("game") != shown:
            for name, default in GAME_DEFAULTS[shown].items():
                if data.get(name) == (list(default) if isinstance(default, tuple) else default):
                    del data[name]
            if not set(data.get("standings", ())) <= set(STANDINGS_BY_GAME[Game(data["game"])]):
                data.pop("standings", None)
        return data


# -- tournaments -----------------------------------------------------------------------------------

_DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
_TOURNAMENT_FIELDS = forms.fields_for_model(
    Tournament, fields=["name", "slug", "venue", "starts_on", "ends_on", "format", "seeding", "status",
                        "regulations_text", "team_best"],
    widgets={"starts_on": _DATE, "ends_on": _DATE, "regulations_text": forms.Textarea(attrs={"rows": 8})})
# Empty: made from the name (services.create_tournament).
_TOURNAMENT_FIELDS["slug"].required = False
# A form that does not send it (an older page, a script) keeps the default.
_TOURNAMENT_FIELDS["seeding"].required = False
_TOURNAMENT_FIELDS["seeding"].empty_value = Tournament.Seeding.NUMBERS
_TOURNAMENT_FIELDS["team_best"].required = False  # empty: none (TournamentForm.clean_team_best)
_TOURNAMENT_FIELDS["slug"].help_text = _("Used in addresses: letters, digits, hyphens. Leave it empty to make it "
                                         "from the name.")


class TournamentForm(forms.Form):
    """A new tournament: it starts in draft."""

    name = _TOURNAMENT_FIELDS["name"]
    slug = _TOURNAMENT_FIELDS["slug"]
    venue = _TOURNAMENT_FIELDS["venue"]
    starts_on = _TOURNAMENT_FIELDS["starts_on"]
    ends_on = _TOURNAMENT_FIELDS["ends_on"]
    format = _TOURNAMENT_FIELDS["format"]
    seeding = _TOURNAMENT_FIELDS["seeding"]
    regulations_text = _TOURNAMENT_FIELDS["regulations_text"]
    team_best = _TOURNAMENT_FIELDS["team_best"]

    def clean_team_best(self) -> int:
        return self.cleaned_data["team_best"] or 0


class TournamentEditForm(TournamentForm):
    status = _TOURNAMENT_FIELDS["status"]


# -- staff, players and pairs ----------------------------------------------------------------------


class RoleForm(forms.Form):
    username = forms.CharField(label=_("Login"), max_length=150)
    kind = forms.ChoiceField(label=_("Role"), choices=Role.Kind.choices)


class OrganiserForm(forms.Form):
    """An existing login to appoint organiser; :class:`NewLoginForm` makes a new one."""

    username = forms.CharField(label=_("Login"), max_length=150)


class NewLoginForm(forms.Form):
    """A new login with the full name the protocols print; its holder sets his own password."""

    def __init__(self, *args, **kwargs):
        # It shares its page with the form of an existing login: ids of its own, or the label
        # "Login" of one form would name the other's field.
        kwargs.setdefault("auto_id", "id_new_%s")
        super().__init__(*args, **kwargs)

    username = forms.CharField(label=_("Login"), max_length=150,
                               help_text=_("Letters, digits and @ . + - _ only."))
    last_name = forms.CharField(label=_("Last name"), max_length=150)
    first_name = forms.CharField(label=_("First name"), max_length=150)


class NewStaffForm(NewLoginForm):
    kind = forms.ChoiceField(label=_("Role"), choices=Role.Kind.choices)


_PLAYER_FIELDS = forms.fields_for_model(Player, fields=list(PLAYER_FIELDS))


class PlayerForm(forms.Form):
    """One player of an individual event."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in PLAYER_FIELDS:
            self.fields[name] = _PLAYER_FIELDS[name]

    @property
    def player(self) -> dict[str, str]:
        return {name: self.cleaned_data[name] for name in PLAYER_FIELDS}


class PairForm(forms.Form):
    """A pair of a pair event: its start number (or the next free one) and two players."""

    number = forms.IntegerField(label=_("Start number"), min_value=1, required=False,
                                help_text=_("Empty: the next free number."))
    PLAYERS = (("first", _("First player")), ("second", _("Second player")))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for prefix, _legend in self.PLAYERS:
            for name in PLAYER_FIELDS:
                self.fields[f"{prefix}_{name}"] = _PLAYER_FIELDS[name]

    @property
    def sections(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(legend, [self[f"{prefix}_{name}"] for name in PLAYER_FIELDS]) for prefix, legend in self.PLAYERS]

    def player_of(self, prefix: str) -> dict[str, str]:
        """The fields of the player ``prefix`` (first, second)."""
        return {name: self.cleaned_data[f"{prefix}_{name}"] for name in PLAYER_FIELDS}


class SubstituteForm(PlayerForm):
    """Another player in a pair instead of one of its two, from a tour on."""

    def __init__(self, *args, pair, next_tour: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.pair = pair
        self.fields = {
            "leaving": forms.TypedChoiceField(label=_("Leaves the pair"), coerce=int,
                                              choices=[(p.pk, str(p)) for p in pair.players]),
            "from_tour": forms.IntegerField(label=_("From tour"), min_value=1, max_value=next_tour, initial=next_tour,
                                            help_text=_("The tours before keep the player who played them.")),
            **self.fields,
        }

    @property
    def leaving(self):
        return next(p for p in self.pair.players if p.pk == self.cleaned_data["leaving"])


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}))


# -- tours -------------------------------------------------------------------------------------------


class GenerateTourForm(forms.Form):
    planned_start = forms.DateTimeField(
        label=_("Planned start"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))


def _pair_choices(pairs: Iterable) -> list[tuple[Any, str]]:
    return [("", "—")] + [(p.pk, f"№{p.number} {p}") for p in pairs]


class SeatingForm(forms.Form):
    """A draft tour's tables by hand: pair A and pair B of each table, and the bye."""

    def __init__(self, *args, pairs: Iterable, rows: int, **kwargs):
        super().__init__(*args, **kwargs)
        choices = _pair_choices(pairs)
        self.row_count = rows
        for n in range(1, rows + 1):
            for side, label in (("a", _("Table %(number)s, pair A (seats 1 and 3)")),
                                ("b", _("Table %(number)s, pair B (seats 2 and 4)"))):
                self.fields[f"table_{n}_{side}"] = forms.TypedChoiceField(
                    label=label % {"number": n}, choices=choices, coerce=int, empty_value=None, required=False)
        self.fields["bye"] = forms.TypedChoiceField(label=_("Bye"), choices=choices, coerce=int, empty_value=None,
                                                    required=False, help_text=_("Odd number of pairs: the pair that rests, with a win."))

    @staticmethod
    def initial_for(tour) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for table in tour.tables.all():
            initial[f"table_{table.number}_a"] = table.pair_a_id
            initial[f"table_{table.number}_b"] = table.pair_b_id
        bye = tour.byes.first()
        if bye is not None:
            initial["bye"] = bye.pair_id
        return initial

    @property
    def rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(n, self[f"table_{n}_a"], self[f"table_{n}_b"]) for n in range(1, self.row_count + 1)]

    @property
    def tables(self) -> list[tuple[int | None, int | None]]:
        return [(self.cleaned_data[f"table_{n}_a"], self.cleaned_data[f"table_{n}_b"])
                for n in range(1, self.row_count + 1)]


class SeedsForm(forms.Form):
    """The organiser's seed number of each pair (empty: after the seeded ones, by start number)."""

    def __init__(self, *args, pairs: Iterable, **kwargs):
        super().__init__(*args, **kwargs)
        self.pairs = list(pairs)
        for pair in self.pairs:
            self.fields[f"seed_{pair.pk}"] = forms.IntegerField(
                label=f"№{pair.number} {pair}", min_value=1, required=False, initial=pair.seed)

    @property
    def seeds(self) -> dict[int, int | None]:
        return {pair.pk: self.cleaned_data[f"seed_{pair.pk}"] for pair in self.pairs}


class RefereesForm(forms.Form):
    """The referee of each table of a tour."""

    def __init__(self, *args, tables: Iterable, referees: Iterable, **kwargs):
        super().__init__(*args, **kwargs)
        self.referees = {u.pk: u for u in referees}
        choices = [("", pgettext_lazy("referee", "— none —"))] + [
            (pk, person_name(u)) for pk, u in self.referees.items()]
        self.tables = list(tables)
        for table in self.tables:
            self.fields[f"table_{table.number}"] = forms.TypedChoiceField(
                label=_("Table %(number)s") % {"number": table.number}, choices=choices, coerce=int,
                empty_value=None, required=False, initial=table.referee_id)

    @property
    def assignments(self) -> dict[int, Any]:
        """Table number -> referee (a user, or None)."""
        return {t.number: self.referees.get(self.cleaned_data[f"table_{t.number}"]) for t in self.tables}


# -- service errors --------------------------------------------------------------------------------


def show_error(error: ValidationError, form: forms.Form, regulations: RegulationsForm | None = None) -> None:
    """Put a service's refusal on the form: on the field it names, else above the form. The
    regulations error names its setting (see ``services._regulations``)."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for field, errors in error.error_dict.items():
        for item in errors:
            params = item.params or {}
            setting = params.get("setting") if field == "regulations" else None
            if regulations is not None and setting in regulations.fields:
                regulations.add_error(setting, ValidationError(params["problem"]))
            elif regulations is not None and field == "regulations":
                regulations.add_error(None, item)
            elif field in form.fields:
                form.add_error(field, item)
            else:
                form.add_error(None, item)
