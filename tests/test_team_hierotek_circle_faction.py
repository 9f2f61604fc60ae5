"""The Hierotek Circle's faction rules, abilities and unique actions (lane "faction"): one
scripted test per rule at least, named after it, on the LAB killzone against the BLU test
team."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

import teams.hierotek_circle  # noqa: F401  (registers the rules)
from engine.game import Chance, Decision, GameState
from engine.game.context import GameOptions
from engine.game.tokens import Token
from engine.game.work import Work
from engine.missions.kill_op import recount_kill_grade
from engine.rulesets import KT24, position
from engine.teams.model import Roster
from teams.hierotek_circle import reanimation
from tests.test_game_rules_common import BLU, LAB, of_kind, play, roster
from tests.test_team_weapon_rules import lab_team

KILL_OP = GameOptions(mission="kill_op")
GUARDIAN = "Immortal Guardian [Tesla Carbine; Bayonet]"
KILL = ["6,6,6,6", "1,1,1"]  # BLU's gun: 4 crits (4 damage each); no save


def lab(
    types: Sequence[str],
    operatives: Mapping[str, Any],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: Hierotek Circle (player A, roster entries) against BLU."""
    kw.setdefault("cp", (0, 0))
    team = Roster.from_entries(lab_team("hierotek_circle"), list(types))
    return position(LAB, team, roster(BLU, tuple(blu)), operatives=operatives, **kw)


def pass_windows(s: GameState) -> GameState:
    """Pass in every ploy window until another decision or a chance node."""
    while isinstance(s.node, Decision) and s.node.kind in ("ploy", "gambit"):
        s, _ = s.apply("Pass")
    return s


def kill_hie_1(marker_at: str = "5,14", **kw: Any) -> GameState:
    """B shoots HIE-1 (Guardian, 1 wound left) dead in TP1; A places its Reanimation marker
    (by default where HIE-1 stood); HIE-2 (Guardian) is expended far away. Every other
    operative is expended, so the turning point then ends."""
    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (5, 14), "wounds": 1, "ready": False},
        "HIE-2": {"at": (3, 3), "ready": False},
        "BLU-1": {"at": (16, 14)},
        "BLU-2": {"at": (25, 20), "ready": False},
    }
    s = lab([GUARDIAN, GUARDIAN], ops, turn="B", options=KILL_OP, **kw)
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-1"], KILL)
    s = pass_windows(s)
    s, _ = play(s, [f"Place marker HIE-1 reanimation at {marker_at}"])
    s = pass_windows(s)
    s, _ = s.apply("End activation")
    return pass_windows(s)


def to_ready_step(s: GameState) -> GameState:
    """From the end of TP1 to TP2's Ready step: the initiative roll-off (A wins, keeps it)."""
    s = pass_windows(s)
    s, _ = play(s, [], ["4,3"])
    s, _ = s.apply("Initiative A")
    return s


# -------------------------------------------------------------------------------------------
# Kill op: recount_kill_grade (engine/missions/kill_op.py)
# -------------------------------------------------------------------------------------------


def test_recount_kill_grade_lowers_the_grade_and_the_vp() -> None:
    # B killed HIE-1: against a starting number of 5 (Reanimation Protocols), 1 kill is grade 1
    # and scores 1VP. Bringing HIE-1 back (no longer incapacitated) and recounting drops B to
    # grade 0 and takes the 1VP back; recounting again changes nothing (never raises).
    s = kill_hie_1()
    assert s.players[1].kill_grade == 1 and s.players[1].vp == 1
    w = Work(s)
    w.set_op("HIE-1", incapacitated=False, placed=True, wounds=1)
    assert recount_kill_grade(w, "B") == 1
    assert w.pl("B").kill_grade == 0 and w.pl("B").vp == 0
    assert w.mission.op_vp("kill", "B") == 0
    assert [e.kind for e in w.events] == ["kill_grade", "vp_lost"]
    assert recount_kill_grade(w, "B") == 0


# -------------------------------------------------------------------------------------------
# Reanimation Protocols
# -------------------------------------------------------------------------------------------


def markers(s: GameState) -> list[Token]:
    return [t for t in s.tokens if t.kind == reanimation.MARKER]


def test_reanimation_protocols_marker_placed_within_control_range() -> None:
    # Before HIE-1 is removed, A decides where its marker goes: within its control range
    # (within 1" of its base, edge to edge: 2.5" from its centre is 1.48" from the base to
    # the 20 mm marker's edge, too far; 1.5" is 0.48").
    ops: dict[str, dict[str, Any]] = {
        "HIE-1": {"at": (5, 14), "wounds": 1, "ready": False},
        "BLU-1": {"at": (16, 14)},
    }
    s = lab([GUARDIAN], ops, turn="B", options=KILL_OP)
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-1"], KILL)
    s = pass_windows(s)
    assert isinstance(s.node, Decision) and s.node.player == "A"
    assert not s.is_legal("Place marker HIE-1 reanimation at 7.5,14")
    assert s.is_legal("Place marker HIE-1 reanimation at 6.5,14")
    s, _ = s.apply("Place marker HIE-1 reanimation at 6.5,14")
    (tok,) = markers(s)
    assert (tok.x, tok.y) == (6.5, 14.0)


def test_reanimation_protocols_places_a_marker_and_counts_5_for_the_kill_op() -> None:
    # HIE-1 incapacitated for the first time: a marker where it stood, then removed. The
    # team has 2 operatives here, but the opponent counts 5: 1 kill is grade 1 (with 2
    # starting operatives it would need 1 kill for grade 1 too, but 2 kills would be grade 5:
    # checked through the grade table of 5, where grade 1 needs exactly 1).
    s = kill_hie_1()
    (tok,) = markers(s)
    assert (tok.name, tok.owner, tok.x, tok.y) == ("reanimation HIE-1", "A", 5.0, 14.0)
    hie1 = s.operative("HIE-1")
    assert hie1.incapacitated and not hie1.placed
    from engine.missions.kill_op import kill_op_starting

    assert kill_op_starting(Work(s), "A") == 5


def test_reanimation_protocols_returns_on_3_plus_and_lowers_kill_grade() -> None:
    # TP2 Ready step: the only marker is selected without a decision; a 3 REANIMATES HIE-1:
    # set up within 3" of the marker (here on it), order chosen (Conceal), 1 wound, ready;
    # the marker is removed; B's kill grade falls 1 -> 0 and B loses the 1VP it scored.
    s = to_ready_step(kill_hie_1())
    assert isinstance(s.node, Chance) and "Reanimation (HIE-1)" in s.node.request.label
    s, ev = play(s, ["Deploy HIE-1 at 5,14", "Use conceal order on HIE-1"], ["3"])
    o = s.operative("HIE-1")
    assert o.alive and o.wounds == 1 and o.order == "conceal" and o.ready
    assert (o.x, o.y) == (5.0, 14.0)
    assert not markers(s)
    assert s.players[1].kill_grade == 0 and s.players[1].vp == 0
    kinds = [e.kind for e in ev]
    assert kinds.index("operative_reanimated") < kinds.index("vp_lost")


def test_reanimation_protocols_fails_on_1_or_2_and_keeps_the_marker() -> None:
    # A 2: the marker stays (selected this turning point: no second roll for it), HIE-1
    # stays incapacitated and B keeps grade 1.
    s = to_ready_step(kill_hie_1())
    s, ev = play(s, [], ["2"])
    assert not isinstance(s.node, Chance) or "Reanimation" not in s.node.request.label
    (tok,) = markers(s)
    assert tok.counter("selected") == 2
    assert s.operative("HIE-1").incapacitated
    assert s.players[1].kill_grade == 1 and s.players[1].vp == 1
    assert [e["roll"] for e in of_kind(ev, "reanimation_roll")] == [2]


def test_reanimation_protocols_set_up_limits() -> None:
    # Farther than 3" from the marker, or within control range of an enemy, is refused.
    s = to_ready_step(kill_hie_1())
    s, _ = play(s, [], ["6"])
    assert not s.is_legal("Deploy HIE-1 at 10,14")  # 5" from the marker
    assert s.is_legal("Deploy HIE-1 at 7,14")
    legal = list(s.legal_actions())
    assert legal and all(a.verb == "Deploy" for a in legal)


def test_reanimation_protocols_only_the_first_time() -> None:
    # An operative already REANIMATED once gets no second marker.
    s = to_ready_step(kill_hie_1())
    s, _ = play(s, ["Deploy HIE-1 at 5,14", "Use engage order on HIE-1"], ["4"])
    w = Work(s)
    from engine.game import universal

    universal.inflict(w, "HIE-1", 5, "test", by="BLU-1")
    assert w.op("HIE-1").incapacitated
    assert not [t for t in w.tokens if t.kind == reanimation.MARKER]
    # ...and the kill grade rises again for it (1VP scored again).
    assert w.pl("B").kill_grade == 1


# -------------------------------------------------------------------------------------------
# Living Metal
# -------------------------------------------------------------------------------------------


def test_living_metal_heals_d3_plus_1_in_the_ready_step() -> None:
    # HIE-2 lost 6 wounds (4 of 10 left). In TP2's Ready step (after Reanimation: no marker
    # here) it rolls one D6: a 5 is D3 = 3, +1: 4 wounds regained (8). A full-wound operative
    # rolls nothing; never above its Wounds stat.
    ops = {
        "HIE-1": {"at": (5, 14), "ready": False},
        "HIE-2": {"at": (3, 3), "wounds": 4, "ready": False},
        "BLU-1": {"at": (25, 14), "ready": False},
    }
    s = lab([GUARDIAN, GUARDIAN], ops)
    s = to_ready_step(s)
    assert isinstance(s.node, Chance) and s.node.request.label == "Living Metal (HIE-2)"
    s, ev = play(s, [], ["5"])
    assert s.operative("HIE-2").wounds == 8
    assert s.operative("HIE-1").wounds == 10
    assert [(e["op"], e["wounds"]) for e in of_kind(ev, "wounds_regained")] == [("HIE-2", 4)]


def test_living_metal_after_reanimation_heals_the_returned_operative() -> None:
    # Reanimation first (HIE-1 back with 1 wound), then Living Metal: HIE-1 rolls 1 -> D3 1,
    # +1 = 2 regained: 3 wounds.
    s = to_ready_step(kill_hie_1())
    s, _ = play(s, ["Deploy HIE-1 at 5,14", "Use engage order on HIE-1"], ["3"])
    assert isinstance(s.node, Chance) and s.node.request.label == "Living Metal (HIE-1)"
    s, _ = play(s, [], ["1"])
    assert s.operative("HIE-1").wounds == 3


_SEEN: list[int] = []
"""HIE-2's wounds each time a :class:`_SeeWounds` frame ran."""


@attrs.frozen(slots=True)
class _SeeWounds:
    """A Gambit-step frame that notes HIE-2's wounds in :data:`_SEEN` when it runs."""

    def run(self, w: Work) -> None:
        _SEEN.append(w.op("HIE-2").wounds)
        w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise AssertionError

    def options(self, w: Work) -> list[Any]:  # pragma: no cover
        return []

    def act(self, w: Work, a: Any) -> None:  # pragma: no cover
        raise AssertionError


def test_living_metal_ends_the_ready_step_before_the_gambit_steps() -> None:
    # The rule heals "in the Ready step, after all other rules in this step": before the
    # Gambit step begins. A Gambit-step rule added before the team's (as the mission's
    # primary op selection and crit op picks are) must see HIE-2 already healed. The old
    # reading (Living Metal as the first Gambit step of the TEAM's) ran after such a step,
    # which then saw 4 wounds, not 8.
    ops = {
        "HIE-1": {"at": (5, 14), "ready": False},
        "HIE-2": {"at": (3, 3), "wounds": 4, "ready": False},
        "BLU-1": {"at": (25, 14), "ready": False},
    }
    s = lab([GUARDIAN, GUARDIAN], ops)
    s = s.with_hooks(lambda h: h.gambit_steps.insert(0, lambda w: _SeeWounds()))
    s = to_ready_step(s)
    assert isinstance(s.node, Chance) and s.node.request.label == "Living Metal (HIE-2)"
    _SEEN.clear()
    play(s, [], ["5"])
    assert _SEEN == [8]


# -------------------------------------------------------------------------------------------
# Scuttler
# -------------------------------------------------------------------------------------------

ACCEL = "Plasmacyte Accelerator"
REANIM = "Plasmacyte Reanimator"


def shoot_legal(s: GameState, action: str) -> bool:
    return s.is_legal(action)


def test_scuttler_conceal_in_cover_not_a_target_even_for_seek() -> None:
    # HIE-1 (Plasmacyte, Conceal) behind the LAB rubble seen from BLU-1 at (5, 4): in cover.
    # The Seek Gun ignores cover when selecting targets, but Scuttler takes precedence.
    # A Guardian in the same spot IS a valid Seek target (the limit: only Plasmacytes).
    ops = {"HIE-1": {"at": (16, 4), "order": "conceal"}, "BLU-1": {"at": (5, 4)}}
    s = lab([ACCEL], ops, blu=("Gunner",), turn="B")
    s, _ = s.apply("Activate BLU-1 engage")
    assert not s.is_legal("Shoot BLU-1 seek gun at HIE-1")
    s = lab([GUARDIAN], ops, blu=("Gunner",), turn="B")
    s, _ = s.apply("Activate BLU-1 engage")
    assert s.is_legal("Shoot BLU-1 seek gun at HIE-1")


def test_scuttler_limits_within_2_inches_and_engage_order() -> None:
    # Within 2" (bases 1.38" apart) the rule does not apply: the Seek Gun may target it.
    # With an Engage order it does not apply either (any gun may, cover or not).
    near = {"HIE-1": {"at": (16, 4), "order": "conceal"}, "BLU-1": {"at": (13.5, 4)}}
    s = lab([ACCEL], near, blu=("Gunner",), turn="B")
    s, _ = s.apply("Activate BLU-1 engage")
    assert s.is_legal("Shoot BLU-1 seek gun at HIE-1")
    engage = {"HIE-1": {"at": (16, 4), "order": "engage"}, "BLU-1": {"at": (5, 4)}}
    s = lab([ACCEL], engage, blu=("Gunner",), turn="B")
    s, _ = s.apply("Activate BLU-1 engage")
    assert s.is_legal("Shoot BLU-1 seek gun at HIE-1")


def test_scuttler_fall_back_costs_1_ap_less() -> None:
    # The Plasmacyte (APL 2) within BLU-1's control range falls back for 1AP (2AP printed):
    # 1AP is left. A Guardian (APL 2) pays 2AP: nothing left.
    ops = {"HIE-1": {"at": (15, 14)}, "BLU-1": {"at": (16.4, 14)}}
    s = lab([ACCEL], ops)
    s, _ = play(s, ["Activate HIE-1 engage", "Fall Back HIE-1 to 11,14"])
    assert s.operative("HIE-1").ap == 1
    s = lab([GUARDIAN], ops)
    s, _ = play(s, ["Activate HIE-1 engage", "Fall Back HIE-1 to 11,14"])
    assert s.operative("HIE-1").ap == 0


def test_scuttler_only_its_own_weapons_and_unique_action() -> None:
    # Hooks asked directly: a weapon not on its datacard is refused; another operative's
    # unique action (Canoptek Repair, on the Technomancer's card) is refused for it.
    ops = {"HIE-1": {"at": (3, 14)}, "HIE-2": {"at": (3, 10)}, "BLU-1": {"at": (25, 14)}}
    s = lab([ACCEL, "Technomancer"], ops)
    w = Work(s)
    o = w.op("HIE-1")
    why = w.would("would_refuse_weapon", None, op=o, weapon="bolt pistol", profile=None)
    assert why is not None and "Scuttler" in why
    assert w.would("would_refuse_weapon", None, op=o, weapon="spark", profile=None) is None
    from teams.hierotek_circle.actions import CANOPTEK_REPAIR

    why = w.would("would_refuse_action", None, op="HIE-1", action="x", rule_action=CANOPTEK_REPAIR)
    assert why is not None and "Scuttler" in why


# -------------------------------------------------------------------------------------------
# Steadfast
# -------------------------------------------------------------------------------------------


def test_steadfast_counts_apl_3_for_marker_control() -> None:
    # On LAB's objective (20, 14.5): a Guardian (APL 2) against the BLU Captain (APL 3).
    # Steadfast: 3 against 3, a tie, so nobody controls it (without it B would: 2 < 3). An
    # Accelerator (APL 2, no Steadfast) loses it to the Captain.
    from engine.game import universal

    ops = {"HIE-1": {"at": (19.5, 15.5)}, "BLU-1": {"at": (20.5, 13.5)}}
    s = lab([GUARDIAN], ops, blu=("Captain",))
    assert universal.controller(Work(s), "obj") == ""
    s = lab([ACCEL], ops, blu=("Captain",))
    assert universal.controller(Work(s), "obj") == "B"


# -------------------------------------------------------------------------------------------
# Deathmarked
# -------------------------------------------------------------------------------------------

DISINTEGRATOR = "synaptic disintegrator"


def test_deathmarked_token_after_the_shoot_action() -> None:
    # HIE-1 (Deathmark) shoots BLU-1 and does not kill it: BLU-1 gains A's Deathmarked token
    # (when the Shoot action ends).
    ops = {"HIE-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}}
    s = lab(["Deathmark"], ops)
    s, ev = play(
        s, ["Activate HIE-1 engage", f"Shoot HIE-1 {DISINTEGRATOR} at BLU-1"], ["1,1,1,1", "1,1"]
    )
    from teams.hierotek_circle.abilities import deathmarked

    assert deathmarked(Work(s), "BLU-1", "A")
    assert [e["op"] for e in of_kind(ev, "token_gained")] == ["BLU-1"]


def test_deathmarked_seek_against_a_marked_concealed_target() -> None:
    # BLU-1 (Conceal) behind the rubble: in cover, not a valid target; with A's Deathmarked
    # token, a Deathmark's weapons have Seek: a valid target, and Seek is in its rules.
    from engine.game.attacks import attack_profile
    from engine.game.state import Effect

    ops = {"HIE-1": {"at": (5, 4)}, "BLU-1": {"at": (16, 4), "order": "conceal"}}
    s = lab(["Deathmark"], ops)
    token = Effect("deathmarked", "BLU-1", "end_battle", source="HIE-1", detail="A")
    s = attrs.evolve(s, effects=(*s.effects, token))
    s, _ = s.apply("Activate HIE-1 engage")
    assert s.is_legal(f"Shoot HIE-1 {DISINTEGRATOR} at BLU-1")
    w = Work(s)
    prof = attack_profile(w, w.op("HIE-1"), DISINTEGRATOR, "ranged", target="BLU-1")
    assert "Seek" in str(prof.rules)


def test_deathmarked_limits_no_token_no_seek() -> None:
    # Without the token the concealed BLU-1 in cover is not a valid target of a Deathmark;
    # a kill leaves no token (an incapacitated target gains none).
    ops = {"HIE-1": {"at": (5, 4)}, "BLU-1": {"at": (16, 4), "order": "conceal"}}
    s = lab(["Deathmark"], ops)
    s, _ = s.apply("Activate HIE-1 engage")
    assert not s.is_legal(f"Shoot HIE-1 {DISINTEGRATOR} at BLU-1")
    ops = {"HIE-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14), "wounds": 1}}
    s = lab(["Deathmark"], ops)
    s, _ = play(s, ["Activate HIE-1 engage", f"Shoot HIE-1 {DISINTEGRATOR} at BLU-1"], ["6,6,6,6"])
    assert not [e for e in s.effects if e.kind == "deathmarked"]


# -------------------------------------------------------------------------------------------
# Reanimate (Plasmacyte Reanimator)
# -------------------------------------------------------------------------------------------


def with_marker(
    s: GameState, op: str, at: tuple[float, float], activated: bool = False
) -> GameState:
    """``op`` (not on the killzone) incapacitated earlier, its Reanimation marker at ``at``;
    ``activated``: it was activated this turning point (before it was incapacitated)."""
    tok = Token(reanimation.MARKER, "A", reanimation.marker_name(op), at[0], at[1])
    ops = tuple(
        attrs.evolve(o, incapacitated=True, ready=False) if o.id == op else o for o in s.operatives
    )
    players = s.players
    if activated:
        a = attrs.evolve(players[0], uses=((f"activated_tp:{op}", s.tp),))
        players = (a, players[1])
    return attrs.evolve(s, tokens=(*s.tokens, tok), operatives=ops, players=players)


REANIMATE_OPS = {"HIE-1": {"at": (3, 14)}, "BLU-1": {"at": (25, 14), "ready": False}}


def test_reanimate_on_3_plus_returns_the_operative_ready() -> None:
    # The Reanimator (HIE-1) selects HIE-2's marker 4" away and rolls a 3: HIE-2 is
    # REANIMATED (set up within 3" of the marker, 1 wound, order chosen); it had not been
    # activated this turning point, so it is ready. The action cost 1AP (APL 2: 1 left).
    s = with_marker(lab([REANIM, GUARDIAN], REANIMATE_OPS), "HIE-2", (7, 14))
    s, _ = s.apply("Activate HIE-1 engage")
    assert {str(a) for a in s.legal_actions() if a.verb == "Act"} == {
        "Act HIE-1 reanimate on HIE-2",
        "Act HIE-1 reanimate 2ap on HIE-2",
    }
    s, ev = play(
        s,
        ["Act HIE-1 reanimate on HIE-2", "Deploy HIE-2 at 8,14", "Use engage order on HIE-2"],
        ["3"],
    )
    o = s.operative("HIE-2")
    assert o.alive and o.wounds == 1 and o.ready and o.order == "engage"
    assert s.operative("HIE-1").ap == 1
    assert not markers(s)
    assert [e["source"] for e in of_kind(ev, "operative_reanimated")] == ["Reanimate"]


def test_reanimate_fails_on_1_or_2() -> None:
    # A 2: nothing; the marker stays.
    s = with_marker(lab([REANIM, GUARDIAN], REANIMATE_OPS), "HIE-2", (7, 14))
    s, _ = play(s, ["Activate HIE-1 engage", "Act HIE-1 reanimate on HIE-2"], ["2"])
    assert s.operative("HIE-2").incapacitated and len(markers(s)) == 1


def test_reanimate_2ap_without_a_roll_and_expended_if_activated() -> None:
    # For 2AP no die is rolled. HIE-2 had been activated this turning point: set up
    # expended.
    s = with_marker(lab([REANIM, GUARDIAN], REANIMATE_OPS), "HIE-2", (7, 14), activated=True)
    s, _ = play(
        s,
        [
            "Activate HIE-1 engage",
            "Act HIE-1 reanimate 2ap on HIE-2",
            "Deploy HIE-2 at 7,14",
            "Use conceal order on HIE-2",
        ],
    )
    o = s.operative("HIE-2")
    assert o.alive and not o.ready and o.order == "conceal"
    assert s.operative("HIE-1").ap == 0


def test_reanimate_limits_range_and_control_range() -> None:
    # A marker more than 6" away is not offered; nor anything while an enemy is within the
    # Reanimator's control range.
    s = with_marker(lab([REANIM, GUARDIAN], REANIMATE_OPS), "HIE-2", (12, 14))
    s, _ = s.apply("Activate HIE-1 engage")
    assert not [a for a in s.legal_actions() if a.verb == "Act"]
    near = {"HIE-1": {"at": (3, 14)}, "BLU-1": {"at": (4.3, 14)}}
    s = with_marker(lab([REANIM, GUARDIAN], near), "HIE-2", (5, 10))
    s, _ = s.apply("Activate HIE-1 engage")
    assert not s.is_legal("Act HIE-1 reanimate on HIE-2")


# -------------------------------------------------------------------------------------------
# Accelerate (Plasmacyte Accelerator)
# -------------------------------------------------------------------------------------------


def test_accelerate_adds_1_apl_to_a_deathmark_or_immortal() -> None:
    # HIE-2 (Deathmark, APL 2) 3" away: APL 3 after Accelerate (until the end of its next
    # activation). HIE-3 (Technomancer) is not a DEATHMARK or IMMORTAL: not offered.
    ops = {
        "HIE-1": {"at": (3, 14)},
        "HIE-2": {"at": (6, 14)},
        "HIE-3": {"at": (3, 11)},
        "BLU-1": {"at": (25, 14), "ready": False},
    }
    s = lab([ACCEL, "Deathmark", "Technomancer"], ops)
    s, _ = s.apply("Activate HIE-1 engage")
    assert s.is_legal("Act HIE-1 accelerate on HIE-2")
    assert not s.is_legal("Act HIE-1 accelerate on HIE-3")
    s, _ = s.apply("Act HIE-1 accelerate on HIE-2")
    w = Work(s)
    assert w.apl(w.op("HIE-2")) == 3


def test_accelerate_limits_6_inches() -> None:
    # 7" away: not offered.
    ops = {"HIE-1": {"at": (3, 14)}, "HIE-2": {"at": (11, 14)}, "BLU-1": {"at": (25, 4)}}
    s = lab([ACCEL, "Deathmark"], ops)
    s, _ = s.apply("Activate HIE-1 engage")
    assert not s.is_legal("Act HIE-1 accelerate on HIE-2")


# -------------------------------------------------------------------------------------------
# Multi-Dimensional Vision (Deathmark)
# -------------------------------------------------------------------------------------------


def test_multi_dimensional_vision_targets_not_obscured_until_next_activation() -> None:
    # From (5, 10), BLU-1 at (16, 10) is obscured by the LAB ruin. After the action it is
    # not (for HIE-1's shots); an other Deathmark still sees it obscured.
    from engine.game.shoot_targets import targeting

    ops = {
        "HIE-1": {"at": (5, 10)},
        "HIE-2": {"at": (5, 8.5)},
        "BLU-1": {"at": (16, 10)},
    }
    s = lab(["Deathmark", "Deathmark"], ops)
    w = Work(s)
    assert targeting(w, w.op("HIE-1"), w.op("BLU-1")).obscured
    s, _ = play(s, ["Activate HIE-1 engage", "Act HIE-1 multi-dimensional vision"])
    w = Work(s)
    assert not targeting(w, w.op("HIE-1"), w.op("BLU-1")).obscured
    assert targeting(w, w.op("HIE-2"), w.op("BLU-1")).obscured


def test_multi_dimensional_vision_not_within_enemy_control_range() -> None:
    ops = {"HIE-1": {"at": (15, 14)}, "BLU-1": {"at": (16.4, 14)}}
    s = lab(["Deathmark"], ops)
    s, _ = s.apply("Activate HIE-1 engage")
    assert not s.is_legal("Act HIE-1 multi-dimensional vision")


# -------------------------------------------------------------------------------------------
# Technomancer: Augment Weapon, Canoptek Repair, Reinforce Metal; Apprentek Assistance
# -------------------------------------------------------------------------------------------

TECH_OPS = {
    "HIE-1": {"at": (3, 14)},
    "HIE-2": {"at": (6, 14), "wounds": 4},
    "BLU-1": {"at": (16, 14), "ready": False},
}


def test_augment_weapon_two_rules_on_one_profile() -> None:
    # The Technomancer gives HIE-2's tesla carbine (ranged) Rending and Severe: its ranged
    # profile has them, its bayonet (melee) does not.
    from engine.game.attacks import attack_profile

    s = lab(["Technomancer", GUARDIAN], TECH_OPS)
    s, _ = play(
        s,
        [
            "Activate HIE-1 engage",
            "Act HIE-1 augment weapon on HIE-2",
            "Use augment ranged tesla carbine with rending and severe on HIE-2",
        ],
    )
    w = Work(s)
    ranged = str(attack_profile(w, w.op("HIE-2"), "tesla carbine", "ranged").rules)
    melee = str(attack_profile(w, w.op("HIE-2"), "bayonet", "melee").rules)
    assert "Rending" in ranged and "Severe" in ranged
    assert "Rending" not in melee


def test_augment_weapon_agent_advice_picks_a_profile_it_will_use() -> None:
    # The heuristic agent's team-rule choice follows the frame's advice: with no enemy within
    # 3" of HIE-2 it augments the ranged tesla carbine, with Lethal 5+ among the two rules
    # (the most valuable); with an enemy 2" away (centres), the melee bayonet.
    from engine.agents.attack_choices import team_rule

    def pick(ops: dict[str, dict[str, Any]]) -> str:
        s = lab(["Technomancer", GUARDIAN], ops)
        s, _ = play(s, ["Activate HIE-1 engage", "Act HIE-1 augment weapon on HIE-2"])
        return team_rule(Work(s), "A", s.legal_actions()).text

    far = pick(TECH_OPS)
    assert far.startswith("augment ranged tesla carbine") and "lethal 5+" in far
    x, y = TECH_OPS["HIE-2"]["at"]
    close = {**TECH_OPS, "BLU-1": {"at": (x + 2.0, y)}}
    assert pick(close).startswith("augment melee")


def test_augment_weapon_ends_at_the_technomancers_next_activation() -> None:
    # The token lasts until the start of the Technomancer's next activation (TP2 here).
    from engine.game.attacks import attack_profile

    s = lab(["Technomancer", GUARDIAN], {**TECH_OPS, "HIE-2": {"at": (6, 14), "ready": False}})
    s, _ = play(
        s,
        [
            "Activate HIE-1 engage",
            "Act HIE-1 augment weapon on HIE-2",
            "Use augment ranged tesla carbine with lethal 5+ and saturate on HIE-2",
            "End activation",
        ],
    )
    w = Work(s)
    assert "Saturate" in str(attack_profile(w, w.op("HIE-2"), "tesla carbine", "ranged").rules)
    s = to_ready_step(pass_windows(s))
    while isinstance(s.node, Chance):  # Living Metal (HIE-2 is not hurt here: none)
        s, _ = play(s, [], ["1"])
    s = pass_windows(s)
    s, _ = s.apply("Activate HIE-1 engage")
    w = Work(s)
    assert "Saturate" not in str(attack_profile(w, w.op("HIE-2"), "tesla carbine", "ranged").rules)


def test_canoptek_repair_heals_2d3_once_per_turning_point() -> None:
    # HIE-2 (4 of 10 wounds) regains 2D3 = ceil(5/2) + ceil(3/2) = 3 + 2 = 5: 9 wounds.
    # The same turning point, another friendly operative (the Apprentek) cannot perform it.
    ops = {**TECH_OPS, "HIE-3": {"at": (3, 10)}}
    s = lab(["Technomancer", GUARDIAN, "Apprentek"], ops)
    s, _ = play(s, ["Activate HIE-1 engage", "Act HIE-1 canoptek repair on HIE-2"], ["5,3"])
    assert s.operative("HIE-2").wounds == 9
    s, _ = play(s, ["End activation"])
    while isinstance(s.node, Decision) and s.node.player == "B":  # B cannot counteract
        s, _ = s.apply("Pass")
    s, _ = s.apply("Activate HIE-3 engage")
    assert not s.is_legal("Act HIE-3 canoptek repair on HIE-2")


def test_reinforce_metal_damage_of_3_or_more_is_1_less() -> None:
    # HIE-2 reinforced (the token Reinforce Metal leaves, from HIE-1); BLU-1's gun hits with
    # 2 crits (4 damage each), no saves: 3 + 3 = 6 instead of 8 (10 wounds: 4 left). A
    # normal hit of the Knife (2 damage) would stay 2: below 3, not reduced (checked on the
    # hook directly).
    from engine.game.state import Effect
    from teams.hierotek_circle.common import UNTIL_NEXT

    ops = {"HIE-1": {"at": (3, 14)}, "HIE-2": {"at": (6, 14)}, "BLU-1": {"at": (16, 14)}}
    s = lab(["Technomancer", GUARDIAN], ops, turn="B")
    token = Effect(UNTIL_NEXT, "HIE-2", "end_battle", source="HIE-1", detail="reinforce_metal")
    s = attrs.evolve(s, effects=(*s.effects, token))
    w = Work(s)
    assert w.would("would_strike_damage", 2, op="BLU-1", target="HIE-2", crit=False) == 2
    assert w.would("would_strike_damage", 5, op="BLU-1", target="HIE-2", crit=True) == 4
    s, _ = play(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at HIE-2"], ["6,6,1,1", "1,1,1"])
    assert s.operative("HIE-2").wounds == 4


def test_reinforce_metal_action_and_its_limit() -> None:
    # The action puts the token on HIE-2; it is not offered within an enemy's control range.
    s = lab(["Technomancer", GUARDIAN], TECH_OPS)
    s, _ = play(s, ["Activate HIE-1 engage", "Act HIE-1 reinforce metal on HIE-2"])
    from teams.hierotek_circle.common import until_next

    assert until_next(Work(s), "HIE-2", "reinforce_metal")
    near = {"HIE-1": {"at": (15, 14)}, "HIE-2": {"at": (12, 14)}, "BLU-1": {"at": (16.8, 14)}}
    s = lab(["Technomancer", GUARDIAN], near)
    s, _ = s.apply("Activate HIE-1 engage")
    assert not s.is_legal("Act HIE-1 reinforce metal on HIE-2")


def test_apprentek_assistance_cryptek_actions_once_per_turning_point() -> None:
    # The Apprentek (HIE-3, APL 3) has the Technomancer's unique actions: Reinforce Metal
    # on HIE-2; then a second CRYPTEK action (Augment Weapon) in the same turning point is
    # refused.
    ops = {**TECH_OPS, "HIE-3": {"at": (3, 10)}}
    s = lab(["Technomancer", GUARDIAN, "Apprentek"], ops)
    s, _ = s.apply("Activate HIE-3 engage")
    assert s.is_legal("Act HIE-3 reinforce metal on HIE-2")
    s, _ = s.apply("Act HIE-3 reinforce metal on HIE-2")
    assert not s.is_legal("Act HIE-3 augment weapon on HIE-2")


# -------------------------------------------------------------------------------------------
# Interstitial Command
# -------------------------------------------------------------------------------------------


def test_interstitial_command_free_1ap_action_at_most_2_inches() -> None:
    # The Technomancer commands HIE-2 (Guardian, 3" away): HIE-2 performs a free Dash, at
    # most 2" (4" is refused); it pays no AP. Later in the turning point HIE-2 cannot Dash
    # again (it performed it through Interstitial Command).
    ops = {
        "HIE-1": {"at": (3, 14)},
        "HIE-2": {"at": (6, 14)},
        "BLU-1": {"at": (25, 4), "ready": False},
    }
    s = lab(["Technomancer", GUARDIAN], ops)
    s, _ = play(s, ["Activate HIE-1 engage", "Act HIE-1 interstitial command on HIE-2"])
    assert not s.is_legal("Dash HIE-2 to 10,14")
    s, _ = play(s, ["Dash HIE-2 to 8,14"])
    assert s.operative("HIE-2").x == 8.0
    s = pass_windows(s)
    s, _ = play(s, ["End activation"])
    while isinstance(s.node, Decision) and s.node.player == "B":
        s, _ = s.apply("Pass")
    s, _ = s.apply("Activate HIE-2 engage")
    assert not s.is_legal("Dash HIE-2 to 9,14")
    assert s.is_legal("Reposition HIE-2 to 9,14")


def test_interstitial_command_limits_no_cryptek_or_apprentek() -> None:
    # Not on an APPRENTEK (HIE-3), not on the operative itself; not beyond 6".
    ops = {
        "HIE-1": {"at": (3, 14)},
        "HIE-2": {"at": (12, 14)},
        "HIE-3": {"at": (3, 10)},
        "BLU-1": {"at": (25, 4)},
    }
    s = lab(["Technomancer", GUARDIAN, "Apprentek"], ops)
    s, _ = s.apply("Activate HIE-1 engage")
    assert not [a for a in s.legal_actions() if a.text == "interstitial command"]


def test_multi_dimensional_vision_two_deathmarks_keep_their_own() -> None:
    # Each Deathmark's token lasts until its own next activation: a second Deathmark using
    # the action does not end the first one's (unlike the Technomancer's "performed again").
    from teams.hierotek_circle.actions import MDV
    from teams.hierotek_circle.common import add_until_next, until_next

    ops = {"HIE-1": {"at": (5, 10)}, "HIE-2": {"at": (5, 8.5)}, "BLU-1": {"at": (16, 10)}}
    s = lab(["Deathmark", "Deathmark"], ops)
    w = Work(s)
    add_until_next(w, "HIE-1", "HIE-1", MDV, exclusive=False)
    add_until_next(w, "HIE-2", "HIE-2", MDV, exclusive=False)
    assert until_next(w, "HIE-1", MDV) and until_next(w, "HIE-2", MDV)


def test_reinforce_metal_ends_when_performed_again() -> None:
    # Reinforce Metal on HIE-2, then (the Apprentek, same player) on HIE-1: HIE-2's ends.
    ops = {**TECH_OPS, "HIE-3": {"at": (3, 10)}}
    s = lab(["Technomancer", GUARDIAN, "Apprentek"], ops)
    s, _ = play(
        s, ["Activate HIE-1 engage", "Act HIE-1 reinforce metal on HIE-2", "End activation"]
    )
    while isinstance(s.node, Decision) and s.node.player == "B":
        s, _ = s.apply("Pass")
    s, _ = play(s, ["Activate HIE-3 engage", "Act HIE-3 reinforce metal on HIE-1"])
    from teams.hierotek_circle.common import until_next

    w = Work(s)
    assert until_next(w, "HIE-1", "reinforce_metal")
    assert not until_next(w, "HIE-2", "reinforce_metal")


def test_scuttler_behind_heavy_terrain_still_hidden_from_seek() -> None:
    # Just behind the LAB ruin (Heavy, 1" tall) seen from (5, 10): Heavy terrain within 1"
    # gives cover too; a Conceal Plasmacyte there is hidden even from the Seek Gun.
    ops = {"HIE-1": {"at": (11.9, 10), "order": "conceal"}, "BLU-1": {"at": (5, 10)}}
    s = lab([ACCEL], ops, blu=("Gunner",), turn="B")
    s, _ = s.apply("Activate BLU-1 engage")
    assert not s.is_legal("Shoot BLU-1 seek gun at HIE-1")


# -------------------------------------------------------------------------------------------
# Records: a battle with a REANIMATED operative replays
# -------------------------------------------------------------------------------------------


def test_reanimation_protocols_record_replays() -> None:
    # Random Hierotek Circle v Kasrkin battles on open_ruins, from seed 0 on, until one has an
    # operative REANIMATED in a Ready step after which the opponent loses kill-op VP (the
    # first seed that does depends on every rule in play, so the test searches for it). The
    # record (decisions and dice) replays to the same states and result: the markers, the
    # return and the VP lost are all derived from it.
    from engine.agents import RandomAgent
    from engine.game.drivers import SeededDice
    from engine.game.drivers import play as play_battle
    from engine.game.record import GameRecorder, make_header, replay_record
    from engine.geometry import load_killzone
    from engine.rulesets import new_game
    from engine.teams import load_builtin_team

    kz = load_killzone("open_ruins")
    a = load_builtin_team("hierotek_circle").default()
    b = load_builtin_team("kasrkin").default()
    for seed in range(20):
        state = new_game(kz, a, b)
        rec = GameRecorder(make_header(state, seed=seed, agents={"A": "random", "B": "random"}))
        events: list[Any] = []

        def on_step(before: Any, action: Any, actor: str, after: Any, evs: list[Any]) -> None:
            rec.on_step(before, action, actor, after, evs)  # noqa: B023 (this battle's)
            events.extend(evs)  # noqa: B023

        final = play_battle(
            state,
            {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)},
            SeededDice(seed),
            on_step=on_step,
        )
        rec.finish(final)
        kinds = [e.kind for e in events]
        if "operative_reanimated" in kinds and "vp_lost" in kinds:
            break
    else:
        raise AssertionError("no operative was REANIMATED with VP lost in 20 random battles")
    outcome = replay_record(rec.lines, ruleset=KT24)
    assert outcome.complete and outcome.final.hash() == final.hash()


DESPOTEK = "Immortal Despotek [Gauss Blaster; Bayonet]"


def test_interstitial_command_through_a_visible_despotek() -> None:
    # The Technomancer (HIE-1) at (3, 14); HIE-3 (Guardian) 11" away at (14, 14) is out of
    # its reach, but within 6" (4") of HIE-2 (Despotek, visible to HIE-1, 7" away): a
    # CRYPTEK may select it. The Despotek's own Interstitial Command has no such clause.
    ops = {
        "HIE-1": {"at": (3, 14)},
        "HIE-2": {"at": (10, 15)},
        "HIE-3": {"at": (14, 14)},
        "BLU-1": {"at": (25, 4), "ready": False},
    }
    s = lab(["Technomancer", DESPOTEK, GUARDIAN], ops)
    s, _ = s.apply("Activate HIE-1 engage")
    assert s.is_legal("Act HIE-1 interstitial command on HIE-3")
    ops2 = {**ops, "HIE-2": {"at": (3, 10)}, "HIE-1": {"at": (3, 4)}}
    s = lab(["Technomancer", DESPOTEK, GUARDIAN], ops2)
    s, _ = s.apply("Activate HIE-2 engage")
    assert not s.is_legal("Act HIE-2 interstitial command on HIE-3")  # 11" from HIE-2


def test_reinforce_metal_reduces_devastating_damage_per_crit() -> None:
    # Devastating 3 with 2 retained crits: 3 + 3 = 6 damage; on a reinforced operative each
    # crit's 3 is 1 less: 2 + 2 = 4 (HIE-2: 10 -> 6). Not reinforced (HIE-1, the
    # Technomancer, 14 wounds): the full 6 (the core's would_devastating_damage hook passes
    # it unchanged).
    from engine.dice.profile import AttackProfile
    from engine.game.state import Effect
    from engine.rules.weapon_rules import devastating
    from teams.hierotek_circle.common import UNTIL_NEXT

    ops = {"HIE-1": {"at": (3, 14)}, "HIE-2": {"at": (6, 14)}, "BLU-1": {"at": (16, 14)}}
    s = lab(["Technomancer", GUARDIAN], ops)
    token = Effect(UNTIL_NEXT, "HIE-2", "end_battle", source="HIE-1", detail="reinforce_metal")
    w = Work(attrs.evolve(s, effects=(*s.effects, token)))
    prof = AttackProfile(4, 3, 3, 4, "Devastating 3")
    devastating(w, "BLU-1", "HIE-2", prof, 2)
    devastating(w, "BLU-1", "HIE-1", prof, 2)
    assert w.op("HIE-2").wounds == 6
    assert w.op("HIE-1").wounds == 8
