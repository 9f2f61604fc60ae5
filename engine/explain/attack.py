"""``attack ATTACKER WEAPON TARGET [with DEFWEAPON]``: what this shot or fight will do,
exactly, and the rules applied in order: one explanation for every ruleset, given what
differs by the edition table (:mod:`engine.explain.editions`) as an :class:`AttackRules`:
the steps read before the attack (the weapon, the effects in force), then the shot's or the
fight's own steps and exact distribution from the ruleset's dice core (KT24:
:data:`engine.explain.kt24_attack.KT24_ATTACK`, ``rules/KT24.md``; KT21:
:data:`engine.explain.kt21_attack.KT21_ATTACK`, ``rules/KT21.md``).

What is shared: reading the query (:func:`parse_attack`: the attacker, the weapon words, the
target, ``at`` and ``with DEFWEAPON``, with errors naming the bad word), finding the weapon
(ranged first, then melee), refusing a retaliating weapon for a shot, the answer of a shot
(:func:`shot_answer`) and the ruling itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.explain.common import find_op, find_query_weapon
from engine.explain.ruling import Drawing, QueryError, Ruling, Step
from engine.game.state import GameState, OperativeState
from engine.game.work import Work

__all__ = [
    "AttackQuery",
    "AttackRules",
    "Outcome",
    "Resolve",
    "explain_attack",
    "parse_attack",
    "shot_answer",
    "shot_summary",
]


@attrs.frozen(slots=True)
class AttackQuery:
    """One ``attack`` query, read.

    Attributes:
        w: the position's work view. state: the position ``w`` was made from (``None``: not
            given; KT24 then only lists the rules acting after the dice).
        attacker, target: the operatives (on the killzone, enemies of each other).
        weapon: the attacker's weapon's name. kind: ``"ranged"`` or ``"melee"``.
        profile: its profile as the game finds it (:func:`engine.game.weapons.find_weapon`).
        defweapon: the words naming the defender's retaliating melee weapon (``""``: none
            named).
    """

    w: Work
    state: GameState | None
    attacker: OperativeState
    target: OperativeState
    weapon: str
    kind: str
    profile: Any
    defweapon: str


@attrs.frozen(slots=True)
class Outcome:
    """What a ruleset's shot or fight adds to the ruling besides its steps and data: the
    answer in one line, the verdict (the expected damage to the target) and the drawing."""

    answer: str
    verdict: float
    drawing: Drawing


Resolve = Callable[[AttackQuery, list[Step], dict[str, Any]], Outcome]
"""``resolve(query, steps, data) -> Outcome``: appends its steps to ``steps`` and its values
to ``data`` (in its own order: the JSON form keeps it)."""


@attrs.frozen(slots=True)
class AttackRules:
    """What differs between rulesets in the ``attack`` explanation.

    Attributes:
        prelude: ``prelude(query, data) -> steps``: the steps before the shot or fight (the
            weapon's usability or profile, the effects in force); may add to ``data``.
        shoot: the shot's steps and distribution (:data:`Resolve`).
        fight: the fight's (:data:`Resolve`); it reads ``query.defweapon``.
    """

    prelude: Callable[[AttackQuery, dict[str, Any]], list[Step]]
    shoot: Resolve
    fight: Resolve


def parse_attack(
    w: Work, words: tuple[str, ...]
) -> tuple[OperativeState, OperativeState, str, str]:
    """``(attacker, target, weapon words, DEFWEAPON words)`` of the words after ``attack``:
    ``ATTACKER WEAPON [at] TARGET [with DEFWEAPON]`` (``with`` read from the third word on).

    Raises:
        QueryError: an unknown or absent operative, ``with`` and no weapon after it, a
            target that is not an enemy of the attacker."""
    o = find_op(w, words[0], "attacker")
    rest = list(words[1:])
    defweapon = ""
    lowered = [x.lower() for x in rest]
    if "with" in lowered[2:]:
        k = lowered.index("with", 2)
        defweapon = " ".join(rest[k + 1 :])
        if not defweapon:
            raise QueryError("'with' needs the defender's melee weapon after it")
        rest = rest[:k]
    if len(rest) >= 3 and rest[-2].lower() == "at":
        rest.pop(-2)
    t = find_op(w, rest[-1], "target")
    if w.ctx.owner[o.id] == w.ctx.owner[t.id]:
        raise QueryError(f"target {t.id} is not an enemy of {o.id}")
    return o, t, " ".join(rest[:-1]), defweapon


def shot_answer(q: AttackQuery, mean: float, kill: float) -> str:
    """The answer of a shot: the expected damage and the chance the target is incapacitated."""
    return (
        f"{q.attacker.id} shooting {q.target.id} with {q.weapon}: expected damage {mean:.2f}, "
        f"P(incapacitated) {kill:.1%}"
    )


def shot_summary(q: AttackQuery, mean: float, kill: float, how: str, section: str) -> Step:
    """The ``distribution`` step of a shot: the expected damage and the chance the target is
    incapacitated, ``how`` the defender's choices the dice core makes (in brackets) and
    ``section`` the ruleset's rule section of the shot."""
    return Step(
        "distribution",
        f"{mean:.3f} damage",
        f"expected damage {mean:.3f}, P({q.target.id} incapacitated) = {kill:.4f} ({how})",
        section,
    )


def explain_attack(
    w: Work,
    words: tuple[str, ...],
    text: str,
    state: GameState | None,
    rules: AttackRules,
) -> Ruling:
    """The ruling of ``attack ATTACKER WEAPON TARGET [with DEFWEAPON]`` (module docstring)
    under the ruleset whose :class:`AttackRules` is ``rules``; ``state`` is the position
    ``w`` was made from.

    Raises:
        QueryError: an unknown or absent operative or weapon, a target not an enemy, a
            retaliating weapon named for a shot (or one the ruleset refuses)."""
    o, t, weapon_words, defweapon = parse_attack(w, words)
    name, kind, card = find_query_weapon(w, o, weapon_words)
    q = AttackQuery(w, state, o, t, name, kind, card, defweapon)
    data: dict[str, Any] = {"attacker": o.id, "weapon": name, "kind": kind, "target": t.id}
    steps = rules.prelude(q, data)
    if kind == "ranged":
        if defweapon:
            raise QueryError(f"'with {defweapon}' names a retaliating weapon: {name} is ranged")
        out = rules.shoot(q, steps, data)
    else:
        out = rules.fight(q, steps, data)
    return Ruling(
        query=text,
        kind="attack",
        answer=out.answer,
        verdict=out.verdict,
        steps=tuple(steps),
        data=data,
        drawing=out.drawing,
    )
