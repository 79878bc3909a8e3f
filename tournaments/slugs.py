"""A tournament's short name for its addresses, made from its name: Cyrillic transliterated as
the Russian passport does (ICAO Doc 9303, Order 2017 of the Russian foreign ministry), Ukrainian
letters by the same table, then Django's slug rules."""

from __future__ import annotations

from django.utils.text import slugify

_LETTERS = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "ie", "ы": "y", "ь": "",
    "э": "e", "ю": "iu", "я": "ia", "і": "i", "ї": "i", "є": "ie", "ґ": "g",
}
TRANSLITERATION = str.maketrans(_LETTERS)


def transliterate(text: str) -> str:
    """``text`` with its Cyrillic letters in Latin ones (lower case), the rest as it is."""
    return text.lower().translate(TRANSLITERATION)


def slug_from_name(name: str, max_length: int) -> str:
    """The short name made from ``name``, cut at a hyphen to ``max_length``; empty when nothing
    of the name makes a slug."""
    slug = slugify(transliterate(name))
    if len(slug) > max_length:
        slug = slug[:max_length + 1].rsplit("-", 1)[0] if "-" in slug[:max_length + 1] else slug[:max_length]
    return slug.strip("-")
