"""The ``killteam teams`` commands: list, show, import and compare team data.

- ``killteam teams list``: the built-in teams as a table (the KT24 teams, then the KT21
  teams with their edition, ``rules/KT21.md`` 4.1).
- ``killteam teams show NAME``: a team's datacards, wargear options, roster-time choices
  (with their options and defaults) and selection limits (``NAME`` is a built-in id or a
  ``.json`` team file; :mod:`engine.names`).
- ``killteam teams import PATH --format killteamjson|bsdata|bsdata21|bsdata18 [--team NAME]
  [-o DIR]``: read a community dataset checkout and write team files in the project's
  format, one per team, then print the import report (``bsdata21``: the Kill Team 2021
  catalogues, :mod:`engine.teams.importers.bsdata21`; ``bsdata18``: the Kill Team 2018
  catalogues, :mod:`engine.teams.importers.bsdata18`; both end with ``catalogues: N
  imported, M refused``).
- ``killteam teams compare KTJSON_PATH BSDATA_PATH``: list the differences between the two
  datasets.
- ``killteam teams rules NAME [--json]``: every team rule with its kind, name, id, whether
  the engine plays it and through which implementation (or why not);
  ``killteam teams rules --killteamjson PATH``: how many rules of each team of a killteamjson
  checkout are played.

Bad input raises :class:`~engine.errors.KillTeamError` (or a click error), which
``engine.cli.main`` prints as one line (:func:`engine.cli.common.report_error`). Team and
dataset text is printed as written (:mod:`engine.terminal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from engine.cli.common import SuggestingGroup, console
from engine.cli.common import table as new_table
from engine.cli.paths import input_path, output_folder
from engine.errors import KillTeamError
from engine.names import TEAM_FILE_SUFFIXES, is_file_ref
from engine.teams import io as team_io
from engine.teams.importers import ImportResult
from engine.teams.importers.bsdata import import_bsdata
from engine.teams.importers.bsdata18 import import_bsdata18
from engine.teams.importers.bsdata21 import import_bsdata21, refused_catalogues
from engine.teams.importers.compare import compare_datasets
from engine.teams.importers.killteamjson import import_killteamjson
from engine.teams.io import builtin_teams, load_builtin_team, load_team, save_team
from engine.teams.model import Operative, Team, Weapon, format_entry, parse_entry
from engine.terminal import add_row, echo, markup

__all__ = ["TeamsCommandError", "teams"]


class TeamsCommandError(KillTeamError):
    """A ``killteam teams`` command cannot run (e.g. an importer is not available)."""


def _load(name: str) -> Team:
    """A team file when ``name`` ends in ``.json``, else a built-in team id
    (:mod:`engine.names`: a name is never a path).

    Raises:
        TeamFileError: an unreadable or invalid file, or no such built-in team (the message
            lists them).
    """
    if is_file_ref(name, TEAM_FILE_SUFFIXES):
        return load_team(Path(name))
    return load_builtin_team(name)


def _call(what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run an importer or the comparison; its OSError or ValueError becomes one line.

    Raises:
        KillTeamError: as raised by ``fn`` (already one line).
        TeamsCommandError: for any other OSError or ValueError from ``fn``.
    """
    try:
        return fn(*args, **kwargs)
    except KillTeamError:
        raise
    except (OSError, ValueError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        raise TeamsCommandError(f"{what}: {message}") from None


@click.group("teams", cls=SuggestingGroup)
def teams() -> None:
    """Built-in teams, team files and dataset importers."""


@teams.command("list")
def teams_list() -> None:
    """List the built-in teams."""
    table = new_table(title="Built-in teams")
    for col in ("id", "name", "faction", "archetypes", "operative types", "default roster"):
        table.add_column(col)
    for team_id in builtin_teams():
        t = load_builtin_team(team_id)
        add_row(
            table,
            t.id,
            t.name,
            t.faction,
            ", ".join(t.archetypes),
            str(len(t.operatives)),
            str(len(t.default_roster)),
        )
    console().print(table)
    for edition, title in _EDITION_TITLES:
        ids = team_io.builtin_teams(edition)
        if not ids:
            continue
        table = new_table(title=f"Built-in teams, {title} (--ruleset {edition})")
        for col in ("id", "name", "faction", "edition", "operative types", "default roster"):
            table.add_column(col)
        for team_id in ids:
            t = load_builtin_team(team_id)
            add_row(
                table,
                t.id,
                t.name,
                t.faction,
                t.edition,
                str(len(t.operatives)),
                str(len(t.default_roster)),
            )
        console().print(table)


#: The built-in teams of other editions ``teams list`` shows, each in a table of its own.
_EDITION_TITLES = (("kt21", "Kill Team 2021"), ("kt18", "Kill Team 2018"))


def _stats_table(op: Operative, edition: str = "kt24") -> Table:
    table = new_table(title=markup(f"{op.name}  [{', '.join(op.keywords)}]"), title_justify="left")
    move = f'{op.move:g}"'
    if op.kt18 is not None:  # the KT18 datasheet (rules/KT18.md 1.7)
        k = op.kt18
        for col in ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "Max", "Inv", "Base"):
            table.add_column(col)

        def plus(v: int) -> str:
            return f"{v}+" if v else "-"

        add_row(
            table,
            move,
            plus(k.ws),
            plus(k.bs),
            str(k.strength),
            str(k.toughness),
            str(op.wounds),
            k.attacks,
            str(k.leadership),
            plus(k.save),
            str(k.maximum or "-"),
            plus(k.invulnerable),
            f"{op.base_mm:g}mm",
        )
        specs = ", ".join(k.specialists) or "-"
        table.caption = markup(f"Specialists: {specs}" + ("; may lead" if k.leader else ""))
        return table
    if edition == "kt21":  # the KT21 datacard (rules/KT21.md 4.1)
        for col in ("M", "APL", "GA", "DF", "SV", "W", "Invulnerable", "Base"):
            table.add_column(col)
        invulnerable = f"{op.invulnerable}+" if op.invulnerable else "-"
        add_row(
            table,
            move,
            str(op.apl),
            str(op.group_activation),
            str(op.defence),
            f"{op.save}+",
            str(op.wounds),
            invulnerable,
            f"{op.base_mm:g}mm",
        )
        return table
    for col in ("APL", "Move", "Save", "Wounds", "Base"):
        table.add_column(col)
    add_row(table, str(op.apl), move, f"{op.save}+", str(op.wounds), f"{op.base_mm:g}mm")
    return table


def _kt18_weapons_table(weapons: Sequence[Weapon], title: str) -> Table:
    """The KT18 weapon profiles (``rules/KT18.md`` 1.8): Range, Type, S, AP, D, abilities."""
    table = new_table(title=title, title_justify="left")
    for col in ("", "Name", "Range", "Type", "S", "AP", "D", "Abilities"):
        table.add_column(col)
    for w in weapons:
        for p in w.profiles:
            k = p.kt18
            if k is None:
                continue
            add_row(
                table,
                "R" if w.kind == "ranged" else "M",
                f"{w.name} ({p.name})" if p.name else w.name,
                "Melee" if k.type == "Melee" else f'{k.range:g}"',
                f"{k.type} {k.shots}".strip(),
                k.strength,
                str(k.ap),
                k.damage,
                ", ".join(k.abilities) or "-",
            )
    return table


def _weapons_table(weapons: Sequence[Weapon], title: str = "Weapons") -> Table:
    if any(p.kt18 is not None for w in weapons for p in w.profiles):
        return _kt18_weapons_table(weapons, title)
    table = new_table(title=title, title_justify="left")
    for col in ("", "Name", "Atk", "Hit", "Dmg", "Weapon rules"):
        table.add_column(col)
    for w in weapons:
        for p in w.profiles:
            name = f"{w.name} ({p.name})" if p.name else w.name
            add_row(
                table,
                "R" if w.kind == "ranged" else "M",
                name,
                str(p.attacks),
                f"{p.hit}+",
                f"{p.normal_damage}/{p.critical_damage}",
                p.rules.format() or p.kt21_rules.format() or "-",
            )
    return table


def _option_limits(team: Team, op: Operative, option: str) -> str:
    """The selection limits naming ``option`` of ``op`` ("at most 1"; "-" if none)."""
    selector = format_entry(op.name, (option,)).casefold()
    sel = team.selection
    found = [f"at most {most}" for s, most in sel.limits if s.casefold() == selector]
    found += [
        f"at most {most} with {', '.join(s for s in group if s.casefold() != selector)}"
        for group, most in sel.combined_limits
        if selector in (s.casefold() for s in group)
    ]
    return "; ".join(found) or "-"


def _loadouts_table(team: Team, op: Operative) -> Table:
    """``op``'s wargear options (1.2): one row per option of each slot, with its weapons and
    the limits on it."""
    several = len(op.loadouts) > 1
    title = "Wargear options: " + ("one from each slot" if several else "choose one")
    table = new_table(title=title, title_justify="left")
    for col in ("Slot", "Option", "Weapons", "Limit"):
        table.add_column(col)
    for k, slot in enumerate(op.loadouts):
        label = slot.name or str(k + 1)
        for opt in slot.options:
            add_row(
                table, label, opt.name, ", ".join(opt.weapons), _option_limits(team, op, opt.name)
            )
    return table


def _choices_table(team: Team, console: Console) -> None:
    """The roster-time choices the team's rules declare
    (:func:`engine.rules.registry.register_choice`): who makes each, how many options, the
    options and the default (what a roster that does not fix it gets)."""
    import engine.rulesets  # noqa: F401  (loads the rule code the rulesets play)
    from engine.rules.registry import choice_specs

    specs = choice_specs(team)
    if not specs:
        return
    table = new_table(title="Roster choices", title_justify="left")
    for col in ("Choice", "Made by", "Choose", "Options", "Default"):
        table.add_column(col)
    for spec in specs:
        who = (", ".join(spec.operatives) or "each operative") if spec.per_operative else "roster"
        for op_type, banned in spec.forbidden:
            who += f"; {op_type}: not {', '.join(banned)}"
        many = f"{spec.count}" + (" different" if spec.count > 1 and spec.distinct else "")
        if spec.distinct_from:
            many += f" (not in {', '.join(spec.distinct_from)})"
        add_row(
            table, spec.name, who, many, ", ".join(spec.options), ", ".join(spec.default_value())
        )
    console.print(table)
    console.print(
        'Roster files: "choices": {"<choice>": ["<option>", ...]}, "operative_choices": '
        '[{"<choice>": "<option>"}, ...] (one object per operative); default when not given.',
        markup=False,
        highlight=False,
    )


def show_team(team: Team, console: Console) -> None:
    """Print ``team``'s datacards, rules, ploys, equipment and selection as rich tables.

    A type with wargear options gets a table of its options (slots, weapons, the limits on
    each option) and a roster entry example (1.2, :func:`engine.teams.model.format_entry`);
    the selection table lists every limit, on types, options, keywords and combined. Every
    text of the team is printed as written (:mod:`engine.terminal`: never as ``rich`` markup,
    control characters as escapes)."""
    console.print(f"[bold]{markup(team.name)}[/bold] {markup(f'({team.id}) - {team.faction}')}")
    console.print(markup(f"Archetypes: {', '.join(team.archetypes) or '-'}"))
    if team.edition != "kt24":
        console.print(markup(f"Edition: {team.edition} (play it with --ruleset {team.edition})"))
    prov = team.provenance
    checked = ", ".join(prov.checked_against) or "-"
    console.print(markup(f"Source: {prov.source} {prov.dataslate} (checked against: {checked})"))
    if team.abilities:
        table = new_table(title="Team abilities", title_justify="left")
        for col in ("Name", "AP", "Summary"):
            table.add_column(col)
        for a in team.abilities:
            add_row(table, a.name, "" if a.ap is None else f"{a.ap}AP", a.summary)
        console.print(table)
    for op in team.operatives:
        console.print(_stats_table(op, team.edition))
        console.print(_weapons_table(op.weapons))
        if op.loadouts:
            console.print(_loadouts_table(team, op))
            example = format_entry(op.name, tuple(slot.options[0].name for slot in op.loadouts))
            console.print(markup(f"Roster entry, e.g.: {example}"), highlight=False)
        if op.abilities or op.actions:
            table = new_table(title="Abilities and unique actions", title_justify="left")
            for col in ("Name", "AP", "Summary"):
                table.add_column(col)
            for a in op.abilities:
                add_row(table, a.name, "", a.summary)
            for a in op.actions:
                add_row(table, a.name, f"{a.ap}AP", a.summary)
            console.print(table)
    if team.ploys:
        table = new_table(title="Ploys", title_justify="left")
        for col in ("Name", "Kind", "CP", "Summary"):
            table.add_column(col)
        for p in team.ploys:
            add_row(table, p.name, p.kind, f"{p.cp}CP", p.summary)
        console.print(table)
    if team.equipment:
        table = new_table(title="Equipment", title_justify="left")
        for col in ("Name", "Summary"):
            table.add_column(col)
        for e in team.equipment:
            add_row(table, e.name, e.summary)
        console.print(table)
        equipment_weapons = [w for e in team.equipment for w in e.weapons]
        if equipment_weapons:
            console.print(_weapons_table(equipment_weapons, "Equipment weapons"))
    _choices_table(team, console)
    sel = team.selection
    table = new_table(title="Selection", title_justify="left")
    table.add_column("Rule")
    table.add_column("Value")
    lo, hi = sel.size
    size = str(lo) if lo == hi else f"{lo} to {hi}"
    add_row(table, "selections" if sel.weights else "operatives", size)
    for name, weight in sel.weights:
        add_row(table, "counts as", f"{name}: {weight:g} selection{'' if weight == 1 else 's'}")
    add_row(table, "leader", " or ".join(sel.leader) or "-")
    for name, least in sel.minimums:
        add_row(table, "at least", f"{least} {name}")
    for name, most in sel.limits:
        what = "at most (option)" if parse_entry(name)[1] else "at most"
        add_row(table, what, f"{most} {name}")
    for keyword, most in sel.keyword_limits:
        add_row(table, "at most", f"{most} {keyword} operatives")
    for types, most in sel.combined_limits:
        add_row(table, "at most (combined)", f"{most} of {', '.join(types)} together")
    add_row(table, "default roster", ", ".join(team.default_roster) or "-")
    add_row(
        table,
        "roster entry",
        "'Type' for a type without options, 'Type [Option]' for one choice, "
        "'Type [Option + Option]' for one option per slot",
    )
    console.print(table)


@teams.command("show")
@click.argument("name")
def teams_show(name: str) -> None:
    """Show a team's datacards (NAME: a built-in id such as kasrkin, or a .json team file)."""
    show_team(_load(name), console())


@teams.command("import")
@click.argument("path", type=click.Path(path_type=Path), callback=input_path)
@click.option(
    "--format",
    "fmt",
    required=True,
    type=click.Choice(["killteamjson", "bsdata", "bsdata21", "bsdata18"]),
    help="The dataset's format (bsdata21, bsdata18: the Kill Team 2021, 2018 catalogues).",
)
@click.option("--team", default=None, help="Import only this team (id or name).")
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    callback=output_folder,
    help="Folder for the team files (created if missing; checked before importing).",
)
def teams_import(path: Path, fmt: str, team: str | None, output: Path) -> None:
    """Import teams from a dataset checkout at PATH into team files in our format.

    An import that yields no team (--team matching nothing, or no readable team in the
    dataset) is an error (exit status 2) in both formats, and nothing is written."""
    fn = {
        "killteamjson": import_killteamjson,
        "bsdata": import_bsdata,
        "bsdata18": import_bsdata18,
    }.get(fmt, import_bsdata21)
    result: ImportResult = _call(f"{fmt} import", fn, path, team=team)
    if not result.teams:
        if team is not None:
            raise TeamsCommandError(f"{fmt} import: no team {team!r} in the {fmt} data at {path}")
        first = (
            f"; first of {len(result.issues)} issues: {result.issues[0]}" if result.issues else ""
        )
        raise TeamsCommandError(f"{fmt} import: no team could be read from {path}{first}")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TeamsCommandError(f"{output}: cannot create folder: {exc}") from None
    for t in result.teams:
        written = save_team(t, output / f"{t.id}.json")
        echo(f"wrote {written} ({len(t.operatives)} operative types)")
    echo(f"import report ({len(result.issues)} issues):")
    echo(result.report())
    if fmt in ("bsdata21", "bsdata18"):
        refused = refused_catalogues(result)
        echo(f"catalogues: {len(result.teams)} imported, {len(refused)} refused")
        for issue in refused:
            echo(f"refused {issue.where}: {issue.message}")


@teams.command("compare")
@click.argument("ktjson_path", type=click.Path(path_type=Path), callback=input_path)
@click.argument("bsdata_path", type=click.Path(path_type=Path), callback=input_path)
def teams_compare(ktjson_path: Path, bsdata_path: Path) -> None:
    """List differences between a killteamjson and a BSData checkout."""
    differences = _call("compare", compare_datasets, ktjson_path, bsdata_path)
    for d in differences:
        echo(d)
    echo(f"{len(differences)} differences")


@teams.command("rules")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.option(
    "--killteamjson",
    "dataset",
    type=click.Path(path_type=Path),
    default=None,
    help="Instead: how many rules of each team of this killteamjson checkout are played.",
)
def teams_rules(name: str | None, as_json: bool, dataset: Path | None) -> None:
    """List a team's rules (NAME: a built-in id or a .json team file) with kind, name, whether
    the engine plays them and through which implementation (its own, or another team's rule
    with the same printed text), or why not (the engine's rule registry decides; the team data
    never claims it)."""
    import json

    import engine.rulesets  # noqa: F401  (loads the rule code the rulesets play)
    from engine.rules import team_rules

    if dataset is not None:
        from engine.rules.shared_rules import coverage

        cov = _call("killteamjson import", coverage, dataset)
        for t in cov.teams:
            echo(f"{t.team}: {t.played} of {t.rules} played ({t.shared} shared)")
        echo(cov.line())
        return
    if name is None:
        raise click.UsageError("give a team NAME or --killteamjson PATH")
    team = _load(name)
    decls = team_rules(team)
    if as_json:
        rows = [
            {
                "id": d.id,
                "kind": d.kind,
                "name": d.name,
                "implemented": d.implemented,
                "played_by": d.played_by,
                "reason": d.reason,
                "sources": list(d.sources),
            }
            for d in decls
        ]
        click.echo(json.dumps({"team": team.id, "rules": rows}, indent=2))
        return
    done = sum(d.implemented for d in decls)
    table = new_table(title=markup(f"{team.name}: team rules ({done} of {len(decls)} implemented)"))
    for col in ("kind", "name", "implemented", "id"):
        table.add_column(col, no_wrap=True)
    table.add_column("played by / why not", overflow="fold")
    table.add_column("where", overflow="fold")
    for d in decls:
        how = (d.played_by if d.shared else "own") if d.implemented else d.reason
        implemented = str(d.implemented).lower()
        add_row(table, d.kind, d.name, implemented, d.id, how or "", "; ".join(d.sources))
    console().print(table)
