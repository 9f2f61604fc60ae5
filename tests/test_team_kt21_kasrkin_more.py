"""More of the KT21 Kasrkin's team rules in play (``teams/kt21_kasrkin``; ``rules/KT21.md``
10, 12): Blast Padding. Fixtures: ``tests/kt21_team_support`` (player A the Legionaries,
player B the Kasrkin; open lane y 13-16).
"""

from __future__ import annotations

import random

import pytest

from engine.game import GameState, IllegalActionError
from engine.game.actions import parse_action
from engine.game.events import Event
from engine.game.state import Chance, Decision, Effect
from engine.game.work import Work
from engine.rulesets import new_game
from teams.kt21_kasrkin.adrenaline import AdrenalineShot
from teams.kt21_kasrkin.grenades import STUN_GRENADE
from teams.kt21_kasrkin.melta_mine import KIND as MELTA_KIND
from teams.kt21_kasrkin.melta_mine import PLANT_MELTA_MINE
from teams.kt21_kasrkin.reconnoitre import RECONNOITRE
from tests.kt21_team_support import KAS, KT21, LEG, activated, of_kind, options, play, pos
from tests.test_game_rules_common import LAB


def test_blast_padding_rerolls_defence_dice_against_a_blast_weapon() -> None:
    """Blast Padding: the Balefire Acolyte's fireblast (Blast 2", BS3+) hits the Demo-Trooper
    twice (4,4,1,1). Its three defence dice show 3,2,1 (Save 4+: none saves); the rule lets
    its player re-roll any or all of them, here all three: 5,5,1 now saves two, so both
    normal hits (3 damage each) are blocked and it keeps its 9 wounds."""
    s = activated({"LEG-5": {"at": (5, 14)}, "KAS-7": {"at": (12, 14)}}, "LEG-5")
    s, _ = play(s, ["Shoot LEG-5 fireblast at KAS-7"], ["roll 4,4,1,1", "roll 3,2,1"])
    assert {"Use blast padding 3 2 1", "Use blast padding 3", "Use blast padding 1"} <= options(s)
    s, ev = play(s, ["Use blast padding 3 2 1"], ["roll 5,5,1"])
    assert [(e["normals"], e["crits"]) for e in of_kind(ev, "saves_retained")] == [(2, 0)]
    assert s.operative("KAS-7").wounds == 9


def test_blast_padding_only_against_blast_and_once_per_roll() -> None:
    """Blast Padding: the Warrior's boltgun has no Blast: no re-roll is offered; after one
    re-roll against the fireblast, no second one is (once per defence roll), and asking for
    one is refused naming the rule."""
    s = activated({"LEG-6": {"at": (5, 14)}, "KAS-7": {"at": (12, 14)}}, "LEG-6")
    s, _ = play(s, ["Shoot LEG-6 boltgun at KAS-7"], ["roll 4,4,1,1"])
    assert not [o for o in options(s) if "blast padding" in o]
    s = activated({"LEG-5": {"at": (5, 14)}, "KAS-7": {"at": (12, 14)}}, "LEG-5", cp=(0, 1))
    s, _ = play(s, ["Shoot LEG-5 fireblast at KAS-7"], ["roll 4,4,1,1", "roll 3,2,1"])
    s, _ = play(s, ["Use blast padding 1"], ["roll 2"])
    assert not [o for o in options(s) if "blast padding" in o]
    with pytest.raises(IllegalActionError, match="Blast Padding"):
        s.apply("Use blast padding 3")


def test_blast_padding_ignores_splash_from_an_attack_on_another_operative() -> None:
    """Blast Padding: the fireblast (Splash 1) retains one critical hit on the Trooper: 1
    mortal wound to it and to every operative Visible to and within 2" of it (12 Splash),
    so the Vox-Trooper loses 1 wound (8 -> 7) while the Demo-Trooper, not the target of that
    attack, loses none (9). Their own Blast attacks then roll no hits (all 1s)."""
    ops = {
        "LEG-5": {"at": (5, 14)},
        "KAS-10": {"at": (12, 14)},
        "KAS-7": {"at": (12, 15.5)},
        "KAS-9": {"at": (12, 12.5)},
    }
    s = activated(ops, "LEG-5")
    dice = ["roll 6,1,1,1", "roll 6,6,6", "roll 1,1,1,1", "roll 1,1,1,1"]
    s, ev = play(s, ["Shoot LEG-5 fireblast at KAS-10"], dice)
    splash = {
        e["op"]: e["damage"] for e in of_kind(ev, "damage_inflicted") if "Splash" in e["source"]
    }
    assert splash == {"KAS-10": 1, "KAS-9": 1}
    assert s.operative("KAS-7").wounds == 9
    assert s.operative("KAS-9").wounds == 7


def _medic_shot(
    wounds: int, medic_at: tuple[float, float] = (12, 16.5), **more: dict[str, object]
) -> GameState:
    """The Warrior's boltgun (BS3+, 3/4 damage) hits the Trooper twice (4,4,1,1) and its
    three defence dice fail (1,1,1): 6 damage on ``wounds``; the Combat Medic stands at
    ``medic_at`` (the Trooper at (12, 14))."""
    ops = {"LEG-6": {"at": (5, 14)}, "KAS-10": {"at": (12, 14), "wounds": wounds}}
    ops["KAS-6"] = {"at": medic_at}
    ops.update({k.replace("_", "-"): v for k, v in more.items()})
    s = activated(ops, "LEG-6")
    s, _ = play(s, ["Shoot LEG-6 boltgun at KAS-10"], ["roll 4,4,1,1", "roll 1,1,1"])
    return s


def test_medic_keeps_the_operative_with_one_wound() -> None:
    """Medic!: 6 damage would incapacitate the Trooper (3 wounds); the Combat Medic, 2.5"
    away (bases 1.4" apart, within 3") and Visible, saves it: 1 wound left, both get APL -1
    (2 -> 1, 4.2), and after the Shoot the Trooper may Dash, ending within 1" of the medic
    (a spot 2.5" from it is refused, one touching it is legal)."""
    s = _medic_shot(3)
    assert options(s) == {"Use medic!", "Decline"}
    s, ev = play(s, ["Use medic!"])
    assert of_kind(ev, "medic_used")[0]["medic"] == "KAS-6"
    assert s.operative("KAS-10").wounds == 1 and s.operative("KAS-10").alive
    w = Work(s)
    assert (w.apl(w.op("KAS-10")), w.apl(w.op("KAS-6"))) == (1, 1)
    with pytest.raises(IllegalActionError, match="Medic!"):
        s.apply("Dash KAS-10 to 12,12.5")
    s, _ = play(s, ["Dash KAS-10 to 12,15.2"])
    assert s.operative("KAS-10").y == pytest.approx(15.2)


def test_medic_declined_or_out_of_reach_incapacitates() -> None:
    """Medic!: declined, the Trooper is incapacitated by the damage (3 - 6 < 1); with the
    medic 5" away (more than 3") nothing is offered and it is incapacitated at once."""
    s, _ = play(_medic_shot(3), ["Decline"])
    assert not s.operative("KAS-10").alive
    s = _medic_shot(3, medic_at=(12, 19))
    assert not s.operative("KAS-10").alive


def test_medic_discards_the_rest_of_the_shooting_attack() -> None:
    """Medic!: the fireblast's critical hit (6,4,1,1) inflicts Splash 1 on the Trooper (1
    wound left) before any save is rolled; saved, the rest of that attack is discarded: no
    defence dice are rolled for it (its normal hit never resolves) and it keeps 1 wound.
    The medic 3.5" away (bases 2.4" apart) is outside the Blast and Splash's 2"."""
    ops = {"LEG-5": {"at": (5, 14)}, "KAS-10": {"at": (12, 14), "wounds": 1}}
    ops["KAS-6"] = {"at": (15.5, 14)}
    s = activated(ops, "LEG-5")
    s, _ = play(s, ["Shoot LEG-5 fireblast at KAS-10"], ["roll 6,4,1,1"])
    s, ev = play(s, ["Use medic!"])
    assert not of_kind(ev, "saves_retained")
    assert s.operative("KAS-10").wounds == 1


def test_combat_stimms_not_on_an_operative_medic_saved() -> None:
    """Combat Stimms cannot select an operative Medic! revived this turning point: after the
    save, the Combat Medic's Combat Stimms offers the Trooper (1 wound) no more, while the
    wounded Vox-Trooper beside it is offered."""
    s = _medic_shot(3, KAS_9={"at": (13.2, 16.5), "wounds": 3})
    s, _ = play(s, ["Use medic!", "Dash KAS-10 to 12,15.2"])
    s, _ = play(s, ["End activation"]) if "End activation" in options(s) else (s, [])
    s, _ = play(s, ["Activate KAS-6 engage"])
    stimms = {o for o in options(s) if o.startswith("Act KAS-6 combat stimms")}
    assert stimms == {"Act KAS-6 combat stimms on KAS-9"}


def _to_scouting(seed: int = 3) -> GameState:
    """A real KT21 battle (Critical Operations 2022) of the Kasrkin (A) and the Legionaries
    (B), its set-up played at random up to the scouting step."""
    s = new_game(LAB, KAS, LEG, KT21)
    pick = random.Random(seed)
    for _ in range(2000):
        if isinstance(s.node, Decision) and s.node.kind == "scouting":
            return s
        if isinstance(s.node, Chance):
            s, _ = s.apply(pick.choice(s.chance_outcomes())[0])
        else:
            s, _ = s.apply(pick.choice(s.legal_actions()))
    raise AssertionError("no scouting step reached")


def _scout(s: GameState, picks: dict[str, str]) -> tuple[GameState, list[Event]]:
    """Both players pick their scouting option (the Attacker first, as asked); a Fortify
    barricade is set up at the first spot listed."""
    events: list[Event] = []
    while isinstance(s.node, Decision) and s.node.kind in ("scouting", "equipment_setup"):
        if s.node.kind == "scouting":
            s, ev = s.apply(f"Op scouting {picks[s.node.player]}")
        else:
            s, ev = s.apply(s.legal_actions()[0])
        events += ev
    return s, events


def test_reconnoitre_killzone_resolves_an_additional_recon() -> None:
    """Reconnoitre Killzone: the Kasrkin picked Infiltrate and the Legionaries Fortify: once
    the barricade is set up and the first initiative is decided by the options selected
    (Fortify beats Infiltrate: the Legionaries), the Kasrkin resolve one more Recon: one of
    their operatives wholly within their drop zone may make a free Dash."""
    s, ev = _scout(_to_scouting(), {"A": "infiltrate", "B": "fortify"})
    assert [e["player"] for e in of_kind(ev, "rule_used") if e["rule"] == RECONNOITRE] == ["A"]
    assert s.initiative == "B"
    assert s.node == Decision("A", "recon")
    assert "Pass" in options(s) and any(o.startswith("Act KAS-") for o in options(s))


def test_reconnoitre_killzone_only_for_the_team_with_it() -> None:
    """Reconnoitre Killzone: the Legionaries have no such rule; the Kasrkin's own Recon
    (selected) is followed by the additional one: two Recon decisions for A, none for B."""
    s, _ = _scout(_to_scouting(), {"A": "recon", "B": "fortify"})
    assert s.node == Decision("A", "recon")
    s, _ = s.apply("Pass")
    assert s.node == Decision("A", "recon")
    s, _ = s.apply("Pass")
    assert not (isinstance(s.node, Decision) and s.node.kind == "recon")


def _thrower(item: str, **more: dict[str, object]) -> GameState:
    """The Kasrkin (A) Trooper at (5, 14) carrying ``item``, activated; the Legionary
    Warrior (10, 14) and Icon Bearer (10, 15.5) together, the Champion at (15.5, 14)."""
    ops: dict[str, dict[str, object]] = {
        "KAS-10": {"at": (5, 14)},
        "LEG-6": {"at": (10, 14)},
        "LEG-4": {"at": (10, 15.5)},
        "LEG-1": {"at": (15.5, 14)},
    }
    ops.update({k.replace("_", "-"): v for k, v in more.items()})
    s = pos(ops, KAS, LEG, equipment={"A": [f"{item} (KAS-10)"]})
    return s.apply("Activate KAS-10 engage")[0]


def test_stun_grenade_apl_minus_one_on_four_plus() -> None:
    """Stun Grenade: thrown at the point under the Warrior (5" away, within 6"), one D6 for
    each operative within 4" of it: the Icon Bearer and the Warrior (roster order; the
    Champion 5.5" away, 4.9" from its base, rolls none). 4 stuns the Icon Bearer (APL 3 ->
    2), 3 leaves the Warrior; once per battle, so its carrier cannot throw it again."""
    s = _thrower("Stun Grenade")
    assert "Act KAS-10 stun grenade at 10,14" in options(s)
    s, ev = play(s, ["Act KAS-10 stun grenade at 10,14"], ["roll 4,3"])
    tests = {e["op"]: e["stunned"] for e in of_kind(ev, "stun_test")}
    assert tests == {"LEG-4": True, "LEG-6": False}
    w = Work(s)
    assert (w.apl(w.op("LEG-4")), w.apl(w.op("LEG-6"))) == (2, 3)
    assert "once per battle" in str(STUN_GRENADE.why_not(w, w.op("KAS-10")))


def test_stun_grenade_point_within_six_inches() -> None:
    """Stun Grenade: a point 8" from the thrower (7.4" from its base) is refused."""
    s = _thrower("Stun Grenade")
    with pytest.raises(IllegalActionError, match='more than 6"'):
        s.apply("Act KAS-10 stun grenade at 13,14")


def test_decoy_grenade_forbids_overwatch_this_turning_point() -> None:
    """Decoy Grenade: the Warrior's test (5, 4+) succeeds, the Icon Bearer's (3) fails:
    the Warrior may not Overwatch (nor Guard) until the end of the turning point, the Icon
    Bearer still may."""
    s = _thrower("Decoy Grenade")
    s, ev = play(s, ["Act KAS-10 decoy grenade at 10,14"], ["roll 3,5"])
    assert [e["on"] for e in of_kind(ev, "team_rule_used")] == ["LEG-6"]
    w = Work(s)
    assert "decoy" in str(w.would("would_refuse_action", None, op="LEG-6", action="Overwatch"))
    assert w.would("would_refuse_action", None, op="LEG-4", action="Overwatch") is None


def _adrenaline(**kw: object) -> GameState:
    """The Trooper (APL 2, Move 6", 8 wounds) carrying an Adrenaline Shot, activated."""
    ops = {"KAS-10": {"at": (5, 14), **kw}, "LEG-6": {"at": (20, 14)}}
    stunned = [{"kind": "apl", "op": "KAS-10", "value": -1, "until": "end_next_activation"}]
    s = pos(ops, KAS, LEG, equipment={"A": ["Adrenaline Shot (KAS-10)"]}, effects=stunned)
    return s.apply("Activate KAS-10 engage")[0]


def test_adrenaline_shot_ignores_apl_and_move_modifiers() -> None:
    """Adrenaline Shot: the Trooper, stunned (APL -1: 2 - 1 = 1AP when activated) and
    injured (3 of 8 wounds: Move 6 - 2 = 4"), uses it as it is activated: its APL modifier
    is ignored (2AP) and its Move is 6" again, for that activation."""
    s = _adrenaline(wounds=3)
    assert s.operative("KAS-10").ap == 1
    assert Work(s).move_stat(s.operative("KAS-10")) == 4.0
    assert "Use adrenaline shot" in options(s)
    s, _ = play(s, ["Use adrenaline shot"])
    w = Work(s)
    assert s.operative("KAS-10").ap == 2
    assert w.move_stat(w.op("KAS-10")) == 6.0


def test_adrenaline_shot_only_with_a_modifier_and_once_per_battle() -> None:
    """Adrenaline Shot: not offered with no modifier to ignore (a healthy Trooper with no
    APL or Move change); once used, never again in the battle: after that activation, with
    a new APL -1 on the Trooper, the rule has no option for it (a fresh one would)."""
    ops = {"KAS-10": {"at": (5, 14)}, "LEG-6": {"at": (20, 14)}}
    s = pos(ops, KAS, LEG, equipment={"A": ["Adrenaline Shot (KAS-10)"]})
    s, _ = play(s, ["Activate KAS-10 engage"])
    assert not [o for o in options(s) if "adrenaline" in o]
    rule = AdrenalineShot(("A",))
    s, _ = play(_adrenaline(), ["Use adrenaline shot", "End activation"])
    w = Work(s)
    w.effects.append(Effect("apl", "KAS-10", "end_next_activation", value=-1))
    assert rule.options(w, "A", {"op": "KAS-10"}) == []
    fresh = Work(_adrenaline())
    assert rule.options(fresh, "A", {"op": "KAS-10"}) == [parse_action("Use adrenaline shot")]


def _planted() -> GameState:
    """The Demo-Trooper (A, at (5, 14)) plants its Melta Mine token just east of its base
    (6.05, 14); the Legionary Warrior waits at (13, 14)."""
    ops = {"KAS-7": {"at": (5, 14)}, "LEG-6": {"at": (13, 14)}}
    s = pos(ops, KAS, LEG).apply("Activate KAS-7 engage")[0]
    assert "Act KAS-7 plant melta mine at 6.051,14" in options(s)
    s, _ = play(s, ["Act KAS-7 plant melta mine at 6.05,14"])
    return s


def test_plant_melta_mine_puts_the_token_once() -> None:
    """Plant Melta Mine: the token is put 0.5" from the Demo-Trooper's base (within 1"),
    more than 2" from the Warrior; a point 3" away is refused (more than 1"), and the action
    is once per battle."""
    s = _planted()
    assert [t.name for t in s.tokens if t.kind == MELTA_KIND] == ["KAS-7 melta mine"]
    w = Work(s)
    assert "once per battle" in str(PLANT_MELTA_MINE.more_problem(w, w.op("KAS-7"), "activation"))
    ops = {"KAS-7": {"at": (5, 14)}, "LEG-6": {"at": (15, 14)}}
    s = pos(ops, KAS, LEG).apply("Activate KAS-7 engage")[0]
    with pytest.raises(IllegalActionError, match='within 1"'):
        s.apply("Act KAS-7 plant melta mine at 8,14")


def test_plant_melta_mine_not_within_two_inches_of_an_enemy() -> None:
    """Plant Melta Mine: with the Warrior at (8, 14) its base is 1.3" from the point east of
    the Demo-Trooper (2" or less): refused."""
    ops = {"KAS-7": {"at": (5, 14)}, "LEG-6": {"at": (8, 14)}}
    s = pos(ops, KAS, LEG).apply("Activate KAS-7 engage")[0]
    with pytest.raises(IllegalActionError, match='more than 2"'):
        s.apply("Act KAS-7 plant melta mine at 6.05,14")


def test_proximity_attacks_every_operative_near_the_token() -> None:
    """Proximity*: the Warrior's Normal Move ends 1.3" from the token (within 2"): the melta
    mine (4 attacks, BS2+, 4/2, AP2, MW3) attacks each operative within 2" of it, in roster
    order: the Demo-Trooper itself (0.5" away; all misses) then the Warrior (two hits of 4
    damage; AP2 leaves it 3 - 2 = 1 defence die, a 1: 12 - 8 = 4 wounds). No attacker
    injury or cover counts; then the token is removed."""
    s, _ = play(_planted(), ["End activation"])
    s, ev = play(s, ["Activate LEG-6 engage", "Normal move LEG-6 to 8,14"])
    assert [e["rule"] for e in of_kind(ev, "rule_used")] == ["Proximity (melta mine)"]
    dice = ["roll 1,1,1,1", "roll 3,3,1,1", "roll 1"]
    s, ev = play(s, ["Decline", "Decline"], dice)  # no Elite point spent
    assert [e["target"] for e in of_kind(ev, "attack_retained")] == ["KAS-7", "LEG-6"]
    assert s.operative("LEG-6").wounds == 4
    assert not [t for t in s.tokens if t.kind == MELTA_KIND]


def test_blast_padding_rerolls_against_the_melta_mine() -> None:
    """Blast Padding also covers a weapon attacking each operative within range of a point
    (the catalogue's own example: the melta mine): the Demo-Trooper hit by its own mine
    (3,1,1,1 at BS2+: one hit) rolls its one defence die left after AP2 (3 - 2), a 2, and
    may re-roll it."""
    s, _ = play(_planted(), ["End activation"])
    s, _ = play(s, ["Activate LEG-6 engage", "Normal move LEG-6 to 8,14"])
    s, _ = play(s, ["Decline"], ["roll 3,1,1,1", "roll 2"])
    assert "Use blast padding 2" in options(s)


def test_plant_melta_mine_refused_within_engagement_range_in_kt21_words() -> None:
    """A unique action is not performed within Engagement Range of an enemy (rules/KT21.md
    6.2, 7.2; KT24's control range, 3): with the Warrior 1.7" from the Demo-Trooper (28mm and
    32mm bases about 0.6" apart, Visible) Plant Melta Mine is not offered, and its refusal
    says "Engagement Range", the KT21 term, never KT24's "control range"."""
    ops = {"KAS-7": {"at": (5, 14)}, "LEG-6": {"at": (6.7, 14)}}
    s = pos(ops, KAS, LEG).apply("Activate KAS-7 engage")[0]
    assert not [a for a in options(s) if "plant melta mine" in a]
    with pytest.raises(IllegalActionError) as exc:
        s.apply("Act KAS-7 plant melta mine at 4,14")
    assert "KAS-7 is within Engagement Range of an enemy operative (Plant Melta Mine)" in str(
        exc.value
    )
