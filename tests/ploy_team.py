"""A test-only kill team with one ploy at every trigger of the ploy windows
(:data:`engine.game.ploys.TRIGGERS`; ``rules/KT24.md`` 1.4, 7.1).

The team ``ploytest`` (operative ids ``PLOA-1``... for player A and ``PLOB-1``... for player
B, since both players field it) declares its ploys in its data, and this module registers
their implementations in the team rule registry (:mod:`engine.rules.registry`) under the
team's identity, as a team module of ``teams/`` does. So every battle with this team has its
ploys, and a record of such a battle replays with them (in a process that imported this
module). Each ploy does something a test can observe:

======================  ============  ===========================================================
trigger                 ploy          effect (all 1CP)
======================  ============  ===========================================================
gambit                  Quickstep     strategy: Move +1" for the kill team until the end of the TP
gambit                  Steady Aim    strategy: ranged weapons of the kill team gain Balanced (TP)
turning_point_start     Early Start   a token ``early`` for the player until the end of the TP
firefight_start         Opening Move  a friendly operative moves up to 2" at once (ExtraMove)
firefight_end           Dig In        a friendly operative gets token ``dug_in`` for the battle
turning_point_end       Regroup       code hook: the player's counter ``regroup`` goes up by 1
activation_start        Surge         the activated friendly operative: Move +2" until the end of
                                      the activation
activation_end          Stay Sharp    the friendly operative ending its activation: APL +1 until
                                      the end of its next activation
during_activation       Second Wind   offered among the actions of an injured friendly operative's
                                      activation: APL +1 until the end of the activation
counteract_start        Quick Feet    the counteracting operative may Dash for 0AP in its next
                                      activation (FreeAction)
action_declared         Snatch Away   when an enemy operative declares Pick Up Marker: a token
                                      ``snatch`` for the player until the end of the TP, while
                                      which the enemy cannot pick markers up (so that Pick Up is
                                      refused and the enemy chooses again)
moved                   Tailwind      after a friendly operative's Dash: a token ``tailwind`` on it
                                      until the end of the TP
target_selected         Brace         the friendly target of a Shoot or Fight: Save improved by 1
                                      until the end of the TP (begun during the action: it
                                      applies after it, 2.1)
attack_dice             Focus         code hook: re-roll every attack die showing 1
defence_dice            Hunker        code hook: re-roll every defence die showing 1
strike                  Grit          a token ``grit`` for the player until the end of the TP, when
                                      a friendly operative is about to be struck in a Fight
resolve_start           Steel Nerves  either player, at the start of a Fight's Resolve Attack Dice
                                      step: a token ``steel_nerves`` for the player until the end
                                      of the TP
incapacitated           Vengeance     the kill team's weapons gain Lethal 5+ until the end of the
                                      TP, when a friendly operative is incapacitated
stat_changed            Iron Will     a token ``steeled`` on a friendly operative whose Save just
                                      changed (as the action that changed it ended), for the TP
======================  ============  ===========================================================

Every ploy used on "the operative the trigger names" is usable only when that operative is
friendly (its condition), and the dice ploys only when a die shows 1 that was not re-rolled.

This module holds no tests itself (pytest collects nothing from it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import GameOptions, GameState
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.ploys import TRIGGERS, Reroll
from engine.game.work import Work
from engine.rules import registry
from engine.rules.ploys import (
    ExtraMove,
    FreeAction,
    GainToken,
    GainWeaponRule,
    Ploy,
    StatChange,
)
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster, Team
from tests.test_game_rules_common import LAB, team_data

TEAM_ID = "ploytest"


def _friendly_op(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The operative the trigger names is one of ``player``'s."""
    op = info.get("op", "")
    return bool(op) and w.ctx.owner[op] == player


def _friendly_target(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """``op`` is the (friendly) target the trigger names."""
    return bool(op == info.get("target", ""))


def _a_one(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """A die of the window shows 1 and was not re-rolled yet."""
    dice, flags = info.get("dice", ()), info.get("flags", ())
    return any(v == 1 and not f for v, f in zip(dice, flags, strict=True))


def _reroll_ones(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
    """Re-roll every die showing 1 not re-rolled yet."""
    dice, flags = info.get("dice", ()), info.get("flags", ())
    return Reroll(tuple(v for v, f in zip(dice, flags, strict=True) if v == 1 and not f))


def _regroup(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Count the use on the player's counter ``regroup``."""
    w.count(player, "regroup", add=1)


def _injured_friend(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The active operative the trigger names is friendly and injured."""
    return _friendly_op(w, player, info) and w.injured(w.op(info["op"]))


def _friend_dashed(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The operative the trigger names is friendly and just made a Dash."""
    return _friendly_op(w, player, info) and info.get("action") == "Dash"


def _enemy_picks_up(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The operative the trigger names is an enemy declaring Pick Up Marker."""
    op = info.get("op", "")
    return bool(op) and w.ctx.owner[op] != player and info.get("action") == "Pick up"


def _snatched(w: Work, why: str | None, op: Any = None, **info: Any) -> str | None:
    """Snatch Away's hook (``would_allow_pick_up``): the enemy of a player holding the token
    ``snatch`` cannot pick markers up."""
    foe = "B" if op.player == "A" else "A"
    if any(e.kind == "token" and e.player == foe and e.detail == "snatch" for e in w.effects):
        return "Snatch Away: no Pick Up this turning point"
    return why


def _friend_struck(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The operative the trigger says is struck is friendly."""
    target = info.get("target", "")
    return bool(target) and w.ctx.owner[target] == player


def _friend_save_changed(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The operative the trigger names is friendly and its Save changed."""
    return _friendly_op(w, player, info) and info.get("stat") == "save"


def _friend_down(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The incapacitated operative the trigger names is friendly."""
    return _friendly_op(w, player, info)


PLOYS: tuple[Ploy, ...] = (
    Ploy("Quickstep", "strategy", effects=(StatChange("move", 1, "end_tp"),)),
    Ploy("Steady Aim", "strategy", effects=(GainWeaponRule("Balanced", "ranged", "end_tp"),)),
    Ploy(
        "Early Start",
        "firefight",
        triggers=("turning_point_start",),
        effects=(GainToken("early", "end_tp"),),
    ),
    Ploy(
        "Opening Move",
        "firefight",
        triggers=("firefight_start",),
        target="friendly",
        effects=(ExtraMove(2.0),),
    ),
    Ploy(
        "Dig In",
        "firefight",
        triggers=("firefight_end",),
        target="friendly",
        effects=(GainToken("dug_in", "end_battle"),),
    ),
    Ploy("Regroup", "firefight", triggers=("turning_point_end",), use_hook=_regroup),
    Ploy(
        "Surge",
        "firefight",
        triggers=("activation_start",),
        target="self",
        condition=_friendly_op,
        effects=(StatChange("move", 2, "end_activation"),),
    ),
    Ploy(
        "Stay Sharp",
        "firefight",
        triggers=("activation_end",),
        target="self",
        condition=_friendly_op,
        effects=(StatChange("apl", 1, "end_next_activation"),),
    ),
    Ploy(
        "Second Wind",
        "firefight",
        triggers=("during_activation",),
        target="self",
        condition=_injured_friend,
        effects=(StatChange("apl", 1, "end_activation"),),
    ),
    Ploy(
        "Quick Feet",
        "firefight",
        triggers=("counteract_start",),
        target="self",
        condition=_friendly_op,
        effects=(FreeAction("Dash"),),
    ),
    Ploy(
        "Snatch Away",
        "firefight",
        triggers=("action_declared",),
        condition=_enemy_picks_up,
        effects=(GainToken("snatch", "end_tp"),),
    ),
    Ploy(
        "Tailwind",
        "firefight",
        triggers=("moved",),
        target="self",
        condition=_friend_dashed,
        effects=(GainToken("tailwind", "end_tp"),),
    ),
    Ploy(
        "Brace",
        "firefight",
        triggers=("target_selected",),
        target="friendly",
        eligible=_friendly_target,
        effects=(StatChange("save", -1, "end_tp"),),
    ),
    Ploy("Focus", "firefight", triggers=("attack_dice",), condition=_a_one, use_hook=_reroll_ones),
    Ploy(
        "Hunker", "firefight", triggers=("defence_dice",), condition=_a_one, use_hook=_reroll_ones
    ),
    Ploy(
        "Grit",
        "firefight",
        triggers=("strike",),
        condition=_friend_struck,
        effects=(GainToken("grit", "end_tp"),),
    ),
    Ploy(
        "Steel Nerves",
        "firefight",
        triggers=("resolve_start",),
        effects=(GainToken("steel_nerves", "end_tp"),),
    ),
    Ploy(
        "Vengeance",
        "firefight",
        triggers=("incapacitated",),
        condition=_friend_down,
        effects=(GainWeaponRule("Lethal 5+", "", "end_tp"),),
    ),
    Ploy(
        "Iron Will",
        "firefight",
        triggers=("stat_changed",),
        target="self",
        condition=_friend_save_changed,
        effects=(GainToken("steeled", "end_tp"),),
    ),
)
"""The team's ploys (module docstring), at least one per trigger."""

BY_TRIGGER: dict[str, Ploy] = {t: next(p for p in PLOYS if t in p.triggers) for t in TRIGGERS}
"""The first of :data:`PLOYS` at each trigger."""


def _installer(ploy: Ploy) -> registry.Installer:
    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)
        if ploy.name == "Snatch Away":
            hooks.transform("would_allow_pick_up", _snatched)

    return install


for _p in PLOYS:
    registry.register(
        registry.rule_id(TEAM_ID, f"{_p.kind}_ploy", _p.name),
        _installer(_p),
        f"Test ploy at {', '.join(_p.triggers)}.",
    )


def _data() -> dict[str, Any]:
    data = team_data(TEAM_ID)
    data["name"] = "Ploy Test"
    data["ploys"] = [
        {"name": p.name, "kind": p.kind, "cp": p.cp, "summary": "A test ploy."} for p in PLOYS
    ]
    data["default_roster"] = ["Trooper", "Trooper", "Captain"]
    return data


TEAM: Team = team_from_dict(_data(), TEAM_ID)
"""The test team (its operative types are those of ``tests/test_game_rules_common``)."""

ROSTER = ("Trooper", "Trooper", "Gunner", "Brawler", "Captain", "Weakling")
"""Roster entries: index i is ``PLOA-(i+1)`` / ``PLOB-(i+1)``."""


def roster(types: Sequence[str] = ROSTER) -> Roster:
    """A roster of the test team."""
    return Roster(TEAM, tuple(types))


def add_ploys(
    state: GameState, ploys: Sequence[Any], players: tuple[str, ...] = ("A", "B")
) -> GameState:
    """``state`` with extra ``ploys`` (:class:`engine.game.ploys.PloyLike`) offered to
    ``players`` (:meth:`GameState.with_hooks`: the states after it have them). For scripted
    tests: a record of the battle would not replay them."""

    def add(hooks: Hooks) -> None:
        for p in ploys:
            hooks.ploy(p, players)

    return state.with_hooks(add)


def pos(
    operatives: Mapping[str, Mapping[str, Any]],
    *,
    cp: tuple[int, int] = (3, 3),
    options: GameOptions | None = None,
    red: Sequence[str] = ROSTER,
    blu: Sequence[str] = ROSTER,
    **kw: Any,
) -> GameState:
    """A Firefight-phase position on the LAB killzone (``tests/test_game_rules_common``) with
    the test team for both players (:func:`engine.game.scenario.position`)."""
    return position(
        LAB, roster(red), roster(blu), operatives=operatives, cp=cp, options=options, **kw
    )
