"""The fields of complete scenario positions and their expectations (engine.game.scenario_file
format): each new field read into the state as written, each malformed value refused with an
error naming the file, the field's path and the value; the choices policy answering the
attack choices a script does not name."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.agents.scenario_choices import best_choice
from engine.cli import main
from engine.game.scenario_file import (
    ExpectationError,
    Scenario,
    ScenarioFileError,
    ScenarioScriptError,
    scenario_from_dict,
)
from engine.rulesets import KT24

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

HEAD = """
name = "fields"
killzone = "killzones/range.toml"
[teams.A]
team = "teams/probe.json"
operatives = ["Probe Trooper"]
[teams.B]
team = "teams/target.json"
operatives = ["Target Trooper"]
"""

OPS = """
[position.operatives.PRO-1]
at = [5, 20]
[position.operatives.TAR-1]
at = [10, 20]
"""


def _scenario(text: str) -> Scenario:
    """The scenario of ``HEAD`` and ``text``; a leading ``choices = ...`` line of ``text``
    (a top-level field) goes before the tables."""
    top = ""
    if text.startswith("choices"):
        top, text = text.split("\n", 1)
        top += "\n"
    data: dict[str, Any] = tomllib.loads(top + HEAD + text)
    return scenario_from_dict(data, source="probe.toml", base=SCENARIOS)


def _refused(text: str, *fragments: str) -> None:
    """Loading (or starting) the scenario fails with a message naming every fragment."""
    with pytest.raises(ScenarioFileError) as err:
        _scenario(text).start(ruleset=KT24)
    msg = str(err.value)
    assert msg.startswith("probe.toml"), msg
    for f in fragments:
        assert f in msg, (f, msg)


# -- phases and steps -------------------------------------------------------------------------


def test_phase_must_be_a_phase_of_the_game() -> None:
    """1.2-1.5 name set-up, deployment, Strategy, Firefight and the turning point's end."""
    _refused('[position]\nphase = "lunch"\n' + OPS, "position.phase", "'lunch'", "strategy")


def test_step_must_belong_to_its_phase() -> None:
    """The Gambit step is part of the Strategy phase, not of the Firefight phase."""
    _refused('[position]\nstep = "gambit"\n' + OPS, "position.step", "'gambit'", "firefight")


def test_initiative_roll_only_in_the_initiative_step() -> None:
    """1.4: the initiative roll-off is made in the initiative step only."""
    _refused(
        '[position]\nphase = "strategy"\nstep = "gambit"\ninitiative_roll = [4, 2]\n' + OPS,
        "position.initiative_roll",
    )
    _refused(
        '[position]\nphase = "strategy"\ninitiative_roll = [7, 2]\n' + OPS,
        "position.initiative_roll[0]",
        "1 to 6",
    )


def test_turn_only_in_the_firefight_phase() -> None:
    """1.5: whose turn it is to activate exists in the Firefight phase only."""
    _refused('[position]\nphase = "end"\nturn = "B"\n' + OPS, "position.turn", "end")


def test_setup_phase_has_no_operatives_and_no_turning_point() -> None:
    """1.2: nothing is set up, and no turning point has begun, before the roll-off."""
    _refused('[position]\nphase = "setup"\n' + OPS, "position.operatives", "roll-off")
    _refused('[position]\nphase = "setup"\ntp = 2\n', "position.tp", "before the first")
    state = _scenario('[position]\nphase = "setup"\n').start(ruleset=KT24)
    assert state.phase == "setup" and state.tp == 0
    assert not any(o.placed for o in state.operatives)


def test_deployment_without_operatives_is_the_first_deployment_turn() -> None:
    """1.2: the initiative player (A by default) sets up first."""
    sc = _scenario('[options]\nmission = "kill_op"\n[position]\nphase = "deployment"\n')
    state = sc.start(ruleset=KT24)
    assert str(state.node) == "Decision(player='A', kind='deploy')"


# -- players, effects, mission ----------------------------------------------------------------


def test_players_table_sets_cards_ploys_and_counters() -> None:
    """The players' counters are the state's (PlayerState fields) as written."""
    sc = _scenario(
        "[position]\n"
        '[position.players.B]\ncards = ["re-roll", "2"]\nuses = { "k" = 2 }\ncp_spent = 3\n'
        "kill_grade = 1\n" + OPS
    )
    b = sc.start(ruleset=KT24).players[1]
    assert b.cards == ("2", "re-roll") and b.uses == (("k", 2),)
    assert b.cp_spent == 3 and b.kill_grade == 1


def test_players_table_refuses_a_card_that_does_not_exist() -> None:
    """Approved Ops 2025 has the re-roll card and the cards of TP1-3 (1, 2, 3) only."""
    _refused(
        '[position]\n[position.players.A]\ncards = ["4"]\n' + OPS,
        "position.players.A.cards[1]",
        "'4'",
        "re-roll",
    )


def test_players_table_refuses_a_ploy_the_player_does_not_have() -> None:
    """A ploy used this turning point must be one of the player's ploys (7.1)."""
    _refused(
        '[position]\n[position.players.A]\nploys_used = ["Take Cover"]\n' + OPS,
        "position",
        "players.A.ploys_used",
        "'Take Cover'",
    )


def test_effects_are_in_force_as_written() -> None:
    """An effect in force is the state's Effect, field for field (default until: end_tp)."""
    sc = _scenario(
        "[position]\n[[position.effects]]\n"
        'kind = "stun"\nop = "TAR-1"\nvalue = -1\nsource = "PRO-1"\n' + OPS
    )
    (e,) = sc.start(ruleset=KT24).effects
    assert (e.kind, e.op, e.until, e.value, e.source) == ("stun", "TAR-1", "end_tp", -1, "PRO-1")


def test_effects_refuse_bad_values() -> None:
    """An effect names its operative or player; its duration is one the engine knows; its
    operative exists."""
    _refused(
        '[position]\n[[position.effects]]\nkind = "x"\nop = "TAR-1"\nuntil = "soon"\n' + OPS,
        "position.effects[0].until",
        "'soon'",
    )
    _refused('[position]\n[[position.effects]]\nkind = "x"\n' + OPS, "position.effects[0]", "op")
    _refused(
        '[position]\n[[position.effects]]\nkind = "x"\nop = "ZZZ-9"\n' + OPS,
        "effects[0].op",
        "'ZZZ-9'",
    )


def test_mission_table_sets_vp_and_facts() -> None:
    """VP by op is the mission's; the players' VP default to their sum; a fact's list is
    kept as a tuple (hashable, as the op modules keep it)."""
    sc = _scenario(
        "[position]\n[position.mission]\nvp = { crit = [2, 1], tac = [1, 0] }\n"
        '[position.mission.facts]\n"Op:x" = [1, "a"]\n' + OPS
    )
    s = sc.start(ruleset=KT24)
    assert (s.players[0].vp, s.players[1].vp) == (3, 1)
    assert s.mission.op_vp("crit", "B") == 1
    assert s.mission.fact("Op:x") == (1, "a")


def test_mission_table_refuses_revealing_a_tac_op_never_selected() -> None:
    """8.4: only a selected tac op can be revealed."""
    _refused(
        "[position]\n[position.mission]\ntac_revealed = { A = true }\n" + OPS,
        "mission.tac_revealed.A",
        "no tac op",
    )
    _refused(
        "[position]\n[position.mission]\nvp = { bonus = [1, 0] }\n" + OPS,
        "position.mission.vp",
        "'bonus'",
    )


def test_operative_counters() -> None:
    """AP left, Limited uses, an On Guard interrupt made, a casualty: the operatives'
    fields as written; a casualty is not on the killzone."""
    sc = _scenario(
        "[position]\n[position.operatives.PRO-1]\nat = [5, 20]\nap = 1\ninterrupted = true\n"
        'limited = { "Blaster" = 1 }\n[position.operatives.TAR-1]\nincapacitated = true\n'
    )
    s = sc.start(ruleset=KT24)
    pro, tar = s.operative("PRO-1"), s.operative("TAR-1")
    assert pro.ap == 1 and pro.interrupted and pro.limited == (("Blaster", 1),)
    assert tar.incapacitated and not tar.placed
    _refused(
        "[position]\n[position.operatives.TAR-1]\nincapacitated = true\nat = [5, 5]\n"
        "[position.operatives.PRO-1]\nat = [5, 20]\n",
        "position.operatives.TAR-1",
        "no other field",
    )
    _refused(
        "[position]\n[position.operatives.PRO-1]\nat = [5, 20]\nap = -1\n",
        "position.operatives.PRO-1.ap",
        "-1",
    )


def test_options_op_names_do_not_replace_the_scenario_name() -> None:
    """Reading options.tac_ops once replaced the scenario's own name by the last op name."""
    sc = _scenario('[options]\ntac_ops = { A = "Martyrs" }\n[position]\n' + OPS)
    assert sc.name == "fields"


# -- expectations -----------------------------------------------------------------------------


def _run(text: str) -> None:
    _scenario(text).run(ruleset=KT24, chooser=best_choice)


def test_control_expectation() -> None:
    """4.8: the Target Trooper alone within control range of the centre marker (22, 20)
    controls it for B; a wrong expectation is reported with what was found."""
    ops = "[position.operatives.TAR-1]\nat = [23, 20]\n[position.operatives.PRO-1]\nat = [5, 5]\n"
    _run("[position]\n" + ops + '[expect]\ncontrol = { centre = "B" }\n')
    with pytest.raises(ExpectationError, match=r"control\.centre: expected 'A', controlled by 'B'"):
        _run("[position]\n" + ops + '[expect]\ncontrol = { centre = "A" }\n')
    with pytest.raises(ExpectationError, match=r"control\.west: no such marker"):
        _run("[position]\n" + ops + '[expect]\ncontrol = { west = "" }\n')
    _refused(
        "[position]\n" + ops + '[expect]\ncontrol = { centre = "C" }\n', "expect.control.centre"
    )


def test_ap_expectation() -> None:
    """An operative activated with APL 2 has 2AP left before any action."""
    _run(
        "[position]\n" + OPS + '[[steps]]\nactions = ["Activate PRO-1 engage"]\n'
        "[steps.expect.operatives.PRO-1]\nap = 2\n"
    )
    with pytest.raises(ExpectationError, match=r"operatives\.PRO-1\.ap: expected 1, got 2"):
        _run(
            "[position]\n" + OPS + '[[steps]]\nactions = ["Activate PRO-1 engage"]\n'
            "[steps.expect.operatives.PRO-1]\nap = 1\n"
        )


def test_sees_expectation() -> None:
    """8.4: a tac op is secret until revealed: the opponent sees "?"; a wrong expectation
    names the viewer and what it sees."""
    head = '[options]\ntac_ops = { A = "Martyrs" }\n[position]\n' + OPS
    _run(head + '[expect]\nsees = { B = { tac_ops = ["?", ""] }, A = { hidden = [] } }\n')
    with pytest.raises(ExpectationError, match=r"sees\.B\.tac_ops: expected \['Martyrs', ''\]"):
        _run(head + '[expect]\nsees = { B = { tac_ops = ["Martyrs", ""] } }\n')
    _refused(head + '[expect]\nsees = { B = { tac_ops = ["?"] } }\n', "expect.sees.B.tac_ops")


def test_rejected_option_expectation() -> None:
    """An option the engine accepts is reported when it was expected to be refused; an
    unknown option name is refused at load."""
    with pytest.raises(ExpectationError, match="accepted"):
        _run(
            "[position]\n"
            + OPS
            + "[expect]\nrejected_option = [{ options = { close_quarters = true } }]\n"
        )
    _refused(
        "[position]\n" + OPS + "[expect]\nrejected_option = [{ options = { colour = 1 } }]\n",
        "expect.rejected_option[1].options",
        "colour",
    )


def test_tp_phase_initiative_expectations() -> None:
    """A Firefight position of turning point 2 with B's initiative says so."""
    _run(
        '[position]\ntp = 2\ninitiative = "B"\n'
        + OPS
        + '[expect]\ntp = 2\nphase = "firefight"\ninitiative = "B"\n'
    )
    with pytest.raises(ExpectationError, match="tp: expected 3, got 2"):
        _run("[position]\ntp = 2\n" + OPS + "[expect]\ntp = 3\n")


# -- the choices policy -----------------------------------------------------------------------

SHOT = (
    "[position]\ncp = [0, 0]\n[position.operatives.PRO-1]\nat = [5, 20]\n"
    "[position.operatives.TAR-1]\nat = [10, 20]\nready = false\ncounteracted = true\n"
    '[[steps]]\nactions = ["Activate PRO-1 engage", "Shoot PRO-1 accurate gun at TAR-1"]\n'
)


def test_choices_must_be_a_policy() -> None:
    _refused('choices = "sometimes"\n' + SHOT, "choices", "'sometimes'", "decline")


def test_choices_ask_needs_the_script_to_name_the_choice() -> None:
    """Accurate 1 (6) is a "may": the engine asks it, and with "ask" (the default) a script
    that does not name it has its next roll refused at that decision."""
    with pytest.raises(ScenarioScriptError, match="accurate"):
        _run(SHOT + 'dice = ["6,5,4,1", "6,5,1"]\n')


def test_choices_decline_rolls_every_attack_die() -> None:
    """Declining Accurate retains nothing: all four attack dice are rolled (a 4-dice roll is
    accepted, and a 3-dice roll is refused as the wrong size)."""
    _run('choices = "decline"\n' + SHOT + 'dice = ["6,5,4,1", "6,5,1"]\n')
    with pytest.raises(ScenarioScriptError, match="4 dice"):
        _run('choices = "decline"\n' + SHOT + 'dice = ["6,5,4", "6,5,1"]\n')


def test_choices_best_retains_the_accurate_die() -> None:
    """Against Hit 3+, a die retained as a normal success (3 damage, sure) is worth more
    than a rolled one (3 x 3/6 + 4 x 1/6 = 2.17 expected damage): the dice core's best
    choice is Accurate 1, so three attack dice are rolled."""
    _run('choices = "best"\n' + SHOT + 'dice = ["6,5,4", "6,5,1"]\n')


def test_choices_best_needs_the_chooser() -> None:
    """The dice core's valuation is above engine.game: a run without the chooser refuses."""
    sc = _scenario('choices = "best"\n' + SHOT + 'dice = ["6,5,4", "6,5,1"]\n')
    with pytest.raises(ScenarioFileError, match="best_choice"):
        sc.run(ruleset=KT24)


def test_choices_policy_leaves_a_named_choice_to_the_script() -> None:
    """A choice the script names is the script's: "Accurate 1" named under "decline" retains
    one die (three rolled)."""
    _run(
        'choices = "decline"\n'
        + SHOT.replace('at TAR-1"]', 'at TAR-1", "Accurate 1"]')
        + 'dice = ["6,5,4", "6,5,1"]\n'
    )


def test_replay_command_answers_best_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``killteam replay`` hands the dice core's chooser to the run: a "best" scenario whose
    script names no Accurate choice replays (Accurate 1 retained: three attack dice)."""
    (tmp_path / "teams").mkdir()
    for team in ("probe", "target"):
        src = SCENARIOS / "teams" / f"{team}.json"
        (tmp_path / "teams" / f"{team}.json").write_text(src.read_text(encoding="utf-8"))
    (tmp_path / "killzones").mkdir()
    kz = (SCENARIOS / "killzones" / "range.toml").read_text(encoding="utf-8")
    (tmp_path / "killzones" / "range.toml").write_text(kz)
    path = tmp_path / "best.toml"
    path.write_text(
        'choices = "best"\n' + HEAD + SHOT + 'dice = ["6,5,4", "6,5,1"]\n', encoding="utf-8"
    )
    capsys.readouterr()
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "scenario OK" in out


# -- tokens the rule modules build ------------------------------------------------------------


def _file_data(name: str) -> dict[str, Any]:
    return tomllib.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def test_grisly_marker_token_decides_the_tie() -> None:
    """Grisly Mark: B's two APL 2 operatives near A's Grisly marker count 4 - 1 = 3 against
    the Legionary Warrior's 3 (a tie: nobody controls the centre); the same position without
    the marker is B's (4 against 3)."""
    data = _file_data("position_grisly_marker_lowers_enemy_control.toml")
    with_marker = scenario_from_dict(data, source="grisly.toml", base=SCENARIOS)
    with_marker.run(ruleset=KT24)
    del data["position"]["tokens"]
    data["steps"][0]["expect"] = {"control": {"centre": "B"}, "tokens": []}
    scenario_from_dict(data, source="grisly.toml", base=SCENARIOS).run(ruleset=KT24)


def test_grisly_marker_one_per_player() -> None:
    """Grisly Mark: one marker per player (placing it again moves it)."""
    data = _file_data("position_grisly_marker_lowers_enemy_control.toml")
    data["position"]["tokens"].append({"kind": "grisly", "owner": "A", "at": [5, 5]})
    with pytest.raises(ScenarioFileError, match=r"tokens\[1\].*one per player"):
        scenario_from_dict(data, source="grisly.toml", base=SCENARIOS).start(ruleset=KT24)


HIEROTEK = """
name = "reanimation marker"
killzone = "killzones/team_range.toml"
[teams.A]
team = "hierotek_circle"
[teams.B]
team = "teams/target.json"
operatives = ["Target Trooper"]
[position]
[[position.tokens]]
kind = "reanimation"
at = [4, 10]
"""


def test_reanimation_marker_token_names_its_operative() -> None:
    """Reanimation: a marker is placed for one incapacitated operative and named after it
    (the rule finds an operative's marker by that name); a name that is not one of the
    owner's operatives is refused, and so is a name for a token whose rule names it."""
    ops = (
        "[position.operatives.HIE-1]\nat = [3, 3]\n"
        "[position.operatives.HIE-4]\nincapacitated = true\n"
    )
    good = tomllib.loads(HIEROTEK + 'name = "reanimation HIE-4"\n' + ops)
    s = scenario_from_dict(good, source="h.toml", base=SCENARIOS).start(ruleset=KT24)
    assert [(t.kind, t.name, t.owner) for t in s.tokens] == [
        ("reanimation", "reanimation HIE-4", "A")
    ]
    bad = tomllib.loads(HIEROTEK + 'name = "reanimation TAR-1"\n' + ops)
    with pytest.raises(ScenarioFileError, match="not 'reanimation TAR-1'"):
        scenario_from_dict(bad, source="h.toml", base=SCENARIOS).start(ruleset=KT24)
    named = tomllib.loads(HIEROTEK + 'name = "reanimation HIE-4"\n' + ops)
    named["position"]["tokens"].append({"kind": "mines", "at": [12, 12], "name": "x"})
    with pytest.raises(ScenarioFileError, match=r"tokens\[1\].name: a mines token takes no name"):
        scenario_from_dict(named, source="h.toml", base=SCENARIOS).start(ruleset=KT24)


def test_smoke_marker_token_with_its_counters() -> None:
    """7.2 Smoke Grenade: a smoke marker already on the killzone, its D3 rolled in turning
    point 1 with 2 turning points left (the counters the grenade rule keeps on it)."""
    data = tomllib.loads(HEAD + OPS)
    data["position"]["tokens"] = [
        {"kind": "smoke", "owner": "B", "at": [12, 20], "counters": {"rolled": 1, "left": 2}}
    ]
    s = scenario_from_dict(data, source="s.toml", base=SCENARIOS).start(ruleset=KT24)
    (t,) = s.tokens
    assert (t.kind, t.name, t.owner) == ("smoke", "B smoke 1", "B")
    assert t.counters == (("left", 2), ("rolled", 1))
    data["position"]["tokens"][0]["counters"] = {"left": -1}
    with pytest.raises(ScenarioFileError, match=r"position.tokens\[0\].counters.left"):
        scenario_from_dict(data, source="s.toml", base=SCENARIOS)
