"""Setting up pre-battle equipment items (``rules/KT24.md`` 1.2 step 3, 7.2): where each
item may go, candidate spots for agents, and the token an item becomes.

The restrictions themselves are checked on the geometry
(:func:`engine.rules.equipment.restrictions.equipment_placement_problem`); this module
supplies the player's territory and drop zone (the areas of the drop zone it took at
set-up; a layout without territories uses the drop zone as the territory), the equipment
terrain already set up (both players') and the equipment markers and objective markers
already on the killzone. Every item is set up on the killzone floor (elevation 0).
"""

from __future__ import annotations

from shapely.geometry.base import BaseGeometry

from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry.extra_terrain import FeatureSpec
from engine.rules.equipment.options import ITEM_KINDS
from engine.rules.equipment.restrictions import equipment_placement_problem, equipment_spots
from engine.rules.equipment.shapes import TERRAIN_KINDS, equipment_feature

__all__ = ["candidate_spots", "make_token", "placement_problem", "set_up"]


def _areas(w: Work, player: str) -> tuple[BaseGeometry, BaseGeometry]:
    kz = w.ctx.killzone
    zone = w.pl(player).drop_zone
    drop = kz.drop_zones[zone]
    return kz.territories.get(zone, drop), drop


def _others(w: Work) -> tuple[FeatureSpec, ...]:
    """The terrain features equipment added (a rule's change to a layout feature, such as a
    breach's ``AccessibleSpec``, is no added feature to keep clear of)."""
    return tuple(t.feature for t in w.tokens if isinstance(t.feature, FeatureSpec))


def _markers(w: Work) -> tuple[tuple[float, float], ...]:
    objectives = tuple((m.x, m.y) for m in w.markers if not m.carrier)
    return objectives + tuple((t.x, t.y) for t in w.tokens if t.feature is None)


def candidate_spots(w: Work, player: str, item: str) -> list[tuple[float, float, float, int]]:
    """Deterministic legal spots ``(x, y, elevation, angle)`` (inches, degrees) for
    ``player``'s pre-battle ``item`` (``"Light Barricade"``...), for listing."""
    territory, drop = _areas(w, player)
    spots = equipment_spots(w.kz, ITEM_KINDS[item], territory, drop, _others(w), _markers(w))
    return [(x, y, 0.0, round(angle) % 360) for x, y, angle in spots]


def placement_problem(
    w: Work, player: str, item: str, point: tuple[float, float, float], angle: int
) -> str | None:
    """Why ``player`` cannot set up ``item`` at ``point`` turned ``angle`` degrees (7.2), or
    ``None``."""
    x, y, z = point
    if z != 0:
        return "pre-battle equipment is set up on the killzone floor (elevation 0)"
    if not 0 <= angle < 360:
        return f"the angle must be 0 to 359 degrees, not {angle}"
    territory, drop = _areas(w, player)
    try:
        return equipment_placement_problem(
            w.kz,
            ITEM_KINDS[item],
            x,
            y,
            angle,
            territory=territory,
            drop_zone=drop,
            others=_others(w),
            markers=_markers(w),
        )
    except ValueError as exc:
        return str(exc)


def make_token(
    w: Work, player: str, item: str, point: tuple[float, float, float], angle: int
) -> Token:
    """The token of ``player``'s ``item`` at ``point`` turned ``angle`` degrees, named
    ``"<player> <item>"`` (``" 2"``... for a second one), with its terrain feature for a
    terrain item.

    Raises:
        ValueError: a coordinate or angle that is not a finite number."""
    kind = ITEM_KINDS[item]
    x, y, z = point
    same = sum(1 for t in w.tokens if t.owner == player and t.kind == kind)
    name = f"{player} {item.lower()}" + (f" {same + 1}" if same else "")
    feature = equipment_feature(kind, x, y, angle, name=name) if kind in TERRAIN_KINDS else None
    return Token(kind, player, name, x, y, z, angle, feature=feature)


def set_up(w: Work, player: str, item: str, point: tuple[float, float, float], angle: int) -> Token:
    """Set ``player``'s ``item`` up at ``point`` (already checked): a token, with its
    terrain feature for a terrain item; emits ``equipment_set_up``. Returns the token."""
    token = make_token(w, player, item, point, angle)
    x, y, _ = point
    name = token.name
    w.tokens.append(token)
    w.emit("equipment_set_up", player=player, item=item, name=name, x=x, y=y, angle=angle)
    return token
