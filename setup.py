"""Build script for the optional compiled kernels; the package itself is described in
``pyproject.toml``.

The kernels listed in :data:`KERNELS` (plain typed Python: the exact shoot's arithmetic,
``engine.dice.kernel``) are compiled with mypyc when the build can:
mypyc comes with mypy, installed from PyPI's wheels into the build environment, and needs a C
compiler. Without one (or with ``KILLTEAM_PURE_PYTHON=1`` set at install), the build prints
one line and the package runs the same modules as plain Python, with the same results. At run
time ``KILLTEAM_PURE_PYTHON=1`` selects the plain-Python modules even where compiled ones are
installed (``engine.dice.compiled``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

KERNELS = ["engine/dice/kernel.py"]
NOTICE = (
    "killteam-engine: compiled kernels not built ({why}); the plain-Python kernels are used "
    "(same results, slower)"
)


def _notice(why: str) -> None:
    print(NOTICE.format(why=why), file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` that never fails the install: when compiling fails, it removes what it
    built (a partial set of compiled modules would not import) and prints the notice."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing compiler, headers, or a mypyc error
            for out in self.get_outputs():
                Path(out).unlink(missing_ok=True)
                if self.inplace:
                    rel = os.path.relpath(out, self.build_lib)
                    Path(rel).unlink(missing_ok=True)
            first = str(exc).splitlines()[0] if str(exc) else ""
            _notice(f"{type(exc).__name__}: {first[:80]}")


def _ext_modules() -> list[Any]:
    if os.environ.get("KILLTEAM_PURE_PYTHON") == "1":
        _notice("KILLTEAM_PURE_PYTHON=1")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _notice("mypyc is not available")
        return []
    try:
        return list(mypycify(KERNELS, opt_level="3"))
    except (Exception, SystemExit) as exc:  # mypyc exits when its type check fails
        _notice(f"mypyc: {type(exc).__name__}")
        return []


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
