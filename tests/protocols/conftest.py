"""A tournament whose first tour is published with a referee at each table."""

import pytest

from scoring import protocols

from builders import refereed_tour
from protocols_world import PINS


@pytest.fixture
def world(db):
    """Tour 1 of a pair event (4 pairs, 2 tables) published: ``ref`` referees table 1, ``other``
    table 2, ``chief`` is chief referee; every player of table 1 has his PIN."""
    world = refereed_tour(target=200)
    world["tournament"].venue = "Москва, клуб «Рыба»"
    world["tournament"].save(update_fields=["venue"])
    for seat, player in enumerate(world["table"].seats, 1):
        protocols.set_pin(world["org"], player.pk, PINS[seat])
    return world

