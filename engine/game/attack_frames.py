"""The steps the Shoot and Fight frames of every edition share (``rules/KT24.md`` 5.1, 5.2,
7.1; ``rules/KT21.md`` 10.1, 11, 4.3): one piece, parameterised by the edition's frame.

Both editions run the same bookkeeping around the dice: which player owns a side, what the
ploys of a dice window are told, the weapon re-roll windows and the ``attack_dice`` /
``defence_dice`` ploy windows (Command Re-roll), setting dice aside while others are
re-rolled and merging the new faces back (highest first, re-rolled dice flagged), the
strikes and blocks (parries) a fighter may choose and what a block discards, and how a
fight begins. What differs is left to the edition's frame, never asked by name:

- :class:`ShotSteps` (mixed into :class:`engine.game.shoot.ShootFrame` and the KT21 shooting
  frame) needs the frame's fields ``shooter``, ``weapon``, ``targets``, ``idx``, ``stage``,
  ``dice``, ``flags``, ``windows``, ``pending``, ``pending_flags``, ``rerolling``, the class
  constants :attr:`ShotSteps.REROLL_RULE` and :attr:`ShotSteps.SEQUENCE_RULE`, and the
  methods ``_check_weapon_reroll(kind, a)`` (the edition's weapon re-roll check) and
  ``_attack_rolled(w)`` (fields to set once the attack dice are rolled).
- :class:`FightSteps` (mixed into :class:`engine.game.fight.FightFrame` and the KT21 fight
  frame) needs ``attacker``, ``defender``, ``aweapon``, ``dweapon``, ``adice``/``aflags``,
  ``ddice``/``dflags``, ``a_windows``/``d_windows``, ``rturn``, ``passes``, ``an``/``ac``,
  ``dn``/``dc``, ``turn``, ``pending``, ``pending_flags``, ``rerolling`` (the side), the
  constant :attr:`FightSteps.REROLL_RULE`, and ``_weapon_reroll_options(kind, dice,
  flags)``, ``_check_weapon_reroll(w, side, a)``, ``_start_rerolls(w)``.

The mixins hold no state (``__slots__ = ()``); the frames stay distinct classes, so an
``isinstance`` test on one edition's frame never matches the other's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from engine.game import ploys
from engine.game.actions import Action, IllegalActionError
from engine.game.state import OperativeState
from engine.game.work import Work

__all__ = [
    "FightSteps",
    "ShotSteps",
    "apply_block",
    "block_options",
    "count_saves",
    "fight_helpers",
    "merge_rerolled",
    "open_fight",
    "replaced_faces",
    "strike_options",
    "take_dice",
]


def take_dice(
    values: tuple[int, ...], flags: tuple[bool, ...], chosen: tuple[int, ...], rule: str
) -> tuple[list[int], list[bool]]:
    """The dice ``values`` (with their re-roll ``flags``) left once the faces ``chosen`` are
    set aside to be re-rolled, each taken from a die not re-rolled before (a die is never
    re-rolled twice: ``rules/KT24.md`` 2.4, ``rules/KT21.md`` 4.3).

    Raises:
        IllegalActionError: a chosen face that no die not yet re-rolled shows, citing
            ``rule`` (the edition's section, e.g. ``"2.4"``).
    """
    vals, fl = list(values), list(flags)
    for v in chosen:
        for i, (x, f) in enumerate(zip(vals, fl, strict=True)):
            if x == v and not f:
                del vals[i]
                del fl[i]
                break
        else:
            raise IllegalActionError(f"no die showing {v} that has not been re-rolled ({rule})")
    return vals, fl


def merge_rerolled(
    pending: tuple[int, ...], pending_flags: tuple[bool, ...], new: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The dice after a re-roll: those kept aside (``pending``, with their flags) and the
    ``new`` faces (flagged re-rolled), highest first, a not re-rolled die before a re-rolled
    one of the same face."""
    pairs = sorted(
        [*zip(pending, pending_flags, strict=True), *((v, True) for v in new)],
        key=lambda t: (-t[0], t[1]),
    )
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def replaced_faces(dice: tuple[int, ...], pending: tuple[int, ...]) -> tuple[int, ...]:
    """The faces a re-roll replaces (the ``old`` of a ``dice_rerolled`` event): the dice
    before the re-roll less those kept aside (``pending``), highest first."""
    kept = list(pending)
    old = []
    for v in dice:
        if v in kept:
            kept.remove(v)
        else:
            old.append(v)
    return tuple(sorted(old, reverse=True))


def count_saves(dice: tuple[int, ...], save: int, crit_at: int = 6) -> tuple[int, int]:
    """The (normal, critical) saves among the defence ``dice``: a 1 always fails, a die of
    ``crit_at`` or more is a critical save, another of ``save`` (at least 2) or more a normal
    one (``rules/KT24.md`` 5.1 step 4, ``rules/KT21.md`` 10.1 step 4)."""
    sn = sc = 0
    for v in dice:
        if v != 1 and v >= crit_at:
            sc += 1
        elif v != 1 and v >= max(2, save):
            sn += 1
    return sn, sc


def _other(side: str) -> str:
    return "d" if side == "a" else "a"


# -------------------------------------------------------------------------------------------
# Shooting
# -------------------------------------------------------------------------------------------


class ShotSteps:
    """The steps a shooting frame of either edition shares (module docstring): the players
    of the sides, the dice-window ploys, weapon re-rolls and re-rolled dice."""

    __slots__ = ()

    REROLL_RULE: ClassVar[str] = "2.4"
    """The rule cited when a die chosen to be re-rolled was re-rolled before."""
    SEQUENCE_RULE: ClassVar[str] = "5.1"
    """The rule cited for an input that is not possible at the frame's stage."""

    shooter: str
    weapon: str
    targets: tuple[str, ...]
    idx: int
    stage: str
    dice: tuple[int, ...]
    flags: tuple[bool, ...]
    windows: tuple[str, ...]
    pending: tuple[int, ...]
    pending_flags: tuple[bool, ...]
    rerolling: bool

    def torrent_candidates(self, w: Work) -> list[str]:
        """The Torrent targets the shooter may still add (the edition's rule)."""
        raise NotImplementedError

    def _torrent_refusal(self, a: Action) -> str:
        """Why ``a`` is not a Torrent choice (the edition's text, naming its rule)."""
        raise NotImplementedError

    def _run_torrent(self, w: Work) -> None:
        """Stage ``torrent``: the attacker chooses Torrent targets while there are any."""
        if self.torrent_candidates(w):
            w.decide(self.attacker(w), "torrent")
        else:
            w.replace_top(stage="begin")

    def _torrent_options(self, w: Work) -> list[Action]:
        """``Done`` and ``Also <target>`` for each Torrent candidate."""
        return [Action("Done")] + [Action("Also", target=i) for i in self.torrent_candidates(w)]

    def _act_torrent(self, w: Work, a: Action) -> None:
        """``Done`` (the attack begins) or ``Also <target>`` (one more Torrent target).

        Raises:
            IllegalActionError: anything else (:meth:`_torrent_refusal`)."""
        if a.verb == "Done":
            w.replace_top(stage="begin")
            return
        if a.verb != "Also" or a.target not in self.torrent_candidates(w):
            raise IllegalActionError(self._torrent_refusal(a))
        w.replace_top(targets=(*self.targets, a.target))

    def _check_weapon_reroll(self, kind: str, a: Action) -> None:
        """Refuse ``a`` when it is not a re-roll the weapon rule ``kind`` allows now (the
        edition's frame says how).

        Raises:
            IllegalActionError: naming the rule."""
        raise NotImplementedError

    def _attack_rolled(self, w: Work) -> dict[str, Any]:
        """Fields the edition's frame sets once the attack dice are rolled (none here)."""
        del w
        return {}

    def attacker(self, w: Work) -> str:
        """The shooter's player."""
        return w.ctx.owner[self.shooter]

    def defender(self, w: Work) -> str:
        """The current target's player."""
        return w.ctx.owner[self.targets[self.idx]]

    def target(self, w: Work) -> OperativeState:
        """The target of the current sequence."""
        return w.op(self.targets[self.idx])

    def dice_info(self, w: Work) -> dict[str, Any]:
        """What the ploys of a dice window are told (:mod:`engine.game.ploys`): the shooter
        ``op``, the ``target``, the ``weapon``, ``kind`` ``"ranged"``, the ``dice`` rolled
        and their re-roll ``flags``."""
        del w
        return {
            "op": self.shooter,
            "target": self.targets[self.idx],
            "weapon": self.weapon,
            "kind": "ranged",
            "dice": self.dice,
            "flags": self.flags,
        }

    def _dice_window(self, w: Work, trigger: str, player: str) -> bool:
        """Whether ``player`` decides in the dice window ``trigger`` (a usable ploy there, or
        every window open)."""
        if w.ctx.options.open_windows:
            return True
        return bool(ploys.ploy_options(w, player, trigger, self.dice_info(w), first=True))

    def _dice_trigger(self, w: Work) -> tuple[str, str]:
        """The dice window of the stage (``attack_cr``: the attacker's ``attack_dice``, else
        the defender's ``defence_dice``) and its player."""
        if self.stage == "attack_cr":
            return "attack_dice", self.attacker(w)
        return "defence_dice", self.defender(w)

    def _run_dice_window(self, w: Work) -> None:
        """Stages ``attack_cr`` and ``defence_cr``: the player decides in its dice window, or
        the sequence goes on (to ``retain`` or ``resolve``) when it has nothing to use."""
        trigger, player = self._dice_trigger(w)
        if self._dice_window(w, trigger, player):
            w.decide(player, "dice_ploy")
        else:
            w.replace_top(stage="retain" if self.stage == "attack_cr" else "resolve")

    def _dice_window_options(self, w: Work) -> list[Action]:
        """``Decline`` and the ploys of the stage's dice window."""
        trigger, player = self._dice_trigger(w)
        return [Action("Decline"), *ploys.ploy_options(w, player, trigger, self.dice_info(w))]

    def _act_dice_steps(self, w: Work, a: Action) -> None:
        """Apply ``a`` at stage ``attack_reroll`` (``Keep`` or a weapon re-roll) or in a dice
        window (``Decline`` or a ploy; a re-roll ploy sets its dice aside and rolls them).

        Raises:
            IllegalActionError: ``a`` not possible at the stage, naming the rule.
        """
        st = self.stage
        if st == "attack_reroll":
            if a.verb == "Keep":
                w.replace_top(windows=self.windows[1:])
                return
            self._check_weapon_reroll(self.windows[0], a)
            self._start_reroll(w, a.values, self.attacker(w), windows=self.windows[1:])
            return
        if st not in ("attack_cr", "defence_cr"):
            raise IllegalActionError(f"{a} is not possible now ({self.SEQUENCE_RULE})")
        if a.verb == "Decline":
            w.replace_top(stage="retain" if st == "attack_cr" else "resolve")
            return
        trigger, player = self._dice_trigger(w)
        got = ploys.use_ploy(w, player, trigger, a, self.dice_info(w))
        if isinstance(got, ploys.Reroll):
            take_dice(self.dice, self.flags, got.faces, self.REROLL_RULE)
            w.top._start_reroll(w, got.faces, player)

    def _start_reroll(
        self, w: Work, chosen: tuple[int, ...], player: str, windows: tuple[str, ...] | None = None
    ) -> None:
        """Set the dice ``chosen`` (faces) aside and roll as many again for ``player``
        (``windows``: the weapon re-roll windows left, when one was used).

        Raises:
            IllegalActionError: a face no die not yet re-rolled shows (:func:`take_dice`).
        """
        vals, fl = take_dice(self.dice, self.flags, chosen, self.REROLL_RULE)
        changes: dict[str, Any] = {
            "pending": tuple(vals),
            "pending_flags": tuple(fl),
            "rerolling": True,
        }
        if windows is not None:
            changes["windows"] = windows
        w.replace_top(**changes)
        w.roll("reroll", player, len(chosen), label="re-roll")

    def _rolled_dice(self, w: Work, values: tuple[int, ...]) -> None:
        """The attack, defence or re-rolled dice ``values`` came in: re-rolled ones merged
        with those kept aside (``dice_rerolled``), else the roll retained highest first
        (``dice_rolled``) and the sequence goes on to the weapon re-rolls or the defender's
        dice window."""
        st = self.stage
        who = self.attacker(w) if st.startswith("attack") else self.defender(w)
        if self.rerolling:
            dice, flags = merge_rerolled(self.pending, self.pending_flags, values)
            old = replaced_faces(self.dice, self.pending)
            w.emit("dice_rerolled", player=who, old=old, new=values)
            w.replace_top(dice=dice, flags=flags, rerolling=False, pending=(), pending_flags=())
            return
        dice = tuple(sorted(values, reverse=True))
        label = "attack" if st == "attack_roll" else "defence"
        w.emit("dice_rolled", player=who, label=label, values=dice)
        if st == "attack_roll":
            w.replace_top(
                dice=dice,
                flags=(False,) * len(dice),
                stage="attack_reroll",
                **self._attack_rolled(w),
            )
        else:
            w.replace_top(dice=dice, flags=(False,) * len(dice), stage="defence_cr")


# -------------------------------------------------------------------------------------------
# Fighting
# -------------------------------------------------------------------------------------------


def fight_helpers(
    w: Work,
    helped: OperativeState,
    enemy: OperativeState,
    near: Callable[[Work, OperativeState, OperativeState], bool],
    may_help: Callable[[OperativeState], bool] | None = None,
) -> list[str]:
    """The ids of the other friendlies of ``helped`` that help it fight ``enemy``, in the
    state's operative order: each ``near`` ``enemy`` and near no other enemy, where
    ``near(w, a, b)`` is the edition's reach (KT24 control range, 5.2 step 2; KT21
    Engagement Range, 11 step 3), and allowed by ``may_help`` when given (KT21: it has a
    melee weapon, DC 16.17)."""
    out = []
    for f in w.friends_of(helped.id):
        if not near(w, f, enemy) or (may_help is not None and not may_help(f)):
            continue
        if any(near(w, f, e) for e in w.enemies_of(f.id) if e.id != enemy.id):
            continue
        out.append(f.id)
    return out


def open_fight(
    w: Work,
    frame: Any,
    o: OperativeState,
    t: OperativeState,
    a_by: tuple[str, ...],
    d_by: tuple[str, ...],
    *,
    retaliates: bool,
) -> None:
    """Begin the fight ``frame`` of ``o`` against ``t`` (``rules/KT24.md`` 5.2 steps 1-2,
    ``rules/KT21.md`` 11 steps 2-3): push it, name the defender's weapon when it is already
    known (``retaliation_weapon``), the helpers of each side (``assisted``: ``a_by`` of the
    attacker, ``d_by`` of the defender when it ``retaliates``), then ``fight_started`` and
    the ``target_selected`` ploy window. ``frame``: the edition's fight frame, with fields
    ``aweapon`` and ``dweapon``."""
    w.stack.append(frame)
    name = frame.aweapon
    if frame.dweapon:
        w.emit("retaliation_weapon", op=t.id, weapon=frame.dweapon)
    for helped, enemy, by in ((o, t, a_by), (t, o, d_by)) if retaliates else ((o, t, a_by),):
        if by:  # each helper improves the helped operative's Hit (WS) by 1
            w.emit("assisted", op=helped.id, target=enemy.id, by=by, improvement=len(by))
    # Last, so a team rule may push a frame here when the weapon is selected (e.g. Siphon
    # Life*, engine.rules); the frame is decided before the sequence goes on.
    w.emit("fight_started", op=o.id, weapon=name, target=t.id)
    ploys.open_window(w, "target_selected", op=o.id, target=t.id, weapon=name, kind="melee")


def strike_options(mine: tuple[int, int]) -> list[Action]:
    """The strikes of a fighter with ``mine`` = (normal, critical) successes left: with a
    crit, then with a normal (``rules/KT24.md`` 5.2 step 4, ``rules/KT21.md`` 11 step 4)."""
    out = []
    if mine[1]:
        out.append(Action("Strike", text="crit"))
    if mine[0]:
        out.append(Action("Strike", text="normal"))
    return out


def block_options(
    mine: tuple[int, int],
    theirs: tuple[int, int],
    brutal: bool,
    crit_with_normal: Callable[[], bool],
    *,
    brutal_bars_normal_on_nothing: bool,
) -> list[Action]:
    """The blocks (KT21: parries) of a fighter with ``mine`` successes against the
    opponent's ``theirs`` (each (normal, critical)) that discard one success: a crit blocks
    either, a normal blocks a normal unless the opponent's weapon is ``brutal``, a normal
    blocks a crit when ``crit_with_normal()`` says so (a rule, asked only when it could
    matter), and a block with nothing left to block is allowed (``rules/KT24.md`` 5.2 step 4,
    EDGE_CASES 8; ``rules/KT21.md`` 11 step 4, DC 16.21) with a crit, or with a normal unless
    ``brutal`` and the edition's ``brutal_bars_normal_on_nothing``."""
    out = []
    if mine[1] and theirs[1]:
        out.append(Action("Block", text="crit with crit"))
    if mine[1] and theirs[0]:
        out.append(Action("Block", text="normal with crit"))
    if mine[0] and theirs[0] and not brutal:
        out.append(Action("Block", text="normal with normal"))
    if mine[0] and theirs[1] and not brutal and crit_with_normal():
        out.append(Action("Block", text="crit with normal"))
    if not theirs[0] and not theirs[1]:
        if mine[1]:
            out.append(Action("Block", text="nothing with crit"))
        if mine[0] and not (brutal and brutal_bars_normal_on_nothing):
            out.append(Action("Block", text="nothing with normal"))
    return out


def apply_block(
    w: Work, me: str, text: str, mine: tuple[int, int], theirs: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (normal, critical) successes of the blocker ``me`` and of its opponent after the
    block ``text`` (``"<blocked> with <die>"``, ``<blocked>`` one of ``crit``, ``normal``,
    ``nothing`` or several joined by ``" and "``): the die used is spent and each blocked
    success discarded, one ``block`` event each."""
    n, c = mine
    on, oc = theirs
    parried, _, die = text.rpartition(" with ")
    if die == "crit":
        c -= 1
    else:
        n -= 1
    for blocked in parried.split(" and "):
        if blocked == "crit":
            oc -= 1
        elif blocked == "normal":
            on -= 1
        w.emit("block", op=me, die=die, blocked=blocked)
    return (n, c), (on, oc)


class FightSteps:
    """The steps a fight frame of either edition shares (module docstring): the sides,
    the dice-window ploys, the alternating re-rolls and re-rolled dice, the turn passing
    after a strike or block."""

    __slots__ = ()

    REROLL_RULE: ClassVar[str] = "2.4"
    """The rule cited when a die chosen to be re-rolled was re-rolled before."""

    attacker: str
    defender: str
    aweapon: str
    dweapon: str
    stage: str
    adice: tuple[int, ...]
    aflags: tuple[bool, ...]
    ddice: tuple[int, ...]
    dflags: tuple[bool, ...]
    a_windows: tuple[str, ...]
    d_windows: tuple[str, ...]
    rturn: str
    passes: int
    an: int
    ac: int
    dn: int
    dc: int
    turn: str
    pending: tuple[int, ...]
    pending_flags: tuple[bool, ...]
    rerolling: str

    def _weapon_reroll_options(
        self, kind: str, dice: tuple[int, ...], flags: tuple[bool, ...]
    ) -> list[Action]:
        """The edition's choices of the weapon re-roll window ``kind``."""
        raise NotImplementedError

    def _check_weapon_reroll(self, w: Work, side: str, a: Action) -> None:
        """Refuse the weapon re-roll ``a`` of ``side`` when the edition does not allow it.

        Raises:
            IllegalActionError: naming the rule."""
        raise NotImplementedError

    def _start_rerolls(self, w: Work) -> None:
        """Both rolls are in: the edition's frame opens the re-rolls."""
        raise NotImplementedError

    def op_of(self, side: str) -> str:
        """The operative of side ``"a"`` (the attacker) or ``"d"`` (the defender)."""
        return self.attacker if side == "a" else self.defender

    def weapon_of(self, side: str) -> str:
        """The melee weapon of ``side`` (``""``: none)."""
        return self.aweapon if side == "a" else self.dweapon

    def owner(self, w: Work, side: str) -> str:
        """The player of side ``"a"`` or ``"d"``."""
        return w.ctx.owner[self.attacker if side == "a" else self.defender]

    def _successes(self, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
        """``side``'s retained (normal, critical) successes left, and its opponent's."""
        if side == "a":
            return (self.an, self.ac), (self.dn, self.dc)
        return (self.dn, self.dc), (self.an, self.ac)

    def _dice(self, side: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        return (self.adice, self.aflags) if side == "a" else (self.ddice, self.dflags)

    def _left(self, side: str) -> int:
        return self.an + self.ac if side == "a" else self.dn + self.dc

    def dice_info(self, side: str) -> dict[str, Any]:
        """What the ploys of side ``side``'s dice window are told (:mod:`engine.game.ploys`):
        its operative ``op``, the opponent ``target``, its ``weapon``, ``kind`` ``"melee"``,
        its ``dice`` and their re-roll ``flags``."""
        dice, flags = self._dice(side)
        return {
            "op": self.op_of(side),
            "target": self.op_of(_other(side)),
            "weapon": self.weapon_of(side),
            "kind": "melee",
            "dice": dice,
            "flags": flags,
        }

    def _reroll_choices(self, w: Work, side: str) -> list[Action]:
        """Re-rolls ``side`` may make now: its next weapon re-roll window (one window at a
        time, in the edition's rule order) and the ploys of the ``attack_dice`` window
        (Command Re-roll among them, :mod:`engine.game.ploys`); none without a weapon."""
        if not self.weapon_of(side):
            return []
        dice, flags = self._dice(side)
        wins = self.a_windows if side == "a" else self.d_windows
        out: list[Action] = []
        if wins:
            out += [
                a for a in self._weapon_reroll_options(wins[0], dice, flags) if a.verb == "Re-roll"
            ]
        out += ploys.ploy_options(w, self.owner(w, side), "attack_dice", self.dice_info(side))
        return out

    def _run_rerolls(self, w: Work) -> None:
        """Stage ``rerolls``: the sides alternate re-rolling or passing until both pass in
        succession; a side with nothing to re-roll or use passes unasked."""
        if self.passes >= 2:
            w.replace_top(stage="retain")
            return
        side = self.rturn
        choices = self._reroll_choices(w, side)
        if not choices and not w.ctx.options.open_windows:
            w.replace_top(passes=self.passes + 1, rturn=_other(side))
            return
        kind = "reroll" if any(c.verb == "Re-roll" for c in choices) else "dice_ploy"
        w.decide(self.owner(w, side), kind)

    def _act_reroll(self, w: Work, a: Action) -> None:
        """Apply ``a`` at stage ``rerolls``: ``Decline`` (a pass), a weapon re-roll or a ploy
        of the ``attack_dice`` window; the dice re-rolled are set aside and rolled again.

        Raises:
            IllegalActionError: a re-roll the weapon does not allow, or a face no die not yet
                re-rolled shows (:func:`take_dice`).
        """
        side = self.rturn
        player = self.owner(w, side)
        if a.verb == "Decline":
            w.replace_top(passes=self.passes + 1, rturn=_other(side))
            return
        dice, flags = self._dice(side)
        if a.verb == "Re-roll":
            self._check_weapon_reroll(w, side, a)
            wins = self.a_windows if side == "a" else self.d_windows
            w.replace_top(**{f"{side}_windows": wins[1:]})
            faces = a.values
        else:
            got = ploys.use_ploy(w, player, "attack_dice", a, self.dice_info(side))
            if not isinstance(got, ploys.Reroll):
                w.replace_top(passes=0, rturn=_other(side))
                return
            faces = got.faces
        vals, fl = take_dice(dice, flags, faces, self.REROLL_RULE)
        w.replace_top(pending=tuple(vals), pending_flags=tuple(fl), rerolling=side)
        w.roll("reroll", player, len(faces), label="re-roll")

    def _after_roll(self, w: Work, side: str, dice: tuple[int, ...]) -> None:
        """``side``'s attack dice are rolled (``dice``, highest first; none when it rolls
        none): the defender rolls next, and after it the re-rolls open."""
        flags = (False,) * len(dice)
        if side == "a":
            w.replace_top(adice=dice, aflags=flags, stage="d_roll")
            return
        w.replace_top(ddice=dice, dflags=flags)
        w.top._start_rerolls(w)

    def _rolled_dice(self, w: Work, values: tuple[int, ...]) -> None:
        """Attack or re-rolled dice ``values`` came in: re-rolled ones merged with those kept
        aside (``dice_rerolled``), the other side re-rolling next; else the roll of the
        stage's side (``dice_rolled``, highest first)."""
        if self.rerolling:
            side = self.rerolling
            dice, flags = merge_rerolled(self.pending, self.pending_flags, values)
            old = replaced_faces(self._dice(side)[0], self.pending)
            w.emit("dice_rerolled", player=self.owner(w, side), old=old, new=values)
            w.replace_top(
                **(
                    {"adice": dice, "aflags": flags}
                    if side == "a"
                    else {"ddice": dice, "dflags": flags}
                ),
                rerolling="",
                pending=(),
                pending_flags=(),
                passes=0,
                rturn=_other(side),
            )
            return
        side = self.stage[0]
        dice = tuple(sorted(values, reverse=True))
        w.emit("dice_rolled", player=self.owner(w, side), label="attack", values=dice)
        self._after_roll(w, side, dice)

    def _over(self, w: Work) -> bool:
        """Whether a fighter is out of the fight (the edition's frame says when)."""
        raise NotImplementedError

    def _first_to_resolve(self, w: Work) -> str:
        """The side that resolves the first success: the attacker (``rules/KT24.md`` 5.2
        step 4, ``rules/KT21.md`` 11 step 4), unless a rule says the retaliating defender
        does (the ``would_resolve_first`` hooks, ``fn(w, side, op=attacker,
        target=defender, weapon=defender's weapon) -> "a" | "d"``)."""
        if not self.dweapon or not w.ctx.hooks.would.get("would_resolve_first"):
            return "a"
        side = w.would(
            "would_resolve_first", "a", op=self.attacker, target=self.defender, weapon=self.dweapon
        )
        return "d" if side == "d" else "a"

    def _next_to_resolve(self, w: Work, *, done: str) -> str | None:
        """Stage ``resolve``: the player of the side whose turn it is (or of the other, when
        it has nothing left), who decides its next strike or block (the caller asks the
        edition's decision); ``None`` when the frame goes on to stage ``done`` instead (a
        fighter is out, :meth:`_over`, or nothing is left)."""
        if self._over(w) or (self._left("a") == 0 and self._left("d") == 0):
            w.replace_top(stage=done)
            return None
        side = self.turn
        if self._left(side) == 0:
            side = _other(side)
            w.replace_top(turn=side)
        return self.owner(w, side)

    @staticmethod
    def _pass_turn(w: Work, opp: str) -> None:
        """After a strike or block the turn passes to ``opp`` while it has successes left."""
        if w.top._left(opp) > 0:
            w.replace_top(turn=opp)
