"""The shared KT21 rule "roll as if fighting in combat" (``rules/KT21.md`` 11, DC 16.25).

Several KT21 teams print a unique action by which an operative selects an enemy within its
Engagement Range and rolls the attack dice of one of its melee weapons *as if it were
fighting in combat* against it. The Designer's Commentary rules on such rolls (16.25): the
target is **not** fighting in that combat (it selects no weapon, rolls no dice and never
strikes), **combat support applies** (the operative's WS is improved by each other friendly
operative within Engagement Range of the target and of no other enemy, 11 step 3), and an
enemy incapacitated by it **is incapacitated in combat** (rules that trigger on that still
work).

It is one rule module found by the rule's identity (DESIGN.md "Rulesets", as
:mod:`engine.rules.kt21.parry_two`): an operative has the action when its datacard carries
an ability whose name slug is in :data:`AS_IF_FIGHTING_ACTIONS`, whatever its team. The
roll is the KT21 fight itself (:func:`engine.rules.kt21.fight.begin_fight` with ``as_if``):
the same frame, dice, re-rolls, weapon rules and strikes, the defender without dice.

Notation: ``Act <op> <action> <melee weapon> on <enemy>`` (``Act R6-1 sudden strike blade on
FIG-1``), listed for each melee weapon of the operative and each enemy within its Engagement
Range. Its AP cost is the ability's (1AP for the project's fixture; :data:`ACTION_AP`).

The only action of this kind the engine has is the project's own fixture, **Sudden Strike**
(``scenarios/teams/kt21_dc_r6.json``): no KT21 team the engine ships prints one, and the
texts of the printed ones (e.g. the Corsair Voidscarred's Slicing Attack) are not in the
project's sources, so none of them is listed here.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from engine.advice.kt21_values import kt21_fight_value, kt21_fighter
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.state import OperativeState
from engine.game.weapons import find_weapon, weapons_of
from engine.game.work import Work
from engine.names import slug
from engine.rules.kt21.attack_sight import engagement_range
from engine.rules.kt21.fight import begin_fight, combat_support
from engine.teams.model import Operative, Roster

__all__ = [
    "ACTION_AP",
    "AS_IF_FIGHTING_ACTIONS",
    "AsIfFightingAction",
    "has_as_if_fighting",
    "install",
]

AS_IF_FIGHTING_ACTIONS: Mapping[str, str] = {"sudden_strike": "Sudden Strike"}
"""The slugs of the datacard abilities that are an "as if fighting in combat" unique action
(DC 16.25), with the action's printed name."""
ACTION_AP = 1
"""The AP of the action (the fixture's Sudden Strike: 1AP)."""


def has_as_if_fighting(card: Operative, name: str) -> bool:
    """Whether the datacard ``card`` has the ability called ``name`` (printed name, one of
    :data:`AS_IF_FIGHTING_ACTIONS`'s values)."""
    return any(AS_IF_FIGHTING_ACTIONS.get(slug(ab.name)) == name for ab in card.abilities)


@attrs.frozen(slots=True)
class AsIfFightingAction:
    """The unique action (module docstring; a
    :class:`engine.game.rule_actions.RuleActionLike`): ``o`` rolls the attack dice of one of
    its melee weapons as if fighting in combat against an enemy within its Engagement Range.

    Attributes:
        name: the printed name (``"Sudden Strike"``); ``text`` its notation name.
        ap: its AP cost. family: ``""`` (it counts as no universal action: not a Fight).
    """

    name: str
    text: str
    ap: int = ACTION_AP
    family: str = ""

    def _melee(self, w: Work, o: OperativeState) -> list[str]:
        return [n for n, _, _ in weapons_of(w, o.id, "melee")]

    def _targets(self, w: Work, o: OperativeState) -> list[str]:
        return [e.id for e in w.enemies_of(o.id) if engagement_range(w, o, e)]

    def _performer_problem(self, w: Work, o: OperativeState) -> str | None:
        if not has_as_if_fighting(w.ctx.datacards[o.id], self.name):
            return f"{o.id} does not have the {self.name} unique action (its datacard)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> <text> <weapon> on <enemy>`` for each melee weapon of ``o`` and each
        enemy within its Engagement Range (none when it has no melee weapon: no dice, DC
        16.17)."""
        del mode
        if self._performer_problem(w, o) is not None:
            return []
        return [
            Action("Act", op=o.id, text=f"{self.text} {weapon}", target=t)
            for weapon in self._melee(w, o)
            for t in self._targets(w, o)
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed now (the operative lacks the action, the weapon is
        not one of its melee weapons, or the target is not an enemy within its Engagement
        Range), or ``None``."""
        del mode
        why = self._performer_problem(w, o)
        if why is not None:
            return why
        weapon = a.text[len(self.text) :].strip()
        if not a.text.startswith(self.text) or weapon not in self._melee(w, o):
            melee = ", ".join(self._melee(w, o)) or "none"
            return (
                f"{a}: {self.name} rolls one of {o.id}'s melee weapons ({melee}): "
                f"'Act {o.id} {self.text} <weapon> on <enemy>' (rules/KT21.md 11, 16.25)"
            )
        if a.target not in self._targets(w, o):
            return (
                f"{a}: {self.name} selects an enemy operative within {o.id}'s Engagement "
                "Range (rules/KT21.md 7.2, 16.25)"
            )
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """The heuristic agent's value of ``a`` (in operatives): the exact value of a KT21
        fight (:func:`~engine.advice.kt21_values.kt21_fight_value`) with the attacker's
        combat support and a defender that rolls no dice (DC 16.25)."""
        del mode
        weapon = a.text[len(self.text) :].strip()
        t = w.op(a.target)
        _, _, prof = find_weapon(w, o, weapon, "melee")
        me = kt21_fighter(w, o, prof, support=len(combat_support(w, o, t)))
        cards = w.ctx.datacards
        return kt21_fight_value(
            me, cards[o.id].wounds, kt21_fighter(w, t, None), cards[t.id].wounds
        )

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Begin the roll as if fighting in combat (the AP already spent; module
        docstring)."""
        del mode
        weapon = a.text[len(self.text) :].strip()
        begin_fight(w, o, w.op(a.target), weapon, as_if=self.name)


ACTIONS: tuple[AsIfFightingAction, ...] = tuple(
    AsIfFightingAction(name, name.lower()) for name in AS_IF_FIGHTING_ACTIONS.values()
)
"""One action per ability of :data:`AS_IF_FIGHTING_ACTIONS`."""


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Give the action to the players of ``rosters`` (``{"A": roster, "B": roster}``) whose
    team has an operative type with the ability; a battle without one gets nothing."""
    for act in ACTIONS:
        players = tuple(
            p
            for p, r in rosters.items()
            if any(has_as_if_fighting(card, act.name) for card in r.team.operatives)
        )
        if players:
            hooks.action(act, players)
