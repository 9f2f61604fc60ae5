"""Sampling one KT18 weapon's attacks against one model (``rules/KT18.md`` 5.6-5.10,
6.2-6.12, 7.5, 7.6), die by die, with the same rules as the exact core
(:func:`engine.dice.kt18.kt18_attack_pmf`) and the single-die tests of
:mod:`engine.dice.kt18_rolls`.

The generator is a ``numpy.random.Generator`` or a :class:`random.Random`: a D6 is
``rng.integers(1, 7)`` or ``rng.randint(1, 6)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from engine.dice.kt18 import Kt18Attack, Kt18Outcome, Kt18Target
from engine.dice.kt18_rolls import (
    hit_succeeds,
    injury_dice,
    injury_is_out_of_action,
    overwatch_hit,
    save_succeeds,
    wound_succeeds,
    wound_target,
)
from engine.dice.kt18_values import RandomValue
from engine.errors import ProfileError

__all__ = ["d6_roller", "roll_value", "sample_kt18_attack", "sample_kt18_attacks"]


def d6_roller(rng: np.random.Generator | random.Random) -> Callable[[], int]:
    """A function rolling one D6 (1..6) with ``rng``.

    Raises:
        ProfileError: ``rng`` is neither a numpy Generator nor a random.Random."""
    if isinstance(rng, np.random.Generator):
        gen = rng
        return lambda: int(gen.integers(1, 7))
    if isinstance(rng, random.Random):
        rnd = rng
        return lambda: rnd.randint(1, 6)
    raise ProfileError(
        f"rng must be a numpy.random.Generator or a random.Random, not {type(rng).__name__}"
    )


def roll_value(value: RandomValue, d6: Callable[[], int]) -> int:
    """Roll a :class:`~engine.dice.kt18_values.RandomValue` (each D3 a halved D6, 1.2)."""
    return value.value(tuple(d6() for _ in range(value.dice)))


def sample_kt18_attack(
    attack: Kt18Attack, target: Kt18Target, rng: np.random.Generator | random.Random
) -> Kt18Outcome:
    """One sampled outcome of ``attack`` against ``target``: the number of attacks rolled
    once (doubled for Rapid Fire), then each attack's hit, wound and save dice and its D,
    until the attacks run out or the model reaches 0 wounds (the rest discarded, 6.8); then
    the Injury roll with D dice, the highest counting (6.9, 6.10), and a flesh wound with
    every box marked is out of action (6.11).

    Returns:
        a :data:`~engine.dice.kt18.Kt18Outcome`, as :func:`~engine.dice.kt18.kt18_attack_pmf`.

    Raises:
        ProfileError: a bad ``rng``.
    """
    d6 = d6_roller(rng)
    count = roll_value(attack.attacks, d6) * attack.count_multiplier()
    need = wound_target(attack.strength, target.toughness)
    left = target.wounds
    for _ in range(count):
        face = d6()
        hit = (
            overwatch_hit(face)
            if attack.overwatch
            else hit_succeeds(face, attack.skill, attack.hit_modifier)
        )
        if not hit or not wound_succeeds(d6(), need):
            continue
        if save_succeeds(d6(), target.save, attack.ap, target.invulnerable):
            continue
        damage = roll_value(attack.damage, d6)
        left -= damage
        if left > 0:
            continue
        faces = tuple(d6() for _ in range(injury_dice(damage)))
        if target.boxes_full or injury_is_out_of_action(faces, target.injury_modifier):
            return ("out_of_action", 0)
        return ("flesh_wound", 1)
    return ("unharmed", left) if left == target.wounds else ("wounded", left)


def sample_kt18_attacks(
    attack: Kt18Attack, target: Kt18Target, n: int, rng: np.random.Generator | random.Random
) -> dict[Kt18Outcome, int]:
    """``n`` independent :func:`sample_kt18_attack` outcomes counted: ``{outcome: count}``.

    Raises:
        ProfileError: ``n`` not a whole number 0..1_000_000, or a bad ``rng``."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 1_000_000:
        raise ProfileError(f"number of samples must be a whole number 0..1000000, not {n!r}")
    out: dict[Kt18Outcome, int] = {}
    for _ in range(n):
        k = sample_kt18_attack(attack, target, rng)
        out[k] = out.get(k, 0) + 1
    return out
