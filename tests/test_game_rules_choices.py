"""The players' own choices in an attack (``rules/KT24.md`` 4.5, 4.7, 5.1, 5.2, 6; the table
in the :mod:`engine.game.attacks` docstring): the defender's choice between cover and
obscured from one feature, the attacker's Accurate dice, Punishing, Rending and Severe, and
the defender's cover save (improved cover too). For each: (a) the decision goes to the right
player when the options differ in effect, (b) none when they do not, (c) each option's
effect, (d) the heuristic agent's pick where the better option is clear.

Teams: the LAB test teams (``tests/test_game_rules_common.py``) with one more RED type, the
Chooser, carrying one weapon per choice. Every operative has Save 4+ and 10 wounds; the Gun
is 4 attacks, Hit 3+, 3/4. CP are 0: no Command Re-roll window opens.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.agents import HeuristicAgent
from engine.game import Decision, GameState
from engine.game.actions import Action, parse_action
from engine.geometry import Killzone, load_killzone
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster
from tests.test_game_rules_common import (
    BLU,
    GUN,
    KNIFE,
    R,
    _operative,
    _profile,
    _weapon,
    lab_data,
    of_kind,
    play,
    rect,
    roster,
    team_data,
)

H = HeuristicAgent()

CHOOSER_WEAPONS = [
    _weapon("One Shot", "ranged", _profile(1, "3+", "3/4")),
    _weapon("Sniper", "ranged", _profile(4, "3+", "3/4", "Accurate 1")),
    _weapon("Crit Sniper", "ranged", _profile(2, "2+", "1/10", "Accurate 1, Lethal 2+")),
    _weapon("Punisher", "ranged", _profile(4, "3+", "3/4", "Punishing")),
    _weapon("Render", "ranged", _profile(4, "3+", "3/4", "Rending")),
    _weapon("Punishing Render", "ranged", _profile(4, "3+", "3/4", "Punishing, Rending")),
    _weapon("Severer", "ranged", _profile(4, "3+", "3/4", "Severe")),
    _weapon("Blast Punisher", "ranged", _profile(4, "3+", "2/3", 'Blast 2", Punishing')),
    _weapon("Brute Gun", "ranged", _profile(4, "3+", "3/4", "Brutal")),
    _weapon("Saturate Gun", "ranged", _profile(4, "3+", "3/4", "Saturate")),
    _weapon("Rending Blade", "melee", _profile(4, "3+", "3/4", "Rending")),
]


def _red_data() -> dict[str, Any]:
    data = team_data("red")
    data["operatives"].append(_operative("Chooser", [GUN, *CHOOSER_WEAPONS, KNIFE]))
    return data


RED_C = team_from_dict(_red_data(), "red")


def _kz() -> Killzone:
    """LAB with its "ruin" lane (y 8-12) made of one Heavy feature of two parts: the 1" block
    midway (obscures a target at (16, 10) from (5, 10)) and a low wall 0.5" in front of that
    target (cover), so the same feature gives both (4.5 "Same feature"). A second such
    feature sits in the open lane (y 13-16) for the "both" option."""
    data = lab_data()
    for f in data["features"]:
        if f["name"] == "ruin":
            f["parts"].append(
                {"polygon": rect(15 - R, 9, 15.5 - R, 11), "height": 0.75, "types": ["Heavy"]}
            )
    for name, far, near in (("twin ruin", 10, (15, 15.5)), ("twin ruin 2", 12, (15.6, 15.9))):
        parts = [
            {"polygon": rect(far, 13, far + 1, 16), "height": 1.0, "types": ["Heavy"]},
            {
                "polygon": rect(near[0] - R, 13.5, near[1] - R, 15.5),
                "height": 0.75,
                "types": ["Heavy"],
            },
        ]
        data["features"].append({"name": name, "parts": parts})
    return Killzone.from_dict(data, "choices")


KZ = _kz()
HEIGHTS = load_killzone(Path(__file__).parent.parent / "scenarios" / "killzones" / "heights.toml")
BLU_ROSTER = ("Trooper", "Trooper", "Trooper")


def pos(ops: dict[str, dict[str, Any]], kz: Killzone = KZ) -> GameState:
    """RED-1 the Chooser (RED-2 a Trooper) against BLU Troopers, A to activate, 0 CP."""
    return position(
        kz,
        Roster(RED_C, ("Chooser", "Trooper")),
        roster(BLU, BLU_ROSTER),
        operatives=ops,
        cp=(0, 0),
    )


def shoot(y: float, weapon: str, order: str = "engage", **extra: Any) -> GameState:
    """RED-1 at (5, y) activated with Engage and shooting ``weapon`` at BLU-1 at (16, y)."""
    ops = {"RED-1": {"at": (5, y)}, "BLU-1": {"at": (16, y), "order": order}, **extra}
    s, _ = play(pos(ops), ["Activate RED-1 engage", f"Shoot RED-1 {weapon} at BLU-1"])
    return s


def options(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def retained(ev: list[Any]) -> tuple[int, int]:
    """``(normals, crits)`` of the first ``attack_retained`` event."""
    e = of_kind(ev, "attack_retained")[0]
    return e["normals"], e["crits"]


def dice_requested(s: GameState) -> int:
    return s.node.request.dice  # type: ignore[union-attr,no-any-return]


# -------------------------------------------------------------------------------------------
# 4.5 "Same feature": cover or obscured, the defender's choice at target selection
# -------------------------------------------------------------------------------------------


def test_4_5_same_feature_defender_chooses_cover_or_obscured() -> None:
    # The two-part Heavy feature both gives BLU-1 cover and obscures it: B chooses (4.5).
    s = shoot(10, "gun")
    assert s.node == Decision("B", "same_feature")
    assert options(s) == ["Same feature cover", "Same feature obscured"]


def test_4_5_same_feature_not_offered_without_a_shared_feature() -> None:
    # The rubble lane: the Light rubble gives cover and nothing obscures: no choice, the
    # attack roll comes at once.
    assert dice_requested(shoot(4, "gun")) == 4
    # With Saturate cover saves cannot be retained, yet taking cover from the shared feature
    # still means not being obscured (no success discarded): a different effect, so it is
    # still offered (the engine never judges an option too bad to list).
    assert options(shoot(10, "saturate gun")) == ["Same feature cover", "Same feature obscured"]


def test_4_5_same_feature_each_option_applies() -> None:
    # Obscured: 6,6,3,1 -> 3 normals (crits become normal), one discarded: 2 normals; no
    # cover save, 3 defence dice (all fail): 2 x 3 = 6 damage.
    s, ev = play(shoot(10, "gun"), ["Same feature obscured"], ["6,6,3,1", "1,1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["crits"], ret["obscured"]) == (2, 0, True)
    assert s.operative("BLU-1").wounds == 10 - 6
    # Cover: 6,6,3,1 -> 2 crits + 1 normal kept; cover save (asked: retained) + 2 rolled
    # dice (fail): the normal save blocks the normal, 2 x 4 = 8 damage.
    s, ev = play(shoot(10, "gun"), ["Same feature cover", "Cover save normal"], ["6,6,3,1", "1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["crits"], ret["obscured"]) == (1, 2, False)
    (saves,) = of_kind(ev, "saves_retained")
    assert saves["cover"] == 1
    assert s.operative("BLU-1").wounds == 10 - 8


def test_4_5_same_feature_both_with_two_shared_features() -> None:
    # Two features each give cover and obscure BLU-1 in the open lane: "both" is a third
    # effect (in cover and obscured).
    s = shoot(14.5, "gun")
    assert s.node == Decision("B", "same_feature")
    assert options(s) == ["Same feature both", "Same feature cover", "Same feature obscured"]
    s, ev = play(s, ["Same feature both", "Cover save normal"], ["3,3,3,1", "1,1"])
    (ret,) = of_kind(ev, "attack_retained")
    assert (ret["normals"], ret["obscured"]) == (2, True)  # 3 normals, one discarded
    assert of_kind(ev, "saves_retained")[0]["cover"] == 1


def test_4_5_same_feature_heuristic_takes_obscured_against_one_die() -> None:
    # One Shot has 1 attack die: obscured discards its only success (0 damage for sure),
    # cover only adds a save. The defender picks obscured.
    assert H.act(shoot(10, "one shot")) == parse_action("Same feature obscured")


# -------------------------------------------------------------------------------------------
# 6 Accurate x: the attacker retains 0 to x dice unrolled
# -------------------------------------------------------------------------------------------


def test_6_accurate_attacker_chooses_how_many_dice() -> None:
    s = shoot(4, "sniper")  # the rubble lane: in cover, not obscured
    assert s.node == Decision("A", "accurate")
    assert options(s) == ["Accurate 0", "Accurate 1"]


def test_6_accurate_not_offered_without_accurate() -> None:
    assert dice_requested(shoot(4, "gun")) == 4  # straight to the attack roll


def test_6_accurate_each_option_applies() -> None:
    # Accurate 1: one normal retained unrolled, 3 dice rolled (1,1,1): 1 normal.
    s, ev = play(shoot(4, "sniper"), ["Accurate 1"], ["1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 1
    # Accurate 0: all 4 dice rolled (1,1,1,1): nothing retained.
    s = shoot(4, "sniper").apply("Accurate 0")[0]
    assert dice_requested(s) == 4
    _, ev = play(s, [], ["1,1,1,1", "1,1"])
    assert of_kind(ev, "attack_retained")[0]["normals"] == 0


def test_6_accurate_heuristic_retains_a_normal_but_rolls_for_crits() -> None:
    # Sniper 3/4 dmg: a retained normal is 3 damage for sure; a rolled die is worth
    # 3 x 3/6 + 4 x 1/6 = 2.17 on average before saves: retain (Accurate 1).
    assert H.act(shoot(4, "sniper")) == parse_action("Accurate 1")
    # Crit Sniper (Hit 2+, Lethal 2+, 1/10): a rolled die is a 10-damage crit 5 times in 6,
    # a retained die a 1-damage normal: roll every die (Accurate 0).
    assert H.act(shoot(4, "crit sniper")) == parse_action("Accurate 0")


# -------------------------------------------------------------------------------------------
# 6 Punishing, Rending, Severe: the attacker may apply each
# -------------------------------------------------------------------------------------------


def _rolled(weapon: str, attack: str) -> GameState:
    """After ``weapon``'s attack dice ``attack`` against BLU-1 in cover (the rubble lane)."""
    s, _ = play(shoot(4, weapon), [], [attack])
    return s


def test_6_punishing_attacker_chooses() -> None:
    s = _rolled("punisher", "6,3,1,1")  # a crit and a fail: Punishing could apply
    assert s.node == Decision("A", "retention_rule")
    assert options(s) == ["Apply Punishing", "Decline"]


def test_6_punishing_not_offered_without_crit_or_fail() -> None:
    # 3,3,1,1: no crit retained; 6,3,3,3: no fail. Either way no choice: B's cover save is
    # the next decision.
    assert _rolled("punisher", "3,3,1,1").node == Decision("B", "cover_save")
    assert _rolled("punisher", "6,3,3,3").node == Decision("B", "cover_save")


def test_6_punishing_each_option_applies() -> None:
    # 6,3,1,1: 1 crit, 1 normal, 2 fails. Apply: a fail retained as a normal -> (2, 1).
    _, ev = play(_rolled("punisher", "6,3,1,1"), ["Apply Punishing"])
    assert retained(ev) == (2, 1)
    _, ev = play(_rolled("punisher", "6,3,1,1"), ["Decline"])
    assert retained(ev) == (1, 1)


def test_6_rending_attacker_chooses_and_each_option_applies() -> None:
    s = _rolled("render", "6,3,1,1")
    assert s.node == Decision("A", "retention_rule")
    assert options(s) == ["Apply Rending", "Decline"]
    # Apply: the normal becomes a crit -> (0, 2); decline -> (1, 1).
    _, ev = play(s, ["Apply Rending"])
    assert retained(ev) == (0, 2)
    _, ev = play(s, ["Decline"])
    assert retained(ev) == (1, 1)
    # Not offered without a crit (3,3,1,1) or without a normal (6,1,1,1).
    assert _rolled("render", "3,3,1,1").node == Decision("B", "cover_save")
    assert _rolled("render", "6,1,1,1").node == Decision("B", "cover_save")


def test_6_punishing_then_rending_order() -> None:
    # 6,1,1,1: 1 crit, 3 fails. Punishing first; once applied Rending can upgrade its new
    # normal (-> (0, 2)); declined, Rending has no normal and is not offered (-> (0, 1)).
    s = _rolled("punishing render", "6,1,1,1")
    assert options(s) == ["Apply Punishing", "Decline"]
    s2, _ = play(s, ["Apply Punishing"])
    assert options(s2) == ["Apply Rending", "Decline"]
    _, ev = play(s2, ["Apply Rending"])
    assert retained(ev) == (0, 2)
    s3, ev = play(s, ["Decline"])
    assert retained(ev) == (0, 1)
    assert s3.node == Decision("B", "cover_save")


def test_6_severe_attacker_chooses_and_each_option_applies() -> None:
    s = _rolled("severer", "3,3,1,1")  # no crit, 2 normals
    assert s.node == Decision("A", "retention_rule")
    assert options(s) == ["Apply Severe", "Decline"]
    _, ev = play(s, ["Apply Severe"])
    assert retained(ev) == (1, 1)
    _, ev = play(s, ["Decline"])
    assert retained(ev) == (2, 0)
    # With a crit retained Severe does nothing: not offered.
    assert _rolled("severer", "6,3,1,1").node == Decision("B", "cover_save")


def test_6_retention_rules_not_offered_against_an_obscured_target() -> None:
    # Obscured (4.5): crits become normals and cannot be upgraded; Punishing does nothing.
    s, _ = play(shoot(10, "punisher"), ["Same feature obscured"], ["6,3,1,1"])
    assert not isinstance(s.node, Decision) or s.node.kind != "retention_rule"


def test_6_rending_in_a_fight_each_side_chooses() -> None:
    # RED-1 fights BLU-1 with the Rending Blade; BLU-1 retaliates with its Knife (no rule).
    ops = {"RED-1": {"at": (20, 19)}, "BLU-1": {"at": (20 + 2 * R + 0.5, 19)}}
    s, _ = play(
        pos(ops), ["Activate RED-1 engage", "Fight RED-1 rending blade at BLU-1"], ["6,3,1,1"]
    )
    s, _ = play(s, [], ["1,1,1"])
    assert s.node == Decision("A", "retention_rule")
    assert options(s) == ["Apply Rending", "Decline"]
    _, ev = play(s, ["Apply Rending"])
    ret = of_kind(ev, "attack_retained")[0]
    assert (ret["normals"], ret["crits"]) == (0, 2)
    # BLU-1 retained nothing: the upgraded crit is 4 damage instead of 3 and nothing can
    # block it, so the heuristic applies Rending.
    assert H.act(s) == parse_action("Apply Rending")


def test_6_retention_rules_heuristic_applies_against_enemies_declines_against_friends() -> None:
    # Against an enemy an extra normal (Punishing) never lowers the damage: apply.
    assert H.act(_rolled("punisher", "6,3,1,1")) == parse_action("Apply Punishing")
    # A Blast secondary that is its own operative (RED-2 1.2" from BLU-1): the extra normal
    # can only add damage to it: decline. The primary's dice miss (no choices there).
    ops = {
        "RED-1": {"at": (5, 4)},
        "BLU-1": {"at": (16, 4)},
        "RED-2": {"at": (16, 4 + 2 * R + 1.2)},
    }
    s, _ = play(
        pos(ops),
        ["Activate RED-1 engage", "Shoot RED-1 blast punisher at BLU-1"],
        ["1,1,1,1", "1,1", "6,3,1,1"],
    )
    assert s.node == Decision("A", "retention_rule")
    assert s.stack[-1].targets[s.stack[-1].idx] == "RED-2"
    assert H.act(s) == Action("Decline")


# -------------------------------------------------------------------------------------------
# 4.5, 4.7 The cover save: retained or declined; improved as one crit or two normals
# -------------------------------------------------------------------------------------------


def test_4_5_cover_save_defender_retains_or_declines() -> None:
    s, _ = play(shoot(4, "gun"), [], ["3,3,1,1"])  # 2 normals against BLU-1 in cover
    assert s.node == Decision("B", "cover_save")
    assert options(s) == ["Cover save none", "Cover save normal"]


def test_4_5_cover_save_not_offered_when_it_changes_nothing() -> None:
    # No attack success: no damage either way; the cover save is retained, 2 dice rolled.
    s, _ = play(shoot(4, "gun"), [], ["1,1,1,1"])
    assert dice_requested(s) == 2
    # Saturate: no cover save at all, 3 dice rolled.
    s, _ = play(shoot(4, "saturate gun"), [], ["3,3,1,1"])
    assert dice_requested(s) == 3


def test_4_5_cover_save_each_option_applies() -> None:
    s, _ = play(shoot(4, "gun"), [], ["3,3,1,1"])
    # Retained: 1 normal save + 2 rolled (fail): one normal blocked, 3 damage.
    s1, ev = play(s, ["Cover save normal"], ["1,1"])
    assert of_kind(ev, "saves_retained")[0]["cover"] == 1
    assert s1.operative("BLU-1").wounds == 10 - 3
    # Declined: 3 dice rolled (fail): both normals through, 6 damage.
    s2, _ = s.apply("Cover save none")
    assert dice_requested(s2) == 3
    s2, ev = play(s2, [], ["1,1,1"])
    assert of_kind(ev, "saves_retained")[0]["cover"] == 0
    assert s2.operative("BLU-1").wounds == 10 - 6


def test_4_5_cover_save_heuristic_retains_against_normals_declines_against_brutal() -> None:
    # 2 normals: a sure normal save is never worse than a rolled die: retain.
    s, _ = play(shoot(4, "gun"), [], ["3,3,1,1"])
    assert H.act(s) == parse_action("Cover save normal")
    # Brutal: only crit saves block, so a normal cover save blocks nothing while a rolled
    # die blocks on a 6: decline.
    s, _ = play(shoot(4, "brute gun"), [], ["3,3,1,1"])
    assert s.node == Decision("B", "cover_save")
    assert H.act(s) == parse_action("Cover save none")


def _improved(attack: str) -> GameState:
    """The Chooser on the low tower of the heights killzone (2.5" up) shoots a Conceal
    Trooper behind the Light barricade: an improved cover save (4.7), no Accurate."""
    ops = {"RED-1": {"at": (6, 4, 2.5)}, "BLU-1": {"at": (13.2, 3), "order": "conceal"}}
    s, _ = play(
        pos(ops, kz=HEIGHTS), ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], [attack]
    )
    return s


def test_4_7_improved_cover_save_critical_or_two_normals() -> None:
    s = _improved("3,3,3,1")  # 3 normals
    assert s.node == Decision("B", "cover_save")
    assert options(s) == ["Cover save critical", "Cover save none", "Cover save two normals"]
    # Not offered without a success: the critical save is retained, 2 dice rolled.
    assert dice_requested(_improved("1,1,1,1")) == 2


def test_4_7_improved_cover_save_each_option_applies() -> None:
    s = _improved("3,3,3,1")
    # Critical: 1 crit save + 2 rolled (fail): 2 of 3 normals through, 6 damage.
    s1, ev = play(s, ["Cover save critical"], ["1,1"])
    saves = of_kind(ev, "saves_retained")[0]
    assert (saves["normals"], saves["crits"], saves["cover"]) == (0, 1, 1)
    assert s1.operative("BLU-1").wounds == 10 - 6
    # Two normals: 2 normal saves + 1 rolled (fail): 1 normal through, 3 damage.
    s2, ev = play(s, ["Cover save two normals"], ["1"])
    saves = of_kind(ev, "saves_retained")[0]
    assert (saves["normals"], saves["crits"], saves["cover"]) == (2, 0, 2)
    assert s2.operative("BLU-1").wounds == 10 - 3


def test_4_7_improved_cover_heuristic() -> None:
    # 3 normals: two sure normal saves beat one sure save plus a rolled die (a crit save
    # blocks only one normal): two normals.
    assert H.act(_improved("3,3,3,1")) == parse_action("Cover save two normals")
    # 2 crits: a crit save blocks a crit alone and leaves 2 dice to roll; two normal saves
    # block one crit together and leave 1: critical.
    assert H.act(_improved("6,6,1,1")) == parse_action("Cover save critical")


def test_rule_choice_frame_named_choices() -> None:
    # A team rule's choice that is not an operative (e.g. an objective marker): the frame's
    # ``choices`` are offered as ``Use <rule> <choice>`` (no Decline when not optional), the
    # handler gets the name as given, and anything else is refused naming the choices.
    import pytest

    from engine.game.actions import IllegalActionError
    from engine.game.work import Work
    from engine.rules.choices import RuleChoiceFrame, on_choice
    from tests.test_game_rules_common import BLU, LAB, RED, roster

    got: list[str] = []
    on_choice("test_named", lambda w, f, chosen: got.append(chosen))
    s = position(LAB, roster(RED), roster(BLU), operatives={"RED-1": {"at": (5, 5)}})
    w = Work(s)
    frame = RuleChoiceFrame(
        "A", "Test Rule", "test_named", "RED-1", (), optional=False, choices=("East", "West")
    )
    w.stack.append(frame)
    assert [str(a) for a in frame.options(w)] == ["Use test rule east", "Use test rule west"]
    with pytest.raises(IllegalActionError, match="Use test rule east"):
        frame.act(w, Action("Decline"))
    frame.act(w, parse_action("Use test rule west"))
    assert got == ["West"]
    optional = RuleChoiceFrame("A", "Test Rule", "test_named", "RED-1", (), choices=("East",))
    assert [str(a) for a in optional.options(w)] == ["Decline", "Use test rule east"]
