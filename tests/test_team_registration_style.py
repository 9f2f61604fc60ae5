"""Every built-in team registers its rules one way (``teams/__init__.py``): one module-level
``register("<team>/<kind>/<slug>", installer, summary)`` call per rule id, the id a literal,
so a rule's code is found from its id and no rule hides in a table or a loop."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.rules import registry

TEAMS = Path(__file__).resolve().parent.parent / "teams"
CALLS = ("register", "register_equipment_value")


def _calls(path: Path) -> list[tuple[ast.Call, bool]]:
    """Every ``register``/``register_equipment_value`` call of ``path``, and whether it is a
    statement of the module body."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(n.value) for n in tree.body if isinstance(n, ast.Expr)}
    return [
        (n, id(n) in top)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in CALLS
    ]


def test_every_team_rule_is_registered_by_a_literal_id_at_module_level() -> None:
    """No computed id, no registration inside a loop or a function."""
    bad = []
    for path in sorted(TEAMS.rglob("*.py")):
        for call, top in _calls(path):
            first = call.args[0] if call.args else None
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if not (top and literal):
                bad.append(f"{path.relative_to(TEAMS.parent)}:{call.lineno}")
    assert bad == []


def test_each_literal_id_is_a_well_formed_rule_id() -> None:
    """Each id is ``<team>/<kind>/<slug>`` with a known kind, as ``registry.rule_id`` makes."""
    for path in sorted(TEAMS.rglob("*.py")):
        for call, _ in _calls(path):
            first = call.args[0]
            assert isinstance(first, ast.Constant)
            team, kind, name = str(first.value).split("/")
            assert kind in registry.KINDS
            assert registry.rule_id(team, kind, name) == first.value, first.value
