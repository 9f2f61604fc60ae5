"""The shared KT21 rules of the Designer's Commentary rulings 16.23 and 16.9
(``rules/KT21.md`` 16): the per-die damage step with damage added to a die
(:mod:`engine.rules.kt21.added_damage`) and a roll that ignores a die's own damage
(:mod:`engine.rules.kt21.ignore_damage`, :mod:`engine.rules.kt21.die_damage`), and a modifier
that applies only to an operative activated within a distance
(:mod:`engine.rules.kt21.activated_within`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.game.actions import parse_action
from engine.game.context import GameOptions
from engine.game.events import Event
from engine.game.state import Chance, GameState
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.kt21.activated_within import rule_of
from engine.rules.kt21.added_damage import added_per_die
from engine.rules.kt21.die_damage import allocation_damage, odds_notes
from engine.rules.kt21.ignore_damage import ignore_roll
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.roster import Roster, Team

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
KT21 = GameOptions(ruleset="kt21")
BRUTE, HIDE = "DCRA-1", "DCRB-1"


def _team() -> Team:
    return load_team(SCENARIOS / "teams" / "kt21_dc_r5.json")


def _cards() -> dict[str, Any]:
    return {op.name: op for op in _team().operatives}


def _battle(a: list[str], b: list[str], **operatives: dict[str, Any]) -> GameState:
    """A KT21 position on the scenario range: A's and B's operatives of the fixture team,
    placed as ``operatives`` says, A to act."""
    team = _team()
    return position(
        load_killzone(str(SCENARIOS / "killzones" / "range.toml")),
        Roster.from_entries(team, a),
        Roster.from_entries(team, b),
        cp=(0, 0),
        operatives=operatives,
        options=KT21,
    )


def _apply(s: GameState, text: str) -> tuple[GameState, list[Event]]:
    s, events = s.apply(parse_action(text))
    return s, list(events)


def _roll(s: GameState, dice: str) -> tuple[GameState, list[Event]]:
    """Answer the chance node with the outcome ``dice`` (any order)."""
    assert isinstance(s.node, Chance), s.node
    values = tuple(sorted((int(v) for v in dice.split(",")), reverse=True))
    action = next(o for o, _ in s.chance_outcomes() if tuple(o.values) == values)
    s, events = s.apply(action)
    return s, list(events)


def _to_chance(s: GameState) -> GameState:
    """Decline every attack choice (re-rolls, ploys, the cover save) up to the next roll."""
    while not isinstance(s.node, Chance):
        texts = {str(a): a for a in s.legal_actions()}
        for word in ("Decline", "Keep", "Cover save none", "Pass"):
            hit = [a for t, a in texts.items() if t.startswith(word)]
            if hit:
                s, _ = s.apply(hit[0])
                break
        else:
            raise AssertionError(f"no decline among {sorted(texts)}")
    return s


def _fight_to_strike() -> GameState:
    """The Brute (A, WS 3+) fights the Hide (B): 6,5,1,1 gives it one critical and one
    normal hit, the Hide's 1,1,1,1 none; the Brute is to strike."""
    s = _battle(
        ["DC Brute"],
        ["DC Hide"],
        **{
            BRUTE: {"at": (10.0, 19.5)},
            HIDE: {"at": (12.0, 19.5), "ready": False, "counteracted": True},
        },
    )
    s, _ = _apply(s, "Activate DCRA-1 engage")
    s, _ = _apply(s, "Fight DCRA-1 blade at DCRB-1")
    for dice in ("6,5,1,1", "1,1,1,1"):
        s, _ = _roll(_to_chance(s), dice)
    while not any(a.verb == "Strike" for a in s.legal_actions()):
        s, _ = _apply(s, "Decline")
    return s


def test_ignoring_a_die_keeps_the_damage_added_to_it() -> None:
    """DC 16.23: the Hide's 5+ roll ignores the normal strike's own 3 damage, not the 1 that
    Crushing Blows adds: 10 - 1 = 9 wounds (ignoring the whole would leave 10)."""
    s, _ = _apply(_fight_to_strike(), "Strike normal")
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt21_ignore_damage"
    s, events = _roll(s, "5")
    assert s.operative(HIDE).wounds == 9
    ignored = [e for e in events if e.kind == "die_damage_ignored"]
    assert [(e["damage"], e["added"], e["roll"]) for e in ignored] == [(3, 1, 5)]


def test_failed_ignore_roll_inflicts_own_and_added_damage() -> None:
    """11 step 4 with DC 16.23: on a 4 (below 5+) the critical strike inflicts its own 4
    and the added 1: 10 - 5 = 5 wounds."""
    s, _ = _apply(_fight_to_strike(), "Strike crit")
    s, _ = _roll(s, "4")
    assert s.operative(HIDE).wounds == 5


def test_ignore_roll_is_one_d6_with_exact_weights() -> None:
    """The ignore roll is one D6: six outcomes of integer weight 1 each out of 6^1, so
    P(ignored on 5+) = 2/6."""
    s, _ = _apply(_fight_to_strike(), "Strike normal")
    outcomes = s.chance_outcomes()
    assert sorted(tuple(o.values) for o, _ in outcomes) == [(v,) for v in range(1, 7)]
    assert [w for _, w in outcomes] == [1] * 6
    ignored = sum(w for o, w in outcomes if o.values[0] >= 5)
    assert Fraction(ignored, 6) == Fraction(1, 3)


def test_ignore_roll_for_each_unblocked_shooting_die() -> None:
    """10.1 steps 5-6 with DC 16.23: a Rifle (3/4) retains 6,5,5,5 (one crit, three normals
    at BS 3+), the Hide saves nothing (1,1,1); one D6 per unblocked die, the crit's first:
    5 ignores the crit's 4, then 1, 1, 6: two normals inflict 3 each, the third is ignored:
    10 - 6 = 4 wounds (the Rifle has no added damage)."""
    s = _battle(
        ["DC Runner"],
        ["DC Hide"],
        **{"DCRA-1": {"at": (3.0, 19.5)}, HIDE: {"at": (12.0, 19.5), "ready": False}},
    )
    s, _ = _apply(s, "Activate DCRA-1 engage")
    s, _ = _apply(s, "Shoot DCRA-1 rifle at DCRB-1")
    s, _ = _roll(_to_chance(s), "6,5,5,5")
    s, _ = _roll(_to_chance(s), "1,1,1")
    kinds = []
    for face in ("5", "1", "1", "6"):
        assert isinstance(s.node, Chance)
        kinds.append(s.node.request.kind)
        s, _ = _roll(s, face)
    assert kinds == ["kt21_ignore_damage"] * 4
    assert s.operative(HIDE).wounds == 4


def test_without_the_rules_damage_is_inflicted_at_once() -> None:
    """10.1 step 6: in a battle whose teams have neither rule, no hook is installed and the
    unblocked dice inflict their total in one step (no roll after the defence dice): 3
    normals and 1 crit of 3/4 = 13."""
    dc = load_team(SCENARIOS / "teams" / "kt21_dc.json")
    s = position(
        load_killzone(str(SCENARIOS / "killzones" / "range.toml")),
        Roster.from_entries(dc, ["DC Trooper"]),
        Roster.from_entries(dc, ["DC Trooper"]),
        cp=(0, 0),
        operatives={"DCA-1": {"at": (3.0, 19.5)}, "DCB-1": {"at": (12.0, 19.5), "ready": False}},
        options=KT21,
    )
    assert "kt21_die_damage" not in s.ctx.hooks.would
    assert "kt21_ignore_die_damage" not in s.ctx.hooks.would
    s, _ = _apply(s, "Activate DCA-1 engage")
    s, _ = _apply(s, "Shoot DCA-1 rifle at DCB-1")
    s, _ = _roll(_to_chance(s), "6,5,5,5")
    s, events = _roll(_to_chance(s), "1,1,1")
    hits = [e for e in events if e.kind == "damage_inflicted"]
    assert [e["damage"] for e in hits] == [13]


def test_added_damage_and_ignore_roll_found_by_ability_identity() -> None:
    """DESIGN "Rulesets": the rules are found by the abilities' identities: Crushing Blows
    adds 1 to each melee die (not to ranged dice), Stubborn Hide ignores on 5+; the plain
    Runner has neither."""
    cards = _cards()
    assert added_per_die(cards["DC Brute"], "melee") == 1
    assert added_per_die(cards["DC Brute"], "ranged") == 0
    assert ignore_roll(cards["DC Hide"]) == 5
    assert ignore_roll(cards["DC Runner"]) == 0
    assert added_per_die(cards["DC Runner"], "melee") == 0


def test_allocation_counts_added_damage_and_expected_ignoring() -> None:
    """10.1 step 5: the defender's allocation compares what each unblocked die costs: with a
    5+ ignore roll the own damage counts on the 4 faces that fail it and the added damage on
    all 6 (times 6: 3*4 + 1*6 = 18 for a normal, 4*4 + 6 = 22 for a crit); the odds notes
    name both rules (the dice core does not model them)."""
    w = Work(_fight_to_strike())
    got = allocation_damage(w, op=BRUTE, target=HIDE, weapon="Blade", kind="melee", damage=(3, 4))
    assert got == (18, 22)
    notes = odds_notes(w, op=BRUTE, target=HIDE, weapon="Blade", kind="melee")
    assert len(notes) == 2 and "1/1" in notes[0] and "5+" in notes[1]


def _spores(runner_at: tuple[float, float]) -> GameState:
    """A Runner (Move 6") at ``runner_at`` activated; the B Spore Carrier at (15, 19.5)."""
    s = _battle(
        ["DC Runner"],
        ["DC Spore Carrier"],
        **{"DCRA-1": {"at": runner_at}, "DCRB-1": {"at": (15.0, 19.5), "ready": False}},
    )
    s, _ = _apply(s, "Activate DCRA-1 engage")
    return s


def test_modifier_if_activated_within_applies_when_the_condition_holds() -> None:
    """DC 16.9: activated 1.7" from the Carrier (centres 2.8" apart less two 28mm base
    radii), within its 2": Move 6" - 2" = 4"."""
    w = Work(_spores((12.2, 19.5)))
    assert w.move_stat(w.op("DCRA-1")) == 4.0


def test_modifier_if_activated_within_does_not_apply_otherwise() -> None:
    """DC 16.9: activated 5.9" away (7" between centres less 1.1"): no change, Move 6"."""
    w = Work(_spores((8.0, 19.5)))
    assert w.move_stat(w.op("DCRA-1")) == 6.0


def test_modifier_if_activated_within_ends_with_the_activation() -> None:
    """DC 16.9 with 4.1: the change lasts until the end of the activation in which the
    condition held: after the Runner passes its AP, its Move is 6" again."""
    s, _ = _apply(_spores((12.2, 19.5)), "Pass")
    w = Work(s)
    assert w.move_stat(w.op("DCRA-1")) == 6.0


def test_activated_within_found_by_ability_identity() -> None:
    """The rule is found by the ability's identity: the Spore Carrier's Choking Spores
    (2", Move -2"); the Runner has none."""
    cards = _cards()
    rule = rule_of(cards["DC Spore Carrier"])
    assert rule is not None and (rule.distance, rule.stat, rule.value) == (2.0, "move", -2)
    assert rule_of(cards["DC Runner"]) is None
