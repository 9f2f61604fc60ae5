"""The Legionaries' team rules (``teams/legionaries.py``): one scripted test per rule at
least, named after it, on the LAB killzone against the BLU test team."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

import teams.legionaries  # noqa: F401  (registers the rules)
from engine.game import Action, Chance, Decision, GameState, IllegalActionError, universal
from engine.game.state import Effect
from engine.game.work import Work
from engine.rulesets import position
from engine.teams.model import Roster
from tests.test_game_rules_common import BLU, LAB, attack_texts, play, roster
from tests.test_team_weapon_rules import lab_team

WARRIORS = ["Legionary Warrior [Boltgun; Fists]", "Legionary Warrior [Bolt Pistol; Chainsword]"]
# LEG-1 and BLU-1 face each other down LAB's open lane, 11" apart; all are expended, so
# TP1's Firefight phase ends at once and TP2 begins (everyone ready again).
FACING = {
    "LEG-1": {"at": (5, 14), "ready": False},
    "BLU-1": {"at": (16, 14), "ready": False},
    "BLU-2": {"at": (25, 20), "ready": False},
}


def lab(
    types: Sequence[str],
    operatives: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Gunner", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: Legionaries (player A, roster entries with loadouts) against the BLU
    test team (a Gunner, with every special ranged weapon, and a Trooper). ``mark``: every
    Legionary's Mark of Chaos, chosen in the roster (``"NURGLE"``...); by default none (a
    test device: an effect as Infernal Pact leaves, with no mark, on each Legionary), so
    that no mark's rule interferes. ``pact``: A has not used Infernal Pact yet (by default
    it has, so that its option does not open a window at each Warrior's activation)."""
    kw.setdefault("cp", (3, 3))
    mark = kw.pop("mark", "")
    pact = kw.pop("pact", False)
    team = Roster.from_entries(lab_team("legionaries"), list(types))
    if mark:
        team = team.with_choices(None, [{"Mark of Chaos": [mark.title()]} for _ in types])
    s = position(LAB, team, roster(BLU, tuple(blu)), operatives=operatives, **kw)
    if not pact:
        a = attrs.evolve(s.players[0], uses=(("infernal_pact", 1),))
        s = attrs.evolve(s, players=(a, s.players[1]))
    if mark:
        return s
    none = tuple(
        Effect("mark_of_chaos", o.id, "end_battle") for o in s.operatives if o.player == "A"
    )
    return attrs.evolve(s, effects=(*s.effects, *none))


def pass_windows(s: GameState) -> GameState:
    """Pass in every ploy window until another decision or a chance node."""
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    return s


def gambit(
    ploys: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]] = FACING,
    initiative: str = "A",
    types: Sequence[str] = WARRIORS,
    mark: str = "",
    blu: Sequence[str] = ("Gunner", "Trooper"),
    pact: bool = False,
    **kw: Any,
) -> GameState:
    """TP2's Gambit step from a spent TP1 (A wins the roll-off and gives ``initiative``): A
    uses ``ploys`` (strategy ploys by name, or other gambits' actions: ``Use ...``), B
    passes; then the Firefight phase begins. ``pact``, ``kw``: as :func:`lab`."""
    s = pass_windows(lab(types, ops, blu, mark=mark, pact=pact, **kw))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply(f"Initiative {initiative}")
    todo = list(ploys)
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        if s.node.player == "A" and todo:
            item = todo.pop(0)
            s, _ = s.apply(item if item.startswith("Use ") else f"Ploy {item.lower()}")
        else:
            s, _ = s.apply("Pass")
    return pass_windows(s)


def activate_blu_1(s: GameState) -> GameState:
    """B (initiative) activates BLU-1 and ends its activation at once: it is expended."""
    s, _ = play(s, ["Activate BLU-1 engage", "End activation"])
    return pass_windows(s)


def rerolls_offered(s: GameState) -> bool:
    return isinstance(s.node, Decision) and s.node.kind == "reroll"


BOLTGUN = "Shoot LEG-1 boltgun at BLU-1"


def test_fickle_fates_gives_balanced_against_a_ready_enemy() -> None:
    # Boltgun (4 attacks, no weapon rule) at a ready BLU-1: after the attack dice, the
    # Balanced re-roll of one die is offered; without the ploy, only Command Re-roll.
    s = gambit(["Fickle Fates"])
    assert s.players[0].cp == 3  # 3 + 1 for TP2 - 1 for the ploy
    s, _ = play(s, ["Activate LEG-1 engage", BOLTGUN], ["6,3,1,1"])
    assert rerolls_offered(s)
    assert [str(a) for a in s.legal_actions()] == ["Keep", "Re-roll 1", "Re-roll 3", "Re-roll 6"]
    s, _ = play(gambit([]), ["Activate LEG-1 engage", BOLTGUN], ["6,3,1,1"])
    assert not rerolls_offered(s)


def test_fickle_fates_not_against_an_expended_enemy() -> None:
    s = activate_blu_1(gambit(["Fickle Fates"], initiative="B"))
    s, _ = play(s, ["Activate LEG-1 engage", BOLTGUN], ["6,3,1,1"])
    assert not rerolls_offered(s)


def test_fickle_fates_lasts_until_the_end_of_the_turning_point() -> None:
    s = gambit(["Fickle Fates"])
    assert [e.until for e in s.effects if e.detail == "fickle_fates"] == ["end_tp"]


def tzeentch_saves(
    ploys: Sequence[str], defence: str, mark: str = "TZEENTCH", initiative: str = "B"
) -> GameState:
    """B shoots LEG-1 (``mark``, Save 3+, ready unless A activated it first) with BLU-1's
    silent gun, retaining three normal successes (3,3,3,1); LEG-1 rolls ``defence``. The
    state at A's defence dice window (or after it, when A has no option there)."""
    s = gambit(ploys, initiative=initiative, mark=mark)
    if initiative == "A":  # LEG-1 activated and expended first
        s, _ = s.apply("Activate LEG-1 engage")
        s, _ = pass_windows(s).apply("End activation")  # Mutability And Change passed
        s = pass_windows(s)
    shot = ["Activate BLU-1 engage", "Shoot BLU-1 silent gun at LEG-1", "Decline"]
    s, _ = play(s, shot, ["3,3,3,1", defence])
    return s


def fickle_option(s: GameState) -> bool:
    return isinstance(s.node, Decision) and "Use fickle fates" in [
        str(a) for a in s.legal_actions()
    ]


def test_fickle_fates_tzeentch_retains_a_fail_as_a_normal_save_with_a_crit() -> None:
    # Defence 6,2,1 at Save 3+: one critical save, two fails. Fickle Fates retains the
    # lowest fail (the 1) as a normal save: 1 normal + 1 critical save are retained.
    s = tzeentch_saves(["Fickle Fates"], "6,2,1")
    assert fickle_option(s)
    cp = s.players[0].cp
    s, ev = s.apply("Use fickle fates")
    assert s.players[0].cp == cp  # free (the ploy's 1CP was paid in the Strategy phase)
    # The window closed with it (the dice are retained, no re-roll after): the saves are
    # retained and the damage inflicted in the same step: 3 normal hits of 3 damage less
    # two blocked (one by each save) -> 3 damage of LEG-1's 14 wounds.
    assert [(e["normals"], e["crits"]) for e in ev if e.kind == "saves_retained"] == [(1, 1)]
    assert s.operative("LEG-1").wounds == 11


def test_fickle_fates_tzeentch_needs_a_crit_a_fail_the_mark_and_a_ready_target() -> None:
    # No critical save (5,2,1): nothing to use; the defender retains one normal save.
    assert not fickle_option(tzeentch_saves(["Fickle Fates"], "5,2,1"))
    # No fail (6,4,3): nothing to change.
    assert not fickle_option(tzeentch_saves(["Fickle Fates"], "6,4,3"))
    # Not TZEENTCH, or without the ploy: not offered.
    assert not fickle_option(tzeentch_saves(["Fickle Fates"], "6,2,1", mark="NURGLE"))
    assert not fickle_option(tzeentch_saves([], "6,2,1"))
    # LEG-1 expended (it activated first): not a ready operative.
    assert not fickle_option(tzeentch_saves(["Fickle Fates"], "6,2,1", initiative="A"))


def defence_dice(ploys: Sequence[str], attack: str, weapon: str = "pierce gun") -> int:
    """B (initiative) shoots LEG-1 (Save 3+: 3 defence dice) with BLU-1's ``weapon``; A used
    ``ploys``. The number of defence dice LEG-1 rolls."""
    s = gambit(ploys, initiative="B")
    shot = f"Shoot BLU-1 {weapon} at LEG-1"
    s, _ = play(s, ["Activate BLU-1 engage", shot, "Decline"], [attack])
    node = s.node
    assert isinstance(node, Chance) and node.request.kind == "defence"
    return node.request.dice


def test_implacable_piercing_1_only_with_a_critical_success() -> None:
    # Pierce Gun (Piercing 1): no crit retained -> 3 defence dice; a crit -> 2. Without the
    # ploy Piercing 1 always removes one.
    assert defence_dice(["Implacable"], "3,3,1,1") == 3
    assert defence_dice(["Implacable"], "6,3,1,1") == 2
    assert defence_dice([], "3,3,1,1") == 2


def test_implacable_changes_no_other_weapon() -> None:
    # The Silent Gun has no Piercing: 3 dice either way.
    assert defence_dice(["Implacable"], "3,3,1,1", "silent gun") == 3


# LEG-1 (a Warrior with a chainsword) 4" from BLU-1 (a Trooper, Knife 3+): a Charge takes
# it into BLU-1's control range, at 7.44,14.
CHARGE = {
    "LEG-1": {"at": (5, 14), "ready": False},
    "BLU-1": {"at": (9, 14), "ready": False},
    "BLU-2": {"at": (25, 20), "ready": False},
}
CHAINSWORD = ["Legionary Warrior [Bolt Pistol; Chainsword]"]


def retaliation_normals(
    ploys: Sequence[str], charge: bool = True, blu_wounds: int = 10, activate: str = "engage"
) -> int:
    """LEG-1 (charging BLU-1 first when ``charge``, else starting in its control range)
    fights BLU-1, missing with every die; BLU-1 retaliates rolling 4,3,3. The normal
    successes BLU-1 retains."""
    ops = {**CHARGE, "BLU-1": {**CHARGE["BLU-1"], "wounds": blu_wounds}}
    if not charge:
        ops["LEG-1"] = {"at": (7.44, 14), "ready": False}
    s = gambit(ploys, ops, types=CHAINSWORD)
    todo = [f"Activate LEG-1 {activate}"] + (["Charge LEG-1 to 7.44,14"] if charge else [])
    s, _ = play(s, todo)
    s = pass_windows(s)
    fight = ["Fight LEG-1 chainsword at BLU-1", "Decline", "Decline"]
    s, ev = play(s, fight, ["1,1,1,1,1", "4,3,3"])
    return next(e["normals"] for e in ev if e.kind == "attack_retained" and e["op"] == "BLU-1")


def test_quicksilver_speed_worsens_the_retaliating_enemys_hit() -> None:
    # Knife 3+ becomes 4+ against a Legionary that charged: 4,3,3 retains one success.
    assert retaliation_normals(["Quicksilver Speed"]) == 1
    assert retaliation_normals([]) == 3


def test_quicksilver_speed_needs_a_move_this_turning_point() -> None:
    assert retaliation_normals(["Quicksilver Speed"], charge=False) == 3


def test_quicksilver_speed_not_cumulative_with_being_injured() -> None:
    # BLU-1 injured (4 of 10 wounds): Knife 4+ from the injury, not 5+ with the ploy.
    assert retaliation_normals([], blu_wounds=4) == 1
    assert retaliation_normals(["Quicksilver Speed"], blu_wounds=4) == 1


# LEG-1 (chainsword 4/5, Warrior) in BLU-1's control range; BLU-1 a Trooper of 10 wounds.
ENGAGED = {**CHARGE, "LEG-1": {"at": (7.44, 14), "ready": False}}
BLOOD = "Blood For The Blood God"


def strike_damage(ploys: Sequence[str], mark: str = "", retaliate: bool = False) -> list[int]:
    """LEG-1 fights BLU-1 (or, ``retaliate``, BLU-1 fights LEG-1) and LEG-1 retains two
    normal successes (3,3,1,1,1) while BLU-1 retains none (1,1,1); LEG-1 strikes twice. The
    damage of LEG-1's strikes."""
    if retaliate:
        s = gambit(ploys, ENGAGED, initiative="B", types=CHAINSWORD, mark=mark)
        script = ["Activate BLU-1 engage", "Fight BLU-1 knife at LEG-1", "Decline", "Decline"]
        s, _ = play(s, script, ["1,1,1", "3,3,1,1,1"])
    else:
        s = gambit(ploys, ENGAGED, types=CHAINSWORD, mark=mark)
        script = ["Activate LEG-1 engage", "Fight LEG-1 chainsword at BLU-1", "Decline", "Decline"]
        s, _ = play(s, script, ["3,3,1,1,1", "1,1,1"])
    while isinstance(s.node, Decision) and s.node.kind == "retention_rule":
        s, _ = s.apply("Decline")  # KHORNE's Severe
    s, ev = play(s, ["Strike normal", "Strike normal"])
    return [e["damage"] for e in ev if e.kind == "damage_inflicted" and e["by"] == "LEG-1"]


def test_blood_for_the_blood_god_first_strike_inflicts_one_more() -> None:
    assert strike_damage([BLOOD]) == [5, 4]
    assert strike_damage([]) == [4, 4]


def test_blood_for_the_blood_god_only_when_fighting_not_retaliating() -> None:
    assert strike_damage([BLOOD], retaliate=True) == [4, 4]


def test_blood_for_the_blood_god_khorne_every_strike_one_more() -> None:
    # KHORNE: Dmg 4/5 becomes 5/6 for every strike, fighting or retaliating.
    assert strike_damage([BLOOD], mark="KHORNE") == [5, 5]
    assert strike_damage([BLOOD], mark="KHORNE", retaliate=True) == [5, 5]
    assert strike_damage([], mark="KHORNE") == [4, 4]


def test_blood_for_the_blood_god_khorne_dmg_is_a_stat_change_the_profile_shows() -> None:
    # The +1 is a change of both Dmg stats (would_change_damage): the attack profile every
    # valuation reads shows 5/6 for the chainsword (4/5), melee only (the bolt pistol keeps
    # 3/4), and only for KHORNE under the ploy.
    from engine.game.attacks import attack_profile

    def dmg(ploys: list[str], mark: str, weapon: str, kind: str) -> tuple[int, int]:
        s = gambit(ploys, ENGAGED, types=CHAINSWORD, mark=mark)
        w = Work(s)
        p = attack_profile(w, w.op("LEG-1"), weapon, kind)
        return p.normal_damage, p.critical_damage

    assert dmg([BLOOD], "KHORNE", "chainsword", "melee") == (5, 6)
    assert dmg([], "KHORNE", "chainsword", "melee") == (4, 5)
    assert dmg([BLOOD], "NURGLE", "chainsword", "melee") == (4, 5)
    assert dmg([BLOOD], "KHORNE", "bolt pistol", "ranged") == (3, 4)


def ploys_offered(s: GameState) -> list[str]:
    if not (isinstance(s.node, Decision) and s.node.kind == "ploy"):
        return []
    return [str(a) for a in s.legal_actions() if str(a) != "Pass"]


def test_mutability_and_change_tzeentch_gains_one_apl_as_activated() -> None:
    # A Legionary Warrior has APL 3: activated with the ploy it has 4AP, for 1CP.
    s = gambit([], mark="TZEENTCH")
    s, _ = s.apply("Activate LEG-1 engage")
    assert ploys_offered(s) == ["Ploy mutability and change"]
    s, _ = s.apply("Ploy mutability and change")
    assert s.operative("LEG-1").ap == 4
    assert s.players[0].cp == 3  # 3 + 1 for TP2 - 1
    assert any(e.detail == "mutability_and_change" for e in s.effects)


def test_mutability_and_change_only_for_tzeentch() -> None:
    for mark in ("", "KHORNE"):
        s = gambit([], mark=mark)
        s, _ = s.apply("Activate LEG-1 engage")
        assert ploys_offered(s) == []
        assert s.operative("LEG-1").ap == 3


# BLU-1 3" from LEG-1 (visible, within 4"), BLU-2 far away.
NEAR = {**FACING, "BLU-1": {"at": (8, 14), "ready": False}}


def captivation_among_actions(s: GameState) -> list[str]:
    """The Sickening Captivation ploys offered among the active operative's actions."""
    if not (isinstance(s.node, Decision) and s.node.kind == "action"):
        return []
    return [str(a) for a in s.legal_actions() if a.verb == "Ploy"]


def test_sickening_captivation_slaanesh_takes_an_apl_from_a_near_enemy() -> None:
    # Offered among LEG-1's action choices (before its first action here), not as an action.
    s = gambit([], NEAR, mark="SLAANESH", initiative="A")
    s, _ = s.apply("Activate LEG-1 engage")
    assert captivation_among_actions(s) == ["Ploy sickening captivation on BLU-1"]
    s, _ = s.apply("Ploy sickening captivation on BLU-1")
    assert s.operative("LEG-1").ap == 3  # not an action: no AP spent
    s, _ = play(s, ["End activation"])
    s = pass_windows(s)
    s, _ = s.apply("Activate BLU-1 engage")
    assert s.operative("BLU-1").ap == 1  # a Trooper's APL 2, -1 until its activation ends
    s, _ = play(pass_windows(s), ["End activation"])
    assert not [e for e in s.effects if e.kind == "apl" and e.op == "BLU-1"]


def test_sickening_captivation_after_the_last_action_and_only_for_slaanesh() -> None:
    s = gambit([], NEAR, mark="SLAANESH")
    s, _ = play(s, ["Activate LEG-1 engage", "End activation"])
    assert ploys_offered(s) == ["Ploy sickening captivation on BLU-1"]
    s = gambit([], NEAR, mark="NURGLE")
    s, _ = s.apply("Activate LEG-1 engage")
    assert ploys_offered(s) == [] and captivation_among_actions(s) == []


def test_sickening_captivation_between_two_actions() -> None:
    # "before or after it performs an action": after a first action (a 1AP Reposition back
    # toward BLU-1, still within 4"), the ploy is offered among the next action choices.
    s = gambit([], NEAR, mark="SLAANESH", initiative="A")
    s, _ = s.apply("Activate LEG-1 engage")
    s, _ = play(s, ["Reposition LEG-1 to 5,15"])
    assert captivation_among_actions(s) == ["Ploy sickening captivation on BLU-1"]
    s, _ = s.apply("Ploy sickening captivation on BLU-1")
    assert [e.value for e in s.effects if e.kind == "apl" and e.op == "BLU-1"] == [-1]
    assert captivation_among_actions(s) == []  # once per turning point (1CP, 7.1)


def malignant_defence_dice(mark: str, blu_at: tuple[float, float]) -> int:
    """LEG-1 (boltgun, ``mark``) shoots BLU-1 at ``blu_at`` using Malignant Aura when it is
    offered; attack 3,3,1,1. The defence dice BLU-1 (Save 4+: 3 dice) rolls."""
    s = gambit([], {**FACING, "BLU-1": {"at": blu_at, "ready": False}}, mark=mark)
    s, _ = play(s, ["Activate LEG-1 engage", "Shoot LEG-1 boltgun at BLU-1"])
    if ploys_offered(s):
        s, _ = s.apply("Ploy malignant aura")
    s, _ = play(s, ["Decline"], ["3,3,1,1"])
    node = s.node
    assert isinstance(node, Chance) and node.request.kind == "defence"
    return node.request.dice


def test_malignant_aura_piercing_1_within_3_inches() -> None:
    assert malignant_defence_dice("NURGLE", (8, 14)) == 2
    assert malignant_defence_dice("NURGLE", (12, 14)) == 3  # more than 3" away
    assert malignant_defence_dice("", (8, 14)) == 3  # not NURGLE: not offered


def first_shot_node(mark: str, blu_at: tuple[float, float] = (16, 14)) -> GameState:
    """LEG-1 (``mark``, boltgun) shoots BLU-1 at ``blu_at``, passing every ploy window;
    attack 3,3,1,1 (two normal successes, no crit)."""
    s = gambit([], {**FACING, "BLU-1": {"at": blu_at, "ready": False}}, mark=mark)
    s, _ = s.apply("Activate LEG-1 engage")
    s, _ = play(pass_windows(s), ["Shoot LEG-1 boltgun at BLU-1"], ["3,3,1,1"])
    return s


def test_tzeentch_empyreal_guidance_ranged_weapons_have_severe() -> None:
    s, _ = first_shot_node("TZEENTCH").apply("Decline")  # no Command Re-roll
    assert [str(a) for a in s.legal_actions()] == ["Apply Severe", "Decline"]
    s, _ = first_shot_node("").apply("Decline")
    assert isinstance(s.node, Chance)  # straight to the defence dice


def test_khorne_wrathful_onslaught_melee_weapons_have_severe() -> None:
    # KHORNE LEG-1 fights BLU-1 with its chainsword (already Rending), 3,3,1,1,1: Severe is
    # offered among its retention rules; not for its boltgun (ranged).
    s = gambit([], ENGAGED, types=CHAINSWORD, mark="KHORNE")
    script = ["Activate LEG-1 engage", "Fight LEG-1 chainsword at BLU-1", "Decline", "Decline"]
    s, _ = play(s, script, ["3,3,1,1,1", "1,1,1"])
    assert "Apply Severe" in [str(a) for a in s.legal_actions()]
    s, _ = first_shot_node("KHORNE").apply("Decline")
    assert isinstance(s.node, Chance)


def test_undivided_vicious_reavers_ceaseless_within_6_inches() -> None:
    # BLU-1 at 8,14 (1.7" away) or 12,14 (5.7"): Ceaseless re-roll offered; at 14,14 (7.7")
    # or without the mark, only Command Re-roll.
    for at in ((8, 14), (12, 14)):
        s = first_shot_node("UNDIVIDED", at)
        assert [str(a) for a in s.legal_actions()] == ["Keep", "Re-roll 1,1", "Re-roll 3,3"]
    assert not rerolls_offered(first_shot_node("UNDIVIDED", (14, 14)))
    assert not rerolls_offered(first_shot_node("", (8, 14)))


CHAMPION = ["Legionary Aspiring Champion [Plasma Pistol + Power Fist]"]
PLASMA = "Shoot LEG-1 plasma pistol (standard) at BLU-1"


def champion_shoots(blu_1_wounds: int) -> GameState:
    """The Aspiring Champion (APL 3) shoots BLU-1 (3/5 Piercing 1: 2 defence dice) with one
    normal success (3,1,1,1) that is not saved (1,1): 3 damage. BLU-2 (1 wound) is 2.7"
    away."""
    ops = {
        "LEG-1": {"at": (5, 14), "ready": False},
        "BLU-1": {"at": (10, 14), "ready": False, "wounds": blu_1_wounds},
        "BLU-2": {"at": (5, 18), "ready": False, "wounds": 1},
    }
    s = gambit([], ops, types=CHAMPION)
    script = ["Activate LEG-1 engage", PLASMA, "Decline", "Decline"]
    s, _ = play(s, script, ["3,1,1,1", "1,1"])
    return pass_windows(s)


def test_in_the_eyes_of_the_gods_gains_an_apl_when_it_incapacitates() -> None:
    s = champion_shoots(3)
    assert not s.operative("BLU-1").placed
    assert s.operative("LEG-1").ap == 3  # 3AP - 1 for the shot + 1
    assert champion_shoots(10).operative("LEG-1").ap == 2


def test_in_the_eyes_of_the_gods_once_per_activation() -> None:
    # After the first kill it charges BLU-2 and fights it with its power fist (4+, Brutal):
    # one hit, no block, a strike incapacitates it: no second AP.
    s = champion_shoots(3)
    script = ["Charge LEG-1 to 5,16.44", "Fight LEG-1 power fist at BLU-2", "Decline", "Decline"]
    s, _ = play(s, script, ["4,1,1,1,1", "1,1,1"])
    s, _ = play(s, ["Strike normal"])
    assert not s.operative("BLU-2").alive
    assert s.operative("LEG-1").ap == 1


CHOSEN = ["Legionary Chosen [Plasma Pistol; Daemon Blade]"]


def chosen_fights(blu_1_wounds: int, dice: Sequence[str] = ()) -> tuple[GameState, list[Any]]:
    """The Chosen (15 wounds, at 8) fights BLU-1 with its daemon blade: one normal hit
    (3,1,1,1,1), none for BLU-1 (1,1,1); it strikes once. ``dice``: the Soul Gorge roll."""
    ops = {
        **ENGAGED,
        "LEG-1": {"at": (7.44, 14), "ready": False, "wounds": 8},
        "BLU-1": {"at": (9, 14), "ready": False, "wounds": blu_1_wounds},
    }
    s = gambit([], ops, types=CHOSEN)
    script = ["Activate LEG-1 engage", "Fight LEG-1 daemon blade at BLU-1", "Decline", "Decline"]
    s, ev = play(s, [*script, "Strike normal"], ["3,1,1,1,1", "1,1,1", *dice])
    return s, ev


def test_soul_gorge_regains_d3_plus_1_after_incapacitating_in_a_fight() -> None:
    s, ev = chosen_fights(3, ["5"])  # D3 of 3, +1
    assert not s.operative("BLU-1").placed
    assert s.operative("LEG-1").wounds == 12
    assert [e["source"] for e in ev if e.kind == "wounds_regained"] == ["Soul Gorge"]


def test_soul_gorge_not_without_incapacitating() -> None:
    s, ev = chosen_fights(10)
    assert s.operative("LEG-1").wounds == 8
    assert not [e for e in ev if e.kind == "dice_rolled" and "Soul Gorge" in e["label"]]


SHRIVETALON = ["Legionary Shrivetalon"]


def shrivetalon_kills(
    blu_2_at: tuple[float, float], blu_3_at: tuple[float, float] | None = None
) -> tuple[GameState, list[Any]]:
    """The Shrivetalon fights BLU-1 (3 wounds) with its flensing blades: one normal hit
    (3,1,1,1,1) of 3 damage incapacitates it. BLU-2 (and BLU-3) stand where given."""
    ops: dict[str, dict[str, Any]] = {
        "LEG-1": {"at": (7.44, 14), "ready": False},
        "BLU-1": {"at": (9, 14), "ready": False, "wounds": 3},
        "BLU-2": {"at": blu_2_at, "ready": False},
    }
    blu = ["Gunner", "Trooper"]
    if blu_3_at is not None:
        ops["BLU-3"] = {"at": blu_3_at, "ready": False}
        blu.append("Trooper")
    s = gambit([], ops, types=SHRIVETALON, blu=blu)
    script = ["Activate LEG-1 engage", "Fight LEG-1 flensing blades at BLU-1", "Decline"]
    s, ev = play(s, [*script, "Decline", "Strike normal"], ["3,1,1,1,1", "1,1,1"])
    return s, ev


def apl_changes(s: GameState, op: str) -> list[int]:
    return [e.value for e in s.effects if e.kind == "apl" and e.op == op]


def test_horrifying_dismemberment_another_enemy_within_3_inches_loses_an_apl() -> None:
    # BLU-2 2.5" from BLU-1 (the incapacitated one): the only candidate, chosen at once.
    s, ev = shrivetalon_kills((9, 16.5))
    assert not s.operative("BLU-1").placed
    assert apl_changes(s, "BLU-2") == [-1]
    assert [e["on"] for e in ev if e.kind == "team_rule_selected"] == ["BLU-2"]


def test_horrifying_dismemberment_no_enemy_near_nothing_happens() -> None:
    s, _ = shrivetalon_kills((25, 20))
    assert apl_changes(s, "BLU-2") == []


def test_horrifying_dismemberment_player_selects_among_several() -> None:
    s, _ = shrivetalon_kills((9, 16.5), (5, 16))
    assert s.node == Decision("A", "team_rule")
    assert [str(a) for a in s.legal_actions()] == [
        "Use horrifying dismemberment on BLU-2",
        "Use horrifying dismemberment on BLU-3",
    ]
    s, _ = s.apply("Use horrifying dismemberment on BLU-3")
    assert apl_changes(s, "BLU-3") == [-1] and apl_changes(s, "BLU-2") == []


def reposition(mark: str, to: str, wounds: int = 14, ploys: Sequence[str] = ()) -> str:
    """LEG-1 (a Warrior, Move 6", ``mark``) repositions to ``to``: the error, or ``""``."""
    ops = {**FACING, "LEG-1": {**FACING["LEG-1"], "wounds": wounds}, "BLU-1": {"at": (16, 20)}}
    s = gambit(ploys, {k: {**v, "ready": False} for k, v in ops.items()}, mark=mark)
    s, _ = s.apply("Activate LEG-1 engage")
    try:
        pass_windows(s).apply(f"Reposition LEG-1 to {to}")
    except IllegalActionError as exc:
        return str(exc)
    return ""


def test_slaanesh_unnatural_agility_one_more_inch_of_move() -> None:
    assert reposition("SLAANESH", "11.9,14") == ""
    assert 'within 6"' in reposition("", "11.9,14")
    assert reposition("SLAANESH", "12.1,14") != ""
    # Injured (5 of 14 wounds): 7" - 2" = 5".
    assert 'within 5"' in reposition("SLAANESH", "10.9,14", wounds=5)


def first_to_resolve(types: Sequence[str]) -> str:
    """B (initiative) fights LEG-1 (``types``) with BLU-1's knife: one normal success each
    (3,1,1 and 3,1,1,1,1). The player who resolves first."""
    s = gambit([], ENGAGED, initiative="B", types=types)
    script = ["Activate BLU-1 engage", "Fight BLU-1 knife at LEG-1", "Decline", "Decline"]
    s, _ = play(s, script, ["3,1,1", "3,1,1,1,1"])
    while isinstance(s.node, Decision) and s.node.kind == "retention_rule":
        s, _ = s.apply("Decline")
    assert isinstance(s.node, Decision) and s.node.kind == "resolve"
    return s.node.player


def test_vicious_reflexes_shrivetalon_resolves_first_when_retaliating() -> None:
    assert first_to_resolve(SHRIVETALON) == "A"
    assert first_to_resolve(CHAINSWORD) == "B"


def objective_controller(types: Sequence[str], blu: Sequence[str] = ("Captain", "Trooper")) -> str:
    """LEG-1 (``types``) and BLU-1 (a Captain, APL 3 by default) both on LAB's objective."""
    ops = {"LEG-1": {"at": (19.2, 14.5)}, "BLU-1": {"at": (20.8, 14.5)}}
    return universal.controller(Work(lab(types, ops, blu)), "obj")


def test_icon_bearer_counts_one_more_apl_for_marker_control() -> None:
    # Icon Bearer APL 3 (+1) against the Captain's 3: A controls; a Warrior (3) ties.
    assert objective_controller(["Legionary Icon Bearer [Boltgun; Fists]"]) == "A"
    assert objective_controller(["Legionary Warrior [Boltgun; Fists]"]) == ""
    # Not a stat change: its APL stays 3.
    ops = {"LEG-1": {"at": (19.2, 14.5)}, "BLU-1": {"at": (20.8, 14.5)}}
    w = Work(lab(["Legionary Icon Bearer [Boltgun; Fists]"], ops))
    assert w.apl(w.op("LEG-1")) == 3


def khorne_falls(ploys_in_window: bool, mark: str = "KHORNE") -> tuple[GameState, list[Any]]:
    """B fights LEG-1 (a Warrior with a chainsword 4/5, 2 wounds left: injured, Hit 4+) with
    BLU-1's knife (2/3): one normal hit each side for B (3,1,1), two for LEG-1 (4,4,1,1,1).
    B strikes first and incapacitates LEG-1; A then uses Unending Bloodshed if offered and
    ``ploys_in_window``."""
    ops = {**ENGAGED, "LEG-1": {"at": (7.44, 14), "ready": False, "wounds": 2}}
    s = gambit([], ops, initiative="B", types=CHAINSWORD, mark=mark)
    script = ["Activate BLU-1 engage", "Fight BLU-1 knife at LEG-1", "Decline", "Decline"]
    s, _ = play(s, script, ["3,1,1", "4,4,1,1,1"])
    while isinstance(s.node, Decision) and s.node.kind == "retention_rule":
        s, _ = s.apply("Decline")  # KHORNE's Severe
    s, ev = s.apply("Strike normal")
    if ploys_in_window and ploys_offered(s):
        s, more = s.apply("Ploy unending bloodshed")
        ev = [*ev, *more]
    return s, ev


def test_unending_bloodshed_khorne_strikes_before_it_is_removed() -> None:
    s, _ = khorne_falls(False)
    assert ploys_offered(s) == ["Ploy unending bloodshed"]  # LEG-1 is still on the killzone
    s, ev = khorne_falls(True)
    assert [e["die"] for e in ev if e.kind == "strike"] == ["normal", "normal"]
    assert not s.operative("LEG-1").placed
    assert s.operative("BLU-1").wounds == 6  # one normal strike of the chainsword: 4
    assert s.players[0].cp == 4  # 3 + 2 for TP2 (no initiative) - 1


def test_unending_bloodshed_only_for_khorne() -> None:
    s, _ = khorne_falls(True, mark="")
    assert s.operative("BLU-1").wounds == 10


ICON = ["Legionary Icon Bearer [Boltgun; Fists]"]


def tainting(blu_1_at: tuple[float, float], types: Sequence[str] = ICON) -> GameState:
    """LEG-1 (``types``) on LAB's objective through TP1's end; BLU-1 (a Captain, APL 3) at
    ``blu_1_at``. TP2's Ready step (A takes initiative: +1CP) then its Gambit step."""
    ops = {
        "LEG-1": {"at": (19.2, 14.5), "ready": False},
        "BLU-1": {"at": blu_1_at, "ready": False},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    return gambit([], ops, types=types, blu=("Captain", "Trooper"))


def test_favoured_of_the_dark_gods_taints_a_controlled_objective_for_1cp() -> None:
    s = tainting((5, 14))
    assert s.players[0].cp == 5  # 3 + 1 for TP2 + 1
    assert [(e.kind, e.detail) for e in s.effects if e.kind == "tainted"] == [("tainted", "obj")]
    # A Warrior on it taints nothing.
    assert tainting((5, 14), ["Legionary Warrior [Boltgun; Fists]"]).players[0].cp == 4


def test_favoured_of_the_dark_gods_needs_control() -> None:
    # The Captain contests too: 4 (Icon Bearer's 3 + 1) against 3, A still controls; two
    # BLU operatives (3 + 2) take control away.
    assert tainting((20.8, 14.5)).players[0].cp == 5
    ops = {
        "LEG-1": {"at": (19.2, 14.5), "ready": False},
        "BLU-1": {"at": (20.8, 14.5), "ready": False},
        "BLU-2": {"at": (20, 15.9), "ready": False},
    }
    s = gambit([], ops, types=ICON, blu=("Captain", "Trooper"))
    assert s.players[0].cp == 4
    assert not [e for e in s.effects if e.kind == "tainted"]


def _two_objectives_ready(with_taint: str = "") -> GameState:
    """LEG-1 (Icon Bearer) between two objective markers of a LAB variant ("east" at
    (20.2, 14.5), "west" at (18.2, 14.5)), controlling both; TP1 spent; stops at TP2's Ready
    step (A took initiative) with ``with_taint`` tainted beforehand."""
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data

    kz = Killzone.from_dict(lab_data([("east", (20.2, 14.5)), ("west", (18.2, 14.5))]), "lab")
    ops = {
        "LEG-1": {"at": (19.2, 14.5), "ready": False},
        "BLU-1": {"at": (5, 14), "ready": False},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    team = Roster.from_entries(lab_team("legionaries"), list(ICON))
    s = position(kz, team, roster(BLU, ("Captain", "Trooper")), operatives=ops, cp=(3, 3))
    a = attrs.evolve(s.players[0], uses=(("infernal_pact", 1),))
    none = tuple(
        Effect("mark_of_chaos", o.id, "end_battle") for o in s.operatives if o.player == "A"
    )
    tainted = (Effect("tainted", "", "end_battle", source="BLU-1", detail=with_taint, player="B"),)
    s = attrs.evolve(
        s,
        players=(a, s.players[1]),
        effects=(*s.effects, *none, *(tainted if with_taint else ())),
    )
    s = pass_windows(s)
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    return s


def test_favoured_of_the_dark_gods_the_player_chooses_among_untainted_markers() -> None:
    # LEG-1 controls both markers: A chooses which one is tainted (one per Ready step, not
    # optional), gaining 1CP; the other stays untainted.
    s = _two_objectives_ready()
    assert s.node.kind == "team_rule" and s.node.player == "A"  # type: ignore[union-attr]
    assert [str(a) for a in s.legal_actions()] == [
        "Use favoured of the dark gods east",
        "Use favoured of the dark gods west",
    ]
    cp = s.players[0].cp
    s, ev = s.apply("Use favoured of the dark gods west")
    assert [e["on"] for e in ev if e.kind == "team_rule_used"] == ["west"]
    assert [e.detail for e in s.effects if e.kind == "tainted"] == ["west"]
    assert s.players[0].cp == cp + 1
    assert s.node.kind == "gambit"  # type: ignore[union-attr]
    # A marker tainted by any operative (here B's) is never tainted again: no choice, the
    # other one is tainted at once.
    s = _two_objectives_ready(with_taint="east")
    assert s.node.kind == "gambit"  # type: ignore[union-attr]
    assert sorted(e.detail for e in s.effects if e.kind == "tainted") == ["east", "west"]


def shot_at_slaanesh(ploys: Sequence[str], blu_x: float, move: bool = True) -> int:
    """LEG-1 (SLAANESH) repositions 1" (or not), then B's Gunner BLU-1 at (``blu_x``, 14)
    shoots it with its silent gun (3+), rolling 3,3,3,1. The normal successes it retains."""
    ops = {**FACING, "BLU-1": {"at": (blu_x, 14), "ready": False}}
    s = gambit(ploys, ops, mark="SLAANESH")
    s, _ = s.apply("Activate LEG-1 engage")
    s = pass_windows(s)
    if move:
        s, _ = s.apply("Reposition LEG-1 to 4,14")
    s, _ = play(s, ["End activation"])
    s = pass_windows(s)
    shot = ["Activate BLU-1 engage", "Shoot BLU-1 silent gun at LEG-1", "Decline"]
    s, ev = play(s, shot, ["3,3,3,1"])
    return next(e["normals"] for e in ev if e.kind == "attack_retained")


def test_quicksilver_speed_slaanesh_shot_from_more_than_6_inches() -> None:
    assert shot_at_slaanesh(["Quicksilver Speed"], 16) == 0  # Hit 4+
    assert shot_at_slaanesh([], 16) == 3
    assert shot_at_slaanesh(["Quicksilver Speed"], 9) == 3  # within 6"
    assert shot_at_slaanesh(["Quicksilver Speed"], 16, move=False) == 3


def injured_shot(ploys: Sequence[str], mark: str) -> int:
    """LEG-1 (``mark``, 5 of 14 wounds: injured, boltgun 3+ -> 4+) shoots BLU-1 rolling
    3,3,1,1. The normal successes it retains."""
    ops = {**FACING, "LEG-1": {**FACING["LEG-1"], "wounds": 5}}
    s = gambit(ploys, ops, mark=mark)
    s, _ = s.apply("Activate LEG-1 engage")
    s, _ = pass_windows(s).apply(BOLTGUN)
    s, ev = play(pass_windows(s), ["Decline"], ["3,3,1,1"])  # Malignant Aura passed
    return next(e["normals"] for e in ev if e.kind == "attack_retained")


def test_implacable_nurgle_ignores_the_injury_stat_changes() -> None:
    assert injured_shot(["Implacable"], "NURGLE") == 2
    assert injured_shot([], "NURGLE") == 0
    assert injured_shot(["Implacable"], "KHORNE") == 0
    # Move: 6" instead of 4".
    assert reposition("NURGLE", "10.9,14", wounds=5, ploys=["Implacable"]) == ""
    assert 'within 4"' in reposition("NURGLE", "10.9,14", wounds=5)


def shot_out(s: GameState, shot: str) -> GameState:
    """Perform ``shot`` with every die a miss, passing windows, until the next action."""
    s, _ = play(pass_windows(s), [shot], ["1,1,1,1"])
    while not (isinstance(s.node, Decision) and s.node.kind == "action"):
        if isinstance(s.node, Chance):
            s, _ = play(s, [], [",".join("1" * s.node.request.dice)])  # type: ignore[union-attr]
        else:
            s, _ = s.apply("Pass" if s.node.kind == "ploy" else "Decline")  # type: ignore[union-attr]
    return s


def shoots(s: GameState) -> list[str]:
    return [a for a in attack_texts(s) if a.startswith("Shoot")]


def astartes_start(types: Sequence[str]) -> GameState:
    """LEG-1 (``types``) activated 7" from BLU-1 in the open lane, no CP."""
    ops = {"LEG-1": {"at": (5, 14)}, "BLU-1": {"at": (12, 14)}, "BLU-2": {"at": (25, 20)}}
    s = lab(types, ops, cp=(0, 0), turn="A")
    s, _ = s.apply("Activate LEG-1 engage")
    return pass_windows(s)


def test_astartes_two_shoot_actions_in_an_activation() -> None:
    s = shot_out(astartes_start(WARRIORS), BOLTGUN)
    assert BOLTGUN in shoots(s)  # a second Shoot
    s = shot_out(s, BOLTGUN)
    assert shoots(s) == []  # not a third


def test_astartes_second_shot_needs_a_bolt_pistol_boltgun_or_tainted_bolt_pistol() -> None:
    # The Heavy Gunner's heavy bolter is not one of them: after it, only the bolt pistol.
    heavy = ["Legionary Heavy Gunner [Bolt Pistol; Heavy Bolter; Fists]"]
    s = shot_out(astartes_start(heavy), "Shoot LEG-1 heavy bolter (sweeping) at BLU-1")
    assert {a.split(" at ")[0] for a in shoots(s)} == {"Shoot LEG-1 bolt pistol"}


def test_astartes_not_twice_under_mutability_and_change() -> None:
    # The firefight ploy's token forbids performing the same action twice.
    s = lab(
        WARRIORS,
        {"LEG-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}},
        turn="A",
        mark="TZEENTCH",
    )
    s, _ = s.apply("Activate LEG-1 engage")
    s, _ = s.apply("Ploy mutability and change")
    s = shot_out(s, BOLTGUN)
    assert shoots(s) == []


def test_astartes_counteract_regardless_of_order() -> None:
    ops = {
        "LEG-1": {"at": (5, 14), "ready": False, "order": "conceal"},
        "BLU-1": {"at": (16, 14)},
        "BLU-2": {"at": (25, 20)},
    }
    s = lab(WARRIORS[:1], ops, cp=(0, 0), turn="B")
    s, _ = s.apply("Activate BLU-1 conceal")
    s, _ = pass_windows(s).apply("End activation")
    s = pass_windows(s)
    assert s.node == Decision("A", "counteract")
    assert "Counteract LEG-1" in [str(a) for a in s.legal_actions()]


def shot_by_silent_gun(mark: str, vigour: Sequence[str]) -> tuple[GameState, list[Any]]:
    """BLU-1 (Gunner) shoots LEG-1 (``mark``) with its silent gun (3/4): three normal
    successes (3,3,3,1), no save (1,1,1); ``vigour`` scripts the Disgusting Vigour D6."""
    s = gambit([], initiative="B", mark=mark)
    shot = ["Activate BLU-1 engage", "Shoot BLU-1 silent gun at LEG-1", "Decline", "Decline"]
    return play(s, shot, ["3,3,3,1", "1,1,1", *vigour])


def test_nurgle_disgusting_vigour_one_less_damage_on_a_5_plus_when_shot() -> None:
    s, ev = shot_by_silent_gun("NURGLE", ["5", "2", "6"])
    rolls = [e for e in ev if e.kind == "dice_rolled" and "Disgusting Vigour" in e["label"]]
    assert len(rolls) == 3  # one D6 per normal success
    assert [e["damage"] for e in ev if e.kind == "damage_inflicted"] == [7]  # 2 + 3 + 2
    assert s.operative("LEG-1").wounds == 7
    assert not [e for e in s.effects if e.kind == "disgusting_vigour"]
    s, ev = shot_by_silent_gun("KHORNE", [])
    assert [e["damage"] for e in ev if e.kind == "damage_inflicted"] == [9]


def nurgle_fights(blu: str, vigour: Sequence[str]) -> GameState:
    """NURGLE LEG-1 fights BLU-1 (a Brawler retaliating with its brutal blade, 3/4, or a
    Trooper with its knife, 2/3), missing; BLU-1 retains two normal successes and strikes
    twice; ``vigour`` scripts the Disgusting Vigour D6."""
    s = gambit([], ENGAGED, types=CHAINSWORD, mark="NURGLE", blu=(blu, "Trooper"))
    fight = ["Activate LEG-1 engage", "Fight LEG-1 chainsword at BLU-1"]
    if blu == "Brawler":
        fight.append("Retaliate BLU-1 with brutal blade")
    dice = "3,3,1,1" if blu == "Brawler" else "3,3,1"
    s, _ = play(s, [*fight, "Decline", "Decline"], ["1,1,1,1,1", dice])
    s, _ = play(s, ["Strike normal", "Strike normal"], vigour)
    return s


def test_nurgle_disgusting_vigour_each_strike_in_a_fight() -> None:
    # Brutal blade 3/4: strikes of 3 and 2 (the first die a 5).
    assert nurgle_fights("Brawler", ["5", "4"]).operative("LEG-1").wounds == 9
    assert nurgle_fights("Brawler", ["4", "1"]).operative("LEG-1").wounds == 8
    # Knife 2/3: Normal Dmg below 3, no D6 rolled.
    assert nurgle_fights("Trooper", []).operative("LEG-1").wounds == 10


def falls_back(use: bool, roll: str = "", types: Sequence[str] = CHOSEN) -> GameState:
    """B (initiative) activates BLU-1 (2AP) in the control range of LEG-1 and falls back;
    A uses Daemonic Aura (rolling ``roll``) or declines."""
    s = gambit([], ENGAGED, initiative="B", types=types)
    s, _ = play(pass_windows(s), ["Activate BLU-1 engage"])
    s, _ = play(pass_windows(s), ["Fall Back BLU-1 to 13,14"])
    if isinstance(s.node, Decision) and s.node.kind == "team_rule":
        s, _ = play(s, ["Use daemonic aura" if use else "Decline"], [roll] if use else [])
    return s


def test_daemonic_aura_stops_a_fall_back_on_a_3_plus() -> None:
    s = falls_back(True, "3")
    blu = s.operative("BLU-1")
    assert (blu.x, blu.y, blu.ap, blu.done, blu.moved) == (9, 14, 2, (), False)  # refunded
    assert not [a for a in s.legal_actions() if a.verb == "Fall Back"]  # not this activation
    assert "Fight BLU-1 knife at LEG-1" in [str(a) for a in s.legal_actions()]


def test_daemonic_aura_fails_on_a_2_or_declined() -> None:
    for s in (falls_back(True, "2"), falls_back(False)):
        blu = s.operative("BLU-1")
        assert (blu.x, blu.y, blu.ap) == (13, 14, 0)


def test_daemonic_aura_only_the_chosen() -> None:
    s = falls_back(True, "6", types=CHAINSWORD)  # a Warrior: no decision
    assert s.operative("BLU-1").x == 13
    assert s.node == Decision("A", "activate")  # BLU-1 is out of AP: A's turn


GRISLY_OPS = {
    "LEG-1": {"at": (17, 14.5)},
    "LEG-2": {"at": (19.2, 14.5)},
    "BLU-1": {"at": (20.8, 14.5)},
    "BLU-2": {"at": (20, 15.9)},
}
SHRIVETALON_AND_WARRIOR = [*SHRIVETALON, WARRIORS[0]]


def grisly(place: bool = True, ops: Mapping[str, Mapping[str, Any]] = GRISLY_OPS) -> GameState:
    """A's Shrivetalon LEG-1 (activated) places its Grisly marker where it stands (or not)."""
    s = lab(SHRIVETALON_AND_WARRIOR, ops, cp=(0, 0), turn="A")
    s, _ = s.apply("Activate LEG-1 engage")
    s = pass_windows(s)
    if place:
        s, _ = play(s, ["Act LEG-1 grisly mark at 17,14.5"])
    return s


def test_grisly_mark_places_the_marker_for_2ap() -> None:
    s = grisly(place=False)
    assert "Act LEG-1 grisly mark at 17,14.5" in [str(a) for a in s.legal_actions()]
    s = grisly()
    assert s.operative("LEG-1").ap == 1
    assert [(t.kind, t.owner, t.x, t.y) for t in s.tokens] == [("grisly", "A", 17, 14.5)]
    # Not within control range of an enemy operative.
    s = grisly(place=False, ops={**GRISLY_OPS, "LEG-1": {"at": (21.9, 13.4)}})
    with pytest.raises(IllegalActionError, match="control range"):
        s.apply("Act LEG-1 grisly mark at 21.9,13.4")
    # Only within the operative's control range.
    with pytest.raises(IllegalActionError, match="control range"):
        grisly(place=False).apply("Act LEG-1 grisly mark at 14,14.5")


def test_grisly_mark_enemies_near_it_count_one_less_apl_for_control() -> None:
    # B contests with 2 + 2 APL, A with the Warrior's 3: B controls; with the marker 2" from
    # both enemies, B's total is 3 and nobody does.
    assert universal.controller(Work(grisly(place=False)), "obj") == "B"
    assert universal.controller(Work(grisly()), "obj") == ""


def test_grisly_mark_enemies_near_it_pay_1ap_more_to_pick_up() -> None:
    w = Work(grisly())
    blu = w.op("BLU-1")
    assert universal.action_cost(w, blu, "Pick up", 1, "activation") == 2
    assert universal.action_cost(w, blu, "Reposition", 1, "activation") == 1
    w = Work(grisly(place=False))
    assert universal.action_cost(w, w.op("BLU-1"), "Pick up", 1, "activation") == 1


def test_grisly_mark_mission_actions_are_told_apart() -> None:
    from engine.game.rule_actions import is_mission_action
    from engine.missions.crit_ops.data import COMPILE_DATA
    from engine.rules.equipment.markers import AMMO_RESUPPLY
    from teams.legionaries.actions import GRISLY_MARK

    assert is_mission_action(COMPILE_DATA) and is_mission_action(AMMO_RESUPPLY)
    assert not is_mission_action(GRISLY_MARK)


ANOINTED = ["Legionary Anointed"]


def unleashed_anointed(ops: Mapping[str, Mapping[str, Any]] = FACING) -> GameState:
    """A activates the Anointed LEG-1 and uses Unleash Daemon."""
    s = gambit([], ops, types=ANOINTED)
    s, _ = s.apply("Activate LEG-1 engage")
    assert "Use unleash daemon" in ploys_offered(s)
    s, _ = s.apply("Use unleash daemon")
    return pass_windows(s)


def test_unleash_daemon_once_per_battle_when_activated() -> None:
    from teams.legionaries.abilities import UNLEASH_DAEMON

    s = unleashed_anointed()
    assert [e.until for e in s.effects if e.detail == "unleash_daemon"] == ["end_battle"]
    assert UNLEASH_DAEMON.options(Work(s), "A", {"op": "LEG-1"}) == []
    assert s.players[0].cp == 4  # free
    # Not for another operative.
    s = gambit([], FACING)
    s, _ = s.apply("Activate LEG-1 engage")
    assert "Use unleash daemon" not in ploys_offered(s)


def test_unleash_daemon_dmg_of_4_or_more_inflicts_1_less() -> None:
    # The silent gun (3/4) hits with a normal and a critical success: 3 + 3, not 3 + 4.
    s, _ = play(unleashed_anointed(), ["End activation"])
    shot = ["Activate BLU-1 engage", "Shoot BLU-1 silent gun at LEG-1", "Decline", "Decline"]
    s, ev = play(pass_windows(s), shot, ["6,3,1,1", "1,1,1"])
    assert [e["damage"] for e in ev if e.kind == "damage_inflicted"] == [6]


def test_unleash_daemon_claw_has_ceaseless_and_lethal_5_plus() -> None:
    s = unleashed_anointed(ENGAGED)
    s, ev = play(s, ["Fight LEG-1 daemonic claw at BLU-1"], ["5,5,1,1,1", "1,1,1"])
    assert "Re-roll 1,1,1" in [str(a) for a in s.legal_actions()]  # Ceaseless
    s, ev = play(s, ["Decline", "Decline"])
    assert next((e["normals"], e["crits"]) for e in ev if e.kind == "attack_retained") == (0, 2)


def test_unleash_daemon_no_pick_up_or_mission_actions() -> None:
    w = Work(unleashed_anointed())
    why = universal.precheck(w, w.op("LEG-1"), "Pick up", "activation")
    assert why is not None and "unleashed" in why


def test_mark_of_chaos_chosen_with_the_roster_undivided_by_default() -> None:
    from teams.legionaries import mark_of

    team = lab_team("legionaries")
    ops = {"LEG-1": {"at": (5, 14)}, "LEG-2": {"at": (5, 10)}, "BLU-1": {"at": (16, 14)}}
    chosen = Roster.from_entries(team, WARRIORS).with_choices(
        None, [{"Mark of Chaos": ["Nurgle"]}, {}]
    )
    s = position(LAB, chosen, roster(BLU, ("Gunner",)), operatives=ops)
    assert [mark_of(Work(s), op) for op in ("LEG-1", "LEG-2")] == ["NURGLE", "UNDIVIDED"]
    # A mark keyword on the datacard (an imported team's) is read first.
    khorne = attrs.evolve(
        team,
        operatives=tuple(
            attrs.evolve(o, keywords=(*o.keywords, "KHORNE")) for o in team.operatives
        ),
    )
    s = position(
        LAB, Roster.from_entries(khorne, WARRIORS), roster(BLU, ("Gunner",)), operatives=ops
    )
    assert mark_of(Work(s), "LEG-2") == "KHORNE"
    # The roster checks the option names.
    bad = Roster.from_entries(team, WARRIORS).with_choices(None, [{"Mark of Chaos": ["Pink"]}, {}])
    assert any("Mark of Chaos" in p for p in bad.validate())
    # A Balefire Acolyte cannot take Khorne; the chosen mark is a keyword for the battle.
    acolyte = Roster.from_entries(team, ["Legionary Balefire Acolyte"])
    assert any(
        "Khorne" in p
        for p in acolyte.with_choices(None, [{"Mark of Chaos": ["Khorne"]}]).validate()
    )
    assert not acolyte.with_choices(None, [{"Mark of Chaos": ["Nurgle"]}]).validate()
    s = position(LAB, chosen, roster(BLU, ("Gunner",)), operatives=ops)
    assert "NURGLE" in s.ctx.datacards["LEG-1"].keywords


def test_infernal_pact_changes_a_warriors_mark_once_per_battle() -> None:
    from teams.legionaries import mark_of
    from teams.legionaries.abilities import INFERNAL_PACT

    s = gambit([], FACING, mark="TZEENTCH", pact=True)
    s, _ = s.apply("Activate LEG-1 engage")
    offered = ploys_offered(s)
    assert "Use infernal pact khorne" in offered and "Use infernal pact tzeentch" not in offered
    s, _ = s.apply("Use infernal pact khorne")
    assert mark_of(Work(s), "LEG-1") == "KHORNE"
    assert s.players[0].cp == 4  # free
    assert INFERNAL_PACT.options(Work(s), "A", {"op": "LEG-1"}) == []  # once per battle
    assert "Ploy mutability and change" not in ploys_offered(s)  # no longer TZEENTCH


def test_infernal_pact_not_after_mutability_and_change_nor_for_others() -> None:
    s = gambit([], FACING, mark="TZEENTCH", pact=True)
    s, _ = s.apply("Activate LEG-1 engage")
    s, _ = s.apply("Ploy mutability and change")
    assert not [a for a in ploys_offered(s) if "infernal pact" in a]
    s = gambit([], ENGAGED, types=CHOSEN, mark="TZEENTCH", pact=True)
    s, _ = s.apply("Activate LEG-1 engage")
    assert not [a for a in ploys_offered(s) if "infernal pact" in a]


def equipped(*names: str) -> dict[str, tuple[str, ...]]:
    return {"A": names}


def test_warded_armour_save_2_plus_until_the_next_strategy_phase() -> None:
    from teams.legionaries.equipment import WARDED_ARMOUR_GAMBIT

    s = gambit(["Use warded armour on LEG-1"], equipment=equipped("Warded Armour"))
    w = Work(s)
    assert w.stat_change("LEG-1", "save") == -1
    assert [e.until for e in s.effects if e.kind == "save"] == ["end_tp"]
    assert WARDED_ARMOUR_GAMBIT.options(w, "A", {}) == []  # once per Strategy phase
    assert s.players[0].cp == 4  # free
    # Not without the equipment.
    s = pass_windows(lab(WARRIORS, FACING))
    assert WARDED_ARMOUR_GAMBIT.options(Work(s), "A", {}) == []


def test_malefic_blades_every_legionary_has_the_blade() -> None:
    s = gambit([], ENGAGED, equipment=equipped("Malefic Blades"))
    s, _ = s.apply("Activate LEG-1 engage")
    assert "Fight LEG-1 malefic blade at BLU-1" in [str(a) for a in s.legal_actions()]
    s = gambit([], ENGAGED)
    s, _ = s.apply("Activate LEG-1 engage")
    assert "Fight LEG-1 malefic blade at BLU-1" not in [str(a) for a in s.legal_actions()]


def tainted_shot(equipment: Sequence[str]) -> tuple[GameState, list[Any]]:
    """LEG-1 (boltgun) shoots BLU-1, using Tainted Rounds when offered: 6,3,1,1."""
    s = gambit([], FACING, equipment=equipped(*equipment), cp=(0, 0))
    s, _ = play(s, ["Activate LEG-1 engage", BOLTGUN])
    if "Use tainted rounds" in ploys_offered(s):
        s, _ = s.apply("Use tainted rounds")
    return play(pass_windows(s), ["Decline"], ["6,3,1,1"])  # no Command Re-roll


def test_tainted_rounds_rending_for_one_shoot_once_per_turning_point() -> None:
    s, _ = tainted_shot(["Tainted Rounds"])
    s, ev = s.apply("Apply Rending")
    retained = [(e["normals"], e["crits"]) for e in ev if e.kind == "attack_retained"]
    assert retained == [(0, 2)]
    s, ev = tainted_shot([])
    assert [(e["normals"], e["crits"]) for e in ev if e.kind == "attack_retained"] == [(1, 1)]
    s, ev = tainted_shot(["Tainted Rounds"])
    s, _ = s.apply("Apply Rending")
    s, _ = play(s, ["Decline"], ["1,1,1"])  # defence, no Command Re-roll
    assert not [e for e in s.effects if e.detail == "tainted_rounds"]  # until the action ends
    s = shot_out(s, BOLTGUN)  # the second Shoot (Astartes) is not offered it
    assert s.players[0].uses == (("infernal_pact", 1), ("tainted_rounds:2", 1))


def talisman_shot(mark: str, selected: str = "undivided", dice: str = "3,2,1,1") -> GameState:
    """A selected Chaos Talismans (``selected``); LEG-1 (``mark``) shoots BLU-1 rolling
    ``dice`` and stops in its attack dice window."""
    use = [f"Use chaos talismans {selected}"] if selected else []
    s = gambit(use, mark=mark, equipment=equipped("Chaos Talismans"), cp=(0, 0))
    s, _ = play(s, ["Activate LEG-1 engage", BOLTGUN])
    s, _ = play(pass_windows(s), [], [dice])  # Malignant Aura (NURGLE) passed
    return s


def test_chaos_talismans_two_fails_become_one_normal_success_for_d3_damage() -> None:
    s = talisman_shot("UNDIVIDED")
    assert "Use chaos talismans" in [str(a) for a in s.legal_actions()]
    s, _ = play(s, ["Use chaos talismans"], ["5"])  # D3: 3
    assert s.operative("LEG-1").wounds == 11
    assert "Use chaos talismans" not in [str(a) for a in s.legal_actions()]  # once
    s, ev = s.apply("Decline")
    assert next((e["normals"], e["crits"]) for e in ev if e.kind == "attack_retained") == (2, 0)
    assert s.players[0].cp == 1  # free


def test_chaos_talismans_only_the_selected_mark_and_two_fails() -> None:
    assert "Use chaos talismans" not in [str(a) for a in talisman_shot("NURGLE").legal_actions()]
    assert "Use chaos talismans" not in [
        str(a) for a in talisman_shot("UNDIVIDED", "").legal_actions()
    ]
    s = talisman_shot("UNDIVIDED", dice="3,3,2,4")  # one fail
    assert "Use chaos talismans" not in [str(a) for a in s.legal_actions()]


def test_chaos_talismans_gambit_once_per_strategy_phase() -> None:
    from teams.legionaries.equipment import CHAOS_TALISMANS_GAMBIT

    s = gambit(["Use chaos talismans khorne"], equipment=equipped("Chaos Talismans"))
    assert CHAOS_TALISMANS_GAMBIT.options(Work(s), "A", {}) == []
    s = pass_windows(lab(WARRIORS, FACING))
    assert CHAOS_TALISMANS_GAMBIT.options(Work(s), "A", {}) == []  # not selected


# -- Advice: the heuristic agent uses the team's ploys and rule options sensibly ------------


def at_gambit(
    ops: Mapping[str, Mapping[str, Any]], types: Sequence[str] = WARRIORS, **kw: Any
) -> GameState:
    """TP2's Gambit step, A to decide first (as :func:`gambit`, before any gambit; every
    operative expended in TP1)."""
    spent = {op: {**spec, "ready": False} for op, spec in ops.items()}
    s = pass_windows(lab(types, spent, **kw))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    assert s.node == Decision("A", "gambit")
    return s


def test_advice_blood_for_the_blood_god_when_khorne_legionaries_are_near_enemies() -> None:
    from engine.agents.heuristic import HeuristicAgent

    near = {"LEG-1": {"at": (7.44, 14)}, "BLU-1": {"at": (9, 14)}, "BLU-2": {"at": (25, 20)}}
    s = at_gambit(near, mark="KHORNE", cp=(2, 0))
    assert str(HeuristicAgent().act(s)) == "Ploy blood for the blood god"
    # Far from every enemy, no ploy is worth its CP but Fickle Fates (Balanced shots).
    far = {"LEG-1": {"at": (3, 14)}, "BLU-1": {"at": (27, 14)}, "BLU-2": {"at": (25, 20)}}
    s = at_gambit(far, mark="KHORNE", cp=(2, 0))
    assert str(HeuristicAgent().act(s)) in ("Pass", "Ploy fickle fates")


def test_advice_warded_armour_and_chaos_talismans_are_used_in_the_gambit_step() -> None:
    from engine.agents.heuristic import HeuristicAgent

    ops = {"LEG-1": {"at": (7.44, 14)}, "LEG-2": {"at": (3, 4)}, "BLU-1": {"at": (9, 14)}}
    kit = equipped("Warded Armour", "Chaos Talismans")
    s = at_gambit(ops, cp=(0, 0), equipment=kit, mark="NURGLE")
    choice = str(HeuristicAgent().act(s))
    assert choice == "Use warded armour on LEG-1"  # the one near the enemy
    s, _ = s.apply(choice)
    s, _ = s.apply("Pass")  # B
    assert str(HeuristicAgent().act(s)) == "Use chaos talismans nurgle"


def test_advice_unleash_daemon_used_away_from_markers_infernal_pact_not() -> None:
    from engine.agents.heuristic import HeuristicAgent

    s = gambit([], FACING, types=ANOINTED)
    s, _ = s.apply("Activate LEG-1 engage")
    assert str(HeuristicAgent().act(s)) == "Use unleash daemon"
    s = gambit([], FACING, pact=True)
    s, _ = s.apply("Activate LEG-1 engage")
    assert str(HeuristicAgent().act(s)) == "Pass"


def test_advice_malignant_aura_values_piercing_with_the_dice_core() -> None:
    from engine.rules.ploys import Ploy
    from teams.legionaries.ploys import MALIGNANT_AURA_PLOY

    aura = MALIGNANT_AURA_PLOY
    assert isinstance(aura, Ploy) and aura.advice is not None

    def value(blu_at: tuple[float, float]) -> float:
        ops = {"LEG-1": {"at": (5, 14)}, "BLU-1": {"at": blu_at}}
        s = lab(WARRIORS, ops, cp=(0, 0), turn="A", mark="NURGLE")
        s, _ = play(s, ["Activate LEG-1 engage", BOLTGUN])
        info = {"op": "LEG-1", "target": "BLU-1", "weapon": "boltgun", "kind": "ranged"}
        return aura.advice(Work(s), "A", Action("Ploy", text="malignant aura"), info)

    assert value((8, 14)) > 0.02  # within 3": one defence die fewer
    assert value((12, 14)) == 0.0


def test_advice_grisly_mark_near_a_contested_objective() -> None:
    from teams.legionaries.actions import GRISLY_MARK

    s = grisly(place=False)  # LEG-1 3" from the objective, enemies on it
    w = Work(s)
    act = Action("Act", op="LEG-1", text="grisly mark", point=(17, 14.5, 0))
    assert GRISLY_MARK.advice(w, w.op("LEG-1"), act, "activation") == 0.1
    far = Action("Act", op="LEG-1", text="grisly mark", point=(3, 4, 0))
    assert GRISLY_MARK.advice(w, w.op("LEG-1"), far, "activation") == 0.0
    w = Work(grisly())  # already covered by its marker
    assert GRISLY_MARK.advice(w, w.op("LEG-1"), act, "activation") == 0.0


def test_unleash_daemon_places_a_carried_marker_at_once() -> None:
    ops = {**FACING, "LEG-1": {"at": (20, 14.5), "ready": False, "carrying": "obj"}}
    s = unleashed_anointed(ops)
    assert s.operative("LEG-1").carrying == ()
    m = next(m for m in s.markers if m.name == "obj")
    assert (m.carrier, m.x, m.y) == ("", 20, 14.5)
    assert s.operative("LEG-1").ap == 3  # for 0AP


def test_chaos_talismans_incapacitated_shooter_goes_on_with_its_successes() -> None:
    # LEG-1 (2 wounds left: injured, boltgun Hit 4+) rolls 4,4,2,1 (two fails), uses the
    # talismans and suffers D3 = 2 (a 4): incapacitated. The rule's note: the Shoot does not
    # end; its three normal successes (4,4 and the retained fail) are resolved against
    # BLU-1 (1,1,1: no save): 3 x 3 damage of its 10 wounds.
    ops = {**FACING, "LEG-1": {**FACING["LEG-1"], "wounds": 2}}
    use = ["Use chaos talismans undivided"]
    s = gambit(use, ops, mark="UNDIVIDED", equipment=equipped("Chaos Talismans"), cp=(0, 0))
    s, _ = play(s, ["Activate LEG-1 engage", BOLTGUN])
    s, _ = play(pass_windows(s), [], ["4,4,2,1"])
    s, ev = play(s, ["Use chaos talismans"], ["4"])
    assert s.operative("LEG-1").incapacitated
    s, ev = play(pass_windows(s), ["Decline", "Decline"], ["1,1,1"])  # no re-rolls
    assert next((e["normals"], e["crits"]) for e in ev if e.kind == "attack_retained") == (3, 0)
    assert s.operative("BLU-1").wounds == 1
    assert not s.operative("LEG-1").placed  # removed once the action is over


def test_chaos_talismans_the_retained_fail_is_not_re_rolled_after() -> None:
    # 5,2,1,1 (Hit 3+): a 1 is discarded, the other 1 retained as a normal success (a 3).
    # Retained, it cannot be re-rolled by a Command Re-roll after: only the 5 and the 2 can.
    s = talisman_shot("UNDIVIDED", dice="5,2,1,1")
    s, _ = play(s, ["Use chaos talismans"], ["1"])  # D3: 1
    rerolls = [a.values for a in s.legal_actions() if a.verb == "Command re-roll"]
    assert rerolls == [(2,), (5,)]


def test_daemonic_aura_each_chosen_asked_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two Chosen (not a legal roster: the team's limits lifted, a test device) both within
    # BLU-1's control range as it falls back: each Chosen's rule is its own. LEG-1's player
    # declines (or fails on a 2), then LEG-2's is asked, and its 3 stops the Fall Back.
    original = lab_team

    def unlimited(team_id: str) -> Any:
        team = original(team_id)
        return attrs.evolve(team, selection=attrs.evolve(team.selection, limits=()))

    monkeypatch.setattr(sys.modules[__name__], "lab_team", unlimited)
    ops = {**ENGAGED, "LEG-2": {"at": (9, 15.56), "ready": False}}
    for first, rolls in ((["Decline"], ["3"]), (["Use daemonic aura"], ["2", "3"])):
        s = gambit([], ops, initiative="B", types=CHOSEN * 2)
        s, _ = play(pass_windows(s), ["Activate BLU-1 engage"])
        s, _ = play(pass_windows(s), ["Fall Back BLU-1 to 13,14"])
        assert s.node == Decision("A", "team_rule")
        s, _ = play(s, first, rolls[:-1])
        assert s.node == Decision("A", "team_rule")  # LEG-2's turn
        s, ev = play(s, ["Use daemonic aura"], rolls[-1:])
        assert [e["op"] for e in ev if e.kind == "team_rule_used"] == ["LEG-2"]
        blu = s.operative("BLU-1")
        assert (blu.x, blu.y, blu.ap) == (9, 14, 2)  # stopped, AP refunded
        assert s.node != Decision("A", "team_rule")


def test_siphon_life_once_per_turning_point_whatever_the_weapon() -> None:
    # "You cannot use this weapon rule more than once per Turning Point": the Acolyte LEG-1
    # uses Siphon Life with its Life Syphon, charges BLU-1 and fights with its Fell Dagger
    # (which also has the rule): no second Siphon Life decision this turning point.
    ops = {
        "LEG-1": {"at": (5, 14)},
        "LEG-2": {"at": (5, 17), "wounds": 5},
        "BLU-1": {"at": (12, 14)},
        "BLU-2": {"at": (25, 20)},
    }
    s = lab(["Legionary Balefire Acolyte", "Legionary Butcher"], ops, cp=(0, 0), turn="A")
    s, _ = play(
        pass_windows(s),
        ["Activate LEG-1 engage", "Shoot LEG-1 life syphon at BLU-1", "Use siphon life"],
        ["3,1,1,1,1", "1,1,1"],
    )
    assert s.operative("LEG-2").wounds == 6  # one normal success: 1 wound regained
    s, _ = play(s, ["Charge LEG-1 to 10.5,14", "Fight LEG-1 fell dagger at BLU-1"])
    assert not (isinstance(s.node, Decision) and s.node.kind == "team_rule")


def test_unleash_daemon_reads_the_weapons_dmg_stat_not_the_damage_added() -> None:
    # "Normal and Critical Dmg of 4 or more inflicts 1 less": the weapon's Dmg stats decide.
    # In a fight of the unleashed LEG-1 against BLU-1 (knife 2/3), a strike of BLU-1 that
    # rules had raised to 4 damage (e.g. For Cadia!'s first strike, Blood For The Blood
    # God's) is not reduced: the knife's Normal Dmg is 2, its Critical Dmg 3.
    s = unleashed_anointed(ENGAGED)
    s, _ = play(s, ["Fight LEG-1 daemonic claw at BLU-1", "Decline"], ["5,5,1,1,1", "3,3,1"])
    assert isinstance(s.node, Decision)  # the fight's resolve step: its frame is in progress
    w = Work(s)
    assert w.would("would_strike_damage", 4, op="BLU-1", target="LEG-1", crit=False) == 4
    assert w.would("would_strike_damage", 4, op="BLU-1", target="LEG-1", crit=True) == 4
    # A Khorne LEGIONARY's melee Dmg under Blood For The Blood God is its stat + 1: the
    # helper every "Dmg of x or more" rule of the team reads.
    from teams.legionaries.common import dmg_stats

    assert dmg_stats(w, "BLU-1") == (2, 3)
    assert dmg_stats(w, "LEG-1") == (4, 5)  # the daemonic claw


def test_blood_for_the_blood_god_khorne_dmg_stats_one_higher() -> None:
    # A KHORNE LEG-1 fighting with its chainsword (4/5) under the ploy: Dmg stats 5/6 for
    # the rules that read them (Unleash Daemon, Disgusting Vigour); without it 4/5.
    from teams.legionaries.common import dmg_stats

    for ploys, stats in (([BLOOD], (5, 6)), ([], (4, 5))):
        s = gambit(ploys, ENGAGED, types=CHAINSWORD, mark="KHORNE")
        script = ["Activate LEG-1 engage", "Fight LEG-1 chainsword at BLU-1", "Decline"]
        s, _ = play(s, script, ["3,3,1,1,1", "1,1,1"])
        assert dmg_stats(Work(s), "LEG-1") == stats
