"""Crit op **Stake Claim** (``rules/KT24.md`` 1.4, 8.3, Approved Ops 2025).

- *Claims*: at the start of the Gambit step of each turning point after the first, each
  player, the one with initiative first, selects one objective marker and one of two claims
  for that turning point: ``control`` (its operatives will control that marker at the end of
  the turning point) or ``uncontested`` (no enemy operative will contest it then). Each
  player selects each marker at most once in the battle, so with three markers and three
  turning points after the first, each marker exactly once. Notation (a decision of kind
  ``"stake claim"``): ``Op claim <marker> control`` / ``Op claim <marker> uncontested``
  (marker names in lower case), e.g. ``Op claim centre control``.
- *Scoring*, at the end of each turning point after the first: 1VP if your operatives
  control more objective markers than the enemy's do, and 1VP if your claim of this turning
  point is true; at most 2VP per turning point.

The pack does not say the selections are secret: here they are public, and the player
without initiative selects knowing the other's claim. A player with no marker left to
select (a layout with fewer than three markers) makes no claim.

Facts: ``"Stake Claim:<player>:markers"`` = the markers that player has selected, in order;
``"Stake Claim:<player>:claim"`` = ``(turning point, marker, claim)`` of its latest claim.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import other
from engine.game.work import Work
from engine.missions.markers import contested_by, controlled_by, controller, marker_names
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, score, set_fact

__all__ = ["CLAIMS", "NAME", "TP_CAP", "StakeClaimFrame", "claim_of", "claim_true", "selected"]

NAME = "Stake Claim"
TP_CAP = 2
"""The most VP Stake Claim gives a player in one turning point."""
CLAIMS = ("control", "uncontested")
"""The two claims, as the notation names them."""


def selected(w: Work, player: str) -> tuple[str, ...]:
    """The objective markers ``player`` has selected so far in the battle, in order."""
    return tuple(fact(w, f"{NAME}:{player}:markers", ()))


def claim_of(w: Work, player: str) -> tuple[str, str] | None:
    """``player``'s ``(marker, claim)`` for this turning point, or ``None``."""
    got = fact(w, f"{NAME}:{player}:claim")
    if got is None or got[0] != w.tp:
        return None
    return (str(got[1]), str(got[2]))


def claim_true(w: Work, player: str) -> bool:
    """Whether ``player``'s claim of this turning point holds now (``False`` without one)."""
    got = claim_of(w, player)
    if got is None:
        return False
    marker, claim = got
    if claim == "control":
        return controller(w, marker) == player
    return not contested_by(w, other(player), marker)


@attrs.frozen(slots=True)
class StakeClaimFrame:
    """Each player selects a marker and a claim (module docstring), ``turn`` first."""

    turn: str
    asked: int = 0

    def run(self, w: Work) -> None:
        if self.asked >= 2:
            w.stack.pop()
            return
        if not self.options(w):
            w.replace_top(turn=other(self.turn), asked=self.asked + 1)
            return
        w.decide(self.turn, "stake claim")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here")

    def _free(self, w: Work) -> list[str]:
        done = selected(w, self.turn)
        return [m for m in marker_names(w) if m not in done]

    def options(self, w: Work) -> list[Action]:
        return [Action("Op", text=f"claim {m.lower()} {c}") for m in self._free(w) for c in CLAIMS]

    def act(self, w: Work, a: Action) -> None:
        words = a.text.split()
        free = self._free(w)
        marker = " ".join(words[1:-1])
        hit = next((m for m in free if m.lower() == marker), "")
        if len(words) < 3 or words[0] != "claim" or words[-1] not in CLAIMS or not hit:
            names = ", ".join(m.lower() for m in free)
            raise IllegalActionError(
                f"{a}: player {self.turn} selects an objective marker it has not selected "
                f"yet ({names}) and a claim: 'Op claim <marker> control' or 'Op claim "
                "<marker> uncontested' (Stake Claim)"
            )
        p, claim = self.turn, words[-1]
        set_fact(w, f"{NAME}:{p}:markers", (*selected(w, p), hit))
        set_fact(w, f"{NAME}:{p}:claim", (w.tp, hit, claim))
        w.emit("claim_staked", player=p, marker=hit, claim=claim, tp=w.tp)
        w.replace_top(turn=other(self.turn), asked=self.asked + 1)


def _claims_step(w: Work) -> StakeClaimFrame | None:
    if not crit_active(w, NAME) or w.tp < 2:
        return None
    return StakeClaimFrame(turn=w.initiative or "A")


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    first = w.initiative or "A"
    for p in (first, other(first)):
        if len(controlled_by(w, p)) > len(controlled_by(w, other(p))):
            score(w, p, CRIT, 1, "Stake Claim: more objective markers", tp_cap=TP_CAP)
        if claim_true(w, p):
            marker, claim = claim_of(w, p) or ("", "")
            score(w, p, CRIT, 1, f"Stake Claim: claim {claim} {marker} true", tp_cap=TP_CAP)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the claims at the start of each Gambit step after the first and the
    end-of-turning-point scoring."""
    hooks.gambit_step(_claims_step)
    hooks.on("turning_point_ending", _score)


add_template(
    "claim_staked",
    lambda e: (
        f"{e['player']} claims objective marker {e['marker']}: "
        + (
            "its operatives will control it"
            if e["claim"] == "control"
            else "no enemy operative will contest it"
        )
    ),
)

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Each turning point after the first, claim a marker (each once): you will "
        "control it, or the enemy will not contest it; score for a true claim and for "
        "controlling more markers.",
    )
)
