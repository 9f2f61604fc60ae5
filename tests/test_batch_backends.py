"""Batches on every backend (this process, a process pool, Ray), Ctrl-C keeping the battles
already played, and the progress lines written when standard error is not a terminal
(:mod:`engine.play.backends`, :mod:`engine.batch`, :mod:`engine.cli.running`)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine.cli.running
from engine.batch import BatchInterrupted, check_batch_line, run_batch
from engine.cli import main
from engine.cli.running import BattleProgress, OrderedLines
from engine.play.backends import BackendError, run_tasks
from engine.play.matchup import MatchupChoice
from tests.extras_support import need

ROOT = Path(__file__).resolve().parent.parent

#: The smallest built-in team against itself, random agents: a battle takes a fraction of a
#: second.
SMALL = MatchupChoice(teams=("legionaries", "legionaries"), agents="random")
SMALL_ARGS = ["--teams", "legionaries", "legionaries", "--agents", "random"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def serial_lines() -> list[dict[str, Any]]:
    """Six battles of SMALL with base seed 3, in this process: the reference results."""
    return run_batch(SMALL, 6, base_seed=3, workers=1)


def _stop_after(k: int) -> Any:
    """An ``on_game`` callback that raises KeyboardInterrupt at the k-th result (as Ctrl-C
    arriving then would)."""
    seen: list[int] = []

    def on_game(line: dict[str, Any]) -> None:
        seen.append(line["index"])
        if len(seen) == k:
            raise KeyboardInterrupt

    return on_game


# -------------------------------------------------------------------------------------------
# Ctrl-C in the library
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_battles_finished_before_it(
    workers: int, serial_lines: list[dict[str, Any]]
) -> None:
    """Interrupted at the 3rd result, a batch raises BatchInterrupted (a KeyboardInterrupt)
    holding exactly those 3 battles, each the same as in a whole serial batch (the seed
    scheme does not depend on the backend), with "stopped after 3 of 6 battles"."""
    with pytest.raises(BatchInterrupted) as info:
        run_batch(SMALL, 6, base_seed=3, workers=workers, on_game=_stop_after(3))
    stop = info.value
    assert isinstance(stop, KeyboardInterrupt)
    assert stop.total == 6 and len(stop.lines) == 3
    assert stop.message == "stopped after 3 of 6 battles"
    indexes = [line["index"] for line in stop.lines]
    assert indexes == sorted(indexes)
    for line in stop.lines:
        assert line == serial_lines[line["index"]]
    if workers == 1:
        assert indexes == [0, 1, 2]


def test_ctrl_c_inside_a_battle_keeps_the_earlier_ones(
    monkeypatch: pytest.MonkeyPatch, serial_lines: list[dict[str, Any]]
) -> None:
    """Ctrl-C while the third battle is being played (here: raised by its agent's first
    decision) drops that battle and keeps the two finished ones."""
    import engine.batch

    real = engine.batch.play_battle
    calls = []

    def play(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.batch, "play_battle", play)
    with pytest.raises(BatchInterrupted) as info:
        run_batch(SMALL, 6, base_seed=3, workers=1)
    assert info.value.lines == serial_lines[:2]


def test_run_tasks_refuses_an_unknown_backend_and_explains_a_missing_ray(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An unknown backend is named; without Ray installed, the ray backend says how to
    install it (the optional extra)."""
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        run_tasks(abs, [1], lambda k, r: None, backend="spark")
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(BackendError, match=re.escape("pip install -e '.[ray]'")):
        run_tasks(abs, [1], lambda k, r: None, backend="ray")


# -------------------------------------------------------------------------------------------
# Ctrl-C and progress on the command line
# -------------------------------------------------------------------------------------------


def test_batch_ctrl_c_prints_the_finished_games_and_leaves_whole_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after 2 of 5 games: exit status 130, the statistics of the 2 games under
    "stopped after 2 of 5 battles", and --out holds those 2 games, whole lines each checked as
    a batch checks its lines."""
    monkeypatch.chdir(tmp_path)
    real = BattleProgress.advance

    def advance(self: BattleProgress) -> None:
        real(self)
        if self.done == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(engine.cli.running.BattleProgress, "advance", advance)
    args = ["batch", *SMALL_ARGS, "-n", "5", "--seed", "3", "--workers", "1"]
    code, out, err = _run(capsys, *args, "--out", "g.jsonl")
    assert code == 130
    assert "stopped after 2 of 5 battles" in out
    assert "Results of player A over 2 games" in out
    assert "killteam: aborted" in err
    text = Path("g.jsonl").read_text()
    assert text.endswith("\n")
    lines = [json.loads(x) for x in text.splitlines()]
    for i, line in enumerate(lines):
        check_batch_line(line, i, 3, ("random", "random"))
    assert len(lines) == 2

    code, out, _ = _run(capsys, *args, "--json")
    assert code == 130
    data = json.loads(out)
    assert (data["games"], data["planned"], data["interrupted"]) == (2, 5, True)


def test_tournament_ctrl_c_rates_the_battles_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tournament stopped after 3 of its 4 battles rates those 3 (the JSON says 3 of 4,
    interrupted), writes them to --out and exits 130."""
    monkeypatch.chdir(tmp_path)
    real = BattleProgress.advance

    def advance(self: BattleProgress) -> None:
        real(self)
        if self.done == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(engine.cli.running.BattleProgress, "advance", advance)
    args = ["tournament", "--agents", "random", "--teams", "legionaries,angels_of_death"]
    args += ["-n", "2", "--workers", "1", "--bootstrap", "20", "--out", "t.jsonl"]
    code, out, _ = _run(capsys, *args, "--json")
    assert code == 130
    data = json.loads(out)
    assert (data["battles"], data["planned"], data["interrupted"]) == (3, 4, True)
    assert sum(e["games"] for e in data["entrants"]) == 2 * 3
    games = [json.loads(x)["game"] for x in Path("t.jsonl").read_text().splitlines()]
    assert games == [0, 1, 2]


def test_progress_lines_without_a_terminal() -> None:
    """Not on a terminal, the progress is a plain line every N battles and after the last:
    with N = 2 and 5 battles, after 2, 4 and 5."""
    stream = io.StringIO()
    progress = BattleProgress("batch", 5, every=2, stream=stream)
    for _ in range(5):
        progress.advance()
    progress.stop()
    lines = stream.getvalue().splitlines()
    assert [re.sub(r", [0-9]+\.[0-9] s$", ", T s", x) for x in lines] == [
        "batch: 2/5 battles, T s",
        "batch: 4/5 battles, T s",
        "batch: 5/5 battles, T s",
    ]
    quiet = io.StringIO()
    progress = BattleProgress("batch", 5, every=1, quiet=True, stream=quiet)
    progress.advance()
    assert quiet.getvalue() == ""


def test_batch_prints_progress_lines_on_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``killteam batch --progress-every 2`` with standard error captured (not a terminal):
    the lines after game 2 and game 3 (the last), and nothing with -q."""
    args = ["batch", *SMALL_ARGS, "-n", "3", "--workers", "1", "--progress-every", "2"]
    code, _, err = _run(capsys, *args)
    assert code == 0
    assert re.findall(r"^batch: (\d+)/3 battles, \d+\.\d s$", err, re.M) == ["2", "3"]
    code, _, err = _run(capsys, *args, "-q")
    assert "battles" not in err


def test_out_lines_are_written_in_order_as_soon_as_they_can_be(tmp_path: Path) -> None:
    """Battles finishing 2, 0, 1 are written 0 then 1, 2 (never 2 before 0); after Ctrl-C,
    finish() adds the finished ones still waiting, in order."""
    path = tmp_path / "o.jsonl"
    out = OrderedLines(str(path))
    out.add(2, {"k": 2})
    assert not path.exists()
    out.add(0, {"k": 0})
    assert path.read_text() == '{"k":0}\n'
    out.add(4, {"k": 4})
    out.finish([(0, {"k": 0}), (2, {"k": 2}), (4, {"k": 4})])
    assert [json.loads(x)["k"] for x in path.read_text().splitlines()] == [0, 2, 4]


def test_a_real_sigint_stops_a_parallel_batch_with_whole_lines(tmp_path: Path) -> None:
    """SIGINT to a ``killteam batch`` of worker processes once a few games are done: it exits
    130 within seconds, prints "stopped after N of 200 battles", and --out holds whole
    lines of games 0..N-1 or more (never a torn line)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "engine.cli", "batch", *SMALL_ARGS, "-n", "200"]
    cmd += ["--workers", "2", "--progress-every", "1", "--out", "g.jsonl"]
    proc = subprocess.Popen(
        cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None
    try:
        for line in _lines(proc.stderr):
            if line.startswith("batch: 3/200"):
                break
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    found = re.search(r"stopped after (\d+) of 200 battles", out)
    assert found is not None, out
    text = (tmp_path / "g.jsonl").read_text()
    assert text.endswith("\n")
    lines = [json.loads(x) for x in text.splitlines()]
    assert len(lines) == int(found.group(1)) >= 3
    for line in lines:
        check_batch_line(line, line["index"], 1, ("random", "random"))


def _lines(stream: Any) -> Iterator[str]:
    for line in stream:
        yield line.rstrip("\n")
    raise AssertionError("the batch ended before any progress line")


# -------------------------------------------------------------------------------------------
# Ray
# -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """A local Ray instance of 2 CPUs for this module's Ray tests (skipped without Ray)."""
    ray = need("ray")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
    )
    yield ray
    ray.shutdown()


@pytest.mark.extras
def test_ray_gives_the_same_lines_as_the_process_pool(
    local_ray: Any, serial_lines: list[dict[str, Any]]
) -> None:
    """The same seeds on Ray give exactly the lines of the serial run (each checked as read
    back); interrupted at the 2nd result, Ray keeps those 2 battles too."""
    assert run_batch(SMALL, 6, base_seed=3, workers=2, backend="ray") == serial_lines
    with pytest.raises(BatchInterrupted) as info:
        run_batch(SMALL, 6, base_seed=3, workers=2, backend="ray", on_game=_stop_after(2))
    assert len(info.value.lines) == 2
    for line in info.value.lines:
        assert line == serial_lines[line["index"]]
