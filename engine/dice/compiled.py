"""The compiled dice kernel and its plain-Python reference.

:mod:`engine.dice.kernel` (the exact shoot's attack-roll and defence-table arithmetic) is
plain typed Python; an install on a machine with a C compiler also compiles it with mypyc
(``setup.py``; mypyc comes with mypy), and Python then imports the compiled extension in
place of the source file: the exact shoot of an attack takes about half the time. Both give
the same weights: the compiled code runs the same integer and float operations in the same
order (``tests/test_compiled_kernels.py`` compares them on random profiles and on whole
battles).

Setting the environment variable ``KILLTEAM_PURE_PYTHON=1`` before the first import of
:mod:`engine.dice` selects the plain-Python module even where a compiled one is installed
(the reference, for checking and debugging); :func:`kernels_in_use` tells which one a
process runs. A compiled module older than its source (the source edited or updated after
the install, in an editable install) is never used: the source is, until the next
``pip install -e .`` compiles it again. An install without a C compiler prints one line
(``pip install -v`` shows it) and runs the plain-Python module.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["KERNEL_MODULES", "PURE_PYTHON", "kernels_in_use"]

KERNEL_MODULES: tuple[str, ...] = ("engine.dice.kernel",)
"""The modules ``setup.py`` compiles when it can (a test keeps the two lists equal)."""

PURE_PYTHON: bool = os.environ.get("KILLTEAM_PURE_PYTHON", "") == "1"
"""Whether this process runs the plain-Python kernels whatever is installed."""

_ROOT = Path(__file__).resolve().parents[2]


def _source(name: str) -> Path:
    """The ``.py`` file of the kernel module ``name`` (dotted, under the project's root)."""
    return _ROOT.joinpath(*name.split(".")).with_suffix(".py")


def _stale(name: str) -> bool:
    """Whether a compiled file of the kernel module ``name`` lies beside its source and is
    older than it."""
    source = _source(name)
    try:
        mtime = source.stat().st_mtime
    except OSError:
        return False
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        built = source.with_suffix(suffix)
        if built.exists() and built.stat().st_mtime < mtime:
            return True
    return False


class _PlainPythonKernels(importlib.abc.MetaPathFinder):
    """Finds each kernel module at its ``.py`` source file, ahead of a compiled extension
    (every kernel with ``KILLTEAM_PURE_PYTHON=1``, else those whose compiled file is stale)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in KERNEL_MODULES or not (PURE_PYTHON or _stale(fullname)):
            return None
        return importlib.util.spec_from_file_location(fullname, _source(fullname))


if not any(isinstance(f, _PlainPythonKernels) for f in sys.meta_path):
    sys.meta_path.insert(0, _PlainPythonKernels())


def kernels_in_use() -> dict[str, str]:
    """Each kernel module's dotted name mapped to ``"compiled"`` or ``"python"``: what this
    process runs (importing the modules)."""
    out: dict[str, str] = {}
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        origin = str(getattr(module, "__file__", "") or "")
        out[name] = "python" if origin.endswith(".py") else "compiled"
    return out
