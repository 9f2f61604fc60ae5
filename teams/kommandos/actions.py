"""The Kommandos' unique actions (registered by rule id in ``engine.rules.registry``).

- **Get it Dun** (Boss Nob, 1AP) and **Listen In** (Comms Boy, 1AP), both SUPPORT: another
  friendly KOMMANDO operative (not the BOMB SQUIG) visible to and within 6" of the operative
  (9" while it controls its Comms Device, 7.2) gets +1 APL until the end of its next
  activation (clamped with the other APL changes, 2.1). Not while within control range of an
  enemy operative. Notation ``Act <op> get it dun on <friend>``, ``Act <op> listen in on
  <friend>``.
- **Dakka Dash** (Dakka Boy, 1AP): a free Dash and a free Shoot, in the order the player
  chooses, the Shoot only with the dakka shoota (:class:`DakkaDashFrame`). Not while within
  control range of an enemy operative or with a Conceal order. Each free action is offered as
  the engine offers free actions (``free_action`` decisions, with ``End activation`` to
  forgo the rest); as free actions in an activation (3.1) they count as performed for the
  once-per-activation limits, and one the operative could not perform now (it already Dashed,
  Charged or Shot this activation) is not offered.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.equipment.markers import support_distance
from engine.rules.registry import register
from teams.kommandos.abilities import has_keyword, kommando

BOSS_NOB = "BOSS NOB"
COMMS_BOY = "COMMS BOY"
DAKKA_BOY = "DAKKA BOY"
SUPPORT_RANGE = 6.0
_EPS = 1e-6


# -- Get it Dun / Listen In --------------------------------------------------------------------


def apl_boost(w: Work, op: str) -> int:
    """The net APL change of ``op`` now (its ``"apl"`` effects summed, before the clamp)."""
    return sum(e.value for e in w.effects if e.kind == "apl" and e.op == op)


@attrs.frozen(slots=True)
class SupportApl:
    """A SUPPORT unique action giving another friendly KOMMANDO (not the BOMB SQUIG) visible
    to and within 6" of the operative +1 APL until the end of its next activation (module
    docstring; a :class:`engine.game.rule_actions.RuleActionLike`); ``keyword`` the
    operative that has it."""

    name: str
    text: str
    keyword: str
    ap: int = 1
    family: str = ""

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        reach = support_distance(w, o.id, SUPPORT_RANGE) + _EPS
        here = w.place(o)
        out = []
        for f in w.friends_of(o.id):
            if not kommando(w, f.id):
                continue
            there = w.place(f)
            if w.distance(here, there) <= reach and w.ctx.visible(w.kz, here, there):
                out.append(f.id)
        return out

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, self.keyword):
            return f"{o.id} is not a {self.keyword.title()}: only it performs {self.name}"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative ({self.name})"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> <text> on <friend>`` for each friend it may select."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, target=f) for f in self._targets(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target not in self._targets(w, o):
            return (
                f"{a}: {self.name} selects another friendly KOMMANDO operative (not the Bomb "
                f'Squig) visible to and within {SUPPORT_RANGE:g}" of {o.id}'
            )
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an action point for a friend is worth 0.15 operatives while it is
        still to activate this turning point, 0.05 when it must wait for the next; nothing
        when its APL is already raised (the change is clamped to +1, 2.1)."""
        if apl_boost(w, a.target) >= 1:
            return 0.0
        return 0.15 if w.op(a.target).ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """+1 APL on the selected friend until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))
        w.emit("team_rule_used", op=o.id, rule=self.name, on=a.target)


GET_IT_DUN = SupportApl("Get it Dun", "get it dun", BOSS_NOB)
LISTEN_IN = SupportApl("Listen In", "listen in", COMMS_BOY)


def install_get_it_dun(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Get it Dun (module docstring)."""
    hooks.action(GET_IT_DUN, players)


def install_listen_in(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Listen In (module docstring)."""
    hooks.action(LISTEN_IN, players)


register(
    "kommandos/unique_action/get_it_dun",
    install_get_it_dun,
    'Boss Nob (1AP, SUPPORT): another Kommando (not the Squig) visible and within 6" gets +1 '
    "APL until the end of its next activation.",
)
register(
    "kommandos/unique_action/listen_in",
    install_listen_in,
    'Comms Boy (1AP, SUPPORT): another Kommando (not the Squig) visible and within 6" gets +1 '
    "APL until the end of its next activation.",
)


# -- Dakka Dash --------------------------------------------------------------------------------

DAKKA_SHOOTA = "dakka shoota"
DASH = "Dash"
SHOOT = "Shoot"


def _can_still(o: OperativeState, verb: str) -> bool:
    """``o`` may still perform ``verb`` in its activation (once per activation; a Dash not
    after a Charge, 3.2)."""
    done = {universal.ACTION_FAMILY.get(d, d) for d in o.done}
    if verb in done:
        return False
    return not (verb == DASH and "Charge" in done)


@attrs.frozen(slots=True)
class DakkaDashFrame:
    """Dakka Dash in progress (module docstring): offers the free Dash and the free Shoot
    still ``left`` one at a time (:func:`engine.game.universal.start_free_action`), noting
    each one performed (``performed``, from the free action's ``action_ended``) among what
    the operative did in its activation."""

    op: str
    left: tuple[str, ...]
    performed: tuple[str, ...] = ()
    waiting: bool = False

    def run(self, w: Work) -> None:
        o = w.op(self.op)
        left = self.left
        if self.waiting:
            if not self.performed:  # the player forwent the rest
                left = ()
            else:
                w.set_op(o.id, done=(*o.done, *self.performed))
                left = tuple(v for v in left if v not in self.performed)
        o = w.op(self.op)
        left = tuple(v for v in left if _can_still(o, v))
        if not left or not o.alive:
            w.stack.pop()
            return
        w.replace_top(left=left, performed=(), waiting=True)
        universal.start_free_action(w, o.id, left)

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - never a decision
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - never a decision
        raise IllegalActionError("nothing to decide here (Dakka Dash)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here (Dakka Dash)")


def dakka_dashing(w: Work, op: str) -> bool:
    """``op`` is performing a free action of its Dakka Dash."""
    if len(w.stack) < 2:
        return False
    below = w.stack[-2]
    top = w.stack[-1]
    return (
        isinstance(below, DakkaDashFrame)
        and below.op == op
        and isinstance(top, universal.ActivationFrame)
        and top.mode == "free"
    )


@attrs.frozen(slots=True)
class DakkaDash:
    """Dakka Dash (Dakka Boy, 1AP; module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`). Notation ``Act <op> dakka dash``."""

    name: str = "Dakka Dash"
    text: str = "dakka dash"
    ap: int = 1
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, DAKKA_BOY):
            return f"{o.id} is not a Dakka Boy: only it performs Dakka Dash"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Dakka Dash)"
        if o.order != "engage":
            return f"{o.id} has a Conceal order (Dakka Dash)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> dakka dash`` when its conditions hold."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        if a.target or a.point is not None:
            return "Dakka Dash selects nothing: 'Act <operative> dakka dash'"
        return self._why_not(w, o)

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: the best shot it has where it stands (dice core, as an Engage
        operative; its only ranged weapon is the dakka shoota) when it may still Shoot, plus
        0.05 operatives for the free Dash when it may still Dash."""
        from engine.agents.position import best_shot_now

        value = 0.0
        if _can_still(o, SHOOT):
            value += float(best_shot_now(w, o, as_engage=True))
        if _can_still(o, DASH):
            value += 0.05
        return value

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Offer the free Dash and Shoot (:class:`DakkaDashFrame`)."""
        w.stack.append(DakkaDashFrame(op=o.id, left=(DASH, SHOOT)))


DAKKA_DASH = DakkaDash()


def install_dakka_dash(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Dakka Dash (module docstring): the action, the dakka shoota only in its free Shoot
    (``would_refuse_weapon``) and the bookkeeping of the free actions (``action_ended``)."""

    def ended(w: Work, ev: Event) -> None:
        if ev.get("mode") != "free" or not dakka_dashing(w, ev["op"]):
            return
        i = len(w.stack) - 2
        frame = w.stack[i]
        done = tuple(universal.ACTION_FAMILY.get(d, d) for d in w.op(ev["op"]).done)
        w.stack[i] = attrs.evolve(frame, performed=done)

    def weapon(w: Work, why: str | None, **info: Any) -> str | None:
        o: OperativeState = info["op"]
        if why or w.ctx.owner.get(o.id) not in players or not dakka_dashing(w, o.id):
            return why
        name = universal.primary_weapon_name(w, o, str(info["weapon"]))
        if name == DAKKA_SHOOTA:
            return why
        return f"Dakka Dash's free Shoot is made with the dakka shoota only, not {name}"

    hooks.action(DAKKA_DASH, players)
    hooks.on("action_ended", ended)
    hooks.transform("would_refuse_weapon", weapon)


register(
    "kommandos/unique_action/dakka_dash",
    install_dakka_dash,
    "Dakka Boy (1AP): a free Dash and a free Shoot with the dakka shoota, in either order.",
)
