"""A tournament whose first tour is published with a referee at each table."""

import pytest

from scoring import documents
from tournaments import services as tournament_services

from builders import tournament, user
from protocols_world import PINS


@pytest.fixture
def world(db):
    """Tour 1 of a pair event (4 pairs, 2 tables) published: ``ref`` referees table 1, ``other``
    table 2, ``chief`` is chief referee; every player of table 1 has his PIN."""
    org = user("org", superuser=True)
    ref, other, chief = user("ref"), user("other"), user("chief")
    t = tournament(org, pairs=4, regulations={"target": 200})
    t.venue = "Москва, клуб «Рыба»"
    t.save(update_fields=["venue"])
    for name, kind in (("ref", "referee"), ("other", "referee"), ("chief", "chief_referee")):
        tournament_services.add_role(org, t, name, kind)
    tour = tournament_services.generate_tour(org, t)
    tables = list(tour.tables.order_by("number"))
    tournament_services.assign_referee(org, tables[0], ref)
    tournament_services.assign_referee(org, tables[1], other)
    tournament_services.publish_tour(org, tour)
    for seat, player in enumerate(tables[0].seats, 1):
        documents.set_pin(org, player.pk, PINS[seat])
    return {"org": org, "ref": ref, "other": other, "chief": chief, "tournament": t, "tour": tour,
            "table": tables[0], "table2": tables[1], "p1": tables[0].partition, "p2": tables[1].partition}

