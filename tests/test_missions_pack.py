"""The Approved Ops 2025 pack's own steps (``rules/KT24.md`` 1.2, 8.1, 8.3): the crit op's
roll, the secret primary op and its bonus, the caps of every op, the observation that hides
the opponent's secrets, and the crit op Secure (the framework's worked example)."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from engine.agents import RandomAgent
from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.drivers import SeededDice
from engine.game.observation import HIDDEN, observe
from engine.game.state import Chance, Decision
from engine.game.work import Work
from engine.geometry import Killzone
from engine.missions.pack import CRIT_ORDER
from engine.missions.scoring import CRIT, KILL, add_vp, score, set_fact
from engine.rulesets import new_game
from tests.test_game_rules_common import BLU, LAB, RED, lab_data, play, pos, roster


def _start(options: GameOptions | None = None) -> GameState:
    return new_game(LAB, roster(RED, ("Trooper",)), roster(BLU, ("Trooper",)), options)


def test_8_3_the_crit_op_roll_gives_each_of_the_nine_ops_4_chances_in_36() -> None:
    # Two ordered D6: (first - 1) * 6 + second - 1 runs over 0..35 once each; divided by 4
    # (rounded down) it is 0..8, each value for 4 of the 36 outcomes.
    s = _start()
    assert isinstance(s.node, Chance) and s.node.request.kind == "crit op"
    got = Counter()
    for a in range(1, 7):
        for b in range(1, 7):
            after, events = s.apply(f"roll {a},{b}")
            got[after.mission.crit_op] += 1
            assert any(e.kind == "crit_op_chosen" for e in events)
    assert got == Counter({name: 4 for name in CRIT_ORDER})
    after, _ = s.apply("roll 1,1")
    assert after.mission.crit_op == "Secure"  # index 0
    after, _ = s.apply("roll 6,6")
    assert after.mission.crit_op == "Reboot"  # index 35 // 4 = 8


def test_8_3_a_crit_op_given_as_an_option_is_not_rolled() -> None:
    s = _start(GameOptions(crit_op="secure"))
    assert s.mission.crit_op == "Secure"
    assert isinstance(s.node, Chance) and s.node.request.kind == "roll_off"


def test_8_an_unknown_crit_op_or_primary_op_is_refused_naming_it() -> None:
    with pytest.raises(Exception, match="no crit op 'sekure'"):
        _start(GameOptions(crit_op="sekure"))
    with pytest.raises(Exception, match="primary op must be crit, tac or kill"):
        _start(GameOptions(primary_ops={"A": "loot"}))


def _to_primary_pick(seed: int = 1) -> GameState:
    """Random agents and seeded dice from a new battle to the first primary op pick."""
    s = _start(GameOptions(crit_op="secure", equipment={"A": (), "B": ()}))
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    while not (isinstance(s.node, Decision) and s.node.kind == "primary op"):
        node = s.node
        s, _ = s.apply(dice.roll(s) if isinstance(node, Chance) else agents[node.player].act(s))
    return s


def test_8_1_the_primary_op_is_selected_at_the_start_of_turning_point_1s_gambit_step() -> None:
    s = _to_primary_pick()
    assert s.tp == 1 and s.phase == "strategy"
    first = s.node.player  # type: ignore[union-attr]
    assert first == s.initiative  # the player with initiative first
    # Legal actions come in canonical (sorted) order.
    assert [str(a) for a in s.legal_actions()] == [
        "Op primary crit",
        "Op primary kill",
        "Op primary tac",
    ]
    s, events = s.apply("Op primary crit")
    # The event names the player but not the op (it is secret).
    assert [dict(e.data) for e in events if e.kind == "primary_op_selected"] == [{"player": first}]
    assert s.node == Decision("B" if first == "A" else "A", "primary op")
    with pytest.raises(IllegalActionError, match="primary op"):
        s.apply("Op primary loot")


def test_8_1_the_opponents_primary_op_is_hidden_and_changes_nothing_it_may_do() -> None:
    # After the first player's secret pick, the second player's observation and legal
    # actions are the same whichever op was picked.
    s = _to_primary_pick()
    first = s.node.player  # type: ignore[union-attr]
    second = "B" if first == "A" else "A"
    picks = [s.apply(f"Op primary {op}")[0] for op in ("crit", "tac", "kill")]
    views = [observe(p, second) for p in picks]
    assert all(v == views[0] for v in views)
    assert views[0].mission.primary_ops[0 if first == "A" else 1] == HIDDEN
    assert f"{first}'s primary op" in views[0].hidden
    assert [list(p.legal_actions()) for p in picks[1:]] == [list(picks[0].legal_actions())] * 2
    # The picking player sees its own choice.
    assert observe(picks[0], first).mission.primary_ops[0 if first == "A" else 1] == "crit"


def test_8_1_observations_hide_the_opponents_tac_op_until_revealed_and_secret_facts() -> None:
    s = pos({"RED-1": {"at": (3.0, 3.0)}, "BLU-1": {"at": (27.0, 3.0)}})
    w = Work(s)
    w.mission = attrs.evolve(w.mission, tac_ops=("Flank", "Rout"), primary_ops=("crit", "kill"))
    set_fact(w, "secret:A:Reboot pick", 2)
    set_fact(w, "Secure:centre", "A")
    w.node = s.node
    s = w.freeze()
    seen_by_b = observe(s, "B")
    assert seen_by_b.mission.tac_ops == (HIDDEN, "Rout")
    assert seen_by_b.mission.primary_ops == (HIDDEN, "kill")
    assert seen_by_b.mission.facts == (("Secure:centre", "A"),)  # public facts stay
    seen_by_a = observe(s, "A")
    assert seen_by_a.mission.tac_ops == ("Flank", HIDDEN)
    assert ("secret:A:Reboot pick", 2) in seen_by_a.mission.facts
    w = Work(s)
    w.mission = attrs.evolve(w.mission, tac_revealed=(True, False))
    w.node = s.node
    assert observe(w.freeze(), "B").mission.tac_ops == ("Flank", "Rout")


def test_1_2_the_opponents_equipment_selection_is_hidden_until_both_are_revealed() -> None:
    s = _start(GameOptions(crit_op="secure"))
    s, _ = play(s, ["Initiative A", "Drop zone A"], ["6,1"])
    assert s.node == Decision("A", "equipment")
    s, _ = play(s, ["Equipment mines", "Equipment done"])
    assert s.node == Decision("B", "equipment")
    assert s.player("A").equipment == ("Mines",)
    assert observe(s, "B").players[0].equipment == ()  # B cannot see A's selection yet
    assert observe(s, "A").players[0].equipment == ("Mines",)
    s, _ = play(s, ["Equipment done"])
    assert observe(s, "B").players[0].equipment == ("Mines",)  # revealed together


def _work(s: GameState) -> Work:
    w = Work(s)
    w.node = s.node
    return w


def test_8_1_an_op_gives_a_player_at_most_6vp_and_at_most_its_turning_point_cap() -> None:
    w = _work(pos({"RED-1": {"at": (3.0, 3.0)}}))
    assert score(w, "A", CRIT, 2, "x", tp_cap=2) == 2
    assert score(w, "A", CRIT, 1, "x", tp_cap=2) == 0  # the turning point's 2VP are reached
    w.mission = attrs.evolve(w.mission, tp_vp=())  # a new turning point
    assert score(w, "A", CRIT, 3, "x") == 3
    assert score(w, "A", CRIT, 5, "x") == 1  # 2 + 3 + 1 = 6, the op's cap
    assert w.pl("A").vp == 6 and w.mission.op_vp(CRIT, "A") == 6
    assert score(w, "B", KILL, 1, "x") == 1  # other players and ops are not affected


@pytest.mark.parametrize(("base", "bonus"), [(0, 0), (1, 1), (4, 2), (5, 3), (6, 3)])
def test_8_1_the_primary_op_scores_half_its_ops_vp_rounded_up(base: int, bonus: int) -> None:
    # Half of 5 is 2.5, rounded up 3; of 6, 3 (the most, 8.1).
    s = pos({"RED-1": {"at": (3.0, 3.0)}}, options=GameOptions(crit_op="secure"))
    w = _work(s)
    w.mission = attrs.evolve(w.mission, primary_ops=("crit", "kill"))
    add_vp(w, "A", CRIT, base, "test")
    w.emit("battle_ending")
    assert w.mission.op_vp("primary", "A") == bonus
    assert w.pl("A").vp == base + bonus
    assert w.mission.op_vp("primary", "B") == 0  # B's kill op scored nothing


# -------------------------------------------------------------------------------------------
# The crit op Secure (8.3)
# -------------------------------------------------------------------------------------------

MARKERS = Killzone.from_dict(
    lab_data([("A", (8.0, 14.5)), ("centre", (15.0, 14.5)), ("B", (22.0, 14.5))]), "lab3"
)


def _secure(operatives: dict[str, dict[str, object]], tp: int = 2) -> GameState:
    return pos(operatives, kz=MARKERS, tp=tp, options=GameOptions(crit_op="secure"))


def test_8_3_secure_secures_a_marker_the_operative_controls() -> None:
    # RED-1 stands 0.5" from the centre marker with no enemy near: it controls it (4.8).
    s = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (27.0, 3.0)}})
    s, _ = play(s, ["Activate RED-1 engage"])
    assert "Act RED-1 secure centre" in [str(a) for a in s.legal_actions()]
    s, events = play(s, ["Act RED-1 secure centre"])
    assert s.mission.fact("Secure:centre") == "A"
    assert [dict(e.data) for e in events if e.kind == "marker_secured"] == [
        {"marker": "centre", "player": "A"}
    ]


def test_8_3_secure_is_not_allowed_in_the_first_turning_point_or_near_an_enemy() -> None:
    s = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (27.0, 3.0)}}, tp=1)
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="first turning point"):
        s.apply("Act RED-1 secure centre")
    # BLU-1 1.5" away (centres) is within RED-1's control range (1" between bases).
    s = _secure({"RED-1": {"at": (15.0, 13.5)}, "BLU-1": {"at": (16.5, 13.5)}})
    s, _ = play(s, ["Activate RED-1 engage"])
    with pytest.raises(IllegalActionError, match="control range of an enemy"):
        s.apply("Act RED-1 secure centre")


def test_8_3_secure_scores_1vp_for_any_secured_and_1vp_for_more_at_the_end_of_the_tp() -> None:
    # A has secured two markers, B one: A scores 1 + 1, B scores 1 (any) and not the second.
    s = _secure({"RED-1": {"at": (3.0, 3.0)}, "BLU-1": {"at": (27.0, 3.0)}})
    w = _work(s)
    set_fact(w, "Secure:A", "A")
    set_fact(w, "Secure:centre", "A")
    set_fact(w, "Secure:B", "B")
    w.emit("turning_point_ending", tp=2)
    assert (w.mission.op_vp(CRIT, "A"), w.mission.op_vp(CRIT, "B")) == (2, 1)


def test_8_3_secure_scores_nothing_at_the_end_of_the_first_turning_point() -> None:
    s = _secure({"RED-1": {"at": (3.0, 3.0)}}, tp=1)
    w = _work(s)
    set_fact(w, "Secure:A", "A")
    w.emit("turning_point_ending", tp=1)
    assert w.mission.vp == ()


def test_8_4_archetype_names_are_read_in_any_case_and_with_and_for_ampersand() -> None:
    # The Kasrkin team file says "Seek and Destroy": the archetype Seek & Destroy (8.4).
    from engine.missions.pack import archetype_of

    assert archetype_of("Seek and Destroy") == "Seek & Destroy"
    assert archetype_of("seek & destroy") == "Seek & Destroy"
    assert archetype_of("RECON") == "Recon"
    assert archetype_of("Elite") == ""


def test_8_every_op_of_the_pack_is_implemented() -> None:
    # Approved Ops 2025 has nine crit ops (8.3) and twelve tac ops, three per archetype (8.4):
    # each must be a registered module, so no rolled or selected op is silently inert.
    from engine.missions.pack import ARCHETYPES, crit_ops, tac_ops

    assert [s.name for s in crit_ops()] == list(CRIT_ORDER)
    by_archetype = {a: sorted(s.name for s in tac_ops() if s.archetype == a) for a in ARCHETYPES}
    assert by_archetype == {
        "Infiltration": ["Plant Devices", "Steal Intelligence", "Track Enemy"],
        "Recon": ["Flank", "Retrieval", "Scout Enemy Movement"],
        "Security": ["Envoy", "Martyrs", "Plant Banner"],
        "Seek & Destroy": ["Dominate", "Rout", "Sweep & Clear"],
    }
