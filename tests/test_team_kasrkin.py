"""The Kasrkin's team rules (``teams/kasrkin.py``), one test (or more) per rule, in LAB
positions (``tests/test_game_rules_common``): the built-in Kasrkin (player A, ``KAS-n``)
against the BLU test team (player B, ``BLU-n``: Troopers with Gun 4/3+/3/4, Save 4+).

Strategy ploys are reached through a real Gambit step: every operative starts expended in
TP1, so the turning point ends at once and TP2 begins (roll-off scripted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

import teams.kasrkin  # noqa: F401  (registers the rules)
from engine.game import GameState, IllegalActionError
from engine.game.actions import Action
from engine.game.context import GameOptions
from engine.game.events import Event, narrate
from engine.game.scenario import run
from engine.game.state import Decision, Effect
from engine.rulesets import position
from engine.teams.model import Roster
from tests.test_game_rules_common import BLU, LAB, roster, with_destinations
from tests.test_team_weapon_rules import lab_team

TROOPER = "Kasrkin Trooper"
LASGUN = "hot-shot lasgun"


def lab(
    types: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: the built-in Kasrkin (roster entries ``types``, loadouts in brackets)
    against the BLU test team (``blu``, default two Troopers)."""
    kas = Roster.from_entries(lab_team("kasrkin"), list(types))
    return position(LAB, kas, roster(BLU, tuple(blu)), operatives=ops, **kw)


def texts(s: GameState) -> list[str]:
    """The listed actions, each move at its listed destinations (through the destination
    decision its header opens)."""
    return [str(a) for a in with_destinations(s)]


def ploys_used(events: list[Event]) -> list[tuple[str, str]]:
    return [(e["player"], e["ploy"]) for e in events if e.kind == "ploy_used"]


def pass_ploy_windows(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    return s


def gambit(
    ops: Mapping[str, Mapping[str, Any]],
    types: Sequence[str] = (TROOPER,),
    *,
    initiative: str = "B",
    cp: tuple[int, int] = (3, 3),
    blu: Sequence[str] = ("Trooper", "Trooper"),
) -> GameState:
    """TP2's Gambit step with A (Kasrkin) to decide: every operative of ``ops`` starts
    expended in TP1; ``initiative`` wins the roll-off and takes the initiative (B passes
    first when it has it)."""
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = pass_ploy_windows(lab(types, spent, blu, cp=cp))
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


# -------------------------------------------------------------------------------------------
# Engage From Cover
# -------------------------------------------------------------------------------------------

# KAS-1 at (16, 4) behind the LAB rubble, in cover from BLU-1 at (5, 4).
COVERED = {"KAS-1": {"at": (16, 4)}, "BLU-1": {"at": (5, 4)}}
# KAS-1 in the open lane, in the open from BLU-1.
OPEN = {"KAS-1": {"at": (16, 14.5)}, "BLU-1": {"at": (5, 14.5)}}


def _shot_at_kasrkin(ops: Mapping[str, Mapping[str, Any]], ploy: bool) -> GameState:
    """B's BLU-1 shoots KAS-1 (hits 6,5,4,1; A keeps a cover save if it can); stops at the
    defence dice 3,1 (or 3,2,1 without cover) window."""
    s = gambit(ops)
    if ploy:
        s, ev = s.apply("Ploy engage from cover")
        assert ploys_used(ev) == [("A", "Engage From Cover")]
    s = to_firefight(s)
    s, _ = run(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at KAS-1"], dice=["6,5,4,1"])
    return decline(s)


def decline(s: GameState) -> GameState:
    """Pass the ploy windows, decline the dice re-rolls, keep a cover save if offered."""
    answer = {"ploy": "Pass", "dice_ploy": "Decline", "cover_save": "Cover save normal"}
    while isinstance(s.node, Decision) and s.node.kind in answer:
        s, _ = s.apply(answer[s.node.kind])
    return s


def test_engage_from_cover_rerolls_one_defence_die_in_cover() -> None:
    # 1CP in the Gambit step; when KAS-1 (in cover) is shot, A may re-roll one defence die
    # for free, once: after re-rolling the 1, no further Engage From Cover option.
    s = _shot_at_kasrkin(COVERED, ploy=True)
    s, _ = run(s, [], dice=["3,1"])
    assert s.node.player == "A"  # type: ignore[union-attr]
    assert "Use engage from cover 1" in texts(s)
    assert s.players[0].cp_spent == 1
    s, _ = run(s, ["Use engage from cover 1"], dice=["6"])
    assert s.players[0].cp_spent == 1  # the re-roll itself is free
    assert not [t for t in texts(s) if "engage from cover" in t]


def test_engage_from_cover_not_out_of_cover_nor_without_the_ploy() -> None:
    s = _shot_at_kasrkin(OPEN, ploy=True)
    s, _ = run(s, [], dice=["3,2,1"])
    assert not [t for t in texts(s) if "engage from cover" in t]
    s = _shot_at_kasrkin(COVERED, ploy=False)
    s, _ = run(s, [], dice=["3,1"])
    assert not [t for t in texts(s) if "engage from cover" in t]
    with pytest.raises(IllegalActionError):
        s.apply("Use engage from cover 1")


# -------------------------------------------------------------------------------------------
# Elimination Pattern
# -------------------------------------------------------------------------------------------

# KAS-1 at (5, y) shoots BLU-1 at (16, y): in the open lane, or behind the rubble.
SHOOT_OPEN = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
SHOOT_COVER = {"KAS-1": {"at": (5, 4)}, "BLU-1": {"at": (16, 4)}}


def _kasrkin_shoots(
    ops: Mapping[str, Mapping[str, Any]], ploy: str, attack: str, types: Sequence[str] = (TROOPER,)
) -> GameState:
    """A uses ``ploy`` (if any) in TP2's Gambit step, then KAS-1 shoots BLU-1 with its
    hot-shot lasgun rolling ``attack``; stops at the next chance node or decision other than
    passes, declines and cover saves."""
    s = gambit(ops, types, initiative="A")
    if ploy:
        s, ev = s.apply(f"Ploy {ploy}")
        assert ploys_used(ev) == [("A", ploy.title())]
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage", f"Shoot KAS-1 {LASGUN} at BLU-1"], dice=[attack])
    return s


def _defence_dice(s: GameState) -> int:
    s = decline(s)
    assert s.node.request.kind == "defence"  # type: ignore[union-attr]
    return int(s.node.request.dice)  # type: ignore[union-attr]


def test_elimination_pattern_piercing_crits_against_a_target_in_the_open() -> None:
    # A critical success retained against a target in the open: BLU-1 rolls 2 defence dice
    # (Piercing Crits 1), not 3; without a critical success, 3.
    s = _kasrkin_shoots(SHOOT_OPEN, "elimination pattern", "6,5,4,1")
    assert _defence_dice(s) == 2
    s = _kasrkin_shoots(SHOOT_OPEN, "elimination pattern", "5,5,4,1")
    assert _defence_dice(s) == 3


def test_elimination_pattern_not_against_cover_nor_without_the_ploy() -> None:
    # Behind the rubble BLU-1 keeps a cover save: 1 retained + 2 rolled (no Piercing Crits).
    s = _kasrkin_shoots(SHOOT_COVER, "elimination pattern", "6,5,4,1")
    assert _defence_dice(s) == 2
    s = _kasrkin_shoots(SHOOT_OPEN, "", "6,5,4,1")
    assert _defence_dice(s) == 3


def test_elimination_pattern_volley_gun_has_piercing_1() -> None:
    # The hot-shot volley gun gets Piercing 1 instead: 2 defence dice even with no crit.
    gunner = "Kasrkin Gunner [Hot-Shot Volley Gun; Gun Butt]"
    s = gambit(SHOOT_OPEN, (gunner,), initiative="A")
    s, _ = s.apply("Ploy elimination pattern")
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage"])
    shoot = next(t for t in texts(s) if t.startswith("Shoot KAS-1 hot-shot volley gun"))
    s, _ = s.apply(shoot)
    s = decline(s)
    n = s.node.request.dice  # type: ignore[union-attr]
    s, _ = run(s, [], dice=[",".join(["5"] * n)])
    assert _defence_dice(s) == 2


# -------------------------------------------------------------------------------------------
# Relocate
# -------------------------------------------------------------------------------------------

# KAS-1 and KAS-2 2" apart, far from enemies; KAS-3 2" from BLU-2.
SPREAD: dict[str, dict[str, Any]] = {
    "KAS-1": {"at": (5, 14.5)},
    "KAS-2": {"at": (5, 16.5)},
    "KAS-3": {"at": (5, 4)},
    "BLU-1": {"at": (16, 14.5)},
    "BLU-2": {"at": (7, 4)},
}


def test_relocate_chosen_operative_and_close_friends_dash_for_free() -> None:
    # On KAS-1 (more than 3" from enemies): KAS-1 dashes, then KAS-2 (within 3" of it and
    # clear of enemies); KAS-3 is near an enemy: never offered, never dashes.
    s = gambit(SPREAD, (TROOPER,) * 3, initiative="A")
    assert [t for t in texts(s) if t.startswith("Ploy relocate")] == [
        "Ploy relocate on KAS-1",
        "Ploy relocate on KAS-2",
    ]
    s, ev = s.apply("Ploy relocate on KAS-1")
    assert ploys_used(ev) == [("A", "Relocate")]
    # "In an order of your choice": A picks who dashes first (KAS-3 is never a candidate).
    assert s.node.kind == "team_rule"  # type: ignore[union-attr]
    assert texts(s) == ["Decline", "Use relocate on KAS-1", "Use relocate on KAS-2"]
    s, _ = s.apply("Use relocate on KAS-2")
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    assert all(t.startswith("Dash KAS-2") for t in texts(s)[:-1])
    s, _ = s.apply("Dash KAS-2 to 2,16.5")
    # The last one left dashes without a further choice.
    assert all(t.startswith("Dash KAS-1") for t in texts(s)[:-1])
    s, _ = s.apply("Dash KAS-1 to 2,14.5")
    assert s.node.kind == "gambit" and s.node.player == "B"  # type: ignore[union-attr]
    assert (s.operative("KAS-1").x, s.operative("KAS-2").x, s.operative("KAS-3").x) == (2, 2, 5)


def test_relocate_each_dash_is_optional() -> None:
    # Each operative "can" dash: A may decline the order choice (nobody dashes), or skip the
    # last one's free Dash ("End activation" in its free action).
    s = gambit(SPREAD, (TROOPER,) * 3, initiative="A")
    s, _ = s.apply("Ploy relocate on KAS-2")
    s, _ = s.apply("Decline")
    assert s.node.kind == "gambit" and s.node.player == "B"  # type: ignore[union-attr]
    s = gambit(SPREAD, (TROOPER,) * 3, initiative="A")
    s, _ = s.apply("Ploy relocate on KAS-2")
    s, _ = s.apply("Use relocate on KAS-1")
    s, _ = s.apply("Dash KAS-1 to 2,14.5")
    assert texts(s)[-1] == "End activation" and texts(s)[0].startswith("Dash KAS-2")
    s, _ = s.apply("End activation")
    assert s.node.kind == "gambit" and s.node.player == "B"  # type: ignore[union-attr]
    assert (s.operative("KAS-1").x, s.operative("KAS-2").x) == (2, 5)


def test_relocate_not_in_the_first_turning_point() -> None:
    from engine.game.work import Work
    from teams.kasrkin import RELOCATE_PLOY

    s = lab((TROOPER,) * 3, SPREAD)
    assert s.tp == 1
    assert RELOCATE_PLOY.options(Work(s), "A", {}) == []


def test_reconnoitre_killzone_relocate_on_the_recon_trooper_costs_0cp() -> None:
    # A (1CP) spends it on Engage From Cover; B passes. With 0CP, Relocate is offered only
    # on the Recon-Trooper (KAS-2), and costs nothing.
    s = gambit(
        SPREAD, ("Kasrkin Trooper", "Kasrkin Recon-Trooper", TROOPER), cp=(0, 3), initiative="A"
    )
    s, _ = run(s, ["Ploy engage from cover", "Pass"])
    assert s.players[0].cp == 0 and s.node.player == "A"  # type: ignore[union-attr]
    assert [t for t in texts(s) if t.startswith("Ploy relocate")] == ["Ploy relocate on KAS-2"]
    with pytest.raises(IllegalActionError, match="costs 1CP"):
        s.apply("Ploy relocate on KAS-1")
    s, ev = s.apply("Ploy relocate on KAS-2")
    assert ploys_used(ev) == [("A", "Relocate")]
    assert not [e for e in ev if e.kind == "cp_spent"] and s.players[0].cp_spent == 1
    # With CP, on another operative it costs 1CP.
    s = gambit(SPREAD, ("Kasrkin Trooper", "Kasrkin Recon-Trooper", TROOPER))
    s, ev = s.apply("Ploy relocate on KAS-1")
    assert s.players[0].cp_spent == 1


# -------------------------------------------------------------------------------------------
# Neutralise Target
# -------------------------------------------------------------------------------------------


def test_neutralise_target_rerolls_the_attack_dice_the_player_chooses() -> None:
    # KAS-1 shoots BLU-1 in the open (no cover save possible): 6,5,2,1 at 3+; the ploy
    # (1CP) re-rolls ANY of the dice, the player's choice: every non-empty sub-multiset of
    # {6,5,2,1} is offered (15), e.g. the 5 too (hoping for a crit). Re-rolling 5,2,1.
    s = _kasrkin_shoots(SHOOT_OPEN, "", "6,5,2,1")
    offered = [t for t in texts(s) if t.startswith("Ploy neutralise target")]
    assert len(offered) == 15
    assert "Ploy neutralise target 2,1" in offered and "Ploy neutralise target 6,5,2,1" in offered
    s, ev = run(s, ["Ploy neutralise target 5,2,1"], dice=["6,6,3"])
    assert ploys_used(ev) == [("A", "Neutralise Target")]
    rerolled = [e for e in ev if e.kind == "dice_rerolled"]
    assert len(rerolled) == 1 and sorted(rerolled[0]["new"]) == [3, 6, 6]
    assert s.players[0].cp_spent == 1
    # Once per turning point: not offered again (Command Re-roll on the 6 left unrolled is).
    assert not [t for t in texts(s) if t.startswith("Ploy neutralise target")]


def test_neutralise_target_never_rerolls_a_die_twice() -> None:
    # Re-rolled dice cannot be re-rolled again (2.4): after a Command Re-roll of the 1,
    # the ploy offers only the sub-multisets of the three dice not re-rolled (7).
    s = _kasrkin_shoots(SHOOT_OPEN, "", "6,5,2,1")
    s, _ = run(s, ["Command re-roll 1"], dice=["1"])
    offered = [t for t in texts(s) if t.startswith("Ploy neutralise target")]
    assert len(offered) == 7 and "Ploy neutralise target 1" not in offered
    with pytest.raises(IllegalActionError):
        s.apply("Ploy neutralise target 2,1")


def test_neutralise_target_not_against_a_target_in_cover() -> None:
    # Behind the rubble BLU-1 can retain a cover save: the ploy is not offered.
    s = _kasrkin_shoots(SHOOT_COVER, "", "6,5,2,1")
    assert not [t for t in texts(s) if t.startswith("Ploy neutralise target")]
    assert "Command re-roll 1" in texts(s)


# -------------------------------------------------------------------------------------------
# Seize The Initiative
# -------------------------------------------------------------------------------------------


def _firefight_start(initiative: str) -> GameState:
    s = gambit(SHOOT_OPEN, initiative=initiative)
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        s, _ = s.apply("Pass")
    return s


def test_seize_the_initiative_free_action_without_moving() -> None:
    # B has initiative: at the start of the Firefight phase A uses the ploy on KAS-1, which
    # may perform a free 1AP action that is not a move (Shoot here), before any activation.
    s = _firefight_start("B")
    assert s.node.kind == "ploy" and s.node.player == "A"  # type: ignore[union-attr]
    assert "Ploy seize the initiative on KAS-1" in texts(s)
    s, ev = s.apply("Ploy seize the initiative on KAS-1")
    assert ploys_used(ev) == [("A", "Seize The Initiative")]
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    options = texts(s)
    assert f"Shoot KAS-1 {LASGUN} at BLU-1" in options
    assert not [t for t in options if t.split()[0] in ("Dash", "Reposition", "Charge")]
    s, ev = run(s, [f"Shoot KAS-1 {LASGUN} at BLU-1"], dice=["1,1,1,1"])
    assert [e.kind for e in ev][:2] == ["shoot_declared", "shoot_started"]
    s, _ = run(decline(s), [], dice=["1,1,1"])
    s, ev = s.apply("Decline")
    kinds = [e.kind for e in ev if e.kind != "action_ended"]
    assert kinds[-2:] == ["shoot_ended", "free_action_ended"]
    # Back to the Firefight phase: B (initiative) activates first; KAS-1 is still ready.
    assert s.node.kind == "activate" and s.node.player == "B"  # type: ignore[union-attr]
    assert s.operative("KAS-1").ready
    assert s.players[0].cp_spent == 1


def test_seize_the_initiative_allows_any_1ap_action_that_does_not_move() -> None:
    # "A 1AP action for free, but it cannot move": a unique action (the Recon-Trooper's
    # Auspex Scan, 1AP) and a grenade (Adaptive Equipment's Smoke Grenade, 1AP) are offered
    # next to the Shoot; no move action (Reposition, Dash, Charge, Fall Back) is.
    def offered(types: tuple[str, ...]) -> set[str]:
        s = gambit(SHOOT_OPEN, types, initiative="B")
        while isinstance(s.node, Decision) and s.node.kind == "gambit":
            s, _ = s.apply("Pass")
        s, _ = s.apply("Ploy seize the initiative on KAS-1")
        return {t.split(" at ")[0].split(" on ")[0] for t in texts(s)}

    recon = offered(("Kasrkin Recon-Trooper",))
    assert recon == {"Act KAS-1 auspex scan", f"Shoot KAS-1 {LASGUN}", "End activation"}
    trooper = offered((TROOPER,))
    assert "Act KAS-1 adaptive smoke grenade" in trooper
    assert not [t for t in recon | trooper if t.split()[0] in ("Dash", "Reposition", "Charge")]


def test_seize_actions_exclude_moves_and_2ap_actions() -> None:
    from engine.game.work import Work
    from teams.kasrkin.firefight_ploys import seize_actions

    s = gambit(SHOOT_OPEN, ("Kasrkin Recon-Trooper",), initiative="B")
    names = seize_actions(Work(s), "KAS-1")
    assert "auspex scan" in names and "Shoot" in names
    assert not set(names) & {"Reposition", "Dash", "Charge", "Fall Back"}


def test_seize_the_initiative_not_for_the_player_with_initiative() -> None:
    s = _firefight_start("A")
    assert not [t for t in texts(s) if "seize the initiative" in t]


# -------------------------------------------------------------------------------------------
# Skill At Arms (faction rule)
# -------------------------------------------------------------------------------------------

LIGHT = "Use skill at arms light 'em up"
FAST = "Use skill at arms strike fast"


def test_skill_at_arms_is_a_free_strategic_gambit_once_per_turning_point() -> None:
    s = gambit(SHOOT_OPEN, initiative="A")
    assert LIGHT in texts(s) and FAST in texts(s)
    s, ev = s.apply(LIGHT)
    assert [e["rule"] for e in ev if e.kind == "rule_used"] == ["Skill At Arms"]
    assert s.players[0].cp_spent == 0 and s.players[0].ploys_used == ()
    s, _ = s.apply("Pass")  # B
    assert s.node.player == "A" and LIGHT not in texts(s)  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="already selected its Skill At Arms"):
        s.apply(FAST)


def test_skill_at_arms_light_em_up_gives_severe() -> None:
    # No critical success among 5,5,4,1: Severe may turn a normal success into one.
    s = gambit(SHOOT_OPEN, initiative="A")
    s, _ = s.apply(LIGHT)
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage", f"Shoot KAS-1 {LASGUN} at BLU-1"], dice=["5,5,4,1"])
    s = decline(s)
    assert texts(s) == ["Apply Severe", "Decline"]
    # Without the drill: straight on to the defence dice.
    s = _kasrkin_shoots(SHOOT_OPEN, "", "5,5,4,1")
    assert _defence_dice(s) == 3


def test_skill_at_arms_strike_fast_adds_1_inch_to_reposition() -> None:
    # KAS-1 (Move 6") at (5, 14.5): with Strike Fast it may Reposition 7" to (12, 14.5);
    # without, it may not. Dash stays 3".
    s = gambit(SHOOT_OPEN, initiative="A")
    s, _ = s.apply(FAST)
    s, _ = run(to_firefight(s), ["Activate KAS-1 engage"])
    assert s.is_legal("Reposition KAS-1 to 12,14.5")
    assert not s.is_legal("Dash KAS-1 to 9,14.5")
    s = gambit(SHOOT_OPEN, initiative="A")
    s, _ = run(to_firefight(s), ["Activate KAS-1 engage"])
    assert not s.is_legal("Reposition KAS-1 to 12,14.5")
    assert s.is_legal("Reposition KAS-1 to 11,14.5")


def test_skill_at_arms_ice_in_your_veins_first_big_normal_hit_loses_1_damage() -> None:
    # BLU-1's gun (Dmg 3/4) retains 2 normal successes against KAS-1, none saved: 6 - 1 = 5.
    def shot(drill: str) -> list[int]:
        s = gambit(SHOOT_OPEN, initiative="A")
        if drill:
            s, _ = s.apply(f"Use skill at arms {drill}")
        s = to_firefight(s)
        s, _ = run(s, ["Activate KAS-1 engage", "End activation", "Activate BLU-1 engage"])
        s, _ = run(s, ["Shoot BLU-1 gun at KAS-1"], dice=["5,4,1,1"])
        s, _ = run(decline(s), [], dice=["1,1,1"])
        s, ev = s.apply("Decline")
        return [e["damage"] for e in ev if e.kind == "damage_inflicted"]

    assert shot("ice in your veins") == [5]
    assert shot("") == [6]


def _struck_with_ice(blu: str, weapon: str, plus: int, dice: str) -> list[int]:
    """BLU-1 (a ``blu`` type) fights KAS-1 (Ice In Your Veins selected) with ``weapon``,
    retaining two normal hits (KAS-1 none); a test rule adds ``plus`` to each of BLU-1's
    strikes first (a damage change of another rule, not the weapon's Dmg stat). The damage
    of BLU-1's two strikes."""
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (6.3, 14.5)}}
    s = gambit(ops, initiative="A", blu=(blu, "Trooper"))
    s, _ = s.apply("Use skill at arms ice in your veins")
    s = to_firefight(s)
    if plus:

        def more(w: Any, dmg: int, **info: Any) -> int:
            return dmg + plus if str(info.get("op", "")).startswith("BLU") else dmg

        s = s.with_hooks(lambda h: h.would["would_strike_damage"].insert(0, more))
    s, _ = run(s, ["Activate KAS-1 engage", "End activation", "Activate BLU-1 engage"])
    s, _ = run(s, [f"Fight BLU-1 {weapon} at KAS-1"], dice=[dice, "1,1,1"])
    s = decline(s)
    dealt = []
    while isinstance(s.node, Decision) and "Strike normal" in texts(s):
        s, ev = s.apply("Strike normal")
        dealt += [e["damage"] for e in ev if e.kind == "damage_inflicted" and e["op"] == "KAS-1"]
        s = decline(s)
    return dealt


def test_skill_at_arms_ice_in_your_veins_reads_the_normal_dmg_stat() -> None:
    # A Dmg 3 weapon (the Brawler's brutal blade): the first normal strike inflicts 2, the
    # next 3 ("the first time" only).
    assert _struck_with_ice("Brawler", "brutal blade", 0, "5,5,1,1") == [2, 3]
    # The knife is Dmg 2: another rule raising each strike to 3 does not make it "Normal Dmg
    # of 3 or more" (the stat): no reduction.
    assert _struck_with_ice("Trooper", "knife", 1, "5,5,1") == [3, 3]


def test_skill_at_arms_for_cadia_adds_1_melee_attack_up_to_4() -> None:
    s = gambit({**SHOOT_OPEN, "KAS-2": {"at": (5, 18)}}, (TROOPER, SERGEANT), initiative="A")
    s, _ = s.apply("Use skill at arms for cadia!")
    assert _atk(s, "KAS-1", "gun butt") == 4  # 3 + 1
    assert _atk(s, "KAS-2", "chainsword") == 4  # already 4: no more
    assert _atk(s, "KAS-1", LASGUN, "ranged") == 4  # ranged weapons unchanged


def test_skill_at_arms_for_cadia_first_strike_when_fighting_inflicts_1_more() -> None:
    # KAS-1's gun butt (Dmg 2/3): two normal hits; the first strike inflicts 3, the next 2.
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (6.3, 14.5)}}
    s = gambit(ops, initiative="A")
    s, _ = s.apply("Use skill at arms for cadia!")
    s = to_firefight(s)
    s, _ = run(
        s, ["Activate KAS-1 engage", "Fight KAS-1 gun butt at BLU-1"], dice=["5,5,1,1", "1,1,1"]
    )
    s = decline(s)
    dealt = []
    for _ in range(2):
        s, ev = s.apply("Strike normal")
        dealt += [e["damage"] for e in ev if e.kind == "damage_inflicted"]
    assert dealt == [3, 2]


def _atk(s: GameState, op: str, weapon: str, kind: str = "melee") -> int:
    from engine.game.attacks import attack_profile
    from engine.game.work import Work

    w = Work(s)
    return int(attack_profile(w, w.op(op), weapon, kind).attacks)


# -------------------------------------------------------------------------------------------
# Veteran Leadership (Sergeant)
# -------------------------------------------------------------------------------------------

SERGEANT = "Kasrkin Sergeant [Plasma Pistol; Chainsword]"


def test_veteran_leadership_selects_one_more_drill_in_the_same_use() -> None:
    # With the Sergeant (KAS-1) in the killzone A's one use of Skill At Arms may select two
    # different drills ("one additional": 4 singles + 6 pairs offered, never three, never the
    # same twice); the opponent cannot act in between (one gambit).
    ops = {"KAS-1": {"at": (5, 14.5)}, "KAS-2": {"at": (5, 16.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = gambit(ops, (SERGEANT, TROOPER), initiative="A")
    offered = [t for t in texts(s) if "skill at arms" in t]
    assert len(offered) == 10
    assert f"{LIGHT} and strike fast" in offered and LIGHT in offered
    assert not [t for t in offered if t.count(" and ") > 1]
    s, ev = s.apply(f"{LIGHT} and strike fast")
    assert [e["rule"] for e in ev if e.kind == "rule_used"] == ["Skill At Arms"]
    from engine.game.work import Work
    from teams.kasrkin.faction import drills

    assert drills(Work(s), "A") == ("light 'em up", "strike fast")
    s, _ = s.apply("Pass")  # B
    assert not [t for t in texts(s) if "skill at arms" in t]  # once per Strategy phase


def test_veteran_leadership_not_without_the_sergeant() -> None:
    # The Sergeant is not in the killzone (not set up): one drill only, no pairs.
    ops = {"KAS-2": {"at": (5, 16.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = gambit(ops, (SERGEANT, TROOPER), initiative="A")
    assert len([t for t in texts(s) if "skill at arms" in t]) == 4
    with pytest.raises(IllegalActionError):
        s.apply(f"{LIGHT} and strike fast")
    s, _ = s.apply(LIGHT)
    s, _ = s.apply("Pass")  # B
    assert not [t for t in texts(s) if "skill at arms" in t]


# -------------------------------------------------------------------------------------------
# Battle Comms (Vox-Trooper)
# -------------------------------------------------------------------------------------------

VOX = "Kasrkin Vox-Trooper"
COMMS = {
    "KAS-1": {"at": (5, 14.5)},
    "KAS-2": {"at": (5, 16.5)},
    "KAS-3": {"at": (3, 14.5)},
    "BLU-1": {"at": (25, 14.5)},
}


def test_battle_comms_gives_a_friend_apl_plus_1_for_its_next_activation() -> None:
    # The Vox-Trooper (KAS-1) selects KAS-2 (APL 2); not itself. The Sergeant (APL 3
    # already, the cap) may be selected (no printed condition forbids it) but is not
    # offered: the +1 changes nothing now. KAS-2's next activation has 3AP.
    s = lab((VOX, TROOPER, SERGEANT), COMMS)
    s, _ = run(s, ["Activate KAS-1 engage"])
    comms = [t for t in texts(s) if "battle comms" in t]
    assert comms == ["Act KAS-1 battle comms on KAS-2"]
    assert s.is_legal("Act KAS-1 battle comms on KAS-3")
    with pytest.raises(IllegalActionError, match="another friendly KASRKIN"):
        s.apply("Act KAS-1 battle comms on KAS-1")
    s, _ = run(s, ["Act KAS-1 battle comms on KAS-2", "End activation"])
    s = pass_ploy_windows(s)
    s, _ = run(s, ["Activate BLU-1 engage", "End activation"])
    s = pass_ploy_windows(s)
    s, _ = run(s, ["Activate KAS-2 engage"])
    assert s.operative("KAS-2").ap == 3


def test_battle_comms_only_the_vox_trooper_and_not_in_enemy_control_range() -> None:
    s = lab((VOX, TROOPER, SERGEANT), COMMS)
    s, _ = run(s, ["Activate KAS-2 engage"])
    assert not [t for t in texts(s) if "battle comms" in t]
    close = {**COMMS, "BLU-1": {"at": (6.5, 14.5)}}
    s = lab((VOX, TROOPER, SERGEANT), close)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not [t for t in texts(s) if "battle comms" in t]
    with pytest.raises(IllegalActionError, match="control range"):
        s.apply("Act KAS-1 battle comms on KAS-2")


# -------------------------------------------------------------------------------------------
# Medikit (Combat Medic)
# -------------------------------------------------------------------------------------------

MEDIC = "Kasrkin Combat Medic"


def _medic(wounds2: int, wounds3: int = 8) -> GameState:
    # KAS-1 the Medic; KAS-2 1.5" away (within control range), KAS-3 5" away.
    ops = {
        "KAS-1": {"at": (5, 14.5)},
        "KAS-2": {"at": (5, 16.0), "wounds": wounds2},
        "KAS-3": {"at": (5, 19.5), "wounds": wounds3},
        "BLU-1": {"at": (25, 14.5)},
    }
    s = lab((MEDIC, TROOPER, TROOPER), ops)
    s, _ = run(s, ["Activate KAS-1 engage"])
    return s


def test_medikit_heals_2d3_for_0ap() -> None:
    # KAS-2 at 3 wounds: 2D3 rolled as 5,2 -> 3+1 = 4 wounds regained, 7 left; 0AP.
    s = _medic(3, wounds3=2)
    assert [t for t in texts(s) if "medikit" in t] == ["Act KAS-1 medikit on KAS-2"]
    s, ev = run(s, ["Act KAS-1 medikit on KAS-2"], dice=["5,2"])
    assert s.operative("KAS-2").wounds == 7
    assert [e["wounds"] for e in ev if e.kind == "wounds_regained"] == [4]
    assert [narrate(e) for e in ev if e.kind == "wounds_regained"] == [
        "  KAS-2 regains 4 wounds (Medikit, KAS-1)"
    ]
    assert s.operative("KAS-1").ap == 2
    # Once per activation.
    assert not [t for t in texts(s) if "medikit" in t]


def test_medikit_the_medic_can_heal_itself() -> None:
    # "Select one friendly KASRKIN operative within this operative's control range": not
    # "other", and an operative is within its own control range (4.1, 4.2, 4.3). The Medic
    # KAS-1 at 3 wounds: 2D3 of 6,6 -> 3+3 = 6 wounds regained, 8 (its Wounds stat) reached.
    ops = {
        "KAS-1": {"at": (5, 14.5), "wounds": 3},
        "KAS-2": {"at": (5, 19.5)},
        "BLU-1": {"at": (25, 14.5)},
    }
    s, _ = run(lab((MEDIC, TROOPER), ops), ["Activate KAS-1 engage"])
    assert [t for t in texts(s) if "medikit" in t] == ["Act KAS-1 medikit on KAS-1"]
    s, _ = run(s, ["Act KAS-1 medikit on KAS-1"], dice=["6,6"])
    assert s.operative("KAS-1").wounds == 8


def test_medikit_never_above_the_wounds_stat_nor_on_unwounded_or_distant() -> None:
    s = _medic(7)
    s, _ = run(s, ["Act KAS-1 medikit on KAS-2"], dice=["6,6"])
    assert s.operative("KAS-2").wounds == 8
    s = _medic(8, wounds3=2)
    assert not [t for t in texts(s) if "medikit" in t]
    # KAS-2 lost no wounds: legal (no printed condition forbids it), not offered.
    assert s.is_legal("Act KAS-1 medikit on KAS-2")
    with pytest.raises(IllegalActionError, match="control range"):
        s.apply("Act KAS-1 medikit on KAS-3")


# -------------------------------------------------------------------------------------------
# Rapid Fire (faction rule)
# -------------------------------------------------------------------------------------------

SGT_LASGUN = "Kasrkin Sergeant [Hot-Shot Lasgun; Gun Butt]"
SGT_PLASMA = SERGEANT


def _miss(s: GameState, shoot: str) -> GameState:
    """``shoot``: every attack die misses (1s), the defender rolls 1s."""
    s, _ = run(s, [shoot], dice=["1,1,1,1"])
    s = decline(s)
    n = s.node.request.dice  # type: ignore[union-attr]
    s, _ = run(s, [], dice=[",".join(["1"] * n)])
    return decline(s)


def test_rapid_fire_two_shoot_actions_without_moving_then_no_move() -> None:
    # The Sergeant (APL 3) shoots twice with its hot-shot lasgun; then it cannot move.
    s = lab((SGT_LASGUN,), SHOOT_OPEN)
    s, _ = run(s, ["Activate KAS-1 engage"])
    shoot = f"Shoot KAS-1 {LASGUN} at BLU-1"
    s = _miss(s, shoot)
    assert s.is_legal(shoot)
    s = _miss(s, shoot)
    assert s.operative("KAS-1").ap == 1
    assert not s.is_legal(shoot)  # not a third
    with pytest.raises(IllegalActionError, match="Rapid Fire"):
        s.apply("Reposition KAS-1 to 6,14.5")


def test_rapid_fire_not_after_moving_nor_with_other_weapons() -> None:
    shoot = f"Shoot KAS-1 {LASGUN} at BLU-1"
    # Moved first: one Shoot action only.
    s = lab((SGT_LASGUN,), SHOOT_OPEN)
    s, _ = run(s, ["Activate KAS-1 engage", "Reposition KAS-1 to 6,14.5"])
    s = _miss(s, shoot)
    assert not s.is_legal(shoot)
    # First Shoot with a plasma pistol: no second one.
    near = {"KAS-1": {"at": (10, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = lab((SGT_PLASMA,), near)
    s, _ = run(s, ["Activate KAS-1 engage"])
    plasma = next(t for t in texts(s) if t.startswith("Shoot KAS-1 plasma pistol (standard)"))
    s = _miss(s, plasma)
    assert not [t for t in texts(s) if t.startswith("Shoot")]


# -------------------------------------------------------------------------------------------
# Camo Cloak (Sharpshooter)
# -------------------------------------------------------------------------------------------

SHARPSHOOTER = "Kasrkin Sharpshooter"


def _shot_in_cover(who: str, weapon: str = "pierce gun") -> GameState:
    """BLU-1 (a Gunner) shoots KAS-1 behind the rubble (hits 6,5,4,1, no re-roll)."""
    ops = {"KAS-1": {"at": (16, 4)}, "BLU-1": {"at": (5, 4)}}
    s = lab((who,), ops, blu=("Gunner",), turn="B")
    s, _ = run(s, ["Activate BLU-1 engage", f"Shoot BLU-1 {weapon} at KAS-1"], dice=["6,5,4,1"])
    s, _ = s.apply("Decline")
    return s


def test_camo_cloak_improved_cover_saves() -> None:
    s = _shot_in_cover(SHARPSHOOTER)
    assert texts(s) == ["Cover save critical", "Cover save none", "Cover save two normals"]
    s = _shot_in_cover(TROOPER)
    assert texts(s) == ["Cover save none", "Cover save normal"]


def test_camo_cloak_ignores_saturate() -> None:
    # A Saturate gun: the Trooper cannot retain a cover save (straight to the defence dice),
    # the Sharpshooter still can (improved).
    s = _shot_in_cover(TROOPER, "saturate gun")
    assert s.node.request.kind == "defence"  # type: ignore[union-attr]
    s = _shot_in_cover(SHARPSHOOTER, "saturate gun")
    assert "Cover save two normals" in texts(s)


# -------------------------------------------------------------------------------------------
# Auspex Scan (Recon-Trooper)
# -------------------------------------------------------------------------------------------

RECON = "Kasrkin Recon-Trooper"
# KAS-1 (Recon) 4" from BLU-1; KAS-2 sees BLU-1 across the LAB ruin (obscured).
SCAN = {
    "KAS-1": {"at": (14, 13.5)},
    "KAS-2": {"at": (5, 10)},
    "BLU-1": {"at": (16, 10)},
    "BLU-2": {"at": (25, 20)},
}


def _after_scan(scan: bool) -> GameState:
    s = lab((RECON, TROOPER), SCAN)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert [t for t in texts(s) if "auspex" in t] == ["Act KAS-1 auspex scan"]
    if scan:
        s, _ = run(s, ["Act KAS-1 auspex scan"])
    s = pass_ploy_windows(run(s, ["End activation"])[0])
    return pass_ploy_windows(run(s, ["Activate BLU-2 engage", "End activation"])[0])


def _obscured(s: GameState) -> bool:
    from engine.game.shoot import ShootFrame

    s, _ = run(s, ["Activate KAS-2 engage", f"Shoot KAS-2 {LASGUN} at BLU-1"])
    frame = next(f for f in s.stack if isinstance(f, ShootFrame))
    return bool(frame.obscured)


def test_auspex_scan_scanned_enemies_are_not_obscured_to_kasrkin() -> None:
    assert _obscured(_after_scan(False))
    assert not _obscured(_after_scan(True))


def test_auspex_scan_scanned_enemies_in_smoke_are_not_obscured_either() -> None:
    # BLU-1 down the open lane from KAS-2 but wholly within a smoke marker (obscured, 7.2):
    # "that enemy operative cannot be obscured" once scanned by KAS-1 (4.5" away).
    ops = {
        "KAS-1": {"at": (14, 17)},
        "KAS-2": {"at": (5, 14.5)},
        "BLU-1": {"at": (16, 14.5)},
        "BLU-2": {"at": (25, 20)},
    }
    import attrs

    from engine.game.tokens import Token

    smoke = Token("smoke", "B", "B smoke", 16, 14.5, 0.0)  # as a Smoke Grenade places it
    for scan in (False, True):
        s = lab((RECON, TROOPER), ops)
        s, _ = run(s, ["Activate KAS-1 engage"] + (["Act KAS-1 auspex scan"] if scan else []))
        s = pass_ploy_windows(run(s, ["End activation"])[0])
        s = pass_ploy_windows(run(s, ["Activate BLU-2 engage", "End activation"])[0])
        s = attrs.evolve(s, tokens=(*s.tokens, smoke))
        assert _obscured(s) is not scan


def test_auspex_scan_ends_at_the_recon_troopers_next_activation() -> None:
    # Everyone else activates; TP2 begins (A wins the roll-off); KAS-1 activates again.
    s = _after_scan(True)
    s = pass_ploy_windows(run(s, ["Activate KAS-2 engage", "End activation"])[0])
    s = pass_ploy_windows(run(s, ["Activate BLU-1 engage", "End activation"])[0])
    s, _ = run(pass_ploy_windows(s), [], dice=["4,3"])
    s = to_firefight(s.apply("Initiative A")[0])
    s, ev = run(s, ["Activate KAS-1 engage"])
    assert [e["op"] for e in ev if e.kind == "auspex_scan_ended"] == ["KAS-1"]
    # Not within an enemy's control range only.
    close = {**SCAN, "BLU-1": {"at": (15.5, 13.5)}}
    s = lab((RECON, TROOPER), close)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not [t for t in texts(s) if "auspex" in t]


# -------------------------------------------------------------------------------------------
# Tactical Command (Sergeant)
# -------------------------------------------------------------------------------------------

TC = {"KAS-1": {"at": (5, 19.5)}, "KAS-2": {"at": (5, 14.5)}, "BLU-1": {"at": (25, 14.5)}}


def test_tactical_command_gives_one_friend_a_drill_for_0ap() -> None:
    # The Sergeant gives KAS-2 Strike Fast (no drill selected by the player in TP1): KAS-2
    # may then Reposition 7"; the Sergeant keeps its 3AP.
    s = lab((SGT_LASGUN, TROOPER), TC)
    s, _ = run(s, ["Activate KAS-1 engage"])
    give = "Act KAS-1 tactical command strike fast on KAS-2"
    assert give in texts(s)
    s, _ = run(s, [give])
    assert s.operative("KAS-1").ap == 3
    s = pass_ploy_windows(run(s, ["End activation"])[0])
    s = pass_ploy_windows(run(s, ["Activate BLU-1 engage", "End activation"])[0])
    s, _ = run(s, ["Activate KAS-2 engage"])
    assert s.is_legal("Reposition KAS-2 to 12,14.5")


def test_tactical_command_not_a_drill_it_has_and_only_the_sergeant() -> None:
    # Light 'Em Up selected for the kill team: Tactical Command offers only Strike Fast.
    s = gambit(TC, (SGT_LASGUN, TROOPER), initiative="A")
    s, _ = s.apply(LIGHT)
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage"])
    offered = sorted(t for t in texts(s) if "tactical command" in t)
    assert offered == [
        f"Act KAS-1 tactical command {d} on {op}"
        for d in ("for cadia!", "ice in your veins", "strike fast")
        for op in ("KAS-1", "KAS-2")
    ]
    with pytest.raises(IllegalActionError, match="does not have"):
        s.apply("Act KAS-1 tactical command light 'em up on KAS-2")
    s = lab((SGT_LASGUN, TROOPER), TC)
    s, _ = run(s, ["Activate KAS-2 engage"])
    assert not [t for t in texts(s) if "tactical command" in t]


# -------------------------------------------------------------------------------------------
# Give No Ground
# -------------------------------------------------------------------------------------------

# KAS-1 (APL 2) and BLU-1 (APL 2) both contest LAB's objective marker "obj" at (20, 14.5).
TIE = {"KAS-1": {"at": (18.8, 14.5)}, "BLU-1": {"at": (21.3, 14.5)}, "BLU-2": {"at": (25, 20)}}


def _controller(s: GameState, marker: str = "obj") -> str:
    from engine.game.universal import controller
    from engine.game.work import Work

    return controller(Work(s), marker)


def test_give_no_ground_wins_a_2_2_tie_until_the_end_of_the_activation() -> None:
    s = lab((TROOPER,), TIE)
    assert _controller(s) == ""
    s, _ = s.apply("Activate KAS-1 engage")
    # Offered among KAS-1's action choices (between actions), not in a window.
    assert s.node.kind == "action" and "Ploy give no ground obj" in texts(s)  # type: ignore[union-attr]
    s, ev = s.apply("Ploy give no ground obj")
    assert ploys_used(ev) == [("A", "Give No Ground")]
    assert s.players[0].cp_spent == 1 and s.operative("KAS-1").ap == 2
    assert s.node.kind == "action" and _controller(s) == "A"  # type: ignore[union-attr]
    # Once per turning point.
    assert not [t for t in texts(s) if t.startswith("Ploy give no ground")]
    s, _ = run(s, ["End activation"])
    assert _controller(s) == ""


def test_give_no_ground_not_when_the_apl_is_not_2_each() -> None:
    # BLU-2 contests too (A's 2 APL against B's 4): with the ploy B still controls it.
    crowd = {**TIE, "BLU-2": {"at": (21.3, 15.8)}}
    s = lab((TROOPER,), crowd)
    s, _ = s.apply("Activate KAS-1 engage")
    s, _ = s.apply("Ploy give no ground obj")
    assert _controller(s) == "B"
    # A 4-4 tie (two Kasrkin, two APL 2 enemies) is not covered: the dataslate says the
    # Kasrkin's total "is 2" and the enemy's "the same"; a tie controls for neither (4.8).
    four = {**crowd, "KAS-2": {"at": (18.8, 15.8)}}
    s = lab((TROOPER, TROOPER), four)
    assert _controller(s) == ""
    s, _ = s.apply("Activate KAS-1 engage")
    s, _ = s.apply("Ploy give no ground obj")
    assert _controller(s) == ""
    # Nor a 2-2 tie made 3-3 by a rule's APL change (the total that counts for control).
    s = lab((TROOPER,), TIE)
    s, _ = s.apply("Activate KAS-1 engage")
    s, _ = s.apply("Ploy give no ground obj")
    assert _controller(s) == "A"
    plus = tuple(Effect("apl", op, "end_tp", value=1) for op in ("KAS-1", "BLU-1"))
    assert _controller(attrs.evolve(s, effects=(*s.effects, *plus))) == ""
    # Not offered when an enemy operative is activated.
    s = lab((TROOPER,), TIE, turn="B")
    s, _ = s.apply("Activate BLU-1 engage")
    assert not [t for t in texts(s) if t.startswith("Ploy")]


def test_give_no_ground_at_the_end_of_the_firefight_phase_lasts_the_scoring() -> None:
    # Every operative is expended: the firefight_end window opens (kept open for B to pass).
    spent = {k: {**v, "ready": False} for k, v in TIE.items()}
    s = lab((TROOPER,), spent, options=GameOptions(open_windows=True))
    assert s.node.kind == "ploy"  # type: ignore[union-attr]
    assert "Ploy give no ground obj" in texts(s)
    s, _ = s.apply("Ploy give no ground obj")
    assert _controller(s) == "A"
    # B passes, A passes: the firefight_end window closes; the turning_point_end one opens.
    s, _ = run(s, ["Pass", "Pass"])
    assert s.node.kind == "ploy" and _controller(s) == "A"  # type: ignore[union-attr]
    s, ev = run(s, ["Pass", "Pass"])
    assert any(e.kind == "turning_point_ended" for e in ev)
    assert _controller(s) == ""


# -------------------------------------------------------------------------------------------
# Team equipment: Foregrip, Long-Range Scope, Relics Of Cadia, Combat Daggers
# -------------------------------------------------------------------------------------------


def _rules(s: GameState, op: str, weapon: str, target: str, kind: str = "ranged") -> str:
    from engine.game.attacks import attack_profile
    from engine.game.work import Work

    w = Work(s)
    return str(attack_profile(w, w.op(op), weapon, kind, target=target).rules.format())


def _near_far(**kw: Any) -> GameState:
    # BLU-1 about 2" from KAS-1 (edge to edge), BLU-2 about 10" away, both in the open.
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (8.2, 14.5)}, "BLU-2": {"at": (16, 14.5)}}
    return lab((SGT_LASGUN,), ops, **kw)


def test_foregrip_accurate_1_within_3_inches_not_pistols() -> None:
    s = _near_far(equipment={"A": ("Foregrip",)})
    assert "Accurate 1" in _rules(s, "KAS-1", LASGUN, "BLU-1")
    assert "Accurate 1" not in _rules(s, "KAS-1", LASGUN, "BLU-2")
    s = _near_far()
    assert "Accurate 1" not in _rules(s, "KAS-1", LASGUN, "BLU-1")
    pistol = lab(
        (SERGEANT,),
        {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (8.2, 14.5)}},
        equipment={"A": ("Foregrip",)},
    )
    assert "Accurate" not in _rules(pistol, "KAS-1", "plasma pistol (standard)", "BLU-1")


def test_long_range_scope_saturate_beyond_6_inches_hot_shot_only() -> None:
    s = _near_far(equipment={"A": ("Long-Range Scope",)})
    assert "Saturate" in _rules(s, "KAS-1", LASGUN, "BLU-2")
    assert "Saturate" not in _rules(s, "KAS-1", LASGUN, "BLU-1")
    assert "Saturate" not in _rules(_near_far(), "KAS-1", LASGUN, "BLU-2")


def test_combat_daggers_every_kasrkin_gets_one_once_selected() -> None:
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (6.3, 14.5)}}
    s = lab((TROOPER,), ops, equipment={"A": ("Combat Daggers",)})
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert any(t.startswith("Fight KAS-1 combat dagger") for t in texts(s))
    s = lab((TROOPER,), ops)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not any("combat dagger" in t for t in texts(s))


def _relics_shot(attack: str, equipment: bool = True, cp: int = 0) -> tuple[GameState, list[Event]]:
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    kw: dict[str, Any] = {"equipment": {"A": ("Relics Of Cadia",)}} if equipment else {}
    s = lab((TROOPER,), ops, cp=(cp, 0), **kw)
    s, _ = run(s, ["Activate KAS-1 engage", f"Shoot KAS-1 {LASGUN} at BLU-1"], dice=[attack])
    return s, []


def test_relics_of_cadia_two_fails_one_becomes_a_normal_success_once_per_tp() -> None:
    # Hot-shot lasgun 3+: 6,2,1,1 -> the 2 becomes a normal success (shown as the Hit, 3):
    # one crit and one normal retained instead of one crit.
    s, _ = _relics_shot("6,2,1,1")
    assert s.node.kind == "dice_ploy" and "Use relics of cadia" in texts(s)  # type: ignore[union-attr]
    s, ev = s.apply("Use relics of cadia")
    assert [e["rule"] for e in ev if e.kind == "rule_used"] == ["Relics Of Cadia"]
    assert [(e["die"], e["after"]) for e in ev if e.kind == "die_upgraded"] == [(2, "normal")]
    # Nothing else to decide (A has no CP): the dice are retained at once.
    assert [(e["normals"], e["crits"]) for e in ev if e.kind == "attack_retained"] == [(1, 1)]
    # Once per turning point: the next shot with two fails is not offered it.
    from engine.game.work import Work
    from teams.kasrkin.equipment import RELICS_OF_CADIA_RULE

    info = {"op": "KAS-1", "kind": "ranged", "dice": (2, 1), "flags": (False, False)}
    assert RELICS_OF_CADIA_RULE.options(Work(s), "A", info) == []


def test_relics_of_cadia_discards_another_fail() -> None:
    # 6,2,1,1: the 2 is retained as a normal success (a 3) and one 1 is discarded, so the
    # dice left are 6, 3 and 1 (A has CP: the window stays open on them for a re-roll, and
    # the retained die is not among the re-rollable faces).
    from engine.game.shoot import ShootFrame

    s, _ = _relics_shot("6,2,1,1", cp=1)
    s, _ = s.apply("Use relics of cadia")
    frame = next(f for f in s.stack if isinstance(f, ShootFrame))
    assert (frame.dice, frame.flags) == ((6, 3, 1), (False, True, False))
    assert sorted(a.values for a in s.legal_actions() if a.verb == "Command re-roll") == [
        (1,),
        (6,),
    ]


def test_relics_of_cadia_not_with_one_fail_nor_unselected() -> None:
    s, _ = _relics_shot("6,5,4,1")
    assert "Use relics of cadia" not in texts(s)
    s, _ = _relics_shot("6,2,1,1", equipment=False)
    assert "Use relics of cadia" not in texts(s)


# -------------------------------------------------------------------------------------------
# Clearance Sweep
# -------------------------------------------------------------------------------------------

# KAS-1 on the marker's spot (5, 14.5); BLU-1 about 4.5" from it, BLU-2 far.
SWEEP = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (10.5, 14.5)}, "BLU-2": {"at": (16, 8)}}


def test_clearance_sweep_ceaseless_near_the_marker_until_the_next_ready_step() -> None:
    s = gambit(SWEEP, (SGT_LASGUN,), initiative="A")
    spots = [t for t in texts(s) if t.startswith("Ploy clearance sweep")]
    assert "Ploy clearance sweep at 5,14.5" in spots and "Ploy clearance sweep at 15,11" in spots
    assert "Ceaseless" not in _rules(s, "KAS-1", LASGUN, "BLU-1")
    s, ev = s.apply("Ploy clearance sweep at 5,14.5")
    assert ploys_used(ev) == [("A", "Clearance Sweep")]
    assert [narrate(e) for e in ev if e.kind == "clearance_sweep_placed"] == [
        "  A places the Clearance Sweep marker at (5, 14.5)"
    ]
    assert "Ceaseless" in _rules(s, "KAS-1", LASGUN, "BLU-1")
    assert "Ceaseless" not in _rules(s, "KAS-1", LASGUN, "BLU-2")  # the target is too far
    # The Sergeant's Tactical Command places it again (on BLU-2's spot): KAS-1 is now too far.
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage", "Act KAS-1 tactical command clearance sweep at 16,8"])
    assert "Ceaseless" not in _rules(s, "KAS-1", LASGUN, "BLU-1")
    assert [(t.x, t.y) for t in s.tokens if t.kind == "clearance_sweep"] == [(16, 8)]
    # Everyone's activation ends: the next turning point's Ready step removes the marker.
    s, _ = run(s, ["End activation", "Activate BLU-1 engage", "End activation"])
    s, _ = run(s, ["Pass", "Activate BLU-2 engage", "End activation"])
    s = pass_ploy_windows(s)
    # TP3's initiative roll-off: the marker is still there until the Ready step.
    assert s.tp == 3 and any(t.kind == "clearance_sweep" for t in s.tokens)
    s, _ = run(s, [], dice=["4,3"])
    while not (isinstance(s.node, Decision) and s.node.kind == "gambit"):
        s, _ = run(s, [s.legal_actions()[0]])
    assert s.tp == 3 and not any(t.kind == "clearance_sweep" for t in s.tokens)


def test_clearance_sweep_marker_anywhere_in_the_killzone_on_a_1_inch_grid() -> None:
    import math

    s = gambit(SWEEP, (SGT_LASGUN,), initiative="A")
    spots = {
        tuple(float(v) for v in t.rsplit(" ", 1)[1].split(","))
        for t in texts(s)
        if t.startswith("Ploy clearance sweep at ")
    }
    # "In the killzone": a 1" grid over LAB (30" x 22": 31 x 23 points), those on the edges
    # moved in to 0.4" (a 20 mm marker's radius is 0.39": on the edge half of it would be
    # outside), with the operatives' spots, the objective and the centre (15, 11) besides.
    assert {(0.4, 0.4), (29.6, 21.6), (12.0, 7.0), (15.0, 11.0), (10.5, 14.5)} <= spots
    assert (0.0, 0.0) not in spots and (30.0, 11.0) not in spots
    # The grid, plus the spots off it: KAS-1's (5, 14.5), BLU-1's (10.5, 14.5) and the
    # objective marker's (20, 14.5); BLU-2's (16, 8) and the centre are on it.
    assert len(spots) == 31 * 23 + 3
    # Any point the marker could be placed at is within half the grid's diagonal (0.71")
    # of a spot.
    for x, y in ((0.4, 0.4), (0.9, 0.9), (12.5, 7.5), (29.1, 21.1), (17.49, 3.51)):
        assert min(math.hypot(x - a, y - b) for a, b in spots) <= math.sqrt(0.5) + 1e-9
    # A spot on no operative and no marker: Ceaseless for KAS-1 (5, 14.5) shooting BLU-1
    # (10.5, 14.5), both within 5" of (8, 12); and placing it there is legal.
    s, _ = s.apply("Ploy clearance sweep at 8,12")
    assert [(t.x, t.y) for t in s.tokens if t.kind == "clearance_sweep"] == [(8, 12)]
    assert "Ceaseless" in _rules(s, "KAS-1", LASGUN, "BLU-1")
    # A point off the grid is not offered (the notation takes the spots listed).
    with pytest.raises(IllegalActionError, match="one of"):
        gambit(SWEEP, (SGT_LASGUN,), initiative="A").apply("Ploy clearance sweep at 8.3,12")


def test_clearance_sweep_only_kasrkin_shooters_and_tactical_command_needs_the_marker() -> None:
    s = gambit(SWEEP, (SGT_LASGUN,), initiative="A")
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not [t for t in texts(s) if "tactical command clearance sweep" in t]
    s = gambit(SWEEP, (SGT_LASGUN,), initiative="A")
    s, _ = s.apply("Ploy clearance sweep at 5,14.5")
    assert "Ceaseless" not in _rules(s, "BLU-1", "gun", "KAS-1")


# -------------------------------------------------------------------------------------------
# Cover Retreat
# -------------------------------------------------------------------------------------------

# KAS-1 in BLU-1's control range; KAS-2 about 2" from KAS-1 (conceal), clear of enemies;
# KAS-3 far away.
RETREAT: dict[str, dict[str, Any]] = {
    "KAS-1": {"at": (10, 14.5)},
    "KAS-2": {"at": (8, 17), "order": "conceal"},
    "KAS-3": {"at": (2, 4)},
    "BLU-1": {"at": (11.5, 14.5)},
}


def test_cover_retreat_a_friend_shoots_for_free_after_the_fall_back_move() -> None:
    s = lab((TROOPER,) * 3, RETREAT)
    s, _ = run(s, ["Activate KAS-1 engage", "Fall back KAS-1 to 6,14.5"])
    assert s.node.kind == "ploy" and s.stack[-1].trigger == "moved"  # type: ignore[union-attr,attr-defined]
    assert [t for t in texts(s) if t.startswith("Ploy")] == ["Ploy cover retreat on KAS-2"]
    s, ev = s.apply("Ploy cover retreat on KAS-2")
    assert ploys_used(ev) == [("A", "Cover Retreat")]
    assert s.operative("KAS-2").order == "engage"
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    assert any(t.startswith("Shoot KAS-2") for t in texts(s))
    s, _ = run(s, [f"Shoot KAS-2 {LASGUN} at BLU-1"])
    assert s.node.request.kind == "attack"  # type: ignore[union-attr]
    # Then the Fall Back ends, and KAS-1's activation (2AP spent); KAS-2 is still ready.
    s, _ = run(s, [], dice=["1,1,1,1"])
    s, _ = run(decline(s), [], dice=["1,1,1"])
    s = pass_ploy_windows(decline(s))
    assert s.operative("KAS-2").ready and s.operative("KAS-2").done == ()
    assert not s.operative("KAS-1").ready


def test_cover_retreat_only_after_a_fall_back_and_not_for_a_friend_near_enemies() -> None:
    s = lab((TROOPER,) * 3, {**RETREAT, "BLU-1": {"at": (16, 14.5)}})
    s, _ = run(s, ["Activate KAS-1 engage", "Reposition KAS-1 to 7,14.5"])
    assert s.node.kind == "action"  # type: ignore[union-attr]
    # KAS-2 within BLU-2's control range: it cannot be selected.
    near = {**RETREAT, "BLU-2": {"at": (9.2, 17)}}
    s = lab((TROOPER,) * 3, near)
    s, _ = run(s, ["Activate KAS-1 engage", "Fall back KAS-1 to 6,14.5"])
    assert not (isinstance(s.node, Decision) and s.node.kind == "ploy")


# -------------------------------------------------------------------------------------------
# Adaptive Equipment
# -------------------------------------------------------------------------------------------

ADAPT = {
    "KAS-1": {"at": (5, 14.5)},
    "KAS-2": {"at": (5, 10)},
    "KAS-3": {"at": (5, 4)},
    "BLU-1": {"at": (10, 14.5)},
}


def test_adaptive_equipment_troopers_throw_smoke_and_stun_once_per_tp_each() -> None:
    s = lab((TROOPER, TROOPER, RECON), ADAPT)
    s, _ = run(s, ["Activate KAS-1 engage"])
    acts = texts(s)
    assert "Act KAS-1 adaptive smoke grenade at 5,14.5" in acts
    assert "Act KAS-1 adaptive stun grenade on BLU-1" in acts
    assert not [t for t in acts if t.startswith("Act KAS-1 smoke grenade")]  # none selected
    s, ev = run(s, ["Act KAS-1 adaptive smoke grenade at 5,14.5"])
    assert [e["marker"] for e in ev if e.kind == "smoke_placed"] == ["A adaptive smoke 1"]
    assert s.operative("KAS-1").ap == 1
    s, ev = run(s, ["Act KAS-1 adaptive stun grenade on BLU-1"], dice=["6"])
    assert [(e["op"], e["stunned"]) for e in ev if e.kind == "stun_test"] == [("BLU-1", True)]
    # Once per turning point each, for the whole kill team: KAS-2 may not throw smoke, but
    # the stun grenade is still unused.
    s = lab((TROOPER, TROOPER, RECON), ADAPT)
    s, _ = run(s, ["Activate KAS-1 engage", "Act KAS-1 adaptive smoke grenade at 5,14.5"])
    s, _ = run(s, ["End activation", "Activate BLU-1 engage", "End activation"])
    s, _ = run(s, ["Activate KAS-2 engage"])
    acts = texts(s)
    assert not [t for t in acts if "adaptive smoke" in t]
    assert [t for t in acts if "adaptive stun" in t] == ["Act KAS-2 adaptive stun grenade on BLU-1"]


def test_adaptive_equipment_only_troopers() -> None:
    s = lab((TROOPER, TROOPER, RECON), ADAPT, turn="A")
    s, _ = run(s, ["Activate KAS-3 engage"])
    assert not [t for t in texts(s) if "adaptive" in t]


# -------------------------------------------------------------------------------------------
# Medic!
# -------------------------------------------------------------------------------------------

# KAS-2 (1 wound left) about 1.4" from the Medic KAS-1; BLU-1 shoots it from the open lane.
MEDIC_SCENE: dict[str, dict[str, Any]] = {
    "KAS-1": {"at": (16, 17)},
    "KAS-2": {"at": (16, 14.5), "wounds": 1},
    "KAS-3": {"at": (25, 4), "wounds": 1},
    "BLU-1": {"at": (5, 14.5)},
}


def _blu_shoots(
    s: GameState, target: str, medic: str = "Use medic!"
) -> tuple[GameState, list[Event]]:
    """BLU-1 shoots ``target``: hits 6,5,4,3 (a crit and three normals), no saves; A answers
    Medic!'s question with ``medic`` (``""``: stop there)."""
    s, ev = run(s, ["Activate BLU-1 engage", f"Shoot BLU-1 gun at {target}"], dice=["6,5,4,3"])
    s = decline(s)
    s, ev2 = run(s, [], dice=["1,1,1"])
    while isinstance(s.node, Decision) and s.node.kind in ("dice_ploy", "ploy", "team_rule"):
        if s.node.kind == "team_rule" and not medic:
            break
        choice = {"ploy": str(s.legal_actions()[0]), "team_rule": medic}.get(s.node.kind)
        s, more = s.apply(choice or "Decline")
        ev2 += more
    return s, ev + ev2


def test_medic_is_the_players_choice_declined_the_friend_falls() -> None:
    s = lab((MEDIC, TROOPER, TROOPER), MEDIC_SCENE, turn="B")
    s, ev = _blu_shoots(s, "KAS-2", medic="")
    # KAS-2 would be incapacitated: A chooses, KAS-2 kept at 1 wound meanwhile.
    assert s.node == Decision("A", "team_rule")
    assert texts(s) == ["Decline", "Use medic!"]
    assert s.operative("KAS-2").wounds == 1 and not s.operative("KAS-2").incapacitated
    assert not [e for e in ev if e.kind in ("medic_used", "operative_incapacitated")]
    # Declined: incapacitated now (by BLU-1); no APL loss, no free Dash, Medic! kept.
    s, ev = s.apply("Decline")
    assert [(e["op"], e["by"]) for e in ev if e.kind == "operative_incapacitated"] == [
        ("KAS-2", "BLU-1")
    ]
    assert not [e for e in s.effects if e.kind == "apl"]
    from engine.game.work import Work
    from teams.kasrkin.common import player_token

    assert not player_token(Work(s), "A", "kasrkin_medic_used")  # still usable this TP


def test_medic_keeps_a_friend_in_the_fight_once_per_tp() -> None:
    s = lab((MEDIC, TROOPER, TROOPER), MEDIC_SCENE, turn="B")
    s, ev = _blu_shoots(s, "KAS-2")
    assert [(e["medic"], e["op"]) for e in ev if e.kind == "medic_used"] == [("KAS-1", "KAS-2")]
    assert [narrate(e) for e in ev if e.kind == "medic_used"] == [
        "  KAS-1: Medic! KAS-2 stays in the fight (1W)"
    ]
    # Every later hit of that action leaves it at 1 wound: never incapacitated.
    assert not [e for e in ev if e.kind == "operative_incapacitated"]
    k2 = s.operative("KAS-2")
    assert k2.wounds == 1 and not k2.incapacitated
    apl = [(e.op, e.value) for e in s.effects if e.kind == "apl"]
    assert sorted(apl) == [("KAS-1", -1), ("KAS-2", -1)]
    # After that action KAS-2 may Dash for free, ending within the Medic's control range.
    assert s.node.kind == "free_action" and s.node.player == "A"  # type: ignore[union-attr]
    dashes = [t for t in texts(s) if t.startswith("Dash KAS-2")]
    assert dashes and "End activation" in texts(s)
    with pytest.raises(IllegalActionError, match="Medic!"):
        s.apply("Dash KAS-2 to 16,12")
    s, _ = s.apply(dashes[0])
    assert s.node.kind == "action" and s.node.player == "B"  # type: ignore[union-attr]
    # Once per turning point: Medic! would not save KAS-2 (nor another) again.
    from engine.game.work import Work
    from teams.kasrkin.faction import medic_for

    assert medic_for(Work(s), "KAS-2") == ""
    # The Medikit cannot select it this turning point (the Medic moved next to it).
    near = {**MEDIC_SCENE, "KAS-1": {"at": (16, 15.8)}}
    s2 = lab((MEDIC, TROOPER, TROOPER), near, turn="B")
    s2, _ = _blu_shoots(s2, "KAS-2")
    assert s2.operative("KAS-2").wounds == 1
    s2, _ = run(s2, ["End activation"])  # KAS-2 declines its free Dash
    s2, _ = run(pass_ploy_windows(s2), ["End activation", "Activate KAS-1 engage"])
    assert not [t for t in texts(s2) if "medikit on KAS-2" in t]


def test_medic_not_beyond_3_inches_and_only_once_per_tp() -> None:
    # KAS-3 is far from the Medic: incapacitated.
    far = {**MEDIC_SCENE, "KAS-3": {"at": (20.5, 14.5), "wounds": 1}}
    s = lab((MEDIC, TROOPER, TROOPER), far, turn="B")
    s, ev = _blu_shoots(s, "KAS-3")
    assert not [e for e in ev if e.kind == "medic_used"]
    assert s.operative("KAS-3").incapacitated or not s.operative("KAS-3").placed


# -------------------------------------------------------------------------------------------
# Melta Mine, Proximity Mine
# -------------------------------------------------------------------------------------------

DEMO = "Kasrkin Demo Trooper"


def _demo(ops: Mapping[str, Mapping[str, Any]], carried: bool = True, **kw: Any) -> GameState:
    at = ops["KAS-1"]["at"]
    spec = {"kind": "melta_mine", "owner": "A", "at": at}
    if carried:
        ops = {**ops, "KAS-1": {**ops["KAS-1"], "carrying": "A melta mine"}}
    return lab((DEMO, TROOPER), ops, tokens=[spec], **kw)


def test_melta_mine_placed_then_free_dash_and_proximity_mine_goes_off() -> None:
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (12, 14.5)}}
    s = _demo(ops)
    s, _ = run(s, ["Activate KAS-1 engage", "Place marker KAS-1 at 5,14.5"])
    assert s.node.kind == "free_action"  # type: ignore[union-attr]
    assert all(t.startswith("Dash KAS-1") or t == "End activation" for t in texts(s))
    s, _ = run(s, ["Dash KAS-1 to 5,17.5"])
    assert s.operative("KAS-1").ap == 1  # the Dash was free
    # BLU-1 walks onto the mine: removed, 2D6+3 damage (4+3+3 = 10).
    s, _ = run(s, ["End activation", "Activate BLU-1 engage", "Reposition BLU-1 to 6.5,14.5"])
    s, ev = run(s, [], dice=["4,3"])
    assert [e["damage"] for e in ev if e.kind == "melta_mine_damage"] == [10]
    assert not [t for t in s.tokens if t.kind == "melta_mine"]
    assert any(e.kind == "operative_incapacitated" and e["op"] == "BLU-1" for e in ev)


def test_proximity_mine_ends_the_action_where_it_goes_off() -> None:
    # BLU-1 repositions from 12 to 6.5 across the mine at 5: it stops where the mine came
    # within its control range (about 2" short), takes 1+1+3 = 5 damage and survives there.
    ops = {"KAS-1": {"at": (5, 17.5)}, "BLU-1": {"at": (12, 14.5)}}
    s = lab((DEMO, TROOPER), ops, tokens=[{"kind": "melta_mine", "owner": "A", "at": (5, 14.5)}])
    s, _ = run(s, ["Activate KAS-1 engage", "End activation", "Activate BLU-1 engage"])
    s, ev = run(s, ["Reposition BLU-1 to 6.5,14.5"])
    stop = [(e["op"], e["x"]) for e in ev if e.kind == "melta_mine_stopped"]
    assert len(stop) == 1 and stop[0][0] == "BLU-1" and stop[0][1] > 6.5
    s, ev = run(s, [], dice=["1,1"])
    assert [e["damage"] for e in ev if e.kind == "melta_mine_damage"] == [5]
    assert s.operative("BLU-1").x == stop[0][1] and s.operative("BLU-1").wounds > 0


def test_proximity_mine_judges_the_route_taken_not_the_straight_segment() -> None:
    # LAB with a 5" Heavy screen at x 19.8-20.2, y 6.5-8 (tests/test_equipment_markers):
    # BLU-1 Repositions from (18.5, 7) to (21.5, 7) around its south end (y 5.87). A mine at
    # (20, 8.6), north of it, is within control range of the straight segment (the old
    # reading set it off) but not of the route: nothing happens. A mine at (20, 4.5) is 2.5"
    # from the straight segment (out of range) but within range of the route: BLU-1 stops
    # on the route south of the screen (y below 7), and takes 1 + 1 + 3 = 5 damage.
    from tests.test_equipment_markers import screen_killzone

    kz = screen_killzone()
    kas = Roster.from_entries(lab_team("kasrkin"), [DEMO, TROOPER])
    ops = {"KAS-1": {"at": (5, 17.5)}, "BLU-1": {"at": (18.5, 7)}}
    for at, goes_off in (((20, 8.6), False), ((20, 4.5), True)):
        mine = [{"kind": "melta_mine", "owner": "A", "at": at}]
        s = position(kz, kas, roster(BLU, ("Trooper",)), operatives=ops, tokens=mine)
        s, _ = run(s, ["Activate KAS-1 engage", "End activation", "Activate BLU-1 engage"])
        s, ev = run(s, ["Reposition BLU-1 to 21.5,7"])
        stop = [(e["x"], e["y"]) for e in ev if e.kind == "melta_mine_stopped"]
        if not goes_off:
            assert not stop and len(s.tokens) == 1
            assert (s.operative("BLU-1").x, s.operative("BLU-1").y) == (21.5, 7)
            continue
        assert len(stop) == 1 and stop[0][1] < 7
        s, ev = run(s, [], dice=["1,1"])
        assert [e["damage"] for e in ev if e.kind == "melta_mine_damage"] == [5]


def test_melta_mine_not_placed_in_enemy_control_range_and_only_the_demo_picks_it_up() -> None:
    s = _demo({"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (6.3, 14.5)}})
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not [t for t in texts(s) if t.startswith("Place marker")]
    with pytest.raises(IllegalActionError, match="Melta Mine"):
        s.apply("Place marker KAS-1 at 5,14.5")
    # On the floor next to the Demo Trooper (which never sets it off): it may pick it up.
    s = _demo({"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}, carried=False)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert "Pick up KAS-1 a melta mine" in texts(s)
    assert s.tokens and s.tokens[0].kind == "melta_mine"


def test_proximity_mine_a_friendly_operative_sets_it_off_too() -> None:
    ops = {"KAS-1": {"at": (5, 14.5)}, "KAS-2": {"at": (5, 10)}, "BLU-1": {"at": (16, 14.5)}}
    s = _demo(ops, carried=False)
    s, _ = run(s, ["Activate KAS-2 engage", "Reposition KAS-2 to 5.5,13"])
    s, ev = run(s, [], dice=["1,1"])
    assert [(e["op"], e["damage"]) for e in ev if e.kind == "melta_mine_damage"] == [("KAS-2", 5)]


def test_proximity_mine_ends_the_fall_back_no_cover_retreat_after_it() -> None:
    # KAS-1 falls back from (10, 14.5) to (6, 14.5) past A's own Melta Mine at (7.5, 13)
    # (KAS-3 is the Demo Trooper, far away): the mine goes off mid-move (about x = 8.85),
    # 1+1+3 = 5 damage, KAS-1 survives, and "end its action" ends the Fall Back there: the
    # window after the move (Cover Retreat, offered without the mine) never opens.
    mine = [{"kind": "melta_mine", "owner": "A", "at": (7.5, 13)}]
    s = lab((TROOPER, TROOPER, DEMO), RETREAT, tokens=mine)
    s, ev = run(s, ["Activate KAS-1 engage", "Fall back KAS-1 to 6,14.5"])
    stop = [e["x"] for e in ev if e.kind == "melta_mine_stopped"]
    assert len(stop) == 1 and 8.5 < stop[0] < 9.2
    s, ev = run(s, [], dice=["1,1"])
    assert [(e["op"], e["damage"]) for e in ev if e.kind == "melta_mine_damage"] == [("KAS-1", 5)]
    assert s.operative("KAS-1").alive and s.operative("KAS-1").x == stop[0]
    assert not (isinstance(s.node, Decision) and s.node.kind == "ploy")
    assert not [t for t in texts(s) if "cover retreat" in t]
    assert not any(e.kind == "effect_began" and e["effect"] == "action_cut" for e in ev)
    assert not [e for e in s.effects if e.kind == "action_cut"]  # cleared with the move


def test_proximity_mine_moves_the_operative_the_minimum_amount_to_place_it() -> None:
    # BLU-1 repositions from 12 to 6.5 along y = 14.5 past the mine at (5, 14.5); the mine
    # comes within its control range about x = 7.02, where BLU-2's base (at 7.8) leaves no
    # room: BLU-1 is moved the minimum amount to a place its base fits (about x = 6.54,
    # 1.26" from BLU-2: the two 32 mm bases touching).
    ops = {
        "KAS-1": {"at": (5, 17.5)},
        "BLU-1": {"at": (12, 14.5)},
        "BLU-2": {"at": (7.8, 14.5)},
    }
    s = lab((DEMO, TROOPER), ops, tokens=[{"kind": "melta_mine", "owner": "A", "at": (5, 14.5)}])
    s, _ = run(s, ["Activate KAS-1 engage", "End activation", "Activate BLU-1 engage"])
    s, ev = run(s, ["Reposition BLU-1 to 6.5,14.5"])
    stop = [(e["x"], e["y"]) for e in ev if e.kind == "melta_mine_stopped"]
    assert len(stop) == 1
    import math

    b1, b2 = s.operative("BLU-1"), s.operative("BLU-2")
    gap = math.hypot(b1.x - b2.x, b1.y - b2.y)
    radius = 32 / 25.4 / 2
    assert gap >= 2 * radius - 1e-6  # placed: no overlap
    assert gap < 2 * radius + 0.06  # the minimum amount: touching (0.05" search rings)
    assert abs(b1.x - 6.54) < 0.07 and abs(b1.y - 14.5) < 0.07


# -------------------------------------------------------------------------------------------
# Advice: the heuristic agent uses the team's rules where they pay
# -------------------------------------------------------------------------------------------


def _heuristic(s: GameState) -> str:
    from engine.agents.heuristic import HeuristicAgent

    return str(HeuristicAgent(seed=1).act(s))


def test_advice_heuristic_selects_light_em_up_in_the_gambit_step() -> None:
    s = gambit(SHOOT_OPEN, (TROOPER,), initiative="A", cp=(0, 3))
    # 1CP only (kept for Command Re-roll): no ploy, but the free Skill At Arms.
    assert s.players[0].cp == 1
    assert _heuristic(s) == "Use skill at arms light 'em up"


def test_advice_heuristic_uses_neutralise_target_on_a_poor_roll() -> None:
    # Three fails against a target in the open: re-rolling them is worth a CP (3CP left).
    s = gambit(SHOOT_OPEN, (TROOPER,), initiative="A", cp=(2, 3))
    s = to_firefight(s)
    s, _ = run(s, ["Activate KAS-1 engage", f"Shoot KAS-1 {LASGUN} at BLU-1"], dice=["6,2,1,1"])
    assert "Ploy neutralise target 2,1,1" in texts(s)
    from engine.game.work import Work
    from teams.kasrkin.firefight_ploys import NEUTRALISE_TARGET_PLOY

    w = Work(s)
    info = s.stack[-1].dice_info(w)  # type: ignore[attr-defined]
    fails = Action("Ploy", text="neutralise target 2,1,1")
    gain = NEUTRALISE_TARGET_PLOY.advice(w, "A", fails, info)
    assert gain > 0.1
    # Re-rolling the crit too is worth less than re-rolling only the fails.
    worse = NEUTRALISE_TARGET_PLOY.advice(
        w, "A", Action("Ploy", text="neutralise target 6,2,1,1"), info
    )
    assert worse < gain
    assert _heuristic(s) in (
        "Ploy neutralise target 2,1,1",
        "Command re-roll 1",
        "Command re-roll 2",
    )


def test_advice_heuristic_performs_the_medikit_on_a_badly_wounded_friend() -> None:
    # Under a Conceal order far from the enemy (no shot): the 0AP Medikit on KAS-2 (2W of 8
    # left) beats moving and ending the activation.
    ops = {
        "KAS-1": {"at": (5, 14.5), "order": "conceal"},
        "KAS-2": {"at": (5, 16.0), "wounds": 2},
        "BLU-1": {"at": (25, 14.5)},
    }
    s, _ = run(lab((MEDIC, TROOPER), ops), ["Activate KAS-1 conceal"])
    assert _heuristic(s) == "Act KAS-1 medikit on KAS-2"


def test_advice_heuristic_uses_give_no_ground_before_scoring() -> None:
    # The 2-2 tie on "obj" at the end of the Firefight phase: worth a VP to the heuristic.
    spent = {k: {**v, "ready": False} for k, v in TIE.items()}
    s = lab((TROOPER,), spent, cp=(2, 2))
    assert s.node.kind == "ploy"  # type: ignore[union-attr]
    assert _heuristic(s) == "Ploy give no ground obj"
    # Without a tie (BLU-1 away) it passes.
    away = {**spent, "BLU-1": {"at": (27, 3), "ready": False}}
    s = lab((TROOPER,), away, cp=(2, 2), options=GameOptions(open_windows=True))
    assert _heuristic(s) == "Pass"


def test_relics_of_cadia_when_retaliating() -> None:
    # BLU-1 fights KAS-1; KAS-1 retaliates with its gun butt (4+) rolling 4,1,1: one of the
    # two fails becomes a normal success, the other is discarded (2 normal successes to
    # resolve, no die left over).
    ops = {"KAS-1": {"at": (5, 14.5)}, "BLU-1": {"at": (6.3, 14.5)}}
    s = lab((TROOPER,), ops, cp=(0, 0), turn="B", equipment={"A": ("Relics Of Cadia",)})
    s, _ = run(s, ["Activate BLU-1 engage", "Fight BLU-1 knife at KAS-1"], dice=["5,5,1", "4,1,1"])
    assert s.node.kind == "dice_ploy" and s.node.player == "A"  # type: ignore[union-attr]
    s, ev = s.apply("Use relics of cadia")
    assert s.stack[-1].ddice == (4, 4)  # type: ignore[attr-defined]
    assert [(e["op"], e["die"]) for e in ev if e.kind == "die_upgraded"] == [("KAS-1", 1)]


def test_adaptive_equipment_is_the_same_action_as_the_selected_grenade() -> None:
    # With Utility Grenades (smoke) selected too: after the adaptive smoke grenade, the
    # selected one is not offered in the same activation (one Smoke Grenade action each).
    s = lab((TROOPER, TROOPER, RECON), ADAPT, equipment={"A": ("Utility Grenades (2 smoke)",)})
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert any(t.startswith("Act KAS-1 smoke grenade") for t in texts(s))
    s, _ = run(s, ["Act KAS-1 adaptive smoke grenade at 5,14.5"])
    assert not [t for t in texts(s) if "smoke grenade" in t]


def test_give_no_ground_on_one_of_its_mission_markers() -> None:
    # A's banner (a mission marker) at (10.1, 4.5), contested 2-2 by KAS-1 and BLU-1.
    from engine.game.work import Work
    from engine.rules.equipment.markers import token_controller

    ops = {"KAS-1": {"at": (9, 4.5)}, "BLU-1": {"at": (11.2, 4.5)}, "BLU-2": {"at": (25, 20)}}
    s = lab((TROOPER,), ops, tokens=[{"kind": "banner", "owner": "A", "at": (10.1, 4.5)}])
    assert token_controller(Work(s), s.tokens[0]) == ""
    s, _ = s.apply("Activate KAS-1 engage")
    assert "Ploy give no ground a banner" in texts(s)
    s, _ = s.apply("Ploy give no ground a banner")
    assert token_controller(Work(s), s.tokens[0]) == "A"


def test_proximity_mine_goes_off_when_a_hatchway_opens_sight_to_it() -> None:
    # Close Quarters: A's Melta Mine marker in the hall just east of the closed west hatch,
    # 0.6" from KAS-2 (a Trooper) west of it: not within its control range (no sight through
    # the wall, 4.2). KAS-2 operates the hatch: now within it, the mine goes off on KAS-2
    # (another operative than the Demo Trooper) without anyone moving: 1+1+3 damage.
    from engine.geometry import load_killzone

    cq = load_killzone("close_quarters")
    kas = Roster.from_entries(lab_team("kasrkin"), [DEMO, TROOPER])
    ops = {
        "KAS-1": {"at": (4.0, 4.0)},
        "KAS-2": {"at": (10.2, 11.0)},
        "BLU-1": {"at": (27.0, 4.0)},
        "BLU-2": {"at": (27.0, 8.0)},
    }
    mine = [{"kind": "melta_mine", "owner": "A", "at": (11.8, 11.0)}]
    s = position(cq, kas, roster(BLU, ("Trooper", "Trooper")), operatives=ops, tokens=mine)
    assert s.tokens and s.tokens[0].kind == "melta_mine"  # not set off through the wall
    s, _ = run(s, ["Activate KAS-2 engage"])
    s, ev = run(pass_ploy_windows(s), ["Operate hatch KAS-2 west hatch"], dice=["1,1"])
    assert [(e["op"], e["damage"]) for e in ev if e.kind == "melta_mine_damage"] == [("KAS-2", 5)]
    assert not [t for t in s.tokens if t.kind == "melta_mine"]
