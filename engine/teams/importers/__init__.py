"""Importers for the community datasets (read from a path the user gives; never shipped).

- :mod:`engine.teams.importers.killteamjson`: xDavidLeon/killteamjson (KTDash-derived JSON).
- :mod:`engine.teams.importers.bsdata` (KT24), :mod:`engine.teams.importers.bsdata21`
  (KT21) and :mod:`engine.teams.importers.bsdata18` (KT18): BSData/wh40k-killteam
  (BattleScribe XML), one shared core in :mod:`engine.teams.importers.bsdata_common`.

Both produce the project's :class:`~engine.teams.model.Team` and an :class:`ImportResult`
listing everything not understood (an unparseable string, a team rule with no
implementation yet, a recovered malformation): nothing is dropped silently and the team still
loads.
"""

from __future__ import annotations

import attrs

from engine.teams.model import Team

__all__ = ["ImportIssue", "ImportResult"]


@attrs.frozen(slots=True)
class ImportIssue:
    """One thing an importer did not fully understand.

    Attributes:
        team: the team's name. where: e.g. ``"operative 'X': weapon 'Y': profile 0: rules"``.
        message: what happened (``"recovered 'Lethal 5+ Piercing 1' as 'Lethal 5+, Piercing
            1'"``, ``"team rule 'Concealed Position*' ... kept as a team weapon rule"``...).
        kind: ``"recovered"`` (fixed and kept), ``"unsupported"`` (kept, not understood by
            the importer; a team rule is played only if a rule module implements it, see
            :mod:`engine.rules.registry`) or ``"skipped"`` (could not be used; the rest of
            the team still loads).
    """

    team: str
    where: str
    message: str
    kind: str = "recovered"

    def __str__(self) -> str:
        return f"{self.team}: {self.where}: {self.kind}: {self.message}"


@attrs.frozen(slots=True)
class ImportResult:
    """Teams read from a dataset, with the report of what was not fully understood."""

    teams: tuple[Team, ...]
    issues: tuple[ImportIssue, ...] = ()

    def report(self) -> str:
        """The import report as text, one issue per line (``"no issues"`` if none)."""
        if not self.issues:
            return "no issues"
        return "\n".join(str(i) for i in self.issues)
