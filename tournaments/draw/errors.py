"""The one exception the draw package raises."""

from __future__ import annotations


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
