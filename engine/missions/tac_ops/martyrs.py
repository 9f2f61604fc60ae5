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

Choice (the player *can* remove them): when a token on a marker the player controls can be
removed (2VP, the turning point's cap at once), or in the fourth turning point (nothing
later to keep a token for), the removal is not asked: the player removes tokens while they
score, first from the markers it controls (2VP each), then from those it only contests (1VP
each), in the layout's marker order, and stops when the caps leave nothing to score (a token
that would score nothing stays for a later turning point). Otherwise (the second or third
turning point, tokens only on markers it contests without controlling them) keeping a token
can be worth more: a token removed later from a marker the player then controls scores 2VP.
The removal is then the player's decision (:mod:`engine.missions.tac_ops.removal`): ``Op
martyrs <marker>`` removes one token there for 1VP, asked again while the cap leaves room;
``Decline`` keeps the rest.

Facts: ``"Martyrs:<player>:<marker>"`` = the number of that player's tokens on the marker;
``"secret:<player>:Martyrs:fallen"`` = the player's operatives incapacitated so far (kept
secret: it is recorded before the op is revealed).
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.markers import contesting
from engine.game.work import Work
from engine.missions.markers import contested_by, contested_markers, controller, marker_names
from engine.missions.pack import OpSpec, register, reveal_tac_op, tac_active
from engine.missions.scoring import OP_CAP, TAC, fact, initiative_first, op_vp, score, set_fact
from engine.missions.tac_ops.removal import Removal, TokenRemovalFrame, declare_removal

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


def _worth(w: Work, p: str) -> list[tuple[int, str]]:
    """``(VP per token, marker)`` for each marker with ``p``'s tokens that ``p`` contests:
    2 where ``p`` also controls it; the 2VP ones first, then the layout's order."""
    worth: list[tuple[int, str]] = []
    for m in marker_names(w):
        if tokens(w, p, m) and contested_by(w, p, m):
            worth.append((2 if controller(w, m, NAME) == p else 1, m))
    worth.sort(key=lambda t: -t[0])  # stable: the layout's order within each value
    return worth


def _room(w: Work, p: str) -> int:
    """The VP Martyrs can still score ``p`` this turning point (its cap and the battle's)."""
    return min(TP_CAP - op_vp(w, TAC, p, this_tp=True), OP_CAP - op_vp(w, TAC, p))


def _remove(w: Work, p: str, m: str, vp: int) -> bool:
    """Remove one of ``p``'s tokens from ``m`` and score ``vp`` for it; False (nothing
    removed) when the caps leave nothing to score."""
    why = f"{NAME}: a Martyr token removed from {m}" + (", controlled" if vp == 2 else "")
    if not score(w, p, TAC, vp, why, tp_cap=TP_CAP):
        return False
    left = tokens(w, p, m) - 1
    set_fact(w, f"{NAME}:{p}:{m}", left or None)
    w.emit("martyr_token_removed", player=p, marker=m, tokens=left)
    return True


def _cash_in(w: Work, p: str) -> None:
    """Remove ``p``'s Martyr tokens while they score (module docstring)."""
    for vp, m in _worth(w, p):
        while tokens(w, p, m):
            if not _remove(w, p, m, vp):
                return


def _asked_key(player: str) -> str:
    return f"{NAME}:asked:{player}"


def _choice_matters(w: Work, p: str) -> bool:
    """Whether keeping a token can be worth more than removing it now (module docstring):
    the second or third turning point, room under the caps, and tokens only on markers ``p``
    contests without controlling."""
    if not 2 <= w.tp < 4 or not tac_active(w, p, NAME) or _room(w, p) <= 0:
        return False
    worth = _worth(w, p)
    return bool(worth) and all(vp == 1 for vp, _ in worth)


def _places(w: Work, p: str) -> tuple[str, ...]:
    """The markers one of ``p``'s tokens can be removed from and score now (1VP each)."""
    if _room(w, p) <= 0:
        return ()
    return tuple(m for _, m in _worth(w, p))


def _remove_chosen(w: Work, p: str, m: str) -> None:
    vp = next(v for v, name in _worth(w, p) if name == m)
    _remove(w, p, m, vp)


def _advice(w: Work, p: str, m: str) -> float:
    """Remove first the token on the marker ``p`` is least likely to control later: the one
    where its operatives outnumber the enemy's least (the heuristic agent's rule of thumb;
    it never keeps a token: a VP now is certain)."""
    mine = sum(1 for o in contesting(w, m) if o.player == p)
    theirs = sum(1 for o in contesting(w, m) if o.player != p)
    return float(theirs - mine)


declare_removal(Removal(NAME, _places, _remove_chosen, optional=True, advice=_advice))


def _step(w: Work) -> TokenRemovalFrame | None:
    """The scoring step: the players whose removal is their decision, initiative first."""
    if w.tp < 2:
        return None
    asked = tuple(p for p in initiative_first(w) if _choice_matters(w, p))
    for p in asked:
        set_fact(w, _asked_key(p), True)
    return TokenRemovalFrame(NAME, asked) if asked else None


def _score(w: Work, ev: Event) -> None:
    if w.tp < 2:
        return
    for p in initiative_first(w):
        if fact(w, _asked_key(p), None):  # removed by the player's own choices
            set_fact(w, _asked_key(p), None)
            continue
        if tac_active(w, p, NAME):
            _cash_in(w, p)


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Subscribe the Martyr tokens to ``operative_incapacitated``, the removal choice to the
    end of the turning point (:meth:`~engine.game.context.Hooks.scoring_step`) and the
    scoring to ``turning_point_ending``."""
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.scoring_step(_step)
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
