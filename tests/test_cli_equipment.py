"""Universal equipment and ploys on the command line: ``--equipment-a``/``--equipment-b`` of
``killteam play`` and ``killteam batch`` (``rules/KT24.md`` 7.2: up to four options, each at
most once), and the ``ploys_used`` and ``equipment`` keys of ``play --json``, ``replay --json``
and each ``batch --out`` line (ploys of 7.1 counted from the battle's events).

The expected ploy counts are never taken from the code under test: they are counted from the
inputs the agents gave (each ``Command re-roll`` action is one use of the Command Re-roll
ploy) and from the ``cp_spent`` events (Command Re-roll costs 1CP, so one event per use).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from engine.cli import main
from engine.game.actions import Action
from engine.game.events import Event, narrate
from engine.game.state import GameState
from engine.play import BattleError
from engine.play.battle import play_battle
from engine.play.matchup import MatchupChoice, make_matchup, parse_equipment
from engine.play.summary import PLOY_KINDS, PloyTally, summarise
from engine.rules.equipment import MAX_OPTIONS, SELECTIONS


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``killteam ARGS`` in this process: the exit status and standard output and error."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -------------------------------------------------------------------------------------------
# Parsing a selection
# -------------------------------------------------------------------------------------------


def test_equipment_selection_names_are_case_insensitive_and_canonical() -> None:
    # 7.2: the names of the equipment sheet; the grenade options carry their split.
    assert parse_equipment("explosive grenades (2 FRAG), mines") == (
        "Explosive Grenades (2 frag)",
        "Mines",
    )
    assert parse_equipment("  Utility   Grenades (smoke and stun)") == (
        "Utility Grenades (smoke and stun)",
    )
    # The order given is kept (it is the selection order of the player's state).
    assert parse_equipment("Mines,Ammo Cache") == ("Mines", "Ammo Cache")
    # "none" is an empty selection, in any case.
    assert parse_equipment("none") == ()
    assert parse_equipment(" NONE ") == ()
    # Every selection the engine knows parses to itself.
    for name in SELECTIONS:
        assert parse_equipment(name.upper()) == (name,)


def test_equipment_selection_of_four_options_is_allowed() -> None:
    # 7.2: a player selects up to four options (MAX_OPTIONS).
    four = "Ammo Cache,Razor Wire,Comms Device,Explosive Grenades (frag and krak)"
    assert MAX_OPTIONS == 4
    assert len(parse_equipment(four)) == 4


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Foo", ["'Foo'", "not a universal equipment option", "Ammo Cache", "none"]),
        ("Mines,Foo", ["'Foo'", "Explosive Grenades (2 frag)"]),
        ("Explosive Grenades", ["split", "Explosive Grenades (2 krak)"]),
        ("utility grenades", ["split", "Utility Grenades (2 smoke)"]),
        ("Mines,mines", ["Mines selected twice", "7.2"]),
        # A grenade option is one option whatever its split (7.2: each option once).
        (
            "Explosive Grenades (2 frag),Explosive Grenades (2 krak)",
            ["Explosive Grenades selected twice"],
        ),
        ("Ammo Cache,Razor Wire,Comms Device,Mines,Ladders", ["5 options", "at most 4"]),
        ("Mines,", ["empty name"]),
        ("", ["empty name"]),
    ],
)
def test_equipment_selection_bad_names_are_refused(text: str, words: list[str]) -> None:
    with pytest.raises(BattleError) as info:
        parse_equipment(text)
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_equipment_selection_reaches_the_game_options() -> None:
    # Only the players given are fixed; the other's agent chooses (no entry).
    m = make_matchup(MatchupChoice(equipment=("mines, explosive grenades (2 krak)", None)))
    assert m.options.equipment == (("A", ("Mines", "Explosive Grenades (2 krak)")),)
    m = make_matchup(MatchupChoice(equipment=(None, "none")))
    assert m.options.equipment == (("B", ()),)
    assert make_matchup().options.equipment == ()
    with pytest.raises(BattleError, match="player B: equipment 'Nothing'"):
        make_matchup(MatchupChoice(equipment=(None, "Nothing")))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "--equipment-a", "Foo"], ["--equipment-a", "'Foo'", "Mines"]),
        (["play", "--equipment-b", "Mines,Mines"], ["--equipment-b", "twice"]),
        (["play", "--equipment-a", "Explosive Grenades"], ["--equipment-a", "split"]),
        (["batch", "--equipment-b", "Ladder"], ["--equipment-b", "'Ladder'", "Ladders"]),
        (
            ["batch", "--equipment-a", "Ammo Cache,Razor Wire,Comms Device,Mines,Ladders"],
            ["--equipment-a", "at most 4"],
        ),
    ],
)
def test_bad_equipment_options_exit_2_with_one_line(
    args: list[str],
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A usage error like every other bad option: status 2, one line, nothing played.
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    for w in words:
        assert w in err, (w, err)


# -------------------------------------------------------------------------------------------
# ploys_used and equipment in the summaries
# -------------------------------------------------------------------------------------------


def _event(kind: str, **data: Any) -> Event:
    return Event.make(kind, **data)


def test_ploy_tally_counts_ploys_not_other_gambits() -> None:
    # 7.1: strategy and firefight ploys are ploys; a "rule" gambit paid the same way is not.
    assert PLOY_KINDS == ("strategy", "firefight")
    tally = PloyTally()
    events = [
        _event("ploy_used", player="A", ploy="Command Re-roll", ploy_kind="firefight", cp=1),
        _event("ploy_used", player="A", ploy="Command Re-roll", ploy_kind="firefight", cp=1),
        _event("ploy_used", player="B", ploy="Plan B", ploy_kind="strategy", cp=0),
        _event("ploy_used", player="B", ploy="Team Trick", ploy_kind="rule", cp=1),
        _event("cp_spent", player="A", cp=1, ploy="Command Re-roll"),
    ]
    state: Any = None
    tally.on_step(state, Action("Pass"), "A", state, events)
    assert tally.counts("A") == (("Command Re-roll", 2),)
    assert tally.counts("B") == (("Plan B", 1),)


def _played_with_counts(seed: int) -> tuple[Any, dict[str, dict[str, int]], dict[str, int]]:
    """The default battle with ``seed``: its summary, the strategy and firefight ploys used
    per player and ploy (``ploy_used`` events, Command Re-roll included), and the ``Command
    re-roll`` inputs per player."""
    used: dict[str, dict[str, int]] = {"A": {}, "B": {}}
    rerolls = {"A": 0, "B": 0}

    def on_step(
        before: GameState, action: Action, actor: str, after: GameState, events: list[Event]
    ) -> None:
        if action.verb == "Command re-roll":
            rerolls[actor] += 1
        for e in events:
            if e.kind == "ploy_used" and e.get("ploy_kind") in PLOY_KINDS:
                mine = used[e["player"]]
                mine[e["ploy"]] = mine.get(e["ploy"], 0) + 1

    _, summary = play_battle(make_matchup(), seed, on_step=on_step)
    return summary, used, rerolls


def test_play_json_counts_command_rerolls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    summary, used, rerolls = _played_with_counts(1)
    # The default battle (seed 1) uses Command Re-roll on both sides; each input is one use.
    assert rerolls["A"] > 0 and rerolls["B"] > 0
    assert all(used[p]["Command Re-roll"] == rerolls[p] for p in ("A", "B"))
    # The summary counts every strategy and firefight ploy used (team ploys too, issue 16).
    want = used
    assert summary.to_json()["ploys_used"] == want
    # No equipment is fixed and the default battle's final state lists what was selected.
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(capsys, "play", "--json", "--record", "g.jsonl")
    assert code == 0
    data = json.loads(out)
    assert data["ploys_used"] == want
    assert data["hash"] == summary.hash
    assert set(data["equipment"]) == {"A", "B"}
    # The replay counts the same ploys from the recorded inputs.
    code, out, _ = _run(capsys, "replay", "g.jsonl", "--json")
    assert code == 0
    replayed = json.loads(out)
    assert replayed["ploys_used"] == want
    assert replayed["equipment"] == data["equipment"]


def test_summary_equipment_is_the_final_states_selection() -> None:
    # The summary lists state.player(p).equipment (7.2), canonical names in selection order.
    start = make_matchup().new_game()
    players = (
        attrs.evolve(start.players[0], equipment=("Mines", "Explosive Grenades (2 frag)")),
        attrs.evolve(start.players[1], equipment=()),
    )
    final = attrs.evolve(start, players=players)
    data = summarise(final).to_json()
    assert data["equipment"] == {"A": ["Mines", "Explosive Grenades (2 frag)"], "B": []}
    assert data["ploys_used"] == {"A": {}, "B": {}}


def test_batch_out_lines_carry_ploys_and_equipment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = _run(
        capsys, "batch", "-n", "2", "--workers", "1", "--seed", "3", "--out", "r.jsonl", "-q"
    )
    assert code == 0
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        # Each line is the game played alone with its seed (engine.play docstring).
        summary, used, rerolls = _played_with_counts(line["seed"])
        assert line["hash"] == summary.hash
        assert line["ploys_used"] == used
        assert {p: used[p].get("Command Re-roll", 0) for p in ("A", "B")} == rerolls
        assert line["equipment"] == summary.to_json()["equipment"]


# -------------------------------------------------------------------------------------------
# Narration
# -------------------------------------------------------------------------------------------


def test_narration_names_ploys_and_equipment() -> None:
    # The event templates the narration falls back on for ploys and equipment.
    assert narrate(_event("cp_spent", player="A", cp=1, ploy="Plan B")) == (
        "A spends 1CP on Plan B"
    )
    # A free ploy says it is used; a paid one is named by its cp_spent line.
    assert narrate(_event("ploy_used", player="B", ploy="Plan B", cp=0)) == "B uses Plan B"
    assert narrate(_event("ploy_used", player="B", ploy="Plan B", cp=1)) == ""
    assert narrate(_event("equipment_selected", player="A", items=("Mines", "Ladders"))) == (
        "A takes Mines, Ladders"
    )
    assert narrate(_event("equipment_selected", player="B", items=())) == ("B takes no equipment")


_SELECTION_MODULE = importlib.util.find_spec("engine.rules.equipment.selection") is not None


@pytest.mark.skipif(not _SELECTION_MODULE, reason="equipment selection not in the engine yet")
def test_play_with_fixed_equipment_selects_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 7.2: the options given on the command line are the players' selections, revealed in
    # the narration and listed in the summary under their canonical names.
    monkeypatch.chdir(tmp_path)
    args = ("play", "--equipment-a", "mines,explosive grenades (2 frag)", "--equipment-b", "none")
    code, out, _ = _run(capsys, *args, "--json")
    assert code == 0
    assert json.loads(out)["equipment"] == {
        "A": ["Mines", "Explosive Grenades (2 frag)"],
        "B": [],
    }
    code, out, _ = _run(capsys, *args)
    assert code == 0
    assert "A takes Mines, Explosive Grenades (2 frag)" in out
    assert "B takes no equipment" in out
