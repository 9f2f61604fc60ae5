"""The KT21 Kasrkin Combat Medic's **Medic!** (``rules/KT21.md`` 4.4 wounds and
incapacitation, 4.2 APL, 6.2 free actions, 10.1):

Once per turning point, the first time another friendly KASRKIN operative would be
incapacitated while Visible to and within :data:`MEDIC_RANGE` (3") of the Combat Medic, with
neither of them within Engagement Range of an enemy operative (the medic alive), its player
may use the rule (``Use medic!`` or ``Decline``, a team-rule choice once the damage's
procedure is over; the core's ``would_be_incapacitated`` hook keeps the operative at 1 wound
while its player chooses):

- used: the operative is not incapacitated and has 1 wound left; if the damage came in a
  shooting attack against it, that attack's remaining attack dice are discarded (the KT21
  shooting attack goes on with its next target, a Blast secondary's own attack included);
  both operatives' APL is changed by -1 (until the end of their current or next activation,
  4.2's clamp); after the action in progress the operative may perform a free Dash that
  must end within :data:`DASH_END` (1") of the medic (``would_refuse_destination``);
- declined: it is incapacitated then.

Readings (``docs/rulings/kt21_teams.md``): "once per turning point" is taken when the rule is
used (a declined offer leaves it for later in the turning point); unlike KT24's Medic!, the
saved operative is not protected for the rest of the action (more damage in that action
incapacitates it) and its activation does not end (the KT21 text says neither). The medic
may be the target of the attack in progress (the KT21 text does not exclude it). The 1"
of the free Dash is a distance between bases (no visibility asked). Combat Stimms cannot
select an operative Medic! saved this turning point (:func:`saved`).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.kt21.attack_sight import visible
from engine.rules.kt21.shoot import Kt21ShootFrame
from engine.rules.registry import register
from teams.kt21_kasrkin.common import has_ability, is_kasrkin

__all__ = ["DASH_END", "MEDIC", "MEDIC_RANGE", "install_medic", "medic_for", "saved"]

MEDIC = "Medic!"
MEDIC_RANGE = 3.0
"""The saved operative is within this distance (inches, ■) of the medic."""
DASH_END = 1.0
"""The free Dash ends within this distance (inches, ▲) of the medic."""
_USED = "kt21_kasrkin_medic_used"
_SAVED = "kt21_kasrkin_medic_saved"
_PENDING = "kt21_kasrkin_medic_pending"
_DASH = "kt21_kasrkin_medic_dash"
_DASHING = "kt21_kasrkin_medic_dashing"
_EVENT = "medic_used"
"""The event emitted when it is used (the shared Medic!'s, narrated by its template)."""
_EPS = 1e-6


def _token(w: Work, op: str, detail: str) -> Effect | None:
    return next((e for e in w.effects if e.op == op and e.detail == detail), None)


def saved(w: Work, op: str) -> bool:
    """Medic! saved ``op`` this turning point."""
    return _token(w, op, _SAVED) is not None


def _used(w: Work, player: str) -> bool:
    return any(e.detail == _USED and e.player == player for e in w.effects)


def medic_for(w: Work, op: str, players: tuple[str, ...]) -> str:
    """The Combat Medic that may use Medic! on ``op`` now (module docstring), or ``""``."""
    player = w.ctx.owner.get(op, "")
    if player not in players or not is_kasrkin(w, op) or _used(w, player):
        return ""
    friend = w.op(op)
    if w.in_enemy_control_range(friend):
        return ""
    for m in w.alive(player):
        if m.id == op or not has_ability(w, m.id, MEDIC) or w.in_enemy_control_range(m):
            continue
        near = w.distance(w.place(m), w.place(friend)) <= MEDIC_RANGE + _EPS
        if near and visible(w, m, friend):
            return m.id
    return ""


def _discard_remaining_dice(w: Work, op: str) -> None:
    """The shooting attack in progress against ``op`` ends: its remaining dice are
    discarded (the frame goes on with its next target)."""
    for i in range(len(w.stack) - 1, -1, -1):
        f = w.stack[i]
        if not isinstance(f, Kt21ShootFrame):
            continue
        if f.idx < len(f.targets) and f.targets[f.idx] == op and f.stage not in ("begin", "end"):
            w.stack[i] = attrs.evolve(
                f, stage="begin", idx=f.idx + 1, dice=(), flags=(), normals=0, crits=0
            )
        return


def _chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """Medic! used (the operative saved) or declined (it is incapacitated now)."""
    op = frame.op
    w.effects = [e for e in w.effects if not (e.op == op and e.detail == _PENDING)]
    if not chosen:
        universal.incapacitate(w, op, str(frame.get("by")))
        return
    medic, player = str(frame.get("medic")), frame.player
    w.effects.append(Effect("token", "", "end_tp", detail=_USED, player=player))
    w.effects.append(Effect("token", op, "end_tp", source=medic, detail=_SAVED))
    for who in (medic, op):
        w.add_effect(Effect("apl", who, "end_next_activation", source=medic, value=-1))
    _discard_remaining_dice(w, op)
    w.effects.append(Effect("token", op, "end_tp", source=medic, detail=_DASH))
    w.emit(_EVENT, op=op, medic=medic, player=player)


on_choice(_PENDING, _chosen)


def install_medic(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Medic! (module docstring): the ``would_be_incapacitated`` hook offering it, the free
    Dash after the action, and where that Dash may end."""

    def save(w: Work, falls: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if not falls or w.ctx.owner.get(op) not in players:
            return falls
        if _token(w, op, _PENDING) is not None:
            w.set_op(op, wounds=1)  # more damage before its player chose: still undecided
            return False
        medic = medic_for(w, op, players)
        if not medic:
            return falls
        w.set_op(op, wounds=1)
        w.effects.append(Effect("token", op, "end_tp", source=medic, detail=_PENDING))
        w.defer_frame(
            RuleChoiceFrame(
                player=w.ctx.owner[op],
                rule=MEDIC,
                key=_PENDING,
                op=op,
                candidates=(),
                data=(("medic", medic), ("by", str(info.get("by", "")))),
                targeted=False,
            )
        )
        return False

    def after_action(w: Work, ev: Event) -> None:
        del ev
        dash = next((e for e in w.effects if e.detail == _DASH and e.kind == "token"), None)
        if dash is None:
            return
        w.effects.remove(dash)
        if w.op(dash.op).alive and w.op(dash.source).alive:
            w.effects.append(
                Effect("token", dash.op, "end_tp", source=dash.source, detail=_DASHING)
            )
            universal.start_free_action(w, dash.op, ("Dash",))

    def dash_ended(w: Work, ev: Event) -> None:
        del ev
        w.effects = [e for e in w.effects if e.detail != _DASHING]

    def near_medic(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        if why or not w.effects:
            return why
        token = _token(w, op, _DASHING)
        if token is None:
            return why
        x, y, z = info["point"]
        there = w.ctx.placement(op, x, y, z)
        gap = w.distance(there, w.place(w.op(token.source)))
        if gap > DASH_END + _EPS:
            return (
                f"{op}'s free Dash (Medic!) must end within {DASH_END:g}\" of {token.source} "
                f'({gap:.2f}" away)'
            )
        return why

    hooks.transform("would_be_incapacitated", save)
    hooks.on("action_ended", after_action)
    hooks.on("free_action_ended", dash_ended)
    hooks.transform("would_refuse_destination", near_medic)


register(
    "kt21_kasrkin/ability/medic",
    install_medic,
    'Once per turning point, a friendly Kasrkin within 3" that would be incapacitated stays '
    "with 1 wound, may Dash to the medic; both get APL -1.",
)
