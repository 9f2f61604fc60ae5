"""The rules that act on a shot after its dice (``rules/KT24.md`` 5.1 steps 4-5, 6
Devastating, 2.1 damage changes) in the exact distribution of ``attack``.

The dice core (:func:`engine.dice.shoot.shoot`) knows the weapon and the target, not the
rules of a battle. The Shoot sequence (:class:`engine.game.shoot.ShootFrame`) asks these
*would* hooks after the dice are rolled:

- ``would_crit_save``: the lowest defence die that is a critical save (6 unless a rule
  lowers it);
- ``would_retain_defence_normal``: defence dice retained as normal saves without rolling,
  besides the cover saves;
- ``would_save_without_cover``: a save retained unrolled by a target that can retain no cover
  save (no cover, or Saturate);
- ``would_shot_damage`` per unblocked attack die (normals first), then
  ``would_shot_total_damage`` on their total;
- ``would_devastating_damage`` per retained critical success of a Devastating weapon.

:func:`shot_distribution` builds the damage distribution from the dice core's own pieces
(:func:`~engine.dice.attack.attack_roll`, :func:`~engine.dice.shoot.cover_saves`,
:func:`~engine.dice.shoot.defence_dice`, :func:`~engine.dice.shoot.unblocked`) and runs those
hooks, one by one, with the arguments the Shoot sequence passes, in the order it asks them,
outcome by outcome: the distribution is the one the game produces (tested against the game's
own chance outcomes enumerated exactly, ``tests/test_explain_after_dice.py``). Hooks read and
change a working copy of the position: each outcome gets a fresh one, taken, when the Shoot
is legal now, just after it is declared (so a rule that acts only during an attack in progress
acts here too: a once-per-turning-point "ignore this damage" is used, the defender's best
choice), else from the position itself (and then such a rule may change nothing here).

``would_retain_both_cover_saves`` (an improved cover save retained as one normal and one
critical) is outside the dice core's cover options: it is listed as not in the
distribution when it changes this attack (:data:`NOT_INCLUDED`).
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs

from engine.dice.attack import attack_roll
from engine.dice.pmf import Pmf
from engine.dice.profile import DEFENCE_DICE, AttackProfile, Target
from engine.dice.rules import Saturate, WeaponRules
from engine.dice.shoot import cover_saves, defence_dice, unblocked
from engine.explain.hooks import Change, hook_names, trace_would
from engine.explain.ruling import Step, source_of_module
from engine.game.actions import (
    Action,
    AmbiguousActionError,
    IllegalActionError,
    InvalidActionError,
)
from engine.game.ploys import ploy_options
from engine.game.state import GameState
from engine.game.work import Work

__all__ = [
    "AFTER_DICE_SHOT",
    "AFTER_DICE_STRIKE",
    "NOT_INCLUDED",
    "ShotAfterDice",
    "after_dice_steps",
    "dice_window_ploys",
    "fight_after_dice",
    "sequence_state",
    "shot_distribution",
]

#: The *would* hooks the Shoot sequence asks after the dice that the distribution includes.
AFTER_DICE_SHOT = (
    "would_save_without_cover",
    "would_retain_defence_normal",
    "would_crit_save",
    "would_shot_damage",
    "would_shot_total_damage",
    "would_devastating_damage",
)

#: The *would* hooks of the Fight sequence that act after the dice (per strike); the fight's
#: distribution (:func:`engine.dice.fight.fight`, both sides resolving optimally) does not
#: include them: they are listed when in force.
AFTER_DICE_STRIKE = ("would_strike_damage", "would_devastating_damage")

#: After-dice hooks of the Shoot sequence the distribution cannot include (module docstring).
NOT_INCLUDED = ("would_retain_both_cover_saves",)


@attrs.frozen(slots=True)
class ShotAfterDice:
    """The distribution of a shot with the after-dice rules in force.

    Attributes:
        damage: pmf of the damage inflicted (Devastating included, not capped at the
            target's wounds), weights over ``roll total * 6**3``.
        changes: ``(hook, change)`` of each rule that changed some outcome, first change
            kept per rule (in the order the sequence asks them).
        in_attack: the hooks ran on the position just after the Shoot was declared.
        unchanged: ``(hook, name, source)`` of each rule asked that changed no outcome here
            (a rule acting through dice of its own or a choice later in the sequence may be
            among them: it is not in the distribution).
    """

    damage: Pmf[int]
    changes: tuple[tuple[str, Change], ...]
    in_attack: bool
    unchanged: tuple[tuple[str, str, str], ...] = ()


def _defence_faces(save: int, crit_at: int) -> tuple[int, int, int]:
    """``(fail, normal, critical)`` faces of one defence die, classified as the Shoot
    sequence's resolve step classifies a rolled die: a 1 fails, ``crit_at`` or more is a
    critical save, ``max(2, save)`` or more a normal save."""
    crit = sum(1 for v in range(2, 7) if v >= crit_at)
    normal = sum(1 for v in range(2, 7) if v < crit_at and v >= max(2, save))
    return 6 - crit - normal, normal, crit


def _defence_rolls(dice: int, faces: tuple[int, int, int]) -> dict[tuple[int, int], int]:
    """``{(normal saves, critical saves): weight}`` of ``dice`` rolled defence dice, weights
    over ``6**3`` (padded, as :func:`engine.dice.shoot.defence_roll`)."""
    out: dict[tuple[int, int], int] = {}
    pad = 6 ** (DEFENCE_DICE - dice)
    for kinds in itertools.product(range(3), repeat=dice):
        weight = pad
        for k in kinds:
            weight *= faces[k]
        if weight:
            key = (kinds.count(1), kinds.count(2))
            out[key] = out.get(key, 0) + weight
    return out


def sequence_state(state: GameState, o: str, weapon: str, t: str) -> tuple[GameState, bool]:
    """The position just after ``o`` declares the Shoot at ``t`` when that is legal now (the
    game's ``apply``), else ``state`` itself."""
    try:
        after, _ = state.apply(Action("Shoot", op=o, weapon=weapon, target=t))
    except (IllegalActionError, InvalidActionError, AmbiguousActionError, ValueError):
        return state, False
    return after, True


def shot_distribution(
    state: GameState,
    o: str,
    t: str,
    weapon: str,
    prof: AttackProfile,
    target: Target,
    save: int,
) -> ShotAfterDice | None:
    """The damage distribution of ``o`` shooting ``t`` with ``weapon`` (module docstring),
    or ``None`` when no after-dice hook of :data:`AFTER_DICE_SHOT` is in force (the dice
    core's :func:`~engine.dice.shoot.shoot` is then the distribution).

    Args:
        prof: the attack profile as the Shoot uses it (weapon rules, Hit, Atk, Dmg changed,
            Accurate from Vantage). target: the dice core's target (cover, obscured,
            improved cover; the defender's cover-save choice is the dice core's default).
            save: the target's Save with its changes (may be above 6).
    """
    table = state.ctx.hooks.would_table
    if not any(table.get(h) for h in AFTER_DICE_SHOT):
        return None
    seq, in_attack = sequence_state(state, o, weapon, t)
    info = {"op": o, "target": t}
    changes: dict[str, tuple[str, Change]] = {}
    asked: dict[tuple[str, str], str] = {}

    def ask(hook: str, value: Any, w: Work | None = None, **more: Any) -> Any:
        if not table.get(hook):
            return value
        for name, source in hook_names(w or Work(seq), hook):
            asked.setdefault((hook, name), source)
        got, chs = trace_would(w or Work(seq), hook, value, **info, **more)
        for c in chs:
            changes.setdefault(c.by, (hook, c))
        return got

    choice_prof, choice_target = prof, target
    no_cover = not target.in_cover or prof.rules.dice.saturate
    if no_cover and ask("would_save_without_cover", 0):
        kept = WeaponRules.of(tuple(r for r in prof.rules if not isinstance(r, Saturate)))
        choice_prof = attrs.evolve(prof, rules=kept)
        choice_target = attrs.evolve(target, in_cover=True, improved_cover=False)
    extra = int(ask("would_retain_defence_normal", 0))
    crit_at = int(ask("would_crit_save", 6))
    faces = _defence_faces(save, crit_at)
    nd, cd = prof.normal_damage, prof.critical_damage
    d = prof.rules.dice

    damage_memo: dict[tuple[int, int], int] = {}

    def dice_damage(un: int, uc: int) -> int:
        if (un, uc) not in damage_memo:
            w = Work(seq)
            if table.get("would_shot_damage"):
                dmg = sum(
                    max(0, int(ask("would_shot_damage", v, w, crit=c)))
                    for v, c in [(nd, False)] * un + [(cd, True)] * uc
                )
            else:
                dmg = un * nd + uc * cd
            if dmg:
                dmg = int(
                    ask(
                        "would_shot_total_damage",
                        dmg,
                        w,
                        normals=un,
                        crits=uc,
                        normal_damage=nd,
                        critical_damage=cd,
                    )
                )
            damage_memo[(un, uc)] = dmg
        return damage_memo[(un, uc)]

    dev_memo: dict[int, int] = {}

    def devastating(crits: int) -> int:
        if crits not in dev_memo:
            if not d.devastating or not crits:
                dev_memo[crits] = 0
            elif table.get("would_devastating_damage"):
                w = Work(seq)
                dev_memo[crits] = sum(
                    max(0, int(ask("would_devastating_damage", d.devastating, w, crit=True)))
                    for _ in range(crits)
                )
            else:
                dev_memo[crits] = d.devastating * crits
        return dev_memo[crits]

    roll = attack_roll(prof, obscured=target.obscured)
    weights: dict[int, int] = {}
    rolls: dict[int, dict[tuple[int, int], int]] = {}
    for normals, crits, w_roll in roll.outcomes:
        cover_n, cover_c = cover_saves(choice_prof, choice_target, normals, crits)
        dice = defence_dice(prof, crits)
        cover_c = min(cover_c, dice)
        cover_n = min(cover_n, dice - cover_c)
        cover_n += max(0, min(extra, dice - cover_n - cover_c))
        rolled = dice - cover_n - cover_c
        if rolled not in rolls:
            rolls[rolled] = _defence_rolls(rolled, faces)
        for (sn, sc), w_def in rolls[rolled].items():
            un, uc = unblocked(normals, crits, sn + cover_n, sc + cover_c, nd, cd, d.brutal)
            dmg = dice_damage(un, uc) + devastating(crits)
            weights[dmg] = weights.get(dmg, 0) + w_roll * w_def
    pmf = Pmf.from_weights(weights, roll.total * 6**DEFENCE_DICE)
    unchanged = tuple((h, n, src) for (h, n), src in asked.items() if n not in changes)
    return ShotAfterDice(pmf, tuple(changes.values()), in_attack, unchanged)


def after_dice_steps(got: ShotAfterDice | None) -> list[Step]:
    """The steps saying which after-dice rules the distribution includes (one per rule
    that changed some outcome, with its source), and which hooks of the Shoot sequence's
    after-dice steps were asked but changed nothing here."""
    if got is None:
        return []
    out = []
    for hook, c in got.changes:
        out.append(
            Step(
                "after the dice",
                hook,
                f"a rule in force changes this attack after the dice ({hook}, e.g. "
                f"{c.before!r} -> {c.after!r}); the distribution includes it, outcome by "
                "outcome" + ("" if got.in_attack else " (asked outside an attack in progress)"),
                "5.1",
                c.source,
                c.by,
            )
        )
    for hook, name, source in got.unchanged:
        out.append(
            Step(
                "after the dice, no change",
                hook,
                f"a rule of this battle asked after the dice ({hook}) changed no outcome of "
                "this attack when asked as the sequence asks it; if it acts through dice of "
                "its own or a choice later in the sequence, that is not in the distribution",
                "5.1",
                source,
                name,
            )
        )
    return out


def fight_after_dice(
    state: GameState | None,
    w: Work,
    attacker: tuple[str, str, AttackProfile],
    target: str,
    defender: tuple[str, str, AttackProfile] | None,
) -> list[Step]:
    """The rules of the Fight sequence acting after the dice (:data:`AFTER_DICE_STRIKE` and
    the resolution hooks: who resolves first, a crit from a normal strike, blocking) that are
    in force and change a strike or block here, each listed as not in the distribution: the
    fight's exact solver resolves strikes and blocks without the rules of a battle. Each hook
    is asked as the sequence asks it, on the weapons' Dmg, on a fresh copy of the position
    just after the Fight is declared when that is legal now (else of the position itself).

    Args:
        attacker, defender: ``(operative, weapon, profile)`` of each side (``defender``
            ``None`` when it cannot retaliate). target: the defender's id.
    """
    table = w.ctx.hooks.would_table
    hooks = (
        "would_resolve_first",
        "would_strike_crit",
        "would_strike_damage",
        "would_devastating_damage",
        "would_block_crit_with_normal",
        "would_allow_block",
    )
    if not any(table.get(h) for h in hooks):
        return []
    seq = state
    if state is not None:
        try:
            seq, _ = state.apply(
                Action(
                    "Fight", op=attacker[0], weapon=attacker[1], target=(defender or attacker)[0]
                )
            )
        except (IllegalActionError, InvalidActionError, AmbiguousActionError, ValueError):
            seq = state

    def fresh() -> Work:
        return Work(seq) if seq is not None else w

    sides = [(attacker, defender)] + ([(defender, attacker)] if defender else [])
    asks: list[tuple[str, Any, dict[str, Any]]] = []
    if defender is not None:
        asks.append(
            (
                "would_resolve_first",
                "a",
                {"op": attacker[0], "target": defender[0], "weapon": defender[1]},
            )
        )
    for me, them in sides:
        if them is None:
            continue
        info = {"op": me[0], "target": them[0]}
        prof = me[2]
        asks += [
            ("would_strike_crit", False, info),
            ("would_strike_damage", prof.normal_damage, {**info, "crit": False}),
            ("would_strike_damage", prof.critical_damage, {**info, "crit": True}),
            ("would_block_crit_with_normal", False, info),
            ("would_allow_block", True, info),
        ]
        if prof.rules.dice.devastating:
            asks.append(
                ("would_devastating_damage", prof.rules.dice.devastating, {**info, "crit": True})
            )
    out = []
    seen: set[tuple[str, str]] = set()
    for hook, value, kw in asks:
        if not table.get(hook):
            continue
        _, changes = trace_would(fresh(), hook, value, **kw)
        for c in changes:
            if (hook, c.by) in seen:
                continue
            seen.add((hook, c.by))
            out.append(
                Step(
                    "not in the distribution",
                    hook,
                    f"a rule in force changes this fight after the dice ({hook} for "
                    f"{kw.get('op')}'s strikes on {kw.get('target')}: {c.before!r} -> "
                    f"{c.after!r}); the distribution does not include it",
                    "5.2",
                    c.source,
                    c.by,
                )
            )
    return out


#: The rolls a dice window is tried with to see which ploys it would offer: every die a 1,
#: and the faces from 6 down (each face once where the dice allow).
def _sample_rolls(n: int) -> tuple[tuple[int, ...], ...]:
    mixed = tuple(6 - (k % 6) for k in range(n))
    return ((1,) * n, mixed) if n else ((),)


def dice_window_ploys(
    w: Work,
    windows: tuple[tuple[str, str], ...],
    info: dict[str, Any] | None = None,
    dice: dict[str, int] | None = None,
) -> list[Step]:
    """The ploys and rule options offered in the attack's dice windows (``(trigger,
    operative)``: ``attack_dice`` for the attacker, ``defence_dice`` for the defender of a
    shot; ``attack_dice``, ``strike`` and ``resolve_start`` for both sides of a fight, 7.1),
    one step each for a player it is offered to, with its printed cost and that player's CP
    now: a player's choice made after seeing the dice, not in the distribution (the
    distribution is the dice without them).

    With ``info`` (what the window's ploys are told, as
    :meth:`engine.game.shoot.ShootFrame.dice_info` gives it, without ``dice``) and ``dice``
    (dice rolled per trigger), a ploy is listed only when the game's own
    :func:`engine.game.ploys.ploy_options` offers it on some sample roll (every die a 1, or
    the faces from 6 down): its cost, once per turning point, and condition as the game
    checks them. Without, every ploy registered there that the player can pay for and has
    not used this turning point (unless repeatable) is listed ("may be offered")."""
    out = []
    seen: set[tuple[str, str]] = set()
    for trigger, op in windows:
        player = w.ctx.owner[op]
        pl = w.pl(player)
        offered: list[Action] | None = None
        if info is not None and dice is not None:
            offered = []
            n = dice.get(trigger, 0)
            for roll in _sample_rolls(n):
                offered += ploy_options(
                    w, player, trigger, {**info, "dice": roll, "flags": (False,) * len(roll)}
                )
        for ploy, players in w.ctx.hooks.ploys.get(trigger, ()):
            if player not in players or (ploy.name, player) in seen:
                continue
            if not ploy.repeatable and ploy.name in pl.ploys_used:
                continue
            is_ploy = ploy.kind in ("strategy", "firefight")
            if is_ploy and pl.cp < ploy.cp:
                continue  # (not offered: the player cannot pay its printed cost)
            if offered is not None and not any(ploy.owns(a) for a in offered):
                continue
            seen.add((ploy.name, player))
            module = type(ploy).__module__
            source = "ploy" if is_ploy else source_of_module(module)
            cost = f"{ploy.cp}CP, player {player} has {pl.cp}CP" if is_ploy else "no CP"
            out.append(
                Step(
                    "not in the distribution",
                    ploy.name,
                    f"{'offered' if offered is not None else 'may be offered'} to player "
                    f"{player} after the {trigger.replace('_', ' ')} ({cost}): a choice made "
                    "on the dice, not in the distribution",
                    "7.1",
                    source,
                )
            )
    return out
