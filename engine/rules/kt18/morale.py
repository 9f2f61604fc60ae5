"""The KT18 Morale phase (``rules/KT18.md`` 8.1-8.5).

Players go one after another in initiative order (8.1); each does, in order:

1. **Broken check** (8.2), unless its kill team is already broken (broken lasts the rest of
   the battle): its casualties are its models that have a flesh wound, are shaken, or are
   out of action (a model in the Tunnels counts as out of action, 11.3), each counted once,
   out of every model the kill team started with (reading chosen in 8.2: out-of-action
   models stay in the total). All of them
   casualties: broken. More than half: roll 2D6 (``kt18_broken_check``); a total above the
   highest Ld among its models neither shaken nor out of action (nor in the Tunnels):
   broken. The check is made
   in every Morale phase while the team is not broken (reading chosen in 8.2).
2. **Remove Shaken tokens** (8.3): every shaken model of the player stops being shaken.
3. **Nerve tests** (8.4): every model of the player on the battlefield with at least one
   flesh wound takes one, or every model when its kill team is broken; the player chooses
   the order (``Nerve test X``, decision ``kt18_nerve_order``, offered when two or more
   are left). One D6 (``kt18_nerve``) with +1 for each *other* friendly model shaken or
   out of action (or in the Tunnels, 11.3) and -1 for each *other* friendly model within
   2" that is not shaken, counted when that test is taken (reading chosen in 8.4: the
   models shaken by tests made earlier in this step); above Ld fails and the model becomes
   shaken (8.5); an unmodified 1 always passes (:func:`engine.dice.kt18_rolls.nerve_test_passes`).

When every player is done, every model's tokens are removed (8.1; Shaken survives: it is an
effect, not a token) and the battle round ends.
"""

from __future__ import annotations

import attrs

from engine.dice.kt18_rolls import nerve_test_passes
from engine.game.actions import Action, IllegalActionError
from engine.game.events import Event, add_template
from engine.game.flow import expect
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.work import Work
from engine.rules.kt18.initiative import push_next_turn
from engine.rules.kt18.models import (
    SHAKEN,
    flesh_wounds,
    is_broken,
    is_shaken,
    make_broken,
    make_shaken,
    profile,
    team_models,
    within,
)
from engine.rules.kt18.tokens import clear_tokens
from engine.rules.kt18.tunnels import in_tunnels

__all__ = [
    "NERVE_RANGE",
    "MoralePhaseFrame",
    "MoraleTurnFrame",
    "casualties",
    "nerve_modifier",
    "nerve_testers",
]

NERVE_RANGE = 2.0
"""Inches: friendly models within this of a model testing steady its nerve (8.4)."""


def casualties(w: Work, player: str) -> int:
    """How many of ``player``'s models count for the broken check (8.2): with a flesh wound,
    shaken or out of action (in the Tunnels counts as out of action, 11.3), each once."""
    return sum(
        1
        for o in team_models(w, player)
        if o.incapacitated
        or in_tunnels(w, o.id)  # rules/KT18.md 11.3
        or flesh_wounds(w, o.id)
        or is_shaken(w, o.id)
    )


def nerve_testers(w: Work, player: str) -> list[str]:
    """The ids of ``player``'s models that take a Nerve test (8.4): on the battlefield, with
    a flesh wound, or every one when the kill team is broken."""
    broken = is_broken(w, player)
    return [o.id for o in w.alive(player) if broken or flesh_wounds(w, o.id)]


def nerve_modifier(w: Work, op_id: str) -> int:
    """The modifier of ``op_id``'s Nerve test now (8.4): +1 for each other friendly model
    shaken or out of action (or in the Tunnels, 11.3), -1 for each other friendly model
    within 2" not shaken."""
    me = w.op(op_id)
    mod = 0
    for o in team_models(w, me.player):
        if o.id == op_id:
            continue
        if o.incapacitated or in_tunnels(w, o.id) or (o.placed and is_shaken(w, o.id)):
            mod += 1
        elif o.alive and within(w, me, o, NERVE_RANGE):
            mod -= 1
    return mod


@attrs.frozen(slots=True)
class MoralePhaseFrame(NoChoiceFrame):
    """The Morale phase (module docstring): each player's turn in initiative order, then
    every token removed.

    Attributes:
        done: how many players have had their turn.
    """

    done: int = 0

    def run(self, w: Work) -> None:
        """Push the next player's turn, or end the phase."""
        if not push_next_turn(w, self.done, MoraleTurnFrame):
            clear_tokens(w)
            w.stack.pop()


@attrs.frozen(slots=True)
class MoraleTurnFrame:
    """One player's three Morale steps (module docstring).

    Attributes:
        player: whose turn it is.
        stage: ``"broken"``, ``"shaken"`` or ``"nerve"``.
        testing: the model whose Nerve test is rolled next (``""``: none chosen yet).
        tested: the models that took their Nerve test.
    """

    player: str
    stage: str = "broken"
    testing: str = ""
    tested: tuple[str, ...] = ()

    def run(self, w: Work) -> None:
        """Advance through the steps; a roll or the order of the tests is asked for."""
        if self.stage == "broken":
            self._broken_check(w)
        elif self.stage == "shaken":
            ops = tuple(o.id for o in team_models(w, self.player) if is_shaken(w, o.id))
            w.effects = [
                e
                for e in w.effects
                if not (e.kind == SHAKEN and w.ctx.owner.get(e.op) == self.player)
            ]
            w.emit("kt18_shaken_removed", player=self.player, ops=ops)
            w.replace_top(stage="nerve")
        elif self.testing:
            w.roll("kt18_nerve", self.player, 1, label=f"Nerve test ({self.testing})")
        else:
            left = self._left(w)
            if not left:
                w.stack.pop()
            elif len(left) == 1:
                w.replace_top(testing=left[0])
            else:
                w.decide(self.player, "kt18_nerve_order")

    def _left(self, w: Work) -> list[str]:
        return [op for op in nerve_testers(w, self.player) if op not in self.tested]

    def _broken_check(self, w: Work) -> None:
        w.replace_top(stage="shaken")
        if is_broken(w, self.player):
            return
        models = len(team_models(w, self.player))
        hurt = casualties(w, self.player)
        if hurt == models:
            make_broken(w, self.player)
            w.emit(
                "kt18_broken_check",
                player=self.player,
                roll=0,
                leadership=0,
                casualties=hurt,
                models=models,
                broken=True,
            )
        elif 2 * hurt > models:
            w.replace_top(stage="broken_roll")
            w.roll("kt18_broken_check", self.player, 2, label=f"broken check ({self.player})")

    def options(self, w: Work) -> list[Action]:
        """``Nerve test X`` for each model still to test (8.4)."""
        if self.stage != "nerve" or self.testing:
            return []
        return [Action("Nerve test", op=op) for op in self._left(w)]

    def act(self, w: Work, a: Action) -> None:
        """Choose the model that takes its Nerve test next (8.4).

        Raises:
            IllegalActionError: not ``Nerve test X`` of a model that still has to test."""
        expect(a, ("Nerve test",), "the model to take its Nerve test next (rules/KT18.md 8.4)")
        left = self._left(w)
        if a.op not in left:
            raise IllegalActionError(
                f"{a.op} takes no Nerve test now: the models left to test are "
                f"{', '.join(left) or 'none'} (rules/KT18.md 8.4)"
            )
        w.replace_top(testing=a.op)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Apply the broken check's 2D6 (8.2) or a Nerve test's D6 (8.4)."""
        if self.stage == "broken_roll":
            self._broken_roll(w, values)
            return
        op = self.testing
        face = int(values[0])
        ld = profile(w, op).leadership
        mod = nerve_modifier(w, op)
        passed = nerve_test_passes(face, ld, mod)
        w.emit("dice_rolled", player=self.player, label=f"Nerve test ({op})", values=values)
        w.emit("kt18_nerve_test", op=op, roll=face, modifier=mod, leadership=ld, passed=passed)
        if not passed:
            make_shaken(w, op)
        w.replace_top(testing="", tested=(*self.tested, op))

    def _broken_roll(self, w: Work, values: tuple[int, ...]) -> None:
        total = sum(values)
        steady = [
            profile(w, o.id).leadership
            for o in team_models(w, self.player)
            if not o.incapacitated and not in_tunnels(w, o.id) and not is_shaken(w, o.id)
        ]
        ld = max(steady, default=0)
        broken = total > ld
        w.emit("dice_rolled", player=self.player, label="broken check", values=values)
        w.emit(
            "kt18_broken_check",
            player=self.player,
            roll=total,
            leadership=ld,
            casualties=casualties(w, self.player),
            models=len(team_models(w, self.player)),
            broken=broken,
        )
        if broken:
            make_broken(w, self.player)
        w.replace_top(stage="shaken")


def _check_text(e: Event) -> str:
    if not e["roll"]:
        return f"{e['player']}'s kill team is broken: every model is a casualty"
    verdict = "broken" if e["broken"] else "holds"
    return (
        f"{e['player']}'s broken check: 2D6 {e['roll']} against Ld {e['leadership']} "
        f"({e['casualties']} of {e['models']} casualties) - {verdict}"
    )


def _nerve_text(e: Event) -> str:
    verdict = "passed" if e["passed"] else "failed: shaken"
    mod = f" {e['modifier']:+d}" if e["modifier"] else ""
    return f"{e['op']} Nerve test: {e['roll']}{mod} against Ld {e['leadership']} - {verdict}"


def _steady_text(e: Event) -> str:
    ops = tuple(e["ops"])
    if not ops:
        return ""
    return f"{e['player']}'s shaken models steady themselves: {', '.join(ops)}"


add_template("kt18_broken_check", _check_text)
add_template("kt18_shaken_removed", _steady_text)
add_template("kt18_nerve_test", _nerve_text)
