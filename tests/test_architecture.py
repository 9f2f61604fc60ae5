"""The architecture's rules, checked on the code (docs/ARCHITECTURE.md; issue 28).

- No import circle anywhere in ``engine/`` or ``teams/``: a module imported inside a
  function counts like any other (``grimp`` reads every import statement).
- The layers of ``pyproject.toml``'s import-linter contract hold (nothing lower imports
  anything higher): ``lint-imports`` passes.
- No source file passes 800 lines without a reason written at its top (a comment line
  starting ``# Over 800 lines:`` among its first 40 lines).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 800
REASON = "# Over 800 lines:"


def _import_graph() -> nx.DiGraph:
    graph = grimp.build_graph("engine", "teams")
    g = nx.DiGraph()
    for module in graph.modules:
        g.add_node(module)
        for imported in graph.find_modules_directly_imported_by(module):
            g.add_edge(module, imported)
    return g


def test_no_import_circle_in_engine_or_teams() -> None:
    """Every strongly connected component of the import graph is one module: a circle of
    two or more modules would be one (networkx finds them all)."""
    circles = [sorted(c) for c in nx.strongly_connected_components(_import_graph()) if len(c) > 1]
    assert circles == []


def test_import_graph_sees_function_level_imports(tmp_path: Path) -> None:
    """The circle check would be blind if imports inside functions were not read: a
    two-module package whose circle closes inside a function is found."""
    pkg = tmp_path / "circlepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("import circlepkg.b\n")
    (pkg / "b.py").write_text("def f():\n    import circlepkg.a\n")
    sys.path.insert(0, str(tmp_path))
    try:
        graph = grimp.build_graph("circlepkg")
    finally:
        sys.path.remove(str(tmp_path))
    assert graph.direct_import_exists(importer="circlepkg.b", imported="circlepkg.a")


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter not installed")
def test_layers_contract_holds() -> None:
    """``lint-imports`` (the contracts in pyproject.toml) exits 0 and says every contract
    is kept."""
    done = subprocess.run(
        ["lint-imports", "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def _long_files_without_reason() -> list[str]:
    found = []
    for folder in ("engine", "teams"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            if len(lines) > MAX_LINES and not any(line.startswith(REASON) for line in lines[:40]):
                found.append(f"{path.relative_to(ROOT)} ({len(lines)} lines)")
    return found


def test_no_source_file_over_800_lines_without_a_reason() -> None:
    """DESIGN.md: a file past about 800 lines is usually two concepts; one that stays long
    says why at its top."""
    assert _long_files_without_reason() == []
