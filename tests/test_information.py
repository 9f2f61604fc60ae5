"""Hidden information (``rules/KT24.md`` 7.2, 8.1, 8.3, 8.4; issue 30 "hidden information done
properly"): the secret decisions are marked in one place (``SECRET_DECISIONS``) and the
marking matches what :func:`engine.game.observation.observe` hides; a player's information
state ignores the opponent's secrets only; :func:`resample` redraws the opponent's secrets
uniformly among the consistent ones and gives states that play on; :func:`play` hands an
agent its player's observation unless it asks for the full state."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from engine.agents import HeuristicAgent, RandomAgent
from engine.game import Action, GameOptions, GameState
from engine.game.drivers import SeededDice, agent_input, play
from engine.game.information import information_key, information_state, resample
from engine.game.observation import Observation, observe
from engine.game.secrets import SecretSelection, redact, register_secret, secret_selections
from engine.game.state import Chance, Decision, other
from engine.game.vocabulary import SECRET_DECISIONS, UndeclaredNameError
from engine.geometry import load_killzone
from engine.missions.pack import PRIMARY_CHOICES, tac_ops_for
from engine.rulesets import new_game
from engine.teams import load_builtin_team

TEAMS = ("kasrkin", "legionaries")


KT21_SECRETS = frozenset({"tac archetype", "scouting", "kt21_equipment"})
"""The secret decision kinds only KT21 battles make (rules/KT21.md 1.2: tac ops, equipment
and the scouting option chosen in secret)."""


def _start(killzone: str = "open_ruins", **options: object) -> GameState:
    teams = [f"kt21_{t}" for t in TEAMS] if options.get("ruleset") == "kt21" else TEAMS
    rosters = [load_builtin_team(t).default() for t in teams]
    opts = GameOptions(**options) if options else None  # type: ignore[arg-type]
    return new_game(load_killzone(killzone), rosters[0], rosters[1], opts)


def _advance(
    s: GameState, until: Callable[[GameState], bool], seed: int, limit: int = 4000
) -> GameState:
    """Random agents and seeded dice from ``s`` until ``until(state)`` holds."""
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    for _ in range(limit):
        if until(s):
            return s
        node = s.node
        assert not s.is_terminal, "the battle ended before the wanted state"
        a = dice.roll(s) if isinstance(node, Chance) else agents[node.player].act(s)  # type: ignore[union-attr]
        s = s.apply(a)[0]
    raise AssertionError("the wanted state was not reached")


def _deciding(player: str, kind: str) -> Callable[[GameState], bool]:
    def check(s: GameState) -> bool:
        return isinstance(s.node, Decision) and s.node == Decision(player, kind)

    return check


def _firefight_secrets(s: GameState) -> bool:
    """Turning point 1's Firefight phase: both tac ops and primary ops selected."""
    m = s.mission
    return s.phase == "firefight" and all(m.primary_ops) and not any(m.tac_revealed)


def _binomial_ok(count: int, n: int, p: float) -> bool:
    """``count`` of ``n`` draws of probability ``p`` lies within 5 standard deviations of
    ``n p`` (a fair draw falls outside with probability below 1e-6)."""
    return abs(count - n * p) <= 5 * math.sqrt(n * p * (1 - p))


# -- the marking -----------------------------------------------------------------------------


def test_each_secret_decision_kind_has_its_resampler_registered() -> None:
    """Every kind marked secret is redrawn by :func:`resample`: the rule module keeping each
    secret registered a :class:`SecretSelection` for it (once a battle is set up, every
    rule module of the ruleset is loaded)."""
    _start()
    assert {s.kind for s in secret_selections()} == SECRET_DECISIONS


def test_a_resampler_for_an_unmarked_kind_is_refused() -> None:
    """Only a decision declared secret may have a resampler: an undeclared one would redraw
    a choice the opponent has seen."""
    spec = SecretSelection("activate", lambda s, p: False, lambda s, p: (), lambda s, p, c: s)
    with pytest.raises(UndeclaredNameError, match="activate"):
        register_secret(spec)


@pytest.mark.parametrize(
    ("killzone", "seed", "options"),
    [
        ("open_ruins", 3, {"crit_op": "Reboot"}),
        ("close_quarters", 4, {"crit_op": "Reboot"}),
        ("open_ruins", 5, {"ruleset": "kt21"}),
    ],
)
def test_a_decision_is_marked_secret_iff_its_choice_is_hidden_from_the_opponent(
    killzone: str, seed: int, options: dict[str, str]
) -> None:
    """At the decisions of random battles (crit op Reboot, so that its picks happen), two
    different choices are applied: the choice is *hidden* when the two states differ outside
    the procedure in progress (which shows as it goes on) yet the opponent's observations are
    equal. Hidden choices happen at marked kinds only, and every marked kind the battle meets
    is met hidden (the rules make these selections in secret: KT24 7.2, 8.1, 8.3, 8.4; KT21's
    tac ops and scouting, rules/KT21.md 1.2). The KT24 battles meet every KT24 kind, the
    KT21 one its own."""
    s = _start(killzone, **options)
    agents = {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}
    dice = SeededDice(seed)
    rng = np.random.default_rng(seed)
    hidden_at: set[str] = set()
    met: set[str] = set()
    while not s.is_terminal:
        node = s.node
        if isinstance(node, Chance):
            s = s.apply(dice.roll(s))[0]
            continue
        assert isinstance(node, Decision)
        legal = list(s.legal_actions())
        if len(legal) > 1:
            met.add(node.kind)
            picks = {0, len(legal) - 1, int(rng.integers(len(legal)))}
            afters = [s.apply(legal[k])[0] for k in sorted(picks)]
            opp = other(node.player)
            for i, x in enumerate(afters):
                for y in afters[i + 1 :]:
                    if x != y and x.stack == y.stack and observe(x, opp) == observe(y, opp):
                        hidden_at.add(node.kind)
        s = s.apply(agents[node.player].act(s))[0]
    assert hidden_at == SECRET_DECISIONS & met
    kt21 = options.get("ruleset") == "kt21"
    assert (KT21_SECRETS if kt21 else SECRET_DECISIONS - KT21_SECRETS) <= met


# -- the information state ------------------------------------------------------------------


def test_the_information_state_ignores_the_opponents_secrets_only() -> None:
    """Two states differing only in B's tac op and primary op (8.1, 8.4: secret from A):
    A's information state is the same, B's (who knows its own ops) differs."""
    s = _advance(_start(), _firefight_secrets, seed=5)
    other_ops = [t.name for t in tac_ops_for(s.ctx.rosters["B"].team.archetypes)]
    variant = next(
        v
        for k in range(50)
        if (v := resample(s, "A", k)).mission.tac_ops[1] != s.mission.tac_ops[1]
        and v.mission.primary_ops[1] != s.mission.primary_ops[1]
    )
    assert len(other_ops) > 1
    assert information_state(variant, "A") == information_state(s, "A")
    assert information_key(variant, "A") == information_key(s, "A")
    assert information_state(variant, "B") != information_state(s, "B")
    assert information_key(variant, "B") != information_key(s, "B")


def test_the_information_state_tells_apart_what_the_player_sees() -> None:
    """A public difference (another roll of the dice, another move) is seen by both players:
    their information states differ."""
    s = _advance(_start(), _firefight_secrets, seed=5)
    t = _advance(s, lambda x: x.step > s.step + 5, seed=6)
    for p in ("A", "B"):
        assert information_state(s, p) != information_state(t, p)
        assert information_state(s, p).startswith(f"('{p}',")


# -- resample --------------------------------------------------------------------------------


def test_resample_draws_the_tac_op_and_primary_op_uniformly() -> None:
    """In the Firefight phase of turning point 1, B's tac op is one of its kill team's k tac
    ops (8.4) and its primary op one of crit, tac, kill (8.1), as far as A knows: over 900
    draws each option comes up about 900/k (tac op) and 300 (primary op) times, within 5
    standard deviations of the binomial."""
    s = _advance(_start(), _firefight_secrets, seed=5)
    options = [t.name for t in tac_ops_for(s.ctx.rosters["B"].team.archetypes)]
    n = 900
    rng = np.random.default_rng(0)
    draws = [resample(s, "A", rng).mission for _ in range(n)]
    tac = Counter(m.tac_ops[1] for m in draws)
    primary = Counter(m.primary_ops[1] for m in draws)
    assert set(tac) == set(options)
    assert set(primary) == set(PRIMARY_CHOICES)
    assert all(_binomial_ok(tac[o], n, 1 / len(options)) for o in options), tac
    assert all(_binomial_ok(primary[o], n, 1 / 3) for o in PRIMARY_CHOICES), primary


def test_resample_keeps_what_the_player_has_seen_and_its_own_secrets() -> None:
    """A resampled state is one A cannot tell apart: A's observation (everything public and
    A's own ops) and the procedures in progress are unchanged, and B's redrawn ops really
    vary between draws."""
    s = _advance(_start(), _firefight_secrets, seed=5)
    seen = observe(s, "A")
    tacs = set()
    for seed in range(30):
        r = resample(s, "A", seed)
        assert observe(r, "A") == seen
        assert r.stack == s.stack
        assert r.mission.tac_ops[0] == s.mission.tac_ops[0]
        assert r.mission.primary_ops[0] == s.mission.primary_ops[0]
        assert r.players[0] == s.players[0]
        tacs.add(r.mission.tac_ops[1])
    assert len(tacs) > 1


def test_resample_is_deterministic_for_a_seed() -> None:
    """The same seed (or a generator in the same state) gives the same state."""
    s = _advance(_start(), _firefight_secrets, seed=5)
    assert resample(s, "A", 11) == resample(s, "A", 11)
    assert resample(s, "B", np.random.default_rng(3)) == resample(s, "B", np.random.default_rng(3))


def test_resample_redraws_a_hidden_reboot_pick_among_the_markers_numbers() -> None:
    """Reboot (8.3): after the first pick, the second player does not know it; a resample for
    the second player draws it uniformly among the 3 markers' numbers (300 draws: each about
    100 times, within 5 standard deviations), and the state plays on."""
    s = _start(crit_op="Reboot")

    def picked(x: GameState) -> bool:
        return any(k.startswith("secret:") and k.endswith(" pick") for k, _ in x.mission.facts)

    s = _advance(s, picked, seed=8)
    assert isinstance(s.node, Decision) and s.node.kind == "reboot pick"
    second = s.node.player
    key = f"secret:{other(second)}:Reboot pick"
    rng = np.random.default_rng(1)
    counts = Counter(resample(s, second, rng).mission.fact(key) for _ in range(300))
    assert set(counts) == {1, 2, 3}
    assert all(_binomial_ok(counts[k], 300, 1 / 3) for k in (1, 2, 3)), counts
    _advance(resample(s, second, 2), lambda x: x.tp >= 3, seed=9)


def test_resample_redraws_an_equipment_selection_consistent_with_what_shows() -> None:
    """7.2: while B selects, A's selection is hidden from B. A said ``Equipment done`` (a
    public counter), so it holds fewer than 4 options: every draw has fewer than 4, each
    option at most once, and the draws vary. The player's own partial selection is kept."""
    s = _advance(_start(), _deciding("B", "equipment"), seed=2)
    from engine.rules.equipment.selection import check_selection

    done = dict(s.player("A").uses).get("equipment selected", 0)
    draws = {resample(s, "B", k).player("A").equipment for k in range(40)}
    team = s.ctx.rosters["A"].team
    for d in draws:
        assert check_selection(d, team) == d  # legal: known options, each once, at most 4
        if done:
            assert len(d) < 4
        else:
            assert len(d) == 4
    assert len(draws) > 10
    assert all(resample(s, "B", k).player("B") == s.player("B") for k in range(5))


@pytest.mark.parametrize(
    "when",
    ["equipment", "tac op", "firefight"],
)
def test_resampled_states_play_on_to_the_end(when: str) -> None:
    """A resampled state is valid: random agents play it to the end of the battle without
    any error (legal actions, apply, scoring of the redrawn ops)."""
    until = {
        "equipment": _deciding("B", "equipment"),
        "tac op": lambda x: (
            isinstance(x.node, Decision) and x.node.kind == "tac op" and any(x.mission.tac_ops)
        ),
        "firefight": _firefight_secrets,
    }[when]
    s = _advance(_start(), until, seed=12)
    viewer = s.node.player if isinstance(s.node, Decision) else "A"
    r = resample(s, viewer, 4)
    end = play(r, {"A": RandomAgent(1), "B": RandomAgent(2)}, SeededDice(3))
    assert end.is_terminal


def test_resample_refuses_a_player_other_than_a_and_b() -> None:
    """A clear error naming the bad player; nothing is drawn."""
    s = _start()
    with pytest.raises(ValueError, match="'C'"):
        resample(s, "C", 0)


# -- what agents see ---------------------------------------------------------------------------


def test_the_redacted_and_determinised_states_list_the_real_legal_actions() -> None:
    """Over a random battle, at each decision the observation's look-ahead states (redacted,
    determinised) list the real state's legal actions, so an action chosen on them is legal
    in the real state; they hold none of the opponent's hidden selections (the redacted
    states of two states differing only in them are equal), and the viewer sees them as the
    real state."""
    s = _start(crit_op="Reboot")
    agents = {"A": RandomAgent(21), "B": RandomAgent(22)}
    dice = SeededDice(20)
    checked = 0
    while not s.is_terminal:
        node = s.node
        if isinstance(node, Decision):
            if s.step % 7 == 0 or node.kind in SECRET_DECISIONS:
                view = observe(s, node.player)
                legal = list(s.legal_actions())
                for look in (view.redacted(), view.determinised(s.step)):
                    assert list(look.legal_actions()) == legal
                    assert observe(look, node.player) == view
                variant = resample(s, node.player, s.step + 1)
                assert redact(variant, node.player) == view.redacted()
                checked += 1
            a = agents[node.player].act(observe(s, node.player))
        else:
            a = dice.roll(s)
        s = s.apply(a)[0]
    assert checked > 50


class _Spy:
    """Records what it is handed; plays the first legal action."""

    def __init__(self, full: bool) -> None:
        self.sees_full_state = full
        self.seen: list[object] = []

    def act(self, state: GameState | Observation) -> Action:
        self.seen.append(state)
        if isinstance(state, Observation):
            return state.legal_actions[0]
        return state.legal_actions()[0]


def test_play_hands_an_agent_its_observation_unless_it_asks_for_the_state() -> None:
    """``play`` gives A (no ``sees_full_state``) its own observations only, and B (which asks)
    the full states."""
    a, b = _Spy(False), _Spy(True)
    play(_start(), {"A": a, "B": b}, SeededDice(1), max_steps=80)
    assert a.seen and all(isinstance(x, Observation) and x.player == "A" for x in a.seen)
    assert b.seen and all(isinstance(x, GameState) for x in b.seen)
    with pytest.raises(ValueError, match="not a decision node"):
        agent_input(a, _advance(_start(), lambda x: isinstance(x.node, Chance), seed=1))


def test_the_agents_choose_the_same_on_the_observation_as_on_the_state() -> None:
    """The random agent draws from the same listing, and the heuristic agent reads none of
    the opponent's secrets (its mission values start from what the player may see): given
    the observation or the state, each chooses the same action."""
    s = _advance(_start(), _firefight_secrets, seed=5)
    s = _advance(s, lambda x: isinstance(x.node, Decision) and x.node.kind == "activate", seed=6)
    assert isinstance(s.node, Decision)
    view = observe(s, s.node.player)
    assert RandomAgent(4).act(view) == RandomAgent(4).act(s)
    assert HeuristicAgent().act(view) == HeuristicAgent().act(s)
