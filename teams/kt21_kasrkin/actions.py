"""The KT21 Kasrkin's unique actions the engine plays (``rules/KT21.md`` 4.1, 6.2, 4.2):

- **Battle Comms** (Vox-Trooper, 1AP): another friendly KASRKIN operative gets APL +1 (a
  KT21 APL change: until the end of its current or next activation, the net change clamped
  to +-1 by the core, 4.2); up to twice in one activation; not within Engagement Range of an
  enemy. Notation ``Act <vox> battle comms on <friend>``. Reading: "another" friend, as the
  Vox-Trooper's own APL change could give it nothing in the activation it is performing.
- **Combat Stimms** (Combat Medic, 1AP): a friendly KASRKIN operative Visible to and within
  1" of it (itself too) regains 2D3 lost wounds; not within Engagement Range of an enemy.
  Written on the shared :class:`engine.rules.medic.Medikit` (the same 2D3 heal). Notation
  ``Act <medic> combat stimms on <friend>``. Not an operative Medic! saved this turning
  point (:func:`teams.kt21_kasrkin.medic.saved`).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.medic import Medikit, heal_2d3
from engine.rules.registry import register
from engine.rules.unique_actions import SelectingAction
from teams.kt21_kasrkin.common import is_kasrkin
from teams.kt21_kasrkin.medic import saved

__all__ = [
    "BATTLE_COMMS",
    "BATTLE_COMMS_PER_ACTIVATION",
    "COMBAT_STIMMS",
    "Kt21BattleComms",
    "install_battle_comms",
    "install_combat_stimms",
]

VOX_TROOPER = "VOX-TROOPER"
COMBAT_MEDIC = "COMBAT MEDIC"
BATTLE_COMMS_PER_ACTIVATION = 2
"""How many times a Vox-Trooper may perform Battle Comms in one activation."""


@attrs.frozen(slots=True)
class Kt21BattleComms(SelectingAction):
    """Battle Comms (module docstring; a :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Battle Comms"
    text: str = "battle comms"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Other friendly KASRKIN operatives in the killzone."""
        return [f.id for f in w.friends_of(o.id) if is_kasrkin(w, f.id)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return "Battle Comms selects another friendly KASRKIN operative in the killzone"

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only a Vox-Trooper performs it."""
        if VOX_TROOPER not in w.ctx.datacards[o.id].keywords:
            return f"{o.id} is not a Vox-Trooper: only it performs Battle Comms"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an action point for a friend still to activate this turning point
        is worth 0.15 operatives, 0.05 otherwise."""
        return 0.15 if w.op(a.target).ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """APL +1 on the selected friend (until the end of its current or next activation)."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))


BATTLE_COMMS = Kt21BattleComms()


def install_battle_comms(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Battle Comms (module docstring): the action, and its second performance in an
    activation (``would_repeat_action``; never a third)."""

    def repeat(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if allowed or info.get("action") != BATTLE_COMMS.text or info.get("mode") != "activation":
            return allowed
        if w.ctx.owner.get(op) not in players or BATTLE_COMMS.performer_problem(w, w.op(op)):
            return allowed
        done = sum(1 for d in info.get("done", ()) if d == BATTLE_COMMS.text)
        return done < BATTLE_COMMS_PER_ACTIVATION

    hooks.action(BATTLE_COMMS, players)
    hooks.transform("would_repeat_action", repeat)


_STIMMS_ROLL = "kt21_kasrkin_combat_stimms"
heal_2d3(_STIMMS_ROLL)


def _combat_medic(w: Work, op: str) -> bool:
    return COMBAT_MEDIC in w.ctx.datacards[op].keywords


COMBAT_STIMMS = Medikit(
    name="Combat Stimms",
    text="combat stimms",
    ap=1,
    roll=_STIMMS_ROLL,
    medic=_combat_medic,
    medic_name="a Combat Medic",
    patient=is_kasrkin,
    patients='a friendly KASRKIN operative Visible to and within 1"',
    saved=saved,
)
"""Combat Stimms (module docstring)."""


def install_combat_stimms(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Combat Stimms (module docstring)."""
    hooks.action(COMBAT_STIMMS, players)


register(
    "kt21_kasrkin/unique_action/battle_comms",
    install_battle_comms,
    "Vox-Trooper, 1AP, twice per activation: another friendly Kasrkin gets APL +1.",
)
register(
    "kt21_kasrkin/unique_action/combat_stimms",
    install_combat_stimms,
    'Combat Medic, 1AP: a friendly Kasrkin Visible to and within 1" regains 2D3 lost wounds.',
)
