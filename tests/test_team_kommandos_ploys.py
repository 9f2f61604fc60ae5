"""The Kommandos' ploys and team equipment (``teams/kommandos/ploys.py``,
``teams/kommandos/equipment.py``), one test (or more) per rule, in LAB positions
(``tests/test_game_rules_common``): the built-in Kommandos (player A, ``KOM-n``) against the
BLU test team (player B, ``BLU-n``: Troopers with Gun 4/3+/3/4, Knife 3/3+/2/3, Save 4+,
10 wounds).

A Kommando Boy: APL 2, Save 5+, 10 wounds, Slugga 4/4+/3/4 Range 8", Choppa 4/3+/4/5.
Strategy ploys are reached through a real Gambit step: every operative starts expended in
TP1, so the turning point ends at once and TP2 begins (roll-off scripted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

import teams.kommandos  # noqa: F401  (registers the rules)
from engine.dice.rules import Balanced, Punishing, Range
from engine.game import Chance, Decision, GameState, IllegalActionError
from engine.game.attacks import attack_profile
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rulesets import position
from engine.teams.model import Roster
from teams.kommandos.ploys import SSSSHHHH_PLOY
from tests.test_game_rules_common import BLU, LAB, attack_texts, play, roster
from tests.test_team_weapon_rules import lab_team

Ops = dict[str, dict[str, Any]]
BOY = "Kommando Boy"
GROT = "Kommando Grot"
COMMS = "Kommando Comms Boy"
DAKKA_BOY = "Kommando Dakka Boy"


def lab(
    types: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: the built-in Kommandos (roster entries ``types``) against BLU."""
    kom = Roster.from_entries(lab_team("kommandos"), list(types))
    return position(LAB, kom, roster(BLU, tuple(blu)), operatives=ops, **kw)


def texts(s: GameState) -> list[str]:
    """The listed actions in the notation, each Shoot header (``Shoot KAS-1``) replaced by
    the complete shots its decision lists (:func:`tests.test_game_rules_common.attack_texts`)."""
    return attack_texts(s)


def ploys_used(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["player"], e["ploy"]) for e in events if e.kind == "ploy_used"]


WINDOWS = ("ploy", "dice_ploy", "reroll")


def op_of(s: GameState, op: str) -> Any:
    return next(o for o in s.operatives if o.id == op)


def drive(
    s: GameState, dice: Sequence[str], use: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    """Go on through ploy and re-roll windows and chance nodes (``dice`` in order): in a
    window, the first of ``use`` that is legal there is taken (each once), else Pass or
    Decline. Stops at another decision, or a chance node once ``dice`` is spent."""
    todo, rolls, events = list(use), list(dice), []
    while True:
        node = s.node
        if isinstance(node, Chance):
            if not rolls:
                break
            s, ev = play(s, [], [rolls.pop(0)])
        elif isinstance(node, Decision) and node.kind in WINDOWS:
            legal = texts(s)
            pick = next((u for u in todo if u in legal), None)
            if pick is not None:
                todo.remove(pick)
                s, ev = s.apply(pick)
            else:
                s, ev = s.apply("Pass" if "Pass" in legal else "Decline")
        else:
            break
        events += ev
    assert not rolls, rolls
    return s, events


def pass_windows(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    return s


def gambit(
    ploys: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]],
    types: Sequence[str] = (BOY,),
    initiative: str = "A",
    **kw: Any,
) -> GameState:
    """TP2 from a spent TP1: A uses ``ploys`` in the Gambit step (by name), B passes; returns
    the state once the Firefight phase began (its first windows passed)."""
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    kw.setdefault("cp", (3, 3))
    s = pass_windows(lab(types, spent, **kw))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply(f"Initiative {initiative}")
    todo = list(ploys)
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        if s.node.player == "A" and todo:
            s, _ = s.apply(f"Ploy {todo.pop(0).lower()}")
        else:
            s, _ = s.apply("Pass")
    assert not todo
    return pass_windows(s)


def rules_of(s: GameState, op: str, weapon: str, kind: str, target: str = "BLU-1") -> Any:
    """The weapon rules ``op`` attacks ``target`` with (after every rule's hooks)."""
    return attack_profile(Work(s), op_of(s, op), weapon, kind, target=target).rules


# -------------------------------------------------------------------------------------------
# DAKKA! DAKKA! DAKKA! and WAAAGH!
# -------------------------------------------------------------------------------------------

# KOM-1 and BLU-1 5" apart (edge to edge 3.7") in the open lane.
FACING: Ops = {"KOM-1": {"at": (5, 14.5)}, "BLU-1": {"at": (10, 14.5)}}


def test_dakka_dakka_dakka_gives_kommando_ranged_weapons_punishing() -> None:
    # The ploy: the slugga has Punishing, the choppa has not; BLU's gun never.
    s = gambit(["DAKKA! DAKKA! DAKKA!"], FACING)
    assert s.players[0].cp_spent == 1  # 1CP paid
    assert rules_of(s, "KOM-1", "slugga", "ranged").has(Punishing)
    assert not rules_of(s, "KOM-1", "choppa", "melee").has(Punishing)
    assert not rules_of(s, "BLU-1", "gun", "ranged", target="KOM-1").has(Punishing)
    # Without the ploy nothing changes.
    s = gambit([], FACING)
    assert not rules_of(s, "KOM-1", "slugga", "ranged").has(Punishing)


def test_dakka_dakka_dakka_punishing_in_a_shoot() -> None:
    # Attack dice 6,3,2,1 with the 4+ slugga: one crit retained, so Punishing may retain a
    # fail as a normal success (the attacker's choice, offered).
    s = gambit(["DAKKA! DAKKA! DAKKA!"], FACING)
    s, _ = play(s, ["Activate KOM-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot KOM-1 slugga at BLU-1"], ["6,3,2,1"])
    s = pass_windows(s)
    while isinstance(s.node, Decision) and s.node.kind == "dice_ploy":
        s, _ = s.apply("Decline")
    assert isinstance(s.node, Decision) and s.node.kind == "retention_rule"
    assert "Apply Punishing" in texts(s)


def test_dakka_dakka_dakka_lasts_until_the_end_of_the_turning_point() -> None:
    s = gambit(["DAKKA! DAKKA! DAKKA!"], FACING)
    w = Work(s)
    assert any(e.until == "end_tp" and e.detail.endswith("dakka_dakka_dakka") for e in w.effects)


def test_waaagh_gives_kommando_melee_weapons_balanced() -> None:
    s = gambit(["WAAAGH!"], FACING)
    assert rules_of(s, "KOM-1", "choppa", "melee").has(Balanced)
    assert not rules_of(s, "KOM-1", "slugga", "ranged").has(Balanced)
    assert not rules_of(s, "BLU-1", "knife", "melee", target="KOM-1").has(Balanced)
    s = gambit([], FACING)
    assert not rules_of(s, "KOM-1", "choppa", "melee").has(Balanced)


def test_waaagh_and_dakka_each_once_per_turning_point() -> None:
    # A strategy ploy once per turning point (7.1): not offered again in the same Gambit.
    spent = {k: {**v, "ready": False} for k, v in FACING.items()}
    s = pass_windows(lab([BOY], spent, cp=(3, 3)))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    s, _ = s.apply("Ploy waaagh!")
    s, _ = s.apply("Pass")  # B
    assert "Ploy waaagh!" not in texts(s)
    with pytest.raises(IllegalActionError):
        s.apply("Ploy waaagh!")


# -------------------------------------------------------------------------------------------
# Skulk About
# -------------------------------------------------------------------------------------------


def defence_dice(ploys: Sequence[str], order: str, types: Sequence[str] = (BOY,)) -> int:
    """B shoots KOM-1 (``order``, in the open lane 11" from BLU-1) with its gun, hitting
    6,5,4,1; the number of defence dice A rolls."""
    ops: Ops = {"KOM-1": {"at": (16, 14.5), "order": order}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit(ploys, ops, types=types, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot BLU-1 gun at KOM-1"], ["6,5,4,1"])
    while isinstance(s.node, Decision) and s.node.kind in ("ploy", "dice_ploy"):
        s, _ = s.apply("Pass" if s.node.kind == "ploy" else "Decline")
    node = s.node
    assert isinstance(node, Chance) and node.request.kind == "defence"
    return int(node.request.dice)


def test_skulk_about_retains_one_defence_die_unrolled_when_concealed() -> None:
    # Conceal order, in the open (a valid target): one of the 3 defence dice is a normal
    # save without rolling, so 2 are rolled.
    assert defence_dice(["Skulk About"], "conceal") == 2
    assert defence_dice([], "conceal") == 3


def test_skulk_about_not_with_an_engage_order() -> None:
    assert defence_dice(["Skulk About"], "engage") == 3


def test_skulk_about_the_retained_die_is_a_normal_save() -> None:
    # Hits 6,5,4,1 (one crit, two normals; Gun 3/4); defence 1,1: only the unrolled normal
    # save blocks, a normal hit: 4 + 3 = 7 damage instead of 10.
    ops: Ops = {"KOM-1": {"at": (16, 14.5), "order": "conceal"}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit(["Skulk About"], ops, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, ev = play(s, ["Shoot BLU-1 gun at KOM-1"], ["6,5,4,1"])
    s, more = drive(s, ["1,1"])
    ev += more
    damage = [e["damage"] for e in ev if e.kind == "damage_inflicted" and e["op"] == "KOM-1"]
    assert damage == [7]


# -------------------------------------------------------------------------------------------
# SSSSHHHH!
# -------------------------------------------------------------------------------------------


def test_sssshhhh_concealed_kommando_far_from_enemies_dashes() -> None:
    # KOM-1 concealed 11" from BLU-1: it makes a free Dash (3") at once.
    ops: Ops = {"KOM-1": {"at": (5, 14.5), "order": "conceal"}, "BLU-1": {"at": (16, 14.5)}}
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = pass_windows(lab([BOY], spent, cp=(3, 3)))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    s, ev = s.apply("Ploy sssshhhh!")
    assert ploys_used(ev) == [("A", "SSSSHHHH!")]
    assert any(e.kind == "free_action_granted" and e["op"] == "KOM-1" for e in ev)
    dashes = [t for t in texts(s) if t.startswith("Dash KOM-1")]
    assert dashes
    s, _ = s.apply("Dash KOM-1 to 5,12")
    assert op_of(s, "KOM-1").y == 12


def test_sssshhhh_not_for_a_visible_engaged_kommando_nor_in_the_first_turning_point() -> None:
    # KOM-1 with an Engage order in the open 11" from BLU-1: a valid target, not concealed.
    ops: Ops = {"KOM-1": {"at": (5, 14.5), "order": "engage"}, "BLU-1": {"at": (16, 14.5)}}
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = pass_windows(lab([BOY], spent, cp=(3, 3)))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    assert "Ploy sssshhhh!" not in texts(s)
    # Concealed but within 6" of BLU-1 and visible: still not.
    near: Ops = {"KOM-1": {"at": (5, 14.5), "order": "conceal"}, "BLU-1": {"at": (9, 14.5)}}
    s = lab([BOY], near, cp=(3, 3), tp=1)
    assert not SSSSHHHH_PLOY.options(Work(s), "A", {})
    # The first turning point: never (an eligible operative notwithstanding).
    far: Ops = {"KOM-1": {"at": (5, 14.5), "order": "conceal"}, "BLU-1": {"at": (16, 14.5)}}
    s = lab([BOY], far, cp=(3, 3), tp=1)
    assert not SSSSHHHH_PLOY.options(Work(s), "A", {})
    s = lab([BOY], far, cp=(3, 3), tp=2)
    assert SSSSHHHH_PLOY.options(Work(s), "A", {})


def test_sssshhhh_an_unseen_engaged_kommando_dashes_too() -> None:
    # KOM-1 (Engage) behind the 5" wall from BLU-1: not a valid target for it.
    ops: Ops = {"KOM-1": {"at": (5, 19)}, "BLU-1": {"at": (16, 19)}}
    s = lab([BOY], ops, cp=(3, 3), tp=2)
    assert SSSSHHHH_PLOY.options(Work(s), "A", {})


# -------------------------------------------------------------------------------------------
# Just A Scratch
# -------------------------------------------------------------------------------------------


def shot_at(types: Sequence[str], attack: str, defence: str, use: bool) -> tuple[GameState, int]:
    """B's BLU-1 shoots KOM-1 (Engage, open lane); A may use Just A Scratch in the defence
    dice window (``use``). The state and the damage KOM-1 took."""
    ops: Ops = {"KOM-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit([], ops, types=types, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, ev = play(s, ["Shoot BLU-1 gun at KOM-1"], [attack])
    s, more = drive(s, [defence], ["Ploy just a scratch"] if use else [])
    ev += more
    damage = sum(e["damage"] for e in ev if e.kind == "damage_inflicted" and e["op"] == "KOM-1")
    return s, damage


def test_just_a_scratch_ignores_one_normal_hits_damage_in_a_shoot() -> None:
    # Hits 5,4,1,1: two normals (3 each); saves 1,1,1: 6 damage, 3 with the ploy.
    s, dmg = shot_at([BOY], "5,4,1,1", "1,1,1", use=True)
    assert dmg == 3
    assert s.players[0].cp_spent == 1  # 1CP
    _, dmg = shot_at([BOY], "5,4,1,1", "1,1,1", use=False)
    assert dmg == 6


def test_just_a_scratch_not_for_a_crit_nor_when_every_normal_is_blocked() -> None:
    # One crit alone (6,1,1,1): no normal damage, the ploy is not offered.
    s, dmg = shot_at([BOY], "6,1,1,1", "1,1,1", use=True)
    assert dmg == 4 and s.players[0].cp_spent == 0
    # One normal blocked by a 5 (Save 5+): not offered.
    s, dmg = shot_at([BOY], "5,1,1,1", "5,1,1", use=True)
    assert dmg == 0 and s.players[0].cp_spent == 0


def test_just_a_scratch_not_for_the_grot() -> None:
    s, dmg = shot_at([GROT], "5,1,1,1", "1,1,1", use=True)
    assert s.players[0].cp_spent == 0 and dmg == 3


# KOM-1 in BLU-1's control range (edges 0.74" apart) in the open lane.
ENGAGED: Ops = {"KOM-1": {"at": (5, 14.5)}, "BLU-1": {"at": (6.5, 14.5)}}


def test_just_a_scratch_in_a_fight_ignores_one_normal_strike() -> None:
    # BLU-1 fights KOM-1: knife 5,4,1 (two normals of 2), KOM-1's choppa 1,1,1,1. BLU-1
    # strikes with a normal: A may use the ploy in that strike's window; that strike inflicts
    # nothing, the second 2 (KOM-1 left with 8 of 10 wounds). Once per turning point: not
    # offered at the second strike.
    s = gambit([], ENGAGED, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Fight BLU-1 knife at KOM-1"], ["5,4,1", "1,1,1,1"])
    s, _ = drive(s, [])
    assert "Ploy just a scratch" not in texts(s)  # not before the strike
    s, _ = s.apply("Strike normal")
    assert isinstance(s.node, Decision) and s.node.kind == "ploy"
    s, ev = drive(s, [], ["Ploy just a scratch"])
    assert ploys_used(ev) == [("A", "Just A Scratch")]
    s, more = s.apply("Strike normal")
    ev += more
    assert not (isinstance(s.node, Decision) and "Ploy just a scratch" in texts(s))
    s, more = drive(s, [])
    ev += more
    damage = [e["damage"] for e in ev if e.kind == "damage_inflicted" and e["op"] == "KOM-1"]
    assert damage == [2] and op_of(s, "KOM-1").wounds == 8
    assert [e["rule"] for e in ev if e.kind == "team_rule_used"] == ["Just A Scratch"]


def test_just_a_scratch_not_against_a_critical_strike() -> None:
    # BLU-1's knife 6,1,1 (one crit): its crit strike is no normal damage, no window.
    s = gambit([], ENGAGED, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Fight BLU-1 knife at KOM-1"], ["6,1,1", "1,1,1,1"])
    s, _ = drive(s, [])
    s, _ = s.apply("Strike crit")
    assert not (isinstance(s.node, Decision) and s.node.kind == "ploy")
    assert op_of(s, "KOM-1").wounds == 7


# -------------------------------------------------------------------------------------------
# Kunnin' But Brutal
# -------------------------------------------------------------------------------------------

# KOM-1 4" from BLU-1 in the open lane: a Charge ends in its control range at 7.44,14.5.
CHARGE: Ops = {"KOM-1": {"at": (5, 14.5)}, "BLU-1": {"at": (9, 14.5)}}


def conceal(s: GameState, op: str) -> GameState:
    """``op``'s order is Conceal (as after a Charge made concealed, Throat Slittas)."""
    ops = tuple(attrs.evolve(o, order="conceal") if o.id == op else o for o in s.operatives)
    return attrs.evolve(s, operatives=ops)


def kunnin(charge: bool, concealed: bool, first: str = "Strike normal") -> tuple[bool, list[int]]:
    """KOM-1 (charging first when ``charge``) fights BLU-1 with its choppa: 5,4,1,1 (two
    normals) against 1,1,1; it resolves ``first`` then strikes with a normal success; A uses
    Kunnin' But Brutal whenever offered. Whether it was offered, and the damage of KOM-1's
    strikes."""
    ops: Ops = CHARGE if charge else {**CHARGE, "KOM-1": {"at": (7.44, 14.5)}}
    s = gambit([], ops, initiative="A")
    s, _ = play(s, ["Activate KOM-1 engage"])
    s = pass_windows(s)
    if charge:
        s, _ = play(s, ["Charge KOM-1 to 7.44,14.5"])
        s = pass_windows(s)
    if concealed:
        s = conceal(s, "KOM-1")
    s, _ = play(s, ["Fight KOM-1 choppa at BLU-1"], ["5,4,1,1", "1,1,1"])
    s, _ = drive(s, [])
    offered = False
    ev: list[Event] = []
    for step in (first, "Strike normal"):
        s, more = s.apply(step)
        ev += more
        if isinstance(s.node, Decision) and "Ploy kunnin' but brutal" in texts(s):
            offered = True
        s, more = drive(s, [], ["Ploy kunnin' but brutal"])
        ev += more
    return offered, [e["damage"] for e in ev if e.kind == "damage_inflicted" and e["by"] == "KOM-1"]


def test_kunnin_but_brutal_first_normal_strike_is_critical() -> None:
    # Choppa 4/5: the first normal strike inflicts the critical 5, the second a normal 4
    # (once per turning point, and only the first resolution).
    assert kunnin(charge=True, concealed=True) == (True, [5, 4])


def test_kunnin_but_brutal_needs_conceal_and_a_charge() -> None:
    assert kunnin(charge=True, concealed=False) == (False, [4, 4])
    assert kunnin(charge=False, concealed=True) == (False, [4, 4])


def test_kunnin_but_brutal_only_on_the_first_resolution() -> None:
    # The first resolution is a block (of nothing): the strike after it is not the first
    # attack die resolved, so the ploy is not offered and the strike stays normal.
    assert kunnin(charge=True, concealed=True, first="Block nothing with normal") == (False, [4])


def test_kunnin_but_brutal_first_die_of_the_kommando_when_the_defender_resolves_first() -> None:
    # A rule makes the defender resolve first (would_resolve_first, as Point-Blank
    # Fusillade): BLU-1 strikes first (its 5); the Kommando's first die is still the first
    # attack die it resolves, so its normal strike may be critical (choppa 5).
    s = gambit([], CHARGE, initiative="A")
    s = s.with_hooks(lambda h: h.transform("would_resolve_first", lambda w, side, **i: "d"))
    s, _ = play(s, ["Activate KOM-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Charge KOM-1 to 7.44,14.5"])
    s = conceal(pass_windows(s), "KOM-1")
    s, _ = play(s, ["Fight KOM-1 choppa at BLU-1"], ["5,4,1,1", "5,1,1"])
    s, _ = drive(s, [])
    assert s.node == Decision("B", "resolve")
    s, _ = drive(*s.apply("Strike normal")[:1], [])
    s, ev = s.apply("Strike normal")
    assert "Ploy kunnin' but brutal" in texts(s)
    s, more = drive(s, [], ["Ploy kunnin' but brutal"])
    assert ploys_used(more) == [("A", "Kunnin' But Brutal")]
    assert [
        e["damage"] for e in ev + more if e.kind == "damage_inflicted" and e["by"] == "KOM-1"
    ] == [5]


# -------------------------------------------------------------------------------------------
# Krump 'Em
# -------------------------------------------------------------------------------------------


def test_krump_em_free_fight_at_the_end_of_the_firefight_phase() -> None:
    # Every operative expended: the Firefight phase ends at once and A may use Krump 'Em on
    # KOM-1 (in BLU-1's control range); it then fights.
    spent = {k: {**v, "ready": False} for k, v in ENGAGED.items()}
    s = lab([BOY], spent, cp=(2, 2))
    assert isinstance(s.node, Decision) and s.node.kind == "ploy"
    assert "Ploy krump 'em on KOM-1" in texts(s)
    s, ev = s.apply("Ploy krump 'em on KOM-1")
    assert ploys_used(ev) == [("A", "Krump 'Em")]
    assert "Fight KOM-1 choppa at BLU-1" in texts(s)


def test_krump_em_not_for_a_kommando_without_an_enemy_to_fight() -> None:
    far: Ops = {
        "KOM-1": {"at": (5, 14.5), "ready": False},
        "BLU-1": {"at": (16, 14.5), "ready": False},
    }
    s = lab([BOY], far, cp=(2, 2))
    assert not (isinstance(s.node, Decision) and "Ploy krump 'em on KOM-1" in texts(s))
    # Nor without the CP.
    spent = {k: {**v, "ready": False} for k, v in ENGAGED.items()}
    s = lab([BOY], spent, cp=(0, 0))
    assert not (isinstance(s.node, Decision) and "Ploy krump 'em on KOM-1" in texts(s))


# -------------------------------------------------------------------------------------------
# Shake It Off
# -------------------------------------------------------------------------------------------


def test_shake_it_off_ignores_an_apl_decrease_and_gives_the_ap_back() -> None:
    # KOM-1 has APL -1 (as after a stun): activated with 1AP; Shake It Off, then its player
    # chooses to ignore that change: APL 2 and 2AP.
    s = lab([BOY], FACING, cp=(2, 2))
    s = attrs.evolve(s, effects=(Effect("apl", "KOM-1", "end_tp", source="BLU-1", value=-1),))
    s, _ = s.apply("Activate KOM-1 engage")
    assert op_of(s, "KOM-1").ap == 1
    assert "Ploy shake it off on KOM-1" in texts(s)
    s, ev = s.apply("Ploy shake it off on KOM-1")
    assert ploys_used(ev) == [("A", "Shake It Off")]
    assert s.node == Decision("A", "team_rule")
    assert texts(s) == ["Decline", "Use shake it off"]
    s, _ = s.apply("Use shake it off")
    assert op_of(s, "KOM-1").ap == 2
    assert Work(s).apl(op_of(s, "KOM-1")) == 2


def test_shake_it_off_the_player_may_keep_a_change() -> None:
    # Declined: the decrease stands (APL 1, 1AP). An APL increase the operative has is
    # offered too: kept (``Use keep apl increase``: APL 3, 3AP) or ignored (``Decline``:
    # APL 2, 2AP) as its player chooses.
    s = lab([BOY], FACING, cp=(2, 2))
    s = attrs.evolve(s, effects=(Effect("apl", "KOM-1", "end_tp", source="BLU-1", value=-1),))
    s, _ = s.apply("Activate KOM-1 engage")
    s, _ = s.apply("Ploy shake it off on KOM-1")
    s, _ = s.apply("Decline")
    assert op_of(s, "KOM-1").ap == 1 and Work(s).apl(op_of(s, "KOM-1")) == 1
    for choice, apl in (("Use keep apl increase", 3), ("Decline", 2)):
        s = lab([BOY], FACING, cp=(2, 2))
        s = attrs.evolve(s, effects=(Effect("apl", "KOM-1", "end_tp", source="KOM-2", value=1),))
        s, _ = s.apply("Activate KOM-1 engage")
        assert op_of(s, "KOM-1").ap == 3
        s, _ = s.apply("Ploy shake it off on KOM-1")
        assert texts(s) == ["Decline", "Use keep apl increase"]
        s, _ = s.apply(choice)
        assert op_of(s, "KOM-1").ap == apl and Work(s).apl(op_of(s, "KOM-1")) == apl, choice


def test_shake_it_off_lasts_the_turning_point_and_asks_for_later_changes() -> None:
    # Used as KOM-1 is activated (no change yet: nothing to ask). Later BLU-1 stuns it (APL
    # -1 until the end of its next activation): as BLU-1's Shoot ends, A chooses to ignore
    # that decrease; KOM-1's APL stays 2. The token lasts until the end of the turning point
    # (the start of the next). Not for BLU's operatives (their APL changes stand).
    ops: Ops = {"KOM-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit([], ops, initiative="A", blu=("Gunner",))
    s, _ = s.apply("Activate KOM-1 engage")
    s, _ = s.apply("Ploy shake it off on KOM-1")
    assert s.node == Decision("A", "action")
    s, _ = play(s, ["End activation"])
    s = pass_windows(s)
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot BLU-1 stun gun at KOM-1"], ["6,1,1,1"])
    s, _ = drive(s, ["1,1,1"])
    assert s.node == Decision("A", "team_rule") and "Use shake it off" in texts(s)
    s, _ = s.apply("Use shake it off")
    w = Work(s)
    assert w.apl(w.op("KOM-1")) == 2
    assert any(e.detail == "kommandos_shake_it_off" and e.until == "end_tp" for e in w.effects)
    w.effects.append(Effect("apl", "BLU-1", "end_tp", source="KOM-1", value=-1))
    assert w.apl(w.op("BLU-1")) == 1


# -------------------------------------------------------------------------------------------
# Equipment
# -------------------------------------------------------------------------------------------


def weapons(s: GameState, op: str, kind: str) -> list[str]:
    from engine.game import universal

    return [n for n, _, _ in universal.weapons_of(Work(s), op, kind)]


def test_choppas_for_kommandos_but_not_the_grot_and_the_better_one_kept() -> None:
    # KOM-1 a Boy (its own choppa 4/3+/4/5), KOM-2 a Comms Boy (fists only), KOM-3 the Grot.
    ops: Ops = {"KOM-1": {"at": (2, 2)}, "KOM-2": {"at": (2, 6)}, "KOM-3": {"at": (2, 10)}}
    s = lab([BOY, COMMS, GROT], ops, equipment={"A": ["Choppas"]})
    assert weapons(s, "KOM-2", "melee") == ["fists", "choppa"]
    assert weapons(s, "KOM-3", "melee") == ["grot choppa"]
    w = Work(s)
    assert attack_profile(w, op_of(s, "KOM-1"), "choppa", "melee").attacks == 4  # its own
    assert attack_profile(w, op_of(s, "KOM-2"), "choppa", "melee").attacks == 3
    s = lab([BOY, COMMS, GROT], ops)
    assert weapons(s, "KOM-2", "melee") == ["fists"]


# KOM-1 13" from BLU-1 in the open lane: beyond the slugga's Range 8".
FAR: Ops = {"KOM-1": {"at": (3, 14.5)}, "BLU-1": {"at": (16, 14.5)}}


def test_collapsible_stocks_slugga_and_shokka_lose_range() -> None:
    s = lab([BOY], FAR, equipment={"A": ["Collapsible Stocks"]})
    s, _ = s.apply("Activate KOM-1 engage")
    s = pass_windows(s)
    assert "Shoot KOM-1 slugga at BLU-1" in texts(s)
    assert not rules_of(s, "KOM-1", "slugga", "ranged").has(Range)
    s = lab([BOY], FAR)
    s, _ = s.apply("Activate KOM-1 engage")
    s = pass_windows(s)
    assert "Shoot KOM-1 slugga at BLU-1" not in texts(s)
    with pytest.raises(IllegalActionError):
        s.apply("Shoot KOM-1 slugga at BLU-1")
    comms: Ops = {"KOM-1": {"at": (3, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = lab([COMMS], comms, equipment={"A": ["Collapsible Stocks"]})
    s, _ = s.apply("Activate KOM-1 engage")
    s = pass_windows(s)
    assert "Shoot KOM-1 shokka at BLU-1" in texts(s)


def test_collapsible_stocks_the_heuristic_agent_reads_the_changed_range() -> None:
    # The agents' shot values (engine.advice.shots) read the rules as the Shoot does:
    # with the stocks the slugga reaches any distance, without them 8" (plus tolerance).
    import math

    from engine.advice.shots import ranged_weapons

    for equipment, reach in (({"A": ["Collapsible Stocks"]}, math.inf), ({}, 8.0)):
        s = lab([BOY], FAR, equipment=equipment)
        w = Work(s)
        got = {n: r for n, _, r in ranged_weapons(w, w.op("KOM-1"), True)}
        assert got["slugga"] == pytest.approx(reach, abs=1e-5), equipment


def test_collapsible_stocks_not_other_weapons() -> None:
    # The Dakka Boy's dakka shoota keeps its Range 9".
    s = lab([DAKKA_BOY], FAR, equipment={"A": ["Collapsible Stocks"]})
    s, _ = s.apply("Activate KOM-1 engage")
    s = pass_windows(s)
    assert "Shoot KOM-1 dakka shoota (short range) at BLU-1" not in texts(s)


# KOM-1 and KOM-2 3" from BLU-1 (edges 1.74"): within the dynamite's Range 4".
CLOSE: Ops = {"KOM-1": {"at": (5, 14.5)}, "KOM-2": {"at": (5, 12.5)}, "BLU-1": {"at": (8, 14.5)}}


def test_dynamite_once_per_battle() -> None:
    s = lab([BOY, BOY], CLOSE, equipment={"A": ["Dynamite"]})
    s, _ = s.apply("Activate KOM-1 engage")
    s = pass_windows(s)
    assert "Shoot KOM-1 dynamite at BLU-1" in texts(s)
    s, _ = play(s, ["Shoot KOM-1 dynamite at BLU-1"], ["1,1,1,1,1"])
    s, _ = drive(s, ["1,1,1"])
    w = Work(s)
    assert w.count("A", "kommandos dynamite used") == 1
    from engine.game import universal

    _, _, prof = universal.find_weapon(w, w.op("KOM-2"), "dynamite", "ranged")
    assert universal.weapon_usable(w, w.op("KOM-2"), "dynamite", prof) is not None
    # Without the equipment no operative has it.
    s = lab([BOY, BOY], CLOSE)
    assert "dynamite" not in weapons(s, "KOM-1", "ranged")


def test_dynamite_and_harpoon_not_for_the_grot() -> None:
    ops: Ops = {"KOM-1": {"at": (5, 14.5)}, "BLU-1": {"at": (8, 14.5)}}
    s = lab([GROT], ops, equipment={"A": ["Dynamite", "Harpoon"]})
    assert weapons(s, "KOM-1", "ranged") == []


def test_harpoon_once_per_turning_point() -> None:
    s = lab([BOY, BOY], CLOSE, equipment={"A": ["Harpoon"]})
    s, _ = s.apply("Activate KOM-1 engage")
    s = pass_windows(s)
    s, _ = play(s, ["Shoot KOM-1 harpoon at BLU-1"], ["1,1,1,1"])
    s, _ = drive(s, ["1,1,1"])
    from engine.game import universal

    w = Work(s)
    _, _, prof = universal.find_weapon(w, w.op("KOM-2"), "harpoon", "ranged")
    assert universal.weapon_usable(w, w.op("KOM-2"), "harpoon", prof) is not None
    # The next turning point it may be used again.
    w.tp += 1
    assert universal.weapon_usable(w, w.op("KOM-2"), "harpoon", prof) is None


# -------------------------------------------------------------------------------------------
# The same rules in longer sequences
# -------------------------------------------------------------------------------------------


def test_skulk_about_with_piercing_still_one_unrolled_save() -> None:
    # BLU-1 (a Gunner) shoots the concealed KOM-1 with its Pierce Gun (Piercing 1): 2
    # defence dice, one of them retained unrolled, so 1 is rolled.
    ops: Ops = {"KOM-1": {"at": (16, 14.5), "order": "conceal"}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit(["Skulk About"], ops, initiative="B", blu=("Gunner",))
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot BLU-1 pierce gun at KOM-1"], ["6,5,4,1"])
    s, _ = drive(s, [])
    node = s.node
    assert isinstance(node, Chance) and node.request.kind == "defence"
    assert node.request.dice == 1


def test_shake_it_off_after_a_stun_gun() -> None:
    # BLU-1 (a Gunner) stuns KOM-1 with its Stun Gun (a crit retained): APL -1 until the end
    # of KOM-1's next activation. A passes the window as BLU-1's Shoot ends; KOM-1 activates
    # with 1AP; Shake It Off (the stun ignored) gives 2AP.
    ops: Ops = {"KOM-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit([], ops, initiative="B", blu=("Gunner",))
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot BLU-1 stun gun at KOM-1"], ["6,1,1,1"])
    s, _ = drive(s, ["1,1,1"])
    assert Work(s).apl(op_of(s, "KOM-1")) == 1
    s, _ = s.apply("End activation")  # BLU-1's last AP unspent
    s = pass_windows(s)
    s, _ = s.apply("Activate KOM-1 engage")
    assert op_of(s, "KOM-1").ap == 1
    s, ev = s.apply("Ploy shake it off on KOM-1")
    assert ploys_used(ev) == [("A", "Shake It Off")]
    s, _ = s.apply("Use shake it off")
    assert op_of(s, "KOM-1").ap == 2


def test_shake_it_off_when_its_apl_is_changed() -> None:
    # BLU-1 stuns KOM-1: as that Shoot ends (the change applies, 2.1: the ``stat_changed``
    # window, before BLU-1's activation goes on) A may use Shake It Off on KOM-1 and ignore
    # the change: KOM-1's APL is 2 again at once, and it activates with 2AP.
    ops: Ops = {"KOM-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit([], ops, initiative="B", blu=("Gunner",))
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot BLU-1 stun gun at KOM-1"], ["6,1,1,1"])
    s, ev = drive(s, ["1,1,1"], ["Ploy shake it off on KOM-1"])
    assert ploys_used(ev) == [("A", "Shake It Off")]
    s, _ = s.apply("Use shake it off")
    assert Work(s).apl(op_of(s, "KOM-1")) == 2
    s = pass_windows(s)
    assert s.node == Decision("B", "action")  # BLU-1's activation goes on
    s, _ = s.apply("End activation")
    s = pass_windows(s)
    s, _ = s.apply("Activate KOM-1 engage")
    assert op_of(s, "KOM-1").ap == 2


def test_shake_it_off_not_at_the_end_of_an_activation_without_a_change() -> None:
    # The window is the change's: BLU-1's activation with no APL change offers nothing.
    ops: Ops = {"KOM-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}
    s = gambit([], ops, initiative="B", blu=("Gunner",))
    s, _ = play(s, ["Activate BLU-1 engage"])
    s = pass_windows(s)
    s, _ = s.apply("End activation")
    assert not (isinstance(s.node, Decision) and "Ploy shake it off on KOM-1" in texts(s))


def test_kunnin_but_brutal_critical_strike_also_shocks() -> None:
    # The Boss Nob's Power Klaw (4/3+/5/7, Brutal, Shock): its first normal strike is a
    # critical one, 7 damage, and Shock discards one of BLU-1's two normal successes.
    nob = ["Kommando Boss Nob [Slugga; Power Klaw]"]
    s = gambit([], CHARGE, types=nob)
    s, _ = play(s, ["Activate KOM-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Charge KOM-1 to 7.44,14.5"])
    s = conceal(pass_windows(s), "KOM-1")
    s, _ = play(s, ["Fight KOM-1 power klaw at BLU-1"], ["5,4,1,1", "5,4,1"])
    s, _ = drive(s, [])
    s, _ = s.apply("Strike normal")
    s, ev = drive(s, [], ["Ploy kunnin' but brutal"])
    assert ploys_used(ev) == [("A", "Kunnin' But Brutal")]
    assert [e["damage"] for e in ev if e.kind == "damage_inflicted"] == [7]
    assert s.stack[-1].dn == 1  # one of BLU-1's two normals discarded by Shock


def test_kunnin_but_brutal_after_a_concealed_charge_with_throat_slittas() -> None:
    # Throat Slittas lets the concealed KOM-1 Charge; it then fights with its Conceal order
    # and Kunnin' But Brutal makes its first normal strike critical (choppa 5).
    s = gambit([], CHARGE)
    s, _ = play(s, ["Activate KOM-1 conceal"])
    s = pass_windows(s)
    s, _ = play(s, ["Charge KOM-1 to 7.44,14.5"])
    s = pass_windows(s)
    assert op_of(s, "KOM-1").order == "conceal"
    s, _ = play(s, ["Fight KOM-1 choppa at BLU-1"], ["5,4,1,1", "1,1,1"])
    s, _ = drive(s, [])
    s, _ = s.apply("Strike normal")
    s, ev = drive(s, [], ["Ploy kunnin' but brutal"])
    assert ploys_used(ev) == [("A", "Kunnin' But Brutal")]
    s, more = play(s, ["Strike normal"])
    assert [e["damage"] for e in ev + more if e.kind == "damage_inflicted"] == [5, 4]


def test_sssshhhh_counts_the_grots_sneaky_zogger() -> None:
    # The Grot (Engage) in cover behind the rubble from BLU-1: Sneaky Zogger makes it no
    # valid target, so it may dash; a Boy there with an Engage order is a valid target.
    ops: Ops = {"KOM-1": {"at": (16, 4)}, "BLU-1": {"at": (5, 4)}}
    s = lab([GROT], ops, tp=2)
    assert SSSSHHHH_PLOY.options(Work(s), "A", {})
    s = lab([BOY], ops, tp=2)
    assert not SSSSHHHH_PLOY.options(Work(s), "A", {})


def test_skulk_about_not_against_a_friendly_shooter() -> None:
    # The Bomb Squig (KOM-1) sets off its Explosives (it is its own primary target); the
    # concealed Boy KOM-2 within the Blast is shot by a friend, not an enemy: 3 defence dice.
    ops: Ops = {
        "KOM-1": {"at": (16, 14.5)},
        "KOM-2": {"at": (17.4, 14.5), "order": "conceal"},
        "BLU-1": {"at": (22, 14.5)},
    }
    s = gambit(["Skulk About"], ops, types=["Kommando Bomb Squig", BOY])
    s, _ = play(s, ["Activate KOM-1 engage"])
    s = pass_windows(s)
    s, _ = play(s, ["Shoot KOM-1 explosives at KOM-1"], ["1,1,1,1,1,1"])
    s, _ = drive(s, ["1,1,1", "1,1,1,1,1,1"])  # the squig's defence, KOM-2's attack dice
    node = s.node
    assert isinstance(node, Chance) and node.request.label == "defence dice (KOM-2)"
    assert node.request.dice == 3


# -------------------------------------------------------------------------------------------
# The core's strike window (engine.game.fight, trigger "strike")
# -------------------------------------------------------------------------------------------


def test_core_strike_window_opens_only_with_a_usable_ploy_and_resolves_after() -> None:
    # BLU-1 strikes KOM-1 with a normal success: with A's CP for Just A Scratch the window
    # opens before the damage (KOM-1 unhurt while it is open) and the strike is resolved
    # when both pass (2 damage); without CP no window, the strike resolves at once.
    for cp, window in ((3, True), (0, False)):
        s = gambit([], ENGAGED, initiative="B", cp=(cp, 3))
        if cp == 0:  # TP2's Strategy phase gave A CP: take them away
            s = attrs.evolve(s, players=(attrs.evolve(s.players[0], cp=0), s.players[1]))
        s, _ = play(s, ["Activate BLU-1 engage"])
        s = pass_windows(s)
        s, _ = play(s, ["Fight BLU-1 knife at KOM-1"], ["5,1,1", "1,1,1,1"])
        s, _ = drive(s, [])
        s, _ = s.apply("Strike normal")
        opened = isinstance(s.node, Decision) and s.node.kind == "ploy"
        assert opened == window
        if opened:
            assert op_of(s, "KOM-1").wounds == 10
            assert dict(s.stack[-1].info)["die"] == "normal"
            s, _ = drive(s, [])
        assert op_of(s, "KOM-1").wounds == 8


def captivated(shaking: bool = False) -> GameState:
    """Kommandos (A: KOM-1) against Slaanesh Legionaries (B: LEG-1, 3" away); B activates
    LEG-1 and uses Sickening Captivation on KOM-1 (its APL -1 until the end of its next
    activation) between LEG-1's actions, outside any action. ``shaking``: KOM-1 holds Shake
    It Off's token (as when the ploy was used on it earlier this turning point)."""
    kom = Roster.from_entries(lab_team("kommandos"), [BOY])
    leg = Roster.from_entries(lab_team("legionaries"), [LEGIONARY])
    leg = leg.with_choices(None, [{"Mark of Chaos": ["Slaanesh"]}])
    ops: Ops = {"KOM-1": {"at": (8, 14)}, "LEG-1": {"at": (5, 14)}}
    s = position(LAB, kom, leg, operatives=ops, cp=(2, 2), initiative="B")
    b = attrs.evolve(s.players[1], uses=(("infernal_pact", 1),))  # no Infernal Pact window
    s = attrs.evolve(s, players=(s.players[0], b))
    if shaking:
        token = Effect("token", "KOM-1", "end_tp", detail="kommandos_shake_it_off")
        s = attrs.evolve(s, effects=(*s.effects, token))
    s, _ = s.apply("Activate LEG-1 engage")
    s = pass_windows(s)
    s, _ = s.apply("Ploy sickening captivation on KOM-1")
    return s


LEGIONARY = "Legionary Warrior [Boltgun; Fists]"


def test_shake_it_off_when_its_apl_is_changed_outside_an_action() -> None:
    # Sickening Captivation is a ploy used between LEG-1's actions: KOM-1's APL -1 begins
    # outside any action and applies at once. The old reading opened Shake It Off's window
    # only as an action ends, so A had none here; now A may use it at once and ignore the
    # change (KOM-1's APL 2 again), and LEG-1's activation goes on.
    s = captivated()
    assert Work(s).apl(op_of(s, "KOM-1")) == 1
    assert s.node == Decision("A", "ploy") and "Ploy shake it off on KOM-1" in texts(s)
    s, ev = s.apply("Ploy shake it off on KOM-1")
    assert ploys_used(ev) == [("A", "Shake It Off")]
    s, _ = s.apply("Use shake it off")
    assert Work(s).apl(op_of(s, "KOM-1")) == 2
    s = pass_windows(s)
    assert s.node == Decision("B", "action")  # LEG-1's activation goes on


def test_shake_it_off_asks_for_a_later_change_made_outside_an_action() -> None:
    # Shake It Off already in effect (used earlier this turning point):
    # the change begun outside an action is offered at once as a choice (ignored here), no
    # window (the ploy is used once). Without the ploy, A may Pass and the change stands.
    s = captivated(shaking=True)
    assert s.node == Decision("A", "team_rule") and "Use shake it off" in texts(s)
    s, _ = s.apply("Use shake it off")
    assert Work(s).apl(op_of(s, "KOM-1")) == 2
    s = pass_windows(captivated())
    assert s.node == Decision("B", "action") and Work(s).apl(op_of(s, "KOM-1")) == 1
