"""An integer action codec: every listed action of a battle as an integer of a fixed range.

A reinforcement-learning agent picks an integer; :class:`ActionCodec` turns the engine's
actions (:class:`~engine.game.actions.Action`, ``engine.game.actions`` notation table) into
integers in ``range(ACTION_SPACE_SIZE)`` and back, exactly: at a decision, the listed legal
actions (``state.legal_actions()``) get distinct indices, :meth:`ActionCodec.mask` is True
exactly at them, and :meth:`ActionCodec.decode` gives back the very action listed.

Factored layout. The flat index is ``offset[family] + mixed radix of the family's fields``
(:data:`FAMILIES`, in this order; :meth:`ActionCodec.fields` gives the factored tuple back):

- ``fixed``: word (:data:`FIXED_WORDS`): ``Pass``, ``Strike crit``, ``Accurate 2``...
- ``reroll``: faces (the multisets of 1 to :data:`MAX_REROLL_DICE` faces): ``Re-roll 1,1,3``.
- ``operative``: verb (:data:`OPERATIVE_VERBS`), operative slot: ``Activate KAS-1 engage``,
  ``Counteract KAS-1``, the headers ``Shoot KAS-1`` and ``Dash KAS-1``, ``Also LEG-3``.
- ``attack``: verb (Shoot, Fight, Hatchway fight), op slot, weapon slot, target slot:
  ``Shoot KAS-1 bolt pistol at LEG-2``.
- ``retaliate``: op slot, weapon slot: ``Retaliate LEG-2 with fists``.
- ``destination``: cell, sub-slot (:data:`DESTINATION_SUBSLOTS`): ``Dash KAS-1 to 8,4``.
- ``deploy``: op slot, cell, sub-slot (:data:`DEPLOY_SUBSLOTS`): ``Deploy KAS-1 at 3,4``.
- ``named_target``: verb (Ploy, Use, Act), name bucket, target slot or none, sub-slot
  (:data:`NAME_SUBSLOTS`): ``Ploy bonded``, ``Use envoy on LEG-1``, ``Act KAS-1 signal``.
- ``named``: verb (Equipment, Op, Pick up, Operate hatch), name bucket, sub-slot:
  ``Op tac flank``, ``Operate hatch KAS-1 west hatch``.
- ``named_point``: verb (Act, Place marker, Set up, a named text ending in a point), cell,
  sub-slot (:data:`POINT_SUBSLOTS`): ``Act KAS-1 smoke grenade at 8,4``, ``Set up light
  barricade at 5,3 90``, ``Ploy clearance sweep at 4,5``.
- ``allocate``: the blocks (:data:`ALLOCATION_WORDS`): ``Allocate saves crit>crit
  normal>normal`` (after the others, so the families before it keep their indices).
- then the Kill Team 2021 families (:mod:`engine.envs.codec_kt21`, ``rules/KT21.md``):
  ``kt21_word`` (``Op scouting recon``, ``Save invulnerable``, ``Block normal and normal
  with normal``...), ``kt21_operative`` (``Act LEG-3 overwatch``, ``Act KAS-1 recon``),
  ``kt21_move`` (verb, cell, sub-slot: ``Normal Move KAS-1 to 8,4``, ``Charge``, ``Fall
  Back`` and ``Dash`` listed complete at an action decision), ``kt21_attack``
  (``Overwatch LEG-2 boltgun at KAS-3``), ``kt21_named`` (``Drop marker KAS-1 a-home at
  3,4``), ``kt21_equipment_on`` (``Equipment adrenaline shot on kas-1``) and ``kt21_split``
  (``Split 3,1``). Every KT24 action keeps the index it had before they were appended: all
  are below :data:`KT24_ACTION_SPACE_SIZE` (183228). A KT21 action written like a KT24 one
  (``Activate KAS-1 engage``, ``Shoot LEG-6 boltgun at KAS-7``, ``Strike crit``, ``Deploy
  KAS-1 at 3,4``, ``Command re-roll 2``, ``Pick up KAS-1 a-home``) has the KT24 family's
  index.

The words and verbs of the families are published in :mod:`engine.envs.codec_words` (and
re-exported here).

- Operative slot: the operative's position in ``state.operatives`` (A's then B's, roster
  order; at most :data:`MAX_OPERATIVES_PER_SIDE` a side). Target slot: the same, and
  :data:`MAX_OPERATIVES` for "no target".
- Weapon slot: the position of the weapon profile in the operative's list of ranged (Shoot)
  or melee (Fight, Hatchway fight, Retaliate) profiles, :func:`engine.game.weapons.weapons_of`
  (its datacard's profiles, in card order, then those rule modules give it, such as
  grenades); at most :data:`MAX_WEAPONS`.
- Cell: a fixed :data:`GRID_X` x :data:`GRID_Y` grid over the killzone (1" cells on the 30" x
  22" killzones), ``cell = row * GRID_X + column`` (:func:`cell_of`). The sub-slot ``k`` makes
  the spatial encoding exact: the ``k``-th of the listed actions that share every other field,
  ordered by ``(z, y, x)`` and then notation. The operative and verb of a destination decision
  (1.5, 3.2) are those of the move action chosen just before (a destination decision lists
  one operative's destinations for one move verb), so they are not fields of ``destination``;
  likewise the acting operative of a rule action ``Act`` (the active operative).
- Name bucket: a stable hash (BLAKE2b) of the name's notation text modulo
  :data:`NAME_BUCKETS`, the same in every battle and process. Rule modules make names with
  parameters (``Use augment melee claws with rending and severe``, ``Ploy clearance sweep at
  4,5``, ``Use engage from cover 3``), so no registry lists them all ahead of the battle; the
  sub-slot (rank by notation among the listed actions of the same bucket) keeps two names of
  one bucket apart. A ploy or rule name that ends in `` at x,y`` is encoded with its point
  (``named_point``), so it is spatial too.

Every index an action gets depends only on the battle's context and the listed legal
actions of the state; a battle's codec never changes, and battles of the same teams, killzone
and options have equal codecs (:meth:`ActionCodec.for_state`). An action the bounds cannot
hold (a sub-slot overflow, a weapon slot past :data:`MAX_WEAPONS`...) raises
:class:`CodecError` naming what overflowed: the property tests (``tests/test_codec.py``,
``tests/test_codec_kt21.py``) play every built-in team of both rulesets and show they never
do.

Chance nodes have their own enumeration (:data:`CHANCE_SPACE_SIZE`,
:func:`chance_outcome_index`): the 36 ordered pairs of a roll-off first, then the multisets of
1 to :data:`MAX_DICE` faces.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from engine.envs.codec_chance import (
    CHANCE_SPACE_SIZE,
    MAX_DICE,
    CodecError,
    chance_outcome,
    chance_outcome_index,
    chance_probabilities,
    multiset_index,
    multisets,
)
from engine.envs.codec_kt21 import kt21_family_specs, kt21_key
from engine.envs.codec_words import (
    ALLOCATION_WORDS,
    ATTACK_VERBS,
    FIXED_WORDS,
    KT21_ATTACK_VERBS,
    KT21_MOVE_VERBS,
    KT21_NAMED_VERBS,
    KT21_OPERATIVE_VERBS,
    KT21_WORDS,
    MAX_SAVES,
    NAMED_TARGET_VERBS,
    NAMED_VERBS,
    OPERATIVE_VERBS,
    POINT_VERBS,
)
from engine.game.actions import MOVE_VERBS, Action, format_action, is_attack_header
from engine.game.state import Decision, GameState
from engine.game.weapons import weapon_name, weapons_of
from engine.game.work import Work

__all__ = [
    "ACTION_SPACE_SIZE",
    "ALLOCATION_WORDS",
    "CHANCE_SPACE_SIZE",
    "CODEC_RULESETS",
    "DEPLOY_SUBSLOTS",
    "DESTINATION_SUBSLOTS",
    "FAMILIES",
    "FIXED_WORDS",
    "GRID_X",
    "GRID_Y",
    "KT24_ACTION_SPACE_SIZE",
    "MAX_DICE",
    "MAX_OPERATIVES",
    "MAX_OPERATIVES_PER_SIDE",
    "MAX_REROLL_DICE",
    "MAX_SAVES",
    "MAX_WEAPONS",
    "NAME_BUCKETS",
    "NAME_SUBSLOTS",
    "OPERATIVE_VERBS",
    "POINT_SUBSLOTS",
    "ActionCodec",
    "CodecError",
    "Family",
    "cell_of",
    "chance_outcome",
    "chance_outcome_index",
    "chance_probabilities",
    "name_bucket",
]


CODEC_RULESETS: tuple[str, ...] = ("kt24", "kt21")
"""The rulesets whose actions the codec encodes: KT24's (the families up to ``allocate``)
and KT21's (those families and the ``kt21_*`` families appended after them,
:mod:`engine.envs.codec_kt21`)."""


# -- published bounds ----------------------------------------------------------------------

MAX_OPERATIVES_PER_SIDE = 16
"""The most operatives a side may have (the largest built-in roster has 12: Pathfinders);
a battle with more is refused by :meth:`ActionCodec.for_state`."""

MAX_OPERATIVES = 2 * MAX_OPERATIVES_PER_SIDE
"""Operative slots (A's then B's); a target slot of this value means "no target"."""

MAX_WEAPONS = 12
"""Weapon slots per operative and kind (ranged or melee profiles, those rule modules give
included; the built-in teams use at most 6)."""

GRID_X = 30
"""Columns of the destination grid over the killzone (1" wide on a 30" killzone)."""

GRID_Y = 22
"""Rows of the destination grid over the killzone (1" deep on a 22" killzone)."""

CELLS = GRID_X * GRID_Y

DESTINATION_SUBSLOTS = 8
"""Listed move destinations one cell holds at most (random playouts of the built-in teams
need 4 with the 1" grid)."""

DEPLOY_SUBSLOTS = 2
"""Listed set-up points of one operative one cell holds at most (playouts need 1)."""

POINT_SUBSLOTS = 16
"""Listed ``named_point`` actions (rule actions, markers and equipment set up at a point)
one cell holds at most (playouts need 5: several items and angles at one point)."""

NAME_BUCKETS = 64
"""Buckets of the stable name hash (:func:`name_bucket`)."""

NAME_SUBSLOTS = 8
"""Listed named actions one bucket holds at most at one decision (playouts need 5)."""

MAX_REROLL_DICE = 8
"""The most dice one ``Re-roll`` action names (an attack rolls at most 6 dice with the
built-in teams)."""

NO_TARGET = MAX_OPERATIVES


@attrs.frozen
class Family:
    """One family of the flat index: its ``name``, its fields' ``names`` and ``radices``
    (the last field is the sub-slot when ``subslot``), and its ``offset`` and ``size``."""

    name: str
    names: tuple[str, ...]
    radices: tuple[int, ...]
    subslot: bool
    offset: int = 0

    @property
    def size(self) -> int:
        """The number of indices of the family."""
        return math.prod(self.radices)


def _families() -> tuple[Family, ...]:
    n, w = MAX_OPERATIVES, MAX_WEAPONS
    specs = (
        ("fixed", ("word",), (len(FIXED_WORDS),), False),
        ("reroll", ("faces",), (len(multisets(MAX_REROLL_DICE)),), False),
        ("operative", ("verb", "op"), (len(OPERATIVE_VERBS), n), False),
        ("attack", ("verb", "op", "weapon", "target"), (len(ATTACK_VERBS), n, w, n), False),
        ("retaliate", ("op", "weapon"), (n, w), False),
        ("destination", ("cell", "k"), (CELLS, DESTINATION_SUBSLOTS), True),
        ("deploy", ("op", "cell", "k"), (n, CELLS, DEPLOY_SUBSLOTS), True),
        (
            "named_target",
            ("verb", "name", "target", "k"),
            (len(NAMED_TARGET_VERBS), NAME_BUCKETS, n + 1, NAME_SUBSLOTS),
            True,
        ),
        ("named", ("verb", "name", "k"), (len(NAMED_VERBS), NAME_BUCKETS, NAME_SUBSLOTS), True),
        ("named_point", ("verb", "cell", "k"), (len(POINT_VERBS), CELLS, POINT_SUBSLOTS), True),
        ("allocate", ("blocks",), (len(ALLOCATION_WORDS),), False),
        *kt21_family_specs(n, w, CELLS, NAME_BUCKETS, NAME_SUBSLOTS),
    )
    out, offset = [], 0
    for name, names, radices, sub in specs:
        fam = Family(name, names, radices, sub, offset)
        out.append(fam)
        offset += fam.size
    return tuple(out)


FAMILIES: tuple[Family, ...] = _families()
"""The families of the flat index, in index order (module docstring)."""

ACTION_SPACE_SIZE: int = FAMILIES[-1].offset + FAMILIES[-1].size
"""The size of the flat action space: every index is in ``range(ACTION_SPACE_SIZE)``."""

KT24_ACTION_SPACE_SIZE: int = next(f.offset for f in FAMILIES if f.name.startswith("kt21_"))
"""The end of the families up to ``allocate`` (183228): every action of a KT24 battle has an
index below it, the same as before the KT21 families were appended after them."""

_FAMILY = {f.name: i for i, f in enumerate(FAMILIES)}
_FIXED = {w: i for i, w in enumerate(FIXED_WORDS)}
_ALLOCATION = {w: i for i, w in enumerate(ALLOCATION_WORDS)}
_FIXED_VERBS = frozenset(
    (
        "Pass",
        "Done",
        "Keep",
        "Decline",
        "End activation",
        "Back",
        "Initiative",
        "Drop zone",
        "Play",
        "Strike",
        "Block",
        "Same feature",
        "Apply",
        "Cover save",
        "Accurate",
        "Command re-roll",
    )
)
_OPERATIVE = {v: i for i, v in enumerate(OPERATIVE_VERBS)}
_AT = re.compile(
    r"(?P<head>.+) at (?P<x>-?\d+(?:\.\d+)?),(?P<y>-?\d+(?:\.\d+)?)(?:,(?P<z>-?\d+(?:\.\d+)?))?"
)
_MEMO = "envs.codec"


@functools.lru_cache(maxsize=4096)
def name_bucket(text: str) -> int:
    """The name field of a named action: a stable hash of its notation text (BLAKE2b, the
    same in every process) modulo :data:`NAME_BUCKETS`."""
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % NAME_BUCKETS


def cell_of(x: float, y: float, width: float, depth: float) -> int:
    """The grid cell (``row * GRID_X + column``) of the point ``(x, y)`` (inches) on a
    killzone ``width`` x ``depth`` inches: the grid has :data:`GRID_X` x :data:`GRID_Y`
    equal cells; a point on the far edge or off the board falls in the nearest edge cell."""
    col = min(GRID_X - 1, max(0, math.floor(x * GRID_X / width)))
    row = min(GRID_Y - 1, max(0, math.floor(y * GRID_Y / depth)))
    return row * GRID_X + col


def _radix(fam: Family, fields: Sequence[int]) -> int:
    index = 0
    for value, radix in zip(fields, fam.radices, strict=True):
        index = index * radix + value
    return fam.offset + index


def _unradix(fam: Family, index: int) -> tuple[int, ...]:
    rest = index - fam.offset
    out = []
    for radix in reversed(fam.radices):
        rest, value = divmod(rest, radix)
        out.append(value)
    return tuple(reversed(out))


def _family_at(index: int) -> Family:
    for fam in FAMILIES:
        if index < fam.offset + fam.size:
            return fam
    raise AssertionError(index)  # pragma: no cover - checked by the callers


def _check_index(index: object) -> int:
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise CodecError(f"an action index must be an integer, not {type(index).__name__}")
    value = int(index)
    if not 0 <= value < ACTION_SPACE_SIZE:
        raise CodecError(f"index {value} is out of range (0 to {ACTION_SPACE_SIZE - 1})")
    return value


@attrs.frozen(slots=True)
class _Table:
    """One decision's listed actions by index (memoised on the state)."""

    action_at: dict[int, Action]
    index_of: dict[Action, int]
    indices: npt.NDArray[np.int64]


@attrs.frozen(eq=True)
class ActionCodec:
    """The action codec of one battle (module docstring), made by :meth:`for_state`.

    Attributes:
        op_ids: the operative ids by slot (``state.operatives`` order).
        width, depth: the killzone's size in inches (the grid's extent).
        card_weapons: per operative slot, the notation names of its datacard's ranged and
            melee weapon profiles (the first weapon slots).
    """

    op_ids: tuple[str, ...]
    width: float
    depth: float
    card_weapons: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    _slot: dict[str, int] = attrs.field(eq=False, repr=False)
    _lower: dict[str, int] = attrs.field(eq=False, repr=False)

    size: int = attrs.field(default=ACTION_SPACE_SIZE, init=False)
    """The size of the flat action space (:data:`ACTION_SPACE_SIZE`)."""

    chance_size: int = attrs.field(default=CHANCE_SPACE_SIZE, init=False)
    """The size of the chance outcome enumeration (:data:`CHANCE_SPACE_SIZE`)."""

    @classmethod
    def for_state(cls, state: GameState) -> ActionCodec:
        """The codec of ``state``'s battle (kept on its context: built once per battle).

        Raises:
            CodecError: a side has more than :data:`MAX_OPERATIVES_PER_SIDE` operatives.
        """
        if not isinstance(state, GameState):
            raise CodecError(f"expected a GameState, not {type(state).__name__}")
        ctx = state.ctx
        codec: ActionCodec = ctx.cached(("engine.envs.codec",), lambda: cls._build(state))
        return codec

    @classmethod
    def _build(cls, state: GameState) -> ActionCodec:
        ctx = state.ctx
        ids = tuple(ctx.ids)
        for side in ("A", "B"):
            count = sum(1 for i in ids if ctx.owner[i] == side)
            if count > MAX_OPERATIVES_PER_SIDE:
                raise CodecError(
                    f"player {side} has {count} operatives: the action codec holds at most "
                    f"{MAX_OPERATIVES_PER_SIDE} a side (MAX_OPERATIVES_PER_SIDE)"
                )

        def names(op: str, kind: str) -> tuple[str, ...]:
            return tuple(
                weapon_name(weapon, prof)
                for weapon in ctx.datacards[op].weapons
                if weapon.kind == kind
                for prof in weapon.profiles
            )

        weapons = tuple((names(op, "ranged"), names(op, "melee")) for op in ids)
        return cls(
            op_ids=ids,
            width=float(ctx.killzone.width),
            depth=float(ctx.killzone.depth),
            card_weapons=weapons,
            slot={op: i for i, op in enumerate(ids)},
            lower={op.lower(): i for i, op in enumerate(ids)},
        )

    # -- the per-decision table ----------------------------------------------------------

    def _op(self, op: str, action: Action) -> int:
        slot = self._slot.get(op)
        if slot is None:
            raise CodecError(
                f"{format_action(action)!r}: {op!r} is not an operative of this battle"
            )
        return slot

    def _weapon(self, state: GameState, action: Action, op: int, kind: str) -> int:
        names = self.card_weapons[op][0 if kind == "ranged" else 1]
        if action.weapon in names:
            slot = names.index(action.weapon)
        else:
            given = [n for n, _, _ in weapons_of(Work(state), action.op, kind)]
            if action.weapon not in given:
                raise CodecError(
                    f"{format_action(action)!r}: {action.op} has no {kind} weapon {action.weapon!r}"
                )
            slot = given.index(action.weapon)
        if slot >= MAX_WEAPONS:
            raise CodecError(
                f"{format_action(action)!r}: weapon slot {slot} is past the codec's "
                f"{MAX_WEAPONS} {kind} weapon slots (MAX_WEAPONS)"
            )
        return slot

    def _cell(self, point: tuple[float, float, float]) -> int:
        return cell_of(point[0], point[1], self.width, self.depth)

    # -- what the KT21 families need (engine.envs.codec_kt21.Slots) ----------------------

    def op_slot(self, op: str, action: Action) -> int:
        """The slot of the operative ``op`` (its id in any case: ``kas-1`` is ``KAS-1``).

        Raises:
            CodecError: ``op`` is not an operative of this battle (``action`` named).
        """
        slot = self._slot.get(op)
        if slot is None:
            slot = self._lower.get(op.lower())
        if slot is None:
            raise CodecError(
                f"{format_action(action)!r}: {op!r} is not an operative of this battle"
            )
        return slot

    def weapon_slot(self, state: GameState, action: Action, op: int, kind: str) -> int:
        """The weapon slot of ``action.weapon`` among the ``kind`` (``"ranged"`` or
        ``"melee"``) profiles of the operative in slot ``op`` (module docstring).

        Raises:
            CodecError: the operative has no such weapon, or its slot is past
                :data:`MAX_WEAPONS`.
        """
        return self._weapon(state, action, op, kind)

    def cell(self, point: tuple[float, float, float]) -> int:
        """The grid cell of ``point`` (inches) on this battle's killzone (:func:`cell_of`)."""
        return self._cell(point)

    def bucket(self, text: str) -> int:
        """The name bucket of ``text`` (:func:`name_bucket`)."""
        return name_bucket(text)

    def _key(self, state: GameState, a: Action) -> tuple[int, tuple[int, ...]]:
        """The family and the fields (without the sub-slot) of the listed action ``a``."""
        got = kt21_key(self, state, a)
        if got is not None:
            return _FAMILY[got[0]], got[1]
        v = a.verb
        if v in _FIXED_VERBS:
            word = _FIXED.get(format_action(a))
            if word is None:
                raise CodecError(f"{format_action(a)!r} is not in the codec's FIXED_WORDS")
            return _FAMILY["fixed"], (word,)
        if v == "Allocate saves":
            blocks = _ALLOCATION.get(a.text)
            if blocks is None:
                raise CodecError(
                    f"{format_action(a)!r}: the codec encodes allocations of at most "
                    f"{MAX_SAVES} saves (MAX_SAVES)"
                )
            return _FAMILY["allocate"], (blocks,)
        if v == "Re-roll":
            faces = multiset_index(MAX_REROLL_DICE).get(tuple(sorted(a.values, reverse=True)))
            if faces is None:
                raise CodecError(
                    f"{format_action(a)!r}: the codec encodes re-rolls of 1 to "
                    f"{MAX_REROLL_DICE} dice (MAX_REROLL_DICE)"
                )
            return _FAMILY["reroll"], (faces,)
        if v in MOVE_VERBS:
            if a.point is None:
                return _FAMILY["operative"], (_OPERATIVE[v], self._op(a.op, a))
            return _FAMILY["destination"], (self._cell(a.point),)
        if v in ATTACK_VERBS:
            if is_attack_header(a):
                return _FAMILY["operative"], (_OPERATIVE[v], self._op(a.op, a))
            op = self._op(a.op, a)
            kind = "ranged" if v == "Shoot" else "melee"
            return _FAMILY["attack"], (
                ATTACK_VERBS.index(v),
                op,
                self._weapon(state, a, op, kind),
                self._op(a.target, a),
            )
        if v == "Retaliate":
            op = self._op(a.op, a)
            if not a.weapon:
                return _FAMILY["operative"], (_OPERATIVE[v], op)
            return _FAMILY["retaliate"], (op, self._weapon(state, a, op, "melee"))
        if v == "Activate":
            return _FAMILY["operative"], (_OPERATIVE[f"Activate {a.text}"], self._op(a.op, a))
        if v in ("Counteract", "Guard", "Interrupt"):
            return _FAMILY["operative"], (_OPERATIVE[v], self._op(a.op, a))
        if v == "Also":
            return _FAMILY["operative"], (_OPERATIVE[v], self._op(a.target, a))
        if v == "Deploy" and a.point is not None:
            return _FAMILY["deploy"], (self._op(a.op, a), self._cell(a.point))
        if v in POINT_VERBS and a.point is not None:
            return _FAMILY["named_point"], (POINT_VERBS.index(v), self._cell(a.point))
        if v in NAMED_TARGET_VERBS or v in NAMED_VERBS:
            m = _AT.fullmatch(a.text)
            if m is not None and v in ("Ploy", "Use", "Act", "Op"):
                cell = cell_of(float(m["x"]), float(m["y"]), self.width, self.depth)
                return _FAMILY["named_point"], (POINT_VERBS.index("named text"), cell)
            bucket = name_bucket(a.text)
            if v in NAMED_VERBS:
                return _FAMILY["named"], (NAMED_VERBS.index(v), bucket)
            target = self._op(a.target, a) if a.target else NO_TARGET
            return _FAMILY["named_target"], (NAMED_TARGET_VERBS.index(v), bucket, target)
        raise CodecError(f"the action codec has no family for {format_action(a)!r}")

    def _table(self, state: GameState) -> _Table:
        got = state._memo.get(_MEMO)
        if got is not None:
            return got  # type: ignore[no-any-return]
        if not isinstance(state, GameState):
            raise CodecError(f"expected a GameState, not {type(state).__name__}")
        node = state.node
        if not isinstance(node, Decision):
            raise CodecError(f"the action codec encodes decisions; this node is {node!r}")
        groups: dict[tuple[int, tuple[int, ...]], list[Action]] = {}
        for a in state.legal_actions():
            groups.setdefault(self._key(state, a), []).append(a)
        action_at: dict[int, Action] = {}
        for (f, fields), members in groups.items():
            fam = FAMILIES[f]
            if not fam.subslot:
                if len(members) > 1:
                    raise CodecError(
                        f"{len(members)} listed actions share index {_radix(fam, fields)} "
                        f"({self.describe(_radix(fam, fields))}): "
                        + ", ".join(format_action(m) for m in members[:4])
                    )
                action_at[_radix(fam, fields)] = members[0]
                continue
            bound = fam.radices[-1]
            if len(members) > bound:
                where = self.describe(_radix(fam, (*fields, 0))).rsplit(" k ", 1)[0]
                raise CodecError(
                    f"{len(members)} listed actions fall in {where}, past the codec's {bound} "
                    f"sub-slots ({fam.name}): " + ", ".join(format_action(m) for m in members[:4])
                )
            if len(members) > 1:
                members.sort(key=_order)
            for k, a in enumerate(members):
                action_at[_radix(fam, (*fields, k))] = a
        indices = np.fromiter(sorted(action_at), dtype=np.int64, count=len(action_at))
        table = _Table(action_at, {a: i for i, a in action_at.items()}, indices)
        state._memo[_MEMO] = table
        return table

    # -- public API ----------------------------------------------------------------------

    def encode(self, state: GameState, action: Action) -> int:
        """The index of ``action``, one of the listed legal actions of the decision
        ``state``.

        Raises:
            CodecError: ``state`` is not at a decision, ``action`` is not an :class:`Action`
                or not listed there (an exact destination the rules allow but that is not a
                listed candidate is not encoded), or a published bound is exceeded.
        """
        table = self._table(state)
        if not isinstance(action, Action):
            raise CodecError(f"expected an Action, not {type(action).__name__}")
        index = table.index_of.get(action)
        if index is None:
            raise CodecError(
                f"{format_action(action)!r} is not among the {len(table.index_of)} listed legal "
                f"actions at this decision ({_node(state)})"
            )
        return index

    def decode(self, state: GameState, index: int) -> Action:
        """The listed legal action of the decision ``state`` whose index is ``index``.

        Raises:
            CodecError: ``index`` is not an integer, is out of range, or is not legal here
                (its factored fields in words and the decision named), or ``state`` is not
                at a decision. The state is unchanged.
        """
        value = _check_index(index)
        table = self._table(state)
        action = table.action_at.get(value)
        if action is None:
            raise CodecError(
                f"index {value} ({self.describe(value)}) is not legal at this decision "
                f"({_node(state)}): {len(table.action_at)} legal actions"
            )
        return action

    def mask(self, state: GameState) -> npt.NDArray[np.bool_]:
        """A new boolean array of shape ``(size,)``, True exactly at the indices of the
        listed legal actions of the decision ``state``.

        Raises:
            CodecError: ``state`` is not at a decision.
        """
        out = np.zeros(ACTION_SPACE_SIZE, dtype=np.bool_)
        out[self._table(state).indices] = True
        return out

    def legal_indices(self, state: GameState) -> npt.NDArray[np.int64]:
        """The indices of the listed legal actions of the decision ``state``, sorted (a new
        ``int64`` array).

        Raises:
            CodecError: ``state`` is not at a decision.
        """
        return self._table(state).indices.copy()

    def fields(self, index: int) -> tuple[str, tuple[int, ...]]:
        """``(family name, field values)`` of ``index`` (the factored form; the field names
        are in :data:`FAMILIES`).

        Raises:
            CodecError: ``index`` is not an integer in range.
        """
        value = _check_index(index)
        fam = _family_at(value)
        return fam.name, _unradix(fam, value)

    def describe(self, index: int) -> str:
        """The factored fields of ``index`` in words, e.g. ``"Shoot KAS-1 weapon slot 2
        target LEG-3"`` or ``"Dash/Reposition/... destination cell (12, 8) k 0"``.

        Raises:
            CodecError: ``index`` is not an integer in range.
        """
        name, f = self.fields(index)

        def op(slot: int) -> str:
            if slot == NO_TARGET:
                return "no target"
            return self.op_ids[slot] if slot < len(self.op_ids) else f"operative slot {slot}"

        def cell(c: int) -> str:
            return f"cell (column {c % GRID_X}, row {c // GRID_X})"

        if name == "fixed":
            return FIXED_WORDS[f[0]]
        if name == "allocate":
            return f"Allocate saves {ALLOCATION_WORDS[f[0]]}"
        if name == "reroll":
            return "Re-roll " + ",".join(map(str, multisets(MAX_REROLL_DICE)[f[0]]))
        if name == "operative":
            verb = OPERATIVE_VERBS[f[0]]
            return f"{verb} {op(f[1])}" + (" (header)" if verb in ("Shoot", *MOVE_VERBS) else "")
        if name == "attack":
            return f"{ATTACK_VERBS[f[0]]} {op(f[1])} weapon slot {f[2]} target {op(f[3])}"
        if name == "retaliate":
            return f"Retaliate {op(f[0])} weapon slot {f[1]}"
        if name == "destination":
            return f"move destination {cell(f[0])} k {f[1]}"
        if name == "deploy":
            return f"Deploy {op(f[0])} {cell(f[1])} k {f[2]}"
        if name == "named_target":
            return f"{NAMED_TARGET_VERBS[f[0]]} name bucket {f[1]} on {op(f[2])} k {f[3]}"
        if name == "named":
            return f"{NAMED_VERBS[f[0]]} name bucket {f[1]} k {f[2]}"
        if name == "named_point":
            return f"{POINT_VERBS[f[0]]} at {cell(f[1])} k {f[2]}"
        if name == "kt21_word":
            return KT21_WORDS[f[0]]
        if name == "kt21_operative":
            verb, word = KT21_OPERATIVE_VERBS[f[0]].split(" ", 1)
            return f"{verb} {op(f[1])} {word}"
        if name == "kt21_move":
            return f"{KT21_MOVE_VERBS[f[0]]} to {cell(f[1])} k {f[2]}"
        if name == "kt21_attack":
            return f"{KT21_ATTACK_VERBS[f[0]]} {op(f[1])} weapon slot {f[2]} target {op(f[3])}"
        if name == "kt21_named":
            return f"{KT21_NAMED_VERBS[f[0]]} name bucket {f[1]} k {f[2]}"
        if name == "kt21_equipment_on":
            return f"Equipment name bucket {f[0]} on {op(f[1])} k {f[2]}"
        return "Split " + ",".join(map(str, f))

    # -- chance nodes --------------------------------------------------------------------

    def chance_outcome_index(self, state: GameState, action: Action) -> int:
        """:func:`chance_outcome_index`."""
        return chance_outcome_index(state, action)

    def chance_outcome(self, state: GameState, index: int) -> Action:
        """:func:`chance_outcome`."""
        return chance_outcome(state, index)

    def chance_probabilities(self, state: GameState) -> list[tuple[int, float]]:
        """:func:`chance_probabilities`."""
        return chance_probabilities(state)


def _order(a: Action) -> tuple[Any, ...]:
    """The order of the actions sharing a sub-slotted key: by point ``(z, y, x)``, then by
    notation (unique per action)."""
    p = a.point
    if p is None:
        m = _AT.fullmatch(a.text) if a.text else None
        if m is not None:
            p = (float(m["x"]), float(m["y"]), float(m["z"] or 0.0))
    where = (p[2], p[1], p[0]) if p is not None else (0.0, 0.0, 0.0)
    return (*where, format_action(a))


def _node(state: GameState) -> str:
    node = state.node
    if isinstance(node, Decision):
        return f"{node.kind} of player {node.player}"
    return repr(node)
