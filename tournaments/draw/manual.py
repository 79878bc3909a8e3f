"""Checks for a tour the organiser seats by hand."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .errors import DrawError

_SEATS = ("seats 1 and 3", "seats 2 and 4")


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
    placed: dict[int, list[str]] = {}

    def place(pair_id: int, where: str, what: str) -> None:
        if pair_id in withdrawn:
            problems.append(f"{what}: pair {pair_id} has withdrawn.")
        elif pair_id not in eligible:
            problems.append(f"{what}: pair {pair_id} is not registered in this tournament.")
        places = placed.setdefault(pair_id, [])
        if where not in places:
            places.append(where)

    for number, seats in enumerate(tables, start=1):
        where = f"table {number}"
        what = f"Table {number}"
        for pair_id, seat in zip(seats, _SEATS):
            if pair_id is None:
                problems.append(f"{what}: {seat} are empty.")
            else:
                place(pair_id, where, what)
        if seats[0] is not None and seats[0] == seats[1]:
            problems.append(f"{what}: pair {seats[0]} is seated against itself.")
    if bye is not None:
        place(bye, "the bye", "The bye")

    problems.extend(
        f"Pair {pair_id} is seated more than once: {', '.join(places)}."
        for pair_id, places in placed.items()
        if len(places) > 1
    )
    problems.extend(
        f"Pair {pair_id} is neither seated nor given the bye."
        for pair_id in sorted(eligible - placed.keys())
    )
    if problems:
        raise DrawError(*problems)
    # No seat is empty by now; the condition only tells the type checker so.
    return tuple((a, b) for a, b in tables if a is not None and b is not None)
