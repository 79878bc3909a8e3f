"""What differs by game is chosen once, from the game kinds of the engine (scoring/engine/kinds.py:
a :class:`~scoring.engine.kinds.Kind`'s fields, and each floor's
:class:`~scoring.engine.kinds.Parts` keyed by its family). A test of which game a table plays
anywhere else (``rules.game == ...``, ``Game.GOAT``, ``plays_goat``, ``"games" not in state``,
``isinstance(x, GoatSitting)``, ``kind.family is ...``) fails here, naming the file and line."""

import ast
from pathlib import Path

import pytest

from scoring import engine

ROOT = Path(__file__).resolve().parent.parent
#: The engine decides what a game is; migrations are history.
OUTSIDE = [path for package in ("config", "scoring", "tournaments") for path in sorted((ROOT / package).rglob("*.py"))
           if "engine" not in path.relative_to(ROOT).parts[:2] and "migrations" not in path.parts]
#: Attributes that name a game family (the engine's own, read nowhere else).
FAMILY_ATTRIBUTES = {"plays_goat", "plays_sittings", "is_goat", "is_sea_goat", "scored_by_hand"}
GAME_CLASSES = {"GoatSitting", "PointsSitting", "GoatGame", "PointsGame", "Partition"}
GAME_NAMES = {game.value for game in engine.Game}


def _name(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def game_tests(source: str) -> list[tuple[int, str]]:
    """The lines of ``source`` that test which game a table plays, each with what was found."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in FAMILY_ATTRIBUTES:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Attribute) and _name(node.value) == "Game":
            found.append((node.lineno, f"{_name(node.value)}.{node.attr}"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                if isinstance(side, ast.Attribute) and (side.attr == "game" or _name(side.value) == "Family"):
                    found.append((node.lineno, f"a comparison of {ast.unparse(side)}"))
                elif isinstance(side, ast.Constant) and side.value in GAME_NAMES | {"games"}:
                    found.append((node.lineno, f"a comparison with {side.value!r}"))
        elif isinstance(node, ast.Call) and _name(node.func) == "isinstance" and len(node.args) == 2:
            classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            found += [(node.lineno, f"isinstance(..., {_name(c)})") for c in classes if _name(c) in GAME_CLASSES]
    return sorted(set(found))


def test_no_module_outside_the_engine_tests_which_game_a_table_plays():
    assert len(OUTSIDE) > 100
    found = {f"{path.relative_to(ROOT)}:{line}": what for path in OUTSIDE
             for line, what in game_tests(path.read_text())}
    assert found == {}


@pytest.mark.parametrize("line", [
    "if tournament.plays_goat: pass", "x = rules.game == engine.Game.SEA_GOAT", "k = Game.POINTS",
    "if 'games' not in partition.state: pass", "if isinstance(played, engine.GoatSitting): pass",
    "if kind.family is engine.Family.TILES: pass", "if rules.game != 'goat': pass",
    "y = tournament.rules.scored_by_hand",
])
def test_each_form_of_a_game_test_is_found(line):
    assert {number for number, _what in game_tests(line)} == {1}


def test_choosing_from_the_kinds_is_not_a_game_test():
    assert game_tests("page = PAGES.of(tournament.kind)\nscore = kind_of(rules).ranked_by\n"
                      "if kind.sittings: pass\nn = game == 1 if rules.game else 0") == []


def test_a_floor_without_a_part_for_every_family_is_refused():
    with pytest.raises(TypeError, match="points"):
        engine.Parts({engine.Family.PARTITION: 1, engine.Family.TILES: 2})
    parts = engine.Parts({engine.Family.PARTITION: "pairs", engine.Family.TILES: "seats", engine.Family.POINTS: None})
    assert parts.of(engine.KINDS[engine.Game.SEA_GOAT]) == "seats"
    assert parts.get(engine.KINDS[engine.Game.POINTS]) is None
    with pytest.raises(LookupError):
        parts.of(engine.KINDS[engine.Game.POINTS])


def test_every_game_of_the_regulations_has_a_kind():
    assert set(engine.KINDS) == set(engine.Game)
    assert {kind.game: kind.sittings for kind in engine.KINDS.values()} == {
        engine.Game.SPORTS: False, engine.Game.GOAT: True, engine.Game.SEA_GOAT: True, engine.Game.POINTS: True}
    assert engine.kind_of({"game": "sea_goat"}) is engine.kind_of(engine.Regulations(game="sea_goat"))
    assert engine.kind_of({}) is engine.KINDS[engine.Game.SPORTS]
