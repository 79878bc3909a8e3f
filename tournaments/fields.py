"""Model fields for what people type."""

from __future__ import annotations

from typing import Any

from django.db import models

#: Invisible bidirectional controls (marks, embeddings, overrides, isolates). Nobody types them
#: into a name on purpose, and one left unterminated reorders the text printed after it: the
#: dates beside a name in a protocol came out reversed.
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def plain_text(value: Any) -> Any:
    """``value`` without bidirectional control characters (anything but text as it is)."""
    return value.translate(BIDI_CONTROLS) if isinstance(value, str) else value


class PlainTextField(models.CharField):
    """A line of text people type (a name, a club, a venue), kept without bidirectional controls
    however it is saved: validated forms and services, the admin, or a plain ``save()``."""

    def to_python(self, value: Any) -> Any:
        return plain_text(super().to_python(value))

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = plain_text(super().pre_save(model_instance, add))
        setattr(model_instance, self.attname, value)
        return value
