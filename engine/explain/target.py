"""``target SHOOTER TARGET [WEAPON]``: is TARGET a valid target for SHOOTER, and why
(``rules/KT24.md`` 4.3 visible, 4.4 targeting lines, 4.5 cover, obscured and valid target,
4.7 Vantage, 6 Range and Seek, 9.3 point-blank).

The verdict is the game's own: :func:`engine.game.shoot_targets.shoot_target_reason` with a
weapon (the check ``Shoot`` makes, team rules included), else the sight and engaged checks it
starts with. The steps say what those checks read, from the ``why`` variants of the sight
queries (:mod:`engine.geometry.sight_why`, tested equal to the fast path).
"""

from __future__ import annotations

from typing import Any

from engine.dice.rules import Range
from engine.explain.common import find_shot, inches, op_box
from engine.explain.hooks import Change, hook_names, trace_would
from engine.explain.ruling import Drawing, Ruling, Step
from engine.game.shoot_targets import (
    engaged_reason,
    own_target_reason,
    point_blank_shot,
    range_reason,
    seek_kind,
    shoot_target_reason,
    sight_reason,
    targeting,
)
from engine.game.work import Work
from engine.geometry import sight, sight_why
from engine.geometry.model import Killzone

__all__ = ["explain_target"]

_ORIGINS = (
    "the centre of its base",
    "its base's edge (NE)",
    "its base's edge (NW)",
    "its base's edge (SW)",
    "its base's edge (SE)",
)


def _origin_name(k: int) -> str:
    return _ORIGINS[k] if 0 <= k < len(_ORIGINS) else f"origin {k}"


def _parts(kz: Killzone, rows: Any, role: str) -> str:
    names = sorted({sight_why.part_label(kz, r.part) for r in rows})
    return ", ".join(names) if names else f"no {role} terrain"


def explain_target(w: Work, words: tuple[str, ...], text: str) -> Ruling:
    """The ruling of ``target SHOOTER TARGET [WEAPON]`` (module docstring).

    Raises:
        QueryError: an unknown or absent operative, an unknown weapon, a target that is
            not an enemy of the shooter."""
    o, t, weapon, prof = find_shot(w, words)
    kz = w.kz
    po, pt = w.place(o), w.place(t)
    steps: list[Step] = []
    lines: list[tuple[float, float, float, float, bool]] = []
    parts: list[tuple[int, str]] = []
    data: dict[str, Any] = {"shooter": o.id, "target": t.id, "weapon": weapon}

    vis = sight_why.visible_why(kz, po, pt)
    blockers = sorted({p for line in vis.lines for p in line.blockers})
    if vis.visible:
        clear = next((line for line in vis.lines if line.clear), None)
        detail = f"a sight line from {o.id}'s head to {t.id} is unobstructed" + (
            f" (to the point at {clear.end[0]:.2f}, {clear.end[1]:.2f}, height {clear.end[2]:.2f})"
            if clear
            else ""
        )
    else:
        detail = "every sight line is blocked by " + ", ".join(
            sight_why.part_label(kz, p) for p in blockers
        )
    steps.append(Step("visible", "yes" if vis.visible else "no", detail, "4.3"))
    for line in vis.lines:
        if not vis.visible or line.clear:
            lines.append((line.start[0], line.start[1], line.end[0], line.end[1], line.clear))
            if vis.visible:
                break
    parts += [(p, "blocking") for p in blockers if not vis.visible]
    data["visible"] = vis.visible

    steps.append(
        Step(
            "order",
            t.order,
            f"{t.id} has a{'n' if t.order == 'engage' else ''} {t.order.capitalize()} order",
            "1.5, 4.5",
        )
    )
    data["order"] = t.order

    why = sight_why.targeting_why(kz, po, pt)
    chosen = why.origins[why.chosen]
    tg = why.targeting
    cover_rows = [r for r in chosen.rows if r.cover]
    obs_rows = [r for r in chosen.rows if r.obscures]
    vetoed = [r for r in chosen.rows if r.vetoed and r.heavy]
    steps.append(
        Step(
            "targeting lines",
            f"from {_origin_name(why.chosen)}",
            f"{o.id} draws its targeting lines from {_origin_name(why.chosen)} "
            f"({tg.origin[0]:.2f}, {tg.origin[1]:.2f}) to the half of {t.id}'s base facing it: "
            "the origin that sees the target neither in cover nor obscured if one does "
            f"(crossed: {_parts(kz, [r for r in chosen.rows if not r.passed], 'intervening')})",
            "4.4",
        )
    )
    for k, (a, b) in enumerate(why.lines[why.chosen]):
        crossed = any(k in r.lines and not r.passed for r in chosen.rows)
        lines.append((a[0], a[1], b[0], b[1], not crossed))
    if chosen.close:
        cover_detail = f'{o.id} and {t.id} are within 2" of each other: no cover'
    elif cover_rows:
        cover_detail = "in cover from " + ", ".join(
            f"{sight_why.part_label(kz, r.part)} ({inches(r.gap_target)} from {t.id})"
            for r in cover_rows
        )
    else:
        cover_detail = 'no intervening cover terrain within 1" of the target'
    steps.append(Step("in cover", "yes" if cover_rows else "no", cover_detail, "4.5"))
    if obs_rows:
        obs_detail = "obscured by " + ", ".join(
            f'{sight_why.part_label(kz, r.part)} (more than 1" from both: '
            f"{inches(r.gap_target)} from {t.id}, {inches(r.gap_shooter)} from {o.id})"
            for r in obs_rows
        )
    else:
        obs_detail = 'no intervening Heavy terrain more than 1" from both operatives'
        if vetoed:
            obs_detail += (
                " ("
                + ", ".join(
                    f'{sight_why.part_label(kz, r.part)} is within 1" of one of them'
                    for r in vetoed
                )
                + ")"
            )
    steps.append(Step("obscured", "yes" if obs_rows else "no", obs_detail, "4.5"))
    both = set(tg.cover_features) & set(tg.obscuring_features)
    if both:
        names = ", ".join(kz.features[f] for f in sorted(both))
        steps.append(
            Step(
                "same feature",
                "obscured",
                f"{names} gives both cover and obscured: it counts once; for the attack the "
                "defender chooses (obscured by default), for selection the cover counts",
                "4.5, EDGE_CASES 2",
            )
        )
    parts += [(r.part, "cover") for r in cover_rows]
    parts += [(r.part, "obscuring") for r in obs_rows]
    covering = {r.part for r in cover_rows}
    parts += [(r.part, "vetoed") for r in vetoed if r.part not in covering]
    data["in_cover"] = tg.in_cover
    data["obscured"] = tg.obscured
    data["origin"] = [round(tg.origin[0], 3), round(tg.origin[1], 3)]
    data["targeting_lines"] = [
        {
            "from": [round(a[0], 3), round(a[1], 3), round(a[2], 3)],
            "to": [round(b[0], 3), round(b[1], 3), round(b[2], 3)],
            "crosses": sorted(
                {
                    sight_why.part_label(kz, r.part)
                    for r in chosen.rows
                    if k in r.lines and not r.passed
                }
            ),
        }
        for k, (a, b) in enumerate(why.lines[why.chosen])
    ]
    data["cover_parts"] = sorted({sight_why.part_label(kz, r.part) for r in cover_rows})
    data["obscuring_parts"] = sorted({sight_why.part_label(kz, r.part) for r in obs_rows})

    game_tg = targeting(w, o, t)
    if (game_tg.in_cover, game_tg.obscured) != (tg.in_cover, tg.obscured):
        base_tg = w.ctx.targeting(kz, po, pt)
        _, changes = trace_would(w, "would_target", base_tg, op=o.id, target=t.id)
        steps.append(
            Step(
                "terrain rules",
                f"in cover {'yes' if game_tg.in_cover else 'no'}, "
                f"obscured {'yes' if game_tg.obscured else 'no'}",
                "for the attack, a rule about terrain changes the cover or obscured above: "
                + "; ".join(_targeting_change(kz, c.before, c.after) for c in changes),
                "7.2",
                changes[-1].source if changes else "rule",
                ", ".join(c.by for c in changes),
            )
        )
        data["in_cover"], data["obscured"] = game_tg.in_cover, game_tg.obscured

    seek = seek_kind(prof.rules) if prof is not None else None
    vt = sight_why.valid_target_why(kz, pt, po, t.order, seek=seek)
    if t.order == "engage":
        vt_detail = "an Engage operative is a valid target when visible"
    elif seek == "all":
        vt_detail = f"{weapon} has Seek: no terrain counts as cover for selection"
    elif vt.clear_origin is not None:
        vt_detail = (
            f"a Conceal operative in cover is not a valid target; from "
            f"{_origin_name(vt.clear_origin)} no counted terrain gives it cover"
        )
    else:
        vt_detail = "a Conceal operative in cover is not a valid target: cover from every origin"
    if t.order == "conceal" and vt.ignore_light:
        vt_detail += (
            "; Light terrain does not count ("
            + (
                "Seek Light"
                if seek == "light"
                else f"{o.id} is on Vantage {inches(vt.height_advantage)} above {t.id}, 4.7"
            )
            + ")"
        )
    sight_why_game = sight_reason(w, o, t, seek)  # the game's verdict (target selection)
    by_rules = None
    if not vt.valid and vis.visible and sight_why_game is None:
        by_rules = _selection_by_rules(w, o, t, seek)
    steps.append(
        Step(
            "valid by sight" if by_rules is None else "valid by the terrain alone",
            "yes" if vt.valid else "no",
            vt_detail,
            "4.5, 4.7" + (", 6 Seek" if seek else ""),
            "weapon rule" if seek else "core",
        )
    )
    if by_rules is not None:
        steps.append(by_rules)
    data["valid_by_sight"] = sight_why_game is None
    engaged = engaged_reason(w, o, t)
    steps.append(
        Step(
            "friendly within its control range",
            "yes" if engaged else "no",
            engaged or f"no friendly operative of {o.id} is within {t.id}'s control range",
            "4.5",
        )
    )
    dist = w.distance(po, pt)
    data["distance"] = round(dist, 3)
    distances = [(po.x, po.y, pt.x, pt.y, inches(dist))]
    if weapon is not None and prof is not None:
        rng = range_reason(w, o, t, weapon, prof)
        steps.append(
            Step(
                "in range",
                "no" if rng else "yes",
                rng or _in_range(t.id, dist, weapon, prof),
                "6 Range",
                "weapon rule",
            )
        )
        mode = _mode(w, o.id)
        pb = point_blank_shot(w, o, mode)
        final = shoot_target_reason(w, o, t, weapon, prof, pb)
        acc = sight.vantage_accuracy(kz, po, pt, t.order)
        if acc:
            steps.append(
                Step(
                    "Vantage",
                    f"Accurate {acc}",
                    f'{o.id} on Vantage is 2"+ (Accurate 1) or 4"+ (Accurate 2) above an '
                    "Engage target",
                    "4.7",
                )
            )
        data["vantage_accurate"] = acc
    else:
        final = sight_reason(w, o, t, None) or engaged
    hooked: list[tuple[str, str]] = []
    if weapon is not None and prof is not None:
        own = own_target_reason(w, o, t, weapon, prof, pb)
        if final != own:  # a team rule allowed a target the checks above refuse, or refused one
            hooked = hook_names(w, "would_allow_target" if final is None else "would_refuse_target")
    valid = final is None
    steps.append(
        Step(
            "valid target",
            "yes" if valid else "no",
            final or f"{t.id} is a valid target for {o.id}" + (f" with {weapon}" if weapon else ""),
            "4.5, 5.1 step 2",
            hooked[0][1] if hooked else "core",
            ", ".join(n for n, _ in hooked),
        )
    )
    data["valid"] = valid
    answer = (
        f"{t.id} is a valid target for {o.id}" + (f" with {weapon}" if weapon else "")
        if valid
        else f"{t.id} is not a valid target for {o.id}: {final}"
    )
    return Ruling(
        query=text,
        kind="target",
        answer=answer,
        verdict=valid,
        steps=tuple(steps),
        data=data,
        drawing=Drawing(
            operatives=(op_box(w, o), op_box(w, t)),
            lines=tuple(lines),
            parts=tuple(dict.fromkeys(parts)),
            distances=tuple(distances),
        ),
    )


def _targeting_change(kz: Killzone, before: Any, after: Any) -> str:
    """What one ``would_target`` hook changed in a :class:`~engine.geometry.sight.Targeting`
    (the features it removed from or added to the cover and obscuring ones)."""
    said = []
    for what, b, a in (
        ("cover", before.cover_features, after.cover_features),
        ("obscuring", before.obscuring_features, after.obscuring_features),
    ):
        said += [f"{kz.features[f]} no longer gives {what}" for f in sorted(b - a)]
        said += [f"{kz.features[f]} gives {what}" for f in sorted(a - b)]
    return ", ".join(said) or "no feature changed"


def _selection_by_rules(w: Work, o: Any, t: Any, seek: str | None) -> Step:
    """The step saying which rule makes the Conceal operative ``t``, in cover from ``o`` by
    the terrain alone, a valid target: the game's own test
    (:func:`engine.game.shoot_targets.uncovered_by_rules`), origin by origin
    (:func:`engine.geometry.sight.selection_targetings`, the ``would_target`` hooks run one by
    one with the game's arguments), naming the first origin from which no counted cover is
    left and the hooks that removed it (4.5, 4.7, 7.2)."""
    kz = w.kz
    per_origin = sight.selection_targetings(kz, w.place(t), w.place(o), seek=seek)
    for k, (tg, counts) in enumerate(per_origin):
        after, changes = trace_would(w, "would_target", tg, op=o.id, target=t.id)
        added = after.cover_features - tg.cover_features
        if after.cover_features & (counts | added):
            continue
        removed = sorted(counts & tg.cover_features)
        names = ", ".join(kz.features[f] for f in removed) or "no feature"
        return Step(
            "terrain rules (selection)",
            "no cover",
            f"from {_origin_name(k)} only {names} gave {t.id} cover, and a rule about "
            "terrain removes it: "
            + "; ".join(_targeting_change(kz, c.before, c.after) for c in changes)
            + f": {t.id} is not in cover, so a valid target",
            "4.5, 7.2",
            _sources(changes),
            ", ".join(c.by for c in changes),
        )
    return Step(  # (not reached: the game's own test found such an origin)
        "terrain rules (selection)",
        "no cover",
        "a rule about terrain leaves no counted cover from some origin",
        "4.5, 7.2",
        "rule",
        ", ".join(n for n, _ in hook_names(w, "would_target")),
    )


def _sources(changes: list[Change]) -> str:
    return changes[-1].source if changes else "rule"


def _in_range(target: str, dist: float, weapon: str, prof: Any) -> str:
    rng = prof.rules.get(Range)
    if rng is None:
        return f"{weapon} has no Range rule: any distance"
    return f"{target} is {inches(dist)} away: within {weapon}'s {rng.format()}"


def _mode(w: Work, op: str) -> str:
    """The mode of ``op``'s activation frame on the stack (``"activation"`` when none)."""
    for f in reversed(w.stack):
        if getattr(f, "op", None) == op and hasattr(f, "mode"):
            return str(f.mode)
    return "activation"
