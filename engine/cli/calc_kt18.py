"""``killteam calc --ruleset kt18 shoot|fight``: the exact outcome of one KT18 weapon's attacks
against one model (``rules/KT18.md`` 5.7-5.10, 6.2-6.12, 7.5, 7.6) from
:mod:`engine.dice.kt18`, as tables or, with ``--json``, as one JSON object
(:func:`kt18_json`).

The attacker: ``--shots`` (shoot) or ``--attacks`` (fight) as printed (``2``, ``D6``,
``D3+1``), ``--bs`` / ``--ws`` (``3+``; ``-`` never hits), ``--s`` (a number, or ``User``,
``+1``, ``x2`` with ``--user-s``), ``--ap`` (0 or negative), ``--d`` (``1``, ``D3``) and the
hit modifiers (``--hit-mod`` and named ones). The target: ``--t``, ``--sv`` (``-`` none),
``--invulnerable``, ``--w`` (wounds left), ``--flesh-wounds``, ``--flesh-wound-boxes`` and,
shooting only, ``--cover`` (the -1 to the Injury roll, 6.9). A KT18 fight is one model's
attacks at a time, so ``fight`` has no enemy profile. Options of the other rulesets, and
shooting options given to ``fight`` (or melee ones to ``shoot``), are refused with one line
saying why.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import click

from engine.cli.calc_output import pmf_json, pmf_table
from engine.cli.common import console, converter, json_option
from engine.cli.common import table as new_table
from engine.dice.kt18 import Kt18Attack, Kt18AttackResult, Kt18Target, kt18_attack
from engine.dice.kt18_values import RandomValue, parse_random_value
from engine.dice.pmf import Pmf
from engine.errors import KillTeamError
from engine.teams.kt18_cards import parse_strength

__all__ = ["KT18_COMMANDS", "kt18_fight", "kt18_json", "kt18_shoot", "parse_skill"]


def parse_skill(text: str, what: str) -> int:
    """Read a KT18 BS, WS, Sv or invulnerable save: ``"3+"`` or ``"3"`` (2..6), or ``"-"``
    (none: 0; ``rules/KT18.md`` 1.7, 1.9).

    Raises:
        click.BadParameter: anything else (the message names ``what`` and the text)."""
    t = text.strip()
    if t == "-":
        return 0
    digits = t[:-1] if t.endswith("+") else t
    if digits.isdigit() and len(digits) == 1 and 2 <= int(digits) <= 6:
        return int(digits)
    raise click.BadParameter(f"{what}: expected 2+ to 6+ or '-', not {text[:20]!r}")


def _skill(what: str) -> Callable[[click.Context, click.Parameter, str | None], int | None]:
    def convert(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int | None:
        return None if value is None else parse_skill(value, what)

    return convert


def _value(what: str) -> Callable[[click.Context, click.Parameter, str], RandomValue]:
    return converter(lambda value: parse_random_value(value, what), ValueError)


def _refuse(*names: str, reason: str, flag: bool = False) -> Callable[[Any], Any]:
    """A hidden option of another ruleset (or of the other command), ``names`` its long and
    short names, refused with ``reason`` when given."""

    def check(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value not in (None, False):
            raise click.UsageError(f"{names[0]}: {reason}", ctx)

    option: Callable[[Any], Any] = click.option(
        *names,
        is_flag=flag,
        default=False if flag else None,
        hidden=True,
        expose_value=False,
        callback=check,
    )
    return option


def _int_option(
    *names: str, bounds: tuple[int, int], default: int, help: str
) -> Callable[[Any], Any]:
    """A whole-number option within ``bounds`` (both included), its default shown in
    ``--help``."""
    option: Callable[[Any], Any] = click.option(
        *names, type=click.IntRange(*bounds), default=default, show_default=True, help=help
    )
    return option


def _with(options: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def decorate(f: Any) -> Any:
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


_OTHER_RULESETS = [
    _refuse("--hit", reason="kt18 rolls against --bs (shoot) or --ws (fight), e.g. --bs 3+"),
    _refuse(
        "--rules",
        "-r",
        reason="weapon abilities are not in the kt18 odds: give their effect with --hit-mod, "
        "--ap, --d",
    ),
    _refuse(
        "--df",
        reason="kt18 has no defence dice: the target saves one die per attack (rules/KT18.md 6.6)",
    ),
    _refuse(
        "--improved-cover",
        reason="kt18 cover is an Injury roll modifier: --cover (rules/KT18.md 6.9)",
    ),
    _refuse(
        "--cover-save", reason="kt18 cover is an Injury roll modifier: --cover (rules/KT18.md 6.9)"
    ),
]

_TARGET = [
    click.option("--t", "toughness", type=click.IntRange(1, 20), required=True, help="Target's T."),
    click.option(
        "--sv",
        "--save",
        "save",
        required=True,
        callback=_skill("Sv"),
        help="Target's Sv, e.g. 3+ ('-' for none).",
    ),
    click.option(
        "--invulnerable",
        "--invuln",
        "invulnerable",
        default=None,
        callback=_skill("invulnerable save"),
        help="Target's invulnerable save, e.g. 4+ (used when better; AP never changes it).",
    ),
    _int_option(
        "--w", "--wounds", "-w", "wounds", bounds=(1, 40), default=1, help="Target's wounds left."
    ),
    _int_option(
        "--flesh-wounds",
        bounds=(0, 10),
        default=0,
        help="Flesh wounds the target already has (+1 each to the Injury roll).",
    ),
    _int_option(
        "--flesh-wound-boxes",
        bounds=(0, 10),
        default=3,
        help="Flesh wound boxes on the target's datacard.",
    ),
]

_WEAPON = [
    click.option(
        "--s",
        "strength",
        required=True,
        help="The attack's S: a number, or User, +1, x2 with --user-s.",
    ),
    click.option(
        "--user-s", type=click.IntRange(1, 20), default=None, help="The attacker's own S."
    ),
    _int_option("--ap", bounds=(-6, 0), default=0, help="AP, 0 or negative."),
    click.option(
        "--d",
        "--damage",
        "-d",
        "damage",
        default="1",
        show_default=True,
        callback=_value("D"),
        help="Damage, e.g. 1, D3.",
    ),
    _int_option("--hit-mod", bounds=(-6, 6), default=0, help="Other hit roll modifiers, summed."),
    click.option(
        "--attacker-flesh-wounds",
        type=click.IntRange(0, 10),
        default=0,
        help="Flesh wounds the attacker has (-1 each to hit).",
    ),
    click.option("--broken", is_flag=True, help="The attacker's kill team is broken (-1 to hit)."),
]


def _strength(text: str, user: int | None) -> int:
    try:
        s = parse_strength(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--s'") from None
    if s.fixed is None and user is None:
        raise click.UsageError(f"--s {text.strip()} needs --user-s (the attacker's own S)")
    return s(user or 1)


def _target(
    toughness: int,
    save: int,
    invulnerable: int | None,
    wounds: int,
    flesh: int,
    boxes: int,
    cover: bool,
) -> Kt18Target:
    if flesh > boxes:
        raise click.UsageError(f"--flesh-wounds {flesh} is more than --flesh-wound-boxes {boxes}")
    return Kt18Target(toughness, save, wounds, invulnerable or 0, flesh, boxes, -1 if cover else 0)


def _fraction_pmf(dist: dict[int, Fraction]) -> Pmf[int]:
    den = math.lcm(*(p.denominator for p in dist.values()))
    return Pmf.from_weights({k: int(p * den) for k, p in dist.items()}, den)


_LABEL = {
    "unharmed": "unharmed",
    "wounded": "wounded",
    "flesh_wound": "flesh wound (back to 1 wound)",
    "out_of_action": "out of action",
}


def kt18_json(
    attack: Kt18Attack, target: Kt18Target, result: Kt18AttackResult, kind: str
) -> dict[str, Any]:
    """The JSON of ``killteam calc --ruleset kt18 shoot|fight --json``: ``ruleset`` ("kt18"),
    ``kind`` ("shoot"/"fight"), ``outcomes`` (a list of ``{outcome, wounds_left,
    probability, exact}``, ``exact`` the fraction as text), ``out_of_action_probability``,
    ``flesh_wound_probability``, ``reduced_to_zero_probability``, ``unsaved_probability``
    (one attack), ``wounds_lost_pmf``, ``expected_wounds_lost``, ``attack`` and ``target``."""
    return {
        "ruleset": "kt18",
        "kind": kind,
        "outcomes": [
            {"outcome": k, "wounds_left": left, "probability": float(p), "exact": str(p)}
            for (k, left), p in result.outcomes.items()
        ],
        "out_of_action_probability": float(result.out_of_action),
        "flesh_wound_probability": float(result.flesh_wound),
        "reduced_to_zero_probability": float(result.reduced_to_zero),
        "unsaved_probability": float(result.unsaved),
        "wounds_lost_pmf": pmf_json(_fraction_pmf(result.wounds_lost())),
        "expected_wounds_lost": float(result.expected_wounds_lost),
        "attack": {
            "attacks": attack.attacks.format(),
            "doubled": attack.doubled,
            "skill": f"{attack.skill}+" if attack.skill else "-",
            "hit_modifier": attack.hit_modifier,
            "overwatch": attack.overwatch,
            "strength": attack.strength,
            "ap": attack.ap,
            "damage": attack.damage.format(),
        },
        "target": {
            "toughness": target.toughness,
            "save": f"{target.save}+" if target.save else "-",
            "invulnerable": f"{target.invulnerable}+" if target.invulnerable else None,
            "wounds": target.wounds,
            "flesh_wounds": target.flesh_wounds,
            "flesh_wound_boxes": target.flesh_wound_boxes,
            "cover_modifier": target.cover_modifier,
        },
    }


def _report(attack: Kt18Attack, target: Kt18Target, kind: str, as_json: bool) -> None:
    try:
        result = kt18_attack(attack, target)
    except KillTeamError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(kt18_json(attack, target, result, kind), indent=2))
        return
    out = console()
    skill = f"{attack.skill}+" if attack.skill else "-"
    what = "shots" if kind == "shoot" else "attacks"
    mods = []
    if attack.overwatch:
        mods.append("Overwatch: hits on 6 only")
    elif attack.hit_modifier:
        mods.append(f"hit {attack.hit_modifier:+d}")
    if attack.doubled:
        mods.append("Rapid Fire doubled")
    extra = []
    if target.invulnerable:
        extra.append(f"invulnerable {target.invulnerable}+")
    if target.flesh_wounds:
        extra.append(f"{target.flesh_wounds} flesh wound(s) of {target.flesh_wound_boxes}")
    if target.cover_modifier:
        extra.append("cover -1 to the Injury roll")
    out.print(
        f"[bold]KT18 {kind}: {attack.attacks.format()} {what}, {'BS' if kind == 'shoot' else 'WS'} "
        f"{skill}, S{attack.strength}, AP {attack.ap}, Damage {attack.damage.format()}"
        f"{' (' + ', '.join(mods) + ')' if mods else ''}[/bold] against T{target.toughness}, "
        f"Sv {f'{target.save}+' if target.save else '-'}, {target.wounds} wound(s) left"
        f"{' (' + ', '.join(extra) + ')' if extra else ''}"
    )
    table = new_table("Outcome")
    table.add_column("outcome")
    table.add_column("wounds left", justify="right")
    table.add_column("P", justify="right")
    for (k, left), p in result.outcomes.items():
        table.add_row(_LABEL[k], str(left), f"{float(p):.4f}")
    out.print(table)
    out.print(pmf_table("Wounds lost", _fraction_pmf(result.wounds_lost())))
    out.print(f"One attack unsaved: {float(result.unsaved):.4f}")
    out.print(f"Expected wounds lost: [bold]{float(result.expected_wounds_lost):.3f}[/bold]")
    out.print(f"Out of action: [bold]{float(result.out_of_action):.4f}[/bold]")
    out.print(f"Flesh wound: {float(result.flesh_wound):.4f}")


def _hit_mod(hit_mod: int, flesh: int, broken: bool, *named: bool) -> int:
    total = hit_mod - flesh - int(broken) - sum(int(n) for n in named)
    if not -6 <= total <= 6:
        raise click.UsageError(f"the hit modifiers sum to {total}, outside -6..6")
    return total


@click.command("shoot")
@click.option(
    "--shots",
    "--attacks",
    "-a",
    "shots",
    required=True,
    callback=_value("shots"),
    help="The weapon's number of attacks, e.g. 2, D6, D3+1.",
)
@click.option("--bs", required=True, callback=_skill("BS"), help="The shooter's BS, e.g. 3+.")
@_with(_WEAPON)
@click.option("--long-range", is_flag=True, help="The target is at long range (-1 to hit).")
@click.option("--obscured", is_flag=True, help="The target is obscured (-1 to hit).")
@click.option(
    "--overwatch", is_flag=True, help="Overwatch: hits only on a 6, whatever the modifiers."
)
@click.option(
    "--rapid-fire-half-range",
    is_flag=True,
    help="A Rapid Fire weapon with every target within half range: the number rolled is doubled.",
)
@_with(_TARGET)
@click.option(
    "--cover",
    is_flag=True,
    help='The target is obscured and within 1" of what lies between: -1 to the Injury roll.',
)
@_with(_OTHER_RULESETS)
@_refuse("--ws", reason="shooting rolls against --bs; --ws is for calc fight")
@_refuse(
    "--intervening-terrain",
    reason="a close combat modifier: use it with calc fight (rules/KT18.md 7.6)",
    flag=True,
)
@json_option("the odds")
def kt18_shoot(
    shots: RandomValue,
    bs: int,
    strength: str,
    user_s: int | None,
    ap: int,
    damage: RandomValue,
    hit_mod: int,
    attacker_flesh_wounds: int,
    broken: bool,
    long_range: bool,
    obscured: bool,
    overwatch: bool,
    rapid_fire_half_range: bool,
    toughness: int,
    save: int,
    invulnerable: int | None,
    wounds: int,
    flesh_wounds: int,
    flesh_wound_boxes: int,
    cover: bool,
    as_json: bool,
) -> None:
    """Exact odds of one KT18 ranged weapon's attacks against one model (Kill Team 2018
    rules, sections 5 and 6)."""
    mod = _hit_mod(hit_mod, attacker_flesh_wounds, broken, long_range, obscured)
    attack = _build(
        shots, bs, _strength(strength, user_s), ap, damage, mod, overwatch, rapid_fire_half_range
    )
    target = _target(toughness, save, invulnerable, wounds, flesh_wounds, flesh_wound_boxes, cover)
    _report(attack, target, "shoot", as_json)


def _build(
    attacks: RandomValue,
    skill: int,
    s: int,
    ap: int,
    damage: RandomValue,
    mod: int,
    overwatch: bool,
    doubled: bool,
) -> Kt18Attack:
    try:
        return Kt18Attack(attacks, skill, s, ap, damage, mod, overwatch, doubled)
    except KillTeamError as exc:
        raise click.UsageError(str(exc)) from None


_ONE_SIDE = (
    "a kt18 fight is one model's attacks at a time (rules/KT18.md 7.2-7.5): run calc fight "
    "for each side"
)

_NOT_MELEE = [
    _refuse("--bs", reason="close combat rolls against --ws; --bs is for calc shoot"),
    _refuse("--shots", reason="a fighter makes its A attacks: use --attacks"),
    _refuse(
        "--cover",
        reason="close combat gives no cover Injury modifier (rules/KT18.md 7.6)",
        flag=True,
    ),
    _refuse(
        "--obscured", reason="close combat has no obscured modifier (rules/KT18.md 7.6)", flag=True
    ),
    _refuse("--long-range", reason="close combat has no long range (rules/KT18.md 7.6)", flag=True),
    _refuse("--overwatch", reason="Overwatch is a shooting attack: use calc shoot", flag=True),
    _refuse(
        "--rapid-fire-half-range",
        reason="Rapid Fire is a ranged weapon type: use calc shoot",
        flag=True,
    ),
    *(
        _refuse(name, reason=_ONE_SIDE, flag=name.endswith("parry-two"))
        for name in (
            "--enemy-attacks",
            "--enemy-hit",
            "--enemy-damage",
            "--enemy-wounds",
            "--enemy-rules",
            "--policy",
            "--enemy-policy",
            "--first",
            "--support",
            "--enemy-support",
            "--parry-two",
            "--enemy-parry-two",
        )
    ),
]


@click.command("fight")
@click.option(
    "--attacks",
    "-a",
    required=True,
    callback=_value("A"),
    help="The fighter's A, e.g. 2, D3.",
)
@click.option("--ws", required=True, callback=_skill("WS"), help="The fighter's WS, e.g. 3+.")
@_with(_WEAPON)
@click.option(
    "--intervening-terrain",
    is_flag=True,
    help="Terrain between the two would stop base contact (-1 to hit).",
)
@_with(_TARGET)
@_with(_OTHER_RULESETS)
@_with(_NOT_MELEE)
@json_option("the odds")
def kt18_fight(
    attacks: RandomValue,
    ws: int,
    strength: str,
    user_s: int | None,
    ap: int,
    damage: RandomValue,
    hit_mod: int,
    attacker_flesh_wounds: int,
    broken: bool,
    intervening_terrain: bool,
    toughness: int,
    save: int,
    invulnerable: int | None,
    wounds: int,
    flesh_wounds: int,
    flesh_wound_boxes: int,
    as_json: bool,
) -> None:
    """Exact odds of one KT18 model's close combat attacks against one model (Kill Team 2018
    rules, sections 6 and 7)."""
    mod = _hit_mod(hit_mod, attacker_flesh_wounds, broken, intervening_terrain)
    attack = _build(attacks, ws, _strength(strength, user_s), ap, damage, mod, False, False)
    target = _target(toughness, save, invulnerable, wounds, flesh_wounds, flesh_wound_boxes, False)
    _report(attack, target, "fight", as_json)


KT18_COMMANDS: dict[str, click.Command] = {"shoot": kt18_shoot, "fight": kt18_fight}
"""The ``calc`` commands under ``--ruleset kt18``, by name."""
