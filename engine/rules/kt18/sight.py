"""KT18 sight questions of the game (``rules/KT18.md`` 5.3, 6.3, 6.9, 7.6): the thin adapter
from the battle's state to the geometry of :mod:`engine.geometry.kt18_sight`.

The positions are the models' placements (:meth:`engine.game.work.Work.place`) on the
battle's killzone ``w.kz``; the models that may obscure are every other model on the
battlefield (``w.alive()``: placed and not out of action), friend or foe (6.3). The readings
(main body, best point of view, lying between) are the geometry module's.
"""

from __future__ import annotations

from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry import kt18_sight as geo

__all__ = ["injury_cover", "intervening_terrain", "obscured", "visible"]


def _others(w: Work, a: str, b: str) -> tuple[Placement, ...]:
    """The placements of every model on the battlefield but ``a`` and ``b``."""
    return tuple(w.place(o) for o in w.alive() if o.id not in (a, b))


def visible(w: Work, viewer_id: str, target_id: str) -> bool:
    """Whether some part of ``target_id`` can be seen from some part of ``viewer_id``
    (``rules/KT18.md`` 5.3): terrain blocks, models do not.

    Raises:
        KeyError: an unknown model id.
    """
    return geo.visible(w.kz, w.place(w.op(viewer_id)), w.place(w.op(target_id)))


def obscured(w: Work, shooter_id: str, target_id: str) -> bool:
    """Whether ``target_id`` is obscured from ``shooter_id`` (``rules/KT18.md`` 6.3): some part
    of its body hidden by terrain or by any other model from the shooter's best point of view.

    Raises:
        KeyError: an unknown model id.
    """
    s, t = w.op(shooter_id), w.op(target_id)
    return geo.obscured(w.kz, w.place(s), w.place(t), _others(w, s.id, t.id))


def injury_cover(w: Work, shooter_id: str, target_id: str) -> bool:
    """Whether the Injury roll of ``target_id`` takes the -1 of ``rules/KT18.md`` 6.9: it is
    obscured from ``shooter_id`` and within 1" of a model or terrain piece lying between the
    two (shooting attacks and psychic powers only: the caller decides when to ask).

    Raises:
        KeyError: an unknown model id.
    """
    s, t = w.op(shooter_id), w.op(target_id)
    return geo.injury_cover(w.kz, w.place(s), w.place(t), _others(w, s.id, t.id))


def intervening_terrain(w: Work, attacker_id: str, target_id: str) -> bool:
    """Whether terrain intervenes between ``attacker_id`` and ``target_id`` in close combat
    (``rules/KT18.md`` 7.6, reading (b): the -1 to the close combat hit roll).

    Raises:
        KeyError: an unknown model id.
    """
    return geo.intervening_terrain(w.kz, w.place(w.op(attacker_id)), w.place(w.op(target_id)))
