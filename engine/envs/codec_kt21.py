"""The action codec's KT21 families (``rules/KT21.md``): the families appended after
``allocate`` in :data:`engine.envs.codec.FAMILIES`, so that every index of the KT24 families
is unchanged.

A KT21 battle lists most of its actions in notations the KT24 families already encode
(``Activate KAS-1 engage``, ``Shoot LEG-6 boltgun at KAS-7``, ``Deploy KAS-1 at 3,4``,
``Command re-roll 2``, ``Strike crit``, ``Set up barricade at 5,3 90``...). The ones they do
not encode, or encode only by a name hash, have their own families here (:func:`kt21_key`):

- ``kt21_word``: word (:data:`~engine.envs.codec_words.KT21_WORDS`): the set-up choices
  (``Op defender a``, ``Op order engage``, ``Op scouting recon``, ``Op tac security``), the
  defender's ``Save invulnerable`` / ``Save normal`` (10.3), the two-dice parries
  (``Block normal and normal with normal``, 11).
- ``kt21_operative``: verb (``Act overwatch``, ``Act recon``), operative slot: ``Act LEG-3
  overwatch`` (the Overwatch turn, 3.5), ``Act KAS-1 recon`` (1.2 step 9).
- ``kt21_move``: verb (Normal Move, Dash, Fall Back, Charge), cell, sub-slot
  (:data:`KT21_MOVE_SUBSLOTS`): ``Normal Move KAS-1 to 8,4`` (6.1). KT21 lists each move
  complete at an action decision (no header, no ``destination`` decision); the operative is
  the one whose action it is (every listed move of one decision names the same operative),
  so it is not a field. A move listed at a ``destination`` decision (KT24's header and
  destination) keeps the ``destination`` family.
- ``kt21_attack``: verb (Overwatch), operative slot, weapon slot, target slot: ``Overwatch
  LEG-2 boltgun at KAS-3`` (3.5).
- ``kt21_named``: verb (Drop marker), name bucket (of the marker's name, or of the empty text
  when the action names none), sub-slot: ``Drop marker KAS-1 a-home at 3,4``.
- ``kt21_equipment_on``: item name bucket, operative slot, sub-slot
  (:data:`EQUIPMENT_SUBSLOTS`): ``Equipment adrenaline shot on kas-1`` (an item assigned to
  an operative, 1.2 step 6).
- ``kt21_split``: the dice given to the primary target and to each other target, in order
  (at most :data:`MAX_SPLIT_TARGETS` targets of at most :data:`MAX_SPLIT_DICE` dice; missing
  targets are 0): ``Split 3,1`` (Fusillade, 12).
"""

from __future__ import annotations

import re
from typing import Protocol

from engine.envs.codec_chance import CodecError
from engine.envs.codec_words import (
    KT21_ATTACK_VERBS,
    KT21_MOVE_VERBS,
    KT21_NAMED_VERBS,
    KT21_OPERATIVE_VERBS,
    KT21_WORDS,
)
from engine.game.actions import Action, format_action
from engine.game.state import Decision, GameState

__all__ = [
    "EQUIPMENT_SUBSLOTS",
    "KT21_MOVE_SUBSLOTS",
    "MAX_SPLIT_DICE",
    "MAX_SPLIT_TARGETS",
    "Slots",
    "kt21_family_specs",
    "kt21_key",
]

KT21_MOVE_SUBSLOTS = 8
"""Listed KT21 moves of one verb one cell holds at most (random playouts of the built-in
KT21 teams need 3 with the 1" grid)."""

EQUIPMENT_SUBSLOTS = 2
"""Listed ``Equipment <item> on <operative>`` actions of one name bucket and operative one
decision holds at most (one item is assigned at a time: playouts need 1)."""

MAX_SPLIT_TARGETS = 4
"""The most targets a Fusillade split names (the primary target and three others)."""

MAX_SPLIT_DICE = 8
"""The most attack dice a Fusillade split gives one target."""

_WORD = {w: i for i, w in enumerate(KT21_WORDS)}
_WORD_VERBS = frozenset(w.split(" ", 1)[0] for w in KT21_WORDS)
_OPERATIVE = {v.removeprefix("Act "): i for i, v in enumerate(KT21_OPERATIVE_VERBS)}
_VERBS = _WORD_VERBS | {
    "Act",
    "Equipment",
    "Split",
    *KT21_MOVE_VERBS,
    *KT21_ATTACK_VERBS,
    *KT21_NAMED_VERBS,
}
_ON = re.compile(r"(?P<item>.+) on (?P<op>[a-z0-9]+-\d+)")

Spec = tuple[str, tuple[str, ...], tuple[int, ...], bool]


def kt21_family_specs(
    operatives: int, weapons: int, cells: int, buckets: int, name_subslots: int
) -> tuple[Spec, ...]:
    """The KT21 families as ``(name, field names, radices, sub-slotted)``, in index order
    (module docstring), for the codec's published bounds: ``operatives`` slots, ``weapons``
    slots, ``cells`` grid cells, ``buckets`` name buckets, ``name_subslots`` sub-slots per
    name bucket."""
    n, w = operatives, weapons
    split = (MAX_SPLIT_DICE + 1,) * MAX_SPLIT_TARGETS
    return (
        ("kt21_word", ("word",), (len(KT21_WORDS),), False),
        ("kt21_operative", ("verb", "op"), (len(KT21_OPERATIVE_VERBS), n), False),
        (
            "kt21_move",
            ("verb", "cell", "k"),
            (len(KT21_MOVE_VERBS), cells, KT21_MOVE_SUBSLOTS),
            True,
        ),
        (
            "kt21_attack",
            ("verb", "op", "weapon", "target"),
            (len(KT21_ATTACK_VERBS), n, w, n),
            False,
        ),
        (
            "kt21_named",
            ("verb", "name", "k"),
            (len(KT21_NAMED_VERBS), buckets, name_subslots),
            True,
        ),
        ("kt21_equipment_on", ("name", "op", "k"), (buckets, n, EQUIPMENT_SUBSLOTS), True),
        ("kt21_split", tuple(f"dice{k}" for k in range(MAX_SPLIT_TARGETS)), split, False),
    )


class Slots(Protocol):
    """What :func:`kt21_key` needs of the battle's codec (:class:`engine.envs.codec.
    ActionCodec`): operative, weapon and cell slots and the name hash."""

    def op_slot(self, op: str, action: Action) -> int:
        """The slot of operative ``op`` (any case); raises :class:`CodecError` if unknown."""
        ...  # pragma: no cover

    def weapon_slot(self, state: GameState, action: Action, op: int, kind: str) -> int:
        """The weapon slot of ``action.weapon`` of kind ``"ranged"``/``"melee"``."""
        ...  # pragma: no cover

    def cell(self, point: tuple[float, float, float]) -> int:
        """The grid cell of ``point`` (inches)."""
        ...  # pragma: no cover

    def bucket(self, text: str) -> int:
        """The name bucket of ``text``."""
        ...  # pragma: no cover


def _split(a: Action) -> tuple[int, ...]:
    values = a.values
    if len(values) > MAX_SPLIT_TARGETS or any(not 0 <= d <= MAX_SPLIT_DICE for d in values):
        raise CodecError(
            f"{format_action(a)!r}: the codec encodes splits over at most {MAX_SPLIT_TARGETS} "
            f"targets of 0 to {MAX_SPLIT_DICE} dice each (MAX_SPLIT_TARGETS, MAX_SPLIT_DICE)"
        )
    return (*values, *(0,) * (MAX_SPLIT_TARGETS - len(values)))


def kt21_key(codec: Slots, state: GameState, a: Action) -> tuple[str, tuple[int, ...]] | None:
    """The KT21 family and fields (without the sub-slot) of the listed action ``a`` of the
    decision ``state`` (module docstring), or ``None`` when ``a`` belongs to a KT24 family.

    Raises:
        CodecError: an operative of another battle, a weapon the operative lacks, a split
            past the published bounds.
    """
    v = a.verb
    if v not in _VERBS:
        return None
    if v in _WORD_VERBS:
        word = _WORD.get(format_action(a))
        return None if word is None else ("kt21_word", (word,))
    if v == "Equipment":
        if (m := _ON.fullmatch(a.text)) is None:
            return None
        return "kt21_equipment_on", (codec.bucket(m["item"]), codec.op_slot(m["op"], a))
    if v == "Act":
        verb = _OPERATIVE.get(a.text)
        if verb is None or not a.op or a.target or a.point is not None:
            return None
        return "kt21_operative", (verb, codec.op_slot(a.op, a))
    if v in KT21_MOVE_VERBS:
        node = state.node
        if a.point is None or (isinstance(node, Decision) and node.kind == "destination"):
            return None
        return "kt21_move", (KT21_MOVE_VERBS.index(v), codec.cell(a.point))
    if v in KT21_ATTACK_VERBS:
        op = codec.op_slot(a.op, a)
        weapon = codec.weapon_slot(state, a, op, "ranged")
        return "kt21_attack", (KT21_ATTACK_VERBS.index(v), op, weapon, codec.op_slot(a.target, a))
    if v in KT21_NAMED_VERBS:
        return "kt21_named", (KT21_NAMED_VERBS.index(v), codec.bucket(a.text))
    return "kt21_split", _split(a)
