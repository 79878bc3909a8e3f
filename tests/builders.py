"""Small builders for tournament tests: real objects through the real services."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model

from scoring.models import Partition
from tournaments import services
from tournaments import tours
from tournaments.models import Tour, Tournament


def user(username: str, *, superuser: bool = False, staff: bool = False):
    User = get_user_model()
    if superuser:
        return User.objects.create_superuser(username, password="pw-" + username)
    return User.objects.create_user(username, password="pw-" + username, is_staff=staff)


def tournament(organiser, *, format: str = Tournament.Format.SWISS, pairs: int = 0, slug: str = "cup",
               regulations: dict | None = None) -> Tournament:
    t = services.create_tournament(organiser, name="Кубок клуба", slug=slug, format=format,
                                   starts_on=datetime.date(2026, 11, 21), ends_on=datetime.date(2026, 11, 22),
                                   regulations=regulations)
    for n in range(1, pairs + 1):
        services.register_pair(organiser, t, {"last_name": f"Игрок{n}а"}, {"last_name": f"Игрок{n}б"})
    return t


def finish_tour(tour: Tour, results: dict[int, tuple[int, int]] | None = None) -> None:
    """Write a result into every partition of ``tour`` (table number -> points A, B; by default
    pair A wins 200:100) and finish the tour, as the recording issue's services will."""
    for table in tour.tables.select_related("partition"):
        a, b = (results or {}).get(table.number, (200, 100))
        Partition.objects.filter(pk=table.partition.pk).update(
            status=Partition.Status.FINISHED, points_a=a, points_b=b, winner="A" if a > b else "B", reason="target")
    tour.status = Tour.Status.FINISHED
    tour.save(update_fields=["status"])


def refereed_tour(target: int = 100) -> dict:
    """Tour 1 of four pairs (two tables) published: ``ref`` referees table 1, ``other`` table 2,
    ``chief`` is the chief referee, ``org`` the organiser."""
    org = user("org", superuser=True)
    ref, other, chief = user("ref"), user("other"), user("chief")
    t = tournament(org, pairs=4, regulations={"target": target})
    for name, kind in (("ref", "referee"), ("other", "referee"), ("chief", "chief_referee")):
        services.add_role(org, t, name, kind)
    tour = tours.generate_tour(org, t)
    # Pairs 1-2 and 3-4, as the tests read them (the Swiss draw would seat 1-3 and 2-4).
    pairs = dict(t.pairs.values_list("number", "pk"))
    tours.set_tables(org, tour, [(pairs[1], pairs[2]), (pairs[3], pairs[4])])
    tables = list(tour.tables.order_by("number"))
    services.assign_referee(org, tables[0], ref)
    services.assign_referee(org, tables[1], other)
    tours.publish_tour(org, tour)
    return {"org": org, "ref": ref, "other": other, "chief": chief, "t": t, "tournament": t, "tour": tour,
            "table": tables[0], "table2": tables[1], "p1": tables[0].partition, "p2": tables[1].partition}
