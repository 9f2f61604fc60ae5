"""Target selection for the Shoot action (``rules/KT24.md`` 4.5, 4.7, 5.1 steps 1-2, 6 Range,
Seek; 9.3 point-blank shots): the listed Shoot actions, whether a target is valid and the
reason it is not, and the targeting lines (cover, obscured) of a target. The sequence
itself is :class:`engine.game.shoot.ShootFrame`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.dice.rules import Range, Seek, SeekLight
from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.weapons import (
    in_range,
    shoots_in_control_range,
    silent,
    weapon_rules,
    weapon_usable,
    weapons_of,
)
from engine.game.work import Work
from engine.geometry import sight

__all__ = [
    "engaged_reason",
    "fixed_target",
    "iter_shoot_options",
    "own_target_reason",
    "point_blank_shot",
    "range_reason",
    "refused_target",
    "seek_kind",
    "shoot_options",
    "shoot_target_reason",
    "sight_reason",
    "targeting",
    "uncovered_by_rules",
]


def seek_kind(profile_rules: Any) -> str | None:
    """What terrain the weapon's Seek rule ignores for cover (6): ``"all"`` (Seek),
    ``"light"`` (Seek Light) or ``None``."""
    if profile_rules.has(Seek):
        return "all"
    if profile_rules.has(SeekLight):
        return "light"
    return None


def shoot_target_reason(
    w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any, point_blank: bool
) -> str | None:
    """Why ``t`` cannot be the primary target of this shot (5.1 step 2), or None; a team
    weapon rule may still allow it (the ``would_allow_target`` hook, e.g. Magnify*)."""
    why = own_target_reason(w, o, t, name, prof, point_blank)
    if why is None or point_blank:
        return why if why is not None else refused_target(w, o, t, name, prof)
    allowed: str | None = w.would(
        "would_allow_target", why, op=o, target=t, weapon=name, profile=prof
    )
    return allowed if allowed is not None else refused_target(w, o, t, name, prof)


def refused_target(
    w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any
) -> str | None:
    """Why a rule makes ``t`` not a valid target of ``o``'s weapon ``name`` although every
    other check allows it (the ``would_refuse_target`` hooks, ``fn(w, None, op=, target=,
    weapon=, profile=) -> reason or None``, checked last: such a rule takes precedence over
    the others, e.g. one that hides an operative in cover even from Seek), or None."""
    if "would_refuse_target" not in w.ctx.hooks.would:
        return None
    why: str | None = w.would(
        "would_refuse_target", None, op=o, target=t, weapon=name, profile=prof
    )
    return why


def own_target_reason(
    w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any, point_blank: bool
) -> str | None:
    """Why ``t`` cannot be the primary target of ``o``'s shot judged from ``o`` itself
    (4.5, 5.1 step 2, 6 Range, Seek), or None. Seek and Range are read from the weapon's
    rules as rules give them for a shot at ``t`` (:func:`~engine.game.weapons.weapon_rules`:
    e.g. Seek from a token on ``t``), before the target is selected."""
    if point_blank:
        if not w.control_range(o, t):
            return "a point-blank shot must target an enemy within control range (9.3)"
        return None
    rules = weapon_rules(w, o.id, name, prof, "ranged", t.id)
    return (
        sight_reason(w, o, t, seek_kind(rules))
        or engaged_reason(w, o, t)
        or range_reason(w, o, t, name, prof, rules)
    )


def sight_reason(w: Work, o: OperativeState, t: OperativeState, seek: str | None) -> str | None:
    """Why ``t`` is not a valid target of ``o`` (4.5, 4.7: visible, and not a Conceal
    operative in cover), or None; a rule's ``would_refuse_target`` hook is asked last, by
    :func:`refused_target`. Cover is read as the attack reads it: after the ``would_target``
    hooks (:func:`uncovered_by_rules`)."""
    kz = w.kz
    if not w.ctx.valid_target(kz, w.place(t), w.place(o), t.order, seek):
        if not w.ctx.visible(kz, w.place(o), w.place(t)):
            return f"{t.id} is not visible to {o.id} (4.3, 4.5)"
        if uncovered_by_rules(w, o, t, seek):
            return None
        return f"{t.id} has a Conceal order and is in cover: not a valid target (4.5)"
    return None


def uncovered_by_rules(w: Work, o: OperativeState, t: OperativeState, seek: str | None) -> bool:
    """Whether the ``would_target`` hooks (the same the attack applies in :func:`targeting`,
    e.g. 7.2 Portable: a portable barricade gives cover only to an operative connected to
    it) leave the Conceal operative ``t``, in cover from ``o`` by the terrain alone, with no
    counted cover from some origin point of ``o`` (4.5, 4.7;
    :func:`engine.geometry.sight.selection_targetings`): then it is a valid target. A
    feature a hook adds to the cover counts; the hooks are asked only when the terrain alone
    puts ``t`` in cover (no rule adds cover today)."""
    if t.order != "conceal" or not w.ctx.hooks.would.get("would_target"):
        return False
    kz, pt, po = w.kz, w.place(t), w.place(o)
    per_origin = w.ctx.cached(
        ("selection targetings", id(kz), pt, po, seek),
        lambda: sight.selection_targetings(kz, pt, po, seek=seek),
    )
    for tg, counts in per_origin:
        after = w.would("would_target", tg, op=o.id, target=t.id)
        added = after.cover_features - tg.cover_features
        if not after.cover_features & (counts | added):
            return True
    return False


def engaged_reason(w: Work, o: OperativeState, t: OperativeState) -> str | None:
    """Why ``t`` may not be shot by ``o`` because one of ``o``'s friends is within its
    control range (4.5), or None."""
    player = w.ctx.owner[o.id]
    near = w.kept(  # (the same for every operative of that player: kept for the others)
        ("engaged", player, t.id, t.x, t.y, t.elevation, id(w.kz)),
        lambda: [f.id for f in w.alive(player) if w.control_range(f, t)],
    )
    for f in near:
        if f != o.id:
            return f"{t.id} has a friendly operative ({f}) within its control range (4.5)"
    return None


def range_reason(
    w: Work, o: OperativeState, t: OperativeState, name: str, prof: Any, rules: Any = None
) -> str | None:
    """Why ``t`` is out of the Range of ``o``'s weapon ``name`` (6), or None. ``rules``: the
    weapon's rules for a shot at ``t`` (:func:`~engine.game.weapons.weapon_rules`, worked
    out here when ``None``: a rule may take the Range away)."""
    if rules is None:
        rules = weapon_rules(w, o.id, name, prof, "ranged", t.id)
    if not in_range(w, o, t, prof, rules):
        rng = rules.get(Range)
        return f"{t.id} is not within {name}'s Range {getattr(rng, 'distance', 0):g}\" (6)"
    return None


def point_blank_shot(w: Work, o: OperativeState, mode: str) -> bool:
    """``o``'s shot is a point-blank shot: an On Guard interrupt within an enemy's control
    range (9.3)."""
    return mode == "interrupt" and w.in_enemy_control_range(o)


def fixed_target(w: Work, o: OperativeState, name: str, prof: Any) -> str | None:
    """The primary target a team weapon rule fixes for this weapon (e.g. Explosive*: the
    shooter itself, ``would_fix_primary_target``), or None: the player selects one."""
    fixed: str | None = w.would("would_fix_primary_target", None, op=o, weapon=name, profile=prof)
    return fixed


def shoot_options(w: Work, o: OperativeState, mode: str) -> list[Action]:
    """Listed Shoot actions: each usable ranged weapon at each primary target it may take."""
    return list(iter_shoot_options(w, o, mode))


def iter_shoot_options(w: Work, o: OperativeState, mode: str) -> Iterator[Action]:
    """:func:`shoot_options`, one at a time (a caller may stop at the first: the Shoot header
    of an action decision is listed on the first one, :mod:`engine.game.universal.attack_actions`).
    Each target's sight is checked once per kind of Seek, whether a friend engages it once
    and only when the shooter may see it (the reasons are those of
    :func:`shoot_target_reason`, in its order)."""
    pb = point_blank_shot(w, o, mode)
    in_cr = mode != "interrupt" and w.in_enemy_control_range(o)
    enemies = w.enemies_of(o.id)
    sight_why: dict[tuple[str, str | None], str | None] = {}
    engaged_why: dict[str, str | None] = {}
    refuse = "would_refuse_target" in w.ctx.hooks.would
    for name, _, prof in weapons_of(w, o.id, "ranged"):
        if o.order != "engage" and not silent(prof, weapon_rules(w, o.id, name, prof, "ranged")):
            continue
        if weapon_usable(w, o, name, prof) is not None:
            continue
        if in_cr and not shoots_in_control_range(w, o, prof):
            continue
        fixed = fixed_target(w, o, name, prof)
        if fixed is not None:
            yield Action("Shoot", op=o.id, weapon=name, target=fixed)
            continue
        for t in enemies:
            # shoot_target_reason, with the weapon-free checks done once per target.
            if pb:
                why = own_target_reason(w, o, t, name, prof, pb)
            else:
                # The weapon's rules against t, only where they can change the answer: Seek
                # matters only for a Conceal target (4.5: an Engage one is valid when
                # visible), Range only for a target it may see and no friend engages.
                rules = (
                    weapon_rules(w, o.id, name, prof, "ranged", t.id)
                    if t.order == "conceal"
                    else None
                )
                key = (t.id, seek_kind(rules) if rules is not None else None)
                if key not in sight_why:
                    sight_why[key] = sight_reason(w, o, t, key[1])
                why = sight_why[key]
                if why is None:  # (the next checks only for a target it may see)
                    if t.id not in engaged_why:
                        engaged_why[t.id] = engaged_reason(w, o, t)
                    why = engaged_why[t.id]
                    if why is None:
                        if rules is None:
                            rules = weapon_rules(w, o.id, name, prof, "ranged", t.id)
                        why = range_reason(w, o, t, name, prof, rules)
                if why is not None:
                    why = w.would(
                        "would_allow_target", why, op=o, target=t, weapon=name, profile=prof
                    )
            if why is None and refuse:
                why = refused_target(w, o, t, name, prof)
            if why is None:
                yield Action("Shoot", op=o.id, weapon=name, target=t.id)


def targeting(w: Work, shooter: OperativeState, target: OperativeState) -> sight.Targeting:
    """The targeting lines, cover and obscured of ``target`` from ``shooter`` (4.4, 4.5),
    after the ``would_target`` hooks (terrain that gives cover only in some conditions,
    7.2 Portable)."""
    tg = w.ctx.targeting(w.kz, w.place(shooter), w.place(target))
    if w.ctx.hooks.would.get("would_target"):
        tg = w.would("would_target", tg, op=shooter.id, target=target.id)
    return tg
