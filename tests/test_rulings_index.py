"""docs/RULINGS.md lists every shipped scenario (scripts/rulings_index.py builds its index from
the scenario files' ``name``, ``rules`` and header comment, so it cannot drift from them)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.game.scenario_file import shipped_scenarios

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rulings_index", ROOT / "scripts" / "rulings_index.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rulings_index", module)
    spec.loader.exec_module(module)
    return module


INDEX = _script()


def test_committed_rulings_md_is_the_scripts_output() -> None:
    """The committed document is exactly what the script builds from the scenarios present:
    a scenario added, renamed or re-worded without regenerating the document fails here."""
    committed = (ROOT / "docs" / "RULINGS.md").read_text(encoding="utf-8")
    assert INDEX.build(ROOT / "scenarios", committed) == committed, (
        "docs/RULINGS.md is out of date: run python scripts/rulings_index.py"
    )


def test_every_shipped_scenario_has_a_row_with_its_ruling() -> None:
    """Each shipped scenario (the ones the replay test runs) has one table row naming the file
    and carrying its one-line ruling (its ``name``)."""
    committed = (ROOT / "docs" / "RULINGS.md").read_text(encoding="utf-8")
    for path in shipped_scenarios():
        entry = INDEX.read_entry(path)
        rows = [line for line in committed.splitlines() if line.startswith(f"| `{path.name}` |")]
        assert len(rows) == 1, path.name
        assert entry.name.replace("|", "\\|") in rows[0]


def test_hand_written_text_outside_the_markers_is_kept(tmp_path: Path) -> None:
    """Readings written by hand around the generated index survive a rebuild; the index
    between the markers is replaced by the scenarios' current content."""
    (tmp_path / "a_rule.toml").write_text(
        '# A ruling | and why.\nname = "A | B"\nrules = ["3.2"]\n', encoding="utf-8"
    )
    existing = f"# Title\n\nIntro.\n{INDEX.BEGIN}\nstale\n{INDEX.END}\n\n## Readings\n\nKept.\n"
    text = INDEX.build(tmp_path, existing)
    assert text.startswith("# Title\n\nIntro.\n" + INDEX.BEGIN)
    assert text.endswith(INDEX.END + "\n\n## Readings\n\nKept.\n")
    assert "stale" not in text
    assert "| `a_rule.toml` | 3.2 | A \\| B |" in text  # pipes escaped inside a cell
    assert "A ruling | and why." in text  # the header comment, in the details


def test_a_scenario_without_a_name_is_an_error_naming_file_and_field(tmp_path: Path) -> None:
    """A scenario the index cannot describe is reported with its file and field."""
    bad = tmp_path / "no_name.toml"
    bad.write_text('# header\nrules = ["3.2"]\n', encoding="utf-8")
    with pytest.raises(INDEX.RulingsIndexError, match=r"no_name\.toml: field 'name'"):
        INDEX.build(tmp_path, None)
    bad.write_text('name = "x"\nrules = "3.2"\n', encoding="utf-8")
    with pytest.raises(INDEX.RulingsIndexError, match=r"no_name\.toml: field 'rules'"):
        INDEX.build(tmp_path, None)


def test_one_marker_without_the_other_is_an_error(tmp_path: Path) -> None:
    """A document whose generated part lost a marker is not silently rewritten."""
    (tmp_path / "a.toml").write_text('name = "A"\n', encoding="utf-8")
    with pytest.raises(INDEX.RulingsIndexError, match="markers"):
        INDEX.build(tmp_path, f"# Title\n{INDEX.BEGIN}\nno end\n")
