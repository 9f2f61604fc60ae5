"""The battle loop: applying inputs, advancing to the next node, listing legal actions.

Rules: ``rules/KT24.md`` 1.2 (set-up: roll-off, drop zones, deployment in alternating thirds
with Conceal orders, 2CP each), 1.3-1.5 (turning points; Strategy phase: initiative with the
Approved Ops 2025 cards, Ready, Gambit; Firefight phase: alternating activations), 1.6
(counteract), 1.8 (end of battle), 2.4 (roll-offs).

Procedures in progress are frames on the state's stack (DESIGN.md principle 3); every frame
class implements :class:`engine.game.work.Frame` (``run``, ``options``, ``act``,
``rolled``). :func:`advance` runs frames until one sets a node. The turning point is the
skeleton both editions share (:mod:`engine.game.frame_skeleton`) with the KT24 steps
(:data:`KT24_TURNING_POINT`); deployment's turns, listing and placement are
:mod:`engine.game.deployment`'s, shared with KT21 too.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

import attrs

from engine.game import deployment, ploys
from engine.game.actions import (
    MAX_COORDINATE,
    Action,
    IllegalActionError,
    InvalidActionError,
    parse_action,
)
from engine.game.bookkeeping import order_refusal, own_operative
from engine.game.frame_skeleton import (
    NoChoiceFrame,
    TurningPointSteps,
    end_battle,
    push_steps,
    roll_off_winner,
    run_turning_point,
)
from engine.game.state import (
    PLAYERS,
    Chance,
    DiceRequest,
    GameState,
    Terminal,
    other,
)
from engine.game.universal.activation import (
    ActivationFrame,
    start_activation,
    start_counteract,
)
from engine.game.work import Work

__all__ = [
    "KT24_TURNING_POINT",
    "advance",
    "apply",
    "chance_outcomes",
    "end_battle",
    "is_legal",
    "list_actions",
    "list_complete_actions",
]


# -------------------------------------------------------------------------------------------
# Entry points
# -------------------------------------------------------------------------------------------


_POINT_VERBS = frozenset({"Deploy", "Place marker", "Set up"})
"""Verbs that need a point (a move action without one is its header, the destination decided
next)."""


def _malformed(a: Action, what: str) -> InvalidActionError:
    return InvalidActionError(f"malformed action: {what} (in {a!r:.100})")


def check_action_shape(a: Action) -> Action:
    """``a`` itself when its fields have the types the notation gives them (an action built
    in Python rather than parsed): text fields are strings, ``point`` is ``None`` or three
    finite numbers of magnitude at most
    :data:`~engine.game.actions.MAX_COORDINATE` inches (what the notation reads), ``values`` whole
    numbers.

    Raises:
        InvalidActionError: naming the field that is wrong.
    """
    for name in ("verb", "op", "weapon", "target", "text"):
        if not isinstance(getattr(a, name), str):
            raise _malformed(a, f"{name!r} must be text")
    pt = a.point
    if pt is None and a.verb in _POINT_VERBS:
        raise _malformed(a, f"{a.verb} needs a 'point' (x, y, elevation)")
    if pt is not None:
        if not isinstance(pt, tuple) or len(pt) != 3:
            raise _malformed(a, "'point' must be (x, y, elevation) in inches")
        for v in pt:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _malformed(a, "'point' must hold numbers")
            if not -MAX_COORDINATE <= v <= MAX_COORDINATE:  # also false for NaN
                raise _malformed(
                    a, f"'point' coordinates must be finite, at most {MAX_COORDINATE:g}\""
                )
    if not isinstance(a.values, tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in a.values
    ):
        raise _malformed(a, "'values' must be a tuple of whole numbers")
    if a.verb == "Accurate" and len(a.values) != 1:
        raise _malformed(a, "Accurate needs one value (the number of dice retained)")
    return a


def _coerce(action: Action | str) -> Action:
    if isinstance(action, Action):
        return check_action_shape(action)
    if isinstance(action, str):
        return parse_action(action)
    raise InvalidActionError(f"an action must be an Action or text, not {type(action).__name__}")


def _check_roll(req: DiceRequest, values: tuple[int, ...]) -> tuple[int, ...]:
    if len(values) != req.dice:
        raise IllegalActionError(
            f"this chance node rolls {req.dice} dice ({req.label}), not {len(values)}"
        )
    if any(v < 1 or v > 6 for v in values):
        raise IllegalActionError(f"dice show 1 to 6, not {values}")
    return values if req.ordered else tuple(sorted(values, reverse=True))


def apply(state: GameState, action: Action | str) -> tuple[GameState, list[Any]]:
    """Apply one input (see :meth:`GameState.apply`)."""
    a = _coerce(action)
    checked = state._memo.pop("legal_apply", None)
    if checked is not None and checked[0] == a:
        # is_legal just applied this very input: its outcome (a pure function of the state
        # and the input) is handed over once instead of being worked out again.
        outcome: tuple[GameState, list[Any]] = checked[1]
        return outcome
    node = state.node
    if isinstance(node, Terminal):
        raise IllegalActionError("the battle is over (1.8): no more actions")
    w = Work(state)
    if isinstance(node, Chance):
        if a.verb != "roll":
            raise IllegalActionError(
                f"dice must be rolled here ({node.request.label}); expected 'roll ...', not {a}"
            )
        w.top.rolled(w, _check_roll(node.request, a.values))
    else:
        if a.verb == "roll":
            raise IllegalActionError(f"{node.player} must decide ({node.kind}), not roll dice")
        w.top.act(w, a)
    w.step += 1
    if w.step > w.ctx.options.max_steps:
        raise IllegalActionError(f"the battle exceeded {w.ctx.options.max_steps} steps")
    advance(w)
    return w.freeze(), w.events


def is_legal(state: GameState, action: Action | str) -> bool:
    """Whether ``action`` applies without an :class:`IllegalActionError` (or ambiguity).
    The outcome of a legal input is kept on the state for the :func:`apply` that usually
    follows."""
    try:
        a = _coerce(action)
        result = apply(state, a)
    except (IllegalActionError, InvalidActionError):
        return False
    except ValueError:
        return False
    state._memo["legal_apply"] = (a, result)
    return True


def advance(w: Work) -> None:
    """Run frames until one sets a node (a decision, a chance node or the end)."""
    guard = 0
    while w.node is None:
        guard += 1
        if guard > 100_000:
            raise RuntimeError("the engine did not reach a node (internal error)")
        if w.deferred:
            # Windows asked for mid-procedure (an operative incapacitated...) open once the
            # procedure that asked has finished its changes.
            trigger, info = w.deferred.pop(0)
            if trigger:
                ploys.open_window(w, trigger, **info)
            else:  # a frame a hook asked for (Work.defer_frame)
                w.stack.append(info["frame"])
            continue
        if not w.stack:
            raise RuntimeError("empty frame stack (internal error)")
        w.top.run(w)


def list_actions(state: GameState) -> list[Action]:
    """The listed legal actions of a decision node in canonical order (outcomes at a chance
    node; nothing at the end). A move action of an activation is listed as its header
    (``Reposition KAS-1``): its destinations are listed by the ``destination`` decision that
    choosing it opens (:class:`~engine.game.universal.activation.DestinationFrame`), and
    computed only then; a Shoot likewise (``Shoot KAS-1``, listed when a weapon has a valid
    target: its weapons and targets are listed by the ``attack_target`` decision,
    :class:`~engine.game.universal.activation.AttackFrame`); :func:`list_complete_actions`
    lists them all at once."""
    node = state.node
    if isinstance(node, Terminal):
        return []
    if isinstance(node, Chance):
        return [a for a, _ in chance_outcomes(state)]
    w = Work(state)
    acts = w.top.options(w)
    return sorted(set(acts), key=_sort_key)


def list_complete_actions(state: GameState) -> list[Action]:
    """:func:`list_actions` with every move action at its listed destinations and every Shoot
    at each weapon and valid target (complete actions, ``Reposition KAS-1 to 8,4``, ``Shoot
    KAS-1 bolt pistol at LEG-2``, each legal in one step) instead of its header: the listing
    as it was before a move's destination and a Shoot's weapon and target became decisions
    of their own, for agents that weigh every destination and every shot at once (the
    heuristic agent). At any node other than an activation's action decision (an
    :class:`~engine.game.universal.activation.ActivationFrame` on top, any mode),
    :func:`list_actions`."""
    node = state.node
    if isinstance(node, (Terminal, Chance)) or not state.stack:
        return list_actions(state)
    top = state.stack[-1]
    if not isinstance(top, ActivationFrame):
        return list_actions(state)
    memo = state._memo
    got: list[Action] | None = memo.get("complete")
    if got is None:
        w = Work(state)
        got = memo["complete"] = sorted(set(top.listing(w, destinations=True)), key=_sort_key)
    return got


def _sort_key(a: Action) -> tuple[Any, ...]:
    return (a.verb, a.op, a.weapon, a.target, a.point or (), a.values, a.text)


def chance_outcomes(state: GameState) -> list[tuple[Action, int]]:
    """Every outcome of a chance node with its integer weight (multisets of faces carry their
    multinomial weight; ordered rolls weight 1 each)."""
    node = state.node
    if not isinstance(node, Chance):
        raise ValueError(f"not a chance node: {node!r}")
    req = node.request
    return dice_outcomes(req.dice, req.ordered)


_OUTCOMES: dict[tuple[int, bool], list[tuple[Action, int]]] = {}


def dice_outcomes(n: int, ordered: bool) -> list[tuple[Action, int]]:
    """Outcomes of ``n`` D6 (module docs of :func:`chance_outcomes`)."""
    key = (n, ordered)
    got = _OUTCOMES.get(key)
    if got is not None:
        return got
    out: list[tuple[Action, int]] = []
    if ordered:
        for vals in itertools.product(range(1, 7), repeat=n):
            out.append((Action("roll", values=vals), 1))
    else:
        fact = math.factorial(n)
        for combo in itertools.combinations_with_replacement(range(6, 0, -1), n):
            weight = fact
            for c in Counter(combo).values():
                weight //= math.factorial(c)
            out.append((Action("roll", values=combo), weight))
    _OUTCOMES[key] = out
    return out


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def expect(a: Action, verbs: tuple[str, ...], where: str) -> None:
    """Raise unless ``a.verb`` is one of ``verbs``."""
    if a.verb not in verbs:
        raise _illegal(f"{a} is not possible now: {where} expects {' or '.join(verbs)}")


# -------------------------------------------------------------------------------------------
# Set-up (1.2)
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class SetupFrame:
    """Set-up: roll off, the winner decides initiative, the initiative player picks a drop
    zone (the other player gains the Re-roll initiative card), then deployment (1.2)."""

    stage: str = "roll"
    winner: str = ""

    def run(self, w: Work) -> None:
        if self.stage == "roll":
            w.roll("roll_off", "A", 2, ordered=True, label="set-up roll-off")
        elif self.stage == "choose":
            w.decide(self.winner, "initiative")
        elif self.stage == "zone":
            w.decide(w.initiative, "drop_zone")
        else:
            w.stack.pop()
            w.stack.append(DeployFrame.start(w))
            # Steps rule modules add between the drop zones and deployment (equipment
            # selection and set-up, 1.2), run in the order they were added.
            push_steps(w, w.ctx.hooks.setup_steps)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        winner = roll_off_winner(w, values, "set-up")
        if winner:  # a tie is rolled again (2.4)
            w.replace_top(stage="choose", winner=winner)

    def options(self, w: Work) -> list[Action]:
        if self.stage == "choose":
            return [Action("Initiative", text=p) for p in PLAYERS]
        return [Action("Drop zone", text=z) for z in sorted(w.kz.drop_zones)]

    def act(self, w: Work, a: Action) -> None:
        if self.stage == "choose":
            expect(a, ("Initiative",), "the set-up roll-off winner's choice (1.2)")
            w.initiative = a.text
            w.emit("initiative_decided", player=a.text, tp=0)
            w.replace_top(stage="zone")
            return
        expect(a, ("Drop zone",), "the initiative player's choice of drop zone (1.2)")
        if a.text not in w.kz.drop_zones:
            raise _illegal(f"the killzone has no drop zone {a.text!r}")
        zones = sorted(w.kz.drop_zones)
        rest = next(z for z in zones if z != a.text)
        w.set_pl(w.initiative, drop_zone=a.text)
        loser = other(w.initiative)
        cards = ("re-roll",) if w.ctx.options.initiative_cards else ()
        w.set_pl(loser, drop_zone=rest, cards=cards)
        for player, zone in ((w.initiative, a.text), (loser, rest)):
            edge = w.kz.drop_zone_edge(zone)
            w.emit("drop_zone_chosen", player=player, zone=zone, edge=edge, by=w.initiative)
        w.replace_top(stage="deploy")


@attrs.frozen(slots=True)
class DeployFrame:
    """Deployment in alternating thirds, initiative player first, every operative wholly
    within its drop zone with a Conceal order (1.2)."""

    turns: tuple[tuple[str, int], ...]
    pos: int = 0
    placed: int = 0

    @classmethod
    def start(cls, w: Work) -> DeployFrame:
        """The deployment turns: groups of thirds, alternating, initiative player first."""
        first = w.initiative
        n_first = sum(1 for o in w.ops if o.player == first)
        n_second = sum(1 for o in w.ops if o.player == other(first))
        return cls(deployment.alternating_thirds(first, n_first, n_second))

    def run(self, w: Work) -> None:
        if self.pos >= len(self.turns):
            w.stack.pop()
            w.stack.append(TurningPointFrame())
            return
        w.decide(self.turns[self.pos][0], "deploy")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice are rolled during deployment")

    def options(self, w: Work) -> list[Action]:
        return deployment.deploy_options(w, self.turns[self.pos][0])

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Deploy",), "deployment (1.2)")
        player, size = self.turns[self.pos]
        deployment.deploy_operative(w, a, player)
        if self.placed + 1 >= size:
            w.replace_top(pos=self.pos + 1, placed=0)
        else:
            w.replace_top(placed=self.placed + 1)


# -------------------------------------------------------------------------------------------
# Turning points (1.3, 1.4)
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class TurningPointFrame(NoChoiceFrame):
    """One turning point: Strategy phase (initiative, Ready, Gambit), Firefight phase, end:
    the turning point skeleton (:func:`engine.game.frame_skeleton.run_turning_point`) with
    the KT24 steps (:data:`KT24_TURNING_POINT`).

    Attributes:
        stage: ``"start"``, ``"ready"`` (the initiative decided: the Ready step next),
            ``"gambit"`` (the Gambit step done: the Firefight phase next), then the
            skeleton's ``"end"``, ``"tp_end"``, ``"over"``, ``"scored"``.
    """

    stage: str = "start"

    def run(self, w: Work) -> None:
        run_turning_point(w, self.stage, KT24_TURNING_POINT)


def _begin_turning_point(w: Work) -> None:
    """The Strategy phase's first step: the Initiative step (1.4)."""
    w.stack.append(InitiativeFrame())


def _ready_and_gambit(w: Work) -> None:
    """The Ready step (1.4), then the Gambit step, then the Firefight phase."""
    w.replace_top(stage="gambit")
    w.stack.append(GambitFrame(turn=w.initiative))
    # Steps rule modules add at the start of the Gambit step (the primary op, crit op
    # picks), run in the order they were added.
    push_steps(w, w.ctx.hooks.gambit_steps)
    # Steps at the end of the Ready step (after its rules, before the Gambit step's).
    push_steps(w, w.ctx.hooks.ready_end_steps)
    # Last, so a rule may push a frame at the ready_step event (the smoke markers' D3, 7.2):
    # it runs before the steps above.
    _ready_step(w)


def _ready_step(w: Work) -> None:
    """Ready step (1.4): CP gain, then ready every operative; On Guard ends (9.3)."""
    for p in PLAYERS:
        gain = 1 if w.tp == 1 or p == w.initiative else 2
        w.set_pl(p, cp=w.pl(p).cp + gain)
        w.emit("cp_gained", player=p, cp=gain, total=w.pl(p).cp)
    for o in list(w.ops):
        if o.alive:
            if o.on_guard:
                w.emit("guard_ended", op=o.id, why="a new turning point")
            w.set_op(o.id, ready=True, counteracted=False, interrupted=False, on_guard=False)
    w.emit("ready_step", tp=w.tp)


@attrs.frozen(slots=True)
class InitiativeFrame:
    """Initiative step (1.4). With the Approved Ops 2025 cards: roll off every turning point
    (no re-roll on a tie); starting with the loser, players alternate playing an initiative
    card or passing until both pass in succession; the winner decides who has initiative (a
    tie goes to the player who does not currently have it); the loser gains the card of this
    turning point (TP1-3). Without cards (core): TP1 keeps the set-up initiative; later a
    roll-off, a tie decided by the player without initiative.

    Cards (Approved Ops 2025: "+1/-1 ... modify your result"): ``+x`` adds x to, ``-x``
    subtracts x from, the playing player's *own* result (it may go above 6 or below 1; the
    opponent's result is never changed); ``re-roll`` re-rolls your die. Each card is used once.
    """

    stage: str = "roll"
    a: int = 0
    b: int = 0
    turn: str = ""
    passes: int = 0
    winner: str = ""

    def _cards(self, w: Work) -> bool:
        return w.ctx.options.initiative_cards

    def run(self, w: Work) -> None:
        if self.stage == "roll":
            if not self._cards(w) and w.tp == 1:
                w.emit("initiative_decided", player=w.initiative, tp=w.tp)
                w.stack.pop()
                return
            w.roll("roll_off", "A", 2, ordered=True, label="initiative roll-off")
        elif self.stage == "cards":
            holder_a = bool(w.pl("A").cards)
            holder_b = bool(w.pl("B").cards)
            if not holder_a and not holder_b:
                self._decide_winner(w)
                return
            w.decide(self.turn, "initiative_card")
        elif self.stage == "choose":
            w.decide(self.winner, "initiative")

    def _leader(self) -> str:
        if self.a == self.b:
            return ""
        return "A" if self.a > self.b else "B"

    def _decide_winner(self, w: Work) -> None:
        lead = self._leader()
        if not lead:
            if self._cards(w):
                lead = other(w.initiative) if w.initiative else "A"
            else:
                lead = other(w.initiative)
        w.replace_top(stage="choose", winner=lead)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        if self.stage == "reroll":
            player = self.turn
            v = values[0]
            old = self.a if player == "A" else self.b
            w.emit("dice_rerolled", player=player, old=(old,), new=(v,))
            top = w.replace_top(**{player.lower(): v}, stage="cards")
            w.replace_top(turn=other(top.turn), passes=0)
            return
        a, b = values
        w.emit("roll_off", purpose=f"initiative TP{w.tp}", a=a, b=b)
        top = w.replace_top(a=a, b=b)
        if self._cards(w):
            lead = top._leader()
            first = other(lead) if lead else (other(w.initiative) if w.initiative else "A")
            w.replace_top(stage="cards", turn=first, passes=0)
        else:
            top._decide_winner(w)

    def options(self, w: Work) -> list[Action]:
        if self.stage == "choose":
            return [Action("Initiative", text=p) for p in PLAYERS]
        out = [Action("Pass")]
        for card in w.pl(self.turn).cards:
            if card == "re-roll":
                out.append(Action("Play", text="re-roll"))
            else:
                out.append(Action("Play", text="+" + card))
                out.append(Action("Play", text="-" + card))
        return out

    def act(self, w: Work, a: Action) -> None:
        if self.stage == "choose":
            expect(a, ("Initiative",), "the roll-off winner's choice (1.4)")
            w.initiative = a.text
            w.emit("initiative_decided", player=a.text, tp=w.tp)
            if self._cards(w) and w.tp < 4:
                loser = other(self.winner)
                w.set_pl(loser, cards=tuple(sorted((*w.pl(loser).cards, str(w.tp)))))
            w.stack.pop()
            return
        expect(a, ("Pass", "Play"), "initiative cards (1.4)")
        player = self.turn
        if a.verb == "Pass":
            w.emit("passed", player=player, step="initiative cards")
            if self.passes + 1 >= 2:
                self._decide_winner(w)
            else:
                w.replace_top(turn=other(player), passes=self.passes + 1)
            return
        card = "re-roll" if a.text == "re-roll" else a.text[1:]
        held = list(w.pl(player).cards)
        if card not in held:
            raise _illegal(f"{player} does not hold the initiative card {card!r} (1.4)")
        held.remove(card)
        w.set_pl(player, cards=tuple(held))
        w.emit("initiative_card", player=player, card=a.text)
        if card == "re-roll":
            w.replace_top(stage="reroll")
            w.roll("initiative_reroll", player, 1, label="initiative re-roll")
            return
        x = int(card) if a.text.startswith("+") else -int(card)
        mine = player.lower()
        w.replace_top(**{mine: getattr(self, mine) + x}, turn=other(player), passes=0)


@attrs.frozen(slots=True)
class GambitFrame:
    """Gambit step (1.4): alternate strategic gambits (strategy ploys and the other rules
    that are strategic gambits, :mod:`engine.game.ploys` trigger ``gambit``) or passes,
    starting with the initiative player, until both pass in succession. Both players are
    always asked, even with only ``Pass`` to choose (the step is part of every turning
    point)."""

    turn: str
    passes: int = 0

    def run(self, w: Work) -> None:
        if self.passes >= 2:
            w.stack.pop()
            return
        w.decide(self.turn, "gambit")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        return [Action("Pass"), *ploys.ploy_options(w, self.turn, "gambit", {})]

    def act(self, w: Work, a: Action) -> None:
        if a.verb == "Pass":
            w.emit("passed", player=self.turn, step="gambit")
            w.replace_top(turn=other(self.turn), passes=self.passes + 1)
            return
        player = self.turn
        w.replace_top(turn=other(player), passes=0)
        ploys.use_ploy(w, player, "gambit", a, {})


# -------------------------------------------------------------------------------------------
# Firefight phase (1.5, 1.6)
# -------------------------------------------------------------------------------------------


def counteract_eligible(w: Work, player: str) -> list[str]:
    """Operatives of ``player`` that may counteract now (1.6): expended, Engage order (or a
    rule's ``would_counteract_regardless_of_order`` hook says its order does not matter), not
    counteracted this TP, no On Guard interrupt this TP."""
    any_order = "would_counteract_regardless_of_order" in w.ctx.hooks.would
    return [
        o.id
        for o in w.alive(player)
        if not o.ready
        and not o.counteracted
        and not o.interrupted
        and (
            o.order == "engage"
            or (any_order and w.would("would_counteract_regardless_of_order", False, op=o.id))
        )
    ]


def activation_refused(w: Work, op: str) -> str | None:
    """Why a rule forbids activating the ready operative ``op`` now (the
    ``would_refuse_activation`` hooks: ``fn(w, None, op=) -> why``), or ``None``."""
    if "would_refuse_activation" not in w.ctx.hooks.would:
        return None
    why: str | None = w.would("would_refuse_activation", None, op=op)
    return why


@attrs.frozen(slots=True)
class FirefightFrame:
    """Alternating activations starting with the initiative player (1.5); a player with no
    ready operatives while the opponent has some may counteract (1.6)."""

    turn: str

    def run(self, w: Work) -> None:
        mine = any(o.ready for o in w.alive(self.turn))
        theirs = any(o.ready for o in w.alive(other(self.turn)))
        if mine:
            w.decide(self.turn, "activate")
        elif theirs:
            if counteract_eligible(w, self.turn):
                w.decide(self.turn, "counteract")
            else:
                w.replace_top(turn=other(self.turn))
        else:
            w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        if any(o.ready for o in w.alive(self.turn)):
            return [
                Action("Activate", op=o.id, text=order)
                for o in w.alive(self.turn)
                if o.ready and activation_refused(w, o.id) is None
                for order in ("conceal", "engage")
                if order_refusal(w, o, order) is None
            ]
        return [Action("Pass")] + [
            Action("Counteract", op=i) for i in counteract_eligible(w, self.turn)
        ]

    def act(self, w: Work, a: Action) -> None:
        if any(o.ready for o in w.alive(self.turn)):
            expect(a, ("Activate",), f"{self.turn}'s activation (1.5)")
            o = own_operative(w, a.op, self.turn)
            if not o.ready:
                raise _illegal(f"{o.id} is expended: only ready operatives activate (1.5)")
            why = activation_refused(w, o.id)
            if why is not None:
                raise _illegal(why)
            w.replace_top(turn=other(self.turn))
            if "would_hold_activation" in w.ctx.hooks.would:
                # A rule that acts when an operative would be activated (a roll that may
                # forbid it): fn(w, None, op=, order=) -> a frame or None. The frame then
                # starts the activation (start_activation) or gives the choice
                # back to this player (this frame's ``turn``).
                held = w.would("would_hold_activation", None, op=o.id, order=a.text)
                if held is not None:
                    w.stack.append(held)
                    return
            start_activation(w, o, a.text)
            return
        expect(a, ("Counteract", "Pass"), f"{self.turn}'s counteract window (1.6)")
        w.replace_top(turn=other(self.turn))
        if a.verb == "Pass":
            w.emit("passed", player=self.turn, step="counteract")
            return
        o = own_operative(w, a.op, self.turn)
        if o.id not in counteract_eligible(w, self.turn):
            raise _illegal(
                f"{o.id} cannot counteract: it must be expended, have an Engage order, not "
                "have counteracted this turning point nor made an On Guard interrupt (1.6)"
            )
        start_counteract(w, o)


KT24_TURNING_POINT = TurningPointSteps(
    begin=_begin_turning_point,
    first="ready",
    steps={"ready": _ready_and_gambit},
    firefight_stage="gambit",
    firefight=FirefightFrame,
    next_turning_point=TurningPointFrame,
)
"""The KT24 turning point (1.3-1.5): the skeleton's parameters."""
