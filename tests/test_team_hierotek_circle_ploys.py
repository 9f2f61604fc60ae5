"""The Hierotek Circle's ploys, team equipment and the crypteks' unique actions
(``teams/hierotek_circle/ploys.py``, ``equipment.py``, ``crypteks.py``): one scripted test
per rule at least, named after it, on the LAB killzone against the BLU test team."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

import teams.hierotek_circle  # noqa: F401  (registers the rules)
from engine.dice.rules import Blast, Devastating, parse_weapon_rules
from engine.game import Action, Chance, Decision, GameState, IllegalActionError, universal
from engine.game.attacks import attack_profile
from engine.game.state import Effect
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rulesets import position
from engine.teams.model import Roster
from teams.hierotek_circle.chronomancer import Chronometron
from tests.test_game_rules_common import BLU, LAB, R, attack_texts, of_kind, play, roster
from tests.test_team_weapon_rules import lab_team

GUARD_TESLA = "Immortal Guardian [Tesla Carbine; Bayonet]"
GUARD_GAUSS = "Immortal Guardian [Gauss Blaster; Bayonet]"
CHRONO = "Chronomancer [Aeonstave]"
TYPES = (GUARD_TESLA, GUARD_GAUSS, CHRONO)
# HIE-1 (tesla Guardian) faces BLU-1 down LAB's open lane, 11" apart; all expended, so TP1's
# Firefight phase ends at once and TP2 begins with everyone ready.
FACING: dict[str, dict[str, Any]] = {
    "HIE-1": {"at": (5, 14), "ready": False},
    "HIE-2": {"at": (5, 10), "ready": False},
    "HIE-3": {"at": (3, 14), "ready": False},
    "BLU-1": {"at": (16, 14), "ready": False},
    "BLU-2": {"at": (25, 20), "ready": False},
}


def lab(
    types: Sequence[str] = TYPES,
    operatives: Mapping[str, Mapping[str, Any]] = FACING,
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: Hierotek Circle (player A) against the BLU test team."""
    kw.setdefault("cp", (3, 3))
    team = Roster.from_entries(lab_team("hierotek_circle"), list(types))
    return position(LAB, team, roster(BLU, tuple(blu)), operatives=operatives, **kw)


def pass_windows(s: GameState) -> GameState:
    """Pass in every ploy window and decline every dice ploy (Command Re-roll) until another
    decision or a chance node."""
    while isinstance(s.node, Decision) and s.node.kind in ("ploy", "dice_ploy"):
        s, _ = s.apply("Pass" if s.node.kind == "ploy" else "Decline")
    return s


def gambit(
    ploys: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]] = FACING,
    initiative: str = "A",
    types: Sequence[str] = TYPES,
    **kw: Any,
) -> GameState:
    """TP2's Gambit step from a spent TP1: A uses ``ploys`` (``Ploy ...`` actions or names),
    B passes; then the Firefight phase begins."""
    s = pass_windows(lab(types, ops, **kw))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply(f"Initiative {initiative}")
    todo = list(ploys)
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        if s.node.player == "A" and todo:
            item = todo.pop(0)
            s, _ = s.apply(item if item.startswith("Ploy ") else f"Ploy {item.lower()}")
        else:
            s, _ = s.apply("Pass")
    return pass_windows(s)


def texts(s: GameState) -> list[str]:
    """The listed actions in the notation, each Shoot header (``Shoot KAS-1``) replaced by
    the complete shots its decision lists (:func:`tests.test_game_rules_common.attack_texts`)."""
    return attack_texts(s)


# -------------------------------------------------------------------------------------------
# Relentless Onslaught
# -------------------------------------------------------------------------------------------

NEAR = {**FACING, "HIE-2": {"at": (9, 14), "ready": False}, "HIE-1": {"at": (5, 4), "ready": False}}
GAUSS = "Shoot HIE-2 gauss blaster at BLU-1"


def test_relentless_onslaught_balanced_within_8_inches() -> None:
    # HIE-2 (gauss blaster, no re-roll rule) 7" from BLU-1: after the attack dice the
    # Balanced re-roll of one die is offered (the reroll decision); without the ploy, not.
    s = gambit(["Relentless Onslaught"], NEAR)
    assert s.players[0].cp == 3  # 3 + 1 for TP2 - 1 for the ploy
    s, _ = play(s, ["Activate HIE-2 engage", GAUSS], ["6,3,1,1"])
    assert s.node.kind == "reroll"  # type: ignore[union-attr]
    assert "Re-roll 1" in texts(s)
    s, _ = play(gambit([], NEAR), ["Activate HIE-2 engage", GAUSS], ["6,3,1,1"])
    assert s.node.kind != "reroll"  # type: ignore[union-attr]


def test_relentless_onslaught_not_beyond_8_inches() -> None:
    # HIE-2 at (5, 14) is 11" from BLU-1: no Balanced.
    far = {
        **NEAR,
        "HIE-2": {"at": (5, 14), "ready": False},
        "HIE-1": {"at": (5, 4), "ready": False},
    }
    s = gambit(["Relentless Onslaught"], far)
    s, _ = play(s, ["Activate HIE-2 engage", GAUSS], ["6,3,1,1"])
    assert s.node.kind != "reroll"  # type: ignore[union-attr]


def test_relentless_onslaught_once_per_turning_point() -> None:
    s = gambit(["Relentless Onslaught"])
    assert "Ploy relentless onslaught" not in texts(s)
    with pytest.raises(IllegalActionError):
        s.apply("Ploy relentless onslaught")


# -------------------------------------------------------------------------------------------
# Methodical Elimination
# -------------------------------------------------------------------------------------------


def _charge_to_fight(distance: float, ploys: Sequence[str]) -> GameState:
    """HIE-2 (Guardian, Move 5", bayonet 4 attacks) charges BLU-1 ``distance`` inches away
    (centre to centre beyond base contact) then fights: the state at its Accurate choice or
    attack roll."""
    bx = 5 + 2 * R + 0.5 + distance
    ops = {
        **FACING,
        "HIE-2": {"at": (5, 14), "ready": False},
        "HIE-1": {"at": (5, 4), "ready": False},
    }
    ops["BLU-1"] = {"at": (bx, 14), "ready": False}
    s = gambit(ploys, ops)
    stop = bx - 2 * R - 0.5
    s, _ = play(s, ["Activate HIE-2 engage", f"Charge HIE-2 to {stop:g},14"])
    s = pass_windows(s)
    s, _ = play(s, ["Fight HIE-2 bayonet at BLU-1"])
    return pass_windows(s)


def _accurate_options(s: GameState) -> list[str]:
    return [t for t in texts(s) if t.startswith("Accurate")]


def test_methodical_elimination_accurate_2_without_moving_more_than_move() -> None:
    # Charged 4" (Move 5"): Accurate 2, so retaining up to 2 dice unrolled is offered.
    s = _charge_to_fight(4.0, ["Methodical Elimination"])
    assert "Accurate 2" in _accurate_options(s)


def test_methodical_elimination_accurate_1_after_moving_more_than_move() -> None:
    # Charged 6" (more than Move 5"): Accurate 1 only.
    s = _charge_to_fight(6.0, ["Methodical Elimination"])
    opts = _accurate_options(s)
    assert "Accurate 1" in opts and "Accurate 2" not in opts


def test_methodical_elimination_nothing_without_the_ploy() -> None:
    s = _charge_to_fight(4.0, [])
    assert not _accurate_options(s)
    assert isinstance(s.node, Chance)


def test_methodical_elimination_accurate_2_when_retaliating() -> None:
    # BLU-1 (B, initiative) fights HIE-2 in base contact: HIE-2 retaliates with Accurate 2.
    ops = {
        **FACING,
        "HIE-2": {"at": (15, 14), "ready": False},
        "HIE-1": {"at": (5, 4), "ready": False},
        "BLU-1": {"at": (15 + 2 * R + 0.2, 14), "ready": False},
    }
    s = gambit(["Methodical Elimination"], ops, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage", "Fight BLU-1 knife at HIE-2"])
    s = pass_windows(s)
    while isinstance(s.node, Decision) and s.node.player == "B":
        s, _ = s.apply(texts(s)[0])
        s = pass_windows(s)
    if isinstance(s.node, Chance):  # the attacker rolls first
        s, _ = play(s, [], ["1,1,1"])
        s = pass_windows(s)
    assert "Accurate 2" in _accurate_options(s)


def test_methodical_elimination_accurate_2_fighting_in_another_operatives_activation() -> None:
    # "Fighting during an activation in which it has not moved more than its Move stat": a
    # Guardian fighting during the enemy's activation (e.g. a Guard interrupt) has not moved in
    # it: Accurate 2; had it moved 6" during that activation (Move 5"): Accurate 1; a fight
    # outside any activation: Accurate 1. (A fight frame is put on the stack by hand.)
    from types import SimpleNamespace

    from engine.dice.rules import Accurate

    def x(w: Work) -> int:
        w.stack.append(SimpleNamespace(attacker="HIE-2", defender="BLU-1"))
        rules = w.would(
            "would_use_weapon_rules",
            parse_weapon_rules(""),
            op="HIE-2",
            weapon="bayonet",
            kind="melee",
            target="BLU-1",
        )
        w.stack.pop()
        acc = rules.get(Accurate)
        return int(getattr(acc, "x", 0))

    before = gambit(["Methodical Elimination"], FACING, initiative="B")
    assert x(Work(before)) == 1  # no activation in progress
    s, _ = play(before, ["Activate BLU-1 engage"])
    assert x(Work(s)) == 2
    w = Work(s)
    w.emit("moved", op="HIE-2", cost=6.0)
    assert x(w) == 1


# -------------------------------------------------------------------------------------------
# Undying Androids
# -------------------------------------------------------------------------------------------


def _shot_at_hie1(ploys: Sequence[str], ops: Mapping[str, Mapping[str, Any]] = FACING) -> Any:
    s = gambit(ploys, ops, initiative="B")
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-1"], ["3,3,1,1"])
    return pass_windows(s)


def test_undying_androids_one_defence_die_retained_unrolled_out_of_cover() -> None:
    # HIE-1 in the open lane: no cover save; with the ploy its player may retain one defence
    # die as a normal success (offered as the cover-save choice), then rolls only two.
    s = _shot_at_hie1(["Undying Androids"])
    assert texts(s) == ["Cover save none", "Cover save normal"]
    s, _ = s.apply("Cover save normal")
    assert s.node.request.dice == 2
    s, ev = play(s, [], ["1,1"])
    s, more = s.apply("Decline")  # A's Command Re-roll
    (saves,) = of_kind(ev + more, "saves_retained")
    assert (saves["normals"], saves["cover"]) == (1, 1)


def test_undying_androids_not_without_the_ploy() -> None:
    s = _shot_at_hie1([])
    assert s.node.request.dice == 3


def test_undying_androids_not_when_a_cover_save_can_be_retained() -> None:
    # HIE-1 behind the rubble from BLU-1 (rubble lane, y 4): in cover, the ordinary cover
    # save is offered (one option) and the ploy adds nothing.
    ops = {
        **FACING,
        "HIE-1": {"at": (16, 4), "ready": False},
        "BLU-1": {"at": (5, 4), "ready": False},
    }
    s = _shot_at_hie1(["Undying Androids"], ops)
    assert texts(s) == ["Cover save none", "Cover save normal"]
    plain = _shot_at_hie1([], ops)
    assert texts(plain) == texts(s)


# -------------------------------------------------------------------------------------------
# Command Underlings
# -------------------------------------------------------------------------------------------


def test_command_underlings_free_dashes_in_the_players_order() -> None:
    # HIE-3 (Chronomancer, CRYPTEK) sees HIE-1 (about 0.6" away) and HIE-2 (about 3.6"):
    # both may Dash, in the order A picks; A picks HIE-2 first, dashes it, then declines
    # HIE-1's Dash. The ploy cost 1CP (3 + 1 for TP2 - 1).
    s = gambit([])
    s = pass_windows(lab())
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    assert "Ploy command underlings on HIE-3" in texts(s)
    s, _ = s.apply("Ploy command underlings on HIE-3")
    assert texts(s) == [
        "Decline",
        "Use command underlings on HIE-1",
        "Use command underlings on HIE-2",
    ]
    s, _ = s.apply("Use command underlings on HIE-2")
    assert [a.verb for a in s.legal_actions()].count("Dash") > 0
    s, _ = s.apply("Dash HIE-2 to 5,7")
    s = pass_windows(s)
    assert texts(s) == ["Decline", "Use command underlings on HIE-1"]
    s, _ = s.apply("Decline")
    assert s.operative("HIE-2").y == 7 and s.operative("HIE-1").x == 5
    assert s.players[0].cp == 3


def test_command_underlings_apprentek_reaches_3_inches_and_not_crypteks() -> None:
    # Used on HIE-4 (Apprentek): HIE-1 about 1.2" away may dash; HIE-3 (Chronomancer, a
    # CRYPTEK) in reach may not; HIE-2 about 4.6" away is beyond 3".
    types = (*TYPES, "Apprentek")
    ops = {**FACING, "HIE-4": {"at": (3, 15.5), "ready": False}}
    s = pass_windows(lab(types, ops))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    s, _ = s.apply("Ploy command underlings on HIE-4")
    assert texts(s) == ["Decline", "Use command underlings on HIE-1"]


# -------------------------------------------------------------------------------------------
# Living Lightning
# -------------------------------------------------------------------------------------------

LL_OPS = {
    **FACING,
    "HIE-1": {"at": (5, 14), "ready": False},
    "BLU-2": {"at": (16, 15.8), "ready": False},
}
TESLA = "Shoot HIE-1 tesla carbine at BLU-1"


def test_living_lightning_gives_blast_2_inches() -> None:
    # BLU-2 is 1.8" from BLU-1 and visible to it: with the ploy, BLU-2 becomes a Blast
    # secondary target (two attack rolls); without it, one target only.
    s = gambit([], LL_OPS)
    s, _ = play(s, ["Activate HIE-1 engage", TESLA])
    assert "Ploy living lightning" in texts(s)
    s, ev = s.apply("Ploy living lightning")
    assert [e["ploy"] for e in of_kind(ev, "ploy_used")] == ["Living Lightning"]
    assert shoot_targets(s) == ("BLU-1", "BLU-2")
    # Devastating loses its 2": the profile now has Blast 2" and a plain Devastating 1.
    w = Work(s)
    prof = attack_profile(w, w.op("HIE-1"), "tesla carbine", "ranged", target="BLU-1")
    assert getattr(prof.rules.get(Blast), "distance", None) == 2.0
    assert getattr(prof.rules.get(Devastating), "distance", 0) is None
    without = play(gambit([], LL_OPS), ["Activate HIE-1 engage", TESLA])[0]
    assert shoot_targets(without) == ("BLU-1",)


def shoot_targets(s: GameState) -> tuple[str, ...]:
    """The targets of the Shoot action in progress."""
    frame = next(f for f in reversed(s.stack) if hasattr(f, "shooter"))
    return tuple(frame.targets)


def test_living_lightning_only_with_a_tesla_carbine() -> None:
    # HIE-2's gauss blaster: no window offers the ploy.
    ops = {
        **LL_OPS,
        "HIE-1": {"at": (5, 4), "ready": False},
        "HIE-2": {"at": (5, 14), "ready": False},
    }
    s = gambit([], ops)
    s, _ = play(s, ["Activate HIE-2 engage", "Shoot HIE-2 gauss blaster at BLU-1"])
    assert "Ploy living lightning" not in texts(s)


# -------------------------------------------------------------------------------------------
# Equipment: Magnification Conduits
# -------------------------------------------------------------------------------------------

CONDUIT_SHOT = "Shoot HIE-1 arcane conduit at BLU-1"


def _conduits(equipment: Sequence[str]) -> GameState:
    """HIE-1 (Apprentek) activated at (5, 4); BLU-1 (Conceal) at (16, 4) behind the rubble
    seen from HIE-1 (in cover: not a valid target); HIE-2 (Guardian, Engage, no CRYPTEK or
    APPRENTEK keyword) at (21, 4), from where BLU-1 is not in cover."""
    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (5, 4)},
        "HIE-2": {"at": (21, 4)},
        "BLU-1": {"at": (16, 4), "order": "conceal"},
        "BLU-2": {"at": (25, 20)},
    }
    s = lab(("Apprentek", GUARD_GAUSS), ops, cp=(0, 0), equipment={"A": tuple(equipment)})
    return s.apply("Activate HIE-1 engage")[0]


def test_magnification_conduits_magnify_through_another_operative() -> None:
    # With the equipment HIE-2 may be treated as the active operative for Magnify*: the
    # shot is legal, used through HIE-2 without a choice (the only way), and the equipment
    # is used for the turning point.
    s = _conduits(["Magnification Conduits"])
    assert s.is_legal(CONDUIT_SHOT)
    s, ev = s.apply(CONDUIT_SHOT)
    assert [(e["rule"], e["on"]) for e in of_kind(ev, "team_rule_used")] == [("Magnify", "HIE-2")]
    assert [e["item"] for e in of_kind(ev, "equipment_used")] == ["Magnification Conduits"]
    assert any(e.detail == "hierotek_conduits_used" for e in s.effects)


def test_magnify_improved_cover_judged_from_the_operative_shot_through() -> None:
    # LAB plus a 3" Heavy Vantage tower at x 3-7, y 2-6. HIE-1 (Apprentek) on the floor at
    # (12, 4) shoots BLU-1 (Conceal) at (16, 4) behind the Light rubble: in cover from HIE-1,
    # so not a valid target. HIE-2 (Psychomancer, Engage) on the tower at (6.2, 4), 3" above
    # BLU-1 and visible to HIE-1: from Vantage the Light rubble does not stop the target
    # being valid but its cover save is improved (4.7 rule 2). Magnify is used through HIE-2
    # (the only way) and "cover" is judged from it, so B may retain the cover save as a
    # critical or as two normals. The old reading judged the improvement from HIE-1 (on the
    # floor: no height advantage), offering one normal cover save only.
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data, rect

    data = lab_data([("obj", (20.0, 14.5))])
    tower = {"polygon": rect(3, 2, 7, 6), "height": 3.0, "types": ["Heavy", "Vantage"]}
    data["features"].append({"name": "tower", "parts": [tower]})
    kz = Killzone.from_dict(data, "lab+tower")
    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (12, 4)},
        "HIE-2": {"at": (6.2, 4, 3.0)},
        "BLU-1": {"at": (16, 4), "order": "conceal"},
        "BLU-2": {"at": (25, 20)},
    }
    team = Roster.from_entries(lab_team("hierotek_circle"), ["Apprentek", "Psychomancer"])
    s = position(kz, team, roster(BLU, ("Trooper", "Trooper")), operatives=ops, cp=(0, 0))
    s, _ = s.apply("Activate HIE-1 engage")
    s, ev = s.apply(CONDUIT_SHOT)
    assert [(e["rule"], e["on"]) for e in of_kind(ev, "team_rule_used")] == [("Magnify", "HIE-2")]
    s, _ = play(s, ["Keep"], ["3,3,3,3"])  # (Ceaseless: nothing to re-roll wanted)
    assert isinstance(s.node, Decision) and s.node.kind == "cover_save"
    assert texts(s) == ["Cover save critical", "Cover save none", "Cover save two normals"]


def test_magnification_conduits_needed_and_once_per_turning_point() -> None:
    # Without the equipment the Guardian is no conduit: BLU-1 stays an invalid target.
    s = _conduits([])
    assert not s.is_legal(CONDUIT_SHOT)
    # Used once this turning point already: the same.
    used = _conduits(["Magnification Conduits"])
    token = Effect("token", "", "end_tp", detail="hierotek_conduits_used", player="A")
    used = attrs.evolve(used, effects=(*used.effects, token))
    assert not used.is_legal(CONDUIT_SHOT)


# -------------------------------------------------------------------------------------------
# Equipment: Phase Shifter
# -------------------------------------------------------------------------------------------

PHASE_OPS = {
    "HIE-1": {"at": (5, 4)},
    "HIE-2": {"at": (5, 8)},
    "HIE-3": {"at": (3, 14)},
    "BLU-1": {"at": (16, 14)},
    "BLU-2": {"at": (25, 20)},
}


def _shoot_chronomancer(weapon: str, equipment: Sequence[str] = ("Phase Shifter",)) -> GameState:
    """B's Gunner BLU-1 shoots HIE-3 (Chronomancer, a CRYPTEK, in the open) with
    ``weapon``; attack dice 3,3,1,1 (two normal successes)."""
    s = lab(
        TYPES,
        PHASE_OPS,
        blu=("Gunner", "Trooper"),
        cp=(0, 0),
        turn="B",
        equipment={"A": tuple(equipment)},
    )
    s, _ = play(s, ["Activate BLU-1 engage", f"Shoot BLU-1 {weapon} at HIE-3"], ["3,3,1,1"])
    return pass_windows(s)


def test_phase_shifter_worsens_piercing_by_1() -> None:
    # Pierce Gun (Piercing 1): A is offered the Phase Shifter at the start of the defence
    # step; used, Piercing 1 is ignored and HIE-3 rolls 3 defence dice, not 2.
    s = _shoot_chronomancer("pierce gun")
    assert texts(s) == ["Decline", "Use phase shifter"]
    used, ev = s.apply("Use phase shifter")
    assert [e["item"] for e in of_kind(ev, "equipment_used")] == ["Phase Shifter"]
    assert used.node.request.dice == 3  # type: ignore[union-attr]
    declined, _ = s.apply("Decline")
    assert declined.node.request.dice == 2  # type: ignore[union-attr]


def test_phase_shifter_only_against_piercing_and_once_per_turning_point() -> None:
    # The Silent Gun has no Piercing: nothing to worsen, no choice (the defence dice are rolled).
    assert isinstance(_shoot_chronomancer("silent gun").node, Chance)
    # Used this turning point already: no choice either.
    s = _shoot_chronomancer("pierce gun")
    s, _ = s.apply("Use phase shifter")
    assert any(e.detail == "hierotek_phase_shifter_used" for e in s.effects)
    # Without the equipment: no choice.
    assert isinstance(_shoot_chronomancer("pierce gun", ()).node, Chance)


def test_phase_shifter_against_piercing_crits_once_a_crit_is_retained() -> None:
    # Piercing Crits 1 gives the weapon Piercing 1 once a critical success is retained: with
    # a 6 among the attack dice, the Phase Shifter is offered and ignores it (3 defence dice,
    # not 2); without a crit the weapon has no Piercing: nothing offered.
    eq = {"A": ("Phase Shifter",)}
    s = lab(TYPES, PHASE_OPS, blu=("Gunner", "Trooper"), cp=(0, 0), turn="B", equipment=eq)
    shot = ["Activate BLU-1 engage", "Shoot BLU-1 crit pierce gun at HIE-3"]
    crit, _ = play(s, shot, ["6,3,1,1"])
    crit = pass_windows(crit)
    assert texts(crit) == ["Decline", "Use phase shifter"]
    used, _ = crit.apply("Use phase shifter")
    assert used.node.request.dice == 3  # type: ignore[union-attr]
    declined, _ = crit.apply("Decline")
    assert declined.node.request.dice == 2  # type: ignore[union-attr]
    plain, _ = play(s, shot, ["3,3,1,1"])
    assert isinstance(pass_windows(plain).node, Chance)


# -------------------------------------------------------------------------------------------
# Equipment: Tesla Weave
# -------------------------------------------------------------------------------------------


def _charge_hie1(equipment: Sequence[str] = ("Tesla Weave",)) -> GameState:
    """B's BLU-1 charges HIE-1 (Guardian at (5, 14)) from 6" away."""
    ops = {**PHASE_OPS, "HIE-1": {"at": (5, 14)}, "HIE-3": {"at": (3, 4)}}
    ops["BLU-1"] = {"at": (11, 14)}
    s = lab(TYPES, ops, cp=(0, 0), turn="B", equipment={"A": tuple(equipment)})
    s, _ = play(s, ["Activate BLU-1 engage", f"Charge BLU-1 to {5 + 2 * R + 0.5:g},14"])
    return pass_windows(s)


def test_tesla_weave_d3_plus_1_damage_on_a_charger() -> None:
    # A D6 of 6 is a D3 of 3: 3 + 1 = 4 damage, BLU-1 (10 wounds) has 6 left.
    s = _charge_hie1()
    assert texts(s) == ["Decline", "Use tesla weave"]
    s, _ = play(s, ["Use tesla weave"], ["6"])
    assert s.operative("BLU-1").wounds == 6
    assert any(e.detail == "hierotek_tesla_weave_used" for e in s.effects)
    # A 1 is a D3 of 1: 2 damage.
    s2, _ = play(_charge_hie1(), ["Use tesla weave"], ["1"])
    assert s2.operative("BLU-1").wounds == 8


def test_tesla_weave_needs_the_equipment_and_can_be_declined() -> None:
    s, _ = _charge_hie1().apply("Decline")
    assert s.operative("BLU-1").wounds == 10
    plain = _charge_hie1(())
    assert "Use tesla weave" not in texts(plain)


# -------------------------------------------------------------------------------------------
# Equipment: Tesseract Cube
# -------------------------------------------------------------------------------------------


def _ready_step(
    ops: Mapping[str, Mapping[str, Any]] = FACING, equipment: Sequence[str] = ("Tesseract Cube",)
) -> GameState:
    """TP2's Ready step with A's Chronomancer HIE-3 on the killzone (A 3CP before it)."""
    s = pass_windows(lab(TYPES, ops, equipment={"A": tuple(equipment)}))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    return s


def test_tesseract_cube_4_plus_gains_1cp() -> None:
    # A has initiative: +1CP in the Ready step (4), then the cube's 4 gives one more (5).
    s = _ready_step()
    assert texts(s) == ["Decline", "Use tesseract cube"]
    s, _ = play(s, ["Use tesseract cube"], ["4"])
    assert s.players[0].cp == 5
    s2, _ = play(_ready_step(), ["Use tesseract cube"], ["3"])
    assert s2.players[0].cp == 4  # a 3: nothing


def test_tesseract_cube_a_1_ends_it_and_2cp_at_most() -> None:
    s, _ = play(_ready_step(), ["Use tesseract cube"], ["1"])
    assert any(e.detail == "hierotek_tesseract_cube_broken" for e in s.effects)
    gained = [Effect("token", "", "end_battle", detail="hierotek_tesseract_cube_cp", player="A")]
    s = _ready_step()
    assert "Use tesseract cube" in texts(s)
    # With 2CP gained already, the cube is not offered (the gambit step comes next).
    s = pass_windows(lab(TYPES, FACING, equipment={"A": ("Tesseract Cube",)}))
    s = attrs.evolve(s, effects=(*s.effects, *(gained * 2)))
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    assert s.node.kind == "gambit"  # type: ignore[union-attr]


def test_tesseract_cube_not_with_the_cryptek_in_enemy_control_range() -> None:
    ops = {**FACING, "BLU-1": {"at": (3, 14 + 0.8 + 0.63 + 0.5), "ready": False}}
    s = _ready_step(ops)
    assert s.node.kind == "gambit"  # type: ignore[union-attr]


# -------------------------------------------------------------------------------------------
# Chronomancer: Chronometron (and Cortical Control, which widens its reach)
# -------------------------------------------------------------------------------------------

CRYPT_OPS: dict[str, dict[str, Any]] = {
    "HIE-1": {"at": (5, 14)},
    "HIE-2": {"at": (5, 8)},
    "HIE-3": {"at": (3, 14)},
    "BLU-1": {"at": (16, 14)},
    "BLU-2": {"at": (25, 20)},
}


def _chrono(ops: Mapping[str, Mapping[str, Any]] = CRYPT_OPS, **kw: Any) -> GameState:
    """A's Chronomancer HIE-3 activated (TP1 unless ``tp``), no CP."""
    kw.setdefault("cp", (0, 0))
    return lab(TYPES, ops, **kw).apply("Activate HIE-3 engage")[0]


def _blu1_attack_dice(s: GameState, target: str = "HIE-1") -> int:
    """B's BLU-1 (Trooper, Gun: 4 attacks) shoots ``target``: how many attack dice."""
    s, _ = play(s, ["End activation", "Activate BLU-1 engage", f"Shoot BLU-1 gun at {target}"])
    s = pass_windows(s)
    assert isinstance(s.node, Chance) and s.node.request.kind == "attack"
    return s.node.request.dice


def test_chronometron_one_less_attack_against_the_selected_operative() -> None:
    # HIE-1 selected: BLU-1's Gun (4 attacks) rolls 3 against it; against HIE-2, 4.
    s = _chrono()
    assert "Act HIE-3 chronometron on HIE-1" in texts(s)
    s, _ = s.apply("Act HIE-3 chronometron on HIE-1")
    assert s.operative("HIE-3").ap == 2
    assert _blu1_attack_dice(s) == 3
    assert _blu1_attack_dice(s, "HIE-2") == 4
    assert _blu1_attack_dice(_chrono()) == 4


def test_chronometron_ends_at_the_next_activation_or_when_performed_again() -> None:
    s, _ = _chrono().apply("Act HIE-3 chronometron on HIE-1")
    w = Work(s)
    w.emit("activated", op="HIE-3", order="engage", ap=3)
    assert not [e for e in w.effects if e.kind == "hierotek_chronometron"]
    # Performed again (as in a later activation): only the new selection holds.
    w = Work(s)
    again = Action("Act", op="HIE-3", text="chronometron", target="HIE-2")
    Chronometron().perform(w, w.op("HIE-3"), again, "activation")
    assert [e.op for e in w.effects if e.kind == "hierotek_chronometron"] == ["HIE-2"]


def test_chronometron_reach_6_inches_and_not_in_enemy_control_range() -> None:
    # HIE-2 moved 8" away (visible): not selectable.
    far = {**CRYPT_OPS, "HIE-1": {"at": (11, 15)}}
    s = _chrono(far)
    with pytest.raises(IllegalActionError, match="within 6"):
        s.apply("Act HIE-3 chronometron on HIE-1")
    near_enemy = {**CRYPT_OPS, "BLU-1": {"at": (3, 14 + 0.79 + 0.63 + 0.5)}}
    s = _chrono(near_enemy)
    assert not [t for t in texts(s) if "chronometron" in t]


def test_cortical_control_ignores_the_support_distance_for_the_next_action() -> None:
    # HIE-1 at (11, 15) is beyond Chronometron's 6"; with Cortical Control used in the
    # activation it can be selected; the ploy costs 1CP and ends with that action.
    far = {**CRYPT_OPS, "HIE-1": {"at": (11, 15)}}
    s = _chrono(far, cp=(1, 0))
    assert "Ploy cortical control" in texts(s)
    s, _ = s.apply("Ploy cortical control")
    assert s.players[0].cp == 0
    s, _ = s.apply("Act HIE-3 chronometron on HIE-1")
    assert not [e for e in s.effects if e.kind == "cortical_control"]
    # Not for an operative that is neither a cryptek nor an apprentek.
    s = lab(TYPES, far, cp=(1, 0)).apply("Activate HIE-2 engage")[0]
    assert "Ploy cortical control" not in texts(s)


def test_cortical_control_ends_with_the_activation_and_needs_an_action_point() -> None:
    # "Until the end of that action": used and no action follows, the reach ends with the
    # activation (it never carries to a later SUPPORT rule); with no AP left, not offered.
    far = {**CRYPT_OPS, "HIE-1": {"at": (11, 15)}}
    s, _ = _chrono(far, cp=(2, 0)).apply("Ploy cortical control")
    assert [e for e in s.effects if e.kind == "cortical_control"]
    s, _ = s.apply("End activation")
    assert not [e for e in s.effects if e.kind == "cortical_control"]
    spent = _chrono(far, cp=(1, 0))
    ops = tuple(attrs.evolve(o, ap=0) if o.id == "HIE-3" else o for o in spent.operatives)
    spent = attrs.evolve(spent, operatives=ops)
    assert "Ploy cortical control" not in texts(spent)


def test_cortical_control_usable_as_the_cryptek_counteracts() -> None:
    # A SUPPORT unique action may be a counteraction's one action: the ploy is offered as
    # HIE-3's counteraction starts, and its Chronometron then reaches HIE-1 beyond 6". The
    # old reading offered it only between the actions of an activation, so a counteracting
    # Cryptek could not use it (and HIE-1 was out of reach).
    far = {
        "HIE-1": {"at": (11, 15), "ready": False},
        "HIE-2": {"at": (5, 8), "ready": False},
        "HIE-3": {"at": (3, 14), "ready": False},
        "BLU-1": {"at": (16, 14)},
        "BLU-2": {"at": (25, 20)},
    }
    s = lab(TYPES, far, cp=(1, 0), turn="B")
    s, _ = s.apply("Activate BLU-2 conceal")
    s, _ = pass_windows(s).apply("End activation")
    s, _ = pass_windows(s).apply("Counteract HIE-3")
    assert "Ploy cortical control" in texts(s)
    assert "Act HIE-3 chronometron on HIE-1" not in texts(pass_windows(s))
    s, _ = s.apply("Ploy cortical control")
    s = pass_windows(s)
    s, _ = s.apply("Act HIE-3 chronometron on HIE-1")
    assert not [e for e in s.effects if e.kind == "cortical_control"]


# -------------------------------------------------------------------------------------------
# Chronomancer: Countertemporal Nanomine
# -------------------------------------------------------------------------------------------


def test_countertemporal_nanomine_2_inches_less_move_within_4_inches() -> None:
    # Marker at (15, 14): BLU-1 at (16, 14) has Move 6 - 2 = 4; BLU-2 far away keeps 6;
    # A's own operatives are not affected.
    s, _ = _chrono().apply("Act HIE-3 countertemporal nanomine at 15,14")
    assert [(t.kind, t.x, t.y) for t in s.tokens] == [("hierotek_nanomine", 15, 14)]
    w = Work(s)
    assert w.move_stat(w.op("BLU-1")) == 4
    assert w.move_stat(w.op("BLU-2")) == 6
    # Performed again elsewhere: one marker only.
    w.emit("activated", op="HIE-3", order="engage", ap=3)
    assert not w.tokens


def test_countertemporal_nanomine_must_be_visible() -> None:
    # HIE-3 at (3, 19) in the wall lane: (16, 19) is behind the 5" wall, not visible.
    ops = {**CRYPT_OPS, "HIE-3": {"at": (3, 19)}}
    s = _chrono(ops)
    with pytest.raises(IllegalActionError, match="visible"):
        s.apply("Act HIE-3 countertemporal nanomine at 16,19")
    # Above the floor only on Vantage terrain (LAB has none).
    with pytest.raises(IllegalActionError, match="Vantage"):
        _chrono().apply("Act HIE-3 countertemporal nanomine at 15,14,2")


def test_countertemporal_nanomine_on_vantage_of_a_visible_terrain_feature() -> None:
    # open_ruins: a 3" Vantage ruin around (15.25, 17). From the floor at (11.5, 17) the point
    # on its top is hidden, but the ruin's side is visible: the dataslate allows the marker on
    # the Vantage terrain of a feature visible to the operative.
    from engine.geometry import Placement, load_killzone

    kz = load_killzone("open_ruins")
    ops = {
        "HIE-1": {"at": (2, 2)},
        "HIE-2": {"at": (4, 2)},
        "HIE-3": {"at": (11.5, 17)},
        "BLU-1": {"at": (28, 2)},
        "BLU-2": {"at": (26, 2)},
    }
    team = Roster.from_entries(lab_team("hierotek_circle"), list(TYPES))
    s = position(kz, team, roster(BLU, ("Trooper", "Trooper")), operatives=ops, cp=(0, 0))
    s, _ = s.apply("Activate HIE-3 engage")
    w = Work(s)
    assert not w.ctx.visible(w.kz, w.place(w.op("HIE-3")), Placement(15.25, 17, 20.0, 3, 0.1))
    s2, _ = s.apply("Act HIE-3 countertemporal nanomine at 15.25,17,3")
    assert [(t.x, t.y, t.elevation) for t in s2.tokens if t.kind == "hierotek_nanomine"] == [
        (15.25, 17.0, 3.0)
    ]


# -------------------------------------------------------------------------------------------
# Chronomancer: Timesplinter
# -------------------------------------------------------------------------------------------

SPLINTER_OPS = {**CRYPT_OPS, "HIE-1": {"at": (5, 14), "ready": False}}


def test_timesplinter_sets_an_expended_operative_up_again() -> None:
    # TP2: HIE-1 (expended, 0.6" away) is set up again at (7, 17), within 5" of HIE-3.
    s = _chrono(SPLINTER_OPS, tp=2)
    s, _ = s.apply("Act HIE-3 timesplinter at 7,17 on HIE-1")
    assert (s.operative("HIE-1").x, s.operative("HIE-1").y) == (7, 17)
    # Once per turning point: refused a second time.
    with pytest.raises(IllegalActionError):
        s.apply("Act HIE-3 timesplinter at 6,12 on HIE-1")


def test_timesplinter_limits() -> None:
    # Not in the first turning point; not a ready operative; not beyond 5".
    with pytest.raises(IllegalActionError, match="first turning point"):
        _chrono(SPLINTER_OPS).apply("Act HIE-3 timesplinter at 7,17 on HIE-1")
    with pytest.raises(IllegalActionError, match="expended"):
        _chrono(CRYPT_OPS, tp=2).apply("Act HIE-3 timesplinter at 7,17 on HIE-1")
    with pytest.raises(IllegalActionError, match="within 5"):
        _chrono(SPLINTER_OPS, tp=2).apply("Act HIE-3 timesplinter at 12,14 on HIE-1")


# -------------------------------------------------------------------------------------------
# Psychomancer: Harbinger Of Despair, Nightmare Shroud
# -------------------------------------------------------------------------------------------

PSYCHO = (GUARD_TESLA, GUARD_GAUSS, "Psychomancer")
DESPAIR_OPS = {**CRYPT_OPS, "BLU-1": {"at": (20, 13)}, "BLU-2": {"at": (21, 16)}}


def _psycho(ops: Mapping[str, Mapping[str, Any]] = DESPAIR_OPS) -> GameState:
    return lab(PSYCHO, ops, cp=(0, 0)).apply("Activate HIE-3 engage")[0]


def test_harbinger_of_despair_enemies_near_it_pay_1ap_more_to_pick_up() -> None:
    s, _ = _psycho().apply("Act HIE-3 harbinger of despair at 20,14.5")
    w = Work(s)
    assert universal.action_cost(w, w.op("BLU-1"), "Pick up", 1, "activation") == 2
    assert universal.action_cost(w, w.op("BLU-1"), "Reposition", 1, "activation") == 1
    # Without the marker: 1AP.
    w = Work(_psycho())
    assert universal.action_cost(w, w.op("BLU-1"), "Pick up", 1, "activation") == 1


def test_harbinger_of_despair_enemies_near_it_count_one_less_apl_for_control() -> None:
    # BLU-1 and BLU-2 contest a marker with 2 + 2 APL; with the Despair marker within 2" of
    # them their total counts 1 less (the would_control_totals hook the control rule asks).
    s, _ = _psycho().apply("Act HIE-3 harbinger of despair at 20,14.5")
    w = Work(s)
    marker = {"marker": "obj", "what": universal.OBJECTIVE_MARKER}
    totals = w.would("would_control_totals", {"A": 0, "B": 4}, ops=["BLU-1", "BLU-2"], **marker)
    assert totals == {"A": 0, "B": 3}
    # A flank is no marker: the total stays.
    flank = {"marker": "", "what": "flank"}
    totals = w.would("would_control_totals", {"A": 0, "B": 4}, ops=["BLU-1", "BLU-2"], **flank)
    assert totals == {"A": 0, "B": 4}
    w = Work(_psycho())
    totals = w.would("would_control_totals", {"A": 0, "B": 4}, ops=["BLU-1", "BLU-2"], **marker)
    assert totals == {"A": 0, "B": 4}


def test_nightmare_shroud_no_rerolls_or_crit_rules_within_4_inches() -> None:
    # A Gunner within 4" of the Psychomancer loses its re-roll rules (Balanced...) and
    # Lethal, Rending, Severe; other rules stay (Piercing); beyond 4" it keeps them all.
    ops = {**CRYPT_OPS, "BLU-1": {"at": (6.5, 17)}, "BLU-2": {"at": (25, 20)}}
    s = lab(PSYCHO, ops, cp=(0, 0), blu=("Gunner", "Gunner")).apply("Activate HIE-3 engage")[0]
    s, _ = s.apply("Act HIE-3 nightmare shroud")
    w = Work(s)
    near = w.would(
        "would_use_weapon_rules",
        parse_weapon_rules("Balanced, Lethal 5+, Rending, Severe, Piercing 1"),
        op="BLU-1",
        weapon="x",
        kind="ranged",
        target="HIE-1",
    )
    assert [r.name for r in near] == ["Piercing"]
    far = w.would(
        "would_use_weapon_rules",
        parse_weapon_rules("Balanced, Lethal 5+"),
        op="BLU-2",
        weapon="x",
        kind="ranged",
        target="HIE-1",
    )
    assert [r.name for r in far] == ["Balanced", "Lethal"]
    w.emit("activated", op="HIE-3", order="engage", ap=3)  # ends at its next activation
    assert not [e for e in w.effects if e.kind == "hierotek_nightmare_shroud"]


def test_psychomancer_actions_need_a_psychomancer() -> None:
    # The Chronomancer team has no Harbinger Of Despair.
    s = _chrono()
    with pytest.raises(IllegalActionError):
        s.apply("Act HIE-3 harbinger of despair at 15,14")


# -------------------------------------------------------------------------------------------
# Reanimated Function
# -------------------------------------------------------------------------------------------


def _raf(marker_at: tuple[float, float] = (20, 15.6), cp: int = 1) -> GameState:
    """HIE-1 (Deathmark, APL 2, no Steadfast) and BLU-1 (APL 2) both contest the objective
    "obj" at (20, 14.5): a tie.
    HIE-2 is off the killzone with a Reanimation marker at ``marker_at``; HIE-1 activated."""
    from teams.hierotek_circle.reanimation import MARKER, marker_name

    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (21.5, 14.5)},
        "HIE-3": {"at": (3, 4)},
        "BLU-1": {"at": (18.5, 14.5)},
        "BLU-2": {"at": (25, 20)},
    }
    s = lab(("Deathmark", GUARD_GAUSS, CHRONO), ops, cp=(cp, 0))
    s = attrs.evolve(s, tokens=(*s.tokens, Token(MARKER, "A", marker_name("HIE-2"), *marker_at)))
    return s.apply("Activate HIE-1 engage")[0]


def test_reanimated_function_marker_counts_as_an_apl_1_operative() -> None:
    s = _raf()
    assert universal.controller(Work(s), "obj") == ""  # 2 APL each: nobody
    assert "Ploy reanimated function on HIE-2" in texts(s)
    s, _ = s.apply("Ploy reanimated function on HIE-2")
    assert s.players[0].cp == 0
    # The marker within the objective's control range adds 1: A controls (3 against 2).
    assert universal.controller(Work(s), "obj") == "A"


def test_reanimated_function_limits() -> None:
    # A marker away from the objective adds nothing; the effect ends with the turning point;
    # without CP it is not offered; once used, not again this turning point.
    s, _ = _raf(marker_at=(14, 20)).apply("Ploy reanimated function on HIE-2")
    assert universal.controller(Work(s), "obj") == ""
    assert [
        e.until
        for e in _raf().apply("Ploy reanimated function on HIE-2")[0].effects
        if e.kind == "hierotek_reanimated_function"
    ] == ["end_tp"]
    assert "Ploy reanimated function on HIE-2" not in texts(_raf(cp=0))
    used, _ = _raf(cp=2).apply("Ploy reanimated function on HIE-2")
    assert "Ploy reanimated function on HIE-2" not in texts(used)


def test_reanimated_function_offered_as_an_enemy_activation_starts() -> None:
    # Control may be determined by the enemy's actions too: A may use the ploy as B's
    # operative is activated (before its actions), so the marker counts for them.
    s = _raf(cp=1)
    s, _ = s.apply("Pass")  # the window as HIE-1's activation starts
    s, _ = s.apply("End activation")
    while isinstance(s.node, Decision) and s.node.kind == "ploy":  # as it ends
        s, _ = s.apply("Pass")
    s, _ = s.apply("Activate BLU-1 engage")
    assert isinstance(s.node, Decision) and s.node.player == "A"
    assert "Ploy reanimated function on HIE-2" in texts(s)
    s, _ = s.apply("Ploy reanimated function on HIE-2")
    assert universal.controller(Work(s), "obj") == "A"


def test_reanimated_function_offered_once_an_enemy_moved_onto_the_objective() -> None:
    # The ploy is used "when determining control": B's BLU-1 repositions onto the objective
    # (a tie, 2 APL each), and before it may choose an action that needs control (Pick Up,
    # a mission action) A may use the ploy in the ``moved`` window: the marker counts, A
    # controls 3 to 2. The old reading offered it only as an activation started or ended, so
    # A had to guess at BLU-1's activation start (before it moved) and here could not.
    from teams.hierotek_circle.reanimation import MARKER, marker_name

    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (21.5, 14.5)},
        "HIE-3": {"at": (3, 4), "ready": False},
        "BLU-1": {"at": (13, 14.5)},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    s = lab(("Deathmark", GUARD_GAUSS, CHRONO), ops, cp=(1, 0), turn="B")
    s = attrs.evolve(s, tokens=(*s.tokens, Token(MARKER, "A", marker_name("HIE-2"), 20, 15.6)))
    s, _ = s.apply("Activate BLU-1 engage")
    s = pass_windows(s)  # A passes as BLU-1's activation starts (nothing to deny yet)
    s, _ = s.apply("Reposition BLU-1 to 18.5,14.5")
    assert universal.controller(Work(s), "obj") == ""  # the tie
    assert isinstance(s.node, Decision) and s.node.player == "A" and s.node.kind == "ploy"
    s, _ = s.apply("Ploy reanimated function on HIE-2")
    assert universal.controller(Work(s), "obj") == "A"


def _raf_pick_up(counteract: bool = False) -> GameState:
    """B's BLU-1 (APL 2) on the objective "obj" against HIE-1 (APL 2 - 1 = 1): B controls it
    2 to 1; A's Reanimation marker (for HIE-2) at (20, 15.6) also contests it. B's turn,
    objective markers may be picked up, A has 1CP. With ``counteract``: BLU-1 is expended
    and A's HIE-1 and HIE-3 are ready, A's turn (B may counteract once one of them was
    activated)."""
    from engine.game import GameOptions
    from teams.hierotek_circle.reanimation import MARKER, marker_name

    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (21.5, 14.5), "ready": counteract},
        "HIE-3": {"at": (3, 4), "ready": counteract},
        "BLU-1": {"at": (18.5, 14.5), "ready": not counteract},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    opts = GameOptions(objectives_pickup=True)
    turn = "A" if counteract else "B"
    s = lab(("Deathmark", GUARD_GAUSS, CHRONO), ops, cp=(1, 0), turn=turn, options=opts)
    apl = Effect("apl", "HIE-1", "end_tp", value=-1)
    rm = Token(MARKER, "A", marker_name("HIE-2"), 20, 15.6)
    return attrs.evolve(s, effects=(*s.effects, apl), tokens=(*s.tokens, rm))


def _blu_ap(s: GameState) -> int:
    return next(o.ap for o in s.operatives if o.id == "BLU-1")


def test_reanimated_function_used_as_an_enemy_declares_pick_up_refuses_it() -> None:
    # "Use this firefight ploy when determining control of a marker": at the table A may use
    # it as B's Pick Up checks control. B declares Pick Up on "obj", which it controls 2 to 1;
    # in the ``action_declared`` window A uses the ploy: the Reanimation marker adds APL 1
    # (2 to 2, a tie), so B no longer controls "obj" and the Pick Up is refused: nothing of it
    # applies (BLU-1 keeps its 2AP, carries nothing), A paid 1CP (7.1), and B chooses again
    # (Pick Up is no longer listed). The old reading offered the ploy only before B chose
    # (between actions, after a move...), so B chose knowing whether it was used and A could
    # not deny the Pick Up after it was declared: it would have succeeded.
    s = _raf_pick_up()
    assert universal.controller(Work(s), "obj") == "B"
    s, _ = s.apply("Activate BLU-1 engage")
    s = pass_windows(s)  # A passes as BLU-1's activation starts
    assert "Pick up BLU-1 obj" in texts(s) and _blu_ap(s) == 2
    s, _ = s.apply("Pick up BLU-1 obj")
    assert isinstance(s.node, Decision) and s.node.player == "A" and s.node.kind == "ploy"
    s, ev = s.apply("Ploy reanimated function on HIE-2")
    assert [e["why"] for e in ev if e.kind == "action_refused"] == [
        "BLU-1 must control marker obj to pick it up (3.2, 4.8)"
    ]
    assert isinstance(s.node, Decision) and s.node.player == "B" and s.node.kind == "action"
    assert _blu_ap(s) == 2 and not next(o for o in s.operatives if o.id == "BLU-1").carrying
    assert s.players[0].cp == 0 and s.players[1].cp == 0
    assert "Pick up BLU-1 obj" not in texts(s)
    assert universal.controller(Work(s), "obj") == ""


def test_reanimated_function_refuses_a_counteraction_pick_up_which_is_chosen_again() -> None:
    # The same window opens for a counteraction's action (1.6): B counteracts with BLU-1 and
    # declares Pick Up on "obj" (it controls it 2 to 1); A uses the ploy there (2 to 2), the
    # Pick Up is refused and B chooses the counteraction's action again (still its one
    # action: nothing was performed). Before, the ploy could be used only at the start of
    # the counteraction, before B chose.
    s = _raf_pick_up(counteract=True)
    s = pass_windows(s.apply("Activate HIE-3 engage")[0])
    s = pass_windows(s.apply("End activation")[0])
    s = pass_windows(s.apply("Counteract BLU-1")[0])  # A passes at counteract_start
    s, _ = s.apply("Pick up BLU-1 obj")
    assert isinstance(s.node, Decision) and s.node.player == "A" and s.node.kind == "ploy"
    s, ev = s.apply("Ploy reanimated function on HIE-2")
    assert [e["op"] for e in ev if e.kind == "action_refused"] == ["BLU-1"]
    assert isinstance(s.node, Decision) and s.node.player == "B"
    assert s.node.kind == "counteract" and "Pick up BLU-1 obj" not in texts(s)
    assert not next(o for o in s.operatives if o.id == "BLU-1").carrying


def test_reanimated_function_declared_window_limits() -> None:
    # When A passes, the declared Pick Up goes ahead (1AP spent, the marker carried). The
    # window opens only while the ploy is usable: with no CP nothing is offered and the Pick
    # Up applies at once; an action of an operative away from every marker the Reanimation
    # marker contests (BLU-2) opens no window either.
    s = pass_windows(_raf_pick_up().apply("Activate BLU-1 engage")[0])
    s, _ = s.apply("Pick up BLU-1 obj")
    s, ev = s.apply("Pass")
    assert any(e.kind == "marker_picked_up" for e in ev) and _blu_ap(s) == 1
    broke = attrs.evolve(
        _raf_pick_up(),
        players=(attrs.evolve(_raf_pick_up().players[0], cp=0), _raf_pick_up().players[1]),
    )
    s = pass_windows(broke.apply("Activate BLU-1 engage")[0])
    s, ev = s.apply("Pick up BLU-1 obj")
    assert any(e.kind == "marker_picked_up" for e in ev)
    from engine.game import ploys

    w = Work(_raf_pick_up())
    info = {"mode": "activation", "action": "Dash", "text": ""}
    assert ploys.window_wanted(w, "action_declared", {**info, "op": "BLU-1"})
    assert not ploys.window_wanted(w, "action_declared", {**info, "op": "BLU-2"})


def test_reanimated_function_not_offered_mid_activation_when_its_marker_contests_nothing() -> None:
    # Limit: at the mid-activation windows (moved...) the ploy is offered only when one of
    # A's Reanimation markers contests a marker (else it could change nothing there): with
    # the marker far from the objective, BLU-1's move opens no window for A.
    from teams.hierotek_circle.reanimation import MARKER, marker_name

    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (21.5, 14.5)},
        "HIE-3": {"at": (3, 4), "ready": False},
        "BLU-1": {"at": (13, 14.5)},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    s = lab(("Deathmark", GUARD_GAUSS, CHRONO), ops, cp=(1, 0), turn="B")
    s = attrs.evolve(s, tokens=(*s.tokens, Token(MARKER, "A", marker_name("HIE-2"), 14, 20)))
    s, _ = s.apply("Activate BLU-1 engage")
    s = pass_windows(s)
    s, _ = s.apply("Reposition BLU-1 to 18.5,14.5")
    assert isinstance(s.node, Decision) and s.node.player == "B" and s.node.kind == "action"


def test_reanimated_function_counts_for_a_marker_that_is_not_an_objective() -> None:
    # "Whenever determining control of a marker": any marker, not only objective markers.
    # A token marker "beacon" at (20, 13.4) is contested by HIE-1 and BLU-1 (2 APL each: a
    # tie) and is within control range of the Reanimation marker at (20, 14.5) (1.1" apart,
    # centre to centre). With the ploy A controls it 3 to 2. The old reading counted the
    # Reanimation marker for objective markers only (the tie stood).
    from engine.rules.equipment.markers import token_controller

    s = _raf(marker_at=(20, 14.5))
    beacon = Token("beacon", "B", "beacon", 20, 13.4)
    s = attrs.evolve(s, tokens=(*s.tokens, beacon))
    assert token_controller(Work(s), beacon) == ""
    s, _ = s.apply("Ploy reanimated function on HIE-2")
    assert token_controller(Work(s), beacon) == "A"


def test_reanimated_function_has_no_effect_for_the_martyrs_tac_op() -> None:
    # The dataslate: for the Martyrs tac op the ploy has no effect. Martyrs asks control with
    # rule="Martyrs" (its 2VP per token when controlled): the tie stands there, while any
    # other determination of control counts the marker (A controls).
    from engine.missions.tac_ops import martyrs

    s, _ = _raf().apply("Ploy reanimated function on HIE-2")
    w = Work(s)
    assert universal.controller(w, "obj") == "A"
    assert universal.controller(w, "obj", martyrs.NAME) == ""


# -------------------------------------------------------------------------------------------
# Dimensional Ambush
# -------------------------------------------------------------------------------------------

DEATHMARKS = ("Deathmark", GUARD_GAUSS, CHRONO)
DA_OPS: dict[str, dict[str, Any]] = {
    "HIE-1": {"at": (5, 14), "order": "conceal"},
    "HIE-2": {"at": (5, 8)},
    "HIE-3": {"at": (3, 4)},
    "BLU-1": {"at": (16, 14)},
    "BLU-2": {"at": (25, 20)},
}


def _deathmark(cp: int = 1) -> GameState:
    """A's Deathmark HIE-1 (Conceal) activated on LAB (no Close Quarters rules)."""
    return lab(DEATHMARKS, DA_OPS, cp=(cp, 0)).apply("Activate HIE-1 conceal")[0]


def test_dimensional_ambush_guard_while_concealed_then_interrupt_as_engage() -> None:
    s = _deathmark()
    assert "Ploy dimensional ambush" in texts(s)
    assert "Act HIE-1 guard" not in texts(s)  # no Guard without the ploy (and no CQ)
    s, _ = s.apply("Ploy dimensional ambush")
    assert s.players[0].cp == 0
    s, _ = s.apply("Act HIE-1 guard")
    assert s.operative("HIE-1").on_guard and s.operative("HIE-1").order == "conceal"
    # B's BLU-1 repositions; A may interrupt with HIE-1, whose order becomes Engage, so
    # its (non-Silent) synaptic disintegrator can shoot.
    s, _ = play(s, ["End activation", "Activate BLU-1 engage", "Reposition BLU-1 to 15,14"])
    s = pass_windows(s)
    assert "Interrupt HIE-1" in texts(s)
    s, _ = s.apply("Interrupt HIE-1")
    assert s.operative("HIE-1").order == "engage"
    assert "Shoot HIE-1 synaptic disintegrator at BLU-1" in texts(s)


def test_dimensional_ambush_only_for_a_concealed_deathmark() -> None:
    # An Engage Deathmark: not offered; a Guardian: not offered; no CP: not offered.
    s = lab(DEATHMARKS, DA_OPS, cp=(1, 0)).apply("Activate HIE-1 engage")[0]
    assert "Ploy dimensional ambush" not in texts(s)
    s = lab(DEATHMARKS, DA_OPS, cp=(1, 0)).apply("Activate HIE-2 conceal")[0]
    assert "Ploy dimensional ambush" not in texts(s)
    assert "Ploy dimensional ambush" not in texts(_deathmark(cp=0))


# -------------------------------------------------------------------------------------------
# Psychomancer: Vision Of Madness
# -------------------------------------------------------------------------------------------


def _madness(blu2_ready: bool = True) -> GameState:
    """A's Psychomancer HIE-3 gives BLU-1 a Madness token, ends its activation; B's turn."""
    ops = {**CRYPT_OPS, "BLU-2": {"at": (25, 20), "ready": blu2_ready}}
    s = lab(PSYCHO, ops, cp=(0, 0)).apply("Activate HIE-3 engage")[0]
    assert "Act HIE-3 vision of madness on BLU-1" in texts(s)
    s, _ = play(s, ["Act HIE-3 vision of madness on BLU-1", "End activation"])
    return pass_windows(s)


def test_vision_of_madness_roll_of_apl_or_more_forbids_the_activation() -> None:
    # BLU-1 has APL 2: a 2 stops its activation; B must activate another (BLU-2).
    s, _ = _madness().apply("Activate BLU-1 engage")
    assert texts(s) == ["Decline", "Use vision of madness"]
    s, _ = play(s, ["Use vision of madness"], ["2"])
    assert s.node.player == "B" and s.node.kind == "activate"  # type: ignore[union-attr]
    assert not [t for t in texts(s) if "BLU-1" in t]
    with pytest.raises(IllegalActionError, match="Vision Of Madness"):
        s.apply("Activate BLU-1 engage")
    s, _ = s.apply("Activate BLU-2 engage")
    # The token stays on BLU-1 (not activated); the refusal ended with BLU-2's activation.
    assert [e.op for e in s.effects if e.kind == "hierotek_madness"] == ["BLU-1"]
    assert not [e for e in s.effects if e.kind == "hierotek_madness_refused"]


def test_vision_of_madness_below_apl_or_declined_activates_and_removes_the_token() -> None:
    s, _ = _madness().apply("Activate BLU-1 engage")
    s, _ = play(s, ["Use vision of madness"], ["1"])
    assert s.node.kind != "activate" or s.node.player != "B"  # type: ignore[union-attr]
    assert not [e for e in s.effects if e.kind == "hierotek_madness"]
    s, _ = _madness().apply("Activate BLU-1 engage")
    s, _ = s.apply("Decline")
    assert not [e for e in s.effects if e.kind == "hierotek_madness"]


def test_vision_of_madness_no_roll_when_no_other_operative_can_activate() -> None:
    # BLU-2 expended: BLU-1 activates without a roll and loses its token.
    s, _ = _madness(blu2_ready=False).apply("Activate BLU-1 engage")
    assert "Use vision of madness" not in texts(s)
    assert not [e for e in s.effects if e.kind == "hierotek_madness"]


def test_nightmare_shroud_no_command_reroll_within_4_inches() -> None:
    # B's BLU-1 (2CP) shoots from about 1.8" of the shrouded Psychomancer: after its attack dice
    # no Command Re-roll is offered (the dice are retained at once); without the shroud,
    # it is.
    ops = {**CRYPT_OPS, "HIE-1": {"at": (8, 17)}, "BLU-1": {"at": (5, 16.5)}}
    s = lab(PSYCHO, ops, cp=(0, 2)).apply("Activate HIE-3 engage")[0]
    shrouded, _ = play(s, ["Act HIE-3 nightmare shroud", "End activation"])
    plain, _ = play(s, ["End activation"])
    shot = ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-1"]
    shrouded, _ = play(pass_windows(shrouded), shot, ["3,3,1,1"])
    plain, _ = play(pass_windows(plain), shot, ["3,3,1,1"])
    assert "Command re-roll 1" in texts(plain)
    assert not [t for t in texts(shrouded) if t.startswith("Command re-roll")]


# -------------------------------------------------------------------------------------------
# More limits
# -------------------------------------------------------------------------------------------


def test_undying_androids_also_against_saturate_in_cover() -> None:
    # HIE-1 in cover behind the rubble, shot with the Saturate Gun: no cover save can be
    # retained, so the ploy's unrolled normal save is offered; without it, none.
    ops = {
        **FACING,
        "HIE-1": {"at": (16, 4), "ready": False},
        "BLU-1": {"at": (5, 4), "ready": False},
    }

    def shot(ploys: Sequence[str]) -> GameState:
        s = gambit(ploys, ops, initiative="B", blu=("Gunner", "Trooper"))
        s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 saturate gun at HIE-1"], ["3,3,1,1"])
        return pass_windows(s)

    assert texts(shot(["Undying Androids"])) == ["Cover save none", "Cover save normal"]
    assert isinstance(shot([]).node, Chance)


def test_tesseract_cube_not_when_the_cryptek_was_reanimated_this_turning_point() -> None:
    from teams.hierotek_circle.equipment import cube_cryptek
    from teams.hierotek_circle.reanimation import _set_count

    w = Work(_ready_step())
    assert cube_cryptek(w, "A") == "HIE-3"
    _set_count(w, "A", "reanimated_tp:HIE-3", w.tp)
    assert cube_cryptek(w, "A") == ""


def test_phase_shifter_piercing_2_becomes_piercing_1() -> None:
    # "Worsen x by 1": with the Phase Shifter used for HIE-3, a Piercing 2 weapon shooting
    # it has Piercing 1 (read through the weapon-rules hook the Shoot sequence asks).
    s = _shoot_chronomancer("pierce gun")
    s, _ = s.apply("Use phase shifter")
    w = Work(s)
    rules = w.would(
        "would_use_weapon_rules",
        parse_weapon_rules("Piercing 2, Lethal 5+"),
        op="BLU-1",
        weapon="x",
        kind="ranged",
        target="HIE-3",
    )
    assert [r.format() for r in rules] == ["Lethal 5+", "Piercing 1"]


def test_apprentek_performs_one_cryptek_action_per_turning_point() -> None:
    # The Apprentek (HIE-4) of a Chronomancer team has its unique actions, one per TP.
    types = (*TYPES, "Apprentek")
    ops = {**CRYPT_OPS, "HIE-4": {"at": (3, 10)}}
    s = lab(types, ops, cp=(0, 0)).apply("Activate HIE-4 engage")[0]
    assert "Act HIE-4 chronometron on HIE-2" in texts(s)
    s, _ = s.apply("Act HIE-4 chronometron on HIE-2")
    assert not [t for t in texts(s) if "nanomine" in t or "chronometron" in t]
    with pytest.raises(IllegalActionError, match="Apprentek Assistance"):
        s.apply("Act HIE-4 countertemporal nanomine at 15,14")


def test_nightmare_shroud_refuses_every_attack_reroll_but_not_defence_rerolls() -> None:
    # The dataslate forbids re-rolling attack dice of an enemy within 4" (shooting, fighting
    # or retaliating), whatever re-rolls them: the core's re-roll refusal names the shroud for
    # any re-rolling ploy (here a team's ploy) in melee or ranged; defence dice and an enemy
    # beyond 4" are not affected.
    from engine.game.ploys import reroll_refusal

    ops = {**CRYPT_OPS, "BLU-1": {"at": (6.5, 17)}, "BLU-2": {"at": (25, 20)}}
    s = lab(PSYCHO, ops, cp=(0, 0)).apply("Activate HIE-3 engage")[0]
    s, _ = s.apply("Act HIE-3 nightmare shroud")
    w = Work(s)
    for kind in ("ranged", "melee"):
        info = {"op": "BLU-1", "target": "HIE-1", "kind": kind}
        why = reroll_refusal(w, "B", "attack_dice", "Some Ploy", info)
        assert why is not None and "Nightmare Shroud" in why
    near = {"op": "BLU-1", "target": "HIE-1", "kind": "ranged"}
    assert reroll_refusal(w, "B", "defence_dice", "Some Ploy", near) is None
    far = {"op": "BLU-2", "target": "HIE-1", "kind": "ranged"}
    assert reroll_refusal(w, "B", "attack_dice", "Some Ploy", far) is None
    # Friendly dice are never refused.
    mine = {"op": "HIE-1", "target": "BLU-1", "kind": "ranged"}
    assert reroll_refusal(w, "A", "attack_dice", "Command Re-roll", mine) is None
