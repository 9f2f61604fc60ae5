"""Markers (``rules/KT24.md`` 4.8, 2.3, 3.2): control of objective markers and of areas a rule
makes controllable the same way, the markers rule modules let operatives pick up, carrying
a marker and putting it down. The Pick Up Marker and Place Marker actions that use them are
in :mod:`engine.game.universal.marker_actions`; this module imports no action."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.game.actions import (
    AmbiguousActionError,
    IllegalActionError,
)
from engine.game.state import MarkerState, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import Killzone, Objective, Placement, sight
from engine.geometry.model import MARKER_DIAMETER_MM, OBJECTIVE_DIAMETER_MM

__all__ = [
    "AREA",
    "MISSION_MARKER",
    "OBJECTIVE_MARKER",
    "ContestTest",
    "apl_controller",
    "carry_along",
    "contest_test",
    "contesting",
    "contests",
    "controller",
    "counted_carried",
    "is_marker",
    "marker_level",
    "marker_objective",
    "marker_token",
    "place_marker",
    "rule_markers",
    "start_carrying",
]

OBJECTIVE_MARKER = "objective marker"
"""What is controlled (the control hooks' ``what=``): an objective marker (4.8)."""
MISSION_MARKER = "mission marker"
"""What is controlled: a marker that is not an objective marker (a mission marker a rule puts
on the killzone: a token of ``w.tokens``, e.g. a tac op's Banner)."""
AREA = "area"
"""What is controlled: an area a rule makes controllable like a marker (a tac op's flank
passes its own name, e.g. ``"flank"``), not a marker."""


def is_marker(what: object) -> bool:
    """``what`` (the control hooks' ``what=``) is a marker, objective or mission marker: a
    rule that changes control "of a marker" applies (not to a flank or other area)."""
    return what in (OBJECTIVE_MARKER, MISSION_MARKER)


def _marker(w: Work, name: str) -> str:
    names = [m.name for m in w.markers]
    if name in names:
        return name
    hits = [n for n in names if n.lower() == name.lower()]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise AmbiguousActionError(f"marker name {name!r} matches {hits}")
    raise IllegalActionError(f"there is no marker {name!r} (markers: {', '.join(names)})")


def marker_objective(w: Work, name: str) -> Objective:
    """The marker ``name`` as an :class:`Objective` at its current position (4.8)."""
    m = next(m for m in w.markers if m.name == name)
    return Objective(m.name, (m.x, m.y))


ContestTest = Callable[[Killzone, Placement, tuple[float, float], float], bool]
"""Whether an operative (its placement) contests a marker (its centre, inches, and diameter,
mm) on a killzone (:func:`contest_test`)."""


def contest_test(w: Work) -> ContestTest:
    """The battle's test of whether an operative contests a marker: KT24's (within its
    control range and visible, :func:`engine.geometry.sight.marker_in_control_range`, 4.8)
    unless the ruleset gives another through the *would* hook ``"marker_contest"`` (KT21's:
    within 2" of the centre, ``rules/KT21.md`` 15.1)."""
    if "marker_contest" not in w.ctx.hooks.would:
        return sight.marker_in_control_range
    test: ContestTest = w.would("marker_contest", sight.marker_in_control_range)
    return test


def contests(w: Work, o: OperativeState, name: str) -> bool:
    """``o`` contests the marker: it is within its control range (:func:`contest_test`), or
    ``o`` carries it (4.8)."""
    m = next(m for m in w.markers if m.name == name)
    if m.carrier:
        return m.carrier == o.id
    return contest_test(w)(w.kz, w.place(o), (m.x, m.y), OBJECTIVE_DIAMETER_MM)


def contesting(w: Work, name: str) -> tuple[OperativeState, ...]:
    """The operatives on the killzone that contest the marker ``name`` (:func:`contests`),
    in the order of ``w.alive()``.

    Kept on ``w`` (:meth:`~engine.game.work.Work.kept_on_kz`) under the marker's value until
    an operative changes or the killzone does: the answer is a function of the living
    operatives, the marker and the killzone only."""
    m = next(m for m in w.markers if m.name == name)
    return w.kept_on_kz(("contesting", m), lambda: _contesting(w, m))


def _contesting(w: Work, m: MarkerState) -> tuple[OperativeState, ...]:
    alive = w.alive()
    if m.carrier:
        return tuple(o for o in alive if o.id == m.carrier)
    kz, place, at = w.kz, w.place, (m.x, m.y)
    within = contest_test(w)
    return tuple(o for o in alive if within(kz, place(o), at, OBJECTIVE_DIAMETER_MM))


def apl_controller(
    w: Work,
    contesting: Callable[[OperativeState], bool],
    marker: str = "",
    rule: str = "",
    what: str = "",
) -> str:
    """The player whose operatives on the killzone for which ``contesting`` holds have the
    greater total APL (``"A"``/``"B"``), or ``""`` on a tie or when none does: control of a
    marker or of any area a rule makes controllable the same way (4.8). The
    ``would_control_apl`` hooks (``fn(w, apl, op=, marker=, what=) -> apl``) change the APL
    an operative counts with there, not its APL stat.

    Args:
        marker: the marker's name (an objective marker's, or a token's of ``w.tokens``);
            ``""`` for an area.
        rule: the rule determining control (``""``: any; ``"Martyrs"``...).
        what: what is controlled, told to the hooks so that each rule decides whether it
            applies (a rule for objective markers only, for any marker, or for an area too):
            :data:`OBJECTIVE_MARKER`, :data:`MISSION_MARKER`, or the area's kind (a flank:
            ``"flank"``); ``""`` works it out from ``marker`` (an objective marker's name,
            another marker's, or none: :data:`AREA`)."""
    if not what:
        what = _what(w, marker)
    return _apl_control(w, [o for o in w.alive() if contesting(o)], marker, rule, what)


def _what(w: Work, marker: str) -> str:
    """What is controlled when ``marker`` is (:func:`apl_controller`'s ``what``)."""
    if not marker:
        return AREA
    return OBJECTIVE_MARKER if any(m.name == marker for m in w.markers) else MISSION_MARKER


def _apl_control(
    w: Work,
    ops: list[OperativeState] | tuple[OperativeState, ...],
    marker: str,
    rule: str,
    what: str,
) -> str:
    """:func:`apl_controller` given the contesting operatives ``ops`` (in ``w.alive()``
    order)."""
    total = {"A": 0, "B": 0}
    hooked = "would_control_apl" in w.ctx.hooks.would
    ids: list[str] = []
    for o in ops:
        ids.append(o.id)
        apl = w.apl(o)
        if hooked:
            apl = int(w.would("would_control_apl", apl, op=o.id, marker=marker, what=what))
        total[o.player] += apl
    if (ids or marker) and "would_control_totals" in w.ctx.hooks.would:
        # A rule changing a player's total (not an operative's APL): fn(w, total, ops=,
        # marker=, rule=, what=) -> total, ``ops`` the contesting operatives' ids,
        # ``marker`` the marker's name (an objective marker's or a token's, ``w.tokens``;
        # ``""`` for another area; asked then even when nobody contests), ``rule`` the rule
        # determining control (``""``: any; "Martyrs"...), ``what`` what is controlled.
        total = dict(
            w.would(
                "would_control_totals",
                dict(total),
                ops=tuple(ids),
                marker=marker,
                rule=rule,
                what=what,
            )
        )
    if total["A"] == total["B"]:
        return ""
    return "A" if total["A"] > total["B"] else "B"


def controller(w: Work, name: str, rule: str = "") -> str:
    """The player controlling the marker (greater total APL of contesting operatives), or
    ``""`` (4.8); ``rule`` names the rule determining it, for a rule that has no effect on
    some (the ``would_control_totals`` hooks are told it). On a tie the
    ``would_control_marker`` hooks (``fn(w, "", marker=) -> player``) may name who controls
    it (a rule that wins ties)."""
    m = next(m for m in w.markers if m.name == name)
    if m.carrier:
        return w.ctx.owner[m.carrier]
    got = _apl_control(w, contesting(w, name), name, rule, OBJECTIVE_MARKER)
    if not got and "would_control_marker" in w.ctx.hooks.would:
        got = str(w.would("would_control_marker", got, marker=name))
    return got


def counted_carried(w: Work, o: OperativeState) -> tuple[str, ...]:
    """The markers ``o`` carries that count for Pick Up Marker's condition "not already
    carrying a marker" (3.2): all of them, less those a rule leaves out through the *would*
    hooks ``"would_count_carried"`` (``fn(w, names, op=o) -> names``; e.g. a tac op letting
    an operative carry a second marker of its own)."""
    if not o.carrying or "would_count_carried" not in w.ctx.hooks.would:
        return o.carrying
    return tuple(w.would("would_count_carried", o.carrying, op=o))


def rule_markers(w: Work, o: OperativeState) -> tuple[tuple[str, str | None], ...]:
    """The markers other than the objective markers that rule modules let operatives pick up
    with the Pick Up Marker action (3.2; the mission markers of an op), as ``(name, why)``
    pairs for operative ``o``: ``why`` is ``None`` when the module lets ``o`` pick that
    marker up now (it judges control, 4.8, and its own conditions), else the reason naming
    the rule.

    Such a marker is a :class:`~engine.game.tokens.Token` on the state (``w.tokens``), 20 mm
    across (4.8: every marker but an objective marker). Rule modules offer them through the
    *would* hook ``"pick_up_markers"``: ``fn(w, pairs, op=o) -> pairs`` returns ``pairs``
    with its own markers added. The core then performs Pick Up Marker on it as on an
    objective marker (AP, once per activation, not within enemy control range, not while
    carrying another, :func:`counted_carried`), carries it (:func:`start_carrying`) and puts
    it down with Place Marker or when its carrier is removed (:func:`place_marker`)."""
    if "pick_up_markers" not in w.ctx.hooks.would:
        return ()
    return tuple(w.would("pick_up_markers", (), op=o))


def marker_token(w: Work, name: str) -> Token | None:
    """The rule module's marker (a :class:`~engine.game.tokens.Token`) called ``name``, or
    ``None``."""
    return next((t for t in w.tokens if isinstance(t, Token) and t.name == name), None)


def start_carrying(w: Work, op_id: str, name: str) -> None:
    """Operative ``op_id`` now carries the marker ``name`` (an objective marker or a rule
    module's :class:`~engine.game.tokens.Token`): the marker's ``carrier`` is set, it goes
    where the operative is, and its name is added to the operative's ``carrying`` (3.2, 4.8).
    For Pick Up Marker and for rules that hand a marker to an operative; emits nothing.

    Raises:
        ValueError: there is no such marker, or it is carried already.
    """
    o = w.op(op_id)
    if any(m.name == name for m in w.markers):
        m = next(m for m in w.markers if m.name == name)
        if m.carrier:
            raise ValueError(f"marker {name} is carried by {m.carrier}")
        w.markers = [
            attrs.evolve(m, carrier=op_id, x=o.x, y=o.y) if m.name == name else m for m in w.markers
        ]
    else:
        t = marker_token(w, name)
        if t is None:
            raise ValueError(f"there is no marker {name!r}")
        if t.carrier:
            raise ValueError(f"marker {name} is carried by {t.carrier}")
        new = attrs.evolve(t, carrier=op_id, x=o.x, y=o.y, elevation=o.elevation)
        w.tokens = [new if u is t else u for u in w.tokens]
    w.set_op(op_id, carrying=(*o.carrying, name))


def carry_along(w: Work, op_id: str) -> None:
    """Put the markers operative ``op_id`` carries where it now stands (after it moved or was
    set up again: a carried marker goes with its carrier, 4.8)."""
    o = w.op(op_id)
    if not o.carrying:
        return
    w.markers = [attrs.evolve(m, x=o.x, y=o.y) if m.carrier == op_id else m for m in w.markers]
    if any(isinstance(t, Token) and t.carrier == op_id for t in w.tokens):
        w.tokens = [
            attrs.evolve(t, x=o.x, y=o.y, elevation=o.elevation)
            if isinstance(t, Token) and t.carrier == op_id
            else t
            for t in w.tokens
        ]


def marker_level(w: Work, x: float, y: float, elevation: float) -> float:
    """The elevation (inches) a 20 mm marker put down at ``(x, y)`` by an operative standing
    at ``elevation`` lies at: that level when Vantage terrain of that height is under the
    point, else the killzone floor (4.8)."""
    if elevation <= 0:
        return 0.0
    spot = Placement(x, y, base_mm=MARKER_DIAMETER_MM, elevation=elevation)
    return elevation if w.kz.standing_part(spot) is not None else 0.0


def place_marker(w: Work, o: OperativeState, x: float, y: float, name: str = "") -> None:
    """Put down the marker ``name`` (default: the only one) ``o`` carries at ``(x, y)``; a
    rule module's marker lies on ``o``'s level when that level is under the point
    (:func:`marker_level`). Emits ``marker_placed`` (``op``, ``marker``, ``x``, ``y``)."""
    o = w.op(o.id)
    name = name or o.carrying[0]
    if any(m.name == name for m in w.markers):
        w.markers = [
            attrs.evolve(m, x=x, y=y, carrier="") if m.name == name else m for m in w.markers
        ]
    else:
        t = marker_token(w, name)
        if t is not None:
            z = marker_level(w, x, y, o.elevation)
            new = attrs.evolve(t, carrier="", x=x, y=y, elevation=z)
            w.tokens = [new if u is t else u for u in w.tokens]
    w.set_op(o.id, carrying=tuple(n for n in o.carrying if n != name))
    w.emit("marker_placed", op=o.id, marker=name, x=x, y=y)
