"""The single KT18 dice tests, one die at a time (``rules/KT18.md`` 3.11, 6.2-6.11, 7.6, 8.4):
what one face does in a hit roll, a wound roll, a saving throw, an Injury roll and a Nerve test.

These are the rules the game's frames apply to each die rolled and the exact distributions of
the dice core (:mod:`engine.dice.kt18`) sum over, so both read the same table. Every function
takes unmodified D6 faces (1..6) and the summed modifier, and never raises for a face in 1..6.
"""

from __future__ import annotations

__all__ = [
    "INJURY_OUT_OF_ACTION",
    "best_save",
    "hit_succeeds",
    "injury_dice",
    "injury_is_out_of_action",
    "nerve_test_passes",
    "overwatch_hit",
    "save_succeeds",
    "wound_succeeds",
    "wound_target",
]

INJURY_OUT_OF_ACTION = 4
"""An Injury roll of 4 or more (after modifiers) is out of action, 3 or less a flesh wound
(``rules/KT18.md`` 6.9, the reading chosen: a D6)."""


def wound_target(strength: int, toughness: int) -> int:
    """The wound roll needed for an attack of S ``strength`` against T ``toughness``
    (``rules/KT18.md`` 6.5): 2+ when S is at least double T, 3+ when S is greater, 4+ when
    equal, 6+ when S is half T or less, otherwise 5+. S and T below 1 count as 1 (1.9)."""
    s, t = max(1, strength), max(1, toughness)
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    if 2 * s <= t:
        return 6
    return 5


def hit_succeeds(face: int, skill: int, modifier: int = 0) -> bool:
    """Whether an unmodified ``face`` hits against WS or BS ``skill`` (2..6; 0 is "-": never)
    with the summed ``modifier`` (``rules/KT18.md`` 6.2, 7.6): an unmodified 1 always misses,
    an unmodified 6 always hits, otherwise face + modifier >= skill."""
    if skill == 0 or face == 1:
        return False
    if face == 6:
        return True
    return face + modifier >= skill


def overwatch_hit(face: int) -> bool:
    """Overwatch hits only on a 6, whatever the skill and the modifiers (``rules/KT18.md``
    3.11)."""
    return face == 6


def wound_succeeds(face: int, target: int, modifier: int = 0) -> bool:
    """Whether an unmodified ``face`` wounds against :func:`wound_target` ``target``
    (``rules/KT18.md`` 6.5): an unmodified 1 always fails, an unmodified 6 always wounds."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face + modifier >= target


def best_save(save: int, ap: int, invulnerable: int) -> tuple[str, int]:
    """The save a model uses against AP ``ap`` (0 or negative): ``("armour", Sv)`` or
    ``("invulnerable", x)``, whichever needs the lower face (``rules/KT18.md`` 6.6, 6.7: the
    model chooses one; an invulnerable save ignores AP). ``("none", 7)`` when it has neither
    (Sv "-" is 0, no invulnerable save is 0: 6.6 decision). A tie keeps the armour save (the
    odds are equal)."""
    options = []
    if save:
        options.append(("armour", save - ap))
    if invulnerable:
        options.append(("invulnerable", invulnerable))
    if not options:
        return ("none", 7)
    kind, _need = min(options, key=lambda o: (o[1], o[0] != "armour"))
    return (kind, save if kind == "armour" else invulnerable)


def save_succeeds(face: int, save: int, ap: int, invulnerable: int = 0) -> bool:
    """Whether an unmodified ``face`` stops the attack (``rules/KT18.md`` 6.6, 6.7), with the
    save :func:`best_save` picks: armour when face + AP >= Sv, invulnerable when face >= its
    value (never modified); an unmodified 1 always fails; no save (``"none"``) never passes."""
    if face == 1:
        return False
    kind, value = best_save(save, ap, invulnerable)
    if kind == "armour":
        return face + ap >= value
    if kind == "invulnerable":
        return face >= value
    return False


def injury_dice(damage: int) -> int:
    """How many dice the Injury roll uses after an attack of Damage ``damage`` (as rolled)
    took the last wound (``rules/KT18.md`` 6.10: D dice when D is above 1, the highest counts;
    reading chosen: the full Damage value)."""
    return max(1, damage)


def injury_is_out_of_action(faces: tuple[int, ...], modifier: int = 0) -> bool:
    """Whether an Injury roll of ``faces`` (the highest counts, each with ``modifier``: +1 per
    flesh wound, -1 obscured behind cover) is out of action (4+) rather than a flesh wound
    (3 or less) (``rules/KT18.md`` 6.9, 6.10)."""
    return max(faces) + modifier >= INJURY_OUT_OF_ACTION


def nerve_test_passes(face: int, leadership: int, modifier: int = 0) -> bool:
    """Whether a Nerve test with an unmodified ``face`` passes against Ld ``leadership``
    (``rules/KT18.md`` 8.4): an unmodified 1 always passes; a result above Ld fails."""
    if face == 1:
        return True
    return face + modifier <= leadership
