# Over 800 lines: one catalogue (a declared name and its contract per entry), not two concepts.
"""The vocabulary of the rules: every name the core and the rule modules use to talk to each
other, declared once with its contract (DESIGN.md "Rulesets": an undeclared name is an error,
never a silent no-op).

- :class:`EventKind`: the kinds of :class:`~engine.game.events.Event` the engine emits
  (:meth:`engine.game.work.Work.emit`) and *did* hooks subscribe to
  (:meth:`engine.game.context.Hooks.on`).
- :class:`Would`: the *would* hooks (:meth:`engine.game.context.Hooks.transform`,
  :meth:`engine.game.work.Work.would`).
- :class:`PloyTrigger`: where ploy windows open (:mod:`engine.game.ploys`,
  :meth:`engine.game.context.Hooks.ploy`, :meth:`engine.game.work.Work.defer_window`).
- :class:`DecisionKind`: the kinds of :class:`~engine.game.state.Decision`
  (:meth:`engine.game.work.Work.decide`).
- :class:`ChanceKind`: the kinds of :class:`~engine.game.state.DiceRequest`
  (:meth:`engine.game.work.Work.roll`).

The members are :class:`enum.StrEnum` values, equal to (and hashing as) their plain names, so a
call site may write ``w.emit("moved", ...)`` or ``w.emit(EventKind.MOVED, ...)``. Each member's
``contract`` (also its ``__doc__``) gives its arguments (the event's data keys or the keywords
passed), for a *would* hook the value transformed (its starting value -> what the hooks
return), when it happens and the section of ``rules/KT24.md`` it implements ("team rules"
for a name only a team's rules use).

Registering (``Hooks.on``, ``Hooks.transform``, ``Hooks.ploy``,
:func:`engine.game.events.add_template`) or firing (``Work.emit``, ``Work.would``,
``Work.decide``, ``Work.roll``, ``Work.defer_window``) an undeclared name raises
:class:`UndeclaredNameError` at once (:func:`check`). A new rule that needs a new name
declares it here first, with its contract.
"""

from __future__ import annotations

import difflib
from enum import StrEnum
from typing import Self

from engine.errors import KillTeamError

__all__ = [
    "CHANCE_KINDS",
    "DECISION_KINDS",
    "EVENT_KINDS",
    "PLOY_TRIGGERS",
    "SECRET_DECISIONS",
    "WOULD_HOOKS",
    "ChanceKind",
    "DecisionKind",
    "EventKind",
    "PloyTrigger",
    "UndeclaredNameError",
    "Would",
    "check",
]


class UndeclaredNameError(KillTeamError, ValueError):
    """A hook, event kind, ploy trigger, decision kind or chance kind that
    :mod:`engine.game.vocabulary` does not declare was registered or fired (the message names
    it and the closest declared names)."""


class _Declared(StrEnum):
    """A declared name: a str equal to its value, with its ``contract`` (module docstring)."""

    _value_: str
    contract: str

    def __new__(cls, value: str, contract: str) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.contract = contract
        member.__doc__ = contract
        return member


class EventKind(_Declared):
    """The kinds of events (:meth:`engine.game.work.Work.emit`), which *did* hooks
    subscribe to (:meth:`engine.game.context.Hooks.on`): each contract names the event's
    data keys, when it is emitted and the rules section."""

    ACTION_ENDED = (
        "action_ended",
        "Data: mode, op. When: an action of ``op`` ended (``mode``: its activation frame's "
        'mode, ``"activation"``, ``"counteract"``, ``"interrupt"``, ``"free"``); emitted only '
        "when a did hook listens. Rules: 1.5, 3.1.",
    )
    ACTION_REFUSED = (
        "action_refused",
        "Data: action, op, why. When: an action declared at the ``action_declared`` window "
        "became illegal (``why``) and was refused, no AP spent. Rules: 7.1.",
    )
    ACTIVATED = (
        "activated",
        "Data: ap, op, order. When: ``op`` was activated (``order``, ``ap`` generated). "
        "Rules: 1.5.",
    )
    ACTIVATION_ENDED = (
        "activation_ended",
        "Data: counteract, interrupt, op. When: ``op``'s activation, counteraction "
        "(``counteract``) or interrupt (``interrupt``) ended. Rules: 1.5, 1.6, 9.3.",
    )
    AMMO_CACHE_USED = (
        "ammo_cache_used",
        "Data: marker, op, player. When: ``op`` of ``player`` used the Ammo Cache ``marker`` "
        "this turning point. Rules: 7.2.",
    )
    ASSISTED = (
        "assisted",
        "Data: by, improvement, op, target. When: friendly operatives ``by`` assisted ``op`` "
        "fighting ``target``: Hit improved by ``improvement``. Rules: 5.2 step 2.",
    )
    ASTARTES_EXTRA_AP = (
        "astartes_extra_ap",
        "Data: op, weapon. When: an Astartes operative ``op`` paid 1AP more to use ``weapon`` "
        "again in its activation (team rule Astartes). Rules: team rules (teams/astartes.py).",
    )
    ATTACK_DICE_RESOLVED = (
        "attack_dice_resolved",
        "Data: crits, normals, op, target, weapon, weapon_kind. When: ``op``'s attack dice "
        "with ``weapon`` (``weapon_kind``) against ``target`` were resolved: ``normals``, "
        "``crits`` retained. Rules: 5.1, 5.2.",
    )
    ATTACK_RETAINED = (
        "attack_retained",
        "Data: crits, normals, obscured, op, target. When: ``op`` retained ``normals`` and "
        "``crits`` attack dice against ``target`` (``obscured``). Rules: 5.1 step 4, 5.2 step "
        "3.",
    )
    AUSPEX_SCAN_ENDED = (
        "auspex_scan_ended",
        "Data: op. When: the Auspex Scan of ``op`` ended (Kasrkin). Rules: team rules "
        "(teams/kasrkin).",
    )
    BANNER_PLANTED = (
        "banner_planted",
        "Data: marker, op, player, x, y, z. When: ``op`` of ``player`` planted the banner "
        "``marker`` at ``x``, ``y``, ``z`` (tac op Plant Banner). Rules: 8.4.",
    )
    BARRICADE_MOVED = (
        "barricade_moved",
        "Data: name, op, x, y. When: ``op`` set the barricade ``name`` up again at ``x``, "
        "``y``. Rules: 7.2.",
    )
    BATTLE_ENDED = (
        "battle_ended",
        'Data: victory, vp, winner. When: the battle ended: ``vp`` (A, B), ``winner`` (``""`` '
        'a draw); ``victory`` (KT18 only: ``"major"``, ``"minor"`` or ``"draw"``, '
        "rules/KT18.md 9.6). Rules: 1.8.",
    )
    BATTLE_ENDING = (
        "battle_ending",
        "Data: none. When: the battle is about to end (after the last turning point): ops "
        "score here. Rules: 1.8, 8.",
    )
    BATTLE_STARTED = (
        "battle_started",
        "Data: killzone, team_a, team_b. When: the battle began on ``killzone`` between "
        "``team_a`` and ``team_b``. Rules: 1.2.",
    )
    BLOCK = (
        "block",
        "Data: blocked, die, op. When: ``op`` blocked a ``blocked`` success with a ``die`` "
        'success (``"nothing"``: discarded). Rules: 5.2 step 4.',
    )
    CLAIM_STAKED = (
        "claim_staked",
        "Data: claim, marker, player, tp. When: ``player`` staked ``claim`` on ``marker`` in "
        "turning point ``tp`` (crit op Stake Claim). Rules: 8.3.",
    )
    CLEARANCE_SWEEP_PLACED = (
        "clearance_sweep_placed",
        "Data: player, x, y. When: ``player`` placed a Clearance Sweep marker at ``x``, ``y`` "
        "(Kasrkin ploy). Rules: team rules (teams/kasrkin).",
    )
    COMBAT_DOCTRINE_SELECTED = (
        "combat_doctrine_selected",
        "Data: doctrine, player, ploy. When: ``player`` selected the combat ``doctrine`` "
        "(through ``ploy``; Angels of Death). Rules: team rules (teams/angels_of_death).",
    )
    COUNTERACTED = (
        "counteracted",
        "Data: op. When: ``op`` began a counteraction. Rules: 1.6.",
    )
    CP_GAINED = (
        "cp_gained",
        "Data: cp, player, total. When: ``player`` gained ``cp`` CP (``total`` now). Rules: "
        "1.4, 7.1.",
    )
    CP_SPENT = (
        "cp_spent",
        "Data: cp, player, ploy. When: ``player`` spent ``cp`` CP on ``ploy``. Rules: 7.1.",
    )
    CRIT_OP_CHOSEN = (
        "crit_op_chosen",
        "Data: op, roll. When: the crit op ``op`` was chosen (``roll``: the two dice rolled, "
        "``()`` when fixed by the options). Rules: 8.3.",
    )
    CRITS_RETAINED = (
        "crits_retained",
        "Data: assist, crits, op, point_blank, target, weapon, weapon_kind. When: ``op`` "
        "retained ``crits`` critical successes with ``weapon`` (``weapon_kind``) against "
        "``target`` (``assist``, ``point_blank``): weapon rules that act on crits listen. "
        "Rules: 5.1, 5.2, 6.",
    )
    DAMAGE_INFLICTED = (
        "damage_inflicted",
        "Data: by, damage, op, source, wounds. When: ``op`` took ``damage`` from ``source`` "
        "(by ``by``), ``wounds`` left. Rules: 2.3.",
    )
    DATA_COMPILED = (
        "data_compiled",
        "Data: marker, op, player, points. When: ``op`` of ``player`` compiled data at "
        "``marker`` (``points``; crit op Data). Rules: 8.3.",
    )
    DATA_SENT = (
        "data_sent",
        "Data: marker, op, player, points. When: ``op`` of ``player`` sent data from "
        "``marker`` (``points``; crit op Data). Rules: 8.3.",
    )
    DEPLOYED = (
        "deployed",
        "Data: op, x, y, z. When: ``op`` was set up at ``x``, ``y``, ``z`` during deployment. "
        "Rules: 1.2.",
    )
    DEVICE_PLANTED = (
        "device_planted",
        "Data: marker, op, player. When: ``op`` of ``player`` planted a device at ``marker`` "
        "(tac op Plant Devices). Rules: 8.4.",
    )
    DICE_REROLLED = (
        "dice_rerolled",
        "Data: new, old, player. When: ``player`` re-rolled the dice ``old`` into ``new``. "
        "Rules: 2.4.",
    )
    DICE_ROLLED = (
        "dice_rolled",
        "Data: label, player, values. When: ``player`` rolled ``values`` (a chance node's "
        "outcome, ``label`` its request's label). Rules: 2.4.",
    )
    DIE_UPGRADED = (
        "die_upgraded",
        "Data: after, before, die, op, rule, target. When: a weapon rule ``rule`` made "
        "``op``'s ``before`` ``die`` an ``after`` against ``target``. Rules: 6.",
    )
    DOMINATE_TOKEN = (
        "dominate_token",
        "Data: op, player, tokens. When: ``op`` of ``player`` gained a Dominate token "
        "(``tokens`` now; tac op Dominate). Rules: 8.4.",
    )
    DOMINATE_TOKEN_REMOVED = (
        "dominate_token_removed",
        "Data: op, player, tokens. When: ``op``'s Dominate tokens were removed (``tokens`` "
        "left). Rules: 8.4.",
    )
    DROP_ZONE_CHOSEN = (
        "drop_zone_chosen",
        "Data: by, edge, player, zone. When: ``player`` got the drop ``zone`` (``edge``; "
        "chosen ``by``). Rules: 1.2.",
    )
    EFFECT_BEGAN = (
        "effect_began",
        "Data: detail, effect, op, player, source, until, value. When: an effect of kind "
        "``effect`` began (``op`` or ``player``, ``until``, ``value``, ``detail``, "
        "``source``; :meth:`engine.game.work.Work.add_effect`). Rules: 2.1, 7.1.",
    )
    ENVOY_SELECTED = (
        "envoy_selected",
        "Data: op, player. When: ``player`` selected ``op`` as its envoy (tac op Envoy). "
        "Rules: 8.4.",
    )
    EQUIPMENT_INERT = (
        "equipment_inert",
        "Data: item, player, why. When: ``player``'s ``item`` has no effect (``why``). Rules: 7.2.",
    )
    EQUIPMENT_LOST = (
        "equipment_lost",
        "Data: item, name, player. When: ``player``'s equipment ``item`` (``name``) is lost. "
        "Rules: 7.2.",
    )
    EQUIPMENT_SELECTED = (
        "equipment_selected",
        "Data: items, player. When: ``player`` selected the equipment ``items``. Rules: 7.2.",
    )
    EQUIPMENT_SET_UP = (
        "equipment_set_up",
        "Data: angle, item, name, player, x, y. When: ``player`` set up ``item`` (``name``) "
        "at ``x``, ``y`` (``angle``). Rules: 7.2.",
    )
    EQUIPMENT_USED = (
        "equipment_used",
        "Data: item, op, player, why. When: ``op`` of ``player`` used ``item`` (``why``). "
        "Rules: 7.2.",
    )
    FIGHT_DECLARED = (
        "fight_declared",
        "Data: op, target, weapon. When: ``op`` declared a Fight against ``target`` with "
        "``weapon``. Rules: 5.2 step 1.",
    )
    FIGHT_ENDED = (
        "fight_ended",
        "Data: op, target. When: ``op``'s Fight against ``target`` ended. Rules: 5.2.",
    )
    FIGHT_STARTED = (
        "fight_started",
        "Data: op, target, weapon. When: ``op``'s Fight against ``target`` with ``weapon`` "
        "began (after the weapons were selected). Rules: 5.2.",
    )
    FREE_ACTION_ENDED = (
        "free_action_ended",
        "Data: op. When: the free action of ``op`` ended. Rules: 3.1.",
    )
    FREE_ACTION_GRANTED = (
        "free_action_granted",
        "Data: actions, op. When: ``op`` may perform one of the free ``actions``. Rules: 3.1.",
    )
    GRENADE_USED = (
        "grenade_used",
        "Data: grenade, left, player. When: ``player`` used a ``grenade`` grenade (``left`` "
        "left). Rules: 7.2.",
    )
    GROUP_ACTIVATION = (
        "group_activation",
        "Data: after, op. When: ``op`` was activated through Group Activation after ``after`` "
        "(Pathfinders). Rules: team rules (teams/pathfinders).",
    )
    GUARD = (
        "guard",
        "Data: op. When: ``op`` went on guard. Rules: 9.3.",
    )
    GUARD_ENDED = (
        "guard_ended",
        "Data: enemy, op, why. When: ``op`` is no longer on guard (``why``; ``enemy``). "
        "Rules: 9.3.",
    )
    HATCH_OPERATED = (
        "hatch_operated",
        "Data: hatch, op, open. When: ``op`` opened (``open``) or closed ``hatch``. Rules: 9.3.",
    )
    HEROIC_LEADER_USED = (
        "heroic_leader_used",
        "Data: player. When: ``player`` used Heroic Leader (Angels of Death). Rules: team "
        "rules (teams/angels_of_death).",
    )
    HOT_ROLL = (
        "hot_roll",
        "Data: damage, hit, op, roll, weapon. When: ``op``'s Hot roll ``roll`` for ``weapon`` "
        "against Hit ``hit``: ``damage``. Rules: 6 Hot.",
    )
    INITIATIVE_CARD = (
        "initiative_card",
        "Data: card, player. When: ``player`` played the initiative ``card``. Rules: 1.4.",
    )
    INITIATIVE_DECIDED = (
        "initiative_decided",
        "Data: player, tp. When: ``player`` has initiative in turning point ``tp``. Rules: 1.4.",
    )
    INTERRUPT = (
        "interrupt",
        "Data: op. When: ``op`` interrupts from On Guard. Rules: 9.3.",
    )
    IRON_HALO_USED = (
        "iron_halo_used",
        "Data: damage, op. When: ``op``'s Iron Halo ignored ``damage`` (Angels of Death). "
        "Rules: team rules (teams/angels_of_death).",
    )
    JUMP_TEST = (
        "jump_test",
        "Data: op, passed, roll. When: ``op``'s jump test rolled ``roll`` (``passed`` on a 2+; "
        "on a 1 the operative stays where it was and its move action ends). Rules: KT21 7.4.",
    )
    KILL_GRADE = (
        "kill_grade",
        "Data: grade, player. When: ``player`` reached kill ``grade``. Rules: 8.2.",
    )
    MARKER_CLEARED = (
        "marker_cleared",
        "Data: marker, player. When: ``player`` cleared ``marker`` (tac op Sweep and Clear). "
        "Rules: 8.4.",
    )
    MARKER_DOWNLOADED = (
        "marker_downloaded",
        "Data: marker, op, player. When: ``op`` of ``player`` downloaded ``marker`` (crit op "
        "Download). Rules: 8.3.",
    )
    MARKER_LOOTED = (
        "marker_looted",
        "Data: marker, op, player. When: ``op`` of ``player`` looted ``marker`` (crit op "
        "Loot). Rules: 8.3.",
    )
    MARKER_PICKED_UP = (
        "marker_picked_up",
        "Data: marker, op. When: ``op`` picked up ``marker``. Rules: 3.2, 4.8.",
    )
    MARKER_PLACED = (
        "marker_placed",
        "Data: marker, op, x, y. When: ``op`` placed ``marker`` at ``x``, ``y``. Rules: 3.2, 4.8.",
    )
    MARKER_REBOOTED = (
        "marker_rebooted",
        "Data: marker, op, player. When: ``op`` of ``player`` rebooted ``marker`` (crit op "
        "Reboot). Rules: 8.3.",
    )
    MARKER_SEARCHED = (
        "marker_searched",
        "Data: marker, op, player. When: ``op`` of ``player`` searched ``marker`` (tac op "
        "Retrieval). Rules: 8.4.",
    )
    MARKER_SECURED = (
        "marker_secured",
        "Data: marker, player. When: ``player`` secured ``marker`` (crit op Secure). Rules: 8.3.",
    )
    MARKERLIGHT_PERFORMED = (
        "markerlight_performed",
        "Data: gained, mode, op, target. When: ``op`` used its Markerlight on ``target`` "
        "(``mode``; ``gained`` tokens; Pathfinders). Rules: team rules (teams/pathfinders).",
    )
    MARKERLIGHTS_CHANGED = (
        "markerlights_changed",
        "Data: change, op, player, tokens. When: ``op``'s Markerlight tokens changed by "
        "``change`` (``tokens`` now; of ``player``). Rules: team rules (teams/pathfinders).",
    )
    MARTYR_TOKEN = (
        "martyr_token",
        "Data: marker, op, player, tokens. When: ``op`` of ``player`` gave a Martyrs token at "
        "``marker`` (``tokens`` now; tac op Martyrs). Rules: 8.4.",
    )
    MARTYR_TOKEN_REMOVED = (
        "martyr_token_removed",
        "Data: marker, player, tokens. When: ``player``'s Martyrs tokens at ``marker`` were "
        "removed (``tokens`` left). Rules: 8.4.",
    )
    MEDIC_USED = (
        "medic_used",
        "Data: medic, op, player. When: a Medic! rule (Kasrkin's Combat Medic): ``medic`` of "
        "``player`` kept ``op`` from being incapacitated (:class:`engine.rules.medic.Medic` "
        "``event``). Rules: team rules (engine/rules/medic.py).",
    )
    MELTA_MINE_DAMAGE = (
        "melta_mine_damage",
        "Data: damage, op, values. When: a Melta Mine inflicted ``damage`` on ``op`` "
        "(``values`` rolled; Kasrkin). Rules: team rules (teams/kasrkin).",
    )
    MELTA_MINE_REMOVED = (
        "melta_mine_removed",
        "Data: marker, player. When: ``player``'s Melta Mine ``marker`` was removed "
        "(Kasrkin). Rules: team rules (teams/kasrkin).",
    )
    MELTA_MINE_STOPPED = (
        "melta_mine_stopped",
        "Data: op, x, y. When: ``op``'s move stopped at ``x``, ``y`` by a Melta Mine "
        "(Kasrkin). Rules: team rules (teams/kasrkin).",
    )
    MELTA_MINE_TRIGGERED = (
        "melta_mine_triggered",
        "Data: marker, op, player. When: ``op`` set off ``player``'s Melta Mine ``marker`` "
        "(Kasrkin). Rules: team rules (teams/kasrkin).",
    )
    MINES_DAMAGE = (
        "mines_damage",
        "Data: d3, d6, damage, marker, op. When: the Mines ``marker`` inflicted ``damage`` "
        "(D3 ``d3`` from ``d6``) on ``op``. Rules: 7.2 Mines.",
    )
    MINES_TRIGGERED = (
        "mines_triggered",
        "Data: marker, op, player. When: ``op`` set off ``player``'s Mines ``marker``. Rules: "
        "7.2 Mines.",
    )
    MISSION_ACTION = (
        "mission_action",
        "Data: action, marker, mission_op, op, target. When: ``op`` performed the mission "
        "``action`` of ``mission_op`` (``marker``, ``target``). Rules: 8.3, 8.4.",
    )
    MISSION_MARKER_PLACED = (
        "mission_marker_placed",
        "Data: carrier, marker, mission_op, player, x, y. When: ``player`` placed the mission "
        "``marker`` of ``mission_op`` at ``x``, ``y`` (``carrier``). Rules: 8.3, 8.4.",
    )
    MOVED = (
        "moved",
        "Data: action, cost, op, x, x0, y, y0, z, z0. When: ``op`` ended a move ``action`` at "
        "``x``, ``y``, ``z`` from ``x0``, ``y0``, ``z0`` (``cost`` inches). Rules: 3.2, 3.3.",
    )
    OBJECTIVE_MARKERS_SET_UP = (
        "objective_markers_set_up",
        "Data: map, markers. When: the mission set up its objective markers (``markers``: "
        "``(name, x, y)`` in inches) from its ``map`` (KT21 mission). Rules: KT21 1.2, 15.1.",
    )
    OPERATIVE_INCAPACITATED = (
        "operative_incapacitated",
        "Data: by, op, player. When: ``op`` of ``player`` was incapacitated (``by``), before "
        "it is removed. Rules: 2.3.",
    )
    OPERATIVE_INJURED = (
        "operative_injured",
        "Data: by, op, wounds. When: ``op`` became injured (``wounds`` left; ``by``). Rules: 2.3.",
    )
    OPERATIVE_MONITORED = (
        "operative_monitored",
        "Data: by, op, player. When: ``op`` of ``player`` was monitored ``by`` (tac op Scout "
        "Enemy Movement). Rules: 8.4.",
    )
    OPERATIVE_REANIMATED = (
        "operative_reanimated",
        "Data: op, order, player, ready, source, x, y, z. When: ``op`` of ``player`` was "
        "reanimated at ``x``, ``y``, ``z`` (``order``, ``ready``, ``source``; Hierotek "
        "Circle). Rules: team rules (teams/hierotek_circle).",
    )
    OPERATIVE_REMOVED = (
        "operative_removed",
        "Data: op. When: the incapacitated ``op`` was removed from the killzone. Rules: 2.3.",
    )
    OPERATIVE_SET_UP = (
        "operative_set_up",
        "Data: op. When: ``op`` was set up on the killzone during the battle (Hierotek "
        "Circle). Rules: team rules (teams/hierotek_circle).",
    )
    ORB_MOVED = (
        "orb_moved",
        "Data: marker, op, origin, player. When: ``op`` of ``player`` moved the orb "
        "``marker`` from ``origin`` (crit op Orb). Rules: 8.3.",
    )
    ORDER_CHANGED = (
        "order_changed",
        "Data: op, order, why. When: ``op``'s order became ``order`` (``why``). Rules: 1.5, 9.3.",
    )
    PASSED = (
        "passed",
        "Data: player, step. When: ``player`` passed at ``step``. Rules: 1.4, 1.5, 9.3.",
    )
    OVERWATCH_DECLARED = (
        "overwatch_declared",
        "Data: op, target, weapon. When: ``op`` made an Overwatch (KT21: one shooting attack "
        "outside any activation, BS worsened by 1) against ``target`` with ``weapon``; the "
        "shooting attack then runs as a Shoot's (``shoot_started`` ... ``shoot_ended``). "
        "Rules: rules/KT21.md 3.5.",
    )
    PATHFINDERS_MEDIC_USED = (
        "pathfinders_medic_used",
        "Data: medic, op, player. When: the Pathfinders' Medic! rule (Medical Technician): "
        "``medic`` of ``player`` kept ``op`` from being incapacitated "
        "(:class:`engine.rules.medic.Medic` ``event``). Rules: team rules "
        "(teams/pathfinders).",
    )
    PHOTON_GRENADE = (
        "photon_grenade",
        "Data: blinded, op, roll, target. When: ``op``'s Photon Grenade on ``target`` "
        "(``roll``; ``blinded``; Pathfinders). Rules: team rules (teams/pathfinders).",
    )
    PLOY_USED = (
        "ploy_used",
        "Data: cp, player, ploy, ploy_kind, trigger. When: ``player`` used ``ploy`` "
        "(``ploy_kind``) at ``trigger`` for ``cp`` CP. Rules: 7.1.",
    )
    PRIMARY_OP_REVEALED = (
        "primary_op_revealed",
        "Data: bonus, op, player. When: ``player`` revealed its primary ``op`` (``bonus`` "
        "VP). Rules: 8.1.",
    )
    PRIMARY_OP_SELECTED = (
        "primary_op_selected",
        "Data: player. When: ``player`` selected its primary op in secret. Rules: 8.1.",
    )
    PULSE_ACCELERATOR = (
        "pulse_accelerator",
        "Data: op. When: ``op`` used the Pulse Accelerator (Pathfinders). Rules: team rules "
        "(teams/pathfinders).",
    )
    READY_STEP = (
        "ready_step",
        "Data: tp. When: the Ready step of turning point ``tp`` began: rule modules push "
        "their Ready-step frames here. Rules: 1.4.",
    )
    REANIMATION_MARKER_PLACED = (
        "reanimation_marker_placed",
        "Data: op, player, x, y. When: a Reanimation marker of ``player``'s ``op`` was placed "
        "at ``x``, ``y`` (Hierotek Circle). Rules: team rules (teams/hierotek_circle).",
    )
    REANIMATION_ROLL = (
        "reanimation_roll",
        "Data: op, player, roll. When: ``player`` rolled ``roll`` to reanimate ``op`` "
        "(Hierotek Circle; not narrated). Rules: team rules (teams/hierotek_circle).",
    )
    REBOOT_PICKED = (
        "reboot_picked",
        "Data: player. When: ``player`` picked a marker number in secret (crit op Reboot). "
        "Rules: 8.3.",
    )
    REBOOT_PICKS_REVEALED = (
        "reboot_picks_revealed",
        "Data: inert, picks. When: the Reboot ``picks`` were revealed (``inert``). Rules: 8.3.",
    )
    RECON_SWEEP = (
        "recon_sweep",
        "Data: edge, ops, player. When: ``player`` made a Recon Sweep with ``ops`` from "
        "``edge`` (Pathfinders). Rules: team rules (teams/pathfinders).",
    )
    RESOLVE_STEP_STARTED = (
        "resolve_step_started",
        "Data: crits, normals, op, target, weapon, weapon_kind. When: the Resolve Attack Dice "
        "step of ``op``'s attack with ``weapon`` (``weapon_kind``) on ``target`` began "
        "(``normals``, ``crits`` retained). Rules: 5.1 step 5, 5.2 step 4.",
    )
    RETALIATION_WEAPON = (
        "retaliation_weapon",
        "Data: op, weapon. When: ``op`` selected ``weapon`` to retaliate with. Rules: 5.2 step 1.",
    )
    ROLES_DECIDED = (
        "roles_decided",
        "Data: attacker, by, defender. When: the KT21 set-up roll-off winner ``by`` made "
        "``defender`` the Defender and ``attacker`` the Attacker. Rules: rules/KT21.md 1.2.",
    )
    ROLL_OFF = (
        "roll_off",
        "Data: a, b, purpose. When: a roll-off for ``purpose``: A rolled ``a``, B ``b``. "
        "Rules: 1.2, 1.4, 2.4.",
    )
    RULE_ACTION = (
        "rule_action",
        "Data: action, op. When: ``op`` performed the rule ``action``. Rules: 3.1.",
    )
    RULE_USED = (
        "rule_used",
        "Data: player, rule, trigger. When: ``player`` used the rule ``rule`` offered at "
        "``trigger`` (not a ploy). Rules: 7.2.",
    )
    RULE_NOT_PLAYED = (
        "rule_not_played",
        "Data: player, rule, why. When: a step of the rules that the engine does not play yet "
        'was reached (``rule``, for ``player`` or ``""``): reported, never skipped in '
        "silence (``why``). Rules: rules/KT21.md 1.2.",
    )
    SAVES_RETAINED = (
        "saves_retained",
        "Data: cover, crits, normals, op. When: ``op`` retained ``normals`` and ``crits`` "
        "defence dice (``cover``). Rules: 5.1 step 4.",
    )
    SAVIOUR_PROTOCOLS = (
        "saviour_protocols",
        "Data: op, original, shooter. When: ``op`` took the shot meant for ``original`` from "
        "``shooter`` (Pathfinders). Rules: team rules (teams/pathfinders).",
    )
    SHIELD_GENERATOR = (
        "shield_generator",
        "Data: ignored, op. When: ``op``'s Shield Generator ignored ``ignored`` damage "
        "(Pathfinders). Rules: team rules (teams/pathfinders).",
    )
    SHOOT_DECLARED = (
        "shoot_declared",
        "Data: op, point_blank, target, weapon. When: ``op`` declared a Shoot against "
        "``target`` with ``weapon`` (``point_blank``). Rules: 5.1 step 1-2.",
    )
    SHOOT_ENDED = (
        "shoot_ended",
        "Data: op, weapon. When: ``op``'s Shoot with ``weapon`` ended. Rules: 5.1.",
    )
    SHOOT_STARTED = (
        "shoot_started",
        "Data: op, target, weapon. When: ``op``'s Shoot against ``target`` with ``weapon`` "
        "began (its target selected). Rules: 5.1.",
    )
    SMOKE_DURATION = (
        "smoke_duration",
        "Data: activations, marker, roll. When: the smoke ``marker`` lasts ``activations`` "
        "activations (``roll``). Rules: 7.2 Smoke Grenade.",
    )
    SMOKE_PLACED = (
        "smoke_placed",
        "Data: marker, op, x, y, z. When: ``op`` placed the smoke ``marker`` at ``x``, ``y``, "
        "``z``. Rules: 7.2 Smoke Grenade.",
    )
    SMOKE_REMOVED = (
        "smoke_removed",
        "Data: marker, why. When: the smoke ``marker`` was removed (``why``). Rules: 7.2 "
        "Smoke Grenade.",
    )
    STRIKE = (
        "strike",
        "Data: die, op. When: ``op`` struck with a ``die`` success. Rules: 5.2 step 4.",
    )
    STUN_TEST = (
        "stun_test",
        "Data: op, roll, stunned. When: ``op``'s stun test rolled ``roll`` (``stunned``). "
        "Rules: 7.2 Stun Grenade.",
    )
    STUNNED = (
        "stunned",
        "Data: by, op. When: ``op`` was stunned (APL -1) ``by``. Rules: 6 Stun, 7.2.",
    )
    SWEPT_TOKEN = (
        "swept_token",
        "Data: marker, op, player. When: ``op`` of ``player`` swept ``marker`` (tac op Sweep "
        "and Clear). Rules: 8.4.",
    )
    TAC_OP_UNIMPLEMENTED = (
        "tac_op_unimplemented",
        "Data: count, player, why. When: ``count`` of the tac ops ``player`` selected have "
        "no text the engine has (``why``): they never score. Rules: KT21 15.3.",
    )
    TAC_OP_REVEALED = (
        "tac_op_revealed",
        "Data: op, player, why. When: ``player`` revealed its tac ``op`` (``why``). Rules: 8.4.",
    )
    TAC_OP_SELECTED = (
        "tac_op_selected",
        "Data: player. When: ``player`` selected its tac op in secret. Rules: 8.4.",
    )
    TEAM_RULE_SELECTED = (
        "team_rule_selected",
        "Data: on, op, rule. When: ``op`` applied the team ``rule`` to the operative ``on`` "
        "(Legionaries). Rules: team rules (teams/legionaries).",
    )
    TEAM_RULE_USED = (
        "team_rule_used",
        "Data: on, op, rule. When: ``op`` used the team ``rule`` on the operative ``on`` "
        "(Hierotek Circle). Rules: team rules (teams/hierotek_circle).",
    )
    TOKEN_GAINED = (
        "token_gained",
        "Data: by, op, token. When: ``op`` gained ``token`` ``by`` a rule (Hierotek Circle). "
        "Rules: team rules (teams/hierotek_circle).",
    )
    TRANSMISSION_INITIATED = (
        "transmission_initiated",
        "Data: marker, op, player. When: ``op`` of ``player`` initiated a transmission at "
        "``marker`` (crit op Transmission). Rules: 8.3.",
    )
    TURNING_POINT_ENDED = (
        "turning_point_ended",
        "Data: tp, vp. When: turning point ``tp`` ended (``vp``: A, B). Rules: 1.3.",
    )
    TURNING_POINT_ENDING = (
        "turning_point_ending",
        "Data: tp. When: turning point ``tp`` is ending (after the Firefight phase): ops "
        "score here. Rules: 1.3, 8.",
    )
    TURNING_POINT_STARTED = (
        "turning_point_started",
        "Data: tp. When: turning point ``tp`` began. Rules: 1.3.",
    )
    VETERAN_USED = (
        "veteran_used",
        "Data: op, option. When: ``op`` used a Veteran ``option`` (Pathfinders). Rules: team "
        "rules (teams/pathfinders).",
    )
    VP_LOST = (
        "vp_lost",
        "Data: op, player, vp, why. When: ``player`` lost ``vp`` VP (``why``; ``op``). Rules: 8.",
    )
    VP_SCORED = (
        "vp_scored",
        "Data: op, player, vp, why. When: ``player`` scored ``vp`` VP (``why``; ``op``). Rules: 8.",
    )
    WEAPON_AUGMENTED = (
        "weapon_augmented",
        "Data: op, profile, rules, weapon. When: ``op``'s ``weapon`` gained ``rules`` "
        "(``profile``; Hierotek Circle). Rules: team rules (teams/hierotek_circle).",
    )
    WOUNDS_REGAINED = (
        "wounds_regained",
        "Data: by, op, rule, source, wounds. When: ``op`` regained ``wounds`` (``by``, "
        "``rule``, ``source``). Rules: 2.3.",
    )
    DIE_DAMAGE_IGNORED = (
        "die_damage_ignored",
        "Data: added, by, damage, op, roll. When: a rule of ``op`` ignored the ``damage`` of "
        "one of ``by``'s attack dice on a ``roll`` of its x+; the ``added`` damage other rules "
        "gave that die is still inflicted. Rules: rules/KT21.md 16.23.",
    )
    CONDITIONAL_MODIFIER = (
        "conditional_modifier",
        "Data: applies, op, rule, source, value. When: ``op`` was activated and the "
        "condition of ``source``'s ``rule`` (a modifier of ``value`` to a characteristic "
        "if the operative is activated within a distance of ``source``) was checked: "
        "``applies`` says whether it held. Rules: rules/KT21.md 16.9.",
    )
    # KT18
    KT18_STRATEGIC_ADVANTAGE = (
        "kt18_strategic_advantage",
        "Data: a, b, order. When: both players rolled 2D6 for strategic advantage (``a``, "
        "``b`` the totals); ``order``: the players from greatest to least advantage, ``()`` on "
        "a tie (both roll again). Rules: rules/KT18.md 9.3.",
    )
    KT18_OBJECTIVE_PLACED = (
        "kt18_objective_placed",
        "Data: marker, player, x, y. When: ``player`` placed the objective marker ``marker`` "
        "at ``x``, ``y`` (inches) in the Covert War set-up. Rules: rules/KT18.md 9.3.",
    )
    KT18_PRIMARY_OBJECTIVE = (
        "kt18_primary_objective",
        "Data: objective, player, roll. When: ``player`` (greatest strategic advantage) rolled "
        "the D3 (``roll``) of the Covert War primary objective ``objective``. Rules: "
        "rules/KT18.md 9.7.",
    )
    KT18_BATTLEFIELD_SPLIT = (
        "kt18_battlefield_split",
        "Data: player, zones. When: ``player`` (least strategic advantage) split the "
        "battlefield along a centre line into the deployment zones ``zones`` (names). Rules: "
        "rules/KT18.md 9.5.",
    )
    KT18_DEPLOYMENT_ZONE = (
        "kt18_deployment_zone",
        "Data: by, player, zone. When: ``player`` has the deployment zone ``zone`` (``by``: "
        "the player who picked). Rules: rules/KT18.md 9.5.",
    )
    KT18_CACHE_KEPT = (
        "kt18_cache_kept",
        "Data: marker, removed, roll. When: Retrieve the Cache kept the objective marker "
        "``marker`` (picked at random, the D6 ``roll``) and removed the others (``removed``). "
        "Rules: rules/KT18.md 9.7.",
    )
    KT18_OBJECTIVE_CONTROL = (
        "kt18_objective_control",
        "Data: a, b, marker, player. When: the end of a Covert War battle counted the models "
        "within 2\" of ``marker``'s centre (``a``, ``b``: A's and B's, shaken and out of "
        'action models left out): ``player`` controls it (``""``: nobody). Rules: '
        "rules/KT18.md 9.4.",
    )

    # KT18
    KT18_SECTION_STARTED = (
        "kt18_section_started",
        "Data: phase, section. When: a section of the KT18 Shooting phase (``ready``: Ready, "
        "Fire!; ``will``: Fire at Will) or Fight phase (``hammer``: Hammer of Wrath; "
        "``lives``: Fight For Your Lives) began. Rules: rules/KT18.md 5.1, 7.1.",
    )
    KT18_PASSED = (
        "kt18_passed",
        "Data: phase, player, section. When: ``player`` passed its turn in a section of the "
        "KT18 Shooting or Fight phase. Rules: rules/KT18.md 5.1, 7.2, 7.3.",
    )
    KT18_MODEL_CHOSEN = (
        "kt18_model_chosen",
        "Data: op, phase, section. When: ``op`` was chosen to shoot or to fight in that "
        "section. Rules: rules/KT18.md 5.2, 7.2, 7.3.",
    )
    KT18_WEAPON_FIRED = (
        "kt18_weapon_fired",
        "Data: attacks, op, overwatch, targets, weapon. When: ``op`` made its ``attacks`` with "
        "``weapon`` (a tuple of attacks per target, ``targets`` in order; ``overwatch``: in an "
        "Overwatch). Rules: rules/KT18.md 5.3-5.5, 7.5, 3.11.",
    )
    KT18_HIT_ROLL = (
        "kt18_hit_roll",
        "Data: dice, hits, modifier, needed, op, target, weapon. When: ``op``'s hit roll "
        "against ``target``: the faces ``dice``, the skill ``needed`` (0: Overwatch, 6s only), "
        "the summed ``modifier`` and the ``hits``. Rules: rules/KT18.md 6.2, 7.6, 3.11.",
    )
    KT18_WOUND_ROLL = (
        "kt18_wound_roll",
        "Data: dice, needed, op, target, weapon, wounds. When: ``op``'s wound roll against "
        "``target`` (``needed`` from S against T) and the ``wounds`` it caused. Rules: "
        "rules/KT18.md 6.5.",
    )
    KT18_SAVING_THROW = (
        "kt18_saving_throw",
        "Data: face, op, save, saved, target. When: ``target`` took a saving throw (``save``: "
        "armour, invulnerable or none) against ``op``'s attack. Rules: rules/KT18.md 6.6, 6.7.",
    )
    KT18_WOUNDS_LOST = (
        "kt18_wounds_lost",
        "Data: by, damage, op, source, wounds. When: ``op`` lost wounds to ``damage`` (an "
        "attack's or a mortal wound's, from ``by``'s ``source``); ``wounds`` left (at least "
        "0). Rules: rules/KT18.md 6.8, 6.13.",
    )
    KT18_INJURY_ROLL = (
        "kt18_injury_roll",
        "Data: by, dice, modifier, op, out_of_action, roller. When: an Injury roll for ``op`` "
        "(``dice`` rolled by ``roller``, the highest with ``modifier`` counts). Rules: "
        "rules/KT18.md 6.9, 6.10.",
    )
    KT18_FLESH_WOUND = (
        "kt18_flesh_wound",
        "Data: by, flesh_wounds, op. When: ``op`` suffered a flesh wound (``flesh_wounds`` now "
        "marked) and is back on 1 wound. Rules: rules/KT18.md 6.11.",
    )
    KT18_OUT_OF_ACTION = (
        "kt18_out_of_action",
        "Data: by, op, player. When: ``op`` of ``player`` was taken out of action (then "
        "removed). Rules: rules/KT18.md 6.11, 6.12.",
    )
    KT18_MORTAL_WOUNDS = (
        "kt18_mortal_wounds",
        "Data: by, count, op, source. When: ``count`` mortal wounds are inflicted on ``op`` "
        "(``source``, caused by ``by``). Rules: rules/KT18.md 6.13.",
    )
    KT18_PILED_IN = (
        "kt18_piled_in",
        "Data: op, step, x, y. When: ``op`` made its pile-in (``step`` ``pile_in``) or "
        "consolidate (``consolidate``) move to ``x``, ``y``. Rules: rules/KT18.md 7.7.",
    )
    KT18_FIGHT_ENDED = (
        "kt18_fight_ended",
        "Data: op. When: ``op``'s fight sequence ended. Rules: rules/KT18.md 7.5.",
    )

    # KT18
    KT18_ROUND_STARTED = (
        "kt18_round_started",
        "Data: round. When: a KT18 battle round begins, before its Initiative phase "
        "(engine.rules.kt18.battle_round). Rules: rules/KT18.md 2.1.",
    )
    KT18_PHASE_STARTED = (
        "kt18_phase_started",
        "Data: phase, round. When: a KT18 phase begins (``initiative``, ``movement``, "
        "``psychic``, ``shooting``, ``fight``, ``morale``). Rules: rules/KT18.md 2.1.",
    )
    KT18_ROUND_ENDED = (
        "kt18_round_ended",
        "Data: round. When: a KT18 battle round ends, after its Morale phase. "
        "Rules: rules/KT18.md 2.1, 8.1.",
    )
    KT18_INITIATIVE_ROLL = (
        "kt18_initiative_roll",
        "Data: player, total, values. When: a player rolled its 2D6 for the initiative. "
        "Rules: rules/KT18.md 2.2.",
    )
    KT18_INITIATIVE = (
        "kt18_initiative",
        "Data: player, round, totals. When: ``player`` has the initiative of the round (the "
        "higher 2D6; ``totals`` the last totals, A's then B's). Rules: rules/KT18.md 2.2.",
    )
    KT18_ADVANCED = (
        "kt18_advanced",
        "Data: move, op, roll. When: ``op`` declared an Advance and rolled ``roll``: it may "
        "move up to ``move`` inches (M + the roll). Rules: rules/KT18.md 3.7.",
    )
    KT18_READIED = (
        "kt18_readied",
        "Data: op. When: ``op`` was Readied in the Movement phase. Rules: rules/KT18.md 3.8.",
    )
    KT18_CHARGE_DECLARED = (
        "kt18_charge_declared",
        "Data: op, targets. When: ``op`` declared a charge against ``targets`` (the targets "
        "chosen, step 1). Rules: rules/KT18.md 3.9, 3.10.",
    )
    KT18_REACTION = (
        "kt18_reaction",
        "Data: charger, op, reaction. When: the target ``op`` reacts to ``charger``'s charge "
        "(``overwatch`` or ``retreat``). Rules: rules/KT18.md 3.11, 3.12.",
    )
    KT18_CHARGE_ROLL = (
        "kt18_charge_roll",
        "Data: op, roll, values. When: ``op``'s charge roll (2D6, inches) was made. "
        "Rules: rules/KT18.md 3.13.",
    )
    KT18_CHARGE_ENDED = (
        "kt18_charge_ended",
        "Data: charged, op, success. When: ``op``'s charge sequence ended: ``success`` "
        'whether it charged; ``charged`` the enemy models within 1" of it that were '
        "charged. Rules: rules/KT18.md 3.13.",
    )
    KT18_BROKEN_CHECK = (
        "kt18_broken_check",
        "Data: broken, casualties, leadership, models, player, roll. When: ``player``'s "
        "broken check was made (``roll`` 0 when no roll was needed). Rules: rules/KT18.md 8.2.",
    )
    KT18_SHAKEN_REMOVED = (
        "kt18_shaken_removed",
        "Data: ops, player. When: ``player``'s Shaken tokens were removed. "
        "Rules: rules/KT18.md 8.3.",
    )
    KT18_NERVE_TEST = (
        "kt18_nerve_test",
        "Data: leadership, modifier, op, passed, roll. When: ``op`` took a Nerve test "
        "(``roll`` unmodified). Rules: rules/KT18.md 8.4, 8.5.",
    )

    # KT18 terrain and environment
    KT18_DANGEROUS_TERRAIN_TEST = (
        "kt18_dangerous_terrain_test",
        "Data: op, roll, wounded. When: ``op`` took a Dangerous terrain test (its ``roll``; "
        "``wounded``: a 1, one mortal wound follows). Rules: rules/KT18.md 10.4.",
    )
    KT18_FALLING_TEST = (
        "kt18_falling_test",
        'Data: by, falls, op, roll. When: ``op``, within 1" of an edge it can fall from, '
        'took a Falling test after ``by``\'s attacks hit it (``by`` ``""``: after a wound '
        "lost to something that is not an attack); ``falls`` on a 1. Rules: rules/KT18.md 10.7.",
    )
    KT18_FELL = (
        "kt18_fell",
        "Data: dice, height, jump, onto, op, x, y, z. When: ``op`` fell (``jump``: jumped "
        "down) ``height`` inches to land at ``x``, ``y``, ``z``; ``dice`` falling-damage dice; "
        '``onto`` the model it lands on (``""``: none). Rules: rules/KT18.md 10.7-10.9.',
    )
    KT18_FALLING_DAMAGE = (
        "kt18_falling_damage",
        "Data: by, dice, op, wounds. When: the falling-damage dice of ``by``'s fall were "
        "rolled for ``op`` (the faller or the model it landed on): ``wounds`` mortal wounds "
        "(each 5+). Rules: rules/KT18.md 10.8.",
    )
    KT18_PLACED_AFTER_FALL = (
        "kt18_placed_after_fall",
        "Data: op, x, y, z. When: ``op`` was placed as close as possible to where it landed. "
        "Rules: rules/KT18.md 10.8.",
    )
    KT18_ENVIRONMENT = (
        "kt18_environment",
        "Data: environment, note, player, roll. When: ``player`` rolled ``roll`` on the "
        "Sector Imperialis environment table: ``environment`` applies to the whole battle "
        "(``note``: what the engine does with it). Rules: rules/KT18.md 11.2, 11.3.",
    )
    # KT18
    KT18_POWERS_NOT_PLAYED = (
        "kt18_powers_not_played",
        "Data: op, powers. When: the Psychic phase begins and the psyker ``op`` knows "
        "``powers`` the engine does not play (any but Psybolt): they are never offered. "
        "Rules: rules/KT18.md 4.2.",
    )
    KT18_PSYKER_CHOSEN = (
        "kt18_psyker_chosen",
        "Data: op, player. When: ``player`` chose ``op`` as its psyker of this Psychic phase. "
        "Rules: rules/KT18.md 4.1.",
    )
    KT18_PSYCHIC_DECLINED = (
        "kt18_psychic_declined",
        "Data: player. When: ``player`` chose no psyker in this Psychic phase. "
        "Rules: rules/KT18.md 4.1.",
    )
    KT18_PSYCHIC_TEST = (
        "kt18_psychic_test",
        "Data: dice, op, perils, power, success, total, warp_charge. When: ``op`` took the "
        "Psychic test (2D6) to manifest ``power``: ``success`` when ``total`` is at least "
        "``warp_charge``; ``perils`` on a double 1 or double 6. Rules: rules/KT18.md 4.4.",
    )
    KT18_PERILS = (
        "kt18_perils",
        "Data: op. When: ``op`` suffers Perils of the Warp (its D3 mortal wounds follow). "
        "Rules: rules/KT18.md 4.4.",
    )
    KT18_PERILS_BLAST = (
        "kt18_perils_blast",
        "Data: op, targets. When: Perils of the Warp took ``op`` out of action: its power "
        'fails and each model of ``targets`` (within 3") suffers D3 mortal wounds. '
        "Rules: rules/KT18.md 4.4.",
    )
    KT18_DENY_TEST = (
        "kt18_deny_test",
        "Data: denied, dice, needed, op, psyker, total. When: the enemy psyker ``op`` took a "
        "Deny the Witch test against ``psyker``'s power: ``denied`` when ``total`` beats "
        "``needed`` (the Psychic test's total). Rules: rules/KT18.md 4.5.",
    )
    KT18_POWER_FAILED = (
        "kt18_power_failed",
        "Data: op, power, why. When: ``op``'s ``power`` takes no effect: ``why`` is ``test`` "
        "(the Psychic test failed), ``perils`` (Perils took it out of action) or ``denied``. "
        "Rules: rules/KT18.md 4.4-4.6.",
    )
    KT18_POWER_MANIFESTED = (
        "kt18_power_manifested",
        "Data: op, power. When: ``op`` manifested ``power``; its effect follows. "
        "Rules: rules/KT18.md 4.6.",
    )
    KT18_PSYBOLT = (
        "kt18_psybolt",
        'Data: mortal, op, target. When: ``op``\'s Psybolt strikes ``target`` (``""``: no '
        'enemy visible within 18") with ``mortal`` mortal wounds (``"1"`` or ``"D3"``). '
        "Rules: rules/KT18.md 4.3.",
    )
    # KT18 Tunnels
    KT18_TUNNELS_ENTERED = (
        "kt18_tunnels_entered",
        "Data: manhole, op, x, y. When: ``op`` went down into the tunnels at the manhole "
        "``manhole`` (its index in the layout's ``kt18_manholes``, at ``x``, ``y``) and was "
        "removed from the battlefield (not out of action). Rules: rules/KT18.md 11.3.",
    )
    KT18_TUNNELS_LEFT = (
        "kt18_tunnels_left",
        "Data: op, x, y, z. When: ``op`` came up from the tunnels and was placed at ``x``, "
        "``y``, ``z``: it counts as having made a normal move. Rules: rules/KT18.md 11.3, 3.16.",
    )
    KT18_TUNNELS_STAYED = (
        "kt18_tunnels_stayed",
        "Data: ops, player. When: ``player``'s models ``ops`` were not placed at the end of its "
        "Movement-phase turn in the battle round after they went down: they stay in the "
        "tunnels for the rest of the battle. Rules: rules/KT18.md 11.3.",
    )
    KT18_TUNNELS_LOST = (
        "kt18_tunnels_lost",
        "Data: op, player. When: the battle ends with ``op`` still in the tunnels: it is out "
        "of action (``kt18_out_of_action`` follows). Rules: rules/KT18.md 11.3, 3.16.",
    )


class Would(_Declared):
    """The *would* hooks (:meth:`engine.game.work.Work.would`,
    :meth:`engine.game.context.Hooks.transform`): each contract names the value the hooks
    transform (its starting value -> what they return), the keywords passed (an operative is
    its id unless the contract says otherwise), when it is asked and the rules section."""

    AFTER_ACTION_WINDOW = (
        "after_action_window",
        "Value: ``False`` -> whether a window was opened (a frame pushed) after an enemy "
        "operative's action. Keywords: frame. ``frame``: the activation frame of the operative "
        "that acted. When: after each action of an activation or counteraction, before the "
        "next (the On Guard window of Close Quarters). Rules: 9.3.",
    )
    CORE_UNIVERSAL_ACTIONS = (
        "core_universal_actions",
        "Value: the core's universal actions (UniversalAction values, in listing order) -> "
        "the ones the battle's ruleset plays instead (KT21's Normal Move, Dash, Fall Back, "
        "Charge, Shoot, Fight, Pick Up, Pass: rules/KT21.md 6.1). Keywords: none. When: an "
        "operative's actions are listed or an action's verb is looked up. Rules: 3.2.",
    )
    KT21_PARRY_DISCARDS = (
        "kt21_parry_discards",
        "Value: ``1`` -> how many of the opponent's retained hits one parry of ``op`` "
        'discards (2: a "parry discards two" rule such as a storm shield; a normal parry '
        "two normal hits, a critical parry any two). Keywords: op, target. When: a KT21 "
        "Fight's Resolve step lists or resolves a parry (engine.rules.kt21.fight). Rules: "
        "rules/KT21.md 11 step 4, 16.16.",
    )
    KT21_WEAPON_RULES = (
        "kt21_weapon_rules",
        "Value: ``rules`` (Kt21WeaponRules, the datacard's SR and ! columns) -> the KT21 rules "
        "of ``op``'s ``weapon`` for an attack now (a team rule that gives, e.g. Vicious Blows*: "
        "Ceaseless, or takes a rule). Keywords: op, weapon. When: a KT21 profile's rules are "
        "read (engine.rules.kt21.attack_dice.weapon_rules21: listing, Shoot, Overwatch, "
        "Fight). Rules: rules/KT21.md 12.",
    )
    MARKER_CONTEST = (
        "marker_contest",
        "Value: the test of whether an operative contests a marker, ``fn(kz, placement, "
        "centre, diameter_mm) -> bool`` (KT24's: within its 1\" control range and visible, "
        "engine.geometry.sight.marker_in_control_range) -> the test the battle's ruleset "
        "uses instead (KT21's: within 2\" of the marker's centre, rules/KT21.md 15.1, "
        "decision 6). Keywords: none. When: control of a marker is worked out. Rules: 4.8.",
    )
    UNIVERSAL_ACTIONS = (
        "universal_actions",
        "Value: ``()`` -> the universal actions rule modules add (UniversalAction values), "
        "listed after the core's in this order. Keywords: none. When: an operative's actions "
        "are listed or an action's verb is looked up. Rules: 3.2, 9.3 (Operate Hatch, Guard, "
        "Hatchway Fight).",
    )
    POSITION_FRAMES = (
        "position_frames",
        "Value: ``False`` -> ``True`` when a rule module put on the working copy the frames "
        "(and phase, turning point) its ruleset's flow has at ``phase`` and ``step`` (the "
        "core's own are then not used). Keywords: gambit_turn, initiative_roll, phase, step, "
        "turn. When: a scripted position is built (engine.game.scenario.position). "
        "Rules: rules/KT21.md 1-3.",
    )
    PICK_UP_MARKERS = (
        "pick_up_markers",
        "Value: ``()`` -> the names of the markers ``op`` may also pick up (tokens a rule "
        "makes pickable). Keywords: op. ``op``: an OperativeState, not an id. When: listing "
        "Pick Up Marker for ``op``. Rules: 3.2, 4.8.",
    )
    REFUSAL_WORDING = (
        "refusal_wording",
        "Value: the core's refusal wording (a bookkeeping.Wording: KT24's terms and sections) "
        "-> the wording of the battle's ruleset (KT21: Engagement Range, rules/KT21.md "
        "sections). Keywords: none. When: a refusal of the shared core is worded (never while "
        "nothing is refused). Rules: rules/KT21.md 7.2.",
    )
    WOULD_ADD_ACTION_AP = (
        "would_add_action_ap",
        "Value: ``0`` -> the AP added to the cost of ``action`` by ``op`` (``target``). "
        "Keywords: action, op, target. ``op``: an OperativeState, not an id. When: an "
        "action's AP cost is worked out. Rules: 3.1.",
    )
    WOULD_ALLOW_BLOCK = (
        "would_allow_block",
        "Value: ``True`` -> whether ``op`` may block against ``target``. Keywords: op, "
        "target. When: in a Fight's Resolve step, before a block. Rules: 5.2 step 4.",
    )
    WOULD_ALLOW_CHARGE_IN_CONTROL_RANGE = (
        "would_allow_charge_in_control_range",
        "Value: ``False`` -> whether ``op`` may Charge while within an enemy's control range. "
        "Keywords: op. When: listing Charge. Rules: 3.2.",
    )
    WOULD_ALLOW_PICK_UP = (
        "would_allow_pick_up",
        "Value: ``why`` (a refusal text or ``None``) -> the refusal, ``None`` to allow ``op`` "
        "to pick up ``marker``. Keywords: marker, op. ``op``: an OperativeState, not an id. "
        "When: Pick Up Marker is checked. Rules: 3.2, 8.3.",
    )
    WOULD_ALLOW_TARGET = (
        "would_allow_target",
        "Value: ``why`` (a refusal text or ``None``) -> the refusal, ``None`` to allow "
        "``target`` for ``op`` with ``weapon`` (``profile``). Keywords: op, profile, target, "
        "weapon. ``op`` and ``target``: an OperativeState, not an id. When: a Shoot's targets "
        "are listed. Rules: 4.5, 5.1.",
    )
    WOULD_APPLY_INJURY_PENALTIES = (
        "would_apply_injury_penalties",
        "Value: ``True`` -> whether injured ``op``'s stats are changed by being injured. "
        "Keywords: op. When: ``op`` is injured and a stat is read. Rules: 2.3.",
    )
    WOULD_BE_INCAPACITATED = (
        "would_be_incapacitated",
        "Value: ``True`` -> whether ``op`` is incapacitated by this damage (``by``, "
        "``source``): a Medic! rule says ``False``. Keywords: by, op, source. When: ``op`` "
        "loses its last wound. Rules: 2.3.",
    )
    WOULD_BE_OBSCURED = (
        "would_be_obscured",
        "Value: ``obscured`` (bool) -> whether ``target`` is obscured to ``op``. Keywords: "
        "op, target. When: targeting is worked out. Rules: 4.5.",
    )
    WOULD_BLOCK_CRIT_WITH_NORMAL = (
        "would_block_crit_with_normal",
        "Value: ``False`` -> whether ``op`` may block a crit with a normal success against "
        "``target``. Keywords: op, target. When: in a Fight's Resolve step (KT21: a normal "
        "parry discarding a critical hit, e.g. Parry Hook*). Rules: 5.2 step 4, rules/KT21.md "
        "11 step 4.",
    )
    WOULD_CHANGE_APL = (
        "would_change_apl",
        "Value: ``change`` (int) -> the summed APL change of ``op`` before it is clamped. "
        "Keywords: op. When: APL is read (:meth:`engine.game.work.Work.apl`). Rules: 2.1.",
    )
    WOULD_CHANGE_ATTACKS = (
        "would_change_attacks",
        "Value: ``attacks`` (int) -> the Attacks of ``op``'s ``weapon`` (``kind``) against "
        "``target``. Keywords: kind, op, target, weapon. When: an attack profile is built (KT21: "
        "the attack dice rolled, e.g. Grisly Trophy). Rules: 2.2, rules/KT21.md 10.1, 11.",
    )
    WOULD_CHANGE_DAMAGE = (
        "would_change_damage",
        "Value: ``(normal, critical)`` -> the Damage of ``op``'s ``weapon`` (``kind``). "
        "Keywords: kind, op, weapon. When: an attack profile is built (KT21: the damage a hit "
        "deals, e.g. Tainted Rounds). Rules: 2.2, rules/KT21.md 10.1 step 6, 11 step 4.",
    )
    WOULD_CHANGE_HIT = (
        "would_change_hit",
        "Value: ``change`` (int, from 0) -> the change to the Hit of ``op``'s ``weapon`` "
        "(``kind``) against ``target`` (``injured``); each hook's change is noted apart. "
        "Keywords: injured, kind, op, target, weapon. When: an attack profile is built with a "
        "target (KT21: the BS/WS rolled, e.g. Foregrip). Rules: 2.1, 2.2, rules/KT21.md 4.2.",
    )
    WOULD_CHANGE_MOVE = (
        "would_change_move",
        "Value: ``0.0`` -> inches added to ``op``'s Move. Keywords: op. When: Move is read "
        "(:meth:`engine.game.work.Work.move_stat`). Rules: 2.1.",
    )
    WOULD_CHARGE_CONCEALED = (
        "would_charge_concealed",
        "Value: ``False`` -> whether ``op`` may Charge with a Conceal order. Keywords: op. "
        "When: listing Charge. Rules: 3.2.",
    )
    WOULD_CONTROL_APL = (
        "would_control_apl",
        "Value: ``apl`` (int) -> the APL ``op`` counts with for control (not its APL stat). "
        'Keywords: marker, op, what. ``marker``: the marker\'s name (``""`` for an area); '
        '``what``: what is controlled (``engine.game.markers``: ``"objective marker"``, '
        '``"mission marker"``, or an area\'s kind, e.g. ``"flank"``), so that a rule '
        "for objective markers only, or for any marker, can tell. When: control of a marker "
        "or area is worked out. Rules: 4.8.",
    )
    WOULD_CONTROL_MARKER = (
        "would_control_marker",
        'Value: ``""`` (a tie, or nobody contests) -> the player controlling ``marker`` '
        '(``"A"``/``"B"``/``""``). Keywords: marker. When: control of a marker is worked out. '
        "Rules: 4.8.",
    )
    WOULD_CONTROL_TOTALS = (
        "would_control_totals",
        'Value: ``{"A": apl, "B": apl}`` -> the players\' APL totals (``ops``: contesting ids, '
        "``marker``, ``rule``, ``what`` as for ``would_control_apl``). Keywords: marker, ops, "
        "rule, what. When: control of a marker or area is worked out. Rules: 4.8.",
    )
    WOULD_COST_ACTION = (
        "would_cost_action",
        "Value: ``ap`` (int) -> the AP ``op`` pays for ``action`` (``paying``: it is being "
        "paid now). Keywords: action, op, paying. ``op``: an OperativeState, not an id. When: "
        "an action's cost is worked out. Rules: 3.1.",
    )
    WOULD_COST_PLOY = (
        "would_cost_ploy",
        "Value: ``cost`` (CP) -> the CP ``player`` pays for ``ploy`` (``target``, ``text``). "
        "Keywords: player, ploy, target, text. When: a ploy's cost is worked out "
        "(:func:`engine.game.ploys.ploy_cost`). Rules: 7.1.",
    )
    WOULD_COUNT_AS_INCAPACITATED_BY_ENEMY = (
        "would_count_as_incapacitated_by_enemy",
        "Value: ``True`` -> whether ``op``'s incapacitation counts as by the enemy for the "
        "kill op. Keywords: op. When: an incapacitation is scored. Rules: 8.2.",
    )
    WOULD_COUNT_CARRIED = (
        "would_count_carried",
        "Value: ``o.carrying`` (marker names) -> the carried markers that count against "
        "``op``'s carrying limit. Keywords: op. ``op``: an OperativeState, not an id. When: "
        "control of a carried marker is worked out. Rules: 4.8.",
    )
    WOULD_COUNT_FOR_KILL_OP = (
        "would_count_for_kill_op",
        "Value: ``True`` -> whether ``op`` counts for the kill op. Keywords: op. When: the "
        "kill op's operatives are counted. Rules: 8.2.",
    )
    WOULD_COUNT_KASRKIN_DRILLS = (
        "would_count_kasrkin_drills",
        "Value: ``1`` -> how many Kasrkin drills ``player`` may use (Kasrkin). Keywords: "
        "player. When: a drill's limit is checked. Rules: team rules (teams/kasrkin).",
    )
    WOULD_COUNTERACT_REGARDLESS_OF_ORDER = (
        "would_counteract_regardless_of_order",
        "Value: ``False`` -> whether ``op`` may counteract whatever its order. Keywords: op. "
        "When: counteraction eligibility is listed. Rules: 1.6.",
    )
    WOULD_CRIT_SAVE = (
        "would_crit_save",
        "Value: ``6`` -> the lowest defence die result that is a crit for ``target`` against "
        "``op``. Keywords: op, target. When: defence dice are sorted. Rules: 5.1 step 4.",
    )
    WOULD_DEVASTATING_DAMAGE = (
        "would_devastating_damage",
        "Value: ``d.devastating`` -> the Devastating damage of ``op``'s ``crit`` on "
        "``target``. Keywords: crit, op, target. When: Devastating resolves. Rules: 6 "
        "Devastating.",
    )
    WOULD_FINAL_HIT = (
        "would_final_hit",
        "Value: ``hit`` -> the Hit of ``op``'s ``weapon`` (``kind``) after every change "
        "(``printed``, ``changes``) against ``target``. Keywords: changes, kind, op, printed, "
        "target, weapon. When: an attack profile is built. Rules: 2.1, 2.2.",
    )
    WOULD_FIX_PRIMARY_TARGET = (
        "would_fix_primary_target",
        "Value: ``None`` -> a target ``op`` must shoot with ``weapon`` (``profile``), or "
        "``None``. Keywords: op, profile, weapon. ``op``: an OperativeState, not an id. When: "
        "a Shoot's targets are listed. Rules: 5.1.",
    )
    WOULD_HOLD_ACTIVATION = (
        "would_hold_activation",
        "Value: ``None`` -> a frame to run instead of activating ``op`` with ``order`` now "
        "(it starts the activation or gives the choice back), or ``None``. Keywords: op, "
        "order. When: activations are listed. Rules: 1.5.",
    )
    WOULD_IGNORE_FOR_KILL_OP = (
        "would_ignore_for_kill_op",
        "Value: ``False`` -> whether ``op`` is ignored for the kill op. Keywords: op. When: "
        "the kill op's operatives are counted. Rules: 8.2.",
    )
    WOULD_IGNORE_TERRAIN_EXTRAS = (
        "would_ignore_terrain_extras",
        "Value: ``False`` -> whether ``op``'s move ``action`` ignores the extra distance of "
        "terrain. Keywords: action, op. When: a move's cost is worked out. Rules: 3.3.",
    )
    WOULD_IMPROVE_COVER_SAVE = (
        "would_improve_cover_save",
        "Value: ``False`` -> whether ``target``'s cover save against ``op`` is improved. "
        "Keywords: op, target. When: cover saves are resolved. Rules: 4.5, 5.1.",
    )
    WOULD_INTERRUPT_ORDER = (
        "would_interrupt_order",
        "Value: ``g.order`` -> the order ``op`` interrupts with. Keywords: op. When: an On "
        "Guard operative interrupts. Rules: 9.3.",
    )
    WOULD_KILL_OP_STARTING = (
        "would_kill_op_starting",
        "Value: ``starting`` -> the number of operatives ``player`` starts with for the kill "
        "op. Keywords: player. When: the kill grade is worked out. Rules: 8.2.",
    )
    WOULD_MAGNIFY_THROUGH = (
        "would_magnify_through",
        "Value: ``False`` -> whether ``op``'s rule magnifies ``through`` (Hierotek Circle). "
        "Keywords: op, through. When: a weapon rule of the team is checked. Rules: team rules "
        "(teams/hierotek_circle).",
    )
    WOULD_MOVE_DISTANCE = (
        "would_move_distance",
        "Value: ``limit`` (inches) -> the distance ``op`` may move with ``action``. Keywords: "
        "action, op. When: a move's destinations are listed. Rules: 3.2, 3.3.",
    )
    WOULD_MOVE_TERRAIN = (
        "would_move_terrain",
        "Value: ``()`` -> killzone changes that apply to ``op``'s movement only. Keywords: "
        "op. ``op``: an OperativeState, not an id. When: ``op``'s movement killzone is built "
        "(:meth:`engine.game.work.Work.move_terrain`). Rules: 3.3.",
    )
    WOULD_OWN_WEAPON = (
        "would_own_weapon",
        "Value: ``False`` -> whether ``op`` counts as having ``weapon``. Keywords: op, "
        "weapon. When: grenades are given to operatives. Rules: 7.2.",
    )
    WOULD_PATHFINDER_ANALYSE = (
        "would_pathfinder_analyse",
        "Value: ``True`` -> whether ``op`` may analyse ``target`` (Pathfinders). Keywords: "
        "op, target. When: the Markerlight is used. Rules: team rules (teams/pathfinders).",
    )
    WOULD_PATHFINDER_DOCTRINE = (
        "would_pathfinder_doctrine",
        "Value: ``chosen`` -> the doctrine ``op`` follows (Pathfinders). Keywords: op. When: "
        "the team's doctrine is read. Rules: team rules (teams/pathfinders).",
    )
    WOULD_PATHFINDER_MARKERLIGHT_GAIN = (
        "would_pathfinder_markerlight_gain",
        "Value: ``1`` -> the tokens ``target`` gains from ``op``'s Markerlight with ``mode`` "
        "(Pathfinders). Keywords: mode, op, target. When: the Markerlight resolves. Rules: "
        "team rules (teams/pathfinders).",
    )
    WOULD_PATHFINDER_MARKERLIGHT_IN_CONTROL_RANGE = (
        "would_pathfinder_markerlight_in_control_range",
        "Value: ``False`` -> whether ``op`` may use its Markerlight within an enemy's control "
        "range (Pathfinders). Keywords: op. When: the Markerlight is listed. Rules: team "
        "rules (teams/pathfinders).",
    )
    WOULD_PATHFINDER_MARKERLIGHT_MODES = (
        "would_pathfinder_markerlight_modes",
        "Value: ``()`` -> the rule words ``op`` may use with its Markerlight on ``target`` "
        "(Pathfinders). Keywords: op, target. When: the Markerlight is listed. Rules: team "
        "rules (teams/pathfinders).",
    )
    WOULD_PATHFINDER_MARKERLIGHT_TARGET = (
        "would_pathfinder_markerlight_target",
        "Value: ``why`` (a refusal or ``None``) -> the refusal of ``target`` for ``op``'s "
        "Markerlight (Pathfinders). Keywords: op, target. When: the Markerlight is listed. "
        "Rules: team rules (teams/pathfinders).",
    )
    WOULD_REFUSE_ACTION = (
        "would_refuse_action",
        "Value: ``None`` -> a refusal text for ``op`` performing ``action`` "
        "(``rule_action``), or ``None``. Keywords: action, op, rule_action. When: actions are "
        "listed and checked. Rules: 3.1.",
    )
    WOULD_REFUSE_ACTIVATION = (
        "would_refuse_activation",
        "Value: ``None`` -> a refusal text for activating ``op``, or ``None``. Keywords: op. "
        "When: activations are listed. Rules: 1.5.",
    )
    WOULD_REFUSE_DESTINATION = (
        "would_refuse_destination",
        "Value: ``None`` -> a refusal text for ``op``'s move ``action`` ending at ``point``, "
        "or ``None``. Keywords: action, op, point. When: a move's destinations are listed. "
        "Rules: 3.3.",
    )
    WOULD_REFUSE_ORDER = (
        "would_refuse_order",
        "Value: ``None`` -> a refusal text for ``op`` taking ``order``, or ``None``. "
        "Keywords: op, order. When: orders are listed. Rules: 1.5.",
    )
    WOULD_REFUSE_REROLL = (
        "would_refuse_reroll",
        "Value: ``None`` -> a refusal text for ``player`` re-rolling ``kind`` dice of ``op`` "
        "v ``target`` with ``source`` at ``trigger``, or ``None``. Keywords: kind, op, "
        "player, source, target, trigger. When: re-rolls are offered "
        "(:func:`engine.game.ploys.reroll_refusal`). Rules: 2.4, 7.1.",
    )
    WOULD_REFUSE_TARGET = (
        "would_refuse_target",
        "Value: ``None`` -> a refusal text for ``op`` shooting ``target`` with ``weapon`` "
        "(``profile``), or ``None``. Keywords: op, profile, target, weapon. ``op`` and "
        "``target``: an OperativeState, not an id. When: a Shoot's targets are listed. Rules: "
        "4.5, 5.1.",
    )
    WOULD_REFUSE_WEAPON = (
        "would_refuse_weapon",
        "Value: ``None`` -> a refusal text for ``op`` using ``weapon`` (``profile``), or "
        "``None``. Keywords: op, profile, weapon. ``op``: an OperativeState, not an id. When: "
        "weapons are listed (KT21: a shooting attack's checks, ``profile`` the "
        "WeaponProfile). Rules: 5.1, 5.2, rules/KT21.md 10.1.",
    )
    WOULD_REPEAT_ACTION = (
        "would_repeat_action",
        "Value: ``False`` -> whether ``op`` may perform ``action`` again (``mode``, "
        "``done``). Keywords: action, done, mode, op. When: actions are listed. Rules: 3.1.",
    )
    WOULD_RESOLVE_FIRST = (
        "would_resolve_first",
        "Value: ``'a'`` -> the side (``'a'`` attacker, ``'d'`` defender) that resolves first "
        "in ``op``'s Fight with ``weapon`` v ``target``. Keywords: op, target, weapon. When: "
        "at a Fight's Resolve step (KT21 too). Rules: 5.2 step 4, rules/KT21.md 11 step 4.",
    )
    WOULD_RETAIN_BOTH_COVER_SAVES = (
        "would_retain_both_cover_saves",
        "Value: ``False`` -> whether ``target`` retains two cover saves against ``op``. "
        "Keywords: op, target. When: cover saves are resolved (KT21: one more defence die "
        "retained unrolled as a cover save, e.g. Camo Cloak). Rules: 4.5, rules/KT21.md 10.2.",
    )
    WOULD_RETAIN_DEFENCE_NORMAL = (
        "would_retain_defence_normal",
        "Value: ``0`` -> normal defence successes ``target`` retains unrolled against ``op``. "
        "Keywords: op, target. When: defence dice are rolled. Rules: 5.1 step 4.",
    )
    WOULD_SAVE_IN_COVER = (
        "would_save_in_cover",
        "Value: ``save`` -> the cover saves ``target`` retains against ``op`` (``tg``: "
        "targeting). Keywords: op, target, tg. When: cover saves are resolved. Rules: 4.5, "
        "5.1.",
    )
    WOULD_SAVE_WITHOUT_COVER = (
        "would_save_without_cover",
        "Value: ``0`` -> cover saves ``target`` retains against ``op`` without cover. "
        "Keywords: op, target. When: cover saves are resolved (KT21: one more defence die "
        "retained unrolled as a cover save, e.g. Camo Cloak). Rules: 4.5, rules/KT21.md 10.2.",
    )
    WOULD_SHOOT_IN_CONTROL_RANGE = (
        "would_shoot_in_control_range",
        "Value: ``False`` -> whether ``op`` may shoot with ``profile`` within an enemy's "
        "control range. Keywords: op, profile. ``op``: an OperativeState, not an id. When: "
        "weapons are listed. Rules: 5.1.",
    )
    WOULD_SHOT_DAMAGE = (
        "would_shot_damage",
        "Value: ``dmg`` -> the damage of one of ``op``'s successes (``crit``) on ``target``. "
        "Keywords: crit, op, target. When: at a Shoot's Resolve step. Rules: 5.1 step 5.",
    )
    WOULD_SHOT_TOTAL_DAMAGE = (
        "would_shot_total_damage",
        "Value: ``damage`` -> the total damage of ``op``'s shot on ``target`` (``normals``, "
        "``crits``, ``normal_damage``, ``critical_damage``). Keywords: critical_damage, "
        "crits, normal_damage, normals, op, target. When: at a Shoot's Resolve step. Rules: "
        "5.1 step 5.",
    )
    WOULD_STRIKE_CRIT = (
        "would_strike_crit",
        "Value: ``False`` -> whether ``op``'s strike on ``target`` counts as a crit. "
        "Keywords: op, target. When: at a Fight's strike. Rules: 5.2 step 4.",
    )
    WOULD_STRIKE_DAMAGE = (
        "would_strike_damage",
        "Value: ``dmg`` -> the damage of ``op``'s strike (``crit``) on ``target``. Keywords: "
        "crit, op, target. When: at a Fight's strike. Rules: 5.2 step 4.",
    )
    WOULD_SUPPORT_DISTANCE = (
        "would_support_distance",
        "Value: ``float(inches)`` -> the distance of a support rule of ``op``. Keywords: op. "
        "When: an equipment support distance is checked. Rules: 7.2.",
    )
    WOULD_TARGET = (
        "would_target",
        "Value: ``tg`` (targeting) -> the targeting of ``target`` by ``op``. Keywords: op, "
        "target. When: targeting is worked out. Rules: 4.4, 4.5.",
    )
    WOULD_USE_WEAPON_RULES = (
        "would_use_weapon_rules",
        "Value: ``rules`` (weapon rules) -> the rules of ``op``'s ``weapon`` (``kind``) "
        'against ``target`` (``""``: not known). Keywords: kind, op, target, weapon. When: a '
        "weapon's rules are read (``engine.game.weapons.weapon_rules``: target selection, "
        "the attack profile, the Shoot's Blast and Torrent, Heavy); a hook that removes, "
        "ignores or changes a rule others may give is added ``last``. Rules: 6.",
    )
    KT21_DIE_DAMAGE = (
        "kt21_die_damage",
        "Value: ``0`` -> the damage other rules add to one unblocked attack die (a strike, or "
        "a hit the saves left; ``crit``: a critical one) of ``op``'s ``weapon`` (``kind``) on "
        "``target``, inflicted besides the die's own damage (e.g. a +1 damage psychic power). "
        "Keywords: crit, kind, op, target, weapon. When: a KT21 shooting attack or strike "
        "inflicts its damage (engine.rules.kt21.die_damage). Rules: rules/KT21.md 10.1 step "
        "6, 11 step 4, 16.23.",
    )
    KT21_IGNORE_DIE_DAMAGE = (
        "kt21_ignore_die_damage",
        "Value: ``0`` -> the x of a D6 rolled for each unblocked attack die of ``op``'s "
        "``weapon`` (``kind``) on ``target``: on x+ that die's own damage is ignored, the damage "
        "other rules added is not (0: no such roll). Keywords: kind, op, target, weapon. "
        "When: a KT21 shooting attack or strike inflicts its damage "
        "(engine.rules.kt21.die_damage). Rules: rules/KT21.md 16.23.",
    )
    KT21_SPLASH_TARGETS = (
        "kt21_splash_targets",
        "Value: ``hit`` (operative ids: ``target`` first, then every operative Visible to and "
        "within 2\" of it) -> the operatives Splash's mortal wounds reach (a rule may leave "
        "some out, e.g. Blast Padding). Keywords: op, target. When: a KT21 shooting attack by "
        "``op`` on ``target`` retains critical hits with a Splash x weapon "
        "(engine.rules.kt21.shoot). Rules: rules/KT21.md 12 Splash.",
    )
    KT21_REPEAT_ATTACK = (
        "kt21_repeat_attack",
        'Value: ``""`` -> the name of a rule that lets ``op`` repeat its shooting attack '
        "against ``target`` with ``weapon`` (``overwatch``: in an Overwatch); the repeat is "
        "offered only while ``target`` is still a valid target, and may use a Limited weapon. "
        "Keywords: op, overwatch, target, weapon. When: every attack of a KT21 shooting "
        "attack's action is resolved (engine.rules.kt21.repeat_attack). Rules: "
        "rules/KT21.md 10.1, 12 Limited, 16.27.",
    )
    # KT18
    KT18_VICTORY = (
        "kt18_victory",
        'Value: ``(winner, victory)`` -> the result of a KT18 battle: ``winner`` ``"A"``, '
        '``"B"`` or ``""``, ``victory`` ``"major"``, ``"minor"`` or ``"draw"`` (the '
        "flow's default: most VP wins a major victory, equal VP a draw). Keywords: vp. When: after "
        "the fifth battle round, once ``battle_ending`` is done. Rules: rules/KT18.md 9.6.",
    )
    KT18_CAN_OVERWATCH = (
        "kt18_can_overwatch",
        "Value: ``False`` -> whether ``shooter`` (a target of ``charger``'s charge that may "
        "React) can fire Overwatch at ``charger`` (a weapon in range and visible...). "
        "Keywords: charger, shooter. When: the Reactions of a KT18 charge are listed. "
        "Rules: rules/KT18.md 3.11.",
    )
    KT18_OVERWATCH_FRAME = (
        "kt18_overwatch_frame",
        "Value: ``None`` -> the frame that resolves ``shooter``'s Overwatch at ``charger`` "
        "(it pops itself). Keywords: charger, shooter. When: a target chose the Reaction "
        "Overwatch. Rules: rules/KT18.md 3.11.",
    )
    POSITION_TOKENS = (
        "position_tokens",
        "Value: a refusal text (the ruleset keeps no tokens of the round in a position) -> "
        "``None`` when a rule module accepts ``tokens`` (a tuple of names) as ``op``'s tokens "
        "of the round (``OperativeState.done``), else why not. Keywords: op, tokens. When: a "
        "scripted position gives an operative ``tokens`` (engine.game.scenario.position). "
        "Rules: rules/KT18.md 8.1.",
    )

    KT18_GRENADE_ALLOWED = (
        "kt18_grenade_allowed",
        "Value: ``False`` -> whether ``op`` may fire a Grenade weapon although ``thrower``, "
        "another model of its kill team, fired one this phase. Keywords: op, thrower. When: "
        "a KT18 model's ranged weapons are listed. Rules: rules/KT18.md 5.11, 11.3.",
    )
    KT18_SHOOTING_HIT_MODIFIER = (
        "kt18_shooting_hit_modifier",
        "Value: the summed modifier of ``op``'s hit rolls at ``target`` -> the modifier with "
        "the rules' changes (Smoke in the Air: -1 in the Shooting phase; ``weapon`` is the "
        "weapon's Kt18Weapon). Keywords: op, target, weapon. When: a KT18 ranged weapon's "
        "attacks are made. Rules: rules/KT18.md 6.2, 11.3.",
    )


class PloyTrigger(_Declared):
    """The ploy triggers (:mod:`engine.game.ploys`, :meth:`engine.game.context.Hooks.ploy`,
    :meth:`engine.game.work.Work.defer_window`): each contract says when the window opens,
    the information it carries and the rules section."""

    GAMBIT = (
        "gambit",
        "When: the Gambit step: strategy ploys and other strategic gambits. Rules: 1.4.",
    )
    TURNING_POINT_START = (
        "turning_point_start",
        "When: a turning point begins, before the Initiative step (``tp``). Rules: 1.3.",
    )
    FIREFIGHT_START = (
        "firefight_start",
        "When: the Firefight phase begins (``tp``). Rules: 1.5.",
    )
    FIREFIGHT_END = (
        "firefight_end",
        "When: the Firefight phase ends (``tp``). Rules: 1.5.",
    )
    TURNING_POINT_END = (
        "turning_point_end",
        "When: the turning point ends, after the Firefight phase (``tp``). Rules: 1.3.",
    )
    ACTIVATION_START = (
        "activation_start",
        "When: an operative ``op`` was activated (order determined, AP generated). Rules: 1.5.",
    )
    ACTIVATION_END = (
        "activation_end",
        "When: ``op``'s activation is ending, before it is expended. Rules: 1.5.",
    )
    DURING_ACTIVATION = (
        "during_activation",
        "When: between the actions of ``op``'s activation: offered among its action choices "
        "(not a window). Rules: 1.5, 7.1.",
    )
    COUNTERACT_START = (
        "counteract_start",
        "When: an operative ``op`` begins a counteraction. Rules: 1.6.",
    )
    ACTION_DECLARED = (
        "action_declared",
        "When: ``op`` chose an action (``mode``, ``action``, ``text``), before it begins; a "
        "ploy that makes it illegal gets it refused. Rules: 3.1, 7.1.",
    )
    MOVED = (
        "moved",
        "When: ``op`` finished the movement of a move ``action`` (from ``x0``, ``y0``, "
        "``z0``), before that action ends. Rules: 3.2.",
    )
    TARGET_SELECTED = (
        "target_selected",
        "When: a target ``target`` of ``op``'s Shoot or Fight with ``weapon`` (``kind``) was "
        "selected. Rules: 5.1 step 1, 5.2 step 1.",
    )
    ATTACK_DICE = (
        "attack_dice",
        "When: attack dice were rolled (Shoot; each side of a Fight). Rules: 5.1 step 3, 5.2 "
        "step 3.",
    )
    DEFENCE_DICE = (
        "defence_dice",
        "When: defence dice were rolled (Shoot). Rules: 5.1 step 4.",
    )
    STRIKE = (
        "strike",
        "When: a success was chosen to strike in a Fight (``op`` strikes ``target`` with a "
        "``die``), before it is resolved. Rules: 5.2 step 4.",
    )
    RESOLVE_START = (
        "resolve_start",
        "When: a Fight's Resolve Attack Dice step begins (``op`` the attacker, ``target`` the "
        "defender). Rules: 5.2 step 4.",
    )
    INCAPACITATED = (
        "incapacitated",
        "When: an operative ``op`` was incapacitated, before it is removed. Rules: 2.3.",
    )
    STAT_CHANGED = (
        "stat_changed",
        "When: stat changes begun during an action applied as it ended: one window per "
        "operative ``op`` and changed ``stat``. Rules: 2.1.",
    )


class DecisionKind(_Declared):
    """The kinds of decisions (:meth:`engine.game.work.Work.decide`,
    :attr:`engine.game.state.Decision.kind`): each contract says who decides what, and the
    rules section."""

    ACCURATE = (
        "accurate",
        "When: the attacker chooses how many Accurate successes to retain. Rules: 6 Accurate.",
    )
    ACTION = (
        "action",
        "When: an activated operative's player chooses its next action (or ends the "
        "activation). Rules: 1.5, 3.",
    )
    ACTIVATE = (
        "activate",
        "When: a player activates a ready operative. Rules: 1.5.",
    )
    ALLOCATE_SAVES = (
        "allocate_saves",
        "When: the defender chooses which retained attack dice its saves block, when two "
        "allocations would differ in effect (``Allocate saves crit>crit normal>normal``; "
        ":mod:`engine.game.allocation`). Rules: 5.1 step 5.",
    )
    ATTACK_TARGET = (
        "attack_target",
        "When: the player of an operative whose Shoot action's header was chosen (``Shoot "
        "KAS-1``) chooses its weapon and primary target (a complete action, ``Shoot KAS-1 "
        "bolt pistol at LEG-2``, as the complete listing of the action decision has it); the "
        "header is listed only when one exists. Rules: 3.2, 5.1 steps 1-2, 9.3.",
    )
    COUNTERACT = (
        "counteract",
        "When: a player counteracts with an operative (or passes); also the decision of a "
        "counteraction's action. Rules: 1.6.",
    )
    COVER_SAVE = (
        "cover_save",
        "When: the defender chooses which cover save to retain. Rules: 4.5, 5.1 step 4.",
    )
    DEPLOY = (
        "deploy",
        "When: a player sets up an operative. Rules: 1.2.",
    )
    DEPLOY_ORDER = (
        "deploy_order",
        "When: the player of an operative just set up gives it an Engage or Conceal order "
        "(``Op order engage``). Rules: rules/KT21.md 1.2, 5.",
    )
    DESTINATION = (
        "destination",
        "When: the player of an operative whose move action's header was chosen (``Reposition "
        "KAS-1``) chooses its destination (a complete action, ``Reposition KAS-1 to 8,4``, "
        "listed or any exact point the move reaches), or ``Back`` when it has none (the verb "
        "is then not offered again in that choice). Rules: 3.2, 3.3.",
    )
    DICE_PLOY = (
        "dice_ploy",
        "When: a player may use a ploy in an attack or defence dice window. Rules: 7.1.",
    )
    DROP_ZONE = (
        "drop_zone",
        "When: the player with initiative chooses a drop zone. Rules: 1.2.",
    )
    EQUIPMENT = (
        "equipment",
        "When: a player selects its universal equipment. Rules: 7.2.",
    )
    EQUIPMENT_SETUP = (
        "equipment_setup",
        "When: a player sets up an equipment item. Rules: 7.2.",
    )
    FREE_ACTION = (
        "free_action",
        "When: the player of an operative given a free action chooses it. Rules: 3.1.",
    )
    FUSILLADE = (
        "fusillade",
        "When: the attacker of a KT21 Fusillade weapon splits its attack dice between the "
        'target and the other valid targets within 2" of it (``Split 3,1,0``: dice per '
        "target in the order listed). Rules: rules/KT21.md 12 Fusillade.",
    )
    GAMBIT = (
        "gambit",
        "When: a player uses a strategic gambit or passes in the Gambit step. Rules: 1.4.",
    )
    GUARD = (
        "guard",
        "When: the player of an On Guard operative decides whether to interrupt. Rules: 9.3.",
    )
    INITIATIVE = (
        "initiative",
        "When: the roll-off winner decides who has initiative. Rules: 1.2, 1.4.",
    )
    INITIATIVE_CARD = (
        "initiative_card",
        "When: a player may play an initiative card. Rules: 1.4.",
    )
    INTERRUPT = (
        "interrupt",
        "When: the player of an interrupting On Guard operative chooses its action. Rules: 9.3.",
    )
    INVULNERABLE_SAVE = (
        "invulnerable_save",
        "When: a KT21 defender with an Invulnerable Save chooses it (its full DF at x+, AP "
        "ignored) or its Save (DF less AP), when the choice matters (``Save invulnerable``, "
        "``Save normal``). Rules: rules/KT21.md 10.3.",
    )
    KT21_COVER_SAVE = (
        "kt21_cover_save",
        "When: a KT21 defender in Cover chooses whether one defence die is retained unrolled "
        "as a normal save (``Cover save normal``) or rolled (``Cover save none``); asked only "
        "when a critical hit is retained. Rules: rules/KT21.md 10.1 step 4, 10.2.",
    )
    KT21_FIGHT_RESOLVE = (
        "kt21_fight_resolve",
        "When: a side of a KT21 fight strikes or parries with one of its hits (``Strike crit``, "
        "``Block normal with crit``: a parry is written Block; ``Block nothing with ...`` "
        "discards a die). Rules: rules/KT21.md 11 step 4, 12 Brutal, DC 16.21.",
    )
    KT21_EQUIPMENT = (
        "kt21_equipment",
        "When: a KT21 player selects in secret one more item of its faction equipment "
        "(``Equipment <item>``, up to 10EP) or ends its selection (``Equipment done``). "
        "Rules: rules/KT21.md 1.2 step 6.",
    )
    KT21_EQUIPMENT_ASSIGN = (
        "kt21_equipment_assign",
        "When: after both KT21 equipment selections are revealed, a player gives its next item "
        "to one of its operatives (``Equipment <item> on <operative>``). Rules: rules/KT21.md "
        "1.2 step 6.",
    )
    KT21_FIGHT_WEAPON = (
        "kt21_fight_weapon",
        "When: the defender of a KT21 fight with several melee weapons selects one "
        "(``Retaliate OP with WEAPON``). Rules: rules/KT21.md 11 step 2.",
    )
    OP_TOKENS = (
        "op tokens",
        "When: at the end of a turning point, a player removes its tokens of a tac op to score "
        "(Martyrs, Dominate), one at a time, or keeps the rest. Rules: 8.4.",
    )
    OVERWATCH = (
        "overwatch",
        "When: a player with no ready operatives, whose opponent has some, takes its turn: an "
        "operative of it overwatches (``Act KAS-1 overwatch``) or it passes. "
        "Rules: rules/KT21.md 3.3, 3.5.",
    )
    PLOY = (
        "ploy",
        "When: a player uses a ploy or passes in a ploy window. Rules: 7.1.",
    )
    PRIMARY_OP = (
        "primary op",
        "When: a player selects its primary op in secret. Rules: 8.1.",
    )
    REBOOT_PICK = (
        "reboot pick",
        "When: a player picks a marker number in secret (crit op Reboot). Rules: 8.3.",
    )
    RECON = (
        "recon",
        "When: a player whose scouting option is Recon picks one of its operatives wholly "
        "within its drop zone to make a free Dash (``Act KAS-1 recon``) or passes. "
        "Rules: rules/KT21.md 1.2.",
    )
    ROLES = (
        "roles",
        "When: the KT21 set-up roll-off winner decides who is the Defender (``Op defender "
        "A``). Rules: rules/KT21.md 1.2.",
    )
    SCOUTING = (
        "scouting",
        "When: a player picks its scouting option in secret (``Op scouting fortify``). "
        "Rules: rules/KT21.md 1.2.",
    )
    REROLL = (
        "reroll",
        "When: a player chooses the dice to re-roll (Balanced, Ceaseless, Relentless, ploys). "
        "Rules: 2.4, 6.",
    )
    RESOLVE = (
        "resolve",
        "When: a Fight side strikes or blocks with one of its successes. Rules: 5.2 step 4.",
    )
    RETALIATE = (
        "retaliate",
        "When: the defender selects the weapon it retaliates with in a Fight. Rules: 5.2 step 1.",
    )
    RETENTION_RULE = (
        "retention_rule",
        "When: the attacker applies a weapon rule that changes retained dice (Severe, "
        "Rending, Punishing...). Rules: 6.",
    )
    SAME_FEATURE = (
        "same_feature",
        "When: the defender chooses whether the same terrain feature provides cover. Rules: 4.5.",
    )
    SETUP = (
        "setup",
        "When: the set-up of the battle (team selection; :func:`engine.game.setup`). Rules: 1.2.",
    )
    STAKE_CLAIM = (
        "stake claim",
        "When: a player stakes a claim on a marker (crit op Stake Claim). Rules: 8.3.",
    )
    TAC_ARCHETYPE = (
        "tac archetype",
        "When: a KT21 player selects in secret the archetype of its three tac ops (then "
        "those of its tac ops the engine has). Rules: KT21 1.2, 15.3.",
    )
    TAC_OP = (
        "tac op",
        "When: a player selects its tac op in secret. Rules: 8.4.",
    )
    TEAM_RULE = (
        "team_rule",
        "When: a player makes a choice a team rule gives (:mod:`engine.rules.choices`). "
        "Rules: team rules.",
    )
    TORRENT = (
        "torrent",
        "When: the attacker selects the secondary targets of a Torrent weapon. Rules: 6 Torrent.",
    )
    HATCH_IN_MOVE = (
        "hatch_in_move",
        "When: the player of a KT21 operative whose Normal Move ended with a hatchway it may "
        "operate chooses to operate it during the move (``Operate hatch KAS-1 centre hatch``, "
        "then the rest of the move) or passes. Rules: rules/KT21.md 13, DC 16.35.",
    )
    # KT18
    KT18_OBJECTIVE_MARKER = (
        "kt18_objective_marker",
        "When: a player places its objective marker in the Covert War set-up (``Op marker at "
        '15,11``; the listed points are a 1" grid, any legal point is accepted). Rules: '
        "rules/KT18.md 9.3.",
    )
    KT18_BATTLEFIELD_SPLIT = (
        "kt18_battlefield_split",
        "When: the player with the least strategic advantage chooses the centre line that "
        "splits the battlefield into deployment zones (``Op split west east``). Rules: "
        "rules/KT18.md 9.5.",
    )
    KT18_DEPLOYMENT_ZONE = (
        "kt18_deployment_zone",
        "When: the player with the greatest strategic advantage picks its deployment zone "
        "(``Op zone west``). Rules: rules/KT18.md 9.5.",
    )
    KT18_DEPLOY = (
        "kt18_deploy",
        "When: a player sets up one model in its Covert War deployment zone (``Deploy "
        'TEST-1 at 3,4``; listed spots a 2" grid, any legal spot accepted). Rules: '
        "rules/KT18.md 9.5.",
    )

    # KT18
    KT18_CHOOSE_SHOOTER = (
        "kt18_choose_shooter",
        "When: in a section of the KT18 Shooting phase, a player chooses a model to shoot "
        "(``Shoot KAS-1``) or passes. Rules: rules/KT18.md 5.1, 5.2.",
    )
    KT18_CHOOSE_WEAPON = (
        "kt18_choose_weapon",
        "When: a KT18 shooting model chooses its next ranged weapon and initial target "
        "(``Shoot KAS-1 bolter at LEG-2``; in an Overwatch ``Overwatch ...``) or ``Done``. "
        "Rules: rules/KT18.md 5.3, 6.1, 3.11.",
    )
    KT18_MORE_TARGETS = (
        "kt18_more_targets",
        "When: a KT18 attacker adds a target for its attacks (``Also LEG-3``) or ``Done``. "
        "Rules: rules/KT18.md 5.5, 7.5.",
    )
    KT18_SPLIT = (
        "kt18_split",
        "When: a KT18 attacker declares how many attacks go to each of its targets "
        "(``Split 2,1``). Rules: rules/KT18.md 5.5, 7.5.",
    )
    KT18_CHOOSE_FIGHTER = (
        "kt18_choose_fighter",
        "When: in a section of the KT18 Fight phase, a player chooses a model to fight "
        "(``Act KAS-1 fight``) or passes. Rules: rules/KT18.md 7.2-7.4.",
    )
    KT18_PILE_IN = (
        "kt18_pile_in",
        "When: a KT18 fighter piles in or consolidates (``Act KAS-1 pile in at x,y``, "
        "``Act KAS-1 consolidate at x,y``) or does not (``Pass``). Rules: rules/KT18.md 7.7.",
    )
    KT18_FIGHT_TARGET = (
        "kt18_fight_target",
        "When: a KT18 fighter chooses its melee weapon and initial target (``Fight KAS-1 "
        "knife at LEG-2``). Rules: rules/KT18.md 7.5, 7.8.",
    )

    # KT18
    KT18_MOVEMENT = (
        "kt18_movement",
        "When: the player whose Movement-phase turn it is picks a model and what it does "
        "(``Move``, ``Advance``, ``Fall Back``, ``Ready``, ``Charge KT18-1 at X``) or ends its "
        "turn (``Pass``). Rules: rules/KT18.md 3.1.",
    )
    KT18_DESTINATION = (
        "kt18_destination",
        "When: the player of a model that is moving (a move, an Advance after its roll, a "
        "Fall Back) chooses where it ends (``Back`` when it has no destination). "
        "Rules: rules/KT18.md 3.4-3.7.",
    )
    KT18_CHARGE_TARGETS = (
        "kt18_charge_targets",
        "When: a charging model's player adds a target (``Also X``) or is done (``Done``). "
        "Rules: rules/KT18.md 3.10.",
    )
    KT18_REACTION = (
        "kt18_reaction",
        "When: the player of targets of a charge has one React (``Overwatch X``, ``Retreat X "
        "to x,y``) or stops reacting (``Pass``). Rules: rules/KT18.md 3.11, 3.12.",
    )
    KT18_CHARGE_MOVE = (
        "kt18_charge_move",
        "When: after the charge roll, the charger's player chooses where its charge move (or "
        "failed-charge move) ends, or (failed only) ``Pass``. Rules: rules/KT18.md 3.13.",
    )
    KT18_NERVE_ORDER = (
        "kt18_nerve_order",
        "When: a player chooses which of its models takes its Nerve test next "
        "(``Nerve test X``). Rules: rules/KT18.md 8.4.",
    )

    # KT18
    KT18_PSYKER = (
        "kt18_psyker",
        "When: in the Psychic phase a player chooses its psyker and the first power it "
        "attempts (``Act KT18-1 psybolt``) or declines (``Pass``). Rules: rules/KT18.md 4.1, "
        "4.2.",
    )
    KT18_PSYCHIC_POWER = (
        "kt18_psychic_power",
        "When: the chosen psyker, with attempts left, attempts another power (``Act KT18-1 "
        "<power>``) or stops (``Done``). Rules: rules/KT18.md 4.2, 4.6.",
    )
    KT18_DENY = (
        "kt18_deny",
        "When: the opponent of a psyker that manifested a power picks one of its psykers "
        'within 24" to take a Deny the Witch test (``Act KT18-2 deny the witch``) or passes '
        "(``Pass``). Rules: rules/KT18.md 4.5.",
    )
    KT18_PSYBOLT_TARGET = (
        "kt18_psybolt_target",
        "When: two or more enemies are equally closest to a psyker whose Psybolt manifested: "
        "its player chooses the one struck (``Act KT18-1 psybolt on KT18-5``). "
        "Rules: rules/KT18.md 4.3.",
    )
    # KT18 Tunnels
    KT18_TUNNELS_ENTER = (
        "kt18_tunnels_enter",
        'When: at the start of its Movement-phase turn, a player picks a model within 1" of a '
        "manhole to go down into the tunnels (``Act KT18-1 enter the tunnels at 4,4``, the "
        "point naming the manhole) or ``Pass``. Rules: rules/KT18.md 11.3.",
    )
    KT18_TUNNELS_LEAVE = (
        "kt18_tunnels_leave",
        "When: at the end of its Movement-phase turn, a player places a model that went down "
        'in the previous battle round within 1" of a manhole within 24" of its entry manhole '
        "(``Act KT18-1 leave the tunnels at 4.5,4``; listed spots around each manhole, any "
        "legal spot accepted) or ``Pass`` (the others stay down). Rules: rules/KT18.md 11.3.",
    )


class ChanceKind(_Declared):
    """The kinds of chance nodes (:meth:`engine.game.work.Work.roll`,
    :attr:`engine.game.state.DiceRequest.kind`): each contract says what is rolled, and the
    rules section."""

    ATTACK = (
        "attack",
        "Rolls: attack dice (Shoot; each side of a Fight). Rules: 5.1 step 3, 5.2 step 3.",
    )
    CRIT_OP = (
        "crit op",
        "Rolls: the crit op's roll. Rules: 8.3.",
    )
    DEFENCE = (
        "defence",
        "Rolls: defence dice (Shoot). Rules: 5.1 step 4.",
    )
    HOT = (
        "hot",
        "Rolls: a Hot roll: 1 D6. Rules: 6 Hot.",
    )
    INITIATIVE_REROLL = (
        "initiative_reroll",
        "Rolls: the initiative card re-roll: 1 D6. Rules: 1.4.",
    )
    JUMP_TEST = (
        "jump_test",
        "Rolls: a KT21 jump test: 1 D6 (1 fails). Rules: KT21 7.4.",
    )
    MINES = (
        "mines",
        "Rolls: the Mines' damage roll. Rules: 7.2 Mines.",
    )
    REROLL = (
        "reroll",
        "Rolls: the re-roll of chosen dice. Rules: 2.4.",
    )
    ROLL_OFF = (
        "roll_off",
        "Rolls: a roll-off: 2 ordered D6 (A's then B's). Rules: 1.2, 1.4, 2.4.",
    )
    SMOKE = (
        "smoke",
        "Rolls: a smoke marker's duration roll: 1 D6. Rules: 7.2 Smoke Grenade.",
    )
    STUN = (
        "stun",
        "Rolls: a stun test: 1 D6. Rules: 7.2 Stun Grenade.",
    )
    TEAM_RULE = (
        "team_rule",
        "Rolls: a roll a team rule asks for (:mod:`engine.rules.choices`). Rules: team rules.",
    )
    KT21_IGNORE_DAMAGE = (
        "kt21_ignore_damage",
        "Rolls: one D6 for one attack die's damage a rule ignores on x+. Rules: KT21 16.23.",
    )
    # KT18
    KT18_STRATEGIC_ADVANTAGE = (
        "kt18_strategic_advantage",
        "Rolls: one player's strategic advantage: 2 D6, summed. Rules: rules/KT18.md 9.3.",
    )
    KT18_PRIMARY_OBJECTIVE = (
        "kt18_primary_objective",
        "Rolls: the Covert War primary objective: 1 D6 halved (a D3). Rules: rules/KT18.md 9.7.",
    )
    KT18_RANDOM_MARKER = (
        "kt18_random_marker",
        "Rolls: Retrieve the Cache's random objective marker: 1 D6 (faces shared equally "
        "among the markers, the rest rolled again). Rules: rules/KT18.md 1.5, 9.7.",
    )

    # KT18
    KT18_SHOTS = (
        "kt18_shots",
        "Rolls: a random number of shots or attacks (D3, D6, 2D6...). Rules: rules/KT18.md "
        "5.7, 7.5.",
    )
    KT18_HIT = (
        "kt18_hit",
        "Rolls: hit rolls, one D6 per attack against one target. Rules: rules/KT18.md 6.2, 7.6.",
    )
    KT18_WOUND = (
        "kt18_wound",
        "Rolls: wound rolls, one D6 per hit. Rules: rules/KT18.md 6.5.",
    )
    KT18_SAVE = (
        "kt18_save",
        "Rolls: one saving throw: 1 D6. Rules: rules/KT18.md 6.6, 6.7.",
    )
    KT18_DAMAGE = (
        "kt18_damage",
        "Rolls: a random Damage (D3, D6) of one attack. Rules: rules/KT18.md 6.8.",
    )
    KT18_INJURY = (
        "kt18_injury",
        "Rolls: an Injury roll: one D6, or D dice after an attack of Damage D above 1 (the "
        "highest counts). Rules: rules/KT18.md 6.9, 6.10.",
    )
    KT18_MORTAL_COUNT = (
        "kt18_mortal_count",
        "Rolls: a random number of mortal wounds (D3...). Rules: rules/KT18.md 6.13.",
    )

    # KT18
    KT18_INITIATIVE = (
        "kt18_initiative",
        "Rolls: a player's 2D6 for the initiative. Rules: rules/KT18.md 2.2.",
    )
    KT18_ADVANCE = (
        "kt18_advance",
        "Rolls: an Advance roll: 1 D6 added to M. Rules: rules/KT18.md 3.7.",
    )
    KT18_CHARGE = (
        "kt18_charge",
        "Rolls: a charge roll: 2D6 inches. Rules: rules/KT18.md 3.13.",
    )
    KT18_BROKEN_CHECK = (
        "kt18_broken_check",
        "Rolls: a broken check: 2D6 against the highest Ld. Rules: rules/KT18.md 8.2.",
    )
    KT18_NERVE = (
        "kt18_nerve",
        "Rolls: a Nerve test: 1 D6. Rules: rules/KT18.md 8.4.",
    )

    # KT18 terrain and environment
    KT18_DANGEROUS_TERRAIN = (
        "kt18_dangerous_terrain",
        "Rolls: a Dangerous terrain test: 1 D6, a 1 is a mortal wound. Rules: rules/KT18.md 10.4.",
    )
    KT18_FALLING_TEST = (
        "kt18_falling_test",
        "Rolls: a Falling test: 1 D6, a 1 falls. Rules: rules/KT18.md 10.7.",
    )
    KT18_FALLING_DAMAGE = (
        "kt18_falling_damage",
        'Rolls: falling damage: 1 D6 per full 3" fallen (one fewer for a jump down), each 5+ '
        "a mortal wound. Rules: rules/KT18.md 10.8, 10.9.",
    )
    KT18_ENVIRONMENT = (
        "kt18_environment",
        "Rolls: the Sector Imperialis environment table: 1 D6. Rules: rules/KT18.md 11.3.",
    )
    # KT18
    KT18_PSYCHIC_TEST = (
        "kt18_psychic_test",
        "Rolls: a Psychic test: 2D6 against the power's warp charge. Rules: rules/KT18.md 4.4.",
    )
    KT18_DENY_TEST = (
        "kt18_deny_test",
        "Rolls: a Deny the Witch test: 2D6 that must beat the Psychic test's total. "
        "Rules: rules/KT18.md 4.5.",
    )


EVENT_KINDS: frozenset[str] = frozenset(m.value for m in EventKind)
"""Every declared event kind, as plain strings."""
WOULD_HOOKS: frozenset[str] = frozenset(m.value for m in Would)
"""Every declared *would* hook name, as plain strings."""
PLOY_TRIGGERS: frozenset[str] = frozenset(m.value for m in PloyTrigger)
"""Every declared ploy trigger, as plain strings."""
DECISION_KINDS: frozenset[str] = frozenset(m.value for m in DecisionKind)
"""Every declared decision kind, as plain strings."""
SECRET_DECISIONS: frozenset[str] = frozenset(
    {
        DecisionKind.EQUIPMENT.value,  # 7.2: hidden until both selections are revealed
        DecisionKind.PRIMARY_OP.value,  # 8.1: hidden until the end of the battle
        DecisionKind.REBOOT_PICK.value,  # 8.3 Reboot: the first pick hidden until the second
        DecisionKind.SCOUTING.value,  # KT21 1.2: hidden until both are revealed
        DecisionKind.TAC_OP.value,  # 8.4: hidden until revealed
        DecisionKind.TAC_ARCHETYPE.value,  # KT21 1.2: tac ops selected in secret
        DecisionKind.KT21_EQUIPMENT.value,  # KT21 1.2 step 6: hidden until both are revealed
    }
)
"""The decision kinds whose choice is a *secret selection*: what the deciding player chooses
there is hidden from its opponent afterwards (:func:`engine.game.observation.observe`), until
the rules reveal it. Every other decision's choice shows in the opponent's observation (or in
the procedure in progress, which shows once it goes on). Each has a resampler registered with
:func:`engine.game.secrets.register_secret` by the rule module that keeps the secret
(:func:`engine.game.secrets.resample`); ``tests/test_information.py`` checks the marking
against what ``observe`` hides."""
CHANCE_KINDS: frozenset[str] = frozenset(m.value for m in ChanceKind)
"""Every declared chance kind, as plain strings."""

_WHAT = {
    id(EVENT_KINDS): "event kind",
    id(WOULD_HOOKS): "would hook",
    id(PLOY_TRIGGERS): "ploy trigger",
    id(DECISION_KINDS): "decision kind",
    id(CHANCE_KINDS): "chance kind",
}


def undeclared(declared: frozenset[str], name: object) -> UndeclaredNameError:
    """The error for ``name`` missing from ``declared`` (one of the frozensets above): it
    names the vocabulary, the name and the closest declared names."""
    what = _WHAT.get(id(declared), "name")
    close = difflib.get_close_matches(str(name), sorted(declared), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return UndeclaredNameError(
        f"undeclared {what} {name!r}: declare it with its contract in engine.game.vocabulary{hint}"
    )


def check(declared: frozenset[str], name: object) -> None:
    """Raise :class:`UndeclaredNameError` unless ``name`` is in ``declared`` (one of
    :data:`EVENT_KINDS`, :data:`WOULD_HOOKS`, :data:`PLOY_TRIGGERS`, :data:`DECISION_KINDS`,
    :data:`CHANCE_KINDS`).

    Raises:
        UndeclaredNameError: naming ``name`` and the closest declared names.
    """
    if name not in declared:
        raise undeclared(declared, name)
