"""The shared KT21 rule modules of the Designer's Commentary 1.5 rulings 16.25 and 16.27
(``rules/KT21.md`` 16): rolls "as if fighting in combat" (:mod:`engine.rules.kt21.as_if_fighting`,
a mode of the KT21 fight), a trigger on an enemy incapacitated in combat
(:mod:`engine.rules.kt21.combat_vigour`) and repeating a shooting attack
(:mod:`engine.rules.kt21.repeat_attack`). The fixture team is
``scenarios/teams/kt21_dc_r6.json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.game.actions import Action, IllegalActionError, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.state import Chance, Decision, GameState
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.kt21 import repeat_attack
from engine.rules.kt21.combat_vigour import incapacitated_in_combat
from engine.rules.kt21.fight import Kt21FightFrame
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.roster import Roster

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
KT21 = GameOptions(ruleset="kt21")


def _battle(a: list[str], b: list[str], ops: dict[str, dict[str, Any]]) -> GameState:
    """A KT21 position on the flat range: A the DC R6 fixture team, B the KT21 Fighters."""
    r6 = load_team(SCENARIOS / "teams" / "kt21_dc_r6.json")
    fighters = load_team(SCENARIOS / "teams" / "kt21_fighters.json")
    return position(
        load_killzone(str(SCENARIOS / "killzones" / "range.toml")),
        Roster.from_entries(r6, a),
        Roster.from_entries(fighters, b),
        cp=(0, 0),
        operatives=ops,
        options=KT21,
    )


def _play(s: GameState, *steps: str) -> GameState:
    for text in steps:
        if text.startswith("roll "):
            values = tuple(sorted((int(v) for v in text[5:].split(",")), reverse=True))
            a = next(o for o, _ in s.chance_outcomes() if tuple(o.values) == values)
            s, _ = s.apply(a)
        else:
            s, _ = s.apply(parse_action(text))
    return s


def _legal(s: GameState) -> set[str]:
    return {format_action(a) for a in s.legal_actions()}


_FOE = {"at": (12.0, 19.5), "ready": False, "counteracted": True}


def _duel(support: bool, *, wounds: int = 10) -> GameState:
    """The Duellist DCR-1 (WS 3+) within Engagement Range of the B Fighter FIG-1 (bases 0.9"
    apart); with ``support``, the R6 Trooper DCR-2 within Engagement Range of FIG-1 only."""
    ops: dict[str, dict[str, Any]] = {"DCR-1": {"at": (10.0, 19.5), "wounds": wounds}}
    roster = ["R6 Duellist"]
    if support:
        roster.append("R6 Trooper")
        ops["DCR-2"] = {"at": (12.0, 21.2)}
    ops["FIG-1"] = dict(_FOE)
    return _play(_battle(roster, ["Probe Fighter"], ops), "Activate DCR-1 engage")


# -- DC 16.25: rolls as if fighting in combat -----------------------------------------------


def test_as_if_fighting_target_does_not_fight() -> None:
    """16.25 Q1: the target is not fighting: after the attacker's one roll of four dice, no
    roll is asked of the target (the Fighter has a blade: in a Fight it would roll), it holds
    no hits, and the attacker's hits can only strike (nothing to parry)."""
    s = _play(_duel(False), "Act DCR-1 sudden strike blade on FIG-1")
    assert isinstance(s.node, Chance) and s.node.request.player == "A"
    s = _play(s, "roll 6,5,2,1")
    assert isinstance(s.node, Decision) and s.node.player == "A"
    f = Work(s).top
    assert isinstance(f, Kt21FightFrame) and f.as_if == "Sudden Strike"
    assert (f.dweapon, f.ddice, f.dn, f.dc) == ("", (), 0, 0)
    assert (f.an, f.ac) == (1, 1)  # 6 a crit, 5 a normal hit at WS 3+; 2 and 1 miss
    assert _legal(s) == {"Strike crit", "Strike normal"}


def test_as_if_fighting_combat_support_improves_ws() -> None:
    """16.25 Q2, 11 step 3: combat support applies: the Trooper within Engagement Range of
    the Fighter and of no other enemy improves the Duellist's WS 3+ by 1 to 2+, so 6,2,2,1
    retains one crit and two normal hits (at 3+ only the crit)."""
    for support, ws, normals in ((True, 2, 2), (False, 3, 0)):
        s = _play(_duel(support), "Act DCR-1 sudden strike blade on FIG-1")
        w = Work(s)
        assert w.top.ws(w, "a") == ws
        s = _play(s, "roll 6,2,2,1")
        assert (Work(s).top.an, Work(s).top.ac) == (normals, 1)


def test_incapacitated_in_combat_by_an_as_if_roll_triggers_combat_vigour() -> None:
    """16.25 Q3: an enemy incapacitated by a roll as if fighting in combat is incapacitated in
    combat: the Duellist's Combat Vigour (regain 1 lost wound) fires, 7 -> 8 wounds. The
    strikes are 4 + 3 + 3 = 10 damage, the Fighter's 10 wounds."""
    s = _play(_duel(True, wounds=7), "Act DCR-1 sudden strike blade on FIG-1", "roll 6,2,2,1")
    s, events = s.apply(parse_action("Strike crit"))
    s, more = s.apply(parse_action("Strike normal"))
    s, last = s.apply(parse_action("Strike normal"))
    kinds = [e.kind for e in last]
    assert kinds.index("operative_incapacitated") < kinds.index("wounds_regained")
    assert s.operative("DCR-1").wounds == 8
    assert not [e for e in (*events, *more) if e.kind == "wounds_regained"]


def test_incapacitated_in_combat_only_by_the_other_fighter() -> None:
    """4.4, 16.25: ``incapacitated_in_combat`` holds for the two operatives of the combat in
    progress, not for another pair, and not outside a combat (a shooting attack)."""
    s = _play(_duel(True), "Act DCR-1 sudden strike blade on FIG-1")
    w = Work(s)
    assert incapacitated_in_combat(w, "FIG-1", "DCR-1")
    assert incapacitated_in_combat(w, "DCR-1", "FIG-1")
    assert not incapacitated_in_combat(w, "FIG-1", "DCR-2")
    assert not incapacitated_in_combat(Work(_duel(True)), "FIG-1", "DCR-1")


def test_combat_vigour_does_not_fire_for_a_shooting_kill() -> None:
    """Combat Vigour triggers in combat only: an enemy the Duellist's friend shoots down is
    not incapacitated in combat (no Kt21FightFrame), so nothing is regained (the Gunner does
    not have the ability either way; the Duellist is not the one incapacitating)."""
    s = _battle(
        ["R6 Duellist", "R6 Gunner"],
        ["Probe Fighter"],
        {
            "DCR-1": {"at": (18.0, 21.0), "wounds": 7},
            "DCR-2": {"at": (18.0, 19.5)},
            "FIG-1": {"at": (24.0, 19.5), "wounds": 3, "ready": False, "counteracted": True},
        },
    )
    s = _play(s, "Activate DCR-2 engage", "Shoot DCR-2 rifle at FIG-1", "roll 5,4,2,1")
    s = _play(s, "roll 3,2,1")  # 6 damage: incapacitated, so no repeat is offered
    assert s.operative("FIG-1").incapacitated
    assert s.operative("DCR-1").wounds == 7


def test_as_if_fighting_found_by_the_ability_identity() -> None:
    """DESIGN "Rulesets": the action is the Duellist's (its datacard ability), not the
    Trooper's, though both have a blade and stand within Engagement Range of the Fighter."""
    s = _battle(
        ["R6 Duellist", "R6 Trooper"],
        ["Probe Fighter"],
        {"DCR-1": {"at": (10.0, 19.5)}, "DCR-2": {"at": (12.0, 21.2)}, "FIG-1": dict(_FOE)},
    )
    duel = _play(s, "Activate DCR-1 engage")
    assert "Act DCR-1 sudden strike blade on FIG-1" in _legal(duel)
    trooper = _play(s, "Activate DCR-2 engage")
    assert not any(a.startswith("Act ") for a in _legal(trooper))
    with pytest.raises(IllegalActionError, match="does not have the Sudden Strike"):
        trooper.apply(parse_action("Act DCR-2 sudden strike blade on FIG-1"))


def test_as_if_fighting_refuses_a_wrong_weapon_or_target_leaving_the_state() -> None:
    """16.25, 7.2: the action rolls one of the operative's melee weapons against an enemy
    within its Engagement Range; anything else is refused naming the rule, the state
    unchanged."""
    s = _duel(False)
    far = _battle(
        ["R6 Duellist"],
        ["Probe Fighter"],
        {"DCR-1": {"at": (10.0, 19.5)}, "FIG-1": {"at": (20.0, 19.5), "ready": False}},
    )
    far = _play(far, "Activate DCR-1 engage")
    for state, text, why in (
        (s, "Act DCR-1 sudden strike rifle on FIG-1", "melee weapons"),
        (far, "Act DCR-1 sudden strike blade on FIG-1", "Engagement Range"),
    ):
        before = _legal(state)
        with pytest.raises(IllegalActionError, match=why):
            state.apply(parse_action(text))
        assert _legal(state) == before and state.operative("DCR-1").ap == 2
    assert not any(a.verb == "Act" for a in far.legal_actions())


def test_fight_action_still_makes_the_target_fight() -> None:
    """11 step 2-3: the Fight action (not "as if") still has the target roll its blade: two
    rolls, the Fighter's after the Duellist's."""
    s = _play(_duel(False), "Fight DCR-1 blade at FIG-1", "roll 6,5,2,1")
    assert isinstance(s.node, Chance) and s.node.request.player == "B"
    assert Work(s).top.as_if == ""


# -- DC 16.27: repeating a shooting attack ---------------------------------------------------


def _volley(fig1_wounds: int = 10) -> GameState:
    """The Gunner DCR-1 (Second Volley; a Limited Krak Grenade 4/5, a rifle 3/4) with FIG-1
    and FIG-2 both valid targets in the open."""
    s = _battle(
        ["R6 Gunner", "R6 Gunner"],
        ["Probe Fighter", "Probe Fighter"],
        {
            "DCR-1": {"at": (18.0, 19.5)},
            "DCR-2": {"at": (18.0, 21.0)},
            "FIG-1": {"at": (24.0, 19.5), "wounds": fig1_wounds, "ready": False},
            "FIG-2": {"at": (24.0, 15.5), "ready": False},
        },
    )
    return _play(s, "Activate DCR-1 engage")


def test_repeat_attack_only_against_the_same_target() -> None:
    """16.27 Q2: the repeat must be against the same target while it is valid: FIG-2 is a
    valid target of the Krak Grenade too, but only FIG-1 is offered."""
    s = _volley()
    assert {"Shoot DCR-1 krak grenade at FIG-1", "Shoot DCR-1 krak grenade at FIG-2"} <= _legal(s)
    s = _play(s, "Shoot DCR-1 krak grenade at FIG-1", "roll 5,4,2,1", "roll 3,2,1")
    assert isinstance(s.node, Decision) and s.node.kind == "team_rule"
    assert _legal(s) == {"Decline", "Use second volley on FIG-1"}


def test_repeat_attack_reuses_a_limited_weapon_counted_once() -> None:
    """16.27 Q1, 12 Limited: the Limited Krak Grenade is used for the repeat (a second roll
    of its four attack dice in the action), and Limited counts the action: one use (it is
    then refused for the rest of the battle)."""
    s = _play(_volley(), "Shoot DCR-1 krak grenade at FIG-1", "roll 5,4,2,1", "roll 3,2,1")
    s = _play(s, "Use second volley on FIG-1")
    assert isinstance(s.node, Chance) and s.node.request.dice == 4
    s = _play(s, "roll 5,2,2,1", "roll 6,6,1")  # one hit, saved by a critical save
    assert isinstance(s.node, Decision) and s.node.kind == "action"
    assert dict(s.operative("DCR-1").limited) == {"krak grenade": 1}
    assert s.operative("FIG-1").wounds == 2  # 10 - 8 (first attack); the repeat saved


def test_repeat_attack_not_offered_again_or_when_declined() -> None:
    """16.27: the rule repeats the attack once (the repeated attack is not offered for a
    repeat); declined, the action ends with one attack."""
    base = _play(_volley(), "Shoot DCR-1 krak grenade at FIG-1", "roll 5,4,2,1", "roll 3,2,1")
    s = _play(base, "Use second volley on FIG-1", "roll 2,2,1,1")
    assert isinstance(s.node, Decision) and s.node.kind == "action"
    declined = _play(base, "Decline")
    assert isinstance(declined.node, Decision) and declined.node.kind == "action"
    assert declined.operative("FIG-1").wounds == 2


def test_no_repeat_when_the_target_is_no_longer_valid() -> None:
    """16.27 Q2: an incapacitated target is not a valid target: the attack cannot be
    repeated, and no other target (FIG-2, valid) is offered instead."""
    s = _play(_volley(fig1_wounds=3), "Shoot DCR-1 rifle at FIG-1", "roll 5,4,2,1", "roll 3,2,1")
    assert s.operative("FIG-1").incapacitated
    assert isinstance(s.node, Decision) and s.node.kind == "action"
    assert not any(a.verb == "Use" for a in s.legal_actions())


def test_second_volley_not_in_overwatch_and_found_by_identity() -> None:
    """Second Volley repeats a shooting attack of a Shoot action (not an Overwatch), for an
    operative whose datacard has it; a battle without the ability has no repeat hook."""
    w = Work(_volley())
    info: dict[str, Any] = {"op": "DCR-1", "target": "FIG-1", "weapon": "rifle"}
    assert repeat_attack._second_volley(w, "", overwatch=False, **info) == "Second Volley"
    assert repeat_attack._second_volley(w, "", overwatch=True, **info) == ""
    fighters = load_team(SCENARIOS / "teams" / "kt21_fighters.json")
    plain = position(
        load_killzone(str(SCENARIOS / "killzones" / "range.toml")),
        Roster.from_entries(fighters, ["Probe Fighter"]),
        Roster.from_entries(fighters, ["Probe Fighter"]),
        operatives={"FIGA-1": {"at": (10.0, 19.5)}, "FIGB-1": {"at": (20.0, 19.5)}},
        options=KT21,
    )
    assert "kt21_repeat_attack" not in Work(plain).ctx.hooks.would
    assert "kt21_repeat_attack" in w.ctx.hooks.would


def test_repeat_choice_refuses_another_target() -> None:
    """16.27 Q2: choosing the repeat on another operative is refused, the state unchanged."""
    s = _play(_volley(), "Shoot DCR-1 krak grenade at FIG-1", "roll 5,4,2,1", "roll 3,2,1")
    with pytest.raises(IllegalActionError):
        s.apply(Action("Use", text="second volley", target="FIG-2"))
    assert _legal(s) == {"Decline", "Use second volley on FIG-1"}


def test_as_if_fighting_advice_beats_a_fight_with_retaliation() -> None:
    """The heuristic's rule of thumb for the action is the exact KT21 fight value with a
    defender that rolls no dice: better than the Fight action against the same armed
    Fighter (which can strike back), and positive."""
    from engine.advice.kt21_values import kt21_fight_value, kt21_fighter
    from engine.rules.kt21.as_if_fighting import ACTIONS

    s = _duel(False)
    w = Work(s)
    a = parse_action("Act DCR-1 sudden strike blade on FIG-1")
    value = ACTIONS[0].advice(w, w.op("DCR-1"), a, "activation")
    blade = w.ctx.datacards["DCR-1"].weapons[0].profiles[0]
    foe = w.ctx.datacards["FIG-1"].weapons[-1].profiles[0]
    fight = kt21_fight_value(
        kt21_fighter(w, w.op("DCR-1"), blade), 10, kt21_fighter(w, w.op("FIG-1"), foe), 10
    )
    assert value > fight and value > 0
