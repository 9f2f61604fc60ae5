"""The Kommandos' firefight ploys (``rules/KT24.md`` 7.1), registered by rule id
(``engine.rules.registry``):

- **Just A Scratch**: a normal success's damage on a friendly KOMMANDO operative (not a BOMB
  SQUIG or GROT) is ignored. Shoot: offered in the defence dice window when at least one
  normal success could go unblocked (under some allocation of saves the rules allow: the
  defender allocates after that window, :mod:`engine.game.allocation`); the first
  unblocked normal success then inflicts no damage. Fight: offered in
  the ``strike`` window of an enemy's normal strike on it; that strike inflicts no damage.
- **Kunnin' But Brutal**: a friendly KOMMANDO operative with a Conceal order fighting in an
  activation in which it performed a Charge (Throat Slittas lets it): offered in the
  ``strike`` window when the first attack die it resolves in the fight is a strike with a
  normal success (the enemy's dice, resolved first when a rule says so, do not count);
  that success is a critical one (critical damage, and Shock), through the
  ``would_strike_crit`` hook.
- **Krump 'Em**: at the end of the Firefight phase, one friendly KOMMANDO operative that can
  fight performs a free Fight.
- **Shake It Off**: when a friendly KOMMANDO operative is activated, or when its APL is
  changed (the core's ``stat_changed`` window, as the action that changed it ends: a change
  made during an action applies once it is complete, 2.1; in any activation or
  counteraction), until the start of the next turning point its player may ignore any
  change to its APL: a choice for each change it has when the ploy is used and for each
  later one as the action that made it ends (``Use shake it off`` ignores a decrease,
  ``Decline`` keeps it; ``Use keep apl increase`` keeps an increase, ``Decline`` ignores
  it); the ignored ones are taken off through ``would_change_apl``. Used as it is
  activated, its AP follow its APL as shaken off. A change begun outside any action (a
  ploy's, e.g. one used between an enemy's actions) applies at once: its window (or, with
  the ploy in effect, its choice) comes right after the change (``effect_began``). Every
  APL change is an ``"apl"`` effect on one operative: no rule of the six built-in teams
  (nor the core) changes the APL of a whole kill team at once (each names "this", "that"
  or "that enemy" operative), so no such change needs handling."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.dice.shoot import unblocked
from engine.game import universal
from engine.game.actions import Action, IllegalActionError
from engine.game.allocation import allocations
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.ploys import Ploy, op_token, ploy_installer
from engine.rules.registry import register
from teams.kommandos.common import add_token, drop_token, is_kommando, is_kommando_boy

__all__ = [
    "JUST_A_SCRATCH_PLOY",
    "KRUMP_EM_PLOY",
    "KUNNIN_BUT_BRUTAL_PLOY",
    "SHAKE_IT_OFF_PLOY",
]


# -- Just A Scratch ----------------------------------------------------------------------------

SCRATCH = "kommandos_just_a_scratch"


def _shoot_frame(w: Work) -> Any:
    from engine.game.shoot import ShootFrame

    top = w.top
    return top if isinstance(top, ShootFrame) else None


def _fight_frame(w: Work) -> Any:
    """The innermost Fight in progress (under its ``strike`` window), or None."""
    from engine.game.fight import FightFrame

    for f in reversed(w.stack):
        if isinstance(f, FightFrame):
            return f
    return None


def _striker_profile(w: Work, f: Any, op: str) -> Any:
    """The attack profile of ``op``'s side of the Fight ``f``."""
    return f.prof(w, "a" if f.attacker == op else "d")


def _shot_unblocked(w: Work, f: Any) -> tuple[int, int]:
    """The unblocked (normals, crits) of the Shoot ``f`` with its defence dice as they are
    now, under the least-damage allocation of saves (5.1 step 5)."""
    sn, sc = _shot_saves(w, f)
    prof = f.profile(w)
    d = prof.rules.dice
    return unblocked(f.normals, f.crits, sn, sc, prof.normal_damage, prof.critical_damage, d.brutal)


def _normal_can_go_unblocked(w: Work, f: Any) -> bool:
    """Whether an allocation of saves the rules allow leaves a normal success of the Shoot
    ``f`` unblocked (the defender allocates after this window, 5.1 step 5:
    :mod:`engine.game.allocation`)."""
    sn, sc = _shot_saves(w, f)
    brutal = f.profile(w).rules.dice.brutal
    return any(
        a.left(f.normals, f.crits)[0] > 0 for a in allocations(f.normals, f.crits, sn, sc, brutal)
    )


def _shot_saves(w: Work, f: Any) -> tuple[int, int]:
    """The (normal, critical) saves of the Shoot ``f`` with its defence dice as they are now
    (as the Shoot sequence counts them, 5.1 step 4)."""
    from engine.game.shoot_targets import targeting

    t = w.op(f.targets[f.idx])
    save = w.ctx.datacards[t.id].save + w.stat_change(t.id, "save")
    if f.cover and w.ctx.hooks.would.get("would_save_in_cover"):
        src = f.sight_from if f.idx == 0 and f.sight_from else f.shooter
        tg = targeting(w, w.op(src), t)
        save = w.would("would_save_in_cover", save, op=f.shooter, target=t.id, tg=tg)
    sn, sc = f.cover_saves
    crit_at = 6
    if w.ctx.hooks.would.get("would_crit_save"):
        crit_at = int(w.would("would_crit_save", 6, op=f.shooter, target=t.id))
    for v in f.dice:
        if v != 1 and v >= crit_at:
            sc += 1
        elif v != 1 and v >= max(2, save):
            sn += 1
    return sn, sc


def _scratch_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """Shoot (``defence_dice``): a normal success would go unblocked on the player's
    Kommando; Fight (``strike``): an enemy strikes it with a normal success."""
    target = str(info.get("target", ""))
    if w.ctx.owner.get(target) != player or not is_kommando_boy(w, target):
        return False
    if op_token(w, target, SCRATCH):
        return False
    if info.get("trigger") == "defence_dice":
        f = _shoot_frame(w)
        if f is None or f.profile(w).normal_damage <= 0:
            return False
        return _normal_can_go_unblocked(w, f)
    f = _fight_frame(w)
    op = str(info.get("op", ""))
    if f is None or info.get("die") != "normal" or w.ctx.owner.get(op) == player:
        return False
    return bool(_striker_profile(w, f, op).normal_damage > 0)


def _scratch(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """Arm the token on the Kommando: its next normal damage in this attack is ignored."""
    add_token(w, str(info["target"]), SCRATCH)


def _scratch_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: 1 when the damage would incapacitate the operative (the whole shot's
    unblocked damage, or the strike's), else the normal damage saved as the dice core
    weighs wounds (``DAMAGE_WEIGHT`` of its share of the operative's starting wounds)."""
    from engine.advice.values import DAMAGE_WEIGHT

    op = str(info.get("target", ""))
    if info.get("trigger") == "defence_dice":
        f = _shoot_frame(w)
        if f is None:
            return 0.0
        prof = f.profile(w)
        un, uc = _shot_unblocked(w, f)
        total = un * prof.normal_damage + uc * prof.critical_damage
    else:
        f = _fight_frame(w)
        if f is None:
            return 0.0
        prof = _striker_profile(w, f, str(info.get("op", "")))
        total = prof.normal_damage
    dmg = prof.normal_damage
    if total >= w.op(op).wounds > total - dmg:
        return 1.0
    return float(DAMAGE_WEIGHT * dmg / max(1, w.ctx.datacards[op].wounds))


JUST_A_SCRATCH_PLOY = Ploy(
    "Just A Scratch",
    "firefight",
    triggers=("defence_dice", "strike"),
    condition=_scratch_condition,
    use_hook=_scratch,
    rule_id="kommandos/firefight_ploy/just_a_scratch",
    advice=_scratch_advice,
)
"""Just A Scratch (firefight, 1CP): the damage of one normal success on a friendly KOMMANDO
operative (not a BOMB SQUIG or GROT) is ignored (module docstring for when it is
offered)."""


def install_just_a_scratch(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Just A Scratch (:data:`JUST_A_SCRATCH_PLOY`): ``would_shot_damage`` and
    ``would_strike_damage`` ignore the first normal damage on the armed Kommando; the token
    is gone when that Shoot or Fight ends."""

    def ignore(w: Work, dmg: int, **info: Any) -> int:
        target = str(info.get("target", ""))
        if info.get("crit") or not w.effects or not op_token(w, target, SCRATCH):
            return dmg
        if w.ctx.owner.get(target) not in players:
            return dmg
        drop_token(w, target, SCRATCH)
        w.emit("team_rule_used", op=target, rule="Just A Scratch", on=target)
        return 0

    def shoot_ended(w: Work, ev: Event) -> None:
        if w.effects:
            w.effects = [e for e in w.effects if not (e.kind == "token" and e.detail == SCRATCH)]

    hooks.ploy(JUST_A_SCRATCH_PLOY, players)
    hooks.transform("would_shot_damage", ignore)
    hooks.transform("would_strike_damage", ignore)
    hooks.on("shoot_ended", shoot_ended)
    hooks.on("fight_ended", shoot_ended)


# -- Kunnin' But Brutal ------------------------------------------------------------------------

KUNNIN = "kommandos_kunnin_but_brutal"
RESOLVED = "kommandos_fight_resolved"  # on a fight's attacker: a success was resolved


def _charged(w: Work, op: str) -> bool:
    """``op`` performed a Charge in the activation in progress (its own)."""
    from engine.game.universal import ActivationFrame

    for f in reversed(w.stack):
        if isinstance(f, ActivationFrame) and f.mode == "activation":
            return f.op == op and "Charge" in w.op(op).done
    return False


def _kunnin_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    """The player's KOMMANDO operative with a Conceal order, fighting in its activation in
    which it charged, strikes with a normal success as the fight's first resolution."""
    op = str(info.get("op", ""))
    if w.ctx.owner.get(op) != player or not is_kommando(w, op) or info.get("die") != "normal":
        return False
    f = _fight_frame(w)
    if f is None or f.attacker != op or w.op(op).order != "conceal":
        return False
    return _charged(w, op) and not op_token(w, op, RESOLVED)


def _kunnin(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    add_token(w, str(info["op"]), KUNNIN)


def _kunnin_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """The first strike's extra damage (critical minus normal) as the dice core weighs
    wounds, or 1 when the critical damage incapacitates the enemy and the normal would
    not."""
    from engine.advice.values import DAMAGE_WEIGHT

    f = _fight_frame(w)
    if f is None:
        return 0.0
    prof = f.prof(w, "a")
    enemy = w.op(f.defender)
    if prof.critical_damage >= enemy.wounds > prof.normal_damage:
        return 1.0
    extra = max(0, prof.critical_damage - prof.normal_damage)
    return float(DAMAGE_WEIGHT * extra / max(1, w.ctx.datacards[enemy.id].wounds))


KUNNIN_BUT_BRUTAL_PLOY = Ploy(
    "Kunnin' But Brutal",
    "firefight",
    triggers=("strike",),
    condition=_kunnin_condition,
    use_hook=_kunnin,
    rule_id="kommandos/firefight_ploy/kunnin_but_brutal",
    advice=_kunnin_advice,
)
"""Kunnin' But Brutal (firefight, 1CP): module docstring."""


def install_kunnin_but_brutal(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Kunnin' But Brutal (:data:`KUNNIN_BUT_BRUTAL_PLOY`): used in the ``strike`` window of
    the Kommando's first resolved attack die, that strike is critical
    (``would_strike_crit``). A token on the fight's attacker notes that it resolved a
    success (strike or block); the enemy's dice do not count (when a rule makes the
    defender resolve first, ``would_resolve_first``, the Kommando's first die is still
    "the first attack die" it resolves)."""

    def crit(w: Work, value: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        if value or not w.effects or not op_token(w, op, KUNNIN):
            return value
        drop_token(w, op, KUNNIN)
        w.emit("team_rule_used", op=op, rule="Kunnin' But Brutal", on=str(info.get("target")))
        return True

    def resolved(w: Work, ev: Event) -> None:
        f = _fight_frame(w)
        if f is None or w.ctx.owner.get(f.attacker) not in players:
            return
        if ev.get("op") != f.attacker:
            return  # the enemy's die (resolved first by a rule): not the Kommando's first
        if is_kommando(w, f.attacker) and not op_token(w, f.attacker, RESOLVED):
            add_token(w, f.attacker, RESOLVED)

    def ended(w: Work, ev: Event) -> None:
        if w.effects:
            gone = (KUNNIN, RESOLVED)
            w.effects = [e for e in w.effects if not (e.kind == "token" and e.detail in gone)]

    hooks.ploy(KUNNIN_BUT_BRUTAL_PLOY, players)
    hooks.transform("would_strike_crit", crit)
    hooks.on("strike", resolved)
    hooks.on("block", resolved)
    hooks.on("fight_ended", ended)


# -- Krump 'Em ---------------------------------------------------------------------------------


def _can_fight(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """A friendly KOMMANDO operative with an enemy to fight (within its control range)."""
    from engine.game.fight import fight_targets

    return is_kommando(w, op) and bool(fight_targets(w, w.op(op)))


def _krump(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    universal.start_free_action(w, action.target, ("Fight",))


def _krump_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb: a fight is worth a third of the enemy it can reach that has the fewest
    wounds left relative to the operative's best melee damage (at most 0.5)."""
    from engine.game.fight import fight_targets

    o = w.op(action.target)
    best = max((p.critical_damage for _, _, p in universal.weapons_of(w, o.id, "melee")), default=0)
    value = 0.0
    for t in fight_targets(w, o):
        value = max(value, min(1.0, best * 2 / max(1, t.wounds)) / 3)
    return min(0.5, value)


KRUMP_EM_PLOY = Ploy(
    "Krump 'Em",
    "firefight",
    triggers=("firefight_end",),
    target="friendly",
    eligible=_can_fight,
    use_hook=_krump,
    rule_id="kommandos/firefight_ploy/krump_em",
    advice=_krump_advice,
)
"""Krump 'Em (firefight, 1CP): at the end of the Firefight phase, one friendly KOMMANDO
operative (that has an enemy to fight) performs a free Fight. ``Ploy krump 'em on KOM-3``."""


# -- Shake It Off ------------------------------------------------------------------------------

SHAKE = "kommandos_shake_it_off"
AP_VALUE = 0.2


def _raw_apl_change(w: Work, op: str) -> int:
    return max(-1, min(1, w.stat_change(op, "apl")))


def _shake_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """A friendly KOMMANDO operative not yet shaking it off: the one activated (trigger
    ``activation_start``), or the one whose APL just changed (``stat_changed``, ``apl``)."""
    if not is_kommando(w, op) or op_token(w, op, SHAKE) or op != info.get("op"):
        return False
    return info.get("trigger") == "activation_start" or info.get("stat") == "apl"


def _sig(e: Effect) -> str:
    """An APL change's signature (what tells it from the others on the operative; not its
    duration, which the core turns to the activation in progress as it begins)."""
    return f"{e.source}/{e.value}/{e.detail}"


def _apl_effects(w: Work, op: str) -> list[Effect]:
    return [e for e in w.effects if e.kind == "apl" and e.op == op and not e.pending and e.value]


def ask_shake(w: Work, op: str) -> None:
    """A choice for each APL change on ``op`` (shaking it off) not decided yet: ignore it or
    keep it (``Use shake it off`` ignores a decrease; ``Use keep apl increase`` keeps an
    increase, ``Decline`` ignores it)."""
    for e in _apl_effects(w, op):
        sig = _sig(e)
        if op_token(w, op, f"{SHAKE} decided {sig}"):
            continue
        w.effects.append(Effect("token", op, "end_tp", source=op, detail=f"{SHAKE} decided {sig}"))
        w.stack.append(
            RuleChoiceFrame(
                player=w.ctx.owner[op],
                rule=SHAKE_IT_OFF if e.value < 0 else KEEP_INCREASE,
                key=_SHAKE_KEY,
                op=op,
                candidates=(),
                data=(("sig", sig), ("increase", e.value > 0)),
                targeted=False,
            )
        )


def _shake_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """Ignore the change (a decrease used, an increase declined): a token naming it."""
    if bool(chosen) == bool(frame.get("increase")):
        return
    before = w.apl(w.op(frame.op))
    detail = f"{SHAKE} ignore {frame.get('sig')}"
    w.effects.append(Effect("token", frame.op, "end_tp", source=frame.op, detail=detail))
    if op_token(w, frame.op, _SHAKE_AP):
        # Used as it was activated: the AP it got from its APL follow the APL shaken off.
        o = w.op(frame.op)
        w.set_op(frame.op, ap=max(0, o.ap + w.apl(o) - before))


def _shake(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The token until the end of the turning point; then the choice for each APL change it
    has (used as the operative is activated, the AP an ignored decrease took are given back
    and those an ignored increase gave are taken)."""
    op = action.target
    w.effects.append(Effect("token", op, "end_tp", source=op, detail=SHAKE))
    if info.get("trigger") == "activation_start":
        w.effects.append(Effect("token", op, "end_activation", source=op, detail=_SHAKE_AP))
    ask_shake(w, op)


def _shake_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """0.2 operatives (an action point) when the operative's APL is lowered now, else
    nothing."""
    return AP_VALUE if _raw_apl_change(w, action.target) < 0 else 0.0


SHAKE_IT_OFF = "Shake It Off"
KEEP_INCREASE = "Keep APL increase"
_SHAKE_KEY = "kommandos_shake_it_off"
_SHAKE_AP = "kommandos_shake_it_off_ap"

SHAKE_IT_OFF_PLOY = Ploy(
    SHAKE_IT_OFF,
    "firefight",
    triggers=("activation_start", "stat_changed"),
    target="friendly",
    eligible=_shake_eligible,
    use_hook=_shake,
    rule_id="kommandos/firefight_ploy/shake_it_off",
    advice=_shake_advice,
)
"""Shake It Off (firefight, 1CP): when a friendly KOMMANDO operative is activated, or when
its APL changes (the ``stat_changed`` window, as the action that changed it ends, in any
activation or counteraction; right after a change begun outside any action), until the
start of the next turning point its player may ignore each change to its APL (module
docstring). ``Ploy shake it off on KOM-3``."""


def install_shake_it_off(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Shake It Off (:data:`SHAKE_IT_OFF_PLOY`): the ``would_change_apl`` hook (the changes
    chosen to be ignored are taken off), a choice for each later APL change (as the action
    that made it ends, or right after it when begun outside an action: ``effect_began``,
    which also opens the ploy's ``stat_changed`` window for such a change) and, used as the
    operative is activated, its AP set to its APL as shaken off (the AP it got from an
    ignored change given back or taken)."""

    def ignored(w: Work, op: str) -> int:
        return sum(
            e.value for e in _apl_effects(w, op) if op_token(w, op, f"{SHAKE} ignore {_sig(e)}")
        )

    def apl(w: Work, change: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if w.ctx.owner.get(op) not in players or not op_token(w, op, SHAKE):
            return change
        return change - ignored(w, op)

    def ended(w: Work, ev: Event) -> None:
        for e in list(w.effects):
            mine = e.kind == "token" and w.ctx.owner.get(e.op) in players
            if mine and e.detail == SHAKE and w.op(e.op).alive:
                ask_shake(w, e.op)

    def began(w: Work, ev: Event) -> None:
        # A change begun outside any action (a ploy's, between actions) applies at once: its
        # window now (one begun during an action waits for its end, ``action_ended`` and
        # the core's ``stat_changed`` window).
        op = str(ev.get("op") or "")
        if ev.get("effect") != "apl" or w.ctx.owner.get(op) not in players or w.in_action():
            return
        if not is_kommando(w, op) or not w.op(op).alive:
            return
        if op_token(w, op, SHAKE):
            w.defer_frame(_AskShake(op))
        else:
            w.defer_window("stat_changed", op=op, stat="apl")

    hooks.ploy(SHAKE_IT_OFF_PLOY, players)
    hooks.transform("would_change_apl", apl)
    hooks.on("action_ended", ended)
    hooks.on("effect_began", began)


@attrs.frozen(slots=True)
class _AskShake:
    """Shake It Off's choices for a change begun outside an action (:func:`ask_shake`)."""

    op: str

    def run(self, w: Work) -> None:
        w.stack.pop()
        ask_shake(w, self.op)

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - never a decision
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - never a decision
        raise IllegalActionError("nothing to decide here (Shake It Off)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here (Shake It Off)")


on_choice(_SHAKE_KEY, _shake_chosen)
register(
    "kommandos/firefight_ploy/just_a_scratch",
    install_just_a_scratch,
    "A normal success's damage on a Kommando (not a squig or grot) is ignored.",
)
register(
    "kommandos/firefight_ploy/kunnin_but_brutal",
    install_kunnin_but_brutal,
    "A concealed Kommando that charged: its first strike with a normal success is critical.",
)
register(
    "kommandos/firefight_ploy/krump_em",
    ploy_installer(KRUMP_EM_PLOY),
    "At the end of the Firefight phase, one Kommando performs a free Fight.",
)
register(
    "kommandos/firefight_ploy/shake_it_off",
    install_shake_it_off,
    "When a Kommando is activated: its APL decreases are ignored until the next TP.",
)
