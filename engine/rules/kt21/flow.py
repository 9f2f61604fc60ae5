"""The KT21 battle flow (``rules/KT21.md`` 1, 2, 3, 5, 14), installed as one rule module: the
set-up (:mod:`engine.rules.kt21.setup`, the ruleset's first frame), the turning points
(:mod:`engine.rules.kt21.turning_point`), the Firefight phase
(:mod:`engine.rules.kt21.firefight`), the ploys (:mod:`engine.rules.kt21.ploys`) and the
frames of scripted positions (:mod:`engine.rules.kt21.positions`)."""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.rules.kt21 import ploys
from engine.rules.kt21.positions import position_frames
from engine.rules.kt21.setup import SetupFrame

__all__ = ["SetupFrame", "install"]


def _roles_text(e: Event) -> str:
    return f"{e['defender']} is the Defender, {e['attacker']} the Attacker"


add_template("roles_decided", _roles_text)


def install(hooks: Hooks) -> None:
    """Add the KT21 flow's rules to a battle's ``hooks``: Command Re-roll (14) and the KT21
    frames of scripted positions (the ``position_frames`` hook)."""
    ploys.install(hooks)
    hooks.transform("position_frames", position_frames)
