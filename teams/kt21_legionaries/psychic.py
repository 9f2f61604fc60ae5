"""The KT21 Legionary Balefire Acolyte's **Manifest Psychic Power** (``rules/KT21.md`` 6.2
psychic actions, 10.1, 12; DC 16.33):

Manifest Psychic Power (1AP, a psychic action, not within Engagement Range of an enemy
operative) resolves one of the Acolyte's psychic powers, once per activation:

- **Fireblast** and **Life Siphon** ("perform a free Shoot action with the weapon below"): the
  Acolyte's Shoot with that weapon (1AP: the psychic action's AP, the Shoot being free) is the
  power: ``Shoot LEG-5 fireblast at <enemy>``. Their profiles print ``Psychic`` (not
  equipped, DC 16.33).
- **Malign Influence**: ``Act LEG-5 malign influence on <friend>`` selects one friendly
  LEGIONARY operative Visible to the Acolyte (itself too, DC 16.4); until the end of the
  turning point the weapons that operative is equipped with (not a psychic power's)
  gain Lethal 5+, No Cover and Brutal (the ``kt21_weapon_rules`` hook; a better Lethal it
  already has counts, 12).

"Once per activation": after one power the other two are refused in that activation (the
``would_refuse_action`` and ``would_refuse_weapon`` hooks): a psychic action is one action.
Malign Scripture (two Manifest Psychic Power actions in one activation, once per battle) is
not played (reported).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.kt21_rules import Kt21Rule, Kt21WeaponRules
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.universal import ActivationFrame
from engine.game.weapons import find_weapon
from engine.game.work import Work
from engine.rules.kt21.attack_sight import visible
from engine.rules.registry import register
from engine.rules.unique_actions import SelectingAction
from engine.teams.model import WeaponProfile
from teams.kt21_legionaries.common import is_legionary

__all__ = ["MALIGN_INFLUENCE", "MalignInfluence", "install_manifest_psychic_power"]

MANIFEST = "Manifest Psychic Power"
_INFLUENCED = "kt21 malign influence"
_PSYCHIC_SHOT = "kt21 psychic shot"
_GAINED = (Kt21Rule("Lethal", 5.0), Kt21Rule("No Cover"), Kt21Rule("Brutal"))


def _psychic(profile: Any) -> bool:
    return isinstance(profile, WeaponProfile) and profile.kt21_rules.has("Psychic")


def _own_activation(w: Work, op: str) -> bool:
    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return bool(f.op == op and f.mode == "activation")
    return False


@attrs.frozen(slots=True)
class MalignInfluence(SelectingAction):
    """Manifest Psychic Power resolving Malign Influence (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Manifest Psychic Power (Malign Influence)"
    text: str = "malign influence"
    ap: int = 1
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only an operative whose datacard has Manifest Psychic Power performs it."""
        if not any(a.name == MANIFEST for a in w.ctx.datacards[o.id].actions):
            return f"{o.id} does not have the Manifest Psychic Power action"
        return None

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """One psychic action per activation: not after a psychic power's Shoot."""
        if any(e.op == o.id and e.detail == _PSYCHIC_SHOT for e in w.effects):
            return f"{o.id} already manifested a psychic power this activation ({MANIFEST})"
        return None

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Friendly LEGIONARY operatives Visible to it (itself too)."""
        return [f.id for f in w.alive(o.player) if is_legionary(w, f.id) and visible(w, o, f)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return f"Malign Influence selects a friendly LEGIONARY operative Visible to {o.id}"

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """One already under Malign Influence this turning point gains nothing more."""
        if any(e.op == target and e.detail == _INFLUENCED for e in w.effects):
            return f"{target} is already under Malign Influence"
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The friend's weapons gain the rules until the end of the turning point."""
        w.effects.append(Effect("token", a.target, "end_tp", source=o.id, detail=_INFLUENCED))
        w.emit("team_rule_used", op=o.id, on=a.target, rule="Malign Influence")

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: a tenth of an operative for a friend still to activate."""
        return 0.1 if w.op(a.target).ready else 0.02


MALIGN_INFLUENCE = MalignInfluence()


def install_manifest_psychic_power(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Manifest Psychic Power (module docstring)."""

    def gains(w: Work, rules: Any, *, op: str, weapon: str, **_: Any) -> Any:
        if not op or not isinstance(rules, Kt21WeaponRules) or not w.effects:
            return rules
        if not any(e.op == op and e.detail == _INFLUENCED for e in w.effects):
            return rules
        if w.ctx.owner.get(op) not in players or rules.has("Psychic"):
            return rules
        return Kt21WeaponRules((*rules.rules, *_GAINED))

    def shot(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if w.ctx.owner.get(op) not in players or not _own_activation(w, op):
            return
        if _psychic(find_weapon(w, w.op(op), str(ev["weapon"]), "ranged")[2]):
            w.effects.append(
                Effect("token", op, "end_this_activation", source=op, detail=_PSYCHIC_SHOT)
            )

    def refuse(
        w: Work, refused: Any, *, op: OperativeState, weapon: str, profile: Any, **_: Any
    ) -> Any:
        if refused or not _psychic(profile) or w.ctx.owner.get(op.id) not in players:
            return refused
        if MALIGN_INFLUENCE.text in op.done and _own_activation(w, op.id):
            return f"{op.id} already manifested a psychic power this activation ({MANIFEST})"
        return refused

    hooks.action(MALIGN_INFLUENCE, players)
    hooks.transform("kt21_weapon_rules", gains)
    hooks.on("shoot_declared", shot)
    hooks.transform("would_refuse_weapon", refuse)


register(
    "kt21_legionaries/unique_action/manifest_psychic_power",
    install_manifest_psychic_power,
    "Balefire Acolyte, 1AP, once per activation: Fireblast or Life Siphon (its Shoot with "
    "them) or Malign Influence (a friend's weapons gain Lethal 5+, No Cover, Brutal).",
)
