"""The frames of a scripted KT21 position (:func:`engine.game.scenario.position`; the
``position_frames`` *would* hook): a scenario file with ``ruleset = "kt21"`` in its
``[options]`` starts in the KT21 flow, never in KT24's.

The phases and steps are the names scenario files already use (``engine.game.scenario_state``)
with their KT21 meaning (``rules/KT21.md`` 1-3):

- ``"setup"``: before the roll-off for Attacker and Defender.
- ``"deployment"``: the roles and drop zones decided (A's drop zone is ``"A"``; the Defender
  is the player whose counter ``kt21_defender`` is 1, ``[position.players.B] uses = {
  kt21_defender = 1 }``, else A; nobody has initiative yet); step ``"deploy"``: the
  operatives listed are set up and deployment goes on from there (then scouting, then the
  first turning point); step
  ``"equipment"``: the set-up steps before deployment are next.
- ``"strategy"``: step ``"start"``: the turning point begins (operatives readied, then
  initiative); ``"initiative"``: initiative is determined next (``initiative_roll``: that
  roll-off already made, from the second turning point on, or in Lite); ``"ready"``:
  initiative decided, the Strategy phase is next (each player gains 1CP); ``"gambit"``: the
  strategic ploys step (``gambit_turn``: under way with that player to choose).
- ``"firefight"``: the Firefight phase, ``turn`` to take its turn (default: initiative).
- ``"end"``: the Firefight phase is over; the end of the turning point is next.
"""

from __future__ import annotations

from typing import Any

from engine.game.flow import GambitFrame
from engine.game.scenario_state import PositionStateError
from engine.game.state import PLAYERS
from engine.game.work import Work
from engine.rules.kt21 import roles
from engine.rules.kt21.firefight import FirefightFrame
from engine.rules.kt21.setup import DeployFrame, ScoutingFrame, SetupFrame, deploy_turns
from engine.rules.kt21.turning_point import InitiativeFrame, TurningPointFrame

__all__ = ["position_frames"]


def _deploy_frame(w: Work) -> DeployFrame:
    """Deployment advanced past the groups already set up.

    Raises:
        PositionStateError: the numbers set up are not a point deployment reaches."""
    turns = deploy_turns(w)
    left = {p: sum(1 for o in w.ops if o.player == p and o.placed) for p in PLAYERS}
    total = dict(left)
    pos = placed = 0
    for player, size in turns:
        if left[player] >= size:
            left[player] -= size
            pos += 1
            continue
        placed = left[player]
        left[player] = 0
        break
    if any(left.values()):
        raise PositionStateError(
            "operatives: KT21 deployment sets up groups alternating from the Defender "
            f"({roles.defender(w)}; rules/KT21.md 1.2 step 8): the numbers set up "
            f"(A {total['A']}, B {total['B']}) are not a point deployment reaches"
        )
    return DeployFrame(turns, pos=pos, placed=placed)


def position_frames(
    w: Work,
    value: bool,
    *,
    phase: str,
    step: str,
    turn: str,
    initiative_roll: tuple[int, int] | None,
    gambit_turn: str | None,
) -> bool:
    """Put the KT21 frames of ``phase``/``step`` on ``w`` (module docstring); ``True``.

    Raises:
        PositionStateError: a position the KT21 flow does not reach (an initiative roll-off
            in the first turning point outside Lite, operatives set up out of turn).
    """
    del value
    if not roles.defender(w) and phase != "setup":
        roles.set_defender(w, "A")
    if phase == "setup":
        w.stack = [SetupFrame()]
        return True
    if phase == "deployment":
        w.tp, w.phase = 0, "setup"
        w.initiative = ""  # decided after deployment (scouting, 1.2 step 10)
        if step == "equipment":
            w.stack = [SetupFrame(stage="steps")]
            return True
        frames: list[Any] = [TurningPointFrame()]
        if w.ctx.options.mission != "lite":
            frames.append(ScoutingFrame(turn=roles.attacker(w)))
        frames.append(_deploy_frame(w))
        w.stack = frames
        return True
    if phase == "end":
        ready = [o.id for o in w.alive() if o.ready]
        if ready:
            raise PositionStateError(
                f"operatives.{ready[0]}.ready: the Firefight phase ends only when every "
                "operative has been activated (rules/KT21.md 2.3)"
            )
        w.phase = "firefight"
        w.stack = [TurningPointFrame(stage="end")]
        return True
    if phase == "firefight":
        w.phase = "firefight"
        w.stack = [TurningPointFrame(stage="end"), FirefightFrame(turn=turn)]
        return True
    if step == "start":
        w.phase = "setup" if w.tp == 1 else "firefight"
        w.tp -= 1
        w.stack = [TurningPointFrame(stage="start")]
        return True
    w.phase = "strategy"
    if step == "initiative":
        w.stack = [TurningPointFrame(stage="strategy"), InitiativeFrame()]
        if initiative_roll is not None:
            if w.tp == 1 and w.ctx.options.mission != "lite":
                raise PositionStateError(
                    "initiative_roll: the first turning point's initiative comes from the "
                    "set-up (rules/KT21.md 1.2, 2.1): there is no roll-off"
                )
            w.top.rolled(w, initiative_roll)
    elif step == "ready":
        w.stack = [TurningPointFrame(stage="strategy")]
    else:
        w.stack = [TurningPointFrame(stage="reveal"), GambitFrame(turn=gambit_turn or w.initiative)]
    return True
