"""KT18 weapons and what a model may fire or strike with now (``rules/KT18.md`` 5.2-5.12,
6.2-6.4, 7.6, 7.8).

- the model's KT18 weapons (:func:`kt18_weapons`; every model also has the default close combat
  weapon, S User, AP 0, D 1: 7.8), its characteristics (:func:`kt18_profile`);
- the round's tokens read here (:mod:`engine.rules.kt18.tokens`: ``"advanced"``,
  ``"fell_back"``, ``"charge_attempt"``, ``"retreated"``, ``"was_charged"``, ``"shot"``, who
  charged whom...), shaken, broken and flesh wounds;
- who may shoot at all (:func:`shooter_refusal`, 5.2), which weapon now
  (:func:`weapon_refusal`: Assault after Advancing 5.8, Grenade one model per kill team per
  phase and nothing else for it 5.11, Pistol within 1" and Pistol or the others 5.12), which
  target (:func:`target_refusal`, 5.3, 5.12);
- the hit modifiers (:func:`shooting_hit_modifier`, 6.2-6.4, 5.8, 5.9;
  :func:`melee_hit_modifier`, 7.6) and Rapid Fire's doubling (:func:`rapid_fire_doubles`,
  5.10).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.game.actions import IllegalActionError
from engine.game.state import OperativeState
from engine.game.weapons import weapons_of
from engine.game.work import Work
from engine.rules.kt18 import sight
from engine.rules.kt18.tokens import chargers_of, has
from engine.rules.kt18.wounds import flesh_wounds
from engine.teams.kt18_cards import Kt18Profile, Kt18Weapon

__all__ = [
    "DEFAULT_CCW",
    "DEFAULT_CCW_NAME",
    "MOVED_TOKENS",
    "WITHIN",
    "broken",
    "charge_partner",
    "distance",
    "find_kt18_weapon",
    "grenade_key",
    "grenade_thrower",
    "kt18_profile",
    "kt18_weapons",
    "melee_hit_modifier",
    "melee_targets",
    "note_grenade",
    "rapid_fire_doubles",
    "shaken",
    "shooter_refusal",
    "shooting_hit_modifier",
    "target_refusal",
    "weapon_name",
    "weapon_refusal",
    "within_1_of_enemy",
]

DEFAULT_CCW_NAME = "close combat weapon"
"""The notation name of the default close combat weapon every model has (7.8)."""
DEFAULT_CCW = Kt18Weapon(0.0, "Melee", "", "User", 0, "1")
"""Range Melee, Type Melee, S User, AP 0, D 1 (7.8)."""
WITHIN = 1e-6
"""The tolerance of "within" (distances of at most X, 1.1), in inches."""
MOVED_TOKENS = (
    "moved",
    "advanced",
    "fell_back",
    "charge_attempt",
    "charged",
    "retreated",
    "reinforced",
)
"""The round's tokens that mean the model moved this battle round (Heavy, 5.9; a pivot alone
is a move: FLOW marks it ``"moved"``)."""


def kt18_profile(w: Work, op_id: str) -> Kt18Profile:
    """``op_id``'s KT18 characteristics (1.7).

    Raises:
        IllegalActionError: its datacard is not a KT18 one."""
    p = w.ctx.datacards[op_id].kt18
    if p is None:
        raise IllegalActionError(f"{op_id} has no KT18 characteristics (rules/KT18.md 1.7)")
    return p


def kt18_weapons(w: Work, op_id: str, kind: str) -> list[tuple[str, Kt18Weapon]]:
    """``(notation name, KT18 profile)`` of each ``kind`` (``"ranged"``/``"melee"``) weapon
    profile of ``op_id`` that has KT18 values, in the datacard's order; for ``"melee"`` the
    default close combat weapon comes last unless the datacard names one so (7.8)."""
    out = [(name, p.kt18) for name, _, p in weapons_of(w, op_id, kind) if p.kt18 is not None]
    if kind == "melee" and all(name != DEFAULT_CCW_NAME for name, _ in out):
        out.append((DEFAULT_CCW_NAME, DEFAULT_CCW))
    return out


def weapon_name(w: Work, op_id: str, name: str, kind: str) -> str:
    """The weapon whose profile ``name`` (a notation name, ``"plasma gun (standard)"``) is,
    by the weapon's own name (``"Plasma gun"``); ``name`` itself for a single-profile weapon
    or a name ``op_id`` does not have (5.2, 6.1: a weapon is fired once, with one profile)."""
    for n, weapon, _ in weapons_of(w, op_id, kind):
        if n == name:
            return weapon.name
    return name


def find_kt18_weapon(w: Work, op_id: str, name: str, kind: str) -> Kt18Weapon:
    """The KT18 profile of ``op_id``'s ``kind`` weapon called ``name``.

    Raises:
        IllegalActionError: it has none so called (the message lists its weapons)."""
    weapons = kt18_weapons(w, op_id, kind)
    for n, wp in weapons:
        if n == name:
            return wp
    names = ", ".join(n for n, _ in weapons) or "none"
    raise IllegalActionError(f"{op_id} has no {kind} weapon {name!r} ({kind} weapons: {names})")


def distance(w: Work, a: OperativeState, b: OperativeState) -> float:
    """The distance between the two models' bases, in inches (1.1)."""
    return w.distance(w.place(a), w.place(b))


def within_1_of_enemy(w: Work, o: OperativeState) -> bool:
    """An enemy model is within 1" of ``o`` (3.5, 5.2, 7.4)."""
    return any(distance(w, o, e) <= 1.0 + WITHIN for e in w.enemies_of(o.id))


def shaken(w: Work, op_id: str) -> bool:
    """``op_id`` is shaken (8.5)."""
    return any(e.kind == "kt18_shaken" and e.op == op_id for e in w.effects)


def broken(w: Work, player: str) -> bool:
    """``player``'s kill team is broken (8.2)."""
    return any(e.kind == "kt18_broken" and e.player == player for e in w.effects)


def _fly(w: Work, op_id: str) -> bool:
    return "FLY" in (k.upper() for k in w.ctx.datacards[op_id].keywords)


def _types(w: Work, op_id: str) -> set[str]:
    return {wp.type for _, wp in kt18_weapons(w, op_id, "ranged")}


def shooter_refusal(w: Work, o: OperativeState) -> str | None:
    """Why ``o`` cannot shoot at all this Shooting phase, or ``None`` (5.2, 1.7, 8.5): it shot
    already (5.1), is shaken, has BS "-", made a charge attempt, Advanced without an Assault
    weapon, Fell Back or Retreated without FLY (5.2 reading (b) for Retreat), or is within 1"
    of an enemy without a Pistol it may fire (5.12)."""
    if not o.alive:
        return f"{o.id} is not on the battlefield"
    if has(o, "shot"):
        return f"{o.id} has already shot this phase (rules/KT18.md 5.1)"
    if shaken(w, o.id):
        return f"{o.id} is shaken: it can do nothing (rules/KT18.md 8.5)"
    if kt18_profile(w, o.id).bs == 0:
        return f'{o.id} has BS "-": it cannot make shooting attacks (rules/KT18.md 1.7)'
    if has(o, "charge_attempt"):
        return f"{o.id} attempted a charge this battle round (rules/KT18.md 3.9, 5.2)"
    types = _types(w, o.id)
    if has(o, "advanced") and "Assault" not in types:
        return f"{o.id} Advanced and has no Assault weapon (rules/KT18.md 3.7, 5.8)"
    for token, rule in (("fell_back", "3.6"), ("retreated", "3.12")):
        if has(o, token) and not _fly(w, o.id):
            return f"{o.id} {token.replace('_', ' ')} this battle round (rules/KT18.md {rule}, 5.2)"
    if within_1_of_enemy(w, o):
        if "Pistol" not in types:
            return f'{o.id} is within 1" of an enemy and has no Pistol (rules/KT18.md 5.2, 5.12)'
        if has(o, "was_charged"):
            return f"{o.id} was charged this battle round: no Pistol (rules/KT18.md 5.12)"
    return None


def grenade_key(w: Work) -> str:
    """The players' counter of the model that fired a Grenade weapon this phase (5.11): one
    per battle round and phase (the Movement phase's Overwatch and the Shooting phase apart)."""
    return f"kt18 grenade {w.tp} {w.phase}"


def grenade_thrower(w: Work, player: str) -> str:
    """The model of ``player`` that fired a Grenade weapon this phase, or ``""`` (5.11)."""
    k = w.count(player, grenade_key(w))
    return w.ctx.ids[k - 1] if k > 0 else ""


def note_grenade(w: Work, op_id: str) -> None:
    """``op_id`` fired a Grenade weapon this phase (5.11)."""
    player = w.ctx.owner[op_id]
    if not grenade_thrower(w, player):
        w.count(player, grenade_key(w), add=w.ctx.index[op_id] + 1)


def weapon_refusal(
    w: Work, o: OperativeState, name: str, wp: Kt18Weapon, fired: Sequence[tuple[str, str]]
) -> str | None:
    """Why ``o`` cannot fire its ranged weapon ``name`` (``wp``) now, having fired ``fired``
    (``(name, type)`` pairs) in this shooting, or ``None``: fired already, or another profile
    of the same weapon fired (5.2, 6.1: each weapon once, with one profile), Advanced and
    not Assault (5.8), a Grenade after another weapon or another weapon after a Grenade, a
    Grenade when another model of its kill team fired one this phase (5.11), a Pistol after
    the others or the others after a Pistol, a Pistol when it was charged, only Pistols within
    1" of an enemy (5.12)."""
    if any(n == name for n, _ in fired):
        return f"{o.id} has already fired {name} (rules/KT18.md 5.2)"
    weapon = weapon_name(w, o.id, name, "ranged")
    if any(weapon_name(w, o.id, n, "ranged") == weapon for n, _ in fired):
        return (
            f"{o.id} has already fired {weapon} with another of its profiles: each weapon "
            "fires once (rules/KT18.md 5.2, 6.1)"
        )
    if has(o, "advanced") and wp.type != "Assault":
        return f"{o.id} Advanced: only Assault weapons (rules/KT18.md 5.8)"
    kinds = {t for _, t in fired}
    if "Grenade" in kinds:
        return f"{o.id} fired a Grenade weapon: no other weapon this phase (rules/KT18.md 5.11)"
    if wp.type == "Grenade":
        if fired:
            return f"{o.id} fired another weapon: no Grenade this phase (rules/KT18.md 5.11)"
        thrower = grenade_thrower(w, o.player)
        if (
            thrower
            and thrower != o.id
            and not w.would("kt18_grenade_allowed", False, op=o.id, thrower=thrower)
        ):
            return f"{thrower} fired a Grenade weapon this phase (rules/KT18.md 5.11)"
    if wp.type == "Pistol":
        if has(o, "was_charged"):
            return f"{o.id} was charged this battle round: no Pistol (rules/KT18.md 5.12)"
        if kinds - {"Pistol"}:
            return f"{o.id} fired its other weapons: not its Pistol (rules/KT18.md 5.12)"
    else:
        if "Pistol" in kinds:
            return f"{o.id} fired its Pistol: not its other weapons (rules/KT18.md 5.12)"
        if within_1_of_enemy(w, o):
            return f'{o.id} is within 1" of an enemy: only a Pistol (rules/KT18.md 5.12)'
    return None


def target_refusal(w: Work, o: OperativeState, t: OperativeState, wp: Kt18Weapon) -> str | None:
    """Why ``t`` is not a valid target of ``o``'s ranged weapon ``wp`` now, or ``None`` (5.3,
    5.12): an enemy on the battlefield, within Range, visible, and not within 1" of a model of
    the shooter's kill team; a Pistol fired within 1" of an enemy targets the closest enemy
    (the player picks among equidistant ones) even if friendly models are within 1" of it."""
    if t.player == o.player or not t.alive:
        return f"{t.id} is not an enemy model on the battlefield (rules/KT18.md 5.3)"
    d = distance(w, o, t)
    if d > wp.range + WITHIN:
        return f'{t.id} is {d:.1f}" away, beyond the Range {wp.range:g}" (rules/KT18.md 5.3)'
    if not sight.visible(w, o.id, t.id):
        return f"{t.id} is not visible to {o.id} (rules/KT18.md 5.3)"
    if wp.type == "Pistol" and within_1_of_enemy(w, o):
        closest = min(distance(w, o, e) for e in w.enemies_of(o.id))
        if d > closest + WITHIN:
            return (
                f'{o.id} is within 1" of an enemy: its Pistol targets the closest enemy '
                "(rules/KT18.md 5.12)"
            )
        return None
    for f in w.alive(o.player):
        if distance(w, f, t) <= 1.0 + WITHIN:
            return f'{t.id} is within 1" of {f.id}, a friendly model (rules/KT18.md 5.3)'
    return None


def shooting_hit_modifier(w: Work, o: OperativeState, t: OperativeState, wp: Kt18Weapon) -> int:
    """The summed modifier of ``o``'s hit rolls with ``wp`` at ``t`` (6.2): -1 at long range
    (beyond half the Range; never for a Grenade, 6.4), -1 obscured (6.3), -1 per flesh wound on
    ``o``, -1 when its kill team is broken, -1 with an Assault weapon after Advancing (5.8),
    -1 with a Heavy weapon after moving this battle round (5.9)."""
    mod = 0
    if wp.type != "Grenade" and distance(w, o, t) > wp.range / 2 + WITHIN:
        mod -= 1
    if sight.obscured(w, o.id, t.id):
        mod -= 1
    mod -= flesh_wounds(w, o.id)
    if broken(w, o.player):
        mod -= 1
    if wp.type == "Assault" and has(o, "advanced"):
        mod -= 1
    if wp.type == "Heavy" and any(has(o, k) for k in MOVED_TOKENS):
        mod -= 1
    return int(w.would("kt18_shooting_hit_modifier", mod, op=o.id, target=t.id, weapon=wp))


def melee_hit_modifier(w: Work, o: OperativeState, t: OperativeState) -> int:
    """The summed modifier of ``o``'s close combat hit rolls at ``t`` (7.6): -1 for intervening
    terrain, -1 per flesh wound on ``o``, -1 when its kill team is broken."""
    mod = -flesh_wounds(w, o.id)
    if sight.intervening_terrain(w, o.id, t.id):
        mod -= 1
    if broken(w, o.player):
        mod -= 1
    return mod


def rapid_fire_doubles(
    w: Work, o: OperativeState, wp: Kt18Weapon, targets: Sequence[OperativeState]
) -> bool:
    """A Rapid Fire weapon's attacks are doubled: every target within half its Range (5.10,
    no rounding of the half)."""
    if wp.type != "Rapid Fire":
        return False
    return all(distance(w, o, t) <= wp.range / 2 + WITHIN for t in targets)


def charge_partner(o: OperativeState, t: OperativeState) -> bool:
    """``t`` is an enemy ``o`` may fight after charging (7.5 step 2): one ``o`` charged this
    battle round or one that charged ``o`` (the ``charged_by:<id>`` tokens the charge move
    gives each model it charged, :func:`~engine.rules.kt18.tokens.chargers_of`)."""
    return o.id in chargers_of(t) or t.id in chargers_of(o)


def melee_targets(w: Work, o: OperativeState) -> list[str]:
    """The enemy models ``o`` may target with close combat attacks now (7.5 step 2): within
    1" and visible; after charging this round only those of :func:`charge_partner`."""
    out = []
    for t in w.enemies_of(o.id):
        if distance(w, o, t) > 1.0 + WITHIN or not sight.visible(w, o.id, t.id):
            continue
        if has(o, "charged") and not charge_partner(o, t):
            continue
        out.append(t.id)
    return out
