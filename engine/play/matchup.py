"""A matchup: everything a battle needs but its seed, from the user's choices.

:func:`make_matchup` turns the user's choices (:class:`MatchupChoice`: team names or files,
roster files, a killzone name or file, agent names, equipment selections, mission ops) into a
:class:`Matchup`, with a roster chosen automatically when only a team is named
(:func:`auto_roster`). Defaults are those of :mod:`engine.play`; the default teams are the
ruleset's (:func:`engine.play.default_teams`).

The ruleset (``MatchupChoice.ruleset``, ``--ruleset``) is checked through its own composition
root: the matchup's options are installed once into a scratch
:class:`~engine.game.context.Hooks` (:meth:`engine.rulesets.Ruleset.install`), so an option the
ruleset's rules refuse (a mission of another edition, an unknown op) is refused here, and an
option its rules would not play (an equipment selection when the ruleset installs no
equipment rules, an op name the ruleset does not know) is refused rather than ignored. The
core is never asked which ruleset is in play.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from engine.agents import AGENT_NAMES
from engine.errors import KillTeamError
from engine.game.context import GameOptions, Hooks
from engine.game.deployment import drop_zone_problems
from engine.game.setup import SetupError
from engine.game.state import GameState
from engine.geometry import Killzone, load_killzone
from engine.geometry.movement import move_graph
from engine.inputs import excerpt, parse_json, read_text
from engine.missions.pack import crit_ops, tac_ops_for
from engine.names import TEAM_FILE_SUFFIXES, did_you_mean, is_file_ref
from engine.play import (
    DEFAULT_AGENTS,
    DEFAULT_KILLZONE,
    DEFAULT_RULESET,
    NO_EQUIPMENT,
    BattleError,
    default_teams,
)
from engine.rules import unimplemented_rules
from engine.rules.equipment import MAX_OPTIONS, SELECTIONS, option_of
from engine.rulesets import get as get_ruleset
from engine.rulesets import new_game
from engine.teams.importers.killteamjson import import_killteamjson
from engine.teams.io import builtin_teams, load_builtin_team, load_team
from engine.teams.model import Operative, Roster, Team
from engine.teams.roster_file import load_roster

__all__ = [
    "Matchup",
    "MatchupChoice",
    "auto_roster",
    "auto_roster_note",
    "builtin_team_equipment",
    "load_team_ref",
    "make_matchup",
    "parse_agents",
    "parse_equipment",
    "unimplemented_rule_ids",
    "unimplemented_rules_line",
]


# -------------------------------------------------------------------------------------------
# Teams, rosters, agents, seeds
# -------------------------------------------------------------------------------------------


def _is_killteamjson(data: Any) -> bool:
    return isinstance(data, Mapping) and "opTypes" in data and "killteamName" in data


def load_team_ref(ref: str) -> Team:
    """A team from a built-in id, a team file in the project's format, or one team file of
    the killteamjson (KTDash-derived) dataset (``en/teams/IMP-KAS.json``), imported on the fly
    by :func:`engine.teams.importers.killteamjson.import_killteamjson`.

    The file is read through :mod:`engine.inputs` (UTF-8 JSON, at most 64 MiB, nesting at most
    64 levels, numbers finite and at most 1e15) and the team checked against the limits of
    :mod:`engine.teams.model`.

    A reference that does not end in ``.json`` is a built-in name and nothing else
    (:mod:`engine.names`): ``"../x"`` never opens a file.

    Raises:
        BattleError: no such built-in team, a ``.json`` path that is missing (``"x.json: no
            such team file"``), a folder or not a regular file (a device, a FIFO), a roster
            file given as a team, or an unreadable or invalid team (the message names the
            file and the field).
    """
    if ref in builtin_teams(None):
        return load_builtin_team(ref)
    path = Path(ref)
    # A name is never a path (engine.names): only a .json reference is opened as a file,
    # and a missing one, a folder or a device is named as such (engine.inputs.open_input).
    if not is_file_ref(ref, TEAM_FILE_SUFFIXES):
        shown = ref if len(ref) <= 200 else ref[:200] + "..."
        raise BattleError(
            f"{shown}: not a built-in team ({', '.join(builtin_teams(None))}) or a team file"
        )
    data = parse_json(read_text(path, BattleError, "team file"), str(path), BattleError)
    if isinstance(data, Mapping) and set(data) == {"team", "operatives"}:
        raise BattleError(f"{ref}: this is a roster file; pass it with --rosters")
    try:
        if _is_killteamjson(data):
            teams = import_killteamjson(path).teams
            if len(teams) != 1:
                raise BattleError(f"{ref}: expected one killteamjson team, found {len(teams)}")
            return teams[0]
        return load_team(path)
    except BattleError:
        raise
    except KillTeamError as exc:
        raise BattleError(str(exc)) from None


def _loadout_choices(card: Operative) -> list[tuple[str, ...] | None]:
    """Every loadout of ``card`` (one option name per slot, slots and options in datacard
    order), or ``[None]`` for a type with a fixed loadout."""
    if card.fixed_loadout is not None:
        return [None]
    return [
        tuple(o.name for o in combo)
        for combo in itertools.product(*(s.options for s in card.loadouts))
    ]


_LIMIT_PREFIXES = ("limit", "keyword limit", "combined limit")


def auto_roster(team: Team) -> Roster:
    """The team's default roster, or, for a team without one (imported teams), a roster
    chosen deterministically that is legal under the selection rules the team holds
    (``rules/KT24.md`` 1.2, 7): size, leader, limits on types and on options, keyword limits
    and combined limits. Rules an importer could not read are not in the team and so are not
    checked (:func:`auto_roster_note` says so).

    The chosen roster has the middle of the allowed size range (rounded down; counted in
    selections, ``Selection.selections``): the first leader type, then the types the team
    must include (``Selection.minimums``), then the other operative types in datacard order,
    one of each per round,
    skipping a type once a selection limit would be broken. A type with wargear options takes
    the loadout (slots' options in datacard order) it has been given least often so far that
    breaks no limit, so per-option limits ("each option only once") are respected.

    Raises:
        BattleError: when no legal roster comes out (the message lists the broken rules and
            suggests a roster file).
    """
    if team.default_roster:
        return team.default()
    sel = team.selection
    lo, hi = sel.size
    size = max(lo, (lo + hi) // 2)
    cards = {op.name: op for op in team.operatives}
    picked: list[tuple[str, tuple[str, ...] | None]] = []

    def fits(name: str, loadout: tuple[str, ...] | None) -> bool:
        trial = Roster(
            team,
            (*(n for n, _ in picked), name),
            (*(lo_ for _, lo_ in picked), loadout),
        )
        if sel.selections(trial.operatives) > hi:  # a type counting as two may not fit
            return False
        return not any(p.startswith(_LIMIT_PREFIXES) for p in trial.validate())

    def add(name: str) -> bool:
        choices = _loadout_choices(cards[name])
        used = [lo_ for n, lo_ in picked if n == name]
        order = sorted(range(len(choices)), key=lambda k: (used.count(choices[k]), k))
        for k in order:
            if fits(name, choices[k]):
                picked.append((name, choices[k]))
                return True
        return False

    for name in sel.leader:
        if name in cards and add(name):
            break

    def made() -> int:
        return sel.selections([n for n, _ in picked])

    for selector, least in sel.minimums:  # the types a roster must include, first
        name = selector.partition(" [")[0]
        for _ in range(least):
            if name in cards and made() < size:
                add(name)
    others = [op.name for op in team.operatives if op.name not in sel.leader]
    while made() < size and others:
        added = False
        for name in others:
            if made() >= size:
                break
            added = add(name) or added
        if not added:
            break
    roster = Roster(team, tuple(n for n, _ in picked), tuple(lo_ for _, lo_ in picked))
    problems = roster.validate()
    if problems:
        raise BattleError(
            f"team {team.name!r} has no default roster and none can be chosen automatically "
            f"({'; '.join(problems)}): pass a roster file with --rosters"
        )
    return roster


def auto_roster_note(team: Team, roster: Roster) -> str | None:
    """One line saying how ``roster`` (from :func:`auto_roster`) was chosen when ``team`` has
    no default roster: which selection rules it is legal under, and which kinds of rule the
    team holds none of (an imported team holds only what its importer could read; the import
    report lists the rest). ``None`` for a team with a default roster."""
    if team.default_roster:
        return None
    sel = team.selection
    option_limits = sum(1 for s, _ in sel.limits if "[" in s)
    have = {
        "limits on types": len(sel.limits) - option_limits,
        "limits on options": option_limits,
        "keyword limits": len(sel.keyword_limits),
        "combined limits": len(sel.combined_limits),
    }
    rules = [f"size {sel.size[0]}-{sel.size[1]}"]
    if sel.leader:
        rules.append("one leader")
    rules += [f"{n} {what}" for what, n in have.items() if n]
    none = [what for what, n in have.items() if not n]
    has_options = any(len(op.loadouts) and op.fixed_loadout is None for op in team.operatives)
    if not has_options:
        none.append("wargear options")
    text = (
        f"team {team.name!r} has no default roster; playing one chosen automatically, legal "
        f"under the selection rules its file holds ({', '.join(rules)})"
    )
    if none:
        listed = ", ".join(f"no {what}" for what in none[:-1])
        listed = f"{listed} and no {none[-1]}" if listed else f"no {none[-1]}"
        text += f"; it holds {listed}: any such rule of its source was not read and is not checked"
        if not has_options:
            text += " (every operative carries every weapon on its datacard)"
    return f"{text}. Roster: {', '.join(roster.entries)}"


def parse_agents(text: str | Sequence[str]) -> tuple[str, str]:
    """Agent names for players A and B from ``"heuristic"`` (both) or ``"heuristic,random"``
    (A, B); names are case-insensitive (:data:`engine.agents.AGENT_NAMES`).

    Raises:
        BattleError: not one or two known names.
    """
    parts = (
        [t.strip().lower() for t in text.split(",")]
        if isinstance(text, str)
        else [t.strip().lower() for t in text]
    )
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or any(p not in AGENT_NAMES for p in parts):
        shown = text if isinstance(text, str) else ",".join(text)
        unknown = next((p for p in parts if p not in AGENT_NAMES), "")
        raise BattleError(
            f"agents {shown!r}: give one agent for both players or two separated by a comma "
            f"(A,B), each one of {', '.join(AGENT_NAMES)}" + did_you_mean(unknown, AGENT_NAMES)
        )
    return parts[0], parts[1]


def _canonical_selection(name: str, own: Sequence[str] = ()) -> str | None:
    low = " ".join(name.lower().split())
    return next((s for s in (*SELECTIONS, *own) if " ".join(s.lower().split()) == low), None)


def builtin_team_equipment() -> tuple[str, ...]:
    """The names of every built-in team's own equipment options (the command line accepts
    them before it knows the teams; :func:`make_matchup` checks them per team)."""
    names: list[str] = []
    for ref in builtin_teams(None):
        try:
            names += [e.name for e in load_builtin_team(ref).equipment]
        except KillTeamError:  # pragma: no cover - shipped teams load
            continue
    return tuple(dict.fromkeys(names))


def parse_equipment(text: str, own: Sequence[str] = (), team: str = "") -> tuple[str, ...]:
    """A player's equipment selection (``rules/KT24.md`` 7.2) from the command line: names
    separated by commas, each one of :data:`engine.rules.equipment.SELECTIONS` or of
    ``own`` (the names of the team's own equipment options, ``Team.equipment``;
    ``team`` is the team's name for messages), case-insensitive, extra spaces ignored, e.g.
    ``"Explosive Grenades (2 frag),Mines"``; ``"none"`` is the empty selection.

    Returns:
        The canonical names, in the order given.

    Raises:
        BattleError: an empty name, an unknown name (the message names it and lists the known
            ones; a grenade option without its split lists its splits), an option selected
            twice (a grenade option counts once whatever its split), or more than
            :data:`engine.rules.equipment.MAX_OPTIONS` options.
    """
    if " ".join(text.lower().split()) == NO_EQUIPMENT:
        return ()
    out: list[str] = []
    for raw in text.split(","):
        name = " ".join(raw.split())
        if not name:
            raise BattleError(
                f"equipment {excerpt(text)}: an empty name (give names separated by commas, "
                f"or {NO_EQUIPMENT})"
            )
        got = _canonical_selection(name, own)
        if got is None:
            splits = [s for s in SELECTIONS if option_of(s).lower() == name.lower()]
            if splits:
                raise BattleError(
                    f"equipment {excerpt(name)}: give the split of the grenades: "
                    f"{', '.join(splits)} (7.2)"
                )
            mine = f"{team} " if team else ""
            raise BattleError(
                f"equipment {excerpt(name)}: not a {mine}universal equipment option (known: "
                f"{', '.join((*own, *SELECTIONS))}; or {NO_EQUIPMENT})"
                + did_you_mean(name, (*own, *SELECTIONS))
            )
        if any(option_of(x) == option_of(got) for x in out):
            raise BattleError(
                f"equipment {excerpt(text)}: {option_of(got)} selected twice (each option at "
                "most once, 7.2)"
            )
        out.append(got)
    if len(out) > MAX_OPTIONS:
        raise BattleError(
            f"equipment {excerpt(text)}: {len(out)} options, at most {MAX_OPTIONS} (7.2)"
        )
    return tuple(out)


# -------------------------------------------------------------------------------------------
# Matchups
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class MatchupChoice:
    """The user's choices, as text (picklable, so worker processes rebuild the matchup).

    Attributes:
        teams: two team references (:func:`load_team_ref`), or ``None``.
        rosters: two roster files (``engine.teams.load_roster``), or ``None``; at most one of
            ``teams`` and ``rosters``; neither means the ruleset's default teams
            (:func:`engine.play.default_teams`).
        killzone: a shipped layout name or a layout file (``None``: :data:`DEFAULT_KILLZONE`).
        agents: agent names (:func:`parse_agents`; ``None``: :data:`DEFAULT_AGENTS`).
        equipment: the universal equipment selections of A and B as text
            (:func:`parse_equipment`); ``None`` for a player lets its agent choose (7.2).
        crit_op: the crit op's name (``None``: rolled at the start of the battle, 8.3).
        tac_ops: the tac ops of A and B (``None`` for a player: its agent selects, 8.4).
        primary_ops: the primary ops of A and B, ``crit``, ``tac`` or ``kill`` (``None``:
            its agent selects, 8.1).
        ruleset: the ruleset's name (``"kt24"``, ``"kt21"``; ``None``:
            :data:`engine.play.DEFAULT_RULESET`); it also decides the default teams
            (:func:`engine.play.default_teams`).
        mission: the mission or game sequence (:data:`engine.game.context.MISSIONS`;
            ``None``: the ruleset's default, :data:`engine.game.context.DEFAULT_MISSIONS`).
    """

    teams: tuple[str, str] | None = None
    rosters: tuple[str, str] | None = None
    killzone: str | None = None
    agents: str | None = None
    equipment: tuple[str | None, str | None] = (None, None)
    crit_op: str | None = None
    tac_ops: tuple[str | None, str | None] = (None, None)
    primary_ops: tuple[str | None, str | None] = (None, None)
    ruleset: str | None = None
    mission: str | None = None


@attrs.frozen(slots=True, eq=False)
class Matchup:
    """Everything a battle needs except its seed.

    Attributes:
        killzone: the layout; rosters: players A and B; agents: agent names for A and B;
        options: the game options (default: KT24, Approved Ops 2025 kill op).
        notes: lines for the user about how the set-up was chosen (a roster chosen
            automatically, :func:`auto_roster_note`); the CLI prints them on standard error.
    """

    killzone: Killzone
    rosters: tuple[Roster, Roster]
    agents: tuple[str, str]
    options: GameOptions = attrs.field(factory=GameOptions)
    notes: tuple[str, ...] = ()

    def new_game(self) -> GameState:
        """A new battle at its first node.

        Raises:
            BattleError: the engine refuses the set-up (e.g. an illegal roster).
        """
        try:
            return new_game(self.killzone, self.rosters[0], self.rosters[1], self.options)
        except SetupError as exc:
            raise BattleError(str(exc)) from None

    def warm(self) -> None:
        """Build the killzone's movement graphs for every base size in the rosters now (they
        are cached on the killzone; worker processes forked afterwards inherit them)."""
        sizes = sorted(
            {r.team.operative(name).base_mm for r in self.rosters for name in r.operatives}
        )
        for base_mm in sizes:
            move_graph(self.killzone, base_mm)


def make_matchup(choice: MatchupChoice | None = None) -> Matchup:
    """Build a :class:`Matchup` from the user's choices (defaults for what is ``None``).

    Raises:
        BattleError: both teams and rosters given, an unknown ruleset or mission, a team,
            roster file, killzone, agent name or equipment selection that cannot be used (the
            message names it and the player; an empty killzone or crit op name is unknown
            like any other, never the default), an option the ruleset's rules refuse or do
            not play (module docstring), or a drop zone where the operatives might not all
            be set up (checked here, before any battle is played).
    """
    c = choice or MatchupChoice()
    if c.teams is not None and c.rosters is not None:
        raise BattleError("choose the teams with --teams or with --rosters, not both")
    ruleset = DEFAULT_RULESET if c.ruleset is None else c.ruleset
    defaults = default_teams(ruleset)
    try:
        base = (
            GameOptions(ruleset=ruleset)
            if c.mission is None
            else GameOptions(ruleset=ruleset, mission=c.mission)
        )
    except KillTeamError as exc:
        raise BattleError(str(exc).removeprefix("game option ")) from None
    rosters: list[Roster] = []
    notes: list[str] = []
    for player, k in (("A", 0), ("B", 1)):
        try:
            if c.rosters is not None:
                rosters.append(load_roster(c.rosters[k]))
            else:
                ref = (c.teams or defaults)[k]
                if c.teams is None and ref not in builtin_teams(None):
                    raise BattleError(
                        f"{ref}: the default team of the ruleset {ruleset} is not built in "
                        "yet; choose the teams with --teams"
                    )
                team = load_team_ref(ref)
                rosters.append(auto_roster(team))
                note = auto_roster_note(team, rosters[-1])
                if note is not None:
                    notes.append(f"player {player}: {note}")
        except KillTeamError as exc:
            what = "roster" if c.rosters is not None else "team"
            raise BattleError(f"{what} of player {player}: {exc}") from None
        edition = rosters[-1].team.edition
        if edition != ruleset:
            notes.append(
                f"player {player}: {rosters[-1].team.name} is a {edition} team, played under "
                f"the ruleset {ruleset}"
            )
    try:
        # An empty name given is an error like any unknown name, not the default.
        killzone = load_killzone(DEFAULT_KILLZONE if c.killzone is None else c.killzone)
    except KillTeamError as exc:
        raise BattleError(f"killzone: {exc}") from None
    agents = parse_agents(c.agents) if c.agents is not None else DEFAULT_AGENTS
    options, hooks = _mission_options(c, base, rosters)
    equipment: dict[str, tuple[str, ...]] = {}
    for player, text in zip("AB", c.equipment, strict=True):
        if text is not None:
            if hooks.equipment_check is None and " ".join(text.lower().split()) != NO_EQUIPMENT:
                raise BattleError(
                    f"player {player}: equipment {excerpt(text)}: the ruleset {ruleset} plays "
                    "no equipment selection (its rules install none)"
                )
            try:
                team = rosters["AB".index(player)].team
                own = [e.name for e in team.equipment]
                selected = parse_equipment(text, own, f"{team.name} or")
                if hooks.equipment_check is not None:
                    try:  # the ruleset's own check (KT21: the team's items within 10EP)
                        hooks.equipment_check(selected, team)
                    except ValueError as exc:
                        raise BattleError(f"equipment {excerpt(text)}: {exc}") from None
                    equipment[player] = selected
            except BattleError as exc:
                raise BattleError(f"player {player}: {exc}") from None
    bases = {
        p: [r.datacard(k).base_mm for k in range(len(r.operatives))]
        for p, r in zip("AB", rosters, strict=True)
    }
    problems = drop_zone_problems(killzone, bases)
    if problems:
        raise BattleError(f"killzone: {problems[0]}")
    return Matchup(
        killzone,
        (rosters[0], rosters[1]),
        agents,
        options=attrs.evolve(options, equipment=equipment),
        notes=tuple(notes),
    )


def _mission_options(
    c: MatchupChoice, base: GameOptions, rosters: list[Roster]
) -> tuple[GameOptions, Hooks]:
    """``base`` with the mission choices of ``c`` (crit op, tac ops, primary ops), checked by
    the ruleset's own rules (module docstring: installed once into scratch hooks, which are
    returned) and, for each op named, by the ruleset's op names
    (:meth:`engine.rulesets.Ruleset.op_name`; ``rules/KT24.md`` 8, ``rules/KT21.md`` 15).

    Raises:
        BattleError: an unknown (or empty) crit op, a tac op the player's kill team cannot
            select, a primary op other than crit, tac or kill, a mission of another ruleset
            (the message names it and the choices).
    """
    if c.crit_op is not None and not c.crit_op:  # "" in the options means "rolled"
        names = ", ".join(s.name for s in crit_ops())
        raise BattleError(f"'crit_op': no crit op '' ({names})")

    tac = {p: t for p, t in zip("AB", c.tac_ops, strict=True) if t is not None}
    primary = {p: t.lower() for p, t in zip("AB", c.primary_ops, strict=True) if t is not None}
    ruleset = get_ruleset(base.ruleset)
    hooks = Hooks()
    try:
        crit = "" if c.crit_op is None else c.crit_op
        options = attrs.evolve(base, crit_op=crit, tac_ops=tac, primary_ops=primary)
        ruleset.install(hooks, options, {"A": rosters[0], "B": rosters[1]})
        if crit and ruleset.op_name(crit, "crit") is None:
            raise BattleError(
                f"'crit_op': the ruleset {ruleset.name} has no crit op {excerpt(crit)}"
            )
        for p, name in tac.items():
            if ruleset.op_name(name, "tac") is None:
                raise BattleError(
                    f"'tac_ops': the ruleset {ruleset.name} has no tac op {excerpt(name)} "
                    f"(player {p})"
                )
    except BattleError:
        raise
    except KillTeamError as exc:  # the ruleset's own rules refuse an option
        hint = ""
        # (suggest only the ops this ruleset plays: the Approved Ops names are KT24's)
        if c.crit_op and "'crit_op'" in str(exc):
            known = [s.name for s in crit_ops() if ruleset.op_name(s.name, "crit")]
            hint = did_you_mean(c.crit_op, known)
        elif "'tac_ops'" in str(exc):
            for p, name in tac.items():
                allowed = [
                    s.name
                    for s in tac_ops_for(rosters["AB".index(p)].team.archetypes)
                    if ruleset.op_name(s.name, "tac")
                ]
                if " ".join(name.lower().split()) not in {a.lower() for a in allowed}:
                    hint = did_you_mean(name, allowed)
                    break
        raise BattleError(str(exc).removeprefix("game option ") + hint) from None
    return options, hooks


def unimplemented_rule_ids(matchup: Matchup) -> dict[str, list[str]]:
    """``{"A": ids, "B": ids}``: the sorted ids of the team rules of each player's team that
    the engine does not play (:func:`engine.rules.unimplemented_rules`)."""
    return {
        p: sorted(d.id for d in unimplemented_rules(r.team))
        for p, r in zip(("A", "B"), matchup.rosters, strict=True)
    }


def unimplemented_rules_line(matchup: Matchup) -> str:
    """One line naming the unimplemented team rules of the teams in play, with their count
    per player: ``unimplemented team rules: A Kasrkin 25 (Rapid Fire, ...); B ...``."""
    parts = []
    for p, r in zip(("A", "B"), matchup.rosters, strict=True):
        decls = unimplemented_rules(r.team)
        names = ", ".join(d.name for d in decls) or "none"
        parts.append(f"{p} {r.team.name} {len(decls)} ({names})")
    return "unimplemented team rules: " + "; ".join(parts)
