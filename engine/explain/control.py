"""``control MARKER``: who controls an objective marker, and why (``rules/KT24.md`` 4.8, 4.2;
9.3 around walls; the rules whose hooks change the APL an operative counts with for control
or the players' totals).

The verdict is the game's own :func:`engine.game.markers.controller`; the contesting
operatives are its :func:`~engine.game.markers.contesting`; each operative's APL is
:meth:`engine.game.work.Work.apl` and the hooks ``would_control_apl`` and
``would_control_totals`` are run one by one with the arguments the game passes
(:func:`engine.explain.hooks.trace_would`), so each change is named with its rule.
"""

from __future__ import annotations

from typing import Any

from engine.explain.common import inches, op_box
from engine.explain.hooks import trace_would
from engine.explain.ruling import Drawing, QueryError, Ruling, Step
from engine.game import markers
from engine.game.work import Work
from engine.geometry import sight
from engine.geometry.model import OBJECTIVE_DIAMETER_MM, Placement

__all__ = ["explain_control"]


def explain_control(w: Work, words: tuple[str, ...], text: str) -> Ruling:
    """The ruling of ``control MARKER`` (module docstring).

    Raises:
        QueryError: no such marker (names it and the markers there are)."""
    name = " ".join(words)
    names = [m.name for m in w.markers]
    hits = [n for n in names if n.lower() == name.lower()]
    if not hits:
        raise QueryError(f"unknown marker {name!r} (markers: {', '.join(names) or 'none'})")
    name = hits[0]
    m = next(m for m in w.markers if m.name == name)
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
                "4.8",
            )
        )
    total = {"A": 0, "B": 0}
    boxes = []
    distances = []
    centre = Placement(m.x, m.y, base_mm=OBJECTIVE_DIAMETER_MM)
    for o in ops:
        apl = w.apl(o)
        card = w.ctx.datacards[o.id].apl
        counted, changes = trace_would(
            w, "would_control_apl", apl, op=o.id, marker=name, what=markers.OBJECTIVE_MARKER
        )
        counted = int(counted)
        total[o.player] += counted
        p = w.place(o)
        gap = sight.distance_around_walls(w.kz, p, centre)
        detail = (
            f"{o.id} ({o.player}) is within control range of {name} ({inches(gap)}, and the "
            f"marker is visible to it): APL {card}"
        )
        if apl != card:
            detail += f", changed to {apl} (APL changes are capped at 1, 2.1)"
        for c in changes:
            detail += f"; counts {c.after} for control ({c.by})"
        steps.append(
            Step(
                f"{o.id} contests",
                str(counted),
                detail,
                "4.8, 4.2",
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
        steps.append(
            Step("contested", "no", f"no operative is within control range of {name}", "4.8")
        )
    if not m.carrier:
        before = dict(total)
        ids = tuple(o.id for o in ops)
        got, changes = trace_would(
            w,
            "would_control_totals",
            dict(total),
            ops=ids,
            marker=name,
            rule="",
            what=markers.OBJECTIVE_MARKER,
        )
        total = dict(got)
        steps.append(
            Step(
                "totals",
                f"A {total['A']}, B {total['B']}",
                "the player with the greater total APL of contesting operatives controls it"
                + (
                    f" (a rule changed the totals from A {before['A']}, B {before['B']})"
                    if changes
                    else ""
                ),
                "4.8",
                changes[-1].source if changes else "core",
                ", ".join(c.by for c in changes),
            )
        )
    data["totals"] = total
    data["controller"] = winner
    answer = (
        f"{name} is controlled by player {winner}"
        if winner
        else f"nobody controls {name} (a tie or nobody contests it)"
    )
    steps.append(Step("controller", winner or "nobody", answer, "4.8"))
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
