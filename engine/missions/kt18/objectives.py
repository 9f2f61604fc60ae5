"""Covert War's objective markers, deployment zones and the facts the mission keeps
(``rules/KT18.md`` 9.3-9.5, 9.7).

- The facts (``state.mission.facts``): :data:`ADVANTAGE` (the players from greatest to
  least strategic advantage), :data:`PRIMARY` (the primary objective's name),
  :data:`SPLIT` (the split chosen, :data:`SPLITS`), ``"kt18 zone:A"`` (each player's
  deployment zone, :func:`zone_of`) and :data:`CACHE` (the marker Retrieve the Cache kept).
- The deployment zones are the halves of the battlefield either side of a centre line
  (9.5, the digest's reading: two players split along one of the two centre lines):
  ``west``/``east`` (either side of the short centre line, x = width / 2) and
  ``south``/``north`` (either side of the long centre line, y = depth / 2); x grows east and
  y north, as in the board pictures.
- Placement of a marker (9.3): its centre at least 8" from every other marker's centre and at
  least 6" from every battlefield edge (the digest's reading: "at least" governs both), on a
  spot of the layout where a marker can lie (not off the board nor inside Heavy terrain, as a
  layout file's markers are checked).
- Control (9.4): a player controls a marker when more of its models are within 2" of the
  marker's centre than enemy models are; shaken models (``kt18_shaken``) and models not on
  the battlefield (out of action, in reserve or in the tunnels) never count. Distances run
  from the closest point of a model's base to the marker's centre (1.1, 9.4), in three
  dimensions (a marker lies on the battlefield floor); "within" includes exactly 2" (1.1).
- Retrieve the Cache (9.7): before the Initiative phase of battle round 1 one marker is
  picked at random and the others are removed (:func:`retrieve_the_cache`).
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import shapely
from shapely.geometry import Polygon

from engine.game.actions import IllegalActionError
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.state import PLAYERS, GameState, OperativeState
from engine.game.work import Work
from engine.geometry import Killzone
from engine.geometry.primitives import Objective
from engine.missions.scoring import fact, set_fact

__all__ = [
    "ADVANTAGE",
    "CACHE",
    "CONTROL_RANGE",
    "EDGE_GAP",
    "INFILTRATE",
    "MARKER_GAP",
    "OBJECTIVES",
    "PRIMARY",
    "RETRIEVE_THE_CACHE",
    "SECURE_THE_BATTLEFIELD",
    "SPLIT",
    "SPLITS",
    "CacheFrame",
    "advantage_order",
    "controller",
    "counts_near",
    "marker_problem",
    "marker_zone",
    "primary_objective",
    "retrieve_the_cache",
    "zone_box",
    "zone_of",
]

ADVANTAGE = "kt18 advantage"
"""Fact: the players from greatest to least strategic advantage (a tuple, 9.3)."""
PRIMARY = "kt18 primary"
"""Fact: the primary objective's name (9.7)."""
SPLIT = "kt18 split"
"""Fact: the split of the battlefield chosen (a key of :data:`SPLITS`, 9.5)."""
CACHE = "kt18 cache"
"""Fact: the objective marker Retrieve the Cache kept (9.7)."""
_ZONE = "kt18 zone:{}"

SECURE_THE_BATTLEFIELD = "Secure the Battlefield"
RETRIEVE_THE_CACHE = "Retrieve the Cache"
INFILTRATE = "Infiltrate"
OBJECTIVES = (SECURE_THE_BATTLEFIELD, RETRIEVE_THE_CACHE, INFILTRATE)
"""The primary objectives by D3 result (1, 2, 3; 9.7)."""

SPLITS: dict[str, tuple[str, str]] = {
    "west east": ("west", "east"),
    "south north": ("south", "north"),
}
"""The two ways to split the battlefield between two players (9.5): the short centre line
(west and east halves) and the long centre line (south and north halves)."""

MARKER_GAP = 8.0
"""The least distance between two objective markers' centres, inches (9.3)."""
EDGE_GAP = 6.0
"""The least distance from a marker's centre to every battlefield edge, inches (9.3)."""
CONTROL_RANGE = 2.0
"""Models within this distance of a marker's centre count for its control, inches (9.4)."""

_EPS = 1e-6


def advantage_order(s: GameState | Work) -> tuple[str, ...]:
    """The players from greatest to least strategic advantage (9.3), ``()`` before the roll."""
    return tuple(s.mission.fact(ADVANTAGE, ()))


def primary_objective(s: GameState | Work) -> str:
    """The primary objective's name (:data:`OBJECTIVES`), ``""`` before its roll (9.7)."""
    return str(s.mission.fact(PRIMARY, ""))


def zone_of(s: GameState | Work, player: str) -> str:
    """``player``'s deployment zone (``"west"``...), ``""`` before it is picked (9.5)."""
    return str(s.mission.fact(_ZONE.format(player), ""))


def set_zone(w: Work, player: str, zone: str) -> None:
    """Record ``zone`` as ``player``'s deployment zone (9.5)."""
    set_fact(w, _ZONE.format(player), zone)


def zone_box(kz: Killzone, zone: str) -> Polygon:
    """The half of ``kz`` called ``zone`` (``west``, ``east``, ``south``, ``north``) as a
    rectangle in inches (9.5).

    Raises:
        KeyError: an unknown zone name."""
    w, d = kz.width, kz.depth
    boxes = {
        "west": (0.0, 0.0, w / 2, d),
        "east": (w / 2, 0.0, w, d),
        "south": (0.0, 0.0, w, d / 2),
        "north": (0.0, d / 2, w, d),
    }
    if zone not in boxes:
        raise KeyError(f"no Covert War deployment zone {zone!r} (west, east, south, north)")
    return shapely.box(*boxes[zone])


def marker_zone(s: GameState | Work, kz: Killzone, x: float, y: float) -> str:
    """The player whose deployment zone holds a marker centred at ``x``, ``y``, or ``""``
    (the digest's reading of 9.7 Infiltrate: the zone containing the centre; a centre on the
    centre line is in no zone)."""
    for p in PLAYERS:
        zone = zone_of(s, p)
        if not zone:
            continue
        minx, miny, maxx, maxy = zone_box(kz, zone).bounds
        if minx + _EPS < x < maxx - _EPS and miny + _EPS < y < maxy - _EPS:
            return p
    return ""


def marker_problem(w: Work, x: float, y: float) -> str | None:
    """Why an objective marker cannot be placed with its centre at ``x``, ``y`` (inches) now,
    naming the rule, or ``None`` (9.3; module docstring)."""
    kz = w.kz
    edge = min(x, y, kz.width - x, kz.depth - y)
    if edge < EDGE_GAP - _EPS:
        return (
            f'an objective marker at ({x:g}, {y:g}) would be {edge:.3g}" from a battlefield '
            f'edge: at least {EDGE_GAP:g}" is needed (rules/KT18.md 9.3)'
        )
    for m in w.markers:
        gap = math.hypot(m.x - x, m.y - y)
        if gap < MARKER_GAP - _EPS:
            return (
                f'an objective marker at ({x:g}, {y:g}) would be {gap:.3g}" from the marker '
                f'{m.name!r}: at least {MARKER_GAP:g}" is needed (rules/KT18.md 9.3)'
            )
    problem = kz.objective_problem(Objective("new", (x, y)))
    if problem is not None:
        return f"{problem} (rules/KT18.md 9.3)"
    return None


def _counts(w: Work, o: OperativeState) -> bool:
    """Whether ``o`` counts for objective control (9.4): on the battlefield, not out of
    action and not shaken."""
    return bool(o.placed and not o.incapacitated and not w.effects_on(o.id, "kt18_shaken"))


def _distance_to_centre(w: Work, o: OperativeState, x: float, y: float) -> float:
    p = w.place(o)
    flat = max(0.0, math.hypot(p.x - x, p.y - y) - p.radius)
    return math.hypot(flat, p.elevation)


def counts_near(w: Work, marker: str) -> dict[str, int]:
    """The number of each player's models counting for the control of ``marker`` (9.4:
    within 2" of its centre, not shaken, on the battlefield).

    Raises:
        KeyError: there is no marker ``marker``."""
    m = next((m for m in w.markers if m.name == marker), None)
    if m is None:
        raise KeyError(f"there is no objective marker {marker!r}")
    out = dict.fromkeys(PLAYERS, 0)
    for o in w.ops:
        if _counts(w, o) and _distance_to_centre(w, o, m.x, m.y) <= CONTROL_RANGE + _EPS:
            out[o.player] += 1
    return out


def controller(w: Work, marker: str) -> str:
    """The player controlling ``marker`` (9.4: more counting models within 2" than all the
    enemy models together, the digest's reading), or ``""``.

    Raises:
        KeyError: there is no marker ``marker``."""
    counts = counts_near(w, marker)
    total = sum(counts.values())
    for p, n in counts.items():
        if n > total - n:
            return p
    return ""


# -- Retrieve the Cache (9.7) ------------------------------------------------------------------


def retrieve_the_cache(w: Work) -> Any:
    """The start step of a Covert War battle (``Hooks.start_step``): at the start of battle
    round 1, before its Initiative phase, when the primary objective is Retrieve the Cache
    and more than one marker is on the battlefield, a :class:`CacheFrame`; else ``None``
    (the core also runs start steps as the battle is created: nothing happens then)."""
    if w.tp != 1 or primary_objective(w) != RETRIEVE_THE_CACHE or fact(w, CACHE):
        return None
    if len(w.markers) < 2:
        if w.markers:
            set_fact(w, CACHE, w.markers[0].name)
        return None
    return CacheFrame()


@attrs.frozen(slots=True)
class CacheFrame(NoChoiceFrame):
    """Retrieve the Cache's random pick (9.7, 1.5): one D6; the faces are shared equally among
    the markers in the order they were placed (two markers: 1-3 the first, 4-6 the second),
    a face left over is rolled again (1.5); the marker picked stays, the others are
    removed."""

    def run(self, w: Work) -> None:
        roller = (advantage_order(w) or ("A",))[0]
        w.roll("kt18_random_marker", roller, 1, label="Retrieve the Cache: the random marker")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        n = len(w.markers)
        share = 6 // n if n <= 6 else 0
        face = values[0]
        if share == 0:  # pragma: no cover - two players place two markers
            kept = w.markers[(face - 1) % n]
        elif face > share * n:
            return  # a face no marker has: rolled again (1.5)
        else:
            kept = w.markers[(face - 1) // share]
        removed = tuple(m.name for m in w.markers if m.name != kept.name)
        w.markers = [kept]
        set_fact(w, CACHE, kept.name)
        w.emit("kt18_cache_kept", marker=kept.name, removed=removed, roll=face)
        w.stack.pop()


def illegal(why: str) -> IllegalActionError:
    """An :class:`IllegalActionError` saying ``why`` (naming the rule)."""
    return IllegalActionError(why)
