"""The Kasrkin's strategy and firefight ploys (``rules/KT24.md`` 7.1)."""

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
from engine.game.state import Effect, other
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.choices import on_choice
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import register
from teams.kasrkin.common import (
    is_kasrkin,
    no_cover_saves,
    player_token,
    ploy_installer,
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
        return _reroll_gain(w, (int(action.text.rsplit(" ", 1)[1]),), attacking=False)


ENGAGE_FROM_COVER_REROLL = EngageFromCoverReroll()


def _reroll_gain(w: Work, faces: tuple[int, ...], attacking: bool) -> float:
    """The dice core's gain of re-rolling dice showing ``faces`` in the Shoot in progress
    (each die valued alone, as one Command Re-roll, and summed)."""
    from engine.advice.rerolls import shoot_reroll_gain

    f = shoot_frame(w)
    if f is None or f is not w.top:
        return 0.0
    return float(sum(shoot_reroll_gain(w, f, attacking, face) for face in faces))


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
        if HOT_SHOT not in name or not info.get("target") or not no_cover_saves(w):
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


# -- Neutralise Target -------------------------------------------------------------------------


def _neutralise_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
        return False
    return is_kasrkin(w, op) and no_cover_saves(w)


def _neutralise_faces(action: Action) -> tuple[int, ...]:
    """The faces a ``Ploy neutralise target <faces>`` action re-rolls (``()`` if none)."""
    rest = action.text.removeprefix(NEUTRALISE_TEXT).strip()
    try:
        return tuple(int(v) for v in rest.split(",")) if rest else ()
    except ValueError:
        return ()


NEUTRALISE_TEXT = "neutralise target"


@attrs.frozen(slots=True)
class NeutraliseTarget:
    """Neutralise Target (firefight, 1CP; a :class:`engine.game.ploys.PloyLike`): after a
    friendly KASRKIN operative's attack dice are rolled for a Shoot against a target that
    cannot retain any cover saves or is being scanned (Auspex Scan), its player re-rolls
    any of those attack dice: which ones is the player's choice (failures, and normal
    successes hoping for a critical one too), among the dice not re-rolled yet (2.4).
    Notation ``Ploy neutralise target 2,1`` (the faces re-rolled, one per die, as for the
    weapon re-rolls). Once per turning point."""

    name: str = "Neutralise Target"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = False
    rule_id: str = "kasrkin/firefight_ploy/neutralise_target"
    rerolls: bool = True  # (a rule forbidding re-rolls forbids it: Suppressing Fire)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per non-empty choice of dice not re-rolled yet (faces as a multiset,
        highest first)."""
        from engine.game.attacks import reroll_options

        if not _neutralise_condition(w, player, info):
            return []
        dice, flags = tuple(info.get("dice", ())), tuple(info.get("flags", ()))
        return [
            Action("Ploy", text=f"{NEUTRALISE_TEXT} {','.join(str(v) for v in a.values)}")
            for a in reroll_options("relentless", dice, flags)
            if a.verb == "Re-roll"
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy neutralise target <faces>``."""
        return action.verb == "Ploy" and action.text.startswith(NEUTRALISE_TEXT)

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Neutralise Target re-rolls attack dice not re-rolled yet "
            "('Ploy neutralise target 2,1': their faces), after a friendly KASRKIN operative's "
            "attack roll against a target that cannot retain cover saves or is scanned"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the dice chosen."""
        return Reroll(_neutralise_faces(action))

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """The dice core's gain of re-rolling the dice chosen (:func:`_reroll_gain`: each die
        valued alone, as one Command Re-roll, and summed; a normal success's re-roll is
        valued too, usually a loss unless a critical success matters)."""
        return _reroll_gain(w, _neutralise_faces(action), attacking=True)


NEUTRALISE_TARGET_PLOY = NeutraliseTarget()


# -- Seize The Initiative ----------------------------------------------------------------------


def seize_actions(w: Work, op: str) -> tuple[str, ...]:
    """The actions Seize The Initiative lets ``op`` perform now: every action it could
    perform as a free action whose printed cost is 1AP and that is not a move (universal
    Shoot, Fight, Pick Up and Place Marker, Operate Hatch, Guard, Hatchway Fight; unique,
    equipment and mission actions of 1AP, e.g. Auspex Scan, Battle Comms, a grenade; not
    Reposition, Dash, Charge, Fall Back (2AP) nor a rule action counting as a move, e.g.
    Move with Barricade), by the names a free-action grant uses."""
    from engine.game.rule_actions import find_rule_action

    moves = ("Reposition", "Dash", "Fall Back", "Charge")
    o = w.op(op)
    out: list[str] = []
    for a in universal.list_action_options(w, o, "free"):
        if a.verb == "Act":
            act = find_rule_action(w, o, a.text)
            ok = act is not None and act.ap == 1 and act.family not in moves
            name = a.text
        else:
            ok = universal.ACTION_COST.get(a.verb) == 1 and a.verb not in moves
            name = a.verb
        if ok and name not in out:
            out.append(name)
    return tuple(out)


def _seize_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.initiative == other(player)


def _seize_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op)


def _seize(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """A free action among :func:`seize_actions` (1AP, no move)."""
    universal.start_free_action(w, action.target, seize_actions(w, action.target))


def _seize_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """The value of the best shot the operative has where it stands (dice core), as the
    free action is most often a Shoot."""
    from engine.advice.shots import best_shot_now

    o = w.op(action.target)
    return float(best_shot_now(w, o, as_engage=o.order == "engage"))


SEIZE_THE_INITIATIVE_PLOY = Ploy(
    "Seize The Initiative",
    "firefight",
    triggers=("firefight_start",),
    target="friendly",
    condition=_seize_condition,
    eligible=_seize_eligible,
    use_hook=_seize,
    rule_id="kasrkin/firefight_ploy/seize_the_initiative",
    advice=_seize_advice,
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
    r = w.place(o).radius
    return math.hypot(o.x - t.x, o.y - t.y) - r - _MARKER_RADIUS <= SWEEP_RANGE + 1e-9


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
        t = Token(CLEARANCE_SWEEP, player, "", x, y)
        enemies = [o.id for o in w.alive(other(player)) if within_sweep(w, t, o.id)]
        if not enemies:
            return 0.0
        mine = [o.id for o in w.alive(player) if is_kasrkin(w, o.id) and within_sweep(w, t, o.id)]
        return min(0.5, 0.1 * len(mine))


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


# -- Cover Retreat -----------------------------------------------------------------------------

COVER_RETREAT_RANGE = 6.0


def _cover_retreat_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """``op`` is another friendly KASRKIN operative, not within control range of an enemy,
    to which the operative falling back was visible and within 6" where it began the Fall
    Back."""
    mover = str(info.get("op", ""))
    if op == mover or not is_kasrkin(w, op) or w.in_enemy_control_range(w.op(op)):
        return False
    start = w.ctx.placement(
        mover, float(info.get("x0", 0.0)), float(info.get("y0", 0.0)), float(info.get("z0", 0.0))
    )
    me = w.place(w.op(op))
    return w.distance(me, start) <= COVER_RETREAT_RANGE and bool(w.ctx.visible(w.kz, me, start))


def _cover_retreat_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    mover = str(info.get("op", ""))
    if info.get("action") != "Fall Back" or w.ctx.owner.get(mover) != player:
        return False
    return is_kasrkin(w, mover)


def _cover_retreat(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The selected friend performs a free Shoot now (its order changed to Engage)."""
    op = action.target
    if w.op(op).order != "engage":
        w.set_op(op, order="engage")
    universal.start_free_action(w, op, ("Shoot",))


def _cover_retreat_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """The value of the best shot the friend can take now (dice core), less a tenth of an
    operative when it gives up a Conceal order."""
    from engine.advice.shots import best_shot_now

    o = w.op(action.target)
    value = float(best_shot_now(w, o, as_engage=True))
    return value - (0.1 if o.order != "engage" else 0.0)


COVER_RETREAT_PLOY = Ploy(
    "Cover Retreat",
    "firefight",
    triggers=("moved",),
    target="friendly",
    condition=_cover_retreat_condition,
    eligible=_cover_retreat_eligible,
    use_hook=_cover_retreat,
    rule_id="kasrkin/firefight_ploy/cover_retreat",
    advice=_cover_retreat_advice,
)
"""Cover Retreat (firefight, 1CP): when a friendly KASRKIN operative has finished the
movement of a Fall Back (trigger ``moved``), another friendly KASRKIN operative not within
control range of enemies, to which it was visible and within 6" when it began, performs a
free Shoot before that Fall Back ends (its order is changed to Engage if needed). Notation
``Ploy cover retreat on <friend>``."""


# -- Give No Ground ----------------------------------------------------------------------------

GIVE_NO_GROUND = "give_no_ground"
GIVE_NO_GROUND_APL = 2
"""The total APL both sides must have contesting the marker. The dataslate (every published
copy of it) says the Kasrkin's total "is 2" and the enemy's "is the same": a 2-2 tie, e.g.
one Kasrkin (APL 2) against one APL 2 enemy or two APL 1 enemies. Played as written: a
4-4 or 3-3 tie is not covered (a tie then still controls for neither, 4.8); no "or more"
is read into it."""


def _gng_markers(w: Work, player: str) -> list[str]:
    """The markers Give No Ground may select: the objective markers, then ``player``'s
    mission markers (tokens of a mission marker kind it owns)."""
    from engine.missions.mission_markers import is_mission_marker

    names = [m.name for m in w.markers]
    names += [t.name for t in w.tokens if is_mission_marker(t) and t.owner == player]
    return names


def _contests(w: Work, o: Any, marker: str) -> bool:
    """``o`` contests the objective marker or mission marker ``marker``."""
    if any(m.name == marker for m in w.markers):
        return bool(universal.contests(w, o, marker))
    from engine.rules.equipment.markers import token_contests

    t = next((t for t in w.tokens if t.name == marker), None)
    return t is not None and bool(token_contests(w, o, t))


def give_no_ground_holds(w: Work, player: str, marker: str) -> bool:
    """The friendly KASRKIN operatives contesting ``marker`` total exactly 2 APL and the
    enemy operatives contesting it total the same (:data:`GIVE_NO_GROUND_APL`), counting
    the APL that counts for control: APL changes, the ``would_control_apl`` and
    ``would_control_totals`` hooks (as :func:`engine.game.universal.apl_controller`)."""
    enemy_player = "B" if player == "A" else "A"
    total = {player: 0, enemy_player: 0}
    ids: list[str] = []
    for o in w.alive():
        if not _contests(w, o, marker):
            continue
        if o.player == player and not is_kasrkin(w, o.id):
            continue
        ids.append(o.id)
        total[o.player] += int(w.would("would_control_apl", w.apl(o), op=o.id))
    if ids and "would_control_totals" in w.ctx.hooks.would:
        total = dict(w.would("would_control_totals", dict(total), ops=tuple(ids)))
    mine, enemy = total[player], total[enemy_player]
    return mine == GIVE_NO_GROUND_APL and enemy == mine


def _give_no_ground_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb, only when the tie it breaks holds on that marker now: at the end of the
    Firefight phase, just before the turning point's scoring, a full VP (``VP_VALUE``
    operatives); during an activation (control matters there only for the actions that
    need it) 0.15 while the active operative contests the marker with AP left; else
    nothing."""
    from engine.advice.values import VP_VALUE

    marker = action.text.removeprefix("give no ground ")
    name = next((n for n in _gng_markers(w, player) if n.lower() == marker), "")
    if not name or not give_no_ground_holds(w, player, name):
        return 0.0
    if info.get("trigger") == "firefight_end":
        return VP_VALUE
    op = str(info.get("op", ""))
    if op and w.op(op).ap > 0 and _contests(w, w.op(op), name):
        return 0.15
    return 0.0


@attrs.frozen(slots=True)
class GiveNoGround:
    """Give No Ground (firefight, 1CP; a :class:`engine.game.ploys.PloyLike`): during a
    friendly KASRKIN operative's activation (between its actions, trigger
    ``during_activation``) or at the end of the Firefight phase, select a marker;
    until the end of that activation, or until the end of the turning point (its scoring
    included), when the friendly KASRKIN operatives contesting it total exactly 2 APL and
    the enemy operatives contesting it total the same (a 2-2 tie, as the dataslate says:
    :data:`GIVE_NO_GROUND_APL`), the Kasrkin control it. Once per turning point.
    Notation ``Ploy give no ground <marker>``: an objective marker or one of the player's
    mission markers (the ``would_control_marker`` hook breaks the tie for either). At the
    end of the Firefight phase only the markers where the tie holds are offered (no other
    can be affected before the scoring)."""

    name: str = "Give No Ground"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("during_activation", "firefight_end")
    repeatable: bool = False
    rule_id: str = "kasrkin/firefight_ploy/give_no_ground"

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per marker it may select, in a friendly KASRKIN operative's activation
        or at the end of the Firefight phase."""
        names = _gng_markers(w, player)
        if info.get("trigger") == "during_activation":
            op = str(info.get("op", ""))
            if w.ctx.owner.get(op) != player or not is_kasrkin(w, op):
                return []
        else:
            # At the end of the Firefight phase nothing moves before the scoring: only a
            # marker where the tie holds now can be affected (the others are not offered).
            names = [n for n in names if give_no_ground_holds(w, player, n)]
        return [Action("Ploy", text=f"give no ground {n.lower()}") for n in names]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy give no ground <marker>``."""
        return action.verb == "Ploy" and action.text.startswith("give no ground ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Give No Ground selects an objective marker, during a friendly KASRKIN "
            "operative's activation or at the end of the Firefight phase"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """A player token naming the marker, until the end of the activation or of the TP."""
        marker = action.text.removeprefix("give no ground ")
        name = next(n for n in _gng_markers(w, player) if n.lower() == marker)
        during = info.get("trigger") == "during_activation"
        w.add_effect(
            Effect(
                "token",
                "",
                "end_activation" if during else "end_tp",
                source=str(info.get("op", "")) if during else self.name,
                detail=f"{GIVE_NO_GROUND}:{name}",
                player=player,
            )
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`_give_no_ground_advice`."""
        return _give_no_ground_advice(w, player, action, info)


GIVE_NO_GROUND_PLOY = GiveNoGround()


def install_give_no_ground(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Give No Ground (class docstring): the ``would_control_marker`` hook breaks the tie."""

    def control(w: Work, got: str, **info: Any) -> str:
        name = str(info.get("marker", ""))
        if got or not w.effects:
            return got
        for player in players:
            if player_token(w, player, f"{GIVE_NO_GROUND}:{name}") and give_no_ground_holds(
                w, player, name
            ):
                return player
        return got

    hooks.ploy(GIVE_NO_GROUND_PLOY, players)
    hooks.transform("would_control_marker", control)


def _install_neutralise_target(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(NEUTRALISE_TARGET_PLOY, players)


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
    "kasrkin/firefight_ploy/neutralise_target",
    _install_neutralise_target,
    "After a Kasrkin's attack dice against a target that cannot retain cover saves (or "
    "scanned): re-roll any of them, the player's choice.",
)
register(
    "kasrkin/firefight_ploy/seize_the_initiative",
    ploy_installer(SEIZE_THE_INITIATIVE_PLOY),
    "At the start of the Firefight phase, the player without initiative: one Kasrkin performs "
    "a free 1AP action that involves no move.",
)
register(
    "kasrkin/firefight_ploy/give_no_ground",
    install_give_no_ground,
    "During a Kasrkin's activation or at the end of the Firefight phase: on a chosen marker, "
    "Kasrkin win a 2-2 APL tie.",
)
register(
    "kasrkin/strategy_ploy/clearance_sweep",
    install_clearance_sweep,
    'Place a marker: a Kasrkin within 5" of it shooting a target also within 5" of it has '
    "Ceaseless, until the next Ready step.",
)
register(
    "kasrkin/firefight_ploy/cover_retreat",
    ploy_installer(COVER_RETREAT_PLOY),
    "After a Kasrkin's Fall Back move: a friend within 6\" that saw it (not in enemy control "
    "range) makes a free Shoot.",
)
