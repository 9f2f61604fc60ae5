"""The Kommandos' operatives' abilities (registered by rule id in
``engine.rules.registry``).

- **Throat Slittas** (every KOMMANDO but the Bomb Squig): friendly KOMMANDO operatives other
  than the BOMB SQUIG may Charge while they have a Conceal order (the core's
  ``would_charge_concealed``).
- **Krumpin' Time** (Boss Nob): it may perform the Fight action twice in its activation
  (``would_repeat_action``; never a third time).
- **Expendable** (Bomb Squig): ignored for the opponent's kill op, both as a kill and in the
  starting number of operatives (``would_count_for_kill_op``), and for the rules that ask
  whether an operative is ignored for the kill op (``would_ignore_for_kill_op``, the tac op
  Envoy), and for the scoring that needs operatives incapacitated by enemy operatives (the
  tac ops Rout and Dominate: ``would_count_as_incapacitated_by_enemy``). No op of this engine
  scores operatives that escape or survive. Steal Intelligence, Sweep & Clear and Martyrs
  count an operative incapacitated by anything (not by enemy operatives): the Squig counts
  for them, as the text limits Expendable to the incapacitation by enemy operatives. It
  still controls markers (neither dataslate text nor BSData says otherwise).
- **Stoopid** (Bomb Squig): when its order is determined at its activation (Firefight phase),
  Conceal cannot be selected (``would_refuse_order``); it performs no action but Charge, Dash,
  Fight, Reposition and Shoot (``would_refuse_action``), and uses no weapon that is not on its
  datacard (``would_refuse_weapon``: no grenade or team equipment weapon).
- **Sneaky Zogger** (Grot): it never has an Engage order (Engage is refused at its
  activation; it is set up with Conceal as every operative), and while it is in cover from a
  shooter it is no valid target for it, whatever the shooter's Seek or Vantage (only being
  within 2" of it, where no cover counts, makes it one; the core's ``would_refuse_target``).
- **I Got A Plan Ladz** (Comms Boy): once per activation, its Pick Up Marker, Place Marker or
  a mission action costs 1AP less (``would_cost_action``, when it is paid). The player
  chooses which: when such an action is paid and its full cost is affordable too, ``Use i got
  a plan ladz`` keeps the discount for it, ``Decline`` pays the 1AP after all and keeps the
  discount for a later such action of the activation (an action that is free anyway, e.g. a
  counteraction, uses nothing).
- **Dat All You Got?** (Slasha Boy): after it fights or retaliates and is not
  incapacitated, the enemy operative of that sequence suffers D3 damage (a team-rule roll,
  the D6 halved rounding up). Always used (more damage on the enemy is never worse).
- **Boom!** (Bomb Squig): when it is incapacitated in a battle in which it has not used its
  explosives (their Limited count; nor while it is shooting them), its player chooses to roll
  1D6 or 2D6 (``Decline`` / ``Use boom with 2d6``: more dice, more likely to go off, also on
  friends near it); on any 4+ it performs a free Shoot with its explosives at once, before it
  is removed (its Explosive* rule: it is the primary target, its Blast reaching the others).
  The Shoot comes in the middle of the action that incapacitated it; a Squig with a Conceal
  order (set up so and never activated: Stoopid forbids it later) cannot Shoot them, so it
  does not go off (its roll, which could change nothing, is not made).
- **Tactical Wot-Notz** (Kommando Boy): once per turning point each, a friendly KOMMANDO BOY
  may perform the Smoke Grenade action and one the Stun Grenade action of the universal
  equipment, spending no use of the player's Utility Grenades (:class:`WotNotzGrenade`).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game import rule_actions, universal
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect, OperativeState
from engine.game.tokens import Token
from engine.game.work import Work
from engine.geometry import sight
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.equipment import grenades
from engine.rules.registry import register

KOMMANDO = "KOMMANDO"
BOMB_SQUIG = "BOMB SQUIG"
BOSS_NOB = "BOSS NOB"
GROT = "GROT"
COMMS_BOY = "COMMS BOY"
SLASHA_BOY = "SLASHA BOY"
BOY = "BOY"


def has_keyword(w: Work, op: str, keyword: str) -> bool:
    """``op`` has ``keyword`` on its datacard."""
    return bool(op) and keyword in w.ctx.datacards[op].keywords


def kommando(w: Work, op: str, squig: bool = False) -> bool:
    """``op`` is a KOMMANDO operative (the BOMB SQUIG only when ``squig``)."""
    if not has_keyword(w, op, KOMMANDO):
        return False
    return squig or not has_keyword(w, op, BOMB_SQUIG)


def _mine(w: Work, op: str, players: tuple[str, ...], keyword: str) -> bool:
    return w.ctx.owner.get(op) in players and has_keyword(w, op, keyword)


# -- Throat Slittas ----------------------------------------------------------------------------


def install_throat_slittas(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Throat Slittas (module docstring)."""

    def charge(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info["op"])
        return allowed or (w.ctx.owner.get(op) in players and kommando(w, op))

    hooks.transform("would_charge_concealed", charge)


register(
    "kommandos/ability/throat_slittas",
    install_throat_slittas,
    "Friendly Kommandos (not the Bomb Squig) may Charge with a Conceal order.",
)


# -- Krumpin' Time -----------------------------------------------------------------------------

FIGHT = "Fight"
KRUMPIN_FIGHTS = 2


def install_krumpin_time(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Krumpin' Time (module docstring)."""

    def repeat(w: Work, allowed: bool, **info: Any) -> bool:
        op = str(info["op"])
        if allowed or info.get("action") != FIGHT or not _mine(w, op, players, BOSS_NOB):
            return allowed
        fights = sum(1 for d in info.get("done", ()) if universal.ACTION_FAMILY.get(d, d) == FIGHT)
        return fights < KRUMPIN_FIGHTS

    hooks.transform("would_repeat_action", repeat)


register(
    "kommandos/ability/krumpin_time",
    install_krumpin_time,
    "The Boss Nob may perform two Fight actions in its activation.",
)


# -- Expendable --------------------------------------------------------------------------------


def install_expendable(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Expendable (module docstring)."""

    def counts(w: Work, value: bool, **info: Any) -> bool:
        return value and not _mine(w, str(info["op"]), players, BOMB_SQUIG)

    def ignored(w: Work, value: bool, **info: Any) -> bool:
        return value or _mine(w, str(info["op"]), players, BOMB_SQUIG)

    hooks.transform("would_count_for_kill_op", counts)
    hooks.transform("would_ignore_for_kill_op", ignored)
    hooks.transform("would_count_as_incapacitated_by_enemy", counts)


register(
    "kommandos/ability/expendable",
    install_expendable,
    "The Bomb Squig is ignored for the opponent's kill op (as a kill and in the starting number).",
)


# -- Stoopid -----------------------------------------------------------------------------------

STOOPID_ACTIONS = ("Charge", "Dash", "Fight", "Reposition", "Shoot")


def weapon_on_datacard(w: Work, op: str, name: str) -> bool:
    """The weapon profile called ``name`` (notation) is one of ``op``'s datacard weapons."""
    return any(
        universal.weapon_name(weapon, prof) == name
        for weapon in w.ctx.datacards[op].weapons
        for prof in weapon.profiles
    )


def install_stoopid(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Stoopid (module docstring)."""

    def order(w: Work, why: str | None, **info: Any) -> str | None:
        if why or info.get("order") != "conceal":
            return why
        if not _mine(w, str(info["op"]), players, BOMB_SQUIG):
            return why
        return f"{info['op']} cannot be given a Conceal order (Stoopid)"

    def action(w: Work, why: str | None, **info: Any) -> str | None:
        op = str(info["op"])
        if why or not _mine(w, op, players, BOMB_SQUIG):
            return why
        if info.get("rule_action") is None and info.get("action") in STOOPID_ACTIONS:
            return why
        return (
            f"{op} performs no action but Charge, Dash, Fight, Reposition and Shoot (Stoopid), "
            f"not {info.get('action')}"
        )

    def weapon(w: Work, why: str | None, **info: Any) -> str | None:
        o: OperativeState = info["op"]
        if why or not _mine(w, o.id, players, BOMB_SQUIG):
            return why
        name = str(info["weapon"])
        if weapon_on_datacard(w, o.id, name):
            return why
        return f"{o.id} uses no weapon that is not on its datacard, not {name} (Stoopid)"

    hooks.transform("would_refuse_order", order)
    hooks.transform("would_refuse_action", action)
    hooks.transform("would_refuse_weapon", weapon)


register(
    "kommandos/ability/stoopid",
    install_stoopid,
    "The Bomb Squig cannot be given Conceal when activated, and only Charges, Dashes, Fights, "
    "Repositions and Shoots with its own weapons.",
)


# -- Sneaky Zogger -----------------------------------------------------------------------------


def install_sneaky_zogger(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Sneaky Zogger (module docstring)."""

    def order(w: Work, why: str | None, **info: Any) -> str | None:
        if why or info.get("order") != "engage":
            return why
        if not _mine(w, str(info["op"]), players, GROT):
            return why
        return f"{info['op']} cannot have an Engage order (Sneaky Zogger)"

    def target(w: Work, why: str | None, **info: Any) -> str | None:
        t: OperativeState = info["target"]
        o: OperativeState = info["op"]
        if why or not _mine(w, t.id, players, GROT):
            return why
        if sight.valid_target(w.kz, w.place(t), w.place(o), "conceal", vantage=False):
            return why
        return f"{t.id} is in cover: not a valid target, whatever the weapon (Sneaky Zogger)"

    hooks.transform("would_refuse_order", order)
    hooks.transform("would_refuse_target", target)


register(
    "kommandos/ability/sneaky_zogger",
    install_sneaky_zogger,
    "The Grot never has an Engage order and is no valid target while in cover (Seek and "
    "Vantage notwithstanding).",
)


# -- I Got A Plan Ladz -------------------------------------------------------------------------

PLAN_ACTIONS = ("Pick up", "Place marker")


def _plan_action(w: Work, o: OperativeState, name: str) -> bool:
    """``name`` (a verb or rule action notation name) is one I Got A Plan Ladz makes cheaper."""
    return name in PLAN_ACTIONS or rule_actions.names_mission_action(w, o, name)


_PLAN_USED = "i got a plan ladz used"
_PLAN_KEY = "kommandos_i_got_a_plan_ladz"
PLAN_LADZ = "I Got A Plan Ladz"


def _plan_used(w: Work, op: str) -> bool:
    return any(e.kind == "token" and e.op == op and e.detail == _PLAN_USED for e in w.effects)


def install_i_got_a_plan_ladz(hooks: Hooks, players: tuple[str, ...]) -> None:
    """I Got A Plan Ladz (module docstring)."""

    def cost(w: Work, ap: int, **info: Any) -> int:
        o: OperativeState = info["op"]
        if ap <= 0 or not _mine(w, o.id, players, COMMS_BOY):
            return ap
        if not _plan_action(w, o, str(info.get("action", ""))) or _plan_used(w, o.id):
            return ap
        if info.get("paying"):
            # Paid now: the discount is used for this action (once per activation). When the
            # full cost is affordable too, the player chooses (keeping it for a later action
            # of the activation: Decline pays the 1AP after all).
            w.effects.append(
                Effect("token", o.id, "end_activation", source=o.id, detail=_PLAN_USED)
            )
            if w.op(o.id).ap >= ap:
                w.stack.append(
                    RuleChoiceFrame(
                        player=w.ctx.owner[o.id],
                        rule=PLAN_LADZ,
                        key=_PLAN_KEY,
                        op=o.id,
                        candidates=(),
                        targeted=False,
                    )
                )
        return ap - 1

    hooks.transform("would_cost_action", cost)


def _plan_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    """Declined: the action costs its full AP after all and the discount stays for a later
    Pick Up Marker, Place Marker or mission action of this activation."""
    if chosen:
        w.emit("team_rule_used", op=frame.op, rule=PLAN_LADZ, on=frame.op)
        return
    o = w.op(frame.op)
    w.effects = [
        e
        for e in w.effects
        if not (e.kind == "token" and e.op == frame.op and e.detail == _PLAN_USED)
    ]
    w.set_op(frame.op, ap=o.ap - 1)


on_choice(_PLAN_KEY, _plan_chosen)
register(
    "kommandos/ability/i_got_a_plan_ladz",
    install_i_got_a_plan_ladz,
    "Once per activation, the Comms Boy's Pick Up Marker, Place Marker or mission action costs "
    "1AP less.",
)


# -- Dat All You Got? --------------------------------------------------------------------------

DAT_ALL = "Dat All You Got?"
_DAT_ALL_ROLL = "kommandos_dat_all_you_got"


def install_dat_all_you_got(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Dat All You Got? (module docstring)."""

    def ended(w: Work, ev: Event) -> None:
        for me, enemy in ((ev["op"], ev["target"]), (ev["target"], ev["op"])):
            if not _mine(w, me, players, SLASHA_BOY) or w.ctx.owner[enemy] == w.ctx.owner[me]:
                continue
            if not w.op(me).alive or not w.op(enemy).alive:
                continue
            w.stack.append(
                RuleRollFrame(
                    player=w.ctx.owner[me],
                    rule=DAT_ALL,
                    key=_DAT_ALL_ROLL,
                    op=me,
                    dice=1,
                    label=f"Dat All You Got? D3 ({me} on {enemy})",
                    data=(("enemy", enemy),),
                )
            )

    hooks.on("fight_ended", ended)


def _dat_all_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    enemy = str(frame.get("enemy"))
    if not w.op(enemy).alive:
        return
    w.emit("team_rule_used", op=frame.op, rule=DAT_ALL, on=enemy)
    universal.inflict(w, enemy, (values[0] + 1) // 2, DAT_ALL, by=frame.op)


on_roll(_DAT_ALL_ROLL, _dat_all_rolled)
register(
    "kommandos/ability/dat_all_you_got",
    install_dat_all_you_got,
    "After the Slasha Boy fights or retaliates and survives, the enemy in that fight suffers "
    "D3 damage.",
)


# -- Tactical Wot-Notz -------------------------------------------------------------------------

WOT_NOTZ = "Tactical Wot-Notz"


def _wot_notz_key(w: Work, grenade: str) -> str:
    """The player counter of the Tactical Wot-Notz ``grenade`` action used this turning
    point."""
    return f"wot_notz_{grenade}:{w.tp}"


@attrs.frozen(slots=True)
class WotNotzGrenade:
    """The Smoke Grenade or Stun Grenade action (``grenade`` ``"smoke"``/``"stun"``) a
    friendly KOMMANDO BOY performs through Tactical Wot-Notz (a
    :class:`engine.game.rule_actions.RuleActionLike`, 1AP): as the universal equipment's
    action (:mod:`engine.rules.equipment.grenades`: never within control range of an enemy;
    a smoke marker within 6" and visible, or stun tests on an enemy visible and within 6"
    and the operatives within 1" of it), once per turning point for the kill team, without
    spending a use of the player's Utility Grenades. It counts as that grenade's action
    (``family``): an operative performs one or the other in an activation.
    Notation ``Act <boy> wot-notz smoke grenade at x,y[,z]``, ``Act <boy> wot-notz stun
    grenade on <enemy>``."""

    grenade: str
    name: str
    text: str
    family: str
    ap: int = 1

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not has_keyword(w, o.id, BOY) or not has_keyword(w, o.id, KOMMANDO):
            return f"{o.id} is not a Kommando Boy: only Boys throw grenades by {WOT_NOTZ}"
        if w.count(o.player, _wot_notz_key(w, self.grenade)):
            return f"{WOT_NOTZ}: one {self.name} action per turning point, already used"
        if w.in_enemy_control_range(o):
            return f"{o.id} cannot perform {self.name} within control range of an enemy (7.2)"
        return None

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """The grenade action's listed spots or targets."""
        if self._why_not(w, o) is not None:
            return []
        if self.grenade == "smoke":
            return [
                Action("Act", op=o.id, text=self.text, point=p) for p in grenades.smoke_spots(w, o)
            ]
        return [
            Action("Act", op=o.id, text=self.text, target=e.id)
            for e in grenades.stun_candidates(w, o)
        ]

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if self.grenade == "smoke":
            if a.target or a.point is None:
                return f"a smoke grenade is placed at a point: 'Act <op> {self.text} at x,y'"
            return grenades.smoke_spot_problem(w, o, a.point)
        if not a.target or a.target not in w.ctx.index:
            return f"a stun grenade selects an enemy: 'Act <op> {self.text} on <enemy>'"
        if w.op(a.target) not in grenades.stun_candidates(w, o):
            return f'{a.target} is not an enemy visible to and within 6" of {o.id} (7.2)'
        return None

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb. Stun: each ready enemy tested loses an AP two times in three (3+),
        worth 0.1 operatives, so 0.067 each; each friendly tested costs as much. Smoke: 0.05
        operatives when the marker goes where the thrower stands and an enemy could shoot it
        there (it is then obscured to enemies more than 2" away); nothing elsewhere."""
        if self.grenade == "stun":
            value = 0.0
            for op in grenades.stun_tested(w, a.target):
                q = w.op(op)
                sign = -1.0 if q.player == o.player else 1.0
                value += sign * (0.1 * 2 / 3 if q.ready else 0.0)
            return value
        if a.point is None or (a.point[0], a.point[1]) != (o.x, o.y):
            return 0.0
        here = w.place(o)
        seen = any(
            w.ctx.valid_target(w.kz, here, w.place(e), o.order, None) for e in w.enemies_of(o.id)
        )
        return 0.05 if seen else 0.0

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """Place the smoke marker or roll the stun tests; no Utility Grenades use is spent."""
        w.count(o.player, _wot_notz_key(w, self.grenade), add=1)
        w.emit("team_rule_used", op=o.id, rule=WOT_NOTZ, on=self.name)
        if self.grenade == "smoke":
            assert a.point is not None
            x, y, z = a.point
            name = f"{o.player} wot-notz smoke {w.tp}"
            w.tokens.append(Token("smoke", o.player, name, x, y, z))
            w.emit("smoke_placed", op=o.id, marker=name, x=x, y=y, z=z)
            return
        w.stack.append(
            grenades.StunTestFrame(
                ops=grenades.stun_tested(w, a.target), source=o.id, player=o.player
            )
        )


WOT_NOTZ_SMOKE = WotNotzGrenade(
    "smoke", "Smoke Grenade", "wot-notz smoke grenade", grenades.SMOKE_GRENADE.text
)
WOT_NOTZ_STUN = WotNotzGrenade(
    "stun", "Stun Grenade", "wot-notz stun grenade", grenades.STUN_GRENADE.text
)


def install_tactical_wot_notz(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Tactical Wot-Notz (class docstring)."""
    hooks.action(WOT_NOTZ_SMOKE, players)
    hooks.action(WOT_NOTZ_STUN, players)


register(
    "kommandos/ability/tactical_wot_notz",
    install_tactical_wot_notz,
    "Once per turning point each, a Kommando Boy may perform the Smoke Grenade or the Stun "
    "Grenade action without spending a grenade.",
)


# -- Boom! -------------------------------------------------------------------------------------

BOOM = "Boom!"
BOOM_CHOICE = "Boom with 2D6"  # the choice's rule name: Use = 2D6, Decline = 1D6
_BOOM_KEY = "kommandos_boom"
_BOOM_ROLL = "kommandos_boom_roll"
EXPLOSIVES = "explosives"
BOOM_NEEDED = 4


def explosives_used(w: Work, op: str) -> bool:
    """The Bomb Squig ``op`` has used its explosives this battle (its Limited count)."""
    return dict(w.op(op).limited).get(EXPLOSIVES, 0) > 0


def _shooting(w: Work, op: str) -> bool:
    """``op`` is the shooter of a Shoot action in progress."""
    return any(getattr(f, "shooter", None) == op for f in w.stack)


def install_boom(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Boom! (module docstring)."""

    def down(w: Work, ev: Event) -> None:
        op = str(ev["op"])
        if not _mine(w, op, players, BOMB_SQUIG) or not w.op(op).placed:
            return
        if explosives_used(w, op) or _shooting(w, op) or w.op(op).order != "engage":
            return  # (with a Conceal order it could not Shoot them: no choice to offer)
        w.defer_frame(
            RuleChoiceFrame(
                player=w.ctx.owner[op],
                rule=BOOM_CHOICE,
                key=_BOOM_KEY,
                op=op,
                candidates=(),
                targeted=False,
            )
        )

    hooks.on("operative_incapacitated", down)


def _boom_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    dice = 2 if chosen else 1
    w.stack.append(
        RuleRollFrame(
            player=frame.player,
            rule=BOOM,
            key=_BOOM_ROLL,
            op=frame.op,
            dice=dice,
            label=f"Boom! {dice}D6 ({frame.op})",
        )
    )


def _boom_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    from engine.game import shoot

    o = w.op(frame.op)
    if max(values) < BOOM_NEEDED or not o.placed:
        return
    weapon = next((n for n, _, _ in universal.weapons_of(w, o.id, "ranged") if n == EXPLOSIVES), "")
    if not weapon:
        return
    if o.order != "engage":  # set up so, never activated: it cannot Shoot them (1.5)
        return
    w.emit("team_rule_used", op=o.id, rule=BOOM, on=o.id)
    shoot.start_shoot(w, o, Action("Shoot", op=o.id, weapon=weapon, target=o.id), "free")


on_choice(_BOOM_KEY, _boom_chosen)
on_roll(_BOOM_ROLL, _boom_rolled)
register(
    "kommandos/ability/boom",
    install_boom,
    "When the Bomb Squig is incapacitated with its explosives unused, 1D6 or 2D6: on any 4+ it "
    "shoots them before it is removed.",
)
