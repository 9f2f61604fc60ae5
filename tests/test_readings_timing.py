"""Readings of timing windows (issue 31, part 1, group A): an effect that can make a target
valid is offered before the target is selected, not after (rules/KT24.md 4.5, 5.1 steps
1-2).

- Target Analysis Optic (Pathfinders equipment): "when ... selecting a valid target", the
  target counts one more Markerlight token until the end of the action. At four tokens a
  Pathfinder's weapons have Seek Light: light terrain cannot make a Conceal target invalid.
  So a Conceal enemy in light cover with three tokens is a target the optic makes valid:
  it is listed, and selecting it uses the optic (the use is the player's choice of that
  target). The engine used to offer the optic only once a valid target was selected.

Positions are LAB positions (``tests/test_game_rules_common``): Pathfinders (player A)
against the BLU test team (player B). BLU-1 stands at (16, 4), just behind LAB's light
rubble as seen from PAT-1 at (5, 4): in cover (4.4).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import GameState
from engine.game.scenario import run
from tests.test_team_pathfinders_ploys import LA, lab, texts, with_tokens

CARBINE_SHOT = "Shoot PAT-1 pulse carbine at BLU-1"
RUBBLE: dict[str, dict[str, Any]] = {
    "PAT-1": {"at": (5, 4)},
    "BLU-1": {"at": (16, 4), "order": "conceal"},
    "BLU-2": {"at": (27, 20)},
}


def activated(tokens: int, optic: bool) -> GameState:
    """PAT-1 activated with BLU-1 (Conceal, in light cover) holding ``tokens`` of A's
    Markerlight tokens; A selected the Target Analysis Optic when ``optic``."""
    equipment = {"A": ("Target Analysis Optic",)} if optic else {}
    s = with_tokens(lab((LA,), RUBBLE, equipment=equipment, cp=(0, 0)), "BLU-1", tokens)
    s, _ = run(s, ["Activate PAT-1 engage"])
    return s


@pytest.mark.parametrize(
    ("tokens", "optic", "listed"),
    [(3, True, True), (3, False, False), (2, True, False)],
)
def test_target_analysis_optic_can_make_a_conceal_target_in_light_cover_valid(
    tokens: int, optic: bool, listed: bool
) -> None:
    """BLU-1 has a Conceal order and is in light cover: not a valid target (4.5) unless the
    weapon ignores light terrain for it (Seek Light, Markerlight at four tokens). With three
    tokens and the optic unused, the optic's one more token makes four: the shot at BLU-1 is
    listed. Without the optic, or with two tokens (three with it: no Seek Light), it is
    not."""
    s = activated(tokens, optic)
    assert (CARBINE_SHOT in texts(s)) is listed


def test_selecting_the_target_the_optic_makes_valid_uses_the_optic() -> None:
    """Selecting BLU-1 (valid only through the optic) uses the optic: BLU-1 counts four
    tokens during the Shoot, and the optic, once per turning point, is spent (it is not
    offered again in that Shoot's window)."""
    from engine.game.work import Work
    from teams.pathfinders.markerlights import markerlights

    s, events = run(activated(3, True), [CARBINE_SHOT])
    w = Work(s)
    assert markerlights(w, "BLU-1", "A") == 4
    assert [e["item"] for e in events if e.kind == "equipment_used"] == ["Target Analysis Optic"]
    assert "Use target analysis optic" not in texts(s)


# -- Supporting Fire in a counteraction ---------------------------------------------------------

ENGAGED: dict[str, dict[str, Any]] = {
    "PAT-1": {"at": (5, 14.5), "ready": False},
    "PAT-2": {"at": (10.3, 14.5), "ready": False},
    "BLU-1": {"at": (9, 14.5)},
    "BLU-2": {"at": (27, 20)},
}


def test_supporting_fire_is_offered_as_a_counteraction_begins() -> None:
    """Supporting Fire: "when a friendly PATHFINDER operative is performing the Shoot action
    and you're selecting a valid target within 6"": it lets an enemy within 6" that a
    friend is within control range of be selected (otherwise no valid target, 4.5). A
    counteraction's Shoot is such a Shoot too (1.6: one free action; the ploy is firefight,
    usable whenever its timing comes). PAT-1 (expended) counteracts after B's activation:
    BLU-1, 4" away with PAT-2 in its control range, is not a valid target until the ploy is
    used as the counteraction begins; then the Shoot at it is listed."""
    from engine.game.scenario import run as play

    s = lab((LA, LA), ENGAGED, cp=(1, 0), turn="B")
    s, _ = play(s, ["Activate BLU-2 engage", "End activation", "Counteract PAT-1"])
    assert "Ploy supporting fire" in texts(s)
    s, _ = play(s, ["Ploy supporting fire"])
    assert CARBINE_SHOT in texts(s)
