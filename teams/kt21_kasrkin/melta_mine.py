"""The KT21 Kasrkin Demo-Trooper's **Plant Melta Mine** and its melta mine's **Proximity***
trigger (``rules/KT21.md`` 6.2 unique actions, 10.1 shooting attacks, 12):

- **Plant Melta Mine** (1AP, once per battle for the operative, not within Engagement Range
  of an enemy operative): its player puts the operative's Melta Mine token at a point
  Visible to and within :data:`PLANT_RANGE` (1", ▲) of it and more than
  :data:`MINE_RANGE` (2", ●) from every enemy operative (notation ``Act <op> plant melta mine
  at x,y[,z]``; listed: its own spot and four spots around its base; any legal point is
  accepted).
- **Proximity***: the first time an enemy operative moves within 2" of the token, the
  Demo-Trooper's melta mine makes a shooting attack against each operative (friend or foe)
  within 2" of the token, in roster order, even when the Demo-Trooper is not in the
  killzone; those operatives are valid targets whatever the sight and never in Cover (the
  frame's ``no_cover``); the attacks are made as a :class:`~engine.rules.kt21.shoot.
  Kt21ShootFrame` that is not an Overwatch and counts no injury of the Demo-Trooper (BS
  modifiers ignored). When they are over the token is removed. The melta mine makes no other
  shooting attack (:mod:`.weapon_rules`).

Reading (``docs/rulings/kt21_teams.md``): "moves within 2"" is checked where a move ends
(the ``moved`` event: the engine's moves are resolved start to end); an operative already
within 2" when the token is put down is impossible (the token must be more than 2" from
every enemy).
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Placement
from engine.rules.kt21.shoot import Kt21ShootFrame
from engine.rules.registry import register
from engine.rules.unique_actions import PointAction

__all__ = [
    "KIND",
    "MINE_RANGE",
    "PLANT_MELTA_MINE",
    "PLANT_RANGE",
    "PlantMeltaMine",
    "install_plant_melta_mine",
    "mine_token",
]

KIND = "kt21_melta_mine"
"""The token kind of a Melta Mine token (its name: ``"<operative> melta mine"``)."""
PLANT_RANGE = 1.0
"""The token is put within this distance of the operative (inches, ▲)."""
MINE_RANGE = 2.0
"""More than this from every enemy when put; the trigger and the attacks' reach (inches, ●)."""
WEAPON = "melta mine"
_PLANTED = "kt21 melta mine planted"
_TRIGGERED = "triggered"
_EPS = 1e-6


def _point(x: float, y: float, z: float) -> Placement:
    return Placement(x, y, base_mm=1.0, elevation=z, model_height=0.02)


def mine_token(w: Work, op: str) -> Token | None:
    """The Melta Mine token of operative ``op`` in the killzone, or ``None``."""
    name = f"{op} {WEAPON}"
    return next((t for t in w.tokens if t.kind == KIND and t.name == name), None)


@attrs.frozen(slots=True)
class PlantMeltaMine(PointAction):
    """Plant Melta Mine (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`)."""

    name: str = "Plant Melta Mine"
    text: str = "plant melta mine"
    ap: int = 1
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only an operative whose datacard has the action performs it."""
        if not any(a.name == self.name for a in w.ctx.datacards[o.id].actions):
            return f"{o.id} does not have the Plant Melta Mine action"
        return None

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Once per battle for the operative."""
        if any(e.op == o.id and e.detail == _PLANTED for e in w.effects):
            return f"{o.id} already planted its Melta Mine: once per battle"
        return None

    def point_problem(self, w: Work, o: OperativeState, point: tuple[float, ...]) -> str | None:
        """Why the token cannot go at ``point`` (inches), or ``None``."""
        off = self.off_killzone(w, point)
        if off is not None:
            return off
        x, y, z = point
        me, spot = w.place(o), _point(x, y, z)
        if w.distance(me, spot) > PLANT_RANGE + _EPS:
            return f'the Melta Mine token goes within {PLANT_RANGE:g}" of {o.id} (Plant Melta Mine)'
        if not w.ctx.visible(w.kz, me, spot):
            return f"the Melta Mine token goes where {o.id} can see (Plant Melta Mine)"
        for e in w.enemies_of(o.id):
            if w.distance(w.place(e), spot) <= MINE_RANGE + _EPS:
                return (
                    f'the Melta Mine token goes more than {MINE_RANGE:g}" from every enemy '
                    f"operative ({e.id} is closer; Plant Melta Mine)"
                )
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Put the token down; note the use."""
        assert a.point is not None
        x, y, z = a.point
        w.tokens.append(Token(KIND, o.player, f"{o.id} {WEAPON}", x, y, z))
        w.add_effect(Effect("token", o.id, "end_battle", source=o.id, detail=_PLANTED))
        w.emit(
            "equipment_set_up",
            player=o.player,
            item="Melta Mine",
            name=f"{o.id} {WEAPON}",
            x=x,
            y=y,
            angle=0,
        )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: a tenth of an operative (a trap an enemy may walk into)."""
        return 0.1


PLANT_MELTA_MINE = PlantMeltaMine()


def install_plant_melta_mine(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Plant Melta Mine and Proximity's trigger (module docstring)."""

    def moved(w: Work, ev: Event) -> None:
        mover = w.op(str(ev["op"]))
        if not mover.alive:
            return
        for i, t in enumerate(w.tokens):
            if t.kind != KIND or t.owner not in players or t.owner == mover.player:
                continue
            if t.counter(_TRIGGERED):
                continue
            spot = _point(t.x, t.y, t.elevation)
            if w.distance(w.place(mover), spot) > MINE_RANGE + _EPS:
                continue
            w.tokens[i] = t.with_counter(_TRIGGERED, 1)
            shooter = t.name.removesuffix(f" {WEAPON}")
            targets = tuple(
                q.id for q in w.alive() if w.distance(w.place(q), spot) <= MINE_RANGE + _EPS
            )
            w.emit("rule_used", player=t.owner, rule="Proximity (melta mine)", trigger="moved")
            w.defer_frame(
                Kt21ShootFrame(
                    shooter=shooter,
                    weapon=WEAPON,
                    overwatch=False,
                    targets=targets,
                    no_cover=targets,
                    stage="begin",
                )
            )

    def ended(w: Work, ev: Event) -> None:
        if ev["weapon"] != WEAPON:
            return
        t = mine_token(w, str(ev["op"]))
        if t is not None and t.counter(_TRIGGERED):
            w.tokens.remove(t)

    hooks.action(PLANT_MELTA_MINE, players)
    hooks.on("moved", moved)
    hooks.on("shoot_ended", ended)


register(
    "kt21_kasrkin/unique_action/plant_melta_mine",
    install_plant_melta_mine,
    'Demo-Trooper, 1AP, once: its Melta Mine token within 1"; the first enemy to move within '
    '2" of it sets off the melta mine on every operative within 2".',
)
