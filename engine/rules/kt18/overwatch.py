"""Overwatch in a KT18 charge (``rules/KT18.md`` 3.11, 5.8, 5.11): the two *would* hooks the
charge sequence asks.

- ``kt18_can_overwatch`` (:func:`can_overwatch`): the target of a charge may fire Overwatch
  when it may shoot at all this battle round (no charge attempt, not Fallen Back or Retreated
  unless it can FLY, Advanced only with an Assault weapon, not shaken, BS not "-"), is more
  than 1" from every enemy (a Reaction, 3.11) and has a ranged weapon it may fire at the
  charger (within Range and visible when the charge is declared, not within 1" of a friendly
  model; a Grenade only if no other model of its kill team fired one this phase).
- ``kt18_overwatch_frame`` (:func:`overwatch_frame`): a
  :class:`~engine.rules.kt18.shooting.ShooterFrame` in Overwatch mode: every attack at the
  charger, each hit only on a 6 whatever the BS and the modifiers. Firing Overwatch does not
  count as shooting in the Shooting phase (no ``"shot"`` token; the charge sequence marks the
  ``"overwatch"`` token) and a model may fire it once per charge that targets it.
"""

from __future__ import annotations

from typing import Any

from engine.game.actions import IllegalActionError
from engine.game.work import Work
from engine.rules.kt18.shooting import ShooterFrame
from engine.rules.kt18.weapons import shaken, shooter_refusal, within_1_of_enemy

__all__ = [
    "can_overwatch",
    "may_overwatch",
    "overwatch_frame",
    "overwatch_refusal",
    "push_overwatch",
]


def overwatch_refusal(w: Work, shooter: str, charger: str) -> str | None:
    """Why ``shooter`` cannot fire Overwatch at ``charger`` now, or ``None`` (module
    docstring)."""
    o = w.op(shooter)
    if not o.alive or not w.op(charger).alive:
        return "both models must be on the battlefield (rules/KT18.md 3.11)"
    if shaken(w, shooter):
        return f"{shooter} is shaken (rules/KT18.md 8.5)"
    if within_1_of_enemy(w, o):
        return f'{shooter} is within 1" of an enemy: no Reaction (rules/KT18.md 3.11)'
    why = shooter_refusal(w, o)  # a shooting attack (the round's tokens; 5.2)
    if why is not None:
        return why
    if not ShooterFrame(shooter, overwatch=True, charger=charger).options(w):
        return f"{shooter} has no ranged weapon it may fire at {charger} (rules/KT18.md 3.11)"
    return None


def can_overwatch(w: Work, value: Any, *, shooter: str, charger: str) -> bool:
    """The ``kt18_can_overwatch`` hook: ``value`` (another rule's answer) or whether
    :func:`overwatch_refusal` finds nothing against it."""
    return bool(value) or overwatch_refusal(w, shooter, charger) is None


def overwatch_frame(w: Work, value: Any, *, shooter: str, charger: str) -> Any:
    """The ``kt18_overwatch_frame`` hook: ``value`` when another rule gave a frame, else the
    Overwatch's :class:`~engine.rules.kt18.shooting.ShooterFrame`."""
    del w
    if value is not None:
        return value
    return ShooterFrame(shooter, overwatch=True, charger=charger)


def may_overwatch(w: Work, shooter: str, charger: str) -> bool:
    """Ask the battle's ``kt18_can_overwatch`` hooks whether ``shooter`` may fire Overwatch at
    ``charger`` now (3.11): what the charge sequence asks before offering the Reaction."""
    return bool(w.would("kt18_can_overwatch", False, shooter=shooter, charger=charger))


def push_overwatch(w: Work, shooter: str, charger: str) -> None:
    """Push the Overwatch frame the battle's ``kt18_overwatch_frame`` hooks give (3.11).

    Raises:
        IllegalActionError: no hook gave a frame (the attack rules are not installed)."""
    frame = w.would("kt18_overwatch_frame", None, shooter=shooter, charger=charger)
    if frame is None:
        raise IllegalActionError(f"no Overwatch frame for {shooter} (rules/KT18.md 3.11)")
    w.stack.append(frame)
