"""KT18 sight as the attack rules ask for it (``rules/KT18.md`` 5.3, 6.3, 6.9, 7.6).

A placeholder with the four functions the sight part provides: :func:`visible` is the
battle's own visibility test (:meth:`engine.game.context.GameContext.visible`), the three
others answer ``False`` until the KT18 sight geometry replaces this module.
"""

from __future__ import annotations

from engine.game.work import Work

__all__ = ["injury_cover", "intervening_terrain", "obscured", "visible"]


def visible(w: Work, viewer_id: str, target_id: str) -> bool:
    """Some part of ``target_id`` can be seen from some part of ``viewer_id``
    (``rules/KT18.md`` 5.3)."""
    kz = w.kz
    return bool(w.ctx.visible(kz, w.place(w.op(viewer_id)), w.place(w.op(target_id))))


def obscured(w: Work, shooter_id: str, target_id: str) -> bool:
    """``target_id`` is obscured from ``shooter_id`` (``rules/KT18.md`` 6.3): placeholder,
    never."""
    del w, shooter_id, target_id
    return False


def injury_cover(w: Work, shooter_id: str, target_id: str) -> bool:
    """The Injury roll's -1 applies (``rules/KT18.md`` 6.9: obscured and within 1" of an
    intervening model or terrain piece): placeholder, never."""
    del w, shooter_id, target_id
    return False


def intervening_terrain(w: Work, attacker_id: str, target_id: str) -> bool:
    """Terrain between the two keeps them from base contact (``rules/KT18.md`` 7.6's -1):
    placeholder, never."""
    del w, attacker_id, target_id
    return False
