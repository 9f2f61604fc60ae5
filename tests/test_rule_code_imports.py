"""Rule code sits below the agents (issue 28's layers): no module of ``teams/`` or
``engine/rules/`` imports ``engine.agents``, not even inside a function. What a rule's advice
needs to value an outcome comes from :mod:`engine.advice`, which itself imports neither the
agents nor the rules."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """``(line, dotted module)`` of every import statement in ``path`` (at any depth)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
            out += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return out


def _offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for line, module in _imported_modules(path):
            if any(module == f or module.startswith(f + ".") for f in forbidden):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


def test_team_rule_code_imports_no_agent() -> None:
    """Team rule code values its outcomes through engine.advice, never the agents above it."""
    assert _offenders("teams", ("engine.agents",)) == []


def test_rule_framework_imports_no_agent() -> None:
    """The rule framework and universal rule modules import nothing of the agents."""
    assert _offenders("engine/rules", ("engine.agents",)) == []


def test_advice_imports_no_agent_rule_mission_or_team_code() -> None:
    """engine.advice sits below the rules: it may import the core, dice, geometry and the team
    model only, so every layer above can use it without a circle."""
    forbidden = ("engine.agents", "engine.rules", "engine.missions", "teams", "engine.rulesets")
    assert _offenders("engine/advice", forbidden) == []
