"""The joins between the KT18 rule modules: who charged whom (``rules/KT18.md`` 3.13, 7.5),
the round's tokens in scripted positions and scenario files (8.1) and a position in the
fifth battle round (9.6). Positions on an open 30" x 22" board (``tests/kt18_flow_support``)
or LAB (``tests/kt18_attack_support``); every expected value is read off the rule text."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from engine.game.actions import Action, IllegalActionError, format_action, parse_action
from engine.game.flow import advance, list_actions
from engine.game.scenario import ScenarioError
from engine.game.scenario_file import scenario_from_dict
from engine.game.scenario_values import ScenarioFileError
from engine.game.work import Work
from engine.geometry import Killzone
from engine.rules.kt18.attack import splits
from engine.rules.kt18.fight import FightPhaseFrame
from engine.rules.kt18.shooting import ShootingPhaseFrame
from engine.rulesets import KT18, get, position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster
from tests.kt18_attack_support import BLU, R25, EndFrame, _gun, play, pos, team_data
from tests.kt18_flow_support import OPTIONS, apply_all, kt18_position, rosters
from tests.test_game_rules_common import LAB

CLOSE = 2 * R25 + 0.5
"""Centre distance that puts two 25 mm bases 0.5" apart (within 1")."""


def _op(state: Any, op_id: str) -> Any:
    return next(o for o in state.operatives if o.id == op_id)


# -- who charged whom (3.13, 7.5) ----------------------------------------------------------------


def test_charge_move_records_which_models_the_charger_charged() -> None:
    """3.13: every enemy within 1" of the charger at the end of its charge move has been
    charged by it: the target gets ``charged_by:TESA-1`` (and ``was_charged``); a model the
    charger did not end within 1" of gets neither. A roll of 7 covers the 6.016" gap."""
    s = kt18_position({"TESA-1": (5, 5), "TESA-2": (25, 20), "TESB-1": (12, 5), "TESB-2": (12, 15)})
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Done", "Pass", "roll 4,3")
    s, _ = s.apply(s.legal_actions()[0])
    assert {"was_charged", "charged_by:TESA-1"} <= set(_op(s, "TESB-1").done)
    assert not any(t.startswith("charged_by") for t in _op(s, "TESB-2").done)


def test_a_charger_fights_only_enemies_it_charged_or_that_charged_it() -> None:
    """7.5 step 2: a model that charged this round may target only enemies it charged or that
    charged it. RED-2 charged BLU-1; BLU-2 charged RED-2; BLU-3 was charged too, but by
    RED-1, not RED-2: all three are within 1" of RED-2 and visible, yet BLU-3 is no target of
    RED-2 (the old approximation, "any model that was charged", would have allowed it)."""
    s = pos(
        FightPhaseFrame(),
        {
            "RED-2": {"at": (15, 14)},
            "BLU-1": {"at": (15 + CLOSE, 14)},
            "BLU-2": {"at": (15 - CLOSE, 14)},
            "BLU-3": {"at": (15, 14 + CLOSE)},
            "RED-1": {"at": (15, 14 + 2 * CLOSE)},
        },
        phase="fight",
        done={
            "RED-1": ("charged",),
            "RED-2": ("charged", "charged_by:BLU-2", "was_charged"),
            "BLU-1": ("charged_by:RED-2", "was_charged"),
            "BLU-2": ("charged",),
            "BLU-3": ("charged_by:RED-1", "was_charged"),
        },
    )
    s, _ = play(s, ["Act RED-2 fight", "Pass"])
    assert {a.target for a in list_actions(s)} == {"BLU-1", "BLU-2"}  # type: ignore[arg-type]


# -- the round's tokens and the fifth battle round in positions (8.1, 9.6) -----------------------


def test_position_gives_a_model_its_round_tokens() -> None:
    """8.1: the tokens of the round are the state a KT18 position starts from: a model given
    ``advanced`` may not Advance, charge or Ready again; its tokens are kept sorted."""
    s = kt18_position(
        {"TESB-1": (25, 20)},
        operatives={"TESA-1": {"at": (5, 5), "tokens": ["moved", "advanced"]}},
    )
    assert _op(s, "TESA-1").done == ("advanced", "moved")


@pytest.mark.parametrize(
    ("tokens", "why"),
    [(["advnced"], "not a KT18 token"), (["charged_by:TESA-2"], "not an enemy model")],
)
def test_position_refuses_a_token_that_is_not_a_kt18_token(tokens: list[str], why: str) -> None:
    """8.1 and 3.13: a token must be one of the KT18 tokens (a typo is refused, naming it);
    ``charged_by:<id>`` must name an enemy model (a friend cannot charge it)."""
    with pytest.raises(ScenarioError, match=why):
        kt18_position(
            {"TESB-1": (25, 20)},
            operatives={"TESA-1": {"at": (5, 5), "tokens": tokens}},
        )


def _file(ruleset: str, tp: int, tokens: list[str] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"at": [5, 5]}
    if tokens is not None:
        op["tokens"] = tokens
    kt18 = ruleset == "kt18"
    team = "tests/data/kt18_test_team.json" if kt18 else "kasrkin"
    first, enemy = ("TESA-1", "TESB-1") if kt18 else ("KASA-1", "KASB-1")
    return {
        "name": "seams",
        "killzone": "killzones/open_ruins.toml",
        "ruleset": ruleset,
        "teams": {"A": {"team": team}, "B": {"team": team}},
        "position": {
            "tp": tp,
            "operatives": {first: op, enemy: {"at": [25, 18]}},
        },
    }


ROOT = Path(__file__).resolve().parent.parent


def test_scenario_file_kt18_position_in_battle_round_5_with_tokens() -> None:
    """9.6: a KT18 battle has five battle rounds, so a scenario file may start in round 5;
    its models may carry their round's tokens (8.1), which the position keeps."""
    sc = scenario_from_dict(_file("kt18", 5, ["readied"]), "seams.toml", ROOT)
    s = sc.start(ruleset=KT18)
    assert s.tp == 5
    assert _op(s, "TESA-1").done == ("readied",)


def test_scenario_file_tp_5_is_refused_for_kt24() -> None:
    """KT24 has four turning points (rules/KT24.md 1.2): tp = 5 is refused, naming the field."""
    with pytest.raises(ScenarioFileError, match=r"position\.tp.*1 to 4"):
        scenario_from_dict(_file("kt24", 5), "seams.toml", ROOT)


def test_scenario_file_tokens_are_refused_for_kt24() -> None:
    """The tokens of the round are KT18's: a KT24 position refuses them (no rule module
    accepts them), naming the operative."""
    sc = scenario_from_dict(_file("kt24", 1, ["advanced"]), "seams.toml", ROOT)
    with pytest.raises(ScenarioFileError, match=r"KASA-1\.tokens"):
        sc.start(ruleset=get("kt24"))


# -- the 1" rule along a path (3.5, 3.13) and a failed charge's closest point ---------------------


def _walled(x0: float, y0: float, x1: float, y1: float) -> Killzone:
    """A 30" x 22" board with one 5"-tall wall (sight blocking) from (x0, y0) to (x1, y1)."""
    box = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
    return Killzone.from_dict(
        {
            "name": "kt18_walled",
            "features": [{"name": "wall", "parts": [{"polygon": box, "height": 5.0}]}],
            "drop_zones": {
                "A": [[0, 0], [30, 0], [30, 11], [0, 11], [0, 0]],
                "B": [[0, 11], [30, 11], [30, 22], [0, 22], [0, 11]],
            },
        }
    )


def _on(kz: Killzone, at: dict[str, tuple[float, float]]) -> Any:
    ra, rb = rosters()
    ops = {k: {"at": v} for k, v in at.items()}
    return position(kz, ra, rb, options=OPTIONS, phase="movement", operatives=ops)


R = 25 / 25.4 / 2
"""The test team's 25 mm base radius, inches."""


def test_move_path_may_not_pass_within_1_inch_of_an_enemy_behind_a_wall() -> None:
    """3.5 reading (b), 1.1: no point of a normal move's path may be within 1" of an enemy,
    measured between the bases, whatever lies between them. TESB-1 stands 0.3" behind a thin
    wall (x 15-15.2); TESA-1's straight 6" move from (14.4, 2) to (14.4, 8) passes 0.61"
    from TESB-1's base (centres 1.59" apart at y 5, less two radii): refused, and every
    other path is longer than its M of 6" (the straight line is the only 6" path). Both ends
    are more than 1" away (2.3"), so only the path is at fault."""
    s = _on(_walled(15, 0.5, 15.2, 10), {"TESA-1": (14.4, 2), "TESB-1": (15.5 + R, 5)})
    with pytest.raises(IllegalActionError, match=r'no legal path within 6"'):
        apply_all(s, "Move TESA-1 to 14.4,8")
    s, _ = apply_all(s, "Move TESA-1 to 12.4,2")  # 2" west, away from TESB-1: legal
    assert (_op(s, "TESA-1").x, _op(s, "TESA-1").y) == (12.4, 2.0)


def test_charge_path_may_not_pass_within_1_inch_of_an_enemy_it_did_not_charge() -> None:
    """3.13 reading (b): every point of the charge move is more than 1" from each enemy that
    is not a target, even one a friend is already within 1" of (no such exception in KT18).
    TESA-1 (5, 5) charges TESB-1 (12, 5); TESB-2 (8.5, 6.3), beside TESA-2, is not a target.
    The straight 5.9" line to (10.9, 5) passes 0.32" from TESB-2's base; the shortest way
    round (tangents to the 1.98" disc around TESB-2's centre and the arc between) is about
    6.07": with a roll of 6 it is refused, with a roll of 7 it is made."""
    at = {"TESA-1": (5, 5), "TESA-2": (8.5, 7.6), "TESB-1": (12, 5), "TESB-2": (8.5, 6.3)}
    s = kt18_position(at)
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Done", "Pass")
    short, _ = s.apply("roll 3,3")
    with pytest.raises(IllegalActionError, match="no legal path within 6"):
        short.apply("Charge TESA-1 to 10.9,5")
    far, _ = s.apply("roll 4,3")
    far, events = far.apply("Charge TESA-1 to 10.9,5")
    assert any(e.kind == "kt18_charge_ended" and e["success"] for e in events)


def test_failed_charge_moves_to_the_closest_point_round_a_wall() -> None:
    """3.13: a failed charge's move, if made, ends as close as possible to a target. A wall
    (x 9.9-10.1, y 5-17) stands between TESA-1 (5, 11) and its target TESB-1 (15, 11); a
    roll of 6 cannot go round it (the wall's end is over 6" away), so the closest point is
    against the wall's face, centre x 9.9 - 0.49: 4.61" from TESB-1's base. The listed
    moves end within a ring step (0.25") of that, far closer than the eight directions' best
    (3" east: 6.02"); a scripted move 3" east is refused, one against the wall accepted."""
    s = _on(_walled(9.9, 5, 10.1, 17), {"TESA-1": (5, 11), "TESB-1": (15, 11)})
    s, _ = apply_all(s, "Charge TESA-1 at TESB-1", "Pass", "roll 3,3")
    moves = [a for a in s.legal_actions() if str(a).startswith("Charge")]
    assert moves
    for a in moves:
        gap = math.hypot(a.point[0] - 15, a.point[1] - 11) - 2 * R  # type: ignore[index]
        assert 4.61 - 0.01 <= gap <= 4.61 + 0.26
    with pytest.raises(IllegalActionError, match="as close as possible"):
        s.apply("Charge TESA-1 to 8,11")
    s, _ = s.apply(f"Charge TESA-1 to {9.9 - R - 0.005:.3f},11")
    assert _op(s, "TESA-1").x == pytest.approx(9.9 - R - 0.005, abs=1e-3)


# -- the split notation (5.5) and pile in over terrain (7.7) --------------------------------------


def test_split_notation_takes_more_than_9_attacks_on_a_target() -> None:
    """5.5: the attacks may be split as the player likes, so 15 attacks on two targets may
    go 12 and 3: ``Split 12,3`` reads back as (12, 3) (two digits each); the notation of a
    one-digit split is unchanged."""
    assert parse_action("Split 12,3").values == (12, 3)
    assert format_action(Action("Split", values=(12, 3))) == "Split 12,3"
    assert parse_action("Split 2,1").values == (2, 1)
    assert (12, 3) in splits(15, 2)


def test_a_2d6_volley_may_put_12_attacks_on_one_target() -> None:
    """5.5, 5.7: a 2D6 Assault weapon rolling 6 and 6 makes 12 attacks; with a second target
    within 2" of the first, ``Split 11,1`` (11 dice at BLU-1, one at BLU-3) is offered and
    played: the hit rolls are 11 dice then 1 die."""
    data = team_data("kt18_red")
    data["operatives"][0]["weapons"].append(
        _gun("Storm of fire", 24, "Assault", "2D6", "4", 0, "1")
    )
    red = team_from_dict(data, "kt18_red")
    ops = {"RED-1": (5, 14), "BLU-1": (15, 14), "BLU-3": (15, 15.5 + 2 * R25)}
    s = position(
        LAB,
        Roster(red, ("Gunner",)),
        Roster(BLU, ("Gunner", "Brute", "Grot")),
        options=OPTIONS,
        phase="movement",
        operatives={k: {"at": v} for k, v in ops.items()},
    )
    w = Work(s)
    w.phase, w.stack, w.node, w.events = "shooting", [EndFrame(), ShootingPhaseFrame()], None, []
    advance(w)
    s = w.freeze()
    s, _ = play(s, ["Shoot RED-1", "Shoot RED-1 storm of fire at BLU-1"], ["6,6"])
    s, _ = play(s, ["Also BLU-3"])
    texts = [str(a) for a in list_actions(s)]
    assert "Split 11,1" in texts and "Split 1,11" in texts
    s, events = play(s, ["Split 11,1"], ["1,1,1,1,1,1,1,1,1,1,1", "1"])
    assert [len(h["dice"]) for h in events if h.kind == "kt18_hit_roll"] == [11, 1]


def test_pile_in_may_not_pass_through_a_wall() -> None:
    """7.7 with 3.2, 3.3: a pile-in is a move over the terrain: terrain is crossed by going
    over it, never through it. RED-2 (8.91, 19) stands 0.6" west of the 5"-tall wall of LAB
    (x 10-11); BLU-1 (12.69, 19) beyond it is its nearest enemy, 2.8" away. A 2.63" pile-in
    straight east to (11.54, 19), just past the wall, would pass through it (and climbing
    5" up and down costs more than 3"): refused; a 0.5" move east, in the open, is
    accepted (it ends closer)."""
    s = pos(
        FightPhaseFrame(),
        {"RED-2": {"at": (10 - R25 - 0.6, 19)}, "BLU-1": {"at": (11 + R25 + 1.2, 19)}},
        phase="fight",
        done={"RED-2": ("charged",), "BLU-1": ("charged_by:RED-2", "was_charged")},
    )
    s, _ = play(s, ["Act RED-2 fight"])
    with pytest.raises(IllegalActionError, match="cannot move to"):
        s.apply(f"Act RED-2 pile in at {11 + R25 + 0.05:.3f},19")  # type: ignore[attr-defined]
    s, events = play(s, [f"Act RED-2 pile in at {10 - R25 - 0.1:.3f},19"])
    assert any(e.kind == "kt18_piled_in" for e in events)
