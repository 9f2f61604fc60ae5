"""Random-playout conformance of the built-in teams with their team rules (issues 16 and 17;
DESIGN.md "Testing and measuring"): the checks of ``tests/test_game_conformance.py`` at every
node (legal actions canonical and round-tripping, applying deterministic, illegal input
refused without change, resources never negative, the record replays to the same hash) in
battles of every ordered pair of the six built-in teams, on both killzone layouts, with every
team's rules.

One test per team, which plays it as player A against each of the five others on both
layouts (ten battles; over the six tests every ordered pair meets on both layouts). Every
ploy window is forced open (``open_windows``) in half of them, and the team's own ploys cost
0CP (``ploy_costs``) so the random agents use them wherever their conditions hold; the
roster-time choices (Marks of Chaos, Chapter Tactics) are drawn at random for each battle
(``Roster.with_random_choices``). Over its ten battles, every implemented strategy and
firefight ploy of the team is used and every implemented unique action performed at least
once: the random agent reaches every one of them through the ordinary legal actions, except
those of :data:`NOT_REACHED`.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from engine.game import GameOptions
from engine.game.events import Event
from engine.rules import registry
from engine.teams import builtin_teams, load_builtin_team
from tests.test_game_conformance import _TEAMS, LAYOUTS, _play_checked

TEAMS = tuple(sorted(builtin_teams()))

NOT_REACHED = {
    "Cover Retreat": "tests/test_team_kasrkin.py::test_cover_retreat_*",
    "Sickening Captivation": "tests/test_team_legionaries.py::test_sickening_captivation_*",
    "Unending Bloodshed": "tests/test_team_legionaries.py::test_unending_bloodshed_*",
    "Shock Assault": "tests/test_team_angels_of_death.py::test_shock_assault_*",
    "Medikit": "tests/test_team_kasrkin.py::test_medikit_*",
    "Grisly Mark": "tests/test_team_legionaries.py::test_grisly_mark_*",
    "Optics": "tests/test_team_angels_of_death.py::test_optics_*",
    "Reanimate": "tests/test_team_hierotek_circle_faction.py::test_reanimate_*",
    "Grappling Hook": "tests/test_team_kommandos_ops.py::test_grappling_hook_*",
    # Fight ploys the random battles reach only by chance (they need a Charge and a Fight):
    "Krump 'Em": "tests/test_team_kommandos_ploys.py::test_krump_em_*",
    "Kunnin' But Brutal": "tests/test_team_kommandos_ploys.py::test_kunnin_but_brutal_*",
}
"""Ploys and unique actions the random battles here do not reach (module docstring; Medikit
needs a wounded friend within reach of the Medic, Reanimate a Reanimation marker within 6" of
the Reanimator, Grisly Mark and Optics were not chosen by the random agents in these
battles, the Kommandos' default roster has no Grot for the Grappling Hook), with the scripted
tests that use them."""


def test_ploys_not_reached_at_random_have_scripted_tests() -> None:
    # Each exception names scripted tests that exist.
    root = Path(__file__).parent
    for name, where in NOT_REACHED.items():
        path, pattern = where.split("::")
        text = (root.parent / path).read_text()
        assert f"def {pattern.removesuffix('*')}" in text, name


def _declared(team: str, kinds: tuple[str, ...]) -> set[str]:
    """The names of ``team``'s implemented rules of ``kinds`` (those not implemented are
    listed by ``killteam teams rules`` and ``tests/test_team_rules.py``)."""
    rules = registry.team_rules(load_builtin_team(team))
    return {d.name for d in rules if d.kind in kinds and d.implemented}


@pytest.mark.parametrize("team", TEAMS)
def test_random_playouts_with_team_rules_conform(team: str) -> None:
    ploys = _declared(team, ("strategy_ploy", "firefight_ploy"))
    actions = _declared(team, ("unique_action",))
    free = {name: 0 for name in ploys}
    used: Counter[str] = Counter()
    performed: Counter[str] = Counter()
    seed = 5000 + 100 * TEAMS.index(team)
    for other in (t for t in TEAMS if t != team):
        for layout in LAYOUTS:
            options = GameOptions(open_windows=seed % 4 < 2, ploy_costs=free)
            rng = random.Random(seed)  # roster-time choices drawn at random (marks...)
            rosters = (
                _TEAMS[team].with_random_choices(rng),
                _TEAMS[other].with_random_choices(rng),
            )
            events: list[Event] = []
            state, _ = _play_checked(seed, rosters, options, collect=events, layout=layout)
            for e in events:
                if e.kind == "ploy_used" and e["player"] == "A":
                    used[e["ploy"]] += 1
                elif e.kind == "rule_action" and state.ctx.owner[e["op"]] == "A":
                    performed[e["action"]] += 1
            seed += 1
    assert sorted(ploys - set(used) - set(NOT_REACHED)) == [], (
        f"{team}: ploys never used: {sorted(ploys - set(used) - set(NOT_REACHED))}"
    )
    assert sorted(actions - set(performed) - set(NOT_REACHED)) == [], (
        f"{team}: unique actions never performed: "
        f"{sorted(actions - set(performed) - set(NOT_REACHED))}"
    )


def test_every_ordered_pair_of_built_in_teams_meets_on_both_layouts() -> None:
    # Each team's test plays it as A against the five others on both layouts: 6 x 5 ordered
    # pairs, 60 battles, which is every ordered pair of the six teams on both layouts.
    met = {(a, b, lay) for a in TEAMS for b in TEAMS if b != a for lay in LAYOUTS}
    assert len(TEAMS) == 6 and len(met) == 6 * 5 * 2
