"""Start-up times of the library and the command line; prints figures (nothing is asserted).

Run: ``python benchmarks/startup.py`` (``--runs N``, default 7). Each command runs N times in
a fresh interpreter, interleaved (one run of each command per round, so that the load of the
machine weighs on all alike); the medians of the wall time and of the processor time (user +
system, of the child process, from ``os.wait4``) are printed against the goals of issue 29:

- ``import engine`` and ``killteam --help``: under 0.25 s of processor time;
- ``killteam calc shoot ...``: under 0.3 s wall, importing the dice core alone.

The commands run with byte-code caching on (``PYTHONDONTWRITEBYTECODE`` removed from their
environment) after one unmeasured round, so that they load compiled modules as an installed
``killteam`` does, instead of compiling every source file at each start.
``python -c pass`` is the interpreter's own start-up, included in every other figure. The
modules each command imported are listed too, checking that ``killteam calc`` loads no part
of the game (``engine.game``, shapely, networkx, numpy); ``tests/test_startup_imports.py``
asserts the same.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

PY = sys.executable
CLI = [PY, "-m", "engine.cli"]
SHOOT = ["calc", "shoot", "-a", "4", "--hit", "3+", "-d", "3/4", "--save", "3+", "-w", "12"]
SHOOT += ["--cover", "-r", "Lethal 5+, Piercing 1"]
FIGHT = ["calc", "fight", "-a", "4", "--hit", "3+", "-d", "4/5", "-w", "12"]
FIGHT += ["--enemy-attacks", "4", "--enemy-hit", "4+", "--enemy-damage", "3/4"]
FIGHT += ["--enemy-wounds", "8"]

#: (label, command, goal: (kind, seconds) or None)
COMMANDS: list[tuple[str, list[str], tuple[str, float] | None]] = [
    ("python -c pass", [PY, "-c", "pass"], None),
    ("import engine", [PY, "-c", "import engine"], ("cpu", 0.25)),
    ("import engine.dice", [PY, "-c", "import engine.dice"], None),
    ("killteam --help", [*CLI, "--help"], ("cpu", 0.25)),
    ("killteam calc shoot --help", [*CLI, "calc", "shoot", "--help"], None),
    ("killteam calc shoot ...", [*CLI, *SHOOT], ("wall", 0.3)),
    ("killteam calc fight ...", [*CLI, *FIGHT], None),
]

HEAVY = ("engine.game", "shapely", "networkx", "numpy", "engine.play", "engine.agents")


#: The environment of the commands: byte-code caching on (module docstring).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str]) -> tuple[float, float]:
    """Wall and processor seconds of one run (output discarded)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(command)} exited with {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def heavy_modules(command: list[str]) -> list[str]:
    """The heavy top-level modules a command imports (run once more, in-process report)."""
    if command[1] == "-c":
        code = command[2] + "\n"
    else:
        args = command[3:]
        code = (
            "import contextlib, io\nfrom engine.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()): main({args!r})\n"
        )
    code += "import sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.split()
    return sorted({h for h in HEAVY for m in loaded if m == h or m.startswith(h + ".")})


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in COMMANDS}
    for _, command, _ in COMMANDS:  # unmeasured: writes the byte-code caches
        run(command)
    for _ in range(runs):
        for label, command, _ in COMMANDS:
            samples[label].append(run(command))
    print(f"Start-up, median of {runs} runs (interleaved)")
    print(f"{'command':28s} {'wall s':>7s} {'cpu s':>7s}  goal")
    for label, _command, goal in COMMANDS:
        wall = statistics.median(w for w, _ in samples[label])
        cpu = statistics.median(c for _, c in samples[label])
        note = ""
        if goal is not None:
            kind, limit = goal
            value = cpu if kind == "cpu" else wall
            note = f"< {limit} s {kind}: {'met' if value < limit else 'NOT met'}"
        print(f"{label:28s} {wall:7.3f} {cpu:7.3f}  {note}")
    print()
    for label, command, _ in COMMANDS[1:]:
        heavy = heavy_modules(command)
        print(f"{label:28s} imports {', '.join(heavy) if heavy else 'none of ' + ', '.join(HEAVY)}")


if __name__ == "__main__":
    main()
