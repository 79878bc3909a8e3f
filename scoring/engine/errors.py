"""Errors of the rules engine. Every message names what is wrong in the referee's words.

The engine speaks English. Each message is a template with named parameters, marked with
:func:`gettext_noop` so that translation catalogues collect it (Django's ``makemessages`` knows
the name); a user interface shows :meth:`RulesError.translate` in its own language.
"""

from __future__ import annotations

from typing import Any, Callable


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation catalogues; the engine itself keeps it as it is."""
    return message


class RulesError(ValueError):
    """Base of every error the engine raises for input that breaks the rules or the format.

    ``template % params`` is the message; ``places`` name where it happened, outermost first
    (``deal 3``, ``move 7``), each a template with its parameters. ``str(error)`` is
    ``"deal 3, move 7: 4-2 does not fit ends 5|1"``.
    """

    def __init__(self, template: str, where: str | None = None, **params: Any):
        self.template = template
        self.params = {k: str(v) if not isinstance(v, (int, str)) else v for k, v in params.items()}
        self.places: tuple[tuple[str, dict[str, Any]], ...] = ((where, {}),) if where else ()
        super().__init__(str(self))

    @property
    def message(self) -> str:
        return self.template % self.params

    @property
    def where(self) -> str | None:
        return ", ".join(t % p for t, p in self.places) or None

    def __str__(self) -> str:
        return self.translate()

    def translate(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        """The error in the language of ``gettext`` (English by default)."""
        message = gettext(self.template) % self.params
        if not self.places:
            return message
        where = ", ".join(gettext(t) % p for t, p in self.places)
        return f"{where}: {message}"

    def at(self, where: str, **params: Any) -> RulesError:
        """The same error, placed under ``where`` (a template with ``params``)."""
        error = type(self)(self.template, None, **self.params)
        error.places = ((where, params),) + self.places
        error.args = (str(error),)
        return error

    def concealed(self) -> RulesError:
        """The error as shown to someone who may not see the hands: itself, unless it tells what
        a hand holds (:class:`HandError`)."""
        return self


class RegulationsError(RulesError):
    """A regulations value that cannot be: unknown key, wrong type, out of range."""


class IllegalMove(RulesError):
    """A move the rules forbid: out of turn, tile not in hand, does not fit, false pass, ..."""


#: What a :class:`HandError` says instead, naming no tile but the one sent.
CONCEALED_PLAY = gettext_noop("%(tile)s cannot be played now (name the end when it fits both)")
CONCEALED_PASS = gettext_noop("seat %(seat)s may not pass: a tile of his hand fits")
CONCEALED_DRAW = gettext_noop("seat %(seat)s may not draw: a tile of his hand fits")


class HandError(IllegalMove):
    """A move refused for what the hand holds: its message may list the hand's playable tiles, or
    tell whether the tile sent is in it (so that refusals, tile by tile, would rebuild a hand).
    Whoever may not see the hand is shown :meth:`concealed`: ``concealed``, a template of the
    tile sent (``sent``, else ``tile``) and the ``seat`` only."""

    def __init__(self, template: str, where: str | None = None, *, concealed: str = CONCEALED_PLAY, **params: Any):
        super().__init__(template, where, **params)
        self.concealed_template = concealed

    def at(self, where: str, **params: Any) -> RulesError:
        error = super().at(where, **params)
        if isinstance(error, HandError):
            error.concealed_template = self.concealed_template
        return error

    def concealed(self) -> RulesError:
        params = {"tile": self.params.get("sent", self.params.get("tile")), "seat": self.params.get("seat")}
        error = IllegalMove(self.concealed_template, None, **params)
        error.places = self.places
        error.args = (str(error),)
        return error


class PartitionError(RulesError):
    """A partition event that cannot be: a deal after the end, an unknown penalty code, ..."""


class ProtocolError(RulesError):
    """A protocol document that does not follow the interchange format."""
