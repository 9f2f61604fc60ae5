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

Their increments count as ``rules/KT21.md`` 7.3 and 7.4 say (:data:`KT21_MOVEMENT`, a
parameter of the shared movement search; the graph's geometry is KT24's): an increment
shorter than 1" counts 1", a longer one its length; climbing counts the vertical distance in
2" steps rounded up (Scalable terrain, taller than 4": the last step under 2" ignored); a drop
counts in 2" steps rounded down (under 2" free), at most 6" (UNCONFIRMED 18.5); going over a
Traversable part (:func:`engine.geometry.kt21_sight.part_traits`: barricades and low Light
parts) costs 2" on top of the horizontal distance; a jump between Vantage levels counts its
horizontal distance alone, over a gap of at most 3" and at most 2" up or down (UNCONFIRMED
18.5), and needs a **jump test** (:class:`JumpTestFrame`: a D6, on a 1 the operative stays
where it was and the action ends, its AP spent). **FLY** (7.3): vertical distance counts
nothing, no jump test, any gap or drop (the graph's KT24 reach still bounds gaps and climbs).
Climbing or dropping gives no free horizontal move (16.12): the horizontal distance counts.
Only the Dash action may climb with its 3" (16.15): a free Dash another rule gives uses the
no-climb path rules. The Charge's "once it enters the Engagement Range of an enemy no other
friendly operative engages, it must end within it" (6.1) is the shared Charge path rule
(KT24.md 3.2 says the same). Stairs and slopes (16.14): the killzones have none.

Not expressed (the shared graph's geometry, KT24.md 3.3, bounds them): a single climb higher
than 3" (so Scalable, which needs terrain taller than 4", never applies on the shipped
killzones), FLY moving over other operatives' bases, and a climb split over a Normal Move and
the Dash that completes it (the engine has no position mid-climb).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.bookkeeping import Listing, declare, spend
from engine.game.state import OperativeState
from engine.game.universal.movement import (
    MoveAction,
    do_move,
    header_refusal,
    move_args,
    move_destinations,
)
from engine.game.work import Work
from engine.geometry.movement import KT21_MOVEMENT, MoveError, MovementRules, shortest_path

__all__ = [
    "CHARGE",
    "DASH",
    "EXCLUDES",
    "FALL_BACK",
    "MOVEMENT_ACTIONS",
    "NORMAL_MOVE",
    "JumpTestFrame",
    "Kt21MoveAction",
    "kt21_move_refusal",
    "movement_rules",
    "path_kind",
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


def path_kind(verb: str, mode: str) -> str | None:
    """The path rules of the KT21 move action ``verb`` performed in ``mode``: the Dash action
    climbs like a Normal Move, but a Dash another rule gives free (``mode == "free"``) does
    not (16.15: only the Dash action itself may complete a climb); ``None``: the verb's own."""
    if verb == "Dash" and mode == "free":
        return None
    return _PATH_KIND.get(verb)


def movement_rules(w: Work, o: OperativeState) -> MovementRules:
    """How ``o``'s increments count (7.3, 7.4): :data:`KT21_MOVEMENT`, with FLY when its
    datacard has the FLY keyword (7.3)."""
    keywords = w.ctx.datacards[o.id].keywords
    return KT21_MOVEMENT.with_fly(any(k.upper() == "FLY" for k in keywords))


def _jumps(w: Work, o: OperativeState, a: Action, mode: str) -> bool:
    """Whether the move ``a`` of ``o`` crosses a gap with a jump needing a jump test (7.4;
    not with FLY). ``False`` when no legal path is found: :func:`do_move` then refuses it,
    naming the rule."""
    rules = movement_rules(w, o)
    if not rules.jump_test or rules.fly or a.point is None:
        return False
    args = move_args(w, o, a.verb, mode, path_kind(a.verb, mode), rules)
    try:
        path = shortest_path(w.move_kz(o), w.place(o), a.point, **args)
    except MoveError:
        return False
    return path is not None and any(inc.kind == "jump" for inc in path.increments)


@attrs.frozen(slots=True)
class JumpTestFrame:
    """The jump test of ``op``'s move action ``verb`` to ``point`` (7.4): one D6; on a 2+ the
    move is made (:func:`do_move`), on a 1 the operative stays where it is and the action
    ends, its AP spent (the action was performed).

    Attributes:
        player: ``op``'s controller. op: the operative. verb: its move action. point: the
            destination ``(x, y[, elevation])`` in inches. mode: the action's mode.
    """

    player: str
    op: str
    verb: str
    point: tuple[float, float, float]
    mode: str

    def run(self, w: Work) -> None:
        """Roll the test (a chance node)."""
        w.roll("jump_test", self.player, 1, label=f"jump test ({self.op})")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node
        raise IllegalActionError(f"the jump test of {self.op} is rolled here, not {a}")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Apply the roll (7.4: a 1 fails)."""
        w.stack.pop()
        roll = int(values[0])
        w.emit("dice_rolled", player=self.player, label=f"jump test ({self.op})", values=values)
        w.emit("jump_test", op=self.op, roll=roll, passed=roll >= 2)
        o = w.op(self.op)
        if roll >= 2:
            a = Action(self.verb, op=self.op, point=self.point)
            rules = movement_rules(w, o)
            do_move(w, o, a, self.mode, kind=path_kind(self.verb, self.mode), rules=rules)
        else:
            spend(w, o, self.verb, self.mode)


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
        yield from move_destinations(
            w,
            o,
            self.verb,
            mode,
            at.memo,
            kind=path_kind(self.verb, mode),
            rules=movement_rules(w, o),
        )

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        why = kt21_move_refusal(w, o, self.verb)
        if why is not None:
            raise IllegalActionError(why)
        if a.point is None:
            raise IllegalActionError(
                f"{self.verb} {o.id} needs a destination: 'to x,y' (rules/KT21.md 6.1)"
            )
        if _jumps(w, o, a, mode):
            # The destination is checked now (an illegal one leaves the state unchanged);
            # the move waits for the jump test (7.4).
            w.stack.append(JumpTestFrame(w.ctx.owner[o.id], o.id, self.verb, a.point, mode))
            return
        do_move(w, o, a, mode, kind=path_kind(self.verb, mode), rules=movement_rules(w, o))


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
