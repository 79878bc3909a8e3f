"""A player's search key: his name as written and in the Latin spellings people type for a
Cyrillic name, so that one ``icontains`` per typed word finds him in the database.

The spellings are those of the Russian passport (ICAO Doc 9303, used since 2014), BGN/PCGN and
GOST 7.79-2000 System B, each with its rules for letter combinations (the ``iuliia`` tables).
Case is ignored, ``ё`` is ``е``, and the marks these systems write for ``ъ``, ``ь`` and
ambiguous letters (’ ” ` ·), which nobody types in a search box, are dropped from the key and
from the query alike, as are the accents of Latin letters (BGN/PCGN's ``ë``). Plain Python."""

from __future__ import annotations

import unicodedata
from typing import Any

import iuliia

#: The transliteration systems a Latin query may be spelled in.
SYSTEMS = {"icao": iuliia.ICAO_DOC_9303, "bgn_pcgn": iuliia.BGN_PCGN, "gost_b": iuliia.GOST_779_ALT}
_MARKS = str.maketrans("", "", "'’‘”“\"`´ʹʺ·")
#: At most this many words of a query count (a longer one is cut): each is one LIKE in the database.
MAX_WORDS = 5


def _plain(text: str) -> str:
    """Lower case, ``ё`` as ``е``, no transliteration marks, no accents on Latin letters (a
    Cyrillic ``й`` keeps its breve), single spaces."""
    text = unicodedata.normalize("NFC", text).lower().replace("ё", "е")
    kept: list[str] = []
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char) and kept and kept[-1].isascii():
            continue
        kept.append(char)
    return " ".join(unicodedata.normalize("NFC", "".join(kept)).translate(_MARKS).split())


def spellings(name: str) -> set[str]:
    """``name`` as written and in each system, made plain. ``ё`` is spelled both as itself and
    as ``е`` (GOST's ``yo``, or ``e``): the name may be written either way. (iuliia's BGN/PCGN
    table writes its ``ë`` as the Cyrillic ``ё``: put back as the Latin letter.)"""
    name = unicodedata.normalize("NFC", name).lower()
    sources = {name, name.replace("ё", "е")}
    return {_plain(name)} | {_plain(system.translate(source).replace("ё", "ë"))
                             for system in SYSTEMS.values() for source in sources}


def search_key(last_name: str, first_name: str, federation_id: str) -> str:
    """What a player is found by: every spelling of his name, and his federation id."""
    key = sorted(spellings(f"{last_name} {first_name}".strip()))
    if federation_id.strip():
        key.append(_plain(federation_id))
    return " | ".join(key)


def query_words(query: str) -> list[str]:
    """The words of a query as the key holds them: each must occur in a player's key."""
    return _plain(query).split()[:MAX_WORDS]


def person_name(user: Any) -> str:
    """A login's name as a person's is written here, surname first, as a player's is
    ("Кузнецова-Оболенская Анна-Мария"); his login when he gave no name; "" for nobody."""
    if user is None:
        return ""
    return f"{user.last_name} {user.first_name}".strip() or str(user.get_username())
