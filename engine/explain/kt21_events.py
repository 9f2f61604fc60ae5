"""``event N`` under KT21: the section of ``rules/KT21.md`` and the source of every event kind
a KT21 battle emits (:data:`KT21_EVENT_RULES`), refined by the event's data as for KT24
(:func:`engine.explain.events.explain_event`).

A declared kind no KT21 rule emits (a KT24 team's, equipment's or op's) keeps its KT24
entry, named as such (:func:`kt21_event_rule`): every declared kind has a section and a
source under either ruleset (a test checks it, and that every kind the KT21 rule modules,
the KT21 mission and a few KT21 battles emit has its KT21 section here).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.explain.events import EVENT_RULES, explain_event
from engine.explain.ruling import Ruling
from engine.game.events import Event

__all__ = ["KT21_EVENT_RULES", "explain_event21", "kt21_event_rule"]

_K = "rules/KT21.md "

#: Event kind -> (section of ``rules/KT21.md``, source: one of
#: :data:`engine.explain.ruling.SOURCES`), for the kinds a KT21 battle emits.
KT21_EVENT_RULES: dict[str, tuple[str, str]] = {
    "activated": (_K + "3.1", "core"),
    "activation_ended": (_K + "3.1", "core"),
    "assisted": (_K + "11 step 3", "core"),
    "attack_retained": (_K + "10.1 step 3, 11 step 3", "core"),
    "battle_ended": (_K + "1.1", "core"),
    "battle_ending": (_K + "1.1, 15.2", "core"),
    "block": (_K + "11 step 4", "core"),
    "conditional_modifier": (_K + "4.2, 16.9", "rule"),
    "cp_gained": (_K + "1.2 step 4, 2.2", "core"),
    "cp_spent": (_K + "14", "ploy"),
    "damage_inflicted": (_K + "4.4", "core"),
    "die_damage_ignored": (_K + "10.1, 11, 16.23", "rule"),
    "deployed": (_K + "1.2 step 8", "core"),
    "dice_rerolled": (_K + "4.3, 12, 14", "core"),
    "dice_rolled": (_K + "4.3", "core"),
    "drop_zone_chosen": (_K + "1.2 step 3", "core"),
    "effect_began": (_K + "4.2, 14", "core"),
    "equipment_selected": (_K + "1.2 step 6", "equipment"),
    "equipment_set_up": (_K + "1.2 steps 7 and 9, 9", "core"),
    "fight_declared": (_K + "11 step 1", "core"),
    "fight_ended": (_K + "11", "core"),
    "fight_started": (_K + "11", "core"),
    "free_action_ended": (_K + "6.2", "core"),
    "free_action_granted": (_K + "6.2", "core"),
    "guard": (_K + "13", "core"),
    "guard_ended": (_K + "13", "core"),
    "hatch_operated": (_K + "13, 16.35", "core"),
    "initiative_decided": (_K + "2.1", "core"),
    "interrupt": (_K + "13, 16.32, 16.35", "core"),
    "jump_test": (_K + "7.4", "core"),
    "marker_looted": (_K + "15.3", "mission"),
    "marker_picked_up": (_K + "15.1", "core"),
    "marker_placed": (_K + "15.1", "core"),
    "mission_action": (_K + "15.3", "mission"),
    "moved": (_K + "6.1, 7.3", "core"),
    "objective_markers_set_up": (_K + "1.2 step 2, 15.1", "mission"),
    "operative_incapacitated": (_K + "4.4", "core"),
    "operative_injured": (_K + "4.4", "core"),
    "operative_removed": (_K + "4.4", "core"),
    "order_changed": (_K + "5", "core"),
    "overwatch_declared": (_K + "3.5", "core"),
    "passed": (_K + "2.2, 3.3, 6.1", "core"),
    "ploy_used": (_K + "14", "ploy"),
    "ready_step": (_K + "2.1", "core"),
    "retaliation_weapon": (_K + "11 step 2", "core"),
    "roles_decided": (_K + "1.2 step 3", "core"),
    "roll_off": (_K + "1.2, 2.1, 4.3", "core"),
    "rule_action": (_K + "6.1, 6.2", "core"),
    "rule_not_played": (_K + "1.2, 18", "core"),
    "rule_used": (_K + "1.2 step 9", "rule"),
    "saves_retained": (_K + "10.1 step 4, 10.2", "core"),
    "shoot_declared": (_K + "10.1 step 1", "core"),
    "shoot_ended": (_K + "10.1", "core"),
    "shoot_started": (_K + "10.1", "core"),
    "strike": (_K + "11 step 4", "core"),
    "stunned": (_K + "12 Stun", "weapon rule"),
    "tac_op_selected": (_K + "1.2 step 5, 15.3", "mission"),
    "tac_op_unimplemented": (_K + "15.3", "mission"),
    "turning_point_ended": (_K + "2", "core"),
    "turning_point_ending": (_K + "2, 15.2", "core"),
    "turning_point_started": (_K + "2", "core"),
    "vp_lost": (_K + "15.2", "mission"),
    "vp_scored": (_K + "15.2", "mission"),
    "wounds_regained": (_K + "4.4", "core"),
}


def kt21_event_rule(kind: str) -> tuple[str, str]:
    """``(section, source)`` of the event kind ``kind`` in a KT21 battle: its
    :data:`KT21_EVENT_RULES` entry, else its KT24 entry named as a KT24 rule (``"a KT24
    rule: rules/KT24.md 7.2"``), else ``("", "core")``."""
    found = KT21_EVENT_RULES.get(kind)
    if found is not None:
        return found
    section, source = EVENT_RULES.get(kind, ("", "core"))
    if not section:
        return section, source
    return (section if "KT21" in section else f"a KT24 rule: rules/KT24.md {section}"), source


def explain_event21(
    events: Sequence[Event], words: tuple[str, ...], text: str, where: str = ""
) -> Ruling:
    """The ruling of ``event N`` in a KT21 battle (module docstring).

    Raises:
        QueryError: N is past the last event (names N and how many there are)."""
    return explain_event(events, words, text, where, rule_of=kt21_event_rule)
