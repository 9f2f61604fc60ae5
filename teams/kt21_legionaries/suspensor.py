"""The KT21 Legionaries' **Suspensor System** (``rules/KT21.md`` 1.2 step 6 equipment, 12
Heavy, 6.1 movement):

The Heavy rule of the carrier's ranged weapons is replaced: instead of Heavy's bar (no Shoot
with it after a Normal Move, Charge or Fall Back in the activation, no such move after the
shot), the carrier cannot move more than :data:`SUSPENSOR_MOVE` (3") in all in an activation
in which it performs a Shoot action with one of those weapons:

- the ``kt21_weapon_rules`` hook removes Heavy from the carrier's weapons (added ``last``);
- the moves it makes in its own activation are summed (the ``moved`` event's ``cost``: the
  inches the move counted, 7.3-7.4);
- a Shoot with a weapon whose printed profile has Heavy is refused once the carrier moved
  more than 3" in the activation (``would_refuse_weapon``);
- after such a Shoot, each of its moves in that activation may go no further than what is
  left of the 3" (``would_move_distance``).

Overwatch is not a Shoot action (3.5): it is not limited.
"""

from __future__ import annotations

from typing import Any

from engine.dice.kt21_rules import Kt21WeaponRules
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.universal import ActivationFrame
from engine.game.weapons import find_weapon
from engine.game.work import Work
from engine.rules.kt21.equipment import carried
from engine.rules.registry import register, register_equipment_value
from engine.teams.model import WeaponProfile

__all__ = ["SUSPENSOR_MOVE", "SUSPENSOR_SYSTEM", "install_suspensor_system", "moved_inches"]

SUSPENSOR_SYSTEM = "Suspensor System"
SUSPENSOR_MOVE = 3.0
"""The most the carrier moves in an activation in which it shoots a Heavy weapon (inches)."""
_MOVED = "kt21 suspensor moved"
_SHOT = "kt21 suspensor heavy shot"
_MILLI = 1000
_EPS = 1e-6


def _in_own_activation(w: Work, op: str) -> bool:
    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return bool(f.op == op and f.mode == "activation")
    return False


def moved_inches(w: Work, op: str) -> float:
    """The inches ``op`` (a carrier) moved in its activation in progress (0 outside one)."""
    e = next((e for e in w.effects if e.op == op and e.detail == _MOVED), None)
    return 0.0 if e is None else e.value / _MILLI


def _printed_heavy(profile: Any) -> bool:
    return isinstance(profile, WeaponProfile) and profile.kt21_rules.has("Heavy")


def install_suspensor_system(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Suspensor System (module docstring)."""

    def carrier(w: Work, op: str) -> bool:
        return w.ctx.owner.get(op) in players and SUSPENSOR_SYSTEM in carried(w, op)

    def no_heavy(w: Work, rules: Kt21WeaponRules, *, op: str, **_: Any) -> Any:
        if not isinstance(rules, Kt21WeaponRules) or not rules.has("Heavy"):
            return rules
        if not op or not carrier(w, op):
            return rules
        return Kt21WeaponRules(tuple(r for r in rules.rules if r.name != "Heavy"))

    def moved(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if not carrier(w, op) or not _in_own_activation(w, op):
            return
        total = round((moved_inches(w, op) + float(ev["cost"])) * _MILLI)
        w.effects = [e for e in w.effects if not (e.op == op and e.detail == _MOVED)]
        w.effects.append(
            Effect("token", op, "end_this_activation", source=op, detail=_MOVED, value=total)
        )

    def shot(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if not carrier(w, op) or not _in_own_activation(w, op):
            return
        o = w.op(op)
        profile = find_weapon(w, o, str(ev["weapon"]), "ranged")[2]
        if _printed_heavy(profile) and not any(e.op == op and e.detail == _SHOT for e in w.effects):
            w.effects.append(Effect("token", op, "end_this_activation", source=op, detail=_SHOT))

    def refuse(
        w: Work, refused: Any, *, op: OperativeState, weapon: str, profile: Any, **_: Any
    ) -> Any:
        if refused or not _printed_heavy(profile) or not carrier(w, op.id):
            return refused
        if not _in_own_activation(w, op.id):
            return refused
        far = moved_inches(w, op.id)
        if far > SUSPENSOR_MOVE + _EPS:
            return (
                f'{op.id} moved {far:g}" this activation: with its Suspensor System it shoots '
                f'its Heavy {weapon} only after moving at most {SUSPENSOR_MOVE:g}"'
            )
        return refused

    def limit(w: Work, most: float, *, op: str, **_: Any) -> float:
        if not w.effects or not any(e.op == op and e.detail == _SHOT for e in w.effects):
            return most
        return min(most, max(0.0, SUSPENSOR_MOVE - moved_inches(w, op)))

    hooks.transform("kt21_weapon_rules", no_heavy, last=True)
    hooks.on("moved", moved)
    hooks.on("shoot_declared", shot)
    hooks.transform("would_refuse_weapon", refuse)
    hooks.transform("would_move_distance", limit)


register(
    "kt21_legionaries/equipment/suspensor_system",
    install_suspensor_system,
    'Its Heavy ranged weapons: no Heavy bar; instead it moves at most 3" in an activation '
    "in which it Shoots with one.",
)
register_equipment_value("kt21_legionaries/equipment/suspensor_system", 1.0)
