"""The options ``killteam play`` and ``killteam batch`` share, and what both do with them.

- :func:`matchup_options`: ``--teams``, ``--rosters``, ``--killzone``, ``--agents``,
  ``--equipment-a``/``--equipment-b`` (``rules/KT24.md`` 7.2: universal options and the team's
  own, :func:`engine.play.matchup.parse_equipment`, checked per team; without them the
  player's agent chooses), ``--crit-op``, ``--tac-ops`` and ``--primary-ops``;
- :func:`matchup_of` builds the matchup (its notes on standard error) and
  :func:`report_rules` names the unimplemented team rules in play (``--strict-rules``).

Only the names the options' help shows are imported here; the rest of the library is
imported when a command runs, so ``--help`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from engine.errors import KillTeamError
from engine.inputs import EXCERPT_CHARS, excerpt
from engine.names import TEAM_FILE_SUFFIXES, check_builtin_name, is_file_ref
from engine.play import (
    DEFAULT_AGENTS,
    DEFAULT_KILLZONE,
    DEFAULT_RULESET,
    NO_EQUIPMENT,
    RULESET_TEAMS,
    BattleError,
)
from engine.terminal import echo

if TYPE_CHECKING:
    from engine.play.matchup import Matchup, MatchupChoice

__all__ = [
    "MAX_GAMES",
    "MAX_SEED",
    "choice_of",
    "matchup_of",
    "matchup_options",
    "report_rules",
    "ruleset_of_file_option",
    "ruleset_option",
    "strict_rules_option",
    "versus",
]

#: What ``--ruleset`` chooses, for its help: each ruleset with its default teams.
_RULESETS_HELP = "; ".join(f"{name}: {' v '.join(teams)}" for name, teams in RULESET_TEAMS.items())


def ruleset_option(f: Any) -> Any:
    """Add ``--ruleset`` (the ``ruleset`` argument, a name of
    :data:`engine.play.RULESET_TEAMS`, any case; ``None`` when not given): the rules edition a
    new battle is played under, which also picks the default teams."""
    return click.option(
        "--ruleset",
        type=click.Choice(list(RULESET_TEAMS), case_sensitive=False),
        default=None,
        help="The rules edition: kt24 (Kill Team 2024, Approved Ops 2025), kt21 (Kill Team "
        "2021, Critical Operations 2022) or kt18 (Kill Team 2018, Covert War). It picks the "
        "default teams (--teams) and mission (--mission): "
        f"{_RULESETS_HELP}. Default: {DEFAULT_RULESET}.",
    )(f)


def ruleset_of_file_option(f: Any) -> Any:
    """Add ``--ruleset`` (the ``ruleset`` argument, ``None`` when not given) to a command that
    reads a record or a scenario file: the ruleset is the one the file names; given, it must
    be that one (a record never replays under another ruleset)."""
    return click.option(
        "--ruleset",
        type=click.Choice(list(RULESET_TEAMS), case_sensitive=False),
        default=None,
        help="The ruleset to replay under: kt24, kt21 or kt18. Default: the one the record's "
        "header or the scenario file's options name; given, it must be that one (a record of one "
        "ruleset never replays under another).",
    )(f)


def _agents_option(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from engine.play.matchup import parse_agents

    try:
        parse_agents(value)
    except BattleError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _equipment_option(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> str | None:
    if value is None:
        return None
    from engine.play.matchup import builtin_team_equipment, parse_equipment

    try:
        parse_equipment(value, builtin_team_equipment())  # checked per team by make_matchup
    except BattleError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


#: The largest seed: every seed is kept in records and JSON output, and JSON integers are exact
#: in every reader (JavaScript's included) only up to 2**53 - 1.
MAX_SEED = 2**53 - 1

#: The most games ``killteam batch`` plays in one run (far above real use: a battle takes
#: seconds).
MAX_GAMES = 1_000_000


def _teams_option(
    _ctx: click.Context, _param: click.Parameter, value: tuple[str, str] | None
) -> tuple[str, str] | None:
    """``--teams A B``: each a built-in team id or a ``.json`` team file
    (:mod:`engine.names`: anything else must be a built-in id; a name is never a path)."""
    if not value:
        return value
    from engine.teams.io import builtin_teams

    known = builtin_teams(None)
    for player, ref in zip(("A", "B"), value, strict=True):
        if not is_file_ref(ref, TEAM_FILE_SUFFIXES):
            shown = ref if len(ref) <= EXCERPT_CHARS and ref.isprintable() else excerpt(ref)
            shown = shown.replace("{", "{{").replace("}", "}}")  # literal in the template
            try:
                check_builtin_name(
                    ref,
                    known,
                    f"team of player {player}: {shown}: "
                    "not a built-in team ({known}) or a team file",
                    BattleError,
                )
            except BattleError as exc:
                raise click.UsageError(str(exc)) from None
    return value


def matchup_of(choice: MatchupChoice) -> Matchup:
    """The matchup of ``choice``; its notes (a roster chosen automatically and the rules it
    was checked against) go to standard error."""
    from engine.play.matchup import make_matchup

    try:
        matchup = make_matchup(choice)
    except BattleError as exc:
        raise click.UsageError(str(exc)) from None
    for note in matchup.notes:
        echo(note, err=True)
    return matchup


def choice_of(
    teams: tuple[str, str] | None,
    rosters: tuple[str, str] | None,
    killzone: str | None,
    agents: str | None,
    equipment_a: str | None = None,
    equipment_b: str | None = None,
    crit_op: str | None = None,
    tac_ops: tuple[str, str] | None = None,
    primary_ops: tuple[str, str] | None = None,
    ruleset: str | None = None,
    mission: str | None = None,
) -> MatchupChoice:
    """The :class:`~engine.play.matchup.MatchupChoice` of the matchup options' values."""
    from engine.play.matchup import MatchupChoice

    return MatchupChoice(
        ruleset=ruleset,
        mission=mission,
        teams=teams or None,
        rosters=rosters or None,
        killzone=killzone,
        agents=agents,
        equipment=(equipment_a, equipment_b),
        crit_op=crit_op,
        tac_ops=(tac_ops[0], tac_ops[1]) if tac_ops else (None, None),
        primary_ops=(primary_ops[0], primary_ops[1]) if primary_ops else (None, None),
    )


def matchup_options(f: Any) -> Any:
    """Add the matchup options (the arguments of :func:`choice_of`, ``ruleset`` and
    ``mission`` included) to a command that plays new battles."""
    options = (
        ruleset_option,
        click.option(
            "--mission",
            default=None,
            metavar="NAME",
            help="The mission: kt24 approved_ops_2025 (default) or kill_op; kt21 "
            "critical_ops_2022 (default), corebook_2021 or lite; kt18 covert_war (the only "
            "one).",
        ),
        click.option(
            "--teams",
            nargs=2,
            default=None,
            callback=_teams_option,
            metavar="A B",
            help="Teams of players A and B: built-in ids (killteam teams list), team files, or "
            "killteamjson team files (a file is a .json path; anything else must be a built-in "
            "id); default rosters (or one chosen from the selection rules). "
            "Default: the ruleset's (--ruleset).",
        ),
        click.option(
            "--rosters",
            nargs=2,
            default=None,
            metavar="FILE FILE",
            help='Roster files of A and B: {"team": ID_OR_FILE, "operatives": [...]}.',
        ),
        click.option(
            "--killzone",
            default=None,
            metavar="NAME|FILE",
            help="A shipped layout name or a layout file (a .toml or .json path). "
            f"Default: {DEFAULT_KILLZONE}.",
        ),
        click.option(
            "--agents",
            default=None,
            callback=_agents_option,
            metavar="A[,B]",
            help=(
                "heuristic, random or mcts (a search: mcts:<seconds>s or mcts:<iterations>), "
                f"for both players or as A,B. Default: {DEFAULT_AGENTS[0]}."
            ),
        ),
        click.option(
            "--equipment-a",
            default=None,
            callback=_equipment_option,
            metavar="NAMES",
            help="Player A's equipment: up to four options separated by commas, universal or "
            "A's team's own (killteam teams show TEAM lists them), e.g. "
            f'"Explosive Grenades (2 frag),Mines", or {NO_EQUIPMENT}; the grenade options with '
            "their split (2 smoke, 2 stun, smoke and stun; 2 frag, 2 krak, frag and krak). "
            "Default: A's agent chooses.",
        ),
        click.option(
            "--equipment-b",
            default=None,
            callback=_equipment_option,
            metavar="NAMES",
            help="Player B's equipment, as --equipment-a. Default: B's agent chooses.",
        ),
        click.option(
            "--crit-op",
            default=None,
            metavar="NAME",
            help="The crit op (Approved Ops 2025): Secure, Loot, Transmission, Orb, Stake Claim, "
            "Energy Cells, Download, Data or Reboot. Default: rolled at the start of the battle.",
        ),
        click.option(
            "--tac-ops",
            nargs=2,
            default=None,
            metavar="A B",
            help="The tac ops of A and B (quote names with spaces), each of its kill team's "
            "archetypes. Default: each player's agent selects, in secret.",
        ),
        click.option(
            "--primary-ops",
            nargs=2,
            default=None,
            type=click.Choice(["crit", "tac", "kill"], case_sensitive=False),
            metavar="OP OP",
            help="The primary ops of A and B: crit, tac or kill. Default: each player's agent "
            "selects, in secret.",
        ),
    )
    for option in reversed(options):
        f = option(f)
    return f


def versus(m: Matchup) -> str:
    """``Kasrkin (A, heuristic) v Legionaries (B, random) on open_ruins, kt24
    approved_ops_2025``: the teams, agents, killzone, ruleset and mission."""
    teams = (m.rosters[0].team.name, m.rosters[1].team.name)
    return (
        f"{teams[0]} (A, {m.agents[0]}) v {teams[1]} (B, {m.agents[1]}) on {m.killzone.name}, "
        f"{m.options.ruleset} {m.options.mission}"
    )


def report_rules(matchup: Matchup, strict: bool) -> None:
    """Print one line on standard error naming the unimplemented team rules of the teams in
    play, when there is any; with ``strict`` and any such rule, refuse to play (exit status
    2)."""
    from engine.play.matchup import unimplemented_rule_ids, unimplemented_rules_line

    ids = unimplemented_rule_ids(matchup)
    if any(ids.values()):
        echo(unimplemented_rules_line(matchup), err=True)
    if strict and any(ids.values()):
        raise KillTeamError(
            "--strict-rules: refusing to play, "
            f"{len(ids['A']) + len(ids['B'])} team rules are not implemented (listed above)"
        )


def strict_rules_option(f: Any) -> Any:
    """Add ``--strict-rules`` (the ``strict_rules`` argument; :func:`report_rules`)."""
    return click.option(
        "--strict-rules",
        is_flag=True,
        help="Refuse to play (exit status 2) when a team in play has rules the engine does not "
        "implement (killteam teams rules TEAM lists them).",
    )(f)
