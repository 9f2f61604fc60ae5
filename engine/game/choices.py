"""The players' own choices in an attack, as pure functions of the dice and the targeting
verdict (``rules/KT24.md`` 4.5, 4.7, 5.1 steps 3-4, 6): which options exist and which of them
differ in effect. The Shoot and Fight frames (:mod:`engine.game.shoot`, :mod:`engine.game.fight`;
the :mod:`engine.game.attacks` docstring tables the decisions) offer them; the agents value
them.
"""

from __future__ import annotations

from engine.dice.profile import AttackProfile
from engine.dice.shoot import defence_roll, unblocked
from engine.geometry import sight

__all__ = [
    "apply_retention_rule",
    "cover_save_options",
    "retention_rule_applies",
    "retention_rules",
    "roll_retained",
    "same_feature_options",
]


# -------------------------------------------------------------------------------------------
# Retention rules: Punishing, Rending, Severe (6)
# -------------------------------------------------------------------------------------------


def roll_retained(
    values: tuple[int, ...], accurate: int, profile: AttackProfile, obscured: bool
) -> tuple[int, int, int]:
    """``(normals, crits, fails)`` from rolled attack dice plus ``accurate`` dice retained
    unrolled, before Punishing, Rending and Severe (5.1 step 3, 6). Obscured (4.5,
    EDGE_CASES 3): every crit is retained as a normal and one success is discarded (all are
    normal by then, so the attacker's choice of which does not matter)."""
    d = profile.rules.dice
    crit_at = max(profile.hit, d.lethal) if d.lethal is not None else 6
    normals = accurate
    crits = 0
    fails = 0
    for v in values:
        if v == 6 or (v != 1 and v >= crit_at):
            crits += 1
        elif v != 1 and v >= profile.hit:
            normals += 1
        else:
            fails += 1
    if obscured:
        normals += crits
        crits = 0
        if normals:
            normals -= 1
    return normals, crits, fails


def retention_rules(profile: AttackProfile, obscured: bool, crits: int) -> tuple[str, ...]:
    """The retention rules of ``profile`` that may apply to this roll, in the order they are
    offered (6): with a retained crit Punishing then Rending; with none, Severe (Punishing
    and Rending do not trigger from Severe's crit); nothing against an obscured target (4.5).

    Offering Punishing before Rending loses nothing: applying both in either order gives
    the same dice, and Punishing's new normal can then be upgraded by Rending."""
    if obscured:
        return ()
    d = profile.rules.dice
    if crits:
        return tuple(r for r, on in (("Punishing", d.punishing), ("Rending", d.rending)) if on)
    return ("Severe",) if d.severe else ()


def retention_rule_applies(rule: str, normals: int, crits: int, fails: int) -> bool:
    """Whether ``rule`` (a name from :func:`retention_rules`) changes these dice now:
    Punishing needs a fail, Rending and Severe a normal success (6)."""
    return fails > 0 if rule == "Punishing" else normals > 0


def apply_retention_rule(rule: str, normals: int, crits: int, fails: int) -> tuple[int, int, int]:
    """The dice after applying ``rule`` (6): Punishing retains a fail as a normal success;
    Rending and Severe change a normal success to a crit."""
    if rule == "Punishing":
        return normals + 1, crits, fails - 1
    return normals - 1, crits + 1, fails


# -------------------------------------------------------------------------------------------
# Cover or obscured (4.5 "Same feature"), the cover save (4.5, 4.7)
# -------------------------------------------------------------------------------------------


def same_feature_options(tg: sight.Targeting, cover_matters: bool) -> list[tuple[str, bool, bool]]:
    """The defender's options for terrain features that would both give cover and obscure
    (4.5 "Same feature"), as ``(name, in cover, obscured)``: ``"obscured"`` (each such
    feature obscures), ``"cover"`` (each gives cover) and, with two or more such features,
    ``"both"`` (some of each). Options with the same effect as one listed before them are
    left out; ``cover_matters`` False (Saturate, or no defence dice) means cover changes
    nothing in the attack.

    Args:
        tg: the targeting verdict (its ``cover_features`` and ``obscuring_features``).
        cover_matters: whether a cover save could be retained in this attack.

    Returns:
        One option (no choice) when no feature is in both sets or the options do not differ.
    """
    shared = tg.cover_features & tg.obscuring_features
    if not shared:
        return [("", tg.in_cover, tg.obscured)]
    cover_only = bool(tg.cover_features - shared)
    obscured_only = bool(tg.obscuring_features - shared)
    cands = [("obscured", cover_only, True), ("cover", True, obscured_only)]
    if len(shared) >= 2:
        cands.append(("both", True, True))
    out: list[tuple[str, bool, bool]] = []
    seen: list[tuple[bool, bool]] = []
    for name, cover, obscured in cands:
        effect = (cover and cover_matters, obscured)
        if effect not in seen:
            seen.append(effect)
            out.append((name, cover, obscured))
    return out


def _cover_effect(
    profile: AttackProfile,
    normals: int,
    crits: int,
    save: int,
    wounds: int,
    dice: int,
    cover: tuple[int, int],
) -> tuple[tuple[int, int], ...]:
    """The distribution of damage (counted up to ``wounds``) of the retained attack dice
    when the defender rolls ``dice`` defence dice less its ``cover`` saves (weights over
    216, 5.1 steps 4-6)."""
    cn, cc = cover
    nd, cd = profile.normal_damage, profile.critical_damage
    brutal = profile.rules.dice.brutal
    acc: dict[int, int] = {}
    for sn, sc, wgt in defence_roll(dice - cn - cc, save):
        un, uc = unblocked(normals, crits, sn + cn, sc + cc, nd, cd, brutal)
        dmg = min(un * nd + uc * cd, wounds)
        acc[dmg] = acc.get(dmg, 0) + wgt
    return tuple(sorted(acc.items()))


def cover_save_options(
    profile: AttackProfile,
    normals: int,
    crits: int,
    save: int,
    wounds: int,
    in_cover: bool,
    improved: bool,
    both: bool = False,
) -> list[tuple[str, int, int]]:
    """The defender's cover-save options against retained attack dice (4.5, 4.7, 5.1 step
    4), as ``(name, normal cover saves, critical cover saves)``.

    A target in cover *can* retain a cover save (none against Saturate or with no defence
    dice): ``"normal"`` or ``"none"``; an improved cover save (4.7) is retained as
    ``"critical"`` or as ``"two normals"`` (limited to the defence dice), or ``"none"``.
    An option is listed only if the damage it leads to (its exact distribution, counted up to
    the target's wounds) differs from that of every option listed before it, in that order:
    so with no attack success, or a sure kill either way, there is one option and no
    choice. Retaining is usually better but not always: a normal cover save can never block a
    lone crit, nor anything against Brutal, where a rolled 6 could.

    Args:
        profile: the attack profile; normals, crits: the attacker's retained successes.
        save: the target's Save; wounds: its wounds left.
        in_cover, improved: the target's cover for this sequence.
        both: an improved cover save may also be retained as one normal and one critical
            cover save (``"normal and critical"``, with two defence dice or more; a team
            rule that gives both options of improved cover).
    """
    d = profile.rules.dice
    dice = max(0, 3 - max(d.piercing, d.piercing_crits if crits else 0))
    if not in_cover or d.saturate or dice == 0:
        return [("none", 0, 0)]
    if improved:
        cands = [("critical", 0, 1), ("two normals", min(2, dice), 0), ("none", 0, 0)]
        if both and dice >= 2:
            cands.insert(0, ("normal and critical", 1, 1))
    else:
        cands = [("normal", 1, 0), ("none", 0, 0)]
    out: list[tuple[str, int, int]] = []
    seen: list[tuple[tuple[int, int], ...]] = []
    for name, cn, cc in cands:
        effect = _cover_effect(profile, normals, crits, save, wounds, dice, (cn, cc))
        if effect not in seen:
            seen.append(effect)
            out.append((name, cn, cc))
    return out
