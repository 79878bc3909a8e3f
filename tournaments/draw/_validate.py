"""Input checks shared by the draws; each failure is a DrawError an organiser can read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from .errors import DrawError


def require_unique(ids: Sequence[int], what: str) -> None:
    """Refuse a list that names the same participant twice."""
    duplicates = sorted(i for i, times in Counter(ids).items() if times > 1)
    if duplicates:
        raise DrawError(*(f"{what} {i} is listed more than once." for i in duplicates))


def require_known_pairs(
    history: Iterable[frozenset[int]], known: set[int], what: str, label: str
) -> None:
    """Refuse history entries that are not two distinct known participants.

    An unknown id usually means the caller mixed up ids (players for pairs) or forgot to drop
    a withdrawn participant's history, so it is better to stop than to pair blindly.
    """
    problems = []
    for entry in history:
        members = sorted(entry)
        if len(members) != 2:
            problems.append(f"{what} entry {members} must name exactly two different {label}s.")
        else:
            problems.extend(
                f"{what} names {label} {i}, who is not in this draw."
                for i in members
                if i not in known
            )
    if problems:
        raise DrawError(*problems)


def require_known(ids: Iterable[int], known: set[int], what: str, label: str) -> None:
    """Refuse ids that are not among the participants of the draw."""
    unknown = sorted(set(ids) - known)
    if unknown:
        raise DrawError(*(f"{what} names {label} {i}, who is not in this draw." for i in unknown))


def require_scores(scores: Mapping[int, int], known: set[int]) -> None:
    """Refuse scores of unknown players, a player without a score, or a score not a whole number."""
    require_known(scores, known, "The scores", "player")
    problems = [f"Player {p} has no score." for p in sorted(known - scores.keys())]
    problems.extend(
        f"Player {p} has score {s!r}; scores must be whole numbers."
        for p, s in scores.items()
        if not isinstance(s, int)
    )
    if problems:
        raise DrawError(*problems)
