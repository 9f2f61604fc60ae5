"""The Kasrkin's strategy and firefight ploys (``rules/KT24.md`` 7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Piercing, PiercingCrits
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.ploys import Reroll
from engine.game.state import Effect, other
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import register
from teams.kasrkin.common import (
    is_kasrkin,
    no_cover_saves,
    player_token,
    ploy_installer,
    shoot_frame,
)

# -- Engage From Cover -------------------------------------------------------------------------

ENGAGE_FROM_COVER = "engage_from_cover"
_EFC_USED = "kasrkin_engage_from_cover_used"

ENGAGE_FROM_COVER_PLOY = Ploy(
    "Engage From Cover",
    "strategy",
    effects=(GainToken(ENGAGE_FROM_COVER, "end_tp"),),
    rule_id="kasrkin/strategy_ploy/engage_from_cover",
)


@attrs.frozen(slots=True)
class EngageFromCoverReroll:
    """The re-roll Engage From Cover gives in the defence dice window of a Shoot against a
    friendly Kasrkin in cover (a rule option, free: the ploy was paid in the Gambit step).
    Its actions are ``Use engage from cover <face>``; one per defence roll."""

    name: str = "Engage From Cover (re-roll)"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        target = str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or w.ctx.owner.get(target) != player:
            return False
        if not is_kasrkin(w, target) or not player_token(w, player, ENGAGE_FROM_COVER):
            return False
        if w.count(player, _EFC_USED):
            return False
        f = shoot_frame(w)
        return f is not None and bool(f.cover)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use engage from cover <face>`` for each face of a die not re-rolled yet."""
        if not w.effects or not self._applies(w, player, info):
            return []
        dice, flags = info.get("dice", ()), info.get("flags", ())
        faces = sorted({v for v, f in zip(dice, flags, strict=True) if not f}, reverse=True)
        return [Action("Use", text=f"engage from cover {v}") for v in faces]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use engage from cover <face>``."""
        return action.verb == "Use" and action.text.startswith("engage from cover ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Engage From Cover re-rolls one defence die of a friendly KASRKIN "
            "operative in cover, once per defence roll"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the one die chosen."""
        w.count(player, _EFC_USED, add=1)
        return Reroll((int(action.text.rsplit(" ", 1)[1]),))


ENGAGE_FROM_COVER_REROLL = EngageFromCoverReroll()


def install_engage_from_cover(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Engage From Cover (strategy, 1CP): until the end of the turning point, whenever a
    friendly KASRKIN operative in cover is shot, its player may re-roll one defence die
    (once per defence roll)."""

    def fresh_defence(w: Work, ev: Event) -> None:
        if ev.get("label") != "defence":
            return
        player = ev["player"]
        used = w.count(player, _EFC_USED) if w.pl(player).uses else 0
        if used:
            w.count(player, _EFC_USED, add=-used)

    hooks.ploy(ENGAGE_FROM_COVER_PLOY, players)
    hooks.ploy(ENGAGE_FROM_COVER_REROLL, players)
    hooks.on("dice_rolled", fresh_defence)


# -- Elimination Pattern -----------------------------------------------------------------------

ELIMINATION_PATTERN = "elimination_pattern"
HOT_SHOT = "hot-shot"
VOLLEY_GUN = "hot-shot volley gun"

ELIMINATION_PATTERN_PLOY = Ploy(
    "Elimination Pattern",
    "strategy",
    effects=(GainToken(ELIMINATION_PATTERN, "end_tp"),),
    rule_id="kasrkin/strategy_ploy/elimination_pattern",
)


def install_elimination_pattern(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Elimination Pattern (strategy, 1CP): until the end of the turning point, a friendly
    KASRKIN operative's hot-shot weapons have Piercing Crits 1 (the hot-shot volley gun
    Piercing 1) when shooting a target that cannot retain any cover saves."""

    def rules(w: Work, value: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not w.effects or not is_kasrkin(w, op):
            return value
        player = w.ctx.owner[op]
        if player not in players or not player_token(w, player, ELIMINATION_PATTERN):
            return value
        name = str(info.get("weapon", "")).lower()
        if HOT_SHOT not in name or not info.get("target") or not no_cover_saves(w):
            return value
        if name.startswith(VOLLEY_GUN):
            return value.with_rules(Piercing(1))
        return value.with_rules(PiercingCrits(1))

    hooks.ploy(ELIMINATION_PATTERN_PLOY, players)
    hooks.transform("would_use_weapon_rules", rules)


# -- Relocate ----------------------------------------------------------------------------------

RELOCATE_DISTANCE = 3.0


def _clear_of_enemies(w: Work, op: str) -> bool:
    """``op`` is more than 3" from every enemy operative."""
    me = w.place(w.op(op))
    return all(w.distance(me, w.place(e)) > RELOCATE_DISTANCE for e in w.enemies_of(op))


def _relocate_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.tp > 1


def _relocate_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op) and _clear_of_enemies(w, op)


def _relocate(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The chosen operative and each friendly KASRKIN within 3" of it and more than 3" from
    enemies perform a free Dash (pushed so that the chosen one dashes first, then the
    others in roster order)."""
    chosen = action.target
    me = w.place(w.op(chosen))
    others = [
        o.id
        for o in w.friends_of(chosen)
        if is_kasrkin(w, o.id)
        and w.distance(me, w.place(o)) <= RELOCATE_DISTANCE
        and _clear_of_enemies(w, o.id)
    ]
    for op in reversed([chosen, *others]):
        universal.start_free_action(w, op, ("Dash",))


RELOCATE_PLOY = Ploy(
    "Relocate",
    "strategy",
    target="friendly",
    condition=_relocate_condition,
    eligible=_relocate_eligible,
    use_hook=_relocate,
    rule_id="kasrkin/strategy_ploy/relocate",
)


# -- Neutralise Target -------------------------------------------------------------------------


def _neutralise_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
        return False
    if not is_kasrkin(w, op) or not no_cover_saves(w):
        return False
    return bool(_failed(w, info))


def _failed(w: Work, info: Mapping[str, Any]) -> tuple[int, ...]:
    """The faces of the attack dice that failed and were not re-rolled yet."""
    f = shoot_frame(w)
    if f is None:
        return ()
    hit = f.profile(w).hit
    dice, flags = info.get("dice", ()), info.get("flags", ())
    return tuple(v for v, r in zip(dice, flags, strict=True) if not r and v < hit)


def _neutralise(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
    """Re-roll every failed attack die not re-rolled yet."""
    return Reroll(_failed(w, info))


NEUTRALISE_TARGET_PLOY = Ploy(
    "Neutralise Target",
    "firefight",
    triggers=("attack_dice",),
    condition=_neutralise_condition,
    use_hook=_neutralise,
    rule_id="kasrkin/firefight_ploy/neutralise_target",
)


# -- Seize The Initiative ----------------------------------------------------------------------

SEIZE_VERBS = ("Shoot", "Fight", "Pick up", "Place marker", "Operate hatch")
"""The 1AP actions Seize The Initiative grants that involve no move."""


def _seize_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.initiative == other(player)


def _seize_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op)


def _seize(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    universal.start_free_action(w, action.target, SEIZE_VERBS)


SEIZE_THE_INITIATIVE_PLOY = Ploy(
    "Seize The Initiative",
    "firefight",
    triggers=("firefight_start",),
    target="friendly",
    condition=_seize_condition,
    eligible=_seize_eligible,
    use_hook=_seize,
    rule_id="kasrkin/firefight_ploy/seize_the_initiative",
)


# -- Give No Ground ----------------------------------------------------------------------------

GIVE_NO_GROUND = "give_no_ground"
GIVE_NO_GROUND_APL = 2
"""The total APL both sides must have contesting the marker (the rule text says "is 2")."""


def give_no_ground_holds(w: Work, player: str, marker: str) -> bool:
    """The friendly KASRKIN operatives contesting ``marker`` total 2 APL and the enemy
    operatives contesting it total the same (the APL that counts for control)."""
    mine = enemy = 0
    for o in w.alive():
        if not universal.contests(w, o, marker):
            continue
        apl = int(w.would("would_control_apl", w.apl(o), op=o.id))
        if o.player != player:
            enemy += apl
        elif is_kasrkin(w, o.id):
            mine += apl
    return mine == GIVE_NO_GROUND_APL and enemy == mine


def _give_no_ground_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: worth a third of a VP (operatives, :mod:`engine.agents.values`) when
    the tie it breaks holds on that marker now (at the end of the Firefight phase, just
    before scoring: a full VP), else nothing."""
    from engine.agents.mission_choices import VP_VALUE

    marker = action.text.removeprefix("give no ground ")
    name = next((m.name for m in w.markers if m.name.lower() == marker), "")
    if not name or not give_no_ground_holds(w, player, name):
        return 0.0
    return VP_VALUE if info.get("trigger") == "firefight_end" else VP_VALUE / 3


@attrs.frozen(slots=True)
class GiveNoGround:
    """Give No Ground (firefight, 1CP; a :class:`engine.game.ploys.PloyLike`): during a
    friendly KASRKIN operative's activation (between its actions, trigger
    ``during_activation``) or at the end of the Firefight phase, select an objective marker;
    until the end of that activation, or until the end of the turning point (its scoring
    included), when the friendly KASRKIN operatives contesting it total 2 APL and the enemy
    operatives contesting it total the same, the Kasrkin control it. Once per turning point.
    Notation ``Ploy give no ground <marker>``. (Mission markers of ops are not offered.)"""

    name: str = "Give No Ground"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("during_activation", "firefight_end")
    repeatable: bool = False
    rule_id: str = "kasrkin/firefight_ploy/give_no_ground"

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per objective marker, in a friendly KASRKIN operative's activation or
        at the end of the Firefight phase."""
        if info.get("trigger") == "during_activation":
            op = str(info.get("op", ""))
            if w.ctx.owner.get(op) != player or not is_kasrkin(w, op):
                return []
        return [Action("Ploy", text=f"give no ground {m.name.lower()}") for m in w.markers]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy give no ground <marker>``."""
        return action.verb == "Ploy" and action.text.startswith("give no ground ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Give No Ground selects an objective marker, during a friendly KASRKIN "
            "operative's activation or at the end of the Firefight phase"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """A player token naming the marker, until the end of the activation or of the TP."""
        marker = action.text.removeprefix("give no ground ")
        name = next(m.name for m in w.markers if m.name.lower() == marker)
        during = info.get("trigger") == "during_activation"
        w.add_effect(
            Effect(
                "token",
                "",
                "end_activation" if during else "end_tp",
                source=str(info.get("op", "")) if during else self.name,
                detail=f"{GIVE_NO_GROUND}:{name}",
                player=player,
            )
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`_give_no_ground_advice`."""
        return _give_no_ground_advice(w, player, action, info)


GIVE_NO_GROUND_PLOY = GiveNoGround()


def install_give_no_ground(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Give No Ground (class docstring): the ``would_control_marker`` hook breaks the tie."""

    def control(w: Work, got: str, **info: Any) -> str:
        name = str(info.get("marker", ""))
        if got or not w.effects:
            return got
        for player in players:
            if player_token(w, player, f"{GIVE_NO_GROUND}:{name}") and give_no_ground_holds(
                w, player, name
            ):
                return player
        return got

    hooks.ploy(GIVE_NO_GROUND_PLOY, players)
    hooks.transform("would_control_marker", control)


register(
    "kasrkin/strategy_ploy/engage_from_cover",
    install_engage_from_cover,
    "Until the end of the TP, a friendly Kasrkin in cover that is shot re-rolls one defence die.",
)
register(
    "kasrkin/strategy_ploy/elimination_pattern",
    install_elimination_pattern,
    "Until the end of the TP, hot-shot weapons get Piercing Crits 1 (volley gun Piercing 1) "
    "against targets that cannot retain cover saves.",
)
register(
    "kasrkin/strategy_ploy/relocate",
    ploy_installer(RELOCATE_PLOY),
    'From TP2: a Kasrkin more than 3" from enemies, and friends within 3" of it also clear '
    "of enemies, each make a free Dash.",
)
register(
    "kasrkin/firefight_ploy/neutralise_target",
    ploy_installer(NEUTRALISE_TARGET_PLOY),
    "After a Kasrkin's attack dice against a target that cannot retain cover saves: re-roll "
    "the failed dice.",
)
register(
    "kasrkin/firefight_ploy/seize_the_initiative",
    ploy_installer(SEIZE_THE_INITIATIVE_PLOY),
    "At the start of the Firefight phase, the player without initiative: one Kasrkin performs "
    "a free 1AP action that involves no move.",
)
register(
    "kasrkin/firefight_ploy/give_no_ground",
    install_give_no_ground,
    "During a Kasrkin's activation or at the end of the Firefight phase: on a chosen marker, "
    "Kasrkin win a 2-2 APL tie.",
)
