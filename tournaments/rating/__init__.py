"""Ratings of the players by game family (sports, Goat, Sea Goat): OpenSkill's Plackett-Luce
model over every rated partition and sitting (README, "Ratings"). The per-game readings are
:data:`.games.GAMES`; the recomputation :mod:`.compute`; a player's history and its chart
:mod:`.history`."""

from .compute import MODEL, family_of, newcomer, player_ratings, refresh, refresh_all, results, shown
from .games import GAMES, RatedGame
from .history import FamilyHistory, Point, rating_history

__all__ = ["GAMES", "MODEL", "FamilyHistory", "Point", "RatedGame", "family_of", "newcomer", "player_ratings",
           "rating_history", "refresh", "refresh_all", "results", "shown"]
