"""What ``control MARKER`` reads under KT21 (:data:`KT21_CONTROL`, given to the one control
explanation :func:`engine.explain.control.explain_control` by the edition table
:mod:`engine.explain.editions`): ``rules/KT21.md`` 15.1, decision 6: an operative contests a
marker when its base is within 2" of the marker's centre, no visibility asked; the greater
total APL controls it; a carrier controls what it carries.

The contest test is the one the battle installs
(:func:`engine.rules.kt21.marker_actions.within_control_distance`); the distance shown is the
one that test measures.
"""

from __future__ import annotations

from engine.explain.control import ControlRules
from engine.game.state import MarkerState
from engine.game.work import Work
from engine.geometry.model import Placement
from engine.rules.kt21 import marker_actions

__all__ = ["KT21_CONTROL"]

_SEC = "rules/KT21.md 15.1"


def _kt21_gap(w: Work, place: Placement, m: MarkerState) -> float:
    """From the operative's base to the marker's centre (inches), as the KT21 contest test
    measures it (``rules/KT21.md`` 15.1, decision 6)."""
    del w
    return marker_actions._gap_to_centre(place, (m.x, m.y))  # the measure of the KT21 test


KT21_CONTROL = ControlRules(
    gap=_kt21_gap,
    contests=(
        "{op} ({player}) has its base {gap} from the centre of {marker}, within "
        f'{marker_actions.CONTROL_DISTANCE:g}": APL {{apl}}'
    ),
    changed=", changed to {apl}",
    nobody=(
        f'no operative has its base within {marker_actions.CONTROL_DISTANCE:g}" of the '
        "centre of {marker}"
    ),
    sections={
        "carried": _SEC,
        "contests": f"{_SEC}, decision 6",
        "contested": f"{_SEC}, decision 6",
        "totals": _SEC,
        "controller": _SEC,
    },
)
"""KT21's control (module docstring)."""
