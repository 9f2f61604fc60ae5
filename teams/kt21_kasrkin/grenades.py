"""The KT21 Kasrkin's Stun Grenade and Decoy Grenade (``rules/KT21.md`` 1.2 step 6 equipment,
4.2 APL, 3.5 Overwatch, 6.2 unique actions): two equipment items, each giving the operative
carrying it a unique action (1AP), once per battle for that operative, not while it is within
Engagement Range of an enemy operative.

Both select one point of the killzone within :data:`THROW_RANGE` (6", ⬟) of the operative
(notation ``Act <op> stun grenade at x,y[,z]``; listed: the point under each enemy operative
within reach, any legal point accepted), then roll one D6 for each operative (friend or foe,
the thrower too) within :data:`BURST_RANGE` (4", 2●) of that point, in roster order (one
ordered roll), subtracting 1 when that operative is not Visible to the thrower. On a
:data:`TEST` (4)+:

- **Stun Grenade** (3EP): that operative's APL is changed by -1 (until the end of its current
  or next activation, 4.2's clamp);
- **Decoy Grenade** (2EP): until the end of the turning point that operative cannot perform
  Guard or Overwatch actions (the ``would_refuse_action`` hook), and one on guard is no longer.

Distances are to the operative's base (a point is a marker of no size, :class:`Placement`
of a 1mm base); "Visible" is the KT21 core's (8.1).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.geometry import Placement
from engine.rules.kt21.attack_sight import visible
from engine.rules.kt21.equipment import carried
from engine.rules.registry import register, register_equipment_value

__all__ = [
    "BURST_RANGE",
    "DECOY_GRENADE",
    "STUN_GRENADE",
    "TEST",
    "THROW_RANGE",
    "GrenadeTestFrame",
    "Kt21Grenade",
    "install_decoy_grenade",
    "install_stun_grenade",
]

THROW_RANGE = 6.0
"""The point is within this distance of the thrower (inches, ⬟)."""
BURST_RANGE = 4.0
"""Operatives within this distance of the point roll (inches, 2●)."""
TEST = 4
"""The D6 result (after the -1 for an operative not Visible) that affects it."""
_EPS = 1e-6
_DECOYED = "kt21 decoy grenade"
_GUARD_ACTIONS = ("Guard", "Overwatch")


def _point(x: float, y: float, z: float) -> Placement:
    return Placement(x, y, base_mm=1.0, elevation=z, model_height=0.02)


def _used_detail(item: str) -> str:
    return f"kt21 {item.lower()} used"


def _engaged(w: Work, o: OperativeState) -> bool:
    return w.in_enemy_control_range(o)


@attrs.frozen(slots=True)
class Kt21Grenade:
    """Stun Grenade or Decoy Grenade (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`).

    Attributes:
        name: the item's name (``"Stun Grenade"``). text: its notation text. ap: 1.
        effect: ``"stun"`` or ``"decoy"``.
    """

    name: str
    text: str
    effect: str
    ap: int = 1
    family: str = ""

    def why_not(self, w: Work, o: OperativeState) -> str | None:
        """Why ``o`` cannot throw it now (whatever the point), naming the rule, or ``None``."""
        if self.name not in carried(w, o.id):
            return f"{o.id} does not carry a {self.name} (rules/KT21.md 1.2 step 6)"
        if any(e.op == o.id and e.detail == _used_detail(self.name) for e in w.effects):
            return f"{o.id} already threw its {self.name}: once per battle"
        if _engaged(w, o):
            return f"{o.id} is within Engagement Range of an enemy operative ({self.name})"
        return None

    def point_problem(self, w: Work, o: OperativeState, point: tuple[float, ...]) -> str | None:
        """Why ``point`` (``(x, y, z)`` inches) cannot be selected, or ``None``."""
        x, y, z = point
        kz = w.kz
        if not (0 <= x <= kz.width and 0 <= y <= kz.depth) or z < 0:
            return f"({x:g}, {y:g}) is not on the killzone ({self.name})"
        gap = w.distance(w.place(o), _point(x, y, z))
        if gap > THROW_RANGE + _EPS:
            return (
                f'({x:g}, {y:g}) is {gap:.2f}" from {o.id}: more than {THROW_RANGE:g}" '
                f"({self.name})"
            )
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """The point under each enemy operative within reach, in roster order."""
        del mode
        if self.why_not(w, o) is not None:
            return []
        out = []
        for e in w.enemies_of(o.id):
            p = (e.x, e.y, e.elevation)
            a = Action("Act", op=o.id, text=self.text, point=p)
            if self.point_problem(w, o, p) is None and a not in out:
                out.append(a)
        return out

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or ``None``."""
        del mode
        why = self.why_not(w, o)
        if why is not None:
            return why
        if a.target or a.point is None:
            return f"{self.name} selects a point: 'Act {o.id} {self.text} at x,y'"
        return self.point_problem(w, o, a.point)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Note the use, then roll the tests of the operatives within 4" of the point."""
        del mode
        assert a.point is not None
        w.add_effect(
            Effect("token", o.id, "end_battle", source=o.id, detail=_used_detail(self.name))
        )
        spot = _point(*a.point)
        ops = tuple(q.id for q in w.alive() if w.distance(w.place(q), spot) <= BURST_RANGE + _EPS)
        if ops:
            w.stack.append(
                GrenadeTestFrame(ops=ops, source=o.id, player=o.player, effect=self.effect)
            )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: a tenth of an operative per enemy in the burst, less per friend."""
        del mode
        if a.point is None:
            return 0.0
        spot = _point(*a.point)
        near = [q for q in w.alive() if w.distance(w.place(q), spot) <= BURST_RANGE + _EPS]
        return 0.1 * sum(1 if q.player != o.player else -1 for q in near)


@attrs.frozen(slots=True)
class GrenadeTestFrame:
    """The grenade's tests: one ordered roll of one D6 per operative of ``ops`` (roster
    order); ``source`` the thrower, ``player`` its player (who rolls), ``effect`` ``"stun"``
    or ``"decoy"``."""

    ops: tuple[str, ...]
    source: str
    player: str
    effect: str

    def run(self, w: Work) -> None:
        """Roll (a chance node)."""
        label = f"{self.effect} grenade tests ({', '.join(self.ops)})"
        w.roll("team_rule", self.player, len(self.ops), ordered=True, label=label)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Apply each test (module docstring)."""
        w.stack.pop()
        w.emit("dice_rolled", player=self.player, label=f"{self.effect} grenade", values=values)
        me = w.op(self.source)
        for op, v in zip(self.ops, values, strict=True):
            q = w.op(op)
            seen = me.alive and visible(w, me, q)
            result = v if seen else v - 1
            hit = result >= TEST and q.alive
            if self.effect == "stun":
                w.emit("stun_test", op=op, roll=result, stunned=hit)
                if hit:
                    w.add_effect(Effect("apl", op, "end_next_activation", source=me.id, value=-1))
            elif hit:
                w.add_effect(Effect("token", op, "end_tp", source=me.id, detail=_DECOYED))
                if q.on_guard:
                    w.set_op(op, on_guard=False)
                w.emit("team_rule_used", op=me.id, on=op, rule="Decoy Grenade")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node
        raise IllegalActionError("the grenade's tests must be rolled here")


STUN_GRENADE = Kt21Grenade("Stun Grenade", "stun grenade", "stun")
DECOY_GRENADE = Kt21Grenade("Decoy Grenade", "decoy grenade", "decoy")


def install_stun_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Stun Grenade (module docstring): its carrier's unique action."""
    hooks.action(STUN_GRENADE, players)


def install_decoy_grenade(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Decoy Grenade (module docstring): its carrier's unique action, and the refusal of
    Guard and Overwatch for an operative it affected this turning point."""

    def refuse(w: Work, refused: Any, *, op: str, action: str, **_: Any) -> Any:
        if refused or action not in _GUARD_ACTIONS or not w.effects:
            return refused
        by = next((e.source for e in w.effects if e.op == op and e.detail == _DECOYED), "")
        if by and w.ctx.owner.get(by) in players:
            return f"{op} was distracted by a decoy grenade: no {action} this turning point"
        return refused

    hooks.action(DECOY_GRENADE, players)
    hooks.transform("would_refuse_action", refuse)


register(
    "kt21_kasrkin/equipment/stun_grenade",
    install_stun_grenade,
    'Once per battle (1AP): D6 for each operative within 4" of a point within 6"; on 4+ '
    "(-1 if not Visible) its APL -1.",
)
register_equipment_value("kt21_kasrkin/equipment/stun_grenade", 1.0)
register(
    "kt21_kasrkin/equipment/decoy_grenade",
    install_decoy_grenade,
    'Once per battle (1AP): D6 for each operative within 4" of a point within 6"; on 4+ '
    "(-1 if not Visible) no Guard or Overwatch this turning point.",
)
register_equipment_value("kt21_kasrkin/equipment/decoy_grenade", 0.5)
