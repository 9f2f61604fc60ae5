"""The Kasrkin's firefight ploys (``rules/KT24.md`` 7.1; registered by rule id in
``engine.rules.registry``): Neutralise Target, Seize The Initiative, Cover Retreat, Give No
Ground."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game import universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.ploys import Reroll
from engine.game.state import Effect, other
from engine.game.work import Work
from engine.rules.ploys import Ploy
from engine.rules.registry import register
from teams.kasrkin.common import (
    is_kasrkin,
    no_cover_saves,
    player_token,
    ploy_installer,
    reroll_gain,
)

# -- Neutralise Target -------------------------------------------------------------------------


def _neutralise_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    op = str(info.get("op", ""))
    if info.get("kind") != "ranged" or not op or w.ctx.owner.get(op) != player:
        return False
    return is_kasrkin(w, op) and no_cover_saves(w)


def _neutralise_faces(action: Action) -> tuple[int, ...]:
    """The faces a ``Ploy neutralise target <faces>`` action re-rolls (``()`` if none)."""
    rest = action.text.removeprefix(NEUTRALISE_TEXT).strip()
    try:
        return tuple(int(v) for v in rest.split(",")) if rest else ()
    except ValueError:
        return ()


NEUTRALISE_TEXT = "neutralise target"


@attrs.frozen(slots=True)
class NeutraliseTarget:
    """Neutralise Target (firefight, 1CP; a :class:`engine.game.ploys.PloyLike`): after a
    friendly KASRKIN operative's attack dice are rolled for a Shoot against a target that
    cannot retain any cover saves or is being scanned (Auspex Scan), its player re-rolls
    any of those attack dice: which ones is the player's choice (failures, and normal
    successes hoping for a critical one too), among the dice not re-rolled yet (2.4).
    Notation ``Ploy neutralise target 2,1`` (the faces re-rolled, one per die, as for the
    weapon re-rolls). Once per turning point."""

    name: str = "Neutralise Target"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("attack_dice",)
    repeatable: bool = False
    rule_id: str = "kasrkin/firefight_ploy/neutralise_target"
    rerolls: bool = True  # (a rule forbidding re-rolls forbids it: Suppressing Fire)

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per non-empty choice of dice not re-rolled yet (faces as a multiset,
        highest first)."""
        from engine.game.attacks import reroll_options

        if not _neutralise_condition(w, player, info):
            return []
        dice, flags = tuple(info.get("dice", ())), tuple(info.get("flags", ()))
        return [
            Action("Ploy", text=f"{NEUTRALISE_TEXT} {','.join(str(v) for v in a.values)}")
            for a in reroll_options("relentless", dice, flags)
            if a.verb == "Re-roll"
        ]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy neutralise target <faces>``."""
        return action.verb == "Ploy" and action.text.startswith(NEUTRALISE_TEXT)

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Neutralise Target re-rolls attack dice not re-rolled yet "
            "('Ploy neutralise target 2,1': their faces), after a friendly KASRKIN operative's "
            "attack roll against a target that cannot retain cover saves or is scanned"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> Reroll:
        """Re-roll the dice chosen."""
        return Reroll(_neutralise_faces(action))

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """The dice core's gain of re-rolling the dice chosen
        (:func:`~teams.kasrkin.common.reroll_gain`: each die valued alone, as one Command
        Re-roll, and summed; a normal success's re-roll is valued too, usually a loss unless
        a critical success matters)."""
        return reroll_gain(w, _neutralise_faces(action), attacking=True)


NEUTRALISE_TARGET_PLOY = NeutraliseTarget()


# -- Seize The Initiative ----------------------------------------------------------------------


def seize_actions(w: Work, op: str) -> tuple[str, ...]:
    """The actions Seize The Initiative lets ``op`` perform now: every action it could
    perform as a free action whose printed cost is 1AP and that is not a move (universal
    Shoot, Fight, Pick Up and Place Marker, Operate Hatch, Guard, Hatchway Fight; unique,
    equipment and mission actions of 1AP, e.g. Auspex Scan, Battle Comms, a grenade; not
    Reposition, Dash, Charge, Fall Back (2AP) nor a rule action counting as a move, e.g.
    Move with Barricade), by the names a free-action grant uses."""
    from engine.game.rule_actions import find_rule_action

    moves = ("Reposition", "Dash", "Fall Back", "Charge")
    o = w.op(op)
    out: list[str] = []
    for a in universal.list_action_options(w, o, "free"):
        if a.verb == "Act":
            act = find_rule_action(w, o, a.text)
            ok = act is not None and act.ap == 1 and act.family not in moves
            name = a.text
        else:
            ok = universal.ACTION_COST.get(a.verb) == 1 and a.verb not in moves
            name = a.verb
        if ok and name not in out:
            out.append(name)
    return tuple(out)


def _seize_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    return w.initiative == other(player)


def _seize_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    return is_kasrkin(w, op)


def _seize(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """A free action among :func:`seize_actions` (1AP, no move)."""
    universal.start_free_action(w, action.target, seize_actions(w, action.target))


def _seize_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """The value of the best shot the operative has where it stands (dice core), as the
    free action is most often a Shoot."""
    from engine.advice.shots import best_shot_now

    o = w.op(action.target)
    return float(best_shot_now(w, o, as_engage=o.order == "engage"))


SEIZE_THE_INITIATIVE_PLOY = Ploy(
    "Seize The Initiative",
    "firefight",
    triggers=("firefight_start",),
    target="friendly",
    condition=_seize_condition,
    eligible=_seize_eligible,
    use_hook=_seize,
    rule_id="kasrkin/firefight_ploy/seize_the_initiative",
    advice=_seize_advice,
)


# -- Cover Retreat -----------------------------------------------------------------------------

COVER_RETREAT_RANGE = 6.0


def _cover_retreat_eligible(w: Work, player: str, op: str, info: Mapping[str, Any]) -> bool:
    """``op`` is another friendly KASRKIN operative, not within control range of an enemy,
    to which the operative falling back was visible and within 6" where it began the Fall
    Back."""
    mover = str(info.get("op", ""))
    if op == mover or not is_kasrkin(w, op) or w.in_enemy_control_range(w.op(op)):
        return False
    start = w.ctx.placement(
        mover, float(info.get("x0", 0.0)), float(info.get("y0", 0.0)), float(info.get("z0", 0.0))
    )
    me = w.place(w.op(op))
    return w.distance(me, start) <= COVER_RETREAT_RANGE and bool(w.ctx.visible(w.kz, me, start))


def _cover_retreat_condition(w: Work, player: str, info: Mapping[str, Any]) -> bool:
    mover = str(info.get("op", ""))
    if info.get("action") != "Fall Back" or w.ctx.owner.get(mover) != player:
        return False
    return is_kasrkin(w, mover)


def _cover_retreat(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
    """The selected friend performs a free Shoot now (its order changed to Engage)."""
    op = action.target
    if w.op(op).order != "engage":
        w.set_op(op, order="engage")
    universal.start_free_action(w, op, ("Shoot",))


def _cover_retreat_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """The value of the best shot the friend can take now (dice core), less a tenth of an
    operative when it gives up a Conceal order."""
    from engine.advice.shots import best_shot_now

    o = w.op(action.target)
    value = float(best_shot_now(w, o, as_engage=True))
    return value - (0.1 if o.order != "engage" else 0.0)


COVER_RETREAT_PLOY = Ploy(
    "Cover Retreat",
    "firefight",
    triggers=("moved",),
    target="friendly",
    condition=_cover_retreat_condition,
    eligible=_cover_retreat_eligible,
    use_hook=_cover_retreat,
    rule_id="kasrkin/firefight_ploy/cover_retreat",
    advice=_cover_retreat_advice,
)
"""Cover Retreat (firefight, 1CP): when a friendly KASRKIN operative has finished the
movement of a Fall Back (trigger ``moved``), another friendly KASRKIN operative not within
control range of enemies, to which it was visible and within 6" when it began, performs a
free Shoot before that Fall Back ends (its order is changed to Engage if needed). Notation
``Ploy cover retreat on <friend>``."""


# -- Give No Ground ----------------------------------------------------------------------------

GIVE_NO_GROUND = "give_no_ground"
GIVE_NO_GROUND_APL = 2
"""The total APL both sides must have contesting the marker. The dataslate (every published
copy of it) says the Kasrkin's total "is 2" and the enemy's "is the same": a 2-2 tie, e.g.
one Kasrkin (APL 2) against one APL 2 enemy or two APL 1 enemies. Played as written: a
4-4 or 3-3 tie is not covered (a tie then still controls for neither, 4.8); no "or more"
is read into it."""


def _gng_markers(w: Work, player: str) -> list[str]:
    """The markers Give No Ground may select: the objective markers, then ``player``'s
    mission markers (tokens of a mission marker kind it owns)."""
    from engine.missions.mission_markers import is_mission_marker

    names = [m.name for m in w.markers]
    names += [t.name for t in w.tokens if is_mission_marker(t) and t.owner == player]
    return names


def _contests(w: Work, o: Any, marker: str) -> bool:
    """``o`` contests the objective marker or mission marker ``marker``."""
    if any(m.name == marker for m in w.markers):
        return bool(universal.contests(w, o, marker))
    from engine.rules.equipment.markers import token_contests

    t = next((t for t in w.tokens if t.name == marker), None)
    return t is not None and bool(token_contests(w, o, t))


def give_no_ground_holds(w: Work, player: str, marker: str) -> bool:
    """The friendly KASRKIN operatives contesting ``marker`` total exactly 2 APL and the
    enemy operatives contesting it total the same (:data:`GIVE_NO_GROUND_APL`), counting
    the APL that counts for control: APL changes, the ``would_control_apl`` and
    ``would_control_totals`` hooks (as :func:`engine.game.universal.apl_controller`)."""
    enemy_player = "B" if player == "A" else "A"
    total = {player: 0, enemy_player: 0}
    ids: list[str] = []
    objective = any(m.name == marker for m in w.markers)
    what = universal.OBJECTIVE_MARKER if objective else universal.MISSION_MARKER
    for o in w.alive():
        if not _contests(w, o, marker):
            continue
        if o.player == player and not is_kasrkin(w, o.id):
            continue
        ids.append(o.id)
        apl = w.would("would_control_apl", w.apl(o), op=o.id, marker=marker, what=what)
        total[o.player] += int(apl)
    if ids and "would_control_totals" in w.ctx.hooks.would:
        total = dict(
            w.would(
                "would_control_totals",
                dict(total),
                ops=tuple(ids),
                marker=marker,
                rule="",
                what=what,
            )
        )
    mine, enemy = total[player], total[enemy_player]
    return mine == GIVE_NO_GROUND_APL and enemy == mine


def _give_no_ground_advice(w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
    """Rule of thumb, only when the tie it breaks holds on that marker now: at the end of the
    Firefight phase, just before the turning point's scoring, a full VP (``VP_VALUE``
    operatives); during an activation (control matters there only for the actions that
    need it) 0.15 while the active operative contests the marker with AP left; else
    nothing."""
    from engine.advice.values import VP_VALUE

    marker = action.text.removeprefix("give no ground ")
    name = next((n for n in _gng_markers(w, player) if n.lower() == marker), "")
    if not name or not give_no_ground_holds(w, player, name):
        return 0.0
    if info.get("trigger") == "firefight_end":
        return VP_VALUE
    op = str(info.get("op", ""))
    if op and w.op(op).ap > 0 and _contests(w, w.op(op), name):
        return 0.15
    return 0.0


@attrs.frozen(slots=True)
class GiveNoGround:
    """Give No Ground (firefight, 1CP; a :class:`engine.game.ploys.PloyLike`): during a
    friendly KASRKIN operative's activation (between its actions, trigger
    ``during_activation``) or at the end of the Firefight phase, select a marker;
    until the end of that activation, or until the end of the turning point (its scoring
    included), when the friendly KASRKIN operatives contesting it total exactly 2 APL and
    the enemy operatives contesting it total the same (a 2-2 tie, as the dataslate says:
    :data:`GIVE_NO_GROUND_APL`), the Kasrkin control it. Once per turning point.
    Notation ``Ploy give no ground <marker>``: an objective marker or one of the player's
    mission markers (the ``would_control_marker`` hook breaks the tie for either). At the
    end of the Firefight phase only the markers where the tie holds are offered (no other
    can be affected before the scoring)."""

    name: str = "Give No Ground"
    kind: str = "firefight"
    cp: int = 1
    triggers: tuple[str, ...] = ("during_activation", "firefight_end")
    repeatable: bool = False
    rule_id: str = "kasrkin/firefight_ploy/give_no_ground"

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per marker it may select, in a friendly KASRKIN operative's activation
        or at the end of the Firefight phase."""
        names = _gng_markers(w, player)
        if info.get("trigger") == "during_activation":
            op = str(info.get("op", ""))
            if w.ctx.owner.get(op) != player or not is_kasrkin(w, op):
                return []
        else:
            # At the end of the Firefight phase nothing moves before the scoring: only a
            # marker where the tie holds now can be affected (the others are not offered).
            names = [n for n in names if give_no_ground_holds(w, player, n)]
        return [Action("Ploy", text=f"give no ground {n.lower()}") for n in names]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Ploy give no ground <marker>``."""
        return action.verb == "Ploy" and action.text.startswith("give no ground ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Give No Ground selects an objective marker, during a friendly KASRKIN "
            "operative's activation or at the end of the Firefight phase"
        )

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """A player token naming the marker, until the end of the activation or of the TP."""
        marker = action.text.removeprefix("give no ground ")
        name = next(n for n in _gng_markers(w, player) if n.lower() == marker)
        during = info.get("trigger") == "during_activation"
        w.add_effect(
            Effect(
                "token",
                "",
                "end_activation" if during else "end_tp",
                source=str(info.get("op", "")) if during else self.name,
                detail=f"{GIVE_NO_GROUND}:{name}",
                player=player,
            )
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """:func:`_give_no_ground_advice`."""
        return _give_no_ground_advice(w, player, action, info)


GIVE_NO_GROUND_PLOY = GiveNoGround()


def install_give_no_ground(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Give No Ground (class docstring): the ``would_control_marker`` hook breaks the tie."""

    def control(w: Work, got: str, **info: Any) -> str:
        name = str(info.get("marker", ""))
        if got or not w.effects:
            return got
        for player in players:
            if player_token(w, player, f"{GIVE_NO_GROUND}:{name}") and give_no_ground_holds(
                w, player, name
            ):
                return player
        return got

    hooks.ploy(GIVE_NO_GROUND_PLOY, players)
    hooks.transform("would_control_marker", control)


def _install_neutralise_target(hooks: Hooks, players: tuple[str, ...]) -> None:
    hooks.ploy(NEUTRALISE_TARGET_PLOY, players)


register(
    "kasrkin/firefight_ploy/neutralise_target",
    _install_neutralise_target,
    "After a Kasrkin's attack dice against a target that cannot retain cover saves (or "
    "scanned): re-roll any of them, the player's choice.",
)
register(
    "kasrkin/firefight_ploy/seize_the_initiative",
    ploy_installer(SEIZE_THE_INITIATIVE_PLOY),
    "At the start of the Firefight phase, the player without initiative: one Kasrkin performs "
    "a free 1AP action that involves no move.",
)
register(
    "kasrkin/firefight_ploy/give_no_ground",
    install_give_no_ground,
    "During a Kasrkin's activation or at the end of the Firefight phase: on a chosen marker, "
    "Kasrkin win a 2-2 APL tie.",
)
register(
    "kasrkin/firefight_ploy/cover_retreat",
    ploy_installer(COVER_RETREAT_PLOY),
    "After a Kasrkin's Fall Back move: a friend within 6\" that saw it (not in enemy control "
    "range) makes a free Shoot.",
)
