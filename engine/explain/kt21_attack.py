"""What ``attack ATTACKER WEAPON TARGET [with DEFWEAPON]`` reads under KT21
(:data:`KT21_ATTACK`, given to the one attack explanation
:func:`engine.explain.attack.explain_attack` by :mod:`engine.explain.editions`): the exact
distribution of a shooting attack or a fight, from the KT21 dice core (:mod:`engine.dice.kt21`:
:func:`~engine.dice.kt21.kt21_shoot` with the defender's best use of its Save, invulnerable
save and cover save; :func:`~engine.dice.kt21.kt21_fight` with both fighters resolving
optimally), on the values the KT21 sequences read (``rules/KT21.md`` 4.4, 10, 11, 12):

- the profile's KT21 rules (:func:`engine.rules.kt21.attack_dice.weapon_rules21`), BS/WS
  with injured and the effects (:func:`~engine.rules.kt21.attack_dice.hit_threshold`);
- a shot: the target's DF, Save with its effects, Invulnerable Save, and whether it is in
  Cover for the save as the shot's first step decides it (Cover from the KT21 sight of the
  attacks, :func:`engine.rules.kt21.attack_sight.sight21`; never within 2" of the shooter;
  never with Indirect; Barrage: hidden from above); the dice core applies No Cover;
- a fight: combat support of both sides (:func:`engine.rules.kt21.fight.combat_support`),
  the defender's DEFWEAPON or its first melee weapon (none: it rolls no dice, DC 16.17).

The weapon rules the dice of one attack do not apply are listed as "not in the
distribution" (:func:`engine.dice.kt21.not_modelled`); an Overwatch's BS (1 worse) is not
this query's (it asks about a Shoot).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.dice.kt21 import Kt21Attack, Kt21Defender, Kt21Fighter, kt21_fight, kt21_shoot
from engine.dice.kt21 import not_modelled as dice_not_modelled
from engine.explain.attack import AttackQuery, AttackRules, Outcome, shot_answer, shot_summary
from engine.explain.common import find_query_weapon, inches, op_box
from engine.explain.ruling import Drawing, Step
from engine.game.state import OperativeState
from engine.game.weapons import weapons_of
from engine.game.work import Work
from engine.rules.kt21.attack_dice import hit_threshold, weapon_rules21
from engine.rules.kt21.attack_sight import hidden_from_above, sight21
from engine.rules.kt21.die_damage import odds_notes
from engine.rules.kt21.fight import combat_support
from engine.teams.model import WeaponProfile

__all__ = ["KT21_ATTACK", "cover_for_save"]

_COVER_DISTANCE = 2.0


def _sec(section: str) -> str:
    return f"rules/KT21.md {section}"


def _pmf(p: Any) -> list[dict[str, Any]]:
    total = p.total
    return [
        {"damage": v, "probability": float(Fraction(wt, total)), "exact": str(Fraction(wt, total))}
        for v, wt in sorted(p.weights)
    ]


def cover_for_save(w: Work, o: OperativeState, t: OperativeState, prof: WeaponProfile) -> str:
    """Whether ``t`` is in Cover for the save against ``o``'s shot with ``prof``, as the
    shot's first step decides it (module docstring): ``""`` when not, else why it is.
    (No Cover is the dice core's, which ignores the cover save for it.)"""
    rules = prof.kt21_rules
    if rules.has("Indirect"):
        return ""
    if rules.has("Barrage"):
        return "hidden from directly above by terrain (Barrage)" if hidden_from_above(w, t) else ""
    if not sight21(w, o, t).in_cover:
        return ""
    if w.distance(w.place(o), w.place(t)) <= _COVER_DISTANCE + 1e-6:
        return ""
    return "in Cover from the shooter's cover lines"


def _attack(w: Work, o: OperativeState, name: str, prof: WeaponProfile) -> Kt21Attack:
    rules = weapon_rules21(w, o, name, prof)
    hit = hit_threshold(w, o, prof, injured=w.injury_penalties(o))
    return Kt21Attack(prof.attacks, hit, prof.normal_damage, prof.critical_damage, rules)


def _weapon_step(o: OperativeState, name: str, a: Kt21Attack, kind: str, injured: bool) -> Step:
    what = "BS" if kind == "ranged" else "WS"
    detail = (
        f"{o.id}'s {kind} weapon {name}: A{a.attacks} {what} {a.hit}+ (after its changes"
        + (", injured: 1 worse" if injured else "")
        + f") D {a.normal_damage}/{a.critical_damage}"
        + (f", {a.rules.format()}" if len(tuple(a.rules)) else ", no special rules")
    )
    return Step("weapon", name, detail, _sec("4.1, 4.4, 12"), "weapon rule")


def _prelude(q: AttackQuery, data: dict[str, Any]) -> list[Step]:
    """The weapon's step (its KT21 profile with its changes) and its profile in ``data``."""
    w, o = q.w, q.attacker
    attack = _attack(w, o, q.weapon, q.profile)
    data["profile"] = {
        "attacks": attack.attacks,
        "hit": attack.hit,
        "damage": [attack.normal_damage, attack.critical_damage],
        "rules": attack.rules.format(),
    }
    return [_weapon_step(o, q.weapon, attack, q.kind, w.injury_penalties(o))]


def _shoot(q: AttackQuery, steps: list[Step], data: dict[str, Any]) -> Outcome:
    """The shot's steps and distribution (module docstring)."""
    w, o, t, prof = q.w, q.attacker, q.target, q.profile
    attack = _attack(w, o, q.weapon, prof)
    card = w.ctx.datacards[t.id]
    save = max(2, card.save + w.stat_change(t.id, "save"))
    cover = cover_for_save(w, o, t, prof)
    defender = Kt21Defender(card.defence, save, t.wounds, card.invulnerable, in_cover=bool(cover))
    steps.append(
        Step(
            "in cover",
            "yes" if cover else "no",
            cover
            or 'not in Cover for the save (no cover line crosses cover within 1" of it, within '
            '2" of the shooter, or Indirect)',
            _sec("8.4, 10.2"),
        )
    )
    steps.append(
        Step(
            "defence",
            f"DF {card.defence}, Save {save}+",
            f"{t.id} rolls {card.defence} defence dice at {save}+ (its Save with its changes)"
            + (
                f", or all of them at its Invulnerable Save {card.invulnerable}+"
                if card.invulnerable
                else ""
            )
            + f"; AP {attack.number('AP')}, P {attack.number('P')} remove dice from the Save",
            _sec("10.1 step 4, 10.3"),
        )
    )
    result = kt21_shoot(attack, defender)
    mean = result.expected_damage
    kill = result.kill_probability
    how = (
        "the defender choosing its Save or Invulnerable Save and retaining its cover save as "
        "best it can, then allocating its saves optimally"
    )
    steps.append(shot_summary(q, float(mean), float(kill), how, _sec("10.1")))
    for rule in dice_not_modelled(attack.rules, melee=False):
        steps.append(Step("not in the distribution", rule.split(":")[0], rule, _sec("12")))
    for note in odds_notes(w, op=o.id, target=t.id, weapon=q.weapon, kind="ranged"):
        steps.append(
            Step("not in the distribution", note.split(":")[0], note, _sec("16.23"), "rule")
        )
    gap = w.distance(w.place(o), w.place(t))
    data.update(
        {
            "damage": _pmf(result.damage),
            "expected_damage": float(mean),
            "incapacitated": float(kill),
            "incapacitated_exact": str(kill),
            "in_cover": bool(cover),
            "defence": card.defence,
            "save": save,
            "invulnerable": card.invulnerable,
            "wounds": t.wounds,
            "not_modelled": list(dice_not_modelled(attack.rules, melee=False)),
        }
    )
    po, pt = w.place(o), w.place(t)
    return Outcome(
        shot_answer(q, float(mean), float(kill)),
        float(mean),
        Drawing(
            operatives=(op_box(w, o), op_box(w, t)),
            distances=((po.x, po.y, pt.x, pt.y, inches(gap)),),
        ),
    )


def _fight(q: AttackQuery, steps: list[Step], data: dict[str, Any]) -> Outcome:
    """The fight's steps and distribution (module docstring), the defender retaliating with
    ``q.defweapon`` when named, else its first melee weapon.

    Raises:
        QueryError: the defender has no such melee weapon."""
    w, o, t, defweapon = q.w, q.attacker, q.target, q.defweapon
    attack = _attack(w, o, q.weapon, q.profile)
    if defweapon:
        dname, _, dprof = find_query_weapon(w, t, defweapon, ("melee",))
    else:
        usable = weapons_of(w, t.id, "melee")
        dname, dprof = (usable[0][0], usable[0][2]) if usable else ("", None)
    if dprof is None:
        retaliation = Kt21Attack(0, 6, 0, 0)
        steps.append(
            Step(
                "retaliation",
                "none",
                f"{t.id} has no melee weapon: it rolls no dice",
                _sec("16.17"),
            )
        )
    else:
        retaliation = _attack(w, t, dname, dprof)
        steps.append(_weapon_step(t, dname, retaliation, "melee", w.injury_penalties(t)))
    a_by, d_by = combat_support(w, o, t), combat_support(w, t, o)
    for who, by in ((o, a_by), (t, d_by)):
        if by:
            steps.append(
                Step(
                    "combat support",
                    f"{who.id} +{len(by)}",
                    f"{', '.join(by)} within Engagement Range of the enemy and of no other: "
                    f"{who.id}'s WS improves by {len(by)}",
                    _sec("11 step 3"),
                )
            )
    result = kt21_fight(
        Kt21Fighter(attack, o.wounds, min(len(a_by), 10)),
        Kt21Fighter(retaliation, t.wounds, min(len(d_by), 10) if dprof is not None else 0),
    )
    to_target = result.defender.damage_taken
    mean = to_target.mean()
    kill = result.defender.incapacitated_probability
    back = result.attacker.damage_taken
    steps.append(
        Step(
            "distribution",
            f"{float(mean):.3f} damage",
            f"expected damage to {t.id} {float(mean):.3f}, P({t.id} incapacitated) = "
            f"{float(kill):.4f}; to {o.id} {float(back.mean()):.3f} (both fighters strike and "
            "parry optimally)",
            _sec("11"),
        )
    )
    for side, rules in zip((o.id, t.id), result.not_modelled, strict=True):
        for rule in rules:
            steps.append(
                Step("not in the distribution", rule.split(":")[0], f"{side}: {rule}", _sec("12"))
            )
    for a, b, weapon in ((o, t, q.weapon), (t, o, dname)):
        for note in (
            odds_notes(w, op=a.id, target=b.id, weapon=weapon, kind="melee") if weapon else ()
        ):
            steps.append(
                Step(
                    "not in the distribution",
                    note.split(":")[0],
                    f"{a.id}'s strikes: {note}",
                    _sec("16.23"),
                    "rule",
                )
            )
    data.update(
        {
            "retaliation": dname or None,
            "damage": _pmf(to_target),
            "expected_damage": float(mean),
            "incapacitated": float(kill),
            "incapacitated_exact": str(kill),
            "damage_to_attacker": _pmf(back),
            "attacker_incapacitated": float(result.attacker.incapacitated_probability),
            "support": [len(a_by), len(d_by)],
        }
    )
    answer = (
        f"{o.id} fighting {t.id} with {q.weapon}: expected damage {float(mean):.2f}, "
        f"P(incapacitated) {float(kill):.1%}"
    )
    return Outcome(answer, float(mean), Drawing(operatives=(op_box(w, o), op_box(w, t))))


KT21_ATTACK = AttackRules(prelude=_prelude, shoot=_shoot, fight=_fight)
"""KT21's ``attack`` explanation (module docstring), for
:func:`engine.explain.attack.explain_attack`."""
