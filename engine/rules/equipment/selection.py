"""Selecting universal equipment and setting up pre-battle items (``rules/KT24.md`` 1.2
steps 2 and 3, 7.2).

Two set-up steps run between the drop zones and deployment:

1. :class:`EquipmentSelectionFrame`: each player in turn (A, then B; each choice is secret
   until both are made) selects options one at a time (``Equipment <selection>``) until it
   has :data:`~engine.rules.equipment.MAX_OPTIONS` or says ``Equipment done``; each option
   at most once (a grenade option once whatever its split). The options are the universal
   ones and the player's team's own equipment (``Team.equipment``, by name: ``Equipment
   combat daggers``), up to four in all. The game option ``equipment``
   fixes a player's selection instead (checked the same way). Then both selections are
   revealed (``equipment_selected``).
2. :class:`EquipmentSetupFrame`: starting with the player with initiative, players alternate
   setting up one pre-battle item each (``Set up <item> at x,y <angle>``), or passing (their
   remaining items are not set up); each placement is checked against the item's
   restrictions (:func:`engine.rules.equipment.placement.placement_problem`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.secrets import SecretSelection, register_secret
from engine.game.state import Decision, GameState, other
from engine.game.work import Work
from engine.rules.equipment import placement
from engine.rules.equipment.options import ITEM_KINDS, ITEMS, MAX_OPTIONS, SELECTIONS, option_of
from engine.teams.model import Team, Weapon

__all__ = [
    "EQUIPMENT_SECRET",
    "EquipmentSelectionFrame",
    "EquipmentSetupFrame",
    "check_selection",
    "give_weapons",
    "has_equipment",
    "install",
    "items_left",
    "selected_equipment",
    "team_equipment",
]


def team_equipment(team: Team | None) -> tuple[str, ...]:
    """The names of ``team``'s own equipment options (``Team.equipment``), selectable with
    the universal ones (7.2); ``()`` for ``None``."""
    return tuple(e.name for e in team.equipment) if team is not None else ()


def _selection_name(text: str, team: Team | None = None) -> str | None:
    low = " ".join(text.lower().split())
    for s in (*SELECTIONS, *team_equipment(team)):
        if " ".join(s.lower().split()) == low:
            return s
    return None


def check_selection(names: tuple[str, ...], team: Team | None = None) -> tuple[str, ...]:
    """The canonical names of a selection (case-insensitive input): universal options
    (:data:`~engine.rules.equipment.SELECTIONS`) and, with ``team``, that team's own
    equipment options.

    Raises:
        ValueError: an unknown name (listing the known ones), more than
            :data:`~engine.rules.equipment.MAX_OPTIONS` options in all, or an option twice.
    """
    out: list[str] = []
    for n in names:
        got = _selection_name(n, team)
        if got is None:
            known = ", ".join((*team_equipment(team), *SELECTIONS))
            what = f" or {team.name}" if team is not None and team.equipment else ""
            raise ValueError(f"unknown universal{what} equipment {n!r} (known: {known})")
        if any(option_of(x) == option_of(got) for x in out):
            raise ValueError(f"{option_of(got)} selected twice: each option at most once (7.2)")
        out.append(got)
    if len(out) > MAX_OPTIONS:
        raise ValueError(f"{len(out)} equipment options: at most {MAX_OPTIONS} (7.2)")
    return tuple(out)


def _team(w: Work, player: str) -> Team:
    return w.ctx.rosters[player].team


def selected_equipment(w: Work, player: str) -> tuple[str, ...]:
    """``player``'s equipment selection (universal and team options, canonical names);
    ``()`` before it is made (7.2)."""
    return tuple(w.pl(player).equipment)


def has_equipment(w: Work, player: str, name: str) -> bool:
    """Whether ``player`` selected the equipment option ``name`` (case-insensitive; a
    grenade option by its name with or without the split)."""
    equipment = w.pl(player).equipment
    if not equipment:
        return False
    key = (tuple(equipment), name)
    got = _HAS.get(key)
    if got is None:
        low = " ".join(name.lower().split())
        got = any(low in (" ".join(s.lower().split()), option_of(s).lower()) for s in equipment)
        if len(_HAS) >= HAS_EQUIPMENT_ENTRIES:
            _HAS.clear()
        _HAS[key] = got
    return got


HAS_EQUIPMENT_ENTRIES = 4096
"""Answers of :func:`has_equipment` remembered, keyed by value (the selection, a tuple of
names, and the name asked); the memo is emptied when full."""

_HAS: dict[tuple[tuple[str, ...], str], bool] = {}


def give_weapons(
    hooks: Hooks,
    players: tuple[str, ...],
    name: str,
    who: Callable[[Work, str], bool] | None = None,
) -> None:
    """Give the weapons of the team equipment option ``name`` (``Equipment.weapons`` in its
    team's data) to the operatives of ``players`` for which ``who(w, op_id)`` is true (all by
    default) once their player selected it (:func:`has_equipment`): a
    :meth:`~engine.game.context.Hooks.weapon_source`. An operative whose datacard already
    has a weapon of the same name keeps its own.

    Call it from a team rule's installer::

        def _install_daggers(hooks, players):
            give_weapons(hooks, players, "Combat Daggers")
    """

    def source(w: Work, op_id: str, kind: str) -> tuple[Weapon, ...]:
        player = w.ctx.owner[op_id]
        if player not in players or not has_equipment(w, player, name):
            return ()
        if who is not None and not who(w, op_id):
            return ()

        def make() -> tuple[Weapon, ...]:
            eq = next(
                (e for e in _team(w, player).equipment if e.name.lower() == name.lower()), None
            )
            own = {x.name.lower() for x in w.ctx.datacards[op_id].weapons}
            if eq is None:
                return ()
            return tuple(x for x in eq.weapons if x.kind == kind and x.name.lower() not in own)

        return w.ctx.cached(("team equipment weapons", op_id, name, kind), make)  # type: ignore[no-any-return]

    hooks.weapon_source(source)


def _fixed(w: Work, player: str) -> tuple[str, ...] | None:
    for p, names in w.ctx.options.equipment:
        if p == player:
            try:
                return check_selection(names, _team(w, player))
            except ValueError as exc:
                raise IllegalActionError(f"equipment of player {player}: {exc}") from None
    return None


@attrs.frozen(slots=True)
class EquipmentSelectionFrame:
    """Step 1 of the module docstring. ``turn``: the player choosing. The selections stay
    hidden from the opponent until both are revealed (:mod:`engine.game.observation`)."""

    HIDES_OPPONENT = ("equipment",)

    turn: str = "A"

    def run(self, w: Work) -> None:
        turn = self.turn
        while True:
            fixed = _fixed(w, turn)
            if fixed is not None and not w.pl(turn).equipment:
                w.set_pl(turn, equipment=fixed)
            done = w.count(turn, "equipment selected")
            if fixed is None and not done and len(w.pl(turn).equipment) < MAX_OPTIONS:
                if turn != self.turn:
                    w.replace_top(turn=turn)
                w.decide(turn, "equipment")
                return
            if turn == "B":
                break
            turn = "B"
        for p in ("A", "B"):
            w.emit("equipment_selected", player=p, items=w.pl(p).equipment)
        w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice are rolled when selecting equipment")

    def options(self, w: Work) -> list[Action]:
        taken = {option_of(x) for x in w.pl(self.turn).equipment}
        own = team_equipment(_team(w, self.turn))
        return [Action("Equipment", text="done")] + [
            Action("Equipment", text=" ".join(s.lower().split()))
            for s in (*own, *SELECTIONS)
            if option_of(s) not in taken
        ]

    def act(self, w: Work, a: Action) -> None:
        if a.verb != "Equipment":
            raise IllegalActionError(
                f"{a} is not possible now: {self.turn} selects equipment ('Equipment <name>' "
                "or 'Equipment done', 7.2)"
            )
        mine = w.pl(self.turn).equipment
        if a.text == "done":
            w.count(self.turn, "equipment selected", 1)
            return
        try:
            (name,) = check_selection((*mine, a.text), _team(w, self.turn))[-1:]
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        w.set_pl(self.turn, equipment=(*mine, name))


def items_left(w: Work, player: str) -> list[str]:
    """The pre-battle items of ``player``'s selection not set up yet, in selection order,
    or ``[]`` once it has passed."""
    if w.count(player, "equipment set-up passed"):
        return []
    wanted: list[str] = []
    for sel in w.pl(player).equipment:
        wanted += ITEMS.get(option_of(sel), ())
    for t in w.tokens:
        if t.owner == player:
            item = _ITEM_OF.get(t.kind)
            if item in wanted:
                wanted.remove(item)
    return wanted


_ITEM_OF = {k: i for i, k in ITEM_KINDS.items()}


@attrs.frozen(slots=True)
class EquipmentSetupFrame:
    """Step 2 of the module docstring. ``turn``: the player to set up an item."""

    turn: str

    def run(self, w: Work) -> None:
        for turn in (self.turn, other(self.turn)):
            if items_left(w, turn):
                if turn != self.turn:
                    w.replace_top(turn=turn)
                w.decide(turn, "equipment_setup")
                return
        w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice are rolled when setting up equipment")

    def options(self, w: Work) -> list[Action]:
        out = [Action("Pass")]
        seen: set[str] = set()
        for item in items_left(w, self.turn):
            if item in seen:
                continue
            seen.add(item)
            for x, y, z, angle in placement.candidate_spots(w, self.turn, item):
                out.append(Action("Set up", text=item.lower(), point=(x, y, z), values=(angle,)))
        return out

    def act(self, w: Work, a: Action) -> None:
        player = self.turn
        if a.verb == "Pass":
            w.count(player, "equipment set-up passed", 1)
            w.emit("passed", player=player, step="equipment set-up")
            w.replace_top(turn=other(player))
            return
        if a.verb != "Set up":
            raise IllegalActionError(
                f"{a} is not possible now: {player} sets up a pre-battle item ('Set up <item> "
                "at x,y <angle>') or passes (1.2, 7.2)"
            )
        left = items_left(w, player)
        item = next((i for i in left if i.lower() == a.text), None)
        if item is None:
            names = ", ".join(sorted(set(left))) or "none"
            raise IllegalActionError(
                f"{player} has no {a.text!r} left to set up (items left: {names}) (7.2)"
            )
        assert a.point is not None
        angle = a.values[0] if a.values else 0
        why = placement.placement_problem(w, player, item, a.point, angle)
        if why:
            tail = "" if "7.2" in why else " (7.2)"
            raise IllegalActionError(f"{item} cannot be set up there: {why}{tail}")
        placement.set_up(w, player, item, a.point, angle)
        w.replace_top(turn=other(player))


def _selection_step(w: Work) -> EquipmentSelectionFrame:
    return EquipmentSelectionFrame()


def _setup_step(w: Work) -> EquipmentSetupFrame:
    return EquipmentSetupFrame(turn=w.initiative or "A")


def _maker(item: str):  # type: ignore[no-untyped-def]
    def make(w: Work, owner: str, x: float, y: float, z: float, angle: int) -> object:
        return placement.make_token(w, owner, item, (x, y, z), angle)

    return make


def install(hooks: Hooks) -> None:
    """Add the two set-up steps (module docstring), check selections given as options or
    in scripted positions, and build pre-battle item tokens for scripted positions."""
    hooks.setup_step(_selection_step)
    hooks.setup_step(_setup_step)
    hooks.equipment_check = check_selection
    for item, kind in ITEM_KINDS.items():
        hooks.token_maker(kind, _maker(item))


# The secret selection (engine.game.secrets): how a hidden equipment selection is redrawn.


def _selection_frame(state: GameState) -> EquipmentSelectionFrame | None:
    return next((f for f in state.stack if isinstance(f, EquipmentSelectionFrame)), None)


def _fixed_selection(state: GameState, owner: str) -> tuple[str, ...] | None:
    for p, names in state.ctx.options.equipment:
        if p == owner:
            return check_selection(names, state.ctx.rosters[owner].team)
    return None


def _equipment_hidden(state: GameState, owner: str) -> bool:
    """Whether ``owner`` has begun a selection that is still secret: the selection step is
    under way and has reached ``owner`` (A selects first), and no game option fixes it."""
    frame = _selection_frame(state)
    if frame is None or (owner == "B" and frame.turn == "A"):
        return False
    return _fixed_selection(state, owner) is None


def _equipment_choices(state: GameState, owner: str) -> tuple[tuple[str, ...], ...]:
    """Every selection ``owner`` may have made, by size then in listing order (the empty
    selection first when possible). What shows is kept: ``owner`` said ``Equipment done``
    (a public counter), so it holds fewer than :data:`MAX_OPTIONS`, unless it is still
    selecting; otherwise it stopped at :data:`MAX_OPTIONS`."""
    fixed = _fixed_selection(state, owner)
    if fixed is not None:
        return (fixed,)
    node = state.node
    selecting = isinstance(node, Decision) and node.player == owner and node.kind == "equipment"
    done = any(k == "equipment selected" and n for k, n in state.player(owner).uses)
    names = (*team_equipment(state.ctx.rosters[owner].team), *SELECTIONS)
    sizes = tuple(range(MAX_OPTIONS)) if selecting or done else (MAX_OPTIONS,)
    return _selections(names, sizes)


@functools.lru_cache(maxsize=64)
def _selections(names: tuple[str, ...], sizes: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(option_of(n), []).append(n)
    out: list[tuple[str, ...]] = []
    for size in sizes:
        for chosen in itertools.combinations(groups.values(), size):
            out.extend(itertools.product(*chosen))
    return tuple(out)


def _equipment_put(state: GameState, owner: str, selection: tuple[str, ...]) -> GameState:
    k = 0 if owner == "A" else 1
    players = list(state.players)
    players[k] = attrs.evolve(players[k], equipment=selection)
    return attrs.evolve(state, players=(players[0], players[1]))


EQUIPMENT_SECRET = register_secret(
    SecretSelection("equipment", _equipment_hidden, _equipment_choices, _equipment_put)
)
"""A player's equipment selection until both are revealed (7.2): redrawn among the
selections of its options (each option at most once) of the size what shows allows."""
