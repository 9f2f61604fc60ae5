"""The Approved Ops 2025 mission pack (``rules/KT24.md`` 1.2, 8): which ops exist, and the
set-up and end-of-battle steps that tie them together.

- **Ops** are modules of :mod:`engine.missions.crit_ops` and :mod:`engine.missions.tac_ops`,
  each registering an :class:`OpSpec` (:func:`register`); this module imports them on first
  use, and the core names none.
- **Crit op** (8.3): chosen by the game option ``crit_op``, or rolled at the very start of
  the battle: two ordered D6, ``(first - 1) * 6 + second - 1`` divided by 4 (rounded down)
  picks one of the nine in :data:`CRIT_ORDER`, each with 4 chances in 36.
- **Tac op** (8.4): each player secretly selects one from its kill team's archetypes (every
  archetype when the team lists none), after the equipment set-up steps and before the
  operatives are set up. The pack selects it after equipment selection and before
  equipment is set up; this engine asks a little later, once the equipment is set up, so a
  player has seen the opponent's equipment placements when choosing.
- **Primary op** (8.1): each player secretly selects crit, tac or kill at the start of the
  Gambit step of turning point 1 (the pack makes it a strategic gambit; its order among the
  gambits changes nothing, as it is secret). At the end of the battle it is revealed and
  scores half that op's VP, rounded up, beyond the op's cap.
- Secrets: the tac op and primary op are kept in :class:`engine.game.state.MissionState` and
  hidden from the opponent by :mod:`engine.game.observation` until revealed; the events
  ``tac_op_selected``/``primary_op_selected`` name no op.
- Ops score at the end of each turning point on the ``turning_point_ending`` event, and at
  the end of the battle on ``battle_ending`` (the kill op's comparison, then the crit op,
  then the tac ops, then the primary op's bonus).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import GameOptions, GameOptionsError, Hooks
from engine.game.events import Event, add_template
from engine.game.secrets import SecretSelection, register_secret, with_facts
from engine.game.state import GameState, other
from engine.game.work import Work
from engine.missions import kill_op
from engine.missions.scoring import (
    CRIT,
    KILL,
    PRIMARY,
    TAC,
    add_vp,
    initiative_first,
    op_vp,
    set_mission,
)

if TYPE_CHECKING:
    from engine.teams.model import Roster

__all__ = [
    "ARCHETYPES",
    "CRIT_ORDER",
    "PRIMARY_CHOICES",
    "PRIMARY_SECRET",
    "TAC_SECRET",
    "CritOpRollFrame",
    "OpSpec",
    "PrimaryOpFrame",
    "TacOpFrame",
    "archetype_of",
    "crit_active",
    "crit_ops",
    "find_op",
    "install",
    "register",
    "reveal_tac_op",
    "tac_active",
    "tac_ops",
    "tac_ops_for",
]

ARCHETYPES = ("Infiltration", "Recon", "Security", "Seek & Destroy")
"""The tac op archetypes (8.4)."""

CRIT_ORDER = (
    "Secure",
    "Loot",
    "Transmission",
    "Orb",
    "Stake Claim",
    "Energy Cells",
    "Download",
    "Data",
    "Reboot",
)
"""The nine crit ops in the pack's order (8.3); the crit op roll indexes this tuple."""

PRIMARY_CHOICES = (CRIT, TAC, KILL)
"""What a player may select as its primary op (8.1)."""


@attrs.frozen(slots=True)
class OpSpec:
    """One crit op or tac op, as its module registers it.

    Attributes:
        name: as printed (``"Secure"``, ``"Sweep & Clear"``).
        kind: ``"crit"`` or ``"tac"``.
        install: ``install(hooks, players)`` subscribes the op's hooks and mission actions
            for ``players`` (a tac op: the players who may select it; a crit op: both). Every
            hook must do nothing unless the op is in play for that player
            (:func:`crit_active`, :func:`tac_active`): hooks are installed before the crit
            op is rolled and the tac ops are selected.
        archetype: a tac op's archetype (one of :data:`ARCHETYPES`).
        summary: one line in the project's own words.
        reveal: for a tac op, when it is revealed (our words), for narration and listings.
    """

    name: str
    kind: str
    install: Callable[[Hooks, tuple[str, ...]], None]
    archetype: str = ""
    summary: str = ""
    reveal: str = ""


_OPS: dict[str, OpSpec] = {}
_LOADED = [False]


def register(spec: OpSpec) -> OpSpec:
    """Register an op (at import of its module).

    Raises:
        ValueError: a kind other than crit/tac, a tac op without a known archetype, or a
            name registered twice.
    """
    if spec.kind not in (CRIT, TAC):
        raise ValueError(f"op {spec.name!r}: kind must be crit or tac, not {spec.kind!r}")
    if spec.kind == TAC and spec.archetype not in ARCHETYPES:
        raise ValueError(f"tac op {spec.name!r}: archetype must be one of {ARCHETYPES}")
    key = spec.name.lower()
    if key in _OPS and _OPS[key] is not spec:
        raise ValueError(f"op {spec.name!r} is registered twice")
    _OPS[key] = spec
    return spec


def _load() -> None:
    if _LOADED[0]:
        return
    _LOADED[0] = True
    for package in ("engine.missions.crit_ops", "engine.missions.tac_ops"):
        pkg = importlib.import_module(package)
        for info in pkgutil.iter_modules(pkg.__path__):
            importlib.import_module(f"{package}.{info.name}")


def crit_ops() -> list[OpSpec]:
    """The registered crit ops, in :data:`CRIT_ORDER` order (then any others by name)."""
    _load()
    found = [s for s in _OPS.values() if s.kind == CRIT]
    order = {n: k for k, n in enumerate(CRIT_ORDER)}
    return sorted(found, key=lambda s: (order.get(s.name, len(order)), s.name))


def tac_ops() -> list[OpSpec]:
    """The registered tac ops, by archetype then name."""
    _load()
    return sorted((s for s in _OPS.values() if s.kind == TAC), key=lambda s: (s.archetype, s.name))


def find_op(name: str, kind: str) -> OpSpec | None:
    """The registered op of ``kind`` called ``name`` (any case), or ``None``."""
    _load()
    spec = _OPS.get(" ".join(name.lower().split()))
    return spec if spec is not None and spec.kind == kind else None


def archetype_of(name: str) -> str:
    """The archetype (one of :data:`ARCHETYPES`) a team file names, in any case and with
    "and" for "&" (``"Seek and Destroy"``), or ``""`` when it names none of them."""
    key = " ".join(name.lower().replace(" and ", " & ").split())
    return next((a for a in ARCHETYPES if a.lower() == key), "")


def tac_ops_for(archetypes: Sequence[str]) -> list[OpSpec]:
    """The tac ops a kill team with these archetypes may select (every tac op when it lists
    none of the four, 8.4)."""
    known = [archetype_of(a) for a in archetypes if archetype_of(a)]
    return [s for s in tac_ops() if not known or s.archetype in known]


def crit_active(w: Work, name: str) -> bool:
    """Whether ``name`` is the battle's crit op."""
    return w.mission.crit_op == name


def tac_active(w: Work, player: str, name: str) -> bool:
    """Whether ``player`` selected the tac op ``name``."""
    return w.mission.tac_ops[0 if player == "A" else 1] == name


def reveal_tac_op(w: Work, player: str, why: str) -> None:
    """Reveal ``player``'s tac op (once; event ``tac_op_revealed`` with ``op`` and ``why``)."""
    i = 0 if player == "A" else 1
    if w.mission.tac_revealed[i] or not w.mission.tac_ops[i]:
        return
    revealed = list(w.mission.tac_revealed)
    revealed[i] = True
    set_mission(w, tac_revealed=(revealed[0], revealed[1]))
    w.emit("tac_op_revealed", player=player, op=w.mission.tac_ops[i], why=why)


def _illegal(msg: str) -> IllegalActionError:
    return IllegalActionError(msg)


# -------------------------------------------------------------------------------------------
# Set-up and Gambit step frames
# -------------------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class CritOpRollFrame:
    """Roll the crit op (module docstring): two ordered D6."""

    def run(self, w: Work) -> None:
        w.roll("crit op", "A", 2, ordered=True, label="crit op")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        first, second = values
        name = CRIT_ORDER[((first - 1) * 6 + second - 1) // 4]
        set_mission(w, crit_op=name)
        w.emit("crit_op_chosen", op=name, roll=(first, second))
        w.stack.pop()

    def options(self, w: Work) -> list[Action]:  # pragma: no cover
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover
        raise _illegal("no decision here")


def _fixed(pairs: tuple[tuple[str, str], ...], player: str) -> str:
    return next((name for p, name in pairs if p == player), "")


def _record_pick(w: Work, field: str, player: str, value: str) -> None:
    """Set ``player``'s entry of the (A, B) pair ``field`` of the mission state
    (``tac_ops`` or ``primary_ops``) to ``value``."""
    pair = list(getattr(w.mission, field))
    pair[0 if player == "A" else 1] = value
    set_mission(w, **{field: (pair[0], pair[1])})


@attrs.frozen(slots=True)
class TacOpFrame:
    """Each player secretly selects a tac op (8.4), the player with initiative first; a tac
    op fixed by the game option ``tac_ops`` is selected without asking."""

    turn: str
    asked: int = 0

    def run(self, w: Work) -> None:
        if self.asked >= 2:
            w.stack.pop()
            return
        fixed = _fixed(w.ctx.options.tac_ops, self.turn)
        if fixed:
            spec = find_op(fixed, TAC)
            assert spec is not None  # checked by install
            self._select(w, spec.name)
            return
        if not self.options(w):  # no tac op registered for its archetypes: none to select
            w.replace_top(turn=other(self.turn), asked=self.asked + 1)
            return
        w.decide(self.turn, "tac op")

    def _select(self, w: Work, name: str) -> None:
        _record_pick(w, "tac_ops", self.turn, name)
        w.emit("tac_op_selected", player=self.turn)
        w.replace_top(turn=other(self.turn), asked=self.asked + 1)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        team = w.ctx.rosters[self.turn].team
        return [Action("Op", text=f"tac {s.name.lower()}") for s in tac_ops_for(team.archetypes)]

    def act(self, w: Work, a: Action) -> None:
        text = a.text.removeprefix("tac ").strip() if a.text.startswith("tac ") else ""
        spec = find_op(text, TAC) if text else None
        team = w.ctx.rosters[self.turn].team
        allowed = tac_ops_for(team.archetypes)
        if spec is None or spec not in allowed:
            names = ", ".join(s.name for s in allowed)
            raise _illegal(
                f"{a}: player {self.turn} selects a tac op of its kill team's archetypes "
                f"('Op tac <name>': {names}) (8.4)"
            )
        self._select(w, spec.name)


@attrs.frozen(slots=True)
class PrimaryOpFrame:
    """Each player secretly selects its primary op (8.1) at the start of turning point 1's
    Gambit step, the player with initiative first; one fixed by the game option
    ``primary_ops`` is selected without asking."""

    turn: str
    asked: int = 0

    def run(self, w: Work) -> None:
        if self.asked >= 2:
            w.stack.pop()
            return
        fixed = _fixed(w.ctx.options.primary_ops, self.turn)
        if fixed:
            self._select(w, fixed.lower())
            return
        w.decide(self.turn, "primary op")

    def _select(self, w: Work, choice: str) -> None:
        _record_pick(w, "primary_ops", self.turn, choice)
        w.emit("primary_op_selected", player=self.turn)
        w.replace_top(turn=other(self.turn), asked=self.asked + 1)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        return [Action("Op", text=f"primary {c}") for c in PRIMARY_CHOICES]

    def act(self, w: Work, a: Action) -> None:
        choice = a.text.removeprefix("primary ").strip() if a.text.startswith("primary ") else ""
        if choice not in PRIMARY_CHOICES:
            raise _illegal(
                f"{a}: player {self.turn} selects its primary op: 'Op primary crit', "
                "'Op primary tac' or 'Op primary kill' (8.1)"
            )
        self._select(w, choice)


# -------------------------------------------------------------------------------------------
# Hooks of the pack
# -------------------------------------------------------------------------------------------


def _start(w: Work) -> Any:
    fixed = w.ctx.options.crit_op
    if fixed:
        spec = find_op(fixed, CRIT)
        assert spec is not None  # checked by install
        set_mission(w, crit_op=spec.name)
        w.emit("crit_op_chosen", op=spec.name, roll=())
        return None
    return CritOpRollFrame()


def _tac_step(w: Work) -> Any:
    return TacOpFrame(turn=w.initiative or "A")


def _primary_step(w: Work) -> Any:
    return PrimaryOpFrame(turn=w.initiative) if w.tp == 1 else None


def _tp_started(w: Work, ev: Event) -> None:
    if w.mission.tp_vp:
        set_mission(w, tp_vp=())


def _battle_ending(w: Work, ev: Event) -> None:
    """Reveal what is still secret, then score each primary op's bonus (8.1)."""
    for p in initiative_first(w):
        reveal_tac_op(w, p, "the end of the battle")
    for k, p in enumerate(("A", "B")):
        choice = w.mission.primary_ops[k]
        if not choice:
            continue
        base = op_vp(w, choice, p)
        bonus = math.ceil(base / 2)
        w.emit("primary_op_revealed", player=p, op=choice, bonus=bonus)
        add_vp(w, p, PRIMARY, bonus, f"primary op ({choice}): half of {base}VP, rounded up")


_OP_WORDS = {CRIT: "crit op", TAC: "tac op", KILL: "kill op"}
add_template(
    "crit_op_chosen",
    lambda e: (
        f"the crit op is {e['op']}"
        + (f" (rolled {e['roll'][0]},{e['roll'][1]})" if e["roll"] else "")
    ),
)
add_template("tac_op_selected", lambda e: f"{e['player']} selects a tac op in secret")
add_template("tac_op_revealed", lambda e: f"{e['player']} reveals tac op {e['op']} ({e['why']})")
add_template("primary_op_selected", lambda e: f"{e['player']} selects a primary op in secret")
add_template(
    "primary_op_revealed",
    lambda e: f"{e['player']}'s primary op is the {_OP_WORDS.get(e['op'], e['op'])}",
)
add_template(
    "mission_action",
    lambda e: (
        f"{e['op']} performs {e['action']}"
        + (f" on objective marker {e['marker']}" if e.get("marker") else "")
    ),
)


def check_options(opts: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Check the mission options against the registered ops and the rosters.

    Raises:
        GameOptionsError: an unknown crit op, a tac op that is unknown or not of the
            player's kill team's archetypes, a primary op other than crit/tac/kill.
    """
    if opts.crit_op and find_op(opts.crit_op, CRIT) is None:
        names = ", ".join(s.name for s in crit_ops())
        raise GameOptionsError(f"game option 'crit_op': no crit op {opts.crit_op!r} ({names})")
    for p, name in opts.tac_ops:
        spec = find_op(name, TAC)
        allowed = tac_ops_for(rosters[p].team.archetypes)
        if spec is None or spec not in allowed:
            names = ", ".join(s.name for s in allowed)
            raise GameOptionsError(
                f"game option 'tac_ops': player {p}'s kill team ({rosters[p].team.name}) "
                f"cannot select {name!r}; its tac ops are: {names} (8.4)"
            )
    for p, choice in opts.primary_ops:
        if choice.lower() not in PRIMARY_CHOICES:
            raise GameOptionsError(
                f"game option 'primary_ops': player {p}'s primary op must be crit, tac or "
                f"kill, not {choice!r} (8.1)"
            )


def install(hooks: Hooks, opts: GameOptions, rosters: Mapping[str, Roster]) -> None:
    """Install the battle's mission (:data:`engine.game.context.MISSIONS`): the kill op
    always; for Approved Ops 2025 also every crit op, each player's possible tac ops, the
    set-up and Gambit steps and the primary op (module docstring).

    Raises:
        GameOptionsError: as :func:`check_options`.
    """
    kill_op.install(hooks)
    if opts.mission != "approved_ops_2025":
        return
    check_options(opts, rosters)
    hooks.start_step(_start)
    hooks.setup_step(_tac_step)
    hooks.gambit_step(_primary_step)
    hooks.on("turning_point_started", _tp_started)
    for spec in crit_ops():
        spec.install(hooks, ("A", "B"))
    for spec in tac_ops():
        players = tuple(p for p in ("A", "B") if spec in tac_ops_for(rosters[p].team.archetypes))
        if players:
            spec.install(hooks, players)
    hooks.on("battle_ending", _battle_ending)


# -------------------------------------------------------------------------------------------
# The secret selections (engine.game.secrets: how a hidden tac op or primary op is redrawn)
# -------------------------------------------------------------------------------------------


def _index(player: str) -> int:
    return 0 if player == "A" else 1


def _tac_hidden(state: GameState, owner: str) -> bool:
    k = _index(owner)
    m = state.mission
    return bool(m.tac_ops[k]) and not m.tac_revealed[k] and state.phase != "over"


def _tac_choices(state: GameState, owner: str) -> tuple[str, ...]:
    """The tac ops ``owner`` may have selected: the one the game options fix (they are
    public), else every tac op of its kill team's archetypes (8.4)."""
    fixed = _fixed(state.ctx.options.tac_ops, owner)
    spec = find_op(fixed, TAC) if fixed else None
    if spec is not None:
        return (spec.name,)
    return tuple(s.name for s in tac_ops_for(state.ctx.rosters[owner].team.archetypes))


def _tac_put(state: GameState, owner: str, name: str) -> GameState:
    """``owner``'s tac op replaced by ``name``; the secret facts its tac op kept are dropped
    (they would betray the op: the new one starts without any)."""
    k = _index(owner)
    pair = list(state.mission.tac_ops)
    pair[k] = name
    state = attrs.evolve(state, mission=attrs.evolve(state.mission, tac_ops=(pair[0], pair[1])))
    names = {s.name for s in tac_ops()}
    prefix = f"secret:{owner}:"
    dropped: dict[str, Any] = {
        key: None
        for key, _ in state.mission.facts
        if key.startswith(prefix) and key[len(prefix) :].split(":", 1)[0] in names
    }
    return with_facts(state, dropped) if dropped else state


def _primary_hidden(state: GameState, owner: str) -> bool:
    return bool(state.mission.primary_ops[_index(owner)]) and state.phase != "over"


def _primary_choices(state: GameState, owner: str) -> tuple[str, ...]:
    """The primary op the game options fix (public), else crit, tac and kill (8.1)."""
    fixed = _fixed(state.ctx.options.primary_ops, owner)
    return (fixed.lower(),) if fixed else PRIMARY_CHOICES


def _primary_put(state: GameState, owner: str, choice: str) -> GameState:
    pair = list(state.mission.primary_ops)
    pair[_index(owner)] = choice
    mission = attrs.evolve(state.mission, primary_ops=(pair[0], pair[1]))
    return attrs.evolve(state, mission=mission)


TAC_SECRET = register_secret(SecretSelection("tac op", _tac_hidden, _tac_choices, _tac_put))
"""A player's tac op until it is revealed (8.4): redrawn among its kill team's tac ops. Not
excluded: an op whose reveal condition would have shown (Martyrs once an operative fell
contesting a marker)."""
PRIMARY_SECRET = register_secret(
    SecretSelection("primary op", _primary_hidden, _primary_choices, _primary_put)
)
"""A player's primary op until the end of the battle (8.1): redrawn among crit, tac, kill."""
