"""Covert War deployment (``rules/KT18.md`` 9.5) as frames:

1. :class:`SplitFrame`: the least-advantage player splits the battlefield into two equal
   halves along one of its two centre lines (the digest's reading for two players):
   ``Op split west east`` (the short centre line) or ``Op split south north`` (the long
   one).
2. :class:`ZoneFrame`: the greatest-advantage player picks its half (``Op zone west``); the
   other player has the other half.
3. :class:`DeployFrame`: models are set up one at a time, alternating, the least-advantage
   player first (``Deploy TEST-1 at 3,4``), each wholly within its player's zone and more
   than 6" from the enemy zone (with halves: more than 6" from the centre line), where its
   base can stand and overlapping no other base; a player whose models are all set up is
   skipped. Listed spots are a 2" grid on the floor; any legal spot typed (also on terrain,
   ``at x,y,z``) is accepted.
"""

from __future__ import annotations

import math

import attrs
import shapely

from engine.game.actions import Action, IllegalActionError
from engine.game.deployment import check_deployment
from engine.game.flow import expect
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.kt18.objectives import (
    SPLIT,
    SPLITS,
    advantage_order,
    illegal,
    set_zone,
    zone_box,
    zone_of,
)
from engine.missions.scoring import fact, set_fact

__all__ = [
    "ENEMY_ZONE_GAP",
    "SETUP_GRID",
    "DeployFrame",
    "SplitFrame",
    "ZoneFrame",
    "deploy_problem",
    "deploy_spots",
]

ENEMY_ZONE_GAP = 6.0
"""A model is set up more than this far from every enemy deployment zone, inches (9.5)."""
SETUP_GRID = 2.0
"""Spacing of the set-up spots listed as decisions, inches."""

_EPS = 1e-6


def _order(w: Work) -> tuple[str, ...]:
    return advantage_order(w) or ("A", "B")


def _split_text(text: str) -> str:
    return " ".join(text.lower().split())


@attrs.frozen(slots=True)
class SplitFrame:
    """The least-advantage player chooses the centre line splitting the battlefield (9.5;
    module docstring)."""

    def run(self, w: Work) -> None:
        w.decide(_order(w)[-1], "kt18_battlefield_split")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise illegal("no dice are rolled while the battlefield is split")

    def options(self, w: Work) -> list[Action]:
        return [Action("Op", text=f"split {name}") for name in SPLITS]

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Op",), "the split of the battlefield (rules/KT18.md 9.5)")
        name = _split_text(a.text).removeprefix("split ").strip()
        if name not in SPLITS:
            raise illegal(
                f"{a} is not possible now: split the battlefield along a centre line with "
                "'Op split west east' or 'Op split south north' (rules/KT18.md 9.5)"
            )
        set_fact(w, SPLIT, name)
        w.emit("kt18_battlefield_split", player=_order(w)[-1], zones=SPLITS[name])
        w.stack.pop()


@attrs.frozen(slots=True)
class ZoneFrame:
    """The greatest-advantage player picks its deployment zone; the other player has the
    other half (9.5)."""

    def run(self, w: Work) -> None:
        w.decide(_order(w)[0], "kt18_deployment_zone")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise illegal("no dice are rolled while deployment zones are picked")

    def options(self, w: Work) -> list[Action]:
        return [Action("Op", text=f"zone {z}") for z in SPLITS[str(fact(w, SPLIT))]]

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Op",), "the pick of a deployment zone (rules/KT18.md 9.5)")
        zones = SPLITS[str(fact(w, SPLIT))]
        zone = _split_text(a.text).removeprefix("zone ").strip()
        if zone not in zones:
            raise illegal(
                f"{a} is not possible now: the battlefield is split into {zones[0]} and "
                f"{zones[1]}: 'Op zone {zones[0]}' or 'Op zone {zones[1]}' (rules/KT18.md 9.5)"
            )
        first = _order(w)[0]
        rest = zones[1] if zone == zones[0] else zones[0]
        for player, z in ((first, zone), (other(first), rest)):
            set_zone(w, player, z)
            w.emit("kt18_deployment_zone", by=first, player=player, zone=z)
        w.stack.pop()


def deploy_problem(w: Work, o: OperativeState, point: tuple[float, float, float]) -> str | None:
    """Why ``o`` cannot be set up at ``point`` (x, y, elevation in inches) in the Covert War
    deployment, naming the rule, or ``None`` (9.5; module docstring)."""
    zone = zone_of(w, o.player)
    enemy = zone_of(w, other(o.player))
    if not zone:
        return f"{o.player} has no deployment zone yet (rules/KT18.md 9.5)"
    x, y, z = point
    foot = w.ctx.placement(o.id, x, y, z).footprint()
    if not zone_box(w.kz, zone).buffer(_EPS).covers(foot):
        return (
            f"{o.id} must be set up wholly within its deployment zone ({zone} half) "
            "(rules/KT18.md 9.5)"
        )
    if enemy:
        gap = float(shapely.distance(foot, zone_box(w.kz, enemy)))
        if gap <= ENEMY_ZONE_GAP + _EPS:
            return (
                f'{o.id} at ({x:g}, {y:g}) would be {gap:.3g}" from the enemy deployment '
                f'zone ({enemy} half): more than {ENEMY_ZONE_GAP:g}" is needed '
                "(rules/KT18.md 9.5)"
            )
    try:
        check_deployment(w, o, point, drop_zone=False)
    except IllegalActionError as exc:
        return f"{exc}; Covert War deployment (rules/KT18.md 9.5)"
    return None


def deploy_spots(w: Work, o: OperativeState) -> list[tuple[float, float, float]]:
    """The listed set-up spots of ``o``: a :data:`SETUP_GRID` grid on the floor of its
    player's zone, from the first whole inch at least 0.5" plus the base's radius in from
    the zone's corner, where :func:`deploy_problem` finds nothing."""
    zone = zone_of(w, o.player)
    if not zone:
        return []
    r = w.ctx.datacards[o.id].base_mm / 25.4 / 2
    minx, miny, maxx, maxy = zone_box(w.kz, zone).bounds
    first = math.ceil(r + 0.5 - 1e-9)
    out = []
    y = miny + first
    while y <= maxy - r + _EPS:
        x = minx + first
        while x <= maxx - r + _EPS:
            point = (round(x, 3), round(y, 3), 0.0)
            if deploy_problem(w, o, point) is None:
                out.append(point)
            x += SETUP_GRID
        y += SETUP_GRID
    return out


def _to_set_up(w: Work, player: str) -> list[OperativeState]:
    return [o for o in w.ops if o.player == player and not o.placed and not o.incapacitated]


@attrs.frozen(slots=True)
class DeployFrame:
    """Models set up one at a time, alternating (9.5; module docstring).

    Attributes:
        turn: the player setting up its next model.
        stuck: players with models left but no listed spot for any (reported with
            ``rule_not_played``; their remaining models stay off the battlefield).
    """

    turn: str
    stuck: tuple[str, ...] = ()

    @classmethod
    def start(cls, w: Work) -> DeployFrame:
        """Deployment from the least-advantage player (9.5)."""
        return cls(turn=_order(w)[-1])

    def _left(self, w: Work, player: str) -> bool:
        return player not in self.stuck and bool(_to_set_up(w, player))

    def run(self, w: Work) -> None:
        turn = self.turn
        if not self._left(w, turn):
            turn = other(turn)
            if not self._left(w, turn):
                w.stack.pop()
                return
            w.replace_top(turn=turn)
        if not w.top.options(w):
            w.emit(
                "rule_not_played",
                player=turn,
                rule="Covert War deployment",
                why=f"no listed set-up spot is left in {turn}'s deployment zone: its other "
                "models stay off the battlefield (rules/KT18.md 9.5)",
            )
            w.replace_top(stuck=(*self.stuck, turn))
            return
        w.decide(turn, "kt18_deploy")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise illegal("no dice are rolled during deployment")

    def options(self, w: Work) -> list[Action]:
        out: list[Action] = []
        spots: dict[float, list[tuple[float, float, float]]] = {}
        for o in _to_set_up(w, self.turn):
            base = w.ctx.datacards[o.id].base_mm
            if base not in spots:
                spots[base] = deploy_spots(w, o)
            out += [Action("Deploy", op=o.id, point=pt) for pt in spots[base]]
        return out

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Deploy",), "the Covert War deployment (rules/KT18.md 9.5)")
        if a.op not in w.ctx.index:
            raise illegal(f"there is no model {a.op!r} (rules/KT18.md 9.5)")
        o = w.op(a.op)
        if o.player != self.turn or o.incapacitated:
            raise illegal(
                f"{a.op} is not a model {self.turn} has to set up now (rules/KT18.md 9.5)"
            )
        if o.placed:
            raise illegal(f"{o.id} is already set up (rules/KT18.md 9.5)")
        if a.point is None:  # pragma: no cover - a Deploy always has a point
            raise illegal(f"{a}: set up at a point (rules/KT18.md 9.5)")
        problem = deploy_problem(w, o, a.point)
        if problem is not None:
            raise illegal(problem)
        x, y, z = a.point
        w.set_op(o.id, x=x, y=y, elevation=z, placed=True)
        w.emit("deployed", op=o.id, x=x, y=y, z=z)
        w.replace_top(turn=other(self.turn))
