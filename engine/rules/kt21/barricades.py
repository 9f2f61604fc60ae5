"""KT21 barricades (``rules/KT21.md`` 1.2 step 7, 1.2 step 9 Fortify, 1.3, 1.4, 9; DC 16.36).

- **Set-up** (:func:`start`, after the set-up steps and before deployment): the Defender
  first, the players alternate setting up one barricade at a time until each has set up
  :data:`PER_PLAYER` (two each; Lite: four in total, the same). Each is set up on the
  killzone floor with some part within :data:`DROP_ZONE_REACH` (6") of its player's drop
  zone, more than :data:`BARRICADE_GAP` (2") from every other barricade, and not on a
  terrain part unless the part is Insignificant.
- **Fortify** (:func:`fortify_frame`, the scouting option): one more barricade wholly within
  its player's territory, not on a terrain part unless Insignificant (DC 16.36). Critical
  Operations 2022 also allows it on a Vantage Point: not offered (the engine sets barricades
  up on the floor only; reported with a ``rule_not_played`` event when Fortify is resolved).
- **Shape** (UNCONFIRMED, digest 18.4: the Core Book's size is lost): KT24's Light Barricade
  (:data:`engine.rules.equipment.shapes.SHAPES` ``light_barricade``: 3" x 0.5", 1" high,
  Light), which the KT21 sight reads as **Light + Traversable**
  (:func:`engine.geometry.kt21_sight.part_traits`: Light, at most 2" high).
- **Decisions**: ``equipment_setup``, ``Set up barricade at x,y,0 <angle>`` among at most
  :data:`MAX_SPOTS` deterministic candidates (a 1" grid at 0 and 90 degrees, spread over
  the area); any legal spot is accepted. A player with no legal spot left sets up no more
  (reported, ``rule_not_played``).

Each barricade is a :class:`~engine.game.tokens.Token` of kind :data:`KIND` carrying its
terrain feature (:meth:`engine.geometry.Killzone.with_terrain`); scripted positions build
them with ``[[position.tokens]] kind = "barricade"``.
"""

from __future__ import annotations

import functools
import math

import attrs
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.state import other
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Killzone, TerrainType
from engine.rules.equipment.shapes import equipment_feature, equipment_parts
from engine.rules.kt21 import roles

__all__ = [
    "BARRICADE_GAP",
    "DROP_ZONE_REACH",
    "KIND",
    "MAX_SPOTS",
    "PER_PLAYER",
    "SHAPE",
    "BarricadeFrame",
    "candidate_spots",
    "fortify_frame",
    "install",
    "placement_problem",
    "start",
]

KIND = "barricade"
"""The token kind of a KT21 barricade."""
SHAPE = "light_barricade"
"""The shape used (UNCONFIRMED 18.4: KT24's Light Barricade, module docstring)."""
PER_PLAYER = 2
"""Barricades each player sets up before deployment (1.2 step 7; Lite: four in total)."""
DROP_ZONE_REACH = 6.0
"""A barricade is set up within ⬟ (6") of its player's drop zone (1.2 step 7)."""
BARRICADE_GAP = 2.0
"""More than ● (2") from every other barricade (1.2 step 7)."""
MAX_SPOTS = 16
"""The most candidate spots listed per decision."""
_EPS = 1e-6
_ITEM = "Barricade"


@functools.lru_cache(maxsize=4096)
def _footprint(x: float, y: float, angle: float) -> Polygon:
    # (pure in its arguments; shapely 2 geometries are immutable: safe to share)
    return Polygon(equipment_parts(SHAPE, x, y, angle)[0].polygon)


def _barricades(w: Work) -> list[Token]:
    return [t for t in w.tokens if t.kind == KIND]


def _drop_zone(w: Work, player: str) -> BaseGeometry:
    return w.ctx.killzone.drop_zones[w.pl(player).drop_zone]


def _territory(w: Work, player: str) -> BaseGeometry:
    zone = w.pl(player).drop_zone
    kz = w.ctx.killzone
    return kz.territories.get(zone, kz.drop_zones[zone])


def _grown(kz: Killzone, key: object, area: BaseGeometry) -> BaseGeometry:
    """``area`` (the board, a territory of ``kz``) grown by the tolerance, kept on ``kz``."""
    memo: dict[object, BaseGeometry] = kz._cache.setdefault("kt21 barricade areas", {})
    got = memo.get(key)
    if got is None:
        got = memo[key] = area.buffer(_EPS)
        shapely.prepare(got)
    return got


def placement_problem(
    w: Work, player: str, point: tuple[float, float, float], angle: int, *, fortify: bool
) -> str | None:
    """Why ``player`` cannot set up a barricade at ``point`` (inches) turned ``angle``
    degrees (module docstring; ``fortify``: the Fortify barricade's rules), or ``None``."""
    x, y, z = point
    if z != 0:
        return "a barricade is set up on the killzone floor (elevation 0)"
    if not 0 <= angle < 360:
        return f"the angle must be 0 to 359 degrees, not {angle}"
    foot = _footprint(x, y, angle)
    kz = w.kz
    if not _grown(kz, "board", kz.board).contains(foot):
        return "a barricade must be set up wholly on the killzone"
    if fortify:
        territory = _territory(w, player)
        if not _grown(kz, ("territory", w.pl(player).drop_zone), territory).contains(foot):
            return "the Fortify barricade must be wholly within its player's territory (1.2 step 9)"
    else:
        gap = _drop_zone(w, player).distance(foot)
        if gap > DROP_ZONE_REACH + _EPS:
            return (
                f"a barricade must be within {DROP_ZONE_REACH:g}\" of its player's drop zone "
                f'({gap:.2f}" away) (rules/KT21.md 1.2 step 7)'
            )
        for t in _barricades(w):
            near = _footprint(t.x, t.y, t.angle).distance(foot)
            if near <= BARRICADE_GAP + _EPS:
                return (
                    f'a barricade must be more than {BARRICADE_GAP:g}" from other barricades '
                    f'({t.name} is {near:.2f}" away) (rules/KT21.md 1.2 step 7)'
                )
    for k, part in enumerate(kz.parts):
        if TerrainType.INSIGNIFICANT in kz.part_types(k):
            continue
        if part.polygon.intersects(foot) and part.polygon.intersection(foot).area > _EPS:
            return (
                f"a barricade cannot be set up on terrain ({kz.features[part.feature]}) unless "
                "it is Insignificant (rules/KT21.md 1.2 step 7, DC 16.36)"
            )
    return None


def candidate_spots(
    w: Work, player: str, *, fortify: bool
) -> list[tuple[float, float, float, int]]:
    """Deterministic legal spots ``(x, y, 0, angle)`` for ``player``'s barricade (module
    docstring): centres on a 1" grid over the area it may reach, at 0 and 90 degrees, those
    :func:`placement_problem` accepts, at most :data:`MAX_SPOTS` taken evenly through them.
    Kept in the battle's cache by what they depend on (the player, the step, the barricades
    already set up), so listing and applying one decision work them out once."""
    placed = tuple((t.owner, t.x, t.y, t.angle) for t in _barricades(w))
    key = ("kt21 barricade spots", player, fortify, w.pl(player).drop_zone, placed)
    return list(w.ctx.cached(key, lambda: _kept_spots(w, key, player, fortify=fortify)))


def _kept_spots(
    w: Work, key: tuple[object, ...], player: str, *, fortify: bool
) -> tuple[tuple[float, float, float, int], ...]:
    """:func:`_candidate_spots`, also kept on the killzone (with the barricades on it) by
    what they depend on, so every battle of a batch on that layout works them out once."""
    memo: dict[tuple[object, ...], tuple[tuple[float, float, float, int], ...]] = (
        w.kz._cache.setdefault("kt21 barricade spots", {})
    )
    got = memo.get(key)
    if got is None:
        if len(memo) >= 64:
            memo.clear()
        got = memo[key] = _candidate_spots(w, player, fortify=fortify)
    return got


def _candidate_spots(
    w: Work, player: str, *, fortify: bool
) -> tuple[tuple[float, float, float, int], ...]:
    area = (
        _territory(w, player)
        if fortify
        else _drop_zone(w, player).buffer(DROP_ZONE_REACH + 1.5).intersection(w.kz.board)
    )
    x0, y0, x1, y1 = area.bounds
    ok: list[tuple[float, float, float, int]] = []
    for i in range(math.floor(x0), math.ceil(x1) + 1):
        for j in range(math.floor(y0), math.ceil(y1) + 1):
            for angle in (0, 90):
                spot = (float(i), float(j), 0.0)
                if placement_problem(w, player, spot, angle, fortify=fortify) is None:
                    ok.append((spot[0], spot[1], 0.0, angle))
    if len(ok) <= MAX_SPOTS:
        return tuple(ok)
    step = len(ok) / MAX_SPOTS
    return tuple(ok[int(k * step)] for k in range(MAX_SPOTS))


def _token(w: Work, player: str, x: float, y: float, angle: int) -> Token:
    same = sum(1 for t in _barricades(w) if t.owner == player)
    name = f"{player} barricade {same + 1}"
    feature = equipment_feature(SHAPE, x, y, angle, name=name)
    return Token(KIND, player, name, x, y, 0.0, angle, feature=feature)


def _skipped_key(fortify: bool) -> str:
    return "kt21 fortify barricade done" if fortify else "kt21 barricades skipped"


@attrs.frozen(slots=True)
class BarricadeFrame:
    """The barricades' set-up (module docstring). ``turn``: the player to set one up next;
    ``fortify``: the one Fortify barricade of ``turn``."""

    turn: str
    fortify: bool = False

    def _left(self, w: Work, player: str) -> int:
        if self.fortify:
            return 0 if w.count(player, _skipped_key(True)) else 1
        owned = sum(1 for t in _barricades(w) if t.owner == player)
        return PER_PLAYER - owned - w.count(player, _skipped_key(False))

    def run(self, w: Work) -> None:
        players = (self.turn,) if self.fortify else (self.turn, other(self.turn))
        for p in players:
            if self._left(w, p) <= 0:
                continue
            if not candidate_spots(w, p, fortify=self.fortify):
                w.count(p, _skipped_key(self.fortify), 1)
                w.emit(
                    "rule_not_played",
                    player=p,
                    rule="a barricade",
                    why="no legal spot is left for it (rules/KT21.md 1.2 step 7)",
                )
                return
            if p != self.turn:
                w.replace_top(turn=p)
            w.decide(p, "equipment_setup")
            return
        w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice are rolled when setting up barricades")

    def options(self, w: Work) -> list[Action]:
        return [
            Action("Set up", text="barricade", point=(x, y, z), values=(angle,))
            for x, y, z, angle in candidate_spots(w, self.turn, fortify=self.fortify)
        ]

    def act(self, w: Work, a: Action) -> None:
        player = self.turn
        if a.verb != "Set up" or a.text != "barricade" or a.point is None:
            raise IllegalActionError(
                f"{a} is not possible now: {player} sets up a barricade ('Set up barricade at "
                "x,y,0 <angle>', rules/KT21.md 1.2 step 7)"
            )
        angle = a.values[0] if a.values else 0
        why = placement_problem(w, player, a.point, angle, fortify=self.fortify)
        if why:
            raise IllegalActionError(f"a barricade cannot be set up there: {why}")
        x, y, _ = a.point
        token = _token(w, player, x, y, angle)
        w.tokens.append(token)
        w.emit(
            "equipment_set_up", player=player, item=_ITEM, name=token.name, x=x, y=y, angle=angle
        )
        if self.fortify:
            w.count(player, _skipped_key(True), 1)
            w.stack.pop()
            return
        w.replace_top(turn=other(player))


def start(w: Work) -> None:
    """Push the barricades' set-up (module docstring), the Defender first."""
    w.stack.append(BarricadeFrame(turn=roles.defender(w) or "A"))


def fortify_frame(w: Work, player: str) -> BarricadeFrame:
    """The frame of ``player``'s Fortify barricade (module docstring); reports that a
    Vantage Point spot is not offered (``rule_not_played``)."""
    w.emit(
        "rule_not_played",
        player=player,
        rule="Fortify on a Vantage Point",
        why="the engine sets barricades up on the killzone floor only (rules/KT21.md 1.2 step 9)",
    )
    return BarricadeFrame(turn=player, fortify=True)


def _maker(w: Work, owner: str, x: float, y: float, z: float, angle: int) -> Token:
    if z != 0:
        raise ValueError("a barricade stands on the killzone floor (elevation 0)")
    return _token(w, owner, x, y, angle)


def install(hooks: Hooks) -> None:
    """Let scripted positions set barricades up (``kind = "barricade"`` tokens)."""
    hooks.token_maker(KIND, _maker)
