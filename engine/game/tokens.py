"""Things rule modules put on the killzone: equipment markers and equipment terrain
(``rules/KT24.md`` 4.8 markers, 7.2 universal equipment).

A :class:`Token` is a value on the state (``GameState.tokens``). The core knows nothing of
what a token means; it only builds the killzone with the terrain parts of the tokens that
are terrain (:attr:`Token.feature`), so sight, cover and movement see equipment terrain like any
other terrain (:meth:`engine.game.context.GameContext.killzone_for`), and carries the markers
rule modules let operatives pick up (:attr:`Token.carrier`, 3.2).
"""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["Token"]


@attrs.frozen(slots=True)
class Token:
    """One equipment marker or terrain feature on the killzone.

    Attributes:
        kind: what it is, as its module names it (``"mines"``, ``"smoke"``,
            ``"light_barricade"``...).
        owner: the player it belongs to (``"A"``/``"B"``).
        name: unique among the tokens of a battle (``"A mines"``, ``"B smoke 2"``).
        x, y, elevation: its centre (inches).
        angle: how it is turned (degrees, 0-359).
        feature: the terrain feature it adds to the killzone (a hashable
            :class:`engine.geometry.extra_terrain.FeatureSpec`), ``None`` for a marker.
        counters: ``(key, value)`` pairs its module keeps (used this turning point,
            activations left...), sorted by key.
        carrier: the operative carrying it (a marker its module lets operatives pick up,
            :func:`engine.game.universal.rule_markers`), or ``""``; while carried it is
            where its carrier is.
    """

    kind: str
    owner: str
    name: str
    x: float
    y: float
    elevation: float = 0.0
    angle: int = 0
    feature: Any = None
    counters: tuple[tuple[str, int], ...] = ()
    carrier: str = ""

    def counter(self, key: str, default: int = 0) -> int:
        """The value of counter ``key`` (``default`` when unset)."""
        for k, v in self.counters:
            if k == key:
                return v
        return default

    def with_counter(self, key: str, value: int) -> Token:
        """This token with counter ``key`` set to ``value``."""
        d = dict(self.counters)
        d[key] = value
        return attrs.evolve(self, counters=tuple(sorted(d.items())))
