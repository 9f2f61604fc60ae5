"""Movement: the shortest legal path of a move action and its KT24 cost.

Rules: ``rules/KT24.md`` sections 3.2 (Reposition, Dash, Fall Back, Charge), 3.3 (increments
rounded up, climbing, dropping, jumping, bases), 4.1-4.2 (distances, control range), 4.6
(Accessible, Insignificant, Ceiling, Vantage), 9.3 (walls, hatchways); decisions 2 (anyone may
jump off terrain) and 10 (3D distances between levels); ``EDGE_CASES.md`` 12, 14 and 15.
All lengths are in inches, base sizes in millimetres.

Model
-----
The killzone is cut into **levels**: the floor, and one level per connected group of Vantage
parts of equal height (Vantage parts that are Insignificant are not levels: an operative on
them is on the floor). On each level the centre of a base of radius ``r`` may be

- in the level's **strict** region (where a base may finish): on the board with the whole
  base (board shrunk by ``r``); for a Vantage level, the centre over the level's footprint
  (the criterion of :meth:`Killzone.standing_part`); and at least ``r`` from every part that
  blocks the level (a part taller than the level that is not Accessible, not Insignificant
  and not a Ceiling a base of 50 mm or less can move under; Wall parts always block);
- in its **passage** region (where the centre may pass): the strict region, plus the band
  within ``r`` of an Accessible part outside the blocking footprints. Only the base's centre
  needs to pass through an Accessible part (4.6), so a base crosses a doorway narrower than
  itself; every increment whose centre line *enters* an Accessible part pays +1".

Obstacles are buffered with a mitre join bevelled at the buffer distance (a polygon that
contains the exact rounded offset, so paths are never closer than ``r`` to terrain; around a
90-degree corner a path is at most about 0.09 x r longer than the exact one) and one
thousandth of an inch more, to absorb the 0.001" position grid.

:class:`MoveGraph` (built once per killzone, hatchway state and base size, cached by
:func:`move_graph`; a hatchway state's graph is derived from a nearby state's, recomputing only
the links that pass near a toggled hatchway, :meth:`MoveGraph.derive`) is a directed graph
(viewable as a ``networkx.DiGraph``). Its nodes are the reflex corners of
every level's passage region (a visibility graph); the mitre points of obstacle corners
(turning a corner there is one bend instead of two, so one rounded increment fewer); and
**portal** points every inch around Vantage levels and climbable parts (just outside, on the
level below, and just inside, on the level itself). Its edges are **links**, each one
straight increment:

- ``move``: a straight line inside one level's passage region; cost: the length rounded up to
  the next whole inch, +1" per Accessible part entered (3.3, 4.6).
- ``climb``: from a lower level onto a Vantage level, starting with the base within 1"
  horizontally of it, at most 3" up (the 3.3 "within 3" vertically" read as the most one
  climb can rise); cost: horizontal length + the rise counted as at least 2", rounded up.
- ``drop``: off a Vantage level onto a lower level, landing at most 4" horizontally beyond
  the edge (jumping off, decision 2); the first 2" of vertical drop per action are free
  (the allowance is shared by every drop of the action).
- ``jump``: between Vantage levels whose footprints are apart, the gap at most 4"
  horizontally, in one increment; landing at most 1" higher is free, higher is a climb,
  lower a drop.
- ``over``: on the floor, climbing over non-Vantage, non-Wall parts at most 3" high (one
  connected group per increment) and dropping on the other side; the base starts and lands
  within 1" of them; cost: horizontal + the climb (at least 2") + the counted drop, + 1" per
  Obstructing feature crossed over (razor wire, 4.6 and 7.2: the increment starts and ends
  within 1" of it, so it crosses over it within 1").

The costs above are KT24's. Every query takes a :class:`MovementRules` (``rules=``,
:data:`KT24_MOVEMENT` by default): another ruleset's values count the same links its own way
and refuse those its limits forbid (:data:`KT21_MOVEMENT`, ``rules/KT21.md`` 7.3, 7.4:
:meth:`MoveGraph.ruled_cost`); the graph itself is the same for every ruleset.

Equipment terrain (7.2) joins the killzone through :meth:`Killzone.with_terrain`; its graph
is derived from the layout's (:meth:`MoveGraph.derive`). A **ladder** (a part of type
``Ladder``, standing against the features whose parts its footprint touches) makes a
``climb`` or ``over`` increment up such a feature count 1" vertically instead of the climb
(at least 2"), when the ladder is within 1" of the base from where the base first touches the
terrain to where its centre is over it (control range for the whole climb; the ladder's
visibility is not checked). Once per action: the search weighs every ladder climb at 1" (as
it does the free drop), the returned path's cost counts only the first ladder climb of the
action at 1"; a path with two ladder climbs may therefore cost more than the search thought
and, past the action's distance, not be returned (a documented approximation).

A query (:func:`shortest_path`) adds the start, the destination and, around enemies, the
corners of octagons circumscribing their **zones** (their base grown by the mover's base; when
the action forbids it, their control range: 1" more, or less between levels, decision 10),
prunes every node outside the ellipse of points reachable within the action's distance, and
runs A* on the cost (ties broken by length). Friendly bases are passable.

Simplifications (documented approximations):

- Paths bend only at graph nodes; with per-increment rounding a path bending in open ground
  can occasionally be 1" cheaper than the one found.
- The search charges the free 2" of drop to every drop link; the returned cost is exact (the
  allowance is per action). A path whose exact cost exceeds the allowance is not returned.
- During the search, an enemy's control range is first a disc around it (a prefilter);
  when terrain lies within that disc, nodes and links inside it are checked with the exact
  :func:`~engine.geometry.sight.within_control_range` (visible and within 1", 4.2), links
  every 0.05" as :func:`check_path` does, so an operative beside an enemy behind a wall or
  a closed hatchway moves freely. A link between levels keeps the disc (conservative). The
  start and the destination always use the exact check.
- A Charge that enters the control range of an enemy no other friendly engages cannot leave
  it (3.2): a link out of, or across, such a range (a disc) is refused, so the rest of the
  path stays inside it. A Charge a rule lets leave the control range it starts within
  (``leave_control_range``) may enter it again only to finish there: the path found is
  checked, and refused if it enters it again and leaves it (no dearer path is looked for).
- A query may name extra regions to keep out of (``avoid=`` of :func:`shortest_path`, a
  rule's: e.g. near an operative whose rule makes a move passing there dearer); they are
  zones checked as an enemy's exact control range is, with the rule's test.
- Climbing over parts is modelled on the floor only; climbing a Vantage level uses the 1"
  start rule but not the "terrain visible to the operative" condition; Hazardous terrain is
  not modelled. A part standing on a Vantage level's edge (a rampart) blocks the level in the
  graph; KT21's rules cross it (``rampart`` links, :mod:`engine.geometry.move_ramparts`,
  ``rules/KT21.md`` 16.10) when :attr:`MovementRules.ramparts` is on; KT24's own reading of
  ramparts is not modelled.
- Stairs and slopes (a part with the layout field ``stairs``) are crossed by ``stairs``
  links, horizontal movement measured along the slope with no climb, in every ruleset
  (:mod:`engine.geometry.move_stairs`; ``rules/KT21.md`` 16.14, ``rules/KT24.md``
  decision 7). Jumping or dropping off a Vantage level over razor
  wire does not count as crossing over it (only ``over`` increments pay Obstructing).
- The straight-line shortcuts (the direct ``move`` link of :func:`shortest_path`, the
  straight costs of :func:`reachable_with_costs`) only apply to plain moves inside a level's
  passage region; Obstructing and ladder parts never change such a move (razor wire blocks the
  floor like other climbable terrain, a ladder is Insignificant), so no shortcut skips them.

The code lives in these modules, each importing only those listed before it:
:mod:`engine.geometry.move_values` (the rules' distances and costs, levels and links),
:mod:`engine.geometry.move_stairs` (stairs and slopes),
:mod:`engine.geometry.move_ramparts` (ramparts crossed under KT21),
:mod:`engine.geometry.move_links` (the link classifier),
:mod:`engine.geometry.move_base` (what the graph's builders read of a graph),
:mod:`engine.geometry.move_levels` (a graph's levels and nodes),
:mod:`engine.geometry.move_derive` (links taken from another state's graph),
:mod:`engine.geometry.move_fill` (computing the links), :mod:`engine.geometry.move_graph`
(the graph, its build and derivation), :mod:`engine.geometry.graph_cache` (the graphs cached
in memory and on disk: :func:`move_graph`), :mod:`engine.geometry.move_query` (a move's
action, zones and checks, and the results), :mod:`engine.geometry.move_paths` (the path
search, explicit paths and their cost) and :mod:`engine.geometry.move_destinations` (which
destinations a move reaches, for listing legal actions and for agents). This module is their
public face.
"""

from engine.geometry.graph_cache import move_graph
from engine.geometry.move_destinations import (
    ReachMemo,
    candidate_destinations,
    reachable,
    reachable_with_costs,
    straight_reach,
)
from engine.geometry.move_graph import MoveGraph
from engine.geometry.move_paths import check_path, move_cost, shortest_path
from engine.geometry.move_query import Increment, MoveError, MovePath, max_move
from engine.geometry.move_values import (
    ACCESSIBLE_COST,
    CHARGE_BONUS,
    CLIMB_MAX,
    CLIMB_MIN_COST,
    CLIMB_RANGE,
    DASH_DISTANCE,
    FREE_DROP,
    JUMP_FREE_RISE,
    JUMP_MAX,
    KT21_MOVEMENT,
    KT24_MOVEMENT,
    LADDER_CLIMB_COST,
    OBSTRUCTING_COST,
    Level,
    MoveAction,
    MovementRules,
)

__all__ = [
    "ACCESSIBLE_COST",
    "CHARGE_BONUS",
    "CLIMB_MAX",
    "CLIMB_MIN_COST",
    "CLIMB_RANGE",
    "DASH_DISTANCE",
    "FREE_DROP",
    "JUMP_FREE_RISE",
    "JUMP_MAX",
    "KT21_MOVEMENT",
    "KT24_MOVEMENT",
    "LADDER_CLIMB_COST",
    "OBSTRUCTING_COST",
    "Increment",
    "Level",
    "MoveAction",
    "MoveError",
    "MoveGraph",
    "MovePath",
    "MovementRules",
    "ReachMemo",
    "candidate_destinations",
    "check_path",
    "max_move",
    "move_cost",
    "move_graph",
    "reachable",
    "reachable_with_costs",
    "shortest_path",
    "straight_reach",
]
