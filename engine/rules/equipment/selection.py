"""Selecting universal equipment and setting up pre-battle items (``rules/KT24.md`` 1.2
steps 2 and 3, 7.2).

Two set-up steps run between the drop zones and deployment:

1. :class:`EquipmentSelectionFrame`: each player in turn (A, then B; each choice is secret
   until both are made) selects options one at a time (``Equipment <selection>``) until it
   has :data:`~engine.rules.equipment.MAX_OPTIONS` or says ``Equipment done``; each option
   at most once (a grenade option once whatever its split). The game option ``equipment``
   fixes a player's selection instead (checked the same way). Then both selections are
   revealed (``equipment_selected``).
2. :class:`EquipmentSetupFrame`: starting with the player with initiative, players alternate
   setting up one pre-battle item each (``Set up <item> at x,y <angle>``), or passing (their
   remaining items are not set up); each placement is checked against the item's
   restrictions (:func:`engine.rules.equipment.placement.placement_problem`).
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.state import other
from engine.game.work import Work
from engine.rules.equipment import ITEM_KINDS, ITEMS, MAX_OPTIONS, SELECTIONS, option_of

__all__ = [
    "EquipmentSelectionFrame",
    "EquipmentSetupFrame",
    "check_selection",
    "install",
    "items_left",
]


def _selection_name(text: str) -> str | None:
    low = " ".join(text.lower().split())
    for s in SELECTIONS:
        if s.lower() == low:
            return s
    return None


def check_selection(names: tuple[str, ...]) -> tuple[str, ...]:
    """The canonical names of a selection (case-insensitive input).

    Raises:
        ValueError: an unknown name (listing the known ones), more than
            :data:`~engine.rules.equipment.MAX_OPTIONS`, or an option twice.
    """
    out: list[str] = []
    for n in names:
        got = _selection_name(n)
        if got is None:
            raise ValueError(f"unknown universal equipment {n!r} (known: {', '.join(SELECTIONS)})")
        if any(option_of(x) == option_of(got) for x in out):
            raise ValueError(f"{option_of(got)} selected twice: each option at most once (7.2)")
        out.append(got)
    if len(out) > MAX_OPTIONS:
        raise ValueError(f"{len(out)} equipment options: at most {MAX_OPTIONS} (7.2)")
    return tuple(out)


def _fixed(w: Work, player: str) -> tuple[str, ...] | None:
    for p, names in w.ctx.options.equipment:
        if p == player:
            try:
                return check_selection(names)
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
        return [Action("Equipment", text="done")] + [
            Action("Equipment", text=s.lower()) for s in SELECTIONS if option_of(s) not in taken
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
            (name,) = check_selection((*mine, a.text))[-1:]
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
        from engine.rules.equipment import placement

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
        from engine.rules.equipment import placement

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
        from engine.rules.equipment import placement

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
