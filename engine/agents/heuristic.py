# Over 800 lines: one agent, its decision handlers and its action scoring (public as
# rank() for search); the values it uses live in engine.advice and engine.agents.position.
"""The heuristic agent: a rules-aware player that needs no search.

:class:`HeuristicAgent` picks every decision with a documented rule of thumb, valuing
outcomes in *operatives*: an enemy operative incapacitated is worth 1, and each wound dealt
half of one wound's share of its starting wounds (``0.5 * damage / wounds``), which breaks
ties between shots that kill nobody. Losses count the same way against it. The exact dice
core (:mod:`engine.dice`) gives every probability; nothing is sampled. Victory points from
the mission's ops count too, at :data:`~engine.advice.values.VP_VALUE` operatives
each, valued by :mod:`engine.agents.mission_choices` from what the player may see only
(never the opponent's secret tac op or primary op) and weighed by the clock.

Decisions (``rules/KT24.md`` section in brackets):

- **Initiative** (1.4): it always takes initiative. With Approved Ops 2025 initiative cards it
  plays the weakest card that turns a lost roll-off into a win (a card modifies the player's
  own result, so only a "+" card can; the re-roll card on a roll of 3 or less), and passes
  when it is winning.
- **Equipment** (1.2, 7.2): :mod:`engine.agents.equipment_choices`.
- **Tac op and primary op** (1.2, 8.1, 8.4): from the matchup's firepower ratio
  (:func:`~engine.agents.mission_choices.pick_tac_op`,
  :func:`~engine.agents.mission_choices.pick_primary_op`).
- **Drop zone** (1.2): the first listed. **Deployment** (1.2): the spot seen from the fewest
  of five points of the enemy drop zone, then further forward (more so for melee
  operatives), and not within 2" of a friendly operative (Blast).
- **Activation** (1.5): the ready operative with the best opportunity now (the best shot's
  or fight's value, or for a melee operative the best fight it can charge into, or the VP
  of the best mission action it can perform where it stands), plus a bonus for one under
  fire that should move; ties go to the first listed. Engage when it has a shot, a fight
  or a charge in sight. Otherwise Conceal, unless it might shoot after a move (an enemy
  within its weapons' reach plus its Move, and a valid target from where it stands or from
  one of eight points a Move away): then the first action it would take with an Engage
  order is worked out (shots and moves only, the mission left out to save time), and it
  engages when that action is a Shoot or Fight, or a move after which it has a shot worth
  :data:`OPPORTUNITY`.
- **Actions** (3.2, 5.1, 5.2): each legal action is scored and the best taken:

  - Shoot: kill probability plus damage value from the exact shooting distribution, with
    cover, obscured and improved cover from the killzone's targeting lines; Blast adds the
    secondaries (friendly ones subtract), Torrent the other enemies within its distance of
    the primary that are valid targets (each weapon profile scored with its rules); Hot
    subtracts its expected self-damage. Plus the
    VP the kill would score (the kill op's grades...) times its exact kill probability,
    and, with AP left, the best mission action it could still perform there.
  - Fight: the exact fight with both sides resolving optimally (the dice core's minimax):
    enemy incapacitated minus own incapacitated plus the damage balance. Assists count.
    Plus the VP the kill would score times its exact probability.
  - Mission actions (8.3, 8.4), and Pick Up Marker and Place Marker (3.2): the VP they
    score at once and the change they make to the
    VP scored at the end of the turning point, weighed by the clock
    (:meth:`~engine.agents.mission_choices.MissionSense.action_gain`); with AP left, the
    shot it could still take. One that scores nothing is not performed.
  - Moves (Reposition, Dash, Fall Back, Charge; KT21's Normal Move): the destination's
    position value: minus
    the exposure to enemy shooting (each enemy's best ranged weapon against it there, with
    cover and obscured; none while it is within an enemy's control range, where enemies
    cannot shoot it; an expended enemy counts less, and in the last turning point only
    while it may still counteract), plus the best shot it can still take from there this
    activation (not with a Heavy weapon the move forbids), plus a pull towards objective
    markers, and for melee operatives towards the nearest enemy; a Charge destination adds
    the fight it would start. The mission adds the VP of holding or contesting markers
    there, of the best mission action it could then perform (with one AP left: the shot or
    that action, whichever is worth more) and of nearing a marker where it would score next
    turning point (:meth:`~engine.agents.mission_choices.MissionSense.approach`); the best
    spots contesting each marker are valued in full. The candidates are the engine's
    listed destinations of every move action at once
    (:func:`engine.game.flow.list_complete_actions`: the agent expands the move headers
    itself and answers with the complete action, ``Reposition KAS-1 to 8,4``, in one step;
    at a ``destination`` decision another player opened, the destinations listed there)
    plus spots just outside Light and Heavy terrain in reach (cover),
    pruned by a cheap score before the full one; an unlisted spot is used only when the
    engine accepts it as legal. (Destinations whose upper bound cannot beat a listed action
    are not valued in full: this saves sight queries and never changes the choice.)
  - End activation: the position value where it stands (with the pull of markers). Guard
    (9.3): worth a little for an operative with a ranged weapon and no shot now. Ammo
    Resupply (7.2, 0AP): when the operative has AP left for a Shoot after it, has not shot
    this activation and
    has a shot now worth at least :data:`RESUPPLY_SHOT` of an operative, a little more than
    its best Shoot action's score (so it resupplies, then takes the shot with the re-roll);
    otherwise nothing.
    A rule action with an advice (a team's unique action, :mod:`engine.agents.advice`):
    the position value where it stands plus the advice. Other marker, hatch and rule
    actions: nothing.
  - Stun Grenade (7.2): the chance of a stun test (4 in 6) times
    :data:`~engine.advice.values.STUN_GAIN` for each enemy that takes one (half for an enemy
    already activated this turning point, whose next activation is further off), minus the
    same for each friendly operative; so it stuns the group with the most ready enemies.
    Smoke Grenade: nothing (not used).
- **Counteract** (1.6) and **On Guard interrupts** (9.3): taken by the operative with the
  best shot (or fight, or for a counteraction the VP of a mission action) now when it is
  worth at least a fifth of an operative.
- **Re-rolls** (2.4, 6, 7.1): weapon re-rolls always re-roll failed dice only (Relentless
  all of them; Ceaseless the value with most failures; Balanced the lowest failure).
  The free Ammo Resupply re-roll (7.2) re-rolls the lowest failed attack die. Command
  Re-roll (1CP) re-rolls the lowest failed die when the exact expected gain of doing
  so (over the six faces, through saves or the fight's resolution) is at least
  :data:`CP_GAIN` of an operative.
- **Strategic gambits of ops** (1.4, 8.4): a free one of an op (selecting an envoy,
  revealing a tac op...) by :func:`~engine.agents.mission_choices.mission_gambit`, before
  any ploy.
- **Ploys** (1.4, 7.1; :mod:`engine.agents.ploy_choices`): in the Gambit step and in ploy
  windows it uses a ploy when it can pay for it and keep 1CP for Command Re-roll,
  preferring one used on the operative the trigger names; otherwise it passes. In a dice
  window the re-roll rule above comes first.
- **Retaliation weapon** (5.2): the one with the best exact fight value. **Strike and block**
  (5.2 step 4): the dice core's optimal resolution
  (:class:`engine.dice.fight.Resolver`) from the exact position.
- **Choices in an attack** (4.5, 4.7, 6; :mod:`engine.game.attacks`), each by exact values:
  cover or obscured from one feature: the option of lowest shot value for the shooter;
  Accurate: the number of dice of best shot value (lowest against its own operative under
  a Blast; ties: more dice), in a fight of best exact fight value for the chooser (the
  attacker against the defender's best reply); Punishing, Rending, Severe: apply or
  decline by the best outcome each can still reach, through the defender's best cover save
  and the defence roll (Devastating included) or, in a fight, the other side's best reply
  and the optimal resolution; the cover save: the option of least value to the shooter
  through the defence roll.
- **Team rule choices** (``team_rule``, e.g. Siphon Life*): used (``Use siphon life``), on
  the offered operative that has lost the most wounds (ties: the first listed), or the use
  the choice frame's ``advice(w, action)`` values most; the engine offers them only when
  they can make a difference.
- **Tac op tokens** (``op tokens``: Martyrs, Dominate): removed, one from the place the
  op's own advice names (:func:`~engine.agents.mission_choices.remove_tokens`).
- **No idling**: when nothing scores above ending the activation before any action (the
  operative has nothing to shoot, fight or score), it makes the Reposition or Dash (listed,
  or to a cover spot the engine accepts) that brings it at least 1" closer to its nearest
  enemy or objective marker, near cover first, without adding more than
  :data:`~engine.agents.position.ADVANCE_RISK` to its exposure
  (:func:`~engine.agents.position.safe_advance`): it closes in instead of throwing its AP
  away.
- Anything else (Torrent: every offered secondary target is taken; other decisions): the
  first listed action.

**KT21** (``rules/KT21.md``): the same rules of thumb read what the state offers, never
which ruleset is in play. The move actions are the verbs whose movement the core knows
(:data:`engine.game.universal.movement.MOVE_ACTION`: KT21's Normal Move is the plain move,
as Reposition is KT24's); KT21's Overwatch action is scored as a shot (BS 1 worse). A weapon
profile carrying KT21 rules, or a KT21 team file's profile, is valued by the KT21 dice core
(:mod:`engine.advice.kt21_values`: DF, AP/P, invulnerable and cover saves, the optimal fight
with strike and parry), a valid target being one neither Obscured nor a Conceal target in
Cover (8.5). The KT21 decision kinds (``roles``, ``deploy_order``, ``scouting``, ``recon``,
``tac archetype``, ``overwatch``, ``invulnerable_save``, ``kt21_cover_save``, ``fusillade``,
``kt21_fight_weapon``, ``kt21_fight_resolve``, and the re-roll and dice-ploy windows of a
KT21 attack) are answered by :mod:`engine.agents.kt21_choices`, whose docstring gives each
rule of thumb.

Approximations, documented: threats are judged from enemies' current positions; Vantage
accuracy and Seek rules are ignored when scoring (the engine still applies them); a
destination's value ignores what the operative's move changes for its friends; the mission
values one action ahead (a move, then one mission action), not a whole activation.

The agent is deterministic: it breaks ties by the engine's canonical order, so a seed only
names it in records.

The values live in :mod:`engine.advice` (what outcomes are worth: exact dice values, the
best shot now, re-roll gains; shared with the advice of rule code),
:mod:`engine.agents.position` (values on the killzone: exposure, shots, fights, destinations)
and :mod:`engine.agents.attack_choices` (the choices inside an attack), the mission's VP in
:mod:`engine.agents.mission_choices`; this module holds the agent and its set-up,
activation and action decisions.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.advice import (
    VP_VALUE,
    DecisionView,
    best_shot_now,
)
from engine.agents import (
    attack_choices,
    equipment_choices,
    kt18_choices,
    kt21_choices,
    mission_choices,
    ploy_choices,
)
from engine.agents.action_choices import (
    OPPORTUNITY,
    best_opportunity,
    contests_roughly,
    during_activation_ploy,
    during_activation_rule,
    may_see,
    resupply_value,
    seen_share,
    stun_grenade_value,
)
from engine.agents.advice import action_advice
from engine.agents.attack_choices import CP_GAIN
from engine.agents.explain import Alternative, Ranked, action_note
from engine.agents.mission_choices import MissionSense, is_mission_action
from engine.agents.position import (
    EXPOSURE_WEIGHT,
    best_fight_now,
    best_shot_after,
    charge_prospect,
    cheap_value,
    cover_spots,
    enemies_in_reach,
    exposure,
    fight_action_value,
    fight_from,
    fight_kill_chance,
    melee_minded,
    position_bound,
    position_value,
    reachable_shot_bound,
    safe_advance,
    shoot_action_value,
    shot_bounds,
    shot_kill_chance,
)
from engine.game.actions import Action
from engine.game.flow import list_complete_actions
from engine.game.observation import Observation
from engine.game.rule_actions import find_rule_action
from engine.game.state import Decision, GameState, OperativeState, other
from engine.game.universal.movement import MOVE_ACTION
from engine.game.work import Work
from engine.geometry import Placement
from engine.rules.equipment.grenades import STUN_GRENADE
from engine.rules.equipment.markers import AMMO_RESUPPLY

__all__ = ["CP_GAIN", "HeuristicAgent"]

#: How many move destinations get the full (geometry-heavy) evaluation.
TOP_DESTINATIONS = 6
#: Universal actions on objective markers, valued by the VP they bring (3.2, 8).
MARKER_VERBS = ("Pick up", "Place marker")
#: The attack actions valued as a shot: Shoot, and KT21's Overwatch (``rules/KT21.md`` 3.5).
SHOOT_VERBS = ("Shoot", "Overwatch")


def is_move(verb: str) -> bool:
    """Whether ``verb`` is a move action (its movement query is known to the core,
    :data:`engine.game.universal.movement.MOVE_ACTION`: Reposition, Dash, Fall Back, Charge,
    KT21's Normal Move)."""
    return verb in MOVE_ACTION


def plain_move(legal: list[Action]) -> str:
    """The verb of the plain move action among ``legal`` (the one that moves up to the
    operative's Move: KT24's Reposition, KT21's Normal Move), Reposition when none is
    listed."""
    for a in legal:
        if MOVE_ACTION.get(a.verb) == "reposition" and a.point is not None:
            return a.verb
    return "Reposition"


#: How many move destinations contesting each objective marker get the full evaluation.
MARKER_DESTINATIONS = 1


class HeuristicAgent:
    """A sensible rules-aware player (module docstring for every decision rule).

    Args:
        seed: recorded only: the agent is deterministic.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._checked: Action | None = None  # an unlisted action the engine accepted
        self._sense: MissionSense | None = None  # the mission's values for this decision
        self._memo: dict[object, object] = {}  # mission values kept across decisions
        # The state _order looked ahead to, its view and listing: the next decision is
        # usually taken in an equal state, which answers every query the same.
        self._ahead: tuple[GameState, DecisionView, list[Action]] | None = None
        # What explain() tells of the last decision: the action played, why (a note when
        # the decision kind has no scores) and the scored alternatives the handler kept.
        self._why: tuple[Action, str] | None = None
        self._ranked: Ranked | None = None
        self._handlers: dict[str, Callable[[Work, str, list[Action]], Action]] = {
            "initiative": self._initiative,
            "initiative_card": self._initiative_card,
            "deploy": self._deploy,
            "equipment": equipment_choices.select_equipment,
            "kt21_equipment": equipment_choices.select_equipment,
            "equipment_setup": equipment_choices.set_up_equipment,
            "activate": self._activate,
            "action": self._action,
            "counteract": self._counteract,
            "interrupt": self._action,
            "guard": self._guard,
            "reroll": attack_choices.reroll,
            "dice_ploy": ploy_choices.dice_ploy,
            "gambit": self._gambit,
            "ploy": ploy_choices.ploy_window,
            "free_action": self._action,
            "destination": self._action,
            "attack_target": self._action,
            "retaliate": attack_choices.retaliate,
            "resolve": self._resolve,
            "same_feature": attack_choices.same_feature,
            "accurate": attack_choices.accurate,
            "retention_rule": attack_choices.retention_rule,
            "cover_save": attack_choices.cover_save,
            "allocate_saves": attack_choices.allocate_saves,
            "team_rule": attack_choices.team_rule,
            "tac op": self._tac_op,
            "op tokens": mission_choices.remove_tokens,
            "primary op": self._primary_op,
            # The KT21 rules' decisions (engine.agents.kt21_choices).
            "roles": kt21_choices.roles,
            "deploy_order": kt21_choices.deploy_order,
            "scouting": kt21_choices.scouting,
            "recon": kt21_choices.recon,
            "tac archetype": kt21_choices.tac_archetype,
            "overwatch": kt21_choices.overwatch,
            "invulnerable_save": kt21_choices.invulnerable_save,
            "kt21_cover_save": kt21_choices.kt21_cover_save,
            "fusillade": kt21_choices.fusillade,
            "kt21_fight_weapon": kt21_choices.fight_weapon,
            "kt21_fight_resolve": self._kt21_resolve,
            # The KT18 rules' decisions (engine.agents.kt18_choices).
            **kt18_choices.handlers(),
        }
        # Decisions whose answer depends on the attack frame they are taken in: KT21's
        # shooting attack and fight have their own dice (kt21_choices.is_kt21_attack).
        self._kt21_frames: dict[str, Callable[[Work, str, list[Action]], Action]] = {
            "reroll": kt21_choices.reroll,
            "dice_ploy": kt21_choices.dice_ploy,
        }

    def act(self, state: GameState | Observation) -> Action:
        """The chosen action at a decision node: a state, or the deciding player's
        :class:`~engine.game.observation.Observation` (from :func:`~engine.game.drivers.play`),
        played on as its ``redacted()`` state (the choices never read the opponent's secrets).

        Raises:
            ValueError: when the state is not a decision node or has no legal action.
        """
        if isinstance(state, Observation):
            state = state.redacted()
        node = state.node
        if not isinstance(node, Decision):
            raise ValueError(f"not a decision node: {node!r}")
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead[0].ctx is state.ctx and ahead[0] == state:
            _, w, legal = ahead  # an equal state: the same listing and answers
        else:
            # Every move at its destinations (complete actions, each legal in one step).
            legal = list_complete_actions(state)
            w = None
        if not legal:
            raise ValueError(f"no legal action at {node!r}")
        self._ranked = None
        if len(legal) == 1:
            self._why = (legal[0], "the only legal action")
            return legal[0]
        handler = self._handlers.get(node.kind)
        if node.kind in self._kt21_frames:
            if w is None:
                w = DecisionView(state)
            if kt21_choices.is_kt21_attack(w):
                handler = self._kt21_frames[node.kind]
        if handler is None:
            self._why = (legal[0], f"no rule of thumb for {node.kind}: the first listed")
            return legal[0]
        if w is None:
            w = DecisionView(state)
        self._state = state
        self._checked = None
        self._sense = None
        choice = handler(w, node.player, legal)
        if (
            choice not in legal and choice != self._checked and not state.is_legal(choice)
        ):  # pragma: no cover - safety
            choice = legal[0]
        self._why = (choice, f"{node.kind}: its rule of thumb (not scored)")
        return choice

    def explain(self) -> list[Alternative]:
        """The alternatives of the last decision (:mod:`engine.agents.explain`): the action
        played first, then the others the agent scored, best first, with their scores in
        operatives (module docstring) and a note each. A decision kind without scores
        (set-up, re-rolls, choices in an attack...) gives the action played alone, its note
        saying why. Empty before the first decision."""
        if self._why is None:
            return []
        chosen, why = self._why
        ranked = self._ranked
        if ranked is None or not any(a == chosen for _, a, _ in ranked.items):
            return [Alternative(chosen, 0.0, why)]
        items = sorted(ranked.items, key=lambda t: (t[1] != chosen, -t[0]))
        out = []
        seen: set[Action] = set()
        for score, a, note in items:
            if a in seen:
                continue
            seen.add(a)
            out.append(Alternative(a, score, ranked.note(a, note)))
            if len(out) >= ranked.top:
                break
        return out

    def rank(self, state: GameState) -> list[tuple[Action, float]]:
        """The scored actions of an action-like decision (``action``, ``interrupt``,
        ``free_action``, ``destination``, the action of a counteraction), best first, as
        ``(complete action, score in operatives)``: the ranking the agent's choice at such a
        decision starts from (module docstring, **Actions**), each action legal in
        ``state`` (listed, or a cover spot the engine accepts). Moves whose bound cannot
        beat a listed action are left out (they would not be chosen), and the advance that
        replaces an idle End activation is not in it. Empty when nothing is listed. Search
        code uses it for its candidates and priors; it does not change what :meth:`act`
        chooses.

        Raises:
            ValueError: ``state`` is not a decision node of an action-like kind.
        """
        node = state.node
        if not isinstance(node, Decision) or self._handlers.get(node.kind) not in (
            self._action,
            self._counteract,
        ):
            raise ValueError(f"rank: not an action-like decision: {node!r}")
        legal = list_complete_actions(state)
        if not legal:
            return []
        self._state = state
        self._checked = None
        self._sense = None
        scored = self._scores(
            DecisionView(state), node.player, legal, state, self._mission(node.player)
        )
        n = len(legal)
        return [(a, sc) for sc, i, a in scored if i < n or state.is_legal(a)]

    def _mission(self, me: str) -> MissionSense:
        """The mission's values for this decision (built on first use)."""
        if self._sense is None:
            self._sense = MissionSense(self._state, me, self._memo)
        return self._sense

    # -- strategy phase and set-up ---------------------------------------------------------

    def _gambit(self, w: Work, me: str, legal: list[Action]) -> Action:
        choice = mission_choices.mission_gambit(self._state, me, legal)
        return choice if choice is not None else ploy_choices.ploy_window(w, me, legal)

    def _tac_op(self, w: Work, me: str, legal: list[Action]) -> Action:
        return mission_choices.pick_tac_op(self._state, me, legal)

    def _primary_op(self, w: Work, me: str, legal: list[Action]) -> Action:
        return mission_choices.pick_primary_op(self._state, me, legal)

    def _initiative(self, w: Work, me: str, legal: list[Action]) -> Action:
        mine = Action("Initiative", text=me)
        return mine if mine in legal else legal[0]

    def _initiative_card(self, w: Work, me: str, legal: list[Action]) -> Action:
        f = w.top
        my, their = (f.a, f.b) if me == "A" else (f.b, f.a)
        tie_winner = other(w.initiative) if w.initiative else "A"

        def wins(m: int, t: int) -> bool:
            return m > t or (m == t and tie_winner == me)

        if wins(my, their):
            return Action("Pass")
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.verb != "Play" or a.text == "re-roll":
                continue
            # A card modifies the player's own result (1.4): only a "+" card can help.
            x = int(a.text[1:])
            ok = a.text[0] == "+" and wins(my + x, their)
            if ok and (best is None or x < best[0]):
                best = (x, a)
        if best is not None:
            return best[1]
        reroll = Action("Play", text="re-roll")
        if reroll in legal and my <= 3:
            return reroll
        return Action("Pass")

    def _deploy(self, w: Work, me: str, legal: list[Action]) -> Action:
        kz = w.kz
        zone = other(w.pl(me).drop_zone) if w.pl(me).drop_zone else "B"
        enemy_zone = kz.drop_zones[zone]
        c = enemy_zone.centroid
        minx, miny, maxx, maxy = enemy_zone.bounds
        samples = [(c.x, c.y)]
        if maxx - minx >= maxy - miny:
            samples += [(minx + (maxx - minx) * f, c.y) for f in (0.15, 0.35, 0.65, 0.85)]
        else:
            samples += [(c.x, miny + (maxy - miny) * f) for f in (0.15, 0.35, 0.65, 0.85)]
        eyes = [Placement(x, y, 32.0) for x, y in samples]
        friends = [w.place(o) for o in w.alive(me)]
        best: tuple[float, int, Action] | None = None
        for i, a in enumerate(legal):
            if a.verb != "Deploy" or a.point is None:
                continue
            o = w.op(a.op)
            x, y, z = a.point
            p = w.ctx.placement(o.id, x, y, z)
            share = seen_share(w, kz, zone, eyes, p)
            forward = -math.hypot(x - c.x, y - c.y)
            melee = melee_minded(w, o)
            crowd = sum(1 for f in friends if math.hypot(f.x - x, f.y - y) < 2.5)
            score = -share + (0.08 if melee else 0.04) * forward - 0.3 * crowd
            if best is None or score > best[0] + 1e-9:
                best = (score, i, a)
        return best[2] if best is not None else legal[0]

    # -- firefight phase -------------------------------------------------------------------

    def _activate(self, w: Work, me: str, legal: list[Action]) -> Action:
        sense = self._mission(me)
        best: tuple[float, Action] | None = None
        ranked: list[tuple[float, Action, str]] = []
        seen: set[str] = set()
        for a in legal:
            if a.verb != "Activate" or a.op in seen:
                continue
            seen.add(a.op)
            o = w.op(a.op)
            attack = max(
                best_shot_now(w, o, as_engage=True),
                best_fight_now(w, o),
                charge_prospect(w, o),
            )
            danger = exposure(w, o, w.place(o), o.order)
            vp = VP_VALUE * sense.activation_gain(o.id, w.apl(o))
            score = attack + 0.3 * danger + vp
            order = "engage" if attack > 0.05 else "conceal"
            act = Action("Activate", op=o.id, text=order)
            if act not in legal:
                act = a
            ranked.append(
                (score, act, f"attack {attack:.2f}, under fire {danger:.2f}, mission {vp:.2f}")
            )
            if best is None or score > best[0] + 1e-9:
                best = (score, act)
        if best is None:
            return legal[0]
        choice = self._order(w, me, legal, best[1])
        if choice != best[1]:  # the Engage order after all (module docstring)
            ranked = [
                (
                    s,
                    choice if a == best[1] else a,
                    n + ("; engage: a shot after a move" if a == best[1] else ""),
                )
                for s, a, n in ranked
            ]
        self._ranked = Ranked(ranked)
        return choice

    def _order(self, w: Work, me: str, legal: list[Action], act: Action) -> Action:
        """Engage rather than Conceal when the operative might shoot after a move (module
        docstring): its best first action with an Engage order is a shot, or a move after
        which it has a shot worth :data:`OPPORTUNITY`."""
        if act.text != "conceal":
            return act
        o = w.op(act.op)
        engage = Action("Activate", op=o.id, text="engage")
        if engage not in legal or w.apl(o) < 2:
            return act
        if reachable_shot_bound(w, o, w.move_stat(o)) < OPPORTUNITY or not may_see(w, o):
            return act
        after, _ = self._state.apply(engage)
        node = after.node
        if not (isinstance(node, Decision) and node.player == me and node.kind == "action"):
            return act
        view = DecisionView(after)
        legal_after = list_complete_actions(after)
        self._ahead = (after, view, legal_after)  # for the next decision, if equal
        quiet = MissionSense(after, me, quiet=True)  # the shots matter here, not the mission
        scored = self._scores(view, me, legal_after, after, quiet)
        first = next((a for _, _, a in scored if a in legal_after or after.is_legal(a)), None)
        if first is None:
            return act
        shoots = first.verb in ("Shoot", "Fight")
        if is_move(first.verb) and first.verb != "Charge" and first.point is not None:
            q = view.op(o.id)
            p = view.ctx.placement(o.id, *first.point)
            shoots = best_shot_after(view, q, p, first.verb) >= OPPORTUNITY
        if not shoots:
            return act
        return engage

    def _counteract(self, w: Work, me: str, legal: list[Action]) -> Action:
        if not any(a.verb in ("Counteract", "Pass") for a in legal):
            return self._action(w, me, legal)  # the counteraction's own action
        sense = self._mission(me)
        ranked: list[tuple[float, Action, str]] = []
        choice = best_opportunity(
            w,
            legal,
            "Counteract",
            as_engage=True,
            mission=lambda op: sense.counteract_gain(op),
            ranked=ranked,
        )
        self._ranked = Ranked(ranked)
        return choice

    def _guard(self, w: Work, me: str, legal: list[Action]) -> Action:
        ranked: list[tuple[float, Action, str]] = []
        choice = best_opportunity(w, legal, "Interrupt", as_engage=False, ranked=ranked)
        self._ranked = Ranked(ranked)
        return choice

    def _action(self, w: Work, me: str, legal: list[Action]) -> Action:
        state = self._state
        scored = self._scores(w, me, legal, state, self._mission(me))
        choice = legal[0]  # End activation is always listed
        for _, _, a in scored:
            if a in legal:
                choice = a
                break
            if state.is_legal(a):
                self._checked = a  # act() need not ask the engine again
                choice = a
                break
        # The listed alternatives (an unlisted destination only when it is the one played).
        kept = [(v, a, "") for v, _, a in scored if a in legal or a == choice]
        if choice.verb == "End activation" and getattr(w.top, "mode", "") == "activation":
            # Nothing scores above standing still: advance under cover instead of idling.
            o = w.op(w.top.op)
            if not o.done and not w.in_enemy_control_range(o):
                at = w.place(o)
                here = exposure(w, o, at, o.order)
                reach = w.move_stat(o)
                verb = plain_move(legal)
                spots = [
                    Action(verb, op=o.id, point=(x, y, 0.0))
                    for x, y in cover_spots(w, at.base_mm)
                    if math.hypot(x - at.x, y - at.y) <= reach - 0.05
                ]
                found = safe_advance(
                    w,
                    o,
                    legal + spots,
                    here,
                    lambda a: a in legal or state.is_legal(a),
                    listed=len(legal),
                )
                if found is not None:
                    move, gain, danger = found
                    if move not in legal:
                        self._checked = move
                    top = max(v for v, _, _ in kept)
                    note = (
                        f'advance: {gain:.1f}" closer to an enemy or marker, exposure {danger:.2f}'
                    )
                    kept = [(top, move, note), *[t for t in kept if t[1] != move]]
                    choice = move
        self._ranked = Ranked(kept, lambda a: action_note(w, a))
        return choice

    def _scores(
        self, w: Work, me: str, legal: list[Action], state: GameState, sense: MissionSense
    ) -> list[tuple[float, int, Action]]:
        """Every listed action of the operative whose action is decided, and unlisted move
        destinations, scored (module docstring), best first: ``(score, index, action)``
        (an index past ``legal`` is an unlisted destination)."""
        frame = w.top
        if not hasattr(frame, "mode"):  # a destination decision: its activation is below
            frame = w.stack[-2]
        o = w.op(frame.op)
        mode = frame.mode
        here = w.place(o)
        apl = w.apl(o)
        base = position_value(w, o, here, can_shoot=False)
        base += VP_VALUE * sense.approach(o.id, apl, here.x, here.y)
        shoot_after = mode == "activation" and o.order == "engage" and "Shoot" not in o.done

        def ap_left(cost: int) -> int:
            # AP left after an action of that cost (none outside an activation).
            return o.ap - cost if mode == "activation" else 0

        def shot_now() -> float:
            return best_shot_now(w, o, as_engage=False)

        scored: list[tuple[float, int, Action]] = []
        free: list[tuple[float, int, Action]] = []  # advised 0AP rule actions
        moves: list[tuple[int, Action]] = []
        resupply: list[tuple[int, Action]] = []
        best_shoot = 0.0  # the best listed Shoot's value over standing still
        for i, a in enumerate(legal):
            v = a.verb
            if v == "End activation":
                scored.append((base, i, a))
            elif v in SHOOT_VERBS:
                value = shoot_action_value(w, o, a, mode)
                assert a.target is not None
                gain = sense.kill_gain(a.target, o.id)
                if gain > 0:  # the VP a kill scores, times the chance of the kill
                    value += VP_VALUE * gain * shot_kill_chance(w, o, a, mode)
                if ap_left(1) >= 1:  # a mission action it may still perform here
                    value += VP_VALUE * sense.best_action_gain(o.id, mode)
                scored.append((base + value, i, a))
                best_shoot = max(best_shoot, value)
            elif v in ("Fight", "Hatchway fight"):
                t = w.op(a.target)
                value = fight_action_value(w, o, a.weapon, t)
                gain = sense.kill_gain(t.id, o.id)
                if gain > 0:
                    value += VP_VALUE * gain * fight_kill_chance(w, o, a.weapon, t)
                scored.append((base + value, i, a))
            elif v in MARKER_VERBS or (
                v == "Act" and is_mission_action(act := find_rule_action(w, o, a.text))
            ):
                gain = sense.action_gain(o.id, a, mode)
                cost = act.ap if v == "Act" and act is not None else 1
                if gain > 0 and ap_left(cost) >= 1 and shoot_after:
                    gain += 0.9 * shot_now() / VP_VALUE  # the shot it may still take
                scored.append((base + VP_VALUE * gain if gain > 0 else base - 0.01, i, a))
            elif is_move(v) and a.point is not None:
                moves.append((i, a))
            elif v == "Act" and a.text == STUN_GRENADE.text and a.target:
                scored.append((base + stun_grenade_value(w, me, a.target), i, a))
            elif v == "Act" and a.text == AMMO_RESUPPLY.text:
                resupply.append((i, a))  # valued once the shots are
            elif v == "Act" and (advice := action_advice(find_rule_action(w, o, a.text))):
                value = float(advice(w, o, a, mode))
                act_ = find_rule_action(w, o, a.text)
                if act_ is not None and act_.ap == 0 and value > 0 and mode == "activation":
                    free.append((value, i, a))  # costs no AP: scored on top of the best
                else:
                    scored.append((base + value, i, a))
            elif v == "Ploy":  # a ploy offered between actions (trigger during_activation)
                scored.append((base + during_activation_ploy(w, me, o, a), i, a))
            elif v == "Use" and (value := during_activation_rule(w, me, o, a)) > 0:
                free.append((value, i, a))  # a free rule option between actions
            elif v == "Guard":
                g = 0.1 if not best_shot_now(w, o, as_engage=False) else -0.05
                scored.append((base + g, i, a))
            else:
                scored.append((base - 0.01, i, a))
        for i, a in resupply:
            scored.append((base + resupply_value(w, o, best_shoot), i, a))
        if moves:
            # Every action scored so far is listed (legal): a move scoring below the best of
            # them cannot be chosen, so its full evaluation may be skipped.
            floor = max((t[0] for t in scored), default=-math.inf)
            scored.extend(self._score_moves(w, o, mode, moves, len(legal), floor, sense))
        if free:
            # A 0AP action of positive advice is taken before the best other action (it
            # costs nothing, and the position it was advised in may not last).
            best = max((t[0] for t in scored), default=base)
            scored.extend((best + value, i, a) for value, i, a in free)
        scored.sort(key=lambda t: (-t[0], t[1]))
        return scored

    def _score_moves(
        self,
        w: Work,
        o: OperativeState,
        mode: str,
        moves: list[tuple[int, Action]],
        n: int,
        floor: float,
        sense: MissionSense,
    ) -> list[tuple[float, int, Action]]:
        """Score move actions: a cheap pre-score for every candidate (listed ones plus
        cover spots in reach), then the full position value for the best few.

        ``n`` is the number of listed actions (a candidate of index ``>= n`` is an unlisted
        cover spot) and ``floor`` the best score of a listed action already scored. A
        candidate whose upper bound is below the best score of a listed action is left out:
        it would be sorted after that action, which is legal, so leaving it out never
        changes the choice. The bound is refined in stages, each cheaper than the sight
        queries it saves: without geometry (:func:`position_bound`), then with the exposure
        (given up as soon as it alone rules the spot out), then the exact shot. The listed
        candidates of best bound are evaluated first, to raise that score early."""
        here = w.place(o)
        verbs = sorted(
            {a.verb for _, a in moves}, key=lambda v: min(i for i, a in moves if a.verb == v)
        )
        extra: list[tuple[int, Action]] = []
        k = n
        spots = [
            (x, y, math.hypot(x - here.x, y - here.y)) for x, y in cover_spots(w, here.base_mm)
        ]
        for verb in verbs:
            if verb == "Charge":
                continue
            limit = max(
                math.hypot(a.point[0] - here.x, a.point[1] - here.y)
                for _, a in moves
                if a.verb == verb and a.point is not None
            )
            listed = {(a.point[0], a.point[1]) for _, a in moves if a.verb == verb and a.point}
            for x, y, d in spots:
                if d <= limit - 0.05 and (x, y) not in listed:
                    extra.append((k, Action(verb, op=o.id, point=(x, y, 0.0))))
                    k += 1
        pool = moves + extra
        ap_after = o.ap - 1 if mode == "activation" else 0
        shoot_later = (
            mode == "activation" and "Shoot" not in o.done and o.order == "engage" and ap_after >= 1
        )
        fight_later = mode == "activation" and "Fight" not in o.done and ap_after >= 1
        melee = melee_minded(w, o)
        apl = w.apl(o)
        pre: list[tuple[float, int, Action, Placement]] = []
        at: dict[tuple[float, float, float], tuple[float, Placement]] = {}  # one per spot
        for i, a in pool:
            assert a.point is not None
            hit = at.get(a.point)
            if hit is None:
                p = w.ctx.placement(o.id, *a.point)
                pull = VP_VALUE * sense.approach(o.id, apl, p.x, p.y)
                hit = at[a.point] = (cheap_value(w, o, p, melee) + pull, p)
            pre.append((hit[0], i, a, hit[1]))
        pre.sort(key=lambda t: (-t[0], t[1]))
        chosen = pre[:TOP_DESTINATIONS]
        charges = [t for t in pre if t[2].verb == "Charge"]
        for t in charges[:3]:
            if t not in chosen:
                chosen.append(t)
        if sense.live:
            # The best spots that contest each objective marker are valued in full too.
            for m in w.markers:
                near = [t for t in pre if contests_roughly(t[3], m.x, m.y)]
                for t in near[:MARKER_DESTINATIONS]:
                    if t not in chosen:
                        chosen.append(t)
        bounds: dict[str, list[tuple[Placement, float, float]]] = {}

        def shots(verb: str) -> list[tuple[Placement, float, float]]:
            # What it could shoot after that move (a Heavy weapon may be ruled out).
            if not shoot_later:
                return []
            if verb not in bounds:
                bounds[verb] = shot_bounds(w, o, after=verb)
            return bounds[verb]

        def finish(v: float, verb: str, fight: float, mission: float) -> float:
            # The same operations for the exact value and for its bounds.
            if verb == "Charge" and fight_later:
                v += fight
            if verb == "Fall Back":
                v -= 0.05  # it costs 2AP
            return v + mission

        bounded = []
        for _, i, a, p in chosen:
            verb = a.verb
            can_shoot = shoot_later and verb not in ("Charge",)
            fight = 0.0
            if verb == "Charge" and fight_later:
                fight = max((fight_from(w, o, p, e) for e in enemies_in_reach(w, o, p)), default=0)
            ub = position_bound(w, o, p, can_shoot=can_shoot, melee=melee, shots=shots(verb))
            # The mission there: the markers it nears, holds or contests, and the mission
            # action it could then perform ("act"; with one AP left, a shot or that action).
            mission = VP_VALUE * sense.approach(o.id, apl, p.x, p.y)
            act = 0.0
            left = 0
            if sense.live and a.point is not None:
                cost = 2 if verb == "Fall Back" else 1
                left = o.ap - cost if mode == "activation" else 0
                hold, act = sense.move_gain(o.id, a.point, verb, mode, left)
                mission += VP_VALUE * hold
                act *= VP_VALUE
            either = can_shoot and left == 1 and act > 0
            ub = finish(ub, verb, fight, mission + act)  # max(shot, act) <= shot + act
            bounded.append((i >= n, -ub, i, a, p, can_shoot, fight, mission, act, either))
        bounded.sort(key=lambda t: t[:3])
        out = []
        for _, neg_ub, i, a, p, can_shoot, fight, mission, act, either in bounded:
            ub = -neg_ub
            if ub < floor:
                continue
            # The exposure lowers the bound by EXPOSURE_WEIGHT times itself: stop asking for
            # sight lines once that alone puts it below the floor (a margin covers rounding).
            danger = exposure(w, o, p, o.order, give_up_above=(ub - floor + 1e-6) / EXPOSURE_WEIGHT)
            if danger == math.inf:
                continue
            if can_shoot:
                ub = position_bound(
                    w, o, p, can_shoot=True, melee=melee, shots=shots(a.verb), exposure_value=danger
                )
                if finish(ub, a.verb, fight, mission + act) < floor:
                    continue
            v = position_value(
                w, o, p, can_shoot=can_shoot, melee=melee, exposure_value=danger, after=a.verb
            )
            if either:  # one AP left: the shot or the mission action, not both
                plain = position_value(
                    w, o, p, can_shoot=False, melee=melee, exposure_value=danger, after=a.verb
                )
                v = finish(max(v, plain + act), a.verb, fight, mission)
            else:
                v = finish(v, a.verb, fight, mission + act)
            if i < n:
                floor = max(floor, v)
            out.append((v, i, a))
        return out

    def _resolve(self, w: Work, me: str, legal: list[Action]) -> Action:
        return attack_choices.resolve(self._state, w, me, legal)

    def _kt21_resolve(self, w: Work, me: str, legal: list[Action]) -> Action:
        return kt21_choices.fight_resolve(self._state, w, me, legal)
