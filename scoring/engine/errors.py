"""Errors of the rules engine. Every message names what is wrong in the referee's words."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the engine raises for input that breaks the rules or the format.

    ``where`` names the place (``"deal 3, move 7"``, ``"regulations.target"``); ``str(error)``
    starts with it.
    """

    def __init__(self, message: str, where: str | None = None):
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    def at(self, where: str) -> RulesError:
        """The same error, placed under ``where`` (outermost place first)."""
        inner = f"{where}, {self.where}" if self.where else where
        return type(self)(self.message, inner)


class RegulationsError(RulesError):
    """A regulations value that cannot be: unknown key, wrong type, out of range."""


class IllegalMove(RulesError):
    """A move the rules forbid: out of turn, tile not in hand, does not fit, false pass, ..."""


class PartitionError(RulesError):
    """A partition event that cannot be: a deal after the end, an unknown penalty code, ..."""


class ProtocolError(RulesError):
    """A protocol document that does not follow the interchange format."""
