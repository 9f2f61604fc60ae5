"""Many layouts and teams in one process (issue: hardened inputs, class 1 "stale caches").

A long-running tool (a batch of experiments, a notebook, a tournament of agents) loads many
killzones and teams in one process. Whatever the engine caches about a layout (set-up points,
hatchway geometry, movement graphs, sight arrays) must belong to that layout: a cache keyed by
``id()`` of a killzone hands a later, different layout the earlier one's answers once Python
reuses the address of a freed object (in one report, two thirds of the listed ``Deploy``
actions of a later layout were illegal).

The first test plays the same seeded battles (random agents, their first 100 steps: set-up
and the first activations) on several layouts and team pairs, in two orders in one process,
freeing each layout before loading the next so that addresses are reused, and compares every
fingerprint with the one a fresh process computes for that battle alone. At every set-up
decision it applies every listed ``Deploy`` action: a listed action that does not apply is
the stale-cache symptom. The second test alternates two layouts many times (it fails on the
old id()-keyed cache).
"""

from __future__ import annotations

import copy
import gc
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from engine.agents import RandomAgent
from engine.game.drivers import SeededDice
from engine.game.state import Chance
from engine.geometry import Killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team

ROOT = Path(__file__).resolve().parent.parent


def _layout(name: str) -> dict[str, Any]:
    with (ROOT / "killzones" / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def _layouts() -> dict[str, dict[str, Any]]:
    """Four different layouts: the two shipped ones and two variants whose drop zones differ
    (so their set-up points differ from the shipped ones')."""
    ruins, cq = _layout("open_ruins"), _layout("close_quarters")
    narrow = copy.deepcopy(ruins)
    narrow["name"] = "open_ruins_narrow"
    # Drop zones shrunk to a 4"-deep strip along each short edge.
    w, d = narrow["width"], narrow["depth"]
    narrow["drop_zones"] = {
        "A": [[0, 0], [4, 0], [4, d], [0, d], [0, 0]],
        "B": [[w - 4, 0], [w, 0], [w, d], [w - 4, d], [w - 4, 0]],
    }
    swapped = copy.deepcopy(cq)
    swapped["name"] = "close_quarters_swapped"
    swapped["drop_zones"] = {"A": cq["drop_zones"]["B"], "B": cq["drop_zones"]["A"]}
    swapped["territories"] = {"A": cq["territories"]["B"], "B": cq["territories"]["A"]}
    return {"open_ruins": ruins, "close_quarters": cq, "narrow": narrow, "swapped": swapped}


BATTLES = (
    ("open_ruins", "kasrkin", "legionaries", 3),
    ("narrow", "pathfinders", "kommandos", 5),
    ("close_quarters", "angels_of_death", "hierotek_circle", 7),
    ("swapped", "legionaries", "kasrkin", 11),
)

STEPS = 100
"""Steps played per battle: the set-up (its last Deploy is at steps 16-25, the first
activation at steps 23-33 on these battles) and the first activations after it."""


def fingerprint(layout: str, team_a: str, team_b: str, seed: int) -> dict[str, Any]:
    """Play one seeded random battle for :data:`STEPS` steps on a freshly built
    killzone and teams; return the hash at the end and the number of Deploy actions checked.

    Raises:
        AssertionError: a listed Deploy action did not apply (a stale set-up cache).
    """
    kz = Killzone.from_dict(_layouts()[layout], source=layout)
    state = new_game(kz, load_builtin_team(team_a).default(), load_builtin_team(team_b).default())
    agents = {"A": RandomAgent(2 * seed), "B": RandomAgent(2 * seed + 1)}
    dice = SeededDice(seed)
    deploys = 0
    while not state.is_terminal and state.step < STEPS:
        if isinstance(state.node, Chance):
            state, _ = state.apply(dice.roll(state))
            continue
        legal = state.legal_actions()
        for act in legal:
            if act.verb == "Deploy":
                state.apply(act)  # raises IllegalActionError if the listing was stale
                deploys += 1
        state, _ = state.apply(agents[state.node.player].act(state))
    return {"hash": state.hash(), "deploys": deploys}


def _fresh(battle: tuple[str, str, str, int]) -> subprocess.Popen[str]:
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); "
        "from tests.test_many_layouts import fingerprint; "
        "print(json.dumps(fingerprint(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", code, str(ROOT), *map(str, battle)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_many_layouts_in_one_process_match_fresh_processes() -> None:
    """Each battle's fingerprint in one process, in two orders with every layout freed
    between battles, equals the fingerprint of that battle alone in a fresh process (the
    engine's answers for a layout depend only on the layout, not on what was loaded before)."""
    procs = [_fresh(b) for b in BATTLES]
    expected = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        assert p.returncode == 0
        expected.append(json.loads(out))
    assert all(e["deploys"] > 0 for e in expected)
    for order in (range(len(BATTLES)), reversed(range(len(BATTLES)))):
        for k in order:
            gc.collect()  # free the previous layout so its address can be reused
            assert fingerprint(*BATTLES[k]) == expected[k], BATTLES[k]


def _first_deploys(kz: Killzone, seed: int) -> int:
    """Play to the first set-up decision and apply every Deploy action it lists; returns how
    many applied (each must: a listed action is legal)."""
    state = new_game(
        kz, load_builtin_team("kasrkin").default(), load_builtin_team("kommandos").default()
    )
    agent, dice = RandomAgent(seed), SeededDice(seed)
    while True:
        if isinstance(state.node, Chance):
            state, _ = state.apply(dice.roll(state))
            continue
        deploys = [a for a in state.legal_actions() if a.verb == "Deploy"]
        if deploys:
            for act in deploys:
                state.apply(act)  # raises IllegalActionError if the listing was stale
            return len(deploys)
        state, _ = state.apply(agent.act(state))


def test_set_up_points_follow_the_layout_when_addresses_are_reused() -> None:
    """Alternate two layouts whose drop zones differ, freeing each before the next is built,
    many times: every listed Deploy action applies, and each layout always lists the same
    number of set-up points (a stale cache would give one layout the other's points, which
    lie outside its drop zone)."""
    layouts = _layouts()
    counts: dict[str, set[int]] = {"open_ruins": set(), "narrow": set()}
    for k in range(12):
        name = ("open_ruins", "narrow")[k % 2]
        gc.collect()
        kz = Killzone.from_dict(layouts[name], source=name)
        counts[name].add(_first_deploys(kz, 1))
        del kz
    assert all(len(c) == 1 for c in counts.values()), counts
    assert counts["open_ruins"] != counts["narrow"]
