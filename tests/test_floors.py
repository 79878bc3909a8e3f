"""Every module of the project stands on one floor of the import-linter layers (pyproject.toml),
so that `lint-imports` (run by `make test`) checks all of its imports: a new module nobody placed
would otherwise import anything. A folder is one floor: its modules never stand on two."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "scoring", "tournaments")


def floors() -> list[list[str]]:
    contract = next(c for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
                    if c["type"] == "layers")
    return [[name.strip() for name in re.split(r"[:|]", layer)] for layer in contract["layers"]]


def modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or parts[-1] == "__init__" and len(parts) == 2:
                continue  # migrations are Django's; a package's own __init__ hands names on
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def floor_of(module: str, placed: list[list[str]]) -> list[int]:
    return [k for k, layer in enumerate(placed) if any(module == name or module.startswith(name + ".")
                                                       for name in layer)]


def test_every_module_stands_on_exactly_one_floor():
    placed = floors()
    found = modules()
    assert "scoring.recording.pipeline" in found and "tournaments.standings.metrics" in found
    assert {module: floor_of(module, placed) for module in found if len(floor_of(module, placed)) != 1} == {}


def test_a_folder_is_one_floor():
    placed = floors()
    floors_of_folder: dict[str, set[int]] = {}
    for module in modules():
        parts = module.split(".")
        if len(parts) > 2:  # a module in a folder of a package
            floors_of_folder.setdefault(".".join(parts[:2]), set()).update(floor_of(module, placed))
    assert "scoring.recording" in floors_of_folder
    assert {folder: k for folder, k in floors_of_folder.items() if len(k) != 1} == {}


def test_a_module_nobody_placed_is_found():
    assert floor_of("scoring.unplaced", floors()) == []
    assert len(floor_of("scoring.recording.pipeline", floors())) == 1
