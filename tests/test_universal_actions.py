"""The universal actions as declared objects (``engine.game.universal``), the Close Quarters
actions a rule module adds through hooks, and the rooms of the core that import no action."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.game.bookkeeping import ACTION_COST, ACTION_FAMILY, EXCLUDES, UniversalAction, declare
from engine.game.universal.activation import rule_universal_actions, universal_action
from engine.game.universal.catalogue import ACTIONS
from engine.game.universal.movement import MoveAction
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules import close_quarters
from engine.rulesets import new_game
from engine.teams import load_builtin_team

ROOT = Path(__file__).resolve().parent.parent


def test_catalogue_lists_the_core_actions_in_listing_order() -> None:
    """The order of :data:`ACTIONS` is the order legal actions are listed in (3.2), which
    the pinned battles depend on; each declares its printed AP cost."""
    assert [a.verb for a in ACTIONS] == [
        "Reposition",
        "Dash",
        "Fall Back",
        "Charge",
        "Shoot",
        "Fight",
        "Pick up",
        "Place marker",
    ]
    assert {a.verb: a.ap for a in ACTIONS} == {
        "Reposition": 1,
        "Dash": 1,
        "Fall Back": 2,
        "Charge": 1,
        "Shoot": 1,
        "Fight": 1,
        "Pick up": 1,
        "Place marker": 1,
    }


def test_declared_actions_fill_the_bookkeeping_tables() -> None:
    """Costs, families and exclusions (3.2, 9.3) come from the declarations, the Close
    Quarters ones included (Guard counts as a Shoot, Hatchway Fight as a Fight)."""
    for a in (*ACTIONS, *close_quarters.ACTIONS):
        assert ACTION_COST[a.verb] == a.ap
    assert ACTION_FAMILY == {"Guard": "Shoot", "Hatchway fight": "Fight"}
    assert EXCLUDES["Reposition"] == ("Fall Back", "Charge")
    assert EXCLUDES["Charge"] == ("Reposition", "Dash", "Fall Back")
    assert EXCLUDES["Pick up"] == ("Place marker",)


def test_declaring_a_verb_twice_is_refused() -> None:
    """Two actions with one verb would make the notation ambiguous: refused, and the
    tables keep the first declaration."""
    with pytest.raises(ValueError, match="declared twice"):
        declare(MoveAction("Dash", 2))
    assert ACTION_COST["Dash"] == 1


def _game(killzone: str) -> Work:
    rosters = [load_builtin_team(t).default() for t in ("kasrkin", "legionaries")]
    state = new_game(load_killzone(killzone), *rosters)
    return Work(state)


def test_close_quarters_actions_come_from_the_rule_module() -> None:
    """The core lists the Close Quarters actions (9.3) only through the
    ``universal_actions`` hooks the rule module installs, after its own actions; a verb
    nobody declares is no universal action."""
    w = _game("open_ruins")
    assert rule_universal_actions(w) == close_quarters.ACTIONS
    assert universal_action(w, "Guard") is close_quarters.GUARD
    assert universal_action(w, "Dash") is ACTIONS[1]
    assert universal_action(w, "Dance") is None
    assert isinstance(close_quarters.GUARD, UniversalAction)


_CORE_BELOW_ACTIONS = (
    "engine/game/bookkeeping.py",
    "engine/game/weapons.py",
    "engine/game/markers.py",
    "engine/game/damage.py",
    "engine/game/attacks.py",
    "engine/game/shoot.py",
    "engine/game/shoot_targets.py",
    "engine/game/fight.py",
)


def _imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("name", _CORE_BELOW_ACTIONS)
def test_frames_and_shared_queries_import_no_action_nor_rule(name: str) -> None:
    """The Shoot and Fight frames and the queries they share sit below the universal
    actions and the rule modules (DESIGN.md layers): importing either, even inside a
    function, would make an import circle again."""
    bad = [
        m
        for m in _imported(ROOT / name)
        if m.startswith(("engine.game.universal", "engine.rules", "engine.missions", "teams"))
    ]
    assert bad == []
