"""``killteam calc shoot`` and ``killteam calc fight``: exact dice odds from the dice core
(:mod:`engine.dice`), as a ``rich`` table or, with ``--json``, as one JSON object whose shape is
a contract other tools read (:func:`shoot_json`, :func:`fight_json`). Bad input exits with
status 2 and one line on standard error naming what is wrong (a misspelled weapon rule with
the closest rule names).

``killteam calc --ruleset kt21 ...`` uses the KT21 dice (:mod:`engine.dice.kt21`): ``--hit`` is
BS/WS, ``--rules`` KT21 rules (``AP1, Lethal 5+, MW2``), the target has ``--df`` defence dice
and maybe ``--invuln 4+``; in a fight ``--support`` / ``--enemy-support`` give combat support
and ``--parry-two`` / ``--enemy-parry-two`` "a parry discards two" (:mod:`engine.cli.calc_kt21`).

``killteam calc --ruleset kt18 shoot|fight`` are other commands with the KT18 inputs (shots or
A, BS/WS, S, AP, D against T, Sv, wounds left, flesh wounds; :mod:`engine.cli.calc_kt18`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from engine.cli.calc_output import pairs_json, pmf_json, pmf_table
from engine.cli.common import SuggestingGroup, console, converter, json_option
from engine.dice import (
    POLICIES,
    AttackProfile,
    Fighter,
    FightResult,
    ShootResult,
    Target,
    fight,
    parse_damage,
    parse_threshold,
    parse_weapon_rules,
    shoot,
)
from engine.errors import KillTeamError, WeaponRuleError
from engine.names import did_you_mean
from engine.terminal import markup

if TYPE_CHECKING:
    pass

__all__ = [
    "calc",
    "calc_fight",
    "calc_shoot",
    "converter",
    "fight_json",
    "ruleset_of",
    "shoot_json",
]


def _threshold(what: str) -> Callable[[click.Context, click.Parameter, str], int]:
    return converter(lambda value: parse_threshold(value, what))


_damage = converter(parse_damage)


def _rule_names() -> list[str]:
    """The names of the universal weapon rules (for "did you mean")."""
    from engine.dice import rules

    return sorted(set(rules._KEYWORDS.values()))


def ruleset_of(ctx: click.Context) -> str:
    """The ``--ruleset`` given to ``killteam calc`` (``"kt24"`` by default)."""
    while ctx.parent is not None and ctx.command.name != "calc":
        ctx = ctx.parent
    return str(ctx.params.get("ruleset") or "kt24")


def _rules(ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if ruleset_of(ctx) == "kt21":
        from engine.cli.calc_kt21 import check_rules

        return check_rules(value)
    try:
        parse_weapon_rules(value)
    except KillTeamError as exc:
        hint = ""
        if isinstance(exc, WeaponRuleError) and str(exc).startswith("unknown weapon rule"):
            word = (exc.token or "").split(" ")[0]
            hint = did_you_mean(word, _rule_names())
        raise click.BadParameter(str(exc) + hint) from None
    return value


def _fmt_threshold(x: int) -> str:
    return f"{x}+"


def shoot_json(profile: AttackProfile, target: Target, result: ShootResult) -> dict[str, Any]:
    """The JSON object printed by ``killteam calc shoot --json`` (a public contract).

    Keys: ``damage_pmf`` (damage as a string -> probability), ``expected_damage``,
    ``kill_probability``, ``crit_probability``, ``stun_probability``,
    ``piercing_crits_probability``, ``retained_crits_pmf``, ``retained`` and ``unblocked`` (lists of
    ``{normals, crits, probability}``), ``hot_damage_pmf`` and ``area_damage_pmf`` (or
    ``null``), and the inputs under ``profile`` and ``target``.
    """
    return {
        "damage_pmf": pmf_json(result.damage),
        "expected_damage": float(result.expected_damage),
        "kill_probability": float(result.kill_probability),
        "crit_probability": float(result.crit_probability),
        "stun_probability": float(result.stun_probability),
        "piercing_crits_probability": float(result.piercing_crits_probability),
        "retained_crits_pmf": pmf_json(result.retained_crits),
        "retained": pairs_json(result.retained),
        "unblocked": pairs_json(result.unblocked),
        "hot_damage_pmf": None if result.hot is None else pmf_json(result.hot),
        "area_damage_pmf": None if result.area_damage is None else pmf_json(result.area_damage),
        "profile": {
            "attacks": profile.attacks,
            "hit": _fmt_threshold(profile.hit),
            "damage": f"{profile.normal_damage}/{profile.critical_damage}",
            "rules": profile.rules.format(),
        },
        "target": {
            "save": _fmt_threshold(target.save),
            "wounds": target.wounds,
            "cover": target.in_cover,
            "obscured": target.obscured,
            "improved_cover": target.improved_cover,
        },
    }


def fight_json(
    attacker: Fighter, defender: Fighter, result: FightResult, first: str
) -> dict[str, Any]:
    """The JSON object printed by ``killteam calc fight --json`` (a public contract).

    Keys: ``attacker`` and ``defender``, each ``{incapacitated_probability,
    damage_taken_pmf, expected_damage_taken, stunned_probability, hot_damage_pmf, wounds,
    profile}``;
    ``policies`` ``{attacker, defender}``, ``first`` and ``expected_objective``.
    """

    def side(f: Fighter, outcome: Any) -> dict[str, Any]:
        p = f.profile
        return {
            "incapacitated_probability": float(outcome.incapacitated_probability),
            "damage_taken_pmf": pmf_json(outcome.damage_taken),
            "expected_damage_taken": float(outcome.expected_damage_taken),
            "stunned_probability": float(outcome.stunned_probability),
            "hot_damage_pmf": None if outcome.hot is None else pmf_json(outcome.hot),
            "wounds": f.wounds,
            "profile": {
                "attacks": p.attacks,
                "hit": _fmt_threshold(p.hit),
                "damage": f"{p.normal_damage}/{p.critical_damage}",
                "rules": p.rules.format(),
            },
        }

    return {
        "attacker": side(attacker, result.attacker),
        "defender": side(defender, result.defender),
        "policies": {"attacker": result.policies[0], "defender": result.policies[1]},
        "first": first,
        "expected_objective": float(result.expected_objective),
    }


class _CalcGroup(SuggestingGroup):
    """``calc``: with ``--ruleset kt18`` its commands are the KT18 ones
    (:data:`engine.cli.calc_kt18.KT18_COMMANDS`: other inputs, so other options)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name`` of the ruleset given to ``calc``."""
        if ctx.params.get("ruleset") == "kt18":
            from engine.cli.calc_kt18 import KT18_COMMANDS

            return KT18_COMMANDS.get(cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group("calc", cls=_CalcGroup)
@click.option(
    "--ruleset",
    type=click.Choice(["kt24", "kt21", "kt18"]),
    default="kt24",
    show_default=True,
    help="Rules edition: kt24 (Kill Team 2024), kt21 (Kill Team 2021) or kt18 (Kill Team "
    "2018: its own options, see calc --ruleset kt18 shoot --help).",
)
def calc(ruleset: str) -> None:
    """Exact dice odds for one shooting attack or one fight."""


_attack_options: Sequence[Callable[[Any], Any]] = (
    click.option("--attacks", "-a", type=click.IntRange(0, 30), required=True, help="Attack dice."),
    click.option("--hit", required=True, callback=_threshold("Hit"), help="Hit, e.g. 3+."),
    click.option(
        "--damage", "-d", required=True, callback=_damage, help="Normal/critical damage, e.g. 3/4."
    ),
    click.option(
        "--rules",
        "-r",
        default="",
        callback=_rules,
        help='Weapon rules, e.g. "Lethal 5+, Piercing 1".',
    ),
)


def _with(options: Sequence[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def decorate(f: Any) -> Any:
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


@calc.command("shoot")
@_with(_attack_options)
@click.option("--save", required=True, callback=_threshold("Save"), help="Target's Save, e.g. 3+.")
@click.option(
    "--wounds", "-w", type=click.IntRange(1, 4000), required=True, help="Target's wounds."
)
@click.option("--cover", is_flag=True, help="The target is in cover (one cover save).")
@click.option("--obscured", is_flag=True, help="The target is obscured.")
@click.option(
    "--improved-cover",
    type=click.Choice(["best", "critical", "two_normals"]),
    default=None,
    help="Vantage vs a Conceal target in Light terrain: improved cover save and its use.",
)
@click.option(
    "--cover-save",
    type=click.Choice(["best", "retain", "decline"]),
    default="best",
    show_default=True,
    help="Whether the defender retains its plain cover save (default: only when that gives "
    "less expected damage); 'decline' also overrides --improved-cover.",
)
@click.option(
    "--df",
    type=click.IntRange(0, 6),
    default=None,
    help="kt21: the target's defence dice (DF, default 3).",
)
@click.option(
    "--invuln",
    default=None,
    help="kt21: the target's invulnerable save, e.g. 4+ (used instead of Save when better).",
)
@json_option("the odds")
def calc_shoot(
    attacks: int,
    hit: int,
    damage: tuple[int, int],
    rules: str,
    save: int,
    wounds: int,
    cover: bool,
    obscured: bool,
    improved_cover: str | None,
    cover_save: str,
    df: int | None,
    invuln: str | None,
    as_json: bool,
) -> None:
    """Exact odds of one shooting attack (Kill Team 2024 rules, section 5.1; with
    --ruleset kt21, the Kill Team 2021 shooting attack)."""
    ctx = click.get_current_context()
    if ruleset_of(ctx) == "kt21":
        from engine.cli.calc_kt21 import kt21_shoot_command

        kt21_shoot_command(
            attacks,
            hit,
            damage,
            rules,
            save,
            wounds,
            cover,
            obscured,
            improved_cover,
            cover_save,
            df,
            invuln,
            as_json,
        )
        return
    for name, given in (("--df", df), ("--invuln", invuln)):
        if given is not None:
            raise click.UsageError(f"{name} is a kt21 option (use killteam calc --ruleset kt21)")
    if cover_save == "decline":
        choice = "none"
    elif improved_cover is not None:
        choice = improved_cover
    else:
        choice = "normal" if cover_save == "retain" else "best"
    profile = AttackProfile(attacks, hit, damage[0], damage[1], rules)
    target = Target(
        save,
        wounds,
        in_cover=cover or improved_cover is not None,
        obscured=obscured,
        improved_cover=improved_cover is not None,
        cover_choice=choice,
    )
    result = shoot(profile, target)
    if as_json:
        click.echo(json.dumps(shoot_json(profile, target, result), indent=2))
        return
    out = console()
    state = [s for s, on in (("in cover", target.in_cover), ("obscured", obscured)) if on]
    out.print(
        f"[bold]{attacks} attacks, Hit {hit}+, damage {damage[0]}/{damage[1]}"
        f"{', ' + markup(profile.rules.format()) if profile.rules else ''}[/bold] against "
        f"Save {save}+, {wounds} wounds{' (' + ', '.join(state) + ')' if state else ''}"
    )
    out.print(pmf_table("Damage inflicted", result.damage))
    out.print(f"Expected damage: [bold]{float(result.expected_damage):.3f}[/bold]")
    out.print(
        f"Kill probability (damage >= {wounds}): [bold]{float(result.kill_probability):.4f}[/bold]"
    )
    out.print(f"At least one critical success retained: {float(result.crit_probability):.4f}")
    if profile.rules.dice.stun:
        out.print(f"Stun takes effect: {float(result.stun_probability):.4f}")
    if result.hot is not None:
        out.print(f"Hot: expected self-damage {float(result.hot.mean()):.3f}")


@calc.command("fight")
@_with(_attack_options)
@click.option(
    "--wounds", "-w", type=click.IntRange(1, 4000), required=True, help="Attacker's wounds."
)
@click.option(
    "--enemy-attacks", type=click.IntRange(0, 30), required=True, help="Defender's attack dice."
)
@click.option(
    "--enemy-hit", required=True, callback=_threshold("enemy Hit"), help="Defender's Hit."
)
@click.option(
    "--enemy-damage", required=True, callback=_damage, help="Defender's damage, e.g. 3/4."
)
@click.option(
    "--enemy-wounds", type=click.IntRange(1, 4000), required=True, help="Defender's wounds."
)
@click.option("--enemy-rules", default="", callback=_rules, help="Defender's weapon rules.")
@click.option(
    "--policy",
    type=click.Choice(POLICIES),
    default="optimal",
    show_default=True,
    help="Resolution policy of the attacker (and of the defender unless --enemy-policy).",
)
@click.option(
    "--enemy-policy", type=click.Choice(POLICIES), default=None, help="Defender's policy."
)
@click.option(
    "--first",
    type=click.Choice(["attacker", "defender"]),
    default="attacker",
    show_default=True,
    help="Who resolves first.",
)
@click.option(
    "--support", type=click.IntRange(0, 10), default=None, help="kt21: attacker's combat support."
)
@click.option(
    "--enemy-support",
    type=click.IntRange(0, 10),
    default=None,
    help="kt21: defender's combat support.",
)
@click.option("--parry-two", is_flag=True, help="kt21: the attacker's parries discard two hits.")
@click.option(
    "--enemy-parry-two", is_flag=True, help="kt21: the defender's parries discard two hits."
)
@json_option("the odds")
def calc_fight(
    attacks: int,
    hit: int,
    damage: tuple[int, int],
    rules: str,
    wounds: int,
    enemy_attacks: int,
    enemy_hit: int,
    enemy_damage: tuple[int, int],
    enemy_wounds: int,
    enemy_rules: str,
    policy: str,
    enemy_policy: str | None,
    first: str,
    support: int | None,
    enemy_support: int | None,
    parry_two: bool,
    enemy_parry_two: bool,
    as_json: bool,
) -> None:
    """Exact odds of one fight (Kill Team 2024 rules, section 5.2; with --ruleset kt21,
    the Kill Team 2021 fight)."""
    ctx = click.get_current_context()
    if ruleset_of(ctx) == "kt21":
        from engine.cli.calc_kt21 import Side, kt21_fight_command

        kt21_fight_command(
            Side(attacks, hit, damage, rules, wounds, support or 0, parry_two),
            Side(
                enemy_attacks,
                enemy_hit,
                enemy_damage,
                enemy_rules,
                enemy_wounds,
                enemy_support or 0,
                enemy_parry_two,
            ),
            policy,
            enemy_policy,
            first,
            as_json,
        )
        return
    kt21_only = (
        ("--support", support is not None),
        ("--enemy-support", enemy_support is not None),
        ("--parry-two", parry_two),
        ("--enemy-parry-two", enemy_parry_two),
    )
    for name, given in kt21_only:
        if given:
            raise click.UsageError(f"{name} is a kt21 option (use killteam calc --ruleset kt21)")
    attacker = Fighter(AttackProfile(attacks, hit, damage[0], damage[1], rules), wounds)
    defender = Fighter(
        AttackProfile(enemy_attacks, enemy_hit, enemy_damage[0], enemy_damage[1], enemy_rules),
        enemy_wounds,
    )
    result = fight(attacker, defender, policy=policy, defender_policy=enemy_policy, first=first)
    if as_json:
        click.echo(json.dumps(fight_json(attacker, defender, result, first), indent=2))
        return
    out = console()
    out.print(
        f"[bold]Fight[/bold] (policies: attacker {result.policies[0]}, defender "
        f"{result.policies[1]}; {first} resolves first)"
    )
    for name, side in (("Attacker", result.attacker), ("Defender", result.defender)):
        out.print(pmf_table(f"{name}: damage taken (wounds {side.wounds})", side.damage_taken))
        out.print(
            f"{name} incapacitated: [bold]{float(side.incapacitated_probability):.4f}[/bold]; "
            f"expected damage taken {float(side.expected_damage_taken):.3f}"
        )
        if side.stunned_probability:
            out.print(f"{name} stunned: {float(side.stunned_probability):.4f}")
        if side.hot is not None:
            out.print(f"{name} Hot: expected self-damage {float(side.hot.mean()):.3f}")
