"""The caches of issue 29 item 3 change no answer.

Each cache keeps a value computed from a state (or from a working copy of one) and is keyed
by what the value depends on: control of objective markers (the contesting operatives kept
on the working copy until an operative or the killzone changes), attack profiles (kept on
the state the working copy was made from while the copy still equals it: the *would* hooks
may read any of it), the weapons rules give (named once per weapon value), the equipment a
player selected (by value), the rule actions by notation name (per battle) and the Clearance
Sweep advice (operatives' bases kept on the working copy). For states met in random
playouts, every cached answer must equal the computation the cache replaced, asked
again after the cache is warm, and after the working copy changes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.agents import RandomAgent
from engine.game import attacks, markers, weapons
from engine.game.actions import Action
from engine.game.drivers import SeededDice, play
from engine.game.rule_actions import RuleActionLike, _mine, find_rule_action
from engine.game.state import Effect, GameState, other
from engine.game.work import Work
from engine.geometry import load_killzone, sight
from engine.rules.equipment import selection
from engine.rules.equipment.options import option_of
from engine.rulesets import new_game
from engine.teams import load_builtin_team
from teams.kasrkin import ploys as kasrkin_ploys


def _playout(layout: str, seed: int, every: int) -> list[GameState]:
    kz = load_killzone(layout)
    rosters = [load_builtin_team(t).default() for t in ("kasrkin", "legionaries")]
    seen: list[GameState] = []

    def keep(before: GameState, *_: object) -> None:
        if before.step % every == 0 and before.tp >= 1:
            seen.append(before)

    state = new_game(kz, rosters[0], rosters[1])
    play(
        state, {"A": RandomAgent(seed), "B": RandomAgent(seed + 1)}, SeededDice(seed), on_step=keep
    )
    return seen


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    """States met in two random battles, one on each shipped killzone (every 7th input from
    the first turning point on)."""
    return _playout("open_ruins", 3, 7) + _playout("close_quarters", 5, 7)


def _working(states: list[GameState], k: int) -> Iterator[tuple[GameState, Work]]:
    for s in states[::k]:
        yield s, Work(s)


# -- control of objective markers ------------------------------------------------------------


def _reference_contests(w: Work, o, name: str) -> bool:  # type: ignore[no-untyped-def]
    m = next(m for m in w.markers if m.name == name)
    if m.carrier:
        return bool(m.carrier == o.id)
    return sight.objective_in_control_range(w.kz, w.place(o), markers.marker_objective(w, name))


def _reference_controller(w: Work, name: str) -> str:
    m = next(m for m in w.markers if m.name == name)
    if m.carrier:
        return w.ctx.owner[m.carrier]
    got = markers.apl_controller(w, lambda o: _reference_contests(w, o, name), name, "")
    if not got and "would_control_marker" in w.ctx.hooks.would:
        got = str(w.would("would_control_marker", got, marker=name))
    return got


def test_contesting_operatives_equal_each_operatives_contest(states: list[GameState]) -> None:
    """For every marker of every sampled state, :func:`markers.contesting` (asked twice, the
    second answer from the memo) names exactly the living operatives for which the
    computation of 4.8 (the marker as an :class:`Objective` within control range, or carried
    by it) holds, in the order of ``alive()``; and after an operative moves onto the marker
    the memo is dropped and the answer is computed again. Both contested and uncontested
    markers occur, so the comparison is not trivial."""
    seen = set()
    for _, w in _working(states, 1):
        for m in list(w.markers):
            expected = tuple(o for o in w.alive() if _reference_contests(w, o, m.name))
            assert markers.contesting(w, m.name) == expected
            assert markers.contesting(w, m.name) == expected
            for o in w.alive():
                assert markers.contests(w, o, m.name) == _reference_contests(w, o, m.name)
            seen.add(bool(expected))
        mover = w.alive()[0]
        target = w.markers[0]
        if not target.carrier:
            w.set_op(mover.id, x=target.x, y=target.y, elevation=0.0)
            moved = tuple(o for o in w.alive() if _reference_contests(w, o, target.name))
            assert markers.contesting(w, target.name) == moved
    assert seen == {True, False}


def test_marker_controller_equals_the_uncached_computation(states: list[GameState]) -> None:
    """For every marker of every sampled state, :func:`markers.controller` (asked twice)
    gives the player the computation without memo gives (greater total APL of the contesting
    operatives, the hooks as before); controlled and uncontrolled markers both occur."""
    seen = set()
    for _, w in _working(states, 1):
        for m in list(w.markers):
            expected = _reference_controller(w, m.name)
            assert markers.controller(w, m.name) == expected
            assert markers.controller(w, m.name) == expected
            seen.add(expected)
    assert "" in seen and len(seen) >= 2


# -- attack profiles ---------------------------------------------------------------------------


def _profile_queries(w: Work) -> Iterator[tuple[object, str, str, dict[str, object]]]:
    for o in w.alive():
        enemies = w.enemies_of(o.id)
        for kind in ("ranged", "melee"):
            for name, _, _ in weapons.weapons_of(w, o.id, kind):
                yield o, name, kind, {}
                if enemies:
                    yield o, name, kind, {"target": enemies[0].id, "hit_change": 1}


def test_attack_profile_kept_on_the_state_equals_the_computation(
    states: list[GameState],
) -> None:
    """For every living operative's weapons in sampled states, with and without a target,
    :func:`attacks.attack_profile` on a copy of the state (asked twice, the second answer
    kept on the state) equals the profile computed on a fresh copy; a second copy of the
    same state gets the kept answer, which is still that value."""
    asked = 0
    for s, w in _working(states, 3):
        for o, name, kind, extra in _profile_queries(w):
            expected = attacks._attack_profile(
                Work(s),
                o,  # type: ignore[arg-type]
                name,
                kind,
                int(extra.get("hit_change", 0)),  # type: ignore[call-overload]
                None,
                str(extra.get("target", "")),
            )
            first = attacks.attack_profile(w, o, name, kind, **extra)  # type: ignore[arg-type]
            again = attacks.attack_profile(Work(s), o, name, kind, **extra)  # type: ignore[arg-type]
            assert first == again == expected
            asked += 1
    assert asked > 100


def test_attack_profile_is_computed_again_once_the_copy_changes(
    states: list[GameState],
) -> None:
    """An operative whose Hit is worsened by an effect added to the working copy after its
    profile was kept on the state (the operative itself unchanged) gets the profile of the
    changed copy (Hit 1 worse, up to 6+, 2.1), never the kept one; so does one injured on the
    copy (2.3). The state's memo only answers while the copy equals the state."""
    changed = 0
    for s, w in _working(states, 5):
        for o in w.alive():
            ranged = weapons.weapons_of(w, o.id, "ranged")
            if not ranged:
                continue
            name = ranged[0][0]
            kept = attacks.attack_profile(w, o, name, "ranged")
            w.effects.append(Effect("hit", o.id, "end_next_activation", value=1))
            got = attacks.attack_profile(w, o, name, "ranged")
            assert got == attacks._attack_profile(w, o, name, "ranged", 0, None, "")
            assert got.hit == min(6, kept.hit + 1)
            hurt = w.set_op(o.id, wounds=1)
            assert attacks.attack_profile(w, hurt, name, "ranged") == attacks._attack_profile(
                w, hurt, name, "ranged", 0, None, ""
            )
            assert attacks.attack_profile(Work(s), o, name, "ranged") == kept
            changed += 1
            break
    assert changed > 5


def test_state_memo_is_given_only_while_the_copy_equals_the_state(
    states: list[GameState],
) -> None:
    """A fresh copy (and one whose node is set to the state's) answers with the state's memo;
    a copy with a changed operative, an emitted event, an added effect or another turning
    point answers ``None``."""
    s = states[len(states) // 2]
    w = Work(s)
    assert w.state_memo() is s._memo
    w.node = s.node
    assert w.state_memo() is s._memo
    o = w.alive()[0]
    w.set_op(o.id, ap=o.ap + 1)
    assert w.state_memo() is None
    w = Work(s)
    w.emit("battle_ending")
    assert w.state_memo() is None
    w = Work(s)
    w.tp += 1
    assert w.state_memo() is None
    w = Work(s)
    w.tokens = [*w.tokens]
    assert w.state_memo() is s._memo  # equal parts: the same value


def test_attack_profile_memo_is_bounded(
    states: list[GameState], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a bound of 4 profiles a state, asking for every profile of a state leaves at most
    4 kept on it."""
    monkeypatch.setattr(attacks, "PROFILE_ENTRIES", 4)
    s = states[0]
    s._memo.pop("attack profiles", None)
    w = Work(s)
    for o, name, kind, extra in _profile_queries(w):
        attacks.attack_profile(w, o, name, kind, **extra)  # type: ignore[arg-type]
    assert 0 < len(s._memo["attack profiles"]) <= 4


# -- weapons, equipment, rule actions --------------------------------------------------------


def test_weapons_of_equals_naming_every_profile_again(states: list[GameState]) -> None:
    """:func:`weapons.weapons_of` (the weapons rules give named once per weapon) lists what
    naming every profile of the datacard's and the given weapons gives, in order; some
    operatives are given weapons (grenades, equipment), so the memo is used."""
    given_seen = 0
    for _, w in _working(states, 2):
        for o in w.alive():
            for kind in ("ranged", "melee"):
                given = [x for fn in w.ctx.hooks.weapon_sources for x in fn(w, o.id, kind)]
                expected = list(weapons._profiles_of(w.ctx.datacards[o.id].weapons, kind))
                expected += weapons._profiles_of(given, kind)
                assert weapons.weapons_of(w, o.id, kind) == expected
                given_seen += len(given)
    assert given_seen > 0


def test_named_profiles_memo_is_bounded(
    states: list[GameState], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a bound of 2 weapons, naming many weapons keeps at most 2."""
    monkeypatch.setattr(weapons, "NAMED_PROFILE_ENTRIES", 2)
    monkeypatch.setattr(weapons, "_NAMED", {})
    w = Work(states[0])
    for o in w.alive():
        for weapon in w.ctx.datacards[o.id].weapons:
            weapons._named_profiles(weapon, weapon.kind)
    assert len(weapons._NAMED) <= 2


def _reference_has_equipment(equipment: tuple[str, ...], name: str) -> bool:
    low = " ".join(name.lower().split())
    return any(low in (" ".join(s.lower().split()), option_of(s).lower()) for s in equipment)


def test_has_equipment_equals_the_computation(states: list[GameState]) -> None:
    """For random selections of the names met in the battles and random names asked (exact,
    with other case and spaces, an option's name, unknown), :func:`selection.has_equipment`
    answers as the comparison of names does, asked twice."""
    rng = random.Random(29)
    names = sorted({n for s in states for p in s.players for n in p.equipment})
    assert names
    asked = [
        *names,
        *(option_of(n) for n in names),
        "Nothing Selected",
        *(n.upper() for n in names),
    ]
    w = Work(states[-1])
    for _ in range(300):
        chosen = tuple(rng.sample(names, rng.randint(0, min(4, len(names)))))
        w.set_pl("A", equipment=chosen)
        for name in rng.sample(asked, 5):
            expected = _reference_has_equipment(chosen, name)
            assert selection.has_equipment(w, "A", name) == expected
            assert selection.has_equipment(w, "A", name) == expected


def _reference_find(w: Work, o, text: str) -> RuleActionLike | None:  # type: ignore[no-untyped-def]
    best: RuleActionLike | None = None
    for act in _mine(w, o):
        if act.text == text:
            return act
        if text.startswith(act.text + " ") and (best is None or len(act.text) > len(best.text)):
            best = act
    return best


def test_find_rule_action_equals_the_linear_search(states: list[GameState]) -> None:
    """For each player, every rule action's notation name, that name followed by arguments,
    a prefix of it and unknown texts: :func:`find_rule_action` (its table by name built once
    per battle) returns the action the search through every rule action in order returns."""
    w = Work(states[-1])
    found = 0
    for player in ("A", "B"):
        o = w.alive(player)[0] if w.alive(player) else w.ops[0 if player == "A" else -1]
        texts = ["", "nothing", "secure", "secure centre"]
        for act in _mine(w, o):
            texts += [act.text, f"{act.text} centre", f"{act.text} a b", act.text[:-1]]
        for text in texts:
            expected = _reference_find(w, o, text)
            assert find_rule_action(w, o, text) is expected
            found += expected is not None
    assert found > 0


# -- Clearance Sweep advice ------------------------------------------------------------------


def _reference_sweep_advice(w: Work, player: str, x: float, y: float) -> float:
    from engine.game.tokens import Token

    t = Token(kasrkin_ploys.CLEARANCE_SWEEP, player, "", x, y)
    within = kasrkin_ploys.within_sweep
    enemies = [o.id for o in w.alive(other(player)) if within(w, t, o.id)]
    if not enemies:
        return 0.0
    mine = [
        o.id for o in w.alive(player) if kasrkin_ploys.is_kasrkin(w, o.id) and within(w, t, o.id)
    ]
    return min(0.5, 0.1 * len(mine))


def test_clearance_sweep_advice_equals_the_computation(states: list[GameState]) -> None:
    """For the Kasrkin player of sampled states, with some operatives of both sides moved to
    random spots around the killzone's centre (the bases kept on the working copy must be
    dropped when they move), and every spot Clearance Sweep offers, the advice equals the
    count through ``within_sweep``; some spots are worth something."""
    rng = random.Random(31)
    ploy = kasrkin_ploys.CLEARANCE_SWEEP_PLOY
    valued = 0
    for _, w in _working(states, 6):
        for _round in range(2):
            for x, y in kasrkin_ploys.sweep_spots(w):
                a = Action("Ploy", text=f"clearance sweep at {x:g},{y:g}")
                got = ploy.advice(w, "A", a, {})
                expected = _reference_sweep_advice(w, "A", float(f"{x:g}"), float(f"{y:g}"))
                assert got == expected
                valued += got > 0
            cx, cy = w.kz.width / 2, w.kz.depth / 2
            for o in rng.sample(w.alive(), 6):
                w.set_op(o.id, x=cx + rng.uniform(-4, 4), y=cy + rng.uniform(-4, 4))
    assert valued > 0
