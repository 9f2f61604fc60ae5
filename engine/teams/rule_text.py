"""The identity of a printed team rule's text, without keeping the text (DESIGN.md "Rulesets":
a rule printed by several teams is one module found by the rule's identity).

Two teams print the same rule when the kind and the name match (a rule id's ``kind/slug``)
and the texts match once normalised. Looking at the printed texts of the community datasets
(Astartes, Medic!, Concealed Position...), the same rule differs between teams only in:

- the team's keyword (``"friendly LEGIONARY operative"`` / ``"friendly ANGEL OF DEATH
  operative"``): the team keyword (:func:`team_keyword`) is replaced by a placeholder;
- case, spacing and line breaks, typographic quotes (``’`` / ``'``, ``”`` / ``"``) and the
  datasets' markup (``**STRATEGIC GAMBIT**``), list bullets and other punctuation: all
  ignored; digits and the inch mark are kept (``6"`` and ``3"`` differ);
- negative contractions (Kasrkin's Medic! says "isn't incapacitated", the Pathfinders' "is
  not incapacitated"): ``n't`` reads ``not`` (``can't`` ``cannot``, ``won't`` ``will not``).

Anything else (another weapon list, an extra AP cost, another distance) is another rule:
the Astartes of the Angels of Death (bolt sniper rifle and heavy bolter cost 1 more AP) is
not the Legionaries' one. The project keeps only a digest of the normalised text
(:func:`rule_text_key`: 16 hex digits, then ``@`` when the text names the team keyword),
never the text itself (the datasets' prose is not ours to ship).
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from engine.names import slug

if TYPE_CHECKING:
    from engine.teams.roster import Team

__all__ = [
    "KEYWORD_MARK",
    "key_problem",
    "names_keyword",
    "normalise_rule_text",
    "rule_ref",
    "rule_text_key",
    "team_keyword",
]

KEYWORD_MARK = "@team"
"""What the team keyword becomes in a normalised text."""

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2033": '"'})
_OTHER = re.compile(r"[^a-z0-9@\"]+")
_CANNOT = re.compile(r"\bcan'?t\b")
_WONT = re.compile(r"\bwon'?t\b")
_NOT = re.compile(r"n't\b")
_KEY = re.compile(r"[0-9a-f]{16}@?")


def team_keyword(team: Team) -> str:
    """The team's own keyword: the first keyword of its first operative type that every
    operative type has (``"LEGIONARY"``, ``"ANGEL OF DEATH"``), else ``""``."""
    if not team.operatives:
        return ""
    for keyword in team.operatives[0].keywords:
        if all(keyword in op.keywords for op in team.operatives):
            return keyword
    return ""


def normalise_rule_text(text: str, keyword: str = "") -> str:
    """``text`` normalised as the module docstring says: lower case, quotes unified,
    contractions read out, the team ``keyword`` (any case, whole words) replaced by
    :data:`KEYWORD_MARK`, every run of other characters than letters, digits, ``@`` and
    ``"`` one space."""
    text = text.translate(_QUOTES).casefold()
    text = _CANNOT.sub("cannot", _WONT.sub("will not", text))
    text = _NOT.sub(" not", text)
    if keyword.strip():
        words = r"\s+".join(re.escape(w) for w in keyword.casefold().split())
        text = re.sub(rf"(?<![a-z0-9]){words}(?![a-z0-9])", f" {KEYWORD_MARK} ", text)
    return _OTHER.sub(" ", text).strip()


def rule_text_key(text: str, keyword: str = "") -> str:
    """The digest of :func:`normalise_rule_text` (16 hex digits of its SHA-256), followed by
    ``@`` when the text names the team keyword."""
    norm = normalise_rule_text(text, keyword)
    digest = hashlib.sha256(norm.encode("utf-8")).hexdigest()[:16]
    return digest + ("@" if KEYWORD_MARK in norm else "")


def names_keyword(key: str) -> bool:
    """Whether the text of the :func:`rule_text_key` ``key`` names the team keyword."""
    return key.endswith("@")


def rule_ref(kind: str, name: str) -> str:
    """The part of a team rule id after the team (``"faction_rule/astartes"``): the kind and
    the :func:`~engine.names.slug` of the name."""
    return f"{kind}/{slug(name)}"


def key_problem(ref: object, key: object) -> str | None:
    """What is wrong with one entry of ``Team.rule_texts`` (a ``kind/slug`` reference and a
    :func:`rule_text_key`), or ``None``."""
    if not isinstance(ref, str) or not re.fullmatch(r"[a-z_]+/[a-z0-9_]+", ref) or len(ref) > 200:
        return f"rule reference {ref!r:.60} is not 'kind/name_slug'"
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        return f"rule {ref}: text key {key!r:.60} is not 16 hex digits (then '@' or nothing)"
    return None
