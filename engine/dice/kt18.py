"""The dice core's KT18 mode (``rules/KT18.md`` 5.4-5.10, 6.2-6.12, 7.5-7.8): the exact
outcome of one weapon's attacks against one model.

- Inputs: :class:`Kt18Attack` (number of attacks, BS/WS, the summed hit modifier, Overwatch,
  S, AP, D) and :class:`Kt18Target` (T, Sv, invulnerable save, wounds left, flesh wounds
  taken and boxes, the cover Injury modifier).
- :func:`kt18_attack_pmf`: the exact distribution of the outcome (:data:`Kt18Outcome`) as
  :class:`fractions.Fraction`; :func:`kt18_attack`: the same with summaries
  (:class:`Kt18AttackResult`).
- Sampling one outcome: :func:`engine.dice.kt18_sample.sample_kt18_attack`.

The attacks are resolved one at a time, as the engine resolves them (5.6 decision): each goes
hit roll, wound roll, saving throw, damage; when the model reaches 0 wounds the attacks left
are discarded (6.8) and the Injury roll is made with D dice when the killing attack's Damage
as rolled is above 1, the highest counting (6.10), +1 per flesh wound already taken and the
cover modifier (6.9). A flesh wound puts the model back to 1 wound (6.11); a flesh wound with
every box already marked is out of action instead (6.11, reading (a)). The random number of
attacks is rolled once for the weapon (5.7, 7.5); a random Damage is rolled per attack (6.8).
Each die's rule is :mod:`engine.dice.kt18_rolls` (shared with the game's frames).

The distribution is a dynamic programme over (attacks left, wounds left), never an
enumeration of dice: at most ``MAX_ATTACKS x MAX_WOUNDS`` states.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache

import attrs

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

__all__ = [
    "FACES",
    "MAX_ATTACKS",
    "MAX_WOUNDS",
    "OUTCOME_KINDS",
    "Kt18Attack",
    "Kt18AttackResult",
    "Kt18Outcome",
    "Kt18Target",
    "attack_count_pmf",
    "injury_out_of_action_probability",
    "kt18_attack",
    "kt18_attack_pmf",
    "unsaved_probability",
]

FACES = range(1, 7)
"""The faces of a D6 (``rules/KT18.md`` 1.2)."""

MAX_ATTACKS = 72
"""The most attacks one weapon may make here (``6D6`` doubled by Rapid Fire): bounds the
work an input can cause."""

MAX_WOUNDS = 40
"""The most wounds left a target may have here (bounds the work)."""

_ONE = RandomValue(0, 6, 1)

OUTCOME_KINDS = ("unharmed", "wounded", "flesh_wound", "out_of_action")
"""The kinds of :data:`Kt18Outcome`, in the order of their harm."""

Kt18Outcome = tuple[str, int]
"""The outcome of one weapon's attacks against one model: ``(kind, wounds left after)``:
``("unharmed", W)`` (no wound lost), ``("wounded", k)`` (``0 < k < W`` wounds left),
``("flesh_wound", 1)`` (taken to 0 wounds, a flesh wound: back to 1 wound, 6.11),
``("out_of_action", 0)`` (6.12). ``W`` is :attr:`Kt18Target.wounds`."""


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProfileError(f"{what} must be a whole number {low}..{high}, not {value!r}")
    return value


def _random(value: object, what: str) -> RandomValue:
    if not isinstance(value, RandomValue):
        raise ProfileError(f"{what} must be a RandomValue (D3, 2D6, 3...), not {value!r}")
    return value


@attrs.frozen(slots=True)
class Kt18Attack:
    """One weapon's attacks against one model (``rules/KT18.md`` 5.4, 5.7, 6.2, 7.5, 7.6).

    Attributes:
        attacks: the number of attacks: the weapon's shots (5.7) or the fighter's A (7.5), a
            :class:`~engine.dice.kt18_values.RandomValue` rolled once for the weapon.
        skill: BS (shooting) or WS (melee), 2..6; 0 is "-" (never hits, 1.9).
        hit_modifier: the summed hit roll modifier (-1 long range, -1 obscured, -1 per flesh
            wound of the attacker, -1 broken, -1 Heavy after moving...; 6.2, 7.6), -6..6.
        strength: the attack's S, already resolved from User/+1/x2 (1.8, 1.9), 1..99.
        ap: AP as printed, 0 or negative (-6..0; 6.6).
        damage: D, a RandomValue rolled per unsaved attack (6.8); at least 1.
        overwatch: Overwatch: hits only on an unmodified 6, whatever the skill and the
            modifiers (3.11).
        doubled: Rapid Fire at half range doubles the number rolled (5.10).

    Raises:
        ProfileError: a value outside its range (the message names the field), or more than
            :data:`MAX_ATTACKS` attacks possible.
    """

    attacks: RandomValue
    skill: int
    strength: int
    ap: int = 0
    damage: RandomValue = _ONE
    hit_modifier: int = 0
    overwatch: bool = False
    doubled: bool = False

    def __attrs_post_init__(self) -> None:
        attacks = _random(self.attacks, "number of attacks")
        if self.skill != 0:
            _whole(self.skill, 'BS/WS (0 for "-")', 2, 6)
        _whole(self.strength, "S", 1, 99)
        _whole(self.ap, "AP", -6, 0)
        _whole(self.hit_modifier, "hit modifier", -6, 6)
        for name in ("overwatch", "doubled"):
            if not isinstance(getattr(self, name), bool):
                raise ProfileError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if _random(self.damage, "D").low < 1:
            raise ProfileError(f"D must be at least 1, not {self.damage.format()}")
        if attacks.high * (2 if self.doubled else 1) > MAX_ATTACKS:
            raise ProfileError(
                f"number of attacks: {attacks.format()}{' doubled' if self.doubled else ''} "
                f"may exceed {MAX_ATTACKS}"
            )

    def count_multiplier(self) -> int:
        """2 for Rapid Fire at half range (5.10), else 1."""
        return 2 if self.doubled else 1


@attrs.frozen(slots=True)
class Kt18Target:
    """The model attacked (``rules/KT18.md`` 1.7, 6.5-6.11).

    Attributes:
        toughness: T, 1..20. save: Sv 2..6, 0 is "-" (no armour save, 6.6 decision).
        invulnerable: the invulnerable save 2..6, 0 none (6.7).
        wounds: wounds left, 1..:data:`MAX_WOUNDS`.
        flesh_wounds: flesh wounds already taken, 0..``flesh_wound_boxes`` (+1 each to the
            Injury roll, 6.9).
        flesh_wound_boxes: the boxes on its datacard (3 by the 6.11 decision), 0..10.
        cover_modifier: the Injury roll modifier for an obscured model within 1" of what
            lies between it and the shooter: 0 or -1 (6.9; shooting only).

    Raises:
        ProfileError: a value outside its range (the message names the field).
    """

    toughness: int
    save: int
    wounds: int = 1
    invulnerable: int = 0
    flesh_wounds: int = 0
    flesh_wound_boxes: int = 3
    cover_modifier: int = 0

    def __attrs_post_init__(self) -> None:
        _whole(self.toughness, "T", 1, 20)
        if self.save != 0:
            _whole(self.save, 'Sv (0 for "-")', 2, 6)
        if self.invulnerable != 0:
            _whole(self.invulnerable, "invulnerable save (0 for none)", 2, 6)
        _whole(self.wounds, "wounds left", 1, MAX_WOUNDS)
        _whole(self.flesh_wound_boxes, "flesh wound boxes", 0, 10)
        _whole(self.flesh_wounds, "flesh wounds", 0, self.flesh_wound_boxes)
        _whole(self.cover_modifier, "cover Injury modifier (0 or -1)", -1, 0)

    @property
    def injury_modifier(self) -> int:
        """The summed Injury roll modifier: +1 per flesh wound, plus the cover modifier
        (``rules/KT18.md`` 6.9)."""
        return self.flesh_wounds + self.cover_modifier

    @property
    def boxes_full(self) -> bool:
        """Every flesh wound box is marked: a further flesh wound is out of action (6.11)."""
        return self.flesh_wounds >= self.flesh_wound_boxes


def _face_share(test: Callable[[int], bool]) -> Fraction:
    """The share of the six faces for which ``test(face)`` holds."""
    return Fraction(sum(1 for f in FACES if test(f)), 6)


def unsaved_probability(attack: Kt18Attack, target: Kt18Target) -> Fraction:
    """P(one attack hits, wounds and is not saved) (``rules/KT18.md`` 6.2, 3.11, 6.5-6.7,
    7.6): the product of the three single-die chances of :mod:`engine.dice.kt18_rolls`."""
    if attack.overwatch:
        hit = _face_share(overwatch_hit)
    else:
        hit = _face_share(lambda f: hit_succeeds(f, attack.skill, attack.hit_modifier))
    need = wound_target(attack.strength, target.toughness)
    wound = _face_share(lambda f: wound_succeeds(f, need))
    unsaved = _face_share(
        lambda f: not save_succeeds(f, target.save, attack.ap, target.invulnerable)
    )
    return hit * wound * unsaved


def injury_out_of_action_probability(damage: int, target: Kt18Target) -> Fraction:
    """P(out of action) when an attack of Damage ``damage`` (as rolled) takes ``target`` to 0
    wounds (``rules/KT18.md`` 6.9-6.11): the Injury roll uses :func:`injury_dice` dice, the
    highest counting, so it is a flesh wound only when every die is; a flesh wound with every
    box marked is out of action."""
    if target.boxes_full:
        return Fraction(1)
    mod = target.injury_modifier
    flesh_one = _face_share(lambda f: not injury_is_out_of_action((f,), mod))
    return 1 - flesh_one ** injury_dice(damage)


def attack_count_pmf(attack: Kt18Attack) -> dict[int, Fraction]:
    """The distribution of the number of attacks made: the value rolled once for the weapon
    (5.7, 7.5), doubled for Rapid Fire at half range (5.10)."""
    m = attack.count_multiplier()
    return {n * m: p for n, p in sorted(attack.attacks.pmf().items())}


def _outcome(wounds: int, start: int) -> Kt18Outcome:
    return ("unharmed", wounds) if wounds == start else ("wounded", wounds)


_FLESH: Kt18Outcome = ("flesh_wound", 1)
_OUT: Kt18Outcome = ("out_of_action", 0)


@lru_cache(maxsize=1024)
def _kt18_attack_pmf(
    attack: Kt18Attack, target: Kt18Target
) -> tuple[tuple[Kt18Outcome, Fraction], ...]:
    p = unsaved_probability(attack, target)
    damage = sorted(attack.damage.pmf().items())
    kill = {d: injury_out_of_action_probability(d, target) for d, _ in damage}
    # every step's chances as whole numbers over one denominator ``den`` (fast, exact)
    steps = [1 - p] + [p * pd * k for d, pd in damage for k in (kill[d], 1 - kill[d], 1)]
    den = math.lcm(*(f.denominator for f in steps))
    miss = int((1 - p) * den)
    hits = [
        (d, int(p * pd * kill[d] * den), int(p * pd * (1 - kill[d]) * den), int(p * pd * den))
        for d, pd in damage
    ]
    start = target.wounds
    counts = attack_count_pmf(attack)
    # table[w]: outcome -> weight over den**n, with n attacks left and w wounds left
    table: list[dict[Kt18Outcome, int]] = [{_outcome(w, start): 1} for w in range(start + 1)]
    total: dict[Kt18Outcome, Fraction] = {}
    for n in range(max(counts) + 1):
        if n:
            lift = den ** (n - 1)  # a terminal outcome's weight over den, to over den**n
            nxt: list[dict[Kt18Outcome, int]] = [{}]
            for w in range(1, start + 1):
                row = {key: miss * q for key, q in table[w].items()}
                for d, out, flesh, any_d in hits:
                    if d >= w:  # 0 wounds: the rest are discarded, the Injury roll (6.8)
                        row[_OUT] = row.get(_OUT, 0) + out * lift
                        row[_FLESH] = row.get(_FLESH, 0) + flesh * lift
                    else:
                        for key, q in table[w - d].items():
                            row[key] = row.get(key, 0) + any_d * q
                nxt.append(row)
            table = nxt
        if n in counts:
            scale = den**n
            for key, q in table[start].items():
                if q:
                    total[key] = total.get(key, Fraction(0)) + counts[n] * Fraction(q, scale)
    order = {k: i for i, k in enumerate(OUTCOME_KINDS)}
    return tuple(sorted(total.items(), key=lambda kv: (order[kv[0][0]], -kv[0][1])))


def kt18_attack_pmf(attack: Kt18Attack, target: Kt18Target) -> dict[Kt18Outcome, Fraction]:
    """The exact distribution of the outcome of ``attack`` against ``target``
    (``rules/KT18.md`` 5.6, 5.7, 5.10, 6.2-6.12, 7.5, 7.6; see the module docstring).

    Returns:
        ``{(kind, wounds left): probability}`` (:data:`Kt18Outcome`), the least harm first;
        the probabilities sum to 1.
    """
    return dict(_kt18_attack_pmf(attack, target))


@attrs.frozen(slots=True)
class Kt18AttackResult:
    """:func:`kt18_attack`'s result: the outcome distribution and its summaries.

    Attributes:
        outcomes: :func:`kt18_attack_pmf`'s distribution. wounds: the target's wounds left
            before the attacks. unsaved: P(one attack is not saved).
    """

    outcomes: Mapping[Kt18Outcome, Fraction]
    wounds: int
    unsaved: Fraction

    def probability(self, kind: str) -> Fraction:
        """P(the outcome is of ``kind``, one of :data:`OUTCOME_KINDS`).

        Raises:
            ProfileError: an unknown kind."""
        if kind not in OUTCOME_KINDS:
            raise ProfileError(f"unknown outcome {kind!r}; one of {', '.join(OUTCOME_KINDS)}")
        return sum((p for (k, _), p in self.outcomes.items() if k == kind), Fraction(0))

    @property
    def out_of_action(self) -> Fraction:
        """P(out of action) (6.12)."""
        return self.probability("out_of_action")

    @property
    def flesh_wound(self) -> Fraction:
        """P(a new flesh wound) (6.11)."""
        return self.probability("flesh_wound")

    @property
    def reduced_to_zero(self) -> Fraction:
        """P(the model is taken to 0 wounds: an Injury roll is made) (6.8)."""
        return self.out_of_action + self.flesh_wound

    def wounds_lost(self) -> dict[int, Fraction]:
        """``{wounds lost: probability}`` (capped at the wounds left: excess damage is lost,
        6.8); a model taken to 0 lost all its wounds, whatever the Injury roll."""
        out: dict[int, Fraction] = {}
        for (kind, left), p in self.outcomes.items():
            lost = self.wounds if kind in ("flesh_wound", "out_of_action") else self.wounds - left
            out[lost] = out.get(lost, Fraction(0)) + p
        return dict(sorted(out.items()))

    @property
    def expected_wounds_lost(self) -> Fraction:
        """The mean of :meth:`wounds_lost`."""
        return sum((k * p for k, p in self.wounds_lost().items()), Fraction(0))


def kt18_attack(attack: Kt18Attack, target: Kt18Target) -> Kt18AttackResult:
    """:func:`kt18_attack_pmf` with its summaries (``rules/KT18.md`` 6.8-6.12)."""
    return Kt18AttackResult(
        kt18_attack_pmf(attack, target), target.wounds, unsaved_probability(attack, target)
    )
