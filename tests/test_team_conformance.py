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
from engine.teams import Roster, builtin_teams, load_builtin_team
from tests.test_game_conformance import _TEAMS, LAYOUTS, _play_checked

TEAMS = tuple(sorted(builtin_teams()))

NOT_REACHED = {
    "Cover Retreat": "tests/test_team_kasrkin.py::test_cover_retreat_*",
    "Sickening Captivation": "tests/test_team_legionaries.py::test_sickening_captivation_*",
    "Unending Bloodshed": "tests/test_team_legionaries.py::test_unending_bloodshed_*",
    "Shock Assault": "tests/test_team_angels_of_death.py::test_shock_assault_*",
    "Medikit": "tests/test_team_pathfinders_ploys.py::test_medikit_*",
    "Reanimate": "tests/test_team_hierotek_circle_faction.py::test_reanimate_*",
    "Point-Blank Fusillade": "tests/test_team_pathfinders_ploys.py::test_point_blank_fusillade_*",
    "Supporting Fire": "tests/test_team_pathfinders_ploys.py::test_supporting_fire_*",
    "Krump 'Em": "tests/test_team_kommandos_ploys.py::test_krump_em_*",
    "Kunnin' But Brutal": "tests/test_team_kommandos_ploys.py::test_kunnin_but_brutal_*",
    "Living Lightning": "tests/test_team_hierotek_circle_ploys.py::test_living_lightning_*",
    "Canoptek Repair": "tests/test_team_hierotek_circle_faction.py::test_canoptek_repair_*",
    "A Worthy Cause": "tests/test_team_pathfinders_ploys.py::test_a_worthy_cause_*",
    "Dakka Dash": "tests/test_team_kommandos_ops.py::test_dakka_dash_*",
    "System Jam": "tests/test_team_pathfinders_core.py::test_system_jam_*",
}
"""Ploys and unique actions the random battles here do not reach, with the scripted tests
that use them. Most need a Fight or a charge, which random agents choosing among dozens of
moves seldom make: Cover Retreat (a Fall Back), Shock Assault, Unending Bloodshed, Krump 'Em
and Kunnin' But Brutal (a fight, the latter after a charge from Conceal), Point-Blank
Fusillade (a Pathfinder charged while not engaged), Supporting Fire (an enemy engaged with a
friend within 6"); Sickening Captivation an enemy ending its activation near a Legionary in
a given state; the Pathfinders' Medikit a wounded friend within the Medical Technician's
reach (the Kasrkin's Medikit is reached); Reanimate a Reanimation marker within 6" of the
Reanimator; Living Lightning the one Immortal with a tesla carbine shooting, and Canoptek Repair a
wounded friend near the Technomancer (both reached only by chance); A Worthy Cause a
Pathfinder trooper that may perform a mission action as the Firefight phase starts (reached
only by chance: the random battles here stopped reaching it when a move's destination became
a decision of its own, issue 29); Dakka Dash (a Kommando with a dakka shoota, Engage and out
of every enemy's control range) and System Jam (the Transpectral Interference drone with an
enemy visible) likewise, reached only by chance until a Shoot's weapon and target became a
decision of their own (issue 29: other inputs, other battles)."""


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


def _alternative_roster(team: str, k: int = 0) -> Roster:
    """A legal roster of ``team`` with the operative types its default roster leaves out
    (drones, the Grot, the crypteks...): starting from the default, its leader becomes the
    ``k``-th of the team's leader types (cycling), then each missing type (its first
    loadout option per slot) replaces the last operative, not the leader nor a type added
    here, whose replacement keeps the roster legal (``Roster.validate``); a type that fits
    nowhere is left out."""
    base = _TEAMS[team]
    t = base.team
    leaders = t.selection.leader
    keep = set(leaders)
    names = list(base.operatives)
    loadouts = [base.loadout_of(i) for i in range(len(names))]

    def first_loadout(name: str) -> tuple[str, ...]:
        card = t.operative(name)
        return card.fixed_loadout or tuple(slot.options[0].name for slot in card.loadouts)

    if leaders:
        at = next(i for i, n in enumerate(names) if n in leaders)
        lead = leaders[k % len(leaders)]
        if names[at] != lead:
            names[at], loadouts[at] = lead, first_loadout(lead)
            assert Roster(t, tuple(names), tuple(loadouts)).validate() == [], (team, lead)
    for card in t.operatives:
        if card.name in names or card.name in leaders:
            continue
        choice = first_loadout(card.name)
        for i in reversed(range(len(names))):
            if names[i] in keep:
                continue
            trial_names = (*names[:i], card.name, *names[i + 1 :])
            trial_loadouts = (*loadouts[:i], choice, *loadouts[i + 1 :])
            if not Roster(t, trial_names, trial_loadouts).validate():
                names[i], loadouts[i] = card.name, choice
                keep.add(card.name)
                break
    return Roster(t, tuple(names), tuple(loadouts))


def test_the_alternative_rosters_are_legal_and_field_what_the_defaults_leave_out() -> None:
    # The Grot, the crypteks and drones are played in some battle of the test below.
    for team in TEAMS:
        for k in range(3):
            assert _alternative_roster(team, k).validate() == [], team
    assert "Kommando Grot" in _alternative_roster("kommandos").operatives
    assert "Chronomancer" in _alternative_roster("hierotek_circle", 0).operatives
    assert "Psychomancer" in _alternative_roster("hierotek_circle", 1).operatives
    assert any("Drone" in n for n in _alternative_roster("pathfinders").operatives)


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
            # The default roster on one layout, the alternative one on the other.
            mine = _TEAMS[team] if layout == LAYOUTS[0] else _alternative_roster(team, seed)
            rosters = (mine.with_random_choices(rng), _TEAMS[other].with_random_choices(rng))
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
