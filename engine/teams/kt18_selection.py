"""KT18 kill team selection (``rules/KT18.md`` 1.12, with 1.6 and 1.7: the 2018 game system
file's Battle-forged constraints): the roster notation with a model's specialism and the
selection rules checked for the rosters of a ``"kt18"`` team.

**Notation.** A KT18 roster entry is the KT24 entry (:func:`engine.teams.roster.parse_entry`:
``"Type"``, ``"Type [Option + Option]"``) optionally followed by the model's specialism in
parentheses::

    "Ork Boy"                                  a model with no specialism
    "Boss Nob (Boyz) [Slugga + Choppa] (Leader)" the kill team's Leader
    "Ork Boy Gunner [Big Shoota] (Heavy)"      a Heavy specialist

The last parenthesised group is a specialism only when it names one (:data:`SPECIALISMS` or
one a datasheet of the team lists); otherwise it is part of the type's name (``"Boss Nob
(Boyz)"``). :class:`~engine.teams.roster.Roster` keeps one specialism (or ``None``) per model
(``Roster.specialism_of(i)``) and writes it back in ``Roster.entries``.

**Rules** (``rules/KT18.md`` 1.12; :func:`kt18_roster_problems`; each message starts with the
rule's name):

- ``specialism``: a model may be chosen only as a specialism its datasheet lists (1.6 part 6;
  ``Leader`` also when the datasheet says it may lead); at most one model of each specialism.
- ``Max``: at most Max models of a datasheet (1.7; Max ``-`` is no limit); a type the
  team's ``selection.limits`` caps is reported by that limit instead (``limit:``; the
  imported teams write Max there too).
- ``leader``: a roster that chooses specialisms (a Battle-forged kill team) has exactly one
  Leader.
- ``specialists``: at most :data:`MAX_OTHER_SPECIALISTS` specialists besides the Leader.
- the kill team's size is the team's ``selection.size`` (the imported teams: 3 to 20 models,
  the game system's ``Model`` count), checked with every roster (``size:``).

A roster that chooses no specialism at all is an open-play kill team (the reading chosen in
``rules/KT18.md`` 1.12; Covert War takes any models, 9.1, 9.3): only ``Max`` and the size
apply to it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from engine.teams.datacards import Operative


class TeamLike(Protocol):
    """What these checks read of a team (:class:`engine.teams.roster.Team`, which imports
    this module): its datacards and its selection rules."""

    @property
    def operatives(self) -> tuple[Operative, ...]:
        """The team's datacards."""

    @property
    def selection(self) -> Any:
        """Its :class:`~engine.teams.roster.Selection`."""

    def operative(self, name: str) -> Operative:
        """The datacard of type ``name`` (``KeyError`` when it has none)."""


__all__ = [
    "LEADER",
    "MAX_EACH_SPECIALISM",
    "MAX_OTHER_SPECIALISTS",
    "SPECIALISMS",
    "format_specialism",
    "kt18_roster_problems",
    "may_take",
    "split_specialism",
    "team_specialisms",
]

LEADER = "Leader"
"""The specialism of the kill team's leader."""

SPECIALISMS = (
    "Leader",
    "Combat",
    "Comms",
    "Demolitions",
    "Heavy",
    "Medic",
    "Scout",
    "Sniper",
    "Veteran",
    "Zealot",
)
"""The specialisms of the 2018 core game (the game system's ``Specialist: X``
categories; ``rules/KT18.md`` 1.12)."""

MAX_OTHER_SPECIALISTS = 3
"""The most specialists a Battle-forged kill team holds besides its Leader (the game
system's ``Specialist`` category, at most 3; ``rules/KT18.md`` 1.12)."""

MAX_EACH_SPECIALISM = 1
"""How many models of one specialism a kill team may hold (each specialism entry of the game
system, at most 1 per kill team; ``rules/KT18.md`` 1.12)."""

_LAST_GROUP = re.compile(r"(.*?\S)\s*\(([^()]{1,60})\)")


def team_specialisms(team: TeamLike) -> tuple[str, ...]:
    """The specialisms a roster of ``team`` may name: :data:`SPECIALISMS` and every one its
    datasheets list (a faction's own, in datasheet order)."""
    names = list(SPECIALISMS)
    for op in team.operatives:
        if op.kt18 is not None:
            names += [s for s in op.kt18.specialists if s not in names]
    return tuple(names)


def split_specialism(entry: str, known: Iterable[str]) -> tuple[str, str | None]:
    """Split the specialism off a KT18 roster entry (module docstring).

    Args:
        entry: a roster entry, e.g. ``"Ork Boy Gunner [Big Shoota] (Heavy)"``.
        known: the specialism names that may end an entry (case-insensitive; the canonical
            spelling is returned).

    Returns:
        ``(the entry without the specialism, specialism or None)``:
        ``("Ork Boy Gunner [Big Shoota]", "Heavy")``; ``("Boss Nob (Boyz)", None)`` when
        ``Boyz`` names no specialism.
    """
    text = entry.strip()
    m = _LAST_GROUP.fullmatch(text)
    if m is None:
        return text, None
    wanted = " ".join(m.group(2).split()).casefold()
    for name in known:
        if name.casefold() == wanted:
            return m.group(1).strip(), name
    return text, None


def format_specialism(entry: str, specialism: str | None) -> str:
    """``entry`` with ``specialism`` appended (inverse of :func:`split_specialism`)."""
    return f"{entry} ({specialism})" if specialism else entry


def may_take(team: TeamLike, operative_type: str, specialism: str) -> bool:
    """Whether a model of ``operative_type`` of ``team`` may be chosen as ``specialism``
    (its datasheet's specialists, ``rules/KT18.md`` 1.6; ``Leader`` also when it may lead).

    Raises:
        KeyError: ``team`` has no such operative type.
    """
    card = team.operative(operative_type).kt18
    if card is None:
        return False
    if specialism == LEADER and card.leader:
        return True
    return specialism in card.specialists


def kt18_roster_problems(
    team: TeamLike, operatives: Sequence[str], specialisms: Sequence[str | None]
) -> list[str]:
    """The KT18 selection rules a roster breaks (module docstring), one message per broken
    rule, each starting with the rule's name; empty when legal.

    Args:
        team: a ``"kt18"`` team.
        operatives: the roster's operative types, one per model (unknown types are left to
            :meth:`engine.teams.roster.Roster.validate`).
        specialisms: one specialism or ``None`` per model, or empty (no model has one).
    """
    problems: list[str] = []
    if specialisms and len(specialisms) != len(operatives):
        return [f"specialisms: {len(specialisms)} given for {len(operatives)} models"]
    cards = {op.name: op for op in team.operatives}
    capped = {selector for selector, _ in team.selection.limits}
    for name, have in Counter(operatives).items():
        if name in capped:  # the team's own limit on the type reports it ("limit:")
            continue
        card = cards.get(name)
        most = card.kt18.maximum if card is not None and card.kt18 is not None else 0
        if most and have > most:
            problems.append(
                f"Max: at most {most} {name!r} in a kill team (selected {have}; rules/KT18.md 1.7)"
            )
    chosen = [(i, n, s) for i, (n, s) in enumerate(zip(operatives, specialisms, strict=False))]
    chosen = [(i, n, s) for i, n, s in chosen if s]
    if not chosen:
        return problems
    for i, name, spec in chosen:
        card = cards.get(name)
        if card is None or card.kt18 is None or spec is None:
            continue
        if not may_take(team, name, spec):
            listed = list(card.kt18.specialists)
            if card.kt18.leader and LEADER not in listed:
                listed.insert(0, LEADER)
            can = ", ".join(listed) or "none"
            problems.append(
                f"specialism: model {i + 1} ({name!r}) may not be chosen as {spec} "
                f"(its datasheet's specialists: {can}; rules/KT18.md 1.6)"
            )
    counts = Counter(s for _, _, s in chosen)
    leaders = counts.get(LEADER, 0)
    if leaders != 1:
        problems.append(
            f"leader: a kill team whose models take specialisms has exactly one {LEADER} "
            f"(selected {leaders}; rules/KT18.md 1.12)"
        )
    others = sum(c for s, c in counts.items() if s != LEADER)
    if others > MAX_OTHER_SPECIALISTS:
        problems.append(
            f"specialists: at most {MAX_OTHER_SPECIALISTS} specialists besides the {LEADER} "
            f"(selected {others}; rules/KT18.md 1.12)"
        )
    for spec, have in counts.items():
        if spec != LEADER and have > MAX_EACH_SPECIALISM:
            problems.append(
                f"specialism: at most {MAX_EACH_SPECIALISM} {spec} specialist in a kill team "
                f"(selected {have}; rules/KT18.md 1.12)"
            )
    return problems
