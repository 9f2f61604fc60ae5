"""The KT18 Fight phase (rules/KT18.md 7.1-7.8): Hammer of Wrath first, who must fight, pile
in and consolidate, targets within 1", the charged model's targets, the default close combat
weapon, random Damage and several Injury dice in melee. Positions:
tests/kt18_attack_support.py; ``CLOSE`` puts two 25 mm bases 0.5" apart (within 1")."""

from __future__ import annotations

import pytest

from engine.game.actions import IllegalActionError
from engine.game.flow import list_actions
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt18.fight import FightPhaseFrame
from tests.kt18_attack_support import R25, kinds, play, pos

CLOSE = 2 * R25 + 0.5


def _fight(ops: dict[str, tuple[float, float]], **kw: object) -> object:
    return pos(
        FightPhaseFrame(),
        {k: {"at": v} for k, v in ops.items()},
        phase="fight",
        **kw,  # type: ignore[arg-type]
    )


def _texts(state: object) -> list[str]:
    return [str(a) for a in list_actions(state)]  # type: ignore[arg-type]


def test_hammer_of_wrath_the_charger_fights_first_even_without_the_initiative() -> None:
    """rules/KT18.md 7.1, 7.2: Hammer of Wrath comes first and only models that charged this
    battle round fight in it: B has the initiative but no charger, so A's Brute fights
    first; A may not pass while its charger can fight."""
    s = _fight(
        {"RED-2": (15, 14), "BLU-1": (15 + CLOSE, 14)},
        done={"RED-2": ("charged",), "BLU-1": ("was_charged", "charged_by:RED-2")},
        initiative="B",
    )
    assert s.node.player == "A"  # type: ignore[union-attr]
    assert _texts(s) == ["Act RED-2 fight"]


def test_fight_for_your_lives_after_hammer_of_wrath() -> None:
    """rules/KT18.md 7.3, 7.4: once the charger has fought, Fight For Your Lives lets the
    charged model (B's Gunner, still within 1") fight back; B cannot pass."""
    s = _fight(
        {"RED-2": (15, 14), "BLU-1": (15 + CLOSE, 14)},
        done={"RED-2": ("charged",), "BLU-1": ("was_charged", "charged_by:RED-2")},
        initiative="B",
    )
    s, events = play(
        s,
        ["Act RED-2 fight", "Pass", "Fight RED-2 power fist at BLU-1"],
        ["1,1"],  # no pile-in; both attacks miss
    )
    s, events = play(s, ["Pass"])  # no consolidation
    assert [e["section"] for e in kinds(events, "kt18_section_started")] == ["lives"]
    assert s.node.player == "B"  # type: ignore[union-attr]
    assert _texts(s) == ["Act BLU-1 fight"]


def test_a_charged_model_targets_only_the_enemy_it_charged() -> None:
    """rules/KT18.md 7.5 step 2: after charging, only enemies it charged (or that charged it)
    may be targeted: BLU-1 was charged, BLU-3 (also within 1") was not."""
    s = _fight(
        {"RED-2": (15, 14), "BLU-1": (15 + CLOSE, 14), "BLU-3": (15, 14 - CLOSE)},
        done={"RED-2": ("charged",), "BLU-1": ("was_charged", "charged_by:RED-2")},
    )
    s, _ = play(s, ["Act RED-2 fight", "Pass"])
    assert {a.target for a in list_actions(s)} == {"BLU-1"}  # type: ignore[arg-type]


def test_every_model_has_the_default_close_combat_weapon() -> None:
    """rules/KT18.md 7.8: a model with no melee weapon fights with the close combat weapon
    (S User, AP 0, D 1): the Tough model (S4, A D3) against the Gunner (T4) wounds on 4+;
    its A is random: D3 rolled first (a 5 gives 3 attacks)."""
    s = _fight({"RED-4": (15, 14), "BLU-1": (15 + CLOSE, 14)})
    s, events = play(s, ["Act RED-4 fight", "Pass"], ["5", "4,4,4", "1,1,1"])
    (fired,) = kinds(events, "kt18_weapon_fired")
    assert (fired["weapon"], fired["attacks"]) == ("close combat weapon", (3,))
    (wr,) = kinds(events, "kt18_wound_roll")
    assert wr["needed"] == 4


def test_a_player_cannot_pass_while_a_model_must_fight() -> None:
    """rules/KT18.md 7.3, 7.4: a model within 1" of an enemy can fight and has a target, so its
    player may not pass."""
    s = _fight({"RED-1": (15, 14), "BLU-1": (15 + CLOSE, 14)})
    assert "Pass" not in _texts(s)
    with pytest.raises(IllegalActionError, match="cannot pass"):
        s.apply("Pass")  # type: ignore[attr-defined]


def test_pile_in_3_inches_toward_the_nearest_enemy() -> None:
    """rules/KT18.md 7.7: a charger 2.5" from its target piles in (up to 3", ending closer to
    the nearest enemy) into base contact, then has it within 1"; a pile-in that does not end
    closer is refused."""
    gap = 2.5
    s = _fight(
        {"RED-2": (15, 14), "BLU-1": (15 + 2 * R25 + gap, 14)},
        done={"RED-2": ("charged",), "BLU-1": ("was_charged", "charged_by:RED-2")},
    )
    s, _ = play(s, ["Act RED-2 fight"])
    with pytest.raises(IllegalActionError, match="closer"):
        s.apply("Act RED-2 pile in at 14,14")  # type: ignore[attr-defined]
    (move,) = [a for a in list_actions(s) if a.verb == "Act"]  # type: ignore[arg-type]
    s, events = play(s, [str(move)])
    assert kinds(events, "kt18_piled_in")
    w = Work(s)  # type: ignore[arg-type]
    assert w.distance(w.place(w.op("RED-2")), w.place(w.op("BLU-1"))) <= 1.0
    assert {a.target for a in list_actions(s)} == {"BLU-1"}  # type: ignore[arg-type]


def test_power_fist_doubles_strength_and_rolls_damage_and_injury_dice() -> None:
    """rules/KT18.md 1.8, 6.5, 6.8, 6.10: the power fist (S x2 -> 8 against T4: 2+; AP -3
    against Sv 3+: only a 6 saves; D D3) — the first failed save's D3 roll of 3 gives 2
    damage, the Gunner (W1) is at 0 and the Injury roll is 2 dice (D 2), the highest counts:
    3,1 is a flesh wound; the second attack is discarded (6.8)."""
    s = _fight(
        {"RED-2": (15, 14), "BLU-1": (15 + CLOSE, 14)},
        done={"RED-2": ("charged",), "BLU-1": ("was_charged", "charged_by:RED-2")},
    )
    s, events = play(
        s,
        ["Act RED-2 fight", "Pass", "Fight RED-2 power fist at BLU-1"],
        ["6,6", "2,2", "1", "3", "3,1"],
    )
    assert kinds(events, "kt18_wound_roll")[0]["needed"] == 2
    assert [e["damage"] for e in kinds(events, "kt18_wounds_lost")] == [2]
    (inj,) = kinds(events, "kt18_injury_roll")
    assert (inj["dice"], inj["out_of_action"]) == ((3, 1), False)
    assert len(kinds(events, "kt18_saving_throw")) == 1


def test_a_shaken_model_cannot_fight() -> None:
    """rules/KT18.md 8.5: a shaken model can do nothing, fighting included: B's shaken Gunner
    is not offered, so B passes unasked and the phase ends after A's model fights."""
    s = _fight(
        {"RED-1": (15, 14), "BLU-1": (15 + CLOSE, 14)},
        effects=[Effect("kt18_shaken", "BLU-1", "end_battle")],
        initiative="B",
    )
    assert s.node.player == "A"  # type: ignore[union-attr]
    assert _texts(s) == ["Act RED-1 fight"]
