"""Wargear options shared by the importers: naming an option from its weapons and matching
weapon or operative names written in a dataset to a datacard (``rules/KT24.md`` 1.2, 2.2).

Option naming convention (the whole project uses it): an option is named after its weapons'
datacard names, ranged weapons first, each kind in datacard order, joined by ``"; "``
(``"Flamer; Gun Butt"``). A roster entry names one option per slot
(:func:`engine.teams.model.parse_entry`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from engine.teams.model import MAX_LIST_ITEMS, LoadoutOption, LoadoutSlot, Operative

__all__ = [
    "dedupe",
    "flatten_slots",
    "fold_fixed",
    "make_option",
    "match_operative",
    "match_weapon",
    "normalise",
    "number",
    "weapons_in_no_option",
]


def normalise(text: str) -> str:
    """``text`` for name comparison: case-folded, hyphens and typographic apostrophes
    unified, white space collapsed (``"Demo-Trooper"`` -> ``"demo trooper"``)."""
    text = text.replace("\u2019", "'").replace("\u00a0", " ").replace("-", " ")
    return " ".join(text.casefold().split())


def match_weapon(text: str, card: Operative) -> str | None:
    """The datacard name of the weapon ``text`` names on ``card``, or ``None``.

    Matches case-insensitively, ignoring hyphens and spacing, then tolerating one plural
    ``s`` either way (``"fist"``/``"Fists"``). Two weapons of one name (a ranged and a melee
    Aeonstave) are one name here: an option naming it gives both.
    """
    want = normalise(text)
    if not want:
        return None
    names = list(dict.fromkeys(w.name for w in card.weapons))
    for candidates in (
        [want],
        [want + "s", want.removesuffix("s")] if want.endswith("s") else [want + "s"],
    ):
        found = [n for n in names if normalise(n) in candidates]
        if len(found) == 1:
            return found[0]
    return None


def match_operative(text: str, operatives: Sequence[Operative]) -> tuple[str | None, str]:
    """The operative type a composition text names (``"COMBAT MEDIC"``, ``"PATHFINDER
    SHAS'UI"``, ``"DEMO-TROOPER"``), as ``(name, "")``, or ``(None, why)``.

    Tried in order, the first step with exactly one match wins: the type's name; the same
    words in any order; one of its keywords; its name without its faction keyword.
    """
    want = normalise(text)
    words = sorted(want.split())

    def faction_stripped(op: Operative) -> list[str]:
        name = normalise(op.name).split()
        faction = normalise(op.keywords[0]).split() if op.keywords else []
        rest = [w for w in name if w not in faction]
        return sorted(rest)

    def by_name(op: Operative) -> bool:
        return normalise(op.name) == want

    def by_words(op: Operative) -> bool:
        return sorted(normalise(op.name).split()) == words

    def by_keyword(op: Operative) -> bool:
        return any(normalise(k) == want for k in op.keywords[1:])

    def by_name_without_faction(op: Operative) -> bool:
        return faction_stripped(op) == words

    steps = (by_name, by_words, by_keyword, by_name_without_faction)
    for step in steps:
        found = [op.name for op in operatives if step(op)]
        if len(found) == 1:
            return found[0], ""
        if len(found) > 1:
            return None, f"{text!r} could name {', '.join(repr(f) for f in found)}"
    return None, f"{text!r} names no operative type"


def make_option(card: Operative, weapons: Iterable[str]) -> LoadoutOption:
    """The option giving ``weapons`` (datacard names) on ``card``, named by the convention
    (ranged first, datacard order, joined by ``"; "``)."""
    wanted = {normalise(w) for w in weapons}
    order: list[str] = []
    for kind in ("ranged", "melee"):
        for w in card.weapons:
            if w.kind == kind and normalise(w.name) in wanted and w.name not in order:
                order.append(w.name)
    return LoadoutOption("; ".join(order), tuple(order))


def fold_fixed(
    card: Operative, slot: Sequence[LoadoutOption], fixed: Iterable[str]
) -> tuple[LoadoutOption, ...]:
    """Each option of ``slot`` with the ``fixed`` weapons added (an operative that always
    carries them, e.g. "with an auxiliary grenade launcher and one of the following")."""
    fixed = tuple(fixed)
    return tuple(make_option(card, (*o.weapons, *fixed)) for o in slot)


def flatten_slots(
    card: Operative, slots: Sequence[Sequence[LoadoutOption]]
) -> tuple[LoadoutOption, ...]:
    """One option per combination of one option from each slot (whole sets), in slot order.

    Raises:
        ValueError: more than :data:`~engine.teams.model.MAX_LIST_ITEMS` combinations (the
            importers report it and do not read those options).
    """
    count = 1
    for slot in slots:
        count *= len(slot)
        if count > MAX_LIST_ITEMS:
            raise ValueError(
                f"{len(slots)} slots give more than {MAX_LIST_ITEMS} combinations of options"
            )
    return tuple(
        make_option(card, [w for o in combo for w in o.weapons])
        for combo in itertools.product(*slots)
    )


def dedupe(options: Iterable[LoadoutOption]) -> tuple[LoadoutOption, ...]:
    """``options`` without repeats of a name (first kept)."""
    seen: dict[str, LoadoutOption] = {}
    for o in options:
        seen.setdefault(o.name.casefold(), o)
    return tuple(seen.values())


def weapons_in_no_option(card: Operative, slots: Sequence[LoadoutSlot]) -> list[str]:
    """Datacard weapons that no option of ``slots`` gives (never carried), in card order."""
    given = {normalise(w) for s in slots for o in s.options for w in o.weapons}
    return list(dict.fromkeys(w.name for w in card.weapons if normalise(w.name) not in given))


_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip


def number(word: str) -> int | None:
    """``"4"`` or ``"four"`` as 4; ``None`` for anything else."""
    w = word.strip().lower()
    if re.fullmatch(r"\d+", w):
        return int(w)
    return _NUMBERS.get(w)
