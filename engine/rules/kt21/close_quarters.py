"""The KT21 Close Quarters rules (Killzone: Gallowdark, ``rules/KT21.md`` 13; Designer's
Commentary 16.32, 16.35, 16.40), as far as they are sourced, played on a killzone with Wall
terrain (the battle's ``ctx.close_quarters``, as under KT24).

The digest has only what the DC confirms; the full texts are UNCONFIRMED (``rules/KT21.md``
18.14). The engine plays them in the shape of their KT24 descendant (``rules/KT24.md`` 9.3),
reusing its shared pieces (:mod:`engine.rules.close_quarters`):

- **Wall** terrain: nothing moves over or through it except its Accessible parts (an open
  hatchway's access point), whatever other rules say (13): the shared movement graph, a
  killzone's data (Wall parts are never passable nor climbable). For Cover and Obscured, KT21
  reads Wall as Heavy, and an open hatch gives Cover and is Obscuring
  (:data:`engine.geometry.kt21_sight.OPEN_HATCH_TRAITS`).
- **Operate Hatch** (1AP, KT24's action, :data:`engine.rules.close_quarters.OPERATE_HATCH`):
  open or close a hatchway whose access point is within 1" of the operative, not within
  Engagement Range of an enemy. It may also be performed **during a Normal Move** (13, DC
  16.35): when a Normal Move ends with a hatchway operable and the mover has AP and some Move
  left, :class:`HatchInMoveFrame` offers it (``Operate hatch KAS-1 centre hatch``, 1AP) or
  ``Pass``; after it come the first interrupt point (the hatch action is complete), then the
  rest of the Normal Move (a free Normal Move of at most what is left of its Move), then the
  Normal Move itself is complete: the second interrupt point.
- **Guard** (1AP, KT24's action, :data:`engine.rules.close_quarters.GUARD`): an operative with
  an Engage order, not within Engagement Range of an enemy, goes on guard (until it acts,
  moves, its order changes, or the next turning point). Once per enemy activation, after an
  enemy action (any action, even the last of the last activation of the turning point, DC
  16.32; the shared :class:`~engine.game.universal.activation.ActivationFrame` asks its
  ``after_action_window`` hooks after every action), its player may interrupt with one guard
  (:class:`Kt21GuardWindowFrame`), which makes a **guard attack**: an **Overwatch** (3.5:
  one shooting attack with BS 1 worse, no Blast nor Unwieldy profile, at most once per
  turning point) or a **Fight** (11), as a free action it must make. If the player passes,
  guards that have that enemy within their Engagement Range stop guarding (KT24.md 9.3). A
  guard with no guard attack to make stays on guard (13).
- **Heavy** does not stop Guard (a Heavy weapon may be used in the guard attack after the
  operative moved then performed Guard, 13): Guard is not a shooting attack and the
  Overwatch ignores Heavy (:mod:`engine.rules.kt21.shoot`).

- **Hatchway Fight** (1AP, :class:`Kt21HatchwayFight`): touching an open hatchway's access
  point, fight an enemy within 2" of it on the other side, with the KT21 fight; treated as a
  Fight, so a guard attack may be one, and an incapacitation in it is one in combat (13, DC
  16.40).

Not played (reported, ``docs/rulings/kt21_close_quarters.md``): the "point-blank overwatch" guard
attack (its text is not sourced), Condensed Environment (a KT24 rule), Operate Hatch during
a Dash, Fall Back or Charge (the digest names the Normal Move only); the Heavy-terrain
proxies for "within x of Heavy terrain" rules are given (:func:`heavy_proxies`) but no KT21
rule in the engine asks the question.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import shapely
from shapely.geometry.base import BaseGeometry

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import (
    Listing,
    UniversalAction,
    action_cost,
    enemy_operative,
    precheck,
    spend,
)
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState
from engine.game.universal.activation import (
    ActivationFrame,
    iter_action_options,
    start_free_action,
)
from engine.game.universal.movement import move_limit
from engine.game.weapons import find_weapon, weapons_of
from engine.game.work import Work
from engine.geometry.model import Killzone, TerrainType
from engine.rules.close_quarters import (
    GUARD,
    OPERATE_HATCH,
    GuardWindowFrame,
    guard_window,
    hatch_refusal,
    hatchway_fight_targets,
    interrupt_order,
)
from engine.rules.kt21.fight import begin_fight

__all__ = [
    "GUARD_ATTACKS",
    "HATCHWAY_FIGHT",
    "HatchInMoveFrame",
    "Kt21GuardWindowFrame",
    "Kt21HatchwayFight",
    "heavy_proxies",
    "install",
]

GUARD_ATTACKS = ("Overwatch", "Fight", "Hatchway fight")
"""The actions a KT21 guard attack may be (13: an Overwatch or a Fight; a Hatchway Fight is
treated as a Fight, DC 16.40)."""

_IN_MOVE = "Normal Move"
"""The move action during which Operate Hatch may be performed (13, DC 16.35)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


# -------------------------------------------------------------------------------------------
# Guard (13, DC 16.32)
# -------------------------------------------------------------------------------------------


def _guard_attacks(w: Work, g: OperativeState) -> bool:
    """Whether ``g`` has a guard attack (:data:`GUARD_ATTACKS`) it could make now as a free
    action, with the order it would interrupt with."""
    order = interrupt_order(w, g)
    if order != g.order:
        w.set_op(g.id, order=order)
    try:
        return any(
            a.verb in GUARD_ATTACKS for a in iter_action_options(w, w.op(g.id), "free", True)
        )
    finally:
        if order != g.order:
            w.set_op(g.id, order=g.order)


@attrs.frozen(slots=True)
class Kt21GuardWindowFrame(GuardWindowFrame):
    """The KT21 guard window (13; the shared :class:`GuardWindowFrame`'s shape): the guard
    attack is an Overwatch or a Fight (:data:`GUARD_ATTACKS`) made as a compulsory free action
    (:func:`~engine.game.universal.activation.start_free_action`), not a KT24 interrupt."""

    def can_attack(self, w: Work, g: OperativeState) -> bool:
        """Whether the guard ``g`` could make a guard attack now (an Overwatch at a valid
        target, or a Fight within Engagement Range)."""
        return _guard_attacks(w, g)

    def start_attack(self, w: Work, g: OperativeState) -> None:
        """Begin ``g``'s guard attack: ``interrupt``, then the free action it must make."""
        w.emit("interrupt", op=g.id)
        start_free_action(w, g.id, GUARD_ATTACKS, compulsory=True)


def _enemy_activation(w: Work, op: str) -> ActivationFrame | None:
    """The activation frame of ``op`` on the stack (the topmost), or ``None``."""
    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame) and f.op == op and f.mode == "activation":
            return f
    return None


def _after_action(w: Work, opened: bool, frame: ActivationFrame, **info: Any) -> bool:
    """The ``after_action_window`` hook: the KT21 guard window after an enemy action."""
    del info
    return opened or guard_window(w, frame, Kt21GuardWindowFrame)


# -------------------------------------------------------------------------------------------
# Hatchway Fight (13, DC 16.40)
# -------------------------------------------------------------------------------------------


class Kt21HatchwayFight(UniversalAction):
    """Hatchway Fight (1AP; 13, KT24.md 9.3's shape): an operative touching an open
    hatchway's access point fights an enemy within 2" of it on the other side
    (:func:`engine.rules.close_quarters.hatchway_fight_targets`), as if they were within each
    other's Engagement Range for the action; not within Engagement Range of an enemy. It is
    treated as a Fight (its family: once per activation with Fight; a guard attack may be
    one, 13) and it is the KT21 fight (:class:`engine.rules.kt21.fight.Kt21FightFrame`: the
    defender retaliates, combat support is counted, incapacitation is an incapacitation in
    combat, DC 16.40)."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if not w.ctx.close_quarters or at.in_cr or not w.open_hatchways:
            return
        if precheck(w, o, self.verb, mode, at.in_cr) is not None:
            return
        targets = hatchway_fight_targets(w, o)
        for name, _, _ in weapons_of(w, o.id, "melee") if targets else ():
            for t in targets:
                yield Action(self.verb, op=o.id, weapon=name, target=t.id)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        if not w.ctx.close_quarters:
            raise _illegal(
                f"{a.verb} exists only under the Close Quarters rules (rules/KT21.md 13)"
            )
        if w.in_enemy_control_range(o):
            raise _illegal(
                "Hatchway Fight cannot be performed within Engagement Range of an enemy "
                "(rules/KT21.md 13)"
            )
        name, _, _ = find_weapon(w, o, a.weapon, "melee")
        t = enemy_operative(w, a.target, o.player)
        if t.id not in [e.id for e in hatchway_fight_targets(w, o)]:
            raise _illegal(
                f'{t.id} is not within 2" on the other side of an open hatchway {o.id} is '
                "touching (rules/KT21.md 13 Hatchway Fight)"
            )
        spend(w, o, self.verb, mode)
        w.emit("fight_declared", op=o.id, weapon=name, target=t.id)
        begin_fight(w, o, t, name)  # the KT21 fight itself (a Hatchway Fight is a Fight)


HATCHWAY_FIGHT = Kt21HatchwayFight("Hatchway fight", 1, family="Fight")
"""The KT21 Hatchway Fight (its verb, AP and family are the shared bookkeeping's, declared by
:mod:`engine.rules.close_quarters`)."""


# -------------------------------------------------------------------------------------------
# Operate Hatch during a Normal Move (13, DC 16.35)
# -------------------------------------------------------------------------------------------


def _operable(w: Work, o: OperativeState) -> list[str]:
    """The hatchways ``o`` may operate now (:func:`hatch_refusal`), sorted."""
    return [n for n in sorted(w.ctx.killzone.hatchways) if hatch_refusal(w, o, n) is None]


def _hatch_cost(w: Work, o: OperativeState) -> int:
    return action_cost(w, o, OPERATE_HATCH.verb, OPERATE_HATCH.ap, "activation")


def _moved(w: Work, ev: Event) -> None:
    """The ``moved`` did hook: a Normal Move of an activation that ends with a hatchway
    operable, AP for Operate Hatch and Move left: :class:`HatchInMoveFrame` goes on top of
    the activation (the Normal Move still in progress)."""
    if not w.ctx.close_quarters or ev["action"] != _IN_MOVE.lower() or not w.stack:
        return
    top = w.stack[-1]
    if not isinstance(top, ActivationFrame) or top.mode != "activation" or top.op != ev["op"]:
        return
    o = w.op(ev["op"])
    if OPERATE_HATCH.verb in o.done or o.ap < _hatch_cost(w, o):
        return
    left = move_limit(w, o, _IN_MOVE, "activation") - float(ev["cost"])
    if left <= 1e-6 or not _operable(w, o):
        return
    w.stack.append(HatchInMoveFrame(op=o.id, left=round(left, 3)))


@attrs.frozen(slots=True)
class HatchInMoveFrame:
    """Operate Hatch during a Normal Move (13, DC 16.35; module docstring).

    Attributes:
        op: the moving operative.
        left: what is left of its Normal Move, in inches.
        stage: ``"offer"`` (its player chooses ``Operate hatch X`` or ``Pass``), then
            ``"continue"`` (the hatch operated and the first interrupt point passed: the
            rest of the move is granted).
    """

    op: str
    left: float
    stage: str = "offer"

    def run(self, w: Work) -> None:
        o = w.op(self.op)
        if self.stage == "offer":
            w.decide(o.player, "hatch_in_move")
            return
        w.stack.pop()
        if o.alive and not w.in_enemy_control_range(o):
            # The rest of the Normal Move: a free Normal Move of at most what was left (the
            # player may stop instead, "End activation" of that free action).
            start_free_action(w, o.id, (_IN_MOVE,), max_move=self.left)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        o = w.op(self.op)
        hatches = _operable(w, o) if o.ap >= _hatch_cost(w, o) else []
        return [Action("Pass"), *(Action(OPERATE_HATCH.verb, op=o.id, text=n) for n in hatches)]

    def act(self, w: Work, a: Action) -> None:
        o = w.op(self.op)
        if a.verb == "Pass":
            w.stack.pop()
            w.emit("passed", player=o.player, step="operate hatch during the normal move")
            return
        if a.verb != OPERATE_HATCH.verb:
            raise _illegal(
                f"{a}: choose 'Operate hatch {o.id} <hatchway>' or 'Pass' (rules/KT21.md 13: "
                "Operate Hatch during a Normal Move)"
            )
        if a.op and a.op != o.id:
            raise _illegal(f"{o.id} is the moving operative, not {a.op}")
        names = [n for n in w.ctx.killzone.hatchways if n.lower() == a.text.lower()]
        name = names[0] if names else a.text
        why = hatch_refusal(w, o, name)
        if why is None and o.ap < _hatch_cost(w, o):
            why = f"Operate Hatch costs {_hatch_cost(w, o)}AP and {o.id} has {o.ap}AP left"
        if why is not None:
            raise _illegal(why)
        spend(w, o, OPERATE_HATCH.verb, "activation")
        opened = name not in w.open_hatchways
        now = set(w.open_hatchways) ^ {name}
        w.open_hatchways = tuple(sorted(now))
        w.emit("hatch_operated", op=o.id, hatch=name, open=opened)
        w.replace_top(stage="continue")
        # The Operate Hatch action is complete: the first interrupt point (DC 16.35); the
        # Normal Move goes on after it.
        outer = _enemy_activation(w, o.id)
        if outer is not None:
            guard_window(w, outer, Kt21GuardWindowFrame)


# -------------------------------------------------------------------------------------------
# Heavy-terrain proxies (13, DC 16.40)
# -------------------------------------------------------------------------------------------


def heavy_proxies(kz: Killzone) -> BaseGeometry:
    """What counts as Heavy terrain for "within x of Heavy terrain" rules on a Close Quarters
    killzone (13, DC 16.40): the pillars and wall ends, not the ends of a hatchway's walls
    (nor the hatchways), and the Heavy parts that are not Wall (supplement terrain). A
    *pillar* is a Wall feature with one part; a *wall end* is an end of a wall part that
    touches no other wall part (the point where the wall stops), unless it touches a
    hatchway. Returns the union of those parts and points (inches)."""
    walls = [i for i, p in enumerate(kz.parts) if TerrainType.WALL in p.types and not _hatch(kz, i)]
    hatch_parts: list[BaseGeometry] = [p.polygon for i, p in enumerate(kz.parts) if _hatch(kz, i)]
    hatch_geom = shapely.union_all(hatch_parts) if hatch_parts else shapely.Point()
    out: list[BaseGeometry] = []
    for i, p in enumerate(kz.parts):
        if TerrainType.WALL not in p.types and TerrainType.HEAVY in p.types and not _hatch(kz, i):
            out.append(p.polygon)
    by_feature: dict[int, list[int]] = {}
    for i in walls:
        by_feature.setdefault(kz.parts[i].feature, []).append(i)
    for _feature, idx in by_feature.items():
        if len(idx) == 1 and _is_pillar(kz, idx[0]):
            out.append(kz.parts[idx[0]].polygon)
            continue
        for i in idx:
            for end in _ends(kz, i):
                touching = [
                    j for j in walls if j != i and kz.parts[j].polygon.distance(end) <= 1e-6
                ]
                if not touching and hatch_geom.distance(end) > 1e-6:
                    out.append(end)
    return shapely.union_all(out) if out else shapely.Point()


def _hatch(kz: Killzone, i: int) -> bool:
    return kz.features[kz.parts[i].feature] in kz.hatchways


def _is_pillar(kz: Killzone, i: int) -> bool:
    """A small free-standing wall part (both sides at most 2"): a pillar."""
    x0, y0, x1, y1 = kz.parts[i].polygon.bounds
    return x1 - x0 <= 2.0 + 1e-9 and y1 - y0 <= 2.0 + 1e-9


def _ends(kz: Killzone, i: int) -> list[BaseGeometry]:
    """The two end faces of wall part ``i`` (the short sides of its bounding box)."""
    x0, y0, x1, y1 = kz.parts[i].polygon.bounds
    if x1 - x0 >= y1 - y0:
        return [shapely.LineString([(x0, y0), (x0, y1)]), shapely.LineString([(x1, y0), (x1, y1)])]
    return [shapely.LineString([(x0, y0), (x1, y0)]), shapely.LineString([(x0, y1), (x1, y1)])]


# -------------------------------------------------------------------------------------------
# Install
# -------------------------------------------------------------------------------------------


def _universal_actions(w: Work, actions: tuple[Any, ...], **info: Any) -> tuple[Any, ...]:
    """Operate Hatch, Guard and Hatchway Fight among the battle's universal actions (listed
    only under the Close Quarters rules: they check ``ctx.close_quarters`` themselves)."""
    del info
    return (*actions, OPERATE_HATCH, GUARD, HATCHWAY_FIGHT)


def install(hooks: Hooks) -> None:
    """Add the KT21 Close Quarters rules to a KT21 battle's ``hooks`` (module docstring):
    Operate Hatch and Guard (the ``universal_actions`` hook), the guard window after an
    enemy action (``after_action_window``), Operate Hatch during a Normal Move (the
    ``moved`` did hook). Each is inert on a killzone without Wall terrain (no Close Quarters
    action is listed and no operative is ever on guard)."""
    hooks.transform("universal_actions", _universal_actions)
    hooks.transform("after_action_window", _after_action)
    hooks.on("moved", _moved)
