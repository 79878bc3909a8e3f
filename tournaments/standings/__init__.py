"""Standings of pairs and players (RULES 8), ordered by the tournament's precedence of metrics:
the metric classes (:mod:`.metrics`), the sums from the database (:mod:`.compute`), the one
table every page, file and protocol shows (:mod:`.table`), the crosstable built on it
(:mod:`.crosstable`) and both as spreadsheets (:mod:`.xlsx`); the clubs' team standings (:mod:`.teams`)."""

from .compute import pair_standings, player_standings, withdrawals
from .crosstable import Cell, CrossLine, Crosstable, Result, crosstable
from .metrics import GOAT_METRICS, METRICS, SEA_GOAT_METRICS, Metric, Row, metrics_of, rank
from .table import KINDS, Column, Line, StandingsTable, columns, standings_table
from .teams import TeamLine, TeamStandings, team_standings
from .xlsx import crosstable_xlsx, standings_xlsx

__all__ = ["GOAT_METRICS", "KINDS", "METRICS", "SEA_GOAT_METRICS", "Cell", "Column", "CrossLine", "Crosstable", "Line",
           "Metric", "Result", "Row", "StandingsTable", "TeamLine", "TeamStandings", "columns", "crosstable",
           "crosstable_xlsx", "metrics_of", "pair_standings", "player_standings", "rank", "standings_table",
           "standings_xlsx", "team_standings", "withdrawals"]
