"""``can OPERATIVE ACTION...`` under KT21: can the operative perform the action now, and if
not, every rule that forbids it (``rules/KT21.md`` 3, 5, 6.1, 8.5, 11, 12).

The verdict is the game's own (the action applied to a copy of the state); the reasons are
the shared bookkeeping's conditions (:func:`engine.explain.can.explain_can`) and, for a
KT21 Shoot, Overwatch or Fight with its weapon and target, every check of the KT21
declaration that fails: the profile's refusal
(:func:`engine.rules.kt21.shoot.shoot_refusal`: order and Silent, Engagement Range, Limited,
Heavy, Unwieldy, Overwatch's Blast and Unwieldy) and the target's
(:func:`engine.rules.kt21.attack_sight.target_reason`: Visible, Obscured, Conceal in Cover, a
friendly within its Engagement Range, Rng), or the Fight's Engagement Range
(:func:`engine.rules.kt21.attack_sight.engagement_range`).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.explain.can import Reasons, explain_can
from engine.explain.ruling import Ruling
from engine.game.actions import Action, AmbiguousActionError, IllegalActionError
from engine.game.bookkeeping import enemy_operative
from engine.game.state import GameState, OperativeState
from engine.game.weapons import find_weapon
from engine.game.work import Work
from engine.rules.kt21.attack_dice import weapon_rules21
from engine.rules.kt21.attack_sight import engagement_range, target_reason
from engine.rules.kt21.shoot import shoot_refusal
from engine.teams.model import WeaponProfile

__all__ = ["KT21_SECTIONS", "explain_can21", "fight_reasons21", "shoot_reasons21"]

KT21_SECTIONS = {
    "over": "rules/KT21.md 1.1",
    "acting": "rules/KT21.md 3.1",
    "legal": "rules/KT21.md 6.1",
}
"""The sections of the steps :func:`engine.explain.can.explain_can` names itself."""


def _found(
    w: Work, o: OperativeState, a: Action, kind: str
) -> tuple[str, WeaponProfile, OperativeState | None] | None:
    """``(weapon name, profile, target or None)``, or ``None`` when the weapon is not
    there (the game's own refusal then names it)."""
    try:
        name, _, prof = find_weapon(w, o, a.weapon, kind)
    except (IllegalActionError, AmbiguousActionError):
        return None
    try:
        t: OperativeState | None = enemy_operative(w, a.target, o.player)
    except IllegalActionError:
        t = None
    return name, prof, t


def shoot_reasons21(w: Work, o: OperativeState, a: Action, mode: str) -> list[tuple[str, str, str]]:
    """Every check of a KT21 Shoot or Overwatch declaration that refuses ``a`` (module
    docstring), the profile's first then the target's.

    Returns:
        ``(reason, source, hook)`` per failed check."""
    got = _found(w, o, a, "ranged")
    if got is None:
        return []
    name, prof, t = got
    rules = weapon_rules21(w, o, name, prof)
    out: list[tuple[str, str, str]] = []
    why = shoot_refusal(
        w,
        o,
        name,
        prof,
        rules,
        overwatch=a.verb == "Overwatch",
        mode=mode,
    )
    if why:
        out.append((why, "weapon rule" if " 12" in why else "core", ""))
    if t is not None:
        rng = rules.value("Rng")
        why = target_reason(w, o, t, rng, indirect=rules.has("Indirect"))
        if why:
            out.append((why, "weapon rule" if "Rng" in why else "core", ""))
    return out


def fight_reasons21(w: Work, o: OperativeState, a: Action, mode: str) -> list[tuple[str, str, str]]:
    """Every check of a KT21 Fight declaration that refuses ``a``: the target within the
    fighter's Engagement Range (``rules/KT21.md`` 11, 7.2).

    Returns:
        ``(reason, source, hook)`` per failed check."""
    del mode
    got = _found(w, o, a, "melee")
    if got is None or got[2] is None:
        return []
    t = got[2]
    if engagement_range(w, o, t):
        return []
    why = f"{t.id} is not within {o.id}'s Engagement Range: Fight needs one (rules/KT21.md 11)"
    return [(why, "core", "")]


_ATTACKS: Mapping[str, Reasons] = {
    "Shoot": shoot_reasons21,
    "Overwatch": shoot_reasons21,
    "Fight": fight_reasons21,
}


def explain_can21(state: GameState, w: Work, words: tuple[str, ...], text: str) -> Ruling:
    """The ruling of ``can OPERATIVE ACTION...`` in a KT21 battle (module docstring).

    Raises:
        QueryError: an unknown or absent operative, an action that cannot be read."""
    return explain_can(state, w, words, text, attack_reasons=_ATTACKS, sections=KT21_SECTIONS)
