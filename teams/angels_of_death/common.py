"""Helpers shared by the Angels of Death rules: the Shoot in progress, defence dice, tokens,
abilities, bolt weapons, the combat doctrine in force (Combat Doctrine, read by the ploys,
the abilities and the advice)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.ploys import PloyWindowFrame
from engine.game.state import Effect
from engine.game.work import Work

TEAM = "angels_of_death"
KEYWORD = "ANGEL OF DEATH"
"""The team keyword its rules name (``"friendly ANGEL OF DEATH operative"``); a rule built
for another team's keyword (``register(..., for_keyword=...)``) checks that one instead."""


def has_keyword(w: Work, op: str, keyword: str) -> bool:
    """``op``'s datacard has ``keyword`` (upper case)."""
    return bool(op) and keyword in w.ctx.datacards[op].keywords


def shoot_frame(w: Work) -> Any:
    """The Shoot sequence whose dice window is open (the innermost frame with dice)."""
    for f in reversed(w.stack):
        if hasattr(f, "dice") and hasattr(f, "targets") and hasattr(f, "shooter"):
            return f
    return None


def save_of(w: Work, target: str) -> int:
    """The target's Save now (its datacard's, with stat changes, 2.1)."""
    return int(w.ctx.datacards[target].save + w.stat_change(target, "save"))


def normal_saves(w: Work, info: Mapping[str, Any]) -> list[int]:
    """The indexes of the defence dice that are normal successes (not critical, not 1, at
    least the Save)."""
    target = str(info.get("target", ""))
    if not target:
        return []
    save = max(2, save_of(w, target))
    crit = crit_save_at(w, target)
    dice = info.get("dice", ())
    return [i for i, v in enumerate(dice) if v < crit and v != 1 and v >= save]


def crit_save_at(w: Work, target: str) -> int:
    """The lowest defence die that is a critical save for ``target`` being shot (6, lower
    with the core's ``would_crit_save`` hooks)."""
    if not w.ctx.hooks.would.get("would_crit_save"):
        return 6
    frame = shoot_frame(w)
    shooter = getattr(frame, "shooter", "") if frame is not None else ""
    return int(w.would("would_crit_save", 6, op=shooter, target=target))


def shot_friend(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """A Shoot's defence dice window, the target one of ``player``'s operatives."""
    target = str(info.get("target", ""))
    return (
        info.get("kind") == "ranged"
        and bool(target)
        and w.ctx.owner.get(target) == player
        and shoot_frame(w) is not None
    )


def set_die(w: Work, index: int, value: int) -> None:
    """Set the defence die ``index`` of the Shoot in progress to ``value`` (its re-roll
    flag kept)."""
    frame = shoot_frame(w)
    dice = list(frame.dice)
    dice[index] = value
    pos = max(i for i, f in enumerate(w.stack) if f is frame)
    w.stack[pos] = attrs.evolve(frame, dice=tuple(dice))


def fails(w: Work, info: Mapping[str, Any]) -> list[int]:
    """The indexes of the defence dice that are fails (1, or below the Save; not 6)."""
    target = str(info.get("target", ""))
    save = max(2, save_of(w, target))
    return [i for i, v in enumerate(info.get("dice", ())) if v != 6 and (v == 1 or v < save)]


def has_token(w: Work, op: str, name: str) -> bool:
    return any(e.detail == name for e in w.effects_on(op, "token"))


def tokens(w: Work, op: str, name: str) -> list[Effect]:
    """The token effects ``name`` on ``op``, pending ones included (begun in this action)."""
    return [e for e in w.effects if e.kind == "token" and e.op == op and e.detail == name]


def has_ability(w: Work, op: str, name: str) -> bool:
    """The operative ``op``'s datacard has the ability ``name``."""
    return any(a.name == name for a in w.ctx.datacards[op].abilities)


def is_bolt(weapon: str) -> bool:
    """A bolt weapon (its name says bolt: bolt rifle, heavy bolter, bolt sniper rifle...)."""
    return "bolt" in weapon.lower()


SPECIFIED_BY = {
    "Adjust Doctrine": "active",
    "Shock Assault": "fighter",
    "Transhuman Physiology": "shot",
    "Wrath Of Vengeance": "counteracting",
}
"""What each of the team's firefight ploys specifies, by its text: Adjust Doctrine the
friendly operative whose activation it is used in; Shock Assault the friendly operative
performing the Fight action; Transhuman Physiology the friendly operative being shot;
Wrath Of Vengeance the friendly operative counteracting."""


def specified(w: Work, player: str, ploy: str) -> str:
    """The friendly operative the firefight ploy ``ploy`` specifies if ``player`` used it
    now (:data:`SPECIFIED_BY`), or ``""`` (a ploy that specifies none, or not now): the
    active operative of the innermost activation (Adjust Doctrine), the attacker of the
    innermost Fight (Shock Assault), the target being shot in the innermost Shoot
    (Transhuman Physiology), the operative of the innermost counteraction (Wrath Of
    Vengeance: its counteract_start window, or the counteraction itself)."""
    what = SPECIFIED_BY.get(ploy, "")
    op = ""
    for f in reversed(w.stack):
        if what == "active" and getattr(f, "mode", "") == "activation" and hasattr(f, "op"):
            op = str(f.op)
        elif what == "fighter" and hasattr(f, "aweapon"):
            op = str(f.attacker)
        elif what == "shot" and hasattr(f, "shooter") and hasattr(f, "targets"):
            op = str(f.targets[f.idx]) if f.idx < len(f.targets) else ""
        elif what == "counteracting" and isinstance(f, PloyWindowFrame):
            if f.trigger != "counteract_start":
                continue
            op = str(dict(f.info).get("op", ""))
        elif what == "counteracting" and getattr(f, "mode", "") == "counteract":
            op = str(getattr(f, "op", ""))
        else:
            continue
        break
    return op if op and w.ctx.owner.get(op) == player else ""


DOCTRINES = ("devastator", "tactical", "assault")
"""The combat doctrines of Combat Doctrine, in printed order."""

_DOCTRINE_TOKEN = "combat_doctrine:"


def current_doctrine(w: Work, player: str) -> str:
    """The combat doctrine ``player`` selected this turning point, or ``""``."""
    for e in w.effects:
        if e.kind == "token" and e.player == player and e.detail.startswith(_DOCTRINE_TOKEN):
            return e.detail.removeprefix(_DOCTRINE_TOKEN)
    return ""


def set_doctrine(w: Work, player: str, doctrine: str, source: str) -> None:
    """Select ``doctrine`` for ``player`` until the end of the turning point (replacing any)."""
    w.effects[:] = [
        e
        for e in w.effects
        if not (e.kind == "token" and e.player == player and e.detail.startswith(_DOCTRINE_TOKEN))
    ]
    w.add_effect(
        Effect(
            "token", "", "end_tp", source=source, detail=_DOCTRINE_TOKEN + doctrine, player=player
        )
    )
