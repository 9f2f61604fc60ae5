"""The Pathfinders' specialists' abilities (registered by rule id in
``engine.rules.registry``): Medic! (Medical Technician), Grenadier Specialist (Assault
Grenadier), Inertial Dampener (Marksman) and Veteran (Blooded)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import add_template
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.medic import Medic
from engine.rules.registry import register
from engine.teams.model import Weapon
from teams.pathfinders.support import has_keyword, is_trooper

# -- Medic! (Medical Technician ability) -------------------------------------------------------

MEDICAL_TECHNICIAN = "MEDICAL TECHNICIAN"
MEDIC = Medic("pathfinders", MEDICAL_TECHNICIAN, is_trooper, event="pathfinders_medic_used")
MEDIC_RANGE = MEDIC.inches
MEDIC_SAVED = MEDIC.saved_prefix
"""The token detail prefix of an operative Medic! was used on this turning point."""
medic_for = MEDIC.medic_for
"""The friendly Medical Technician that may use Medic! on an operative now, or ``""``."""


def install_medic(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Medic! (Medical Technician; :class:`engine.rules.medic.Medic` with the keyword
    MEDICAL TECHNICIAN, for PATHFINDER operatives excluding DRONE, 3"): the first time in a
    turning point that another such friendly operative would be incapacitated while
    visible to and within 3" of the Medical Technician, its player may use the rule; it
    stays at 1 wound, both get APL -1, and it may Dash for free to end within the Medical
    Technician's control range. Once per turning point. Medikit cannot select that
    operative this turning point."""
    MEDIC.install(hooks, players)


# -- Inertial Dampener (Marksman ability) ------------------------------------------------------

MARKSMAN = "MARKSMAN"
MARKSMAN_RAIL_RIFLE = "marksman rail rifle"


def install_inertial_dampener(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Inertial Dampener (Marksman): the changes to the Hit stat of its marksman rail rifle
    may be ignored. The player ignores every worsening (being injured, a point-blank
    shot's +1, stat changes, any rule's worsening) and keeps every improvement (ignoring one
    could only hurt: no decision is asked). Trigger: the core's ``would_final_hit`` hook,
    asked after every other change with each change apart (so it does not depend on the
    order the rules were installed). Limits: that weapon only."""

    def hit(w: Work, value: int, **info: Any) -> int:
        op = str(info.get("op", ""))
        if info.get("kind") != "ranged" or w.ctx.owner.get(op) not in players:
            return value
        if not has_keyword(w, op, MARKSMAN) or not str(info.get("weapon", "")).lower().startswith(
            MARKSMAN_RAIL_RIFLE
        ):
            return value
        changes: tuple[int, ...] = info.get("changes", ())
        return int(info["printed"]) + sum(c for c in changes if c < 0)  # improvements only

    hooks.transform("would_final_hit", hit)


# -- Grenadier Specialist (Assault Grenadier ability) ------------------------------------------


ASSAULT_GRENADIER = "ASSAULT GRENADIER"


def grenadier_weapons() -> tuple[Weapon, ...]:
    """The frag and krak grenades Grenadier Specialist gives: the universal equipment's
    profiles (:data:`~engine.rules.equipment.grenades.FRAG`, ``KRAK``) with Hit improved
    by 1 (4+ -> 3+)."""
    from engine.rules.equipment.grenades import FRAG, KRAK

    return tuple(
        attrs.evolve(g, profiles=tuple(attrs.evolve(p, hit=p.hit - 1) for p in g.profiles))
        for g in (FRAG, KRAK)
    )


_GRENADIER_NAMES = frozenset(g.name for g in grenadier_weapons())


def install_grenadier_specialist(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Grenadier Specialist (Assault Grenadier): it can use frag and krak grenades (the
    universal equipment's) with Hit improved by 1, and doing so never counts towards the
    kill team's limited uses of them. Trigger: a weapon source gives every friendly ASSAULT
    GRENADIER operative the two grenades (:func:`grenadier_weapons`, whether or not its
    player selected Explosive Grenades), and the core's ``would_own_weapon`` hook makes them
    its own: a Shoot with them spends no use of Explosive Grenades, it is never refused for
    lack of uses, and the equipment gives it no second copy. Limits: none (no limited uses
    of their own); other operatives still spend the team's uses. They are not weapons of
    its datacard (the Markerlight effects do not apply to them)."""
    weapons = grenadier_weapons()

    def grenadier(w: Work, op: str) -> bool:
        return w.ctx.owner.get(op) in players and has_keyword(w, op, ASSAULT_GRENADIER)

    def source(w: Work, op: str, kind: str) -> tuple[Weapon, ...]:
        if kind != "ranged" or not grenadier(w, op):
            return ()
        return weapons

    def own(w: Work, value: bool, **info: Any) -> bool:
        if value or str(info.get("weapon", "")) not in _GRENADIER_NAMES:
            return value
        return grenadier(w, str(info.get("op", "")))

    hooks.weapon_source(source)
    hooks.transform("would_own_weapon", own)


# -- Veteran (Blooded ability) -----------------------------------------------------------------

BLOODED = "BLOODED"
_VETERAN = "pf_veteran"


def _veteran_switch(w: Work, op: str) -> str:
    """The Art Of War option the Blooded ``op`` uses instead in this activation, or ``""``."""
    for e in w.effects:
        if e.kind == "token" and e.op == op and e.detail.startswith(_VETERAN + ":"):
            return e.detail.split(":", 1)[1]
    return ""


@attrs.frozen(slots=True)
class Veteran:
    """Veteran (Blooded; a rule option, free, offered between the actions of its activation:
    trigger ``during_activation``): in a turning point in which its player used the Shas'Ui's
    Art Of War, the Blooded may use the other option instead for the rest of its activation:
    Kauyon instead of Mont'ka (no +1" Move; a free Markerlight action while it has a Conceal
    order) or Mont'ka instead of Kauyon (+1" Move; no free Markerlight action). Once per
    activation. Notation ``Use veteran kauyon`` / ``Use veteran mont'ka``. (Art Of War itself
    is the pf-core lane's: :mod:`teams.pathfinders.abilities`.)"""

    name: str = "Veteran"
    kind: str = "rule"
    cp: int = 0
    triggers: tuple[str, ...] = ("during_activation",)
    repeatable: bool = True

    def _other(self, w: Work, player: str, info: Mapping[str, Any]) -> str:
        from teams.pathfinders.abilities import KAUYON, MONTKA, doctrine

        op = str(info.get("op", ""))
        if not op or w.ctx.owner.get(op) != player or not has_keyword(w, op, BLOODED):
            return ""
        if not is_trooper(w, op) or _veteran_switch(w, op):
            return ""
        chosen = doctrine(w, player)
        return {MONTKA: KAUYON, KAUYON: MONTKA}.get(chosen, "")

    def options(self, w: Work, player: str, info: Mapping[str, Any]) -> list[Action]:
        """``Use veteran <the other option>`` once per activation, after Art Of War."""
        if not w.effects:
            return []
        other = self._other(w, player, info)
        return [Action("Use", text=f"veteran {other}")] if other else []

    def owns(self, action: Action) -> bool:
        """Its actions are ``Use veteran <option>``."""
        return action.verb == "Use" and action.text.startswith("veteran ")

    def refusal(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> str:
        """Why ``action`` is refused."""
        return (
            f"{action}: Veteran lets the active Blooded use the Art Of War option its player "
            "did not select this turning point, once per activation"
        )

    def advice(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> float:
        """Rule of thumb: Kauyon instead is worth a free Markerlight (0.08 operatives) while it
        has a Conceal order and an enemy to mark, less the lost inch (0.02); Mont'ka instead
        an inch (0.03) while it has an Engage order and has not moved, else nothing."""
        from teams.pathfinders.abilities import KAUYON
        from teams.pathfinders.markerlights import MARKERLIGHT

        o = w.op(str(info["op"]))
        if action.text.removeprefix("veteran ") == KAUYON:
            if o.order != "conceal" or not MARKERLIGHT.options(w, o, "activation"):
                return 0.0
            return 0.06
        return 0.03 if o.order == "engage" and not o.moved else 0.0

    def use(self, w: Work, player: str, action: Action, info: Mapping[str, Any]) -> None:
        """Switch for the rest of the activation (a token on the Blooded); with Kauyon and a
        Conceal order, a free Markerlight action; with Mont'ka, Kauyon's free Markerlight (if
        granted at its activation) is taken away."""
        from teams.pathfinders.abilities import KAUYON
        from teams.pathfinders.markerlights import can_markerlight

        op = str(info["op"])
        other = action.text.removeprefix("veteran ")
        w.add_effect(Effect("token", op, "end_activation", source=op, detail=f"{_VETERAN}:{other}"))
        o = w.op(op)
        if other == KAUYON:
            if o.order == "conceal" and can_markerlight(w, op):
                w.add_effect(
                    Effect("free_action", op, "end_activation", source=op, detail="markerlight")
                )
        else:
            w.effects = [
                e
                for e in w.effects
                if not (e.kind == "free_action" and e.op == op and e.detail == "markerlight")
            ]
        w.emit("veteran_used", op=op, option=other)


VETERAN_RULE = Veteran()


def install_veteran(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Veteran (class docstring). The option that applies to the Blooded for the rest of its
    activation is swapped through the team's ``would_pathfinder_doctrine`` hook (Art Of
    War's Mont'ka inch then follows it: :func:`teams.pathfinders.abilities.op_doctrine`)."""

    def swap(w: Work, option: str, **info: Any) -> str:
        op = str(info.get("op", ""))
        if not w.effects or w.ctx.owner.get(op) not in players:
            return option
        return _veteran_switch(w, op) or option

    hooks.ploy(VETERAN_RULE, players)
    hooks.transform("would_pathfinder_doctrine", swap)


add_template(
    "veteran_used",
    lambda e: f"  {e['op']} (Veteran) uses {e['option'].title()} instead this activation",
)


register(
    "pathfinders/ability/medic",
    install_medic,
    'Medical Technician: once per TP, a non-drone Pathfinder within 3" that would be '
    "incapacitated stays at 1W, then may Dash to it.",
)
register(
    "pathfinders/ability/inertial_dampener",
    install_inertial_dampener,
    "Marksman: its marksman rail rifle ignores worsened Hit (injury, stat changes).",
)
register(
    "pathfinders/ability/veteran",
    install_veteran,
    "Blooded: in a TP of Art Of War, it may use the other option (Mont'ka/Kauyon) in its "
    "activation.",
)
register(
    "pathfinders/ability/grenadier_specialist",
    install_grenadier_specialist,
    "Assault Grenadier: uses frag and krak grenades at Hit 3+ without spending grenade uses.",
)
