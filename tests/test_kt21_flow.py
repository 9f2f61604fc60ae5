"""The KT21 battle flow (rules/KT21.md 1, 2, 3, 5, 14; digest decisions 1, 2, 5): the set-up,
the turning points, the Firefight phase with Group Activation, two activations in a row at
most, Overwatch turns and the first turning point's order lock, on real battles and on
scripted positions."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from engine.agents import RandomAgent
from engine.game.actions import IllegalActionError
from engine.game.context import GameOptions
from engine.game.drivers import SeededDice, play
from engine.game.events import Event
from engine.game.observation import observe
from engine.game.scenario import position
from engine.game.state import Chance, Decision, GameState, Terminal
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.kt21 import attack_actions
from engine.rules.kt21.firefight import FirefightFrame
from engine.rules.kt21.setup import DeployFrame, ScoutingFrame
from engine.rulesets import KT21, new_game
from engine.teams import load_builtin_team
from engine.teams.io import load_team
from engine.teams.model import Roster, Team

KZ = load_killzone("scenarios/killzones/range.toml")
KT21_OPTIONS = GameOptions(ruleset="kt21")


def _team(ga: int) -> Team:
    """The scenario Target team with its troopers' GA set to ``ga`` (3.2)."""
    team = load_team("scenarios/teams/kt21_target.json")
    ops = tuple(
        attrs.evolve(o, group_activation=ga) if o.name == "Target Trooper" else o
        for o in team.operatives
    )
    return attrs.evolve(team, operatives=ops)


def _roster(n: int, ga: int = 1) -> Roster:
    """``n`` Target Troopers (ids TAR-1...) of GA ``ga``: player A's kill team."""
    return Roster(_team(ga), ("Target Trooper",) * n)


PROBE = load_team("scenarios/teams/kt21_probe.json")


def _probes(n: int) -> Roster:
    """``n`` Probe Troopers (ids PRO-1...): player B's kill team."""
    return Roster(PROBE, ("Probe Trooper",) * n)


def _play(state: GameState, *actions: str) -> tuple[GameState, list[Event]]:
    """Apply ``actions``; each barricade decision reached (1.2 step 7, Fortify) is answered
    with its first listed spot."""
    events: list[Event] = []
    for a in actions:
        state, ev = state.apply(a)
        events += ev
        while state.node == Decision(getattr(state.node, "player", ""), "equipment_setup"):
            state, ev = state.apply(state.legal_actions()[0])
            events += ev
    return state, events


def _pos(a: Roster, b: Roster, ops: dict[str, dict[str, Any]], **kw: Any) -> GameState:
    kw.setdefault("options", KT21_OPTIONS)
    return position(KZ, a, b, operatives=ops, ruleset=KT21, **kw)


def _kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# -- set-up -----------------------------------------------------------------------------------


def _new(mission: str = "critical_ops_2022", a: int = 3, b: int = 3) -> GameState:
    return new_game(KZ, _roster(a), _probes(b), GameOptions(ruleset="kt21", mission=mission))


def _tac_ops(state: GameState) -> tuple[GameState, list[Event]]:
    """Both players select their tac ops (the mission's set-up step before the barricades
    and the deployment, 1.2 steps 5, 7, 8): each its first archetype, whose ops are all
    unsourced (15.3), so one decision each."""
    events: list[Event] = []
    while isinstance(state.node, Decision) and state.node.kind == "tac archetype":
        state, ev = state.apply(state.legal_actions()[0])
        events += ev
    return state, events


def _set_up(state: GameState, *actions: str) -> tuple[GameState, list[Event]]:
    """Play ``actions`` (the roll-off, the Defender, its drop zone), then the tac op
    selection (:func:`_tac_ops`) and the barricades (each at its first listed spot)."""
    state, events = _play(state, *actions)
    state, more = _tac_ops(state)
    while state.node == Decision(getattr(state.node, "player", ""), "equipment_setup"):
        state, ev = state.apply(state.legal_actions()[0])
        more += ev
    return state, events + more


def test_set_up_roll_off_winner_names_the_defender_who_picks_the_drop_zone() -> None:
    """1.2 step 3: the roll-off winner (A rolled 5 against 2) decides who is the Defender;
    the Defender (B) picks its drop zone and the Attacker has the other; step 4: each
    player adds 3CP in Critical Operations 2022."""
    s = _new()
    assert isinstance(s.node, Chance) and s.node.request.kind == "roll_off"
    s, _ = _play(s, "roll 5,2")
    assert s.node == Decision("A", "roles")
    s, events = _play(s, "Op defender B")
    assert _kinds(events, "roles_decided")[0]["defender"] == "B"
    assert s.node == Decision("B", "drop_zone")
    s, _ = _play(s, "Drop zone A")
    assert s.players[1].drop_zone == "A" and s.players[0].drop_zone == "B"
    assert (s.players[0].cp, s.players[1].cp) == (3, 3)


def test_set_up_roll_off_tie_is_rolled_again() -> None:
    """A roll-off tie decides nothing (2.1): the dice are rolled again."""
    s, _ = _play(_new(), "roll 4,4")
    assert isinstance(s.node, Chance) and s.node.request.kind == "roll_off"


@pytest.mark.parametrize("mission", ["corebook_2021", "lite"])
def test_core_book_and_lite_start_with_two_cp(mission: str) -> None:
    """1.3, 1.4: the Core Book 2021 sequence and Lite start each player with 2CP."""
    s, _ = _play(_new(mission), "roll 1,6", "Op defender A", "Drop zone A")
    assert (s.players[0].cp, s.players[1].cp) == (2, 2)


def test_barricades_two_each_from_the_defender() -> None:
    """1.2 step 7: the players alternate setting up barricades from the Defender (B) until
    each has set up two: four set-ups, B A B A, before deployment."""
    s, events = _play(_new(), "roll 5,2", "Op defender B", "Drop zone A")
    while s.node != Decision("B", "deploy"):  # the set-up steps (tac ops), the barricades
        s, ev = s.apply(s.legal_actions()[0])
        events += ev
    set_up = _kinds(events, "equipment_set_up")
    assert [e["player"] for e in set_up] == ["B", "A", "B", "A"]
    assert all(e["item"] == "Barricade" for e in set_up)


def test_deployment_alternates_thirds_from_the_defender_each_with_a_chosen_order() -> None:
    """1.2 step 8: three numerically even groups per player (3 operatives: 1/1/1)
    alternating from the Defender (B); each operative set up gets the order its player
    chooses (here Engage, which KT24 never gives at set-up)."""
    s, _ = _set_up(_new(), "roll 5,2", "Op defender B", "Drop zone A")
    assert isinstance(s.stack[-1], DeployFrame)
    assert s.stack[-1].turns == (("B", 1), ("A", 1), ("B", 1), ("A", 1), ("B", 1), ("A", 1))
    assert s.node == Decision("B", "deploy")
    deploy = next(a for a in s.legal_actions() if a.op == "PRO-1")
    s, _ = _play(s, deploy)  # type: ignore[arg-type]
    assert s.node == Decision("B", "deploy_order")
    s, events = _play(s, "Op order engage")
    assert next(o for o in s.operatives if o.id == "PRO-1").order == "engage"
    assert _kinds(events, "order_changed")[0]["order"] == "engage"
    assert s.node == Decision("A", "deploy")


@pytest.mark.parametrize("mission", ["corebook_2021", "lite"])
def test_core_book_and_lite_deploy_whole_teams_defender_first(mission: str) -> None:
    """1.3, 1.4: the Defender sets up all its operatives, then the Attacker."""
    s, _ = _set_up(_new(mission), "roll 1,6", "Op defender A", "Drop zone A")
    assert s.stack[-1].turns == (("A", 3), ("B", 3))


def _deployed(mission: str = "critical_ops_2022") -> GameState:
    """A real battle set up: A the Defender, every operative Conceal."""
    s, _ = _set_up(_new(mission, 1, 1), "roll 6,1", "Op defender A", "Drop zone A")
    while isinstance(s.node, Decision) and s.node.kind in ("deploy", "deploy_order"):
        if s.node.kind == "deploy_order":
            s, _ = _play(s, "Op order conceal")
        else:
            s, _ = s.apply(s.legal_actions()[0])
    return s


def test_scouting_is_secret_until_both_pick_and_the_winner_has_first_initiative() -> None:
    """1.2 step 9: the Attacker (B) picks first, in secret: the Defender's view does not
    show it. UNCONFIRMED step 10 (the digest's reading): Fortify beats Infiltrate, so the
    player who picked Fortify (A) has initiative in TP1; Infiltrate is kept for B."""
    s = _deployed()
    assert isinstance(s.stack[-1], ScoutingFrame) and s.node == Decision("B", "scouting")
    s, _ = _play(s, "Op scouting infiltrate")
    assert "infiltrate" not in repr(observe(s, "A").mission)
    s, events = _play(s, "Op scouting fortify")
    assert [e["player"] for e in _kinds(events, "initiative_decided")][:2] == ["A", "A"]
    assert s.initiative == "A" and s.tp == 1
    assert dict(s.players[1].uses)["kt21_infiltrate"] == 1
    assert any("Fortify" in e["rule"] for e in _kinds(events, "rule_not_played"))


def test_same_scouting_option_rolls_off_for_first_initiative() -> None:
    """The same option on both sides beats nothing: a roll-off whose winner decides (the
    project's reading of the unsourced tie-break, 1.2 step 10)."""
    s, _ = _play(_deployed(), "Op scouting infiltrate", "Op scouting infiltrate")
    assert isinstance(s.node, Chance)
    s, _ = _play(s, "roll 2,5")
    assert s.node == Decision("B", "initiative")


def test_recon_gives_a_free_dash_before_the_first_initiative() -> None:
    """1.2 step 9 Recon: one operative wholly within its drop zone makes a free Dash (a
    free action, not an activation: digest 16.30). Recon (B) beats Fortify (A), so B has
    initiative in TP1 once the Dash is made; "as if it could FLY" is reported."""
    s, _ = _play(_deployed(), "Op scouting recon", "Op scouting fortify")
    assert s.node == Decision("B", "recon")
    assert {(a.verb, a.op) for a in s.legal_actions()} == {("Pass", ""), ("Act", "PRO-1")}
    s, events = _play(s, "Act PRO-1 recon")
    assert _kinds(events, "free_action_granted") and not _kinds(events, "activated")
    assert any("FLY" in e["rule"] for e in _kinds(events, "rule_not_played"))
    assert s.node == Decision("B", "free_action")
    s, events = _play(s, "End activation")
    assert s.initiative == "B" and s.tp == 1


def test_core_book_first_initiative_goes_to_the_attacker() -> None:
    """1.3 UNCONFIRMED: the Attacker (B) has initiative in TP1 whatever the scouting."""
    s, _ = _play(_deployed("corebook_2021"), "Op scouting fortify", "Op scouting infiltrate")
    assert s.initiative == "B"


def test_lite_rolls_off_for_first_initiative() -> None:
    """1.4: Lite has no scouting; TP1 initiative is a roll-off (a tie is rolled again)."""
    s = _deployed("lite")
    assert isinstance(s.node, Chance) and s.tp == 1
    s, _ = _play(s, "roll 3,3")
    assert isinstance(s.node, Chance)
    s, _ = _play(s, "roll 3,4")
    assert s.node == Decision("B", "initiative")


# -- turning points -----------------------------------------------------------------------------


def test_strategy_phase_each_player_gains_one_cp() -> None:
    """2.2 step 1: each player gains 1CP every turning point (KT24: 1 and 2 after TP1)."""
    ops = {"TAR-1": {"at": (3, 5)}, "PRO-1": {"at": (27, 5)}}
    s = _pos(_roster(1), _probes(1), ops, tp=3, phase="strategy", step="ready", cp=(1, 4))
    assert (s.players[0].cp, s.players[1].cp) == (2, 5)
    assert s.node == Decision("A", "gambit")


def test_initiative_tie_goes_to_the_player_without_it_last_turning_point() -> None:
    """2.1: from TP2 a tied roll-off gives initiative to the player who did not have it in
    the previous turning point; nobody decides and nothing is re-rolled."""
    ops = {"TAR-1": {"at": (3, 5)}, "PRO-1": {"at": (27, 5)}}
    s = _pos(
        _roster(1),
        _probes(1),
        ops,
        tp=2,
        initiative="A",
        phase="strategy",
        step="initiative",
        initiative_roll=(3, 3),
    )
    assert s.initiative == "B"
    assert s.node == Decision("B", "gambit")


def test_whole_random_battles_play_to_their_end() -> None:
    """Random agents play a KT21 battle of each game sequence from the set-up to the end
    of the fourth turning point (1.1) with built-in teams."""
    a = load_builtin_team("kt21_kasrkin").default()
    b = load_builtin_team("kt21_legionaries").default()
    for seed, mission in enumerate(("critical_ops_2022", "corebook_2021", "lite")):
        s = new_game(KZ, a, b, GameOptions(ruleset="kt21", mission=mission))
        final = play(s, {"A": RandomAgent(seed), "B": RandomAgent(seed + 9)}, SeededDice(seed))
        assert isinstance(final.node, Terminal) and final.tp == 5


# -- firefight ------------------------------------------------------------------------------------


FIELD = {
    "TAR-1": {"at": (3, 5)},
    "TAR-2": {"at": (3, 8)},
    "TAR-3": {"at": (3, 11)},
    "PRO-1": {"at": (27, 5)},
    "PRO-2": {"at": (27, 8)},
    "PRO-3": {"at": (27, 11)},
}


def test_first_turning_point_keeps_the_set_up_order() -> None:
    """3.1 step 2: in TP1 an operative keeps the order it was set up with (Conceal here):
    only that order is offered, the other is refused."""
    ops = {"TAR-1": {"at": (3, 5), "order": "conceal"}, "PRO-1": {"at": (27, 5)}}
    s = _pos(_roster(1), _probes(1), ops, tp=1)
    assert {a.text for a in s.legal_actions()} == {"conceal"}
    with pytest.raises(IllegalActionError, match="first turning point"):
        s.apply("Activate TAR-1 engage")


def test_infiltrate_changes_one_order_once_in_the_first_turning_point() -> None:
    """1.2 step 9 Infiltrate: once in TP1, as it activates an operative, its player may
    change its order; then the lock holds again."""
    ops = {
        "TAR-1": {"at": (3, 5), "order": "conceal"},
        "TAR-2": {"at": (3, 9), "order": "conceal"},
        "PRO-1": {"at": (27, 5)},
    }
    players = {"A": {"uses": {"kt21_infiltrate": 1}}}
    s = _pos(_roster(2), _probes(1), ops, tp=1, players=players)
    s, events = _play(s, "Activate TAR-1 engage")
    assert any(e["rule"] == "Scouting: infiltrate" for e in _kinds(events, "rule_used"))
    assert dict(s.players[0].uses)["kt21_infiltrate"] == 0


def test_order_is_free_from_the_second_turning_point() -> None:
    """3.1 step 2: from TP2 either order may be chosen at activation."""
    ops = {"TAR-1": {"at": (3, 5), "order": "conceal"}, "PRO-1": {"at": (27, 5)}}
    s = _pos(_roster(1), _probes(1), ops, tp=2)
    assert {a.text for a in s.legal_actions()} == {"conceal", "engage"}


def _end_activation(s: GameState) -> GameState:
    """End the activation under way (the decision ``action``)."""
    assert s.node is not None and s.node.kind == "action"  # type: ignore[union-attr]
    s, _ = _play(s, "End activation")
    return s


def test_group_activation_goes_on_with_the_same_operative_type() -> None:
    """3.2: after an operative with GA 2, the same player activates another ready operative
    of its type before the opponent does; then the opponent's turn."""
    s = _pos(_roster(3, ga=2), _probes(3), FIELD, tp=2)
    s = _end_activation(_play(s, "Activate TAR-1 engage")[0])
    assert s.node == Decision("A", "activate")
    s = _end_activation(_play(s, "Activate TAR-2 engage")[0])
    assert s.node == Decision("B", "activate")


def test_never_more_than_two_activations_in_a_row() -> None:
    """3.4 (decision 2): a GA 3 group would give A three activations in a row: after two,
    B has its turn; then the group's third activation follows."""
    s = _pos(_roster(3, ga=3), _probes(3), FIELD, tp=2)
    for op in ("TAR-1", "TAR-2"):
        s = _end_activation(_play(s, f"Activate {op} engage")[0])
    assert s.node == Decision("B", "activate")
    s = _end_activation(_play(s, "Activate PRO-1 engage")[0])
    assert s.node == Decision("A", "activate")
    assert [a.op for a in s.legal_actions()] == ["TAR-3", "TAR-3"]


def test_overwatch_turn_is_a_pass_when_no_operative_can_overwatch_and_resets_the_streak() -> None:
    """3.3, 3.4: a player with no ready operatives takes a turn each time it would be its
    turn; here a pass: A's Target Troopers carry only Pistols (Rng 8", 12 Rng x) and every
    enemy is 24" away, so none has a valid target for an Overwatch (3.5). That turn lets the
    opponent activate again and again, one at a time (never more than two in a row)."""
    ops = {k: {**v, "ready": k.startswith("PRO")} for k, v in FIELD.items()}
    s = _pos(_roster(3), _probes(3), ops, tp=2, turn="A")
    assert s.node == Decision("B", "activate")
    for op in ("PRO-1", "PRO-2", "PRO-3"):
        s, events = _play(s, f"Activate {op} engage", "End activation")
        if op != "PRO-3":
            assert _kinds(events, "passed")[-1]["step"] == "overwatch"
            assert s.node == Decision("B", "activate")
    assert s.tp == 3 or isinstance(s.node, Chance)


# A's Engage TAR-1 with PRO-1 6" away in the empty strip above the lanes (y 20: no terrain
# between them), within its Pistol's Rng 8"; TAR-2 has a Conceal order.
OVERWATCH_FIELD = {
    "TAR-1": {"at": (3, 20), "ready": False},
    "TAR-2": {"at": (3, 9), "ready": False, "order": "conceal"},
    "PRO-1": {"at": (9, 20)},
    "PRO-2": {"at": (27, 9)},
}


def test_overwatch_turn_shoots_once_with_bs_one_worse_as_a_free_action() -> None:
    """3.5, DC 1.5 (digest 16.30): in A's turn with no ready operative, its Engage operative
    not within Engagement Range overwatches: a free action (not an activation) that must be
    its one shooting attack (``Overwatch TAR-1 pistol at PRO-1``, no other action, no End
    activation before it). The Pistol's BS 3+ is worsened by 1 to 4+, so four 3s are all
    misses (a Shoot would have hit four times). A Conceal operative is not offered."""
    s = _pos(_roster(2), _probes(2), OVERWATCH_FIELD, tp=2, turn="A")
    assert s.node == Decision("A", "overwatch")
    assert {(a.verb, a.op) for a in s.legal_actions()} == {("Pass", ""), ("Act", "TAR-1")}
    s, events = _play(s, "Act TAR-1 overwatch")
    assert _kinds(events, "free_action_granted") and not _kinds(events, "activated")
    assert [str(a) for a in s.legal_actions()] == ["Overwatch TAR-1 pistol at PRO-1"]
    s, events = _play(s, "Overwatch TAR-1 pistol at PRO-1", "roll 3,3,3,3", "Decline")
    assert _kinds(events, "overwatch_declared")[0]["target"] == "PRO-1"
    assert _kinds(events, "attack_retained")[0]["normals"] == 0
    assert _kinds(events, "free_action_ended") and not _kinds(events, "activation_ended")
    assert s.node == Decision("B", "activate")
    top = s.stack[-1]
    assert isinstance(top, FirefightFrame) and (top.streak_player, top.streak) == ("A", 0)
    tar1 = next(o for o in s.operatives if o.id == "TAR-1")
    assert not tar1.ready


def test_an_operative_overwatches_at_most_once_per_turning_point() -> None:
    """3.5: each operative overwatches at most once per turning point. After TAR-1's
    Overwatch, A's next turn (PRO-1's activation ended, PRO-2 still ready) offers it no
    Overwatch: A has no other Engage operative, so the turn is a pass and B activates
    again; the Overwatch action itself refuses it, naming the rule."""
    s = _pos(_roster(2), _probes(2), OVERWATCH_FIELD, tp=2, turn="A")
    s, _ = _play(s, "Act TAR-1 overwatch", "Overwatch TAR-1 pistol at PRO-1")
    s, _ = _play(s, "roll 1,1,1,1", "Decline")
    s, events = _play(s, "Activate PRO-1 engage", "End activation")
    assert (_kinds(events, "passed")[-1]["player"], _kinds(events, "passed")[-1]["step"]) == (
        "A",
        "overwatch",
    )
    assert s.node == Decision("B", "activate")
    w = Work(s)
    assert attack_actions.overwatch_options(w, w.op("TAR-1")) == []
    assert "already made an Overwatch" in str(attack_actions.overwatch_refusal(w, w.op("TAR-1")))


def test_overwatch_is_never_an_action_of_an_activation() -> None:
    """3.5: an Overwatch is not made during the operative's own activation: it is not
    listed among an activating operative's actions and is refused there."""
    ops = {**OVERWATCH_FIELD, "TAR-1": {"at": (3, 20)}}
    s = _pos(_roster(2), _probes(2), ops, tp=2, turn="A")
    s, _ = _play(s, "Activate TAR-1 engage")
    assert not [a for a in s.legal_actions() if a.verb == "Overwatch"]
    assert any(str(a) == "Shoot TAR-1 pistol at PRO-1" for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="own activation"):
        s.apply("Overwatch TAR-1 pistol at PRO-1")
