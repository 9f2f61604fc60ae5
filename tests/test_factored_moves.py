"""Factored move decisions (issue 29 item 1): a move action is listed as its header
(``Reposition RED-5``) and its destination is a decision of its own (``destination``,
:class:`engine.game.universal.activation.DestinationFrame`); a complete move stays legal in one
step; ``Back`` when a chosen move has no destination; the record format that says so.

Positions are on the LAB killzone of ``test_game_rules_common`` (32 mm bases).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import engine.game.universal.movement as movement
from engine.agents import HeuristicAgent
from engine.game import GameState, IllegalActionError
from engine.game.actions import MOVE_VERBS, Action, format_action, parse_action
from engine.game.drivers import SeededDice, play
from engine.game.flow import check_action_shape, list_complete_actions
from engine.game.record import GameRecorder, RecordFormatError, make_header, replay
from engine.game.state import Decision
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rulesets import KT24, new_game
from engine.teams import load_builtin_team
from tests.test_game_rules_common import pos


def _activated(x: float = 5.0, order: str = "engage", enemy_x: float = 27.0) -> GameState:
    """RED-5 at (x, 14) activated with ``order``, BLU-1 at (enemy_x, 14)."""
    s = pos({"RED-5": {"at": (x, 14.0)}, "BLU-1": {"at": (enemy_x, 14.0)}})
    return s.apply(f"Activate RED-5 {order}")[0]


def _destinations(state: GameState, header: str) -> list[Action]:
    """What the destination decision opened by ``header`` lists."""
    after = state.apply(header)[0]
    assert isinstance(after.node, Decision) and after.node.kind == "destination"
    return list(after.legal_actions())


def test_a_move_action_is_listed_as_its_header_without_computing_a_destination(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Listing an action decision computes no destination (the point of the factoring):
    ``move_candidates`` is never called, and each move action whose conditions hold appears
    once, as ``Reposition RED-5`` without a point. Reposition and Dash hold out of control
    range (3.2); Fall Back needs an enemy within control range, so it is not listed."""
    s = _activated()
    calls: list[str] = []
    real = movement.move_candidates

    def counting(*args: Any, **kw: Any) -> Any:
        calls.append(args[2])
        return real(*args, **kw)

    monkeypatch.setattr(movement, "move_candidates", counting)
    listed = list(s.legal_actions())
    assert calls == []
    moves = [a for a in listed if a.verb in MOVE_VERBS]
    assert Action("Reposition", op="RED-5") in moves
    assert Action("Dash", op="RED-5") in moves
    assert all(a.point is None for a in moves)
    assert not any(a.verb == "Fall Back" for a in moves)


def test_a_charge_header_is_listed_only_with_an_enemy_within_reach() -> None:
    """A Charge must end within an enemy's control range (3.2): with the only enemy 22"
    away (more than Move + 2" plus the bases and the 1" control range) the cheap test leaves
    the Charge out; with the enemy 5" away it is listed."""
    far = _activated(enemy_x=27.0)
    assert Action("Charge", op="RED-5") not in list(far.legal_actions())
    near = _activated(enemy_x=10.0)
    assert Action("Charge", op="RED-5") in list(near.legal_actions())
    assert _destinations(near, "Charge RED-5") != [Action("Back")]


def test_choosing_a_header_opens_the_destination_decision_and_changes_nothing_else() -> None:
    """Applying the header spends nothing and moves nothing: the operative keeps its AP and
    place, the player decides the destination next; the destinations listed are exactly
    those of the complete listing (the listing before the factoring), in canonical order."""
    s = _activated()
    after = s.apply("Reposition RED-5")[0]
    node = after.node
    assert isinstance(node, Decision) and node.kind == "destination" and node.player == "A"
    assert after.operative("RED-5") == s.operative("RED-5")
    complete = [a for a in list_complete_actions(s) if a.verb == "Reposition"]
    assert complete and list(after.legal_actions()) == complete
    assert all(a.point is not None for a in complete)


def test_a_listed_destination_gives_the_state_of_the_complete_move_in_one_step() -> None:
    """Header then destination is the same move as the complete action in one step: the
    same operative state and the same events from the destination on."""
    s = _activated()
    dest = _destinations(s, "Reposition RED-5")[0]
    two, events_two = s.apply("Reposition RED-5")[0].apply(dest)
    one, events_one = s.apply(dest)
    assert two.operative("RED-5") == one.operative("RED-5")
    assert [e.kind for e in events_two] == [e.kind for e in events_one]
    assert two.stack == one.stack and two.node == one.node


def test_a_complete_move_is_legal_in_one_step_at_the_action_decision() -> None:
    """Scripts, records and the command line name complete moves: ``Reposition RED-5 to
    9,14`` (4" east, within Move 6") is legal at the action decision itself, and so is any
    exact point the move reaches, listed or not."""
    s = _activated()
    assert s.is_legal("Reposition RED-5 to 9,14")
    after = s.apply("Reposition RED-5 to 9.25,14")[0]
    assert (after.operative("RED-5").x, after.operative("RED-5").y) == (9.25, 14.0)
    assert isinstance(after.node, Decision) and after.node.kind == "action"


def test_the_destination_decision_accepts_any_exact_point_the_move_reaches() -> None:
    """At the destination decision an unlisted exact point is legal (scripted input) while
    another move's action or another operative is not."""
    at = _activated().apply("Reposition RED-5")[0]
    assert Action("Reposition", op="RED-5", point=(7.125, 14.0, 0.0)) not in list(
        at.legal_actions()
    )
    assert at.is_legal("Reposition RED-5 to 7.125,14")
    assert not at.is_legal("Dash RED-5 to 7,14")
    assert not at.is_legal("Reposition RED-5")
    assert not at.is_legal("End activation")


def test_an_illegal_destination_leaves_the_state_unchanged() -> None:
    """A destination beyond Move 6" is refused naming the rule (3.2), and the state is still
    the destination decision it was (states are immutable; the hash is unchanged)."""
    at = _activated().apply("Reposition RED-5")[0]
    before = at.hash()
    with pytest.raises(IllegalActionError, match="no legal path"):
        at.apply("Reposition RED-5 to 20,14")
    assert at.hash() == before
    assert isinstance(at.node, Decision) and at.node.kind == "destination"


def _refuse_every_reposition(hooks: Any) -> None:
    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        return why or ("no Reposition ends anywhere" if info["action"] == "Reposition" else None)

    hooks.transform("would_refuse_destination", refuse)


def test_back_is_the_only_option_when_the_chosen_move_has_no_destination() -> None:
    """A rule refusing every Reposition destination (``would_refuse_destination``) leaves
    the header listed (its conditions hold; destinations are not computed to list it); once
    chosen it has no destination, so ``Back`` is the only option: the action decision again,
    with Reposition neither listed nor accepted as a header there (no player goes round in
    circles), while Dash still is. After the next action begins it is offered again."""
    s = _activated().with_hooks(_refuse_every_reposition)
    assert Action("Reposition", op="RED-5") in list(s.legal_actions())
    at = s.apply("Reposition RED-5")[0]
    assert list(at.legal_actions()) == [Action("Back")]
    back = at.apply("Back")[0]
    assert isinstance(back.node, Decision) and back.node.kind == "action"
    assert back.operative("RED-5") == s.operative("RED-5")
    listed = list(back.legal_actions())
    assert Action("Reposition", op="RED-5") not in listed
    assert Action("Dash", op="RED-5") in listed
    assert not back.is_legal("Reposition RED-5")
    dashed = back.apply("Dash RED-5")[0]
    dest = next(a for a in dashed.legal_actions() if a.point is not None)
    moved = dashed.apply(dest)[0]
    assert Action("Reposition", op="RED-5") in list(moved.legal_actions())


def test_back_is_refused_when_the_move_has_destinations() -> None:
    """``Back`` exists only for a move without destination: elsewhere it is illegal."""
    at = _activated().apply("Reposition RED-5")[0]
    assert not at.is_legal("Back")
    assert not _activated().is_legal("Back")


def test_every_option_of_a_destination_decision_applies() -> None:
    """The conformance invariant over the new decision: each listed destination applies."""
    s = _activated(enemy_x=10.0)
    for header in ("Reposition RED-5", "Dash RED-5", "Charge RED-5"):
        for a in _destinations(s, header):
            s.apply(header)[0].apply(a)


def test_headers_and_back_round_trip_through_the_notation() -> None:
    """``parse_action(format_action(a)) == a`` for a header (no ``to``) and ``Back``; a
    header built in Python passes the shape check (no point needed), a Deploy still needs
    one."""
    for a in (
        Action("Reposition", op="RED-5"),
        Action("Fall Back", op="RED-5"),
        Action("Charge", op="AB2-10"),
        Action("Back"),
    ):
        assert parse_action(format_action(a)) == a
        assert check_action_shape(a) is a
    assert format_action(Action("Dash", op="RED-5")) == "Dash RED-5"
    assert parse_action("fall back red-5") == Action("Fall Back", op="RED-5")
    with pytest.raises(ValueError, match="point"):
        check_action_shape(Action("Deploy", op="RED-5"))


def test_the_heuristic_agent_answers_with_a_complete_move_in_one_step() -> None:
    """The heuristic agent weighs every destination of every move at once (as before the
    factoring) and names the complete action: never a header."""
    s = _activated()
    agent = HeuristicAgent()
    a = agent.act(s)
    assert not (a.verb in MOVE_VERBS and a.point is None)
    assert s.is_legal(a)


def test_the_heuristic_agent_chooses_a_destination_another_player_opened() -> None:
    """At a destination decision (a header chosen by someone else) the heuristic agent
    picks one of the move's destinations (or an exact point the engine accepts)."""
    at = _activated().apply("Reposition RED-5")[0]
    a = HeuristicAgent().act(at)
    assert a.verb == "Reposition" and a.point is not None and at.is_legal(a)


class _CompleteRandom:
    """Uniform over the complete listing: every move one input (a format-2 record)."""

    sees_full_state = True  # it lists the state's complete actions

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: GameState) -> Action:
        legal = list_complete_actions(state)
        return legal[int(self.rng.integers(len(legal)))]


def _lines(agents: dict[str, Any], steps: int) -> list[str]:
    kz = load_killzone("open_ruins")
    a = load_builtin_team("kasrkin").default()
    b = load_builtin_team("legionaries").default()
    state = new_game(kz, a, b)
    rec = GameRecorder(make_header(state, seed=5, agents={"A": "random", "B": "random"}))
    final = play(state, agents, SeededDice(5), on_step=rec.on_step, max_steps=steps)
    rec.finish(final)
    return rec.lines


def _with_format(lines: list[str], fmt: object) -> list[str]:
    head = json.loads(lines[0])
    head["format"] = fmt
    return [json.dumps(head), *lines[1:]]


def test_records_are_written_in_format_3_and_replay() -> None:
    """Format 3 is the one with the destination decision: a random battle (headers, then
    destinations) is recorded in it and replays to the same state."""
    from engine.agents import RandomAgent

    lines = _lines({"A": RandomAgent(1), "B": RandomAgent(2)}, 160)
    assert json.loads(lines[0])["format"] == 3
    moves = [json.loads(x)["action"] for x in lines[1:-1]]
    assert any(m.split()[0] in ("Reposition", "Dash") and " to " not in m for m in moves)
    assert replay(lines, ruleset=KT24).step == 160


def test_a_format_2_record_still_replays() -> None:
    """A format-2 record has every move as one complete input: all still legal in one step
    and reaching the same states (the frames' text is unchanged), so it replays, hashes
    checked."""
    lines = _with_format(_lines({"A": _CompleteRandom(1), "B": _CompleteRandom(2)}, 160), 2)
    moves = [json.loads(x)["action"] for x in lines[1:-1]]
    assert any(m.split()[0] in ("Reposition", "Dash", "Charge") for m in moves)
    assert not any(m.split()[0] in ("Reposition", "Dash") and " to " not in m for m in moves)
    assert replay(lines, ruleset=KT24).step == 160


@pytest.mark.parametrize("fmt", [1, 4])
def test_other_record_formats_are_refused_naming_the_formats_read(fmt: int) -> None:
    """Formats this engine does not read are refused, the message naming the header field,
    the format and the formats it reads (2 and 3)."""
    lines = _with_format(_lines({"A": _CompleteRandom(1), "B": _CompleteRandom(2)}, 3), fmt)
    with pytest.raises(RecordFormatError, match="'format'") as err:
        replay(lines, ruleset=KT24)
    assert str(fmt) in str(err.value) and "2 and 3" in str(err.value)


def test_a_move_chosen_in_two_steps_opens_the_windows_of_the_move_in_one_step() -> None:
    """Header then destination performs the complete action as the action decision does:
    a Dash of the ploy test team to (5, 12) opens the ``moved`` window (Tailwind) with the
    same frames and operatives as the Dash named in one step (only the step count differs)."""
    from tests.test_ploys import FACING, pass_windows, where
    from tests.test_ploys import pos as ploy_pos

    s, _ = pass_windows(ploy_pos(FACING).apply("Activate PLOA-1 engage")[0])
    one, _ = s.apply("Dash PLOA-1 to 5,12")
    two, _ = s.apply("Dash PLOA-1")[0].apply("Dash PLOA-1 to 5,12")
    assert where(two) == where(one) == ("A", "ploy", "moved")
    assert two.stack == one.stack and two.operatives == one.operatives
    assert two.step == one.step + 1
