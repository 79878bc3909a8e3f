"""The rules engine: plain Python, no Django (docs/RULES.md sections 2 to 7, and 9).

- :mod:`.vocabulary`: the words of the game as named types: :data:`Seat`, :class:`Pair`,
  :class:`Side`, :class:`DealEnd`, :class:`ViolationCode`, :class:`Reason`, ... (``StrEnum``
  members equal to, and written as, the plain strings);
- :mod:`.tiles`: immutable interned :class:`Tile` objects and the bit masks the engine uses
  (:data:`TileIndex`, :data:`TileMask`);
- :mod:`.deal`: :class:`Deal`, the line with two open ends, legal moves, domino and fish, the
  move-time allowance;
- :mod:`.rules`: the scoring rules, one function per rule, and the lists of codes;
- :mod:`.events`: the event sourcing the games share (``EventSourced``: an event kept only when it
  applies, replay, the stored events, the clock running out), with the annulment of a violation
  in :mod:`.annulment`;
- :mod:`.partition`: :class:`Partition`, an event-sourced partition to the target or until time;
- :mod:`.regulations`: :class:`Regulations`, the validated settings with RULES.md's defaults, and
  an enum for each choice setting;
- :mod:`.goat_deal` and :mod:`.goat`: Goat and Sea Goat (RULES 9.1, 9.2): :class:`GoatDeal` (a
  bazaar, 2 to 4 players) and :class:`GoatGame`; their scoring rules in :mod:`.goat_rules`;
  :class:`GoatSitting`, the ``games_per_tour`` games of one table in one tour
  (:mod:`.goat_sitting`, on :class:`Sitting` of :mod:`.sitting`);
- :mod:`.points`: :class:`PointsGame`, any other game scored by hand (RULES 9.3), and its
  :class:`PointsSitting`;
- :mod:`.outcome`: :class:`Outcome`, the one result every kind of game gives (``outcome()``: the
  table's units, each one's rank, the reason), derived from each kind's own :class:`Decision`,
  :class:`GameDecision`, :class:`GameResult` or :class:`SittingTotals`;
- :mod:`.game`: :class:`TableGame`, what a table plays in one tour (a :class:`Partition`, a
  :class:`GoatSitting` or a :class:`PointsSitting`), and :func:`new_table_game`;
- :mod:`.protocol`: the ``domino-protocol/1`` interchange format (:mod:`.goat_protocol` for the
  games of RULES 9): a document describes a :data:`ProtocolGame`, a partition or one game;
- :mod:`.kinds`: the game kinds, what each game of the regulations is, said once
  (:class:`Kind`, :data:`KINDS`, :func:`kind_of`), and :class:`Parts`, what a floor above does
  for each family of them;
- :mod:`.simulate`: random legal play, for tests, benchmarks and demo data.

The package is checked with ``mypy --strict`` (``make test``).
"""

from .deal import LEFT, RIGHT, SEATS, Deal, DealOutcome, Move, deal_hands, pair_of, partner_of, seats_of
from .errors import HandError, IllegalMove, PartitionError, ProtocolError, RegulationsError, RulesError
from .goat import GameDecision, GamePenalty, GameResult, GoatDealRecord, GoatGame
from .goat_deal import GoatDeal, GoatMove, GoatOutcome
from .game import TableGame, new_table_game
from .goat_rules import seats_of_unit, unit_index, units_of
from .goat_sitting import GoatSitting
from .kinds import KINDS, Family, Kind, Parts, kind_of
from .outcome import Outcome
from .partition import Awaited, Decision, DealRecord, Partition, PenaltyRecord, Status, ViolationRecord
from .points import PointsDealRecord, PointsGame, PointsSitting
from .protocol import ProtocolGame, read_protocol, result_of, score_protocol, write_protocol
from .regulations import (DealPoints, Direction, FalsePassAward, FishCharge, FishTie, Format, Game, MoveTimeout, NextLead,
                          PenaltyMode, PointsWin, Regulations, RepeatScope)
from .rules import DEAL_ENDS, PENALTY_CODES, RESTART_CODES, VIOLATION_CODES, other_pair
from .sitting import Sitting, SittingTotals
from .tiles import TILES, Number, Tile, TileIndex, TileMask
from .vocabulary import (Absent, Consequence, DealEnd, Expiry, GameReason, GoatEnd, Mark, Next, Pair, Reason, Seat, Side,
                         Unit, ViolationCode)

__all__ = [
    "LEFT", "RIGHT", "SEATS", "Deal", "DealOutcome", "Move", "deal_hands", "pair_of", "partner_of", "seats_of",
    "HandError", "IllegalMove", "PartitionError", "ProtocolError", "RegulationsError", "RulesError",
    "Awaited", "Decision", "DealRecord", "Partition", "PenaltyRecord", "Status", "ViolationRecord",
    "read_protocol", "result_of", "score_protocol", "write_protocol",
    "Regulations", "Format", "Direction", "NextLead", "DealPoints", "FishTie", "RepeatScope", "PenaltyMode",
    "FalsePassAward",
    "DEAL_ENDS", "VIOLATION_CODES", "PENALTY_CODES", "RESTART_CODES", "other_pair",
    "TILES", "Tile", "TileIndex", "TileMask", "Number",
    "Seat", "Pair", "Side", "DealEnd", "Mark", "ViolationCode", "Consequence", "Reason", "Next", "Absent",
    "Expiry",
    "Game", "FishCharge", "MoveTimeout", "PointsWin", "Unit", "GoatEnd", "GameReason",
    "GoatDeal", "GoatMove", "GoatOutcome", "GoatGame", "GoatDealRecord", "GamePenalty", "GameDecision", "GameResult",
    "PointsGame", "PointsDealRecord", "units_of", "unit_index", "seats_of_unit", "ProtocolGame", "GoatSitting",
    "PointsSitting", "Sitting", "SittingTotals", "Outcome", "TableGame", "new_table_game",
    "KINDS", "Family", "Kind", "Parts", "kind_of",
]
