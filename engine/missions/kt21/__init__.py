"""KT21 matched play (``rules/KT21.md`` 1.2-1.4, 15; decision 7): the mission of a KT21
battle, installed by the KT21 composition root (:mod:`engine.rulesets.kt21`) after the core
rule modules and the teams' rules.

One room per concept:

- :mod:`.objectives`: the six objective markers (the project's map), set up at the start;
- :mod:`.scoring`: VP with the caps (4VP per turning point and 16VP per battle from the
  mission objective, 2VP per tac op, 2VP Battle Ready);
- :mod:`.loot`: the project's mission objective, the Loot mission action;
- :mod:`.tac_ops`: the tac op selection, the registry of sourced tac ops (none yet), the
  report of the unimplemented ones.

The game sequences (game option ``mission``):

- ``critical_ops_2022`` (default, 1.2): the mission cards are not sourced (18.13), so the
  mission is the project's Loot mission on the Critical Operations 2022 frame (decision 7):
  six markers, Loot, three tac ops per player (reported unimplemented), Battle Ready.
- ``corebook_2021`` (1.3): the 2021 Core Book's missions (1.1 Loot and Salvage ... 3.3
  Master the Terminals, 15.3) are not sourced either: it plays the **same project
  objective** (six markers, Loot, the same caps: the 2021 caps are not sourced) and the
  same tac op selection.
- ``lite`` (1.4): open play without a mission: no objective marker, no mission action, no
  tac op, no Battle Ready. The Lite rules name no way to win without a mission; the project
  reads it as a draw unless a kill team is wiped out: at the end of the battle, a player
  with operatives left in the killzone while its opponent has none scores 1VP ("last kill
  team standing", op name ``"lite"``), so it wins; otherwise 0-0, a draw.

Every other mission option a KT21 battle cannot play is refused (:func:`check_options`): a
crit op (no KT21 mission card is sourced), a primary op (KT21 has none), a tac op the engine
does not have.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.game.events import Event, add_template
from engine.game.work import Work
from engine.missions.kt21 import loot, objectives, scoring, tac_ops
from engine.missions.kt21.objectives import battle_killzone
from engine.missions.scoring import add_vp
from engine.teams.model import Roster

__all__ = [
    "LITE",
    "MISSION_NAME",
    "battle_killzone",
    "check_options",
    "install",
]

MISSION_NAME = "Loot"
"""The name of the project's KT21 mission objective (the only crit op a KT21 battle takes)."""
LITE = "lite"
"""The op name of the Lite open play's last-kill-team-standing VP."""


def check_options(opts: GameOptions) -> None:
    """Refuse the mission options a KT21 battle cannot play (module docstring).

    Raises:
        GameOptionsError: a crit op other than ``"Loot"`` (or any in Lite open play), a
            primary op, a tac op the engine does not have (in Lite open play: any).
    """
    lite = opts.mission == "lite"
    if opts.crit_op and (lite or opts.crit_op.strip().lower() != MISSION_NAME.lower()):
        raise GameOptionsError(
            f"game option 'crit_op': KT21 mission {opts.crit_op!r:.60} is not implemented: no "
            "KT21 mission card is sourced; the KT21 mission is the project's Loot "
            "(rules/KT21.md 15.3, decision 7), and Lite open play has none (1.4)"
        )
    if opts.primary_ops:
        raise GameOptionsError(
            "game option 'primary_ops': KT21 has no primary op (rules/KT21.md 15.2)"
        )
    if lite and opts.tac_ops:
        raise GameOptionsError(
            "game option 'tac_ops': Lite open play has no tac ops (rules/KT21.md 1.4)"
        )
    if not lite:
        tac_ops.check_options(opts)


def _battle_ready(w: Work, ev: Event) -> None:
    del ev
    scoring.battle_ready(w)


def _last_standing(w: Work, ev: Event) -> None:
    del ev
    left = {p: bool(w.alive(p)) for p in ("A", "B")}
    if left["A"] != left["B"]:
        winner = "A" if left["A"] else "B"
        add_vp(w, winner, LITE, 1, "last kill team standing (Lite open play, project reading)")


def install(hooks: Hooks, opts: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the battle's KT21 mission (module docstring) to its ``hooks``.

    Args:
        hooks: the new battle's hooks builder.
        opts: its options (``opts.mission`` one of the KT21 game sequences).
        rosters: ``{"A": roster, "B": roster}``.

    Raises:
        GameOptionsError: as :func:`check_options`.
    """
    check_options(opts)
    hooks.start_step(_set_up_markers)
    if opts.mission == "lite":
        hooks.on("battle_ending", _last_standing)
        return
    hooks.on("turning_point_started", scoring.turning_point_started)
    hooks.action(loot.LOOT, ("A", "B"))
    tac_ops.install(hooks, opts, rosters)
    hooks.on("battle_ending", _battle_ready)


def _set_up_markers(w: Work) -> None:
    objectives.set_up_markers(w)


add_template(
    "objective_markers_set_up",
    lambda e: f"objective markers ({e['map']}): {_markers_text(e['markers'])}",
)


def _markers_text(markers: object) -> str:
    """``name (x, y)`` of each ``(name, x, y)`` triple, ``none`` for none; any other value
    as written (the line never fails on data it does not expect)."""
    try:
        return ", ".join(f"{n} ({x:g}, {y:g})" for n, x, y in markers) or "none"  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return str(markers)
