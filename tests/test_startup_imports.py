"""Fast start (issue 29): the dice core and ``killteam calc`` import only what they use.

Each check runs a fresh interpreter (the test process itself has imported everything) and
lists the modules it loaded. ``import engine.dice`` and ``killteam calc`` must load no part of
the game (``engine.game`` and what only the game needs: shapely, networkx) and not numpy
(only sampling needs it); ``killteam --help`` and ``calc --json`` not rich either (only tables
and markup need it). How long starting takes is measured by ``benchmarks/startup.py``, not
asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

GAME = ("engine.game", "engine.play", "engine.agents", "shapely", "networkx", "numpy")

SHOOT = ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "12"]
FIGHT = [
    "calc",
    "fight",
    "-a",
    "4",
    "--hit",
    "3+",
    "-d",
    "4/5",
    "-w",
    "12",
    "--enemy-attacks",
    "4",
    "--enemy-hit",
    "4+",
    "--enemy-damage",
    "3/4",
    "--enemy-wounds",
    "8",
]


def loaded_after(code: str) -> set[str]:
    """The modules loaded by a fresh interpreter after running ``code``."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def loaded_by_command(args: list[str]) -> set[str]:
    """The modules loaded running ``killteam ARGS`` (its output captured)."""
    return loaded_after(
        "import contextlib, io\nfrom engine.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    assert main({args!r}) == 0\n"
    )


def heavy(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_import_dice_loads_no_game_and_no_numpy() -> None:
    """``import engine.dice`` loads the dice core alone: sampling (the one user of numpy) is
    imported only by who asks for ``engine.dice.sample``."""
    assert heavy(loaded_after("import engine.dice"), GAME) == []


@pytest.mark.parametrize(
    "args", [SHOOT, [*SHOOT, "--cover", "-r", "Lethal 5+, Piercing 1"], FIGHT], ids=str
)
def test_killteam_calc_loads_no_game(args: list[str]) -> None:
    """``killteam calc`` is the dice core behind a command line: no game, no numpy."""
    assert heavy(loaded_by_command(args), GAME) == []


@pytest.mark.parametrize("args", [["--help"], [*SHOOT, "--json"]], ids=str)
def test_help_and_json_load_no_rich(args: list[str]) -> None:
    """Neither the command list nor JSON output prints a table or markup, so neither loads
    ``rich`` (nor the game)."""
    assert heavy(loaded_by_command(args), (*GAME, "rich")) == []
