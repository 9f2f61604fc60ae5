"""The Tunnels of the Sector Imperialis environment table (rules/KT18.md 11.3, with 3.16,
8.2, 8.4, 8.5, 9.6), on the fixture killzone ``scenarios/killzones/kt18_sector_imperialis.toml``:
manhole 0 at (4, 4), manhole 1 at (15, 11) (13.04" from 0), manhole 2 at (27, 18) (13.89"
from 1, 26.93" from 0). The Troopers of the KT18 test team have 25mm bases (radius 0.492")
and Ld 6."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.agents import RandomAgent, make_agent
from engine.game.actions import IllegalActionError, format_action
from engine.game.drivers import SeededDice
from engine.game.events import narrate
from engine.game.state import Chance, Decision, GameState
from engine.game.work import Work
from engine.geometry.model import load_killzone
from engine.rules.kt18.fight import pile_in_point, pile_in_problem
from engine.rules.kt18.tunnels import exit_spots
from engine.rulesets import position
from tests.conformance_support import check_result, play_conforming
from tests.kt18_flow_support import OPTIONS, apply_all, rosters

KZ = load_killzone(Path(__file__).parent.parent / "scenarios/killzones/kt18_sector_imperialis.toml")
TUNNELS = {"kind": "kt18_environment", "player": "A", "until": "end_battle", "detail": "Tunnels"}
FAR_B = {"TESB-1": (26, 8)}
"""Player B's model, far from every manhole and from A's models."""


def _down(op: str, entered: int, manhole: int = 0) -> dict[str, Any]:
    """The effect of ``op`` gone down at ``manhole`` in battle round ``entered``."""
    return {
        "kind": "kt18_tunnels",
        "op": op,
        "until": "end_battle",
        "value": entered,
        "detail": str(manhole),
    }


def _pos(
    at: Mapping[str, tuple[float, float]],
    *,
    a: int = 2,
    b: int = 1,
    effects: tuple[dict[str, Any], ...] = (),
    environment: dict[str, Any] | None = TUNNELS,
    **fields: Any,
) -> GameState:
    ra, rb = rosters(a, b)
    env = [environment] if environment else []
    return position(
        KZ,
        ra,
        rb,
        options=OPTIONS,
        operatives={k: {"at": v} for k, v in at.items()},
        effects=[*env, *effects],
        **fields,
    )


def _legal(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def _kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def _decision(s: GameState) -> str:
    assert isinstance(s.node, Decision), s.node
    return f"{s.node.player} {s.node.kind}"


def _tunnel_effect(s: GameState, op: str) -> Any:
    return next((e for e in s.effects if e.kind == "kt18_tunnels" and e.op == op), None)


def test_tunnels_a_model_within_1_inch_of_a_manhole_goes_down_at_the_start_of_its_turn() -> None:
    """11.3: TESA-1 at (4, 5.2) has its base 1.2 - 0.492 = 0.708" from manhole 0 and no enemy
    near: at the start of A's Movement-phase turn A may send it down. It is removed from the
    battlefield without being out of action; the round it went down and its manhole are kept.
    TESA-2 at (10, 2) is 6" from every manhole: it is not offered."""
    s = _pos({"TESA-1": (4, 5.2), "TESA-2": (10, 2), **FAR_B}, phase="movement")
    assert _decision(s) == "A kt18_tunnels_enter"
    assert _legal(s) == ["Act TESA-1 enter the tunnels at 4,4", "Pass"]
    s, ev = s.apply("Act TESA-1 enter the tunnels at 4,4")
    assert "kt18_tunnels_entered" in _kinds(ev) and "kt18_out_of_action" not in _kinds(ev)
    o = s.operative("TESA-1")
    assert not o.placed and not o.incapacitated and o.wounds == 1
    effect = _tunnel_effect(s, "TESA-1")
    assert effect is not None and effect.value == 1 and effect.detail == "0"
    # nobody else may go down: the turn goes on with TESA-2's move
    assert _decision(s) == "A kt18_movement"


def test_tunnels_no_entry_beyond_1_inch_of_a_manhole() -> None:
    """11.3: within 1" of a manhole only. At (4, 5.6) the base is 1.6 - 0.492 = 1.108" from
    manhole 0: no decision, the turn starts with the Movement picks."""
    s = _pos({"TESA-1": (4, 5.6), **FAR_B}, a=1, phase="movement")
    assert _decision(s) == "A kt18_movement"


def test_tunnels_no_entry_within_1_inch_of_an_enemy() -> None:
    """11.3: more than 1" from every enemy model. TESB-1 at (5, 6.2): the bases are
    hypot(1, 1) - 0.984 = 0.43" apart, so TESA-1 may not go down; typed, it is refused and the
    state is unchanged."""
    s = _pos({"TESA-1": (4, 5.2), "TESA-2": (15, 12.2), "TESB-1": (5, 6.2)}, phase="movement")
    assert _legal(s) == ["Act TESA-2 enter the tunnels at 15,11", "Pass"]
    before = s.hash()
    with pytest.raises(IllegalActionError, match=r'within 1" of the enemy model TESB-1'):
        s.apply("Act TESA-1 enter the tunnels at 4,4")
    assert s.hash() == before


def test_tunnels_a_shaken_model_cannot_enter() -> None:
    """8.5, 11.3: a shaken model can do nothing, and cannot enter the tunnels: TESA-1 is
    shaken, TESA-2 may go down at manhole 1."""
    shaken = {"kind": "kt18_shaken", "op": "TESA-1", "until": "end_battle"}
    s = _pos({"TESA-1": (4, 5.2), "TESA-2": (15, 12.2), **FAR_B}, effects=(shaken,))
    assert _legal(s) == ["Act TESA-2 enter the tunnels at 15,11", "Pass"]
    with pytest.raises(IllegalActionError, match=r"8\.5"):
        s.apply("Act TESA-1 enter the tunnels at 4,4")


def test_tunnels_only_with_the_tunnels_environment() -> None:
    """11.3: the table's result 5 only: with Traps (result 4) rolled nothing is offered."""
    traps = {**TUNNELS, "detail": "Traps"}
    s = _pos({"TESA-1": (4, 5.2), **FAR_B}, a=1, environment=traps)
    assert _decision(s) == "A kt18_movement"


def test_tunnels_a_model_comes_up_at_the_end_of_its_turn_in_the_next_round_only() -> None:
    """11.3: gone down in round 1, TESA-2 may come up at the end of A's Movement-phase turn in
    round 2 (A, with nothing else to move, ends its turn at once); gone down in round 2 itself,
    it may not yet."""
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=2, effects=(_down("TESA-2", 1),))
    s, _ = s.apply("Pass")  # A ends its Movement-phase turn
    assert _decision(s) == "A kt18_tunnels_leave"
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=2, effects=(_down("TESA-2", 2),))
    s, _ = s.apply("Pass")
    assert _decision(s) == "B kt18_movement"


def test_tunnels_exit_within_1_inch_of_a_manhole_within_24_inches_of_the_entry() -> None:
    """11.3: gone down at manhole 0, TESA-2 may come up within 1" of manhole 0 or 1 (13.04"
    away) but not of manhole 2 (26.93" away, more than 24"); never within 1" of an enemy. A
    typed legal spot is accepted: (4, 5.4) puts the base 1.4 - 0.492 = 0.908" from manhole 0."""
    s = _pos({"TESA-1": (10, 2), "TESB-1": (15, 12.2)}, tp=2, effects=(_down("TESA-2", 1),))
    s, _ = s.apply("Pass")
    spots = [a.point for a in s.legal_actions() if a.verb == "Act" and a.point is not None]
    assert spots and len(spots) == len(s.legal_actions()) - 1  # every spot, and Pass
    assert all(abs(p[0] - 4) <= 1.5 and abs(p[1] - 4) <= 1.5 for p in spots if p[0] < 10)
    assert not any(p[0] > 25 for p in spots)  # nothing at manhole 2
    # near manhole 1, only spots more than 1" from TESB-1 (15, 12.2)
    near_1 = [p for p in spots if 12 < p[0] < 18]
    assert near_1 and all(((p[0] - 15) ** 2 + (p[1] - 12.2) ** 2) ** 0.5 > 1.984 for p in near_1)
    before = s.hash()
    with pytest.raises(IllegalActionError, match='within 24"'):
        s.apply("Act TESA-2 leave the tunnels at 27,16.8")
    with pytest.raises(IllegalActionError, match="TESB-1"):
        s.apply("Act TESA-2 leave the tunnels at 15,10.6")
    with pytest.raises(IllegalActionError, match='within 1" of a manhole'):
        s.apply("Act TESA-2 leave the tunnels at 4,5.6")
    assert s.hash() == before
    s, ev = s.apply("Act TESA-2 leave the tunnels at 4,5.4")
    assert "kt18_tunnels_left" in _kinds(ev)
    o = s.operative("TESA-2")
    assert o.placed and (o.x, o.y) == (4, 5.4) and _tunnel_effect(s, "TESA-2") is None


def test_tunnels_coming_up_counts_as_a_normal_move_and_no_further_move() -> None:
    """11.3, 3.16 reading (b): placed, TESA-2 counts as having made a normal move (the
    ``moved`` token Heavy reads, 5.9) and cannot move further this round: no pile in nor
    consolidation toward TESB-1 3" away."""
    s = _pos({"TESA-1": (10, 2), "TESB-1": (4, 8.5)}, tp=2, effects=(_down("TESA-2", 1),))
    s, _ = apply_all(s, "Pass", "Act TESA-2 leave the tunnels at 4,5.4")
    o = s.operative("TESA-2")
    assert "moved" in o.done and "reinforced" in o.done
    w = Work(s)
    assert pile_in_point(w, o) is None
    assert "3.16" in (pile_in_problem(w, o, (4, 6, 0.0)) or "")


def test_tunnels_pass_leaves_it_down_for_the_rest_of_the_battle() -> None:
    """11.3 reading chosen: the only window is the end of the player's Movement-phase turn in
    the next battle round. Passed then, the model stays down (``kt18_tunnels_stayed``); in a
    later round it is not offered again."""
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=2, effects=(_down("TESA-2", 1),))
    s, ev = apply_all(s, "Pass", "Pass")
    assert "kt18_tunnels_stayed" in _kinds(ev) and _tunnel_effect(s, "TESA-2") is not None
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=3, effects=(_down("TESA-2", 1),))
    s, _ = s.apply("Pass")
    assert _decision(s) == "B kt18_movement"


def test_tunnels_count_as_out_of_action_for_the_broken_check_and_nerve_tests() -> None:
    """8.2, 8.4, 11.3: TESA-1 (flesh wound) and TESA-2 (in the tunnels) are 2 casualties of 3,
    more than half: A rolls the broken check (without the tunnels it would be 1 of 3, no
    roll). 2D6 = 6 is not above Ld 6: not broken. TESA-1's Nerve test has +1 for TESA-2
    (TESA-3 is far): a 6 makes 7, above Ld 6: shaken. TESA-2 takes no test (off the
    battlefield)."""
    flesh = {"kind": "kt18_flesh_wound", "op": "TESA-1", "until": "end_battle"}
    s = _pos(
        {"TESA-1": (20, 19), "TESA-3": (8, 19), **FAR_B},
        a=3,
        phase="morale",
        effects=(flesh, _down("TESA-2", 1)),
    )
    assert isinstance(s.node, Chance) and s.node.request.kind == "kt18_broken_check"
    s, ev = apply_all(s, "roll 3,3", "roll 6")
    tests = [e for e in ev if e.kind == "kt18_nerve_test"]
    assert [(e["op"], e["modifier"], e["passed"]) for e in tests] == [("TESA-1", 1, False)]


def test_tunnels_a_model_still_down_at_the_end_of_the_battle_is_out_of_action() -> None:
    """11.3, 3.16, 9.6: the battle ends after the Morale phase of round 5; TESA-2, still in
    the tunnels, is out of action then (1 casualty of 2 before: no broken check)."""
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=5, phase="morale", effects=(_down("TESA-2", 4),))
    assert s.is_terminal
    o = s.operative("TESA-2")
    assert o.incapacitated and not o.placed and _tunnel_effect(s, "TESA-2") is None


def test_tunnels_narration_names_what_happened() -> None:
    """Each Tunnels event reads as a line of the battle's narration."""
    s = _pos({"TESA-1": (4, 5.2), **FAR_B}, a=1, phase="movement")
    s, ev = s.apply("Act TESA-1 enter the tunnels at 4,4")
    text = [narrate(e) for e in ev if e.kind == "kt18_tunnels_entered"]
    assert text == ["TESA-1 goes down the manhole at (4, 4) into the tunnels"]


def test_tunnels_exit_spots_are_bounded() -> None:
    """The listed spots are at most 17 per manhole in reach (centre, eight directions at two
    distances): a bounded decision."""
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=2, effects=(_down("TESA-2", 1),))
    s, _ = s.apply("Pass")
    listed = len(s.legal_actions()) - 1  # and Pass
    assert 0 < listed <= 17 * 2
    assert len(exit_spots(Work(s), s.operative("TESA-2"), 0)) == listed


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_battles_with_tunnels_end(seed: int) -> None:
    """Random legal inputs play a KT18 battle with the Tunnels environment on the Sector
    Imperialis fixture from round 1 to its end, within the step limit and with the engine's
    invariants (tests/conformance_support.py); models start near every manhole."""
    at: dict[str, tuple[float, float]] = {"TESA-1": (4, 5.2), "TESA-2": (15, 9.8), "TESA-3": (3, 9)}
    at |= {"TESB-1": (27, 16.8), "TESB-2": (15, 12.2), "TESB-3": (27, 12)}
    s = _pos(at, a=3, b=3, phase="initiative", step="start")
    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    seen: list[str] = []
    final = play_conforming(
        s, agents, SeededDice(seed), seed=seed, observe=lambda *a: seen.extend(_kinds(a[-1]))
    )
    check_result(final)
    assert final.tp == 5 and final.phase == "over"
    assert "kt18_tunnels_entered" in seen  # the tunnels were used
    assert not any(e.kind == "kt18_tunnels" for e in final.effects)


def test_tunnels_the_heuristic_agent_stays_up_and_comes_back_up() -> None:
    """11.3, 8.2: a model in the tunnels counts as out of action for the broken check and is
    out of action if still down at the end, so the heuristic agent never sends one down
    (``Pass``), and comes up when it may (the only window, reading chosen)."""
    agent = make_agent("heuristic", 1)
    s = _pos({"TESA-1": (4, 5.2), "TESA-2": (10, 2), **FAR_B}, phase="movement")
    assert _decision(s) == "A kt18_tunnels_enter"
    assert format_action(agent.act(s)) == "Pass"
    s = _pos({"TESA-1": (10, 2), **FAR_B}, tp=2, effects=(_down("TESA-2", 1),))
    s, _ = s.apply("Pass")
    assert _decision(s) == "A kt18_tunnels_leave"
    assert format_action(agent.act(s)).startswith("Act TESA-2 leave the tunnels at")
