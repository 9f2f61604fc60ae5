"""The Kommandos' unique actions (registered by rule id in ``engine.rules.registry``).

- **Get it Dun** (Boss Nob, 1AP) and **Listen In** (Comms Boy, 1AP), both SUPPORT: another
  friendly KOMMANDO operative (not the BOMB SQUIG) visible to and within 6" of the operative
  (9" while it controls its Comms Device, 7.2) gets +1 APL until the end of its next
  activation (clamped with the other APL changes, 2.1). Not while within control range of an
  enemy operative. Notation ``Act <op> get it dun on <friend>``, ``Act <op> listen in on
  <friend>``.
- **Dakka Dash** (Dakka Boy, 1AP): a free Dash and a free Shoot, in the order the player
  chooses, the Shoot only with the dakka shoota (:class:`DakkaDashFrame`). Not while within
  control range of an enemy operative or with a Conceal order. Each free action is offered as
  the engine offers free actions (``free_action`` decisions, with ``End activation`` to
  forgo the rest); as free actions in an activation (3.1) they count as performed for the
  once-per-activation limits, and one the operative could not perform now (it already Dashed,
  Charged or Shot this activation) is not offered.
- **Grappling Hook** (Grot, 1AP, counts as a Reposition): the Grot is set up again within 1"
  horizontally of a point on a terrain feature visible to it, out of enemy control range,
  seeing that point (:class:`GrapplingHook`).
- **Breach** (Breacha Boy, 1AP): :mod:`teams.kommandos.breach`.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
from shapely.geometry import Point
from shapely.ops import nearest_points

from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.geometry import Placement, TerrainType
from engine.rules.equipment.markers import support_distance
from engine.rules.registry import register
from engine.rules.unique_actions import SelectingAction, visible_friends_within
from teams.kommandos.abilities import has_keyword, kommando

BOSS_NOB = "BOSS NOB"
COMMS_BOY = "COMMS BOY"
DAKKA_BOY = "DAKKA BOY"
SUPPORT_RANGE = 6.0
_EPS = 1e-6


# -- Get it Dun / Listen In --------------------------------------------------------------------


def apl_boost(w: Work, op: str) -> int:
    """The net APL change of ``op`` now (its ``"apl"`` effects summed, before the clamp)."""
    return sum(e.value for e in w.effects if e.kind == "apl" and e.op == op)


@attrs.frozen(slots=True)
class SupportApl(SelectingAction):
    """A SUPPORT unique action giving another friendly KOMMANDO (not the BOMB SQUIG) visible
    to and within 6" of the operative +1 APL until the end of its next activation (module
    docstring; a :class:`engine.game.rule_actions.RuleActionLike`); ``keyword`` the
    operative that has it."""

    name: str
    text: str
    keyword: str
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Other friendly KOMMANDO operatives visible to and within 6" (SUPPORT)."""
        reach = support_distance(w, o.id, SUPPORT_RANGE)
        return [f.id for f in visible_friends_within(w, o, reach) if kommando(w, f.id)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            f"{self.name} selects another friendly KOMMANDO operative (not the Bomb "
            f'Squig) visible to and within {SUPPORT_RANGE:g}" of {o.id}'
        )

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only the operative with ``keyword`` performs it."""
        if not has_keyword(w, o.id, self.keyword):
            return f"{o.id} is not a {self.keyword.title()}: only it performs {self.name}"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an action point for a friend is worth 0.15 operatives while it is
        still to activate this turning point, 0.05 when it must wait for the next; nothing
        when its APL is already raised (the change is clamped to +1, 2.1)."""
        if apl_boost(w, a.target) >= 1:
            return 0.0
        return 0.15 if w.op(a.target).ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """+1 APL on the selected friend until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))
        w.emit("team_rule_used", op=o.id, rule=self.name, on=a.target)


GET_IT_DUN = SupportApl("Get it Dun", "get it dun", BOSS_NOB)
LISTEN_IN = SupportApl("Listen In", "listen in", COMMS_BOY)


def install_get_it_dun(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Get it Dun (module docstring)."""
    hooks.action(GET_IT_DUN, players)


def install_listen_in(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Listen In (module docstring)."""
    hooks.action(LISTEN_IN, players)


register(
    "kommandos/unique_action/get_it_dun",
    install_get_it_dun,
    'Boss Nob (1AP, SUPPORT): another Kommando (not the Squig) visible and within 6" gets +1 '
    "APL until the end of its next activation.",
)
register(
    "kommandos/unique_action/listen_in",
    install_listen_in,
    'Comms Boy (1AP, SUPPORT): another Kommando (not the Squig) visible and within 6" gets +1 '
    "APL until the end of its next activation.",
)


# -- Dakka Dash --------------------------------------------------------------------------------

DAKKA_SHOOTA = "dakka shoota"
DASH = "Dash"
SHOOT = "Shoot"


def _can_still(o: OperativeState, verb: str) -> bool:
    """``o`` may still perform ``verb`` in its activation (once per activation; a Dash not
    after a Charge, 3.2)."""
    done = {universal.ACTION_FAMILY.get(d, d) for d in o.done}
    if verb in done:
        return False
    return not (verb == DASH and "Charge" in done)


@attrs.frozen(slots=True)
class DakkaDashFrame:
    """Dakka Dash in progress (module docstring): offers the free Dash and the free Shoot
    still ``left`` one at a time (:func:`engine.game.universal.start_free_action`), noting
    each one performed (``performed``, from the free action's ``action_ended``) among what
    the operative did in its activation."""

    op: str
    left: tuple[str, ...]
    performed: tuple[str, ...] = ()
    waiting: bool = False

    def run(self, w: Work) -> None:
        o = w.op(self.op)
        left = self.left
        if self.waiting:
            if not self.performed:  # the player forwent the rest
                left = ()
            else:
                w.set_op(o.id, done=(*o.done, *self.performed))
                left = tuple(v for v in left if v not in self.performed)
        o = w.op(self.op)
        left = tuple(v for v in left if _can_still(o, v))
        if not left or not o.alive:
            w.stack.pop()
            return
        w.replace_top(left=left, performed=(), waiting=True)
        universal.start_free_action(w, o.id, left)

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - never a decision
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - never a decision
        raise IllegalActionError("nothing to decide here (Dakka Dash)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here (Dakka Dash)")


def dakka_dashing(w: Work, op: str) -> bool:
    """``op`` is performing a free action of its Dakka Dash."""
    if len(w.stack) < 2:
        return False
    below = w.stack[-2]
    top = w.stack[-1]
    return (
        isinstance(below, DakkaDashFrame)
        and below.op == op
        and isinstance(top, universal.ActivationFrame)
        and top.mode == "free"
    )


@attrs.frozen(slots=True)
class DakkaDash:
    """Dakka Dash (Dakka Boy, 1AP; module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`). Notation ``Act <op> dakka dash``."""

    name: str = "Dakka Dash"
    text: str = "dakka dash"
    ap: int = 1
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, DAKKA_BOY):
            return f"{o.id} is not a Dakka Boy: only it performs Dakka Dash"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Dakka Dash)"
        if o.order != "engage":
            return f"{o.id} has a Conceal order (Dakka Dash)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> dakka dash`` when its conditions hold."""
        if self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        if a.target or a.point is not None:
            return "Dakka Dash selects nothing: 'Act <operative> dakka dash'"
        return self._why_not(w, o)

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: the best shot it has where it stands (dice core, as an Engage
        operative; its only ranged weapon is the dakka shoota) when it may still Shoot, plus
        0.05 operatives for the free Dash when it may still Dash."""
        from engine.advice.shots import best_shot_now

        value = 0.0
        if _can_still(o, SHOOT):
            value += float(best_shot_now(w, o, as_engage=True))
        if _can_still(o, DASH):
            value += 0.05
        return value

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Offer the free Dash and Shoot (:class:`DakkaDashFrame`)."""
        w.emit("team_rule_used", op=o.id, rule=self.name, on=o.id)
        w.stack.append(DakkaDashFrame(op=o.id, left=(DASH, SHOOT)))


DAKKA_DASH = DakkaDash()


def install_dakka_dash(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Dakka Dash (module docstring): the action, the dakka shoota only in its free Shoot
    (``would_refuse_weapon``) and the bookkeeping of the free actions (``action_ended``)."""

    def ended(w: Work, ev: Event) -> None:
        if ev.get("mode") != "free" or not dakka_dashing(w, ev["op"]):
            return
        i = len(w.stack) - 2
        frame = w.stack[i]
        done = tuple(universal.ACTION_FAMILY.get(d, d) for d in w.op(ev["op"]).done)
        w.stack[i] = attrs.evolve(frame, performed=done)

    def weapon(w: Work, why: str | None, **info: Any) -> str | None:
        o: OperativeState = info["op"]
        if why or w.ctx.owner.get(o.id) not in players or not dakka_dashing(w, o.id):
            return why
        name = universal.primary_weapon_name(w, o, str(info["weapon"]))
        if name == DAKKA_SHOOTA:
            return why
        return f"Dakka Dash's free Shoot is made with the dakka shoota only, not {name}"

    hooks.action(DAKKA_DASH, players)
    hooks.on("action_ended", ended)
    hooks.transform("would_refuse_weapon", weapon)


register(
    "kommandos/unique_action/dakka_dash",
    install_dakka_dash,
    "Dakka Boy (1AP): a free Dash and a free Shoot with the dakka shoota, in either order.",
)


# -- Grappling Hook ----------------------------------------------------------------------------

GROT = "GROT"
HOOK_REACH = 1.0  # how far (horizontally) from the hooked point the Grot is set up
HOOK_LISTED = 10  # at most this many destinations are listed (any legal one is accepted)
HOOK_LIST_RANGE = 12.0  # listed destinations: terrain within this distance of the Grot
_POINT_MM = 1.0
_POINT_HEIGHT = 0.02
_INSET = 0.05


def _point(x: float, y: float, z: float) -> Placement:
    return Placement(x, y, base_mm=_POINT_MM, elevation=z, model_height=_POINT_HEIGHT)


def hook_points(w: Work, p: Placement) -> list[tuple[float, float, float]]:
    """Points on terrain features within 1" horizontally of a base at ``p``: for each part
    of a feature near it (not Insignificant, with a height), the point of its top nearest to
    ``p`` (just inside its edge, or right under ``p`` standing on it) and the point of its
    side nearest to ``p`` at half its height (just outside its edge)."""
    kz = w.kz
    centre = Point(p.x, p.y)
    out = []
    for i in kz.parts_near(centre, p.radius + HOOK_REACH):
        part = kz.parts[int(i)]
        if part.height <= 0 or kz.has_type(int(i), TerrainType.INSIGNIFICANT):
            continue
        if part.polygon.covers(centre):
            out.append((p.x, p.y, part.height))
            continue
        q = nearest_points(part.polygon.exterior, centre)[0]
        gap = math.hypot(q.x - p.x, q.y - p.y)
        if gap - p.radius > HOOK_REACH + _EPS or gap <= _EPS:
            continue
        ux, uy = (q.x - p.x) / gap, (q.y - p.y) / gap
        out.append((q.x + ux * _INSET, q.y + uy * _INSET, part.height))
        out.append((q.x - ux * _INSET, q.y - uy * _INSET, part.height / 2))
    return out


def _hook_anchor(w: Work, start: Placement, dest: Placement) -> tuple[float, float, float] | None:
    """A point on a terrain feature visible to the Grot where it starts, within 1"
    horizontally of ``dest`` and visible to it there (``hook_points``), or None."""
    kz = w.kz
    for x, y, z in hook_points(w, dest):
        pt = _point(x, y, z)
        if w.ctx.visible(kz, start, pt) and w.ctx.visible(kz, dest, pt):
            return (x, y, z)
    return None


@attrs.frozen(slots=True)
class GrapplingHook:
    """Grappling Hook (Grot, 1AP; a :class:`engine.game.rule_actions.RuleActionLike` that
    counts as a Reposition): the Grot is removed and set up again within 1" horizontally of a
    point on a terrain feature that is visible to it where it starts, in a location it can be
    placed (on the floor or on Vantage terrain, on the killzone, overlapping no operative),
    not within control range of an enemy operative, with that point visible to it there. Not
    while within control range of an enemy operative, nor in an activation in which it
    Charged or Fell Back (nor Charge or Fall Back after it: the Reposition's exclusions).
    It performs no Operate Hatch meanwhile (the engine has none during an action).

    Notation ``Act <grot> grappling hook at x,y[,z]``: where the Grot is set up (z the height
    of the Vantage terrain it stands on). The hooked point is any point of a terrain part
    near the destination satisfying the rule (:func:`hook_points`: the nearest points of
    its top and of its side). Listed: the tops of Vantage parts and spots beside the parts
    of terrain within 12", at most 10 (any legal spot is accepted).

    It is set up, not moved: a ``moved`` event (action ``"reposition"``) says where it ends,
    from where it ends (no path: mines are judged where it is set up)."""

    name: str = "Grappling Hook"
    text: str = "grappling hook"
    ap: int = 1
    family: str = "Reposition"

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, GROT):
            return f"{o.id} is not a Grot: only it performs Grappling Hook"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (Grappling Hook)"
        return None

    def destination_problem(
        self, w: Work, o: OperativeState, point: tuple[float, float, float]
    ) -> str | None:
        """Why ``o`` cannot be set up at ``point`` by the Grappling Hook, or None."""
        from engine.game import deployment

        try:
            deployment.check_deployment(w, o, point, drop_zone=False)
        except IllegalActionError as exc:
            return f"Grappling Hook: {exc}"
        x, y, z = point
        left = universal.counteract_left(w, o.id)
        if left is not None and _set_up_distance(o, point) > left + _EPS:
            return (
                f"Grappling Hook: {o.id} is counteracting: it must be set up wholly within "
                f'{left:g}" of where it is (2" in all in a counteraction, 1.6)'
            )
        dest = w.ctx.placement(o.id, x, y, z)
        for e in w.enemies_of(o.id):
            if w.ctx.control_range(w.kz, dest, w.place(e)):
                return f"Grappling Hook: {o.id} would be within control range of {e.id}"
        if _hook_anchor(w, w.place(o), dest) is None:
            return (
                f'Grappling Hook: no point of a terrain feature within 1" of ({x:g}, {y:g}) is '
                f"visible to {o.id} both where it is and there"
            )
        return None

    def _candidates(self, w: Work, o: OperativeState) -> list[tuple[float, float, float]]:
        kz = w.kz
        here = w.place(o)
        r = here.radius + 0.05
        raw: list[tuple[float, tuple[float, float, float]]] = []
        for i in kz.parts_near(Point(o.x, o.y), HOOK_LIST_RANGE):
            part = kz.parts[int(i)]
            if part.height <= 0 or kz.has_type(int(i), TerrainType.INSIGNIFICANT):
                continue
            poly = part.polygon
            c = poly.centroid
            if kz.has_type(int(i), TerrainType.VANTAGE):
                raw.append((math.hypot(c.x - o.x, c.y - o.y), (c.x, c.y, part.height)))
            ring = list(poly.exterior.coords)[:-1]
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
                length = math.hypot(x1 - x0, y1 - y0)
                if length <= _EPS:
                    continue
                mx, my = (x0 + x1) / 2, (y0 + y1) / 2
                nx, ny = (y1 - y0) / length * r, (x0 - x1) / length * r
                if poly.covers(Point(mx + nx * 0.1, my + ny * 0.1)):
                    nx, ny = -nx, -ny
                raw.append((math.hypot(mx - o.x, my - o.y), (mx + nx, my + ny, 0.0)))
        raw.sort(key=lambda t: t[0])
        out: list[tuple[float, float, float]] = []
        for _, (x, y, z) in raw:
            p = (round(x, 3) + 0.0, round(y, 3) + 0.0, round(z, 3) + 0.0)
            if p in out or self.destination_problem(w, o, p) is not None:
                continue
            out.append(p)
            if len(out) >= HOOK_LISTED:
                break
        return out

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <grot> grappling hook at x,y,z`` for each listed destination."""
        if self._why_not(w, o) is not None:
            return []
        left = universal.counteract_left(w, o.id)  # (in a counteraction: 1.6)
        key = ("grappling hook", id(w.kz), o.id, o.x, o.y, o.elevation, _others(w, o), left)
        spots = w.ctx.cached(key, lambda: self._candidates(w, o))
        return [Action("Act", op=o.id, text=self.text, point=p) for p in spots]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if a.target or a.point is None:
            return "Grappling Hook sets the Grot up at a point: 'Act <grot> grappling hook at x,y'"
        return self.destination_problem(w, o, a.point)

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.05 operatives for a spot on Vantage terrain (z above 0), from
        which the Grot sees over the killzone; nothing for a spot on the floor (a Reposition
        does as well)."""
        return 0.05 if a.point is not None and a.point[2] > 0 else 0.0

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Set the Grot up at the destination (module docstring)."""
        assert a.point is not None
        x, y, z = a.point
        universal.note_counteract_move(w, o.id, _set_up_distance(o, a.point))
        w.set_op(o.id, x=x, y=y, elevation=z, moved=True)
        if w.op(o.id).on_guard:
            w.set_op(o.id, on_guard=False)
            w.emit("guard_ended", op=o.id, why="it moved")
        universal.carry_along(w, o.id)
        w.emit("team_rule_used", op=o.id, rule=self.name, on=f"{x:g},{y:g},{z:g}")
        w.emit("moved", op=o.id, action="reposition", x=x, y=y, z=z, cost=0.0, x0=x, y0=y, z0=z)


def _set_up_distance(o: OperativeState, point: tuple[float, float, float]) -> float:
    """How far (inches) setting ``o`` up at ``point`` takes it: the straight distance its
    base moves (every point of the base moves that far; the reading of "set up wholly
    within 2"" of a counteraction, 1.6)."""
    return math.dist((o.x, o.y, o.elevation), point)


def _others(w: Work, o: OperativeState) -> tuple[tuple[float, float, float], ...]:
    """Where the other operatives stand (the listed destinations depend on them)."""
    return tuple((q.x, q.y, q.elevation) for q in w.alive() if q.id != o.id)


GRAPPLING_HOOK = GrapplingHook()


def install_grappling_hook(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grappling Hook (class docstring)."""
    hooks.action(GRAPPLING_HOOK, players)


register(
    "kommandos/unique_action/grappling_hook",
    install_grappling_hook,
    'Grot (1AP, a Reposition): set it up within 1" of a visible point on terrain, out of '
    "enemy control range.",
)
