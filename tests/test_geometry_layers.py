"""The geometry is the bottom layer (DESIGN.md, "Growing the rules" and "Rulesets"): it knows no
rule, no game and no team, and its modules import each other without a circle, so any one of
them can be read, tested and changed knowing only those below it. Every import counts, also one
inside a function or under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

GEOMETRY = Path(__file__).resolve().parents[1] / "engine" / "geometry"

# What the geometry may import from the project: itself and the low utility modules.
ALLOWED = ("engine.geometry", "engine.errors", "engine.inputs", "engine.names", "engine.terminal")


def _imports() -> dict[str, set[str]]:
    """Each geometry module (dotted name) -> the project modules it imports, anywhere in it."""
    out: dict[str, set[str]] = {}
    for path in sorted(GEOMETRY.glob("*.py")):
        name = "engine.geometry" if path.stem == "__init__" else f"engine.geometry.{path.stem}"
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                # ``from engine.geometry import sight`` imports the module sight.
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        out[name] = {m for m in found if m.split(".")[0] in ("engine", "teams")}
    return out


def test_geometry_imports_no_rule_game_or_team_module() -> None:
    """Geometry is imported by the killzone model, the game core and every rule: a rule module
    may import geometry, never the reverse (no upward import, not even inside a function)."""
    upward = {
        (module, imported)
        for module, imports in _imports().items()
        for imported in imports
        if not imported.startswith(ALLOWED)
    }
    assert upward == set()


def test_geometry_modules_import_each_other_without_a_circle() -> None:
    """No import circle inside engine/geometry: the modules form layers (a depth-first search
    over the imports between geometry modules finds no module on its own path)."""
    graph = _imports()
    edges = {m: {i for i in imports if i in graph and i != m} for m, imports in graph.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for nxt in sorted(edges[module]):
            if state.get(nxt) == 1:
                circles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert circles == []
