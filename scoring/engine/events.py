"""Event sourcing, shared by the games: :class:`~scoring.engine.partition.Partition`,
:class:`~scoring.engine.goat.GoatGame` and :class:`~scoring.engine.points.PointsGame`.

Every call that records something appends one event (a JSON-ready dict whose ``"type"`` names
its handler, ``_on_<type>``); the state is a function of the events, so a game is stored as its
events and replayed from them.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Generic, Iterable, Mapping, Protocol, TypeVar, runtime_checkable

from .errors import PartitionError, RulesError, gettext_noop
from .vocabulary import Expiry

__all__ = ["EventSourced"]


class _TimedState(Protocol):
    """What the clock running out reads and sets in a game's state."""

    deals: list[Any]
    time_expired: tuple[Expiry, int] | None


@runtime_checkable
class _StoredDeal(Protocol):
    """A deal played move by move, kept in its event (``"deal"``) and stored by its ``to_dict()``."""

    def to_dict(self) -> dict[str, Any]: ...


#: The state a game derives from its events: a dataclass whose lists and dicts are its only
#: mutable parts.
S = TypeVar("S", bound=_TimedState)


class EventSourced(Generic[S]):
    """A game as its ``events``: an event is kept only when it applies without error (the state
    is then as it was), and :meth:`_replay` derives the state again from them."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self._index = 0  # index of the event being applied: a violation's id
        self._replaying = False  # the events are being applied again (_replay)
        self._state: S = self._fresh()

    def _fresh(self) -> S:
        """The state before the first event."""
        raise NotImplementedError

    def _check_open(self) -> None:
        """Refuse a record once the game is decided."""
        raise NotImplementedError

    def _decide(self) -> None:
        """Decide the game if it is over."""
        raise NotImplementedError

    @property
    def event_count(self) -> int:
        """How many events were recorded."""
        return len(self.events)

    def _event(self, event: dict[str, Any]) -> Any:
        """Apply an event; it is kept only when it applies without error (the state is restored)."""
        state = self._state
        before = copy.copy(state)
        for name, value in vars(state).items():
            if isinstance(value, (list, dict)):
                setattr(before, name, copy.copy(value))
        self._index = len(self.events)
        try:
            result = self._apply(event)
        except RulesError:
            self._state = before
            raise
        self.events.append(event)
        return result

    def _apply(self, event: Mapping[str, Any]) -> Any:
        handler = getattr(self, f"_on_{event.get('type')}", None)
        if handler is None:
            raise PartitionError(gettext_noop("unknown event %(type)s"), type=repr(event.get("type")))
        return handler(event)

    def _replay(self) -> None:
        """Apply every event again from the start."""
        self._state = self._fresh()
        self._replaying = True
        try:
            for self._index, event in enumerate(self.events):
                self._apply(event)
        finally:
            self._replaying = False

    def _record_stored(self, events: Iterable[Mapping[str, Any]],
                       restore: Callable[[int, dict[str, Any]], dict[str, Any]] | None = None) -> None:
        """Record stored events (``to_dict()["events"]``) one by one, each checked as it was when
        recorded, after ``restore(index, event)`` if given (index from 0); a refused one is named
        by its number (from 1)."""
        for k, event in enumerate(events, 1):
            try:
                self._event(dict(event) if restore is None else restore(k - 1, dict(event)))
            except RulesError as error:
                raise error.at(gettext_noop("event %(n)s"), n=k) from None

    def _stored_events(self) -> list[dict[str, Any]]:
        """The events, JSON-ready: a deal played move by move as its ``to_dict()``."""
        return [{k: v.to_dict() if k == "deal" and isinstance(v, _StoredDeal) else v for k, v in e.items()}
                for e in self.events]

    # -- the clock -----------------------------------------------------------------------------

    def expire_time(self, during_deal: bool) -> None:
        """The game's time limit ran out (RULES 5, 9), during a deal (it is the last) or between
        deals; :meth:`_decide` says what follows."""
        self._event({"type": "time", "during_deal": during_deal})

    def _on_time(self, event: Mapping[str, Any]) -> None:
        self._check_open()
        s, during_deal = self._state, event.get("during_deal")
        if type(during_deal) is not bool:
            raise PartitionError(gettext_noop("during_deal must be true or false, got %(value)s"), value=repr(during_deal))
        if s.time_expired is not None:
            raise PartitionError(gettext_noop("the clock has already run out"))
        played = len(s.deals)
        s.time_expired = (Expiry.DURING_DEAL, played + 1) if during_deal else (Expiry.AFTER_DEAL, played)
        self._decide()
