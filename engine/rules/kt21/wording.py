"""The words of KT21 in the shared core's refusals (``rules/KT21.md``; DESIGN.md "Rulesets"):
the core words its refusals through a :class:`~engine.game.bookkeeping.Wording` (the term for
the 1" zone around an enemy and the section each check cites); :func:`install` gives a KT21
battle :data:`KT21_WORDING` through the ``refusal_wording`` hook, so that a KT21 refusal says
**Engagement Range** (7.2), not KT24's control range, and cites ``rules/KT21.md`` sections.

The sections, check by check (the digest's rule for each):

- ``removed``, ``not_on_killzone``: an incapacitated operative is removed (4.4).
- ``not_free``, ``free_granted``: free actions (6.2).
- ``ap``: the activation's AP (3.1 step 4) and the action's cost (6.1); ``rule_ap``: 3.1.
- ``once``: no action more than once per activation (3.1 step 4).
- ``excludes``: the same-activation exclusions of the universal actions (6.1).
- ``in_range`` (Dash, Charge, Pick Up within Engagement Range), ``shoot_in_range``,
  ``fall_back``: the 6.1 table's conditions and Engagement Range (7.2).
- ``fight``: 6.1 (no enemy within its Engagement Range) and the fight's valid target (11 step 1).
- ``conceal_charge``: orders (5) and Charge (6.1).
- ``heavy``: the Heavy special rule (12).
- ``interrupt``: Guard and guard attacks are Close Quarters rules (13).
- ``no_destination``, ``charge_reach``: the moves of 6.1; ``no_path``: moving (7.3, 7.4).
- ``no_target``: valid targets (8.5) and the shooting attack's target (10.1 step 2).
- ``not_an_action``, ``no_such_action``: the actions an operative has (6.1, 6.2).

The KT24 counteraction's refusals (``rules/KT24.md`` 1.6) keep KT24's wording: KT21 has no
counteraction (its Overwatch, 3.5, has its own refusals), so a KT21 battle never words one.
"""

from __future__ import annotations

from typing import Any

from engine.game.bookkeeping import Wording
from engine.game.context import Hooks

__all__ = ["ENGAGEMENT_RANGE", "KT21_WORDING", "install"]

ENGAGEMENT_RANGE = "Engagement Range"
"""KT21's term for the 1" zone around an enemy (7.2)."""

KT21_WORDING = Wording(
    control_range=ENGAGEMENT_RANGE,
    sections={
        "removed": "rules/KT21.md 4.4",
        "not_free": "rules/KT21.md 6.2",
        "ap": "rules/KT21.md 3.1, 6.1",
        "rule_ap": "rules/KT21.md 3.1",
        "once": "rules/KT21.md 3.1",
        "excludes": "rules/KT21.md 6.1",
        "interrupt": "rules/KT21.md 13",
        "in_range": "rules/KT21.md 6.1, 7.2",
        "shoot_in_range": "rules/KT21.md 6.1, 7.2",
        "fall_back": "rules/KT21.md 6.1, 7.2",
        "fight": "rules/KT21.md 6.1, 11",
        "conceal_charge": "rules/KT21.md 5, 6.1",
        "heavy": "rules/KT21.md 12 Heavy",
        "not_on_killzone": "rules/KT21.md 4.4",
        "free_granted": "rules/KT21.md 6.2",
        "no_destination": "rules/KT21.md 6.1",
        "no_target": "rules/KT21.md 8.5, 10.1",
        "not_an_action": "rules/KT21.md 6.1",
        "no_such_action": "rules/KT21.md 6.1, 6.2",
        "no_path": "rules/KT21.md 7.3, 7.4",
        "charge_reach": "rules/KT21.md 6.1",
    },
    geometry=(
        ("control range", ENGAGEMENT_RANGE),
        ("Reposition", "Normal Move"),
        ("(KT24 3.2, 3.3)", "(rules/KT21.md 7.3, 7.4)"),
        ("(KT24 3.2)", "(rules/KT21.md 6.1, 7.2)"),
        ("(KT24 3.3)", "(rules/KT21.md 7.3)"),
    ),
)
"""The KT21 wording of the shared core's refusals (module docstring)."""


def _kt21_wording(_w: Any, _wording: Wording) -> Wording:
    """The ``refusal_wording`` hook: :data:`KT21_WORDING` instead of the core's."""
    return KT21_WORDING


def install(hooks: Hooks) -> None:
    """Word the shared core's refusals of a KT21 battle in KT21's terms and sections (the
    ``refusal_wording`` hook)."""
    hooks.transform("refusal_wording", _kt21_wording)
