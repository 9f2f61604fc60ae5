"""The Kommandos' operatives' rules (``teams/kommandos/abilities.py``, ``actions.py``): one
scripted test per ability and unique action at least, named after it, on the LAB killzone
against the BLU test team (``tests/test_game_rules_common.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import teams.kommandos  # noqa: F401  (registers the rules)
from engine.game import Decision, GameState, IllegalActionError
from engine.game.scenario import position
from engine.game.work import Work
from engine.missions import kill_op
from engine.teams.model import Roster
from tests.test_game_rules_common import BLU, LAB, OPTIONS_PICKUP, play, roster
from tests.test_team_weapon_rules import lab_team

NOB = "Kommando Boss Nob [Slugga; Power Klaw]"
GROT = "Kommando Grot"
SQUIG = "Kommando Bomb Squig"
SLASHA = "Kommando Slasha Boy"
COMMS = "Kommando Comms Boy"
BOY = "Kommando Boy"
UTILITY = "Utility Grenades (smoke and stun)"


def kom(
    types: Sequence[str],
    operatives: Mapping[str, Any],
    blu: Sequence[str] = ("Trooper", "Gunner"),
    **kw: Any,
) -> GameState:
    """A LAB position: Kommandos (player A, roster entries with loadouts, KOM-1...) against
    the BLU test team (BLU-1...); no CP by default, so that no Command Re-roll is offered."""
    kw.setdefault("cp", (0, 0))
    team = Roster.from_entries(lab_team("kommandos"), list(types))
    return position(LAB, team, roster(BLU, tuple(blu)), operatives=operatives, **kw)


def legal(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def refused(s: GameState, action: str) -> str:
    """The refusal of ``action`` in ``s`` ("" when it is allowed)."""
    try:
        s.apply(action)
    except IllegalActionError as e:
        return str(e)
    return ""


# -- Throat Slittas ----------------------------------------------------------------------------


def test_throat_slittas_a_concealed_kommando_charges() -> None:
    # A Boy with a Conceal order 5" from BLU-1: the core forbids a Conceal Charge (1.5), but
    # Throat Slittas allows it, so Charge destinations are listed and the charge is made.
    s = kom([BOY], {"KOM-1": {"at": (5, 14)}, "BLU-1": {"at": (11, 14)}})
    s, _ = play(s, ["Activate KOM-1 conceal"])
    assert any(a.startswith("Charge KOM-1") for a in legal(s))
    s, _ = play(s, ["Charge KOM-1 to 9.44,14"])
    assert s.operative("KOM-1").x == pytest.approx(9.44)
    assert s.operative("KOM-1").order == "conceal"


def test_throat_slittas_not_the_bomb_squig() -> None:
    # The Bomb Squig is excluded; besides, Stoopid never lets it have a Conceal order, so it
    # is given one here directly (as set up): it cannot Charge with it.
    s = kom([SQUIG], {"KOM-1": {"at": (5, 14), "order": "conceal"}, "BLU-1": {"at": (11, 14)}})
    s, _ = play(s, ["Activate KOM-1 engage"])
    assert any(a.startswith("Charge KOM-1") for a in legal(s))  # engaged: it may
    w = Work(s)
    from engine.game import universal

    o = w.set_op("KOM-1", order="conceal")
    assert "Conceal order cannot Charge" in str(universal.precheck(w, o, "Charge", "activation"))


def test_throat_slittas_not_an_enemy() -> None:
    # BLU-1 (the opponent's) with a Conceal order cannot Charge: the rule is the Kommandos'.
    s = kom([BOY], {"KOM-1": {"at": (11, 14)}, "BLU-1": {"at": (5, 14)}}, initiative="B")
    s, _ = play(s, ["Activate BLU-1 conceal"])
    assert not any(a.startswith("Charge BLU-1") for a in legal(s))


# -- Krumpin' Time -----------------------------------------------------------------------------

NOB_VS_BLU = {"KOM-1": {"at": (7.44, 14)}, "BLU-1": {"at": (9, 14)}}


def nob_fights(s: GameState) -> GameState:
    """KOM-1 fights BLU-1 with its power klaw: both miss entirely (no dice succeed)."""
    s, _ = play(s, ["Fight KOM-1 power klaw at BLU-1"], ["1,1,1,1", "1,1,1"])
    return s


def test_krumpin_time_boss_nob_fights_twice() -> None:
    # After a first Fight (both miss), the Fight action is listed again (once per
    # activation otherwise, 1.5); after the second it is not (two Fight actions, no more).
    s = kom([NOB], NOB_VS_BLU, blu=("Captain",))
    s, _ = play(s, ["Activate KOM-1 engage"])
    s = nob_fights(s)
    assert "Fight KOM-1 power klaw at BLU-1" in legal(s)
    s = nob_fights(s)
    assert s.operative("KOM-1").ap == 1  # 3AP (APL 3), two Fights of 1AP each
    assert "Fight KOM-1 power klaw at BLU-1" not in legal(s)
    assert "once per activation" in refused(s, "Fight KOM-1 power klaw at BLU-1")


def test_krumpin_time_only_the_boss_nob() -> None:
    # A Boy (APL 2) fights once per activation as usual.
    s = kom([BOY], NOB_VS_BLU, blu=("Captain",))
    s, _ = play(s, ["Activate KOM-1 engage", "Fight KOM-1 choppa at BLU-1"], ["1,1,1,1", "1,1,1"])
    assert "once per activation" in refused(s, "Fight KOM-1 choppa at BLU-1")


# -- Expendable --------------------------------------------------------------------------------


def test_expendable_bomb_squig_ignored_for_the_kill_op() -> None:
    # A Boy and a Bomb Squig: the starting number for the opponent's kill op is 1 (not 2),
    # the Squig's incapacitation is no kill, and it is ignored for the kill op (Envoy).
    s = kom(
        [BOY, SQUIG], {"KOM-1": {"at": (5, 14)}, "KOM-2": {"at": (5, 4)}, "BLU-1": {"at": (25, 14)}}
    )
    w = Work(s)
    assert kill_op.kill_op_starting(w, "A") == 1
    assert not kill_op.counts_for_kill_op(w, w.op("KOM-2"))
    assert kill_op.counts_for_kill_op(w, w.op("KOM-1"))
    w.set_op("KOM-2", incapacitated=True)
    assert kill_op.kill_op_kills(w, "A") == 0
    from engine.missions.tac_ops.envoy import ignored_for_kill_op

    assert ignored_for_kill_op(w, "KOM-2") and not ignored_for_kill_op(w, "KOM-1")


def test_expendable_shooting_the_squig_scores_no_kill_grade() -> None:
    # BLU-1 shoots the Squig (5 wounds) with 2 critical hits of 4: incapacitated, yet B's
    # kill grade stays 0 (with the Squig counted it would be 1 of 2: grade... any kill).
    s = kom(
        [BOY, SQUIG],
        {"KOM-1": {"at": (5, 20)}, "KOM-2": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}},
        initiative="B",
    )
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at KOM-2"], ["6,6,1,1", "1,1,1"])
    assert s.operative("KOM-2").incapacitated or not s.operative("KOM-2").placed
    assert s.player("B").kill_grade == 0 and s.player("B").vp == 0


# -- Stoopid -----------------------------------------------------------------------------------


def test_stoopid_bomb_squig_cannot_be_given_conceal() -> None:
    # At its activation only Engage is offered for the Squig (a Boy gets both orders), and
    # Conceal is refused, naming the rule.
    s = kom(
        [SQUIG, BOY], {"KOM-1": {"at": (5, 14)}, "KOM-2": {"at": (5, 4)}, "BLU-1": {"at": (25, 14)}}
    )
    acts = legal(s)
    assert "Activate KOM-1 engage" in acts and "Activate KOM-1 conceal" not in acts
    assert "Activate KOM-2 conceal" in acts
    assert "Stoopid" in refused(s, "Activate KOM-1 conceal")


def test_stoopid_bomb_squig_only_basic_actions() -> None:
    # The Squig carries nothing, on the objective marker: Pick Up is refused (Stoopid), as
    # is the Smoke Grenade action though A selected Utility Grenades; a Boy may do both.
    ops = {"KOM-1": {"at": (19.2, 14.5)}, "KOM-2": {"at": (20.8, 14.5)}, "BLU-1": {"at": (25, 20)}}
    kw: dict[str, Any] = {"options": OPTIONS_PICKUP, "equipment": {"A": [UTILITY]}}
    s = kom([SQUIG, BOY], ops, **kw)
    s, _ = play(s, ["Activate KOM-1 engage"])
    acts = legal(s)
    assert not any(a.startswith("Pick up") or "grenade" in a for a in acts)
    assert "Stoopid" in refused(s, "Pick up KOM-1 obj")
    assert any(a.startswith("Reposition KOM-1") for a in acts)  # its basic actions remain
    s2 = kom([SQUIG, BOY], ops, **kw)
    s2, _ = play(s2, ["Activate KOM-2 engage"])
    assert "Pick up KOM-2 obj" in legal(s2)
    assert any("smoke grenade" in a for a in legal(s2))


def test_stoopid_bomb_squig_uses_only_its_datacard_weapons() -> None:
    # With Explosive Grenades selected every operative has frag and krak grenades; the
    # Squig may not throw them (only its explosives and bite).
    ops = {"KOM-1": {"at": (5, 14)}, "BLU-1": {"at": (9, 14)}}
    s = kom([SQUIG], ops, equipment={"A": ["Explosive Grenades (frag and krak)"]})
    s, _ = play(s, ["Activate KOM-1 engage"])
    acts = legal(s)
    assert not any("frag" in a or "krak" in a for a in acts)
    assert "Stoopid" in refused(s, "Shoot KOM-1 frag grenade at BLU-1")
    assert "Shoot KOM-1 explosives at KOM-1" in acts


# -- Sneaky Zogger -----------------------------------------------------------------------------


def seek_targets(types: Sequence[str], shooter_x: float) -> list[str]:
    """BLU-2 (Gunner) at (shooter_x, 4) activates: its Shoot actions at KOM-1, a Conceal
    operative at (16, 4) behind LAB's Light rubble."""
    ops = {
        "KOM-1": {"at": (16, 4), "order": "conceal"},
        "BLU-1": {"at": (25, 20)},
        "BLU-2": {"at": (shooter_x, 4)},
    }
    s = kom(types, ops, initiative="B")
    s, _ = play(s, ["Activate BLU-2 engage"])
    return [a for a in legal(s) if a.startswith("Shoot") and a.endswith("KOM-1")]


def test_sneaky_zogger_grot_in_cover_is_no_target_even_for_seek() -> None:
    # A Conceal Boy in cover is a valid target only for the Seek gun (4.7); the Grot in the
    # same spot is a valid target for no weapon (Sneaky Zogger takes precedence over Seek).
    assert seek_targets([BOY], 5) == ["Shoot BLU-2 seek gun at KOM-1"]
    assert seek_targets([GROT], 5) == []


def test_sneaky_zogger_within_2_inches_the_grot_is_a_target() -> None:
    # From 13.7" (within 2" of the Grot's base) no cover counts (4.5): every gun may shoot it.
    assert "Shoot BLU-2 gun at KOM-1" not in seek_targets([GROT], 13.7)  # (Gunner: no "gun")
    assert "Shoot BLU-2 pistol at KOM-1" in seek_targets([GROT], 13.7)


def test_sneaky_zogger_grot_cannot_have_an_engage_order() -> None:
    # At its activation only Conceal is offered; Engage is refused, naming the rule.
    s = kom([GROT], {"KOM-1": {"at": (5, 14)}, "BLU-1": {"at": (25, 14)}})
    assert [a for a in legal(s) if "KOM-1" in a] == ["Activate KOM-1 conceal"]
    assert "Sneaky Zogger" in refused(s, "Activate KOM-1 engage")


# -- I Got A Plan Ladz -------------------------------------------------------------------------


def plan(types: Sequence[str]) -> GameState:
    """KOM-1 activates on LAB's objective marker (which may be picked up), controlling it."""
    ops = {"KOM-1": {"at": (19.2, 14.5)}, "BLU-1": {"at": (25, 20)}}
    s = kom(types, ops, options=OPTIONS_PICKUP)
    s, _ = play(s, ["Activate KOM-1 engage"])
    return s


def test_i_got_a_plan_ladz_pick_up_costs_1ap_less() -> None:
    # The Comms Boy (APL 2) picks up the marker for 0AP (1AP - 1): 2AP are left.
    s, _ = play(plan([COMMS]), ["Pick up KOM-1 obj"])
    assert s.operative("KOM-1").carrying == ("obj",)
    assert s.operative("KOM-1").ap == 2


def test_i_got_a_plan_ladz_once_per_activation_and_comms_boy_only() -> None:
    # After a first marker action in the activation the next one costs its full 1AP; a Boy
    # pays 1AP for its Pick Up Marker.
    from engine.game import universal

    w = Work(plan([COMMS]))
    o = w.set_op("KOM-1", done=("Pick up",))
    assert universal.action_cost(w, o, "Place marker", 1, "activation") == 1
    o = w.set_op("KOM-1", done=("Shoot",))
    assert universal.action_cost(w, o, "Place marker", 1, "activation") == 0
    assert universal.action_cost(w, o, "Dash", 1, "activation") == 1  # not a marker action
    s, _ = play(plan([BOY]), ["Pick up KOM-1 obj"])
    assert s.operative("KOM-1").ap == 1


# -- Dat All You Got? --------------------------------------------------------------------------

SLASHA_VS_BLU = {"KOM-1": {"at": (7.44, 14)}, "BLU-1": {"at": (9, 14)}}


def test_dat_all_you_got_d3_damage_after_fighting() -> None:
    # KOM-1 fights BLU-1 (Captain, 12 wounds): two normal hits (3,3,1,1, Ceaseless
    # declined) against one (3,1,1), all strike: BLU-1 takes 4+4, KOM-1 2. Then the D3 (a
    # D6 of 5 -> 3) on BLU-1: 12 - 8 - 3 = 1.
    s = kom([SLASHA], SLASHA_VS_BLU, blu=("Captain",))
    script = ["Activate KOM-1 engage", "Fight KOM-1 twin choppas at BLU-1", "Decline"]
    s, _ = play(s, script, ["3,3,1,1", "3,1,1"])
    s, ev = play(s, ["Strike normal"] * 3, ["5"])
    assert s.operative("BLU-1").wounds == 1 and s.operative("KOM-1").wounds == 8
    assert [e["source"] for e in ev if e.kind == "damage_inflicted"][-1] == "Dat All You Got?"


def test_dat_all_you_got_after_retaliating() -> None:
    # BLU-1 fights the Slasha Boy; it retaliates and survives: D3 (D6 of 1 -> 1) on BLU-1.
    s = kom([SLASHA], SLASHA_VS_BLU, blu=("Captain",), initiative="B")
    script = ["Activate BLU-1 engage", "Fight BLU-1 knife at KOM-1", "Decline"]
    s, _ = play(s, script, ["1,1,1", "1,1,1,1", "1"])
    assert s.operative("BLU-1").wounds == 11


def test_dat_all_you_got_not_when_incapacitated() -> None:
    # The Slasha Boy with 2 wounds: BLU-1's crit (3 damage) incapacitates it, so no D3.
    ops = {**SLASHA_VS_BLU, "KOM-1": {"at": (7.44, 14), "wounds": 2}}
    s = kom([SLASHA], ops, blu=("Captain",), initiative="B")
    script = ["Activate BLU-1 engage", "Fight BLU-1 knife at KOM-1", "Decline", "Strike crit"]
    s, _ = play(s, script, ["6,1,1", "1,1,1,1"])
    assert not s.operative("KOM-1").placed
    assert s.operative("BLU-1").wounds == 12


# -- Get it Dun / Listen In --------------------------------------------------------------------


def support(leader: str, friend_at: tuple[float, float] = (5, 11)) -> GameState:
    """KOM-1 (``leader``) activates at (5, 14); KOM-2 (a Boy) at ``friend_at``, KOM-3 (the
    Bomb Squig) at (5, 16); BLU-1 far away."""
    ops = {
        "KOM-1": {"at": (5, 14)},
        "KOM-2": {"at": friend_at},
        "KOM-3": {"at": (5, 16)},
        "BLU-1": {"at": (25, 20)},
    }
    s = kom([leader, BOY, SQUIG], ops)
    s, _ = play(s, ["Activate KOM-1 engage"])
    return s


@pytest.mark.parametrize(("leader", "text"), [(NOB, "get it dun"), (COMMS, "listen in")])
def test_get_it_dun_and_listen_in_give_a_friend_1_apl(leader: str, text: str) -> None:
    # KOM-2 (a Boy, APL 2) 3" away and visible: selected; its next activation has 3AP. The
    # Bomb Squig is never offered (excluded by the rule).
    s = support(leader)
    acts = [a for a in legal(s) if text in a]
    assert acts == [f"Act KOM-1 {text} on KOM-2"]
    s, _ = play(s, [f"Act KOM-1 {text} on KOM-2", "End activation"])
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Activate KOM-2 engage"])
    assert s.operative("KOM-2").ap == 3


def test_get_it_dun_not_beyond_6_inches_nor_the_bomb_squig() -> None:
    # KOM-2 9" away (7.7" between the bases): not selectable; the Squig refused, naming the
    # rule.
    s = support(NOB, friend_at=(5, 5))
    assert not [a for a in legal(s) if "get it dun" in a]
    assert "Get it Dun selects" in refused(s, "Act KOM-1 get it dun on KOM-3")


def test_listen_in_only_the_comms_boy_and_not_in_enemy_control_range() -> None:
    # A Boy has no Listen In; a Comms Boy within control range of BLU-1 cannot perform it.
    assert "Comms Boy: only it" in refused(support(BOY), "Act KOM-1 listen in on KOM-2")
    ops = {"KOM-1": {"at": (7.44, 14)}, "KOM-2": {"at": (5, 14)}, "BLU-1": {"at": (9, 14)}}
    s, _ = play(kom([COMMS, BOY], ops), ["Activate KOM-1 engage"])
    assert "control range of an enemy" in refused(s, "Act KOM-1 listen in on KOM-2")


# -- Dakka Dash --------------------------------------------------------------------------------

DAKKA = "Kommando Dakka Boy"
DAKKA_VS_BLU = {"KOM-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}}


def test_dakka_dash_free_dash_and_free_shoot() -> None:
    # Dakka Dash (1AP of 2): a free Dash (3") then a free Shoot with the dakka shoota (short
    # range, 9": BLU-1 is 8" away after the Dash); 1AP is left, and both count as done, so
    # neither is listed again in the activation (3.1).
    s, _ = play(kom([DAKKA], DAKKA_VS_BLU), ["Activate KOM-1 engage", "Act KOM-1 dakka dash"])
    assert s.node == Decision("A", "free_action")
    s, _ = play(s, ["Dash KOM-1 to 8,14"])
    assert s.node == Decision("A", "free_action")
    assert not any(a.startswith("Dash") for a in legal(s))
    shot = ["Shoot KOM-1 dakka shoota (short range) at BLU-1", "Keep"]  # no Ceaseless
    s, _ = play(s, shot, ["1,1,1,1,1", "1,1,1"])
    assert s.node == Decision("A", "action")
    o = s.operative("KOM-1")
    assert (o.x, o.ap) == (8.0, 1)
    assert not any(a.startswith(("Dash", "Shoot", "Act KOM-1 dakka")) for a in legal(s))


def test_dakka_dash_shoot_first_then_dash_or_stop() -> None:
    # The Shoot may come first; End activation then forgoes the Dash (the activation goes
    # on: a paid Dash is still allowed, since the free one was not performed).
    s, _ = play(kom([DAKKA], DAKKA_VS_BLU), ["Activate KOM-1 engage", "Act KOM-1 dakka dash"])
    s, _ = play(s, ["Shoot KOM-1 dakka shoota (long range) at BLU-1"], ["1,1,1,1,1", "1,1,1"])
    assert s.node == Decision("A", "free_action")
    assert [a for a in legal(s) if not a.startswith("Dash")] == ["End activation"]
    s, _ = play(s, ["End activation"])
    assert s.node == Decision("A", "action") and s.operative("KOM-1").ap == 1
    assert any(a.startswith("Dash KOM-1") for a in legal(s))
    assert not any(a.startswith("Shoot") for a in legal(s))


def test_dakka_dash_not_concealed_nor_in_control_range_nor_other_weapons() -> None:
    s, _ = play(kom([DAKKA], DAKKA_VS_BLU), ["Activate KOM-1 conceal"])
    assert "Conceal order (Dakka Dash)" in refused(s, "Act KOM-1 dakka dash")
    ops = {"KOM-1": {"at": (7.44, 14)}, "BLU-1": {"at": (9, 14)}}
    s, _ = play(kom([DAKKA], ops), ["Activate KOM-1 engage"])
    assert "control range" in refused(s, "Act KOM-1 dakka dash")
    # With frag grenades, only the dakka shoota is offered in the free Shoot.
    kw: dict[str, Any] = {"equipment": {"A": ["Explosive Grenades (frag and krak)"]}}
    ops = {"KOM-1": {"at": (10, 14)}, "BLU-1": {"at": (14, 14)}}
    s, _ = play(kom([DAKKA], ops, **kw), ["Activate KOM-1 engage", "Act KOM-1 dakka dash"])
    shots = [a for a in legal(s) if a.startswith("Shoot")]
    assert shots and all("dakka shoota" in a for a in shots)
    assert "dakka shoota only" in refused(s, "Shoot KOM-1 frag grenade at BLU-1")


# -- Tactical Wot-Notz -------------------------------------------------------------------------

WOT_OPS = {
    "KOM-1": {"at": (5, 14)},
    "KOM-2": {"at": (5, 11)},
    "KOM-3": {"at": (5, 17)},
    "BLU-1": {"at": (10, 14)},
    "BLU-2": {"at": (10, 15.5)},
}


def test_tactical_wot_notz_smoke_grenade_without_equipment() -> None:
    # No equipment selected: the Boy still throws a smoke grenade (1AP), its marker on the
    # killzone; no other Boy may do so this turning point (once per turning point).
    s, _ = play(kom([BOY, BOY, SLASHA], WOT_OPS), ["Activate KOM-1 engage"])
    assert "Act KOM-1 wot-notz smoke grenade at 5,14" in legal(s)
    s, _ = play(s, ["Act KOM-1 wot-notz smoke grenade at 5,14"])
    assert [t.kind for t in s.tokens] == ["smoke"] and s.operative("KOM-1").ap == 1
    s, _ = play(s, ["End activation", "Activate BLU-1 engage", "End activation"])
    s, _ = play(s, ["Activate KOM-2 engage"])
    assert not any("wot-notz smoke" in a for a in legal(s))
    assert "per turning point" in refused(s, "Act KOM-2 wot-notz smoke grenade at 5,11")
    assert any("wot-notz stun grenade" in a for a in legal(s))  # the other one is still free


def test_tactical_wot_notz_stun_grenade_tests_the_enemy() -> None:
    # The stun grenade on BLU-1 (5" away): it and BLU-2 (within 1" of it: 1.5" apart between
    # centres) take stun tests; BLU-1's 3 gives it APL -1, BLU-2's 1 nothing.
    s, _ = play(kom([BOY, BOY, SLASHA], WOT_OPS), ["Activate KOM-1 engage"])
    s, ev = play(s, ["Act KOM-1 wot-notz stun grenade on BLU-1"], ["3,1"])
    tests = [(e["op"], e["stunned"]) for e in ev if e.kind == "stun_test"]
    assert tests == [("BLU-1", True), ("BLU-2", False)]
    assert [e.value for e in s.effects if e.kind == "apl" and e.op == "BLU-1"] == [-1]


def test_tactical_wot_notz_only_kommando_boys_and_not_twice_in_an_activation() -> None:
    # The Slasha Boy has no such action; a Boy that threw the smoke grenade cannot throw the
    # universal one in the same activation (it counts as that action).
    s, _ = play(kom([BOY, BOY, SLASHA], WOT_OPS), ["Activate KOM-3 engage"])
    assert not any("wot-notz" in a for a in legal(s))
    assert "Kommando Boy" in refused(s, "Act KOM-3 wot-notz smoke grenade at 5,17")
    kw: dict[str, Any] = {"equipment": {"A": [UTILITY]}}
    s, _ = play(kom([BOY, BOY, SLASHA], WOT_OPS, **kw), ["Activate KOM-1 engage"])
    s, _ = play(s, ["Act KOM-1 wot-notz smoke grenade at 5,14"])
    assert "once per activation" in refused(s, "Act KOM-1 smoke grenade at 5,14")
