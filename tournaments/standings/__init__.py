"""Standings of pairs and players (RULES 8), ordered by the tournament's precedence of metrics:
the metric classes (:mod:`.metrics`), the sums from the database (:mod:`.compute`) and the one
table every page, file and protocol shows (:mod:`.table`)."""

from .compute import pair_standings, player_standings
from .metrics import METRICS, Metric, Row, rank
from .table import KINDS, Column, Line, StandingsTable, columns, standings_table

__all__ = ["KINDS", "METRICS", "Column", "Line", "Metric", "Row", "StandingsTable", "columns", "pair_standings",
           "player_standings", "rank", "standings_table"]
