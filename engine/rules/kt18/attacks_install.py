"""The KT18 attack rules installed in a battle (``rules/KT18.md`` 3.11, 5, 6, 7): the Shooting
and Fight phases' frames as the battle round's phase steps, the Overwatch hooks, and the
narration of the attack events (:mod:`engine.rules.kt18.attack_narration`, registered at
import).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.rules.kt18 import attack_narration
from engine.rules.kt18.fight import fight_step
from engine.rules.kt18.overwatch import can_overwatch, overwatch_frame
from engine.rules.kt18.shooting import shooting_step

__all__ = ["install_attacks"]

_NARRATION = attack_narration


def install_attacks(hooks: Hooks) -> None:
    """Add the KT18 attack rules to a battle's ``hooks``: the ``"shooting"`` and ``"fight"``
    phase steps (:func:`~engine.rules.kt18.shooting.shooting_step`,
    :func:`~engine.rules.kt18.fight.fight_step`; 5.1, 7.1) and the ``kt18_can_overwatch`` and
    ``kt18_overwatch_frame`` *would* hooks (3.11)."""
    hooks.phase_step("shooting", shooting_step)
    hooks.phase_step("fight", fight_step)
    hooks.transform("kt18_can_overwatch", can_overwatch)
    hooks.transform("kt18_overwatch_frame", overwatch_frame)
