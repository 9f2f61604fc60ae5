"""A compact narration of a battle, a few lines per turning point, from the engine's events.

:class:`Narrator` reads every step of a battle (pass :meth:`Narrator.on_step` to
:func:`engine.game.drivers.play` or :func:`engine.game.record.replay`) and writes lines:

- the set-up on one line (roll-off, initiative, which player sets up in the drop zone marked
  A or B by the layout and along which board edge, how many operatives each player sets up);
- per turning point, a header, then the Strategy phase on one line (initiative roll-off,
  initiative cards, who takes initiative, CP gained, ploys);
- one line per activation or counteraction with its order, AP and every move (action, distance
  paid, destination), and one indented line per shoot or fight with the dice as rolled,
  assists (who assisted whom and the Hit improvement), re-rolls (``CP`` marks a Command
  Re-roll), the successes retained and which die Punishing, Rending or Severe changed, the
  saves, the strikes and blocks, the damage, injuries, stuns and incapacitations, and a Hot
  roll with the Hit it was compared to and its outcome;
- a Guard that ends, with why (moved, acted, order changed, an enemy ended an action within
  control range without an interrupt, a new turning point);
- VP as they are scored, and the VP and operatives left at the end of each turning point.

Events the narrator does not fold into a line are written with
:func:`engine.game.events.narrate`, so a new kind of event is never lost. An event whose data
is not what the narrator's line for its kind reads (a kind another ruleset's rule modules
emit with other fields) is written generically, its kind and data (:func:`generic_text`),
never a crash. The text depends only on the events, so the same battle always gives the same
narration.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.game.actions import Action
from engine.game.events import (
    MOVE_WORDS,
    Event,
    assist_text,
    drop_zone_text,
    guard_ended_text,
    hot_text,
    narrate,
    upgrade_text,
)
from engine.game.state import GameState

__all__ = ["Narrator", "generic_text"]


def generic_text(e: Event) -> str:
    """A plain line for any event: its kind and its data in order,
    ``"kind: key value, key value"`` (values as ``str`` gives them)."""
    data = ", ".join(f"{k} {v}" for k, v in e.data)
    return f"{e.kind}: {data}" if data else e.kind


# Events with no line of their own (bookkeeping, or said another way).
_SILENT = frozenset(
    {
        "activation_ended",
        "operative_removed",
        "crits_retained",
        "shoot_ended",
        "fight_ended",
        "battle_ending",
        "kill_grade",
        "passed",
        "deployed",
        "battle_started",
    }
)


# KT18 events (rules/KT18.md): the narrator's KT18 lines (Narrator._kt18_event). A kind
# not listed here is written by the general lines (or its template).
_KT18_SETUP = frozenset(
    {
        "kt18_strategic_advantage",
        "kt18_objective_placed",
        "kt18_primary_objective",
        "kt18_battlefield_split",
        "kt18_deployment_zone",
        "kt18_cache_kept",
    }
)
_KT18_KINDS = _KT18_SETUP | frozenset(
    {
        "kt18_round_started",
        "kt18_phase_started",
        "kt18_round_ended",
        "kt18_initiative_roll",
        "kt18_initiative",
        "kt18_advanced",
        "kt18_readied",
        "kt18_charge_declared",
        "kt18_reaction",
        "kt18_charge_roll",
        "kt18_charge_ended",
        "kt18_section_started",
        "kt18_model_chosen",
        "kt18_weapon_fired",
        "kt18_hit_roll",
        "kt18_wound_roll",
        "kt18_saving_throw",
        "kt18_wounds_lost",
        "kt18_injury_roll",
        "kt18_flesh_wound",
        "kt18_out_of_action",
        "kt18_mortal_wounds",
        "kt18_piled_in",
        "kt18_fight_ended",
        "kt18_broken_check",
        "kt18_shaken_removed",
        "kt18_nerve_test",
        "kt18_objective_control",
    }
)
# The dice_rolled labels a KT18 event already says (its own line has the dice).
_KT18_DICE_SAID = ("Advance (", "initiative 2D6", "charge roll (", "Nerve test (", "broken check")


def _dice(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values) if values else "-"


def _pt(x: float, y: float) -> str:
    return f"({x:.1f}, {y:.1f})"


def _counts(normals: int, crits: int, what: str) -> str:
    parts = []
    if normals:
        parts.append(f"{normals} normal")
    if crits:
        parts.append(f"{crits} crit")
    return f"{what} " + " + ".join(parts) if parts else f"no {what}"


class _Line:
    """A line being built: a head, then parts joined with ``"; "``."""

    def __init__(self, head: str, indent: int = 0) -> None:
        self.head = head
        self.indent = indent
        self.parts: list[str] = []
        self.sep = "; "

    def text(self) -> str:
        pad = "  " * self.indent
        if not self.parts:
            return pad + self.head
        if not self.head:
            return pad + self.sep.join(self.parts)
        return f"{pad}{self.head}: " + self.sep.join(self.parts)


class _Attack(_Line):
    """A shoot or fight line, with where each fighter's dice are written."""

    def __init__(self, head: str, kind: str, op: str, target: str, weapon: str) -> None:
        super().__init__(head, indent=1)
        self.kind = kind
        self.op = op
        self.target = target
        self.weapons = {weapon}
        self.dice_part: dict[str, int] = {}  # player (fight) or "attack"/"defence" -> index
        self.strike = -1  # index of the last strike, while its damage may follow
        self.hot = -1  # index of a Hot roll whose damage follows
        self.upgrades: dict[str, list[str]] = {}  # op -> retention rules applied, until retained


class Narrator:
    """Writes the compact narration of a battle (module docstring).

    Args:
        write: called with each finished line (no newline).
    """

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.line: _Line | None = None
        self.deferred: list[str] = []
        self.active = ""  # the operative whose activation (or counteraction) is running
        self.strategy: _Line | None = None
        self.cp: dict[str, str] = {}
        self.deployed: dict[str, int] = {}
        self.pending_reroll: tuple[tuple[int, ...], str] | None = None  # dice, label
        self.kt18_header = ""  # a KT18 phase's header, written with its first line
        self.kt18 = False  # KT18 battle rounds seen: their moves get a line each
        self.kt18_section = ""  # a KT18 section's header (Ready, Fire!...), written likewise
        self.kt18_targets = 0  # the targets of the KT18 weapon being fired

    # -- lines ------------------------------------------------------------------------------

    def _flush(self) -> None:
        if self.line is not None:
            self.write(self.line.text())
            self.line = None
        for text in self.deferred:
            self.write(text)
        self.deferred.clear()

    def _flush_strategy(self) -> None:
        s = self.strategy
        if s is None:
            return
        if self.cp:
            s.parts.append("CP " + ", ".join(self.cp[p] for p in sorted(self.cp)))
        if self.deployed:
            counts = sorted(self.deployed.items())
            text = f"{counts[0][0]} sets up {counts[0][1]} operatives"
            s.parts.append(", ".join([text] + [f"{p} {n}" for p, n in counts[1:]]))
        self.write(s.text())
        self.strategy = None
        self.cp.clear()
        self.deployed.clear()

    def _part(self, text: str) -> None:
        """Add ``text`` to the open activation line (or start a continuation line)."""
        if self.line is None or isinstance(self.line, _Attack):
            self._flush()
            self.line = _Line("", indent=1)
        self.line.parts.append(text)

    def aside(self, lines: Sequence[str]) -> None:
        """Write ``lines`` (plain text, e.g. an agent's explained decision) after the line
        being built, so they follow the narration of the input they belong to."""
        if self.line is None and self.strategy is None:
            for text in lines:
                self.write(text)
        else:
            self.deferred.extend(lines)

    def close(self) -> None:
        """Write whatever is still pending (call once the battle is over)."""
        self._flush_strategy()
        self._flush()

    # -- steps ------------------------------------------------------------------------------

    def on_step(
        self,
        before: GameState,
        action: Action,
        actor: str,
        after: GameState,
        events: list[Event],
    ) -> None:
        """Narrate one input and the events it caused."""
        if action.verb in ("Command re-roll", "Re-roll"):
            self.pending_reroll = (action.values, "CP " if action.verb == "Command re-roll" else "")
        elif action.verb == "Use" and action.text[-1:].isdigit():
            # A rule's re-roll in a dice window (the Ammo Resupply re-roll, 7.2).
            rule = next((e["rule"] for e in events if e.kind == "rule_used"), "")
            if rule:
                self.pending_reroll = ((int(action.text.rsplit(" ", 1)[-1]),), f"{rule} ")
        for e in events:
            try:
                self._event(e, action, actor, after)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                # Data the line of its kind does not read: said plainly (module docstring).
                self._part(generic_text(e))

    def _event(self, e: Event, action: Action, actor: str, after: GameState) -> None:
        k = e.kind
        if k in _KT18_KINDS and self._kt18_event(e, after):
            return
        if self.kt18 and k == "dice_rolled" and str(e["label"]).startswith(_KT18_DICE_SAID):
            return  # said by the rule's own event (Advance, initiative, charge, morale)
        if self.kt18 and k in ("operative_incapacitated", "kt18_passed"):
            return  # said by kt18_out_of_action; a pass is the absence of an attack
        if self.kt18 and k == "moved":
            z = f' at {e["z"]:g}" up' if e["z"] else ""
            verb = MOVE_WORDS.get(e["action"], e["action"] + "s")
            text = f'{verb} {round(e["cost"], 1):g}" to {_pt(e["x"], e["y"])}{z}'
            if e["op"] != self.active or self.line is None:
                self._kt18_line("")  # a KT18 model's move: a line of its own
                self.active = e["op"]
                text = f"{e['op']} {text}"
            self._kt18_part(text)
            return
        attack = self.line if isinstance(self.line, _Attack) else None
        if k == "turning_point_started":
            self._flush_strategy()
            self._flush()
            self.write(f"=== Turning point {e['tp']} ===")
            self.strategy = _Line("Strategy")
        elif k == "mission_action" and self.line is not None:
            # The mission's line names the marker: it replaces the core's "X performs Y" (also
            # when the action follows an attack, on the attack's line).
            plain = f"{e['op']} performs {e['action']}"
            if self.line.parts and self.line.parts[-1] == plain:
                self.line.parts.pop()
                if attack is not None:
                    attack.parts.append(narrate(e))
                    return
            self._part(narrate(e))
        elif k == "turning_point_ending":
            # End-of-turning-point scoring starts its own lines (not the last activation's).
            self._flush()
        elif k == "crit_op_chosen":
            if self.strategy is None:
                self.strategy = _Line("Set-up")
            self.strategy.parts.append(narrate(e))
        elif k in ("roll_off", "drop_zone_chosen", "initiative_card", "initiative_decided"):
            self._strategy_event(e, action, actor)
        elif k == "cp_gained":
            self.cp[e["player"]] = f"{e['player']} {e['total']} (+{e['cp']})"
        elif k == "deployed":
            if self.strategy is None:
                self.strategy = _Line("Set-up")
            player = after.ctx.owner[e["op"]]
            self.deployed[player] = self.deployed.get(player, 0) + 1
        elif k in ("activated", "counteracted", "interrupt"):
            self._flush_strategy()
            self._flush()
            self.active = e["op"]
            if k == "activated":
                head = f"{e['op']} activates ({e['order']}, {e['ap']}AP)"
            elif k == "counteracted":
                head = f"{e['op']} counteracts"
            else:
                head = f"{e['op']} interrupts from On Guard"
            self.line = _Line(head)
        elif k == "moved":
            z = f' at {e["z"]:g}" up' if e["z"] else ""
            verb = MOVE_WORDS.get(e["action"], e["action"] + "s")
            # (KT21 counts a move's real length: tenths of an inch are enough to read)
            who = "" if e["op"] == self.active else f"{e['op']} "  # (a move of another)
            self._part(f'{who}{verb} {round(e["cost"], 1):g}" to {_pt(e["x"], e["y"])}{z}')
        elif k == "guard":
            self._part("goes on guard")
        elif k == "guard_ended":
            text = guard_ended_text(e)
            if self.strategy is not None:
                self.strategy.parts.append(text)
            else:
                self._part(text)
        elif k == "assisted" and attack is not None:
            attack.parts.append(assist_text(e))
        elif k == "die_upgraded" and attack is not None:
            # applied while choosing; written after the successes retained (attack_retained)
            attack.upgrades.setdefault(e["op"], []).append(upgrade_text(e))
        elif k == "hot_roll" and attack is not None:
            if e["damage"]:
                attack.hot = len(attack.parts)
                attack.parts.append(hot_text(e).rsplit(": ", 1)[0])
            else:
                attack.parts.append(hot_text(e))
        elif k == "hatch_operated":
            self._part(f"{'opens' if e['open'] else 'closes'} {e['hatch']}")
        elif k == "marker_picked_up":
            self._part(f"picks up marker {e['marker']}")
        elif k == "marker_placed":
            self._part(f"places marker {e['marker']} at {_pt(e['x'], e['y'])}")
        elif k in ("shoot_declared", "fight_declared"):
            self._flush_strategy()
            self._flush()
            who = "" if e["op"] == self.active else f"{e['op']} "
            verb = "shoots" if k == "shoot_declared" else "fights"
            pb = " (point blank)" if e.get("point_blank") else ""
            self.line = _Attack(
                f"{who}{verb} {e['target']} with {e['weapon']}{pb}",
                "shoot" if k == "shoot_declared" else "fight",
                e["op"],
                e["target"],
                e["weapon"],
            )
        elif k == "retaliation_weapon" and attack is not None:
            attack.head += f" ({e['op']} retaliates with {e['weapon']})"
            attack.weapons.add(e["weapon"])
        elif k == "dice_rolled":
            self._dice_rolled(e, attack, after)
        elif k == "dice_rerolled":
            self._dice_rerolled(e, attack)
        elif (k == "cp_spent" and e["ploy"] == "Command Re-roll") or (
            k == "rule_used" and attack is not None and self.pending_reroll is not None
        ):
            pass  # written with the re-roll
        elif k == "attack_retained" and attack is not None:
            self._retained(e, attack, after)
        elif k == "saves_retained" and attack is not None:
            cover = f" ({e['cover']} from cover)" if e.get("cover") else ""
            text = " -> " + _counts(e["normals"], e["crits"], "saves") + cover
            idx = attack.dice_part.pop("defence", None)
            if idx is None:
                attack.parts.append(text.removeprefix(" -> "))
            else:
                attack.parts[idx] += text
        elif k == "strike" and attack is not None:
            attack.strike = len(attack.parts)
            attack.parts.append(f"{e['op']} strikes ({e['die']})")
        elif k == "block" and attack is not None:
            if e["blocked"] == "nothing":
                attack.parts.append(f"{e['op']} discards a {e['die']}")
            else:
                attack.parts.append(f"{e['op']} blocks a {e['blocked']} with a {e['die']}")
        elif k == "damage_inflicted":
            src = e["source"]
            shown = "" if attack is not None and src in attack.weapons else f" from {src}"
            text = f"{e['op']} takes {e['damage']} damage{shown} ({max(0, e['wounds'])}W left)"
            if attack is not None and attack.strike == len(attack.parts) - 1:
                attack.parts[-1] += ": " + text
                attack.strike = -1
            elif src == "Hot" and attack is not None and attack.hot == len(attack.parts) - 1:
                attack.parts[-1] += (
                    f": {e['op']} takes {e['damage']} damage ({max(0, e['wounds'])}W left)"
                )
                attack.hot = -1
            elif attack is not None:
                attack.parts.append(text)
            else:
                self._part(text)
        elif k == "operative_incapacitated":
            text = f"{e['op']} is incapacitated"
            last = self.line.parts[-1] if self.line is not None and self.line.parts else ""
            if self.line is not None and f"{e['op']} takes " in last and last.endswith("W left)"):
                self.line.parts[-1] = last[: last.rindex(" (")] + ": incapacitated"
            elif attack is not None:
                attack.parts.append(text)
            else:
                self._part(text)
        elif k == "operative_injured":
            last = self.line.parts[-1] if self.line is not None and self.line.parts else ""
            if self.line is not None and f"{e['op']} takes " in last and last.endswith("W left)"):
                self.line.parts[-1] = last[:-1] + ", injured)"
            elif attack is not None:
                attack.parts.append(f"{e['op']} is injured")
            else:
                self._part(f"{e['op']} is injured")
        elif k == "stunned":
            text = f"{e['op']} is stunned"
            if attack is not None:
                attack.parts.append(text)
            else:
                self._part(text)
        elif k in ("vp_scored", "vp_lost"):
            self.deferred.append(f"  * {narrate(e)}")
            if self.line is None:
                self._flush()
        elif k == "turning_point_ended":
            self._flush_strategy()
            self._flush()
            left = {p: (len(after.alive(p)), after.ctx.starting[p]) for p in ("A", "B")}
            self.write(
                f"--- End of turning point {e['tp']}: VP A {e['vp'][0]}, B {e['vp'][1]}; "
                f"operatives left A {left['A'][0]}/{left['A'][1]}, B {left['B'][0]}/{left['B'][1]}"
            )
        elif k == "battle_ended":
            self._flush_strategy()
            self._flush()
            self.write(narrate(e))
        elif k in _SILENT:
            return
        else:
            text = narrate(e).strip()
            if not text:
                return
            if self.strategy is not None:
                self.strategy.parts.append(text)
            elif attack is not None:
                attack.parts.append(text)
            else:
                self._part(text)

    # -- KT18 (rules/KT18.md): battle rounds, phases, one line per model's move or attack ---

    def _kt18_write(self, text: str) -> None:
        """Write ``text`` as a line of the current KT18 phase (its pending header first)."""
        if self.kt18_header:
            self.write(self.kt18_header)
            self.kt18_header = ""
        self.write(text)

    def _kt18_line(self, head: str, indent: int = 1) -> None:
        """Start a new line (the pending phase and section headers written first)."""
        self._flush_strategy()
        self._flush()
        if self.kt18_header:
            self.write(self.kt18_header)
            self.kt18_header = ""
        if self.kt18_section:
            self.write(self.kt18_section)
            self.kt18_section = ""
        self.line = _Line(head, indent=indent)

    def _kt18_part(self, text: str) -> None:
        """Add ``text`` to the open line, or to a new continuation line of the phase."""
        if self.strategy is not None:
            self.strategy.parts.append(text)
            return
        if self.line is None:
            self._kt18_line("")
        assert self.line is not None
        self.line.parts.append(text)

    def _kt18_event(self, e: Event, after: GameState) -> bool:
        """Narrate a KT18 event (:data:`_KT18_KINDS`): ``True`` when it was written (or is
        silent by design), ``False`` to let the general lines take it."""
        k = e.kind
        if k in _KT18_SETUP:
            if self.strategy is None:
                self._flush()
                self.strategy = _Line("Set-up")
            self.strategy.parts.append(narrate(e).strip())
        elif k == "kt18_round_started":
            self._flush_strategy()
            self._flush()
            self.kt18 = True
            self.kt18_header = ""
            self.write(narrate(e))
        elif k == "kt18_phase_started":
            self._flush_strategy()
            self._flush()
            self.active = ""
            # Written with the phase's first line: a phase where nothing happens is not shown.
            self.kt18_header = f"-- {str(e['phase']).capitalize()} phase"
            self.kt18_section = ""
        elif k in ("kt18_initiative_roll", "kt18_initiative"):
            if self.line is None or self.line.head != "Initiative":
                self._kt18_line("Initiative")
            text = narrate(e).strip()
            if k == "kt18_initiative_roll":
                text = f"{e['player']} rolls {_dice(e['values'])} ({e['total']})"
            self._kt18_part(text)
        elif k == "kt18_readied":
            if self.line is None or self.line.head != "Readied":
                self._kt18_line("Readied")
                assert self.line is not None
                self.line.sep = ", "
            self._kt18_part(e["op"])
            self.active = ""
        elif k in ("kt18_advanced", "kt18_charge_declared", "kt18_model_chosen"):
            head = narrate(e).strip()
            if k == "kt18_model_chosen":
                head = f"{e['op']} {'shoots' if e['phase'] == 'shooting' else 'fights'}"
            self._kt18_line(head)
            self.active = e["op"]
        elif k == "kt18_weapon_fired":
            self._flush()
            self.kt18_targets = len(e["targets"])
            self.line = _Line(narrate(e).strip(), indent=2 if self.active else 1)
        elif k == "kt18_hit_roll" and self.kt18_targets > 1:
            self._kt18_part(f"at {e['target']}: {narrate(e).strip()}")
        elif k == "kt18_section_started":
            self._flush()
            # Written with the section's first line: a section where nobody acts is not shown.
            self.kt18_section = f"  {narrate(e).strip().split(' (')[0]}"
            self.active = ""
        elif k in ("kt18_round_ended",):
            self._flush_strategy()
            self._flush()
            self.kt18_header = ""
            left = {p: (len(after.alive(p)), after.ctx.starting[p]) for p in ("A", "B")}
            self.write(
                f"--- End of battle round {e['round']}: models left "
                f"A {left['A'][0]}/{left['A'][1]}, B {left['B'][0]}/{left['B'][1]}"
            )
        elif k == "kt18_fight_ended":
            self._flush()
            self.active = ""
        elif k in ("kt18_broken_check", "kt18_nerve_test", "kt18_shaken_removed"):
            if self.line is None or self.line.head != "Morale":
                self._kt18_line("Morale")
            text = narrate(e).strip()
            if text:
                self._kt18_part(text)
        elif k == "kt18_objective_control":
            self._flush()
            self.write(f"  * {narrate(e).strip()}")
        else:
            text = narrate(e).strip()
            if text:
                self._kt18_part(text)
        return True

    def _strategy_event(self, e: Event, action: Action, actor: str) -> None:
        if self.strategy is None:
            self.strategy = _Line("Set-up")
        parts = self.strategy.parts
        k = e.kind
        if k == "roll_off":
            parts.append(f"roll-off A {e['a']}, B {e['b']}")
        elif k == "initiative_card":
            parts.append(f"{e['player']} plays initiative card {e['card']}")
        elif k == "drop_zone_chosen":
            parts.append(drop_zone_text(e))
        elif action.verb == "Initiative" and actor in ("A", "B"):
            chosen = e["player"]
            parts.append(
                f"{actor} takes the initiative"
                if chosen == actor
                else f"{actor} gives the initiative to {chosen}"
            )
        else:
            parts.append(f"{e['player']} has the initiative")

    def _dice_rolled(self, e: Event, attack: _Attack | None, after: GameState) -> None:
        label = str(e["label"])
        values = _dice(e["values"])
        if attack is None:
            text = narrate(e).strip()
            (self.strategy.parts if self.strategy is not None else self.deferred).append(text)
            return
        if label.startswith("Hot"):
            return  # written with its outcome (hot_roll)
        if attack.kind == "fight":
            player = e["player"]
            fighter = next(
                (op for op in (attack.op, attack.target) if after.ctx.owner.get(op) == player),
                player,
            )
            attack.dice_part[player] = len(attack.parts)
            attack.parts.append(f"{fighter} rolls {values}")
            return
        key = "attack" if label == "attack" else "defence"
        attack.dice_part[key] = len(attack.parts)
        attack.parts.append(f"{key} {values}")

    def _dice_rerolled(self, e: Event, attack: _Attack | None) -> None:
        old, label = self.pending_reroll or (tuple(e.get("old") or ()), "")
        self.pending_reroll = None
        new = _dice(e["new"])
        text = f"{label}re-roll {_dice(old)} to {new}" if old else f"re-roll -> {new}"
        if attack is None:
            target = self.strategy.parts if self.strategy is not None else None
            if target:
                target[-1] += f" -> {new}"
            else:
                self.deferred.append("  " + narrate(Event.make("dice_rerolled", **dict(e.data))))
            return
        if attack.kind == "fight":
            idx = attack.dice_part.get(e["player"])
        else:
            idx = attack.dice_part.get("defence", attack.dice_part.get("attack"))
        if idx is None:
            attack.parts.append(text)
        else:
            attack.parts[idx] += ", " + text

    def _retained(self, e: Event, attack: _Attack, after: GameState) -> None:
        text = " -> " + _counts(e["normals"], e["crits"], "hits")
        if e.get("obscured"):
            text += " (obscured)"
        upgrades = attack.upgrades.pop(e["op"], [])
        if upgrades:
            text += " (" + "; ".join(upgrades) + ")"
        if attack.kind == "fight":
            idx = attack.dice_part.get(after.ctx.owner.get(e["op"], ""))
        else:
            idx = attack.dice_part.get("attack")
            if idx is not None and e["target"] != attack.target:
                attack.parts[idx] = f"vs {e['target']}: " + attack.parts[idx]
        if idx is None:
            attack.parts.append(text.removeprefix(" -> "))
        else:
            attack.parts[idx] += text
