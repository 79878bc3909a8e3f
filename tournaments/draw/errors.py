"""The one exception the draw package raises, and the problems it lists."""

from __future__ import annotations

from typing import Any


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the translation catalog (``makemessages`` finds it by this name);
    the draw itself stays plain Python and speaks English."""
    return message


class Problem(str):
    """One problem, an English sentence that also keeps its ``template`` and ``params``, so that a
    caller with a translation catalog can say it in the user's language. A param may itself be
    a Problem, or a tuple of them (a list of places)."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Problem:
        english = {k: ", ".join(map(str, v)) if isinstance(v, tuple) else v for k, v in params.items()}
        self = super().__new__(cls, template % english if params else template)
        self.template = template
        self.params = params
        return self


class DrawError(ValueError):
    """A draw cannot be made or checked; each problem is a sentence an organiser can act on.

    ``problems`` keeps the problems apart so that a form can show them one per line;
    ``str(error)`` joins them.
    """

    def __init__(self, *problems: str) -> None:
        if not problems:
            raise TypeError("DrawError needs at least one problem")
        self.problems: tuple[str, ...] = problems
        super().__init__("\n".join(problems))
