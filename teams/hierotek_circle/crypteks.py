"""What the Chronomancer's and the Psychomancer's unique actions (Hierotek Circle) share:
:class:`CryptekAction`, their endings and the markers they place. The actions:
:mod:`teams.hierotek_circle.chronomancer` (Chronometron, Countertemporal Nanomine,
Timesplinter) and :mod:`teams.hierotek_circle.psychomancer` (Harbinger Of Despair, Nightmare
Shroud, Vision Of Madness), each registered by rule id (``engine.rules.registry``).

Common to them (the datacards): 1AP; not while the operative is within control range of an
enemy operative. An effect "until the start of this operative's next activation, until it
is incapacitated or until this action is performed again by a friendly operative" is an
effect whose ``source`` is the performer, removed at its next ``activated`` event, when it
is incapacitated, or when a friendly operative performs the action again; the markers of
Countertemporal Nanomine and Harbinger Of Despair are removed the same way.

Who performs them: the operative with the cryptek's keyword (CHRONOMANCER, PSYCHOMANCER),
and a friendly APPRENTEK when that cryptek is in its kill team (the Apprentek Assistance
reading played here: at most one of these CRYPTEK unique actions per turning point for the
Apprentek; the ability's own rule id belongs to the abilities module).

Notation: ``Act <op> chronometron on <friendly>``, ``Act <op> countertemporal nanomine at
x,y[,z]``, ``Act <op> timesplinter at x,y[,z] on <friendly>``, ``Act <op> harbinger of
despair at x,y[,z]``, ``Act <op> nightmare shroud``.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.equipment.markers import marker_placement
from engine.rules.ploys import GainToken
from teams.hierotek_circle.common import has_kw

CHRONOMANCER = "CHRONOMANCER"
PSYCHOMANCER = "PSYCHOMANCER"
APPRENTEK_USED = "hierotek_apprentek_cryptek_action"  # op token: one per turning point
PICK_UP = "Pick up"
_EPS = 1e-6


def _owns_cryptek(w: Work, player: str, keyword: str) -> bool:
    return any(
        w.ctx.owner[i] == player and keyword in w.ctx.datacards[i].keywords for i in w.ctx.ids
    )


def performer_reason(w: Work, o: OperativeState, keyword: str, name: str) -> str | None:
    """Why ``o`` cannot perform the ``keyword`` cryptek's unique action ``name`` now
    (module docstring), or ``None``."""
    if has_kw(w, o.id, keyword):
        pass
    elif has_kw(w, o.id, "APPRENTEK") and _owns_cryptek(w, o.player, keyword):
        if any(e.detail == APPRENTEK_USED for e in w.effects_on(o.id, "token")):
            return (
                f"{o.id} already performed a CRYPTEK unique action this turning point "
                "(Apprentek Assistance)"
            )
    else:
        return f"{o.id} cannot perform {name}: a {keyword.title()} action"
    if w.in_enemy_control_range(o):
        return f"{o.id} is within control range of an enemy operative ({name})"
    return None


def _performed(w: Work, o: OperativeState, kind: str) -> None:
    """Note the performance: the Apprentek's once-per-turning-point limit; end the effects
    and markers of the previous performance of the action (by any friendly operative)."""
    if not has_kw(w, o.id, CHRONOMANCER) and not has_kw(w, o.id, PSYCHOMANCER):
        GainToken(APPRENTEK_USED, "end_tp").apply(w, o.player, o.id, o.id)
    end_effects(w, kind, o.player)
    w.effects = [e for e in w.effects if not (e.kind == f"{kind}_by" and e.detail == o.player)]


def end_effects(w: Work, kind: str, player: str, source: str = "") -> None:
    """Remove ``player``'s effects of ``kind`` (those begun by ``source`` only, when given)
    and the tokens of that kind."""
    w.effects = [
        e
        for e in w.effects
        if not (e.kind == kind and e.detail == player and (not source or e.source == source))
    ]
    if w.tokens:
        w.tokens = [
            t
            for t in w.tokens
            if not (
                isinstance(t, Token)
                and t.kind == kind
                and t.owner == player
                and (not source or (t.carrier == "" and _token_source(w, t) == source))
            )
        ]


def _token_source(w: Work, t: Token) -> str:
    """The operative whose action placed the marker ``t`` (an effect ``<kind>_by``)."""
    for e in w.effects:
        if e.kind == f"{t.kind}_by" and e.detail == t.owner:
            return e.source
    return ""


def install_endings(hooks: Hooks, kind: str) -> None:
    """End the effects and markers of ``kind`` at the start of their performer's next
    activation and when it is incapacitated (module docstring)."""

    def ended(w: Work, ev: Event) -> None:
        op = ev["op"]
        if not any(e.source == op and e.kind in (kind, f"{kind}_by") for e in w.effects):
            return
        player = w.ctx.owner[op]
        end_effects(w, kind, player, op)
        w.effects = [e for e in w.effects if not (e.kind == f"{kind}_by" and e.source == op)]

    hooks.on("activated", ended)
    hooks.on("operative_incapacitated", ended)


@attrs.frozen(slots=True)
class CryptekAction:
    """Base of the crypteks' unique actions (module docstring)."""

    name: str = ""
    text: str = ""
    keyword: str = ""
    kind: str = ""
    ap: int = 1
    family: str = ""

    def reason(self, w: Work, o: OperativeState) -> str | None:
        return performer_reason(w, o, self.keyword, self.name)

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        if self.reason(w, o) is not None:
            return []
        return self.listed(w, o)

    def listed(self, w: Work, o: OperativeState) -> list[Action]:
        return [Action("Act", op=o.id, text=self.text)]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        return self.reason(w, o) or self.check_args(w, o, a)

    def check_args(self, w: Work, o: OperativeState, a: Action) -> str | None:
        return None

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        _performed(w, o, self.kind)
        self.effect(w, o, a)
        w.emit("team_rule_used", op=o.id, rule=self.name, on=a.target or "")

    def effect(self, w: Work, o: OperativeState, a: Action) -> None:  # pragma: no cover
        raise NotImplementedError


def ranged_enemies_seeing(w: Work, op: str) -> int:
    """Ready enemy operatives to which ``op`` is visible."""
    there = w.place(w.op(op))
    return sum(1 for e in w.enemies_of(op) if e.ready and w.ctx.visible(w.kz, w.place(e), there))


def marker_at(kind: str, player: str, point: tuple[float, float, float]) -> Token:
    x, y, z = point
    return Token(kind, player, f"{player} {kind.removeprefix('hierotek_')}", x, y, z)


def point_reason(w: Work, o: OperativeState, a: Action, name: str) -> str | None:
    if a.point is None or a.target:
        return f"{name} places a marker at a point: 'Act {o.id} {name.lower()} at x,y'"
    x, y, z = a.point
    if not (0 <= x <= w.kz.width and 0 <= y <= w.kz.depth):
        return f"{name}: the marker must be on the killzone"
    m = marker_placement(Token("probe", o.player, "", x, y, z))
    part = w.kz.standing_part(m) if z > 0 else None
    if z > 0 and part is None:
        return f"{name}: a marker above the killzone floor must be on Vantage terrain"
    if w.ctx.visible(w.kz, w.place(o), m):
        return None
    # Or on Vantage terrain of a terrain feature visible to the operative (the point itself
    # need not be): the feature seen as the smoke grenade's rule sees it (7.2).
    from engine.rules.equipment.grenades import _feature_visible

    if part is not None and _feature_visible(w, w.place(o), part):
        return None
    return (
        f"{name}: the marker must be placed visible to {o.id} or on Vantage terrain of a "
        "terrain feature visible to it"
    )


def visible_points(
    w: Work, o: OperativeState, points: list[tuple[float, float, float]]
) -> list[tuple[float, float, float]]:
    out: list[tuple[float, float, float]] = []
    here = w.place(o)
    for p in points:
        m = marker_placement(Token("probe", o.player, "", *p))
        if w.ctx.visible(w.kz, here, m) and p not in out:
            out.append(p)
    return out


def near_marker(w: Work, o: OperativeState, kind: str, reach: float) -> bool:
    """``o`` is within ``reach`` of a marker of ``kind`` of an enemy player."""
    here = w.place(o)
    return any(
        isinstance(t, Token)
        and t.kind == kind
        and t.owner != o.player
        and w.distance(here, marker_placement(t)) <= reach + _EPS
        for t in w.tokens
    )
