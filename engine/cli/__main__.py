"""``python -m engine.cli``: the ``killteam`` command (:func:`engine.cli.main`)."""

import sys

from engine.cli import main

sys.exit(main())
