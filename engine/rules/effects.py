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

from collections.abc import Callable
from typing import Any

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game.context import Hooks
from engine.game.work import Work
from engine.geometry.sight import Targeting

__all__ = ["cannot_be_obscured", "install", "unobscure"]


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


_OBSCURED = Targeting(
    origin=(0.0, 0.0),
    lines=(),
    intervening=frozenset(),
    cover_features=frozenset(),
    obscuring_features=frozenset(),
    in_cover=False,
    obscured=True,
)
"""An obscured target with no terrain, to ask a ``would_target`` hook whether its rule makes
a target not obscured (:func:`cannot_be_obscured`)."""


def cannot_be_obscured(hooks: Hooks, unobscured: Callable[..., Any]) -> None:
    """Install a rule by which targets "cannot be obscured" (4.5): ``unobscured`` is its
    ``would_target`` hook (``fn(w, tg, op=, target=) -> tg``, :func:`unobscure` when the rule
    applies), for obscuring by terrain; the same rule also takes away obscuring beyond
    terrain (a Smoke Grenade, 7.2: the ``would_be_obscured`` hooks), added ``last``: after
    every rule that obscures, whichever seat its team plays (a rule that ignores obscured
    applies after every rule that gives it, as a rule that ignores a weapon rule does)."""

    def not_obscured(w: Work, obscured: bool, **info: Any) -> bool:
        if not obscured:
            return obscured
        return bool(unobscured(w, _OBSCURED, **info).obscured)

    hooks.transform("would_target", unobscured)
    hooks.transform("would_be_obscured", not_obscured, last=True)


def install(hooks: Hooks) -> None:
    """Subscribe the weapon rules gained through effects."""
    hooks.transform("would_use_weapon_rules", _gained)
