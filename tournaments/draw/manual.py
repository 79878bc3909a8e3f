"""Checks for a tour the organiser seats by hand."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .errors import DrawError, Problem, gettext_noop

_SEATS = (Problem(gettext_noop("seats 1 and 3")), Problem(gettext_noop("seats 2 and 4")))


def validate_manual(
    tables: Sequence[tuple[int | None, int | None]],
    eligible_pair_ids: Collection[int],
    *,
    withdrawn_pair_ids: Collection[int] = (),
    bye: int | None = None,
) -> tuple[tuple[int, int], ...]:
    """Return ``tables`` unchanged if the seating is sound, else raise one DrawError naming
    every problem.

    ``tables`` are (pair in seats 1-3, pair in seats 2-4), table 1 first, None for a seat left
    empty. ``eligible_pair_ids`` are the pairs that must play this tour; ``withdrawn_pair_ids``
    only sharpen the message for a pair that is no longer eligible. ``bye`` is the pair the
    organiser sends to rest with a bye, if any. Every eligible pair must be seated or have the
    bye: a forgotten pair is as much a mistake as a duplicated one.
    """
    eligible = set(eligible_pair_ids)
    withdrawn = set(withdrawn_pair_ids)
    problems: list[str] = []
    placed: dict[int, list[Problem]] = {}

    def place(pair_id: int, where: Problem, what: Problem) -> None:
        if pair_id in withdrawn:
            problems.append(Problem(gettext_noop("%(what)s: pair %(pair)s has withdrawn."), what=what, pair=pair_id))
        elif pair_id not in eligible:
            problems.append(Problem(gettext_noop("%(what)s: pair %(pair)s is not registered in this tournament."),
                                    what=what, pair=pair_id))
        places = placed.setdefault(pair_id, [])
        if where not in places:
            places.append(where)

    for number, seats in enumerate(tables, start=1):
        where = Problem(gettext_noop("table %(table)s"), table=number)
        what = Problem(gettext_noop("Table %(table)s"), table=number)
        for pair_id, seat in zip(seats, _SEATS):
            if pair_id is None:
                problems.append(Problem(gettext_noop("%(what)s: %(seats)s are empty."), what=what, seats=seat))
            else:
                place(pair_id, where, what)
        if seats[0] is not None and seats[0] == seats[1]:
            problems.append(Problem(gettext_noop("%(what)s: pair %(pair)s is seated against itself."),
                                    what=what, pair=seats[0]))
    if bye is not None:
        place(bye, Problem(gettext_noop("the bye")), Problem(gettext_noop("The bye")))

    problems.extend(
        Problem(gettext_noop("Pair %(pair)s is seated more than once: %(places)s."), pair=pair_id, places=tuple(places))
        for pair_id, places in placed.items()
        if len(places) > 1
    )
    problems.extend(
        Problem(gettext_noop("Pair %(pair)s is neither seated nor given the bye."), pair=pair_id)
        for pair_id in sorted(eligible - placed.keys())
    )
    if problems:
        raise DrawError(*problems)
    # No seat is empty by now; the condition only tells the type checker so.
    return tuple((a, b) for a, b in tables if a is not None and b is not None)
