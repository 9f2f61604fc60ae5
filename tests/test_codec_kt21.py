"""The action codec under Kill Team 2021 (``engine.envs.codec_kt21``, ``rules/KT21.md``).

Random playouts of the built-in KT21 teams (each as A and as B, the three KT21 missions, both
killzone layouts) check at every decision node that every listed legal action is encoded,
that the indices are distinct and in range, that decoding gives back the very action and
that the mask is True exactly at them. The playouts pick a verb at random and then one of its
actions, so that the few Shoot or Overwatch choices are not drowned by hundreds of move
destinations. The shipped KT21 scenario positions (fights, charges, markers carried and
dropped, parries that discard two dice) are checked the same way, with a few random steps
played on from each. Unit tests pin the KT21 families' layout and a few indices computed by
hand from it.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from collections.abc import Iterator

import numpy as np
import pytest

from engine.agents.scenario_choices import best_choice
from engine.envs.codec import (
    ACTION_SPACE_SIZE,
    FAMILIES,
    KT24_ACTION_SPACE_SIZE,
    MAX_WEAPONS,
    ActionCodec,
    CodecError,
)
from engine.envs.codec_words import KT21_WORDS
from engine.game.actions import Action, parse_action
from engine.game.context import GameOptions
from engine.game.drivers import SeededDice
from engine.game.scenario_file import load_scenario, shipped_scenarios
from engine.game.state import Chance, Decision, GameState
from engine.game.weapons import weapon_name
from engine.geometry import load_killzone
from engine.rulesets import get as get_ruleset
from engine.rulesets import new_game, position
from engine.teams import load_builtin_team
from tests.kt21_attack_support import activated, play

TEAMS = ("kt21_kasrkin", "kt21_legionaries")
MISSIONS = ("critical_ops_2022", "corebook_2021", "lite")
LAYOUTS = ("open_ruins", "close_quarters")
GAMES = [
    (TEAMS[i % 2], TEAMS[(i + 1) % 2], LAYOUTS[i % 2], MISSIONS[i % 3], 200 + i) for i in range(4)
]
MOVES = ("Normal Move", "Dash", "Fall Back", "Charge")


@functools.cache
def _start(a: str, b: str, layout: str, mission: str) -> GameState:
    options = GameOptions(ruleset="kt21", mission=mission)
    return new_game(
        load_killzone(layout),
        load_builtin_team(a).default(),
        load_builtin_team(b).default(),
        options,
    )


def _pick(state: GameState, rng: random.Random) -> Action:
    """A random legal action: a verb first, then one of its actions."""
    legal = list(state.legal_actions())
    verb = rng.choice(sorted({a.verb for a in legal}))
    return rng.choice([a for a in legal if a.verb == verb])


@functools.cache
def _playout(a: str, b: str, layout: str, mission: str, seed: int) -> tuple[GameState, ...]:
    """Every state of one seeded random KT21 playout."""
    state = _start(a, b, layout, mission)
    rng, dice = random.Random(seed), SeededDice(seed)
    states = [state]
    while not state.is_terminal:
        action = dice.roll(state) if isinstance(state.node, Chance) else _pick(state, rng)
        state, _ = state.apply(action)
        states.append(state)
    return tuple(states)


def _decisions() -> Iterator[GameState]:
    return (s for g in GAMES for s in _playout(*g) if isinstance(s.node, Decision))


def _first(kind: str, verb: str = "") -> GameState:
    """The first decision of ``kind`` in the playouts (listing ``verb`` if given)."""
    for s in _decisions():
        if s.node.kind == kind and (  # type: ignore[union-attr]
            not verb or any(a.verb == verb for a in s.legal_actions())
        ):
            return s
    raise AssertionError(f"no {kind} decision in the playouts")


def _check_round_trip(codec: ActionCodec, state: GameState) -> list[int]:
    legal = list(state.legal_actions())
    indices = [codec.encode(state, a) for a in legal]
    assert len(set(indices)) == len(indices)
    assert all(0 <= i < ACTION_SPACE_SIZE for i in indices)
    assert [codec.decode(state, i) for i in indices] == legal
    mask = codec.mask(state)
    assert set(np.flatnonzero(mask).tolist()) == set(indices)
    assert codec.legal_indices(state).tolist() == sorted(indices)
    return indices


def _offset(name: str) -> int:
    return next(f.offset for f in FAMILIES if f.name == name)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-vs-{g[1]}-{g[2]}-{g[3]}")
def test_every_listed_kt21_action_round_trips_with_an_exact_mask(
    game: tuple[str, str, str, str, int],
) -> None:
    """At every decision of a KT21 random playout the listed legal actions get distinct
    indices in ``range(ACTION_SPACE_SIZE)``, decode back to themselves, and the mask is True
    exactly at them: the codec's contract, now for every KT21 decision (set-up, Strategy
    phase, activations, Overwatch turns, attacks)."""
    states = _playout(*game)
    codec = ActionCodec.for_state(states[0])
    checked = 0
    for state in states:
        if isinstance(state.node, Decision):
            _check_round_trip(codec, state)
            checked += 1
    assert checked > 100


def _past_the_weapon_slots(state: GameState) -> bool:
    """Whether a listed attack names a weapon profile past the codec's ``MAX_WEAPONS``
    slots of its kind (the fixture teams of some scenarios carry every weapon rule on one
    operative): such a decision cannot be encoded, and the codec says so by name."""
    for a in state.legal_actions():
        if a.verb in ("Shoot", "Overwatch", "Fight", "Retaliate") and a.weapon:
            kind = "ranged" if a.verb in ("Shoot", "Overwatch") else "melee"
            card = state.ctx.datacards[a.op]
            names = [weapon_name(w, p) for w in card.weapons if w.kind == kind for p in w.profiles]
            if a.weapon in names and names.index(a.weapon) >= MAX_WEAPONS:
                return True
    return False


KT21_SCENARIOS = [p for p in shipped_scenarios() if p.stem.startswith("kt21_")]


def test_kt21_scenario_positions_round_trip_and_reach_every_kt21_family() -> None:
    """Every decision a shipped KT21 scenario reaches (and 6 random steps played on from
    each of its positions) encodes exactly, and together with the playouts they reach every
    ``kt21_*`` family: the fights, charges, Fall Backs, markers dropped and two-dice parries
    the random playouts rarely reach (with a Fusillade split, :func:`_fusillade`, and a
    marker dropped, :func:`_carrier`). A decision listing an attack with a weapon profile
    past the codec's ``MAX_WEAPONS`` slots (a fixture team carrying every weapon rule on
    one operative) is refused with a :class:`CodecError` naming that bound."""
    seen: set[str] = set()
    checked = refused = 0
    for path in KT21_SCENARIOS:
        scenario = load_scenario(path)
        ruleset = get_ruleset(scenario.options.ruleset)
        for k, _step, state, _events in scenario.walk(ruleset=ruleset, chooser=best_choice):
            codec = ActionCodec.for_state(state)
            rng, dice, s = random.Random(k), SeededDice(k), state
            for _ in range(6):
                if s.is_terminal:
                    break
                if isinstance(s.node, Chance):
                    s, _ = s.apply(dice.roll(s))
                    continue
                if _past_the_weapon_slots(s):
                    with pytest.raises(CodecError, match="MAX_WEAPONS"):
                        codec.mask(s)
                    refused += 1
                else:
                    seen.update(codec.fields(i)[0] for i in _check_round_trip(codec, s))
                    checked += 1
                s, _ = s.apply(_pick(s, rng))
    assert checked > 10 * max(refused, 1)
    for state in (*_decisions(), _fusillade(), _carrier()):
        seen.update(ActionCodec.for_state(state).fields(i)[0] for i in _legal(state))
    kt21 = {f.name for f in FAMILIES if f.name.startswith("kt21_")}
    assert kt21 <= seen, kt21 - seen


def _legal(state: GameState) -> list[int]:
    return ActionCodec.for_state(state).legal_indices(state).tolist()


def test_kt21_moves_of_one_decision_name_one_operative() -> None:
    """The ``kt21_move`` family has no operative field: every complete move listed at one
    decision is the acting operative's (6.1: an operative performs its own actions; the
    Recon Dash is one operative's). Checked at every decision of the playouts."""
    seen = 0
    for s in _decisions():
        movers = {a.op for a in s.legal_actions() if a.verb in MOVES and a.point is not None}
        assert len(movers) <= 1
        seen += len(movers)
    assert seen > 0


def test_kt21_families_follow_the_published_layout() -> None:
    """The KT21 families start where the KT24 ones end (183228) and their sizes are, by
    hand: 18 words (2 Defender picks, 2 orders, 3 scouting options, 4 archetypes and an
    unsourced tac op, 2 saves, 4 two-dice parries); 2 verbs x 32 operative slots; 4 move
    verbs x 660 cells x 8 sub-slots; 1 x 32 x 12 x 32 Overwatch attacks; 1 x 64 buckets x 8
    Drop marker; 64 buckets x 32 operatives x 2 equipment assignments; 9^4 Fusillade
    splits (0 to 8 dice on each of 4 targets)."""
    assert len(KT21_WORDS) == 18
    sizes = [18, 2 * 32, 4 * 660 * 8, 32 * 12 * 32, 64 * 8, 64 * 32 * 2, 9**4]
    names = [
        "kt21_word",
        "kt21_operative",
        "kt21_move",
        "kt21_attack",
        "kt21_named",
        "kt21_equipment_on",
        "kt21_split",
    ]
    offsets = [183228 + sum(sizes[:k]) for k in range(len(sizes))]
    assert [_offset(n) for n in names] == offsets
    assert [f.name for f in FAMILIES[-7:]] == names
    assert KT24_ACTION_SPACE_SIZE == 183228
    assert ACTION_SPACE_SIZE == 183228 + sum(sizes) == 227887


def test_scouting_choice_is_its_kt21_word() -> None:
    """``Op scouting recon`` is KT21 word 6 (after the two Defender picks, the two orders,
    Fortify and Infiltrate): index 183228 + 6 = 183234."""
    state = _first("scouting")
    codec = ActionCodec.for_state(state)
    assert codec.encode(state, parse_action("Op scouting recon")) == 183234
    assert codec.describe(183234) == "Op scouting recon"


def test_invulnerable_save_choice_is_its_kt21_word() -> None:
    """10.3: against AP2 the Warded defender (Save 4+, invulnerable 5+) chooses its save;
    ``Save invulnerable`` is KT21 word 12 and ``Save normal`` word 13: indices 183240 and
    183241, and they are the only legal ones."""
    s = activated({"RED-3": {"at": (5, 14)}, "BLU-5": {"at": (16, 14)}})
    s, _ = play(s, ["Shoot RED-3 ap2 gun at BLU-5"], ["roll 5,5,1,1"])
    assert s.node.kind == "invulnerable_save"  # type: ignore[union-attr]
    codec = ActionCodec.for_state(s)
    assert codec.encode(s, parse_action("Save invulnerable")) == 183240
    assert codec.encode(s, parse_action("Save normal")) == 183241
    assert codec.legal_indices(s).tolist() == [183240, 183241]


def test_overwatch_pick_is_verb_and_operative_slot() -> None:
    """``Act <op> overwatch`` (3.5) is in ``kt21_operative`` at verb 0: 183246 + slot, the
    slot being the operative's position in ``state.operatives``."""
    state = _first("overwatch", "Act")
    codec = ActionCodec.for_state(state)
    ids = [o.id for o in state.operatives]
    for a in state.legal_actions():
        if a.verb == "Act":
            assert codec.encode(state, a) == 183246 + ids.index(a.op)
            assert codec.describe(183246 + ids.index(a.op)) == f"Act {a.op} overwatch"


def test_normal_move_index_is_verb_cell_and_rank_by_z_y_x() -> None:
    """A listed ``Normal Move`` (6.1) is ``kt21_move`` (offset 183310) at verb 0: 183310 +
    (verb * 660 + cell) * 8 + k, with the cell of its (x, y) on the 1" grid and k its rank
    by (z, y, x) among the same verb's destinations in that cell."""
    state = _first("action", "Normal Move")
    codec = ActionCodec.for_state(state)
    listed = [a for a in state.legal_actions() if a.verb in MOVES and a.point is not None]

    def cell(a: Action) -> int:
        assert a.point is not None
        return math.floor(a.point[1]) * 30 + math.floor(a.point[0])

    for a in listed:
        assert a.point is not None
        verb = MOVES.index(a.verb)
        same = sorted(
            (b.point[2], b.point[1], b.point[0])
            for b in listed
            if b.point is not None and b.verb == a.verb and cell(b) == cell(a)
        )
        k = same.index((a.point[2], a.point[1], a.point[0]))
        assert codec.encode(state, a) == 183310 + (verb * 660 + cell(a)) * 8 + k


def test_overwatch_attack_is_operative_weapon_and_target_slots() -> None:
    """``Overwatch <op> <weapon> at <target>`` (3.5) is ``kt21_attack`` (offset 204430):
    204430 + (op * 12 + weapon) * 32 + target, the weapon slot being the profile's position
    among the operative's ranged datacard profiles."""
    state = _first("free_action", "Overwatch")
    codec = ActionCodec.for_state(state)
    ids = [o.id for o in state.operatives]
    for a in state.legal_actions():
        if a.verb != "Overwatch":
            continue
        card = state.ctx.datacards[a.op]
        ranged = [weapon_name(w, p) for w in card.weapons if w.kind == "ranged" for p in w.profiles]
        expected = 204430 + (ids.index(a.op) * 12 + ranged.index(a.weapon)) * 32
        assert codec.encode(state, a) == expected + ids.index(a.target)


def test_equipment_on_an_operative_is_item_bucket_and_operative() -> None:
    """``Equipment <item> on <op>`` (1.2 step 6) is ``kt21_equipment_on`` (offset 217230):
    217230 + (bucket * 32 + slot) * 2 + k, the bucket being BLAKE2b-64 of the item's name
    modulo 64 and the slot the operative's (its id in lower case in the notation)."""
    state = _first("kt21_equipment_assign")
    codec = ActionCodec.for_state(state)
    slot = {o.id.lower(): i for i, o in enumerate(state.operatives)}
    for a in state.legal_actions():
        item, op = a.text.rsplit(" on ", 1)
        bucket = int.from_bytes(hashlib.blake2b(item.encode(), digest_size=8).digest()) % 64
        assert codec.encode(state, a) == 217230 + (bucket * 32 + slot[op]) * 2


def _fusillade() -> GameState:
    """The Fusillade decision (12): RED-3 shoots its 4-dice Fusillade gun at BLU-1 with
    BLU-2 1.5" from it (``tests/kt21_attack_support``)."""
    s = activated(
        {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}, "BLU-2": {"at": (16, 15.5)}}
    )
    s, _ = play(s, ["Shoot RED-3 fusillade gun at BLU-1"])
    assert s.node.kind == "fusillade"  # type: ignore[union-attr]
    return s


def test_a_fusillade_split_is_its_dice_per_target() -> None:
    """A Fusillade split of 4 dice over BLU-1 (at least 1) and BLU-2 (12) lists ``Split
    4,0``, ``3,1``, ``2,2``, ``1,3``; each is ``kt21_split`` (offset 221326) with the dice
    per target in base 9, the two missing targets 0: ``Split 3,1`` is 221326 + ((3 * 9 + 1)
    * 9 + 0) * 9 + 0."""
    s = _fusillade()
    codec = ActionCodec.for_state(s)
    splits = {(4, 0), (3, 1), (2, 2), (1, 3)}
    assert {a.values for a in s.legal_actions()} == splits
    for first, second in splits:
        index = 221326 + ((first * 9 + second) * 9 + 0) * 9 + 0
        assert codec.encode(s, Action("Split", values=(first, second))) == index
        assert codec.fields(index) == ("kt21_split", (first, second, 0, 0))
    assert codec.describe(221326 + (3 * 9 + 1) * 81) == "Split 3,1,0,0"


def _carrier() -> GameState:
    """KAS-1 activated while carrying the mid-north objective marker (open ruins, the KT21
    mission's six markers): it may drop it for free where it stands (15.1)."""
    kasrkin = load_builtin_team("kt21_kasrkin").default()
    legionaries = load_builtin_team("kt21_legionaries").default()
    operatives = {"KAS-1": {"at": (14, 14.5), "carrying": "mid-north"}, "LEG-1": {"at": (24, 3)}}
    s = position(
        load_killzone("open_ruins"),
        kasrkin,
        legionaries,
        operatives=operatives,
        options=GameOptions(ruleset="kt21"),
    )
    return s.apply("Activate KAS-1 engage")[0]


def test_drop_marker_is_its_marker_name_bucket() -> None:
    """``Drop marker KAS-1 at 14,14.5`` names no marker (the carrier holds one): it is
    ``kt21_named`` (offset 216718) at verb 0 and the bucket of the empty name, BLAKE2b-64 of
    ``""`` modulo 64: 216718 + (0 * 64 + bucket) * 8 + 0."""
    s = _carrier()
    codec = ActionCodec.for_state(s)
    bucket = int.from_bytes(hashlib.blake2b(b"", digest_size=8).digest()) % 64
    drop = parse_action("Drop marker KAS-1 at 14,14.5")
    assert drop in s.legal_actions()
    assert codec.encode(s, drop) == 216718 + bucket * 8
    assert codec.describe(216718 + bucket * 8) == f"Drop marker name bucket {bucket} k 0"


def test_bounds_the_kt21_families_cannot_hold_are_named() -> None:
    """A split over more targets than ``MAX_SPLIT_TARGETS`` and an equipment assignment to
    an operative of another battle are refused with a :class:`CodecError` naming them (the
    state is unchanged)."""
    from engine.envs.codec_kt21 import kt21_key

    state = _first("scouting")
    codec = ActionCodec.for_state(state)
    before = state.hash()
    with pytest.raises(CodecError, match="MAX_SPLIT_TARGETS"):
        kt21_key(codec, state, Action("Split", values=(1, 1, 1, 1, 1)))
    with pytest.raises(CodecError, match="'zzz-9' is not an operative of this battle"):
        kt21_key(codec, state, Action("Equipment", text="frag grenade on zzz-9"))
    assert state.hash() == before


def test_kt24_notations_keep_their_kt24_families_in_a_kt21_battle() -> None:
    """A KT21 action written like a KT24 one has the KT24 family's index: ``Initiative A``
    is fixed word 6, ``Activate <op> engage`` is 3054 + slot (the published KT24 layout)."""
    state = _first("initiative")
    assert ActionCodec.for_state(state).encode(state, parse_action("Initiative A")) == 6
    state = _first("activate")
    codec = ActionCodec.for_state(state)
    ids = [o.id for o in state.operatives]
    for a in state.legal_actions():
        if a.text == "engage":
            assert codec.encode(state, a) == 3054 + ids.index(a.op)
