"""The universal actions (``rules/KT24.md`` 1.5, 1.6, 3.1, 3.2, 4.8; the Close Quarters
actions, 9.3, are the rule module :mod:`engine.rules.close_quarters`), one room per concept:

- :mod:`.activation`: activations, counteractions, On Guard interrupts and free actions as
  frames; listing and performing an operative's actions.
- :mod:`.catalogue`: the list of the core's universal actions, in listing order.
- :mod:`.movement`: Reposition, Dash, Fall Back, Charge; routes; :func:`cut_action`.
- :mod:`.attack_actions`: Shoot and Fight, the entry into their frames
  (:mod:`engine.game.shoot`, :mod:`engine.game.fight`).
- :mod:`.marker_actions`: Pick Up Marker and Place Marker.

Each action is a :class:`~engine.game.bookkeeping.UniversalAction` with its AP cost, its
conditions and its same-activation exclusions (3.2):

==============  ===  ======================================================================
Reposition      1    not within enemy control range; not with Fall Back or Charge
Dash            1    3"; not within enemy control range; not with Charge
Fall Back       2    only within enemy control range; not with Reposition or Charge
Charge          1    Move +2"; Engage; not within enemy control range; not with Reposition,
                     Dash or Fall Back
Shoot           1    Engage (or a Silent weapon); not within enemy control range
Fight           1    an enemy within control range
Pick Up Marker  1    a marker it controls that can be picked up (by the game option, or
                     as a rule allows: ``would_allow_pick_up``); not within enemy control
                     range; not already carrying a marker (unless a rule says otherwise:
                     ``would_count_carried``, :func:`counted_carried`)
Place Marker    1    carrying; not in the activation it picked the marker up; an operative
                     carrying several names the one it places
==============  ===  ======================================================================

Pick Up Marker also works on the markers rule modules offer (the mission markers of an op,
:func:`rule_markers`); a carrier that is removed puts down every marker it carries (2.3).
Every action at most once per activation (1.5). A counteraction (1.6) is one 1AP action for
free with at most 2" of movement; it is not an activation. Heavy weapons (6): no Shoot after
moving (except the move a ``Heavy (x only)`` allows) and no move after using one.

What the actions and the Shoot and Fight frames share lives below this package, which none
of it imports: :mod:`engine.game.bookkeeping` (AP, once per activation, exclusions,
conditions), :mod:`engine.game.weapons`, :mod:`engine.game.markers` (control, carrying),
:mod:`engine.game.damage`. The names below are re-exported here for the rule modules, the
missions and the agents (``universal.weapons_of``): nothing under ``engine.game`` imports
this package but :mod:`engine.game.flow`.
"""

from engine.game.bookkeeping import (
    ACTION_COST,
    ACTION_FAMILY,
    action_cost,
    enemy_operative,
    order_refusal,
    own_operative,
    precheck,
    rule_precheck,
    spend,
)
from engine.game.damage import incapacitate, inflict, remove_casualties
from engine.game.markers import (
    AREA,
    MISSION_MARKER,
    OBJECTIVE_MARKER,
    apl_controller,
    carry_along,
    contests,
    controller,
    counted_carried,
    is_marker,
    marker_level,
    marker_objective,
    place_marker,
    rule_markers,
    start_carrying,
)
from engine.game.universal.activation import (
    ActivationFrame,
    has_action_options,
    list_action_options,
    perform,
    start_activation,
    start_counteract,
    start_free_action,
)
from engine.game.universal.movement import (
    ACTION_CUT,
    action_cut,
    charge_spots,
    counteract_left,
    cut_action,
    move_args,
    move_candidates,
    move_route,
    note_counteract_move,
    route_distance,
    route_key,
)
from engine.game.weapons import (
    find_weapon,
    in_range,
    primary_weapon_name,
    shoots_in_control_range,
    silent,
    weapon_limit,
    weapon_name,
    weapon_of,
    weapon_rules,
    weapon_usable,
    weapons_of,
)

__all__ = [
    "ACTION_COST",
    "ACTION_CUT",
    "ACTION_FAMILY",
    "AREA",
    "MISSION_MARKER",
    "OBJECTIVE_MARKER",
    "ActivationFrame",
    "action_cost",
    "action_cut",
    "apl_controller",
    "carry_along",
    "charge_spots",
    "contests",
    "controller",
    "counted_carried",
    "counteract_left",
    "cut_action",
    "enemy_operative",
    "find_weapon",
    "has_action_options",
    "in_range",
    "incapacitate",
    "inflict",
    "is_marker",
    "list_action_options",
    "marker_level",
    "marker_objective",
    "move_args",
    "move_candidates",
    "move_route",
    "note_counteract_move",
    "order_refusal",
    "own_operative",
    "perform",
    "place_marker",
    "precheck",
    "primary_weapon_name",
    "remove_casualties",
    "route_distance",
    "route_key",
    "rule_markers",
    "rule_precheck",
    "shoots_in_control_range",
    "silent",
    "spend",
    "start_activation",
    "start_carrying",
    "start_counteract",
    "start_free_action",
    "weapon_limit",
    "weapon_name",
    "weapon_of",
    "weapon_rules",
    "weapon_usable",
    "weapons_of",
]
