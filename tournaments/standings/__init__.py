"""Standings of pairs and players (RULES 8), ordered by the tournament's precedence of metrics:
the metric classes (:mod:`.metrics`), the sums from the database (:mod:`.compute`) and the one
table every page, file and protocol shows (:mod:`.table`); the clubs' team standings (:mod:`.teams`)."""

from .compute import pair_standings, player_standings, withdrawals
from .metrics import GOAT_METRICS, METRICS, SEA_GOAT_METRICS, Metric, Row, metrics_of, rank
from .table import KINDS, Column, Line, StandingsTable, columns, standings_table
from .teams import TeamLine, TeamStandings, team_standings

__all__ = ["GOAT_METRICS", "KINDS", "METRICS", "SEA_GOAT_METRICS", "Column", "Line", "Metric", "Row", "StandingsTable",
           "TeamLine", "TeamStandings", "columns", "metrics_of", "pair_standings", "player_standings", "rank",
           "standings_table", "team_standings", "withdrawals"]
