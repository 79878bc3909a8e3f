"""The paper before a tour: each table's blank protocol, filled in by hand at the table and entered
on the score sheet afterwards, and the seating list for the wall. Both in Russian on A4, like the
protocols (:mod:`.rendering`).

A table's form depends on its game (:data:`FORMS`): a sports partition has deal rows with each
pair's points and running totals; a Goat, Sea Goat or points table has, game by game, the deal
rows with each seat's hand value and running total.

A large tour's forms are laid out by a worker (:func:`tour_forms` with ``laid_out``, sent by
:mod:`.batches`), chunk by chunk, then joined into one PDF."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.engine import Family, Parts, Regulations, kind_of
from tournaments import permissions
from tournaments.models import Table, Tour

from scoring.protocols import rendering, sheets
from tournaments.names import person_name
from tournaments.permissions import AnyUser

#: Empty deal rows of a sports partition: a long partition to 200 rarely lasts more than 20 deals.
SPORTS_ROWS = 24
#: Empty deal rows of each game of a Goat or points table (a page holds two games).
SITTING_ROWS = 14
#: Empty rows of the penalties and violations section.
PENALTY_ROWS = 5
#: A tour of at most this many tables gets its forms in the request (a few seconds); a larger
#: one is laid out by a Celery worker while its page shows the progress (:mod:`.batches`).
DIRECT_TABLES = 16
#: Tables laid out in one WeasyPrint document: the progress moves after each such chunk.
CHUNK_TABLES = 8


@dataclass(frozen=True)
class Form:
    """A game's paper form: its template (in ``templates/protocols/paper/``) and the context of
    one table's form beyond what every form has."""

    template: str
    context: Callable[[Table, Regulations], dict[str, Any]]


def _sports(table: Table, rules: Regulations) -> dict[str, Any]:
    seats = _seats(table)
    # Pair A at seats 1 and 3, pair B at 2 and 4 (in an individual tour, no pairs: just seats).
    return {"sides": [(table.pair_a, seats[0::2]), (table.pair_b, seats[1::2])], "rows": range(1, SPORTS_ROWS + 1)}


def _sitting(table: Table, rules: Regulations) -> dict[str, Any]:
    return {"games": range(1, rules.games_per_tour + 1), "rows": range(1, SITTING_ROWS + 1)}


SITTING = Form("protocols/paper/sitting.html", _sitting)
#: The paper form of a table by the game its tournament plays.
FORMS: Parts[Form] = Parts({Family.PARTITION: Form("protocols/paper/sports.html", _sports), Family.TILES: SITTING,
                            Family.POINTS: SITTING})


def _tables(tour: Tour) -> list[Table]:
    return list(tour.tables.select_related(
        "referee", "pair_a", "pair_b", "seat1", "seat2", "seat3", "seat4").order_by("number"))


def _seats(table: Table) -> list[dict[str, Any]]:
    """Each player by seat, with his pair's start number at a table of pairs (seats 1 and 3 are
    pair A)."""
    pairs = (table.pair_a, table.pair_b) if table.pair_a_id else None
    return [{"seat": seat, "player": player, "pair": pairs[(seat - 1) % 2] if pairs else None}
            for seat, player in enumerate(table.players, 1)]


def _sheet_url(base_url: str, table: Table) -> str:
    return base_url.rstrip("/") + reverse("sheet", args=[table.tour.tournament.slug, table.tour.number,
                                                         table.number])


def _forms_chunks(tour: Tour, tables: list[Table], base_url: str) -> list[tuple[int, str]]:
    """The HTML of the forms of ``tables``, :data:`CHUNK_TABLES` tables a document, each with its
    number of tables."""
    tournament = tour.tournament
    rules = tournament.rules
    form = FORMS.of(kind_of(rules))
    forms = []
    for table in tables:
        url = _sheet_url(base_url, table)
        forms.append({"table": table, "seats": _seats(table), "referee_name": person_name(table.referee),
                      "sheet_url": url, "qr": rendering.qr_svg(url, scale=2), **form.context(table, rules)})
    context = {"tournament": tournament, "tour": tour, "rules": rules, "form_template": form.template,
               "penalty_rows": range(1, PENALTY_ROWS + 1)}
    return [(len(chunk), rendering.document_html("protocols/paper/forms.html", {**context, "forms": chunk}))
            for chunk in (forms[i:i + CHUNK_TABLES] for i in range(0, len(forms), CHUNK_TABLES))]


def _snapshot(tour: Tour, tables: list[Table], base_url: str) -> str:
    seats = [(table.number, person_name(table.referee),
              [(s["seat"], s["player"].pk, str(s["player"]), s["pair"].number if s["pair"] else None)
               for s in _seats(table)]) for table in tables]
    return sheets.snapshot_of("paper", tour.pk, tour.tournament.name, tour.number, tour.planned_start,
                              tour.tournament.rules.to_dict(), base_url, seats)


def forms_snapshot(tour: Tour, *, base_url: str) -> str:
    """The state of the paper of ``tour``: a hash of what its forms print (the tables, their
    seats, players, pairs and referees, the rules, the planned start, the site's address), one
    query, however many tables."""
    return _snapshot(tour, _tables(tour), base_url)


def tour_forms(user: AnyUser, tour: Tour, *, base_url: str, snapshot: str | None = None,
               laid_out: Callable[[int], None] | None = None) -> bytes:
    """One PDF of the blank paper protocols of every table of ``tour``, a page (or more) each.
    The tour's staff only. ``snapshot``: only if the forms are still those of that state (else
    a ValidationError, code ``changed``); ``laid_out``: told the number of tables laid out so far
    after each chunk of them (a worker's progress)."""
    permissions.require_staff(user, tour.tournament)
    tables = _tables(tour)
    if not tables:
        raise ValidationError(_("The tour has no tables."))
    if snapshot is not None and _snapshot(tour, tables, base_url) != snapshot:
        raise ValidationError(_("The tour changed since its paper was asked for."), code="changed")
    chunks = _forms_chunks(tour, tables, base_url)
    done = 0

    def counted(index: int) -> None:
        nonlocal done
        done += chunks[index][0]
        if laid_out is not None:
            laid_out(done)

    return rendering.render_joined_pdf([html for _count, html in chunks], laid_out=counted)


def seating_list(user: AnyUser, tour: Tour) -> bytes:
    """The seating list of ``tour`` for the wall: by table, then every player alphabetically with
    his table and seat. The pairs with a bye (the players sitting out, in an individual tour) are
    listed too, so that every entrant finds his name. The tour's staff only."""
    permissions.require_staff(user, tour.tournament)
    tables = [(table, _seats(table)) for table in _tables(tour)]
    byes = list(tour.byes.select_related("pair__first", "pair__second").order_by("pair__number"))
    sit_outs = [s.player for s in tour.sit_outs.select_related("player")]
    resting = [{"player": player, "table": None, "seat": None}
               for player in [p for bye in byes for p in bye.pair.players] + sit_outs]
    players = sorted([{"player": seat["player"], "table": table, "seat": seat["seat"]}
                      for table, seats in tables for seat in seats] + resting,
                     key=lambda p: (str(p["player"]).casefold(), p["table"].number if p["table"] else 0))
    return rendering.render_document("protocols/paper/seating.html", {
        "tournament": tour.tournament, "tour": tour, "players": players, "byes": byes, "sit_outs": sit_outs,
        "tables": [{"table": table, "seats": seats} for table, seats in tables]})
