"""Standings of pairs and players (RULES 8), ordered by the tournament's precedence of metrics:
the metric classes (:mod:`.metrics`), the sums from the database (:mod:`.compute`) and the one
table every page, file and protocol shows (:mod:`.table`)."""

from .compute import pair_standings, player_standings, withdrawals
from .metrics import GOAT_METRICS, METRICS, SEA_GOAT_METRICS, Metric, Row, metrics_of, rank
from .table import KINDS, Column, Line, StandingsTable, columns, standings_table

__all__ = ["GOAT_METRICS", "KINDS", "METRICS", "SEA_GOAT_METRICS", "Column", "Line", "Metric", "Row", "StandingsTable",
           "columns", "metrics_of", "pair_standings", "player_standings", "rank", "standings_table", "withdrawals"]
