"""The team weapon rules of the built-in teams (the ``*`` rules on their datacards), one
test per rule, in LAB positions (``tests/test_game_rules_common``): Concealed Position*
(Kasrkin, Kommandos), Explosive* (Kommandos), Siphon Life* (Legionaries), Magnify*
(Hierotek Circle).

The built-in teams play on LAB with their selection rules relaxed to "1 to 14 operatives, no
leader" (the rules under test are the weapons', not the roster's); their ids are the built-in
ones, so their rule ids and implementations are the real ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

from engine.agents import make_agent
from engine.game import Chance, Decision, GameState, IllegalActionError, parse_action
from engine.game.drivers import SeededDice
from engine.game.drivers import play as drive
from engine.geometry import load_killzone
from engine.rulesets import new_game, position
from engine.teams import load_builtin_team
from engine.teams.model import Roster, Team
from tests.test_game_rules_common import BLU, LAB, attack_texts, of_kind, play, roster


def lab_team(team_id: str) -> Team:
    """A built-in team whose rosters may be any 1-14 operatives (module docstring): no size,
    leader or minimum rule."""
    team = load_builtin_team(team_id)
    return attrs.evolve(
        team, selection=attrs.evolve(team.selection, size=(1, 14), leader=(), minimums=())
    )


def lab(
    team_id: str,
    types: Sequence[str],
    operatives: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: the built-in team ``team_id`` (player A) against the BLU test team.
    Legionaries all bear the Mark of Slaanesh (1" more Move), whose rule changes no attack."""
    kw.setdefault("cp", (0, 0))
    team = Roster(lab_team(team_id), tuple(types))
    if team_id == "legionaries":
        team = team.with_choices(None, [{"Mark of Chaos": ["Slaanesh"]} for _ in types])
    return position(LAB, team, roster(BLU, blu), operatives=operatives, **kw)


# -------------------------------------------------------------------------------------------
# Concealed Position*
# -------------------------------------------------------------------------------------------

RIFLE = "hot-shot marksman rifle"
SNIPER = {"KAS-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-2": {"at": (25, 20)}}


def test_concealed_position_weapon_usable_in_the_first_shoot_action() -> None:
    # The Sharpshooter has not shot yet this battle: its Concealed profile is usable.
    s = lab("kasrkin", ["Kasrkin Sharpshooter"], SNIPER)
    s, _ = s.apply("Activate KAS-1 engage")
    assert s.is_legal(f"Shoot KAS-1 {RIFLE} (concealed) at BLU-1")
    # 4 attack dice at 2+ all 1s miss; defence 3 dice; then the shot is over and done.
    s, ev = play(s, [f"Shoot KAS-1 {RIFLE} (concealed) at BLU-1"], ["1,1,1,1", "1,1,1"])
    assert of_kind(ev, "shoot_ended")


def test_concealed_position_weapon_not_usable_after_the_first_shoot_action() -> None:
    # First Shoot action with the Mobile profile (no Concealed Position*); later in the same
    # turning point the Sharpshooter counteracts: Concealed Position* only allows the first
    # Shoot action of the battle, so the Concealed profile is no longer listed or legal, while
    # the other profiles still are.
    s = lab("kasrkin", ["Kasrkin Sharpshooter"], SNIPER)
    s, _ = play(
        s,
        ["Activate KAS-1 engage", f"Shoot KAS-1 {RIFLE} (mobile) at BLU-1"],
        ["1,1,1,1", "1,1,1"],
    )
    s, _ = play(s, ["End activation", "Activate BLU-2 engage", "End activation"])
    s, _ = s.apply("Counteract KAS-1")
    listed = attack_texts(s)
    assert f"Shoot KAS-1 {RIFLE} (mobile) at BLU-1" in listed
    assert not any("(concealed)" in a for a in listed)
    with pytest.raises(IllegalActionError, match=r"Concealed Position\*.*first Shoot action"):
        s.apply(f"Shoot KAS-1 {RIFLE} (concealed) at BLU-1")


def test_concealed_position_kommando_snipa_boy() -> None:
    # The same rule on the Kommandos' datacard (its own rule id, the same implementation).
    s = lab(
        "kommandos",
        ["Kommando Snipa Boy"],
        {"KOM-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-2": {"at": (25, 20)}},
    )
    s, _ = s.apply("Activate KOM-1 engage")
    concealed = [a for a in attack_texts(s) if "(concealed)" in a]
    assert concealed
    s, _ = play(s, [concealed[0]], ["1,1,1,1,1", "1,1,1"])
    s, _ = play(s, ["End activation", "Activate BLU-2 engage", "End activation"])
    s, _ = s.apply("Counteract KOM-1")
    assert not any("(concealed)" in a for a in attack_texts(s))


# -------------------------------------------------------------------------------------------
# Siphon Life*
# -------------------------------------------------------------------------------------------

ACOLYTE = ["Legionary Balefire Acolyte", "Legionary Butcher"]
# The Acolyte LEG-1 shoots BLU-1 down the open lane; the Butcher LEG-2 (a LEGIONARY, 14
# wounds on its datacard) stands 3" from it, wounded to 5; BLU-2 is far away (B's second
# operative). Both types have a single loadout.
SIPHON = {
    "LEG-1": {"at": (5, 14)},
    "LEG-2": {"at": (5, 17), "wounds": 5},
    "BLU-1": {"at": (16, 14)},
    "BLU-2": {"at": (25, 20)},
}
SYPHON = "Shoot LEG-1 life syphon at BLU-1"


def test_siphon_life_decided_when_the_weapon_is_selected_before_any_attack_die() -> None:
    # The rule is used "when you select this weapon": the decision comes as the Shoot action
    # starts, before the attack dice are rolled (the next node rolls them), and names no
    # operative yet; the notation round-trips.
    s, ev = play(lab("legionaries", ACOLYTE, SIPHON), ["Activate LEG-1 engage", SYPHON])
    assert not of_kind(ev, "dice_rolled")
    assert s.node == Decision("A", "team_rule")
    assert [str(a) for a in s.legal_actions()] == ["Decline", "Use siphon life"]
    assert str(parse_action("use  Siphon Life")) == "Use siphon life"
    with pytest.raises(IllegalActionError, match="names no operative yet"):
        s.apply("Use siphon life on LEG-2")
    s, _ = s.apply("Use siphon life")
    assert isinstance(s.node, Chance)  # the attack dice come next


def test_siphon_life_heals_one_per_normal_and_d3_per_crit_that_inflict_damage() -> None:
    # Life Syphon 5 attacks, Hit 3+, 3/3. Attack 6,3,3,1,1: 1 crit + 2 normals; defence
    # 1,1,1 saves nothing, so all three dice inflict damage (3+3+3 = 9 on BLU-1, 10 -> 1).
    # LEG-2 is the only operative that can be selected (LEG-1 unhurt, and it cannot lose
    # wounds while shooting), so it is selected without a decision at the Resolve step.
    # +1 per normal (2) and D3 per crit: a 5 is a D3 of 3 -> 5+2+3 = 10.
    s, ev = play(
        lab("legionaries", ACOLYTE, SIPHON),
        ["Activate LEG-1 engage", SYPHON, "Use siphon life"],
        ["6,3,3,1,1", "1,1,1", "5"],
    )
    assert s.operative("BLU-1").wounds == 1
    assert s.operative("LEG-2").wounds == 10
    assert [e["wounds"] for e in of_kind(ev, "wounds_regained")] == [2, 3]
    assert [e["on"] for e in of_kind(ev, "team_rule_selected")] == ["LEG-2"]


# Both LEG-1 (the wielder, 14 wounds on its datacard, at 10) and LEG-2 have lost wounds.
BOTH_HURT = {**SIPHON, "LEG-1": {"at": (5, 14), "wounds": 10}}


def test_siphon_life_operative_selected_at_the_start_of_the_resolve_step() -> None:
    # Decision 2 comes after the dice (attack 3,3,1,1,1: 2 normals; defence 1,1,1), at the
    # start of the Resolve step, among the friendly LEGIONARY operatives visible and within
    # 6" that lost wounds (the wielder sees itself at 0"); the rule is already used, so there
    # is no Decline. 2 normals inflict damage: LEG-1 regains 2 (10 -> 12).
    s, _ = play(
        lab("legionaries", ACOLYTE, BOTH_HURT),
        ["Activate LEG-1 engage", SYPHON, "Use siphon life"],
        ["3,3,1,1,1", "1,1,1"],
    )
    assert s.node == Decision("A", "team_rule")
    assert [str(a) for a in s.legal_actions()] == [
        "Use siphon life on LEG-1",
        "Use siphon life on LEG-2",
    ]
    s, _ = s.apply("Use siphon life on LEG-1")
    assert s.operative("LEG-1").wounds == 12
    assert s.operative("LEG-2").wounds == 5


def test_siphon_life_declined_asks_nothing_more_and_heals_nothing() -> None:
    # Declined when the weapon is selected: no operative is selected at the Resolve step even
    # though two could be (BOTH_HURT), and nobody regains wounds.
    s, ev = play(
        lab("legionaries", ACOLYTE, BOTH_HURT),
        ["Activate LEG-1 engage", SYPHON, "Decline"],
        ["6,3,3,1,1", "1,1,1"],
    )
    assert s.node == Decision("A", "action")  # the shot is over: no second decision
    assert not of_kind(ev, "team_rule_used") and not of_kind(ev, "wounds_regained")
    assert s.operative("LEG-2").wounds == 5
    assert s.operative("BLU-1").wounds == 1  # the attack itself is unchanged


def test_siphon_life_never_heals_above_starting_wounds() -> None:
    # LEG-2 at 13 of 14 wounds: two normals would heal 2, only 1 was lost.
    ops = {**SIPHON, "LEG-2": {"at": (5, 17), "wounds": 13}}
    s, _ = play(
        lab("legionaries", ACOLYTE, ops),
        ["Activate LEG-1 engage", SYPHON, "Use siphon life"],
        ["3,3,1,1,1", "1,1,1"],
    )
    assert s.operative("LEG-2").wounds == 14


def test_siphon_life_not_offered_when_it_cannot_heal() -> None:
    # Nobody friendly within 6" has lost a wound (LEG-2 unhurt; the unhurt shooter cannot
    # lose wounds while shooting): using it would change nothing, so no decision is asked
    # when the weapon is selected: the attack dice come next.
    ops = {**SIPHON, "LEG-2": {"at": (5, 17)}}
    s, _ = play(lab("legionaries", ACOLYTE, ops), ["Activate LEG-1 engage", SYPHON])
    assert isinstance(s.node, Chance)
    s, ev = play(s, [], ["6,3,3,1,1", "1,1,1"])
    assert not of_kind(ev, "team_rule_used")
    assert s.node == Decision("A", "action")
    # A wounded friendly 7" away is out of reach (6"), and nothing moves during the action:
    # still no decision.
    far = {**SIPHON, "LEG-2": {"at": (5, 14 - 7 - 2 * 0.63), "wounds": 5}}
    s, _ = play(lab("legionaries", ACOLYTE, far), ["Activate LEG-1 engage", SYPHON])
    assert isinstance(s.node, Chance)


def test_siphon_life_once_per_turning_point_per_weapon() -> None:
    # Used with the Life Syphon in LEG-1's activation (2 normals: LEG-2 5 -> 7); in its
    # counteraction the same turning point (B still has BLU-1 ready, A has nobody ready),
    # shooting the Life Syphon again offers no Siphon Life decision.
    ops = {**SIPHON, "BLU-3": {"at": (25, 2)}}
    s, _ = play(
        lab("legionaries", ACOLYTE, ops, blu=("Trooper",) * 3),
        ["Activate LEG-1 engage", SYPHON, "Use siphon life"],
        ["3,3,1,1,1", "1,1,1"],
    )
    assert s.operative("LEG-2").wounds == 7
    s, _ = play(
        s,
        ["End activation", "Activate BLU-2 engage", "End activation", "Activate LEG-2 engage"],
    )
    s, _ = play(s, ["End activation", "Activate BLU-3 engage", "End activation"])
    s, ev = play(s, ["Counteract LEG-1", SYPHON], ["3,3,1,1,1", "1,1,1"])
    assert of_kind(ev, "shoot_ended")  # the second shot ran to its end...
    assert not of_kind(ev, "team_rule_used")  # ...without a second use this turning point
    assert s.operative("LEG-2").wounds == 7


def test_siphon_life_used_spends_the_limit_even_if_no_die_damages() -> None:
    # Used when the weapon is selected, then every attack die misses (1s at Hit 3+): nothing
    # is selected or healed, but the once-per-turning-point limit is spent all the same, so
    # the Life Syphon's next Shoot action this turning point (a counteraction, as above)
    # offers no decision: its attack dice come straight after the selection.
    ops = {**SIPHON, "BLU-3": {"at": (25, 2)}}
    s, ev = play(
        lab("legionaries", ACOLYTE, ops, blu=("Trooper",) * 3),
        ["Activate LEG-1 engage", SYPHON, "Use siphon life"],
        ["1,1,1,1,1", "1,1,1"],
    )
    assert [e["rule"] for e in of_kind(ev, "team_rule_used")] == ["Siphon Life"]
    assert not of_kind(ev, "team_rule_selected") and not of_kind(ev, "wounds_regained")
    s, _ = play(
        s,
        ["End activation", "Activate BLU-2 engage", "End activation", "Activate LEG-2 engage"],
    )
    s, _ = play(s, ["End activation", "Activate BLU-3 engage", "End activation"])
    s, _ = play(s, ["Counteract LEG-1", SYPHON])
    assert isinstance(s.node, Chance)


def test_siphon_life_in_a_fight_heals_per_strike_and_the_wielder_can_choose_itself() -> None:
    # LEG-1 (Acolyte, 14 wounds... unhurt) fights BLU-1 with the Fell Dagger (5 attacks,
    # Hit 3+, 3/4). The weapon is selected as the Fight action starts: the decision comes
    # then, before either side rolls. In a fight the wielder can lose wounds during the
    # Resolve step, so it is a candidate even unhurt; LEG-2 (wounded, 3" away) is the other.
    close = 2 * 0.63 + 0.5
    ops = {**SIPHON, "BLU-1": {"at": (5 + close, 14)}}
    s, ev = play(
        lab("legionaries", ACOLYTE, ops),
        ["Activate LEG-1 engage", "Fight LEG-1 fell dagger at BLU-1"],
    )
    assert not of_kind(ev, "dice_rolled")
    assert [str(a) for a in s.legal_actions()] == ["Decline", "Use siphon life"]
    s, _ = play(
        s,
        ["Use siphon life"],
        ["3,1,1,1,1", "1,1,1"],  # LEG-1: one normal success; BLU-1's Knife: nothing
    )
    assert [str(a) for a in s.legal_actions()] == [
        "Use siphon life on LEG-1",
        "Use siphon life on LEG-2",
    ]
    # The single normal strike inflicts 3 damage: LEG-2 regains 1 wound (5 -> 6).
    s, _ = play(s, ["Use siphon life on LEG-2", "Strike normal"])
    assert s.operative("BLU-1").wounds == 10 - 3
    assert s.operative("LEG-2").wounds == 6


def test_siphon_life_of_a_retaliating_defender_decided_when_its_weapon_is_selected() -> None:
    # BLU-1 fights LEG-1; LEG-1's Fell Dagger (its only melee weapon) is its retaliating
    # weapon, selected as the Fight action starts: A decides then, before any die is rolled.
    # BLU-1's Knife rolls 1,1,1 (nothing); LEG-1's 3,1,1,1,1 is one normal success, whose
    # strike inflicts 3 damage (10 -> 7) and heals the selected LEG-2 1 wound (5 -> 6).
    close = 2 * 0.63 + 0.5
    ops = {**SIPHON, "BLU-1": {"at": (5 + close, 14)}}
    s, ev = play(
        lab("legionaries", ACOLYTE, ops),
        ["Activate LEG-2 engage", "End activation", "Activate BLU-1 engage"],
    )
    s, ev = play(s, ["Fight BLU-1 knife at LEG-1"])
    assert not of_kind(ev, "dice_rolled")
    assert s.node == Decision("A", "team_rule")
    assert [str(a) for a in s.legal_actions()] == ["Decline", "Use siphon life"]
    s, _ = play(s, ["Use siphon life"], ["1,1,1", "3,1,1,1,1"])
    assert [str(a) for a in s.legal_actions()] == [
        "Use siphon life on LEG-1",
        "Use siphon life on LEG-2",
    ]
    s, _ = play(s, ["Use siphon life on LEG-2", "Strike normal"])
    assert s.operative("BLU-1").wounds == 10 - 3
    assert s.operative("LEG-2").wounds == 6


# -------------------------------------------------------------------------------------------
# Explosive*
# -------------------------------------------------------------------------------------------

SQUIG_R = 25 / 25.4 / 2  # the Bomb Squig's 25 mm base
BLU_R = 32 / 25.4 / 2
# KOM-1 (Bomb Squig: 5 wounds, Save 5+; explosives 6 attacks, Hit 4+, 4/5, Blast 1",
# Limited 1, Explosive*) with BLU-1 0.5" away (base to base: within control range and within
# the Blast's 1"); KOM-2 (a Boy) and BLU-2 far from both.
SQUIG = {
    "KOM-1": {"at": (15, 14)},
    "KOM-2": {"at": (5, 20)},
    "BLU-1": {"at": (15 + SQUIG_R + BLU_R + 0.5, 14)},
    "BLU-2": {"at": (25, 4)},
}


def test_explosive_shoots_within_enemy_control_range_and_targets_the_shooter_itself() -> None:
    s = lab("kommandos", ["Kommando Bomb Squig", "Kommando Boy"], SQUIG)
    s, _ = s.apply("Activate KOM-1 engage")
    shots = [a for a in attack_texts(s) if a.startswith("Shoot")]
    # Shoot within an enemy's control range is allowed for this weapon only, and no valid
    # target is selected: the only shot lists the squig itself as the primary target.
    assert shots == ["Shoot KOM-1 explosives at KOM-1"]
    with pytest.raises(IllegalActionError, match="primary target is always KOM-1"):
        s.apply("Shoot KOM-1 explosives at BLU-1")


def test_explosive_primary_target_never_in_cover_and_blast_reaches_the_enemy() -> None:
    s = lab("kommandos", ["Kommando Bomb Squig", "Kommando Boy"], SQUIG)
    # Squig (primary): attack all 1s, no damage (so it stays uninjured and keeps Hit 4+).
    # BLU-1 (Blast 1" secondary): 6,4,1,1,1,1 = crit 5 + normal 4 = 9: 10 -> 1.
    s, ev = play(
        s,
        ["Activate KOM-1 engage", "Shoot KOM-1 explosives at KOM-1"],
        ["1,1,1,1,1,1", "1,1,1", "6,4,1,1,1,1", "1,1,1"],
    )
    (declared,) = of_kind(ev, "shoot_declared")
    assert declared["target"] == "KOM-1"
    retained = of_kind(ev, "attack_retained")
    assert [(e["target"], e["obscured"]) for e in retained] == [("KOM-1", False), ("BLU-1", False)]
    saves = of_kind(ev, "saves_retained")
    assert saves[0]["cover"] == 0  # never in cover: no cover save for the squig
    assert s.operative("BLU-1").wounds == 1


def test_explosive_does_not_let_other_weapons_shoot_in_control_range() -> None:
    # A Kommando Boy (Slugga, no Explosive*) within BLU-1's control range cannot Shoot (3.2).
    ops = {"KOM-2": {"at": (15, 14)}, "BLU-1": {"at": (15 + 2 * BLU_R + 0.5, 14)}}
    s = lab("kommandos", ["Kommando Bomb Squig", "Kommando Boy"], ops)
    s, _ = s.apply("Activate KOM-2 engage")
    assert not [a for a in s.legal_actions() if a.verb == "Shoot"]
    with pytest.raises(IllegalActionError, match=r"within control range of an enemy"):
        s.apply("Shoot KOM-2 slugga at BLU-1")


# -------------------------------------------------------------------------------------------
# Magnify*
# -------------------------------------------------------------------------------------------

CONDUIT = "Shoot HIE-1 arcane conduit at BLU-1"  # Apprentek: 4 attacks, Hit 3+, Piercing 1


def magnify(order: str = "engage", lane: float = 4, target_order: str = "conceal") -> GameState:
    """HIE-1 (Apprentek) at (5, lane) activated; BLU-1 at (16, lane); HIE-2 (Psychomancer,
    a CRYPTEK) at (21, lane), beyond BLU-1, with ``order``."""
    ops = {
        "HIE-1": {"at": (5, lane)},
        "HIE-2": {"at": (21, lane), "order": order},
        "BLU-1": {"at": (16, lane), "order": target_order},
        "BLU-2": {"at": (25, 20)},
    }
    s = lab("hierotek_circle", ["Apprentek", "Psychomancer"], ops)
    return s.apply("Activate HIE-1 engage")[0]


def test_magnify_valid_target_and_cover_judged_from_the_engaged_cryptek() -> None:
    # BLU-1 (Conceal) is behind the rubble seen from HIE-1: in cover, so not a valid target
    # (4.5). Seen from HIE-2 on the far side the rubble is behind it: not in cover, valid.
    # Through HIE-2 the shot is legal, and Magnify must be used through it (the only
    # operative that makes it valid): no decision is asked.
    s = magnify()
    assert s.is_legal(CONDUIT)
    s, ev = s.apply(CONDUIT)
    assert [(e["rule"], e["on"]) for e in of_kind(ev, "team_rule_used")] == [("Magnify", "HIE-2")]
    # Used: Ceaseless until the end of the action: attack 3,1,1,2 offers re-rolling both 1s.
    s, _ = play(s, [], ["3,1,1,2"])
    assert "Re-roll 1,1" in [str(a) for a in s.legal_actions()]
    # Re-rolled to 6,6: 2 crits + 1 normal; no cover save (cover judged from HIE-2) and
    # Piercing 1 leaves 2 defence dice.
    s, ev = play(s, ["Re-roll 1,1"], ["6,6", "1,1"])
    (saves,) = of_kind(ev, "saves_retained")
    assert saves["cover"] == 0
    assert [e["values"] for e in of_kind(ev, "dice_rolled") if e["label"] == "defence"] == [(1, 1)]


def test_magnify_needs_the_other_operative_to_have_an_engage_order() -> None:
    # HIE-2 on a Conceal order cannot be used: the Conceal target in cover stays invalid.
    s = magnify(order="conceal")
    with pytest.raises(IllegalActionError, match=r"Conceal order and is in cover"):
        s.apply(CONDUIT)


def test_magnify_is_a_choice_and_declining_gives_no_ceaseless() -> None:
    # Open lane, Engage target: valid from HIE-1 itself, so Magnify may be declined.
    s, _ = magnify(lane=14, target_order="engage").apply(CONDUIT)
    assert [str(a) for a in s.legal_actions()] == ["Decline", "Use magnify on HIE-2"]
    # Declined: no Ceaseless, so after attack 3,1,1,2 the next node rolls defence dice.
    declined, _ = play(s, ["Decline"], ["3,1,1,2"])
    assert declined.node.request.kind == "defence"  # type: ignore[union-attr]
    used, _ = play(s, ["Use magnify on HIE-2"], ["3,1,1,2"])
    assert used.node.kind == "reroll"  # type: ignore[union-attr]


def test_battles_with_every_team_weapon_rule_in_play_finish_and_replay() -> None:
    # Conformance with the rule carriers fielded (Bomb Squig, Snipa Boy, Balefire Acolyte):
    # each battle ends, and re-applying its inputs' notation reproduces the final state.
    kom, leg = lab_team("kommandos"), lab_team("legionaries")
    rk = Roster(kom, ("Kommando Bomb Squig", "Kommando Snipa Boy", "Kommando Boy"))
    rl = Roster(leg, ("Legionary Balefire Acolyte", "Legionary Butcher", "Legionary Anointed"))
    start = new_game(load_killzone("open_ruins"), rk, rl)
    for seed in (1, 2):
        steps: list[str] = []

        def on_step(
            before: Any, action: Any, actor: str, after: Any, events: Any, steps: Any = steps
        ) -> None:
            steps.append(str(action))

        agents = {"A": make_agent("heuristic", 0), "B": make_agent("random", seed)}
        final = drive(start, agents, SeededDice(seed), on_step=on_step)
        assert final.is_terminal
        again = start
        for text in steps:
            again, _ = again.apply(text)
        assert again.hash() == final.hash()
