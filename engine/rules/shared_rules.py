"""Rules shared across teams: how many of a dataset's team rules the engine plays, and the
table of the printed texts the implementations play (DESIGN.md "Rulesets": a rule printed by
several teams is one module found by the rule's identity; :mod:`engine.rules.registry`).

- :func:`coverage`: for every team of a killteamjson checkout, how many of its rules are
  played, through its own implementation or one shared from another team's rule id;
  ``killteam teams rules --killteamjson PATH`` prints it.
- :func:`printed_text_table` / :func:`write_printed_texts`: the identities of the printed
  texts of the implemented rules, read from a checkout, as kept in
  :mod:`engine.rules.printed_texts`.
"""

from __future__ import annotations

import pprint
from pathlib import Path

import attrs

from engine.rules.registry import implementation, team_key, team_rules
from engine.teams.importers.killteamjson import import_killteamjson
from engine.teams.model import Team
from engine.teams.rule_text import team_keyword

__all__ = [
    "Coverage",
    "TeamCoverage",
    "coverage",
    "coverage_of",
    "printed_text_table",
    "write_printed_texts",
]


@attrs.frozen(slots=True)
class TeamCoverage:
    """How many of one team's rules are played.

    Attributes:
        team: the team's id. rules: its team rules (:func:`engine.rules.team_rules`).
        own: played by the team's own implementation. shared: played through another
            team's implementation of the same rule (rule ids in ``shared_from``).
        shared_from: ``(rule id, played by)`` of each shared rule.
    """

    team: str
    rules: int
    own: int
    shared: int
    shared_from: tuple[tuple[str, str], ...] = ()

    @property
    def played(self) -> int:
        """Rules played, own or shared."""
        return self.own + self.shared


@attrs.frozen(slots=True)
class Coverage:
    """:class:`TeamCoverage` of every team of a dataset, and the totals."""

    teams: tuple[TeamCoverage, ...]

    @property
    def rules(self) -> int:
        """All the teams' rules."""
        return sum(t.rules for t in self.teams)

    @property
    def played(self) -> int:
        """Rules played, own or shared."""
        return sum(t.played for t in self.teams)

    @property
    def shared(self) -> int:
        """Rules played through another team's implementation."""
        return sum(t.shared for t in self.teams)

    def line(self) -> str:
        """``"178 of 1261 team rules played (12 shared) over 47 teams"``."""
        return (
            f"{self.played} of {self.rules} team rules played ({self.shared} through another "
            f"team's implementation) over {len(self.teams)} teams"
        )


def coverage_of(team: Team) -> TeamCoverage:
    """The :class:`TeamCoverage` of ``team``."""
    decls = team_rules(team)
    shared = tuple((d.id, d.played_by) for d in decls if d.shared and d.played_by is not None)
    own = sum(1 for d in decls if d.implemented and not d.shared)
    return TeamCoverage(team.id, len(decls), own, len(shared), shared)


def coverage(path: str | Path) -> Coverage:
    """The :class:`Coverage` of every team of the killteamjson checkout (or team file) at
    ``path``, in the importer's order.

    Raises:
        KillTeamJsonError: as :func:`~engine.teams.importers.killteamjson.import_killteamjson`.
    """
    return Coverage(tuple(coverage_of(t) for t in import_killteamjson(path).teams))


def printed_text_table(path: str | Path) -> dict[str, tuple[str, str]]:
    """``{implemented rule id: (text key, team keyword)}`` for every rule of the teams of the
    killteamjson checkout at ``path`` that carries a printed text and whose own id has an
    implementation (the table of :mod:`engine.rules.printed_texts`), sorted by id."""
    table: dict[str, tuple[str, str]] = {}
    for team in import_killteamjson(path).teams:
        keyword = team_keyword(team)
        for ref, key in team.rule_texts:
            rid = f"{team_key(team)}/{ref}"
            if implementation(rid) is not None:
                table[rid] = (key, keyword)
    return dict(sorted(table.items()))


def write_printed_texts(path: str | Path, source: str, out: str | Path | None = None) -> Path:
    """Write :mod:`engine.rules.printed_texts` (or ``out``) from the checkout at ``path``;
    ``source`` names the dataset (repository and commit). Returns the file written."""
    target = Path(out) if out is not None else Path(__file__).with_name("printed_texts.py")
    text = target.read_text(encoding="utf-8") if target.exists() else ""
    head = text.split("SOURCE = ", 1)[0] if "SOURCE = " in text else text
    body = pprint.pformat(printed_text_table(path), width=96, sort_dicts=True)
    target.write_text(
        f"{head}SOURCE = {source!r}\n"
        '"""The dataset the keys were read from."""\n\n'
        f"PRINTED_TEXTS: dict[str, tuple[str, str]] = {body}\n",
        encoding="utf-8",
    )
    return target
