"""What the Legionaries' rules share: Marks of Chaos, tokens, the activation and fight in
progress, APL gains and healing (package docstring)."""

from __future__ import annotations

from engine.game import universal
from engine.game.context import GameContext
from engine.game.work import Work
from engine.rules.ploys import StatChange
from engine.rules.registry import ChoiceSpec, register_choice

TEAM = "legionaries"
KEYWORD = "LEGIONARY"


MARKS = ("KHORNE", "NURGLE", "SLAANESH", "TZEENTCH", "UNDIVIDED")
MARK_CHOICE = "Mark of Chaos"
MARK_EFFECT = "mark_of_chaos"  # effect: detail = the operative's mark now (Infernal Pact)
DEFAULT_MARK = "Undivided"

register_choice(
    TEAM,
    ChoiceSpec(
        MARK_CHOICE,
        tuple(m.title() for m in MARKS),
        per_operative=True,
        default=(DEFAULT_MARK,),
        forbidden=(("Legionary Balefire Acolyte", ("Khorne",)),),
        keyword=True,
        summary="Each Legionary's Mark of Chaos (a Balefire Acolyte cannot be Khorne).",
    ),
)


def chosen_mark(ctx: GameContext, op_id: str) -> str:
    """The Mark of Chaos ``op_id`` has from the start of the battle: a mark keyword on its
    datacard, else its roster's choice (or the choice's default), else ``""`` (package
    docstring)."""
    kw = ctx.datacards[op_id].keywords
    mark = next((m for m in MARKS if m in kw), "")
    if mark:
        return mark
    try:
        chosen = ctx.op_choice(op_id, MARK_CHOICE)
    except KeyError:  # not a Legionaries roster
        return ""
    return chosen[0].upper() if chosen else ""


def mark_of(w: Work, op_id: str) -> str:
    """The Mark of Chaos of ``op_id`` now (package docstring), or ``""``: as Infernal Pact
    changed it, else :func:`chosen_mark`."""
    if w.effects:
        for e in w.effects:
            if e.kind == MARK_EFFECT and e.op == op_id:
                return e.detail
    return str(w.ctx.cached(("legionaries_mark", op_id), lambda: chosen_mark(w.ctx, op_id)))


def legionary(w: Work, op_id: str) -> bool:
    """``op_id`` is a LEGIONARY operative."""
    return KEYWORD in w.ctx.datacards[op_id].keywords


def has_token(w: Work, op_id: str, name: str) -> bool:
    """A ``"token"`` effect named ``name`` applies to ``op_id`` (on it or its kill team)."""
    return any(e.detail == name for e in w.effects_on(op_id, "token"))


def heal(w: Work, op_id: str, wounds: int, by: str, source: str = "Siphon Life") -> None:
    """``op_id`` regains up to ``wounds`` lost wounds (never above its starting wounds)."""
    o = w.op(op_id)
    if not o.alive or wounds <= 0:
        return
    gained = min(wounds, w.ctx.datacards[op_id].wounds - o.wounds)
    if gained > 0:
        w.set_op(op_id, wounds=o.wounds + gained)
        w.emit("wounds_regained", op=op_id, wounds=gained, source=source, by=by)


def _fight_attacker(w: Work) -> str:
    """The operative performing the Fight action in progress, or ``""``."""
    for f in reversed(w.stack):
        if hasattr(f, "attacker") and hasattr(f, "defender"):
            return str(f.attacker)
    return ""


def _activated(w: Work) -> str:
    """The operative whose activation (not counteraction) is in progress, or ``""``."""
    for f in reversed(w.stack):
        if isinstance(f, universal.ActivationFrame):
            return f.op if f.mode == "activation" else ""
    return ""


def gain_apl(w: Work, player: str, op: str, until: str = "end_activation") -> None:
    """+1 APL for ``op`` until ``until`` (its activation in progress), with the AP it adds
    (the package docstring's reading)."""
    # The net change, counting a change begun during the action in progress (pending until
    # it is complete, 2.1), clamped to +/-1 (2.1).
    change = sum(e.value for e in w.effects if e.kind == "apl" and e.op == op)
    StatChange("apl", 1, until).apply(w, player, op, op)
    gained = max(-1, min(1, change + 1)) - max(-1, min(1, change))
    if gained > 0:
        w.set_op(op, ap=w.op(op).ap + gained)


def _is(w: Work, op: str, mark: str) -> bool:
    return legionary(w, op) and mark_of(w, op) == mark


UNLEASHED = "unleash_daemon"  # token: the Anointed used Unleash Daemon (for the battle)
UNLEASHED_DMG = 4


def unleashed(w: Work, op_id: str) -> bool:
    """``op_id`` has used Unleash Daemon."""
    return any(e.kind == "token" and e.op == op_id and e.detail == UNLEASHED for e in w.effects)


BLOOD = "blood_for_the_blood_god"  # the strategy ploy's token (its player's kill team)
MAX_DAMAGE = 7


def khorne_blooded(w: Work, op: str) -> bool:
    """``op`` is a LEGIONARY KHORNE operative while its player's Blood For The Blood God
    lasts: its melee weapons' Dmg stats are 1 higher (7 at most)."""
    return _is(w, op, "KHORNE") and has_token(w, op, BLOOD)


def dmg_stats(w: Work, op: str) -> tuple[int, int] | None:
    """The Normal and Critical Dmg stats of the weapon ``op`` attacks with in the innermost
    Shoot or Fight in progress (a rule about "Dmg of 4 or more" reads these, not the damage
    a die inflicts after rules that add damage to it), or None: its profile (with its Dmg
    stat changes, e.g. Blood For The Blood God's +1 to a KHORNE operative's melee
    weapons)."""
    for f in reversed(w.stack):
        if hasattr(f, "shooter"):
            if f.shooter != op:
                return None
            prof = f.profile(w)
            return prof.normal_damage, prof.critical_damage
        if hasattr(f, "attacker") and hasattr(f, "defender"):
            if op not in (f.attacker, f.defender):
                return None
            prof = f.prof(w, "a" if f.attacker == op else "d")
            return prof.normal_damage, prof.critical_damage
    return None
