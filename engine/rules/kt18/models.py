"""What the KT18 flow asks about a model (``rules/KT18.md`` 1.1, 3.5, 8.2-8.5): distances
between bases, its characteristics, and its state kept as effects (flesh wounds, shaken, a
broken kill team).

- Distances are measured between the closest points of the two bases, and "within x" is a
  distance of at most x (1.1); no visibility is involved (3.5, 8.4).
- A flesh wound is one ``kt18_flesh_wound`` effect on the model; a shaken model has a
  ``kt18_shaken`` effect; a broken kill team a ``kt18_broken`` effect on its player (the
  effect kinds the KT18 design fixes, until the end of the battle).
"""

from __future__ import annotations

from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.teams.kt18_cards import Kt18Profile

__all__ = [
    "BROKEN",
    "FLESH_WOUND",
    "SHAKEN",
    "TOLERANCE",
    "distance",
    "enemies_within",
    "flesh_wounds",
    "is_broken",
    "is_shaken",
    "make_broken",
    "make_shaken",
    "profile",
    "team_models",
    "within",
]

FLESH_WOUND = "kt18_flesh_wound"
SHAKEN = "kt18_shaken"
BROKEN = "kt18_broken"
TOLERANCE = 1e-6
"""Inches: a distance this much over a limit still counts as within it (rounding only)."""


def distance(w: Work, a: OperativeState, b: OperativeState) -> float:
    """The distance between the bases of ``a`` and ``b``, in inches (1.1)."""
    return w.distance(w.place(a), w.place(b))


def within(w: Work, a: OperativeState, b: OperativeState, inches: float) -> bool:
    """Whether ``b`` is within ``inches`` of ``a`` (at most that far, 1.1)."""
    return distance(w, a, b) <= inches + TOLERANCE


def enemies_within(w: Work, o: OperativeState, inches: float) -> list[OperativeState]:
    """The enemy models on the battlefield within ``inches`` of ``o`` (1.1, 3.5)."""
    return [e for e in w.enemies_of(o.id) if within(w, o, e, inches)]


def team_models(w: Work, player: str) -> list[OperativeState]:
    """Every model of ``player``'s kill team, in the battle's order (on the battlefield,
    out of action or not yet set up)."""
    return [o for o in w.ops if o.player == player]


def profile(w: Work, op_id: str) -> Kt18Profile:
    """The KT18 characteristics of ``op_id`` (1.7).

    Raises:
        ValueError: its datacard has none (not a KT18 team's; the ruleset refuses such
            teams before a battle starts)."""
    card = w.ctx.datacards[op_id].kt18
    if card is None:
        raise ValueError(f"{op_id} has no KT18 characteristics (rules/KT18.md 1.7)")
    return card


def flesh_wounds(w: Work, op_id: str) -> int:
    """How many flesh wounds ``op_id`` has (6.11)."""
    return len(w.effects_on(op_id, FLESH_WOUND))


def is_shaken(w: Work, op_id: str) -> bool:
    """Whether ``op_id`` is shaken (8.5)."""
    return bool(w.effects_on(op_id, SHAKEN))


def is_broken(w: Work, player: str) -> bool:
    """Whether ``player``'s kill team is broken (8.2)."""
    return any(e.kind == BROKEN and not e.op and e.player == player for e in w.effects)


def make_shaken(w: Work, op_id: str) -> None:
    """Make ``op_id`` shaken (8.4: a failed Nerve test): a ``kt18_shaken`` effect."""
    if not is_shaken(w, op_id):
        w.add_effect(Effect(SHAKEN, op_id, "end_battle"))


def make_broken(w: Work, player: str) -> None:
    """Make ``player``'s kill team broken for the rest of the battle (8.2)."""
    if not is_broken(w, player):
        w.add_effect(Effect(BROKEN, "", "end_battle", player=player))
