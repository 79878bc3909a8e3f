"""Model fields for what people type."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Invisible bidirectional controls (marks, embeddings, overrides, isolates). Nobody types them
#: into a name on purpose, and one left unterminated reorders the text printed after it: the
#: dates beside a name in a protocol came out reversed.
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def plain_text(value: Any) -> Any:
    """``value`` without bidirectional control characters (anything but text as it is)."""
    return value.translate(BIDI_CONTROLS) if isinstance(value, str) else value


#: C0 and C1 control characters and DEL: a terminal, a CSV reader or a PDF acts on them (ESC
#: starts a terminal's escape sequence, BEL rings), and a name is one line of text, tabs aside.
CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")


def no_control_characters(value: Any) -> None:
    found = CONTROL_CHARACTER.search(value) if isinstance(value, str) else None
    if found:
        raise ValidationError(
            _("The text contains a control character (%(code)s), which cannot be stored: type it again without it."),
            code="control_character", params={"code": f"U+{ord(found.group()):04X}"})


class PlainTextField(models.CharField):
    """A line of text people type (a name, a club, a venue), kept without bidirectional controls
    however it is saved: validated forms and services, the admin, or a plain ``save()``. Control
    characters are refused wherever it is validated (forms, the API's serializers, the services)."""

    default_validators = [*models.CharField.default_validators, no_control_characters]

    def to_python(self, value: Any) -> Any:
        return plain_text(super().to_python(value))

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = plain_text(super().pre_save(model_instance, add))
        setattr(model_instance, self.attname, value)
        return value
