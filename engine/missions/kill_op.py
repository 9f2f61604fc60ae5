"""The Approved Ops 2025 kill op (``rules/KT24.md`` 8.2) as hooks.

Each player's kill grade rises (to at most 5) as enemy operatives are incapacitated, by the
grade table of the enemy's *starting* number of operatives; each new grade scores 1VP. At the
end of the battle a higher kill grade than the opponent's scores 1VP more.

Operatives that a rule says are ignored for the kill op (a ``would_count_for_kill_op`` hook,
``fn(w, True, op=) -> bool``) count neither in the starting number nor as kills. A rule
that fixes the starting number (a team whose opponent treats it as 5) passes it through the
``would_kill_op_starting`` hooks (``fn(w, n, player=) -> n``).

An operative that a rule returns to the killzone (REANIMATED) is no longer incapacitated, so
it is no longer a kill: the rule calls :func:`recount_kill_grade`, which lowers the scorer's
kill grade and takes back the kill-op VP of the grades lost (8.2, Approved Ops 2025). When
the grade rises again, it scores again.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.scoring import KILL, op_vp, remove_vp, score

__all__ = [
    "KILL_TABLE",
    "counts_for_kill_op",
    "enemy_incapacitator",
    "install",
    "kill_grade",
    "kill_op_kills",
    "kill_op_starting",
    "kills_needed",
    "recount_kill_grade",
]

KILL_TABLE: dict[int, tuple[int, int, int, int, int]] = {
    5: (1, 2, 3, 4, 5),
    6: (1, 2, 4, 5, 6),
    7: (1, 3, 4, 6, 7),
    8: (2, 3, 5, 6, 8),
    9: (2, 4, 5, 7, 9),
    10: (2, 4, 6, 8, 10),
    11: (2, 4, 7, 9, 11),
    12: (2, 5, 7, 10, 12),
    13: (3, 5, 8, 10, 13),
    14: (3, 6, 8, 11, 14),
}


def kills_needed(starting: int) -> tuple[int, ...]:
    """Kills needed for grades 1-5 against ``starting`` enemy operatives (8.2 table; outside
    5-14 the table's pattern round(start x grade / 5), at least 1)."""
    if starting in KILL_TABLE:
        return KILL_TABLE[starting]
    return tuple(max(1, round(starting * g / 5)) for g in range(1, 6))


def kill_grade(kills: int, starting: int) -> int:
    """The kill grade reached with ``kills`` against ``starting`` enemy operatives."""
    return sum(1 for need in kills_needed(starting) if kills >= need)


def enemy_incapacitator(w: Work, ev: Event) -> OperativeState | None:
    """The enemy operative that incapacitated the operative of the ``operative_incapacitated``
    event ``ev`` (its ``by``: the attacker of a Shoot or Fight, or of Devastating damage), or
    ``None`` when no enemy operative did (an operative's own Hot weapon, Mines), or when a
    rule ignores the operative for scoring that needs operatives incapacitated by enemy
    operatives (a ``would_count_as_incapacitated_by_enemy`` hook, ``fn(w, True, op=) ->
    bool``, says False: the Bomb Squig's Expendable)."""
    by = str(ev.get("by") or "")
    if by not in w.ctx.index:
        return None
    attacker = w.op(by)
    if attacker.player == w.op(ev["op"]).player:
        return None
    hook = "would_count_as_incapacitated_by_enemy"
    if hook in w.ctx.hooks.would and not w.would(hook, True, op=str(ev["op"])):
        return None
    return attacker


def counts_for_kill_op(w: Work, o: OperativeState) -> bool:
    """Whether operative ``o`` counts for the kill op (8.2: operatives a rule says are ignored
    for the kill op do not): ``True`` unless a ``would_count_for_kill_op`` hook says not."""
    if "would_count_for_kill_op" not in w.ctx.hooks.would:
        return True
    return bool(w.would("would_count_for_kill_op", True, op=o.id))


def kill_op_starting(w: Work, player: str) -> int:
    """The starting number of ``player``'s operatives for the kill op's grade table (8.2): the
    operatives the player set up with, less those ignored for the kill op."""
    ignored = sum(1 for o in w.ops if o.player == player and not counts_for_kill_op(w, o))
    starting = int(w.ctx.starting[player]) - ignored
    if "would_kill_op_starting" in w.ctx.hooks.would:
        starting = int(w.would("would_kill_op_starting", starting, player=player))
    return starting


def kill_op_kills(w: Work, player: str) -> int:
    """How many of ``player``'s operatives count as kills for the opponent's kill op (8.2):
    those incapacitated, less those ignored for the kill op."""
    return sum(
        1 for o in w.ops if o.player == player and o.incapacitated and counts_for_kill_op(w, o)
    )


def _on_incapacitated(w: Work, ev: Event) -> None:
    victim_player = ev["player"]
    scorer = other(victim_player)
    kills = kill_op_kills(w, victim_player)
    grade = kill_grade(kills, kill_op_starting(w, victim_player))
    old = w.pl(scorer).kill_grade
    if grade > old:
        w.set_pl(scorer, kill_grade=grade)
        w.emit("kill_grade", player=scorer, grade=grade)
        score(w, scorer, KILL, grade - old, f"kill op grade {grade}")


def recount_kill_grade(w: Work, player: str) -> int:
    """Lower ``player``'s kill grade to what the opponent's operatives incapacitated now give
    (after an operative of the opponent returned to the killzone), taking back the kill-op VP
    ``player`` scored for each grade lost (no more than it holds from the kill op). Emits
    ``kill_grade`` and ``vp_lost`` when the grade falls; never raises the grade (the
    ``operative_incapacitated`` hook does).

    Returns:
        The grades lost (0 when the grade did not fall).
    """
    victim = other(player)
    grade = kill_grade(kill_op_kills(w, victim), kill_op_starting(w, victim))
    old = w.pl(player).kill_grade
    if grade >= old:
        return 0
    w.set_pl(player, kill_grade=grade)
    w.emit("kill_grade", player=player, grade=grade)
    remove_vp(w, player, KILL, min(old - grade, op_vp(w, KILL, player)), f"kill op grade {grade}")
    return old - grade


def _on_battle_ending(w: Work, ev: Event) -> None:
    ga, gb = w.pl("A").kill_grade, w.pl("B").kill_grade
    if ga != gb:
        best = "A" if ga > gb else "B"
        score(w, best, KILL, 1, "higher kill grade")


def install(hooks: Hooks) -> None:
    """Subscribe the kill op to ``operative_incapacitated`` and ``battle_ending``."""
    hooks.on("operative_incapacitated", _on_incapacitated)
    hooks.on("battle_ending", _on_battle_ending)
