"""``event N``: why an event happened: the rule section and the source of every event kind
(:data:`EVENT_RULES`, one table for the whole vocabulary of
:class:`engine.game.vocabulary.EventKind`; a test checks every declared kind has an entry and
that its section is the one the kind's contract names), refined by the event's own data where
it names its source (a ploy, a weapon, an item of equipment, a rule, a mission op). Events
are not changed: records and pinned battles stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.explain.ruling import QueryError, Ruling, Step
from engine.game.events import Event, narrate
from engine.game.vocabulary import EventKind

__all__ = ["EVENT_RULES", "explain_event", "kt24_event_rule"]

#: Event kind -> (section of ``rules/KT24.md``, source: one of
#: :data:`engine.explain.ruling.SOURCES`). The sections are the kinds' contracts' own.
EVENT_RULES: dict[str, tuple[str, str]] = {
    "action_ended": ("1.5, 3.1", "core"),
    "action_refused": ("7.1", "ploy"),
    "activated": ("1.5", "core"),
    "activation_ended": ("1.5, 1.6, 9.3", "core"),
    "ammo_cache_used": ("7.2", "equipment"),
    "assisted": ("5.2 step 2", "core"),
    "astartes_extra_ap": ("team rules (teams/astartes.py)", "team rule"),
    "attack_dice_resolved": ("5.1, 5.2", "core"),
    "attack_retained": ("5.1 step 4, 5.2 step 3", "core"),
    "auspex_scan_ended": ("team rules (teams/kasrkin)", "team rule"),
    "banner_planted": ("8.4", "mission"),
    "barricade_moved": ("7.2", "equipment"),
    "battle_ended": ("1.8", "core"),
    "battle_ending": ("1.8, 8", "core"),
    "battle_started": ("1.2", "core"),
    "block": ("5.2 step 4", "core"),
    "claim_staked": ("8.3", "mission"),
    "clearance_sweep_placed": ("team rules (teams/kasrkin)", "team rule"),
    "combat_doctrine_selected": ("team rules (teams/angels_of_death)", "team rule"),
    "conditional_modifier": ("rules/KT21.md 16.9", "rule"),
    "counteracted": ("1.6", "core"),
    "cp_gained": ("1.4, 7.1", "core"),
    "cp_spent": ("7.1", "ploy"),
    "crit_op_chosen": ("8.3", "mission"),
    "crits_retained": ("5.1, 5.2, 6", "core"),
    "damage_inflicted": ("2.3", "core"),
    "die_damage_ignored": ("rules/KT21.md 16.23", "rule"),
    "data_compiled": ("8.3", "mission"),
    "data_sent": ("8.3", "mission"),
    "deployed": ("1.2", "core"),
    "device_planted": ("8.4", "mission"),
    "dice_rerolled": ("2.4", "core"),
    "dice_rolled": ("2.4", "core"),
    "die_upgraded": ("6", "weapon rule"),
    "dominate_token": ("8.4", "mission"),
    "dominate_token_removed": ("8.4", "mission"),
    "drop_zone_chosen": ("1.2", "core"),
    "effect_began": ("2.1, 7.1", "core"),
    "envoy_selected": ("8.4", "mission"),
    "equipment_inert": ("7.2", "equipment"),
    "equipment_lost": ("7.2", "equipment"),
    "equipment_selected": ("7.2", "equipment"),
    "equipment_set_up": ("7.2", "equipment"),
    "equipment_used": ("7.2", "equipment"),
    "fight_declared": ("5.2 step 1", "core"),
    "fight_ended": ("5.2", "core"),
    "fight_started": ("5.2", "core"),
    "free_action_ended": ("3.1", "core"),
    "free_action_granted": ("3.1", "core"),
    "grenade_used": ("7.2", "equipment"),
    "group_activation": ("team rules (teams/pathfinders)", "team rule"),
    "guard": ("9.3", "core"),
    "guard_ended": ("9.3", "core"),
    "hatch_operated": ("9.3", "core"),
    "heroic_leader_used": ("team rules (teams/angels_of_death)", "team rule"),
    "hot_roll": ("6 Hot", "weapon rule"),
    "initiative_card": ("1.4", "core"),
    "initiative_decided": ("1.4", "core"),
    "interrupt": ("9.3", "core"),
    "iron_halo_used": ("team rules (teams/angels_of_death)", "team rule"),
    "jump_test": ("KT21 7.4", "core"),
    "kill_grade": ("8.2", "mission"),
    "marker_cleared": ("8.4", "mission"),
    "marker_downloaded": ("8.3", "mission"),
    "marker_looted": ("8.3", "mission"),
    "marker_picked_up": ("3.2, 4.8", "core"),
    "marker_placed": ("3.2, 4.8", "core"),
    "marker_rebooted": ("8.3", "mission"),
    "marker_searched": ("8.4", "mission"),
    "marker_secured": ("8.3", "mission"),
    "markerlight_performed": ("team rules (teams/pathfinders)", "team rule"),
    "markerlights_changed": ("team rules (teams/pathfinders)", "team rule"),
    "martyr_token": ("8.4", "mission"),
    "martyr_token_removed": ("8.4", "mission"),
    "medic_used": ("team rules (engine/rules/medic.py)", "team rule"),
    "melta_mine_damage": ("team rules (teams/kasrkin)", "team rule"),
    "melta_mine_removed": ("team rules (teams/kasrkin)", "team rule"),
    "melta_mine_stopped": ("team rules (teams/kasrkin)", "team rule"),
    "melta_mine_triggered": ("team rules (teams/kasrkin)", "team rule"),
    "mines_damage": ("7.2 Mines", "equipment"),
    "mines_triggered": ("7.2 Mines", "equipment"),
    "mission_action": ("8.3, 8.4", "mission"),
    "mission_marker_placed": ("8.3, 8.4", "mission"),
    "moved": ("3.2, 3.3", "core"),
    "operative_incapacitated": ("2.3", "core"),
    "operative_injured": ("2.3", "core"),
    "objective_markers_set_up": ("KT21 1.2, 15.1", "mission"),
    "operative_monitored": ("8.4", "mission"),
    "operative_reanimated": ("team rules (teams/hierotek_circle)", "team rule"),
    "operative_removed": ("2.3", "core"),
    "operative_set_up": ("team rules (teams/hierotek_circle)", "team rule"),
    "orb_moved": ("8.3", "mission"),
    "order_changed": ("1.5, 9.3", "core"),
    "passed": ("1.4, 1.5, 9.3", "core"),
    "overwatch_declared": ("rules/KT21.md 3.5", "core"),
    "pathfinders_medic_used": ("team rules (teams/pathfinders)", "team rule"),
    "photon_grenade": ("team rules (teams/pathfinders)", "team rule"),
    "ploy_used": ("7.1", "ploy"),
    "primary_op_revealed": ("8.1", "mission"),
    "primary_op_selected": ("8.1", "mission"),
    "pulse_accelerator": ("team rules (teams/pathfinders)", "team rule"),
    "ready_step": ("1.4", "core"),
    "reanimation_marker_placed": ("team rules (teams/hierotek_circle)", "team rule"),
    "reanimation_roll": ("team rules (teams/hierotek_circle)", "team rule"),
    "reboot_picked": ("8.3", "mission"),
    "reboot_picks_revealed": ("8.3", "mission"),
    "recon_sweep": ("team rules (teams/pathfinders)", "team rule"),
    "resolve_step_started": ("5.1 step 5, 5.2 step 4", "core"),
    "retaliation_weapon": ("5.2 step 1", "core"),
    "roles_decided": ("rules/KT21.md 1.2", "core"),
    "roll_off": ("1.2, 1.4, 2.4", "core"),
    "rule_action": ("3.1", "core"),
    "rule_not_played": ("rules/KT21.md 1.2", "core"),
    "rule_used": ("7.2", "rule"),
    "saves_retained": ("5.1 step 4", "core"),
    "saviour_protocols": ("team rules (teams/pathfinders)", "team rule"),
    "shield_generator": ("team rules (teams/pathfinders)", "team rule"),
    "shoot_declared": ("5.1 step 1-2", "core"),
    "shoot_ended": ("5.1", "core"),
    "shoot_started": ("5.1", "core"),
    "smoke_duration": ("7.2 Smoke Grenade", "equipment"),
    "smoke_placed": ("7.2 Smoke Grenade", "equipment"),
    "smoke_removed": ("7.2 Smoke Grenade", "equipment"),
    "strike": ("5.2 step 4", "core"),
    "stun_test": ("7.2 Stun Grenade", "equipment"),
    "stunned": ("6 Stun, 7.2", "weapon rule"),
    "swept_token": ("8.4", "mission"),
    "tac_op_revealed": ("8.4", "mission"),
    "tac_op_selected": ("8.4", "mission"),
    "tac_op_unimplemented": ("KT21 15.3", "mission"),
    "team_rule_selected": ("team rules (teams/legionaries)", "team rule"),
    "team_rule_used": ("team rules (teams/hierotek_circle)", "team rule"),
    "token_gained": ("team rules (teams/hierotek_circle)", "team rule"),
    "transmission_initiated": ("8.3", "mission"),
    "turning_point_ended": ("1.3", "core"),
    "turning_point_ending": ("1.3, 8", "core"),
    "turning_point_started": ("1.3", "core"),
    "veteran_used": ("team rules (teams/pathfinders)", "team rule"),
    "vp_lost": ("8", "mission"),
    "vp_scored": ("8", "mission"),
    "weapon_augmented": ("team rules (teams/hierotek_circle)", "team rule"),
    "wounds_regained": ("2.3", "core"),
}


def _kt18_event_rules() -> dict[str, tuple[str, str]]:
    """The KT18 event kinds (``kt18_...``): the section of ``rules/KT18.md`` each contract
    names after its ``Rules:``; Covert War's (section 9) come from the mission, the rest from
    the KT18 core rules. (``killteam explain`` refuses KT18 battles; the entries keep the one
    table whole.)"""
    table: dict[str, tuple[str, str]] = {}
    for kind in EventKind:
        if kind.value.startswith("kt18_"):
            section = kind.contract.rsplit("Rules: ", 1)[-1].rstrip(". ")
            mission = section.startswith("rules/KT18.md 9.")
            table[kind.value] = (section, "mission" if mission else "core")
    return table


EVENT_RULES.update(_kt18_event_rules())

#: Event data keys that name where an event came from: key -> (source, how to say it).
_REFINE = (
    ("ploy", "ploy", "the ploy {}"),
    ("item", "equipment", "the equipment {}"),
    ("mission_op", "mission", "the op {}"),
    ("rule", "rule", "the rule {}"),
    ("weapon", "", "with the weapon {}"),
    ("source", "", "from {}"),
    ("why", "", "because {}"),
    ("by", "", "by {}"),
)


def _team_rule(section: str) -> str:
    """``"team rules (teams/kasrkin)"`` -> ``"teams/kasrkin"``."""
    return section[section.find("(") + 1 : -1] if "(" in section else ""


def kt24_event_rule(kind: str) -> tuple[str, str]:
    """``(section of rules/KT24.md, source)`` of the event kind ``kind``
    (:data:`EVENT_RULES`; ``("", "core")`` for a kind it does not list)."""
    return EVENT_RULES.get(kind, ("", "core"))


def explain_event(
    events: Sequence[Event],
    words: tuple[str, ...],
    text: str,
    where: str = "",
    *,
    rule_of: Callable[[str], tuple[str, str]] = kt24_event_rule,
) -> Ruling:
    """The ruling of ``event N`` over ``events`` (numbered from 1, in the order they
    happened; ``where`` says where they come from, for the answer). ``rule_of(kind)`` gives
    a kind's section and source (default KT24's, :func:`kt24_event_rule`; a ruleset's
    explain passes its own, :mod:`engine.explain.kt21_events`).

    Raises:
        QueryError: N is past the last event (names N and how many there are)."""
    n = int(words[0])
    if not 1 <= n <= len(events):
        raise QueryError(
            f"event {n} does not exist: there are {len(events)} events{where and ' ' + where}"
        )
    e = events[n - 1]
    section, source = rule_of(e.kind)
    said = (narrate(e) or e.kind.replace("_", " ")).strip()
    steps = [Step("kind", e.kind, said, section, source)]
    data: dict[str, Any] = {"number": n, "event": e.as_dict(), "rule": section}
    by = _team_rule(section) if source == "team rule" else ""
    for key, src, words_ in _REFINE:
        value = e.get(key)
        if value in (None, "", ()):
            continue
        if src:
            source = src if source in ("core", "rule") or src == "ploy" else source
        steps.append(Step(key, str(value), words_.format(value), section, src or source))
        if key in ("ploy", "item", "rule", "mission_op") and not by:
            by = str(value)
    data["source"] = source
    data["by"] = by
    answer = f"event {n} ({e.kind}): rule {section or 'none'}, source {source}" + (
        f" ({by})" if by else ""
    )
    return Ruling(
        query=text,
        kind="event",
        answer=answer,
        verdict=e.kind,
        steps=tuple(steps),
        data=data,
    )
