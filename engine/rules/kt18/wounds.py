"""KT18 damage (``rules/KT18.md`` 6.8-6.13): wounds lost, the Injury roll with its modifiers
and its several dice after an attack of Damage above 1, flesh wounds, out of action and mortal
wounds.

- :func:`lose_wounds`: a model loses wounds; at 0 the rest of what was allocated to it is the
  caller's to discard, and an :class:`InjuryFrame` is pushed.
- :class:`InjuryFrame`: the Injury roll (6.9, 6.10): ``dice`` D6 rolled together by the
  ``roller``, the highest counts, +1 per flesh wound already marked on the model and the
  caller's modifier (the -1 for an obscured model behind cover, shooting and psychic powers
  only); 4+ out of action, 3 or less a flesh wound.
- :func:`flesh_wound`: back to 1 wound with one more box marked (an
  ``Effect("kt18_flesh_wound", op, "end_battle")``), or out of action when every box is already
  marked (6.11, reading (a): the flesh wound that finds no empty box).
- :func:`take_out_of_action`: the model is removed at once (6.12), as a KT24 incapacitation
  (``operative_incapacitated`` then ``operative_removed``).
- :func:`push_mortal_wounds`: ``count`` mortal wounds, one at a time, no wound roll and no save
  (6.13); a random count is rolled first; the model reaching 0 wounds discards the rest and
  makes one Injury roll of one die (6.10, reading chosen: one die).
"""

from __future__ import annotations

import attrs

from engine.dice.kt18_rolls import injury_is_out_of_action
from engine.dice.kt18_values import RandomValue
from engine.game.actions import Action, IllegalActionError
from engine.game.damage import incapacitate, remove_casualties
from engine.game.frame_skeleton import NoChoiceFrame
from engine.game.state import Effect
from engine.game.work import Work

__all__ = [
    "FLESH_WOUND",
    "InjuryFrame",
    "MortalWoundsFrame",
    "flesh_wound",
    "flesh_wound_boxes",
    "flesh_wounds",
    "lose_wounds",
    "push_mortal_wounds",
    "take_out_of_action",
]

FLESH_WOUND = "kt18_flesh_wound"
"""The effect kind of one flesh wound marked on a model (``until="end_battle"``, 6.11)."""


def flesh_wounds(w: Work, op_id: str) -> int:
    """How many flesh wounds ``op_id`` has marked (``rules/KT18.md`` 6.11)."""
    return sum(1 for e in w.effects if e.kind == FLESH_WOUND and e.op == op_id)


def flesh_wound_boxes(w: Work, op_id: str) -> int:
    """The flesh wound boxes of ``op_id``'s datacard (``rules/KT18.md`` 6.11 decision: 3
    unless its data says otherwise)."""
    kt18 = w.ctx.datacards[op_id].kt18
    return kt18.flesh_wound_boxes if kt18 is not None else 3


def take_out_of_action(w: Work, op_id: str, by: str = "") -> None:
    """``op_id`` is out of action (``rules/KT18.md`` 6.12): emits ``kt18_out_of_action``, then
    the model is incapacitated and removed from the battlefield at once."""
    o = w.op(op_id)
    if o.incapacitated or not o.placed:
        return
    w.emit("kt18_out_of_action", op=op_id, player=o.player, by=by)
    incapacitate(w, op_id, by)
    remove_casualties(w)


def flesh_wound(w: Work, op_id: str, by: str = "") -> None:
    """``op_id`` suffers a flesh wound (``rules/KT18.md`` 6.11): with an empty box left it is
    marked and the model goes back to 1 wound (``kt18_flesh_wound``); with every box already
    marked it is out of action instead (reading (a))."""
    marked = flesh_wounds(w, op_id)
    if marked >= flesh_wound_boxes(w, op_id):
        take_out_of_action(w, op_id, by)
        return
    w.add_effect(Effect(FLESH_WOUND, op_id, "end_battle", source=by))
    w.set_op(op_id, wounds=1)
    w.emit("kt18_flesh_wound", op=op_id, flesh_wounds=marked + 1, by=by)


def lose_wounds(
    w: Work,
    op_id: str,
    damage: int,
    *,
    by: str,
    source: str,
    roller: str,
    injury_die_count: int = 1,
    injury_modifier: int = 0,
) -> bool:
    """``op_id`` loses ``damage`` wounds (``rules/KT18.md`` 6.8, 6.13), never below 0; emits
    ``kt18_wounds_lost``. At 0 wounds an :class:`InjuryFrame` of ``injury_die_count`` dice
    (6.10) rolled by ``roller`` (``"A"``/``"B"``) with ``injury_modifier`` (besides the flesh
    wounds, which it adds itself) is pushed, and True is returned: the caller discards what is
    still allocated to the model (6.8). Nothing happens to a model already out of action."""
    o = w.op(op_id)
    if damage <= 0 or not o.alive:
        return False
    left = max(0, o.wounds - damage)
    w.set_op(op_id, wounds=left)
    w.emit("kt18_wounds_lost", op=op_id, damage=damage, wounds=left, by=by, source=source)
    if left > 0:
        return False
    w.stack.append(
        InjuryFrame(
            op=op_id,
            by=by,
            roller=roller,
            dice=max(1, injury_die_count),
            modifier=injury_modifier,
        )
    )
    return True


@attrs.frozen(slots=True)
class InjuryFrame:
    """An Injury roll in progress (module docstring; ``rules/KT18.md`` 6.9, 6.10).

    Attributes:
        op: the model reduced to 0 wounds. by: the model (or ``""``) that caused it.
        roller: the player who rolls (6.9 reading: the attacking player for attacks, psychic
            powers and mortal wounds they caused; the model's controller otherwise).
        dice: how many dice (the attack's Damage when above 1, else 1).
        modifier: the modifiers besides the flesh wounds (-1 obscured behind cover).
    """

    op: str
    by: str
    roller: str
    dice: int = 1
    modifier: int = 0

    def run(self, w: Work) -> None:
        """Roll the Injury dice (a ``kt18_injury`` chance node); a model no longer on the
        battlefield needs none."""
        if not w.op(self.op).alive:
            w.stack.pop()
            return
        w.roll("kt18_injury", self.roller, self.dice, label=f"Injury roll ({self.op})")

    def options(self, w: Work) -> list[Action]:  # pragma: no cover - a chance node only
        """No decision here."""
        return []

    def act(self, w: Work, a: Action) -> None:  # pragma: no cover - a chance node only
        """Never called.

        Raises:
            IllegalActionError: always."""
        raise IllegalActionError("no decision at an Injury roll (rules/KT18.md 6.9)")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """Read the Injury roll ``values`` (6.9): the highest face plus one per flesh wound
        already marked plus :attr:`modifier`; 4+ out of action, else a flesh wound."""
        w.stack.pop()
        modifier = flesh_wounds(w, self.op) + self.modifier
        out = injury_is_out_of_action(values, modifier)
        w.emit(
            "kt18_injury_roll",
            op=self.op,
            dice=tuple(values),
            modifier=modifier,
            out_of_action=out,
            roller=self.roller,
            by=self.by,
        )
        if out:
            take_out_of_action(w, self.op, self.by)
        else:
            flesh_wound(w, self.op, self.by)


@attrs.frozen(slots=True)
class MortalWoundsFrame(NoChoiceFrame):
    """Mortal wounds being inflicted (:func:`push_mortal_wounds`; ``rules/KT18.md`` 6.13).

    Attributes:
        target: the model. count: mortal wounds left to inflict (``-1`` until a random count
            is rolled). random: the random count to roll first, else ``None``.
        roller: who makes the Injury roll. source: what inflicts them (narration).
        by: the model that caused them, or ``""``. injury_modifier: the Injury roll's
            modifier besides flesh wounds.
    """

    target: str
    count: int
    roller: str
    source: str
    random: RandomValue | None = None
    by: str = ""
    injury_modifier: int = 0

    def run(self, w: Work) -> None:
        """Roll a random count first, then inflict the mortal wounds one at a time."""
        if self.random is not None:
            w.roll(
                "kt18_mortal_count",
                self.roller,
                self.random.dice,
                label=f"mortal wounds {self.random.format()} ({self.source})",
            )
            return
        w.stack.pop()
        if self.count <= 0 or not w.op(self.target).alive:
            return
        w.emit(
            "kt18_mortal_wounds", op=self.target, count=self.count, source=self.source, by=self.by
        )
        for _ in range(self.count):
            if lose_wounds(
                w,
                self.target,
                1,
                by=self.by,
                source=self.source,
                roller=self.roller,
                injury_die_count=1,
                injury_modifier=self.injury_modifier,
            ):
                return  # 0 wounds: the rest are discarded (6.13)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        """The random count is ``values``' value."""
        assert self.random is not None
        w.replace_top(count=self.random.value(tuple(values)), random=None)


def push_mortal_wounds(
    w: Work,
    target: str,
    count: int | RandomValue,
    *,
    roller: str,
    source: str,
    injury_modifier: int = 0,
    by: str = "",
) -> None:
    """Push the frame that inflicts ``count`` mortal wounds on ``target`` one at a time
    (``rules/KT18.md`` 6.13): no wound roll and no save; at 0 wounds the rest are discarded and
    ``roller`` (``"A"``/``"B"``) makes an Injury roll of one die with ``injury_modifier`` and the
    flesh wounds (6.9, 6.10). ``count`` is a whole number or a
    :class:`~engine.dice.kt18_values.RandomValue` rolled first as a chance node
    (``kt18_mortal_count``); ``by`` is the model that caused them, if any.

    Raises:
        ValueError: a negative count, a count of more than 99, or ``roller`` not A or B."""
    if roller not in ("A", "B"):
        raise ValueError(f"mortal wounds: the roller must be A or B, not {roller!r:.20}")
    if isinstance(count, RandomValue):
        if count.fixed:
            count = count.bonus
        else:
            w.stack.append(
                MortalWoundsFrame(
                    target, -1, roller, source, count, by=by, injury_modifier=injury_modifier
                )
            )
            return
    if not 0 <= count <= 99:
        raise ValueError(f"mortal wounds: the count must be 0 to 99, not {count}")
    w.stack.append(
        MortalWoundsFrame(target, count, roller, source, by=by, injury_modifier=injury_modifier)
    )
