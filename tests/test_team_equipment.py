"""A team's own equipment options, selectable like universal equipment (``rules/KT24.md`` 7.2;
:mod:`engine.rules.equipment.selection`): offered in the selection step, up to four options in
all, fixed by game options and ``--equipment-a/-b`` (checked per team), asked about by rules
(``has_equipment``), giving their weapons (``give_weapons``), valued by the heuristic agent.

The test team EQP is the RED test team (``test_game_rules_common``) with two equipment
options: Combat Knives (a melee weapon, given by a test rule to the team's first operative
only) and Lucky Charm (no weapon).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.agents import RandomAgent
from engine.agents.equipment_choices import equipment_values, select_equipment
from engine.cli import main
from engine.game import GameOptions, IllegalActionError
from engine.game.scenario import ScenarioError
from engine.game.setup import SetupError
from engine.game.state import Decision, GameState
from engine.game.universal import weapons_of
from engine.game.work import Work
from engine.play import BattleError
from engine.play.matchup import MatchupChoice, make_matchup, parse_equipment
from engine.rules.equipment.selection import (
    check_selection,
    give_weapons,
    has_equipment,
    selected_equipment,
    team_equipment,
)
from engine.rules.registry import (
    DEFAULT_EQUIPMENT_VALUE,
    equipment_value,
    register,
    register_equipment_value,
)
from engine.rulesets import new_game, position
from engine.teams import load_builtin_team, save_team
from engine.teams.model import Equipment, Team, Weapon, WeaponProfile
from tests.test_game_rules_common import BLU, LAB, RED, of_kind, play, roster

KNIFE = Weapon("Combat Knife", "melee", (WeaponProfile("", 4, 3, 3, 4),))
EQP: Team = attrs.evolve(
    RED,
    id="eqp",
    name="Eq Probe",
    equipment=(
        Equipment("Combat Knives", "a knife for the first operative", weapons=(KNIFE,)),
        Equipment("Lucky Charm", "nothing the engine plays"),
    ),
)


def _install_knives(hooks: Any, players: tuple[str, ...]) -> None:
    give_weapons(hooks, players, "Combat Knives", who=lambda w, op_id: op_id.endswith("-1"))


register("eqp/equipment/combat_knives", _install_knives, "test: a knife for EQP-1")
register("eqp/equipment/lucky_charm", lambda hooks, players: None, "test: does nothing")
register_equipment_value("eqp/equipment/lucky_charm", -1)


def to_selection(options: GameOptions | None = None, a: Team = EQP) -> GameState:
    """A battle on LAB up to the equipment selection (A: EQP, B: BLU; kill op alone)."""
    options = attrs.evolve(options or GameOptions(), mission="kill_op")
    s = new_game(LAB, roster(a, ("Trooper", "Trooper")), roster(BLU, ("Trooper",)), options)
    s, _ = play(s, ["Initiative A", "Drop zone A"], ["6,1"])
    return s


def _texts(s: GameState) -> set[str]:
    return {a.text for a in s.legal_actions() if a.verb == "Equipment"}


# -------------------------------------------------------------------------------------------
# The selection step
# -------------------------------------------------------------------------------------------


def test_selection_offers_the_teams_own_equipment() -> None:
    s = to_selection()
    assert s.node == Decision("A", "equipment")
    assert {"combat knives", "lucky charm", "mines", "done"} <= _texts(s)
    s, _ = play(s, ["Equipment combat knives", "Equipment done"])
    # B's team has no equipment of its own: only the universal options.
    assert s.node == Decision("B", "equipment")
    assert "combat knives" not in _texts(s) and "mines" in _texts(s)
    with pytest.raises(IllegalActionError, match="unknown universal equipment 'combat knives'"):
        s.apply("Equipment combat knives")
    s, ev = play(s, ["Equipment done"])
    got = of_kind(ev, "equipment_selected")
    assert [(e["player"], e["items"]) for e in got] == [("A", ("Combat Knives",)), ("B", ())]


def test_team_and_universal_options_count_together_up_to_four() -> None:
    s = to_selection()
    s, _ = play(s, ["Equipment lucky charm", "Equipment mines", "Equipment combat knives"])
    assert "lucky charm" not in _texts(s)
    with pytest.raises(IllegalActionError, match="Lucky Charm selected twice"):
        s.apply("Equipment LUCKY charm")
    s, _ = play(s, ["Equipment ammo cache"])
    assert s.node == Decision("B", "equipment")  # four options: A's selection ends
    assert s.player("A").equipment == ("Lucky Charm", "Mines", "Combat Knives", "Ammo Cache")


def test_check_selection_with_and_without_the_team() -> None:
    assert team_equipment(EQP) == ("Combat Knives", "Lucky Charm")
    assert team_equipment(None) == ()
    assert check_selection(("combat KNIVES", "mines"), EQP) == ("Combat Knives", "Mines")
    with pytest.raises(ValueError, match="unknown universal or Eq Probe equipment 'Foo'"):
        check_selection(("Foo",), EQP)
    with pytest.raises(ValueError, match="unknown universal equipment 'combat knives'"):
        check_selection(("combat knives",))
    five = ("Combat Knives", "Lucky Charm", "Mines", "Ladders", "Ammo Cache")
    with pytest.raises(ValueError, match="5 equipment options: at most 4"):
        check_selection(five, EQP)


def test_game_option_fixes_team_equipment_checked_per_team() -> None:
    s = to_selection(GameOptions(equipment={"A": ["combat knives", "mines"], "B": []}))
    assert s.player("A").equipment == ("Combat Knives", "Mines")
    with pytest.raises(SetupError, match="player B: unknown universal equipment 'Lucky Charm'"):
        to_selection(GameOptions(equipment={"B": ["Lucky Charm"]}))


def test_scripted_position_accepts_team_equipment() -> None:
    s = _knife_position(("Combat Knives",))
    assert s.player("A").equipment == ("Combat Knives",)
    with pytest.raises(ScenarioError, match=r"equipment\.B: unknown universal equipment"):
        position(
            LAB,
            roster(EQP, ("Trooper",)),
            roster(BLU, ("Trooper",)),
            operatives={},
            equipment={"B": ("Combat Knives",)},
        )


# -------------------------------------------------------------------------------------------
# Rules: has_equipment, selected_equipment, give_weapons
# -------------------------------------------------------------------------------------------


def _knife_position(equipment: tuple[str, ...]) -> GameState:
    return position(
        LAB,
        roster(EQP, ("Trooper", "Trooper")),
        roster(BLU, ("Trooper",)),
        operatives={
            "EQP-1": {"at": (3, 5)},
            "EQP-2": {"at": (3, 10)},
            "BLU-1": {"at": (27, 5)},
        },
        equipment={"A": equipment} if equipment else None,
    )


def test_has_equipment_and_selected_equipment() -> None:
    w = Work(_knife_position(("Combat Knives", "Explosive Grenades (2 frag)")))
    assert selected_equipment(w, "A") == ("Combat Knives", "Explosive Grenades (2 frag)")
    assert has_equipment(w, "A", "combat knives")
    assert has_equipment(w, "A", "Explosive Grenades")  # an option by its name, any split
    assert not has_equipment(w, "A", "Lucky Charm")
    assert selected_equipment(w, "B") == () and not has_equipment(w, "B", "Combat Knives")


def _melee(s: GameState, op_id: str) -> list[str]:
    return [name for name, _, _ in weapons_of(Work(s), op_id, "melee")]


def test_give_weapons_once_selected_to_the_operatives_the_rule_names() -> None:
    with_knives = _knife_position(("Combat Knives",))
    assert "combat knife" in _melee(with_knives, "EQP-1")
    assert "combat knife" not in _melee(with_knives, "EQP-2")  # the rule names EQP-1 only
    assert weapons_of(Work(with_knives), "EQP-1", "ranged") == weapons_of(
        Work(_knife_position(())), "EQP-1", "ranged"
    )
    without = _knife_position(())
    assert "combat knife" not in _melee(without, "EQP-1")


def test_a_given_weapon_is_used_in_a_fight() -> None:
    s = position(
        LAB,
        roster(EQP, ("Trooper",)),
        roster(BLU, ("Trooper",)),
        operatives={"EQP-1": {"at": (10, 5)}, "BLU-1": {"at": (11.3, 5)}},
        equipment={"A": ("Combat Knives",)},
    )
    s, _ = s.apply("Activate EQP-1 engage")
    fights = [str(a) for a in s.legal_actions() if a.verb == "Fight"]
    assert "Fight EQP-1 combat knife at BLU-1" in fights, fights


# -------------------------------------------------------------------------------------------
# Agents
# -------------------------------------------------------------------------------------------


def test_heuristic_values_team_equipment_by_its_registered_value() -> None:
    assert equipment_value("eqp/equipment/combat_knives") == DEFAULT_EQUIPMENT_VALUE
    assert equipment_value("eqp/equipment/lucky_charm") == -1
    s = to_selection()
    values = equipment_values(Work(s), "A")
    assert values["combat knives"] == DEFAULT_EQUIPMENT_VALUE
    assert values["explosive grenades (frag and krak)"] == 4.0
    picks: list[str] = []
    while s.node == Decision("A", "equipment"):
        a = select_equipment(Work(s), "A", s.legal_actions())
        picks.append(a.text)
        s, _ = s.apply(a)
    # Both grenade options, then the team's knives (2.5) before the Ammo Cache (2); the
    # Lucky Charm (negative) never.
    assert picks == [
        "explosive grenades (frag and krak)",
        "utility grenades (smoke and stun)",
        "combat knives",
        "ammo cache",
    ]


def test_heuristic_leaves_out_team_equipment_no_module_plays() -> None:
    s = to_selection(a=attrs.evolve(EQP, id="eqp_unplayed"))
    values = equipment_values(Work(s), "A")
    assert "combat knives" not in values and "lucky charm" not in values


def test_random_agent_can_pick_team_equipment() -> None:
    s = to_selection()
    seen = {RandomAgent(seed).act(s).text for seed in range(40)}
    assert {"combat knives", "lucky charm"} <= seen


# -------------------------------------------------------------------------------------------
# The command line and matchups
# -------------------------------------------------------------------------------------------


def test_parse_equipment_accepts_the_teams_own_names() -> None:
    own = ("Combat Daggers", "Foregrip")
    assert parse_equipment("combat daggers,Mines", own) == ("Combat Daggers", "Mines")
    with pytest.raises(BattleError, match="not a Kasrkin or universal equipment option"):
        parse_equipment("Warded Armour", own, "Kasrkin or")
    with pytest.raises(BattleError, match="not a universal equipment option"):
        parse_equipment("combat daggers")


def test_matchup_checks_team_equipment_per_team() -> None:
    m = make_matchup(
        MatchupChoice(
            teams=("kasrkin", "legionaries"), equipment=("combat daggers, mines", "warded armour")
        )
    )
    assert dict(m.options.equipment) == {
        "A": ("Combat Daggers", "Mines"),
        "B": ("Warded Armour",),
    }
    with pytest.raises(BattleError, match="player B: equipment 'Combat Daggers': not a Legion"):
        make_matchup(
            MatchupChoice(teams=("kasrkin", "legionaries"), equipment=(None, "Combat Daggers"))
        )


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_bad_team_equipment_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(
        capsys, "play", "--teams", "kasrkin", "legionaries", "--equipment-b", "Combat Daggers"
    )
    assert code == 2 and out == ""
    assert "Combat Daggers" in err and "Legionaries" in err
    code, out, err = _run(capsys, "play", "--equipment-a", "Combat Spoons")
    assert code == 2 and "--equipment-a" in err and "Combat Spoons" in err


def test_cli_play_json_names_team_equipment(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(
        capsys,
        "play",
        "--teams",
        "kasrkin",
        "legionaries",
        "--agents",
        "random",
        "--equipment-a",
        "Combat Daggers,Foregrip",
        "--json",
        "--seed",
        "2",
    )
    assert code == 0
    assert json.loads(out)["equipment"]["A"] == ["Combat Daggers", "Foregrip"]


def test_team_file_equipment_is_offered(tmp_path: Path) -> None:
    # A team loaded from a file offers its equipment like a built-in one.
    kas = load_builtin_team("kasrkin")
    save_team(kas, tmp_path / "k.json")
    assert team_equipment(kas) == tuple(e.name for e in kas.equipment)
