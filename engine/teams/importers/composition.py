"""Reading a killteamjson ``composition`` text into wargear options and selection limits
(``rules/KT24.md`` 1.2, 2.2, 7).

The text is parsed, never stored. It is a bulleted list, written by hand, so indentation is
not trusted: a line is read by what it says. Patterns read:

- ``- 1 X operative`` / ``- 9 X operatives selected from the following list:`` start a group
  of that many selections (one type, or the types listed below it). The first group of one
  is the leader choice.
- A listed type, optionally ``with one of the following options:`` (one slot of whole
  weapon sets, one per following line, ``;``-separated), ``with one option from each of the
  following:`` (one slot per following line, ``,``/``or``-separated single weapons; an
  ``Or the following option:`` line adds whole-set alternatives, and the slots are then
  flattened into one slot of whole sets), ``with W and one of the following options:``
  (``W`` folded into each option), or ``with W and V`` (one option of the type on its own
  line, e.g. each Kasrkin Gunner weapon).
- Markers after a line: ``*``-style footnote markers, ``(X)``, ``(counts as two
  selections)``.
- Sentences: "Other than A and B operatives, ... each operative on this list once" (a limit of
  one per listed line: the type, or the line's option), "... only include up to N X
  operatives" (a type limit), footnotes "more than N of these operatives combined" (a
  combined limit) and "count as half a selection" (a selection weight, as ``(counts as two
  selections)`` is: ``Selection.weights``, the size counted in selections).

Everything else becomes a note for the import report; nothing is guessed silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from engine.teams.importers.options import (
    dedupe,
    flatten_slots,
    fold_fixed,
    make_option,
    match_operative,
    match_weapon,
    normalise,
    number,
    weapons_in_no_option,
)
from engine.teams.model import LoadoutOption, LoadoutSlot, Operative, Selection, format_entry

__all__ = ["Composition", "read_composition"]


@attrs.frozen(slots=True)
class Composition:
    """What a composition text says.

    Attributes:
        loadouts: operative type -> its loadout slots (types without options are absent).
        selection: size, leader types and limits read.
        notes: ``(message, kind)`` pairs for the import report (kind as in
            :class:`~engine.teams.importers.ImportIssue`).
    """

    loadouts: dict[str, tuple[LoadoutSlot, ...]]
    selection: Selection
    notes: tuple[tuple[str, str], ...]


@attrs.define
class _Member:
    """One type line of a group."""

    type: str
    line: int
    marks: list[str] = attrs.Factory(list)
    weight: float = 1.0
    inline: LoadoutOption | None = None  # the line names one option of its type
    mode: str | None = None  # "sets", "slots" or "alternatives": option lines follow
    fixed: tuple[str, ...] = ()
    sets: list[LoadoutOption] = attrs.Factory(list)
    slots: list[tuple[LoadoutOption, ...]] = attrs.Factory(list)
    alternatives: list[LoadoutOption] = attrs.Factory(list)

    @property
    def selector(self) -> str:
        return format_entry(self.type, (self.inline.name,) if self.inline else None)


@attrs.define
class _Group:
    count: int
    line: int
    listed: bool
    members: list[_Member] = attrs.Factory(list)


_COUNT = re.compile(
    r"^(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?P<what>.+?)\s+operatives?\b\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_WITH_CHOICE = re.compile(
    r"^(?:(?P<fixed>.+?)\s+and\s+)?one\s+(?P<kind>option\s+from\s+each\s+of\s+the\s+following"
    r"|of\s+the\s+following(?:\s+options?)?)$",
    re.IGNORECASE,
)
_MARK = re.compile(r"(\*+|†+|‡+)$")
_PAREN = re.compile(r"\(([^()]*)\)")
_OTHER_THAN = re.compile(
    r"^other than (?P<ex>.+?) operatives?,.*\beach operative on this list once\b", re.IGNORECASE
)
_UP_TO = re.compile(
    r"\bcan only include up to (?P<n>\w+) (?P<what>.+?) operatives?\b", re.IGNORECASE
)
_FOOTNOTE = re.compile(r"^(?P<mark>\*+|†+|‡+|\([A-Z]{1,2}\))\s*(?P<body>.+)$")
_COMBINED = re.compile(r"\bmore than (?P<n>\w+) of these operatives combined\b", re.IGNORECASE)
_HALF = re.compile(r"\bcounts? as half a selection\b", re.IGNORECASE)


def _excerpt(text: str, n: int = 40) -> str:
    """A short quote of a line for the report (the text itself is never kept)."""
    text = " ".join(text.split())
    return repr(text if len(text) <= n else text[: n - 1] + "…")


class _Reader:
    def __init__(self, operatives: Sequence[Operative]) -> None:
        self.ops = list(operatives)
        self.cards = {op.name: op for op in operatives}
        self.groups: list[_Group] = []
        self.notes: list[tuple[str, str]] = []
        self.paragraphs: list[tuple[int, str]] = []

    def note(self, message: str, kind: str = "skipped") -> None:
        self.notes.append((message, kind))

    # -- lines ------------------------------------------------------------------------------

    def weapons(self, card: Operative, pieces: list[str]) -> tuple[list[str], list[str]]:
        found: list[str] = []
        missing: list[str] = []
        for piece in pieces:
            piece = re.sub(r"^(?:or|and)\s+", "", piece.strip(), flags=re.IGNORECASE).strip()
            if not piece:
                continue
            name = match_weapon(piece, card)
            (found if name else missing).append(name or piece)
        return found, missing

    def option_line(self, m: _Member, text: str) -> str | None:
        """Read ``text`` as an option line of ``m``; the reason it is not one, or None."""
        card = self.cards[m.type]
        body = text.rstrip(":").strip()
        if m.mode == "slots" and re.fullmatch(r"or the following options?", body, re.I):
            m.mode = "alternatives"
            return None
        if m.mode == "slots":
            found, missing = self.weapons(card, re.split(r",|\s+or\s+", body))
            if missing or not found:
                return f"no weapon {missing[0] if missing else body!r} on {m.type!r}"
            m.slots.append(tuple(make_option(card, [w]) for w in found))
            return None
        found, missing = self.weapons(card, re.split(r";|,", body))
        if missing or not found:
            return f"no weapon {missing[0] if missing else body!r} on {m.type!r}"
        option = make_option(card, found)
        (m.alternatives if m.mode == "alternatives" else m.sets).append(option)
        return None

    def member_line(self, text: str, line: int) -> tuple[_Member | None, str]:
        """Read a type line: ``(member, "")`` or ``(None, why)``."""
        body = text.rstrip(":").strip()
        marks: list[str] = []
        weight = 1.0
        while True:
            body = body.strip()
            if (mk := _MARK.search(body)) is not None:
                marks.append(mk.group(1))
                body = body[: mk.start()]
                continue
            break
        for par in list(_PAREN.finditer(body)):
            inner = par.group(1).strip()
            if re.fullmatch(r"counts? as two selections?", inner, re.I):
                weight = 2.0
            elif re.fullmatch(r"[A-Z]{1,2}", inner):
                marks.append(f"({inner})")
            else:
                return None, f"parenthesis {inner!r} not understood"
        body = _PAREN.sub("", body)
        name, _, with_part = _split_with(body)
        while (mk := _MARK.search(name.strip())) is not None:
            marks.append(mk.group(1))
            name = name.strip()[: mk.start()]
        name = re.sub(r"\s+operatives?$", "", name.strip(), flags=re.I)
        type_name, why = match_operative(name, self.ops)
        if type_name is None:
            return None, why
        m = _Member(type_name, line, marks, weight)
        card = self.cards[type_name]
        with_part = with_part.strip()
        if not with_part:
            return m, ""
        choice = _WITH_CHOICE.match(with_part)
        if choice is not None:
            m.mode = "slots" if "each" in choice.group("kind").lower() else "sets"
            if choice.group("fixed"):
                found, missing = self.weapons(card, re.split(r",", choice.group("fixed")))
                if missing:
                    return None, f"no weapon {missing[0]!r} on {type_name!r}"
                m.fixed = tuple(found)
            return m, ""
        found, missing = self.weapons(card, re.split(r",|\s+and\s+", with_part))
        if missing or not found:
            return None, f"no weapon {missing[0] if missing else with_part!r} on {type_name!r}"
        m.inline = make_option(card, found)
        return m, ""

    def read(self, text: str) -> None:
        current: _Member | None = None
        for line, raw in enumerate(text.splitlines(), 1):
            s = raw.strip()
            if not s or set(s) <= {"-", "*", "_"}:
                continue
            if not s.startswith("-"):
                if not self.groups and re.search(r"\bcomposed of:?$", s, re.I):
                    continue
                self.paragraphs.append((line, s))
                current = None
                continue
            body = s.lstrip("-").strip()
            top = _COUNT.match(body)
            if top is not None:
                current = self.group_line(top, line)
                continue
            if not self.groups:
                self.note(f"line {line}: {_excerpt(body)} before any counted group: not read")
                continue
            why_option = ""
            if current is not None and current.mode is not None:
                problem = self.option_line(current, body)
                if problem is None:
                    continue
                why_option = problem
            group = self.groups[-1]
            member, why = self.member_line(body, line)
            if member is not None and group.listed:
                group.members.append(member)
                current = member
                continue
            if member is not None:
                why = (
                    f"a type line under a group of one type ({group.members[0].type!r})"
                    if (group.members)
                    else "a type line under a group that lists none"
                )
            self.note(f"line {line}: {_excerpt(body)} not read: {why_option or why}")

    def group_line(self, top: re.Match[str], line: int) -> _Member | None:
        count = number(top.group("n")) or 0
        rest = top.group("rest").strip().rstrip(":").strip()
        if re.fullmatch(r"selected from the following list", rest, re.I):
            self.groups.append(_Group(count, line, listed=True))
            return None
        group = _Group(count, line, listed=False)
        self.groups.append(group)
        markers_only = re.fullmatch(r"(?:\s*(?:\*+|†+|‡+|\([^()]*\)))*", rest) is not None
        readable = rest.lower().startswith("with ") or markers_only
        text = top.group("what") + (f" {rest}" if readable else "")
        member, why = self.member_line(text, line)
        if member is None:
            self.note(
                f"line {line}: the group of {count} {_excerpt(top.group('what'))} names no "
                f"operative type ({why}): only counted in the roster size"
            )
            return None
        if not readable:
            self.note(f"line {line}: {_excerpt(rest)} after the group's type not read")
        group.members.append(member)
        return member

    # -- result -----------------------------------------------------------------------------

    def loadouts(self) -> dict[str, tuple[LoadoutSlot, ...]]:
        by_type: dict[str, list[_Member]] = {}
        for g in self.groups:
            for m in g.members:
                by_type.setdefault(m.type, []).append(m)
        out: dict[str, tuple[LoadoutSlot, ...]] = {}
        for name, members in by_type.items():
            card = self.cards[name]
            whole: list[LoadoutOption] = []
            slots: list[tuple[LoadoutOption, ...]] = []
            for m in members:
                if m.inline is not None:
                    whole.append(m.inline)
                if m.mode is not None and not (m.sets or m.slots or m.alternatives):
                    self.note(f"line {m.line}: {name!r} announces options but none follow")
                if m.slots and (m.alternatives or whole or m.sets or slots):
                    try:
                        flat = flatten_slots(card, m.slots)
                    except ValueError as exc:
                        self.note(f"line {m.line}: {name!r}: {exc}: options not read")
                        continue
                    self.note(
                        f"line {m.line}: {name!r}: one option from each of "
                        f"{len(m.slots)} lines, or another whole set: read as one choice of "
                        f"{len(flat) + len(m.alternatives)} whole sets",
                        "recovered",
                    )
                    whole.extend(fold_fixed(card, flat, m.fixed))
                    whole.extend(fold_fixed(card, m.alternatives, m.fixed))
                elif m.slots:
                    first = fold_fixed(card, m.slots[0], m.fixed)
                    slots.extend([first, *m.slots[1:]])
                else:
                    whole.extend(fold_fixed(card, [*m.sets, *m.alternatives], m.fixed))
            if slots and whole:
                self.note(f"{name!r}: per-line options and whole sets together: options not read")
                continue
            result = tuple(LoadoutSlot(s) for s in slots) or (
                (LoadoutSlot(dedupe(whole)),) if whole else ()
            )
            if not result:
                continue
            missing = weapons_in_no_option(card, result)
            if missing:
                self.note(
                    f"{name!r}: datacard weapon(s) {', '.join(repr(w) for w in missing)} are in "
                    "none of its options: never carried",
                    "recovered",
                )
            out[name] = result
        return out

    def selection(self, loadouts: dict[str, tuple[LoadoutSlot, ...]]) -> Selection:
        groups = self.groups
        if not groups:
            self.note(
                "cannot count operatives in the composition text; using a size of 1 to 20",
                "unsupported",
            )
            leaders = tuple(op.name for op in self.ops if "LEADER" in op.keywords)
            return Selection(size=(1, 20), leader=leaders)
        lead_group = groups[0] if groups[0].count == 1 and groups[0].members else None
        if lead_group is not None:
            leader = tuple(dict.fromkeys(m.type for m in lead_group.members))
            for name in leader:
                if "LEADER" not in self.cards[name].keywords:
                    self.note(
                        f"{name!r} is the composition's leader choice but lacks the LEADER "
                        "keyword: read as the leader",
                        "recovered",
                    )
        else:
            leader = tuple(op.name for op in self.ops if "LEADER" in op.keywords)
            self.note(
                "the composition's first group is not one leader: leader types taken from the "
                "LEADER keyword",
                "recovered",
            )
        rest = [g for g in groups if g is not lead_group]
        total = sum(g.count for g in groups)
        limits: dict[str, int] = {}
        combined: list[tuple[tuple[str, ...], int]] = []
        weights: dict[str, float] = {}
        for g in rest:
            halves = [m for m in g.members if m.weight == 0.5]
            extra = len(halves) // 2
            for m in g.members:
                if m.weight != 1.0:
                    weights[m.type] = m.weight  # the size counts selections (Selection.weights)
            types = list(dict.fromkeys(m.type for m in g.members))
            if not g.listed and types:
                limits[types[0]] = min(limits.get(types[0], g.count), g.count)
            elif g.listed and len(rest) > 1 and types:
                if len(types) == 1:
                    limits[types[0]] = g.count + extra
                else:
                    combined.append((tuple(types), g.count + extra))
        self.sentences(rest, limits, combined, loadouts)
        named = {m.type for g in groups for m in g.members}
        for op in self.ops:
            if op.name not in named:
                self.note(
                    f"operative type {op.name!r} is not named in the composition text: its "
                    "selection is not limited",
                    "unsupported",
                )
        return Selection(
            size=(max(total, 1), max(total, 1)),
            leader=leader,
            limits=tuple(limits.items()),
            combined_limits=tuple(combined),
            weights=tuple(weights.items()),
        )

    def sentences(
        self,
        rest: list[_Group],
        limits: dict[str, int],
        combined: list[tuple[tuple[str, ...], int]],
        loadouts: dict[str, tuple[LoadoutSlot, ...]],
    ) -> None:
        members = [m for g in rest for m in g.members]
        used_marks: set[str] = set()
        for line, text in self.paragraphs:
            plain = text.replace("*", "").strip() if _footnote(text) is None else text
            if (m := _OTHER_THAN.search(plain)) is not None:
                excepted: set[str] = set()
                for piece in re.split(r",|\s+and\s+", m.group("ex")):
                    if not piece.strip():
                        continue
                    name, why = match_operative(piece.strip(), self.ops)
                    by_keyword = [
                        op.name
                        for op in self.ops
                        if normalise(piece) in (normalise(k) for k in op.keywords[1:])
                    ]
                    if name is not None:
                        excepted.add(name)
                    elif by_keyword:  # a keyword several types share: all of them
                        excepted.update(by_keyword)
                    else:
                        self.note(f"line {line}: exception {why}: not applied")
                for g in rest:
                    if not g.listed:
                        continue
                    for mem in g.members:
                        if mem.type not in excepted:
                            sel = mem.selector
                            limits[sel] = min(limits.get(sel, 1), 1)
                continue
            if (m := _UP_TO.search(plain)) is not None:
                n = number(m.group("n"))
                name, why = match_operative(m.group("what"), self.ops)
                if n is None or name is None:
                    self.note(f"line {line}: {_excerpt(text)} not read: {why or 'count'}")
                else:
                    limits[name] = min(limits.get(name, n), n)
                continue
            if (f := _footnote(text)) is not None:
                mark, body = f.group("mark"), f.group("body")
                marked = [mem for mem in members if mark in mem.marks]
                used_marks.add(mark)
                if not marked:
                    self.note(f"line {line}: footnote {mark!r} marks no operative: not read")
                elif (c := _COMBINED.search(body)) is not None and number(c.group("n")):
                    combined.append((_collapse(marked, loadouts), number(c.group("n")) or 0))
                elif _HALF.search(body):
                    pass  # read by _apply_weights before the sizes
                else:
                    self.note(f"line {line}: footnote {mark!r} {_excerpt(body)} not read")
                continue
            self.note(f"line {line}: {_excerpt(text)} is not a selection rule the importer reads")
        for mem in members:
            for mark in mem.marks:
                if mark not in used_marks:
                    self.note(
                        f"line {mem.line}: marker {mark!r} on {mem.type!r} has no footnote: ignored"
                    )


def _footnote(text: str) -> re.Match[str] | None:
    """The footnote a paragraph is (``*You cannot...``, ``(X) These...``), or ``None``
    (a ``**bold**`` heading is not one)."""
    if re.match(r"^\*\*[^*]+\*\*", text):
        return None
    return _FOOTNOTE.match(text)


def _split_with(body: str) -> tuple[str, str, str]:
    parts = re.split(r"(\s+with\s+)", body, maxsplit=1, flags=re.I)
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    return body, "", ""


def _collapse(
    marked: list[_Member], loadouts: dict[str, tuple[LoadoutSlot, ...]]
) -> tuple[str, ...]:
    """Selectors for marked lines, one per type when its lines cover all its options."""
    out: list[str] = []
    for m in marked:
        slots = loadouts.get(m.type, ())
        if m.inline is not None and len(slots) == 1:
            covered = {x.inline.name.casefold() for x in marked if x.type == m.type and x.inline}
            if covered >= {o.name.casefold() for o in slots[0].options}:
                out.append(m.type)
                continue
        out.append(m.selector)
    return tuple(dict.fromkeys(out))


def read_composition(text: str, operatives: Sequence[Operative]) -> Composition:
    """Read a killteamjson ``composition`` text against the team's datacards.

    Args:
        text: the composition prose (read, never kept).
        operatives: the imported datacards (their weapons name the options).

    Returns:
        The loadout slots per type, the selection rules read, and notes for the report.
    """
    reader = _Reader(operatives)
    reader.read(text)
    loadouts = reader.loadouts()
    _apply_weights(reader)
    selection = reader.selection(loadouts)
    return Composition(loadouts, selection, tuple(reader.notes))


def _apply_weights(reader: _Reader) -> None:
    """Footnotes saying the marked operatives "count as half a selection" set their weight."""
    for _, text in reader.paragraphs:
        f = _footnote(text)
        if f is not None and _HALF.search(f.group("body")):
            for g in reader.groups:
                for m in g.members:
                    if f.group("mark") in m.marks:
                        m.weight = 0.5
