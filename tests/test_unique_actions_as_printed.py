"""The six teams' unique actions checked against their printed conditions (issue 31,
readings group C): only a printed condition refuses an action; one whose effect would change
nothing now is legal (accepted, explainable) but not offered (``engine.rules.unique_actions``
module docstring; ``docs/RULINGS.md``, Readings chosen).

Positions on the LAB killzone of :mod:`tests.test_game_rules_common` (the team as player A,
the BLU test team as B), built with each team's own test helpers.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from engine.game import IllegalActionError
from engine.game.scenario import run
from engine.game.state import Decision, Effect
from tests import test_team_hierotek_circle_faction as hie
from tests import test_team_kasrkin as kas
from tests import test_team_pathfinders_core as pf

Ops = dict[str, dict[str, Any]]


def test_battle_comms_can_be_performed_twice_in_an_activation() -> None:
    """Battle Comms: "This operative can perform this action twice during its activation".
    The Vox-Trooper KAS-1 (APL 2) selects KAS-2, then KAS-3 in the same activation (2AP); a
    third is refused (once more than printed)."""
    ops: Ops = {
        "KAS-1": {"at": (5, 14.5)},
        "KAS-2": {"at": (5, 16.5)},
        "KAS-3": {"at": (3, 14.5)},
        "KAS-4": {"at": (3, 16.5)},
        "BLU-1": {"at": (25, 14.5)},
    }
    s = kas.lab((kas.VOX, kas.TROOPER, kas.TROOPER, kas.TROOPER), ops)
    s, _ = run(s, ["Activate KAS-1 engage", "Act KAS-1 battle comms on KAS-2"])
    assert "Act KAS-1 battle comms on KAS-3" in kas.texts(s)
    s, _ = run(s, ["Act KAS-1 battle comms on KAS-3"])
    assert s.operative("KAS-1").ap == 0
    apl = sorted(e.op for e in s.effects if e.kind == "apl")
    assert apl == ["KAS-2", "KAS-3"]


def test_battle_comms_a_third_time_is_refused() -> None:
    """Twice, never three times: KAS-1 activates with 3AP (its APL raised by 1, as a
    friend's Battle Comms would), performs Battle Comms twice, and the third is refused as
    once per activation beyond what the datacard allows (1.5)."""
    ops: Ops = {
        "KAS-1": {"at": (5, 14.5)},
        "KAS-2": {"at": (5, 16.5)},
        "KAS-3": {"at": (3, 14.5)},
        "KAS-4": {"at": (3, 16.5)},
        "BLU-1": {"at": (25, 14.5)},
    }
    s = kas.lab((kas.VOX, kas.TROOPER, kas.TROOPER, kas.TROOPER), ops)
    raised = Effect("apl", "KAS-1", "end_next_activation", source="KAS-2", value=1)
    s = attrs.evolve(s, effects=(*s.effects, raised))
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert s.operative("KAS-1").ap == 3
    s, _ = run(s, ["Act KAS-1 battle comms on KAS-2", "Act KAS-1 battle comms on KAS-3"])
    with pytest.raises(IllegalActionError, match="once per activation"):
        s.apply("Act KAS-1 battle comms on KAS-4")


def test_pulse_accelerator_again_while_active_is_legal_and_changes_nothing() -> None:
    """Pulse Accelerator prints no condition (not even enemy control range). Performed again
    while active, in a counteraction of the same turning point (its effect lasts until the
    start of the drone's next activation either way), it is legal and changes nothing: one
    token stays; it is not offered."""
    ops: Ops = {"PAT-1": {"at": (5, 12)}, "BLU-1": {"at": (25, 4)}, "BLU-2": {"at": (25, 8)}}
    s = pf.lab([pf.MV31], ops, cp=(0, 0))
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 pulse accelerator", "End activation"])
    s, _ = run(s, ["Activate BLU-1 engage", "End activation", "Counteract PAT-1"])
    assert "Act PAT-1 pulse accelerator" not in pf.texts(s)
    assert s.is_legal("Act PAT-1 pulse accelerator")
    before = [e for e in s.effects if e.op == "PAT-1"]
    s, _ = run(s, ["Act PAT-1 pulse accelerator"])
    assert [e for e in s.effects if e.op == "PAT-1"] == before


def test_medikit_on_an_operative_that_lost_no_wounds_is_legal_and_rolls_nothing() -> None:
    """Medikit selects "one friendly KASRKIN operative within this operative's control
    range" to regain up to 2D3 lost wounds: one that lost none may be selected. Nothing is
    rolled (no chance node: the state is a decision again at once) and it is not offered."""
    s = kas._medic(8)
    assert not [t for t in kas.texts(s) if "medikit" in t]
    s, ev = s.apply("Act KAS-1 medikit on KAS-2")
    assert s.operative("KAS-2").wounds == 8
    assert not [e for e in ev if e.kind == "dice_rolled"]
    assert not [t for t in kas.texts(s) if "medikit" in t]  # once per activation (1.5)


def test_canoptek_repair_on_an_unwounded_friend_is_legal_and_counts_for_the_turning_point() -> None:
    """Canoptek Repair's printed conditions are enemy control range and "a friendly
    operative has already performed this action during this turning point". HIE-2 at full
    wounds may be selected (nothing regained, not offered); the action is still performed,
    so no other friendly operative may perform it again this turning point."""
    ops = {**hie.TECH_OPS, "HIE-2": {"at": (6, 14)}, "HIE-3": {"at": (3, 10)}}
    s = hie.lab(["Technomancer", hie.GUARDIAN, "Apprentek"], ops)
    s, _ = hie.play(s, ["Activate HIE-1 engage"])
    assert s.is_legal("Act HIE-1 canoptek repair on HIE-2")
    assert not [a for a in s.legal_actions() if a.text == "canoptek repair"]
    ap = s.operative("HIE-1").ap
    s, _ = hie.play(s, ["Act HIE-1 canoptek repair on HIE-2"])
    assert s.operative("HIE-2").wounds == 10 and s.operative("HIE-1").ap == ap - 1
    s, _ = hie.play(s, ["End activation"])
    while isinstance(s.node, Decision) and s.node.player == "B":  # B cannot counteract
        s, _ = s.apply("Pass")
    s, _ = s.apply("Activate HIE-3 engage")
    with pytest.raises(IllegalActionError, match="already performed Canoptek Repair"):
        s.apply("Act HIE-3 canoptek repair on HIE-3")


def test_signal_on_a_friend_whose_apl_is_raised_is_legal_not_offered() -> None:
    """Signal selects "one other friendly PATHFINDER operative visible to and within 6"";
    a friend whose APL is already +1 (the most a change can give, 2.1) may be selected but
    gains nothing now: not offered."""
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "PAT-2": {"at": (5, 18.5)}, "BLU-1": {"at": (25, 4)}}
    s = pf.lab(["Comms Specialist Pathfinder", pf.SHAS_LA], ops)
    raised = Effect("apl", "PAT-2", "end_next_activation", source="PAT-1", value=1)
    s = attrs.evolve(s, effects=(*s.effects, raised))
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert not [t for t in pf.texts(s) if "signal" in t]
    assert s.is_legal("Act PAT-1 signal on PAT-2")


def test_reanimate_2ap_where_the_operative_cannot_be_set_up_is_legal_and_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reanimate's printed conditions are the marker (visible, within 6") and enemy control
    range; spending the extra AP when the operative can be set up nowhere near its marker
    (no room: made so here by stubbing the set-up search, whose own rules are tested with
    Reanimate elsewhere) is legal, spends 2AP and returns nobody; it is not offered."""
    import teams.hierotek_circle.actions as actions

    s = hie.with_marker(hie.lab([hie.REANIM, hie.GUARDIAN], hie.REANIMATE_OPS), "HIE-2", (7, 14))
    s, _ = s.apply("Activate HIE-1 engage")
    monkeypatch.setattr(actions, "_room", lambda w, op: False)
    acts = {str(a) for a in s.legal_actions() if a.verb == "Act"}
    assert acts == {"Act HIE-1 reanimate on HIE-2"}
    assert s.is_legal("Act HIE-1 reanimate 2ap on HIE-2")
    s, _ = s.apply("Act HIE-1 reanimate 2ap on HIE-2")
    assert s.operative("HIE-1").ap == 0 and not s.operative("HIE-2").alive
