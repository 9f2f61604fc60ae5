"""The ruleset value (DESIGN.md "Rulesets"): what a composition root gives the core."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.geometry import Killzone
from engine.teams.model import Roster, ruleset_problem

__all__ = [
    "BattleKillzone",
    "Installer",
    "OpLookup",
    "Ruleset",
    "StartFrame",
    "UnknownRulesetError",
    "check_battle",
    "same_killzone",
]

Installer = Callable[[Hooks, GameOptions, Mapping[str, Roster]], None]
"""``install(hooks, options, rosters)``: add a ruleset's rules to a new battle's hooks."""

OpLookup = Callable[[str, str], "str | None"]
"""``op_name(name, kind)``: the canonical name of the op of ``kind`` called ``name`` (any
case), or ``None``."""


StartFrame = Callable[[], Any]
"""``start()``: the first frame of a new battle (:meth:`Ruleset.start_frame`)."""


BattleKillzone = Callable[[Killzone, GameOptions], Killzone]
"""``layout(killzone, options)``: the killzone a battle is played on
(:meth:`Ruleset.battle_killzone`)."""


def same_killzone(killzone: Killzone, options: GameOptions) -> Killzone:
    """The killzone itself (a ruleset whose missions use the layout's own markers: KT24)."""
    del options
    return killzone


def check_battle(
    options: GameOptions,
    rosters: Mapping[str, Roster],
    *,
    edition: str,
    missions: tuple[str, ...],
    missions_are: str = "missions",
    section: str,
) -> None:
    """What every composition root checks before it installs a battle's rules: each team's
    datacards are written for ``edition`` and the mission is one of ``missions``.

    Args:
        options: the battle's :class:`~engine.game.context.GameOptions` (its ``mission``).
        rosters: ``{"A": roster, "B": roster}``, checked in player order.
        edition: the ruleset's name and the edition its teams must have (``"kt18"``).
        missions: the missions the ruleset plays.
        missions_are: what the message calls them (``"game sequences"`` for KT21).
        section: the rules section the mission message cites (``"rules/KT18.md 9"``).

    Raises:
        GameOptionsError: a team of another edition (naming the player, the team and both
            editions, :func:`engine.teams.model.ruleset_problem`), else a mission the
            ruleset does not play (naming the ruleset, its missions and the one given).
    """
    for player in sorted(rosters):
        problem = ruleset_problem(rosters[player].team, edition, player)
        if problem is not None:
            raise GameOptionsError(problem)
    if options.mission not in missions:
        raise GameOptionsError(
            f"the {edition.upper()} ruleset plays the {missions_are} {', '.join(missions)}, "
            f"not {options.mission!r:.60} ({section})"
        )


class UnknownRulesetError(KillTeamError, ValueError):
    """No ruleset has this name (the message names it and the known ones)."""


@attrs.frozen(slots=True)
class Ruleset:
    """One edition of the rules as the engine plays it: the core plus the rule modules the
    ruleset names (a composition root, :mod:`engine.rulesets.kt24`). Satisfies
    :class:`engine.game.state.RulesetLike`, which is all the core asks of it.

    Attributes:
        name: the name options, records and scenario files give (``"kt24"``).
        title: a short description for people.
        installer: ``install(hooks, options, rosters)`` (:data:`Installer`).
        op_lookup: ``op_name(name, kind)`` (:data:`OpLookup`).
        start: ``start()``: the first frame of a new battle (:data:`StartFrame`).
        layout: ``layout(killzone, options)``: the killzone a battle is played on
            (:data:`BattleKillzone`; default the killzone itself).
        scoring_ops: ``(op, title)`` pairs: the ops whose VP summaries list, in their order,
            by the ``op`` of the ``vp_scored`` events, with their column titles.
    """

    name: str
    title: str
    installer: Installer = attrs.field(repr=False)
    op_lookup: OpLookup = attrs.field(repr=False)
    start: StartFrame = attrs.field(repr=False)
    layout: BattleKillzone = attrs.field(default=same_killzone, repr=False)
    scoring_ops: tuple[tuple[str, str], ...] = ()

    def install(self, hooks: Hooks, options: GameOptions, rosters: Mapping[str, Roster]) -> None:
        """Add this ruleset's rules to a new battle's ``hooks``, in the ruleset's order.

        Raises:
            GameOptionsError: options the rules refuse (an unknown op name...).
        """
        self.installer(hooks, options, rosters)

    def op_name(self, name: str, kind: str) -> str | None:
        """The canonical name of the op of ``kind`` (``"crit"``, ``"tac"``) called ``name``
        in any case, or ``None`` when this ruleset has none (``rules/KT24.md`` 8)."""
        return self.op_lookup(name, kind)

    def start_frame(self) -> Any:
        """The first frame of a new battle of this ruleset (its set-up procedure), a
        :class:`engine.game.work.Frame`."""
        return self.start()

    def battle_killzone(self, killzone: Killzone, options: GameOptions) -> Killzone:
        """The killzone a battle of ``options`` is played on (:data:`BattleKillzone`).

        Raises:
            GameOptionsError: options the mission refuses."""
        return self.layout(killzone, options)
