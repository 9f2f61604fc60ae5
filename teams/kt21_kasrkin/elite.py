"""The KT21 Kasrkin's Elite points (``rules/KT21.md`` 4.3, 10.1 step 3, 11 step 3): the
faction rule Elite, the Sergeant's Leadership and the Trooper's Elite Trooper.

- **Elite** (faction rule): each player with the rule starts the battle with a pool of
  :data:`POOL_START` Elite points. In the Roll Attack Dice step of a shooting attack or a
  fight by a friendly KASRKIN operative (the ``attack_dice`` window of the KT21 Shoot,
  Overwatch and Fight sequences, after the weapon's re-rolls), the player may spend points to
  add 1 per point to ONE of those attack dice (``Use elite 4 to 6``: a 4 becomes a 6 for 2
  points), once per attack roll. The adjusted result counts as rolled: a 6 is a critical hit
  (rules/KT21.md 4.3: result modifiers may push a result up; reading in
  ``docs/rulings/kt21_teams.md``); the die counts as re-rolled afterwards (no re-roll of an
  adjusted die). A result is never raised above 6 (nothing above 6 does more).
- **Leadership** (Sergeant): in each Strategy phase (when the turning point starts, before
  any point can be spent in it) the player adds :data:`LEADERSHIP_POINTS` to the pool while
  the Sergeant is in the killzone.
- **Elite Trooper** (Trooper): in each of its shooting attacks, one point of the adjustment
  is free (even with an empty pool).

The pool is an effect of kind ``"token"`` on the player (``detail`` :data:`POOL`, ``value``
the points), present once the first point was spent or gained; :func:`elite_points` reads it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt21.fight import Kt21FightFrame
from engine.rules.kt21.shoot import Kt21ShootFrame
from engine.rules.registry import register
from teams.kt21_kasrkin.common import has_ability, is_kasrkin, owned_by

__all__ = [
    "ELITE",
    "LEADERSHIP_POINTS",
    "POOL",
    "POOL_START",
    "EliteRule",
    "elite_points",
    "install_elite",
    "install_elite_trooper",
    "install_leadership",
]

POOL_START = 10
"""Elite points at the start of the battle."""
LEADERSHIP_POINTS = 2
"""Elite points Leadership adds in each Strategy phase."""
POOL = "kt21 elite points"
_ADJUSTED = "kt21 elite adjusted"
_USE = re.compile(r"elite ([1-6]) to ([2-6])")


def _pool(w: Work, player: str) -> Effect | None:
    return next(
        (e for e in w.effects if e.kind == "token" and e.player == player and e.detail == POOL),
        None,
    )


def elite_points(w: Work, player: str) -> int:
    """``player``'s Elite points now (:data:`POOL_START` until some were spent or gained)."""
    e = _pool(w, player)
    return POOL_START if e is None else e.value


def _set_points(w: Work, player: str, points: int) -> None:
    old = _pool(w, player)
    if old is not None:
        w.effects.remove(old)
    w.effects.append(Effect("token", "", "end_battle", detail=POOL, player=player, value=points))


def _adjusted(w: Work, player: str) -> Effect | None:
    mine = (e for e in w.effects if e.kind == "token" and e.player == player)
    return next((e for e in mine if e.detail == _ADJUSTED), None)


def _free_point(w: Work, info: Mapping[str, Any]) -> int:
    """1 when Elite Trooper makes one point free (a shooting attack by a Trooper with it)."""
    op = str(info.get("op", ""))
    return 1 if info.get("kind") == "ranged" and has_ability(w, op, "Elite Trooper") else 0


@attrs.frozen(slots=True)
class EliteRule:
    """Elite (module docstring): a rule option of the ``attack_dice`` window (kind
    ``"rule"``: no CP, not a ploy; :mod:`engine.game.ploys`)."""

    players: tuple[str, ...]
    name: str = "Elite"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = True

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use elite <face> to <result>`` for each face shown and each result up to 6
        the pool (plus Elite Trooper's free point) pays for; none once a die of this roll
        was adjusted or for an operative without the KASRKIN keyword."""
        op = str(info.get("op", ""))
        if not is_kasrkin(w, op) or not owned_by(w, op, self.players):
            return []
        if _adjusted(w, player) is not None:
            return []
        budget = elite_points(w, player) + _free_point(w, info)
        faces = sorted(set(info.get("dice", ())), reverse=True)
        return [
            Action("Use", text=f"elite {v} to {t}")
            for v in faces
            for t in range(v + 1, min(6, v + budget) + 1)
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use elite <face> to <result>``."""
        return action.verb == "Use" and _USE.fullmatch(action.text) is not None

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` cannot be used (naming the rule)."""
        if _adjusted(w, player) is not None:
            return "Elite adjusts one (and only one) of the dice of an attack roll"
        return (
            f"{action} is not possible: Elite adds 1 per point spent to one attack die "
            f"showing that face, up to 6 ({elite_points(w, player)} points left)"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Raise the die, pay the points, note the roll as adjusted.

        Raises:
            IllegalActionError: no dice of a KT21 attack in progress."""
        m = _USE.fullmatch(action.text)
        assert m is not None
        face, result = int(m.group(1)), int(m.group(2))
        cost = max(0, result - face - _free_point(w, info))
        top = w.top
        if isinstance(top, Kt21ShootFrame):
            dice, flags = _raise(top.dice, top.flags, face, result)
            w.replace_top(dice=dice, flags=flags)
        elif isinstance(top, Kt21FightFrame):
            side = "a" if str(info.get("op", "")) == top.attacker else "d"
            old = (top.adice, top.aflags) if side == "a" else (top.ddice, top.dflags)
            dice, flags = _raise(*old, face, result)
            w.replace_top(**{f"{side}dice": dice, f"{side}flags": flags})
        else:
            raise IllegalActionError("Elite adjusts the dice of a KT21 attack roll in progress")
        _set_points(w, player, elite_points(w, player) - cost)
        w.effects.append(Effect("token", "", "end_tp", detail=_ADJUSTED, player=player))


def _raise(
    dice: tuple[int, ...], flags: tuple[bool, ...], face: int, result: int
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    pairs = list(zip(dice, flags, strict=True))
    i = next(i for i, (v, f) in enumerate(pairs) if v == face)
    pairs[i] = (result, True)
    pairs.sort(key=lambda p: (-p[0], p[1]))
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def install_elite(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Elite (module docstring): the rule option, and a new attack roll of the player
    (event ``dice_rolled``, label ``attack``) starting a new "one die" allowance."""

    def rolled(w: Work, ev: Event) -> None:
        if ev["label"] != "attack":
            return
        note = _adjusted(w, str(ev["player"]))
        if note is not None:
            w.effects.remove(note)

    hooks.ploy(EliteRule(players), players)
    hooks.on("dice_rolled", rolled)


def install_leadership(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Leadership (module docstring): +2 points each turning point while a Sergeant with
    the ability is in the killzone."""

    def started(w: Work, ev: Event) -> None:
        del ev
        for player in players:
            if any(has_ability(w, o.id, "Leadership") for o in w.alive(player)):
                _set_points(w, player, elite_points(w, player) + LEADERSHIP_POINTS)
                w.emit("rule_used", player=player, rule="Leadership", trigger="strategy phase")

    hooks.on("turning_point_started", started)


def install_elite_trooper(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Elite Trooper (module docstring): read by :class:`EliteRule`; nothing to subscribe."""
    del hooks, players


ELITE = "kt21_kasrkin/faction_rule/elite"
register(
    "kt21_kasrkin/faction_rule/elite",
    install_elite,
    "A pool of 10 Elite points: in a KASRKIN operative's attack roll, spend points to add 1 "
    "each to one attack die.",
)
register(
    "kt21_kasrkin/ability/leadership",
    install_leadership,
    "While the Sergeant is in the killzone, 2 Elite points are added in each Strategy phase.",
)
register(
    "kt21_kasrkin/ability/elite_trooper",
    install_elite_trooper,
    "In each of its shooting attacks, one Elite point of the adjustment is free.",
)
