"""The Angels of Death's team rules (``teams/angels_of_death/``), each scripted against a
Kasrkin team: A fields the Kasrkin (``KAS-n``), B the Angels of Death (``ANG-n``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.dice.rules import Accurate, Lethal, Rending, Saturate, Severe, Shock
from engine.game import GameState, IllegalActionError
from engine.game.actions import Action
from engine.game.attacks import attack_profile
from engine.game.scenario import run
from engine.game.state import Decision, Effect
from engine.game.work import Work
from engine.rulesets import position
from engine.teams import load_builtin_team
from engine.teams.model import Roster
from tests.test_game_rules_common import LAB, attack_texts

TEAMS = Path(__file__).resolve().parent.parent / "teams"
KAS = load_builtin_team("kasrkin").default()
NEUTRAL = ("Mobile", "Resolute")
"""Chapter Tactics that change no dice (the tests of other rules use them)."""


def tactics(roster: Roster, team: tuple[str, str] = NEUTRAL, veteran: str = "") -> Roster:
    """``roster`` with the Chapter Tactics ``team`` and every Sergeant's Chapter Veteran
    tactic ``veteran`` (by default the first of Dueller, Stealthy, Resolute not in ``team``:
    a Sergeant's extra tactic differs from the team's)."""
    veteran = veteran or next(t for t in ("Dueller", "Stealthy", "Resolute") if t not in team)
    per = [{"Chapter Veteran": veteran} if "Sergeant" in n else {} for n in roster.operatives]
    return roster.with_choices({"Chapter Tactics": list(team)}, per)


AOD = tactics(load_builtin_team("angels_of_death").default())

# KAS-1 (Plasma Pistol 4/3+) and ANG-1 (Save 3+) 6" apart in the open lane of LAB.
FACING: dict[str, dict[str, Any]] = {"KAS-1": {"at": (5, 14.5)}, "ANG-1": {"at": (11, 14.5)}}


def pos(ops: Mapping[str, Mapping[str, Any]] = FACING, **kw: Any) -> GameState:
    kw.setdefault("cp", (2, 2))
    return position(LAB, KAS, AOD, operatives=ops, **kw)


def texts(state: GameState) -> list[str]:
    """The listed actions in the notation, each Shoot header (``Shoot KAS-1``) replaced by
    the complete shots its decision lists (:func:`tests.test_game_rules_common.attack_texts`)."""
    return attack_texts(state)


def damage_to(events: list[Any], op: str) -> int:
    return sum(e["damage"] for e in events if e.kind == "damage_inflicted" and e["op"] == op)


def shoot_to_defence(s: GameState, attack: str, defence: str) -> GameState:
    """KAS-1 shoots ANG-1 with its plasma pistol; ``attack`` and ``defence`` are the dice;
    A declines its attack dice window (if any). Stops in B's defence dice window."""
    s, _ = run(s, ["Activate KAS-1 engage", "Shoot KAS-1 plasma pistol (standard) at ANG-1"])
    s, _ = run(s, [], dice=[attack])
    if isinstance(s.node, Decision) and s.node.kind == "dice_ploy":
        s, _ = s.apply("Decline")
    s, _ = run(s, [], dice=[defence])
    return s


def test_transhuman_physiology_turns_a_normal_save_into_a_critical() -> None:
    # Two critical hits; one normal save (4) blocks nothing, but as a critical it blocks one.
    s = shoot_to_defence(pos(), "6,6,1,1", "4,1")
    assert s.node == Decision("B", "dice_ploy")
    assert "Ploy transhuman physiology" in texts(s)
    _, plain = run(s, ["Decline"])
    after, used = run(s, ["Ploy transhuman physiology"])
    assert after.player("B").cp == 1
    if isinstance(after.node, Decision) and after.node.kind == "dice_ploy":
        after, more = run(after, ["Decline"])
        used += more
    assert 0 < damage_to(used, "ANG-1") < damage_to(plain, "ANG-1")
    # Once per turning point, and only with a normal save to turn.
    assert "Ploy transhuman physiology" not in texts(after)


def test_transhuman_physiology_needs_a_normal_save() -> None:
    s = shoot_to_defence(pos(), "6,6,1,1", "6,1")
    assert "Ploy transhuman physiology" not in texts(s)


def test_transhuman_physiology_can_turn_a_retained_cover_save() -> None:
    # ANG-1 in cover behind LAB's rubble retains a normal cover save and rolls a 1 (the
    # plasma pistol's Piercing 1 leaves 2 defence dice, one the cover save): the
    # cover save is one of its normal successes, so the ploy is offered and makes it a
    # critical save (it then blocks one of the two critical hits).
    ops = {"KAS-1": {"at": (9, 4)}, "ANG-1": {"at": (16, 4)}}
    s = pos(ops)
    s, _ = run(s, ["Activate KAS-1 engage", "Shoot KAS-1 plasma pistol (standard) at ANG-1"])
    s, _ = run(s, [], dice=["6,6,1,1"])
    while isinstance(s.node, Decision) and s.node.kind in ("dice_ploy", "cover_save"):
        s, _ = s.apply("Decline" if s.node.kind == "dice_ploy" else "Cover save normal")
    s, _ = run(s, [], dice=["1"])
    assert s.node == Decision("B", "dice_ploy")
    assert "Ploy transhuman physiology" in texts(s)
    from teams.angels_of_death.advice import transhuman_advice

    w = Work(s)
    info = {"target": "ANG-1", "dice": (1,), "kind": "ranged"}
    assert transhuman_advice(w, "B", Action("Ploy", text="transhuman physiology"), info) > 0
    s, _ = s.apply("Ploy transhuman physiology")
    from engine.game.shoot import ShootFrame

    frame = next(f for f in reversed(s.stack) if isinstance(f, ShootFrame))
    assert frame.cover_saves == (0, 1)


def pass_windows(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind in ("ploy", "gambit"):
        s, _ = s.apply("Pass")
    return s


def gambit(b_ploys: list[str], cp: tuple[int, int] = (0, 1)) -> GameState:
    """TP1 ends at once (FACING, both expended); TP2: A wins the initiative and passes in the
    Gambit step, B uses ``b_ploys`` then passes; stops at the first decision after."""
    spent = {k: {**v, "ready": False} for k, v in FACING.items()}
    s = pass_windows(pos(spent, cp=cp))
    s, _ = run(s, ["Initiative A"], dice=["4,3"])
    s, _ = s.apply("Pass")
    for p in b_ploys:
        s, _ = s.apply(p)
        if isinstance(s.node, Decision) and s.node.player == "A":
            s, _ = s.apply("Pass")
    return pass_windows(s)


def test_indomitus_discards_a_fail_to_retain_another_as_a_normal_save() -> None:
    s = gambit(["Ploy indomitus"])
    assert s.player("B").cp_spent == 1
    s = shoot_to_defence(s, "5,4,1,1", "2,1")
    assert s.node == Decision("B", "dice_ploy")
    assert "Use indomitus" in texts(s)
    _, plain = run(s, ["Decline"])
    after, used = run(s, ["Use indomitus"])
    assert "Use indomitus" not in texts(after)  # one fail left: once per roll
    if isinstance(after.node, Decision) and after.node.kind == "dice_ploy":
        after, more = run(after, ["Decline"])
        used += more
    saves = [e for e in used if e.kind == "saves_retained"]
    assert (saves[0]["normals"], saves[0]["crits"]) == (1, 0)
    assert damage_to(used, "ANG-1") < damage_to(plain, "ANG-1")


def test_indomitus_needs_the_ploy_and_two_fails() -> None:
    # Without the ploy this turning point: no option.
    s = shoot_to_defence(pos(), "5,4,1,1", "2,1")
    assert "Use indomitus" not in texts(s)
    # With it, one fail is not enough.
    s = shoot_to_defence(gambit(["Ploy indomitus"]), "5,4,1,1", "3,1")
    assert "Use indomitus" not in texts(s)


def b_gambit(ploys: list[str], cp: tuple[int, int] = (0, 2)) -> GameState:
    """As :func:`gambit`, but B wins the initiative (3-4) and decides first; A has no CP.
    Stops when B is to activate in TP2."""
    spent = {k: {**v, "ready": False} for k, v in FACING.items()}
    s = pass_windows(pos(spent, cp=cp))
    s, _ = run(s, ["Initiative B", *ploys], dice=["3,4"])
    return pass_windows(s)


def b_shoots(s: GameState, attack: str = "6,5,2,1") -> GameState:
    """ANG-1 shoots KAS-1 (6" apart: within 6" edge to edge) with its auto bolt rifle."""
    s, _ = s.apply("Activate ANG-1 engage")
    s = pass_windows(s)
    s, _ = run(s, ["Shoot ANG-1 auto bolt rifle at KAS-1"], dice=[attack])
    return s


def test_combat_doctrine_gives_balanced_to_the_chosen_way_of_attacking() -> None:
    s = b_gambit(["Ploy combat doctrine tactical"])
    s = b_shoots(s)
    assert s.node == Decision("B", "reroll")  # Balanced: re-roll one attack die
    assert "Re-roll 1" in texts(s)
    # Devastator (more than 6" away) does not cover this shot, nor does no doctrine.
    far = b_shoots(b_gambit(["Ploy combat doctrine devastator"]))
    assert far.node != Decision("B", "reroll")
    assert b_shoots(b_gambit([])).node != Decision("B", "reroll")


def test_adjust_doctrine_changes_the_doctrine_during_an_activation() -> None:
    # Without Combat Doctrine this turning point it is not offered.
    s, _ = b_gambit([]).apply("Activate ANG-1 engage")
    assert not [t for t in texts(s) if "adjust doctrine" in t]
    s, _ = b_gambit(["Ploy combat doctrine assault"]).apply("Activate ANG-1 engage")
    s = pass_windows(s)
    # Offered among ANG-1's action choices (before its first action), the current doctrine
    # excluded.
    adjust = [t for t in texts(s) if "adjust doctrine" in t]
    assert adjust == ["Ploy adjust doctrine devastator", "Ploy adjust doctrine tactical"]
    s, _ = s.apply("Ploy adjust doctrine tactical")
    assert s.player("B").cp_spent == 2
    assert s.node == Decision("B", "action")  # not an action: the activation goes on
    s, _ = run(s, ["Shoot ANG-1 auto bolt rifle at KAS-1"], dice=["6,5,2,1"])
    assert s.node == Decision("B", "reroll")  # Tactical: Balanced for a shot within 6"


def to_action(s: GameState) -> GameState:
    """Roll 1s (declining rerolls) until the next action decision."""
    while not (isinstance(s.node, Decision) and s.node.kind == "action"):
        if isinstance(s.node, Decision):
            s, _ = s.apply("Decline" if "Decline" in texts(s) else texts(s)[0])
        else:
            s, _ = run(s, [], dice=[",".join("1" * s.node.request.dice)])  # type: ignore[union-attr]
    return s


def test_adjust_doctrine_between_two_actions_once_per_turning_point() -> None:
    # "Before or after it performs an action": after ANG-1's first Shoot (under Assault, no
    # Balanced), B adjusts to Tactical, and ANG-1's second Shoot has Balanced.
    s, _ = b_gambit(["Ploy combat doctrine assault"]).apply("Activate ANG-1 engage")
    s = pass_windows(s)
    s, _ = run(s, ["Shoot ANG-1 auto bolt rifle at KAS-1"], dice=["6,5,2,1"])
    assert s.node != Decision("B", "reroll")  # Assault covers no shot
    s = to_action(s)
    assert s.node == Decision("B", "action")
    assert "Ploy adjust doctrine tactical" in texts(s)
    s, _ = s.apply("Ploy adjust doctrine tactical")
    assert s.player("B").cp_spent == 2
    # Once per turning point: not offered again in this activation.
    assert not [t for t in texts(s) if "adjust doctrine" in t]
    s, _ = run(s, ["Shoot ANG-1 auto bolt rifle at KAS-1"], dice=["6,5,2,1"])
    assert s.node == Decision("B", "reroll")
    # Never in an enemy operative's activation (a friendly operative's activation only).
    t, _ = b_gambit(["Ploy combat doctrine assault"]).apply("Activate ANG-1 engage")
    t, _ = pass_windows(t).apply("End activation")
    t = pass_windows(t)
    t, _ = t.apply("Activate KAS-1 engage")
    assert t.player("B").cp >= 1  # B could pay for it
    assert not [x for x in texts(pass_windows(t)) if "adjust doctrine" in x]


def test_and_they_shall_know_no_fear_ignores_the_injured_move_penalty() -> None:
    # ANG-1 (Move 6") is injured (5 of 14 wounds): it moves 4" at most, unless B used the
    # ploy this turning point (the Move -2" of being injured is ignored; 2.3).
    ops = {
        "KAS-1": {"at": (5, 14.5), "ready": False},
        "ANG-1": {"at": (11, 14.5), "ready": False, "wounds": 5},
    }

    def activated(ploys: list[str]) -> GameState:
        s = pass_windows(position(LAB, KAS, AOD, operatives=ops, cp=(0, 2)))
        s, _ = run(s, ["Initiative B", *ploys], dice=["3,4"])
        s, _ = pass_windows(s).apply("Activate ANG-1 engage")
        return pass_windows(s)

    s = activated(["Ploy and they shall know no fear"])
    assert s.player("B").cp_spent == 1
    s, _ = s.apply("Reposition ANG-1 to 16.5,14.5")
    assert s.operative("ANG-1").x == 16.5
    with pytest.raises(IllegalActionError):
        activated([]).apply("Reposition ANG-1 to 16.5,14.5")
    # Still injured: other rules that read the injury see it.
    assert s.operative("ANG-1").wounds == 5


def counteracting(ploy: bool, **kw: Any) -> GameState:
    """ANG-1 expended with an Engage order, A's KAS-2 ends its activation: B counteracts with
    ANG-1 (using Wrath Of Vengeance or passing); ``kw`` to :func:`position`."""
    ops = {
        "ANG-1": {"at": (5, 14.5), "ready": False},
        "KAS-1": {"at": (16, 14.5)},
        "KAS-2": {"at": (16, 10)},
    }
    s = position(LAB, KAS, AOD, operatives=ops, turn="A", cp=(2, 2), **kw)
    s, _ = run(s, ["Activate KAS-2 conceal"])
    s, _ = pass_windows(s).apply("End activation")
    s, _ = pass_windows(s).apply("Counteract ANG-1")
    assert "Ploy wrath of vengeance" in texts(s)
    s, _ = s.apply("Ploy wrath of vengeance" if ploy else "Pass")
    return pass_windows(s)


def test_wrath_of_vengeance_gives_a_counteraction_a_second_different_action() -> None:
    s = counteracting(True)
    assert s.player("B").cp == 1
    s, _ = s.apply("Dash ANG-1 to 6,14.5")
    s = pass_windows(s)
    assert s.node == Decision("B", "counteract")
    assert "Shoot ANG-1 auto bolt rifle at KAS-1" in texts(s)
    assert not [t for t in texts(s) if t.startswith("Dash")]  # the actions must differ
    # Without the ploy the counteraction ends after its one action.
    t, _ = counteracting(False).apply("Dash ANG-1 to 6,14.5")
    t = pass_windows(t)
    assert t.node != Decision("B", "counteract")
    assert t.operative("ANG-1").counteracted


def charge_and_fight(charge: bool) -> GameState:
    """ANG-6 (chainsword 5 attacks, 3+, 4/5) fights KAS-1 (chainsword, 4 attacks), after a
    Charge or not (already in control range); B rolls 6,5,4,1,1 (one crit, two normals), A
    rolls 5,1,1,1 (one normal). Stops in B's attack dice window."""
    if charge:
        ops = {"ANG-6": {"at": (5, 14.5)}, "KAS-1": {"at": (10, 14.5)}}
        moves = ["Activate ANG-6 engage", "Charge ANG-6 to 8.519,14.5"]
    else:
        ops = {"ANG-6": {"at": (8.519, 14.5)}, "KAS-1": {"at": (10, 14.5)}}
        moves = ["Activate ANG-6 engage"]
    s = position(LAB, KAS, AOD, operatives=ops, turn="B", cp=(0, 2))
    s, _ = run(s, [*moves, "Fight ANG-6 chainsword at KAS-1"], dice=["6,5,4,1,1", "5,1,1,1"])
    return s


def decline_all(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind in ("dice_ploy", "reroll", "ploy"):
        s, _ = s.apply("Pass" if s.node.kind == "ploy" else "Decline")
    return s


def test_shock_assault_gives_shock_and_one_more_damage_to_the_first_strike() -> None:
    # At the start of the Resolve Attack Dice step (after the dice windows and re-rolls),
    # not in the attack dice window.
    s = charge_and_fight(True)
    assert s.node == Decision("B", "dice_ploy")
    assert "Ploy shock assault" not in texts(s)
    while isinstance(s.node, Decision) and s.node.kind in ("dice_ploy", "reroll"):
        s, _ = s.apply("Decline")
    assert s.node == Decision("B", "ploy") and s.stack[-1].trigger == "resolve_start"  # type: ignore[attr-defined]
    assert "Ploy shock assault" in texts(s)
    s, _ = s.apply("Ploy shock assault")
    assert s.player("B").cp == 1
    s = decline_all(s)
    s, ev = s.apply("Strike crit")
    # First strike: critical damage 5 + 1; Shock discards KAS-1's only normal success.
    assert damage_to(ev, "KAS-1") == 6
    s, ev = s.apply("Strike normal")
    assert damage_to(ev, "KAS-1") == 4  # only the first strike
    # "Until the end of that action": once the Fight ends (a second Fight action of the
    # activation, Astartes), the chainsword has no Shock and no strike gets +1.
    while isinstance(s.node, Decision) and "Strike normal" in texts(s):
        s, _ = s.apply("Strike normal")
    from teams.angels_of_death.ploys import SHOCK_STRIKE_TOKEN, SHOCK_TOKEN

    w = Work(s)
    assert not [e for e in w.effects if e.detail in (SHOCK_TOKEN, SHOCK_STRIKE_TOKEN)]
    assert not attack_profile(w, w.op("ANG-6"), "chainsword", "melee").rules.has(Shock)


def test_shock_assault_needs_a_charge_in_the_activation() -> None:
    s = charge_and_fight(False)
    while isinstance(s.node, Decision) and s.node.kind in ("dice_ploy", "reroll"):
        s, _ = s.apply("Decline")
    assert "Ploy shock assault" not in texts(s)
    assert not (isinstance(s.node, Decision) and s.node.kind == "ploy")


def test_camo_cloak_ignores_saturate_when_shooting_the_eliminator() -> None:
    kas = json.loads((TEAMS / "kasrkin.json").read_text())["default_roster"]
    aod = json.loads((TEAMS / "angels_of_death.json").read_text())["default_roster"]
    k = Roster.from_entries(KAS.team, [e.replace("Meltagun", "Flamer") for e in kas])
    a = tactics(Roster.from_entries(AOD.team, [*aod[:-1], "Eliminator Sniper"]))
    ops = {"KAS-5": {"at": (5, 14.5)}, "ANG-6": {"at": (9, 14.5)}, "ANG-1": {"at": (9, 10)}}
    w = Work(position(LAB, k, a, operatives=ops))
    flamer = w.op("KAS-5")
    assert not attack_profile(w, flamer, "flamer", "ranged", target="ANG-6").rules.has(Saturate)
    # Another Angel of Death (no Camo Cloak) is shot with Saturate.
    assert attack_profile(w, flamer, "flamer", "ranged", target="ANG-1").rules.has(Saturate)


def shooting(op: str, weapon: str, aod: Roster = AOD, attack: str = "1,1,1,1") -> GameState:
    """``op`` (player B) shoots KAS-1 7" away with ``weapon``; every die misses."""
    ops = {op: {"at": (5, 14.5)}, "KAS-1": {"at": (12, 14.5)}}
    s = position(LAB, KAS, aod, operatives=ops, turn="B", cp=(0, 0))
    s, _ = run(s, [f"Activate {op} engage", f"Shoot {op} {weapon} at KAS-1"], dice=[attack])
    while not (isinstance(s.node, Decision) and s.node.kind == "action"):
        s, _ = run(s, [], dice=[",".join("1" * s.node.request.dice)])  # type: ignore[union-attr]
    return s


def test_astartes_two_shoot_actions_in_an_activation() -> None:
    s = shooting("ANG-3", "bolt rifle")
    assert "Shoot ANG-3 bolt rifle at KAS-1" in texts(s)  # a second Shoot
    s, _ = run(s, ["Shoot ANG-3 bolt rifle at KAS-1"], dice=["1,1,1,1"])
    while not (isinstance(s.node, Decision) and s.node.kind == "action"):
        s, _ = run(s, [], dice=[",".join("1" * s.node.request.dice)])  # type: ignore[union-attr]
    assert not [t for t in texts(s) if t.startswith("Shoot")]  # not a third


def test_astartes_second_shot_needs_a_bolt_weapon() -> None:
    # The Captain's first shot was with its plasma pistol: its second Shoot would need a
    # bolt weapon, and it has none.
    aod = json.loads((TEAMS / "angels_of_death.json").read_text())["default_roster"]
    captain = tactics(Roster.from_entries(AOD.team, ["Space Marine Captain", *aod[1:]]))
    s = shooting("ANG-1", "plasma pistol (standard)", captain)
    assert not [t for t in texts(s) if t.startswith("Shoot")]


def test_astartes_counteract_regardless_of_order() -> None:
    ops = {
        "ANG-1": {"at": (5, 14.5), "ready": False, "order": "conceal"},
        "KAS-1": {"at": (16, 14.5)},
        "KAS-2": {"at": (16, 10)},
    }
    s = position(LAB, KAS, AOD, operatives=ops, turn="A", cp=(0, 0))
    s, _ = run(s, ["Activate KAS-2 conceal"])
    s, _ = pass_windows(s).apply("End activation")
    s = pass_windows(s)
    assert s.node == Decision("B", "counteract")
    assert "Counteract ANG-1" in texts(s)


def test_doctrine_warfare_makes_two_doctrines_free_once_per_battle() -> None:
    # ANG-1 (the Intercessor Sergeant, Doctrine Warfare) is in the killzone.
    s = b_gambit(["Ploy combat doctrine tactical"])
    assert s.player("B").cp_spent == 0 and s.player("B").cp == 3
    assert ("doctrine_warfare_tactical:ANG-1", 1) in s.player("B").uses
    # The Intercessor Sergeant's other doctrine is Devastator, not Assault.
    s = b_gambit(["Ploy combat doctrine devastator"])
    assert s.player("B").cp_spent == 0
    s = b_gambit(["Ploy combat doctrine assault"])
    assert s.player("B").cp_spent == 1


def test_doctrine_warfare_free_even_with_no_cp_and_spent_once_per_battle() -> None:
    # "It costs you 0CP": with no CP at all (B starts with 0, gains 1 for TP2 and spends it
    # on Indomitus), Combat Doctrine selecting Tactical or Devastator is still offered and
    # used for free (the Intercessor Sergeant ANG-1 is in the killzone); Assault is not.
    spent = {k: {**v, "ready": False} for k, v in FACING.items()}
    s = pass_windows(pos(spent, cp=(0, 0)))
    s, _ = run(s, ["Initiative B", "Ploy indomitus", "Pass"], dice=["3,4"])
    assert s.player("B").cp == 0 and s.node == Decision("B", "gambit")
    offered = [t for t in texts(s) if t.startswith("Ploy combat doctrine")]
    assert offered == ["Ploy combat doctrine devastator", "Ploy combat doctrine tactical"]
    s, _ = s.apply("Ploy combat doctrine tactical")
    assert s.player("B").cp == 0
    assert ("doctrine_warfare_tactical:ANG-1", 1) in s.player("B").uses
    # Spent for the battle: in a later turning point Tactical costs 1CP again.
    from engine.game.ploys import ploy_cost
    from teams.angels_of_death.ploys import COMBAT_DOCTRINE

    w = Work(s)
    tactical = Action("Ploy", text="combat doctrine tactical")
    devastator = Action("Ploy", text="combat doctrine devastator")
    assert ploy_cost(w, "B", COMBAT_DOCTRINE, tactical) == 1  # type: ignore[arg-type]
    assert ploy_cost(w, "B", COMBAT_DOCTRINE, devastator) == 0  # type: ignore[arg-type]


def test_stealthy_gives_the_eliminator_improved_cover_save_options() -> None:
    # KAS-1 shoots into the rubble lane of LAB: the target at (16, 4) is in cover. The
    # Eliminator Sniper (ANG-6, Stealthy) may retain a cover save as a critical or two
    # normal cover saves; an Assault Intercessor (ANG-5) only one normal.
    aod = json.loads((TEAMS / "angels_of_death.json").read_text())["default_roster"]
    a = tactics(Roster.from_entries(AOD.team, [*aod[:-1], "Eliminator Sniper"]))

    def cover_choice(target: str) -> list[str]:
        ops = {"KAS-1": {"at": (9, 4)}, target: {"at": (16, 4)}}
        s = position(LAB, KAS, a, operatives=ops, cp=(0, 0))
        shot = f"Shoot KAS-1 plasma pistol (standard) at {target}"
        s, _ = run(s, ["Activate KAS-1 engage", shot], dice=["6,6,1,1"])
        assert s.node == Decision("B", "cover_save")
        return texts(s)

    assert cover_choice("ANG-6") == [
        "Cover save critical",
        "Cover save none",
        "Cover save two normals",
    ]
    assert cover_choice("ANG-5") == ["Cover save none", "Cover save normal"]


# -- Chapter Tactics ---------------------------------------------------------------------------


def work_with(team: tuple[str, str], ops: Mapping[str, Mapping[str, Any]] = FACING) -> Work:
    """A Work of the LAB position with ``ops``, B's Chapter Tactics ``team``."""
    return Work(position(LAB, KAS, tactics(AOD, team), operatives=ops))


def melee_rules(w: Work, op: str, weapon: str) -> Any:
    return attack_profile(w, w.op(op), weapon, "melee", target="KAS-1").rules


def ranged_rules(w: Work, op: str, weapon: str) -> Any:
    return attack_profile(w, w.op(op), weapon, "ranged", target="KAS-1").rules


def test_chapter_tactics_default_to_hardy_and_sharpshooter() -> None:
    from teams.angels_of_death.tactics import has_tactic, team_tactics

    w = Work(position(LAB, KAS, load_builtin_team("angels_of_death").default(), operatives=FACING))
    assert team_tactics(w, "B") == ("Hardy", "Sharpshooter")
    assert has_tactic(w, "ANG-1", "Hardy") and not has_tactic(w, "ANG-1", "Mobile")
    assert has_tactic(w, "ANG-1", "Aggressive")  # the Sergeant's Chapter Veteran default
    assert team_tactics(w, "A") == ()  # the Kasrkin have none


def test_ct_aggressive_gives_melee_weapons_rending() -> None:
    ops = {**FACING, "ANG-3": {"at": (16, 10)}}
    assert melee_rules(work_with(("Aggressive", "Mobile"), ops), "ANG-3", "fists").has(Rending)
    assert not melee_rules(work_with(NEUTRAL, ops), "ANG-3", "fists").has(Rending)
    # Not its ranged weapons.
    w = work_with(("Aggressive", "Mobile"), ops)
    assert not ranged_rules(w, "ANG-3", "bolt rifle").has(Rending)


def test_chapter_veteran_gives_the_sergeant_one_more_tactic() -> None:
    # Team NEUTRAL; the Sergeant ANG-1 chose Aggressive, the warrior ANG-3 has none.
    ops = {**FACING, "ANG-3": {"at": (16, 10)}}
    w = Work(position(LAB, KAS, tactics(AOD, veteran="Aggressive"), operatives=ops))
    assert melee_rules(w, "ANG-1", "power weapon").has(Rending)
    assert not melee_rules(w, "ANG-3", "fists").has(Rending)
    # One of the team's two tactics may be chosen again (the text forbids no repeat).
    assert tactics(AOD, ("Hardy", "Mobile"), "Hardy").legal


def test_ct_siege_specialist_gives_ranged_weapons_saturate() -> None:
    w = work_with(("Siege Specialist", "Mobile"))
    assert ranged_rules(w, "ANG-1", "auto bolt rifle").has(Saturate)
    assert not ranged_rules(work_with(NEUTRAL), "ANG-1", "auto bolt rifle").has(Saturate)


def test_ct_sharpshooter_bolt_weapons_accurate_and_severe_unless_moved() -> None:
    w = work_with(("Sharpshooter", "Mobile"))
    rules = ranged_rules(w, "ANG-1", "auto bolt rifle")
    assert rules.has(Accurate) and rules.has(Severe)
    w.set_op("ANG-1", done=("Reposition",))
    assert not ranged_rules(w, "ANG-1", "auto bolt rifle").has(Severe)
    w.set_op("ANG-1", done=("Dash",))  # Dash does not prevent it
    assert ranged_rules(w, "ANG-1", "auto bolt rifle").has(Severe)
    assert not ranged_rules(work_with(NEUTRAL), "ANG-1", "auto bolt rifle").has(Severe)


def test_ct_stealthy_gives_improved_cover_save_options() -> None:
    ops = {"KAS-1": {"at": (9, 4)}, "ANG-5": {"at": (16, 4)}}
    s = position(LAB, KAS, tactics(AOD, ("Stealthy", "Mobile")), operatives=ops, cp=(0, 0))
    shot = "Shoot KAS-1 plasma pistol (standard) at ANG-5"
    s, _ = run(s, ["Activate KAS-1 engage", shot], dice=["6,6,1,1"])
    assert texts(s) == ["Cover save critical", "Cover save none", "Cover save two normals"]


def test_ct_hardy_defence_fives_are_critical_saves() -> None:
    def saves(team: tuple[str, str]) -> tuple[int, int]:
        s = position(LAB, KAS, tactics(AOD, team), operatives=FACING, cp=(0, 0))
        shot = "Shoot KAS-1 plasma pistol (standard) at ANG-1"
        _, ev = run(s, ["Activate KAS-1 engage", shot], dice=["6,6,1,1", "5,1"])
        got = [e for e in ev if e.kind == "saves_retained"]
        return got[0]["normals"], got[0]["crits"]

    assert saves(("Hardy", "Mobile")) == (0, 1)
    assert saves(NEUTRAL) == (1, 0)


def kas_fights_ang6(team: tuple[str, str], attack: str, retaliation: str) -> GameState:
    """KAS-1 (chainsword 4/5... as printed) fights ANG-6 (in control range); B's Chapter
    Tactics ``team``; stops at A's first resolve decision."""
    ops = {"KAS-1": {"at": (8.519, 14.5)}, "ANG-6": {"at": (10, 14.5)}}
    s = position(LAB, KAS, tactics(AOD, team), operatives=ops, turn="A", cp=(0, 0))
    s, _ = run(
        s, ["Activate KAS-1 engage", "Fight KAS-1 chainsword at ANG-6"], dice=[attack, retaliation]
    )
    return decline_all(s)


def test_ct_hardy_retaliating_first_normal_strike_of_3_or_more_loses_1() -> None:
    s = kas_fights_ang6(("Hardy", "Mobile"), "5,5,1,1", "1,1,1,1,1")
    s, ev = s.apply("Strike normal")
    assert damage_to(ev, "ANG-6") == 3  # 4 - 1
    s, ev = s.apply("Strike normal")
    assert damage_to(ev, "ANG-6") == 4  # only the first
    s = kas_fights_ang6(NEUTRAL, "5,5,1,1", "1,1,1,1,1")
    _, ev = s.apply("Strike normal")
    assert damage_to(ev, "ANG-6") == 4


def test_ct_hardy_reads_the_normal_dmg_stat_not_the_damage_as_changed() -> None:
    # KAS-2's gun butt is Dmg 2/3; a test rule adds 1 to each of its strikes (3 damage): not
    # "Normal Dmg of 3 or more" (the stat), so Hardy takes nothing off.
    ops = {"KAS-2": {"at": (8.519, 14.5)}, "ANG-6": {"at": (10, 14.5)}}
    s = position(LAB, KAS, tactics(AOD, ("Hardy", "Mobile")), operatives=ops, turn="A", cp=(0, 0))

    def more(w: Any, dmg: int, **info: Any) -> int:
        return dmg + 1 if str(info.get("op", "")).startswith("KAS") else dmg

    s = s.with_hooks(lambda h: h.would["would_strike_damage"].insert(0, more))
    s, _ = run(
        s, ["Activate KAS-2 engage", "Fight KAS-2 gun butt at ANG-6"], dice=["5,5,1", "1,1,1,1,1"]
    )
    s = decline_all(s)
    s, ev = s.apply("Strike normal")
    assert damage_to(ev, "ANG-6") == 3


def test_ct_dueller_normal_success_blocks_a_critical() -> None:
    s = kas_fights_ang6(("Dueller", "Mobile"), "6,5,1,1", "5,4,1,1,1")
    s, _ = s.apply("Strike normal")
    assert "Block crit with normal" in texts(s)
    s, _ = s.apply("Block crit with normal")
    assert "Strike crit" not in texts(s)
    s = kas_fights_ang6(NEUTRAL, "6,5,1,1", "5,4,1,1,1")
    s, _ = s.apply("Strike normal")
    assert "Block crit with normal" not in texts(s)


def test_ct_mobile_fall_back_costs_one_ap_less() -> None:
    ops = {"KAS-1": {"at": (8.519, 14.5)}, "ANG-6": {"at": (10, 14.5)}}

    def ap_after(team: tuple[str, str]) -> int:
        s = position(LAB, KAS, tactics(AOD, team, "Stealthy"), operatives=ops, turn="B", cp=(0, 0))
        s = pass_windows(run(s, ["Activate ANG-6 engage"])[0])
        s, _ = s.apply("Fall Back ANG-6 to 10,12.639")
        return s.operative("ANG-6").ap

    assert ap_after(("Mobile", "Dueller")) == 2
    assert ap_after(("Hardy", "Dueller")) == 1


def test_ct_mobile_charge_while_within_an_enemy_control_range() -> None:
    # ANG-6 starts in base contact with KAS-1 (within its control range); KAS-2 is 6" away.
    ops: dict[str, dict[str, Any]] = {
        "KAS-1": {"at": (8.519, 14.5)},
        "KAS-2": {"at": (16, 14.5)},
        "ANG-6": {"at": (10, 14.5)},
    }

    def activated(team: tuple[str, str], order: str = "engage") -> GameState:
        roster = tactics(AOD, team, "Stealthy")
        s = position(LAB, KAS, roster, operatives=ops, turn="B", cp=(0, 0))
        return pass_windows(run(s, [f"Activate ANG-6 {order}"])[0])

    s = activated(("Mobile", "Dueller"))
    charges = [a for a in s.legal_actions() if a.verb == "Charge"]
    assert charges  # offered although within KAS-1's control range
    # It leaves KAS-1's control range to finish within KAS-2's (the charge's Move +2").
    s, ev = s.apply("Charge ANG-6 to 14.1,14.5")
    assert any(e.kind == "moved" and e["action"] == "charge" for e in ev)
    assert s.operative("ANG-6").x == pytest.approx(14.1)
    assert "Fight" in {a.verb for a in s.legal_actions()}  # now fights KAS-2
    # Limits: a Charge must still finish within an enemy's control range...
    with pytest.raises(IllegalActionError, match="control range"):
        activated(("Mobile", "Dueller")).apply("Charge ANG-6 to 12,14.5")
    # ...and a Charge after a Fall Back in the same activation is still refused.
    s = activated(("Mobile", "Dueller"))
    s, _ = s.apply("Fall Back ANG-6 to 10,12.639")
    assert not [a for a in s.legal_actions() if a.verb == "Charge"]
    # Without Mobile: no Charge within an enemy's control range (3.2).
    s = activated(("Hardy", "Dueller"))
    assert not [a for a in s.legal_actions() if a.verb == "Charge"]
    with pytest.raises(IllegalActionError, match="within control range"):
        s.apply("Charge ANG-6 to 14.1,14.5")
    # With a Conceal order it cannot Charge at all.
    s = activated(("Mobile", "Dueller"), "conceal")
    assert not [a for a in s.legal_actions() if a.verb == "Charge"]


def test_ct_resolute_ignores_apl_losses_and_the_enemy_shock() -> None:
    ents = json.loads((TEAMS / "legionaries.json").read_text())["default_roster"]
    ents[0] = "Legionary Aspiring Champion [Plasma Pistol + Power Maul]"
    leg = Roster.from_entries(load_builtin_team("legionaries"), ents)
    ops = {"LEG-1": {"at": (8.519, 14.5)}, "ANG-6": {"at": (10, 14.5)}}

    def work(team: tuple[str, str]) -> Work:
        return Work(position(LAB, leg, tactics(AOD, team), operatives=ops))

    def maul(w: Work) -> Any:
        return attack_profile(w, w.op("LEG-1"), "power maul", "melee", target="ANG-6").rules

    assert not maul(work(("Resolute", "Mobile"))).has(Shock)
    assert maul(work(("Hardy", "Mobile"))).has(Shock)
    for team, apl in ((("Resolute", "Mobile"), 3), (("Hardy", "Mobile"), 2)):
        w = work(team)
        w.add_effect(Effect("apl", "ANG-6", "end_tp", value=-1))
        assert w.apl(w.op("ANG-6")) == apl


def test_adaptive_tactics_changes_the_secondary_tactic_for_the_turning_point() -> None:
    from teams.angels_of_death.tactics import team_tactics

    spent = {k: {**v, "ready": False} for k, v in FACING.items()}
    s, _ = run(pass_windows(pos(spent, cp=(0, 2))), ["Initiative B"], dice=["3,4"])
    offered = [t for t in texts(s) if t.startswith("Ploy adaptive tactics")]
    # Every tactic but the two the team has (NEUTRAL: Mobile, Resolute).
    assert len(offered) == 6 and "Ploy adaptive tactics mobile" not in offered
    s = b_gambit(["Ploy adaptive tactics aggressive"])
    assert s.player("B").cp_spent == 1
    w = Work(s)
    assert team_tactics(w, "B") == ("Mobile", "Aggressive")
    assert melee_rules(w, "ANG-1", "power weapon").has(Rending)
    # Until the end of the turning point only.
    assert [e.until for e in w.effects if e.detail.startswith("adaptive_tactics:")] == ["end_tp"]
    # Until the end of the turning point only.
    assert [e.until for e in w.effects if e.detail.startswith("adaptive_tactics:")] == ["end_tp"]


# -- Abilities and unique actions -------------------------------------------------------------

_ENTRIES = json.loads((TEAMS / "angels_of_death.json").read_text())["default_roster"]
CAPTAIN = tactics(Roster.from_entries(AOD.team, ["Space Marine Captain", *_ENTRIES[1:]]))
SNIPER = tactics(Roster.from_entries(AOD.team, [*_ENTRIES[:-1], "Eliminator Sniper"]))


def iron_halo_shot(attack: str, defence: str = "1,1", uses: int = 0) -> GameState:
    """KAS-1's plasma pistol (Dmg 3/5) shoots the Captain (ANG-1, 15 wounds); stops at the
    first decision after the defence dice."""
    s = position(LAB, KAS, CAPTAIN, operatives=FACING, cp=(0, 0))
    if uses:
        s = attrs.evolve(
            s, players=(s.players[0], attrs.evolve(s.players[1], uses=(("iron_halo:ANG-1", uses),)))
        )
    shot = "Shoot KAS-1 plasma pistol (standard) at ANG-1"
    s, _ = run(s, ["Activate KAS-1 engage", shot], dice=[attack, defence])
    return s


def test_iron_halo_is_the_players_choice_on_a_normal_damage() -> None:
    # Two normal hits of 3, no saves: before the damage of the first is inflicted, B chooses.
    s = iron_halo_shot("5,4,1,1")
    assert s.node == Decision("B", "team_rule")
    assert texts(s) == ["Decline", "Use iron halo"]
    assert s.operative("ANG-1").wounds == 15 - 3  # the other die's damage is inflicted
    used, ev = run(s, ["Use iron halo"])
    assert damage_to(ev, "ANG-1") == 0 and used.operative("ANG-1").wounds == 12
    assert ("iron_halo:ANG-1", 1) in used.player("B").uses
    # Declined: the withheld damage is inflicted, and Iron Halo is kept for later.
    kept, ev = run(s, ["Decline"])
    assert damage_to(ev, "ANG-1") == 3 and kept.operative("ANG-1").wounds == 9
    assert not [u for u in kept.player("B").uses if u[0] == "iron_halo:ANG-1"]


def test_iron_halo_limits_normal_damage_once_per_battle() -> None:
    # Critical hits only (Dmg 5): never asked.
    s = iron_halo_shot("6,6,1,1")
    assert s.node != Decision("B", "team_rule")
    assert s.operative("ANG-1").wounds == 5
    # All blocked: nothing inflicted, nothing asked.
    s = iron_halo_shot("4,1,1,1", "3,1")
    assert s.node != Decision("B", "team_rule")
    # Once per battle: already used, never asked again.
    s = iron_halo_shot("5,4,1,1", uses=1)
    assert s.node != Decision("B", "team_rule")
    assert s.operative("ANG-1").wounds == 9
    # Another operative has no Iron Halo (the default roster has no Captain).
    s = position(LAB, KAS, AOD, operatives=FACING, cp=(0, 0))
    shot = "Shoot KAS-1 plasma pistol (standard) at ANG-1"
    s, _ = run(s, ["Activate KAS-1 engage", shot], dice=["5,4,1,1", "1,1"])
    assert s.node != Decision("B", "team_rule")


def test_iron_halo_in_a_fight_each_normal_strike_until_used() -> None:
    # KAS-1's chainsword (Dmg 4/5) strikes the Captain twice with normal successes; the
    # Captain's retaliation dice all fail.
    ops: dict[str, dict[str, Any]] = {"KAS-1": {"at": (8.519, 14.5)}, "ANG-1": {"at": (10, 14.5)}}
    s = position(LAB, KAS, CAPTAIN, operatives=ops, turn="A", cp=(0, 0))
    s, _ = run(s, ["Activate KAS-1 engage", "Fight KAS-1 chainsword at ANG-1"])
    while not (isinstance(s.node, Decision) and s.node.kind == "resolve"):
        if isinstance(s.node, Decision):
            s, _ = s.apply(texts(s)[0])  # the Captain's first weapon; no re-rolls
        else:
            req = s.node.request  # type: ignore[union-attr]
            hits = ["5", "5"] if req.player == "A" else []  # KAS-1's two normal successes
            s, _ = run(s, [], dice=[",".join(hits + ["1"] * (req.dice - len(hits)))])
    s, _ = s.apply("Strike normal")
    assert s.node == Decision("B", "team_rule")  # asked at the strike, before its damage
    assert s.operative("ANG-1").wounds == 15
    s, ev = s.apply("Decline")
    assert damage_to(ev, "ANG-1") == 4 and s.operative("ANG-1").wounds == 11
    # The second normal strike: asked again (still unused); used this time.
    s, _ = s.apply("Strike normal")
    assert s.node == Decision("B", "team_rule")
    s, ev = s.apply("Use iron halo")
    assert damage_to(ev, "ANG-1") == 0 and s.operative("ANG-1").wounds == 11
    assert ("iron_halo:ANG-1", 1) in s.player("B").uses


def test_grenadier_throws_its_own_grenades_hit_3_without_grenade_uses() -> None:
    ops = {"KAS-1": {"at": (10, 14.5)}, "ANG-5": {"at": (5, 14.5)}}
    s = position(LAB, KAS, AOD, operatives=ops, turn="B", cp=(0, 0))
    w = Work(s)
    assert attack_profile(w, w.op("ANG-5"), "frag grenade", "ranged", target="KAS-1").hit == 3
    assert attack_profile(w, w.op("ANG-5"), "krak grenade", "ranged", target="KAS-1").hit == 3
    s, _ = run(s, ["Activate ANG-5 engage", "Shoot ANG-5 krak grenade at KAS-1"], dice=["1,1,1,1"])
    assert not [u for u in s.player("B").uses if "grenade" in u[0]]


def captain_tp2(ploys: list[str], ops: Mapping[str, Mapping[str, Any]] = FACING) -> GameState:
    """As :func:`b_gambit` with the Captain as ANG-1."""
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = pass_windows(position(LAB, KAS, CAPTAIN, operatives=spent, cp=(0, 2)))
    s, _ = run(s, ["Initiative B", *ploys], dice=["3,4"])
    return pass_windows(s)


def test_heroic_leader_adjust_doctrine_for_0cp_once_per_turning_point() -> None:
    s = captain_tp2(["Ploy combat doctrine assault"])
    assert s.player("B").cp_spent == 1
    s, _ = s.apply("Activate ANG-1 engage")
    s, _ = s.apply("Ploy adjust doctrine tactical")
    assert s.player("B").cp_spent == 1  # free
    assert [e for e in s.effects if e.detail == "heroic_leader"]
    # Without a Captain it costs 1CP (the default roster has none).
    t, _ = b_gambit(["Ploy combat doctrine assault"]).apply("Activate ANG-1 engage")
    t, _ = t.apply("Ploy adjust doctrine tactical")
    assert t.player("B").cp_spent == 2


def test_heroic_leader_combat_doctrine_when_an_operative_is_activated() -> None:
    s = captain_tp2([])
    s, _ = s.apply("Activate ANG-1 engage")
    assert "Ploy combat doctrine devastator" in texts(s)
    s, _ = s.apply("Ploy combat doctrine devastator")
    assert s.player("B").cp_spent == 1
    assert "Combat Doctrine" in s.player("B").ploys_used
    # Not when Combat Doctrine was used in the Gambit step.
    s, _ = captain_tp2(["Ploy combat doctrine assault"]).apply("Activate ANG-1 engage")
    assert "Ploy combat doctrine devastator" not in texts(s)


def test_heroic_leader_firefight_ploy_for_0cp_when_the_captain_is_specified() -> None:
    s = position(LAB, KAS, CAPTAIN, operatives=FACING, cp=(2, 2))
    s = shoot_to_defence(s, "6,6,1,1", "4,1")
    assert "Ploy transhuman physiology" in texts(s)
    s, _ = s.apply("Ploy transhuman physiology")
    assert s.player("B").cp == 2  # free: the Captain is the operative shot
    # Another operative shot pays.
    t = shoot_to_defence(pos(), "6,6,1,1", "4,1")
    t, _ = t.apply("Ploy transhuman physiology")
    assert t.player("B").cp == 1


def test_heroic_leader_free_ploy_only_for_the_operative_the_ploy_specifies() -> None:
    # The Captain (ANG-1) is within KAS-1's control range, so only the first option (the
    # Captain is the ploy's specified operative) can make Adjust Doctrine free.
    close = {
        "ANG-1": {"at": (5, 14.5)},
        "KAS-1": {"at": (6.6, 14.5)},
        "ANG-2": {"at": (5, 4)},
    }
    # Adjust Doctrine specifies the operative whose activation it is: the Captain's own.
    s, _ = captain_tp2(["Ploy combat doctrine assault"], close).apply("Activate ANG-1 engage")
    s, _ = pass_windows(s).apply("Ploy adjust doctrine tactical")
    assert s.player("B").cp_spent == 1  # only Combat Doctrine paid: free
    # In another operative's activation the Captain is not specified (and is within an
    # enemy's control range): it costs 1CP.
    s, _ = captain_tp2(["Ploy combat doctrine assault"], close).apply("Activate ANG-2 engage")
    s, _ = pass_windows(s).apply("Ploy adjust doctrine tactical")
    assert s.player("B").cp_spent == 2
    assert not [e for e in s.effects if e.detail == "heroic_leader"]


def test_heroic_leader_never_makes_command_reroll_free() -> None:
    # The Captain is shot (specified for Transhuman Physiology), but Command Re-roll is
    # excluded by the rule: it costs its 1CP.
    s = position(LAB, KAS, CAPTAIN, operatives=FACING, cp=(2, 2))
    s = shoot_to_defence(s, "6,6,1,1", "4,1")
    s, _ = s.apply("Command re-roll 4")
    assert s.player("B").cp == 1
    assert not [e for e in s.effects if e.detail == "heroic_leader"]


# ANG-6 (the Eliminator Sniper) sees KAS-1 across the LAB ruin: obscured.
OPTICS_AT = {"ANG-6": {"at": (5, 10)}, "KAS-1": {"at": (16, 10)}}


def test_optics_its_targets_cannot_be_obscured_until_its_next_activation() -> None:
    from engine.game.shoot_targets import targeting

    s = position(LAB, KAS, SNIPER, operatives=OPTICS_AT, turn="B", cp=(0, 0))
    w = Work(s)
    assert targeting(w, w.op("ANG-6"), w.op("KAS-1")).obscured
    s, _ = run(s, ["Activate ANG-6 engage"])
    assert "Act ANG-6 optics" in texts(pass_windows(s))
    s, _ = run(pass_windows(s), ["Act ANG-6 optics"])
    assert s.operative("ANG-6").ap == 2
    w = Work(s)
    assert not targeting(w, w.op("ANG-6"), w.op("KAS-1")).obscured
    # Another Angel of Death has no Optics.
    s = position(LAB, KAS, AOD, operatives={"ANG-5": {"at": (5, 10)}}, turn="B", cp=(0, 0))
    s, _ = run(s, ["Activate ANG-5 engage"])
    assert not [t for t in texts(pass_windows(s)) if "optics" in t]


# -- Team equipment ---------------------------------------------------------------------------


def test_chapter_reliquaries_wrath_of_vengeance_for_0cp_with_an_engage_order() -> None:
    s = counteracting(True, equipment={"B": ["Chapter Reliquaries"]})
    assert s.player("B").cp == 2
    assert counteracting(True).player("B").cp == 1  # not selected: 1CP


def b_shoots_with(equipment: list[str], attack: str) -> GameState:
    """ANG-1 shoots KAS-1 with its auto bolt rifle (Hit 3+), B having ``equipment``; stops in
    B's attack dice window (or later)."""
    s = position(LAB, KAS, AOD, operatives=FACING, turn="B", cp=(0, 0), equipment={"B": equipment})
    s = pass_windows(run(s, ["Activate ANG-1 engage"])[0])
    s, _ = run(s, ["Shoot ANG-1 auto bolt rifle at KAS-1"], dice=[attack])
    return s


def test_purity_seals_two_attack_fails_become_one_normal_success() -> None:
    s = b_shoots_with(["Purity Seals"], "5,2,1,1")
    assert s.node == Decision("B", "dice_ploy")
    assert "Use purity seals" in texts(s)
    s, ev = s.apply("Use purity seals")
    got = [e for e in ev if e.kind == "attack_retained"]
    assert (got[0]["normals"], got[0]["crits"]) == (2, 0)  # a 1 discarded, the 2 a success
    assert [e for e in s.effects if e.detail == "used:Purity Seals"]  # once per TP
    # One fail is not enough; not selected: not offered.
    assert "Use purity seals" not in texts(b_shoots_with(["Purity Seals"], "5,5,4,1"))
    assert "Use purity seals" not in texts(b_shoots_with([], "5,2,1,1"))


def test_tilting_shields_the_enemy_retains_crits_only_on_6s() -> None:
    ents = json.loads((TEAMS / "legionaries.json").read_text())["default_roster"]
    ents[0] = "Legionary Aspiring Champion [Plasma Pistol + Power Weapon]"
    leg = Roster.from_entries(load_builtin_team("legionaries"), ents)
    ops = {"ANG-6": {"at": (5, 14.5)}, "LEG-1": {"at": (8.519, 14.5)}}
    s = position(
        LAB, leg, AOD, operatives=ops, turn="B", cp=(0, 0), equipment={"B": ["Tilting Shields"]}
    )
    s = pass_windows(run(s, ["Activate ANG-6 engage"])[0])
    s, _ = run(s, ["Charge ANG-6 to 7,14.5"])
    s = pass_windows(s)
    s, _ = run(s, ["Fight ANG-6 chainsword at LEG-1"], dice=["4,4,1,1,1", "5,5,1,1,1"])
    while "Use tilting shields" not in texts(s):
        assert isinstance(s.node, Decision)
        s, _ = s.apply("Decline")
    w = Work(s)
    weapon = "power weapon"
    assert attack_profile(w, w.op("LEG-1"), weapon, "melee", target="ANG-6").rules.has(Lethal)
    s, _ = s.apply("Use tilting shields")
    w = Work(s)
    assert not attack_profile(w, w.op("LEG-1"), weapon, "melee", target="ANG-6").rules.has(Lethal)


def test_auspex_enemies_within_8_inches_of_the_shooter_are_not_obscured() -> None:
    from engine.game.shoot import ShootFrame

    ops = {"ANG-1": {"at": (7, 10)}, "KAS-1": {"at": (16, 10)}}

    def obscured(use: bool) -> bool:
        s = position(
            LAB, KAS, AOD, operatives=ops, turn="B", cp=(0, 0), equipment={"B": ["Auspex"]}
        )
        s = pass_windows(run(s, ["Activate ANG-1 engage"])[0])
        s, _ = s.apply("Shoot ANG-1 auto bolt rifle at KAS-1")
        assert "Use auspex" in texts(s)
        s, _ = s.apply("Use auspex" if use else "Pass")
        s = pass_windows(s)
        frame = next(f for f in s.stack if isinstance(f, ShootFrame))
        return bool(frame.obscured)

    assert obscured(False)
    assert not obscured(True)
    # Until the end of the activation only.
    s = position(LAB, KAS, AOD, operatives=ops, turn="B", cp=(0, 0), equipment={"B": ["Auspex"]})
    s = pass_windows(run(s, ["Activate ANG-1 engage"])[0])
    s, _ = run(s, ["Shoot ANG-1 auto bolt rifle at KAS-1", "Use auspex"], dice=["1,1,1,1"])
    while not (isinstance(s.node, Decision) and s.node.kind == "action"):
        if isinstance(s.node, Decision):
            s, _ = s.apply("Decline" if s.node.kind == "dice_ploy" else "Pass")
        else:
            s, _ = run(s, [], dice=[",".join("1" * s.node.request.dice)])
    assert [e for e in s.effects if e.detail == "auspex"]
    s, _ = s.apply("End activation")
    assert not [e for e in s.effects if e.detail == "auspex"]


def test_auspex_enemies_within_8_inches_of_it_are_not_obscured_to_any_friendly_shooter() -> None:
    # "Enemy operatives within 8" of it cannot be obscured": the token holder (ANG-1) is
    # measured from, whichever friendly operative shoots (ANG-2 here, e.g. a free Shoot in
    # that activation); an enemy more than 8" from ANG-1 stays obscured; the opponent's
    # shooters are not helped.
    from engine.game.shoot_targets import targeting

    ops = {
        "ANG-1": {"at": (9, 10)},
        "ANG-2": {"at": (5, 10)},
        "KAS-1": {"at": (16, 10)},
        "KAS-2": {"at": (25, 20)},
    }
    s = position(LAB, KAS, AOD, operatives=ops, turn="B", cp=(0, 0), equipment={"B": ["Auspex"]})
    token = Effect("token", "ANG-1", "end_activation", source="ANG-1", detail="auspex")
    w = Work(s)
    assert targeting(w, w.op("ANG-2"), w.op("KAS-1")).obscured  # across the LAB ruin
    w.effects.append(token)
    assert not targeting(w, w.op("ANG-2"), w.op("KAS-1")).obscured  # 7" from ANG-1
    # KAS-1 shooting ANG-2 is not helped (only the Auspex player's shooters).
    assert targeting(w, w.op("KAS-1"), w.op("ANG-2")).obscured


def test_tilting_shields_removes_severe_a_later_installed_team_gives() -> None:
    # The opponent's KHORNE Legionary has Severe from its mark (Wrathful Onslaught); under
    # Tilting Shields it cannot retain results below 6 as crits: no Severe, whichever team
    # is player A (the rules of the team installed second used to add it back).
    import teams.legionaries  # noqa: F401  (registers the rules)

    leg = load_builtin_team("legionaries").default()
    marks = [{"Mark of Chaos": ["Khorne"]} if i == 0 else {} for i in range(len(leg.operatives))]
    leg = leg.with_choices(None, marks)
    for a, b in ((AOD, leg), (leg, AOD)):
        s = position(LAB, a, b, operatives={}, cp=(2, 2))
        w = Work(s)
        assert attack_profile(w, w.op("LEG-1"), "power fist", "melee").rules.has(Severe)
        w.effects.append(
            Effect("token", "LEG-1", "end_tp", source="LEG-1", detail="tilting_shields")
        )
        assert not attack_profile(w, w.op("LEG-1"), "power fist", "melee").rules.has(Severe)


def test_camo_cloak_of_the_kasrkin_ignores_siege_specialist_saturate_in_either_order() -> None:
    # Siege Specialist gives ANG-1's auto bolt rifle Saturate; shooting the Kasrkin
    # Sharpshooter (Camo Cloak: "ignore the Saturate weapon rule") it has none, whichever
    # team is player A (the hook that takes it away runs last); another Kasrkin: Saturate.
    import teams.kasrkin  # noqa: F401  (registers the rules)

    aod = tactics(load_builtin_team("angels_of_death").default(), ("Siege Specialist", "Mobile"))
    for a, b in ((KAS, aod), (aod, KAS)):
        w = Work(position(LAB, a, b, operatives={}, cp=(2, 2)))
        sharp = next(o.id for o in w.ops if "SHARPSHOOTER" in w.ctx.datacards[o.id].keywords)
        rifle = "auto bolt rifle"
        assert not attack_profile(w, w.op("ANG-1"), rifle, "ranged", target=sharp).rules.has(
            Saturate
        )
        assert attack_profile(w, w.op("ANG-1"), rifle, "ranged", target="KAS-1").rules.has(Saturate)


# -- Advice: the heuristic agent uses the team's rules where they pay ----------------------------


def test_heuristic_uses_transhuman_physiology_when_a_normal_save_blocks_a_critical() -> None:
    from engine.agents.ploy_choices import choose_ploy
    from teams.angels_of_death.advice import transhuman_advice

    s = shoot_to_defence(pos(), "6,6,1,1", "4,1")
    w = Work(s)
    info = w.top.dice_info(w)
    # (The agent weighs a Command Re-roll of the 1 first; among the ploys it takes this.)
    chosen = choose_ploy(w, "B", s.legal_actions(), "defence_dice", info)
    assert chosen == Action("Ploy", text="transhuman physiology")
    assert transhuman_advice(w, "B", Action("Ploy", text="transhuman physiology"), info) > 0.1


def test_combat_doctrine_advice_prefers_the_doctrine_that_fits() -> None:
    from teams.angels_of_death.advice import combat_doctrine_advice

    # FACING: ANG-1 6" from KAS-1: Tactical fits, Devastator does not.
    w = Work(pos())

    def value(d: str) -> float:
        return combat_doctrine_advice(w, "B", Action("Ploy", text=f"combat doctrine {d}"), {})

    assert value("tactical") > value("devastator") == 0.0


def test_heuristic_uses_purity_seals_and_optics() -> None:
    from engine.agents import HeuristicAgent

    s = b_shoots_with(["Purity Seals"], "5,2,1,1")
    assert HeuristicAgent().act(s) == Action("Use", text="purity seals")
    # Optics is advised when an enemy it could shoot is obscured.
    from teams.angels_of_death.actions import OPTICS

    s = position(LAB, KAS, SNIPER, operatives=OPTICS_AT, turn="B", cp=(0, 0))
    s = pass_windows(run(s, ["Activate ANG-6 engage"])[0])
    w = Work(s)
    act = Action("Act", op="ANG-6", text="optics")
    assert OPTICS.advice(w, w.op("ANG-6"), act, "activation") > 0.1


def test_astartes_second_shot_with_the_same_heavy_bolter_costs_one_more_ap() -> None:
    heavy = tactics(Roster.from_entries(AOD.team, [*_ENTRIES[:-1], "Heavy Intercessor Gunner"]))
    s = shooting("ANG-6", "heavy bolter (focused)", heavy, "1,1,1,1,1")
    assert s.operative("ANG-6").ap == 2
    s, ev = run(s, ["Shoot ANG-6 heavy bolter (focused) at KAS-1"], dice=["1,1,1,1,1"])
    assert [e for e in ev if e.kind == "astartes_extra_ap"]
    while not isinstance(s.node, Decision):
        s, _ = run(s, [], dice=[",".join("1" * s.node.request.dice)])  # type: ignore[union-attr]
    assert s.operative("ANG-6").ap == 0  # 1AP for the Shoot, 1 more for the same weapon
    # With 1AP left, the same heavy bolter is refused; its bolt pistol is not.
    s = shooting("ANG-6", "heavy bolter (focused)", heavy, "1,1,1,1,1")
    w = Work(s)
    w.set_op("ANG-6", ap=1)
    from engine.game.universal import find_weapon, weapon_usable

    o = w.op("ANG-6")
    name, _, prof = find_weapon(w, o, "heavy bolter (focused)", "ranged")
    assert "additional AP" in str(weapon_usable(w, o, name, prof))
    name, _, prof = find_weapon(w, o, "bolt pistol", "ranged")
    assert weapon_usable(w, o, name, prof) is None


def test_indomitus_option_advice_is_the_damage_it_saves() -> None:
    from engine.advice.values import DAMAGE_WEIGHT
    from teams.angels_of_death.ploys import INDOMITUS_SAVE

    # Two normal hits of 3 on ANG-1 (15 wounds); the option saves one: 3 damage.
    s = shoot_to_defence(gambit(["Ploy indomitus"]), "5,4,1,1", "2,1")
    w = Work(s)
    info = w.top.dice_info(w)
    got = INDOMITUS_SAVE.advice(w, "B", Action("Use", text="indomitus"), info)
    assert got == pytest.approx(DAMAGE_WEIGHT * 3 / 15)


def test_camo_cloak_with_stealthy_selected_retains_a_normal_and_a_critical_cover_save() -> None:
    ops = {"KAS-1": {"at": (9, 4)}, "ANG-6": {"at": (16, 4)}}
    shot = "Shoot KAS-1 plasma pistol (standard) at ANG-6"

    def cover_choice(team: tuple[str, str]) -> GameState:
        roster = tactics(Roster.from_entries(AOD.team, [*_ENTRIES[:-1], "Eliminator Sniper"]), team)
        s = position(LAB, KAS, roster, operatives=ops, cp=(0, 0))
        s, _ = run(s, ["Activate KAS-1 engage", shot], dice=["6,6,1,1"])
        assert s.node == Decision("B", "cover_save")
        return s

    s = cover_choice(("Stealthy", "Mobile"))
    assert "Cover save normal and critical" in texts(s)
    _, ev = s.apply("Cover save normal and critical")
    saves = [e for e in ev if e.kind == "saves_retained"]
    assert (saves[0]["normals"], saves[0]["crits"]) == (1, 1)
    assert "Cover save normal and critical" not in texts(cover_choice(NEUTRAL))


def test_heroic_leader_is_kept_when_chapter_reliquaries_makes_the_ploy_free() -> None:
    def counteract(equipment: list[str]) -> GameState:
        ops = {
            "ANG-1": {"at": (5, 14.5), "ready": False},
            "KAS-1": {"at": (16, 14.5)},
            "KAS-2": {"at": (16, 10)},
        }
        s = position(
            LAB, KAS, CAPTAIN, operatives=ops, turn="A", cp=(2, 2), equipment={"B": equipment}
        )
        s, _ = run(s, ["Activate KAS-2 conceal"])
        s, _ = pass_windows(s).apply("End activation")
        s, _ = pass_windows(s).apply("Counteract ANG-1")
        s, _ = s.apply("Ploy wrath of vengeance")
        return s

    # The Captain counteracts: Heroic Leader makes Wrath Of Vengeance free and is used up...
    s = counteract([])
    assert s.player("B").cp == 2
    assert [e for e in s.effects if e.detail == "heroic_leader"]
    # ...unless Chapter Reliquaries already makes it free (Engage order): then it is kept.
    s = counteract(["Chapter Reliquaries"])
    assert s.player("B").cp == 2
    assert not [e for e in s.effects if e.detail == "heroic_leader"]
