"""KT21 faction equipment (``engine/rules/kt21/equipment.py``; ``rules/KT21.md`` 1.2 step 6,
1.4): the secret selection of up to 10EP, the assignment to operatives, the grenades' weapon
profiles, and the items the engine does not play reported. Teams: the built-in KT21 Kasrkin
(player A) and Legionaries (player B) on the LAB killzone."""

from __future__ import annotations

import random

import attrs
import pytest

from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.observation import observe
from engine.game.scenario import ScenarioError
from engine.game.state import Chance
from engine.game.weapons import weapons_of
from engine.game.work import Work
from engine.rules.kt21.equipment import MAX_EP, equipment_items, register_equipment
from engine.rulesets import new_game
from engine.teams.datacards import Equipment
from engine.teams.model import Roster
from tests.kt21_team_support import KAS, KASRKIN, KT21, LEG, of_kind, options, pos
from tests.test_game_rules_common import LAB


def _until_equipment(
    opts: GameOptions = KT21, rosters: tuple[Roster, Roster] = (KAS, LEG)
) -> tuple[GameState, list[str]]:
    """From a new battle, seeded random choices and dice until the first KT21 equipment
    decision (or the first deployment); the event kinds met on the way."""
    s = new_game(LAB, *rosters, opts)
    pick = random.Random(5)
    kinds: list[str] = []
    while True:
        if isinstance(s.node, Chance):
            s, ev = s.apply(pick.choice(s.chance_outcomes())[0])
        elif s.node.kind in ("kt21_equipment", "deploy"):  # type: ignore[union-attr]
            return s, kinds
        else:
            s, ev = s.apply(pick.choice(s.legal_actions()))
        kinds += [e.kind for e in ev]


def test_kasrkin_equipment_costs_follow_the_catalogue() -> None:
    """1.2 step 6: the 2021 Kasrkin catalogue prices Adrenaline Shot 1, Long-range Scope 2,
    Foregrip 1, Krak Grenade 3, Frag Grenade 2, Stun Grenade 3, Decoy Grenade 2 EP; the two
    grenades with a weapon profile once per kill team."""
    items = {i.name: (i.ep, i.once_per_team) for i in equipment_items(KASRKIN)}
    assert items == {
        "Adrenaline Shot": (1, False),
        "Long-range Scope": (2, False),
        "Foregrip": (1, False),
        "Krak Grenade": (3, True),
        "Frag Grenade": (2, True),
        "Stun Grenade": (3, False),
        "Decoy Grenade": (2, False),
    }


def test_selection_is_limited_to_ten_equipment_points() -> None:
    """1.2 step 6: krak 3 + stun 3 + decoy 2 + frag 2 = 10EP: nothing more fits, so A's
    selection ends by itself and B selects next; a krak grenade is not offered twice (once
    per kill team)."""
    s, _ = _until_equipment()
    assert s.node.player == "A"  # type: ignore[union-attr]
    s, _ = s.apply("Equipment krak grenade")
    assert "Equipment krak grenade" not in options(s)
    for item in ("stun grenade", "decoy grenade", "frag grenade"):
        s, _ = s.apply(f"Equipment {item}")
    assert s.node.player == "B"  # type: ignore[union-attr]
    assert MAX_EP == 10


def test_selection_over_ten_points_is_refused() -> None:
    """1.2 step 6: after 9EP (stun 3, stun 3, long-range scope 2, adrenaline shot 1) a krak
    grenade (3EP) would make 12EP: refused naming the limit, the state unchanged."""
    s, _ = _until_equipment()
    for item in ("stun grenade", "stun grenade", "long-range scope", "adrenaline shot"):
        s, _ = s.apply(f"Equipment {item}")
    with pytest.raises(IllegalActionError, match="at most 10EP"):
        s.apply("Equipment krak grenade")


def test_selection_is_secret_until_both_are_revealed() -> None:
    """1.2 step 6: while B selects, B's observation does not show A's items; after both,
    ``equipment_selected`` reveals them."""
    s, _ = _until_equipment()
    s, _ = s.apply("Equipment frag grenade")
    s, _ = s.apply("Equipment done")
    other, _ = _until_equipment()
    other, _ = other.apply("Equipment krak grenade")
    other, _ = other.apply("Equipment done")
    assert s != other and observe(s, "B") == observe(other, "B")
    s, ev = s.apply("Equipment done")
    shown = {e["player"]: e["items"] for e in of_kind(ev, "equipment_selected")}
    assert shown == {"A": ("Frag Grenade",), "B": ()}


def test_assigned_grenade_gives_its_weapon_to_the_carrier() -> None:
    """1.2 step 6: the frag grenade given to KAS-10 adds the frag grenade's ranged profile to
    its weapons (and to no other operative's)."""
    s, _ = _until_equipment()
    s, _ = s.apply("Equipment frag grenade")
    s, _ = s.apply("Equipment done")
    s, _ = s.apply("Equipment done")
    assert s.node.kind == "kt21_equipment_assign"  # type: ignore[union-attr]
    s, _ = s.apply("Equipment frag grenade on kas-10")
    w = Work(s)
    assert "frag grenade" in [n for n, _, _ in weapons_of(w, "KAS-10", "ranged")]
    assert "frag grenade" not in [n for n, _, _ in weapons_of(w, "KAS-9", "ranged")]


def test_items_the_engine_does_not_play_are_reported() -> None:
    """Never ignored in silence: an item whose rule no module plays (here a made-up 1EP
    "Lucky Charm" added to the Kasrkin's equipment: every item of the built-in KT21 teams is
    played now) is reported with ``rule_not_played`` at the reveal; the frag and stun
    grenades (played) are not."""
    charm = Equipment(name="Lucky Charm", summary="A test item no rule module plays.")
    team = attrs.evolve(KASRKIN, equipment=(*KASRKIN.equipment, charm))
    register_equipment(team.id, "Lucky Charm", 1)
    s, _ = _until_equipment(rosters=(attrs.evolve(KAS, team=team), LEG))
    s, _ = s.apply("Equipment stun grenade")
    s, _ = s.apply("Equipment frag grenade")
    s, _ = s.apply("Equipment lucky charm")
    s, _ = s.apply("Equipment done")
    s, ev = s.apply("Equipment done")
    reported = [e["rule"] for e in of_kind(ev, "rule_not_played")]
    assert reported == ["equipment Lucky Charm"]


def test_lite_open_play_has_no_equipment_step() -> None:
    """1.4: the Lite sequence selects no equipment: the set-up reaches the deployment
    without a KT21 equipment decision."""
    s, _ = _until_equipment(GameOptions(ruleset="kt21", mission="lite"))
    assert s.node.kind == "deploy"  # type: ignore[union-attr]


def test_position_equipment_is_checked() -> None:
    """A scripted position's equipment names items of the team (case-insensitive) and who
    carries them; an item of another team is refused naming it."""
    s = pos({"KAS-8": {"at": (5, 14)}}, KAS, LEG, equipment={"A": ["long-range SCOPE (kas-8)"]})
    assert s.player("A").equipment == ("Long-range Scope (KAS-8)",)
    with pytest.raises(ScenarioError, match="Warded Armour"):
        pos({"KAS-8": {"at": (5, 14)}}, KAS, LEG, equipment={"A": ["Warded Armour (KAS-8)"]})
