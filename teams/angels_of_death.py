"""The Angels of Death's team rules that the engine plays, registered by rule id
(``engine.rules.registry``; team data ``teams/angels_of_death.json``).

Chapter Tactics (primary and secondary, chosen when the roster is built) are not played yet:
the roster has no place for that choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import Installer, register, rule_id

TEAM = "angels_of_death"


def _shoot_frame(w: Work) -> Any:
    """The Shoot sequence whose dice window is open (the innermost frame with dice)."""
    for f in reversed(w.stack):
        if hasattr(f, "dice") and hasattr(f, "targets") and hasattr(f, "shooter"):
            return f
    return None


def _save(w: Work, target: str) -> int:
    """The target's Save now (its datacard's, with stat changes, 2.1)."""
    return int(w.ctx.datacards[target].save + w.stat_change(target, "save"))


def _normal_saves(w: Work, info: Mapping[str, Any]) -> list[int]:
    """The indexes of the defence dice that are normal successes (not 6, not 1, at least
    the Save)."""
    target = str(info.get("target", ""))
    if not target:
        return []
    save = max(2, _save(w, target))
    dice = info.get("dice", ())
    return [i for i, v in enumerate(dice) if v != 6 and v != 1 and v >= save]


def _shot_friend(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """A Shoot's defence dice window, the target one of ``player``'s operatives."""
    target = str(info.get("target", ""))
    return (
        info.get("kind") == "ranged"
        and bool(target)
        and w.ctx.owner.get(target) == player
        and _shoot_frame(w) is not None
    )


def _tp_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return _shot_friend(w, player, info) and bool(_normal_saves(w, info))


def _set_die(w: Work, index: int, value: int) -> None:
    """Set the defence die ``index`` of the Shoot in progress to ``value`` (its re-roll
    flag kept)."""
    frame = _shoot_frame(w)
    dice = list(frame.dice)
    dice[index] = value
    pos = max(i for i, f in enumerate(w.stack) if f is frame)
    w.stack[pos] = attrs.evolve(frame, dice=tuple(dice))


def _transhuman(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Retain the highest normal success as a critical success (its die counts as a 6)."""
    idx = _normal_saves(w, info)
    dice = info.get("dice", ())
    best = max(idx, key=lambda i: (dice[i], -i))
    _set_die(w, best, 6)


TRANSHUMAN_PHYSIOLOGY = Ploy(
    "Transhuman Physiology",
    "firefight",
    triggers=("defence_dice",),
    condition=_tp_condition,
    use_hook=_transhuman,
    rule_id=rule_id(TEAM, "firefight_ploy", "Transhuman Physiology"),
)
"""Transhuman Physiology (firefight ploy, 1CP): when an operative is shooting a friendly
operative, in the Roll Defence Dice step, retain one normal success as a critical success.
Trigger: the defence dice window of a Shoot against a friendly operative with at least one
normal success. Limits: once per turning point (7.1); the die chosen is the highest normal
success (the choice never matters otherwise)."""


def _fails(w: Work, info: Mapping[str, Any]) -> list[int]:
    """The indexes of the defence dice that are fails (1, or below the Save; not 6)."""
    target = str(info.get("target", ""))
    save = max(2, _save(w, target))
    return [i for i, v in enumerate(info.get("dice", ())) if v != 6 and (v == 1 or v < save)]


def _has_token(w: Work, op: str, name: str) -> bool:
    return any(e.detail == name for e in w.effects_on(op, "token"))


INDOMITUS_TOKEN = "indomitus"

INDOMITUS = Ploy(
    "Indomitus",
    "strategy",
    effects=(GainToken(INDOMITUS_TOKEN, "end_tp"),),
    rule_id=rule_id(TEAM, "strategy_ploy", "Indomitus"),
)
"""Indomitus (strategy ploy, 1CP): until the end of the turning point, whenever an operative
is shooting a friendly operative and the defence dice show two or more fails, one fail may be
discarded to retain another as a normal success. Trigger: the Gambit step (a team token for
the turning point); its use is the free rule :data:`INDOMITUS_SAVE` in each defence dice
window. Limits: once per turning point (7.1); once per defence roll."""


@attrs.frozen(slots=True)
class IndomitusSave:
    """The option Indomitus gives in the defence dice window of a Shoot against a friendly
    operative (a :class:`engine.game.ploys.PloyLike` of kind ``"rule"``: free, the ploy was
    paid for in the Gambit step). Its action is ``Use indomitus``: one fail is discarded (the
    die removed) and another becomes a normal success (it shows the Save). After it at most
    one fail is left of three dice, so it is used at most once per roll."""

    name: str = "Indomitus"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        if not _shot_friend(w, player, info) or not w.effects:
            return False
        target = str(info["target"])
        return _has_token(w, target, INDOMITUS_TOKEN) and len(_fails(w, info)) >= 2

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use indomitus`` when it applies."""
        return [Action("Use", text="indomitus")] if self._applies(w, player, info) else []

    def owns(self, action: Action) -> bool:
        """Its action is ``Use indomitus``."""
        return action.verb == "Use" and action.text == "indomitus"

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``Use indomitus`` is refused."""
        return (
            "Indomitus needs the ploy used this turning point and two or more fails on the "
            "defence dice of a friendly operative being shot"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Discard the lowest fail; the next fail shows the Save (a normal success)."""
        fails = sorted(_fails(w, info), key=lambda i: (info["dice"][i], i))
        drop, keep = fails[0], fails[1]
        save = max(2, _save(w, str(info["target"])))
        frame = _shoot_frame(w)
        dice, flags = list(frame.dice), list(frame.flags)
        dice[keep] = min(save, 6)
        del dice[drop]
        del flags[drop]
        pos = max(i for i, f in enumerate(w.stack) if f is frame)
        w.stack[pos] = attrs.evolve(frame, dice=tuple(dice), flags=tuple(flags))


INDOMITUS_SAVE = IndomitusSave()


def _install_indomitus(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(INDOMITUS, players)
    hooks.ploy(INDOMITUS_SAVE, players)


def _ploy_installer(ploy: Ploy) -> Installer:
    def install(hooks: Hooks, players: tuple[str, ...]) -> None:
        hooks.ploy(ploy, players)

    return install


register(
    TRANSHUMAN_PHYSIOLOGY.rule_id,
    _ploy_installer(TRANSHUMAN_PHYSIOLOGY),
    "Firefight ploy: when a friendly operative is shot, one normal save becomes a critical.",
)
register(
    INDOMITUS.rule_id,
    _install_indomitus,
    "Strategy ploy: this turning point, two fails on a friendly operative's defence dice "
    "become one normal save.",
)
