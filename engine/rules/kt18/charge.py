"""The KT18 charge sequence (``rules/KT18.md`` 3.9-3.13).

- Eligibility (3.9): a model picked in its player's Movement-phase turn, not within 1" of
  an enemy (nor at the start of the phase), with at least one enemy within 12"; one charge
  attempt per phase (the ``charge_attempt`` token, which also bars it from shooting for the
  rest of the round).
- Step 1 (3.10): ``Charge X at T`` names a first target, then ``Also U`` adds any other
  enemy within 12" (decision ``kt18_charge_targets``) until ``Done`` (reading chosen in
  3.10: within 12" is the only condition, no visibility).
- Step 2 (3.11, 3.12): each opponent in initiative order resolves all of its Reactions
  (decision ``kt18_reaction``): each target more than 1" from every enemy may React once in
  this charge (reading chosen in 3.11: one Reaction per charge) with ``Overwatch T`` — offered
  only when the ``kt18_can_overwatch`` *would* hooks say it can (the shooting rules decide:
  weapon, range, visibility, the Assault exception after an Advance), the frame the
  ``kt18_overwatch_frame`` hooks give then resolves it — or ``Retreat T to x,y``: up to 3",
  ending further from the charger than it started and more than 1" from every other enemy,
  not after any move or charge attempt of its own this phase, nor after an Advance this
  round. ``Pass`` ends that player's Reactions. Not allowed to React at all: a model that
  Fell Back this phase, Retreated this round or is shaken (8.5); a model that attempted a
  charge cannot fire Overwatch (it cannot shoot this round). If the charger is slain, no
  further Reactions are made and the charge ends.
- Step 3 (3.13): the charge roll (2D6, ``kt18_charge``) is the distance; if the charger can
  end within 1" of a target (never within 1" of an enemy that is not a target) it must
  (decision ``kt18_charge_move``, ``Charge X to x,y``): it has charged (``charged`` token)
  and every enemy within 1" of it has been charged by it (``was_charged`` and
  ``charged_by:<charger>``: who charged whom, for the Fight phase, 7.5). Otherwise the charge
  fails: it may stay (``Pass``) or move up to the roll to the closest point to a target it
  can reach, never within 1" of an enemy (reading chosen in 3.13: the move is optional).
"""

from __future__ import annotations

import math

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.events import Event, add_template
from engine.game.flow import expect
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry.distances import distance as base_distance
from engine.rules.kt18.destinations import (
    ENEMY_RANGE,
    EndCheck,
    Spot,
    charge_end_refusal,
    closest_to_targets,
    destinations,
    find_path,
    make_move,
    plain_end_refusal,
)
from engine.rules.kt18.initiative import initiative_order
from engine.rules.kt18.models import distance, enemies_within, is_shaken, within
from engine.rules.kt18.terrain_play import after_move
from engine.rules.kt18.tokens import add_token, charged_by, has

__all__ = [
    "CHARGE_RANGE",
    "RETREAT_DISTANCE",
    "ChargeFrame",
    "charge_refusal",
    "overwatch_refusal",
    "retreat_refusal",
]

CHARGE_RANGE = 12.0
"""Inches: a charge target is within this of the charger (3.9, 3.10)."""

RETREAT_DISTANCE = 3.0
"""Inches: a Retreat moves up to this (3.12)."""


def charge_refusal(w: Work, o: OperativeState) -> str | None:
    """Why ``o`` (otherwise free to move) may not declare a charge (3.9), or ``None``."""
    if not enemies_within(w, o, CHARGE_RANGE):
        return f'no enemy model is within 12" of {o.id} (rules/KT18.md 3.9)'
    return None


def _react_refusal(
    w: Work, o: OperativeState, charger: str, targets: tuple[str, ...]
) -> str | None:
    if o.id not in targets:
        return f"{o.id} is not a target of {charger}'s charge (rules/KT18.md 3.11)"
    if not o.alive:
        return f"{o.id} is not on the battlefield"
    if is_shaken(w, o.id):
        return f"{o.id} is shaken and can do nothing (rules/KT18.md 8.5)"
    if enemies_within(w, o, ENEMY_RANGE):
        return f'{o.id} is within 1" of an enemy model: it cannot React (rules/KT18.md 3.11)'
    if has(o, "fell_back"):
        return f"{o.id} Fell Back this phase: it cannot React (rules/KT18.md 3.6)"
    if has(o, "retreated"):
        return f"{o.id} Retreated this battle round: it cannot React (rules/KT18.md 3.12)"
    return None


def overwatch_refusal(
    w: Work, o: OperativeState, charger: str, targets: tuple[str, ...]
) -> str | None:
    """Why the target ``o`` may not React to ``charger``'s charge with Overwatch (3.11), or
    ``None``: :func:`_react_refusal`, a charge attempt of its own (no shooting this round,
    3.9), or the ``kt18_can_overwatch`` hooks saying it cannot shoot at the charger."""
    why = _react_refusal(w, o, charger, targets)
    if why is not None:
        return why
    if has(o, "charge_attempt"):
        return f"{o.id} attempted a charge: it cannot shoot this battle round (rules/KT18.md 3.9)"
    if not w.would("kt18_can_overwatch", False, shooter=o.id, charger=charger):
        return f"{o.id} has no Overwatch it can fire at {charger} (rules/KT18.md 3.11)"
    return None


def retreat_refusal(
    w: Work, o: OperativeState, charger: str, targets: tuple[str, ...]
) -> str | None:
    """Why the target ``o`` may not Retreat from ``charger``'s charge (3.12), or ``None``:
    it moved, Fell Back or attempted a charge this phase, Advanced this round, or arrived as
    reinforcements this round (3.16 reading (b): no further move that round)."""
    why = _react_refusal(w, o, charger, targets)
    if why is not None:
        return why
    for token, what, rule in (
        ("moved", "moved this phase", "3.12"),
        ("fell_back", "Fell Back this phase", "3.12"),
        ("charge_attempt", "attempted a charge this phase", "3.12"),
        ("advanced", "Advanced this battle round", "3.12, 3.7"),
        ("reinforced", "arrived as reinforcements this battle round", "3.12, 3.16"),
    ):
        if has(o, token):
            return f"{o.id} {what}: it cannot Retreat (rules/KT18.md {rule})"
    return None


def _retreat_end(w: Work, o: OperativeState, charger: str) -> EndCheck:
    """Where a Retreat of ``o`` from ``charger`` may end (3.12)."""
    start = distance(w, o, w.op(charger))
    others = [e for e in w.enemies_of(o.id) if e.id != charger]

    def end_ok(end: Placement) -> str | None:
        if base_distance(end, w.place(w.op(charger))) <= start + 1e-6:
            return f"a Retreat ends further from the charger {charger} than it started"
        for e in others:
            if base_distance(end, w.place(e)) <= ENEMY_RANGE + 1e-6:
                return f'a Retreat ends more than 1" from every other enemy ({e.id})'
        return None

    return end_ok


@attrs.frozen(slots=True)
class ChargeFrame:
    """One charge sequence (module docstring).

    Attributes:
        player: the charger's player. op: the charger. targets: its targets so far.
        stage: ``"targets"``, ``"react"``, ``"roll"``, ``"move"``.
        reacting: how many opponents have finished their Reactions.
        reacted: the targets that have Reacted in this charge.
        roll: the charge roll (inches), once made.
    """

    player: str
    op: str
    targets: tuple[str, ...]
    stage: str = "targets"
    reacting: int = 0
    reacted: tuple[str, ...] = ()
    roll: int = 0

    @classmethod
    def declare(cls, w: Work, o: OperativeState, target: str) -> None:
        """Declare ``o``'s charge at its first ``target`` (3.10) and push the sequence.

        Raises:
            IllegalActionError: ``target`` is not an enemy model within 12"."""
        why = cls._target_refusal(w, o, target, ())
        if why is not None:
            raise IllegalActionError(why)
        add_token(w, o.id, "charge_attempt")
        w.stack.append(cls(w.ctx.owner[o.id], o.id, (target,)))

    @staticmethod
    def _target_refusal(
        w: Work, o: OperativeState, target: str, chosen: tuple[str, ...]
    ) -> str | None:
        if target not in w.ctx.index or w.ctx.owner[target] == w.ctx.owner[o.id]:
            return f"{target or 'that'} is not an enemy model (rules/KT18.md 3.10)"
        t = w.op(target)
        if not t.alive:
            return f"{target} is not on the battlefield (rules/KT18.md 3.10)"
        if target in chosen:
            return f"{target} is already a target of this charge"
        if not within(w, o, t, CHARGE_RANGE):
            return f'{target} is not within 12" of {o.id} (rules/KT18.md 3.10)'
        return None

    def _opponents(self, w: Work) -> tuple[str, ...]:
        return tuple(p for p in initiative_order(w) if p != self.player)

    def _reactor(self, w: Work) -> str:
        opponents = self._opponents(w)
        return opponents[self.reacting] if self.reacting < len(opponents) else ""

    def run(self, w: Work) -> None:
        """Ask for the next step's choice, or roll the charge (module docstring)."""
        charger = w.op(self.op)
        if self.stage == "targets":
            if any(a.verb == "Also" for a in self.options(w)):
                w.decide(self.player, "kt18_charge_targets")
            else:
                self._declared(w)
            return
        if not charger.alive:  # slain by Overwatch: the charge ends (3.11)
            w.stack.pop()
            w.emit("kt18_charge_ended", op=self.op, success=False, charged=())
            return
        if self.stage == "react":
            player = self._reactor(w)
            if not player:
                w.replace_top(stage="roll")
            elif any(a.verb != "Pass" for a in self.options(w)):
                w.decide(player, "kt18_reaction")
            else:
                w.replace_top(reacting=self.reacting + 1)
            return
        if self.stage == "roll":
            w.roll("kt18_charge", self.player, 2, label=f"charge roll ({self.op})")
            return
        if any(a.verb != "Pass" for a in self.options(w)):
            w.decide(self.player, "kt18_charge_move")
        else:
            self._finish(w, success=False)

    def _declared(self, w: Work) -> None:
        w.emit("kt18_charge_declared", op=self.op, targets=self.targets)
        w.replace_top(stage="react")

    def _success_spots(self, w: Work) -> list[tuple[Spot, float]]:
        o = w.op(self.op)
        me = w.place(o)
        extra: list[Spot] = []
        for t in self.targets:
            tp = w.place(w.op(t))
            if not w.op(t).alive:
                continue
            ring = tp.radius + me.radius + 0.3
            ang0 = math.atan2(me.y - tp.y, me.x - tp.x)
            for k in (0, 1, -1):
                ang = ang0 + k * math.pi / 4
                extra.append(
                    (
                        round(tp.x + ring * math.cos(ang), 3),
                        round(tp.y + ring * math.sin(ang), 3),
                        tp.elevation,
                    )
                )
        targets = self.targets
        return destinations(
            w,
            o,
            "charge",
            float(self.roll),
            lambda e: charge_end_refusal(w, o, targets, e),
            extra,
            targets,
        )

    def options(self, w: Work) -> list[Action]:
        """The choices of the step under way (module docstring)."""
        o = w.op(self.op)
        if self.stage == "targets":
            more = [
                Action("Also", target=e.id)
                for e in enemies_within(w, o, CHARGE_RANGE)
                if e.id not in self.targets
            ]
            return [*more, Action("Done")]
        if self.stage == "react":
            out = [Action("Pass")]
            player = self._reactor(w)
            for t in self.targets:
                if t in self.reacted or w.ctx.owner[t] != player:
                    continue
                r = w.op(t)
                if overwatch_refusal(w, r, self.op, self.targets) is None:
                    out.append(Action("Overwatch", op=t))
                if retreat_refusal(w, r, self.op, self.targets) is None:
                    end_ok = _retreat_end(w, r, self.op)
                    out += [
                        Action("Retreat", op=t, point=spot)
                        for spot, _ in destinations(w, r, "retreat", RETREAT_DISTANCE, end_ok)
                    ]
            return out
        if self.stage == "move":
            spots = self._success_spots(w)
            if spots:
                return [Action("Charge", op=self.op, point=s) for s, _ in spots]
            closest = closest_to_targets(w, o, self.targets, float(self.roll))
            return [Action("Pass"), *(Action("Charge", op=self.op, point=s) for s, _, _ in closest)]
        return []

    def act(self, w: Work, a: Action) -> None:
        """Apply the choice of the step under way (module docstring).

        Raises:
            IllegalActionError: a choice the rules forbid now (the message names the rule)."""
        if self.stage == "targets":
            self._act_targets(w, a)
        elif self.stage == "react":
            self._act_react(w, a)
        else:
            self._act_move(w, a)

    def _act_targets(self, w: Work, a: Action) -> None:
        expect(a, ("Also", "Done"), "the targets of the charge (rules/KT18.md 3.10)")
        if a.verb == "Done":
            self._declared(w)
            return
        why = self._target_refusal(w, w.op(self.op), a.target, self.targets)
        if why is not None:
            raise IllegalActionError(why)
        w.replace_top(targets=(*self.targets, a.target))

    def _act_react(self, w: Work, a: Action) -> None:
        expect(a, ("Overwatch", "Retreat", "Pass"), "a Reaction (rules/KT18.md 3.11)")
        player = self._reactor(w)
        if a.verb == "Pass":
            w.replace_top(reacting=self.reacting + 1)
            return
        if a.op not in w.ctx.index or w.ctx.owner[a.op] != player:
            raise IllegalActionError(
                f"{a.op} is not a model of player {player}, who is Reacting (rules/KT18.md 3.11)"
            )
        if a.op in self.reacted:
            raise IllegalActionError(
                f"{a.op} has already Reacted to this charge: one Reaction each (rules/KT18.md 3.11)"
            )
        r = w.op(a.op)
        if a.verb == "Overwatch":
            if a.weapon or a.target:
                raise IllegalActionError(
                    f"Overwatch is chosen as 'Overwatch {a.op}' (rules/KT18.md 3.11)"
                )
            why = overwatch_refusal(w, r, self.op, self.targets)
            if why is not None:
                raise IllegalActionError(why)
            w.replace_top(reacted=(*self.reacted, a.op))
            add_token(w, a.op, "overwatch")
            w.emit("kt18_reaction", op=a.op, charger=self.op, reaction="overwatch")
            frame = w.would("kt18_overwatch_frame", None, shooter=a.op, charger=self.op)
            if frame is not None:
                w.stack.append(frame)
            return
        why = retreat_refusal(w, r, self.op, self.targets)
        if why is not None:
            raise IllegalActionError(why)
        if a.point is None:
            raise IllegalActionError(f"a Retreat names where it ends: 'Retreat {a.op} to x,y'")
        end_ok = _retreat_end(w, r, self.op)
        end, cost = find_path(
            w, r, "retreat", RETREAT_DISTANCE, a.point, end_ok, "rules/KT18.md 3.12"
        )
        w.replace_top(reacted=(*self.reacted, a.op))
        start = w.place(r)
        make_move(w, r, "retreat", end, cost)
        add_token(w, a.op, "retreated")
        w.emit("kt18_reaction", op=a.op, charger=self.op, reaction="retreat")
        after_move(w, a.op, start)  # rules/KT18.md 10.4

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """The charge roll: 2D6 inches (3.13)."""
        roll = sum(values)
        w.emit("dice_rolled", player=self.player, label=f"charge roll ({self.op})", values=values)
        w.emit("kt18_charge_roll", op=self.op, roll=roll, values=values)
        w.replace_top(stage="move", roll=roll)

    def _act_move(self, w: Work, a: Action) -> None:
        expect(a, ("Charge", "Pass"), "the charge move (rules/KT18.md 3.13)")
        o = w.op(self.op)
        success = bool(self._success_spots(w))
        if a.verb == "Pass":
            if success:
                raise IllegalActionError(
                    f'{self.op} can end within 1" of a target with its charge roll of '
                    f"{self.roll}: it makes its charge move (rules/KT18.md 3.13)"
                )
            self._finish(w, success=False)
            return
        if a.op != self.op or a.point is None:
            raise IllegalActionError(f"the charge move is '{self.op}''s: 'Charge {self.op} to x,y'")
        targets = self.targets
        if success:
            end, cost = find_path(
                w,
                o,
                "charge",
                float(self.roll),
                a.point,
                lambda e: charge_end_refusal(w, o, targets, e),
                "rules/KT18.md 3.13",
                targets,
            )
        else:
            closest = closest_to_targets(w, o, targets, float(self.roll))
            if not closest:
                raise IllegalActionError(
                    f"{self.op}'s charge failed and no move brings it closer to a target without "
                    'coming within 1" of an enemy: it stays (rules/KT18.md 3.13)'
                )
            best = closest[0][2]
            end, cost = find_path(
                w,
                o,
                "failed_charge",
                float(self.roll),
                a.point,
                lambda e: plain_end_refusal(w, o, e),
                "rules/KT18.md 3.13",
            )
            near = min(base_distance(end, w.place(w.op(t))) for t in targets)
            if near > best + 0.01:
                raise IllegalActionError(
                    f"a failed charge's move ends as close as possible to a target: {near:.2f}\" "
                    f'here, {best:.2f}" is reachable (rules/KT18.md 3.13)'
                )
        start = w.place(o)
        make_move(w, o, "charge" if success else "failed_charge", end, cost)
        self._finish(w, success=success)
        after_move(w, o.id, start)  # rules/KT18.md 10.4

    def _finish(self, w: Work, *, success: bool) -> None:
        w.stack.pop()
        charged: tuple[str, ...] = ()
        if success:
            o = w.op(self.op)
            add_token(w, self.op, "charged")
            charged = tuple(e.id for e in enemies_within(w, o, ENEMY_RANGE))
            for e in charged:
                add_token(w, e, "was_charged")
                add_token(w, e, charged_by(self.op))
        w.emit("kt18_charge_ended", op=self.op, success=success, charged=charged)


def _declared_text(e: Event) -> str:
    return f"{e['op']} declares a charge at {', '.join(e['targets'])}"


def _ended_text(e: Event) -> str:
    if e["success"]:
        return f"{e['op']} charged {', '.join(e['charged'])}"
    return f"{e['op']}'s charge failed"


def _reaction_text(e: Event) -> str:
    how = "fires Overwatch at" if e["reaction"] == "overwatch" else "Retreats from"
    return f"{e['op']} {how} {e['charger']}"


add_template("kt18_charge_declared", _declared_text)
add_template("kt18_charge_ended", _ended_text)
add_template("kt18_reaction", _reaction_text)
add_template("kt18_charge_roll", lambda e: f'{e["op"]} charge roll: {e["roll"]}"')
