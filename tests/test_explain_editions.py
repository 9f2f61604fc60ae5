"""One ``control`` and one ``attack`` explanation for every ruleset
(:func:`engine.explain.control.explain_control`, :func:`engine.explain.attack.explain_attack`):
the query's reading, the verdict, the steps and the ruling are shared; what differs (the
edition's distance, sight and dice functions and its rule sections) comes from the edition
table (:mod:`engine.explain.editions`), never from asking which ruleset is in play."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.cli.explain import load_position
from engine.explain import QueryError, explain
from engine.explain.attack import AttackRules, parse_attack
from engine.explain.common import find_shot
from engine.explain.control import KT24_CONTROL, SECTION_KEYS, ControlRules, explain_control
from engine.explain.editions import EDITIONS
from engine.explain.kt21_control import KT21_CONTROL
from engine.game.state import GameState
from engine.game.work import Work

SC = Path(__file__).resolve().parent.parent / "scenarios"
MARKER21 = SC / "kt21_marker_control_within_two_inches_of_the_centre.toml"
COVER21 = SC / "kt21_dc_16_19_cover_save_with_save_6_is_normal.toml"
EDGE_02 = SC / "edge_02_cover_vs_obscured_same_feature.toml"
EDGE_13 = SC / "edge_13_marker_control_and_carrying.toml"

MM = 25.4  # millimetres per inch


def _position(path: Path, step: int = 0) -> tuple[GameState, Work]:
    state, _, _ = load_position(str(path), step)
    return state, Work(state)


# -- the edition table -------------------------------------------------------------------


def test_every_ruleset_gives_the_shared_explanations_what_differs() -> None:
    """DESIGN.md "Rulesets": what differs between rulesets is a value the ruleset passes.
    Every ruleset explain knows gives the control explanation a ControlRules with a rule
    section for each of its steps, and the attack explanation an AttackRules."""
    assert set(EDITIONS) == {"kt24", "kt21"}
    for make in EDITIONS.values():
        table = make()
        assert isinstance(table.control, ControlRules)
        assert isinstance(table.attack, AttackRules)
        assert all(table.control.sections[k] for k in SECTION_KEYS)


def test_control_rules_without_a_step_section_are_refused() -> None:
    """Every step of a ruling names its rule: a ControlRules missing the section of a step
    is refused when it is made, naming the step (here ``totals``)."""
    sections = {k: "1" for k in SECTION_KEYS if k != "totals"}
    with pytest.raises(ValueError, match="totals"):
        ControlRules(KT24_CONTROL.gap, "", "", "", sections)


# -- control -----------------------------------------------------------------------------


def test_control_measures_and_cites_as_the_ruleset_given_says() -> None:
    """The one control explanation measures and cites with the rules it is given. PRO-1's
    base edge is 1.9" from the centre of mid-north (the scenario's set-up): KT21 measures to
    the centre (rules/KT21.md 15.1, decision 6: 1.90"); KT24 measures to the edge of the
    40 mm marker (rules/KT24.md 4.8: 1.9 - 20/25.4 = 1.11", no wall between them). The
    contesting operatives and the verdict are the game's either way: A, with PRO-1."""
    _, w = _position(MARKER21)
    r21 = explain_control(w, ("mid-north",), "control mid-north", KT21_CONTROL)
    r24 = explain_control(w, ("mid-north",), "control mid-north", KT24_CONTROL)
    assert r21.verdict == r24.verdict == "A"
    (row21,) = r21.data["operatives"]
    (row24,) = r24.data["operatives"]
    assert row21["distance"] == pytest.approx(1.9, abs=0.01)
    assert row24["distance"] == pytest.approx(1.9 - 20 / MM, abs=0.01)
    assert r21.steps[0].rule == "rules/KT21.md 15.1, decision 6"
    assert r24.steps[0].rule == "4.8, 4.2"
    assert '1.90" from the centre of mid-north, within 2"' in r21.steps[0].detail
    assert 'within control range of mid-north (1.11", and the marker is visible' in (
        r24.steps[0].detail
    )


def test_control_of_a_marker_nobody_contests_is_nobodys_kt21_15_1() -> None:
    """rules/KT21.md 15.1: the player with the greater total APL of contesting operatives
    controls a marker; b-home (25, 11) is more than 2" from both operatives (PRO-1 at
    12.549, 14.5; TAR-1 at 28.5, 11: 3.5" from the centre less its 28 mm base's radius,
    2.95"), so the totals are 0 to 0 and nobody controls it; the steps say so with the
    KT21 sections."""
    state, _ = _position(MARKER21)
    r = explain(state, "control B-HOME")
    assert r.verdict == ""
    assert r.data["totals"] == {"A": 0, "B": 0}
    assert [s.check for s in r.steps] == ["contested", "totals", "controller"]
    assert r.steps[0].detail == 'no operative has its base within 2" of the centre of b-home'
    assert [s.rule for s in r.steps] == [
        "rules/KT21.md 15.1, decision 6",
        "rules/KT21.md 15.1",
        "rules/KT21.md 15.1",
    ]


@pytest.mark.parametrize("path", [MARKER21, EDGE_13], ids=["kt21", "kt24"])
def test_control_of_an_unknown_marker_names_the_markers(path: Path) -> None:
    """A query naming no marker there is refused under either ruleset, naming the word and
    the markers there are."""
    with pytest.raises(QueryError, match=r"unknown marker 'nowhere' \(markers: "):
        explain(_position(path)[0], "control nowhere")


# -- attack and target: the same reading ---------------------------------------------------


@pytest.mark.parametrize(
    ("path", "step", "shooter", "target"),
    [(MARKER21, 0, "PRO-1", "TAR-1"), (EDGE_02, 1, "PRO-1", "TAR-2")],
    ids=["kt21", "kt24"],
)
def test_attack_query_is_read_the_same_under_both_rulesets(
    path: Path, step: int, shooter: str, target: str
) -> None:
    """``attack ATTACKER WEAPON [at] TARGET [with DEFWEAPON]`` (docs/EXPLAIN.md): ``at`` is
    optional, the words after ``with`` name the retaliating weapon, ``with`` alone and a
    friendly target are refused, and a retaliating weapon named for a shot is refused, the
    same words under either ruleset."""
    state, w = _position(path, step)
    o, t, weapon, defweapon = parse_attack(w, (shooter.lower(), "rifle", "at", target))
    assert (o.id, t.id, weapon, defweapon) == (shooter, target, "rifle", "")
    o, t, weapon, defweapon = parse_attack(w, (shooter, "big", "blade", target, "with", "a", "b"))
    assert (weapon, defweapon) == ("big blade", "a b")
    with pytest.raises(QueryError, match="'with' needs the defender's melee weapon"):
        parse_attack(w, (shooter, "rifle", target, "with"))
    with pytest.raises(QueryError, match=f"target {shooter} is not an enemy of {shooter}"):
        parse_attack(w, (shooter, "rifle", shooter))
    with pytest.raises(QueryError, match="'with fist' names a retaliating weapon: rifle is"):
        explain(state, f"attack {shooter} rifle {target} with fist")


@pytest.mark.parametrize(
    ("path", "shooter", "target"),
    [(MARKER21, "PRO-1", "TAR-1"), (EDGE_02, "PRO-1", "TAR-2")],
    ids=["kt21", "kt24"],
)
def test_target_query_is_read_the_same_under_both_rulesets(
    path: Path, shooter: str, target: str
) -> None:
    """``target SHOOTER TARGET [WEAPON]``: WEAPON is optional and may be a unique prefix of a
    ranged weapon's name; a friendly target is refused under either ruleset."""
    _, w = _position(path)
    o, t, weapon, prof = find_shot(w, (shooter, target))
    assert (o.id, t.id, weapon, prof) == (shooter, target, None, None)
    _, _, weapon, prof = find_shot(w, (shooter, target, "RIF"))
    assert weapon == "rifle" and prof is not None
    with pytest.raises(QueryError, match="is not an enemy"):
        find_shot(w, (shooter, shooter))


@pytest.mark.parametrize(
    ("path", "step", "query", "section"),
    [
        (COVER21, 0, "attack FIGA-1 rifle FIGB-1", "rules/KT21.md 10.1"),
        (EDGE_02, 1, "attack PRO-1 rifle at TAR-2", "5.1"),
    ],
    ids=["kt21", "kt24"],
)
def test_a_shot_is_summed_up_in_the_same_words_under_both_rulesets(
    path: Path, step: int, query: str, section: str
) -> None:
    """A shot's answer and its last distribution step say the same under either ruleset:
    the expected damage (the verdict, 2 and 3 decimals) and the chance the target is
    incapacitated (1 decimal in %, 4 decimals), each cited with the ruleset's section of the
    shooting attack (KT21 10.1, KT24 5.1)."""
    state, _, _ = load_position(str(path), step)
    r = explain(state, query)
    mean, kill = r.data["expected_damage"], r.data["incapacitated"]
    assert r.verdict == mean
    o, t = r.data["attacker"], r.data["target"]
    assert r.answer == (
        f"{o} shooting {t} with rifle: expected damage {mean:.2f}, P(incapacitated) {kill:.1%}"
    )
    (dist,) = [s for s in r.steps if s.check == "distribution"]
    assert dist.result == f"{mean:.3f} damage"
    assert re.fullmatch(
        rf"expected damage {mean:.3f}, P\({t} incapacitated\) = {kill:.4f} \(.+\)", dist.detail
    )
    assert dist.rule == section
