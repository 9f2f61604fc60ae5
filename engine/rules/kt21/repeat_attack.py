"""Repeating a shooting attack (``rules/KT21.md`` 10.1, 12 Limited, DC 16.27), and the shared
fixture rule **Second Volley**.

Some KT21 rules let an operative repeat a shooting attack it has just made (the Designer's
Commentary's example: the Legionaries' Veteran of the Long War ploy). DC 16.27 rules on two
points, both played by :func:`offer_repeat` (called by the shooting frame,
:class:`engine.rules.kt21.shoot.Kt21ShootFrame`, once every attack of the action is
resolved):

- the repeat **must be against the same target** while it is still a valid target
  (``rules/KT21.md`` 8.5: Visible, not Obscured, in range, a Conceal target not in Cover);
  when it is not (incapacitated, or no longer valid), the attack **cannot be repeated** at
  all: no other target is offered;
- a weapon with **Limited** may be used for the repeat: the repeat is part of the same action,
  and Limited counts the weapon's uses once per action (the frame's end), not per attack.

A rule that allows a repeat subscribes the ``kt21_repeat_attack`` *would* hook (value ``""``
-> its name); :func:`offer_repeat` then pushes the attacker's choice (decision kind
``team_rule``: ``Use <rule> on <target>`` or ``Decline``). The repeated attack is one more
shooting attack on the original target with the same profile and the same number of attack
dice (Fusillade: the dice that target got); it brings no new Blast, Torrent or Fusillade
targets (only "that" attack is repeated), and it is not itself repeated again.

**Second Volley** is the project's own fixture ability (``scenarios/teams/kt21_dc_r6.json``;
Veteran of the Long War's text is not in the project's sources): after the shooting attacks
of its Shoot action (not an Overwatch), the operative may repeat its shooting attack against
the target once. It is found by the ability's identity (:data:`REPEAT_ABILITIES`), as the
other shared KT21 rules are (DESIGN.md "Rulesets").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game.context import Hooks
from engine.game.work import Work
from engine.names import slug
from engine.rules.choices import RuleChoiceFrame, on_choice
from engine.rules.kt21.attack_sight import target_reason
from engine.teams.model import Operative, Roster

__all__ = [
    "REPEAT_ABILITIES",
    "REPEAT_KEY",
    "SECOND_VOLLEY",
    "has_second_volley",
    "install",
    "offer_repeat",
]

REPEAT_ABILITIES = frozenset({"second_volley"})
"""The slugs of the datacard abilities that are the Second Volley rule."""
SECOND_VOLLEY = "Second Volley"
"""The rule's printed name (the choice reads ``Use second volley on <target>``)."""
REPEAT_KEY = "kt21_repeat_attack"
"""The choice frame key of a repeated shooting attack (:func:`offer_repeat`)."""


def offer_repeat(w: Work, frame: Any) -> None:
    """Offer the repeat of ``frame``'s shooting attack (module docstring): ``frame`` is the
    :class:`~engine.rules.kt21.shoot.Kt21ShootFrame` on top of the stack, every attack of
    its action resolved (stage ``end``). Nothing happens when it was repeated already, when
    no rule allows a repeat (the ``kt21_repeat_attack`` hooks), or when the shooter or the
    original target is incapacitated or the target is no longer a valid target (DC 16.27:
    the attack cannot be repeated then). Else the attacker's choice is pushed
    (:class:`~engine.rules.choices.RuleChoiceFrame` on the original target only)."""
    if frame.repeated or "kt21_repeat_attack" not in w.ctx.hooks.would:
        return
    target = frame.targets[0]
    rule = str(
        w.would(
            "kt21_repeat_attack",
            "",
            op=frame.shooter,
            target=target,
            weapon=frame.weapon,
            overwatch=frame.overwatch,
        )
    )
    o, t = w.op(frame.shooter), w.op(target)
    if not rule or not o.alive or not t.alive:
        return
    _, rules = frame.profile(w)
    why = target_reason(w, o, t, rules.value("Rng"), indirect=rules.has("Indirect"))
    if why is not None:
        return  # no longer a valid target: the attack cannot be repeated (DC 16.27)
    w.stack.append(RuleChoiceFrame(w.ctx.owner[o.id], rule, REPEAT_KEY, o.id, (t.id,)))


def _repeat_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """The attacker's answer to :func:`offer_repeat`: repeated, the shooting frame (on top
    again) attacks ``chosen`` once more with the same profile and dice (Fusillade: the dice
    that target got), no cover denied by Blast, and is marked ``repeated``; declined, it
    ends (its stage is already ``end``)."""
    if not chosen:
        return
    f = w.top
    w.emit("rule_used", player=frame.player, rule=frame.rule, trigger="shooting attack")
    w.replace_top(
        stage="begin", targets=(chosen,), idx=0, split=f.split[:1], no_cover=(), repeated=True
    )


on_choice(REPEAT_KEY, _repeat_chosen)


def has_second_volley(card: Operative) -> bool:
    """Whether the datacard ``card`` has the Second Volley ability (module docstring)."""
    return any(slug(ab.name) in REPEAT_ABILITIES for ab in card.abilities)


def install(hooks: Hooks, rosters: Mapping[str, Roster]) -> None:
    """Subscribe Second Volley when a team in ``rosters`` (``{"A": roster, "B": roster}``)
    has an operative type with the ability; a battle without one gets no hook."""
    if not any(has_second_volley(card) for r in rosters.values() for card in r.team.operatives):
        return
    hooks.transform("kt21_repeat_attack", _second_volley)


def _second_volley(w: Work, rule: str, *, op: str, overwatch: bool, **_info: Any) -> str:
    """Second Volley's name for a shooter with the ability in a Shoot action, else ``rule``
    unchanged."""
    if rule or overwatch or not has_second_volley(w.ctx.datacards[op]):
        return rule
    return SECOND_VOLLEY
