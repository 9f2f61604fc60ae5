"""The rule modules of Kill Team 2021 (``rules/KT21.md``), installed by the KT21 composition
root (:mod:`engine.rulesets.kt21`; DESIGN.md "Rulesets").

KT21 plays on the shared core (state, frames, chance nodes, events, records, geometry, the
dice core); what differs from KT24 lives here, one module per concept:

- the battle's flow: set-up, the Initiative, Strategy and Firefight phases, Group Activation,
  two activations in a row at most, Overwatch (``rules/KT21.md`` 1-3);
- the universal actions and movement (6, 7), Engagement Range, Line of Sight, Cover and
  Obscured (8), terrain traits (9);
- the shooting and fighting sequences with the KT21 dice (10, 11) and the common special and
  critical hit rules (12); ploys and Command Re-roll (14).

:func:`install` adds them to a new battle's hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game.context import GameOptions, Hooks
from engine.rules.kt21 import (
    activated_within,
    added_damage,
    as_if_fighting,
    attack_actions,
    barricades,
    catalogue,
    close_quarters,
    combat_vigour,
    equipment,
    flow,
    ignore_damage,
    marker_actions,
    parry_two,
    repeat_attack,
    wording,
)
from engine.teams.model import Roster

__all__ = ["install"]


def install(hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the KT21 core rule modules to a new battle's ``hooks`` (module docstring).

    Args:
        hooks: the battle's :class:`~engine.game.context.Hooks` builder.
        options: its :class:`~engine.game.context.GameOptions`.
        rosters: ``{"A": roster, "B": roster}``.
    """
    del options
    hooks.transform("core_universal_actions", _kt21_actions)
    flow.install(hooks)
    marker_actions.install(hooks)  # marker control within 2" of the centre (15.1)
    attack_actions.install(hooks)
    barricades.install(hooks)  # barricade tokens of scripted positions (1.2 step 7)
    equipment.install(hooks)  # faction equipment, up to 10EP (1.2 step 6)
    parry_two.install(hooks, rosters)  # a parry discards two (11 step 4, DC 16.16)
    added_damage.install(hooks, rosters)  # damage added to each attack die (DC 16.23)
    ignore_damage.install(hooks, rosters)  # x+: ignore an attack die's own damage (DC 16.23)
    activated_within.install(hooks, rosters)  # modifiers "if activated within x" (DC 16.9)
    as_if_fighting.install(hooks, rosters)  # rolls as if fighting in combat (11, DC 16.25)
    combat_vigour.install(hooks, rosters)  # a trigger on an enemy incapacitated in combat
    repeat_attack.install(hooks, rosters)  # repeating a shooting attack (10.1, DC 16.27)
    close_quarters.install(hooks)  # Close Quarters: Guard, Operate Hatch (13, DC 16.32-40)
    wording.install(hooks)  # the core's refusals say Engagement Range, cite rules/KT21.md


def _kt21_actions(_w: Any, _actions: tuple[Any, ...]) -> tuple[Any, ...]:
    """The KT21 universal actions instead of KT24's (``rules/KT21.md`` 6.1)."""
    return catalogue.ACTIONS
