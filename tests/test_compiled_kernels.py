"""The compiled kernel against its plain-Python reference (``engine.dice.compiled``,
``setup.py``): the same exact shoot results and the same battle records either way."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.dice.compiled import KERNEL_MODULES, kernels_in_use

ROOT = Path(__file__).resolve().parents[1]

# Prints, as one JSON line: the kernels in use, the repr of the exact shoot results of 300
# random profiles (tests/test_dice_kernel.py's generator), and the digest of the records of
# a random and a heuristic battle.
_RUN = """
import hashlib, json
from engine.dice import shoot
from engine.dice.compiled import kernels_in_use
from engine.agents import HeuristicAgent, RandomAgent
from engine.game.drivers import SeededDice
from engine.game.record import GameRecorder, make_header
from engine.game.state import Chance
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team
from tests.test_dice_kernel import random_cases

out = {"kernels": kernels_in_use()}
results = [repr(shoot(p, t, cache=False)) for p, t in random_cases(31, 300, 8)]
out["shoot"] = hashlib.sha256("\\n".join(results).encode()).hexdigest()
out["records"] = []
rosters = [load_builtin_team(t).default() for t in ("kasrkin", "legionaries")]
for seed, (layout, agent) in enumerate(
    [("close_quarters", RandomAgent), ("open_ruins", HeuristicAgent)]
):
    s = new_game(load_killzone(layout), rosters[0], rosters[1])
    agents = {"A": agent(2 * seed), "B": agent(2 * seed + 1)}
    rec = GameRecorder(make_header(s, seed=seed, agents={"A": "x", "B": "x"}))
    dice = SeededDice(seed)
    while not s.is_terminal:
        if isinstance(s.node, Chance):
            action, actor = dice.roll(s), "chance"
        else:
            action, actor = agents[s.node.player].act(s), s.node.player
        after, events = s.apply(action)
        rec.on_step(s, action, actor, after, events)
        s = after
    rec.finish(s)
    text = "\\n".join(json.dumps(line, sort_keys=True) for line in rec.lines)
    out["records"].append(hashlib.sha256(text.encode()).hexdigest())
print(json.dumps(out))
"""


def _run(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "KILLTEAM_PURE_PYTHON"}
    if pure:
        env["KILLTEAM_PURE_PYTHON"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", _RUN],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def pure() -> dict[str, object]:
    return _run(pure=True)


def test_pure_python_switch_selects_the_reference_kernel(pure: dict[str, object]) -> None:
    """``KILLTEAM_PURE_PYTHON=1`` makes every kernel module load from its ``.py`` source, as
    the switch's documentation says, whatever is installed."""
    assert pure["kernels"] == {name: "python" for name in KERNEL_MODULES}


def test_compiled_and_pure_kernels_give_identical_results_and_records(
    pure: dict[str, object],
) -> None:
    """The exact shoot results of 300 random profiles (their full repr: every weight), and a
    random and a heuristic battle's records (the heuristic agent values shots with the dice
    core), are identical with the compiled kernel and with the plain-Python reference: the
    compiled module runs the same integer and float operations in the same order."""
    if set(kernels_in_use().values()) != {"compiled"}:
        pytest.skip("the kernel is not compiled in this install (no C compiler at install)")
    compiled = _run(pure=False)
    assert compiled["kernels"] == {name: "compiled" for name in KERNEL_MODULES}
    assert compiled["shoot"] == pure["shoot"]
    assert compiled["records"] == pure["records"]


def test_setup_compiles_exactly_the_kernel_modules() -> None:
    """``setup.py``'s list of files to compile names the modules ``engine.dice.compiled``
    switches (the two lists are kept equal by hand)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    files = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "KERNELS" for t in node.targets)
    )
    assert [f.removesuffix(".py").replace("/", ".") for f in files] == list(KERNEL_MODULES)


def test_a_compiled_kernel_older_than_its_source_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable install keeps the compiled file beside the source: once the source is
    edited (newer than the compiled file) the finder loads the source, so an edit is never
    hidden by a stale build; a compiled file newer than its source is left to Python."""
    import importlib.machinery

    from engine.dice import compiled

    source = tmp_path / "engine" / "dice" / "kernel.py"
    source.parent.mkdir(parents=True)
    source.write_text("X = 1\n", encoding="utf-8")
    built = source.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0])
    built.write_bytes(b"")
    monkeypatch.setattr(compiled, "_ROOT", tmp_path)
    monkeypatch.setattr(compiled, "PURE_PYTHON", False)
    finder = compiled._PlainPythonKernels()
    os.utime(built, (1_000, 1_000))
    os.utime(source, (2_000, 2_000))
    spec = finder.find_spec("engine.dice.kernel", None)
    assert spec is not None and spec.origin == str(source)
    os.utime(built, (3_000, 3_000))
    assert finder.find_spec("engine.dice.kernel", None) is None
    assert finder.find_spec("engine.dice.shoot", None) is None
