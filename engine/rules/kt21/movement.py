"""KT21 movement actions (``rules/KT21.md`` 6.1, 7; DC rulings 16.6, 16.13): Normal Move, Dash,
Fall Back and Charge.

They move along the shared movement search (:mod:`engine.geometry.movement`, through
:func:`engine.game.universal.movement.do_move`) with the KT21 action rules:

- **Normal Move** (1AP): up to Move; not within Engagement Range of an enemy (FLY does not
  change that, 16.13); not in the same activation as Fall Back or Charge. Its path rules are
  KT24's Reposition's (may not enter an enemy's Engagement Range).
- **Dash** (1AP): up to 3" whatever the Move (Move modifiers do not apply to it, 16.6); not
  within Engagement Range; not with Charge. KT21's Dash may climb and drop: it uses the
  Normal Move's path rules with its own 3".
- **Charge** (1AP): up to Move + 2"; must end within Engagement Range of an enemy; Engage
  order only; not already within Engagement Range; not with Normal Move, Dash or Fall Back.
- **Fall Back** (2AP): up to Move; only from within Engagement Range; must not end within
  an enemy's Engagement Range; not with Normal Move or Charge (a Dash after it is allowed).

Move is the datacard's with its changes, -2" when injured, never changed below 4" (4.2, 4.4,
the NEW CORE RULE, decision 2): :meth:`engine.game.work.Work.move_stat`, the same rule as
KT24's. Engagement Range is KT24's control range test (the same 1", visible, mutual).

Not expressed yet (the shared movement graph models KT24's 3.3; reported, not silently
replaced): KT21 increments (only an increment shorter than 1" counts as 1", KT24 rounds every
increment up), climbing in 2" steps rounded up and the Scalable trait, drops rounded down in
2" steps (under 2" free), traverse for 2" over Traversable parts, the jump test (a D6, 1
fails) over a 3" by 2" gap, FLY, and the Charge's "must end within Engagement Range of the
first enemy it reaches that no other friendly operative engages". KT24's rules are used
there (7.4 vs KT24.md 3.3).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import Listing, declare
from engine.game.state import OperativeState
from engine.game.universal.movement import MoveAction, do_move, header_refusal, move_destinations
from engine.game.work import Work

__all__ = [
    "CHARGE",
    "DASH",
    "EXCLUDES",
    "FALL_BACK",
    "MOVEMENT_ACTIONS",
    "NORMAL_MOVE",
    "Kt21MoveAction",
    "kt21_move_refusal",
]

EXCLUDES: dict[str, tuple[str, ...]] = {
    "Normal Move": ("Fall Back", "Charge"),
    "Dash": ("Charge",),
    "Fall Back": ("Normal Move", "Charge"),
    "Charge": ("Normal Move", "Dash", "Fall Back"),
}
"""The move actions each cannot be performed with in the same activation (6.1), both ways."""

_PATH_KIND = {"Normal Move": "reposition", "Dash": "reposition"}
"""The path rules of a KT21 move (:func:`engine.game.universal.movement.move_args`): Dash
climbs and drops like a Normal Move (6.1 Δ KT24); the others keep their own."""


def kt21_move_refusal(
    w: Work, o: OperativeState, verb: str, in_er: bool | None = None
) -> str | None:
    """Why the KT21 rules forbid ``o`` the move action ``verb`` now, beyond the shared checks
    (:func:`engine.game.bookkeeping.precheck`: AP, once per activation, Dash and Charge
    within Engagement Range, Fall Back outside it, Charge on Conceal), or ``None``: a Normal
    Move within an enemy's Engagement Range (6.1, 16.13), and the exclusions of
    :data:`EXCLUDES` in either order (6.1).

    Args:
        in_er: whether ``o`` is within an enemy's Engagement Range, if already known.
    """
    for other in EXCLUDES.get(verb, ()):
        if other in o.done:
            return (
                f"{verb} cannot be performed in the same activation as {other} (rules/KT21.md 6.1)"
            )
    if verb == "Normal Move":
        if in_er is None:
            in_er = w.in_enemy_control_range(o)
        if in_er:
            return (
                "Normal Move cannot be performed within Engagement Range of an enemy operative "
                "(rules/KT21.md 6.1; Fall Back instead)"
            )
    return None


class Kt21MoveAction(MoveAction):
    """A KT21 move action (module docstring). Listed complete (one action per destination,
    ``Normal Move KAS-1 to x,y``), never as a header, so that every listed destination
    follows its KT21 path rules; performed by :func:`do_move` with them."""

    __slots__ = ()

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        if self.verb in at.ruled_out or self.verb in at.unavailable:
            return
        if kt21_move_refusal(w, o, self.verb, at.in_cr) is not None:
            return
        if header_refusal(w, o, self.verb, mode, at.in_cr) is not None:
            return
        yield from move_destinations(w, o, self.verb, mode, at.memo, kind=_PATH_KIND.get(self.verb))

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        why = kt21_move_refusal(w, o, self.verb)
        if why is not None:
            raise IllegalActionError(why)
        if a.point is None:
            raise IllegalActionError(f"{self.verb} {o.id} needs a destination: 'to x,y' (6.1)")
        do_move(w, o, a, mode, kind=_PATH_KIND.get(self.verb))


NORMAL_MOVE = declare(Kt21MoveAction("Normal Move", 1, excludes=EXCLUDES["Normal Move"]))
"""Normal Move (1AP, 6.1, 7.3)."""
# Dash, Fall Back and Charge share their verbs (and printed AP) with KT24's, declared by
# engine.game.universal.movement: these are not declared again.
DASH = Kt21MoveAction("Dash", 1, excludes=EXCLUDES["Dash"])
"""Dash (1AP, 3", 6.1)."""
FALL_BACK = Kt21MoveAction("Fall Back", 2, excludes=EXCLUDES["Fall Back"])
"""Fall Back (2AP, 6.1)."""
CHARGE = Kt21MoveAction("Charge", 1, excludes=EXCLUDES["Charge"])
"""Charge (1AP, Move + 2", 6.1)."""

MOVEMENT_ACTIONS = (NORMAL_MOVE, DASH, FALL_BACK, CHARGE)
"""The KT21 movement actions in listing order."""
