"""``control MARKER``: who controls an objective marker, and why: one explanation for every
ruleset, given what differs (:class:`ControlRules`: how far an operative is from the marker,
how the contest is said and the rule sections cited) by the edition table
(:mod:`engine.explain.editions`; KT24's :data:`KT24_CONTROL`: ``rules/KT24.md`` 4.8, 4.2; 9.3
around walls; KT21's :data:`engine.explain.kt21_control.KT21_CONTROL`).

The verdict is the game's own :func:`engine.game.markers.controller`; the contesting
operatives are its :func:`~engine.game.markers.contesting` (with the contest test the
battle's ruleset installs); each operative's APL is :meth:`engine.game.work.Work.apl` and
the hooks ``would_control_apl`` and ``would_control_totals`` are run one by one with the
arguments the game passes (:func:`engine.explain.hooks.trace_would`), so each change is
named with its rule (the rules whose hooks change the APL an operative counts with for
control or the players' totals).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.explain.common import inches, op_box
from engine.explain.hooks import trace_would
from engine.explain.ruling import Drawing, QueryError, Ruling, Step
from engine.game import markers
from engine.game.state import MarkerState
from engine.game.work import Work
from engine.geometry import sight
from engine.geometry.model import OBJECTIVE_DIAMETER_MM, Placement

__all__ = ["KT24_CONTROL", "SECTION_KEYS", "ControlRules", "explain_control"]

SECTION_KEYS = ("carried", "contests", "contested", "totals", "controller")
"""The steps whose rule section a :class:`ControlRules` gives."""


@attrs.frozen(slots=True)
class ControlRules:
    """What differs between rulesets in the ``control MARKER`` explanation.

    Attributes:
        gap: ``gap(w, place, marker) -> inches``: how far an operative placed at ``place``
            is from ``marker``, measured as the ruleset's contest test measures it.
        contests: the sentence of a contesting operative, a :meth:`str.format` template with
            the fields ``op``, ``player``, ``marker``, ``gap`` (already in inches, ``2.35"``)
            and ``apl`` (its datacard APL).
        changed: what is added when its APL is changed (field ``apl``: the changed APL).
        nobody: the sentence when no operative contests it (field ``marker``).
        sections: the rule section of each step (keys :data:`SECTION_KEYS`).
    """

    gap: Callable[[Work, Placement, MarkerState], float]
    contests: str
    changed: str
    nobody: str
    sections: Mapping[str, str] = attrs.field()

    @sections.validator
    def _all_sections(self, _attr: Any, value: Mapping[str, str]) -> None:
        missing = [k for k in SECTION_KEYS if k not in value]
        if missing:
            raise ValueError(f"ControlRules.sections has no section for {', '.join(missing)}")


def _kt24_gap(w: Work, place: Placement, m: MarkerState) -> float:
    """KT24's measure (``rules/KT24.md`` 4.8, 9.3): from the operative's base to the
    marker's, around walls."""
    centre = Placement(m.x, m.y, base_mm=OBJECTIVE_DIAMETER_MM)
    return sight.distance_around_walls(w.kz, place, centre)


KT24_CONTROL = ControlRules(
    gap=_kt24_gap,
    contests=(
        "{op} ({player}) is within control range of {marker} ({gap}, and the marker is "
        "visible to it): APL {apl}"
    ),
    changed=", changed to {apl} (APL changes are capped at 1, 2.1)",
    nobody="no operative is within control range of {marker}",
    sections={
        "carried": "4.8",
        "contests": "4.8, 4.2",
        "contested": "4.8",
        "totals": "4.8",
        "controller": "4.8",
    },
)
"""KT24's control (``rules/KT24.md`` 4.8, 4.2: within control range and visible)."""


def _marker(w: Work, words: tuple[str, ...]) -> MarkerState:
    """The marker the query names (any case).

    Raises:
        QueryError: no such marker (names it and the markers there are)."""
    name = " ".join(words)
    names = [m.name for m in w.markers]
    hits = [n for n in names if n.lower() == name.lower()]
    if not hits:
        raise QueryError(f"unknown marker {name!r} (markers: {', '.join(names) or 'none'})")
    return next(m for m in w.markers if m.name == hits[0])


def explain_control(
    w: Work, words: tuple[str, ...], text: str, rules: ControlRules = KT24_CONTROL
) -> Ruling:
    """The ruling of ``control MARKER`` (module docstring) under the ruleset whose
    :class:`ControlRules` is ``rules`` (distances in inches).

    Raises:
        QueryError: no such marker (names it and the markers there are)."""
    m = _marker(w, words)
    name = m.name
    cite = rules.sections
    steps: list[Step] = []
    data: dict[str, Any] = {"marker": name, "operatives": []}
    ops = markers.contesting(w, name)
    winner = markers.controller(w, name)
    if m.carrier:
        steps.append(
            Step(
                "carried",
                m.carrier,
                f"{m.carrier} carries {name}: its player controls it",
                cite["carried"],
            )
        )
    total = {"A": 0, "B": 0}
    boxes = []
    distances = []
    for o in ops:
        apl = w.apl(o)
        card = w.ctx.datacards[o.id].apl
        counted, changes = trace_would(
            w, "would_control_apl", apl, op=o.id, marker=name, what=markers.OBJECTIVE_MARKER
        )
        counted = int(counted)
        total[o.player] += counted
        p = w.place(o)
        gap = rules.gap(w, p, m)
        detail = rules.contests.format(
            op=o.id, player=o.player, marker=name, gap=inches(gap), apl=card
        )
        if apl != card:
            detail += rules.changed.format(apl=apl)
        for c in changes:
            detail += f"; counts {c.after} for control ({c.by})"
        steps.append(
            Step(
                f"{o.id} contests",
                str(counted),
                detail,
                cite["contests"],
                changes[-1].source if changes else "core",
                ", ".join(c.by for c in changes),
            )
        )
        data["operatives"].append(
            {"id": o.id, "player": o.player, "apl": apl, "counted": counted, "distance": gap}
        )
        boxes.append(op_box(w, o))
        distances.append((p.x, p.y, m.x, m.y, inches(gap)))
    if not ops:
        steps.append(Step("contested", "no", rules.nobody.format(marker=name), cite["contested"]))
    if not m.carrier:
        total = _totals(w, name, tuple(o.id for o in ops), total, steps, cite["totals"])
    data["totals"] = total
    data["controller"] = winner
    answer = (
        f"{name} is controlled by player {winner}"
        if winner
        else f"nobody controls {name} (a tie or nobody contests it)"
    )
    steps.append(Step("controller", winner or "nobody", answer, cite["controller"]))
    return Ruling(
        query=text,
        kind="control",
        answer=answer,
        verdict=winner,
        steps=tuple(steps),
        data=data,
        drawing=Drawing(
            operatives=tuple(boxes),
            distances=tuple(distances),
            markers=((name, m.x, m.y),),
        ),
    )


def _totals(
    w: Work,
    name: str,
    ids: tuple[str, ...],
    total: dict[str, int],
    steps: list[Step],
    section: str,
) -> dict[str, int]:
    """The players' totals after the ``would_control_totals`` hooks, with their step added
    to ``steps``."""
    before = dict(total)
    got, changes = trace_would(
        w,
        "would_control_totals",
        dict(total),
        ops=ids,
        marker=name,
        rule="",
        what=markers.OBJECTIVE_MARKER,
    )
    after = dict(got)
    steps.append(
        Step(
            "totals",
            f"A {after['A']}, B {after['B']}",
            "the player with the greater total APL of contesting operatives controls it"
            + (
                f" (a rule changed the totals from A {before['A']}, B {before['B']})"
                if changes
                else ""
            ),
            section,
            changes[-1].source if changes else "core",
            ", ".join(c.by for c in changes),
        )
    )
    return after
