"""The tolerant weapon-rule parser of the importers: a datacard's weapon-rule string
(``Range 8", Hot, Lethal 5+, Piercing 1``) read despite the slips real datasets hold
(missing commas, misspelt names, missing inch marks, odd spaces), each repair reported.
"""

from __future__ import annotations

import html
import re

from engine.dice import rules as _rules
from engine.dice.rules import (
    TeamRule,
    WeaponRule,
    WeaponRules,
    parse_weapon_rules,
    split_rule_tokens,
)
from engine.errors import WeaponRuleError

__all__ = ["edit_distance", "parse_weapon_rules_tolerant"]


def _known_rule_names() -> tuple[str, ...]:
    """Names of every universal weapon rule the dice core knows (longest first)."""
    names: set[str] = set()
    for attr in _rules.__all__:
        obj = getattr(_rules, attr)
        if (
            isinstance(obj, type)
            and issubclass(obj, WeaponRule)
            and obj is not TeamRule
            and isinstance(getattr(obj, "name", None), str)
        ):
            names.add(obj.name)
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


_RULE_NAMES = _known_rule_names()
_DISTANCE_RULES = ("Range", "Blast", "Torrent")
_ODD_SPACES = re.compile(r"[\u00a0\u2007\u2009\u202f]")
_ODD_INCHES = re.compile(r"[\u201c\u201d\u2033]|''")
_NAME_PART = re.compile(r'^(\d+(?:\.\d+)?"?\s*)?([A-Za-z](?:[A-Za-z ]*[A-Za-z])?)(.*)$')


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance between two short strings."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _closest_rule_name(word: str) -> str | None:
    """The one known rule name within a small edit distance of ``word`` (1 for names of up
    to five letters, 2 for longer), or ``None`` if there is none or it is ambiguous."""
    low = word.lower()
    best: list[tuple[int, str]] = []
    for name in _RULE_NAMES:
        limit = 1 if len(name) <= 5 else 2
        d = edit_distance(low, name.lower())
        if d <= limit:
            best.append((d, name))
    if not best:
        return None
    best.sort()
    if len(best) > 1 and best[0][0] == best[1][0]:
        return None
    return best[0][1]


def _strict(piece: str) -> WeaponRule | None:
    """The one rule ``piece`` parses to strictly, or ``None``."""
    try:
        parsed = parse_weapon_rules(piece)
    except WeaponRuleError:
        return None
    return parsed.rules[0] if len(parsed) == 1 else None


def _fix_piece(piece: str) -> tuple[WeaponRule, list[str]] | None:
    """Parse one rule, recovering a missing space, a misspelt name or a missing inch mark.

    Returns the rule and one message per recovery, or ``None`` if it still does not parse.
    """
    rule = _strict(piece)
    if rule is not None:
        return rule, []
    fixed = piece
    messages: list[str] = []
    spaced = re.sub(
        r"^(\d+(?:\.\d+)?\"?\s*)?([A-Za-z](?:[A-Za-z ]*[A-Za-z])?)(\d)", r"\1\2 \3", fixed
    )
    if spaced != fixed:
        messages.append(f"missing space: recovered {fixed!r} as {spaced!r}")
        fixed = spaced
    m = _NAME_PART.match(fixed)
    if m is not None and not fixed.endswith("*"):
        prefix, name, rest = m.group(1) or "", m.group(2), m.group(3)
        if name.lower() not in (n.lower() for n in _RULE_NAMES):
            close = _closest_rule_name(name)
            if close is not None:
                respelt = f"{prefix}{close}{rest}"
                messages.append(f"misspelt rule name: recovered {fixed!r} as {respelt!r}")
                fixed = respelt
    dist = re.fullmatch(r"(?i)(range|blast|torrent)\s+(\d+(?:\.\d+)?)", fixed)
    dev = re.fullmatch(r"(?i)(\d+(?:\.\d+)?)\s+(devastating\s+\d+)", fixed)
    if dist is not None:
        inched = f'{dist.group(1)} {dist.group(2)}"'
    elif dev is not None:
        inched = f'{dev.group(1)}" {dev.group(2)}'
    else:
        inched = fixed
    if inched != fixed:
        messages.append(f"missing inch mark: recovered {fixed!r} as {inched!r}")
        fixed = inched
    rule = _strict(fixed)
    if rule is None:
        return None
    return rule, messages


def _segment(token: str) -> tuple[list[WeaponRule], list[str]] | None:
    """Parse one comma-separated token that may hold several rules with the commas missing.

    Splits at white space into the fewest pieces that each parse (after per-piece
    recoveries); returns the rules and messages, or ``None`` if no split parses.
    """
    words = token.split()
    n = len(words)
    # best[i]: the best parse of words[:i] as (pieces, messages, rules).
    best: list[tuple[int, list[str], list[WeaponRule]] | None] = [None] * (n + 1)
    best[0] = (0, [], [])
    for end in range(1, n + 1):
        for start in range(end):
            before = best[start]
            if before is None:
                continue
            got = _fix_piece(" ".join(words[start:end]))
            if got is None:
                continue
            cand = (before[0] + 1, before[1] + got[1], [*before[2], got[0]])
            current = best[end]
            if current is None or (cand[0], len(cand[1])) < (current[0], len(current[1])):
                best[end] = cand
    final = best[n]
    if final is None:
        return None
    pieces, messages, found = final
    if pieces > 1:
        joined = ", ".join(r.format() for r in found)
        messages = [f"missing comma: recovered {token!r} as {joined!r}", *messages]
    return found, messages


def _tolerant(text: str) -> tuple[list[WeaponRule], list[str], list[WeaponRuleError]]:
    """Parse ``text`` rule by rule: the rules that parse (after recovery), one message per
    recovery, and one error per comma-separated token that could not be recovered."""
    messages: list[str] = []
    clean = text
    if "&" in clean and html.unescape(clean) != clean:
        unescaped = html.unescape(clean)
        messages.append(f"HTML entity: recovered {clean!r} as {unescaped!r}")
        clean = unescaped
    if _ODD_SPACES.search(clean):
        spaced = _ODD_SPACES.sub(" ", clean)
        messages.append(f"non-breaking space: recovered {clean!r} as {spaced!r}")
        clean = spaced
    if _ODD_INCHES.search(clean):
        inched = _ODD_INCHES.sub('"', clean)
        messages.append(f"typographic inch mark: recovered {clean!r} as {inched!r}")
        clean = inched
    tidy = re.sub(r"\s*,\s*", ", ", " ".join(clean.split())).strip()
    if tidy != clean.strip():
        messages.append(f"stray whitespace: recovered {clean!r} as {tidy!r}")
    if tidy in ("", "-"):
        return [], messages, []
    found: list[WeaponRule] = []
    errors: list[WeaponRuleError] = []
    tokens = split_rule_tokens(tidy)
    for token in tokens:
        token = token.strip()
        if not token:
            messages.append(f"empty rule: dropped a stray comma in {tidy!r}")
            continue
        got = _segment(token)
        if got is None:
            try:
                parse_weapon_rules(token)
            except WeaponRuleError as exc:
                bad = exc.token or token
                errors.append(
                    WeaponRuleError(
                        f"weapon rule {bad!r} in {text!r} could not be recovered: {exc}",
                        token=bad,
                        text=text,
                    )
                )
            else:  # pragma: no cover - _segment tries the whole token first
                raise AssertionError(token)
            continue
        found.extend(got[0])
        messages.extend(got[1])
    return found, messages, errors


def parse_weapon_rules_tolerant(text: str) -> tuple[WeaponRules, list[str]]:
    """Parse a BattleScribe ``WR`` string, recovering the dataset's known malformations.

    The strict :func:`engine.dice.rules.parse_weapon_rules` is tried on each rule; what it
    rejects is recovered where the intent is unambiguous:

    - missing commas: ``Lethal 5+ Piercing 1`` -> ``Lethal 5+, Piercing 1`` (split into the
      fewest pieces that each parse);
    - misspelt names within a small edit distance of one rule: ``Rang 8"`` -> ``Range 8"``;
    - a missing space: ``Piercing1`` -> ``Piercing 1``;
    - a missing inch mark on Range/Blast/Torrent or the distance of ``x" Devastating y``:
      ``Blast 1`` -> ``Blast 1"``, ``1 Devastating 2`` -> ``1" Devastating 2``;
    - non-breaking spaces, HTML entities (``&quot;``), typographic inch marks, stray white
      space and stray commas.

    Args:
        text: the ``WR`` characteristic, e.g. ``'Range 8", Hot, Lethal 5+'``; ``-`` or ``""``
            mean no rules.

    Returns:
        ``(rules, messages)``: the rules in the order written and one human-readable
        message per recovery (empty when the string was well formed).

    Raises:
        WeaponRuleError: for the first token that still does not parse; its ``token`` names
            it and ``text`` is the whole string.
    """
    found, messages, errors = _tolerant(text)
    if errors:
        raise errors[0]
    return WeaponRules(tuple(found)), messages
