"""KT21 faction equipment (``rules/KT21.md`` 1.2 step 6, 1.3): before the barricades and the
deployment, each player selects up to :data:`MAX_EP` equipment points (EP) of its faction's
equipment, assigns each item to one of its operatives, and both selections are revealed.

Two set-up steps (the ``setup_steps`` of the KT21 flow; not in the Lite sequence, which has
no equipment, 1.4):

1. :class:`Kt21EquipmentSelectionFrame`: A, then B, selects items one at a time
   (``Equipment <item>``) until it says ``Equipment done`` or nothing more fits; each item
   costs its EP and the total is at most 10. The selection is secret until both are made
   (decision kind ``kt21_equipment``, the ``equipment`` field of each player kept from the
   opponent; :data:`KT21_EQUIPMENT_SECRET` redraws it). Then both are revealed
   (``equipment_selected``), and every selected item whose rule the engine does not play is
   reported (``rule_not_played``), never ignored.
2. :class:`Kt21EquipmentAssignFrame`: A, then B, gives each selected item to one of its
   operatives (``Equipment <item> on <operative>``, decision kind ``kt21_equipment_assign``),
   each operative at most one of each item. Reading (``docs/rulings/kt21_teams.md``): the
   assignment is made openly right after the reveal, where the sequence has it before (the
   engine's secret selections redraw a set of items, not who carries them).

Limits (each team's rule module gives them with :func:`register_equipment`, from its
dataslate): an item's EP; an operative carries at most one of each item, so a team selects
an item at most once per operative; some items at most once per kill team.

An item's effect is its own rule module's: a grenade gives its weapon profiles to the
operative carrying it (:func:`give_equipment_weapons`, a weapon source); the others read
:func:`carried` / :func:`carriers`. A player's ``equipment`` holds ``"<item>"`` while
selecting and ``"<item> (<operative>)"`` once assigned.
"""

from __future__ import annotations

import functools
import itertools

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.secrets import SecretSelection, register_secret
from engine.game.state import GameState
from engine.game.work import Work
from engine.names import slug
from engine.rules import registry
from engine.teams.model import Team, Weapon

__all__ = [
    "KT21_EQUIPMENT_SECRET",
    "MAX_EP",
    "NO_EQUIPMENT_MISSIONS",
    "Kt21EquipmentAssignFrame",
    "Kt21EquipmentItem",
    "Kt21EquipmentSelectionFrame",
    "carried",
    "carriers",
    "check_position_equipment",
    "equipment_items",
    "give_equipment_weapons",
    "install",
    "register_equipment",
    "selection_problem",
    "unpriced_equipment",
]

MAX_EP = 10
"""Equipment points each player may spend (1.2 step 6)."""
NO_EQUIPMENT_MISSIONS = ("lite",)
"""The KT21 sequences without an equipment step (1.4)."""
_DONE = "kt21 equipment selected"


@attrs.frozen(slots=True)
class Kt21EquipmentItem:
    """One selectable item of a KT21 team's equipment.

    Attributes:
        name: as the team file names it (``Team.equipment``).
        ep: its cost in equipment points.
        once_per_team: at most one in a kill team (else at most one per operative).
    """

    name: str
    ep: int
    once_per_team: bool = False


_ITEMS: dict[str, dict[str, Kt21EquipmentItem]] = {}


def register_equipment(team: str, name: str, ep: int, *, once_per_team: bool = False) -> None:
    """Declare the EP cost and limit of the item ``name`` of the team whose key is ``team``
    (:func:`engine.rules.registry.team_key`, e.g. ``"kt21_kasrkin"``); called by the team's
    rule module at import.

    Raises:
        ValueError: a cost outside 0 to :data:`MAX_EP`, or a different declaration of the
            same item."""
    if not 0 <= ep <= MAX_EP:
        raise ValueError(f"equipment {name!r} of {team!r}: EP must be 0 to {MAX_EP}, got {ep}")
    item = Kt21EquipmentItem(name, ep, once_per_team)
    known = _ITEMS.setdefault(team, {})
    old = known.get(slug(name))
    if old is not None and old != item:
        raise ValueError(f"equipment {name!r} of {team!r} is declared twice, differently")
    known[slug(name)] = item


def _key(team: Team) -> str:
    registry.implementation("")  # loads the team rule packages, which declare their items
    return registry.team_key(team)


def equipment_items(team: Team) -> tuple[Kt21EquipmentItem, ...]:
    """The items of ``team``'s equipment (``Team.equipment``, in its order) whose EP the
    engine knows (:func:`register_equipment`)."""
    known = _ITEMS.get(_key(team), {})
    return tuple(known[slug(e.name)] for e in team.equipment if slug(e.name) in known)


def unpriced_equipment(team: Team) -> tuple[str, ...]:
    """``team``'s equipment whose EP the engine does not know: not selectable (reported)."""
    known = _ITEMS.get(_key(team), {})
    return tuple(e.name for e in team.equipment if slug(e.name) not in known)


def _team(w: Work | GameState, player: str) -> Team:
    return w.ctx.rosters[player].team


def _item(team: Team, name: str) -> Kt21EquipmentItem | None:
    low = " ".join(name.lower().split())
    return next((i for i in equipment_items(team) if i.name.lower() == low), None)


def _split(entry: str) -> tuple[str, str]:
    """``(item, operative)`` of an entry of a player's ``equipment`` (operative ``""`` while
    unassigned)."""
    if entry.endswith(")") and " (" in entry:
        name, op = entry[:-1].rsplit(" (", 1)
        return name, op
    return entry, ""


def selection_problem(team: Team, names: tuple[str, ...], operatives: int) -> str | None:
    """Why the items ``names`` (canonical names) are not a legal selection for ``team``
    with ``operatives`` operatives, or ``None``: more than :data:`MAX_EP` EP, an item more
    times than there are operatives (one each at most), or twice when once per kill team."""
    items = [_item(team, n) for n in names]
    if any(i is None for i in items):
        return f"unknown {team.name} equipment among {', '.join(names)}"
    total = sum(i.ep for i in items if i is not None)
    if total > MAX_EP:
        return f"{total}EP of equipment: at most {MAX_EP}EP (rules/KT21.md 1.2 step 6)"
    for name in set(names):
        n = names.count(name)
        item = _item(team, name)
        assert item is not None
        if item.once_per_team and n > 1:
            return f"{name} is selected at most once per kill team"
        if n > operatives:
            return f"{name} {n} times: each operative carries at most one ({operatives} operatives)"
    return None


def carried(w: Work, op: str) -> tuple[str, ...]:
    """The equipment items assigned to operative ``op``."""
    player = w.ctx.owner[op]
    return tuple(n for n, o in map(_split, w.pl(player).equipment) if o == op)


def carriers(w: Work, player: str, name: str) -> tuple[str, ...]:
    """The operatives of ``player`` carrying the item ``name`` (case-insensitive)."""
    low = " ".join(name.lower().split())
    return tuple(o for n, o in map(_split, w.pl(player).equipment) if o and n.lower() == low)


def give_equipment_weapons(hooks: Hooks, players: tuple[str, ...], name: str) -> None:
    """Give the weapons of the item ``name`` (``Equipment.weapons`` in the team's data, e.g.
    a grenade's profile) to each operative of ``players`` carrying it: a
    :meth:`~engine.game.context.Hooks.weapon_source`. Call it from the item's installer."""
    low = " ".join(name.lower().split())

    def source(w: Work, op_id: str, kind: str) -> tuple[Weapon, ...]:
        player = w.ctx.owner[op_id]
        if player not in players or low not in (n.lower() for n in carried(w, op_id)):
            return ()
        eq = next((e for e in _team(w, player).equipment if e.name.lower() == low), None)
        if eq is None:
            return ()
        own = {x.name.lower() for x in w.ctx.datacards[op_id].weapons}
        return tuple(x for x in eq.weapons if x.kind == kind and x.name.lower() not in own)

    hooks.weapon_source(source)


def _ep_left(w: Work, player: str) -> int:
    team = _team(w, player)
    spent = 0
    for entry in w.pl(player).equipment:
        item = _item(team, _split(entry)[0])
        spent += item.ep if item is not None else 0
    return MAX_EP - spent


def _selectable(w: Work, player: str) -> list[Kt21EquipmentItem]:
    team = _team(w, player)
    mine = tuple(_split(e)[0] for e in w.pl(player).equipment)
    n_ops = len(w.ctx.rosters[player].operatives)
    return [
        i for i in equipment_items(team) if selection_problem(team, (*mine, i.name), n_ops) is None
    ]


def _fixed(w: Work, player: str) -> tuple[str, ...] | None:
    """The selection the game option ``equipment`` fixes for ``player`` (instead of asking
    the player), checked as a scripted position's is, or ``None``.

    Raises:
        IllegalActionError: a selection the KT21 rules refuse (an item the team has no EP
            for, over 10EP, a limited item twice), naming the player."""
    for p, names in w.ctx.options.equipment:
        if p == player:
            try:
                return check_position_equipment(tuple(names), _team(w, player))
            except ValueError as exc:
                raise IllegalActionError(f"equipment of player {player}: {exc}") from None
    return None


@attrs.frozen(slots=True)
class Kt21EquipmentSelectionFrame:
    """Step 1 of the module docstring. ``turn``: the player selecting. The selections stay
    hidden from the opponent until both are revealed (:mod:`engine.game.observation`)."""

    HIDES_OPPONENT = ("equipment",)

    turn: str = "A"

    def run(self, w: Work) -> None:
        turn = self.turn
        while True:
            fixed = _fixed(w, turn)
            if fixed is not None and not w.count(turn, _DONE):
                w.set_pl(turn, equipment=fixed)  # the game option fixes this selection
                w.count(turn, _DONE, 1)
            if not w.count(turn, _DONE) and _selectable(w, turn):
                if turn != self.turn:
                    w.replace_top(turn=turn)
                w.decide(turn, "kt21_equipment")
                return
            if turn == "B":
                break
            turn = "B"
        w.stack.pop()
        for p in ("A", "B"):
            items = tuple(_split(e)[0] for e in w.pl(p).equipment)
            w.emit("equipment_selected", player=p, items=items)
            team = _team(w, p)
            for name in sorted(set(items)):
                rid = registry.rule_id(_key(team), "equipment", name)
                if registry.implementation(rid) is None:
                    w.emit(
                        "rule_not_played",
                        player=p,
                        rule=f"equipment {name}",
                        why="the engine does not play this item's rule (rules/KT21.md 1.2)",
                    )
        if any(w.pl(p).equipment for p in ("A", "B")):
            w.stack.append(Kt21EquipmentAssignFrame())

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice are rolled when selecting equipment")

    def options(self, w: Work) -> list[Action]:
        return [Action("Equipment", text="done")] + [
            Action("Equipment", text=i.name.lower()) for i in _selectable(w, self.turn)
        ]

    def act(self, w: Work, a: Action) -> None:
        if a.verb != "Equipment":
            raise IllegalActionError(
                f"{a} is not possible now: {self.turn} selects equipment ('Equipment <item>' "
                "or 'Equipment done', rules/KT21.md 1.2 step 6)"
            )
        if a.text == "done":
            w.count(self.turn, _DONE, 1)
            return
        team = _team(w, self.turn)
        item = _item(team, a.text)
        if item is None:
            known = ", ".join(i.name for i in equipment_items(team))
            raise IllegalActionError(f"{a.text!r} is not {team.name} equipment (known: {known})")
        mine = tuple(_split(e)[0] for e in w.pl(self.turn).equipment)
        why = selection_problem(team, (*mine, item.name), len(w.ctx.rosters[self.turn].operatives))
        if why is not None:
            raise IllegalActionError(f"{a} is not possible: {why}")
        w.set_pl(self.turn, equipment=(*w.pl(self.turn).equipment, item.name))


@attrs.frozen(slots=True)
class Kt21EquipmentAssignFrame:
    """Step 2 of the module docstring. ``turn``: the player assigning."""

    turn: str = "A"

    def _unassigned(self, w: Work, player: str) -> list[str]:
        return [n for n, o in map(_split, w.pl(player).equipment) if not o]

    def run(self, w: Work) -> None:
        turn = self.turn
        while True:
            if self._unassigned(w, turn):
                if turn != self.turn:
                    w.replace_top(turn=turn)
                w.decide(turn, "kt21_equipment_assign")
                return
            if turn == "B":
                break
            turn = "B"
        w.stack.pop()

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice are rolled when assigning equipment")

    def options(self, w: Work) -> list[Action]:
        left = self._unassigned(w, self.turn)
        if not left:
            return []
        name = left[0]
        ops = [o for o in w.ops if o.player == self.turn and name not in carried(w, o.id)]
        return [Action("Equipment", text=f"{name.lower()} on {o.id.lower()}") for o in ops]

    def act(self, w: Work, a: Action) -> None:
        legal = self.options(w)
        if a not in legal:
            raise IllegalActionError(
                f"{a} is not possible now: {self.turn} gives its next item to an operative "
                f"that does not carry one already ({', '.join(str(x) for x in legal[:4])}...; "
                "rules/KT21.md 1.2 step 6)"
            )
        name, op = a.text.rsplit(" on ", 1)
        entries = list(w.pl(self.turn).equipment)
        i = next(i for i, e in enumerate(entries) if _split(e) == (_item_name(w, name), ""))
        entries[i] = f"{entries[i]} ({op.upper()})"
        w.set_pl(self.turn, equipment=tuple(entries))


def _item_name(w: Work, low: str) -> str:
    for p in ("A", "B"):
        item = _item(_team(w, p), low)
        if item is not None:
            return item.name
    return low


def check_position_equipment(names: tuple[str, ...], team: Team) -> tuple[str, ...]:
    """The canonical entries of a scripted position's equipment of a player of ``team``
    (:func:`engine.game.scenario.position`, ``equipment``): each ``"<item> (<operative>)"``
    (assigned) or ``"<item>"``; case-insensitive.

    Raises:
        ValueError: an item ``team`` has no EP for, or a selection over the limits
            (:func:`selection_problem`; one of each item per operative)."""
    out: list[str] = []
    for entry in names:
        name, op = _split(" ".join(str(entry).split()))
        item = _item(team, name)
        if item is None:
            known = ", ".join(i.name for i in equipment_items(team))
            raise ValueError(f"unknown {team.name} equipment {name!r} (known: {known})")
        out.append(f"{item.name} ({op.upper()})" if op else item.name)
    items = tuple(_split(e)[0] for e in out)
    why = selection_problem(team, items, len(out) or 1)
    if why is not None and "times" not in why:
        raise ValueError(why)
    assigned = [e for e in out if _split(e)[1]]
    if len(set(assigned)) < len(assigned):
        raise ValueError("an operative carries at most one of each item")
    return tuple(out)


def install(hooks: Hooks) -> None:
    """Add the equipment steps to a KT21 battle (module docstring), unless its sequence has
    none (the battle's mission is one of :data:`NO_EQUIPMENT_MISSIONS`); and the check of a
    scripted position's equipment (:func:`check_position_equipment`)."""
    hooks.equipment_check = check_position_equipment

    def step(w: Work) -> Kt21EquipmentSelectionFrame | None:
        if w.ctx.options.mission in NO_EQUIPMENT_MISSIONS:
            return None
        for p in ("A", "B"):
            missing = unpriced_equipment(_team(w, p))
            if missing:
                w.emit(
                    "rule_not_played",
                    player=p,
                    rule=f"equipment {', '.join(missing)}",
                    why="no EP cost known for these items: not selectable (rules/KT21.md 1.2)",
                )
        if not any(equipment_items(_team(w, p)) for p in ("A", "B")):
            return None
        return Kt21EquipmentSelectionFrame()

    hooks.setup_step(step)


# The secret selection (engine.game.secrets): how a hidden selection is redrawn.


def _selection_frame(state: GameState) -> Kt21EquipmentSelectionFrame | None:
    return next((f for f in state.stack if isinstance(f, Kt21EquipmentSelectionFrame)), None)


def _hidden(state: GameState, owner: str) -> bool:
    """``owner`` has begun a selection still secret: the selection step is under way and
    has reached ``owner`` (A selects first)."""
    frame = _selection_frame(state)
    return frame is not None and not (owner == "B" and frame.turn == "A")


def _choices(state: GameState, owner: str) -> tuple[tuple[str, ...], ...]:
    """Every selection ``owner`` may have made (the empty one first, then by size and in
    the team's order): nothing about it shows until the reveal."""
    team = _team(state, owner)
    return _selections(team, len(state.ctx.rosters[owner].operatives))


@functools.lru_cache(maxsize=32)
def _selections(team: Team, operatives: int) -> tuple[tuple[str, ...], ...]:
    items = equipment_items(team)
    ranges = []
    for i in items:
        most = 1 if i.once_per_team else operatives
        most = min(most, MAX_EP // i.ep if i.ep else most)
        ranges.append(range(most + 1))
    out: list[tuple[str, ...]] = []
    for counts in itertools.product(*ranges):
        if sum(c * i.ep for c, i in zip(counts, items, strict=True)) > MAX_EP:
            continue
        out.append(tuple(n for c, i in zip(counts, items, strict=True) for n in [i.name] * c))
    out.sort(key=len)
    return tuple(out)


def _put(state: GameState, owner: str, selection: tuple[str, ...]) -> GameState:
    k = 0 if owner == "A" else 1
    players = list(state.players)
    players[k] = attrs.evolve(players[k], equipment=selection)
    return attrs.evolve(state, players=(players[0], players[1]))


KT21_EQUIPMENT_SECRET = register_secret(SecretSelection("kt21_equipment", _hidden, _choices, _put))
"""A player's KT21 equipment selection until both are revealed (1.2 step 6)."""
