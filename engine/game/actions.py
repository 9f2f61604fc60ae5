"""Actions and chance outcomes, with their canonical text notation.

Every input the engine takes is an :class:`Action`: a player's decision (``Reposition KAS-3
to 12.5,8``, ``Shoot KAS-1 hot-shot lasgun at LEG-2``, ``Strike crit``, ``Pass``...) or a
chance outcome (``roll 6,4,1``). :func:`format_action` gives the canonical notation and
:func:`parse_action` reads it back; ``parse_action(format_action(a)) == a`` for every action
the engine lists.

Notation (case-insensitive on input; distances in inches; ``z`` is the elevation and is left
out when 0):

==========================  ==================================================================
``roll 6,4,1``              chance outcome: die faces (a multiset in descending order, or an
                            ordered pair for a roll-off: player A's die first)
``Initiative A``            the roll-off winner gives initiative to player A (or B)
``Drop zone A``             the initiative player picks a drop zone
``Play +1`` / ``Play -2``   play an initiative card (+x or -x to your own result, 1.4)
``Play re-roll``            play the Re-roll initiative card
``Pass``                    pass (initiative cards, Gambit step, counteract, On Guard)
``Deploy KAS-1 at 3,4.5``   set up an operative (``at x,y`` or ``at x,y,z``)
``Activate KAS-1 engage``   activate an operative with an Engage (or Conceal) order
``Counteract KAS-1``        counteract with an expended Engage operative
``End activation``          end the active operative's activation early
``Reposition KAS-1 to 8,4`` also ``Dash``, ``Fall Back``, ``Charge`` (and KT21's ``Normal Move``)
``Reposition KAS-1``        a move action's header: the action chosen, its destination
                            decided next (``destination``); also ``Dash``... (1.5, 3.2)
``Back``                    at a destination decision that has none: choose another action
``Shoot KAS-1 bolt pistol at LEG-2``
``Shoot KAS-1``             the Shoot action's header: the action chosen, its weapon and
                            target decided next (``attack_target``, 1.5, 3.2, 5.1)
``Fight KAS-1 chainsword at LEG-2``
``Retaliate LEG-2 with power fist``
``Pick up KAS-1 centre``    pick up the objective marker called ``centre``
``Place marker KAS-1 at 8,4``  put down the marker it carries (one carrying several names
                            it: ``Place marker KAS-1 a intelligence 2 at 8,4``)
``Drop marker KAS-1 at 8,4``  KT21's free drop of the marker it carries (same shape)
``Operate hatch KAS-1 west hatch``
``Hatchway fight KAS-1 chainsword at LEG-2``
``Guard KAS-1``
``Interrupt KAS-1``         an On Guard operative interrupts (then chooses its Shoot/Fight)
``Also LEG-3`` / ``Done``   add a Torrent secondary target / finish choosing
``Re-roll 1,1,3`` / ``Keep``  weapon re-rolls (die faces to re-roll) or keep the dice
``Command re-roll 2`` / ``Decline``  re-roll one die showing 2 (1CP) or not
``Strike crit`` / ``Strike normal``
``Block normal with crit``  also ``Block crit with crit``, ``Block normal with normal``;
                            ``Block nothing with crit`` when the opponent has nothing left;
                            KT21 "a parry discards two": ``Block normal and normal with
                            normal``, ``Block crit and normal with crit`` (``rules/KT21.md``
                            16.16)
``Same feature cover``      the defender takes cover (or ``obscured``, or with several such
                            features ``both``) from terrain that gives both (4.5)
``Accurate 1``              the attacker retains 1 die (0 up to x) unrolled with Accurate x
                            (in a fight each side, the attacker first, before the rolls)
``Apply Punishing``         also ``Apply Rending``, ``Apply Severe``; ``Decline`` not to
``Cover save normal``       the defender's cover save: ``normal``, improved cover as
                            ``critical`` or ``two normals`` (4.7; a rule may also allow
                            ``normal and critical``), or ``none`` (declined)
``Overwatch KAS-1 lasgun at LEG-2``
                            KT21: an Overwatch (``rules/KT21.md`` 3.5)
``Move KT18-1 to 8,4``      KT18: a normal move (``rules/KT18.md`` 3.4; ``Move KT18-1`` its
                            header, the destination decided next); also ``Retreat`` (3.12)
``Advance KT18-1``          KT18: declare an Advance (3.7); also ``Ready KT18-1`` (3.8),
                            ``Nerve test KT18-1`` (the model taking its Nerve test next, 8.4)
``Charge KT18-1 at KT18-2``  KT18: declare a charge at a first target (3.10)
``Overwatch KT18-2``        KT18: the target KT18-2 reacts with Overwatch (3.11)
``Save invulnerable``       KT21: the defender uses its Invulnerable Save (or ``Save
                            normal``, its Save; ``rules/KT21.md`` 10.3)
``Split 3,1``               KT21 Fusillade: attack dice on the target, then on each other
                            target listed (``rules/KT21.md`` 12); KT18: the attacks on
                            each target (``Split 12,3``: 1-99 each, ``rules/KT18.md`` 5.5)
``Allocate saves crit>crit normal>normal``
                            the defender's allocation of its saves (5.1 step 5): each
                            block ``crit>crit``, ``crit>normal``, ``normals>crit`` (two
                            normal saves) or ``normal>normal``, as often as made, in that
                            order (any order is read); ``none`` when no save can block
                            (:mod:`engine.game.allocation`)
``Use <rule> on LEG-3``     use a team rule that gives its player a choice, on an operative
                            (``Use siphon life on LEG-3``; ``Decline`` not to use it)
``Use <rule>``              use such a rule that names no operative yet (``Use siphon life``)
``Ploy <name>``             use a ploy (``Ploy <name> on KAS-3`` when used on an operative)
``Act KAS-1 <action>``      a rule's action (mission, equipment, unique): ``Act KAS-1 ammo
                            resupply``, ``Act KAS-1 smoke grenade at 8,4``, ``Act KAS-1 stun
                            grenade on LEG-2``
``Equipment <name>``        select a universal equipment option (``Equipment done`` to stop)
``Set up <item> at 5,3 90``  set up an equipment item at x,y[,z] turned 90 degrees
``Op <choice>``             a mission choice: ``Op tac flank`` (a tac op), ``Op primary
                            crit`` (the primary op), and the picks some ops add
==========================  ==================================================================

Operative ids are ASCII letters and digits, a hyphen and a number (``KAS-1``; the engine
derives them from team ids, which are ASCII ``[a-z][a-z0-9_]*``); coordinates are decimal
numbers without exponent, of magnitude at most :data:`MAX_COORDINATE` inches, rounded to
0.001"; a notation is at most :data:`MAX_NOTATION_CHARS` characters. Weapon, marker,
hatchway and rule names may be any text.

Errors: :class:`InvalidActionError` for text that is not an action (the only exception
:func:`parse_action` raises, for any input);
:class:`IllegalActionError` (raised by the engine) for a well-formed action the rules forbid,
naming the rule; :class:`AmbiguousActionError` when a name matches several things.
"""

from __future__ import annotations

import re

import attrs

from engine.errors import KillTeamError
from engine.inputs import excerpt

__all__ = [
    "ALLOCATION_BLOCKS",
    "HEADER_ATTACKS",
    "MAX_COORDINATE",
    "MAX_NOTATION_CHARS",
    "MOVE_VERBS",
    "Action",
    "AmbiguousActionError",
    "IllegalActionError",
    "InvalidActionError",
    "allocation_text",
    "format_action",
    "is_attack_header",
    "parse_action",
]

MOVE_VERBS = ("Reposition", "Dash", "Fall Back", "Charge")

HEADER_ATTACKS = ("Shoot",)
"""The attack actions listed at an action decision as their header (``Shoot KAS-1``, no
weapon nor target: :func:`is_attack_header`), the weapon and target decided next. Fight is
listed complete (its listing is a control-range check and a few melee weapons)."""

MAX_NOTATION_CHARS = 1000
"""The longest action notation :func:`parse_action` reads (the longest the engine writes,
a weapon or rule name with its operative ids, is far below it)."""

MAX_COORDINATE = 10_000.0
"""The largest magnitude of a coordinate in the notation, in inches (killzones are 30" x 22";
a point off the board is well-formed and the engine rejects it as illegal). Every coordinate
within it, rounded to 0.001", formats back to the same number."""


class InvalidActionError(KillTeamError, ValueError):
    """Text that is not an action in the notation (module docstring)."""


class IllegalActionError(KillTeamError, ValueError):
    """A well-formed action the rules forbid in this state; the message names the rule
    (section of ``rules/KT24.md``)."""


class AmbiguousActionError(KillTeamError, ValueError):
    """An action whose names match several operatives, weapons or markers."""


ALLOCATION_BLOCKS = ("crit>crit", "crit>normal", "normals>crit", "normal>normal")
"""The blocks of an ``Allocate saves`` action in their canonical order: a critical save on a
critical success, a critical save on a normal one, two normal saves on a critical one, a
normal save on a normal one (5.1 step 5)."""


def allocation_text(text: str) -> str:
    """The canonical text of an ``Allocate saves`` action's blocks: the blocks of ``text``
    (:data:`ALLOCATION_BLOCKS`, separated by spaces, any case and order) in canonical order,
    or ``"none"``.

    Raises:
        InvalidActionError: a word that is not a block (or ``none`` with blocks)."""
    words = text.lower().split()
    if words == ["none"] or not words:
        return "none"
    bad = [w for w in words if w not in ALLOCATION_BLOCKS]
    if bad:
        raise InvalidActionError(
            f"not an allocation of saves: {excerpt(bad[0], 20)} (blocks are "
            + ", ".join(ALLOCATION_BLOCKS)
            + ", or none)"
        )
    return " ".join(sorted(words, key=ALLOCATION_BLOCKS.index))


def _num(v: float) -> str:
    """A distance for notation: at most 3 decimals, no trailing zeros (``12.5``, ``8``)."""
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@attrs.frozen(slots=True, order=True)
class Action:
    """One input to the engine (a decision or a chance outcome).

    Attributes:
        verb: the action's kind as written in the notation (``"Shoot"``, ``"roll"``...).
        op: the acting operative's id (``"KAS-1"``), or ``""``.
        weapon: a weapon name (lower case, profile in parentheses), or ``""``.
        target: a target operative's id, or ``""`` (a Shoot naming neither weapon nor
            target is its header: ``Shoot KAS-1``, :func:`is_attack_header`).
        point: ``(x, y, z)`` in inches for moves, deployment and markers, else ``None``
            (a move action without one is its header: ``Reposition KAS-1``, its destination
            decided next).
        values: die faces for ``roll``, ``Re-roll`` and ``Command re-roll``; for
            ``Accurate`` the number of dice retained unrolled.
        text: any other word (a player, an order, a marker or hatchway name, a card,
            ``"crit"``/``"normal"`` for strikes and blocks).
    """

    verb: str
    op: str = ""
    weapon: str = ""
    target: str = ""
    point: tuple[float, float, float] | None = None
    values: tuple[int, ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return format_action(self)


def _pt(p: tuple[float, float, float] | None) -> str:
    if p is None:
        raise InvalidActionError("this action needs a point (x, y, z)")
    x, y, z = p
    return f"{_num(x)},{_num(y)}" + (f",{_num(z)}" if z else "")


def is_attack_header(a: Action) -> bool:
    """``a`` is the header of an attack action (:data:`HEADER_ATTACKS`): ``Shoot KAS-1``,
    naming neither weapon nor target (its weapon and target are decided next, 5.1)."""
    return a.verb in HEADER_ATTACKS and not a.weapon and not a.target


def format_action(a: Action) -> str:
    """The canonical notation of ``a`` (module docstring)."""
    v = a.verb
    if v == "roll":
        return "roll " + ",".join(str(d) for d in a.values)
    if v in ("Pass", "Done", "Keep", "Decline", "End activation", "Back"):
        return v
    if v in ("Initiative", "Drop zone"):
        return f"{v} {a.text}"
    if v == "Play":
        return f"Play {a.text}"
    if v == "Deploy":
        return f"Deploy {a.op} at {_pt(a.point)}"
    if v == "Activate":
        return f"Activate {a.op} {a.text}"
    if v in ("Counteract", "Guard", "Interrupt"):
        return f"{v} {a.op}"
    if v == "Charge" and a.target:  # KT18's charge declaration (rules/KT18.md 3.10)
        return f"Charge {a.op} at {a.target}"
    if v in MOVE_VERBS or v in _KT_MOVES:  # KT21's Normal Move, KT18's Move and Retreat
        return f"{v} {a.op}" if a.point is None else f"{v} {a.op} to {_pt(a.point)}"
    if v in ("Advance", "Ready", "Nerve test"):  # KT18 (rules/KT18.md 3.7, 3.8, 8.4)
        return f"{v} {a.op}"
    if v == "Overwatch":
        if not a.weapon and not a.target:  # KT18's Reaction (rules/KT18.md 3.11)
            return f"Overwatch {a.op}"
        return f"Overwatch {a.op} {a.weapon} at {a.target}"
    if v == "Save":
        return f"Save {a.text}"
    if v == "Split":
        return "Split " + ",".join(str(d) for d in a.values)
    if v in ("Shoot", "Fight", "Hatchway fight"):
        if is_attack_header(a):
            return f"{v} {a.op}"
        return f"{v} {a.op} {a.weapon} at {a.target}"
    if v == "Retaliate":
        return f"Retaliate {a.op} with {a.weapon}" if a.weapon else f"Retaliate {a.op}"
    if v == "Pick up":
        return f"Pick up {a.op} {a.text}"
    if v in ("Place marker", "Drop marker"):
        name = f" {a.text}" if a.text else ""
        return f"{v} {a.op}{name} at {_pt(a.point)}"
    if v == "Operate hatch":
        return f"Operate hatch {a.op} {a.text}"
    if v == "Also":
        return f"Also {a.target}"
    if v in ("Re-roll", "Command re-roll"):
        return f"{v} " + ",".join(str(d) for d in a.values)
    if v == "Strike":
        return f"Strike {a.text}"
    if v == "Block":
        return f"Block {a.text}"
    if v in ("Same feature", "Apply", "Cover save"):
        return f"{v} {a.text}"
    if v == "Allocate saves":
        return f"Allocate saves {allocation_text(a.text)}"
    if v == "Accurate":
        if len(a.values) != 1:
            raise InvalidActionError("Accurate needs exactly one value (dice retained)")
        return f"Accurate {a.values[0]}"
    if v == "Use":
        return f"Use {a.text} on {a.target}" if a.target else f"Use {a.text}"
    if v == "Ploy":
        return f"Ploy {a.text} on {a.target}" if a.target else f"Ploy {a.text}"
    if v == "Act":
        tail = f" at {_pt(a.point)}" if a.point is not None else ""
        tail += f" on {a.target}" if a.target else ""
        return f"Act {a.op} {a.text}{tail}"
    if v == "Equipment":
        return f"Equipment {a.text}"
    if v == "Op":
        return f"Op {a.text}"
    if v == "Set up":
        angle = a.values[0] if a.values else 0
        return f"Set up {a.text} at {_pt(a.point)} {angle}"
    raise InvalidActionError(f"unknown action verb {v!r}")


_KT_MOVES = ("Normal Move", "Move", "Retreat")
"""Move verbs of other editions (KT21's Normal Move, ``rules/KT21.md`` 6.1; KT18's Move and
Retreat, ``rules/KT18.md`` 3.4, 3.12): written like KT24's (``to x,y``)."""

_OP = r"(?P<op>[A-Za-z0-9]+-\d+)"
_TGT = r"(?P<target>[A-Za-z0-9]+-\d+)"
_NUMRE = r"-?\d+(?:\.\d+)?"
_POINT = rf"(?P<point>{_NUMRE}\s*,\s*{_NUMRE}(?:\s*,\s*{_NUMRE})?)"
_DICE = r"(?P<values>[1-6](?:\s*,\s*[1-6])*)"

# ASCII: operative ids are ASCII letters and digits (``KAS-1``), numbers ASCII digits; names
# (weapons, markers, rules) may be any text.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (verb, re.compile(pat, re.IGNORECASE | re.ASCII))
    for verb, pat in (
        ("roll", rf"roll\s+{_DICE}"),
        ("Pass", r"pass"),
        ("Done", r"done"),
        ("Keep", r"keep"),
        ("Decline", r"decline"),
        ("End activation", r"end\s+activation"),
        ("Back", r"back"),
        ("Initiative", r"initiative\s+(?P<text>[AB])"),
        ("Drop zone", r"drop\s+zone\s+(?P<text>[AB])"),
        ("Play", r"play\s+(?P<text>re-roll|[+-][123])"),
        ("Deploy", rf"deploy\s+{_OP}\s+at\s+{_POINT}"),
        ("Activate", rf"activate\s+{_OP}\s+(?P<text>engage|conceal)"),
        ("Counteract", rf"counteract\s+{_OP}"),
        ("Guard", rf"guard\s+{_OP}"),
        ("Interrupt", rf"interrupt\s+{_OP}"),
        ("Reposition", rf"reposition\s+{_OP}(?:\s+to\s+{_POINT})?"),
        ("Dash", rf"dash\s+{_OP}(?:\s+to\s+{_POINT})?"),
        ("Fall Back", rf"fall\s+back\s+{_OP}(?:\s+to\s+{_POINT})?"),
        ("Charge", rf"charge\s+{_OP}(?:\s+to\s+{_POINT}|\s+at\s+{_TGT})?"),
        ("Normal Move", rf"normal\s+move\s+{_OP}(?:\s+to\s+{_POINT})?"),
        ("Move", rf"move\s+{_OP}(?:\s+to\s+{_POINT})?"),
        ("Retreat", rf"retreat\s+{_OP}(?:\s+to\s+{_POINT})?"),
        ("Advance", rf"advance\s+{_OP}"),
        ("Ready", rf"ready\s+{_OP}"),
        ("Nerve test", rf"nerve\s+test\s+{_OP}"),
        ("Shoot", rf"shoot\s+{_OP}(?:\s+(?P<weapon>.+?)\s+at\s+{_TGT})?"),
        ("Hatchway fight", rf"hatchway\s+fight\s+{_OP}\s+(?P<weapon>.+?)\s+at\s+{_TGT}"),
        ("Fight", rf"fight\s+{_OP}\s+(?P<weapon>.+?)\s+at\s+{_TGT}"),
        ("Overwatch", rf"overwatch\s+{_OP}(?:\s+(?P<weapon>.+?)\s+at\s+{_TGT})?"),
        ("Save", r"save\s+(?P<text>invulnerable|normal)"),
        ("Split", r"split\s+(?P<values>\d{1,2}(?:\s*,\s*\d{1,2})*)"),
        ("Retaliate", rf"retaliate\s+{_OP}(?:\s+with\s+(?P<weapon>.+))?"),
        ("Pick up", rf"pick\s+up\s+{_OP}\s+(?P<text>.+)"),
        ("Place marker", rf"place\s+marker\s+{_OP}(?:\s+(?P<text>.+?))?\s+at\s+{_POINT}"),
        ("Drop marker", rf"drop\s+marker\s+{_OP}(?:\s+(?P<text>.+?))?\s+at\s+{_POINT}"),
        ("Operate hatch", rf"operate\s+hatch\s+{_OP}\s+(?P<text>.+)"),
        ("Also", rf"also\s+{_TGT}"),
        ("Command re-roll", rf"command\s+re-?roll\s+{_DICE}"),
        ("Re-roll", rf"re-?roll\s+{_DICE}"),
        ("Strike", r"strike\s+(?P<text>crit|normal)"),
        (
            "Block",
            r"block\s+(?P<text>(?:crit|normal|nothing)(?:\s+and\s+(?:crit|normal))?"
            r"\s+with\s+(?:crit|normal))",
        ),
        ("Same feature", r"same\s+feature\s+(?P<text>cover|obscured|both)"),
        ("Accurate", r"accurate\s+(?P<count>\d)"),
        ("Apply", r"apply\s+(?P<text>punishing|rending|severe)"),
        (
            "Cover save",
            r"cover\s+save\s+(?P<text>normal\s+and\s+critical|normal|critical|two\s+normals|none)",
        ),
        (
            "Allocate saves",
            r"allocate\s+saves\s+(?P<text>none|(?:crit>crit|crit>normal|normals>crit|"
            r"normal>normal)(?:\s+(?:crit>crit|crit>normal|normals>crit|normal>normal))*)",
        ),
        ("Use", rf"use\s+(?P<text>.+?)\s+on\s+{_TGT}"),
        ("Use", r"use\s+(?P<text>.+)"),
        ("Ploy", rf"ploy\s+(?P<text>.+?)\s+on\s+{_TGT}"),
        ("Ploy", r"ploy\s+(?P<text>.+)"),
        ("Act", rf"act\s+{_OP}\s+(?P<text>.+?)(?:\s+at\s+{_POINT})?(?:\s+on\s+{_TGT})?"),
        ("Equipment", r"equipment\s+(?P<text>.+)"),
        ("Op", r"op\s+(?P<text>.+)"),
        ("Set up", rf"set\s+up\s+(?P<text>.+?)\s+at\s+{_POINT}\s+(?P<angle>\d{{1,3}})"),
    )
)


def _coordinates(text: str, source: str) -> tuple[float, float, float]:
    nums = []
    for t in text.split(","):
        value = float(t)
        if not abs(value) <= MAX_COORDINATE:  # also catches the infinity of 400 digits
            raise InvalidActionError(
                f"{excerpt(source)}: the coordinate {excerpt(t.strip(), 20)} is out of range "
                f"(at most {MAX_COORDINATE:g} inches in magnitude)"
            )
        nums.append(round(value, 3) + 0.0)  # + 0.0: no negative zero
    return (nums[0], nums[1], nums[2] if len(nums) == 3 else 0.0)


_FREE_TEXT_VERBS = (
    "Pick up",
    "Place marker",
    "Drop marker",
    "Operate hatch",
    "Use",
    "Ploy",
    "Act",
    "Equipment",
    "Set up",
    "Op",
)


def _check_ascii(clean: str, verb: str, m: re.Match[str]) -> None:
    """Outside weapon, marker, hatchway and rule names, the notation is ASCII: a character
    that only lower-cases to ASCII (the Kelvin sign to ``k``) must not make an operative id
    or a keyword."""
    free = [m.span("weapon")] if "weapon" in m.re.groupindex else []
    if verb in _FREE_TEXT_VERBS:
        free.append(m.span("text"))
    back: list[int] = []  # the index in ``clean`` of each character of the lowered text
    for k, ch in enumerate(clean):
        back.extend([k] * len(ch.lower()))
    for i in range(len(back)):
        if any(a <= i < b for a, b in free):
            continue
        ch = clean[back[i]]
        if not ch.isascii():
            raise InvalidActionError(
                f"not an action: {excerpt(clean)}: {ch!r} is not ASCII (operative ids are "
                "ASCII letters and digits, like 'KAS-1')"
            )


def parse_action(text: str) -> Action:
    """Parse the notation (module docstring) into an :class:`Action`.

    Names are normalised: verbs and orders to their canonical case, operative ids to upper
    case, weapon, marker and hatchway names to lower case with single spaces; numbers are
    rounded to 0.001". Operative ids are ASCII letters and digits, a hyphen and a number
    (``KAS-1``, ``AB2-10``); coordinates are decimal numbers (no exponent) of magnitude at
    most :data:`MAX_COORDINATE`. For every text this accepts, ``parse_action(format_action(a))
    == a`` where ``a = parse_action(text)``.

    Raises:
        InvalidActionError: when ``text`` is not an action (not text, longer than
            :data:`MAX_NOTATION_CHARS`, no pattern matches, or a coordinate out of range),
            quoting at most a short excerpt of it.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action must be text, not {type(text).__name__}")
    if len(text) > MAX_NOTATION_CHARS:
        raise InvalidActionError(
            f"not an action: {excerpt(text)} is longer than {MAX_NOTATION_CHARS} characters"
        )
    # Lower case first: every name is normalised to lower (ids to upper) case anyway, and
    # matching the lowered text makes the canonical notation parse back to the same action.
    clean = " ".join(text.split())
    lowered = clean.lower()
    for verb, pat in _PATTERNS:
        m = pat.fullmatch(lowered)
        if m is None:
            continue
        if not clean.isascii():
            _check_ascii(clean, verb, m)
        g = m.groupdict()
        point = _coordinates(g["point"], text) if g.get("point") else None
        values = tuple(int(t) for t in g["values"].split(",")) if g.get("values") else ()
        if g.get("count"):
            values = (int(g["count"]),)
        if g.get("angle"):
            values = (int(g["angle"]),)
        word = (g.get("text") or "").strip()
        if verb in ("Initiative", "Drop zone"):
            word = word.upper()
        elif verb == "Play":
            word = word.lower()
        elif verb in (
            "Activate",
            "Strike",
            "Block",
            "Pick up",
            "Place marker",
            "Drop marker",
            "Operate hatch",
            "Same feature",
            "Cover save",
            "Save",
            "Use",
            "Ploy",
            "Act",
            "Equipment",
            "Set up",
            "Op",
        ):
            word = " ".join(word.lower().split())
        elif verb == "Apply":
            word = word.title()
        elif verb == "Allocate saves":
            word = allocation_text(word)
        return Action(
            verb=verb,
            op=(g.get("op") or "").upper(),
            weapon=" ".join((g.get("weapon") or "").lower().split()),
            target=(g.get("target") or "").upper(),
            point=point,
            values=values,
            text=word,
        )
    raise InvalidActionError(
        f"not an action: {excerpt(text)} (expected e.g. 'Reposition KAS-1 to 12.5,8', "
        "'Shoot KAS-1 bolt pistol at LEG-2', 'Pass', 'roll 6,4,1'; see engine.game.actions)"
    )
