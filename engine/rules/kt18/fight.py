"""The KT18 Fight phase (``rules/KT18.md`` 7.1-7.8).

:class:`FightPhaseFrame`: **Hammer of Wrath** (models that charged this battle round) then
**Fight For Your Lives** (every other model that can fight: it charged, was charged, or is
within 1" of an enemy; 7.4); in each, in initiative order, each player chooses one of its
models that can fight (``Act KAS-1 fight``, decision ``kt18_choose_fighter``) or passes; a
player may not pass while it has a model that must fight (7.4 reading: one that has a valid
target now or could have one after piling in, :func:`must_fight`); the section ends when both
players pass in succession. Shaken models and models with WS "-" cannot fight (8.5, 1.7). A
model fights at most once per phase (``"fought"`` token).

:class:`FighterFrame`: the fight sequence (7.5): pile in up to 3" (``Act KAS-1 pile in at x,y``
or ``Pass``), choose the melee weapon and the initial target (``Fight KAS-1 chainsword at
LEG-2``: within 1" and visible; after charging only an enemy it charged or that charged it),
the attacks (:class:`~engine.rules.kt18.attack.VolleyFrame`: A rolled when random, split among
the valid targets), then consolidate up to 3"; with no valid target the sequence ends at step
2 (no consolidation).

Pile in and consolidate (7.7, reading (a)): a move of up to 3" that ends strictly closer to
the enemy that was nearest at its start. The engine offers the move straight toward that
enemy (to base contact, or 3") when it is legal, and takes any other exact point within 3"
that ends closer to it and where the base may stand, reached over the terrain (terrain
costs apply, 7.7, 3.3): a straight line on the level when the base can stand all along it
and crosses no model, else the movement graph's path
(:func:`~engine.rules.kt18.destinations.pile_in_path`).
"""

from __future__ import annotations

import math

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action, IllegalActionError
from engine.game.deployment import check_deployment
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.kt18.alternation import choose_model, pass_turn, run_section, whose_turn
from engine.rules.kt18.attack import VolleyFrame
from engine.rules.kt18.destinations import pile_in_path
from engine.rules.kt18.terrain_play import after_move
from engine.rules.kt18.tokens import add_token, has, remove_token
from engine.rules.kt18.weapons import (
    WITHIN,
    charge_partner,
    distance,
    kt18_profile,
    kt18_weapons,
    melee_targets,
    shaken,
)

__all__ = [
    "PILE_IN",
    "FightPhaseFrame",
    "FighterFrame",
    "can_fight",
    "fight_step",
    "must_fight",
    "pile_in_point",
]

PILE_IN = 3.0
"""Pile in and consolidate: up to 3" (7.7)."""
SECTIONS = ("hammer", "lives")
"""Hammer of Wrath then Fight For Your Lives (7.1)."""


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def can_fight(w: Work, o: OperativeState, section: str) -> bool:
    """``o`` can be chosen to fight in ``section`` (7.2-7.4): on the battlefield, not fought
    this phase, not shaken (8.5), WS not "-" (1.7); for Hammer of Wrath it charged this
    battle round; for Fight For Your Lives it charged, was charged or is within 1" of an
    enemy."""
    if not o.alive or has(o, "fought") or shaken(w, o.id) or kt18_profile(w, o.id).ws == 0:
        return False
    if section == "hammer":
        return has(o, "charged")
    if has(o, "charged") or has(o, "was_charged"):
        return True
    return any(distance(w, o, e) <= 1.0 + WITHIN for e in w.enemies_of(o.id))


def must_fight(w: Work, o: OperativeState) -> bool:
    """``o`` has a valid target now, or an enemy it could target within reach of its pile-in
    (within 1" + 3" of it; after charging only one of
    :func:`~engine.rules.kt18.weapons.charge_partner`): its player cannot pass (7.2, 7.3,
    7.4 reading)."""
    if melee_targets(w, o):
        return True
    for e in w.enemies_of(o.id):
        if distance(w, o, e) > 1.0 + PILE_IN + WITHIN:
            continue
        if has(o, "charged") and not charge_partner(o, e):
            continue
        return True
    return False


def nearest_enemy(w: Work, o: OperativeState) -> OperativeState | None:
    """The enemy model nearest to ``o`` (ties: the first in the operatives' order), or
    ``None``."""
    enemies = w.enemies_of(o.id)
    if not enemies:
        return None
    return min(enemies, key=lambda e: distance(w, o, e))


def pile_in_point(w: Work, o: OperativeState) -> tuple[float, float, float] | None:
    """The move straight toward the nearest enemy (7.7): to base contact, or 3" along the
    line when it is further; when that move is not a legal pile-in (:func:`pile_in_problem`:
    the base cannot stand there, or no path over the terrain reaches it within 3"), the legal
    move of 0.5", 1", 2" or 3" in one of eight directions that ends closest to it; ``None``
    when already in base contact, when there is no enemy or no such move, or when ``o`` was
    set up this round and moves no further (3.16 reading (b))."""
    e = nearest_enemy(w, o)
    if e is None or has(o, "reinforced"):
        return None
    gap = distance(w, o, e)
    if gap <= 0.01:
        return None
    dx, dy = e.x - o.x, e.y - o.y
    length = math.hypot(dx, dy)
    if length <= 0:
        return None
    step = min(PILE_IN - 0.001, gap - 0.005)  # (the point is rounded to 0.001": stay within 3")
    x = round(o.x + dx / length * step, 3)
    y = round(o.y + dy / length * step, 3)
    if pile_in_problem(w, o, (x, y, o.elevation)) is None:
        return (x, y, o.elevation)
    # The straight move is blocked (terrain, a model): the legal move of the eight
    # directions at 0.5", 1", 2" and 3" that ends closest to that enemy.
    best: tuple[float, tuple[float, float, float]] | None = None
    for k in range(8):
        ang = 2 * math.pi * k / 8
        for dist in (0.5, 1.0, 2.0, PILE_IN):
            p = (
                round(o.x + dist * math.cos(ang), 3),
                round(o.y + dist * math.sin(ang), 3),
                o.elevation,
            )
            after = w.distance(w.ctx.placement(o.id, *p), w.place(e))
            if (best is None or after < best[0]) and pile_in_problem(w, o, p) is None:
                best = (after, p)
    return None if best is None else best[1]


def pile_in_problem(w: Work, o: OperativeState, point: tuple[float, float, float]) -> str | None:
    """Why ``o`` cannot pile in or consolidate to ``point``, or ``None`` (7.7: up to 3" over
    the terrain, ending strictly closer to the enemy nearest at the start, where its base may
    stand: :func:`~engine.rules.kt18.destinations.pile_in_path`); never for a model set up
    this round (reinforcements, the Tunnels: it moves no further, 3.16 reading (b))."""
    if has(o, "reinforced"):
        return f"{o.id} was set up this battle round: it cannot move further (rules/KT18.md 3.16)"
    e = nearest_enemy(w, o)
    if e is None:
        return "there is no enemy model to move toward (rules/KT18.md 7.7)"
    x, y, z = point
    if math.hypot(x - o.x, y - o.y) > PILE_IN + WITHIN:
        return 'the move is longer than 3" (rules/KT18.md 7.7)'
    before = distance(w, o, e)
    after = w.distance(w.ctx.placement(o.id, x, y, z), w.place(e))
    if after >= before - WITHIN:
        return f"the move must end closer to {e.id}, the nearest enemy (rules/KT18.md 7.7)"
    try:
        check_deployment(w, o, point, drop_zone=False)
        pile_in_path(w, o, point, PILE_IN, "rules/KT18.md 7.7")
    except KillTeamError as exc:
        return str(exc)
    return None


@attrs.frozen(slots=True)
class FighterFrame:
    """One model's fight sequence (module docstring).

    Attributes:
        fighter: the model. stage: ``"pile_in"``, ``"target"``, ``"consolidate"`` or
            ``"end"``.
    """

    fighter: str
    stage: str = "pile_in"

    def _verb(self) -> str:
        return "pile in" if self.stage == "pile_in" else "consolidate"

    def options(self, w: Work) -> list[Action]:
        """The move toward the nearest enemy and ``Pass`` (pile in, consolidate), or each
        melee weapon at each valid initial target."""
        o = w.op(self.fighter)
        if self.stage in ("pile_in", "consolidate"):
            point = pile_in_point(w, o)
            if point is None:
                return []
            return [Action("Act", op=o.id, text=self._verb(), point=point), Action("Pass")]
        if self.stage == "target":
            return [
                Action("Fight", op=o.id, weapon=name, target=t)
                for name, _ in kt18_weapons(w, o.id, "melee")
                for t in melee_targets(w, o)
            ]
        return []

    def run(self, w: Work) -> None:
        """Ask for the current step, or move on when there is nothing to choose."""
        o = w.op(self.fighter)
        if not o.alive:
            w.stack.pop()
            return
        if self.stage == "end":
            w.emit("kt18_fight_ended", op=o.id)
            w.stack.pop()
            return
        opts = self.options(w)
        if self.stage == "pile_in":
            if opts:
                w.decide(o.player, "kt18_pile_in")
            else:
                w.replace_top(stage="target")
        elif self.stage == "target":
            if not opts:
                w.replace_top(stage="end")  # no valid target: no attacks, no consolidation
            elif len(opts) == 1:
                self._attack(w, opts[0])
            else:
                w.decide(o.player, "kt18_fight_target")
        elif opts:
            w.decide(o.player, "kt18_pile_in")
        else:
            w.replace_top(stage="end")

    def act(self, w: Work, a: Action) -> None:
        """Apply a pile-in or consolidation (or ``Pass``), or the weapon and target chosen.

        Raises:
            IllegalActionError: naming the rule broken."""
        o = w.op(self.fighter)
        if self.stage in ("pile_in", "consolidate"):
            nxt = "target" if self.stage == "pile_in" else "end"
            if a.verb == "Pass":
                w.replace_top(stage=nxt)
                return
            if a.verb != "Act" or a.op != o.id or a.text != self._verb() or a.point is None:
                raise _illegal(
                    f"{a} is not possible now: Act {o.id} {self._verb()} at x,y, or Pass "
                    "(rules/KT18.md 7.7)"
                )
            why = pile_in_problem(w, o, a.point)
            if why:
                raise _illegal(f"{a}: {why}")
            x, y, z = a.point
            start = w.place(o)
            w.set_op(o.id, x=x, y=y, elevation=z)
            remove_token(w, o.id, "readied")  # a move ends Readied (3.8)
            w.emit("kt18_piled_in", op=o.id, step=self.stage, x=x, y=y)
            w.replace_top(stage=nxt)
            after_move(w, o.id, start)  # rules/KT18.md 10.4
            return
        if self.stage == "target" and a in self.options(w):
            self._attack(w, a)
            return
        legal = ", ".join(str(x) for x in self.options(w)) or "none"
        raise _illegal(f"{a} is not possible now: choose one of {legal} (rules/KT18.md 7.5)")

    def _attack(self, w: Work, a: Action) -> None:
        w.replace_top(stage="consolidate")
        w.stack.append(VolleyFrame(self.fighter, a.weapon, "melee", (a.target,)))

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        """Never called: no dice here.

        Raises:
            IllegalActionError: always."""
        raise _illegal("no dice here")


@attrs.frozen(slots=True)
class FightPhaseFrame:
    """The Fight phase in progress (module docstring).

    Attributes:
        section: ``"hammer"`` or ``"lives"``. turn: 0 for the player with the initiative, 1
            for the other. passes: passes in succession. started: the section's start is
            told.
    """

    section: str = "hammer"
    turn: int = 0
    passes: int = 0
    started: bool = False

    def player(self, w: Work) -> str:
        """Whose turn it is."""
        return whose_turn(w, self.turn)

    def fighters(self, w: Work) -> list[OperativeState]:
        """The current player's models that can fight in this section."""
        return [o for o in w.alive(self.player(w)) if can_fight(w, o, self.section)]

    def run(self, w: Work) -> None:
        """Start a section, end it after two passes in succession, or ask the player
        (:func:`~engine.rules.kt18.alternation.run_section`)."""
        run_section(
            w,
            self,
            phase="fight",
            sections=SECTIONS,
            can_choose=lambda: bool(self.fighters(w)),
            decision="kt18_choose_fighter",
        )

    def options(self, w: Work) -> list[Action]:
        """``Act <model> fight`` for each model that can fight, and ``Pass`` unless one must
        fight (7.2-7.4)."""
        fighters = self.fighters(w)
        out = [Action("Act", op=o.id, text="fight") for o in fighters]
        if not any(must_fight(w, o) for o in fighters):
            out.append(Action("Pass"))
        return out

    def act(self, w: Work, a: Action) -> None:
        """Pass, or choose the model that fights next.

        Raises:
            IllegalActionError: not a listed choice (a pass while a model must fight, or a
                model that cannot fight)."""
        legal = self.options(w)
        if a not in legal:
            raise _illegal(
                f"{a} is not possible now: choose one of {', '.join(str(x) for x in legal)} "
                "(a player cannot pass while a model of its kill team must fight; "
                "rules/KT18.md 7.2-7.4)"
            )
        if a.verb == "Pass":
            pass_turn(w, self, phase="fight")
            return
        add_token(w, a.op, "fought")
        choose_model(w, self, a.op, phase="fight")
        w.stack.append(FighterFrame(a.op))

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        """Never called: no dice here.

        Raises:
            IllegalActionError: always."""
        raise _illegal("no dice here")


def fight_step(w: Work) -> FightPhaseFrame:
    """The Fight phase's frame (the ``"fight"`` phase step, 7.1)."""
    del w
    return FightPhaseFrame()
