"""Tac op **Plant Banner** (Security; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Plant Banner* (mission action, 1AP; not in the first turning point, not within control
  range of an enemy operative, once per battle for the kill team): the player's Banner
  mission marker is placed within the active operative's control range, wholly within the
  opponent's territory and more than 5" from every neutral killzone edge. Notation
  ``Act KAS-1 plant banner at x,y`` (``at x,y,z`` on Vantage terrain ``z`` inches high).
  Performing it reveals the op.
- The Banner is a 20 mm mission marker (:mod:`engine.missions.mission_markers`, kind
  :data:`BANNER_KIND`) called ``"<player> banner"``. Operatives of **either** player may
  pick it up with the universal Pick Up Marker action (``Pick up LEG-2 a banner``) when
  they control it, carry it and put it down with Place Marker, or drop it where they are
  incapacitated. Control is that of every marker but an objective marker
  (:func:`engine.rules.equipment.markers.token_controller`).
- *Scoring*, at the end of each turning point after the first: if the Banner is on the
  killzone (not carried), wholly within the opponent's territory, and friendly operatives
  control it: 1VP, or 2VP when no enemy operative contests it. At most 2VP a turning point
  (the most the text gives).

Choices where the text is silent:

- "More than 5\" from a neutral killzone edge" is measured from the marker's edge; the
  neutral edges are those along which no drop zone lies (:mod:`engine.missions.territory`).
- The marker lies on the killzone floor, or on the Vantage terrain the point names; not
  inside other terrain. The listed spots are the operative's own spot and eight around it
  0.5" from its base; a script may name any point.
- A Banner put down by Place Marker lies on the level the carrier stands on when that level
  is under the point, else on the floor (:func:`engine.game.universal.marker_level`).
"""

from __future__ import annotations

import math

import attrs
from shapely.geometry import Point

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.tokens import Token
from engine.game.universal import marker_level
from engine.game.work import Work
from engine.geometry import TerrainType
from engine.geometry.model import MARKER_DIAMETER_MM
from engine.missions import mission_markers
from engine.missions.actions import common_problem, offered
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, initiative_first, score
from engine.missions.territory import edge_distance, enemy_territory, neutral_edges, wholly_within
from engine.rules.equipment.markers import token_contests, token_controller

__all__ = [
    "BANNER",
    "BANNER_KIND",
    "EDGE_GAP",
    "NAME",
    "PLANT_BANNER",
    "PlantBanner",
    "banner",
    "banner_spots",
    "spot_problem",
]

NAME = "Plant Banner"
BANNER = "banner"
"""The token kind of a Banner mission marker."""
BANNER_KIND = mission_markers.register_kind(
    mission_markers.MarkerKind(BANNER, NAME, friendly_only=False, numbered=False)
)
"""The Banner mission markers: one per player, any operative may pick one up."""

EDGE_GAP = 5.0
"""A Banner is placed more than this many inches from every neutral killzone edge."""

RADIUS = MARKER_DIAMETER_MM / 25.4 / 2
"""A Banner's radius in inches (a 20 mm marker, 4.8)."""

_SPOT_GAP = 0.5  # inches between the operative's base and a listed spot's marker
_EPS = 1e-6


def banner(w: Work, player: str) -> Token | None:
    """``player``'s Banner mission marker (``None`` until it is planted)."""
    found = mission_markers.markers_of(w, BANNER_KIND, player)
    return found[0] if found else None


def _vantage_level(w: Work, x: float, y: float, z: float) -> bool:
    return z > 0 and marker_level(w, x, y, z) > 0


def spot_problem(w: Work, o: OperativeState, point: tuple[float, float, float]) -> str | None:
    """Why ``o`` cannot plant its Banner at ``point`` (``(x, y, z)`` inches), or ``None``
    (module docstring)."""
    x, y, z = point
    kz = w.kz
    where = f"({x:g}, {y:g}" + (f", {z:g})" if z else ")")
    if z < 0 or not wholly_within(kz.board, x, y, RADIUS):
        return f"a Banner at {where} is not wholly on the killzone ({NAME})"
    if z > 0 and not _vantage_level(w, x, y, z):
        return f'there is no Vantage terrain {z:g}" high at ({x:g}, {y:g}) ({NAME})'
    if z == 0:
        centre = Point(x, y)
        for i in kz.parts_near(centre):
            k = int(i)
            part = kz.parts[k]
            if kz.has_type(k, TerrainType.INSIGNIFICANT) or part.height <= 0:
                continue
            if part.polygon.covers(centre):
                return f"a Banner at {where} would be inside terrain ({NAME})"
    if not wholly_within(enemy_territory(w, o.player), x, y, RADIUS):
        return f"the Banner must be placed wholly within the opponent's territory ({NAME})"
    for edge in neutral_edges(w):
        if edge_distance(w, edge, x, y, RADIUS) <= EDGE_GAP + _EPS:
            return (
                f'the Banner must be placed more than {EDGE_GAP:g}" from a neutral killzone '
                f"edge (the {edge} edge, {NAME})"
            )
    candidate = Token(BANNER, o.player, f"{o.player} {BANNER}", x, y, z)
    if not token_contests(w, o, candidate):
        return f"the Banner must be placed within {o.id}'s control range ({NAME}, 4.8)"
    return None


def banner_spots(w: Work, o: OperativeState) -> list[tuple[float, float, float]]:
    """The listed spots where ``o`` may plant its Banner (module docstring), in a fixed
    order: its own spot, then east, north-east, north... each allowed by
    :func:`spot_problem`."""
    raw = [(o.x, o.y, o.elevation)]
    step = w.place(o).radius + RADIUS + _SPOT_GAP
    for k in range(8):
        ang = k * math.pi / 4
        x, y = o.x + step * math.cos(ang), o.y + step * math.sin(ang)
        z = o.elevation if _vantage_level(w, x, y, o.elevation) else 0.0
        raw.append((x, y, z))
    out: list[tuple[float, float, float]] = []
    for x, y, z in raw:
        p = (round(x, 3) + 0.0, round(y, 3) + 0.0, round(z, 3) + 0.0)
        if p not in out and spot_problem(w, o, p) is None:
            out.append(p)
    return out


@attrs.frozen(slots=True)
class PlantBanner:
    """The Plant Banner mission action (module docstring; a
    :class:`~engine.game.rule_actions.RuleActionLike`)."""

    name: str = NAME
    text: str = "plant banner"
    ap: int = 1
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        why = common_problem(w, o, self.name, NAME, TAC)
        if why is not None:
            return why
        if banner(w, o.player) is not None:
            return f"a friendly operative already performed {NAME} during the battle ({NAME})"
        return None

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP
        (:func:`engine.missions.actions.offered`)."""
        return offered(w, o, NAME, TAC)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> plant banner at x,y[,z]`` for each listed spot (:func:`banner_spots`)."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, point=p) for p in banner_spots(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (the op's conditions, the spot), or ``None``."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target or a.point is None or a.text != self.text:
            return f"{NAME} names a point: 'Act {o.id} {self.text} at x,y'"
        return spot_problem(w, o, a.point)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Reveal the op and put the Banner on the killzone."""
        assert a.point is not None
        x, y, z = a.point
        reveal_tac_op(w, o.player, f"the {NAME} action")
        w.emit("mission_action", op=o.id, action=NAME, mission_op=NAME)
        t = mission_markers.add_marker(w, BANNER_KIND, o.player, (x, y, z))
        w.emit("banner_planted", player=o.player, op=o.id, marker=t.name, x=x, y=y, z=z)


PLANT_BANNER = PlantBanner()


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    for p in initiative_first(w):
        if not tac_active(w, p, NAME):
            continue
        t = banner(w, p)
        if t is None or t.carrier:
            continue
        if not wholly_within(enemy_territory(w, p), t.x, t.y, RADIUS):
            continue
        if token_controller(w, t) != p:
            continue
        if any(token_contests(w, e, t) for e in w.alive(other(p))):
            score(w, p, TAC, 1, f"{NAME}: the Banner is controlled", tp_cap=2)
        else:
            score(w, p, TAC, 2, f"{NAME}: the Banner is controlled, uncontested", tp_cap=2)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Plant Banner action, the Banner (picked up, carried and put down with the
    universal actions), and the end-of-turning-point scoring."""
    hooks.action(PLANT_BANNER, players)
    mission_markers.install(hooks, BANNER_KIND)
    hooks.on("turning_point_ending", _score)


add_template(
    "banner_planted",
    lambda e: (
        f"  {e['op']} plants {e['marker']} at ({e['x']:g}, {e['y']:g})"
        + (f' at {e["z"]:g}"' if e.get("z") else "")
    ),
)

SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Security",
        summary="Plant a banner in enemy territory; score while you control it there.",
        reveal="when a friendly operative performs the Plant Banner action",
    )
)
