"""Damage, incapacitation and removal (``rules/KT24.md`` 2.3)."""

from __future__ import annotations

from engine.game.markers import place_marker
from engine.game.work import Work

__all__ = [
    "incapacitate",
    "inflict",
    "remove_casualties",
]


def inflict(w: Work, op_id: str, damage: int, source: str, by: str = "") -> None:
    """Inflict ``damage`` on ``op_id``; below half its starting wounds it becomes injured
    (``operative_injured``), at 0 wounds it is incapacitated (2.3). It is removed by
    :func:`remove_casualties` after the action.

    Wounds never go below 0: the ``damage_inflicted`` event reports the ``damage`` inflicted
    (as rolled) and the ``wounds`` left, clamped at 0. At 0 wounds the
    ``would_be_incapacitated`` hooks may keep it in the fight (a rule then sets its wounds).
    """
    o = w.op(op_id)
    if damage <= 0 or o.incapacitated or not o.placed:
        return
    was_injured = w.injured(o)
    o = w.set_op(op_id, wounds=max(0, o.wounds - damage))
    # A rule that keeps the operative in the fight returns False and leaves it with wounds
    # (fn(w, True, op=, by=, source=) -> bool).
    if (
        o.wounds <= 0
        and "would_be_incapacitated" in w.ctx.hooks.would
        and not w.would("would_be_incapacitated", True, op=op_id, by=by, source=source)
    ):
        o = w.op(op_id)
    w.emit("damage_inflicted", op=op_id, damage=damage, source=source, wounds=o.wounds, by=by)
    if o.wounds > 0 and w.injured(o) and not was_injured:
        w.emit("operative_injured", op=op_id, wounds=o.wounds, by=by)
    if o.wounds <= 0:
        incapacitate(w, op_id, by)


def incapacitate(w: Work, op_id: str, by: str = "") -> None:
    """``op_id`` is incapacitated now (2.3): 0 wounds, ``operative_incapacitated``, and the
    ``incapacitated`` ploy window; removed by :func:`remove_casualties` after the action.
    :func:`inflict` calls it at 0 wounds; a rule that kept an operative in the fight until
    its player's choice calls it when that player lets it fall."""
    o = w.set_op(op_id, wounds=0, incapacitated=True, on_guard=False)
    w.emit("operative_incapacitated", op=op_id, player=o.player, by=by)
    w.defer_window("incapacitated", op=op_id, by=by)


def remove_casualties(w: Work) -> None:
    """Remove incapacitated operatives; a carrier first places its marker for 0AP (2.3)."""
    for o in list(w.ops):
        if o.incapacitated and o.placed:
            for name in o.carrying:
                place_marker(w, o, o.x, o.y, name)
            w.set_op(o.id, placed=False, ready=False, ap=0)
            w.effects = [e for e in w.effects if e.op != o.id]
            w.emit("operative_removed", op=o.id)
