"""More of the KT21 Kasrkin's team rules in play (``teams/kt21_kasrkin``; ``rules/KT21.md``
10, 12): Blast Padding. Fixtures: ``tests/kt21_team_support`` (player A the Legionaries,
player B the Kasrkin; open lane y 13-16).
"""

from __future__ import annotations

import pytest

from engine.game import IllegalActionError
from tests.kt21_team_support import activated, of_kind, options, play


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
