"""The frames of a scripted KT18 position (:func:`engine.game.scenario.position`; the
``position_frames`` *would* hook): a scenario file with ``ruleset = "kt18"`` starts in the
KT18 flow, never in KT24's (``rules/KT18.md`` 2.1). ``tp`` is the battle round.

- ``"setup"``: the battle as created (the set-up steps next; no model on the battlefield).
- ``"initiative"``: step ``"start"``: the battle round begins (its start steps, then the
  Initiative phase); step ``"roll"``: the Initiative phase's rolls are next.
- ``"movement"``: the Movement phase, ``turn`` the player whose turn it is (default: the
  player with the initiative; when it is the other player, the initiative player's turn is
  over). The models within 1" of an enemy now are those that started the phase so (3.6).
- ``"psychic"``, ``"shooting"``, ``"fight"``: the phase begins (the frames of the steps rule
  modules add for it, ``Hooks.phase_step``).
- ``"morale"``: the Morale phase begins (8).
- ``"firefight"`` (a scenario's default phase): as ``"movement"``.

Not a KT18 position: ``"deployment"`` (Covert War's deployment is the mission's, 9.5),
``"strategy"`` and ``"end"`` (KT24 and KT21 phases).
"""

from __future__ import annotations

from typing import Any

from engine.game.frame_skeleton import push_steps
from engine.game.scenario_state import PositionStateError
from engine.game.work import Work
from engine.rules.kt18.battle import BattleFrame
from engine.rules.kt18.battle_round import BattleRoundFrame
from engine.rules.kt18.initiative import InitiativeFrame, initiative_order
from engine.rules.kt18.morale import MoralePhaseFrame
from engine.rules.kt18.movement import MovementPhaseFrame, MovementTurnFrame

__all__ = ["position_frames"]

_AFTER = {"psychic": "shooting", "shooting": "fight", "fight": "morale"}


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
    """Put the KT18 frames of ``phase``/``step`` on ``w`` (module docstring); ``True``.

    Raises:
        PositionStateError: a phase the KT18 battle round does not have."""
    del value, initiative_roll, gambit_turn
    if phase == "setup":
        w.stack = [BattleFrame()]
        return True
    if phase in ("deployment", "strategy", "end"):
        raise PositionStateError(
            f"phase: {phase!r} is not a phase of a KT18 battle round; KT18 positions start in "
            "setup, initiative, movement, psychic, shooting, fight or morale (rules/KT18.md 2.1)"
        )
    frames: list[Any] = [BattleFrame(stage="rounds")]
    rnd = w.tp
    if phase == "initiative":
        if step == "start":
            w.tp, w.phase = rnd - 1, "morale" if rnd > 1 else "setup"
            frames.append(BattleRoundFrame(round=rnd))
        else:
            w.phase = "initiative"
            frames += [BattleRoundFrame(round=rnd, stage="movement"), InitiativeFrame()]
        w.stack = frames
        return True
    if phase in ("movement", "firefight"):
        w.phase = "movement"
        start = MovementPhaseFrame.begin(w)
        order = initiative_order(w)
        if turn not in order:
            raise PositionStateError(f"turn: {turn!r} is not a player (A or B)")
        frames += [
            BattleRoundFrame(round=rnd, stage="psychic"),
            MovementPhaseFrame(engaged=start.engaged, done=order.index(turn) + 1),
            MovementTurnFrame(turn, start.engaged),
        ]
        w.stack = frames
        return True
    w.phase = phase
    if phase == "morale":
        w.stack = [*frames, BattleRoundFrame(round=rnd, stage="end"), MoralePhaseFrame()]
        return True
    w.stack = [*frames, BattleRoundFrame(round=rnd, stage=_AFTER[phase])]
    push_steps(w, w.ctx.hooks.phase_steps.get(phase, ()))
    return True
