"""The one JSON reader of the site: the API's JSON parser and the score sheet's protocol import
read every JSON document a person sends through :func:`read_json`.

Python's json module recurses once per level of nesting, so ``[[[[...`` deep enough ends in a
RecursionError; and PostgreSQL stores no NUL character (``\\u0000``) in text or jsonb. A document
nested deeper than ``settings.JSON_MAX_DEPTH``, with a NUL anywhere in a string or a key, with
NaN or Infinity (not JSON), or with a number out of range is refused with :class:`JsonError`,
whose message a person can act on.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _


class JsonError(ValueError):
    """Input that is not a JSON document the site reads; ``str(error)`` says why."""


def _constant(name: str) -> Any:
    raise JsonError(_("%(value)s is not a JSON number.") % {"value": name})


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(_("The number %(value)s is out of range.") % {"value": text[:20]})
    return value


def read_json(data: str | bytes) -> Any:
    """The value of a JSON document (UTF-8 when given as bytes, a byte order mark allowed)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonError(_("The JSON is not UTF-8 text.")) from None
    try:
        value = json.loads(data, parse_constant=_constant, parse_float=_float)
    except json.JSONDecodeError as error:
        raise JsonError(_("The JSON is not valid (line %(line)s, column %(column)s).")
                        % {"line": error.lineno, "column": error.colno}) from None
    except RecursionError:
        raise _too_deep() from None
    except JsonError:
        raise
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise JsonError(_("A number in the JSON is out of range.")) from None
    check(value)
    return value


def _too_deep() -> JsonError:
    return JsonError(_("The JSON is nested too deeply: at most %(limit)s levels.")
                     % {"limit": settings.JSON_MAX_DEPTH})


def check(value: Any) -> None:
    """Refuse ``value`` (JSON data) nested deeper than JSON_MAX_DEPTH or holding a NUL character
    in a string or a key. Iterative: any depth is walked without recursion."""
    limit = settings.JSON_MAX_DEPTH
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise JsonError(_("The JSON contains a NUL character (\\u0000), which cannot be stored."))
            continue
        if isinstance(item, dict):
            children = [*item.keys(), *item.values()]
        elif isinstance(item, (list, tuple)):
            children = list(item)
        else:
            continue
        if depth >= limit:
            raise _too_deep()
        stack.extend((child, depth + 1) for child in children)
