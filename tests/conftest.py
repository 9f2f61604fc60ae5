"""Test configuration.

Under CI (``CI`` set, as ``.ci/run`` runs) hypothesis draws the same examples every run
(``derandomize``), so a landing never depends on luck and any failure reproduces; locally it
keeps exploring new examples.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
