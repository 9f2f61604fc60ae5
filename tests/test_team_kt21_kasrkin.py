"""The KT21 Kasrkin's team rules in play (``teams/kt21_kasrkin``; ``rules/KT21.md`` 4.1, 4.2,
10, 12), one test per rule. Fixtures: ``tests/kt21_team_support`` (here player A the
Kasrkin, player B the Legionaries; open lane y 13-16, Light rubble in front of (16, 4)).
"""

from __future__ import annotations

import random

import pytest

from engine.game import GameState, IllegalActionError
from engine.game.actions import parse_action
from engine.game.flow import advance
from engine.game.state import Chance
from engine.game.work import Work
from engine.rules.kt21.attack_actions import OVERWATCH
from engine.rules.registry import team_rules
from engine.rulesets import new_game
from teams.kt21_kasrkin.elite import elite_points
from tests.kt21_team_support import KAS, KASRKIN, KT21, LEG, of_kind, options, play, pos
from tests.test_game_rules_common import LAB


def _pos(ops: dict[str, dict[str, object]], **kw: object) -> GameState:
    return pos(ops, KAS, LEG, **kw)


def _active(ops: dict[str, dict[str, object]], op: str, **kw: object) -> GameState:
    return _pos(ops, **kw).apply(f"Activate {op} engage")[0]


def test_elite_spends_points_to_raise_one_attack_die() -> None:
    """Elite: the Recon-Trooper (hot-shot lasgun A4 BS4+) rolls 5,3,2,1; spending 1 point
    turns the 5 into a 6, a critical hit (4.3: the adjusted result counts), so it retains
    no normal hit and one crit; the pool goes from 10 to 9."""
    s = _active({"KAS-8": {"at": (5, 14)}, "LEG-6": {"at": (16, 14)}}, "KAS-8")
    s, _ = play(s, ["Shoot KAS-8 hot-shot lasgun at LEG-6"], ["roll 5,3,2,1"])
    assert {"Use elite 5 to 6", "Use elite 3 to 4", "Use elite 1 to 6"} <= options(s)
    s, ev = play(s, ["Use elite 5 to 6"], ["roll 1,1,1"])
    kept = of_kind(ev, "attack_retained")[0]
    assert (kept["normals"], kept["crits"]) == (0, 1)
    assert elite_points(Work(s), "A") == 9


def test_elite_adjusts_only_one_die_per_attack_roll() -> None:
    """Elite: "one (and only one) of your dice": after one adjustment no Elite option is
    left in that attack roll (the window stays open for the Command Re-roll 1CP pays for)
    and one asked for is refused naming the rule."""
    s = _active({"KAS-8": {"at": (5, 14)}, "LEG-6": {"at": (16, 14)}}, "KAS-8", cp=(1, 0))
    s, _ = play(s, ["Shoot KAS-8 hot-shot lasgun at LEG-6"], ["roll 5,3,2,1"])
    s, _ = play(s, ["Use elite 3 to 4"])
    assert not [o for o in options(s) if o.startswith("Use elite")]
    with pytest.raises(IllegalActionError, match="one \\(and only one\\)"):
        s.apply("Use elite 2 to 4")


def test_elite_trooper_one_point_is_free_in_its_shooting_attacks() -> None:
    """Elite Trooper: raising a 3 to a 5 costs 2 points, one of them free for the Trooper's
    shooting attack: the pool goes from 10 to 9."""
    s = _active({"KAS-10": {"at": (5, 14)}, "LEG-6": {"at": (16, 14)}}, "KAS-10")
    s, _ = play(s, ["Shoot KAS-10 hot-shot lasgun at LEG-6"], ["roll 3,1,1,1"])
    s, _ = play(s, ["Use elite 3 to 5"], ["roll 1,1,1"])
    assert elite_points(Work(s), "A") == 9


def test_leadership_adds_two_points_in_each_strategy_phase() -> None:
    """Leadership: with the Sergeant in the killzone the pool gains 2 in the first Strategy
    phase: 10 + 2 = 12 when the first turning point has started (nothing can be spent
    before it: no attack happens in the set-up)."""
    s = new_game(LAB, KAS, LEG, KT21)
    pick = random.Random(7)
    started = False
    while not started:
        if isinstance(s.node, Chance):
            s, ev = s.apply(pick.choice(s.chance_outcomes())[0])
        else:
            s, ev = s.apply(pick.choice(s.legal_actions()))
        started = bool(of_kind(ev, "turning_point_started"))
    assert elite_points(Work(s), "A") == 12
    assert elite_points(Work(s), "B") == 10  # untouched: the Legionaries have no Elite


def test_proximity_the_melta_mine_cannot_shoot() -> None:
    """Proximity*: the melta mine attacks only through its Melta Mine token, which is never
    in the killzone (Plant Melta Mine is not played): no Shoot with it is listed and one
    asked for is refused naming the rule, while the laspistol (Rng 6") can shoot the same
    target 5" away."""
    s = _active({"KAS-7": {"at": (10, 14)}, "LEG-6": {"at": (15, 14)}}, "KAS-7")
    shots = {o for o in options(s) if o.startswith("Shoot")}
    assert "Shoot KAS-7 hot-shot laspistol at LEG-6" in shots
    assert not [o for o in shots if "melta mine" in o]
    with pytest.raises(IllegalActionError, match="Proximity"):
        s.apply("Shoot KAS-7 melta mine at LEG-6")


def test_battle_comms_adds_one_apl_twice_per_activation() -> None:
    """Battle Comms: the Vox-Trooper gives another Kasrkin APL +1 (2 -> 3, 4.2), and may do
    it twice in its activation (APL 2 = 2AP: one each)."""
    ops = {"KAS-9": {"at": (5, 14)}, "KAS-10": {"at": (5, 16)}, "KAS-8": {"at": (5, 12)}}
    s = _active(ops, "KAS-9")
    s, _ = play(s, ["Act KAS-9 battle comms on KAS-10"])
    w = Work(s)
    assert w.apl(w.op("KAS-10")) == 3
    assert "Act KAS-9 battle comms on KAS-8" in options(s)


def test_combat_stimms_regains_2d3_wounds() -> None:
    """Combat Stimms: the Trooper (8 wounds, 3 left) within 1" of the Combat Medic regains
    2D3: dice 3 and 1 give 2 + 1 = 3 wounds, so 6."""
    s = _active({"KAS-6": {"at": (5, 14)}, "KAS-10": {"at": (5, 15.5), "wounds": 3}}, "KAS-6")
    s, _ = play(s, ["Act KAS-6 combat stimms on KAS-10"], ["roll 3,1"])
    assert s.operative("KAS-10").wounds == 6


def test_camo_cloak_retains_two_cover_saves() -> None:
    """Camo Cloak: the Sharpshooter in Cover behind the rubble retains two defence dice as
    cover saves (one for any other operative, 10.2), so only one of its three is rolled."""
    ops = {"LEG-6": {"at": (5, 4)}, "KAS-5": {"at": (16, 4), "order": "engage"}}
    s = _pos(ops, turn="B").apply("Activate LEG-6 engage")[0]
    s, ev = play(s, ["Shoot LEG-6 boltgun at KAS-5"], ["roll 5,5,1,1", "roll 1"])
    assert [e["cover"] for e in of_kind(ev, "saves_retained")] == [2]
    ops = {"LEG-6": {"at": (5, 4)}, "KAS-8": {"at": (16, 4), "order": "engage"}}
    s = _pos(ops, turn="B").apply("Activate LEG-6 engage")[0]
    s, ev = play(s, ["Shoot LEG-6 boltgun at KAS-8"], ["roll 5,5,1,1", "roll 1,1"])
    assert [e["cover"] for e in of_kind(ev, "saves_retained")] == [1]


def test_implemented_rules_are_listed_as_played() -> None:
    """The registry lists the rules this package plays (the others stay reported)."""
    played = {d.name for d in team_rules(KASRKIN) if d.implemented}
    assert {
        "Elite",
        "Leadership",
        "Elite Trooper",
        "Proximity",
        "Battle Comms",
        "Combat Stimms",
        "Camo Cloak",
    } <= played
    assert "Warden Auspex" not in played


def test_long_range_scope_no_cover_after_a_crit_beyond_six_inches() -> None:
    """Long-range Scope: the Recon-Trooper's hot-shot lasgun retains a critical hit against
    the Warrior 11" away in Cover behind the rubble: the weapon has No Cover for that
    attack, so no defence die is retained as a cover save and all three are rolled."""
    ops = {"KAS-8": {"at": (5, 4)}, "LEG-6": {"at": (16, 4), "order": "engage"}}
    s = _active(ops, "KAS-8", equipment={"A": ["Long-range Scope (KAS-8)"]})
    s, _ = play(s, ["Shoot KAS-8 hot-shot lasgun at LEG-6"], ["roll 6,1,1,1"])
    s, ev = play(s, ["Decline"], ["roll 1,1,1"])  # no Elite point spent
    assert [e["cover"] for e in of_kind(ev, "saves_retained")] == [0]


def test_long_range_scope_needs_a_crit() -> None:
    """Long-range Scope: with normal hits only the target keeps its cover save."""
    ops = {"KAS-8": {"at": (5, 4)}, "LEG-6": {"at": (16, 4), "order": "engage"}}
    s = _active(ops, "KAS-8", equipment={"A": ["Long-range Scope (KAS-8)"]})
    s, _ = play(s, ["Shoot KAS-8 hot-shot lasgun at LEG-6"], ["roll 5,1,1,1"])
    s, ev = play(s, ["Decline"], ["roll 1,1"])
    assert [e["cover"] for e in of_kind(ev, "saves_retained")] == [1]


def _overwatch(s: GameState, text: str) -> GameState:
    """Perform the Overwatch ``text`` as the flow's overwatch turn does (its ``perform``,
    then the frames run), as ``tests/test_kt21_shoot.py`` does."""
    w = Work(s)
    w.node = None
    a = parse_action(text)
    assert OVERWATCH is not None
    OVERWATCH.perform(w, w.op(a.op), a, "free")
    advance(w)
    return w.freeze()


def _overwatch_retained(equipment: list[str], op: str = "KAS-8") -> tuple[int, int]:
    """``op`` (engaged) overwatches the Warrior 11" away with its hot-shot lasgun (BS4+,
    5+ in an Overwatch) rolling 4,4,1,1: ``(normals, crits)`` retained."""
    ops = {op: {"at": (5, 14), "order": "engage"}, "LEG-6": {"at": (16, 14)}}
    s = _overwatch(
        _pos(ops, equipment={"A": equipment}), f"Overwatch {op} hot-shot lasgun at LEG-6"
    )
    s, ev = play(s, [], ["roll 4,4,1,1"])
    s, more = s.apply("Decline")  # no Elite point spent
    kept = of_kind([*ev, *more], "attack_retained")[0]
    return kept["normals"], kept["crits"]


def test_foregrip_keeps_the_lasgun_bs_in_overwatch() -> None:
    """Foregrip: the Overwatch does not worsen the hot-shot lasgun's BS4+, so both 4s hit;
    without it the BS is 5+ in an Overwatch (3.5) and they miss."""
    assert _overwatch_retained(["Foregrip (KAS-8)"]) == (2, 0)
    assert _overwatch_retained([]) == (0, 0)
