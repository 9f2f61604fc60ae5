"""The KT18 Psychic phase (``rules/KT18.md`` 4, 6.13, 8.5): the ``"psychic"`` phase step.

:class:`PsychicPhaseFrame`, one frame for the whole phase (what the phase keeps, the deny
tests each psyker has taken, lives in its fields):

1. At its start, each psyker on the battlefield that knows powers the engine does not play
   is reported (``kt18_powers_not_played``; they are never offered, 4.2).
2. In initiative order (2.2) each player with a psyker that may act (on the battlefield, not
   shaken (8.5), a manifest count above 0, a power the engine plays) chooses it and the first
   power it attempts (``Act KT18-1 psybolt``, decision ``kt18_psyker``) or declines
   (``Pass``): one psyker per player per battle round (4.1). A player with none is not asked.
3. Each attempt (4.1): the power, never one this psyker already attempted this round (4.2);
   the **Psychic test**, 2D6 (chance ``kt18_psychic_test``), manifested on a total at least
   the warp charge (4.4); a double 1 or double 6 is **Perils of the Warp**: D3 mortal wounds
   to the psyker, rolled, with the Injury roll they may cause, by its controller (6.9
   reading; :func:`~engine.rules.kt18.wounds.push_mortal_wounds`). If that takes the psyker
   out of action (4.4 reading (b): the Injury roll's result, not 0 wounds) the power fails
   and every other model on the battlefield within 3" of it suffers D3 mortal wounds, rolled
   separately for each, by its controller (in the battle's order of models).
4. A manifested power may be denied (4.5): the opponent picks one of its psykers within 24"
   of the manifesting psyker (on the battlefield, not shaken, with a deny left this phase)
   to test (``Act KT18-2 deny the witch``, decision ``kt18_deny``) or passes; at most one
   test per power; 2D6 (chance ``kt18_deny_test``) strictly above the Psychic test's total
   denies it.
5. Then the power takes effect (4.6): Psybolt
   (:func:`~engine.rules.kt18.psychic_powers.strike_with_psybolt`, 4.3); equally closest
   targets are the psyker's player's choice (``Act KT18-1 psybolt on KT18-5``, decision
   ``kt18_psybolt_target``).
6. With attempts left and a power it has not attempted, the psyker attempts another
   (``Act KT18-1 <power>``, decision ``kt18_psychic_power``) or stops (``Done``); its
   player's turn ends when it stops, has no attempt left or is out of action.

A psyker that attempts a power or takes a Deny the Witch test gets the round's ``"psychic"``
token (:mod:`~engine.rules.kt18.tokens`).
"""

from __future__ import annotations

import attrs

from engine.dice.kt18_values import RandomValue
from engine.game.actions import Action, IllegalActionError
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.rules.kt18 import psychic_narration
from engine.rules.kt18.initiative import initiative_order
from engine.rules.kt18.models import distance, is_shaken, within
from engine.rules.kt18.psychic_powers import (
    DENY_RANGE,
    PSYBOLT,
    canonical_power,
    is_psyker,
    played_powers,
    power_key,
    psybolt_targets,
    psyker_counts,
    strike_with_psybolt,
    unplayed_powers,
    warp_charge,
)
from engine.rules.kt18.tokens import add_token
from engine.rules.kt18.wounds import push_mortal_wounds

__all__ = [
    "BLAST_RANGE",
    "DENY",
    "PERILS",
    "PsychicPhaseFrame",
    "is_perils",
    "may_manifest",
    "psychic_step",
]

BLAST_RANGE = 3.0
"""Inches: the models this close to a psyker Perils took out of action suffer D3 mortal
wounds (4.4)."""
DENY = "deny the witch"
"""The text of a Deny the Witch choice (``Act KT18-2 deny the witch``, 4.5)."""
PERILS = "Perils of the Warp"
"""The source named on the mortal wounds of Perils and of its blast (4.4)."""
_D3 = RandomValue(dice=1, sides=3)
_NARRATION = psychic_narration


def is_perils(values: tuple[int, ...]) -> bool:
    """Whether a Psychic test's two dice are a double 1 or a double 6 (``rules/KT18.md``
    4.4)."""
    return len(values) == 2 and values[0] == values[1] and values[0] in (1, 6)


def _illegal(a: Action, why: str) -> IllegalActionError:
    return IllegalActionError(f"{a} is not possible now: {why}")


def may_manifest(w: Work, o: OperativeState) -> bool:
    """Whether ``o`` may be chosen as its player's psyker now (``rules/KT18.md`` 4.1, 8.5):
    a psyker on the battlefield, not shaken, allowed at least one power, knowing one the
    engine plays."""
    return (
        o.alive
        and is_psyker(w, o.id)
        and not is_shaken(w, o.id)
        and psyker_counts(w, o.id)[0] > 0
        and bool(played_powers(w, o.id))
    )


@attrs.frozen(slots=True)
class PsychicPhaseFrame:
    """The Psychic phase in progress (module docstring).

    Attributes:
        turn: the index in initiative order of the player choosing (0, 1; 2: the phase ends).
        started: the unplayed powers have been reported.
        psyker: the model chosen by the current player (``""`` before it chooses).
        left: the attempts the psyker has left this phase.
        tried: the powers it attempted this round (4.2).
        denies: ``(model, count)``: the Deny the Witch tests each model took this phase.
        stage: ``"choose"`` (the next psyker or power), ``"test"`` (the Psychic test),
            ``"perils"`` (Perils' mortal wounds done), ``"deny"``, ``"deny_roll"``,
            ``"resolve"``.
        power: the power being attempted. total: its Psychic test's total.
        success: the test's total reached the warp charge. denier: the model denying.
    """

    turn: int = 0
    started: bool = False
    psyker: str = ""
    left: int = 0
    tried: tuple[str, ...] = ()
    denies: tuple[tuple[str, int], ...] = ()
    stage: str = "choose"
    power: str = ""
    total: int = 0
    success: bool = False
    denier: str = ""

    # -- whose turn, what may be chosen ---------------------------------------------------

    def player(self, w: Work) -> str:
        """The player whose turn it is (``"A"``/``"B"``)."""
        return initiative_order(w)[min(self.turn, 1)]

    def denies_used(self, op_id: str) -> int:
        """The Deny the Witch tests ``op_id`` took this phase."""
        return dict(self.denies).get(op_id, 0)

    def _powers_left(self, w: Work) -> list[str]:
        tried = {power_key(p) for p in self.tried}
        return [p for p in played_powers(w, self.psyker) if power_key(p) not in tried]

    def deniers(self, w: Work) -> list[str]:
        """The opponent's psykers that may deny the current power (4.5, 8.5): on the
        battlefield, within 24" of the psyker, not shaken, with a deny left this phase."""
        psyker = w.op(self.psyker)
        return [
            o.id
            for o in w.alive(other(psyker.player))
            if is_psyker(w, o.id)
            and not is_shaken(w, o.id)
            and self.denies_used(o.id) < psyker_counts(w, o.id)[1]
            and within(w, psyker, o, DENY_RANGE)
        ]

    def options(self, w: Work) -> list[Action]:
        """The choices of the decision in progress (module docstring)."""
        if self.stage == "deny":
            return [Action("Act", op=i, text=DENY) for i in self.deniers(w)] + [Action("Pass")]
        if self.stage == "resolve":
            return [
                Action("Act", op=self.psyker, text=power_key(PSYBOLT), target=t)
                for t in psybolt_targets(w, w.op(self.psyker))
            ]
        if self.psyker:
            powers = self._powers_left(w)
            return [Action("Act", op=self.psyker, text=power_key(p)) for p in powers] + [
                Action("Done")
            ]
        out = [
            Action("Act", op=o.id, text=power_key(p))
            for o in w.alive(self.player(w))
            if may_manifest(w, o)
            for p in played_powers(w, o.id)
        ]
        return [*out, Action("Pass")] if out else []

    # -- the phase -------------------------------------------------------------------------

    def run(self, w: Work) -> None:
        """Go on with the phase (module docstring)."""
        if not self.started:
            self._report_unplayed(w)
            w.replace_top(started=True)
            return
        stage = self.stage
        if stage == "choose":
            self._choose(w)
        elif stage == "test":
            w.roll(
                "kt18_psychic_test",
                self.player(w),
                2,
                label=f"Psychic test ({self.psyker}, {self.power})",
            )
        elif stage == "perils":
            self._after_perils(w)
        elif stage == "deny":
            if self.deniers(w):
                w.decide(other(self.player(w)), "kt18_deny")
            else:
                w.replace_top(stage="resolve")
        elif stage == "deny_roll":
            w.roll(
                "kt18_deny_test",
                other(self.player(w)),
                2,
                label=f"Deny the Witch ({self.denier} against {self.psyker})",
            )
        else:
            self._resolve(w)

    def _report_unplayed(self, w: Work) -> None:
        for o in w.alive():
            missing = unplayed_powers(w, o.id)
            if missing:
                w.emit("kt18_powers_not_played", op=o.id, powers=missing)

    def _choose(self, w: Work) -> None:
        if self.turn >= 2:
            w.stack.pop()
            return
        if not self.psyker:
            if self.options(w):
                w.decide(self.player(w), "kt18_psyker")
            else:
                w.replace_top(turn=self.turn + 1)
            return
        if self.left > 0 and w.op(self.psyker).alive and self._powers_left(w):
            w.decide(self.player(w), "kt18_psychic_power")
            return
        w.replace_top(turn=self.turn + 1, psyker="", left=0, tried=(), power="")

    def act(self, w: Work, a: Action) -> None:
        """Apply the player's choice (module docstring).

        Raises:
            IllegalActionError: ``a`` is not one of :meth:`options` (naming the reason and
                the rule)."""
        legal = self.options(w)
        if a not in legal:
            raise _illegal(a, self._refusal(w, a, legal))
        if self.stage == "deny":
            self._deny(w, a)
        elif self.stage == "resolve":
            w.replace_top(stage="choose")
            strike_with_psybolt(w, self.psyker, a.target, self.total)
        elif a.verb == "Pass":
            w.emit("kt18_psychic_declined", player=self.player(w))
            w.replace_top(turn=self.turn + 1)
        elif a.verb == "Done":
            w.replace_top(turn=self.turn + 1, psyker="", left=0, tried=(), power="")
        else:
            self._attempt(w, a)

    def _refusal(self, w: Work, a: Action, legal: list[Action]) -> str:
        """Why ``a`` is refused (it is not among ``legal``)."""
        choices = ", ".join(str(x) for x in legal) or "nothing"
        if a.verb == "Act" and a.op and a.op not in w.ctx.index:
            return f"there is no model {a.op} (choose one of {choices})"
        if a.verb == "Act" and a.op and self.stage == "choose":
            o = w.op(a.op)
            power = power_key(a.text)
            if not is_psyker(w, o.id):
                return f"{o.id} is not a PSYKER (rules/KT18.md 4.1)"
            if o.player != self.player(w):
                return f"it is player {self.player(w)}'s turn to choose a psyker (4.1)"
            if self.psyker and o.id != self.psyker:
                return f"{self.psyker} is this player's psyker this round (rules/KT18.md 4.1)"
            if is_shaken(w, o.id):
                return f"{o.id} is shaken and can do nothing (rules/KT18.md 8.5)"
            if power in {power_key(p) for p in self.tried}:
                return f"{o.id} already attempted {canonical_power(a.text)} this round (4.2)"
            if power in {power_key(p) for p in unplayed_powers(w, o.id)}:
                return (
                    f"the engine does not play the power {canonical_power(a.text)!r} "
                    "(reported at the start of the phase)"
                )
            if power not in {power_key(p) for p in played_powers(w, o.id)}:
                return f"{o.id} does not know the power {a.text!r} (rules/KT18.md 4.2)"
        if a.verb == "Act" and a.op and self.stage == "deny" and a.op in w.ctx.index:
            o = w.op(a.op)
            if is_psyker(w, o.id) and o.alive and not is_shaken(w, o.id):
                if self.denies_used(o.id) >= psyker_counts(w, o.id)[1]:
                    return f"{o.id} has no Deny the Witch test left this phase (4.5)"
                if not within(w, w.op(self.psyker), o, DENY_RANGE):
                    return f'{o.id} is not within 24" of {self.psyker} (rules/KT18.md 4.5)'
        return f"choose one of {choices} (rules/KT18.md 4.1-4.6)"

    def _attempt(self, w: Work, a: Action) -> None:
        """``a`` = ``Act <psyker> <power>``: the psyker (chosen now, 4.1) attempts it."""
        left = self.left
        if not self.psyker:
            left = psyker_counts(w, a.op)[0]
            w.emit("kt18_psyker_chosen", op=a.op, player=self.player(w))
        add_token(w, a.op, "psychic")
        power = next(p for p in played_powers(w, a.op) if power_key(p) == a.text)
        w.replace_top(
            psyker=a.op,
            left=left - 1,
            tried=(*self.tried, power),
            power=power,
            stage="test",
            total=0,
            success=False,
            denier="",
        )

    def _deny(self, w: Work, a: Action) -> None:
        if a.verb == "Pass":
            w.replace_top(stage="resolve")
            return
        add_token(w, a.op, "psychic")
        counts = dict(self.denies)
        counts[a.op] = counts.get(a.op, 0) + 1
        w.replace_top(stage="deny_roll", denier=a.op, denies=tuple(sorted(counts.items())))

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """The Psychic test (4.4) or the Deny the Witch test (4.5) was rolled."""
        total = sum(values)
        if self.stage == "deny_roll":
            denied = total > self.total
            w.emit(
                "kt18_deny_test",
                op=self.denier,
                psyker=self.psyker,
                dice=tuple(values),
                total=total,
                needed=self.total,
                denied=denied,
            )
            if denied:
                w.emit("kt18_power_failed", op=self.psyker, power=self.power, why="denied")
                w.replace_top(stage="choose")
            else:
                w.replace_top(stage="resolve")
            return
        charge = warp_charge(self.power)
        perils = is_perils(values)
        success = total >= charge
        w.emit(
            "kt18_psychic_test",
            op=self.psyker,
            power=self.power,
            dice=tuple(values),
            total=total,
            warp_charge=charge,
            success=success,
            perils=perils,
        )
        w.replace_top(total=total, success=success, stage="perils" if perils else "choose")
        if perils:
            w.emit("kt18_perils", op=self.psyker)
            psyker = w.op(self.psyker)
            push_mortal_wounds(w, psyker.id, _D3, roller=psyker.player, source=PERILS)
        elif success:
            w.replace_top(stage="deny")
        else:
            w.emit("kt18_power_failed", op=self.psyker, power=self.power, why="test")

    def _after_perils(self, w: Work) -> None:
        """Perils' mortal wounds are done: the blast when they took the psyker out of action
        (4.4 reading (b)), else the power goes on (a double 6 still manifests)."""
        psyker = w.op(self.psyker)
        if psyker.incapacitated:
            targets = [
                o
                for o in w.alive()
                if o.id != psyker.id and distance(w, psyker, o) <= BLAST_RANGE + 1e-6
            ]
            w.emit("kt18_power_failed", op=psyker.id, power=self.power, why="perils")
            w.emit("kt18_perils_blast", op=psyker.id, targets=tuple(o.id for o in targets))
            w.replace_top(stage="choose")
            for o in reversed(targets):  # pushed last-first: they are resolved in order
                push_mortal_wounds(w, o.id, _D3, roller=o.player, source=PERILS, by=psyker.id)
            return
        if self.success:
            w.replace_top(stage="deny")
        else:
            w.emit("kt18_power_failed", op=psyker.id, power=self.power, why="test")
            w.replace_top(stage="choose")

    def _resolve(self, w: Work) -> None:
        """The power takes effect (4.6): Psybolt (4.3), its target chosen on a tie."""
        w.emit("kt18_power_manifested", op=self.psyker, power=self.power)
        targets = psybolt_targets(w, w.op(self.psyker))
        if len(targets) > 1:
            w.decide(self.player(w), "kt18_psybolt_target")
            return
        w.replace_top(stage="choose")
        strike_with_psybolt(w, self.psyker, targets[0] if targets else "", self.total)


def psychic_step(w: Work) -> PsychicPhaseFrame:
    """The Psychic phase's frame (the ``"psychic"`` phase step, ``rules/KT18.md`` 4.1)."""
    del w
    return PsychicPhaseFrame()
