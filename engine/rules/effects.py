"""Effects with durations that change attacks: stat changes of Hit and Save and weapon
rules gained (``rules/KT24.md`` 2.1 stat changes, 7.1 ploys).

Effects live on the state (:class:`~engine.game.state.Effect`); the core reads APL and Move
changes itself (:meth:`engine.game.work.Work.apl`, :meth:`~engine.game.work.Work.move_stat`)
and Hit and Save changes when it builds an attack (:func:`engine.game.attacks.attack_profile`,
the Shoot sequence's saves). This module adds the weapon rules gained through effects of kind
``"weapon_rule"`` (detail ``"<kind>:<rule>"``, kind ``ranged``, ``melee`` or empty for both,
optionally ``"|<condition>"``) to the weapons of the operatives they apply to.
"""

from __future__ import annotations

from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game.context import Hooks
from engine.game.work import Work

__all__ = ["install", "unobscure"]


def _gained(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
    """Weapon rules gained by effects (module docstring)."""
    op = info.get("op", "")
    if not op or not w.effects:
        return rules
    kind = info.get("kind", "")
    for e in w.effects_on(op, "weapon_rule"):
        spec, _, cond = e.detail.partition("|")
        want, _, text = spec.partition(":")
        if want and want != kind:
            continue
        if cond:
            fn = w.ctx.hooks.conditions.get(cond)
            if fn is None or not fn(w, e):
                continue
        extra = parse_weapon_rules(text)
        rules = rules.with_rules(*extra)
    return rules


def unobscure(tg: Any) -> Any:
    """A targeting result ``tg`` (:func:`engine.game.shoot_targets.targeting`, what the
    ``would_target`` hooks transform) with the target no longer obscured, for the rules that
    say it "cannot be obscured" (in cover still when a cover feature is there)."""
    import attrs

    return attrs.evolve(
        tg, obscured=False, obscuring_features=frozenset(), in_cover=bool(tg.cover_features)
    )


def install(hooks: Hooks) -> None:
    """Subscribe the weapon rules gained through effects."""
    hooks.transform("would_use_weapon_rules", _gained)
