"""Helpers the queries share: finding the operatives, weapons and markers a query names (with
errors naming the bad word), and person-readable numbers."""

from __future__ import annotations

from typing import Any

from engine.explain.ruling import QueryError
from engine.game.actions import AmbiguousActionError, IllegalActionError
from engine.game.state import OperativeState
from engine.game.weapons import find_weapon
from engine.game.work import Work

__all__ = ["find_op", "find_query_weapon", "find_shot", "inches", "op_box"]


def find_op(w: Work, word: str, what: str = "operative") -> OperativeState:
    """The operative whose id is ``word`` (any case), on the killzone.

    Raises:
        QueryError: no such operative, or it is not on the killzone (names the word)."""
    key = word.upper()
    if key not in w.ctx.index:
        known = ", ".join(sorted(w.ctx.index)) or "none"
        raise QueryError(f"unknown {what} {word!r} (operatives: {known})")
    o = w.op(key)
    if not o.alive:
        raise QueryError(f"{what} {key} is not on the killzone (incapacitated or not set up)")
    return o


def find_query_weapon(
    w: Work, o: OperativeState, name: str, kinds: tuple[str, ...] = ("ranged", "melee")
) -> tuple[str, str, Any]:
    """``(name, kind, profile)`` of ``o``'s weapon ``name`` (exact or a unique prefix, case
    as notation: lower), looked up among ``kinds`` in order (the game's
    :func:`~engine.game.weapons.find_weapon`).

    Raises:
        QueryError: no such weapon, or several match (names the word and the weapons)."""
    text = " ".join(name.lower().split())
    errors = []
    for kind in kinds:
        try:
            found, _, prof = find_weapon(w, o, text, kind)
        except AmbiguousActionError as exc:
            raise QueryError(f"weapon {name!r}: {exc}") from None
        except IllegalActionError as exc:
            errors.append(str(exc))
            continue
        return found, kind, prof
    raise QueryError(f"weapon {name!r}: " + "; ".join(errors))


def find_shot(
    w: Work, words: tuple[str, ...]
) -> tuple[OperativeState, OperativeState, str | None, Any]:
    """``(shooter, target, weapon name or None, its profile or None)`` of the words after
    ``target``: ``SHOOTER TARGET [WEAPON]`` (WEAPON a ranged weapon of the shooter, its
    name's words or a unique prefix), the same reading under every ruleset.

    Raises:
        QueryError: an unknown or absent operative, a target that is not an enemy of the
            shooter, an unknown or ambiguous weapon (names the bad word)."""
    o = find_op(w, words[0], "shooter")
    t = find_op(w, words[1], "target")
    if w.ctx.owner[o.id] == w.ctx.owner[t.id]:
        raise QueryError(f"target {t.id} is not an enemy of {o.id}")
    if len(words) <= 2:
        return o, t, None, None
    weapon, _, prof = find_query_weapon(w, o, " ".join(words[2:]), ("ranged",))
    return o, t, weapon, prof


def inches(value: float) -> str:
    """A distance in inches for people (``2.35"``)."""
    return f'{value:.2f}"'


def op_box(w: Work, o: OperativeState) -> tuple[str, float, float, float]:
    """``(id, x, y, radius)`` of ``o`` for a drawing."""
    p = w.place(o)
    return (o.id, p.x, p.y, p.radius)
