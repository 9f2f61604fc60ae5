"""A KT18 battle as frames (``rules/KT18.md`` 2.1, 9.1, 9.6): the set-up, then five battle
rounds, then the result.

:class:`BattleFrame` is the ruleset's first frame:

1. ``"setup"``: the set-up steps rule modules add (``Hooks.setup_step``: the mission's
   set-up, Covert War's strategic advantage, objectives and deployment, 9.3-9.5), run in
   the order added.
2. ``"rounds"``: battle rounds 1 to :data:`LAST_ROUND` (:class:`BattleRoundFrame`).
3. The end (:func:`end_battle`): the ``battle_ending`` event (the mission scores there with
   a *did* hook), then the result: most VP wins a major victory, equal VP is a draw, which
   the ``kt18_victory`` *would* hooks may change (Covert War: a minor victory for the tied
   player with the least strategic advantage, 9.6); the ``battle_ended`` event (``vp``,
   ``winner``, ``victory``) and the terminal node.
"""

from __future__ import annotations

import attrs

from engine.game.events import Event, add_template
from engine.game.frame_skeleton import NoChoiceFrame, push_steps
from engine.game.state import Result, Terminal
from engine.game.work import Work
from engine.rules.kt18.battle_round import BattleRoundFrame

__all__ = ["LAST_ROUND", "BattleFrame", "end_battle", "victory_by_vp"]

LAST_ROUND = 5
"""A Covert War battle lasts five battle rounds (9.6)."""


def victory_by_vp(vp: tuple[int, int]) -> tuple[str, str]:
    """The result by victory points alone (9.6): ``("A", "major")`` when A has more VP,
    ``("B", "major")`` when B has, ``("", "draw")`` when they are equal."""
    if vp[0] == vp[1]:
        return "", "draw"
    return ("A" if vp[0] > vp[1] else "B"), "major"


def end_battle(w: Work) -> None:
    """End the battle after the last round (module docstring, step 3)."""
    w.phase = "over"
    w.emit("battle_ending")
    vp = (w.players[0].vp, w.players[1].vp)
    winner, victory = w.would("kt18_victory", victory_by_vp(vp), vp=vp)
    w.emit("battle_ended", vp=vp, winner=winner, victory=victory)
    w.finish(Terminal(Result(vp=vp, winner=winner)))


@attrs.frozen(slots=True)
class BattleFrame(NoChoiceFrame):
    """The whole KT18 battle (module docstring).

    Attributes:
        stage: ``"setup"`` (the set-up steps are next) or ``"rounds"``.
    """

    stage: str = "setup"

    def run(self, w: Work) -> None:
        """Push the set-up steps, then each battle round, then end the battle."""
        if self.stage == "setup":
            w.replace_top(stage="rounds")
            push_steps(w, w.ctx.hooks.setup_steps)
            return
        if w.tp >= LAST_ROUND:
            end_battle(w)
            return
        w.stack.append(BattleRoundFrame(round=w.tp + 1))


def _round_started(e: Event) -> str:
    return f"=== Battle round {e['round']} ==="


def _phase(e: Event) -> str:
    return f"--- {str(e['phase']).capitalize()} phase (round {e['round']})"


def _initiative(e: Event) -> str:
    return f"{e['player']} has the initiative (2D6: A {e['totals'][0]}, B {e['totals'][-1]})"


add_template("kt18_round_started", _round_started)
add_template("kt18_phase_started", _phase)
add_template("kt18_initiative", _initiative)
