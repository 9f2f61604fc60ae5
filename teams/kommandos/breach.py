"""The Kommandos' **Breach** (Breacha Boy, 1AP; registered by rule id in
``engine.rules.registry``): a Breach marker against a terrain feature within its control
range; for an operative within 1" of the marker, the feature's parts no more than 1" thick
are Accessible (:class:`Breach`): for its movement only (``would_move_terrain``), where
its own base is within 1" of the marker; sight and cover are unchanged.
During a Reposition: right after a Reposition with distance left (its last action) the
Breach costs 1AP less and the rest of that move follows as a free Reposition of at most
the distance left. Right before a Reposition or Charge (its first action or after no
move), the move costs 1AP less. During a Charge: the Charge in two legs
(:class:`BreachCharge`, ``Act <op> charge breach <feature> at x,y``): a first leg to where
it breaches, the Breach for 0AP, the rest as a compulsory free Charge of the distance left
(listed for agents: one first leg straight towards each enemy within reach beyond a
feature). Limits (simplified, reported): "within 1\"" is judged horizontally (an operative
on Vantage terrain right above the marker counts as within 1" of it: the opened pieces
are Accessible at every level of the movement graph, which has no per-level
accessibility), and the marker is always placed at floor level (z 0). The Charge's first
leg is not asked the destination rules of other teams (``would_refuse_destination``: an
MV33 Grav-Inhibitor's 2" does not lengthen it; the free Charge after it is asked them).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import attrs
from shapely.geometry import Point
from shapely.ops import nearest_points

from engine.game import universal
from engine.game.actions import MOVE_VERBS, Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import TerrainType, sight
from engine.geometry.extra_terrain import AccessibleSpec
from engine.rules.registry import register
from teams.kommandos.abilities import has_keyword

_EPS = 1e-6


# -- Breach ------------------------------------------------------------------------------------

BREACHA_BOY = "BREACHA BOY"
BREACH = "breach"  # the token kind of a Breach marker
BREACH_REACH = 1.0  # operatives within this distance of the marker go through the terrain
BREACH_THICKNESS = 1.0  # the thickest parts it opens (inches)
BREACH_MARKER_MM = 20.0
BREACH_BASE_MM = 32.0  # the default base size of breach_area (most operatives')
_BREACH_SIDES = 16


def breach_area(
    x: float, y: float, base_mm: float = BREACH_BASE_MM
) -> tuple[tuple[float, float], ...]:
    """The area a Breach marker at ``(x, y)`` opens for an operative on a ``base_mm`` base:
    the centres of such bases within 1" of the marker (a 16-sided polygon around it)."""
    r = BREACH_REACH + (BREACH_MARKER_MM + base_mm) / 25.4 / 2
    return tuple(
        (
            x + r * math.cos(2 * math.pi * k / _BREACH_SIDES),
            y + r * math.sin(2 * math.pi * k / _BREACH_SIDES),
        )
        for k in range(_BREACH_SIDES)
    )


@functools.lru_cache(maxsize=1024)
def breach_spec(feature: str, x: float, y: float, base_mm: float) -> AccessibleSpec:
    """The movement-only killzone change of a Breach marker at ``(x, y)`` against
    ``feature`` for an operative on a ``base_mm`` base (its parts no more than 1" thick
    Accessible where that base's centre is within the area of :func:`breach_area`)."""
    return AccessibleSpec(feature, breach_area(x, y, base_mm), BREACH_THICKNESS)


@attrs.frozen(slots=True)
class Breach:
    """Breach (Breacha Boy, 1AP; a :class:`engine.game.rule_actions.RuleActionLike`): one of
    the player's Breach markers is placed within the operative's control range, as close as
    possible to a terrain feature within its control range (touching its nearest part).
    Whenever an operative (of either side) is within 1" of the marker, it treats the parts of
    that feature no more than 1" thick as Accessible terrain: the killzone it moves on
    (``would_move_terrain``, :meth:`engine.game.work.Work.move_kz`) has those parts
    Accessible where the centre of its base is within 1" of the marker (:func:`breach_spec`:
    the area depends on its base size; a change of the killzone,
    :class:`engine.geometry.extra_terrain.AccessibleSpec`). Accessible matters to movement
    only: sight and cover read the killzone unchanged. Not while within control range of an
    enemy operative nor without a terrain feature within its control range. The markers stay
    for the battle (tokens of kind ``"breach"`` with the feature's index as counter
    ``"feature"``).

    Notation ``Act <op> breach at x,y``: the marker's centre. Listed: one spot per terrain
    feature within the operative's control range (touching it on the side nearest the
    operative).

    During a Charge or Reposition for 1AP less, moving on after it: a Breach performed before
    the operative moved in its activation makes its next action, when that is a Reposition
    or a Charge, cost 1AP less (``would_cost_action``: the Breach at the start of the move);
    a Breach right after a Reposition with distance left costs 1AP less and the rest of the
    move follows (module docstring); during a Charge, :class:`BreachCharge`."""

    name: str = "Breach"
    text: str = "breach"
    ap: int = 1
    family: str = ""

    def _spots(self, w: Work, o: OperativeState) -> list[tuple[str, tuple[float, float]]]:
        """(feature name, marker centre) for each terrain feature within ``o``'s control
        range, not opened here by a marker already."""
        kz = w.kz
        here = w.place(o)
        mr = BREACH_MARKER_MM / 25.4 / 2
        best: dict[int, tuple[float, tuple[float, float]]] = {}
        centre = Point(o.x, o.y)
        for i in kz.parts_near(centre, here.radius + sight.CONTROL_RANGE):
            part = kz.parts[int(i)]
            if part.height <= 0 or kz.has_type(int(i), TerrainType.INSIGNIFICANT):
                continue
            if part.feature >= len(w.ctx.killzone.features):
                continue  # equipment terrain: not a feature of the killzone's own
            q = nearest_points(part.polygon.exterior, centre)[0]
            gap = math.hypot(q.x - o.x, q.y - o.y)
            if gap - here.radius > sight.CONTROL_RANGE + _EPS or gap <= _EPS:
                continue
            ux, uy = (q.x - o.x) / gap, (q.y - o.y) / gap
            spot = (round(q.x - ux * mr, 3) + 0.0, round(q.y - uy * mr, 3) + 0.0)
            if part.feature not in best or gap < best[part.feature][0]:
                best[part.feature] = (gap, spot)
        names = w.ctx.killzone.features
        return [(names[f], best[f][1]) for f in sorted(best)]

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, BREACHA_BOY):
            return f"{o.id} is not a Breacha Boy: only it performs Breach"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Breach)"
        if not self._spots(w, o):
            return f"no terrain feature is within {o.id}'s control range (Breach)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> breach at x,y`` for each listed spot."""
        if self._why_not(w, o) is not None:
            return []
        return [
            Action("Act", op=o.id, text=self.text, point=(x, y, 0.0))
            for _, (x, y) in self._spots(w, o)
        ]

    def _feature_at(
        self, w: Work, o: OperativeState, point: tuple[float, float, float]
    ) -> str | None:
        """The feature a marker at ``point`` is placed against (the listed spot nearest to
        it, within 0.05"), or None."""
        x, y, _ = point
        for name, (sx, sy) in self._spots(w, o):
            if math.hypot(sx - x, sy - y) <= 0.05 + _EPS:
                return name
        return None

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target or a.point is None:
            return "Breach places a marker at a point: 'Act <op> breach at x,y'"
        if self._feature_at(w, o, a.point) is None:
            spots = ", ".join(f"{x:g},{y:g} ({n})" for n, (x, y) in self._spots(w, o))
            return (
                "Breach: the marker goes within the operative's control range as close as "
                f"possible to a terrain feature within it: at {spots}"
            )
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.05 operatives when an enemy operative or an objective marker is
        within 6" beyond the feature (the breach shortens the way to it); nothing else."""
        if a.point is None:
            return 0.0
        x, y, _ = a.point
        dx, dy = x - o.x, y - o.y
        targets = [(e.x, e.y) for e in w.enemies_of(o.id)] + [(m.x, m.y) for m in w.markers]
        for tx, ty in targets:
            ahead = (tx - x) * dx + (ty - y) * dy > 0
            if ahead and math.hypot(tx - x, ty - y) <= 6.0:
                return 0.05
        return 0.0

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Place the marker, opening the thin parts of the feature near it."""
        assert a.point is not None
        feature = self._feature_at(w, o, a.point)
        assert feature is not None
        x, y, _ = a.point
        place_breach_marker(w, o, feature, x, y)
        done = w.op(o.id).done
        if done and done[-1] == self.text:  # already noted as done (paid)
            done = done[:-1]
        left = mid_reposition(w, attrs.evolve(o, done=done)) if mode == "activation" else 0.0
        if left > 0:
            # During its Reposition: the rest of that move, as a free Reposition of at most
            # the distance left (the activation's Reposition: it counts once).
            _drop_left(w, o.id)
            universal.start_free_action(w, o.id, ("Reposition",), max_move=left)


def place_breach_marker(w: Work, o: OperativeState, feature: str, x: float, y: float) -> None:
    """One of ``o``'s player's Breach markers at ``(x, y)``, against ``feature``."""
    n = 1 + sum(1 for t in w.tokens if t.kind == BREACH and t.owner == o.player)
    name = f"{o.player} breach {n}"
    index = w.ctx.killzone.features.index(feature)
    token = Token(BREACH, o.player, name, x, y, 0.0, counters=((_FEATURE, index),))
    w.tokens = [*w.tokens, token]
    w.emit("team_rule_used", op=o.id, rule=BREACH_ACTION.name, on=feature)


_LEFT = "kommandos_breach_move_left"  # token: the Reposition just made has distance left


def mid_reposition(w: Work, o: OperativeState) -> float:
    """The distance (inches) left of the Reposition ``o`` just made (its last action, in
    this activation), when a Breach now is one made during that Reposition; else 0."""
    if not o.done or o.done[-1] != "Reposition":
        return 0.0
    left = [e.value for e in w.effects if e.kind == "token" and e.op == o.id and e.detail == _LEFT]
    return max(left, default=0) / 1000.0


def _drop_left(w: Work, op: str) -> None:
    w.effects = [
        e for e in w.effects if not (e.kind == "token" and e.op == op and e.detail == _LEFT)
    ]


BREACH_ACTION = Breach()
_FEATURE = "feature"  # a Breach token's counter: the index of the feature it opens


BREACH_MOVES = ("Reposition", "Charge")
_MAX_LISTED = 3  # the most Breach-during-a-Charge first legs listed


@attrs.frozen(slots=True)
class BreachCharge:
    """Breach during a Charge (Breacha Boy; a :class:`engine.game.rule_actions.RuleActionLike`
    that counts as the Charge): the Charge in two legs with the Breach between them. The
    first leg moves the operative (at most the Charge's distance, Move + 2") to ``point``
    without entering an enemy's control range (a Charge that ends outside every enemy's
    control range never entered one, 3.2); there it performs the Breach for 1AP less (0AP)
    against the feature named, a terrain feature within its control range (the marker as
    :class:`Breach` places it); the rest of the Charge follows as a free Charge of at most
    the distance left, which must end within an enemy's control range. The action costs the
    Charge's 1AP; it has the Charge's conditions (:func:`engine.game.universal.precheck`)
    and the Breach's at ``point``, and is refused unless a Charge of the distance left from
    there, through the breach, reaches a spot within an enemy's control range (spots around
    each enemy within reach, as the Charge's listing has them).

    Notation ``Act <op> charge breach <feature> at x,y[,z]`` (the feature's name). Listed
    (:meth:`_candidates`): for each enemy within reach (nearest first, at most three), the
    first leg straight towards it to where the base, with the marker between, touches the
    first terrain feature on that line, when the whole action is legal from there; a player
    or a script may name any other point. The rest of the Charge is compulsory
    (``start_free_action(..., compulsory=True)``: ``End activation`` is not offered before
    it), so the Charge ends within an enemy's control range (3.2)."""

    name: str = "Breach during a Charge"
    text: str = "charge breach"
    ap: int = 1
    family: str = "Charge"

    def _leg(self, w: Work, o: OperativeState, point: tuple[float, float, float], mode: str) -> Any:
        """``(final placement, cost)`` of the first leg, or a reason (str)."""
        from engine.geometry.movement import MoveError, shortest_path

        args = universal.move_args(w, o, "Charge", mode)
        args.pop("leave_control_range", None)
        args["action"] = "reposition"
        kz = w.move_kz(o)
        try:
            path = shortest_path(kz, w.place(o), point, **args)
        except MoveError as exc:
            return f"Breach during a Charge: {exc}"
        if path is None:
            return (
                f'Breach during a Charge: no path of at most {args["max_cost"]:g}" (the '
                f"Charge's) reaches ({point[0]:g}, {point[1]:g}) outside every enemy's control "
                "range"
            )
        # The route taken, for rules judging it from the "charge" moved event perform emits
        # (mines passed on the way): universal.move_route finds no Charge path ending out of
        # every enemy's control range, so without this it would take the straight segment.
        f = path.final
        key = universal.route_key(kz, w.place(o), "charge", (f.x, f.y, f.elevation), args)
        w.ctx.remember(key, path)
        return (path.final, float(path.cost), float(args["max_cost"]))

    def _completes(
        self,
        w: Work,
        o: OperativeState,
        at: OperativeState,
        spot: tuple[str, tuple[float, float]],
        left: float,
    ) -> bool:
        """A Charge of at most ``left`` from ``at`` reaches an enemy's control range on the
        killzone opened by a marker at ``spot``."""
        from engine.geometry.movement import move_graph, reachable_with_costs

        feature, (mx, my) = spot
        base = w.ctx.datacards[o.id].base_mm
        terrain = tuple(t.feature for t in w.tokens if t.feature is not None)
        extra = (*w.move_terrain(o), breach_spec(feature, mx, my, base))
        kz = w.ctx.killzone_for(w.open_hatchways, terrain + extra)
        me = w.place(at)
        # The spots the free Charge's listing has: the rest is compulsory only while a Charge
        # is listed, so another spot reachable here would leave it unlisted and forgone (End
        # activation) out of every control range.
        spots = universal.charge_spots(w, o, me, left)
        if not spots:
            return False
        found = reachable_with_costs(
            kz,
            me,
            spots,
            action="charge",
            enemies=[w.place(e) for e in w.enemies_of(o.id)],
            friends=[w.place(f) for f in w.friends_of(o.id)],
            move=w.move_stat(o),
            max_cost=left,
            graph=move_graph(kz, me.base_mm),
        )
        return bool(found)

    def _plan(self, w: Work, o: OperativeState, a: Action, mode: str, paid: bool = False) -> Any:
        """``(placement, cost, spot)`` of a legal ``a``, or the reason it is refused
        (``paid``: being performed, the Charge's conditions were checked)."""
        if not has_keyword(w, o.id, BREACHA_BOY):
            return f"{o.id} is not a Breacha Boy: only it performs Breach"
        why = None if paid else universal.precheck(w, o, "Charge", mode)
        if why is not None:
            return f"Breach during a Charge: {why}"
        named = " ".join(a.text[len(self.text) :].split())
        if a.point is None or not named or a.target:
            return (
                "Breach during a Charge names the feature and where the Breach is made: "
                "'Act <op> charge breach <feature> at x,y'"
            )
        leg = self._leg(w, o, a.point, mode)
        if isinstance(leg, str):
            return leg
        final, cost, limit = leg
        at = attrs.evolve(o, x=final.x, y=final.y, elevation=final.elevation)
        spots = dict(BREACH_ACTION._spots(w, at))
        names = {n.lower(): n for n in spots}
        feature = names.get(named.lower())
        if feature is None:
            return (
                f"Breach during a Charge: {named!r} is not a terrain feature within "
                f"{o.id}'s control range at ({final.x:g}, {final.y:g}) (features: "
                f"{', '.join(spots) or 'none'})"
            )
        left = limit - cost
        if not self._completes(w, o, at, (feature, spots[feature]), left):
            return (
                f"Breach during a Charge: from ({final.x:g}, {final.y:g}) no Charge of the "
                f"{left:g}\" left reaches an enemy operative's control range"
            )
        return (final, cost, (feature, spots[feature]))

    def _candidates(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """One first leg per enemy within reach beyond a terrain feature: straight towards
        it, to where the operative's base (and the marker between) touches the first
        feature on that line, at most ``_MAX_LISTED`` of them, nearest enemy first."""
        from shapely.geometry import LineString

        kz = w.kz
        here = w.place(o)
        limit = float(universal.move_args(w, o, "Charge", mode)["max_cost"])
        mr = BREACH_MARKER_MM / 25.4 / 2
        names = w.ctx.killzone.features
        enemies = sorted(w.enemies_of(o.id), key=lambda e: math.hypot(e.x - o.x, e.y - o.y))
        out: list[Action] = []
        for e in enemies:
            d = math.hypot(e.x - o.x, e.y - o.y)
            if d <= _EPS or d > limit + 2 * sight.CONTROL_RANGE + 2 * here.radius:
                continue
            line = LineString([(o.x, o.y), (e.x, e.y)])
            first: tuple[float, int] | None = None
            for i in kz.parts_near(line.centroid, d / 2 + _EPS):
                part = kz.parts[int(i)]
                if part.height <= 0 or kz.has_type(int(i), TerrainType.INSIGNIFICANT):
                    continue
                if part.feature >= len(names) or not part.polygon.intersects(line):
                    continue
                cut = part.polygon.intersection(line)
                t = line.project(nearest_points(cut, Point(o.x, o.y))[0])
                if first is None or t < first[0]:
                    first = (t, part.feature)
            if first is None:
                continue
            ux, uy = (e.x - o.x) / d, (e.y - o.y) / d
            back = first[0] - (here.radius + 2 * mr + 0.02)
            if back < 0 or back > limit:
                continue
            x, y = round(o.x + ux * back, 2) + 0.0, round(o.y + uy * back, 2) + 0.0
            a = Action("Act", op=o.id, text=f"{self.text} {names[first[1]]}", point=(x, y, 0.0))
            if a not in out:
                out.append(a)
            if len(out) >= _MAX_LISTED:
                break
        return out

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """The legal ones of :meth:`_candidates` (nothing for an operative other than a
        Breacha Boy, checked first: no cost elsewhere)."""
        if not has_keyword(w, o.id, BREACHA_BOY):
            return []
        if universal.precheck(w, o, "Charge", mode) is not None:
            return []
        return [
            a
            for a in self._candidates(w, o, mode)
            if not isinstance(self._plan(w, o, a, mode, paid=True), str)
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        plan = self._plan(w, o, a, mode)
        return plan if isinstance(plan, str) else None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.1 operatives (listed only when it leads to a fight with an
        enemy behind a terrain feature; the fight itself is judged as the free Charge's
        destination is chosen)."""
        return 0.1

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The first leg, the Breach there, then the rest of the Charge as a free Charge."""
        plan = self._plan(w, o, a, mode, paid=True)
        assert not isinstance(plan, str), plan
        final, cost, (feature, (mx, my)) = plan
        limit = float(universal.move_args(w, o, "Charge", mode)["max_cost"])
        x0, y0, z0 = o.x, o.y, o.elevation
        universal.note_counteract_move(w, o.id, cost)  # (1.6: the first leg counts)
        w.set_op(o.id, x=final.x, y=final.y, elevation=final.elevation, moved=True)
        if w.op(o.id).on_guard:
            w.set_op(o.id, on_guard=False)
            w.emit("guard_ended", op=o.id, why="it moved")
        universal.carry_along(w, o.id)
        w.emit(
            "moved",
            op=o.id,
            action="charge",
            x=final.x,
            y=final.y,
            z=final.elevation,
            cost=cost,
            x0=x0,
            y0=y0,
            z0=z0,
        )
        if universal.action_cut(w, o.id) or not w.op(o.id).alive:
            return  # a rule ended the move where it stopped (a mine): no Breach, no rest
        place_breach_marker(w, w.op(o.id), feature, mx, my)
        # The rest must be performed: the Charge ends within an enemy's control range (3.2).
        universal.start_free_action(w, o.id, ("Charge",), max_move=limit - cost, compulsory=True)


BREACH_CHARGE = BreachCharge()


def install_breach(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Breach (class docstring) and the move it is part of (1AP less)."""

    def cost(w: Work, ap: int, **info: Any) -> int:
        o: OperativeState = info["op"]
        breach = ap > 0 and info.get("action") == BREACH_ACTION.text
        if breach and w.ctx.owner.get(o.id) in players and mid_reposition(w, o) > 0:
            return ap - 1  # during its Reposition: 1AP less
        if ap <= 0 or info.get("action") not in BREACH_MOVES or not o.done:
            return ap
        if o.done[-1] != BREACH_ACTION.text or w.ctx.owner.get(o.id) not in players:
            return ap
        if any(d in MOVE_VERBS for d in o.done):
            return ap  # it had moved before the Breach: not part of this move
        return ap - 1

    def moved(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if ev.get("action") != "reposition" or w.ctx.owner.get(op) not in players:
            return
        if not has_keyword(w, op, BREACHA_BOY):
            return
        top = w.top
        if not isinstance(top, universal.ActivationFrame) or top.mode != "activation":
            return
        o = w.op(op)
        _drop_left(w, op)
        limit = float(universal.move_args(w, o, "Reposition", "activation")["max_cost"])
        left = limit - float(ev.get("cost") or 0.0)
        if left > 0.01:
            milli = int(left * 1000)
            w.effects.append(
                Effect("token", op, "end_activation", source=op, detail=_LEFT, value=milli)
            )

    def move_terrain(w: Work, changes: tuple[Any, ...], **info: Any) -> tuple[Any, ...]:
        # Every operative (either side's) moves through the opened parts near the markers.
        o: OperativeState = info["op"]
        base = w.ctx.datacards[o.id].base_mm
        names = w.ctx.killzone.features
        opened = tuple(
            breach_spec(names[t.counter(_FEATURE)], t.x, t.y, base)
            for t in w.tokens
            if t.kind == BREACH and t.owner in players
        )
        return (*changes, *opened) if opened else changes

    hooks.action(BREACH_ACTION, players)
    hooks.action(BREACH_CHARGE, players)
    hooks.transform("would_move_terrain", move_terrain)
    hooks.transform("would_cost_action", cost)
    hooks.on("moved", moved)


register(
    "kommandos/unique_action/breach",
    install_breach,
    "Breacha Boy (1AP): a Breach marker against terrain in its control range; thin parts of "
    'that feature within 1" of it are Accessible.',
)
