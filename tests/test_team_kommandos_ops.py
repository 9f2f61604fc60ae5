"""The Kommandos' operatives' rules (``teams/kommandos/abilities.py``, ``actions.py``): one
scripted test per ability and unique action at least, named after it, on the LAB killzone
against the BLU test team (``tests/test_game_rules_common.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

import teams.kommandos  # noqa: F401  (registers the rules)
from engine.game import Decision, GameState, IllegalActionError
from engine.game.work import Work
from engine.geometry import Killzone
from engine.geometry.extra_terrain import AccessibleSpec
from engine.missions import kill_op
from engine.rulesets import position
from engine.teams.model import Roster
from teams.kommandos.breach import breach_area
from tests.test_game_rules_common import (
    BLU,
    LAB,
    OPTIONS_PICKUP,
    lab_data,
    play,
    rect,
    roster,
    with_destinations,
)
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
    """The listed actions, each move at its listed destinations (through the destination
    decision its header opens)."""
    return [str(a) for a in with_destinations(s)]


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


def test_expendable_no_vp_for_incapacitating_the_squig() -> None:
    # The tac ops Rout and Dominate score an enemy incapacitated by a friendly operative
    # (kill_op.enemy_incapacitator); the Squig is ignored for them, a Boy is not. The Squig
    # still counts for marker control (APL 2: no rule changes it).
    from engine.game import universal
    from engine.game.events import Event

    s = kom(
        [BOY, SQUIG], {"KOM-1": {"at": (5, 14)}, "KOM-2": {"at": (5, 4)}, "BLU-1": {"at": (25, 14)}}
    )
    w = Work(s)
    down = Event.make("operative_incapacitated", op="KOM-2", player="A", by="BLU-1")
    assert kill_op.enemy_incapacitator(w, down) is None
    down = Event.make("operative_incapacitated", op="KOM-1", player="A", by="BLU-1")
    assert kill_op.enemy_incapacitator(w, down) == w.op("BLU-1")
    assert universal.apl_controller(w, lambda o: o.id == "KOM-2") == "A"


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


def test_sneaky_zogger_grot_in_cover_is_no_target_from_vantage() -> None:
    # LAB plus a 3" Vantage tower: BLU-2 on it (3" above the target) ignores the Light
    # rubble's cover (4.7), so a Conceal Boy behind it is a valid target for its guns; the
    # Grot there is not (Sneaky Zogger takes precedence over Vantage).
    data = lab_data([("obj", (20.0, 14.5))])
    tower = {"polygon": rect(3, 2, 7, 6), "height": 3.0, "types": ["Heavy", "Vantage"]}
    data["features"].append({"name": "tower", "parts": [tower]})
    kz = Killzone.from_dict(data, "lab+tower")
    ops: dict[str, Any] = {
        "KOM-1": {"at": (16, 4), "order": "conceal"},
        "BLU-1": {"at": (25, 20)},
        "BLU-2": {"at": (5, 4, 3.0)},
    }
    for types, expected in (([BOY], True), ([GROT], False)):
        team = Roster.from_entries(lab_team("kommandos"), types)
        s = position(kz, team, roster(BLU, ("Trooper", "Gunner")), operatives=ops, initiative="B")
        s, _ = play(s, ["Activate BLU-2 engage"])
        assert ("Shoot BLU-2 silent gun at KOM-1" in legal(s)) is expected


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
    # The Comms Boy (APL 2) picks up the marker: it could pay the full 1AP, so its player
    # chooses; using the rule it costs 0AP (1AP - 1): 2AP are left.
    s, _ = play(plan([COMMS]), ["Pick up KOM-1 obj"])
    assert s.node == Decision("A", "team_rule")
    assert legal(s) == ["Decline", "Use i got a plan ladz"]
    s, _ = play(s, ["Use i got a plan ladz"])
    assert s.operative("KOM-1").carrying == ("obj",)
    assert s.operative("KOM-1").ap == 2
    # Used: another marker or mission action would cost its full 1AP (once per activation).
    from engine.game import universal

    w = Work(s)
    assert universal.action_cost(w, w.op("KOM-1"), "Place marker", 1, "activation") == 1
    # Its next activation has it again: the token ends with this one.
    s, _ = play(s, ["End activation"])
    assert not [e for e in s.effects if e.detail == "i got a plan ladz used"]


def test_i_got_a_plan_ladz_the_player_keeps_it_for_a_later_action() -> None:
    # Declined on the Pick Up Marker: it costs its full 1AP (1AP left) and the discount
    # stays for a later marker or mission action of the activation (it would cost 0AP).
    from engine.game import universal

    s, _ = play(plan([COMMS]), ["Pick up KOM-1 obj", "Decline"])
    assert s.operative("KOM-1").ap == 1 and s.operative("KOM-1").carrying == ("obj",)
    w = Work(s)
    assert universal.action_cost(w, w.op("KOM-1"), "Place marker", 1, "activation") == 0


def test_i_got_a_plan_ladz_no_choice_when_only_the_discount_pays_and_comms_boy_only() -> None:
    # With 0AP left the Pick Up Marker is only possible through the rule: no choice (it is
    # used); a Boy pays 1AP for its Pick Up Marker; a Dash is no marker action.
    from engine.game import universal

    w = Work(plan([COMMS]))
    w.node = Decision("A", "action")
    o = w.set_op("KOM-1", ap=0)
    assert universal.action_cost(w, o, "Pick up", 1, "activation") == 0
    assert universal.action_cost(w, o, "Dash", 1, "activation") == 1
    s, _ = play(w.freeze(), ["Pick up KOM-1 obj"])
    assert s.operative("KOM-1").carrying == ("obj",) and s.operative("KOM-1").ap == 0
    assert s.node != Decision("A", "team_rule")
    s, _ = play(plan([BOY]), ["Pick up KOM-1 obj"])
    assert s.operative("KOM-1").ap == 1 and s.node == Decision("A", "action")


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


def test_dakka_dash_after_a_shoot_offers_only_the_dash() -> None:
    # A free action still counts as that action (KT24 3.1): after a paid Shoot in the
    # activation the free Shoot would be a second Shoot, so only the free Dash is offered
    # (the Dash performed, nothing of it is left; its 0AP left end the activation).
    s, _ = play(kom([DAKKA], DAKKA_VS_BLU), ["Activate KOM-1 engage"])
    s, _ = play(s, ["Shoot KOM-1 dakka shoota (long range) at BLU-1"], ["1,1,1,1,1", "1,1,1"])
    s, _ = play(s, ["Act KOM-1 dakka dash"])
    assert s.node == Decision("A", "free_action")
    assert not any(a.startswith("Shoot") for a in legal(s))
    s, _ = play(s, ["Dash KOM-1 to 8,14"])
    assert s.operative("KOM-1").x == 8.0 and s.operative("KOM-1").ap == 0  # 2 - 1 - 1


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


# -- Grappling Hook ----------------------------------------------------------------------------


def grot(ops: Mapping[str, Any] | None = None) -> GameState:
    """The Grot (KOM-1) activates with Conceal at (5, 10), 4.4" from LAB's 1" ruin."""
    s = kom([GROT, BOY], ops or {"KOM-1": {"at": (5, 10)}, "BLU-1": {"at": (25, 14)}})
    s, _ = play(s, ["Activate KOM-1 conceal"])
    return s


def test_grappling_hook_sets_the_grot_up_beyond_the_ruin() -> None:
    # (12, 10) is beyond the ruin (x 10-11), 0.37" from it: the ruin's top edge is visible
    # both from (5, 10) and from there, so the Grot is set up there for 1AP (no path: 7"
    # away, farther than a Move of 6" around the ruin would take it); it counts as a
    # Reposition, so no Reposition (nor Charge) is listed after it.
    s, ev = play(grot(), ["Act KOM-1 grappling hook at 12,10"])
    o = s.operative("KOM-1")
    assert (o.x, o.y, o.ap) == (12.0, 10.0, 1)
    assert [e["action"] for e in ev if e.kind == "moved"] == ["reposition"]
    assert not any(a.startswith(("Reposition", "Charge")) for a in legal(s))
    assert "Act KOM-1 grappling hook at 9.458,10" in legal(grot())


def test_grappling_hook_needs_a_visible_terrain_point_near_the_spot() -> None:
    # (20, 10): no terrain within 1"; (11.6, 19): beside the 5" wall, on its far side (the
    # wall hides every point of it near the spot from (5, 10)).
    s = grot()
    assert "no point of a terrain feature" in refused(s, "Act KOM-1 grappling hook at 20,10")
    assert "no point of a terrain feature" in refused(s, "Act KOM-1 grappling hook at 11.6,19")


def test_grappling_hook_not_into_enemy_control_range_nor_from_it() -> None:
    ops = {"KOM-1": {"at": (5, 10)}, "BLU-1": {"at": (13.2, 10)}}
    assert "within control range of BLU-1" in refused(
        grot(ops), "Act KOM-1 grappling hook at 12,10"
    )
    ops = {"KOM-1": {"at": (5, 10)}, "BLU-1": {"at": (6.2, 10)}}
    assert "control range of an enemy" in refused(grot(ops), "Act KOM-1 grappling hook at 12,10")


def test_grappling_hook_only_the_grot_and_not_after_a_charge() -> None:
    s = kom([BOY], {"KOM-1": {"at": (5, 10)}, "BLU-1": {"at": (25, 14)}})
    s, _ = play(s, ["Activate KOM-1 engage"])
    assert "not a Grot" in refused(s, "Act KOM-1 grappling hook at 12,10")
    ops = {"KOM-1": {"at": (5, 14)}, "BLU-1": {"at": (9, 14)}}
    s, _ = play(grot(ops), ["Charge KOM-1 to 7.85,14"])
    assert "same activation as Charge" in refused(s, "Act KOM-1 grappling hook at 9.458,10")


# -- Boom! -------------------------------------------------------------------------------------

# The Bomb Squig (KOM-2, 5 wounds, Engage) at (16, 14); BLU-2 fights it with BLU-1 beside it
# (1.3" away, assisting): two critical strikes of 3 incapacitate it.
BOOM_OPS = {
    "KOM-1": {"at": (5, 14)},
    "KOM-2": {"at": (16, 14)},
    "BLU-1": {"at": (17.3, 14)},
    "BLU-2": {"at": (16, 15.3)},
}
SQUIG_DOWN = ["Activate BLU-2 engage", "Fight BLU-2 knife at KOM-2", "Strike crit", "Strike crit"]


def squig_down(**kw: Any) -> GameState:
    s = kom([BOY, SQUIG], kw.pop("ops", BOOM_OPS), initiative="B", blu=("Trooper", "Trooper"))
    s, _ = play(s, SQUIG_DOWN, ["6,6,1", "1,1,1"])
    return s


def test_boom_squig_goes_off_when_incapacitated() -> None:
    # A chooses 2D6 (4,1: a 4+), so the Squig shoots its explosives before it is removed:
    # its Blast 1" reaches BLU-1 (two crits of 5 on 10 wounds, no saves: incapacitated,
    # credited to the Squig) and BLU-2 (all misses); then the Squig is removed.
    s = squig_down()
    assert s.node == Decision("A", "team_rule")
    assert legal(s) == ["Decline", "Use boom with 2d6"]
    dice = ["4,1", "6,6,4,4,1,1", "1,1,1", "1,1,1,1,1,1", "1,1,1"]
    s, ev = play(s, ["Use boom with 2d6"], dice)
    assert not s.operative("BLU-1").placed and s.operative("BLU-2").wounds == 10
    assert not s.operative("KOM-2").placed  # removed after the Fight action
    downs = [(e["op"], e["by"]) for e in ev if e.kind == "operative_incapacitated"]
    assert downs == [("BLU-1", "KOM-2")]


def test_boom_1d6_and_no_4_nothing_happens() -> None:
    # Declining the 2D6 rolls 1D6: a 3 is no 4+, so no Shoot: the Squig is removed.
    s, ev = play(squig_down(), ["Decline"], ["3"])
    assert [e["values"] for e in ev if e.kind == "dice_rolled"] == [(3,)]
    assert not any(e.kind == "shoot_declared" for e in ev)
    assert not s.operative("KOM-2").placed and s.operative("BLU-1").wounds == 10


def test_boom_not_once_the_explosives_are_used() -> None:
    # The Squig already used its explosives (Limited 1): no roll when it is incapacitated.
    s = kom([BOY, SQUIG], BOOM_OPS, initiative="B", blu=("Trooper", "Trooper"))
    used = (("explosives", 1),)
    ops = tuple(attrs.evolve(o, limited=used) if o.id == "KOM-2" else o for o in s.operatives)
    s, ev = play(attrs.evolve(s, operatives=ops), SQUIG_DOWN, ["6,6,1", "1,1,1"])
    assert not any(e.kind == "dice_rolled" and "Boom" in str(e["label"]) for e in ev)
    assert not s.operative("KOM-2").placed and s.node == Decision("B", "action")


def test_boom_not_when_its_own_explosives_incapacitate_it() -> None:
    # The Squig shoots its explosives (it is their primary target: two crits of 5 on its 5
    # wounds): incapacitated while using them, so no Boom! roll; its Blast still reaches
    # BLU-1 (all misses here). Its explosives are then used (Limited 1).
    ops = {**BOOM_OPS, "BLU-2": {"at": (25, 20)}}
    s = kom([BOY, SQUIG], ops, blu=("Trooper", "Trooper"))
    shot = ["Activate KOM-2 engage", "Shoot KOM-2 explosives at KOM-2"]
    s, ev = play(s, shot, ["6,6,1,1,1,1", "1,1,1", "1,1,1,1,1,1", "1,1,1"])
    assert not any(e.kind == "dice_rolled" and "Boom" in str(e["label"]) for e in ev)
    assert s.node == Decision("B", "activate") and not s.operative("KOM-2").placed


def test_boom_not_with_a_conceal_order() -> None:
    # A Squig still with the Conceal order it was set up with (never activated) cannot Shoot
    # its (non-Silent) explosives (1.5): nothing can go off, so no roll is offered.
    ops = {**BOOM_OPS, "KOM-2": {"at": (16, 14), "order": "conceal"}}
    s = squig_down(ops=ops)
    assert s.node == Decision("B", "action")
    assert s.operative("BLU-1").wounds == 10 and not s.operative("KOM-2").placed


# -- Breach ------------------------------------------------------------------------------------

BREACHA = "Kommando Breacha Boy"


def breacha(
    at: tuple[float, float] = (8.9, 19), blu_at: tuple[float, float] = (25, 5)
) -> GameState:
    """The Breacha Boy (KOM-1) activates 0.47" from LAB's 5" wall (x 10-11, y 17-21.5)."""
    s = kom(
        [BREACHA, BOY], {"KOM-1": {"at": at}, "KOM-2": {"at": (5, 14)}, "BLU-1": {"at": blu_at}}
    )
    s, _ = play(s, ["Activate KOM-1 engage"])
    return s


def test_breach_opens_the_wall_near_the_marker() -> None:
    # Without the breach, (12.2, 19) beyond the wall is out of reach (around the wall is
    # more than 6"). The marker goes against the wall (9.606, 19: touching it, within the
    # Boy's control range); the wall (1" thick) is then Accessible there: straight through,
    # 3.3" + 1" for entering Accessible terrain. Sight is unchanged (the wall still hides).
    s = breacha()
    assert "no legal path" in refused(s, "Reposition KOM-1 to 12.2,19")
    assert [a for a in legal(s) if "breach" in a] == ["Act KOM-1 breach at 9.606,19"]
    s, _ = play(s, ["Act KOM-1 breach at 9.606,19"])
    assert [(t.kind, t.name) for t in s.tokens] == [("breach", "A breach 1")]
    assert s.operative("KOM-1").ap == 1
    w = Work(s)
    far = w.ctx.placement("KOM-1", 12.2, 19, 0.0)
    assert not w.ctx.visible(w.kz, w.place(w.op("KOM-1")), far)
    s, _ = play(s, ["Reposition KOM-1 to 12.2,19"])
    # The Reposition right after the Breach is the move it is part of: 1AP less (0AP), so
    # Breach and move cost 1AP together and 1AP is still left.
    o = s.operative("KOM-1")
    assert (o.x, o.y, o.ap) == (12.2, 19.0, 1)


def test_breach_move_costs_1ap_less_only_right_after_it() -> None:
    # Right after the Breach a Reposition or Charge costs 0AP; not when the operative had
    # moved before the Breach (Dash), nor a Dash, nor after another action came between.
    from engine.game import universal

    w = Work(breacha())
    for done, verb, cost in (
        (("breach",), "Reposition", 0),
        (("breach",), "Charge", 0),
        (("breach",), "Dash", 1),
        (("Dash", "breach"), "Reposition", 1),
        (("breach", "Shoot"), "Reposition", 1),
        ((), "Reposition", 1),
    ):
        o = w.set_op("KOM-1", done=done)
        assert universal.action_cost(w, o, verb, 1, "activation") == cost, (done, verb)


def test_breach_only_near_the_marker_and_for_every_operative() -> None:
    # A Boy (KOM-2) at (8.9, 20.6) beside the Breacha Boy: through the wall to (12.2, 20.6)
    # only after the breach (any operative goes through the opened part). Only the wall's
    # part within 2.02" of the marker (1" plus the marker's and a base's radii) is opened:
    # its end beyond y 21.02 stays closed.
    ops = {"KOM-1": {"at": (8.9, 19)}, "KOM-2": {"at": (8.9, 20.6)}, "BLU-1": {"at": (25, 5)}}
    s = kom([BREACHA, BOY], ops)
    s, _ = play(s, ["Activate KOM-2 engage"])
    assert "no legal path" in refused(s, "Reposition KOM-2 to 12.2,20.6")
    s = kom([BREACHA, BOY], ops)
    s, _ = play(s, ["Activate KOM-1 engage", "Act KOM-1 breach at 9.606,19", "End activation"])
    s, _ = play(s, ["Activate BLU-1 engage", "End activation", "Activate KOM-2 engage"])
    s, _ = play(s, ["Reposition KOM-2 to 12.2,20.6"])
    assert s.operative("KOM-2").x == 12.2
    w = Work(s)
    kz = w.move_kz(w.op("KOM-2"))
    wall = kz.features.index("wall")
    pieces = [p for p in kz.parts if p.feature == wall]
    opened = [p for p in pieces if "Accessible" in {str(t) for t in p.types}]
    assert len(opened) == 1 and opened[0].polygon.bounds[3] < 21.1
    assert any(p.polygon.bounds[3] == 21.5 and p not in opened for p in pieces)
    # The opening is for movement only: the killzone of sight and cover keeps the wall whole.
    assert w.kz is Work(kom([BREACHA, BOY], ops)).kz


def test_breach_opens_for_each_base_its_own_area() -> None:
    # "Whenever an operative is within 1\" of that marker": the opened area is where the
    # mover's base is within 1" of the marker (20 mm), so it depends on the base. The old
    # reading opened the area of a 32 mm base for everyone. Nearest the marker (9.606, 19)
    # the wall's face is at x 10 (0.394" off): the opened piece reaches y 19 + sqrt(r^2 -
    # 0.394^2), r = 1 + (20 + base) / 50.8: 20.985 for the Boy (32 mm), 20.844 for the
    # Grot (25 mm; the old reading gave it the Boy's), less up to 0.04" as the circle is
    # drawn as a 16-sided polygon inside it.
    ops = {"KOM-1": {"at": (8.9, 19)}, "KOM-2": {"at": (5, 14)}, "KOM-3": {"at": (5, 11)}}
    s = kom([BREACHA, BOY, GROT], {**ops, "BLU-1": {"at": (25, 5)}})
    s, _ = play(s, ["Activate KOM-1 engage", "Act KOM-1 breach at 9.606,19", "End activation"])
    w = Work(s)

    def reach(op: str) -> float:
        kz = w.move_kz(w.op(op))
        wall = kz.features.index("wall")
        (piece,) = [
            p for p in kz.parts if p.feature == wall and "Accessible" in {str(t) for t in p.types}
        ]
        return float(piece.polygon.bounds[3])

    boy, grot = reach("KOM-2"), reach("KOM-3")
    assert 20.985 - 0.04 <= boy <= 20.985 and 20.844 - 0.04 <= grot <= 20.844
    # An enemy operative (32 mm) moves through it too, with a 32 mm base's area.
    assert reach("BLU-1") == boy


def test_breach_leaves_sight_and_cover_as_they_were() -> None:
    # The breach changes movement only. On a LAB whose wall is a 1" tall Wall (never seen
    # through), the Breacha Boy at (8.9, 19) does not see (12.2, 19) beyond it, before and
    # after its Breach; the old reading made the opened piece Heavy (not Wall) for sight
    # too, and models see over a 1" Heavy part (LAB's ruin), so it saw through the breach.
    # It still moves through the opened piece (Reposition 3.3" + 1" for Accessible).
    data = lab_data([("obj", (20.0, 14.5))])
    data["features"][2]["parts"][0].update(height=1.0, types=["Wall"])
    walled = Killzone.from_dict(data, "lab-wall")
    team = Roster.from_entries(lab_team("kommandos"), [BREACHA, BOY])
    ops: dict[str, dict[str, Any]] = {
        "KOM-1": {"at": (8.9, 19)},
        "KOM-2": {"at": (5, 14)},
        "BLU-1": {"at": (25, 5)},
    }
    s = position(walled, team, roster(BLU, ("Trooper",)), operatives=ops, cp=(0, 0))
    s, _ = play(s, ["Activate KOM-1 engage"])
    assert "no legal path" in refused(s, "Reposition KOM-1 to 12.2,19")
    s, _ = play(s, ["Act KOM-1 breach at 9.606,19"])
    w = Work(s)
    far = w.ctx.placement("KOM-1", 12.2, 19, 0.0)
    assert not w.ctx.visible(w.kz, w.place(w.op("KOM-1")), far)
    opened = walled.with_terrain((AccessibleSpec("wall", breach_area(9.606, 19)),))
    assert w.ctx.visible(opened, w.place(w.op("KOM-1")), far)  # the old reading's killzone
    s, _ = play(s, ["Reposition KOM-1 to 12.2,19"])
    assert s.operative("KOM-1").x == 12.2


def test_breach_limits_breacha_boy_terrain_in_reach_no_enemy_near() -> None:
    # Not a Breacha Boy; no terrain within its control range; an enemy within its control
    # range; a spot that is not against the feature.
    s = kom([BOY], {"KOM-1": {"at": (8.9, 19)}, "BLU-1": {"at": (25, 5)}})
    s, _ = play(s, ["Activate KOM-1 engage"])
    assert "not a Breacha Boy" in refused(s, "Act KOM-1 breach at 9.606,19")
    assert "no terrain feature" in refused(breacha(at=(5, 11)), "Act KOM-1 breach at 5.5,11")
    near = breacha(blu_at=(8.9, 17.7))
    assert "control range of an enemy" in refused(near, "Act KOM-1 breach at 9.606,19")
    assert "as close as possible" in refused(breacha(), "Act KOM-1 breach at 9.2,19")


def test_breach_leaves_parts_thicker_than_1_inch() -> None:
    # The killzone change behind Breach (AccessibleSpec): a 2" thick block is not opened,
    # LAB's 1" wall is (split: the piece inside the area Accessible, the rest as it was).
    data = lab_data([("obj", (20.0, 14.5))])
    block = {"polygon": rect(20, 2, 22, 6), "height": 3.0, "types": ["Heavy"]}
    data["features"].append({"name": "block", "parts": [block]})
    kz = Killzone.from_dict(data, "lab+block")
    area = breach_area(21, 4)
    thick = kz.with_terrain((AccessibleSpec("block", area),))
    assert [sorted(p.types) for p in thick.parts] == [sorted(p.types) for p in kz.parts]
    opened = kz.with_terrain((AccessibleSpec("wall", breach_area(9.606, 19)),))
    assert len(opened.parts) > len(kz.parts)  # the wall split: opened piece and the rest


def test_breach_then_portable_barricade_moves_and_lists_its_spots() -> None:
    # Regression: a Breach token's feature is a change to a layout feature (AccessibleSpec),
    # not added terrain; moving a Portable Barricade after a Breach crashed when it was taken
    # for one. With the wall opened, BLU-1 moves 4" (Move 6" - 2") with its barricade, which
    # is set up connected again 4" further east.
    from tests.test_equipment_terrain import TOUCH

    tokens: list[dict[str, Any]] = [
        {"kind": "portable_barricade", "owner": "B", "at": (TOUCH, 14.5), "angle": 90}
    ]
    ops = {"KOM-1": {"at": (8.9, 19)}, "KOM-2": {"at": (5, 11)}, "BLU-1": {"at": (16, 14.5)}}
    s = kom([BREACHA, BOY], ops, tokens=tokens)
    s, _ = play(s, ["Activate KOM-1 engage", "Act KOM-1 breach at 9.606,19", "End activation"])
    assert {t.kind for t in s.tokens} == {"breach", "portable_barricade"}
    s, _ = play(s, ["Activate BLU-1 engage"])
    assert "Act BLU-1 move with barricade at 20,14.5" in legal(s)
    s, _ = play(s, ["Act BLU-1 move with barricade at 20,14.5"])
    assert s.operative("BLU-1").x == 20.0
    (bar,) = [t for t in s.tokens if t.kind == "portable_barricade"]
    assert bar.x == pytest.approx(TOUCH + 4, abs=0.01)


def test_breach_during_a_reposition_then_the_rest_of_the_move() -> None:
    # The Breacha Boy Repositions 1" (7.9 -> 8.9), against the wall: it may Breach there
    # during that Reposition for 1AP less (0AP) and then use the rest of the move (6" - 1"
    # = 5") as a free Reposition: through the opened wall to 12.2 (3.3" + 1" for the
    # Accessible part). AP: 2 - 1 (the Reposition) = 1 left at the end; the Reposition
    # counts once (no other one in the activation).
    s = breacha(at=(7.9, 19))
    s, _ = play(s, ["Reposition KOM-1 to 8.9,19", "Act KOM-1 breach at 9.606,19"])
    assert s.operative("KOM-1").ap == 1
    assert "End activation" in legal(s)  # the rest of the move may be forgone
    s, _ = play(s, ["Reposition KOM-1 to 12.2,19"])
    o = s.operative("KOM-1")
    assert (o.x, o.y, o.ap) == (12.2, 19.0, 1)
    assert not [a for a in legal(s) if a.startswith("Reposition")]


def test_breach_during_a_reposition_limits_the_rest_to_the_distance_left() -> None:
    # From 7.5 the Reposition to 8.9 costs 2" of movement (as the engine counts it): 4" are
    # left, short of the 4.3" through the wall; after a Dash (not a Reposition) the Breach
    # costs its 1AP and gives no move.
    s = breacha(at=(7.5, 19))
    s, _ = play(s, ["Reposition KOM-1 to 8.9,19", "Act KOM-1 breach at 9.606,19"])
    assert 'within 4" of movement' in refused(s, "Reposition KOM-1 to 12.2,19")
    s = breacha(at=(7.5, 19))
    s, _ = play(s, ["Dash KOM-1 to 8.9,19", "Act KOM-1 breach at 9.606,19"])
    assert s.operative("KOM-1").ap == 0


def test_breach_during_a_charge_in_two_legs() -> None:
    # "during the Charge ... for 1 less AP ... any remaining move distance can be used": the
    # Breacha Boy at 7.5 (1.87" from the wall: no Breach from there, as the old reading
    # required it right before the Charge) charges 1.4" to 8.9, breaches the wall there
    # (0AP) and charges on through it (3.3" + 1" for the Accessible part, of the 8" - 1.4"
    # left) to 12.2, within BLU-1's control range (14.4: 2.2" between centres, under 1" +
    # two radii). The Charge's 1AP pays for it all: 1AP left of 2.
    s = breacha(at=(7.5, 19), blu_at=(14.4, 19))
    assert "no terrain feature" in refused(s, "Act KOM-1 breach at 9.606,19")
    s, _ = play(s, ["Act KOM-1 charge breach wall at 8.9,19"])
    assert [(t.kind, t.x, t.y) for t in s.tokens] == [("breach", 9.606, 19)]
    assert s.operative("KOM-1").x == 8.9
    # The rest is a Charge: it must end within an enemy's control range (12.2, 18 is 2.42"
    # from BLU-1's centre, beyond 1" + two radii).
    assert "control range" in refused(s, "Charge KOM-1 to 12.2,18")
    s, _ = play(s, ["Charge KOM-1 to 12.2,19"])
    o = s.operative("KOM-1")
    assert (o.x, o.y, o.ap) == (12.2, 19.0, 1)
    # It counts as the Charge: no other Charge, Reposition or Dash in the activation.
    assert not [a for a in legal(s) if a.split()[0] in ("Charge", "Reposition", "Dash")]


def test_breach_during_a_charge_limits() -> None:
    # Refused: the first leg may not end within an enemy's control range nor go beyond the
    # Charge's 8"; the feature must be within control range where the leg ends; a Charge of
    # the distance left must be able to reach an enemy (none beyond the wall within reach
    # of BLU-1 at 25, 5); not for a Boy.
    s = breacha(at=(7.5, 19), blu_at=(14.4, 19))
    assert "not a terrain feature" in refused(s, "Act KOM-1 charge breach ruin at 8.9,19")
    assert "no path" in refused(s, "Act KOM-1 charge breach ruin at 8.9,9")
    far = breacha(at=(7.5, 19))
    assert "no Charge" in refused(far, "Act KOM-1 charge breach wall at 8.9,19")
    boy = kom([BOY], {"KOM-1": {"at": (7.5, 19)}, "BLU-1": {"at": (14.4, 19)}})
    boy, _ = play(boy, ["Activate KOM-1 engage"])
    assert "not a Breacha Boy" in refused(boy, "Act KOM-1 charge breach wall at 8.9,19")


def test_breach_during_a_charge_first_leg_route_is_the_path_taken() -> None:
    # Review fix: the first leg is emitted as a "charge" moved event ending out of every
    # enemy's control range; universal.move_route (what mines read to find what a move
    # passed) finds no Charge path ending there and fell back to the straight segment, here
    # straight through a 5" post at x 7.75-7.85 the leg went around (cost 4" for 2.3"). Now
    # the leg's own path is kept for it: the route bends north of the post (y > 19.1).
    from engine.game import universal

    data = lab_data()
    post = {"polygon": rect(7.75, 18.9, 7.85, 19.1), "height": 5.0, "types": ["Heavy"]}
    data["features"].append({"name": "post", "parts": [post]})
    kz = Killzone.from_dict(data, "lab_post")
    team = Roster.from_entries(lab_team("kommandos"), [BREACHA, BOY])
    ops: dict[str, dict[str, Any]] = {
        "KOM-1": {"at": (6.6, 19)},
        "KOM-2": {"at": (5, 14)},
        "BLU-1": {"at": (13.2, 19)},
    }
    s = position(kz, team, roster(BLU, ("Trooper", "Gunner")), operatives=ops, cp=(0, 0))
    s, _ = play(s, ["Activate KOM-1 engage"])
    routes: list[Any] = []
    s = s.with_hooks(
        lambda h: h.on("moved", lambda w, ev: routes.append(universal.move_route(w, ev)))
    )
    s, _ = play(s, ["Act KOM-1 charge breach wall at 8.9,19"])
    points = routes[0].points
    assert points[0][:2] == (6.6, 19.0) and points[-1][:2] == (8.9, 19.0)
    assert len(points) > 2 and all(p[1] > 19.1 for p in points[1:-1])


def test_breach_during_a_charge_allowed_only_when_the_rest_is_listed() -> None:
    # Review fix: the rest of the Charge is compulsory only while a Charge is listed (the
    # listing's spots: around each enemy towards the operative and 45 degrees either side).
    # With BLU-1 at (11.9, 19), just beyond the wall, the action checked 8 spots all round
    # BLU-1 and allowed it, but from (8.9, 19) no listed Charge was legal: only "End
    # activation" was offered, the "Charge" ending out of every control range (3.2). Now
    # it is refused (and not listed); where the rest is listed it is still allowed.
    s = breacha(at=(7.5, 19), blu_at=(11.9, 19))
    assert "no Charge" in refused(s, "Act KOM-1 charge breach wall at 8.9,19")
    assert not [a for a in legal(s) if "charge breach" in a]
    s = breacha(at=(7.5, 19), blu_at=(12.9, 19.5))
    s, _ = play(s, ["Act KOM-1 charge breach wall at 8.9,19"])
    rest = legal(s)
    assert rest and all(a.startswith("Charge KOM-1") for a in rest)


def test_breach_during_a_charge_is_listed_for_agents() -> None:
    # The old reading never listed it (only a script could name it). Now the first leg
    # straight towards BLU-1 (14.4, 19) is listed: to where the Breacha Boy's base (0.63")
    # and the marker (0.39" radius) fit against the wall at x 10 (10 - 1.44 = 8.56).
    s = breacha(at=(7.5, 19), blu_at=(14.4, 19))
    listed = [a for a in legal(s) if "charge breach" in a]
    assert listed == ["Act KOM-1 charge breach wall at 8.56,19"]
    # Not listed when no Charge through the breach can reach an enemy (BLU-1 far away at
    # 25, 5), nor for an operative that is not a Breacha Boy.
    assert not [a for a in legal(breacha(at=(7.5, 19))) if "charge breach" in a]
    boy = kom([BOY], {"KOM-1": {"at": (7.5, 19)}, "BLU-1": {"at": (14.4, 19)}})
    boy, _ = play(boy, ["Activate KOM-1 engage"])
    assert not [a for a in legal(boy) if "charge breach" in a]


def test_breach_during_a_charge_heuristic_agent_takes_it() -> None:
    # Listed, the heuristic agent uses it: BLU-1 behind the wall is out of an ordinary
    # Charge's reach (around the wall is too far), so it charges through the breach and then
    # picks a destination of the compulsory rest of the Charge (the old reading never listed
    # it, so an agent could not charge BLU-1 at all).
    from engine.agents.heuristic import HeuristicAgent

    s = breacha(at=(7.5, 19), blu_at=(14.4, 19))
    assert not [a for a in legal(s) if a.startswith("Charge")]
    agent = HeuristicAgent()
    first = str(agent.act(s))
    assert first == "Act KOM-1 charge breach wall at 8.56,19"
    s, _ = s.apply(first)
    assert str(agent.act(s)).startswith("Charge KOM-1 to ")


def test_breach_during_a_charge_rest_is_compulsory() -> None:
    # The old reading offered "End activation" before the rest of the Charge, leaving a
    # Charge that ended outside every enemy's control range (3.2 forbids it). Now the rest
    # must be performed: only Charges are offered and ending is refused.
    s = breacha(at=(7.5, 19), blu_at=(14.4, 19))
    s, _ = play(s, ["Act KOM-1 charge breach wall at 8.56,19"])
    options = legal(s)
    assert options and all(a.startswith("Charge KOM-1") for a in options)
    assert "must perform the rest" in refused(s, "End activation")
    s, _ = play(s, [options[0]])
    # Done: back in its activation, 1AP left (the Charge's 1AP paid for it all), and it
    # may end its activation again.
    assert s.operative("KOM-1").ap == 1
    assert "End activation" in legal(s)
