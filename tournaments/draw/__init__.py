"""Pairing (draw) algorithms for the tournament formats of RULES.md section 8, and
the Goat draw of section 9.1.

Pure functions over plain values: callers pass ids, standings and histories, and store the
result themselves. Every invalid input raises :class:`DrawError`.
"""

from .errors import DrawError, Problem
from .goat import GoatDraw, goat_tour, table_sizes
from .individual import IndividualDraw, individual_tour
from .manual import validate_manual
from .round_robin import berger_schedule, round_robin_tour, tour_count
from .seeding import Seeded, seeding_order
from .swiss import SwissDraw, SwissEntrant, swiss_first_tour, swiss_tour

__all__ = [
    "DrawError",
    "GoatDraw",
    "IndividualDraw",
    "Problem",
    "Seeded",
    "SwissDraw",
    "SwissEntrant",
    "berger_schedule",
    "goat_tour",
    "individual_tour",
    "round_robin_tour",
    "seeding_order",
    "swiss_first_tour",
    "swiss_tour",
    "table_sizes",
    "tour_count",
    "validate_manual",
]
