"""``killteam explain`` under KT21: each query answers from the KT21 code
paths (``rules/KT21.md`` sections), found through the battle's ruleset; and the KT21
barricades (``rules/KT21.md`` 1.2 steps 7 and 9, DC 16.36)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.cli.explain import load_position
from engine.dice.kt21 import Kt21Attack, Kt21Defender, kt21_shoot
from engine.explain import SOURCES, explain
from engine.explain.editions import ruleset_name
from engine.explain.kt21_events import KT21_EVENT_RULES, kt21_event_rule
from engine.game.vocabulary import EventKind
from engine.game.weapons import weapons_of
from engine.game.work import Work
from engine.geometry import kt21_sight
from engine.rules.kt21 import barricades
from engine.rules.kt21.attack_dice import weapon_rules21
from engine.rules.kt21.attack_sight import target_reason

ROOT = Path(__file__).resolve().parent.parent
SC = ROOT / "scenarios"
COVER = SC / "kt21_dc_16_19_cover_save_with_save_6_is_normal.toml"
MARKER = SC / "kt21_marker_control_within_two_inches_of_the_centre.toml"
ENGAGED = SC / "kt21_dc_13_no_normal_move_within_engagement_range.toml"
FORTIFY = SC / "kt21_dc_36_fortify_barricade_not_on_terrain.toml"
POSITIONS = (COVER, MARKER, ENGAGED, SC / "kt21_dc_29_conceal_cannot_charge.toml")


def test_explain_answers_from_the_battles_ruleset() -> None:
    """A KT21 scenario's ruling cites rules/KT21.md (8.1 Visible), a KT24 one rules/KT24.md
    (4.3 visible): the queries are found through the ruleset the battle plays."""
    s21, _, _ = load_position(str(COVER), 0)
    s24, _, _ = load_position(str(SC / "edge_02_cover_vs_obscured_same_feature.toml"), 0)
    assert ruleset_name(s21) == "kt21" and ruleset_name(s24) == "kt24"
    assert explain(s21, "target FIGA-1 FIGB-1").steps[0].rule == "rules/KT21.md 8.1"
    assert explain(s24, "target PRO-1 TAR-1").steps[0].rule == "4.3"


def test_target_in_cover_from_the_light_wall_8_4() -> None:
    """8.4: the Light wall at x 15-15.5 lies across the cover lines within 1" of FIGB-1's
    base (x 16.5, 28 mm: its edge at 15.95): in Cover; an Engage target in Cover is still in
    Line of Sight (8.5) and a valid target."""
    state, _, _ = load_position(str(COVER), 0)
    r = explain(state, "target FIGA-1 FIGB-1 rifle")
    assert r.verdict is True
    assert r.data["in_cover"] and not r.data["obscured"]
    assert r.data["cover_parts"] == ["light wall 1 (Light)"]
    assert all(s.rule.startswith("rules/KT21.md") for s in r.steps)


def _pairs(path: Path) -> list[tuple[str, str, str, bool]]:
    state, _, _ = load_position(str(path), 0)
    w = Work(state)
    out = []
    for o in w.alive():
        for t in w.enemies_of(o.id):
            for name, _, prof in weapons_of(w, o.id, "ranged"):
                rules = weapon_rules21(w, o, name, prof)
                game = target_reason(w, o, t, rules.value("Rng"), indirect=rules.has("Indirect"))
                ruling = explain(state, f"target {o.id} {t.id} {name}")
                out.append((o.id, t.id, name, ruling.verdict == (game is None)))
    return out


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_target_verdict_agrees_with_the_kt21_shoot_targets(path: Path) -> None:
    """Never a second implementation: on every pair of enemies and every ranged weapon of
    these positions, explain's KT21 verdict is the game's own check of a Shoot's target
    (``target_reason``, which lists the Shoot actions)."""
    rows = _pairs(path)
    assert rows
    assert [r for r in rows if not r[3]] == []


def test_control_within_two_inches_of_the_centre_15_1() -> None:
    """15.1, decision 6: PRO-1's base edge is 1.9" from the centre of mid-north (the
    scenario's set-up: centre at x 15, base centre at 12.549, 28 mm base: 15 - 12.549 -
    0.551 = 1.9): within 2", so A controls it with PRO-1's APL."""
    state, _, _ = load_position(str(MARKER), 0)
    r = explain(state, "control mid-north")
    assert r.verdict == "A"
    (row,) = r.data["operatives"]
    assert row["id"] == "PRO-1"
    assert row["distance"] == pytest.approx(1.9, abs=0.01)
    assert r.steps[0].rule.startswith("rules/KT21.md 15.1")


def test_can_names_the_kt21_shoot_refusals() -> None:
    """6.1, 3.5: an operative within Engagement Range of an enemy makes no shooting attack;
    PRO-1 is 0.5" from TAR-1 (DC 16.13 position), so the KT21 Shoot refuses it, naming
    rules/KT21.md."""
    state, _, _ = load_position(str(ENGAGED), 1)
    w = Work(state)
    name = weapons_of(w, "PRO-1", "ranged")[0][0]
    r = explain(state, f"can PRO-1 Shoot {name} at TAR-1")
    assert r.verdict is False
    reasons = [x["reason"] for x in r.data["reasons"]]
    assert any("Engagement Range" in x and "rules/KT21.md" in x for x in reasons), reasons


def test_can_normal_move_refused_within_engagement_range_16_13() -> None:
    """DC 16.13, 6.1: no Normal Move within an enemy's Engagement Range; TAR-1 is 0.5" from
    PRO-1 in that position, so ``can`` says no and names Engagement Range."""
    state, _, _ = load_position(str(ENGAGED), 1)
    r = explain(state, "can PRO-1 Normal Move to 7,7")
    assert r.verdict is False
    assert any("Engagement Range" in x["reason"] for x in r.data["reasons"])


def test_attack_is_the_kt21_dice_core_on_the_games_values() -> None:
    """10.1, 10.2: the rifle (A4 BS 3+ D 3/4, datacard) against FIGB-1 (DF 3, Save 4+
    worsened by the scenario's effect to 6+, 10 wounds less 0 lost, in Cover behind the Light
    wall): the ruling's distribution is the KT21 dice core's for exactly those values."""
    state, _, _ = load_position(str(COVER), 0)
    r = explain(state, "attack FIGA-1 rifle FIGB-1")
    w = Work(state)
    t = w.op("FIGB-1")
    expected = kt21_shoot(
        Kt21Attack(4, 3, 3, 4), Kt21Defender(3, 6, t.wounds, 0, in_cover=True)
    ).expected_damage
    assert r.data["save"] == 6 and r.data["in_cover"] is True
    assert r.verdict == pytest.approx(float(expected))


def test_every_event_kind_has_a_kt21_section_and_source() -> None:
    """Every declared event kind has a section and a source under KT21; every kind the KT21
    rule modules and mission emit has its own rules/KT21.md section."""
    for kind in EventKind:
        section, source = kt21_event_rule(kind.value)
        assert section and source in SOURCES, kind
    emitted: set[str] = set()
    for folder in ("engine/rules/kt21", "engine/missions/kt21"):
        for f in (ROOT / folder).glob("*.py"):
            emitted |= set(re.findall(r'emit\(\s*"([a-z_0-9]+)"', f.read_text()))
    assert emitted
    for kind in emitted:
        assert KT21_EVENT_RULES[kind][0].startswith("rules/KT21.md"), kind


def test_event_of_a_kt21_scenario_names_kt21_sections() -> None:
    """The Fortify scenario's barricade event is rules/KT21.md 1.2 (steps 7 and 9)."""
    state, events, _ = load_position(str(FORTIFY), 3)
    n = next(k for k, e in enumerate(events, 1) if e.kind == "equipment_set_up")
    r = explain(state, f"event {n}", events=events)
    assert r.data["rule"].startswith("rules/KT21.md 1.2")


# -- barricades ---------------------------------------------------------------------------


def _setup_to_barricades() -> Work:
    """A KT21 battle played from its start to the first barricade decision (the roll-off
    3-1: A wins and makes itself the Defender, picking drop zone A)."""
    from engine.game import GameOptions
    from engine.game.state import Chance, Decision
    from engine.geometry import load_killzone
    from engine.play import RULESET_TEAMS
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    ids = RULESET_TEAMS["kt21"]
    a, b = load_builtin_team(ids[0]).default(), load_builtin_team(ids[1]).default()
    s = new_game(load_killzone("open_ruins"), a, b, GameOptions(ruleset="kt21"))
    for _ in range(200):
        node = s.node
        if isinstance(node, Decision) and node.kind == "equipment_setup":
            return Work(s)
        if isinstance(node, Chance):
            outs = s.chance_outcomes()
            pick = [o for o, _ in outs if len(o.values) == 2 and o.values[0] > o.values[1]]
            s, _ = s.apply(pick[0] if pick else outs[0][0])
        else:
            legal = s.legal_actions()
            choice = next((x for x in legal if "defender a" in str(x).lower()), legal[0])
            s, _ = s.apply(choice)
    raise AssertionError("no barricade decision reached")


def test_barricades_two_each_defender_first_1_2_step_7() -> None:
    """1.2 step 7: the Defender (A) sets up first; each listed spot is within 6" of its
    drop zone, and a second barricade more than 2" from the first."""
    w = _setup_to_barricades()
    frame = w.stack[-1]
    assert isinstance(frame, barricades.BarricadeFrame)
    assert frame.turn == "A"
    spots = frame.options(w)
    assert 0 < len(spots) <= barricades.MAX_SPOTS
    zone = w.ctx.killzone.drop_zones[w.pl("A").drop_zone]
    for a in spots:
        assert a.point is not None
        foot = barricades._footprint(a.point[0], a.point[1], a.values[0])
        assert zone.distance(foot) <= 6 + 1e-6


def test_barricade_is_light_and_traversable_9() -> None:
    """9: a barricade is Light + Traversable (the KT24 Light Barricade's shape, 1" high,
    UNCONFIRMED 18.4), as the KT21 sight reads its part."""
    state, _, _ = load_position(str(FORTIFY), 3)
    w = Work(state)
    kz = w.kz
    idx = [k for k, p in enumerate(kz.parts) if kz.features[p.feature].startswith("B barricade")]
    assert idx
    assert {"Light", "Traversable"} <= kt21_sight.part_traits(kz, idx[0])


def test_barricade_placement_refusals_1_2_step_7() -> None:
    """1.2 step 7: more than 2" from another barricade; within 6" of the own drop zone."""
    state, _, _ = load_position(str(FORTIFY), 3)
    w = Work(state)
    # B's barricade is centred at 27.5, 14.25: another one 1" away is too close.
    why = barricades.placement_problem(w, "B", (27.5, 15.25, 0.0), 0, fortify=False)
    assert why is not None and "more than 2" in why
    # 15" from B's drop zone (x 24-30): too far.
    why = barricades.placement_problem(w, "B", (9.0, 3.0, 0.0), 0, fortify=False)
    assert why is not None and 'within 6"' in why


def test_explain_lists_per_die_damage_rules_as_not_in_the_odds_16_23() -> None:
    """DC 16.23: the dice core does not model damage added to a die (the DC Brute's Crushing
    Blows, +1 a strike) nor a roll that ignores a die's own damage (the DC Hide's Stubborn
    Hide, 5+), so the KT21 fight explanation must name both as not in its distribution, for
    the side each belongs to, citing 16.23, rather than give silently wrong odds."""
    state, _, _ = load_position(str(SC / "kt21_dc_23_ignoring_a_die_keeps_added_damage.toml"), 0)
    r = explain(state, "attack DCRA-1 blade at DCRB-1")
    notes = [s for s in r.steps if s.check == "not in the distribution" and "16.23" in s.rule]
    texts = " | ".join(s.detail for s in notes)
    assert "DCRA-1's strikes: added damage" in texts and "1/1 damage" in texts
    assert "ignores an attack die's own damage on a 5+" in texts
