"""What every action of an activation shares (``rules/KT24.md`` 1.5, 1.6, 3.1, 3.2, 9.3): the
operatives an action may name, AP costs (printed, changed by rules, free actions), once per
activation, same-activation exclusions, the control-range and order conditions
(:func:`precheck`, :func:`rule_precheck`), paying for an action (:func:`spend`), and the
:class:`UniversalAction` shape each universal action takes (:func:`declare` enters it in the
tables). The frames (Shoot, Fight) and the actions build on it; it imports no action.

Refusals are worded in the battle's ruleset's terms (:class:`Wording`, :func:`wording`): the
core's texts say "control range" and cite ``rules/KT24.md`` sections (:data:`KT24_WORDING`);
a ruleset whose edition names them otherwise gives its own wording through the
``refusal_wording`` hook (KT21: Engagement Range, ``rules/KT21.md`` 7.2). The wording is looked
up only when a refusal is worded.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

import attrs

from engine.game import rule_actions
from engine.game.actions import (
    MOVE_VERBS,
    Action,
    IllegalActionError,
)
from engine.game.state import OperativeState
from engine.game.weapons import shoots_in_control_range, weapons_of
from engine.game.work import Work
from engine.geometry.movement import ReachMemo

__all__ = [
    "ACTION_COST",
    "ACTION_FAMILY",
    "EXCLUDES",
    "IN_CR_REFUSED",
    "KT24_WORDING",
    "OUT_OF_CR_REFUSED",
    "WORDING_CHECKS",
    "Activity",
    "Listing",
    "UniversalAction",
    "Wording",
    "action_cost",
    "added_ap",
    "added_ap_problem",
    "charge_in_control_range",
    "cite",
    "declare",
    "enemy_operative",
    "family_of",
    "not_free",
    "order_refusal",
    "own_operative",
    "precheck",
    "precheck_reasons",
    "rule_precheck",
    "rule_precheck_reasons",
    "spend",
    "wording",
]


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


WORDING_CHECKS = (
    "removed",
    "not_free",
    "ap",
    "rule_ap",
    "once",
    "excludes",
    "interrupt",
    "in_range",
    "shoot_in_range",
    "fall_back",
    "fight",
    "conceal_charge",
    "heavy",
    "not_on_killzone",
    "free_granted",
    "no_destination",
    "no_target",
    "not_an_action",
    "no_such_action",
    "no_path",
    "charge_reach",
)
"""The checks of the shared core whose refusals cite a rule section (:class:`Wording`)."""


def _read_only(sections: Mapping[str, str]) -> Mapping[str, str]:
    """A read-only copy of ``sections``."""
    return MappingProxyType(dict(sections))


@attrs.frozen(slots=True)
class Wording:
    """How the shared core's refusals name a ruleset's terms and rule sections (module
    docstring). Only read when a refusal is worded (:func:`wording`).

    Attributes:
        control_range: the term for the 1" distance within which an enemy bars or allows
            actions (KT24: ``"control range"``, ``rules/KT24.md`` 3.2; KT21:
            ``"Engagement Range"``, ``rules/KT21.md`` 7.2).
        sections: the section each check cites (a key of :data:`WORDING_CHECKS` -> the text
            in the refusal's closing brackets: KT24 ``"1.5, 3.2"``, KT21
            ``"rules/KT21.md 3.1, 6.1"``).
        geometry: ``(KT24 words, own words)`` pairs that reword a movement query's refusal
            (:meth:`geometry_text`; KT24: none).

    Raises:
        ValueError: ``sections`` does not give exactly the checks of :data:`WORDING_CHECKS`
            (naming the missing and the unknown ones).
    """

    control_range: str
    sections: Mapping[str, str] = attrs.field(converter=_read_only)
    geometry: tuple[tuple[str, str], ...] = ()

    def __attrs_post_init__(self) -> None:
        missing = sorted(set(WORDING_CHECKS) - set(self.sections))
        unknown = sorted(set(self.sections) - set(WORDING_CHECKS))
        if missing or unknown:
            raise ValueError(
                f"a refusal wording must cite a section for each check: missing {missing}, "
                f"unknown {unknown}"
            )

    def cite(self, check: str) -> str:
        """The section the refusal of ``check`` (a key of :data:`WORDING_CHECKS`) cites."""
        return self.sections[check]

    def geometry_text(self, text: str) -> str:
        """A movement query's refusal (:class:`engine.geometry.MoveError`, worded by the
        geometry in KT24's terms and sections) in this wording: each ``(KT24 words, own
        words)`` pair of ``geometry`` replaced in order (KT24: none, the text unchanged)."""
        for old, new in self.geometry:
            text = text.replace(old, new)
        return text


KT24_WORDING = Wording(
    control_range="control range",
    sections={
        "removed": "2.3",
        "not_free": "3.1",
        "ap": "1.5, 3.2",
        "rule_ap": "1.5",
        "once": "1.5",
        "excludes": "3.2",
        "interrupt": "9.3",
        "in_range": "3.2",
        "shoot_in_range": "3.2",
        "fall_back": "3.2",
        "fight": "3.2",
        "conceal_charge": "1.5, 3.2",
        "heavy": "6 Heavy",
        "not_on_killzone": "3.1",
        "free_granted": "3.1",
        "no_destination": "3.2",
        "no_target": "4.5, 5.1",
        "not_an_action": "3.2",
        "no_such_action": "3.1",
        "no_path": "3.2, 3.3",
        "charge_reach": "3.2",
    },
)
"""The core's own wording: KT24's terms and ``rules/KT24.md`` sections."""


def wording(w: Work) -> Wording:
    """The wording of the battle's refusals (:class:`Wording`): :data:`KT24_WORDING` through
    the ``refusal_wording`` hooks (a ruleset's rule module gives its own). Asked only when a
    refusal is worded, never while an action is merely checked and found legal."""
    if "refusal_wording" not in w.ctx.hooks.would:
        return KT24_WORDING
    found: Wording = w.would("refusal_wording", KT24_WORDING)
    return found


def cite(w: Work, check: str) -> str:
    """The section the battle's refusal of ``check`` (a key of :data:`WORDING_CHECKS`) cites,
    in its wording (:func:`wording`): KT24 ``"3.2"``, KT21 ``"rules/KT21.md 6.1"``."""
    return wording(w).cite(check)


def own_operative(w: Work, op_id: str, player: str) -> OperativeState:
    """The operative ``op_id`` of ``player``, on the killzone or waiting to be set up.

    Raises:
        IllegalActionError: unknown id, another player's operative, or removed.
    """
    if op_id not in w.ctx.index:
        raise _illegal(f"there is no operative {op_id!r}")
    o = w.op(op_id)
    if o.player != player:
        raise _illegal(f"{op_id} belongs to {o.player}, not {player}")
    if o.incapacitated or (not o.placed and w.phase != "setup"):
        raise _illegal(f"{op_id} has been incapacitated and removed ({cite(w, 'removed')})")
    return o


def enemy_operative(w: Work, op_id: str, of: str) -> OperativeState:
    """An enemy of player ``of`` on the killzone (raises IllegalActionError otherwise)."""
    if op_id not in w.ctx.index:
        raise _illegal(f"there is no operative {op_id!r}")
    o = w.op(op_id)
    if o.player == of:
        raise _illegal(f"{op_id} is a friendly operative, not an enemy")
    if not o.alive:
        raise _illegal(f"{op_id} is not on the killzone")
    return o


ACTION_COST: dict[str, int] = {}
"""The printed AP cost of each universal action, by verb (3.2, 9.3; :func:`declare`)."""
ACTION_FAMILY: dict[str, str] = {}
"""Actions "treated as" another for once per activation and Heavy (9.3; :func:`declare`)."""
EXCLUDES: dict[str, tuple[str, ...]] = {}
"""3.2: the actions each cannot be performed with in the same activation (:func:`declare`)."""


def declare(action: UniversalActionT) -> UniversalActionT:
    """Enter the universal action ``action`` (:class:`UniversalAction`) in the tables the
    bookkeeping reads (:data:`ACTION_COST`, :data:`ACTION_FAMILY`, :data:`EXCLUDES`) and
    return it. Each universal action's module declares its action once, at import (the core's
    in :mod:`engine.game.universal`, the Close Quarters ones in their rule module).

    Raises:
        ValueError: another action with that verb is declared already."""
    if action.verb in ACTION_COST:
        raise ValueError(f"the universal action {action.verb!r} is declared twice")
    ACTION_COST[action.verb] = action.ap
    if action.family:
        ACTION_FAMILY[action.verb] = action.family
    if action.excludes:
        EXCLUDES[action.verb] = action.excludes
    return action


@attrs.frozen(slots=True)
class Listing:
    """What the listing of one operative's actions from one position shares between the
    universal actions (:meth:`UniversalAction.options`).

    Attributes:
        in_cr: the operative is within an enemy's control range.
        ruled_out: the verbs :func:`precheck` refuses by control range alone
            (:data:`IN_CR_REFUSED` or :data:`OUT_OF_CR_REFUSED`): not asked.
        memo: the movement checks the four move actions share from this position.
        destinations: list complete actions (as a rule asking whether one exists needs):
            each move action at its destinations, each Shoot at each weapon and target,
            rather than as a header, its destination (the ``destination`` decision) or its
            weapon and target (``attack_target``) chosen next (the activation's listing).
        unavailable: move verbs found to have no destination from this position in this
            choice (the activation frame's marks after ``Back``): not listed.
    """

    in_cr: bool
    ruled_out: frozenset[str]
    memo: ReachMemo
    destinations: bool = False
    unavailable: tuple[str, ...] = ()


class UniversalAction:
    """A universal action (3.2, 9.3) as the activation frames see it: its notation ``verb``,
    printed ``ap`` cost, the action it counts as (``family``, for once per activation and
    Heavy; ``""``: itself), the actions it cannot be performed with in the same activation
    (``excludes``, 3.2), and whether performing it leaves On Guard to itself (``keeps_guard``:
    a move ends it only if it moves, Guard sets it). Subclasses give :meth:`options` and
    :meth:`perform`; :func:`declare` enters the action in the bookkeeping tables."""

    __slots__ = ("ap", "excludes", "family", "keeps_guard", "verb")

    def __init__(
        self,
        verb: str,
        ap: int,
        *,
        family: str = "",
        excludes: tuple[str, ...] = (),
        keeps_guard: bool = False,
    ) -> None:
        self.verb = verb
        self.ap = ap
        self.family = family
        self.excludes = excludes
        self.keeps_guard = keeps_guard

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.verb!r})"

    def options(self, w: Work, o: OperativeState, mode: str, at: Listing) -> Iterator[Action]:
        """The listed actions of this kind of ``o`` now, in ``mode`` (``"activation"``,
        ``"counteract"``, ``"interrupt"`` or ``"free"``), each checked legal (its
        :func:`precheck` included)."""
        raise NotImplementedError

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Carry out ``a`` (its :func:`precheck` passed; the target checks are the action's,
        and it spends the AP with :func:`spend`).

        Raises:
            IllegalActionError: naming the rule that forbids it."""
        raise NotImplementedError


UniversalActionT = TypeVar("UniversalActionT", bound=UniversalAction)


class Activity:
    """Base of the frames in which an operative acts (activation, counteraction, On Guard
    interrupt, free action: :class:`engine.game.universal.activation.ActivationFrame`), so
    that the frames below them can find them on the stack without importing them.

    Attributes:
        op: the acting operative (given by the subclass).
    """

    __slots__ = ()
    op: str


def family_of(verb: str) -> str:
    """The action ``verb`` counts as for once per activation and Heavy (9.3: Guard is a
    Shoot, Hatchway Fight a Fight; :data:`ACTION_FAMILY`), else ``verb`` itself."""
    return ACTION_FAMILY.get(verb, verb)


def added_ap(w: Work, o: OperativeState, verb: str, target: str = "") -> int:
    """The AP a rule adds to ``o``'s action ``verb`` (a verb or rule action name) now, on
    ``target`` (the marker of a Pick Up Marker; ``""``: the action as such), through the
    ``would_add_action_ap`` hooks (``op``, ``action``, ``target``; from 0), never below 0.
    Such an action cannot be free and its AP cannot be reduced: it is not allowed where it
    would cost nothing (a counteraction, an interrupt, a free action outside an activation),
    and its cost ignores free-action effects and reductions (e.g. Pick Up Marker on an
    objective marker in the crit op Energy Cells, ``rules/KT24.md`` 8.3)."""
    if "would_add_action_ap" not in w.ctx.hooks.would:
        return 0
    return max(0, int(w.would("would_add_action_ap", 0, op=o, action=verb, target=target)))


def action_cost(
    w: Work,
    o: OperativeState,
    verb: str,
    ap: int,
    mode: str,
    target: str = "",
    paying: bool = False,
) -> int:
    """What ``o`` pays for an action of printed cost ``ap`` (its ``verb`` or rule action
    name): nothing in a counteraction, an interrupt or a free action outside its activation
    (1.6, 9.3, 3.1), nothing when an effect makes it free (3.1); otherwise the printed cost
    through the ``would_cost_action`` hooks (``op``, ``action``: the verb or rule action
    name; e.g. the Breaching Charge, 7.2), never below 0. AP a rule adds
    (:func:`added_ap`) come on top of the printed cost; that action is then never free and
    its cost never below the printed cost plus the added AP (on ``target``, as there).
    ``paying`` (passed to the hooks): the cost is being paid now (:func:`spend`), not only
    asked; a rule whose discount is used once may note its use then."""
    if mode != "activation":
        return 0
    extra = added_ap(w, o, verb, target)
    if not extra and w.effects and rule_actions.free_action_effect(w, o, verb):
        return 0
    if "would_cost_action" in w.ctx.hooks.would:
        hooked = max(0, int(w.would("would_cost_action", ap, op=o, action=verb, paying=paying)))
        return max(hooked, ap) + extra if extra else hooked
    return ap + extra


def not_free(
    w: Work, o: OperativeState, verb: str, name: str, mode: str, target: str = ""
) -> str | None:
    """Why ``o`` cannot perform ``verb`` (on ``target``) in ``mode`` because a rule adds AP
    to it that cannot be free (:func:`added_ap`), or ``None``."""
    if mode == "activation":
        return None
    extra = added_ap(w, o, verb, target)
    if not extra:
        return None
    return (
        f"{name} costs {extra}AP more now and cannot be free: only in an activation "
        f"({cite(w, 'not_free')})"
    )


def added_ap_problem(w: Work, o: OperativeState, verb: str, mode: str, target: str) -> str | None:
    """Why ``o`` cannot perform the universal action ``verb`` on ``target`` because of AP a
    rule adds for that target (:func:`added_ap`): not free, and the AP to pay; or ``None``."""
    if "would_add_action_ap" not in w.ctx.hooks.would:
        return None
    why = not_free(w, o, verb, verb, mode, target)
    if why is not None:
        return why
    due = action_cost(w, o, verb, ACTION_COST[verb], mode, target)
    if mode == "activation" and o.ap < due:
        return f"{verb} {target} costs {due}AP and {o.id} has {o.ap}AP left ({cite(w, 'ap')})"
    return None


def rule_precheck(w: Work, o: OperativeState, act: Any, mode: str) -> str | None:
    """Why the rule action ``act`` (:class:`engine.game.rule_actions.RuleActionLike`) cannot
    be performed by ``o`` now as far as the bookkeeping goes (AP, once per activation, its
    family's exclusions; a counteraction is one 1AP action, an interrupt only Shoot or
    Fight), or ``None``: the first of :func:`rule_precheck_reasons`; the action checks its
    own conditions."""
    return next(rule_precheck_reasons(w, o, act, mode), None)


def rule_precheck_reasons(w: Work, o: OperativeState, act: Any, mode: str) -> Iterator[str]:
    """Every reason :func:`rule_precheck` has to refuse the rule action ``act`` now, in its
    order (the game stops at the first; ``killteam explain`` lists them all)."""
    if mode == "counteract" and act.ap != 1:
        yield f"a counteraction is one 1AP action ({act.name} costs {act.ap}AP, 1.6)"
    if mode == "interrupt":
        yield f"an On Guard interrupt is one free Shoot or Fight ({cite(w, 'interrupt')})"
        return
    why = not_free(w, o, act.text, act.name, mode)
    if why is not None:
        yield why
    cost = action_cost(w, o, act.text, act.ap, mode)
    if mode == "activation" and o.ap < cost:
        yield f"{act.name} costs {cost}AP and {o.id} has {o.ap}AP left ({cite(w, 'rule_ap')})"
    again = act.text in o.done and not _repeat_allowed(w, o, act.text, mode)
    if again or (act.family and any(family_of(d) == act.family for d in o.done)):
        # (A rule may allow it again: the ``would_repeat_action`` hooks, ``action`` its name.)
        yield (
            f"{o.id} already performed {act.name} this activation: once per activation "
            f"({cite(w, 'once')})"
        )
    for ex in EXCLUDES.get(act.family, ()):
        if ex in o.done:
            yield (
                f"{act.name} cannot be performed in the same activation as {ex} "
                f"({cite(w, 'excludes')})"
            )
            break
    if w.ctx.hooks.would.get("would_refuse_action"):
        # A rule that forbids the action now (``action`` is its notation name here).
        refused: str | None = w.would(
            "would_refuse_action", None, op=o.id, action=act.text, rule_action=act
        )
        if refused:
            yield refused


def _repeat_allowed(w: Work, o: OperativeState, fam: str, mode: str) -> bool:
    """A rule lets ``o`` perform the action ``fam`` again in this activation (the
    ``would_repeat_action`` hooks: ``op``, ``action``, ``mode``, ``done``; from False)."""
    if "would_repeat_action" not in w.ctx.hooks.would:
        return False
    return bool(w.would("would_repeat_action", False, op=o.id, action=fam, mode=mode, done=o.done))


def _charges_concealed(w: Work, o: OperativeState) -> bool:
    """A rule lets ``o`` Charge while it has a Conceal order (the ``would_charge_concealed``
    hooks: ``fn(w, False, op=) -> bool``)."""
    if "would_charge_concealed" not in w.ctx.hooks.would:
        return False
    return bool(w.would("would_charge_concealed", False, op=o.id))


def order_refusal(w: Work, o: OperativeState, order: str) -> str | None:
    """Why ``o`` cannot be given ``order`` when its order is determined at its activation
    (a rule's ``would_refuse_order`` hooks: ``fn(w, None, op=, order=) -> reason``), or
    ``None``."""
    if "would_refuse_order" not in w.ctx.hooks.would:
        return None
    refused: str | None = w.would("would_refuse_order", None, op=o.id, order=order)
    return refused


def charge_in_control_range(w: Work, o: OperativeState) -> bool:
    """A rule lets ``o`` perform the Charge action while within control range of an enemy
    operative, and leave that control range to do so (the ``would_allow_charge_in_control_range``
    hooks: ``fn(w, False, op=) -> bool``); the Charge must still finish within an enemy's
    control range."""
    if not w.ctx.hooks.would.get("would_allow_charge_in_control_range"):
        return False
    return bool(w.would("would_allow_charge_in_control_range", False, op=o.id))


def precheck(
    w: Work, o: OperativeState, verb: str, mode: str, in_cr: bool | None = None
) -> str | None:
    """Why ``verb`` cannot be performed by ``o`` now (AP, once per activation, exclusions,
    control range, order), or ``None``: the first of :func:`precheck_reasons`.
    Target-specific checks come later.

    Args:
        mode: ``"activation"``, ``"counteract"`` or ``"interrupt"``.
        in_cr: whether ``o`` is within an enemy's control range, if already known."""
    return next(precheck_reasons(w, o, verb, mode, in_cr), None)


def precheck_reasons(
    w: Work, o: OperativeState, verb: str, mode: str, in_cr: bool | None = None
) -> Iterator[str]:
    """Every reason :func:`precheck` has to refuse ``verb`` for ``o`` now, in the order it
    checks them (the game stops at the first; ``killteam explain`` lists them all, so both
    read the same conditions). Each is worked out only when the one before has been
    consumed. Arguments as :func:`precheck`."""
    cost = ACTION_COST.get(verb)
    if cost is None:
        yield f"unknown action {verb!r}"
        return
    if mode == "counteract":
        if cost != 1:
            yield f"a counteraction is one 1AP action ({verb} costs {cost}AP, 1.6)"
        if verb == "Guard":
            yield "Guard cannot be chosen as a counteraction (1.6, 9.3)"
    elif mode == "interrupt":
        if family_of(verb) not in ("Shoot", "Fight") or verb == "Guard":
            yield f"an On Guard interrupt is one free Shoot or Fight ({cite(w, 'interrupt')})"
    elif mode == "activation":
        due = action_cost(w, o, verb, cost, mode)
        if o.ap < due:
            yield f"{verb} costs {due}AP and {o.id} has {o.ap}AP left ({cite(w, 'ap')})"
    if mode != "activation":
        why = not_free(w, o, verb, verb, mode)
        if why is not None:
            yield why
    fam = family_of(verb)
    hooks = w.ctx.hooks.would
    if any(family_of(d) == fam for d in o.done) and not _repeat_allowed(w, o, fam, mode):
        yield (
            f"{o.id} already performed {fam} this activation: once per activation "
            f"({cite(w, 'once')})"
        )
    if hooks.get("would_refuse_action"):
        # A rule that forbids an action now (no move after a team's repeated Shoot).
        refused: str | None = w.would("would_refuse_action", None, op=o.id, action=verb)
        if refused:
            yield refused
    for ex in EXCLUDES.get(verb, ()):
        if ex in o.done:
            yield (
                f"{verb} cannot be performed in the same activation as {ex} ({cite(w, 'excludes')})"
            )
            break
    if in_cr is None:
        in_cr = w.in_enemy_control_range(o)
    # (iter_action_options does not ask for the verbs refused below by control range alone,
    # IN_CR_REFUSED and OUT_OF_CR_REFUSED: keep those sets in step with these checks)
    if (
        verb in ("Reposition", "Dash", "Charge", "Pick up")
        and in_cr
        and (verb != "Charge" or not charge_in_control_range(w, o))
    ):
        # (a rule may let an operative Charge from there: charge_in_control_range)
        t = wording(w)
        yield (
            f"{verb} cannot be performed within {t.control_range} of an enemy operative "
            f"({t.cite('in_range')})"
        )
    if (
        verb == "Shoot"
        and in_cr
        and mode != "interrupt"
        and not any(shoots_in_control_range(w, o, p) for _, _, p in weapons_of(w, o.id, "ranged"))
    ):
        t = wording(w)
        yield (
            f"Shoot cannot be performed within {t.control_range} of an enemy operative "
            f"({t.cite('shoot_in_range')})"
        )
    if verb == "Fall Back" and not in_cr:
        t = wording(w)
        yield f"Fall Back needs an enemy operative within {t.control_range} ({t.cite('fall_back')})"
    if verb == "Charge" and o.order != "engage" and not _charges_concealed(w, o):
        yield f"an operative with a Conceal order cannot Charge ({cite(w, 'conceal_charge')})"
    if verb == "Fight" and not in_cr:
        t = wording(w)
        yield f"Fight needs an enemy operative within {t.control_range} ({t.cite('fight')})"
    if verb in MOVE_VERBS and o.heavy_shot and o.heavy_only != verb:
        yield (f"{o.id} used a Heavy weapon this activation and cannot {verb} ({cite(w, 'heavy')})")


IN_CR_REFUSED = frozenset(("Reposition", "Dash", "Pick up"))
"""The actions :func:`precheck` always refuses within an enemy's control range (3.2)."""


OUT_OF_CR_REFUSED = frozenset(("Fall Back", "Fight"))
"""The actions :func:`precheck` always refuses outside every enemy's control range (3.2)."""


def spend(
    w: Work,
    o: OperativeState,
    verb: str,
    mode: str,
    ap: int | None = None,
    family: str = "",
    target: str = "",
) -> OperativeState:
    """Pay the action's AP (nothing in a counteraction, interrupt or free action, 1.6, 9.3,
    3.1; an effect may make it free; AP a rule adds for ``target``, :func:`added_ap`) and
    note it as done this activation (1.5; a rule action also as the universal action it
    counts as, ``family``)."""
    printed = ACTION_COST[verb] if ap is None else ap
    cost = action_cost(w, o, verb, printed, mode, target, paying=True)
    if mode == "activation" and cost == 0 and printed and w.effects:
        rule_actions.use_free_action_effect(w, o, verb)
    done = (*w.op(o.id).done, verb) + ((family,) if family else ())
    return w.set_op(o.id, ap=w.op(o.id).ap - cost, done=done)
