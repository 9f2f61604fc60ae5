"""Kill Team (2024 edition) rules engine and game simulator.

Subpackages:

- :mod:`engine.dice` -- the dice-resolution core: weapon-rule specs, exact shooting and
  fighting distributions, and vectorised sampling (``rules/KT24.md`` sections 2.4, 5 and 6).
"""

__version__ = "0.1.0"

RULESET = "kt24"
