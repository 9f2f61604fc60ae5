"""What a re-rolled die or a retention choice is worth in a shooting attack (``rules/KT24.md``
2.4, 6), exactly, in the agents' unit (:mod:`engine.advice.values`): the value to the shooter
of the successes it retains, the outcomes the retention rules still to be offered can lead
to, and the expected gain of re-rolling one die.

Rule code uses :func:`shoot_reroll_gain` to value a rule that grants a re-roll; the heuristic
agent (:mod:`engine.agents.attack_choices`) uses the same functions for Command Re-roll and
the retention choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.advice.values import DAMAGE_WEIGHT, defence_value, starting_wounds
from engine.game import choices
from engine.game import shoot as shoot_action
from engine.game.work import Work

__all__ = ["reachable_retentions", "replace_one", "retained_shot_value", "shoot_reroll_gain"]


def reachable_retentions(
    rules: tuple[str, ...], n: int, c: int, fails: int
) -> list[tuple[int, int]]:
    """Every retained ``(normals, crits)`` the retention ``rules`` still to be offered can
    lead to, each applied or declined in turn (6)."""
    if not rules:
        return [(n, c)]
    out = reachable_retentions(rules[1:], n, c, fails)
    if choices.retention_rule_applies(rules[0], n, c, fails):
        out += reachable_retentions(rules[1:], *choices.apply_retention_rule(rules[0], n, c, fails))
    return out


def retained_shot_value(w: Work, f: shoot_action.ShootFrame, n: int, c: int) -> float:
    """Exact value to the shooter (as :func:`engine.advice.values.shot_value`) of retaining
    ``n`` normal and ``c`` critical successes: Devastating at once, then the defender's best
    cover-save option (:func:`engine.game.choices.cover_save_options`) and the defence roll."""
    t = f.target(w)
    prof = f.profile(w)
    d = prof.rules.dice
    save = w.ctx.datacards[t.id].save
    maxw = starting_wounds(w, t)
    wounds = max(1, t.wounds)
    dev = d.devastating * c
    if dev >= wounds:
        return 1.0 + DAMAGE_WEIGHT * wounds / maxw
    left = wounds - dev
    # The defence dice of the target's datacard (3 in KT24, 4.5; KT21's DF).
    dice = max(0, w.ctx.datacards[t.id].defence - max(d.piercing, d.piercing_crits if c else 0))
    improved = f.cover_improved(w)
    both = f.cover_both(w) if improved else False
    opts = choices.cover_save_options(prof, n, c, save, left, f.cover, improved, both)
    rest = min(
        defence_value(n, c, prof, save, cn, cc, dice - cn - cc, (), left, maxw)
        for _, cn, cc in opts
    )
    return rest + DAMAGE_WEIGHT * dev / maxw


def replace_one(dice: Sequence[int], face: int, new: int) -> tuple[int, ...]:
    """``dice`` with the first die showing ``face`` turned to ``new`` (a re-rolled die).

    Raises:
        ValueError: no die shows ``face``.
    """
    out = list(dice)
    out[out.index(face)] = new
    return tuple(out)


def shoot_reroll_gain(w: Work, f: shoot_action.ShootFrame, attacking: bool, face: int) -> float:
    """Exact expected gain (in operatives, for the player re-rolling) of re-rolling one die
    showing ``face`` in this shooting attack."""
    prof = f.profile(w)
    t = f.target(w)
    save = w.ctx.datacards[t.id].save
    maxw = starting_wounds(w, t)
    wounds = max(1, t.wounds)
    if attacking:
        # The attacker's best retention rules, then the defender's best cover save
        # (the players' choices, engine.game.attacks).

        def value(dice: tuple[int, ...]) -> float:
            n, c, fails = choices.roll_retained(dice, f.accurate, prof, f.obscured)
            rules = choices.retention_rules(prof, f.obscured, c)
            return max(
                retained_shot_value(w, f, nn, cc)
                for nn, cc in reachable_retentions(rules, n, c, fails)
            )

        now = value(f.dice)
        after = sum(value(replace_one(f.dice, face, v)) for v in range(1, 7)) / 6
        return after - now
    cn, cc = f.cover_saves

    def loss(dice: tuple[int, ...]) -> float:
        return defence_value(f.normals, f.crits, prof, save, cn, cc, 0, dice, wounds, maxw)

    now = loss(f.dice)
    after = sum(loss(replace_one(f.dice, face, v)) for v in range(1, 7)) / 6
    return now - after
