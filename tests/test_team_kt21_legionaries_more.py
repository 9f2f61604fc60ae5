"""More of the KT21 Legionaries' team rules in play (``teams/kt21_legionaries``;
``rules/KT21.md`` 6.2, 10, 11): In the Eyes of the Gods. Fixtures:
``tests/kt21_team_support`` (player A the Legionaries, player B the Kasrkin; open lane
y 13-16).
"""

from __future__ import annotations

import pytest

from engine.game import GameState, IllegalActionError
from engine.game.bookkeeping import added_ap
from engine.game.events import Event
from engine.game.markers import controller
from engine.game.weapons import find_weapon
from engine.game.work import Work
from engine.rules.kt21.attack_dice import weapon_rules21
from teams.kt21_legionaries.grisly_mark import GRISLY_MARK
from teams.kt21_legionaries.grisly_mark import KIND as GRISLY_KIND
from teams.kt21_legionaries.psychic import powers_allowed, powers_done
from tests.kt21_team_support import LEGIONARIES, activated, options, play, pos


def _champion_kills(wounds: int = 1) -> GameState:
    """The Aspiring Champion (APL 3) shoots the Trooper 5" away with its plasma pistol
    (standard: 5/6 damage, AP1): one normal hit (4,1,1,1: a 1 always fails) and both
    defence dice left after AP1 (3 - 1 = 2) fail (1,1): 5 damage."""
    ops = {"LEG-1": {"at": (5, 14)}, "KAS-10": {"at": (10, 14), "wounds": wounds}}
    s = activated(ops, "LEG-1")
    shoot = next(o for o in options(s) if o.startswith("Shoot LEG-1 plasma pistol (standard)"))
    s, _ = play(s, [shoot], ["roll 4,1,1,1", "roll 1,1"])
    return s


def test_in_the_eyes_of_the_gods_free_action_after_incapacitating() -> None:
    """In the Eyes of the Gods: the Champion's Shoot (1AP of its 3) incapacitates the
    Trooper (1 wound left): its next action in that activation is free, so a Dash leaves it
    with its 2AP; the action after that costs again (2 - 1 = 1)."""
    s = _champion_kills()
    assert not s.operative("KAS-10").alive
    assert s.operative("LEG-1").ap == 2
    s, _ = play(s, ["Dash LEG-1 to 5,16"])
    assert s.operative("LEG-1").ap == 2
    s, _ = play(s, ["Normal move LEG-1 to 7,16"])
    assert s.operative("LEG-1").ap == 1


def test_in_the_eyes_of_the_gods_needs_an_incapacitation() -> None:
    """In the Eyes of the Gods: the same shot on a Trooper with its 8 wounds leaves it 3
    (8 - 5): no enemy is incapacitated, so the Dash costs its 1AP (2 - 1 = 1)."""
    s = _champion_kills(wounds=8)
    assert s.operative("KAS-10").alive
    s, _ = play(s, ["Dash LEG-1 to 5,16"])
    assert s.operative("LEG-1").ap == 1


DEFAULT = LEGIONARIES.default()
"""The Legionaries' default roster: LEG-3 is the Heavy Gunner (heavy bolter: Heavy,
Fusillade, P1; Move 6")."""


def _gunner(equipment: list[str]) -> GameState:
    """The Heavy Gunner at (5, 14) activated, the Kasrkin Trooper at (20, 14)."""
    ops = {"LEG-3": {"at": (5, 14)}, "KAS-10": {"at": (20, 14)}}
    s = pos(ops, DEFAULT, equipment={"A": equipment} if equipment else {})
    return s.apply("Activate LEG-3 engage")[0]


def _shoots(s: GameState) -> bool:
    return any(o.startswith("Shoot LEG-3 heavy bolter") for o in options(s))


def test_suspensor_system_shoots_heavy_after_a_short_move() -> None:
    """Suspensor System: without it, a Normal Move of 2" forbids the heavy bolter (Heavy:
    no Shoot after a Normal Move); with it the Shoot is allowed after 2" (at most 3") and
    refused after 4" (moved more than 3")."""
    s, _ = play(_gunner([]), ["Normal move LEG-3 to 7,14"])
    assert not _shoots(s)
    s, _ = play(_gunner(["Suspensor System (LEG-3)"]), ["Normal move LEG-3 to 7,14"])
    assert _shoots(s)
    s, _ = play(_gunner(["Suspensor System (LEG-3)"]), ["Normal move LEG-3 to 9,14"])
    assert not _shoots(s)
    with pytest.raises(IllegalActionError, match="Suspensor System"):
        s.apply("Shoot LEG-3 heavy bolter at KAS-10")


def test_suspensor_system_moves_at_most_three_inches_after_shooting() -> None:
    """Suspensor System: after a Shoot with the heavy bolter (five misses: 1s), a Normal
    Move may go 3" (to x = 8) but not 4" (x = 9); without it Heavy forbids any Normal Move
    after the shot."""
    dice = ["roll 1,1,1,1,1"]
    s, _ = play(_gunner(["Suspensor System (LEG-3)"]), ["Shoot LEG-3 heavy bolter at KAS-10"], dice)
    assert s.apply("Normal move LEG-3 to 8,14")[0].operative("LEG-3").x == 8
    with pytest.raises(IllegalActionError, match='within 3" of movement'):
        s.apply("Normal move LEG-3 to 9,14")
    s, _ = play(_gunner([]), ["Shoot LEG-3 heavy bolter at KAS-10"], dice)
    with pytest.raises(IllegalActionError, match="Heavy"):
        s.apply("Normal move LEG-3 to 7,14")


def _siphon(attack: str) -> tuple[GameState, list[Event]]:
    """The Balefire Acolyte shoots its Life Siphon (5 attacks, BS3+, 3/3) at the Trooper
    7" away; the wounded Warrior (5 of 12 wounds) stands 1.6" from the Trooper, the wounded
    Butcher (5 wounds) 8" from it; the Trooper's three defence dice fail (1,1,1)."""
    ops = {
        "LEG-5": {"at": (5, 14)},
        "LEG-6": {"at": (14, 16), "wounds": 5},
        "LEG-2": {"at": (20, 14), "wounds": 5},
        "KAS-10": {"at": (12, 14)},
    }
    s = activated(ops, "LEG-5")
    return play(s, ["Shoot LEG-5 life siphon at KAS-10"], [attack, "roll 1,1,1"])


def test_siphon_life_force_heals_a_friend_near_the_target() -> None:
    """Siphon Life Force*: two hits retained (4,4,1,1,1): once their damage is done (the
    Trooper 8 - 6 = 2 wounds) the Acolyte's player may select a friendly Legionary within
    6" of the target that has lost wounds: the Warrior (1.6" away), not the Butcher (8"
    away). A D3 of 5 is 3: the Warrior goes from 5 to 8 wounds."""
    s, _ = _siphon("roll 4,4,1,1,1")
    assert s.operative("KAS-10").wounds == 2
    assert options(s) == {"Decline", "Use siphon life force on LEG-6"}
    s, ev = play(s, ["Use siphon life force on LEG-6"], ["roll 5"])
    assert s.operative("LEG-6").wounds == 8
    assert [e["wounds"] for e in ev if e.kind == "wounds_regained"] == [3]


def test_siphon_life_force_needs_two_retained_hits() -> None:
    """Siphon Life Force*: one hit retained (4,1,1,1,1) is fewer than two: nothing is
    offered and the Warrior keeps its 5 wounds."""
    s, _ = _siphon("roll 4,1,1,1,1")
    assert "Use siphon life force on LEG-6" not in options(s)
    assert s.operative("LEG-6").wounds == 5


def _marked() -> GameState:
    """The Shrivetalon (APL 3) at (12, 14.5) puts its Grisly Mark token on its own spot,
    2.2" from the edge of objective marker mid-north (40mm, centre (15, 14.5)); the
    Champion and the Warrior (APL 3 each) and three Kasrkin (APL 2 each) contest the marker
    (within 2" of its centre); the Kasrkin Demo-Trooper stands 1.9" from the token, the
    Recon-Trooper far away."""
    s = activated({**_CONTEST, "LEG-3": {"at": (12, 14.5)}, **_NEAR}, "LEG-3")
    s, _ = play(s, ["Act LEG-3 grisly mark at 12,14.5"])
    return s


_CONTEST: dict[str, dict[str, object]] = {
    "LEG-1": {"at": (13.5, 13.5)},
    "LEG-6": {"at": (13.5, 15.5)},
    "KAS-8": {"at": (16.5, 13.5)},
    "KAS-9": {"at": (16.5, 15.5)},
    "KAS-10": {"at": (17.2, 14.5)},
}
_NEAR: dict[str, dict[str, object]] = {
    "KAS-7": {"at": (9.5, 14.5)},
    "KAS-5": {"at": (27, 14.5)},
}


def test_grisly_mark_costs_two_ap_once_per_battle() -> None:
    """Grisly Mark: 2AP (3 - 2 = 1 left), the token in the killzone; once per battle."""
    s = _marked()
    assert s.operative("LEG-3").ap == 1
    assert [t.name for t in s.tokens if t.kind == GRISLY_KIND] == ["LEG-3 grisly mark"]
    w = Work(s)
    assert "once per battle" in str(GRISLY_MARK.more_problem(w, w.op("LEG-3"), "activation"))


def test_grisly_mark_enemy_total_apl_one_less_for_the_marker() -> None:
    """Grisly Mark: Champion and Warrior (3 + 3 = 6) against three Kasrkin (2 + 2 + 2 = 6)
    is a tie for mid-north: nobody controls it (15.1); with the token within 3" of the
    marker the Kasrkin's total counts 6 - 1 = 5: the Legionaries control it."""
    assert controller(Work(pos(_CONTEST)), "mid-north") == ""
    assert controller(Work(_marked()), "mid-north") == "A"


def test_grisly_mark_pick_up_costs_one_more_ap_near_it() -> None:
    """Grisly Mark: an enemy within 3" of the token pays 1AP more for Pick Up (and any
    mission action; the Demo-Trooper 1.9" away); the Sharpshooter 14.5" off pays nothing more,
    and a Dash costs nothing more."""
    w = Work(_marked())
    assert added_ap(w, w.op("KAS-7"), "Pick up") == 1
    assert added_ap(w, w.op("KAS-5"), "Pick up") == 0
    assert added_ap(w, w.op("KAS-7"), "Dash") == 0


def test_psychic_powers_keep_their_bs_when_the_acolyte_is_injured() -> None:
    """DC 16.33: a psychic power's weapon is not "equipped", so being injured does not
    worsen its BS: the injured Balefire Acolyte (5 of 12 wounds) still hits with a 3 at
    BS3+ with its Fireblast (three 3s and a 1: three hits; worsened to 4+ it would have
    none)."""
    ops = {"LEG-5": {"at": (5, 14), "wounds": 5}, "KAS-10": {"at": (12, 14)}}
    s = activated(ops, "LEG-5")
    s, ev = play(s, ["Shoot LEG-5 fireblast at KAS-10"], ["roll 3,3,3,1"])
    kept = next(e for e in ev if e.kind == "attack_retained")
    assert (kept["normals"], kept["crits"]) == (3, 0)


def test_manifest_psychic_power_malign_influence() -> None:
    """Manifest Psychic Power, Malign Influence: the Acolyte (1AP) selects the Warrior (a
    friendly LEGIONARY Visible to it); until the end of the turning point the Warrior's
    boltgun gains Lethal 5+ (a 5 is a critical hit), No Cover and Brutal. Then no psychic
    power's Shoot is allowed in that activation (one psychic action)."""
    ops = {"LEG-5": {"at": (5, 14)}, "LEG-6": {"at": (5, 16)}, "KAS-10": {"at": (16, 14)}}
    s = activated(ops, "LEG-5")
    assert "Act LEG-5 malign influence on LEG-6" in options(s)
    s, _ = play(s, ["Act LEG-5 malign influence on LEG-6"])
    assert s.operative("LEG-5").ap == 2
    with pytest.raises(IllegalActionError, match="already manifested"):
        s.apply("Shoot LEG-5 fireblast at KAS-10")
    w = Work(s)
    rules = weapon_rules21(
        w, w.op("LEG-6"), "boltgun", find_weapon(w, w.op("LEG-6"), "boltgun", "ranged")[2]
    )
    assert rules.value("Lethal") == 5 and rules.has("No Cover") and rules.has("Brutal")


def test_manifest_psychic_power_once_per_activation() -> None:
    """Manifest Psychic Power: after the Fireblast (the power's Shoot) Malign Influence is
    refused in the same activation; the Acolyte's own psychic weapons gain nothing from
    Malign Influence (not equipped)."""
    ops = {"LEG-5": {"at": (5, 14)}, "KAS-10": {"at": (12, 14)}}
    s = activated(ops, "LEG-5")
    s, _ = play(s, ["Shoot LEG-5 fireblast at KAS-10"], ["roll 1,1,1,1"])
    assert not [o for o in options(s) if "malign influence" in o]
    with pytest.raises(IllegalActionError, match="already manifested"):
        s.apply("Act LEG-5 malign influence on LEG-5")


def _acolyte(equipment: list[str]) -> GameState:
    """The Balefire Acolyte (APL 3) activated, the Warrior beside it, the Trooper 7" away."""
    ops = {"LEG-5": {"at": (5, 14)}, "LEG-6": {"at": (5, 16)}, "KAS-10": {"at": (12, 14)}}
    return activated(ops, "LEG-5", equipment={"A": equipment} if equipment else {})


def test_malign_scripture_two_powers_in_one_activation_once_per_battle() -> None:
    """Malign Scripture: its carrier manifests two powers in one activation: the Fireblast
    (four misses), then the Life Siphon (a second Shoot, a power's) is allowed (3 - 1 - 1 =
    1AP left); a third power is refused; once the activation ends the Scripture is used for
    the battle (one power per activation again). Without it the Life Siphon after the
    Fireblast is refused."""
    s, _ = play(
        _acolyte(["Malign Scripture (LEG-5)"]),
        ["Shoot LEG-5 fireblast at KAS-10"],
        ["roll 1,1,1,1"],
    )
    s, _ = play(s, ["Shoot LEG-5 life siphon at KAS-10"], ["roll 1,1,1,1,1"])
    assert s.operative("LEG-5").ap == 1
    with pytest.raises(IllegalActionError, match="already manifested"):
        s.apply("Act LEG-5 malign influence on LEG-6")
    s, _ = play(s, ["End activation"])
    assert powers_allowed(Work(s), "LEG-5") == 1
    s, _ = play(_acolyte([]), ["Shoot LEG-5 fireblast at KAS-10"], ["roll 1,1,1,1"])
    with pytest.raises(IllegalActionError):
        s.apply("Shoot LEG-5 life siphon at KAS-10")


def test_malign_scripture_malign_influence_twice() -> None:
    """Malign Scripture: Malign Influence twice in the activation (on the Warrior, then on
    the Acolyte itself), each a Manifest Psychic Power action (1AP each)."""
    s, _ = play(
        _acolyte(["Malign Scripture (LEG-5)"]),
        ["Act LEG-5 malign influence on LEG-6", "Act LEG-5 malign influence on LEG-5"],
    )
    assert s.operative("LEG-5").ap == 1
    assert powers_done(Work(s), "LEG-5") == 2
