"""The KT18 Shooting phase (``rules/KT18.md`` 5.1-5.12) and a model's shooting (also its
Overwatch, 3.11).

:class:`ShootingPhaseFrame`: the two sections, **Ready, Fire!** (only Readied models) then
**Fire at Will** (any model that has not shot, 5.1 reading (b)); in each, in initiative order,
each player chooses a model that may shoot (``Shoot KAS-1``, decision ``kt18_choose_shooter``)
or passes (``Pass``); a pass only skips that turn (5.1 reading (b)); the section ends when both
players pass in succession. A player with no model that may shoot passes without being asked.
The model chosen gets its ``"shot"`` token (shoots at most once per phase) and shoots.

:class:`ShooterFrame`: the model fires its ranged weapons one after another (5.2, 6.1 step 4):
each time it chooses a weapon it can still fire and its initial target (``Shoot KAS-1 bolter
at LEG-2``; in an Overwatch ``Overwatch KAS-1 bolter at LEG-2``, the charger being the only
target), or stops (``Done``, once it has fired a weapon); a single possible first choice is
made without asking. The weapon's attacks are then a
:class:`~engine.rules.kt18.attack.VolleyFrame`.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.kt18.alternation import choose_model, pass_turn, run_section, whose_turn
from engine.rules.kt18.attack import VolleyFrame
from engine.rules.kt18.tokens import add_token, has
from engine.rules.kt18.weapons import (
    kt18_weapons,
    note_grenade,
    shooter_refusal,
    target_refusal,
    weapon_refusal,
)

__all__ = ["ShooterFrame", "ShootingPhaseFrame", "may_shoot", "shooting_step"]

SECTIONS = ("ready", "will")
"""Ready, Fire! then Fire at Will (5.1)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


@attrs.frozen(slots=True)
class ShooterFrame:
    """One model's shooting (module docstring).

    Attributes:
        shooter: the model. overwatch: an Overwatch at ``charger`` (3.11).
        fired: ``(weapon, type)`` of each weapon fired so far in this shooting.
    """

    shooter: str
    overwatch: bool = False
    charger: str = ""
    fired: tuple[tuple[str, str], ...] = ()

    def options(self, w: Work) -> list[Action]:
        """Each weapon it can still fire at each valid initial target, then ``Done`` once it
        has fired a weapon."""
        o = w.op(self.shooter)
        if not o.alive:
            return []
        verb = "Overwatch" if self.overwatch else "Shoot"
        out = []
        for name, wp in kt18_weapons(w, o.id, "ranged"):
            if weapon_refusal(w, o, name, wp, self.fired) is not None:
                continue
            targets = [w.op(self.charger)] if self.overwatch else w.enemies_of(o.id)
            for t in targets:
                if t.alive and target_refusal(w, o, t, wp) is None:
                    out.append(Action(verb, op=o.id, weapon=name, target=t.id))
        if out and self.fired:
            out.append(Action("Done"))
        return out

    def run(self, w: Work) -> None:
        """Ask for the next weapon; a single first choice is made at once; nothing left to
        fire ends the shooting."""
        opts = self.options(w)
        if not opts:
            w.stack.pop()
            return
        if len(opts) == 1 and not self.fired:
            self._fire(w, opts[0])
            return
        w.decide(w.ctx.owner[self.shooter], "kt18_choose_weapon")

    def act(self, w: Work, a: Action) -> None:
        """Fire the weapon ``a`` names at its initial target, or stop (``Done``).

        Raises:
            IllegalActionError: ``a`` is not a listed choice (naming the rules)."""
        legal = self.options(w)
        if a not in legal:
            raise _illegal(
                f"{a} is not possible now: choose one of {', '.join(str(x) for x in legal)} "
                "(rules/KT18.md 5.2-5.12)"
            )
        if a.verb == "Done":
            w.stack.pop()
            return
        self._fire(w, a)

    def _fire(self, w: Work, a: Action) -> None:
        o = w.op(self.shooter)
        wp = dict(kt18_weapons(w, o.id, "ranged"))[a.weapon]
        if wp.type == "Grenade":
            note_grenade(w, o.id)
        w.replace_top(fired=(*self.fired, (a.weapon, wp.type)))
        w.stack.append(VolleyFrame(o.id, a.weapon, "ranged", (a.target,), overwatch=self.overwatch))

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        """Never called: no dice here.

        Raises:
            IllegalActionError: always."""
        raise _illegal("no dice here")


def may_shoot(w: Work, o: OperativeState, section: str) -> bool:
    """``o`` may be chosen to shoot in ``section`` now (5.1, 5.2): Readied for Ready, Fire!,
    no reason against it (:func:`~engine.rules.kt18.weapons.shooter_refusal`) and a weapon
    with a valid target."""
    if section == "ready" and not has(o, "readied"):
        return False
    if shooter_refusal(w, o) is not None:
        return False
    return bool(ShooterFrame(o.id).options(w))


@attrs.frozen(slots=True)
class ShootingPhaseFrame:
    """The Shooting phase in progress (module docstring).

    Attributes:
        section: ``"ready"`` or ``"will"``. turn: 0 for the player with the initiative, 1 for
            the other. passes: passes in succession. started: the section's start is told.
    """

    section: str = "ready"
    turn: int = 0
    passes: int = 0
    started: bool = False

    def player(self, w: Work) -> str:
        """Whose turn it is."""
        return whose_turn(w, self.turn)

    def shooters(self, w: Work) -> list[str]:
        """The current player's models that may shoot in this section."""
        return [o.id for o in w.alive(self.player(w)) if may_shoot(w, o, self.section)]

    def run(self, w: Work) -> None:
        """Start a section, end it after two passes in succession, or ask the player
        (:func:`~engine.rules.kt18.alternation.run_section`)."""
        run_section(
            w,
            self,
            phase="shooting",
            sections=SECTIONS,
            can_choose=lambda: bool(self.shooters(w)),
            decision="kt18_choose_shooter",
        )

    def options(self, w: Work) -> list[Action]:
        """``Shoot <model>`` for each model that may shoot, and ``Pass``."""
        return [Action("Shoot", op=i) for i in self.shooters(w)] + [Action("Pass")]

    def act(self, w: Work, a: Action) -> None:
        """Pass, or choose the model that shoots next.

        Raises:
            IllegalActionError: not a listed choice (the reason the model may not shoot)."""
        player = self.player(w)
        if a.verb == "Pass":
            pass_turn(w, self, phase="shooting")
            return
        if a not in self.options(w):
            why = ""
            if a.verb == "Shoot" and a.op in w.ctx.index:
                o = w.op(a.op)
                if o.player != player:
                    why = f"it is player {player}'s turn to choose a model"
                else:
                    why = shooter_refusal(w, o) or (
                        f"{o.id} is not Readied (rules/KT18.md 5.1)"
                        if self.section == "ready" and not has(o, "readied")
                        else f"{o.id} has no weapon with a valid target (rules/KT18.md 5.3)"
                    )
            raise _illegal(
                f"{a} is not possible now: {why or 'choose Shoot <one of your models> or Pass'}"
                " (rules/KT18.md 5.1, 5.2)"
            )
        add_token(w, a.op, "shot")
        choose_model(w, self, a.op, phase="shooting")
        w.stack.append(ShooterFrame(a.op))

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        """Never called: no dice here.

        Raises:
            IllegalActionError: always."""
        raise _illegal("no dice here")


def shooting_step(w: Work) -> ShootingPhaseFrame:
    """The Shooting phase's frame (the ``"shooting"`` phase step, 5.1)."""
    del w
    return ShootingPhaseFrame()
