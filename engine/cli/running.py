"""What ``killteam batch`` and ``killteam tournament`` share while their battles run.

- :func:`backend_options`: ``--backend process|ray`` (:mod:`engine.play.backends`),
  ``--workers N`` and ``--progress-every N``.
- :class:`BattleProgress`: on a terminal, ``rich``'s progress bar on standard error; when
  standard error is not a terminal (a log file, a pipe, a batch job), a plain line every N
  battles and after the last one (``batch: 40/200 battles, 12.3 s``, the seconds since the run
  started); nothing with ``-q``.
- :class:`OrderedLines`: the ``--out`` file written battle by battle: one JSON line per battle
  in the order of the run (the index of a batch, the schedule of a tournament), each line
  whole and flushed as soon as every earlier one is written; after Ctrl-C, the battles
  finished out of order are written too (still in order). The file is created at the first
  battle, so a run refused before it creates nothing; a complete run writes the same bytes
  whatever the backend and the number of workers.

Only ``click`` is imported here; the rest when a command runs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["DEFAULT_PROGRESS_EVERY", "BattleProgress", "OrderedLines", "backend_options"]

#: Battles between two plain progress lines when standard error is not a terminal.
DEFAULT_PROGRESS_EVERY = 10


def backend_options(f: Any) -> Any:
    """Add ``--backend`` (the ``backend`` argument), ``--workers`` (``workers``, ``None``
    for the default) and ``--progress-every`` (``progress_every``)."""
    from engine.play.backends import BACKENDS  # names only: no part of the game

    options = (
        click.option(
            "--backend",
            type=click.Choice(BACKENDS),
            default=BACKENDS[0],
            show_default=True,
            help="Where the battles run: process (this machine's CPUs, a pool of worker "
            "processes) or ray (a Ray cluster, or a local Ray instance of --workers CPUs when "
            "none is running; pip install -e '.[ray]'). Results never depend on it.",
        ),
        click.option(
            "--workers",
            type=click.IntRange(1, 512),
            default=None,
            help="Worker processes, or CPUs of a local Ray instance (default: the CPUs "
            "available). Results never depend on it.",
        ),
        click.option(
            "--progress-every",
            type=click.IntRange(1, 1_000_000),
            default=DEFAULT_PROGRESS_EVERY,
            show_default=True,
            metavar="N",
            help="When standard error is not a terminal, print a progress line every N "
            "battles (on a terminal: a progress bar).",
        ),
    )
    for option in reversed(options):
        f = option(f)
    return f


class BattleProgress:
    """The progress of ``total`` battles (module docstring): a bar on a terminal, plain
    lines ``"<label>: <done>/<total> battles, <seconds> s"`` every ``every`` battles
    otherwise, nothing when ``quiet``.

    Args:
        stream: where the progress goes (default standard error); whether it is a terminal
            decides bar or lines.
    """

    def __init__(
        self,
        label: str,
        total: int,
        *,
        quiet: bool = False,
        every: int = DEFAULT_PROGRESS_EVERY,
        stream: IO[str] | None = None,
    ) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.every = every
        self.quiet = quiet
        self._stream = stream
        self._start = time.monotonic()
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        out = stream if stream is not None else sys.stderr
        if not quiet and out.isatty():
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            from engine.cli.common import console

            self._bar = Progress(
                TextColumn(label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console(stderr=True),
                transient=True,
            )
            self._task = self._bar.add_task(label, total=total)

    def line(self) -> str:
        """The plain progress line now."""
        seconds = time.monotonic() - self._start
        return f"{self.label}: {self.done}/{self.total} battles, {seconds:.1f} s"

    def advance(self) -> None:
        """One more battle finished."""
        self.done += 1
        if self.quiet:
            return
        if self._bar is not None and self._task is not None:
            # Started on the first result, once the worker processes exist (never fork while
            # the bar's refresh thread runs).
            if not self._bar.live.is_started:
                self._bar.start()
            self._bar.advance(self._task)
        elif self.done % self.every == 0 or self.done == self.total:
            click.echo(self.line(), err=self._stream is None, file=self._stream)

    def stop(self) -> None:
        """Remove the bar (the plain lines stay)."""
        if self._bar is not None:
            self._bar.stop()


class OrderedLines:
    """The ``--out`` file of a run, written battle by battle (module docstring).

    Args:
        path: the file (``None``: nothing is written).
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._file: IO[str] | None = None
        self._next = 0
        self._waiting: dict[int, dict[str, Any]] = {}

    def _write(self, line: dict[str, Any]) -> None:
        from engine.game.record_format import dumps_line

        if self._file is None:
            assert self.path is not None
            self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed by finish
        self._file.write(dumps_line(line) + "\n")
        self._file.flush()

    def add(self, k: int, line: dict[str, Any]) -> None:
        """Battle ``k`` (its position in the run) finished: write it, and every battle after
        it that was waiting for it, once every battle before it is written."""
        if self.path is None:
            return
        self._waiting[k] = line
        while self._next in self._waiting:
            self._write(self._waiting.pop(self._next))
            self._next += 1

    def finish(self, results: Iterable[tuple[int, dict[str, Any]]] = ()) -> None:
        """Write the battles of ``results`` not written yet and those still waiting, by
        position, and close the file (created empty when there is none)."""
        if self.path is None:
            return
        for k, line in results:
            if k >= self._next:
                self._waiting[k] = line
        for k in sorted(self._waiting):
            self._write(self._waiting[k])
        self._waiting.clear()
        if self._file is None:
            self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115
        self._file.close()
