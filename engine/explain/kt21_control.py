"""``control MARKER`` under KT21: who controls an objective marker, and why
(``rules/KT21.md`` 15.1, decision 6: an operative contests a marker when its base is within
2" of the marker's centre, no visibility asked; the greater total APL controls it; a carrier
controls what it carries).

The verdict is the game's own :func:`engine.game.markers.controller`; the contesting
operatives are its :func:`~engine.game.markers.contesting` (with the KT21 test the battle
installs, :func:`engine.rules.kt21.marker_actions.within_control_distance`); the distance
shown is the one that test measures; the APL and totals hooks are run one by one as the game
runs them (:func:`engine.explain.hooks.trace_would`).
"""

from __future__ import annotations

from typing import Any

from engine.explain.common import inches, op_box
from engine.explain.hooks import trace_would
from engine.explain.ruling import Drawing, QueryError, Ruling, Step
from engine.game import markers
from engine.game.work import Work
from engine.rules.kt21 import marker_actions

__all__ = ["explain_control21"]

_SEC = "rules/KT21.md 15.1"


def explain_control21(w: Work, words: tuple[str, ...], text: str) -> Ruling:
    """The ruling of ``control MARKER`` in a KT21 battle (module docstring).

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
            Step("carried", m.carrier, f"{m.carrier} carries {name}: its player controls it", _SEC)
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
        gap = marker_actions._gap_to_centre(p, (m.x, m.y))  # the measure of the KT21 test
        detail = (
            f"{o.id} ({o.player}) has its base {inches(gap)} from the centre of {name}, within "
            f'{marker_actions.CONTROL_DISTANCE:g}": APL {card}'
        )
        if apl != card:
            detail += f", changed to {apl}"
        for c in changes:
            detail += f"; counts {c.after} for control ({c.by})"
        steps.append(
            Step(
                f"{o.id} contests",
                str(counted),
                detail,
                f"{_SEC}, decision 6",
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
            Step(
                "contested",
                "no",
                f'no operative has its base within {marker_actions.CONTROL_DISTANCE:g}" of the '
                f"centre of {name}",
                f"{_SEC}, decision 6",
            )
        )
    if not m.carrier:
        before = dict(total)
        got, changes = trace_would(
            w,
            "would_control_totals",
            dict(total),
            ops=tuple(o.id for o in ops),
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
                _SEC,
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
    steps.append(Step("controller", winner or "nobody", answer, _SEC))
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
