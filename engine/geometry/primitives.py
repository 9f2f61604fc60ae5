"""The values the killzone is made of and the geometry queries take: terrain types and
parts, objective markers, operatives' placements, the 0.001" position grid and the marker
sizes (``rules/KT24.md`` sections 3.3, 4.6 and 4.8). All lengths are in inches; base and
marker sizes in millimetres, as on the datacard.

:mod:`engine.geometry.model` builds the :class:`~engine.geometry.model.Killzone` from them
(and names them all again, for its readers).
"""

from __future__ import annotations

from enum import StrEnum

import attrs
from shapely.geometry import Point, Polygon

from engine.errors import KillTeamError

__all__ = [
    "DEFAULT_MODEL_HEIGHT",
    "KT18_TERRAIN_CATEGORIES",
    "MARKER_DIAMETER_MM",
    "MM_PER_INCH",
    "OBJECTIVE_DIAMETER_MM",
    "QUANTUM",
    "KillzoneError",
    "Objective",
    "Placement",
    "TerrainPart",
    "TerrainType",
    "quantise",
]

MM_PER_INCH = 25.4
#: Positions are quantised to 0.001" so that equality and hashing are exact (DESIGN.md).
QUANTUM = 0.001
#: Height of a model above its base (inches) when a datacard gives none: a 28 mm-scale
#: infantry model's head is about 1.25" above the top of its base.
DEFAULT_MODEL_HEIGHT = 1.25
#: Objective markers are 40 mm across; other markers 20 mm (section 4.8).
OBJECTIVE_DIAMETER_MM = 40.0
MARKER_DIAMETER_MM = 20.0
"""Markers other than objective markers are 20 mm across (4.8), e.g. equipment markers."""


KT18_TERRAIN_CATEGORIES = ("open", "difficult", "dangerous", "impassable")
"""The values of a part's layout field ``kt18_terrain`` (``rules/KT18.md`` 10.1)."""


class KillzoneError(KillTeamError, ValueError):
    """A killzone layout is invalid; the message names the file, the feature and the field."""


class TerrainType(StrEnum):
    """KT24 terrain types (section 4.6; Wall from close quarters, section 9.3; Obstructing,
    Protective and Portable from the universal equipment, section 7.2).

    ``Ladder`` is the project's type for the Ladders equipment (7.2): an Insignificant +
    Exposed part that makes a climb of the feature it stands against count 1" vertically
    (:mod:`engine.geometry.move_links`). Protective and Portable are carried for the game
    layer (their effects are rules of the attack sequences, not of geometry).
    """

    HEAVY = "Heavy"
    LIGHT = "Light"
    BLOCKING = "Blocking"
    VANTAGE = "Vantage"
    ACCESSIBLE = "Accessible"
    INSIGNIFICANT = "Insignificant"
    EXPOSED = "Exposed"
    WALL = "Wall"
    CEILING = "Ceiling"
    OBSTRUCTING = "Obstructing"
    PROTECTIVE = "Protective"
    PORTABLE = "Portable"
    LADDER = "Ladder"

    @classmethod
    def parse(cls, text: str) -> TerrainType:
        """The type named ``text`` (case-insensitive).

        Raises:
            ValueError: for an unknown name (the loader turns it into a KillzoneError).
        """
        for member in cls:
            if member.value.lower() == str(text).strip().lower():
                return member
        known = ", ".join(m.value for m in cls)
        raise ValueError(f"unknown terrain type {text!r} (known: {known})")


def quantise(value: float) -> float:
    """Round a length in inches to the 0.001" grid (exact equality and hashing)."""
    return round(round(value / QUANTUM) * QUANTUM, 3)


@attrs.frozen(slots=True)
class TerrainPart:
    """One part of a terrain feature.

    Attributes:
        feature: index of its feature in :attr:`Killzone.features`.
        index: index of this part in :attr:`Killzone.parts`.
        polygon: footprint (inches), a valid shapely polygon.
        height: top of the part above the killzone floor (inches, >= 0). For Vantage parts,
            the level an operative stands on.
        types: the part's terrain types (closed state for a hatchway part).
        open_types: for a hatchway part, its types when the hatchway is open; else ``None``.
        stairs: whether the part is a stair or slope (``rules/KT21.md`` 7.4, DC 16.14;
            ``rules/KT24.md`` decision 7): it leads from the killzone floor up to a Vantage
            part of its own height that it touches (its head); its ``height`` is the top of
            the slope. A move crosses it as horizontal movement, its length measured along
            the slope, with no climb (:mod:`engine.geometry.move_stairs`); a base never
            finishes on it. Layout field ``stairs = true`` (checked by the loader).
        kt18_terrain: the part's terrain category under the KT18 advanced terrain rules
            (``rules/KT18.md`` 10.1): ``""`` (not given: open ground unless
            :func:`engine.geometry.kt18_terrain.part_category` maps its KT24 types),
            ``"open"``, ``"difficult"``, ``"dangerous"`` or ``"impassable"``. Layout field
            ``kt18_terrain = "difficult"`` (checked by the loader); KT24 and KT21 never
            read it.
    """

    feature: int
    index: int
    polygon: Polygon = attrs.field(eq=False)
    height: float
    types: frozenset[TerrainType]
    open_types: frozenset[TerrainType] | None = None
    stairs: bool = False
    kt18_terrain: str = ""

    def types_when(self, open_: bool) -> frozenset[TerrainType]:
        """The part's types with its hatchway open (``True``) or closed."""
        if open_ and self.open_types is not None:
            return self.open_types
        return self.types


@attrs.frozen(slots=True)
class Objective:
    """An objective marker: a 40 mm marker whose centre is ``position`` (inches)."""

    name: str
    position: tuple[float, float]

    @property
    def radius(self) -> float:
        """Radius in inches."""
        return OBJECTIVE_DIAMETER_MM / MM_PER_INCH / 2


@attrs.frozen(slots=True, cache_hash=True)
class Placement:
    """Where an operative is: the inputs of every geometry query.

    Attributes:
        x, y: centre of the base (inches, quantised to 0.001").
        base_mm: base diameter in millimetres (e.g. 32, 40, 50).
        elevation: height of the base above the floor (inches): 0 on the killzone floor,
            else the height of the Vantage part it stands on.
        model_height: height of the model's head above its base (inches).
    """

    x: float = attrs.field(converter=quantise)
    y: float = attrs.field(converter=quantise)
    base_mm: float = 32.0
    elevation: float = attrs.field(default=0.0, converter=quantise)
    model_height: float = DEFAULT_MODEL_HEIGHT

    @property
    def radius(self) -> float:
        """Base radius in inches."""
        return self.base_mm / MM_PER_INCH / 2

    @property
    def head(self) -> tuple[float, float, float]:
        """The point sight lines are drawn from (centre of the base, top of the model)."""
        return (self.x, self.y, self.elevation + self.model_height)

    def moved(self, x: float, y: float, elevation: float | None = None) -> Placement:
        """The same operative at another position (and elevation)."""
        return attrs.evolve(
            self, x=x, y=y, elevation=self.elevation if elevation is None else elevation
        )

    def footprint(self) -> Polygon:
        """The base as a shapely polygon (inches)."""
        return Point(self.x, self.y).buffer(self.radius, quad_segs=16)
