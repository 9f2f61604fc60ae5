"""The damage of each unblocked attack die in KT21 (``rules/KT21.md`` 10.1 step 6, 11 step
4, DC 16.23).

A shooting attack inflicts the damage of the hits its saves left (normal Damage per normal
hit, critical Damage per critical hit); a strike in a fight the damage of its die. Two kinds of
rule change what one attack die inflicts, and the Designer's Commentary keeps them apart:

- a rule may **add** damage to a die (a "+1 damage" psychic power or ability): the
  ``kt21_die_damage`` *would* hooks give the damage added to one die besides its own;
- a rule may **ignore** the damage of a die (a "roll a D6 for each attack die: on x+ ignore
  its damage" ability): the ``kt21_ignore_die_damage`` *would* hooks give that x. DC 16.23:
  only the die's own damage is ignored; the damage other rules added to it is still
  inflicted.

:func:`inflict_dice` is the step the shooting attack and the fight call where they inflict
the damage of their dice: with neither hook subscribed it inflicts the total at once (the
damage as before); with an ignore roll it defers a :class:`Kt21IgnoreDamageFrame` that rolls
one D6 per die (a chance node with exact weights) and inflicts each die's damage.
:func:`allocation_damage` gives the per-die damage the defender's least-damage allocation
of its saves compares (10.1 step 5): the added damage counts, and an ignore roll counts by
its expectation.

The rules that subscribe these hooks are shared KT21 rule modules found by an ability's
identity (:mod:`engine.rules.kt21.added_damage`, :mod:`engine.rules.kt21.ignore_damage`).
The dice core (:mod:`engine.dice.kt21`) does not model them (``killteam calc`` takes no
datacard abilities, so its odds are never wrong for its inputs); an odds report built from
an attack in a battle (an explanation, the heuristic's valuation) lists them with
:func:`odds_notes` rather than leave them out in silence.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.damage import inflict
from engine.game.events import Event, add_template
from engine.game.work import Work

__all__ = [
    "Kt21IgnoreDamageFrame",
    "added_damage",
    "allocation_damage",
    "ignore_threshold",
    "inflict_dice",
    "odds_notes",
]


def added_damage(w: Work, *, op: str, target: str, weapon: str, kind: str, crit: bool) -> int:
    """The damage the ``kt21_die_damage`` hooks add to one unblocked attack die of ``op``'s
    ``weapon`` (notation name; ``kind`` ``"ranged"`` or ``"melee"``; ``crit``: a critical
    hit or strike) on ``target``, never below 0 (module docstring; 0 when nobody listens)."""
    if "kt21_die_damage" not in w.ctx.hooks.would:
        return 0
    got = w.would("kt21_die_damage", 0, op=op, target=target, weapon=weapon, kind=kind, crit=crit)
    return max(0, int(got))


def ignore_threshold(w: Work, *, op: str, target: str, weapon: str, kind: str) -> int:
    """The x (2 to 6) of the D6 rolled per attack die of ``op``'s ``weapon`` on ``target``
    by which ``target`` ignores that die's own damage on x+ (the ``kt21_ignore_die_damage``
    hooks; DC 16.23), or 0 when no rule of ``target`` does (a value above 6 never succeeds and
    counts as none; below 2 counts as 2: a 1 always fails, ``rules/KT21.md`` 4.3)."""
    if "kt21_ignore_die_damage" not in w.ctx.hooks.would:
        return 0
    x = int(w.would("kt21_ignore_die_damage", 0, op=op, target=target, weapon=weapon, kind=kind))
    if x <= 0 or x > 6:
        return 0
    return max(2, x)


def allocation_damage(
    w: Work, *, op: str, target: str, weapon: str, kind: str, damage: tuple[int, int]
) -> tuple[int, int]:
    """What one unblocked normal and one critical hit would cost ``target`` (``damage``:
    the profile's ``(normal, critical)`` Damage), for the defender's least-damage allocation
    (``rules/KT21.md`` 10.1 step 5): own damage plus added damage; with an x+ ignore roll the
    expectation times 6 (the own damage counts on the x - 1 faces that fail the roll, the
    added damage on all six), which orders the allocations as their expected damage does.
    ``damage`` itself when no rule changes it."""
    nd, cd = damage
    an = added_damage(w, op=op, target=target, weapon=weapon, kind=kind, crit=False)
    ac = added_damage(w, op=op, target=target, weapon=weapon, kind=kind, crit=True)
    x = ignore_threshold(w, op=op, target=target, weapon=weapon, kind=kind)
    if not x:
        return nd + an, cd + ac
    return nd * (x - 1) + 6 * an, cd * (x - 1) + 6 * ac


def inflict_dice(
    w: Work,
    *,
    op: str,
    target: str,
    weapon: str,
    kind: str,
    source: str,
    damage: tuple[int, int],
    normals: int,
    crits: int,
) -> None:
    """Inflict on ``target`` the damage of ``normals`` normal and ``crits`` critical
    unblocked attack dice of ``op``'s ``weapon`` (notation name, ``kind`` ``"ranged"`` or
    ``"melee"``; ``damage`` the profile's ``(normal, critical)`` Damage; ``source`` the name
    the ``damage_inflicted`` event gives; ``rules/KT21.md`` 10.1 step 6, 11 step 4).

    Each die inflicts its own damage plus the damage the ``kt21_die_damage`` hooks add to it.
    When a rule of ``target`` may ignore a die's damage (``kt21_ignore_die_damage``), a
    :class:`Kt21IgnoreDamageFrame` is deferred (it runs once the calling procedure has made
    its changes): one D6 per die, critical dice first; on x+ only the die's own damage is
    ignored (DC 16.23). Otherwise the total is inflicted at once (one ``damage_inflicted``).
    """
    if normals <= 0 and crits <= 0:
        return
    nd, cd = damage
    an = (
        added_damage(w, op=op, target=target, weapon=weapon, kind=kind, crit=False)
        if normals
        else 0
    )
    ac = added_damage(w, op=op, target=target, weapon=weapon, kind=kind, crit=True) if crits else 0
    x = ignore_threshold(w, op=op, target=target, weapon=weapon, kind=kind)
    if not x:
        inflict(w, target, normals * (nd + an) + crits * (cd + ac), source, by=op)
        return
    dice = ((cd, ac),) * crits + ((nd, an),) * normals
    w.defer_frame(Kt21IgnoreDamageFrame(target=target, by=op, source=source, dice=dice, x=x))


def odds_notes(w: Work, *, op: str, target: str, weapon: str, kind: str) -> tuple[str, ...]:
    """The rules of this module that change what ``op``'s ``weapon`` (``kind``) inflicts on
    ``target`` now, one line each, for an odds report made by the dice core (which does not
    model them, module docstring); empty when none applies."""
    out = []
    an = added_damage(w, op=op, target=target, weapon=weapon, kind=kind, crit=False)
    ac = added_damage(w, op=op, target=target, weapon=weapon, kind=kind, crit=True)
    if an or ac:
        out.append(
            f"added damage: {op}'s rules add {an}/{ac} damage to each unblocked normal/critical "
            "die (rules/KT21.md 16.23): not in the dice core's odds"
        )
    x = ignore_threshold(w, op=op, target=target, weapon=weapon, kind=kind)
    if x:
        out.append(
            f"ignored damage: {target} ignores an attack die's own damage on a {x}+ "
            "(rules/KT21.md 16.23): not in the dice core's odds"
        )
    return tuple(out)


@attrs.frozen(slots=True)
class Kt21IgnoreDamageFrame:
    """The damage of attack dice a rule of ``target`` may ignore, one die at a time
    (DC 16.23, :func:`inflict_dice`).

    Attributes:
        target: the operative the dice damage. by: the attacker. source: the name of the
            damage (the weapon).
        dice: ``(own damage, added damage)`` of each die still to inflict.
        x: the roll that ignores a die's own damage (x+ on one D6).
    """

    target: str
    by: str
    source: str
    dice: tuple[tuple[int, int], ...]
    x: int

    def run(self, w: Work) -> None:
        """Roll for the next die (the target's player rolls), or end: no die left, or the
        target incapacitated (the rest of the dice inflict nothing more, 4.4). A die with no
        own damage inflicts its added damage without a roll."""
        if not self.dice or not w.op(self.target).alive:
            w.stack.pop()
            return
        own, added = self.dice[0]
        if own <= 0:
            inflict(w, self.target, added, self.source, by=self.by)
            w.replace_top(dice=self.dice[1:])
            return
        w.roll(
            "kt21_ignore_damage",
            w.ctx.owner[self.target],
            1,
            label=f"ignore damage {self.x}+ ({self.target})",
        )

    def options(self, w: Work) -> list[Action]:
        """No decision is asked here."""
        del w
        return []

    def act(self, w: Work, a: Action) -> None:
        """Never called (the frame asks no decision)."""
        del w, a

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """The D6 for the first die: on x+ its own damage is ignored and only its added
        damage inflicted (``die_damage_ignored``), else both."""
        own, added = self.dice[0]
        roll = values[0]
        w.emit("dice_rolled", player=w.ctx.owner[self.target], label="ignore damage", values=values)
        w.replace_top(dice=self.dice[1:])
        if roll >= self.x:
            w.emit(
                "die_damage_ignored", op=self.target, by=self.by, damage=own, added=added, roll=roll
            )
            inflict(w, self.target, added, self.source, by=self.by)
        else:
            inflict(w, self.target, own + added, self.source, by=self.by)


def _ignored_text(e: Event) -> str:
    added = f", {e['added']} added damage still inflicted" if e["added"] else ""
    die = f"one of {e['by']}'s dice ({e['roll']})"
    return f"  {e['op']} ignores the {e['damage']} damage of {die}{added}"


add_template("die_damage_ignored", _ignored_text)
