"""The KT21 Kasrkin's operative abilities the engine plays (``rules/KT21.md`` 4.1, 10.2):

- **Camo Cloak** (Sharpshooter): when it is shot while in Cover, one more defence die may be
  retained unrolled as a normal save for Cover (two instead of one; never more than its
  defence dice after AP), through the KT21 shooting attack's
  ``would_retain_both_cover_saves`` hook.
"""

from __future__ import annotations

from typing import Any

from engine.game.context import Hooks
from engine.game.work import Work
from engine.rules.registry import register
from teams.kt21_kasrkin.common import has_ability, owned_by

__all__ = ["install_camo_cloak"]


def install_camo_cloak(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Camo Cloak (module docstring)."""

    def both(w: Work, value: bool, *, target: str, **_: Any) -> bool:
        if value or not owned_by(w, target, players):
            return value
        return has_ability(w, target, "Camo Cloak")

    hooks.transform("would_retain_both_cover_saves", both)


register(
    "kt21_kasrkin/ability/camo_cloak",
    install_camo_cloak,
    "Shot while in Cover, it retains one more defence die as a cover save.",
)
