"""The rule modules of Kill Team 2018 (``rules/KT18.md``), installed by the KT18
composition root (:mod:`engine.rulesets.kt18`; DESIGN.md "Rulesets").

KT18 plays on the shared core (state, frames, chance nodes, events, records, geometry); what
differs lives here, one module per concept:

- :mod:`~engine.rules.kt18.battle`: the battle (set-up steps, five battle rounds, the
  result, 9.6) and :mod:`~engine.rules.kt18.battle_round`: the six phases of a round (2.1);
- :mod:`~engine.rules.kt18.initiative` (2.2), :mod:`~engine.rules.kt18.movement` (3.1-3.8,
  3.16), :mod:`~engine.rules.kt18.charge` (3.9-3.13), :mod:`~engine.rules.kt18.morale` (8);
- the Shooting phase (:mod:`~engine.rules.kt18.shooting`, 5), the Fight phase
  (:mod:`~engine.rules.kt18.fight`, 7), the attack sequence (:mod:`~engine.rules.kt18.attack`,
  :mod:`~engine.rules.kt18.weapons`, 5-6), damage and Injury rolls
  (:mod:`~engine.rules.kt18.wounds`, 6.8-6.13), Overwatch (:mod:`~engine.rules.kt18.overwatch`,
  3.11) and the KT18 sight (:mod:`~engine.rules.kt18.sight`, 5.3, 6.3, 6.9, 7.6);
- the Psychic phase (:mod:`~engine.rules.kt18.psychic`, psykers and Psybolt in
  :mod:`~engine.rules.kt18.psychic_powers`, 4);
- :mod:`~engine.rules.kt18.tokens` (the tokens of a round), :mod:`~engine.rules.kt18.models`
  (distances, flesh wounds, shaken, broken), :mod:`~engine.rules.kt18.destinations` (where
  a move may end), :mod:`~engine.rules.kt18.positions` (scripted positions);
- the terrain in play (:mod:`~engine.rules.kt18.falling`, 10) and the Sector Imperialis
  environment table (:mod:`~engine.rules.kt18.environment`, 11), its Tunnels in
  :mod:`~engine.rules.kt18.tunnels`.

:func:`install` adds them to a new battle's hooks. The Psychic, Shooting and Fight phases
are the steps rule modules add (``Hooks.phase_step``).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import GameOptions, Hooks
from engine.rules.kt18.attacks_install import install_attacks
from engine.rules.kt18.battle import BattleFrame
from engine.rules.kt18.falling import install_terrain
from engine.rules.kt18.positions import position_frames
from engine.rules.kt18.psychic import psychic_step
from engine.rules.kt18.tokens import position_tokens
from engine.rules.kt18.tunnels import install_tunnels
from engine.teams.model import Roster

__all__ = ["BattleFrame", "install"]


def install(hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the KT18 core rule modules to a new battle's ``hooks`` (module docstring): the
    frames of scripted positions (the ``position_frames`` hook), the Shooting and Fight
    phases with Overwatch (:func:`~engine.rules.kt18.attacks_install.install_attacks`), the
    Psychic phase (:func:`~engine.rules.kt18.psychic.psychic_step`, 4). The
    battle's own frames
    (:class:`BattleFrame`) are the ruleset's first frame.

    Args:
        hooks: the battle's :class:`~engine.game.context.Hooks` builder.
        options: its :class:`~engine.game.context.GameOptions`.
        rosters: ``{"A": roster, "B": roster}``.
    """
    del options, rosters
    hooks.transform("position_frames", position_frames)
    hooks.transform("position_tokens", position_tokens)
    install_attacks(hooks)
    install_terrain(hooks)
    install_tunnels(hooks)  # rules/KT18.md 11.3 Tunnels
    hooks.phase_step("psychic", psychic_step)
