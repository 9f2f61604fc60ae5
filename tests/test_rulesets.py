"""Rulesets as composition roots (DESIGN.md "Rulesets"): a battle is created under a ruleset
(:mod:`engine.rulesets`), which installs the rules the core does not name; the battle keeps
it, and a record of one ruleset never replays under another.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from engine.game.context import GameOptions, GameOptionsError
from engine.game.record import GameRecorder, RecordFormatError, make_header, replay_record
from engine.game.record_format import dumps_line
from engine.game.setup import SetupError, start_battle
from engine.game.state import Chance, Decision
from engine.play.battle import play_battle
from engine.play.matchup import Matchup, MatchupChoice, make_matchup
from engine.rulesets import KT21, KT24, RULESETS, UnknownRulesetError, get, new_game, position

ROOT = Path(__file__).resolve().parent.parent
PINNED = ROOT / "tests" / "data" / "kt24_battle_records.json"


def _matchup() -> Matchup:
    return make_matchup(MatchupChoice(killzone="open_ruins", agents="random"))


def test_kt24_plays_a_pinned_battle_to_its_pinned_hash() -> None:
    """The KT24 composition root installs exactly the rules the core installed before
    rulesets existed: a battle started with :func:`engine.rulesets.new_game` ends on the hash
    pinned before issue 28 (tests/data/kt24_battle_records.json)."""
    m = _matchup()
    start = new_game(m.killzone, m.rosters[0], m.rosters[1], m.options)
    final, _ = play_battle(m, 3, start=start)
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))["open_ruins-random-3"]
    assert final.hash() == pinned["final_hash"]
    assert final.step == pinned["steps"]


def test_new_game_is_the_kt24_start_battle() -> None:
    """``engine.rulesets.new_game`` picks the ruleset the options name (KT24 by default) and
    gives the same battle as starting it under that ruleset explicitly."""
    m = _matchup()
    a = new_game(m.killzone, m.rosters[0], m.rosters[1])
    b = start_battle(m.killzone, m.rosters[0], m.rosters[1], None, KT24)
    assert a.hash() == b.hash()
    assert RULESETS["kt24"] is KT24 and get("kt24") is KT24


def test_a_battle_keeps_its_ruleset() -> None:
    """Every state of a battle reaches its ruleset through the context (the core imports no
    ruleset): after set-up, after an input and in a scripted position."""
    m = _matchup()
    s = new_game(m.killzone, m.rosters[0], m.rosters[1])
    assert s.ctx.rules.ruleset is KT24
    after, _ = s.apply(s.legal_actions()[0])
    assert after.ctx.rules.ruleset is KT24
    p = position(m.killzone, m.rosters[0], m.rosters[1], operatives={})
    assert p.ctx.rules.ruleset is KT24


def test_an_unknown_ruleset_is_refused_naming_it() -> None:
    """Asking for a ruleset the engine does not play names it and the known ones; options
    naming one are refused too (before any battle)."""
    known = r"unknown ruleset 'kt99' \(known: kt18, kt21, kt24\)"
    with pytest.raises(UnknownRulesetError, match=known):
        get("kt99")
    with pytest.raises(GameOptionsError, match="kt99"):
        GameOptions(ruleset="kt99")


def test_a_battle_is_refused_under_a_ruleset_its_options_do_not_name() -> None:
    """The options name the ruleset; starting the battle under another is an error (the
    records name the options' ruleset, so a battle must be of it)."""
    m = _matchup()
    other = attrs.evolve(KT24, name="kt21")
    with pytest.raises(SetupError, match=r"'kt24' but the battle is started under .*'kt21'"):
        start_battle(m.killzone, m.rosters[0], m.rosters[1], GameOptions(), other)


def _record_lines() -> list[str]:
    """A KT24 record of the first inputs of a battle (no result line: a battle under way)."""
    m = _matchup()
    s = new_game(m.killzone, m.rosters[0], m.rosters[1])
    recorder = GameRecorder(make_header(s, seed=1, agents={"A": "random", "B": "random"}))
    for _ in range(3):
        node = s.node
        actor = (
            "chance"
            if isinstance(node, Chance)
            else node.player
            if isinstance(node, Decision)
            else "-"
        )
        action = s.legal_actions()[0]
        after, events = s.apply(action)
        recorder.on_step(s, action, actor, after, events)
        s = after
    return recorder.lines


def test_a_record_of_one_ruleset_is_refused_under_another() -> None:
    """A KT24 record replayed under another ruleset is refused at its header, naming both
    rulesets; a header naming a ruleset the engine does not play is refused too."""
    lines = _record_lines()
    with pytest.raises(RecordFormatError, match=r"field 'ruleset'.*'kt24'.*'kt21'"):
        replay_record(lines, ruleset=KT21)
    header = json.loads(lines[0])
    header["ruleset"] = "kt99"
    with pytest.raises(RecordFormatError, match=r"field 'ruleset': unknown ruleset 'kt99'"):
        replay_record([dumps_line(header), *lines[1:]], ruleset=KT24)


def test_the_core_imports_no_rule_module() -> None:
    """The core (``engine/game``) names no rule module, mission, ruleset or anything above
    it, not even inside a function or for types only: the rules reach a battle through the
    ruleset it is started under."""
    upward = (
        "engine.rules",
        "engine.missions",
        "engine.rulesets",
        "engine.agents",
        "engine.play",
        "engine.batch",
        "engine.verify",
        "engine.cli",
        "teams",
    )
    found = []
    for path in sorted((ROOT / "engine" / "game").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                if any(name == u or name.startswith(u + ".") for u in upward):
                    found.append(f"{path.name}:{node.lineno} {name}")
    assert found == []


def test_rule_code_found_without_importing_a_ruleset_first() -> None:
    """The team model and the rule registry import nothing above them, yet a program that
    only reads teams (no battle, no ``engine.rulesets`` import) must still know the Mark of
    Chaos choice the Legionaries' rules declare, and the registry the Kasrkin's rules: the
    installed ``kt24`` rule package announces its loader through the ``killteam.rules`` entry
    point group (pyproject.toml), found in a fresh process."""
    code = (
        "import sys\n"
        "from engine.teams.choices import specs_of\n"
        "from engine.rules.registry import implementation\n"
        "names = [s.name for s in specs_of('legionaries')]\n"
        "found = implementation('kasrkin/unique_action/battle_comms') is not None\n"
        "print(names, found)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "['Mark of Chaos'] True"


def test_one_list_of_ruleset_names() -> None:
    """The names game options and record headers accept are exactly the rulesets
    ``engine.rulesets`` composes, and the engine's default is one of them: a ruleset added
    to one list and not the other would be accepted and then fail (or never be reachable)."""
    from engine import RULESET
    from engine.game import context, record_format

    assert record_format.RULESETS is context.RULESETS
    assert set(context.RULESETS) == set(RULESETS)
    assert RULESET in RULESETS
