"""Events: every change the engine makes, and the narration derived from them.

An :class:`Event` has a ``kind`` (snake case, e.g. ``"damage_inflicted"``; every kind is
declared with its data keys in :class:`engine.game.vocabulary.EventKind`) and its data as
sorted ``(key, value)`` pairs. :func:`narrate` turns one event into a line of text (or ``""``
for bookkeeping events nobody wants to read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from engine.game.vocabulary import EVENT_KINDS, check

__all__ = ["MOVE_WORDS", "Event", "add_template", "narrate"]


@attrs.frozen(slots=True)
class Event:
    """One change: ``kind`` and data pairs (use :meth:`get` or indexing)."""

    kind: str
    data: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, kind: str, **data: Any) -> Event:
        """An event of ``kind`` with keyword data."""
        return cls(kind, tuple(sorted(data.items())))

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key`` (or ``default``)."""
        for k, v in self.data:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> Any:
        for k, v in self.data:
            if k == key:
                return v
        raise KeyError(key)

    def as_dict(self) -> dict[str, Any]:
        """``{"kind": ..., **data}``."""
        return {"kind": self.kind, **dict(self.data)}


#: How narration words each move action (the ``action`` of a ``moved`` event: the action's
#: name in lower case).
MOVE_WORDS = {
    "reposition": "repositions",
    "dash": "dashes",
    "fall back": "falls back",
    "charge": "charges",
}


def _dice(values: Any) -> str:
    return ",".join(str(v) for v in values) if values else "-"


def _names(ids: Any) -> str:
    ids = list(ids)
    return ", ".join(ids[:-1]) + " and " + ids[-1] if len(ids) > 1 else "".join(ids)


def drop_zone_text(e: Event) -> str:
    """``"A chooses the drop zone marked B (east edge)"`` (the initiative player, 1.2) or
    ``"B sets up in the drop zone marked A (west edge)"``: drop zones are named by the
    killzone layout, not by player."""
    edge = f" ({e['edge']} edge)" if e.get("edge") else ""
    verb = "chooses" if e.get("by") == e["player"] else "sets up in"
    return f"{e['player']} {verb} the drop zone marked {e['zone']}{edge}"


def assist_text(e: Event) -> str:
    """``"KAS-2 and KAS-3 assist KAS-1 v LEG-1: Hit improved by 2"`` (5.2 step 2)."""
    verb = "assists" if len(e["by"]) == 1 else "assist"
    return f"{_names(e['by'])} {verb} {e['op']} v {e['target']}: Hit improved by {e['improvement']}"


def upgrade_text(e: Event) -> str:
    """``"Rending makes a normal 4 a crit"`` (6); an unrolled (Accurate) success has die 0."""
    die = f" {e['die']}" if e["die"] else " (unrolled)"
    return f"{e['rule']} makes a {e['before']}{die} a {e['after']}"


def hot_text(e: Event) -> str:
    """``"Hot roll 2 v Hit 4+: 4 damage"`` or ``"Hot roll 5 v Hit 4+: no damage"`` (6 Hot)."""
    outcome = f"{e['damage']} damage" if e["damage"] else "no damage"
    return f"Hot roll {e['roll']} v Hit {e['hit']}+: {outcome}"


def guard_ended_text(e: Event) -> str:
    """``"KAS-1 is no longer on guard (it moved)"`` (9.3)."""
    why = e["why"]
    if e.get("enemy"):
        why = f"{e['enemy']} ended an action within its control range, no interrupt"
    return f"{e['op']} is no longer on guard ({why})"


_UNTIL = {
    "end_activation": "until the end of the activation",
    "end_this_activation": "until the end of its activation",
    "end_next_activation": "until the end of its next activation",
    "end_tp": "until the end of the turning point",
    "end_battle": "for the battle",
    "while": "while the condition holds",
}


def effect_text(e: Event) -> str:
    """``"  KAS-1: move +2 until the end of the turning point"`` for a stat change or a
    weapon rule gained through an effect (2.1, 7.1); other effects are not narrated."""
    who = e["op"] or f"{e['player']}'s operatives"
    until = _UNTIL.get(e["until"], e["until"])
    if e["effect"] in ("apl", "move", "hit", "save"):
        stat = "APL" if e["effect"] == "apl" else e["effect"].title()
        return f"  {who}: {stat} {e['value']:+d} {until}"
    if e["effect"] == "weapon_rule":
        kind, _, rule = e["detail"].partition("|")[0].partition(":")
        weapons = f"{kind} weapons" if kind else "weapons"
        return f"  {who}: {weapons} gain {rule} {until}"
    return ""


_TEMPLATES: dict[str, Any] = {
    "battle_started": lambda e: f"Battle on {e['killzone']}: {e['team_a']} (A) v {e['team_b']} (B)",
    "roll_off": lambda e: f"Roll-off ({e['purpose']}): A {e['a']}, B {e['b']}",
    "initiative_card": lambda e: f"{e['player']} plays initiative card {e['card']}",
    "initiative_decided": lambda e: f"{e['player']} has initiative",
    "drop_zone_chosen": lambda e: drop_zone_text(e),
    "deployed": lambda e: f"{e['op']} set up at ({e['x']:g}, {e['y']:g})",
    "turning_point_started": lambda e: f"=== Turning point {e['tp']} ===",
    "cp_gained": lambda e: f"{e['player']} gains {e['cp']}CP (now {e['total']}CP)",
    "cp_spent": lambda e: f"{e['player']} spends {e['cp']}CP on {e['ploy']}",
    "passed": lambda e: f"{e['player']} passes ({e['step']})",
    "equipment_lost": lambda e: f"  {e['name']} is lost (it cannot be set up again)",
    "barricade_moved": lambda e: f"  {e['name']} set up again at ({e['x']:g}, {e['y']:g})",
    "ploy_used": lambda e: "" if e.get("cp") else f"{e['player']} uses {e['ploy']}",
    "effect_began": lambda e: effect_text(e),
    "rule_action": lambda e: f"{e['op']} performs {e['action']}",
    "free_action_granted": lambda e: f"{e['op']} may perform a free {' or '.join(e['actions'])}",
    "equipment_selected": lambda e: (
        f"{e['player']} takes {', '.join(e['items']) or 'no equipment'}"
    ),
    "equipment_set_up": lambda e: (
        f"{e['player']} sets up {e['item']} at ({e['x']:g}, {e['y']:g})"
        + (f" turned {e['angle']}" if e.get("angle") else "")
    ),
    "rule_used": lambda e: f"{e['player']} uses {e['rule']}",
    "rule_not_played": lambda e: (
        f"Not played{' for ' + e['player'] if e['player'] else ''}: {e['rule']} - {e['why']}"
    ),
    "ammo_cache_used": lambda e: f"  {e['marker']} is used this turning point",
    "mines_triggered": lambda e: f"  {e['op']} sets off {e['marker']}",
    "mines_damage": lambda e: (
        f"  {e['marker']}: D3 {e['d3']} (rolled {e['d6']}) + 3 = {e['damage']} damage"
    ),
    "equipment_used": lambda e: f"{e['player']} uses {e['item']} ({e['why']})",
    "equipment_inert": lambda e: f"{e['player']}: {e['why']}",
    "activated": lambda e: f"{e['op']} activates ({e['order']}, {e['ap']}AP)",
    "counteracted": lambda e: f"{e['op']} counteracts",
    "activation_ended": lambda e: "",
    "moved": lambda e: (
        f"{e['op']} {MOVE_WORDS.get(e['action'], e['action'])} to ({e['x']:g}, {e['y']:g})"
        + (f' at {e["z"]:g}"' if e["z"] else "")
        + f' ({round(e["cost"], 1):g}")'
    ),
    "overwatch_declared": lambda e: f"{e['op']} overwatches (BS 1 worse)",
    "shoot_declared": lambda e: f"{e['op']} shoots {e['target']} with {e['weapon']}",
    "fight_declared": lambda e: f"{e['op']} fights {e['target']} with {e['weapon']}",
    "retaliation_weapon": lambda e: f"{e['op']} retaliates with {e['weapon']}",
    "dice_rolled": lambda e: f"  {e['player']} rolls {e['label']}: {_dice(e['values'])}",
    "dice_rerolled": lambda e: f"  {e['player']} re-rolls {_dice(e['old'])} -> {_dice(e['new'])}",
    "attack_retained": lambda e: (
        f"  {e['op']} retains {e['normals']} normal, {e['crits']} crit"
        + (" (obscured)" if e.get("obscured") else "")
    ),
    "saves_retained": lambda e: (
        f"  {e['op']} saves {e['normals']} normal, {e['crits']} crit"
        + (f" ({e['cover']} cover)" if e.get("cover") else "")
    ),
    "strike": lambda e: f"  {e['op']} strikes with a {e['die']} success",
    "block": lambda e: (
        f"  {e['op']} blocks a {e['blocked']} success with a {e['die']}"
        if e["blocked"] != "nothing"
        else f"  {e['op']} discards a {e['die']} success (nothing left to block)"
    ),
    "damage_inflicted": lambda e: (
        f"  {e['op']} takes {e['damage']} damage ({e['source']}), {max(0, e['wounds'])}W left"
    ),
    "operative_injured": lambda e: f"  {e['op']} is injured ({e['wounds']}W left)",
    "operative_incapacitated": lambda e: f"  {e['op']} is incapacitated",
    "assisted": lambda e: f"  {assist_text(e)}",
    "die_upgraded": lambda e: f"  {e['op']}: {upgrade_text(e)}",
    "hot_roll": lambda e: f"  {e['op']} ({e['weapon']}): {hot_text(e)}",
    "operative_removed": lambda e: "",
    "marker_picked_up": lambda e: f"{e['op']} picks up marker {e['marker']}",
    "marker_placed": lambda e: f"{e['op']} places marker {e['marker']} at ({e['x']:g}, {e['y']:g})",
    "hatch_operated": lambda e: f"{e['op']} {'opens' if e['open'] else 'closes'} {e['hatch']}",
    "guard": lambda e: f"{e['op']} goes on guard",
    "action_refused": lambda e: f"{e['op']}: {e['action']} is refused now ({e['why']})",
    "guard_ended": lambda e: guard_ended_text(e),
    "interrupt": lambda e: f"{e['op']} interrupts from On Guard",
    "stunned": lambda e: f"  {e['op']} is stunned (APL -1)",
    "stun_test": lambda e: (
        f"  {e['op']} stun test: {e['roll']} ({'stunned' if e['stunned'] else 'no effect'})"
    ),
    "smoke_placed": lambda e: (
        f"{e['op']} places smoke marker {e['marker']} at ({e['x']:g}, {e['y']:g})"
        + (f' at {e["z"]:g}"' if e["z"] else "")
    ),
    "smoke_duration": lambda e: f"  {e['marker']} lasts {e['activations']} activation(s)",
    "smoke_removed": lambda e: f"{e['marker']} is removed ({e['why']})",
    "grenade_used": lambda e: f"  {e['player']} has {e['left']} {e['grenade']} grenade(s) left",
    "vp_scored": lambda e: f"{e['player']} scores {e['vp']}VP ({e['why']})",
    "vp_lost": lambda e: f"{e['player']} loses {e['vp']}VP ({e['why']})",
    "kill_grade": lambda e: f"{e['player']} reaches kill grade {e['grade']}",
    "turning_point_ended": lambda e: (
        f"--- End of turning point {e['tp']}: VP A {e['vp'][0]}, B {e['vp'][1]}"
    ),
    "battle_ended": lambda e: (
        f"Battle over: A {e['vp'][0]}VP, B {e['vp'][1]}VP - "
        + (f"{e['winner']} wins" if e["winner"] else "draw")
        + (f" a {e['victory']} victory" if e.get("victory") in ("major", "minor") else "")
    ),
}


def add_template(kind: str, fn: Callable[[Event], str]) -> None:
    """Let a rule module narrate its own event ``kind`` (an
    :class:`~engine.game.vocabulary.EventKind`): ``fn(event)`` returns a line (``""`` for
    none). A module registers its templates at import (the core names no op or team).

    Raises:
        UndeclaredNameError: ``kind`` is not a declared event kind (a ``ValueError``).
        ValueError: ``kind`` already has a different template.
    """
    check(EVENT_KINDS, kind)
    kind = str.__str__(kind)
    known = _TEMPLATES.get(kind)
    if known is not None and known is not fn:
        raise ValueError(f"event {kind!r} already has a narration template")
    _TEMPLATES[kind] = fn


def narrate(event: Event) -> str:
    """A line of narration for ``event`` (``""`` when it is not worth a line)."""
    fn = _TEMPLATES.get(event.kind)
    if fn is None:
        return ""
    return str(fn(event))
