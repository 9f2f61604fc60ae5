"""The KT21 Legionaries' team rules in play (``teams/kt21_legionaries``; ``rules/KT21.md`` 4.1,
11, 12, 15.1), one test per rule. Fixtures: ``tests/kt21_team_support`` (player A the
Legionaries, player B the Kasrkin; fighters 0.5" apart are within Engagement Range).
"""

from __future__ import annotations

import math
import random

from engine.game import GameState
from engine.game.markers import controller
from engine.game.state import Chance, Decision
from engine.game.work import Work
from engine.rules.registry import team_rules
from engine.rulesets import new_game
from tests.kt21_team_support import (
    ENGAGED,
    KAS,
    KT21,
    LEG,
    LEG_CHOSEN,
    LEGIONARIES,
    activated,
    of_kind,
    options,
    play,
    pos,
)
from tests.test_game_rules_common import LAB

AXE = "Fight LEG-2 double-handed chain axe at KAS-10"


def test_vicious_blows_gives_ceaseless_to_the_attacker() -> None:
    """Vicious Blows*: as the Attacker the Butcher's axe has Ceaseless, so after rolling
    4,1,1,1 it may re-roll any or all of its 1s ("Re-roll 1", "Re-roll 1 1"...); the axe
    prints no re-roll rule of its own."""
    s = activated({"LEG-2": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}, "LEG-2")
    s, _ = play(s, [AXE], ["roll 4,1,1,1", "roll 1,1,1"])
    assert {"Re-roll 1", "Re-roll 1,1,1"} <= options(s)


def test_vicious_blows_gives_nothing_to_the_defender() -> None:
    """Vicious Blows*: neither rule applies when the Butcher is fought (it is not the
    Attacker and did not Charge): its 1s cannot be re-rolled."""
    s = pos({"LEG-2": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}, turn="B")
    s, _ = play(s, ["Activate KAS-10 engage", "Fight KAS-10 gun butt at LEG-2"])
    s, _ = play(s, [], ["roll 1,1,1", "roll 4,1,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        assert s.node.player == "B"  # type: ignore[union-attr]  # the Kasrkin's Elite window
        s, _ = play(s, ["Decline"])


def test_vicious_blows_gives_relentless_after_a_charge() -> None:
    """Vicious Blows*: after a Charge in the same activation the axe has Relentless (any
    attack dice), so a 4 may be re-rolled too, which Ceaseless alone never allows."""
    s = activated({"LEG-2": {"at": (9, 14)}, "KAS-10": {"at": (15, 14)}}, "LEG-2")
    charge = next(a for a in s.legal_actions() if a.verb == "Charge")
    s, _ = s.apply(charge)
    fight = next(str(a) for a in s.legal_actions() if a.verb == "Fight")
    s, _ = play(s, [fight], ["roll 4,3,2,1", "roll 1,1,1"])
    assert "Re-roll 4" in options(s)


def test_daemonic_energies_two_mortal_wounds_per_retained_crit() -> None:
    """Daemonic Energies*: each critical hit retained by the fell dagger inflicts 2 mortal
    wounds on the target in the Roll Attack Dice step: two 6s -> 4 mortal wounds, so the
    Trooper (8 wounds) has 4 left before any strike."""
    s = activated({"LEG-5": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}, "LEG-5")
    s, ev = play(s, ["Fight LEG-5 fell dagger at KAS-10"], ["roll 6,6,1,1,1", "roll 1,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, more = play(s, ["Decline"])  # the Kasrkin's Elite window
        ev += more
    mortal = [e for e in of_kind(ev, "damage_inflicted") if e["source"] == "MW2"]
    assert [(e["op"], e["damage"]) for e in mortal] == [("KAS-10", 4)]
    assert s.operative("KAS-10").wounds == 4


def test_parry_hook_normal_parry_discards_a_crit() -> None:
    """Parry Hook*: the Champion's one normal hit may parry the Trooper's critical hit
    (normally only a critical parry can): after it, the Trooper has nothing left and the
    Champion takes no damage."""
    s = activated({"LEG-1": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}, "LEG-1")
    s, _ = play(s, ["Fight LEG-1 tainted chainsword at KAS-10"], ["roll 5,1,1,1,1", "roll 6,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, _ = play(s, ["Decline"])
    assert "Block crit with normal" in options(s)
    s, _ = play(s, ["Block crit with normal"])
    assert s.operative("LEG-1").wounds == 13


def test_parry_hook_only_for_its_weapon() -> None:
    """Without Parry Hook* (the Butcher's axe), a normal hit cannot parry a crit."""
    s = activated({"LEG-2": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}, "LEG-2")
    s, _ = play(s, [AXE], ["roll 5,2,2,2", "roll 6,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, _ = play(s, ["Decline"])
    assert "Block crit with normal" not in options(s)


def test_vicious_reflexes_defender_resolves_first() -> None:
    """Vicious Reflexes: fought by the Trooper, the Shrivetalon (player A, the Defender)
    makes the first strike-or-parry choice instead of the Attacker (11 step 4)."""
    s = pos({"LEG-3": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}, turn="B")
    s, _ = play(s, ["Activate KAS-10 engage", "Fight KAS-10 gun butt at LEG-3"])
    s, _ = play(s, [], ["roll 5,1,1", "roll 5,1,1,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, _ = play(s, ["Decline"])
    assert s.node.player == "A"  # type: ignore[union-attr]


def test_soul_feast_regains_two_wounds_after_a_critical_strike() -> None:
    """Soul Feast: the Chosen (13 wounds, 4 lost) strikes with a crit and survives the
    fight: it regains 2 lost wounds at the end of the Resolve step (9 + 2 = 11)."""
    s = activated(
        {"LEG-1": {"at": (14, 14), "wounds": 9}, "KAS-10": {"at": (14 + ENGAGED, 14)}},
        "LEG-1",
        LEG_CHOSEN,
    )
    s, _ = play(s, ["Fight LEG-1 daemon blade at KAS-10"], ["roll 6,1,1,1,1", "roll 1,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, _ = play(s, ["Decline"])
    s, ev = play(s, ["Strike crit"])
    assert [e["wounds"] for e in of_kind(ev, "wounds_regained")] == [2]
    assert s.operative("LEG-1").wounds == 11


def test_icon_bearer_counts_one_more_apl_for_objective_control() -> None:
    """Icon Bearer: the Icon Bearer and a Warrior (APL 3 each, +1 for the icon = 7) against
    three Kasrkin (APL 2 each = 6) within 2" of marker mid-north's centre (15, 14.5): the
    Legionaries control it; with the Champion (APL 3, no icon) instead of the Icon Bearer it
    is 6 v 6, a tie, and nobody controls it (15.1)."""
    kasrkin = {
        "KAS-8": {"at": (16.5, 13.5)},
        "KAS-9": {"at": (16.5, 15.5)},
        "KAS-10": {"at": (17.2, 14.5)},
    }
    icon = {"LEG-4": {"at": (13.5, 13.5)}, "LEG-6": {"at": (13.5, 15.5)}, **kasrkin}
    assert controller(Work(pos(icon)), "mid-north") == "A"
    champion = {"LEG-1": {"at": (13.5, 13.5)}, "LEG-6": {"at": (13.5, 15.5)}, **kasrkin}
    assert controller(Work(pos(champion)), "mid-north") == ""


def test_implemented_rules_are_listed_as_played() -> None:
    """The registry lists the rules this package plays (the others stay reported)."""
    played = {d.name for d in team_rules(LEGIONARIES) if d.implemented}
    assert {
        "Vicious Blows",
        "Daemonic Energies",
        "Parry Hook",
        "Icon Bearer",
        "Vicious Reflexes",
        "Soul Feast",
    } <= played
    assert "Favoured of the Dark Gods" not in played


def test_aggression_stimulants_rerolls_one_die_after_a_charge() -> None:
    """Aggression Stimulants: the Warrior carrying it charges and fights with its fists (no
    re-roll rule of their own): it may re-roll one attack die; the 1 re-rolled into a 6
    gives 6,4,3,2 at WS3+: one crit and two normal hits."""
    ops = {"LEG-6": {"at": (9, 14)}, "KAS-10": {"at": (15, 14)}}
    s = activated(ops, "LEG-6", equipment={"A": ["Aggression Stimulants (LEG-6)"]})
    charge = next(a for a in s.legal_actions() if a.verb == "Charge")
    s, _ = s.apply(charge)
    s, _ = play(s, ["Fight LEG-6 fists at KAS-10"], ["roll 4,3,2,1", "roll 1,1,1"])
    assert "Use aggression stimulants 1" in options(s)
    s, ev = play(s, ["Use aggression stimulants 1"], ["roll 6"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, more = play(s, ["Decline"])
        ev += more
    kept = [e for e in of_kind(ev, "attack_retained") if e["op"] == "LEG-6"]
    assert [(e["normals"], e["crits"]) for e in kept] == [(2, 1)]


def test_aggression_stimulants_needs_a_charge() -> None:
    """Aggression Stimulants: without a Charge in the activation, no re-roll is offered."""
    ops = {"LEG-6": {"at": (14, 14)}, "KAS-10": {"at": (14 + ENGAGED, 14)}}
    s = activated(ops, "LEG-6", equipment={"A": ["Aggression Stimulants (LEG-6)"]})
    s, _ = play(s, ["Fight LEG-6 fists at KAS-10"], ["roll 4,3,2,1", "roll 1,1,1"])
    assert not [o for o in options(s) if "aggression" in o]


def _farthest_fall_back(s: GameState, op: str, start: tuple[float, float]) -> float:
    """The farthest listed Fall Back destination of ``op`` from ``start`` (inches)."""
    points = [a.point for a in s.legal_actions() if a.verb == "Fall Back" and a.op == op]
    assert points
    return max(math.hypot(p[0] - start[0], p[1] - start[1]) for p in points if p)


def test_daemonic_aura_shortens_a_fall_back_by_four_inches() -> None:
    """Daemonic Aura: the Trooper (Move 6") starting a Fall Back within the Chosen's
    Engagement Range moves at most 6 - 4 = 2"; next to the Anointed (no aura) it may go
    farther than 2"."""
    start = (14 + ENGAGED, 14)
    near_chosen = pos({"LEG-1": {"at": (14, 14)}, "KAS-10": {"at": start}}, LEG_CHOSEN, turn="B")
    s, _ = play(near_chosen, ["Activate KAS-10 engage"])
    assert _farthest_fall_back(s, "KAS-10", start) <= 2.0 + 1e-3
    near_anointed = pos({"LEG-6": {"at": (14, 14)}, "KAS-10": {"at": start}}, LEG_CHOSEN, turn="B")
    s, _ = play(near_anointed, ["Activate KAS-10 engage"])
    assert _farthest_fall_back(s, "KAS-10", start) > 2.5


def test_tainted_rounds_adds_one_damage_to_the_bolt_weapon() -> None:
    """Tainted Rounds: the Warrior's boltgun (3/4) deals 4 with its one normal hit that is
    not saved: the Trooper goes from 8 to 4 wounds."""
    ops = {"LEG-6": {"at": (5, 14)}, "KAS-10": {"at": (16, 14)}}
    s = activated(ops, "LEG-6", equipment={"A": ["Tainted Rounds (LEG-6)"]})
    s, _ = play(s, ["Shoot LEG-6 boltgun at KAS-10"], ["roll 5,1,1,1", "roll 1,1,1"])
    assert s.operative("KAS-10").wounds == 4


def test_warded_armour_save_two_plus_from_the_first_turning_point() -> None:
    """Warded Armour: when the first turning point starts the carrier's Save 3+ becomes 2+
    (a save change of -1); no other operative's changes."""
    s = new_game(LAB, LEG, KAS, KT21)
    pick = random.Random(11)
    started = False
    while not started:
        node = s.node
        if isinstance(node, Chance):
            s, ev = s.apply(pick.choice(s.chance_outcomes())[0])
            continue
        legal = [str(a) for a in s.legal_actions()]
        if node.kind == "kt21_equipment" and node.player == "A":
            choice = "Equipment done" if s.player("A").equipment else "Equipment warded armour"
        elif node.kind == "kt21_equipment_assign" and node.player == "A":
            choice = "Equipment warded armour on leg-6"
        else:
            choice = pick.choice(legal)
        s, ev = s.apply(choice)
        started = bool(of_kind(ev, "turning_point_started"))
    w = Work(s)
    assert w.stat_change("LEG-6", "save") == -1
    assert w.stat_change("LEG-5", "save") == 0


def test_warded_armour_is_lost_when_an_attack_die_damages_the_carrier() -> None:
    """Warded Armour: the Trooper's hot-shot lasgun hits the carrier (Save 2+ while warded):
    once an attack die inflicts damage the 2+ ends for the rest of the battle."""
    ops = {"KAS-10": {"at": (16, 14)}, "LEG-6": {"at": (5, 14)}}
    warded = [{"kind": "save", "op": "LEG-6", "until": "end_battle", "value": -1,
               "detail": "kt21 warded armour"}]  # fmt: skip
    s = pos(ops, equipment={"A": ["Warded Armour (LEG-6)"]}, effects=warded, turn="B")
    s, _ = play(s, ["Activate KAS-10 engage", "Shoot KAS-10 hot-shot lasgun at LEG-6"])
    s, _ = play(s, [], ["roll 4,4,1,1"])
    while isinstance(s.node, Decision) and s.node.kind == "dice_ploy":
        s, _ = play(s, ["Decline"])  # no Elite point spent
    s, _ = play(s, [], ["roll 1,1,1"])
    assert s.operative("LEG-6").wounds == 12 - 6
    assert Work(s).stat_change("LEG-6", "save") == 0


def _attack_dice_asked(carrier_at: tuple[float, float]) -> int:
    """The attack dice the Trooper's hot-shot lasgun (A4) rolls at the Warrior (LEG-6) 2.5"
    away, with the Grisly Trophy carried by LEG-4 at ``carrier_at``."""
    ops = {"LEG-6": {"at": (14, 14)}, "LEG-4": {"at": carrier_at}, "KAS-10": {"at": (16.5, 14)}}
    s = pos(ops, equipment={"A": ["Grisly Trophy (LEG-4)"]}, turn="B")
    s, _ = play(s, ["Activate KAS-10 engage", "Shoot KAS-10 hot-shot lasgun at LEG-6"])
    assert isinstance(s.node, Chance)
    return s.node.request.dice


def test_grisly_trophy_one_attack_die_fewer_near_it() -> None:
    """Grisly Trophy: the Trooper is within 3" of the carrier, to which it is Visible: its
    hot-shot lasgun rolls 4 - 1 = 3 attack dice; with the carrier 8" away, all 4."""
    assert _attack_dice_asked((14, 15.5)) == 3
    assert _attack_dice_asked((8, 15.5)) == 4


def test_horrifying_dismemberment_takes_one_apl_from_a_nearby_enemy() -> None:
    """Horrifying Dismemberment: the Shrivetalon's critical strike (5 damage) incapacitates
    the Trooper (3 wounds left); its player then selects the Vox-Trooper 2" away, whose APL
    drops from 2 to 1 (4.2)."""
    ops = {
        "LEG-3": {"at": (14, 14)},
        "KAS-10": {"at": (14 + ENGAGED, 14), "wounds": 3},
        "KAS-9": {"at": (14, 16.5)},
    }
    s = activated(ops, "LEG-3")
    s, _ = play(s, ["Fight LEG-3 flensing blades at KAS-10"], ["roll 6,1,1,1,1", "roll 1,1,1"])
    while s.node.kind != "kt21_fight_resolve":  # type: ignore[union-attr]
        s, _ = play(s, ["Decline"])
    s, _ = play(s, ["Strike crit"])
    assert options(s) == {"Use horrifying dismemberment on KAS-9"}
    s, _ = play(s, ["Use horrifying dismemberment on KAS-9"])
    w = Work(s)
    assert w.apl(w.op("KAS-9")) == 1
