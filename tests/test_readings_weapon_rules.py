"""Readings of weapon rules given and taken by other rules (issue 31, part 1, group A): a
weapon rule another rule gives (a mark, a ploy, equipment, a token) is a rule like any other,
seen by every reader of a weapon's rules through one function
(:func:`engine.game.weapons.weapon_rules`); a rule that removes, ignores or worsens a weapon
rule applies after every rule that adds one, whichever seat (A or B) each team plays.

Positions are LAB positions (``tests/test_game_rules_common``) with two built-in teams, each
test played with the teams in both seats: team rules are installed in seat order (A's
first), so a removal installed before the other team's addition would miss it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from engine.dice.rules import Piercing, PiercingCrits, Saturate, Seek, Severe
from engine.game import GameState, universal
from engine.game.state import Effect
from engine.game.work import Work
from engine.rulesets import position
from engine.teams.model import Roster
from teams.hierotek_circle.psychomancer import SHROUD
from teams.legionaries.common import MARK_EFFECT
from tests.test_game_rules_common import BLU, LAB, roster
from tests.test_team_weapon_rules import lab_team

WARRIOR = "Legionary Warrior [Bolt Pistol; Chainsword]"


def two_teams(
    a: tuple[str, list[str]],
    b: tuple[str, list[str]],
    ops: Mapping[str, Mapping[str, Any]],
    effects: tuple[Effect, ...] = (),
    **kw: Any,
) -> GameState:
    """A LAB position: team ``a`` (id, roster entries) as player A against ``b`` as B, with
    ``effects`` in force."""
    kw.setdefault("cp", (0, 0))
    ra = Roster.from_entries(lab_team(a[0]), a[1])
    rb = Roster.from_entries(lab_team(b[0]), b[1])
    s = position(LAB, ra, rb, operatives=ops, **kw)
    return attrs.evolve(s, effects=(*s.effects, *effects))


def rules_of(s: GameState, op: str, weapon: str, kind: str, target: str) -> Any:
    """``op``'s weapon rules for an attack with ``weapon`` on ``target`` (the one answer)."""
    w = Work(s)
    name, _, prof = universal.find_weapon(w, w.op(op), weapon, kind)
    return universal.weapon_rules(w, op, name, prof, kind, target)


# -- Nightmare Shroud against a mark's Severe --------------------------------------------------

SHROUD_OPS = {"HIE-1": {"at": (5, 20)}, "LEG-1": {"at": (7, 20)}}


@pytest.mark.parametrize("hierotek_seat", ["A", "B"])
@pytest.mark.parametrize("shrouded", [False, True])
def test_nightmare_shroud_removes_a_marks_severe_whichever_seat(
    hierotek_seat: str, shrouded: bool
) -> None:
    """A KHORNE Legionary's melee weapons have Severe (Wrathful Onslaught, a mark's rule).
    Within 4" of a Psychomancer whose Nightmare Shroud is in force, an enemy operative's
    weapons lose Severe (with Balanced, Ceaseless, Relentless, Lethal and Rending): the
    Severe the mark gives is lost too, whichever team was installed first (the Legionary
    2" from the Psychomancer; without the shroud it keeps Severe)."""
    hie = ("hierotek_circle", ["Psychomancer"])
    leg = ("legionaries", [WARRIOR])
    a, b = (hie, leg) if hierotek_seat == "A" else (leg, hie)
    effects: tuple[Effect, ...] = (Effect(MARK_EFFECT, "LEG-1", "end_battle", detail="KHORNE"),)
    if shrouded:
        effects += (Effect(SHROUD, "HIE-1", "end_battle", source="HIE-1", detail=hierotek_seat),)
    s = two_teams(a, b, SHROUD_OPS, effects)
    rules = rules_of(s, "LEG-1", "chainsword", "melee", "HIE-1")
    assert rules.has(Severe) is not shrouded


# -- Shield Generator against a ploy's Piercing ------------------------------------------------


@pytest.mark.parametrize("pathfinder_seat", ["A", "B"])
@pytest.mark.parametrize("target", ["PAT-1", "PAT-2"])
def test_shield_generator_ignores_piercing_a_ploy_gives_whichever_seat(
    pathfinder_seat: str, target: str
) -> None:
    """Attacks on the MV4 Shield Drone ignore Piercing (Shield Generator), whatever gave it.
    Malignant Aura (a Legionaries ploy) gives a Legionary's ranged weapons Piercing 1 against
    an operative within 3" until its Shoot ends: a Legionary 2.5" from the drone shooting it
    has no Piercing, whichever team was installed first; shooting another Pathfinder as
    close (PAT-2, no shield) it has Piercing 1."""
    from teams.legionaries.ploys import MALIGNANT

    pf = ("pathfinders", ["MV4 Shield Drone", "Shas'La Pathfinder"])
    leg = ("legionaries", [WARRIOR])
    a, b = (pf, leg) if pathfinder_seat == "A" else (leg, pf)
    ops = {"PAT-1": {"at": (5, 20)}, "PAT-2": {"at": (7, 17.5)}, "LEG-1": {"at": (7, 20)}}
    s = two_teams(a, b, ops, (Effect(MALIGNANT, "LEG-1", "end_tp", source="LEG-1"),))
    rules = rules_of(s, "LEG-1", "bolt pistol", "ranged", target)
    assert rules.has(Piercing) is (target == "PAT-2")
    assert not rules.has(PiercingCrits)


# -- Deathmark's Seek in target selection ------------------------------------------------------


def test_deathmark_seek_is_read_by_target_selection() -> None:
    """Seek (6): light and heavy terrain cannot make the target in cover; a Conceal target
    in cover is then a valid target (4.5). Deathmarks' Seek against a deathmarked enemy is a
    rule like any other: the core's target selection reads it (the one function), not a
    second check of the team's."""
    from teams.hierotek_circle.abilities import DEATHMARKED

    w = Work(
        two_teams(
            ("hierotek_circle", ["Deathmark"]),
            ("kasrkin", ["Kasrkin Trooper"]),
            {"HIE-1": {"at": (5, 20)}, "KAS-1": {"at": (9, 20)}},
            (Effect(DEATHMARKED, "KAS-1", "end_battle", source="HIE-1", detail="A"),),
        )
    )
    name, _, prof = universal.weapons_of(w, "HIE-1", "ranged")[0]
    assert universal.weapon_rules(w, "HIE-1", name, prof, "ranged", "KAS-1").has(Seek)
    assert not universal.weapon_rules(w, "HIE-1", name, prof, "ranged", "").has(Seek)


# -- Kasrkin: Saturate from a Long-Range Scope --------------------------------------------------


@pytest.mark.parametrize("scope", [False, True])
def test_elimination_pattern_sees_the_saturate_a_long_range_scope_gives(scope: bool) -> None:
    """Elimination Pattern: a Kasrkin's hot-shot weapons have Piercing Crits 1 against a
    target that cannot retain cover saves. A Long-Range Scope gives its hot-shot weapons
    Saturate against an operative more than 6" away, and a Saturate weapon's target cannot
    retain cover saves (6 Saturate): shooting BLU-2 about 10" away, in cover, the lasgun has
    Piercing Crits 1 with the scope (Saturate from equipment is Saturate) and none without
    it (the target in cover can retain its cover save)."""
    from engine.game.shoot import ShootFrame
    from teams.kasrkin.ploys import ELIMINATION_PATTERN
    from tests.test_team_kasrkin import LASGUN, _near_far

    s = _near_far(equipment={"A": ("Long-Range Scope",)} if scope else {})
    w = Work(s)
    w.effects.append(Effect("token", "", "end_tp", player="A", detail=ELIMINATION_PATTERN))
    shot = ShootFrame(
        shooter="KAS-1",
        weapon=LASGUN,
        mode="activation",
        targets=("BLU-2",),
        stage="attack_roll",
        primary_cover=True,
        cover=True,
    )
    w.stack.append(shot)
    rules = shot.profile(w).rules
    assert rules.has(Saturate) is scope
    assert rules.has(PiercingCrits) is scope


@pytest.mark.parametrize("kasrkin_seat", ["A", "B"])
def test_implacable_turns_a_ploys_piercing_1_into_piercing_crits_1_whichever_seat(
    kasrkin_seat: str,
) -> None:
    """Implacable (Legionaries ploy): against a friendly LEGIONARY with its token, Piercing 1
    is Piercing Crits 1. Elimination Pattern gives a Kasrkin's hot-shot volley gun Piercing 1
    against a target that cannot retain cover saves (here: not in cover). So the volley gun
    (focused: Piercing Crits 1 printed) shooting the Implacable Legionary has Piercing
    Crits 1 and no Piercing (it would make the Legionary roll one defence die fewer whatever
    the attack dice), whichever team was installed first."""
    from engine.game.shoot import ShootFrame
    from teams.kasrkin.ploys import ELIMINATION_PATTERN
    from teams.legionaries.ploys import IMPLACABLE

    kas = ("kasrkin", ["Kasrkin Gunner [Hot-Shot Volley Gun; Gun Butt]"])
    leg = ("legionaries", [WARRIOR])
    a, b = (kas, leg) if kasrkin_seat == "A" else (leg, kas)
    leg_seat = "B" if kasrkin_seat == "A" else "A"
    effects = (
        Effect("token", "", "end_tp", player=kasrkin_seat, detail=ELIMINATION_PATTERN),
        Effect("token", "", "end_tp", player=leg_seat, detail=IMPLACABLE),
    )
    s = two_teams(a, b, {"KAS-1": {"at": (5, 14.5)}, "LEG-1": {"at": (16, 14.5)}}, effects)
    w = Work(s)
    shot = ShootFrame(
        shooter="KAS-1",
        weapon="hot-shot volley gun (focused)",
        mode="activation",
        targets=("LEG-1",),
        stage="attack_roll",
    )
    w.stack.append(shot)
    rules = shot.profile(w).rules
    assert rules.get(PiercingCrits) == PiercingCrits(1)
    assert not rules.has(Piercing)


# -- "Cannot be obscured" against smoke ----------------------------------------------------------


@pytest.mark.parametrize(
    ("shooter", "obscured"),
    [("Transpectral Interference Pathfinder", False), ("Shas'La Pathfinder", True)],
)
def test_cannot_be_obscured_also_against_smoke(shooter: str, obscured: bool) -> None:
    """A Smoke Grenade (7.2): an operative wholly within smoke is obscured to operatives more
    than 2" away, whatever the terrain. Multi-Dimensional Vision (Transpectral Interference):
    whenever it is shooting, enemy operatives cannot be obscured; a rule that ignores
    obscuring applies after every rule that obscures, smoke included. BLU-1 stands in smoke
    11" from the shooter, in the open: obscured to a Shas'La, not to the Transpectral
    Interference Pathfinder (before: the ability only took terrain's obscuring away)."""
    from engine.game.tokens import Token

    ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}
    pf = Roster.from_entries(lab_team("pathfinders"), [shooter])
    s = position(LAB, pf, roster(BLU, ("Trooper",)), operatives=ops, cp=(0, 0))
    s = attrs.evolve(s, tokens=(*s.tokens, Token("smoke", "B", "B smoke", 16, 14.5, 0.0)))
    w = Work(s)
    assert w.would("would_be_obscured", False, op="PAT-1", target="BLU-1") is obscured
