"""Markerlight (Pathfinders faction rule): the Markerlight action, its tokens on enemy
operatives and what they give to friendly PATHFINDER shooters.

Token API (stable; other Pathfinders modules build on it):

- :func:`markerlights` ``(w, op, player=None) -> int``: how many of ``player``'s Markerlight
  tokens the operative ``op`` has (``player`` defaults to ``op``'s opponent).
- :func:`add_markerlights` ``(w, op, n, player, source="") -> int``: ``op`` gains ``n`` of
  ``player``'s tokens, never above :data:`MAX_MARKERLIGHTS` (4); returns how many it gained;
  emits ``markerlights_changed``.
- :func:`remove_markerlights` ``(w, op, n=1, player=None) -> int``: ``op`` loses up to
  ``n`` of them; returns how many it lost; emits ``markerlights_changed``.
- :func:`can_markerlight` ``(w, op) -> bool``: the operative's datacard lets it perform the
  Markerlight action.
- :data:`MARKERLIGHT` (the action; notation ``Act <op> markerlight on <enemy>``).

Team would hooks it asks (other Pathfinders rules subscribe with ``hooks.transform``):

- ``would_pathfinder_markerlight_gain`` ``fn(w, n, op=, target=, mode=) -> n``: how many
  tokens the selected enemy gains from ``op``'s Markerlight action (1; High-Intensity
  Markerlight).
- ``would_pathfinder_markerlight_modes`` ``fn(w, modes, op=, target=) -> modes``: the words
  of the rules a player may choose to use when it performs the action on ``target``
  (``("high-intensity",)``: the High-Intensity Markerlight equipment); each gives the
  variant ``Act <op> markerlight <mode> on <enemy>`` (``mode`` passed to the other hooks
  and to the event; ``""`` for the plain action).
- ``would_pathfinder_markerlight_target`` ``fn(w, why, op=, target=) -> why``: why
  ``target`` cannot be selected (``None``: it can); a rule may allow an enemy out of sight.
- ``would_pathfinder_markerlight_in_control_range`` ``fn(w, False, op=) -> bool``: whether
  ``op`` may perform it within control range of an enemy (Fearless On The Frontline).

After the action the event ``markerlight_performed`` (``op``, ``target``, ``gained``,
``mode``) is
emitted (did hooks may add more tokens: Analyse, which asks the team hook
``would_pathfinder_analyse`` ``fn(w, True, op=, target=) -> bool`` first).

Tokens are effects of kind ``"markerlight"`` on the enemy operative (``value`` the number,
``player`` the Pathfinder player whose tokens they are, until the end of the battle). They
apply at once (not pending): they are tokens, not stat changes.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.dice.rules import Balanced, Saturate, SeekLight, WeaponRule
from engine.game.actions import Action
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.effects import cannot_be_obscured, unobscure
from engine.rules.registry import register, rule_id
from teams.pathfinders.common import (
    TEAM,
    activation_frame,
    active_op,
    from_datacard,
    has_keyword,
    is_drone,
    is_pathfinder,
    mine,
)

__all__ = [
    "KIND",
    "MARKERLIGHT",
    "MAX_MARKERLIGHTS",
    "add_markerlights",
    "can_markerlight",
    "markerlights",
    "remove_markerlights",
]

KIND = "markerlight"
"""The effect kind of Markerlight tokens."""
MAX_MARKERLIGHTS = 4
MB3_RECON = "MB3 RECON"
MV7_MARKER = "MV7 MARKER"
GRENADE = "grenade"
"""No grenade gets the Markerlight effects: the fusion grenade is excluded by name, and the
frag and krak grenades the Assault Grenadier can use (Grenadier Specialist gives them) are
universal equipment, not datacard weapons."""
MOVES_SHEDDING = ("dash", "charge", "fall back", "reposition")
_SHOT = "pf_shot:"
_MARKED = "pf_marked:"
_SHED = "pf_markerlight_shed"
_RULE = rule_id(TEAM, "faction_rule", "Markerlight")


def _other(player: str) -> str:
    return "B" if player == "A" else "A"


def markerlights(w: Work, op: str, player: str | None = None) -> int:
    """How many of ``player``'s Markerlight tokens ``op`` has (``player``: ``op``'s
    opponent by default)."""
    if not w.effects:
        return 0
    who = player if player is not None else _other(w.ctx.owner[op])
    return sum(e.value for e in w.effects if e.kind == KIND and e.op == op and e.player == who)


def _set(w: Work, op: str, player: str, n: int, source: str) -> None:
    keep = [e for e in w.effects if not (e.kind == KIND and e.op == op and e.player == player)]
    if n > 0:
        keep.append(Effect(KIND, op, "end_battle", source=source, value=n, player=player))
    w.effects = keep


def add_markerlights(w: Work, op: str, n: int, player: str, source: str = "") -> int:
    """``op`` gains ``n`` of ``player``'s Markerlight tokens (at most 4 in all); returns how
    many it gained."""
    old = markerlights(w, op, player)
    new = max(0, min(MAX_MARKERLIGHTS, old + n))
    if new <= old:
        return 0
    _set(w, op, player, new, source)
    w.emit("markerlights_changed", op=op, player=player, tokens=new, change=new - old)
    return new - old


def remove_markerlights(w: Work, op: str, n: int = 1, player: str | None = None) -> int:
    """``op`` loses up to ``n`` of ``player``'s Markerlight tokens (``player``: ``op``'s
    opponent by default); returns how many it lost."""
    who = player if player is not None else _other(w.ctx.owner[op])
    old = markerlights(w, op, who)
    new = max(0, old - n)
    if new == old:
        return 0
    _set(w, op, who, new, "")
    w.emit("markerlights_changed", op=op, player=who, tokens=new, change=new - old)
    return old - new


NO_MARKERLIGHT = ("MARKSMAN", "WEAPONS EXPERT")
"""The non-drone PATHFINDER operatives whose datacards have no Markerlight action."""


def can_markerlight(w: Work, op: str) -> bool:
    """The datacard of ``op`` lets it perform the Markerlight action. The dataslate says
    only the operatives whose datacard shows the action may; the killteamjson dataslate does
    not carry that mark on any datacard (its faction rule only says "some"; the Drone rule
    lists Markerlight among the few actions a drone may perform, without granting it), so
    this follows the BSData catalogue, which does: every PATHFINDER operative but the
    Marksman and the Weapons Experts (:data:`NO_MARKERLIGHT`); of the drones, the MB3 Recon.
    The MV7 Marker Drone is added although the catalogue omits the mark: its own
    High-Intensity Markerlight works only on its Markerlight action, so its datacard must
    have it. (Kauyon's free Markerlight is for those that may perform the action.)"""
    if not is_pathfinder(w, op):
        return False
    if not is_drone(w, op):
        return not any(has_keyword(w, op, k) for k in NO_MARKERLIGHT)
    return has_keyword(w, op, MB3_RECON) or has_keyword(w, op, MV7_MARKER)


def _ties(w: Work, op: str) -> bool:
    """Whether ``op``'s Shoot and Markerlight in one activation must select the same enemy
    (every operative but the MB3 Recon drone)."""
    return not has_keyword(w, op, MB3_RECON)


def _bound(w: Work, op: str, prefix: str) -> str:
    """The enemy a Shoot (``_SHOT``) or Markerlight (``_MARKED``) of ``op`` selected in the
    activation in progress, or ``""``."""
    for e in w.effects:
        if e.kind == "token" and e.op == op and e.detail.startswith(prefix):
            return e.detail[len(prefix) :]
    return ""


def _bind(w: Work, op: str, prefix: str, target: str) -> None:
    """Remember, until the end of the activation in progress, which enemy ``op`` selected."""
    if _bound(w, op, prefix):
        return
    source = active_op(w) or op
    w.effects.append(Effect("token", op, "end_activation", source=source, detail=prefix + target))


@attrs.frozen(slots=True)
class Markerlight:
    """Markerlight (1AP; a :class:`engine.game.rule_actions.RuleActionLike`): select an
    enemy operative visible to this operative; it gains one of your Markerlight tokens (at
    most four). Limits: not within control range of an enemy operative (unless a rule says
    so); an operative (other than the MB3 Recon drone) that performs this and a Shoot
    (not an On Guard interrupt) in one activation selects the same enemy for both; only
    operatives whose datacard has it (:func:`can_markerlight`). Notation
    ``Act <op> markerlight on <enemy>``."""

    name: str = "Markerlight"
    text: str = "markerlight"
    ap: int = 1
    family: str = ""

    def _why_not(self, w: Work, o: OperativeState) -> str | None:
        if not can_markerlight(w, o.id):
            return f"{o.id} cannot perform the Markerlight action (its datacard has none)"
        if w.in_enemy_control_range(o) and not w.would(
            "would_pathfinder_markerlight_in_control_range", False, op=o.id
        ):
            return f"{o.id} is within control range of an enemy operative (Markerlight)"
        return None

    def target_reason(self, w: Work, o: OperativeState, target: str) -> str | None:
        """Why ``target`` cannot be selected by ``o``'s Markerlight now, or ``None``."""
        enemies = {e.id for e in w.enemies_of(o.id)}
        if target not in enemies:
            return f"Markerlight selects an enemy operative on the killzone ({target!r} is not)"
        why: str | None = None
        if not w.ctx.visible(w.kz, w.place(o), w.place(w.op(target))):
            why = f"{target} is not visible to {o.id} (Markerlight)"
        if w.ctx.hooks.would.get("would_pathfinder_markerlight_target"):
            why = w.would("would_pathfinder_markerlight_target", why, op=o.id, target=target)
        if why is None and _ties(w, o.id):
            shot = _bound(w, o.id, _SHOT)
            if shot and shot != target:
                why = f"{o.id} shot {shot} this activation: its Markerlight must select {shot}"
        return why

    def options(self, w: Work, o: OperativeState, mode: str) -> list[Action]:
        """``Act <op> markerlight on <enemy>`` for each enemy it may select that is not at
        four tokens yet (any for the MB3 Recon drone, whose Analyse marks others too), and
        ``Act <op> markerlight <mode> on <enemy>`` for each rule its player may use with it
        (:func:`modes`)."""
        if self._why_not(w, o) is not None:
            return []
        out = []
        for e in w.enemies_of(o.id):
            full = markerlights(w, e.id, o.player) >= MAX_MARKERLIGHTS
            if full and not has_keyword(w, o.id, MB3_RECON):
                continue
            if self.target_reason(w, o, e.id) is None:
                out.append(Action("Act", op=o.id, text=self.text, target=e.id))
                for m in modes(w, o.id, e.id):
                    out.append(Action("Act", op=o.id, text=f"{self.text} {m}", target=e.id))
        return out

    def check(self, w: Work, o: OperativeState, a: Action, mode: str) -> str | None:
        """Why ``a`` cannot be performed (naming the rule), or None."""
        why = self._why_not(w, o)
        if why is not None:
            return why
        if not a.target:
            return f"{a}: Markerlight selects an enemy operative (on <enemy>)"
        why = self.target_reason(w, o, a.target)
        m = mode_of(a)
        if why is None and m and m not in modes(w, o.id, a.target):
            allowed = ", ".join(modes(w, o.id, a.target)) or "none"
            return f"{a}: {o.id} cannot use {m!r} with this Markerlight now (allowed: {allowed})"
        return why

    def advice(self, w: Work, o: OperativeState, a: Action, mode: str) -> float:
        """Rule of thumb: 0.06 operatives per token the target gains (more when the team
        still has shooters to come: 0.09 while a friendly PATHFINDER that can shoot is ready
        or this operative has AP left to shoot it), plus 0.03 per other enemy Analyse marks."""
        have = markerlights(w, a.target, o.player)
        gain = _gain(w, o.id, a.target, mode_of(a))
        gained = min(MAX_MARKERLIGHTS, have + gain) - have
        shooters = o.ap >= 2 or any(f.ready for f in w.friends_of(o.id))
        value = (0.09 if shooters else 0.06) * gained
        if has_keyword(w, o.id, MB3_RECON):
            value += 0.03 * len(analyse_targets(w, o, a.target))
        return value

    def perform(self, w: Work, o: OperativeState, a: Action, mode: str) -> None:
        """The enemy gains its tokens; the Shoot of this activation is tied to it."""
        m = mode_of(a)
        gained = add_markerlights(w, a.target, _gain(w, o.id, a.target, m), o.player, source=o.id)
        if _ties(w, o.id):
            _bind(w, o.id, _MARKED, a.target)
        w.emit("markerlight_performed", op=o.id, target=a.target, gained=gained, mode=m)


MARKERLIGHT = Markerlight()


def mode_of(a: Action) -> str:
    """The rule word of a Markerlight action (``"high-intensity"`` for ``Act PAT-1
    markerlight high-intensity on BLU-1``; ``""`` for the plain action)."""
    return a.text[len(MARKERLIGHT.text) :].strip()


def modes(w: Work, op: str, target: str) -> tuple[str, ...]:
    """The rule words ``op``'s player may use with its Markerlight on ``target`` now (the
    ``would_pathfinder_markerlight_modes`` hooks)."""
    if "would_pathfinder_markerlight_modes" not in w.ctx.hooks.would:
        return ()
    got = w.would("would_pathfinder_markerlight_modes", (), op=op, target=target)
    return tuple(str(m) for m in got)


def _gain(w: Work, op: str, target: str, mode: str) -> int:
    """How many tokens ``target`` gains from ``op``'s Markerlight used with ``mode``."""
    hook = "would_pathfinder_markerlight_gain"
    return int(w.would(hook, 1, op=op, target=target, mode=mode))


def analyse_targets(w: Work, o: OperativeState, target: str) -> list[str]:
    """The other enemy operatives Analyse marks: visible to ``o`` and within 3" of
    ``target``."""
    kz, me, tp = w.kz, w.place(o), w.place(w.op(target))
    return [
        e.id
        for e in w.enemies_of(o.id)
        if e.id != target
        and w.distance(tp, w.place(e)) <= 3.0 + 1e-6
        and w.ctx.visible(kz, me, w.place(e))
    ]


def _weapon_in_shot(w: Work, op: str) -> str:
    """The weapon of ``op``'s Shoot in progress (its frame, or the declaration just made)."""
    for f in reversed(w.stack):
        if getattr(f, "shooter", None) == op and hasattr(f, "weapon"):
            return str(f.weapon)
    for ev in reversed(w.events):
        if ev.kind == "shoot_declared" and ev.get("op") == op:
            return str(ev.get("weapon", ""))
    return ""


def _benefits(w: Work, players: tuple[str, ...], op: str, target: str, weapon: str) -> int:
    """How many of its player's tokens ``target`` has, for a PATHFINDER ``op`` of
    ``players`` shooting it with ``weapon`` from its datacard (no grenade: not the fusion
    grenade, nor the frag and krak grenades of Grenadier Specialist); 0 when the rule gives
    nothing."""
    if not target or not mine(w, op, players) or w.ctx.owner.get(target) == w.ctx.owner[op]:
        return 0
    n = markerlights(w, target, w.ctx.owner[op])
    if not n:
        return 0
    if weapon and (GRENADE in weapon.lower() or not from_datacard(w, op, weapon)):
        return 0
    return n


def install_markerlight(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Markerlight (faction rule; module docstring). What tokens give a friendly PATHFINDER
    shooting the marked enemy with a weapon from its datacard (not the Assault Grenadier's
    fusion grenade, nor its frag and krak grenades: universal equipment), cumulatively:
    1+ Saturate and Balanced; 2+ Hit improved by 1 (not better than 3+);
    3+ the target cannot be obscured; 4 Seek Light (light terrain cannot
    make a Conceal target invalid). An enemy loses one token the first time in each of its
    activations (or counteractions) it performs Dash, Charge, Fall Back or Reposition; a
    move outside them (a free action a rule gives it) sheds none. Triggers: the core's
    would_use_weapon_rules (which target selection reads too: Seek Light), would_change_hit,
    would_target and would_refuse_target hooks; the ``moved`` and ``shoot_started`` events."""

    def rules(w: Work, value: Any, **info: Any) -> Any:
        if info.get("kind") != "ranged" or not w.effects:
            return value
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        n = _benefits(w, players, op, target, str(info.get("weapon", "")))
        if n >= 1:
            extra: list[WeaponRule] = [
                r for r in (Saturate(), Balanced()) if not value.has(type(r))
            ]
            if n >= MAX_MARKERLIGHTS and not value.has(SeekLight):
                extra.append(SeekLight())
            if extra:
                value = value.with_rules(*extra)
        return value

    def hit(w: Work, change: int, **info: Any) -> int:
        if info.get("kind") != "ranged" or not w.effects:
            return change
        op, target, weapon = str(info["op"]), str(info.get("target", "")), str(info["weapon"])
        if _benefits(w, players, op, target, weapon) < 2:
            return change
        from engine.game.universal import find_weapon

        _, _, prof = find_weapon(w, w.op(op), weapon, "ranged")
        now = prof.hit + (1 if info.get("injured") else 0) + w.stat_change(op, "hit") + change
        return change - 1 if now > 3 else change

    def unobscured(w: Work, tg: Any, **info: Any) -> Any:
        if not tg.obscured or not w.effects:
            return tg
        op, target = str(info.get("op", "")), str(info.get("target", ""))
        if _benefits(w, players, op, target, _weapon_in_shot(w, op)) < 3:
            return tg
        return unobscure(tg)

    def refuse(w: Work, why: Any, **info: Any) -> Any:
        op, target = info["op"].id, info["target"].id  # (operative states, shoot.refused_target)
        if why is not None or not w.effects or not mine(w, op, players) or not _ties(w, op):
            return why
        marked = _bound(w, op, _MARKED)
        frame = activation_frame(w, op)
        if marked and marked != target and getattr(frame, "mode", "") != "interrupt":
            return f"{op} performed Markerlight on {marked} this activation: it must shoot it"
        return why

    def shot(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if not mine(w, op, players) or not _ties(w, op):
            return
        frame = activation_frame(w, op)
        if getattr(frame, "mode", "") != "interrupt":
            _bind(w, op, _SHOT, str(ev.get("target", "")))

    def moved(w: Work, ev: Event) -> None:
        op = str(ev.get("op", ""))
        if ev.get("action") not in MOVES_SHEDDING or not w.effects or active_op(w) != op:
            return  # (only during its own activation or counteraction)
        for player in players:
            if w.ctx.owner.get(op) == player or not markerlights(w, op, player):
                continue
            if any(e.kind == "token" and e.op == op and e.detail == _SHED for e in w.effects):
                return
            remove_markerlights(w, op, 1, player)
            w.effects.append(Effect("token", op, "end_activation", source=op, detail=_SHED))
            return

    hooks.action(MARKERLIGHT, players)
    hooks.transform("would_use_weapon_rules", rules)
    hooks.transform("would_change_hit", hit)
    cannot_be_obscured(hooks, unobscured)  # (3+: by terrain and by smoke alike)
    hooks.transform("would_refuse_target", refuse)
    hooks.on("shoot_started", shot)
    hooks.on("moved", moved)


def _changed_text(e: Event) -> str:
    """``"  BLU-1 has 2 Markerlight tokens (+1)"``."""
    n, change = e["tokens"], e["change"]
    return f"  {e['op']} has {n} Markerlight token{'' if n == 1 else 's'} ({change:+d})"


add_template("markerlights_changed", _changed_text)
add_template("markerlight_performed", lambda e: "")

register(
    "pathfinders/faction_rule/markerlight",
    install_markerlight,
    "Markerlight action marks a visible enemy (max 4 tokens); tokens help Pathfinder shooters.",
)
