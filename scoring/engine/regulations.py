"""The tournament's regulations (регламент): every setting of RULES.md with its default.

:class:`Regulations` is one immutable, validated value. Build it from a dict with
:meth:`Regulations.from_dict` (unknown keys and impossible values raise
:class:`~scoring.engine.errors.RegulationsError` naming the key) and store it with
:meth:`Regulations.to_dict`.

Each choice setting has its :class:`enum.StrEnum` (:class:`Format`, ...): a :class:`Regulations`
holds the members, :meth:`Regulations.to_dict` and :attr:`Regulations.CHOICES` the plain values.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Mapping, NoReturn

from .errors import RegulationsError, gettext_noop

__all__ = [
    "Regulations", "STANDINGS_METRICS", "GOAT_STANDINGS_METRICS", "SEA_GOAT_STANDINGS_METRICS",
    "POINTS_STANDINGS_METRICS", "STANDINGS_BY_GAME",
    "Format", "Direction", "NextLead", "DealPoints", "FishTie", "RepeatScope",
    "PenaltyMode", "FalsePassAward", "Game", "FishCharge", "MoveTimeout", "PointsWin", "GAME_DEFAULTS",
    "GAME_SETTINGS", "COMMON_SETTINGS",
]


class Game(enum.StrEnum):
    """The game a tournament plays (RULES 9)."""

    SPORTS = "sports"  # sections 2-8
    GOAT = "goat"  # 9.1
    SEA_GOAT = "sea_goat"  # 9.2
    POINTS = "points"  # 9.3: each deal's points entered by hand


class Format(enum.StrEnum):
    """How a partition ends (RULES 5)."""

    TARGET = "target"
    FIXED_DEALS = "fixed_deals"


class Direction(enum.StrEnum):
    """The direction of play (RULES 3)."""

    COUNTER_CLOCKWISE = "counter_clockwise"
    CLOCKWISE = "clockwise"


class NextLead(enum.StrEnum):
    """Who leads the next deal (RULES 3)."""

    ROTATION = "rotation"
    WINNER = "winner"  # the player who ended the deal


class DealPoints(enum.StrEnum):
    """What a deal scores (RULES 4.2)."""

    ALL_HANDS = "all_hands"
    OPPONENTS_ONLY = "opponents_only"


class FishTie(enum.StrEnum):
    """Fish with equal pips (RULES 4.3)."""

    NOBODY = "nobody"
    CARRY = "carry"  # the points go to the winner of the next deal


class RepeatScope(enum.StrEnum):
    """Where a repeated violation is counted (RULES 6)."""

    PLAYER_PARTITION = "player_partition"
    PAIR_PARTITION = "pair_partition"
    PLAYER_TOURNAMENT = "player_tournament"


class PenaltyMode(enum.StrEnum):
    """Where penalty points go (RULES 7)."""

    AWARD_OPPONENTS = "award_opponents"
    DEDUCT_OFFENDERS = "deduct_offenders"


class FalsePassAward(enum.StrEnum):
    """What a deal ended by a false pass scores (RULES 7)."""

    NONE = "none"
    OPPONENTS_SCORE = "opponents_score"


class FishCharge(enum.StrEnum):
    """Who is charged after a fish in Goat (RULES 9.1)."""

    FOR_ALL = "for_all"  # every player his hand value
    FOR_ONE = "for_one"  # the highest hand value the sum of all hands


class MoveTimeout(enum.StrEnum):
    """What a lapse of the move clock brings in Goat and Sea Goat (RULES 9.1)."""

    WARNING = "warning"  # section 6, as in sports
    FORFEIT = "forfeit"  # the online rules: the game ends


class PointsWin(enum.StrEnum):
    """Who wins a ``points`` game once a unit reaches the target (RULES 9)."""

    HIGHEST = "highest"
    LOWEST = "lowest"


#: The choice settings and their enums.
_CHOICE_TYPES: Final[dict[str, type[enum.StrEnum]]] = {
    "game": Game,
    "format": Format,
    "direction": Direction,
    "next_lead": NextLead,
    "deal_points": DealPoints,
    "fish_tie": FishTie,
    "repeat_scope": RepeatScope,
    "penalty_mode": PenaltyMode,
    "false_pass_award": FalsePassAward,
    "fish": FishCharge,
    "move_timeout": MoveTimeout,
    "points_win": PointsWin,
}

#: The default of a setting whose default depends on the game: :data:`GAME_DEFAULTS` gives it when
#: the regulations are made. (Typed ``Any`` so that the field keeps its plain type.)
_BY_GAME: Final[Any] = object()

#: The defaults that depend on the game (RULES 9.2: Sea Goat plays to 125, opens at 25, in pairs).
#: In sports ``teams`` is true (always pairs) and ``opening`` unused.
#: Metric names the standings precedence may use (RULES 8), in their default order first.
STANDINGS_METRICS = (
    "tournament_points", "points_difference", "points_for", "buchholz", "head_to_head",
    "wins", "points_against", "penalties",
)
#: The same for Goat (RULES 9.1: game points, then goats taken, then total score), Sea Goat
#: (9.2: games won, then points) and points (9.3: games won, then the points scored, the higher or
#: the lower first as ``points_win`` says).
GOAT_STANDINGS_METRICS = ("game_points", "goats", "total_score")
SEA_GOAT_STANDINGS_METRICS = ("games_won", "points_won")
POINTS_STANDINGS_METRICS = ("games_won", "points_scored")
#: The metrics each game's standings may use; its default precedence is all of them in order, but
#: sports' (:data:`STANDINGS_METRICS`, the first five).
STANDINGS_BY_GAME: Final[dict[Game, tuple[str, ...]]] = {
    Game.SPORTS: STANDINGS_METRICS,
    Game.GOAT: GOAT_STANDINGS_METRICS,
    Game.SEA_GOAT: SEA_GOAT_STANDINGS_METRICS,
    Game.POINTS: POINTS_STANDINGS_METRICS,
}

#: The settings every game uses (RULES 5 time and no-show, 6, 7 penalty points, the standings),
#: and those of each game besides (RULES 9: the rest are kept but have no effect).
COMMON_SETTINGS: Final = frozenset({
    "game", "partition_minutes", "no_show_minutes", "no_show_points", "time_single", "time_several", "time_fish",
    "time_pass", "repeat_scope", "penalty_points", "penalties_to_forfeit", "standings"})
_GOAT_SETTINGS: Final = frozenset({"players", "teams", "bazaar_keep", "opening", "zero_alone", "six_alone",
                                   "move_timeout", "games_per_tour"})
GAME_SETTINGS: Final[dict[Game, frozenset[str]]] = {
    Game.SPORTS: COMMON_SETTINGS | {"format", "target", "deals", "direction", "next_lead", "deal_points", "fish_tie",
                                    "penalty_mode", "false_pass_award", "win_points", "bye_points"},
    Game.GOAT: COMMON_SETTINGS | _GOAT_SETTINGS | {"fish", "lose_at"},
    Game.SEA_GOAT: COMMON_SETTINGS | _GOAT_SETTINGS | {"target", "reset_others"},
    Game.POINTS: COMMON_SETTINGS | {"target", "players", "teams", "points_win", "games_per_tour"},
}

GAME_DEFAULTS: Final[dict[Game, dict[str, Any]]] = {
    Game.SPORTS: {"target": 200, "opening": 13, "teams": True, "standings": STANDINGS_METRICS[:5]},
    Game.GOAT: {"target": 200, "opening": 13, "teams": False, "standings": GOAT_STANDINGS_METRICS},
    Game.SEA_GOAT: {"target": 125, "opening": 25, "teams": True, "standings": SEA_GOAT_STANDINGS_METRICS},
    Game.POINTS: {"target": 200, "opening": 13, "teams": False, "standings": POINTS_STANDINGS_METRICS},
}


@dataclass(frozen=True)
class Regulations:
    """Settings of RULES.md; field comments give the section.

    ``game`` chooses the game (RULES 9). A setting that does not belong to the chosen game is kept
    but has no effect (RULES 9: ``penalty_mode`` is for sports only, and so are ``format``,
    ``deals``, ``direction``, ``next_lead``, ``deal_points``, ``fish_tie``, ``false_pass_award``;
    the Goat settings mean nothing in sports). ``target``, ``opening``, ``teams`` and ``standings``
    left out take the default of the game (:data:`GAME_DEFAULTS`).
    """

    # 9: the game
    game: Game = Game.SPORTS
    # 5: how a partition ends
    format: Format = Format.TARGET
    target: int = _BY_GAME  # sports and points 200, Sea Goat 125
    deals: int = 8  # fixed-deals format: a multiple of 4
    partition_minutes: int = 40
    no_show_minutes: int = 5
    no_show_points: int | None = None  # None: the target
    # 3, 4: play and deal scoring
    direction: Direction = Direction.COUNTER_CLOCKWISE
    next_lead: NextLead = NextLead.ROTATION
    deal_points: DealPoints = DealPoints.ALL_HANDS
    fish_tie: FishTie = FishTie.NOBODY
    # 6: move timing, seconds
    time_single: int = 5
    time_several: int = 20
    time_fish: int = 60
    time_pass: int = 5
    repeat_scope: RepeatScope = RepeatScope.PLAYER_PARTITION
    # 7: penalties
    penalty_points: int = 25
    penalty_mode: PenaltyMode = PenaltyMode.AWARD_OPPONENTS
    false_pass_award: FalsePassAward = FalsePassAward.NONE
    penalties_to_forfeit: int | None = None
    # 8: tournament scoring
    win_points: int = 1
    bye_points: int | None = None  # None: win_points
    standings: tuple[str, ...] = _BY_GAME  # sports: the first five of STANDINGS_METRICS
    # 9.1 Goat (and 9.2 Sea Goat, which plays as Goat unless said otherwise)
    players: int = 4  # at a table: 2 to 4; of a tournament, its largest table
    teams: bool = _BY_GAME  # 4 players in two pairs; Goat False, Sea Goat True
    bazaar_keep: int = 0  # tiles of the bazaar never drawn (as many as there are, if fewer)
    fish: FishCharge = FishCharge.FOR_ALL
    opening: int = _BY_GAME  # 0 = off; Goat 13, Sea Goat 25
    lose_at: int = 101
    zero_alone: int = 25  # a hand of 0-0 alone (the online rules: 10)
    six_alone: int = 50  # a hand of 6-6 alone
    move_timeout: MoveTimeout = MoveTimeout.WARNING
    games_per_tour: int = 1  # Goat, Sea Goat and points: the games a table plays in a tour
    # 9.2 Sea Goat
    reset_others: bool = True
    # 9 points: who wins once a unit reaches the target
    points_win: PointsWin = PointsWin.HIGHEST

    #: The values of each choice setting, plain strings (forms and serializers make choices of them).
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        name: tuple(member.value for member in choice) for name, choice in _CHOICE_TYPES.items()
    }
    #: Inclusive bounds of the whole-number settings (None: no upper bound).
    BOUNDS: ClassVar[dict[str, tuple[int, int | None]]] = {
        "target": (1, 10_000),
        "deals": (4, 400),
        "partition_minutes": (30, 50),
        "no_show_minutes": (1, 60),
        "no_show_points": (0, 10_000),
        "time_single": (1, 600),
        "time_several": (1, 600),
        "time_fish": (1, 600),
        "time_pass": (1, 600),
        "penalty_points": (1, 10_000),
        "penalties_to_forfeit": (1, 100),
        "win_points": (1, 100),
        "bye_points": (0, 10_000),
        "players": (2, 4),
        "bazaar_keep": (0, 13),
        "opening": (0, 1_000),
        "lose_at": (1, 10_000),
        "zero_alone": (0, 1_000),
        "six_alone": (0, 1_000),
        "games_per_tour": (1, 100),
    }
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"no_show_points", "penalties_to_forfeit", "bye_points"})
    #: The settings that are true or false.
    FLAGS: ClassVar[tuple[str, ...]] = ("teams", "reset_others")

    def __post_init__(self) -> None:
        game = self.game
        if game not in self.CHOICES["game"]:
            self._fail("game", gettext_noop("must be one of %(choices)s, got %(value)s"),
                       choices=", ".join(self.CHOICES["game"]), value=repr(game))
        for name, default in GAME_DEFAULTS[Game(game)].items():
            if getattr(self, name) is _BY_GAME:
                object.__setattr__(self, name, default)
        for name, choices in self.CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                self._fail(name, gettext_noop("must be one of %(choices)s, got %(value)s"), choices=", ".join(choices),
                           value=repr(value))
            object.__setattr__(self, name, _CHOICE_TYPES[name](value))
        for name, (low, high) in self.BOUNDS.items():
            value = getattr(self, name)
            if value is None and name in self.OPTIONAL:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                self._fail(name, gettext_noop("must be a whole number, got %(value)s"), value=repr(value))
            if value < low or (high is not None and value > high):
                self._fail(name, gettext_noop("must be from %(low)s to %(high)s, got %(value)s"), low=low, high=high, value=value)
        for name in self.FLAGS:
            if type(getattr(self, name)) is not bool:
                self._fail(name, gettext_noop("must be true or false, got %(value)s"), value=repr(getattr(self, name)))
        if self.deals % 4:
            self._fail("deals", gettext_noop("must be a multiple of 4 so that every seat leads equally, got %(value)s"),
                       value=self.deals)
        if self.game in (Game.GOAT, Game.SEA_GOAT, Game.POINTS) and self.teams and self.players != 4:
            self._fail("teams", gettext_noop("two pairs need 4 players, the regulations have %(players)s"),
                       players=self.players)
        standings = self.standings
        if isinstance(standings, str) or not all(isinstance(m, str) for m in standings):
            self._fail("standings", gettext_noop("must be a list of standings criteria"))
        known = STANDINGS_BY_GAME[Game(game)]
        unknown = [m for m in standings if m not in known]
        if unknown:
            self._fail("standings", gettext_noop("unknown criterion %(value)s; known: %(choices)s"), value=repr(unknown[0]),
                       choices=", ".join(known))
        if len(set(standings)) != len(standings) or not standings:
            self._fail("standings", gettext_noop("must name each criterion at most once, and at least one"))
        object.__setattr__(self, "standings", tuple(standings))

    @staticmethod
    def _fail(name: str, template: str, **params: object) -> NoReturn:
        raise RegulationsError(template, None, **params).at("regulations.%(key)s", key=name)

    @property
    def is_goat(self) -> bool:
        """Goat or Sea Goat (RULES 9.1, 9.2): deals with a bazaar, 2 to 4 seats."""
        return self.game in (Game.GOAT, Game.SEA_GOAT)

    def used(self, name: str) -> bool:
        """Whether setting ``name`` has an effect in the regulations' game (:data:`GAME_SETTINGS`)."""
        return name in GAME_SETTINGS[self.game]

    def at_table(self, players: int) -> Regulations:
        """These regulations at a table of ``players`` (RULES 9.1: ``players`` is the largest table,
        and a tour may seat fewer at some tables)."""
        return dataclasses.replace(self, players=players)

    @property
    def no_show_award(self) -> int:
        """Points credited to the present pair on a no-show (RULES 5)."""
        return self.target if self.no_show_points is None else self.no_show_points

    @property
    def bye_award(self) -> int:
        """Tournament points of a bye (RULES 8); its domino points are 0:0."""
        return self.win_points if self.bye_points is None else self.bye_points

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Regulations:
        """Validated regulations; a missing key takes its default, an unknown key is an error."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RegulationsError(gettext_noop("must be an object of settings")).at("regulations")
        known = {f.name for f in dataclasses.fields(cls)}
        for key in data:
            if key not in known:
                cls._fail(key, gettext_noop("unknown setting %(value)s"), value=repr(key))
        values = dict(data)
        if "standings" in values and isinstance(values["standings"], list):
            values["standings"] = tuple(values["standings"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """Every setting, JSON-ready."""
        data = dataclasses.asdict(self)
        for name in _CHOICE_TYPES:
            data[name] = data[name].value
        data["standings"] = list(self.standings)
        return data

    def allowances(self) -> tuple[int, int, int, int]:
        """``(time_single, time_several, time_fish, time_pass)`` in seconds."""
        return self.time_single, self.time_several, self.time_fish, self.time_pass
