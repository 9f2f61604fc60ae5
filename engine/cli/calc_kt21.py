"""``killteam calc --ruleset kt21 shoot|fight``: exact KT21 dice odds (``rules/KT21.md`` 10,
11) from :mod:`engine.dice.kt21`, as a table or, with ``--json``, as one JSON object
(:func:`kt21_shoot_json`, :func:`kt21_fight_json`). Options that mean nothing in KT21
(``--obscured``: an obscured target is not a valid target, 8.3; ``--improved-cover``;
``--first defender``) are refused with one line naming them.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import click

from engine.cli.calc_output import pairs_json, pmf_json, pmf_table
from engine.cli.common import console
from engine.dice.kt21 import (
    Kt21Attack,
    Kt21Defender,
    Kt21Fighter,
    Kt21FightResult,
    Kt21ShootResult,
    kt21_fight,
    kt21_shoot,
)
from engine.dice.kt21_rules import FLAG_RULES, NUMBER_RULES, parse_kt21_weapon_rules
from engine.dice.profile import parse_threshold
from engine.errors import KillTeamError, WeaponRuleError
from engine.names import did_you_mean
from engine.terminal import markup

__all__ = [
    "Side",
    "check_rules",
    "kt21_fight_command",
    "kt21_fight_json",
    "kt21_shoot_command",
    "kt21_shoot_json",
]


def check_rules(value: str) -> str:
    """Validate a KT21 weapon-rule string for a click option (``rules/KT21.md`` 12).

    Raises:
        click.BadParameter: naming the bad rule, with the closest KT21 rule names.
    """
    try:
        parse_kt21_weapon_rules(value)
    except KillTeamError as exc:
        hint = ""
        if isinstance(exc, WeaponRuleError) and str(exc).startswith("unknown KT21"):
            word = (exc.token or "").split(" ")[0]
            names = [*FLAG_RULES, *NUMBER_RULES, "Lethal", "Rng", "Blast", "Torrent"]
            hint = did_you_mean(word, sorted(names))
        raise click.BadParameter(str(exc) + hint) from None
    return value


def _profile_json(p: Kt21Attack) -> dict[str, Any]:
    return {
        "attacks": p.attacks,
        "hit": f"{p.hit}+",
        "damage": f"{p.normal_damage}/{p.critical_damage}",
        "rules": p.rules.format(),
    }


def kt21_shoot_json(
    profile: Kt21Attack, defender: Kt21Defender, result: Kt21ShootResult
) -> dict[str, Any]:
    """The JSON of ``killteam calc --ruleset kt21 shoot --json``: ``ruleset`` ("kt21"),
    ``damage_pmf``, ``expected_damage``, ``kill_probability``, ``crit_probability``,
    ``stun_probability``, ``p_probability``, ``invulnerable_probability``,
    ``cover_probability``, ``mortal_wounds_pmf``, ``hot_damage_pmf`` and
    ``splash_damage_pmf`` (or ``null``), ``retained`` and ``unblocked`` (lists of ``{normals,
    crits, probability}``), ``not_modelled`` (rules outside these odds), ``profile`` and
    ``target``."""
    return {
        "ruleset": "kt21",
        "damage_pmf": pmf_json(result.damage),
        "expected_damage": float(result.expected_damage),
        "kill_probability": float(result.kill_probability),
        "crit_probability": float(result.crit_probability),
        "stun_probability": float(result.stun_probability),
        "p_probability": float(result.p_probability),
        "invulnerable_probability": float(result.invulnerable_probability),
        "cover_probability": float(result.cover_probability),
        "mortal_wounds_pmf": pmf_json(result.mortal_wounds),
        "hot_damage_pmf": None if result.hot is None else pmf_json(result.hot),
        "splash_damage_pmf": (
            None if result.splash_damage is None else pmf_json(result.splash_damage)
        ),
        "retained": pairs_json(result.retained),
        "unblocked": pairs_json(result.unblocked),
        "not_modelled": list(result.not_modelled),
        "profile": _profile_json(profile),
        "target": {
            "df": defender.defence,
            "save": f"{defender.save}+",
            "invulnerable": f"{defender.invulnerable}+" if defender.invulnerable else None,
            "wounds": defender.wounds,
            "cover": defender.in_cover,
        },
    }


def kt21_shoot_command(
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
    """Run ``killteam calc --ruleset kt21 shoot`` (arguments as the click options).

    Raises:
        click.UsageError: a KT24-only option; click.BadParameter: a bad ``--invuln``.
    """
    if obscured:
        raise click.UsageError(
            "--obscured: in kt21 an obscured target is not a valid target (rules/KT21.md 8.3)"
        )
    if improved_cover is not None:
        raise click.UsageError("--improved-cover is a kt24 option (kt21 has one cover save)")
    inv = 0
    if invuln is not None:
        try:
            inv = parse_threshold(invuln, "invulnerable save")
        except KillTeamError as exc:
            raise click.BadParameter(str(exc), param_hint="'--invuln'") from None
    choice = {"best": "best", "retain": "retain", "decline": "decline"}[cover_save]
    profile = Kt21Attack(attacks, hit, damage[0], damage[1], rules)
    defender = Kt21Defender(
        3 if df is None else df, save, wounds, inv, in_cover=cover, cover_choice=choice
    )
    result = kt21_shoot(profile, defender)
    if as_json:
        click.echo(json.dumps(kt21_shoot_json(profile, defender, result), indent=2))
        return
    out = console()
    extra = [f"invulnerable {inv}+"] if inv else []
    if cover:
        extra.append("in cover")
    out.print(
        f"[bold]KT21: {attacks} attacks, BS {hit}+, damage {damage[0]}/{damage[1]}"
        f"{', ' + markup(profile.rules.format()) if profile.rules else ''}[/bold] against "
        f"DF {defender.defence}, Save {save}+, {wounds} wounds"
        f"{' (' + ', '.join(extra) + ')' if extra else ''}"
    )
    out.print(pmf_table("Damage inflicted", result.damage))
    out.print(f"Expected damage: [bold]{float(result.expected_damage):.3f}[/bold]")
    out.print(
        f"Kill probability (damage >= {wounds}): [bold]{float(result.kill_probability):.4f}[/bold]"
    )
    out.print(f"At least one critical hit retained: {float(result.crit_probability):.4f}")
    if result.mortal_wounds.mean():
        out.print(f"Expected mortal wounds: {float(result.mortal_wounds.mean()):.3f}")
    if inv:
        out.print(f"Invulnerable save used: {float(result.invulnerable_probability):.4f}")
    if profile.rules.has("Stun"):
        out.print(f"Stun takes effect: {float(result.stun_probability):.4f}")
    if result.hot is not None:
        out.print(f"Hot: expected mortal wounds to the shooter {float(result.hot.mean()):.3f}")
    for line in result.not_modelled:
        out.print(f"Not in these odds: {markup(line)}")


class Side(NamedTuple):
    """One fighter as given on the command line."""

    attacks: int
    hit: int
    damage: tuple[int, int]
    rules: str
    wounds: int
    support: int
    parry_two: bool

    def fighter(self) -> Kt21Fighter:
        """The :class:`~engine.dice.kt21.Kt21Fighter`."""
        profile = Kt21Attack(self.attacks, self.hit, self.damage[0], self.damage[1], self.rules)
        return Kt21Fighter(profile, self.wounds, self.support, self.parry_two)


def kt21_fight_json(a: Kt21Fighter, b: Kt21Fighter, result: Kt21FightResult) -> dict[str, Any]:
    """The JSON of ``killteam calc --ruleset kt21 fight --json``: ``ruleset``, ``attacker``
    and ``defender`` (each ``{incapacitated_probability, damage_taken_pmf,
    expected_damage_taken, stunned_probability, wounds, support, parry_two, not_modelled,
    profile}``), ``policies`` and ``expected_objective``."""

    def side(f: Kt21Fighter, outcome: Any, unmodelled: tuple[str, ...]) -> dict[str, Any]:
        return {
            "incapacitated_probability": float(outcome.incapacitated_probability),
            "damage_taken_pmf": pmf_json(outcome.damage_taken),
            "expected_damage_taken": float(outcome.expected_damage_taken),
            "stunned_probability": float(outcome.stunned_probability),
            "wounds": f.wounds,
            "support": f.support,
            "parry_two": f.parry_two,
            "not_modelled": list(unmodelled),
            "profile": _profile_json(f.profile),
        }

    return {
        "ruleset": "kt21",
        "attacker": side(a, result.attacker, result.not_modelled[0]),
        "defender": side(b, result.defender, result.not_modelled[1]),
        "policies": {"attacker": result.policies[0], "defender": result.policies[1]},
        "expected_objective": float(result.expected_objective),
    }


def kt21_fight_command(
    attacker: Side,
    defender: Side,
    policy: str,
    enemy_policy: str | None,
    first: str,
    as_json: bool,
) -> None:
    """Run ``killteam calc --ruleset kt21 fight``.

    Raises:
        click.UsageError: ``--first defender`` (in KT21 the attacker always resolves first).
    """
    if first != "attacker":
        raise click.UsageError("--first: in kt21 the attacker resolves first (rules/KT21.md 11)")
    a, b = attacker.fighter(), defender.fighter()
    result = kt21_fight(a, b, policy=policy, defender_policy=enemy_policy)
    if as_json:
        click.echo(json.dumps(kt21_fight_json(a, b, result), indent=2))
        return
    out = console()
    out.print(
        f"[bold]KT21 fight[/bold] (policies: attacker {result.policies[0]}, defender "
        f"{result.policies[1]}; attacker resolves first)"
    )
    sides = (
        ("Attacker", result.attacker, result.not_modelled[0]),
        ("Defender", result.defender, result.not_modelled[1]),
    )
    for name, outcome, unmodelled in sides:
        out.print(
            pmf_table(f"{name}: damage taken (wounds {outcome.wounds})", outcome.damage_taken)
        )
        out.print(
            f"{name} incapacitated: [bold]{float(outcome.incapacitated_probability):.4f}[/bold]; "
            f"expected damage taken {float(outcome.expected_damage_taken):.3f}"
        )
        if outcome.stunned_probability:
            out.print(f"{name} stunned (APL -1): {float(outcome.stunned_probability):.4f}")
        for line in unmodelled:
            out.print(f"{name}'s weapon, not in these odds: {markup(line)}")
