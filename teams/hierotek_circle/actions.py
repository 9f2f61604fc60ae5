"""The Hierotek Circle's unique actions (registered by rule id in ``engine.rules.registry``):
Reanimate (Plasmacyte Reanimator), Accelerate (Plasmacyte Accelerator), Multi-Dimensional
Vision (Deathmark), the Technomancer's Augment Weapon, Canoptek Repair and Reinforce Metal,
and Interstitial Command (Chronomancer, Psychomancer, Technomancer, Immortal Despotek).

Each is a :class:`engine.game.rule_actions.RuleActionLike` with an ``advice`` (value in
operatives, :mod:`engine.agents.advice`); the operatives that have it are those whose
datacard prints it, and an APPRENTEK for its CRYPTEK's actions
(:func:`teams.hierotek_circle.common.performs`, Apprentek Assistance).
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs

from engine.dice.rules import WeaponRules, parse_weapon_rules
from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.choices import RuleRollFrame, on_roll
from engine.rules.effects import cannot_be_obscured
from engine.rules.effects import unobscure as unobscure
from engine.rules.medic import heal_roll
from engine.rules.registry import register
from engine.rules.unique_actions import PlainAction, SelectingAction, UniqueAction
from teams.hierotek_circle import reanimation
from teams.hierotek_circle.common import (
    APPRENTEK,
    CRYPTEK,
    add_until_next,
    end_until_next,
    has_keyword,
    performs,
    support_targets,
    until_next,
)

SUPPORT_RANGE = 6.0


class _HierotekAction(UniqueAction):
    """Who performs these actions: an operative whose datacard prints it, or an APPRENTEK
    its CRYPTEK's (:func:`teams.hierotek_circle.common.performs`); none within control
    range of an enemy operative."""

    __slots__ = ()

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """``o`` has no such unique action."""
        if not performs(w, o, self.name):
            return f"{o.id} has no {self.name} unique action"
        return None


# -- Reanimate (Plasmacyte Reanimator) --------------------------------------------------------

_REANIMATE_ROLL = "hierotek_reanimate"
REANIMATE_RANGE = 6.0


def reanimate_targets(w: Work, o: OperativeState) -> list[str]:
    """The operatives whose Reanimation markers of ``o``'s player are visible to and within
    6" of ``o`` (id order)."""
    here = w.place(o)
    out = []
    for tok in reanimation.reanimation_markers(w, o.player):
        there = reanimation.marker_place(tok)
        if w.distance(here, there) <= REANIMATE_RANGE + 1e-6 and w.ctx.visible(w.kz, here, there):
            out.append(reanimation.marker_operative(tok))
    return sorted(out, key=lambda i: w.ctx.index[i])


def _room(w: Work, op: str) -> bool:
    tok = reanimation.marker_of(w, op)
    return tok is not None and bool(reanimation.return_spots(w, op, tok))


@attrs.frozen(slots=True)
class Reanimate(_HierotekAction, SelectingAction):
    """Reanimate (Plasmacyte Reanimator, 1AP; our words): select one of its player's
    Reanimation markers visible to and within 6" of it and roll one D6: on a 3+ that
    marker's operative is REANIMATED (:mod:`.reanimation`: set up within 3" of the marker,
    not within an enemy's control range, 1 wound, order of the player's choice); for 1 more
    AP (2AP, ``sure``) it is REANIMATED without a roll. It is set up expended when it was
    already expended (activated) this turning point, else ready. Not while within control
    range of an enemy operative. Notation ``Act <op> reanimate on <marker's operative>``
    and ``Act <op> reanimate 2ap on <...>`` (the two are one action: once per activation).
    When the operative cannot be set up anywhere the 2AP version does nothing (legal: no
    printed condition forbids it; not offered); a 3+ with no room does nothing."""

    sure: bool = False
    name: str = "Reanimate"
    text: str = "reanimate"
    ap: int = 1
    family: str = "Reanimate"

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """The operatives of its Reanimation markers in reach."""
        return reanimate_targets(w, o)

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """The 2AP version for an operative that cannot be set up anywhere does nothing."""
        if self.sure and not _room(w, target):
            return f"{target} cannot be set up near its Reanimation marker (Reanimate)"
        return None

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Reanimate selects one of your Reanimation markers visible to and within "
            f'{REANIMATE_RANGE:g}" of {o.id}'
        )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an operative back (1 wound; it also takes a kill grade off the
        opponent) is worth 0.6 of an operative; 1AP: with the 3+ chance (2/3) that is 0.4;
        2AP: 0.6, less the 0.15 of the other action point it costs."""
        return 0.45 if self.sure else 0.4

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Roll the D6 (1AP), or return the operative at once (2AP)."""
        ready = not reanimation.activated_this_tp(w, a.target)
        if self.sure:
            if self.idle_target(w, o, a.target) is None:
                reanimation.start_return(w, a.target, ready=ready, source=self.name)
            return
        w.stack.append(
            RuleRollFrame(
                player=o.player,
                rule=self.name,
                key=_REANIMATE_ROLL,
                op=o.id,
                dice=1,
                label=f"Reanimate ({a.target})",
                data=(("target", a.target), ("ready", ready)),
            )
        )


def _reanimate_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    target = str(frame.get("target"))
    w.emit("reanimation_roll", player=frame.player, op=target, roll=values[0])
    if values[0] >= 3:
        reanimation.start_return(w, target, ready=bool(frame.get("ready")), source="Reanimate")


on_roll(_REANIMATE_ROLL, _reanimate_rolled)
REANIMATE = Reanimate()
REANIMATE_SURE = Reanimate(sure=True, text="reanimate 2ap", ap=2)


def install_reanimate(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Reanimate (class docstring)."""
    hooks.action(REANIMATE, players)
    hooks.action(REANIMATE_SURE, players)


# -- Accelerate (Plasmacyte Accelerator) ------------------------------------------------------

ACCELERATED = ("DEATHMARK", "IMMORTAL")


@attrs.frozen(slots=True)
class Accelerate(_HierotekAction, SelectingAction):
    """Accelerate (Plasmacyte Accelerator, 1AP; our words): a friendly DEATHMARK or IMMORTAL
    operative visible to and within 6" of it adds 1 to its APL until the end of its next
    activation. Not while within control range of an enemy operative. Notation
    ``Act <op> accelerate on <friend>``."""

    name: str = "Accelerate"
    text: str = "accelerate"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Friendly DEATHMARK and IMMORTAL operatives in reach."""
        return [
            f.id
            for f in support_targets(w, o, SUPPORT_RANGE, other=True)
            if any(has_keyword(w, f.id, k) for k in ACCELERATED)
        ]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Accelerate selects a friendly DEATHMARK or IMMORTAL operative visible "
            f'to and within {SUPPORT_RANGE:g}" of {o.id}'
        )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb (as Battle Comms): an action point for a friend is worth 0.15 of an
        operative while it is still to activate this turning point, 0.05 otherwise; nothing
        when its APL is already raised (changes are capped at +1, 2.1)."""
        t = w.op(a.target)
        if w.apl(t) > w.ctx.datacards[t.id].apl:
            return 0.0
        return 0.15 if t.ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """APL +1 on the friend until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=1))


ACCELERATE = Accelerate()


def install_accelerate(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Accelerate (class docstring)."""
    hooks.action(ACCELERATE, players)


# -- Multi-Dimensional Vision (Deathmark) -----------------------------------------------------

MDV = "multi_dimensional_vision"


@attrs.frozen(slots=True)
class MultiDimensionalVision(_HierotekAction, PlainAction):
    """Multi-Dimensional Vision (Deathmark, 1AP; our words): until the start of its next
    activation, whenever it is shooting, enemy operatives cannot be obscured. Not while
    within control range of an enemy operative. Notation ``Act <op> multi-dimensional
    vision``. Trigger: the core's ``would_target`` and ``would_be_obscured`` hooks while
    the token lasts (``engine.rules.effects.cannot_be_obscured``: smoke does not obscure
    either)."""

    name: str = "Multi-Dimensional Vision"
    text: str = "multi-dimensional vision"
    ap: int = 1
    family: str = ""

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb (as Optics): 0.15 of an operative when an enemy it could shoot is
        obscured now and it has AP left to shoot after it (0.05 otherwise); nothing when the
        token is already there or no enemy is obscured."""
        from engine.game.shoot_targets import targeting

        if until_next(w, o.id, MDV):
            return 0.0
        if not any(targeting(w, o, e).obscured for e in w.enemies_of(o.id)):
            return 0.0
        return 0.15 if o.ap >= 2 else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """A token on the operative until the start of its next activation."""
        add_until_next(w, o.id, o.id, MDV, exclusive=False)


MULTI_DIMENSIONAL_VISION = MultiDimensionalVision()


def install_multi_dimensional_vision(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Multi-Dimensional Vision (class docstring)."""

    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if not tg.obscured or w.ctx.owner.get(op) not in players:
            return tg
        return unobscure(tg) if until_next(w, op, MDV) else tg

    hooks.action(MULTI_DIMENSIONAL_VISION, players)
    hooks.on("activated", lambda w, ev: end_until_next(w, str(ev["op"])))
    cannot_be_obscured(hooks, unobscured)  # (by terrain and by smoke alike)


# -- Augment Weapon (Technomancer) ------------------------------------------------------------

AUGMENT = "augment_weapon"  # until-next token; value unused; see _AUG_DETAIL
AUGMENT_RULES = ("Lethal 5+", "Rending", "Saturate", "Severe")
_AUGMENT_PAIRS = tuple(itertools.combinations(AUGMENT_RULES, 2))


def _weapon_choices(w: Work, op: str) -> list[tuple[str, str]]:
    """``(kind, weapon name)`` for each weapon on ``op``'s datacard (a weapon with ranged and
    melee profiles counts as two: the rules go on one of them)."""
    out = []
    for wp in w.ctx.datacards[op].weapons:
        key = (wp.kind, " ".join(wp.name.lower().split()))
        if key not in out:
            out.append(key)
    return out


def _augment_text(kind: str, weapon: str, pair: tuple[str, str]) -> str:
    return f"augment {kind} {weapon} with {pair[0].lower()} and {pair[1].lower()}"


@attrs.frozen(slots=True)
class AugmentWeapon(_HierotekAction, SelectingAction):
    """Augment Weapon (Technomancer, 1AP, SUPPORT; our words): select a friendly HIEROTEK
    CIRCLE operative visible to and within 6" of it; until the start of the Technomancer's
    next activation, until the friend is incapacitated or until a friendly operative
    performs this action again, one weapon of the friend's datacard (its ranged or its
    melee profile) has two of Lethal 5+, Rending, Saturate and Severe. Not while within
    control range of an enemy operative. Notation ``Act <op> augment weapon on <friend>``,
    then the player's decision ``Use augment <ranged|melee> <weapon> with <rule> and
    <rule> on <friend>`` (kind ``"team_rule"``)."""

    name: str = "Augment Weapon"
    text: str = "augment weapon"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Friendly HIEROTEK CIRCLE operatives in reach (itself too)."""
        return [f.id for f in support_targets(w, o, SUPPORT_RANGE)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Augment Weapon selects a friendly HIEROTEK CIRCLE operative visible to "
            f'and within {SUPPORT_RANGE:g}" of {o.id}'
        )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: two weapon rules for a friend still to act this turning point are
        worth 0.15 of an operative (0.05 when it has acted); an armed enemy within 12" of
        the friend is needed for it to matter (else nothing)."""
        t = w.op(a.target)
        near = any(w.distance(w.place(t), w.place(e)) <= 12.0 for e in w.enemies_of(t.id))
        if not near:
            return 0.0
        return 0.15 if t.ready or t.id == o.id else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The player chooses the weapon and the two rules (:class:`AugmentFrame`)."""
        w.stack.append(AugmentFrame(source=o.id, target=a.target))


@attrs.frozen(slots=True)
class AugmentFrame:
    """The Augment Weapon choice (class :class:`AugmentWeapon`)."""

    source: str
    target: str

    def _choices(self, w: Work) -> dict[str, tuple[str, str, tuple[str, str]]]:
        return {
            _augment_text(k, n, p): (k, n, p)
            for k, n in _weapon_choices(w, self.target)
            for p in _AUGMENT_PAIRS
        }

    def run(self, w: Work) -> None:
        w.decide(w.ctx.owner[self.source], "team_rule")

    def options(self, w: Work) -> list[Action]:
        return [Action("Use", target=self.target, text=t) for t in self._choices(w)]

    def act(self, w: Work, a: Action) -> None:
        got = self._choices(w).get(a.text)
        if a.verb != "Use" or a.target != self.target or got is None:
            raise IllegalActionError(
                f"{a}: choose the weapon and two rules ('Use augment ranged <weapon> with "
                f"<rule> and <rule> on {self.target}')"
            )
        kind, weapon, pair = got
        w.stack.pop()
        detail = f"{AUGMENT}|{kind}|{weapon}|{pair[0]}, {pair[1]}"
        # One Augment Weapon per player at a time: the earlier one ends.
        player = w.ctx.owner[self.source]
        w.effects = [
            e
            for e in w.effects
            if not (e.detail.startswith(AUGMENT + "|") and w.ctx.owner[e.source] == player)
        ]
        add_until_next(w, self.target, self.source, detail)
        w.emit("weapon_augmented", op=self.target, weapon=weapon, profile=kind, rules=list(pair))

    def advice(self, w: Work, a: Action) -> float:
        """The agent's rule of thumb for a choice (``Use augment ...``): the weapon the friend
        will likely use (melee when an enemy is within 3" of it, else ranged; a kind it lacks
        is taken as the other) weighted by its attacks times its damage; each rule worth
        Lethal 5+ 3, Severe 2, Rending 2, Saturate 1, and nothing when the profile has it
        already (Rending and Severe 1 with Lethal, whose crits they need less)."""
        got = self._choices(w).get(a.text)
        if got is None:
            return 0.0
        kind, weapon, pair = got
        t = w.op(self.target)
        close = any(w.distance(w.place(t), w.place(e)) <= 3.0 for e in w.enemies_of(t.id))
        kinds = {k for k, _ in _weapon_choices(w, self.target)}
        want = "melee" if close else "ranged"
        if want not in kinds:
            want = kind
        profs = [
            p
            for n, wp, p in universal.weapons_of(w, self.target, kind)
            if " ".join(wp.name.lower().split()) == weapon
        ]
        if not profs:
            return 0.0
        prof = max(profs, key=lambda p: p.attacks * p.normal_damage)
        has = {r.name for r in prof.rules}
        worth = {"Lethal": 3.0, "Severe": 2.0, "Rending": 2.0, "Saturate": 1.0}
        value = 0.0
        for spec in pair:
            name = spec.split()[0]
            if name in has:
                continue
            v = worth.get(name, 1.0)
            if name in ("Rending", "Severe") and ("Lethal" in has or "Lethal 5+" in pair):
                v = 1.0
            value += v
        scale = prof.attacks * prof.normal_damage / 10.0
        return value * scale * (1.0 if kind == want else 0.1)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("Augment Weapon rolls no dice")


AUGMENT_WEAPON = AugmentWeapon()


def augmented_rules(w: Work, op: str, kind: str, name: str) -> WeaponRules | None:
    """The weapon rules Augment Weapon gives ``op``'s weapon ``name`` of ``kind`` now."""
    base = name.split(" (")[0].strip()
    for e in w.effects:
        if e.op != op or not e.detail.startswith(AUGMENT + "|") or e.pending:
            continue
        _, k, weapon, rules = e.detail.split("|")
        if k == kind and weapon == base:
            return parse_weapon_rules(rules)
    return None


def install_augment_weapon(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Augment Weapon (class docstring). Trigger: ``would_use_weapon_rules``."""

    def gain(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        op = str(info.get("op", ""))
        if w.ctx.owner.get(op) not in players or not w.effects:
            return rules
        extra = augmented_rules(w, op, str(info.get("kind", "")), str(info.get("weapon", "")))
        if extra is None:
            return rules
        return rules.with_rules(*(r for r in extra.rules if not rules.has(type(r))))

    hooks.action(AUGMENT_WEAPON, players)
    hooks.on("activated", lambda w, ev: end_until_next(w, str(ev["op"])))
    hooks.transform("would_use_weapon_rules", gain)


# -- Canoptek Repair (Technomancer) -----------------------------------------------------------

_REPAIR_ROLL = "hierotek_canoptek_repair"
_REPAIR_TP = "canoptek_repair_tp"  # player count: the TP it was last performed


@attrs.frozen(slots=True)
class CanoptekRepair(_HierotekAction, SelectingAction):
    """Canoptek Repair (Technomancer, 1AP, SUPPORT; our words): a friendly HIEROTEK CIRCLE
    operative visible to and within 6" of it (itself included) regains up to 2D3 lost
    wounds. Not while within control range of an enemy operative, nor when a friendly
    operative already performed it this turning point. Notation ``Act <op> canoptek repair
    on <friend>``; only friends that have lost wounds are offered (one that has lost none may
    be selected: nothing is rolled, and the action is still performed this turning
    point)."""

    name: str = "Canoptek Repair"
    text: str = "canoptek repair"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Friendly HIEROTEK CIRCLE operatives in reach (itself too)."""
        return [f.id for f in support_targets(w, o, SUPPORT_RANGE)]

    def idle_target(self, w: Work, o: OperativeState, target: str) -> str | None:
        """An operative that has lost no wounds regains none."""
        if w.op(target).wounds >= w.ctx.datacards[target].wounds:
            return f"{target} has lost no wounds (Canoptek Repair)"
        return None

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Canoptek Repair selects a friendly HIEROTEK CIRCLE operative visible to and "
            f'within {SUPPORT_RANGE:g}" of {o.id}'
        )

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Once per turning point for the player."""
        if w.count(o.player, _REPAIR_TP) == w.tp:
            return "a friendly operative already performed Canoptek Repair this turning point"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """The wounds expected back (2D3: 4 on average, at most those lost) valued as wounds
        dealt are (:func:`engine.advice.values.heal_value`)."""
        from engine.advice.values import heal_value

        return heal_value(w, a.target)

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Roll the 2D3 (two D6 halved, rounded up)."""
        w.count(o.player, _REPAIR_TP, w.tp - w.count(o.player, _REPAIR_TP))
        if self.idle_target(w, o, a.target) is None:
            heal_roll(w, o, self.name, _REPAIR_ROLL, a.target)


def _repair_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    target = str(frame.get("target"))
    if w.op(target).alive:
        reanimation.heal(w, target, sum((v + 1) // 2 for v in values), "Canoptek Repair", frame.op)


on_roll(_REPAIR_ROLL, _repair_rolled)
CANOPTEK_REPAIR = CanoptekRepair()


def install_canoptek_repair(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Canoptek Repair (class docstring)."""
    hooks.action(CANOPTEK_REPAIR, players)


# -- Reinforce Metal (Technomancer) -----------------------------------------------------------

REINFORCED = "reinforce_metal"


@attrs.frozen(slots=True)
class ReinforceMetal(_HierotekAction, SelectingAction):
    """Reinforce Metal (Technomancer, 1AP, SUPPORT; our words): select a friendly HIEROTEK
    CIRCLE operative visible to and within 6" of it (itself included); until the start of
    the Technomancer's next activation, until the friend is incapacitated or until a
    friendly operative performs this action again, whenever an attack dice inflicts 3 or
    more damage on it, that damage is 1 less. Not while within control range of an enemy
    operative. Notation ``Act <op> reinforce metal on <friend>``. Trigger: the core's
    ``would_shot_damage``, ``would_strike_damage`` and ``would_devastating_damage`` hooks
    (per attack die; Devastating x is damage a critical attack die inflicts)."""

    name: str = "Reinforce Metal"
    text: str = "reinforce metal"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Friendly HIEROTEK CIRCLE operatives in reach (itself too)."""
        return [f.id for f in support_targets(w, o, SUPPORT_RANGE)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Reinforce Metal selects a friendly HIEROTEK CIRCLE operative visible "
            f'to and within {SUPPORT_RANGE:g}" of {o.id}'
        )

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.1 of an operative on a friend an enemy can see within 12" (it
        will likely be attacked before the Technomancer acts again), 0.02 otherwise; nothing
        when it already has it."""
        t = w.op(a.target)
        if until_next(w, t.id, REINFORCED):
            return 0.0
        here = w.place(t)
        seen = any(
            w.distance(here, w.place(e)) <= 12.0 and w.ctx.visible(w.kz, w.place(e), here)
            for e in w.enemies_of(t.id)
        )
        return 0.1 if seen else 0.02

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The token on the friend (an earlier Reinforce Metal of the player ends)."""
        add_until_next(w, a.target, o.id, REINFORCED)


REINFORCE_METAL = ReinforceMetal()


def install_reinforce_metal(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Reinforce Metal (class docstring)."""

    def less(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if dmg >= 3 and w.ctx.owner.get(target) in players and until_next(w, target, REINFORCED):
            return dmg - 1
        return dmg

    hooks.action(REINFORCE_METAL, players)
    hooks.on("activated", lambda w, ev: end_until_next(w, str(ev["op"])))
    hooks.transform("would_shot_damage", less)
    hooks.transform("would_strike_damage", less)
    hooks.transform("would_devastating_damage", less)


# -- Interstitial Command (Chronomancer, Psychomancer, Technomancer, Immortal Despotek) --------

DESPOTEK = "DESPOTEK"
_IC = "interstitial_command"  # effect kind on the selected operative during its free action
_DID = "did_tp:"  # player count f"did_tp:{op}:{action}": the TP op last performed it
_BANNED = "ic_banned:"  # player count f"ic_banned:{op}:{action}": TP it may not repeat it
IC_MOVE = 2.0
_ONE_AP = ("Reposition", "Dash", "Charge", "Shoot", "Fight", "Pick up", "Place marker")


def _set(w: Work, player: str, key: str, value: int) -> None:
    w.count(player, key, value - w.count(player, key))


@attrs.frozen(slots=True)
class InterstitialCommand(_HierotekAction, SelectingAction):
    """Interstitial Command (Chronomancer, Psychomancer, Technomancer, Immortal Despotek;
    1AP, SUPPORT; our words): select another friendly HIEROTEK CIRCLE operative (not an
    APPRENTEK or CRYPTEK) visible to and within 6" of it, or (a CRYPTEK's) within 6" of a
    friendly DESPOTEK visible to it; that operative at once performs a 1AP action for free
    (not Accelerate), moving or being set up no more than 2", neither an action it already
    performed this turning point nor, afterwards, that action again this turning point. Not
    while within control range of an enemy operative, nor while counteracting. Notation
    ``Act <op> interstitial command on <friend>``; the friend then chooses among the
    actions offered (or ``End activation``: none). The 1AP actions are the universal ones
    costing 1AP (Reposition, Dash, Charge, Shoot, Fight, Pick Up, Place Marker) and its
    1AP unique actions."""

    name: str = "Interstitial Command"
    text: str = "interstitial command"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """Other friendly operatives it may select (class docstring)."""
        reach = support_targets(w, o, SUPPORT_RANGE, other=True)
        ids = {f.id for f in reach}
        if has_keyword(w, o.id, CRYPTEK) or has_keyword(w, o.id, APPRENTEK):
            # Or within 6" of a friendly DESPOTEK visible to it (at any distance).
            from engine.rules.equipment.markers import support_distance

            d = support_distance(w, o.id, SUPPORT_RANGE)
            here = w.place(o)
            for desp in w.friends_of(o.id):
                if has_keyword(w, desp.id, DESPOTEK) and w.ctx.visible(w.kz, here, w.place(desp)):
                    there = w.place(desp)
                    for f in w.friends_of(o.id):
                        if f.id == desp.id or w.distance(there, w.place(f)) <= d + 1e-6:
                            ids.add(f.id)
        return sorted(
            (
                i
                for i in ids
                if i != o.id
                and not has_keyword(w, i, APPRENTEK)
                and not has_keyword(w, i, CRYPTEK)
                and has_keyword(w, i, "HIEROTEK CIRCLE")
                and allowed_actions(w, w.op(i), rule=False)
            ),
            key=lambda i: w.ctx.index[i],
        )

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return (
            "Interstitial Command selects another friendly HIEROTEK CIRCLE operative "
            f'(not APPRENTEK or CRYPTEK) visible to and within {SUPPORT_RANGE:g}" of '
            f"{o.id} that has a 1AP action left to perform this turning point"
        )

    def why_not(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Not while counteracting, then the usual conditions."""
        if mode == "counteract":
            return f"{o.id} cannot perform Interstitial Command while counteracting"
        return _HierotekAction.why_not(self, w, o, mode)

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: a free action for a friend is worth 0.2 of an operative when it
        can shoot now (Shoot allowed and an enemy is a valid target), else 0.05."""
        t = w.op(a.target)
        if "Shoot" in allowed_actions(w, t, rule=False):
            from engine.game.shoot_targets import shoot_options

            if next(iter(shoot_options(w, t, "free")), None) is not None:
                return 0.2
        return 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The friend's free action (:func:`engine.game.universal.start_free_action`)."""
        t = w.op(a.target)
        w.effects.append(Effect(_IC, t.id, "end_tp", source=o.id))
        universal.start_free_action(w, t.id, allowed_actions(w, t), max_move=IC_MOVE)


def allowed_actions(w: Work, o: OperativeState, *, rule: bool = True) -> tuple[str, ...]:
    """The actions ``o`` may perform through Interstitial Command now (class docstring):
    universal 1AP verbs and the notation names of the 1AP rule actions it could perform now
    (listed), less Accelerate and those it performed this turning point."""
    texts = tuple(
        act.text
        for act, players in w.ctx.hooks.actions
        if rule
        and o.player in players
        and act.ap == 1
        and act.name != "Accelerate"
        and act.options(w, o, "free")
    )
    return tuple(v for v in (*_ONE_AP, *texts) if w.count(o.player, f"{_DID}{o.id}:{v}") != w.tp)


def install_interstitial_command(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Interstitial Command (class docstring). Trigger: ``action_ended`` (what each friendly
    operative performed this turning point; the free action's action barred for the rest
    of the turning point) and ``would_refuse_action``."""

    def ended(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        player = w.ctx.owner[op]
        if player not in players:
            return
        o = w.op(op)
        for d in o.done:
            _set(w, player, f"{_DID}{op}:{d}", w.tp)
        if ev.get("mode") == "free" and any(e.kind == _IC and e.op == op for e in w.effects):
            w.effects = [e for e in w.effects if not (e.kind == _IC and e.op == op)]
            for d in o.done:
                _set(w, player, f"{_BANNED}{op}:{d}", w.tp)

    def refuse(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info.get("op", ""))
        if why is not None or w.ctx.owner.get(op) not in players:
            return why
        action = str(info.get("action", ""))
        if w.count(w.ctx.owner[op], f"{_BANNED}{op}:{action}") == w.tp:
            return f"{op} performed {action} through Interstitial Command this turning point"
        return why

    hooks.action(INTERSTITIAL_COMMAND, players)
    hooks.on("action_ended", ended)
    hooks.transform("would_refuse_action", refuse)


INTERSTITIAL_COMMAND = InterstitialCommand()

add_template(
    "weapon_augmented",
    lambda e: f"  {e['op']}'s {e['weapon']} ({e['profile']}) gains {' and '.join(e['rules'])}",
)
add_template("reanimation_roll", lambda e: "")

register(
    "hierotek_circle/unique_action/reanimate",
    install_reanimate,
    'Plasmacyte Reanimator, 1AP: a marker within 6" returns its operative on 3+ (2AP: '
    "surely); expended if it had activated.",
)
register(
    "hierotek_circle/unique_action/accelerate",
    install_accelerate,
    'Plasmacyte Accelerator, 1AP: a Deathmark or Immortal within 6" gets APL +1 for its '
    "next activation.",
)
register(
    "hierotek_circle/unique_action/multi_dimensional_vision",
    install_multi_dimensional_vision,
    "Deathmark, 1AP: until its next activation, its targets cannot be obscured.",
)
register(
    "hierotek_circle/unique_action/augment_weapon",
    install_augment_weapon,
    "Technomancer, 1AP: a friend's weapon gains two of Lethal 5+, Rending, Saturate, Severe "
    "until its next activation.",
)
register(
    "hierotek_circle/unique_action/canoptek_repair",
    install_canoptek_repair,
    'Technomancer, 1AP, once per turning point: a friend within 6" regains 2D3 wounds.',
)
register(
    "hierotek_circle/unique_action/reinforce_metal",
    install_reinforce_metal,
    "Technomancer, 1AP: until its next activation, a friend takes 1 less damage from attack "
    "dice of 3 or more.",
)
register(
    "hierotek_circle/unique_action/interstitial_command",
    install_interstitial_command,
    'Cryptek or Despotek, 1AP: another friend performs a free 1AP action (at most 2" of '
    "movement), once per action per turning point.",
)
