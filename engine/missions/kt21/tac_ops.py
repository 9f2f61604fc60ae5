"""KT21 tac ops (``rules/KT21.md`` 1.2 step 5, 15.2, 15.3): the selection step, the registry
a sourced tac op joins, and the report of every selected tac op the engine cannot play.

- **Selection** (Critical Operations 2022, 1.2 step 5; the 2021 Core Book's draw of six cards
  of one archetype, 1.3, is played the same way): each player, in secret, selects **three**
  tac ops: at most one of its faction's, the rest of **one** archetype (Security, Seek &
  Destroy, Infiltration, Recon) among its kill team's archetypes (every archetype when its
  team lists none of the four). The engine asks for the archetype (decision ``tac
  archetype``: ``Op tac security``, ``Op tac seek-and-destroy``...), then, one at a time,
  for each of the three tac ops: a registered op of that archetype or of the team's faction
  (``Op tac <name>``), or ``Op tac unsourced`` (one of that archetype's cards whose text the
  engine does not have). With no op registered for the archetype, nothing more is asked: the
  three are unsourced. The selection is a set-up step after the drop zones are chosen and
  before the operatives are set up; it is kept as the secret fact ``"secret:<player>:kt21
  tac ops"`` = ``(archetype, op, op, op)`` (``""`` for an unsourced op), hidden from the
  opponent (:data:`TAC_SECRET`).
- **Unimplemented**: no tac op text is sourced (15.3, 18.13). Every unsourced op selected is
  reported at once (event ``tac_op_unimplemented``, narrated), never silently dropped: it
  never scores. A game option fixing a tac op the engine does not have is refused
  (:func:`check_options`).
- **A sourced op is one module**: it builds a :class:`Kt21TacOp` and calls :func:`register`
  at import, is imported by :data:`OP_MODULES`, scores through
  :func:`engine.missions.kt21.scoring.score_tac_op` (2VP cap), and its hooks do nothing
  unless :func:`selected` says its player selected it.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.game.events import add_template
from engine.game.secrets import SecretSelection, register_secret, with_facts
from engine.game.state import GameState
from engine.game.work import Work
from engine.missions.pack import archetype_of
from engine.missions.scoring import set_fact
from engine.teams.model import Roster, Team

__all__ = [
    "ARCHETYPES",
    "OP_MODULES",
    "TAC_OPS_PER_PLAYER",
    "TAC_SECRET",
    "UNSOURCED",
    "Kt21TacOp",
    "TacOpSelectionFrame",
    "archetypes_for",
    "check_options",
    "find_op",
    "install",
    "register",
    "selectable",
    "selected",
    "selection",
    "slug",
]

ARCHETYPES = ("Security", "Seek & Destroy", "Infiltration", "Recon")
"""The KT21 tac op archetypes (15.3)."""
TAC_OPS_PER_PLAYER = 3
"""How many tac ops each player selects (1.2 step 5)."""
UNSOURCED = "unsourced"
"""The notation of a tac op card whose text the engine does not have (``Op tac unsourced``)."""
OP_MODULES: tuple[str, ...] = ()
"""The modules of the sourced KT21 tac ops (none yet: 15.3), imported by :func:`install`."""


@attrs.frozen(slots=True)
class Kt21TacOp:
    """A sourced KT21 tac op, as its module registers it.

    Attributes:
        name: as printed.
        archetype: one of :data:`ARCHETYPES`; ``""`` for a faction tac op.
        install: ``install(hooks, players)`` adds its hooks for ``players`` (those who may
            select it); each hook does nothing unless :func:`selected`.
        faction: a faction tac op's team id (``""`` for an archetype's op).
        summary: one line in the project's own words.
    """

    name: str
    archetype: str
    install: Callable[[Hooks, tuple[str, ...]], None]
    faction: str = ""
    summary: str = ""


_OPS: dict[str, Kt21TacOp] = {}


def register(op: Kt21TacOp) -> Kt21TacOp:
    """Register a sourced KT21 tac op (at import of its module).

    Raises:
        ValueError: an archetype op whose archetype is not one of :data:`ARCHETYPES`, an op
            with both or neither of an archetype and a faction, a name used twice.
    """
    if bool(op.archetype) == bool(op.faction):
        raise ValueError(f"KT21 tac op {op.name!r}: give an archetype or a faction, not both")
    if op.archetype and op.archetype not in ARCHETYPES:
        raise ValueError(f"KT21 tac op {op.name!r}: archetype must be one of {ARCHETYPES}")
    key = _key(op.name)
    if key in (_key(UNSOURCED), "") or (key in _OPS and _OPS[key] is not op):
        raise ValueError(f"KT21 tac op {op.name!r} is registered twice or reserved")
    _OPS[key] = op
    return op


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def slug(archetype: str) -> str:
    """An archetype's notation (``"Seek & Destroy"`` -> ``"seek-and-destroy"``)."""
    return archetype.lower().replace(" & ", "-and-").replace(" ", "-")


def find_op(name: str) -> Kt21TacOp | None:
    """The registered KT21 tac op called ``name`` (any case), or ``None``."""
    return _OPS.get(_key(name))


def archetypes_for(team: Team) -> tuple[str, ...]:
    """The archetypes ``team`` may select its tac ops from: those it lists, every archetype
    when it lists none of the four (1.2 step 5)."""
    known = {archetype_of(a) for a in team.archetypes} & set(ARCHETYPES)
    return tuple(a for a in ARCHETYPES if not known or a in known)


def selectable(archetype: str, team: Team) -> list[Kt21TacOp]:
    """The registered tac ops a player of ``team`` who selected ``archetype`` may pick:
    that archetype's and its faction's, by name."""
    return sorted(
        (o for o in _OPS.values() if o.archetype == archetype or o.faction == team.id),
        key=lambda o: o.name,
    )


def _fact_key(player: str) -> str:
    return f"secret:{player}:kt21 tac ops"


def selection(w: Work | GameState, player: str) -> tuple[str, ...]:
    """``player``'s selection so far: ``(archetype, op...)`` (``""`` an unsourced op), or
    ``()`` before it selects."""
    got = w.mission.fact(_fact_key(player), ())
    return tuple(got)


def selected(w: Work, player: str, name: str) -> bool:
    """Whether ``player`` selected the tac op ``name`` (a sourced op's hooks ask this)."""
    return _key(name) in {_key(n) for n in selection(w, player)[1:] if n}


def _fixed(opts: GameOptions, player: str) -> Kt21TacOp | None:
    name = next((n for p, n in opts.tac_ops if p == player), "")
    return find_op(name) if name else None


def _illegal(msg: str) -> IllegalActionError:
    return IllegalActionError(msg)


@attrs.frozen(slots=True)
class TacOpSelectionFrame:
    """Each player selects its three tac ops in secret, A then B (module docstring; the
    order changes nothing, the selections being secret)."""

    turn: str = "A"

    def run(self, w: Work) -> None:
        if self.turn not in ("A", "B"):
            w.stack.pop()
            return
        got = selection(w, self.turn)
        if not got:
            fixed = _fixed(w.ctx.options, self.turn)
            if fixed is not None and fixed.archetype:
                set_fact(w, _fact_key(self.turn), (fixed.archetype, fixed.name))
                return
            w.decide(self.turn, "tac archetype")
            return
        if len(got) - 1 >= TAC_OPS_PER_PLAYER or not self._ops(w, got):
            self._finish(w, got)
            return
        w.decide(self.turn, "tac archetype")

    def _ops(self, w: Work, got: tuple[str, ...]) -> list[Kt21TacOp]:
        team = w.ctx.rosters[self.turn].team
        picked = {_key(n) for n in got[1:] if n}
        has_faction = any((op := find_op(n)) is not None and op.faction for n in got[1:] if n)
        return [
            o
            for o in selectable(got[0], team)
            if _key(o.name) not in picked and not (o.faction and has_faction)
        ]

    def _finish(self, w: Work, got: tuple[str, ...]) -> None:
        full = got + ("",) * (TAC_OPS_PER_PLAYER + 1 - len(got))
        set_fact(w, _fact_key(self.turn), full)
        w.emit("tac_op_selected", player=self.turn)
        missing = sum(1 for n in full[1:] if not n)
        if missing:
            w.emit(
                "tac_op_unimplemented",
                player=self.turn,
                count=missing,
                why="no KT21 tac op text is sourced (rules/KT21.md 15.3, 18.13): they never score",
            )
        w.replace_top(turn="B" if self.turn == "A" else "")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        got = selection(w, self.turn)
        if not got:
            team = w.ctx.rosters[self.turn].team
            return [Action("Op", text=f"tac {slug(a)}") for a in archetypes_for(team)]
        ops = [Action("Op", text=f"tac {o.name.lower()}") for o in self._ops(w, got)]
        return [*ops, Action("Op", text=f"tac {UNSOURCED}")]

    def act(self, w: Work, a: Action) -> None:
        text = a.text.removeprefix("tac ").strip() if a.text.startswith("tac ") else ""
        got = selection(w, self.turn)
        allowed = {o.text.removeprefix("tac "): o for o in self.options(w)}
        if text not in allowed:
            what = "the archetype of its tac ops" if not got else "its next tac op"
            raise _illegal(
                f"{a}: player {self.turn} selects {what} "
                f"({', '.join('Op ' + o.text for o in allowed.values())}) (rules/KT21.md 1.2)"
            )
        if not got:
            team = w.ctx.rosters[self.turn].team
            arch = next(x for x in archetypes_for(team) if slug(x) == text)
            set_fact(w, _fact_key(self.turn), (arch,))
            return
        op = find_op(text)
        set_fact(w, _fact_key(self.turn), (*got, op.name if op is not None else ""))


def _selection_step(w: Work) -> Any:
    return TacOpSelectionFrame()


add_template(
    "tac_op_unimplemented",
    lambda e: f"{e['player']}: {e['count']} tac op(s) not implemented ({e['why']})",
)


def check_options(opts: GameOptions) -> None:
    """Check the game option ``tac_ops`` of a KT21 battle: each fixed tac op must be one the
    engine has (registered), an archetype's op (a faction op is selected when asked).

    Raises:
        GameOptionsError: naming the tac op the engine cannot play (15.3, 18.13).
    """
    for p, name in opts.tac_ops:
        op = find_op(name)
        if op is None or not op.archetype:
            known = ", ".join(sorted(o.name for o in _OPS.values() if o.archetype)) or "none"
            raise GameOptionsError(
                f"game option 'tac_ops': player {p}'s KT21 tac op {name!r:.60} is not "
                f"implemented: no KT21 tac op text is sourced (rules/KT21.md 15.3, 18.13); "
                f"the KT21 tac ops the engine plays: {known}"
            )


def install(hooks: Hooks, opts: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Add the tac op selection step and the hooks of every registered op a player could
    select (module docstring).

    Raises:
        GameOptionsError: as :func:`check_options`.
    """
    for module in OP_MODULES:
        importlib.import_module(module)
    check_options(opts)
    hooks.setup_step(_selection_step)
    for op in sorted(_OPS.values(), key=lambda o: o.name):
        players = tuple(
            p
            for p in ("A", "B")
            if op.faction == rosters[p].team.id or op.archetype in archetypes_for(rosters[p].team)
        )
        if players:
            op.install(hooks, players)


# -- The secret (engine.game.secrets) -------------------------------------------------------


def _hidden(state: GameState, owner: str) -> bool:
    return bool(selection(state, owner)) and state.phase != "over"


def _choices(state: GameState, owner: str) -> Sequence[tuple[str, ...]]:
    """Every selection of ``owner`` of the length of its real one (how far the selection
    has gone is public): an archetype of its team, then registered ops or unsourced ones."""
    team = state.ctx.rosters[owner].team
    length = len(selection(state, owner))
    out: list[tuple[str, ...]] = []
    for arch in archetypes_for(team):
        names = ["", *(o.name for o in selectable(arch, team))]
        for picks in itertools.product(names, repeat=length - 1):
            named = [n for n in picks if n]
            factions = [n for n in named if (op := find_op(n)) is not None and op.faction]
            if len(set(named)) == len(named) and len(factions) <= 1:
                out.append((arch, *picks))
    return out


def _put(state: GameState, owner: str, choice: tuple[str, ...]) -> GameState:
    return with_facts(state, {_fact_key(owner): tuple(choice)})


TAC_SECRET = register_secret(SecretSelection("tac archetype", _hidden, _choices, _put))
"""A KT21 player's tac ops until the end of the battle: redrawn among the selections its
kill team may make (never revealed: no tac op text is sourced to say when)."""
