"""The Pathfinders' strategy ploys (``rules/KT24.md`` 7.1; registered by rule id in
``engine.rules.registry``): Bonded, Take Cover, Suppressing Fire, Recon Sweep. The firefight
ploys: :mod:`teams.pathfinders.firefight_ploys`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.dice.rules import Accurate, Balanced, Ceaseless, Relentless, Saturate, WeaponRules
from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState, other
from engine.game.work import Work
from engine.rules.ploys import GainToken, Ploy
from engine.rules.registry import Installer, register
from teams.pathfinders.common import FUSILLADE, PATHFINDER, has_keyword
from teams.pathfinders.support import (
    is_pathfinder,
    is_trooper,
    op_token,
    player_token,
    shoot_frame,
)

_EPS = 1e-6


def _count_troopers(w: Work, player: str, each: float, cap: float = 0.4) -> float:
    """``each`` per friendly PATHFINDER operative (excluding DRONE) on the killzone, at most
    ``cap``: a rule of thumb for a strategy ploy that helps each one."""
    return min(cap, each * sum(1 for o in w.alive(player) if is_trooper(w, o.id)))


# -- Bonded ------------------------------------------------------------------------------------

BONDED = "pf_bonded"
BONDED_RANGE = 3.0


def bonded_with(w: Work, op: str) -> bool:
    """``op`` (a PATHFINDER, not a DRONE) is within 3" of another friendly PATHFINDER operative
    that is not a DRONE."""
    if not is_trooper(w, op):
        return False
    me = w.place(w.op(op))
    return any(
        is_trooper(w, f.id) and w.distance(me, w.place(f)) <= BONDED_RANGE + _EPS
        for f in w.friends_of(op)
    )


def _bonded_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.04 operatives per friendly PATHFINDER (excluding DRONE) within 3" of
    another (Accurate 1 on each of its shots this turning point), at most 0.4."""
    n = sum(1 for o in w.alive(player) if bonded_with(w, o.id))
    return min(0.4, 0.04 * n)


BONDED_PLOY = Ploy(
    "Bonded",
    "strategy",
    effects=(GainToken(BONDED, "end_tp"),),
    rule_id="pathfinders/strategy_ploy/bonded",
    advice=_bonded_advice,
)


def install_bonded(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Bonded (strategy, 1CP): until the end of the turning point, whenever a friendly
    PATHFINDER operative (excluding DRONE) shoots (or retaliates with a ranged weapon through
    Point-Blank Fusillade) while within 3" of another friendly PATHFINDER operative (excluding
    DRONE), its ranged weapons have Accurate 1. Trigger: the ``would_use_weapon_rules`` hook
    of its ranged attacks (Fight profiles included, so Point-Blank Fusillade's ranged weapon
    used in melee has it too). Limits: the token lasts the turning point; the 3" is judged
    when the profile is read (the start of each attack sequence)."""

    def rules(w: Work, value: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if not w.effects or not is_trooper(w, op):
            return value
        player = w.ctx.owner[op]
        if player not in players or not player_token(w, player, BONDED):
            return value
        if info.get("kind") != "ranged" and not _fusillade_weapon(w, op, info):
            return value
        if not bonded_with(w, op):
            return value
        return value.with_rules(Accurate(1))

    hooks.ploy(BONDED_PLOY, players)
    hooks.transform("would_use_weapon_rules", rules)


def _fusillade_weapon(w: Work, op: str, info: Mapping[str, Any]) -> bool:
    """``op`` is retaliating with a ranged weapon through Point-Blank Fusillade (the weapon
    named in ``info``)."""
    return any(
        e.kind == "token" and e.op == op and e.detail == f"{FUSILLADE}:{info.get('weapon', '')}"
        for e in w.effects
    )


# -- Take Cover --------------------------------------------------------------------------------

TAKE_COVER = "pf_take_cover"


def _take_cover_advice(keyword: str) -> Callable[[Work, str, Action, Mapping[str, Any]], float]:
    """Rule of thumb: 0.03 operatives per friendly ``keyword`` operative (Save 4+ to 3+ for
    each one shot in cover this turning point), at most 0.35."""

    def value(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        n = sum(1 for o in w.alive(player) if has_keyword(w, o.id, keyword))
        return min(0.35, 0.03 * n)

    return value


def take_cover_ploy(keyword: str) -> Ploy:
    """The Take Cover ploy for a team whose operatives have ``keyword``."""
    return Ploy(
        "Take Cover",
        "strategy",
        effects=(GainToken(TAKE_COVER, "end_tp"),),
        rule_id="pathfinders/strategy_ploy/take_cover",
        advice=_take_cover_advice(keyword),
    )


TAKE_COVER_PLOY = take_cover_ploy(PATHFINDER)


def take_cover_installer(keyword: str) -> Installer:
    """Take Cover for a team whose operatives have ``keyword`` (``PATHFINDER``; the same
    printed text with another keyword: Death Korps, ``for_keyword``). Its token and its
    once-per-turning-point bookkeeping (the ploy's name) need no other rule of the team."""
    ploy = TAKE_COVER_PLOY if keyword == PATHFINDER else take_cover_ploy(keyword)

    def install_take_cover(hooks: Hooks, players: tuple[str, ...]) -> None:
        """Take Cover (strategy, 1CP): until the end of the turning point, whenever a
        friendly ``keyword`` operative is shot and can retain cover saves (it is in cover and
        the weapon, after every rule, has no Saturate), its Save is improved by 1 (never
        better than 2+). Trigger: the core's ``would_save_in_cover`` hook (asked only for a
        target in cover). Limits: not when the attack has Saturate (e.g. a Markerlight
        token's Saturate)."""

        def save(w: Work, value: int, **info: Any) -> int:
            target = str(info.get("target", ""))
            player = w.ctx.owner.get(target)
            if player not in players or not has_keyword(w, target, keyword):
                return value
            if not player_token(w, str(player), TAKE_COVER):
                return value
            f = shoot_frame(w)
            if f is None or f.profile(w).rules.has(Saturate):
                return value
            return max(2, int(value) - 1)

        hooks.ploy(ploy, players)
        hooks.transform("would_save_in_cover", save)

    return install_take_cover


install_take_cover = take_cover_installer(PATHFINDER)


# -- Suppressing Fire --------------------------------------------------------------------------

SUPPRESSING_FIRE = "pf_suppressing_fire"
REROLL_RULES = (Balanced, Ceaseless, Relentless)


def closest_target_kept(w: Work, f: Any, player: str) -> bool:
    """The primary target of the Shoot ``f`` (an enemy shooting ``player``'s operatives) is
    a closest valid target of that weapon: no other valid target of it is strictly closer to
    the shooter, ignoring ``player``'s PATHFINDER operatives that have a Conceal order or are
    obscured from the shooter."""
    from engine.game.shoot_targets import shoot_target_reason

    shooter = w.op(f.shooter)
    primary = f.targets[0]
    _, _, prof = universal.find_weapon(w, shooter, f.weapon, "ranged")
    me = w.place(shooter)
    best = w.distance(me, w.place(w.op(primary)))
    for e in w.enemies_of(shooter.id):
        if e.id == primary or w.distance(me, w.place(e)) >= best - _EPS:
            continue
        if e.player == player and is_pathfinder(w, e.id) and _hidden(w, shooter, e):
            continue
        if shoot_target_reason(w, shooter, e, f.weapon, prof, f.point_blank) is None:
            return False
    return True


def _hidden(w: Work, shooter: OperativeState, e: OperativeState) -> bool:
    """``e`` has a Conceal order or is obscured from ``shooter``."""
    from engine.game.shoot_targets import targeting

    return e.order != "engage" or bool(targeting(w, shooter, e).obscured)


def suppressed(w: Work, op: str, players: tuple[str, ...]) -> bool:
    """``op`` is performing a Shoot against a player of ``players`` who used Suppressing Fire
    this turning point, and its primary target is not the closest valid target."""
    if not w.effects:
        return False
    player = other(w.ctx.owner[op])
    if player not in players or not player_token(w, player, SUPPRESSING_FIRE):
        return False
    f = shoot_frame(w)
    if f is None or f.shooter != op or not f.targets:
        return False
    return not closest_target_kept(w, f, player)


def _suppressing_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 0.15 operatives when the opponent has a CP for Command Re-roll or a
    weapon with a re-roll rule, else 0.03 (it only takes re-rolls away)."""
    enemy = other(player)
    if w.pl(enemy).cp > 0:
        return 0.15
    for o in w.alive(enemy):
        for _, _, prof in universal.weapons_of(w, o.id, "ranged"):
            if any(prof.rules.has(r) for r in REROLL_RULES):
                return 0.15
    return 0.03


SUPPRESSING_FIRE_PLOY = Ploy(
    "Suppressing Fire",
    "strategy",
    effects=(GainToken(SUPPRESSING_FIRE, "end_tp"),),
    rule_id="pathfinders/strategy_ploy/suppressing_fire",
    advice=_suppressing_advice,
)


def install_suppressing_fire(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Suppressing Fire (strategy, 1CP): until the end of the turning point, whenever an enemy
    operative performs a Shoot whose target (the primary target for Blast and Torrent) is not
    the closest valid target (:func:`closest_target_kept`, ignoring friendly PATHFINDER
    operatives with a Conceal order or obscured), the opponent cannot re-roll its attack dice:
    not with its weapon's re-roll rules (Balanced, Ceaseless, Relentless), Command Re-roll,
    Ammo Resupply nor any re-rolling ploy of its team (the error names Suppressing Fire).
    Trigger: the core's ``would_refuse_reroll`` hook (asked by the Shoot's weapon re-roll
    windows and for every ploy or rule that re-rolls dice, ``rerolls``). Limits: the Shoot
    action only (not fights); defence dice may still be re-rolled."""

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        if why is not None or not w.effects or info.get("trigger") != "attack_dice":
            return why
        op, player = str(info.get("op", "")), str(info.get("player", ""))
        if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
            return why
        if not suppressed(w, op, players):
            return why
        return (
            f"Suppressing Fire: {player} cannot re-roll {op}'s attack dice "
            f"({info.get('source', '')}): its target is not the closest valid target"
        )

    hooks.ploy(SUPPRESSING_FIRE_PLOY, players)
    hooks.transform("would_refuse_reroll", refuse)


# -- Recon Sweep -------------------------------------------------------------------------------

EDGES = ("north", "east", "south", "west")
EDGE_REACH = 6.0
_SWEEPING = "pf_recon_sweep_dash"


def own_edge(w: Work, player: str) -> str:
    """The killzone edge of ``player``'s drop zone (``""`` when unknown)."""
    dz = w.pl(player).drop_zone
    if not dz:
        return ""
    try:
        return w.kz.drop_zone_edge(dz)
    except KeyError:
        return ""


def wholly_within_edge(w: Work, x: float, y: float, radius: float, edge: str) -> bool:
    """A base of ``radius`` at ``(x, y)`` is wholly within 6" of the killzone edge ``edge``."""
    if edge == "west":
        return x + radius <= EDGE_REACH + _EPS
    if edge == "east":
        return x - radius >= w.kz.width - EDGE_REACH - _EPS
    if edge == "south":
        return y + radius <= EDGE_REACH + _EPS
    if edge == "north":
        return y - radius >= w.kz.depth - EDGE_REACH - _EPS
    return False


def sweepers(w: Work, player: str, edge: str) -> list[str]:
    """``player``'s PATHFINDER operatives wholly within 6" of ``edge``, in roster order."""
    out = []
    for o in w.alive(player):
        if is_pathfinder(w, o.id) and wholly_within_edge(w, o.x, o.y, w.place(o).radius, edge):
            out.append(o.id)
    return out


@attrs.frozen(slots=True)
class ReconSweep:
    """Recon Sweep (strategy, 1CP; a :class:`engine.game.ploys.PloyLike`): select a killzone
    edge other than the player's own; each friendly PATHFINDER operative wholly within 6" of
    it may perform a free Dash at once, each ending wholly within 6" of a killzone edge other
    than the player's own (``would_refuse_destination``). Not in the first turning point.
    Notation ``Ploy recon sweep <edge>`` (north, east, south, west). The player then picks
    the operative that dashes next (``Use recon sweep on <operative>``, a team-rule choice;
    ``Decline`` ends the sweep), until one is left, whose free Dash is offered at once (a
    free Dash may itself be declined with ``End activation``)."""

    name: str = "Recon Sweep"
    kind: str = "strategy"
    cp: int = 1
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = False
    rule_id: str = "pathfinders/strategy_ploy/recon_sweep"

    def _edges(self, w: Work, player: str) -> list[str]:
        if w.tp <= 1:
            return []
        mine = own_edge(w, player)
        return [e for e in EDGES if e != mine and sweepers(w, player, e)]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per edge (not its own) with a PATHFINDER wholly within 6" of it."""
        return [Action("Ploy", text=f"recon sweep {e}") for e in self._edges(w, player)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy recon sweep <edge>``."""
        return action.verb == "Ploy" and action.text.startswith("recon sweep ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        if w.tp <= 1:
            return f"{action}: Recon Sweep cannot be used in the first turning point"
        return (
            f"{action}: Recon Sweep selects a killzone edge other than {player}'s own with a "
            'friendly PATHFINDER operative wholly within 6" of it'
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """The player picks which operative wholly within 6" of the edge dashes next
        (:func:`next_sweeper`)."""
        edge = action.text.rsplit(" ", 1)[1]
        ops = sweepers(w, player, edge)
        w.emit("recon_sweep", player=player, edge=edge, ops=tuple(ops))
        next_sweeper(w, player, tuple(ops))

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: 0.05 operatives per operative that may dash (a free 3"), at most
        0.4."""
        edge = action.text.rsplit(" ", 1)[1]
        return min(0.4, 0.05 * len(sweepers(w, player, edge)))


RECON_SWEEP_PLOY = ReconSweep()
_SWEEP_CHOICE = "pathfinders_recon_sweep"


def next_sweeper(w: Work, player: str, ops: tuple[str, ...]) -> None:
    """Let ``player`` choose which of ``ops`` dashes next (one left: it dashes)."""
    from engine.rules.choices import RuleChoiceFrame

    ops = tuple(op for op in ops if w.op(op).alive)
    if len(ops) == 1:
        _sweep_dash(w, ops[0])
    elif ops:
        w.stack.append(
            RuleChoiceFrame(
                player=player,
                rule="Recon Sweep",
                key=_SWEEP_CHOICE,
                op=ops[0],
                candidates=ops,
            )
        )


def _sweep_dash(w: Work, op: str) -> None:
    w.add_effect(Effect("token", op, "end_tp", source=RECON_SWEEP_PLOY.name, detail=_SWEEPING))
    universal.start_free_action(w, op, ("Dash",))


def _sweep_chosen(w: Work, frame: Any, chosen: str) -> None:
    """The chosen operative dashes now; then the player picks among the others."""
    if not chosen:
        return
    rest = tuple(c for c in frame.candidates if c != chosen)
    next_sweeper(w, frame.player, rest)  # below the Dash: asked once it is done
    _sweep_dash(w, chosen)


def _register_sweep_choice() -> None:
    from engine.rules.choices import on_choice

    on_choice(_SWEEP_CHOICE, _sweep_chosen)


_register_sweep_choice()


def install_recon_sweep(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Recon Sweep (class docstring)."""

    def near_edge(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        if why or not w.effects or info.get("action") != "Dash" or not op_token(w, op, _SWEEPING):
            return why
        x, y, z = info["point"]
        player = w.ctx.owner[op]
        radius = w.ctx.placement(op, x, y, z).radius
        mine = own_edge(w, player)
        if any(wholly_within_edge(w, x, y, radius, e) for e in EDGES if e != mine):
            return why
        return (
            f"{op}'s free Dash (Recon Sweep) must end wholly within 6\" of a killzone edge "
            "other than its own"
        )

    def ended(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if w.effects and op_token(w, op, _SWEEPING):
            w.effects = [e for e in w.effects if not (e.op == op and e.detail == _SWEEPING)]

    hooks.ploy(RECON_SWEEP_PLOY, players)
    hooks.transform("would_refuse_destination", near_edge)
    hooks.on("free_action_ended", ended)


add_template(
    "recon_sweep",
    lambda e: f"  {e['player']}: Recon Sweep from the {e['edge']} edge ({', '.join(e['ops'])})",
)


# -- registrations -----------------------------------------------------------------------------

register(
    "pathfinders/strategy_ploy/bonded",
    install_bonded,
    'Until the end of the TP, a non-drone Pathfinder within 3" of another shoots with Accurate 1.',
)
register(
    "pathfinders/strategy_ploy/take_cover",
    install_take_cover,
    "Until the end of the TP, a Pathfinder shot that can retain cover saves improves its Save "
    "by 1.",
    for_keyword=take_cover_installer,
)
register(
    "pathfinders/strategy_ploy/suppressing_fire",
    install_suppressing_fire,
    "Until the end of the TP, an enemy shooting other than the closest valid target cannot "
    "re-roll attack dice.",
)
register(
    "pathfinders/strategy_ploy/recon_sweep",
    install_recon_sweep,
    'From TP2: Pathfinders wholly within 6" of a chosen edge (not their own) free Dash, ending '
    "near a non-own edge.",
)
