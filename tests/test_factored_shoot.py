"""Factored Shoot decisions (issue 29 item 1): a Shoot is listed as its header (``Shoot
RED-5``) when a weapon has a valid target, found by stopping at the first valid (weapon,
target) pair; its weapon and target are a decision of their own (``attack_target``,
:class:`engine.game.universal.activation.AttackFrame`) whose options are the complete shots
of the complete listing; a complete Shoot stays legal in one step.

Positions are on the LAB killzone of ``test_game_rules_common`` (32 mm bases): the open lane
is y 13-16; the 5" wall at x 10-11, y 17-21.5 blocks sight between (5, 19) and (16, 19).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import engine.game.shoot_targets as shoot_targets
from engine.agents import HeuristicAgent
from engine.game import GameState, IllegalActionError
from engine.game.actions import Action, format_action, is_attack_header, parse_action
from engine.game.flow import check_action_shape, list_complete_actions
from engine.game.state import Decision
from tests.test_game_rules_close_quarters import CLOSE, guard_pos
from tests.test_game_rules_common import play, pos, with_attacks


def _activated(
    red: tuple[float, float] = (5.0, 14.0),
    blu: tuple[float, float] = (16.0, 14.0),
    op: str = "RED-3",
) -> GameState:
    """``op`` (RED-3 is the Gunner: 13 ranged weapons) at ``red`` activated Engage, BLU-1 at
    ``blu``."""
    s = pos({op: {"at": red}, "BLU-1": {"at": blu}})
    return s.apply(f"Activate {op} engage")[0]


def _shots(actions: list[Action]) -> list[Action]:
    return [a for a in actions if a.verb == "Shoot"]


def test_a_shoot_is_listed_as_its_header_stopping_at_the_first_valid_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Listing the action decision takes one (weapon, target) pair from the Shoot options
    and no more (the point of the factoring): the Gunner, 11" from a visible BLU-1, has a
    dozen weapons that can shoot it, yet the listing draws only the first, and lists the
    Shoot once, as ``Shoot RED-3`` with neither weapon nor target."""
    drawn: list[Action] = []
    real = shoot_targets.iter_shoot_options

    def counting(*args: Any, **kw: Any) -> Iterator[Action]:
        for a in real(*args, **kw):
            drawn.append(a)
            yield a

    monkeypatch.setattr(shoot_targets, "iter_shoot_options", counting)
    listed = list(_activated().legal_actions())
    assert len(drawn) == 1
    assert _shots(listed) == [Action("Shoot", op="RED-3")]
    drawn.clear()
    complete = _shots(list_complete_actions(_activated()))
    assert len(complete) > 5 and len(drawn) == len(complete) and set(drawn) == set(complete)


def test_no_header_without_a_valid_target_and_choosing_it_is_refused() -> None:
    """Behind the 5" wall BLU-1 is not visible (4.5): no weapon has a valid target, so no
    Shoot is listed, and ``Shoot RED-5`` is refused naming the rule, the state unchanged."""
    s = _activated(red=(5.0, 19.0), blu=(16.0, 19.0), op="RED-5")
    assert not _shots(list(s.legal_actions()))
    assert not _shots(list_complete_actions(s))
    before = s.hash()
    with pytest.raises(IllegalActionError, match=r"no weapon with a valid target.*5\.1"):
        s.apply("Shoot RED-5")
    assert s.hash() == before


def test_choosing_the_header_opens_the_attack_target_decision_and_changes_nothing_else() -> None:
    """Applying the header spends nothing and changes no operative: the player chooses the
    weapon and target next, among exactly the complete listing's shots (the listing before
    the factoring), in canonical order."""
    s = _activated()
    after = s.apply("Shoot RED-3")[0]
    assert after.node == Decision("A", "attack_target")
    assert after.operatives == s.operatives and after.effects == s.effects
    assert after.stack[:-1] == s.stack
    complete = _shots(list_complete_actions(s))
    assert list(after.legal_actions()) == complete
    assert all(a.weapon and a.target == "BLU-1" for a in complete)


def test_a_shot_chosen_in_two_steps_is_the_shot_in_one_step() -> None:
    """Header then weapon and target is the same Shoot as the complete action in one step:
    the same operatives, frames and node, the same events."""
    s = _activated()
    for shot in _shots(list_complete_actions(s))[:3]:
        two, events_two = s.apply("Shoot RED-3")[0].apply(shot)
        one, events_one = s.apply(shot)
        assert two.operatives == one.operatives
        assert two.stack == one.stack and two.node == one.node
        assert [e.kind for e in events_two] == [e.kind for e in events_one]
        assert two.step == one.step + 1


def test_a_complete_shoot_is_legal_in_one_step_at_the_action_decision() -> None:
    """Scripts, records and the heuristic agent name complete shots: ``Shoot RED-3 silent
    gun at BLU-1`` is legal at the action decision, though only its header is listed there;
    the Pistol's Range 6" (6) still refuses ``Shoot RED-3 pistol at BLU-1`` at 11", in one
    step as in two."""
    s = _activated()
    assert Action("Shoot", op="RED-3", weapon="silent gun", target="BLU-1") not in list(
        s.legal_actions()
    )
    assert s.is_legal("Shoot RED-3 silent gun at BLU-1")
    with pytest.raises(IllegalActionError, match="Range"):
        s.apply("Shoot RED-3 pistol at BLU-1")
    at = s.apply("Shoot RED-3")[0]
    with pytest.raises(IllegalActionError, match="Range"):
        at.apply("Shoot RED-3 pistol at BLU-1")


def test_the_attack_target_decision_accepts_only_a_shot_of_that_operative() -> None:
    """At the ``attack_target`` decision only a complete Shoot of the chosen operative is
    legal: not the header again, not another action, not ``Back`` (the header is listed
    only when a shot exists), not ``End activation``; a refused input leaves the state as
    it was."""
    at = _activated().apply("Shoot RED-3")[0]
    before = at.hash()
    for text in ("Shoot RED-3", "Reposition RED-3", "Back", "End activation"):
        assert not at.is_legal(text), text
    with pytest.raises(IllegalActionError, match="weapon and target of Shoot RED-3"):
        at.apply("Fight RED-3 knife at BLU-1")
    assert at.hash() == before
    assert isinstance(at.node, Decision) and at.node.kind == "attack_target"


def test_every_option_of_an_attack_target_decision_applies() -> None:
    """The conformance invariant over the new decision: each listed shot applies."""
    at = _activated().apply("Shoot RED-3")[0]
    for a in at.legal_actions():
        at.apply(a)


def test_the_header_round_trips_through_the_notation() -> None:
    """``parse_action(format_action(a)) == a`` for the header; built in Python it passes the
    shape check; a complete Shoot is not a header, and ``Fight`` has no header (it is listed
    complete)."""
    h = Action("Shoot", op="RED-3")
    assert format_action(h) == "Shoot RED-3"
    assert parse_action("shoot red-3") == h and parse_action(format_action(h)) == h
    assert check_action_shape(h) is h and is_attack_header(h)
    full = parse_action("Shoot RED-3 gun at BLU-1")
    assert not is_attack_header(full) and full.weapon == "gun"
    assert not is_attack_header(Action("Fight", op="RED-3"))


def test_an_on_guard_interrupt_shoots_through_the_header_and_must_shoot() -> None:
    """An On Guard interrupt (9.3) lists its Shoot as the header and no ``End activation``
    (it must Shoot or Fight when it can); within control range the header's decision holds
    the point-blank shot only (at that enemy, 9.3), exactly as the complete listing."""
    s = guard_pos()
    s, _ = play(s, ["Activate BLU-1 engage", f"Charge BLU-1 to {9 - CLOSE:.3f},11"])
    s, _ = s.apply("Interrupt RED-1")
    assert s.node == Decision("A", "interrupt")
    listed = list(s.legal_actions())
    assert Action("Shoot", op="RED-1") in listed
    assert Action("End activation") not in listed
    at = s.apply("Shoot RED-1")[0]
    assert at.node == Decision("A", "attack_target")
    assert list(at.legal_actions()) == _shots(list_complete_actions(s))
    assert [str(a) for a in at.legal_actions()] == ["Shoot RED-1 gun at BLU-1"]


def test_with_attacks_gives_the_listing_before_the_factoring() -> None:
    """The test helper replacing each header by its decision's options gives the complete
    listing's shots (``list_complete_actions``), the move headers left alone."""
    s = _activated()
    assert _shots(with_attacks(s)) == _shots(list_complete_actions(s))


def test_the_heuristic_agent_answers_with_a_complete_shot_in_one_step() -> None:
    """The heuristic agent weighs every shot at once (the complete listing) and names the
    complete action: never a Shoot header. At an ``attack_target`` decision opened by
    someone else it weighs the same shots the same way: it picks the shot it picked in one
    step (the Gunner's pierce gun), not merely the first listed one (the blast gun)."""
    s = _activated()
    a = HeuristicAgent().act(s)
    assert not is_attack_header(a)
    assert s.is_legal(a)
    at = s.apply("Shoot RED-3")[0]
    b = HeuristicAgent().act(at)
    assert b.verb == "Shoot" and b.weapon and at.is_legal(b)
    assert a.verb == "Shoot" and b == a
    assert b != at.legal_actions()[0]


def test_a_random_battle_with_shoot_headers_is_recorded_in_format_3_and_replays() -> None:
    """A random agent picks the Shoot header, then its weapon and target (two inputs): the
    record (format 3, as for move headers) replays to the same state, hashes checked."""
    import json

    from engine.agents import RandomAgent
    from engine.game.record import replay
    from engine.rulesets import KT24
    from tests.test_factored_moves import _lines

    lines = _lines({"A": RandomAgent(1), "B": RandomAgent(2)}, 400)
    assert json.loads(lines[0])["format"] == 3
    inputs = [json.loads(x)["action"] for x in lines[1:-1]]
    headers = [i for i, m in enumerate(inputs) if m.startswith("Shoot ") and " at " not in m]
    assert headers
    assert all(inputs[i + 1].startswith(inputs[i] + " ") for i in headers)
    assert replay(lines, ruleset=KT24).step == len(inputs)
