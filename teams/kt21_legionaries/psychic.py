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
Malign Influence action's own check and the ``would_refuse_weapon`` hook): a psychic action
is one action.

**Malign Scripture** (equipment, 2EP): once per battle its carrier may perform two Manifest
Psychic Power actions in one activation: a second power is allowed (the same one again too:
the ``would_repeat_action`` hook lets Malign Influence, or a Shoot after a psychic power's
Shoot, be performed a second time; that second Shoot may only be a psychic power's); the
battle's use is taken when the second power is performed.
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
from engine.rules.kt21.equipment import carried
from engine.rules.registry import register, register_equipment_value
from engine.rules.unique_actions import SelectingAction
from engine.teams.model import WeaponProfile
from teams.kt21_legionaries.common import is_legionary

__all__ = [
    "MALIGN_INFLUENCE",
    "MalignInfluence",
    "install_malign_scripture",
    "install_manifest_psychic_power",
    "powers_allowed",
    "powers_done",
]

MANIFEST = "Manifest Psychic Power"
_INFLUENCED = "kt21 malign influence"
_PSYCHIC_SHOT = "kt21 psychic shot"
_SCRIPTURE_USED = "kt21 malign scripture used"
_SCRIPTURE_NOW = "kt21 malign scripture this activation"
SCRIPTURE = "Malign Scripture"
_GAINED = (Kt21Rule("Lethal", 5.0), Kt21Rule("No Cover"), Kt21Rule("Brutal"))


def _psychic(profile: Any) -> bool:
    return isinstance(profile, WeaponProfile) and profile.kt21_rules.has("Psychic")


def _own_activation(w: Work, op: str) -> bool:
    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame):
            return bool(f.op == op and f.mode == "activation")
    return False


def powers_done(w: Work, op: str) -> int:
    """The psychic powers ``op`` manifested in its activation in progress."""
    shots = sum(1 for e in w.effects if e.op == op and e.detail == _PSYCHIC_SHOT)
    return shots + w.op(op).done.count(MALIGN_INFLUENCE_TEXT)


def powers_allowed(w: Work, op: str) -> int:
    """How many psychic powers ``op`` may manifest in this activation: 1, or 2 while it
    carries a Malign Scripture not used yet this battle (or used in this activation)."""
    if SCRIPTURE not in carried(w, op):
        return 1
    used = any(e.op == op and e.detail == _SCRIPTURE_USED for e in w.effects)
    now = any(e.op == op and e.detail == _SCRIPTURE_NOW for e in w.effects)
    return 2 if now or not used else 1


def _note_power(w: Work, op: str) -> None:
    """A power is being manifested: when it is the second, the Scripture is used."""
    if powers_done(w, op) < 1 or powers_allowed(w, op) < 2:
        return
    if not any(e.op == op and e.detail == _SCRIPTURE_USED for e in w.effects):
        w.effects.append(Effect("token", op, "end_battle", source=op, detail=_SCRIPTURE_USED))
        w.effects.append(
            Effect("token", op, "end_this_activation", source=op, detail=_SCRIPTURE_NOW)
        )


MALIGN_INFLUENCE_TEXT = "malign influence"


@attrs.frozen(slots=True)
class MalignInfluence(SelectingAction):
    """Manifest Psychic Power resolving Malign Influence (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Manifest Psychic Power (Malign Influence)"
    text: str = MALIGN_INFLUENCE_TEXT
    ap: int = 1
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only an operative whose datacard has Manifest Psychic Power performs it."""
        if not any(a.name == MANIFEST for a in w.ctx.datacards[o.id].actions):
            return f"{o.id} does not have the Manifest Psychic Power action"
        return None

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """One psychic action per activation (two with Malign Scripture)."""
        if powers_done(w, o.id) >= powers_allowed(w, o.id):
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
        _note_power(w, o.id)
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
            _note_power(w, op)
            w.effects.append(
                Effect("token", op, "end_this_activation", source=op, detail=_PSYCHIC_SHOT)
            )

    def refuse(
        w: Work, refused: Any, *, op: OperativeState, weapon: str, profile: Any, **_: Any
    ) -> Any:
        if refused or w.ctx.owner.get(op.id) not in players or not _own_activation(w, op.id):
            return refused
        if not _psychic(profile):
            if "Shoot" in op.done:  # a second Shoot allowed by Malign Scripture: powers only
                return f"{op.id} already performed a Shoot this activation (1.5)"
            return refused
        if powers_done(w, op.id) >= powers_allowed(w, op.id):
            return f"{op.id} already manifested a psychic power this activation ({MANIFEST})"
        return refused

    hooks.action(MALIGN_INFLUENCE, players)
    hooks.transform("kt21_weapon_rules", gains)
    hooks.transform("would_repeat_action", _repeat(players))
    hooks.on("shoot_declared", shot)
    hooks.transform("would_refuse_weapon", refuse)


def _repeat(players: tuple[str, ...]) -> Any:
    """The ``would_repeat_action`` hook of Malign Scripture: a second Malign Influence, or a
    second Shoot after a psychic power's Shoot, while a second power is allowed."""

    def hook(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if allowed or info.get("mode") != "activation" or w.ctx.owner.get(op) not in players:
            return allowed
        action = info.get("action")
        if action == "Shoot":
            shots = any(e.op == op and e.detail == _PSYCHIC_SHOT for e in w.effects)
            if not shots:
                return allowed
        elif action != MALIGN_INFLUENCE_TEXT:
            return allowed
        return powers_done(w, op) < powers_allowed(w, op)

    return hook


def install_malign_scripture(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Malign Scripture (module docstring): read by the Manifest Psychic Power hooks
    (:func:`powers_allowed`); nothing else to subscribe."""
    del hooks, players


register(
    "kt21_legionaries/equipment/malign_scripture",
    install_malign_scripture,
    "Once per battle, its carrier may perform two Manifest Psychic Power actions in one "
    "activation.",
)
register_equipment_value("kt21_legionaries/equipment/malign_scripture", 0.5)

register(
    "kt21_legionaries/unique_action/manifest_psychic_power",
    install_manifest_psychic_power,
    "Balefire Acolyte, 1AP, once per activation: Fireblast or Life Siphon (its Shoot with "
    "them) or Malign Influence (a friend's weapons gain Lethal 5+, No Cover, Brutal).",
)
