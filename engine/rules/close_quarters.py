"""Close Quarters rules (``rules/KT24.md`` 9.3): Operate Hatch, Hatchway Fight, Guard with
its On Guard interrupt and point-blank shot, Condensed Environment. Active on killzones with
Wall terrain (or when the game's options force them).

Modelling choices (documented): a hatchway's access point is within an operative's control
range when the operative's base is within 1" of the hatchway's parts (a closed hatch is a
wall, so it is visible from either side); Operate Hatch is a whole action (opening mid-move is
not modelled); a hatchway cannot be closed while an operative's base overlaps its access
point. Hatchway Fight: the fighter's base within 0.1" of an open hatchway's parts, the enemy
within 2" of them and on the other side (the straight line between the two crosses the
hatchway); they count as within each other's control range for the action.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from engine.dice.rules import Blast, Lethal, Torrent, WeaponRules
from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import (
    Listing,
    UniversalAction,
    declare,
    own_operative,
    precheck,
    spend,
)
from engine.game.context import Hooks
from engine.game.fight import start_fight
from engine.game.state import OperativeState, other
from engine.game.universal.activation import ActivationFrame, has_action_options
from engine.game.weapons import weapon_usable, weapons_of
from engine.game.work import Work

__all__ = [
    "ACTIONS",
    "GUARD",
    "HATCHWAY_FIGHT",
    "OPERATE_HATCH",
    "Guard",
    "GuardWindowFrame",
    "HatchwayFight",
    "OperateHatch",
    "guard_window",
    "hatch_refusal",
    "hatchway_fight_targets",
    "install",
    "interrupt_order",
]

HATCH_RANGE = 1.0  # control range (4.2)
HATCHWAY_FIGHT_RANGE = 2.0  # inches (9.3)


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


_HATCH_GEOMS_KEY = "closequarters.hatch_geoms"


def _hatch_geom(w: Work, name: str) -> BaseGeometry:
    kz = w.ctx.killzone
    # Cached on the killzone value (Killzone._cache): never handed to another layout.
    per_kz: dict[str, BaseGeometry] = kz._cache.setdefault(_HATCH_GEOMS_KEY, {})
    g = per_kz.get(name)
    if g is None:
        fi = kz.features.index(name)
        g = per_kz[name] = unary_union([p.polygon for p in kz.parts if p.feature == fi])
    return g


def _near_hatch(w: Work, o: OperativeState, name: str, dist: float) -> bool:
    p = w.place(o)
    return bool(_hatch_geom(w, name).distance(Point(p.x, p.y)) <= p.radius + dist + 1e-6)


def _hatch_reason(w: Work, o: OperativeState, name: str) -> str | None:
    kz = w.ctx.killzone
    if name not in kz.hatchways:
        return f"there is no hatchway {name!r} (hatchways: {', '.join(sorted(kz.hatchways))})"
    if not _near_hatch(w, o, name, HATCH_RANGE):
        return f"{name}'s access point is not within {o.id}'s control range (9.3 Operate Hatch)"
    if w.in_enemy_control_range(o):
        return "Operate Hatch cannot be performed within control range of an enemy (9.3)"
    if name in w.open_hatchways:
        for e in w.enemies_of(o.id):
            if _near_hatch(w, e, name, HATCH_RANGE):
                return (
                    f"{name} cannot be closed: its access point is within control range of "
                    f"an enemy ({e.id}) (9.3)"
                )
        for q in w.alive():
            if _near_hatch(w, q, name, -1e-3):
                return f"{name} cannot be closed while {q.id} stands in its access point (9.3)"
    return None


def hatch_refusal(w: Work, o: OperativeState, name: str) -> str | None:
    """Why ``o`` cannot operate the hatchway ``name`` now (Operate Hatch, 9.3; shared with
    KT21's, ``rules/KT21.md`` 13): no such hatchway, its access point not within 1" of ``o``,
    ``o`` within an enemy's control range, or it cannot be closed (an enemy within 1" of its
    access point, or an operative standing in it); ``None`` if it can."""
    return _hatch_reason(w, o, name)


def hatchway_fight_targets(w: Work, o: OperativeState) -> list[OperativeState]:
    """The enemies ``o`` may fight in a Hatchway Fight now (9.3; shared with KT21's,
    ``rules/KT21.md`` 13): ``o``'s base within 0.1" of an open hatchway's parts, the enemy
    within 2" of them and on the other side (the straight line between the two crosses the
    hatchway), in the battle's operative order."""
    return _hatchway_fight_targets(w, o)


def _hatchway_fight_targets(w: Work, o: OperativeState) -> list[OperativeState]:
    out = []
    me = w.place(o)
    for name in w.open_hatchways:
        if not _near_hatch(w, o, name, 0.1):
            continue
        g = _hatch_geom(w, name)
        for e in w.enemies_of(o.id):
            if not _near_hatch(w, e, name, HATCHWAY_FIGHT_RANGE):
                continue
            ep = w.place(e)
            if LineString([(me.x, me.y), (ep.x, ep.y)]).intersects(g) and e not in out:
                out.append(e)
    return sorted(out, key=lambda e: w.ctx.index[e.id])


def _guard_reason(w: Work, o: OperativeState) -> str | None:
    if o.order != "engage":
        return "an operative with a Conceal order cannot Guard (9.3)"
    if w.in_enemy_control_range(o):
        return "Guard cannot be performed within control range of an enemy (9.3)"
    return None


class _CloseQuartersAction(UniversalAction):
    """A Close Quarters action: listed only under the Close Quarters rules; refused otherwise."""

    __slots__ = ()

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        if not w.ctx.close_quarters:
            raise _illegal(f"{a.verb} exists only under the Close Quarters rules (9.3)")
        self.apply(w, o, a, mode)

    def apply(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Carry out the action (under the Close Quarters rules)."""
        raise NotImplementedError


class OperateHatch(_CloseQuartersAction):
    """Operate Hatch (9.3): open or close a hatchway whose access point is within control
    range."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if not w.ctx.close_quarters or precheck(w, o, self.verb, mode) is not None:
            return
        for name in sorted(w.ctx.killzone.hatchways):
            if _hatch_reason(w, o, name) is None:
                yield Action("Operate hatch", op=o.id, text=name)

    def apply(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        names = [n for n in w.ctx.killzone.hatchways if n.lower() == a.text.lower()]
        name = names[0] if names else a.text
        why = _hatch_reason(w, o, name)
        if why:
            raise _illegal(why)
        spend(w, o, "Operate hatch", mode)
        opened = name not in w.open_hatchways
        now = set(w.open_hatchways)
        if opened:
            now.add(name)
        else:
            now.discard(name)
        w.open_hatchways = tuple(sorted(now))
        w.emit("hatch_operated", op=o.id, hatch=name, open=opened)


class Guard(_CloseQuartersAction):
    """Guard (9.3): the operative goes on guard (the On Guard interrupt,
    :class:`GuardWindowFrame`); treated as a Shoot for once per activation and Heavy."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if not w.ctx.close_quarters:
            return
        if precheck(w, o, self.verb, mode) is None and _guard_reason(w, o) is None:
            yield Action("Guard", op=o.id)

    def apply(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        why = _guard_reason(w, o)
        if why:
            raise _illegal(why)
        spend(w, o, "Guard", mode)
        w.set_op(o.id, on_guard=True)
        w.emit("guard", op=o.id)


class HatchwayFight(_CloseQuartersAction):
    """Hatchway Fight (9.3): a Fight through an open hatchway (the Fight frame,
    :func:`engine.game.fight.start_fight`); treated as a Fight."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if not w.ctx.close_quarters:
            return
        if precheck(w, o, self.verb, mode) is not None or w.in_enemy_control_range(o):
            return
        targets = _hatchway_fight_targets(w, o)
        melee = weapons_of(w, o.id, "melee") if targets else []  # (none to fight)
        for name, _, prof in melee:
            if weapon_usable(w, o, name, prof) is None:
                yield from (
                    Action("Hatchway fight", op=o.id, weapon=name, target=t.id) for t in targets
                )

    def apply(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        if w.in_enemy_control_range(o):
            raise _illegal(
                "Hatchway Fight cannot be performed within control range of an enemy (9.3)"
            )
        if a.target not in [t.id for t in _hatchway_fight_targets(w, o)]:
            raise _illegal(
                f'{a.target} is not within 2" on the other side of an open hatchway {o.id} '
                "is touching (9.3 Hatchway Fight)"
            )
        start_fight(
            w,
            o,
            Action("Fight", op=o.id, weapon=a.weapon, target=a.target),
            mode,
            verb="Hatchway fight",
            forced=True,
        )


OPERATE_HATCH = declare(OperateHatch("Operate hatch", 1))
GUARD = declare(Guard("Guard", 1, family="Shoot", keeps_guard=True))
HATCHWAY_FIGHT = declare(HatchwayFight("Hatchway fight", 1, family="Fight"))
ACTIONS: tuple[UniversalAction, ...] = (OPERATE_HATCH, GUARD, HATCHWAY_FIGHT)
"""The Close Quarters actions, in listing order (after the core's universal actions)."""


# -------------------------------------------------------------------------------------------
# On Guard (9.3)
# -------------------------------------------------------------------------------------------


def guard_window(
    w: Work, frame: ActivationFrame, window: type[GuardWindowFrame] | None = None
) -> bool:
    """After an enemy action in an activation: offer the On Guard interrupt (once per enemy
    activation). Returns True when a window (decision) was opened.

    Args:
        frame: the enemy's :class:`ActivationFrame` (its operative, whether its window was
            used).
        window: the frame class of the window: :class:`GuardWindowFrame` (KT24's interrupt),
            or an edition's subclass that makes the guard attack its own way (KT21's,
            :mod:`engine.rules.kt21.close_quarters`)."""
    # Guarding is a Close Quarters action, but a team rule may let an operative guard on
    # any killzone: the window opens whenever an operative is on guard.
    if frame.guard_window_used:
        return False
    active = w.op(frame.op)
    guards = [g for g in w.alive(other(active.player)) if g.on_guard]
    if not guards:
        return False
    w.stack.append((window or GuardWindowFrame)(active=frame.op))
    return True


@attrs.frozen(slots=True)
class GuardWindowFrame:
    """The On Guard window after an enemy action: ``Interrupt X`` or ``Pass`` (9.3). If the
    player passes, guards with the active enemy within control range stop guarding.

    Shared by the editions that play Guard (KT24 9.3; KT21 13, the same shape): what the
    guard attack is, and whether a guard has one, are :meth:`can_attack` and
    :meth:`start_attack`, which an edition's subclass replaces (KT24: one free Shoot or
    Fight in an interrupt :class:`ActivationFrame`)."""

    active: str

    def run(self, w: Work) -> None:
        player = other(w.ctx.owner[self.active])
        w.decide(player, "guard")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        player = other(w.ctx.owner[self.active])
        out = [Action("Pass")]
        for g in w.alive(player):
            if g.on_guard and self.can_attack(w, g):
                out.append(Action("Interrupt", op=g.id))
        return out

    def can_attack(self, w: Work, g: OperativeState) -> bool:
        """Whether the guard ``g`` has a guard attack it could make now (KT24: a Shoot or
        Fight it could perform as an interrupt, with the order it would interrupt with)."""
        return _can_interrupt(w, g)

    def start_attack(self, w: Work, g: OperativeState) -> None:
        """Begin ``g``'s guard attack (its order already set; emits ``interrupt``). KT24: an
        interrupt :class:`ActivationFrame`, one free Shoot or Fight (9.3)."""
        w.set_op(g.id, done=(), moved=False, heavy_shot=False)
        w.emit("interrupt", op=g.id)
        w.stack.append(ActivationFrame(op=g.id, mode="interrupt"))

    def act(self, w: Work, a: Action) -> None:
        player = other(w.ctx.owner[self.active])
        w.stack.pop()
        if a.verb == "Pass":
            w.emit("passed", player=player, step="on guard")
            active = w.op(self.active)
            for g in w.alive(player):
                if g.on_guard and active.alive and w.control_range(g, active):
                    w.set_op(g.id, on_guard=False)
                    w.emit(
                        "guard_ended",
                        op=g.id,
                        why="an enemy ended an action within its control range",
                        enemy=active.id,
                    )
            return
        if a.verb != "Interrupt":
            raise _illegal(f"{a}: choose 'Interrupt X' or 'Pass' (9.3 On Guard)")
        g = own_operative(w, a.op, player)
        if not g.on_guard:
            raise _illegal(f"{g.id} is not on guard (9.3)")
        if not self.can_attack(w, g):
            raise _illegal(f"{g.id} has no Shoot or Fight it could perform (9.3)")
        order = interrupt_order(w, g)
        if order != g.order:
            w.set_op(g.id, order=order)
            w.emit("order_changed", op=g.id, order=order, why="interrupting")
        # mark the enemy activation's window as used
        for i in range(len(w.stack) - 1, -1, -1):
            f = w.stack[i]
            if isinstance(f, ActivationFrame) and f.op == self.active:
                w.stack[i] = attrs.evolve(f, guard_window_used=True)
                break
        self.start_attack(w, w.op(g.id))


def interrupt_order(w: Work, g: OperativeState) -> str:
    """The order ``g`` interrupts with: its own, or the one a rule makes it change to when
    it interrupts (the ``would_interrupt_order`` hooks, ``fn(w, order, op=) -> order``; e.g.
    a Conceal guard that must change to Engage)."""
    if "would_interrupt_order" not in w.ctx.hooks.would:
        return g.order
    return str(w.would("would_interrupt_order", g.order, op=g.id))


def _can_interrupt(w: Work, g: OperativeState) -> bool:
    """``g`` has a Shoot or Fight it could perform as an interrupt, with the order it would
    interrupt with (:func:`interrupt_order`)."""
    order = interrupt_order(w, g)
    if order == g.order:
        return has_action_options(w, g, "interrupt")
    w.set_op(g.id, order=order)
    try:
        return has_action_options(w, w.op(g.id), "interrupt")
    finally:
        w.set_op(g.id, order=g.order)


# -------------------------------------------------------------------------------------------
# Condensed Environment (9.3)
# -------------------------------------------------------------------------------------------


def _condensed(w: Work, rules: WeaponRules, **info: object) -> WeaponRules:
    """Blast, Torrent and x" Devastating weapons gain Lethal 5+ (9.3)."""
    if not w.ctx.close_quarters:
        return rules
    d = rules.dice
    area = rules.has(Blast) or rules.has(Torrent) or d.devastating_distance is not None
    if area and (d.lethal is None or d.lethal > 5):
        return rules.with_rules(Lethal(5))
    return rules


def _universal_actions(
    w: Work, actions: tuple[UniversalAction, ...], **info: object
) -> tuple[UniversalAction, ...]:
    return (*actions, *ACTIONS)


def _after_action(w: Work, opened: bool, frame: ActivationFrame, **info: object) -> bool:
    return opened or guard_window(w, frame)


def install(hooks: Hooks) -> None:
    """Subscribe the Close Quarters hooks: Condensed Environment, the Close Quarters actions
    (the ``universal_actions`` hooks) and the On Guard window after an enemy action (the
    ``after_action_window`` hooks; it opens whenever an operative is on guard, as a team
    rule may let one guard on any killzone)."""
    # Last (and first of the last: installed before the teams): it reads Blast, Torrent and
    # x" Devastating as every other rule gave them (a ploy's Blast), and a rule removing
    # Lethal still comes after it.
    hooks.transform("would_use_weapon_rules", _condensed, last=True)
    hooks.transform("universal_actions", _universal_actions)
    hooks.transform("after_action_window", _after_action)
