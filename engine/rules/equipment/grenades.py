"""Utility Grenades and Explosive Grenades, two universal equipment options
(``rules/KT24.md`` 7.2; their actions and profiles as in the equipment data).

Both options are selected with a split of two uses (:data:`engine.rules.equipment.SELECTIONS`:
two of one grenade or one of each); the uses belong to the whole kill team and are counted on
the player's counters (:meth:`engine.game.work.Work.count`, keys ``"<grenade> grenades
used"``). Nothing here is active for a player who did not select the option.

Explosive Grenades
    Every operative of the player has the ranged weapons :data:`FRAG` and :data:`KRAK`
    (``hooks.weapon_source``) while the kill team has uses of that grenade left. A use is
    counted when a Shoot with it ends (``shoot_ended``), so the weapon stays on the operative
    for the whole action. An operative whose datacard has a weapon of the same name keeps its
    own (no second weapon of that name, and using its own spends no use); so does one to which
    a rule gives a weapon of that name as its own (``would_own_weapon``). A grenade with no
    use left is also refused (``would_refuse_weapon``), naming the rule.

Utility Grenades: two rule actions (:mod:`engine.game.rule_actions`), each 1AP, never while
within control range of an enemy operative, each at most as often as the split allows.

- **Smoke Grenade** (``Act KAS-1 smoke grenade at 8,4`` or ``at x,y,z`` on Vantage): a smoke
  marker (a :class:`~engine.game.tokens.Token` of kind ``"smoke"``) within 6" of the operative
  (measured to the 20 mm marker), visible to it, or on Vantage terrain of a feature visible
  to it (:func:`smoke_spot_problem`). Listed spots (:func:`smoke_spots`): the operative's own
  spot, every other operative's spot, and 3" away in the eight compass directions.
  An operative is wholly within its area (:func:`wholly_in_smoke`) when its whole base is within
  1" horizontally of the marker's centre and it is not below the marker. While an operative is
  wholly within smoke, it is obscured to operatives more than 2" from it, and **vice versa**:
  we read "vice versa" as "operatives more than 2" away are obscured to it", so a shooter in
  smoke sees every target more than 2" away as obscured (``would_be_obscured``). When
  shooting an enemy wholly within smoke from more than 2" away, Piercing 2 is Piercing 1 and
  Piercing Crits 2 is Piercing Crits 1 (``would_use_weapon_rules``; only an x of exactly 2,
  as printed: smoke never adds a defence die, EDGE_CASES 4).
  Duration: in the Ready step of the next Strategy phase one D3 is rolled per smoke marker
  (:class:`SmokeDurationFrame`: one D6 per marker, in the order the markers were placed,
  D3 = ceil(D6 / 2): 1-2 -> 1, 3-4 -> 2, 5-6 -> 3); the marker is removed once that many
  activations (any player's; counteractions and On Guard interrupts are not activations)
  have been completed, or at the end of that turning point, whichever comes first.
- **Stun Grenade** (``Act KAS-1 stun grenade on LEG-2``): an enemy operative visible to and
  within 6" of the operative. It and every other operative within 1" of it (either side, the
  thrower too) take a stun test: :class:`StunTestFrame` rolls one D6 per operative in one
  chance node, ordered: the selected enemy first, then the others in roster order (A's
  operatives, then B's); on a 3+ the operative's APL is -1 until the end of its next
  activation (an effect of kind ``"apl"``, clamped with the others as in 2.1).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import Any

import attrs
from shapely.geometry import Point

from engine.dice.rules import Piercing, PiercingCrits, WeaponRules, parse_weapon_rules
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Killzone, Placement, TerrainType, sight
from engine.teams.model import Weapon, WeaponProfile

__all__ = [
    "FRAG",
    "KRAK",
    "MARKER_MM",
    "SMOKE_CLEAR",
    "SMOKE_GRENADE",
    "SMOKE_RADIUS",
    "STUN_GRENADE",
    "STUN_REACH",
    "STUN_TEST",
    "THROW_RANGE",
    "SmokeDurationFrame",
    "SmokeGrenade",
    "StunGrenade",
    "StunTestFrame",
    "d3",
    "grenades_left",
    "install",
    "smoke_spot_problem",
    "smoke_spots",
    "stun_candidates",
    "stun_tested",
    "wholly_in_smoke",
]

FRAG = Weapon(
    "frag grenade",
    "ranged",
    (WeaponProfile("", 4, 4, 2, 4, parse_weapon_rules('Range 6", Blast 2", Saturate')),),
)
"""The frag grenade of Explosive Grenades: 4 attacks, Hit 4+, 2/4, Range 6", Blast 2",
Saturate (7.2)."""

KRAK = Weapon(
    "krak grenade",
    "ranged",
    (WeaponProfile("", 4, 4, 4, 5, parse_weapon_rules('Range 6", Piercing 1, Saturate')),),
)
"""The krak grenade of Explosive Grenades: 4 attacks, Hit 4+, 4/5, Range 6", Piercing 1,
Saturate (rules/KT24.md 6 and 7.2, after the 2024 game data; the KTDash-derived equipment data
omits Saturate, and the digest decides where the sources disagree)."""

_EXPLOSIVE = {"frag": FRAG, "krak": KRAK}
_BY_NAME = {"frag grenade": "frag", "krak grenade": "krak"}

THROW_RANGE = 6.0
"""How far a smoke marker or a stun grenade's target may be from the thrower (inches)."""

SMOKE_RADIUS = 1.0
"""A smoke area's horizontal radius around the centre of its marker (inches)."""

SMOKE_CLEAR = 2.0
"""Within this distance (inches) smoke neither obscures nor reduces Piercing."""

STUN_REACH = 1.0
"""Operatives within this distance (inches) of a stun grenade's target take a stun test."""

STUN_TEST = 3
"""A stun test succeeds (APL -1) on this D6 result or more."""

MARKER_MM = 20.0
"""A smoke marker's diameter (mm): markers other than objective markers are 20 mm (4.8)."""

MARKER_HEIGHT = 0.1
"""The height (inches) of a marker for sight lines to it."""

_SPOT_STEP = 3.0  # inches from the thrower of the eight compass spots
_EPS = 1e-6


# -------------------------------------------------------------------------------------------
# Uses of the kill team's grenades
# -------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _selected(equipment: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """The grenade uses a player's equipment selection gives, as sorted pairs."""
    from engine.rules.equipment.options import grenade_uses, option_of

    total: dict[str, int] = {}
    for sel in equipment:
        if option_of(sel) in ("Utility Grenades", "Explosive Grenades"):
            for g, n in grenade_uses(sel).items():
                total[g] = total.get(g, 0) + n
    return tuple(sorted(total.items()))


def _used_key(grenade: str) -> str:
    return f"{grenade} grenades used"


def _total(w: Work, player: str, grenade: str) -> int:
    equipment = w.pl(player).equipment
    if not equipment:
        return 0
    return dict(_selected(equipment)).get(grenade, 0)


def grenades_left(w: Work, player: str, grenade: str) -> int:
    """How many more times ``player``'s kill team may use ``grenade`` (``"frag"``,
    ``"krak"``, ``"smoke"`` or ``"stun"``): its selection's split minus the uses so far."""
    total = _total(w, player, grenade)
    if not total:
        return 0
    return total - w.count(player, _used_key(grenade))


def _use(w: Work, player: str, grenade: str) -> None:
    used = w.count(player, _used_key(grenade), 1)
    w.emit(
        "grenade_used",
        player=player,
        grenade=grenade,
        left=_total(w, player, grenade) - used,
    )


# -------------------------------------------------------------------------------------------
# Explosive Grenades
# -------------------------------------------------------------------------------------------


def _own_weapon(w: Work, op_id: str, name: str) -> bool:
    """Whether ``op_id`` has a weapon called ``name`` (notation form) of its own: on its
    datacard, or one a rule gives it as its own (the ``would_own_weapon`` hook,
    ``fn(w, False, op=, weapon=) -> bool``: such a weapon spends no equipment use and the
    equipment gives no second one of that name; its answer must not change during the
    battle, as the weapons are cached)."""
    names = w.ctx.cached(
        ("own weapon names", op_id),
        lambda: frozenset(" ".join(x.name.lower().split()) for x in w.ctx.datacards[op_id].weapons),
    )
    if name in names:
        return True
    if not w.ctx.hooks.would.get("would_own_weapon"):
        return False
    return bool(w.would("would_own_weapon", False, op=op_id, weapon=name))


def _grenade_weapons(w: Work, op_id: str, kind: str) -> tuple[Weapon, ...]:
    """The explosive grenades ``op_id`` has now (module docstring)."""
    if kind != "ranged":
        return ()
    player = w.ctx.owner[op_id]
    equipment = w.pl(player).equipment
    if not equipment:
        return ()
    selected = _selected(equipment)
    if not selected:
        return ()
    left = tuple(g for g, n in selected if g in _EXPLOSIVE and n > w.count(player, _used_key(g)))
    if not left:
        return ()
    return w.ctx.cached(  # type: ignore[no-any-return]
        ("grenade weapons", op_id, left),
        lambda: tuple(
            _EXPLOSIVE[g]
            for g in _EXPLOSIVE
            if g in left and not _own_weapon(w, op_id, _EXPLOSIVE[g].name)
        ),
    )


def _refuse_grenade(w: Work, value: Any, **info: Any) -> Any:
    """``would_refuse_weapon``: an explosive grenade whose uses are gone (7.2)."""
    if value is not None:
        return value
    g = _BY_NAME.get(info.get("weapon", ""))
    o = info.get("op")
    if g is None or not isinstance(o, OperativeState) or _own_weapon(w, o.id, info["weapon"]):
        return value
    if grenades_left(w, o.player, g) <= 0:
        total = _total(w, o.player, g)
        return (
            f"{o.player}'s kill team has no {g} grenade left: Explosive Grenades give it "
            f"{total} use(s) in the battle (7.2)"
        )
    return value


def _on_shoot_ended(w: Work, ev: Event) -> None:
    """A Shoot with an explosive grenade ended: one use of the kill team's is spent."""
    g = _BY_NAME.get(ev["weapon"])
    if g is None or _own_weapon(w, ev["op"], ev["weapon"]):
        return
    player = w.ctx.owner[ev["op"]]
    if _total(w, player, g):
        _use(w, player, g)


# -------------------------------------------------------------------------------------------
# Smoke: the area, obscuring, Piercing, duration
# -------------------------------------------------------------------------------------------


def wholly_in_smoke(p: Placement, smoke: Token) -> bool:
    """Whether an operative at ``p`` is wholly within the area of the smoke marker ``smoke``:
    its whole base within :data:`SMOKE_RADIUS` horizontally of the marker's centre, and its
    base not below the marker (the area goes up from the marker without limit, never
    below; 7.2 Smoke Grenade)."""
    if p.elevation < smoke.elevation - _EPS:
        return False
    return math.hypot(p.x - smoke.x, p.y - smoke.y) + p.radius <= SMOKE_RADIUS + _EPS


def _smokes(w: Work) -> list[Token]:
    return [t for t in w.tokens if t.kind == "smoke"]


def _in_smoke(p: Placement, smokes: Iterable[Token]) -> bool:
    return any(wholly_in_smoke(p, s) for s in smokes)


def _smoke_obscures(w: Work, value: Any, **info: Any) -> Any:
    """``would_be_obscured``: the shooter or the target wholly within smoke and more than 2"
    apart (module docstring: "vice versa")."""
    if value or not w.tokens:
        return value
    smokes = _smokes(w)
    if not smokes:
        return value
    a, b = w.place(w.op(info["op"])), w.place(w.op(info["target"]))
    if not (_in_smoke(b, smokes) or _in_smoke(a, smokes)):
        return value
    return True if w.distance(a, b) > SMOKE_CLEAR + _EPS else value


def _reduce(rule: Any) -> Any:
    if isinstance(rule, (Piercing, PiercingCrits)) and rule.x == 2:
        return type(rule)(1)
    return rule


def _smoke_piercing(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
    """``would_use_weapon_rules``: shooting an enemy wholly within smoke from more than 2"
    away, Piercing 2 and Piercing Crits 2 become 1 (7.2)."""
    target, op = info.get("target", ""), info.get("op", "")
    if not target or not op or info.get("kind") != "ranged" or not w.tokens:
        return rules
    if not any(_reduce(r) is not r for r in rules):
        return rules
    if w.ctx.owner[target] == w.ctx.owner[op]:
        return rules
    smokes = _smokes(w)
    b = w.place(w.op(target))
    if not _in_smoke(b, smokes) or w.distance(w.place(w.op(op)), b) <= SMOKE_CLEAR + _EPS:
        return rules
    return WeaponRules(tuple(_reduce(r) for r in rules))


def d3(d6: int) -> int:
    """The D3 a D6 result gives: ceil(d6 / 2) (1-2 -> 1, 3-4 -> 2, 5-6 -> 3)."""
    return (d6 + 1) // 2


@attrs.frozen(slots=True)
class SmokeDurationFrame:
    """The smoke markers' D3 rolls in the Ready step (module docstring): one chance node per
    marker, a D6 rolled by the marker's owner, in placement order.

    Attributes:
        markers: the names of the smoke tokens still to roll for.
    """

    markers: tuple[str, ...]

    def run(self, w: Work) -> None:
        if not self.markers:
            w.stack.pop()
            return
        tok = _token(w, self.markers[0])
        if tok is None:  # pragma: no cover - a marker is only removed by its own rules
            w.replace_top(markers=self.markers[1:])
            return
        w.roll("smoke", tok.owner, 1, label=f"smoke duration ({tok.name})")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        name = self.markers[0]
        tok = _token(w, name)
        assert tok is not None
        v = values[0]
        w.emit("dice_rolled", player=tok.owner, label=f"D3 for {name}", values=values)
        _replace_token(w, tok.with_counter("rolled", w.tp).with_counter("left", d3(v)))
        w.emit("smoke_duration", marker=name, roll=v, activations=d3(v))
        w.replace_top(markers=self.markers[1:])

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node
        raise IllegalActionError("the smoke markers' D3 must be rolled here (7.2)")


def _token(w: Work, name: str) -> Token | None:
    for t in w.tokens:
        if t.name == name:
            return t  # type: ignore[no-any-return]
    return None


def _replace_token(w: Work, new: Token) -> None:
    w.tokens = [new if t.name == new.name else t for t in w.tokens]


def _remove_smoke(w: Work, tok: Token, why: str) -> None:
    w.tokens = [t for t in w.tokens if t.name != tok.name]
    w.emit("smoke_removed", marker=tok.name, why=why)


def _on_ready_step(w: Work, ev: Event) -> None:
    """Ready step: roll the D3 of every smoke marker placed before this turning point."""
    names = tuple(t.name for t in _smokes(w) if not t.counter("rolled"))
    if names:
        w.stack.append(SmokeDurationFrame(names))


def _on_activation_ended(w: Work, ev: Event) -> None:
    """An activation was completed: count it for the smoke markers rolled for this turning
    point; remove those whose D3 activations are done."""
    if ev.get("counteract") or ev.get("interrupt") or not w.tokens:
        return
    for tok in _smokes(w):
        if tok.counter("rolled") != w.tp:
            continue
        left = tok.counter("left") - 1
        if left <= 0:
            _remove_smoke(w, tok, "its D3 activations are completed")
        else:
            _replace_token(w, tok.with_counter("left", left))


def _on_turning_point_ended(w: Work, ev: Event) -> None:
    """End of the turning point: the smoke markers rolled for it are removed."""
    for tok in _smokes(w):
        if tok.counter("rolled") == ev["tp"]:
            _remove_smoke(w, tok, "end of the turning point")


# -------------------------------------------------------------------------------------------
# Where a smoke marker may go
# -------------------------------------------------------------------------------------------


def _marker(x: float, y: float, z: float) -> Placement:
    return Placement(x, y, base_mm=MARKER_MM, elevation=z, model_height=MARKER_HEIGHT)


def _vantage_part(kz: Killzone, x: float, y: float, z: float) -> int | None:
    if z <= 0:
        return None
    return kz.standing_part(Placement(x, y, base_mm=MARKER_MM, elevation=z))


def _point_visible(w: Work, me: Placement, x: float, y: float, z: float) -> bool:
    spot = Placement(x, y, base_mm=1.0, elevation=z, model_height=0.02)
    return w.ctx.visible(w.kz, me, spot)


def _feature_visible(w: Work, me: Placement, part: int) -> bool:
    """Whether the terrain feature of part ``part`` is visible to ``me``: some sample point
    of one of its parts is (the top: centre and corners moved 10% inwards; the sides: the
    middle of each edge 0.05" outside, at half the part's height)."""
    kz = w.kz
    feature = kz.parts[part].feature
    for q in kz.parts:
        if q.feature != feature:
            continue
        poly = q.polygon
        c = poly.centroid
        pts = [(c.x, c.y, q.height)]
        ring = list(poly.exterior.coords)[:-1]
        pts += [(x + 0.1 * (c.x - x), y + 0.1 * (c.y - y), q.height) for x, y in ring]
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
            length = math.hypot(x1 - x0, y1 - y0)
            if length <= _EPS:
                continue
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            nx, ny = (y1 - y0) / length * 0.05, (x0 - x1) / length * 0.05
            if poly.covers(Point(mx + nx, my + ny)):
                nx, ny = -nx, -ny
            pts.append((mx + nx, my + ny, q.height / 2))
        if any(_point_visible(w, me, x, y, z) for x, y, z in pts):
            return True
    return False


def smoke_spot_problem(w: Work, o: OperativeState, point: tuple[float, float, float]) -> str | None:
    """Why ``o`` cannot place a smoke marker at ``point`` (``(x, y, z)`` inches; ``z`` the
    height of the Vantage terrain it is placed on, 0 on the killzone floor), or ``None``
    (7.2 Smoke Grenade: within 6" of ``o``, on the killzone, not inside terrain, visible to
    ``o`` or on Vantage terrain of a feature visible to it)."""
    x, y, z = point
    kz = w.kz
    where = f"({x:g}, {y:g}" + (f", {z:g})" if z else ")")
    if not (0 <= x <= kz.width and 0 <= y <= kz.depth) or z < 0:
        return f"a smoke marker at {where} is not on the killzone (7.2)"
    me, m = w.place(o), _marker(x, y, z)
    # The straight distance first: the distance around walls (9.3) is never shorter.
    if sight.distance(me, m) > THROW_RANGE + _EPS or w.distance(me, m) > THROW_RANGE + _EPS:
        return f'a smoke marker at {where} is more than 6" from {o.id} (7.2)'
    part = _vantage_part(kz, x, y, z)
    if z > 0 and part is None:
        return f'there is no Vantage terrain {z:g}" high at ({x:g}, {y:g}) (7.2)'
    if z == 0:
        centre = Point(x, y)
        for i in kz.parts_near(centre):
            k = int(i)
            if kz.has_type(k, TerrainType.INSIGNIFICANT):
                continue
            if kz.parts[k].height > 0 and kz.parts[k].polygon.covers(centre):
                return f"a smoke marker at {where} would be inside terrain (7.2)"
    if w.ctx.visible(kz, me, m):
        return None
    if part is not None and _feature_visible(w, me, part):
        return None
    return (
        f"a smoke marker at {where} is not visible to {o.id}, nor on Vantage terrain of a "
        "feature visible to it (7.2)"
    )


def smoke_spots(w: Work, o: OperativeState) -> list[tuple[float, float, float]]:
    """The listed smoke marker spots of ``o`` (module docstring), each allowed by
    :func:`smoke_spot_problem`, without repeats, in a fixed order: its own spot, the other
    operatives' spots in roster order, then east, north-east, north... at 3"."""
    kz = w.kz
    raw = [(o.x, o.y, o.elevation)]
    raw += [(q.x, q.y, q.elevation) for q in w.alive() if q.id != o.id]
    for k in range(8):
        ang = k * math.pi / 4
        x, y = o.x + _SPOT_STEP * math.cos(ang), o.y + _SPOT_STEP * math.sin(ang)
        z = o.elevation if _vantage_part(kz, x, y, o.elevation) is not None else 0.0
        raw.append((x, y, z))
    out: list[tuple[float, float, float]] = []
    for x, y, z in raw:
        p = (round(x, 3) + 0.0, round(y, 3) + 0.0, round(z, 3) + 0.0)
        if p not in out and smoke_spot_problem(w, o, p) is None:
            out.append(p)
    return out


# -------------------------------------------------------------------------------------------
# The two actions
# -------------------------------------------------------------------------------------------


def _cannot_throw(w: Work, o: OperativeState, grenade: str, action: str) -> str | None:
    total = _total(w, o.player, grenade)
    if not total:
        return f"{o.player} did not select Utility Grenades with {grenade} grenades (7.2)"
    if grenades_left(w, o.player, grenade) <= 0:
        return (
            f"{o.player}'s kill team has performed {action} {total} time(s), all its "
            f"Utility Grenades allow (7.2)"
        )
    if w.in_enemy_control_range(o):
        return f"{o.id} cannot perform {action} within control range of an enemy operative (7.2)"
    return None


@attrs.frozen(slots=True)
class SmokeGrenade:
    """The Smoke Grenade action (module docstring; a
    :class:`~engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Smoke Grenade"
    text: str = "smoke grenade"
    ap: int = 1
    family: str = ""

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP: no smoke grenade left to
        its player (a :class:`~engine.game.rule_actions.RuleActionLike` shortcut)."""
        return bool(w.pl(o.player).equipment) and grenades_left(w, o.player, "smoke") > 0

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> smoke grenade at x,y[,z]`` for each listed spot (:func:`smoke_spots`)."""
        if not w.pl(o.player).equipment or _cannot_throw(w, o, "smoke", self.name) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, point=p) for p in smoke_spots(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (uses, control range, the spot), or ``None``."""
        why = _cannot_throw(w, o, "smoke", self.name)
        if why is not None:
            return why
        if a.target or a.point is None:
            return "a smoke grenade is placed at a point: 'Act <operative> smoke grenade at x,y'"
        return smoke_spot_problem(w, o, a.point)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Place the smoke marker and spend a use."""
        assert a.point is not None
        x, y, z = a.point
        n = w.count(o.player, _used_key("smoke")) + 1
        name = f"{o.player} smoke {n}"
        w.tokens.append(Token("smoke", o.player, name, x, y, z))
        w.emit("smoke_placed", op=o.id, marker=name, x=x, y=y, z=z)
        _use(w, o.player, "smoke")


def stun_candidates(w: Work, o: OperativeState) -> list[OperativeState]:
    """The enemy operatives visible to and within 6" of ``o`` (7.2 Stun Grenade), in roster
    order."""
    me, kz = w.place(o), w.kz
    out = []
    for e in w.enemies_of(o.id):
        p = w.place(e)
        # The straight distance first: the distance around walls (9.3) is never shorter.
        if sight.distance(me, p) > THROW_RANGE + _EPS:
            continue
        if w.distance(me, p) <= THROW_RANGE + _EPS and w.ctx.visible(kz, me, p):
            out.append(e)
    return out


@attrs.frozen(slots=True)
class StunGrenade:
    """The Stun Grenade action (module docstring; a
    :class:`~engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Stun Grenade"
    text: str = "stun grenade"
    ap: int = 1
    family: str = ""

    def offered(self, w: Work, o: OperativeState) -> bool:
        """False when :meth:`options` is empty whatever the AP: no stun grenade left to
        its player (a :class:`~engine.game.rule_actions.RuleActionLike` shortcut)."""
        return bool(w.pl(o.player).equipment) and grenades_left(w, o.player, "stun") > 0

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> stun grenade on <enemy>`` for each enemy it may select."""
        if not w.pl(o.player).equipment or _cannot_throw(w, o, "stun", self.name) is not None:
            return []
        return [Action("Act", op=o.id, text=self.text, target=e.id) for e in stun_candidates(w, o)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` is not allowed now (uses, control range, the target), or ``None``."""
        why = _cannot_throw(w, o, "stun", self.name)
        if why is not None:
            return why
        if not a.target or a.point is not None:
            return "a stun grenade selects an enemy: 'Act <operative> stun grenade on <enemy>'"
        if a.target not in w.ctx.index:
            return f"there is no operative {a.target!r}"
        t = w.op(a.target)
        if t.player == o.player:
            return f"{t.id} is a friendly operative: a stun grenade selects an enemy (7.2)"
        if not t.alive:
            return f"{t.id} is not on the killzone"
        if t not in stun_candidates(w, o):
            return f'{t.id} is not visible to and within 6" of {o.id} (7.2)'
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Spend a use and roll the stun tests (:class:`StunTestFrame`)."""
        _use(w, o.player, "stun")
        w.stack.append(StunTestFrame(ops=stun_tested(w, a.target), source=o.id, player=o.player))


def stun_tested(w: Work, target: str) -> tuple[str, ...]:
    """The operatives that take a stun test when a stun grenade selects ``target``: it, then
    every other operative on the killzone within 1" of it, in roster order (7.2)."""
    tp = w.place(w.op(target))
    reach = STUN_REACH + _EPS
    near = [q.id for q in w.alive() if q.id != target and w.distance(tp, w.place(q)) <= reach]
    return (target, *near)


@attrs.frozen(slots=True)
class StunTestFrame:
    """The stun tests of a stun grenade: one chance node rolling one D6 per operative,
    ordered as ``ops`` (the selected enemy, then the others in roster order).

    Attributes:
        ops: the operatives taking a stun test. source: the thrower. player: its player,
            who rolls.
    """

    ops: tuple[str, ...]
    source: str
    player: str

    def run(self, w: Work) -> None:
        w.roll(
            "stun",
            self.player,
            len(self.ops),
            ordered=True,
            label=f"stun tests ({', '.join(self.ops)})",
        )

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        w.emit("dice_rolled", player=self.player, label="stun tests", values=values)
        for op, v in zip(self.ops, values, strict=True):
            stunned = v >= STUN_TEST and w.op(op).alive
            w.emit("stun_test", op=op, roll=v, stunned=stunned)
            if stunned:
                w.add_effect(Effect("apl", op, "end_next_activation", source=self.source, value=-1))
        w.stack.pop()

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node
        raise IllegalActionError("the stun tests must be rolled here (7.2)")


SMOKE_GRENADE = SmokeGrenade()
STUN_GRENADE = StunGrenade()


def smoke_token(w: Work, owner: str, x: float, y: float, z: float, angle: int) -> Token:
    """A smoke marker of ``owner`` at ``(x, y, z)`` inches as a thrown smoke grenade leaves
    it (a scenario position's ``tokens``, :meth:`engine.game.context.Hooks.token_maker`),
    named after the owner's smoke markers already there (``"A smoke 1"``, ``"A smoke 2"``);
    its ``counters`` (``rolled``: the turning point its D3 was rolled, ``left``: turning
    points left) are the position's."""
    n = sum(1 for t in _smokes(w) if t.owner == owner) + 1
    return Token("smoke", owner, f"{owner} smoke {n}", x, y, z)


def install(hooks: Hooks) -> None:
    """Subscribe both grenade options to a battle's ``hooks`` for both players (each hook
    does nothing for a player who did not select the option)."""
    hooks.weapon_source(_grenade_weapons)
    hooks.transform("would_refuse_weapon", _refuse_grenade)
    hooks.on("shoot_ended", _on_shoot_ended)
    hooks.action(SMOKE_GRENADE, ("A", "B"))
    hooks.action(STUN_GRENADE, ("A", "B"))
    hooks.token_maker("smoke", smoke_token)
    hooks.transform("would_be_obscured", _smoke_obscures)
    # Last: Piercing 2 and Piercing Crits 2 become 1 whichever rule gave them.
    hooks.transform("would_use_weapon_rules", _smoke_piercing, last=True)
    hooks.on("ready_step", _on_ready_step)
    hooks.on("activation_ended", _on_activation_ended)
    hooks.on("turning_point_ended", _on_turning_point_ended)
