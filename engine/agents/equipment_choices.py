"""The heuristic agent's equipment decisions (``rules/KT24.md`` 1.2, 7.2).

Rules of thumb:

- **Selection**: the most valued options still available, up to four
  (:func:`equipment_values`): the team's own options at the value their module registers
  (:func:`engine.rules.registry.register_equipment_value`; by default below the grenades,
  above the rest), and the options of :data:`PREFERENCE`, in that order:
  one frag and one krak grenade (a Blast and a Piercing shot for every operative), one smoke
  and one stun grenade, an Ammo Cache (a re-roll for the operatives that fight over the
  middle), a Portable Barricade (cover that moves with an operative).
- **Set-up**: each item at the listed spot nearest the centre of the killzone, so that cover
  and the cache are where the fighting is; markers a little nearer home (the spot nearest
  the point halfway between the drop zone's centre and the killzone's centre).
"""

from __future__ import annotations

import math

from engine.game.actions import Action
from engine.game.work import Work

__all__ = ["PREFERENCE", "equipment_values", "select_equipment", "set_up_equipment"]

PREFERENCE = (
    "explosive grenades (frag and krak)",
    "utility grenades (smoke and stun)",
    "ammo cache",
    "portable barricade",
)
"""The heuristic agent's equipment, in order of preference (notation names)."""

_MARKERS = ("ammo cache", "comms device", "mines")


def equipment_values(w: Work, me: str) -> dict[str, float]:
    """The heuristic's value of each equipment option ``me`` may select, by notation name:
    :data:`PREFERENCE` 4, 3, 2, 1; the team's own options their registered value
    (:func:`engine.rules.registry.equipment_value`) if a rule module plays them (an option
    no module implements is left out); higher is taken first."""
    from engine.rules.registry import equipment_value, implementation, rule_id, team_key

    team = w.ctx.rosters[me].team
    values = {name: float(len(PREFERENCE) - k) for k, name in enumerate(PREFERENCE)}
    for eq in team.equipment:
        rid = rule_id(team_key(team), "equipment", eq.name)
        if implementation(rid) is None:
            continue  # not played yet: it would do nothing
        values[" ".join(eq.name.lower().split())] = equipment_value(rid)
    return values


def select_equipment(w: Work, me: str, legal: list[Action]) -> Action:
    """The most valued option still offered (:func:`equipment_values`; ties in
    :data:`PREFERENCE` then team order), else ``Equipment done``."""
    texts = {a.text: a for a in legal if a.verb == "Equipment"}
    best: tuple[float, Action] | None = None
    for text, value in equipment_values(w, me).items():
        if text in texts and value >= 0 and (best is None or value > best[0]):
            best = (value, texts[text])
    if best is not None:
        return best[1]
    return texts.get("done", legal[0])


def set_up_equipment(w: Work, me: str, legal: list[Action]) -> Action:
    """The listed spot nearest the killzone's centre (markers: halfway home)."""
    kz = w.kz
    cx, cy = kz.width / 2, kz.depth / 2
    zone = kz.drop_zones[w.pl(me).drop_zone].centroid if w.pl(me).drop_zone else None
    best: tuple[float, int, Action] | None = None
    for i, a in enumerate(legal):
        if a.verb != "Set up" or a.point is None:
            continue
        tx, ty = cx, cy
        if a.text in _MARKERS and zone is not None:
            tx, ty = (cx + zone.x) / 2, (cy + zone.y) / 2
        d = math.hypot(a.point[0] - tx, a.point[1] - ty)
        if best is None or d < best[0] - 1e-9:
            best = (d, i, a)
    return best[2] if best is not None else legal[0]
