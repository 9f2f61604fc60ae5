"""The KT21 Legionaries' weapon rule **Siphon Life Force*** (the Balefire Acolyte's Life
Siphon; ``rules/KT21.md`` 10.1 steps 3 and 6, 4.4):

In the Resolve Successful Hits step of a shooting attack with a weapon printing this rule,
when two or more attack dice were retained (normal or critical hits), its player may select
one friendly LEGIONARY operative within :data:`SIPHON_RANGE` (6", ⬟) of the target (the
shooter too) to regain D3 lost wounds (``Use siphon life force on <operative>`` or
``Decline``, a team-rule choice once that step's damage is done; then a D6 halved, rounded
up, never above its Wounds). Only operatives that have lost wounds are offered (selecting
another would change nothing); with none, nothing is asked.

The weapon is the Acolyte's psychic power's: the engine lets it Shoot with it (1AP, as
Manifest Psychic Power's free Shoot costs), the psychic action itself being reported
(``docs/rulings/kt21_teams.md``).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.weapons import find_weapon
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.kt21.shoot import Kt21ShootFrame
from engine.rules.registry import register
from teams.kt21_legionaries.common import is_legionary

__all__ = ["SIPHON_LIFE_FORCE", "SIPHON_RANGE", "install_siphon_life_force", "siphon_candidates"]

SIPHON_LIFE_FORCE = "Siphon Life Force"
SIPHON_RANGE = 6.0
"""The friendly operative healed is within this distance of the target (inches, ⬟)."""
_CHOICE = "kt21_legionaries_siphon_life_force"
_ROLL = "kt21_legionaries_siphon_life_force_roll"
_EPS = 1e-6


def siphon_candidates(w: Work, shooter: str, target: str) -> tuple[str, ...]:
    """The friendly LEGIONARY operatives of ``shooter`` within 6" of ``target`` that have
    lost wounds, in roster order."""
    t = w.place(w.op(target))
    return tuple(
        f.id
        for f in w.alive(w.ctx.owner[shooter])
        if is_legionary(w, f.id)
        and f.wounds < w.ctx.datacards[f.id].wounds
        and w.distance(w.place(f), t) <= SIPHON_RANGE + _EPS
    )


def _chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if chosen:
        w.stack.append(
            RuleRollFrame(
                player=frame.player,
                rule=SIPHON_LIFE_FORCE,
                key=_ROLL,
                op=frame.op,
                dice=1,
                label=f"Siphon Life Force D3 ({chosen})",
                data=(("target", chosen),),
            )
        )


def _healed(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    target = str(frame.get("target"))
    t = w.op(target)
    regained = min(w.ctx.datacards[target].wounds - t.wounds, (values[0] + 1) // 2)
    if t.alive and regained > 0:
        w.set_op(target, wounds=t.wounds + regained)
    w.emit("wounds_regained", op=target, by=frame.op, rule=SIPHON_LIFE_FORCE, wounds=regained)


on_choice(_CHOICE, _chosen)
on_roll(_ROLL, _healed)


def install_siphon_life_force(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Siphon Life Force* (module docstring): when the Resolve Successful Hits step of such a
    shooting attack begins (``saves_retained``), the choice is deferred until its damage is
    done."""

    def resolving(w: Work, ev: Event) -> None:
        f = w.stack[-1] if w.stack else None
        if not isinstance(f, Kt21ShootFrame) or w.ctx.owner.get(f.shooter) not in players:
            return
        if f.normals + f.crits < 2 or f.idx >= len(f.targets) or f.targets[f.idx] != ev["op"]:
            return
        o = w.op(f.shooter)
        prof = find_weapon(w, o, f.weapon, "ranged")[2]
        if SIPHON_LIFE_FORCE not in prof.kt21_rules.team_rules():
            return
        candidates = siphon_candidates(w, f.shooter, str(ev["op"]))
        if candidates:
            w.defer_frame(
                RuleChoiceFrame(
                    player=o.player,
                    rule=SIPHON_LIFE_FORCE,
                    key=_CHOICE,
                    op=o.id,
                    candidates=candidates,
                )
            )

    hooks.on("saves_retained", resolving)


register(
    "kt21_legionaries/weapon_rule/siphon_life_force",
    install_siphon_life_force,
    'Two or more hits retained: a friendly Legionary within 6" of the target regains D3 '
    "lost wounds.",
)
