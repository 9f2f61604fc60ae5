"""The defender's allocation of saves in a Shoot (``rules/KT24.md`` 5.1 step 5).

The defender allocates every save that can block: one normal save blocks one normal
success, two normal saves block one critical success, one critical save blocks either
(against Brutal only critical saves block, 6). Which attack dice are left unblocked is the
defender's choice; what that choice can change is only *which* dice are left, so an
allocation is named by the blocks it makes (:class:`Allocation`) and two allocations leaving
the same dice unblocked are the same choice.

When the choice is asked (:func:`allocation_options`): the Shoot sequence
(:class:`engine.game.shoot.ShootFrame`) resolves each distinct allocation on a scratch copy
of the working state through the very code that inflicts the damage (its damage hooks and
the ``attack_dice_resolved`` subscribers included: a shield generator, a damage reduction,
a rule reading the unblocked crits) and compares the states that result. The defender
decides (decision ``allocate_saves``) only when two allocations lead to different states;
otherwise the engine applies the least-damage allocation
(:func:`engine.dice.shoot.unblocked`) as before, so a battle without such a choice plays as
it always did. The least-damage allocation is always listed first.

Notation: ``Allocate saves`` then the blocks, in this order, each repeated as often as it is
made (``none`` when no save can block anything):

==================  ==========================================================
``crit>crit``       a critical save blocks a critical success
``crit>normal``     a critical save blocks a normal success
``normals>crit``    two normal saves block a critical success
``normal>normal``   a normal save blocks a normal success
==================  ==========================================================

e.g. ``Allocate saves crit>normal normals>crit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.dice.shoot import unblocked
from engine.game.actions import Action, allocation_text
from engine.game.work import Work

__all__ = [
    "ALLOCATE_VERB",
    "Allocation",
    "allocation_options",
    "allocations",
    "least_damage",
    "least_damage_choice",
    "settled",
    "shot_allocations",
]

ALLOCATE_VERB = "Allocate saves"
"""The verb of the defender's allocation (module docstring)."""


@attrs.frozen(slots=True)
class Allocation:
    """One allocation of the defender's saves (5.1 step 5).

    Attributes:
        crit_on_crit: critical saves each blocking a critical success.
        crit_on_normal: critical saves each blocking a normal success.
        normals_on_crit: pairs of normal saves each blocking a critical success.
        normal_on_normal: normal saves each blocking a normal success.
    """

    crit_on_crit: int = 0
    crit_on_normal: int = 0
    normals_on_crit: int = 0
    normal_on_normal: int = 0

    def left(self, normals: int, crits: int) -> tuple[int, int]:
        """``(unblocked normals, unblocked crits)`` of ``normals`` and ``crits`` retained
        attack successes after these blocks."""
        return (
            normals - self.crit_on_normal - self.normal_on_normal,
            crits - self.crit_on_crit - self.normals_on_crit,
        )

    @property
    def text(self) -> str:
        """The blocks in the notation (module docstring): ``"crit>crit normal>normal"``."""
        words = (
            ["crit>crit"] * self.crit_on_crit
            + ["crit>normal"] * self.crit_on_normal
            + ["normals>crit"] * self.normals_on_crit
            + ["normal>normal"] * self.normal_on_normal
        )
        return allocation_text(" ".join(words) or "none")

    @property
    def action(self) -> Action:
        """The defender's action choosing it: ``Allocate saves <blocks>``."""
        return Action(ALLOCATE_VERB, text=self.text)


def allocations(
    normals: int, crits: int, normal_saves: int, crit_saves: int, brutal: bool
) -> list[Allocation]:
    """Every allocation the rules allow (5.1 step 5: every save that can still block blocks),
    one per distinct set of unblocked dice, in a fixed order (fewest normal-save pairs on
    crits, then most critical saves on crits).

    Args:
        normals, crits: the attacker's retained successes (>= 0).
        normal_saves, crit_saves: the defender's retained saves, cover saves included (>= 0).
        brutal: only critical saves may block (Brutal, 6).
    """
    if brutal:
        normal_saves = 0
    out: list[Allocation] = []
    seen: set[tuple[int, int]] = set()
    for pairs in range(min(normal_saves // 2, crits) + 1):
        singles = min(normal_saves - 2 * pairs, normals)
        idle = normal_saves - 2 * pairs - singles
        rest_n, rest_c = normals - singles, crits - pairs
        if idle >= 2 and rest_c > 0:
            continue  # two normal saves left that could still block a crit
        for on_crit in range(min(crit_saves, rest_c), -1, -1):
            on_normal = min(crit_saves - on_crit, rest_n)
            if crit_saves - on_crit - on_normal > 0 and rest_c - on_crit > 0:
                continue  # a critical save left that could still block a crit
            a = Allocation(on_crit, on_normal, pairs, singles)
            key = a.left(normals, crits)
            if key not in seen:
                seen.add(key)
                out.append(a)
    return out


def least_damage(
    normals: int,
    crits: int,
    normal_saves: int,
    crit_saves: int,
    nd: int,
    cd: int,
    brutal: bool,
) -> Allocation:
    """The allocation the engine applies when the defender has no choice: the least damage
    (:func:`engine.dice.shoot.unblocked`, the dice core's assumption and tie-break)."""
    want = unblocked(normals, crits, normal_saves, crit_saves, nd, cd, brutal)
    options = allocations(normals, crits, normal_saves, crit_saves, brutal)
    for a in options:
        if a.left(normals, crits) == want:
            return a

    def damage(a: Allocation) -> int:
        un, uc = a.left(normals, crits)
        return un * nd + uc * cd

    # A Dmg of 0 can make an allocation that leaves a save idle as cheap: the cheapest one
    # that blocks with every save then.
    return min(options, key=damage)


def settled(w: Work) -> tuple[Any, ...]:
    """What a scratch copy's state is after an allocation was resolved on it, for comparing
    two allocations: everything but the events (the record, not the position)."""
    return (
        w.tp,
        w.phase,
        w.initiative,
        w.step,
        w.open_hatchways,
        w.mission,
        w.node,
        tuple(w.players),
        tuple(w.ops),
        tuple(w.markers),
        tuple(w.effects),
        tuple(w.tokens),
        tuple(w.stack),
        tuple(w.deferred),
    )


def allocation_options(
    w: Work,
    normals: int,
    crits: int,
    normal_saves: int,
    crit_saves: int,
    nd: int,
    cd: int,
    brutal: bool,
    resolve: Callable[[Work, int, int], None],
) -> list[Allocation]:
    """The defender's allocations that differ in effect, the least-damage one
    (:func:`least_damage`) first; a single one when no choice changes anything.

    Args:
        w: the working state at the Resolve Attack Dice step (unchanged on return).
        normals, crits, normal_saves, crit_saves, nd, cd, brutal: as :func:`allocations`
            and :func:`engine.dice.shoot.unblocked` (Normal and Critical Dmg).
        resolve: ``resolve(copy, unblocked_normals, unblocked_crits)`` inflicts the
            unblocked dice on a scratch copy exactly as the sequence would.
    """
    first = least_damage(normals, crits, normal_saves, crit_saves, nd, cd, brutal)
    others = [
        a
        for a in allocations(normals, crits, normal_saves, crit_saves, brutal)
        if a.left(normals, crits) != first.left(normals, crits)
    ]
    if not others:
        return [first]
    kept: list[Allocation] = []
    seen: list[tuple[Any, ...]] = []
    for a in (first, *others):
        c = w.scratch_copy()
        resolve(c, *a.left(normals, crits))
        result = settled(c)
        if result not in seen:
            seen.append(result)
            kept.append(a)
    return kept


def shot_allocations(w: Work, f: Any, normal_saves: int, crit_saves: int) -> list[Allocation]:
    """:func:`allocation_options` for the Shoot frame ``f`` (a
    :class:`~engine.game.shoot.ShootFrame`, the innermost frame of ``w``, at its Resolve
    Attack Dice step): its retained successes, its weapon's Normal and Critical Dmg and
    Brutal, each allocation resolved by its ``inflict_unblocked``."""
    prof = f.profile(w)
    return allocation_options(
        w,
        f.normals,
        f.crits,
        normal_saves,
        crit_saves,
        prof.normal_damage,
        prof.critical_damage,
        prof.rules.dice.brutal,
        lambda c, un, uc: c.top.inflict_unblocked(c, un, uc),
    )


def least_damage_choice(state: Any) -> Action:
    """At an ``allocate_saves`` decision of ``state`` (a
    :class:`~engine.game.state.GameState`), the least-damage allocation: the one the engine
    applies when the allocation cannot change the outcome (:func:`least_damage`), first of
    :func:`allocation_options` (``legal_actions`` lists the allocations sorted by their
    notation, not by damage). What a scenario's ``choices = "decline"`` takes there.

    Raises:
        ValueError: ``state`` is not at the defender's allocation of saves.
    """
    node = state.node
    if getattr(node, "kind", None) != "allocate_saves":
        raise ValueError(f"least_damage_choice: not an allocation of saves: {node!r}")
    w = Work(state)
    f = w.top
    return shot_allocations(w, f, *f.retained_saves(w))[0].action
