"""``target SHOOTER TARGET [WEAPON]`` under KT21: is TARGET a valid target for SHOOTER, and
why (``rules/KT21.md`` 8.1 Visible, 8.2 cover lines and their origin (decision 4), 8.3
Obscured, 8.4 Cover (terrain and operatives' bases), 8.5 Line of Sight and valid targets,
8.6 Vantage Points, 12 Rng).

Every answer is read from the KT21 sight the game plays with:
:func:`engine.rules.kt21.sight.kt21_line_of_sight` (the origin chosen, Visible, Obscured, in
Cover and by what), the verdicts of :func:`engine.geometry.kt21_sight.evaluate` it is made of
(for the parts that obscure), :func:`~engine.rules.kt21.sight.kt21_valid_targets` for the
verdict (Line of Sight, no friendly of the shooter within the target's Engagement Range,
Rng), and the Engagement Range test of the KT21 attacks
(:func:`engine.rules.kt21.attack_sight.engagement_range`).
"""

from __future__ import annotations

import math
from typing import Any

from engine.explain.common import find_shot, inches, op_box
from engine.explain.ruling import Drawing, Ruling, Step
from engine.game.work import Work
from engine.geometry import kt21_sight as geo
from engine.geometry.distances import distance
from engine.geometry.sight_why import part_label
from engine.rules.kt21.attack_dice import weapon_rules21
from engine.rules.kt21.attack_sight import engagement_range
from engine.rules.kt21.sight import Kt21Sight, cover_givers, kt21_line_of_sight, kt21_valid_targets

__all__ = ["cover_line_ends", "explain_target21"]

_RULES = "rules/KT21.md"
_RIM_POINTS = 12


def _sec(section: str) -> str:
    return f"{_RULES} {section}"


def cover_line_ends(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    """Where the drawn cover lines end on a target's base centred at ``(x, y)`` (inches):
    its centre and twelve points round its edge (for ``--picture``; the geometry draws its
    own lines to the same kind of points, :mod:`engine.geometry.kt21_sight`)."""
    out = [(x, y)]
    for k in range(_RIM_POINTS):
        a = 2 * math.pi * k / _RIM_POINTS
        out.append((x + radius * math.cos(a), y + radius * math.sin(a)))
    return out


def _origin_verdict(w: Work, los: Kt21Sight) -> tuple[geo.Kt21Verdict, geo.OriginVerdict]:
    """The KT21 sight verdict the Line of Sight was read from and its chosen origin."""
    s, t = w.op(los.shooter), w.op(los.target)
    places = [w.place(o) for o in cover_givers(w, s, t)]
    verdict = geo.evaluate(w.kz, w.place(s), w.place(t), places)
    chosen = next((v for v in verdict.origins if v.origin == los.origin), verdict.origins[0])
    return verdict, chosen


def explain_target21(w: Work, words: tuple[str, ...], text: str) -> Ruling:
    """The ruling of ``target SHOOTER TARGET [WEAPON]`` in a KT21 battle (module docstring).

    Raises:
        QueryError: an unknown or absent operative, an unknown weapon, a target that is not
            an enemy of the shooter."""
    o, t, weapon, prof = find_shot(w, words)
    rng: float | None = None
    if weapon is not None:
        rules = weapon_rules21(w, o, weapon, prof)
        value = rules.value("Rng") if rules.has("Rng") else None
        rng = None if value is None else float(value)
    kz = w.kz
    po, pt = w.place(o), w.place(t)
    los = kt21_line_of_sight(w, o.id, t.id)
    verdict, chosen = _origin_verdict(w, los)
    steps: list[Step] = []
    parts: list[tuple[int, str]] = []
    gap = distance(po, pt)
    data: dict[str, Any] = {
        "shooter": o.id,
        "target": t.id,
        "weapon": weapon,
        "visible": los.visible,
        "order": t.order,
        "in_cover": los.in_cover,
        "obscured": los.obscured,
        "origin": [round(c, 3) for c in los.origin],
        "cover_parts": [part_label(kz, p) for p in los.cover_parts],
        "cover_operatives": list(los.cover_operatives),
        "obscuring_parts": [part_label(kz, p) for p in chosen.obscuring_parts],
        "counts_as": los.engage,
        "distance": gap,
    }

    steps.append(
        Step(
            "visible",
            "yes" if los.visible else "no",
            f"{t.id} is {'' if los.visible else 'not '}Visible to {o.id}: "
            + (
                "a sight line from its head reaches the target"
                if los.visible
                else "every sight line from its head is blocked"
            ),
            _sec("8.1"),
        )
    )
    order = f"{t.id} has a{'n' if t.order == 'engage' else ''} {t.order.capitalize()} order"
    steps.append(Step("order", t.order, order, _sec("5, 8.5")))
    k = verdict.origins.index(chosen)
    where = "the centre of its base" if k == 0 else f"point {k} round the edge of its base"
    steps.append(
        Step(
            "cover lines",
            f"from origin {k}",
            f"{o.id} draws its cover lines from {where} ({los.origin[0]:.2f}, "
            f"{los.origin[1]:.2f}, height {los.origin[2]:.2f}) to every part of {t.id}'s base: "
            f"the first of its {len(verdict.origins)} origins giving Line of Sight, one without "
            "Cover preferred; the cover save uses the same origin (decision 4)",
            _sec("8.2, decision 4"),
        )
    )
    if chosen.obscuring_parts:
        obs = "Obscured by " + ", ".join(part_label(kz, p) for p in chosen.obscuring_parts)
        obs += ' (a cover line crosses Obscuring terrain more than 2" from the target, 1" from'
        obs += " the shooter)"
    else:
        obs = 'no cover line crosses Obscuring terrain more than 2" from the target (parts'
        obs += ' within 1" of the shooter do not count, DC 16.2)'
    steps.append(Step("obscured", "yes" if los.obscured else "no", obs, _sec("8.3, 16.2")))
    parts += [(p, "obscuring") for p in chosen.obscuring_parts]
    if gap <= 2.0 + 1e-6:
        cover = f'{o.id} and {t.id} are within 2" of each other: never in Cover'
    elif los.in_cover:
        givers = [part_label(kz, p) for p in los.cover_parts] + [
            f"{g}'s base" for g in los.cover_operatives
        ]
        cover = 'in Cover: a cover line crosses, within 1" of the target, ' + ", ".join(givers)
    else:
        cover = 'no cover line crosses terrain providing Cover or another base within 1" of it'
    steps.append(Step("in cover", "yes" if los.in_cover else "no", cover, _sec("8.4")))
    parts += [(p, "cover") for p in los.cover_parts]
    if t.order != "engage" and los.engage == "engage":
        steps.append(
            Step(
                "vantage point",
                "counts as Engage",
                f'{o.id} stands on a Vantage Point and {t.id}, at least 2" lower, is in Cover '
                "only from Light terrain or operatives: it counts as having an Engage order",
                _sec("8.6"),
            )
        )
    steps.append(
        Step(
            "line of sight",
            "yes" if los.valid else "no",
            los.reason
            or f"{t.id} is Visible, not Obscured"
            + (", not in Cover" if los.engage == "conceal" else "")
            + f": in {o.id}'s Line of Sight",
            _sec("8.5"),
        )
    )
    data["line_of_sight"] = los.valid
    friends = [f for f in w.friends_of(o.id) if engagement_range(w, f, t)]
    steps.append(
        Step(
            "friendly within its Engagement Range",
            ", ".join(f.id for f in friends) if friends else "no",
            (
                f"{', '.join(f.id for f in friends)} (friendly to {o.id}) within {t.id}'s "
                "Engagement Range: not a valid target"
                if friends
                else f"no friendly operative of {o.id} is within {t.id}'s Engagement Range"
            ),
            _sec("7.2, 8.5"),
        )
    )
    if weapon is not None:
        if rng is None:
            steps.append(Step("Rng", "none", f"{weapon} has no Rng: any distance", _sec("12")))
        else:
            ok = gap <= rng + 1e-6
            steps.append(
                Step(
                    "Rng",
                    "within" if ok else "out of range",
                    f'{t.id} is {inches(gap)} from {o.id}: {weapon} has Rng {rng:g}"',
                    _sec("12 Rng"),
                    "weapon rule",
                )
            )
    valid = any(s.target == t.id for s in kt21_valid_targets(w, o.id, prof))
    data["valid"] = valid
    answer = (
        f"{t.id} is a valid target for {o.id}"
        if valid
        else f"{t.id} is not a valid target for {o.id}" + (f": {los.reason}" if los.reason else "")
    )
    steps.append(Step("valid target", "yes" if valid else "no", answer, _sec("8.5")))
    lines = [
        (los.origin[0], los.origin[1], x, y, not (los.obscured or los.in_cover))
        for x, y in cover_line_ends(pt.x, pt.y, pt.radius)
    ]
    return Ruling(
        query=text,
        kind="target",
        answer=answer,
        verdict=valid,
        steps=tuple(steps),
        data=data,
        drawing=Drawing(
            operatives=(
                op_box(w, o),
                op_box(w, t),
                *(op_box(w, w.op(g)) for g in los.cover_operatives),
            ),
            lines=tuple(lines),
            parts=tuple(parts),
            distances=((po.x, po.y, pt.x, pt.y, inches(gap)),),
        ),
    )
