"""The KT21 movement and marker scenario files (rules/KT21.md 15.1 and the Designer's
Commentary rulings 16.6, 16.11-16.13) replay under the KT21 ruleset, strict scripted dice,
every expectation met. They wait in ``scenarios/kt21_pending/`` until the shipped-scenario
test picks each file's ruleset from its options; then they move to ``scenarios/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agents.scenario_choices import best_choice
from engine.game.scenario_file import run_scenario
from engine.rulesets import get

FILES = sorted(
    (Path(__file__).resolve().parent.parent / "scenarios" / "kt21_pending").glob("*.toml")
)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_kt21_scenario_replays(path: Path) -> None:
    """Each file states its ruling in its header and checks it (the file's comments give
    the arithmetic)."""
    assert path.read_text(encoding="utf-8").startswith("# ")
    result = run_scenario(path, ruleset=get("kt21"), chooser=best_choice)
    assert result.events
