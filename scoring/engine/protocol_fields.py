"""Readers of the fields every ``domino-protocol/1`` document shares, whatever its game
(:mod:`.protocol` for sports domino, :mod:`.goat_protocol` for the others): each checks its
field's form and names the field in the error it raises."""

from __future__ import annotations

from typing import Any, Callable, Final, Mapping

from .errors import ProtocolError, RulesError, gettext_noop
from .vocabulary import Expiry

EXPIRIES: Final = tuple(e.value for e in Expiry)


def fail(template: str, where: str | None = None, **params: Any) -> ProtocolError:
    return ProtocolError(template, where, **params)


def place(method: Callable[..., object], where: str, *args: Any, **params: Any) -> None:
    """Call ``method``; an error it raises is placed under ``where``."""
    try:
        method(*args)
    except RulesError as error:
        raise error.at(where, **params) from None


def read_penalties(penalties: Any, deals: int) -> list[tuple[int, Any, Any]]:
    """``(after_deal, seat, code)`` of each penalty; the seat and the code are checked by the
    game as it writes them."""
    if penalties is None:
        return []
    if not isinstance(penalties, list):
        raise fail(gettext_noop("must be a list"), "penalties")
    result: list[tuple[int, Any, Any]] = []
    for k, item in enumerate(penalties, 1):
        if not isinstance(item, Mapping) or set(item) != {"after_deal", "seat", "code"}:
            raise fail(gettext_noop("a penalty has exactly after_deal, seat and code")).at(gettext_noop("penalty %(n)s"), n=k)
        after = item["after_deal"]
        if type(after) is not int or not 0 <= after <= deals:
            raise fail(gettext_noop("after_deal must be 0 to %(deals)s (the deals given), got %(value)s"), deals=deals,
                       value=repr(after)).at(gettext_noop("penalty %(n)s"), n=k)
        result.append((after, item["seat"], item["code"]))
    return result


def read_time(value: Any, deals: int) -> tuple[Expiry, int] | None:
    """``time_expired``: ``{"during_deal": N}`` or ``{"after_deal": N}``, or None."""
    if value is None:
        return None
    if not (isinstance(value, Mapping) and len(value) == 1 and next(iter(value)) in EXPIRIES):
        raise fail(gettext_noop("must be {\"during_deal\": N} or {\"after_deal\": N}"), "time_expired")
    kind, n = next(iter(value.items()))
    kind = Expiry(kind)
    low, high = (1, deals + 1) if kind == Expiry.DURING_DEAL else (0, deals)
    if type(n) is not int or not low <= n <= high:
        raise fail(gettext_noop("%(kind)s must be %(low)s to %(high)s for the %(deals)s deals given, got %(value)s"),
                   "time_expired", kind=kind, low=low, high=high, deals=deals, value=repr(n))
    return kind, n
