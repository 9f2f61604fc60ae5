"""Many independent tasks run on a backend: in this process, in a pool of worker processes, or
on Ray (``killteam batch``/``tournament --backend process|ray``).

:func:`run_tasks` calls a picklable top-level function on each task and hands each result to
a callback as it finishes (in completion order, with the task's position). The backends:

- ``"process"`` (the default): with one worker, every task in this process, one after the
  other; with more, a :class:`concurrent.futures.ProcessPoolExecutor` of that many processes,
  forked where the platform allows (so the workers inherit what this process built first,
  e.g. warm movement graphs). The workers ignore SIGINT: Ctrl-C is this process's to handle.
- ``"ray"``: each task is a Ray task of one CPU. Ray is an optional extra (``pip install -e
  '.[ray]'``), imported only here, only when this backend is asked for; without it,
  :class:`BackendError` says how to install it. A Ray instance already started in this
  process (``ray.init(...)``, e.g. a cluster's address) is used as it is; otherwise a local
  one of ``workers`` CPUs is started for the run and shut down after it.

Whatever the backend, at most a few tasks per worker are handed out ahead of the results, so
stopping early leaves little to cancel.

**Ctrl-C.** A :class:`KeyboardInterrupt` while waiting for results, or raised by the callback
(e.g. by a progress bar, or by a test after ``k`` results), stops handing out tasks, cancels
those not finished (the worker processes are terminated; Ray tasks are cancelled with
``force=True``) and is raised again: the results already handed to the callback are the
caller's to keep. Any other error of a task does the same and is raised as it is.

This module knows nothing of battles (:mod:`engine.batch` runs battles with it).
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from engine.errors import KillTeamError

__all__ = ["BACKENDS", "RAY_INSTALL", "BackendError", "run_tasks"]

#: The backends :func:`run_tasks` knows, the default first.
BACKENDS: tuple[str, ...] = ("process", "ray")

#: How to install the Ray backend's optional extra.
RAY_INSTALL = "pip install -e '.[ray]'"

#: Tasks handed out ahead of the results, per worker.
_AHEAD = 2

T = TypeVar("T")
R = TypeVar("R")


class BackendError(KillTeamError, RuntimeError):
    """A backend that cannot run here: an unknown name, or Ray asked for but not installed
    (the message says how to install it)."""


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    on_result: Callable[[int, R], None],
    *,
    backend: str = "process",
    workers: int = 1,
) -> None:
    """Call ``fn(task)`` for each task on ``backend`` and ``on_result(k, result)`` for task
    ``k`` (its position in ``tasks``) as each finishes, in this process.

    Args:
        fn: a top-level function (picklable by reference) of one task; tasks and results
            must pickle.
        tasks: the tasks.
        on_result: called in this process, in completion order.
        backend: one of :data:`BACKENDS` (module docstring).
        workers: worker processes (``"process"``: 1 means this process), or the CPUs of the
            local Ray instance started when none is running.

    Raises:
        KeyboardInterrupt: Ctrl-C, or raised by ``on_result``: the tasks not finished are
            cancelled first (module docstring).
        BackendError: an unknown backend, or ``"ray"`` without Ray installed.
        ValueError: ``workers`` below 1.
        Exception: whatever a task raised (the rest cancelled first).
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if not tasks:
        return
    if backend == "ray":
        _run_ray(fn, tasks, on_result, workers)
    elif workers == 1:
        for k, task in enumerate(tasks):
            on_result(k, fn(task))
    else:
        _run_pool(fn, tasks, on_result, min(workers, len(tasks)))


def _ignore_sigint() -> None:
    """The pool's worker initializer: Ctrl-C is the parent's to handle (module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and terminate the worker processes (the tasks they run are
    abandoned)."""
    pool.shutdown(wait=False, cancel_futures=True)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


def _run_pool(
    fn: Callable[[T], R], tasks: Sequence[T], on_result: Callable[[int, R], None], workers: int
) -> None:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_sigint)
    running: dict[Future[R], int] = {}
    next_task = 0
    try:
        while next_task < len(tasks) or running:
            while next_task < len(tasks) and len(running) < _AHEAD * workers:
                running[pool.submit(fn, tasks[next_task])] = next_task
                next_task += 1
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: running[f]):
                k = running.pop(fut)
                on_result(k, fut.result())
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _run_ray(
    fn: Callable[[T], R], tasks: Sequence[T], on_result: Callable[[int, R], None], workers: int
) -> None:
    try:
        import ray  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise BackendError(
            f"the ray backend needs Ray, which is not installed: {RAY_INSTALL}"
        ) from None
    started = False
    if not ray.is_initialized():
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
        started = True
    remote: Any = ray.remote(num_cpus=1, max_retries=0)(fn)
    cpus = ray.cluster_resources().get("CPU", workers)  # type: ignore[no-untyped-call,unused-ignore]
    ahead = _AHEAD * max(1, int(cpus))
    running: dict[Any, int] = {}
    next_task = 0
    try:
        while next_task < len(tasks) or running:
            while next_task < len(tasks) and len(running) < ahead:
                running[remote.remote(tasks[next_task])] = next_task
                next_task += 1
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                k = running.pop(ref)
                on_result(k, ray.get(ref))
    except BaseException:
        for ref in running:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
