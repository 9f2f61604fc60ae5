"""Helpers shared by the Kasrkin's rule modules (``teams/kasrkin/``)."""

from __future__ import annotations

from engine.advice.rerolls import shoot_reroll_gain
from engine.dice.rules import Saturate
from engine.game import universal
from engine.game.state import other
from engine.game.work import Work
from engine.rules.medic import Medic
from engine.rules.ploys import player_token as player_token
from engine.rules.ploys import ploy_installer as ploy_installer
from engine.rules.ploys import shoot_frame as shoot_frame

KASRKIN = "KASRKIN"


def is_kasrkin(w: Work, op: str) -> bool:
    """``op`` has the KASRKIN keyword."""
    return bool(op) and KASRKIN in w.ctx.datacards[op].keywords


_ASKING: list[int] = []
"""The ids of the Work values whose :func:`no_cover_saves` is being worked out (a rule
module asked it from inside the weapon-rules hooks: it is not asked again meanwhile)."""


def no_cover_saves(w: Work) -> bool:
    """The target of the Shoot in progress cannot retain any cover saves (it is not in cover,
    or the weapon has Saturate) or is being scanned (Auspex Scan). Saturate as the weapon
    has it for this shot, however it got it (its printed rules, a Long-Range Scope, any
    other rule; a rule taking it away, Camo Cloak, too: ``universal.weapon_rules``, 6).

    Asked from inside the ``would_use_weapon_rules`` hooks (Elimination Pattern), it works
    the weapon's rules out once more; a hook asking again meanwhile (:func:`asking_cover`)
    leaves the rules unchanged, so no rule it gives counts towards Saturate (none does)."""
    f = shoot_frame(w)
    if f is None or f.idx >= len(f.targets):
        return False
    target = f.targets[f.idx]
    if not f.cover or scanned(w, target):
        return True
    o = w.op(f.shooter)
    name, _weapon, prof = universal.find_weapon(w, o, f.weapon, "ranged")
    _ASKING.append(id(w))
    try:
        rules = universal.weapon_rules(w, o.id, name, prof, "ranged", target)
    finally:
        _ASKING.pop()
    return bool(rules.has(Saturate))


def asking_cover(w: Work) -> bool:
    """:func:`no_cover_saves` is being worked out for ``w`` (a hook it asks must not ask it
    again)."""
    return id(w) in _ASKING


MEDIC = Medic("kasrkin", "COMBAT MEDIC", is_kasrkin, event="medic_used")
"""Medic! (Combat Medic): :mod:`teams.kasrkin.faction`."""
MEDIC_SAVED = MEDIC.saved_prefix
"""The token detail prefix of an operative Medic! was used on this turning point."""
medic_saved = MEDIC.saved
"""Medic! was used on an operative this turning point."""


# -- Auspex Scan (Recon-Trooper unique action) --------------------------------------------------

RECON_TROOPER = "RECON-TROOPER"
SCAN_RANGE = 8.0
SCANNING = "auspex_scan"


def scanning_operatives(w: Work, player: str) -> list[str]:
    """``player``'s operatives whose Auspex Scan is in effect."""
    return [
        e.op
        for e in w.effects
        if e.kind == "token" and e.detail == SCANNING and e.op and not e.pending
        if w.ctx.owner.get(e.op) == player and w.op(e.op).alive
    ]


def scanned(w: Work, target: str) -> bool:
    """``target`` is being scanned: within 8" of an enemy operative whose Auspex Scan is in
    effect."""
    if not w.effects or not target:
        return False
    scanners = scanning_operatives(w, other(w.ctx.owner[target]))
    if not scanners:
        return False
    me = w.place(w.op(target))
    return any(w.distance(me, w.place(w.op(s))) <= SCAN_RANGE for s in scanners)


def reroll_gain(w: Work, faces: tuple[int, ...], attacking: bool) -> float:
    """The dice core's gain of re-rolling dice showing ``faces`` in the Shoot in progress
    (each die valued alone, as one Command Re-roll, and summed)."""
    f = shoot_frame(w)
    if f is None or f is not w.top:
        return 0.0
    return float(sum(shoot_reroll_gain(w, f, attacking, face) for face in faces))
