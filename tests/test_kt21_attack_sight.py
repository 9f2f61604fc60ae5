"""The KT21 Shoot reads the KT21 sight (``rules/KT21.md`` 8.1-8.5, 10.2; decision 4): its
valid targets are exactly :func:`engine.rules.kt21.sight.kt21_valid_targets`', and the Cover
the KT21 geometry gives (another operative's base, which KT24 never counts) decides both the
Conceal test and the cover save. Fixtures and lanes: ``tests/kt21_attack_support`` (shooter
RED-3 at (5, y); y = 14 open, y = 4 Light rubble in front of a target at x 16, y = 10 a Heavy
block midway; 32 mm bases, 1.26" across)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine.game import GameState
from engine.game.weapons import find_weapon
from engine.game.work import Work
from engine.rules.kt21.sight import kt21_valid_targets
from tests.kt21_attack_support import CLOSE, activated, of_kind, play

OPEN = (16, 14)

POSITIONS: dict[str, dict[str, dict[str, Any]]] = {
    "in Cover and Obscured (Engage)": {
        "RED-3": {"at": (5, 4)},
        "BLU-1": {"at": OPEN},
        "BLU-2": {"at": (16, 4)},
    },
    "Conceal in the open and in Cover": {
        "RED-3": {"at": (5, 4)},
        "BLU-1": {"at": (16, 4), "order": "conceal"},
        "BLU-2": {"at": (9, 1), "order": "conceal"},
    },
    "a friendly within a target's Engagement Range": {
        "RED-3": {"at": (5, 14)},
        "RED-1": {"at": (16 - CLOSE, 14)},
        "BLU-1": {"at": OPEN},
        "BLU-2": {"at": (20, 14)},
    },
    "Conceal behind another operative's base": {
        "RED-3": {"at": (5, 14)},
        "BLU-1": {"at": OPEN, "order": "conceal"},
        "BLU-2": {"at": (16 - CLOSE, 14)},
    },
    'near and far (Rng 6")': {
        "RED-3": {"at": (5, 14)},
        "BLU-1": {"at": (10, 14)},
        "BLU-2": {"at": (14, 15.5)},
    },
}


def _shoot_targets(s: GameState, weapon: str) -> set[str]:
    return {a.target for a in s.legal_actions() if a.verb == "Shoot" and a.weapon == weapon}


def _sight_targets(s: GameState, weapon: str) -> set[str]:
    w = Work(s)
    _, _, prof = find_weapon(w, w.op("RED-3"), weapon, "ranged")
    return {v.target for v in kt21_valid_targets(w, "RED-3", prof)}


@pytest.mark.parametrize("name", sorted(POSITIONS))
@pytest.mark.parametrize("weapon", ["gun", "short gun"])
def test_8_5_shoot_targets_are_the_kt21_valid_targets(name: str, weapon: str) -> None:
    """8.5: a valid target is an enemy in Line of Sight (Visible, not Obscured; Conceal: also
    not in Cover) with no friendly of the shooter within its Engagement Range, within Rng
    when the weapon has one. The Shoot lists exactly the targets the KT21 sight module
    names, for the plain Gun and the Rng 6" Short Gun, on positions that exercise each
    clause."""
    s = activated(POSITIONS[name])
    assert _shoot_targets(s, weapon) == _sight_targets(s, weapon)


def test_8_5_each_clause_of_the_valid_target_test() -> None:
    """The expected sets, from the rules rather than the code. From (5, 4): BLU-2 behind the
    Light rubble is in Cover but valid with an Engage order; BLU-1 at (16, 14) is seen
    across the Heavy block (x 10-11, y 8-12), more than 2" from it: Obscured (8.3). With
    Conceal orders the one behind the rubble is not in Line of Sight, the one in the open
    (9, 1) is (8.5). A friendly of the shooter 0.5" from BLU-1 makes BLU-1 invalid, not
    BLU-2 4" further on (8.5). The Short Gun (Rng 6") reaches BLU-1 4.74" away (between the
    bases), not BLU-2 7.86" away (12 Rng)."""
    expected: Mapping[str, tuple[set[str], set[str]]] = {
        "in Cover and Obscured (Engage)": ({"BLU-2"}, set()),
        "Conceal in the open and in Cover": ({"BLU-2"}, {"BLU-2"}),
        "a friendly within a target's Engagement Range": ({"BLU-2"}, set()),
        'near and far (Rng 6")': ({"BLU-1", "BLU-2"}, {"BLU-1"}),
    }
    for name, (gun, short) in expected.items():
        s = activated(POSITIONS[name])
        assert _shoot_targets(s, "gun") == gun, name
        if short:
            assert _shoot_targets(s, "short gun") == short, name


def test_8_4_another_operatives_base_hides_a_conceal_target() -> None:
    """8.4: an operative's base crossed by the Cover lines within 1" of the target puts it in
    Cover (the bases more than 2" apart). BLU-2 stands 0.5" in front of the Conceal BLU-1 in
    the open lane: BLU-1 is in Cover, so not in Line of Sight (8.5); BLU-2 itself is a valid
    target. (KT24 gives no cover from operatives: the KT24 sight would list BLU-1.)"""
    s = activated(POSITIONS["Conceal behind another operative's base"])
    assert _shoot_targets(s, "gun") == {"BLU-2"}


def test_10_2_cover_from_another_operative_gives_the_cover_save() -> None:
    """10.2 with 8.4: the Engage BLU-1 is in Cover from BLU-2's base in front of it, so one
    defence die is retained as a normal save unrolled. Attack 5,5,1,1 at BS 3+: two normal
    hits; DF 3 less the cover die leaves two dice, rolled 1,1 (both fail): the cover save
    blocks one hit, 3 damage of 10 leaves 7 wounds."""
    ops = {**POSITIONS["Conceal behind another operative's base"], "BLU-1": {"at": OPEN}}
    s, ev = play(activated(ops), ["Shoot RED-3 gun at BLU-1"], ["roll 5,5,1,1", "roll 1,1"])
    (saves,) = of_kind(ev, "saves_retained")
    assert (saves["cover"], saves["normals"]) == (1, 1)
    assert s.operative("BLU-1").wounds == 7
