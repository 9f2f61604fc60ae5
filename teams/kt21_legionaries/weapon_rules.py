"""The KT21 Legionaries' weapon rules written with a ``*`` (``rules/KT21.md`` 4.1, 12): the
rule is the weapon's, so each installer looks at the profile's printed ``*`` rules
(``Kt21WeaponRules.team_rules``) through the KT21 core's ``kt21_weapon_rules`` and
``would_block_crit_with_normal`` hooks.

- **Vicious Blows*** (Butcher's double-handed chain axe): in a fight, the weapon has
  Ceaseless when its operative is the Attacker (it started the fight), and Relentless when
  its operative performed a Charge in this activation.
- **Daemonic Energies*** (Balefire Acolyte's fell dagger): in a fight, each critical hit
  retained in the Roll Attack Dice step inflicts 2 mortal wounds on the target: the KT21
  core's MW2, given to the weapon for its fights.
- **Parry Hook*** (Aspiring Champion's tainted chainsword): in the Resolve Successful Hits
  step, a parry with a normal hit may discard one of the opponent's critical hits.

**Siphon Life Force*** (Life Siphon): :mod:`teams.kt21_legionaries.siphon`.
"""

from __future__ import annotations

from typing import Any

from engine.dice.kt21_rules import Kt21Rule, Kt21WeaponRules
from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.registry import register
from teams.kt21_legionaries.common import fight_frame, owned_by

__all__ = [
    "DAEMONIC_ENERGIES_MW",
    "install_daemonic_energies",
    "install_parry_hook",
    "install_vicious_blows",
]

DAEMONIC_ENERGIES_MW = 2
"""Mortal wounds per retained critical hit (Daemonic Energies*)."""


def _with(rules: Kt21WeaponRules, *extra: Kt21Rule) -> Kt21WeaponRules:
    return Kt21WeaponRules((*rules.rules, *extra))


def install_vicious_blows(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Vicious Blows* (module docstring): Ceaseless for the Attacker's weapon, Relentless
    after a Charge in the activation (``rules/KT21.md`` 11, 12 Ceaseless, Relentless)."""

    def hook(w: Work, rules: Kt21WeaponRules, *, op: str, weapon: str, **_: Any) -> Any:
        del weapon
        if "Vicious Blows" not in rules.team_rules() or not owned_by(w, op, players):
            return rules
        f = fight_frame(w)
        if f is None or f.attacker != op:
            return rules  # only its own fights as the Attacker gain either rule
        extra = [Kt21Rule("Ceaseless")]
        if "Charge" in w.op(op).done:
            extra.append(Kt21Rule("Relentless"))
        return _with(rules, *extra)

    hooks.transform("kt21_weapon_rules", hook)


def install_daemonic_energies(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Daemonic Energies* (module docstring): MW2 on the weapon while it fights
    (``rules/KT21.md`` 12 MWx)."""

    def hook(w: Work, rules: Kt21WeaponRules, *, op: str, weapon: str, **_: Any) -> Any:
        del weapon
        if "Daemonic Energies" not in rules.team_rules() or not owned_by(w, op, players):
            return rules
        f = fight_frame(w)
        if f is None or op not in (f.attacker, f.defender):
            return rules
        return _with(rules, Kt21Rule("MW", float(DAEMONIC_ENERGIES_MW)))

    hooks.transform("kt21_weapon_rules", hook)


def install_parry_hook(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Parry Hook* (module docstring): a normal parry may discard a critical hit
    (``rules/KT21.md`` 11 step 4)."""

    def hook(w: Work, allowed: bool, *, op: str, target: str, **_: Any) -> bool:
        del target
        if allowed or not owned_by(w, op, players):
            return allowed
        f = fight_frame(w)
        if f is None or op not in (f.attacker, f.defender):
            return allowed
        prof, rules = f.profile(w, "a" if op == f.attacker else "d")
        del prof
        return "Parry Hook" in rules.team_rules()

    hooks.transform("would_block_crit_with_normal", hook)


register(
    "kt21_legionaries/weapon_rule/vicious_blows",
    install_vicious_blows,
    "In its fights as the Attacker the weapon has Ceaseless, and Relentless too when its "
    "operative made a Charge in this activation.",
)
register(
    "kt21_legionaries/weapon_rule/daemonic_energies",
    install_daemonic_energies,
    "In a fight, each critical hit retained with it inflicts 2 mortal wounds on the target.",
)
register(
    "kt21_legionaries/weapon_rule/parry_hook",
    install_parry_hook,
    "When its operative parries with a normal hit, it may discard a critical hit instead.",
)
