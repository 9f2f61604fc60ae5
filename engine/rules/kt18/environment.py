"""The KT18 killzone rules of Sector Imperialis and its environment table
(``rules/KT18.md`` 11.1-11.3).

How a battle asks for them: the killzone's layout field ``kt18_killzone =
"sector_imperialis"`` (:attr:`engine.geometry.model.Killzone.kt18_killzone`; the game
options of every ruleset are unchanged). Then, after the battlefield is set up and before
the kill teams are (the first set-up step of a KT18 battle, before Covert War's), player A
rolls one D6 on the environment table (11.2; the engine's reading: the roller is A, whose
identity matters only for re-rolls) and the result holds for the whole battle: an
``Effect("kt18_environment", "", "end_battle", detail=<name>)`` and the
``kt18_environment`` event.

1. Deserted Habs: nothing.
2. Abandoned Munitions: once per battle round, a second model of a kill team may fire a
   Grenade weapon in a phase where another one already did (11.3 reading: per round, in one
   phase): the ``kt18_grenade_allowed`` *would* hook, the use counted per player and round.
3. Smoke in the Air: -1 to every hit roll in the Shooting phase (not Overwatch, 11.3
   reading): the ``kt18_shooting_hit_modifier`` *would* hook.
4. Traps: every level above the floor is dangerous terrain (11.3 reading (a)):
   :mod:`engine.rules.kt18.terrain_play` reads :func:`environment`.
5. Tunnels: models go down a manhole at the start of their Movement-phase turn and come
   up at the end of that turn in the next battle round (:mod:`engine.rules.kt18.tunnels`;
   the killzone field ``kt18_manholes`` places the manholes; without any, the event says
   no model can enter).
6. Hidden Cache: a campaign rule (1 Materiel to the winner); a single battle has no campaign,
   so the event reports it as having no effect.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.kt18.weapons import find_kt18_weapon, grenade_thrower

__all__ = [
    "ENVIRONMENT",
    "ENVIRONMENTS",
    "SECTOR_IMPERIALIS",
    "EnvironmentFrame",
    "environment",
    "environment_step",
    "install_environment",
]

SECTOR_IMPERIALIS = "sector_imperialis"
"""The killzone field value naming the Sector Imperialis killzone rules (11.2)."""
ENVIRONMENT = "kt18_environment"
"""The effect kind that records the battle's environment (its ``detail``)."""
ENVIRONMENTS = {
    1: "Deserted Habs",
    2: "Abandoned Munitions",
    3: "Smoke in the Air",
    4: "Traps",
    5: "Tunnels",
    6: "Hidden Cache",
}
"""The environment table by D6 result (11.3)."""
_NOTES = {
    "Deserted Habs": "no effect",
    "Abandoned Munitions": "one more model per kill team may fire a Grenade weapon each round",
    "Smoke in the Air": "-1 to every hit roll in the Shooting phase",
    "Traps": "every upper floor is dangerous terrain",
    "Tunnels": 'a model within 1" of a manhole may go down at the start of its Movement-phase '
    "turn and come up at the end of that turn in the next battle round",
    "Hidden Cache": "a campaign rule: no effect in a single battle",
}

_NO_MANHOLES = "the killzone has no manholes (kt18_manholes): no model can enter the tunnels"


def environment(w: Work) -> str:
    """The battle's environment (a name of :data:`ENVIRONMENTS`), ``""`` when none was rolled
    (``rules/KT18.md`` 11.2)."""
    for e in w.effects:
        if e.kind == ENVIRONMENT:
            return e.detail
    return ""


def set_environment(w: Work, name: str) -> None:
    """Record ``name`` (a value of :data:`ENVIRONMENTS`) as the battle's environment (11.3).

    Raises:
        ValueError: an unknown environment name."""
    if name not in ENVIRONMENTS.values():
        raise ValueError(
            f"unknown KT18 environment {name!r:.40}; known: {', '.join(ENVIRONMENTS.values())}"
        )
    w.effects = [e for e in w.effects if e.kind != ENVIRONMENT]
    w.add_effect(Effect(ENVIRONMENT, "", "end_battle", detail=name))


@attrs.frozen(slots=True)
class EnvironmentFrame(NoChoiceFrame):
    """The environment roll (11.2): one D6 by player A (a ``kt18_environment`` chance node)."""

    def run(self, w: Work) -> None:
        """Roll the D6."""
        w.roll("kt18_environment", "A", 1, label="environment table (Sector Imperialis)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Read the table (11.3) and record the result."""
        w.stack.pop()
        name = ENVIRONMENTS[int(values[0])]
        set_environment(w, name)
        note = _NOTES[name]
        if name == "Tunnels" and not w.kz.kt18_manholes:
            note = _NO_MANHOLES
        w.emit("kt18_environment", player="A", roll=int(values[0]), environment=name, note=note)


def environment_step(w: Work) -> EnvironmentFrame | None:
    """The set-up step of the environment roll, when the killzone is a Sector Imperialis
    one and no environment is set yet (11.2)."""
    if w.kz.kt18_killzone != SECTOR_IMPERIALIS or environment(w):
        return None
    return EnvironmentFrame()


def _munitions_key(w: Work) -> str:
    return f"kt18 munitions {w.tp}"


def _grenade_allowed(w: Work, value: Any, *, op: str, thrower: str) -> Any:
    """Abandoned Munitions (11.3): the round's extra grenade model, once per round."""
    del thrower
    if value or environment(w) != "Abandoned Munitions":
        return value
    return w.count(w.ctx.owner[op], _munitions_key(w)) == 0


def _grenade_fired(w: Work, e: Event) -> None:
    """Count the extra grenade model of Abandoned Munitions when one fires (11.3)."""
    if environment(w) != "Abandoned Munitions" or w.phase == "fight":
        return  # the Fight phase's attacks are close combat ones
    op = str(e["op"])
    if find_kt18_weapon(w, op, str(e["weapon"]), "ranged").type != "Grenade":
        return
    player = w.ctx.owner[op]
    if grenade_thrower(w, player) not in ("", op):
        w.count(player, _munitions_key(w), add=1)


def _smoke(w: Work, value: Any, *, op: str, target: str, weapon: str) -> Any:
    """Smoke in the Air (11.3): -1 to hit rolls in the Shooting phase only."""
    del op, target, weapon
    if environment(w) == "Smoke in the Air" and w.phase == "shooting":
        return value - 1
    return value


def install_environment(hooks: Hooks) -> None:
    """Add the environment roll (a set-up step) and the environments' hooks (module
    docstring) to a KT18 battle's ``hooks``."""
    hooks.setup_step(environment_step)
    hooks.transform("kt18_grenade_allowed", _grenade_allowed)
    hooks.transform("kt18_shooting_hit_modifier", _smoke)
    hooks.on("kt18_weapon_fired", _grenade_fired)


def _env_text(e: Event) -> str:
    return f"Environment (D6 {e['roll']}): {e['environment']} - {e['note']}"


add_template("kt18_environment", _env_text)
