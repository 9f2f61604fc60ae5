"""Readings of marker control (issue 31, part 1, group A): a rule that changes how an
operative's APL (or a player's total APL) counts for control says which markers it applies
to, and the control hooks are told what is controlled (``marker=``, ``what=``: an objective
marker, a mission marker, or an area such as a tac op's flank, rules/KT24.md 4.8).

- Drone (Pathfinders): "control of an objective marker": objective markers only.
- Icon Bearer (Legionaries), Steadfast (Hierotek Immortals), Harbinger Of Despair
  (Psychomancer), Grisly Mark (Legionaries): "control of a marker": any marker, objective or
  mission marker, never a flank (the flank tac op counts the APL stats of those contesting
  it, and a flank is not a marker).

Positions are LAB positions (``tests/test_game_rules_common``): a built-in team (player A)
against the BLU test team (player B; Troopers APL 2, the Captain APL 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.game import GameState, universal
from engine.game.work import Work
from engine.missions.tac_ops.flank import FLANK
from engine.rulesets import position
from engine.teams.model import Roster
from tests.test_game_rules_common import BLU, LAB, roster
from tests.test_team_weapon_rules import lab_team

ON_OBJECTIVE = {"X-1": {"at": (19.2, 14.5)}, "BLU-1": {"at": (20.8, 14.5)}}
"""The team's operative and BLU-1 both contest LAB's objective marker ``obj``."""

ICON_BEARER = "Legionary Icon Bearer [Boltgun; Fists]"
WARRIOR = "Legionary Warrior [Boltgun; Fists]"
GUARDIAN = "Immortal Guardian [Tesla Carbine; Bayonet]"
MV1 = "MV1 Gun Drone"


def lab(team: str, prefix: str, types: Sequence[str], blu: Sequence[str]) -> GameState:
    """LAB: ``team``'s one operative ``types[0]`` (id ``prefix``-1) and BLU-1 on the objective
    marker."""
    ops: dict[str, Mapping[str, Any]] = {
        (f"{prefix}-1" if k == "X-1" else k): v for k, v in ON_OBJECTIVE.items()
    }
    team_roster = Roster.from_entries(lab_team(team), list(types))
    return position(LAB, team_roster, roster(BLU, tuple(blu)), operatives=ops, cp=(0, 0))


def control(w: Work, ids: set[str], what: str) -> str:
    """Who controls, by the total APL of the operatives ``ids``, a thing of kind ``what``
    (the objective marker ``obj`` when ``what`` is an objective marker)."""
    marker = "obj" if what == universal.OBJECTIVE_MARKER else ""
    return universal.apl_controller(w, lambda o: o.id in ids, marker, what=what)


@pytest.mark.parametrize(
    ("what", "expected"),
    [(universal.OBJECTIVE_MARKER, "B"), (universal.MISSION_MARKER, ""), (FLANK, "")],
)
def test_drone_counts_one_apl_lower_for_objective_markers_only(what: str, expected: str) -> None:
    """Drone: "whenever determining control of an objective marker" its APL counts 1 lower.
    The MV1 Gun Drone (APL 2) and a BLU Trooper (APL 2) contest: on the objective marker
    the drone counts 1 and B controls (1 < 2); a mission marker or a flank is not an
    objective marker, so 2 against 2 is a tie and nobody controls it."""
    w = Work(lab("pathfinders", "PAT", [MV1], ("Trooper",)))
    assert control(w, {"PAT-1", "BLU-1"}, what) == expected


@pytest.mark.parametrize(
    ("what", "expected"),
    [(universal.OBJECTIVE_MARKER, "A"), (universal.MISSION_MARKER, "A"), (FLANK, "")],
)
def test_icon_bearer_counts_one_more_apl_for_any_marker_not_a_flank(
    what: str, expected: str
) -> None:
    """Icon Bearer: "whenever determining control of a marker" its APL counts 1 higher. The
    Icon Bearer (APL 3) against the BLU Captain (APL 3): 4 against 3 on an objective or a
    mission marker, A controls; a flank is no marker, so 3 against 3 ties."""
    w = Work(lab("legionaries", "LEG", [ICON_BEARER], ("Captain",)))
    assert control(w, {"LEG-1", "BLU-1"}, what) == expected


@pytest.mark.parametrize(
    ("what", "expected"),
    [(universal.OBJECTIVE_MARKER, "A"), (universal.MISSION_MARKER, "A"), (FLANK, "")],
)
def test_steadfast_apl_counts_as_3_for_any_marker_not_a_flank(what: str, expected: str) -> None:
    """Steadfast (Immortals): "whenever determining control of a marker" its APL can count
    as 3. An Immortal Guardian (APL 2) against a BLU Trooper (APL 2): 3 against 2 on an
    objective or a mission marker, A controls; on a flank (no marker) 2 against 2 ties."""
    w = Work(lab("hierotek_circle", "HIE", [GUARDIAN], ("Trooper",)))
    assert control(w, {"HIE-1", "BLU-1"}, what) == expected


def test_a_warrior_without_a_control_rule_ties_everywhere() -> None:
    """The control of the test above without any rule: a Legionary Warrior (APL 3) against
    the Captain (APL 3) ties on a marker and on a flank alike (the reason the Icon Bearer's
    A is its rule's)."""
    w = Work(lab("legionaries", "LEG", [WARRIOR], ("Captain",)))
    for what in (universal.OBJECTIVE_MARKER, universal.MISSION_MARKER, FLANK):
        assert control(w, {"LEG-1", "BLU-1"}, what) == ""


def test_objective_marker_control_tells_the_hooks_it_is_an_objective_marker() -> None:
    """``universal.controller`` (an objective marker, 4.8) tells the control hooks what it
    controls: the drone on LAB's objective marker ``obj`` counts 1 lower there (B controls,
    1 against 2)."""
    w = Work(lab("pathfinders", "PAT", [MV1], ("Trooper",)))
    assert universal.controller(w, "obj") == "B"
