"""The Hierotek Circle's faction rules Reanimation Protocols and Living Metal, and the API the
team's other rules use to return an operative (the Plasmacyte Reanimator's Reanimate, ploys
and equipment that ask whether an operative was REANIMATED).

**Reanimation Protocols** (faction rule; our words): the first time each friendly HIEROTEK
CIRCLE operative is incapacitated, a Reanimation marker is placed for it (before it is
removed; it is then removed as usual, with its tokens and rules effects). In each Ready step
the player selects one of its markers not selected yet this turning point and rolls one D6:
on 1-2 the marker stays and the player selects another (if any); on 3+ the operative is
REANIMATED and no more markers are selected that turning point. A REANIMATED operative is set
up within 3" of its marker and not within control range of an enemy operative (when that is
impossible the roll counts as 1-2), with 1 wound left, an order of its player's choice and
ready; the marker is removed. For the opponent's kill op the team's starting number is 5
(its kill grade rises to at most 5 as HIEROTEK CIRCLE operatives are incapacitated) and falls
again, with the kill-op VP scored for it, whenever one is REANIMATED
(:func:`engine.missions.kill_op.recount_kill_grade`).

**Living Metal** (faction rule): in each Ready step, after the other rules of that step,
each friendly HIEROTEK CIRCLE operative regains D3+1 lost wounds (one D6 rolled for each,
halved rounding up, plus 1).

The engine's reading, documented:

- The marker (20 mm) is placed where its player decides (``Place marker HIE-3 reanimation
  at x,y``; kind ``"team_rule"``), within the incapacitated operative's control range
  (within 1" of its base and visible to it), once the step that incapacitated it is done
  and before it is removed (candidates listed: its centre and two rings).
- Selection order is a decision of the marker's owner (``Use reanimation on HIE-3``; kind
  ``"team_rule"``) when several markers may be selected; the D6 is a chance node.
- Set-up: a decision ``Deploy HIE-3 at x,y[,z]`` (any legal point; candidates listed: rings
  around the marker at its elevation), then the order, ``Use engage order on HIE-3`` or
  ``Use conceal order on HIE-3``. "Within 3" of the marker" is measured from the edge of the
  operative's base to the edge of the marker.
- Events: ``reanimation_marker_placed``, ``reanimation_roll``, ``operative_reanimated``
  (with ``x``, ``y``, ``z``, ``order``, ``ready``, ``source``), then ``operative_set_up``
  (for rules that react to an operative set up, e.g. Mines). A record of a battle replays
  them from its decisions and dice.
- Living Metal is played at the end of the Ready step (a ``ready_end_step``): after the
  frames every Ready-step rule pushes (Reanimation included) and before the Gambit step's
  steps (the primary op's selection, crit op picks), which are made knowing its rolls.
  Operatives with no lost wounds roll no die (the roll could not change anything).

API (for the team's other modules): :data:`MARKER` (token kind), :func:`reanimation_markers`,
:func:`marker_operative`, :func:`reanimated_this_tp`, :func:`return_spots`,
:func:`start_return` (push the set-up decisions for an operative whose marker was rolled for
or spent) and :func:`reanimate` (the state change itself).
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.deployment import check_deployment
from engine.game.events import Event, add_template
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Placement
from engine.geometry.model import MARKER_DIAMETER_MM
from engine.missions.kill_op import recount_kill_grade
from engine.rules.registry import register

TEAM = "hierotek_circle"
FACTION = "HIEROTEK CIRCLE"
MARKER = "reanimation"
"""The token kind of a Reanimation marker (owner: its player; name ``"reanimation HIE-3"``)."""
RULE = "Reanimation"
RETURN_RANGE = 3.0
KILL_OP_STARTING = 5
ORDERS = ("conceal", "engage")

_PLACED = "reanimation_marker:"  # player count: 1 once op's marker was placed (first time)
_REANIMATED = "reanimated_tp:"  # player count: the turning point op was last REANIMATED
_ACTIVATED = "activated_tp:"  # player count: the turning point op last activated
_MARKER_HEIGHT = 0.02
_MARKER_R = MARKER_DIAMETER_MM / 25.4 / 2


def is_hierotek(w: Work, op: str) -> bool:
    """Whether ``op`` is a HIEROTEK CIRCLE operative."""
    return FACTION in w.ctx.datacards[op].keywords


def _set_count(w: Work, player: str, key: str, value: int) -> None:
    w.count(player, key, value - w.count(player, key))


def marker_name(op: str) -> str:
    """The name of the Reanimation marker placed for ``op``."""
    return f"{MARKER} {op}"


def marker_operative(tok: Token) -> str:
    """The operative a Reanimation marker was placed for."""
    return tok.name.removeprefix(MARKER + " ")


def reanimation_markers(w: Work, player: str) -> list[Token]:
    """``player``'s Reanimation markers on the killzone, in placement order."""
    return [t for t in w.tokens if t.kind == MARKER and t.owner == player]


def marker_of(w: Work, op: str) -> Token | None:
    """The Reanimation marker placed for ``op`` still on the killzone, or ``None``."""
    return next((t for t in w.tokens if t.kind == MARKER and t.name == marker_name(op)), None)


def marker_place(tok: Token) -> Placement:
    """Where a marker is, as a :class:`Placement` (for distances and visibility)."""
    return Placement(
        tok.x, tok.y, base_mm=MARKER_DIAMETER_MM, elevation=tok.elevation, model_height=0.02
    )


def reanimated_this_tp(w: Work, op: str) -> bool:
    """Whether ``op`` was REANIMATED during this turning point."""
    return w.count(w.ctx.owner[op], _REANIMATED + op) == w.tp


def activated_this_tp(w: Work, op: str) -> bool:
    """Whether ``op`` was activated during this turning point (it was expended in it)."""
    return w.count(w.ctx.owner[op], _ACTIVATED + op) == w.tp


def return_problem(w: Work, op: str, tok: Token, point: tuple[float, float, float]) -> str | None:
    """Why ``op`` cannot be set up at ``point`` for its marker ``tok`` (within 3" of it, not
    within an enemy's control range, a legal place for its base), or ``None``."""
    o = w.op(op)
    x, y, z = point
    p = w.ctx.placement(op, x, y, z)
    if w.distance(p, marker_place(tok)) > RETURN_RANGE + 1e-6:
        return f'{op} must be set up within {RETURN_RANGE:g}" of its Reanimation marker'
    try:
        check_deployment(w, o, point, drop_zone=False)
    except IllegalActionError as exc:
        return str(exc)
    kz, within = w.kz, w.ctx.control_range
    for e in w.alive():
        if e.player != o.player and within(kz, p, w.place(e)):
            return f"{op} cannot be set up within control range of {e.id} (Reanimation)"
    return None


def return_spots(w: Work, op: str, tok: Token) -> list[tuple[float, float, float]]:
    """Candidate points (deterministic) where ``op`` can be set up for its marker ``tok``:
    the marker's centre and rings around it at its elevation, those that are legal."""
    r = w.ctx.datacards[op].base_mm / 25.4 / 2
    reach = RETURN_RANGE + r + _MARKER_R - 0.01
    out: list[tuple[float, float, float]] = []
    for dist, n in ((0.0, 1), (reach / 3, 6), (2 * reach / 3, 8), (reach, 12)):
        for k in range(n):
            a = 2 * math.pi * k / n
            pt = (round(tok.x + dist * math.cos(a), 2), round(tok.y + dist * math.sin(a), 2))
            point = (pt[0], pt[1], tok.elevation)
            if point not in out and return_problem(w, op, tok, point) is None:
                out.append(point)
    return out


def reanimate(
    w: Work, op: str, point: tuple[float, float, float], order: str, *, ready: bool, source: str
) -> None:
    """REANIMATE ``op``: set it up at ``point`` (no longer incapacitated) with 1 wound, the
    ``order`` and ``ready`` given; its marker is removed; the opponent's kill grade and kill
    op VP are recounted. Emits ``operative_reanimated`` and ``operative_set_up``."""
    o = w.op(op)
    x, y, z = point
    w.set_op(
        op,
        x=x,
        y=y,
        elevation=z,
        placed=True,
        incapacitated=False,
        wounds=1,
        order=order,
        ready=ready,
        ap=0,
        done=(),
        on_guard=False,
    )
    w.tokens = [t for t in w.tokens if not (t.kind == MARKER and t.name == marker_name(op))]
    _set_count(w, o.player, _REANIMATED + op, w.tp)
    w.emit(
        "operative_reanimated",
        op=op,
        player=o.player,
        x=x,
        y=y,
        z=z,
        order=order,
        ready=ready,
        source=source,
    )
    w.emit("operative_set_up", op=op)
    scorer = "B" if o.player == "A" else "A"
    recount_kill_grade(w, scorer)


def marker_spots(w: Work, op: str) -> list[tuple[float, float, float]]:
    """Candidate points (deterministic) for ``op``'s Reanimation marker: its centre and two
    rings within its control range, at its elevation, those that are legal."""
    o = w.op(op)
    r = w.ctx.datacards[op].base_mm / 25.4 / 2
    out: list[tuple[float, float, float]] = []
    for dist, n in ((0.0, 1), (r + 0.5, 8), (r + 1.0 + _MARKER_R - 0.01, 8)):
        for k in range(n):
            a = 2 * math.pi * k / n
            x, y = round(o.x + dist * math.cos(a), 2), round(o.y + dist * math.sin(a), 2)
            point = (x, y, o.elevation)
            if point not in out and marker_problem(w, op, point) is None:
                out.append(point)
    return out


def marker_problem(w: Work, op: str, point: tuple[float, float, float]) -> str | None:
    """Why ``op``'s Reanimation marker cannot be placed at ``point`` (on the killzone,
    within the operative's control range: within 1" and visible to it), or ``None``."""
    o = w.op(op)
    x, y, z = point
    kz = w.kz
    if not (_MARKER_R <= x <= kz.width - _MARKER_R and _MARKER_R <= y <= kz.depth - _MARKER_R):
        return "a Reanimation marker must be wholly on the killzone"
    here = w.ctx.placement(op, o.x, o.y, o.elevation)
    spot = Placement(x, y, base_mm=MARKER_DIAMETER_MM, elevation=z, model_height=_MARKER_HEIGHT)
    if w.distance(here, spot) > 1.0 + 1e-6 or not w.ctx.visible(kz, here, spot):
        return f"the Reanimation marker must be placed within {op}'s control range"
    return None


@attrs.frozen(slots=True)
class MarkerFrame:
    """Where the Reanimation marker of the incapacitated ``op`` goes (before it is removed):
    its player's decision ``Place marker <op> reanimation at x,y[,z]`` (kind
    ``"team_rule"``), within its control range."""

    op: str

    def run(self, w: Work) -> None:
        if marker_spots(w, self.op):
            w.decide(w.ctx.owner[self.op], "team_rule")
            return
        o = w.op(self.op)  # no candidate (a safety net): where the operative stood
        w.stack.pop()
        self._place(w, (o.x, o.y, o.elevation))

    def _place(self, w: Work, point: tuple[float, float, float]) -> None:
        x, y, z = point
        o = w.op(self.op)
        w.tokens = [*w.tokens, Token(MARKER, o.player, marker_name(self.op), x, y, elevation=z)]
        w.emit("reanimation_marker_placed", op=self.op, player=o.player, x=x, y=y)

    def options(self, w: Work) -> list[Action]:
        return [
            Action("Place marker", op=self.op, text=MARKER, point=p)
            for p in marker_spots(w, self.op)
        ]

    def act(self, w: Work, a: Action) -> None:
        if a.verb != "Place marker" or a.op != self.op or a.text != MARKER or a.point is None:
            raise IllegalActionError(
                f"{a}: place {self.op}'s Reanimation marker "
                f"('Place marker {self.op} {MARKER} at x,y')"
            )
        why = marker_problem(w, self.op, a.point)
        if why is not None:
            raise IllegalActionError(why)
        w.stack.pop()
        self._place(w, a.point)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("placing a Reanimation marker rolls no dice")


@attrs.frozen(slots=True)
class ReturnFrame:
    """The set-up of a REANIMATED operative: where (``Deploy <op> at x,y``), then its order
    (``Use engage order on <op>`` / ``Use conceal order on <op>``).

    Attributes:
        op: the operative. ready: whether it is set up ready (else expended).
        source: the rule that REANIMATED it (for the event). point: where, once chosen.
    """

    op: str
    ready: bool
    source: str
    point: tuple[float, float, float] | None = None

    def run(self, w: Work) -> None:
        w.decide(w.ctx.owner[self.op], "team_rule")

    def options(self, w: Work) -> list[Action]:
        if self.point is None:
            tok = marker_of(w, self.op)
            assert tok is not None
            return [Action("Deploy", op=self.op, point=p) for p in return_spots(w, self.op, tok)]
        return [Action("Use", target=self.op, text=f"{o} order") for o in ORDERS]

    def act(self, w: Work, a: Action) -> None:
        if self.point is None:
            if a.verb != "Deploy" or a.op != self.op or a.point is None:
                raise IllegalActionError(
                    f"{a}: set up the REANIMATED {self.op} ('Deploy {self.op} at x,y')"
                )
            tok = marker_of(w, self.op)
            assert tok is not None
            why = return_problem(w, self.op, tok, a.point)
            if why is not None:
                raise IllegalActionError(why)
            w.replace_top(point=a.point)
            return
        order = a.text.removesuffix(" order")
        if a.verb != "Use" or a.target != self.op or order not in ORDERS:
            raise IllegalActionError(
                f"{a}: choose the order of the REANIMATED {self.op} "
                f"('Use engage order on {self.op}' or 'Use conceal order on {self.op}')"
            )
        w.stack.pop()
        reanimate(w, self.op, self.point, order, ready=self.ready, source=self.source)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("a REANIMATED operative's set-up rolls no dice")


def start_return(w: Work, op: str, *, ready: bool, source: str) -> bool:
    """Push the set-up decisions of ``op`` REANIMATED by ``source`` (its marker must be on
    the killzone). Returns False (nothing pushed) when it cannot be set up anywhere (the
    Ready step's roll then counts as 1-2)."""
    tok = marker_of(w, op)
    if tok is None or not return_spots(w, op, tok):
        return False
    w.stack.append(ReturnFrame(op=op, ready=ready, source=source))
    return True


@attrs.frozen(slots=True)
class ReadyReanimationFrame:
    """The Ready step's Reanimation rolls (module docstring) for each player in ``players``
    (initiative first).

    Attributes:
        players: those still to roll. chosen: the marker's operative selected, being rolled.
    """

    players: tuple[str, ...]
    chosen: str = ""

    def _left(self, w: Work, player: str) -> list[Token]:
        return [t for t in reanimation_markers(w, player) if t.counter("selected") != w.tp]

    def run(self, w: Work) -> None:
        if not self.players:
            w.stack.pop()
            return
        p = self.players[0]
        if self.chosen:
            w.roll("team_rule", p, 1, label=f"Reanimation ({self.chosen})")
            return
        left = self._left(w, p)
        if not left:
            w.replace_top(players=self.players[1:])
        elif len(left) == 1:
            self._select(w, marker_operative(left[0]))
        else:
            w.decide(p, "team_rule")

    def _select(self, w: Work, op: str) -> None:
        tok = marker_of(w, op)
        assert tok is not None
        new = tok.with_counter("selected", w.tp)
        w.tokens = [new if t.name == tok.name else t for t in w.tokens]
        w.replace_top(chosen=op)

    def options(self, w: Work) -> list[Action]:
        p = self.players[0]
        return [
            Action("Use", target=marker_operative(t), text="reanimation") for t in self._left(w, p)
        ]

    def act(self, w: Work, a: Action) -> None:
        p = self.players[0]
        ops = [marker_operative(t) for t in self._left(w, p)]
        if a.verb != "Use" or a.text != "reanimation" or a.target not in ops:
            raise IllegalActionError(
                f"{a}: select one of your Reanimation markers ({', '.join(ops)}) "
                "('Use reanimation on <operative>')"
            )
        self._select(w, a.target)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        p, op, v = self.players[0], self.chosen, values[0]
        w.emit("dice_rolled", player=p, label=f"Reanimation ({op})", values=values)
        w.emit("reanimation_roll", player=p, op=op, roll=v)
        w.replace_top(chosen="")
        if v >= 3 and start_return(w, op, ready=True, source="Reanimation Protocols"):
            # No more markers this turning point: the next player (below the set-up).
            w.stack[-2] = attrs.evolve(w.stack[-2], players=self.players[1:])


def _initiative_order(w: Work, players: tuple[str, ...]) -> tuple[str, ...]:
    first = w.initiative or "A"
    return tuple(sorted(players, key=lambda p: p != first))


def _install_reanimation(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Reanimation Protocols (module docstring). Trigger: ``operative_incapacitated`` (the
    marker), ``ready_step`` (the rolls), ``activated`` (whether an operative was expended
    this turning point, for the Reanimate action); the kill op's starting number through
    ``would_kill_op_starting``. Limits: one marker per operative per battle; each marker
    selected once per turning point; one operative REANIMATED per Ready step."""

    def placed(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        o = w.op(op)
        if o.player not in players or not is_hierotek(w, op):
            return
        if w.count(o.player, _PLACED + op):
            return
        w.count(o.player, _PLACED + op, 1)
        w.defer_frame(MarkerFrame(op=op))

    def ready(w: Work, ev: Event) -> None:
        mine = tuple(p for p in players if reanimation_markers(w, p))
        if mine:
            w.stack.append(ReadyReanimationFrame(players=_initiative_order(w, mine)))

    def activated(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if w.ctx.owner[op] in players:
            _set_count(w, w.ctx.owner[op], _ACTIVATED + op, w.tp)

    def starting(w: Work, n: int, **info: Any) -> int:
        player = info.get("player", "")
        if player in players and any(is_hierotek(w, o.id) for o in w.ops if o.player == player):
            return KILL_OP_STARTING
        return n

    hooks.on("operative_incapacitated", placed)
    hooks.on("ready_step", ready)
    hooks.on("activated", activated)
    hooks.transform("would_kill_op_starting", starting)
    hooks.token_maker(MARKER, marker_token)


def marker_token(
    w: Work, owner: str, x: float, y: float, z: float, angle: int, name: str = ""
) -> Token:
    """The Reanimation marker of one of ``owner``'s operatives at ``(x, y, z)`` inches, as
    the rule places it (a scenario position's ``tokens``,
    :meth:`engine.game.context.Hooks.token_maker`); ``name`` names the operative it was
    placed for: ``"reanimation HIE-3"`` (:func:`marker_name`).

    Raises:
        ValueError: ``name`` does not name one of ``owner``'s operatives, or its operative
            already has a marker.
    """
    op = name.removeprefix(MARKER + " ") if name.startswith(MARKER + " ") else ""
    if w.ctx.owner.get(op) != owner:
        raise ValueError(
            f"a Reanimation marker is named after one of player {owner}'s operatives "
            f"('{MARKER} <id>'), not {name!r}"
        )
    if marker_of(w, op) is not None:
        raise ValueError(f"{op} already has its Reanimation marker")
    return Token(MARKER, owner, marker_name(op), x, y, elevation=z)


def d3_plus_1(d6: int) -> int:
    """D3+1 from one D6 (1-2: 2, 3-4: 3, 5-6: 4)."""
    return (d6 + 1) // 2 + 1


@attrs.frozen(slots=True)
class LivingMetalFrame:
    """Living Metal's rolls: one D6 per wounded friendly HIEROTEK CIRCLE operative of
    ``players`` (initiative player's first, then id order), each regaining D3+1 lost
    wounds. The operatives are listed when the frame first runs (after the Ready step's
    rules: an operative REANIMATED there is healed too).

    Attributes:
        players: whose operatives. ops: those still to roll for, once ``started``.
    """

    players: tuple[str, ...]
    ops: tuple[str, ...] = ()
    started: bool = False

    def run(self, w: Work) -> None:
        if not self.started:
            ops = tuple(
                o.id
                for p in _initiative_order(w, self.players)
                for o in w.alive(p)
                if is_hierotek(w, o.id) and o.wounds < w.ctx.datacards[o.id].wounds
            )
            w.replace_top(ops=ops, started=True)
            self = w.top
        if not self.ops:
            w.stack.pop()
            return
        op = self.ops[0]
        w.roll("team_rule", w.ctx.owner[op], 1, label=f"Living Metal ({op})")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node
        raise IllegalActionError("Living Metal's D3 must be rolled here")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        op = self.ops[0]
        o = w.op(op)
        w.emit("dice_rolled", player=o.player, label=f"Living Metal ({op})", values=values)
        heal(w, op, d3_plus_1(values[0]), "Living Metal")
        w.replace_top(ops=self.ops[1:])


def heal(w: Work, op: str, wounds: int, source: str, by: str = "") -> int:
    """``op`` regains up to ``wounds`` lost wounds (never above its datacard's Wounds);
    emits ``wounds_regained`` (``rule``: ``source``; ``by``: the operative whose rule it is,
    else ``op``). Returns the wounds regained."""
    o = w.op(op)
    top = w.ctx.datacards[op].wounds
    got = max(0, min(wounds, top - o.wounds))
    if got:
        w.set_op(op, wounds=o.wounds + got)
        w.emit("wounds_regained", op=op, wounds=got, rule=source, source=source, by=by or op)
    return got


def _install_living_metal(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Living Metal (module docstring). Trigger: the end of the Ready step (a
    ``ready_end_step``, after every Ready-step rule, Reanimation included, and before the
    Gambit step's own steps). Limits: friendly
    HIEROTEK CIRCLE operatives on the killzone that have lost wounds; never above their
    Wounds stat."""

    def step(w: Work) -> LivingMetalFrame | None:
        return LivingMetalFrame(players)

    hooks.ready_end_step(step)


add_template(
    "operative_reanimated",
    lambda e: (
        f"  {e['op']} is REANIMATED at ({e['x']:g}, {e['y']:g}) with 1 wound, "
        f"{e['order']} order, {'ready' if e['ready'] else 'expended'} ({e['source']})"
    ),
)
add_template(
    "reanimation_marker_placed",
    lambda e: f"  {e['player']} places a Reanimation marker for {e['op']}",
)
register(
    "hierotek_circle/faction_rule/reanimation_protocols",
    _install_reanimation,
    "Faction rule: a marker for each operative first incapacitated; each Ready step, D6 per "
    "marker until a 3+ returns one with 1 wound; the kill op counts 5 and recounts.",
)
register(
    "hierotek_circle/faction_rule/living_metal",
    _install_living_metal,
    "Faction rule: in each Ready step, after the other rules, each friendly operative "
    "regains D3+1 lost wounds.",
)
