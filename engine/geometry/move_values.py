"""The values of the movement model (rules ``rules/KT24.md`` 3.2, 3.3, 4.6, 4.7, 7.2, 9.3):
the rules' distances and costs, the move actions, a :class:`Level` (a surface a base can
stand on) and a link (one straight increment between two nodes, with its cost), and the
segment helpers the link classifier (:mod:`engine.geometry.move_links`) and the graph's
builders share. The model is described in :mod:`engine.geometry.movement`.
"""

from __future__ import annotations

import math
from typing import Literal

import attrs
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from engine.geometry.model import Killzone, TerrainType

#: +1" each time an increment's centre line enters an Accessible part (4.6).
ACCESSIBLE_COST = 1.0
#: A climb starts with the base within 1" horizontally of the terrain (3.3).
CLIMB_RANGE = 1.0
#: The most one climb may rise, in inches (3.3 "within 3" vertically").
CLIMB_MAX = 3.0
#: Each climb counts at least 2" vertically (3.3).
CLIMB_MIN_COST = 2.0
#: The first 2" of vertical drop per action are free (3.3).
FREE_DROP = 2.0
#: A jump covers at most 4" horizontally from the edge (3.3).
JUMP_MAX = 4.0
#: Jumping onto terrain at most 1" higher costs nothing vertically (3.3).
JUMP_FREE_RISE = 1.0
#: Dash moves at most 3" whatever the Move stat (3.2, decision 7).
DASH_DISTANCE = 3.0
#: Charge moves Move + 2" (3.2).
CHARGE_BONUS = 2.0
CONTROL_RANGE = 1.0
#: Ceiling parts let round bases of 50 mm or less move underneath (4.6).
CEILING_MAX_BASE_MM = 50.0
#: +1" each time an increment crosses over an Obstructing feature (razor wire, 4.6, 7.2).
OBSTRUCTING_COST = 1.0
#: A climb of the feature a ladder stands against, with the ladder within control range for
#: the whole climb, counts 1" vertically, once per action (7.2 Ladders).
LADDER_CLIMB_COST = 1.0
#: A ladder stands against the parts its footprint is within this distance of (inches).
LADDER_TOUCH = 0.02

MoveAction = Literal["reposition", "dash", "fall_back", "charge"]
_ACTION_NAMES: dict[str, str] = {
    "reposition": "Reposition",
    "dash": "Dash",
    "fall_back": "Fall Back",
    "charge": "Charge",
}

_TOL = 0.002  # geometric tolerance of containment tests (inches)
_GRID = 0.001  # obstacles grow by the position grid so quantised nodes stay clear
_ROUND_TOL = 0.001  # an increment 0.001" over a whole inch still rounds down (grid noise)
_TIE = 1e-4  # cost-first A*: weight = cost + _TIE * length
_PORTAL_SPACING = 1.0
_MITRE_LIMIT = 2.0  # corners sharper than ~60 degrees get no mitre node
_PORTAL_INSET = 0.05
_PORTAL_GAP = 0.01
_SAMPLE_STEP = 0.05  # sampling step of explicit paths for control range (inches)
_BLOCKED = "blocked"
_SOLID_INSET = 0.01  # Level.solid: blockers shrunk by this much (well beyond _TOL)

FloatArray = NDArray[np.float64]
XY = tuple[float, float]
Point3 = tuple[float, float, float]


# -------------------------------------------------------------------------------------------
# Levels and links
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True, eq=False)
class Level:
    """A surface a base can stand on: the floor (index 0) or a group of Vantage parts.

    Attributes:
        index: position in :attr:`MoveGraph.levels`.
        height: elevation of the surface (inches).
        parts: the Vantage parts forming it (empty for the floor).
        footprint: the board (floor) or the union of the parts (inches).
        strict: where the centre of a base may finish (module docstring).
        passage: where the centre may pass.
        blockers: parts that block this level (part indices).
        accessible: Accessible parts above this level (+1" when entered).
        strict_tol, passage_tol, footprint_tol: the same regions grown by 0.002" and prepared
            (the containment tests use them).
        solid: the union of the blockers' footprints shrunk by 0.01" (prepared): a centre
            line that meets it is never in the passage region (a cheap first test).
    """

    index: int
    height: float
    parts: tuple[int, ...]
    footprint: BaseGeometry
    strict: BaseGeometry
    passage: BaseGeometry
    blockers: tuple[int, ...]
    accessible: tuple[int, ...]
    strict_tol: BaseGeometry = attrs.field(repr=False)
    passage_tol: BaseGeometry = attrs.field(repr=False)
    footprint_tol: BaseGeometry = attrs.field(repr=False)
    solid: BaseGeometry = attrs.field(repr=False)

    @property
    def is_floor(self) -> bool:
        """Whether this is the killzone floor."""
        return self.index == 0


@attrs.frozen(slots=True)
class _Link:
    kind: str
    horizontal: float
    climb: float = 0.0
    drop: float = 0.0
    crossings: int = 0
    #: Obstructing features crossed over (+1" each, 4.6).
    obstructing: int = 0
    #: Whether the climb is up the feature a ladder stands against, with the ladder within
    #: control range throughout (7.2): it counts 1" vertically, once per action.
    ladder: bool = False
    #: The A* weight: the cost with the free 2" of drop and the ladder applied to this link
    #: alone, + 1e-4 x length (computed once).
    weight: float = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "weight", self.cost(FREE_DROP)[0] + _TIE * self.horizontal)

    @property
    def climbs(self) -> bool:
        return self.climb > 0

    def cost(self, free_drop: float, ladder: bool = True) -> tuple[float, float]:
        """(cost in inches, free drop left) for this increment (3.3), the ladder's 1" climb
        applied when ``ladder`` (the action has not used a ladder yet, 7.2)."""
        if self.climb <= 0:
            vertical = 0.0
        elif self.ladder and ladder:
            vertical = LADDER_CLIMB_COST
        else:
            vertical = max(CLIMB_MIN_COST, self.climb)
        counted_drop = max(0.0, self.drop - free_drop)
        free_left = max(0.0, free_drop - self.drop)
        total = self.horizontal + vertical + counted_drop
        rounded = float(math.ceil(total - _ROUND_TOL)) if total > _ROUND_TOL else 0.0
        extra = ACCESSIBLE_COST * self.crossings + OBSTRUCTING_COST * self.obstructing
        return rounded + extra, free_left


@attrs.frozen(slots=True, cache_hash=True)
class MovementRules:
    """How a ruleset counts the increments of a move (a parameter of the movement queries,
    :func:`engine.geometry.move_paths.shortest_path`; the movement graph's geometry, its
    nodes and links, is the same for every ruleset and cached per killzone and base size).

    The default, :data:`KT24_MOVEMENT`, is KT24's (``rules/KT24.md`` 3.3): every increment is
    rounded up to a whole inch, a climb counts at least 2", the first 2" of drop per action
    are free, a jump landing at most 1" higher is free. Any other value counts an increment
    as ``rules/KT21.md`` 7.3 and 7.4 do (:data:`KT21_MOVEMENT`; :meth:`increment_cost`).

    Attributes:
        name: the ruleset's name (``"kt24"``, ``"kt21"``), for messages.
        short_increment: an increment shorter than this counts as this (inches; KT21 1").
        climb_step: vertical climbing counts in steps of this, rounded up (inches; KT21 2").
        scalable_above: terrain taller than this is Scalable: climbing it, the last vertical
            step under ``climb_step`` is ignored instead of rounded up (inches; KT21 4", 7.4;
            the terrain's height is the top of the level climbed onto).
        drop_step: vertical dropping counts in steps of this, rounded down (a drop under one
            step is free; inches; KT21 2").
        drop_max: the most one drop may fall (inches; KT21 6", UNCONFIRMED 18.5).
        traverse_cost: what going up and over a Traversable part costs on top of the
            horizontal distance (inches; KT21 2").
        jump_gap: the widest gap a jump crosses, horizontally (inches; KT21 3",
            UNCONFIRMED 18.5).
        jump_rise: the most a jump may land higher or lower (inches; KT21 2", UNCONFIRMED).
        jump_test: whether a jump needs a D6 test (1 fails; KT21 7.4): the game rules roll
            it, the queries only say which increments are jumps.
        fly: the FLY keyword (KT21 7.3): vertical distance on and over terrain counts
            nothing, any gap and any drop is crossed, no jump test.
        ramparts: whether a move crosses the ramparts on a Vantage level's edge
            (:mod:`engine.geometry.move_ramparts`, KT21 7.4 and DC 16.10:
            :meth:`rampart_cost`); KT24's graph keeps them blocking (``False``).
    """

    name: str = "kt24"
    short_increment: float = 0.0
    climb_step: float = 0.0
    scalable_above: float = math.inf
    drop_step: float = 0.0
    drop_max: float = math.inf
    traverse_cost: float = 0.0
    jump_gap: float = math.inf
    jump_rise: float = math.inf
    jump_test: bool = False
    fly: bool = False
    ramparts: bool = False

    @property
    def is_kt24(self) -> bool:
        """Whether these are KT24's rules (the links' own :meth:`_Link.cost` applies)."""
        return self.name == "kt24"

    def with_fly(self, fly: bool) -> MovementRules:
        """These rules for an operative with (``True``) or without the FLY keyword."""
        return self if fly == self.fly else attrs.evolve(self, fly=fly)

    def horizontal(self, length: float) -> float:
        """What a horizontal increment of ``length`` inches counts (7.3): its length, or
        :attr:`short_increment` when it is shorter (0 for no movement)."""
        if length <= _ROUND_TOL:
            return 0.0
        return max(self.short_increment, length)

    def climb_cost(self, rise: float, top: float = 0.0) -> float:
        """What climbing ``rise`` inches counts vertically (7.4): steps of
        :attr:`climb_step` rounded up, or down when the terrain is Scalable (its top ``top``
        higher than :attr:`scalable_above`, inches); nothing with FLY."""
        if self.fly or rise <= 1e-6:
            return 0.0
        step = self.climb_step or 1.0
        if max(top, rise) > self.scalable_above + 1e-6:
            return step * math.floor(rise / step + 1e-6)
        return step * math.ceil(rise / step - 1e-6)

    def drop_cost(self, drop: float) -> float:
        """What dropping ``drop`` inches counts vertically (7.4): steps of :attr:`drop_step`
        rounded down (under one step is free); nothing with FLY."""
        if self.fly or drop <= 1e-6:
            return 0.0
        step = self.drop_step or 1.0
        return step * math.floor(drop / step + 1e-6)

    def increment_cost(
        self, link: _Link, *, gap: float = 0.0, traversable: bool = False, top: float = 0.0
    ) -> float | str:
        """What the increment ``link`` counts under these (not KT24's) rules, in inches, or
        why it is not a legal increment (7.3, 7.4):

        - ``move``: :meth:`horizontal`;
        - ``climb``: horizontal + :meth:`climb_cost` of the climb onto a top at ``top``
          (no free horizontal move, 16.12);
        - ``drop``: horizontal + :meth:`drop_cost`; refused beyond :attr:`drop_max`;
        - ``jump``: the horizontal distance alone; refused for a gap wider than
          :attr:`jump_gap` or a landing more than :attr:`jump_rise` higher or lower;
        - ``over`` (a part on the floor): horizontal + :attr:`traverse_cost` when every part
          crossed is Traversable (``traversable``), else the climb up and the drop down.

        Accessible and Obstructing extras (Close Quarters, UNCONFIRMED 18.14) count as KT24's.

        Args:
            link: the increment (its kind, horizontal, climb and drop in inches).
            gap: for a jump, the horizontal gap between the two terrain features (inches).
            traversable: for ``over``, whether every part crossed is Traversable.
            top: the height of the surface climbed onto (inches; the terrain's height, for
                Scalable).
        """
        h = self.horizontal(link.horizontal)
        extra = ACCESSIBLE_COST * link.crossings + OBSTRUCTING_COST * link.obstructing
        if link.kind == "jump" and not self.fly:
            if gap > self.jump_gap + _TOL:
                return f'a jump crosses a gap of at most {self.jump_gap:g}" ({gap:.2f}" here)'
            vertical = max(link.climb, link.drop)
            if vertical > self.jump_rise + 1e-6:
                return (
                    f'a jump lands at most {self.jump_rise:g}" higher or lower '
                    f'({vertical:g}" here): climb or drop instead'
                )
            return h + extra
        if link.kind == "over":
            if self.fly:
                return h + extra
            if traversable:
                return h + self.traverse_cost + extra
        if link.drop > self.drop_max + 1e-6 and not self.fly:
            return f'a drop falls at most {self.drop_max:g}" ({link.drop:g}" here)'
        return h + self.climb_cost(link.climb, top) + self.drop_cost(link.drop) + extra

    def rampart_cost(
        self, link: _Link, *, level: float, traversable: bool, up: bool
    ) -> float | str:
        """What the ``rampart`` increment ``link`` counts (``rules/KT21.md`` 7.4, DC 16.10;
        :mod:`engine.geometry.move_ramparts`), in inches, or why it is not legal:

        - ``up`` (floor to the level ``level`` inches high, the rampart's top ``T`` =
          ``link.climb``): the cheaper of climbing the wall (``level``) then traversing the
          rampart (:attr:`traverse_cost`; only when ``traversable``), and climbing the
          rampart's full height as one climb (onto a top ``T``, Scalable above
          :attr:`scalable_above`) with the small drop onto the floor counted as a drop
          (nothing under :attr:`drop_step`: the DC's "ignored");
        - down (``link.drop`` = ``T``): a ``traversable`` rampart is traversed first, then
          the drop from ``level``; any other is climbed (``T - level``) and dropped from
          (``T``); refused when that drop is beyond :attr:`drop_max`.

        The horizontal distance counts as well (16.12); with FLY only the horizontal.

        Args:
            link: the increment (horizontal, climb and drop in inches).
            level: the Vantage level's height (inches).
            traversable: whether every rampart crossed is Traversable.
            up: onto the level (``True``) or off it.
        """
        h = self.horizontal(link.horizontal)
        if self.fly:
            return h
        if up:
            top = link.climb
            over = h + self.climb_cost(top, top) + self.drop_cost(link.drop)
            if traversable:
                over = min(over, h + self.climb_cost(level, level) + self.traverse_cost)
            return over
        top = link.drop
        fall = level if traversable else top
        if fall > self.drop_max + 1e-6:
            return f'a drop falls at most {self.drop_max:g}" ({fall:g}" here)'
        if traversable:
            return h + self.traverse_cost + self.drop_cost(level)
        return h + self.climb_cost(link.climb, top) + self.drop_cost(top)


KT24_MOVEMENT = MovementRules()
"""KT24's movement rules (``rules/KT24.md`` 3.3), the default of every movement query."""

KT21_MOVEMENT = MovementRules(
    name="kt21",
    short_increment=1.0,
    climb_step=2.0,
    scalable_above=4.0,
    drop_step=2.0,
    drop_max=6.0,
    traverse_cost=2.0,
    jump_gap=3.0,
    jump_rise=2.0,
    jump_test=True,
    ramparts=True,
)
"""KT21's movement rules (``rules/KT21.md`` 7.3, 7.4; drop limit and jump gap UNCONFIRMED
18.5)."""


def _bevel_buffer(geom: BaseGeometry, distance: float) -> BaseGeometry:
    """``geom`` grown by ``distance`` with corners bevelled tangentially (contains the exact
    rounded offset)."""
    return geom.buffer(distance, join_style="mitre", mitre_limit=1.0)


def _passable(kz: Killzone, i: int, base_mm: float) -> bool:
    """Whether part ``i`` can be moved through/under (4.6, 9.3)."""
    types = kz.part_types(i)
    if TerrainType.WALL in types:
        return False
    if TerrainType.ACCESSIBLE in types or TerrainType.INSIGNIFICANT in types:
        return True
    return TerrainType.CEILING in types and base_mm <= CEILING_MAX_BASE_MM


_TYPE_ORDER = (
    TerrainType.WALL,
    TerrainType.HEAVY,
    TerrainType.BLOCKING,
    TerrainType.LIGHT,
    TerrainType.OBSTRUCTING,
    TerrainType.VANTAGE,
    TerrainType.ACCESSIBLE,
    TerrainType.INSIGNIFICANT,
    TerrainType.EXPOSED,
    TerrainType.CEILING,
)


def _describe(kz: Killzone, i: int) -> str:
    """``Heavy terrain 'north ruin'``: the part's main type and its feature's name."""
    types = kz.part_types(i)
    kind = next((t.value for t in _TYPE_ORDER if t in types), "untyped")
    return f"{kind} terrain {kz.features[kz.parts[i].feature]!r}"


def _pieces(a: XY, b: XY, geom: BaseGeometry) -> list[tuple[float, float]]:
    """Parameter intervals ``[t0, t1]`` (0 at ``a``, 1 at ``b``) of the segment inside
    ``geom`` (closed), sorted."""
    if a == b:
        return [(0.0, 1.0)] if geom.covers(Point(a)) else []
    inter = shapely.intersection(LineString([a, b]), geom)
    if inter.is_empty:
        return []
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    d2 = dx * dx + dy * dy
    out: list[tuple[float, float]] = []
    for part in shapely.get_parts(shapely.get_parts(inter)):
        c = shapely.get_coordinates(part)
        if c.size == 0:
            continue
        t = ((c[:, 0] - ax) * dx + (c[:, 1] - ay) * dy) / d2
        out.append((float(t.min()), float(t.max())))
    out.sort()
    return out


def _first_t(
    lines: NDArray[np.object_], a: FloatArray, b: FloatArray, geom: BaseGeometry, empty: float
) -> FloatArray:
    """For each line ``a[k] -> b[k]`` (``lines[k]``, not a point), the parameter where it
    first meets ``geom`` (the first piece's start, as :func:`_pieces` computes it), or
    ``empty``."""
    out = np.full(a.shape[0], math.inf)
    coords, idx = shapely.get_coordinates(shapely.intersection(lines, geom), return_index=True)
    if coords.size:
        ax, ay = a[idx, 0], a[idx, 1]
        dx, dy = b[idx, 0] - ax, b[idx, 1] - ay
        d2 = dx * dx + dy * dy
        t = ((coords[:, 0] - ax) * dx + (coords[:, 1] - ay) * dy) / d2
        np.minimum.at(out, idx, t)
    return np.where(np.isinf(out), empty, out)


def _lerp(a: XY, b: XY, t: float) -> XY:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _sub(a: XY, b: XY, t0: float, t1: float) -> LineString | None:
    """The sub-segment between parameters ``t0`` and ``t1`` (``None`` if it is a point)."""
    if t1 - t0 <= 1e-9:
        return None
    return LineString([_lerp(a, b, t0), _lerp(a, b, t1)])


DERIVED_MEMO = "derived"
"""The graph memo (:meth:`MoveGraph.memo <engine.geometry.move_graph.MoveGraph.memo>`) in which
a derived graph keeps its reuse record (:class:`engine.geometry.move_derive._Reuse`, key
``"reuse"``) for the links computed outside the graph's own tables (the ramparts',
:mod:`engine.geometry.move_ramparts`)."""

KT18_MOVEMENT = attrs.evolve(KT21_MOVEMENT, name="kt18", short_increment=0.0, jump_test=False)
"""KT18's movement rules (``rules/KT18.md`` 3.2, 3.3, 10.6): a placeholder (a move counts its
path's length; climbing and dropping as KT21 counts them, vertical distance against the
move) until the KT18 terrain rules give their own values."""
