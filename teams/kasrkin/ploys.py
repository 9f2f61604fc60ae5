"""The Kasrkin's strategy ploys (``rules/KT24.md`` 7.1; registered by rule id in
``engine.rules.registry``): Engage From Cover, Elimination Pattern, Relocate, Clearance Sweep.
The firefight ploys: :mod:`teams.kasrkin.firefight_ploys`."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.rules import Ceaseless, Piercing, PiercingCrits
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.ploys import Reroll
from engine.game.state import other
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.choices import on_choice
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import register
from teams.kasrkin.common import (
    asking_cover,
    is_kasrkin,
    no_cover_saves,
    player_token,
    ploy_installer,
    reroll_gain,
    shoot_frame,
)

# -- Engage From Cover -------------------------------------------------------------------------

ENGAGE_FROM_COVER = "engage_from_cover"
_EFC_USED = "kasrkin_engage_from_cover_used"


def _per_kasrkin(w: Work, player: str, each: float, hot_shot: bool = False) -> float:
    """``each`` per friendly KASRKIN operative on the killzone (with a hot-shot weapon
    when ``hot_shot``), at most 0.4: a rule of thumb for a strategy ploy that helps each."""
    n = 0
    for o in w.alive(player):
        if not is_kasrkin(w, o.id):
            continue
        if hot_shot and not any(
            HOT_SHOT in wp.name.lower() for wp in w.ctx.datacards[o.id].weapons
        ):
            continue
        n += 1
    return min(0.4, each * n)


def _efc_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.03 operatives per friendly KASRKIN operative (a defence re-roll for
    each one shot in cover this turning point)."""
    return _per_kasrkin(w, player, 0.03)


ENGAGE_FROM_COVER_PLOY = Ploy(
    "Engage From Cover",
    "strategy",
    effects=(GainToken(ENGAGE_FROM_COVER, "end_tp"),),
    rule_id="kasrkin/strategy_ploy/engage_from_cover",
    advice=_efc_advice,
)


@attrs.frozen(slots=True)
class EngageFromCoverReroll:
    """The re-roll Engage From Cover gives in the defence dice window of a Shoot against a
    friendly Kasrkin in cover (a rule option, free: the ploy was paid in the Gambit step).
    Its actions are ``Use engage from cover <face>``; one per defence roll."""

    name: str = "Engage From Cover (re-roll)"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("defence_dice",)
    repeatable: bool = True
    rerolls: bool = True

    def _applies(self, w: Work, player: str, info: Mapping[str, Any]) -> bool:
        target = str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or w.ctx.owner.get(target) != player:
            return False
        if not is_kasrkin(w, target) or not player_token(w, player, ENGAGE_FROM_COVER):
            return False
        if w.count(player, _EFC_USED):
            return False
        f = shoot_frame(w)
        return f is not None and bool(f.cover)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use engage from cover <face>`` for each face of a die not re-rolled yet."""
        if not w.effects or not self._applies(w, player, info):
            return []
        dice, flags = info.get("dice", ()), info.get("flags", ())
        faces = sorted({v for v, f in zip(dice, flags, strict=True) if not f}, reverse=True)
        return [Action("Use", text=f"engage from cover {v}") for v in faces]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use engage from cover <face>``."""
        return action.verb == "Use" and action.text.startswith("engage from cover ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Engage From Cover re-rolls one defence die of a friendly KASRKIN "
            "operative in cover, once per defence roll"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the one die chosen."""
        w.count(player, _EFC_USED, add=1)
        return Reroll((int(action.text.rsplit(" ", 1)[1]),))

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """The dice core's exact gain of re-rolling that defence die (as for a Command
        Re-roll)."""
        return reroll_gain(w, (int(action.text.rsplit(" ", 1)[1]),), attacking=False)


ENGAGE_FROM_COVER_REROLL = EngageFromCoverReroll()


def install_engage_from_cover(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Engage From Cover (strategy, 1CP): until the end of the turning point, whenever a
    friendly KASRKIN operative in cover is shot, its player may re-roll one defence die
    (once per defence roll)."""

    def fresh_defence(w: Work, ev: Event) -> None:
        if ev.get("label") != "defence":
            return
        player = ev["player"]
        used = w.count(player, _EFC_USED) if w.pl(player).uses else 0
        if used:
            w.count(player, _EFC_USED, add=-used)

    hooks.ploy(ENGAGE_FROM_COVER_PLOY, players)
    hooks.ploy(ENGAGE_FROM_COVER_REROLL, players)
    hooks.on("dice_rolled", fresh_defence)


# -- Elimination Pattern -----------------------------------------------------------------------

ELIMINATION_PATTERN = "elimination_pattern"
HOT_SHOT = "hot-shot"
VOLLEY_GUN = "hot-shot volley gun"


def _ep_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.04 operatives per friendly KASRKIN operative with a hot-shot weapon
    (a defence die fewer now and then)."""
    return _per_kasrkin(w, player, 0.04, hot_shot=True)


ELIMINATION_PATTERN_PLOY = Ploy(
    "Elimination Pattern",
    "strategy",
    effects=(GainToken(ELIMINATION_PATTERN, "end_tp"),),
    rule_id="kasrkin/strategy_ploy/elimination_pattern",
    advice=_ep_advice,
)


def install_elimination_pattern(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Elimination Pattern (strategy, 1CP): until the end of the turning point, a friendly
    KASRKIN operative's hot-shot weapons have Piercing Crits 1 (the hot-shot volley gun
    Piercing 1) when shooting a target that cannot retain any cover saves."""

    def rules(w: Work, value: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or not w.effects or not is_kasrkin(w, op):
            return value
        player = w.ctx.owner[op]
        if player not in players or not player_token(w, player, ELIMINATION_PATTERN):
            return value
        name = str(info.get("weapon", "")).lower()
        if HOT_SHOT not in name or not info.get("target") or asking_cover(w):
            return value
        if not no_cover_saves(w):
            return value
        if name.startswith(VOLLEY_GUN):
            return value.with_rules(Piercing(1))
        return value.with_rules(PiercingCrits(1))

    hooks.ploy(ELIMINATION_PATTERN_PLOY, players)
    hooks.transform("would_use_weapon_rules", rules)


# -- Relocate ----------------------------------------------------------------------------------

RELOCATE_DISTANCE = 3.0


def _clear_of_enemies(w: Work, op: str) -> bool:
    """``op`` is more than 3" from every enemy operative."""
    me = w.place(w.op(op))
    return all(w.distance(me, w.place(e)) > RELOCATE_DISTANCE for e in w.enemies_of(op))


def _relocate_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.tp > 1


def _relocate_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op) and _clear_of_enemies(w, op)


def _relocate_group(w: Work, chosen: str) -> list[str]:
    """The selected operative and each other friendly KASRKIN operative within 3" of it and
    more than 3" from enemies (judged when the ploy is used), in roster order."""
    me = w.place(w.op(chosen))
    others = [
        o.id
        for o in w.friends_of(chosen)
        if is_kasrkin(w, o.id)
        and w.distance(me, w.place(o)) <= RELOCATE_DISTANCE
        and _clear_of_enemies(w, o.id)
    ]
    return [chosen, *others]


RELOCATE_ORDER = "kasrkin_relocate_order"


def _relocate_next(w: Work, player: str, left: list[str]) -> None:
    """The player picks which of ``left`` dashes next (a :class:`RuleChoiceFrame`, ``Use
    relocate on <op>``; ``Decline``: none of the rest dashes); a lone one dashes at once."""
    from engine.rules.choices import RuleChoiceFrame

    if len(left) == 1:
        universal.start_free_action(w, left[0], ("Dash",))
        return
    w.stack.append(
        RuleChoiceFrame(
            player=player,
            rule="Relocate",
            key=RELOCATE_ORDER,
            op=left[0],
            candidates=tuple(left),
        )
    )


def _relocate_chosen(w: Work, frame: Any, chosen: str) -> None:
    """The operative chosen dashes now (its free Dash on top), then the player picks the
    next among the rest."""
    if not chosen:
        return
    left = [c for c in frame.candidates if c != chosen and w.op(c).alive]
    if left:
        _relocate_next(w, frame.player, left)  # runs after the Dash (pushed first)
    universal.start_free_action(w, chosen, ("Dash",))


def _relocate(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The selected operative and each friendly KASRKIN operative within 3" of it and more
    than 3" from enemies may each perform a free Dash, in an order of the player's choice:
    a choice ``Use relocate on <op>`` before each Dash (``Decline``: the rest do not
    dash; each free Dash may also be skipped with ``End activation``)."""
    _relocate_next(w, player, _relocate_group(w, action.target))


def _relocate_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.06 operatives per operative that dashes (a free 3" each)."""
    return 0.06 * len(_relocate_group(w, action.target))


RELOCATE_PLOY = Ploy(
    "Relocate",
    "strategy",
    target="friendly",
    condition=_relocate_condition,
    eligible=_relocate_eligible,
    use_hook=_relocate,
    rule_id="kasrkin/strategy_ploy/relocate",
    advice=_relocate_advice,
)


# -- Clearance Sweep ---------------------------------------------------------------------------

CLEARANCE_SWEEP = "clearance_sweep"
SWEEP_RANGE = 5.0
_MARKER_RADIUS = 20.0 / 25.4 / 2  # a 20 mm marker (4.8)


def sweep_marker(w: Work, player: str) -> Token | None:
    """``player``'s Clearance Sweep marker on the killzone, or None."""
    return next((t for t in w.tokens if t.kind == CLEARANCE_SWEEP and t.owner == player), None)


SWEEP_GRID = 1.0
"""The spacing of the grid of candidate spots for the Clearance Sweep marker (inches)."""


def sweep_spots(w: Work) -> list[tuple[float, float]]:
    """Where the Clearance Sweep marker may be placed. The rule lets it go anywhere in the
    killzone; the notation and agents need a finite choice, so: each operative's spot, each
    objective marker and the killzone's centre (in that order), then every point of a 1"
    grid (:data:`SWEEP_GRID`) over the killzone, those on its edges moved in just enough
    for the 20 mm marker to lie wholly in it (0.4"), all rounded to 0.1", without repeats.
    Wherever the marker could be placed, a spot offered is then at most 0.71" (half the
    grid's diagonal) away, against the rule's 5" reach; terrain does not matter (its
    distances are horizontal)."""
    out: list[tuple[float, float]] = []
    seen: set[tuple[float, float]] = set()
    points = [(o.x, o.y) for o in w.alive()] + [(m.x, m.y) for m in w.markers if not m.carrier]
    points.append((w.kz.width / 2, w.kz.depth / 2))
    for x, y in points:
        p = (round(x, 1), round(y, 1))
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out + [p for p in _sweep_grid(w.kz.width, w.kz.depth) if p not in seen]


@functools.cache
def _sweep_grid(width: float, depth: float) -> tuple[tuple[float, float], ...]:
    """The grid part of :func:`sweep_spots` for a killzone of that size, rounded, without
    repeats (the same for every call: computed once)."""

    def line(size: float) -> list[float]:
        # 0, 1, 2... size, moved in to keep the marker in the killzone (the edge points).
        lo, hi = math.ceil(_MARKER_RADIUS * 10) / 10, math.floor((size - _MARKER_RADIUS) * 10) / 10
        n = int(size // SWEEP_GRID)
        return [min(hi, max(lo, i * SWEEP_GRID)) for i in range(n + 1)]

    grid = ((round(x, 1), round(y, 1)) for x in line(width) for y in line(depth))
    return tuple(dict.fromkeys(grid))


def _spot_text(p: tuple[float, float]) -> str:
    return f"{p[0]:g},{p[1]:g}"


def place_sweep_marker(w: Work, player: str, spot: tuple[float, float]) -> None:
    """(Re)place ``player``'s Clearance Sweep marker at ``spot``."""
    w.tokens = [t for t in w.tokens if not (t.kind == CLEARANCE_SWEEP and t.owner == player)]
    name = f"{player} clearance sweep"
    w.tokens = [*w.tokens, Token(CLEARANCE_SWEEP, player, name, spot[0], spot[1])]
    w.emit("clearance_sweep_placed", player=player, x=spot[0], y=spot[1])


def within_sweep(w: Work, t: Token, op: str) -> bool:
    """``op`` is within 5" horizontally of the marker ``t`` (edge of its base to edge of the
    20 mm marker)."""
    o = w.op(op)
    return _within(o.x, o.y, w.place(o).radius, t.x, t.y)


def _within(x: float, y: float, r: float, tx: float, ty: float) -> bool:
    """:func:`within_sweep` for a base of radius ``r`` centred on ``(x, y)`` and a marker at
    ``(tx, ty)`` (inches)."""
    return math.hypot(x - tx, y - ty) - r - _MARKER_RADIUS <= SWEEP_RANGE + 1e-9


def _sweep_bases(w: Work, player: str) -> tuple[tuple[float, float, float, bool], ...]:
    """``(x, y, radius, is KASRKIN)`` of ``player``'s living operatives, kept on ``w`` until
    an operative changes (:meth:`~engine.game.work.Work.kept`)."""

    def bases() -> tuple[tuple[float, float, float, bool], ...]:
        return tuple((o.x, o.y, w.place(o).radius, is_kasrkin(w, o.id)) for o in w.alive(player))

    return w.kept(("kasrkin sweep bases", player), bases)


@attrs.frozen(slots=True)
class ClearanceSweep:
    """Clearance Sweep (strategy, 1CP; a :class:`engine.game.ploys.PloyLike`): place the
    player's Clearance Sweep marker in the killzone (one of :func:`sweep_spots`: operatives'
    spots, objective markers, the centre and a 1" grid over the killzone); until the
    Ready step of the next Strategy phase, whenever a friendly KASRKIN operative within 5"
    horizontally of it is shooting an operative also within 5" horizontally of it, its
    weapons have Ceaseless. Notation ``Ploy clearance sweep at <x>,<y>``."""

    name: str = "Clearance Sweep"
    kind: str = "strategy"
    cp: int = 1
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = False
    rule_id: str = "kasrkin/strategy_ploy/clearance_sweep"

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per spot."""
        return [Action("Ploy", text=f"clearance sweep at {_spot_text(p)}") for p in sweep_spots(w)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy clearance sweep at <x>,<y>``."""
        return action.verb == "Ploy" and action.text.startswith("clearance sweep")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        spots = "; ".join(_spot_text(p) for p in sweep_spots(w))
        return f"{action}: Clearance Sweep places its marker at one of: {spots}"

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Place the marker."""
        x, y = action.text.rsplit(" ", 1)[1].split(",")
        place_sweep_marker(w, player, (float(x), float(y)))

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: a tenth of an operative per friendly KASRKIN operative within 5"
        of the spot that has an enemy within 5" of it too (Ceaseless on the shots it may
        take there), at most 0.5."""
        x, y = (float(v) for v in action.text.rsplit(" ", 1)[1].split(","))
        if not any(_within(ox, oy, r, x, y) for ox, oy, r, _ in _sweep_bases(w, other(player))):
            return 0.0
        mine = sum(1 for ox, oy, r, k in _sweep_bases(w, player) if k and _within(ox, oy, r, x, y))
        return min(0.5, 0.1 * mine)


CLEARANCE_SWEEP_PLOY = ClearanceSweep()


def install_clearance_sweep(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Clearance Sweep (class docstring): Ceaseless through ``would_use_weapon_rules``; the
    marker is removed at the Ready step."""

    def ceaseless(w: Work, rules: Any, **info: Any) -> Any:
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or not w.tokens or not is_kasrkin(w, op):
            return rules
        player = w.ctx.owner[op]
        t = sweep_marker(w, player) if player in players else None
        if t is None or rules.has(Ceaseless):
            return rules
        if within_sweep(w, t, op) and within_sweep(w, t, target):
            return rules.with_rules(Ceaseless())
        return rules

    def ready(w: Work, ev: Event) -> None:
        if any(t.kind == CLEARANCE_SWEEP for t in w.tokens):
            w.tokens = [t for t in w.tokens if t.kind != CLEARANCE_SWEEP]

    hooks.ploy(CLEARANCE_SWEEP_PLOY, players)
    hooks.transform("would_use_weapon_rules", ceaseless)
    hooks.on("ready_step", ready)


add_template(
    "clearance_sweep_placed",
    lambda e: f"  {e['player']} places the Clearance Sweep marker at ({e['x']:g}, {e['y']:g})",
)


register(
    "kasrkin/strategy_ploy/engage_from_cover",
    install_engage_from_cover,
    "Until the end of the TP, a friendly Kasrkin in cover that is shot re-rolls one defence die.",
)
register(
    "kasrkin/strategy_ploy/elimination_pattern",
    install_elimination_pattern,
    "Until the end of the TP, hot-shot weapons get Piercing Crits 1 (volley gun Piercing 1) "
    "against targets that cannot retain cover saves.",
)
on_choice(RELOCATE_ORDER, _relocate_chosen)

register(
    "kasrkin/strategy_ploy/relocate",
    ploy_installer(RELOCATE_PLOY),
    'From TP2: a Kasrkin more than 3" from enemies, and friends within 3" of it also clear '
    "of enemies, each make a free Dash, in an order of the player's choice.",
)
register(
    "kasrkin/strategy_ploy/clearance_sweep",
    install_clearance_sweep,
    'Place a marker: a Kasrkin within 5" of it shooting a target also within 5" of it has '
    "Ceaseless, until the next Ready step.",
)
