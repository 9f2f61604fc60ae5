"""The heuristic agent's sense of the mission and of the clock (``rules/KT24.md`` 1.2, 1.3,
4.8, 8): what the Approved Ops 2025 ops are worth to its player, valued without naming any op.

**Fair play.** Every valuation starts from :func:`fair_state`: the state as the player may
see it (:func:`engine.game.observation.observe`), with the opponent's unrevealed tac op and
secret primary op unset and its secret op facts dropped. The agent's choices therefore never
depend on the opponent's secrets: the ops the copy runs are the crit op, the player's own tac
op and the opponent's tac op once revealed.

**VP, generically.** The working copies below run the engine's own rules
(:class:`engine.game.work.Work`, :func:`engine.game.universal.perform`); the real state is
never changed.

- :meth:`MissionSense.end_score`: the VP the player would score if the turning point ended
  now: the end-of-turning-point scoring (event ``turning_point_ending``; in turning point 4
  also ``battle_ending``, the kill op's comparison and the ops' end-of-battle scoring) run
  on a copy. Only the player's own VP by op (kill, crit, tac) count, each weighted by
  :data:`PRIMARY_WEIGHT` when it is the player's own primary op (8.1: half that op's VP
  again); the primary op's bonus itself is not counted twice.
- :meth:`MissionSense.action_gain`: a mission action (a rule action of an op module) done
  on a copy: the VP it scores at once, plus the change it makes to the end-of-turning-point
  score times the clock's :meth:`MissionSense.persistence`.
- :meth:`MissionSense.move_gain`: an operative standing at a destination: the change to the
  end-of-turning-point score (holding or contesting objective markers) times the
  persistence, and the best mission action it could then perform with the AP it has left.
- :meth:`MissionSense.kill_gain`: an enemy operative incapacitated: the VP that scores at
  once (the kill op's grades, ops that score on kills) plus the change to
  :meth:`MissionSense.end_score` (a contested marker freed...).
- :meth:`MissionSense.marker_prospects` and :meth:`MissionSense.approach`: what standing on
  each objective marker would be worth to the operative in the *next* turning point (the
  clock advanced on the copy: its mission actions and scoring), and a pull towards the
  best of them that fades with distance (:data:`APPROACH`, :data:`APPROACH_RANGE`), for a
  marker no other friendly operative is nearer to. None in the last turning point.

Gains are in VP and become the agent's unit (operatives) through
:data:`engine.advice.values.VP_VALUE`.

**The clock.** A change to the end-of-turning-point score counts fully for the current
turning point and :data:`PERSIST` for each later one (it may last, as a secured marker does,
or be undone): :meth:`MissionSense.persistence`. In the last turning point an expended enemy
can no longer shoot next turning point, only counteract (1.6):
:func:`enemy_threat_weight` weighs the threats the agent fears accordingly, so its last
activations go to what still scores instead of hiding.

**Picks** (:func:`pick_tac_op`, :func:`pick_primary_op`), from the matchup: the *firepower
ratio* (:func:`firepower_ratio`) compares the share of the enemy kill team one activation of
each side is expected to incapacitate. When the player's team outguns the enemy (ratio at
least :data:`OUTGUN`) its primary op is the kill op and its tac op one of the Seek & Destroy
archetype; otherwise the primary op is the crit op (the kill op when the battle's crit op is
not one the engine plays) and the tac op one of the archetypes that reward positions
(Security, then Recon, then Infiltration) when outgunned, Recon first when even. Within an
archetype the first listed op is taken; an archetype the team does not have is skipped.
"""

from __future__ import annotations

import math

import attrs

from engine.advice.values import fight_value, shot_value
from engine.dice.profile import Target
from engine.game import attacks, universal
from engine.game.actions import Action, IllegalActionError
from engine.game.rule_actions import actions_of
from engine.game.state import GameState, OperativeState, PlayerState, other
from engine.game.work import Work
from engine.missions.pack import find_op
from engine.missions.scoring import CRIT, TAC
from engine.missions.tac_ops.removal import TokenRemovalFrame, removal_of

__all__ = [
    "APPROACH",
    "APPROACH_RANGE",
    "OUTGUN",
    "PERSIST",
    "PRIMARY_WEIGHT",
    "MissionSense",
    "enemy_threat_weight",
    "fair_state",
    "firepower_ratio",
    "is_mission_action",
    "mission_gambit",
    "pick_primary_op",
    "pick_tac_op",
    "remove_tokens",
]

PERSIST = 0.5
"""The weight of a change to the end-of-turning-point score for each turning point after the
current one."""

PRIMARY_WEIGHT = 1.5
"""The weight of a VP from the player's own primary op (8.1: it scores half again)."""

APPROACH = 0.5
"""The share of a marker's prospect (:meth:`MissionSense.approach`) an operative standing
on it is worth before it gets there."""

APPROACH_RANGE = 18.0
"""The distance (inches) from an objective marker at which its pull vanishes."""

OUTGUN = 1.2
"""The firepower ratio from which the player's team is taken to outgun the enemy."""

LAST_TP = 4
"""The battle's last turning point (1.3)."""

_OPS = ("kill", "crit", "tac")


def fair_state(state: GameState, player: str) -> GameState:
    """``state`` with what ``player`` may not see removed (module docstring): the players'
    fields and mission of :func:`engine.game.observation.observe`, the opponent's hidden
    tac op and primary op unset (``""``). The procedures in progress are kept: a working
    copy needs them, and in the Firefight phase they hold no secret.

    Raises:
        ValueError: a player other than A and B.
    """
    # What observe() hides, without its listing of the legal actions (a fair state needs
    # the players and the mission only).
    if player not in ("A", "B"):
        raise ValueError(f"fair_state: player must be 'A' or 'B', not {player!r}")
    k = 1 if player == "A" else 0  # the opponent's index
    players = list(state.players)
    defaults = PlayerState()
    for frame in state.stack:
        for name in getattr(type(frame), "HIDES_OPPONENT", ()):
            if getattr(players[k], name) != getattr(defaults, name):
                players[k] = attrs.evolve(players[k], **{name: getattr(defaults, name)})
    m = state.mission
    over = state.phase == "over"
    tac = list(m.tac_ops)
    if tac[k] and not m.tac_revealed[k] and not over:
        tac[k] = ""
    primary = list(m.primary_ops)
    if primary[k] and not over:
        primary[k] = ""
    prefix = f"secret:{other(player)}:"
    facts = tuple((key, v) for key, v in m.facts if not key.startswith(prefix))
    mission = attrs.evolve(
        m, tac_ops=(tac[0], tac[1]), primary_ops=(primary[0], primary[1]), facts=facts
    )
    return attrs.evolve(state, players=(players[0], players[1]), mission=mission)


def is_mission_action(act: object) -> bool:
    """Whether the rule action ``act`` is an op's mission action (defined by a module of
    :mod:`engine.missions`)."""
    return type(act).__module__.startswith("engine.missions")


def enemy_threat_weight(w: Work, e: OperativeState) -> float:
    """How much the threat of enemy ``e`` counts in an operative's exposure (the clock,
    module docstring): 1 while ``e`` is ready; once expended 0.6 before the last turning
    point (it shoots again in the next one), and in the last turning point 0.3 while it may
    still counteract (an Engage order, not counteracted yet, 1.6), else 0."""
    if e.ready:
        return 1.0
    if w.tp < LAST_TP:
        return 0.6
    return 0.3 if e.order == "engage" and not e.counteracted else 0.0


class MissionSense:
    """Mission valuations for one decision of ``player`` (module docstring).

    Args:
        state: the state of the decision (the real one: only its fair copy is read).
        player: ``"A"`` or ``"B"``, the deciding player.
        memo: a dictionary the agent keeps across decisions, where values that depend on
            less than the whole state are kept (:meth:`marker_prospects`); ``None``: none.
        quiet: value nothing (every gain 0), for a quick look-ahead that ignores the
            mission.
    """

    __slots__ = ("_end", "_hyp", "_kills", "_markers", "_memo", "player", "quiet", "state")

    def __init__(
        self,
        state: GameState,
        player: str,
        memo: dict[object, object] | None = None,
        *,
        quiet: bool = False,
    ) -> None:
        self.quiet = quiet
        self.player = player
        self.state = fair_state(state, player)
        self._end: float | None = None
        self._kills: dict[str, float] = {}
        self._hyp: dict[tuple[object, ...], tuple[float, float]] = {}
        self._markers: dict[str, list[tuple[float, float, float]]] = {}
        self._memo = memo

    # -- the score -------------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """Whether ops can still score in this turning point (1 to 4, Strategy or Firefight
        phase)."""
        s = self.state
        return not self.quiet and 1 <= s.tp <= LAST_TP and s.phase in ("strategy", "firefight")

    def value(self, w: Work) -> float:
        """The player's VP so far on ``w``, by op, its primary op's weighted."""
        primary = w.mission.primary_ops[0 if self.player == "A" else 1]
        return sum(
            w.mission.op_vp(op, self.player) * (PRIMARY_WEIGHT if op == primary else 1.0)
            for op in _OPS
        )

    def _end_of(self, w: Work) -> float:
        """The value the end-of-turning-point scoring adds on ``w`` (which it changes)."""
        before = self.value(w)
        w.emit("turning_point_ending", tp=w.tp)
        if w.tp >= LAST_TP:
            w.emit("battle_ending")
        return self.value(w) - before

    def end_score(self) -> float:
        """The weighted VP the player would score if the turning point ended now."""
        if self._end is None:
            self._end = self._end_of(self._work()) if self.live else 0.0
        return self._end

    def end_change(self, s: GameState) -> float:
        """The change of the end-of-turning-point score from this state's to that of ``s``
        (a state reached from it, as the player sees it), times the persistence."""
        return self.persistence(s.tp) * (self._end_of(self._work(s)) - self.end_score())

    def persistence(self, tp: int | None = None) -> float:
        """How many turning points' worth a change to the end-of-turning-point score is in
        turning point ``tp`` (default: the current one): 1 for that one plus
        :data:`PERSIST` for each later one."""
        return 1.0 + PERSIST * max(0, LAST_TP - (self.state.tp if tp is None else tp))

    def _work(self, s: GameState | None = None) -> Work:
        w = Work(self.state if s is None else s)
        w.node = (self.state if s is None else s).node
        return w

    def _gain(self, w: Work, before: float, end_before: float) -> float:
        """The weighted VP scored on ``w`` since ``before``, plus the persistence times the
        change of the end-of-turning-point score from ``end_before``."""
        now = self.value(w) - before
        return now + self.persistence(w.tp) * (self._end_of(w) - end_before)

    # -- actions ---------------------------------------------------------------------------

    def action_gain(self, op_id: str, a: Action, mode: str) -> float:
        """The VP gain (module docstring) of operative ``op_id`` performing the ``Act``
        action ``a`` now in ``mode`` (``"activation"``, ``"counteract"``); 0 when the
        rules refuse it here."""
        if not self.live:
            return 0.0
        return self._gain_at(self.state, op_id, a, mode, self.end_score())

    def _gain_at(self, s: GameState, op_id: str, a: Action, mode: str, end_before: float) -> float:
        """:meth:`action_gain` on ``s``, whose end-of-turning-point score is ``end_before``."""
        w = self._work(s)
        before = self.value(w)
        try:
            universal.perform(w, w.op(op_id), a, mode)
        except IllegalActionError:
            return 0.0
        return self._gain(w, before, end_before)

    def _options(self, s: GameState, op_id: str, mode: str) -> list[Action]:
        """The mission actions operative ``op_id`` may perform on ``s`` in ``mode``."""
        w = self._work(s)
        o = w.op(op_id)
        out: list[Action] = []
        for act in actions_of(w, o):
            if is_mission_action(act) and universal.rule_precheck(w, o, act, mode) is None:
                out.extend(act.options(w, o, mode))
        return out

    def _best_at(self, s: GameState, op_id: str, mode: str, end_before: float) -> float:
        """The best VP gain among the mission actions operative ``op_id`` may perform on
        ``s`` (whose end-of-turning-point score is ``end_before``); 0 when none scores."""
        best = 0.0
        for a in self._options(s, op_id, mode):
            best = max(best, self._gain_at(s, op_id, a, mode, end_before))
        return best

    def _moved(self, op_id: str, point: tuple[float, float, float], **changes: object) -> GameState:
        """The fair state with operative ``op_id`` standing at ``point`` and ``changes``."""
        w = self._work()
        x, y, z = point
        w.set_op(op_id, x=x, y=y, elevation=z, **changes)
        return w.freeze()

    def move_gain(
        self, op_id: str, point: tuple[float, float, float], verb: str, mode: str, ap_after: int
    ) -> tuple[float, float]:
        """The VP gains (module docstring) of operative ``op_id`` ending the move ``verb`` at
        ``point`` (inches) with ``ap_after`` AP left in ``mode``: ``(hold, act)``, holding or
        contesting markers there, and the best mission action it could then perform (0
        without AP left)."""
        if not self.live:
            return 0.0, 0.0
        key = (op_id, point, verb, mode, ap_after)
        hit = self._hyp.get(key)
        if hit is not None:
            return hit
        o = self.state.operative(op_id)
        s = self._moved(
            op_id, point, ap=ap_after, moved=True, done=(*o.done, verb) if verb else o.done
        )
        end = self._end_at(s, op_id)
        hold = self.persistence(s.tp) * (end - self.end_score())
        act = self._best_at(s, op_id, mode, end) if ap_after > 0 else 0.0
        gain = self._hyp[key] = (hold, act)
        return gain

    def _end_at(self, s: GameState, op_id: str) -> float:
        """The end-of-turning-point score of ``s``, a copy with operative ``op_id`` moved;
        kept in the agent's memo for the other decisions of the activation (the same
        operatives elsewhere and the same op facts, VP, markers and effects give the same
        score; of the moved operative its place, order, wounds and carried marker count)."""
        o = s.operative(op_id)
        others = tuple(q for q in s.operatives if q.id != op_id)
        key = (
            "end",
            self.player,
            s.tp,
            s.mission,
            s.markers,
            s.effects,
            s.tokens,
            others,
            (o.id, o.x, o.y, o.elevation, o.order, o.wounds, o.carrying),
        )
        memo = self._memo
        if memo is not None:
            kept = memo.get(key)
            if kept is not None:
                return kept  # type: ignore[return-value]
        end = self._end_of(self._work(s))
        if memo is not None:
            if len(memo) > 4096:
                memo.clear()
            memo[key] = end
        return end

    def best_action_gain(self, op_id: str, mode: str) -> float:
        """The best VP gain of a mission action operative ``op_id`` may perform now in
        ``mode`` (0 when none scores)."""
        if not self.live:
            return 0.0
        return self._best_at(self.state, op_id, mode, self.end_score())

    def activation_gain(self, op_id: str, apl: int) -> float:
        """The best VP gain of a mission action operative ``op_id`` could perform where it
        stands if activated now with ``apl`` AP (for choosing whom to activate)."""
        if not self.live:
            return 0.0
        o = self.state.operative(op_id)
        s = self._moved(op_id, (o.x, o.y, o.elevation), ap=apl, done=(), moved=False)
        return self._best_at(s, op_id, "activation", self.end_score())

    def counteract_gain(self, op_id: str) -> float:
        """The best VP gain of a mission action operative ``op_id`` could perform where it
        stands in a counteraction now (1.6: one 1AP action, for free)."""
        if not self.live:
            return 0.0
        o = self.state.operative(op_id)
        s = self._moved(op_id, (o.x, o.y, o.elevation), ap=1, done=(), moved=False)
        return self._best_at(s, op_id, "counteract", self.end_score())

    def marker_prospects(self, op_id: str, apl: int) -> list[tuple[float, float, float]]:
        """``(x, y, gain)`` for each point of interest (:meth:`_points`: the objective markers
        and points spread over the killzone) where it is positive: the VP gain (module
        docstring) of operative ``op_id`` standing there at the start of its activation in
        the *next* turning point, with ``apl`` AP (the clock advanced: that turning point's
        mission actions and scoring); empty in the last turning point, when no activation
        follows. Kept per operative for the decision, and in the agent's memo for the
        turning point while the ops' facts and VP, the markers and the operatives in play
        stay the same (the others' moves meanwhile are not followed: a rough value)."""
        hit = self._markers.get(op_id)
        if hit is not None:
            return hit
        s = self.state
        # The prospects do not depend on where the operative itself stands (it is put on
        # each point): kept for the turning point while the ops' facts, their VP and the
        # operatives still in play are the same (a rough value: the other operatives' moves
        # in the meantime are not followed).
        key = (
            "prospects",
            self.player,
            op_id,
            apl,
            s.tp,
            s.mission.facts,
            s.mission.vp,
            s.mission.tac_revealed,
            s.markers,
            tuple(o.id for o in s.operatives if o.alive),
        )
        if self._memo is not None:
            kept = self._memo.get(key)
            if kept is not None:
                self._markers[op_id] = kept  # type: ignore[assignment]
                return kept  # type: ignore[return-value]
        out = self._prospects(op_id, apl)
        self._markers[op_id] = out
        if self._memo is not None:
            if len(self._memo) > 256:
                self._memo.clear()
            self._memo[key] = out
        return out

    def _prospects(self, op_id: str, apl: int) -> list[tuple[float, float, float]]:
        """:meth:`marker_prospects` worked out."""
        out: list[tuple[float, float, float]] = []
        s = self.state
        if self.live and s.tp < LAST_TP:
            w = self._work()
            w.tp += 1
            w.mission = attrs.evolve(w.mission, tp_vp=())
            w.set_op(op_id, ap=apl, done=(), moved=False)
            nxt = w.freeze()
            end_next = self._end_of(self._work(nxt))
            for x, y in self._points():
                w = self._work(nxt)
                w.set_op(op_id, x=x, y=y, elevation=0.0)
                at = w.freeze()
                end = self._end_of(self._work(at))
                hold = self.persistence(at.tp) * (end - end_next)
                gain = hold + self._best_at(at, op_id, "activation", end)
                if gain > 0:
                    out.append((x, y, gain))
        return out

    def _points(self) -> list[tuple[float, float]]:
        """Where :meth:`marker_prospects` puts the operative: the objective markers not
        carried, then the centres of the cells of a 3 x 2 grid over the killzone that are
        nearer the opponent's drop zone than the player's (for ops that score positions in
        the opponent's territory)."""
        s = self.state
        kz = s.ctx.killzone
        points = [(m.x, m.y) for m in s.markers if not m.carrier]
        zones = [s.player(p).drop_zone for p in (self.player, other(self.player))]
        if not all(z in kz.drop_zones for z in zones):
            return points
        mine, theirs = (kz.drop_zones[z].centroid for z in zones)
        for i in range(3):
            for j in range(2):
                x, y = kz.width * (2 * i + 1) / 6, kz.depth * (2 * j + 1) / 4
                if math.hypot(x - theirs.x, y - theirs.y) < math.hypot(x - mine.x, y - mine.y):
                    points.append((round(x, 3), round(y, 3)))
        return points

    def approach(self, op_id: str, apl: int, x: float, y: float) -> float:
        """The value (VP) of operative ``op_id`` standing at ``(x, y)`` (inches) for the
        markers it may reach by the next turning point: the best of
        :meth:`marker_prospects`'s gains times :data:`APPROACH` and its closeness
        (1 on the marker, falling to 0 at :data:`APPROACH_RANGE`), counting only markers no
        other friendly operative is nearer to."""
        prospects = self.marker_prospects(op_id, apl)
        if not prospects:
            return 0.0
        friends = [(f.x, f.y) for f in self.state.alive(self.player) if f.id != op_id]
        best = 0.0
        for mx, my, gain in prospects:
            d = math.hypot(x - mx, y - my)
            if any(math.hypot(fx - mx, fy - my) < d for fx, fy in friends):
                continue
            best = max(best, gain * max(0.0, 1.0 - d / APPROACH_RANGE))
        return APPROACH * best

    def kill_gain(self, target_id: str, by: str) -> float:
        """The VP gain (module docstring) of enemy operative ``target_id`` incapacitated by
        ``by`` now (kept per target for the decision)."""
        if not self.live:
            return 0.0
        hit = self._kills.get(target_id)
        if hit is not None:
            return hit
        w = self._work()
        before = self.value(w)
        t = w.op(target_id)
        if t.player == self.player or not t.alive:
            gain = 0.0
        else:
            universal.inflict(w, target_id, max(1, t.wounds), "attack", by=by)
            universal.remove_casualties(w)
            gain = self._gain(w, before, self.end_score())
        self._kills[target_id] = gain
        return gain


def mission_gambit(state: GameState, player: str, legal: list[Action]) -> Action | None:
    """The free strategic gambit of an op (a rule option of kind ``"rule"`` of a module of
    :mod:`engine.missions` at the Gambit step, 1.4: selecting an envoy, revealing a tac op to
    score it...) ``player`` takes, or ``None``: the one of best VP gain (module docstring:
    the change of the end-of-turning-point score it makes on the player's fair copy, times
    the persistence), taken when that gain is not negative (such a gambit costs nothing and
    its op asks for it to score); ties go to the one naming the operative nearest the
    opponent's drop zone (ahead of the others, where ops that score positions want it),
    then to the first listed."""
    sense = MissionSense(state, player)
    if not sense.live:
        return None
    w = Work(state)
    enemy_zone = w.pl(other(player)).drop_zone
    zone = state.ctx.killzone.drop_zones.get(enemy_zone) if enemy_zone else None
    best: tuple[float, float, int, Action] | None = None
    for i, a in enumerate(legal):
        if not _is_mission_gambit(w, player, a):
            continue
        try:
            after, _ = sense.state.apply(a)
        except IllegalActionError:
            continue
        gain = sense.end_change(after)
        if gain < 0:
            continue
        far = 0.0
        named = a.target or a.op
        if named and zone is not None:
            o = state.operative(named)
            far = -math.hypot(o.x - zone.centroid.x, o.y - zone.centroid.y)
        key = (gain, far, -i, a)
        if best is None or key[:3] > best[:3]:
            best = key
    return best[3] if best is not None else None


def _is_mission_gambit(w: Work, player: str, a: Action) -> bool:
    """Whether ``a`` belongs to a free rule option of an op at the Gambit step."""
    for ploy, players in w.ctx.hooks.ploys.get("gambit", ()):
        if player in players and getattr(ploy, "kind", "") == "rule" and ploy.owns(a):
            return is_mission_action(ploy)
    return False


# -------------------------------------------------------------------------------------------
# Picks from the matchup
# -------------------------------------------------------------------------------------------


def _side_power(w: Work, me: str) -> float:
    """The expected number of enemy operatives one activation of an average operative of
    ``me`` incapacitates (its best ranged shot, or its best fight at 0.7, against each enemy
    in the open, averaged over the enemies), summed over ``me``'s operatives."""
    mine = [o for o in w.ops if o.player == me]
    theirs = [o for o in w.ops if o.player != me]
    if not theirs:
        return 0.0
    total = 0.0
    for o in mine:
        best = 0.0
        for kind in ("ranged", "melee"):
            for name, _, _ in universal.weapons_of(w, o.id, kind):
                prof = attacks.attack_profile(w, o, name, kind)
                v = 0.0
                for t in theirs:
                    card = w.ctx.datacards[t.id]
                    if kind == "ranged":
                        v += shot_value(prof, Target(card.save, card.wounds), card.wounds)
                    else:
                        mine_w = w.ctx.datacards[o.id].wounds
                        v += 0.7 * fight_value(prof, mine_w, mine_w, None, card.wounds, card.wounds)
                best = max(best, v / len(theirs))
        total += best
    return total


def firepower_ratio(state: GameState, player: str) -> float:
    """The firepower ratio of ``player`` (module docstring): the share of the enemy kill
    team (by starting numbers) one activation of ``player``'s average operative
    incapacitates over the share the enemy's does of ``player``'s (public facts only:
    datacards and the selected operatives, 1.2)."""
    w = Work(state)
    enemy = other(player)
    n_me = max(1, sum(1 for o in w.ops if o.player == player))
    n_them = max(1, sum(1 for o in w.ops if o.player == enemy))
    mine = _side_power(w, player) / n_me / n_them
    theirs = _side_power(w, enemy) / n_them / n_me
    if theirs <= 0:
        return float("inf") if mine > 0 else 1.0
    return mine / theirs


#: The tac op archetypes in order of preference (module docstring).
_ARCHETYPES = {
    "outgun": ("Seek & Destroy", "Recon", "Security", "Infiltration"),
    "even": ("Recon", "Security", "Seek & Destroy", "Infiltration"),
    "outgunned": ("Security", "Recon", "Infiltration", "Seek & Destroy"),
}


def _standing(ratio: float) -> str:
    if ratio >= OUTGUN:
        return "outgun"
    if ratio <= 1 / OUTGUN:
        return "outgunned"
    return "even"


def pick_tac_op(state: GameState, player: str, legal: list[Action]) -> Action:
    """The tac op ``player`` selects (``Op tac <name>`` of ``legal``; module docstring)."""
    ratio = firepower_ratio(state, player)
    choices: list[tuple[str, Action]] = []
    for a in legal:
        spec = find_op(a.text.removeprefix("tac "), TAC) if a.verb == "Op" else None
        if spec is not None:
            choices.append((spec.archetype, a))
    for archetype in _ARCHETYPES[_standing(ratio)]:
        for arch, a in choices:
            if arch == archetype:
                return a
    return legal[0]


def pick_primary_op(state: GameState, player: str, legal: list[Action]) -> Action:
    """The primary op ``player`` selects (``Op primary <op>`` of ``legal``; module
    docstring)."""
    playable = bool(state.mission.crit_op) and find_op(state.mission.crit_op, CRIT) is not None
    if firepower_ratio(state, player) >= OUTGUN or not playable:
        choice = Action("Op", text="primary kill")
    else:
        choice = Action("Op", text="primary crit")
    return choice if choice in legal else legal[0]


def remove_tokens(w: Work, player: str, legal: list[Action]) -> Action:
    """Which tac op token ``player`` removes at the end of a turning point (decision kind
    ``"op tokens"``, :mod:`engine.missions.tac_ops.removal`): always one (a VP now is
    certain; ``Decline`` only when nothing else is listed), from the place the op's own
    ``advice`` values most (ties: the first listed)."""
    frame = w.top if w.stack else None
    uses = [a for a in legal if a.verb == "Op"]
    if not isinstance(frame, TokenRemovalFrame) or not uses:
        return legal[0]
    removal = removal_of(frame.op)

    def value(a: Action) -> tuple[float, int]:
        place = frame.place(w, a)
        score = removal.advice(w, player, place) if place is not None else -math.inf
        return score, -uses.index(a)

    return max(uses, key=value)
