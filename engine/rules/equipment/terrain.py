"""Equipment terrain in play (``rules/KT24.md`` 7.2): Light and Heavy Barricades, Razor
Wire and Ladders are terrain like any other once set up (their types and the movement costs
of Obstructing and ladders are geometry; their shapes: :mod:`engine.rules.equipment.shapes`);
this module plays what the portable barricade adds:

- **Portable**: it gives cover only to an operative connected to it
  (:func:`engine.rules.equipment.shapes.connected`); for anyone else it is not a cover feature.
- **Protective**: while an operative is in cover from it, its Save is improved by 1 (to a
  maximum of 2+).
- **Move with Barricade** (1AP unique action of an operative connected to it; treated as a
  Reposition, so not in the activation of a Fall Back or Charge and not within control range
  of an enemy): it moves as a Reposition of at most its Move minus 2", in one straight
  increment on its level (the project's simplification of "cannot climb, drop or jump": the
  listed destinations are straight moves, and any destination whose shortest path climbs,
  drops or jumps is refused), the barricade lifted off the killzone while it moves; then the
  barricade is set up connected to it again on the side it was on (or the first free side,
  :func:`engine.rules.equipment.restrictions.portable_barricade_spots`), more than 2" from
  other equipment terrain, access points and Accessible terrain; if no side is free the
  barricade is lost. Any operative connected to a portable barricade may move it (the text's
  "connected to the inside" is not modelled).
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import sight
from engine.geometry.extra_terrain import FeatureSpec
from engine.geometry.movement import MoveError, shortest_path
from engine.rules.equipment.restrictions import portable_barricade_spots
from engine.rules.equipment.shapes import SHAPES, connected, equipment_feature

__all__ = ["MOVE_WITH_BARRICADE", "MoveWithBarricade", "install"]

_KIND = "portable_barricade"
_REACH = math.hypot(SHAPES[_KIND].length, SHAPES[_KIND].depth) / 2 + 0.05
"""Inches from a portable barricade's centre beyond which no base edge can touch it."""
_DIRS = tuple((math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8))


def _barricades(w: Work) -> list[Token]:
    return [t for t in w.tokens if t.kind == _KIND and t.feature is not None]


def _feature_tokens(w: Work, indices: frozenset[int]) -> dict[int, Token]:
    """Feature index (in ``w.kz.features``) -> portable barricade token, for ``indices``."""
    names = {t.feature.name: t for t in _barricades(w)}
    if not names:
        return {}
    feats = w.kz.features
    return {i: names[feats[i]] for i in indices if feats[i] in names}


def _portable(w: Work, tg: sight.Targeting, **info: Any) -> sight.Targeting:
    """Portable: no cover from a portable barricade the target is not connected to."""
    if not tg.cover_features:
        return tg
    mine = _feature_tokens(w, tg.cover_features)
    if not mine:
        return tg
    target = w.place(w.op(info["target"]))
    drop = frozenset(i for i, t in mine.items() if not connected(target, t.feature))
    if not drop:
        return tg
    cover = tg.cover_features - drop
    return attrs.evolve(tg, cover_features=cover, in_cover=bool(cover - tg.obscuring_features))


def _protective(w: Work, save: int, **info: Any) -> int:
    """Protective: Save improved by 1 (best 2+) in cover from a portable barricade."""
    tg = info["tg"]
    if _feature_tokens(w, tg.cover_features - tg.obscuring_features):
        return max(2, save - 1)
    return int(save)


@attrs.frozen(slots=True)
class MoveWithBarricade:
    """The Move with Barricade action (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Move with Barricade"
    text: str = "move with barricade"
    ap: int = 1
    family: str = "Reposition"

    def _token(self, w: Work, o: OperativeState) -> Token | None:
        me = w.place(o)
        for t in _barricades(w):
            # Far from the barricade's centre (more than its half-length and the base's
            # radius, with room), the base cannot touch it: skip the geometry.
            if math.hypot(t.x - me.x, t.y - me.y) > _REACH + me.radius:
                continue
            if connected(me, t.feature):
                return t
        return None

    def _limit(self, w: Work, o: OperativeState) -> float:
        """Its Move stat less 2" (7.2); in a counteraction at most what is left of its 2"
        (1.6)."""
        limit = max(0.0, w.move_stat(o) - 2.0)
        left = universal.counteract_left(w, o.id)
        return limit if left is None else min(limit, left)

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why it cannot be performed (connected, enemy control range, the destination)."""
        if self._token(w, o) is None:
            return f"{o.id} is not connected to a portable barricade (7.2 Move with Barricade)"
        if w.in_enemy_control_range(o):
            return "Move with Barricade cannot be performed within control range of an enemy (7.2)"
        if a.point is None:
            return "Move with Barricade needs a destination ('at x,y')"
        if self._path(w, o, a.point) is None:
            return (
                f'no straight move of at most {self._limit(w, o):g}" on its level reaches '
                f'({a.point[0]:g}, {a.point[1]:g}) (7.2 Move with Barricade: Move -2", no '
                'climb, drop or jump; in a counteraction at most 2" in all, 1.6)'
            )
        return None

    def _path(self, w: Work, o: OperativeState, point: tuple[float, float, float]) -> Any:
        token = self._token(w, o)
        if token is None or abs(point[2] - o.elevation) > 1e-6:
            return None
        rest = tuple(
            t.feature for t in w.tokens if isinstance(t.feature, FeatureSpec) and t is not token
        )
        kz = w.ctx.killzone_for(w.open_hatchways, rest + w.move_terrain(o))
        try:
            path = shortest_path(
                kz,
                w.place(o),
                point,
                action="reposition",
                enemies=[w.place(e) for e in w.enemies_of(o.id)],
                friends=[w.place(f) for f in w.friends_of(o.id)],
                move=w.move_stat(o),
                max_cost=self._limit(w, o),
            )
        except MoveError:
            return None
        if path is None or len(path.points) != 2:
            return None
        if any(abs(p[2] - o.elevation) > 1e-6 for p in path.points):
            return None
        return path

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP: not connected to a portable
        barricade (a :class:`~engine.game.rule_actions.RuleActionLike` shortcut)."""
        return self._token(w, o) is not None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """Straight moves in 8 directions, the whole distance and half of it."""
        if self._token(w, o) is None or w.in_enemy_control_range(o):
            return []
        full = math.floor(self._limit(w, o) + 1e-9)
        out = []
        for ux, uy in _DIRS:
            for dist in sorted({full, max(1, full // 2)}):
                if dist <= 0:
                    continue
                pt = (round(o.x + ux * dist, 3), round(o.y + uy * dist, 3), o.elevation)
                if self._path(w, o, pt) is not None:
                    out.append(Action("Act", op=o.id, text=self.text, point=pt))
        return out

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Lift the barricade, move, set it up connected again (or lose it)."""
        assert a.point is not None
        token = self._token(w, o)
        path = self._path(w, o, a.point)
        assert token is not None and path is not None
        side = (token.x - o.x, token.y - o.y)
        w.tokens = [t for t in w.tokens if t is not token]
        f = path.final
        universal.note_counteract_move(w, o.id, path.cost)
        w.set_op(o.id, x=f.x, y=f.y, elevation=f.elevation, moved=True)
        universal.carry_along(w, o.id)
        w.emit(
            "moved",
            op=o.id,
            action="move with barricade",
            x=f.x,
            y=f.y,
            z=f.elevation,
            cost=path.cost,
            x0=o.x,
            y0=o.y,
        )
        others = tuple(t.feature for t in w.tokens if isinstance(t.feature, FeatureSpec))
        spots = portable_barricade_spots(w.kz, w.place(w.op(o.id)), others)
        if not spots:
            w.emit("equipment_lost", player=token.owner, item="Portable Barricade", name=token.name)
            return
        x, y, angle = min(
            spots, key=lambda s: (math.hypot(s[0] - f.x - side[0], s[1] - f.y - side[1]), s)
        )
        feature = equipment_feature(_KIND, x, y, angle, name=token.name)
        w.tokens.append(attrs.evolve(token, x=x, y=y, angle=round(angle), feature=feature))
        w.emit("barricade_moved", op=o.id, name=token.name, x=x, y=y)


MOVE_WITH_BARRICADE = MoveWithBarricade()


def install(hooks: Hooks) -> None:
    """Subscribe Portable, Protective and Move with Barricade (for both players: any
    operative connected to a portable barricade may move it)."""
    hooks.transform("would_target", _portable)
    hooks.transform("would_save_in_cover", _protective)
    hooks.action(MOVE_WITH_BARRICADE, ("A", "B"))
