"""The second reading of the KT18 engine against ``docs/rules/KT18.md``: each test names the
rule a discrepancy broke and says from the digest why the expected value is right
(``docs/rulings/kt18_audit.md`` lists every check made).

Positions: ``tests/kt18_attack_support.py`` (the LAB killzone, 25 mm bases: centres d" apart
are d - 0.984" apart; Gunners with a Rapid Fire 1 bolter of Range 24") and
``tests/kt18_flow_support.py`` (an open 30" x 22" battlefield, Troopers of M 6").
"""

from __future__ import annotations

import pytest

from engine.game.actions import IllegalActionError
from engine.game.events import Event, narrate
from engine.game.flow import list_actions
from engine.game.state import GameState
from engine.rules.kt18.falling import FallFrame
from engine.rules.kt18.fight import FighterFrame
from engine.rules.kt18.shooting import ShootingPhaseFrame
from tests.kt18_attack_support import R25, kinds, play, pos
from tests.kt18_flow_support import kt18_position


def _texts(state: GameState) -> list[str]:
    return [str(a) for a in list_actions(state)]


def _op(state: GameState, op_id: str):  # type: ignore[no-untyped-def]
    return next(o for o in state.operatives if o.id == op_id)


# -- 5.5, 5.10: Rapid Fire's doubled attacks may be split ---------------------------------


def test_rapid_fire_one_within_half_range_may_split_its_two_attacks() -> None:
    """rules/KT18.md 5.5 and 5.10: a weapon with 2 or more attacks may split them between
    the initial target and eligible enemies within 2" of it; the engine fixes the targets,
    then doubles Rapid Fire when every target is within half Range, then splits (5.5
    reading). A Rapid Fire 1 bolter (Range 24") at BLU-1 (9.02" away) with BLU-3 1.5" from
    BLU-1's centre (0.52" between bases) and 9.13" from the shooter: both within 12", so
    the bolter makes 2 attacks and may put 1 on each target (``Split 1,1``)."""
    s = pos(
        ShootingPhaseFrame(),
        {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}, "BLU-3": {"at": (15, 15.5)}},
    )
    s, _ = play(s, ["Shoot RED-1", "Shoot RED-1 bolter at BLU-1"])
    assert "Also BLU-3" in _texts(s)
    s, events = play(s, ["Also BLU-3", "Split 1,1"], ["1", "1"])
    (fired,) = kinds(events, "kt18_weapon_fired")
    assert (fired["targets"], fired["attacks"]) == (("BLU-1", "BLU-3"), (1, 1))
    assert [e["target"] for e in kinds(events, "kt18_hit_roll")] == ["BLU-1", "BLU-3"]


def test_rapid_fire_one_gets_no_second_target_beyond_half_range() -> None:
    """rules/KT18.md 5.5, 5.10: with BLU-3 12.92" from the shooter (beyond 12", half the
    bolter's 24") the two targets would not all be within half Range: the bolter keeps its
    1 attack, which cannot be split, so BLU-3 (1.92" from BLU-1) is not offered."""
    s = pos(
        ShootingPhaseFrame(),
        {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-3": {"at": (18.9, 14)}},
    )
    s, events = play(s, ["Shoot RED-1", "Shoot RED-1 bolter at BLU-1"], ["1,1"])
    (fired,) = kinds(events, "kt18_weapon_fired")
    assert (fired["targets"], fired["attacks"]) == (("BLU-1",), (2,))


# -- 3.8: a model that moves for any reason stops being Readied ---------------------------


def test_a_fall_ends_readied() -> None:
    """rules/KT18.md 3.8: if a Readied model moves for any reason it stops being Readied; a
    fall (10.7) moves the model over the edge and down, so a Readied model that falls (no
    falling-damage dice here) has lost its Ready token. A fall is not a Movement-phase move,
    so it gives no ``moved`` token (Heavy, 5.9)."""
    frame = FallFrame("RED-1", 5.0, 14.0, 0.0, 0)
    s = pos(
        frame, {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (25, 14)}}, done={"RED-1": ("readied",)}
    )
    assert s.is_terminal
    assert _op(s, "RED-1").done == ()


# -- 3.16 reading (b): reinforcements make no other move that round -----------------------


def test_reinforcements_cannot_retreat() -> None:
    """rules/KT18.md 3.16 reading (b): a model that arrived as reinforcements this battle
    round cannot move further that round, Retreat included (3.12 is a move); it may still
    fire Overwatch (a shooting attack, not a move)."""
    s = kt18_position(
        {"TESA-1": (5, 5)},
        operatives={"TESB-1": {"at": (12, 5), "tokens": ["reinforced"]}},
    )
    s, _ = s.apply("Charge TESA-1 at TESB-1")
    acts = _texts(s)
    assert not any(a.startswith("Retreat TESB-1") for a in acts)
    with pytest.raises(IllegalActionError, match=r"reinforcements"):
        s.apply("Retreat TESB-1 to 15,5")


def test_reinforcements_do_not_pile_in() -> None:
    """rules/KT18.md 3.16 reading (b): "cannot move further" covers pile in and consolidate
    (7.7); the model may still fight without moving. RED-1, 2" from BLU-1, would otherwise
    be offered a pile-in toward it: here only its attacks' step follows (no target within
    1", so the sequence ends, 7.5)."""
    frame = FighterFrame("RED-1")
    s = pos(
        frame,
        {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (5 + 2 * R25 + 2, 14)}},
        done={"RED-1": ("reinforced",)},
        phase="fight",
    )
    assert s.is_terminal  # nothing asked: no pile in, no target


def test_pile_in_is_offered_without_reinforcement() -> None:
    """rules/KT18.md 7.7: the same position without the reinforcement token offers the
    pile-in toward BLU-1 (2" away, within 3"): the control case of the test above."""
    frame = FighterFrame("RED-1")
    s = pos(
        frame, {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (5 + 2 * R25 + 2, 14)}}, phase="fight"
    )
    assert any(a.startswith("Act RED-1 pile in") for a in _texts(s))


# -- narration: every event reads right ---------------------------------------------------


@pytest.mark.parametrize(
    ("save", "saved", "text"),
    [
        ("armour", False, "  BLU-1 armour save: 2, failed"),
        ("invulnerable", True, "  BLU-1 invulnerable save: 5, saved"),
    ],
)
def test_saving_throw_narration_names_the_save_used(save: str, saved: bool, text: str) -> None:
    """rules/KT18.md 6.6, 6.7: the ``kt18_saving_throw`` event names the save used in its
    ``save`` field (armour or invulnerable); its line says which one and the die."""
    face = 5 if saved else 2
    e = Event.make(
        "kt18_saving_throw", op="RED-1", target="BLU-1", face=face, save=save, saved=saved
    )
    assert narrate(e) == text


def test_shaken_tokens_removed_are_narrated() -> None:
    """rules/KT18.md 8.3: step 2 of a player's Morale phase steadies its shaken models; the
    line names them (and says nothing when none was shaken)."""
    e = Event.make("kt18_shaken_removed", player="A", ops=("TESA-1", "TESA-2"))
    assert narrate(e) == "A's shaken models steady themselves: TESA-1, TESA-2"
    assert narrate(Event.make("kt18_shaken_removed", player="B", ops=())) == ""


# -- 5.2, 6.1: a weapon is fired once: one of its profiles -------------------------------


def _gunner_shooting() -> GameState:
    """The built-in Tactical Marine Gunner with a plasma gun (two profiles, Standard and
    Supercharge) chosen to shoot in the Shooting phase at an Ork 9.02" away (open ground)."""
    from engine.rulesets import position
    from engine.teams.io import load_builtin_team
    from engine.teams.model import Roster
    from tests.kt18_flow_support import KZ, OPTIONS

    marines = Roster.from_entries(
        load_builtin_team("kt18_space_marines"), ["Tactical Marine Gunner [Plasma gun]"]
    )
    orks = Roster.from_entries(load_builtin_team("kt18_orks"), ["Ork Boy [Shoota]"])
    s = position(
        KZ,
        marines,
        orks,
        options=OPTIONS,
        phase="shooting",
        operatives={"SPA-1": {"at": (5, 5)}, "ORK-1": {"at": (15, 5)}},
    )
    while s.node is not None and getattr(s.node, "kind", "") != "kt18_choose_shooter":
        s, _ = s.apply("Pass")
    return s


def test_a_weapon_with_two_profiles_fires_one_of_them() -> None:
    """rules/KT18.md 5.2 and 6.1: a shooting model fires each ranged weapon it carries once,
    going back to step 2 only with *another* ranged weapon. The plasma gun is one weapon
    with two profiles (Standard, Supercharge): once one profile has fired, the other is not
    offered (the model may fire its other weapons, e.g. its bolt pistol is refused only as a
    Pistol with other weapons, 5.12; here nothing else is left, so its shooting ends)."""
    s = _gunner_shooting()
    s, _ = s.apply("Shoot SPA-1")
    offered = _texts(s)
    assert "Shoot SPA-1 plasma gun (standard) at ORK-1" in offered
    assert "Shoot SPA-1 plasma gun (supercharge) at ORK-1" in offered
    s, events = play(s, ["Shoot SPA-1 plasma gun (standard) at ORK-1"], ["1,1"])
    assert not any("plasma gun" in a for a in _texts(s))
    assert [e["weapon"] for e in kinds(events, "kt18_weapon_fired")] == ["plasma gun (standard)"]


def test_damage_beyond_the_wounds_left_is_narrated_as_damage_not_wounds_lost() -> None:
    """rules/KT18.md 6.8: a model loses 1 wound per point of damage, and the excess damage of
    the attack that takes it to 0 is lost: a 2-wound model hit for 3 damage loses its 2
    wounds, so the line says it suffers 3 damage and has 0 wounds left (not "loses 3
    wounds")."""
    e = Event.make(
        "kt18_wounds_lost", op="SPA-8", damage=3, wounds=0, by="ORK-3", source="rokkit launcha"
    )
    assert narrate(e) == "  SPA-8 suffers 3 damage: 0 wound(s) left"
