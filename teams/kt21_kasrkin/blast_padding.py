"""The KT21 Kasrkin Demo-Trooper's **Blast Padding** (``rules/KT21.md`` 10.1 step 5, 12
Blast and Splash, 4.3):

- When a shooting attack is made against it with a weapon that has Blast (the primary target
  or a Blast secondary: each is a shooting attack with that weapon), or with a weapon that
  attacks each operative within range of a point (a melta mine's Proximity*:
  :mod:`.melta_mine`), its player may re-roll any or all of its defence dice in the Roll
  Defence Dice step (``Use blast padding <faces>``, a rule option of the ``defence_dice``
  window: no CP), once per defence roll, never a die already re-rolled (4.3).
- It suffers no Splash mortal wounds from a shooting attack made against another operative
  (the ``kt21_splash_targets`` hook of the KT21 shooting attack); as the target of the attack
  (primary or Blast secondary) Splash still reaches it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.ploys import Reroll
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt21.attack_dice import kt21_reroll_options
from engine.rules.kt21.shoot import Kt21ShootFrame
from engine.rules.registry import register
from teams.kt21_kasrkin.common import has_ability, owned_by

__all__ = ["BLAST_PADDING", "POINT_ATTACK", "BlastPadding", "install_blast_padding"]

BLAST_PADDING = "Blast Padding"
POINT_ATTACK = "Proximity"
"""The weapon rule by which a weapon attacks each operative within range of a point."""
_USED = "kt21 blast padding used"
_USE = re.compile(r"blast padding((?: [1-6])+)")


def _shoot_frame(w: Work) -> Kt21ShootFrame | None:
    top = w.stack[-1] if w.stack else None
    return top if isinstance(top, Kt21ShootFrame) else None


@attrs.frozen(slots=True)
class BlastPadding:
    """Blast Padding's defence re-roll (module docstring): a rule option of the
    ``defence_dice`` window (kind ``"rule"``, :mod:`engine.game.ploys`) returning a
    :class:`Reroll` of the faces chosen."""

    players: tuple[str, ...]
    name: str = BLAST_PADDING
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True
    rerolls: bool = True

    def _usable(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        target = str(info.get("target", ""))
        f = _shoot_frame(w)
        if f is None or info.get("kind") != "ranged" or f.stage != "defence_cr":
            return False
        if not owned_by(w, target, self.players) or not has_ability(w, target, BLAST_PADDING):
            return False
        prof, rules = f.profile(w)
        if not rules.has("Blast") and POINT_ATTACK not in prof.kt21_rules.team_rules():
            return False
        return not any(
            e.kind == "token" and e.player == player and e.detail == _USED for e in w.effects
        )

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use blast padding <faces>`` for each choice of defence dice not re-rolled yet
        (highest faces first), when the rule applies."""
        if not self._usable(w, player, info):
            return []
        dice, flags = tuple(info.get("dice", ())), tuple(info.get("flags", ()))
        picks = kt21_reroll_options("relentless", dice, flags)[1:]
        return [Action("Use", text="blast padding " + " ".join(map(str, a.values))) for a in picks]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use blast padding <face> [<face>...]``."""
        return action.verb == "Use" and _USE.fullmatch(action.text) is not None

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` cannot be used (naming the rule)."""
        return (
            f"{action} is not possible: Blast Padding re-rolls defence dice not re-rolled yet, "
            "once per defence roll, of its operative shot with a Blast weapon"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the dice chosen; noted so that this defence roll allows no other."""
        m = _USE.fullmatch(action.text)
        assert m is not None
        w.effects.append(Effect("token", "", "end_tp", detail=_USED, player=player))
        return Reroll(tuple(int(v) for v in m.group(1).split()))


def install_blast_padding(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Blast Padding (module docstring): the re-roll option (a new defence roll of the
    player starts a new allowance) and the Splash immunity."""

    def rolled(w: Work, ev: Event) -> None:
        if ev["label"] != "defence":
            return
        for e in list(w.effects):
            if e.kind == "token" and e.player == ev["player"] and e.detail == _USED:
                w.effects.remove(e)

    def splash(w: Work, hit: list[str], *, target: str, **_: Any) -> list[str]:
        return [
            q
            for q in hit
            if q == target or not (owned_by(w, q, players) and has_ability(w, q, BLAST_PADDING))
        ]

    hooks.ploy(BlastPadding(players), players)
    hooks.on("dice_rolled", rolled)
    hooks.transform("kt21_splash_targets", splash)


register(
    "kt21_kasrkin/ability/blast_padding",
    install_blast_padding,
    "Shot with a Blast weapon (or a melta mine) it may re-roll any of its defence dice; "
    "Splash from an attack on another operative does not reach it.",
)
