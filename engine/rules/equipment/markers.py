"""The universal equipment markers: Ammo Cache, Comms Device and Mines (``rules/KT24.md`` 7.2;
marker control 4.8).

The markers are :class:`~engine.game.tokens.Token` values on the state (``w.tokens``) of kind
:data:`AMMO_CACHE`, :data:`COMMS_DEVICE` or :data:`MINES`, owned by the player who selected
the option; the pre-battle set-up creates them. They are not objective markers: they are 20 mm
across (4.8: every marker other than an objective marker), lie where they were set up
(``Token.elevation``) and are never carried.

**Control** (4.8, as for objective markers): an operative contests a marker within its control
range, that is within 1" of it (3D between levels, around walls under Close Quarters) and
with the marker visible to it (a sight line from its head to the marker, just above the
floor it lies on). A player controls it when the total APL of its contesting operatives is
greater than the opponent's; an operative controls it when it contests it and its player
controls it (:func:`token_contests`, :func:`token_controller`, :func:`operative_controls`).

**Ammo Cache**: the mission action *Ammo Resupply* (``Act KAS-1 ammo resupply``). Its cost is
**0AP**, as ``rules/KT24.md`` 7.2 gives it (with the 2024 game data; the KTDash-derived
equipment data says 1AP, and the digest decides where the sources disagree). Like any action it
is performed at most once per activation (1.5). The active operative must control one of its own
player's caches that was not used this turning point and must not be within an enemy's control
range; that cache is then used this turning point, and until the start of the next turning point
(kept as an effect of kind ``"ammo_resupply"`` ending with the turning point: nothing happens
between the two), whenever that operative shoots with a weapon from its datacard (not one a rule
gave it, like equipment grenades) its player may re-roll one of its attack dice that was not
re-rolled yet, once per attack dice roll (each target's shooting sequence). The re-roll is
offered in the attack dice window (:mod:`engine.game.ploys`) as ``Use ammo resupply <face>``, a
free rule option there, not a ploy (kind ``"rule"``).

**Comms Device**: while a friendly operative controls its player's device, the distances of
that operative's SUPPORT rules that refer to friendly operatives are 3" longer. Team rules
ask :func:`support_distance` (which passes the printed distance through the
``would_support_distance`` hooks with ``op``); an opponent's device never helps.

**Mines**: the first time the marker is within an operative's control range (any operative,
of either player), it is removed and that operative suffers D3+3 damage. D3 is a chance
node: one D6 is rolled and halved rounding up (1-2: 1, 3-4: 2, 5-6: 3), so every face keeps
its weight. Checked when an operative moves (any move action, including a free or
counteracting one: along the route the move took, the movement search's path between where
it started and where it ended, :func:`engine.game.universal.move_route` (a rule's move that is
not a move action, e.g. a set-up, is a straight segment), checked every 0.05" by
:func:`engine.rules.equipment.shapes.first_within_marker_range`; several mines passed go off in
the order they are met along it), when an operative is set up (deployment, or a rule that emits
``operative_set_up`` with ``op``), and when a hatchway is operated or equipment is set up
(``equipment_set_up``: a marker or terrain that changes sight). A move is
completed before the damage is resolved; an operative incapacitated by it is removed after
the action as usual (2.3). A rule that places an operative without those events may call
:func:`check_mines`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.ploys import Reroll
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Placement, sight
from engine.geometry.model import MARKER_DIAMETER_MM
from engine.rules.equipment.shapes import first_within_marker_range

__all__ = [
    "AMMO_CACHE",
    "AMMO_REROLL",
    "AMMO_RESUPPLY",
    "COMMS_BONUS",
    "COMMS_DEVICE",
    "MARKER_DIAMETER_MM",
    "MINES",
    "AmmoReroll",
    "AmmoResupply",
    "MinesFrame",
    "check_mines",
    "comms_bonus",
    "d3",
    "install",
    "marker_placement",
    "operative_controls",
    "support_distance",
    "token_contests",
    "token_controller",
]

AMMO_CACHE = "ammo_cache"
COMMS_DEVICE = "comms_device"
MINES = "mines"

MARKER_HEIGHT = 0.05
"""How far above the Vantage level it lies on a marker is seen (inches)."""

COMMS_BONUS = 3.0
"""Inches added to SUPPORT distances by a controlled Comms Device (7.2)."""

_EPS = 1e-6


# -------------------------------------------------------------------------------------------
# Marker control (4.8)
# -------------------------------------------------------------------------------------------


def marker_placement(t: Token) -> Placement:
    """The marker ``t`` as a thin 20 mm disc at its position (inches), for the geometry of
    a marker above the floor (on Vantage terrain)."""
    return Placement(
        t.x, t.y, base_mm=MARKER_DIAMETER_MM, elevation=t.elevation, model_height=MARKER_HEIGHT
    )


def _in_range(w: Work, p: Placement, t: Token) -> bool:
    """The marker ``t`` is within the control range of an operative placed at ``p`` (module
    docstring): within 1" and visible to it. A marker on the floor is judged exactly as an
    objective marker of its size (:func:`engine.geometry.sight.marker_in_control_range`);
    one on Vantage terrain as a thin disc on that level (3D distance, sight to it)."""
    reach = p.radius + MARKER_DIAMETER_MM / 25.4 / 2 + sight.CONTROL_RANGE + 2 * _EPS
    if abs(p.x - t.x) > reach or abs(p.y - t.y) > reach:
        return False
    kz = w.kz
    if not t.elevation:
        return bool(
            w.ctx.cached(
                ("token_cr", id(kz), p, t.x, t.y),
                lambda: sight.marker_in_control_range(kz, p, (t.x, t.y), MARKER_DIAMETER_MM),
            )
        )
    m = marker_placement(t)
    if sight.distance(p, m) > sight.CONTROL_RANGE + _EPS:
        return False

    def query() -> bool:
        if not sight.visible(kz, p, m):
            return False
        return sight.distance_around_walls(kz, p, m) <= sight.CONTROL_RANGE + _EPS

    return bool(w.ctx.cached(("token_cr", id(kz), p, m), query))


def token_contests(w: Work, o: OperativeState, t: Token) -> bool:
    """Operative ``o`` (on the killzone) contests the marker ``t``: it is within ``o``'s
    control range, or, for a carried marker, ``o`` is its carrier (the only one that
    contests it, 4.8)."""
    if t.carrier:
        return t.carrier == o.id
    return o.alive and _in_range(w, w.place(o), t)


def token_controller(w: Work, t: Token) -> str:
    """The player controlling the marker ``t`` (``"A"``/``"B"``): its carrier's, else the
    greater total APL of the operatives contesting it; ``""`` on a tie or when nobody
    contests it (4.8), unless a ``would_control_marker`` hook breaks the tie. The
    ``would_control_totals`` hooks are told its name (``marker=``), as for objective
    markers."""
    if t.carrier:
        return w.ctx.owner[t.carrier]
    got = universal.apl_controller(
        w, lambda o: token_contests(w, o, t), t.name, what=universal.MISSION_MARKER
    )
    if not got and "would_control_marker" in w.ctx.hooks.would:
        # A rule breaking a tie (as for objective markers: universal.controller).
        got = str(w.would("would_control_marker", got, marker=t.name))
    return got


def operative_controls(w: Work, o: OperativeState, t: Token) -> bool:
    """``o`` controls the marker ``t``: it contests it and its player controls it (4.8)."""
    return token_contests(w, o, t) and token_controller(w, t) == o.player


def _tokens(w: Work, kind: str, owner: str = "") -> list[Token]:
    return [
        t
        for t in w.tokens
        if isinstance(t, Token) and t.kind == kind and (not owner or t.owner == owner)
    ]


# -------------------------------------------------------------------------------------------
# Ammo Cache: the Ammo Resupply action and its re-roll
# -------------------------------------------------------------------------------------------


def _used(t: Token, tp: int) -> bool:
    return t.counter("used_tp") == tp


@attrs.frozen(slots=True)
class AmmoResupply:
    """The Ammo Resupply mission action (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Ammo Resupply"
    text: str = "ammo resupply"
    ap: int = 0
    family: str = ""
    mission: bool = True

    def _cache(self, w: Work, o: OperativeState) -> Token | None:
        """The first of ``o``'s player's caches not used this turning point that ``o``
        controls, or None."""
        for t in _tokens(w, AMMO_CACHE, o.player):
            if not _used(t, w.tp) and operative_controls(w, o, t):
                return t
        return None

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        caches = _tokens(w, AMMO_CACHE, o.player)
        if not caches:
            return f"{o.player} has no Ammo Cache marker on the killzone (7.2 Ammo Cache)"
        if w.in_enemy_control_range(o):
            return f"{o.id} is within control range of an enemy operative (7.2 Ammo Resupply)"
        if self._cache(w, o) is not None:
            return None
        if all(_used(t, w.tp) for t in caches):
            return f"{o.player}'s Ammo Cache was already used this turning point (7.2)"
        return (
            f"{o.id} must control one of {o.player}'s Ammo Cache markers (4.8, 7.2 Ammo "
            "Resupply; an enemy's cache cannot be used)"
        )

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> ammo resupply`` when the conditions hold."""
        if not _tokens(w, AMMO_CACHE, o.player) or self._why_not(w, o) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        if a.point is not None or a.target:
            return f"{a}: Ammo Resupply takes no point or operative (7.2)"
        return self._why_not(w, o)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Use the cache this turning point; the operative gets the re-roll until then.

        Raises:
            IllegalActionError: no cache it controls (checked before; never expected)."""
        t = self._cache(w, o)
        if t is None:  # pragma: no cover - check() ran first
            raise IllegalActionError(f"{o.id} controls no usable Ammo Cache (7.2)")
        w.tokens = [x.with_counter("used_tp", w.tp) if x is t else x for x in w.tokens]
        w.emit("ammo_cache_used", op=o.id, marker=t.name, player=o.player)
        w.add_effect(Effect("ammo_resupply", o.id, "end_tp", source=t.name))


AMMO_RESUPPLY = AmmoResupply()

_REROLL_USED = "ammo_resupply_reroll"  # player counter: re-roll used on the current dice


def _datacard_weapon(w: Work, op: str, name: str) -> bool:
    """``name`` (notation name) is a ranged profile of a weapon on ``op``'s datacard."""
    for weapon in w.ctx.datacards[op].weapons:
        if weapon.kind != "ranged":
            continue
        for prof in weapon.profiles:
            if universal.weapon_name(weapon, prof) == name:
                return True
    return False


@attrs.frozen(slots=True)
class AmmoReroll:
    """The re-roll Ammo Resupply gives, in the attack dice window of a Shoot (module
    docstring; a :class:`engine.game.ploys.PloyLike` of kind ``"rule"``: free, not a ploy).
    Its actions are ``Use ammo resupply <face>``."""

    name: str = "Ammo Resupply"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = True
    rerolls: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> str | None:
        op = info.get("op", "")
        if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
            return "Ammo Resupply re-rolls attack dice of a friendly operative's shooting (7.2)"
        if not w.effects or not w.effects_on(op, "ammo_resupply"):
            return f"{op} has not performed Ammo Resupply this turning point (7.2)"
        if not _datacard_weapon(w, op, str(info.get("weapon", ""))):
            return (
                f"{info.get('weapon', '')} is not a weapon from {op}'s datacard: Ammo "
                "Resupply does not re-roll it (7.2)"
            )
        if w.count(player, _REROLL_USED):
            return "Ammo Resupply already re-rolled one of these attack dice (7.2)"
        return None

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use ammo resupply <face>`` for each face of a die not re-rolled yet."""
        if not w.effects or self._applies(w, player, info) is not None:
            return []
        dice, flags = info.get("dice", ()), info.get("flags", ())
        faces = sorted({v for v, f in zip(dice, flags, strict=True) if not f}, reverse=True)
        return [Action("Use", text=f"ammo resupply {v}") for v in faces]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use ammo resupply <face>``."""
        return action.verb == "Use" and action.text.startswith("ammo resupply ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str | None:
        """Why ``action`` is refused (naming the rule)."""
        why = self._applies(w, player, info)
        if why is not None:
            return why
        return (
            f"{action}: no die showing that face that has not been re-rolled (2.4, 7.2 Ammo "
            "Resupply)"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the one die chosen; no other Ammo Resupply re-roll on these dice."""
        face = int(action.text.rsplit(" ", 1)[1])
        w.count(player, _REROLL_USED, add=1)
        return Reroll((face,))


AMMO_REROLL = AmmoReroll()


def _new_attack_dice(w: Work, ev: Event) -> None:
    """Attack dice were rolled: a new shooting sequence may have its re-roll."""
    if ev.get("label") != "attack":
        return
    player = ev["player"]
    if not w.pl(player).uses:
        return
    used = w.count(player, _REROLL_USED)
    if used:
        w.count(player, _REROLL_USED, add=-used)


# -------------------------------------------------------------------------------------------
# Comms Device
# -------------------------------------------------------------------------------------------


def comms_bonus(w: Work, op_id: str) -> float:
    """Inches added to the SUPPORT distances of operative ``op_id``: :data:`COMMS_BONUS`
    while it controls one of its own player's Comms Device markers, else 0 (7.2)."""
    o = w.op(op_id)
    for t in _tokens(w, COMMS_DEVICE, o.player):
        if operative_controls(w, o, t):
            return COMMS_BONUS
    return 0.0


def support_distance(w: Work, op_id: str, inches: float) -> float:
    """The distance requirement (inches) of a SUPPORT rule of operative ``op_id`` that
    refers to friendly operatives, printed as ``inches``, after the
    ``would_support_distance`` hooks (``op``: the operative id): +3" while it controls its
    player's Comms Device (7.2). Team rules measure their SUPPORT distances with this."""
    return float(w.would("would_support_distance", float(inches), op=op_id))


def _support(w: Work, value: float, **info: Any) -> float:
    op = info.get("op", "")
    if not op or not w.tokens:
        return value
    return value + comms_bonus(w, op)


# -------------------------------------------------------------------------------------------
# Mines
# -------------------------------------------------------------------------------------------


def d3(d6: int) -> int:
    """A D3 from one D6 (2.4): half the face rounded up.

    Raises:
        ValueError: a face outside 1-6."""
    if not 1 <= d6 <= 6:
        raise ValueError(f"a D6 shows 1 to 6, not {d6}")
    return (d6 + 1) // 2


@attrs.frozen(slots=True)
class MinesFrame:
    """The damage of the mines set off by one change, in the order they went off (module
    docstring): for each, one D6 rolled for the D3.

    Attributes:
        queue: ``(operative, mine's name, mine's owner)`` for each mine still to resolve.
    """

    queue: tuple[tuple[str, str, str], ...]

    def run(self, w: Work) -> None:
        if not self.queue:
            w.stack.pop()
            return
        op, marker, owner = self.queue[0]
        if not w.op(op).alive:  # already incapacitated by a mine before this one
            w.replace_top(queue=self.queue[1:])
            return
        w.roll("mines", owner, 1, label=f"Mines D3 ({marker})")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - never a decision
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - never a decision
        raise IllegalActionError("the Mines roll their damage: nothing to decide (7.2)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        op, marker, _ = self.queue[0]
        w.replace_top(queue=self.queue[1:])
        roll = d3(values[0])
        damage = roll + 3
        w.emit("mines_damage", op=op, marker=marker, d6=values[0], d3=roll, damage=damage)
        universal.inflict(w, op, damage, "Mines")
        if not w.in_action():
            universal.remove_casualties(w)


def _set_off(w: Work, t: Token, op: str) -> None:
    """Remove the mine ``t`` and queue its damage on ``op``: one :class:`MinesFrame` per
    change (its queue in the order the mines went off), pushed once the change is done
    (:meth:`~engine.game.work.Work.defer_frame`)."""
    w.tokens = [x for x in w.tokens if x is not t]
    w.emit("mines_triggered", op=op, marker=t.name, player=t.owner)
    item = (op, t.name, t.owner)
    for i, (trigger, info) in enumerate(w.deferred):
        frame = info.get("frame") if not trigger else None
        if isinstance(frame, MinesFrame):
            w.deferred[i] = (trigger, {"frame": MinesFrame((*frame.queue, item))})
            return
    w.defer_frame(MinesFrame((item,)))


def check_mines(w: Work, ops: Iterable[str] | None = None) -> None:
    """Set off every mine now within the control range of an operative of ``ops`` (ids;
    default every operative on the killzone), each on the first such operative in state
    order (module docstring). For rules that set up or place operatives."""
    mines = _tokens(w, MINES)
    if not mines:
        return
    wanted = None if ops is None else set(ops)
    for t in mines:
        for o in w.alive():
            if wanted is not None and o.id not in wanted:
                continue
            if token_contests(w, o, t):
                _set_off(w, t, o.id)
                break


def _on_moved(w: Work, ev: Event) -> None:
    """An operative moved: the mines that came within its control range along the route it
    took (:func:`engine.game.universal.move_route`, module docstring) go off in the order
    met (:func:`engine.rules.equipment.shapes.first_within_marker_range`)."""
    if not w.tokens:
        return
    mines = _tokens(w, MINES)
    if not mines:
        return
    o = w.op(ev["op"])
    if not o.alive:
        return
    end = w.place(o)
    route = universal.move_route(w, ev)
    length = route.length
    kz = w.kz
    met: list[tuple[float, int, Token]] = []
    for k, t in enumerate(mines):
        if t.elevation:  # on Vantage: judged where the move ends
            if _in_range(w, end, t):
                met.append((length, k, t))
            continue
        here = first_within_marker_range(kz, route, (t.x, t.y), MARKER_DIAMETER_MM)
        if here is not None:
            met.append((universal.route_distance(route, here.x, here.y), k, t))
    for _, _, t in sorted(met, key=lambda m: (m[0], m[1])):
        _set_off(w, t, o.id)


def _on_set_up(w: Work, ev: Event) -> None:
    """An operative was set up (deployment, or a rule): mines within its control range."""
    if w.tokens:
        check_mines(w, (ev["op"],))


def _on_sight_changed(w: Work, ev: Event) -> None:
    """Sight changed (a hatchway operated, equipment set up): any mine now within an
    operative's control range goes off."""
    if w.tokens:
        check_mines(w)


# -------------------------------------------------------------------------------------------


def install(hooks: Hooks) -> None:
    """Add the Ammo Resupply action and its re-roll for both players, the Comms Device's
    ``would_support_distance`` hook and the Mines' checks (module docstring); once per
    hooks (a second call adds nothing)."""
    if any(act is AMMO_RESUPPLY for act, _ in hooks.actions):
        return
    hooks.action(AMMO_RESUPPLY, ("A", "B"))
    hooks.ploy(AMMO_REROLL, ("A", "B"))
    hooks.on("dice_rolled", _new_attack_dice)
    hooks.transform("would_support_distance", _support)
    hooks.on("moved", _on_moved)
    hooks.on("deployed", _on_set_up)
    hooks.on("operative_set_up", _on_set_up)
    hooks.on("hatch_operated", _on_sight_changed)
    hooks.on("equipment_set_up", _on_sight_changed)
