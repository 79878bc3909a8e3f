"""The sports-domino rules engine: plain Python, no Django (shared/RULES.md sections 2 to 7).

- :mod:`.tiles`: immutable interned :class:`Tile` objects and the bit masks the engine uses;
- :mod:`.deal`: :class:`Deal`, the line with two open ends, legal moves, domino and fish, the
  move-time allowance;
- :mod:`.rules`: the scoring rules, one function per rule;
- :mod:`.partition`: :class:`Partition`, an event-sourced partition to the target or until time;
- :mod:`.regulations`: :class:`Regulations`, the validated settings with RULES.md's defaults;
- :mod:`.protocol`: the ``domino-protocol/1`` interchange format;
- :mod:`.simulate`: random legal play, for tests, benchmarks and demo data.
"""

from .deal import LEFT, RIGHT, Deal, DealOutcome, Move, deal_hands, pair_of
from .errors import IllegalMove, PartitionError, ProtocolError, RegulationsError, RulesError
from .partition import Decision, DealRecord, Partition, PenaltyRecord, Status, ViolationRecord
from .protocol import read_protocol, result_of, score_protocol, write_protocol
from .regulations import Regulations
from .tiles import TILES, Tile

__all__ = [
    "LEFT", "RIGHT", "Deal", "DealOutcome", "Move", "deal_hands", "pair_of",
    "IllegalMove", "PartitionError", "ProtocolError", "RegulationsError", "RulesError",
    "Decision", "DealRecord", "Partition", "PenaltyRecord", "Status", "ViolationRecord",
    "read_protocol", "result_of", "score_protocol", "write_protocol",
    "Regulations", "TILES", "Tile",
]
