"""The Pathfinders' ploys, equipment, unique actions and specialists' abilities (issue 17,
lane "ploys"), one test (or more) per rule, in LAB positions
(``tests/test_game_rules_common``): the built-in Pathfinders (player A, ``PAT-n`` in roster
order) against the BLU test team (player B, ``BLU-n``: Troopers with Gun 4/3+/3/4, Save 4+,
10 wounds). Pathfinders have Save 5+ (drones 4+) and 25 mm bases (drones 32 mm).

Strategy ploys are reached through a real Gambit step: every operative starts expended in
TP1, so the turning point ends at once and TP2 begins (roll-off scripted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import teams.pathfinders  # noqa: F401  (registers the rules)
from engine.game import GameState, IllegalActionError
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.scenario import run
from engine.game.state import Decision
from engine.rulesets import position
from engine.teams.model import Roster
from tests.test_game_rules_common import BLU, LAB, attack_texts, roster
from tests.test_team_weapon_rules import lab_team

Ops = dict[str, dict[str, Any]]
LA = "Shas'La Pathfinder"
CARBINE = "pulse carbine"
GUN_DRONE = "MV1 Gun Drone"


def lab(
    types: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: the built-in Pathfinders (roster entries ``types``) against the BLU
    test team (``blu``)."""
    pf = Roster.from_entries(lab_team("pathfinders"), list(types))
    return position(LAB, pf, roster(BLU, tuple(blu)), operatives=ops, **kw)


def texts(s: GameState) -> list[str]:
    """The listed actions in the notation, each Shoot header (``Shoot KAS-1``) replaced by
    the complete shots its decision lists (:func:`tests.test_game_rules_common.attack_texts`)."""
    return attack_texts(s)


def ploys_used(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["player"], e["ploy"]) for e in events if e.kind == "ploy_used"]


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def pass_ploy_windows(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    return s


def gambit(
    ops: Mapping[str, Mapping[str, Any]],
    types: Sequence[str] = (LA,),
    *,
    blu: Sequence[str] = ("Trooper", "Trooper"),
    initiative: str = "B",
    cp: tuple[int, int] = (3, 3),
    **kw: Any,
) -> GameState:
    """TP2's Gambit step with A (Pathfinders) to decide: every operative of ``ops`` starts
    expended in TP1; ``initiative`` wins the roll-off and takes the initiative (B passes
    first when it has it)."""
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = pass_ploy_windows(lab(types, spent, blu, cp=cp, **kw))
    s, _ = run(s, [], dice=["4,3" if initiative == "A" else "3,4"])
    s, _ = s.apply(f"Initiative {initiative}")
    if initiative == "B":
        s, _ = s.apply("Pass")
    assert s.node.player == "A" and s.node.kind == "gambit"  # type: ignore[union-attr]
    return s


def to_firefight(s: GameState) -> GameState:
    """Pass the rest of the Gambit step and the firefight_start window."""
    while isinstance(s.node, Decision) and s.node.kind in ("gambit", "ploy"):
        s, _ = s.apply("Pass")
    return s


def decline(
    s: GameState, cover: str = "Cover save normal", events: list[Event] | None = None
) -> GameState:
    """Pass the ploy windows, decline the dice re-rolls (and weapons' re-rolls), Accurate and
    team-rule choices (the Shield Generator), keep a cover save
    (the events are added to ``events`` when given)."""
    answer = {
        "ploy": "Pass",
        "dice_ploy": "Decline",
        "cover_save": cover,
        "accurate": "Accurate 0",
        "reroll": "Keep",
        "team_rule": "Decline",
    }
    while isinstance(s.node, Decision) and s.node.kind in answer:
        s, ev = s.apply(answer[s.node.kind])
        if events is not None:
            events += ev
    return s


# -------------------------------------------------------------------------------------------
# Bonded
# -------------------------------------------------------------------------------------------


def _bonded_shot(friend: tuple[float, float], types: Sequence[str] = (LA, LA)) -> GameState:
    """With Bonded, PAT-1 at (5, 14.5) shoots BLU-1 in the open lane; PAT-2 at ``friend``."""
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "PAT-2": {"at": friend},
        "BLU-1": {"at": (16, 14.5)},
    }
    s = gambit(ops, types, initiative="A")
    s, ev = s.apply("Ploy bonded")
    assert ploys_used(ev) == [("A", "Bonded")]
    s = to_firefight(s)
    s, _ = run(s, ["Activate PAT-1 engage", f"Shoot PAT-1 {CARBINE} at BLU-1"])
    return pass_ploy_windows(s)


def test_bonded_accurate_1_within_3_inches_of_another_pathfinder() -> None:
    # PAT-2 is 2" away (edge to edge 1"): Accurate 1 is offered (retain one die unrolled).
    s = _bonded_shot((5, 16.5))
    assert s.node.kind == "accurate"  # type: ignore[union-attr]
    assert texts(s) == ["Accurate 0", "Accurate 1"]
    s, ev = run(s, ["Accurate 1"], dice=["1,1,1"])  # 3 dice rolled, one kept as a success
    s = decline(s, events=ev)
    assert of_kind(ev, "attack_retained")[0]["normals"] == 1


def test_bonded_not_beyond_3_inches_nor_next_to_a_drone() -> None:
    # PAT-2 8" away: no Accurate; a Gun Drone 2" away does not count either (excluding DRONE).
    s = _bonded_shot((5, 6.5))
    assert getattr(s.node, "kind", "") != "accurate"
    s = _bonded_shot((5, 16.5), (LA, GUN_DRONE))
    assert getattr(s.node, "kind", "") != "accurate"


# -------------------------------------------------------------------------------------------
# Take Cover
# -------------------------------------------------------------------------------------------

# PAT-1 at (16, 4) behind the LAB rubble, in cover from BLU at (5, 4).
COVERED: Ops = {"PAT-1": {"at": (16, 4)}, "BLU-1": {"at": (5, 4)}, "BLU-2": {"at": (5, 6)}}


def _shot_in_cover(ploy: bool, shooter: str = "BLU-1", gun: str = "gun") -> list[Event]:
    """B shoots PAT-1 in cover: hits 6,5,4,1 (1 crit, 2 normals); A keeps a normal cover save
    if it can; defence dice 4,4 (or 4,4,4 with no cover save)."""
    s = gambit(COVERED, blu=("Trooper", "Gunner"))
    if ploy:
        s, ev = s.apply("Ploy take cover")
        assert ploys_used(ev) == [("A", "Take Cover")]
    s = to_firefight(s)
    s, _ = run(s, [f"Activate {shooter} engage", f"Shoot {shooter} {gun} at PAT-1"])
    s = decline(s)
    s, _ = run(s, [], dice=["6,5,4,1"])
    s = decline(s)
    n = 2 if gun == "gun" else 3
    s, ev = run(s, [], dice=[",".join(["4"] * n)])
    decline(s, events=ev)
    return ev


def test_take_cover_improves_the_save_of_a_pathfinder_in_cover() -> None:
    # Save 5+ becomes 4+ in cover: the two 4s are saves (with the cover save: 3 normals).
    ev = _shot_in_cover(True)
    assert of_kind(ev, "saves_retained")[-1]["normals"] == 3


def test_take_cover_not_without_the_ploy_nor_against_saturate() -> None:
    # Without the ploy the 4s fail at 5+ (only the cover save); with Saturate no cover save
    # can be retained, so Save stays 5+ and the three 4s fail.
    ev = _shot_in_cover(False)
    assert of_kind(ev, "saves_retained")[-1]["normals"] == 1
    ev = _shot_in_cover(True, "BLU-2", "saturate gun")
    assert of_kind(ev, "saves_retained")[-1]["normals"] == 0


# -------------------------------------------------------------------------------------------
# Suppressing Fire
# -------------------------------------------------------------------------------------------


def _blu_aims(target: str, near_order: str = "engage") -> GameState:
    """With Suppressing Fire, BLU-1 at (20, 14.5) shoots ``target``: PAT-1 (order
    ``near_order``) is 8" from it in the open lane, PAT-2 12" (both visible, not obscured);
    stops before its attack dice are rolled. Every ploy window is open (so B decides in its
    attack dice window even when nothing there is usable)."""
    from engine.game.context import GameOptions

    ops: Ops = {
        "PAT-1": {"at": (12, 14.5), "order": near_order},
        "PAT-2": {"at": (8, 15.5), "order": "engage"},
        "BLU-1": {"at": (20, 14.5)},
    }
    s = gambit(ops, (LA, LA), options=GameOptions(open_windows=True))
    s, ev = s.apply("Ploy suppressing fire")
    assert ploys_used(ev) == [("A", "Suppressing Fire")]
    s = to_firefight(s)
    s, _ = run(s, ["Activate BLU-1 engage"])
    s, _ = run(pass_ploy_windows(s), [f"Shoot BLU-1 gun at {target}"])
    return pass_ploy_windows(s)


def _blu_shoots(target: str, near_order: str = "engage") -> GameState:
    """:func:`_blu_aims`, then 6,5,2,1 rolled: stops at B's attack dice window."""
    s, _ = run(_blu_aims(target, near_order), [], dice=["6,5,2,1"])
    return s


def test_suppressing_fire_no_command_reroll_when_not_the_closest_target() -> None:
    # PAT-1 (engage, 8") is closer than PAT-2 (12"): shooting PAT-2, B (3CP) cannot re-roll;
    # the error names the rule that forbids it (not a CP cost).
    s = _blu_shoots("PAT-2")
    assert not [t for t in texts(s) if t.startswith("Command re-roll")]
    with pytest.raises(IllegalActionError, match="Suppressing Fire"):
        s.apply("Command re-roll 1")


def test_suppressing_fire_closest_target_or_concealed_friend_ignored() -> None:
    # Shooting the closest (PAT-1), B may re-roll; with PAT-1 on Conceal it is ignored, so
    # PAT-2 is then the closest and B may re-roll shooting it too.
    assert "Command re-roll 1" in texts(_blu_shoots("PAT-1"))
    assert "Command re-roll 1" in texts(_blu_shoots("PAT-2", near_order="conceal"))


def test_suppressing_fire_closes_the_weapons_reroll_windows() -> None:
    # A Balanced weapon (its re-roll window set on the Shoot in progress): shooting PAT-2
    # (not the closest) the window is skipped, no re-roll decision; shooting PAT-1 it is
    # offered. (The rules stay on the profile: only the re-roll is refused.)
    from engine.game.work import Work

    def balanced(target: str) -> GameState:
        s = _blu_aims(target)
        w = Work(s)
        w.replace_top(windows=("balanced",))
        w.node = s.node
        s = w.freeze()
        s, _ = run(s, [], dice=["6,5,2,1"])
        return s

    assert not [t for t in texts(balanced("PAT-2")) if t.startswith("Re-roll")]
    assert "Re-roll 1" in texts(balanced("PAT-1"))


def test_suppressing_fire_blocks_ammo_resupply_and_team_reroll_ploys() -> None:
    # BLU-1 performed Ammo Resupply (its re-roll: a free rule, not a ploy) and B has a
    # re-rolling team ploy: neither is offered shooting PAT-2, and using them names
    # Suppressing Fire; shooting PAT-1 the Ammo Resupply re-roll is offered.
    from engine.game.state import Effect
    from engine.game.work import Work
    from engine.rules.equipment import markers

    def resupplied(target: str) -> GameState:
        s = _blu_aims(target)
        s = s.with_hooks(markers.install)  # (the Ammo Cache's rules, as the equipment tests do)
        w = Work(s)
        w.effects.append(Effect("ammo_resupply", "BLU-1", "end_tp"))
        w.node = s.node
        s, _ = run(w.freeze(), [], dice=["6,5,2,1"])
        return s

    s = resupplied("PAT-2")
    assert not [t for t in texts(s) if "ammo resupply" in t]
    with pytest.raises(IllegalActionError, match="Suppressing Fire"):
        s.apply("Use ammo resupply 1")
    assert "Use ammo resupply 1" in texts(resupplied("PAT-1"))
    # Any ploy that re-rolls (rerolls=True) is refused by the same core hook.
    from engine.game.ploys import reroll_refusal

    w = Work(_blu_shoots("PAT-2"))
    info = {"op": "BLU-1", "target": "PAT-2", "kind": "ranged"}
    why = reroll_refusal(w, "B", "attack_dice", "Neutralise Target", info)
    assert why is not None and "Suppressing Fire" in why
    # Defence dice (A's own) are not touched.
    assert reroll_refusal(w, "A", "defence_dice", "Command Re-roll", info) is None


# -------------------------------------------------------------------------------------------
# Recon Sweep
# -------------------------------------------------------------------------------------------

SWEEP: Ops = {
    "PAT-1": {"at": (27, 14.5)},  # wholly within 6" of the east edge
    "PAT-2": {"at": (3, 3)},  # within 6" of the south edge (and of A's own, the west)
    "BLU-1": {"at": (16, 20)},
}


def test_recon_sweep_free_dash_ending_near_an_edge_not_ones_own() -> None:
    # Edges offered: east and south (not west, A's own drop zone edge). From the east edge
    # PAT-1 dashes; (24, 14.5) is not wholly within 6" of any edge but the west: refused.
    s = gambit(SWEEP, (LA, LA), initiative="A")
    assert [t for t in texts(s) if t.startswith("Ploy recon sweep")] == [
        "Ploy recon sweep east",
        "Ploy recon sweep south",
    ]
    s, ev = s.apply("Ploy recon sweep east")
    assert ploys_used(ev) == [("A", "Recon Sweep")]
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="Recon Sweep"):
        s.apply("Dash PAT-1 to 24,14.5")
    s, _ = s.apply("Dash PAT-1 to 29,14.5")
    assert s.node.kind == "gambit" and s.node.player == "B"  # type: ignore[union-attr]
    assert (s.operative("PAT-1").x, s.operative("PAT-2").x) == (29, 3)


def test_recon_sweep_not_in_the_first_turning_point() -> None:
    from engine.game.work import Work
    from teams.pathfinders.ploys import RECON_SWEEP_PLOY

    s = lab((LA, LA), SWEEP)
    assert s.tp == 1
    assert RECON_SWEEP_PLOY.options(Work(s), "A", {}) == []


# -------------------------------------------------------------------------------------------
# A Worthy Cause
# -------------------------------------------------------------------------------------------


def test_a_worthy_cause_free_mission_action_at_the_start_of_the_firefight_phase() -> None:
    # Crit op Loot: PAT-1 controls "obj"; at the start of TP2's Firefight phase A uses the
    # ploy on it: it loots the marker for 0AP before any activation (1VP).
    ops: Ops = {"PAT-1": {"at": (21.5, 14.5)}, "PAT-2": {"at": (5, 4)}, "BLU-1": {"at": (28, 4)}}
    s = gambit(ops, (LA, GUN_DRONE), options=GameOptions(crit_op="loot"))
    s = to_gambit_end(s)
    assert s.node.kind == "ploy" and s.node.player == "A"  # type: ignore[union-attr]
    # Only PAT-1 (on the marker) is offered; a drone never is.
    assert [t for t in texts(s) if "worthy" in t] == ["Ploy a worthy cause on PAT-1"]
    s, ev = s.apply("Ploy a worthy cause on PAT-1")
    assert ploys_used(ev) == [("A", "A Worthy Cause")]
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    assert "Act PAT-1 loot obj" in texts(s)
    assert not [t for t in texts(s) if t.startswith(("Shoot", "Dash", "Reposition"))]
    s, ev = s.apply("Act PAT-1 loot obj")
    assert of_kind(ev, "marker_looted")
    assert s.operative("PAT-1").ready


def to_gambit_end(s: GameState) -> GameState:
    """Pass the Gambit step (both players) up to the firefight_start window."""
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        s, _ = s.apply("Pass")
    return s


# -------------------------------------------------------------------------------------------
# Supporting Fire
# -------------------------------------------------------------------------------------------


def _supporting(bx: float) -> GameState:
    """PAT-1 at (5, 14.5) activated; BLU-1 at (``bx``, 14.5) with PAT-2 within its control
    range (0.2" from its base)."""
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "PAT-2": {"at": (bx + 1.3, 14.5)},
        "BLU-1": {"at": (bx, 14.5)},
    }
    s = gambit(ops, (LA, LA), initiative="A")
    s = to_firefight(s)
    s, _ = s.apply("Activate PAT-1 engage")
    return s


def test_supporting_fire_target_an_enemy_within_6_inches_engaged_with_a_friend() -> None:
    # BLU-1 2.9" from PAT-1 (edge to edge) is in PAT-2's control range: not a valid target,
    # until Supporting Fire (1CP) is used during PAT-1's activation.
    s = _supporting(9)
    shoot = f"Shoot PAT-1 {CARBINE} at BLU-1"
    assert shoot not in texts(s)
    assert "Ploy supporting fire" in texts(s)
    s, ev = s.apply("Ploy supporting fire")
    assert ploys_used(ev) == [("A", "Supporting Fire")]
    assert shoot in texts(s)
    s, ev = s.apply(shoot)
    assert of_kind(ev, "shoot_declared")


def test_supporting_fire_not_beyond_6_inches() -> None:
    # BLU-1 6.9" away: the ploy is not offered and the target stays invalid.
    s = _supporting(13)
    assert "Ploy supporting fire" not in texts(s)
    assert f"Shoot PAT-1 {CARBINE} at BLU-1" not in texts(s)


# -------------------------------------------------------------------------------------------
# Signal (Comms Specialist)
# -------------------------------------------------------------------------------------------

COMMS = "Comms Specialist Pathfinder"


def test_signal_gives_a_friend_apl_plus_1_until_the_end_of_its_next_activation() -> None:
    # PAT-2 4" away and visible: APL 2 -> 3 until the end of its next activation; 1AP.
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "PAT-2": {"at": (5, 18.5)},
        "PAT-3": {"at": (5, 4)},  # 10" away: not offered
        "BLU-1": {"at": (25, 14.5)},
    }
    s = lab((COMMS, LA, LA), ops)
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert [t for t in texts(s) if "signal" in t] == ["Act PAT-1 signal on PAT-2"]
    s, _ = run(s, ["Act PAT-1 signal on PAT-2"])
    assert s.operative("PAT-1").ap == 1
    effects = [(e.kind, e.op, e.value, e.until) for e in s.effects if e.kind == "apl"]
    assert effects == [("apl", "PAT-2", 1, "end_next_activation")]


def test_signal_only_the_comms_specialist_not_in_enemy_control_range() -> None:
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "PAT-2": {"at": (5, 16)}, "BLU-1": {"at": (6.3, 14.5)}}
    s = lab((COMMS, LA), ops)
    s, _ = run(s, ["Activate PAT-1 engage"])
    with pytest.raises(IllegalActionError, match="control range"):
        s.apply("Act PAT-1 signal on PAT-2")
    s = lab((LA, COMMS), {**ops, "BLU-1": {"at": (25, 4)}})
    s, _ = run(s, ["Activate PAT-1 engage"])
    with pytest.raises(IllegalActionError, match="Comms Specialist"):
        s.apply("Act PAT-1 signal on PAT-2")


# -------------------------------------------------------------------------------------------
# Medikit (Medical Technician)
# -------------------------------------------------------------------------------------------

MEDTECH = "Medical Technician Pathfinder"


def _medikit(wounds2: int, second: str = LA) -> GameState:
    # PAT-1 the Medical Technician; PAT-2 1.5" away (within control range), PAT-3 5" away.
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "PAT-2": {"at": (5, 15.7), "wounds": wounds2},
        "PAT-3": {"at": (5, 19.5), "wounds": 2},
        "BLU-1": {"at": (25, 14.5)},
    }
    s = lab((MEDTECH, second, LA), ops)
    s, _ = run(s, ["Activate PAT-1 engage"])
    return s


def test_medikit_heals_2d3_for_1ap() -> None:
    # PAT-2 at 2 wounds: 2D3 rolled as 5,2 -> 3+1 = 4 wounds regained, 6 left; 1AP.
    s = _medikit(2)
    assert [t for t in texts(s) if "medikit" in t] == ["Act PAT-1 medikit on PAT-2"]
    s, ev = run(s, ["Act PAT-1 medikit on PAT-2"], dice=["5,2"])
    assert s.operative("PAT-2").wounds == 6
    assert [e["wounds"] for e in of_kind(ev, "wounds_regained")] == [4]
    assert s.operative("PAT-1").ap == 1


def test_medikit_never_above_the_wounds_stat_nor_on_drones_or_distant() -> None:
    # 6,6 would be 6 wounds: capped at the Wounds stat 7.
    s = _medikit(5)
    s, _ = run(s, ["Act PAT-1 medikit on PAT-2"], dice=["6,6"])
    assert s.operative("PAT-2").wounds == 7
    # A wounded Gun Drone in control range is not offered (excluding DRONE); PAT-3 is 5" away.
    s = _medikit(2, GUN_DRONE)
    assert not [t for t in texts(s) if "medikit" in t]
    with pytest.raises(IllegalActionError, match="Medikit"):
        s.apply("Act PAT-1 medikit on PAT-3")


# -------------------------------------------------------------------------------------------
# Medic! (Medical Technician)
# -------------------------------------------------------------------------------------------

MEDIC_SCENE: Ops = {
    "PAT-1": {"at": (16, 17)},
    "PAT-2": {"at": (16, 14.5), "wounds": 1},
    "PAT-3": {"at": (25, 4), "wounds": 1},
    "BLU-1": {"at": (5, 14.5)},
}


def _blu_hits(
    s: GameState, target: str, medic: str = "Use medic!"
) -> tuple[GameState, list[Event]]:
    """BLU-1 shoots ``target``: hits 6,5,4,3 (a crit and three normals), no saves; A answers
    Medic!'s question with ``medic`` (``""``: stop there)."""
    s, ev = run(s, ["Activate BLU-1 engage", f"Shoot BLU-1 gun at {target}"], dice=["6,5,4,3"])
    s = decline(s, events=ev)
    s, ev2 = run(s, [], dice=["1,1,1"])
    while isinstance(s.node, Decision) and s.node.kind in ("dice_ploy", "ploy", "team_rule"):
        if s.node.kind == "team_rule" and not medic:
            break
        choice = {"ploy": "Pass", "team_rule": medic}.get(s.node.kind, "Decline")
        s, more = s.apply(choice)
        ev2 += more
    return s, ev + ev2


def test_medic_is_the_players_choice_declined_the_friend_falls() -> None:
    s = lab((MEDTECH, LA, LA), MEDIC_SCENE, turn="B")
    s, ev = _blu_hits(s, "PAT-2", medic="")
    # PAT-2 would be incapacitated within 3" of the Medical Technician: A chooses, PAT-2
    # kept at 1 wound meanwhile (nothing decided for A).
    assert s.node == Decision("A", "team_rule")
    assert texts(s) == ["Decline", "Use medic!"]
    assert s.operative("PAT-2").wounds == 1 and not s.operative("PAT-2").incapacitated
    assert not [e for e in ev if e.kind in ("pathfinders_medic_used", "operative_incapacitated")]
    # Declined: incapacitated now (by BLU-1); no APL loss, no free Dash, Medic! kept for
    # the rest of the turning point.
    s, ev = s.apply("Decline")
    assert [(e["op"], e["by"]) for e in ev if e.kind == "operative_incapacitated"] == [
        ("PAT-2", "BLU-1")
    ]
    assert not [e for e in s.effects if e.kind == "apl"]
    from engine.game.work import Work
    from teams.pathfinders.support import player_token

    assert not player_token(Work(s), "A", "pathfinders_medic_used")
    # Used, the same shot leaves PAT-2 in the fight (the test below follows it through).
    s = lab((MEDTECH, LA, LA), MEDIC_SCENE, turn="B")
    s, ev = _blu_hits(s, "PAT-2")
    assert of_kind(ev, "pathfinders_medic_used") and not of_kind(ev, "operative_incapacitated")


def test_medic_keeps_a_friend_in_the_fight_once_per_tp() -> None:
    s = lab((MEDTECH, LA, LA), MEDIC_SCENE, turn="B")
    s, ev = _blu_hits(s, "PAT-2")
    assert [(e["medic"], e["op"]) for e in of_kind(ev, "pathfinders_medic_used")] == [
        ("PAT-1", "PAT-2")
    ]
    assert not of_kind(ev, "operative_incapacitated")
    assert s.operative("PAT-2").wounds == 1
    apl = sorted((e.op, e.value) for e in s.effects if e.kind == "apl")
    assert apl == [("PAT-1", -1), ("PAT-2", -1)]
    # After that action PAT-2 may Dash for free, ending within PAT-1's control range.
    assert s.node.kind == "free_action" and s.node.player == "A"  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="Medic!"):
        s.apply("Dash PAT-2 to 16,12")
    # Once per turning point; and Medikit cannot select PAT-2 this turning point.
    from engine.game.work import Work
    from teams.pathfinders.actions import MEDIKIT
    from teams.pathfinders.specialists import medic_for

    w = Work(s)
    assert medic_for(w, "PAT-2") == ""
    assert "PAT-2" not in MEDIKIT.targets(w, w.op("PAT-1"))


def test_medic_not_beyond_3_inches_nor_on_a_drone() -> None:
    # PAT-3 is far from the Medical Technician: incapacitated.
    far = {**MEDIC_SCENE, "PAT-3": {"at": (20.5, 14.5), "wounds": 1}}
    s = lab((MEDTECH, LA, LA), far, turn="B")
    s, ev = _blu_hits(s, "PAT-3")
    assert not of_kind(ev, "pathfinders_medic_used")
    assert of_kind(ev, "operative_incapacitated")
    # A Gun Drone 2.5" away is not saved (excluding DRONE).
    s = lab((MEDTECH, GUN_DRONE, LA), MEDIC_SCENE, turn="B")
    s, ev = _blu_hits(s, "PAT-2")
    assert not of_kind(ev, "pathfinders_medic_used")


# -------------------------------------------------------------------------------------------
# Inertial Dampener (Marksman)
# -------------------------------------------------------------------------------------------

MARKSMAN = "Marksman Pathfinder"


def _hit(types: Sequence[str], weapon: str, wounds: int) -> int:
    """The Hit of PAT-1's ``weapon`` against BLU-1 with ``wounds`` left (7 wounds: injured
    below 4) and a Hit +1 (worse) stat change on it."""
    from engine.game.attacks import attack_profile
    from engine.game.state import Effect
    from engine.game.work import Work

    ops: Ops = {"PAT-1": {"at": (5, 14.5), "wounds": wounds}, "BLU-1": {"at": (16, 14.5)}}
    w = Work(lab(types, ops))
    w.effects.append(Effect("hit", "PAT-1", "end_tp", source="test", value=1))
    o = w.op("PAT-1")
    return attack_profile(w, o, weapon, "ranged", target="BLU-1").hit


def test_inertial_dampener_ignores_worsened_hit_of_the_marksman_rail_rifle() -> None:
    # Injured (+1) and a +1 stat change: the rail rifle keeps its 3+ (both ignored).
    assert _hit((MARKSMAN,), "marksman rail rifle (standard)", 2) == 3
    assert _hit((MARKSMAN,), "marksman rail rifle (dart round)", 7) == 3


def test_inertial_dampener_point_blank_and_late_rules_ignored_improvements_kept() -> None:
    # Order-independent: a point-blank shot's +1 (hit_change) and a worsening from a rule
    # whose would_change_hit hook is installed after the Pathfinders' are ignored too (3+
    # stays 3+); an improvement (a -1 stat change) is kept while a +1 worsening next to it
    # is ignored: 2+. A Shas'Ui's carbine (3+) gets both worsenings: 5+.
    from engine.game.attacks import attack_profile
    from engine.game.state import Effect
    from engine.game.work import Work

    def late(w: Work, change: int, **info: Any) -> int:
        return change + 1  # a later rule worsening every Hit by 1

    for types, expected in (((MARKSMAN,), 3), (("Shas'Ui Pathfinder",), 5)):
        ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
        s = lab(types, ops)
        s = s.with_hooks(lambda h: h.transform("would_change_hit", late))
        w = Work(s)
        weapon = "marksman rail rifle (standard)" if types == (MARKSMAN,) else "pulse carbine"
        prof = attack_profile(w, w.op("PAT-1"), weapon, "ranged", hit_change=1, target="BLU-1")
        assert prof.hit == expected, types
    ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    w = Work(lab((MARKSMAN,), ops))
    w.effects.append(Effect("hit", "PAT-1", "end_tp", source="better", value=-1))
    w.effects.append(Effect("hit", "PAT-1", "end_tp", source="worse", value=1))
    prof = attack_profile(w, w.op("PAT-1"), "marksman rail rifle (standard)", "ranged")
    assert prof.hit == 2


def test_inertial_dampener_not_other_weapons_nor_other_operatives() -> None:
    # Its gun butt is melee (not asked here); a Shas'Ui's pulse carbine (3+) worsens to 5+.
    assert _hit(("Shas'Ui Pathfinder",), "pulse carbine", 2) == 5


# -------------------------------------------------------------------------------------------
# Grenadier Specialist (Assault Grenadier)
# -------------------------------------------------------------------------------------------

GRENADIER = "Assault Grenadier Pathfinder"


def test_grenadier_specialist_own_frag_and_krak_hit_3_spend_no_uses() -> None:
    # Without any grenade equipment selected, it throws its own krak grenade at Hit 3+.
    from engine.game.attacks import attack_profile
    from engine.game.work import Work

    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (9, 14.5)}}
    s = lab((GRENADIER, LA), ops)
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert "Shoot PAT-1 krak grenade at BLU-1" in texts(s)
    assert "Shoot PAT-1 frag grenade at BLU-1" in texts(s)
    w = Work(s)
    assert attack_profile(w, w.op("PAT-1"), "krak grenade", "ranged").hit == 3
    s, _ = run(s, ["Shoot PAT-1 krak grenade at BLU-1"], dice=["1,1,1,1"])
    s = decline(s)
    s, ev = run(s, [], dice=["1,1"])
    s = decline(s, events=ev)
    assert not of_kind(ev, "grenade_used")
    # A Shas'La has no grenade of its own (and none was selected as equipment).
    from engine.game import universal

    assert not [n for n, _, _ in universal.weapons_of(w, "PAT-2", "ranged") if "grenade" in n]


def test_grenadier_specialist_spends_no_equipment_uses_beside_other_throwers() -> None:
    # With Explosive Grenades selected (one frag, one krak use for the kill team), the
    # Assault Grenadier (PAT-1) still has one krak grenade, its own Hit 3+ one (the equipment
    # gives it no second copy), and throwing it spends none of the team's uses, which stay
    # for the others: the Shas'La (PAT-2) has the team's krak grenade at the universal Hit
    # 4+. Before, the grenades were written on the datacard; now the rule gives them.
    from engine.game import universal
    from engine.game.attacks import attack_profile
    from engine.game.work import Work
    from engine.rules.equipment.grenades import grenades_left

    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "PAT-2": {"at": (5, 12.5)},
        "BLU-1": {"at": (9, 14.5)},
    }
    s = lab((GRENADIER, LA), ops, equipment={"A": ("Explosive Grenades (frag and krak)",)})
    w = Work(s)
    ranged = [n for n, _, _ in universal.weapons_of(w, "PAT-1", "ranged")]
    assert ranged.count("krak grenade") == 1 and ranged.count("frag grenade") == 1
    assert attack_profile(w, w.op("PAT-1"), "krak grenade", "ranged").hit == 3
    assert attack_profile(w, w.op("PAT-2"), "krak grenade", "ranged").hit == 4
    s, _ = run(s, ["Activate PAT-1 engage", "Shoot PAT-1 krak grenade at BLU-1"], dice=["1,1,1,1"])
    s = decline(s)
    s, ev = run(s, [], dice=["1,1"])
    s = decline(s, events=ev)
    assert not of_kind(ev, "grenade_used")
    assert grenades_left(Work(s), "A", "krak") == 1  # the team's use is still there
    # Not from its datacard: the Assault Grenadier's card lists only the fusion grenade.
    assert not any("frag" in x.name.lower() for x in Work(s).ctx.datacards["PAT-1"].weapons)


# -------------------------------------------------------------------------------------------
# Saviour Protocols
# -------------------------------------------------------------------------------------------

SHIELD = "MV4 Shield Drone"


def _saviour(drone_at: tuple[float, float], gun: str = "gun", shooter: str = "BLU-1") -> GameState:
    """B shoots PAT-1 in the open lane at (16, 14.5); the Shield Drone PAT-2 at ``drone_at``;
    stops in the target_selected window with A (1CP) to decide, if anything is offered."""
    ops: Ops = {
        "PAT-1": {"at": (16, 14.5)},
        "PAT-2": {"at": drone_at},
        "BLU-1": {"at": (5, 14.5)},
        "BLU-2": {"at": (5, 12.5)},
    }
    s = lab((LA, SHIELD), ops, blu=("Trooper", "Gunner"), cp=(1, 0), turn="B")
    s, _ = run(s, [f"Activate {shooter} engage", f"Shoot {shooter} {gun} at PAT-1"])
    return s


def test_saviour_protocols_a_drone_within_3_inches_becomes_the_target() -> None:
    s = _saviour((16, 16.5))
    assert s.node.kind == "ploy" and s.node.player == "A"  # type: ignore[union-attr]
    assert "Ploy saviour protocols on PAT-2" in texts(s)
    s, ev = s.apply("Ploy saviour protocols on PAT-2")
    assert ploys_used(ev) == [("A", "Saviour Protocols")]
    # Hits 6,5,4,3 (1 crit 4 dmg, 3 normals 3 dmg): no saves -> 13 on the drone (7 wounds).
    s, ev = run(pass_ploy_windows(s), [], dice=["6,5,4,3"])
    s = decline(s, events=ev)
    s, ev2 = run(s, [], dice=["1,1,1"])
    decline(s, events=ev2)
    hit = {e["op"] for e in of_kind(ev + ev2, "damage_inflicted")} | {
        e["op"] for e in of_kind(ev + ev2, "operative_incapacitated")
    }
    assert "PAT-2" in hit and "PAT-1" not in hit


def test_saviour_protocols_not_beyond_3_inches_nor_against_blast() -> None:
    # The drone 5" away is not offered; against a Blast weapon the ploy has no effect.
    # With nothing usable no window opens: the Shoot goes straight on (no ploy decision).
    s = _saviour((16, 19.5))
    assert not (isinstance(s.node, Decision) and s.node.kind == "ploy")
    s = _saviour((16, 16.5), "blast gun", "BLU-2")
    assert not (isinstance(s.node, Decision) and s.node.kind == "ploy")


# -------------------------------------------------------------------------------------------
# Point-Blank Fusillade
# -------------------------------------------------------------------------------------------


def _charged(pat_at: tuple[float, float], order: str = "engage") -> GameState:
    """BLU-1 charges PAT-1 (order ``order``, at ``pat_at``) and fights it with its knife;
    stops in the target_selected window."""
    ops: Ops = {"PAT-1": {"at": pat_at, "order": order}, "BLU-1": {"at": (14, 14.5)}}
    s = lab((LA,), ops, cp=(1, 0), turn="B")
    s, _ = run(s, ["Activate BLU-1 engage"])
    if abs(pat_at[0] - 14) > 2:
        s, _ = run(s, ["Charge BLU-1 to 11.2,14.5"])
    s, _ = run(s, ["Fight BLU-1 knife at PAT-1"])
    return s


def test_point_blank_fusillade_retaliate_with_the_pulse_carbine_first_no_block() -> None:
    s = _charged((10, 14.5))
    assert s.node.kind == "ploy" and s.node.player == "A"  # type: ignore[union-attr]
    # Its ranged weapons (no grenade): the pulse carbine.
    assert [t for t in texts(s) if "fusillade" in t] == ["Ploy point-blank fusillade pulse carbine"]
    s, ev = s.apply("Ploy point-blank fusillade pulse carbine")
    assert ploys_used(ev) == [("A", "Point-Blank Fusillade")]
    # BLU knife 3 dice 6,5,4 (3+); PAT-1's pulse carbine 4 dice 6,5,4,1 (4+).
    s, ev = run(pass_ploy_windows(s), [], dice=["6,5,4", "6,5,4,1"])
    retained = [(e["op"], e["normals"], e["crits"]) for e in of_kind(ev, "attack_retained")]
    assert ("PAT-1", 2, 1) in retained  # 4 attack dice: the carbine's, not the gun butt's 3
    # Ready, Engage, a pulse weapon: PAT-1 (A) resolves first, and it cannot block.
    assert s.node.kind == "resolve" and s.node.player == "A"  # type: ignore[union-attr]
    assert texts(s) and not [t for t in texts(s) if t.startswith("Block")]


def test_point_blank_fusillade_not_when_engaged_at_the_start_and_conceal_goes_second() -> None:
    # PAT-1 already within BLU-1's control range when its activation started: not offered.
    s = _charged((12.8, 14.5))
    assert not isinstance(s.node, Decision) or not [t for t in texts(s) if "fusillade" in t]
    # With a Conceal order the attacker resolves first as usual.
    s = _charged((10, 14.5), order="conceal")
    s, _ = s.apply("Ploy point-blank fusillade pulse carbine")
    s, _ = run(pass_ploy_windows(s), [], dice=["6,5,4", "6,5,4,1"])
    s = decline(s)
    assert s.node.kind == "resolve" and s.node.player == "B"  # type: ignore[union-attr]


def test_point_blank_fusillade_free_fight_outside_activations_judged_at_its_start() -> None:
    # A free Fight given to BLU-1 outside any activation (between activations): PAT-1 was
    # within its control range when that free action began, so the ploy is not offered;
    # the note ends with the free action. (In an activation: the tests above.)
    from engine.game import universal
    from engine.game.flow import advance
    from engine.game.work import Work

    ops: Ops = {"PAT-1": {"at": (12.8, 14.5)}, "BLU-1": {"at": (14, 14.5)}}
    s = lab((LA,), ops, cp=(1, 0), turn="B")
    w = Work(s)
    universal.start_free_action(w, "BLU-1", ("Fight",))
    advance(w)
    s = w.freeze()
    s, _ = run(s, ["Fight BLU-1 knife at PAT-1"])
    assert not isinstance(s.node, Decision) or not [t for t in texts(s) if "fusillade" in t]
    assert any(e.detail == "pf_engaged_at_free_start" for e in s.effects)
    s, _ = run(pass_ploy_windows(s), [], dice=["1,1,1", "1,1,1"])
    s = decline(s)
    assert not any(e.detail == "pf_engaged_at_free_start" for e in s.effects)


def test_fight_core_hooks_would_allow_block_and_would_resolve_first() -> None:
    # Without the ploy, the defender may block and the attacker resolves first (5.2).
    s = _charged((10, 14.5))
    s, _ = run(pass_ploy_windows(s), [], dice=["6,5,4", "6,5,1"])
    s = decline(s)
    assert s.node.kind == "resolve" and s.node.player == "B"  # type: ignore[union-attr]
    s, _ = s.apply("Strike normal")
    assert [t for t in texts(s) if t.startswith("Block")]


# -------------------------------------------------------------------------------------------
# Team equipment: High-Intensity Markerlight, Orbital Survey Uplink, Target Analysis Optic,
# Photon Grenade
# -------------------------------------------------------------------------------------------


def tokens(s: GameState, op: str) -> int:
    """A's Markerlight tokens on ``op``."""
    from engine.game.work import Work
    from teams.pathfinders.markerlights import markerlights

    return markerlights(Work(s), op, "A")


def with_tokens(s: GameState, op: str, n: int) -> GameState:
    """``s`` with ``op`` holding ``n`` of A's Markerlight tokens (through the token API)."""
    from engine.game.work import Work
    from teams.pathfinders.markerlights import add_markerlights

    w = Work(s)
    add_markerlights(w, op, n, "A")
    w.node = s.node
    return w.freeze()


# PAT-1 sees BLU-1 across the open lane; BLU-2 is behind the 5" wall (seen by neither);
# PAT-2 sees neither (the wall).
MARK: Ops = {
    "PAT-1": {"at": (5, 19)},
    "PAT-2": {"at": (5, 21)},
    "BLU-1": {"at": (16, 13)},
    "BLU-2": {"at": (16, 19)},
}
# Both PAT-1 and PAT-2 see BLU-1.
MARK2: Ops = {**MARK, "PAT-2": {"at": (5, 11)}}


def test_high_intensity_markerlight_two_tokens_twice_per_turning_point() -> None:
    # Chosen as the Markerlight is performed (its variant), not armed before: two tokens
    # instead of one; a second use this TP (PAT-2), then no third.
    s = lab((LA, LA), MARK2, equipment={"A": ("High-Intensity Markerlight",)})
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert "Act PAT-1 markerlight high-intensity on BLU-1" in texts(s)
    assert "Act PAT-1 markerlight on BLU-1" in texts(s)  # the player may keep it
    s, ev = run(s, ["Act PAT-1 markerlight high-intensity on BLU-1"])
    assert tokens(s, "BLU-1") == 2  # two instead of one
    assert [e["item"] for e in of_kind(ev, "equipment_used")] == ["High-Intensity Markerlight"]
    s, _ = run(s, ["End activation"])  # Group Activation: the other Shas'La next
    s, _ = run(s, ["Activate PAT-2 engage", "Act PAT-2 markerlight high-intensity on BLU-1"])
    assert tokens(s, "BLU-1") == 4
    from engine.game.work import Work

    assert Work(s).count("A", "pf_himl_used") == 2
    # A third operative this turning point: no variant, and asking for it names why.
    third = lab((LA, LA, LA), {**MARK2, "PAT-3": {"at": (5, 12)}}, equipment=EQUIP_HIML)
    w = Work(third)
    w.count("A", "pf_himl_used", add=2)
    w.node = third.node
    third, _ = run(w.freeze(), ["Activate PAT-3 engage"])
    assert "Act PAT-3 markerlight high-intensity on BLU-1" not in texts(third)
    with pytest.raises(IllegalActionError, match="high-intensity"):
        third.apply("Act PAT-3 markerlight high-intensity on BLU-1")


EQUIP_HIML = {"A": ("High-Intensity Markerlight",)}


def test_high_intensity_markerlight_not_unselected_and_one_token_without_it() -> None:
    s = lab((LA, LA), MARK)
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert not [t for t in texts(s) if "high-intensity" in t]
    s, _ = run(s, ["Act PAT-1 markerlight on BLU-1"])
    assert tokens(s, "BLU-1") == 1
    # Selected but declined (the plain action): one token, no use counted.
    s = lab((LA, LA), MARK, equipment=EQUIP_HIML)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"])
    from engine.game.work import Work

    assert tokens(s, "BLU-1") == 1 and Work(s).count("A", "pf_himl_used") == 0


def test_orbital_survey_uplink_marks_an_enemy_out_of_sight_once_per_tp() -> None:
    s = lab((LA, LA), MARK, equipment={"A": ("Orbital Survey Uplink",)})
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert "Act PAT-1 markerlight on BLU-2" in texts(s)  # behind the wall
    s, _ = run(s, ["Act PAT-1 markerlight on BLU-2"])
    assert tokens(s, "BLU-2") == 1
    # Once per turning point: PAT-2 can no longer select it.
    s, _ = run(s, ["End activation"])  # Group Activation: the other Shas'La next
    s, _ = run(s, ["Activate PAT-2 engage"])
    assert "Act PAT-2 markerlight on BLU-2" not in texts(s)
    # Without the equipment it is never offered.
    s = lab((LA, LA), MARK)
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert "Act PAT-1 markerlight on BLU-2" not in texts(s)


def test_target_analysis_optic_one_more_token_for_that_shoot() -> None:
    # BLU-1 has 1 token: with the optic it counts 2 (Hit 4+ -> 3+) during the Shoot only.
    from engine.game.work import Work

    s = lab((LA, LA), MARK, equipment={"A": ("Target Analysis Optic",)}, cp=(0, 0))
    s = with_tokens(s, "BLU-1", 1)
    s, _ = run(s, ["Activate PAT-1 engage", f"Shoot PAT-1 {CARBINE} at BLU-1"])
    assert s.node.kind == "ploy"  # type: ignore[union-attr]
    assert "Use target analysis optic" in texts(s)
    s, _ = s.apply("Use target analysis optic")
    assert tokens(s, "BLU-1") == 2
    f = Work(s).stack[-1]
    while not hasattr(f, "profile"):
        s, _ = s.apply("Pass")
        f = Work(s).stack[-1]
    assert f.profile(Work(s)).hit == 3
    s, _ = run(decline(s), [], dice=["1,1,1,1"])
    s, _ = run(decline(s), [], dice=["1,1,1"])
    s = decline(s)
    assert not any(hasattr(f, "profile") for f in Work(s).stack)
    assert tokens(s, "BLU-1") == 1  # the extra token is gone with the Shoot


def test_target_analysis_optic_not_without_tokens_nor_for_drones() -> None:
    s = lab((LA, LA), MARK, equipment={"A": ("Target Analysis Optic",)})
    s, _ = run(s, ["Activate PAT-1 engage", f"Shoot PAT-1 {CARBINE} at BLU-1"])
    assert not isinstance(s.node, Decision) or "Use target analysis optic" not in texts(s)
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = with_tokens(lab((GUN_DRONE,), ops, equipment={"A": ("Target Analysis Optic",)}), "BLU-1", 1)
    s, _ = run(s, ["Activate PAT-1 engage", "Shoot PAT-1 twin pulse carbine at BLU-1"])
    assert not isinstance(s.node, Decision) or "Use target analysis optic" not in texts(s)


def test_photon_grenade_move_minus_2_on_a_3_plus_once_per_tp() -> None:
    from engine.game.work import Work

    s = lab((LA, LA), MARK, equipment={"A": ("Photon Grenade",)})
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert "Act PAT-1 photon grenade on BLU-1" in texts(s)
    assert "Act PAT-1 photon grenade on BLU-2" not in texts(s)  # not visible
    s, ev = run(s, ["Act PAT-1 photon grenade on BLU-1"], dice=["3"])
    assert of_kind(ev, "photon_grenade")[0]["blinded"]
    assert Work(s).move_stat(s.operative("BLU-1")) == 4  # 6" - 2"
    assert s.operative("PAT-1").ap == 1
    # Once per turning point: PAT-2 cannot throw one.
    s, _ = run(s, ["End activation"])  # Group Activation: the other Shas'La next
    s, _ = run(s, ["Activate PAT-2 engage"])
    assert not [t for t in texts(s) if "photon" in t]


def test_photon_grenade_fails_on_a_2_and_not_for_drones() -> None:
    from engine.game.work import Work

    s = lab((LA, LA), MARK, equipment={"A": ("Photon Grenade",)})
    s, ev = run(s, ["Activate PAT-1 engage", "Act PAT-1 photon grenade on BLU-1"], dice=["2"])
    assert not of_kind(ev, "photon_grenade")[0]["blinded"]
    assert Work(s).move_stat(s.operative("BLU-1")) == 6
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = lab(("MV7 Marker Drone",), ops, equipment={"A": ("Photon Grenade",)})
    s, _ = run(s, ["Activate PAT-1 engage"])
    assert not [t for t in texts(s) if "photon" in t]


def test_point_blank_fusillade_weapon_loses_devastating_and_piercing() -> None:
    # A Weapons Expert's rail rifle (Devastating 2, Lethal 5+, Piercing 1) used in melee
    # keeps Lethal 5+ only.
    from engine.dice.rules import Devastating, Lethal, Piercing
    from engine.game import universal
    from engine.game.work import Work

    ops: Ops = {"PAT-1": {"at": (10, 14.5)}, "BLU-1": {"at": (14, 14.5)}}
    s = lab(("Weapons Expert Pathfinder [Rail Rifle; Gun Butt]",), ops, cp=(1, 0), turn="B")
    s, _ = run(s, ["Activate BLU-1 engage", "Charge BLU-1 to 11.2,14.5"])
    s, _ = run(s, ["Fight BLU-1 knife at PAT-1"])
    s, _ = s.apply("Ploy point-blank fusillade rail rifle")
    melee = {n: p for n, _, p in universal.weapons_of(Work(s), "PAT-1", "melee")}
    rules = melee["rail rifle"].rules
    assert rules.has(Lethal) and not rules.has(Devastating) and not rules.has(Piercing)


def test_bonded_also_when_retaliating_through_point_blank_fusillade() -> None:
    # PAT-2 within 3" of PAT-1 and Bonded used: the pulse carbine used in melee has
    # Accurate 1, so A is asked how many dice to retain unrolled for its retaliation.
    ops: Ops = {
        "PAT-1": {"at": (10, 14.5)},
        "PAT-2": {"at": (10, 12.5)},
        "BLU-1": {"at": (14, 14.5)},
    }
    s = gambit(ops, (LA, LA), cp=(2, 3))
    s, _ = s.apply("Ploy bonded")
    s = to_firefight(s)
    s, _ = run(s, ["Activate BLU-1 engage", "Charge BLU-1 to 11.2,14.5"])
    s, _ = run(pass_ploy_windows(s), ["Fight BLU-1 knife at PAT-1"])
    s, _ = s.apply("Ploy point-blank fusillade pulse carbine")
    s = pass_ploy_windows(s)
    assert s.node.kind == "accurate" and s.node.player == "A"  # type: ignore[union-attr]
    assert texts(s) == ["Accurate 0", "Accurate 1"]


def test_recon_sweep_the_player_chooses_the_order_of_the_dashes() -> None:
    # PAT-1 and PAT-3 both near the east edge: A picks PAT-3 first, then PAT-1 dashes.
    ops: Ops = {**SWEEP, "PAT-3": {"at": (27, 10)}}
    s = gambit(ops, (LA, LA, LA), initiative="A")
    s, _ = s.apply("Ploy recon sweep east")
    assert s.node.kind == "team_rule"  # type: ignore[union-attr]
    assert texts(s) == ["Decline", "Use recon sweep on PAT-1", "Use recon sweep on PAT-3"]
    s, _ = s.apply("Use recon sweep on PAT-3")
    assert all(t.startswith("Dash PAT-3") for t in texts(s)[:-1])
    s, _ = s.apply("Dash PAT-3 to 29,10")
    assert all(t.startswith("Dash PAT-1") for t in texts(s)[:-1])
    s, _ = s.apply("End activation")  # PAT-1 declines its Dash
    assert s.node.kind == "gambit" and s.node.player == "B"  # type: ignore[union-attr]
    assert (s.operative("PAT-1").x, s.operative("PAT-3").x) == (27, 29)


# -------------------------------------------------------------------------------------------
# Veteran (Blooded)
# -------------------------------------------------------------------------------------------

BLOODED = "Blooded Pathfinder"
VET: Ops = {"PAT-1": {"at": (5, 14.5)}, "PAT-2": {"at": (5, 4)}, "BLU-1": {"at": (16, 14.5)}}


def _veteran(doctrine: str, order: str) -> GameState:
    """TP2: A selects Art Of War ``doctrine``; the Blooded PAT-1 is activated with
    ``order``."""
    s = gambit(VET, (BLOODED, "Shas'Ui Pathfinder"), initiative="A")
    s, _ = s.apply(f"Use art of war {doctrine}")
    s = to_firefight(s)
    s, _ = s.apply(f"Activate PAT-1 {order}")
    return s


def test_veteran_kauyon_instead_of_montka_in_its_activation() -> None:
    from engine.game.work import Work

    s = _veteran("mont'ka", "conceal")
    move = Work(s).move_stat(s.operative("PAT-1"))
    assert move == Work(s).ctx.datacards["PAT-1"].move + 1  # Mont'ka: +1"
    assert "Use veteran kauyon" in texts(s)
    s, _ = s.apply("Use veteran kauyon")
    # Mont'ka's inch is gone for it; Kauyon's free Markerlight (Conceal order) is granted.
    assert Work(s).move_stat(s.operative("PAT-1")) == move - 1
    s, _ = s.apply("Act PAT-1 markerlight on BLU-1")
    assert s.operative("PAT-1").ap == 2  # free
    assert not [t for t in texts(s) if t.startswith("Use veteran")]  # once per activation
    # The Shas'Ui (not a Blooded) keeps Mont'ka's inch.
    w = Work(s)
    assert w.move_stat(w.op("PAT-2")) == w.ctx.datacards["PAT-2"].move + 1


def test_veteran_montka_instead_of_kauyon_and_not_without_art_of_war() -> None:
    from engine.game.work import Work

    s = _veteran("kauyon", "conceal")
    base = Work(s).ctx.datacards["PAT-1"].move
    s, _ = s.apply("Use veteran mont'ka")
    assert Work(s).move_stat(s.operative("PAT-1")) == base + 1
    # Kauyon's free Markerlight is taken away: it now costs 1AP.
    s, _ = s.apply("Act PAT-1 markerlight on BLU-1")
    assert s.operative("PAT-1").ap == 1
    # Without Art Of War this turning point, nothing to switch.
    s = gambit(VET, (BLOODED, "Shas'Ui Pathfinder"), initiative="A")
    s = to_firefight(s)
    s, _ = s.apply("Activate PAT-1 conceal")
    assert not [t for t in texts(s) if t.startswith("Use veteran")]


def test_orbital_survey_uplink_not_cumulative_with_the_mv7_high_intensity_markerlight() -> None:
    # The MV7 gives two tokens to an enemy it sees, but one through the uplink.
    ops: Ops = {"PAT-1": {"at": (5, 19)}, "BLU-1": {"at": (16, 13)}, "BLU-2": {"at": (16, 19)}}
    kit = {"A": ("Orbital Survey Uplink",)}
    s = lab(("MV7 Marker Drone",), ops, equipment=kit)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-2"])
    assert tokens(s, "BLU-2") == 1
    s = lab(("MV7 Marker Drone",), ops, equipment=kit)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"])
    assert tokens(s, "BLU-1") == 2


def test_orbital_survey_uplink_not_cumulative_with_analyse() -> None:
    # The MB3 marks BLU-2 out of sight through the uplink: BLU-1 (visible, within 3" of
    # BLU-2) gains no Analyse token; marking BLU-1 in sight, Analyse works as usual... on
    # enemies it sees (BLU-2 is not one).
    ops: Ops = {"PAT-1": {"at": (5, 14)}, "BLU-1": {"at": (18.5, 19)}, "BLU-2": {"at": (16, 21)}}
    s = lab(("MB3 Recon Drone",), ops, equipment={"A": ("Orbital Survey Uplink",)})
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-2"])
    assert (tokens(s, "BLU-2"), tokens(s, "BLU-1")) == (1, 0)
    ops = {**ops, "BLU-2": {"at": (20.5, 16.5)}}  # now in sight and near BLU-1
    s = lab(("MB3 Recon Drone",), ops, equipment={"A": ("Orbital Survey Uplink",)})
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-2"])
    assert (tokens(s, "BLU-2"), tokens(s, "BLU-1")) == (1, 1)


# -------------------------------------------------------------------------------------------
# Advice: the heuristic agent uses the rules
# -------------------------------------------------------------------------------------------


def _heuristic(s: GameState) -> str:
    from engine.agents.heuristic import HeuristicAgent

    return str(HeuristicAgent(seed=1).act(s))


def test_advice_heuristic_marks_with_the_high_intensity_markerlight() -> None:
    # Its Markerlight's advice counts the tokens gained: the high-intensity variant (two)
    # is preferred to the plain one (an enemy in sight to mark, nothing to shoot first).
    from engine.game.actions import Action
    from engine.game.work import Work
    from teams.pathfinders.markerlights import MARKERLIGHT

    s = lab((LA, LA), MARK, equipment={"A": ("High-Intensity Markerlight",)})
    s, _ = run(s, ["Activate PAT-1 engage"])
    w = Work(s)
    o = w.op("PAT-1")
    plain = Action("Act", op="PAT-1", text="markerlight", target="BLU-1")
    high = Action("Act", op="PAT-1", text="markerlight high-intensity", target="BLU-1")
    assert MARKERLIGHT.advice(w, o, high, "activation") == 2 * MARKERLIGHT.advice(
        w, o, plain, "activation"
    )


def test_advice_heuristic_uses_the_medikit_on_a_badly_wounded_friend() -> None:
    # Under a Conceal order with no shot to take: healing PAT-2 (2W of 7) is its best action.
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "PAT-2": {"at": (5, 15.7), "wounds": 2},
        "BLU-1": {"at": (25, 4)},
    }
    s, _ = run(lab((MEDTECH, LA), ops), ["Activate PAT-1 conceal"])
    assert _heuristic(s) == "Act PAT-1 medikit on PAT-2"
