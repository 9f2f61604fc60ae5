"""The Hierotek Circle's team equipment (``rules/KT24.md`` 7.2): Magnification Conduits,
Phase Shifter, Tesla Weave and Tesseract Cube, each in play once its player selected it
(``has_equipment``). Where the equipment says "you can use this rule", the player decides
(a :class:`~engine.rules.choices.RuleChoiceFrame`: ``Use <rule>`` or ``Decline``), offered
only when using it changes something."""

from __future__ import annotations

from typing import Any

from engine.dice.rules import Piercing, PiercingCrits, WeaponRule, WeaponRules
from engine.game import universal
from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import Effect
from engine.game.work import Work
from engine.rules.choices import RuleChoiceFrame, RuleRollFrame, on_choice, on_roll
from engine.rules.equipment.selection import has_equipment
from engine.rules.ploys import GainToken, player_token
from engine.rules.registry import register, register_equipment_value
from teams.hierotek_circle.common import drop_effects, has_kw, op_effect
from teams.hierotek_circle.reanimation import reanimated_this_tp

CONDUITS = "Magnification Conduits"
PHASE_SHIFTER = "Phase Shifter"
TESLA_WEAVE = "Tesla Weave"
TESSERACT_CUBE = "Tesseract Cube"


def _owned(w: Work, players: tuple[str, ...], op: str, item: str) -> bool:
    player = w.ctx.owner[op]
    return player in players and bool(w.pl(player).equipment) and has_equipment(w, player, item)


# -- Magnification Conduits ---------------------------------------------------------------------

_CONDUITS_USED = "hierotek_conduits_used"


def install_conduits(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Magnification Conduits: once per turning point, when a friendly HIEROTEK CIRCLE
    APPRENTEK or CRYPTEK operative performs the Shoot action, another friendly HIEROTEK
    CIRCLE operative that is not a PLASMACYTE, has an Engage order and is visible to it can
    be treated as the active operative for Magnify* (:mod:`.weapon_rules`). The engine's
    reading: such operatives are offered with Magnify's own choice (``Use magnify on
    <operative>``, the ``would_magnify_through`` hook); choosing one of them uses the
    equipment for the turning point."""

    def through(w: Work, ok: bool, **info: Any) -> bool:
        op, m = str(info["op"]), str(info["through"])
        if ok or not _owned(w, players, op, CONDUITS):
            return ok
        if not (has_kw(w, op, "APPRENTEK") or has_kw(w, op, "CRYPTEK")):
            return ok
        if player_token(w, w.ctx.owner[op], _CONDUITS_USED):
            return ok
        return has_kw(w, m) and not has_kw(w, m, "PLASMACYTE")

    def used(w: Work, ev: Event) -> None:
        if ev.get("rule") != "Magnify" or w.ctx.owner[ev["op"]] not in players:
            return
        on = str(ev.get("on", ""))
        if on and not (has_kw(w, on, "APPRENTEK") or has_kw(w, on, "CRYPTEK")):
            GainToken(_CONDUITS_USED, "end_tp").apply(w, w.ctx.owner[ev["op"]], "", CONDUITS)
            w.emit(
                "equipment_used",
                player=w.ctx.owner[ev["op"]],
                item=CONDUITS,
                op=ev["op"],
                why=f"Magnify through {on}",
            )

    hooks.transform("would_magnify_through", through)
    hooks.on("team_rule_used", used)


# -- Phase Shifter ---------------------------------------------------------------------------

_PHASE_USED = "hierotek_phase_shifter_used"
PHASE_EFFECT = "hierotek_phase_shifter"  # on the target until the Shoot action ends
PHASE_KEY = "hierotek_phase_shifter"


def _shoot_frame(w: Work) -> Any:
    for f in reversed(w.stack):
        if hasattr(f, "shooter") and hasattr(f, "targets"):
            return f
    return None


def install_phase_shifter(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Phase Shifter: once per turning point, when an operative is shooting a friendly
    CRYPTEK operative, at the start of the Roll Defence Dice step (after the attack dice
    are retained), its player may use it: until the end of that sequence, the x of the
    weapon's Piercing is 1 lower (Piercing 1 is ignored). Offered only when the weapon has
    Piercing now: Piercing x, or Piercing Crits x with a critical success retained (which
    gives it Piercing x); both have their x worsened by 1."""

    def retained(w: Work, ev: Event) -> None:
        target = str(ev["target"])
        if not _owned(w, players, target, PHASE_SHIFTER) or not has_kw(w, target, "CRYPTEK"):
            return
        player = w.ctx.owner[target]
        if player_token(w, player, _PHASE_USED) or w.ctx.owner[ev["op"]] == player:
            return
        f = _shoot_frame(w)
        if f is None or f.shooter != ev["op"]:
            return
        d = f.profile(w).rules.dice
        if not d.piercing and not (d.piercing_crits and f.crits):
            return
        w.defer_frame(
            RuleChoiceFrame(
                player=player,
                rule=PHASE_SHIFTER,
                key=PHASE_KEY,
                op=target,
                candidates=(),
                targeted=False,
            )
        )

    def worsen(w: Work, rules: WeaponRules, **info: Any) -> WeaponRules:
        target = str(info.get("target", ""))
        if info.get("kind") != "ranged" or not target or not w.effects:
            return rules
        if op_effect(w, target, PHASE_EFFECT) is None:
            return rules
        p, pc = rules.get(Piercing), rules.get(PiercingCrits)
        if p is None and pc is None:
            return rules
        kept: list[WeaponRule] = [r for r in rules if not isinstance(r, (Piercing, PiercingCrits))]
        for old, cls in ((p, Piercing), (pc, PiercingCrits)):
            x = int(getattr(old, "x", 0)) - 1
            if old is not None and x >= 1:
                kept.append(cls(x))
        return WeaponRules.of(tuple(kept))

    def ended(w: Work, ev: Event) -> None:
        if any(e.kind == PHASE_EFFECT for e in w.effects):
            drop_effects(w, PHASE_EFFECT)

    hooks.on("attack_retained", retained)
    # Last: it worsens the Piercing the weapon has, whichever rule gave it (a ploy's
    # Piercing 1 included), whichever seat the shooter's team plays.
    hooks.transform("would_use_weapon_rules", worsen, last=True)
    hooks.on("shoot_ended", ended)


def _phase_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        return
    GainToken(_PHASE_USED, "end_tp").apply(w, frame.player, "", PHASE_SHIFTER)
    w.effects.append(Effect(PHASE_EFFECT, frame.op, "end_tp", source=frame.op))
    w.emit(
        "equipment_used",
        player=frame.player,
        item=PHASE_SHIFTER,
        op=frame.op,
        why="Piercing worsened by 1",
    )


on_choice(PHASE_KEY, _phase_chosen)


# -- Tesla Weave -----------------------------------------------------------------------------

_WEAVE_USED = "hierotek_tesla_weave_used"
WEAVE_KEY = "hierotek_tesla_weave"
WEAVE_ROLL = "hierotek_tesla_weave_roll"


def install_tesla_weave(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Tesla Weave: once per turning point, when an enemy operative ends the Charge action
    with friendly HIEROTEK CIRCLE operatives within its control range, the player may use
    it: D3+1 damage on that enemy operative (a D6 rolled: 1-2 is 1, 3-4 is 2, 5-6 is 3).
    Trigger: the end of the charge's movement (the ``moved`` event of a Charge)."""

    def charged(w: Work, ev: Event) -> None:
        if ev.get("action") != "charge":
            return
        enemy = str(ev["op"])
        for player in players:
            if w.ctx.owner[enemy] == player or not w.pl(player).equipment:
                continue
            if not has_equipment(w, player, TESLA_WEAVE) or player_token(w, player, _WEAVE_USED):
                continue
            e = w.op(enemy)
            if not any(has_kw(w, o.id) and w.control_range(o, e) for o in w.alive(player)):
                continue
            w.defer_frame(
                RuleChoiceFrame(
                    player=player,
                    rule=TESLA_WEAVE,
                    key=WEAVE_KEY,
                    op=enemy,
                    candidates=(),
                    targeted=False,
                )
            )

    hooks.on("moved", charged)


def _weave_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        return
    GainToken(_WEAVE_USED, "end_tp").apply(w, frame.player, "", TESLA_WEAVE)
    w.emit("equipment_used", player=frame.player, item=TESLA_WEAVE, op=frame.op, why="D3+1 damage")
    w.stack.append(RuleRollFrame(frame.player, TESLA_WEAVE, WEAVE_ROLL, frame.op, 1, "Tesla Weave"))


def _weave_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    damage = (values[0] + 1) // 2 + 1
    if w.op(frame.op).alive:
        universal.inflict(w, frame.op, damage, TESLA_WEAVE)


on_choice(WEAVE_KEY, _weave_chosen)
on_roll(WEAVE_ROLL, _weave_rolled)


# -- Tesseract Cube --------------------------------------------------------------------------

CUBE_KEY = "hierotek_tesseract_cube"
CUBE_ROLL = "hierotek_tesseract_cube_roll"
CUBE_GAINED = "hierotek_tesseract_cube_cp"  # effect per CP gained (end_battle)
CUBE_BROKEN = "hierotek_tesseract_cube_broken"  # a 1 was rolled (end_battle)
CUBE_MAX = 2


def _cube_count(w: Work, player: str, name: str) -> int:
    return sum(
        1 for e in w.effects if e.kind == "token" and e.player == player and e.detail == name
    )


def cube_cryptek(w: Work, player: str) -> str:
    """The friendly CRYPTEK operative that lets ``player`` use the Tesseract Cube now, or
    ``""``: on the killzone, not within control range of an enemy operative, not REANIMATED
    this turning point (:func:`.reanimation.reanimated_this_tp`)."""
    for o in w.alive(player):
        if not has_kw(w, o.id, "CRYPTEK") or w.in_enemy_control_range(o):
            continue
        if reanimated_this_tp(w, o.id):
            continue
        return o.id
    return ""


def install_tesseract_cube(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Tesseract Cube: in the Ready step of each Strategy phase, after the CP gain, while a
    friendly CRYPTEK operative is on the killzone, not within control range of enemies and
    not REANIMATED this turning point, its player may use it: roll one D6; on a 1 the cube
    cannot be used for the rest of the battle; on a 4+ the player gains 1CP. Once it has
    given 2CP it cannot be used for the rest of the battle."""

    def ready(w: Work, ev: Event) -> None:
        for player in players:
            if not w.pl(player).equipment or not has_equipment(w, player, TESSERACT_CUBE):
                continue
            if _cube_count(w, player, CUBE_BROKEN):
                continue
            if _cube_count(w, player, CUBE_GAINED) >= CUBE_MAX:
                continue
            op = cube_cryptek(w, player)
            if not op:
                continue
            w.defer_frame(
                RuleChoiceFrame(
                    player=player,
                    rule=TESSERACT_CUBE,
                    key=CUBE_KEY,
                    op=op,
                    candidates=(),
                    targeted=False,
                )
            )

    hooks.on("ready_step", ready)


def _cube_chosen(w: Work, frame: RuleChoiceFrame, chosen: str) -> None:
    if not chosen:
        return
    w.emit(
        "equipment_used", player=frame.player, item=TESSERACT_CUBE, op=frame.op, why="a D6 for 1CP"
    )
    w.stack.append(
        RuleRollFrame(frame.player, TESSERACT_CUBE, CUBE_ROLL, frame.op, 1, "Tesseract Cube")
    )


def _cube_rolled(w: Work, frame: RuleRollFrame, values: tuple[int, ...]) -> None:
    v, player = values[0], frame.player
    if v == 1:
        GainToken(CUBE_BROKEN, "end_battle").apply(w, player, "", TESSERACT_CUBE)
    elif v >= 4:
        GainToken(CUBE_GAINED, "end_battle").apply(w, player, "", TESSERACT_CUBE)
        w.set_pl(player, cp=w.pl(player).cp + 1)
        w.emit("cp_gained", player=player, cp=1, total=w.pl(player).cp)


on_choice(CUBE_KEY, _cube_chosen)
on_roll(CUBE_ROLL, _cube_rolled)


register(
    "hierotek_circle/equipment/magnification_conduits",
    install_conduits,
    "Once per TP, a cryptek's or apprentek's Magnify* may go through any other engaged, "
    "visible Hierotek operative (not a Plasmacyte).",
)
register(
    "hierotek_circle/equipment/phase_shifter",
    install_phase_shifter,
    "Once per TP, a cryptek being shot worsens the weapon's Piercing by 1 for that sequence.",
)
register(
    "hierotek_circle/equipment/tesla_weave",
    install_tesla_weave,
    "Once per TP, an enemy ending a Charge next to Hierotek operatives suffers D3+1 damage.",
)
register(
    "hierotek_circle/equipment/tesseract_cube",
    install_tesseract_cube,
    "Ready step: with a safe cryptek, roll a D6: 4+ gains 1CP (2CP at most), a 1 ends the cube.",
)
register_equipment_value("hierotek_circle/equipment/magnification_conduits", 2.0)
register_equipment_value("hierotek_circle/equipment/phase_shifter", 2.0)
register_equipment_value("hierotek_circle/equipment/tesla_weave", 2.5)
register_equipment_value("hierotek_circle/equipment/tesseract_cube", 3.5)
