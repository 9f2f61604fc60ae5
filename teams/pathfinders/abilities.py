"""The Pathfinders' operatives' abilities (registered by rule id in
``engine.rules.registry``), lane pf-core: Art Of War (Shas'Ui), Fearless On The Frontline
and Group Activation (Shas'La), Multi-Dimensional Vision and the unique action System Jam
(Transpectral Interference). The drones' abilities are in :mod:`teams.pathfinders.drones`,
Markerlight in :mod:`teams.pathfinders.markerlights`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.effects import cannot_be_obscured, unobscure
from engine.rules.registry import register
from engine.rules.unique_actions import SelectingAction
from teams.pathfinders.common import has_keyword, is_pathfinder, mine
from teams.pathfinders.markerlights import can_markerlight

SHAS_UI = "SHAS'UI"
SHAS_LA = "SHAS'LA"
TRANSPECTRAL = "TRANSPECTRAL INTERFERENCE"

# -- Art Of War (Shas'Ui) ------------------------------------------------------------------------

MONTKA = "mont'ka"
KAUYON = "kauyon"
DOCTRINES = (MONTKA, KAUYON)
ART_OF_WAR = "pf_art_of_war"
MONTKA_MOVE = 1.0
_DOCTRINE_VALUE = {MONTKA: 0.12, KAUYON: 0.1}


def doctrine(w: Work, player: str) -> str:
    """The Art Of War option ``player`` selected this turning point, or ``""``."""
    for e in w.effects:
        mine_ = e.kind == "token" and not e.op and e.player == player
        if mine_ and e.detail.startswith(ART_OF_WAR + ":"):
            return e.detail.split(":", 1)[1]
    return ""


def op_doctrine(w: Work, op: str) -> str:
    """The Art Of War option that applies to the friendly operative ``op`` now: its
    player's (:func:`doctrine`) through the team's ``would_pathfinder_doctrine`` hooks
    (``fn(w, option, op=) -> option``; a rule such as the Blooded's Veteran may swap it)."""
    chosen = doctrine(w, w.ctx.owner[op])
    if chosen and w.ctx.hooks.would.get("would_pathfinder_doctrine"):
        chosen = str(w.would("would_pathfinder_doctrine", chosen, op=op))
    return chosen


def _used_key(option: str) -> str:
    return f"{ART_OF_WAR}:{option}"


@attrs.frozen(slots=True)
class ArtOfWar:
    """Art Of War (Shas'Ui), a strategic gambit (a free rule option of the Gambit step, not
    a ploy): while the Shas'Ui is on the killzone, select Mont'ka (+1" Move to friendly
    PATHFINDER operatives) or Kauyon (a friendly PATHFINDER operative that can perform the
    Markerlight action may perform one for free in an activation while it has a Conceal
    order) until the end of the turning point. Limits: one option per turning point, each
    option once per battle. Actions ``Use art of war mont'ka`` / ``Use art of war kauyon``."""

    name: str = "Art Of War"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("gambit",)
    repeatable: bool = True

    def _left(self, w: Work, player: str) -> list[str]:
        if doctrine(w, player):
            return []
        if not any(has_keyword(w, o.id, SHAS_UI) for o in w.alive(player)):
            return []
        return [d for d in DOCTRINES if not w.count(player, _used_key(d))]

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """One action per option still available."""
        return [Action("Use", text=f"art of war {d}") for d in self._left(w, player)]

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use art of war <option>``."""
        return action.verb == "Use" and action.text.startswith("art of war ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        if doctrine(w, player):
            return f"{player} already used Art Of War this turning point"
        if not any(has_keyword(w, o.id, SHAS_UI) for o in w.alive(player)):
            return "Art Of War needs the Shas'Ui on the killzone"
        return f"{action}: Art Of War options left: {', '.join(self._left(w, player)) or 'none'}"

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb (:data:`_DOCTRINE_VALUE`): Mont'ka 0.12 operatives (an inch for the
        whole team), Kauyon 0.1 (free tokens for Conceal operatives)."""
        return _DOCTRINE_VALUE.get(action.text.removeprefix("art of war "), 0.1)

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Begin the option (a player token until the end of the turning point)."""
        chosen = action.text.removeprefix("art of war ")
        if chosen not in self._left(w, player):
            raise IllegalActionError(self.refusal(w, player, action, info))
        w.count(player, _used_key(chosen), 1)
        w.add_effect(
            Effect(
                "token",
                "",
                "end_tp",
                source=self.name,
                detail=f"{ART_OF_WAR}:{chosen}",
                player=player,
            )
        )


ART_OF_WAR_RULE = ArtOfWar()


def install_art_of_war(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Art Of War (class docstring). Triggers: the Gambit step; the core's
    would_change_move hook (Mont'ka); the ``activated`` event (Kauyon: a free_action effect
    for ``markerlight`` until the end of that activation). Which option applies to an
    operative is :func:`op_doctrine` (the team hook ``would_pathfinder_doctrine``)."""

    def move(w: Work, change: float, **info: Any) -> float:
        op = str(info.get("op", ""))
        if mine(w, op, players) and op_doctrine(w, op) == MONTKA:
            return change + MONTKA_MOVE
        return change

    def activated(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if ev.get("order") != "conceal" or not mine(w, op, players) or not can_markerlight(w, op):
            return
        if op_doctrine(w, op) == KAUYON:
            w.add_effect(
                Effect("free_action", op, "end_activation", source=op, detail="markerlight")
            )

    hooks.ploy(ART_OF_WAR_RULE, players)
    hooks.transform("would_change_move", move)
    hooks.on("activated", activated)


# -- Fearless On The Frontline (Shas'La) ------------------------------------------------------


def install_fearless_on_the_frontline(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Fearless On The Frontline (Shas'La): it may perform the Markerlight action within
    control range of an enemy operative, and its Fall Back costs 1AP less. Triggers: the
    team's would_pathfinder_markerlight_in_control_range hook; the core's would_cost_action
    hook."""

    def in_range(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info.get("op", ""))
        return allowed or (mine(w, op, players) and has_keyword(w, op, SHAS_LA))

    def cost(w: Work, ap: int, **info: Any) -> int:
        o = info.get("op")
        if info.get("action") != "Fall Back" or o is None:
            return ap
        if mine(w, o.id, players) and has_keyword(w, o.id, SHAS_LA):
            return max(0, ap - 1)
        return ap

    hooks.transform("would_pathfinder_markerlight_in_control_range", in_range)
    hooks.transform("would_cost_action", cost)


# -- Group Activation (Shas'La) ---------------------------------------------------------------

GROUP_FOLLOW = "pf_group_activation"


def _ready_shas_la(w: Work, player: str) -> list[OperativeState]:
    return [o for o in w.alive(player) if o.ready and has_keyword(w, o.id, SHAS_LA)]


@attrs.frozen(slots=True)
class GroupActivationFrame:
    """Group Activation's decision: ``player`` must activate one of its ready SHAS'LA
    operatives (decision kind ``"activate"``, actions ``Activate <op> <order>``) before the
    opponent activates. Pushed when a Shas'La's activation ends; the operative activated
    here does not chain a third one."""

    player: str
    after: str

    def run(self, w: Work) -> None:
        if not _ready_shas_la(w, self.player):
            w.stack.pop()
            return
        w.decide(self.player, "activate")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here")

    def options(self, w: Work) -> list[Action]:
        return [
            Action("Activate", op=o.id, text=order)
            for o in _ready_shas_la(w, self.player)
            for order in ("conceal", "engage")
        ]

    def act(self, w: Work, a: Action) -> None:
        from engine.game import universal

        if a.verb != "Activate" or a not in self.options(w):
            raise IllegalActionError(
                f"{a}: Group Activation ({self.after}) must activate another ready friendly "
                "SHAS'LA operative before the opponent activates"
            )
        w.stack.pop()
        w.effects.append(Effect("token", a.op, "end_tp", source=self.after, detail=GROUP_FOLLOW))
        w.emit("group_activation", op=a.op, after=self.after)
        universal.start_activation(w, w.op(a.op), a.text)


def install_group_activation(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Group Activation (Shas'La): whenever it is expended at the end of its activation,
    the player must at once activate another ready friendly SHAS'LA operative (if any);
    that one's end does not chain a third (never more than two in succession). Not after a
    counteraction. Trigger: the ``activation_ended`` event (a
    :class:`GroupActivationFrame`)."""

    def ended(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if ev.get("counteract") or ev.get("interrupt") or not mine(w, op, players):
            return
        if not has_keyword(w, op, SHAS_LA):
            return
        if any(e.kind == "token" and e.op == op and e.detail == GROUP_FOLLOW for e in w.effects):
            return
        player = w.ctx.owner[op]
        if _ready_shas_la(w, player):
            w.defer_frame(GroupActivationFrame(player=player, after=op))

    hooks.on("activation_ended", ended)


# -- Multi-Dimensional Vision (Transpectral Interference) --------------------------------------


def install_multi_dimensional_vision(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Multi-Dimensional Vision (Transpectral Interference): whenever it is shooting, enemy
    operatives cannot be obscured. Trigger: the core's would_target and would_be_obscured
    hooks (``engine.rules.effects.cannot_be_obscured``: smoke does not obscure either)."""

    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        op = str(info.get("op", ""))
        if not tg.obscured or not mine(w, op, players) or not has_keyword(w, op, TRANSPECTRAL):
            return tg
        return unobscure(tg)

    cannot_be_obscured(hooks, unobscured)


# -- System Jam (Transpectral Interference unique action) ----------------------------------------


@attrs.frozen(slots=True)
class SystemJam(SelectingAction):
    """System Jam (Transpectral Interference, 1AP; a
    :class:`engine.game.rule_actions.RuleActionLike`): an enemy operative visible to it gets
    APL -1 until the end of its next activation. Not while it has a Conceal order or is
    within control range of an enemy operative. Notation ``Act <op> system jam on <enemy>``."""

    name: str = "System Jam"
    text: str = "system jam"
    ap: int = 1
    family: str = ""

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        """The enemy operatives visible to it."""
        kz, me = w.kz, w.place(o)
        return [e.id for e in w.enemies_of(o.id) if w.ctx.visible(kz, me, w.place(e))]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        """What it selects."""
        return f"System Jam selects an enemy operative visible to {o.id}"

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        """Only the Transpectral Interference drone performs it."""
        if not (is_pathfinder(w, o.id) and has_keyword(w, o.id, TRANSPECTRAL)):
            return f"{o.id} is not a Transpectral Interference: only it performs System Jam"
        return None

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        """Not with a Conceal order."""
        if o.order == "conceal":
            return f"{o.id} has a Conceal order (System Jam)"
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: an action point denied to an enemy is worth 0.12 operatives when
        it is still to activate this turning point, 0.05 when the loss waits for the next;
        nothing when its APL is already lowered (changes are capped at -1)."""
        t = w.op(a.target)
        if w.stat_change(t.id, "apl") < 0:
            return 0.0
        return 0.12 if t.ready else 0.05

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """APL -1 on the enemy until the end of its next activation."""
        w.add_effect(Effect("apl", a.target, "end_next_activation", source=o.id, value=-1))


SYSTEM_JAM = SystemJam()


def install_system_jam(hooks: Hooks, players: tuple[str, ...]) -> None:
    """System Jam (class docstring)."""
    hooks.action(SYSTEM_JAM, players)


add_template("group_activation", lambda e: f"  Group Activation: {e['op']} activates next")

register(
    "pathfinders/ability/art_of_war",
    install_art_of_war,
    "Gambit: Mont'ka (+1\" Move) or Kauyon (free Markerlight in Conceal), each once.",
)
register(
    "pathfinders/ability/fearless_on_the_frontline",
    install_fearless_on_the_frontline,
    "Shas'La: Markerlight within enemy control range; Fall Back 1AP cheaper.",
)
register(
    "pathfinders/ability/group_activation",
    install_group_activation,
    "After a Shas'La's activation another ready Shas'La must activate.",
)
register(
    "pathfinders/ability/multi_dimensional_vision",
    install_multi_dimensional_vision,
    "Transpectral Interference: its targets cannot be obscured.",
)
register(
    "pathfinders/unique_action/system_jam",
    install_system_jam,
    "1AP: a visible enemy has APL -1 until the end of its next activation.",
)
