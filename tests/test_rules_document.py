"""Every section of the rules the project cites ("RULES 9.1", "RULES 5-7", "RULES.md sections 2 to
7, and 9", "shared/RULES.md 9.1", ...) is a heading of docs/RULES.md.

A cite is the word ``RULES`` (or ``RULES.md``), optionally "section(s)", then a list of section
numbers joined by commas, "and", "to" or a dash ("to" and a dash between whole numbers are ranges);
a comment or docstring may break it across lines. Further items of the same clause that begin with a
section number count too: "(RULES 9.1 for_one fish tie, 9.2 eggs)", "(RULES 5 time and no-show, 6,
7 penalty points)". The clause ends at the cite's closing parenthesis or at the end of its
sentence; after a colon in it, only dotted numbers count, as the explanation after a colon is full
of counts ("(RULES 9.1: 9 sit 3, 3 and 3)").
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DOCUMENT = ROOT / "docs" / "RULES.md"

_HEADING = re.compile(r"^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)
_TOKEN = re.compile(r"\bRULES(?:\.md)?(?!\w)")
# A line break with the next line's indentation and comment marker, read as one space.
_BREAK = re.compile(r"[ \t]*\n[ \t]*(?:#:?|//|\*|\{#)?[ \t]*")
_NUMBER = r"\d+(?:\.\d+)*(?![\d.]\d)"
_LIST = re.compile(
    rf"(?:'s)?\s*(?:sections?\s+)?(?P<list>{_NUMBER}(?:\s*(?:,\s*(?:and\s+)?|\band\s+|\s+to\s+|-)\s*{_NUMBER})*)")
_ITEM_NUMBER = re.compile(rf"\s*({_NUMBER})(?=[\s:,;)]|$)")
_CLAUSE_END = re.compile(r"\)|\.(?:\s|\"|$)")
_TAIL = 400


def rules_sections(text: str) -> set[str]:
    """The section numbers of the headings of a rules document."""
    return set(_HEADING.findall(text))


def _numbers(cited: str) -> list[str]:
    """The sections of a list such as ``"2 to 7, and 9"`` or ``"5-7"``, ranges expanded."""
    sections: list[str] = []
    for part in re.split(r"\s*(?:,\s*(?:and\s+)?|\band\s+)\s*", cited):
        ends = re.split(r"\s+to\s+|-", part)
        if len(ends) == 2 and ends[0].isdigit() and ends[1].isdigit():
            sections += [str(n) for n in range(int(ends[0]), int(ends[1]) + 1)]
        else:
            sections += ends
    return sections


def _clause_items(rest: str) -> list[str]:
    """Sections that begin further items (after a comma or semicolon) of the cite's clause."""
    end = _CLAUSE_END.search(rest)
    clause = rest if end is None else rest[:end.start()]
    sections = []
    for separator in re.finditer(r"[,;]", clause):
        match = _ITEM_NUMBER.match(clause, separator.end())
        if match and ("." in match.group(1) or ":" not in clause[:separator.start()]):
            sections.append(match.group(1))
    return sections


def cites_in(text: str) -> list[tuple[int, str]]:
    """``(line, section)`` of every section cited in ``text``, in order."""
    cites = []
    for token in _TOKEN.finditer(text):
        line = text.count("\n", 0, token.start()) + 1
        tail = _BREAK.sub(" ", text[token.end():token.end() + _TAIL])
        match = _LIST.match(tail)
        if match is None:
            continue
        sections = _numbers(match.group("list")) + _clause_items(tail[match.end():])
        cites += [(line, section) for section in sections]
    return cites


def project_files() -> list[Path]:
    """The files whose cites must name real sections: the project's Python, templates, scripts and
    documentation (docs/RULES.md itself aside)."""
    files = [path for folder in ("config", "tournaments", "scoring") for path in (ROOT / folder).rglob("*.py")]
    files += [path for path in (ROOT / "templates").rglob("*") if path.is_file()]
    files += list((ROOT / "static" / "js").rglob("*.js"))
    files += [path for path in (ROOT / "docs").rglob("*.md") if path != RULES_DOCUMENT]
    files.append(ROOT / "README.md")
    return sorted(files)


def missing_cites(texts: dict[str, str], sections: set[str]) -> list[str]:
    """``"file:line: RULES section"`` for every cite in ``texts`` (file name to text) of a section
    not in ``sections``."""
    return [f"{name}:{line}: RULES {section}" for name, text in texts.items()
            for line, section in cites_in(text) if section not in sections]


def _project_texts() -> dict[str, str]:
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in project_files()}


def test_every_cited_section_is_a_heading_of_the_rules_document() -> None:
    missing = missing_cites(_project_texts(), rules_sections(RULES_DOCUMENT.read_text(encoding="utf-8")))
    assert not missing, "sections cited but missing from docs/RULES.md:\n" + "\n".join(missing)


def test_the_rules_document_has_the_sections_of_the_rules() -> None:
    sections = rules_sections(RULES_DOCUMENT.read_text(encoding="utf-8"))
    assert sections == {str(n) for n in range(1, 10)} | {"4.1", "4.2", "4.3", "4.4", "9.1", "9.2", "9.3"}


def test_the_project_cites_are_found() -> None:
    texts = _project_texts()
    cites = {name: cites_in(text) for name, text in texts.items()}
    assert sum(len(found) for found in cites.values()) > 250
    assert len([name for name, found in cites.items() if found]) > 40
    assert {section for found in cites.values() for _, section in found} >= {"3", "5", "6", "7", "8", "9.1", "9.3"}


def test_each_form_of_cite_is_read() -> None:
    assert cites_in('"""Goat (RULES 9.1)."""') == [(1, "9.1")]
    assert cites_in("x\n# the clocks of RULES 5-7.") == [(2, "5"), (2, "6"), (2, "7")]
    assert cites_in("(shared/RULES.md sections 2 to 7, and 9)") == [(1, n) for n in ("2", "3", "4", "5", "6", "7", "9")]
    assert cites_in("(RULES.md section 8, and") == [(1, "8")]
    assert cites_in("(RULES.md 4 and 6)") == [(1, "4"), (1, "6")]
    assert cites_in("(RULES 4.2, 4.3, 7): domino") == [(1, "4.2"), (1, "4.3"), (1, "7")]
    assert cites_in("first (RULES\n    # 9.1) it") == [(1, "9.1")]
    assert cites_in("{# sheet (RULES 9.1 for_one fish tie, 9.2 eggs): x #}") == [(1, "9.1"), (1, "9.2")]
    assert cites_in("(RULES 5 time and no-show, 6, 7 penalty points, the standings)") == [
        (1, "5"), (1, "6"), (1, "7")]
    assert cites_in("(RULES 9.1: 9 sit 3, 3 and\n 3)") == [(1, "9.1")]
    assert cites_in("(RULES 9.1: game points, goats taken, total score; 9.2: games won)") == [
        (1, "9.1"), (1, "9.2")]
    assert cites_in("(RULES 6), rounded to 0.1 s") == [(1, "6")]
    assert cites_in("(RULES 5, no draws); 2 games") == [(1, "5")]
    assert cites_in("RULES_DEFAULTS = {1: 2}; every setting of RULES.md; field 3") == []


def test_a_section_missing_from_the_document_is_reported_with_its_place() -> None:
    sections = rules_sections(RULES_DOCUMENT.read_text(encoding="utf-8"))
    texts = {"scoring/engine/example.py": '"""Tiles.\n\nThe stand (RULES 2.3.1), the deal (RULES 9.1)."""\n'}
    assert missing_cites(texts, sections) == ["scoring/engine/example.py:3: RULES 2.3.1"]


def test_every_module_the_document_names_exists() -> None:
    """Its "Implemented in" lines follow the code when it moves."""
    named = re.findall(r"`((?:scoring|tournaments|config)/[\w/]+(?:\.py|/))`", RULES_DOCUMENT.read_text(encoding="utf-8"))
    assert len(named) > 20
    assert [path for path in named if not (ROOT / path).exists()] == []
