"""The Medikit printed by the Kasrkin (Combat Medic) and the Pathfinders (Medical Technician)
is one rule written once (:class:`engine.rules.medic.Medikit`); each team names only its AP,
its medic, the friends it may select and its roll."""

from __future__ import annotations

from engine.rules.medic import Medikit
from teams.kasrkin.actions import MEDIKIT as KASRKIN_MEDIKIT
from teams.pathfinders.actions import MEDIKIT as PATHFINDERS_MEDIKIT


def test_both_teams_play_the_shared_medikit() -> None:
    """Both teams' Medikit is the shared class, so a fix to the rule reaches both."""
    assert isinstance(KASRKIN_MEDIKIT, Medikit)
    assert isinstance(PATHFINDERS_MEDIKIT, Medikit)


def test_each_team_keeps_its_printed_cost_and_notation() -> None:
    """The Combat Medic's Medikit costs 0AP, the Medical Technician's 1AP; both read
    ``Act <medic> medikit on <friend>`` and roll under their own key."""
    assert (KASRKIN_MEDIKIT.ap, PATHFINDERS_MEDIKIT.ap) == (0, 1)
    assert KASRKIN_MEDIKIT.text == PATHFINDERS_MEDIKIT.text == "medikit"
    assert KASRKIN_MEDIKIT.roll != PATHFINDERS_MEDIKIT.roll
