"""The ``killteam`` command.

``killteam calc shoot`` and ``killteam calc fight`` print exact dice odds from the dice core
(:mod:`engine.dice`), as a ``rich`` table or, with ``--json``, as one JSON object whose shape is
a contract other tools read (see ``README.md``). Bad input exits with status 2 and one line
on standard error naming what is wrong; there is never a traceback for bad input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from engine import __version__
from engine.cli_paths import PICTURE_SUFFIXES, output_file
from engine.dice import (
    POLICIES,
    AttackProfile,
    Fighter,
    FightResult,
    Pmf,
    ShootResult,
    Target,
    fight,
    parse_damage,
    parse_threshold,
    parse_weapon_rules,
    shoot,
)
from engine.errors import KillTeamError
from engine.terminal import echo, markup, printable

__all__ = ["cli", "main"]


def _threshold(what: str) -> Callable[[click.Context, click.Parameter, str], int]:
    def convert(_ctx: click.Context, _param: click.Parameter, value: str) -> int:
        try:
            return parse_threshold(value, what)
        except KillTeamError as exc:
            raise click.BadParameter(str(exc)) from None

    return convert


def _damage(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[int, int]:
    try:
        return parse_damage(value)
    except KillTeamError as exc:
        raise click.BadParameter(str(exc)) from None


def _rules(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    try:
        parse_weapon_rules(value)
    except KillTeamError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _pmf_json(pmf: Pmf[int]) -> dict[str, float]:
    return {str(k): p for k, p in pmf.to_floats().items()}


def _pairs_json(pmf: Pmf[tuple[int, int]]) -> list[dict[str, float | int]]:
    return [{"normals": n, "crits": c, "probability": p} for (n, c), p in pmf.to_floats().items()]


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
        "damage_pmf": _pmf_json(result.damage),
        "expected_damage": float(result.expected_damage),
        "kill_probability": float(result.kill_probability),
        "crit_probability": float(result.crit_probability),
        "stun_probability": float(result.stun_probability),
        "piercing_crits_probability": float(result.piercing_crits_probability),
        "retained_crits_pmf": _pmf_json(result.retained_crits),
        "retained": _pairs_json(result.retained),
        "unblocked": _pairs_json(result.unblocked),
        "hot_damage_pmf": None if result.hot is None else _pmf_json(result.hot),
        "area_damage_pmf": None if result.area_damage is None else _pmf_json(result.area_damage),
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
            "damage_taken_pmf": _pmf_json(outcome.damage_taken),
            "expected_damage_taken": float(outcome.expected_damage_taken),
            "stunned_probability": float(outcome.stunned_probability),
            "hot_damage_pmf": None if outcome.hot is None else _pmf_json(outcome.hot),
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


def _pmf_table(title: str, pmf: Pmf[int]) -> Table:
    table = Table(title=title)
    table.add_column("damage", justify="right")
    table.add_column("P(=)", justify="right")
    table.add_column("P(>=)", justify="right")
    tails = pmf.tail_floats()
    for k, p in pmf.to_floats().items():
        table.add_row(str(k), f"{p:.4f}", f"{tails[k]:.4f}")
    return table


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="killteam")
def cli() -> None:
    """Kill Team (2024) rules engine: whole battles (play, replay, batch), exact dice odds,
    killzone pictures and team data."""


@cli.group()
def calc() -> None:
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
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
    as_json: bool,
) -> None:
    """Exact odds of one shooting attack (rules/KT24.md section 5.1)."""
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
    console = Console(emoji=False)
    state = [s for s, on in (("in cover", target.in_cover), ("obscured", obscured)) if on]
    console.print(
        f"[bold]{attacks} attacks, Hit {hit}+, damage {damage[0]}/{damage[1]}"
        f"{', ' + markup(profile.rules.format()) if profile.rules else ''}[/bold] against "
        f"Save {save}+, {wounds} wounds{' (' + ', '.join(state) + ')' if state else ''}"
    )
    console.print(_pmf_table("Damage inflicted", result.damage))
    console.print(f"Expected damage: [bold]{float(result.expected_damage):.3f}[/bold]")
    console.print(
        f"Kill probability (damage >= {wounds}): [bold]{float(result.kill_probability):.4f}[/bold]"
    )
    console.print(f"At least one critical success retained: {float(result.crit_probability):.4f}")
    if profile.rules.dice.stun:
        console.print(f"Stun takes effect: {float(result.stun_probability):.4f}")
    if result.hot is not None:
        console.print(f"Hot: expected self-damage {float(result.hot.mean()):.3f}")


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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
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
    as_json: bool,
) -> None:
    """Exact odds of one fight (rules/KT24.md section 5.2)."""
    attacker = Fighter(AttackProfile(attacks, hit, damage[0], damage[1], rules), wounds)
    defender = Fighter(
        AttackProfile(enemy_attacks, enemy_hit, enemy_damage[0], enemy_damage[1], enemy_rules),
        enemy_wounds,
    )
    result = fight(attacker, defender, policy=policy, defender_policy=enemy_policy, first=first)
    if as_json:
        click.echo(json.dumps(fight_json(attacker, defender, result, first), indent=2))
        return
    console = Console(emoji=False)
    console.print(
        f"[bold]Fight[/bold] (policies: attacker {result.policies[0]}, defender "
        f"{result.policies[1]}; {first} resolves first)"
    )
    for name, side in (("Attacker", result.attacker), ("Defender", result.defender)):
        console.print(_pmf_table(f"{name}: damage taken (wounds {side.wounds})", side.damage_taken))
        console.print(
            f"{name} incapacitated: [bold]{float(side.incapacitated_probability):.4f}[/bold]; "
            f"expected damage taken {float(side.expected_damage_taken):.3f}"
        )
        if side.stunned_probability:
            console.print(f"{name} stunned: {float(side.stunned_probability):.4f}")
        if side.hot is not None:
            console.print(f"{name} Hot: expected self-damage {float(side.hot.mean()):.3f}")


@cli.command("render")
@click.argument("killzone")
@click.option(
    "-o",
    "--output",
    required=True,
    callback=output_file(PICTURE_SUFFIXES),
    help="Output picture: a .png or .svg file.",
)
@click.option(
    "--operatives",
    default=None,
    metavar="PATH",
    help='JSON file {"operatives": [{"name", "player", "x", "y", "base_mm"?, "elevation"?, '
    '"model_height"?}]} (inches, mm).',
)
@click.option(
    "--sight",
    nargs=2,
    default=None,
    metavar="SHOOTER TARGET",
    help="Draw the targeting lines and verdicts between two named operatives.",
)
@click.option(
    "--open-hatchways",
    multiple=True,
    metavar="NAME",
    help="Draw this hatchway open (repeatable).",
)
def render_command(
    killzone: str,
    output: str,
    operatives: str | None,
    sight: tuple[str, str] | None,
    open_hatchways: tuple[str, ...],
) -> None:
    """Draw KILLZONE (a shipped layout name, or a layout file: a .toml or .json path) to a PNG
    or SVG picture."""
    from engine.geometry import load_killzone
    from engine.geometry.render import load_operatives, render_killzone

    kz = load_killzone(killzone)
    if open_hatchways:
        kz = kz.with_open_hatchways(open_hatchways)
    ops = load_operatives(operatives) if operatives else None
    if sight and ops is None:
        raise click.BadParameter("--sight needs --operatives", param_hint="--sight")
    written = render_killzone(kz, output, operatives=ops, sight=sight or None)
    echo(f"wrote {written}")


__import__("engine.cli_teams", fromlist=["register"]).register(cli)  # killteam teams ...
__import__("engine.cli_play", fromlist=["register"]).register(cli)  # play, replay, batch


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``killteam`` console script.

    Returns the exit status: 0 on success, 2 on bad input or a file that cannot be read or
    written (one line on standard error, never a traceback; control characters of the names
    and paths it quotes shown as escapes, :func:`engine.terminal.printable`), 130 when
    interrupted.
    """

    def one_line(text: str) -> str:
        # click words some messages over several lines ("Choose from:\n\t..."): one line;
        # user text in it (a name, a path) cannot drive the terminal (engine.terminal).
        return printable(" ".join(text.split()))

    try:
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="killteam",
            standalone_mode=False,
        )
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return 0
    except click.exceptions.UsageError as exc:
        where = f"{exc.ctx.command_path}: " if exc.ctx is not None else "killteam: "
        click.echo(f"{where}error: {one_line(exc.format_message())}", err=True)
        return 2
    except click.ClickException as exc:
        click.echo(f"killteam: error: {one_line(exc.format_message())}", err=True)
        return exc.exit_code
    except KillTeamError as exc:
        click.echo(f"killteam: error: {one_line(str(exc))}", err=True)
        return 2
    except OSError as exc:  # a file named on the command line that cannot be read or written
        where = f"{exc.filename}: " if exc.filename is not None else ""
        what = exc.strerror or " ".join(str(exc).split())
        click.echo(printable(f"killteam: error: {where}{what}"), err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("killteam: aborted", err=True)
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
