"""What the KT21 Shoot, Overwatch and Fight sequences share (``rules/KT21.md`` 4.4, 10, 11,
12): the weapon rules of a profile, the BS/WS threshold with its modifiers, retaining attack
dice (6 critical, 1 failed, Lethal x+), the weapon re-roll windows (Balanced, Ceaseless,
Relentless), Rending, and the defender's best allocation of saves.

Every function is pure except :func:`hit_threshold` and :func:`weapon_rules21`, which read the
battle (effects, injuries). Distances are in inches.
"""

from __future__ import annotations

from itertools import product

from engine.dice.kt21_rules import Kt21WeaponRules
from engine.game.actions import Action, IllegalActionError
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.teams.model import WeaponProfile

__all__ = [
    "attacks21",
    "best_allocation",
    "damage21",
    "hit_change21",
    "hit_threshold",
    "kt21_reroll_options",
    "reroll_windows",
    "retain_attack_dice",
    "weapon_rules21",
]


def weapon_rules21(w: Work, o: OperativeState, name: str, prof: WeaponProfile) -> Kt21WeaponRules:
    """The KT21 special and critical hit rules of ``o``'s profile ``prof`` (notation name
    ``name``) for an attack now (``rules/KT21.md`` 12): the datacard's SR and ! columns, as
    the ``kt21_weapon_rules`` *would* hooks change them (a team rule that gives or takes a
    rule: Vicious Blows*, Daemonic Energies*)."""
    if "kt21_weapon_rules" not in w.ctx.hooks.would:
        return prof.kt21_rules
    rules: Kt21WeaponRules = w.would("kt21_weapon_rules", prof.kt21_rules, op=o.id, weapon=name)
    return rules


def damage21(
    w: Work, o: OperativeState, name: str, prof: WeaponProfile, kind: str
) -> tuple[int, int]:
    """``(normal, critical)`` Damage of ``o``'s profile ``prof`` (notation name ``name``,
    ``kind`` ``"ranged"`` or ``"melee"``) for an attack now (``rules/KT21.md`` 4.1, 10.1
    step 6, 11 step 4): the datacard's, as the ``would_change_damage`` *would* hooks change
    it (a team rule, e.g. Tainted Rounds)."""
    dmg = (prof.normal_damage, prof.critical_damage)
    if "would_change_damage" not in w.ctx.hooks.would:
        return dmg
    n, c = w.would("would_change_damage", dmg, op=o.id, weapon=name, kind=kind)
    return int(n), int(c)


def attacks21(
    w: Work, o: OperativeState, name: str, prof: WeaponProfile, kind: str, target: str
) -> int:
    """The attack dice of ``o``'s profile ``prof`` (notation name ``name``) against
    ``target`` (``rules/KT21.md`` 10.1 step 1, 11 step 2): the datacard's A, as the
    ``would_change_attacks`` *would* hooks change it (a team rule, e.g. Grisly Trophy);
    never below 0."""
    if "would_change_attacks" not in w.ctx.hooks.would:
        return prof.attacks
    got = w.would(
        "would_change_attacks", prof.attacks, op=o.id, weapon=name, kind=kind, target=target
    )
    return max(0, int(got))


def hit_change21(
    w: Work, o: OperativeState, name: str, kind: str, target: str, *, injured: bool
) -> int:
    """The change the ``would_change_hit`` *would* hooks make to the BS/WS of ``o``'s weapon
    ``name`` against ``target`` (``rules/KT21.md`` 4.2; a team rule, e.g. Foregrip undoing the
    Overwatch's worsening): 0 when none is subscribed."""
    if "would_change_hit" not in w.ctx.hooks.would:
        return 0
    change = w.would(
        "would_change_hit", 0, op=o.id, weapon=name, kind=kind, target=target, injured=injured
    )
    return int(change)


def hit_threshold(
    w: Work,
    o: OperativeState,
    prof: WeaponProfile,
    *,
    injured: bool,
    worsen: int = 0,
    support: int = 0,
) -> int:
    """The BS (shooting) or WS (fighting) ``o`` rolls against with ``prof`` (``rules/KT21.md``
    4.2, 4.4, 3.5, 11 step 3): the datacard value, worsened by 1 when ``injured`` (several
    "treated as injured" effects do not stack, DC 16.31), by ``worsen`` more (Overwatch: 1),
    improved by ``support`` (combat support: 1 per supporting operative), plus the
    operative's effects of kind ``"hit"``; kept within 2+ and 6+ (a 1 always fails and a 6
    always hits, 10.1 step 3: no other floor is known, UNCONFIRMED 18.12). A psychic power's
    weapon (its ``Psychic`` rule) is not equipped and keeps its BS/WS when ``o`` is injured
    (DC 16.33)."""
    if injured and prof.kt21_rules.has("Psychic"):
        injured = False
    change = (1 if injured else 0) + worsen - support + w.stat_change(o.id, "hit")
    return max(2, min(6, prof.hit + change))


def retain_attack_dice(
    values: tuple[int, ...], hit: int, rules: Kt21WeaponRules
) -> tuple[int, int, int]:
    """``(normals, crits, ones)`` retained from the attack dice ``values`` against ``hit``
    (``rules/KT21.md`` 10.1 step 3, 12): a 6 is a critical hit, a 1 always fails, a result
    at least ``hit`` is a hit, critical at or above Lethal x+; Rending (a crit retained: one
    normal hit becomes critical) applied. ``ones``: the dice showing 1 (discarded), for
    Hot."""
    lethal = rules.value("Lethal")
    crit_at = int(lethal) if lethal is not None and lethal >= 2 else 6
    normals = crits = ones = 0
    for v in values:
        if v == 1:
            ones += 1
        elif v >= 6 or (v >= crit_at and v >= hit):
            crits += 1
        elif v >= hit:
            normals += 1
    if rules.has("Rending") and crits and normals:
        normals, crits = normals - 1, crits + 1
    return normals, crits, ones


def reroll_windows(rules: Kt21WeaponRules) -> tuple[str, ...]:
    """The weapon re-roll windows of a profile, in the order they are offered (12):
    Relentless alone (any dice; it includes the others), else Ceaseless (the 1s) then
    Balanced (one die). A die is never re-rolled twice (4.3)."""
    if rules.has("Relentless"):
        return ("relentless",)
    out = []
    if rules.has("Ceaseless"):
        out.append("ceaseless")
    if rules.has("Balanced"):
        out.append("balanced")
    return tuple(out)


def kt21_reroll_options(
    kind: str, values: tuple[int, ...], flags: tuple[bool, ...]
) -> list[Action]:
    """The choices of the weapon re-roll window ``kind`` (:func:`reroll_windows`) over the
    dice ``values`` not yet re-rolled (``flags`` False): ``Keep``, then ``Re-roll v...``.
    Balanced: one die; Ceaseless: any number of the dice showing 1 (KT21 12: "any or all
    results of 1", unlike KT24); Relentless: any dice. Faces are listed highest first."""
    free = sorted((v for v, f in zip(values, flags, strict=True) if not f), reverse=True)
    out = [Action("Keep")]
    if kind == "balanced":
        out += [Action("Re-roll", values=(v,)) for v in sorted(set(free), reverse=True)]
        return out
    if kind == "ceaseless":
        ones = free.count(1)
        out += [Action("Re-roll", values=(1,) * k) for k in range(1, ones + 1)]
        return out
    counts = {v: free.count(v) for v in sorted(set(free), reverse=True)}
    for pick in product(*(range(c + 1) for c in counts.values())):
        chosen: list[int] = []
        for v, k in zip(counts, pick, strict=True):
            chosen += [v] * k
        if chosen:
            out.append(Action("Re-roll", values=tuple(chosen)))
    return out


def check_reroll(kind: str, a: Action, values: tuple[int, ...], flags: tuple[bool, ...]) -> None:
    """Refuse a weapon re-roll ``a`` that is not one of :func:`kt21_reroll_options`.

    Raises:
        IllegalActionError: naming the rule and what may be chosen."""
    legal = kt21_reroll_options(kind, values, flags)
    if a not in legal:
        what = {
            "balanced": "one attack die",
            "ceaseless": "any or all of the dice showing 1",
            "relentless": "any attack dice",
        }[kind]
        raise IllegalActionError(
            f"{a} is not possible: {kind.capitalize()} re-rolls {what} not re-rolled before "
            f"('Keep' or 'Re-roll ...'; rules/KT21.md 12, 4.3)"
        )


def best_allocation(
    normals: int, crits: int, normal_dmg: int, crit_dmg: int, saves: int, crit_saves: int
) -> tuple[int, int]:
    """The attack dice left unblocked ``(normals, crits)`` by the defender's best use of
    ``saves`` normal and ``crit_saves`` critical saves (``rules/KT21.md`` 10.1 step 5: a
    normal save blocks a normal hit, two normal saves block a critical hit, a critical save
    blocks either): every allocation is tried and the least total damage kept (ties: fewer
    critical hits left, then fewer dice left)."""
    best: tuple[int, int, int, int] | None = None
    for k in range(min(crit_saves, crits) + 1):  # critical saves on critical hits
        c_left = crits - k
        n_left = max(0, normals - (crit_saves - k))  # the rest on normal hits
        for j in range(min(saves // 2, c_left) + 1):  # pairs of normal saves on crits
            uc = c_left - j
            un = max(0, n_left - (saves - 2 * j))
            key = (un * normal_dmg + uc * crit_dmg, uc, un + uc, un)
            if best is None or key < best:
                best = key
    assert best is not None
    return best[3], best[1]
