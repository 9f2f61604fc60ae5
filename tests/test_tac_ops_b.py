"""The tac ops of the archetypes Security (Plant Banner, Martyrs, Envoy) and Seek & Destroy
(Rout, Sweep & Clear, Dominate) (``rules/KT24.md`` 8.4, Approved Ops 2025): one test per
scoring condition, mission action and reveal trigger, on scripted positions and dice.

The killzone ``OPS`` (30" x 22", no terrain but one block) has drop zones A (x 0-6) and B
(x 24-30), territories A (x 0-15) and B (x 15-30) and the three objective markers A
(9.5, 11), centre (15, 11) and B (20.5, 11). Player A (``red``) took drop zone A. Every
operative has a 32 mm base (radius ``R`` = 0.63"); an objective marker is 40 mm (radius
``OR`` = 0.787"), a Banner 20 mm (radius ``MR`` = 0.394"): a marker whose centre is
``R + radius + g`` from an operative's centre is ``g`` from its base, within its control
range when ``g <= 1`` (4.2, 4.8). Operatives (``tests.test_game_rules_common``): Trooper APL
2 Wounds 10 (RED-1, RED-2), Gunner (RED-3), Brawler (RED-4), Captain APL 3 Wounds 12
(RED-5), Weakling APL 1 Wounds 2 (RED-6); the same for BLU-1..6.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from engine.game import GameState, IllegalActionError
from engine.game.actions import Action
from engine.game.events import Event
from engine.game.observation import observe
from engine.game.scenario import run
from engine.game.state import Decision, MissionState
from engine.game.tokens import Token
from engine.geometry import Killzone
from engine.missions.tac_ops import envoy, plant_banner
from engine.rulesets import position
from engine.teams.io import team_from_dict
from tests.test_game_rules_common import R, of_kind, rect, roster, team_data

OR = 40 / 25.4 / 2
MR = 20 / 25.4 / 2


def _team(team_id: str) -> Any:
    data = team_data(team_id)
    data["archetypes"] = ["Security", "Seek & Destroy"]
    return team_from_dict(data, team_id)


RED = _team("red")
BLU = _team("blu")

OPS: Killzone = Killzone.from_dict(
    {
        "name": "ops",
        "features": [
            {
                # A 2" Heavy block in B's territory, away from the markers.
                "name": "block",
                "parts": [{"polygon": rect(22, 14, 23, 15), "height": 2.0, "types": ["Heavy"]}],
            }
        ],
        "drop_zones": {"A": rect(0, 0, 6, 22), "B": rect(24, 0, 30, 22)},
        "territories": {"A": rect(0, 0, 15, 22), "B": rect(15, 0, 30, 22)},
        "objectives": [
            {"name": "A", "position": [9.5, 11]},
            {"name": "centre", "position": [15, 11]},
            {"name": "B", "position": [20.5, 11]},
        ],
    },
    "ops",
)


def game(
    operatives: dict[str, dict[str, Any]],
    *,
    tac: tuple[str, str] = ("", ""),
    revealed: tuple[bool, bool] = (False, False),
    tp: int = 2,
    facts: tuple[tuple[str, Any], ...] = (),
    tokens: tuple[Token, ...] = (),
    last: str = "",
    **kw: Any,
) -> GameState:
    """A Firefight-phase position on ``OPS`` in turning point ``tp`` with the tac ops
    ``tac`` (A, B) selected (no CP: no ploy windows); with ``last``, every other operative
    is expended (``last`` is the last to activate: :func:`end_tp`)."""
    if last:
        operatives = {k: {**v, "ready": k == last} for k, v in operatives.items()}
        kw.setdefault("turn", "A" if last.startswith("RED") else "B")
    s = position(OPS, roster(RED), roster(BLU), operatives=operatives, tp=tp, cp=(0, 0), **kw)
    mission = MissionState(tac_ops=tac, tac_revealed=revealed, facts=facts)
    return attrs.evolve(s, mission=mission, tokens=tokens)


def play(
    s: GameState, actions: list[str], dice: Sequence[str] = ()
) -> tuple[GameState, list[Event]]:
    return run(s, actions, dice)


def tac_vp(s: GameState, player: str) -> int:
    return s.mission.op_vp("tac", player)


def end_tp(s: GameState, op: str) -> tuple[GameState, list[Event]]:
    """The last ready operative ``op`` activates and ends its activation: the turning point
    ends and the ops score (the next turning point stops at its initiative roll)."""
    return play(s, [f"Activate {op} engage", "End activation"])


def revealed(s: GameState, player: str) -> bool:
    return s.mission.tac_revealed[0 if player == "A" else 1]


# -------------------------------------------------------------------------------------------
# Plant Banner
# -------------------------------------------------------------------------------------------

BANNER_A = ("Plant Banner", "")


def banner_at(x: float, y: float, owner: str = "A") -> Token:
    return Token(plant_banner.BANNER, owner, f"{owner} banner", x, y)


def test_plant_banner_action_places_the_banner_and_reveals_the_op() -> None:
    # RED-1 at (20, 8) in B's territory; the Banner 0.5" east of its base, at
    # (20 + R + MR + 0.5, 8), is within control range, wholly in B's territory and 8" from
    # the south edge (> 5"). The action costs 1AP and reveals the op.
    x = round(20 + R + MR + 0.5, 3)
    s = game({"RED-1": {"at": (20, 8)}, "BLU-1": {"at": (28, 20)}}, tac=BANNER_A)
    s, ev = play(s, ["Activate RED-1 engage", f"Act RED-1 plant banner at {x},8"])
    t = plant_banner.banner(_w(s), "A")
    assert t is not None and (t.x, t.y) == (x, 8.0)
    assert revealed(s, "A")
    assert s.operative("RED-1").ap == 1
    assert of_kind(ev, "banner_planted")


def _w(s: GameState) -> Any:
    from engine.game.work import Work

    return Work(s)


def test_plant_banner_is_listed_at_spots_allowed_by_the_rule() -> None:
    # Every listed spot is legal; RED-1's own spot is listed (markers may lie under
    # operatives, 4.8).
    s = game({"RED-1": {"at": (20, 8)}, "BLU-1": {"at": (28, 20)}}, tac=BANNER_A)
    s, _ = play(s, ["Activate RED-1 engage"])
    acts = [a for a in s.legal_actions() if a.verb == "Act" and a.text == "plant banner"]
    assert Action("Act", op="RED-1", text="plant banner", point=(20.0, 8.0, 0.0)) in acts
    assert len(acts) >= 5


@pytest.mark.parametrize(
    ("at", "point", "tp", "why"),
    [
        ((20, 8), (20, 8), 1, "first turning point"),
        ((12, 8), (12, 8), 2, "opponent's territory"),
        ((20, 6), (20, 5.3), 2, "neutral killzone edge"),
        ((20, 8), (23, 8), 2, "control range"),
        ((20, 12), (22.5, 14.5), 2, "inside terrain"),
    ],
)
def test_plant_banner_conditions(
    at: tuple[float, float], point: tuple[float, float], tp: int, why: str
) -> None:
    # Not in TP1; wholly within the opponent's territory (x >= 15 + MR); more than 5" from
    # the neutral south edge (y - MR > 5); within control range (23 is 3" from 20, beyond
    # R + MR + 1 = 2.02"); not inside the block at x 22-23, y 14-15 (out of reach too, so
    # it is checked first).
    s = game({"RED-1": {"at": at}, "BLU-1": {"at": (28, 20)}}, tac=BANNER_A, tp=tp)
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match=why):
        s.apply(f"Act RED-1 plant banner at {point[0]},{point[1]}")


def test_plant_banner_not_within_enemy_control_range() -> None:
    s = game({"RED-1": {"at": (20, 8)}, "BLU-1": {"at": (21.5, 8)}}, tac=BANNER_A)
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="control range of an enemy"):
        s.apply("Act RED-1 plant banner at 20,8")


def test_plant_banner_once_per_battle() -> None:
    # A friendly operative already planted the Banner: no second one.
    s = game(
        {"RED-1": {"at": (20, 8)}, "BLU-1": {"at": (28, 20)}},
        tac=BANNER_A,
        tokens=(banner_at(20, 16),),
    )
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="already performed"):
        s.apply("Act RED-1 plant banner at 20,8")


def test_plant_banner_only_for_the_player_who_selected_it() -> None:
    s = game({"RED-1": {"at": (20, 8)}, "BLU-1": {"at": (28, 20)}}, tac=("Martyrs", ""))
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="not player A's tac op"):
        s.apply("Act RED-1 plant banner at 20,8")


def test_plant_banner_scores_2vp_when_controlled_and_uncontested() -> None:
    # The Banner at (20, 8) in B's territory; RED-1 0.5" from it controls it, no enemy
    # contests it: 2VP at the end of the turning point.
    d = R + MR + 0.5
    s = game(
        {"RED-1": {"at": (20 - d, 8)}, "BLU-1": {"at": (28, 20)}},
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(20, 8),),
        last="RED-1",
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2


def test_plant_banner_scores_1vp_when_controlled_but_contested() -> None:
    # RED-5 (Captain, APL 3) and BLU-1 (APL 2) both contest: A controls (3 > 2), 1VP.
    d = R + MR + 0.5
    s = game(
        {
            "RED-5": {"at": (20 - d, 8)},
            "BLU-1": {"at": (20 + d, 8)},
        },
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(20, 8),),
        last="RED-5",
    )
    s, _ = end_tp(s, "RED-5")
    assert tac_vp(s, "A") == 1


@pytest.mark.parametrize(
    ("case", "ops", "banner", "tp"),
    [
        ("enemy controls", {"RED-1": (20 - 1.6, 8), "BLU-5": (20 + 1.6, 8)}, (20, 8), 2),
        ("first turning point", {"RED-1": (20 - 1.6, 8)}, (20, 8), 1),
        ("own territory", {"RED-1": (12 - 1.6, 8)}, (12, 8), 2),
    ],
)
def test_plant_banner_scores_nothing_otherwise(
    case: str, ops: dict[str, tuple[float, float]], banner: tuple[float, float], tp: int
) -> None:
    # An enemy Captain (APL 3) out-controls RED-1 (APL 2); no op scores in TP1; a Banner
    # moved back into the player's own territory does not score.
    spec: dict[str, dict[str, Any]] = {k: {"at": v} for k, v in ops.items()}
    spec.setdefault("BLU-1", {"at": (28, 20)})
    s = game(
        spec,
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(*banner),),
        tp=tp,
        last="RED-1",
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0, case


def test_plant_banner_pick_up_and_carry() -> None:
    # Pick Up Marker works on the Banner for any operative that controls it: BLU-1 picks up
    # A's Banner and carries it on a Reposition (its 2AP spent, the turning point ends); a
    # carried Banner does not score.
    d = R + MR + 0.5
    s = game(
        {"RED-1": {"at": (10, 20)}, "BLU-1": {"at": (20 + d, 8)}},
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(20, 8),),
        last="BLU-1",
    )
    s, _ = play(s, ["Activate BLU-1 engage"])
    assert Action("Pick up", op="BLU-1", text="a banner") in s.legal_actions()
    s, ev = play(s, ["Pick up BLU-1 a banner", "Reposition BLU-1 to 24,9"])
    assert s.operative("BLU-1").carrying == ("A banner",)
    assert of_kind(ev, "marker_picked_up")
    t = plant_banner.banner(_w(s), "A")
    assert t is not None and (t.x, t.y, t.carrier) == (24.0, 9.0, "BLU-1")
    assert s.tp == 3 and tac_vp(s, "A") == 0


def carrying(s: GameState, op: str, marker: str) -> GameState:
    """``s`` with ``op`` carrying the mission marker ``marker`` (a token of ``s``)."""
    o = s.operative(op)
    ops = tuple(attrs.evolve(x, carrying=(marker,)) if x.id == op else x for x in s.operatives)
    tokens = tuple(
        attrs.evolve(t, carrier=op, x=o.x, y=o.y) if t.name == marker else t for t in s.tokens
    )
    return attrs.evolve(s, operatives=ops, tokens=tokens)


def test_plant_banner_place_marker_puts_it_down() -> None:
    # RED-1 carries its Banner and puts it down under itself with Place Marker (3.2): the
    # Banner lies there and scores again.
    s = game(
        {"RED-1": {"at": (20, 8)}, "BLU-1": {"at": (28, 20)}},
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(20, 8),),
        last="RED-1",
    )
    s = carrying(s, "RED-1", "A banner")
    s, ev = play(
        s, ["Activate RED-1 engage", "Reposition RED-1 to 21,9", "Place marker RED-1 at 21,9"]
    )
    assert of_kind(ev, "marker_placed")
    assert s.operative("RED-1").carrying == ()
    assert tac_vp(s, "A") == 2  # controlled, uncontested, wholly in B's territory


def test_plant_banner_dropped_where_its_carrier_is_incapacitated() -> None:
    # BLU-6 (Weakling, 2 wounds) carries A's Banner; RED-1 shoots it dead: the Banner is
    # put down where BLU-6 stood (2.3).
    s = game(
        {"RED-1": {"at": (16, 8)}, "BLU-6": {"at": (22, 8)}},
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(22, 8),),
    )
    s = carrying(s, "BLU-6", "A banner")
    s, _ = play(s, ["Activate RED-1 engage"])
    s, ev = play(s, ["Shoot RED-1 gun at BLU-6"], ["6,6,6,6", "1,1,1"])
    assert s.operative("BLU-6").incapacitated
    assert of_kind(ev, "marker_placed")
    t = plant_banner.banner(_w(s), "A")
    assert t is not None and (t.x, t.y) == (22.0, 8.0)


def test_plant_banner_pick_up_needs_control() -> None:
    # RED-1 is 3" from the Banner: not within control range, so it cannot pick it up.
    s = game(
        {"RED-1": {"at": (17, 8)}, "BLU-1": {"at": (28, 20)}},
        tac=BANNER_A,
        revealed=(True, False),
        tokens=(banner_at(20, 8),),
    )
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="must control A banner"):
        s.apply("Pick up RED-1 a banner")
    assert isinstance(s.node, Decision)


# -------------------------------------------------------------------------------------------
# Martyrs
# -------------------------------------------------------------------------------------------

MARTYRS_A = ("Martyrs", "")
NEAR_OBJ = R + OR + 0.5  # centre distance at which an objective marker is 0.5" from a base
KILL = ["6,6,6,6", "1,1,1"]  # four critical hits (4 x 4 damage), three failed saves


def test_martyrs_token_when_incapacitated_contesting_and_reveal() -> None:
    # RED-6 (2 wounds) contests marker B, 0.5" from it; BLU-1 shoots it dead. Contest is
    # judged before removal: B gains A's Martyr token and the op is revealed.
    s = game(
        {"RED-6": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (27, 11)}},
        tac=MARTYRS_A,
        turn="B",
    )
    s, ev = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], KILL)
    assert s.operative("RED-6").incapacitated
    assert s.mission.fact("Martyrs:A:B") == 1
    assert revealed(s, "A")
    assert of_kind(ev, "tac_op_revealed")[0]["player"] == "A"


def test_martyrs_no_token_nor_reveal_when_not_contesting() -> None:
    # RED-6 is 3" south of marker B (and far from the others): not contesting, nothing
    # gained, the op stays secret.
    s = game(
        {"RED-6": {"at": (20.5, 11 - R - OR - 3)}, "BLU-1": {"at": (27, 11)}},
        tac=MARTYRS_A,
        turn="B",
    )
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], KILL)
    assert s.operative("RED-6").incapacitated
    assert s.mission.fact("Martyrs:A:B") is None
    assert not revealed(s, "A")
    # What A noted (its fallen operatives) is kept from B: it would betray the secret op.
    seen = observe(s, "B").mission
    assert seen.tac_ops[0] == "?"
    assert not [k for k, _ in seen.facts if "Martyrs" in k]


def test_martyrs_only_the_first_incapacitation_of_an_operative() -> None:
    # RED-6 was incapacitated before (set up again by some rule): no second token.
    s = game(
        {"RED-6": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (27, 11)}},
        tac=MARTYRS_A,
        turn="B",
        facts=(("secret:A:Martyrs:fallen", ("RED-6",)),),
    )
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], KILL)
    assert s.mission.fact("Martyrs:A:B") is None


def test_martyrs_the_enemy_op_gains_nothing() -> None:
    # B did not select Martyrs: A's operative dying on a marker gives B nothing either.
    s = game(
        {"RED-6": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (27, 11)}},
        tac=("", "Martyrs"),
        turn="B",
    )
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], KILL)
    assert not [k for k, _ in s.mission.facts if k.startswith("Martyrs")]


def test_martyrs_token_on_a_controlled_marker_scores_2vp() -> None:
    # One token on B; RED-1 alone contests B, so A controls it: removed for 2VP.
    s = game(
        {"RED-1": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (28, 20)}},
        tac=MARTYRS_A,
        revealed=(True, False),
        facts=(("Martyrs:A:B", 1),),
        last="RED-1",
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2
    assert s.mission.fact("Martyrs:A:B") is None


def test_martyrs_tokens_on_a_contested_marker_score_1vp_each_to_the_cap() -> None:
    # Three tokens on B; RED-1 and BLU-1 (APL 2 each) both contest it: nobody controls it,
    # 1VP per token removed, at most 2VP this turning point: one token stays. In the fourth
    # turning point nothing is left to keep a token for: removed without asking (in the
    # second and third it is the player's choice: tests/test_tac_op_token_choices.py).
    s = game(
        {"RED-1": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (20.5 + NEAR_OBJ, 11)}},
        tac=MARTYRS_A,
        revealed=(True, False),
        facts=(("Martyrs:A:B", 3),),
        last="RED-1",
        tp=4,
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2
    assert s.mission.fact("Martyrs:A:B") == 1


@pytest.mark.parametrize("tp", [1, 2])
def test_martyrs_nothing_without_contest_or_in_the_first_turning_point(tp: int) -> None:
    # TP2: RED-1 is far from B (no friendly contest), nothing scored and the token stays;
    # TP1: RED-1 controls B, but no op scores in the first turning point.
    x = 20.5 - NEAR_OBJ if tp == 1 else 5.0
    s = game(
        {"RED-1": {"at": (x, 11)}, "BLU-1": {"at": (28, 20)}},
        tac=MARTYRS_A,
        revealed=(True, False),
        facts=(("Martyrs:A:B", 1),),
        last="RED-1",
        tp=tp,
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0
    assert s.mission.fact("Martyrs:A:B") == 1


# -------------------------------------------------------------------------------------------
# Envoy
# -------------------------------------------------------------------------------------------

ENVOY_A = ("Envoy", "")


def to_gambit(s: GameState, last: str) -> GameState:
    """End the turning point with ``last``'s activation, then play the next Strategy phase
    up to A's first Gambit step decision (A wins the roll-off 6-1 and takes initiative)."""
    s, _ = end_tp(s, last)
    s, _ = play(s, [], ["6,1"])
    while isinstance(s.node, Decision) and s.node.kind == "initiative_card":
        s, _ = s.apply("Pass")
    s, _ = s.apply("Initiative A")
    assert isinstance(s.node, Decision) and s.node.kind == "gambit" and s.node.player == "A"
    return s


def test_envoy_gambit_selects_an_envoy_and_reveals_the_op() -> None:
    # In the Gambit step of TP2 A may select RED-1 or RED-2 (on the killzone) as its envoy,
    # a strategic gambit (1.4): the op is revealed; no second envoy that turning point.
    s = game(
        {"RED-1": {"at": (5, 5)}, "RED-2": {"at": (5, 15)}, "BLU-1": {"at": (28, 20)}},
        tac=ENVOY_A,
        tp=1,
        last="RED-1",
    )
    s = to_gambit(s, "RED-1")
    uses = [a for a in s.legal_actions() if a.verb == "Use"]
    assert uses == [
        Action("Use", text="envoy", target="RED-1"),
        Action("Use", text="envoy", target="RED-2"),
    ]
    s, ev = s.apply("Use envoy on RED-2")
    assert s.mission.fact("Envoy:A") == "RED-2"
    assert revealed(s, "A")
    assert of_kind(ev, "envoy_selected")
    s, _ = s.apply("Pass")  # B passes; A's turn again: no envoy offered any more
    assert not [a for a in s.legal_actions() if a.verb == "Use"]
    with pytest.raises(IllegalActionError, match="already selected an envoy"):
        s.apply("Use envoy on RED-1")


def test_envoy_not_one_selected_before_and_not_in_the_first_turning_point() -> None:
    # RED-1 was the envoy in TP2: in TP3 only RED-2 may be selected. In TP1 nothing.
    s = game(
        {"RED-1": {"at": (5, 5)}, "RED-2": {"at": (5, 15)}, "BLU-1": {"at": (28, 20)}},
        tac=ENVOY_A,
        revealed=(True, False),
        facts=(("Envoy:A:chosen", ("RED-1",)), ("Envoy:A:tp", 2)),
        last="RED-1",
    )
    s = to_gambit(s, "RED-1")
    assert [a.target for a in s.legal_actions() if a.verb == "Use"] == ["RED-2"]
    with pytest.raises(IllegalActionError, match="earlier turning point"):
        s.apply("Use envoy on RED-1")
    s1 = game({"RED-1": {"at": (5, 5)}}, tac=ENVOY_A, tp=1)
    assert envoy.ENVOY_GAMBIT.options(_w(s1), "A", {}) == []


def test_envoy_ends_at_the_next_ready_step() -> None:
    # RED-1 was the envoy in TP2; the Ready step of TP3 ends that.
    s = game(
        {"RED-1": {"at": (5, 5)}, "BLU-1": {"at": (28, 20)}},
        tac=ENVOY_A,
        revealed=(True, False),
        facts=(("Envoy:A", "RED-1"), ("Envoy:A:chosen", ("RED-1",)), ("Envoy:A:tp", 2)),
        last="RED-1",
    )
    s = to_gambit(s, "RED-1")
    assert s.mission.fact("Envoy:A") is None


def envoy_facts(op: str = "RED-1", tp: int = 2) -> tuple[tuple[str, Any], ...]:
    return (("Envoy:A", op), ("Envoy:A:chosen", (op,)), ("Envoy:A:tp", tp))


def test_envoy_scores_2vp_in_enemy_territory_unharmed() -> None:
    # RED-1 wholly within B's territory (x >= 15 + R), no enemy within control range, no
    # wounds lost: 2VP.
    s = game(
        {"RED-1": {"at": (20, 5)}, "BLU-1": {"at": (28, 20)}},
        tac=ENVOY_A,
        revealed=(True, False),
        facts=envoy_facts(),
        last="RED-1",
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 2


def test_envoy_scores_1vp_after_losing_wounds() -> None:
    # BLU-1 shoots the envoy RED-1 (10 wounds) for one critical hit (4 damage): it lives,
    # stays in B's territory out of enemy control range, but lost wounds: 1VP.
    s = game(
        {
            "RED-1": {"at": (20, 5)},
            "BLU-1": {"at": (27, 5)},
            "RED-2": {"at": (3, 20), "ready": False},
        },
        tac=ENVOY_A,
        revealed=(True, False),
        facts=envoy_facts(),
        turn="B",
    )
    s, _ = play(
        s,
        [
            "Activate BLU-1 engage",
            "Shoot BLU-1 gun at RED-1",
            "End activation",
            "Activate RED-1 engage",
            "End activation",
        ],
        ["6,1,1,1", "1,1,1"],
    )
    assert s.operative("RED-1").wounds == 6
    assert tac_vp(s, "A") == 1


@pytest.mark.parametrize(
    ("red", "blu", "case"),
    [
        ((20, 5), (20 + 2 * R + 0.5, 5), "an enemy within control range"),
        ((15.3, 5), (28, 20), "not wholly within enemy territory"),
    ],
)
def test_envoy_scores_nothing_otherwise(
    red: tuple[float, float], blu: tuple[float, float], case: str
) -> None:
    s = game(
        {"RED-1": {"at": red}, "BLU-1": {"at": blu}},
        tac=ENVOY_A,
        revealed=(True, False),
        facts=envoy_facts(),
        last="RED-1",
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0, case


# -------------------------------------------------------------------------------------------
# Rout
# -------------------------------------------------------------------------------------------

ROUT_A = ("Rout", "")


def rout_shot(red_gap: float, target: str, **kw: Any) -> tuple[GameState, list[Event]]:
    """RED-1, its base ``red_gap`` inches west of B's drop zone (x 24), shoots ``target``
    at (22, 5) dead: four critical hits (16 damage), three failed saves."""
    s = game({"RED-1": {"at": (24 - R - red_gap, 5)}, target: {"at": (22, 5)}}, tac=ROUT_A, **kw)
    return play(s, ["Activate RED-1 engage", f"Shoot RED-1 gun at {target}"], KILL)


def test_rout_kill_near_the_enemy_drop_zone_scores_1vp_and_reveals() -> None:
    # RED-1 is 5" from B's drop zone (within 6") and incapacitates BLU-6 (Wounds 2): 1VP,
    # and scoring reveals the op.
    s, ev = rout_shot(5.0, "BLU-6")
    assert s.operative("BLU-6").incapacitated
    assert tac_vp(s, "A") == 1
    assert revealed(s, "A")
    assert of_kind(ev, "tac_op_revealed")[0]["why"] == "the first VP from Rout"


def test_rout_kill_of_a_wounds_12_enemy_scores_2vp() -> None:
    # BLU-5 (Captain) has Wounds 12: 2VP.
    s, _ = rout_shot(5.0, "BLU-5")
    assert s.operative("BLU-5").incapacitated
    assert tac_vp(s, "A") == 2


def test_rout_kill_far_from_the_enemy_drop_zone_scores_nothing() -> None:
    # RED-1 is 6.5" from B's drop zone: no VP, and the op stays secret.
    s, _ = rout_shot(6.5, "BLU-6")
    assert s.operative("BLU-6").incapacitated
    assert tac_vp(s, "A") == 0
    assert not revealed(s, "A")


def test_rout_at_most_2vp_per_turning_point() -> None:
    # A already scored 1VP from Rout this turning point: the Captain's 2VP are capped to 1.
    s = game({"RED-1": {"at": (24 - R - 5, 5)}, "BLU-5": {"at": (22, 5)}}, tac=ROUT_A)
    scored = (("tac", 1, 0),)
    s = attrs.evolve(s, mission=attrs.evolve(s.mission, vp=scored, tp_vp=scored))
    s, _ = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-5"], KILL)
    assert tac_vp(s, "A") == 2


# -------------------------------------------------------------------------------------------
# Sweep & Clear
# -------------------------------------------------------------------------------------------

SWEEP_A = ("Sweep & Clear", "")


def test_sweep_swept_token_when_an_enemy_contesting_is_incapacitated_and_reveal() -> None:
    # BLU-6 contests marker B (0.5" away); RED-1 shoots it dead: B gains A's Swept token
    # (contest judged before removal) and the op is revealed.
    s = game(
        {"RED-1": {"at": (14, 5)}, "BLU-6": {"at": (20.5, 11 - NEAR_OBJ)}},
        tac=SWEEP_A,
    )
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-6"], KILL)
    assert s.operative("BLU-6").incapacitated
    assert s.mission.fact("Sweep & Clear:A:swept") == ("B",)
    assert revealed(s, "A")
    assert of_kind(ev, "swept_token")


def test_sweep_no_token_nor_reveal_when_the_enemy_did_not_contest() -> None:
    # BLU-6 is 3" south of B: nothing gained, the op stays secret.
    s = game(
        {"RED-1": {"at": (14, 5)}, "BLU-6": {"at": (20.5, 11 - R - OR - 3)}},
        tac=SWEEP_A,
    )
    s, _ = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-6"], KILL)
    assert s.operative("BLU-6").incapacitated
    assert s.mission.fact("Sweep & Clear:A:swept") is None
    assert not revealed(s, "A")


def test_sweep_clear_action_clears_a_controlled_marker_and_reveals() -> None:
    # RED-1 controls the centre marker (0.5" from it, alone): Clear costs 1AP, the marker
    # is cleared for the turning point and the op revealed; a second Clear there is legal
    # (the pack prints no condition against it) but changes nothing and is not offered.
    s = game(
        {"RED-1": {"at": (15 - NEAR_OBJ, 11)}, "RED-2": {"at": (15 + NEAR_OBJ, 11)}},
        tac=SWEEP_A,
    )
    s, ev = play(s, ["Activate RED-1 engage", "Act RED-1 clear centre"])
    assert s.mission.fact("Sweep & Clear:A:cleared") == ("centre",)
    assert revealed(s, "A")
    assert s.operative("RED-1").ap == 1
    assert of_kind(ev, "marker_cleared")
    s, _ = play(s, ["End activation", "Activate RED-2 engage"])
    assert s.is_legal("Act RED-2 clear centre")
    assert "Act RED-2 clear centre" not in [str(x) for x in list(s.legal_actions())]
    s, ev = play(s, ["Act RED-2 clear centre"])
    assert s.mission.fact("Sweep & Clear:A:cleared") == ("centre",)
    assert not of_kind(ev, "marker_cleared") and s.operative("RED-2").ap == 1


@pytest.mark.parametrize(
    ("at", "tp", "why"),
    [
        ((15 - NEAR_OBJ, 11), 1, "first turning point"),
        ((15 - R - OR - 2, 11), 2, "must control"),
    ],
)
def test_sweep_clear_conditions(at: tuple[float, float], tp: int, why: str) -> None:
    s = game({"RED-1": {"at": at}, "BLU-1": {"at": (28, 20)}}, tac=SWEEP_A, tp=tp)
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match=why):
        s.apply("Act RED-1 clear centre")


def test_sweep_controlled_swept_marker_scores_1vp() -> None:
    # B has A's Swept token and RED-1 controls B: 1VP.
    s = game(
        {"RED-1": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (28, 20)}},
        tac=SWEEP_A,
        revealed=(True, False),
        facts=(("Sweep & Clear:A:swept", ("B",)),),
        last="RED-1",
    )
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 1


def test_sweep_controlled_swept_and_cleared_marker_scores_2vp() -> None:
    # RED-1 clears B (which has A's Swept token) and controls it at the end: 2VP. The
    # cleared state ends with the turning point.
    s = game(
        {"RED-1": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-1": {"at": (28, 20)}},
        tac=SWEEP_A,
        revealed=(True, False),
        facts=(("Sweep & Clear:A:swept", ("B",)),),
        last="RED-1",
    )
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 clear b", "End activation"])
    assert tac_vp(s, "A") == 2
    assert s.mission.fact("Sweep & Clear:A:cleared") is None


def test_sweep_uncontrolled_swept_marker_scores_nothing_and_tokens_go_at_ready_step() -> None:
    # B has A's Swept token but BLU-5 (APL 3) out-controls RED-1 (APL 2): nothing. The
    # token is gone after the next Ready step.
    s = game(
        {"RED-1": {"at": (20.5 - NEAR_OBJ, 11)}, "BLU-5": {"at": (20.5 + NEAR_OBJ, 11)}},
        tac=SWEEP_A,
        revealed=(True, False),
        facts=(("Sweep & Clear:A:swept", ("B",)),),
        last="RED-1",
    )
    s = to_gambit(s, "RED-1")
    assert tac_vp(s, "A") == 0
    assert s.mission.fact("Sweep & Clear:A:swept") is None


# -------------------------------------------------------------------------------------------
# Dominate
# -------------------------------------------------------------------------------------------

DOMINATE_A = ("Dominate", "")


def test_dominate_token_for_the_incapacitating_operative_and_reveal() -> None:
    # RED-1 shoots BLU-6 dead: RED-1 gains a Dominate token and the op is revealed.
    s = game({"RED-1": {"at": (14, 5)}, "BLU-6": {"at": (20, 5)}}, tac=DOMINATE_A)
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-6"], KILL)
    assert s.mission.fact("Dominate:A") == (("RED-1", 1),)
    assert revealed(s, "A")
    assert of_kind(ev, "dominate_token")


def test_dominate_no_token_when_an_enemy_makes_the_kill() -> None:
    # BLU-1 incapacitates RED-6: A (Dominate) gains nothing and its op stays secret.
    s = game({"RED-6": {"at": (14, 5)}, "BLU-1": {"at": (20, 5)}}, tac=DOMINATE_A, turn="B")
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at RED-6"], KILL)
    assert s.operative("RED-6").incapacitated
    assert s.mission.fact("Dominate:A") is None
    assert not revealed(s, "A")


def test_dominate_tokens_score_1vp_each_at_most_3vp_in_tp3() -> None:
    # RED-1 and RED-2 hold 2 tokens each at the end of TP3: 4 tokens, but at most 3VP this
    # turning point. Which token stays is A's choice (RED-1's two, then one of RED-2's
    # here), one token at a time; then the turning point ends.
    s = game(
        {"RED-1": {"at": (5, 5)}, "RED-2": {"at": (5, 15)}, "BLU-1": {"at": (28, 20)}},
        tac=DOMINATE_A,
        revealed=(True, False),
        facts=(("Dominate:A", (("RED-1", 2), ("RED-2", 2))),),
        last="RED-1",
        tp=3,
    )
    s, _ = end_tp(s, "RED-1")
    s, _ = play(s, ["Op dominate red-1", "Op dominate red-1", "Op dominate red-2"])
    assert tac_vp(s, "A") == 3
    assert s.mission.fact("Dominate:A") == (("RED-2", 1),)


def test_dominate_no_score_in_tp2_nor_from_incapacitated_operatives() -> None:
    # TP2 does not score; in TP4 only RED-1's token scores: RED-2 is incapacitated.
    facts = (("Dominate:A", (("RED-1", 1), ("RED-2", 1))),)
    ops: dict[str, dict[str, Any]] = {"RED-1": {"at": (5, 5)}, "BLU-1": {"at": (28, 20)}}
    s = game(ops, tac=DOMINATE_A, revealed=(True, False), facts=facts, last="RED-1")
    s, _ = end_tp(s, "RED-1")
    assert tac_vp(s, "A") == 0
    s = game(ops, tac=DOMINATE_A, revealed=(True, False), facts=facts, last="RED-1", tp=4)
    dead = tuple(
        attrs.evolve(o, incapacitated=True) if o.id == "RED-2" else o for o in s.operatives
    )
    s, _ = end_tp(attrs.evolve(s, operatives=dead), "RED-1")
    assert tac_vp(s, "A") == 1
