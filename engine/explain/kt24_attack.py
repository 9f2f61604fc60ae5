"""What ``attack ATTACKER WEAPON TARGET [with DEFWEAPON]`` reads under KT24
(:data:`KT24_ATTACK`, given to the one attack explanation
:func:`engine.explain.attack.explain_attack` by :mod:`engine.explain.editions`): what this
shot or fight will do, exactly, and the rules applied in order (``rules/KT24.md`` 5.1 shoot,
5.2 fight, 4.5 cover and obscured, 4.7 Vantage, 6 weapon rules, 2.3 injured, 9.3
point-blank).

Built from the calls the Shoot and Fight sequences make: the attack profile
(:func:`engine.game.attacks.attack_profile`, with the hooks that add or remove weapon rules
and change Hit, Atk and Dmg), cover and obscured (:func:`engine.game.shoot_targets.targeting`,
:func:`engine.game.choices.same_feature_options` with the defender's default, the
``would_be_obscured`` hooks), Vantage (:func:`engine.geometry.sight.vantage_accuracy`,
:func:`~engine.geometry.sight.vantage_improves_cover`, combined as
:class:`engine.game.shoot.ShootFrame` does), the Save with its changes, the assists of a fight
(:func:`engine.game.fight.assists`); then the exact distribution of the dice core
(:func:`engine.dice.shoot.shoot`, :func:`engine.dice.fight.fight`) with the players' choices as
it makes them (the best cover save, optimal fight resolution). For a shot, the rules acting
after the dice (critical saves on lower rolls, saves retained unrolled, per-die and total
damage changes, Devastating damage changes) are in the distribution
(:mod:`engine.explain.after_dice`, tested equal to the game's own chance outcomes); those it
cannot include, the after-dice rules of a fight and the ploys offered in the dice windows
(a player's choice on the dice) are listed as not in the distribution: a rule the
explanation does not model is reported, never silently left out. ``with DEFWEAPON`` names
the melee weapon the defender retaliates with (else its first usable one).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from engine.dice.fight import fight
from engine.dice.profile import AttackProfile, Fighter, Target
from engine.dice.rules import Accurate
from engine.dice.shoot import shoot
from engine.explain.after_dice import (
    NOT_INCLUDED,
    after_dice_steps,
    dice_window_ploys,
    fight_after_dice,
    sequence_state,
    shot_distribution,
)
from engine.explain.attack import AttackQuery, AttackRules, Outcome, shot_answer, shot_summary
from engine.explain.common import find_query_weapon, op_box
from engine.explain.hooks import trace_would
from engine.explain.ruling import Drawing, QueryError, Step
from engine.game import attacks
from engine.game import fight as fight_action
from engine.game.choices import same_feature_options
from engine.game.shoot_targets import point_blank_shot, targeting
from engine.game.weapons import weapon_usable, weapons_of
from engine.game.work import Work
from engine.geometry import sight

__all__ = ["KT24_ATTACK", "NOT_MODELLED"]

#: *would* hooks of the Shoot sequence that act after the dice: asked on typical values when
#: no position is given (then listed as not in the distribution when they change something);
#: with one, only :data:`engine.explain.after_dice.NOT_INCLUDED` is listed so.
NOT_MODELLED = (
    "would_crit_save",
    "would_shot_damage",
    "would_shot_total_damage",
    "would_retain_defence_normal",
    "would_save_without_cover",
    "would_retain_both_cover_saves",
)


def _profile_text(p: AttackProfile) -> str:
    rules = ", ".join(r.format() for r in p.rules) or "no weapon rules"
    return f"A{p.attacks} {p.hit}+ {p.normal_damage}/{p.critical_damage} ({rules})"


def _pmf(p: Any) -> list[dict[str, Any]]:
    return [
        {"damage": k, "probability": float(v), "exact": str(Fraction(v))}
        for k, v in p.to_fractions().items()
    ]


def _mode(w: Work, op: str) -> str:
    for f in reversed(w.stack):
        if getattr(f, "op", None) == op and isinstance(getattr(f, "mode", None), str):
            return str(f.mode)
    return "activation"


def _prelude(q: AttackQuery, data: dict[str, Any]) -> list[Step]:
    """The weapon's usability (6) and the effects in force (:func:`_effects`)."""
    del data
    w, o = q.w, q.attacker
    steps: list[Step] = []
    usable = weapon_usable(w, o, q.weapon, q.profile)
    if usable:
        steps.append(Step("weapon usable", "no", usable, "6", "weapon rule"))
    steps += _effects(w, (o.id, q.target.id))
    return steps


def _effects(w: Work, ops: tuple[str, ...]) -> list[Step]:
    """The effects in force on the attacker or the target, or on their whole kill teams
    (ploys, team rules, tokens: 2.1, 7.1), one step each; the profile and Save the steps
    below use already read them."""
    players = {w.ctx.owner[op] for op in ops}
    out = []
    for e in w.effects:
        if not (e.op in ops or (not e.op and e.player in players)):
            continue
        who = e.op or f"player {e.player}'s kill team"
        value = f" {e.value}" if e.value else ""
        out.append(
            Step(
                "effect in force",
                f"{e.kind}{value}",
                f"{e.kind}{value} on {who} until {e.until}"
                + (f" ({e.detail})" if e.detail else "")
                + (f", caused by {e.source}" if e.source else ""),
                "2.1, 7.1",
                "rule",
            )
        )
    return out


def _weapon_steps(
    w: Work,
    o: Any,
    name: str,
    card: Any,
    prof: AttackProfile,
    injured: bool,
    kind: str,
    target: str,
) -> list[Step]:
    """The weapon's profile as the attack uses it (:func:`engine.game.attacks.attack_profile`)
    and the rules that changed it: the hooks it asks run one by one with its arguments."""
    steps = [
        Step(
            "weapon",
            name,
            f"{o.id}'s {kind} weapon {name}: {_profile_text(prof)}",
            "2.2, 6",
            "weapon rule",
        )
    ]
    info = {"op": o.id, "weapon": name, "kind": kind}
    asks: list[tuple[str, str, Any, dict[str, Any]]] = [
        ("weapon rules", "would_use_weapon_rules", card.rules, {**info, "target": target}),
        ("Hit", "would_change_hit", 0, {**info, "target": target, "injured": injured}),
        ("Atk", "would_change_attacks", card.attacks, {**info, "target": target}),
        ("Dmg", "would_change_damage", (card.normal_damage, card.critical_damage), info),
    ]
    for what, hook, value, kw in asks:
        if hook == "would_change_hit" and not target:
            continue
        _, changes = trace_would(w, hook, value, **kw)
        for c in changes:
            if hook == "would_use_weapon_rules":
                before = {r.format() for r in c.before}
                after = {r.format() for r in c.after}
                said = ", ".join(
                    [
                        *(f"+{r}" for r in sorted(after - before)),
                        *(f"-{r}" for r in sorted(before - after)),
                    ]
                )
            else:
                said = f"{c.before} -> {c.after}"
            steps.append(
                Step(
                    f"{what} changed",
                    said,
                    f"a rule in force changes the weapon's {what}",
                    "6" if hook == "would_use_weapon_rules" else "2.1",
                    c.source,
                    c.by,
                )
            )
    if injured:
        steps.append(Step("injured", "Hit +1", f"{o.id} is injured: its Hit is worse by 1", "2.3"))
    return steps


def _shoot(q: AttackQuery, steps: list[Step], data: dict[str, Any]) -> Outcome:
    """The shot's steps and distribution (module docstring)."""
    w, o, t, name, state = q.w, q.attacker, q.target, q.weapon, q.state
    card = q.profile
    injured = w.injury_penalties(o)
    pb = point_blank_shot(w, o, _mode(w, o.id))
    prof = attacks.attack_profile(
        w, o, name, "ranged", hit_change=1 if pb else 0, injured=injured, target=t.id
    )
    steps += _weapon_steps(w, o, name, card, prof, injured, "ranged", t.id)
    if pb:
        steps.append(Step("point-blank", "Hit +1", "an On Guard shot within control range", "9.3"))
    kz = w.kz
    po, pt = w.place(o), w.place(t)
    tg = targeting(w, o, t)
    d = prof.rules.dice
    opts = same_feature_options(tg, not d.saturate and d.piercing < 3)
    _, cover, obscured = opts[0]
    feats = ", ".join(kz.features[f] for f in sorted(tg.cover_features)) or "none"
    steps.append(
        Step(
            "in cover",
            "yes" if cover else "no",
            f"features giving cover: {feats}"
            + (
                " (the defender's default: obscured where one feature gives both)"
                if len(opts) > 1
                else ""
            ),
            "4.5",
        )
    )
    seen, changes = trace_would(w, "would_be_obscured", obscured, op=o.id, target=t.id)
    if seen and not obscured:
        obscured = True
        steps.append(
            Step(
                "obscured by a rule",
                "yes",
                "a rule obscures the target (smoke...)",
                "6, 7.2",
                changes[-1].source,
                changes[-1].by,
            )
        )
    ofeats = ", ".join(kz.features[f] for f in sorted(tg.obscuring_features)) or "none"
    steps.append(
        Step(
            "obscured",
            "yes" if obscured else "no",
            f"features obscuring: {ofeats}"
            + (
                "; one normal success is discarded and critical successes count as normal"
                if obscured
                else ""
            ),
            "4.5",
        )
    )
    improved = cover and sight.vantage_improves_cover(kz, po, pt, t.order)
    if improved:
        steps.append(
            Step(
                "improved cover",
                "yes",
                'a Conceal target 2"+ below a shooter on Vantage: its cover save is improved',
                "4.7",
            )
        )
    vantage = sight.vantage_accuracy(kz, po, pt, t.order)
    wacc = d.accurate
    accurate = max(wacc, vantage, min(2, wacc + vantage)) if vantage else wacc
    accurate = min(accurate, prof.attacks)
    if vantage:
        steps.append(
            Step(
                "Vantage",
                f"Accurate {vantage}",
                f"{o.id} on Vantage above an Engage target: Accurate {vantage} "
                f"(with the weapon's, Accurate {accurate})",
                "4.7",
            )
        )
    if accurate != wacc:
        kept = tuple(r for r in prof.rules if not isinstance(r, Accurate))
        prof = attrs.evolve(prof, rules=type(prof.rules)(kept).with_rules(Accurate(accurate)))
    if cover and not improved:
        better, changes = trace_would(w, "would_improve_cover_save", False, op=o.id, target=t.id)
        if better:
            improved = True
            steps.append(
                Step(
                    "improved cover",
                    "yes",
                    "a rule improves the cover save",
                    "4.7",
                    changes[-1].source,
                    changes[-1].by,
                )
            )
    save = w.ctx.datacards[t.id].save + w.stat_change(t.id, "save")
    detail = f"{t.id}'s Save with its changes"
    source, by = "core", ""
    if cover:
        got, changes = trace_would(w, "would_save_in_cover", save, op=o.id, target=t.id, tg=tg)
        if changes:
            save, source, by = int(got), changes[-1].source, changes[-1].by
            detail += "; improved by the terrain it is in cover from"
    steps.append(Step("save", f"{save}+", detail, "2.2, 5.1 step 4", source, by))
    target = Target(min(6, max(2, save)), max(1, t.wounds), cover, obscured, improved)
    res = shoot(prof, target)
    dist = res.damage
    after = None
    if state is not None:
        after = shot_distribution(state, o.id, t.id, name, prof, target, save)
        if after is not None:
            dist = after.damage
    steps += after_dice_steps(after)
    seq, in_attack = sequence_state(state, o.id, name, t.id) if state is not None else (None, False)
    windows = (("attack_dice", o.id), ("defence_dice", t.id))
    if seq is not None and in_attack:  # the game's own offer, on sample rolls
        steps += dice_window_ploys(
            Work(seq),
            windows,
            {"op": o.id, "target": t.id, "weapon": name, "kind": "ranged"},
            {"attack_dice": prof.attacks, "defence_dice": 3},
        )
    else:
        steps += dice_window_ploys(w, windows)
    steps += _unmodelled(w, o, t, prof, cover, improved, included=state is not None)
    exp = dist.mean()
    kill = dist.at_least(max(1, t.wounds))
    how = "the defender retaining its cover saves as best it can"
    steps.append(shot_summary(q, float(exp), float(kill), how, "5.1"))
    data.update(
        {
            "profile": _profile_text(prof),
            "in_cover": cover,
            "obscured": obscured,
            "improved_cover": improved,
            "accurate": accurate,
            "save": save,
            "wounds": t.wounds,
            "damage": _pmf(dist),
            "expected_damage": float(exp),
            "incapacitated": float(kill),
            "incapacitated_exact": str(kill),
        }
    )
    return Outcome(
        shot_answer(q, float(exp), float(kill)),
        float(exp),
        Drawing(
            operatives=(op_box(w, o), op_box(w, t)),
            lines=tuple((a[0], a[1], b[0], b[1], True) for a, b in tg.lines),
        ),
    )


def _unmodelled(
    w: Work,
    o: Any,
    t: Any,
    prof: AttackProfile,
    cover: bool,
    improved: bool,
    *,
    included: bool = False,
) -> list[Step]:
    """The rules in force that change this shot after the dice in ways the distribution does
    not include: each hook of :data:`NOT_MODELLED` asked as the Shoot sequence asks it (on a
    typical value), listed when it changes the answer; with ``included``, only those the
    after-dice distribution cannot include
    (:data:`engine.explain.after_dice.NOT_INCLUDED`)."""
    info = {"op": o.id, "target": t.id}
    asks: list[tuple[str, Any, dict[str, Any]]] = [
        ("would_crit_save", 6, info),
        ("would_shot_damage", prof.normal_damage, {**info, "crit": False}),
        ("would_shot_damage", prof.critical_damage, {**info, "crit": True}),
        ("would_retain_defence_normal", 0, info),
        (
            "would_shot_total_damage",
            prof.normal_damage,
            {
                **info,
                "normals": 1,
                "crits": 0,
                "normal_damage": prof.normal_damage,
                "critical_damage": prof.critical_damage,
            },
        ),
    ]
    if not cover or prof.rules.dice.saturate:
        asks.append(("would_save_without_cover", 0, info))
    if improved:
        asks.append(("would_retain_both_cover_saves", False, info))
    out = []
    seen: set[str] = set()
    for hook, value, kw in asks:
        if hook in seen or not w.ctx.hooks.would_table.get(hook):
            continue
        if included and hook not in NOT_INCLUDED:
            continue
        _, changes = trace_would(w, hook, value, **kw)
        for c in changes:
            seen.add(hook)
            out.append(
                Step(
                    "not in the distribution",
                    hook,
                    f"a rule in force changes this attack after the dice ({hook}: "
                    f"{c.before!r} -> {c.after!r}); the distribution does not include it",
                    "",
                    c.source,
                    c.by,
                )
            )
    return out


def _fight(q: AttackQuery, steps: list[Step], data: dict[str, Any]) -> Outcome:
    """The fight's steps and distribution (module docstring), the defender retaliating with
    ``q.defweapon`` when named (else its first usable melee weapon).

    Raises:
        QueryError: the defender has no such melee weapon, or cannot retaliate with it."""
    w, o, t, name, state = q.w, q.attacker, q.target, q.weapon, q.state
    card = q.profile
    dweapon = None
    if q.defweapon:
        dname, _, dcard = find_query_weapon(w, t, q.defweapon, ("melee",))
        why = weapon_usable(w, t, dname, dcard)
        if why:
            raise QueryError(f"{t.id} cannot retaliate with {dname}: {why}")
        dweapon = dname
    injured = w.injury_penalties(o)
    if not w.control_range(o, t):
        steps.append(
            Step(
                "within control range",
                "no",
                f"{t.id} is not within {o.id}'s control range: Fight needs one",
                "5.2",
            )
        )
    help_a = fight_action.assists(w, o, t)
    prof = attacks.attack_profile(
        w, o, name, "melee", hit_change=-help_a, injured=injured, target=t.id
    )
    steps += _weapon_steps(w, o, name, card, prof, injured, "melee", t.id)
    if help_a:
        steps.append(
            Step(
                "assists",
                f"Hit -{help_a}",
                f"{', '.join(fight_action.assistants(w, o, t))} assist {o.id}",
                "5.2",
            )
        )
    pd = AttackProfile(0, 6, 0, 0)
    dname = ""
    if not any(e.kind == "no_retaliate" and e.op == t.id for e in w.effects):
        for n, _, p in weapons_of(w, t.id, "melee"):
            if (dweapon is None or n == dweapon) and weapon_usable(w, t, n, p) is None:
                help_d = fight_action.assists(w, t, o)
                pd = attacks.attack_profile(w, t, n, "melee", hit_change=-help_d, target=o.id)
                dname = n
                break
    chosen = "the weapon the query names" if dweapon else "its first usable melee weapon"
    steps.append(
        Step(
            "retaliation",
            dname or "none",
            f"{t.id} retaliates with {dname}: {_profile_text(pd)} ({chosen}; the defender "
            "chooses in play)"
            if dname
            else f"{t.id} cannot retaliate",
            "5.2",
        )
    )
    steps += fight_after_dice(
        state, w, (o.id, name, prof), t.id, (t.id, dname, pd) if dname else None
    )
    res = fight(Fighter(prof, max(1, o.wounds)), Fighter(pd, max(1, t.wounds)), fallback=True)
    kill = res.defender.incapacitated_probability
    lost = res.attacker.incapacitated_probability
    exp = res.defender.expected_damage_taken
    steps.append(
        Step(
            "distribution",
            f"{float(exp):.3f} damage",
            f"expected damage to {t.id} {float(exp):.3f}, P({t.id} incapacitated) = "
            f"{float(kill):.4f}, P({o.id} incapacitated) = {float(lost):.4f} (both sides "
            f"resolving {res.policies[0]})",
            "5.2",
        )
    )
    data.update(
        {
            "profile": _profile_text(prof),
            "retaliation": dname,
            "damage": _pmf(res.defender.damage_taken),
            "damage_to_attacker": _pmf(res.attacker.damage_taken),
            "expected_damage": float(exp),
            "incapacitated": float(kill),
            "incapacitated_exact": str(kill),
            "attacker_incapacitated": float(lost),
        }
    )
    answer = (
        f"{o.id} fighting {t.id} with {name}: expected damage {float(exp):.2f}, "
        f"P({t.id} incapacitated) {float(kill):.1%}, P({o.id} incapacitated) {float(lost):.1%}"
    )
    return Outcome(answer, float(exp), Drawing(operatives=(op_box(w, o), op_box(w, t))))


KT24_ATTACK = AttackRules(prelude=_prelude, shoot=_shoot, fight=_fight)
"""KT24's ``attack`` explanation (module docstring), for
:func:`engine.explain.attack.explain_attack`."""
