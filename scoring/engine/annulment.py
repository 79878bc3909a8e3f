"""The annulment of a violation (RULES 6), shared by the event-sourced games that record
violations: :class:`~scoring.engine.partition.Partition` and
:class:`~scoring.engine.goat.GoatGame`."""

from __future__ import annotations

from typing import Any, Mapping

from .errors import PartitionError, RulesError, gettext_noop
from .events import EventSourced, S

__all__ = ["Annulments"]


class Annulments(EventSourced[S]):
    """A game whose events may include violations, replayed from its events: an ``annul`` event
    marks one violation as justified and replays the game without it. Refused, with the game as
    it was, when the replay breaks (a later event no longer fits). The deal being played
    (``current``) stays through a replay."""

    current: Any  # the deal being played move by move, if any

    def __init__(self) -> None:
        self._annulled: dict[int, str] = {}  # violation id -> reason
        super().__init__()

    def _replay(self) -> None:
        current, self.current = self.current, None
        try:
            super()._replay()
        finally:
            self.current = current

    def _on_annul(self, event: Mapping[str, Any]) -> None:
        vid, reason = event.get("violation"), event.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise PartitionError(gettext_noop("an annulment needs a reason"))
        if self._replaying:
            return
        if not (type(vid) is int and 0 <= vid < self._index and self.events[vid]["type"] == "violation"):
            raise PartitionError(gettext_noop("no violation %(id)s to annul"), id=repr(vid))
        if vid in self._annulled:
            raise PartitionError(gettext_noop("violation %(id)s is already annulled"), id=vid)
        self._annulled[vid] = reason
        try:
            self._replay()
        except RulesError:
            del self._annulled[vid]
            self._replay()
            raise
