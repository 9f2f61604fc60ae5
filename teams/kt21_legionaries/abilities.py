"""The KT21 Legionaries' operative abilities the engine plays (``rules/KT21.md`` 4.1, 11,
15.1):

- **Icon Bearer** (Icon Bearer): when control of an objective marker is worked out, the
  operative counts one more APL (not a modifier: the APL clamp of 4.2 does not apply).
- **Vicious Reflexes** (Shrivetalon): in a fight where it is the Defender (and has a melee
  weapon to roll with), it resolves its successful hits first.
- **Soul Feast** (Chosen): at the end of a fight's Resolve Successful Hits step, if it is
  still in the killzone and struck with a critical hit in that fight, it regains 2 lost
  wounds.
- **Horrifying Dismemberment** (Shrivetalon): when it incapacitates an enemy operative in a
  fight (as either side), its player selects one other enemy operative within 3" of it
  (``Use horrifying dismemberment on <operative>``, a team-rule choice once the damage is
  done): that operative's APL -1 (until the end of its current or next activation, 4.2).
- **Daemonic Aura** (Chosen): an enemy operative that starts a Fall Back within its
  Engagement Range may move 4" less (2●), never less than 2" (●): the shared movement's
  ``would_move_distance`` hook.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.markers import OBJECTIVE_MARKER
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.registry import register
from teams.kt21_legionaries.common import fight_frame, owned_by

__all__ = [
    "DAEMONIC_AURA_CUT",
    "DAEMONIC_AURA_FLOOR",
    "DISMEMBERMENT_RANGE",
    "ICON_BEARER_BONUS",
    "SOUL_FEAST_WOUNDS",
    "has_ability",
    "install_daemonic_aura",
    "install_horrifying_dismemberment",
    "install_icon_bearer",
    "install_soul_feast",
    "install_vicious_reflexes",
]

ICON_BEARER_BONUS = 1
"""APL added for objective marker control (Icon Bearer)."""
SOUL_FEAST_WOUNDS = 2
"""Lost wounds regained (Soul Feast)."""
_SOUL_FEAST = "kt21 soul feast"
DISMEMBERMENT_RANGE = 3.0
"""Horrifying Dismemberment selects an enemy within this distance (inches, ⬛)."""
_DISMEMBERMENT = "kt21_legionaries_horrifying_dismemberment"
DAEMONIC_AURA_CUT = 4.0
"""Inches taken off an enemy's Fall Back (2●)."""
DAEMONIC_AURA_FLOOR = 2.0
"""The shortest Fall Back it leaves (●), inches."""


def has_ability(w: Work, op: str, name: str) -> bool:
    """``op``'s datacard has the ability ``name``."""
    return bool(op) and any(a.name == name for a in w.ctx.datacards[op].abilities)


def install_icon_bearer(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Icon Bearer (module docstring; ``rules/KT21.md`` 15.1: control by total APL)."""

    def hook(w: Work, apl: int, *, op: str, what: str, **_: Any) -> int:
        if what != OBJECTIVE_MARKER or not owned_by(w, op, players):
            return apl
        if has_ability(w, op, "Icon Bearer"):
            return apl + ICON_BEARER_BONUS
        return apl

    hooks.transform("would_control_apl", hook)


def install_vicious_reflexes(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Vicious Reflexes (module docstring; ``rules/KT21.md`` 11 step 4)."""

    def hook(w: Work, side: str, *, target: str, **_: Any) -> str:
        if owned_by(w, target, players) and has_ability(w, target, "Vicious Reflexes"):
            return "d"
        return side

    hooks.transform("would_resolve_first", hook)


def install_soul_feast(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Soul Feast (module docstring; ``rules/KT21.md`` 11 step 4): a critical strike is
    noted (an effect until the end of the turning point), and when the fight ends the noted
    operative regains up to 2 lost wounds (event ``wounds_regained``)."""

    def on_strike(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if ev["die"] != "crit" or not owned_by(w, op, players):
            return
        if has_ability(w, op, "Soul Feast") and not _noted(w, op):
            w.effects.append(Effect("token", op, "end_tp", source=op, detail=_SOUL_FEAST))

    def on_fight_ended(w: Work, ev: Event) -> None:
        for op in (str(ev["op"]), str(ev["target"])):
            note = _noted(w, op)
            if note is None:
                continue
            w.effects.remove(note)
            o = w.op(op)
            if not o.alive:
                continue
            regained = min(SOUL_FEAST_WOUNDS, w.ctx.datacards[op].wounds - o.wounds)
            if regained > 0:
                w.set_op(op, wounds=o.wounds + regained)
                w.emit("wounds_regained", op=op, by=op, rule="Soul Feast", wounds=regained)

    hooks.on("strike", on_strike)
    hooks.on("fight_ended", on_fight_ended)


def _noted(w: Work, op: str) -> Effect | None:
    return next(
        (e for e in w.effects if e.kind == "token" and e.op == op and e.detail == _SOUL_FEAST),
        None,
    )


def install_daemonic_aura(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Daemonic Aura (module docstring)."""

    def hook(w: Work, limit: float, *, op: str, action: str, **_: Any) -> float:
        if action != "Fall Back" or w.ctx.owner.get(op) in players:
            return limit
        mover = w.op(op)
        for e in w.enemies_of(op):
            aura = e.player in players and has_ability(w, e.id, "Daemonic Aura")
            if aura and w.control_range(mover, e):  # within its Engagement Range (7.2)
                return min(limit, max(DAEMONIC_AURA_FLOOR, limit - DAEMONIC_AURA_CUT))
        return limit

    hooks.transform("would_move_distance", hook)


def _dismembered(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """The selected enemy's APL -1 (Horrifying Dismemberment)."""
    if chosen and w.op(chosen).alive:
        w.add_effect(Effect("apl", chosen, "end_next_activation", source=frame.op, value=-1))


on_choice(_DISMEMBERMENT, _dismembered)


def install_horrifying_dismemberment(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Horrifying Dismemberment (module docstring): the ``operative_incapacitated`` event
    of a fight of the Shrivetalon defers the choice of the enemy."""

    def fell(w: Work, ev: Event) -> None:
        by, victim = str(ev.get("by", "")), str(ev["op"])
        if not by or not owned_by(w, by, players) or not has_ability(w, by, HORRIFYING):
            return
        f = fight_frame(w)
        if f is None or by not in (f.attacker, f.defender) or not w.op(by).alive:
            return
        me = w.op(by)
        near = tuple(
            sorted(
                e.id
                for e in w.enemies_of(by)
                if e.id != victim
                and w.distance(w.place(me), w.place(e)) <= DISMEMBERMENT_RANGE + 1e-6
            )
        )
        if near:
            frame = RuleChoiceFrame(w.ctx.owner[by], HORRIFYING, _DISMEMBERMENT, by, near)
            w.defer_frame(attrs.evolve(frame, optional=False))

    hooks.on("operative_incapacitated", fell)


HORRIFYING = "Horrifying Dismemberment"


register(
    "kt21_legionaries/ability/horrifying_dismemberment",
    install_horrifying_dismemberment,
    'When it incapacitates an enemy in a fight, one other enemy within 3" of it loses 1 APL.',
)
register(
    "kt21_legionaries/ability/daemonic_aura",
    install_daemonic_aura,
    'An enemy starting a Fall Back within its Engagement Range moves 4" less (at least 2").',
)
register(
    "kt21_legionaries/ability/icon_bearer",
    install_icon_bearer,
    "Counts one more APL when control of an objective marker is worked out.",
)
register(
    "kt21_legionaries/ability/vicious_reflexes",
    install_vicious_reflexes,
    "As the Defender of a fight, it resolves its successful hits first.",
)
register(
    "kt21_legionaries/ability/soul_feast",
    install_soul_feast,
    "After a fight in which it struck with a critical hit, if still alive, it regains 2 "
    "lost wounds.",
)
