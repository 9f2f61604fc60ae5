"""KT21 Line of Sight and valid targets (``rules/KT21.md`` 8.1-8.6; decision 4): the questions
the KT21 Shoot and Overwatch ask, on the geometry of :mod:`engine.geometry.kt21_sight`.

- **Line of Sight** (8.5): an Engage target is in the shooter's Line of Sight when it is
  Visible and not Obscured; a Conceal target when it is also not in Cover (8.6: a shooter on a
  Vantage Point sees a Conceal target at least 2" lower, in Cover only from Light terrain or
  operatives, as Engage).
- **Cover from operatives** (8.4): every operative but the shooter and the target may give
  Cover, unless it is not in the shooter's Line of Sight; the engine reads that as: it is
  Visible to the shooter and not Obscured from it (its own cover is not asked, which would go
  round in circles).
- **Valid target** (8.5): an enemy operative in the shooter's Line of Sight with no operative
  friendly to the shooter within its Engagement Range, within the weapon's Rng if it has one.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.kt21_rules import Kt21WeaponRules
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry import kt21_sight as geo
from engine.geometry.distances import distance

__all__ = [
    "SIGHT_MEMO_ENTRIES",
    "Kt21Sight",
    "cover_givers",
    "kt21_line_of_sight",
    "kt21_valid_targets",
    "sight_memo",
]

_EPS = 1e-6


@attrs.frozen(slots=True)
class Kt21Sight:
    """The shooter's Line of Sight to one target (8.1-8.6).

    Attributes:
        shooter, target: operative ids.
        valid: the target is in the shooter's Line of Sight (8.5); for
            :func:`kt21_valid_targets` also a valid target (no friendly in its Engagement
            Range, within Rng).
        visible: the target is Visible to the shooter (8.1).
        obscured: Obscured from the chosen origin (8.3).
        in_cover: in Cover from the chosen origin (8.4): the cover save (10.2) applies.
        engage: the order the target counts as having for this attack (``"engage"`` or
            ``"conceal"``; 8.6 may turn Conceal into Engage).
        origin: the origin point of the cover lines used (decision 4), ``(x, y, z)`` inches.
        cover_parts: the terrain parts giving Cover from that origin.
        cover_operatives: the operatives giving Cover from that origin.
        reason: why the target is not valid (``""`` when it is), citing the rule.
    """

    shooter: str
    target: str
    valid: bool
    visible: bool
    obscured: bool
    in_cover: bool
    engage: str
    origin: tuple[float, float, float]
    cover_parts: tuple[int, ...] = ()
    cover_operatives: tuple[str, ...] = ()
    reason: str = ""


def cover_givers(w: Work, shooter: OperativeState, target: OperativeState) -> list[OperativeState]:
    """The operatives that may give ``target`` Cover from ``shooter`` (8.4): every living
    operative but those two, lying across the cover lines, that is Visible to the shooter
    and not Obscured from it (from any origin: the module docstring's reading of "in its
    Line of Sight")."""
    kz = w.kz
    sp, tp = w.place(shooter), w.place(target)
    out = []
    for o in w.alive():
        if o.id in (shooter.id, target.id) or not geo.may_give_cover(sp, tp, w.place(o)):
            continue
        verdict = geo.evaluate(kz, sp, w.place(o))
        if verdict.visible and any(not v.obscured for v in verdict.origins):
            out.append(o)
    return out


def kt21_line_of_sight(w: Work, shooter_id: str, target_id: str) -> Kt21Sight:
    """Whether ``target_id`` is in ``shooter_id``'s Line of Sight (8.5), with the origin of
    the cover lines the shooter uses (decision 4: the first origin giving Line of Sight,
    preferring one without Cover; it is the one the cover save uses).

    Args:
        w: the battle's working state.
        shooter_id, target_id: operative ids (any two operatives; the target's order is its
            current one).

    Raises:
        KeyError: an unknown operative id.
    """
    s, t = w.op(shooter_id), w.op(target_id)
    memo, key = sight_memo(w, "line of sight", s, t, t.order)
    got = memo.get(key)
    if got is None:
        if len(memo) >= SIGHT_MEMO_ENTRIES:
            memo.clear()
        got = memo[key] = _line_of_sight(w, s, t)
    assert isinstance(got, Kt21Sight)
    return got


SIGHT_MEMO_ENTRIES = 20_000
"""The most answers :func:`sight_memo`'s tables keep (emptied when full)."""


def sight_memo(
    w: Work, kind: str, s: OperativeState, t: OperativeState, *extra: object
) -> tuple[dict[tuple[object, ...], object], tuple[object, ...]]:
    """A table of sight answers of ``kind`` kept on the killzone ``w.kz`` (its hatchway
    state and equipment terrain), and the key of ``s``'s view of ``t`` in it: everything a
    KT21 sight answer reads (the two operatives' ids and placements; the id and placement of
    every other living operative that may lie across the cover lines
    (:func:`engine.geometry.kt21_sight.may_give_cover`: the only ones :func:`cover_givers`
    looks at, 8.4), in the order of ``w.alive()``; and ``extra``), so an answer is reused
    by any later state where none of those changed (an operative moving far from the two
    does not change it)."""
    tables: dict[str, dict[tuple[object, ...], object]] = w.kz._cache.setdefault(
        "kt21 sight answers", {}
    )
    memo = tables.setdefault(kind, {})
    sp, tp = w.place(s), w.place(t)
    others = []
    for o in w.alive():
        if o.id in (s.id, t.id):
            continue
        op = w.place(o)
        if geo.may_give_cover(sp, tp, op):
            others.append((o.id, op))
    return memo, (s.id, t.id, sp, tp, tuple(others), *extra)


def _line_of_sight(w: Work, s: OperativeState, t: OperativeState) -> Kt21Sight:
    """:func:`kt21_line_of_sight` worked out."""
    shooter_id, target_id = s.id, t.id
    sp, tp = w.place(s), w.place(t)
    givers = cover_givers(w, s, t)
    places: list[Placement] = [w.place(o) for o in givers]
    verdict = geo.evaluate(w.kz, sp, tp, places)
    conceal = t.order != "engage"
    best = geo.best_origin(verdict, conceal)
    engage = "engage"
    if conceal and not (best.in_cover and geo.vantage_engage(verdict, best)):
        engage = "conceal"
    reason = ""
    if shooter_id == target_id:
        reason = f"{target_id} cannot target itself"
    elif not verdict.visible:
        reason = f"{target_id} is not Visible to {shooter_id} (rules/KT21.md 8.1)"
    elif best.obscured:
        reason = f"{target_id} is Obscured from {shooter_id} (rules/KT21.md 8.3)"
    elif engage == "conceal" and best.in_cover:
        reason = f"{target_id} has a Conceal order and is in Cover (rules/KT21.md 8.5)"
    return Kt21Sight(
        shooter_id,
        target_id,
        not reason,
        verdict.visible,
        best.obscured,
        best.in_cover,
        engage,
        best.origin,
        best.cover_parts,
        tuple(givers[k].id for k in best.cover_operatives),
        reason,
    )


def _range_of(weapon: Any) -> float | None:
    """The Rng of ``weapon`` in inches (a profile with ``kt21_rules``, a
    :class:`Kt21WeaponRules`, or ``None``), or ``None`` for no Rng."""
    rules = getattr(weapon, "kt21_rules", weapon)
    if isinstance(rules, Kt21WeaponRules) and rules.has("Rng"):
        value = rules.value("Rng")
        return None if value is None else float(value)
    return None


def kt21_valid_targets(
    w: Work, shooter_id: str, weapon: Any = None, *, rng: float | None = None
) -> tuple[Kt21Sight, ...]:
    """The valid targets of ``shooter_id``'s shooting attack (8.5): every living enemy
    operative in its Line of Sight (:func:`kt21_line_of_sight`) with no operative friendly
    to the shooter within its Engagement Range (7.2), and within Rng when the weapon has one
    (distance between the bases, inches). Each is a :class:`Kt21Sight` with ``valid``
    true, in the order of ``w.enemies_of``.

    Args:
        w: the battle's working state.
        shooter_id: the shooter.
        weapon: a KT21 :class:`~engine.teams.datacards.WeaponProfile` (its ``kt21_rules``),
            a :class:`~engine.dice.kt21_rules.Kt21WeaponRules`, or ``None``.
        rng: a range in inches overriding the weapon's (``None``: the weapon's Rng, if any).

    Raises:
        KeyError: an unknown operative id.
    """
    limit = rng if rng is not None else _range_of(weapon)
    s = w.op(shooter_id)
    sp = w.place(s)
    friends = [f for f in w.friends_of(shooter_id)]
    out = []
    for e in w.enemies_of(shooter_id):
        if limit is not None and distance(sp, w.place(e)) > limit + _EPS:
            continue
        if any(w.control_range(f, e) for f in friends):
            continue
        los = kt21_line_of_sight(w, shooter_id, e.id)
        if los.valid:
            out.append(los)
    return tuple(out)
