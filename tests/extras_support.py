"""Imports for the tests of the optional extras (``[rl]``, ``[ray]``).

:func:`need` skips the calling test module when the library is missing, except when the
environment variable ``KILLTEAM_REQUIRE_EXTRAS`` is set (``.ci/run`` sets it after installing
the extras): then a missing library is an import error, so an extra that failed to install
can never pass as skipped.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

REQUIRE_ENV = "KILLTEAM_REQUIRE_EXTRAS"


def need(module: str) -> ModuleType:
    """The module ``module`` (``"pettingzoo"``, ``"pyspiel"``, ``"ray"``...).

    Raises:
        ImportError: the module is missing and ``KILLTEAM_REQUIRE_EXTRAS`` is set.
        pytest.skip.Exception: the module is missing otherwise (the test module skips).
    """
    if os.environ.get(REQUIRE_ENV):
        return importlib.import_module(module)
    return pytest.importorskip(module)
