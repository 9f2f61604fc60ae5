"""The KT18 Shooting phase and Overwatch (rules/KT18.md 3.11, 5.1-5.12, 6.2-6.5): who shoots,
which weapon at which target, the weapon types, the hit modifiers and the wound table.

Positions: tests/kt18_attack_support.py (25 mm bases, R25 = 0.492" radius). With centres on
y = 14 at x = 5 and x = 15 the bases are 10 - 2 x 0.492 = 9.02" apart: within half the 24"
bolter's Range (12"); at x = 19 they are 13.02" apart: long range for it."""

from __future__ import annotations

import pytest

from engine.game.actions import IllegalActionError
from engine.game.flow import list_actions
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt18.overwatch import overwatch_refusal
from engine.rules.kt18.shooting import ShooterFrame, ShootingPhaseFrame
from tests.kt18_attack_support import R25, flesh, kinds, play, pos

CLOSE = 2 * R25 + 0.5  # centres this far apart: bases 0.5" apart (within 1")


def _shooting(ops: dict[str, tuple[float, float]], **kw: object) -> object:
    return pos(ShootingPhaseFrame(), {k: {"at": v} for k, v in ops.items()}, **kw)  # type: ignore[arg-type]


def _texts(state: object) -> list[str]:
    return [str(a) for a in list_actions(state)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("weapon", "target", "hits", "needed"),
    [
        ("lascannon", "BLU-1", "6", 2),  # S9 >= 2 x T4
        ("heavy bolter", "BLU-1", "6,6,6", 3),  # S5 > T4
        ("bolter", "BLU-1", "6,6", 4),  # S4 = T4
        ("bolter", "BLU-4", "6,6", 6),  # S4 <= T8 / 2
        ("bolter", "BLU-3", "6,6", 2),  # S4 >= 2 x T2
        ("bolt pistol", "BLU-3", "6", 2),  # S4 >= 2 x T2
    ],
)
def test_wound_table_compares_strength_with_toughness(
    weapon: str, target: str, hits: str, needed: int
) -> None:
    """rules/KT18.md 6.5: 2+ when S is at least twice T, 3+ when greater, 4+ when equal, 5+
    when lower, 6+ when S is at most half T (the Gunner's S4 bolter, S5 heavy bolter and S9
    lascannon at T4, T8 and T2 models; every hit a 6 so every attack makes a wound roll)."""
    s = _shooting({"RED-1": (5, 14), target: (15, 14)})
    ones = ",".join("1" for _ in hits.split(","))
    _, events = play(s, ["Shoot RED-1", f"Shoot RED-1 {weapon} at {target}"], [hits, ones])
    (wr,) = kinds(events, "kt18_wound_roll")
    assert (wr["needed"], wr["wounds"]) == (needed, 0)  # an unmodified 1 always fails


def test_wound_roll_five_below_strength_needs_five() -> None:
    """rules/KT18.md 6.5: S lower than T but more than half of it needs 5+ (S3 against
    T4): the row the roster's weapons do not reach, checked on the table the frames read."""
    from engine.dice.kt18_rolls import wound_target

    assert wound_target(3, 4) == 5


def test_wound_roll_event_reports_the_table_and_unmodified_six() -> None:
    """rules/KT18.md 6.5: S4 against T8 needs a 6; of the wound dice 6 and 5 only the 6
    wounds (the 5 fails: 5 < 6)."""
    s = _shooting({"RED-1": (5, 14), "BLU-4": (15, 14)})
    _, events = play(s, ["Shoot RED-1", "Shoot RED-1 bolter at BLU-4"], ["6,6", "6,5", "1"])
    (wr,) = kinds(events, "kt18_wound_roll")
    assert (wr["needed"], wr["wounds"]) == (6, 1)


def test_rapid_fire_doubles_within_half_range() -> None:
    """rules/KT18.md 5.10: a Rapid Fire 1 weapon of Range 24" fires 2 attacks at a target
    within 12" (9.02" here), so two hit dice are rolled; no long-range penalty (6.4)."""
    s = _shooting({"RED-1": (5, 14), "BLU-1": (15, 14)})
    _, events = play(s, ["Shoot RED-1", "Shoot RED-1 bolter at BLU-1"], ["2,1"])
    (fired,) = kinds(events, "kt18_weapon_fired")
    assert fired["attacks"] == (2,)
    (hit,) = kinds(events, "kt18_hit_roll")
    assert (hit["modifier"], hit["hits"]) == (0, 0)  # 2 and 1 miss against 3+


def test_rapid_fire_beyond_half_range_is_one_attack_at_long_range() -> None:
    """rules/KT18.md 5.10, 6.4: at 13.02" (beyond 12", half of 24") the bolter fires its 1
    attack and takes -1 for long range: a 3 becomes 2 and misses against BS 3+."""
    s = _shooting({"RED-1": (5, 14), "BLU-1": (19, 14)})
    _, events = play(s, ["Shoot RED-1", "Shoot RED-1 bolter at BLU-1"], ["3"])
    assert kinds(events, "kt18_weapon_fired")[0]["attacks"] == (1,)
    (hit,) = kinds(events, "kt18_hit_roll")
    assert (hit["modifier"], hit["hits"]) == (-1, 0)


@pytest.mark.parametrize(("tokens", "modifier"), [((), 0), (("moved",), -1), (("fell_back",), -1)])
def test_heavy_weapon_after_moving_is_minus_one(tokens: tuple[str, ...], modifier: int) -> None:
    """rules/KT18.md 5.9: a Heavy weapon fired by a model that moved this battle round hits
    at -1 (the heavy bolter at 9.02", Range 36": not long range). A model that Fell Back
    cannot shoot at all unless it can FLY (5.2), so only the plain move is shot here."""
    s = _shooting({"RED-1": (5, 14), "BLU-1": (15, 14)}, done={"RED-1": tokens})
    if "fell_back" in tokens:
        assert "Shoot RED-1" not in _texts(s)  # 5.2: no shooting after Falling Back
        return
    _, events = play(s, ["Shoot RED-1", "Shoot RED-1 heavy bolter at BLU-1"], ["3,3,3"])
    (hit,) = kinds(events, "kt18_hit_roll")
    assert hit["modifier"] == modifier
    assert hit["hits"] == (3 if modifier == 0 else 0)


def test_assault_weapons_only_after_advancing_at_minus_one() -> None:
    """rules/KT18.md 5.8: after Advancing a model may shoot only its Assault weapons, at -1:
    only the storm gun is offered (the single choice made at once), and 3s miss (3 - 1 < 3)."""
    s = _shooting({"RED-1": (5, 14), "BLU-1": (15, 14)}, done={"RED-1": ("advanced",)})
    s, events = play(s, ["Shoot RED-1"], ["3,3"])
    (fired,) = kinds(events, "kt18_weapon_fired")
    assert fired["weapon"] == "storm gun"
    assert kinds(events, "kt18_hit_roll")[0]["modifier"] == -1


def test_pistol_within_1_inch_targets_the_closest_enemy_only() -> None:
    """rules/KT18.md 5.2, 5.12: within 1" of an enemy a model may fire only its Pistol, at the
    closest enemy, even though a friendly model is within 1" of that enemy; other enemies and
    weapons are not offered."""
    s = _shooting(
        {
            "RED-1": (5, 14),
            "BLU-1": (5 + CLOSE, 14),
            "RED-5": (5 + 2 * CLOSE, 14),
            "BLU-2": (15, 14),
        }
    )
    _, events = play(s, ["Shoot RED-1"], ["6"])
    (fired_event,) = kinds(events, "kt18_weapon_fired")
    assert (fired_event["weapon"], fired_event["targets"]) == ("bolt pistol", ("BLU-1",))


def test_a_model_that_was_charged_cannot_fire_its_pistol() -> None:
    """rules/KT18.md 5.12 (reading (b)): a model charged this battle round cannot fire a
    Pistol; within 1" of an enemy it has nothing else to fire, so it cannot shoot."""
    s = _shooting(
        {"RED-1": (5, 14), "BLU-1": (5 + CLOSE, 14)},
        done={"RED-1": ("was_charged",)},
    )
    assert "Shoot RED-1" not in _texts(s)


def test_target_within_1_inch_of_a_friendly_model_cannot_be_shot() -> None:
    """rules/KT18.md 5.3: an enemy within 1" of a model of the shooter's kill team is not a
    valid target; the other enemy is."""
    s = _shooting({"RED-1": (5, 14), "RED-5": (20, 2), "BLU-1": (20 + CLOSE, 2), "BLU-2": (15, 14)})
    s, _ = play(s, ["Shoot RED-1"])
    targets = {a.target for a in list_actions(s) if a.target}
    assert targets == {"BLU-2"}


def test_grenade_one_model_per_kill_team_per_phase() -> None:
    """rules/KT18.md 5.11: a model that fires a Grenade fires nothing else that phase, and no
    other model of its kill team may fire a Grenade that phase: after RED-1's frag grenade
    (D6 rolled first: 1 attack) its shooting ends and RED-5 is not offered its grenade."""
    s = _shooting({"RED-1": (5, 14), "RED-5": (5, 16), "BLU-1": (9, 15)})
    s, events = play(
        s, ["Shoot RED-1", "Shoot RED-1 frag grenade at BLU-1"], ["1", "1"]
    )  # D6 -> 1 attack, hit roll 1 misses
    assert kinds(events, "kt18_weapon_fired")[0]["attacks"] == (1,)
    assert s.node.kind == "kt18_choose_shooter"  # type: ignore[union-attr]
    assert s.node.player == "B"  # type: ignore[union-attr]
    s, _ = play(s, ["Pass", "Shoot RED-5"])
    weapons = {a.weapon for a in list_actions(s) if a.weapon}
    assert "frag grenade" not in weapons and "bolter" in weapons


def test_split_attacks_between_targets_within_2_inches_of_the_initial_one() -> None:
    """rules/KT18.md 5.5: the heavy bolter's 3 attacks may be split between the initial
    target and other eligible enemies within 2" of it (BLU-3, 1.5" away), not one further
    away (BLU-2); the split is declared before any hit roll and each target's attacks are
    resolved in turn (2 dice at BLU-1, then 1 at BLU-3)."""
    s = _shooting(
        {"RED-1": (5, 14), "BLU-1": (15, 14), "BLU-3": (15, 15.5 + 2 * R25), "BLU-2": (20, 18)}
    )
    s, _ = play(s, ["Shoot RED-1", "Shoot RED-1 heavy bolter at BLU-1"])
    assert _texts(s) == ["Also BLU-3", "Done"]
    s, events = play(s, ["Also BLU-3", "Split 2,1"], ["1,1", "1"])
    hits = kinds(events, "kt18_hit_roll")
    assert [(h["target"], len(h["dice"])) for h in hits] == [("BLU-1", 2), ("BLU-3", 1)]


def test_ready_fire_only_readied_models_then_fire_at_will() -> None:
    """rules/KT18.md 5.1: in Ready, Fire! only Readied models shoot; the section ends when both
    players pass in succession, then Fire at Will lets the other models shoot."""
    s = _shooting(
        {"RED-1": (5, 14), "RED-5": (5, 16), "BLU-1": (15, 14)}, done={"RED-1": ("readied",)}
    )
    assert _texts(s) == ["Pass", "Shoot RED-1"]
    s, events = play(s, ["Pass"])  # A passes; B has no Readied model: passes unasked
    assert [e["section"] for e in kinds(events, "kt18_section_started")] == ["will"]
    assert set(_texts(s)) == {"Pass", "Shoot RED-1", "Shoot RED-5"}


def test_flesh_wounds_and_a_broken_kill_team_worsen_hit_rolls() -> None:
    """rules/KT18.md 6.2: -1 per flesh wound on the shooter and -1 when its kill team is
    broken: 2 flesh wounds and broken give -3, so a 5 misses against 3+ and a 6 still hits
    (an unmodified 6 always hits)."""
    effects = [*flesh("RED-1", 2), Effect("kt18_broken", "", "end_battle", player="A")]
    s = _shooting({"RED-1": (5, 14), "BLU-1": (15, 14)}, effects=effects)
    _, events = play(s, ["Shoot RED-1", "Shoot RED-1 bolter at BLU-1"], ["6,5"])
    (hit,) = kinds(events, "kt18_hit_roll")
    assert (hit["modifier"], hit["hits"]) == (-3, 1)


def test_overwatch_hits_only_on_sixes() -> None:
    """rules/KT18.md 3.11: Overwatch follows the shooting rules but hits only on a 6, whatever
    the BS and modifiers: of 5, 5 (hits for BS 3+ normally) and 6 only the 6 hits."""
    s = pos(
        ShooterFrame("BLU-1", overwatch=True, charger="RED-1"),
        {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}},
        phase="movement",
    )
    assert {a.verb for a in list_actions(s)} == {"Overwatch"}
    _, events = play(s, ["Overwatch BLU-1 heavy bolter at RED-1"], ["6,5,5", "1"])
    (hit,) = kinds(events, "kt18_hit_roll")
    assert (hit["needed"], hit["hits"]) == (0, 1)
    assert kinds(events, "kt18_weapon_fired")[0]["overwatch"] is True


def test_overwatch_refused_after_advancing_without_an_assault_weapon() -> None:
    """rules/KT18.md 3.7, 3.11, 5.8: a model that Advanced may fire Overwatch only with an
    Assault weapon (the Gunner has one; the Grot's only weapon is a Pistol)."""
    s = pos(
        ShooterFrame("BLU-1", overwatch=True, charger="RED-1"),
        {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}, "BLU-3": {"at": (15, 18)}},
        done={"BLU-1": ("advanced",), "BLU-3": ("advanced",)},
        phase="movement",
    )
    w = Work(s)
    assert overwatch_refusal(w, "BLU-1", "RED-1") is None
    assert "Assault" in (overwatch_refusal(w, "BLU-3", "RED-1") or "")
    assert w.top.weapon == "storm gun"  # the only weapon it may fire: fired unasked


def test_an_illegal_choice_names_the_rule_and_changes_nothing() -> None:
    """An illegal input is refused with the rule and leaves the state as it was."""
    s = _shooting(
        {"RED-1": (5, 14), "RED-5": (5, 16), "BLU-1": (15, 14)},
        done={"RED-5": ("charge_attempt",)},
    )
    with pytest.raises(IllegalActionError, match="charge"):
        s.apply("Shoot RED-5")
    assert _texts(s) == ["Pass", "Shoot RED-1"]


def test_overwatch_hooks_answer_the_charge_sequence() -> None:
    """rules/KT18.md 3.11: the charge sequence asks ``kt18_can_overwatch`` and pushes the frame
    of ``kt18_overwatch_frame``; a Gunner 9.02" from the charger may fire (its guns reach),
    a Grot 13" away may not (its slugga's Range is 12")."""
    from engine.game.flow import advance
    from engine.rules.kt18.overwatch import may_overwatch, push_overwatch
    from tests.kt18_attack_support import EndFrame

    s = pos(
        ShootingPhaseFrame(),
        {"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (15, 14)}, "BLU-3": {"at": (19, 14)}},
        phase="movement",
    )
    w = Work(s)
    assert may_overwatch(w, "BLU-1", "RED-1") is True
    assert may_overwatch(w, "BLU-3", "RED-1") is False
    w.stack = [EndFrame()]
    push_overwatch(w, "BLU-1", "RED-1")
    w.node = None
    advance(w)
    assert w.node is not None and w.node.kind == "kt18_choose_weapon"  # type: ignore[union-attr]
