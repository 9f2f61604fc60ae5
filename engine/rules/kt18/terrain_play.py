"""KT18 Dangerous terrain tests in play (``rules/KT18.md`` 10.4, 11.3 Traps).

:func:`after_move` is called by every kind of move once it is made (a normal move, an
Advance, a Fall Back, a Retreat, a charge or failed charge move, a pile in, a consolidation,
a jump down): when the move began in dangerous terrain or moved into it
(:func:`engine.geometry.kt18_landing.route_in_dangerous`), or, for a model that can FLY,
began or ended in it, one :class:`DangerousTerrainFrame` is pushed: at most one test per
move (reading (a)). The test is a D6 rolled by the model's controller (a
``kt18_dangerous_terrain`` chance node); on a 1 the model suffers one mortal wound
(:func:`~engine.rules.kt18.wounds.push_mortal_wounds`, its controller making any Injury roll,
6.9 reading). With the Traps environment every upper floor is dangerous terrain too.
"""

from __future__ import annotations

import attrs

from engine.game.events import Event, add_template
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry.kt18_landing import route_in_dangerous
from engine.geometry.kt18_terrain import in_dangerous_terrain
from engine.rules.kt18.environment import environment
from engine.rules.kt18.wounds import push_mortal_wounds

__all__ = ["DANGEROUS_SOURCE", "DangerousTerrainFrame", "after_move", "can_fly", "traps"]

DANGEROUS_SOURCE = "dangerous terrain"
"""The ``source`` of the mortal wound a failed Dangerous terrain test inflicts."""


def can_fly(w: Work, op_id: str) -> bool:
    """``op_id``'s datasheet has the FLY keyword (``rules/KT18.md`` 3.3)."""
    return any(k.upper() == "FLY" for k in w.ctx.datacards[op_id].keywords)


def traps(w: Work) -> bool:
    """The Traps environment is in play: upper floors are dangerous (11.3 reading (a))."""
    return environment(w) == "Traps"


def dangerous_test_due(w: Work, op_id: str, start: Placement, end: Placement) -> bool:
    """Whether ``op_id``'s move from ``start`` to ``end`` calls for a Dangerous terrain test
    (module docstring; ``rules/KT18.md`` 10.4)."""
    kz = w.kz
    trapped = traps(w)
    if in_dangerous_terrain(kz, start, traps=trapped):
        return True
    if can_fly(w, op_id):
        return in_dangerous_terrain(kz, end, traps=trapped)
    return route_in_dangerous(kz, start, end, traps=trapped)


def after_move(w: Work, op_id: str, start: Placement) -> None:
    """Push the Dangerous terrain test ``op_id``'s move from ``start`` (to where it is now)
    calls for, if any (module docstring). Called once the move is made, with nothing pushed
    after it by the caller (the test runs next)."""
    o = w.op(op_id)
    if not o.alive:
        return
    if dangerous_test_due(w, op_id, start, w.place(o)):
        w.stack.append(DangerousTerrainFrame(op_id))


@attrs.frozen(slots=True)
class DangerousTerrainFrame(NoChoiceFrame):
    """A Dangerous terrain test (module docstring).

    Attributes:
        op: the model tested.
    """

    op: str

    def run(self, w: Work) -> None:
        """Roll the D6 (the model's controller), or nothing for a model no longer there."""
        o = w.op(self.op)
        if not o.alive:
            w.stack.pop()
            return
        w.roll("kt18_dangerous_terrain", o.player, 1, label=f"Dangerous terrain test ({o.id})")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """A 1 inflicts one mortal wound (10.4)."""
        w.stack.pop()
        o = w.op(self.op)
        roll = int(values[0])
        wounded = roll == 1
        w.emit("kt18_dangerous_terrain_test", op=o.id, roll=roll, wounded=wounded)
        if wounded:
            push_mortal_wounds(w, o.id, 1, roller=o.player, source=DANGEROUS_SOURCE)


def _text(e: Event) -> str:
    result = "1: one mortal wound" if e["wounded"] else "passed"
    return f"{e['op']} takes a Dangerous terrain test: rolls {e['roll']}, {result}"


add_template("kt18_dangerous_terrain_test", _text)
