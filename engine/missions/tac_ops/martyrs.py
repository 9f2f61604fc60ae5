"""Tac op **Martyrs** (Security; ``rules/KT24.md`` 8.4, Approved Ops 2025).

- *Martyr tokens*: whenever a friendly operative is incapacitated while contesting an
  objective marker, that marker gains one of the player's Martyr tokens (each marker it
  contests gains one). Contest is judged as the operative is incapacitated, before it is
  removed (event ``operative_incapacitated``). Only an operative's first incapacitation
  counts: one set up again and incapacitated a second time gains nothing.
- *Reveal*: the first time a friendly operative is incapacitated while contesting an
  objective marker.
- *Scoring*, at the end of each turning point after the first: the player may remove its
  Martyr tokens from markers friendly operatives contest; each removed scores 1VP, or 2VP
  when friendly operatives also control that marker. At most 2VP a turning point.

Choice: the removal is not asked. The player removes tokens while they score: first from
the markers it controls (2VP each), then from those it only contests (1VP each), in the
layout's marker order, and stops when the caps leave nothing to score (a token that would
score nothing stays for a later turning point).

Facts: ``"Martyrs:<player>:<marker>"`` = the number of that player's tokens on the marker;
``"secret:<player>:Martyrs:fallen"`` = the player's operatives incapacitated so far (kept
secret: it is recorded before the op is revealed).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.work import Work
from engine.missions.markers import contested_by, contested_markers, controller, marker_names
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import TAC, fact, initiative_first, score, set_fact

__all__ = ["NAME", "TP_CAP", "install", "tokens"]

NAME = "Martyrs"
TP_CAP = 2
"""The most VP Martyrs gives a player in one turning point."""


def tokens(w: Work, player: str, marker: str) -> int:
    """How many of ``player``'s Martyr tokens ``marker`` has."""
    return int(fact(w, f"{NAME}:{player}:{marker}", 0))


def _fallen_key(player: str) -> str:
    return f"secret:{player}:{NAME}:fallen"


def _on_incapacitated(w: Work, ev: Event) -> None:
    victim = w.op(ev["op"])
    p = victim.player
    if not tac_active(w, p, NAME):
        return
    fallen: tuple[str, ...] = fact(w, _fallen_key(p), ())
    if victim.id in fallen:
        return
    set_fact(w, _fallen_key(p), (*fallen, victim.id))
    contested = contested_markers(w, victim)
    if not contested:
        return
    reveal_tac_op(w, p, f"{victim.id} was incapacitated contesting an objective marker")
    for m in contested:
        n = tokens(w, p, m) + 1
        set_fact(w, f"{NAME}:{p}:{m}", n)
        w.emit("martyr_token", player=p, marker=m, op=victim.id, tokens=n)


def _cash_in(w: Work, p: str) -> None:
    """Remove ``p``'s Martyr tokens while they score (module docstring)."""
    worth: list[tuple[int, str]] = []  # (VP per token, marker)
    for m in marker_names(w):
        if tokens(w, p, m) and contested_by(w, p, m):
            worth.append((2 if controller(w, m, NAME) == p else 1, m))
    worth.sort(key=lambda t: -t[0])  # stable: the layout's order within each value
    for vp, m in worth:
        while tokens(w, p, m):
            why = f"{NAME}: a Martyr token removed from {m}" + (", controlled" if vp == 2 else "")
            if not score(w, p, TAC, vp, why, tp_cap=TP_CAP):
                return
            left = tokens(w, p, m) - 1
            set_fact(w, f"{NAME}:{p}:{m}", left or None)
            w.emit("martyr_token_removed", player=p, marker=m, tokens=left)


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    for p in initiative_first(w):
        if tac_active(w, p, NAME):
            _cash_in(w, p)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Subscribe the Martyr tokens to ``operative_incapacitated`` and the scoring to
    ``turning_point_ending``."""
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.on("turning_point_ending", _score)


add_template(
    "martyr_token",
    lambda e: (
        f"  objective marker {e['marker']} gains a Martyr token of {e['player']} "
        f"({e['op']} fell contesting it; {e['tokens']} there)"
    ),
)
add_template(
    "martyr_token_removed",
    lambda e: (
        f"  {e['player']} removes a Martyr token from objective marker {e['marker']} "
        f"({e['tokens']} left)"
    ),
)

SPEC = register(
    OpSpec(
        NAME,
        TAC,
        install,
        archetype="Security",
        summary="Markers where your operatives fall gain tokens; hold them to cash the tokens in.",
        reveal="the first time a friendly operative is incapacitated while contesting a marker",
    )
)
