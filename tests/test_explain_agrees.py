"""``killteam explain`` agrees with the game (``docs/EXPLAIN.md``: "never a second
implementation"): its verdicts are the game's own checks, and its steps say what those
checks read. Here the verdicts are compared with the game's on every shipped scenario's
start position, and the terrain rule that takes cover away in target selection (7.2
Portable) is named where the engine applies it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.explain import explain
from engine.game.scenario_file import load_scenario, shipped_scenarios
from engine.game.shoot_targets import shoot_target_reason, sight_reason
from engine.game.state import GameState
from engine.game.weapons import weapons_of
from engine.game.work import Work
from engine.rulesets import get as get_ruleset

ROOT = Path(__file__).resolve().parent.parent
BARRICADE = ROOT / "scenarios" / "equipment_portable_barricade_conceal_not_connected.toml"


def _start(path: Path) -> GameState:
    sc = load_scenario(path)
    return sc.start(ruleset=get_ruleset(sc.options.ruleset))


def test_portable_barricade_explain_names_the_rule_that_removes_the_cover() -> None:
    """7.2 Portable: a portable barricade gives cover only to an operative connected to it.
    TAR-1 (Conceal) stands 0.3" behind B's barricade without touching it, so by the terrain
    alone it is in cover (not a valid target, 4.5), but the Portable rule takes that cover
    away: the game lists ``Shoot PRO-1 rifle at TAR-1`` (the scenario's first step), and
    explain must give the same verdict and name the equipment rule that removed the cover,
    in target selection and in the attack alike."""
    state = _start(BARRICADE)
    state, _ = state.apply("Activate PRO-1 engage")
    assert state.is_legal("Shoot PRO-1 rifle at TAR-1")
    for query in ("target PRO-1 TAR-1", "target PRO-1 TAR-1 rifle"):
        r = explain(state, query)
        assert r.verdict is True
        steps = {s.check: s for s in r.steps}
        assert steps["valid by the terrain alone"].result == "no"
        sel = steps["terrain rules (selection)"]
        assert sel.source == "equipment"
        assert sel.by == "engine.rules.equipment.terrain._portable"
        assert "B portable barricade no longer gives cover" in sel.detail
        assert steps["terrain rules"].by == "engine.rules.equipment.terrain._portable"
        assert r.data["in_cover"] is False and r.data["valid_by_sight"] is True


def _mode(w: Work, op: str) -> str:
    for f in reversed(w.stack):
        if getattr(f, "op", None) == op and isinstance(getattr(f, "mode", None), str):
            return str(f.mode)
    return "activation"


KT24_SCENARIOS = [p for p in shipped_scenarios() if load_scenario(p).options.ruleset == "kt24"]
"""The KT24 scenarios (a KT21 scenario's rulings come from the KT21 code paths, compared with
the KT21 Shoot's in ``tests/test_kt21_explain.py``)."""


@pytest.mark.parametrize("path", KT24_SCENARIOS, ids=lambda p: p.stem)
def test_target_verdict_is_the_games_on_every_shipped_start_position(path: Path) -> None:
    """5.1 step 2, 4.5: on every shipped scenario's start position, for every shooter and
    every enemy on the killzone, ``explain``'s verdict with each of the shooter's ranged
    weapons is ``shoot_target_reason``'s (the check the Shoot action makes), and its
    sight verdict (with no weapon) is ``sight_reason``'s together with the engaged rule;
    the "valid by sight" / "friendly within its control range" steps carry the same
    answers (a step list that contradicted the verdict would be a second reading)."""
    state = _start(path)
    w = Work(state)
    ops = [o for o in w.alive() if o.alive]
    for o in ops:
        weapons = weapons_of(w, o.id, "ranged")
        for t in ops:
            if w.ctx.owner[o.id] == w.ctx.owner[t.id]:
                continue
            sight = sight_reason(w, o, t, None)
            r = explain(state, f"target {o.id} {t.id}")
            engaged = r.data["valid_by_sight"] and any(
                s.check == "friendly within its control range" and s.result == "yes"
                for s in r.steps
            )
            assert r.data["valid_by_sight"] == (sight is None), (o.id, t.id)
            assert r.verdict == (sight is None and not engaged), (o.id, t.id)
            for name, _, prof in weapons:
                game = shoot_target_reason(w, o, t, name, prof, False)
                if _mode(w, o.id) == "interrupt":
                    continue  # (point-blank: its own reading, 9.3)
                r = explain(state, f"target {o.id} {t.id} {name}")
                assert r.verdict == (game is None), (o.id, t.id, name, game)
