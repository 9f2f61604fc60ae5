"""``attack``: rules acting after the dice are in the distribution ``explain`` gives
(:mod:`engine.explain.after_dice`), and that distribution is the game's: here it is compared
with the real Shoot sequence's outcomes, enumerated exactly through the game's chance nodes
(``GameState.chance_outcomes``: weights summing to 6^dice at each roll), on positions with
such rules in force (``rules/KT24.md`` 5.1 steps 4-5, 2.1).

Positions are on the fixture range (``scenarios/killzones/range.toml``): PRO-1 (probe
leader, rifle A4 3+ 3/4, no weapon rules) at (8, 20), TAR-1 (target leader, Save 4+, 8W... as
its datacard says) at (14, 20), Engage, in the open (no terrain between y 17 and 22): no
cover, not obscured, so the defender has no cover-save decision and the only choices are the
dice. The rules are added to the battle with ``GameState.with_hooks`` as the *would* hooks a
team rule subscribes (a damage reduction per die, critical saves on 5+, a total-damage
reduction, a defence die retained unrolled).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.dice.fight import fight
from engine.dice.profile import AttackProfile, Fighter
from engine.dice.rules import Devastating, WeaponRules
from engine.explain import QueryError, explain
from engine.game.allocation import least_damage_choice
from engine.game.context import Hooks
from engine.game.scenario_check import play_step
from engine.game.scenario_file import load_scenario
from engine.game.state import Chance, Decision, GameState
from engine.game.work import Work
from engine.rulesets import get as get_ruleset

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def _position(tmp_path: Path) -> GameState:
    text = f"""
name = "after the dice"
killzone = "{SCENARIOS / "killzones" / "range.toml"}"
[teams.A]
team = "{SCENARIOS / "teams" / "probe.json"}"
operatives = ["Probe Leader"]
[teams.B]
team = "{SCENARIOS / "teams" / "target.json"}"
operatives = ["Target Leader"]
[position]
cp = [0, 0]
[position.operatives.PRO-1]
at = [8, 20]
[position.operatives.TAR-1]
at = [14, 20]
order = "engage"
ready = false
counteracted = true
[[steps]]
actions = ["Activate PRO-1 engage"]
"""
    path = tmp_path / "position.toml"
    path.write_text(text)
    sc = load_scenario(path)
    state = sc.start(ruleset=get_ruleset(sc.options.ruleset))
    state, _ = play_step(state, sc.steps[0], "step 1")
    return state


def _wounds(state: GameState, op: str) -> int:
    o = next(o for o in state.operatives if o.id == op)
    return 0 if o.incapacitated or not o.alive else o.wounds


def _least_damage_allocation(state: GameState) -> GameState:
    """The defender's allocation of saves, where the game asks for it (5.1 step 5, a
    decision only when allocations differ in effect): the least-damage one
    (:func:`engine.game.allocation.least_damage_choice`), which ``explain``'s distribution
    assumes (the defender's best when nothing but damage is at stake)."""
    if isinstance(state.node, Decision) and state.node.kind == "allocate_saves":
        state, _ = state.apply(least_damage_choice(state))
    return state


def _game_damage(state: GameState, action: str, target: str) -> dict[int, Fraction]:
    """The damage the game's Shoot sequence inflicts on ``target``, exactly: every chance
    outcome of the attack roll (grouped by the attack dice it retains: the sequence reads
    only their numbers after that step), then every outcome of the defence roll, played
    with ``apply``; weights multiply (each roll's weights sum to 6^dice rolled). Damage is
    capped by the wounds (what the game can inflict)."""
    start = _wounds(state, target)
    after, _ = state.apply(action)
    assert isinstance(after.node, Chance) and after.node.request.kind == "attack"
    groups: dict[tuple[int, int], tuple[GameState, int]] = {}
    total = 0
    for roll, weight in after.chance_outcomes():
        total += weight
        s, events = after.apply(roll)
        kept = next(e for e in events if e.kind == "attack_retained")
        key = (kept["normals"], kept["crits"])
        if key in groups:
            groups[key] = (groups[key][0], groups[key][1] + weight)
        else:
            groups[key] = (s, weight)
    assert total == 6**4
    dist: dict[int, Fraction] = {}
    for s, weight in groups.values():
        if isinstance(s.node, Chance) and s.node.request.kind == "defence":
            outcomes = s.chance_outcomes()
            rolled = 6**s.node.request.dice
            assert sum(w for _, w in outcomes) == rolled
            for roll, w_def in outcomes:
                end = _least_damage_allocation(s.apply(roll)[0])
                assert not isinstance(end.node, Chance)
                dmg = start - _wounds(end, target)
                dist[dmg] = dist.get(dmg, Fraction(0)) + Fraction(weight * w_def, 6**4 * rolled)
        else:  # no defence dice to roll (every attack die failed)
            dmg = start - _wounds(s, target)
            dist[dmg] = dist.get(dmg, Fraction(0)) + Fraction(weight, 6**4)
    return dist


def _explained(state: GameState, query: str, wounds: int) -> dict[int, Fraction]:
    r = explain(state, query)
    dist: dict[int, Fraction] = {}
    for row in r.data["damage"]:
        d = min(int(row["damage"]), wounds)
        dist[d] = dist.get(d, Fraction(0)) + Fraction(row["exact"])
    return dist


def _reduce_big_dice(w: Work, dmg: int, **info: Any) -> int:
    """A damage reduction per attack die: 3 or more damage is 1 less (as Reinforce Metal)."""
    return dmg - 1 if info.get("target") == "TAR-1" and dmg >= 3 else dmg


def _crit_on_five(w: Work, at: int, **info: Any) -> int:
    """Defence dice of 5+ are critical saves (as Hardy)."""
    return min(at, 5) if info.get("target") == "TAR-1" else at


def _total_less(w: Work, damage: int, **info: Any) -> int:
    """The total of a shot with a normal success of 3+ Dmg is 1 less (as Ice In Your
    Veins)."""
    big = bool(info.get("normals")) and int(info.get("normal_damage", 0)) >= 3
    return damage - 1 if big and info.get("target") == "TAR-1" else damage


def _one_unrolled(w: Work, extra: int, **info: Any) -> int:
    """One defence die retained as a normal save without rolling (as Skulk About)."""
    return extra + 1 if info.get("target") == "TAR-1" else extra


def test_attack_damage_reduction_per_die_and_crit_saves_on_five_are_the_games(
    tmp_path: Path,
) -> None:
    """2.1, 5.1 step 5: with a per-die reduction (3+ Dmg is 1 less: the rifle's 3/4 becomes
    2/3 per unblocked die) and critical saves on 5+ (each defence die: 1-3 fail at Save 4+,
    4 a normal save, 5-6 critical saves), explain's damage distribution equals the game's,
    outcome for outcome (exact fractions), and the expected damage is below the plain
    rifle's (every die deals less and saves are better)."""
    state = _position(tmp_path)
    plain = explain(state, "attack PRO-1 rifle TAR-1").verdict

    def add(h: Hooks) -> None:
        h.transform("would_shot_damage", _reduce_big_dice)
        h.transform("would_crit_save", _crit_on_five)

    ruled = state.with_hooks(add)
    wounds = _wounds(ruled, "TAR-1")
    game = _game_damage(ruled, "Shoot PRO-1 rifle at TAR-1", "TAR-1")
    assert _explained(ruled, "attack PRO-1 rifle TAR-1", wounds) == game
    assert sum(game.values()) == 1
    r = explain(ruled, "attack PRO-1 rifle TAR-1")
    assert r.verdict < plain
    included = {s.result for s in r.steps if s.check == "after the dice"}
    assert included == {"would_shot_damage", "would_crit_save"}
    assert not any(
        s.check == "not in the distribution" and s.result.startswith("would_") for s in r.steps
    )


def test_attack_total_damage_reduction_and_an_unrolled_save_are_the_games(
    tmp_path: Path,
) -> None:
    """5.1 step 4: one defence die retained as a normal save unrolled (2 rolled dice and one
    sure save), and 2.1: the total of a shot with a normal success of 3 Dmg is 1 less; the
    distribution is the game's exactly. An independent check of one value: P(0 damage) is at
    least P(no attack success) = (2/6)^4 = 1/81 (a 3+ Hit misses on 1-2)."""
    state = _position(tmp_path)

    def add(h: Hooks) -> None:
        h.transform("would_shot_total_damage", _total_less)
        h.transform("would_retain_defence_normal", _one_unrolled)

    ruled = state.with_hooks(add)
    wounds = _wounds(ruled, "TAR-1")
    game = _game_damage(ruled, "Shoot PRO-1 rifle at TAR-1", "TAR-1")
    explained = _explained(ruled, "attack PRO-1 rifle TAR-1", wounds)
    assert explained == game
    assert explained[0] >= Fraction(1, 81)


def test_attack_without_after_dice_rules_is_the_dice_core_and_the_game(tmp_path: Path) -> None:
    """5.1: with no rule acting after the dice, explain's distribution (the dice core's) is
    the game's too (the same enumeration), so the after-dice path changes nothing else."""
    state = _position(tmp_path)
    wounds = _wounds(state, "TAR-1")
    game = _game_damage(state, "Shoot PRO-1 rifle at TAR-1", "TAR-1")
    assert _explained(state, "attack PRO-1 rifle TAR-1", wounds) == game


def test_attack_devastating_and_per_die_reduction_are_the_games(tmp_path: Path) -> None:
    """6 Devastating x: each retained crit inflicts x at once, and a damage reduction of
    every attack die (``would_devastating_damage`` as well as ``would_shot_damage``, as
    Reinforce Metal: here 2 or more is 1 less) lowers both. The rifle is given Devastating 2
    by a rule (``would_use_weapon_rules``, as a ploy or equipment adds a weapon rule: a rule
    given by another rule is seen by the attack and by explain alike); explain's
    distribution is the game's exactly, and the weapon step shows +Devastating 2."""
    state = _position(tmp_path)

    def reduce_dev(w: Work, dmg: int, **info: Any) -> int:
        return dmg - 1 if info.get("target") == "TAR-1" and dmg >= 2 else dmg

    def devastating(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        return rules.with_rules(Devastating(2)) if info.get("op") == "PRO-1" else rules

    def add(h: Hooks) -> None:
        h.transform("would_use_weapon_rules", devastating)
        h.transform("would_shot_damage", _reduce_big_dice)
        h.transform("would_devastating_damage", reduce_dev)

    ruled = state.with_hooks(add)
    wounds = _wounds(ruled, "TAR-1")
    game = _game_damage(ruled, "Shoot PRO-1 rifle at TAR-1", "TAR-1")
    assert _explained(ruled, "attack PRO-1 rifle TAR-1", wounds) == game
    r = explain(ruled, "attack PRO-1 rifle TAR-1")
    assert any(s.result == "+Devastating 2" for s in r.steps)
    assert {s.result for s in r.steps if s.check == "after the dice"} == {
        "would_shot_damage",
        "would_devastating_damage",
    }


def test_attack_lists_transhuman_physiology_as_a_choice_not_in_the_distribution() -> None:
    """7.1, Angels of Death Transhuman Physiology: a firefight ploy (1CP) offered after the
    defence dice when a friendly operative is shot and has a normal save; A has 2CP here
    (the shipped scenario, TAR-1 activated), so it is a choice the defender may make on the
    dice: explain lists it, by name, as offered and not in the distribution (the game's own
    offer, on sample rolls). B's Command Re-roll is not listed (B has 0CP, 1CP needed: it
    cannot be offered), nor B's Ammo Resupply re-roll (only for an operative that performed
    Ammo Resupply this turning point)."""
    sc = load_scenario(SCENARIOS / "team_angels_of_death_transhuman_physiology.toml")
    state = sc.start(ruleset=get_ruleset(sc.options.ruleset))
    state, _ = state.apply("Activate TAR-1 engage")
    r = explain(state, "attack TAR-1 pistol ANG-3")
    listed = [s for s in r.steps if s.check == "not in the distribution"]
    tp = [s for s in listed if s.result == "Transhuman Physiology"]
    assert len(tp) == 1 and tp[0].source == "ploy"
    assert tp[0].detail.startswith("offered to player A after the defence dice")
    assert not any("player B" in s.detail for s in listed)


def test_attack_fight_names_the_retaliating_weapon(tmp_path: Path) -> None:
    """5.2 step 1: the defender selects the melee weapon it retaliates with. Here TAR-1 has a
    Blade (A3 4+ 3/4) and a Club (A5 2+ 1/2); ``with club`` makes the distribution that of a
    Club retaliation: the damage PRO-1 (Big Blade A4 3+ 4/5, 12W) takes is the dice core's
    fight of those two profiles (built here from the numbers above), and differs from the
    Blade's (the default: the first usable melee weapon)."""
    team = json.loads((SCENARIOS / "teams" / "target.json").read_text())
    for o in team["operatives"]:
        o["weapons"].append(
            {
                "name": "Club",
                "kind": "melee",
                "profiles": [{"name": "", "attacks": 5, "hit": "2+", "damage": "1/2"}],
            }
        )
    (tmp_path / "target2.json").write_text(json.dumps(team))
    text = f"""
name = "two melee weapons"
killzone = "{SCENARIOS / "killzones" / "range.toml"}"
[teams.A]
team = "{SCENARIOS / "teams" / "probe.json"}"
operatives = ["Probe Leader"]
[teams.B]
team = "{tmp_path / "target2.json"}"
operatives = ["Target Leader"]
[position]
cp = [0, 0]
[position.operatives.PRO-1]
at = [8, 20]
[position.operatives.TAR-1]
at = [9.2, 20]
"""
    path = tmp_path / "fight.toml"
    path.write_text(text)
    sc = load_scenario(path)
    state = sc.start(ruleset=get_ruleset(sc.options.ruleset))
    club = explain(state, "attack PRO-1 big blade TAR-1 with club")
    blade = explain(state, "attack PRO-1 big blade TAR-1")
    assert club.data["retaliation"] == "club" and blade.data["retaliation"] == "blade"
    expected = fight(
        Fighter(AttackProfile.parse(4, "3+", "4/5"), 12),
        Fighter(AttackProfile.parse(5, "2+", "1/2"), 12),
        fallback=True,
    )
    got = {int(r["damage"]): Fraction(r["exact"]) for r in club.data["damage_to_attacker"]}
    assert got == dict(expected.attacker.damage_taken.to_fractions())
    assert club.data["damage_to_attacker"] != blade.data["damage_to_attacker"]
    with pytest.raises(QueryError, match="pistol"):
        explain(state, "attack PRO-1 big blade TAR-1 with pistol")
    with pytest.raises(QueryError, match="ranged"):
        explain(state, "attack PRO-1 rifle TAR-1 with club")
