"""Mission markers: the markers ops put on the killzone for operatives to pick up, carry and
put down (``rules/KT24.md`` 3.2 Pick Up Marker and Place Marker, 4.8 markers and control,
8.4 tac ops): the Retrieval and Intelligence markers, the Banner.

One representation and one notation for all of them:

- A mission marker is a :class:`~engine.game.tokens.Token` on the state (``w.tokens``) of a
  kind an op declares with a :class:`MarkerKind`, owned by the player whose op put it there.
  It is 20 mm across (4.8: every marker but an objective marker) and lies at ``x, y,
  elevation``; while an operative carries it, its ``carrier`` names that operative and it is
  where the carrier is (the core moves it, :func:`engine.game.universal.carry_along`).
- Its name is ``"<owner> <kind>"`` for a kind with one marker per player (``"A banner"``),
  else ``"<owner> <kind> <n>"`` numbered in the order the owner's markers of that kind were
  put down (``"B intelligence 2"``). Notation uses it in lower case.
- **Control** (4.8) is that of every marker but an objective marker
  (:func:`engine.rules.equipment.markers.token_controller`): the greater total APL of the
  operatives within whose control range it lies; a carried marker is contested and
  controlled by its carrier alone.
- **Pick Up Marker** and **Place Marker** are the universal actions (3.2,
  :mod:`engine.game.universal`): ``Pick up KAS-1 a retrieval 1``, ``Place marker KAS-1 at
  8,4`` (``Place marker KAS-1 a intelligence 2 at 8,4`` when it carries several). This module
  offers the markers to the core (its ``pick_up_markers`` hook): the operative must control
  the marker and, for a kind whose op says "friendly operatives" (``friendly_only``), belong
  to the marker's owner. The core adds the rest of 3.2: 1AP, once per activation, not in the
  activation of a Place Marker, not within control range of an enemy operative, not while
  carrying a marker; and a carrier that is removed puts every marker it carries down where
  it stood (2.3).
- **One marker carried** unless a kind says otherwise: for a kind with ``first_ignored``
  (the Intelligence markers), the first marker of that kind an operative carries is ignored
  for the conditions of Pick Up Marker (the core's ``would_count_carried`` hook), so it may
  carry two of them, or one of them and then one other marker.

An op declares its kind at import (:func:`register_kind`) and calls :func:`install` with it;
the hooks are added once per battle however many ops use them.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.rules.equipment.markers import operative_controls

__all__ = [
    "MarkerKind",
    "add_marker",
    "carried_by",
    "install",
    "is_mission_marker",
    "markers_of",
    "pick_up_problem",
    "register_kind",
]


@attrs.frozen(slots=True)
class MarkerKind:
    """A kind of mission marker (module docstring).

    Attributes:
        kind: the token kind and the word of its names (``"intelligence"``).
        op: the op whose markers they are (``"Steal Intelligence"``), for messages.
        friendly_only: only its owner's operatives may pick it up (the op says "friendly
            operatives can perform the Pick Up Marker action"); ``False``: any operative.
        numbered: a player may have several (names end with a number); ``False``: one each.
        first_ignored: the first marker of this kind an operative carries is ignored for
            the conditions of Pick Up Marker (Steal Intelligence).
    """

    kind: str
    op: str
    friendly_only: bool = True
    numbered: bool = True
    first_ignored: bool = False


_KINDS: dict[str, MarkerKind] = {}


def register_kind(spec: MarkerKind) -> MarkerKind:
    """Declare a kind of mission marker (at the op module's import); returns ``spec``.

    Raises:
        ValueError: another kind of that name was declared.
    """
    known = _KINDS.get(spec.kind)
    if known is not None and known != spec:
        raise ValueError(f"mission marker kind {spec.kind!r} is already declared by {known.op}")
    _KINDS[spec.kind] = spec
    return spec


def is_mission_marker(t: Token) -> bool:
    """``t`` is a mission marker (of a kind an op declared)."""
    return t.kind in _KINDS


def _mission_markers(w: Work) -> list[Token]:
    return [t for t in w.tokens if isinstance(t, Token) and t.kind in _KINDS]


def markers_of(w: Work, kind: MarkerKind, owner: str | None = None) -> list[Token]:
    """The mission markers of ``kind`` (of ``owner`` if given) on the killzone or carried, in
    the order they were put down."""
    return [
        t
        for t in w.tokens
        if isinstance(t, Token) and t.kind == kind.kind and (owner is None or t.owner == owner)
    ]


def carried_by(w: Work, kind: MarkerKind, player: str) -> list[Token]:
    """``player``'s mission markers of ``kind`` that ``player``'s operatives carry."""
    owner = w.ctx.owner
    return [t for t in markers_of(w, kind, player) if t.carrier and owner[t.carrier] == player]


def _name(kind: MarkerKind, owner: str, number: int) -> str:
    return f"{owner} {kind.kind} {number}" if kind.numbered else f"{owner} {kind.kind}"


def _new_token(w: Work, kind: MarkerKind, owner: str, at: tuple[float, float, float]) -> Token:
    mine = markers_of(w, kind, owner)
    if mine and not kind.numbered:
        raise ValueError(f"player {owner} already has its {kind.kind} mission marker ({kind.op})")
    x, y, z = at
    return Token(kind.kind, owner, _name(kind, owner, len(mine) + 1), x, y, z)


def add_marker(
    w: Work,
    kind: MarkerKind,
    owner: str,
    at: tuple[float, float, float],
    *,
    carrier: str = "",
) -> Token:
    """Put a new mission marker of ``kind`` owned by ``owner`` on the killzone at ``at``
    (``x, y, elevation`` in inches), or into the hands of operative ``carrier`` (it is then
    carrying it, as if it had picked it up). Emits ``mission_marker_placed`` (``player``,
    ``marker``, ``mission_op``, ``carrier``, ``x``, ``y``).

    Returns:
        The new marker (as put down: before it is carried).

    Raises:
        ValueError: a kind of one marker per player whose owner already has it.
    """
    t = _new_token(w, kind, owner, at)
    w.tokens = [*w.tokens, t]
    w.emit(
        "mission_marker_placed",
        player=owner,
        marker=t.name,
        mission_op=kind.op,
        carrier=carrier,
        x=t.x,
        y=t.y,
    )
    if carrier:
        universal.start_carrying(w, carrier, t.name)
    return t


def pick_up_problem(w: Work, o: OperativeState, t: Token) -> str | None:
    """Why ``o`` may not pick up the mission marker ``t`` by its kind's conditions (the
    owner's operatives only where the op says so; ``o`` must control it, 4.8), or
    ``None``. The core checks the rest of 3.2."""
    kind = _KINDS[t.kind]
    if kind.friendly_only and t.owner != o.player:
        return f"only player {t.owner}'s operatives can pick up {t.name} ({kind.op})"
    if not operative_controls(w, o, t):
        return f"{o.id} must control {t.name} to pick it up (3.2, 4.8)"
    return None


def _offer(
    w: Work, pairs: tuple[tuple[str, str | None], ...], **info: Any
) -> tuple[tuple[str, str | None], ...]:
    """The core's ``pick_up_markers`` hook: every mission marker on the killzone (not
    carried), with why ``op`` may not pick it up (module docstring)."""
    o: OperativeState = info["op"]
    found = [t for t in _mission_markers(w) if not t.carrier]
    return (*pairs, *((t.name, pick_up_problem(w, o, t)) for t in found))


def _counted(w: Work, names: tuple[str, ...], **info: Any) -> tuple[str, ...]:
    """The core's ``would_count_carried`` hook: the first carried marker of each kind whose
    first marker is ignored is left out (module docstring)."""
    if not w.tokens:
        return names
    kinds = {t.name: t.kind for t in _mission_markers(w)}
    out: list[str] = []
    skipped: list[str] = []
    for n in names:
        kind = kinds.get(n, "")
        if kind and _KINDS[kind].first_ignored and kind not in skipped:
            skipped.append(kind)
            continue
        out.append(n)
    return tuple(out)


def _maker(kind: MarkerKind) -> Any:
    def make(w: Work, owner: str, x: float, y: float, z: float, angle: int) -> Token:
        """A mission marker for a scripted position (``Hooks.token_maker``)."""
        if z < 0:
            raise ValueError(f"a {kind.kind} marker cannot be below the killzone floor (z {z:g})")
        return _new_token(w, kind, owner, (x, y, z))

    return make


def install(hooks: Hooks, kind: MarkerKind) -> None:
    """Let operatives pick up, carry and put down the mission markers (module docstring) and
    let scripted positions hold markers of ``kind`` (``Hooks.token_maker``); the hooks are
    added once per battle."""
    register_kind(kind)
    hooks.token_maker(kind.kind, _maker(kind))
    if _offer in hooks.would.get("pick_up_markers", ()):
        return
    hooks.transform("pick_up_markers", _offer)
    hooks.transform("would_count_carried", _counted)


def _placed_text(e: Event) -> str:
    """``"  RED-1 now carries A retrieval 1 (Retrieval)"`` or ``"  A intelligence 1 is
    placed at (16, 14.5) (Steal Intelligence)"``."""
    if e.get("carrier"):
        return f"  {e['carrier']} now carries {e['marker']} ({e['mission_op']})"
    return f"  {e['marker']} is placed at ({e['x']:g}, {e['y']:g}) ({e['mission_op']})"


add_template("mission_marker_placed", _placed_text)
